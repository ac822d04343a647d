/*
 * La Guerre de l'Empereur: what the files of this module share. Not public.
 *
 * State (plain JSON; README.md "State" shows an example):
 *   scenario, year, season, phase ("turn" | "winter" | "over"),
 *   side ("France" | "Coalition": the side whose turn it is),
 *   provinces {name: {"controller": nation, "garrison": n, "ghost": n}},
 *   armies [{"id", "nation", "commander", "location", "movement",
 *            "artillery", "corps": [{"name", "divisions"}]}],
 *   moved [army ids that moved or besieged this turn],
 *   queue [{"power", "order"}]: the rest of the moving side's turn,
 *   battle (absent when none; see battle.c),
 *   standing {power: [{"at", "step", "option", "to"?}]},
 *   diplomacy {nation: {"status", "expires"?, "npc"?: "inactive"}},
 *   embargo_keep {power: [nations]}: the nations of an expired treaty each
 *   holder keeps in the embargo this winter (RULINGS.md L22),
 *   offers {power: "peace" | "alliance"}: France's treaty offers awaiting an answer,
 *   britain_buy, vp {"France": n, "Coalition": n}, winner, win_reason.
 *
 * Unless said otherwise, functions return 0 or a negative EST_E* code with
 * the message set; `events` is the step's event array (borrowed).
 */
#ifndef EST_RULESETS_LG_INTERNAL_H
#define EST_RULESETS_LG_INTERNAL_H

#include <jansson.h>

#include "dice/dice.h"
#include "rulesets/common/common.h"

#define LG_FRANCE "France"
#define LG_COALITION "Coalition"

/* state.c: look-ups in the rules data and the state */
const json_t *lg_table(const json_t *rules, const char *name);
const json_t *lg_scenario(const json_t *rules);
const json_t *lg_province_data(const json_t *rules, const char *name);
int lg_adjacent(const json_t *rules, const char *a, const char *b);
/* The side a nation fights for ("France", "Coalition"), or NULL if neutral. */
const char *lg_side_of(const json_t *rules, const char *nation);
const char *lg_other_side(const char *side);
/* "attacker" for "defender" and back. */
const char *lg_other_role(const char *role);
/* The powers, NULL-terminated: France, Austria, Russia, Britain. */
const char *const *lg_powers(void);
int lg_is_power(const char *name);

json_t *lg_province(const json_t *state, const char *name);
const char *lg_controller(const json_t *state, const char *province);
/* Whether `province` is controlled by a nation of `side`. */
int lg_friendly(const json_t *state, const json_t *rules, const char *province, const char *side);
/* Whether `province` is controlled by a nation at war with `side` (the other side). */
int lg_enemy(const json_t *state, const json_t *rules, const char *province, const char *side);
json_t *lg_army(const json_t *state, const char *id);
/* The first army in `province` whose nation is on `side`, or NULL. */
json_t *lg_army_at(const json_t *state, const json_t *rules, const char *province, const char *side);
const char *lg_army_side(const json_t *rules, const json_t *army);
int lg_divisions(const json_t *army);
int lg_corps_count(const json_t *army);
const json_t *lg_leader(const json_t *rules, const char *id);
/* The tactical rating of the army's commander (0 when it has none). */
int lg_tactical(const json_t *rules, const json_t *army);
/* "Grande Armée (Napoleon)" style label for reports: the id and commander's name. */
const char *lg_commander_name(const json_t *rules, const json_t *army);
int lg_set_controller(json_t *state, const char *province, const char *nation, int garrison,
		      int ghost);
/* Add `vp` to `side`'s victory points. */
int lg_add_vp(json_t *state, const char *side, int vp);
/*
 * Remove `n` divisions from `army`, one at a time from the corps with the
 * most divisions; when `spread` is set (5.616 Bombardment) each division
 * of one hit from a different corps where possible. Sets *lost_out to a new
 * object {"corps name": divisions lost} for the report. Empty corps go.
 */
int lg_lose_divisions(json_t **lost_out, json_t *army, int n, int spread);
/* "I Corps 1, IV Corps 1" from a lost-divisions object; caller frees. */
char *lg_losses_text(const json_t *lost);
/*
 * `army` loses `n` divisions (lg_lose_divisions) "to `why`", told by corps
 * in the events; an army left with none is eliminated (lg_remove_army).
 * *lost_out (may be NULL) gets the divisions actually lost: fewer than `n`
 * when the army had fewer.
 */
int lg_lose(int *lost_out, json_t *state, json_t *events, const json_t *rules, json_t *army, int n,
	    int spread, const char *why);
/* Remove an army with no divisions left; says so in the events. */
int lg_remove_army(json_t *state, json_t *events, const json_t *rules, json_t *army,
		   const char *why);

/*
 * data.c: the rules data, checked once at set-up (a GM may bring their
 * own files): EST_EINVAL naming the file, the field and the fix.
 */
int lg_check_rules(const json_t *rules);

/* move.c: a turn's moves and sieges (5.513 starts battles) */
int lg_apply_order(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		   const char *power, const json_t *order);
/* Movement points a path costs, entering each province in turn (mountain costs more). */
int lg_path_cost(const json_t *rules, const json_t *path);
/*
 * One siege roll by `army` against the enemy garrison of its province; a
 * garrison of ghosts only gives up at once. `free_rule` names the rule
 * that makes this a first attempt at no Movement Point cost (NULL: paid).
 */
int lg_siege(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army,
	     const char *free_rule);

/*
 * effect.c: the die tables a GM types in (docs/la-guerre-data.md). A row
 * covers one face ("roll") or a range of totals ("min".."max"); its
 * "effect" is one of lg_effects, whose parameter ("drm" or "divisions",
 * or none) lies within low..high.
 */
typedef struct {
	const char *name;  /* "drm", "eliminate", ... */
	const char *param; /* the row's field it reads, or NULL */
	int low, high;     /* the parameter's range */
	const char *does;  /* what it does in play, for messages */
} lg_effect;
extern const lg_effect lg_effects[]; /* ends with a NULL name */
/* The entry of lg_effects called `name`, or NULL (also for a NULL name). */
const lg_effect *lg_effect_named(const char *name);
/*
 * The effect a row names, borrowed from the row ("drm" for an Approach row
 * without "effect", RULINGS.md D2; NULL if "effect" is not a string).
 */
const char *lg_row_effect(const json_t *row);
/* The lowest and highest totals a row covers: its "roll", else "min" / "max" (0 if absent). */
int lg_row_low(const json_t *row);
int lg_row_high(const json_t *row);
/*
 * The row of `table` {"results": [rows]} for a (modified) roll, borrowed:
 * a total off the table reads the nearest end row (RULINGS.md D1). NULL
 * for a table with no rows.
 */
const json_t *lg_table_row(const json_t *table, int total);
/* What the table adds to its roll for `army`: its commander's tactical rating, or 0. */
int lg_table_add(const json_t *rules, const json_t *table, const json_t *army);
/* " +2 tactical = 6" after a roll of 4 when a table adds a rating of 2; "" when it adds none. Returns `buf`. */
const char *lg_added_text(char *buf, size_t len, int add, int roll);
/* "+1 to its attack", "the enemy loses 2 divisions", ... (snprintf's result). */
int lg_effect_text(char *buf, size_t len, const json_t *row);
/*
 * 5.612 step 7's losses for a win by `margin` (0 or more): the "attack"
 * table's "results" row for it, or the difference within its bounds.
 */
void lg_attack_losses(int *loser_out, int *winner_out, const json_t *table, int margin);
/*
 * 5.616 The Bombardment Option, by the battle's `role` ("attacker" or
 * "defender"): one die per artillery unit of its army, each hit (a face of
 * "hit_on" or more) costing the enemy army "divisions_per_hit" divisions
 * (the bombard table), spread over its corps. Errors: the dice's, EST_ENOMEM.
 */
int lg_bombard(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const char *role);
/*
 * Carry out the row's effect (lg_effects) for the battle's `role`, who
 * rolled it: a drm is added to state.battle.drm, losses go through lg_lose.
 * Errors: the dice's (a bombard row), EST_ENOMEM.
 */
int lg_effect_apply(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const char *role,
		    const json_t *row);

/* battle.c: 5.513, 5.612 and 5.616 */
int lg_battle_enter(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		    json_t *mover, const char *from, json_t *defender);
/* Run the battle on until it needs a decision no standing order answers, or ends. */
int lg_battle_continue(json_t *state, json_t *events, const json_t *rules, est_dice *dice);
/* The role whose player decides at the battle's step: 4 and 6 the initiative player, 5 the other, 9 the loser; NULL at rest between. */
const char *lg_battle_deciding_role(const json_t *battle);
/* The power the battle awaits and the kind of step ("battle-step-4" ...), or NULLs. */
void lg_battle_awaits(const char **power_out, const char **kind_out, const json_t *state);
/* The options the awaited step allows: "attack", "retreat", ... NULL-terminated. */
const char *const *lg_battle_options(const json_t *state);
int lg_battle_decide(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		     const json_t *order);

/* retreat.c: retreats, 5.629 pursuit and 5.6291 */
/* New array of the provinces `army` may retreat to from its province (5.616). */
json_t *lg_retreat_options(const json_t *state, const json_t *rules, const json_t *army);
/*
 * Retreat `army` to `to` (NULL: through enemy provinces, 5.6291). With
 * `pursuer` set the retreat follows an attack and is pursued (5.629).
 */
int lg_retreat(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army,
	       const char *to, const json_t *pursuer);

/* season.c: turns, seasons, the winter phase, 4.241 and the end */
int lg_advance(json_t *state, json_t *events, const json_t *rules, est_dice *dice);
int lg_winter(json_t *state, json_t *events, const json_t *rules);
/* embargo.c: 4.241 and the winter's VPs (France's embargo, Britain's purchase) */
int lg_embargo_winter(json_t *state, json_t *events, const json_t *rules);
/*
 * 4.241: whether the embargo is raised this winter; *why_out gets a new
 * string saying which condition held or failed.
 */
int lg_embargo_raised(char **why_out, const json_t *state, const json_t *rules);
/* "an enforced peace" for the treaty `kind` "peace", "an alliance" for "alliance": report words. */
const char *lg_treaty_words(const char *kind);
/* Whether `nation` has an alliance or an enforced peace with France that has not expired (4.241). */
int lg_treaty_live(const json_t *state, const char *nation);
/* Whether `nation`'s alliance or enforced peace with France has expired (RULINGS.md L25). */
int lg_treaty_expired(const json_t *state, const char *nation);
/*
 * The power whose player decides whether `nation`, its treaty expired,
 * stays in the embargo (4.241 "at the player's discretion", RULINGS.md
 * L22): the nation itself if a power, France for a nation of its side;
 * NULL for an inactive NPC or a nation no player holds, which remains.
 */
const char *lg_embargo_holder(const json_t *state, const json_t *rules, const char *nation);
/* Whether `army` entering `province` would break a treaty with France (RULINGS.md L27). */
int lg_treaty_bars(const json_t *state, const json_t *rules, const json_t *army, const char *province);
/*
 * A treaty order {"type": "treaty", "nation", "treaty"} of `power`, already
 * validated (RULINGS.md L27): France's with a non-player nation concludes
 * it, with a power records an offer in state.offers; a power's acceptance
 * of the offer concludes it. EST_EINVAL for an acceptance of no such
 * offer, EST_ENOMEM.
 */
int lg_treaty_order(json_t *state, json_t *events, const json_t *rules, const char *power,
		    const json_t *order);
/*
 * France and `nation` conclude `kind` ("peace" or "alliance") for the
 * scenario's embargo.treaty_years (RULINGS.md L25, L27): its diplomacy entry
 * becomes {"status": kind, "expires": last year}, an inactive non-player
 * nation staying so ("npc"), and an event says it. EST_ENOMEM.
 */
int lg_treaty_conclude(json_t *state, json_t *events, const json_t *rules, const char *nation,
		       const char *kind);
int lg_turn_start(json_t *state, const char *side);
/* New array of the powers of `side` (scenario order). */
json_t *lg_side_powers(const json_t *rules, const char *side);

/* standing.c: standing orders (RULINGS.md L19) */
const json_t *lg_standing(const json_t *state, const char *power, const char *at, int step);
int lg_set_standing(json_t *state, const char *power, const json_t *order);

/*
 * ruleset.c: a power's turn orders as the turn reads them (RULINGS.md L4,
 * L27): standing, embargo, buy-vp and treaty items take effect at once, in
 * the order written; moves and sieges are queued and carried out after
 * every power's file is read. The turn runs it on the state, validate() on
 * a copy, so that moves are checked as they will be carried out.
 */
/* Errors: lg_set_standing's and lg_treaty_order's, EST_ENOMEM. */
int lg_take_orders(json_t *state, json_t *events, const json_t *rules, const char *power, const json_t *orders);
/* Whether an order item of `type` takes effect when the turn is read (lg_take_orders), not queued. */
int lg_order_at_once(const char *type);

/* validate.c */
int lg_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules,
		const char *power, const json_t *orders);

/* view.c */
int lg_view(json_t **out, const json_t *state, const json_t *rules, const char *power);

#endif
