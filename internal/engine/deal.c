/*
 * Challenges: one deal, many players (README). The games of a deal share
 * the hidden dice chain secret and the rules/ files, so that their hidden
 * streams, seeded without the game id and the manifest, deal the same
 * cards at the same step whatever each player does.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "engine/internal.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

int est_engine_hidden_seed(unsigned char out[32], const char **domain_out, const json_t *game,
			   const unsigned char h[32], long long step,
			   const unsigned char manifest_sha[32])
{
	const json_t *deal = json_object_get(game, "deal");
	const char *id = json_string_value(json_object_get(game, "id"));

	if (deal) {
		if (!json_is_string(deal))
			return est_error_set(EST_EINVAL, "game.json: field \"deal\" is not a string; "
					     "a dealt game names its deal, e.g. \"deal\": \"march-2027\"");
		*domain_out = EST_DICE_DOMAIN_DEAL;
		return est_dice_deal_seed(out, h, json_string_value(deal), (uint32_t)step);
	}
	if (!id)
		return est_error_set(EST_EINVAL, "game.json: field \"id\" is missing or not a string");
	*domain_out = EST_DICE_DOMAIN_HIDDEN;
	return est_dice_step_seed(out, h, EST_DICE_DOMAIN_HIDDEN, id, (uint32_t)step, manifest_sha);
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

int est_engine_rules_sha256(char out[65], est_store *store, const char *rev)
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

/* rules/ of `store` at step-0000, every file's bytes as they are, as changes of the new game. */
static int copy_rules(est_changes *c, est_store *store)
{
	char **names = NULL, *bytes = NULL, *path = NULL;
	size_t count = 0, len;
	int error;

	if ((error = est_store_list(&names, &count, store, "step-0000", "rules")) < 0)
		return error;
	for (size_t i = 0; i < count && error == 0; i++) {
		if (!(path = est_strdup_printf("rules/%s", names[i]))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			break;
		}
		if ((error = est_store_read(&bytes, &len, store, "step-0000", path)) == 0)
			error = est_changes_add(c, path, bytes, len);
		else
			free(path);
		path = bytes = NULL;
	}
	est_store_list_free(names);
	return error;
}

/* GAME of --deal-from must be a dealt game of the ruleset the new game plays. */
static int check_source(const est_game *src, const char *path, const est_ruleset *rs)
{
	const char *deal = json_string_value(json_object_get(src->game, "deal"));

	if (src->ruleset != rs)
		return est_error_set(EST_EINVAL, "--deal-from %s: the game plays %s, not %s; a deal is "
				     "played with one ruleset: pass --ruleset %s or another game",
				     path, src->ruleset->name, rs->name, src->ruleset->name);
	if (!deal || !est_orders_is_id(deal))
		return est_error_set(EST_EINVAL, "--deal-from %s: game.json has no field \"deal\", so the "
				     "game is in no deal; start one with `estafette new ... --deal NAME` "
				     "and join that game", path);
	return 0;
}

int est_deal_join(est_deal_source *out, est_changes *c, const char *path, const est_ruleset *rs,
		  const char *home)
{
	est_game *src = NULL;
	const json_t *dice;
	const char *test_secret;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = est_game_open(&src, path)) < 0) {
		est_error_prefix("--deal-from %s", path);
		return error;
	}
	if ((error = check_source(src, path, rs)) < 0)
		goto out;
	if ((error = est_secrets_load(&out->secrets, home,
				      json_string_value(json_object_get(src->game, "id")))) < 0) {
		est_error_prefix("--deal-from %s: the deal's dice secrets are needed on this host", path);
		goto out;
	}
	if ((error = est_engine_read_rules(&out->rules, src->store, "step-0000")) < 0 ||
	    (error = copy_rules(c, src->store)) < 0)
		goto out;
	dice = json_object_get(src->game, "dice");
	test_secret = json_string_value(json_object_get(dice, "test_secret"));
	out->deal = strdup(json_string_value(json_object_get(src->game, "deal")));
	out->options = json_deep_copy(json_object_get(src->game, "options"));
	out->test_secret = test_secret ? strdup(test_secret) : NULL;
	if (!out->deal || !out->options || (test_secret && !out->test_secret))
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	est_game_free(src);
	if (error < 0)
		est_deal_source_free(out);
	return error;
}

void est_deal_source_free(est_deal_source *src)
{
	OPENSSL_cleanse(&src->secrets, sizeof(src->secrets));
	json_decref(src->rules);
	json_decref(src->options);
	free(src->deal);
	free(src->test_secret);
	src->rules = src->options = NULL;
	src->deal = src->test_secret = NULL;
}
