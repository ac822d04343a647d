/*
 * Napoleonic Empire, REINFORCEMENTS PHASE, NATIONALIST MOVEMENTS and
 * VICTORY, then the hand-over to the next turn and its Draw Phase.
 */
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

static const json_t *rdata(const json_t *rules, const char *key)
{
	return json_object_get(json_object_get(rules, "reinforcements"), key);
}

/*
 * Place up to `n` armies of `side` in `country`, as many as its counters
 * off the map allow ("Each side has 80 counters"; RULINGS.md R11).
 */
static int place(json_t *state, json_t *events, const json_t *rules, const char *side,
		 const char *country, int n, const char *why)
{
	int left = ne_setup_int(rules, "counters", 80) - ne_on_map(state, side), error;
	int placed = n < left ? n : left;

	if (n <= 0)
		return 0;
	if (placed < 0)
		placed = 0;
	if ((error = ne_set_armies(state, country, side, ne_armies(state, country, side) + placed)) < 0)
		return error;
	if (placed < n)
		return est_rules_event(events, json_pack("{s:s, s:s, s:i, s:i}", "side", side, "country", country,
						  "armies", placed, "short", n - placed),
				"reinforcements", "%s %s %d of %d armies in %s (%s): no more of %s 80 "
				"counters are off the map", side, ne_verb(side, "places", "place"),
				placed, n, country, why, ne_verb(side, "its", "their"));
	return est_rules_event(events, json_pack("{s:s, s:s, s:i}", "side", side, "country", country,
					  "armies", placed),
			"reinforcements", "%s %s %d arm%s in %s (%s)", side,
			ne_verb(side, "places", "place"), placed,
			placed == 1 ? "y" : "ies", country, why);
}

/*
 * "place a number of your armies onto each country you control equal to
 * the Reinforcement value"; "France can never receive reinforcements from
 * Prussia, Russia, or Austria"; Continental System: France and England
 * give 2 fewer (RULINGS.md R14).
 */
int ne_reinforcement_value(const json_t *state, const json_t *rules, const char *side,
			   const char *c)
{
	int v = ne_table_value(rules, c);
	const json_t *cs = ne_card(rules, "continental-system");

	if (side && strcmp(side, NE_FRANCE) == 0 && est_rules_in_list(rdata(rules, "france_never_from"), c))
		return 0;
	if (json_is_true(json_object_get(state, "continental_system")) &&
	    est_rules_in_list(json_object_get(json_object_get(cs, "effect"), "countries"), c))
		v -= ne_effect_int(cs, "reduction");
	return v < 0 ? 0 : v;
}

/* RULINGS.md R15: where the 2 armies of Louisiana Purchase and Conscription go. */
static const char *bonus_country(const json_t *state, const json_t *rules, const char *named)
{
	const char *best = NULL;
	size_t i;

	if (named && ne_controller(state, named) && strcmp(ne_controller(state, named), NE_FRANCE) == 0 &&
	    !est_rules_in_list(rdata(rules, "france_never_from"), named))
		return named;
	if (ne_controller(state, NE_FRANCE) && strcmp(ne_controller(state, NE_FRANCE), NE_FRANCE) == 0)
		return NE_FRANCE;
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i), *ctl = ne_controller(state, c);

		if (!ctl || strcmp(ctl, NE_FRANCE) != 0 || est_rules_in_list(rdata(rules, "france_never_from"), c))
			continue;
		if (!best || ne_armies(state, c, NE_FRANCE) > ne_armies(state, best, NE_FRANCE) ||
		    (ne_armies(state, c, NE_FRANCE) == ne_armies(state, best, NE_FRANCE) &&
		     strcmp(c, best) < 0))
			best = c;
	}
	return best;
}

static int rebels_and_bonus(json_t *state, json_t *events, const json_t *rules, const char *side)
{
	json_t *att = json_object_get(state, "attack"), *v;
	int rebels = (int)json_integer_value(json_object_get(rdata(rules, "rebels"), "armies"));
	size_t i;
	int error;

	/* "the allies may place an additional 2 rebel armies ... even if France occupies the country" */
	json_array_foreach(json_object_get(att, "rebels"), i, v) {
		if (strcmp(side, NE_ALLIES) == 0 &&
		    (error = place(state, events, rules, NE_ALLIES, json_string_value(v), rebels,
				   "rebel armies")) < 0)
			return error;
	}
	json_array_foreach(json_object_get(att, "bonus"), i, v) {
		const char *card = est_rules_str(v, "card"), *c = bonus_country(state, rules, est_rules_str(v, "country"));
		if (!c) {
			if ((error = est_rules_event(events, NULL, "reinforcements",
					      "%s: France controls no country to place its 2 armies in",
					      ne_card_name(rules, card))) < 0)
				return error;
			continue;
		}
		if ((error = place(state, events, rules, NE_FRANCE, c,
				   ne_effect_int(ne_card(rules, card), "armies"),
				   ne_card_name(rules, card))) < 0)
			return error;
	}
	return 0;
}

int ne_reinforce(json_t *state, json_t *events, const json_t *rules)
{
	const char *side = est_rules_str(state, "active");
	size_t i;
	int error;

	if ((error = ne_update_control(state, events, rules)) < 0)
		return error;
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i), *ctl = ne_controller(state, c);

		if (!ctl || strcmp(ctl, side) != 0)
			continue;
		if ((error = place(state, events, rules, side, c, ne_reinforcement_value(state, rules, side, c),
				   "reinforcements")) < 0)
			return error;
	}
	if ((error = rebels_and_bonus(state, events, rules, side)) < 0)
		return error;
	return ne_update_control(state, events, rules);
}

static int win(json_t *state, json_t *events, const char *side, const char *why)
{
	if (json_object_set_new(state, "winner", json_string(side)) < 0 ||
	    json_object_set_new(state, "win_reason", json_string(why)) < 0 ||
	    json_object_set_new(state, "phase", json_string("over")) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return est_rules_event(events, json_pack("{s:s, s:s}", "winner", side, "reason", why), "victory",
			"%s %s: %s", side, ne_verb(side, "wins", "win"), why);
}

/*
 * VICTORY: "The Allies win if they control France at the end of their
 * turn. The French win if they control all continental countries at the
 * end of their turn." Continental: RULINGS.md R16.
 */
int ne_check_victory(json_t *state, json_t *events, const json_t *rules)
{
	const json_t *excluded = json_object_get(json_object_get(rules, "rulings"), "not_continental");
	const char *side = est_rules_str(state, "active"), *ctl;
	size_t i;

	if (strcmp(side, NE_ALLIES) == 0) {
		ctl = ne_controller(state, NE_FRANCE);
		if (ctl && strcmp(ctl, NE_ALLIES) == 0)
			return win(state, events, NE_ALLIES, "the Allies control France at the end of their turn");
		return 0;
	}
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i);

		ctl = ne_controller(state, c);
		if (!est_rules_in_list(excluded, c) && (!ctl || strcmp(ctl, NE_FRANCE) != 0))
			return 0;
	}
	return win(state, events, NE_FRANCE,
		   "France controls every continental country at the end of its turn");
}

/*
 * The end of a turn: Reinforcements Phase (none on an extra turn), victory,
 * then the next turn (the same side again for an extra turn) and its Draw
 * Phase.
 */
int ne_end_turn(json_t *state, json_t *events, const json_t *rules, est_dice *hidden)
{
	const char *side = est_rules_str(state, "active");
	int extra_next = json_is_true(json_object_get(json_object_get(state, "attack"), "extra_turn"));
	const char *next;
	int error;

	if (json_is_true(json_object_get(state, "extra")))
		error = est_rules_event(events, NULL, "reinforcements",
				 "%s %s no reinforcements: this was an extra turn", side,
				 ne_verb(side, "takes", "take"));
	else
		error = ne_reinforce(state, events, rules);
	if (error < 0 || (error = ne_check_victory(state, events, rules)) < 0)
		return error;
	if (json_object_get(state, "winner") && !json_is_null(json_object_get(state, "winner")))
		return ne_set_defaults(state, rules);
	/* Josephine / Treaty of Tilsit held this side for this one turn (RULINGS.md R13). */
	json_object_set_new(json_object_get(state, "no_move"), side, json_false());
	next = extra_next ? side : ne_other(side);
	if (json_object_set_new(state, "active", json_string(next)) < 0 ||
	    json_object_set_new(state, "extra", json_boolean(extra_next)) < 0 ||
	    json_object_set_new(state, "turn",
				json_integer(json_integer_value(json_object_get(state, "turn")) + 1)) < 0 ||
	    json_object_set_new(state, "attack", json_null()) < 0 ||
	    json_object_set_new(state, "phase", json_string("turn")) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	next = est_rules_str(state, "active");
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:b}", "side", next, "turn",
						(int)json_integer_value(json_object_get(state, "turn")),
						"extra", extra_next),
			      "turn", "Turn %d: %s%s", (int)json_integer_value(json_object_get(state, "turn")),
			      next, extra_next ? " (extra turn, without reinforcements)" : "")) < 0)
		return error;
	/* DRAW PHASE: "Draw 2 cards from the Deck." */
	if ((error = ne_draw(state, events, rules, next, ne_setup_int(rules, "draw", 2), hidden)) < 0)
		return error;
	return ne_set_defaults(state, rules);
}
