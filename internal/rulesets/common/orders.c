/* The checks every ruleset's validate() makes alike: only known fields, and its answer. */
#include "rulesets/common/common.h"
#include "util/error.h"

int est_rules_fields_ok(json_t *diags, int index, const json_t *order, const char *const *fields,
			const char *const *required, const char *rule)
{
	const char *key;
	json_t *v;
	int ok = 1;

	json_object_foreach((json_t *)order, key, v) {
		if (!est_rules_listed(fields, key)) {
			est_rules_diag(diags, index, key, rule, "\"%s\" is not a field of a %s order; remove it", key,
				       est_rules_str(order, "type"));
			ok = 0;
		}
	}
	for (; required && *required; required++)
		if (!json_object_get(order, *required)) {
			est_rules_diag(diags, index, *required, rule, "a %s order needs \"%s\"; add it",
				       est_rules_str(order, "type"), *required);
			ok = 0;
		}
	return ok;
}

int est_rules_validated(json_t **diagnostics_out, json_t *diags)
{
	if (json_array_size(diags) == 0) {
		json_decref(diags);
		*diagnostics_out = NULL;
		return 0;
	}
	*diagnostics_out = diags;
	return est_error_set(EST_EINVAL, "%zu problem%s with the orders", json_array_size(diags),
			     json_array_size(diags) == 1 ? "" : "s");
}
