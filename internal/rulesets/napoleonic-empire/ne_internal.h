/*
 * Napoleonic Empire: what the files of this module share. Not public.
 *
 * State (plain JSON, see README.md "State"): phase, turn, active, extra,
 * countries {name: {"France": n, "Allies": n, "control": side|null}},
 * deck, discard, hands, continental_system, no_move, standing, attack,
 * retreat, defaults, winner, win_reason.
 *
 * Unless said otherwise, functions return 0 or a negative EST_E* code with
 * the message set; `events` is the step's event array (borrowed).
 */
#ifndef EST_RULESETS_NE_INTERNAL_H
#define EST_RULESETS_NE_INTERNAL_H

#include <jansson.h>

#include "dice/dice.h"
#include "rulesets/common/common.h"

#define NE_FRANCE "France"
#define NE_ALLIES "Allies"

/*
 * allies.c: the divided Allies (GAME DESIGNERS NOTES; RULINGS.md R36-R38).
 * NE_KEEPER's player keeps the Allied hand and speaks for the side (R36);
 * the Allied hidden parts of a divided state (hands, standing, defaults,
 * attack.plays) are kept under its name. A state is divided when it has
 * "allied_players": [[power, ...], ...], each Allied player's powers in
 * canonical order, the players ordered by their first power (R38).
 */
#define NE_KEEPER "England"
extern const char *const ne_allied_powers[]; /* England, Russia, Prussia, Austria, NULL */
/* Whether `state` is a divided game (it has "allied_players"). */
int ne_divided(const json_t *state);
/* "France", "Allies", or NULL for a power not in this game (or NULL). */
const char *ne_side_of(const json_t *state, const char *power);
/* The power that answers for `side` as a whole: the keeper for the divided Allies, else `side`. */
const char *ne_speaker(const json_t *state, const char *side);
/*
 * Whether the Allied player holding `power` moves the Allied armies in
 * `country` (R37: rules["rulings"]["allied_command"] {power: [countries]},
 * any of the player's powers). 0 in a game that is not divided.
 */
int ne_commands(const json_t *state, const json_t *rules, const char *power, const char *country);
/*
 * New string "Russia, Sweden, Warsaw": the countries, in map order, whose
 * Allied armies the player holding `power` moves (whole_group), or those
 * rules["rulings"]["allied_command"] gives `power` itself; "none" if none.
 * NULL only when out of memory.
 */
json_t *ne_command_text(const json_t *state, const json_t *rules, const char *power, int whole_group);
/*
 * The held Allied power whose command (rules "allied_command", R37) lists
 * `country`, or NULL (borrowed from `state`): a refusal names the power
 * that commands there, not another the same player holds.
 */
const char *ne_commander(const json_t *state, const json_t *rules, const char *country);
/*
 * New array of the powers the step awaits: the active side in a turn (in
 * the divided Allied turn, each Allied player's first power, R38); the
 * speaker of each side asked for battle cards or a retreat; empty when the
 * step awaits nobody. NULL only when out of memory.
 */
json_t *ne_awaited(const json_t *state);
/*
 * From options "players" (an array of arrays of powers, `new` gives it;
 * may be NULL) and "allies" (may be NULL): *groups_out gets NULL for the
 * two-player game, else a new "allied_players" array (R38; without
 * `players`, each Allied power a player of its own). EST_EINVAL, naming
 * the option and the fix, when nobody holds France or the Allies, when
 * players hold both "Allies" and Allied powers, when "allies" is not
 * "divided" but they hold Allied powers, or when the four are not all held.
 */
int ne_allied_groups(json_t **groups_out, const json_t *players, const char *allies);
/*
 * *out gets the state with its Allied hidden parts under "Allies", as the
 * rest of the module reads them: a new deep copy for a divided game, else
 * a new reference to `state` itself (do not change it). EST_ENOMEM.
 */
int ne_state_in(json_t **out, const json_t *state);
/*
 * The reverse of ne_state_in, in place: the Allied hidden parts back under
 * NE_KEEPER, and events visible to "Allies" made visible to the keeper
 * (R36; `events` may be NULL). Nothing for a game not divided. EST_ENOMEM.
 */
int ne_state_out(json_t *state, json_t *events);
/*
 * *out gets new orders {"France": [...], "Allies": [...]} from `orders`
 * {power: [...]} of the awaited powers: in the divided Allied turn each
 * Allied player's items in "allied_players" order (the keeper's stored
 * defaults when he sent none, R18-R19), else the keeper's; in a game not
 * divided a new reference to `orders`. EST_ENOMEM (*out then still set:
 * the caller releases it).
 */
int ne_side_orders(json_t **out, const json_t *state, const json_t *orders);

/* map.c: the map of rules["map"] */
size_t ne_country_count(const json_t *rules);
const char *ne_country_name(const json_t *rules, size_t i);
int ne_is_country(const json_t *rules, const char *name);
int ne_land_adjacent(const json_t *rules, const char *a, const char *b);
/* NULL if `side` may move from `from` to `to`, else the rule it breaks. */
const char *ne_move_refusal(const json_t *rules, const char *side, const char *from,
			    const char *to);
int ne_table_value(const json_t *rules, const char *country);
int ne_setup_int(const json_t *rules, const char *key, int fallback);

/* cards.c: the cards of rules["cards"] */
const json_t *ne_card(const json_t *rules, const char *id);
const char *ne_card_name(const json_t *rules, const char *id);
int ne_card_is_battle(const json_t *card);
int ne_card_playable_by(const json_t *card, const char *side);
int ne_card_fits(const json_t *card, const char *country);
int ne_card_bonus(const json_t *card);
const char *ne_effect_type(const json_t *card);
int ne_effect_int(const json_t *card, const char *key);

/* state.c: armies, control, events */
const char *ne_other(const char *side);
/*
 * Agreement for report text: "France" is singular, "Allies" plural, so
 * ne_verb(side, "wins", "win") gives "France wins" / "Allies win".
 */
const char *ne_verb(const char *side, const char *singular, const char *plural);
/* "y" or "ies", for "arm%s" with a count n. */
const char *ne_ies(int n);
int ne_side_index(const char *side); /* 0 France, 1 Allies, -1 neither */
int ne_armies(const json_t *state, const char *country, const char *side);
int ne_set_armies(json_t *state, const char *country, const char *side, int n);
const char *ne_controller(const json_t *state, const char *country);
int ne_set_controller(json_t *state, const char *country, const char *side);
int ne_on_map(const json_t *state, const char *side);
int ne_contested(const json_t *state, const char *country);
int ne_update_control(json_t *state, json_t *events, const json_t *rules);
json_t *ne_hand(const json_t *state, const char *side);
int ne_hand_index(const json_t *state, const char *side, const char *card);

/* deck.c: draws, shuffles, discards */
int ne_shuffle_deck(json_t *state, json_t *events, est_dice *hidden, const char *why);
int ne_draw(json_t *state, json_t *events, const json_t *rules, const char *side, int n,
	    est_dice *hidden);
int ne_play_from_hand(json_t *state, const char *side, const char *card);

/* battle.c: the Attack Phase */
int ne_attack_start(json_t *state, json_t *events, const json_t *rules);
int ne_run_battles(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		   est_dice *hidden);
int ne_retreat_options(json_t **out, const json_t *state, const json_t *rules,
		       const char *country, const char *side);
int ne_apply_retreat(json_t *state, json_t *events, const json_t *rules, const char *to);
/* Whether `side` has already named `card` for a pending battle of this Attack Phase. */
int ne_card_committed(const json_t *state, const char *side, const char *card);
/* New array of the sides the battle-cards step asks; empty if none. */
json_t *ne_battle_cards_sides(const json_t *state, const json_t *rules);

/* reinforce.c: the Reinforcements Phase, victory and the next turn */
int ne_end_turn(json_t *state, json_t *events, const json_t *rules, est_dice *hidden);
/*
 * What `country` gives `side` in its Reinforcements Phase (NULL: whoever
 * holds it): the table, less the Continental System, none for France from
 * the countries it never receives reinforcements from.
 */
int ne_reinforcement_value(const json_t *state, const json_t *rules, const char *side,
			   const char *country);
int ne_reinforce(json_t *state, json_t *events, const json_t *rules);
int ne_check_victory(json_t *state, json_t *events, const json_t *rules);

/* turn.c: applying a turn order file */
int ne_resolve_turn(json_t *state, json_t *events, const json_t *rules, const json_t *orders,
		    est_dice *dice, est_dice *hidden);

/* defaults.c: default orders stored in the state when a step opens */
int ne_set_defaults(json_t *state, const json_t *rules);

/* validate.c */
int ne_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules,
		const char *power, const json_t *orders);

/*
 * view.c: ruleset.h's view (Napoleonic Empire, The Map, for the drawing).
 * The map's "borders" and "sea" arrays are drawn once for the rules last
 * seen and shared by the views after it (a reference to those rules is
 * kept); callers only read a view.
 */
int ne_view(json_t **out, const json_t *state, const json_t *rules, const char *power);

#endif
