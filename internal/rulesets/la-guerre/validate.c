/*
 * La Guerre de l'Empereur: order checks (README.md "Orders"). Every refusal
 * is a diagnostic {"index", "field", "rule", "message"} whose message ends
 * with the fix; the engine prints it with the file name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

#define R_MOVE "La Guerre, movement (placeholder, RULINGS.md L4)"
#define R_ENTER "La Guerre 5.513"
#define R_SEQUENCE "La Guerre 5.612"
#define R_OPTIONS "La Guerre 5.616"
#define R_EMBARGO "La Guerre 4.241"
#define R_ORDERS "La Guerre, orders (README.md)"
#define R_TREATY "La Guerre 4.241, treaties (placeholder, RULINGS.md L27)"

#define MAX_PATH 12

struct check {
	const json_t *state, *rules;
	const json_t *start; /* the state at the start of the turn; `state` has the file's treaties concluded */
	const char *power;
	json_t *diags;
	json_t *armies;   /* army id -> 1: one order per army */
	json_t *standing; /* "at/step" -> 1 */
	json_t *ends;     /* province -> 1: where this file's moves end */
	json_t *treaties; /* nation -> 1: one treaty order per nation */
	int answers, buys, embargoes;
};

static const char *string_field(struct check *c, int i, const json_t *o, const char *field)
{
	const json_t *v = json_object_get(o, field);

	if (v && !json_is_string(v)) {
		est_rules_diag(c->diags, i, field, R_ORDERS, "must be a string; quote it");
		return NULL;
	}
	return json_string_value(v);
}

static const char *province_field(struct check *c, int i, const json_t *o, const char *field)
{
	const char *name = string_field(c, i, o, field);

	if (name && !lg_province_data(c->rules, name)) {
		est_rules_diag(c->diags, i, field, R_ORDERS, "\"%s\" is not a province of the map; spell it as rules/map.json "
		     "does (e.g. \"Bavaria\", \"Upper Austria\")", name);
		return NULL;
	}
	return name;
}

/* The power's own army named in `o`, once per file. */
static json_t *own_army(struct check *c, int i, const json_t *o)
{
	const char *id = string_field(c, i, o, "army");
	json_t *army = id ? lg_army(c->state, id) : NULL;

	if (!id)
		return NULL;
	if (!army) {
		est_rules_diag(c->diags, i, "army", R_ORDERS, "there is no army \"%s\" on the map; use an id from the "
		     "report's list of armies", id);
		return NULL;
	}
	if (strcmp(est_rules_str(army, "nation"), c->power) != 0) {
		est_rules_diag(c->diags, i, "army", R_ORDERS, "army \"%s\" is %s's, not %s's; order only %s's armies (a player "
		     "holding both powers adds \"power\": \"%s\" to the order)", id, est_rules_str(army, "nation"),
		     c->power, c->power, est_rules_str(army, "nation"));
		return NULL;
	}
	if (json_object_get(c->armies, id)) {
		est_rules_diag(c->diags, i, "army", R_MOVE, "army \"%s\" already has an order in this file; an army moves or "
		     "besieges once a turn, so give it one order", id);
		return NULL;
	}
	json_object_set_new(c->armies, id, json_true());
	return army;
}

/* Whether `name` is among the first `k` strings of `list`. */
static int in_path_before(const json_t *list, size_t k, const char *name)
{
	for (size_t j = 0; j < k; j++)
		if (strcmp(json_string_value(json_array_get(list, j)), name) == 0)
			return 1;
	return 0;
}

/*
 * A step of the path from `at` into `to`, as the map stood at the start of
 * the turn; `last` says whether the path ends there.
 */
static int path_step(struct check *c, int i, const json_t *army, const char *at, const char *to, int last)
{
	const char *side = lg_army_side(c->rules, army);
	int bars;

	if (!lg_adjacent(c->rules, at, to)) {
		est_rules_diag(c->diags, i, "path", R_MOVE, "%s is not adjacent to %s; list every province entered, in order", to, at);
		return 0;
	}
	if (!lg_side_of(c->rules, lg_controller(c->state, to))) {
		est_rules_diag(c->diags, i, "path", R_MOVE, "%s is neutral (%s) and may not be entered (RULINGS.md L5); go "
		     "around it", to, lg_controller(c->state, to));
		return 0;
	}
	bars = lg_treaty_bars(c->state, c->rules, army, to);
	if (bars && !lg_treaty_bars(c->start, c->rules, army, to)) {
		est_rules_diag(c->diags, i, "path", R_TREATY, "entering %s would break the treaty with France that "
		     "this file concludes: a treaty takes effect as soon as the turn is read, before any army "
		     "moves (RULINGS.md L27); end the move before %s, or leave the treaty order out (an offer "
		     "not accepted in this turn lapses)", to, to);
		return 0;
	}
	if (bars) {
		est_rules_diag(c->diags, i, "path", R_TREATY, "entering %s would break a treaty with France that is "
		     "still in force, an alliance or an enforced peace (the report's diplomacy says until when; "
		     "RULINGS.md L27); go around it, or wait for the treaty to expire", to);
		return 0;
	}
	if (!last && lg_army_at(c->state, c->rules, to, lg_other_side(side))) {
		est_rules_diag(c->diags, i, "path", R_ENTER, "an enemy army holds %s: entering it ends the move with a battle; "
		     "end the path there", to);
		return 0;
	}
	if (!last && lg_enemy(c->state, c->rules, to, side) && est_rules_int(lg_province(c->state, to), "garrison", 0) > 0) {
		est_rules_diag(c->diags, i, "path", R_ENTER, "an enemy garrison holds %s: entering it ends the move with a siege "
		     "(RULINGS.md L6); end the path there", to);
		return 0;
	}
	if (last && lg_army_at(c->state, c->rules, to, side)) {
		est_rules_diag(c->diags, i, "path", R_MOVE, "%s already holds an army of your side, and armies do not stack "
		     "(RULINGS.md L7); end the move elsewhere", to);
		return 0;
	}
	return 1;
}

static void check_move(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "army", "path", NULL};
	const json_t *path = json_object_get(o, "path"), *p;
	json_t *army;
	const char *at;
	size_t k;

	if (!est_rules_fields_ok(c->diags, i, o, fields, fields, R_ORDERS) || !(army = own_army(c, i, o)))
		return;
	if (!json_is_array(path) || json_array_size(path) == 0 || json_array_size(path) > MAX_PATH) {
		est_rules_diag(c->diags, i, "path", R_MOVE, "must be an array of 1 to %d provinces, those entered in order", MAX_PATH);
		return;
	}
	at = est_rules_str(army, "location");
	json_array_foreach(path, k, p) {
		const char *to = json_is_string(p) ? json_string_value(p) : NULL;
		if (!to || !lg_province_data(c->rules, to)) {
			est_rules_diag(c->diags, i, "path", R_ORDERS, "path[%zu] is not a province of the map; spell it as "
			     "rules/map.json does", k);
			return;
		}
		if (strcmp(to, est_rules_str(army, "location")) == 0 || in_path_before(path, k, to)) {
			est_rules_diag(c->diags, i, "path", R_MOVE, "path[%zu] enters %s a second time; a path enters each province "
			     "once", k, to);
			return;
		}
		if (!path_step(c, i, army, at, to, k + 1 == json_array_size(path)))
			return;
		at = to;
	}
	/* RULINGS.md L7, for the moves of one file: two armies of a side do not end in one province. */
	if (json_object_get(c->ends, at))
		est_rules_diag(c->diags, i, "path", R_MOVE, "another move of this file already ends in %s, and armies do not "
		     "stack (RULINGS.md L7); end this one elsewhere", at);
	json_object_set_new(c->ends, at, json_true());
	if (lg_path_cost(c->rules, path) > est_rules_int(army, "movement", 0))
		est_rules_diag(c->diags, i, "path", R_MOVE, "the path costs %d Movement Points (mountains cost %d) and army \"%s\" "
		     "has %d; shorten it", lg_path_cost(c->rules, path),
		     est_rules_int(lg_table(c->rules, "movement"), "mountain", 2), est_rules_str(army, "id"),
		     est_rules_int(army, "movement", 0));
}

static void check_besiege(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "army", NULL};
	json_t *army;
	const char *at;

	if (!est_rules_fields_ok(c->diags, i, o, fields, fields, R_ORDERS) || !(army = own_army(c, i, o)))
		return;
	at = est_rules_str(army, "location");
	if (!lg_enemy(c->state, c->rules, at, lg_army_side(c->rules, army)) ||
	    est_rules_int(lg_province(c->state, at), "garrison", 0) <= 0)
		est_rules_diag(c->diags, i, "army", R_MOVE, "army \"%s\" is in %s, where no enemy garrison stands; besiege only "
		     "from a province held by an enemy garrison", est_rules_str(army, "id"), at);
}

/* Which options a decision at `step` may take (5.612 steps 4-6, and 9 for the loser's retreat). */
static int option_fits(int step, const char *option)
{
	if (strcmp(option, "none") == 0 || strcmp(option, "retreat") == 0)
		return 1;
	if (step == 9)
		return 0;
	if (strcmp(option, "attack") == 0)
		return 1;
	return step != 6 && (strcmp(option, "auxiliary") == 0 || strcmp(option, "bombard") == 0);
}

static void check_standing(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "at", "step", "option", "to", NULL};
	static const char *const required[] = {"type", "at", "step", "option", NULL};
	const json_t *step_v = json_object_get(o, "step");
	const char *at, *option, *to;
	char key[160];
	long long step;

	if (!est_rules_fields_ok(c->diags, i, o, fields, required, R_ORDERS) || !(at = province_field(c, i, o, "at")) ||
	    !(option = string_field(c, i, o, "option")))
		return;
	if (!lg_side_of(c->rules, lg_controller(c->state, at))) {
		est_rules_diag(c->diags, i, "at", R_SEQUENCE, "%s is neutral, and no battle is fought there (RULINGS.md L5); "
		     "name a province of either side", at);
		return;
	}
	if (!json_is_integer(step_v)) {
		est_rules_diag(c->diags, i, "step", R_SEQUENCE, "must be a number, 4, 5, 6 or 9, without quotes");
		return;
	}
	step = json_integer_value(step_v);
	if (step != 4 && step != 5 && step != 6 && step != 9) {
		est_rules_diag(c->diags, i, "step", R_SEQUENCE, "a standing order answers 5.612 step 4, 5 or 6 (the options) or "
		     "9 (where to retreat after a lost attack); give one of 4, 5, 6, 9");
		return;
	}
	if (!option_fits((int)step, option)) {
		est_rules_diag(c->diags, i, "option", R_SEQUENCE, "\"%s\" is not an option at step %lld; choose %s", option, step,
		     step == 9 ? "retreat (or none)" : step == 6 ? "attack or retreat (or none)" :
		     "attack, retreat, auxiliary or bombard (or none)");
		return;
	}
	if ((to = province_field(c, i, o, "to")) && (strcmp(option, "retreat") != 0 || !lg_adjacent(c->rules, at, to)))
		est_rules_diag(c->diags, i, "to", R_OPTIONS, "a retreat goes to a province adjacent to %s, and \"to\" only "
		     "goes with the retreat option; fix or remove it", at);
	snprintf(key, sizeof(key), "%s/%lld", at, step);
	if (json_object_get(c->standing, key))
		est_rules_diag(c->diags, i, "at", R_ORDERS, "a second standing order for %s, step %lld; give one", at, step);
	json_object_set_new(c->standing, key, json_true());
}

/* Why `nation` is not `power`'s to keep in the embargo (4.241, RULINGS.md L22), or NULL if it is. */
static char *not_keepable(const struct check *c, const char *nation)
{
	const json_t *d = json_object_get(json_object_get(c->state, "diplomacy"), nation);
	const char *holder = lg_embargo_holder(c->state, c->rules, nation);

	if (!holder)
		return est_strdup_printf("%s is a non-player nation: after its treaty expires it remains part of the "
					 "Embargo, with no player to decide (4.241)", nation);
	if (strcmp(holder, c->power) != 0)
		return est_strdup_printf("whether %s stays in the Embargo is for %s's player to decide (4.241: "
					 "\"at the player's discretion\"; a player holding %s and other powers "
					 "adds \"power\": \"%s\" to the order)", nation, holder, holder, holder);
	if (lg_treaty_live(c->state, nation))
		return est_strdup_printf("%s's %s with France has not expired: it counts by its treaty this winter",
					 nation, est_rules_str(d, "status"));
	if (!lg_treaty_expired(c->state, nation))
		return est_strdup_printf("%s has no expired alliance or enforced peace with France, and 4.241 leaves "
					 "a nation in the Embargo at its player's discretion only after one expires",
					 nation);
	return NULL;
}

/*
 * 4.241 "that nation may still be considered part of the Embargo at the
 * player's discretion" (RULINGS.md L22): in its Winter turn, a power keeps
 * in the embargo the nations it holds whose treaty with France has expired.
 */
static void check_embargo(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "keep", NULL};
	const json_t *members = json_object_get(json_object_get(lg_scenario(c->rules), "embargo"), "members");
	const json_t *keep = json_object_get(o, "keep"), *v;
	size_t k;

	if (!est_rules_fields_ok(c->diags, i, o, fields, fields, R_ORDERS))
		return;
	if (strcmp(est_rules_str(c->state, "season"), "Winter") != 0) {
		est_rules_diag(c->diags, i, "type", R_EMBARGO, "a nation is kept in the embargo in its holder's "
		     "Winter turn, for the winter phase that follows; send the order then");
		return;
	}
	if (!json_is_array(keep)) {
		est_rules_diag(c->diags, i, "keep", R_EMBARGO, "must be an array of nations (possibly empty)");
		return;
	}
	if (++c->embargoes > 1)
		est_rules_diag(c->diags, i, "type", R_ORDERS, "a second embargo order; give one");
	json_array_foreach(keep, k, v) {
		char *why = NULL;
		if (!json_is_string(v) || !est_rules_in_list(members, json_string_value(v)))
			est_rules_diag(c->diags, i, "keep", R_EMBARGO, "keep[%zu] is not a nation of the embargo; name "
			     "Russia, Prussia or Spain", k);
		else if ((why = not_keepable(c, json_string_value(v))))
			est_rules_diag(c->diags, i, "keep", R_EMBARGO, "keep[%zu]: %s; remove it", k, why);
		free(why);
	}
}

static void check_buy(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "vp", NULL};
	const json_t *vp = json_object_get(o, "vp");
	int max = est_rules_int(json_object_get(lg_scenario(c->rules), "embargo"), "britain_buy_max", 10);

	if (!est_rules_fields_ok(c->diags, i, o, fields, fields, R_ORDERS))
		return;
	if (strcmp(c->power, "Britain") != 0 || strcmp(est_rules_str(c->state, "season"), "Winter") != 0) {
		est_rules_diag(c->diags, i, "type", R_EMBARGO, "only Britain buys VPs, in the Coalition's winter turn; remove it "
		     "(a player holding Britain and other powers adds \"power\": \"Britain\")");
		return;
	}
	if (!json_is_integer(vp) || json_integer_value(vp) < 0 || json_integer_value(vp) > max)
		est_rules_diag(c->diags, i, "vp", R_EMBARGO, "must be an integer from 0 to %d (at most 5 in a winter when "
		     "France's embargo is complete)", max);
	if (++c->buys > 1)
		est_rules_diag(c->diags, i, "type", R_ORDERS, "a second buy-vp order; give one");
}

/*
 * RULINGS.md L27: France concludes a treaty with a non-player nation of the
 * embargo, or offers one to a power; the power accepts an offer standing.
 */
static void check_treaty(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "nation", "treaty", NULL};
	const json_t *members = json_object_get(json_object_get(lg_scenario(c->rules), "embargo"), "members");
	const char *nation, *kind, *offer;

	if (!est_rules_fields_ok(c->diags, i, o, fields, fields, R_ORDERS) ||
	    !(nation = string_field(c, i, o, "nation")) || !(kind = string_field(c, i, o, "treaty")))
		return;
	if (strcmp(kind, "peace") != 0 && strcmp(kind, "alliance") != 0) {
		est_rules_diag(c->diags, i, "treaty", R_TREATY, "\"%s\" is no treaty of 4.241; give \"peace\" (an "
		     "enforced peace) or \"alliance\"", kind);
		return;
	}
	if (json_object_get(c->treaties, nation)) {
		est_rules_diag(c->diags, i, "nation", R_ORDERS, "a second treaty order with %s; give one", nation);
		return;
	}
	json_object_set_new(c->treaties, nation, json_true());
	if (strcmp(c->power, LG_FRANCE) != 0) {
		offer = est_rules_str(json_object_get(c->state, "offers"), c->power);
		if (strcmp(nation, LG_FRANCE) != 0)
			est_rules_diag(c->diags, i, "nation", R_TREATY, "%s makes treaties with France only; give "
			     "\"nation\": \"France\"", c->power);
		else if (!offer || strcmp(offer, kind) != 0)
			est_rules_diag(c->diags, i, "treaty", R_TREATY, "France has offered %s %s this season; accept "
			     "only the treaty France offers (its turn's report says which), or remove the order",
			     c->power, offer ? (strcmp(offer, "peace") == 0 ? "an enforced peace, not an alliance," :
			     "an alliance, not an enforced peace,") : "no treaty");
		return;
	}
	if (!est_rules_in_list(members, nation))
		est_rules_diag(c->diags, i, "nation", R_TREATY, "France's treaties that 4.241 counts are with Russia, "
		     "Prussia or Spain; name one of them");
	else if (lg_treaty_live(c->state, nation))
		est_rules_diag(c->diags, i, "nation", R_TREATY, "%s already has a treaty with France that has not "
		     "expired (the report's diplomacy says until when); remove the order", nation);
}

/* The answer to the decision the battle awaits (5.612 steps 4-6, or 9). */
static void check_answer(struct check *c, int i, const json_t *o)
{
	static const char *const fields[] = {"type", "option", "to", NULL};
	static const char *const retreat_fields[] = {"type", "to", NULL};
	const json_t *battle = json_object_get(c->state, "battle");
	const char *type = est_rules_str(o, "type"), *option = "retreat", *to;
	int step = est_rules_int(battle, "step", 0);

	if (++c->answers > 1) {
		est_rules_diag(c->diags, i, "type", R_SEQUENCE, "a second answer to the decision; give one");
		return;
	}
	if ((step == 9) != (strcmp(type, "retreat") == 0)) {
		est_rules_diag(c->diags, i, "type", R_SEQUENCE, "step %d awaits %s", step, step == 9 ?
		     "a \"retreat\" order naming where to go" : "an \"option\" order");
		return;
	}
	if (!est_rules_fields_ok(c->diags, i, o, step == 9 ? retreat_fields : fields, NULL, R_ORDERS))
		return;
	if (step != 9 && !(option = string_field(c, i, o, "option"))) {
		if (!json_object_get(o, "option"))
			est_rules_diag(c->diags, i, "option", R_SEQUENCE, "an option order needs \"option\"; add it");
		return;
	}
	if (!option_fits(step, option) || strcmp(option, "none") == 0) {
		est_rules_diag(c->diags, i, "option", R_SEQUENCE, "\"%s\" is not an option at step %d; choose %s", option,
		     step, step == 6 ? "attack or retreat (step 6: the initiative player must)" :
		     "attack, retreat, auxiliary or bombard");
		return;
	}
	if (strcmp(option, "bombard") == 0) {
		const char *awaited, *kind;
		json_t *army;
		lg_battle_awaits(&awaited, &kind, c->state);
		army = lg_army_at(c->state, c->rules, est_rules_str(battle, "province"),
				  lg_side_of(c->rules, awaited));
		if (est_rules_int(army, "artillery", 0) == 0)
			est_rules_diag(c->diags, i, "option", R_OPTIONS, "your army has no artillery unit to bombard with; choose "
			     "attack, retreat or auxiliary");
	}
	if (json_object_get(o, "to") && strcmp(option, "retreat") != 0) {
		est_rules_diag(c->diags, i, "to", R_OPTIONS, "\"to\" goes with the retreat option only; remove it");
		return;
	}
	if ((to = province_field(c, i, o, "to"))) {
		const char *awaited, *kind;
		json_t *opts, *v;
		size_t k;
		int open = 0;
		lg_battle_awaits(&awaited, &kind, c->state);
		opts = lg_retreat_options(c->state, c->rules, lg_army_at(c->state, c->rules, est_rules_str(battle, "province"),
									 lg_side_of(c->rules, awaited)));
		json_array_foreach(opts, k, v)
			open |= strcmp(json_string_value(v), to) == 0;
		if (!open)
			est_rules_diag(c->diags, i, "to", R_OPTIONS, "%s is not open to this army's retreat (an adjacent friendly "
			     "province with no army); name one the report lists, or leave \"to\" out", to);
		json_decref(opts);
	}
}

static const char *turn_types(const struct check *c)
{
	return strcmp(c->power, "Britain") == 0 ? "move, besiege, standing, treaty, embargo (in winter), buy-vp" :
	       "move, besiege, standing, treaty, embargo (in winter)";
}

static void check_item(struct check *c, int i, const json_t *o)
{
	const char *type = est_rules_str(o, "type");
	int battle = json_object_get(c->state, "battle") != NULL;

	if (!json_is_object(o) || !type) {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "each order is an object with a \"type\"; see the report's "
		     "order examples");
		return;
	}
	if (strcmp(type, "standing") == 0)
		check_standing(c, i, o);
	else if (battle && (strcmp(type, "option") == 0 || strcmp(type, "retreat") == 0))
		check_answer(c, i, o);
	else if (!battle && strcmp(type, "move") == 0)
		check_move(c, i, o);
	else if (!battle && strcmp(type, "besiege") == 0)
		check_besiege(c, i, o);
	else if (!battle && strcmp(type, "embargo") == 0)
		check_embargo(c, i, o);
	else if (!battle && strcmp(type, "buy-vp") == 0)
		check_buy(c, i, o);
	else if (!battle && strcmp(type, "treaty") == 0)
		check_treaty(c, i, o);
	else
		est_rules_diag(c->diags, i, "type", R_ORDERS, "\"%s\" is not an order this step takes; it takes %s", type,
		     battle ? (est_rules_int(json_object_get(c->state, "battle"), "step", 0) == 9 ? "retreat, standing" :
			       "option, standing") : turn_types(c));
}

/* Whether the state awaits `power` now. */
static int awaited(const json_t *state, const json_t *rules, const char *power)
{
	const char *who, *kind;
	json_t *powers, *p;
	size_t i;
	int yes = 0;

	if (strcmp(est_rules_str(state, "phase"), "turn") != 0)
		return 0;
	lg_battle_awaits(&who, &kind, state);
	if (who)
		return strcmp(who, power) == 0;
	powers = lg_side_powers(rules, est_rules_str(state, "side"));
	json_array_foreach(powers, i, p)
		yes |= strcmp(json_string_value(p), power) == 0;
	json_decref(powers);
	return yes;
}

/* The diagnostics in the order of their items (a stable sort by "index"). */
static int by_item(json_t *diags)
{
	size_t n = json_array_size(diags);

	for (size_t k = 1; k < n; k++) {
		json_t *d = json_incref(json_array_get(diags, k));
		json_int_t index = json_integer_value(json_object_get(d, "index"));
		size_t j = k;
		while (j > 0 && json_integer_value(json_object_get(json_array_get(diags, j - 1), "index")) > index)
			j--;
		if (j < k && (json_array_remove(diags, k) < 0 || json_array_insert(diags, j, d) < 0)) {
			json_decref(d);
			return est_error_set(EST_ENOMEM, "out of memory");
		}
		json_decref(d);
	}
	return 0;
}

/*
 * The items that take effect when the turn is read (treaties, standing
 * orders...) are checked against the start of the turn; those accepted are
 * applied to a copy by lg_take_orders, as the turn applies them, and the
 * moves and sieges are checked against that copy. So a move into a
 * province that a treaty of the same file puts at peace is refused, in
 * whatever order the file gives them (RULINGS.md L27), and a file check
 * accepts is carried out as written.
 */
static int check_items(struct check *c, const json_t *orders)
{
	json_t *taken = json_array(), *events = json_array(), *board = json_deep_copy(c->state), *o;
	size_t i;
	int error = taken && events && board ? 0 : est_error_set(EST_ENOMEM, "out of memory");

	json_array_foreach(orders, i, o) {
		size_t before = json_array_size(c->diags);
		if (error || !lg_order_at_once(est_rules_str(o, "type")))
			continue;
		check_item(c, (int)i, o);
		if (json_array_size(c->diags) == before && json_array_append(taken, o) < 0)
			error = est_error_set(EST_ENOMEM, "out of memory");
	}
	if (!error && (error = lg_take_orders(board, events, c->rules, c->power, taken)) == 0) {
		c->state = board;
		json_array_foreach(orders, i, o)
			if (!lg_order_at_once(est_rules_str(o, "type")))
				check_item(c, (int)i, o);
		c->state = c->start;
		error = by_item(c->diags);
	}
	json_decref(taken);
	json_decref(events);
	json_decref(board);
	return error;
}

int lg_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules,
		const char *power, const json_t *orders)
{
	struct check c = {state, rules, state, power, json_array(), json_object(), json_object(), json_object(),
			  json_object(), 0, 0, 0};
	int error = 0;

	if (!c.diags || !c.armies || !c.standing || !c.ends || !c.treaties)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if (!awaited(state, rules, power))
		est_rules_diag(c.diags, -1, "orders", R_SEQUENCE, "%s is not awaited at this step; wait for the report that "
		     "asks for %s's orders", power, power);
	else if (!json_is_array(orders))
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "must be an array of orders");
	else
		error = check_items(&c, orders);
	if (!error && json_array_size(c.diags) == 0 && json_object_get(state, "battle") && c.answers == 0 &&
	    json_is_array(orders))
		est_rules_diag(c.diags, -1, "orders", R_SEQUENCE, "the battle awaits your decision; add one %s order",
		     est_rules_int(json_object_get(state, "battle"), "step", 0) == 9 ? "\"retreat\"" : "\"option\"");
	json_decref(c.armies);
	json_decref(c.standing);
	json_decref(c.ends);
	json_decref(c.treaties);
	if (error < 0) {
		json_decref(c.diags);
		return error;
	}
	return est_rules_validated(diagnostics_out, c.diags);
}
