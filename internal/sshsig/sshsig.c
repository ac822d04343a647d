/*
 * SSHSIG blobs (OpenSSH's PROTOCOL.sshsig):
 *
 *     byte[6] "SSHSIG", uint32 version (1), string publickey,
 *     string namespace, string reserved, string hash_algorithm,
 *     string signature
 *
 * and what the key signs: "SSHSIG", string namespace, string reserved,
 * string hash_algorithm, string H(message). As in ssh-keygen, the reserved
 * field a signature carries is ignored and the signed one is empty.
 */
#include "sshsig/sshsig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "sshsig/sshsig_private.h"
#include "util/error.h"
#include "util/util.h"

#define MAGIC "SSHSIG"
#define MAGIC_LEN 6
#define SIG_VERSION 1
#define ARMOR_LABEL "SSH SIGNATURE"
#define SIGN_HASH "sha512" /* what ssh-keygen -Y sign uses */

struct sig {
	unsigned char *blob;
	size_t blob_len;
	char *namespace;
	char hash[8];
	const unsigned char *signature; /* points into blob */
	size_t signature_len;
	struct sshsig_key key;
};

static void sig_free(struct sig *s)
{
	free(s->blob);
	free(s->namespace);
	sshsig_key_free(&s->key);
	memset(s, 0, sizeof(*s));
}

static int malformed(void)
{
	return est_error_set(EST_ESIG, "signature: the SSHSIG blob is cut short or malformed; "
		"sign the file again with ssh-keygen -Y sign");
}

static int read_blob(struct sig *s)
{
	struct sshsig_reader r = { s->blob, s->blob_len };
	const unsigned char *magic, *pub, *ns, *reserved, *hash;
	size_t pub_len, ns_len, reserved_len, hash_len;
	uint32_t version;
	int error;

	if (sshsig_get_bytes(&magic, MAGIC_LEN, &r) < 0 || memcmp(magic, MAGIC, MAGIC_LEN) != 0)
		return est_error_set(EST_ESIG, "signature: bad armor: the blob does not start "
			"with \"SSHSIG\"; is this a file from ssh-keygen -Y sign?");
	if (sshsig_get_u32(&version, &r) < 0)
		return malformed();
	if (version != SIG_VERSION)
		return est_error_set(EST_ESIG, "signature: unknown version %u (estafette reads "
			"version %d, which ssh-keygen -Y sign writes)", version, SIG_VERSION);
	if (sshsig_get_string(&pub, &pub_len, &r) < 0 || sshsig_get_string(&ns, &ns_len, &r) < 0 ||
	    sshsig_get_string(&reserved, &reserved_len, &r) < 0 ||
	    sshsig_get_string(&hash, &hash_len, &r) < 0 ||
	    sshsig_get_string(&s->signature, &s->signature_len, &r) < 0)
		return malformed();
	if (r.len != 0)
		return est_error_set(EST_ESIG, "signature: trailing data: %zu byte%s after the "
			"signature inside the SSHSIG blob", r.len, r.len == 1 ? "" : "s");
	if (!sshsig_is_name(ns, ns_len))
		return est_error_set(EST_ESIG, "signature: its namespace is empty or holds "
			"spaces or control characters; sign with ssh-keygen -Y sign -n %s",
			EST_SSHSIG_NAMESPACE_ORDERS);
	if ((s->namespace = strndup((const char *)ns, ns_len)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading a signature");
	if (!sshsig_str_eq(hash, hash_len, "sha256") && !sshsig_str_eq(hash, hash_len, "sha512"))
		return est_error_set(EST_ESIG, "signature: unsupported algorithm: hash \"%.*s\" "
			"(sha256 or sha512 are accepted)",
			sshsig_is_name(hash, hash_len) ? (int)(hash_len < 32 ? hash_len : 32) : 0,
			(const char *)hash);
	memcpy(s->hash, hash, hash_len);
	s->hash[hash_len] = '\0';
	if ((error = sshsig_key_parse(&s->key, pub, pub_len, EST_ESIG)) < 0)
		return est_error_prefix("signature");
	return 0;
}

static int read_sig(struct sig *s, const char *armored, size_t len)
{
	int error;

	memset(s, 0, sizeof(*s));
	if ((error = sshsig_unarmor(&s->blob, &s->blob_len, armored, len, ARMOR_LABEL,
	    EST_ESIG, "signature")) < 0)
		return error;
	return read_blob(s);
}

/* What the signer's key signs (the header comment). */
static int signed_message(struct sshsig_buf *m, const char *namespace, const char *hash,
	const void *data, size_t data_len)
{
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int digest_len;

	if (EVP_Digest(data, data_len, digest, &digest_len,
	    strcmp(hash, "sha256") == 0 ? EVP_sha256() : EVP_sha512(), NULL) != 1)
		return est_error_set(EST_ERROR, "openssl cannot hash the signed data");
	sshsig_put_bytes(m, MAGIC, MAGIC_LEN);
	sshsig_put_cstring(m, namespace);
	sshsig_put_string(m, NULL, 0);
	sshsig_put_cstring(m, hash);
	sshsig_put_string(m, digest, digest_len);
	return sshsig_buf_check(m);
}

static int check_crypto(const struct sig *s, const void *data, size_t data_len)
{
	struct sshsig_buf m = { 0 };
	int error;

	if ((error = sshsig_key_check_policy(&s->key)) < 0)
		return est_error_prefix("signature");
	/* sshsig_key_verify's messages start "signature does not verify" or the like. */
	if ((error = signed_message(&m, s->namespace, s->hash, data, data_len)) == 0)
		error = sshsig_key_verify(&s->key, s->signature, s->signature_len, m.p, m.len);
	sshsig_buf_free(&m);
	return error;
}

static int check_namespace(const struct sig *s, const char *namespace)
{
	if (strcmp(s->namespace, namespace) != 0)
		return est_error_set(EST_ESIG, "signature: signed for namespace \"%s\" but \"%s\" "
			"is required; sign again with ssh-keygen -Y sign -n %s",
			s->namespace, namespace, namespace);
	return 0;
}

static void format_time(char *out, size_t n, time_t t)
{
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL || strftime(out, n, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(out, n, "%lld", (long long)t);
}

/*
 * Whether line `signer` lets its key sign `namespace` at `now`: 0, or
 * EST_ESIG with the reason.
 */
static int signer_admits(const struct sshsig_signer *signer, const char *namespace, time_t now)
{
	char when[64];

	if (signer->namespaces && !sshsig_match_list(namespace, signer->namespaces))
		return est_error_set(EST_ESIG, "allowed_signers line %zu: key %s may sign "
			"namespaces \"%s\", not \"%s\"", signer->line, signer->key.fingerprint,
			signer->namespaces, namespace);
	if (signer->has_after && now < signer->after) {
		format_time(when, sizeof(when), signer->after);
		return est_error_set(EST_ESIG, "allowed_signers line %zu: key %s is not yet "
			"valid: valid-after=\"%s\" (%s); sign again after that, or ask the game "
			"master to change the line", signer->line, signer->key.fingerprint,
			signer->after_text, when);
	}
	if (signer->has_before && now > signer->before) {
		format_time(when, sizeof(when), signer->before);
		return est_error_set(EST_ESIG, "allowed_signers line %zu: key %s expired on %s "
			"(valid-before=\"%s\"); ask the game master for a new line",
			signer->line, signer->key.fingerprint, when, signer->before_text);
	}
	return 0;
}

/*
 * Find a line for `principal` that lists the key and admits namespace and
 * time. When none does, the message is the most telling reason: a line that
 * lists the key for this principal but refuses it, else where the key is
 * listed for someone else, else that it is not listed.
 */
static int authorize(const struct sshsig_allowed *allowed, const struct sshsig_key *key,
	const char *principal, const char *namespace, time_t now)
{
	const struct sshsig_signer *other = NULL;
	char reason[1024] = "";

	for (size_t i = 0; i < allowed->n; i++) {
		const struct sshsig_signer *s = &allowed->signers[i];

		if (!sshsig_key_equal(&s->key, key))
			continue;
		if (!sshsig_match_list(principal, s->principals)) {
			if (!other)
				other = s;
			continue;
		}
		if (signer_admits(s, namespace, now) == 0)
			return 0;
		/* Keep the first refusal, but a later line may still admit the key. */
		if (!reason[0])
			snprintf(reason, sizeof(reason), "%s", est_error_message());
	}
	if (reason[0])
		return est_error_set(EST_ESIG, "%s", reason);
	if (other)
		return est_error_set(EST_ESIG, "key %s is not listed for principal \"%s\" in "
			"allowed_signers (line %zu lists it for \"%s\"); sign with %s's own key",
			key->fingerprint, principal, other->line, other->principals, principal);
	for (size_t i = 0; i < allowed->n; i++) {
		const struct sshsig_signer *s = &allowed->signers[i];

		if (sshsig_match_list(principal, s->principals) && signer_admits(s, namespace, now) == 0)
			return est_error_set(EST_ESIG, "key %s is not listed for principal \"%s\" in "
				"allowed_signers, which holds %s key %s for \"%s\" (line %zu); sign with "
				"that key, or ask the game master to put this one in its place",
				key->fingerprint, principal, s->key.type, s->key.fingerprint, principal,
				s->line);
		est_error_clear();
	}
	return est_error_set(EST_ESIG, "key %s is not listed for principal \"%s\" in "
		"allowed_signers; sign with the key the game has for \"%s\", or ask the game "
		"master to add this one", key->fingerprint, principal, principal);
}

/* 1 if some line of allowed_signers lists `key`, whoever for. */
static int key_listed(const struct sshsig_allowed *allowed, const struct sshsig_key *key)
{
	for (size_t i = 0; i < allowed->n; i++)
		if (sshsig_key_equal(&allowed->signers[i].key, key))
			return 1;
	return 0;
}

int est_sshsig_verify(const char *allowed_signers, size_t allowed_len,
	const char *principal, const char *namespace,
	const void *data, size_t data_len,
	const char *armored_sig, size_t sig_len, time_t now)
{
	struct sshsig_allowed allowed = { NULL, 0 };
	struct sig s;
	int error;

	memset(&s, 0, sizeof(s));
	if (!principal || !*principal || !namespace || !*namespace)
		return est_error_set(EST_EINVAL, "signature: no principal or namespace to check "
			"it against");
	if ((error = sshsig_allowed_parse(&allowed, allowed_signers, allowed_len)) < 0)
		goto out;
	if ((error = read_sig(&s, armored_sig, sig_len)) < 0 ||
	    (error = check_namespace(&s, namespace)) < 0)
		goto out;
	if ((error = sshsig_key_check_policy(&s.key)) < 0) {
		est_error_prefix("signature");
		goto out;
	}
	/* A key nobody listed is refused before any arithmetic: a stranger's
	 * made-up key (an RSA exponent of 3,000 bits) must cost nothing. */
	if (!key_listed(&allowed, &s.key) || (error = check_crypto(&s, data, data_len)) == 0)
		error = authorize(&allowed, &s.key, principal, namespace, now);
out:
	sig_free(&s);
	sshsig_allowed_free(&allowed);
	return error;
}

int est_sshsig_find_principals(char **principals_out,
	const char *allowed_signers, size_t allowed_len, const char *namespace,
	const void *data, size_t data_len,
	const char *armored_sig, size_t sig_len, time_t now)
{
	struct sshsig_allowed allowed = { NULL, 0 };
	struct sshsig_buf list = { 0 };
	struct sig s;
	int error;

	memset(&s, 0, sizeof(s));
	if ((error = sshsig_allowed_parse(&allowed, allowed_signers, allowed_len)) < 0 ||
	    (error = read_sig(&s, armored_sig, sig_len)) < 0)
		goto out;
	if (namespace && (error = check_namespace(&s, namespace)) < 0)
		goto out;
	if ((error = sshsig_key_check_policy(&s.key)) < 0) {
		est_error_prefix("signature");
		goto out;
	}
	for (size_t i = 0; i < allowed.n; i++) {
		const struct sshsig_signer *signer = &allowed.signers[i];

		if (!sshsig_key_equal(&signer->key, &s.key) ||
		    signer_admits(signer, s.namespace, now) < 0)
			continue;
		if (list.len)
			sshsig_put_bytes(&list, ",", 1);
		sshsig_put_bytes(&list, signer->principals, strlen(signer->principals));
	}
	sshsig_put_bytes(&list, "", 1);
	if ((error = sshsig_buf_check(&list)) < 0)
		goto out;
	if (list.len == 1) {
		error = est_error_set(EST_ENOTFOUND, "key %s is not listed in allowed_signers for "
			"namespace \"%s\" at this time", s.key.fingerprint, s.namespace);
		goto out;
	}
	/* Listed first, then the arithmetic: an unknown key costs nothing. */
	if (data && (error = check_crypto(&s, data, data_len)) < 0)
		goto out;
	if ((*principals_out = strdup((const char *)list.p)) == NULL)
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	sshsig_buf_free(&list);
	sig_free(&s);
	sshsig_allowed_free(&allowed);
	return error;
}

static int ed25519_sign(unsigned char out[64], const struct sshsig_private *k,
	const struct sshsig_buf *m)
{
	EVP_PKEY *pkey = NULL;
	EVP_MD_CTX *ctx = NULL;
	size_t len = 64;
	int error = 0;

	if ((pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, k->seed,
	    sizeof(k->seed))) == NULL || (ctx = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestSignInit(ctx, NULL, NULL, NULL, pkey) != 1 ||
	    EVP_DigestSign(ctx, out, &len, m->p, m->len) != 1 || len != 64)
		error = est_error_set(EST_ERROR, "openssl cannot sign with the ed25519 key");
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
	return error;
}

int est_sshsig_sign(char **armored_out, size_t *armored_len,
	const char *private_key, size_t key_len, const char *namespace,
	const void *data, size_t data_len)
{
	struct sshsig_private k;
	struct sshsig_buf m = { 0 }, inner = { 0 }, blob = { 0 };
	unsigned char signature[64];
	int error;

	memset(&k, 0, sizeof(k));
	if (!namespace || !sshsig_is_name((const unsigned char *)namespace, strlen(namespace)))
		return est_error_set(EST_EINVAL, "signature: the namespace is empty or holds "
			"spaces or control characters; sign for e.g. \"%s\"",
			EST_SSHSIG_NAMESPACE_ORDERS);
	if ((error = sshsig_private_parse(&k, private_key, key_len, 1)) < 0 ||
	    (error = signed_message(&m, namespace, SIGN_HASH, data, data_len)) < 0 ||
	    (error = ed25519_sign(signature, &k, &m)) < 0)
		goto out;
	sshsig_put_cstring(&inner, "ssh-ed25519");
	sshsig_put_string(&inner, signature, sizeof(signature));
	sshsig_put_bytes(&blob, MAGIC, MAGIC_LEN);
	sshsig_put_u32(&blob, SIG_VERSION);
	sshsig_put_string(&blob, k.public_blob, k.public_blob_len);
	sshsig_put_cstring(&blob, namespace);
	sshsig_put_string(&blob, NULL, 0);
	sshsig_put_cstring(&blob, SIGN_HASH);
	sshsig_put_string(&blob, inner.p, inner.len);
	if ((error = sshsig_buf_check(&inner)) < 0 || (error = sshsig_buf_check(&blob)) < 0)
		goto out;
	error = sshsig_armor(armored_out, armored_len, blob.p, blob.len, ARMOR_LABEL);
out:
	sshsig_buf_free(&blob);
	sshsig_buf_free(&inner);
	sshsig_buf_free(&m);
	sshsig_private_free(&k);
	return error;
}
