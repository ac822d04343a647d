/*
 * The orders/1 and commitment/1 schemas (docs/protocol.md "Order files"; sealed
 * orders, orders.h) on top of the strict loader: which top-level fields
 * exist, their types and their syntax.
 */
#include "orders/orders.h"
#include "orders/orders_private.h"
#include "util/error.h"
#include "util/unicode.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ID_LEN 64

/* The file formats: orders/1, and commitment/1 for sealed orders. */
#define ORDERS 1u
#define COMMITMENT 2u
#define GM_ACT 4u
#define BOTH (ORDERS | COMMITMENT | GM_ACT)

/*
 * The top-level fields, in the order they are checked, each with the
 * formats that have it and what it must be and where a player gets it:
 * the tail of the messages for a missing field or a wrong type.
 */
struct field {
	const char *name;
	json_type type;
	unsigned formats;
	int required;
	const char *hint;
};

static const struct field fields[] = {
	{ "estafette", JSON_STRING, BOTH, 1, "\"estafette\": \"orders/1\"" },
	{ "game", JSON_STRING, BOTH, 1,
	  "\"game\": the game's id (field game of `estafette status GAME --json`)" },
	{ "step", JSON_INTEGER, BOTH, 1,
	  "\"step\": the step the game awaits, a number without quotes "
	  "(field step of `estafette status GAME --json`)" },
	{ "player", JSON_STRING, BOTH, 1, "\"player\": your player id, e.g. \"france\"" },
	{ "prev", JSON_STRING, BOTH, 1,
	  "\"prev\": the SHA-256 of the current state (field state_sha256 of "
	  "`estafette status GAME --json`)" },
	{ "seq", JSON_INTEGER, BOTH, 1,
	  "\"seq\": 1, and a higher number for each later file for the same step" },
	{ "entropy", JSON_STRING, ORDERS, 1,
	  "\"entropy\": 64 fresh random hex digits, e.g. from `openssl rand -hex 32`" },
	{ "orders", JSON_ARRAY, ORDERS, 1, "\"orders\": [ your orders ] (an empty list to pass)" },
	{ "press", JSON_ARRAY, ORDERS, 0,
	  "\"press\": [ {\"to\": \"all\" or [player ids], \"text\": \"...\"} ]" },
	/* JSON_TRUE stands for a boolean. */
	{ "wait", JSON_TRUE, ORDERS, 0,
	  "\"wait\": true to ask that the step wait for its deadline, even once every order is in" },
	{ "sha256", JSON_STRING, COMMITMENT, 1,
	  "\"sha256\": the SHA-256 of the order file you will reveal (sha256sum FILE)" },
	{ "act", JSON_STRING, GM_ACT, 1,
	  "\"act\": \"extend\", \"pause\", \"resume\", \"end\", \"adjust\" or \"rollback\"" },
	{ "hours", JSON_INTEGER, GM_ACT, 0, "\"hours\": the hours an extend adds, 1 to 8760" },
	{ "result", JSON_STRING, GM_ACT, 0, "\"result\": how the game ends, e.g. \"draw\"" },
	{ "winner", JSON_STRING, GM_ACT, 0, "\"winner\": the power that wins, if one does" },
	{ "set", JSON_ARRAY, GM_ACT, 0, "\"set\": [{\"path\": \"/countries/Austria/France\", \"value\": 5}]" },
	{ "to_step", JSON_INTEGER, GM_ACT, 0, "\"to_step\": the step whose state a rollback restores" },
	{ "seat", JSON_STRING, GM_ACT, 0, "\"seat\": the player id whose seat a replace gives away" },
	{ "name", JSON_STRING, GM_ACT, 0, "\"name\": the new player's name" },
	{ "email", JSON_STRING, GM_ACT, 0, "\"email\": the new player's address" },
	{ "key", JSON_STRING, GM_ACT, 0, "\"key\": the new player's OpenSSH public key line" },
	{ "at", JSON_INTEGER, GM_ACT, 1, "\"at\": when the GM made the act, in seconds since 1970" },
	{ "reason", JSON_STRING, GM_ACT, 1, "\"reason\": why, in a sentence the players will read" },
};

#define FIELD_COUNT (sizeof(fields) / sizeof(fields[0]))

/* One file format: its "estafette" value and which fields it has. */
struct schema {
	const char *format;
	unsigned mask;
	const char *listing; /* "estafette, game, ..." for the unknown-field message */
	const char *hexes[2]; /* its fields of 64 hex digits */
};

static const struct schema schemas[] = {
	{ EST_ORDERS_FORMAT, ORDERS,
	  "estafette, game, step, player, prev, seq, entropy, orders, press and wait",
	  { "prev", "entropy" } },
	{ EST_COMMITMENT_FORMAT, COMMITMENT,
	  "estafette, game, step, player, prev, seq and sha256", { "prev", "sha256" } },
	{ EST_GM_ACT_FORMAT, GM_ACT,
	  "estafette, game, step, player, prev, seq, act, hours, result, winner, set, to_step, seat, name, "
	  "email, key, at and reason", { "prev", "prev" } },
};

/* Field `name` of format `sc`, or NULL. */
static const struct field *field_of(const struct schema *sc, const char *name)
{
	for (size_t i = 0; i < FIELD_COUNT; i++)
		if ((fields[i].formats & sc->mask) && strcmp(fields[i].name, name) == 0)
			return &fields[i];
	return NULL;
}

static const char *type_name(const json_t *value)
{
	switch (json_typeof(value)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: return "true";
	case JSON_FALSE: return "false";
	case JSON_NULL: return "null";
	}
	return "a value";
}

static const char *wanted_name(json_type type)
{
	return type == JSON_STRING ? "a string" : type == JSON_INTEGER ? "an integer" :
	       type == JSON_TRUE ? "true or false" : "an array";
}

static int type_ok(const json_t *value, json_type type)
{
	return type == JSON_TRUE ? json_is_boolean(value) : json_typeof(value) == type;
}

int est_orders_is_id(const char *s)
{
	size_t n;

	if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
		return 0;
	for (n = 0; s[n]; n++)
		if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') ||
		      s[n] == '_' || s[n] == '.' || s[n] == '-'))
			return 0;
	return n <= MAX_ID_LEN;
}

static int is_hex64(const char *s)
{
	size_t n;

	for (n = 0; s[n]; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return 0;
	return n == 64;
}

/*
 * The schema the file's "estafette" names (orders/1 when it names none, so
 * that the messages about it are an order file's).
 */
static int pick_schema(const struct schema **out, const json_t *root, const char *filename)
{
	const json_t *value = json_object_get(root, "estafette");

	*out = &schemas[0];
	if (!json_is_string(value))
		return 0;
	for (size_t i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++)
		if (strcmp(json_string_value(value), schemas[i].format) == 0) {
			*out = &schemas[i];
			return 0;
		}
	return est_error_set(EST_EINVAL,
			     "%s: field \"estafette\" is \"%.40s\", but this estafette reads only "
			     "\"orders/1\" (and \"commitment/1\" for sealed orders); write "
			     "\"estafette\": \"orders/1\"", filename, json_string_value(value));
}

static int check_top_level(const struct schema **schema_out, const json_t *root, const char *filename)
{
	const struct schema *sc;
	const char *key;
	json_t *value;
	size_t i;
	int error;

	if (!json_is_object(root))
		return est_error_set(EST_EINVAL,
				     "%s: the top level is %s, not an object (an order file is one "
				     "JSON object {\"estafette\": \"orders/1\", ...}); write the file "
				     "as a single object", filename, type_name(root));
	/* Another format first: its fields would otherwise read as unknown. */
	if ((error = pick_schema(&sc, root, filename)) < 0)
		return error;
	json_object_foreach((json_t *)root, key, value) {
		if (!field_of(sc, key)) {
			char path[256] = "";

			est_orders_path_key(path, sizeof(path), key);
			return est_error_set(EST_EINVAL,
					     "%s: unknown field \"%s\" (a %s file has only %s); remove it%s",
					     filename, path, sc->format, sc->listing,
					     sc == &schemas[0] ? ", or move it inside an order" : "");
		}
	}
	for (i = 0; i < FIELD_COUNT; i++) {
		const struct field *f = &fields[i];
		if (!(f->formats & sc->mask))
			continue;
		value = json_object_get(root, f->name);
		if (!value && f->required)
			return est_error_set(EST_EINVAL,
					     "%s: field \"%s\" is missing (required in %s); add %s",
					     filename, f->name, sc->format, f->hint);
		if (value && !type_ok(value, f->type))
			return est_error_set(EST_EINVAL, "%s: field \"%s\" is %s, not %s; write %s",
					     filename, f->name, type_name(value), wanted_name(f->type), f->hint);
	}
	*schema_out = sc;
	return 0;
}

/*
 * Fresh randomness shows all sixteen hex digits, or nearly: fewer than
 * eight in 64 happens by chance about once in 10^18. A made-up value
 * ("000...0", "abab...") would let an opponent who guesses it test
 * guesses of the orders against the manifest's SHA-256.
 */
static int looks_random(const char *hex)
{
	int seen[16] = {0}, distinct = 0;

	for (; *hex; hex++)
		distinct += !seen[*hex <= '9' ? *hex - '0' : *hex - 'a' + 10]++;
	return distinct >= 8;
}

/* The entropy a report's order file leaves for `estafette sign` to fill: the placeholder, or "". */
static int is_placeholder(const char *entropy)
{
	return entropy && (!*entropy || strcmp(entropy, EST_ORDERS_ENTROPY_PLACEHOLDER) == 0);
}

static int check_values(const struct schema *sc, const json_t *root, const char *filename)
{
	json_int_t step = json_integer_value(json_object_get(root, "step"));
	json_int_t seq = json_integer_value(json_object_get(root, "seq"));
	static const char *const ids[] = { "game", "player" };
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *id = json_string_value(json_object_get(root, ids[i]));

		if (!est_orders_is_id(id))
			return est_error_set(EST_EINVAL,
					     "%s: field \"%s\" is \"%.80s\", not an id (1 to 64 characters "
					     "from a-z, 0-9, '_', '.', '-', starting with a letter or "
					     "digit); write the %s id exactly as the game lists it",
					     filename, ids[i], id, ids[i]);
	}
	if (step < 1 || step > EST_ORDERS_MAX_STEP)
		return est_error_set(EST_EINVAL,
				     "%s: field \"step\" is %lld, but steps run from 1 to %lld; write "
				     "the step the game awaits (field step of `estafette status GAME "
				     "--json`)", filename, (long long)step, EST_ORDERS_MAX_STEP);
	if (seq < 1)
		return est_error_set(EST_EINVAL,
				     "%s: field \"seq\" is %lld, but seq starts at 1; write \"seq\": 1, "
				     "and a higher number for each later file for the same step",
				     filename, (long long)seq);
	/* Past 2^53 a JSON reader with doubles (JavaScript, jq) sees another number than the one signed. */
	if (seq > 9007199254740991LL)
		return est_error_set(EST_EINVAL,
				     "%s: field \"seq\" is %lld, past 2^53 - 1 (9007199254740991), the largest "
				     "integer every JSON reader keeps exactly; write a small seq: 1, then 2, ...",
				     filename, (long long)seq);
	if (sc->mask == ORDERS && is_placeholder(json_string_value(json_object_get(root, "entropy"))))
		return est_error_set(EST_EINVAL,
				     "%s: field \"entropy\" is \"%s\", not yet filled in; sign the file "
				     "with `estafette sign %s`, which fills it with 64 fresh hex digits first "
				     "(or write them yourself, e.g. from `openssl rand -hex 32`, and sign again)",
				     filename, json_string_value(json_object_get(root, "entropy")), filename);
	for (i = 0; i < 2; i++) {
		const char *hex = json_string_value(json_object_get(root, sc->hexes[i]));

		if (!is_hex64(hex))
			return est_error_set(EST_EINVAL,
					     "%s: field \"%s\" is \"%.80s\", not 64 lower-case hex digits "
					     "(0-9, a-f); write %s", filename, sc->hexes[i], hex,
					     field_of(sc, sc->hexes[i])->hint);
	}
	if (sc->mask == ORDERS && !looks_random(json_string_value(json_object_get(root, "entropy"))))
		return est_error_set(EST_EINVAL,
				     "%s: field \"entropy\" is not fresh randomness (fewer than 8 of the 16 "
				     "hex digits appear in it), and made-up entropy lets others guess your "
				     "orders from their hash; write %s", filename,
				     field_of(sc, "entropy")->hint);
	return 0;
}

static int check_order_items(const json_t *orders, const char *filename)
{
	size_t i;
	json_t *item;

	json_array_foreach(orders, i, item) {
		if (!json_is_object(item))
			return est_error_set(EST_EINVAL,
					     "%s: field \"orders[%zu]\" is %s, not an object (each order is "
					     "a JSON object, as the ruleset documents); write it as {...}",
					     filename, i, type_name(item));
	}
	return 0;
}

static int check_press_to(const json_t *to, const char *filename, size_t i)
{
	size_t k;
	json_t *id;

	if (json_is_string(to) && strcmp(json_string_value(to), "all") == 0)
		return 0;
	if (!json_is_array(to) || json_array_size(to) == 0)
		return est_error_set(EST_EINVAL,
				     "%s: field \"press[%zu].to\" is %s, but it must be \"all\" or a "
				     "non-empty list of player ids; write \"to\": \"all\" or "
				     "\"to\": [\"england\", ...]", filename, i,
				     json_is_array(to) ? "an empty array" : type_name(to));
	json_array_foreach(to, k, id) {
		if (!est_orders_is_id(json_string_value(id)))
			return est_error_set(EST_EINVAL,
					     "%s: field \"press[%zu].to[%zu]\" is %s, not a player id; "
					     "write the player id as the game lists it, e.g. \"england\"",
					     filename, i, k, type_name(id));
	}
	return 0;
}

static int check_press(const json_t *press, const char *filename)
{
	est_unicode_problem bad;
	size_t i;
	json_t *item, *value;
	const char *key;
	int error;

	json_array_foreach(press, i, item) {
		if (!json_is_object(item))
			return est_error_set(EST_EINVAL,
					     "%s: field \"press[%zu]\" is %s, not an object; write it as "
					     "{\"to\": \"all\", \"text\": \"...\"}", filename, i,
					     type_name(item));
		json_object_foreach(item, key, value) {
			if (strcmp(key, "to") != 0 && strcmp(key, "text") != 0) {
				char path[256] = "";

				est_orders_path_key(path, sizeof(path), key);
				return est_error_set(EST_EINVAL,
						     "%s: unknown field \"press[%zu].%s\" (a press message "
						     "has only \"to\" and \"text\"); remove it",
						     filename, i, path);
			}
		}
		if (!(value = json_object_get(item, "to")))
			return est_error_set(EST_EINVAL,
					     "%s: field \"press[%zu].to\" is missing; add \"to\": \"all\" "
					     "or a list of player ids", filename, i);
		if ((error = check_press_to(value, filename, i)) < 0)
			return error;
		value = json_object_get(item, "text");
		if (!json_is_string(value))
			return est_error_set(EST_EINVAL,
					     "%s: field \"press[%zu].text\" is %s, not a string; write "
					     "\"text\": \"your message\"", filename, i,
					     value ? type_name(value) : "missing");
		if (json_string_length(value) == 0)
			return est_error_set(EST_EINVAL,
					     "%s: field \"press[%zu].text\" holds no text at all; write the "
					     "message, or leave the item out", filename, i);
		/*
		 * Press is shown line by line in every report and mail: a line break
		 * or a bidirectional control there could forge a line or an event.
		 */
		if (est_unicode_check(&bad, json_string_value(value), json_string_length(value),
				      EST_UNICODE_MESSAGE) < 0)
			return est_error_set(EST_EINVAL,
					     "%s: field \"press[%zu].text\" holds %s at byte %zu, %s "
					     "that could hide, reorder or forge lines of the reports it "
					     "appears in; remove it and write the message as one line of "
					     "plain text (several messages for several lines)", filename, i,
					     bad.what, bad.offset, bad.kind);
	}
	return 0;
}

static int build(est_order **out, json_t *root)
{
	est_order *o = calloc(1, sizeof(*o));

	if (!o)
		return est_error_set(EST_ENOMEM, "out of memory");
	o->game = strdup(json_string_value(json_object_get(root, "game")));
	o->player = strdup(json_string_value(json_object_get(root, "player")));
	if (!o->game || !o->player) {
		est_orders_free(o);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	o->step = json_integer_value(json_object_get(root, "step"));
	o->seq = json_integer_value(json_object_get(root, "seq"));
	memcpy(o->prev, json_string_value(json_object_get(root, "prev")), 65);
	o->gm_act = json_object_get(root, "act") != NULL;
	if ((o->commitment = json_object_get(root, "sha256") != NULL))
		memcpy(o->sha256, json_string_value(json_object_get(root, "sha256")), 65);
	else if (!o->gm_act)
		memcpy(o->entropy, json_string_value(json_object_get(root, "entropy")), 65);
	o->orders = json_object_get(root, "orders");
	o->press = json_object_get(root, "press");
	o->wait = json_is_true(json_object_get(root, "wait"));
	o->root = root;
	*out = o;
	return 0;
}

int est_orders_parse(est_order **out, const char *filename, const char *bytes, size_t len)
{
	const struct schema *sc = NULL;
	json_t *root = NULL, *press;
	int error;

	if ((error = est_orders_load_strict(&root, filename, bytes, len)) < 0)
		goto out;
	if ((error = check_top_level(&sc, root, filename)) < 0 ||
	    (error = check_values(sc, root, filename)) < 0 ||
	    (error = check_order_items(json_object_get(root, "orders"), filename)) < 0)
		goto out;
	if ((press = json_object_get(root, "press")) && (error = check_press(press, filename)) < 0)
		goto out;
	if ((error = build(out, root)) < 0)
		goto out;
	root = NULL;
out:
	json_decref(root);
	return error;
}

void est_orders_free(est_order *o)
{
	if (!o)
		return;
	free(o->game);
	free(o->player);
	json_decref(o->root);
	free(o);
}

static size_t occurrences(const char *bytes, size_t len, const char *what)
{
	size_t n = 0, wlen = strlen(what);

	for (const char *p = bytes; (p = memmem(p, len - (size_t)(p - bytes), what, wlen)); p += wlen)
		n++;
	return n;
}

/* Where `"entropy"`, then optional spaces, a colon, spaces, then `value` (quoted) starts; count in *n. */
static const char *find_entropy(size_t *n, const char *bytes, size_t len, const char *value,
				size_t *value_len)
{
	static const char key[] = "\"entropy\"";
	const char *found = NULL;
	size_t vlen = strlen(value);

	*n = 0;
	for (const char *p = bytes; (p = memmem(p, len - (size_t)(p - bytes), key, sizeof(key) - 1)); p++) {
		const char *q = p + sizeof(key) - 1, *end = bytes + len;

		while (q < end && strchr(" \t\r\n", *q))
			q++;
		if (q == end || *q++ != ':')
			continue;
		while (q < end && strchr(" \t\r\n", *q))
			q++;
		if ((size_t)(end - q) >= vlen + 2 && q[0] == '"' && memcmp(q + 1, value, vlen) == 0 &&
		    q[vlen + 1] == '"') {
			found = q;
			(*n)++;
		}
	}
	*value_len = vlen + 2;
	return found;
}

int est_orders_fill_entropy(char **out, size_t *out_len, int *filled, const char *filename,
			    const char *bytes, size_t len, const char hex[65])
{
	json_t *root = json_loadb(bytes, len, JSON_REJECT_DUPLICATES, NULL);
	const char *entropy = json_string_value(json_object_get(root, "entropy")), *at;
	size_t count, value_len;
	char *text = NULL;
	est_order *check = NULL;
	int error = 0;

	*out = NULL;
	*out_len = 0;
	*filled = 0;
	if (!json_is_object(root) || !entropy) {
		/* No order file; a placeholder that is there all the same is an error, not a signature. */
		if (memmem(bytes, len, EST_ORDERS_ENTROPY_PLACEHOLDER, strlen(EST_ORDERS_ENTROPY_PLACEHOLDER)))
			error = est_error_set(EST_EINVAL, "%s: holds \"%s\" but is not an order file whose "
					      "\"entropy\" is that placeholder (it does not parse strictly, "
					      "or the text is elsewhere); fix the file, then sign it again",
					      filename, EST_ORDERS_ENTROPY_PLACEHOLDER);
		goto out;
	}
	at = find_entropy(&count, bytes, len, entropy, &value_len);
	/* The value anywhere else too (a press text, say): which one to fill is not for us to guess. */
	if (*entropy && occurrences(bytes, len, entropy) > 1)
		count = occurrences(bytes, len, entropy);
	if (count != 1) {
		error = est_error_set(EST_EINVAL, "%s: field \"entropy\" is to be filled, but \"entropy\": "
				      "\"%s\" or that text appears %zu times in the file (written with escapes, "
				      "or more than once); leave it once, plainly, as the report's file has it",
				      filename, entropy, count);
		goto out;
	}
	if (!(text = malloc(len - value_len + 66 + 1))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* Every other byte as it was: only the value changes. */
	size_t head = (size_t)(at - bytes);
	memcpy(text, bytes, head);
	text[head] = '"';
	memcpy(text + head + 1, hex, 64);
	text[head + 65] = '"';
	memcpy(text + head + 66, at + value_len, len - head - value_len);
	*out_len = len - value_len + 66;
	text[*out_len] = '\0';
	/* The result must be a strict order file carrying exactly this entropy. */
	if ((error = est_orders_parse(&check, filename, text, *out_len)) < 0)
		goto out;
	if (strcmp(check->entropy, hex) != 0) {
		error = est_error_set(EST_ERROR, "%s: the filled file does not carry the new entropy", filename);
		goto out;
	}
	*out = text;
	text = NULL;
	*filled = 1;
out:
	if (error < 0)
		*out_len = 0;
	est_orders_free(check);
	free(text);
	json_decref(root);
	return error;
}
