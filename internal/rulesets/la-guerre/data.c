/*
 * La Guerre de l'Empereur: the rules data checked once, when `new` sets a
 * game up. A GM may bring their own files (`new --rules DIR`); whatever the
 * rules code later reads without a second look (names, links, table rows,
 * numbers) is checked here, so a bad file is refused with the file, the
 * field and the fix, and never reaches a run.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lg_internal.h"

/* The place of `name` in the array of strings `list`, or -1. */
static long season_at(const json_t *list, const char *name)
{
	const json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (name && strcmp(json_string_value(v), name) == 0)
			return (long)i;
	return -1;
}

static int bad(const char *file, const char *field, const char *fix)
{
	return est_error_set(EST_EINVAL, "rules/%s: %s %s; fix the data", file, field, fix);
}

static int is_string_array(const json_t *a)
{
	const json_t *v;
	size_t i;

	if (!json_is_array(a))
		return 0;
	json_array_foreach(a, i, v)
		if (!json_is_string(v))
			return 0;
	return 1;
}

static int check_files(const json_t *rules)
{
	static const char *const files[] = {"map", "leaders", "tables", "scenario", NULL};
	char name[32];
	int error;

	for (const char *const *f = files; *f; f++) {
		const json_t *data = json_object_get(rules, *f);
		snprintf(name, sizeof(name), "%s.json", *f);
		if (!json_is_object(data))
			return est_error_set(EST_EINVAL, "rules: La Guerre de l'Empereur needs %s; restore it", name);
		if (!est_rules_str(data, "provenance"))
			return bad(name, "field \"provenance\"", "must say where the values come from: \"seed\", "
				   "\"placeholder\", or the source a GM used");
		if ((error = est_rules_check_data(data, name)) < 0)
			return error;
	}
	return 0;
}

static int check_province(const json_t *rules, const json_t *p, size_t i)
{
	char field[64];
	const json_t *n;
	size_t j;

	snprintf(field, sizeof(field), "field \"provinces[%zu]\"", i);
	if (!json_is_object(p) || !est_rules_str(p, "name") || !est_rules_str(p, "nation") ||
	    !is_string_array(json_object_get(p, "adjacent")) ||
	    (json_object_get(p, "ports") && !is_string_array(json_object_get(p, "ports"))))
		return bad("map.json", field, "needs \"name\" and \"nation\" (strings), \"adjacent\" (an array "
			   "of province names) and, if any, \"ports\" (an array of seas)");
	if (lg_province_data(rules, est_rules_str(p, "name")) != p)
		return bad("map.json", field, "repeats the name of an earlier province");
	if (!est_rules_str(p, "terrain") || strcmp(est_rules_str(p, "terrain"), "provenance") == 0 ||
	    est_rules_int(lg_table(rules, "movement"), est_rules_str(p, "terrain"), 0) < 1)
		return bad("map.json", field, "needs a \"terrain\" that tables.json \"movement\" prices at 1 "
			   "Movement Point or more (\"clear\", \"mountain\")");
	if (!json_is_integer(json_object_get(p, "x")) || !json_is_integer(json_object_get(p, "y")) ||
	    est_rules_int(p, "x", -1) < 0 || est_rules_int(p, "x", -1) > 1000 || est_rules_int(p, "y", -1) < 0 || est_rules_int(p, "y", -1) > 800)
		return bad("map.json", field, "needs \"x\" (0 to 1000) and \"y\" (0 to 800), where the map "
			   "draws it");
	if (lg_adjacent(rules, est_rules_str(p, "name"), est_rules_str(p, "name")))
		return bad("map.json", field, "lists itself as adjacent");
	json_array_foreach(json_object_get(p, "adjacent"), j, n) {
		const json_t *other = lg_province_data(rules, json_string_value(n));
		if (!other || !lg_adjacent(rules, json_string_value(n), est_rules_str(p, "name")))
			return est_error_set(EST_EINVAL, "rules/map.json: %s \"%s\" lists \"%s\", which is no "
					     "province of the map or does not list it back (adjacency goes both "
					     "ways); fix the data", field, est_rules_str(p, "name"), json_string_value(n));
	}
	return 0;
}

static int check_map(const json_t *rules)
{
	const json_t *provinces = json_object_get(json_object_get(rules, "map"), "provinces"), *p;
	size_t i;
	int error;

	if (!json_is_array(provinces) || json_array_size(provinces) == 0)
		return bad("map.json", "field \"provinces\"", "must be a non-empty array");
	json_array_foreach(provinces, i, p)
		if ((error = check_province(rules, p, i)) < 0)
			return error;
	return 0;
}

static int check_leaders(const json_t *rules)
{
	const json_t *leaders = json_object_get(json_object_get(rules, "leaders"), "leaders"), *l;
	size_t i;

	if (!json_is_array(leaders))
		return bad("leaders.json", "field \"leaders\"", "must be an array");
	json_array_foreach(leaders, i, l)
		if (!est_rules_str(l, "id") || !est_rules_str(l, "name") || !json_is_integer(json_object_get(l, "tactical")) ||
		    json_integer_value(json_object_get(l, "tactical")) < -9 ||
		    json_integer_value(json_object_get(l, "tactical")) > 9)
			return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu]\" needs \"id\" "
					     "and \"name\" (strings) and \"tactical\" (an integer from -9 to 9); "
					     "fix the data", i);
		else if (lg_leader(rules, est_rules_str(l, "id")) != l)
			return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu]\" repeats the id "
					     "\"%s\"; give each leader its own id", i, est_rules_str(l, "id"));
	return 0;
}

/* A die table: "die" sides and one row per face, in order ("roll" 1..die). */
static int check_die_table(const json_t *rules, const char *name)
{
	const json_t *t = lg_table(rules, name), *rows = json_object_get(t, "results"), *row;
	int die = est_rules_int(t, "die", 0);
	char field[64];
	size_t i;

	snprintf(field, sizeof(field), "field \"%s\"", name);
	if (die < 2 || die > 100 || json_array_size(rows) != (size_t)die)
		return bad("tables.json", field, "needs \"die\" (2 to 100) and a \"results\" row per face");
	json_array_foreach(rows, i, row)
		if (est_rules_int(row, "roll", 0) != (int)i + 1 || !est_rules_str(row, "name"))
			return bad("tables.json", field, "lists its results in roll order 1..die, each with a "
				   "\"name\"");
	return 0;
}

static int check_auxiliary(const json_t *rules)
{
	static const char *const effects[] = {"none", "eliminate", "drm", "enemy-drm", NULL};
	const json_t *row;
	size_t i;
	int error;

	if ((error = check_die_table(rules, "auxiliary")) < 0)
		return error;
	json_array_foreach(json_object_get(lg_table(rules, "auxiliary"), "results"), i, row) {
		if (!est_rules_listed(effects, est_rules_str(row, "effect")))
			return bad("tables.json", "field \"auxiliary.results\"", "has an \"effect\" other than "
				   "none, eliminate, drm, enemy-drm");
	}
	return 0;
}

/* The pursuit rows: {"min", "max", "divisions"}, min <= max, divisions 0 or more. */
static int check_pursuit(const json_t *rules)
{
	const json_t *row;
	size_t i;

	json_array_foreach(json_object_get(lg_table(rules, "pursuit"), "results"), i, row)
		if (!json_is_integer(json_object_get(row, "min")) || !json_is_integer(json_object_get(row, "max")) ||
		    est_rules_int(row, "min", 0) > est_rules_int(row, "max", 0) || est_rules_int(row, "divisions", -1) < 0)
			return est_error_set(EST_EINVAL, "rules/tables.json: field \"pursuit.results[%zu]\" needs "
					     "\"min\" <= \"max\" and \"divisions\" (0 or more); fix the data", i);
	return 0;
}

static int check_tables(const json_t *rules)
{
	static const char *const needed[] = {"approach", "auxiliary", "attack", "victory_points", "pursuit",
					     "retreat_through_enemy", "bombard", "siege", "movement", NULL};
	int error;

	for (const char *const *n = needed; *n; n++)
		if (!json_is_object(lg_table(rules, *n)))
			return est_error_set(EST_EINVAL, "rules/tables.json: no table \"%s\"; the rules need "
					     "approach, auxiliary, attack, victory_points, pursuit, "
					     "retreat_through_enemy, bombard, siege and movement; fix the data", *n);
	if ((error = check_die_table(rules, "approach")) < 0 || (error = check_auxiliary(rules)) < 0)
		return error;
	if (est_rules_int(lg_table(rules, "bombard"), "die", 0) < 2 || est_rules_int(lg_table(rules, "siege"), "die", 0) < 2 ||
	    est_rules_int(lg_table(rules, "pursuit"), "die", 0) < 2 || est_rules_int(lg_table(rules, "attack"), "die", 0) < 2)
		return bad("tables.json", "field \"die\" of bombard, siege, pursuit or attack", "must be 2 or more");
	if (est_rules_int(lg_table(rules, "attack"), "loser_losses_min", 1) < 0 ||
	    est_rules_int(lg_table(rules, "attack"), "loser_losses_min", 1) > est_rules_int(lg_table(rules, "attack"), "loser_losses_max", 4))
		return bad("tables.json", "fields \"attack.loser_losses_min\" and \"loser_losses_max\"",
			   "must be 0 <= min <= max");
	if (est_rules_int(lg_table(rules, "bombard"), "hit_on", 10) < 1 ||
	    est_rules_int(lg_table(rules, "bombard"), "hit_on", 10) > est_rules_int(lg_table(rules, "bombard"), "die", 10))
		return bad("tables.json", "field \"bombard.hit_on\"", "must be a face of the bombardment die");
	if (est_rules_int(lg_table(rules, "siege"), "falls_on", 4) < 1)
		return bad("tables.json", "field \"siege.falls_on\"", "must be 1 or more");
	return check_pursuit(rules);
}

/* What setup() reads of the scenario: seasons, sides and the armies' places. */
static int check_scenario(const json_t *rules)
{
	const json_t *s = lg_scenario(rules), *a;
	const json_t *seasons = json_object_get(s, "seasons"), *sides = json_object_get(s, "sides");
	size_t i;

	if (!est_rules_str(s, "name") || !is_string_array(seasons) || json_array_size(seasons) == 0 ||
	    !est_rules_str(json_object_get(s, "start"), "season") || !est_rules_str(json_object_get(s, "end"), "season") ||
	    !json_is_integer(json_object_get(json_object_get(s, "start"), "year")) ||
	    !is_string_array(json_object_get(sides, LG_FRANCE)) ||
	    !is_string_array(json_object_get(sides, LG_COALITION)))
		return bad("scenario.json", "fields \"name\", \"seasons\", \"start\", \"end\", \"sides\"",
			   "are needed: a name, the seasons in order, {year, season} for the start and end, "
			   "and the nations of each side (\"France\", \"Coalition\")");
	if (!is_string_array(json_object_get(json_object_get(s, "embargo"), "members")) ||
	    !is_string_array(json_object_get(json_object_get(s, "embargo"), "requires_control")) ||
	    !is_string_array(json_object_get(json_object_get(s, "embargo"), "seas")))
		return bad("scenario.json", "field \"embargo\"", "needs \"members\", \"requires_control\" "
			   "and \"seas\" as arrays of names (4.241)");
	if (!est_rules_in_list(seasons, est_rules_str(json_object_get(s, "start"), "season")) ||
	    !est_rules_in_list(seasons, est_rules_str(json_object_get(s, "end"), "season")))
		return bad("scenario.json", "fields \"start.season\" and \"end.season\"", "must be seasons "
			   "of \"seasons\"");
	json_array_foreach(json_object_get(s, "armies"), i, a)
		if (lg_army(s, est_rules_str(a, "id")) != a)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" repeats the "
					     "id of an earlier army; give each army its own id", i);
	json_array_foreach(json_object_get(s, "armies"), i, a)
		if (!json_is_integer(json_object_get(a, "movement")) || !json_is_integer(json_object_get(a, "artillery")) ||
		    est_rules_int(a, "artillery", 0) < 0 || est_rules_int(a, "artillery", 0) > 50)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" needs "
					     "\"movement\" and \"artillery\" (0 to 50) as integers; fix the data", i);
	return 0;
}

/* A nation stands on one side, or is neutral: never two of these. */
static int check_sides(const json_t *rules)
{
	const json_t *s = lg_scenario(rules), *sides = json_object_get(s, "sides"), *n;
	size_t i;

	if (!is_string_array(json_object_get(s, "neutral")))
		return bad("scenario.json", "field \"neutral\"", "must be an array of nations");
	json_array_foreach(json_object_get(sides, LG_FRANCE), i, n)
		if (est_rules_in_list(json_object_get(sides, LG_COALITION), json_string_value(n)) ||
		    est_rules_in_list(json_object_get(s, "neutral"), json_string_value(n)))
			return est_error_set(EST_EINVAL, "rules/scenario.json: \"%s\" stands on France's side and "
					     "also on the Coalition's or among the neutrals; give each nation one "
					     "place; fix the data", json_string_value(n));
	json_array_foreach(json_object_get(sides, LG_COALITION), i, n)
		if (est_rules_in_list(json_object_get(s, "neutral"), json_string_value(n)))
			return est_error_set(EST_EINVAL, "rules/scenario.json: \"%s\" is in the Coalition and "
					     "among the neutrals; fix the data", json_string_value(n));
	return 0;
}

/* Army ids are spelt in orders and reports: a-z, 0-9 and - only. */
static int id_ok(const char *id)
{
	if (!id || !*id || strlen(id) > 40)
		return 0;
	for (; *id; id++)
		if (!((*id >= 'a' && *id <= 'z') || (*id >= '0' && *id <= '9') || *id == '-'))
			return 0;
	return 1;
}

/* Armies start on the map at war, with ids orders can spell and sane Movement Points. */
static int check_army_places(const json_t *rules)
{
	const json_t *s = lg_scenario(rules), *a;
	size_t i;

	json_array_foreach(json_object_get(s, "armies"), i, a) {
		const char *where = est_rules_str(a, "location");
		const char *c = est_rules_str(json_object_get(s, "control"), where ? where : "");
		const char *side = lg_side_of(rules, c ? c : est_rules_str(lg_province_data(rules, where), "nation"));
		if (!lg_province_data(rules, where))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu].location\" is not "
					     "a province of rules/map.json; fix the data", i);
		/* An army may start in a province of the enemy (Mack in Bavaria), never a neutral one. */
		if (!id_ok(est_rules_str(a, "id")) || est_rules_int(a, "movement", -1) < 0 || est_rules_int(a, "movement", -1) > 20 ||
		    !side || !lg_side_of(rules, est_rules_str(a, "nation")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" needs an "
					     "\"id\" of a-z, 0-9 and - (40 at most), \"movement\" from 0 to 20, a "
					     "\"nation\" of a side, and a \"location\" that is not neutral at the "
					     "start; fix the data", i);
	}
	return 0;
}

static int check_garrisons(const json_t *rules)
{
	const char *name;
	const json_t *g;

	json_object_foreach(json_object_get(lg_scenario(rules), "garrisons"), name, g)
		if (!lg_province_data(rules, name) || est_rules_int(g, "divisions", 0) < 0 || est_rules_int(g, "divisions", 0) > 50 ||
		    est_rules_int(g, "ghost", 0) < 0 || est_rules_int(g, "ghost", 0) > 50)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"garrisons.%s\" must name a "
					     "province of the map, with 0 to 50 \"divisions\" and \"ghost\"; fix "
					     "the data", name);
	json_object_foreach(json_object_get(lg_scenario(rules), "control"), name, g)
		if (!lg_province_data(rules, name) || !json_is_string(g))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"control.%s\" must name a "
					     "province of the map and give its controller's name; fix the data", name);
	return 0;
}

/* The end comes after the start; the NMR answers are options their steps take. */
static int check_calendar_and_policy(const json_t *rules)
{
	static const char *const statuses[] = {"war", "alliance", "peace", "inactive", NULL};
	const json_t *s = lg_scenario(rules), *seasons = json_object_get(s, "seasons"), *d;
	const json_t *start = json_object_get(s, "start"), *end = json_object_get(s, "end"), *nmr;
	const char *nation;
	int from = est_rules_int(start, "year", 0) * 10 + (int)season_at(seasons, est_rules_str(start, "season"));
	int to = est_rules_int(end, "year", 0) * 10 + (int)season_at(seasons, est_rules_str(end, "season"));

	if (json_array_size(seasons) > 10 || to < from)
		return bad("scenario.json", "fields \"start\" and \"end\"", "must put the end at or after the "
			   "start (and \"seasons\" holds at most 10)");
	json_object_foreach(json_object_get(s, "diplomacy"), nation, d) {
		if (!est_rules_listed(statuses, est_rules_str(d, "status")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"diplomacy.%s.status\" must "
					     "be war, alliance, peace or inactive; fix the data", nation);
	}
	nmr = json_object_get(s, "nmr");
	for (int step = 4; step <= 6; step++) {
		char kind[32];
		const char *o;
		snprintf(kind, sizeof(kind), "battle-step-%d", step);
		o = est_rules_str(nmr, kind);
		if (!o || (strcmp(o, "attack") != 0 && strcmp(o, "retreat") != 0 &&
			   (step == 6 || (strcmp(o, "auxiliary") != 0 && strcmp(o, "bombard") != 0))))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"nmr.%s\" must be an option "
					     "of that step (%s), the answer a missed decision takes; fix the data",
					     kind, step == 6 ? "attack or retreat" : "attack, retreat, auxiliary or bombard");
	}
	return 0;
}

int lg_check_rules(const json_t *rules)
{
	int error;

	if ((error = check_files(rules)) < 0 || (error = check_map(rules)) < 0 || (error = check_leaders(rules)) < 0 ||
	    (error = check_tables(rules)) < 0 || (error = check_scenario(rules)) < 0 ||
	    (error = check_sides(rules)) < 0 || (error = check_army_places(rules)) < 0 ||
	    (error = check_garrisons(rules)) < 0 || (error = check_calendar_and_policy(rules)) < 0)
		return error;
	return 0;
}
