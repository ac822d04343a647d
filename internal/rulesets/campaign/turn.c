/*
 * Campaign: the order of play (§9), and one player's turn — diplomacy (§8),
 * the declared attack (§10), the moves of the throw (§2, §3), the end of
 * the turn (attack, towns, Generals, mobilisation) and the next player's
 * throw.
 */
#include <stdio.h>
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

static int diplomacy(json_t *state, json_t *events, const json_t *o)
{
	const char *active = est_rules_str(state, "active"), *type = est_rules_str(o, "type");
	const char *with = est_rules_str(o, "with") ? est_rules_str(o, "with") : est_rules_str(o, "to"), *action = est_rules_str(o, "action");
	json_t *consent = json_object_get(state, "consent"), *list;

	if (strcmp(type, "consent") == 0) {
		if (!(list = json_object_get(consent, active))) {
			list = json_array();
			json_object_set_new(consent, active, list);
		}
		if (json_is_true(json_object_get(o, "withdraw"))) {
			for (size_t i = json_array_size(list); i-- > 0;)
				if (strcmp(json_string_value(json_array_get(list, i)), with) == 0)
					json_array_remove(list, i);
			return est_rules_event(events, NULL, "consent", "%s withdraws its consent for %s to cross into it",
					       active, with);
		}
		json_array_append_new(list, json_string(with));
		return est_rules_event(events, NULL, "consent", "%s lets its ally %s cross into its territory (§8)",
				       active, with);
	}
	if (strcmp(action, "propose") == 0) {
		json_array_append_new(json_object_get(state, "proposals"), json_pack("[s, s]", active, with));
		return est_rules_event(events, NULL, "alliance", "%s proposes an alliance to %s (§8)", active, with);
	}
	if (strcmp(action, "accept") == 0) {
		json_t *proposals = json_object_get(state, "proposals");
		for (size_t i = json_array_size(proposals); i-- > 0;) {
			const json_t *p = json_array_get(proposals, i);
			if (est_rules_in_list(p, active) && est_rules_in_list(p, with))
				json_array_remove(proposals, i);
		}
		json_array_append_new(json_object_get(state, "alliances"), json_pack("[s, s]", with, active));
		return est_rules_event(events, NULL, "alliance", "%s and %s are allies: the Alliance cards are "
				       "exchanged (§8)", with, active);
	}
	{
		json_t *alliances = json_object_get(state, "alliances");
		for (size_t i = json_array_size(alliances); i-- > 0;) {
			const json_t *p = json_array_get(alliances, i);
			if (est_rules_in_list(p, active) && est_rules_in_list(p, with))
				json_array_remove(alliances, i);
		}
		json_array_append_new(json_object_get(state, "broken"), json_pack("{s:s, s:s, s:I}", "by", active,
			"with", with, "turn", json_integer_value(json_object_get(state, "turn"))));
		/* Consent was given to an ally: it goes with the alliance, both ways. */
		for (int k = 0; k < 2; k++) {
			json_t *given = json_object_get(consent, k ? with : active);
			for (size_t i = json_array_size(given); i-- > 0;)
				if (strcmp(json_string_value(json_array_get(given, i)), k ? active : with) == 0)
					json_array_remove(given, i);
		}
		return est_rules_event(events, NULL, "alliance", "%s breaks its alliance with %s and takes back its "
				       "Alliance card; it may attack %s from its next turn (§8)", active, with, with);
	}
}

static int move(json_t *state, json_t *events, const json_t *rules, const json_t *o, json_t *moves)
{
	json_t *piece = cp_piece(state, est_rules_str(o, "piece"));
	const json_t *to = json_object_get(o, "to");
	const char *why;
	int x, y;

	if (!piece || !cp_sq(to, &x, &y))
		return est_error_set(EST_EINVAL, "orders: a move names no piece or square");
	if ((why = cp_step_refusal(state, rules, piece, x, y)))
		return est_error_set(EST_EINVAL, "orders: %s cannot move to [%d, %d]: %s", est_rules_str(piece, "id"), x, y, why);
	json_array_append_new(moves, json_pack("{s:O, s:O, s:O}", "piece", json_object_get(piece, "id"), "from",
					       json_object_get(piece, "square"), "to", to));
	json_object_set(piece, "square", (json_t *)to);
	(void)events;
	return 0;
}

/* §10: "A defeated piece is removed from the board at the end of the turn." */
static int resolve_attack(json_t *state, json_t *events, const json_t *rules, const char *target_id)
{
	const char *active = est_rules_str(state, "active");
	json_t *target = cp_piece(state, target_id), *pieces = json_object_get(state, "pieces");
	char *why = NULL;
	int taken, error;
	size_t i;

	if (!target)
		return 0;
	if ((error = cp_attack_outcome(&taken, &why, state, rules, active, target)) < 0)
		return error;
	json_object_set_new(json_object_get(state, "last"), "attack", json_pack("{s:s, s:b, s:s, s:O}", "target",
				target_id, "taken", taken, "why", why, "square", json_object_get(target, "square")));
	error = est_rules_event(events, json_pack("{s:s, s:b}", "target", target_id, "taken", taken), "attack",
				"%s attacks %s: %s: %s (§10%s)", active, target_id, why, taken ? "taken" : "it holds",
				strcmp(est_rules_str(state, "game"), "standard") == 0 ? ", §14" : "");
	free(why);
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

/* Whether (x, y) is one of `list`'s squares. */
static int among(const json_t *list, int x, int y)
{
	const json_t *sq;
	size_t i;
	int sx, sy;

	json_array_foreach(list, i, sq)
		if (cp_sq(sq, &sx, &sy) && sx == x && sy == y)
			return 1;
	return 0;
}

/*
 * §16: mobilisation is complete when the General stands on the Capital and,
 * for each kind, "all pieces are on the starting squares, or all possible
 * starting squares are occupied (supposing there are more than 4 ...)".
 */
static int mobilised(const json_t *state, const json_t *rules, const char *country)
{
	const json_t *start = json_object_get(json_object_get(cp_board(rules), "start"), country), *p;
	const char *kinds[] = {"infantry", "cavalry"};
	size_t i;
	int cx, cy, x, y;

	cp_capital(&cx, &cy, rules, country);
	for (int k = 0; k < 2; k++) {
		const json_t *squares = json_object_get(start, kinds[k]);
		int on = 0, all = 0;
		json_array_foreach(json_object_get(state, "pieces"), i, p) {
			if (strcmp(est_rules_str(p, "country"), country) != 0 || strcmp(est_rules_str(p, "kind"), kinds[k]) != 0)
				continue;
			all++;
			on += cp_sq(json_object_get(p, "square"), &x, &y) && among(squares, x, y);
		}
		if (on < all && on < (int)json_array_size(squares))
			return 0;
	}
	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (strcmp(est_rules_str(p, "country"), country) == 0 && strcmp(est_rules_str(p, "kind"), "general") == 0 &&
		    (!cp_sq(json_object_get(p, "square"), &x, &y) || x != cx || y != cy))
			return 0;
	return 1;
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
	json_t *moves = json_array();
	const json_t *o;
	size_t i;
	int error = 0;
	char who[32];

	snprintf(who, sizeof(who), "%s", active);
	json_object_set_new(state, "last", json_pack("{s:o, s:n}", "moves", moves, "attack"));
	json_array_foreach(orders, i, o) {
		const char *type = est_rules_str(o, "type");
		if (strcmp(type, "move") == 0)
			error = move(state, events, rules, o, moves);
		else if (strcmp(type, "attack") == 0)
			target = est_rules_str(o, "target");
		else if (strcmp(type, "alliance") == 0 || strcmp(type, "consent") == 0)
			error = diplomacy(state, events, o);
		if (error < 0)
			return error;
	}
	if (json_array_size(moves) > 0 &&
	    (error = est_rules_event(events, json_pack("{s:O}", "moves", moves), "moves", "%s makes %zu move%s of "
				     "its throw of %d", who, json_array_size(moves), json_array_size(moves) == 1 ? "" : "s",
				     (int)(json_integer_value(json_array_get(json_object_get(state, "throw"), 0)) +
					   json_integer_value(json_array_get(json_object_get(state, "throw"), 1))))) < 0)
		return error;
	if ((target && (error = resolve_attack(state, events, rules, target)) < 0) ||
	    (error = cp_capture_towns(state, events, rules, orders)) < 0)
		return error;
	if (json_is_true(json_object_get(json_object_get(state, "mobilising"), who)) && mobilised(state, rules, who)) {
		json_object_del(json_object_get(state, "mobilising"), who);
		if ((error = est_rules_event(events, NULL, "mobilised", "%s has mobilised in its Capital: its army "
					     "moves off at its next turn (§16)", who)) < 0)
			return error;
	}
	if (est_rules_int(json_object_get(state, "immune"), who, 0) > 0)
		json_object_set_new(json_object_get(state, "immune"), who,
				    json_integer(est_rules_int(json_object_get(state, "immune"), who, 0) - 1));
	if ((error = cp_check_end(state, events, rules)) < 0 || strcmp(est_rules_str(state, "phase"), "over") == 0)
		return error;
	return next_player(state, events, dice);
}
