/*
 * What estafette asks of the renderer beyond the Mustache spec: plain-text
 * output, errors a template author can act on, a bound on partial
 * recursion, partials from a template folder that cannot reach outside it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "render/render.h"
#include "util/error.h"
#include "util/util.h"

static json_t *parse_json(const char *text)
{
	json_error_t jerr;
	json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);

	if (!v)
		fail_msg("bad test JSON: %s", jerr.text);
	return v;
}

/* Render with partials from a JSON object of name -> text. */
static int spec_partials(char **out, const char *name, void *payload)
{
	const json_t *text = json_object_get((const json_t *)payload, name);

	if (!json_is_string(text))
		return est_error_set(EST_ENOTFOUND, "partial \"%s\": not found", name);
	*out = strdup(json_string_value(text));
	return *out ? 0 : EST_ENOMEM;
}

/* Render `template` over `data` (JSON text) and compare with `expected`. */
static void assert_renders(const char *template, const char *data, int flags,
			   const char *expected)
{
	json_t *json = data ? parse_json(data) : NULL;
	char *got = NULL;
	int error = est_render(&got, template, json, flags, NULL, NULL);

	if (error < 0)
		fail_msg("render of \"%s\" failed: %s", template, est_error_message());
	assert_string_equal(got, expected);
	free(got);
	json_decref(json);
}

/*
 * Render `template` (with `partials`, a JSON object or NULL) expecting
 * `code`; the message must hold each of the NULL-ended `words`.
 */
static void assert_fails(const char *template, const char *partials, int code, ...)
{
	json_t *parts = partials ? parse_json(partials) : NULL;
	char *got = (char *)"untouched";
	const char *word;
	va_list ap;

	est_error_clear();
	assert_int_equal(est_render(&got, template, NULL, 0, parts ? spec_partials : NULL, parts),
			 code);
	assert_string_equal(got, "untouched");
	va_start(ap, code);
	while ((word = va_arg(ap, const char *)))
		if (!strstr(est_error_message(), word))
			fail_msg("message \"%s\" lacks \"%s\"", est_error_message(), word);
	va_end(ap);
	json_decref(parts);
}

/* Mail and plain-text reports: {{x}} goes in as it is. */
static void test_no_escape_flag(void **state)
{
	const char *data = "{\"unit\": \"Ney's <Guard> & \\\"cavalry\\\"\"}";

	assert_renders("{{unit}}", data, EST_RENDER_ESCAPE_HTML,
		       "Ney&#39;s &lt;Guard&gt; &amp; &quot;cavalry&quot;");
	assert_renders("{{unit}}", data, EST_RENDER_NO_ESCAPE, "Ney's <Guard> & \"cavalry\"");
	assert_renders("{{{unit}}}|{{&unit}}", data, EST_RENDER_ESCAPE_HTML,
		       "Ney's <Guard> & \"cavalry\"|Ney's <Guard> & \"cavalry\"");
	assert_renders("{{#l}}{{.}}{{/l}}", "{\"l\": [\"<\", \">\"]}", EST_RENDER_NO_ESCAPE, "<>");
}

static void test_bad_arguments(void **state)
{
	char *got = NULL;

	assert_int_equal(est_render(&got, "x", NULL, 2, NULL, NULL), EST_EINVAL);
	assert_int_equal(est_render(&got, NULL, NULL, 0, NULL, NULL), EST_EINVAL);
	assert_int_equal(est_render(NULL, "x", NULL, 0, NULL, NULL), EST_EINVAL);
	assert_null(got);
}

/* No data at all: every name misses, "." is empty. */
static void test_null_data(void **state)
{
	assert_renders("a{{x}}b{{{y.z}}}{{#s}}no{{/s}}{{^s}}yes{{/s}}[{{.}}]", NULL, 0, "abyes[]");
	assert_renders("", NULL, 0, "");
}

static void test_values(void **state)
{
	const char *data = "{\"whole\": 100.0, \"tenth\": 0.1, \"huge\": 1e300, \"neg\": -2.5,"
			   " \"third\": 0.3333333333333333, \"big\": 9007199254740993,"
			   " \"yes\": true, \"no\": false, \"list\": [1, \"a\"], \"obj\": {\"k\": 1}}";

	assert_renders("{{whole}} {{tenth}} {{huge}} {{neg}} {{third}} {{big}}", data, 0,
		       "100 0.1 1e+300 -2.5 0.3333333333333333 9007199254740993");
	assert_renders("{{yes}} {{no}}", data, 0, "true false");
	assert_renders("{{{list}}} {{{obj}}}", data, 0, "[1,\"a\"] {\"k\":1}");
	/* The spec's "!!data" truthiness: "" and 0 are truthy. */
	assert_renders("{{#e}}e{{/e}}{{#z}}z{{/z}}{{^o}}o{{/o}}", "{\"e\": \"\", \"z\": 0, \"o\": {}}",
		       0, "ez");
}

static void test_error_lines(void **state)
{
	assert_fails("Turn {{step}}\n\n{{#units}}\n{{name}}\n", NULL, EST_EINVAL,
		     "line 3", "units", "never closed", (char *)NULL);
	assert_fails("{{#a}}\nx\n{{/b}}\n", NULL, EST_EINVAL,
		     "line 3", "{{/b}}", "\"a\" opened on line 1", (char *)NULL);
	assert_fails("x\n{{/a}}", NULL, EST_EINVAL, "line 2", "{{/a}}", "closes no open section",
		     (char *)NULL);
	assert_fails("hello\n\n{{name", NULL, EST_EINVAL, "line 3", "{{name", "never closed",
		     (char *)NULL);
	assert_fails("{{{name}}", NULL, EST_EINVAL, "line 1", "never closed", "}}}", (char *)NULL);
	assert_fails("a\n{{=<%=}}", NULL, EST_EINVAL, "line 2", "two delimiters", (char *)NULL);
	assert_fails("{{#}}", NULL, EST_EINVAL, "line 1", "no name", (char *)NULL);
	assert_fails("{{a b}}", NULL, EST_EINVAL, "line 1", "{{a b}}", "white space",
		     (char *)NULL);
	/* After a delimiter change the message shows the delimiters in use. */
	assert_fails("{{=<% %>=}}\n<%#a%>", NULL, EST_EINVAL, "line 2", "\"a\"", (char *)NULL);
	assert_fails("{{=<% %>=}}\n\n<%/b%>", NULL, EST_EINVAL, "line 3", "<%/b%>", (char *)NULL);
	{
		/* Sections may nest 100 deep, not deeper. */
		char deep[101 * 12 + 1] = "";
		int i;

		for (i = 0; i < 100; i++)
			strcat(deep, "{{#a}}");
		for (i = 0; i < 100; i++)
			strcat(deep, "{{/a}}");
		assert_renders(deep, "{\"a\": true}", 0, "");
		memmove(deep + 6, deep, strlen(deep) + 1);
		memcpy(deep, "{{#a}}", 6);
		assert_fails(deep, NULL, EST_EINVAL, "line 1", "more than 100", (char *)NULL);
	}
	/* A fault inside a partial names the partial and its own line. */
	assert_fails("one\n{{>row}}", "{\"row\": \"ok\\n{{#x}}\"}", EST_EINVAL,
		     "partial \"row\"", "line 2", "\"x\"", (char *)NULL);
}

/* A partial that includes itself without end stops at the depth limit. */
static void test_recursion_limit(void **state)
{
	json_t *parts = parse_json("{\"self\": \"{{>self}}\", \"node\": \"x{{#n}}{{>node}}{{/n}}\"}");
	json_t *data = json_object(), *inner = data;
	char *got = NULL;
	int i;

	est_error_clear();
	assert_int_equal(est_render(&got, "{{>self}}", NULL, 0, spec_partials, parts), EST_EINVAL);
	assert_null(got);
	assert_non_null(strstr(est_error_message(), "\"self\""));
	assert_non_null(strstr(est_error_message(), "64"));

	/*
	 * Data-bounded recursion up to the limit renders: 64 nested partials.
	 * The innermost "n" is null, else the lookup would find its parent's.
	 */
	for (i = 1; i < EST_RENDER_MAX_PARTIAL_DEPTH; i++) {
		json_t *next = json_object();

		json_object_set_new(inner, "n", next);
		inner = next;
	}
	json_object_set_new(inner, "n", json_null());
	assert_int_equal(est_render(&got, "{{>node}}", data, 0, spec_partials, parts), 0);
	assert_int_equal(strlen(got), EST_RENDER_MAX_PARTIAL_DEPTH);
	free(got);
	got = NULL;
	/* One level more is refused. */
	json_object_set_new(inner, "n", parse_json("{\"n\": null}"));
	assert_int_equal(est_render(&got, "{{>node}}", data, 0, spec_partials, parts), EST_EINVAL);
	assert_null(got);
	json_decref(data);
	json_decref(parts);
}

static int calls;

static int failing_loader(char **out, const char *name, void *payload)
{
	calls++;
	if (strcmp(name, "broken") == 0)
		return est_error_set(EST_EIO, "templates/broken.mustache: read error");
	*out = strdup("[{{.}}]");
	return *out ? 0 : EST_ENOMEM;
}

/* Loader errors other than "not found" abort; each name loads once. */
static void test_loader_errors_and_cache(void **state)
{
	json_t *data = parse_json("[1, 2, 3]");
	char *got = NULL;

	calls = 0;
	assert_int_equal(est_render(&got, "{{#.}}{{>cell}}\n  {{>cell}}\n{{/.}}", data, 0,
				    failing_loader, NULL), 0);
	/* The second tag stands alone: indented, and its line end swallowed. */
	assert_string_equal(got, "[1]\n  [1][2]\n  [2][3]\n  [3]");
	assert_int_equal(calls, 1);
	free(got);
	got = NULL;
	assert_int_equal(est_render(&got, "a{{>broken}}b", data, 0, failing_loader, NULL), EST_EIO);
	assert_null(got);
	assert_string_equal(est_error_message(), "templates/broken.mustache: read error");
	json_decref(data);
}

struct folder {
	char path[64];
};

static int make_folder(void **state)
{
	struct folder *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->path, "/tmp/est-render-XXXXXX");
	assert_non_null(mkdtemp(f->path));
	*state = f;
	return 0;
}

static int remove_folder(void **state)
{
	struct folder *f = *state;
	char *cmd = est_strdup_printf("rm -rf '%s'", f->path);

	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(f);
	return 0;
}

static void write_in(const struct folder *f, const char *name, const char *text)
{
	char *path = est_strdup_printf("%s/%s", f->path, name);

	assert_int_equal(est_file_write_atomic(path, text, strlen(text), 0644), 0);
	free(path);
}

static void test_file_partials(void **state)
{
	struct folder *f = *state;
	json_t *data = parse_json("{\"step\": 7, \"units\": [{\"name\": \"Ney\"}, {\"name\": \"Murat\"}]}");
	char *got = NULL;

	write_in(f, "header.mustache", "Turn {{step}}\n");
	write_in(f, "unit.mustache", "- {{name}}\n");
	write_in(f, "secret", "must not be read\n");

	assert_int_equal(est_render(&got, "{{>header}}\n{{#units}}\n  {{>unit}}\n{{/units}}{{>missing}}.",
				    data, EST_RENDER_NO_ESCAPE, est_render_file_partials, f->path), 0);
	assert_string_equal(got, "Turn 7\n  - Ney\n  - Murat\n.");
	free(got);
	got = NULL;

	/* A template may not reach outside its folder. */
	est_error_clear();
	assert_int_equal(est_render(&got, "{{>../x}}", data, 0, est_render_file_partials, f->path),
			 EST_EINVAL);
	assert_null(got);
	assert_non_null(strstr(est_error_message(), "../x"));
	assert_int_equal(est_render_file_partials(&got, ".hidden", f->path), EST_EINVAL);
	assert_int_equal(est_render_file_partials(&got, "sub/unit", f->path), EST_EINVAL);
	assert_int_equal(est_render_file_partials(&got, "", f->path), EST_EINVAL);
	assert_int_equal(est_render_file_partials(&got, "secret", f->path), EST_ENOTFOUND);
	assert_null(got);

	assert_int_equal(est_render_file_partials(&got, "unit", f->path), 0);
	assert_string_equal(got, "- {{name}}\n");
	free(got);
	json_decref(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_escape_flag),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_null_data),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_error_lines),
		cmocka_unit_test(test_recursion_limit),
		cmocka_unit_test(test_loader_errors_and_cache),
		cmocka_unit_test_setup_teardown(test_file_partials, make_folder, remove_folder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
