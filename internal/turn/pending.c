/*
 * What the open step awaits and by when: the ruleset's pending() answer
 * with the game's players, the GM's acts on the step (gm/ at main: extend,
 * pause, resume) and what they do to its deadline, and the sealed-order
 * round. Worked out once for each position of main (est_turn_open).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "util/error.h"
#include "util/util.h"

/* One act file of gm/ at main, if it concerns the open step ("file" added), else NULL. */
static int read_act(json_t **out, est_game *game, const char *name)
{
	char path[300];
	int error;

	snprintf(path, sizeof(path), "gm/%s", name);
	if ((error = est_gm_act_read(out, NULL, game->store, NULL, path, game->allowed_signers)) < 0)
		return error;
	if (json_integer_value(json_object_get(*out, "step")) != game->step + 1) {
		json_decref(*out);
		*out = NULL;
		return 0;
	}
	json_object_set_new(*out, "file", json_string(name));
	return 0;
}

/* Every act of gm/ at main for the open step, read and verified afresh. */
static int read_acts(json_t **acts_out, est_game *game)
{
	char **names = NULL;
	size_t count = 0, i, n;
	json_t *acts = json_array(), *act;
	int error;

	if ((error = est_store_list(&names, &count, game->store, NULL, "gm")) < 0)
		goto out;
	for (i = 0; i < count; i++) {
		n = strlen(names[i]);
		if (n < 5 || strcmp(names[i] + n - 5, ".json") != 0)
			continue;
		if ((error = read_act(&act, game, names[i])) < 0)
			goto out;
		if (act)
			json_array_append_new(acts, act);
	}
	*acts_out = acts;
	acts = NULL;
out:
	est_store_list_free(names);
	json_decref(acts);
	return error;
}

int est_gm_acts(json_t **acts_out, est_game *game)
{
	const json_t *open;
	int error;

	if ((error = est_turn_open(&open, game)) < 0)
		return error;
	*acts_out = json_incref(json_object_get(open, "acts"));
	return 0;
}

int est_gm_effect(long long *added_out, int *paused_out, const json_t *acts)
{
	long long paused_since = 0;
	size_t i;
	json_t *a;

	*added_out = 0;
	json_array_foreach(acts, i, a) {
		const char *act = json_string_value(json_object_get(a, "act"));
		long long at = json_integer_value(json_object_get(a, "at"));
		if (strcmp(act, "extend") == 0)
			*added_out += json_integer_value(json_object_get(a, "hours")) * 3600;
		else if (strcmp(act, "pause") == 0)
			paused_since = at;
		else if (strcmp(act, "resume") == 0 && paused_since) {
			/* The step's deadline moves by as long as the game stood still. */
			*added_out += at > paused_since ? at - paused_since : 0;
			paused_since = 0;
		}
	}
	*paused_out = paused_since != 0;
	return 0;
}

/*
 * The deadline of the step that opened with the commit `rev` and awaits
 * `pending`: its commit time plus the schedule's hours for that kind of
 * step, 0 when the schedule gives it none.
 */
static int deadline_of(time_t *out, est_game *game, const char *rev, const json_t *pending)
{
	long long opened;
	int error;

	*out = 0;
	if ((error = est_store_commit_time(&opened, game->store, rev)) < 0)
		return error;
	*out = est_schedule_deadline(json_object_get(game->game, "schedule"), opened, pending);
	return 0;
}

/*
 * The open step at game->head, worked out once: main moves only by a
 * commit, after which the game is reloaded and the snapshot dropped.
 */
static int open_step(json_t **out, est_game *game)
{
	json_t *pending = NULL, *acts = NULL;
	long long added = 0;
	int paused = 0, error;
	char tag[40];
	time_t deadline = 0;

	/* A step opens with the commit of the step before it: order commits since do not move it. */
	snprintf(tag, sizeof(tag), "step-%04lld", game->step);
	if ((error = est_turn_ruleset_pending(&pending, game->ruleset, game->rules, game->state)) < 0 ||
	    (error = read_acts(&acts, game)) < 0 || (error = est_gm_effect(&added, &paused, acts)) < 0)
		goto out;
	/* A step whose tag a killed run left out has no deadline until the next run tags it. */
	if ((error = deadline_of(&deadline, game, tag, pending)) == EST_ENOTFOUND) {
		est_error_clear();
		error = 0;
	} else if (error < 0) {
		goto out;
	}
	if (deadline)
		deadline += (time_t)added;
	*out = json_pack("{s:s, s:O, s:O, s:I, s:b, s:I}", "head", game->head, "pending", pending,
			 "acts", acts, "added", (json_int_t)added, "paused", paused,
			 "deadline", (json_int_t)deadline);
	if (!*out)
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(acts);
	json_decref(pending);
	return error;
}

int est_turn_open(const json_t **out, est_game *game)
{
	const char *head = json_string_value(json_object_get(game->open_step, "head"));
	json_t *fresh = NULL;
	int error;

	if (!head || strcmp(head, game->head) != 0) {
		if ((error = open_step(&fresh, game)) < 0)
			return error;
		json_decref(game->open_step);
		game->open_step = fresh;
	}
	*out = game->open_step;
	return 0;
}

int est_turn_deadline(time_t *out, est_game *game, const char *rev)
{
	const json_t *open;
	json_t *wrapped = NULL, *pending = NULL;
	int error;

	*out = 0;
	if (!rev) {
		if ((error = est_turn_open(&open, game)) < 0)
			return error;
		*out = (time_t)json_integer_value(json_object_get(open, "deadline"));
		return 0;
	}
	if ((error = est_game_read_json(&wrapped, game, rev, "state.json")) == 0 &&
	    (error = est_turn_ruleset_pending(&pending, game->ruleset, game->rules, wrapped)) == 0)
		error = deadline_of(out, game, rev, pending);
	json_decref(pending);
	json_decref(wrapped);
	return error;
}

/*
 * The seq of the order recorded for `player`, into *out, if it is for
 * `step`, else 0. No file is no order; a folder in its place or a file
 * that is not JSON is none either (run refuses it by name when it takes the
 * step's orders).
 */
static int recorded_seq(long long *out, est_game *game, const char *player, long long step)
{
	char *text = NULL;
	size_t len;
	json_t *order = NULL;
	int error;

	*out = 0;
	/* A player's copy of a sealed game knows only the note orders/<player>.received. */
	if (est_game_is_sealed(game) && !game->sealed_store) {
		char path[300];
		snprintf(path, sizeof(path), "orders/%s.received", player);
		error = est_store_read(&text, &len, game->store, NULL, path);
	} else {
		error = est_game_order_read(&text, &len, game, player, 0);
	}
	/* Nothing there, or no file (a folder in its place: run names it refused). */
	if (error == EST_ENOTFOUND || error == EST_EINVAL) {
		est_error_clear();
		return 0;
	}
	if (error < 0)
		return error;
	if ((order = json_loadb(text, len, 0, NULL)) &&
	    json_integer_value(json_object_get(order, "step")) == step)
		*out = json_integer_value(json_object_get(order, "seq"));
	json_decref(order);
	free(text);
	return 0;
}

int est_turn_awaiting(json_t **out, est_game *game, const json_t *pending, time_t deadline)
{
	json_t *awaiting = json_array();
	const char *mode = json_string_value(json_object_get(pending, "mode"));
	char when[32];
	size_t i;
	json_t *power;
	int error = 0;

	est_time_iso(when, deadline);
	json_array_foreach(json_object_get(pending, "powers"), i, power) {
		const json_t *player = est_game_player_by_power(game, json_string_value(power));
		const char *id = json_string_value(json_object_get(player, "id"));
		json_t *entry = NULL;
		size_t j;

		if (!player)
			continue;
		json_array_foreach(awaiting, j, entry)
			if (strcmp(json_string_value(json_object_get(entry, "player")), id) == 0)
				break;
		if (j < json_array_size(awaiting)) {
			json_array_append(json_object_get(entry, "awaited_powers"), power);
			continue;
		}
		long long seq;
		if ((error = recorded_seq(&seq, game, id, game->step + 1)) < 0)
			break;
		json_array_append_new(awaiting, entry = json_pack("{s:s, s:O, s:O, s:[O], s:s, s:s?, s:b, s:I}",
			"player", id, "name", json_object_get(player, "name"),
			"powers", json_object_get(player, "powers"), "awaited_powers", power,
			"mode", mode, "deadline", *when ? when : NULL, "received", seq > 0,
			"seq", (json_int_t)seq));
		int disorder = 0;
		if (entry && seq == 0 && (error = est_in_civil_disorder(&disorder, game, id)) < 0)
			break;
		if (disorder)
			json_object_set_new(entry, "civil_disorder", json_true());
		/*
		 * The GM's copy reads the sealed store, players' copies only the
		 * note: say when the note lags, or the two disagree unexplained.
		 */
		if (entry && seq > 0 && est_sealed_note_missing(game, id))
			json_object_set_new(entry, "note_missing", json_true());
		/* Sealed orders: a commitment counts as a sign of life, not as orders. */
		char sha[65];
		if (entry && est_turn_sealed_round(game->game, pending))
			json_object_set_new(entry, "committed", json_boolean(est_commitment_read(sha, game, id)));
	}
	if (error < 0) {
		json_decref(awaiting);
		return error;
	}
	*out = awaiting;
	return 0;
}

int est_turn_pending(json_t **out, est_game *game, time_t now)
{
	const json_t *open, *pending;
	json_t *awaiting = NULL;
	const char *mode;
	time_t deadline, reveal;
	char when[32];
	int error, paused;

	if ((error = est_turn_open(&open, game)) < 0)
		return error;
	pending = json_object_get(open, "pending");
	mode = json_string_value(json_object_get(pending, "mode"));
	deadline = (time_t)json_integer_value(json_object_get(open, "deadline"));
	paused = json_is_true(json_object_get(open, "paused"));
	est_time_iso(when, deadline);
	if ((error = est_turn_awaiting(&awaiting, game, pending, deadline)) < 0)
		return error;
	*out = json_pack("{s:O, s:s, s:I, s:s, s:O, s:O, s:O, s:o, s:b, s:s?, s:b, s:b}",
		"game", json_object_get(game->game, "id"),
		"ruleset", game->ruleset->name,
		"step", (json_int_t)(game->step + 1),
		"state_sha256", game->state_sha256,
		"kind", json_object_get(pending, "kind"),
		"mode", json_object_get(pending, "mode"),
		"prompt", json_object_get(pending, "prompt"),
		"awaiting", awaiting,
		"over", mode && strcmp(mode, "over") == 0,
		"deadline", *when ? when : NULL,
		"deadline_passed", !paused && deadline > 0 &&
			now >= deadline + est_schedule_grace(json_object_get(game->game, "schedule")),
		"paused", paused);
	if (!*out)
		return est_error_set(EST_ERROR, "the ruleset's pending() answer lacks \"kind\", "
				     "\"mode\" or \"prompt\"");
	if (deadline && est_turn_sealed_round(game->game, pending)) {
		if ((error = est_reveal_deadline(&reveal, game)) < 0) {
			json_decref(*out);
			return error;
		}
		est_time_iso(when, reveal);
		json_object_set_new(*out, "reveal_deadline", json_string(when));
	}
	return 0;
}
