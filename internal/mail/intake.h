/*
 * Mail intake (docs/mail.md: `receive`, `fetch`): turn one
 * RFC 5322 message into the candidate order files it carries.
 *
 * Players mail their orders from whatever client they have: attached as
 * orders.json + orders.json.sig, pasted into a plain-text or HTML body,
 * quoted-printable, base64, in ISO-8859-1, wrapped, flowed, quoted in a
 * reply or forwarded, under any file name. The intake finds every order
 * object, the readings of it the player may have signed (the bytes as they
 * came first), and the armored SSH signatures that may go with it: it never
 * verifies anything, and it never hands out bytes as the only reading when
 * they were changed. The caller (the engine) verifies each candidate's
 * readings against its signatures and keeps the newest valid one by seq.
 *
 * All MIME work (structure, transfer encodings, charsets, header decoding)
 * is GMime's. GMime is initialised on the first call of est_intake_parse,
 * once per process, behind a GLib once-flag (g_once_init_enter), so the
 * caller need not and should not call g_mime_init() itself; the intake
 * never calls g_mime_shutdown(), whose state is freed at exit.
 */
#ifndef EST_MAIL_INTAKE_H
#define EST_MAIL_INTAKE_H

#include <stddef.h>

/*
 * At most this many candidates are taken from one message (and as many
 * more from its quoted text while it is parsed); the order files found
 * beyond them are only counted, in `ignored`. A player sends one order
 * file, a reply quotes a few: a message with hundreds is not a player's,
 * and checking each would cost the game its lock for as long.
 */
#define EST_INTAKE_MAX_CANDIDATES 32

/*
 * At most this many readings of one order file (below), and this many
 * signatures tried with it.
 */
#define EST_INTAKE_MAX_READINGS 6
#define EST_INTAKE_MAX_SIGS 4

/* `len` bytes, plus a NUL that is not counted. */
typedef struct {
	char *bytes;
	size_t len;
} est_intake_bytes;

typedef struct {
	/*
	 * What the player may have signed, most likely first; at least one.
	 * The caller verifies each against each signature, in order, and
	 * keeps the first pair that verifies: so what it records is the
	 * bytes that were signed, never bytes the intake made up.
	 *
	 * An attached file's first reading is its bytes exactly as they came
	 * (the transfer encoding undone, nothing else: a BOM, CRLF line ends
	 * or a missing final newline stay). Only text a mail client or a mail
	 * server is known to rewrite has other readings: an attachment sent
	 * as text (not base64), whose line ends travel as the server likes,
	 * and its bytes in UTF-8 when it declares another charset; an order
	 * pasted into a body, whose readings are its text with LF line ends,
	 * trailing blanks of each line removed, and one final newline, then
	 * without that newline, then both with CRLF line ends.
	 */
	est_intake_bytes readings[EST_INTAKE_MAX_READINGS];
	size_t reading_count;
	/*
	 * The armored signatures that may go with it, most likely first,
	 * each canonical: the "-----BEGIN SSH SIGNATURE-----" line, the base64
	 * body with every other character removed, wrapped at 70 columns, the
	 * END line, LF line ends and a final newline (what ssh-keygen -Y sign
	 * writes). First the one that follows the order in its own text, or
	 * the attachment named after it (FILE.sig); then every other one of
	 * the same message level (attached under any name, or pasted), so
	 * that orders pasted and a signature attached, or files renamed to
	 * get past a filter (orders.txt, signature.txt), pair by what they
	 * are. `sig_count` 0: none found.
	 */
	est_intake_bytes sigs[EST_INTAKE_MAX_SIGS];
	size_t sig_count;
	/*
	 * Where it was found, for the receipt: "attachment orders.json",
	 * "body", "body (HTML)", "quoted text (level 2)", "forwarded text in
	 * body", or any of these after "forwarded message: " when it came
	 * from an attached message/rfc822.
	 */
	char *where;
	/* 1 if it came from quoted or forwarded text, else 0. */
	int quoted;
	/*
	 * 1 if the sender's client wrapped its long lines (a line break inside
	 * a JSON string, which no JSON file holds): the readings then join
	 * each such break with one space, as the wrap replaced one. If none of
	 * them verifies, the player is told to attach the files instead.
	 */
	int wrapped;
} est_intake_candidate;

/* What a bounce lists: at most this many returned Message-IDs and failed recipients. */
#define EST_INTAKE_BOUNCE_MAX 8
/* The text of a message kept for a person (est_intake_message.text): at most this many bytes. */
#define EST_INTAKE_TEXT_MAX (64 * 1024)

/*
 * A report that mail could not be delivered (a bounce): an RFC 3464
 * delivery status notification (multipart/report; report-type=
 * delivery-status) with at least one recipient whose Action is "failed",
 * or one of the common non-standard shapes (qmail's "Hi. This is the
 * qmail-send program", Exim's "Mail delivery failed: returning message to
 * sender", Postfix's and Sendmail's plain "Undelivered Mail Returned to
 * Sender" and "Returned mail") sent by a machine. A report that delivery
 * is only delayed (Action "delayed", "Warning: message ... delayed") or
 * succeeded is not one. Nothing in it is verified: the caller matches the
 * returned Message-IDs against the mail it sent.
 */
typedef struct {
	/* The Message-IDs (without angle brackets) of the returned message or headers. */
	char *ids[EST_INTAKE_BOUNCE_MAX];
	size_t id_count;
	/* The recipients that failed, addr-spec only: Final-Recipient, or what a plain bounce names. */
	char *recipients[EST_INTAKE_BOUNCE_MAX];
	size_t recipient_count;
	/* The first failed recipient's status ("5.1.1"), "5.0.0" when a plain bounce gives none. */
	char *status;
	/* Its Diagnostic-Code or the plain bounce's reason: one line, at most 300 bytes; NULL if none. */
	char *diagnostic;
	int standard; /* 1 for an RFC 3464 report, 0 for a plain one */
} est_intake_bounce;

typedef struct {
	/*
	 * The first From address, addr-spec only ("a@b.org"), in the form
	 * players' records hold: a quoted local part keeps its quotes only
	 * if it needs them ("john smith"@example.org). Comments, display
	 * names (encoded words too), groups and the obsolete forms of RFC
	 * 5322 4.4 (routes, CFWS around dots, empty list elements) are
	 * GMime's to read. NULL when the message names no address a reply
	 * could go to (no From, an empty group, a From that does not
	 * parse): it is mail all the same, only there is nobody to answer.
	 */
	char *from;
	char *reply_to;   /* Reply-To's first address if present, else `from` (NULL with it) */
	char *message_id; /* without angle brackets; NULL if the message has none */
	char *subject;    /* decoded to UTF-8; NULL if the message has none */
	char *date;       /* the Date field as written (unfolded); NULL if the message has none */
	/*
	 * The message's text for a person, UTF-8 with LF line ends: its first
	 * text/plain part (else its first HTML part, made text), at most
	 * EST_INTAKE_TEXT_MAX bytes cut at a character; NULL when it has none,
	 * when its body was not read (`unread`), and when it holds order files
	 * (`count` or `ignored`): it is what the GM is shown of a player's
	 * message that holds no orders, and not read for any other.
	 */
	char *text;
	/* The names of its attachments, ", "-joined, at most 1 KiB; NULL when none (and as `text`). */
	char *attachments;
	/* A delivery failure report (est_intake_bounce), or NULL when the message is none. */
	est_intake_bounce *bounce;
	/*
	 * 1 if the message was sent by a machine and must never be answered
	 * (auto-replies, bounces, mailing lists), else 0. `automated_why`
	 * then says why in words, every reason found joined by "; ", e.g.
	 * "Auto-Submitted is \"auto-replied\""; NULL when automated is 0.
	 */
	int automated;
	char *automated_why;
	/*
	 * `count` candidates: those from the top level of the message first
	 * (attachments, then the body, in order), then those from quoted or
	 * forwarded text. Identical (order, sig) pairs appear once, at their
	 * first place. NULL when count is 0.
	 */
	est_intake_candidate *candidates;
	size_t count;
	/* Order files found beyond the EST_INTAKE_MAX_CANDIDATES taken: not read. */
	size_t ignored;
	/*
	 * Why the body was not read at all, in words for the sender (a MIME
	 * structure of more multipart boundaries than the intake reads, whose
	 * parsing would cost their number times the message's lines); NULL
	 * when it was read. Headers, `automated` and `from` are read still.
	 */
	char *unread;
	/*
	 * Why the message looks cut off in transit, in words for the sender
	 * (its multipart has no closing boundary; an order file or a
	 * signature begins and never ends); NULL when it looks whole. Its
	 * candidates are listed all the same.
	 */
	char *truncated;
} est_intake_message;

/*
 * Parse the `len` bytes of one RFC 5322 message (LF or CRLF line ends; a
 * leading mbox "From " line is tolerated) and find its candidate orders.
 *
 * `return_path` is the envelope sender if the caller knows it (procmail's
 * and .forward's "$SENDER", with or without angle brackets; "" or "<>" for
 * a bounce), or NULL to take it from the message's Return-Path header. An
 * empty return path marks the message automated.
 *
 * Automated (never reply): Auto-Submitted other than "no"; Precedence bulk,
 * junk or list; List-Id or List-Unsubscribe present; an empty return path;
 * From MAILER-DAEMON or postmaster; a multipart/report (delivery reports);
 * X-Autoreply or X-Autorespond present. Candidates are still listed.
 *
 * A message without any order gives 0 and a message with count 0.
 * Its text, attachments' names and, for a bounce, what it reports are
 * read too (`text`, `attachments`, `bounce`).
 * On success *out is the caller's, to free with est_intake_free.
 *
 * Where mail ends: `bytes` is mail when, after an optional mbox "From "
 * line, it starts with a header section GMime reads at least one field
 * from ("Name: value" lines, up to the first empty line). Everything
 * else about it may be wrong (no From, a From that does not parse, a
 * broken MIME structure, bad encodings, charsets or base64): it is still
 * mail, parsed as far as it goes, and the caller deals with it. What is
 * not mail is the empty input and bytes that do not start with a header
 * field (binary junk, a bare order file, a text without headers).
 *
 * The cost is linear in `len`: order objects are found from their
 * "estafette": "orders/1" member, signatures by one forward search per
 * text part, quote levels are capped, and at most
 * EST_INTAKE_MAX_CANDIDATES order files are copied out. The caller bounds
 * `len` (the engine's git config estafette.maxmessage).
 *
 * Errors: EST_EINVAL if `bytes` is not mail (above; the message says
 * which); EST_ENOMEM.
 */
int est_intake_parse(est_intake_message **out, const char *bytes, size_t len,
		     const char *return_path);

/* Free what est_intake_parse returned; NULL is allowed. */
void est_intake_free(est_intake_message *m);

#endif
