/*
 * A game's rules/: read as the ruleset interface takes it, cached by git
 * tree id, and hashed as the games of one deal share it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "game/game.h"
#include "util/error.h"
#include "util/util.h"

int est_game_read_rules(json_t **out, est_store *store, const char *rev)
{
	json_t *rules = json_object();
	char **names = NULL;
	size_t count = 0;
	int error;

	if ((error = est_store_list(&names, &count, store, rev, "rules")) < 0)
		goto out;
	for (size_t i = 0; i < count; i++) {
		size_t n = strlen(names[i]);
		char *path, key[256];
		json_t *value = NULL;

		if (n <= 5 || n - 5 >= sizeof(key) || strcmp(names[i] + n - 5, ".json") != 0)
			continue;
		memcpy(key, names[i], n - 5);
		key[n - 5] = '\0';
		if (!(path = est_strdup_printf("rules/%s", names[i]))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		error = est_store_read_json(&value, store, rev, path);
		free(path);
		if (error < 0)
			goto out;
		json_object_set_new(rules, key, value);
	}
	*out = rules;
	rules = NULL;
out:
	est_store_list_free(names);
	json_decref(rules);
	return error;
}

static void digest_enc(EVP_MD_CTX *md, const void *x, size_t len)
{
	unsigned char prefix[4] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16),
				   (unsigned char)(len >> 8), (unsigned char)len};

	EVP_DigestUpdate(md, prefix, sizeof(prefix));
	EVP_DigestUpdate(md, x, len);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int est_game_rules_sha256(char out[65], est_store *store, const char *rev)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	unsigned char digest[32];
	char **names = NULL, *bytes = NULL, *path = NULL;
	size_t count = 0, len;
	int error;

	if (!md || !EVP_DigestInit_ex(md, EVP_sha256(), NULL)) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_store_list(&names, &count, store, rev, "rules")) < 0)
		goto out;
	qsort(names, count, sizeof(*names), compare_names);
	for (size_t i = 0; i < count; i++) {
		if (!(path = est_strdup_printf("rules/%s", names[i]))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		if ((error = est_store_read(&bytes, &len, store, rev, path)) < 0)
			goto out;
		digest_enc(md, names[i], strlen(names[i]));
		digest_enc(md, bytes, len);
		free(bytes);
		free(path);
		bytes = path = NULL;
	}
	if (!EVP_DigestFinal_ex(md, digest, NULL)) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_hex_encode(out, digest, 32);
out:
	free(bytes);
	free(path);
	est_store_list_free(names);
	EVP_MD_CTX_free(md);
	return error;
}
