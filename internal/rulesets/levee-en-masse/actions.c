/*
 * Levée en Masse: the Action Phase, carried out item by item in the order
 * given. The player answers in advance what the dice may bring (README.md
 * "Orders"): an item that rolls may carry the orders that follow its
 * success ("on-success") and its failure ("on-failure"), and any item may
 * carry "if": "previous-succeeded" | "previous-failed" (the last roll made
 * before it). Only the items carried out spend Actions; the events say
 * which branch ran and which items were passed over.
 */
#include <stdio.h>
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
static int target_roll(int *won_out, const json_t *state, est_dice *dice, const json_t *table, int drm,
		       const char *what)
{
	int roll, error;

	if ((error = lem_roll(&roll, state, dice, est_rules_int(table, "die", 6), "%s", what)) < 0)
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
	int roll = target_roll(won_out, state, dice, lem_table(rules, "political_action"), drm, "Political Action"), error;

	if (roll < 0)
		return roll;
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:i}", "marker", marker, "roll", roll, "drm", drm),
				     "political-action", "Political Action on %s: rolls %d %+d (%s%s) = %d, needs %d or "
				     "more (RULINGS.md M6): %s", marker, roll, drm, high ? high : "no single highest marker",
				     nap && est_rules_str(nap, "with") ? ", Napoleon campaigning" : "", roll + drm,
				     est_rules_int(lem_table(rules, "political_action"), "target", 4),
				     *won_out ? "success" : "fails")) < 0 || !*won_out)
		return error;
	return lem_shift(state, events, rules, marker, strcmp(marker, "Republic") == 0 ? 1 : -1, "a Political Action");
}

static int restore_order(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	int roll = target_roll(won_out, state, dice, lem_table(rules, "restore_order"), 0, "Restore Order in Paris");

	if (roll < 0)
		return roll;
	if (*won_out)
		json_object_set_new(state, "disorder", json_false());
	return est_rules_event(events, json_pack("{s:i}", "roll", roll), "restore-order",
			       "Restore Order in Paris: rolls %d, needs %d or more (RULINGS.md M7): %s", roll,
			       est_rules_int(lem_table(rules, "restore_order"), "target", 4),
			       *won_out ? "order is restored" : "Disorder remains");
}

/* A free "To the Barricades!" roll against an Army inside France; 10.3 sets its political price. */
static int barricades(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		      json_t *army)
{
	int roll = target_roll(won_out, state, dice, lem_table(rules, "barricades"), 0, "To the Barricades!"), error;
	const char *color = lem_deck_color(state, rules);

	if (roll < 0)
		return roll;
	json_object_set_new(state, "barricades_used", json_integer(est_rules_int(state, "barricades_used", 0) + 1));
	if ((error = est_rules_event(events, json_pack("{s:s, s:i}", "army", est_rules_str(army, "id"), "roll", roll),
				     "barricades", "To the Barricades! against %s: rolls %d, needs %d or more "
				     "(RULINGS.md M7): %s",
				     lem_army_name(rules, est_rules_str(army, "id")), roll,
				     est_rules_int(lem_table(rules, "barricades"), "target", 5),
				     *won_out ? "success" : "fails")) < 0 || !*won_out)
		return error;
	if ((error = lem_push_back(state, events, rules, army, 0, "To the Barricades!")) < 0)
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
	return lem_push_back(state, events, rules, army, 0, "a Liberation marker");
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

int lem_condition_holds(const json_t *order, int last)
{
	const char *cond = est_rules_str(order, "if");

	if (!cond)
		return 1;
	return strcmp(cond, "previous-succeeded") == 0 ? last == 1 : last == 0;
}

/*
 * Whether an item's target still allows it: earlier items may have changed the map since the
 * orders were checked (7.2; the highest box, 10.6.1; To the Barricades! inside France only; Restore
 * Order only with Paris in Disorder, 10.5).
 */
int lem_may_be_passed_over(const json_t *order)
{
	static const char *const targeted[] = {"military", "barricades", "liberation", "restore-order", NULL};

	return est_rules_listed(targeted, est_rules_str(order, "type"));
}

static int still_possible(const char **why_out, const json_t *state, const json_t *rules, const json_t *order)
{
	const char *type = est_rules_str(order, "type");
	const json_t *army = lem_army(state, est_rules_str(order, "army"));

	*why_out = NULL;
	if (!lem_may_be_passed_over(order))
		return 1;
	if (strcmp(type, "military") == 0)
		return lem_attackable(why_out, NULL, state, rules, army);
	/* 10.5: the Disorder marker may be placed on one branch only, or not be needed after the roll. */
	if (strcmp(type, "restore-order") == 0 && !json_is_true(json_object_get(state, "disorder"))) {
		*why_out = "Paris is in order, so there is no order to restore (10.5)";
		return 0;
	}
	if (strcmp(type, "barricades") != 0 && strcmp(type, "liberation") != 0)
		return 1;
	if (!lem_on_map(army)) {
		*why_out = "it is no longer on the map";
		return 0;
	}
	if (strcmp(type, "barricades") == 0 &&
	    !lem_square(rules, est_rules_str(army, "track"), est_rules_int(army, "box", 0))) {
		*why_out = "it is no longer inside France";
		return 0;
	}
	return lem_free_target(why_out, NULL, state, rules, army);
}

/* An item passed over, at no cost; its branches with it. */
static int passed_over(json_t *events, const json_t *order, const char *name, const char *why)
{
	int branches = json_object_get(order, LEM_ON_SUCCESS) || json_object_get(order, LEM_ON_FAILURE);

	return est_rules_event(events, json_pack("{s:s}", "order", name), "skipped", "%s (%s%s%s) is not carried "
			       "out, at no cost: %s%s", name, est_rules_str(order, "type"), est_rules_str(order, "army") ?
			       " " : "", est_rules_str(order, "army") ? est_rules_str(order, "army") : "", why,
			       branches ? "; nor are its on-success and on-failure orders" : "");
}

static int run_list(int *last, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		    const json_t *orders, const char *label);

/* After an item's roll, the branch its outcome picks (if it has any); the other costs nothing. */
static int run_branch(int *last, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		      const json_t *order, const char *name, int won)
{
	const char *taken = won ? LEM_ON_SUCCESS : LEM_ON_FAILURE, *other = won ? LEM_ON_FAILURE : LEM_ON_SUCCESS;
	const json_t *list = json_object_get(order, taken);
	size_t n = json_array_size(list), m = json_array_size(json_object_get(order, other));
	char label[LEM_LABEL_MAX];
	int error;

	if (!json_object_get(order, LEM_ON_SUCCESS) && !json_object_get(order, LEM_ON_FAILURE))
		return 0;
	if (!list)
		error = est_rules_event(events, json_pack("{s:s, s:s}", "order", name, "branch", taken), "branch",
					"%s %s: its %s orders (%zu item%s) are not carried out, at no cost", name,
					won ? "succeeded" : "failed", other, m, m == 1 ? "" : "s");
	else
		error = est_rules_event(events, json_pack("{s:s, s:s}", "order", name, "branch", taken), "branch",
					"%s %s: its %s orders are carried out (%zu item%s)%s%s%s", name,
					won ? "succeeded" : "failed", taken, n, n == 1 ? "" : "s", m ? ", its " : "",
					m ? other : "", m ? " orders are not, at no cost" : "");
	if (error < 0)
		return error;
	/* A name too deep for the buffer is cut short: it only labels the report's lines. */
	if (snprintf(label, sizeof(label), "%s, %s", name, taken) >= (int)sizeof(label))
		label[sizeof(label) - 1] = '\0';
	return run_list(last, state, events, rules, dice, list, label);
}

static int run_item(int *last, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		    const json_t *order, const char *name)
{
	const char *why;
	char cond[80];
	int won, error;

	if (!lem_condition_holds(order, *last)) {
		snprintf(cond, sizeof(cond), "its condition \"%s\" does not hold", est_rules_str(order, "if"));
		return passed_over(events, order, name, cond);
	}
	if (!still_possible(&why, state, rules, order))
		return passed_over(events, order, name, why);
	if ((error = item(&won, state, events, rules, dice, order)) < 0 || won < 0)
		return error;
	*last = won;
	return run_branch(last, state, events, rules, dice, order, name, won);
}

/* The items of `orders` (the file's, or a branch's) in turn, named "`label` N" in the events. */
static int run_list(int *last, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		    const json_t *orders, const char *label)
{
	const json_t *o;
	char name[LEM_LABEL_MAX];
	size_t i;
	int error;

	json_array_foreach(orders, i, o) {
		if (snprintf(name, sizeof(name), "%s %zu", label, i + 1) >= (int)sizeof(name))
			name[sizeof(name) - 1] = '\0';
		if ((error = run_item(last, state, events, rules, dice, o, name)) < 0)
			return error;
	}
	return 0;
}

int lem_actions(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const json_t *orders)
{
	int last = -1, before = est_rules_int(state, "actions", 0), spent, error;

	if ((error = run_list(&last, state, events, rules, dice, orders, "order")) < 0)
		return error;
	spent = before - est_rules_int(state, "actions", 0);
	return est_rules_event(events, json_pack("{s:i, s:i}", "spent", spent, "of", before), "actions-spent",
			       "the Action Phase spent %d of its %d Action%s", spent, before, before == 1 ? "" : "s");
}
