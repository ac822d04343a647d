/*
 * What a step derives for its readers (step.h): the notices it adds to its
 * resolution's events (press, players who sent nothing, the GM's acts),
 * the deadline of the step it opens, and the files rendered from all that
 * into turns/NNNN/ (events.json, the public report, the map). step.c
 * writes them; audit/ makes them again from the repository and compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "game/game.h"
#include "turn/turn.h"
#include "step/step.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

/* The powers of the players named in `to` (player ids), and the sender's. */
static json_t *press_readers(est_game *game, const json_t *to, const json_t *sender)
{
	json_t *powers = json_deep_copy(json_object_get(sender, "powers")), *id;
	size_t i;

	json_array_foreach(to, i, id)
		json_array_extend(powers, json_object_get(est_game_player(game, json_string_value(id)),
							  "powers"));
	return powers;
}

/*
 * Press (docs/protocol.md "Order files"): each message becomes an event of the
 * step its order resolves in, seen by its recipients and its sender, or by
 * everyone when sent to "all".
 */
static void tell_press(json_t *out, est_game *game, const char *player, const json_t *press)
{
	const json_t *sender = est_game_player(game, player);
	const char *name = json_string_value(json_object_get(sender, "name"));
	size_t i;
	json_t *item;

	json_array_foreach(press, i, item) {
		const json_t *to = json_object_get(item, "to");
		json_t *event = json_pack("{s:s, s:s, s:O, s:O}", "type", "press", "from", player,
					  "to", to, "message", json_object_get(item, "text"));
		char *text = est_strdup_printf("Press from %s (%s)%s: %s", name, player,
					       json_is_string(to) ? " to all" : "",
					       json_string_value(json_object_get(item, "text")));
		if (!event || !text) {
			json_decref(event);
			free(text);
			continue;
		}
		json_object_set_new(event, "text", json_string(text));
		if (!json_is_string(to))
			json_object_set_new(event, "visible_to", press_readers(game, to, sender));
		json_array_append_new(out, event);
		free(text);
	}
}

/*
 * Every missed step is told to all: an event of the step, in every report.
 * `missing` is the manifest's entry: "missed_in_a_row" counts this step.
 */
static void tell_missed(json_t *out, est_game *game, const json_t *missing)
{
	int in_a_row = (int)json_integer_value(json_object_get(missing, "missed_in_a_row"));
	int disorder = est_civil_disorder_reached(game, in_a_row - 1);
	int entering = !disorder && est_civil_disorder_reached(game, in_a_row);
	const char *player = json_string_value(json_object_get(missing, "player"));
	const json_t *record = est_game_player(game, player);
	char *text = est_strdup_printf("%s (%s) sent no orders: %s plays by the rules' default orders%s",
				       json_string_value(json_object_get(record, "name")), player,
				       json_string_value(json_array_get(json_object_get(missing, "powers"), 0)),
				       disorder ? " (civil disorder)" : "");
	char *more = in_a_row > 1 ? est_strdup_printf("%s; %d steps missed in a row%s", text, in_a_row,
						      entering ? ": from now on in civil disorder, until orders "
						      "come again" : "") : NULL;

	json_array_append_new(out, json_pack("{s:s, s:s, s:O, s:i, s:b, s:s}", "type", "nmr",
		"player", player, "powers", json_object_get(missing, "powers"), "missed_in_a_row",
		in_a_row, "civil_disorder", disorder, "text", more ? more : text ? text : ""));
	free(more);
	free(text);
}

/* An order file a GM step set aside (step.c note_ignored), told to all: its player must send again. */
static void tell_set_aside(json_t *out, const json_t *ignored)
{
	const char *file = json_string_value(json_object_get(ignored, "file"));
	const char *reason = json_string_value(json_object_get(ignored, "reason"));
	char *text;

	if (!file || !reason || strcmp(reason, EST_STEP_SET_ASIDE) != 0)
		return;
	text = est_strdup_printf("The GM's act set aside orders/%s, recorded for the step it replaces: "
				 "send new orders, signed afresh, for the step now open", file);
	json_array_append_new(out, json_pack("{s:s, s:s, s:s}", "type", "set-aside", "file", file, "text",
					     text ? text : ""));
	free(text);
}

/* A GM act on the step (gm.c), told to all. */
static void tell_gm_act(json_t *out, const json_t *a)
{
	const char *file = json_string_value(json_object_get(a, "file"));
	const char *act = json_string_value(json_object_get(a, "act"));
	const char *reason = json_string_value(json_object_get(a, "reason"));
	long long hours = json_integer_value(json_object_get(a, "hours"));
	char *text;

	if (strcmp(act, "extend") == 0)
		text = est_strdup_printf("The GM extended the deadline by %lld hour%s: %s", hours,
					 hours == 1 ? "" : "s", reason);
	else if (strcmp(act, "replace") == 0)
		text = est_strdup_printf("The GM gave the seat of \"%s\" to %s <%s>, with a new key "
					 "(the old one is revoked): %s",
					 json_string_value(json_object_get(a, "seat")),
					 json_string_value(json_object_get(a, "name")),
					 json_string_value(json_object_get(a, "email")), reason);
	else
		text = est_strdup_printf("The GM %s the game: %s", strcmp(act, "pause") == 0 ?
					 "paused" : "resumed", reason);
	json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s}", "type", "gm", "act", act,
					     "file", file, "text", text ? text : act));
	free(text);
}

int est_step_notices(json_t **out, est_game *game, const json_t *manifest, const json_t *press)
{
	json_t *notices = json_array(), *acts = NULL, *entry;
	size_t i;
	int error;

	if (!notices)
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(json_object_get(manifest, "orders"), i, entry) {
		const char *player = json_string_value(json_object_get(entry, "player"));
		if (player)
			tell_press(notices, game, player, json_object_get(press, player));
	}
	json_array_foreach(json_object_get(manifest, "missing"), i, entry)
		tell_missed(notices, game, entry);
	json_array_foreach(json_object_get(manifest, "ignored"), i, entry)
		tell_set_aside(notices, entry);
	if ((error = est_gm_acts(&acts, game)) < 0) {
		json_decref(notices);
		return error;
	}
	json_array_foreach(acts, i, entry)
		tell_gm_act(notices, entry);
	json_decref(acts);
	*out = notices;
	return 0;
}

int est_step_deadline(time_t *out, est_game *game, const json_t *wrapped, long long opened)
{
	json_t *pending = NULL;
	int error;

	if ((error = est_turn_ruleset_pending(&pending, game->ruleset, game->rules, wrapped)) < 0)
		return error;
	*out = est_schedule_deadline(json_object_get(game->game, "schedule"), opened, pending);
	json_decref(pending);
	return 0;
}

int est_step_events_doc(json_t **out, long long step, const json_t *kind, const json_t *events)
{
	*out = json_pack("{s:I, s:O, s:O}", "step", (json_int_t)step, "kind", kind, "events", events);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

json_t *est_step_report_dice(const unsigned char reveal[32], const unsigned char seed[32], est_dice *dice)
{
	char r[65], s[65];

	est_hex_encode(r, reveal, 32);
	est_hex_encode(s, seed, 32);
	return json_pack("{s:s, s:s, s:O}", "reveal", r, "seed", s, "rolls", est_dice_log(dice));
}

const char *const est_step_derived_files[] = {"events.json", "report.txt", "report.html", "map.svg", NULL};

int est_step_derived(json_t **out, const char **failed_out, est_game *game, long long step,
		     const json_t *wrapped, const char *state_sha256, const json_t *events_doc,
		     const json_t *dice_doc, time_t deadline)
{
	json_t *files = json_object(), *data = NULL;
	char *text = NULL;
	int error = 0;

	*failed_out = est_step_derived_files[0];
	if (!files || !(text = est_json_text(events_doc)) ||
	    json_object_set_new(files, "events.json", json_stringn_nocheck(text, strlen(text))) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	free(text);
	text = NULL;
	*failed_out = est_step_derived_files[1];
	if ((error = est_report_build(&data, game, step, wrapped, state_sha256, events_doc, dice_doc,
				      NULL, deadline)) < 0)
		goto out;
	for (size_t i = 1; est_step_derived_files[i]; i++) {
		*failed_out = est_step_derived_files[i];
		/* A ruleset without a map has no map template: the step has no such file. */
		if ((error = est_report_render(&text, game, data, est_step_derived_files[i])) == EST_ENOTFOUND) {
			est_error_clear();
			error = 0;
			continue;
		}
		if (error < 0)
			goto out;
		if (json_object_set_new(files, est_step_derived_files[i], json_stringn_nocheck(text, strlen(text))) < 0) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		free(text);
		text = NULL;
	}
	*failed_out = NULL;
	*out = files;
	files = NULL;
out:
	free(text);
	json_decref(data);
	json_decref(files);
	return error;
}

/* Is file `name` (or its .sig) one that an entry of `list` names? */
static int listed(const json_t *list, const char *name)
{
	const json_t *t;
	size_t j;

	json_array_foreach(list, j, t) {
		const char *file = json_string_value(json_object_get(t, "file"));
		size_t n = file ? strlen(file) : 0;
		if (file && strncmp(name, file, n) == 0 && (name[n] == '\0' || strcmp(name + n, ".sig") == 0))
			return 1;
	}
	return 0;
}

int est_step_manifest_lists(const json_t *manifest, const char *name)
{
	return listed(json_object_get(manifest, "orders"), name) ||
	       listed(json_object_get(manifest, "commitments"), name);
}
