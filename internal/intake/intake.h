/*
 * Orders in (docs/protocol.md "Order files", "Reports and mail"): an order file
 * checked (format, signature, binding, turn, rules) and recorded as a
 * commit, by `submit` or from a mail message (`receive`, `fetch`), each
 * answered with a receipt; press that travels with orders.
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_INTAKE_INTAKE_H
#define EST_INTAKE_INTAKE_H

#include <jansson.h>
#include <time.h>

#include "game/game.h"
#include "mail/intake.h"
#include "util/util.h"

struct est_order;

/*
 * What the game awaits now, as est_turn_pending, with each order marked
 * "received" judged as `run` will judge it (est_intake_check_recorded,
 * keys as they are now): one it would refuse (signed by a key that gm
 * replace has revoked) is not received, and "refused" holds why. *out is
 * new. Errors: those of est_turn_pending.
 */
int est_intake_pending(json_t **out, est_game *game, time_t now);

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
int est_intake_check(struct est_order **order_out, json_t **diagnostics_out, est_game *game,
			 const char *filename, const char *bytes, size_t len,
			 const char *sig_name, const char *sig, size_t sig_len, time_t now);

/*
 * One ruleset diagnostic ({"index", "field", "rule", "message"}) as a line
 * for a person into buf: "orders[I].FIELD: MESSAGE (RULE)", or "MESSAGE
 * (RULE)" when it concerns the whole file (index -1).
 */
void est_intake_diagnostic_text(char *buf, size_t len, const json_t *diagnostic);

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
 * Errors: those of est_intake_check; EST_ELOCKED; EST_ETEMPFAIL (main
 * moved); EST_EIO.
 */
int est_intake_submit(json_t **receipt_out, json_t **diagnostics_out, est_game *game,
		    const char *filename, const char *bytes, size_t len,
		    const char *sig_name, const char *sig, size_t sig_len, time_t now);

/*
 * The most bytes a message may have to be read: git config
 * estafette.maxmessage of the game's repository (a number of bytes, or
 * with k, m or g for KiB, MiB or GiB, as git's integers), 10 MiB if unset.
 *
 * Errors: EST_ECONFIG (a value that is not a positive size).
 */
int est_intake_max_message(size_t *out, est_game *game);

/*
 * What the `report` mail command sends (gm_mail.c): a player's report of a
 * step as the run mails it. The engine makes it (engine.h
 * est_engine_report_parts), above the intake, so the command line hands
 * that function in to est_intake_receive and est_intake_fetch as `report`;
 * NULL there and `report` answers that reports are not sent by mail
 * command from here. It fills *out with new strings (est_intake_report_clear
 * frees them, also after an error) and returns 0 or a negative EST_E* code
 * with the message set.
 */
typedef struct {
	char *text;       /* the report's text */
	char *html, *svg; /* its HTML and map, or NULL where the ruleset has none */
	char *order_name; /* an awaited player's filled-in order file for the open step */
	char *order_text; /*   (orders-NNNN-<player>.json) and its text, or both NULL */
} est_intake_report;
typedef int (*est_intake_report_fn)(est_intake_report *out, est_game *game, long long step,
				    const json_t *player);
/* Free what a report holds (not `r` itself); then all NULL. */
void est_intake_report_clear(est_intake_report *r);

/*
 * Mail intake (`receive`, `fetch`): one RFC 5322 message of `size` bytes,
 * of which `bytes` holds the first `len` (all of it when len == size; a
 * caller may stop reading a message over est_intake_max_message, but must
 * give at least its header); the envelope sender in `return_path` if
 * known, else NULL; `report` makes what a `report` mail command sends
 * (above; NULL: none). Its candidate orders (at most
 * EST_INTAKE_MAX_CANDIDATES, mail/intake.h) are checked as
 * est_intake_check checks a file, the newest valid one by seq is
 * recorded (a commit), and the sender gets a receipt of a few KiB saying
 * what was found, accepted or refused and why, the order file's SHA-256 and
 * what the game awaits; then the outbox is delivered. A player's message
 * without orders is passed on to the GM (est_intake_for_gm,
 * est_intake_forward) or, its subject a mail command, answered
 * (est_intake_command). A message
 * from an address that is not a player's gets a short refusal (once per
 * address); one sent by a machine (auto-reply, bounce, list) gets nothing,
 * and a bounce of the game's mail marks its player (est_intake_take_bounce);
 * one without a From address gets nothing ("unanswerable"). A message over
 * the size limit is not parsed: its header says who sent it, and a player
 * gets one short notice with the limit and what to do ("too large"). A
 * sender's address that no notice can be sent to (RFC 5322 allows it,
 * SMTP cannot take it) is logged as "not_answered". Each outcome is logged
 * in $ESTAFETTE_HOME/games/<id>/intake.log. Handling one message twice
 * records nothing twice and answers once. Parsing is done before the
 * game's lock is taken; checking, recording and answering hold it.
 * *result_out (caller decrefs): {"status": "accepted" | "duplicate" |
 * "refused" | "forwarded" | "command" | "stranger" | "ignored" |
 * "unanswerable" | "too large", "gm"? (forwarded), "command"?, "answer"?
 * (command), "bounce"? (ignored), "reachable_again"?,
 * "from"?, "message_id"?, "subject"?, "sha256", "reason"?, "error"?,
 * "size"? (too large), "not_answered"?, "ignored"? (order files not read),
 * "candidates": [{"where", "quoted", "status", "error"?, "player"?,
 * "step"?, "seq"?}], "mail", "warnings"}.
 *
 * Errors: EST_EINVAL (not mail at all: mail/intake.h says where the line
 * runs), EST_ECONFIG (estafette.maxmessage), EST_ELOCKED, EST_ETEMPFAIL
 * (main moved), EST_EIO. Refused orders are an outcome, not an error.
 */
int est_intake_receive(json_t **result_out, est_game *game, const char *bytes, size_t len,
		     size_t size, const char *return_path, est_intake_report_fn report, time_t now);

/*
 * `fetch`: hand every unseen message of a mailbox to est_intake_receive —
 * the IMAP mailbox `imap_url` (NULL: git config estafette.imapurl; user
 * estafette.imapuser, password in $ESTAFETTE_HOME/imap-password or
 * ~/.netrc, CA file estafette.imapcafile), or the Maildir `maildir` when
 * not NULL. A message is marked seen only after its outcome is stored, so a
 * fetch killed midway loses nothing, and one handed over again is answered
 * once (est_intake_receive). *summary_out (caller decrefs, set on error too):
 * {"handled", "left", "messages": [est_intake_receive results with
 * "mailbox_id"], "warnings"}.
 *
 * A message over est_intake_max_message is not downloaded: its header is
 * (IMAP: its RFC822.SIZE is asked first; Maildir: its file size).
 *
 * Errors: EST_ECONFIG (no mailbox given or configured, login refused, TLS,
 * estafette.maxmessage),
 * EST_ETEMPFAIL (server down; the game's lock held: left for the next run),
 * EST_ENOTFOUND (not a Maildir), and those of est_intake_receive.
 */
int est_intake_fetch(json_t **summary_out, est_game *game, const char *imap_url, const char *maildir,
		   est_intake_report_fn report, time_t now);

/*
 * Press (press.c). est_intake_press_check: the order's press under game.json
 * "press".mode ("full", "public": only to all, "none") and to players of
 * the game; EST_EINVAL naming the message and the fix. est_intake_press_mail:
 * with "press".delivery "mail", queue each message of a recorded order to
 * its recipients at once (once per message and reader: `sha256` is the
 * order file's). Errors: those of est_game_notice.
 */
int est_intake_press_check(est_game *game, const struct est_order *order, const char *filename);
int est_intake_press_mail(est_game *game, const struct est_order *order, const char *sha256, time_t now);

/*
 * Check a recorded order file as `run` does before resolving: like
 * est_intake_check but without the seq check against itself.
 */
int est_intake_check_recorded(struct est_order **order_out, est_game *game, const char *filename,
			    const char *bytes, size_t len, const char *sig, size_t sig_len, time_t now);

/*
 * Commit a checked order file and its signature as orders/<player>.json
 * and .json.sig (the caller holds the lock and checked it with
 * est_intake_check). *receipt_out as est_intake_submit's.
 * Errors: EST_ETEMPFAIL (main moved), EST_EIO.
 */
int est_intake_record(json_t **receipt_out, est_game *game, const struct est_order *order,
		    const char *bytes, size_t len, const char *sig, size_t sig_len);

/*
 * The receipt of an order file recorded by `submit` (receipts.c): mailed
 * to the player whose orders they are, through the outbox (sent by the
 * next delivery), with the signed receipt attached (est_intake_receipt_sign)
 * when there is one, which is also set in `receipt` as "signed_receipt":
 * {"file": its attachment name, receipt-NNNN-<player>-<seq>.json, "text",
 * "sig"}. Errors: those of composing and queueing mail.
 */
int est_intake_receipt(est_game *game, json_t *receipt, const struct est_order *order,
				time_t now);

/*
 * The signed receipt of an accepted order file (docs/protocol.md "Signed
 * receipts"): into *doc_out the receipt/1 document's text, {"estafette":
 * "receipt/1", "game", "step", "player", "seq", "sha256": of the order
 * file (`recorded` "sha256"), "recorded": the commit that recorded it
 * (`recorded` "commit"), "at": `at` as ISO 8601 UTC}, and into *sig_out its
 * armored SSH signature by the GM's key (game->signing_key) in namespace
 * "estafette-receipt", which `ssh-keygen -Y verify -I gm -n
 * estafette-receipt` accepts. Both new strings (caller frees); both NULL
 * when the game has no GM signing key, `recorded` names no commit (a
 * receipt queued again after a killed submit) or the file is a commitment.
 * Errors: EST_ENOMEM, those of est_sshsig_sign.
 */
#define EST_RECEIPT_FORMAT "receipt/1"
#define EST_RECEIPT_NAMESPACE "estafette-receipt"
int est_intake_receipt_sign(char **doc_out, char **sig_out, est_game *game, const json_t *recorded,
			    const struct est_order *order, time_t at);

/*
 * The mail of an order file recorded already (intake.c): when `bytes` (or
 * they without their final newline) are the file recorded for their
 * player, queue its press again and, with `receipt`, its submit receipt. A
 * command killed after recording the file and before queueing its mail,
 * then run again, loses nothing: queueing is idempotent by name, so mail
 * queued or sent before is not queued twice. Does nothing (0) for any other
 * bytes. Errors: those of est_intake_press_mail and est_intake_receipt.
 */
int est_intake_requeue(est_game *game, const char *filename, const char *bytes, size_t len,
		     int receipt, time_t now);

/*
 * Add `prefix` and `text` to `t`, the text cut after at most `max` bytes at
 * a UTF-8 boundary and then marked " ..." (a receipt quotes what a message
 * held, which may be anything, and stays a few KiB).
 */
void est_intake_text_clipped(est_text *t, const char *prefix, const char *text, size_t max);

/* "Re: SUBJECT" on one line of at most 150 bytes, for an answer (receive.c). */
void est_intake_reply_subject(char *out, size_t size, const char *subject);

/*
 * How an answer names the message it answers, on one line: "<MESSAGE-ID>",
 * or "\"SUBJECT\"" when it has no Message-ID, or "without subject or
 * Message-ID" (receive.c). At most 200 bytes of either are kept.
 */
void est_intake_message_name(char *out, size_t size, const est_intake_message *m);

/*
 * The GM in the loop (gm_mail.c, docs/mail.md): players' mail without
 * orders passed on to the GM, bounces matched to players, and the mail
 * commands a player sends without the GM. Each answers one message once
 * (outbox names from the message's key, the SHA-256 est_intake_receive
 * logs as "sha256"), and each sets "status" and its own fields in `result`,
 * est_intake_receive's result of the message.
 */
/*
 * The mail command the subject of `m` is, or NULL: exactly "help",
 * "status", "report", or "report" and one word (the step), compared
 * without case, blanks around trimmed. A reply ("Re: status") is none:
 * it answers something, it does not ask. Borrowed from a static table.
 */
const char *est_intake_command_of(const est_intake_message *m);

/*
 * 1 when a player's message `m` is for the GM: it holds no order file
 * (none found, none left unread, its body read) and is no command, and
 * nothing in it looks like orders gone wrong (a signature block, an
 * "orders/1" object, a .json or .sig attachment), which the player must
 * hear about in a receipt instead. Else 0.
 */
int est_intake_for_gm(const est_intake_message *m);

/*
 * A player's message that holds no orders and is no command ("away next
 * week", a rules question): passed on to the GM (est_game_gm_notice,
 * outbox name "forward-KEY"), with its From, Date, Subject and text quoted,
 * and the original attached as original.eml when its text alone would not
 * show all of it (attachments, no text) and it is at most 256 KiB. At most
 * EST_INTAKE_FORWARDS_PER_HOUR a player in any hour ("PLAYER/forward" in
 * commands.json): past that, "gm": "limited", nothing sent, no receipt, so
 * forged mail cannot flood the GM. Reply-To is the player's
 * registered address `to`, so the GM's answer goes to the player. The
 * player gets a short receipt (outbox "receipt-KEY") saying it was passed
 * on, not refused. `bytes` (`len`) is the message as received (bounded by
 * estafette.maxmessage). Sets "status": "forwarded", "gm": "mailed" |
 * "kept" (no GM address: in gm-notices/). Errors: those of est_game_notice.
 */
int est_intake_forward(json_t *result, est_game *game, const est_intake_message *m,
		       const char *key, const json_t *player, const char *to, const char *bytes,
		       size_t len, time_t now);

/*
 * A bounce (m->bounce, `key` the message's): matched to a player only by a returned Message-ID
 * that is one of the game's sent messages (est_mail_outbox_find) whose
 * envelope went to a player's registered address, narrowed by the failed
 * recipients when the bounce names any; a bounce naming a player but
 * quoting none of our messages to them (forged, or of another sender's
 * mail) marks nobody. A matched player is recorded unreachable
 * (est_game_unreachable_mark); the GM gets one notice per player and
 * episode ("bounce-PLAYER-KEY", KEY the first bounce's). Never answered. Sets
 * "bounce": {"status", "diagnostic", "standard", "matched": [players],
 * "unmatched"?: why}. A bounce whose player cannot be recorded (the
 * record or the notice cannot be written) is a warning in game->warnings:
 * a bounce is never retried. Errors: EST_ENOMEM.
 */
int est_intake_take_bounce(json_t *result, est_game *game, const est_intake_message *m, const char *key,
			   time_t now);

/*
 * Answer the mail command of `m` (est_intake_command_of) from `player`,
 * to their registered address `to` (outbox "receipt-KEY", once per
 * message): "help" (how to send orders, the commands), "status" (the open
 * step, whom it awaits, the deadline), "report [N]" (the player's own
 * report of the latest step or of step N, text with the HTML and the map
 * attached, made by `report` (NULL: none sent); N must be a resolved
 * step). At most EST_INTAKE_COMMANDS_PER_HOUR answers per player and
 * command in any hour (commands.json beside the intake log, "PLAYER/help"):
 * a forger who uses up one command cannot silence another; the rest are logged, not
 * answered. Sets "status": "command", "command", "answer": "queued" |
 * "duplicate" | "limited". Errors: those of est_game_notice; EST_EIO.
 */
#define EST_INTAKE_COMMANDS_PER_HOUR 10
#define EST_INTAKE_FORWARDS_PER_HOUR 10
int est_intake_command(json_t *result, est_game *game, const est_intake_message *m,
		       const char *key, const json_t *player, const char *to, est_intake_report_fn report,
		       time_t now);

/*
 * Mail came from the address of player `player` (an id): they read their mail, so a
 * bounce episode ends (est_game_unreachable_clear); sets "reachable_again":
 * true in `result` when one did. A record that cannot be read or written
 * is a warning in game->warnings, not an error: the player's message is
 * dealt with all the same. Errors: EST_ENOMEM.
 */
int est_intake_heard_from(json_t *result, est_game *game, const char *player);



/*
 * What was recorded, in the player's words, for a receipt: the file (its
 * step, seq and SHA-256, `recorded` "sha256"; where in a message it was
 * found, `where`, or NULL), the seq it replaces
 * (`recorded` "replaces", when there is one), its orders and its press,
 * and with `signed_doc` 1 how to check the signed receipt attached. A
 * commitment and a join file each get their own words.
 */
void est_intake_text_recorded(est_text *t, est_game *game, const json_t *recorded,
			      const struct est_order *order, const char *where, int signed_doc);

/* The two attachments of a signed receipt (est_intake_receipt_sign): names and parts. */
typedef struct {
	char file[160];     /* receipt-NNNN-<player>-<seq>.json */
	char sig_file[170]; /* the same with .sig */
	est_mail_attachment att[2];
	size_t count;       /* 2, or 0 when there is no signed receipt */
} est_intake_receipt_attachments;

/* Fill `a` for `order`'s receipt: `doc` and `sig` are borrowed and may be NULL (then no attachment). */
void est_intake_receipt_files(est_intake_receipt_attachments *a, const struct est_order *order,
			      const char *doc, const char *sig);

/* What the game awaits now, and by when: one paragraph. */
void est_intake_text_awaiting(est_text *t, est_game *game, time_t now);

#endif
