/*
 * The contract every ruleset meets (rulesets/ruleset.h), run on every ruleset
 * the registry holds (est_game_ruleset_names: a new one is tested without
 * a line here) and on Duel, the test suite's toy (toy_ruleset.h), which
 * shows that a new ruleset needs nothing but its own files and a registry
 * entry. Each check takes the table alone (a contract_case around a
 * `const est_ruleset *`), so a ruleset can be run through it before it is
 * registered: see docs/adding-a-ruleset.md.
 *
 * A ruleset's game is walked from set-up (its default scenario: no options
 * but, when the players choose their powers, "players" from its own deal)
 * by resolve() with every awaited power's default orders and fixed dice,
 * for at most CONTRACT_STEPS steps; every check runs on every state of the
 * walk:
 *   table     a name fit for a folder, a version, every hook a ruleset must
 *             have, powers() a fixed list of distinct names;
 *   setup     a state, the same twice, its arguments untouched; an option it
 *             does not know refused, named in the message;
 *   pending   mode, kind, prompt, and awaited powers that fit the mode;
 *   validate  the default orders of each awaited power pass; an order of no
 *             known type is refused, and so is a well-formed item given a
 *             field too many (a default order, or an item of each type the
 *             ruleset's sample game in turnfiles/NAME/plan.json plays, where
 *             that type is taken), each with a diagnostic {index, field,
 *             rule, message} that names the field; the state untouched;
 *   resolve   twice from the same dice: the same state, events and rolls
 *             (nothing but the state, the orders and the dice decide); the
 *             state untouched; events with a type and a text, "visible_to"
 *             naming powers;
 *   view      for every power and the public: the same twice; with sealed(),
 *             no view depends on a hidden part that is not the reader's own
 *             (each such part changed in turn leaves the view as it was);
 *   sealed    the hidden parts are JSON pointers; the public state
 *             (seal/seal.h) answers pending() as the whole one does and gives
 *             the same public view, and every power's view of it renders;
 *   deal, score  when the ruleset has them, results of the shape promised.
 * A ruleset with deal_private is walked twice: once more as a game of a deal
 * (options["deal"]), whose sealed parts are its players' own (ruleset.h):
 * the public view must not read them, and the public state must answer
 * pending() and the public view as the whole one does.
 * And once: the registry's names are its tables', each with its folder
 * (data/, README.md, RULINGS.md) and templates/NAME/report.txt.mustache, and
 * every folder of internal/rulesets/ but common is registered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "dice/dice.h"
#include "game/game.h"
#include "seal/seal.h"
#include "util/util.h"
#include "toy_ruleset.h"

#include "rules_helpers.h"

#define CONTRACT_STEPS 12
#define CONTRACT_FACES 4096
#define UNKNOWN_OPTION "contract-unknown-option"
#define UNKNOWN_TYPE "contract-no-such-order"
#define STRAY_FIELD "contract-stray-field"

typedef struct {
	const est_ruleset *rs;
	char *label;     /* the tests' name: the ruleset's, with " (dealt)" for a game of a deal */
	int dealt;       /* a deal_private ruleset's game of a deal: options["deal"] as `new --deal` gives it */
	json_t *rules;   /* the ruleset's data, as the engine merges it */
	json_t *options; /* setup()'s */
	json_t *samples; /* one order item of each type its sample game plays, to spoil */
	json_t *states;  /* the walk, set-up's state first; NULL until walked */
	char *walk_error; /* why the walk stopped early, or NULL */
} contract_case;

/* Duel's rules data, as its data/deck.json would hold it (J(): ' for "). */
static const char toy_rules[] =
	"{'deck': {'provenance': 'invented for the test suite', 'cards': [1, 2, 3, 4, 5, 6, 7, 8], "
	"'hand': 3, 'target': 3}}";

static int is_over(const json_t *pending)
{
	return strcmp(json_string_value(json_object_get(pending, "mode")), "over") == 0;
}

static size_t power_count(const est_ruleset *rs)
{
	size_t n = 0;

	while (rs->powers()[n])
		n++;
	return n;
}

static int is_power(const est_ruleset *rs, const char *name)
{
	for (const char *const *p = rs->powers(); *p; p++)
		if (name && strcmp(*p, name) == 0)
			return 1;
	return 0;
}

static char *dump(const json_t *v)
{
	return v ? json_dumps(v, JSON_SORT_KEYS | JSON_COMPACT | JSON_ENCODE_ANY) : strdup("(null)");
}

static void assert_same_json(const json_t *a, const json_t *b, const char *what)
{
	if (!json_equal((json_t *)a, (json_t *)b)) {
		char *da = dump(a), *db = dump(b);
		fail_msg("%s:\n  %.600s\n  %.600s", what, da, db);
	}
}

/*
 * Two streams of fixed faces for step `step` (est_dice_new_fixed): 1s and
 * 2s, which fit any die, in an order drawn from a fixed xorshift so that
 * rolls for a tie do not tie for ever.
 */
static void fixed_dice(est_dice **dice, est_dice **hidden, int step)
{
	static int faces[CONTRACT_FACES];
	uint32_t x = 2463534242u + (uint32_t)step * 7919u;

	for (size_t i = 0; i < CONTRACT_FACES; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		faces[i] = 1 + (int)(x >> 31);
	}
	assert_int_equal(est_dice_new_fixed(dice, faces, CONTRACT_FACES), 0);
	assert_int_equal(est_dice_new_fixed(hidden, faces + CONTRACT_FACES / 2, CONTRACT_FACES / 2), 0);
}

/* setup()'s options: none, but "players" when the players choose their powers (as `new` gives them). */
static json_t *default_options(const est_ruleset *rs)
{
	json_t *options = json_object(), *held = NULL;
	size_t n;

	if (!rs->powers_optional)
		return options;
	for (n = power_count(rs); !held && rs->deal && n > 0; n--)
		if (rs->deal(&held, n) < 0)
			held = NULL;
	if (!held) {
		held = json_array();
		for (const char *const *p = rs->powers(); *p; p++)
			json_array_append_new(held, json_pack("[s]", *p));
	}
	est_error_clear();
	json_object_set_new(options, "players", held);
	return options;
}

/*
 * The first order item of each "type" that the sample game of ruleset
 * `name` plays (turnfiles/NAME/plan.json), an empty array without one: well
 * formed items that validate() must refuse once given a field too many.
 */
static json_t *sample_items(const char *name)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	json_t *items = json_array(), *plan, *entry, *item, *types = json_object();
	char path[4096];
	size_t i, k;

	snprintf(path, sizeof(path), "%s/turnfiles/%s/plan.json", top, name ? name : "");
	plan = name ? json_load_file(path, 0, NULL) : NULL;
	json_array_foreach(json_object_get(plan, "plan"), i, entry)
		json_array_foreach(json_object_get(entry, "orders"), k, item) {
			const char *type = json_string_value(json_object_get(item, "type"));
			if (!json_is_object(item) || !type || json_object_get(types, type))
				continue;
			json_object_set_new(types, type, json_true());
			json_array_append(items, item);
		}
	json_decref(types);
	json_decref(plan);
	return items;
}

/*
 * A case of ruleset `rs` with its rules data; `sample` names its sample game
 * in turnfiles/ (NULL: none); `dealt`: a game of a deal (deal_private).
 */
static contract_case *case_new(const est_ruleset *rs, json_t *rules, const char *sample, int dealt)
{
	contract_case *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	c->rs = rs;
	c->rules = rules;
	c->dealt = dealt;
	c->label = dealt ? est_strdup_printf("%s (dealt)", rs->name) : strdup(rs->name);
	c->options = default_options(rs);
	if (dealt)
		json_object_set_new(c->options, "deal", json_string("contract-deal"));
	c->samples = sample_items(sample);
	return c;
}

/* The orders resolve() takes: each awaited power's default orders. */
static json_t *default_orders_of(const contract_case *c, const json_t *state, const json_t *pending)
{
	json_t *orders = json_object(), *p, *o;
	size_t i;

	json_array_foreach(json_object_get(pending, "powers"), i, p) {
		if (c->rs->default_orders(&o, state, c->rules, json_string_value(p)) < 0)
			return json_decref(orders), NULL;
		json_object_set_new(orders, json_string_value(p), o);
	}
	return orders;
}

/* The walk (set-up, then resolve() with default orders), made once; walk_error says why it stopped early. */
static const json_t *walk(contract_case *c)
{
	json_t *state = NULL;

	if (c->states)
		return c->states;
	c->states = json_array();
	if (c->rs->setup(&state, c->rules, c->options) < 0) {
		c->walk_error = est_strdup_printf("setup: %s", est_error_message());
		return c->states;
	}
	for (int step = 1; state; step++) {
		json_t *pending = NULL, *orders, *next = NULL, *events = NULL;
		est_dice *dice, *hidden;

		json_array_append_new(c->states, state);
		if (step > CONTRACT_STEPS)
			break;
		if (c->rs->pending(&pending, state, c->rules) < 0) {
			c->walk_error = est_strdup_printf("step %d: pending: %s", step, est_error_message());
			break;
		}
		if (is_over(pending)) {
			json_decref(pending);
			break;
		}
		if (!(orders = default_orders_of(c, state, pending))) {
			c->walk_error = est_strdup_printf("step %d: default_orders: %s", step, est_error_message());
			json_decref(pending);
			break;
		}
		fixed_dice(&dice, &hidden, step);
		if (c->rs->resolve(&next, &events, state, c->rules, orders, dice, hidden) < 0)
			c->walk_error = est_strdup_printf("step %d (%s): resolve with the default orders %s: %s", step,
							  json_string_value(json_object_get(pending, "kind")), dump(orders),
							  est_error_message());
		json_decref(events);
		json_decref(orders);
		json_decref(pending);
		est_dice_free(dice);
		est_dice_free(hidden);
		state = next;
	}
	return c->states;
}

static json_t *pending_of(const contract_case *c, const json_t *state)
{
	json_t *p = NULL;

	if (c->rs->pending(&p, state, c->rules) < 0)
		fail_msg("%s: pending: %s", c->rs->name, est_error_message());
	return p;
}

static json_t *view_of(const contract_case *c, const json_t *state, const char *power)
{
	json_t *v = NULL;

	if (c->rs->view(&v, state, c->rules, power) < 0)
		fail_msg("%s: view of %s: %s", c->rs->name, power ? power : "the public", est_error_message());
	if (!json_is_object(v))
		fail_msg("%s: the view of %s is not an object", c->rs->name, power ? power : "the public");
	return v;
}

/* Every diagnostic has what ruleset.h promises; 1 if one at `index` names `field`. */
static int diagnostics_name(const contract_case *c, const json_t *diags, int index, const char *field)
{
	const json_t *d;
	size_t i;
	int found = 0;

	if (!json_is_array(diags) || json_array_size(diags) == 0)
		fail_msg("%s: validate refused without diagnostics", c->rs->name);
	json_array_foreach(diags, i, d) {
		const char *msg = json_string_value(json_object_get(d, "message"));
		if (!json_is_integer(json_object_get(d, "index")) || !json_is_string(json_object_get(d, "field")) ||
		    !json_is_string(json_object_get(d, "rule")) || !msg || !*msg)
			fail_msg("%s: diagnostic %s lacks index, field, rule or message", c->rs->name, dump(d));
		found |= json_integer_value(json_object_get(d, "index")) == index &&
			 strcmp(json_string_value(json_object_get(d, "field")), field) == 0;
	}
	return found;
}

/* `orders` from `power` are refused, with a diagnostic at `index` naming `field`. */
static void assert_refused(const contract_case *c, const json_t *state, const char *power, const json_t *orders,
			   int index, const char *field)
{
	json_t *diags = NULL;
	int rc = c->rs->validate(&diags, state, c->rules, power, orders);

	if (rc != EST_EINVAL)
		fail_msg("%s: %s's orders %s: validate returned %d, not EST_EINVAL", c->rs->name, power, dump(orders), rc);
	if (!diagnostics_name(c, diags, index, field))
		fail_msg("%s: %s's orders %s: no diagnostic at index %d names the field \"%s\": %s", c->rs->name, power,
			 dump(orders), index, field, dump(diags));
	json_decref(diags);
}

static void test_registry(void **unused)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	const char *const *names = est_game_ruleset_names();
	char path[4096];
	struct stat st;
	struct dirent *e;
	size_t n = 0;
	DIR *d;

	for (; names[n]; n++) {
		const est_ruleset *rs = est_game_ruleset(names[n]);
		assert_non_null(rs);
		assert_string_equal(rs->name, names[n]);
		for (size_t k = 0; k < n; k++)
			if (strcmp(names[k], names[n]) == 0)
				fail_msg("the registry holds %s twice", names[n]);
		static const char *const needs[][2] = {{"internal/rulesets/", "/data"}, {"internal/rulesets/", "/README.md"},
						       {"internal/rulesets/", "/RULINGS.md"},
						       {"templates/", "/report.txt.mustache"}};
		for (size_t f = 0; f < sizeof(needs) / sizeof(needs[0]); f++) {
			char rel[512];
			snprintf(rel, sizeof(rel), "%s%s%s", needs[f][0], names[n], needs[f][1]);
			snprintf(path, sizeof(path), "%s/%s", top, rel);
			if (stat(path, &st) < 0)
				fail_msg("ruleset %s has no %s (docs/adding-a-ruleset.md)", names[n], rel);
		}
	}
	assert_true(n > 0);
	snprintf(path, sizeof(path), "%s/internal/rulesets", top);
	assert_non_null(d = opendir(path));
	while ((e = readdir(d))) {
		char dir[4096 + 256];
		snprintf(dir, sizeof(dir), "%s/%s", path, e->d_name);
		if (e->d_name[0] == '.' || strcmp(e->d_name, "common") == 0 || stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		if (!est_game_ruleset(e->d_name))
			fail_msg("internal/rulesets/%s is not in the registry (internal/game/registry.c)", e->d_name);
	}
	closedir(d);
}

static void test_table(void **state)
{
	const contract_case *c = *state;
	const est_ruleset *rs = c->rs;
	const char *const *p;

	assert_non_null(rs->name);
	assert_true(*rs->name && strlen(rs->name) <= 40);
	for (const char *s = rs->name; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || (*s == '-' && s != rs->name)))
			fail_msg("ruleset name \"%s\" is not a folder name of a-z, 0-9 and -", rs->name);
	assert_true(rs->version && *rs->version);
	assert_true(rs->powers && rs->setup && rs->pending && rs->validate && rs->default_orders && rs->resolve &&
		    rs->view);
	assert_ptr_equal(rs->powers(), rs->powers());
	assert_true(power_count(rs) > 0);
	for (p = rs->powers(); *p; p++) {
		/* A power is a segment of sealed() paths and a key of orders: no '/' or '~'. */
		if (!**p || strchr(*p, '/') || strchr(*p, '~'))
			fail_msg("%s: power \"%s\" must be a plain name", rs->name, *p);
		for (const char *const *q = rs->powers(); q < p; q++)
			if (strcmp(*q, *p) == 0)
				fail_msg("%s: power %s is listed twice", rs->name, *p);
	}
}

static void test_setup(void **state)
{
	const contract_case *c = *state;
	json_t *rules = json_deep_copy(c->rules), *options = json_deep_copy(c->options);
	json_t *a = NULL, *b = NULL, *bad = json_deep_copy(c->options);

	if (c->rs->setup(&a, c->rules, c->options) < 0)
		fail_msg("%s: setup with %s: %s", c->rs->name, dump(c->options), est_error_message());
	assert_true(json_is_object(a));
	assert_int_equal(c->rs->setup(&b, c->rules, c->options), 0);
	assert_same_json(a, b, "setup gave two states from the same rules and options");
	assert_same_json(rules, c->rules, "setup changed its rules");
	assert_same_json(options, c->options, "setup changed its options");
	json_decref(b);
	b = NULL;
	json_object_set_new(bad, UNKNOWN_OPTION, json_integer(1));
	if (c->rs->setup(&b, c->rules, bad) != EST_EINVAL)
		fail_msg("%s: setup took the option \"" UNKNOWN_OPTION "\" it does not know", c->rs->name);
	if (!strstr(est_error_message(), UNKNOWN_OPTION))
		fail_msg("%s: the refusal of an unknown option does not name it: %s", c->rs->name, est_error_message());
	json_decref(a);
	json_decref(bad);
	json_decref(rules);
	json_decref(options);
}

static void test_pending(void **state)
{
	contract_case *c = *state;
	const json_t *s, *p;
	size_t i, k;

	json_array_foreach(walk(c), i, s) {
		json_t *copy = json_deep_copy(s), *pending = pending_of(c, s);
		const char *mode = json_string_value(json_object_get(pending, "mode"));
		const char *prompt = json_string_value(json_object_get(pending, "prompt"));
		const json_t *powers = json_object_get(pending, "powers");

		if (!mode || (strcmp(mode, "sequential") != 0 && strcmp(mode, "simultaneous") != 0 &&
			      strcmp(mode, "automatic") != 0 && strcmp(mode, "over") != 0))
			fail_msg("%s: state %zu: pending mode %s", c->rs->name, i, dump(pending));
		if (!json_string_value(json_object_get(pending, "kind")) || !prompt || !*prompt || !json_is_array(powers))
			fail_msg("%s: state %zu: pending lacks kind, prompt or powers: %s", c->rs->name, i, dump(pending));
		json_array_foreach(powers, k, p)
			if (!is_power(c->rs, json_string_value(p)))
				fail_msg("%s: state %zu: awaits %s, not a power", c->rs->name, i, dump(p));
		for (k = 0; k < json_array_size(powers); k++)
			for (size_t j = 0; j < k; j++)
				if (json_equal(json_array_get(powers, j), json_array_get(powers, k)))
					fail_msg("%s: state %zu: awaits a power twice: %s", c->rs->name, i, dump(pending));
		if ((strcmp(mode, "automatic") == 0 || strcmp(mode, "over") == 0) ? json_array_size(powers) != 0 :
		    strcmp(mode, "sequential") == 0 ? json_array_size(powers) != 1 : json_array_size(powers) == 0)
			fail_msg("%s: state %zu: %s awaits the wrong number of powers: %s", c->rs->name, i, mode,
				 dump(pending));
		assert_same_json(copy, s, "pending changed the state");
		json_decref(pending);
		json_decref(copy);
	}
}

/*
 * `item` with a field too many, alone in `power`'s orders, is refused with a
 * diagnostic naming that field. A sample item (`must` 0) is tried only where
 * its type is taken (no diagnostic of the item alone names "type"). Returns
 * 1 if it was tried.
 */
static int spoil(const contract_case *c, const json_t *state, const char *power, const json_t *item, int must)
{
	json_t *orders = json_pack("[O]", item), *diags = NULL, *d;
	size_t i;
	int type_refused = 0;

	if (!must) {
		if (c->rs->validate(&diags, state, c->rules, power, orders) < 0)
			json_array_foreach(diags, i, d)
				type_refused |= strcmp(json_string_value(json_object_get(d, "field")), "type") == 0;
		json_decref(diags);
		est_error_clear();
	}
	if (!type_refused) {
		json_t *spoilt = json_deep_copy(item);
		json_object_set_new(spoilt, STRAY_FIELD, json_integer(1));
		json_array_set_new(orders, 0, spoilt);
		assert_refused(c, state, power, orders, 0, STRAY_FIELD);
	}
	json_decref(orders);
	return !type_refused;
}

static void test_validate(void **state)
{
	contract_case *c = *state;
	const json_t *s, *p, *item;
	size_t i, j, k, awaited = 0, spoilt = 0;

	json_array_foreach(walk(c), i, s) {
		json_t *copy = json_deep_copy(s), *pending = pending_of(c, s);

		json_array_foreach(json_object_get(pending, "powers"), k, p) {
			const char *power = json_string_value(p);
			json_t *defaults = NULL, *diags = NULL, *bad;

			awaited++;
			if (c->rs->default_orders(&defaults, s, c->rules, power) < 0 || !json_is_array(defaults))
				fail_msg("%s: state %zu: default orders of %s: %s", c->rs->name, i, power, est_error_message());
			if (c->rs->validate(&diags, s, c->rules, power, defaults) != 0 || diags)
				fail_msg("%s: state %zu: %s's default orders %s are refused: %s", c->rs->name, i, power,
					 dump(defaults), diags ? dump(diags) : est_error_message());
			bad = json_pack("[{s:s}]", "type", UNKNOWN_TYPE);
			assert_refused(c, s, power, bad, 0, "type");
			json_decref(bad);
			if (json_is_object(json_array_get(defaults, 0)))
				spoilt += spoil(c, s, power, json_array_get(defaults, 0), 1);
			json_array_foreach(c->samples, j, item)
				spoilt += spoil(c, s, power, item, 0);
			json_decref(defaults);
		}
		assert_same_json(copy, s, "validate changed the state");
		json_decref(pending);
		json_decref(copy);
	}
	p = pending_of(c, json_array_get(walk(c), json_array_size(walk(c)) - 1));
	print_message("%s: %zu states (the last awaits %s), %zu awaited powers' orders checked, %zu order items "
		      "given a field too many\n", c->rs->name, json_array_size(walk(c)),
		      json_string_value(json_object_get(p, "kind")), awaited, spoilt);
	json_decref((json_t *)p);
}

static void assert_events(const contract_case *c, const json_t *events, size_t step)
{
	const json_t *e, *p;
	size_t i, k;

	if (!json_is_array(events))
		fail_msg("%s: step %zu: events are not an array", c->rs->name, step);
	json_array_foreach(events, i, e) {
		const char *type = json_string_value(json_object_get(e, "type"));
		const char *text = json_string_value(json_object_get(e, "text"));
		const json_t *to = json_object_get(e, "visible_to");
		if (!type || !*type || !text || !*text)
			fail_msg("%s: step %zu: event %s lacks a type or a text", c->rs->name, step, dump(e));
		if (to && !json_is_array(to))
			fail_msg("%s: step %zu: event %s: visible_to is not a list of powers", c->rs->name, step, dump(e));
		json_array_foreach(to, k, p)
			if (!is_power(c->rs, json_string_value(p)))
				fail_msg("%s: step %zu: event %s is visible to %s, not a power", c->rs->name, step, dump(e),
					 dump(p));
	}
}

static void test_resolve(void **state)
{
	contract_case *c = *state;
	const json_t *states = walk(c), *s;
	size_t i;

	if (c->walk_error)
		fail_msg("%s: %s", c->rs->name, c->walk_error);
	json_array_foreach(states, i, s) {
		json_t *copy = json_deep_copy(s), *pending = pending_of(c, s), *orders, *next[2] = {NULL, NULL},
			*events[2] = {NULL, NULL}, *rolls[2];
		est_dice *dice[2], *hidden[2];

		if (is_over(pending) || i + 1 == json_array_size(states)) {
			json_decref(pending);
			json_decref(copy);
			continue;
		}
		assert_non_null(orders = default_orders_of(c, s, pending));
		for (int k = 0; k < 2; k++) {
			fixed_dice(&dice[k], &hidden[k], (int)i + 1);
			assert_int_equal(c->rs->resolve(&next[k], &events[k], s, c->rules, orders, dice[k], hidden[k]), 0);
			rolls[k] = json_pack("[O, O]", est_dice_log(dice[k]), est_dice_log(hidden[k]));
		}
		assert_true(json_is_object(next[0]));
		assert_same_json(next[0], next[1], "resolve gave two states from the same state, orders and dice");
		assert_same_json(events[0], events[1], "resolve gave two event logs from the same state, orders and dice");
		assert_same_json(rolls[0], rolls[1], "resolve rolled differently from the same state, orders and dice");
		assert_same_json(next[0], json_array_get(states, i + 1), "the walk is not what resolve gives");
		assert_same_json(copy, s, "resolve changed the state it was given");
		assert_events(c, events[0], i + 1);
		for (int k = 0; k < 2; k++) {
			json_decref(next[k]);
			json_decref(events[k]);
			json_decref(rolls[k]);
			est_dice_free(dice[k]);
			est_dice_free(hidden[k]);
		}
		json_decref(orders);
		json_decref(pending);
		json_decref(copy);
	}
}

/* Whether the JSON pointer `path` has `power` as one of its segments: that power's own part. */
static int path_names(const char *path, const char *power)
{
	size_t n = power ? strlen(power) : 0;

	for (const char *s = path; power && (s = strchr(s, '/')); s++)
		if (strncmp(s + 1, power, n) == 0 && (s[1 + n] == '/' || s[1 + n] == 0))
			return 1;
	return 0;
}

/* `v` with every string, number and key replaced by one no state holds, in the same shape. */
static json_t *scrambled(const json_t *v, int *serial)
{
	json_t *out, *x;
	const char *key;
	size_t i;

	if (json_is_array(v)) {
		out = json_array();
		json_array_foreach(v, i, x)
			json_array_append_new(out, scrambled(x, serial));
		return out;
	}
	if (json_is_object(v)) {
		out = json_object();
		json_object_foreach((json_t *)v, key, x) {
			char name[64];
			snprintf(name, sizeof(name), "contract-secret-key-%d", ++*serial);
			json_object_set_new(out, name, scrambled(x, serial));
		}
		return out;
	}
	if (json_is_string(v)) {
		char text[64];
		snprintf(text, sizeof(text), "contract-secret-%d", ++*serial);
		return json_string(text);
	}
	if (json_is_integer(v))
		return json_integer(json_integer_value(v) + 7919 + ++*serial);
	return json_deep_copy(v);
}

/* A copy of `state` with the part at the JSON pointer `path` scrambled; NULL when it holds none. */
static json_t *with_scrambled(const json_t *state, const char *path)
{
	json_t *copy = json_deep_copy(state), *parent = copy;
	char *p = strdup(path), *seg = p + 1, *slash;
	int serial = 0;

	assert_non_null(p);
	while ((slash = strchr(seg, '/'))) {
		*slash = 0;
		parent = json_object_get(parent, seg);
		seg = slash + 1;
	}
	if (!json_is_object(parent) || !json_object_get(parent, seg)) {
		free(p);
		json_decref(copy);
		return NULL;
	}
	json_object_set_new(parent, seg, scrambled(json_object_get(parent, seg), &serial));
	free(p);
	return copy;
}

static json_t *sealed_paths(const contract_case *c, const json_t *state)
{
	json_t *paths = NULL, *p;
	size_t i;

	if (c->rs->sealed(&paths, state, c->rules) < 0 || !json_is_array(paths))
		fail_msg("%s: sealed: %s", c->rs->name, est_error_message());
	json_array_foreach(paths, i, p)
		if (!json_is_string(p) || json_string_value(p)[0] != '/' || strchr(json_string_value(p), '~'))
			fail_msg("%s: sealed path %s is not a JSON pointer of plain keys", c->rs->name, dump(p));
	return paths;
}

/* `reader`'s view (NULL: the public's) is the same whatever another power's hidden part holds. */
static void assert_view_keeps_secrets(const contract_case *c, const json_t *state, const char *reader,
				      const json_t *view, size_t i)
{
	json_t *paths = sealed_paths(c, state), *p;
	size_t k;

	json_array_foreach(paths, k, p) {
		json_t *other, *seen;
		/* A dealt game's hidden parts are its players' own (ruleset.h deal_private). */
		if ((c->dealt && reader) || path_names(json_string_value(p), reader) ||
		    !(other = with_scrambled(state, json_string_value(p))))
			continue;
		if (c->rs->view(&seen, other, c->rules, reader) < 0)
			fail_msg("%s: state %zu: the view of %s reads the hidden part %s, which is not its own: with it "
				 "changed, %s", c->rs->name, i, reader ? reader : "the public", json_string_value(p),
				 est_error_message());
		if (!json_equal(seen, (json_t *)view))
			fail_msg("%s: state %zu: the view of %s shows something of %s, a hidden part not its own "
				 "(changed, it gives another view)", c->rs->name, i, reader ? reader : "the public",
				 json_string_value(p));
		json_decref(seen);
		json_decref(other);
	}
	json_decref(paths);
}

static void test_view(void **state)
{
	contract_case *c = *state;
	const json_t *s;
	size_t i;

	json_array_foreach(walk(c), i, s) {
		json_t *copy = json_deep_copy(s);
		for (size_t r = 0; r <= power_count(c->rs); r++) {
			const char *reader = r ? c->rs->powers()[r - 1] : NULL;
			json_t *a = view_of(c, s, reader), *b = view_of(c, s, reader);

			assert_same_json(a, b, "two views of the same state");
			if (c->rs->sealed)
				assert_view_keeps_secrets(c, s, reader, a, i);
			json_decref(a);
			json_decref(b);
		}
		assert_same_json(copy, s, "view changed the state");
		json_decref(copy);
	}
}

static void test_sealed(void **state)
{
	static const unsigned char key[32] = "estafette contract test seal ke";
	contract_case *c = *state;
	const json_t *s;
	size_t i;

	if (!c->rs->sealed)
		skip();
	json_array_foreach(walk(c), i, s) {
		json_t *paths = sealed_paths(c, s), *pub = NULL, *a, *b;

		if (est_seal_state(&pub, s, paths, key) < 0)
			fail_msg("%s: state %zu: est_seal_state: %s", c->rs->name, i, est_error_message());
		a = pending_of(c, s);
		b = pending_of(c, pub);
		assert_same_json(a, b, "pending of the public state is not that of the whole state");
		json_decref(a);
		json_decref(b);
		a = view_of(c, s, NULL);
		b = view_of(c, pub, NULL);
		assert_same_json(a, b, "the public view of the public state is not that of the whole state");
		json_decref(a);
		json_decref(b);
		for (const char *const *p = c->rs->powers(); *p; p++)
			json_decref(view_of(c, pub, *p));
		json_decref(pub);
		json_decref(paths);
	}
}

static void test_deal(void **state)
{
	const contract_case *c = *state;
	size_t powers = power_count(c->rs), dealt_ok = 0;

	if (!c->rs->deal)
		skip();
	for (size_t n = 1; n <= powers; n++) {
		json_t *out = NULL, *held, *p, *seen = json_object();
		size_t i, k;
		int rc = c->rs->deal(&out, n);

		if (rc == EST_EINVAL && *est_error_message()) {
			json_decref(seen);
			continue;
		}
		if (rc != 0 || !json_is_array(out) || json_array_size(out) != n)
			fail_msg("%s: deal for %zu players: %d, %s", c->rs->name, n, rc, rc ? est_error_message() : dump(out));
		json_array_foreach(out, i, held) {
			if (!json_is_array(held) || json_array_size(held) == 0)
				fail_msg("%s: deal for %zu players: player %zu holds nothing", c->rs->name, n, i);
			json_array_foreach(held, k, p) {
				if (!is_power(c->rs, json_string_value(p)) || json_object_get(seen, json_string_value(p)))
					fail_msg("%s: deal for %zu players: %s", c->rs->name, n, dump(out));
				json_object_set_new(seen, json_string_value(p), json_true());
			}
		}
		if (!c->rs->powers_optional && json_object_size(seen) != powers)
			fail_msg("%s: deal for %zu players leaves powers out: %s", c->rs->name, n, dump(out));
		dealt_ok++;
		json_decref(seen);
		json_decref(out);
	}
	assert_true(dealt_ok > 0);
}

static void test_score(void **state)
{
	contract_case *c = *state;
	const json_t *s;
	size_t i;

	if (!c->rs->score)
		skip();
	json_array_foreach(walk(c), i, s) {
		json_t *score = NULL, *pending = pending_of(c, s);
		const char *result;

		if (c->rs->score(&score, s, c->rules) < 0)
			fail_msg("%s: state %zu: score: %s", c->rs->name, i, est_error_message());
		result = json_string_value(json_object_get(score, "result"));
		if (!json_is_boolean(json_object_get(score, "over")) || !json_is_integer(json_object_get(score, "score")) ||
		    !result || !*result)
			fail_msg("%s: state %zu: score %s lacks over, score or result", c->rs->name, i, dump(score));
		assert_int_equal(json_is_true(json_object_get(score, "over")), is_over(pending));
		json_decref(score);
		json_decref(pending);
	}
}

/* The contract's checks, in the order they run for each ruleset. */
static const struct {
	const char *name;
	CMUnitTestFunction check;
} checks[] = {
	{"table", test_table},       {"setup", test_setup}, {"pending", test_pending}, {"validate", test_validate},
	{"resolve", test_resolve},   {"view", test_view},   {"sealed", test_sealed},   {"deal", test_deal},
	{"score", test_score},
};

#define CHECKS (sizeof(checks) / sizeof(checks[0]))

/* Append every check of `c` to `tests` at *n. */
static void add_case(struct CMUnitTest *tests, size_t *n, contract_case *c)
{
	for (size_t k = 0; k < CHECKS; k++) {
		tests[*n] = (struct CMUnitTest){est_strdup_printf("%s: %s", c->label, checks[k].name), checks[k].check,
						NULL, NULL, c};
		++*n;
	}
}

/*
 * Tables run through the contract that the registry does not hold: the toy,
 * and a new ruleset before it is registered (docs/adding-a-ruleset.md):
 * its table, its rules data as JSON text with ' for " (NULL: its data/
 * folder), the name of its sample game in turnfiles/ (NULL: none).
 */
static const struct {
	const est_ruleset *rs;
	const char *rules;
	const char *sample;
} unregistered[] = {
	{&est_ruleset_toy, toy_rules, NULL},
};

int main(void)
{
	const char *const *names = est_game_ruleset_names();
	size_t count = 0, extra = sizeof(unregistered) / sizeof(unregistered[0]), n = 0;
	struct CMUnitTest *tests;

	while (names[count])
		count++;
	tests = calloc(1 + (2 * count + extra) * CHECKS, sizeof(*tests));
	assert_non_null(tests);
	tests[n++] = (struct CMUnitTest){"the registry and the folders", test_registry, NULL, NULL, NULL};
	for (size_t i = 0; i < count; i++) {
		add_case(tests, &n, case_new(est_game_ruleset(names[i]), rules_load(names[i]), names[i], 0));
		if (est_game_ruleset(names[i])->deal_private)
			add_case(tests, &n, case_new(est_game_ruleset(names[i]), rules_load(names[i]), names[i], 1));
	}
	for (size_t i = 0; i < extra; i++)
		add_case(tests, &n, case_new(unregistered[i].rs, unregistered[i].rules ? J(unregistered[i].rules) :
					     rules_load(unregistered[i].rs->name), unregistered[i].sample, 0));
	return _cmocka_run_group_tests("ruleset_contract", tests, n, NULL, NULL);
}
