/* The step's event log and order diagnostics, shared by the rulesets. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/common/common.h"
#include "util/error.h"

int est_rules_event(json_t *events, json_t *fields, const char *type, const char *fmt, ...)
{
	json_t *ev = fields ? fields : json_object();
	va_list ap;
	char *text = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (!ev || n < 0 || json_object_set_new(ev, "type", json_string(type)) < 0 ||
	    json_object_set_new(ev, "text", json_string(text)) < 0 ||
	    json_array_append_new(events, ev) < 0) {
		free(n < 0 ? NULL : text);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	free(text);
	return 0;
}

int est_rules_choice(json_t *choices, json_t *order, const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (!order || n < 0 || json_array_append_new(choices, json_pack("{s:o, s:s}", "order", order,
									 "text", text)) < 0) {
		free(n < 0 ? NULL : text);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	free(text);
	return 0;
}

void est_rules_diag(json_t *diags, int index, const char *field, const char *rule, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	json_array_append_new(diags, json_pack("{s:i, s:s, s:s, s:s}", "index", index, "field", field, "rule",
					       rule, "message", msg));
	free(msg);
}

int est_rules_in_list(const json_t *list, const char *name)
{
	const json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (name && json_is_string(v) && strcmp(json_string_value(v), name) == 0)
			return 1;
	return 0;
}

json_t *est_rules_find(const json_t *list, const char *key, const char *value)
{
	json_t *o;
	size_t i;

	json_array_foreach(list, i, o) {
		const char *v = json_string_value(json_object_get(o, key));
		if (value && v && strcmp(v, value) == 0)
			return o;
	}
	return NULL;
}

int est_rules_join(char **text, const char *sep, const char *fmt, ...)
{
	char *part = NULL, *next;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&part, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (!*text) {
		*text = part;
		return 0;
	}
	next = malloc(strlen(*text) + strlen(sep) + strlen(part) + 1);
	if (next) {
		strcpy(next, *text);
		strcat(next, sep);
		strcat(next, part);
	}
	free(part);
	free(*text);
	*text = next;
	return next ? 0 : -1;
}

json_t *est_rules_string(char *text)
{
	json_t *v = text ? json_string(text) : NULL;

	free(text);
	return v;
}

int est_rules_resolved(json_t **state_out, json_t **events_out, json_t *state, json_t *events, int error)
{
	if (error == 0) {
		*state_out = state;
		*events_out = events;
		return 0;
	}
	json_decref(state);
	json_decref(events);
	return error;
}

int est_rules_no_orders(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	(void)state;
	(void)rules;
	(void)power;
	*out = json_array();
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}
