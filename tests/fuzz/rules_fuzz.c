/*
 * Fuzz target: each ruleset's order validation (est_ruleset.validate) of
 * napoleonic-empire, la-guerre, levee-en-masse and campaign, the check every
 * order file's "orders" array meets before it is accepted.
 *
 * Once, at start, each ruleset's real rules data is loaded from
 * internal/rulesets/NAME/data/ (under $TOP, else the source tree the target
 * was built from) and its own setup() makes step 0; then resolve() with
 * every awaited power's default orders and fixed dice takes the game on,
 * so the states cover the first steps' phases, not only set-up.
 *
 * Input: byte 0 picks the ruleset (low 2 bits) and the state (the rest);
 * byte 1 picks the power among those the state awaits (else any power);
 * the rest is the orders JSON, taken only in the shape est_orders_parse
 * lets through to the engine (an array of objects, integers only, no
 * duplicate keys, at most EST_ORDERS_MAX_DEPTH deep inside the file).
 * Oracle besides ASan and UBSan: validate returns 0 with no diagnostics or
 * EST_EINVAL with a non-empty array of {index, field, rule, message}
 * (EST_ENOMEM allowed), never anything else.
 */
#include <dirent.h>
#include <jansson.h>

#include "dice/dice.h"
#include "rulesets/ruleset.h"
#include "fuzz.h"
#include "orders/orders.h"
#include "rulesets/campaign/campaign.h"
#include "rulesets/la-guerre/la_guerre.h"
#include "rulesets/levee-en-masse/levee_en_masse.h"
#include "rulesets/napoleonic-empire/napoleonic_empire.h"

#define MAX_STATES 16

typedef struct {
	const est_ruleset *rs;
	const char *options; /* game.json "options" as the samples in turnfiles/ give them */
	json_t *rules;
	json_t *states[MAX_STATES];
	json_t *awaited[MAX_STATES]; /* pending()'s "powers" for each state */
	size_t count;
} game;

static game games[4] = {
	{ &est_ruleset_napoleonic_empire, "{}", NULL, { NULL }, { NULL }, 0 },
	{ &est_ruleset_la_guerre, "{}", NULL, { NULL }, { NULL }, 0 },
	{ &est_ruleset_levee_en_masse, "{\"scenario\": \"historical\", \"10.4\": 1, \"10.6\": 1}", NULL, { NULL },
	  { NULL }, 0 },
	{ &est_ruleset_campaign,
	  "{\"game\": \"standard\", \"players\": [[\"France\"], [\"Russia\"], [\"Austria\"], [\"Spain\"]]}", NULL,
	  { NULL }, { NULL }, 0 },
};

static void die(const char *what, const char *name)
{
	fprintf(stderr, "fuzz: %s: %s: %s\n", name, what, est_error_message());
	abort();
}

/* {"<basename>": <data/<basename>.json>} of ruleset `name`, as the engine merges it. */
static json_t *load_rules(const char *name)
{
	const char *top = getenv("TOP") ? getenv("TOP") : EST_SOURCE_DIR;
	char dir[4096], path[4096 + 256 + 2], base[256];
	json_t *rules = json_object();
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/internal/rulesets/%s/data", top, name);
	if (!rules || !(d = opendir(dir))) {
		fprintf(stderr, "fuzz: %s: cannot open (set TOP to the repository)\n", dir);
		abort();
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		json_error_t err;
		json_t *v;

		if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!(v = json_load_file(path, 0, &err))) {
			fprintf(stderr, "fuzz: %s: %s\n", path, err.text);
			abort();
		}
		snprintf(base, sizeof(base), "%.*s", (int)(n - 5), e->d_name);
		json_object_set_new(rules, base, v);
	}
	closedir(d);
	return rules;
}

/* The orders object resolve() takes: each awaited power's default orders. */
static json_t *default_orders(const game *g, const json_t *state, const json_t *awaited)
{
	json_t *orders = json_object(), *p, *o;
	size_t i;

	json_array_foreach(awaited, i, p) {
		if (g->rs->default_orders(&o, state, g->rules, json_string_value(p)) < 0)
			die("default_orders", g->rs->name);
		json_object_set_new(orders, json_string_value(p), o);
	}
	return orders;
}

/* setup(), then resolve() with default orders while the game goes on. */
static void make_states(game *g)
{
	json_t *options = json_loads(g->options, 0, NULL), *state = NULL;
	unsigned char seed[32] = { 0 };

	g->rules = load_rules(g->rs->name);
	if (g->rs->setup(&state, g->rules, options) < 0)
		die("setup", g->rs->name);
	json_decref(options);
	while (state) {
		json_t *pending = NULL, *orders, *next = NULL, *events = NULL;
		est_dice *dice = NULL, *hidden = NULL;

		if (g->rs->pending(&pending, state, g->rules) < 0)
			die("pending", g->rs->name);
		g->states[g->count] = state;
		g->awaited[g->count++] = json_incref(json_object_get(pending, "powers"));
		if (g->count == MAX_STATES || strcmp(json_string_value(json_object_get(pending, "mode")), "over") == 0) {
			json_decref(pending);
			break;
		}
		seed[0] = (unsigned char)g->count;
		seed[1] = 1;
		if (est_dice_new(&dice, seed) < 0 || (seed[1] = 2, est_dice_new(&hidden, seed)) < 0)
			die("est_dice_new", g->rs->name);
		orders = default_orders(g, state, json_object_get(pending, "powers"));
		if (g->rs->resolve(&next, &events, state, g->rules, orders, dice, hidden) < 0)
			next = NULL; /* a default that does not resolve ends the chain; the states so far serve */
		json_decref(orders);
		json_decref(events);
		json_decref(pending);
		est_dice_free(dice);
		est_dice_free(hidden);
		state = next;
	}
}

/* Abort unless `d` is what ruleset.h promises for a refusal. */
static void check_diagnostics(const json_t *d, const char *name)
{
	const json_t *e;
	size_t i;

	if (!json_is_array(d) || json_array_size(d) == 0) {
		fprintf(stderr, "fuzz: %s: validate refused without diagnostics\n", name);
		abort();
	}
	json_array_foreach(d, i, e) {
		const char *msg = json_string_value(json_object_get(e, "message"));

		if (!json_is_integer(json_object_get(e, "index")) || !json_is_string(json_object_get(e, "field")) ||
		    !json_is_string(json_object_get(e, "rule")) || !msg || !*msg) {
			fprintf(stderr, "fuzz: %s: diagnostic %zu lacks index, field, rule or message\n", name, i);
			abort();
		}
	}
}

/* 1 if `v`, `depth` levels deep in the order file, is what est_orders_parse passes on. */
static int engine_shaped(const json_t *v, int depth)
{
	const json_t *item;
	const char *key;
	size_t i;

	if (depth > EST_ORDERS_MAX_DEPTH || json_is_real(v))
		return 0;
	if (json_is_array(v)) {
		json_array_foreach(v, i, item)
			if (!engine_shaped(item, depth + 1))
				return 0;
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, item)
			if (!engine_shaped(item, depth + 1))
				return 0;
	}
	return 1;
}

/* 1 if `orders` is an "orders" array the engine would hand to validate(). */
static int engine_orders(const json_t *orders)
{
	const json_t *item;
	size_t i;

	if (!json_is_array(orders))
		return 0;
	json_array_foreach(orders, i, item)
		if (!json_is_object(item))
			return 0;
	return engine_shaped(orders, 2); /* the file's top level is 1, "orders" 2 */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	const json_t *awaited, *power_v;
	json_t *orders, *diag = NULL;
	const char *power;
	game *g;
	size_t k;
	int rc;

	if (!ready) {
		for (k = 0; k < 4; k++) {
			make_states(&games[k]);
			fprintf(stderr, "rules_fuzz: %s: %zu states\n", games[k].rs->name, games[k].count);
		}
		ready = 1;
	}
	if (size < 2)
		return 0;
	g = &games[data[0] & 3];
	k = (size_t)(data[0] >> 2) % g->count;
	awaited = g->awaited[k];
	if (json_array_size(awaited) > 0) {
		power_v = json_array_get(awaited, data[1] % json_array_size(awaited));
		power = json_string_value(power_v);
	} else {
		const char *const *all = g->rs->powers();
		size_t n = 0;

		while (all[n])
			n++;
		power = all[data[1] % n];
	}
	orders = json_loadb((const char *)data + 2, size - 2, JSON_REJECT_DUPLICATES, NULL);
	if (!engine_orders(orders)) {
		json_decref(orders);
		return 0;
	}
	rc = g->rs->validate(&diag, g->states[k], g->rules, power, orders);
	if (rc != 0 && rc != EST_EINVAL && rc != EST_ENOMEM) {
		fprintf(stderr, "fuzz: %s: validate returned %d: %s\n", g->rs->name, rc, est_error_message());
		abort();
	}
	if (rc == EST_EINVAL)
		check_diagnostics(diag, g->rs->name);
	else if (rc == 0 && diag) {
		fprintf(stderr, "fuzz: %s: validate accepted with diagnostics\n", g->rs->name);
		abort();
	}
	json_decref(diag);
	json_decref(orders);
	return 0;
}
