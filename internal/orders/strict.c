/*
 * The bytes of an order file, before and while they become JSON: the size
 * limit, byte-order mark, NUL bytes, UTF-8, nesting depth, duplicate keys
 * and real numbers. Cheap checks come first so that a hostile file (a deep
 * bomb, a huge one) is refused after one linear scan, before jansson
 * builds anything.
 */
#include "orders/orders.h"
#include "orders/orders_private.h"
#include "util/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

struct position {
	size_t line, column;
};

/* Line and column (1-based, columns in characters) of byte `offset`. */
static struct position position_at(const char *bytes, size_t offset)
{
	struct position pos = { 1, 1 };
	size_t i;

	for (i = 0; i < offset; i++) {
		unsigned char c = (unsigned char)bytes[i];

		if (c == '\n') {
			pos.line++;
			pos.column = 1;
		} else if ((c & 0xC0) != 0x80) {
			pos.column++;
		}
	}
	return pos;
}

static int refuse_at(const char *filename, const char *bytes, size_t offset, const char *what)
{
	struct position pos = position_at(bytes, offset);

	return est_error_set(EST_EINVAL, "%s: line %zu, column %zu: %s", filename, pos.line,
			     pos.column, what);
}

/*
 * Offset of the first byte that is not well-formed UTF-8 (Unicode 15,
 * table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF),
 * or `len` if all is well.
 */
static size_t utf8_invalid_at(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i], lo = 0x80, hi = 0xBF;
		size_t need, k;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			need = 1;
		else if (c == 0xE0)
			need = 2, lo = 0xA0;
		else if (c == 0xED)
			need = 2, hi = 0x9F;
		else if (c >= 0xE1 && c <= 0xEF)
			need = 2;
		else if (c == 0xF0)
			need = 3, lo = 0x90;
		else if (c >= 0xF1 && c <= 0xF3)
			need = 3;
		else if (c == 0xF4)
			need = 3, hi = 0x8F;
		else
			return i;
		if (len - i <= need || s[i + 1] < lo || s[i + 1] > hi)
			return i;
		for (k = 2; k <= need; k++)
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
		i += need + 1;
	}
	return len;
}

/*
 * Offset of the bracket that opens level EST_ORDERS_MAX_DEPTH + 1, or
 * `len` if none does. Brackets inside strings do not count; malformed
 * JSON is left for the parser to name.
 */
static size_t too_deep_at(const char *bytes, size_t len)
{
	int in_string = 0, escaped = 0;
	size_t depth = 0, i;

	for (i = 0; i < len; i++) {
		char c = bytes[i];

		if (in_string) {
			if (escaped)
				escaped = 0;
			else if (c == '\\')
				escaped = 1;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '[' || c == '{') {
			if (++depth > EST_ORDERS_MAX_DEPTH)
				return i;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return len;
}

static int check_bytes(const char *filename, const char *bytes, size_t len)
{
	const char *nul;
	size_t at;

	if (len > EST_ORDERS_MAX_BYTES)
		return est_error_set(EST_EINVAL,
				     "%s: the file is %zu bytes, over the limit of %d "
				     "(an order file is at most 64 KiB); shorten the orders or the press",
				     filename, len, EST_ORDERS_MAX_BYTES);
	if (len >= 3 && memcmp(bytes, "\xEF\xBB\xBF", 3) == 0)
		return est_error_set(EST_EINVAL,
				     "%s: the file starts with a UTF-8 byte-order mark "
				     "(order files are plain UTF-8 JSON); save it without BOM "
				     "and sign it again", filename);
	if ((nul = memchr(bytes, '\0', len)))
		return refuse_at(filename, bytes, (size_t)(nul - bytes),
				 "NUL byte (an order file is UTF-8 text); save it as plain "
				 "UTF-8 JSON (not UTF-16) and sign it again");
	if ((at = utf8_invalid_at((const unsigned char *)bytes, len)) < len)
		return refuse_at(filename, bytes, at,
				 "invalid UTF-8 (an order file is UTF-8 text); save it as "
				 "UTF-8 and sign it again");
	if ((at = too_deep_at(bytes, len)) < len)
		return refuse_at(filename, bytes, at,
				 "objects and arrays nested more than 32 deep (the limit for "
				 "order files); write the orders with less nesting");
	return 0;
}

static int simple_key(const char *key)
{
	const char *p;

	if (!*key)
		return 0;
	for (p = key; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return 0;
	return 1;
}

void est_orders_path_key(char *path, size_t size, const char *key)
{
	size_t used = strlen(path);
	json_t *string;
	char *quoted;

	if (used >= size)
		return;
	if (simple_key(key)) {
		snprintf(path + used, size - used, "%s%s", used ? "." : "", key);
		return;
	}
	/* A key with spaces, quotes or control characters, escaped as JSON. */
	string = json_string(key);
	quoted = string ? json_dumps(string, JSON_ENCODE_ANY | JSON_ENSURE_ASCII) : NULL;
	snprintf(path + used, size - used, "[%s]", quoted ? quoted : "\"?\"");
	free(quoted);
	json_decref(string);
}

void est_orders_path_index(char *path, size_t size, size_t index)
{
	size_t used = strlen(path);

	if (used < size)
		snprintf(path + used, size - used, "[%zu]", index);
}

/*
 * Refuse the first real number in `value`, and any integer inside the
 * orders or press (a path with an index) that does not fit 32 bits: no
 * count in a game is that large, and a ruleset narrowing it to int would
 * act on a different number than the one signed.
 */
static int check_integers(const json_t *value, const char *filename, char *path, size_t size)
{
	size_t mark = strlen(path), index;
	const char *key;
	json_t *item;
	int error = 0;

	if (json_is_real(value)) {
		char number[64];

		snprintf(number, sizeof(number), "%.17g", json_real_value(value));
		if (!strpbrk(number, ".en"))
			strcat(number, ".0");
		return est_error_set(EST_EINVAL,
				     "%s: field \"%s\" is %s, not an integer (numbers in order "
				     "files are integers); write a whole number, without a decimal "
				     "point or exponent", filename, path, number);
	}
	if (json_is_integer(value) && strchr(path, '[') &&
	    (json_integer_value(value) > INT32_MAX || json_integer_value(value) < INT32_MIN))
		return est_error_set(EST_EINVAL,
				     "%s: field \"%s\" is %" JSON_INTEGER_FORMAT ", outside what an order "
				     "may say (-2147483648 to 2147483647); write the number you mean",
				     filename, path, json_integer_value(value));
	if (json_is_object(value)) {
		json_object_foreach((json_t *)value, key, item) {
			est_orders_path_key(path, size, key);
			error = check_integers(item, filename, path, size);
			path[mark] = '\0';
			if (error < 0)
				return error;
		}
	} else if (json_is_array(value)) {
		json_array_foreach(value, index, item) {
			est_orders_path_index(path, size, index);
			error = check_integers(item, filename, path, size);
			path[mark] = '\0';
			if (error < 0)
				return error;
		}
	}
	return 0;
}

static int refuse_parse(const char *filename, const json_error_t *jerr)
{
	if (json_error_code(jerr) == json_error_out_of_memory)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (json_error_code(jerr) == json_error_duplicate_key)
		return est_error_set(EST_EINVAL,
				     "%s: line %d, column %d: %s (a key may appear only once in "
				     "an object); remove the repeated key and sign again",
				     filename, jerr->line, jerr->column, jerr->text);
	if (json_error_code(jerr) == json_error_null_character)
		return est_error_set(EST_EINVAL,
				     "%s: line %d, column %d: \\u0000 in a string (order files "
				     "carry no NUL characters); remove it and sign again",
				     filename, jerr->line, jerr->column);
	return est_error_set(EST_EINVAL,
			     "%s: line %d, column %d: invalid JSON: %s (order files are strict "
			     "JSON: no comments, no trailing commas, double-quoted keys); fix "
			     "the JSON and sign again", filename, jerr->line, jerr->column, jerr->text);
}

int est_orders_load_strict(json_t **out, const char *filename, const char *bytes, size_t len)
{
	json_error_t jerr;
	json_t *root;
	char path[512] = "";
	int error;

	if ((error = check_bytes(filename, bytes, len)) < 0)
		return error;
	/* JSON_DECODE_ANY so that a scalar top level gets our own message. */
	if (!(root = json_loadb(bytes, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr)))
		return refuse_parse(filename, &jerr);
	/* Any other top level is left for the caller's "not an object". */
	if (!json_is_object(root)) {
		*out = root;
		return 0;
	}
	if ((error = check_integers(root, filename, path, sizeof(path))) < 0) {
		json_decref(root);
		return error;
	}
	*out = root;
	return 0;
}
