/*
 * JSON as estafette stores it: one serialization, strict parsing.
 */
#include <stdlib.h>

#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

char *est_json_text(const json_t *value)
{
	char *body = json_dumps(value, JSON_INDENT(2) | JSON_SORT_KEYS), *text;

	if (!body)
		return NULL;
	text = est_strdup_printf("%s\n", body);
	free(body);
	return text;
}

int est_json_parse(json_t **out, const char *text, size_t len, const char *what)
{
	json_error_t jerr;

	if (!(*out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr)))
		return est_error_set(EST_EINVAL, "%s: not valid JSON at line %d, column %d: %s",
				     what, jerr.line, jerr.column, jerr.text);
	return 0;
}
