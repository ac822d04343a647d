/*
 * Napoleonic Empire, TURN SEQUENCE: applying one turn order file (README.md
 * "Orders", RULINGS.md R17 for the order in which its items apply).
 */
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

static int items_of(const json_t *orders, const char *type, json_t **out)
{
	json_t *list = json_array(), *o;
	size_t i;

	if (!list)
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(orders, i, o) {
		const char *t = est_rules_str(o, "type");

		if (t && strcmp(t, type) == 0 && json_array_append(list, o) < 0) {
			json_decref(list);
			return est_error_set(EST_ENOMEM, "out of memory");
		}
	}
	*out = list;
	return 0;
}

/* Standing orders: each turn order file replaces its side's (RULINGS.md R18). */
static int set_standing(json_t *state, const char *side, const json_t *orders)
{
	json_t *retreats = json_object(), *plays = json_object(), *o;
	size_t i;

	json_array_foreach(orders, i, o) {
		const char *t = est_rules_str(o, "type");

		if (t && strcmp(t, "retreat") == 0)
			json_object_set_new(retreats, est_rules_str(o, "from"), json_string(est_rules_str(o, "to")));
		else if (t && strcmp(t, "standing-play") == 0)
			json_object_set_new(plays, est_rules_str(o, "country"), json_string(est_rules_str(o, "card")));
	}
	if (json_object_set_new(json_object_get(state, "standing"), side,
				json_pack("{s:o, s:o}", "retreats", retreats, "plays", plays)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/* DRAW PHASE: "Excess cards must be discarded face down into the discard pile." */
static int discard(json_t *state, json_t *events, const json_t *rules, const char *side,
		   const char *card)
{
	int error;

	if (ne_hand_index(state, side, card) < 0)
		return 0;
	if ((error = ne_play_from_hand(state, side, card)) < 0)
		return error;
	if ((error = est_rules_event(events, json_pack("{s:s}", "side", side), "discard",
			      "%s %s a card face down (hand limit)", side,
			      ne_verb(side, "discards", "discard"))) < 0)
		return error;
	return est_rules_event(events, json_pack("{s:s, s:s, s:[s]}", "side", side, "card", card,
					  "visible_to", side),
			"discard-card", "%s %s %s", side, ne_verb(side, "discards", "discard"),
			ne_card_name(rules, card));
}

static int set_true(json_t *obj, const char *key)
{
	if (json_object_set_new(obj, key, json_true()) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

static int event_card(json_t *state, json_t *events, const json_t *rules, const char *side,
		      const json_t *o, est_dice *hidden)
{
	const char *id = est_rules_str(o, "card");
	const json_t *card = ne_card(rules, id);
	const char *type = ne_effect_type(card);
	json_t *att = json_object_get(state, "attack");
	int error;

	if ((error = ne_play_from_hand(state, side, id)) < 0)
		return error;
	if ((error = est_rules_event(events, json_pack("{s:s, s:s}", "side", side, "card", id), "card",
			      "%s %s %s: %s", side, ne_verb(side, "plays", "play"), ne_card_name(rules, id),
			      est_rules_str(card, "notes"))) < 0)
		return error;
	if (strcmp(type, "draw") == 0)
		return ne_draw(state, events, rules, side, ne_effect_int(card, "cards"), hidden);
	if (strcmp(type, "continental-system") == 0)
		return set_true(state, "continental_system");
	if (strcmp(type, "no-move") == 0)
		return set_true(json_object_get(state, "no_move"),
				est_rules_str(json_object_get(card, "effect"), "target"));
	if (strcmp(type, "extra-turn") == 0)
		return set_true(att, "extra_turn");
	if (strcmp(type, "rebels") == 0)
		return 0; /* raises the number of "rebels" items allowed (RULINGS.md R15) */
	if (strcmp(type, "bonus-armies") == 0)
		return json_array_append_new(json_object_get(att, "bonus"),
					     json_pack("{s:s, s:s}", "card", id, "country",
						       est_rules_str(o, "country") ? est_rules_str(o, "country") : NE_FRANCE)) < 0
			? est_error_set(EST_ENOMEM, "out of memory") : 0;
	return est_error_set(EST_EINVAL, "rules/cards.json: card \"%s\" has unknown effect \"%s\"",
			     id, type);
}

static int plays(json_t *state, json_t *events, const json_t *rules, const char *side,
		 const json_t *orders, est_dice *hidden)
{
	json_t *own = json_object_get(json_object_get(json_object_get(state, "attack"), "plays"), side);
	json_t *o;
	size_t i;
	int error;

	json_array_foreach(orders, i, o) {
		const char *id = est_rules_str(o, "card");

		if (ne_hand_index(state, side, id) < 0)
			continue;
		if (!ne_card_is_battle(ne_card(rules, id))) {
			if ((error = event_card(state, events, rules, side, o, hidden)) < 0)
				return error;
		} else if (!json_object_get(own, est_rules_str(o, "country"))) {
			/* A battle card waits in the hand until its battle is fought. */
			if (json_object_set_new(own, est_rules_str(o, "country"), json_string(id)) < 0)
				return est_error_set(EST_ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* MOVE PHASE: "Armies may move from one country to any adjacent country." */
static int moves(json_t *state, json_t *events, const char *side, const json_t *orders)
{
	json_t *o;
	size_t i;
	int error;

	if (json_is_true(json_object_get(json_object_get(state, "no_move"), side)))
		return est_rules_event(events, json_pack("{s:s}", "side", side), "no-move",
				"%s may not move this turn", side);
	json_array_foreach(orders, i, o) {
		const char *from = est_rules_str(o, "from"), *to = est_rules_str(o, "to");
		json_int_t asked = json_integer_value(json_object_get(o, "armies"));
		int n = ne_armies(state, from, side);

		/*
		 * Compared as written, before any narrowing: a count above the
		 * armies present moves them all, as it always did; a count that
		 * is not positive moves none (4294967297 must not become 1).
		 */
		if (asked < n)
			n = asked <= 0 ? 0 : (int)asked;
		if (n <= 0)
			continue;
		if ((error = ne_set_armies(state, from, side, ne_armies(state, from, side) - n)) < 0 ||
		    (error = ne_set_armies(state, to, side, ne_armies(state, to, side) + n)) < 0 ||
		    (error = est_rules_event(events, json_pack("{s:s, s:s, s:s, s:i}", "side", side, "from", from,
							"to", to, "armies", n),
				      "move", "%s %s %d arm%s from %s to %s", side,
				      ne_verb(side, "moves", "move"), n, ne_ies(n), from, to)) < 0)
			return error;
	}
	return 0;
}

static int rebels(json_t *state, const json_t *orders)
{
	json_t *list = json_object_get(json_object_get(state, "attack"), "rebels"), *o;
	size_t i;

	json_array_foreach(orders, i, o) {
		if (json_array_append_new(list, json_string(est_rules_str(o, "country"))) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * The Attack Phase after the turn's moves: no battle ends the turn; a
 * battle with cards still to decide opens the battle-cards step; otherwise
 * the battles are fought now.
 */
static int attack_phase(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
			est_dice *hidden)
{
	json_t *asked;
	int error;

	if ((error = ne_attack_start(state, events, rules)) < 0)
		return error;
	if (json_array_size(json_object_get(json_object_get(state, "attack"), "battles")) == 0)
		return ne_run_battles(state, events, rules, dice, hidden);
	asked = ne_battle_cards_sides(state, rules);
	if (json_array_size(asked) == 0) {
		json_decref(asked);
		return ne_run_battles(state, events, rules, dice, hidden);
	}
	/* The step records whom it asks, so that the state alone says who is awaited. */
	if (json_object_set_new(json_object_get(state, "attack"), "asked", asked) < 0 ||
	    json_object_set_new(state, "phase", json_string("battle-cards")) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return ne_set_defaults(state, rules);
}

int ne_resolve_turn(json_t *state, json_t *events, const json_t *rules, const json_t *orders,
		    est_dice *dice, est_dice *hidden)
{
	const char *side = est_rules_str(state, "active");
	json_t *d = NULL, *p = NULL, *m = NULL, *r = NULL, *o;
	size_t i;
	int error;

	if (json_object_set_new(state, "attack",
				json_pack("{s:[], s:{s:{}, s:{}}, s:[], s:[], s:b}", "battles", "plays",
					  NE_FRANCE, NE_ALLIES, "rebels", "bonus", "extra_turn", 0)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = set_standing(state, side, orders)) < 0 ||
	    (error = items_of(orders, "discard", &d)) < 0 || (error = items_of(orders, "play", &p)) < 0 ||
	    (error = items_of(orders, "move", &m)) < 0 || (error = items_of(orders, "rebels", &r)) < 0)
		goto out;
	json_array_foreach(d, i, o) {
		if ((error = discard(state, events, rules, side, est_rules_str(o, "card"))) < 0)
			goto out;
	}
	if ((error = plays(state, events, rules, side, p, hidden)) < 0 ||
	    (error = moves(state, events, side, m)) < 0 ||
	    (error = ne_update_control(state, events, rules)) < 0)
		goto out;
	if (strcmp(side, NE_ALLIES) == 0 && !json_is_true(json_object_get(state, "extra")) &&
	    (error = rebels(state, r)) < 0)
		goto out;
	error = attack_phase(state, events, rules, dice, hidden);
out:
	json_decref(d);
	json_decref(p);
	json_decref(m);
	json_decref(r);
	return error;
}
