/*
 * Order files (docs/protocol.md "Order files"): strict parsing of real byte
 * strings, every refusal with its message, and the binding and seq checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

#define FILENAME "orders/france.json"
#define PREV "3f2a9c0d1e4b5a6978c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6"
#define ENTROPY "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The top-level fields in file order, and a valid raw JSON value for each. */
static const char *const names[] = { "estafette", "game", "step", "player", "prev",
				     "seq", "entropy", "orders", "press" };
static const char *const valid[] = {
	"\"orders/1\"", "\"ne-001\"", "7", "\"france\"", "\"" PREV "\"", "2",
	"\"" ENTROPY "\"",
	"[{\"type\": \"move\", \"unit\": \"army-1\", \"to\": \"vienna\", \"strength\": 3},\n"
	" {\"type\": \"hold\", \"unit\": \"fleet-2\"}]",
	"[{\"to\": \"all\", \"text\": \"Vive l'Empereur ! \xc3\xa9t\xc3\xa9\"},\n"
	" {\"to\": [\"england\", \"austria\"], \"text\": \"secret\"}]",
};
#define FIELD_COUNT 9

/*
 * An order file with field `name` set to the raw JSON `raw` (NULL: left
 * out); name NULL gives the valid file. One field a line. Caller frees.
 */
static char *order_with(const char *name, const char *raw)
{
	char *doc = strdup("{"), *next;
	int i, first = 1;

	assert_non_null(doc);
	for (i = 0; i < FIELD_COUNT; i++) {
		const char *value = valid[i];

		if (name && strcmp(name, names[i]) == 0)
			value = raw;
		if (!value)
			continue;
		next = est_strdup_printf("%s%s\"%s\": %s", doc, first ? "" : ",\n ", names[i], value);
		assert_non_null(next);
		free(doc);
		doc = next;
		first = 0;
	}
	next = est_strdup_printf("%s}\n", doc);
	assert_non_null(next);
	free(doc);
	return next;
}

static void assert_message(const char *word)
{
	const char *msg = est_error_message();

	if (strncmp(msg, FILENAME ": ", strlen(FILENAME) + 2) != 0)
		fail_msg("message does not start with the file name: %s", msg);
	if (!strstr(msg, word))
		fail_msg("message lacks \"%s\": %s", word, msg);
}

/* Parsing `bytes` must fail with EST_EINVAL, a message holding `word`, no result. */
static void refuse_bytes(const char *bytes, size_t len, const char *word)
{
	est_order *o = (est_order *)1;

	est_error_clear();
	if (est_orders_parse(&o, FILENAME, bytes, len) != EST_EINVAL)
		fail_msg("accepted or wrong code for <%.200s>: %s", bytes, est_error_message());
	assert_int_equal(est_error_code(), EST_EINVAL);
	assert_ptr_equal(o, (est_order *)1);
	assert_message(word);
}

static void refuse_text(const char *text, const char *word)
{
	refuse_bytes(text, strlen(text), word);
}

static void refuse_field(const char *name, const char *raw, const char *word)
{
	char *doc = order_with(name, raw);

	refuse_text(doc, word);
	free(doc);
}

static est_order *parse_ok(const char *bytes, size_t len)
{
	est_order *o = NULL;

	if (est_orders_parse(&o, FILENAME, bytes, len) != 0)
		fail_msg("refused: %s", est_error_message());
	assert_non_null(o);
	return o;
}

/* Every field of a valid file, and the input bytes left as they were. */
static void test_valid_file(void **state)
{
	char *doc = order_with(NULL, NULL), *copy = strdup(doc);
	size_t len = strlen(doc);
	est_order *o;
	json_t *press;

	(void)state;
	o = parse_ok(doc, len);
	assert_string_equal(o->game, "ne-001");
	assert_int_equal(o->step, 7);
	assert_string_equal(o->player, "france");
	assert_string_equal(o->prev, PREV);
	assert_int_equal(o->seq, 2);
	assert_string_equal(o->entropy, ENTROPY);
	assert_true(json_is_array(o->orders));
	assert_int_equal(json_array_size(o->orders), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(o->orders, 0), "to")),
			    "vienna");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(o->orders, 0), "strength")), 3);
	press = o->press;
	assert_int_equal(json_array_size(press), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(press, 0), "text")),
			    "Vive l'Empereur ! \xc3\xa9t\xc3\xa9");
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_array_get(press, 1),
									      "to"), 1)), "austria");
	assert_ptr_equal(o->orders, json_object_get(o->root, "orders"));
	assert_int_equal(json_object_size(o->root), 9);

	/* parse only reads: the signed bytes are as received */
	assert_memory_equal(doc, copy, len + 1);
	est_orders_free(o);
	est_orders_free(NULL);
	free(doc);
	free(copy);
}

/* No press: o->press is NULL. The bytes need no NUL: only `len` counts. */
static void test_valid_without_press_and_unterminated(void **state)
{
	char *doc = order_with("press", NULL);
	size_t len = strlen(doc);
	char *buf = malloc(len + 8);
	est_order *o;

	(void)state;
	assert_non_null(buf);
	memcpy(buf, doc, len);
	memcpy(buf + len, "garbage!", 8); /* after the end: never read */
	o = parse_ok(buf, len);
	assert_null(o->press);
	assert_int_equal(json_array_size(o->orders), 2);
	assert_memory_equal(buf + len, "garbage!", 8);
	est_orders_free(o);

	/* an empty orders list passes the step */
	free(doc);
	doc = order_with("orders", "[]");
	o = parse_ok(doc, strlen(doc));
	assert_int_equal(json_array_size(o->orders), 0);
	est_orders_free(o);
	free(doc);
	free(buf);
}

/* At most 64 KiB: 65536 bytes pass, 65537 do not. */
static void test_size_limit(void **state)
{
	char *doc = order_with(NULL, NULL);
	size_t len = strlen(doc);
	char *big = malloc(EST_ORDERS_MAX_BYTES + 2);
	est_order *o;

	(void)state;
	assert_non_null(big);
	memset(big, ' ', EST_ORDERS_MAX_BYTES + 1);
	memcpy(big, doc, len); /* JSON allows trailing white space */
	o = parse_ok(big, EST_ORDERS_MAX_BYTES);
	est_orders_free(o);
	refuse_bytes(big, EST_ORDERS_MAX_BYTES + 1, "64 KiB");
	refuse_bytes(big, EST_ORDERS_MAX_BYTES + 1, "65537 bytes");
	free(big);
	free(doc);
}

static void test_byte_order_mark(void **state)
{
	char *doc = order_with(NULL, NULL);
	char *bom = est_strdup_printf("\xEF\xBB\xBF%s", doc);

	(void)state;
	refuse_text(bom, "without BOM");
	free(bom);
	free(doc);
}

static void test_invalid_utf8(void **state)
{
	(void)state;
	/* a Latin-1 é (0xE9) on line 2, after 10 characters */
	refuse_field("press", "[{\"to\": \"all\",\n \"text\": \"\xE9t\xE9\"}]", "invalid UTF-8");
	refuse_text("{\"orders\": [],\n\"ab\xC3\x28\": 1}", "line 2, column 4");
	/* overlong '/', a UTF-16 surrogate, beyond U+10FFFF, a truncated sequence */
	refuse_text("{\"a\": \"\xC0\xAF\"}", "invalid UTF-8");
	refuse_text("{\"a\": \"\xED\xA0\x80\"}", "invalid UTF-8");
	refuse_text("{\"a\": \"\xF4\x90\x80\x80\"}", "invalid UTF-8");
	refuse_bytes("{\"a\": \"\xE2\x82", 9, "invalid UTF-8");
}

static void test_nul_bytes(void **state)
{
	static const char raw[] = "{\"estafette\": \"orders/1\",\n \"game\": \"ne\0-001\"}";
	char *doc = order_with(NULL, NULL), *utf16;
	size_t len = strlen(doc), i;

	(void)state;
	refuse_bytes(raw, sizeof(raw) - 1, "NUL byte");
	refuse_bytes(raw, sizeof(raw) - 1, "line 2, column 13");
	refuse_field("player", "\"fran\\u0000ce\"", "\\u0000");

	/* a file saved as UTF-16LE is all NULs between the characters */
	utf16 = calloc(2, len);
	assert_non_null(utf16);
	for (i = 0; i < len; i++)
		utf16[2 * i] = doc[i];
	refuse_bytes(utf16, 2 * len, "UTF-16");
	free(utf16);
	free(doc);
}

static void test_duplicate_keys(void **state)
{
	char *doc = order_with(NULL, NULL), *twice;

	(void)state;
	/* "step" twice at the top level */
	twice = est_strdup_printf("{\"step\": 6,\n %s", doc + 1);
	refuse_text(twice, "duplicate");
	refuse_text(twice, "only once");
	free(twice);
	/* and inside an order */
	refuse_field("orders", "[{\"type\": \"move\", \"unit\": \"a\", \"unit\": \"b\"}]", "duplicate");
	free(doc);
}

/* `depth` nested arrays inside one order's "x": total depth depth + 3. */
static char *nested_order(int depth)
{
	char *raw = malloc((size_t)(2 * depth + 32)), *doc;
	int i, n = 0;

	assert_non_null(raw);
	n += sprintf(raw + n, "[{\"x\": ");
	for (i = 0; i < depth; i++)
		raw[n++] = '[';
	for (i = 0; i < depth; i++)
		raw[n++] = ']';
	sprintf(raw + n, "}]");
	doc = order_with("orders", raw);
	free(raw);
	return doc;
}

static void test_nesting_depth(void **state)
{
	char *doc, *bomb;
	est_order *o;
	clock_t start;

	(void)state;
	/* top object 1, orders 2, the order 3, then 29 arrays: 32 levels pass */
	doc = nested_order(29);
	o = parse_ok(doc, strlen(doc));
	est_orders_free(o);
	free(doc);
	doc = nested_order(30);
	refuse_text(doc, "nested more than 32");
	free(doc);

	/* brackets inside strings are text, not nesting */
	doc = order_with("press", "[{\"to\": \"all\", \"text\": \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{{{{\\\"[[[[\"}]");
	o = parse_ok(doc, strlen(doc));
	est_orders_free(o);
	free(doc);

	/* a bomb of 60000 '[' is refused at the 33rd, cheaply */
	bomb = malloc(60001);
	assert_non_null(bomb);
	memset(bomb, '[', 60000);
	bomb[60000] = '\0';
	start = clock();
	refuse_text(bomb, "line 1, column 33");
	assert_true(clock() - start < CLOCKS_PER_SEC / 10);
	free(bomb);
}

static void test_numbers_are_integers(void **state)
{
	(void)state;
	refuse_field("step", "7.0", "field \"step\" is 7.0, not an integer");
	refuse_field("seq", "2e0", "not an integer");
	refuse_field("orders", "[{\"type\": \"hold\"}, {\"type\": \"move\", \"strength\": 2.5}]",
		     "field \"orders[1].strength\" is 2.5");
	refuse_field("orders", "[{\"odd key\": [1, 2, 1E4]}]", "orders[0][\"odd key\"][2]");
	/* a count that would wrap when a ruleset narrows it to 32 bits */
	refuse_field("orders", "[{\"type\": \"move\", \"armies\": 4294967301}]",
		     "field \"orders[0].armies\" is 4294967301, outside what an order may say");
	refuse_field("orders", "[{\"type\": \"move\", \"armies\": -2147483649}]",
		     "is -2147483649, outside");
	/* integers beyond 64 bits are a parse error, with the position */
	refuse_field("seq", "99999999999999999999", "too big");
}

static void test_top_level(void **state)
{
	(void)state;
	refuse_text("[{\"estafette\": \"orders/1\"}]", "the top level is an array, not an object");
	refuse_text("\"orders/1\"", "a string, not an object");
	refuse_text("7.5", "not an object");
	refuse_text("", "invalid JSON");
	refuse_text("{\"estafette\": \"orders/1\"} {}", "invalid JSON");
	/* syntax errors give their line and column */
	refuse_text("{\"estafette\": \"orders/1\",\n \"game\": \"ne-001\",\n}", "line 3");
	refuse_text("{\"estafette\": \"orders/1\", // comment\n}", "invalid JSON");
}

static void test_unknown_and_missing_fields(void **state)
{
	char *doc = order_with(NULL, NULL), *extra;
	int i;

	(void)state;
	extra = est_strdup_printf("{\"comment\": \"hi\",\n %s", doc + 1);
	refuse_text(extra, "unknown field \"comment\"");
	free(extra);
	extra = est_strdup_printf("{\"Step\": 7,\n %s", doc + 1);
	refuse_text(extra, "unknown field \"Step\"");
	free(extra);
	/* a file of another format is named as such, not by its new fields */
	extra = est_strdup_printf("{\"estafette\": \"orders/2\", \"signature\": \"x\",\n %s",
				  strstr(doc, "\"game\""));
	refuse_text(extra, "reads only \"orders/1\"");
	free(extra);

	for (i = 0; i < FIELD_COUNT - 1; i++) {
		char want[64];

		snprintf(want, sizeof(want), "field \"%s\" is missing", names[i]);
		refuse_field(names[i], NULL, want);
	}
	refuse_field("prev", NULL, "state_sha256");
	free(doc);
}

static void test_wrong_types(void **state)
{
	(void)state;
	refuse_field("estafette", "1", "field \"estafette\" is an integer, not a string");
	refuse_field("game", "[\"ne-001\"]", "field \"game\" is an array, not a string");
	refuse_field("step", "\"7\"", "field \"step\" is a string, not an integer");
	refuse_field("player", "null", "field \"player\" is null");
	refuse_field("prev", "true", "field \"prev\" is true");
	refuse_field("seq", "\"2\"", "field \"seq\" is a string");
	refuse_field("entropy", "{}", "field \"entropy\" is an object");
	refuse_field("orders", "{\"type\": \"move\"}", "field \"orders\" is an object, not an array");
	refuse_field("press", "\"hello\"", "field \"press\" is a string, not an array");
}

static void test_field_values(void **state)
{
	char long_id[70];

	(void)state;
	refuse_field("estafette", "\"orders/2\"", "reads only \"orders/1\"");
	refuse_field("step", "0", "steps run from 1");
	refuse_field("step", "-7", "steps run from 1");
	refuse_field("step", "4294967296", "steps run from 1");
	refuse_field("seq", "0", "seq starts at 1");
	refuse_field("seq", "-1", "seq starts at 1");

	refuse_field("prev", "\"" "3F2A9C0D1E4B5A6978C8D7E6F5A4B3C2D1E0F9A8B7C6D5E4F3A2B1C0D9E8F7A6" "\"",
		     "lower-case hex");
	refuse_field("prev", "\"" "3f2a9c0d1e4b5a6978c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a" "\"",
		     "field \"prev\"");
	refuse_field("prev", "\"\"", "64 lower-case hex");
	refuse_field("entropy", "\"" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdeg" "\"",
		     "field \"entropy\"");
	refuse_field("entropy", "\"" ENTROPY "00\"", "openssl rand -hex 32");

	refuse_field("player", "\"\"", "field \"player\" is \"\", not an id");
	refuse_field("player", "\"France\"", "not an id");
	refuse_field("player", "\"fr ance\"", "not an id");
	refuse_field("player", "\"../france\"", "not an id");
	refuse_field("player", "\".france\"", "not an id");
	refuse_field("player", "\"-france\"", "not an id");
	refuse_field("game", "\"ne/001\"", "field \"game\"");
	refuse_field("game", "\"n\xc3\xa9-001\"", "not an id");
	memset(long_id + 1, 'a', 65);
	long_id[0] = '"', long_id[66] = '"', long_id[67] = '\0';
	refuse_field("player", long_id, "1 to 64 characters");
	long_id[65] = '\0';
	assert_int_equal(est_orders_is_id(long_id + 1), 1); /* 64 characters */
	assert_int_equal(est_orders_is_id("a.b_c-9"), 1);
	assert_int_equal(est_orders_is_id("9"), 1);
	assert_int_equal(est_orders_is_id(NULL), 0);
}

static void test_order_items(void **state)
{
	(void)state;
	refuse_field("orders", "[\"move army-1 vienna\"]", "field \"orders[0]\" is a string, not an object");
	refuse_field("orders", "[{\"type\": \"hold\"}, {}, 3]", "field \"orders[2]\" is an integer");
	refuse_field("orders", "[{\"type\": \"hold\"}, [ ]]", "orders[1]\" is an array");
}

static void test_press(void **state)
{
	(void)state;
	refuse_field("press", "[\"hello\"]", "field \"press[0]\" is a string, not an object");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\"}, {\"to\": \"everyone\", \"text\": \"b\"}]",
		     "field \"press[1].to\"");
	refuse_field("press", "[{\"to\": [], \"text\": \"b\"}]", "an empty array");
	refuse_field("press", "[{\"to\": [\"england\", \"England\"], \"text\": \"b\"}]",
		     "field \"press[0].to[1]\"");
	refuse_field("press", "[{\"to\": [\"england\", 3], \"text\": \"b\"}]", "press[0].to[1]\" is an integer");
	refuse_field("press", "[{\"text\": \"b\"}]", "field \"press[0].to\" is missing");
	refuse_field("press", "[{\"to\": \"all\"}]", "field \"press[0].text\" is missing");
	refuse_field("press", "[{\"to\": \"all\", \"text\": 5}]", "field \"press[0].text\" is an integer");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"b\", \"from\": \"x\"}]",
		     "unknown field \"press[0].from\"");
}

static est_order *valid_order(void)
{
	char *doc = order_with(NULL, NULL);
	est_order *o = parse_ok(doc, strlen(doc));

	free(doc);
	return o;
}

static void refuse_binding(const est_order *o, const char *game, long long step,
			   const char *prev, const char *signer, const char *word)
{
	est_error_clear();
	assert_int_equal(est_orders_check_binding(o, FILENAME, game, step, prev, signer), EST_EINVAL);
	assert_message(word);
}

static void test_binding(void **state)
{
	est_order *o = valid_order();
	char upper[65];
	size_t i;

	(void)state;
	assert_int_equal(est_orders_check_binding(o, FILENAME, "ne-001", 7, PREV, "france"), 0);
	for (i = 0; i < 65; i++)
		upper[i] = (char)(PREV[i] >= 'a' && PREV[i] <= 'f' ? PREV[i] - 32 : PREV[i]);
	assert_int_equal(est_orders_check_binding(o, FILENAME, "ne-001", 7, upper, "france"), 0);

	refuse_binding(o, "ne-002", 7, PREV, "france", "this is game \"ne-002\"");
	refuse_binding(o, "ne-001", 8, PREV, "france", "cannot be replayed");
	refuse_binding(o, "ne-001", 8, PREV, "france", "re-sign with \"step\": 8");
	refuse_binding(o, "ne-001", 6, PREV, "france", "not open yet");
	/* the fix names the awaited state's prev too when the file's is another */
	refuse_binding(o, "ne-001", 8, ENTROPY, "france", "re-sign with \"step\": 8 and \"prev\": \"" ENTROPY "\"");
	/* a file ahead of the game: this copy may be behind; re-signing for the open step would be wrong */
	refuse_binding(o, "ne-001", 6, ENTROPY, "france", "this copy of the game is behind (update it: git pull --tags)");
	refuse_binding(o, "ne-001", 7, ENTROPY, "france", "field \"prev\"");
	refuse_binding(o, "ne-001", 7, ENTROPY, "france", "estafette status ne-001 --json");
	refuse_binding(o, "ne-001", 7, ENTROPY, "france", "state_sha256");
	refuse_binding(o, "ne-001", 7, "3f2a", "france", "field \"prev\"");
	refuse_binding(o, "ne-001", 7, PREV, "england", "signed by england but names player \"france\"");
	est_orders_free(o);
}

static void test_seq(void **state)
{
	est_order *held = valid_order(), *incoming = valid_order();

	(void)state;
	assert_int_equal(est_orders_check_seq(incoming, NULL, FILENAME), 0);

	incoming->seq = 3;
	assert_int_equal(est_orders_check_seq(incoming, held, FILENAME), 0);

	incoming->seq = 2;
	assert_int_equal(est_orders_check_seq(incoming, held, FILENAME), EST_EINVAL);
	assert_message("seq 2 are already held for france at step 7");
	assert_message("re-sign with \"seq\": 3");
	incoming->seq = 1;
	assert_int_equal(est_orders_check_seq(incoming, held, FILENAME), EST_EINVAL);
	assert_message("field \"seq\" is 1");

	/* a file left from an earlier step does not compete */
	held->step = 6;
	assert_int_equal(est_orders_check_seq(incoming, held, FILENAME), 0);
	held->step = 7;

	free(held->player);
	held->player = strdup("england");
	assert_non_null(held->player);
	assert_int_equal(est_orders_check_seq(incoming, held, FILENAME), EST_EINVAL);
	assert_message("bug");

	est_orders_free(held);
	est_orders_free(incoming);
}

/* commitment/1 (sealed orders): the same binding fields and one SHA-256 in place of the orders. */
#define COMMITMENT(extra) "{\"estafette\": \"commitment/1\", \"game\": \"ne-001\", \"step\": 7, " \
	"\"player\": \"france\", \"prev\": \"" PREV "\", \"seq\": 1" extra "}\n"

static void test_commitment(void **state)
{
	est_order *o = parse_ok(COMMITMENT(", \"sha256\": \"" ENTROPY "\""),
				strlen(COMMITMENT(", \"sha256\": \"" ENTROPY "\"")));

	(void)state;
	assert_true(o->commitment);
	assert_string_equal(o->sha256, ENTROPY);
	assert_string_equal(o->entropy, "");
	assert_null(o->orders);
	assert_null(o->press);
	assert_int_equal(o->step, 7);
	assert_string_equal(o->player, "france");
	assert_int_equal(est_orders_check_binding(o, FILENAME, "ne-001", 7, PREV, "france"), 0);
	est_orders_free(o);
	refuse_text(COMMITMENT(""), "field \"sha256\" is missing (required in commitment/1)");
	refuse_text(COMMITMENT(", \"sha256\": \"abc\""), "field \"sha256\" is \"abc\", not 64 lower-case hex");
	refuse_text(COMMITMENT(", \"sha256\": \"" ENTROPY "\", \"orders\": []"),
		    "unknown field \"orders\" (a commitment/1 file has only");
	refuse_text(COMMITMENT(", \"entropy\": \"" ENTROPY "\""), "unknown field \"entropy\"");
	/* An order file may not carry a commitment's field either. */
	refuse_field("press", "[], \"sha256\": \"" ENTROPY "\"", "unknown field \"sha256\"");
}

/* Made-up entropy, and press that could forge report lines, are refused. */
static void test_entropy_and_press_text(void **state)
{
	char *doc;

	(void)state;
	refuse_field("entropy", "\"0000000000000000000000000000000000000000000000000000000000000000\"",
		     "not fresh randomness");
	refuse_field("entropy", "\"abababababababababababababababababababababababababababababababab\"",
		     "not fresh randomness");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"hi\\nSubject: forged\"}]",
		     "field \"press[0].text\" holds U+000A LINE FEED at byte 2");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xe2\x80\xae b\"}]",
		     "U+202E RIGHT-TO-LEFT OVERRIDE at byte 1");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xe2\x81\xa6 b\"}]",
		     "U+2066 LEFT-TO-RIGHT ISOLATE");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xc2\x85 b\"}]", "U+0085 NEXT LINE");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xe2\x80\x8f b\"}]",
		     "U+200F RIGHT-TO-LEFT MARK");
	/* The rest of Bidi_Control and the other invisible format characters, from the same table. */
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xd8\x9c b\"}]",
		     "holds U+061C ARABIC LETTER MARK at byte 1, an invisible control or formatting "
		     "character that could hide, reorder or forge lines of the reports it appears in; "
		     "remove it");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xef\xbb\xbf b\"}]",
		     "U+FEFF ZERO WIDTH NO-BREAK SPACE");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\xc2\xad b\"}]", "U+00AD SOFT HYPHEN");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"a\\u2060b\"}]", "U+2060 WORD JOINER");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"ok\"}, {\"to\": \"all\", \"text\": "
		     "\"\xf3\xa0\x80\x81\"}]", "field \"press[1].text\" holds U+E0001 LANGUAGE TAG");
	refuse_field("press", "[{\"to\": \"all\", \"text\": \"\"}]", "no text at all");
	/* An emoji's joiner and selector between what they join are prose, not a forgery. */
	doc = order_with("press", "[{\"to\": \"all\", \"text\": \"\xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x91\xa8"
			 "\xe2\x80\x8d\xf0\x9f\x91\xa9\"}]");
	est_orders_free(parse_ok(doc, strlen(doc)));
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_file),
		cmocka_unit_test(test_valid_without_press_and_unterminated),
		cmocka_unit_test(test_size_limit),
		cmocka_unit_test(test_byte_order_mark),
		cmocka_unit_test(test_invalid_utf8),
		cmocka_unit_test(test_nul_bytes),
		cmocka_unit_test(test_duplicate_keys),
		cmocka_unit_test(test_nesting_depth),
		cmocka_unit_test(test_numbers_are_integers),
		cmocka_unit_test(test_top_level),
		cmocka_unit_test(test_unknown_and_missing_fields),
		cmocka_unit_test(test_wrong_types),
		cmocka_unit_test(test_field_values),
		cmocka_unit_test(test_order_items),
		cmocka_unit_test(test_press),
		cmocka_unit_test(test_binding),
		cmocka_unit_test(test_seq),
		cmocka_unit_test(test_commitment),
		cmocka_unit_test(test_entropy_and_press_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
