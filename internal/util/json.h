/*
 * JSON as estafette stores it (jansson values).
 */
#ifndef EST_UTIL_JSON_H
#define EST_UTIL_JSON_H

#include <jansson.h>

/*
 * Serialize JSON the one way estafette stores it: two-space indent, keys
 * sorted, a final newline, so the same value always gives the same bytes
 * (and state.json the same SHA-256). Returns a new string (caller frees)
 * or NULL on ENOMEM.
 */
char *est_json_text(const json_t *value);

/*
 * Parse stored JSON bytes strictly (duplicate keys refused) into *out (a
 * new reference). Errors: EST_EINVAL naming `what`, the line and column.
 */
int est_json_parse(json_t **out, const char *text, size_t len, const char *what);

#endif
