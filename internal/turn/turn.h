/*
 * The open step (rulesets/ruleset.h): what it awaits
 * and of whom, by when (the schedule, the GM's extensions and pauses),
 * the guards on resolving by deadline (outage, clock, civil disorder) and
 * the round of sealed orders. Reads a game (game/); writes only notices.
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_TURN_TURN_H
#define EST_TURN_TURN_H

#include <jansson.h>
#include <time.h>

#include "game/game.h"

struct est_order;

/*
 * How a step may resolve by its deadline (est_deadline_allows, est_step_try):
 * EST_STEP_FORCE past the outage guard and the "wait" policy, as the GM
 * ordered; EST_STEP_CLOCK_UNSURE not at all (est_clock_check did not trust
 * the clock).
 */
#define EST_STEP_FORCE 1u
#define EST_STEP_CLOCK_UNSURE 2u

/*
 * Check a game's schedule (game.json "schedule", or the file of `new
 * --schedule`) strictly: only these fields, each in its range:
 *   deadline_hours  0..8760   every step's deadline after it opens (0: none)
 *   deadlines       {kind or mode: hours}  per kind of step ("turn",
 *                   "battle-cards") or mode ("simultaneous"); kind first
 *   days            ["mon", ...]  the UTC days a deadline may fall on
 *   hours           [FROM, TO]    the UTC hours it may fall in; a deadline
 *                   outside them moves forward to the next allowed hour
 *   grace_hours     0..720    the step still waits this long past it
 *   reminder_hours, reveal_hours  (reminders; sealed orders' reveals)
 *   clock_jump_hours 1..8760  (72) a run whose clock is behind the last
 *                   run's, or this far ahead, resolves nothing by deadline
 *                   until the GM confirms the time
 *   outage_percent  0..100    (50) at a deadline, more than this share of
 *                   the awaited players missing, and at least two, looks
 *                   like a mail outage: nothing resolves by deadline until
 *                   the GM forces it
 *   nmr             "hold" (the ruleset's default orders for a missing
 *                   player at the deadline) or "wait" (the step waits)
 *   civil_disorder_after 0..1000  a player who missed that many steps in
 *                   a row is in civil disorder: steps no longer wait for
 *                   them (0: never)
 * `file` starts the messages. Errors: EST_EINVAL naming the field and the fix.
 */
int est_schedule_check(const json_t *schedule, const char *file);

/*
 * What the game awaits now, into *out (new): {"game", "ruleset", "step":
 * the number the next orders carry, "state_sha256": their "prev", "kind",
 * "mode", "prompt", "awaiting": [{"player", "name", "powers",
 * "awaited_powers", "mode", "deadline", "received": bool, "seq",
 * "civil_disorder"?, "note_missing"?, "committed"?}], "over": bool,
 * "deadline": ISO time or null, "deadline_passed" (at `now`, grace
 * included, not while paused), "paused", "reveal_deadline"? (sealed
 * orders)}. "received" only says that a file for the step is there
 * (intake/ judges it: est_intake_pending).
 * Errors: EST_ERROR (a pending() answer without "kind", "mode" or
 * "prompt"), those of est_turn_open and est_turn_awaiting.
 */
int est_turn_pending(json_t **out, est_game *game, time_t now);

/*
 * The ruleset as the engine plays it (ruleset.c), over a whole state.json
 * document `wrapped` ({"game", "step", "state"}), with the engine's own
 * steps laid over the game's:
 *  - the join: a document with "join" ({"powers": every power the players
 *    hold, "dice": game.json's "dice"}, written by `new` for a game under
 *    dice v2) awaits every player at once, {"mode": "simultaneous", "kind": "join"}; each sends a
 *    signed order file with "orders": [] and nothing else is accepted. When
 *    it resolves, the ruleset's first step, if automatic (the set-up
 *    draws: a first shuffle, the order of play), is resolved with the
 *    join's dice, so every player's entropy is in them.
 *  - the GM's end: a document with "ended" (est_step_gm_apply) awaits
 *    nothing: {"mode": "over", "kind": "over", "powers": []}.
 * est_turn_ruleset_pending: what the document awaits (ruleset.h
 * pending()), into *out (new). est_turn_validate: ruleset.h validate(),
 * or at the join EST_EINVAL for orders that are not [] (the diagnostic
 * names "orders" and the fix). est_turn_default_orders: ruleset.h
 * default_orders(), [] at the join. est_turn_is_join: whether the
 * document awaits the join. est_turn_resolve: ruleset.h resolve()
 * as step `step`, into *wrapped_out the new document (without "join") and
 * *events_out the events (both new). Errors: the ruleset's, EST_ENOMEM.
 */
int est_turn_ruleset_pending(json_t **out, const est_ruleset *rs, const json_t *rules, const json_t *wrapped);
int est_turn_is_join(const json_t *wrapped);
int est_turn_validate(json_t **diagnostics_out, const est_ruleset *rs, const json_t *rules,
		      const json_t *wrapped, const char *power, const json_t *orders);
int est_turn_default_orders(json_t **out, const est_ruleset *rs, const json_t *rules, const json_t *wrapped,
			    const char *power);
int est_turn_resolve(json_t **wrapped_out, json_t **events_out, const est_ruleset *rs, const json_t *rules,
		     const json_t *wrapped, long long step, const json_t *orders, est_dice *dice, est_dice *hidden);

/*
 * Step 0: the state.json document of a new game whose game.json is
 * `game_json`, into *wrapped_out (new): {"game", "step": 0, "state": the
 * ruleset's setup() from `rules` and game.json "options"}, and under dice
 * v2 "join": {"powers": every power the players hold, in the players'
 * order, "dice": game.json's dice commitment} (the join above). Errors: the ruleset's (EST_EINVAL for an option it refuses),
 * EST_ENOMEM.
 */
int est_turn_setup(json_t **wrapped_out, const est_ruleset *rs, const json_t *rules, const json_t *game_json);

/*
 * Whether the step `pending` awaits is a round of sealed orders
 * (commitments first, then reveals): the game (game.json `game_json`)
 * takes sealed orders and the step is simultaneous, the join excepted.
 */
int est_turn_sealed_round(const json_t *game_json, const json_t *pending);

/*
 * A player's order items meant for `power` (rulesets/ruleset.h): an item
 * without a "power" field goes to every power the player holds that the
 * step awaits (`held`, an array of names); one with it only to the power
 * it names, with the field removed. `orders` must be an array (a non-array
 * gives an empty one, for the ruleset to refuse). *out is a new array;
 * *index_out, if wanted, a new array of each item's index in `orders`, to
 * point diagnostics at the file. Errors: EST_EINVAL naming orders[i].power
 * when it is not a string or not in `held`; EST_ENOMEM.
 */
int est_turn_orders_for(json_t **out, json_t **index_out, const json_t *orders, const char *power,
			  const json_t *held);
/*
 * est_turn_validate for each power of `held` (those the step awaits from
 * the player) on its share of `orders` (est_turn_orders_for). EST_EINVAL
 * with *diagnostics_out a new array of every power's diagnostics, each
 * once, their "index" that of the item in `orders`; otherwise *diagnostics_out
 * is NULL. Errors: those of est_turn_orders_for, the ruleset's.
 */
int est_turn_validate_powers(json_t **diagnostics_out, const est_ruleset *rs, const json_t *rules,
			     const json_t *wrapped, const json_t *orders, const json_t *held);

/*
 * Sealed orders (sealed_orders.c). est_sealed_orders_step: *out 1 when the
 * game takes sealed orders and the open step is simultaneous.
 * est_commitment_read: 1 and the committed SHA-256 (hex) when `player` has
 * a commitment for the open step, else 0. est_sealed_orders_check: the
 * rules of sealed orders for a file about to be accepted (a commitment
 * only while commitments are open; an order file only with a matching
 * commitment, once every awaited player committed or the deadline passed);
 * EST_EINVAL with the reason and the fix. est_reveal_deadline: into *out
 * the step's deadline plus its grace plus schedule.reveal_hours (0: no
 * deadline); errors of est_turn_deadline.
 */
int est_sealed_orders_step(int *out, est_game *game);
int est_commitment_read(char out_sha[65], est_game *game, const char *player);
struct est_order;
int est_sealed_orders_check(est_game *game, const struct est_order *order, const char *bytes,
			    size_t len, const char *filename, time_t now);
int est_reveal_deadline(time_t *out, est_game *game);

/*
 * The schedule (schedule.c). est_schedule_deadline: the deadline of a step
 * that opened at `opened` (seconds) and awaits `pending` (the ruleset's
 * answer: its "kind" and "mode" choose the hours), moved forward to the
 * next allowed day and hour; 0 when the schedule gives it none.
 * est_schedule_grace: how long past a deadline the step still waits, in
 * seconds.
 */
time_t est_schedule_deadline(const json_t *schedule, long long opened, const json_t *pending);
time_t est_schedule_grace(const json_t *schedule);

/*
 * GM acts (pending.c). est_gm_acts: the acts at main for the open step, in
 * file order, each checked (the GM's signature, the step): an array of
 * their documents with "file" added (a new reference to the open step's,
 * est_turn_open). Errors: those of est_turn_open. est_gm_effect: what
 * the acts do to the open step: seconds added to its deadline (extends,
 * and the time between each pause and its resume) and whether the game is
 * paused now.
 */
int est_gm_acts(json_t **acts_out, est_game *game);
int est_gm_effect(long long *added_out, int *paused_out, const json_t *acts);

/*
 * The open step, worked out once for each position of main (game->head)
 * and kept in game->open_step until main moves: *out (borrowed from the
 * game, valid until the next est_game_reload) is {"head", "pending": the
 * ruleset's answer (est_turn_ruleset_pending), "acts": the GM's acts on
 * the step, read and their signatures verified (as est_gm_acts), "added":
 * seconds the acts add to the deadline, "paused": bool, "deadline":
 * seconds since the epoch, 0 for none}. The step opened with the commit
 * of tag step-NNNN of the last resolved step, so orders recorded since do
 * not move its deadline; while a killed run has left that tag out (the
 * next run writes it), the step has no deadline.
 *
 * Errors: EST_ESIG or EST_EINVAL (a file in gm/ that is not a good act),
 * the ruleset's, EST_ENOMEM, EST_ERROR (libgit2).
 */
int est_turn_open(const json_t **out, est_game *game);

/*
 * The deadline, into *out, of the step that follows the one committed at
 * `rev` (NULL: the open step, as est_turn_open has it): the commit time of
 * `rev` plus game.json's schedule hours for that kind of step, moved to an
 * allowed day and hour; 0: no deadline.
 *
 * Errors: EST_ENOTFOUND (no such revision, or no state.json there),
 * EST_EINVAL, the ruleset's, those of est_turn_open.
 */
int est_turn_deadline(time_t *out, est_game *game, const char *rev);

/*
 * Guards (guards.c). est_missed_in_a_row: into *out, how many steps in a
 * row, back from the last resolved one, `player` was awaited and sent
 * nothing (counting at most `limit`; a step without a manifest ends the
 * count, a manifest that does not parse is an error). est_in_civil_disorder:
 * into *out, whether that count has reached schedule.civil_disorder_after
 * (0: never).
 * est_deadline_allows: may the open step resolve by its deadline with
 * `missing` of `awaited` players missing (those in civil disorder not
 * counted)? No under EST_STEP_CLOCK_UNSURE; no under "nmr": "wait" or
 * when more than schedule.outage_percent of them (and at least two) are
 * missing (then a warning, and a notice to the GM once per step), unless
 * EST_STEP_FORCE, which sets *forced_out to what the GM overrode.
 * est_clock_check: *sure_out 0 (with a warning) when `now` is behind the
 * last trusted run's clock or more than schedule.clock_jump_hours ahead of
 * it, unless `confirmed`; else records `now` as the last trusted run
 * ($ESTAFETTE_HOME/games/<id>/clock.json). Errors: EST_EIO, EST_ENOMEM.
 */
int est_missed_in_a_row(int *out, est_game *game, const char *player, int limit);
int est_in_civil_disorder(int *out, est_game *game, const char *player);
/* Whether `missed` steps in a row reach schedule.civil_disorder_after (never when it is 0). */
int est_civil_disorder_reached(est_game *game, int missed);
int est_deadline_allows(int *allows_out, const char **forced_out, est_game *game, size_t missing,
			size_t awaited, unsigned flags, time_t now);
int est_clock_check(int *sure_out, est_game *game, time_t now, int confirmed);
/* schedule.clock_jump_hours (72 when unset) in seconds: how far past the last trusted run a clock may be. */
long long est_clock_jump_seconds(est_game *game);

/*
 * The awaited part of a pending() answer with players mapped (pending.c):
 * *out is a new array. Errors: those of reading the recorded orders and of
 * est_in_civil_disorder.
 */
int est_turn_awaiting(json_t **out, est_game *game, const json_t *pending, time_t deadline);

#endif
