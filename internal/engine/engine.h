/*
 * The step pipeline (DESIGN.md "Steps, phases and decisions") and the
 * game as the command line sees it.
 *
 * An est_game is one open game repository with its game.json, the ruleset
 * it names and the current state. Everything that writes takes the game's
 * lock first (est_store_lock), so two runs never interleave; every write is
 * one commit on refs/heads/main made only if main did not move meanwhile.
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_ENGINE_ENGINE_H
#define EST_ENGINE_ENGINE_H

#include <jansson.h>
#include <time.h>

#include "engine/ruleset.h"
#include "store/store.h"

#define EST_VERSION "0.1.0"
#define EST_ORDERS_NAMESPACE "estafette-orders"
#define EST_ORDER_MAX_BYTES 65536

/* An OpenSSH private key in memory, to sign with (est_engine_sign_with). */
typedef struct {
	char *key;  /* the key file's text, or NULL */
	size_t len;
} est_signing_key;

typedef struct est_game {
	est_store *store;
	const est_ruleset *ruleset;
	char head[EST_STORE_OID_HEX + 1]; /* refs/heads/main when opened */
	json_t *game;    /* game.json */
	json_t *rules;   /* rules/ merged: {"map": ..., "cards": ...}; read-only, shared by
			  * the games of a process whose rules/ trees are the same */
	char rules_id[EST_STORE_OID_HEX + 1]; /* the rules/ tree `rules` was read from; "" if none */
	json_t *state;   /* state.json: {"game", "step", "state"} */
	char *state_text; /* state.json bytes as stored */
	char state_sha256[65];
	char *allowed_signers; /* keys/allowed_signers as stored */
	long long step;  /* the last resolved step (0 after `new`) */
	char *home;      /* $ESTAFETTE_HOME */
	json_t *warnings; /* strings: what went wrong after the game was safe */
	est_signing_key signing_key; /* the GM's key (git config estafette.signingkey); key NULL: none */
	est_store *sealed_store; /* sealed games on the GM's machine: the sealed store
	                            (sealed.c); NULL elsewhere. `state` is then the
	                            whole state, `state_text` the public one */
} est_game;

/* Options of `estafette new`. */
typedef struct {
	const char *dir;          /* the folder to create the repository in */
	const char *id;           /* game id; NULL: the folder's base name */
	const char *ruleset;      /* "napoleonic-empire" */
	const char *players_file; /* DESIGN.md "The players file" */
	const char *gm_key;       /* a public key file for the GM, or NULL */
	json_t *options;          /* {"scenario": ..., K: V}; borrowed, may be NULL */
	const char *signing_key;  /* the GM's private key file: every commit and tag is
	                             signed with it (git config estafette.signingkey) */
	const char *test_secret;  /* sample games only: dice secrets anyone can
	                             recompute from this text (game.json says so) */
	int deadline_hours;       /* 0: no deadline, steps wait for every order */
	int reminder_hours;       /* 0: no reminders; else that long before a deadline */
	int sealed;               /* hidden parts only as commitments on public refs */
	int sealed_orders;        /* simultaneous steps: commitments first, then reveals */
	const char *press;        /* "full" (NULL), "public" or "none" (press.c) */
	int press_by_mail;        /* press is also mailed to its readers at once */
	const json_t *schedule;   /* `new --schedule FILE` (est_schedule_check'ed), or NULL;
	                             the hour options above win over its fields */
	int reveal_hours;         /* sealed orders: how long after the deadline reveals wait */
	const char *rules_dir;    /* `new --rules DIR`: its NAME.json files replace the ruleset's
	                             data files of the same name in this game's rules/ */
	const char *deal;         /* `new --deal NAME`: start the deal NAME (game.json "deal") */
	const char *deal_from;    /* `new --deal-from GAME`: join GAME's deal (deal.c) */
} est_new_options;

/* Registered rulesets, by name ("napoleonic-empire"); NULL if unknown. */
const est_ruleset *est_engine_ruleset(const char *name);

/* The names of all registered rulesets, NULL-terminated, static. */
const char *const *est_engine_ruleset_names(void);

/*
 * The folder that holds templates/ and rulesets/NAME/data: $ESTAFETTE_DATA,
 * else the source tree the binary was built in (for `make demo` and tests),
 * else the installed share folder. Returns a new string (caller frees) or
 * NULL with EST_ECONFIG set.
 */
char *est_engine_datadir(const char *subdir);

/*
 * Create a game: a new repository at opts->dir with game.json,
 * keys/allowed_signers, rules/, state.json (the ruleset's set-up) and
 * .gitattributes as step 0, tagged step-0000. The dice chain secrets go to
 * $ESTAFETTE_HOME/games/<id>/secrets.json (mode 0600), never into the
 * repository. *summary_out (caller decrefs) tells who got which powers.
 *
 * Errors: EST_EINVAL (players file, options), EST_ENOTFOUND (players file,
 * ruleset data), EST_ECONFIG (no $ESTAFETTE_HOME or $HOME), EST_EIO.
 */
int est_engine_new(json_t **summary_out, const est_new_options *opts);

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
 * Open the game at `path`, reading game.json, rules/, state.json and
 * keys/allowed_signers at refs/heads/main. Caller frees with est_game_free.
 * Errors: EST_ENOTFOUND (no repository or not a game), EST_EINVAL (a file
 * does not parse), EST_ECONFIG (unknown ruleset).
 */
int est_game_open(est_game **out, const char *path);
void est_game_free(est_game *game);

/* Re-read everything at the current refs/heads/main (after a commit). */
int est_game_reload(est_game *game);

/*
 * What the game awaits now: {"step": next step number, "kind", "mode",
 * "prompt", "awaiting": [{"player", "name", "powers", "mode", "deadline",
 * "received": bool, "seq", "refused"?}], "over": bool, "deadline": ISO
 * time or null}. "received" says that `run` will take the order recorded
 * for the step: each is checked as run checks it (est_game_check_recorded,
 * keys as they are now), and one it would refuse (signed by a key that gm
 * replace has revoked) is not received, and "refused" holds why.
 * Errors: EST_ERROR (ruleset), EST_ENOMEM.
 */
int est_game_pending(json_t **out, est_game *game, time_t now);

/*
 * est_game_pending without checking the recorded orders again: "received"
 * is only "a file for the step is there". For `run`, which checks each
 * order itself as it takes it, and for the checks of an order.
 */
int est_game_pending_unchecked(json_t **out, est_game *game, time_t now);

/*
 * Check an order file (bytes as received) and its armored signature
 * against the game as it stands (`sig_name` names the signature in
 * messages): strict parsing, the signature by a key of
 * the player named in the file (keys/allowed_signers at main), the binding
 * (game, step, prev), the player's turn, seq, and the ruleset's validation.
 * `filename` names the file in messages. On success *order_out (may be NULL
 * if unwanted) holds the parsed order, caller frees with est_orders_free.
 * *diagnostics_out (caller decrefs, may be NULL) gets the ruleset's
 * per-order diagnostics when it refuses.
 *
 * Errors: EST_EINVAL (parse, binding, rules), EST_ESIG (signature).
 */
struct est_order;
int est_game_check_order(struct est_order **order_out, json_t **diagnostics_out, est_game *game,
			 const char *filename, const char *bytes, size_t len,
			 const char *sig_name, const char *sig, size_t sig_len, time_t now);

/*
 * One ruleset diagnostic ({"index", "field", "rule", "message"}) as a line
 * for a person into buf: "orders[I].FIELD: MESSAGE (RULE)", or "MESSAGE
 * (RULE)" when it concerns the whole file (index -1).
 */
void est_diagnostic_text(char *buf, size_t len, const json_t *diagnostic);

/*
 * Check and record an order file: commits orders/<player>.json and its
 * .sig ("orders: <player> for step N (seq S)"). Takes the game's lock.
 * *receipt_out (caller decrefs) says what was accepted: player, step, seq,
 * sha256, replaced seq if any.
 *
 * A sealed game: the file goes to the sealed store and main gets its note
 * orders/<player>.received. First the notes a killed submit or receive
 * left out are written (est_sealed_repair_notes); when this very file's
 * was one of them, its submit was cut short and this one finishes it:
 * nothing is recorded again, the receipt says "already_recorded": true and
 * names the note's commit, and its press and receipt mail are queued.
 *
 * Errors: those of est_game_check_order; EST_ELOCKED; EST_ETEMPFAIL (main
 * moved); EST_EIO.
 */
int est_game_submit(json_t **receipt_out, json_t **diagnostics_out, est_game *game,
		    const char *filename, const char *bytes, size_t len,
		    const char *sig_name, const char *sig, size_t sig_len, time_t now);

/*
 * The most bytes a message may have to be read: git config
 * estafette.maxmessage of the game's repository (a number of bytes, or
 * with k, m or g for KiB, MiB or GiB, as git's integers), 10 MiB if unset.
 *
 * Errors: EST_ECONFIG (a value that is not a positive size).
 */
int est_game_max_message(size_t *out, est_game *game);

/*
 * Mail intake (`receive`, `fetch`): one RFC 5322 message of `size` bytes,
 * of which `bytes` holds the first `len` (all of it when len == size; a
 * caller may stop reading a message over est_game_max_message, but must
 * give at least its header); the envelope sender in `return_path` if
 * known, else NULL. Its candidate orders (at most
 * EST_INTAKE_MAX_CANDIDATES, mail/intake.h) are checked as
 * est_game_check_order checks a file, the newest valid one by seq is
 * recorded (a commit), and the sender gets a receipt of a few KiB saying
 * what was found, accepted or refused and why, the order file's SHA-256 and
 * what the game awaits; then the outbox is delivered. A message
 * from an address that is not a player's gets a short refusal (once per
 * address); one sent by a machine (auto-reply, bounce, list) gets nothing;
 * one without a From address gets nothing ("unanswerable"). A message over
 * the size limit is not parsed: its header says who sent it, and a player
 * gets one short notice with the limit and what to do ("too large"). A
 * sender's address that no notice can be sent to (RFC 5322 allows it,
 * SMTP cannot take it) is logged as "not_answered". Each outcome is logged
 * in $ESTAFETTE_HOME/games/<id>/intake.log. Handling one message twice
 * records nothing twice and answers once. Parsing is done before the
 * game's lock is taken; checking, recording and answering hold it.
 * *result_out (caller decrefs): {"status": "accepted" | "duplicate" |
 * "refused" | "stranger" | "ignored" | "unanswerable" | "too large",
 * "from"?, "message_id"?, "subject"?, "sha256", "reason"?, "error"?,
 * "size"? (too large), "not_answered"?, "ignored"? (order files not read),
 * "candidates": [{"where", "quoted", "status", "error"?, "player"?,
 * "step"?, "seq"?}], "mail", "warnings"}.
 *
 * Errors: EST_EINVAL (not mail at all: mail/intake.h says where the line
 * runs), EST_ECONFIG (estafette.maxmessage), EST_ELOCKED, EST_ETEMPFAIL
 * (main moved), EST_EIO. Refused orders are an outcome, not an error.
 */
int est_game_receive(json_t **result_out, est_game *game, const char *bytes, size_t len,
		     size_t size, const char *return_path, time_t now);

/*
 * `fetch`: hand every unseen message of a mailbox to est_game_receive —
 * the IMAP mailbox `imap_url` (NULL: git config estafette.imapurl; user
 * estafette.imapuser, password in $ESTAFETTE_HOME/imap-password or
 * ~/.netrc, CA file estafette.imapcafile), or the Maildir `maildir` when
 * not NULL. A message is marked seen only after its outcome is stored, so a
 * fetch killed midway loses nothing, and one handed over again is answered
 * once (est_game_receive). *summary_out (caller decrefs, set on error too):
 * {"handled", "left", "messages": [est_game_receive results with
 * "mailbox_id"], "warnings"}.
 *
 * A message over est_game_max_message is not downloaded: its header is
 * (IMAP: its RFC822.SIZE is asked first; Maildir: its file size).
 *
 * Errors: EST_ECONFIG (no mailbox given or configured, login refused, TLS,
 * estafette.maxmessage),
 * EST_ETEMPFAIL (server down; the game's lock held: left for the next run),
 * EST_ENOTFOUND (not a Maildir), and those of est_game_receive.
 */
int est_game_fetch(json_t **summary_out, est_game *game, const char *imap_url, const char *maildir,
		   time_t now);

/*
 * Resolve every step that is due, one commit and tag each, until the game
 * waits on a player or a deadline or is over; then queue each player's
 * report in the outbox and deliver the outbox (est_engine_deliver). Takes
 * the game's lock. *summary_out (caller decrefs): {"game", "resolved":
 * [step numbers], "waiting": pending (as est_game_pending), "mail":
 * {"sent", "pending", "outbox"}}.
 *
 * Errors: EST_ELOCKED, EST_ETEMPFAIL (main moved, SMTP unreachable: the
 * steps are committed, the mail waits in the outbox), EST_EINVAL/EST_ESIG
 * (a recorded order no longer verifies), EST_ERROR (ruleset), EST_EIO.
 *
 * `flags`: EST_RUN_NO_MAIL queues the reports but sends nothing ("mail" is
 * then absent from the summary): a runner that must first publish its steps
 * (hooks/run-and-push) sends them with est_game_mail once they are on the
 * host, never the reports of a step another runner's push replaced.
 * EST_RUN_FORCE: the GM resolves by deadline past the outage guard and the
 * "wait" policy (the manifest records it). EST_RUN_CONFIRM_CLOCK: the GM
 * confirms the clock that est_clock_check did not trust. Without it, a
 * clock behind the last run's or too far ahead resolves nothing by deadline
 * (steps whose orders are all in still resolve).
 */
#define EST_RUN_NO_MAIL 1u
#define EST_RUN_FORCE 2u
#define EST_RUN_CONFIRM_CLOCK 4u
int est_game_run(json_t **summary_out, est_game *game, time_t now, unsigned flags);

/*
 * Queue the reports of step `step` for every player (idempotent: a report
 * already queued or sent is left alone). *queued_out counts new ones.
 * Errors: EST_ENOTFOUND (no such step), EST_EIO, rendering errors.
 */
int est_game_queue_reports(int *queued_out, est_game *game, long long step);

/*
 * estafette reveal: publish, in one commit on main, reveal.json (the hidden
 * chain's value of the last step, from which every earlier one follows)
 * and revealed/NNNN/ for every step: hidden-dice.json (the hidden stream's
 * seed and rolls, if this machine resolved the step) and, in a sealed game, state.json and events.json whole
 * and the order files under orders/. Afterwards `audit` checks everything.
 * Refused while the game is not over unless `before_end`. *summary_out:
 * {"game", "step", "sealed", "commit"}.
 * Errors: EST_EUSAGE (not over, or nothing resolved yet), EST_ECONFIG (the
 * dice secrets or the sealed store are not here, or the store does not
 * match the manifests), EST_ELOCKED, EST_ETEMPFAIL, EST_EIO.
 */
int est_game_reveal(json_t **summary_out, est_game *game, int before_end);

/*
 * `estafette mail`: est_game_deliver under the game's lock, so it never
 * races a run sending the same messages. Errors: EST_ELOCKED, and those of
 * est_game_deliver.
 */
int est_game_mail(json_t **mail_out, est_game *game);

/*
 * Send what waits in the game's outbox over SMTP (git config
 * estafette.smtpurl, estafette.smtpuser; password from ~/.netrc or
 * $ESTAFETTE_HOME/smtp-password). *mail_out (caller decrefs):
 * {"sent": n, "pending": n, "outbox": folder, "configured": bool}.
 * Errors: EST_ETEMPFAIL (server unreachable or refusing: mail stays queued).
 */
int est_game_deliver(json_t **mail_out, est_game *game);

/*
 * Render a report of step `step` (-1: the latest) for `player` (NULL: the
 * public report) as "text", "html" or "json" (the report data model).
 * *out is a new string (caller frees).
 * Errors: EST_ENOTFOUND (step or player), EST_EINVAL (format), rendering
 * errors.
 */
int est_game_report(char **out, est_game *game, long long step, const char *player,
		    const char *format);

/*
 * The player record of game.json holding `power`, or of id `player`.
 * Borrowed from game->game; NULL if none.
 */
const json_t *est_game_player_by_power(const est_game *game, const char *power);
const json_t *est_game_player(const est_game *game, const char *player);

/*
 * Sign the commits and tags `store` writes with `key` (borrowed: it must
 * outlive the store's use), in git's SSH format (namespace "git"), so that
 * git verify-commit and verify-tag say "Good" against keys/allowed_signers.
 */
void est_engine_sign_with(est_store *store, const est_signing_key *key);

/*
 * The JSON file `path` of `store` at `rev` (NULL: main), parsed strictly
 * (duplicate keys refused). Caller decrefs. Errors: EST_ENOTFOUND,
 * EST_EINVAL (names the file, line and column).
 */
int est_engine_read_json(json_t **out, est_store *store, const char *rev, const char *path);

/*
 * rules/ at `rev` as the ruleset interface takes it: every rules/NAME.json
 * under the key NAME. Caller decrefs. Errors: as est_engine_read_json.
 */
int est_engine_read_rules(json_t **out, est_store *store, const char *rev);

/*
 * A GM act on the open step, as the GM. `act` and its `params`
 * (an object, its fields copied into the act):
 *   "extend"   {"hours": 1..8760}: the open step's deadline moves
 *   "pause"    {}: nothing resolves until "resume"
 *   "resume"   {}: the deadline moves by the time paused
 *   "end"      {"result": "draw" | "concession" | "time limit", "winner": power}
 *   "adjust"   {"set": [{"path": JSON pointer, "value"}]}
 *   "rollback" {"to_step": N}: the state of step N again (unsealed games)
 * The last three are steps of their own (est_step_gm: committed and
 * tagged at once); the first three wait in gm/ for the step they concern.
 * `reason` is one line the players read in their reports. The act is a
 * gm/1 file signed with the GM's key (git config estafette.signingkey,
 * principal gm, namespace estafette-gm); `now` dates it.
 * *receipt_out: {"act", "step", "reason"} and, for the first three,
 * "file", "commit", "deadline".
 * Errors: EST_ECONFIG (no GM key here, or not the game's), EST_EUSAGE (the
 * act cannot be made now: no deadline to extend, paused already, not
 * paused, the game is over, a bad reason), EST_ELOCKED, EST_ETEMPFAIL.
 */
int est_game_gm_act(json_t **receipt_out, est_game *game, const char *act, const json_t *params,
		    const char *reason, time_t now);

/*
 * A GM act that changes the state (gm_step.c), applied to the whole state
 * `prev_wrapped` ({"game", "step", "state"}) as step `step`: "adjust" sets
 * each {"path", "value"} of act "set" (JSON pointers to fields the state
 * has), "rollback" takes the state of tag step-<act "to_step"> from `store`,
 * "end" keeps the state and adds "ended": {"result", "winner", "reason",
 * "text"} to the document. *wrapped_out is the new state.json document,
 * *events_out the step's events (both new). Errors: EST_EINVAL (a path the
 * state lacks, a step out of range, another act), EST_ENOTFOUND, EST_ENOMEM.
 */
int est_engine_gm_apply(json_t **wrapped_out, json_t **events_out, est_store *store,
			const json_t *prev_wrapped, const json_t *act, long long step);

/*
 * What a state awaits (ruleset.h pending()) for a whole state.json
 * document `wrapped` ({"game", "step", "state"}): the ruleset's answer,
 * unless the GM ended the game ("ended" in the document, est_engine_gm_apply):
 * then {"mode": "over", "kind": "over", "powers": [], "prompt"}. *out is
 * new. Errors: the ruleset's.
 */
int est_engine_pending(json_t **out, const est_ruleset *rs, const json_t *rules, const json_t *wrapped);

/*
 * A player's order items meant for `power` (engine/ruleset.h): an item
 * without a "power" field goes to every power the player holds that the
 * step awaits (`held`, an array of names); one with it only to the power
 * it names, with the field removed. `orders` must be an array (a non-array
 * gives an empty one, for the ruleset to refuse). *out is a new array;
 * *index_out, if wanted, a new array of each item's index in `orders`, to
 * point diagnostics at the file. Errors: EST_EINVAL naming orders[i].power
 * when it is not a string or not in `held`; EST_ENOMEM.
 */
int est_engine_orders_for(json_t **out, json_t **index_out, const json_t *orders, const char *power,
			  const json_t *held);

/*
 * The first of the files fixed when a game is made (game.json,
 * keys/allowed_signers, .gitattributes, every file of rules/) that differs
 * at `rev` (NULL: main) from tag step-0000, as a new string into
 * *changed_out ("rules/map.json"; "rules/" when files were added or
 * removed), or NULL when none does. Errors: EST_ENOTFOUND, EST_ENOMEM.
 */
int est_engine_fixed_files(char **changed_out, est_store *store, const char *rev);

/*
 * keys/allowed_signers at `rev` (NULL: main) is what estafette writes for
 * game.json's players at `rev` and the GM (keys.c): every line as
 * est_sshsig_read_entries reads it, one per player in game.json's order
 * with principal the player's id, namespaces="estafette-orders" and the key
 * game.json gives, then at most one "gm" line with
 * namespaces="estafette-gm,git"; no key twice. Anything else is a damaged
 * repository: a line pasted from a key string with a line break, or one
 * added to step 0 by hand, would let one person sign as another.
 *
 * Errors: EST_ENOTFOUND (exit 66) naming the line or the field and saying
 * the repository is damaged; EST_EINVAL (game.json not JSON), EST_ENOMEM.
 */
int est_engine_check_keys(est_store *store, const char *rev);

/*
 * The public state.json text of a sealed game's whole state `wrapped`
 * ({"game", "step", "state"}): each part rs->sealed() names replaced by its
 * commitment under `key`, the step's hidden seed (seal/seal.h). *out is a
 * new string the caller frees. Errors: EST_EINVAL (the ruleset cannot be
 * sealed, or names a part badly), EST_ENOMEM, EST_ERROR (OpenSSL).
 */
int est_engine_public_state(char **out, const est_ruleset *rs, const json_t *rules,
			    const json_t *wrapped, const unsigned char key[32]);

/*
 * The GM's dice chain secrets of game `id` under `home` ($ESTAFETTE_HOME):
 * the public chain's and the hidden chain's. Errors: EST_ECONFIG (missing,
 * unreadable, readable by others).
 */
int est_engine_secrets(unsigned char chain[32], unsigned char hidden[32], const char *home,
		       const char *id);

/*
 * Serialize JSON the one way estafette stores it: two-space indent, keys
 * sorted, a final newline, so the same value always gives the same bytes
 * (and state.json the same SHA-256). Returns a new string (caller frees)
 * or NULL on ENOMEM.
 */
char *est_json_text(const json_t *value);

/*
 * Challenges (deal.c; README "Challenges: one deal, many players"): the
 * games of one deal share both dice chain secrets and their rules/ files,
 * and game.json "deal" names the deal.
 */

/*
 * The seed of the hidden stream of step `step` of the game whose game.json
 * is `game`, from its hidden chain value `h` (r'_t): in a dealt game
 * est_dice_deal_seed (no game id, no manifest), else est_dice_step_seed
 * with EST_DICE_DOMAIN_HIDDEN, `manifest_sha` (raw SHA-256 of the step's
 * manifest.json) and the game id. *domain_out (static string) gets the
 * domain used. Errors: EST_EINVAL (game.json "deal" or "id" is not a
 * string), EST_ENOMEM.
 */
int est_engine_hidden_seed(unsigned char out[32], const char **domain_out, const json_t *game,
			   const unsigned char h[32], long long step,
			   const unsigned char manifest_sha[32]);

/*
 * The SHA-256 (hex, into out[65]) of `store`'s rules/ at `rev`: every file
 * name and its bytes, each as enc(name) || enc(bytes), in name order. Two
 * games of one deal give the same value. Errors: EST_ENOTFOUND, EST_ENOMEM.
 */
int est_engine_rules_sha256(char out[65], est_store *store, const char *rev);

#endif
