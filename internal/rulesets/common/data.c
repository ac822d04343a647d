/* The checks every ruleset's rules data gets at set-up: numbers in range, strings printable. */
#include <stdio.h>

#include "rulesets/common/common.h"
#include "util/error.h"

/* No C0/C1 control character, DEL, U+2028/2029, nor bidirectional marks (U+200E-200F, U+202A-202E, U+2066-2069). */
static int plain_text(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		if (u[i] < 0x20 || u[i] == 0x7f || (u[i] == 0xc2 && i + 1 < len && u[i + 1] >= 0x80 && u[i + 1] < 0xa0))
			return 0;
		if (u[i] == 0xe2 && i + 2 < len && u[i + 1] == 0x80 &&
		    ((u[i + 2] >= 0x8e && u[i + 2] <= 0x8f) || (u[i + 2] >= 0xa8 && u[i + 2] <= 0xae)))
			return 0;
		if (u[i] == 0xe2 && i + 2 < len && u[i + 1] == 0x81 && u[i + 2] >= 0xa6 && u[i + 2] <= 0xa9)
			return 0;
	}
	return 1;
}

static int check(const json_t *v, const char *file, const char *path)
{
	char sub[256];
	const char *key;
	const json_t *x;
	size_t i;
	int error;

	if (json_is_integer(v) && (json_integer_value(v) < -10000 || json_integer_value(v) > 10000))
		return est_error_set(EST_EINVAL, "rules/%s: field \"%s\" is %lld, outside -10000..10000; fix "
				     "the data", file, path, (long long)json_integer_value(v));
	if (json_is_string(v) && !plain_text(json_string_value(v), json_string_length(v)))
		return est_error_set(EST_EINVAL, "rules/%s: field \"%s\" holds a control character, a line break "
				     "or a direction mark, which reports would print raw; fix the data", file, path);
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
