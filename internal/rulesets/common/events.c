/* The step's event log, shared by the rulesets. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "rulesets/common/events.h"
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
