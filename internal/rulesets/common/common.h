/*
 * What every ruleset does alike: the step's events (engine/ruleset.h: each
 * event an object with at least "type" and "text"), dice rolls logged with
 * their purpose, and the range check of rules data.
 */
#ifndef EST_RULESETS_COMMON_H
#define EST_RULESETS_COMMON_H

#include <jansson.h>

#include "dice/dice.h"

/*
 * Append an event to `events` (an array, borrowed): `fields` (a new
 * object, stolen; NULL: none) with "type" = `type` and "text" = the
 * printf-style `fmt`, one line for the report. Returns 0, or EST_ENOMEM
 * with the message set (`fields` is released either way).
 */
int est_rules_event(json_t *events, json_t *fields, const char *type, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Append to `diags` (an array, borrowed) a rules check's refusal as
 * engine/ruleset.h validate() gives it: {"index": i (-1: the orders as a
 * whole), "field", "rule", "message": the printf-style text, ending with
 * the fix}. Out of memory, the diagnostic is lost (the caller still
 * refuses: it counts on the array only being non-empty).
 */
void est_rules_diag(json_t *diags, int index, const char *field, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The first object of the array `list` whose `key` is the string `value`, or NULL. Borrowed. */
json_t *est_rules_find(const json_t *list, const char *key, const char *value);

/*
 * Roll one die of `sides` faces from `dice` (est_dice_roll), logging the
 * printf-style purpose (at most 199 bytes kept). Errors: est_dice_roll's.
 */
int est_rules_roll(int *out, est_dice *dice, int sides, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Every integer of the rules data file `value` (named `file`, e.g.
 * "tables.json") within -10000..10000, and no real numbers: rulesets add
 * and compare these in int. Returns 0, or EST_EINVAL naming the file and
 * the field's path ("victory_points.attack_win", "cards[3].actions").
 */
int est_rules_check_numbers(const json_t *value, const char *file);

#endif
