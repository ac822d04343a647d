/*
 * GM acts: extend a step's deadline, pause and resume a game.
 * Each is a gm/1 file (orders.h) the GM's key signs, principal "gm" in
 * namespace "estafette-gm" of keys/allowed_signers, committed at main as
 * gm/NNNN-SEQ.json and .sig like any order, and kept with the step under
 * turns/NNNN/gm/ when it resolves, where every report tells it and audit
 * checks its signature. Acts never enter the manifest: the manifest seeds
 * the dice, and a GM must not be able to reroll them by rewording a reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/json.h"
#include "util/unicode.h"
#include "util/util.h"

static int check_end(est_game *game, const json_t *params)
{
	const char *result = json_string_value(json_object_get(params, "result"));
	const char *winner = json_string_value(json_object_get(params, "winner"));

	if (!result || (strcmp(result, "draw") != 0 && strcmp(result, "concession") != 0 &&
			strcmp(result, "time limit") != 0))
		return est_error_set(EST_EUSAGE, "gm end: --result must be draw, concession or time-limit");
	if (winner && !est_game_player_by_power(game, winner))
		return est_error_set(EST_EUSAGE, "gm end: --winner \"%s\" is not a power of this game",
				     winner);
	if (strcmp(result, "concession") == 0 && !winner)
		return est_error_set(EST_EUSAGE, "gm end: a concession names the power that wins "
				     "(--winner POWER)");
	return 0;
}

/* Whether JSON pointer `a` names `b`, a part of it, or a part holding it. */
static int pointers_overlap(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	return strncmp(a, b, n) == 0 && (la == lb || (la < lb ? b : a)[n] == '/');
}

/*
 * A sealed game's act files are public: an adjust of a hidden part (the
 * ruleset's sealed()) would publish the value it sets, so none is made.
 */
static int check_adjust_sealed(est_game *game, const json_t *set)
{
	json_t *paths = NULL;
	const json_t *item, *hidden;
	size_t i, j;
	int error;

	if (!est_game_is_sealed(game) || !game->ruleset->sealed)
		return 0;
	if ((error = game->ruleset->sealed(&paths, json_object_get(game->state, "state"), game->rules)) < 0)
		return error;
	json_array_foreach(set, i, item) {
		const char *path = json_string_value(json_object_get(item, "path"));
		json_array_foreach(paths, j, hidden)
			if (path && pointers_overlap(path, json_string_value(hidden))) {
				error = est_error_set(EST_EUSAGE, "gm adjust: %s touches %s, a hidden part of "
						      "this sealed game; an act's file is public, so adjusting it "
						      "would publish what it sets. Adjust public parts only", path,
						      json_string_value(hidden));
				goto out;
			}
	}
out:
	json_decref(paths);
	return error;
}

/* Whether `act` may be made now. */
static int check_act(est_game *game, const json_t *acts, const char *act, const json_t *params,
		     const char *reason)
{
	long long added, hours = json_integer_value(json_object_get(params, "hours"));
	long long to = json_integer_value(json_object_get(params, "to_step"));
	est_unicode_problem bad;
	const char *name = json_string_value(json_object_get(params, "name"));
	time_t deadline = 0;
	int paused, error;

	est_gm_effect(&added, &paused, acts);
	if (!reason || !*reason)
		return est_error_set(EST_EUSAGE, "gm %s: --reason is missing; every act gives one line "
				     "the players will read in their reports, e.g. --reason \"Bert is travelling\"",
				     act);
	if (strpbrk(reason, "\r\n\t"))
		return est_error_set(EST_EUSAGE, "gm %s: --reason must be one line of text the players "
				     "will read in their reports", act);
	if (est_unicode_check(&bad, reason, strlen(reason), EST_UNICODE_MESSAGE) < 0)
		return est_error_set(EST_EUSAGE, "gm %s: --reason holds %s at byte %zu, %s that could hide, "
				     "reorder or forge the reports it appears in; write the reason without "
				     "it", act, bad.what, bad.offset, bad.kind);
	/* The players file's rule for a name (new.c check_name), told as the option it came from. */
	if (strcmp(act, "replace") == 0 && name && est_unicode_check(&bad, name, strlen(name), EST_UNICODE_NAME) < 0)
		return est_error_set(EST_EUSAGE, "gm replace: --name holds %s at byte %zu, %s that could forge "
				     "a mail header or make the name look like another; write the name "
				     "without it", bad.what, bad.offset, bad.kind);
	if (strcmp(act, "extend") == 0 && (hours < 1 || hours > 8760))
		return est_error_set(EST_EUSAGE, "gm extend: --hours must be a whole number from 1 to 8760");
	if (strcmp(act, "extend") == 0 && (error = est_turn_deadline(&deadline, game, NULL)) < 0)
		return error;
	if (strcmp(act, "extend") == 0 && deadline == 0)
		return est_error_set(EST_EUSAGE, "gm extend: step %lld has no deadline to extend (the "
				     "schedule gives it none)", game->step + 1);
	if (strcmp(act, "pause") == 0 && paused)
		return est_error_set(EST_EUSAGE, "gm pause: the game is paused already; gm resume ends it");
	if (strcmp(act, "resume") == 0 && !paused)
		return est_error_set(EST_EUSAGE, "gm resume: the game is not paused");
	if (strcmp(act, "end") == 0)
		return check_end(game, params);
	/* A dealt game's hidden draws are keyed by the step: a step more would put it off the deal's cards. */
	if ((strcmp(act, "adjust") == 0 || strcmp(act, "rollback") == 0) && json_object_get(game->game, "deal"))
		return est_error_set(EST_EUSAGE, "gm %s: this game is one of the deal \"%s\", whose games draw the "
				     "same hidden values at the same step; a step more would deal it other cards "
				     "than the rest of the deal. End the game (gm end) instead, or leave it as it is",
				     act, json_string_value(json_object_get(game->game, "deal")));
	if (strcmp(act, "adjust") == 0 && json_array_size(json_object_get(params, "set")) == 0)
		return est_error_set(EST_EUSAGE, "gm adjust: give at least one --set PATH=VALUE");
	if (strcmp(act, "adjust") == 0 && (error = check_adjust_sealed(game, json_object_get(params, "set"))) < 0)
		return error;
	if (strcmp(act, "rollback") == 0 && est_game_is_sealed(game))
		return est_error_set(EST_EUSAGE, "gm rollback: a sealed game cannot be rolled back in "
				     "this version (its old whole states are the GM's alone)");
	if (strcmp(act, "replace") == 0 &&
	    (!json_is_string(json_object_get(params, "seat")) || !json_is_string(json_object_get(params, "name")) ||
	     !json_is_string(json_object_get(params, "email")) || !json_is_string(json_object_get(params, "key"))))
		return est_error_set(EST_EUSAGE, "gm replace: give --player ID, --name NAME, --email ADDRESS "
				     "and --key FILE.pub for the player who takes the seat");
	if (strcmp(act, "replace") == 0 && !est_game_player(game, json_string_value(json_object_get(params, "seat"))))
		return est_error_set(EST_EUSAGE, "gm replace: --player \"%s\" is not a player of this game",
				     json_string_value(json_object_get(params, "seat")));
	if (strcmp(act, "rollback") == 0 && (to < 0 || to >= game->step))
		return est_error_set(EST_EUSAGE, "gm rollback: --to must be an earlier step, 0 to %lld",
				     game->step - 1);
	return 0;
}

/* The act's file, signed with the GM's key and checked against keys/allowed_signers. */
static int make_act(json_t **doc_out, char **text_out, char **sig_out, size_t *sig_len, est_game *game,
		    const char *act, const json_t *params, const char *reason, long long seq, time_t now)
{
	json_t *doc = json_pack("{s:s, s:O, s:I, s:s, s:s, s:I, s:s, s:I, s:s}", "estafette",
				EST_GM_ACT_FORMAT, "game", json_object_get(game->game, "id"), "step",
				(json_int_t)(game->step + 1), "player", "gm", "prev", game->state_sha256,
				"seq", (json_int_t)seq, "act", act, "at", (json_int_t)now, "reason", reason);
	const char *key;
	json_t *value;
	int error;

	json_object_foreach((json_t *)params, key, value)
		json_object_set(doc, key, value);
	if (!doc || !(*text_out = est_json_text(doc))) {
		json_decref(doc);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*doc_out = doc;
	if ((error = est_sshsig_sign(sig_out, sig_len, game->signing_key.key, game->signing_key.len,
				     EST_GM_NAMESPACE, *text_out, strlen(*text_out))) < 0)
		return error;
	if (est_sshsig_verify(game->allowed_signers, strlen(game->allowed_signers), "gm", EST_GM_NAMESPACE,
			      *text_out, strlen(*text_out), *sig_out, *sig_len, 0) < 0)
		return est_error_set(EST_ECONFIG, "git config estafette.signingkey is not the key of "
				     "principal gm in keys/allowed_signers: %s", est_error_message());
	return 0;
}

/*
 * A replace act's other files: game.json and keys/allowed_signers with the
 * seat's new name, address and key (the old key is gone from them), and
 * the act appended to keys/replacements.json (replace.c).
 */
static int replace_changes(est_changes *c, est_game *game, const json_t *act, const char *file,
			   const char *text)
{
	json_t *updated = json_deep_copy(game->game), *list = NULL;
	char *gm_key = est_game_gm_key(game->allowed_signers), *keys = NULL, sha[65];
	int error;

	est_sha256_hex(sha, text, strlen(text));
	if (!updated) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_replace_apply(updated, act)) < 0 ||
	    (error = est_game_check_players(json_object_get(updated, "players"), gm_key, "gm replace",
					      game->ruleset)) < 0)
		goto out;
	if (est_game_read_json(&list, game, NULL, "keys/replacements.json") < 0) {
		est_error_clear();
		list = json_array();
	}
	json_array_append_new(list, json_pack("{s:I, s:s, s:s, s:O}", "step", (json_int_t)(game->step + 1),
					      "file", file, "sha256", sha, "seat", json_object_get(act, "seat")));
	if ((error = est_game_allowed_signers(&keys, json_object_get(updated, "players"), gm_key)) < 0 ||
	    (error = est_changes_add_json(c, "game.json", updated)) < 0 ||
	    (error = est_changes_add(c, strdup("keys/allowed_signers"), keys, strlen(keys))) < 0)
		goto out;
	keys = NULL;
	error = est_changes_add_json(c, "keys/replacements.json", list);
out:
	free(keys);
	free(gm_key);
	json_decref(list);
	json_decref(updated);
	return error;
}

/* A GM act that changes the state is a step of its own (gm_step.c). */
static int is_step(const char *act)
{
	return strcmp(act, "end") == 0 || strcmp(act, "adjust") == 0 || strcmp(act, "rollback") == 0;
}

/* Orders recorded for the open step, which adjust and rollback would set aside. */
static int orders_aside(const json_t *pending, const char *act)
{
	char names[512] = "";
	const json_t *a;
	size_t i, n;

	json_array_foreach(json_object_get(pending, "awaiting"), i, a)
		if (json_is_true(json_object_get(a, "received")) && (n = strlen(names)) < sizeof(names) - 1)
			snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
				 json_string_value(json_object_get(a, "player")));
	if (!*names)
		return 0;
	return est_error_set(EST_EUSAGE, "gm %s: orders for step %lld are recorded (%s); this act would set "
			     "them aside, and the players would sign new ones, which the dice would then "
			     "take, so the step would roll again: give --force to make it anyway (every "
			     "report shows the act)", act,
			     (long long)json_integer_value(json_object_get(pending, "step")), names);
}

int est_engine_gm_act(json_t **receipt_out, est_game *game, const char *act, const json_t *params,
		    const char *reason, time_t now, unsigned flags)
{
	char *text = NULL, *sig = NULL, *msg = NULL, path[64], sig_path[72], oid[EST_STORE_OID_HEX + 1];
	json_t *acts = NULL, *pending = NULL, *doc = NULL;
	est_changes c = {0};
	size_t sig_len = 0;
	int error;

	if (!game->signing_key.key)
		return est_error_set(EST_ECONFIG, "GM acts are signed with the GM's key: set git config "
				     "estafette.signingkey (the key `new --gm-signing-key` was given)");
	if ((error = est_game_lock(game)) < 0)
		return error;
	if ((error = est_game_reload(game)) < 0 || (error = est_game_repair(NULL, game)) < 0 ||
	    (error = est_intake_pending(&pending, game, now)) < 0 ||
	    (error = est_gm_acts(&acts, game)) < 0)
		goto out;
	if (json_is_true(json_object_get(pending, "over"))) {
		error = est_error_set(EST_EUSAGE, "gm %s: the game is over", act);
		goto out;
	}
	if ((error = check_act(game, acts, act, params, reason)) < 0 ||
	    (!(flags & EST_GM_FORCE) && (strcmp(act, "adjust") == 0 || strcmp(act, "rollback") == 0) &&
	     (error = orders_aside(pending, act)) < 0) ||
	    (error = make_act(&doc, &text, &sig, &sig_len, game, act, params, reason,
			      (long long)json_array_size(acts) + 1, now)) < 0)
		goto out;
	if (is_step(act)) {
		error = est_step_gm(game, doc, text, sig, sig_len);
		text = sig = NULL;
		if (error == 0)
			*receipt_out = json_pack("{s:s, s:I, s:s}", "act", act, "step", (json_int_t)game->step,
						 "reason", reason);
		goto out;
	}
	snprintf(path, sizeof(path), "gm/%04lld-%02zu.json", game->step + 1, json_array_size(acts) + 1);
	snprintf(sig_path, sizeof(sig_path), "%s.sig", path);
	error = est_changes_add(&c, strdup(path), text, strlen(text));
	text = NULL;
	if (error < 0)
		goto out;
	error = est_changes_add(&c, strdup(sig_path), sig, sig_len);
	sig = NULL;
	if (error < 0 || (strcmp(act, "replace") == 0 &&
			  (error = replace_changes(&c, game, doc, path + strlen("gm/"), c.items[0].data)) < 0))
		goto out;
	if (!(msg = est_strdup_printf("gm: %s step %lld\n\n%s\n\nEstafette-Step: %lld\n", act,
				      game->step + 1, reason, game->step + 1))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_game_commit(oid, game, c.items, c.count, msg, NULL)) < 0 ||
	    (error = est_game_reload(game)) < 0)
		goto out;
	*receipt_out = json_pack("{s:s, s:I, s:s, s:s, s:s}", "act", act, "step", (json_int_t)(game->step + 1),
				 "file", path, "reason", reason, "commit", oid);
	if (*receipt_out && strcmp(act, "pause") != 0) {
		char when[32];
		time_t deadline;

		if ((error = est_turn_deadline(&deadline, game, NULL)) < 0)
			goto out;
		est_time_iso(when, deadline);
		json_object_set_new(*receipt_out, "deadline", json_string(when));
	}
out:
	est_changes_free(&c);
	free(msg);
	free(sig);
	free(text);
	json_decref(doc);
	json_decref(acts);
	json_decref(pending);
	est_store_unlock(game->store);
	return error;
}
