/*
 * What every ruleset does alike: look-ups in its JSON state, rules data and
 * orders, the checks every validate() makes (only known fields, the answer
 * it gives), the step's events (rulesets/ruleset.h: each event an object with
 * at least "type" and "text"), dice rolls logged with their purpose, and
 * the range check of rules data. A ruleset sees only this, util, dice and
 * rulesets/ruleset.h (docs/HACKING.md "Layers").
 */
#ifndef EST_RULESETS_COMMON_H
#define EST_RULESETS_COMMON_H

#include <jansson.h>

#include "dice/dice.h"

/*
 * The string at `key` of the object `obj`, or NULL when `obj` is no
 * object, has no `key`, or holds something else there. Borrowed.
 */
const char *est_rules_str(const json_t *obj, const char *key);

/*
 * The integer at `key` of the object `obj`, cut to an int, or `fallback`
 * when it holds none there (no object, no key, not an integer). Rules data
 * keeps integers within -10000..10000 (est_rules_check_data).
 */
int est_rules_int(const json_t *obj, const char *key, int fallback);

/*
 * How many items a pile (a hand, a deck) holds: an array's size, or the
 * public "count" of a sealed one ({"sealed": ..., "count": n}, seal/seal.h),
 * as a player's copy of a sealed game holds it: counts are public, the
 * cards are not (rulesets/ruleset.h sealed()).
 */
int est_rules_pile_count(const json_t *pile);

/* 1 if `name` is one of `list` (NULL-terminated; a NULL `name` never is), else 0. */
int est_rules_listed(const char *const *list, const char *name);

/*
 * The "only these fields" check of one order item (an object) in
 * validate(): every field of `order` must be one of `fields`
 * (NULL-terminated), and each of `required` (NULL-terminated; NULL: none)
 * must be there. Appends to `diags` one diagnostic (est_rules_diag, at
 * `index`, under `rule`) per field too many, named in "field":
 *     "KEY" is not a field of a TYPE order; remove it
 * then one per field missing:
 *     a TYPE order needs "FIELD"; add it
 * TYPE being the item's "type". Returns 1 if it found nothing to say, else 0.
 */
int est_rules_fields_ok(json_t *diags, int index, const json_t *order, const char *const *fields,
			const char *const *required, const char *rule);

/*
 * The end of a validate() (rulesets/ruleset.h) that collected its refusals in
 * `diags` (an array, stolen): none, and *diagnostics_out is NULL and it
 * returns 0; otherwise *diagnostics_out takes `diags` and it returns
 * EST_EINVAL with the message "N problem(s) with the orders".
 */
int est_rules_validated(json_t **diagnostics_out, json_t *diags);

/*
 * Append an event to `events` (an array, borrowed): `fields` (a new
 * object, stolen; NULL: none) with "type" = `type` and "text" = the
 * printf-style `fmt`, one line for the report. Returns 0, or EST_ENOMEM
 * with the message set (`fields` is released either way).
 */
int est_rules_event(json_t *events, json_t *fields, const char *type, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Append one of a step's choices (rulesets/ruleset.h pending "choices") to
 * `choices` (an array, borrowed): {"order": `order` (a new object, stolen:
 * the order item as the player writes it, "<...>" where the player fills
 * in a value), "text": the printf-style `fmt`, one line saying what it
 * does}. Returns 0, or EST_ENOMEM with the message set (`order` is
 * released either way).
 */
int est_rules_choice(json_t *choices, json_t *order, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Append to `diags` (an array, borrowed) a rules check's refusal as
 * rulesets/ruleset.h validate() gives it: {"index": i (-1: the orders as a
 * whole), "field", "rule", "message": the printf-style text, ending with
 * the fix}. Out of memory, the diagnostic is lost (the caller still
 * refuses: it counts on the array only being non-empty).
 */
void est_rules_diag(json_t *diags, int index, const char *field, const char *rule, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * Append `sep` and a printf-style part to the heap string *text (NULL
 * starts it without `sep`); for the one-line texts views build. Returns 0,
 * or -1 out of memory (then *text is unchanged or NULL).
 */
int est_rules_join(char **text, const char *sep, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A new JSON string from the heap string `text`, which it frees; NULL stays NULL. */
json_t *est_rules_string(char *text);

/* The first object of the array `list` whose `key` is the string `value`, or NULL. Borrowed. */
json_t *est_rules_find(const json_t *list, const char *key, const char *value);

/* 1 if the array `list` holds the string `name` (NULL: never), else 0; anything else in it is passed over. */
int est_rules_in_list(const json_t *list, const char *name);

/*
 * The end of a resolve() (rulesets/ruleset.h): with `error` 0 it hands the
 * new `state` and `events` to the out-parameters, otherwise it releases
 * both (either may be NULL). Returns `error`.
 */
int est_rules_resolved(json_t **state_out, json_t **events_out, json_t *state, json_t *events, int error);

/*
 * rulesets/ruleset.h default_orders() for a ruleset whose missed step
 * orders nothing: a new empty array. Errors: EST_ENOMEM.
 */
int est_rules_no_orders(json_t **out, const json_t *state, const json_t *rules, const char *power);

/*
 * Roll one die of `sides` faces from `dice` (est_dice_roll), logging the
 * printf-style purpose (at most 199 bytes kept). Errors: est_dice_roll's.
 */
int est_rules_roll(int *out, est_dice *dice, int sides, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * What every rules data file `value` (named `file`, e.g. "tables.json")
 * must be, whatever the ruleset: every integer within -10000..10000 and no
 * real numbers (rulesets add and compare them in int), and no string with
 * a code point util/unicode.h refuses in a message (a control, a line
 * break, a bidirectional or invisible format character: they are printed
 * into reports, where they could forge lines). Returns 0, or
 * EST_EINVAL naming the file, the field's path ("cards[3].title"), what
 * is wrong and the fix.
 */
int est_rules_check_data(const json_t *value, const char *file);

#endif
