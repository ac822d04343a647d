/*
 * Napoleonic Empire: armies, control and the event log over the state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

const char *ne_verb(const char *side, const char *singular, const char *plural)
{
	return strcmp(side, NE_ALLIES) == 0 ? plural : singular;
}

const char *ne_ies(int n)
{
	return n == 1 ? "y" : "ies";
}

const char *ne_other(const char *side)
{
	return strcmp(side, NE_FRANCE) == 0 ? NE_ALLIES : NE_FRANCE;
}

int ne_side_index(const char *side)
{
	if (side && strcmp(side, NE_FRANCE) == 0)
		return 0;
	if (side && strcmp(side, NE_ALLIES) == 0)
		return 1;
	return -1;
}

static json_t *cstate(const json_t *state, const char *country)
{
	return json_object_get(json_object_get(state, "countries"), country);
}

int ne_armies(const json_t *state, const char *country, const char *side)
{
	return (int)json_integer_value(json_object_get(cstate(state, country), side));
}

int ne_set_armies(json_t *state, const char *country, const char *side, int n)
{
	json_t *c = cstate(state, country);

	if (!c)
		return est_error_set(EST_ERROR, "state.json: no country \"%s\"", country);
	if (json_object_set_new(c, side, json_integer(n < 0 ? 0 : n)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

const char *ne_controller(const json_t *state, const char *country)
{
	return est_rules_str(cstate(state, country), "control");
}

int ne_set_controller(json_t *state, const char *country, const char *side)
{
	json_t *c = cstate(state, country);

	if (!c)
		return est_error_set(EST_ERROR, "state.json: no country \"%s\"", country);
	if (json_object_set_new(c, "control", side ? json_string(side) : json_null()) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

int ne_on_map(const json_t *state, const char *side)
{
	const char *name;
	json_t *c;
	int n = 0;

	json_object_foreach((json_t *)json_object_get(state, "countries"), name, c)
		n += (int)json_integer_value(json_object_get(c, side));
	return n;
}

int ne_contested(const json_t *state, const char *country)
{
	return ne_armies(state, country, NE_FRANCE) > 0 && ne_armies(state, country, NE_ALLIES) > 0;
}

static int control_event(json_t *events, const char *country, const char *now, const char *was)
{
	if (!now)
		return est_rules_event(events, json_pack("{s:s, s:n}", "country", country, "controller"), "control",
				"%s is empty: %s %s no longer (control lapses, RULINGS.md R5a)", country, was,
				ne_verb(was, "controls it", "control it"));
	return est_rules_event(events, json_pack("{s:s, s:s}", "country", country, "controller", now),
			"control", "%s now %s %s", now, ne_verb(now, "controls", "control"), country);
}

/*
 * "If you have one or more armies in a country, and your opponent has
 * none, you control it." RULINGS.md R5: control persists until the other
 * side holds the country alone; with the option control=lapses (R5a) an
 * empty country is nobody's. Brought up to date after moves, after each
 * battle and in the Reinforcements Phase.
 */
int ne_update_control(json_t *state, json_t *events, const json_t *rules)
{
	int lapses = json_is_true(json_object_get(state, "control_lapses"));
	size_t i, n = ne_country_count(rules);
	int error;

	for (i = 0; i < n; i++) {
		const char *c = ne_country_name(rules, i), *was = ne_controller(state, c);
		int f = ne_armies(state, c, NE_FRANCE), a = ne_armies(state, c, NE_ALLIES);
		const char *now = was;

		if (f > 0 && a == 0)
			now = NE_FRANCE;
		else if (a > 0 && f == 0)
			now = NE_ALLIES;
		else if (lapses && f == 0 && a == 0)
			now = NULL;
		if (now == was || (was && now && strcmp(now, was) == 0))
			continue;
		/* The event first: `was` points into the entry the new controller replaces. */
		if ((error = control_event(events, c, now, was)) < 0 ||
		    (error = ne_set_controller(state, c, now)) < 0)
			return error;
	}
	return 0;
}

json_t *ne_hand(const json_t *state, const char *side)
{
	return json_object_get(json_object_get(state, "hands"), side);
}

int ne_hand_index(const json_t *state, const char *side, const char *card)
{
	size_t i;
	json_t *v;

	json_array_foreach(ne_hand(state, side), i, v) {
		if (card && strcmp(json_string_value(v), card) == 0)
			return (int)i;
	}
	return -1;
}
