/*
 * Levée en Masse: what the files of this module share. Not public.
 *
 * State (plain JSON; README.md "State"):
 *   scenario ("base" | "extended" | "puree" | "historical"), options
 *   {"9.1", "9.2", "10.3", "10.4", "10.5", "10.6", "napoleon-historical":
 *   bool, "difficulty": -1 | 0 | 1, "deal": name, a game of a deal (S2)}, phase ("start" | "actions" | "over"),
 *   deck {"Blue": [ids], "White": [...], "Red": [...]} or {"All": [...]} or
 *   {"Ordered": [...]}: the cards still to come (their order is drawn from
 *   the hidden stream at each draw, so the state never holds it), current,
 *   played [ids], armies [{"id", "track", "box" (null off the map), "value",
 *   "stationary", "status": "normal" | "disorganized" | "routed", "flipped",
 *   "rotated"}], political {"Republic", "Monarchy", "Despotism"}, disorder,
 *   liberation, british_support (box or null), napoleon (null, or {"with":
 *   army id or null, "recalled": turn or -1}), actions, card_drm, drm_now
 *   (10.4's -1 this turn), reserves_used, barricades_used, result.
 *
 * Unless said otherwise, functions return 0 or a negative EST_E* code with
 * the message set; `events` is the step's event array (borrowed).
 */
#ifndef EST_RULESETS_LEM_INTERNAL_H
#define EST_RULESETS_LEM_INTERNAL_H

#include <jansson.h>

#include "dice/dice.h"
#include "rulesets/common/common.h"

#define LEM_POWER "Republic"

/* state.c: look-ups */
int lem_option(const json_t *state, const char *name);
const json_t *lem_table(const json_t *rules, const char *name);
const json_t *lem_card(const json_t *rules, const char *id);
const json_t *lem_track(const json_t *rules, const char *name);
/* The number of boxes of a track (its highest box). */
int lem_track_length(const json_t *rules, const char *track);
/* Whether box `box` of `track` is a square space (inside France). */
int lem_square(const json_t *rules, const char *track, int box);
const char *lem_box_name(const json_t *rules, const char *track, int box);
json_t *lem_army(const json_t *state, const char *id);
const char *lem_army_name(const json_t *rules, const char *id);
int lem_on_map(const json_t *army);
/* The marker highest on the Political track, or NULL when two or more tie for it. */
const char *lem_highest(const json_t *state);
/* Move a Political marker by `delta`, within the track's range; says so in the events. */
int lem_shift(json_t *state, json_t *events, const json_t *rules, const char *marker, int delta,
	      const char *why);
/* The deck colour of the card in play ("Blue", "White", "Red"). */
const char *lem_deck_color(const json_t *state, const json_t *rules);

/* data.c: the rules data, checked at set-up: EST_EINVAL naming file, field and fix */
int lem_check_rules(const json_t *rules);

/* deck.c: dealing and drawing (12.1, 12.2, 12.3) */
int lem_deal(json_t *state, const json_t *rules);
/* Draw the next Headline card with the hidden stream; *drawn_out is NULL when the decks are out. */
int lem_draw(const char **drawn_out, json_t *state, const json_t *rules, est_dice *hidden);

/* headline.c: a Headline card's effects, in the order the card lists them */
int lem_headline(json_t *state, json_t *events, const json_t *rules, const char *card);
/* An Army advances one box toward Paris, or recovers when disorganized (10.6.1). */
int lem_advance(json_t *state, json_t *events, const json_t *rules, json_t *army, const char *why);

/* military.c: 7.2 targets and Military Actions, with 10.4, 10.5, 10.6 and Napoleon */
/*
 * Whether `army` may be attacked by a Military Action now: 1, or 0 with *why_out saying why and
 * *rule_out (if not NULL) naming the rule, for a refusal (static strings). 7.2: only the unit
 * closest to Paris on its track, a Stationary Army sharing its space first; 10.6.1: the highest box
 * of a track only under 10.6 (RULINGS.md M5), and not while card #9 rotates the Army (5.5.2).
 */
int lem_attackable(const char **why_out, const char **rule_out, const json_t *state, const json_t *rules,
		   const json_t *army);
/*
 * Whether To the Barricades! or a Liberation marker may push `army` back: 1, or 0 when it stands
 * in the highest box of its track, which 10.6.1 lets only a Military Action press (without 10.6
 * nothing may, RULINGS.md M5); then *why_out says why and *rule_out (if not NULL) names the rule
 * (static strings). A Stationary Army or one off the map gives 1: the caller refuses those itself.
 */
int lem_free_target(const char **why_out, const char **rule_out, const json_t *state, const json_t *rules,
		    const json_t *army);
/* One Military Action; *won_out says whether it pushed the Army back. */
int lem_military(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		 const json_t *order);
/*
 * A victory pushes `army` back a box; a Stationary Army is removed (and Napoleon, if he fought it,
 * returns to the Holding Box); in the highest box only a Military Action (`military` 1) under 10.6
 * rotates it instead.
 */
int lem_push_back(json_t *state, json_t *events, const json_t *rules, json_t *army, int military, const char *why);

/* actions.c: the Action Phase, item by item */
/* The fields of an item that rolls holding the orders its success or its failure brings. */
#define LEM_ON_SUCCESS "on-success"
#define LEM_ON_FAILURE "on-failure"
/* The room for an item's name in the events ("order 2, on-failure 1"). */
#define LEM_LABEL_MAX 160
/*
 * Carry out the Action Phase's `orders` (the Republic's file, checked by lem_validate) item by item,
 * in the order given (README.md "Orders"): each roll's outcome picks its "on-success" or
 * "on-failure" orders, an item whose "if" does not hold or whose target no longer allows it is
 * passed over at no cost, and the events (one a roll, a branch taken, an item passed over, then
 * "actions-spent") say so. Rolls come from `dice`. 0, or a negative EST_E* code (ENOMEM, or the
 * dice's error).
 */
int lem_actions(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const json_t *orders);
/* Whether an order item costs an Action: Military, Political, Restore Order, but not 10.5's "extra" Military Action. */
int lem_costs_action(const json_t *order);
/*
 * Whether an item's "if" holds after the last roll (`last`: 1 won, 0 failed, -1 none yet): no "if"
 * always, "previous-succeeded" after a success, "previous-failed" after a failure (README.md "Orders").
 */
int lem_condition_holds(const json_t *order, int last);
/*
 * Whether the resolve may pass the item over after all, its target changed by the items before it
 * (military, barricades, liberation: 7.2, 10.6.1, RULINGS.md M5; restore-order: Paris in order,
 * 10.5); then it spends nothing and the last roll stays what it was. lem_validate counts the
 * budgets of each branch the dice can take by it.
 */
int lem_may_be_passed_over(const json_t *order);

/* housekeeping.c: defeat checks, 10.4's flip back, the end of the decks, the next card */
int lem_housekeeping(json_t *state, json_t *events, const json_t *rules, est_dice *hidden);

/* validate.c */
int lem_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		 const json_t *orders);

/* seal.c: sealed games (RULINGS.md S1) and the games of a deal (S2) */
/* Whether the game is one of a deal (options["deal"], set by `new --deal`). */
int lem_dealt(const json_t *state);
/*
 * ruleset.h sealed(): *paths_out a new array of JSON pointers into `state`, the caller's: "/deck/<pile>"
 * for each pile of the cards to come (S1), and in a game of a deal "/<key>" for every key but
 * scenario, options, phase and deck (S2). EST_ENOMEM.
 */
int lem_sealed(json_t **paths_out, const json_t *state, const json_t *rules);
/* Give each event of a dealt game's step, that has none, "visible_to": ["Republic"] (S2). EST_ENOMEM. */
int lem_seal_events(json_t *events);
/*
 * est_rules_roll for an Action's public roll (S2): its purpose is `fmt`,
 * or in a dealt game LEM_DEALT_ROLL, whose public dice must not tell which
 * Action a card allowed or its player chose (a "Restore Order in Paris"
 * tells Paris is in Disorder; an Expansion Kit Army attacked, that its card
 * has come). How many rolls a turn made stays public (docs/gm-guide.md
 * "What is fair in a challenge"). Errors: those of est_dice_roll.
 */
#define LEM_DEALT_ROLL "an Action's roll (what for stays sealed until the deal's games are revealed)"
int lem_roll(int *out, const json_t *state, est_dice *dice, int sides, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/*
 * ruleset.h pending() of a dealt game's actions step (S2): *out a new object, the caller's, whose
 * prompt and choices (every kind of order the game's options allow) tell nothing the cards decided.
 * EST_ENOMEM.
 */
int lem_dealt_pending(json_t **out, const json_t *state);
/*
 * The public view of a dealt game, and any view of its public state (S2): *out a new object, the
 * caller's: lem_view's fields of the scenario, options, phase and counts only, with
 * "sealed_progress" and, once over, "sealed_result" saying what stays sealed. Errors: lem_view's.
 */
int lem_dealt_view(json_t **out, const json_t *state, const json_t *rules);

/* view.c */
/* ruleset.h view(): *out a new object (the fields view.c's head comment lists), `power` NULL: public. */
int lem_view(json_t **out, const json_t *state, const json_t *rules, const char *power);
/* The actions step's choices (ruleset.h pending "choices"): each order open now; NULL on ENOMEM. */
json_t *lem_choices(const json_t *state, const json_t *rules);

#endif
