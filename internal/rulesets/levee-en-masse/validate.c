/*
 * Levée en Masse: order checks (README.md "Orders"). Every refusal is a
 * diagnostic {"index", "field", "rule", "message"} whose message ends with
 * the fix; the engine prints it with the file name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lem_internal.h"

#define R_ORDERS "Levée en Masse, orders (README.md)"
#define R_ACTIONS "Levée en Masse, Action Phase"

/*
 * What one branch of the orders spends, each against its limit for the turn: Actions, the free
 * To the Barricades! rolls, Liberation markers, 10.4's last reserves, 10.5's Disorder marker and
 * Napoleon's one move.
 */
enum budget { B_ACTIONS, B_BARRICADES, B_LIBERATION, B_RESERVES, B_DISORDER, B_NAPOLEON, B_COUNT };

/* The outcome of the last roll made, which "if" tests and the branches follow. */
enum last { LAST_NONE, LAST_FAILED, LAST_WON, LAST_COUNT };

/*
 * The branches the dice can take up to a point of the orders, by the outcome of their last roll:
 * for each, whether any branch gets there, and the most any such branch has spent of each budget
 * (a branch overspends a budget exactly when that most does, so one walk judges every branch).
 */
struct reach {
	int reached[LAST_COUNT];
	int spent[LAST_COUNT][B_COUNT];
};

struct check {
	const json_t *state, *rules;
	json_t *diags;
	int limit[B_COUNT];
	int disorder_placed; /* an earlier item places the Disorder marker (10.5): Restore Order may follow */
};

/* The field each order type needs (README.md "Orders" lists the others it takes). */
static const char *const need_army[] = {"army", NULL};
static const char *const need_marker[] = {"marker", NULL};

/* The Army an item names, on the map. */
static json_t *army_of(struct check *c, int i, const json_t *o)
{
	const char *id = est_rules_str(o, "army");
	json_t *army = lem_army(c->state, id);

	if (!army || !lem_on_map(army)) {
		est_rules_diag(c->diags, i, "army", R_ORDERS, "%s%s%s is not an Army on the map; name one the report lists "
		     "(e.g. \"austrian\")", id ? "\"" : "", id ? id : "the item", id ? "\"" : "");
		return NULL;
	}
	return army;
}

static int in_france(const struct check *c, const json_t *army)
{
	return lem_square(c->rules, est_rules_str(army, "track"), est_rules_int(army, "box", 0));
}

/* 10.4 last reserves and 10.5 Disorder, as fields of a Military Action. */
static void check_military_options(struct check *c, int i, const json_t *o, const json_t *army)
{
	const char *reserves = est_rules_str(o, "reserves"), *disorder = est_rules_str(o, "disorder");

	if (json_object_get(o, "reserves") && !reserves)
		reserves = "";
	if (json_object_get(o, "disorder") && !disorder)
		disorder = "";
	if (reserves && (strcmp(reserves, "if-fails") != 0 || !lem_option(c->state, "10.4")))
		est_rules_diag(c->diags, i, "reserves", "Levée en Masse 10.4", "\"reserves\": \"if-fails\" commits the last reserves "
		     "(once a turn), when the game plays with 10.4; fix or remove it");
	if (!disorder)
		return;
	if (!lem_option(c->state, "10.5") || (strcmp(disorder, "extra") != 0 && strcmp(disorder, "drm-if-needed") != 0))
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "\"disorder\" is \"extra\" (an additional Military "
		     "Action) or \"drm-if-needed\" (+1 after the roll), when the game plays with 10.5; fix or remove it");
	else if (!in_france(c, army))
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "10.5 serves only against an Army in a square space "
		     "(inside France); remove \"disorder\"");
	else if (json_is_true(json_object_get(c->state, "disorder")))
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "Paris must be in order to send its forces elsewhere; "
		     "remove \"disorder\"");
	else
		c->disorder_placed = 1;
}

static void check_military(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "army", "reserves", "disorder", "if", LEM_ON_SUCCESS,
					     LEM_ON_FAILURE, NULL};
	const char *why, *rule;
	json_t *army;

	if (!est_rules_fields_ok(c->diags, i, o, fields, need_army, R_ORDERS) || !(army = army_of(c, i, o)))
		return;
	if (!lem_attackable(&why, &rule, c->state, c->rules, army))
		est_rules_diag(c->diags, i, "army", rule, "%s cannot be attacked: %s; attack an Army the report lists "
		     "under \"who may be attacked now\"", est_rules_str(army, "id"), why);
	check_military_options(c, i, o, army);
}

static void check_napoleon(struct check *c, int i, int first, const json_t *o)
{
	static const char *const fields[] = {"type", "assign", "detach", "if", NULL};
	const json_t *nap = json_object_get(c->state, "napoleon"), *boxes, *b;
	json_t *army;
	size_t k;
	int turn = (int)json_array_size(json_object_get(c->state, "played")), triumph = 0;

	if (!est_rules_fields_ok(c->diags, i, o, fields, NULL, R_ORDERS))
		return;
	if (!json_is_object(nap)) {
		est_rules_diag(c->diags, i, "type", "Levée en Masse 5.0", "Napoleon is not in play (card E44 brings him); remove it");
		return;
	}
	if (!json_object_get(o, "assign") && !json_is_true(json_object_get(o, "detach"))) {
		est_rules_diag(c->diags, i, "assign", "Levée en Masse 5.0", "a napoleon order either assigns him "
			       "(\"assign\": an Army id) or detaches him (\"detach\": true); add one");
		return;
	}
	if (json_is_true(json_object_get(o, "detach"))) {
		army = lem_army(c->state, est_rules_str(nap, "with"));
		boxes = json_object_get(lem_table(c->rules, "napoleon"), "triumph_boxes");
		json_array_foreach(boxes, k, b)
			triumph |= army && est_rules_int(army, "box", 0) == json_integer_value(b);
		if (!first || !triumph)
			est_rules_diag(c->diags, i, "detach", "Levée en Masse 5.0", "Napoleon is detached in triumph only at the beginning "
			     "of the Action Phase (the first order) while his Army is in its '4' or '5' space; remove it");
		return;
	}
	{
		json_t *named = json_pack("{s:O*}", "army", json_object_get(o, "assign"));
		army = named ? army_of(c, i, named) : NULL;
		json_decref(named);
	}
	if (!army)
		return;
	if (est_rules_str(nap, "with"))
		est_rules_diag(c->diags, i, "assign", "Levée en Masse 5.0", "Napoleon fights with the %s: he is assigned "
			       "from the Holding Box, and once detached \"cannot be redeployed until a subsequent "
			       "turn's Action Phase\"; remove it", lem_army_name(c->rules, est_rules_str(nap, "with")));
	else if (est_rules_int(nap, "recalled", -1) == turn)
		est_rules_diag(c->diags, i, "assign", "Levée en Masse 5.0", "Napoleon went back to the Holding Box this turn "
			       "and \"cannot be redeployed until a subsequent turn's Action Phase\"; remove it");
	else if (lem_option(c->state, "napoleon-historical") && strcmp(est_rules_str(army, "track"), "Piedmont") != 0 &&
		 strcmp(est_rules_str(army, "track"), "Austrian") != 0)
		est_rules_diag(c->diags, i, "assign", "Levée en Masse 5.0", "the historical limit (an option of this game) keeps "
		     "Napoleon to the Piedmont and Austrian tracks; choose an Army there");
}

/* To the Barricades! and Liberation: free, against an Army on the map, never a Stationary one. */
static void check_free_roll(struct check *c, int i, const json_t *o)
{
	static const char *const barricades_fields[] = {"type", "army", "if", LEM_ON_SUCCESS, LEM_ON_FAILURE, NULL};
	static const char *const liberation_fields[] = {"type", "army", "if", NULL};
	int barricades = strcmp(est_rules_str(o, "type"), "barricades") == 0;
	const char *why, *rule;
	json_t *army;

	if (!est_rules_fields_ok(c->diags, i, o, barricades ? barricades_fields : liberation_fields, need_army,
				 R_ORDERS) || !(army = army_of(c, i, o)))
		return;
	if (json_is_true(json_object_get(army, "stationary")))
		est_rules_diag(c->diags, i, "army", "Levée en Masse 5.0", "a Stationary Army is removed only when "
			       "\"defeated in battle by a French Military Action\"; attack it instead");
	else if (barricades && !in_france(c, army))
		est_rules_diag(c->diags, i, "army", R_ACTIONS, "To the Barricades! is rolled against an Army in a "
			       "square space (inside France); choose one");
	else if (!lem_free_target(&why, &rule, c->state, c->rules, army))
		est_rules_diag(c->diags, i, "army", rule, "%s cannot be pushed back by %s: %s; choose another Army%s",
			       est_rules_str(army, "id"), barricades ? "To the Barricades!" : "a Liberation marker", why,
			       lem_option(c->state, "10.6") ? ", or attack it with a Military Action" : "");
}

/* What the item spends of each budget when it is carried out. */
static void item_costs(int costs[B_COUNT], const json_t *o)
{
	const char *type = est_rules_str(o, "type");
	int military = type && strcmp(type, "military") == 0;

	costs[B_ACTIONS] = type ? lem_costs_action(o) : 0;
	costs[B_BARRICADES] = type && strcmp(type, "barricades") == 0;
	costs[B_LIBERATION] = type && strcmp(type, "liberation") == 0;
	costs[B_RESERVES] = military && json_object_get(o, "reserves") != NULL;
	costs[B_DISORDER] = military && json_object_get(o, "disorder") != NULL;
	costs[B_NAPOLEON] = type && strcmp(type, "napoleon") == 0;
}

/* Whether the item rolls a die, so that its outcome can pick a branch and answer a later "if". */
static int item_rolls(const json_t *o)
{
	static const char *const rolling[] = {"military", "political", "restore-order", "barricades", NULL};

	return est_rules_listed(rolling, est_rules_str(o, "type"));
}

/* lem_condition_holds() on a branch that reaches the item with the last roll `last`. */
static int holds(const json_t *o, enum last last)
{
	return lem_condition_holds(o, last == LAST_WON ? 1 : last == LAST_FAILED ? 0 : -1);
}

/* Add the branch that reaches `last` having spent `spent` to `r`. */
static void reach_add(struct reach *r, enum last last, const int spent[B_COUNT])
{
	for (int b = 0; b < B_COUNT; b++)
		if (!r->reached[last] || spent[b] > r->spent[last][b])
			r->spent[last][b] = spent[b];
	r->reached[last] = 1;
}

static void reach_merge(struct reach *into, const struct reach *from)
{
	for (int l = 0; l < LAST_COUNT; l++)
		if (from->reached[l])
			reach_add(into, (enum last)l, from->spent[l]);
}

/* A budget overspent on a branch that reaches the item: the refusal, at the item. */
static void overspent(struct check *c, int i, const json_t *o, enum budget b, int nth)
{
	int n = c->limit[b];

	switch (b) {
	case B_ACTIONS:
		est_rules_diag(c->diags, i, "type", R_ACTIONS, "on a branch the dice can take this is Action %d, and the turn "
			       "gives %d; remove an item that costs an Action, or put it in the \"on-success\" or "
			       "\"on-failure\" orders of a roll, where it costs only if carried out", nth, n);
		break;
	case B_BARRICADES:
		est_rules_diag(c->diags, i, "type", R_ACTIONS, "To the Barricades! is free %d time%s a turn, and on a branch "
			       "the dice can take this is roll %d; remove the extra", n, n == 1 ? "" : "s", nth);
		break;
	case B_LIBERATION:
		est_rules_diag(c->diags, i, "type", R_ACTIONS, "on a branch the dice can take this uses Liberation marker %d, "
			       "and %d %s left; remove it", nth, n, n == 1 ? "is" : "are");
		break;
	case B_RESERVES:
		est_rules_diag(c->diags, i, "reserves", "Levée en Masse 10.4", "the last reserves are committed once a turn, "
			       "and a branch the dice can take commits them again here; keep one \"reserves\" a branch");
		break;
	case B_DISORDER:
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "the Disorder marker is placed once, and a "
			       "branch the dice can take places it again here; remove \"disorder\"");
		break;
	default:
		est_rules_diag(c->diags, i, json_object_get(o, "detach") ? "detach" : "assign", "Levée en Masse 5.0",
			       "Napoleon is assigned or detached once a turn, and a branch the dice can take moves him "
			       "again here; remove it");
		break;
	}
}

static void check_list(struct check *c, struct reach *r, int index, const json_t *orders, const char *field);

/*
 * The item's budgets and branches: every branch reaching it (`r`, updated to the branches leaving
 * it) that carries it out spends its costs, and its roll starts its "on-success" and "on-failure"
 * orders. `quiet`: the item has been refused already; one refusal an item is enough.
 */
static void check_budget(struct check *c, struct reach *r, int i, const json_t *o, int quiet)
{
	static const char *const branches[] = {LEM_ON_FAILURE, LEM_ON_SUCCESS};
	struct reach out = {{0}, {{0}}}, rolled = {{0}, {{0}}};
	int costs[B_COUNT], spent[B_COUNT], over[B_COUNT] = {0}, rolls = item_rolls(o);

	item_costs(costs, o);
	for (int l = 0; l < LAST_COUNT; l++) {
		if (!r->reached[l])
			continue;
		if (!holds(o, (enum last)l) || lem_may_be_passed_over(o))
			reach_add(&out, (enum last)l, r->spent[l]);
		if (!holds(o, (enum last)l))
			continue;
		for (int b = 0; b < B_COUNT; b++) {
			spent[b] = r->spent[l][b] + costs[b];
			if (costs[b] && spent[b] > c->limit[b] && spent[b] > over[b])
				over[b] = spent[b];
		}
		if (!rolls)
			reach_add(&out, (enum last)l, spent);
		for (int k = 0; rolls && k < 2; k++)
			reach_add(&rolled, k ? LAST_WON : LAST_FAILED, spent);
	}
	for (int b = 0; b < B_COUNT && !quiet; b++)
		if (over[b])
			overspent(c, i, o, (enum budget)b, over[b]);
	/* After the roll the branch it picks goes on, whatever came before: each list is judged once. */
	for (int k = 0; rolls && k < 2; k++) {
		struct reach branch = {{0}, {{0}}};
		enum last outcome = k ? LAST_WON : LAST_FAILED;
		/* A branch no way reaches is still checked item by item, with nothing spent on it. */
		if (rolled.reached[outcome])
			reach_add(&branch, outcome, rolled.spent[outcome]);
		if (json_is_array(json_object_get(o, branches[k])))
			check_list(c, &branch, i, json_object_get(o, branches[k]), branches[k]);
		reach_merge(&out, &branch);
	}
	*r = out;
}

static void check_item(struct check *c, int i, int first, const json_t *o)
{
	static const char *const political[] = {"type", "marker", "if", LEM_ON_SUCCESS, LEM_ON_FAILURE, NULL};
	static const char *const restore[] = {"type", "if", LEM_ON_SUCCESS, LEM_ON_FAILURE, NULL};
	const char *type = est_rules_str(o, "type"), *cond = est_rules_str(o, "if");

	if (json_object_get(o, "if") && (!cond || (strcmp(cond, "previous-succeeded") != 0 &&
						   strcmp(cond, "previous-failed") != 0)))
		est_rules_diag(c->diags, i, "if", R_ORDERS, "\"if\" is \"previous-succeeded\" or \"previous-failed\" (the last roll "
		     "before this order); fix or remove it");
	for (int k = 0; k < 2; k++) {
		const char *branch = k ? LEM_ON_SUCCESS : LEM_ON_FAILURE;
		if (json_object_get(o, branch) && !json_is_array(json_object_get(o, branch)))
			est_rules_diag(c->diags, i, branch, R_ORDERS, "\"%s\" is a list of orders, carried out when this "
				       "item's roll %s; make it one ([...])", branch, k ? "succeeds" : "fails");
	}
	if (strcmp(type, "military") == 0)
		check_military(c, i, o);
	else if (strcmp(type, "political") == 0) {
		const char *m = est_rules_str(o, "marker");
		if (est_rules_fields_ok(c->diags, i, o, political, need_marker, R_ORDERS) && (!m || (strcmp(m, "Republic") != 0 &&
			strcmp(m, "Monarchy") != 0 && strcmp(m, "Despotism") != 0)))
			est_rules_diag(c->diags, i, "marker", R_ACTIONS, "a Political Action moves Republic up, or Monarchy or Despotism "
			     "down; name one of them");
	} else if (strcmp(type, "restore-order") == 0) {
		if (est_rules_fields_ok(c->diags, i, o, restore, NULL, R_ORDERS) &&
		    !json_is_true(json_object_get(c->state, "disorder")) && !c->disorder_placed)
			est_rules_diag(c->diags, i, "type", R_ACTIONS, "Paris is in order; remove it");
	} else if (strcmp(type, "barricades") == 0 || strcmp(type, "liberation") == 0) {
		check_free_roll(c, i, o);
	} else if (strcmp(type, "napoleon") == 0) {
		check_napoleon(c, i, first, o);
	} else {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "\"%s\" is not an order; the Action Phase takes military, political, "
		     "restore-order, barricades, liberation, napoleon", type);
	}
}

/* Prefix the "field" of the diagnostics from `from` on with "`field`[`k`].": they are of a branch's item. */
static void in_branch(json_t *diags, size_t from, const char *field, size_t k)
{
	for (size_t d = from; d < json_array_size(diags); d++) {
		json_t *diag = json_array_get(diags, d);
		const char *inner = est_rules_str(diag, "field");
		char *path = est_strdup_printf("%s[%zu].%s", field, k, inner ? inner : "type");
		if (path)
			json_object_set_new(diag, "field", json_string(path));
		free(path);
	}
}

/*
 * The items of `orders`: the file's own (`field` NULL, each refused at its index) or a branch's
 * (`field` "on-success" or "on-failure" of the file's item `index`, refused there with the path
 * to the item in "field"). `r`: the branches that reach the list, updated to those leaving it.
 */
static void check_list(struct check *c, struct reach *r, int index, const json_t *orders, const char *field)
{
	const json_t *o;
	size_t k;

	json_array_foreach(orders, k, o) {
		int i = field ? index : (int)k;
		size_t before = json_array_size(c->diags);
		if (!json_is_object(o) || !est_rules_str(o, "type")) {
			est_rules_diag(c->diags, i, "type", R_ORDERS, "each order is an object with a \"type\"; see the "
				       "report's examples");
		} else {
			check_item(c, i, !field && k == 0, o);
			check_budget(c, r, i, o, json_array_size(c->diags) > before);
		}
		if (field)
			in_branch(c->diags, before, field, k);
	}
}

int lem_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		 const json_t *orders)
{
	struct check c = {state, rules, json_array(), {0}, 0};
	struct reach r = {{0}, {{0}}};
	static const int none[B_COUNT];

	if (!c.diags)
		return est_error_set(EST_ENOMEM, "out of memory");
	c.limit[B_ACTIONS] = est_rules_int(state, "actions", 0);
	c.limit[B_BARRICADES] = est_rules_int(lem_table(rules, "barricades"), "free_per_turn", 1) -
				est_rules_int(state, "barricades_used", 0);
	c.limit[B_LIBERATION] = est_rules_int(state, "liberation", 0);
	c.limit[B_RESERVES] = c.limit[B_DISORDER] = c.limit[B_NAPOLEON] = 1;
	reach_add(&r, LAST_NONE, none);
	if (strcmp(power, LEM_POWER) != 0 || strcmp(est_rules_str(state, "phase"), "actions") != 0)
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "no Action Phase awaits orders now; wait for the next report");
	else if (!json_is_array(orders))
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "must be an array of orders");
	else
		check_list(&c, &r, -1, orders, NULL);
	return est_rules_validated(diagnostics_out, c.diags);
}
