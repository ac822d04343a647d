/*
 * The floor of one step: the in-process cost of only the
 * work a step cannot avoid, the Ed25519 verifications of its orders
 * (OpenSSL EVP_DigestVerify) and the git objects it writes (libgit2 blobs,
 * trees, one commit, one annotated tag) into a scratch repository.
 *
 *     floor_bench SIGS BLOBS TREES BLOB_BYTES [STEPS]
 *
 * SIGS, BLOBS and TREES are counted by run.sh from a real step's commit;
 * BLOB_BYTES is the mean size of that step's blobs. Prints a table and one
 * JSON line with the median seconds per step and the spread.
 *
 * The objects are written three ways, each to its own scratch repository:
 * durably as one pack a step (estafette's way, internal/store/pack.c, here
 * with libgit2's packbuilder, and no merging: see PACKS_AT_MOST), and
 * as loose files, durably and as libgit2 writes them by default (no
 * fsync). A step must be on disk before main names it, so the floor takes
 * the cheaper durable way; the no-fsync figure is printed beside it.
 */
#include <git2.h>
#include <git2/sys/mempack.h>
#include <git2/sys/odb_backend.h>
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

/*
 * Where a step's objects go: loose files (mempack NULL), or memory and then
 * one pack file a step, as estafette writes them (internal/store/pack.c).
 */
struct sink {
	git_odb_backend *mempack;
	git_oid ids[64];
	int n;
};

static void note(struct sink *s, const git_oid *id)
{
	if (s->mempack && s->n < 64)
		git_oid_cpy(&s->ids[s->n++], id);
}

static void sink_packed(struct sink *s, git_repository *repo)
{
	git_odb *odb = NULL;

	if (git_repository_odb(&odb, repo) < 0 || git_mempack_new(&s->mempack) < 0 ||
	    git_odb_add_backend(odb, s->mempack, 999) < 0)
		die("mempack");
	git_odb_free(odb);
}

/* The noted objects as one pack in objects/pack, before any ref names them. */
static void flush(struct sink *s, git_repository *repo)
{
	git_packbuilder *pb = NULL;
	git_odb_writepack *w = NULL;
	git_indexer_progress stats = {0};
	git_buf pack = {0};
	git_odb *odb = NULL;

	if (!s->mempack)
		return;
	if (git_packbuilder_new(&pb, repo) < 0)
		die("packbuilder");
	git_packbuilder_set_threads(pb, 1);
	for (int i = 0; i < s->n; i++)
		if (git_packbuilder_insert(pb, &s->ids[i], NULL) < 0)
			die("pack insert");
	if (git_packbuilder_write_buf(&pack, pb) < 0 || git_repository_odb(&odb, repo) < 0 ||
	    git_odb_write_pack(&w, odb, NULL, NULL) < 0 ||
	    w->append(w, pack.ptr, pack.size, &stats) < 0 || w->commit(w, &stats) < 0 ||
	    git_odb_refresh(odb) < 0)
		die("pack write");
	w->free(w);
	git_mempack_reset(s->mempack);
	s->n = 0;
	git_odb_free(odb);
	git_buf_dispose(&pack);
	git_packbuilder_free(pb);
}

/* One step's objects: BLOBS blobs, TREES trees chained, a commit, a tag. */
static void write_step(git_repository *repo, struct sink *sink, git_oid *head, int have_head,
		       long step, int blobs, int trees, size_t blob_bytes, char *buf)
{
	git_treebuilder *tb = NULL;
	git_signature *who = NULL;
	git_commit *parent = NULL;
	git_tree *tree = NULL;
	git_object *target = NULL;
	git_oid blob, tree_oid, commit, tag;
	char name[64];

	if (git_signature_new(&who, "estafette", "estafette@localhost", 1800000000, 0) < 0)
		die("signature");
	if (git_treebuilder_new(&tb, repo, NULL) < 0)
		die("treebuilder");
	for (int i = 0; i < blobs; i++) {
		snprintf(buf, blob_bytes, "step %ld blob %d ", step, i);
		buf[strlen(buf)] = ' ';
		if (git_blob_create_from_buffer(&blob, repo, buf, blob_bytes) < 0)
			die("blob");
		note(sink, &blob);
		snprintf(name, sizeof(name), "f%d", i);
		if (git_treebuilder_insert(NULL, tb, name, &blob, GIT_FILEMODE_BLOB) < 0)
			die("tree insert");
	}
	for (int i = 0; i < trees; i++) {
		if (git_treebuilder_write(&tree_oid, tb) < 0)
			die("tree");
		note(sink, &tree_oid);
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
	note(sink, &commit);
	if (git_object_lookup(&target, repo, &commit, GIT_OBJECT_COMMIT) < 0)
		die("commit lookup");
	snprintf(name, sizeof(name), "step-%04ld", step);
	if (git_tag_annotation_create(&tag, repo, name, target, who, "step") < 0)
		die("tag");
	note(sink, &tag);
	flush(sink, repo);
	snprintf(name, sizeof(name), "refs/tags/step-%04ld", step);
	if (git_reference_create(NULL, repo, name, &tag, 0, NULL) < 0 ||
	    git_reference_create(NULL, repo, "refs/heads/main", &commit, 1, "step") < 0)
		die("ref");
	*head = commit;
	git_object_free(target);
	git_commit_free(parent);
	git_tree_free(tree);
	git_treebuilder_free(tb);
	git_signature_free(who);
}

/* One way of writing a step's objects, timed over STEPS steps a repetition. */
struct variant {
	const char *label;
	int fsync, packed;
	git_repository *repo;
	struct sink sink;
	git_oid head;
	long step;
	double v[REPEATS];
};

static void variant_init(struct variant *w, const char *dir, const char *name)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/%s-%ld", dir, name, w->step);
	if (git_repository_init(&w->repo, path, 1) < 0)
		die("scratch repository");
	if (w->packed)
		sink_packed(&w->sink, w->repo);
}

/*
 * STEPS steps, only the writes timed. The packed way starts a new
 * repository every PACKS_AT_MOST steps: estafette merges its small packs
 * past 16, and unmerged, every new object's lookup would search one more
 * pack each step.
 */
#define PACKS_AT_MOST 16
static void variant_run(struct variant *w, const char *dir, const char *name, int r, long steps,
			int blobs, int trees, size_t blob_bytes, char *buf)
{
	double spent = 0;

	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, w->fsync);
	for (long s = 0; s < steps; s++, w->step++) {
		double t;

		if (w->packed && w->step > 0 && w->step % PACKS_AT_MOST == 0) {
			git_repository_free(w->repo);
			variant_init(w, dir, name);
		}
		t = now();
		write_step(w->repo, &w->sink, &w->head,
			   w->step > 0 && (!w->packed || w->step % PACKS_AT_MOST > 0), w->step, blobs,
			   trees, blob_bytes, buf);
		spent += now() - t;
	}
	w->v[r] = spent / (double)steps;
}

static double median(double *v)
{
	qsort(v, REPEATS, sizeof(double), cmp_double);
	return v[REPEATS / 2];
}

static double spread(const double *v)
{
	return (v[REPEATS - 1] - v[0]) / v[REPEATS / 2];
}

int main(int argc, char **argv)
{
	int sigs, blobs, trees;
	size_t blob_bytes;
	long steps;
	char dir[] = "/tmp/estafette-floor.XXXXXX", cmd[64];
	double sig_v[REPEATS], sig_med, git_med, tot;
	struct variant ways[] = {
		{.label = "git objects, one pack a step, fsynced", .fsync = 1, .packed = 1},
		{.label = "git objects, loose, fsynced", .fsync = 1},
		{.label = "git objects, loose, no fsync", .fsync = 0},
	};
	static const char *const names[] = {"packed", "loose", "fast"};
	struct variant *packed = &ways[0], *loose = &ways[1], *fast = &ways[2];
	struct sig_case c = {0};
	char *buf;

	if (argc < 5) {
		fprintf(stderr, "usage: floor_bench SIGS BLOBS TREES BLOB_BYTES [STEPS]\n");
		return 64;
	}
	sigs = atoi(argv[1]);
	blobs = atoi(argv[2]);
	trees = atoi(argv[3]);
	blob_bytes = (size_t)atol(argv[4]);
	steps = argc > 5 ? atol(argv[5]) : 300;
	if (blobs < 1 || blobs > 48 || trees < 1 || trees > 8 || blob_bytes < 64 || steps < 1)
		return 64;
	buf = malloc(blob_bytes + 1);
	memset(buf, 'x', blob_bytes);
	git_libgit2_init();
	if (!mkdtemp(dir))
		die("scratch folder");
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++)
		variant_init(&ways[w], dir, names[w]);
	sig_case_init(&c);
	for (int r = 0; r < REPEATS; r++) {
		double t;

		for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++)
			variant_run(&ways[w], dir, names[w], r, steps, blobs, trees, blob_bytes, buf);
		t = now();
		for (long s = 0; s < steps * (sigs > 0 ? sigs : 1); s++)
			verify_once(&c);
		sig_v[r] = (now() - t) / (double)steps * (sigs > 0 ? 1 : 0);
	}
	sig_med = median(sig_v);
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++)
		median(ways[w].v);
	/* The floor: the cheaper of the durable ways, as a step must be durable. */
	git_med = packed->v[REPEATS / 2] < loose->v[REPEATS / 2] ? packed->v[REPEATS / 2]
								  : loose->v[REPEATS / 2];
	tot = git_med + sig_med;
	printf("%-44s %12s %8s\n", "floor per step (in-process)", "microseconds", "spread");
	printf("%-44s %12.1f %7.1f%%\n", "Ed25519 verifications (EVP_DigestVerify)", sig_med * 1e6,
	       sig_med > 0 ? 100 * spread(sig_v) : 0.0);
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++)
		printf("%-44s %12.1f %7.1f%%\n", ways[w].label, ways[w].v[REPEATS / 2] * 1e6,
		       100 * spread(ways[w].v));
	printf("%-44s %12.1f\n", "floor (verify + the cheaper durable way)", tot * 1e6);
	printf("{\"bench\": \"floor\", \"sigs\": %d, \"blobs\": %d, \"trees\": %d, \"commits\": 1, "
	       "\"tags\": 1, \"blob_bytes\": %zu, \"verify_seconds\": %.9f, \"git_seconds\": %.9f, "
	       "\"git_packed_seconds\": %.9f, \"git_loose_seconds\": %.9f, "
	       "\"git_no_fsync_seconds\": %.9f, \"floor_seconds\": %.9f, \"git_spread\": %.3f, "
	       "\"repeats\": %d, \"steps\": %ld}\n",
	       sigs, blobs, trees, blob_bytes, sig_med, git_med, packed->v[REPEATS / 2],
	       loose->v[REPEATS / 2], fast->v[REPEATS / 2], tot,
	       spread(git_med == packed->v[REPEATS / 2] ? packed->v : loose->v), REPEATS, steps);
	EVP_PKEY_free(c.key);
	for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++)
		git_repository_free(ways[w].repo);
	git_libgit2_shutdown();
	free(buf);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : 1;
}
