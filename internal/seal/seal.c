/*
 * Commitments to the hidden parts of a state (seal.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "seal/seal.h"
#include "util/error.h"
#include "util/util.h"

static void mac_enc(EVP_MAC_CTX *ctx, const char *x)
{
	size_t len = strlen(x);
	unsigned char prefix[4] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16),
				   (unsigned char)(len >> 8), (unsigned char)len};

	EVP_MAC_update(ctx, prefix, sizeof(prefix));
	EVP_MAC_update(ctx, (const unsigned char *)x, len);
}

static int nonce(unsigned char out[32], const unsigned char key[32], const char *path)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0),
			       OSSL_PARAM_construct_end()};
	size_t len = 0;
	int error = 0;

	if (!ctx || !EVP_MAC_init(ctx, key, 32, params))
		error = est_error_set(EST_ERROR, "OpenSSL: HMAC-SHA256 is not available");
	if (!error) {
		mac_enc(ctx, EST_SEAL_DOMAIN);
		mac_enc(ctx, path);
		if (!EVP_MAC_final(ctx, out, &len, 32) || len != 32)
			error = est_error_set(EST_ERROR, "OpenSSL: HMAC-SHA256 failed");
	}
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return error;
}

int est_seal_commitment(char hex_out[65], const unsigned char key[32], const char *path,
			const json_t *value)
{
	unsigned char n[32], digest[32];
	char *text = json_dumps(value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	int error;

	if (!text || !md) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = nonce(n, key, path)) < 0)
		goto out;
	if (!EVP_DigestInit_ex(md, EVP_sha256(), NULL) || !EVP_DigestUpdate(md, n, sizeof(n)) ||
	    !EVP_DigestUpdate(md, text, strlen(text)) || !EVP_DigestFinal_ex(md, digest, NULL)) {
		error = est_error_set(EST_ERROR, "OpenSSL: SHA-256 failed");
		goto out;
	}
	est_hex_encode(hex_out, digest, 32);
out:
	EVP_MD_CTX_free(md);
	free(text);
	return error;
}

/*
 * Walk `root` along pointer `path` to the parent object of its last key;
 * NULL (and *key NULL) when some key on the way is missing.
 */
static json_t *parent_of(json_t *root, char *path, char **key)
{
	char *slash;

	*key = NULL;
	path++; /* the leading '/' */
	while ((slash = strchr(path, '/'))) {
		*slash = '\0';
		root = json_object_get(root, path);
		path = slash + 1;
		if (!json_is_object(root))
			return NULL;
	}
	*key = path;
	return json_object_get(root, path) ? root : NULL;
}

/* {"sealed": hex} standing for `value`, with "count" for an array. */
static json_t *sealed_part(const char *hex, const json_t *value)
{
	if (json_is_array(value))
		return json_pack("{s:s, s:I}", "sealed", hex, "count", (json_int_t)json_array_size(value));
	return json_pack("{s:s}", "sealed", hex);
}

static int seal_one(json_t *state, const char *path, const unsigned char key[32])
{
	char hex[65], *copy, *last;
	json_t *parent;
	int error = 0;

	/* '~' escapes and empty keys are not needed by any ruleset: refuse them. */
	if (!path || path[0] != '/' || strchr(path, '~') || strstr(path, "//") ||
	    path[strlen(path) - 1] == '/')
		return est_error_set(EST_EINVAL, "sealed part \"%s\": not a JSON pointer of object keys "
				     "(\"/hands/France\")", path ? path : "(null)");
	if (!(copy = strdup(path)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((parent = parent_of(state, copy, &last)) &&
	    (error = est_seal_commitment(hex, key, path, json_object_get(parent, last))) == 0 &&
	    json_object_set_new(parent, last, sealed_part(hex, json_object_get(parent, last))) < 0)
		error = est_error_set(EST_ENOMEM, "out of memory");
	free(copy);
	return error;
}

int est_seal_state(json_t **public_out, const json_t *state, const json_t *paths,
		   const unsigned char key[32])
{
	json_t *copy = json_deep_copy(state), *path;
	size_t i;
	int error = 0;

	if (!copy)
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(paths, i, path)
		if ((error = seal_one(copy, json_string_value(path), key)) < 0)
			break;
	if (error < 0) {
		json_decref(copy);
		return error;
	}
	*public_out = copy;
	return 0;
}
