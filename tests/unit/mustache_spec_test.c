/*
 * The official Mustache spec, required modules (DESIGN.md "Reports and
 * mail"): every test of each file must render exactly as expected.
 *
 * The spec folder is $MUSTACHE_SPEC_DIR, else $SHARED/external/mustache-spec,
 * else ../shared/external/mustache-spec from the working directory (tests
 * run from the repository root).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "render/render.h"
#include "util/error.h"
#include "util/util.h"

static int total_run, total_passed;

static char *spec_path(const char *file)
{
	const char *dir = getenv("MUSTACHE_SPEC_DIR");
	const char *shared = getenv("SHARED");
	char *path;

	if (dir && *dir)
		path = est_strdup_printf("%s/%s", dir, file);
	else if (shared && *shared)
		path = est_strdup_printf("%s/external/mustache-spec/%s", shared, file);
	else
		path = est_strdup_printf("../shared/external/mustache-spec/%s", file);
	assert_non_null(path);
	return path;
}

/* Partials come from the test's "partials" object. */
static int spec_partials(char **out, const char *name, void *payload)
{
	const json_t *text = json_object_get((const json_t *)payload, name);

	if (!json_is_string(text))
		return EST_ENOTFOUND;
	*out = strdup(json_string_value(text));
	return *out ? 0 : EST_ENOMEM;
}

/* Run every test of one spec file; fail if any output differs. */
static void run_spec_file(const char *file)
{
	char *path = spec_path(file);
	json_error_t jerr;
	json_t *spec = json_load_file(path, 0, &jerr), *tests, *test;
	size_t i;
	int passed = 0, run = 0;

	if (!spec)
		fail_msg("%s: cannot load the mustache spec: %s (set MUSTACHE_SPEC_DIR)",
			 path, jerr.text);
	tests = json_object_get(spec, "tests");
	assert_true(json_is_array(tests));
	assert_true(json_array_size(tests) > 0);
	json_array_foreach(tests, i, test) {
		const char *name = json_string_value(json_object_get(test, "name"));
		const char *template = json_string_value(json_object_get(test, "template"));
		const char *expected = json_string_value(json_object_get(test, "expected"));
		json_t *partials = json_object_get(test, "partials");
		char *got = NULL;
		int error;

		assert_non_null(name);
		assert_non_null(template);
		assert_non_null(expected);
		run++;
		error = est_render(&got, template, json_object_get(test, "data"),
				   EST_RENDER_ESCAPE_HTML, spec_partials, partials);
		if (error < 0)
			printf("FAIL %s: \"%s\": error %d: %s\n", file, name, error,
			       est_error_message());
		else if (strcmp(got, expected) != 0)
			printf("FAIL %s: \"%s\"\n  template: %s\n  expected: %s\n  got:      %s\n",
			       file, name, template, expected, got);
		else
			passed++;
		free(got);
	}
	printf("mustache spec %s: %d/%d passed\n", file, passed, run);
	total_run += run;
	total_passed += passed;
	json_decref(spec);
	free(path);
	assert_int_equal(passed, run);
}

static void test_comments(void **state) { (void)state; run_spec_file("comments.json"); }
static void test_delimiters(void **state) { (void)state; run_spec_file("delimiters.json"); }
static void test_interpolation(void **state) { (void)state; run_spec_file("interpolation.json"); }
static void test_inverted(void **state) { (void)state; run_spec_file("inverted.json"); }
static void test_partials(void **state) { (void)state; run_spec_file("partials.json"); }
static void test_sections(void **state) { (void)state; run_spec_file("sections.json"); }

static int print_total(void **state)
{
	(void)state;
	printf("mustache spec: %d/%d passed\n", total_passed, total_run);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_delimiters),
		cmocka_unit_test(test_interpolation),
		cmocka_unit_test(test_inverted),
		cmocka_unit_test(test_partials),
		cmocka_unit_test(test_sections),
	};

	return cmocka_run_group_tests(tests, NULL, print_total);
}
