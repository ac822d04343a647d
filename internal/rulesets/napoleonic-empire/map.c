/*
 * Napoleonic Empire, THE MAP: countries, borders and England's sea access,
 * read from rules["map"], plus the tables of rules["reinforcements"] and
 * rules["setup"].
 */
#include <string.h>

#include "ne_internal.h"

static const json_t *countries(const json_t *rules)
{
	return json_object_get(json_object_get(rules, "map"), "countries");
}

static const json_t *map_list(const json_t *rules, const char *key)
{
	return json_object_get(json_object_get(rules, "map"), key);
}

size_t ne_country_count(const json_t *rules)
{
	return json_array_size(countries(rules));
}

const char *ne_country_name(const json_t *rules, size_t i)
{
	return json_string_value(json_object_get(json_array_get(countries(rules), i), "name"));
}

static const json_t *country(const json_t *rules, const char *name)
{
	size_t i;
	json_t *c;

	json_array_foreach(countries(rules), i, c) {
		const char *n = json_string_value(json_object_get(c, "name"));

		if (n && name && strcmp(n, name) == 0)
			return c;
	}
	return NULL;
}

int ne_is_country(const json_t *rules, const char *name)
{
	return country(rules, name) != NULL;
}

/*
 * RULINGS.md R1: the seed's table is not symmetric (France lists Italy,
 * Italy does not list France); a border exists if either side lists it.
 */
int ne_land_adjacent(const json_t *rules, const char *a, const char *b)
{
	const json_t *ca = country(rules, a), *cb = country(rules, b);

	if (!ca || !cb || strcmp(a, b) == 0)
		return 0;
	return est_rules_in_list(json_object_get(ca, "adjacent"), b) ||
	       est_rules_in_list(json_object_get(cb, "adjacent"), a);
}

/* "Armies in England may be moved to any non-landlocked country." */
static int sea_reachable(const json_t *rules, const char *from, const char *to)
{
	const char *sea = json_string_value(map_list(rules, "sea_power"));

	return sea && strcmp(from, sea) == 0 && strcmp(to, sea) != 0 &&
	       !est_rules_in_list(map_list(rules, "landlocked"), to);
}

const char *ne_move_refusal(const json_t *rules, const char *side, const char *from,
			    const char *to)
{
	if (!ne_is_country(rules, from) || !ne_is_country(rules, to))
		return "Napoleonic Empire, The Map: no such country";
	if (est_rules_in_list(map_list(rules, "never_entered"), to))
		return "Napoleonic Empire, The Map: the Ottoman Empire may not be entered";
	if (strcmp(side, NE_FRANCE) == 0 && est_rules_in_list(map_list(rules, "no_french_entry"), to))
		return "Napoleonic Empire, Move Phase: the French player may never move armies into England";
	if (strcmp(side, NE_ALLIES) == 0 && est_rules_in_list(map_list(rules, "no_allied_return"), to))
		return "Napoleonic Empire, Move Phase: Allied armies cannot be moved back to England";
	if (ne_land_adjacent(rules, from, to) || sea_reachable(rules, from, to))
		return NULL;
	return "Napoleonic Empire, Move Phase: armies may move only to an adjacent country "
	       "(from England: to any non-landlocked country)";
}

int ne_table_value(const json_t *rules, const char *name)
{
	const json_t *t = json_object_get(json_object_get(rules, "reinforcements"), "table");

	return (int)json_integer_value(json_object_get(t, name));
}

int ne_setup_int(const json_t *rules, const char *key, int fallback)
{
	const json_t *v = json_object_get(json_object_get(rules, "setup"), key);

	return json_is_integer(v) ? (int)json_integer_value(v) : fallback;
}
