/*
 * sshsig against the real ssh-keygen: signatures made by ssh-keygen verify
 * here, signatures and keys made here are accepted by ssh-keygen, and every
 * refusal says why. Keys are made fresh in a temporary folder per run.
 * SSHSIG_TEST_VERBOSE=1 prints every refusal message, to read them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include "sshsig/sshsig.h"
#include "util/error.h"

#define NS "estafette-orders"
#define ORDERS "{\"estafette\": \"orders/1\", \"game\": \"ne-001\", \"step\": 7}\n"

static char dir[64];
static int have_rsa1024;

/* ---- helpers: the shell, files, base64 ---- */

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Run a command in the test folder; its exit status. */
static int sh(const char *fmt, ...)
{
	char cmd[4096], full[4300];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "cd '%s' && { %s ; } 2>>'%s/stderr.log'", dir, cmd, dir);
	rc = system(full);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static char *slurp(size_t *len, const char *name)
{
	char path[256], *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "rb")) == NULL)
		fail_msg("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static void spit(const char *name, const void *data, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	chmod(path, 0600);
}

static void spit_str(const char *name, const char *s)
{
	spit(name, s, strlen(s));
}

/* The first line of a file, without its newline. */
static char *first_line(const char *name)
{
	char *s = slurp(NULL, name);

	s[strcspn(s, "\n")] = '\0';
	return s;
}

/* "principal [options] <key from NAME.pub>\n" */
static char *signer_line(const char *principal, const char *options, const char *key)
{
	char pub[64], *k, *line;

	snprintf(pub, sizeof(pub), "%s.pub", key);
	k = first_line(pub);
	assert_true(asprintf(&line, "%s %s%s%s\n", principal, options ? options : "",
		options ? " " : "", k) > 0);
	free(k);
	return line;
}

/* The bytes inside an armored signature, decoded independently of the module. */
static unsigned char *unarmor(size_t *len, const char *text)
{
	const char *begin = strstr(text, "-----BEGIN SSH SIGNATURE-----\n");
	const char *end = strstr(text, "-----END SSH SIGNATURE-----");
	unsigned char *clean, *out;
	size_t n = 0, pad = 0;
	int got;

	assert_non_null(begin);
	assert_non_null(end);
	begin += strlen("-----BEGIN SSH SIGNATURE-----\n");
	clean = malloc((size_t)(end - begin) + 1);
	for (const char *p = begin; p < end; p++)
		if (*p != '\n')
			clean[n++] = (unsigned char)*p;
	while (n > pad && clean[n - 1 - pad] == '=')
		pad++;
	out = malloc(n);
	got = EVP_DecodeBlock(out, clean, (int)n);
	assert_true(got >= 0);
	*len = (size_t)got - pad;
	free(clean);
	return out;
}

/* Armored as ssh-keygen does: 70 columns. */
static char *armor(const unsigned char *blob, size_t len)
{
	unsigned char *flat = malloc((len + 2) / 3 * 4 + 1);
	char *out = malloc((len + 2) / 3 * 4 * 2 + 128), *o = out;
	int n = EVP_EncodeBlock(flat, blob, (int)len);

	o += sprintf(o, "-----BEGIN SSH SIGNATURE-----\n");
	for (int i = 0; i < n; i += 70)
		o += sprintf(o, "%.*s\n", n - i < 70 ? n - i : 70, (char *)flat + i);
	sprintf(o, "-----END SSH SIGNATURE-----\n");
	free(flat);
	return out;
}

/* A tiny SSH wire writer for hand-built blobs. */
struct wbuf {
	unsigned char p[8192];
	size_t len;
};

static void w_bytes(struct wbuf *b, const void *p, size_t n)
{
	assert_true(b->len + n <= sizeof(b->p));
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void w_u32(struct wbuf *b, uint32_t v)
{
	unsigned char be[4] = { v >> 24, v >> 16, v >> 8, v };

	w_bytes(b, be, 4);
}

static void w_string(struct wbuf *b, const void *p, size_t n)
{
	w_u32(b, (uint32_t)n);
	w_bytes(b, p, n);
}

static void w_cstring(struct wbuf *b, const char *s)
{
	w_string(b, s, strlen(s));
}

/* Read the string at *off of a blob (for taking apart ssh-keygen's output). */
static const unsigned char *r_string(size_t *n, const unsigned char *blob, size_t *off)
{
	const unsigned char *p = blob + *off;

	*n = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
	*off += 4 + *n;
	return p + 4;
}

#define assert_refused(call, code, word) do { \
	int rc_ = (call); \
	if (rc_ != (code) || strstr(est_error_message(), (word)) == NULL) \
		fail_msg("got %d \"%s\"; wanted %d with \"%s\"", rc_, est_error_message(), \
			(code), (word)); \
	if (getenv("SSHSIG_TEST_VERBOSE")) \
		print_message("refused: %s\n", est_error_message()); \
} while (0)

/* est_sshsig_verify over files in the test folder. */
static int verify_files(const char *allowed, const char *principal, const char *ns,
	const char *data_file, const char *sig_file, time_t now)
{
	size_t data_len, sig_len;
	char *data = slurp(&data_len, data_file), *sig = slurp(&sig_len, sig_file);
	int rc = est_sshsig_verify(allowed, strlen(allowed), principal, ns, data, data_len,
		sig, sig_len, now);

	free(data);
	free(sig);
	return rc;
}

static int verify_sig_text(const char *allowed, const char *principal, const char *sig)
{
	return est_sshsig_verify(allowed, strlen(allowed), principal, NS, ORDERS,
		strlen(ORDERS), sig, strlen(sig), time(NULL));
}

/* ---- fixtures ---- */

static int group_setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/sshsig-test.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	if (sh("ssh-keygen -q -t ed25519 -N '' -C 'france@laptop' -f ed") != 0 ||
	    sh("ssh-keygen -q -t ed25519 -N '' -C 'stranger' -f other") != 0 ||
	    sh("ssh-keygen -q -t ecdsa -b 256 -N '' -C 'england@desk' -f ec") != 0 ||
	    sh("ssh-keygen -q -t rsa -b 2048 -N '' -C 'prussia@box' -f rsa") != 0 ||
	    sh("ssh-keygen -q -t ed25519 -N 'secret words' -C 'locked' -f enc") != 0)
		return -1;
	/* OpenSSH 9.2 still makes 1024-bit RSA keys; a later one may refuse. */
	have_rsa1024 = sh("ssh-keygen -q -t rsa -b 1024 -N '' -f rsa1024") == 0;
	spit_str("orders.json", ORDERS);
	if (sh("for k in ed other ec rsa; do ssh-keygen -q -Y sign -f $k -n " NS
	    " < orders.json > $k.sig || exit 1; done") != 0)
		return -1;
	if (have_rsa1024 && sh("ssh-keygen -q -Y sign -f rsa1024 -n " NS
	    " < orders.json > rsa1024.sig") != 0)
		have_rsa1024 = 0;
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int test_setup(void **state)
{
	est_error_clear();
	return 0;
}

/* ---- ssh-keygen signs, estafette verifies ---- */

static void check_keygen_signature(const char *key, const char *principal)
{
	char *allowed = signer_line(principal, NULL, key), sig[32];

	snprintf(sig, sizeof(sig), "%s.sig", key);
	if (verify_files(allowed, principal, NS, "orders.json", sig, time(NULL)) != 0)
		fail_msg("%s: %s", key, est_error_message());
	free(allowed);
}

static void test_verify_ed25519_from_ssh_keygen(void **state)
{
	check_keygen_signature("ed", "france");
}

static void test_verify_ecdsa_p256_from_ssh_keygen(void **state)
{
	check_keygen_signature("ec", "england");
}

static void test_verify_rsa_sha512_from_ssh_keygen(void **state)
{
	size_t len, off = 6 + 4, n;
	char *text = slurp(NULL, "rsa.sig");
	unsigned char *blob = unarmor(&len, text);
	const unsigned char *sig, *alg;

	/* ssh-keygen -Y sign makes rsa-sha2-512 signatures: check that is what we test. */
	for (int i = 0; i < 4; i++)
		r_string(&n, blob, &off);
	sig = r_string(&n, blob, &off);
	off = 0;
	alg = r_string(&n, sig, &off);
	assert_int_equal(n, strlen("rsa-sha2-512"));
	assert_memory_equal(alg, "rsa-sha2-512", n);
	check_keygen_signature("rsa", "prussia");
	free(blob);
	free(text);
}

static void test_verify_sha256_message_hash(void **state)
{
	char *allowed = signer_line("france", NULL, "ed");

	assert_int_equal(sh("ssh-keygen -q -Y sign -O hashalg=sha256 -f ed -n " NS
		" < orders.json > ed256.sig && grep -q . ed256.sig"), 0);
	if (verify_files(allowed, "france", NS, "orders.json", "ed256.sig", time(NULL)) != 0)
		fail_msg("%s", est_error_message());
	free(allowed);
}

/*
 * ssh-keygen only makes rsa-sha2-512 SSHSIGs, so build rsa-sha2-256 (and,
 * to see it refused, SHA-1 "ssh-rsa") by hand with OpenSSL from the same
 * key, and let ssh-keygen judge the hand-built one first.
 */
static char *rsa_signature(const char *alg, const EVP_MD *md)
{
	struct wbuf msg = { .len = 0 }, inner = { .len = 0 }, blob = { .len = 0 };
	unsigned char digest[64], rsa_sig[512];
	unsigned int digest_len;
	size_t sig_len = sizeof(rsa_sig), pub_len, off = 6 + 4, n;
	char *keygen_sig = slurp(NULL, "rsa.sig"), *pem_path;
	unsigned char *keygen_blob = unarmor(&pub_len, keygen_sig);
	const unsigned char *pub;
	EVP_PKEY *pkey;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	FILE *f;

	/* The key in PEM, which OpenSSL reads; the public blob from ssh-keygen's own signature. */
	assert_int_equal(sh("test -f rsa_pem || { cp rsa rsa_pem && "
		"ssh-keygen -q -p -m PEM -P '' -N '' -f rsa_pem > /dev/null; }"), 0);
	assert_true(asprintf(&pem_path, "%s/rsa_pem", dir) > 0);
	assert_non_null(f = fopen(pem_path, "r"));
	assert_non_null(pkey = PEM_read_PrivateKey(f, NULL, NULL, NULL));
	fclose(f);
	pub = r_string(&n, keygen_blob, &off);

	EVP_Digest(ORDERS, strlen(ORDERS), digest, &digest_len, EVP_sha512(), NULL);
	w_bytes(&msg, "SSHSIG", 6);
	w_cstring(&msg, NS);
	w_string(&msg, "", 0);
	w_cstring(&msg, "sha512");
	w_string(&msg, digest, digest_len);
	assert_int_equal(EVP_DigestSignInit(ctx, NULL, md, NULL, pkey), 1);
	assert_int_equal(EVP_DigestSign(ctx, rsa_sig, &sig_len, msg.p, msg.len), 1);

	w_cstring(&inner, alg);
	w_string(&inner, rsa_sig, sig_len);
	w_bytes(&blob, "SSHSIG", 6);
	w_u32(&blob, 1);
	w_string(&blob, pub, n);
	w_cstring(&blob, NS);
	w_string(&blob, "", 0);
	w_cstring(&blob, "sha512");
	w_string(&blob, inner.p, inner.len);

	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	free(pem_path);
	free(keygen_blob);
	free(keygen_sig);
	return armor(blob.p, blob.len);
}

static void test_verify_rsa_sha256_hand_built(void **state)
{
	char *sig = rsa_signature("rsa-sha2-256", EVP_sha256());
	char *allowed = signer_line("prussia", NULL, "rsa");

	spit_str("rsa256.sig", sig);
	spit_str("allowed_rsa", allowed);
	assert_int_equal(sh("ssh-keygen -Y verify -f allowed_rsa -I prussia -n " NS
		" -s rsa256.sig < orders.json > /dev/null"), 0);
	if (verify_sig_text(allowed, "prussia", sig) != 0)
		fail_msg("%s", est_error_message());
	free(allowed);
	free(sig);
}

static void test_refuse_rsa_sha1(void **state)
{
	char *sig = rsa_signature("ssh-rsa", EVP_sha1());
	char *allowed = signer_line("prussia", NULL, "rsa");

	assert_refused(verify_sig_text(allowed, "prussia", sig), EST_ESIG, "SHA-1");
	assert_refused(verify_sig_text(allowed, "prussia", sig), EST_ESIG, "unsupported algorithm");
	free(allowed);
	free(sig);
}

static void test_armor_tolerates_crlf_and_blanks(void **state)
{
	char *text = slurp(NULL, "ed.sig"), *crlf = malloc(strlen(text) * 2 + 16), *o = crlf;
	char *allowed = signer_line("france", NULL, "ed");

	o += sprintf(o, "\r\n  \t");
	for (const char *p = text; *p; p++) {
		if (*p == '\n')
			*o++ = '\r';
		*o++ = *p;
	}
	sprintf(o, " \r\n\n");
	if (verify_sig_text(allowed, "france", crlf) != 0)
		fail_msg("%s", est_error_message());
	free(allowed);
	free(crlf);
	free(text);
}

/* ---- estafette signs, ssh-keygen verifies ---- */

static void test_sign_verified_by_ssh_keygen(void **state)
{
	size_t key_len, out_len;
	char *key = slurp(&key_len, "ed"), *out = NULL, *keygen_sig;
	char *allowed = signer_line("france", "namespaces=\"" NS "\"", "ed");

	assert_int_equal(est_sshsig_sign(&out, &out_len, key, key_len, NS, ORDERS,
		strlen(ORDERS)), 0);
	assert_int_equal(out_len, strlen(out));
	spit_str("mine.sig", out);
	spit_str("allowed_ed", allowed);
	assert_int_equal(sh("ssh-keygen -Y verify -f allowed_ed -I france -n " NS
		" -s mine.sig < orders.json > /dev/null"), 0);
	/* Ed25519 is deterministic: the very bytes ssh-keygen -Y sign wrote. */
	keygen_sig = slurp(NULL, "ed.sig");
	assert_string_equal(out, keygen_sig);
	/* And it is refused by ssh-keygen for other data. */
	spit_str("changed.json", ORDERS " ");
	assert_int_not_equal(sh("ssh-keygen -Y verify -f allowed_ed -I france -n " NS
		" -s mine.sig < changed.json > /dev/null"), 0);
	free(keygen_sig);
	free(allowed);
	free(out);
	free(key);
}

static void test_sign_refuses_encrypted_key(void **state)
{
	size_t key_len;
	char *key = slurp(&key_len, "enc"), *out = NULL;

	assert_refused(est_sshsig_sign(&out, NULL, key, key_len, NS, "x", 1), EST_EINVAL,
		"passphrase");
	assert_refused(est_sshsig_sign(&out, NULL, key, key_len, NS, "x", 1), EST_EINVAL,
		"ssh-keygen -Y sign");
	assert_null(out);
	free(key);
	key = slurp(&key_len, "ed");
	assert_refused(est_sshsig_sign(&out, NULL, key, key_len, "two words", "x", 1),
		EST_EINVAL, "namespace");
	assert_refused(est_sshsig_sign(&out, NULL, key, key_len, "", "x", 1), EST_EINVAL,
		"namespace");
	free(key);
}

static void test_sign_refuses_other_key_types(void **state)
{
	size_t key_len;
	char *key = slurp(&key_len, "ec"), *out = NULL, *pub;

	assert_refused(est_sshsig_sign(&out, NULL, key, key_len, NS, "x", 1), EST_EINVAL,
		"ed25519");
	free(key);
	pub = slurp(&key_len, "ed.pub");
	assert_refused(est_sshsig_sign(&out, NULL, pub, key_len, NS, "x", 1), EST_EINVAL,
		"armor");
	free(pub);
}

static void test_keygen_key_works_with_ssh_keygen(void **state)
{
	char *priv = NULL, *pub = NULL, *priv2 = NULL, *pub2 = NULL, *printed, *fp = NULL;
	char *keygen_fp, *allowed, *sig;

	assert_int_equal(est_sshsig_keygen(&priv, &pub, "france@estafette"), 0);
	assert_int_equal(strncmp(pub, "ssh-ed25519 AAAA", 16), 0);
	assert_non_null(strstr(pub, " france@estafette\n"));
	spit_str("made", priv);
	assert_int_equal(sh("ssh-keygen -y -f made > made.y"), 0);
	printed = slurp(NULL, "made.y");
	assert_string_equal(printed, pub);

	/* ssh-keygen signs with it, estafette verifies, and the fingerprints agree. */
	spit_str("made.pub", pub);
	assert_int_equal(sh("ssh-keygen -q -Y sign -f made -n " NS " < orders.json > made.sig"), 0);
	allowed = signer_line("france", NULL, "made");
	sig = slurp(NULL, "made.sig");
	if (verify_sig_text(allowed, "france", sig) != 0)
		fail_msg("%s", est_error_message());
	assert_int_equal(est_sshsig_fingerprint(&fp, pub), 0);
	assert_int_equal(sh("ssh-keygen -l -E sha256 -f made.pub | cut -d' ' -f2 > made.fp"), 0);
	keygen_fp = first_line("made.fp");
	assert_string_equal(fp, keygen_fp);

	/* Fresh randomness each time. */
	assert_int_equal(est_sshsig_keygen(&priv2, &pub2, NULL), 0);
	assert_string_not_equal(pub, pub2);
	assert_non_null(strchr(pub2, ' '));
	assert_null(strchr(strchr(pub2, ' ') + 1, ' '));
	assert_refused(est_sshsig_keygen(&priv2, &pub2, "two\nlines"), EST_EINVAL, "line break");

	free(keygen_fp);
	free(sig);
	free(allowed);
	free(fp);
	free(printed);
	free(priv);
	free(pub);
	free(priv2);
	free(pub2);
}

static void test_public_key_and_fingerprint_match_ssh_keygen(void **state)
{
	static const char *keys[] = { "ed", "ec", "rsa", "other" };
	char cmd[256], name[64], *priv, *pub, *expected, *fp, *keygen_fp;
	size_t len;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(cmd, sizeof(cmd), "ssh-keygen -y -f %s > %s.y && ssh-keygen -l -E sha256 "
			"-f %s.pub | cut -d' ' -f2 > %s.fp", keys[i], keys[i], keys[i], keys[i]);
		assert_int_equal(sh("%s", cmd), 0);
		priv = slurp(&len, keys[i]);
		snprintf(name, sizeof(name), "%s.y", keys[i]);
		expected = slurp(NULL, name);
		assert_int_equal(est_sshsig_public_key(&pub, priv, len), 0);
		assert_string_equal(pub, expected);
		assert_int_equal(est_sshsig_fingerprint(&fp, pub), 0);
		snprintf(name, sizeof(name), "%s.fp", keys[i]);
		keygen_fp = first_line(name);
		assert_string_equal(fp, keygen_fp);
		free(keygen_fp);
		free(fp);
		free(pub);
		free(expected);
		free(priv);
	}
	/* An encrypted key still shows its public half (the comment is encrypted). */
	priv = slurp(&len, "enc");
	assert_int_equal(est_sshsig_public_key(&pub, priv, len), 0);
	expected = first_line("enc.pub");
	*strrchr(expected, ' ') = '\0';
	assert_int_equal(strncmp(pub, expected, strlen(expected)), 0);
	assert_string_equal(pub + strlen(expected), "\n");
	free(expected);
	free(pub);
	free(priv);

	assert_refused(est_sshsig_fingerprint(&fp, "ssh-ed25519"), EST_EINVAL, "TYPE BASE64");
	assert_refused(est_sshsig_fingerprint(&fp, "ssh-ed25519 not*base64"), EST_EINVAL,
		"not base64");
	assert_refused(est_sshsig_fingerprint(&fp, "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIBiEpr"
		"uR6P5dCPtPTxGZ58SNDZ2IUr9kTIFwLMEaBmat"), EST_EINVAL, "does not match");
}

/* ---- refusals ---- */

static void test_refuse_tampered_data(void **state)
{
	char *allowed = signer_line("france", NULL, "ed");

	spit_str("tampered.json", "{\"estafette\": \"orders/1\", \"game\": \"ne-001\", \"step\": 8}\n");
	assert_refused(verify_files(allowed, "france", NS, "tampered.json", "ed.sig", time(NULL)),
		EST_ESIG, "does not verify");
	free(allowed);
}

static void test_refuse_tampered_signature_byte(void **state)
{
	static const char *keys[] = { "ed", "ec", "rsa" };
	static const char *principals[] = { "france", "england", "prussia" };
	char name[32], *text, *re, *allowed;
	unsigned char *blob;
	size_t len;

	for (int i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "%s.sig", keys[i]);
		text = slurp(NULL, name);
		blob = unarmor(&len, text);
		blob[len - 3] ^= 0x01; /* inside the signature bytes, near the end */
		re = armor(blob, len);
		allowed = signer_line(principals[i], NULL, keys[i]);
		assert_refused(verify_sig_text(allowed, principals[i], re), EST_ESIG,
			"does not verify");
		free(allowed);
		free(re);
		free(blob);
		free(text);
	}
}

static void test_refuse_bad_armor(void **state)
{
	char *text = slurp(NULL, "ed.sig"), *allowed = signer_line("france", NULL, "ed");
	char *cut = strndup(text, strlen(text) / 2), *junk;

	assert_refused(verify_sig_text(allowed, "france", cut), EST_ESIG, "bad armor");
	assert_refused(verify_sig_text(allowed, "france", cut), EST_ESIG, "END SSH SIGNATURE");
	assert_true(asprintf(&junk, "%sjunk after the armor\n", text) > 0);
	assert_refused(verify_sig_text(allowed, "france", junk), EST_ESIG, "trailing data");
	free(junk);
	assert_true(asprintf(&junk, "text before\n%s", text) > 0);
	assert_refused(verify_sig_text(allowed, "france", junk), EST_ESIG, "bad armor");
	free(junk);
	junk = strdup(text);
	junk[40] = '*';
	assert_refused(verify_sig_text(allowed, "france", junk), EST_ESIG, "not base64");
	assert_refused(verify_sig_text(allowed, "france", ""), EST_ESIG, "empty");
	free(junk);
	free(cut);
	free(allowed);
	free(text);
}

static void test_refuse_trailing_bytes_in_blob(void **state)
{
	char *text = slurp(NULL, "ed.sig"), *allowed = signer_line("france", NULL, "ed"), *re;
	size_t len;
	unsigned char *blob = unarmor(&len, text), *longer = malloc(len + 1);

	memcpy(longer, blob, len);
	longer[len] = 0;
	re = armor(longer, len + 1);
	assert_refused(verify_sig_text(allowed, "france", re), EST_ESIG, "trailing data");
	free(re);
	/* Cut short instead: malformed. */
	re = armor(blob, len - 1);
	assert_refused(verify_sig_text(allowed, "france", re), EST_ESIG, "malformed");
	free(re);
	free(longer);
	free(blob);
	free(allowed);
	free(text);
}

static void test_refuse_version_2(void **state)
{
	char *text = slurp(NULL, "ed.sig"), *allowed = signer_line("france", NULL, "ed"), *re;
	size_t len;
	unsigned char *blob = unarmor(&len, text);

	assert_int_equal(blob[9], 1);
	blob[9] = 2; /* "SSHSIG" then the big-endian version */
	re = armor(blob, len);
	assert_refused(verify_sig_text(allowed, "france", re), EST_ESIG, "unknown version 2");
	free(re);
	memcpy(blob, "SSHSIH", 6);
	re = armor(blob, len);
	assert_refused(verify_sig_text(allowed, "france", re), EST_ESIG, "SSHSIG");
	free(re);
	free(blob);
	free(allowed);
	free(text);
}

static void test_refuse_wrong_namespace(void **state)
{
	char *allowed = signer_line("france", NULL, "ed");

	assert_int_equal(sh("ssh-keygen -q -Y sign -f ed -n git < orders.json > git.sig"), 0);
	assert_refused(verify_files(allowed, "france", NS, "orders.json", "git.sig", time(NULL)),
		EST_ESIG, "signed for namespace \"git\" but \"" NS "\" is required");
	free(allowed);
}

static void test_refuse_wrong_principal_and_unlisted_key(void **state)
{
	char *allowed = signer_line("france", NULL, "ed"), *both, *line2;

	assert_refused(verify_files(allowed, "england", NS, "orders.json", "ed.sig", time(NULL)),
		EST_ESIG, "is not listed for principal \"england\"");
	assert_refused(verify_files(allowed, "england", NS, "orders.json", "ed.sig", time(NULL)),
		EST_ESIG, "lists it for \"france\"");
	assert_refused(verify_files(allowed, "france", NS, "orders.json", "other.sig", time(NULL)),
		EST_ESIG, "not listed for principal \"france\" in allowed_signers");
	assert_refused(verify_files(allowed, "france", NS, "orders.json", "other.sig", time(NULL)),
		EST_ESIG, "SHA256:");
	/* An unlisted key is refused as such before any arithmetic: over other data its
	 * signature would not verify, yet the refusal is "not listed", which costs nothing. */
	assert_int_equal(sh("printf 'other bytes' > other-data"), 0);
	assert_refused(verify_files(allowed, "france", NS, "other-data", "other.sig", time(NULL)),
		EST_ESIG, "not listed for principal \"france\"");
	/* A player signing with a new key learns which key the game holds for them. */
	assert_refused(verify_files(allowed, "france", NS, "orders.json", "other.sig", time(NULL)),
		EST_ESIG, "which holds ssh-ed25519 key SHA256:");
	/* The england key in the file does not help france's signature. */
	line2 = signer_line("england", NULL, "ec");
	assert_true(asprintf(&both, "%s%s", allowed, line2) > 0);
	assert_refused(verify_files(both, "england", NS, "orders.json", "ed.sig", time(NULL)),
		EST_ESIG, "not listed");
	free(both);
	free(line2);
	free(allowed);
}

static void test_refuse_namespace_option(void **state)
{
	char *allowed = signer_line("france", "namespaces=\"git,estafette-gm\"", "ed");
	char *ok = signer_line("france", "namespaces=\"git,estafette-*\"", "ed");

	assert_refused(verify_files(allowed, "france", NS, "orders.json", "ed.sig", time(NULL)),
		EST_ESIG, "may sign namespaces \"git,estafette-gm\"");
	/* Namespaces are pattern-lists, as in ssh-keygen. */
	assert_int_equal(verify_files(ok, "france", NS, "orders.json", "ed.sig", time(NULL)), 0);
	free(ok);
	free(allowed);
}

/* 2030-01-01 00:00:00 UTC */
#define T2030 ((time_t)1893456000)

static void test_validity_window(void **state)
{
	char *expired = signer_line("france", "valid-before=\"20200101Z\"", "ed");
	char *future = signer_line("france", "valid-after=\"29990101Z\"", "ed");
	char *window = signer_line("france",
		"VALID-AFTER=\"20291231235959Z\",valid-before=\"203001010000Z\"", "ed");
	char *current = signer_line("france", NULL, "ed"), *two, *bad;

	assert_refused(verify_files(expired, "france", NS, "orders.json", "ed.sig", time(NULL)),
		EST_ESIG, "expired on 2020-01-01 00:00:00 UTC");
	assert_refused(verify_files(future, "france", NS, "orders.json", "ed.sig", time(NULL)),
		EST_ESIG, "not yet valid");
	/* Both ends are inclusive, as in ssh-keygen. */
	assert_int_equal(verify_files(window, "france", NS, "orders.json", "ed.sig", T2030), 0);
	assert_int_equal(verify_files(window, "france", NS, "orders.json", "ed.sig", T2030 - 1), 0);
	assert_refused(verify_files(window, "france", NS, "orders.json", "ed.sig", T2030 + 1),
		EST_ESIG, "expired");
	assert_refused(verify_files(window, "france", NS, "orders.json", "ed.sig", T2030 - 2),
		EST_ESIG, "not yet valid");
	/* ssh-keygen agrees on the same edges. */
	spit_str("allowed_window", window);
	assert_int_equal(sh("ssh-keygen -Y verify -O verify-time=20300101Z -f allowed_window "
		"-I france -n " NS " -s ed.sig < orders.json > /dev/null"), 0);
	assert_int_not_equal(sh("ssh-keygen -Y verify -O verify-time=20300101000001Z "
		"-f allowed_window -I france -n " NS " -s ed.sig < orders.json > /dev/null"), 0);
	/* An expired line does not hide a current one for the same key. */
	assert_true(asprintf(&two, "%s%s", expired, current) > 0);
	assert_int_equal(verify_files(two, "france", NS, "orders.json", "ed.sig", time(NULL)), 0);
	/* Local time without the Z, as ssh-keygen: in UTC+2 midnight comes two hours earlier. */
	bad = signer_line("france", "valid-before=\"20300101\"", "ed");
	setenv("TZ", "EET-2", 1);
	tzset();
	assert_refused(verify_files(bad, "france", NS, "orders.json", "ed.sig", T2030 - 3600),
		EST_ESIG, "expired");
	setenv("TZ", "UTC0", 1);
	tzset();
	assert_int_equal(verify_files(bad, "france", NS, "orders.json", "ed.sig", T2030 - 3600), 0);
	unsetenv("TZ");
	tzset();
	free(bad);
	free(two);
	free(current);
	free(window);
	free(future);
	free(expired);
}

static void test_refuse_rsa_1024(void **state)
{
	char *allowed;

	if (!have_rsa1024) {
		/* This ssh-keygen refuses 1024-bit RSA keys, so no player can make one either. */
		skip();
	}
	allowed = signer_line("prussia", NULL, "rsa1024");
	assert_refused(verify_files(allowed, "prussia", NS, "orders.json", "rsa1024.sig",
		time(NULL)), EST_ESIG, "RSA key of 1024 bits is under 2048");
	free(allowed);
}

static void test_refuse_unsupported_key_type(void **state)
{
	char *allowed;

	if (sh("ssh-keygen -q -t ecdsa -b 384 -N '' -f ec384 && ssh-keygen -q -Y sign -f ec384 "
	    "-n " NS " < orders.json > ec384.sig") != 0)
		skip();
	allowed = signer_line("france", NULL, "ec384");
	assert_refused(verify_files(allowed, "france", NS, "orders.json", "ec384.sig", time(NULL)),
		EST_ESIG, "unsupported algorithm");
	free(allowed);
}

/* ---- allowed_signers ---- */

static void test_wildcard_principals(void **state)
{
	char *lines = signer_line("*@example.org,!mallory@example.org,fr?nce", NULL, "ed");

	spit_str("allowed_wild", lines);
	assert_int_equal(verify_files(lines, "france@example.org", NS, "orders.json", "ed.sig",
		time(NULL)), 0);
	assert_int_equal(verify_files(lines, "frence", NS, "orders.json", "ed.sig", time(NULL)), 0);
	assert_refused(verify_files(lines, "mallory@example.org", NS, "orders.json", "ed.sig",
		time(NULL)), EST_ESIG, "not listed");
	assert_refused(verify_files(lines, "france@example.com", NS, "orders.json", "ed.sig",
		time(NULL)), EST_ESIG, "not listed");
	/* ssh-keygen reads the same patterns the same way. */
	assert_int_equal(sh("ssh-keygen -Y verify -f allowed_wild -I france@example.org -n " NS
		" -s ed.sig < orders.json > /dev/null"), 0);
	assert_int_not_equal(sh("ssh-keygen -Y verify -f allowed_wild -I mallory@example.org -n "
		NS " -s ed.sig < orders.json > /dev/null"), 0);
	free(lines);
}

static void test_comments_blank_lines_and_quotes(void **state)
{
	char *key = first_line("ed.pub"), *text;

	assert_true(asprintf(&text, "# the game's signers\r\n\n   \n\t# indented comment\n"
		"\"france\" namespaces=\"estafette-orders,git\",valid-after=\"20200101\" %s\r\n",
		key) > 0);
	if (verify_files(text, "france", NS, "orders.json", "ed.sig", time(NULL)) != 0)
		fail_msg("%s", est_error_message());
	free(text);
	free(key);
}

static void test_refuse_malformed_allowed_signers(void **state)
{
	char *key = first_line("ed.pub"), *b64 = strchr(key, ' ') + 1, *text;
	struct {
		const char *line;
		const char *word;
	} cases[] = {
		{ "france", "no key" },
		{ "france ssh-ed25519", "not followed by the key" },
		{ "france namespaces=\"x\"", "no key after the options" },
		{ "france ssh-ed25519 AAAA*bad", "not base64" },
		{ "france ssh-rsa KEY", "the line says ssh-rsa" },
		{ "france nosuch=\"x\" ssh-ed25519 KEY", "option \"nosuch\" is unknown" },
		{ "france namespaces=\"x ssh-ed25519 KEY", "not closed" },
		{ "france valid-before=\"2024-01-01\" ssh-ed25519 KEY", "is not a time" },
		{ "france valid-before=\"20240231\" ssh-ed25519 KEY", "is not a time" },
		{ "france namespaces=\"a\",namespaces=\"b\" ssh-ed25519 KEY", "twice" },
		{ "*@example.org cert-authority ssh-ed25519 KEY", "cert-authority is not supported" },
		{ "france ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAAQA=", "malformed ssh-ed25519" },
	};
	char line[1024];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *at = strstr(cases[i].line, "KEY");

		if (at)
			snprintf(line, sizeof(line), "%.*s%s%s", (int)(at - cases[i].line),
				cases[i].line, b64, at + 3);
		else
			snprintf(line, sizeof(line), "%s", cases[i].line);
		/* The bad line is line 3, after a comment and a good line. */
		assert_true(asprintf(&text, "# signers\nengland %s\n%s\n", key, line) > 0);
		assert_refused(verify_files(text, "england", NS, "orders.json", "ed.sig",
			time(NULL)), EST_EINVAL, "allowed_signers line 3: ");
		assert_refused(verify_files(text, "england", NS, "orders.json", "ed.sig",
			time(NULL)), EST_EINVAL, cases[i].word);
		free(text);
	}
	/* A NUL byte inside the file. */
	assert_true(asprintf(&text, "france %s\n", key) > 0);
	text[3] = '\0';
	assert_refused(est_sshsig_verify(text, strlen(key) + 8, "france", NS, ORDERS,
		strlen(ORDERS), "", 0, time(NULL)), EST_EINVAL, "line 1: the line holds a NUL");
	free(text);
	free(key);
}

/* ---- find-principals ---- */

static void test_find_principals(void **state)
{
	char *text, *found = NULL, *sig, *keygen_found, *l[5];
	size_t sig_len;

	l[0] = signer_line("france,fr-alt", NULL, "ed");
	l[1] = signer_line("england", NULL, "ec");
	l[2] = signer_line("*@example.org", "namespaces=\"estafette-*\"", "ed");
	l[3] = signer_line("retired", "valid-before=\"20200101Z\"", "ed");
	l[4] = signer_line("gm", "namespaces=\"git\"", "ed");
	assert_true(asprintf(&text, "%s%s%s%s%s", l[0], l[1], l[2], l[3], l[4]) > 0);
	sig = slurp(&sig_len, "ed.sig");

	assert_int_equal(est_sshsig_find_principals(&found, text, strlen(text), NULL, ORDERS,
		strlen(ORDERS), sig, sig_len, time(NULL)), 0);
	assert_string_equal(found, "france,fr-alt,*@example.org");
	/*
	 * ssh-keygen 9.2 stops at the first line that lists the key and is
	 * current, whatever its namespaces=; estafette lists every line that
	 * admits the signature's namespace. It prints one principal a line.
	 * Where one line matches, both agree.
	 */
	spit_str("allowed_find", text);
	assert_int_equal(sh("ssh-keygen -Y find-principals -f allowed_find -s ed.sig "
		"| paste -sd, > found.txt"), 0);
	keygen_found = first_line("found.txt");
	assert_string_equal(keygen_found, "france,fr-alt");
	free(keygen_found);
	assert_int_equal(sh("ssh-keygen -Y find-principals -f allowed_find -s ec.sig "
		"> found.txt"), 0);
	keygen_found = first_line("found.txt");
	assert_string_equal(keygen_found, "england");
	free(found);

	/* Without data the signature is only parsed, as in ssh-keygen. */
	assert_int_equal(est_sshsig_find_principals(&found, text, strlen(text), NS, NULL, 0,
		sig, sig_len, time(NULL)), 0);
	assert_string_equal(found, "france,fr-alt,*@example.org");
	free(found);
	found = NULL;
	assert_refused(est_sshsig_find_principals(&found, text, strlen(text), NS, "other", 5,
		sig, sig_len, time(NULL)), EST_ESIG, "does not verify");
	assert_refused(est_sshsig_find_principals(&found, text, strlen(text), "git", NULL, 0,
		sig, sig_len, time(NULL)), EST_ESIG, "signed for namespace");
	free(sig);
	sig = slurp(&sig_len, "other.sig");
	assert_refused(est_sshsig_find_principals(&found, text, strlen(text), NULL, NULL, 0,
		sig, sig_len, time(NULL)), EST_ENOTFOUND, "not listed");
	assert_null(found);
	/* The england key alone. */
	free(sig);
	sig = slurp(&sig_len, "ec.sig");
	assert_int_equal(est_sshsig_find_principals(&found, text, strlen(text), NS, ORDERS,
		strlen(ORDERS), sig, sig_len, time(NULL)), 0);
	assert_string_equal(found, "england");
	free(found);
	for (int i = 0; i < 5; i++)
		free(l[i]);
	free(keygen_found);
	free(sig);
	free(text);
}

/* ---- canonical keys and the lines of keys/allowed_signers ---- */

/* "TYPE BASE64" of a .pub file: its first two fields. */
static char *pub_key_only(const char *key)
{
	char pub[64], *k;

	snprintf(pub, sizeof(pub), "%s.pub", key);
	k = first_line(pub);
	k[strcspn(k, " ") + 1 + strcspn(k + strcspn(k, " ") + 1, " ")] = '\0';
	return k;
}

/* The .pub file's blob, decoded independently of the module. */
static unsigned char *pub_blob(size_t *len, const char *key)
{
	char *k = pub_key_only(key), *b64 = strchr(k, ' ') + 1;
	size_t n = strlen(b64), pad = 0;
	unsigned char *out = malloc(n);
	int got;

	while (n > pad && b64[n - 1 - pad] == '=')
		pad++;
	got = EVP_DecodeBlock(out, (unsigned char *)b64, (int)n);
	assert_true(got >= 0);
	*len = (size_t)got - pad;
	free(k);
	return out;
}

static char *key_text(const char *type, const unsigned char *blob, size_t len)
{
	char *b64 = malloc((len + 2) / 3 * 4 + 1), *out;

	EVP_EncodeBlock((unsigned char *)b64, blob, (int)len);
	assert_true(asprintf(&out, "%s %s", type, b64) > 0);
	free(b64);
	return out;
}

/*
 * ssh-keygen's RSA key written again with a needless 0x00 in front of e
 * and/or n: the same numbers, so the same key to OpenSSL, but other bytes
 * and so another fingerprint.
 */
static char *rsa_reencoded(int pad_e, int pad_n)
{
	size_t len, off = 0, type_len, e_len, n_len;
	unsigned char *blob = pub_blob(&len, "rsa"), zero = 0;
	const unsigned char *type = r_string(&type_len, blob, &off);
	const unsigned char *e = r_string(&e_len, blob, &off), *n = r_string(&n_len, blob, &off);
	struct wbuf w = { .len = 0 };
	char *out;

	assert_int_equal(off, len);
	w_string(&w, type, type_len);
	w_u32(&w, (uint32_t)(e_len + (pad_e ? 1 : 0)));
	if (pad_e)
		w_bytes(&w, &zero, 1);
	w_bytes(&w, e, e_len);
	w_u32(&w, (uint32_t)(n_len + (pad_n ? 1 : 0)));
	if (pad_n)
		w_bytes(&w, &zero, 1);
	w_bytes(&w, n, n_len);
	out = key_text("ssh-rsa", w.p, w.len);
	free(blob);
	return out;
}

/* ssh-keygen's RSA key with its exponent replaced by `e` (e_len bytes), or its modulus made even. */
static char *rsa_with(const unsigned char *new_e, size_t new_e_len, int even_n)
{
	size_t len, off = 0, type_len, e_len, n_len;
	unsigned char *blob = pub_blob(&len, "rsa"), *n_copy;
	const unsigned char *type = r_string(&type_len, blob, &off);
	const unsigned char *e = r_string(&e_len, blob, &off), *n = r_string(&n_len, blob, &off);
	struct wbuf w = { .len = 0 };
	char *out;

	assert_non_null(n_copy = malloc(n_len));
	memcpy(n_copy, n, n_len);
	if (even_n)
		n_copy[n_len - 1] &= 0xfe;
	w_string(&w, type, type_len);
	if (new_e)
		w_string(&w, new_e, new_e_len);
	else
		w_string(&w, e, e_len);
	w_string(&w, n_copy, n_len);
	out = key_text("ssh-rsa", w.p, w.len);
	free(n_copy);
	free(blob);
	return out;
}

/*
 * With e = 1 an RSA "signature" is the padded hash itself: anyone signs as
 * such a key. It, an even e or an even n is refused, both as a key handed to
 * the game and in an allowed_signers line a signature is judged against.
 */
static void test_rsa_degenerate_exponent_is_refused(void **state)
{
	static const unsigned char one[] = { 1 }, even[] = { 1, 0, 2 };
	char *keys[] = { rsa_with(one, 1, 0), rsa_with(even, 3, 0), rsa_with(NULL, 0, 1) };
	char *allowed, *fp = NULL;

	for (size_t i = 0; i < 3; i++) {
		assert_refused(est_sshsig_canonical_key(NULL, &fp, keys[i]), EST_EINVAL, "is no RSA key");
		assert_non_null(strstr(est_error_message(), "anyone could sign as it"));
		assert_null(fp);
		assert_true(asprintf(&allowed, "prussia %s\n", keys[i]) > 0);
		assert_true(verify_files(allowed, "prussia", NS, "orders.json", "rsa.sig", time(NULL)) < 0);
		free(allowed);
		free(keys[i]);
	}

	/* The forgery itself: no private key, yet the signature is good for e = 1. */
	assert_int_equal(sh("/usr/bin/python3 " EST_SOURCE_DIR "/tests/helpers/forge_rsa.py pub rsa.pub "
			    "> e1.pub && /usr/bin/python3 " EST_SOURCE_DIR "/tests/helpers/forge_rsa.py sign "
			    "\"$(cat e1.pub)\" " NS " orders.json > forged.sig"), 0);
	{
		char *e1 = first_line("e1.pub");

		assert_true(asprintf(&allowed, "prussia %s\n", e1) > 0);
		assert_true(verify_files(allowed, "prussia", NS, "orders.json", "forged.sig", time(NULL)) < 0);
		assert_non_null(strstr(est_error_message(), "is no RSA key"));
		free(allowed);
		free(e1);
	}
}

static void test_canonical_key_from_ssh_keygen(void **state)
{
	static const char *const keys[] = { "ed", "ec", "rsa" };

	for (size_t i = 0; i < 3; i++) {
		char pub[64], *line, *want = pub_key_only(keys[i]), *canonical = NULL, *fp = NULL, *kfp;

		snprintf(pub, sizeof(pub), "%s.pub", keys[i]);
		line = first_line(pub);
		/* The .pub line with its comment gives the key without it. */
		if (est_sshsig_canonical_key(&canonical, &fp, line) != 0)
			fail_msg("%s: %s", keys[i], est_error_message());
		assert_string_equal(canonical, want);
		assert_int_equal(sh("ssh-keygen -l -f %s | cut -d' ' -f2 > fp.txt", pub), 0);
		kfp = first_line("fp.txt");
		assert_string_equal(fp, kfp);
		free(canonical);
		free(fp);
		/* Without a comment, and with NULL outputs. */
		assert_int_equal(est_sshsig_canonical_key(NULL, NULL, want), 0);
		free(kfp);
		free(want);
		free(line);
	}
}

static void test_canonical_key_refusals(void **state)
{
	char *ed = pub_key_only("ed"), *other = pub_key_only("other"), *rsa = pub_key_only("rsa");
	char *ec = pub_key_only("ec"), *t, *out = NULL, long_text[20000];
	size_t len;
	unsigned char *blob;

	/* A line break: the rest would be a line of allowed_signers of its own. */
	assert_true(asprintf(&t, "%s france\ngm namespaces=\"estafette-gm,git\" %s", ed, other) > 0);
	assert_refused(est_sshsig_canonical_key(&out, NULL, t), EST_EINVAL, "line break");
	assert_null(out);
	free(t);
	assert_true(asprintf(&t, "%s\n", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "line break");
	free(t);
	assert_true(asprintf(&t, "%s x\rallies namespaces=\"estafette-orders\" %s", ed, other) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "carriage return");
	free(t);
	assert_true(asprintf(&t, "%s\tfrance", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "a tab");
	free(t);
	assert_true(asprintf(&t, "%s \x1b[2Jfrance", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "escape");
	free(t);
	assert_true(asprintf(&t, "%s fran\x7f" "ce", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "delete");
	free(t);
	assert_true(asprintf(&t, "%s Fran\xc3\xa7ois", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "printable ASCII");
	free(t);

	/* Layout. */
	assert_refused(est_sshsig_canonical_key(NULL, NULL, ""), EST_EINVAL, "empty");
	assert_true(asprintf(&t, " %s", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "starts with a space");
	free(t);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, "ssh-ed25519"), EST_EINVAL, "missing");
	assert_true(asprintf(&t, "ssh-ed25519  %s", strchr(ed, ' ') + 1) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "one space");
	free(t);

	/* Options, certificates, other types. */
	assert_true(asprintf(&t, "namespaces=\"estafette-gm,git\" %s", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "starts with options");
	free(t);
	assert_true(asprintf(&t, "cert-authority %s", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "starts with options");
	free(t);
	assert_true(asprintf(&t, "ssh-ed25519-cert-v01@openssh.com %s", strchr(ed, ' ') + 1) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "not one estafette accepts");
	free(t);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, "ssh-dss AAAAB3NzaC1kc3M="), EST_EINVAL,
		"not one estafette accepts");

	/* A second key after the first. */
	assert_true(asprintf(&t, "%s %s", ed, other) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "second key");
	free(t);
	assert_true(asprintf(&t, "%s mine and also sk-ssh-ed25519@openssh.com AAAA", ed) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "second key");
	free(t);

	/* Base64 as ssh-keygen writes it, and no other way. */
	assert_refused(est_sshsig_canonical_key(NULL, NULL, "ssh-ed25519 AAAAnot!!"), EST_EINVAL,
		"not base64");
	assert_true(ec[strlen(ec) - 1] == '=');
	t = strdup(ec);
	t[strlen(t) - 1] = '\0';
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "the way ssh-keygen");
	free(t);
	/* The last digit before "=" with its unused low bits set: the same bytes, other text. */
	t = strdup(ec);
	assert_non_null(strchr("AEIMQUYcgkosw048", t[strlen(t) - 2]));
	t[strlen(t) - 2]++;
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "the way ssh-keygen");
	free(t);

	/* The blob: its own type, its fields, nothing after them. */
	assert_true(asprintf(&t, "ssh-rsa %s", strchr(ed, ' ') + 1) > 0);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "does not match");
	free(t);
	blob = pub_blob(&len, "ed");
	blob = realloc(blob, len + 4);
	memset(blob + len, 0, 4);
	t = key_text("ssh-ed25519", blob, len + 4);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "bytes follow");
	free(t);
	t = key_text("ssh-ed25519", blob, len - 1);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "malformed");
	free(t);
	free(blob);
	if (have_rsa1024) {
		t = pub_key_only("rsa1024");
		assert_refused(est_sshsig_canonical_key(NULL, NULL, t), EST_EINVAL, "under 2048");
		free(t);
	}
	memset(long_text, 'A', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	memcpy(long_text, "ssh-rsa ", 8);
	assert_refused(est_sshsig_canonical_key(NULL, NULL, long_text), EST_EINVAL, "more than");
	assert_refused(est_sshsig_canonical_key(NULL, NULL, NULL), EST_EINVAL, "missing");
	free(ed);
	free(other);
	free(rsa);
	free(ec);
}

/*
 * One RSA key, two encodings: with a needless leading zero byte in e or n
 * the key is the same to OpenSSL (a signature by it verifies), but its
 * bytes and fingerprint differ, so comparing fingerprints would give it two
 * seats. The strict reading refuses the second encoding.
 */
static void test_rsa_leading_zero_is_refused(void **state)
{
	char *rsa = pub_key_only("rsa"), *fp_rsa = NULL, *fp = NULL, *allowed;

	assert_int_equal(est_sshsig_canonical_key(NULL, &fp_rsa, rsa), 0);
	for (int which = 0; which < 3; which++) {
		char *k = rsa_reencoded(which != 1, which != 0);

		/* The lenient check takes it, under another fingerprint... */
		assert_int_equal(est_sshsig_check_public_key(&fp, k), 0);
		assert_string_not_equal(fp, fp_rsa);
		free(fp);
		fp = NULL;
		/* ...for the very key that made rsa.sig. */
		assert_true(asprintf(&allowed, "prussia %s\n", k) > 0);
		if (verify_files(allowed, "prussia", NS, "orders.json", "rsa.sig", time(NULL)) != 0)
			fail_msg("%s", est_error_message());
		free(allowed);
		assert_refused(est_sshsig_canonical_key(NULL, &fp, k), EST_EINVAL,
			which == 1 ? "RSA modulus n is written with a needless leading zero" :
			"RSA exponent e is written with a needless leading zero");
		assert_non_null(strstr(est_error_message(), fp_rsa));
		assert_null(fp);
		assert_refused(est_sshsig_allowed_line(&allowed, "prussia", NS, k), EST_EINVAL,
			"leading zero");
		assert_null(allowed);
		free(k);
	}
	free(fp_rsa);
	free(rsa);
}

static void test_allowed_line_is_canonical_and_ssh_keygen_reads_it(void **state)
{
	char *line = NULL, *ed_line = first_line("ed.pub"), *ed = pub_key_only("ed"), *want, *file;
	char *rsa_line = first_line("rsa.pub"), *rsa_allowed = NULL, *gm = NULL;

	assert_int_equal(est_sshsig_allowed_line(&line, "france", NS, ed_line), 0);
	assert_true(asprintf(&want, "france namespaces=\"" NS "\" %s\n", ed) > 0);
	assert_string_equal(line, want);
	assert_int_equal(est_sshsig_allowed_line(&rsa_allowed, "prussia", NS, rsa_line), 0);
	assert_int_equal(est_sshsig_allowed_line(&gm, "gm", "estafette-gm,git", ed), 0);
	assert_true(asprintf(&file, "%s%s", line, rsa_allowed) > 0);
	spit_str("allowed_canonical", file);
	assert_int_equal(sh("ssh-keygen -Y verify -f allowed_canonical -I france -n " NS
		" -s ed.sig < orders.json > /dev/null"), 0);
	assert_int_equal(sh("ssh-keygen -Y verify -f allowed_canonical -I prussia -n " NS
		" -s rsa.sig < orders.json > /dev/null"), 0);
	assert_int_equal(verify_files(file, "prussia", NS, "orders.json", "rsa.sig", time(NULL)), 0);
	assert_non_null(strstr(gm, "gm namespaces=\"estafette-gm,git\" ssh-ed25519 "));
	free(line);
	line = NULL;

	/* A principal is a pattern list to ssh-keygen: no patterns, no commas, no quotes. */
	assert_refused(est_sshsig_allowed_line(&line, "france,gm", NS, ed), EST_EINVAL, "principal");
	assert_refused(est_sshsig_allowed_line(&line, "*", NS, ed), EST_EINVAL, "principal");
	assert_refused(est_sshsig_allowed_line(&line, "", NS, ed), EST_EINVAL, "principal");
	assert_refused(est_sshsig_allowed_line(&line, "a\"b", NS, ed), EST_EINVAL, "principal");
	assert_refused(est_sshsig_allowed_line(&line, "france", "x\" cert-authority", ed), EST_EINVAL,
		"namespaces");
	assert_refused(est_sshsig_allowed_line(&line, "france", "a,,b", ed), EST_EINVAL, "namespaces");
	assert_null(line);
	free(want);
	free(file);
	free(gm);
	free(rsa_allowed);
	free(rsa_line);
	free(ed);
	free(ed_line);
}

static void test_read_entries(void **state)
{
	char *ed = pub_key_only("ed"), *ec = first_line("ec.pub"), *rsa = pub_key_only("rsa");
	char *other = pub_key_only("other"), *l[4], *text, *bad, *fp = NULL;
	est_sshsig_entry *e = NULL;
	size_t n = 0;

	assert_int_equal(est_sshsig_allowed_line(&l[0], "france", NS, ed), 0);
	assert_int_equal(est_sshsig_allowed_line(&l[1], "england", NS, ec), 0);
	assert_int_equal(est_sshsig_allowed_line(&l[2], "prussia", NS, rsa), 0);
	assert_int_equal(est_sshsig_allowed_line(&l[3], "gm", "estafette-gm,git", other), 0);
	assert_true(asprintf(&text, "%s%s%s%s", l[0], l[1], l[2], l[3]) > 0);
	if (est_sshsig_read_entries(&e, &n, text, strlen(text)) != 0)
		fail_msg("%s", est_error_message());
	assert_int_equal(n, 4);
	assert_int_equal(e[3].line, 4);
	assert_string_equal(e[3].principal, "gm");
	assert_string_equal(e[3].namespaces, "estafette-gm,git");
	assert_string_equal(e[3].key, other);
	assert_string_equal(e[0].key, ed);
	assert_int_equal(est_sshsig_canonical_key(NULL, &fp, ec), 0);
	assert_string_equal(e[1].fingerprint, fp);
	est_sshsig_entries_free(e, n);
	e = NULL;
	assert_int_equal(est_sshsig_read_entries(&e, &n, "", 0), 0);
	assert_int_equal(n, 0);

	/* As estafette wrote lines before: the key's plain comment after it. */
	assert_true(asprintf(&bad, "france namespaces=\"" NS "\" %s france@laptop\n", ed) > 0);
	assert_int_equal(est_sshsig_read_entries(&e, &n, bad, strlen(bad)), 0);
	assert_string_equal(e[0].key, ed);
	est_sshsig_entries_free(e, n);
	e = NULL;
	free(bad);

#define REFUSED(word, ...) do { \
		assert_true(asprintf(&bad, __VA_ARGS__) > 0); \
		assert_refused(est_sshsig_read_entries(&e, &n, bad, strlen(bad)), EST_EINVAL, word); \
		assert_null(e); \
		assert_int_equal(n, 0); \
		free(bad); \
	} while (0)
	REFUSED("line 2: does not end in a line break", "%s%s", l[0], "gm");
	REFUSED("line 2: is not a line estafette writes", "%s\n%s", l[0], l[1]);
	REFUSED("line 1: is not a line estafette writes", "# keys\n%s", l[0]);
	REFUSED("line 1: is not a line estafette writes", "france %s\n", ed);
	REFUSED("line 1: is not a line estafette writes",
		"france namespaces=\"" NS "\",valid-before=\"20300101Z\" %s\n", ed);
	REFUSED("line 1: is not a line estafette writes", "france  namespaces=\"" NS "\" %s\n", ed);
	REFUSED("line 1: public key: starts with a space", "france namespaces=\"" NS "\"  %s\n", ed);
	REFUSED("line 1: public key: holds a carriage return", "france namespaces=\"" NS "\" %s\r\n", ed);
	REFUSED("line 1: principal", "france,gm namespaces=\"" NS "\" %s\n", ed);
	REFUSED("line 1: principal", "\"france\" namespaces=\"" NS "\" %s\n", ed);
	REFUSED("line 1: public key: holds a second key", "france namespaces=\"" NS "\" %s %s\n", ed, other);
	REFUSED("line 1: public key: starts with options", "france namespaces=\"" NS "\" cert-authority %s\n", ed);
	assert_true(asprintf(&bad, "%s", l[0]) > 0);
	bad[10] = '\0';
	assert_refused(est_sshsig_read_entries(&e, &n, bad, strlen(l[0])), EST_EINVAL,
		"line 1: the line holds a NUL byte");
	free(bad);
	{
		char *k = rsa_reencoded(1, 0);

		REFUSED("line 2: public key: the RSA exponent e", "%sprussia namespaces=\"" NS "\" %s\n",
			l[0], k);
		free(k);
	}
#undef REFUSED
	for (int i = 0; i < 4; i++)
		free(l[i]);
	free(fp);
	free(text);
	free(other);
	free(rsa);
	free(ec);
	free(ed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_verify_ed25519_from_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_verify_ecdsa_p256_from_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_verify_rsa_sha512_from_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_verify_sha256_message_hash, test_setup),
		cmocka_unit_test_setup(test_verify_rsa_sha256_hand_built, test_setup),
		cmocka_unit_test_setup(test_refuse_rsa_sha1, test_setup),
		cmocka_unit_test_setup(test_armor_tolerates_crlf_and_blanks, test_setup),
		cmocka_unit_test_setup(test_sign_verified_by_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_sign_refuses_encrypted_key, test_setup),
		cmocka_unit_test_setup(test_sign_refuses_other_key_types, test_setup),
		cmocka_unit_test_setup(test_keygen_key_works_with_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_public_key_and_fingerprint_match_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_refuse_tampered_data, test_setup),
		cmocka_unit_test_setup(test_refuse_tampered_signature_byte, test_setup),
		cmocka_unit_test_setup(test_refuse_bad_armor, test_setup),
		cmocka_unit_test_setup(test_refuse_trailing_bytes_in_blob, test_setup),
		cmocka_unit_test_setup(test_refuse_version_2, test_setup),
		cmocka_unit_test_setup(test_refuse_wrong_namespace, test_setup),
		cmocka_unit_test_setup(test_refuse_wrong_principal_and_unlisted_key, test_setup),
		cmocka_unit_test_setup(test_refuse_namespace_option, test_setup),
		cmocka_unit_test_setup(test_validity_window, test_setup),
		cmocka_unit_test_setup(test_refuse_rsa_1024, test_setup),
		cmocka_unit_test_setup(test_refuse_unsupported_key_type, test_setup),
		cmocka_unit_test_setup(test_wildcard_principals, test_setup),
		cmocka_unit_test_setup(test_comments_blank_lines_and_quotes, test_setup),
		cmocka_unit_test_setup(test_refuse_malformed_allowed_signers, test_setup),
		cmocka_unit_test_setup(test_find_principals, test_setup),
		cmocka_unit_test_setup(test_canonical_key_from_ssh_keygen, test_setup),
		cmocka_unit_test_setup(test_canonical_key_refusals, test_setup),
		cmocka_unit_test_setup(test_rsa_leading_zero_is_refused, test_setup),
		cmocka_unit_test_setup(test_rsa_degenerate_exponent_is_refused, test_setup),
		cmocka_unit_test_setup(test_allowed_line_is_canonical_and_ssh_keygen_reads_it, test_setup),
		cmocka_unit_test_setup(test_read_entries, test_setup),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
