/*
 * Fixtures every ruleset's tests share (tests/unit/ne_*, lg_*): the real
 * rules data of internal/rulesets/NAME/data/ as the engine passes it, and
 * readable JSON literals. Included by each test file; everything is static.
 */
#ifndef RULES_TEST_HELPERS_H
#define RULES_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rulesets/ruleset.h"
#include "render/render.h"
#include "util/error.h"

/* rules = {"<basename>": <parsed data/<basename>.json>} of ruleset `name`, under $TOP. */
static inline json_t *rules_load(const char *name)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	char dir[4096], path[4096 + 256 + 2];
	json_t *rules = json_object();
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/internal/rulesets/%s/data", top, name);
	d = opendir(dir);
	if (!d)
		fail_msg("%s: cannot open (run from the repository root or set TOP)", dir);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		json_error_t err;
		json_t *v;
		char base[256];

		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		v = json_load_file(path, 0, &err);
		if (!v)
			fail_msg("%s: %s", path, err.text);
		snprintf(base, sizeof(base), "%.*s", (int)(n - 5), e->d_name);
		json_object_set_new(rules, base, v);
	}
	closedir(d);
	return rules;
}

/* JSON text with ' for " (readable literals in tests). */
static inline json_t *J(const char *text)
{
	char *s = strdup(text);
	json_error_t err;
	json_t *v;
	char *p;

	assert_non_null(s);
	for (p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	v = json_loads(s, 0, &err);
	if (!v)
		fail_msg("bad test JSON %s: %s", s, err.text);
	free(s);
	return v;
}

/* `rs`'s validate() takes `orders` (JSON text with ' for ") from `power`: 0 and no diagnostics. */
static inline void rules_valid(const est_ruleset *rs, const json_t *state, const json_t *rules, const char *power,
			       const char *orders)
{
	json_t *d = NULL, *o = J(orders);

	if (rs->validate(&d, state, rules, power, o) != 0)
		fail_msg("%s's orders %s refused: %s", power, orders, d ? json_dumps(d, 0) : est_error_message());
	assert_null(d);
	json_decref(o);
}

/* The n-th (from 0) event of `type` among a step's events, or NULL. */
static inline const json_t *rules_event_nth(const json_t *events, const char *type, int n)
{
	size_t i;
	json_t *e;

	json_array_foreach(events, i, e)
		if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0 && n-- == 0)
			return e;
	return NULL;
}

/* How many events of `type` a step's events hold. */
static inline int rules_event_count(const json_t *events, const char *type)
{
	size_t i;
	json_t *e;
	int n = 0;

	json_array_foreach(events, i, e)
		n += strcmp(json_string_value(json_object_get(e, "type")), type) == 0;
	return n;
}

/* templates/<ruleset>/<name> rendered over `data` with the real renderer; caller frees. */
static inline char *rules_render(const char *ruleset, const char *name, const json_t *data, int flags)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	char path[4096], *tpl = calloc(1, 1 << 17), *out = NULL;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/templates/%s/%s", top, ruleset, name);
	assert_non_null(tpl);
	if (!(f = fopen(path, "r")))
		fail_msg("%s: cannot open", path);
	n = fread(tpl, 1, (1 << 17) - 1, f);
	tpl[n] = 0;
	fclose(f);
	if (est_render(&out, tpl, data, flags, NULL, NULL) < 0)
		fail_msg("%s: %s", name, est_error_message());
	free(tpl);
	return out;
}

/*
 * What report.c adds for an awaited player (step/report.c add_answer):
 * order_file {name, text}, orders_address, join, and the ruleset's own
 * pending choices for `state`, each as {json, text}.
 */
static inline void rules_answer(json_t *m, const est_ruleset *rs, const json_t *state, const json_t *rules,
				const char *name)
{
	json_t *pending = NULL, *choices = json_array(), *c;
	size_t i;

	assert_int_equal(rs->pending(&pending, state, rules), 0);
	json_array_foreach(json_object_get(pending, "choices"), i, c) {
		char *text = json_dumps(json_object_get(c, "order"), JSON_PRESERVE_ORDER);
		json_array_append_new(choices, json_pack("{s:s, s:O}", "json", text, "text", json_object_get(c, "text")));
		free(text);
	}
	json_object_set_new(m, "order_file", json_pack("{s:s, s:s}", "name", name, "text", "{THE ORDER FILE}"));
	json_object_set_new(m, "orders_address", json_string("orders@example.org"));
	json_object_set_new(m, "join", json_false());
	json_object_set_new(m, "choices", choices);
	json_decref(pending);
}

#endif
