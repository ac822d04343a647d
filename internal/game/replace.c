/*
 * The GM's "replace" act: a new person takes a player's seat,
 * with a new name, address and key; the old key is revoked. It is the one
 * act that changes game.json and keys/allowed_signers, which are otherwise
 * fixed at creation (game.c check_fixed): keys/replacements.json lists the
 * replace acts in order, and what game.json and the keys must be is always
 * step 0's files with those acts applied, each act checked for the GM's
 * signature. So no hand edit can pass for a replacement, and audit judges
 * each order by the keys of its time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

int est_replace_apply(json_t *game_doc, const json_t *act)
{
	const char *seat = json_string_value(json_object_get(act, "seat"));
	json_t *p;
	size_t i;

	json_array_foreach(json_object_get(game_doc, "players"), i, p) {
		if (!seat || strcmp(json_string_value(json_object_get(p, "id")), seat) != 0)
			continue;
		json_object_set(p, "name", json_object_get(act, "name"));
		json_object_set(p, "email", json_object_get(act, "email"));
		json_object_set(p, "key", json_object_get(act, "key"));
		return 0;
	}
	return est_error_set(EST_EINVAL, "gm replace: \"%s\" is not a player of this game", seat ? seat : "");
}

/* One listed act, wherever it is now: turns/NNNN/gm/ once its step resolved, else gm/. */
static int listed_act(json_t **act_out, est_store *store, const char *rev, const json_t *entry,
		      const char *signers)
{
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *want = json_string_value(json_object_get(entry, "sha256"));
	char path[300], *probe = NULL, sha[65];
	size_t len;
	int error;

	snprintf(path, sizeof(path), "turns/%04lld/gm/%s",
		 (long long)json_integer_value(json_object_get(entry, "step")), file ? file : "?");
	if (est_store_read(&probe, &len, store, rev, path) < 0)
		snprintf(path, sizeof(path), "gm/%s", file ? file : "?");
	est_error_clear();
	free(probe);
	if ((error = est_gm_act_read(act_out, sha, store, rev, path, signers)) < 0)
		return est_error_prefix("keys/replacements.json names %s", file ? file : "?");
	if (!want || strcmp(sha, want) != 0) {
		json_decref(*act_out);
		*act_out = NULL;
		return est_error_set(EST_EINVAL, "%s: not the act keys/replacements.json names (SHA-256)", path);
	}
	return 0;
}

int est_replace_expected(char **game_out, char **keys_out, est_store *store, const char *rev)
{
	char *signers = NULL, *gm_key = NULL;
	json_t *game = NULL, *list = NULL, *entry, *act;
	size_t len, i;
	int error;

	*game_out = *keys_out = NULL;
	if ((error = est_store_read_json(&list, store, rev, "keys/replacements.json")) == EST_ENOTFOUND) {
		est_error_clear();
		return 0;
	}
	if (error < 0 || (error = est_store_read_json(&game, store, "step-0000", "game.json")) < 0 ||
	    (error = est_store_read(&signers, &len, store, "step-0000", "keys/allowed_signers")) < 0)
		goto out;
	json_array_foreach(list, i, entry) {
		act = NULL;
		if ((error = listed_act(&act, store, rev, entry, signers)) < 0)
			goto out;
		error = est_replace_apply(game, act);
		json_decref(act);
		if (error < 0)
			goto out;
	}
	gm_key = est_game_gm_key(signers);
	if (!(*game_out = est_json_text(game)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_game_allowed_signers(keys_out, json_object_get(game, "players"), gm_key);
out:
	free(gm_key);
	free(signers);
	json_decref(list);
	json_decref(game);
	return error;
}
