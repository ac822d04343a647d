/*
 * The floor of one step (issue 9, item 2): the in-process cost of only the
 * work a step cannot avoid, the Ed25519 verifications of its orders
 * (OpenSSL EVP_DigestVerify) and the git objects it writes (libgit2 blobs,
 * trees, one commit, one annotated tag) into a scratch repository.
 *
 *     floor_bench SIGS BLOBS TREES BLOB_BYTES [STEPS]
 *
 * SIGS, BLOBS and TREES are counted by run.sh from a real step's commit;
 * BLOB_BYTES is the mean size of that step's blobs. Prints a table and one
 * JSON line with the median seconds per step and the spread.
 */
#include <git2.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define REPEATS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void die(const char *what)
{
	const git_error *e = git_error_last();

	fprintf(stderr, "floor_bench: %s%s%s\n", what, e ? ": " : "", e ? e->message : "");
	exit(1);
}

/*
 * What an SSHSIG verification hashes and checks: the signed blob is
 * "SSHSIG" || namespace || reserved || hash algorithm || H(message), about
 * 100 bytes, and H is SHA-512 over the whole order file.
 */
struct sig_case {
	EVP_PKEY *key;
	unsigned char order[1024];
	unsigned char sig[64];
	size_t sig_len;
};

static void signed_blob(unsigned char out[128], const unsigned char *order, size_t len)
{
	static const char head[] = "SSHSIG\0\0\0\x10" "estafette-orders\0\0\0\0\0\0\0\x06sha512\0\0\0\x40";

	memset(out, 0, 128);
	memcpy(out, head, sizeof(head) - 1);
	SHA512(order, len, out + sizeof(head) - 1);
}

static void sig_case_init(struct sig_case *c)
{
	EVP_PKEY_CTX *kctx = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char blob[128];

	if (!kctx || EVP_PKEY_keygen_init(kctx) <= 0 || EVP_PKEY_keygen(kctx, &c->key) <= 0)
		die("ed25519 keygen");
	for (size_t i = 0; i < sizeof(c->order); i++)
		c->order[i] = (unsigned char)('a' + i % 26);
	signed_blob(blob, c->order, sizeof(c->order));
	c->sig_len = sizeof(c->sig);
	if (!md || EVP_DigestSignInit(md, NULL, NULL, NULL, c->key) <= 0 ||
	    EVP_DigestSign(md, c->sig, &c->sig_len, blob, sizeof(blob)) <= 0)
		die("ed25519 sign");
	EVP_MD_CTX_free(md);
	EVP_PKEY_CTX_free(kctx);
}

static void verify_once(const struct sig_case *c)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char blob[128];

	signed_blob(blob, c->order, sizeof(c->order));
	if (!md || EVP_DigestVerifyInit(md, NULL, NULL, NULL, c->key) <= 0 ||
	    EVP_DigestVerify(md, c->sig, c->sig_len, blob, sizeof(blob)) != 1)
		die("ed25519 verify");
	EVP_MD_CTX_free(md);
}

/* One step's objects: BLOBS blobs, TREES trees chained, a commit, a tag. */
static void write_step(git_repository *repo, git_oid *head, int have_head, long step,
		       int blobs, int trees, size_t blob_bytes, char *buf)
{
	git_treebuilder *tb = NULL;
	git_signature *who = NULL;
	git_commit *parent = NULL;
	git_tree *tree = NULL;
	git_object *target = NULL;
	git_oid blob, tree_oid, commit, tag;
	char name[32];

	if (git_signature_new(&who, "estafette", "estafette@localhost", 1800000000, 0) < 0)
		die("signature");
	if (git_treebuilder_new(&tb, repo, NULL) < 0)
		die("treebuilder");
	for (int i = 0; i < blobs; i++) {
		snprintf(buf, blob_bytes, "step %ld blob %d ", step, i);
		buf[strlen(buf)] = ' ';
		if (git_blob_create_from_buffer(&blob, repo, buf, blob_bytes) < 0)
			die("blob");
		snprintf(name, sizeof(name), "f%d", i);
		if (git_treebuilder_insert(NULL, tb, name, &blob, GIT_FILEMODE_BLOB) < 0)
			die("tree insert");
	}
	for (int i = 0; i < trees; i++) {
		if (git_treebuilder_write(&tree_oid, tb) < 0)
			die("tree");
		git_treebuilder_free(tb);
		if (git_treebuilder_new(&tb, repo, NULL) < 0 ||
		    git_treebuilder_insert(NULL, tb, "d", &tree_oid, GIT_FILEMODE_TREE) < 0)
			die("tree chain");
		snprintf(name, sizeof(name), "%ld", step);
		if (git_treebuilder_insert(NULL, tb, name, &blob, GIT_FILEMODE_BLOB) < 0)
			die("tree insert");
	}
	if (git_tree_lookup(&tree, repo, &tree_oid) < 0)
		die("tree lookup");
	if (have_head && git_commit_lookup(&parent, repo, head) < 0)
		die("parent");
	if (git_commit_create(&commit, repo, NULL, who, who, NULL, "step", tree,
			      parent ? 1 : 0, (const git_commit **)&parent) < 0)
		die("commit");
	if (git_object_lookup(&target, repo, &commit, GIT_OBJECT_COMMIT) < 0)
		die("commit lookup");
	snprintf(name, sizeof(name), "step-%04ld", step);
	if (git_tag_create(&tag, repo, name, target, who, "step", 0) < 0)
		die("tag");
	if (git_reference_create(NULL, repo, "refs/heads/main", &commit, 1, "step") < 0)
		die("ref");
	*head = commit;
	git_object_free(target);
	git_commit_free(parent);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_signature_free(who);
}

int main(int argc, char **argv)
{
	int sigs, blobs, trees;
	size_t blob_bytes;
	long steps;
	char dir[] = "/tmp/estafette-floor.XXXXXX";
	double git_v[REPEATS], sig_v[REPEATS], tot, git_med, sig_med;
	git_repository *repo = NULL;
	struct sig_case c = {0};
	git_oid head;
	char *buf;
	long step = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: floor_bench SIGS BLOBS TREES BLOB_BYTES [STEPS]\n");
		return 64;
	}
	sigs = atoi(argv[1]);
	blobs = atoi(argv[2]);
	trees = atoi(argv[3]);
	blob_bytes = (size_t)atol(argv[4]);
	steps = argc > 5 ? atol(argv[5]) : 300;
	if (blobs < 1 || trees < 1 || blob_bytes < 64 || steps < 1)
		return 64;
	buf = malloc(blob_bytes + 1);
	memset(buf, 'x', blob_bytes);
	git_libgit2_init();
	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 1) < 0)
		die("scratch repository");
	sig_case_init(&c);
	for (int r = 0; r < REPEATS; r++) {
		double t = now();

		for (long s = 0; s < steps; s++, step++)
			write_step(repo, &head, step > 0, step, blobs, trees, blob_bytes, buf);
		git_v[r] = (now() - t) / (double)steps;
		t = now();
		for (long s = 0; s < steps * (sigs > 0 ? sigs : 1); s++)
			verify_once(&c);
		sig_v[r] = (now() - t) / (double)steps * (sigs > 0 ? 1 : 0);
	}
	qsort(git_v, REPEATS, sizeof(double), cmp_double);
	qsort(sig_v, REPEATS, sizeof(double), cmp_double);
	git_med = git_v[REPEATS / 2];
	sig_med = sig_v[REPEATS / 2];
	tot = git_med + sig_med;
	printf("%-44s %12s %8s\n", "floor per step (in-process)", "microseconds", "spread");
	printf("%-44s %12.1f %7.1f%%\n", "Ed25519 verifications (EVP_DigestVerify)", sig_med * 1e6,
	       sig_med > 0 ? 100 * (sig_v[REPEATS - 1] - sig_v[0]) / sig_med : 0.0);
	printf("%-44s %12.1f %7.1f%%\n", "git objects (libgit2, loose)", git_med * 1e6,
	       100 * (git_v[REPEATS - 1] - git_v[0]) / git_med);
	printf("%-44s %12.1f\n", "floor", tot * 1e6);
	printf("{\"bench\": \"floor\", \"sigs\": %d, \"blobs\": %d, \"trees\": %d, \"commits\": 1, "
	       "\"tags\": 1, \"blob_bytes\": %zu, \"verify_seconds\": %.9f, \"git_seconds\": %.9f, "
	       "\"floor_seconds\": %.9f, \"git_spread\": %.3f, \"repeats\": %d, \"steps\": %ld}\n",
	       sigs, blobs, trees, blob_bytes, sig_med, git_med, tot,
	       (git_v[REPEATS - 1] - git_v[0]) / git_med, REPEATS, steps);
	EVP_PKEY_free(c.key);
	git_repository_free(repo);
	git_libgit2_shutdown();
	free(buf);
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd) != 0)
			return 1;
	}
	return 0;
}
