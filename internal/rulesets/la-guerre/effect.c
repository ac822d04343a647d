/*
 * La Guerre de l'Empereur: the die tables a GM types in (the Approach to
 * Battlefield Table, the Auxiliary Options column, pursuit) and the effects
 * their rows name. data.c checks a table against lg_effects before a game
 * starts; battle.c and retreat.c read rows and carry effects out with the
 * functions here, so an effect the check accepts is one play carries out.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lg_internal.h"

const lg_effect lg_effects[] = {
	{"none", NULL, 0, 0, "nothing happens (5.616: \"Redeployment\" and \"Rally\" have no effect)"},
	{"drm", "drm", -9, 9, "the roller's attack total at step 7 changes by \"drm\""},
	{"enemy-drm", "drm", -9, 9, "the enemy's attack total at step 7 changes by \"drm\""},
	{"eliminate", "divisions", 1, 20, "the enemy army loses \"divisions\" divisions at once"},
	{"lose", "divisions", 1, 20, "the roller's own army loses \"divisions\" divisions at once"},
	{"bombard", NULL, 0, 0, "the roller's army bombards as the Bombardment Option (5.616)"},
	{NULL, NULL, 0, 0, NULL},
};

const lg_effect *lg_effect_named(const char *name)
{
	for (const lg_effect *e = lg_effects; name && e->name; e++)
		if (strcmp(e->name, name) == 0)
			return e;
	return NULL;
}

const char *lg_row_effect(const json_t *row)
{
	/* An Approach row of the first shape gave only "drm" (RULINGS.md D2). */
	return json_object_get(row, "effect") ? est_rules_str(row, "effect") : "drm";
}

int lg_row_low(const json_t *row)
{
	return json_object_get(row, "roll") ? est_rules_int(row, "roll", 0) : est_rules_int(row, "min", 0);
}

int lg_row_high(const json_t *row)
{
	return json_object_get(row, "roll") ? est_rules_int(row, "roll", 0) : est_rules_int(row, "max", 0);
}

const json_t *lg_table_row(const json_t *table, int total)
{
	const json_t *rows = json_object_get(table, "results"), *row;
	size_t i, n = json_array_size(rows);

	if (n == 0)
		return NULL;
	/* RULINGS.md D1: a total off either end of the table reads its nearest row. */
	if (total < lg_row_low(json_array_get(rows, 0)))
		return json_array_get(rows, 0);
	json_array_foreach(rows, i, row)
		if (total <= lg_row_high(row))
			return row;
	return json_array_get(rows, n - 1);
}

int lg_table_add(const json_t *rules, const json_t *table, const json_t *army)
{
	const char *add = est_rules_str(table, "add");

	if ((add && strcmp(add, "tactical") == 0) || json_is_true(json_object_get(table, "add_tactical")))
		return lg_tactical(rules, army);
	return 0;
}

const char *lg_added_text(char *buf, size_t len, int add, int roll)
{
	if (add)
		snprintf(buf, len, " %+d tactical = %d", add, roll + add);
	else
		snprintf(buf, len, "%s", "");
	return buf;
}

int lg_effect_text(char *buf, size_t len, const json_t *row)
{
	const char *effect = lg_row_effect(row);
	int drm = est_rules_int(row, "drm", 0), n = est_rules_int(row, "divisions", 0);

	if (strcmp(effect, "drm") == 0)
		return snprintf(buf, len, "%+d to its attack", drm);
	if (strcmp(effect, "enemy-drm") == 0)
		return snprintf(buf, len, "%+d to the enemy's attack", drm);
	if (strcmp(effect, "eliminate") == 0)
		return snprintf(buf, len, "the enemy loses %d division%s", n, n == 1 ? "" : "s");
	if (strcmp(effect, "lose") == 0)
		return snprintf(buf, len, "it loses %d division%s", n, n == 1 ? "" : "s");
	if (strcmp(effect, "bombard") == 0)
		return snprintf(buf, len, "it bombards (5.616)");
	return snprintf(buf, len, "no effect");
}

static json_t *army_of(const json_t *state, const char *role)
{
	return lg_army(state, est_rules_str(json_object_get(json_object_get(state, "battle"), role), "army"));
}

/* 5.616 The Bombardment Option: one die per artillery unit, each hit eliminating divisions as the bombard table says. */
int lg_bombard(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const char *role)
{
	json_t *battle = json_object_get(state, "battle");
	const json_t *table = lg_table(rules, "bombard");
	json_t *army = army_of(state, role), *rolls = json_array();
	int guns = est_rules_int(army, "artillery", 0), hits = 0, error;

	for (int i = 0; i < guns; i++) {
		int roll;
		if ((error = est_rules_roll(&roll, dice, est_rules_int(table, "die", 10), "%s 5.616: %s bombardment, "
				     "artillery unit %d", est_rules_str(battle, "province"), est_rules_str(json_object_get(battle, role), "power"),
				     i + 1)) < 0) {
			json_decref(rolls);
			return error;
		}
		json_array_append_new(rolls, json_integer(roll));
		hits += roll >= est_rules_int(table, "hit_on", 10);
	}
	if ((error = est_rules_event(events, json_pack("{s:s, s:o, s:i}", "province", est_rules_str(battle, "province"),
						"rolls", rolls, "hits", hits), "bombard",
			      "%s bombards with %d artillery unit%s: %d hit%s (5.616)",
			      est_rules_str(json_object_get(battle, role), "power"), guns, guns == 1 ? "" : "s", hits,
			      hits == 1 ? "" : "s")) < 0)
		return error;
	return lg_lose(NULL, state, events, rules, army_of(state, lg_other_role(role)),
		       hits * est_rules_int(table, "divisions_per_hit", 2), 1, "bombardment (5.616)");
}

int lg_effect_apply(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const char *role,
		    const json_t *row)
{
	json_t *drm = json_object_get(json_object_get(state, "battle"), "drm");
	const char *effect = lg_row_effect(row), *name = est_rules_str(row, "name");
	const char *to = strcmp(effect, "enemy-drm") == 0 ? lg_other_role(role) : role;

	if (strcmp(effect, "drm") == 0 || strcmp(effect, "enemy-drm") == 0)
		return json_object_set_new(drm, to, json_integer(est_rules_int(drm, to, 0) +
								  est_rules_int(row, "drm", 0))) == 0 ? 0 :
			est_error_set(EST_ENOMEM, "out of memory");
	if (strcmp(effect, "eliminate") == 0)
		return lg_lose(NULL, state, events, rules, army_of(state, lg_other_role(role)),
			       est_rules_int(row, "divisions", 1), 0, name);
	if (strcmp(effect, "lose") == 0)
		return lg_lose(NULL, state, events, rules, army_of(state, role), est_rules_int(row, "divisions", 1), 0,
			       name);
	if (strcmp(effect, "bombard") == 0)
		return lg_bombard(state, events, rules, dice, role);
	return 0;
}

void lg_attack_losses(int *loser_out, int *winner_out, const json_t *table, int margin)
{
	const json_t *row;
	int low = est_rules_int(table, "loser_losses_min", 1), high = est_rules_int(table, "loser_losses_max", 4);

	if (json_object_get(table, "results")) {
		row = lg_table_row(table, margin);
		*loser_out = est_rules_int(row, "loser_loses", 0);
		*winner_out = est_rules_int(row, "winner_loses", 0);
		return;
	}
	/* RULINGS.md L10: the difference, within the table's bounds; the winner loses one when it is close. */
	*loser_out = margin < low ? low : margin > high ? high : margin;
	*winner_out = margin <= est_rules_int(table, "winner_loses_one_if_margin_at_most", 1) ? 1 : 0;
}
