/*
 * What every ruleset's resolve() does alike: the step's events
 * (engine/ruleset.h: each event an object with at least "type" and "text").
 */
#ifndef EST_RULESETS_COMMON_EVENTS_H
#define EST_RULESETS_COMMON_EVENTS_H

#include <jansson.h>

/*
 * Append an event to `events` (an array, borrowed): `fields` (a new
 * object, stolen; NULL: none) with "type" = `type` and "text" = the
 * printf-style `fmt`, one line for the report. Returns 0, or EST_ENOMEM
 * with the message set (`fields` is released either way).
 */
int est_rules_event(json_t *events, json_t *fields, const char *type, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
