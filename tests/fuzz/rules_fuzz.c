/*
 * Fuzz target: each registered ruleset's order validation
 * (est_ruleset.validate), the check every order file's "orders" array meets
 * before it is accepted. The rulesets are the registry's
 * (est_game_ruleset_names), so a new one is fuzzed without a line here.
 *
 * Once, at start, each ruleset's real rules data is loaded from
 * internal/rulesets/NAME/data/ (under $TOP, else the source tree the target
 * was built from) and its own setup() makes step 0 with the options of its
 * sample game (turnfiles/NAME/plan.json "options", and for a ruleset whose
 * players choose their powers, the powers of turnfiles/NAME/players.json;
 * without a sample, no options and its own deal); then resolve() with every
 * awaited power's default orders and fixed dice takes the game on, so the
 * states cover the first steps' phases, not only set-up.
 *
 * Input: the ruleset's name and a NUL; then a byte that picks the state, a
 * byte that picks the power among those the state awaits (else any power);
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
#include "game/game.h"
#include "rulesets/ruleset.h"
#include "fuzz.h"
#include "orders/orders.h"

#define MAX_STATES 16
#define MAX_NAME 64

typedef struct {
	const est_ruleset *rs;
	json_t *rules;
	json_t *states[MAX_STATES];
	json_t *awaited[MAX_STATES]; /* pending()'s "powers" for each state */
	size_t count;
} game;

static game *games;
static size_t game_count;

static const char *top_dir(void)
{
	return getenv("TOP") ? getenv("TOP") : EST_SOURCE_DIR;
}

static void die(const char *what, const char *name)
{
	fprintf(stderr, "fuzz: %s: %s: %s\n", name, what, est_error_message());
	abort();
}

/* {"<basename>": <data/<basename>.json>} of ruleset `name`, as the engine merges it. */
static json_t *load_rules(const char *name)
{
	const char *top = top_dir();
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

/* turnfiles/NAME/FILE, parsed, or NULL when the ruleset has no sample game. */
static json_t *load_sample(const char *name, const char *file)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/turnfiles/%s/%s", top_dir(), name, file);
	return json_load_file(path, 0, NULL);
}

/*
 * setup()'s options as `new` gives them for the sample game: plan.json's
 * "options"; with powers_optional, "players": the powers of each player of
 * players.json, else the ruleset's own deal for the most players it takes,
 * else one power each.
 */
static json_t *sample_options(const est_ruleset *rs)
{
	json_t *plan = load_sample(rs->name, "plan.json"), *players = NULL, *held = NULL, *p;
	json_t *options = json_deep_copy(json_object_get(plan, "options"));
	const char *const *all = rs->powers();
	size_t n = 0, i;

	if (!options)
		options = json_object();
	json_decref(plan);
	if (!options || !rs->powers_optional)
		return options;
	if ((players = load_sample(rs->name, "players.json"))) {
		held = json_array();
		json_array_foreach(json_object_get(players, "players"), i, p)
			json_array_append(held, json_object_get(p, "powers"));
		json_decref(players);
	}
	while (all[n])
		n++;
	for (; !held && rs->deal && n > 0; n--)
		if (rs->deal(&held, n) < 0)
			held = NULL;
	if (!held) {
		held = json_array();
		for (i = 0; all[i]; i++)
			json_array_append_new(held, json_pack("[s]", all[i]));
	}
	est_error_clear();
	json_object_set_new(options, "players", held);
	return options;
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
	json_t *options = sample_options(g->rs), *state = NULL;
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

/* Every registered ruleset, its states made. */
static void make_games(void)
{
	const char *const *names = est_game_ruleset_names();
	size_t k;

	while (names[game_count])
		game_count++;
	if (!(games = calloc(game_count, sizeof(*games))))
		abort();
	for (k = 0; k < game_count; k++) {
		games[k].rs = est_game_ruleset(names[k]);
		make_states(&games[k]);
		fprintf(stderr, "rules_fuzz: %s: %zu states\n", games[k].rs->name, games[k].count);
	}
}

/* The game whose ruleset `name` (len bytes, no NUL) names, or NULL. */
static game *game_named(const uint8_t *name, size_t len)
{
	for (size_t k = 0; k < game_count; k++)
		if (strlen(games[k].rs->name) == len && memcmp(games[k].rs->name, name, len) == 0)
			return &games[k];
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const json_t *awaited, *power_v;
	const uint8_t *nul;
	json_t *orders, *diag = NULL;
	const char *power;
	game *g;
	size_t k;
	int rc;

	if (!games)
		make_games();
	nul = memchr(data, 0, size < MAX_NAME ? size : MAX_NAME);
	if (!nul || !(g = game_named(data, (size_t)(nul - data))))
		return 0;
	size -= (size_t)(nul + 1 - data);
	data = nul + 1;
	if (size < 2)
		return 0;
	k = data[0] % g->count;
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
