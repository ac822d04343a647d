/*
 * The official Mustache spec, required modules (docs/mail.md): every test of each file must render exactly as expected. The
 * required modules are the spec files without a leading "~": comments,
 * delimiters, interpolation, inverted, partials and sections.
 *
 * Each file is looked for in, first found wins:
 *   $MUSTACHE_SPEC_DIR, when set;
 *   $SHARED/external/mustache-spec, or ../shared/external/mustache-spec from
 *     the working directory when SHARED is unset (tests run from the
 *     repository root): the spec revision the renderer is held to;
 *   /usr/lib/R/site-library/whisker/specs, the copy Debian's r-cran-whisker
 *     ships (tests/deps.sh installs it when shared/ has no spec): an older
 *     revision with fewer tests in each module, so only a stand-in.
 * A file found nowhere is skipped, named in a "SKIP:" line that
 * tests/run-tests.sh repeats; the other files still run and nothing fails.
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

#define WHISKER_SPEC_DIR "/usr/lib/R/site-library/whisker/specs"

static int total_run, total_passed;
static char missing[256];	/* files found nowhere, space-separated */
static char sources[1024];	/* folders the files came from, one per line */

/* The folders to look in, in order; returns how many (at most 3). */
static int spec_dirs(char *dirs[3])
{
	const char *dir = getenv("MUSTACHE_SPEC_DIR");
	const char *shared = getenv("SHARED");
	int n = 0;

	if (dir && *dir)
		dirs[n++] = est_strdup_printf("%s", dir);
	dirs[n++] = est_strdup_printf("%s/external/mustache-spec",
				      shared && *shared ? shared : "../shared");
	dirs[n++] = est_strdup_printf("%s", WHISKER_SPEC_DIR);
	for (int i = 0; i < n; i++)
		assert_non_null(dirs[i]);
	return n;
}

/* The first readable DIR/file, or NULL after a line naming the file and
 * every folder looked in. */
static char *spec_path(const char *file)
{
	char *dirs[3], *path = NULL, *dir = NULL;
	int n = spec_dirs(dirs);

	for (int i = 0; i < n && !path; i++) {
		char *candidate = est_strdup_printf("%s/%s", dirs[i], file);

		assert_non_null(candidate);
		if (access(candidate, R_OK) == 0) {
			path = candidate;
			dir = dirs[i];
		} else {
			free(candidate);
		}
	}
	if (!path) {
		printf("mustache spec %s: not found, so not run (looked in", file);
		for (int i = 0; i < n; i++)
			printf("%s %s", i ? "," : "", dirs[i]);
		printf(")\n");
		snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), " %s",
			 file);
	} else {
		char line[512];

		snprintf(line, sizeof(line), "%s%s\n", dir,
			 strcmp(dir, WHISKER_SPEC_DIR) == 0
				 ? " (r-cran-whisker's copy: an older spec revision, fewer tests)"
				 : "");
		if (!strstr(sources, line))
			snprintf(sources + strlen(sources), sizeof(sources) - strlen(sources),
				 "%s", line);
	}
	for (int i = 0; i < n; i++)
		free(dirs[i]);
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
	json_t *spec, *tests, *test;
	size_t i;
	int passed = 0, run = 0;

	if (!path) {
		skip();
		return;
	}
	spec = json_load_file(path, 0, &jerr);
	if (!spec)
		fail_msg("%s: cannot load the mustache spec: %s", path, jerr.text);
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
	char *line = sources, *end;

	(void)state;
	printf("NOTE: mustache spec: %d/%d tests passed\n", total_passed, total_run);
	for (; (end = strchr(line, '\n')); line = end + 1)
		printf("NOTE:   from %.*s\n", (int)(end - line), line);
	if (*missing) {
		char *dirs[3];
		int n = spec_dirs(dirs);

		printf("SKIP: mustache spec files not found, so not run:%s (looked in", missing);
		for (int i = 0; i < n; i++) {
			printf("%s %s", i ? "," : "", dirs[i]);
			free(dirs[i]);
		}
		printf(")\n");
	}
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
