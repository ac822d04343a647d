/*
 * OpenSSH private key files (OpenSSH's PROTOCOL.key, "openssh-key-v1"):
 *
 *     "openssh-key-v1\0" string cipher, string kdf, string kdfoptions,
 *     uint32 N (1), string public key, string private section
 *     private section: uint32 check, uint32 check, the key with its
 *     comment, padding 1, 2, 3, ... to the cipher's block size (8 for none)
 */
#include "sshsig/sshsig_private.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

#define AUTH_MAGIC "openssh-key-v1"
#define AUTH_MAGIC_LEN sizeof(AUTH_MAGIC) /* with its NUL */
#define ARMOR_LABEL "OPENSSH PRIVATE KEY"
#define BLOCK_NONE 8

static int bad_key(const char *why)
{
	return est_error_set(EST_EINVAL, "private key: %s; is this the OpenSSH private key "
		"file (e.g. ~/.ssh/id_ed25519, not the .pub)?", why);
}

/* How many strings or mpints a type's private fields take, before the comment. */
static int private_fields(const char *type)
{
	if (strcmp(type, "ssh-ed25519") == 0)
		return 2; /* pk, seed||pk */
	if (strncmp(type, "ecdsa-sha2-nistp", 16) == 0)
		return 3; /* curve, Q, d */
	if (strcmp(type, "ssh-rsa") == 0)
		return 6; /* n, e, d, iqmp, p, q */
	return -1;
}

static int read_ed25519(struct sshsig_private *k, struct sshsig_reader *r)
{
	const unsigned char *pk, *sk, *outer_pk;
	size_t pk_len, sk_len, outer_len;
	struct sshsig_reader pub = { k->public_blob, k->public_blob_len };

	if (sshsig_get_string(&pk, &pk_len, r) < 0 || sshsig_get_string(&sk, &sk_len, r) < 0 ||
	    pk_len != SSHSIG_ED25519_LEN || sk_len != 2 * SSHSIG_ED25519_LEN ||
	    memcmp(sk + SSHSIG_ED25519_LEN, pk, SSHSIG_ED25519_LEN) != 0)
		return bad_key("the ed25519 private part is malformed");
	if (sshsig_get_expect(&pub, "ssh-ed25519") < 0 ||
	    sshsig_get_string(&outer_pk, &outer_len, &pub) < 0 || pub.len != 0 ||
	    outer_len != pk_len || memcmp(outer_pk, pk, pk_len) != 0)
		return bad_key("its public and private parts do not belong together");
	memcpy(k->seed, sk, SSHSIG_ED25519_LEN);
	memcpy(k->pk, pk, SSHSIG_ED25519_LEN);
	k->has_ed25519 = 1;
	return 0;
}

static int read_private_section(struct sshsig_private *k, const unsigned char *p, size_t n)
{
	struct sshsig_reader r = { p, n };
	const unsigned char *skip, *comment, *pad;
	size_t len, i;
	uint32_t check1, check2;
	int fields, error;

	if (n % BLOCK_NONE != 0)
		return bad_key("its private section is not padded to 8 bytes");
	if (sshsig_get_u32(&check1, &r) < 0 || sshsig_get_u32(&check2, &r) < 0 ||
	    check1 != check2)
		return bad_key("its check numbers differ (the file is corrupt)");
	if (sshsig_get_expect(&r, k->type) < 0)
		return bad_key("its private part is of another type than its public part");
	if ((fields = private_fields(k->type)) < 0)
		return 0; /* a type we cannot walk: no comment, nothing to check */
	if (strcmp(k->type, "ssh-ed25519") == 0) {
		if ((error = read_ed25519(k, &r)) < 0)
			return error;
	} else {
		for (int f = 0; f < fields; f++)
			if (sshsig_get_string(&skip, &len, &r) < 0)
				return bad_key("its private part is cut short");
	}
	if (sshsig_get_string(&comment, &len, &r) < 0 || memchr(comment, '\0', len))
		return bad_key("its comment is malformed");
	/* Padding 1, 2, 3, ...: anything else means a corrupt file. */
	if (r.len >= BLOCK_NONE || sshsig_get_bytes(&pad, r.len, &r) < 0)
		return bad_key("its padding is malformed");
	for (i = 0; i < (size_t)(r.p - pad); i++)
		if (pad[i] != i + 1)
			return bad_key("its padding is malformed");
	if ((k->comment = strndup((const char *)comment, len)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading a private key");
	return 0;
}

static int read_outer(struct sshsig_private *k, const unsigned char *bin, size_t bin_len,
	const unsigned char **priv, size_t *priv_len)
{
	struct sshsig_reader r = { bin, bin_len }, pub;
	const unsigned char *magic, *cipher, *kdf, *kdfopts, *pub_blob, *type;
	size_t cipher_len, kdf_len, kdfopts_len, pub_len, type_len;
	uint32_t nkeys;

	if (sshsig_get_bytes(&magic, AUTH_MAGIC_LEN, &r) < 0 ||
	    memcmp(magic, AUTH_MAGIC, AUTH_MAGIC_LEN) != 0)
		return bad_key("it is not an openssh-key-v1 key");
	if (sshsig_get_string(&cipher, &cipher_len, &r) < 0 ||
	    sshsig_get_string(&kdf, &kdf_len, &r) < 0 ||
	    sshsig_get_string(&kdfopts, &kdfopts_len, &r) < 0 ||
	    sshsig_get_u32(&nkeys, &r) < 0)
		return bad_key("its header is cut short");
	if (nkeys != 1)
		return bad_key("it holds more than one key");
	if (sshsig_get_string(&pub_blob, &pub_len, &r) < 0 ||
	    sshsig_get_string(priv, priv_len, &r) < 0 || r.len != 0)
		return bad_key("its key sections are malformed");
	pub.p = pub_blob;
	pub.len = pub_len;
	if (sshsig_get_string(&type, &type_len, &pub) < 0 || !sshsig_is_name(type, type_len) ||
	    type_len >= sizeof(k->type) || !sshsig_is_name(cipher, cipher_len) ||
	    cipher_len >= sizeof(k->cipher))
		return bad_key("its public key is malformed");
	memcpy(k->type, type, type_len);
	memcpy(k->cipher, cipher, cipher_len);
	k->encrypted = !sshsig_str_eq(cipher, cipher_len, "none") ||
		!sshsig_str_eq(kdf, kdf_len, "none");
	if ((k->public_blob = malloc(pub_len)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading a private key");
	memcpy(k->public_blob, pub_blob, pub_len);
	k->public_blob_len = pub_len;
	return 0;
}

int sshsig_private_parse(struct sshsig_private *out, const char *text, size_t len,
	int need_ed25519)
{
	struct sshsig_private k;
	unsigned char *bin = NULL;
	const unsigned char *priv;
	size_t bin_len = 0, priv_len;
	int error;

	memset(&k, 0, sizeof(k));
	if ((error = sshsig_unarmor(&bin, &bin_len, text, len, ARMOR_LABEL, EST_EINVAL,
	    "private key")) < 0)
		goto out;
	if ((error = read_outer(&k, bin, bin_len, &priv, &priv_len)) < 0)
		goto out;
	if (need_ed25519 && k.encrypted) {
		error = est_error_set(EST_EINVAL, "private key: it is encrypted with a passphrase "
			"(cipher %s), which estafette cannot ask for; sign with ssh-keygen -Y sign "
			"-n NAMESPACE -f KEY FILE, or remove the passphrase with ssh-keygen -p -N '' "
			"-f KEY", k.cipher);
		goto out;
	}
	if (need_ed25519 && strcmp(k.type, "ssh-ed25519") != 0) {
		error = est_error_set(EST_EINVAL, "private key: its type is %s, but estafette signs "
			"with ssh-ed25519 keys only; sign with ssh-keygen -Y sign -n NAMESPACE -f KEY "
			"FILE", k.type);
		goto out;
	}
	if (!k.encrypted && (error = read_private_section(&k, priv, priv_len)) < 0)
		goto out;
	*out = k;
	memset(&k, 0, sizeof(k));
out:
	sshsig_private_free(&k);
	OPENSSL_clear_free(bin, bin_len);
	return error;
}

void sshsig_private_free(struct sshsig_private *k)
{
	free(k->public_blob);
	free(k->comment);
	OPENSSL_cleanse(k, sizeof(*k));
}

/* "TYPE BASE64[ COMMENT]\n" */
static int public_line(char **out, const char *type, const unsigned char *blob, size_t len,
	const char *comment)
{
	char *b64;

	if ((b64 = sshsig_base64_encode(blob, len, 0)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory writing a public key");
	if (comment && *comment)
		*out = est_strdup_printf("%s %s %s\n", type, b64, comment);
	else
		*out = est_strdup_printf("%s %s\n", type, b64);
	free(b64);
	if (*out == NULL)
		return est_error_set(EST_ENOMEM, "out of memory writing a public key");
	return 0;
}

int est_sshsig_public_key(char **public_out, const char *private_key, size_t key_len)
{
	struct sshsig_private k;
	int error;

	if ((error = sshsig_private_parse(&k, private_key, key_len, 0)) < 0)
		return error;
	error = public_line(public_out, k.type, k.public_blob, k.public_blob_len, k.comment);
	sshsig_private_free(&k);
	return error;
}

static void put_ed25519_public(struct sshsig_buf *b, const unsigned char pk[SSHSIG_ED25519_LEN])
{
	sshsig_put_cstring(b, "ssh-ed25519");
	sshsig_put_string(b, pk, SSHSIG_ED25519_LEN);
}

/* The whole key file, armored; check is the random check number. */
static int write_private(char **out, const unsigned char seed[SSHSIG_ED25519_LEN],
	const unsigned char pk[SSHSIG_ED25519_LEN], const char *comment, uint32_t check)
{
	struct sshsig_buf pub = { 0 }, priv = { 0 }, file = { 0 };
	unsigned char pad;
	int error;

	put_ed25519_public(&pub, pk);

	sshsig_put_u32(&priv, check);
	sshsig_put_u32(&priv, check);
	put_ed25519_public(&priv, pk);
	sshsig_put_u32(&priv, 2 * SSHSIG_ED25519_LEN);
	sshsig_put_bytes(&priv, seed, SSHSIG_ED25519_LEN);
	sshsig_put_bytes(&priv, pk, SSHSIG_ED25519_LEN);
	sshsig_put_cstring(&priv, comment);
	for (pad = 1; priv.len % BLOCK_NONE != 0; pad++)
		sshsig_put_bytes(&priv, &pad, 1);

	sshsig_put_bytes(&file, AUTH_MAGIC, AUTH_MAGIC_LEN);
	sshsig_put_cstring(&file, "none");
	sshsig_put_cstring(&file, "none");
	sshsig_put_cstring(&file, "");
	sshsig_put_u32(&file, 1);
	sshsig_put_string(&file, pub.p, pub.len);
	sshsig_put_string(&file, priv.p, priv.len);
	if ((error = sshsig_buf_check(&pub)) < 0 || (error = sshsig_buf_check(&priv)) < 0 ||
	    (error = sshsig_buf_check(&file)) < 0)
		goto out;
	error = sshsig_armor(out, NULL, file.p, file.len, ARMOR_LABEL);
out:
	sshsig_buf_free(&file);
	sshsig_buf_free(&priv);
	sshsig_buf_free(&pub);
	return error;
}

int est_sshsig_keygen(char **private_out, char **public_out, const char *comment)
{
	unsigned char seed[SSHSIG_ED25519_LEN], pk[SSHSIG_ED25519_LEN];
	struct sshsig_buf blob = { 0 };
	EVP_PKEY *pkey = NULL;
	size_t pk_len = sizeof(pk);
	uint32_t check;
	char *priv = NULL;
	int error;

	if (comment == NULL)
		comment = "";
	if (strpbrk(comment, "\r\n"))
		return est_error_set(EST_EINVAL, "key comment: it holds a line break, which would "
			"break the public key line; use one line, e.g. \"france@laptop\"");
	if (RAND_bytes(seed, sizeof(seed)) != 1 || RAND_bytes((unsigned char *)&check,
	    sizeof(check)) != 1) {
		error = est_error_set(EST_ERROR, "openssl's random generator failed");
		goto out;
	}
	if ((pkey = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, seed,
	    sizeof(seed))) == NULL || EVP_PKEY_get_raw_public_key(pkey, pk, &pk_len) != 1) {
		error = est_error_set(EST_ERROR, "openssl cannot make an ed25519 key");
		goto out;
	}
	if ((error = write_private(&priv, seed, pk, comment, check)) < 0)
		goto out;
	put_ed25519_public(&blob, pk);
	if ((error = sshsig_buf_check(&blob)) < 0 ||
	    (error = public_line(public_out, "ssh-ed25519", blob.p, blob.len, comment)) < 0)
		goto out;
	*private_out = priv;
	priv = NULL;
out:
	if (priv)
		OPENSSL_clear_free(priv, strlen(priv));
	sshsig_buf_free(&blob);
	EVP_PKEY_free(pkey);
	OPENSSL_cleanse(seed, sizeof(seed));
	return error;
}
