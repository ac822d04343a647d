/*
 * La Guerre de l'Empereur: a battle from the moment an army enters a
 * province held by an enemy army (5.513) to the last pursuit (5.612 step 9),
 * one decision at a time.
 *
 * state["battle"] while it lasts:
 *   {"province", "attacker": {"army", "power", "from"}, "defender": {"army", "power"},
 *    "initiative": "attacker" | "defender", "step": 4 | 5 | 6 | 7 | 9,
 *    "begun": whether an Auxiliary or Bombard option has been carried out,
 *    "drm": {"attacker": n, "defender": n},
 *    "corps": {"attacker": n, "defender": n} (counted at step 3), "loser": role (step 9)}
 * The attacker is the moving player's army, the defender the army it found.
 * At rest the step is always one that awaits a player (4, 5, 6 or 9).
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

static const char *const all_options[] = {"attack", "retreat", "auxiliary", "bombard", NULL};
static const char *const step6_options[] = {"attack", "retreat", NULL};
static const char *const step9_options[] = {"retreat", NULL};

static json_t *role_army(const json_t *state, const json_t *battle, const char *role)
{
	return lg_army(state, est_rules_str(json_object_get(battle, role), "army"));
}

static const char *role_power(const json_t *battle, const char *role)
{
	return est_rules_str(json_object_get(battle, role), "power");
}

/* The role that decides at the battle's step: 4 and 6 the initiative player, 5 the other, 9 the loser. */
const char *lg_battle_deciding_role(const json_t *battle)
{
	const char *initiative = est_rules_str(battle, "initiative");

	switch (est_rules_int(battle, "step", 0)) {
	case 4:
	case 6:
		return initiative;
	case 5:
		return lg_other_role(initiative);
	case 9:
		return est_rules_str(battle, "loser");
	default:
		return NULL;
	}
}

void lg_battle_awaits(const char **power_out, const char **kind_out, const json_t *state)
{
	const json_t *battle = json_object_get(state, "battle");
	const char *role = battle ? lg_battle_deciding_role(battle) : NULL;
	static const char *const kinds[] = {"battle-step-4", "battle-step-5", "battle-step-6"};
	int step = est_rules_int(battle, "step", 0);

	*power_out = role ? role_power(battle, role) : NULL;
	*kind_out = !role ? NULL : step == 9 ? "retreat" : kinds[step - 4];
}

const char *const *lg_battle_options(const json_t *state)
{
	int step = est_rules_int(json_object_get(state, "battle"), "step", 0);

	return step == 9 ? step9_options : step == 6 ? step6_options : all_options;
}

static int end_battle(json_t *state)
{
	return json_object_del(state, "battle") < 0 ? est_error_set(EST_ERROR, "no battle to end") : 0;
}

static int add_vp(json_t *state, json_t *events, const char *side, int vp, const char *why)
{
	int error;

	if (vp == 0)
		return 0;
	if ((error = lg_add_vp(state, side, vp)) < 0)
		return error;
	return est_rules_event(events, json_pack("{s:s, s:i}", "side", side, "vp", vp), "vp",
			"%s scores %d VP%s for %s (5.628); now %d", side, vp, vp == 1 ? "" : "s", why,
			est_rules_int(json_object_get(state, "vp"), side, 0));
}

/*
 * The mover's army holds the province once the defending army has gone:
 * a garrison of the defender's side stays behind and must be besieged once
 * at no Movement Point cost (5.513 NOTE); an empty or ghost-only province
 * of the enemy changes hands.
 */
static int mover_holds(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		       json_t *mover, const char *free_rule)
{
	const char *province = est_rules_str(mover, "location"), *side = lg_army_side(rules, mover);

	if (!lg_enemy(state, rules, province, side))
		return 0;
	return lg_siege(state, events, rules, dice, mover,
			est_rules_int(lg_province(state, province), "garrison", 0) > 0 ? free_rule : NULL);
}

/*
 * 5.616 Retreat Option: "If the defender retreats after a battle has begun,
 * he takes any garrison (except Ghost Divisions) with him, and the attacker
 * gains control of the province immediately (after scoring VPs for the
 * victory and placing the new garrison)."
 */
static int defender_gives_up(json_t *state, json_t *events, const json_t *rules, json_t *defender,
			     json_t *attacker, const char *province)
{
	json_t *p = lg_province(state, province);
	int garrison = est_rules_int(p, "garrison", 0), ghosts = est_rules_int(p, "ghost", 0), error;

	if (!lg_friendly(state, rules, province, lg_army_side(rules, defender)))
		return 0;
	if (garrison > 0) {
		char *name = est_strdup_printf("Garrison of %s", province);
		error = name && json_array_append_new(json_object_get(defender, "corps"),
			json_pack("{s:s, s:i}", "name", name, "divisions", garrison)) == 0 ? 0 :
			est_error_set(EST_ENOMEM, "out of memory");
		free(name);
		if (error < 0)
			return error;
	}
	if ((error = lg_set_controller(state, province, est_rules_str(attacker, "nation"), 0, 1)) < 0)
		return error;
	return est_rules_event(events, json_pack("{s:s, s:s}", "province", province, "controller",
					  est_rules_str(attacker, "nation")), "control",
			"%s takes %d garrison division%s along%s, and %s gains control of %s at once and "
			"places a new garrison (5.616, for a defender leaving a battle begun: RULINGS.md L11)",
			est_rules_str(defender, "nation"), garrison, garrison == 1 ? "" : "s",
			ghosts ? " (its ghost divisions are lost)" : "", est_rules_str(attacker, "nation"), province);
}

/*
 * 5.616 The Retreat Option, chosen at step 4, 5 or 6: "risking casualties
 * from pursuit" once the battle has begun; a retreat before combat is not
 * pursued (5.612 NOTE, 5.513 NOTE; RULINGS.md L13).
 */
static int retreat_option(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
			  const char *role, const char *to)
{
	json_t *battle = json_object_get(state, "battle");
	json_t *army = role_army(state, battle, role), *enemy = role_army(state, battle, lg_other_role(role));
	const char *province = est_rules_str(battle, "province");
	/* `role` lives in the battle, which end_battle() frees: decide everything first. */
	int begun = json_is_true(json_object_get(battle, "begun")), defender = strcmp(role, "defender") == 0;
	int error;

	/* RULINGS.md L11, L12: once the battle has begun, a retreat leaves the enemy the victory. */
	if (begun && (error = add_vp(state, events, lg_army_side(rules, enemy),
				     est_rules_int(lg_table(rules, "victory_points"), "retreat_victory", 1),
				     "the enemy's retreat")) < 0)
		return error;
	if (defender && begun && (error = defender_gives_up(state, events, rules, army, enemy, province)) < 0)
		return error;
	if ((error = lg_retreat(state, events, rules, dice, army, to, begun ? enemy : NULL)) < 0 ||
	    (error = end_battle(state)) < 0)
		return error;
	/* 5.513 NOTE: an early retreat leaves the garrison, which the mover must besiege once. */
	if (defender && !begun)
		return mover_holds(state, events, rules, dice, enemy, "5.513 NOTE");
	return 0;
}

/* After losses: a battle whose army is gone ends. */
static int battle_survives(json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	json_t *battle = json_object_get(state, "battle");
	json_t *attacker = role_army(state, battle, "attacker"), *defender = role_army(state, battle, "defender");
	int error;

	if (attacker && defender)
		return 0;
	if ((error = end_battle(state)) < 0)
		return error;
	/* RULINGS.md L17: a defending army destroyed leaves its garrison, as a retreat would. */
	return attacker ? mover_holds(state, events, rules, dice, attacker, "RULINGS.md L17") : 0;
}

/*
 * A roll by the battle's `role` on a die table a GM may type in (the
 * Approach to Battlefield Table, the Auxiliary Options column): the row for
 * the roll, plus the commander's rating where the table adds it, is told
 * (`label`: the rule, `title`: the table) and its effect carried out.
 */
static int roll_on(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const char *role,
		   const char *name, const char *purpose, const char *label, const char *title)
{
	json_t *battle = json_object_get(state, "battle");
	const json_t *table = lg_table(rules, name), *row;
	const char *power = role_power(battle, role);
	int roll, add = lg_table_add(rules, table, role_army(state, battle, role)), error;
	char effect[96], added[48];

	if ((error = est_rules_roll(&roll, dice, est_rules_int(table, "die", 6), "%s %s", est_rules_str(battle, "province"),
			     purpose)) < 0)
		return error;
	row = lg_table_row(table, roll + add);
	lg_effect_text(effect, sizeof(effect), row);
	if ((error = est_rules_event(events, json_pack("{s:s, s:s, s:i, s:i, s:s, s:s}", "province",
						est_rules_str(battle, "province"), "role", role, "roll", roll,
						"total", roll + add, "result", est_rules_str(row, "name"),
						"effect", lg_row_effect(row)), name,
			      "%s: %s (%s) rolls %d%s on the %s: %s, %s", label, power, role, roll,
			      lg_added_text(added, sizeof(added), add, roll), title, est_rules_str(row, "name"),
			      effect)) < 0)
		return error;
	return lg_effect_apply(state, events, rules, dice, role, row);
}

/* 5.616 The Auxiliary Option: a roll on the Auxiliary Options column. */
static int auxiliary(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		     const char *role)
{
	char purpose[96];

	snprintf(purpose, sizeof(purpose), "5.616: %s auxiliary option",
		 role_power(json_object_get(state, "battle"), role));
	return roll_on(state, events, rules, dice, role, "auxiliary", purpose, "5.616 Auxiliary Option",
		       "Auxiliary Options column");
}

/* 5.612 step 7: one six-sided die each, with the commander's rating and the modifiers. */
static int attack_total(int *out, json_t *events_detail, const json_t *state, const json_t *rules,
			est_dice *dice, const char *role)
{
	const json_t *battle = json_object_get(state, "battle");
	const json_t *table = lg_table(rules, "attack");
	const json_t *army = role_army(state, battle, role), *enemy = role_army(state, battle, lg_other_role(role));
	const json_t *counted = json_object_get(battle, "corps");
	int roll, rating = lg_tactical(rules, army), drm = est_rules_int(json_object_get(battle, "drm"), role, 0);
	/* RULINGS.md L10: the corps counted at 5.612 step 3, whatever a bombardment took since. */
	int corps = est_rules_int(counted, role, lg_corps_count(army)) >
		    est_rules_int(counted, lg_other_role(role), lg_corps_count(enemy)) ?
		est_rules_int(table, "corps_superiority_drm", 1) : 0, error;

	if ((error = est_rules_roll(&roll, dice, est_rules_int(table, "die", 6), "%s 5.612 step 7: %s attack roll",
			     est_rules_str(battle, "province"), role_power(battle, role))) < 0)
		return error;
	*out = roll + rating + drm + corps;
	json_object_set_new(events_detail, role, json_pack("{s:s, s:i, s:i, s:i, s:i, s:i}", "power",
		role_power(battle, role), "roll", roll, "tactical", rating, "drm", drm, "corps", corps,
		"total", *out));
	return 0;
}

/* "France 5 + 3 tactical + 1 DRM + 1 corps = 10", from attack_total's detail. */
static const char *total_text(const json_t *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s %d + %d tactical %+d DRM + %d corps = %d", est_rules_str(d, "power"),
		 est_rules_int(d, "roll", 0), est_rules_int(d, "tactical", 0), est_rules_int(d, "drm", 0), est_rules_int(d, "corps", 0),
		 est_rules_int(d, "total", 0));
	return buf;
}

static int attack(json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	json_t *battle = json_object_get(state, "battle"), *detail = json_object();
	const json_t *table = lg_table(rules, "attack"), *vp = lg_table(rules, "victory_points");
	int a, d, margin, loss, lost, winner_loss, error;
	const char *winner, *loser, *side;
	char at[160], de[160];

	if ((error = attack_total(&a, detail, state, rules, dice, "attacker")) < 0 ||
	    (error = attack_total(&d, detail, state, rules, dice, "defender")) < 0) {
		json_decref(detail);
		return error;
	}
	winner = a > d ? "attacker" : a < d ? "defender" :
		(est_rules_str(table, "tie") ? est_rules_str(table, "tie") : "defender");
	loser = lg_other_role(winner);
	margin = abs(a - d);
	lg_attack_losses(&loss, &winner_loss, table, margin);
	if ((error = est_rules_event(events, json_pack("{s:s, s:O, s:s}", "province", est_rules_str(battle, "province"),
						"attack", detail, "winner", role_power(battle, winner)),
			      "attack", "Attack at %s (5.612 step 7): %s; %s: %s wins%s",
			      est_rules_str(battle, "province"), total_text(json_object_get(detail, "attacker"), at, sizeof(at)),
			      total_text(json_object_get(detail, "defender"), de, sizeof(de)),
			      role_power(battle, winner), a == d ? " the tie (RULINGS.md L10)" : "")) < 0) {
		json_decref(detail);
		return error;
	}
	json_decref(detail);
	json_object_set_new(battle, "loser", json_string(loser));
	json_object_set_new(battle, "step", json_integer(9));
	side = lg_army_side(rules, role_army(state, battle, winner));
	/* RULINGS.md L12: the heavy-loss bonus counts what the loser lost, not the loss the dice asked. */
	if ((error = lg_lose(&lost, state, events, rules, role_army(state, battle, loser), loss, 0,
			     "the attack")) < 0 ||
	    (error = add_vp(state, events, side, est_rules_int(vp, "attack_win", 1) +
			    (lost >= est_rules_int(vp, "heavy_losses", 3) ? est_rules_int(vp, "heavy_losses_bonus", 1) : 0),
			    "the victory")) < 0)
		return error;
	if (winner_loss > 0 &&
	    (error = lg_lose(NULL, state, events, rules, role_army(state, battle, winner), winner_loss, 0, "the attack")) < 0)
		return error;
	return battle_survives(state, events, rules, dice);
}

/* 5.612 step 9 for the loser of an attack: retreat, pursued (5.629). */
static int loser_retreats(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
			  const char *to)
{
	json_t *battle = json_object_get(state, "battle");
	const char *loser = est_rules_str(battle, "loser");
	json_t *army = role_army(state, battle, loser), *winner = role_army(state, battle, lg_other_role(loser));
	int error;

	if (strcmp(loser, "defender") == 0 &&
	    (error = defender_gives_up(state, events, rules, army, winner, est_rules_str(battle, "province"))) < 0)
		return error;
	if ((error = lg_retreat(state, events, rules, dice, army, to, winner)) < 0)
		return error;
	return end_battle(state);
}

static int apply_option(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
			const char *option, const char *to)
{
	json_t *battle = json_object_get(state, "battle");
	const char *role = lg_battle_deciding_role(battle);
	int step = est_rules_int(battle, "step", 0), error;

	if (step == 9)
		return loser_retreats(state, events, rules, dice, to);
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:s, s:s}", "province", est_rules_str(battle, "province"),
						"battle_step", step, "power", role_power(battle, role),
						"option", option), "option",
			      "5.612 step %d at %s: %s (%s) chooses %s", step, est_rules_str(battle, "province"),
			      role_power(battle, role), strcmp(role, est_rules_str(battle, "initiative")) == 0 ?
			      "the initiative player" : "the non-initiative player", option)) < 0)
		return error;
	if (strcmp(option, "attack") == 0) {
		json_object_set_new(battle, "step", json_integer(7));
		return 0;
	}
	if (strcmp(option, "retreat") == 0)
		return retreat_option(state, events, rules, dice, role, to);
	json_object_set_new(battle, "step", json_integer(step + 1));
	json_object_set_new(battle, "begun", json_true());
	error = strcmp(option, "bombard") == 0 ? lg_bombard(state, events, rules, dice, role) :
		auxiliary(state, events, rules, dice, role);
	if (error < 0 || (error = battle_survives(state, events, rules, dice)) < 0)
		return error;
	return 0;
}

/* Whether `option` may be taken now by the deciding army. */
static int option_allowed(const json_t *state, const char *option)
{
	const json_t *battle = json_object_get(state, "battle");
	const char *const *o;

	for (o = lg_battle_options(state); *o; o++)
		if (strcmp(*o, option) == 0)
			break;
	if (!*o)
		return 0;
	return strcmp(option, "bombard") != 0 ||
	       est_rules_int(role_army(state, battle, lg_battle_deciding_role(battle)), "artillery", 0) > 0;
}

/* A retreat's destination, when given, must still be open. */
static int destination_open(const json_t *state, const json_t *rules, const char *to)
{
	const json_t *battle = json_object_get(state, "battle");
	json_t *opts;
	size_t i;
	json_t *v;
	int open = 0;

	if (!to)
		return 1;
	opts = lg_retreat_options(state, rules, role_army(state, battle, lg_battle_deciding_role(battle)));
	json_array_foreach(opts, i, v)
		open |= strcmp(json_string_value(v), to) == 0;
	json_decref(opts);
	return open;
}

/*
 * With no choice to make (at step 9: one province open, or none and the
 * retreat goes through enemy provinces) the retreat needs no decision.
 */
static int only_way(const char **to_out, const json_t *state, const json_t *rules)
{
	const json_t *battle = json_object_get(state, "battle");
	json_t *opts = lg_retreat_options(state, rules, role_army(state, battle, lg_battle_deciding_role(battle)));
	size_t n = json_array_size(opts);

	*to_out = n == 1 ? json_string_value(json_array_get(opts, 0)) : NULL;
	/* The string lives in the map data, so it outlives the array. */
	if (n == 1) {
		const json_t *p = lg_province_data(rules, *to_out);
		*to_out = est_rules_str(p, "name");
	}
	json_decref(opts);
	return n <= 1;
}

/* A standing order for the decision the battle awaits, if one applies (5.612, README "Orders"). */
static int standing_answer(json_t *state, json_t *events, const json_t *rules, est_dice *dice, int *took)
{
	json_t *battle = json_object_get(state, "battle");
	const char *role = lg_battle_deciding_role(battle), *power = role_power(battle, role), *option, *to;
	char step[8];
	const json_t *st;

	snprintf(step, sizeof(step), "%d", est_rules_int(battle, "step", 0));
	*took = 0;
	if (!(st = lg_standing(state, power, est_rules_str(battle, "province"), est_rules_int(battle, "step", 0))))
		return 0;
	option = est_rules_str(st, "option");
	to = est_rules_str(st, "to");
	/* RULINGS.md L19: the order stays the power's own, so only it reads why it was not used. */
	if (!option_allowed(state, option) || !destination_open(state, rules, to))
		return est_rules_event(events, json_pack("{s:s, s:s, s:[s]}", "power", power, "province",
						  est_rules_str(battle, "province"), "visible_to", power), "standing",
				"%s's standing order for %s, step %s (%s%s%s) cannot be carried out now; "
				"the decision is asked", power, est_rules_str(battle, "province"), step, option,
				to ? " to " : "", to ? to : "");
	*took = 1;
	if (est_rules_event(events, json_pack("{s:s, s:s}", "power", power, "province", est_rules_str(battle, "province")),
		     "standing", "%s's standing order for %s, step %s, answers: %s%s%s", power,
		     est_rules_str(battle, "province"), step, option, to ? " to " : "", to ? to : "") < 0)
		return est_error_code();
	return apply_option(state, events, rules, dice, option, to);
}

int lg_battle_continue(json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	json_t *battle;
	int error, took;

	while ((battle = json_object_get(state, "battle"))) {
		int step = est_rules_int(battle, "step", 0);
		const char *to;

		if (step == 7) {
			if ((error = attack(state, events, rules, dice)) < 0)
				return error;
			continue;
		}
		if ((error = standing_answer(state, events, rules, dice, &took)) < 0)
			return error;
		if (took)
			continue;
		if (step == 9 && only_way(&to, state, rules)) {
			if ((error = loser_retreats(state, events, rules, dice, to)) < 0)
				return error;
			continue;
		}
		return 0;
	}
	return 0;
}

int lg_battle_decide(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		     const json_t *order)
{
	const char *type = est_rules_str(order, "type");
	const char *option = strcmp(type, "retreat") == 0 ? "retreat" : est_rules_str(order, "option");
	int error;

	if (!json_object_get(state, "battle") || !option_allowed(state, option))
		return est_error_set(EST_EINVAL, "orders: the battle does not await \"%s\"", option);
	if ((error = apply_option(state, events, rules, dice, option, est_rules_str(order, "to"))) < 0)
		return error;
	return lg_battle_continue(state, events, rules, dice);
}

/* 5.612 steps 1 and 2: the defender rolls on the Approach to Battlefield Table first. */
static int approach(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const char *role)
{
	int step = strcmp(role, "defender") == 0 ? 1 : 2, error;
	char purpose[96], label[32];

	snprintf(purpose, sizeof(purpose), "5.612 step %d: %s approach to battlefield", step,
		 role_power(json_object_get(state, "battle"), role));
	snprintf(label, sizeof(label), "5.612 step %d", step);
	if ((error = roll_on(state, events, rules, dice, role, "approach", purpose, label,
			     "Approach to Battlefield Table")) < 0)
		return error;
	/* An army the approach destroys ends the battle before it is fought (RULINGS.md L17). */
	return battle_survives(state, events, rules, dice);
}

/* 5.513: each rolls a die plus the commander's tactical rating; equal results roll again. */
static int initiative(int *mover_wins, json_t *events, const json_t *rules, est_dice *dice,
		      const json_t *mover, const json_t *defender, const char *province)
{
	int m, d, error;

	do {
		if ((error = est_rules_roll(&m, dice, 6, "%s 5.513: %s initiative", province, est_rules_str(mover, "nation"))) < 0 ||
		    (error = est_rules_roll(&d, dice, 6, "%s 5.513: %s initiative", province, est_rules_str(defender, "nation"))) < 0)
			return error;
		int mt = m + lg_tactical(rules, mover), dt = d + lg_tactical(rules, defender);
		if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:i, s:i, s:i}", "province", province,
							"mover_roll", m, "mover_total", mt, "defender_roll", d,
							"defender_total", dt), "initiative",
				      "5.513 entering %s: %s (%s, tactical %d) rolls %d = %d; %s (%s, tactical %d) "
				      "rolls %d = %d: %s", province, est_rules_str(mover, "nation"),
				      lg_commander_name(rules, mover), lg_tactical(rules, mover), m, mt,
				      est_rules_str(defender, "nation"), lg_commander_name(rules, defender),
				      lg_tactical(rules, defender), d, dt, mt == dt ? "equal, both roll again" :
				      mt > dt ? "the moving player proceeds immediately to the attack" :
				      "the non-moving player has the initiative")) < 0)
			return error;
		*mover_wins = mt > dt;
		if (mt != dt)
			return 0;
	} while (1);
}

int lg_battle_enter(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		    json_t *mover, const char *from, json_t *defender)
{
	const char *province = est_rules_str(defender, "location");
	int mover_wins, error;
	json_t *battle;

	if ((error = initiative(&mover_wins, events, rules, dice, mover, defender, province)) < 0)
		return error;
	battle = json_pack("{s:s, s:{s:s, s:s, s:s}, s:{s:s, s:s}, s:s, s:i, s:b, s:{s:i, s:i}}",
		"province", province, "attacker", "army", est_rules_str(mover, "id"), "power", est_rules_str(mover, "nation"),
		"from", from, "defender", "army", est_rules_str(defender, "id"), "power", est_rules_str(defender, "nation"),
		"initiative", mover_wins ? "attacker" : "defender", "step", mover_wins ? 7 : 4, "begun", 0,
		"drm", "attacker", 0, "defender", 0);
	if (!battle || json_object_set_new(state, "battle", battle) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = approach(state, events, rules, dice, "defender")) < 0 ||
	    (json_object_get(state, "battle") && (error = approach(state, events, rules, dice, "attacker")) < 0))
		return error;
	if (!json_object_get(state, "battle"))
		return 0;
	/* 5.612 step 3: the count attack resolution uses (RULINGS.md L10). */
	if (json_object_set_new(battle, "corps", json_pack("{s:i, s:i}", "attacker", lg_corps_count(mover),
							   "defender", lg_corps_count(defender))) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:i}", "province", province, "attacker_corps",
						lg_corps_count(mover), "defender_corps", lg_corps_count(defender)),
			      "corps", "5.612 step 3: %s has %d corps, %s %d", est_rules_str(mover, "nation"),
			      lg_corps_count(mover), est_rules_str(defender, "nation"), lg_corps_count(defender))) < 0)
		return error;
	return lg_battle_continue(state, events, rules, dice);
}
