/*
 * Shared inside internal/orders only: the strict byte-level loader
 * (strict.c) that orders.c builds the schema checks on.
 */
#ifndef EST_ORDERS_PRIVATE_H
#define EST_ORDERS_PRIVATE_H

#include <jansson.h>
#include <stddef.h>

/*
 * Check the raw bytes (size, BOM, NUL, UTF-8, nesting depth), parse them
 * with duplicate keys refused, and (when the top level is an object)
 * refuse any non-integer number. *out is
 * the document (any JSON type; the caller checks it is an object).
 * Errors: EST_EINVAL with "FILENAME: line L, column C: ..." where the
 * bytes are at fault, or "FILENAME: field "PATH" ..." for a real number;
 * EST_ENOMEM.
 */
int est_orders_load_strict(json_t **out, const char *filename, const char *bytes, size_t len);

/*
 * Append to `path` (a buffer of `size` bytes holding a JSON path such as
 * orders[3]) the member `key`: ".key" for plain names, "["key"]" quoted
 * otherwise; the top level has no dot. Truncates silently when full.
 */
void est_orders_path_key(char *path, size_t size, const char *key);

/* Append "[index]" to `path`. */
void est_orders_path_index(char *path, size_t size, size_t index);

#endif
