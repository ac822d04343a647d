/*
 * Napoleonic Empire: the orders a power is taken to have given when it
 * misses a step (README.md "Default orders"). They are computed when a step
 * opens and kept in state["defaults"], so that the state itself records
 * what a missing power will be taken to have ordered (the reports show it).
 */
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

/* Re-issue the side's standing orders so that missing a turn keeps them. */
static int standing_items(json_t *list, const json_t *state, const char *side)
{
	json_t *st = json_object_get(json_object_get(state, "standing"), side), *v;
	const char *country;

	json_object_foreach(json_object_get(st, "retreats"), country, v) {
		if (json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "type", "retreat", "from",
							  country, "to", json_string_value(v))) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_object_foreach(json_object_get(st, "plays"), country, v) {
		if (ne_hand_index(state, side, json_string_value(v)) >= 0 &&
		    json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "type", "standing-play", "card",
							  json_string_value(v), "country", country)) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

/* "Excess cards must be discarded": the oldest cards go (RULINGS.md R19). */
static int turn_defaults(json_t *list, const json_t *state, const json_t *rules, const char *side)
{
	json_t *hand = ne_hand(state, side);
	int limit = ne_setup_int(rules, "hand_limit", 7), excess = (int)json_array_size(hand) - limit;
	int i;

	for (i = 0; i < excess; i++) {
		if (json_array_append_new(list, json_pack("{s:s, s:O}", "type", "discard", "card",
							  json_array_get(hand, (size_t)i))) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return standing_items(list, state, side);
}

/* The defender's standing plays that fit a pending battle. */
static int battle_defaults(json_t *list, const json_t *state, const json_t *rules, const char *side)
{
	const json_t *att = json_object_get(state, "attack");
	json_t *st = json_object_get(json_object_get(json_object_get(state, "standing"), side), "plays");
	json_t *b;
	size_t i;

	json_array_foreach(json_object_get(att, "battles"), i, b) {
		const char *c = json_string_value(b), *id = est_rules_str(st, c);

		if (!id || ne_hand_index(state, side, id) < 0 ||
		    !ne_card_playable_by(ne_card(rules, id), side) || !ne_card_fits(ne_card(rules, id), c) ||
		    json_object_get(json_object_get(json_object_get(att, "plays"), side), c))
			continue;
		if (json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "type", "play", "card", id,
							  "country", c)) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

int ne_set_defaults(json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase"), *active = est_rules_str(state, "active");
	json_t *d = json_object(), *f = json_array(), *a = json_array();
	const json_t *r = json_object_get(state, "retreat");
	int error = 0;

	if (!d || !f || !a) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (strcmp(phase, "turn") == 0)
		error = turn_defaults(strcmp(active, NE_FRANCE) == 0 ? f : a, state, rules, active);
	else if (strcmp(phase, "battle-cards") == 0)
		error = battle_defaults(strcmp(active, NE_FRANCE) == 0 ? a : f, state, rules,
					ne_other(active));
	else if (strcmp(phase, "retreat") == 0)
		/* The first option is the default rule's choice (RULINGS.md R8). */
		error = json_array_append_new(strcmp(est_rules_str(r, "side"), NE_FRANCE) == 0 ? f : a,
					      json_pack("{s:s, s:s, s:O}", "type", "retreat", "from",
							est_rules_str(r, "from"), "to",
							json_array_get(json_object_get(r, "options"), 0)));
	if (error < 0)
		goto out;
	if (json_object_set(d, NE_FRANCE, f) < 0 || json_object_set(d, NE_ALLIES, a) < 0 ||
	    json_object_set(state, "defaults", d) < 0)
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(d);
	json_decref(f);
	json_decref(a);
	return error;
}
