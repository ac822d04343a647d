/*
 * Levée en Masse: the Action Phase, carried out item by item in the order
 * given. An item may carry "if": "previous-succeeded" | "previous-failed",
 * so the player answers in advance what the dice may bring (README.md
 * "Orders"); an item whose condition does not hold costs nothing.
 */
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

int lem_costs_action(const json_t *order)
{
	const char *type = est_rules_str(order, "type"), *disorder = est_rules_str(order, "disorder");

	if (strcmp(type, "military") == 0)
		return !disorder || strcmp(disorder, "extra") != 0;
	return strcmp(type, "political") == 0 || strcmp(type, "restore-order") == 0;
}

/* A d6 against a table's target, with a DRM: the Political Action and Restore Order. */
static int target_roll(int *won_out, est_dice *dice, const json_t *table, int drm, const char *what)
{
	int roll, error;

	if ((error = est_rules_roll(&roll, dice, est_rules_int(table, "die", 6), "%s", what)) < 0)
		return error;
	*won_out = roll + drm >= est_rules_int(table, "target", 4);
	return roll;
}

static int political(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		     const json_t *order)
{
	const char *marker = est_rules_str(order, "marker"), *high = lem_highest(state);
	const json_t *nap = json_object_get(state, "napoleon");
	int drm = (high ? est_rules_int(json_object_get(lem_table(rules, "political_drm"), high), "political", 0) : 0) +
		  (nap && est_rules_str(nap, "with") ? est_rules_int(lem_table(rules, "napoleon"), "political_drm", -1) : 0);
	int roll = target_roll(won_out, dice, lem_table(rules, "political_action"), drm, "Political Action"), error;

	if (roll < 0)
		return roll;
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:i}", "marker", marker, "roll", roll, "drm", drm),
				     "political-action", "Political Action on %s: rolls %d %+d (%s%s) against %d: %s",
				     marker, roll, drm, high ? high : "no single highest marker",
				     nap && est_rules_str(nap, "with") ? ", Napoleon campaigning" : "",
				     est_rules_int(lem_table(rules, "political_action"), "target", 4),
				     *won_out ? "success" : "fails")) < 0 || !*won_out)
		return error;
	return lem_shift(state, events, rules, marker, strcmp(marker, "Republic") == 0 ? 1 : -1, "a Political Action");
}

static int restore_order(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	int roll = target_roll(won_out, dice, lem_table(rules, "restore_order"), 0, "Restore Order in Paris");

	if (roll < 0)
		return roll;
	if (*won_out)
		json_object_set_new(state, "disorder", json_false());
	return est_rules_event(events, json_pack("{s:i}", "roll", roll), "restore-order",
			       "Restore Order in Paris: rolls %d against %d: %s", roll,
			       est_rules_int(lem_table(rules, "restore_order"), "target", 4),
			       *won_out ? "order is restored" : "Disorder remains");
}

/* A free "To the Barricades!" roll against an Army inside France; 10.3 sets its political price. */
static int barricades(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		      json_t *army)
{
	int roll = target_roll(won_out, dice, lem_table(rules, "barricades"), 0, "To the Barricades!"), error;
	const char *color = lem_deck_color(state, rules);

	if (roll < 0)
		return roll;
	json_object_set_new(state, "barricades_used", json_integer(est_rules_int(state, "barricades_used", 0) + 1));
	if ((error = est_rules_event(events, json_pack("{s:s, s:i}", "army", est_rules_str(army, "id"), "roll", roll),
				     "barricades", "To the Barricades! against %s: rolls %d against %d: %s",
				     lem_army_name(rules, est_rules_str(army, "id")), roll,
				     est_rules_int(lem_table(rules, "barricades"), "target", 5),
				     *won_out ? "success" : "fails")) < 0 || !*won_out)
		return error;
	if ((error = lem_push_back(state, events, rules, army, "To the Barricades!")) < 0)
		return error;
	/* 10.3 Nothing is Free: +1 Monarchy in the Blue deck, +1 Despotism in the White or Red. */
	if (!lem_option(state, "10.3"))
		return 0;
	return lem_shift(state, events, rules, color && strcmp(color, "Blue") == 0 ? "Monarchy" : "Despotism", 1,
			 "10.3 Nothing is Free");
}

static int napoleon(json_t *state, json_t *events, const json_t *rules, const json_t *order)
{
	json_t *nap = json_object_get(state, "napoleon");
	const char *army = est_rules_str(order, "assign");

	if (army) {
		json_object_set_new(nap, "with", json_string(army));
		return est_rules_event(events, json_pack("{s:s}", "army", army), "napoleon", "Napoleon leaves the "
				       "Holding Box to fight %s: +1 to Military Actions against it, -1 to all Political "
				       "Actions while he campaigns (5.0)", lem_army_name(rules, army));
	}
	json_object_set_new(nap, "with", json_null());
	json_object_set_new(nap, "recalled", json_integer((json_int_t)json_array_size(json_object_get(state, "played"))));
	return est_rules_event(events, NULL, "napoleon", "Napoleon is detached in triumph and returns to the "
			       "Holding Box; he cannot be redeployed until a later turn (5.0)");
}

static int liberation(json_t *state, json_t *events, const json_t *rules, json_t *army)
{
	json_object_set_new(state, "liberation", json_integer(est_rules_int(state, "liberation", 0) - 1));
	if (est_rules_event(events, NULL, "liberation", "a Liberation marker is used (%d left)",
			    est_rules_int(state, "liberation", 0)) < 0)
		return est_error_code();
	return lem_push_back(state, events, rules, army, "a Liberation marker");
}

/* One item; *won_out is its roll's outcome (-1: it rolled nothing). */
static int item(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		const json_t *order)
{
	const char *type = est_rules_str(order, "type");
	json_t *army = lem_army(state, est_rules_str(order, "army"));

	*won_out = -1;
	if (lem_costs_action(order))
		json_object_set_new(state, "actions", json_integer(est_rules_int(state, "actions", 0) - 1));
	if (strcmp(type, "military") == 0) {
		const char *disorder = est_rules_str(order, "disorder");
		/* 10.5.1: "place the Disorder marker in Paris and ... take an additional Military Action" */
		if (disorder && strcmp(disorder, "extra") == 0)
			json_object_set_new(state, "disorder", json_true());
		return lem_military(won_out, state, events, rules, dice, order);
	}
	if (strcmp(type, "political") == 0)
		return political(won_out, state, events, rules, dice, order);
	if (strcmp(type, "restore-order") == 0)
		return restore_order(won_out, state, events, rules, dice);
	if (strcmp(type, "barricades") == 0)
		return barricades(won_out, state, events, rules, dice, army);
	if (strcmp(type, "liberation") == 0)
		return liberation(state, events, rules, army);
	return napoleon(state, events, rules, order);
}

/* Whether an item's "if" holds after the last roll (`last`: 1 won, 0 failed, -1 none yet). */
static int condition_holds(const json_t *order, int last)
{
	const char *cond = est_rules_str(order, "if");

	if (!cond)
		return 1;
	return strcmp(cond, "previous-succeeded") == 0 ? last == 1 : last == 0;
}

int lem_actions(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const json_t *orders)
{
	const json_t *o;
	size_t i;
	int last = -1, won, error;

	json_array_foreach(orders, i, o) {
		if (!condition_holds(o, last)) {
			if ((error = est_rules_event(events, json_pack("{s:i}", "index", (int)i), "skipped",
						     "order %zu (%s) is not carried out: its condition \"%s\" does "
						     "not hold", i + 1, est_rules_str(o, "type"), est_rules_str(o, "if"))) < 0)
				return error;
			continue;
		}
		/* Earlier items may have changed the map: an attack that is no longer allowed is skipped. */
		if (strcmp(est_rules_str(o, "type"), "military") == 0) {
			const char *why;
			if (!lem_attackable(&why, state, rules, lem_army(state, est_rules_str(o, "army")))) {
				if ((error = est_rules_event(events, NULL, "skipped", "order %zu: %s cannot be attacked "
							     "now: %s", i + 1, est_rules_str(o, "army"), why)) < 0)
					return error;
				continue;
			}
		}
		if ((error = item(&won, state, events, rules, dice, o)) < 0)
			return error;
		if (won >= 0)
			last = won;
	}
	return 0;
}
