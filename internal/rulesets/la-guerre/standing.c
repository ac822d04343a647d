/*
 * La Guerre de l'Empereur: standing orders, the answers a power gives in
 * advance to battle decisions (RULINGS.md L19).
 */
#include <string.h>

#include "util/error.h"
#include "lg_internal.h"

const json_t *lg_standing(const json_t *state, const char *power, const char *at, int step)
{
	const json_t *s;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(state, "standing"), power), i, s)
		if (strcmp(est_rules_str(s, "at"), at) == 0 && est_rules_int(s, "step", 0) == step)
			return s;
	return NULL;
}

int lg_set_standing(json_t *state, const char *power, const json_t *order)
{
	json_t *all = json_object_get(state, "standing"), *list = json_object_get(all, power);
	const char *at = est_rules_str(order, "at"), *to = est_rules_str(order, "to");
	int step = est_rules_int(order, "step", 0);

	if (!list) {
		list = json_array();
		json_object_set_new(all, power, list);
	}
	for (size_t i = json_array_size(list); i-- > 0;) {
		const json_t *s = json_array_get(list, i);
		if (strcmp(est_rules_str(s, "at"), at) == 0 && est_rules_int(s, "step", 0) == step)
			json_array_remove(list, i);
	}
	/* "option": "none" withdraws the standing order. */
	if (strcmp(est_rules_str(order, "option"), "none") == 0)
		return 0;
	if (json_array_append_new(list, json_pack("{s:s, s:i, s:s, s:s*}", "at", at, "step", step,
						  "option", est_rules_str(order, "option"), "to", to)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

