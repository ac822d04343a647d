/*
 * Levée en Masse: order checks (README.md "Orders"). Every refusal is a
 * diagnostic {"index", "field", "rule", "message"} whose message ends with
 * the fix; the engine prints it with the file name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

#define R_ORDERS "Levée en Masse, orders (README.md)"
#define R_ACTIONS "Levée en Masse, Action Phase"

struct check {
	const json_t *state, *rules;
	json_t *diags;
	int costs, barricades, liberations, reserves, napoleon, disorder;
};

/*
 * The fields each order type takes (README.md "Orders"), "if" in every one
 * (a condition on the roll before), and the one each needs.
 */
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
	if (reserves && (strcmp(reserves, "if-fails") != 0 || !lem_option(c->state, "10.4") || c->reserves++))
		est_rules_diag(c->diags, i, "reserves", "Levée en Masse 10.4", "\"reserves\": \"if-fails\" commits the last reserves "
		     "once a turn, when the game plays with 10.4; remove it or keep one");
	if (!disorder)
		return;
	if (!lem_option(c->state, "10.5") || (strcmp(disorder, "extra") != 0 && strcmp(disorder, "drm-if-needed") != 0))
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "\"disorder\" is \"extra\" (an additional Military "
		     "Action) or \"drm-if-needed\" (+1 after the roll), when the game plays with 10.5; fix or remove it");
	else if (!in_france(c, army))
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "10.5 serves only against an Army in a square space "
		     "(inside France); remove \"disorder\"");
	else if (json_is_true(json_object_get(c->state, "disorder")) || c->disorder++)
		est_rules_diag(c->diags, i, "disorder", "Levée en Masse 10.5", "Paris must be in order to send its forces elsewhere, "
		     "and the Disorder marker is placed once; remove \"disorder\"");
}

static void check_military(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "army", "reserves", "disorder", "if", NULL};
	const char *why;
	json_t *army;

	if (!est_rules_fields_ok(c->diags, i, o, fields, need_army, R_ORDERS) || !(army = army_of(c, i, o)))
		return;
	if (!lem_attackable(&why, c->state, c->rules, army))
		est_rules_diag(c->diags, i, "army", "Levée en Masse 7.2", "%s cannot be attacked: %s; attack the unit nearest Paris "
		     "on that track", est_rules_str(army, "id"), why);
	check_military_options(c, i, o, army);
}

static void check_napoleon(struct check *c, int i, const json_t *o)
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
		if (i != 0 || !triumph || c->napoleon++)
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
	if (est_rules_str(nap, "with") || est_rules_int(nap, "recalled", -1) == turn || c->napoleon++)
		est_rules_diag(c->diags, i, "assign", "Levée en Masse 5.0", "Napoleon must be in the Holding Box, and one recalled "
		     "cannot be redeployed until a later turn; remove it");
	else if (lem_option(c->state, "napoleon-historical") && strcmp(est_rules_str(army, "track"), "Piedmont") != 0 &&
		 strcmp(est_rules_str(army, "track"), "Austrian") != 0)
		est_rules_diag(c->diags, i, "assign", "Levée en Masse 5.0", "the historical limit (an option of this game) keeps "
		     "Napoleon to the Piedmont and Austrian tracks; choose an Army there");
}

/* To the Barricades! and Liberation: free, against an Army on the map, never a Stationary one. */
static void check_free_roll(struct check *c, int i, const json_t *o)
{
	static const char *const one[] = {"type", "army", "if", NULL};
	int barricades = strcmp(est_rules_str(o, "type"), "barricades") == 0, free_rolls =
		est_rules_int(lem_table(c->rules, "barricades"), "free_per_turn", 1);
	json_t *army;

	if (!est_rules_fields_ok(c->diags, i, o, one, need_army, R_ORDERS) || !(army = army_of(c, i, o)))
		return;
	if (json_is_true(json_object_get(army, "stationary")))
		est_rules_diag(c->diags, i, "army", "Levée en Masse 5.0", "a Stationary Army is removed only when "
			       "\"defeated in battle by a French Military Action\"; attack it instead");
	else if (barricades && !in_france(c, army))
		est_rules_diag(c->diags, i, "army", R_ACTIONS, "To the Barricades! is rolled against an Army in a "
			       "square space (inside France); choose one");
	if (barricades && ++c->barricades > free_rolls)
		est_rules_diag(c->diags, i, "type", R_ACTIONS, "To the Barricades! is free %d time%s a turn; remove "
			       "the extra", free_rolls, free_rolls == 1 ? "" : "s");
	if (!barricades && ++c->liberations > est_rules_int(c->state, "liberation", 0))
		est_rules_diag(c->diags, i, "type", R_ACTIONS, "no Liberation marker left to use (%d); remove it",
			       est_rules_int(c->state, "liberation", 0));
}

static void check_item(struct check *c, int i, const json_t *o)
{
	static const char *const political[] = {"type", "marker", "if", NULL};
	static const char *const none[] = {"type", "if", NULL};
	const char *type = est_rules_str(o, "type"), *cond = est_rules_str(o, "if");

	if (!json_is_object(o) || !type) {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "each order is an object with a \"type\"; see the report's examples");
		return;
	}
	if (json_object_get(o, "if") && (!cond || (strcmp(cond, "previous-succeeded") != 0 &&
						   strcmp(cond, "previous-failed") != 0)))
		est_rules_diag(c->diags, i, "if", R_ORDERS, "\"if\" is \"previous-succeeded\" or \"previous-failed\" (the last roll "
		     "before this order); fix or remove it");
	c->costs += lem_costs_action(o);
	if (strcmp(type, "military") == 0)
		check_military(c, i, o);
	else if (strcmp(type, "political") == 0) {
		const char *m = est_rules_str(o, "marker");
		if (est_rules_fields_ok(c->diags, i, o, political, need_marker, R_ORDERS) && (!m || (strcmp(m, "Republic") != 0 &&
			strcmp(m, "Monarchy") != 0 && strcmp(m, "Despotism") != 0)))
			est_rules_diag(c->diags, i, "marker", R_ACTIONS, "a Political Action moves Republic up, or Monarchy or Despotism "
			     "down; name one of them");
	} else if (strcmp(type, "restore-order") == 0) {
		if (est_rules_fields_ok(c->diags, i, o, none, NULL, R_ORDERS) && !json_is_true(json_object_get(c->state, "disorder")) && !c->disorder)
			est_rules_diag(c->diags, i, "type", R_ACTIONS, "Paris is in order; remove it");
	} else if (strcmp(type, "barricades") == 0 || strcmp(type, "liberation") == 0) {
		check_free_roll(c, i, o);
	} else if (strcmp(type, "napoleon") == 0) {
		check_napoleon(c, i, o);
	} else {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "\"%s\" is not an order; the Action Phase takes military, political, "
		     "restore-order, barricades, liberation, napoleon", type);
	}
}

int lem_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		 const json_t *orders)
{
	struct check c = {state, rules, json_array(), 0, 0, 0, 0, 0, 0};
	const json_t *o;
	size_t i;

	if (!c.diags)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (strcmp(power, LEM_POWER) != 0 || strcmp(est_rules_str(state, "phase"), "actions") != 0)
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "no Action Phase awaits orders now; wait for the next report");
	else if (!json_is_array(orders))
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "must be an array of orders");
	else
		json_array_foreach(orders, i, o)
			check_item(&c, (int)i, o);
	if (json_array_size(c.diags) == 0 && c.costs > est_rules_int(state, "actions", 0))
		est_rules_diag(c.diags, -1, "orders", R_ACTIONS, "%d orders cost an Action (every one counts, conditions or not) "
		     "and this turn gives %d; drop %d", c.costs, est_rules_int(state, "actions", 0),
		     c.costs - est_rules_int(state, "actions", 0));
	return est_rules_validated(diagnostics_out, c.diags);
}
