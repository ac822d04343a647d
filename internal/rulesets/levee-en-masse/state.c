/*
 * Levée en Masse: look-ups in the rules data and the state, the Political
 * track and logged dice.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

static const char *const markers[] = {"Republic", "Monarchy", "Despotism", NULL};

int lem_option(const json_t *state, const char *name)
{
	return json_is_true(json_object_get(json_object_get(state, "options"), name));
}

const json_t *lem_table(const json_t *rules, const char *name)
{
	return json_object_get(json_object_get(rules, "tables"), name);
}

const json_t *lem_card(const json_t *rules, const char *id)
{
	return est_rules_find(json_object_get(json_object_get(rules, "cards"), "cards"), "id", id);
}

const json_t *lem_track(const json_t *rules, const char *name)
{
	return est_rules_find(json_object_get(json_object_get(rules, "tracks"), "tracks"), "name", name);
}

int lem_track_length(const json_t *rules, const char *track)
{
	return (int)json_array_size(json_object_get(lem_track(rules, track), "boxes"));
}

static const json_t *box_data(const json_t *rules, const char *track, int box)
{
	const json_t *b;
	size_t i;

	json_array_foreach(json_object_get(lem_track(rules, track), "boxes"), i, b)
		if (est_rules_int(b, "box", -1) == box)
			return b;
	return NULL;
}

int lem_square(const json_t *rules, const char *track, int box)
{
	return json_is_true(json_object_get(box_data(rules, track, box), "square"));
}

const char *lem_box_name(const json_t *rules, const char *track, int box)
{
	const char *name = est_rules_str(box_data(rules, track, box), "name");

	return box == 0 ? "Paris" : name ? name : "?";
}

json_t *lem_army(const json_t *state, const char *id)
{
	return est_rules_find(json_object_get(state, "armies"), "id", id);
}

const char *lem_army_name(const json_t *rules, const char *id)
{
	const char *name = est_rules_str(est_rules_find(json_object_get(json_object_get(rules, "armies"), "armies"), "id", id),
				   "name");

	return name ? name : id;
}

int lem_on_map(const json_t *army)
{
	return json_is_integer(json_object_get(army, "box"));
}

const char *lem_highest(const json_t *state)
{
	const json_t *p = json_object_get(state, "political");
	const char *best = NULL;
	int top = -100, ties = 0;

	for (const char *const *m = markers; *m; m++) {
		int v = est_rules_int(p, *m, 0);
		if (v > top) {
			top = v;
			best = *m;
			ties = 0;
		} else if (v == top) {
			ties++;
		}
	}
	return ties ? NULL : best;
}

int lem_shift(json_t *state, json_t *events, const json_t *rules, const char *marker, int delta,
	      const char *why)
{
	const json_t *range = lem_table(rules, "political_range");
	json_t *p = json_object_get(state, "political");
	int before = est_rules_int(p, marker, 0), after = before + delta;

	if (after > est_rules_int(range, "max", 4))
		after = est_rules_int(range, "max", 4);
	if (after < est_rules_int(range, "min", -1))
		after = est_rules_int(range, "min", -1);
	if (after == before)
		return est_rules_event(events, json_pack("{s:s, s:i}", "marker", marker, "value", after), "political",
				       "%s stays at %+d (%s: the track ends there)", marker, after, why);
	json_object_set_new(p, marker, json_integer(after));
	return est_rules_event(events, json_pack("{s:s, s:i, s:i}", "marker", marker, "from", before, "value", after),
			       "political", "%s %+d to %+d (%s)", marker, delta, after, why);
}

const char *lem_deck_color(const json_t *state, const json_t *rules)
{
	return est_rules_str(lem_card(rules, est_rules_str(state, "current")), "deck");
}

