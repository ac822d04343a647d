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

static int check_province(const json_t *rules, const json_t *p, size_t i)
{
	char field[64];
	const json_t *n;
	size_t j;

	snprintf(field, sizeof(field), "field \"provinces[%zu]\"", i);
	if (!json_is_object(p) || !lg_str(p, "name") || !lg_str(p, "nation") ||
	    !is_string_array(json_object_get(p, "adjacent")) ||
	    (json_object_get(p, "ports") && !is_string_array(json_object_get(p, "ports"))))
		return bad("map.json", field, "needs \"name\" and \"nation\" (strings), \"adjacent\" (an array "
			   "of province names) and, if any, \"ports\" (an array of seas)");
	if (lg_province_data(rules, lg_str(p, "name")) != p)
		return bad("map.json", field, "repeats the name of an earlier province");
	json_array_foreach(json_object_get(p, "adjacent"), j, n) {
		const json_t *other = lg_province_data(rules, json_string_value(n));
		if (!other || !lg_adjacent(rules, json_string_value(n), lg_str(p, "name")))
			return est_error_set(EST_EINVAL, "rules/map.json: %s \"%s\" lists \"%s\", which is no "
					     "province of the map or does not list it back (adjacency goes both "
					     "ways); fix the data", field, lg_str(p, "name"), json_string_value(n));
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
		if (!lg_str(l, "id") || !lg_str(l, "name") || !json_is_integer(json_object_get(l, "tactical")) ||
		    json_integer_value(json_object_get(l, "tactical")) < -9 ||
		    json_integer_value(json_object_get(l, "tactical")) > 9)
			return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu]\" needs \"id\" "
					     "and \"name\" (strings) and \"tactical\" (an integer from -9 to 9); "
					     "fix the data", i);
	return 0;
}

/* A die table: "die" sides and one row per face, in order ("roll" 1..die). */
static int check_die_table(const json_t *rules, const char *name)
{
	const json_t *t = lg_table(rules, name), *rows = json_object_get(t, "results"), *row;
	int die = lg_int(t, "die", 0);
	char field[64];
	size_t i;

	snprintf(field, sizeof(field), "field \"%s\"", name);
	if (die < 2 || die > 100 || json_array_size(rows) != (size_t)die)
		return bad("tables.json", field, "needs \"die\" (2 to 100) and a \"results\" row per face");
	json_array_foreach(rows, i, row)
		if (lg_int(row, "roll", 0) != (int)i + 1 || !lg_str(row, "name"))
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
		const char *const *e;
		for (e = effects; *e && (!lg_str(row, "effect") || strcmp(*e, lg_str(row, "effect")) != 0); e++)
			;
		if (!*e)
			return bad("tables.json", "field \"auxiliary.results\"", "has an \"effect\" other than "
				   "none, eliminate, drm, enemy-drm");
	}
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
	if (lg_int(lg_table(rules, "bombard"), "die", 0) < 2 || lg_int(lg_table(rules, "siege"), "die", 0) < 2 ||
	    lg_int(lg_table(rules, "pursuit"), "die", 0) < 2 || lg_int(lg_table(rules, "attack"), "die", 0) < 2)
		return bad("tables.json", "field \"die\" of bombard, siege, pursuit or attack", "must be 2 or more");
	return 0;
}

/* What setup() reads of the scenario: seasons, sides and the armies' places. */
static int check_scenario(const json_t *rules)
{
	const json_t *s = lg_scenario(rules), *a;
	const json_t *seasons = json_object_get(s, "seasons"), *sides = json_object_get(s, "sides");
	size_t i;

	if (!lg_str(s, "name") || !is_string_array(seasons) || json_array_size(seasons) == 0 ||
	    !lg_str(json_object_get(s, "start"), "season") || !lg_str(json_object_get(s, "end"), "season") ||
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
	if (!lg_in_list(seasons, lg_str(json_object_get(s, "start"), "season")) ||
	    !lg_in_list(seasons, lg_str(json_object_get(s, "end"), "season")))
		return bad("scenario.json", "fields \"start.season\" and \"end.season\"", "must be seasons "
			   "of \"seasons\"");
	json_array_foreach(json_object_get(s, "armies"), i, a)
		if (lg_army(s, lg_str(a, "id")) != a)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" repeats the "
					     "id of an earlier army; give each army its own id", i);
	json_array_foreach(json_object_get(s, "armies"), i, a)
		if (!json_is_integer(json_object_get(a, "movement")) || !json_is_integer(json_object_get(a, "artillery")) ||
		    lg_int(a, "artillery", 0) < 0 || lg_int(a, "artillery", 0) > 50)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" needs "
					     "\"movement\" and \"artillery\" (0 to 50) as integers; fix the data", i);
	return 0;
}

int lg_check_rules(const json_t *rules)
{
	int error;

	if ((error = check_map(rules)) < 0 || (error = check_leaders(rules)) < 0 ||
	    (error = check_tables(rules)) < 0 || (error = check_scenario(rules)) < 0)
		return error;
	return 0;
}
