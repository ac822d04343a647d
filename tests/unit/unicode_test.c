/*
 * The table of code points refused in text shown to others (util/unicode.h),
 * checked against the Unicode Character Database installed on the machine
 * (Debian's unicode-data, /usr/share/unicode, or $UCD_DIR): every code point
 * of General_Category Cc, Zl, Zp, Cf, Bidi_Control or
 * Default_Ignorable_Code_Point is refused, and no other one. A Unicode
 * version that adds one fails here until the table is generated again
 * (internal/util/unicode_table.py).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/unicode.h"

#define CODE_POINTS 0x110000u

static unsigned char *ucd_set;	/* 1 for each code point the database says to refuse */
static char **ucd_names;	/* UnicodeData.txt's name, for the non-controls */

static const char *ucd_dir(void)
{
	const char *d = getenv("UCD_DIR");

	return d && *d ? d : "/usr/share/unicode";
}

static FILE *open_ucd(const char *file)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ucd_dir(), file);
	if (!(f = fopen(path, "r")))
		fail_msg("%s: cannot open the Unicode Character Database; install Debian's "
			 "unicode-data (make deps) or set UCD_DIR", path);
	return f;
}

/* Lines "0600..0605 ; Property # ..." (or one code point) of a property file. */
static void read_property(const char *file, const char *prop)
{
	char line[1024], name[128];
	unsigned lo, hi;
	FILE *f = open_ucd(file);
	int found = 0;

	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%x..%x ; %127s", &lo, &hi, name) == 3 ||
		    (sscanf(line, "%x ; %127s", &lo, name) == 2 && (hi = lo, 1))) {
			if (strcmp(name, prop) != 0)
				continue;
			assert_true(lo <= hi && hi < CODE_POINTS);
			for (unsigned c = lo; c <= hi; c++)
				ucd_set[c] = 1;
			found++;
		}
	}
	fclose(f);
	if (!found)
		fail_msg("%s lists no %s", file, prop);
}

static int setup(void **state)
{
	char line[1024];
	FILE *f;

	(void)state;
	ucd_set = calloc(CODE_POINTS, 1);
	ucd_names = calloc(CODE_POINTS, sizeof(*ucd_names));
	assert_non_null(ucd_set);
	assert_non_null(ucd_names);
	f = open_ucd("UnicodeData.txt");
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, ';'), *cat = name ? strchr(name + 1, ';') : NULL, *end;
		unsigned cp = (unsigned)strtoul(line, NULL, 16);

		assert_non_null(cat);
		*cat++ = '\0';
		name++;
		if ((end = strchr(cat, ';')))
			*end = '\0';
		if (!strcmp(cat, "Cc") || !strcmp(cat, "Zl") || !strcmp(cat, "Zp") || !strcmp(cat, "Cf"))
			ucd_set[cp] = 1;
		if (name[0] != '<')
			ucd_names[cp] = strdup(name);
	}
	fclose(f);
	read_property("PropList.txt", "Bidi_Control");
	read_property("DerivedCoreProperties.txt", "Default_Ignorable_Code_Point");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (unsigned c = 0; c < CODE_POINTS; c++)
		free(ucd_names[c]);
	free(ucd_names);
	free(ucd_set);
	return 0;
}

static size_t encode(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The table is exactly the database's set, and names each assigned code point as it does. */
static void test_table_is_the_databases_set(void **state)
{
	unsigned refused = 0;

	(void)state;
	for (uint32_t c = 0; c < CODE_POINTS; c++) {
		const char *name = NULL;
		int in = est_unicode_is_refused(&name, c);

		if (in != ucd_set[c])
			fail_msg("U+%04X: the table says %s, Unicode %s's database says %s; run "
				 "internal/util/unicode_table.py again", (unsigned)c, in ? "refused" : "allowed",
				 est_unicode_table_version(), ucd_set[c] ? "refused" : "allowed");
		if (in && ucd_names[c] && (!name || strcmp(name, ucd_names[c]) != 0))
			fail_msg("U+%04X: the table names it \"%s\", the database \"%s\"", (unsigned)c,
				 name ? name : "(nothing)", ucd_names[c]);
		refused += in;
	}
	assert_int_equal(est_unicode_is_refused(NULL, CODE_POINTS), 0);
	assert_int_equal(est_unicode_is_refused(NULL, 0xffffffffu), 0);
	/* Unicode 15: 4174 default-ignorables, 170 format characters, 67 controls and separators. */
	assert_true(refused >= 4273);
}

/* Every refused code point, alone or between letters, is refused in a name, at its offset. */
static void test_every_refused_code_point_in_a_name(void **state)
{
	char text[8] = "a";
	est_unicode_problem p;

	(void)state;
	for (uint32_t c = 0; c < CODE_POINTS; c++) {
		size_t n;

		if (!ucd_set[c])
			continue;
		n = 1 + encode(text + 1, c);
		text[n] = 'b';
		if (est_unicode_check(&p, text, n + 1, EST_UNICODE_NAME) != EST_EINVAL || p.cp != c ||
		    p.offset != 1)
			fail_msg("U+%04X was not refused in a name", (unsigned)c);
		if (est_unicode_check(&p, text + 1, n - 1, EST_UNICODE_NAME) != EST_EINVAL || p.cp != c)
			fail_msg("U+%04X alone was not refused in a name", (unsigned)c);
	}
}

/*
 * In a message, every refused code point is refused too, but for the
 * joiners and selectors 1-16 between visible characters; and every one,
 * those included, is refused at the start or after a space.
 */
static void test_every_refused_code_point_in_a_message(void **state)
{
	char text[8] = "a";
	est_unicode_problem p;

	(void)state;
	for (uint32_t c = 0; c < CODE_POINTS; c++) {
		int context_ok = c == 0x200c || c == 0x200d || (c >= 0xfe00 && c <= 0xfe0f);
		size_t n;

		if (!ucd_set[c])
			continue;
		n = 1 + encode(text + 1, c);
		text[n] = 'b';
		if (context_ok) {
			if (est_unicode_check(&p, text, n + 1, EST_UNICODE_MESSAGE) != 0)
				fail_msg("U+%04X between letters was refused in a message", (unsigned)c);
		} else if (est_unicode_check(&p, text, n + 1, EST_UNICODE_MESSAGE) != EST_EINVAL || p.cp != c) {
			fail_msg("U+%04X was not refused in a message", (unsigned)c);
		}
		text[0] = ' ';
		if (est_unicode_check(&p, text, n + 1, EST_UNICODE_MESSAGE) != EST_EINVAL || p.cp != c ||
		    p.offset != 1)
			fail_msg("U+%04X after a space was not refused in a message", (unsigned)c);
		if (est_unicode_check(&p, text + 1, n, EST_UNICODE_MESSAGE) != EST_EINVAL || p.cp != c)
			fail_msg("U+%04X at the start was not refused in a message", (unsigned)c);
		text[0] = 'a';
	}
}

static int check(const char *s, enum est_unicode_kind kind)
{
	return est_unicode_check(NULL, s, strlen(s), kind);
}

/* Letters of many scripts, combining marks and plain emoji are text, in a name or a message. */
static void test_ordinary_text(void **state)
{
	static const char *const ok[] = {
		"France player", "Napol\xc3\xa9on Bonaparte", "\xd0\x9a\xd1\x83\xd1\x82\xd1\x83\xd0\xb7\xd0\xbe\xd0\xb2",
		"\xd9\x86\xd8\xa7\xd8\xa8\xd9\x84\xd9\x8a\xd9\x88\xd9\x86",	/* Arabic, right to left by itself */
		"\xe0\xa4\xa8\xe0\xa5\x87\xe0\xa4\xaa\xe0\xa5\x8b\xe0\xa4\xb2\xe0\xa4\xbf\xe0\xa4\xaf\xe0\xa4\xa8", /* Devanagari */
		"\xe3\x83\x8a\xe3\x83\x9d\xe3\x83\xac\xe3\x82\xaa\xe3\x83\xb3", "e\xcc\x81", /* e + combining acute */
		"\xf0\x9f\x91\x8d \xf0\x9f\x8f\xb0", "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd", /* thumbs up, skin tone */
		"tab\xc2\xa0non-breaking", "1\xe2\x83\xa3", NULL,
	};

	(void)state;
	for (size_t i = 0; ok[i]; i++) {
		assert_int_equal(check(ok[i], EST_UNICODE_NAME), 0);
		assert_int_equal(check(ok[i], EST_UNICODE_MESSAGE), 0);
	}
}

/*
 * Emoji sequences and a Persian non-joiner are prose: allowed in a message,
 * never in a name (where "Fra\u200Cnce" would look like "France").
 */
/*
 * A run of blanks (spaces of any width, the braille blank) may not push the
 * text after it onto a line of its own, where it would read as another line
 * of the report: "Agreed." and 200 ideographic spaces before a fake press line.
 */
static void test_blank_runs(void **state)
{
	static const char *const blanks[] = { " ", "\xe3\x80\x80", "\xe2\xa0\x80", "\xc2\xa0" };
	est_unicode_problem problem;
	char text[4096];

	for (size_t b = 0; b < sizeof(blanks) / sizeof(*blanks); b++) {
		for (int run = 1; run <= 200; run += run < 12 ? 1 : 47) {
			size_t len = (size_t)snprintf(text, sizeof(text), "Agreed.");

			for (int k = 0; k < run; k++)
				len += (size_t)snprintf(text + len, sizeof(text) - len, "%s", blanks[b]);
			len += (size_t)snprintf(text + len, sizeof(text) - len, "- Press from allies");
			if (run <= EST_UNICODE_MAX_BLANKS) {
				assert_int_equal(est_unicode_check(NULL, text, len, EST_UNICODE_MESSAGE), 0);
				continue;
			}
			assert_int_equal(est_unicode_check(&problem, text, len, EST_UNICODE_MESSAGE), EST_EINVAL);
			assert_int_equal(problem.offset, 7);
			assert_non_null(strstr(est_error_message(), "blank characters in a row (from byte 7)"));
			assert_int_equal(est_unicode_check(NULL, text, len, EST_UNICODE_NAME), EST_EINVAL);
		}
	}
	/* Blanks of different kinds count as one run. */
	{
		static const char mixed[] = "a     \xe3\x80\x80\xe2\xa0\x80  \xc2\xa0" "b";

		assert_int_equal(est_unicode_check(NULL, mixed, strlen(mixed), EST_UNICODE_MESSAGE),
				 EST_EINVAL);
	}
}

static void test_joiners_and_selectors(void **state)
{
	static const char *const message_only[] = {
		"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7", /* family: ZWJ */
		"\xe2\x9d\xa4\xef\xb8\x8f", "I \xe2\x9d\xa4\xef\xb8\x8f Paris",	/* red heart: VS16 */
		"\xe2\x9d\xa4\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x94\xa5",		/* heart on fire: VS16 then ZWJ */
		"\xf0\x9f\x8f\xb3\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x8c\x88",		/* rainbow flag */
		"1\xef\xb8\x8f\xe2\x83\xa3",						/* keycap one */
		"\xd9\x85\xdb\x8c\xe2\x80\x8c\xd8\xae\xd9\x88\xd8\xa7\xd9\x87\xd9\x85", /* Persian, ZWNJ */
		NULL,
	};
	static const char *const never[] = {
		"\xe2\x80\x8d", "\xe2\x80\x8d\xf0\x9f\x91\xa9", "\xf0\x9f\x91\xa8\xe2\x80\x8d",
		"\xf0\x9f\x91\xa8\xe2\x80\x8d\xe2\x80\x8d\xf0\x9f\x91\xa9",	/* two joiners */
		"\xf0\x9f\x91\xa8\xe2\x80\x8d \xf0\x9f\x91\xa9",			/* joiner before a space */
		"\xf0\x9f\x91\xa8 \xe2\x80\x8d\xf0\x9f\x91\xa9",			/* joiner after a space */
		"\xe2\x9d\xa4\xef\xb8\x8f\xef\xb8\x8f", "\xef\xb8\x8f",		/* two selectors; a lone one */
		"a\xe2\x80\x8d\xe2\x80\x8f" "b",					/* joiner before a mark */
		"a\xe2\x80\x8f\xe2\x80\x8d" "b",					/* joiner after a mark */
		"\xf0\x9f\x8f\xb4\xf3\xa0\x81\xa7\xf3\xa0\x81\xa2\xf3\xa0\x81\xbf", /* a flag spelt with tags */
		NULL,
	};

	(void)state;
	for (size_t i = 0; message_only[i]; i++) {
		if (check(message_only[i], EST_UNICODE_MESSAGE) != 0)
			fail_msg("message %zu refused: %s", i, est_error_message());
		assert_int_equal(check(message_only[i], EST_UNICODE_NAME), EST_EINVAL);
	}
	for (size_t i = 0; never[i]; i++) {
		if (check(never[i], EST_UNICODE_MESSAGE) != EST_EINVAL)
			fail_msg("never %zu accepted in a message", i);
		assert_int_equal(check(never[i], EST_UNICODE_NAME), EST_EINVAL);
	}
}

/* Bytes that are not UTF-8 are refused with their offset, whatever the kind. */
static void test_not_utf8(void **state)
{
	static const char *const bad[] = {
		"a\xc0\x80", "a\xed\xa0\x80", "a\xf4\x90\x80\x80", "a\xf5\x80\x80\x80", "a\xe2\x80",
		"a\x80", "a\xff", NULL,
	};
	est_unicode_problem p;

	(void)state;
	for (size_t i = 0; bad[i]; i++) {
		assert_int_equal(est_unicode_check(&p, bad[i], strlen(bad[i]), EST_UNICODE_MESSAGE), EST_EINVAL);
		assert_int_equal(p.cp, EST_UNICODE_BAD_UTF8);
		assert_int_equal(p.offset, 1);
	}
	/* A NUL byte inside the length is U+0000, a control. */
	assert_int_equal(est_unicode_check(&p, "a\0b", 3, EST_UNICODE_MESSAGE), EST_EINVAL);
	assert_string_equal(p.what, "U+0000 NULL");
}

/* The message names the code point by its Unicode name and says what to do. */
static void test_messages(void **state)
{
	est_unicode_problem p;

	(void)state;
	assert_int_equal(check("ab\xd8\x9c", EST_UNICODE_MESSAGE), EST_EINVAL);
	assert_string_equal(est_error_message(),
			    "holds U+061C ARABIC LETTER MARK (at byte 2), an invisible control or "
			    "formatting character that could hide, reorder or forge the text around it; "
			    "remove it");
	assert_int_equal(est_unicode_check(&p, "\n", 1, EST_UNICODE_NAME), EST_EINVAL);
	assert_string_equal(p.what, "U+000A LINE FEED");
	assert_int_equal(est_unicode_check(&p, "\xc2\xad", 2, EST_UNICODE_NAME), EST_EINVAL);
	assert_string_equal(p.what, "U+00AD SOFT HYPHEN");
	assert_int_equal(est_unicode_check(&p, "\xc2\x85", 2, EST_UNICODE_NAME), EST_EINVAL);
	assert_string_equal(p.what, "U+0085 NEXT LINE");
	assert_int_equal(est_unicode_check(&p, "\xf3\xa0\x82\x80", 4, EST_UNICODE_NAME), EST_EINVAL);
	assert_string_equal(p.what, "U+E0080 (a reserved code point)");
	assert_int_equal(est_unicode_check(&p, "\xef\xbb\xbf", 3, EST_UNICODE_NAME), EST_EINVAL);
	assert_string_equal(p.what, "U+FEFF ZERO WIDTH NO-BREAK SPACE");
	assert_int_equal(est_unicode_check(&p, "x\xe2\x81\xa6", 4, EST_UNICODE_MESSAGE), EST_EINVAL);
	assert_string_equal(p.what, "U+2066 LEFT-TO-RIGHT ISOLATE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_the_databases_set),
		cmocka_unit_test(test_every_refused_code_point_in_a_name),
		cmocka_unit_test(test_every_refused_code_point_in_a_message),
		cmocka_unit_test(test_ordinary_text),
		cmocka_unit_test(test_joiners_and_selectors),
		cmocka_unit_test(test_blank_runs),
		cmocka_unit_test(test_not_utf8),
		cmocka_unit_test(test_messages),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
