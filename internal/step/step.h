/*
 * A step resolved (rulesets/ruleset.h, "Dice"): the
 * orders taken, the ruleset's resolve() with the step's dice, the GM's
 * acts that are steps, and the reports rendered from templates.
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_STEP_STEP_H
#define EST_STEP_STEP_H

#include <jansson.h>
#include <time.h>

#include "dice/dice.h"
#include "game/game.h"

/*
 * Render a report of step `step` (-1: the latest) for `player` (NULL: the
 * public report) as "text", "html" or "json" (the report data model).
 * *out is a new string (caller frees).
 * Errors: EST_ENOTFOUND (step or player), EST_EINVAL (format), rendering
 * errors.
 */
int est_report_format(char **out, est_game *game, long long step, const char *player,
		    const char *format);

/*
 * est_report_format of the public report with estafette's installed
 * templates only, never a templates/ folder the game's repository holds:
 * for pages that run in a reader's browser, where a template whoever can
 * push wrote could put script. Errors: those of est_report_format.
 */
int est_report_format_installed(char **out, est_game *game, long long step, const char *format);

/*
 * A GM act that changes the state (gm_step.c), applied to the whole state
 * `prev_wrapped` ({"game", "step", "state"}) as step `step`: "adjust" sets
 * each {"path", "value"} of act "set" (JSON pointers to fields the state
 * has), "rollback" takes the state of tag step-<act "to_step"> from `store`,
 * "end" keeps the state and adds "ended": {"result", "winner", "reason",
 * "text"} to the document. *wrapped_out is the new state.json document,
 * *events_out the step's events (both new). "adjust" and "rollback" are
 * refused while the document awaits the join, as is a rollback to a state
 * that awaited it (step 0): the set-up draws must take the players'
 * entropy (turn/turn.h). Errors: EST_EINVAL (a path the state lacks, a step
 * out of range, the join, another act), EST_ENOTFOUND, EST_ENOMEM.
 */
int est_step_gm_apply(json_t **wrapped_out, json_t **events_out, est_store *store,
			const json_t *prev_wrapped, const json_t *act, long long step);

/*
 * A v2 step's canonical seed inputs (docs/protocol.md "Dice protocol v2"), as dice.json
 * records them, into *out (new): {"game", "step", "prev": hex SHA-256 of
 * the state.json the step resolves (`prev_hex`: the public one in a sealed
 * game), "awaited": [{"player", "sha256": hex of the order file resolved
 * for the player, or null when it sent none}] in byte order of id}. The
 * awaited players are those of the manifest's "orders" (with their
 * "sha256") and "missing" (null); a GM step's manifest lists none.
 * Errors: EST_EINVAL (an entry without "player", an order without
 * "sha256", a player twice), EST_ENOMEM.
 */
int est_step_dice_inputs(json_t **out, const json_t *game, long long step, const char *prev_hex,
			 const json_t *manifest);

/*
 * The seeds of step `step` of the game whose game.json is `game`: into
 * seed[32] from the chain value `r` (r_t; NULL: skip it) and into
 * hidden_seed[32] from the hidden chain's `h` (NULL: skip it), with
 * *hidden_domain (static) the domain used. Dice v1: over the game id, the
 * step and `manifest_sha` (raw SHA-256 of the step's manifest.json); v2:
 * over `inputs` (est_step_dice_inputs). A dealt game's hidden seed is over
 * the deal's name and the step alone, so its games draw alike.
 * Errors: EST_EINVAL (game.json "id" or "deal" not a string, bad inputs),
 * EST_ENOMEM.
 */
int est_step_seeds(unsigned char seed[32], unsigned char hidden_seed[32], const char **hidden_domain,
		   const json_t *game, long long step, const unsigned char r[32], const unsigned char h[32],
		   const unsigned char manifest_sha[32], const json_t *inputs);

/* A roll stream keyed by `seed` in the game's dice protocol (est_dice_new, est_dice_new_v2). */
int est_step_dice_new(est_dice **out, const json_t *game, const unsigned char seed[32]);

/*
 * The report data model (engine.h est_report_format) of step `step` for
 * `player` (a game.json player record; NULL: public), read from the
 * repository at tag step-NNNN. Caller decrefs.
 */
int est_report_data(json_t **out, est_game *game, long long step, const json_t *player);

/*
 * The order file an awaited player fills in (docs/player-guide.md): for
 * `step` (the open one), `player`, "prev" `sha` (hex SHA-256 of the state
 * it follows) and `seq`, "entropy" EST_ORDERS_ENTROPY_PLACEHOLDER (which
 * `estafette sign` fills) and "orders": [], as indented JSON with a final
 * newline; named orders-NNNN-<player>.json. Both new (caller frees).
 * Errors: EST_ENOMEM.
 */
int est_report_order_file(char **name_out, char **text_out, est_game *game, long long step,
			  const char *player, const char *sha, long long seq);

/*
 * The same from the step's parts in memory (state.json, events.json and
 * dice.json documents, any of the last two may be NULL), for the public
 * report that goes into the step's own commit. `state_sha256` is that of
 * the public state.json (the "prev" of the next orders), which in a sealed
 * game is not the whole state's. `deadline` 0: none.
 */
int est_report_build(json_t **out, est_game *game, long long step, const json_t *wrapped_state,
		     const char *state_sha256, const json_t *events_doc, const json_t *dice_doc,
		     const json_t *player, time_t deadline);

/*
 * Resolve the next step if it is due (step.c): *resolved_out is 1 if a
 * step was committed, 0 if the game waits or is over. `flags`:
 * EST_STEP_FORCE resolves by deadline past the outage guard and the "wait"
 * policy (the manifest says so); EST_STEP_CLOCK_UNSURE resolves nothing by
 * deadline (est_clock_check did not trust the clock); turn/turn.h
 * defines them.
 */
int est_step_try(int *resolved_out, est_game *game, time_t now, unsigned flags);

/*
 * A GM step (gm_step.c): the act `act` (its gm/1 file `text` and signature
 * `sig`, both taken over and freed) resolves the next step in place of the
 * ruleset: the manifest says kind "gm" and names the act's file, kept
 * under turns/NNNN/gm/. The caller holds the lock. Errors: those of
 * est_step_gm_apply and of committing a step.
 */
int est_step_gm(est_game *game, const json_t *act, char *text, char *sig, size_t sig_len);

/*
 * Render report data with template `name` ("report.txt", "report.html",
 * "map.svg"): templates/NAME.mustache of the game repository at main if the
 * GM put one there, else the installed templates/<ruleset>/NAME.mustache
 * (partials likewise). Adds data["template"] = {"name", "source", "sha256",
 * "short"} so the report can say which template made it. Text is rendered
 * without escaping; HTML and SVG with it.
 * Errors: EST_ENOTFOUND (no such template), EST_EINVAL (template syntax),
 * EST_ECONFIG (no templates installed), EST_ENOMEM.
 */
int est_report_render(char **out, est_game *game, json_t *data, const char *name);

/* The manifest's "ignored" reason for an order file a GM step (adjust, rollback, end) set aside. */
#define EST_STEP_SET_ASIDE "set aside by the GM's act: its player sends new orders for the step it opens"

/*
 * What a step derives for its readers (derived.c). step.c writes these
 * into the step's commit; audit/ makes them again from the repository and
 * compares them byte for byte, so both go through these functions.
 *
 * est_step_notices: the events a step adds after its resolution's, into
 * *out (a new array): for each order file `manifest` lists under "orders",
 * in its order, the press of that file (`press`: player id -> the file's
 * "press" array; a player without one sent none); for each entry of
 * "missing", the notice that the player sent nothing ("missed_in_a_row"
 * counts this step; civil disorder as game.json's schedule says); for each
 * file of "ignored" that a GM step set aside (reason EST_STEP_SET_ASIDE),
 * that its player must send new orders; then each GM act on the open step
 * (est_gm_acts). `game` is the game the step
 * was resolved from (main just before the step's commit). Errors: those of
 * est_gm_acts; EST_ENOMEM.
 */
int est_step_notices(json_t **out, est_game *game, const json_t *manifest, const json_t *press);

/*
 * The deadline of the step that the state `wrapped` ({"game", "step",
 * "state"}, the whole state) awaits, when it opened at `opened` (seconds:
 * the time of the commit of the step that made `wrapped`): game.json's
 * schedule for the kind and mode its pending() gives; 0: none.
 * Errors: the ruleset's.
 */
int est_step_deadline(time_t *out, est_game *game, const json_t *wrapped, long long opened);

/*
 * turns/NNNN/events.json's document: {"step", "kind" (the kind of step
 * that was resolved, "gm" for a GM step), "events": the resolution's events
 * followed by est_step_notices}. A sealed game's public file keeps only
 * the events everyone may see (est_public_events). *out is new.
 * Errors: EST_ENOMEM.
 */
int est_step_events_doc(json_t **out, long long step, const json_t *kind, const json_t *events);

/*
 * The dice part of a step's report data: {"reveal": hex r_t, "seed": hex
 * seed_t, "rolls": the public stream's log}. New; NULL when out of memory.
 */
json_t *est_step_report_dice(const unsigned char reveal[32], const unsigned char seed[32], est_dice *dice);

/*
 * 1 if file `name` (a plain name, as under orders/) or its signature
 * (`name` ending in ".sig") is one that `manifest` lists as resolved: an
 * order file of "orders" or a commitment of "commitments"; else 0. What a
 * step keeps under turns/NNNN/orders/ is only such files (docs/protocol.md
 * "The repository"); any other file of orders/ at resolve
 * time is named in the manifest as ignored.
 */
int est_step_manifest_lists(const json_t *manifest, const char *name);

/* The files of turns/NNNN/ that est_step_derived makes, NULL-terminated. */
extern const char *const est_step_derived_files[];

/*
 * The files of turns/NNNN/ derived from step `step`'s parts: *out (new) is
 * {"events.json": the text of `events_doc`, "report.txt", "report.html",
 * "map.svg": the public report (est_report_build with `wrapped`, the whole
 * state, `state_sha256`, the public state.json's SHA-256, `events_doc`,
 * `dice_doc` (est_step_report_dice) and `deadline` (est_step_deadline),
 * rendered by est_report_render with the templates `game` reads at main)};
 * a file whose template neither the game nor estafette has is left out.
 * On failure *failed_out names the file that could not be made.
 * Errors: those of est_report_build and est_report_render; EST_ENOMEM.
 */
int est_step_derived(json_t **out, const char **failed_out, est_game *game, long long step,
		     const json_t *wrapped, const char *state_sha256, const json_t *events_doc,
		     const json_t *dice_doc, time_t deadline);

#endif
