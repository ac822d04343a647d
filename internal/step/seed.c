/*
 * A step's seeds (docs/protocol.md "Dice protocol v2"), the same for `run` and for `audit`:
 * v1 over the SHA-256 of the manifest's bytes, v2 over the step's
 * canonical inputs, which neither the GM nor one player can vary once the
 * orders are in. A dealt game's games draw the same hidden values, so their
 * hidden seed leaves out the game and its orders.
 */
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "step/step.h"
#include "util/error.h"
#include "util/util.h"

/* Byte order of the entries' "player". */
static int by_player(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;

	return strcmp(json_string_value(json_object_get(x, "player")),
		      json_string_value(json_object_get(y, "player")));
}

/* Every player the manifest lists under `key`, with the file's SHA-256 ("orders") or none. */
static int add_awaited(json_t **list, size_t *n, const json_t *manifest, const char *key, int with_file)
{
	const json_t *entry;
	size_t i;

	json_array_foreach(json_object_get(manifest, key), i, entry) {
		const char *player = json_string_value(json_object_get(entry, "player"));
		const char *sha = json_string_value(json_object_get(entry, "sha256"));

		if (!player || (with_file && (!sha || strlen(sha) != 64)))
			return est_error_set(EST_EINVAL, "manifest.json: %s[%zu] lacks \"player\"%s", key, i,
					     with_file ? " or a SHA-256 in \"sha256\"" : "");
		if (!(list[(*n)++] = json_pack("{s:s, s:s?}", "player", player, "sha256", with_file ? sha : NULL)))
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

int est_step_dice_inputs(json_t **out, const json_t *game, long long step, const char *prev_hex,
			 const json_t *manifest)
{
	size_t count = json_array_size(json_object_get(manifest, "orders")) +
		       json_array_size(json_object_get(manifest, "missing")), n = 0, i;
	json_t **list = calloc(count + 1, sizeof(*list)), *awaited = json_array();
	int error;

	*out = NULL;
	if (!list || !awaited) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = add_awaited(list, &n, manifest, "orders", 1)) < 0 ||
	    (error = add_awaited(list, &n, manifest, "missing", 0)) < 0)
		goto out;
	qsort(list, n, sizeof(*list), by_player);
	for (i = 0; i < n; i++) {
		if (i > 0 && by_player(&list[i - 1], &list[i]) == 0) {
			error = est_error_set(EST_EINVAL, "manifest.json: player \"%s\" is listed twice",
					      json_string_value(json_object_get(list[i], "player")));
			goto out;
		}
		json_array_append(awaited, list[i]);
	}
	if (!(*out = json_pack("{s:O, s:I, s:s, s:O}", "game", json_object_get(game, "id"),
			       "step", (json_int_t)step, "prev", prev_hex, "awaited", awaited)))
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	for (i = 0; i < n; i++)
		json_decref(list[i]);
	free(list);
	json_decref(awaited);
	return error;
}

/* est_dice_v2_seed over `inputs` (est_step_dice_inputs' shape), keyed by `key` in `domain`. */
static int v2_seed(unsigned char out[32], const unsigned char key[32], const char *domain, const json_t *inputs)
{
	const json_t *awaited = json_object_get(inputs, "awaited"), *entry;
	size_t n = json_array_size(awaited), i;
	est_dice_input *list = calloc(n + 1, sizeof(*list));
	unsigned char (*sha)[32] = calloc(n + 1, 32), prev[32];
	const char *game = json_string_value(json_object_get(inputs, "game"));
	int error = 0;

	if (!list || !sha) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (!game || est_hex_decode(prev, 32, json_string_value(json_object_get(inputs, "prev"))) < 0) {
		error = est_error_set(EST_EINVAL, "dice inputs: \"game\" or \"prev\" (64 hex digits) is missing");
		goto out;
	}
	json_array_foreach(awaited, i, entry) {
		const json_t *hex = json_object_get(entry, "sha256");

		list[i].player = json_string_value(json_object_get(entry, "player"));
		if (!list[i].player || (!json_is_null(hex) && est_hex_decode(sha[i], 32, json_string_value(hex)) < 0)) {
			error = est_error_set(EST_EINVAL, "dice inputs: awaited[%zu] needs \"player\" and "
					      "\"sha256\" (64 hex digits, or null)", i);
			goto out;
		}
		list[i].sha256 = json_is_null(hex) ? NULL : sha[i];
	}
	error = est_dice_v2_seed(out, key, domain, game,
				 (uint32_t)json_integer_value(json_object_get(inputs, "step")), prev, list, n);
out:
	free(sha);
	free(list);
	return error;
}

int est_step_seeds(unsigned char seed[32], unsigned char hidden_seed[32], const char **hidden_domain,
		   const json_t *game, long long step, const unsigned char r[32], const unsigned char h[32],
		   const unsigned char manifest_sha[32], const json_t *inputs)
{
	const json_t *deal = json_object_get(game, "deal");
	const char *id = json_string_value(json_object_get(game, "id"));
	int v2 = est_game_dice_version(game) == 2, error;

	if (!id)
		return est_error_set(EST_EINVAL, "game.json: field \"id\" is missing or not a string");
	if (deal && !json_is_string(deal))
		return est_error_set(EST_EINVAL, "game.json: field \"deal\" is not a string; "
				     "a dealt game names its deal, e.g. \"deal\": \"march-2027\"");
	if (r && (error = v2 ? v2_seed(seed, r, EST_DICE_V2_DOMAIN_STEP, inputs) :
		  est_dice_step_seed(seed, r, EST_DICE_DOMAIN_STEP, id, (uint32_t)step, manifest_sha)) < 0)
		return error;
	if (!h)
		return 0;
	if (deal) {
		*hidden_domain = v2 ? EST_DICE_V2_DOMAIN_HIDDEN : EST_DICE_DOMAIN_DEAL;
		return v2 ? est_dice_v2_deal_seed(hidden_seed, h, json_string_value(deal), (uint32_t)step) :
		       est_dice_deal_seed(hidden_seed, h, json_string_value(deal), (uint32_t)step);
	}
	*hidden_domain = v2 ? EST_DICE_V2_DOMAIN_HIDDEN : EST_DICE_DOMAIN_HIDDEN;
	return v2 ? v2_seed(hidden_seed, h, EST_DICE_V2_DOMAIN_HIDDEN, inputs) :
	       est_dice_step_seed(hidden_seed, h, EST_DICE_DOMAIN_HIDDEN, id, (uint32_t)step, manifest_sha);
}

int est_step_dice_new(est_dice **out, const json_t *game, const unsigned char seed[32])
{
	return est_game_dice_version(game) == 2 ? est_dice_new_v2(out, seed) : est_dice_new(out, seed);
}
