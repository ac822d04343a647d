/*
 * Public key blobs and the signatures they make (RFC 4253 6.6, RFC 5656,
 * RFC 8332, RFC 8709), through OpenSSL's EVP interface.
 */
#include "sshsig/sshsig_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/param_build.h>
#include <openssl/sha.h>

#include "sshsig/sshsig.h"
#include "util/error.h"

#define RSA_MIN_BITS 2048
#define P256_POINT_LEN 65 /* 0x04 || X || Y */

static int ed25519_from_blob(struct sshsig_key *key, struct sshsig_reader *r)
{
	const unsigned char *pk;
	size_t n;

	if (sshsig_get_string(&pk, &n, r) < 0 || n != SSHSIG_ED25519_LEN)
		return -1;
	key->pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, pk, n);
	return key->pkey ? 0 : -1;
}

static int p256_from_blob(struct sshsig_key *key, struct sshsig_reader *r)
{
	const unsigned char *q;
	size_t n;
	EVP_PKEY_CTX *ctx = NULL, *check = NULL;
	OSSL_PARAM params[3];
	int ok = 0;

	if (sshsig_get_expect(r, "nistp256") < 0 || sshsig_get_string(&q, &n, r) < 0 ||
	    n != P256_POINT_LEN || q[0] != 0x04)
		return -1;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
		(char *)"prime256v1", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
		(void *)q, n);
	params[2] = OSSL_PARAM_construct_end();
	if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &key->pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto out;
	/* A point off the curve would make verification meaningless. */
	if ((check = EVP_PKEY_CTX_new_from_pkey(NULL, key->pkey, NULL)) == NULL ||
	    EVP_PKEY_public_check(check) != 1)
		goto out;
	ok = 1;
out:
	EVP_PKEY_CTX_free(check);
	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -1;
}

static int rsa_from_blob(struct sshsig_key *key, struct sshsig_reader *r)
{
	BIGNUM *e = NULL, *n = NULL;
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	int ok = 0;

	/* RFC 4253 6.6: "ssh-rsa", mpint e, mpint n. */
	if (sshsig_get_mpint(&e, r) < 0 || sshsig_get_mpint(&n, r) < 0 || BN_is_zero(n))
		goto out;
	/*
	 * With e = 1 a signature is its own padded hash, which anyone can write;
	 * an even e or n, or e >= n, is no RSA key either. OpenSSL checks none
	 * of this when it imports a public key.
	 */
	if (!BN_is_odd(e) || !BN_is_odd(n) || BN_is_one(e) || BN_cmp(e, n) >= 0) {
		ok = -1;
		goto out;
	}
	key->bits = BN_num_bits(n);
	if ((bld = OSSL_PARAM_BLD_new()) == NULL ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, n) ||
	    !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) ||
	    (params = OSSL_PARAM_BLD_to_param(bld)) == NULL)
		goto out;
	if ((ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL)) == NULL ||
	    EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &key->pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
		goto out;
	ok = 1;
out:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(e);
	BN_free(n);
	return ok > 0 ? 0 : ok < 0 ? -2 : -1;
}

int sshsig_key_parse(struct sshsig_key *key, const unsigned char *blob, size_t len, int code)
{
	struct sshsig_reader r = { blob, len };
	const unsigned char *type;
	size_t type_len;
	int bad, error;

	memset(key, 0, sizeof(*key));
	if (sshsig_get_string(&type, &type_len, &r) < 0 || !sshsig_is_name(type, type_len) ||
	    type_len >= sizeof(key->type))
		return est_error_set(code, "malformed public key: no key type");
	memcpy(key->type, type, type_len);
	if ((key->blob = malloc(len ? len : 1)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading a public key");
	memcpy(key->blob, blob, len);
	key->blob_len = len;
	sshsig_fingerprint_blob(key->fingerprint, blob, len);

	if (strcmp(key->type, "ssh-ed25519") == 0)
		bad = ed25519_from_blob(key, &r);
	else if (strcmp(key->type, "ecdsa-sha2-nistp256") == 0)
		bad = p256_from_blob(key, &r);
	else if (strcmp(key->type, "ssh-rsa") == 0)
		bad = rsa_from_blob(key, &r);
	else
		return 0; /* kept as bytes; sshsig_key_check_policy refuses it */
	if (bad == -2) {
		error = est_error_set(code, "ssh-rsa public key %s is no RSA key (its exponent is 1 or "
				      "even, its modulus even, or the exponent not below the modulus): "
				      "anyone could sign as it; make a key with ssh-keygen -t ed25519",
				      key->fingerprint);
		sshsig_key_free(key);
		return error;
	}
	if (bad < 0 || r.len != 0) {
		error = est_error_set(code, "malformed %s public key", key->type);
		sshsig_key_free(key);
		return error;
	}
	key->supported = 1;
	return 0;
}

void sshsig_key_free(struct sshsig_key *key)
{
	EVP_PKEY_free(key->pkey);
	free(key->blob);
	memset(key, 0, sizeof(*key));
}

int sshsig_key_equal(const struct sshsig_key *a, const struct sshsig_key *b)
{
	if (strcmp(a->type, b->type) != 0)
		return 0;
	if (a->supported && b->supported)
		return EVP_PKEY_eq(a->pkey, b->pkey) == 1;
	return a->blob_len == b->blob_len && memcmp(a->blob, b->blob, a->blob_len) == 0;
}

int sshsig_key_check_policy(const struct sshsig_key *key)
{
	if (!key->supported)
		return est_error_set(EST_ESIG, "unsupported algorithm: the key is %s; estafette "
			"accepts ssh-ed25519, ecdsa-sha2-nistp256 and ssh-rsa keys (not "
			"certificates); sign with an ed25519 key", key->type);
	if (key->bits && key->bits < RSA_MIN_BITS)
		return est_error_set(EST_ESIG, "RSA key of %d bits is under %d (key %s); make "
			"an ed25519 key with ssh-keygen -t ed25519 and sign with it",
			key->bits, RSA_MIN_BITS, key->fingerprint);
	return 0;
}

void sshsig_fingerprint_blob(char *out, const unsigned char *blob, size_t len)
{
	unsigned char digest[SHA256_DIGEST_LENGTH];
	unsigned char b64[48];
	int n;

	SHA256(blob, len, digest);
	n = EVP_EncodeBlock(b64, digest, sizeof(digest));
	while (n > 0 && b64[n - 1] == '=')
		n--;
	snprintf(out, SSHSIG_FINGERPRINT_LEN + 1, "SHA256:%.*s", n, (const char *)b64);
}

/* RFC 5656 3.1.2: the signature is string(mpint r || mpint s); OpenSSL wants DER. */
static int ecdsa_to_der(unsigned char **der, size_t *der_len,
	const unsigned char *p, size_t n)
{
	struct sshsig_reader r = { p, n };
	BIGNUM *br = NULL, *bs = NULL;
	ECDSA_SIG *sig = NULL;
	unsigned char *out = NULL, *copy = NULL;
	int len, ok = 0;

	if (sshsig_get_mpint(&br, &r) < 0 || sshsig_get_mpint(&bs, &r) < 0 || r.len != 0)
		goto out;
	if ((sig = ECDSA_SIG_new()) == NULL || !ECDSA_SIG_set0(sig, br, bs))
		goto out;
	br = bs = NULL;
	if ((len = i2d_ECDSA_SIG(sig, &out)) <= 0 || (copy = malloc((size_t)len)) == NULL)
		goto out;
	memcpy(copy, out, (size_t)len);
	*der = copy;
	*der_len = (size_t)len;
	ok = 1;
out:
	OPENSSL_free(out);
	ECDSA_SIG_free(sig);
	BN_free(br);
	BN_free(bs);
	return ok ? 0 : -1;
}

/* Which digest the algorithm name asks for, or the refusal in words. */
static int pick_digest(const EVP_MD **md, const struct sshsig_key *key,
	const char *alg)
{
	*md = NULL;
	if (strcmp(key->type, "ssh-rsa") == 0) {
		if (strcmp(alg, "rsa-sha2-256") == 0)
			*md = EVP_sha256();
		else if (strcmp(alg, "rsa-sha2-512") == 0)
			*md = EVP_sha512();
		else if (strcmp(alg, "ssh-rsa") == 0)
			return est_error_set(EST_ESIG, "signature: unsupported algorithm ssh-rsa: the "
				"signature uses SHA-1, which is refused; sign again with a "
				"current ssh-keygen (it uses rsa-sha2-512)");
		else
			return est_error_set(EST_ESIG, "signature: unsupported algorithm \"%s\" for an "
				"ssh-rsa key; use rsa-sha2-256 or rsa-sha2-512", alg);
		return 0;
	}
	if (strcmp(alg, key->type) != 0)
		return est_error_set(EST_ESIG, "signature: unsupported algorithm \"%s\" for "
			"a %s key: the signature does not match its key", alg, key->type);
	if (strcmp(key->type, "ecdsa-sha2-nistp256") == 0)
		*md = EVP_sha256();
	return 0; /* ssh-ed25519 hashes inside the algorithm */
}

int sshsig_key_verify(const struct sshsig_key *key, const unsigned char *sig, size_t sig_len,
	const unsigned char *msg, size_t msg_len)
{
	struct sshsig_reader r = { sig, sig_len };
	const unsigned char *alg, *bytes;
	size_t alg_len, n, modulus;
	char alg_name[64];
	const EVP_MD *md;
	EVP_MD_CTX *ctx = NULL;
	unsigned char *converted = NULL;
	size_t converted_len = 0;
	int error, rc;

	if (sshsig_get_string(&alg, &alg_len, &r) < 0 || sshsig_get_string(&bytes, &n, &r) < 0 ||
	    !sshsig_is_name(alg, alg_len) || alg_len >= sizeof(alg_name))
		return est_error_set(EST_ESIG, "signature does not verify: the signature "
			"field is malformed (no algorithm and bytes)");
	if (r.len != 0)
		return est_error_set(EST_ESIG, "signature: trailing data after the signature "
			"bytes inside the SSHSIG blob");
	memcpy(alg_name, alg, alg_len);
	alg_name[alg_len] = '\0';
	if ((error = pick_digest(&md, key, alg_name)) < 0)
		return error;

	if (strcmp(key->type, "ssh-ed25519") == 0 && n != 64)
		return est_error_set(EST_ESIG, "signature does not verify: an ed25519 "
			"signature is 64 bytes, this one %zu", n);
	if (strcmp(key->type, "ecdsa-sha2-nistp256") == 0) {
		if (ecdsa_to_der(&converted, &converted_len, bytes, n) < 0)
			return est_error_set(EST_ESIG, "signature does not verify: malformed "
				"ecdsa signature");
		bytes = converted;
		n = converted_len;
	}
	if (strcmp(key->type, "ssh-rsa") == 0) {
		/* RFC 8332 3: the signature is as long as the modulus; some signers drop leading zeros. */
		modulus = (size_t)EVP_PKEY_get_size(key->pkey);
		if (n > modulus)
			return est_error_set(EST_ESIG, "signature does not verify: rsa "
				"signature longer than the key's modulus");
		if ((converted = calloc(1, modulus)) == NULL)
			return est_error_set(EST_ENOMEM, "out of memory verifying a signature");
		memcpy(converted + modulus - n, bytes, n);
		converted_len = modulus;
		bytes = converted;
		n = modulus;
	}

	error = 0;
	if ((ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestVerifyInit(ctx, NULL, md, NULL, key->pkey) <= 0) {
		error = est_error_set(EST_ENOMEM, "openssl cannot set up verification");
		goto out;
	}
	rc = EVP_DigestVerify(ctx, bytes, n, msg, msg_len);
	if (rc != 1)
		error = est_error_set(EST_ESIG, "signature does not verify: the data or the "
			"signature was changed after signing, or it was made by another key "
			"than %s", key->fingerprint);
out:
	EVP_MD_CTX_free(ctx);
	free(converted);
	return error;
}

/*
 * Decode a public key line "TYPE BASE64 [COMMENT]" into its blob (caller
 * frees), checking that the blob's own type matches TYPE.
 */
static int public_line_blob(unsigned char **out, size_t *out_len, const char *public_line)
{
	const char *p = public_line, *type, *b64;
	size_t type_len, b64_len, blob_len, inner_len;
	const unsigned char *inner;
	unsigned char *blob = NULL;
	struct sshsig_reader r;
	int error;

	while (*p == ' ' || *p == '\t')
		p++;
	type = p;
	p += strcspn(p, " \t\r\n");
	type_len = (size_t)(p - type);
	p += strspn(p, " \t");
	b64 = p;
	p += strcspn(p, " \t\r\n");
	b64_len = (size_t)(p - b64);
	if (type_len == 0 || b64_len == 0)
		return est_error_set(EST_EINVAL, "public key: expected \"TYPE BASE64 [COMMENT]\", "
			"the line of an id_ed25519.pub file");
	if ((error = sshsig_base64_decode(&blob, &blob_len, b64, b64_len)) < 0) {
		if (error == EST_EINVAL)
			error = est_error_set(EST_EINVAL, "public key: the key after \"%.*s\" "
				"is not base64", (int)type_len, type);
		return error;
	}
	r.p = blob;
	r.len = blob_len;
	if (sshsig_get_string(&inner, &inner_len, &r) < 0 || inner_len != type_len ||
	    memcmp(inner, type, type_len) != 0) {
		free(blob);
		return est_error_set(EST_EINVAL, "public key: the key's encoded type does not "
			"match \"%.*s\"; copy the line again from the .pub file",
			(int)type_len, type);
	}
	*out = blob;
	*out_len = blob_len;
	return 0;
}

int est_sshsig_fingerprint(char **out, const char *public_line)
{
	char fingerprint[SSHSIG_FINGERPRINT_LEN + 1];
	unsigned char *blob = NULL;
	size_t blob_len;
	int error;

	if ((error = public_line_blob(&blob, &blob_len, public_line)) < 0)
		return error;
	sshsig_fingerprint_blob(fingerprint, blob, blob_len);
	if ((*out = strdup(fingerprint)) == NULL)
		error = est_error_set(EST_ENOMEM, "out of memory");
	free(blob);
	return error;
}

int est_sshsig_check_public_key(char **fingerprint_out, const char *public_line)
{
	struct sshsig_key key;
	unsigned char *blob = NULL;
	size_t blob_len;
	int error;

	memset(&key, 0, sizeof(key));
	if ((error = public_line_blob(&blob, &blob_len, public_line)) < 0)
		return error;
	if ((error = sshsig_key_parse(&key, blob, blob_len, EST_EINVAL)) < 0)
		goto out;
	if (sshsig_key_check_policy(&key) < 0) {
		char reason[512];

		/* The policy speaks of signatures; here the key itself is refused. */
		snprintf(reason, sizeof(reason), "%s", est_error_message());
		error = est_error_set(EST_EINVAL, "public key: %s", reason);
		goto out;
	}
	if (fingerprint_out && !(*fingerprint_out = strdup(key.fingerprint)))
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	sshsig_key_free(&key);
	free(blob);
	return error;
}

/* ---- the canonical key of keys/allowed_signers ---- */

#define KEY_TEXT_MAX 16384

static const char *const canonical_types[] = { "ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa", NULL };

/* A control character, named so a person can find it in the players file. */
static const char *control_name(unsigned char c)
{
	switch (c) {
	case '\n': return "a line break (\\n)";
	case '\r': return "a carriage return (\\r)";
	case '\t': return "a tab";
	case 0x1b: return "an escape character";
	case 0x7f: return "a delete character (0x7f)";
	default: return "a control character";
	}
}

/*
 * RFC 4251 section 5: "Unnecessary leading bytes with the value 0 or 255
 * MUST NOT be included". A positive mpint starts with 0x00 only when its
 * next byte has the high bit set; anything else gives one number two
 * encodings, and so one key two fingerprints.
 */
static int mpint_canonical(const unsigned char *p, size_t n)
{
	return n == 0 || (p[0] != 0 && !(p[0] & 0x80)) || (p[0] == 0 && n > 1 && (p[1] & 0x80));
}

/* An mpint's bytes as RFC 4251 writes the same number. */
static void put_mpint_canonical(struct sshsig_buf *b, const unsigned char *p, size_t n)
{
	static const unsigned char zero = 0;

	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	sshsig_put_u32(b, (uint32_t)(n + (n > 0 && (p[0] & 0x80))));
	if (n > 0 && (p[0] & 0x80))
		sshsig_put_bytes(b, &zero, 1);
	sshsig_put_bytes(b, p, n);
}

/*
 * For an ssh-rsa blob sshsig_key_parse took: which of e and n (if any) is
 * not in its one encoding, and the fingerprint of the blob written
 * canonically into `fingerprint`, to name the key it really is.
 */
static const char *rsa_noncanonical(char *fingerprint, const unsigned char *blob, size_t len)
{
	struct sshsig_reader r = { blob, len };
	struct sshsig_buf b = { NULL, 0, 0, 0 };
	const unsigned char *type, *e, *n;
	size_t type_len, e_len, n_len;
	const char *which = NULL;

	if (sshsig_get_string(&type, &type_len, &r) < 0 || sshsig_get_string(&e, &e_len, &r) < 0 ||
	    sshsig_get_string(&n, &n_len, &r) < 0)
		return NULL;
	if (!mpint_canonical(n, n_len))
		which = "modulus n";
	if (!mpint_canonical(e, e_len))
		which = "exponent e";
	if (which) {
		sshsig_put_string(&b, type, type_len);
		put_mpint_canonical(&b, e, e_len);
		put_mpint_canonical(&b, n, n_len);
		if (b.failed)
			snprintf(fingerprint, SSHSIG_FINGERPRINT_LEN + 1, "SHA256:?");
		else
			sshsig_fingerprint_blob(fingerprint, b.p, b.len);
	}
	sshsig_buf_free(&b);
	return which;
}

/* 1 if the word (n bytes) names a key type: a second key after the first. */
static int is_key_type(const char *w, size_t n)
{
	static const char *const prefixes[] = { "ssh-", "ecdsa-", "sk-", "rsa-sha2-", NULL };

	for (size_t i = 0; prefixes[i]; i++)
		if (n > strlen(prefixes[i]) && strncmp(w, prefixes[i], strlen(prefixes[i])) == 0)
			return 1;
	return 0;
}

/* The text of a key as given: characters and layout, before its bytes are read. */
static int check_key_text(const char **type_end, const char **b64_end, const char *text)
{
	const unsigned char *u = (const unsigned char *)text;
	const char *p, *b64, *comment;
	size_t i, n, type_len;

	n = strlen(text);
	if (n == 0)
		return est_error_set(EST_EINVAL, "public key: is empty; give the line of the player's "
			".pub file, \"ssh-ed25519 AAAA...\"");
	if (n > KEY_TEXT_MAX)
		return est_error_set(EST_EINVAL, "public key: is %zu bytes, more than %d; give the "
			"one line of the player's .pub file", n, KEY_TEXT_MAX);
	for (i = 0; i < n; i++) {
		if (u[i] < 0x20 || u[i] == 0x7f)
			return est_error_set(EST_EINVAL, "public key: holds %s at byte %zu: a key is "
				"one line of printable text, \"TYPE BASE64 [COMMENT]\" as in the .pub "
				"file; copy that line again, without anything after it",
				control_name(u[i]), i + 1);
		if (u[i] > 0x7e)
			return est_error_set(EST_EINVAL, "public key: holds a byte that is not "
				"printable ASCII at byte %zu (only the comment may hold words, and "
				"estafette does not keep it); drop the comment after the key or write "
				"it in plain ASCII", i + 1);
	}
	type_len = strcspn(text, " ");
	if (type_len == 0)
		return est_error_set(EST_EINVAL, "public key: starts with a space; give the line of "
			"the .pub file as it is, \"ssh-ed25519 AAAA...\"");
	for (i = 0; canonical_types[i]; i++)
		if (strlen(canonical_types[i]) == type_len &&
		    strncmp(canonical_types[i], text, type_len) == 0)
			break;
	if (!canonical_types[i]) {
		if (memchr(text, '=', type_len) || memchr(text, '"', type_len) ||
		    (type_len == strlen("cert-authority") && strncasecmp(text, "cert-authority", type_len) == 0))
			return est_error_set(EST_EINVAL, "public key: starts with options (\"%.*s\"): "
				"a key is \"TYPE BASE64 [COMMENT]\" and estafette writes the only option "
				"keys/allowed_signers needs itself; give the key alone",
				(int)(type_len > 60 ? 60 : type_len), text);
		return est_error_set(EST_EINVAL, "public key: the key type \"%.*s\" is not one estafette "
			"accepts (ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa; no certificates); make "
			"a key with ssh-keygen -t ed25519", (int)(type_len > 60 ? 60 : type_len), text);
	}
	p = text + type_len;
	if (*p == '\0')
		return est_error_set(EST_EINVAL, "public key: expected \"TYPE BASE64 [COMMENT]\", "
			"the line of an id_ed25519.pub file; the base64 after \"%s\" is missing",
			canonical_types[i]);
	b64 = p + 1;
	if (*b64 == ' ' || *b64 == '\0')
		return est_error_set(EST_EINVAL, "public key: write one space between the key type "
			"and the base64, as the .pub file has it");
	p = b64 + strcspn(b64, " ");
	*type_end = text + type_len;
	*b64_end = p;
	if (*p == '\0')
		return 0;
	for (comment = p + 1; *comment; comment += n + (comment[n] == ' ')) {
		n = strcspn(comment, " ");
		if (is_key_type(comment, n))
			return est_error_set(EST_EINVAL, "public key: holds a second key (\"%.*s\" in "
				"the comment): one player, one key; give only the player's own key",
				(int)(n > 60 ? 60 : n), comment);
	}
	return 0;
}

int est_sshsig_canonical_key(char **canonical_out, char **fingerprint_out, const char *key_text)
{
	const char *type_end = NULL, *b64_end = NULL, *which;
	struct sshsig_key key;
	unsigned char *blob = NULL;
	char *again = NULL, *canonical = NULL, *fingerprint = NULL, reason[512];
	char canonical_fp[SSHSIG_FINGERPRINT_LEN + 1];
	size_t blob_len, type_len, b64_len;
	struct sshsig_reader r;
	const unsigned char *inner;
	size_t inner_len;
	int error;

	memset(&key, 0, sizeof(key));
	if (canonical_out)
		*canonical_out = NULL;
	if (fingerprint_out)
		*fingerprint_out = NULL;
	if (!key_text)
		return est_error_set(EST_EINVAL, "public key: is missing");
	if ((error = check_key_text(&type_end, &b64_end, key_text)) < 0)
		return error;
	type_len = (size_t)(type_end - key_text);
	b64_len = (size_t)(b64_end - type_end - 1);
	if ((error = sshsig_base64_decode(&blob, &blob_len, type_end + 1, b64_len)) < 0) {
		if (error == EST_EINVAL)
			error = est_error_set(EST_EINVAL, "public key: the key after \"%.*s\" is not "
				"base64; copy the line again from the .pub file", (int)type_len, key_text);
		return error;
	}
	/* Padding, no stray bits: the base64 is the one ssh-keygen writes for these bytes. */
	if ((again = sshsig_base64_encode(blob, blob_len, 0)) == NULL) {
		error = est_error_set(EST_ENOMEM, "out of memory reading a public key");
		goto out;
	}
	if (strlen(again) != b64_len || memcmp(again, type_end + 1, b64_len) != 0) {
		error = est_error_set(EST_EINVAL, "public key: the base64 is not written the way "
			"ssh-keygen writes it (padding missing, or bits set past the end), so the "
			"same key could be written two ways; copy the line again from the .pub file");
		goto out;
	}
	r.p = blob;
	r.len = blob_len;
	if (sshsig_get_string(&inner, &inner_len, &r) < 0 || inner_len != type_len ||
	    memcmp(inner, key_text, type_len) != 0) {
		error = est_error_set(EST_EINVAL, "public key: the key's encoded type does not "
			"match \"%.*s\"; copy the line again from the .pub file", (int)type_len, key_text);
		goto out;
	}
	/* sshsig_key_parse refuses bytes after the key's last field. */
	if ((error = sshsig_key_parse(&key, blob, blob_len, EST_EINVAL)) < 0) {
		snprintf(reason, sizeof(reason), "%s", est_error_message());
		if (strncmp(reason, "malformed ", 10) == 0)
			error = est_error_set(EST_EINVAL, "public key: %s (its fields do not fit its "
				"type, or bytes follow them); copy the line again from the .pub file",
				reason);
		else
			error = est_error_set(EST_EINVAL, "public key: %s", reason);
		goto out;
	}
	if (strcmp(key.type, "ssh-rsa") == 0 &&
	    (which = rsa_noncanonical(canonical_fp, blob, blob_len)) != NULL) {
		error = est_error_set(EST_EINVAL, "public key: the RSA %s is written with a needless "
			"leading zero byte: this is key %s in a second encoding, one ssh-keygen "
			"never writes (one key has one encoding, and one seat); copy the line again "
			"from the player's .pub file", which, canonical_fp);
		goto out;
	}
	if (sshsig_key_check_policy(&key) < 0) {
		snprintf(reason, sizeof(reason), "%s", est_error_message());
		error = est_error_set(EST_EINVAL, "public key: %s", reason);
		goto out;
	}
	if ((canonical = strndup(key_text, (size_t)(b64_end - key_text))) == NULL ||
	    (fingerprint = strdup(key.fingerprint)) == NULL) {
		error = est_error_set(EST_ENOMEM, "out of memory reading a public key");
		goto out;
	}
	if (canonical_out) {
		*canonical_out = canonical;
		canonical = NULL;
	}
	if (fingerprint_out) {
		*fingerprint_out = fingerprint;
		fingerprint = NULL;
	}
out:
	free(fingerprint);
	free(canonical);
	free(again);
	sshsig_key_free(&key);
	free(blob);
	return error;
}
