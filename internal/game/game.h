/*
 * A game (docs/protocol.md "The repository"): one repository opened at
 * refs/heads/main with its game.json, ruleset, rules/, state and keys;
 * read at any revision, locked, committed to. Its players and their keys,
 * the GM's acts as files, the dice secrets under $ESTAFETTE_HOME, the
 * sealed store of a sealed game and the game's outbox are here too: all
 * that a step, an order or an audit reads of a game, and nothing of what
 * a step awaits (turn/), of orders coming in (intake/) or of resolving a
 * step (step/).
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_GAME_GAME_H
#define EST_GAME_GAME_H

#include <jansson.h>
#include <stdint.h>
#include <time.h>

#include "rulesets/ruleset.h"
#include "mail/mail.h"
#include "store/store.h"

struct est_order;

#define EST_VERSION "0.1.0"
#define EST_ORDERS_NAMESPACE "estafette-orders"
#define EST_ORDER_MAX_BYTES 65536

/* An OpenSSH private key in memory, to sign with (est_game_sign_with). */
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
	int loaded;        /* 1 once est_game_reload read everything at `head` */
	json_t *open_step; /* what the open step awaits, as turn/ worked it out at `head`
	                      (turn.h est_turn_open); NULL until asked; dropped on reload */
	char *msgid_domain; /* the right of the Message-IDs this process makes
	                       (est_game_message_id); NULL until the first */
	int sender_warned;  /* est_game_sender warned that estafette.sender is unset */
} est_game;

/* Registered rulesets, by name ("napoleonic-empire"); NULL if unknown. */
const est_ruleset *est_game_ruleset(const char *name);

/* The names of all registered rulesets, NULL-terminated, static. */
const char *const *est_game_ruleset_names(void);

/*
 * The folder that holds templates/ and rulesets/NAME/data: $ESTAFETTE_DATA,
 * else the source tree the binary was built in (for `make demo` and tests),
 * else the installed share folder. Returns a new string (caller frees) or
 * NULL with EST_ECONFIG set.
 */
char *est_game_datadir(const char *subdir);

/*
 * Open the game at `path`, reading game.json, rules/, state.json and
 * keys/allowed_signers at refs/heads/main. Caller frees with est_game_free.
 * Errors: EST_ENOTFOUND (no repository or not a game), EST_EINVAL (a file
 * does not parse), EST_ECONFIG (unknown ruleset).
 */
int est_game_open(est_game **out, const char *path);

/*
 * The game at `path` as it stood at commit `rev` ("step-0007^": what step
 * 7 was resolved from), read-only: everything that reads main reads that
 * commit (est_store_pin), the secrets and sealed store under
 * $ESTAFETTE_HOME as est_game_open finds them. Commits are refused.
 * Errors: those of est_game_open and est_store_pin.
 */
int est_game_open_at(est_game **out, const char *path, const char *rev);

/* Move a game opened with est_game_open_at to commit `rev`. Errors: as est_game_open_at. */
int est_game_pin(est_game *game, const char *rev);
void est_game_free(est_game *game);

/*
 * Re-read everything at the current refs/heads/main (after a commit, or
 * once the lock is held). Nothing is read again while main names the
 * commit read last, except in a sealed game, whose store moves on its own.
 * A reader without the lock reads main's files one revision at a time, so a
 * load that failed while main moved (another process committed) is read
 * again, up to three tries in all. Errors: those of est_game_open.
 */
int est_game_reload(est_game *game);

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
void est_game_sign_with(est_store *store, const est_signing_key *key);

/*
 * rules/ at `rev` as the ruleset interface takes it: every rules/NAME.json
 * under the key NAME. Caller decrefs. Errors: as est_store_read_json.
 */
int est_game_read_rules(json_t **out, est_store *store, const char *rev);

/*
 * The first of the files fixed when a game is made (game.json,
 * keys/allowed_signers, .gitattributes, every file of rules/) that differs
 * at `rev` (NULL: main) from tag step-0000, as a new string into
 * *changed_out ("rules/map.json"; "rules/" when files were added or
 * removed), or NULL when none does. Errors: EST_ENOTFOUND, EST_ENOMEM.
 */
int est_game_fixed_files(char **changed_out, est_store *store, const char *rev);

/*
 * keys/allowed_signers at `rev` (NULL: main) is what estafette writes for
 * game.json's players at `rev` and the GM (keys.c): every line as
 * est_sshsig_read_entries reads it, one per player in game.json's order
 * with principal the player's id, namespaces="estafette-orders" and the key
 * game.json gives, then at most one "gm" line with
 * namespaces="estafette-gm,estafette-receipt,git" (games made before signed
 * receipts: "estafette-gm,git"); no key twice. Anything else is a damaged
 * repository: a line pasted from a key string with a line break, or one
 * added to step 0 by hand, would let one person sign as another.
 *
 * Errors: EST_ENOTFOUND (exit 66) naming the line or the field and saying
 * the repository is damaged; EST_EINVAL (game.json not JSON), EST_ENOMEM.
 */
int est_game_check_keys(est_store *store, const char *rev);

/*
 * The public state.json text of a sealed game's whole state `wrapped`
 * ({"game", "step", "state"}): each part rs->sealed() names replaced by its
 * commitment under `key`, the step's hidden seed (seal/seal.h). *out is a
 * new string the caller frees. Errors: EST_EINVAL (the ruleset cannot be
 * sealed, or names a part badly), EST_ENOMEM, EST_ERROR (OpenSSL).
 */
int est_sealed_public_state(char **out, const est_ruleset *rs, const json_t *rules,
			    const json_t *wrapped, const unsigned char key[32]);

/*
 * The GM's dice chain secrets of game `id` under `home` ($ESTAFETTE_HOME):
 * the public chain's and the hidden chain's. Errors: EST_ECONFIG (missing,
 * unreadable, readable by others).
 */
int est_game_secrets(unsigned char chain[32], unsigned char hidden[32], const char *home,
		       const char *id);

/*
 * The SHA-256 (hex, into out[65]) of `store`'s rules/ at `rev`: every file
 * name and its bytes, each as enc(name) || enc(bytes), in name order. Two
 * games of one deal give the same value. Errors: EST_ENOTFOUND, EST_ENOMEM.
 */
int est_game_rules_sha256(char out[65], est_store *store, const char *rev);

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

/* Where game `id`'s secrets live under `home`: a new string, NULL out of memory. */
char *est_secrets_path(const char *home, const char *id);

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
 * The From of the game's mail to players: git config estafette.sender (the
 * orders address), else EST_DEFAULT_SENDER, and then a warning in
 * game->warnings, once per game opened: players would answer an address
 * that reaches nobody. New (caller frees); NULL on ENOMEM.
 */
char *est_game_sender(est_game *game);

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
 * est_game_reload: the latest step's tag when a step killed
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
 * Read the GM act at `path` of `store` at `rev` (NULL: main) and its
 * `path`.sig: a gm/1 file with a good signature of principal gm (namespace
 * estafette-gm) in `signers` (an allowed_signers text). *act_out is its
 * document (new), sha_out (if not NULL) the SHA-256 of its bytes.
 * Errors: EST_ENOTFOUND, EST_EINVAL (not a gm/1 file), EST_ESIG, EST_ENOMEM.
 */
int est_gm_act_read(json_t **act_out, char sha_out[65], est_store *store, const char *rev,
		    const char *path, const char *signers);

/*
 * Players and keys (players.c, keys.c, replace.c). est_game_check_players: every
 * rule `new` applies to a players list (fields, ids, distinct keys, none
 * the GM's `gm_key`, which may be NULL); EST_EINVAL naming `file` and the
 * player; keys are read with est_sshsig_canonical_key, and no key holds
 * two seats. est_game_allowed_signers (keys.c): keys/allowed_signers for
 * `players` and the GM's public key line (NULL: none) into *out, one
 * est_sshsig_allowed_line per key, no comments; caller frees; EST_EINVAL
 * naming players[i].key or the GM's key, EST_ENOMEM. est_game_gm_key: the
 * canonical key of principal gm in an allowed_signers text estafette wrote
 * (caller frees), or NULL. est_game_same_keys: 1 if two allowed_signers
 * texts estafette wrote give the same principals, namespaces and keys in
 * the same order (comments aside), else 0. est_replace_apply: a replace act's seat, name, email and key
 * into game.json's players; EST_EINVAL for an unknown seat.
 * est_replace_expected: game.json and keys/allowed_signers as they must be
 * at `rev` when keys/replacements.json lists replace acts (step 0's, with
 * each act applied after checking its SHA-256 and the GM's signature);
 * both NULL when it lists none. Errors: EST_EINVAL, EST_ESIG,
 * EST_ENOTFOUND, EST_ENOMEM.
 */
int est_game_check_players(const json_t *players, const char *gm_key, const char *file,
			     const est_ruleset *rs);
int est_game_allowed_signers(char **out, const json_t *players, const char *gm_key);
char *est_game_gm_key(const char *allowed_signers);
int est_game_same_keys(const char *a, size_t a_len, const char *b, size_t b_len);
int est_replace_apply(json_t *game_doc, const json_t *act);
int est_replace_expected(char **game_out, char **keys_out, est_store *store, const char *rev);

/*
 * The dice protocol game.json names (dice.algorithm): 1 for
 * "estafette/dice/v1" (or no algorithm named), 2 for "estafette/dice/v2",
 * 0 for anything else.
 */
int est_game_dice_version(const json_t *game_json);

/* Add a printf-style warning to game->warnings. */
void est_game_warn(est_game *game, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "orders: <player> for step N (seq S)" and its trailer: the message of an order's commit. */
char *est_game_order_message(const struct est_order *order);

/*
 * A new Message-ID for the game's outbox message `name`, unique in the
 * world (mail.h est_mail_message_id): <RANDOM.GAME.NAME@DOMAIN>, DOMAIN
 * being git config estafette.messageiddomain when set, else this host's
 * name (est_mail_host_domain, looked up once per game opened). In *out
 * (caller frees). Errors: EST_ECONFIG (estafette.messageiddomain is not a
 * domain name); EST_ERROR (no random bytes); EST_ENOMEM.
 */
int est_game_message_id(char **out, est_game *game, const char *name);

/*
 * Queue a plain-text notice (a receipt, a reminder) to `to` (an address) in
 * the game's outbox under `name` ([A-Za-z0-9._-]; its Message-ID is a new
 * one of est_game_message_id). A name already queued or sent is left alone,
 * so a notice goes out once, under the id it was queued with. `in_reply_to` ("<id>" or NULL) threads it with the
 * message it answers; `att` (`att_count` of them, or NULL and 0) are
 * attached as they are (a signed receipt). Errors: EST_EINVAL (address),
 * EST_EIO, EST_ENOMEM.
 */
int est_game_notice(est_game *game, const char *name, const char *to, const char *subject,
		    const char *text, const char *in_reply_to, time_t date, const est_mail_attachment *att,
		    size_t att_count);

/* est_game_notice with a Reply-To (`reply_to`, a mailbox, or NULL for none). */
int est_game_notice_reply(est_game *game, const char *name, const char *to, const char *reply_to,
			  const char *subject, const char *text, const char *in_reply_to, time_t date,
			  const est_mail_attachment *att, size_t att_count);

/*
 * The GM's own address (docs/mail.md "Two addresses"): git config
 * estafette.gmaddress ("GM <gm@example.org>" or a bare address), as a bare
 * address in *out (caller frees), or NULL when it is not set. It is where
 * notices go (guards, bounces, players' mail without orders), never the
 * game's orders address (estafette.sender), whose mailbox `fetch` empties:
 * a notice sent there would be read as a player's mail and lost.
 * Errors: EST_ECONFIG (not an address; the orders address itself), EST_ENOMEM.
 */
int est_game_gm_address(char **out, est_game *game);

/*
 * A notice for the GM (gm_notice.c): queued as est_game_notice_reply to
 * est_game_gm_address under `name` (once per name). When the GM has no
 * address (unset, or est_game_gm_address refuses it) it is kept instead,
 * never sent: written once to $ESTAFETTE_HOME/games/<id>/gm-notices/
 * <name>.txt (the subject, Reply-To and text; each attachment beside it as
 * <name>.<n>.<filename>), with a warning in game->warnings naming the file
 * and how to set the address. *held_out (may be NULL) is 1 when it was
 * kept, else 0. Errors: those of est_game_notice; EST_EIO (cannot write
 * the kept notice).
 */
int est_game_gm_notice(int *held_out, est_game *game, const char *name, const char *subject,
		       const char *text, const char *reply_to, const char *in_reply_to, time_t date,
		       const est_mail_attachment *att, size_t att_count);

/*
 * Players whose mail bounces (unreachable.c, docs/mail.md "Bounces"):
 * $ESTAFETTE_HOME/games/<id>/unreachable.json, {"PLAYER": {"since": ISO
 * 8601 UTC of the first bounce, "last": of the latest, "status": "5.1.1",
 * "diagnostic": the server's words or "", "message_id": of our message
 * that bounced, "bounces": how many}}.
 *
 * est_game_unreachable: that object (caller decrefs), {} when there is
 * none. Errors: EST_EINVAL (the file does not parse), EST_EIO, EST_ENOMEM.
 *
 * est_game_unreachable_mark: record a bounce of our message `message_id`
 * to `player`; *first_out is 1 when the player was not unreachable before
 * (a new episode: tell the GM), 0 when only the count and "last" moved.
 * Errors: those of est_game_unreachable; EST_EIO.
 *
 * est_game_unreachable_clear: the player can be reached again (mail came
 * from their address); *cleared_out is 1 when they were unreachable.
 * Errors: those of est_game_unreachable; EST_EIO.
 */
int est_game_unreachable(json_t **out, est_game *game);
int est_game_unreachable_mark(int *first_out, est_game *game, const char *player, const char *status,
			      const char *diagnostic, const char *message_id, time_t now);
int est_game_unreachable_clear(int *cleared_out, est_game *game, const char *player);

/*
 * A password from $ESTAFETTE_HOME/NAME ("smtp-password", "imap-password"),
 * first line, in *out (caller frees), or NULL when there is no such file
 * (then ~/.netrc, or no login). Errors: EST_ECONFIG if others may read the
 * file; EST_EIO.
 */
int est_game_password(char **out, est_game *game, const char *name);

/*
 * Send what waits in the game's outbox over SMTP (git config
 * estafette.smtpurl, estafette.smtpuser; password from ~/.netrc or
 * $ESTAFETTE_HOME/smtp-password). *mail_out (caller decrefs):
 * {"sent": n, "pending": n, "outbox": folder, "configured": bool}.
 * Errors: EST_ETEMPFAIL (server unreachable or refusing: mail stays queued).
 */
int est_game_deliver(json_t **mail_out, est_game *game);

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

#endif
