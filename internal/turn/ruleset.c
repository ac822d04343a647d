/*
 * The ruleset as the engine plays it: pending(), validate(),
 * default_orders() and resolve() over a whole state.json document, with the
 * two steps that belong to the engine and not to any game laid over them:
 * the join (step 1 of a new game awaits every player) and the GM's end.
 */
#include <stdio.h>
#include <string.h>

#include "turn/turn.h"
#include "util/error.h"
#include "util/util.h"

#define JOIN_RULE "estafette, step 1 (the join)"

int est_turn_is_join(const json_t *wrapped)
{
	return json_is_object(json_object_get(wrapped, "join"));
}

int est_turn_ruleset_pending(json_t **out, const est_ruleset *rs, const json_t *rules, const json_t *wrapped)
{
	const json_t *ended = json_object_get(wrapped, "ended");
	char prompt[512];

	if (est_turn_is_join(wrapped)) {
		*out = json_pack("{s:s, s:s, s:O, s:s}", "mode", "simultaneous", "kind", "join", "powers",
				 json_object_get(json_object_get(wrapped, "join"), "powers"), "prompt",
				 "the join: every player sends a signed order file with \"orders\": [] for "
				 "step 1, which proves their key works and brings their entropy to the "
				 "game's set-up draws");
		return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
	}
	if (!ended)
		return rs->pending(out, json_object_get(wrapped, "state"), rules);
	snprintf(prompt, sizeof(prompt), "the GM ended the game: %s",
		 json_string_value(json_object_get(ended, "text")));
	*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "over", "kind", "over", "powers", "prompt", prompt);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

int est_turn_validate(json_t **diagnostics_out, const est_ruleset *rs, const json_t *rules,
		      const json_t *wrapped, const char *power, const json_t *orders)
{
	*diagnostics_out = NULL;
	if (!est_turn_is_join(wrapped))
		return rs->validate(diagnostics_out, json_object_get(wrapped, "state"), rules, power, orders);
	if (json_is_array(orders) && json_array_size(orders) == 0)
		return 0;
	*diagnostics_out = json_pack("[{s:i, s:s, s:s, s:s}]", "index", -1, "field", "orders", "rule", JOIN_RULE,
				     "message", "the join takes no orders, only your signed file: send "
				     "\"orders\": []; your first orders go with step 2");
	return *diagnostics_out ? EST_EINVAL : est_error_set(EST_ENOMEM, "out of memory");
}

int est_turn_default_orders(json_t **out, const est_ruleset *rs, const json_t *rules, const json_t *wrapped,
			    const char *power)
{
	if (!est_turn_is_join(wrapped))
		return rs->default_orders(out, json_object_get(wrapped, "state"), rules, power);
	*out = json_array();
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* The join resolved: the set-up's automatic step, if the ruleset starts with one, drawn now. */
static int resolve_join(json_t **state_out, json_t **events_out, const est_ruleset *rs, const json_t *rules,
			const json_t *state, est_dice *dice, est_dice *hidden)
{
	json_t *pending = NULL, *orders = NULL, *events = NULL;
	int error;

	*events_out = json_pack("[{s:s, s:s}]", "type", "join", "text",
				"Step 1, the join: the players' signed files are in, and the game's "
				"set-up draws take their entropy");
	if (!*events_out)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = rs->pending(&pending, state, rules)) < 0)
		return error;
	if (strcmp(json_string_value(json_object_get(pending, "mode")), "automatic") != 0) {
		json_decref(pending);
		*state_out = json_deep_copy(state);
		return *state_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
	}
	json_decref(pending);
	if (!(orders = json_object()))
		return est_error_set(EST_ENOMEM, "out of memory");
	error = rs->resolve(state_out, &events, state, rules, orders, dice, hidden);
	json_decref(orders);
	if (error < 0)
		return error;
	error = json_array_extend(*events_out, events) < 0 ? est_error_set(EST_ENOMEM, "out of memory") : 0;
	json_decref(events);
	return error;
}

int est_turn_resolve(json_t **wrapped_out, json_t **events_out, const est_ruleset *rs, const json_t *rules,
		     const json_t *wrapped, long long step, const json_t *orders, est_dice *dice, est_dice *hidden)
{
	const json_t *state = json_object_get(wrapped, "state");
	json_t *next = NULL;
	int error;

	*wrapped_out = *events_out = NULL;
	if (est_turn_is_join(wrapped))
		error = resolve_join(&next, events_out, rs, rules, state, dice, hidden);
	else
		error = rs->resolve(&next, events_out, state, rules, orders, dice, hidden);
	if (error < 0) {
		json_decref(*events_out);
		*events_out = NULL;
		return error;
	}
	*wrapped_out = json_pack("{s:O, s:I, s:o}", "game", json_object_get(wrapped, "game"), "step",
				 (json_int_t)step, "state", next);
	if (*wrapped_out)
		return 0;
	json_decref(*events_out);
	*events_out = NULL;
	return est_error_set(EST_ENOMEM, "out of memory");
}

/* Every power the players hold, in the players' order. */
static int join_powers(json_t **out, const json_t *players)
{
	const json_t *player, *power;
	size_t i, j;

	if (!(*out = json_array()))
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(players, i, player)
		json_array_foreach(json_object_get(player, "powers"), j, power)
			json_array_append(*out, (json_t *)power);
	return 0;
}

int est_turn_setup(json_t **wrapped_out, const est_ruleset *rs, const json_t *rules, const json_t *game_json)
{
	const json_t *options = json_object_get(game_json, "options");
	json_t *state = NULL, *empty = json_object(), *join = NULL;
	int error;

	*wrapped_out = NULL;
	if ((error = rs->setup(&state, rules, options ? options : empty)) < 0)
		goto out;
	*wrapped_out = json_pack("{s:O, s:i, s:o}", "game", json_object_get(game_json, "id"), "step", 0,
				 "state", state);
	if (!*wrapped_out) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/*
	 * Dice v2: step 1 awaits every player, and the set-up draws wait for
	 * their entropy. The dice commitment is in the document, so each join
	 * file's "prev" binds it to these chains: a GM who makes the game again
	 * with other secrets cannot replay the players' files into it.
	 */
	if (est_game_dice_version(game_json) == 2) {
		if ((error = join_powers(&join, json_object_get(game_json, "players"))) < 0)
			goto out;
		json_object_set_new(*wrapped_out, "join", json_pack("{s:o, s:O}", "powers", join, "dice",
								    json_object_get(game_json, "dice")));
	}
out:
	if (error < 0) {
		json_decref(*wrapped_out);
		*wrapped_out = NULL;
	}
	json_decref(empty);
	return error;
}

int est_turn_sealed_round(const json_t *game_json, const json_t *pending)
{
	const char *mode = json_string_value(json_object_get(pending, "mode"));
	const char *kind = json_string_value(json_object_get(pending, "kind"));

	/* The join's empty files have nothing to hide: the seed's key is secret until the step resolves. */
	return json_is_true(json_object_get(game_json, "sealed_orders")) && mode &&
	       strcmp(mode, "simultaneous") == 0 && !(kind && strcmp(kind, "join") == 0);
}
