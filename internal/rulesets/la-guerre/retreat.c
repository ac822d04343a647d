/*
 * La Guerre de l'Empereur: retreats (5.616 The Retreat Option), pursuit
 * (5.629) and the retreat through enemy provinces (5.6291).
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

/* A province an army may end a retreat in: friendly, and no army there (RULINGS.md). */
static int haven(const json_t *state, const json_t *rules, const char *province, const char *side)
{
	return lg_friendly(state, rules, province, side) && !lg_army_at(state, rules, province, side) &&
	       !lg_army_at(state, rules, province, lg_other_side(side));
}

json_t *lg_retreat_options(const json_t *state, const json_t *rules, const json_t *army)
{
	const json_t *adjacent = json_object_get(lg_province_data(rules, est_rules_str(army, "location")), "adjacent");
	const char *side = lg_army_side(rules, army);
	json_t *out = json_array(), *p;
	size_t i;

	json_array_foreach(adjacent, i, p)
		if (haven(state, rules, json_string_value(p), side))
			json_array_append(out, p);
	return out;
}

/*
 * 5.6291 (placeholder reading, RULINGS.md): the shortest way through
 * provinces of the enemy side to the nearest haven; a new array of the
 * provinces entered, the haven last, or NULL when there is none.
 */
static json_t *way_through_enemy(const json_t *state, const json_t *rules, const json_t *army)
{
	const json_t *provinces = json_object_get(json_object_get(rules, "map"), "provinces");
	const char *side = lg_army_side(rules, army);
	json_t *came = json_object(), *queue = json_array(), *way = NULL;
	size_t head = 0;

	json_object_set_new(came, est_rules_str(army, "location"), json_string(""));
	json_array_append_new(queue, json_string(est_rules_str(army, "location")));
	while (head < json_array_size(queue) && !way) {
		const char *at = json_string_value(json_array_get(queue, head++));
		const json_t *next;
		size_t i;

		json_array_foreach(json_object_get(lg_province_data(rules, at), "adjacent"), i, next) {
			const char *n = json_string_value(next);
			if (json_object_get(came, n) || !lg_side_of(rules, lg_controller(state, n)))
				continue;
			json_object_set_new(came, n, json_string(at));
			if (haven(state, rules, n, side)) {
				way = json_array();
				for (const char *p = n; *p; p = est_rules_str(came, p))
					json_array_insert_new(way, 0, json_string(p));
				json_array_remove(way, 0);
				break;
			}
			if (lg_enemy(state, rules, n, side))
				json_array_append_new(queue, json_string(n));
		}
	}
	(void)provinces;
	json_decref(queue);
	json_decref(came);
	return way;
}

/* 5.6291: no adjacent friendly province; one division lost per enemy province crossed. */
static int retreat_through_enemy(json_t *state, json_t *events, const json_t *rules, json_t *army)
{
	json_t *way = way_through_enemy(state, rules, army);
	const char *from = est_rules_str(army, "location");
	char from_copy[128];
	int crossed, error;

	snprintf(from_copy, sizeof(from_copy), "%s", from);
	if (!way)
		return lg_remove_army(state, events, rules, army, "no way of retreat, even through enemy "
				      "provinces (5.6291)");
	crossed = (int)json_array_size(way) - 1;
	json_object_set(army, "location", json_array_get(way, json_array_size(way) - 1));
	error = est_rules_event(events, json_pack("{s:s, s:s, s:O}", "army", est_rules_str(army, "id"), "from", from_copy,
					   "way", way), "retreat",
			 "%s's army (%s) has no friendly province to retreat to from %s and retreats through "
			 "%d enemy province%s to %s (5.6291)", est_rules_str(army, "nation"),
			 lg_commander_name(rules, army), from_copy, crossed, crossed == 1 ? "" : "s",
			 est_rules_str(army, "location"));
	if (error == 0)
		error = lg_lose(NULL, state, events, rules, army, crossed *
				est_rules_int(lg_table(rules, "retreat_through_enemy"), "divisions_per_province", 1), 0,
				"the retreat through enemy provinces (5.6291)");
	json_decref(way);
	return error;
}

/* 5.629 Pursuit (placeholder table): the winner rolls; the retreating army loses divisions. */
static int pursue(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army,
		  const json_t *pursuer)
{
	const json_t *table = lg_table(rules, "pursuit");
	int roll, rating = lg_table_add(rules, table, pursuer), total, lost, error;

	if ((error = est_rules_roll(&roll, dice, est_rules_int(table, "die", 6), "%s 5.629: %s pursuit",
			     est_rules_str(pursuer, "location"), est_rules_str(pursuer, "nation"))) < 0)
		return error;
	total = roll + rating;
	lost = est_rules_int(lg_table_row(table, total), "divisions", 0);
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:i, s:i}", "nation", est_rules_str(pursuer, "nation"),
						"roll", roll, "total", total, "divisions", lost), "pursuit",
			      "5.629 pursuit: %s rolls %d + %d tactical = %d: %s loses %d division%s",
			      est_rules_str(pursuer, "nation"), roll, rating, total, est_rules_str(army, "nation"), lost,
			      lost == 1 ? "" : "s")) < 0)
		return error;
	return lg_lose(NULL, state, events, rules, army, lost, 0, "pursuit (5.629)");
}

int lg_retreat(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army,
	       const char *to, const json_t *pursuer)
{
	json_t *opts = lg_retreat_options(state, rules, army);
	char from[128], id[128];
	int error;

	snprintf(from, sizeof(from), "%s", est_rules_str(army, "location"));
	snprintf(id, sizeof(id), "%s", est_rules_str(army, "id"));
	/* No choice given: the first open province, or the way through enemy provinces. */
	if (!to && json_array_size(opts) > 0)
		to = est_rules_str(lg_province_data(rules, json_string_value(json_array_get(opts, 0))), "name");
	json_decref(opts);
	if (!to) {
		if ((error = retreat_through_enemy(state, events, rules, army)) < 0)
			return error;
	} else {
		json_object_set_new(army, "location", json_string(to));
		if ((error = est_rules_event(events, json_pack("{s:s, s:s, s:s}", "army", id, "from", from, "to", to),
				      "retreat", "%s's army (%s) retreats from %s to %s%s", est_rules_str(army, "nation"),
				      lg_commander_name(rules, army), from, to,
				      pursuer ? "" : ", before combat and so without pursuit (5.612 NOTE)")) < 0)
			return error;
	}
	/* The army may be gone (5.6291); only a surviving army is pursued. */
	if (!pursuer || !(army = lg_army(state, id)))
		return 0;
	return pursue(state, events, rules, dice, army, pursuer);
}
