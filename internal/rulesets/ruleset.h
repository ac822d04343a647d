/*
 * The ruleset interface (rulesets/ruleset.h).
 *
 * A ruleset is a table of pure functions over the game state as JSON. It
 * never reads the clock, the file system or a random source of its own:
 * rules data comes in as JSON, randomness through est_dice. The engine
 * knows nothing of any game; it asks pending() who must act, collects and
 * checks orders, and calls resolve() once per step.
 *
 * Rulesets speak of powers ("France", "Allies"); game.json maps each player
 * to its powers. A player's order file is handed to the ruleset under every
 * power that player holds and that the step awaits; an order item with a
 * "power" field goes to that power only, with the field removed (the
 * engine refuses a power the player does not hold or the step does not
 * await), so a player holding several powers addresses each item.
 *
 * Ownership: every json_t ** out-parameter is a new reference the caller
 * must json_decref; every const json_t * argument is borrowed.
 * Errors: each function returns 0 or a negative EST_E* code with the
 * message set (util/error.h): EST_EINVAL for bad orders or options,
 * EST_ENOMEM, EST_ERROR for an inconsistent state.
 *
 * tests/unit/ruleset_contract_test.c holds every registered ruleset to what
 * this header promises; docs/adding-a-ruleset.md walks through a new one.
 */
#ifndef EST_RULESETS_RULESET_H
#define EST_RULESETS_RULESET_H

#include <jansson.h>

#include "dice/dice.h"

typedef struct est_ruleset {
	const char *name;    /* "napoleonic-empire": the folder and game.json "ruleset" */
	const char *version; /* recorded in game.json; audits replay with it */

	/*
	 * The powers a player may hold, in the order `new` deals them when
	 * the players file leaves "powers" out. Returns a NULL-terminated,
	 * static array.
	 */
	const char *const *(*powers)(void);

	/*
	 * Step 0: the state after set-up from `rules` (the merged contents of
	 * the ruleset's data/ folder: {"map": {...}, "cards": {...}, ...}) and
	 * `options` (game.json "options", an object, possibly empty; the
	 * scenario name is options["scenario"] when given). Draws no dice.
	 * Empty options give the default scenario; an option the ruleset does
	 * not know is refused (EST_EINVAL) with its name in the message.
	 */
	int (*setup)(json_t **state_out, const json_t *rules, const json_t *options);

	/*
	 * What the state awaits:
	 *   {"mode": "sequential" | "simultaneous" | "automatic" | "over",
	 *    "kind": short name of the step ("turn", "battle-cards", "retreat", ...),
	 *    "powers": ["France"],           awaited powers ([] when automatic or over)
	 *    "prompt": "what is asked, in a sentence for the report",
	 *    "choices": [{"order": {an order item}, "text": "what it does"}]}
	 * "over" means the game has ended; nothing more is resolved.
	 * "choices" (optional, for an awaited step) lists what the step takes,
	 * as each player's report shows it under "HOW TO SEND ORDERS": each
	 * open choice itself where the state names them (a retreat step's
	 * provinces, a battle decision's options), else each kind of order
	 * with "<...>" where the player fills in a value ("<number...>" for an
	 * integer, which the report shows unquoted). Sealed games: from
	 * the public parts only, like the rest of the answer. A choice that
	 * only some of the awaited powers may send names them in "powers":
	 * ["England"]; a report lists it only to a player holding one of
	 * them (without "powers", to every awaited player).
	 */
	int (*pending)(json_t **out, const json_t *state, const json_t *rules);

	/*
	 * Check one power's orders (the order file's "orders" array) against
	 * the state, before they are accepted. Returns 0 if every order is
	 * acceptable; otherwise EST_EINVAL with *diagnostics_out set to an array
	 * of {"index": i, "field": "country", "rule": "Napoleonic Empire, Move
	 * Phase", "message": "...; fix"} (one entry per problem, index -1 for the
	 * array as a whole). *diagnostics_out is NULL on success. An item with
	 * a field its type does not take is refused, the diagnostic's "field"
	 * naming that field; an unknown type is refused with "field": "type".
	 */
	int (*validate)(json_t **diagnostics_out, const json_t *state, const json_t *rules,
			const char *power, const json_t *orders);

	/*
	 * The orders a power is taken to have given when it missed a step
	 * (no moves received): an "orders" array, often empty, which
	 * validate() must accept.
	 */
	int (*default_orders)(json_t **out, const json_t *state, const json_t *rules,
			      const char *power);

	/*
	 * Resolve the awaited step. `orders` is an object mapping each awaited
	 * power to its (validated, or default) orders array. `dice` is the
	 * step's public stream, `hidden` the stream of the hidden chain (deck
	 * shuffles, anything no player may foresee). Returns the new state and
	 * *events_out, an array of events, each with at least
	 * {"type": "...", "text": "one line for the report"}; events that only
	 * some powers may see carry "visible_to": ["France"].
	 */
	int (*resolve)(json_t **state_out, json_t **events_out, const json_t *state,
		       const json_t *rules, const json_t *orders, est_dice *dice, est_dice *hidden);

	/*
	 * What `power` may see of the state (NULL: the public view), as the data
	 * its report template renders: no other power's hand, no deck order.
	 * Caller decrefs *out and only reads it: a ruleset may share parts
	 * that depend on the rules alone between views (Napoleonic Empire's
	 * borders and sea lanes, kept by the address of `rules`, so the rules
	 * given must never change afterwards). The view of the public state
	 * (a sealed game's, its hidden parts replaced by commitments) must
	 * render, and equal the public view of the whole state: count a sealed
	 * pile with est_rules_pile_count (rulesets/common).
	 */
	int (*view)(json_t **out, const json_t *state, const json_t *rules, const char *power);

	/*
	 * Sealed games (docs/protocol.md "The repository"): the parts of `state`
	 * no player may read on the public refs (hands, the deck order, plays
	 * and standing orders not yet revealed), as an array of JSON pointers
	 * ("/hands/France") into the state; parts the state does not hold are
	 * skipped. The public state keeps everything else, so pending() must
	 * answer from the public parts alone. A path segment that is a power's
	 * name marks that power's own part ("/hands/France"); a path without one
	 * ("/deck") belongs to nobody. NULL: the ruleset has no hidden
	 * information and its games cannot be sealed.
	 */
	int (*sealed)(json_t **paths_out, const json_t *state, const json_t *rules);

	/*
	 * How `new` deals the powers when the players file leaves "powers"
	 * out (docs/gm-guide.md "Commands"): a new array of `players` arrays of
	 * power names, the i-th for the i-th player, so that one player may
	 * hold the several powers of one side. `players` is 1 or more and at
	 * most the number of powers. NULL: one power each in powers() order,
	 * dealt round the table.
	 */
	int (*deal)(json_t **out, size_t players);

	/*
	 * A game's standing for `estafette standings`: a new object
	 * {"over": bool, "score": integer (higher ranks first), "result": "one
	 * line for the table"}; NULL: the ruleset does not rank its games.
	 */
	int (*score)(json_t **out, const json_t *state, const json_t *rules);

	/*
	 * Nonzero: the players need not hold every power (Campaign: the
	 * countries not chosen as bases stay out of the game). `new` then
	 * gives setup() who holds what in options["players"]: an array, one
	 * entry per player in the players file's order, of the powers it
	 * holds (game.json keeps it with the other options, so audits replay
	 * the same set-up), and refuses a "players" option given by hand.
	 */
	int powers_optional;

	/*
	 * Nonzero: a game of a deal (docs/gm-guide.md "Challenges") keeps its
	 * progress off the public refs, because every game of the deal meets
	 * the same cards at the same step and one player's progress would show
	 * the others what is coming. `new --deal NAME` then gives setup()
	 * options["deal"] = NAME (`--deal-from` copies it with the options),
	 * makes the game sealed, and refuses a "deal" option given by hand. The
	 * ruleset's sealed() names every part of a dealt game's state the
	 * cards shaped, its events carry "visible_to" the game's own powers,
	 * and pending() and the public view still answer from what is left.
	 * Those parts are the game's own players', though their paths name no
	 * power: the players' views may read them (a deal's game is played by
	 * one side, as Levée en Masse's is).
	 */
	int deal_private;
} est_ruleset;

#endif
