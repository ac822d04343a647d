/*
 * Shared between the engine's files; not for other modules.
 */
#ifndef EST_ENGINE_INTERNAL_H
#define EST_ENGINE_INTERNAL_H

#include <jansson.h>
#include <time.h>

#include "engine/engine.h"

/* The dice chain secrets of a game, kept under $ESTAFETTE_HOME (secrets.c). */
typedef struct {
	unsigned char chain[32];
	unsigned char hidden[32];
} est_secrets;

/*
 * New secrets (OpenSSL's RAND_bytes). With `test_text` (sample games only)
 * they are SHA-256(test_text) and SHA-256(test_text "/hidden"), which
 * anyone can recompute; game.json then says so. Errors: EST_ERROR, EST_ENOMEM.
 */
int est_secrets_generate(est_secrets *out, const char *test_text);

/*
 * Store a new game's secrets in $ESTAFETTE_HOME/games/<id>/secrets.json
 * (mode 0600, folder 0700, atomically). Errors: EST_EINVAL (secrets for
 * that id exist already), EST_EIO.
 */
int est_secrets_save(const est_secrets *secrets, const char *home, const char *id);

/* EST_EINVAL if game `id` already has secrets under `home`, else 0. */
int est_secrets_check_free(const char *home, const char *id);

/*
 * Read a game's secrets. Errors: EST_ECONFIG (missing, unreadable, not
 * valid, or readable by others: mode must be 0600).
 */
int est_secrets_load(est_secrets *out, const char *home, const char *id);

/*
 * c_n of game `id`'s chain and of its hidden chain (est_dice_chain_value of
 * its secrets), into chain_out[32] and hidden_out[32]: step t reveals
 * n = chain_length - t. Reads the chain checkpoints kept beside the secrets
 * ($ESTAFETTE_HOME/games/<id>/chain-checkpoints, mode 0600), so that a step
 * costs at most 2 x EST_DICE_CHECKPOINT_EVERY hashes, not 2 x n; a missing,
 * stale or damaged copy is made again (2 x EST_DICE_CHAIN_LENGTH hashes),
 * and a copy that cannot be written only costs time. Errors: those of
 * est_secrets_load; EST_EINVAL when n > EST_DICE_CHAIN_LENGTH.
 */
int est_secrets_chain_values(unsigned char chain_out[32], unsigned char hidden_out[32],
			     const char *home, const char *id, uint32_t n);

/* $ESTAFETTE_HOME/games/<id>/<name>; caller frees; NULL on ENOMEM. */
char *est_game_home_path(const est_game *game, const char *name);

/* "0007" style step folder names (4+ digits) into buf[32]. */
void est_step_name(char buf[32], long long step);

/* Parse stored JSON bytes; errors name `what` (EST_EINVAL). */
int est_json_parse(json_t **out, const char *text, size_t len, const char *what);

/* Read and parse a JSON file at `rev` of the game's store. */
int est_game_read_json(json_t **out, est_game *game, const char *rev, const char *path);

/*
 * Commit `changes` on top of game->head (est_store_commit). Once main has
 * moved the game is safe: a tag or work tree that could not be written
 * then is a warning in game->warnings (the next run repairs the tag; the
 * message says how to repair the work tree), not an error.
 */
int est_game_commit(char oid[EST_STORE_OID_HEX + 1], est_game *game,
		    const est_store_change *changes, size_t count, const char *message,
		    const char *tag);

/*
 * Take the game's lock (est_store_lock), then remove git lock files a
 * killed process left on estafette's refs, with a warning for each.
 * Errors: EST_ELOCKED, EST_EIO.
 */
int est_game_lock(est_game *game);

/* The sender of every mail a game sends unless git config estafette.sender says otherwise. */
#define EST_DEFAULT_SENDER "estafette <estafette@localhost>"

/*
 * The game repository's own git config value of `key` (e.g.
 * "estafette.smtpurl"), else a copy of `fallback` (may be NULL). Caller
 * frees; NULL when unset without fallback, or on ENOMEM.
 */
char *est_game_config(est_game *game, const char *key, const char *fallback);

/*
 * Sealed games (sealed.c). est_game_is_sealed: game.json says "sealed":
 * true. est_sealed_path: $ESTAFETTE_HOME/games/<id>/sealed.git (caller
 * frees; NULL on ENOMEM).
 */
int est_game_is_sealed(const est_game *game);
char *est_sealed_path(const char *home, const char *id);

/* Make a new game's sealed store. Errors: EST_EINVAL (it exists), EST_EIO, EST_ERROR. */
int est_sealed_create(const char *home, const char *id);

/* Open the sealed store if the game is sealed and it is here (else leave it NULL). */
int est_sealed_open(est_game *game);

/*
 * 0 unless the game is sealed and its sealed store is not here: then
 * EST_ECONFIG, saying that `what` ("resolving a step") is the GM's to do.
 */
int est_sealed_require(est_game *game, const char *what);

/*
 * Commit `changes` on the sealed store's main (under the game's lock);
 * nothing when it holds every one of them already, byte for byte.
 * Errors: est_store_commit's.
 */
int est_sealed_commit(est_game *game, const est_store_change *changes, size_t count,
		      const char *message);

/*
 * A sealed game's public note of an order in the sealed store, committed
 * on main: orders/<player>.received, {"player", "step", "seq", "sha256",
 * "kept"} with the order file's SHA-256, in a commit whose message is
 * est_game_order_message's. Errors: est_game_commit's; EST_ENOMEM.
 */
struct est_order;
int est_sealed_note(char oid[EST_STORE_OID_HEX + 1], est_game *game, const struct est_order *order,
		    const char *bytes, size_t len);

/*
 * est_sealed_note_missing: 1 when the sealed store holds orders of
 * `player` for the open step and main's note of them is missing or names
 * another file (a submit or receive killed between the two commits), else
 * 0 (also without the sealed store). est_sealed_repair_notes writes each
 * such note, one commit each in player order, the very commit the killed
 * command would have made, and warns the GM; with none missing it writes
 * nothing, so a second call changes nothing. Call it holding the lock,
 * after est_game_reload; the game is reloaded after each note.
 * *repaired_out (may be NULL; caller decrefs): [{"player", "step", "seq",
 * "sha256", "commit"}] of the notes written.
 * Errors: est_game_commit's; EST_ENOMEM.
 */
int est_sealed_note_missing(est_game *game, const char *player);
int est_sealed_repair_notes(json_t **repaired_out, est_game *game);

/*
 * What a command that writes mends first, holding the lock, after
 * est_game_reload (game.c): the latest step's tag when a step killed
 * before it left it out; the work tree brought to main (a command killed
 * mid-checkout leaves it behind; a failure is only a warning, main being
 * safe); then est_sealed_repair_notes, whose *repaired_out it returns.
 * Errors: est_store_tag's, est_sealed_repair_notes's.
 */
int est_game_repair(json_t **repaired_out, est_game *game);

/*
 * Where the order of `player` for the open step is kept: orders/<player>.json
 * at main, or orders/NNNN/<player>.json in the sealed store of a sealed
 * game. `what`: EST_ORDER_COMMITMENT for its commitment instead
 * (orders/<player>.commitment.json), EST_ORDER_SIG for the .sig of either.
 * est_game_order_read reads it; EST_ENOTFOUND when there is none (or, for
 * a sealed game, no sealed store here).
 */
#define EST_ORDER_SIG 1u
#define EST_ORDER_COMMITMENT 2u
void est_game_order_path(char buf[320], const est_game *game, const char *player, unsigned what);
int est_game_order_read(char **out, size_t *len, est_game *game, const char *player, unsigned what);

/*
 * Replace game->state with the whole state from the sealed store, after
 * checking that it seals to state.json at main. Nothing for unsealed games,
 * step 0 or without the store. Errors: EST_ECONFIG (the store does not
 * match), EST_ENOTFOUND, EST_EINVAL.
 */
int est_sealed_load_state(est_game *game);

/* steps/NNNN/<file> of the sealed store, parsed. Errors: EST_ENOTFOUND, EST_EINVAL. */
int est_sealed_step_json(json_t **out, est_game *game, long long step, const char *file);

/* A copy of an events.json document without the events only some powers may see. */
json_t *est_public_events(const json_t *events_doc);

/*
 * Sealed orders (sealed_orders.c). est_sealed_orders_step: *out 1 when the
 * game takes sealed orders and the open step is simultaneous.
 * est_commitment_read: 1 and the committed SHA-256 (hex) when `player` has
 * a commitment for the open step, else 0. est_sealed_orders_check: the
 * rules of sealed orders for a file about to be accepted (a commitment
 * only while commitments are open; an order file only with a matching
 * commitment, once every awaited player committed or the deadline passed);
 * EST_EINVAL with the reason and the fix. est_reveal_deadline: the step's
 * deadline plus its grace plus schedule.reveal_hours (0: no deadline).
 */
int est_sealed_orders_step(int *out, est_game *game);
int est_commitment_read(char out_sha[65], est_game *game, const char *player);
struct est_order;
int est_sealed_orders_check(est_game *game, const struct est_order *order, const char *bytes,
			    size_t len, const char *filename, time_t now);
time_t est_reveal_deadline(est_game *game);

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
 * Press (press.c). est_press_check: the order's press under game.json
 * "press".mode ("full", "public": only to all, "none") and to players of
 * the game; EST_EINVAL naming the message and the fix. est_press_mail:
 * with "press".delivery "mail", queue each message of a recorded order to
 * its recipients at once (once per message and reader: `sha256` is the
 * order file's). Errors: those of est_game_notice.
 */
int est_press_check(est_game *game, const struct est_order *order, const char *filename);
int est_press_mail(est_game *game, const struct est_order *order, const char *sha256, time_t now);

/*
 * GM acts (gm.c). est_gm_acts: the acts at main for the open step, in file
 * order, each checked (the GM's signature, the step): an array of their
 * documents with "file" added (caller decrefs). Errors: EST_ESIG, EST_EINVAL
 * (a file in gm/ that is not a good act), EST_ENOMEM. est_gm_effect: what
 * the acts do to the open step: seconds added to its deadline (extends,
 * and the time between each pause and its resume) and whether the game is
 * paused now.
 */
int est_gm_acts(json_t **acts_out, est_game *game);

/*
 * Read the GM act at `path` of `store` at `rev` (NULL: main) and its
 * `path`.sig: a gm/1 file with a good signature of principal gm (namespace
 * estafette-gm) in `signers` (an allowed_signers text). *act_out is its
 * document (new), sha_out (if not NULL) the SHA-256 of its bytes.
 * Errors: EST_ENOTFOUND, EST_EINVAL (not a gm/1 file), EST_ESIG, EST_ENOMEM.
 */
int est_gm_act_read(json_t **act_out, char sha_out[65], est_store *store, const char *rev,
		    const char *path, const char *signers);
int est_gm_effect(long long *added_out, int *paused_out, const json_t *acts);

/*
 * Players and keys (new.c, replace.c). est_engine_check_players: every
 * rule `new` applies to a players list (fields, ids, distinct keys, none
 * the GM's `gm_key`, which may be NULL); EST_EINVAL naming `file` and the
 * player; keys are read with est_sshsig_canonical_key, and no key holds
 * two seats. est_engine_allowed_signers (keys.c): keys/allowed_signers for
 * `players` and the GM's public key line (NULL: none) into *out, one
 * est_sshsig_allowed_line per key, no comments; caller frees; EST_EINVAL
 * naming players[i].key or the GM's key, EST_ENOMEM. est_gm_key_of: the
 * canonical key of principal gm in an allowed_signers text estafette wrote
 * (caller frees), or NULL. est_engine_same_keys: 1 if two allowed_signers
 * texts estafette wrote give the same principals, namespaces and keys in
 * the same order (comments aside), else 0. est_replace_apply: a replace act's seat, name, email and key
 * into game.json's players; EST_EINVAL for an unknown seat.
 * est_replace_expected: game.json and keys/allowed_signers as they must be
 * at `rev` when keys/replacements.json lists replace acts (step 0's, with
 * each act applied after checking its SHA-256 and the GM's signature);
 * both NULL when it lists none. Errors: EST_EINVAL, EST_ESIG,
 * EST_ENOTFOUND, EST_ENOMEM.
 */
int est_engine_check_players(const json_t *players, const char *gm_key, const char *file,
			     const est_ruleset *rs);
int est_engine_allowed_signers(char **out, const json_t *players, const char *gm_key);
char *est_gm_key_of(const char *allowed_signers);
int est_engine_same_keys(const char *a, size_t a_len, const char *b, size_t b_len);
int est_replace_apply(json_t *game_doc, const json_t *act);
int est_replace_expected(char **game_out, char **keys_out, est_store *store, const char *rev);

/* Add a printf-style warning to game->warnings. */
void est_game_warn(est_game *game, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Deadline of the step that follows the one committed at `rev` (NULL: the
 * open step, which opened with tag step-NNNN of the last resolved step, so
 * orders recorded since do not move it): its commit time plus game.json's
 * schedule.deadline_hours. 0: no deadline.
 */
time_t est_game_deadline(est_game *game, const char *rev);

/* ISO 8601 UTC ("2026-11-29T16:00:00Z") into buf[32]; "" for 0. */
void est_time_iso(char buf[32], time_t t);

/*
 * The report data model (engine.h est_game_report) of step `step` for
 * `player` (a game.json player record; NULL: public), read from the
 * repository at tag step-NNNN. Caller decrefs. report.c.
 */
int est_report_data(json_t **out, est_game *game, long long step, const json_t *player);

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
 * Check a recorded order file as `run` does before resolving: like
 * est_game_check_order but without the seq check against itself.
 */
int est_game_check_recorded(struct est_order **order_out, est_game *game, const char *filename,
			    const char *bytes, size_t len, const char *sig, size_t sig_len, time_t now);

/*
 * Commit a checked order file and its signature as orders/<player>.json
 * and .json.sig (the caller holds the lock and checked it with
 * est_game_check_order). *receipt_out as est_game_submit's.
 * Errors: EST_ETEMPFAIL (main moved), EST_EIO.
 */
int est_game_record(json_t **receipt_out, est_game *game, const struct est_order *order,
		    const char *bytes, size_t len, const char *sig, size_t sig_len);

/* "orders: <player> for step N (seq S)" and its trailer: the message of an order's commit. */
char *est_game_order_message(const struct est_order *order);

/*
 * The receipt of an order file recorded by `submit` (receipts.c): mailed
 * to the player whose orders they are, through the outbox (sent by the
 * next delivery). Errors: those of composing and queueing mail.
 */
int est_game_receipt_for_submit(est_game *game, const json_t *receipt, const struct est_order *order,
				time_t now);

/*
 * The mail of an order file recorded already (intake.c): when `bytes` (or
 * they without their final newline) are the file recorded for their
 * player, queue its press again and, with `receipt`, its submit receipt. A
 * command killed after recording the file and before queueing its mail,
 * then run again, loses nothing: queueing is idempotent by name, so mail
 * queued or sent before is not queued twice. Does nothing (0) for any other
 * bytes. Errors: those of est_press_mail and est_game_receipt_for_submit.
 */
int est_game_requeue(est_game *game, const char *filename, const char *bytes, size_t len,
		     int receipt, time_t now);

/*
 * A text that grows line by line; `failed` is set if memory ran out
 * (receipts.c). `len` and `cap` keep each addition proportional to its own
 * length, not to the text's. Start it as {0}.
 */
typedef struct {
	char *text;
	int failed;
	size_t len; /* strlen(text) */
	size_t cap; /* bytes allocated at text */
} est_text;

void est_text_add(est_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The order items, numbered, one line each: "  1. move from=France to=Rhineland armies=4". */
void est_text_orders(est_text *t, const json_t *orders);
/* What the game awaits now, and by when: one paragraph. */
void est_text_awaiting(est_text *t, est_game *game, time_t now);

/*
 * Queue a plain-text notice (a receipt, a reminder) to `to` (an address) in
 * the game's outbox under `name` ([A-Za-z0-9._-]; its Message-ID is
 * <GAME.NAME@estafette>). A name already queued or sent is left alone, so a
 * notice goes out once. `in_reply_to` ("<id>" or NULL) threads it with the
 * message it answers. Errors: EST_EINVAL (address), EST_EIO, EST_ENOMEM.
 */
int est_game_notice(est_game *game, const char *name, const char *to, const char *subject,
		    const char *text, const char *in_reply_to, time_t date);

/*
 * Reminders: when game.json "schedule" has "reminder_hours" R and the open
 * step has a deadline D, a run at a time within [D - R hours, D) queues a
 * reminder to each awaited player whose orders have not arrived: once per
 * step and player (outbox name NNNN-PLAYER-reminder). *sent_out counts those
 * queued by this call (0 if all were queued before).
 * Errors: those of est_game_notice.
 */
int est_game_remind(int *sent_out, est_game *game, time_t now);

/*
 * A password from $ESTAFETTE_HOME/NAME ("smtp-password", "imap-password"),
 * first line, in *out (caller frees), or NULL when there is no such file
 * (then ~/.netrc, or no login). Errors: EST_ECONFIG if others may read the
 * file; EST_EIO.
 */
int est_game_password(char **out, est_game *game, const char *name);

/*
 * Resolve the next step if it is due (step.c): *resolved_out is 1 if a
 * step was committed, 0 if the game waits or is over. `flags`:
 * EST_STEP_FORCE resolves by deadline past the outage guard and the "wait"
 * policy (the manifest says so); EST_STEP_CLOCK_UNSURE resolves nothing by
 * deadline (est_clock_check did not trust the clock).
 */
#define EST_STEP_FORCE 1u
#define EST_STEP_CLOCK_UNSURE 2u
int est_step_try(int *resolved_out, est_game *game, time_t now, unsigned flags);

/*
 * A GM step (gm_step.c): the act `act` (its gm/1 file `text` and signature
 * `sig`, both taken over and freed) resolves the next step in place of the
 * ruleset: the manifest says kind "gm" and names the act's file, kept
 * under turns/NNNN/gm/. The caller holds the lock. Errors: those of
 * est_engine_gm_apply and of committing a step.
 */
int est_step_gm(est_game *game, const json_t *act, char *text, char *sig, size_t sig_len);

/*
 * Guards (guards.c). est_missed_in_a_row: how many steps in a row, back
 * from the last resolved one, `player` was awaited and sent nothing
 * (counting at most `limit`). est_in_civil_disorder: that count has
 * reached schedule.civil_disorder_after (0: never).
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
int est_missed_in_a_row(est_game *game, const char *player, int limit);
int est_in_civil_disorder(est_game *game, const char *player);
/* Whether `missed` steps in a row reach schedule.civil_disorder_after (never when it is 0). */
int est_civil_disorder_reached(est_game *game, int missed);
int est_deadline_allows(int *allows_out, const char **forced_out, est_game *game, size_t missing,
			size_t awaited, unsigned flags, time_t now);
int est_clock_check(int *sure_out, est_game *game, time_t now, int confirmed);

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

/* The awaited part of a pending() answer with players mapped (game.c). */
int est_game_awaiting(json_t **out, est_game *game, const json_t *pending, time_t deadline);

/*
 * A list of store changes that owns its paths and bytes (changes.c).
 * est_changes_add takes ownership of `path` and `data` (either may be NULL
 * after a failed allocation: EST_ENOMEM, and both are freed).
 * est_changes_delete removes a path (a file or a whole folder).
 */
typedef struct {
	est_store_change *items;
	char **owned;
	size_t count, nowned;
} est_changes;

int est_changes_add(est_changes *c, char *path, char *data, size_t len);
int est_changes_add_json(est_changes *c, const char *path, const json_t *value);
int est_changes_delete(est_changes *c, const char *path);
void est_changes_free(est_changes *c);

/* What a game joining a deal (`new --deal-from GAME`) takes from GAME (deal.c). */
typedef struct {
	char *deal;          /* GAME's game.json "deal" */
	json_t *options;     /* GAME's options (the scenario among them) */
	json_t *rules;       /* GAME's rules/ merged, for setup() */
	char *test_secret;   /* GAME's dice.test_secret mark, or NULL */
	est_secrets secrets; /* GAME's dice chain secrets */
} est_deal_source;

/*
 * Read the game at `path` for a new game of ruleset `rs` to join its deal:
 * its secrets (under `home`), options and rules/ at step-0000, whose files
 * are added to `c` byte for byte. Free *out with est_deal_source_free.
 * Errors: EST_ENOTFOUND (no game at `path`), EST_EINVAL (another ruleset,
 * no deal), EST_ECONFIG (its secrets are not on this host), EST_ENOMEM.
 */
int est_deal_join(est_deal_source *out, est_changes *c, const char *path, const est_ruleset *rs,
		  const char *home);
void est_deal_source_free(est_deal_source *src);

#endif
