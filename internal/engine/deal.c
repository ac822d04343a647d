/*
 * Challenges: one deal, many players (docs/gm-guide.md). The games of a deal share
 * the hidden dice chain secret and the rules/ files, so that their hidden
 * streams, seeded without the game id and the manifest, deal the same
 * cards at the same step whatever each player does.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

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
	if ((error = est_game_read_rules(&out->rules, src->store, "step-0000")) < 0 ||
	    (error = copy_rules(c, src->store)) < 0)
		goto out;
	dice = json_object_get(src->game, "dice");
	test_secret = json_string_value(json_object_get(dice, "test_secret"));
	out->deal = strdup(json_string_value(json_object_get(src->game, "deal")));
	out->options = json_deep_copy(json_object_get(src->game, "options"));
	out->test_secret = test_secret ? strdup(test_secret) : NULL;
	out->dice_protocol = strdup(est_game_dice_version(src->game) == 2 ? "v2" : "v1");
	if (!out->deal || !out->options || (test_secret && !out->test_secret) || !out->dice_protocol)
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
	free(src->dice_protocol);
	src->rules = src->options = NULL;
	src->deal = src->test_secret = NULL;
}
