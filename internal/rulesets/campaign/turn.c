/*
 * Campaign: the order of play (§9), and one player's turn — diplomacy (§8),
 * the declared attack (§10), the moves of the throw (§2, §3), the end of
 * the turn (attack, towns, Generals, mobilisation) and the next player's
 * throw.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "cp_internal.h"

static int throw_dice(json_t *state, json_t *events, est_dice *dice, const char *country)
{
	int a, b, error;

	if ((error = est_rules_roll(&a, dice, 6, "%s's throw", country)) < 0 ||
	    (error = est_rules_roll(&b, dice, 6, "%s's throw", country)) < 0)
		return error;
	json_object_set_new(state, "throw", json_pack("[i, i]", a, b));
	return est_rules_event(events, json_pack("{s:s, s:[i, i]}", "country", country, "throw", a, b), "throw",
			       "%s's turn: the dice throw %d and %d, %d moves (§2)", country, a, b, a + b);
}

/* §9: "Decide the order of play by, in turn, throwing both dice. The player with the highest score will begin." */
int cp_start(json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	const json_t *seating = json_object_get(cp_board(rules), "seating"), *bases = json_object_get(state, "bases");
	json_t *c;
	json_t *tied = json_deep_copy(bases), *order = json_array();
	const char *first = NULL;
	size_t i, start = 0;
	int error = 0;

	while (!first && json_array_size(tied) > 0) {
		json_t *best = json_array();
		int top = 0;
		json_array_foreach(tied, i, c) {
			int a, b;
			if ((error = est_rules_roll(&a, dice, 6, "order of play: %s", json_string_value(c))) < 0 ||
			    (error = est_rules_roll(&b, dice, 6, "order of play: %s", json_string_value(c))) < 0)
				goto out;
			est_rules_event(events, NULL, "order", "order of play: %s throws %d", json_string_value(c), a + b);
			if (a + b > top) {
				json_array_clear(best);
				top = a + b;
			}
			if (a + b == top)
				json_array_append(best, c);
		}
		json_decref(tied);
		tied = best;
		if (json_array_size(tied) == 1)
			first = json_string_value(json_array_get(tied, 0));
	}
	/* "The player on his left then takes his turn, and so on round the board." */
	json_array_foreach(seating, i, c)
		if (first && strcmp(json_string_value(c), first) == 0)
			start = i;
	for (i = 0; i < json_array_size(seating); i++) {
		c = json_array_get(seating, (start + i) % json_array_size(seating));
		if (est_rules_in_list(bases, json_string_value(c)))
			json_array_append(order, c);
	}
	json_object_set(state, "order", order);
	json_object_set_new(state, "phase", json_string("turn"));
	json_object_set_new(state, "turn", json_integer(1));
	json_object_set(state, "active", json_array_get(order, 0));
	error = throw_dice(state, events, dice, json_string_value(json_array_get(order, 0)));
out:
	json_decref(tied);
	json_decref(order);
	return error;
}

/* §10: "A defeated piece is removed from the board at the end of the turn." */
static int resolve_attack(json_t *state, json_t *events, const json_t *rules, const char *target_id)
{
	const char *active = est_rules_str(state, "active");
	json_t *target = cp_piece(state, target_id), *pieces = json_object_get(state, "pieces");
	char *why = NULL, *names = NULL;
	int taken, error;
	size_t i;

	if (!target)
		return 0;
	if ((error = cp_attack_outcome(&taken, &why, &names, state, active, target)) < 0)
		return error;
	json_object_set_new(json_object_get(state, "last"), "attack", json_pack("{s:s, s:b, s:s, s:s, s:O}", "target",
				target_id, "taken", taken, "why", why, "pieces", names, "square",
				json_object_get(target, "square")));
	error = est_rules_event(events, json_pack("{s:s, s:b}", "target", target_id, "taken", taken), "attack",
				"%s attacks %s: %s: %s (§10%s); %s", active, target_id, why, taken ? "taken" : "it holds",
				strcmp(est_rules_str(state, "game"), "standard") == 0 ? ", §14" : "", names);
	free(why);
	free(names);
	if (error < 0 || !taken)
		return error;
	/* "Captured Generals are not removed from the board." */
	if (strcmp(est_rules_str(target, "kind"), "general") == 0)
		return cp_general_taken(state, events, rules, target);
	json_array_foreach(pieces, i, target)
		if (strcmp(est_rules_str(target, "id"), target_id) == 0)
			return json_array_remove(pieces, i) < 0 ? est_error_set(EST_ENOMEM, "out of memory") : 0;
	return 0;
}

/*
 * Whether `country`'s pieces of `kind` are mobilised on `squares`, their start squares (§16): "all pieces are
 * on the starting squares, or all possible starting squares are occupied". A square an opposing piece holds
 * is not a possible one (RULINGS.md C16): the mobilising player may not attack it, nor may anyone attack
 * his pieces, so waiting for it to leave could hold both sides for ever. A square his own or an ally's piece
 * holds stays possible: his own piece can move off, his ally can be asked to or the alliance broken. The
 * ids of the opposing pieces are added to *held. 1 or 0, or a negative EST_E* code.
 */
static int kind_mobilised(char **held, const json_t *state, const char *country, const char *kind,
			  const json_t *squares)
{
	const json_t *sq, *p;
	size_t i;
	int on = 0, possible = 0, x, y;

	json_array_foreach(squares, i, sq) {
		if (!cp_sq(sq, &x, &y))
			continue;
		p = cp_piece_at(state, x, y);
		if (p && !cp_friendly(state, country, est_rules_str(p, "country"))) {
			if (est_rules_join(held, ", ", "%s", est_rules_str(p, "id")) < 0)
				return est_error_set(EST_ENOMEM, "out of memory");
			continue;
		}
		possible++;
		on += p && strcmp(est_rules_str(p, "country"), country) == 0 && strcmp(est_rules_str(p, "kind"), kind) == 0;
	}
	return on == cp_count(state, country, kind) || on == possible;
}

/*
 * §16: mobilisation is complete when every kind is mobilised on its start squares, the General's being
 * the Capital ("its starting position on the Capital square", §12; §1). *held: the opposing pieces on
 * them, a heap string or NULL, the caller's.
 */
static int mobilised(int *done, char **held, const json_t *state, const json_t *rules, const char *country)
{
	const json_t *start = json_object_get(json_object_get(cp_board(rules), "start"), country);
	const char *kinds[] = {"general", "infantry", "cavalry"};
	json_t *capital;
	int cx, cy, error = 0;

	*done = 0;
	*held = NULL;
	cp_capital(&cx, &cy, rules, country);
	if (!(capital = json_pack("[[i, i]]", cx, cy)))
		return est_error_set(EST_ENOMEM, "out of memory");
	for (int k = 0; k < 3; k++)
		if ((error = kind_mobilised(held, state, country, kinds[k],
					    k == 0 ? capital : json_object_get(start, kinds[k]))) <= 0)
			goto out;
	*done = 1;
	error = 0;
out:
	json_decref(capital);
	return error < 0 ? error : 0;
}

/* The end of `country`'s turn while it mobilises: complete, it moves off at its next turn (§16). */
static int end_mobilising(json_t *state, json_t *events, const json_t *rules, const char *country)
{
	char *held = NULL;
	int done, error;

	if (!json_is_true(json_object_get(json_object_get(state, "mobilising"), country)))
		return 0;
	if ((error = mobilised(&done, &held, state, rules, country)) < 0 || !done)
		goto out;
	json_object_del(json_object_get(state, "mobilising"), country);
	error = est_rules_event(events, NULL, "mobilised", "%s has mobilised in its Capital: its army moves off at "
				"its next turn (§16)%s%s%s", country,
				held ? "; the squares of its Capital and start squares that opposing pieces hold (" : "",
				held ? held : "",
				held ? ") are not possible ones (§16: \"all possible starting squares are occupied\")" : "");
out:
	free(held);
	return error;
}

/* The next player in the order of play still in the game; a missed turn is told and passed (§12). */
static int next_player(json_t *state, json_t *events, est_dice *dice)
{
	const json_t *order = json_object_get(state, "order");
	size_t n = json_array_size(order), at = 0, i;
	const char *active = est_rules_str(state, "active");
	json_t *missed = json_object_get(state, "missed"), *immune = json_object_get(state, "immune");
	int error;

	for (i = 0; i < n; i++)
		if (strcmp(json_string_value(json_array_get(order, i)), active) == 0)
			at = i;
	for (i = 1; i <= 2 * n; i++) {
		const char *c = json_string_value(json_array_get(order, (at + i) % n));
		if (cp_is_out(state, c))
			continue;
		json_object_set_new(state, "turn", json_integer(est_rules_int(state, "turn", 0) + 1));
		if (est_rules_int(missed, c, 0) > 0) {
			json_object_set_new(missed, c, json_integer(est_rules_int(missed, c, 0) - 1));
			json_object_set_new(immune, c, json_integer(est_rules_int(immune, c, 0) - 1));
			if ((error = est_rules_event(events, NULL, "missed", "%s misses this turn: its General was "
						     "captured (§12)", c)) < 0)
				return error;
			continue;
		}
		json_object_set_new(state, "active", json_string(c));
		return throw_dice(state, events, dice, c);
	}
	return 0;
}

int cp_play_turn(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const json_t *orders)
{
	const char *active = est_rules_str(state, "active"), *target = NULL;
	json_t *moves = json_array(), *diags = json_array();
	int error = 0;
	char who[32];

	snprintf(who, sizeof(who), "%s", active);
	if (!moves || !diags || json_object_set_new(state, "last", json_pack("{s:O, s:n}", "moves", moves, "attack")) < 0)
		error = est_error_set(EST_ENOMEM, "out of memory");
	/* The very code validate() runs on a copy: a file it accepts is never refused here. */
	else if ((error = cp_apply_orders(&target, diags, state, events, moves, rules, orders)) == 0 &&
		 json_array_size(diags) > 0)
		error = est_error_set(EST_EINVAL, "orders of %s, item %d: %s: %s; check the file", who,
				      est_rules_int(json_array_get(diags, 0), "index", -1),
				      est_rules_str(json_array_get(diags, 0), "rule"),
				      est_rules_str(json_array_get(diags, 0), "message"));
	json_decref(diags);
	json_decref(moves);
	if (error < 0)
		return error;
	moves = json_object_get(json_object_get(state, "last"), "moves");
	if (json_array_size(moves) > 0 &&
	    (error = est_rules_event(events, json_pack("{s:O}", "moves", moves), "moves", "%s makes %zu move%s of "
				     "its throw of %d", who, json_array_size(moves), json_array_size(moves) == 1 ? "" : "s",
				     (int)(json_integer_value(json_array_get(json_object_get(state, "throw"), 0)) +
					   json_integer_value(json_array_get(json_object_get(state, "throw"), 1))))) < 0)
		return error;
	if ((target && (error = resolve_attack(state, events, rules, target)) < 0) ||
	    (error = cp_capture_towns(state, events, rules, orders)) < 0)
		return error;
	if ((error = end_mobilising(state, events, rules, who)) < 0)
		return error;
	if (est_rules_int(json_object_get(state, "immune"), who, 0) > 0)
		json_object_set_new(json_object_get(state, "immune"), who,
				    json_integer(est_rules_int(json_object_get(state, "immune"), who, 0) - 1));
	if ((error = cp_check_end(state, events, rules)) < 0 || strcmp(est_rules_str(state, "phase"), "over") == 0)
		return error;
	return next_player(state, events, dice);
}
