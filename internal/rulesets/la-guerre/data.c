/*
 * La Guerre de l'Empereur: the rules data checked once, when `new` sets a
 * game up. A GM may bring their own files (`new --rules DIR`); whatever the
 * rules code later reads without a second look (names, links, table rows,
 * numbers) is checked here, so a bad file is refused with the file, the
 * field and the fix, and never reaches a run.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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
	return est_error_set(EST_EINVAL, "rules/%s: %s %s", file, field, fix);
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
			return bad(name, "field \"provenance\"", "is missing; add it, saying where the values come "
				   "from: \"seed\", \"placeholder\", or the source a GM used");
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
			   "of province names) and, if any, \"ports\" (an array of seas); add what is missing");
	if (lg_province_data(rules, est_rules_str(p, "name")) != p)
		return bad("map.json", field, "repeats the name of an earlier province; give each province "
			   "its own name");
	if (!est_rules_str(p, "terrain") || strcmp(est_rules_str(p, "terrain"), "provenance") == 0 ||
	    est_rules_int(lg_table(rules, "movement"), est_rules_str(p, "terrain"), 0) < 1)
		return bad("map.json", field, "needs a \"terrain\" that tables.json \"movement\" prices at 1 "
			   "Movement Point or more (\"clear\", \"mountain\"); use one, or price the terrain in "
			   "\"movement\"");
	if (!json_is_integer(json_object_get(p, "x")) || !json_is_integer(json_object_get(p, "y")) ||
	    est_rules_int(p, "x", -1) < 0 || est_rules_int(p, "x", -1) > 1000 || est_rules_int(p, "y", -1) < 0 || est_rules_int(p, "y", -1) > 800)
		return bad("map.json", field, "needs \"x\" (0 to 1000) and \"y\" (0 to 800), where the map "
			   "draws it; write both as whole numbers");
	if (lg_adjacent(rules, est_rules_str(p, "name"), est_rules_str(p, "name")))
		return bad("map.json", field, "lists itself as adjacent; remove its own name from "
			   "\"adjacent\"");
	json_array_foreach(json_object_get(p, "adjacent"), j, n) {
		const json_t *other = lg_province_data(rules, json_string_value(n));
		if (!other || !lg_adjacent(rules, json_string_value(n), est_rules_str(p, "name")))
			return est_error_set(EST_EINVAL, "rules/map.json: %s \"%s\" lists \"%s\", which is no "
					     "province of the map or does not list it back (adjacency goes both "
					     "ways); spell a province of the map, listed in both provinces' "
					     "\"adjacent\"", field, est_rules_str(p, "name"), json_string_value(n));
	}
	return 0;
}

static int check_map(const json_t *rules)
{
	const json_t *provinces = json_object_get(json_object_get(rules, "map"), "provinces"), *p;
	size_t i;
	int error;

	if (!json_is_array(provinces) || json_array_size(provinces) == 0)
		return bad("map.json", "field \"provinces\"", "must be a non-empty array; list the provinces");
	json_array_foreach(provinces, i, p)
		if ((error = check_province(rules, p, i)) < 0)
			return error;
	return 0;
}

/* leaders.json: {"id", "name", "tactical"} and, if any, "nation", "list", "note"; nothing else. */
static int check_leaders(const json_t *rules)
{
	static const char *const fields[] = {"id", "name", "nation", "tactical", "list", "note", NULL};
	const json_t *leaders = json_object_get(json_object_get(rules, "leaders"), "leaders"), *l;
	const char *key;
	const json_t *v;
	size_t i;

	if (!json_is_array(leaders))
		return bad("leaders.json", "field \"leaders\"", "must be an array of leaders");
	json_array_foreach(leaders, i, l) {
		json_object_foreach((json_t *)l, key, v)
			if (!est_rules_listed(fields, key))
				return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu].%s\" is no "
						     "field the rules read, so its value would be ignored (the seed's "
						     "rules use the tactical rating only); remove it, or spell one of: "
						     "id, name, nation, tactical, list, note", i, key);
		if (!est_rules_str(l, "id") || !est_rules_str(l, "name"))
			return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu]\" needs \"id\" "
					     "(what scenario.json's \"commander\" names) and \"name\" (what reports "
					     "show), both strings; add them", i);
		if (!json_is_integer(json_object_get(l, "tactical")) || est_rules_int(l, "tactical", 0) < -9 ||
		    est_rules_int(l, "tactical", 0) > 9)
			return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu].tactical\" of "
					     "\"%s\" must be the tactical rating, a whole number from -9 to 9 (5.513 "
					     "and the tables that \"add\" it); write it so", i,
					     est_rules_str(l, "id"));
		if (lg_leader(rules, est_rules_str(l, "id")) != l)
			return est_error_set(EST_EINVAL, "rules/leaders.json: field \"leaders[%zu].id\" repeats the "
					     "id \"%s\"; give each leader its own id", i, est_rules_str(l, "id"));
	}
	return 0;
}

/*
 * tables.json, as docs/la-guerre-data.md describes it: every field a GM may
 * type, its range, and no other (a misspelt field would silently read as
 * missing). Each refusal reads "rules/tables.json: field "PATH" ...; FIX".
 * util/error.h has no va_list form of est_error_set, and est_error_prefix
 * would put a ':' after the field, hence this one formatting step.
 */
static int refuse(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int refuse(const char *path, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return est_error_set(EST_EINVAL, "rules/tables.json: field \"%s\" %s", path, what);
}

/* The value at `key` as the message shows it: "six", 12, or "missing". */
static const char *shown(char *buf, size_t len, const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	char *text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	snprintf(buf, len, "%s%.40s%s", text ? "is " : "is missing", text ? text : "",
		 text && strlen(text) > 40 ? "..." : "");
	free(text);
	return buf;
}

/* `obj`.`key` is an integer in low..high (absent: refused when `needed`). */
static int int_in(const char *path, const json_t *obj, const char *key, int low, int high, int needed,
		  const char *meaning)
{
	const json_t *v = json_object_get(obj, key);
	char at[160], was[64];

	if (!v && !needed)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= low && json_integer_value(v) <= high)
		return 0;
	snprintf(at, sizeof(at), "%s.%s", path, key);
	return refuse(at, "%s; it must be %s: a whole number from %d to %d; write one", shown(was, sizeof(was), obj, key),
		      meaning, low, high);
}

/* Every field of `obj` is one of `known` or "note"; `path` names `obj`. */
static int known_fields(const char *path, const json_t *obj, const char *const *known)
{
	char list[300] = "", at[160];
	const char *key;
	const json_t *v;

	json_object_foreach((json_t *)obj, key, v) {
		if (est_rules_listed(known, key) || strcmp(key, "note") == 0)
			continue;
		for (const char *const *k = known; *k; k++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k == known ? "" : ", ", *k);
		snprintf(at, sizeof(at), "%s%s%s", path, *path ? "." : "", key);
		return refuse(at, "is no field the rules read here, so its value would be ignored; remove it, or "
			      "spell one of: %s, note", list);
	}
	return 0;
}

/* A row's "roll" (one face) or "min".."max" (a range of totals), never both. */
static int row_range(const char *path, const json_t *row)
{
	int has_roll = json_object_get(row, "roll") != NULL;
	int has_range = json_object_get(row, "min") || json_object_get(row, "max");

	if (has_roll == has_range)
		return refuse(path, "needs either \"roll\" (the one total it answers) or \"min\" and \"max\" (a "
			      "range of totals), not both and not neither; give one of them");
	if (has_roll)
		return int_in(path, row, "roll", -100, 200, 1, "the total this row answers");
	if (int_in(path, row, "min", -100, 200, 1, "the lowest total this row answers") < 0 ||
	    int_in(path, row, "max", est_rules_int(row, "min", -100), 200, 1,
		   "the highest total this row answers, \"min\" or more") < 0)
		return est_error_code();
	return 0;
}

/*
 * The rows run from the lowest total up, each starting one above the last,
 * and cover first..last (a die's faces; last below first: no upper end).
 */
static int rows_cover(const char *name, const json_t *rows, int first, int last)
{
	const json_t *row;
	char at[160];
	size_t i, n = json_array_size(rows);

	json_array_foreach(rows, i, row) {
		snprintf(at, sizeof(at), "%s.results[%zu]", name, i);
		if (i > 0 && lg_row_low(row) != lg_row_high(json_array_get(rows, i - 1)) + 1)
			return refuse(at, "starts at %d, but the row before ends at %d: the rows %s; list them from "
				      "the lowest total up, each starting one above the end of the row before",
				      lg_row_low(row), lg_row_high(json_array_get(rows, i - 1)),
				      lg_row_low(row) <= lg_row_high(json_array_get(rows, i - 1)) ?
				      "overlap" : "leave totals with no result");
	}
	snprintf(at, sizeof(at), "%s.results", name);
	if (lg_row_low(json_array_get(rows, 0)) > first)
		return refuse(at, "starts at %d, but the totals start at %d; begin the first row at %d or lower",
			      lg_row_low(json_array_get(rows, 0)), first, first);
	if (last >= first && lg_row_high(json_array_get(rows, n - 1)) < last)
		return refuse(at, "ends at %d, but a d%d rolls up to %d; end the last row at %d or higher",
			      lg_row_high(json_array_get(rows, n - 1)), last, last, last);
	return 0;
}

/* One row of the Approach or Auxiliary table: a range, a name, an effect and its parameter. */
static int effect_row(const char *name, size_t i, const json_t *row, int effect_needed)
{
	static const char *const fields[] = {"roll", "min", "max", "name", "effect", "drm", "divisions", NULL};
	const lg_effect *e = lg_effect_named(lg_row_effect(row));
	char at[160], sub[200], list[200] = "";
	int error;

	snprintf(at, sizeof(at), "%s.results[%zu]", name, i);
	if ((error = known_fields(at, row, fields)) < 0 || (error = row_range(at, row)) < 0)
		return error;
	if (!est_rules_str(row, "name") || !*est_rules_str(row, "name"))
		return refuse(at, "has no \"name\"; give the result's name as the table prints it (reports "
			      "show it)");
	snprintf(sub, sizeof(sub), "%s.effect", at);
	if (effect_needed && !json_object_get(row, "effect"))
		return refuse(sub, "is missing; say what the result does, one of the effects of "
			      "docs/la-guerre-data.md (\"none\" for no effect)");
	if (!e) {
		for (const lg_effect *x = lg_effects; x->name; x++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", x == lg_effects ? "" : ", ",
				 x->name);
		return refuse(sub, "is %s%s%s, which is no effect the rules carry out; write one of %s "
			      "(docs/la-guerre-data.md \"Effects\")", json_is_string(json_object_get(row, "effect")) ?
			      "\"" : "", json_is_string(json_object_get(row, "effect")) ?
			      est_rules_str(row, "effect") : "not a string", json_is_string(json_object_get(row,
			      "effect")) ? "\"" : "", list);
	}
	for (const char *const *p = (const char *const[]){"drm", "divisions", NULL}; *p; p++)
		if (json_object_get(row, *p) && (!e->param || strcmp(e->param, *p) != 0)) {
			snprintf(sub, sizeof(sub), "%s.%s", at, *p);
			return refuse(sub, "is not read with the effect \"%s\" (%s); remove it, or change "
				      "the effect to one that reads it (%s)", e->name, e->does,
				      strcmp(*p, "drm") == 0 ? "drm, enemy-drm" : "eliminate, lose");
		}
	if (e->param) {
		snprintf(sub, sizeof(sub), "%s for the effect \"%s\" (%s)", strcmp(e->param, "drm") == 0 ?
			 "the change to an attack total" : "the divisions lost", e->name, e->does);
		return int_in(at, row, e->param, e->low, e->high, json_object_get(row, "effect") != NULL, sub);
	}
	return 0;
}

/* One row of the pursuit table: a range and the divisions the retreating army loses. */
static int pursuit_row(const char *name, size_t i, const json_t *row, int effect_needed)
{
	static const char *const fields[] = {"roll", "min", "max", "name", "divisions", NULL};
	char at[160];
	int error;

	(void)effect_needed;
	snprintf(at, sizeof(at), "%s.results[%zu]", name, i);
	if ((error = known_fields(at, row, fields)) < 0 || (error = row_range(at, row)) < 0)
		return error;
	return int_in(at, row, "divisions", 0, 20, 1, "the divisions the retreating army loses (5.629)");
}

typedef int (*row_check)(const char *name, size_t i, const json_t *row, int effect_needed);

/* A die table: "die", what it "add"s to the roll, and its "results" rows checked by `check`. */
static int die_table(const json_t *rules, const char *name, row_check check, int effect_needed)
{
	static const char *const fields[] = {"provenance", "rule", "die", "add", "add_tactical", "results", NULL};
	const json_t *t = lg_table(rules, name), *rows = json_object_get(t, "results"), *row;
	const char *add = est_rules_str(t, "add");
	char at[160];
	size_t i;
	int error;

	if ((error = known_fields(name, t, fields)) < 0 ||
	    (error = int_in(name, t, "die", 2, 100, 1, "the sides of the die rolled on the table")) < 0)
		return error;
	snprintf(at, sizeof(at), "%s.add", name);
	if (json_object_get(t, "add") && (!add || (strcmp(add, "tactical") != 0 && strcmp(add, "none") != 0)))
		return refuse(at, "must be \"tactical\" (the roller's commander's tactical rating is added to "
			      "the roll) or \"none\"; write one of them");
	snprintf(at, sizeof(at), "%s.add_tactical", name);
	if (json_object_get(t, "add_tactical") && !json_is_boolean(json_object_get(t, "add_tactical")))
		return refuse(at, "must be true or false; or write \"add\": \"tactical\" instead");
	snprintf(at, sizeof(at), "%s.results", name);
	if (!json_is_array(rows) || json_array_size(rows) == 0 || json_array_size(rows) > 200)
		return refuse(at, "must be an array of 1 to 200 rows, one per result of the table; list them "
			      "from the lowest roll up");
	json_array_foreach(rows, i, row) {
		snprintf(at, sizeof(at), "%s.results[%zu]", name, i);
		if (!json_is_object(row))
			return refuse(at, "must be an object such as {\"roll\": 1, \"name\": ..., \"effect\": ...}; "
				      "write the row as one");
		if ((error = check(name, i, row, effect_needed)) < 0)
			return error;
	}
	return rows_cover(name, rows, 1, est_rules_int(t, "die", 0));
}

/* A table of plain numbers: each of `ints` in its range, and no other field. */
typedef struct {
	const char *key;
	int low, high;
	const char *meaning;
} number_field;

static int number_table(const json_t *rules, const char *name, const number_field *ints, const char *const *others)
{
	const json_t *t = lg_table(rules, name);
	const char *known[16];
	size_t n = 0;
	int error;

	for (const number_field *f = ints; f->key; f++)
		known[n++] = f->key;
	for (; others && *others; others++)
		known[n++] = *others;
	known[n] = NULL;
	if ((error = known_fields(name, t, known)) < 0)
		return error;
	for (const number_field *f = ints; f->key; f++)
		if ((error = int_in(name, t, f->key, f->low, f->high, 1, f->meaning)) < 0)
			return error;
	return 0;
}

/* One row of the attack's results, at `at`: a range of margins and what each side loses. */
static int attack_row(const char *at, const json_t *row)
{
	static const char *const fields[] = {"roll", "min", "max", "name", "loser_loses", "winner_loses", NULL};
	int error;

	if ((error = known_fields(at, row, fields)) < 0 || (error = row_range(at, row)) < 0 ||
	    (error = int_in(at, row, "loser_loses", 0, 20, 1, "the divisions the loser loses")) < 0 ||
	    (error = int_in(at, row, "winner_loses", 0, 20, 1, "the divisions the winner loses")) < 0)
		return error;
	return 0;
}

/*
 * "attack.results", a table of losses by the margin of the win (0 up):
 * when given it replaces the bounds of the difference (RULINGS.md D3).
 */
static int attack_results(const json_t *t)
{
	static const char *const replaced[] = {"loser_losses_min", "loser_losses_max",
					       "winner_loses_one_if_margin_at_most", NULL};
	const json_t *rows = json_object_get(t, "results"), *row;
	char at[160];
	size_t i;
	int error;

	for (const char *const *r = replaced; *r; r++)
		if (json_object_get(t, *r)) {
			snprintf(at, sizeof(at), "attack.%s", *r);
			return refuse(at, "is not read when \"attack.results\" gives the losses by margin; remove "
				      "it, or remove \"results\"");
		}
	if (!json_is_array(rows) || json_array_size(rows) == 0 || json_array_size(rows) > 200)
		return refuse("attack.results", "must be an array of 1 to 200 rows of losses by the margin of "
			      "the win, from 0 up; list them so");
	json_array_foreach(rows, i, row) {
		snprintf(at, sizeof(at), "attack.results[%zu]", i);
		if (!json_is_object(row))
			return refuse(at, "must be an object such as {\"min\": 0, \"max\": 1, \"loser_loses\": 1, "
				      "\"winner_loses\": 1}; write the row as one");
		if ((error = attack_row(at, row)) < 0)
			return error;
	}
	return rows_cover("attack", rows, 0, -1);
}

static int attack_table(const json_t *rules)
{
	static const number_field ints[] = {
		{"die", 2, 100, "the sides of each player's attack die (5.612: one six-sided die)"},
		{"corps_superiority_drm", -9, 9, "added to the total of the side with more corps (step 3)"},
		{NULL, 0, 0, NULL}};
	static const number_field bounds[] = {
		{"loser_losses_min", 0, 20, "the fewest divisions the loser loses"},
		{"loser_losses_max", 0, 20, "the most divisions the loser loses"},
		{"winner_loses_one_if_margin_at_most", -1, 100, "the winner loses a division when it wins by this "
		 "much or less (-1: never)"},
		{NULL, 0, 0, NULL}};
	static const char *const others[] = {"provenance", "rule", "tie", "results", "loser_losses_min",
					     "loser_losses_max", "winner_loses_one_if_margin_at_most", NULL};
	const json_t *t = lg_table(rules, "attack");
	const char *tie = est_rules_str(t, "tie");
	int error;

	if ((error = number_table(rules, "attack", ints, others)) < 0)
		return error;
	if (json_object_get(t, "tie") && (!tie || (strcmp(tie, "attacker") != 0 && strcmp(tie, "defender") != 0)))
		return refuse("attack.tie", "must be \"attacker\" or \"defender\", who wins equal totals; write "
			      "one of them");
	if (json_object_get(t, "results"))
		return attack_results(t);
	for (const number_field *f = bounds; f->key; f++)
		if ((error = int_in("attack", t, f->key, f->low, f->high, 1, f->meaning)) < 0)
			return error;
	if (est_rules_int(t, "loser_losses_min", 0) > est_rules_int(t, "loser_losses_max", 0))
		return refuse("attack.loser_losses_min", "is above \"loser_losses_max\"; make min <= max");
	return 0;
}

static int plain_tables(const json_t *rules)
{
	static const number_field vp[] = {
		{"attack_win", 0, 100, "the VPs of an attack's winner (5.628)"},
		{"heavy_losses", 0, 100, "the loser's losses from which the winner scores the bonus"},
		{"heavy_losses_bonus", 0, 100, "the winner's extra VPs for heavy losses"},
		{"retreat_victory", 0, 100, "the VPs of a side whose enemy retreats after the battle began"},
		{NULL, 0, 0, NULL}};
	static const number_field through[] = {
		{"divisions_per_province", 0, 20, "the divisions lost per enemy province crossed (5.6291)"},
		{NULL, 0, 0, NULL}};
	static const number_field bombard[] = {
		{"die", 2, 100, "the sides of each artillery unit's die (5.616: d10)"},
		{"divisions_per_hit", 0, 20, "the enemy divisions each hit eliminates (5.616: 2)"},
		{NULL, 0, 0, NULL}};
	static const number_field siege[] = {
		{"die", 2, 100, "the sides of the siege die"},
		{"falls_on", 1, 100, "the modified roll at or above which the garrison falls"},
		{"drm_per_garrison_division_over_one", -9, 9, "added to the roll per garrison division beyond the first"},
		{NULL, 0, 0, NULL}};
	static const char *const others[] = {"provenance", "rule", NULL};
	const json_t *b = lg_table(rules, "bombard");
	int error;

	if ((error = number_table(rules, "victory_points", vp, others)) < 0 ||
	    (error = number_table(rules, "retreat_through_enemy", through, others)) < 0 ||
	    (error = number_table(rules, "bombard", bombard, (const char *const[]){"provenance", "rule",
			"hit_on", NULL})) < 0 ||
	    (error = int_in("bombard", b, "hit_on", 1, est_rules_int(b, "die", 10), 1,
			    "the face of the bombardment die that hits (5.616: 10)")) < 0 ||
	    (error = number_table(rules, "siege", siege, others)) < 0)
		return error;
	return 0;
}

/* "movement": Movement Points to enter a province, by terrain. */
static int movement_table(const json_t *rules)
{
	const json_t *t = lg_table(rules, "movement"), *v;
	const char *terrain;
	int error;

	json_object_foreach((json_t *)t, terrain, v) {
		if (strcmp(terrain, "provenance") == 0 || strcmp(terrain, "note") == 0 || strcmp(terrain, "rule") == 0)
			continue;
		if ((error = int_in("movement", t, terrain, 1, 20, 1, "the Movement Points to enter a province of "
				    "this terrain")) < 0)
			return error;
	}
	return 0;
}

static int check_tables(const json_t *rules)
{
	/* The file's fields: its provenance, then every table the rules need. */
	static const char *const fields[] = {"provenance", "approach", "auxiliary", "attack", "victory_points",
					     "pursuit", "retreat_through_enemy", "bombard", "siege", "movement", NULL};
	const json_t *tables = json_object_get(rules, "tables");
	int error;

	if ((error = known_fields("", tables, fields)) < 0)
		return error;
	for (const char *const *n = fields + 1; *n; n++) {
		if (!json_is_object(lg_table(rules, *n)))
			return est_error_set(EST_EINVAL, "rules/tables.json: no table \"%s\"; the rules need "
					     "approach, auxiliary, attack, victory_points, pursuit, "
					     "retreat_through_enemy, bombard, siege and movement; add it "
					     "(docs/la-guerre-data.md)", *n);
		if (!est_rules_str(lg_table(rules, *n), "provenance"))
			return refuse(*n, "has no \"provenance\"; say where its values come from (\"placeholder\", "
				      "\"seed\", or the source a GM used)");
	}
	if ((error = die_table(rules, "approach", effect_row, 0)) < 0 ||
	    (error = die_table(rules, "auxiliary", effect_row, 1)) < 0 ||
	    (error = die_table(rules, "pursuit", pursuit_row, 0)) < 0 || (error = attack_table(rules)) < 0 ||
	    (error = plain_tables(rules)) < 0 || (error = movement_table(rules)) < 0)
		return error;
	return 0;
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
			   "and the nations of each side (\"France\", \"Coalition\"); add what is missing");
	if (!is_string_array(json_object_get(json_object_get(s, "embargo"), "members")) ||
	    !is_string_array(json_object_get(json_object_get(s, "embargo"), "requires_control")) ||
	    !is_string_array(json_object_get(json_object_get(s, "embargo"), "seas")))
		return bad("scenario.json", "field \"embargo\"", "needs \"members\", \"requires_control\" "
			   "and \"seas\" as arrays of names (4.241); add them");
	if (!est_rules_in_list(seasons, est_rules_str(json_object_get(s, "start"), "season")) ||
	    !est_rules_in_list(seasons, est_rules_str(json_object_get(s, "end"), "season")))
		return bad("scenario.json", "fields \"start.season\" and \"end.season\"", "must be seasons "
			   "of \"seasons\"; spell them as \"seasons\" does");
	json_array_foreach(json_object_get(s, "armies"), i, a)
		if (lg_army(s, est_rules_str(a, "id")) != a)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" repeats the "
					     "id of an earlier army; give each army its own id", i);
	json_array_foreach(json_object_get(s, "armies"), i, a)
		if (!json_is_integer(json_object_get(a, "movement")) || !json_is_integer(json_object_get(a, "artillery")) ||
		    est_rules_int(a, "artillery", 0) < 0 || est_rules_int(a, "artillery", 0) > 50)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" needs "
					     "\"movement\" and \"artillery\" (0 to 50) as integers; write them as whole "
					     "numbers", i);
	return 0;
}

/* A nation stands on one side, or is neutral: never two of these. */
static int check_sides(const json_t *rules)
{
	const json_t *s = lg_scenario(rules), *sides = json_object_get(s, "sides"), *n;
	size_t i;

	if (!is_string_array(json_object_get(s, "neutral")))
		return bad("scenario.json", "field \"neutral\"", "must be an array of nations; write it as [\"Prussia\", ...]");
	json_array_foreach(json_object_get(sides, LG_FRANCE), i, n)
		if (est_rules_in_list(json_object_get(sides, LG_COALITION), json_string_value(n)) ||
		    est_rules_in_list(json_object_get(s, "neutral"), json_string_value(n)))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"sides\": \"%s\" stands on "
					     "France's side and also on the Coalition's or among the neutrals; give "
					     "each nation one place: remove it from all but one", json_string_value(n));
	json_array_foreach(json_object_get(sides, LG_COALITION), i, n)
		if (est_rules_in_list(json_object_get(s, "neutral"), json_string_value(n)))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"neutral\": \"%s\" is in the "
					     "Coalition and among the neutrals; remove it from one of them", json_string_value(n));
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
					     "a province of rules/map.json; spell one as map.json does", i);
		if (!id_ok(est_rules_str(a, "id")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu].id\" must be what "
					     "orders spell: a-z, 0-9 and - only, 40 at most; write it so "
					     "(\"grande-armee\")", i);
		if (est_rules_int(a, "movement", -1) < 0 || est_rules_int(a, "movement", -1) > 20)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu].movement\" must "
					     "be the army's Movement Points, 0 to 20; write a whole number in "
					     "that range", i);
		if (!lg_side_of(rules, est_rules_str(a, "nation")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu].nation\" stands "
					     "on neither side; name a nation of \"sides\"", i);
		/* An army may start in a province of the enemy (Mack in Bavaria), never a neutral one. */
		if (!side)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu].location\" is "
					     "\"%s\", neutral at the start; an army starts in a province of a "
					     "side: move it, or take the province's nation out of \"neutral\"",
					     i, where);
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
					     "province of the map, with 0 to 50 \"divisions\" and \"ghost\"; spell "
					     "the province as map.json does and write whole numbers", name);
	json_object_foreach(json_object_get(lg_scenario(rules), "control"), name, g)
		if (!lg_province_data(rules, name) || !json_is_string(g))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"control.%s\" must name a "
					     "province of the map and give its controller's name; spell the province as "
					     "map.json does and the controller as a string", name);
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
			   "start (and \"seasons\" holds at most 10); change \"end\"");
	json_object_foreach(json_object_get(s, "diplomacy"), nation, d) {
		if (!est_rules_listed(statuses, est_rules_str(d, "status")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"diplomacy.%s.status\" must "
					     "be war, alliance, peace or inactive; write one of them", nation);
		if (json_object_get(d, "npc") && strcmp(est_rules_str(d, "npc") ? est_rules_str(d, "npc") : "",
							 "inactive") != 0)
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"diplomacy.%s.npc\" can only "
					     "be \"inactive\" (4.241: a nation that stays part of the embargo after "
					     "its treaty expires); write that or remove the field", nation);
	}
	if (json_object_get(json_object_get(s, "embargo"), "treaty_years") &&
	    (est_rules_int(json_object_get(s, "embargo"), "treaty_years", 0) < 1 ||
	     est_rules_int(json_object_get(s, "embargo"), "treaty_years", 0) > 100))
		return bad("scenario.json", "field \"embargo.treaty_years\"", "is the years a treaty lasts "
			   "(RULINGS.md L27): a whole number from 1 to 100; write one");
	nmr = json_object_get(s, "nmr");
	for (int step = 4; step <= 6; step++) {
		char kind[32];
		const char *o;
		snprintf(kind, sizeof(kind), "battle-step-%d", step);
		o = est_rules_str(nmr, kind);
		if (!o || (strcmp(o, "attack") != 0 && strcmp(o, "retreat") != 0 &&
			   (step == 6 || (strcmp(o, "auxiliary") != 0 && strcmp(o, "bombard") != 0))))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"nmr.%s\" must be an option "
					     "of that step (%s), the answer a missed decision takes; write one of them",
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
