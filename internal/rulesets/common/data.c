/* The checks every ruleset's rules data gets at set-up: numbers in range, strings printable. */
#include <stdio.h>

#include "rulesets/common/common.h"
#include "util/error.h"
#include "util/unicode.h"

static int check(const json_t *v, const char *file, const char *path)
{
	char sub[256];
	const char *key;
	const json_t *x;
	est_unicode_problem bad;
	size_t i;
	int error;

	if (json_is_integer(v) && (json_integer_value(v) < -10000 || json_integer_value(v) > 10000))
		return est_error_set(EST_EINVAL, "rules/%s: field \"%s\" is %lld, outside -10000..10000; give "
				     "a number within that range", file, path, (long long)json_integer_value(v));
	if (json_is_string(v) &&
	    est_unicode_check(&bad, json_string_value(v), json_string_length(v), EST_UNICODE_MESSAGE) < 0)
		return est_error_set(EST_EINVAL, "rules/%s: field \"%s\" holds %s at byte %zu, %s, which "
				     "reports would print raw; replace it with printable text",
				     file, path, bad.what, bad.offset, bad.kind);
	if (json_is_real(v))
		return est_error_set(EST_EINVAL, "rules/%s: field \"%s\" is not a whole number; numbers in "
				     "rules data are integers", file, path);
	json_object_foreach((json_t *)v, key, x) {
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		if ((error = check(x, file, sub)) < 0)
			return error;
	}
	json_array_foreach(v, i, x) {
		snprintf(sub, sizeof(sub), "%s[%zu]", path, i);
		if ((error = check(x, file, sub)) < 0)
			return error;
	}
	return 0;
}

int est_rules_check_data(const json_t *value, const char *file)
{
	return check(value, file, "");
}
