/* Look-ups every ruleset makes in its JSON state, rules data and orders. */
#include <string.h>

#include "rulesets/common/common.h"

const char *est_rules_str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

int est_rules_int(const json_t *obj, const char *key, int fallback)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_integer(v) ? (int)json_integer_value(v) : fallback;
}

int est_rules_listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (name && strcmp(*list, name) == 0)
			return 1;
	return 0;
}

int est_rules_pile_count(const json_t *pile)
{
	if (json_is_object(pile))
		return (int)json_integer_value(json_object_get(pile, "count"));
	return (int)json_array_size(pile);
}
