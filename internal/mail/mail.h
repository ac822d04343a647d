/*
 * Report mail (docs/mail.md): composing an RFC 5322
 * message, the outbox under $ESTAFETTE_HOME, and SMTP delivery with libcurl.
 *
 * The flow of a run: compose each player's report with est_mail_compose,
 * queue it with est_mail_outbox_put (idempotent, so a second run never
 * queues a report twice), then est_mail_outbox_deliver sends whatever is
 * pending over one SMTP connection. A message is moved to sent/ only after
 * the server accepted it, so a failed send waits for the next run.
 *
 * Outbox layout, `home` being the $ESTAFETTE_HOME folder (est_home_dir):
 *
 *     home/outbox/<game>/pending/<name>.eml    the message, CRLF line ends
 *     home/outbox/<game>/pending/<name>.json   its envelope:
 *                                              {"from": "addr", "to": ["addr", ...]}
 *     home/outbox/<game>/sent/<name>.eml, .json  after the server accepted it
 *
 * Files are mode 0600 and folders 0700; every file is written atomically
 * (est_file_write_atomic), the .json after the .eml, so a pending message is
 * complete only when both exist. Callers hold the game's lock (store module)
 * while they put or deliver: the outbox itself takes no lock.
 */
#ifndef EST_MAIL_MAIL_H
#define EST_MAIL_MAIL_H

#include <stddef.h>
#include <time.h>

typedef struct {
	const char *filename;     /* UTF-8, e.g. "map.svg"; required */
	const char *content_type; /* e.g. "image/svg+xml"; NULL: application/octet-stream */
	const void *data;         /* `len` bytes, any content */
	size_t len;
	/*
	 * For an inline image (est_mail_message inline_images): its
	 * Content-ID with the angle brackets, "<map.ne-001.0007@estafette>",
	 * which the HTML names as <img src="cid:map.ne-001.0007@estafette">.
	 * NULL for an attachment.
	 */
	const char *content_id;
} est_mail_attachment;

typedef struct {
	const char *from;       /* RFC 5322 mailbox: `France player <france@example.org>` */
	const char *to;         /* one mailbox, or several separated by commas */
	const char *subject;    /* UTF-8; NULL or "" for none */
	/* `<3f0c...e1.ne-001.0007-france@gm.example.org>` (est_mail_message_id), angle brackets included */
	const char *message_id;
	time_t date;            /* seconds since the epoch; written in UTC (+0000) */
	const char *text;       /* UTF-8 plain text, LF or CRLF line ends; required */
	const char *html;       /* UTF-8 HTML, or NULL for a text-only message */
	/*
	 * The Message-ID this one answers ("<id@host>"), written as In-Reply-To
	 * and References so the answer threads with it; NULL for none. One that
	 * is not of the form <left@right> is left out rather than refused: it
	 * comes from someone else's mail.
	 */
	const char *in_reply_to;
	/*
	 * Where answers should go when not to `from` (one mailbox, as `to`
	 * takes it), written as Reply-To; NULL for none. A player's message
	 * passed on to the GM names the player, so that the GM's answer goes
	 * to the player and not to the game's orders address.
	 */
	const char *reply_to;
	const est_mail_attachment *attachments;
	size_t attachment_count;
	/*
	 * Images the HTML shows by "cid:" (RFC 2392), each with a content_id:
	 * they go with the HTML in a multipart/related (RFC 2387). Only with
	 * html.
	 */
	const est_mail_attachment *inline_images;
	size_t inline_count;
} est_mail_message;

/*
 * Compose `msg` into a complete RFC 5322 message with CRLF line ends, into a
 * new buffer *eml_out of *eml_len bytes (NUL-terminated too; caller frees
 * with free()).
 *
 * Headers: Date (from msg->date, "+0000"), From, To, Reply-To (when
 * given), Subject (RFC 2047
 * encoded-words when it holds anything but printable ASCII), Message-ID,
 * MIME-Version, Auto-Submitted: auto-generated. Display names that are not
 * ASCII become encoded-words, ASCII ones with specials are quoted. Header
 * lines are folded near 78 columns and never exceed 998 octets.
 *
 * Body: a single text/plain part; multipart/alternative (text/plain, then
 * text/html) when there is html; the text/html inside a
 * multipart/related; type="text/html" followed by the inline images (each
 * with its Content-ID and Content-Disposition: inline) when there are
 * inline images; inside multipart/mixed followed by the attachments when
 * there are attachments. Text parts are UTF-8 and
 * quoted-printable (lines of at most 76 characters); attachments are base64
 * in 76-column lines with Content-Disposition: attachment; filename="..."
 * (RFC 2231 filename*= for non-ASCII names).
 *
 * The multipart boundaries are derived from the message id, so composing the
 * same message twice gives the same bytes; each is checked not to occur in
 * any part (and changed deterministically if it does).
 *
 * Errors: EST_EINVAL (from, to, message_id or text missing; CR or LF in a
 * header value; inline images without html, or one whose content_id is
 * not of the form <left@right>; an address that is not a plain ASCII addr-spec; a message id
 * not of the form <left@right>; a subject, display name, text or html that
 * is not UTF-8; a header that cannot be folded within 998 octets);
 * EST_ENOMEM.
 */
int est_mail_compose(char **eml_out, size_t *eml_len, const est_mail_message *msg);

/*
 * A new Message-ID for message `name` of `game`, unique in the world
 * (docs/mail.md "Message-IDs"): "<RANDOM.GAME.NAME@DOMAIN>", RANDOM being
 * 32 lower-case hex digits of OpenSSL's RAND_bytes, into *out with the
 * angle brackets (caller frees). A character of `game` or `name` outside
 * [A-Za-z0-9._-], and a "." that would start, end or double a dot-atom,
 * becomes "-" (RFC 5322 3.6.4 id-left). Make it once, when the message is
 * queued: the outbox keeps it for every later attempt to send.
 *
 * Errors: EST_EINVAL (`domain` not a domain name, est_mail_check_domain;
 * game or name missing or empty); EST_ERROR (no random bytes); EST_ENOMEM.
 */
int est_mail_message_id(char **out, const char *domain, const char *game, const char *name);

/*
 * This host's name for the right of Message-IDs, into *out (caller
 * frees): gethostname(2); a name without a dot is completed with the
 * resolver's canonical name (getaddrinfo AI_CANONNAME; /etc/hosts on most
 * hosts) when that has a dot. What comes back is made a valid domain name
 * (lower case, characters outside [a-z0-9-.] as "-"); when nothing valid is
 * left, "localhost.invalid". Worked out once a process (the first call
 * may wait on the resolver, as gethostbyname does), then copied. Errors:
 * EST_ENOMEM (*out NULL).
 */
int est_mail_host_domain(char **out);

/*
 * Check that `domain` is a domain name: labels of letters, digits and inner
 * "-", 1 to 63 characters, joined by single dots, at most 253 in all (what
 * the right of a Message-ID takes). `what` starts the message, e.g. "git
 * config estafette.messageiddomain". Errors: EST_EINVAL.
 */
int est_mail_check_domain(const char *domain, const char *what);

/*
 * Check that the `len` bytes at `addr` are a plain address, as envelopes and
 * headers take it: printable ASCII, exactly one "@" with text on both sides,
 * no spaces, brackets, quotes, commas or semicolons, at most 254 octets; or
 * a quoted local part ("john smith"@example.org: printable ASCII and
 * spaces, \" and \\ escaped, no "@") before the "@" (SMTPUTF8 is not
 * supported). `what` starts the message, e.g. "players.json: field
 * \"email\"".
 *
 * Errors: EST_EINVAL.
 */
int est_mail_check_address(const char *addr, size_t len, const char *what);

/*
 * The address of a mailbox: what is inside "<...>" of `Name <addr>`, else
 * the whole string, trimmed. A new string (caller frees); NULL on ENOMEM.
 */
char *est_mail_address_of(const char *mailbox);

/*
 * The outbox folder of `game`: "<home>/outbox/<game>", into a new string
 * *out (caller frees with free()). Creates nothing.
 *
 * Errors: EST_EINVAL (home NULL or empty, game not a valid name, see
 * est_mail_outbox_put); EST_ENOMEM.
 */
int est_mail_outbox_dir(char **out, const char *home, const char *game);

/*
 * Mark this home as the one that made `game`: "<home>/outbox/<game>/made-here",
 * a line of text, the folder made as needed. A game's first mail (the
 * join's invitations, which the first run queues after step 0) belongs to
 * the home that made it: a runner sharing the game through a remote
 * (hooks/run-and-push) with another $ESTAFETTE_HOME leaves that mail to
 * the home that holds the mark. Idempotent.
 *
 * Errors: EST_EINVAL (bad home or game, as in est_mail_outbox_dir);
 * EST_EIO (cannot create the folder or write the file); EST_ENOMEM.
 */
int est_mail_outbox_mark_maker(const char *home, const char *game);

/*
 * Queue one message: write pending/<name>.eml (the `eml_len` bytes of
 * `eml`, e.g. from est_mail_compose) and then pending/<name>.json with the
 * envelope: `envelope_from` (a bare address for MAIL FROM, e.g.
 * "gm@example.org") and the `rcpt_count` bare addresses of `rcpts` for RCPT
 * TO. Creates the folders as needed.
 *
 * Idempotent: if <name> is already pending (both files there) or sent,
 * nothing changes and *queued_out is 0; otherwise the files are written and
 * *queued_out is 1. The content is not compared: a name is queued once.
 *
 * `game` and `name` are made of [A-Za-z0-9._-] only and are neither "." nor
 * ".."; `name` is e.g. "0007-france" (files go out in name order).
 *
 * Errors: EST_EINVAL (bad game or name, no recipients, an address empty or
 * holding spaces, control characters or angle brackets); EST_EIO (cannot
 * create a folder or write a file); EST_ENOMEM.
 */
int est_mail_outbox_put(int *queued_out, const char *home, const char *game, const char *name,
			const char *envelope_from, const char *const *rcpts, size_t rcpt_count,
			const char *eml, size_t eml_len);

/*
 * est_mail_outbox_put for a caller that queues several messages of `game`
 * at once: each file's content is fsynced before it gets its name, so
 * after a power cut a message is whole or not queued, never torn, but the
 * names are durable only once est_mail_outbox_sync returns. The caller
 * calls it after its last put, before anything counts on the messages
 * (delivery, a later step, its own exit). Errors: est_mail_outbox_put's.
 */
int est_mail_outbox_put_unsynced(int *queued_out, const char *home, const char *game, const char *name,
				 const char *envelope_from, const char *const *rcpts, size_t rcpt_count,
				 const char *eml, size_t eml_len);

/*
 * fsync the pending folder of `game`'s outbox: every message put there so
 * far (est_mail_outbox_put_unsynced) is durable. Errors: EST_EINVAL (bad
 * home or game, as in est_mail_outbox_dir); EST_EIO (the folder is
 * missing or cannot be synced); EST_ENOMEM.
 */
int est_mail_outbox_sync(const char *home, const char *game);

/*
 * Whether message `name` of `game` is queued already (pending, both files
 * there) or sent: *found_out 1 or 0. What est_mail_outbox_put() would
 * skip, asked before composing (a run queues the last step's reports again
 * in case it was killed before it could, and composing costs more than asking).
 *
 * Errors: EST_EINVAL (bad home, game or name, as in est_mail_outbox_put);
 * EST_ENOMEM.
 */
int est_mail_outbox_has(int *found_out, const char *home, const char *game, const char *name);

/*
 * The names (without .eml) of the messages in pending/ or sent/ of `game`'s
 * outbox, `which` being "pending" or "sent", sorted by strcmp, into a new
 * array *names_out of *count strings (caller frees with
 * est_mail_names_free). A pending message counts only when both its .eml
 * and .json are there; a sent one when its .eml is. A folder that does not
 * exist yet is an empty list.
 *
 * Errors: EST_EINVAL (bad game, `which` not "pending" or "sent"); EST_EIO
 * (cannot read the folder); EST_ENOMEM.
 */
int est_mail_outbox_list(char ***names_out, size_t *count, const char *home, const char *game,
			 const char *which);

/*
 * The message of `game`'s sent/ folder whose Message-ID is `message_id`
 * (without angle brackets): its name into *name_out and the recipients of
 * its envelope into *rcpts_out (*rcpt_count of them), all new (free the
 * name with free(), the list with est_mail_names_free). The id names the
 * message (est_mail_message_id: HEX.GAME.NAME@HOST), so one file is read,
 * sent/NAME.eml, and it counts only if its own Message-ID is `message_id`
 * whole, random part and all: a bounce costs one read however old the
 * game, and a made-up id finds nothing. Not found (another form of id, a
 * name not sent, another random part): 0, with *name_out NULL.
 *
 * Errors: EST_EINVAL (bad home or game); EST_EIO; EST_ENOMEM.
 */
int est_mail_outbox_find(char **name_out, char ***rcpts_out, size_t *rcpt_count, const char *home,
			 const char *game, const char *message_id);

/* Free what est_mail_outbox_list returned. NULL is fine. */
void est_mail_names_free(char **names, size_t count);

typedef struct {
	/*
	 * "smtp://host:port" or "smtps://host:port". With smtp:// STARTTLS is
	 * used whenever the server offers it (CURLUSESSL_TRY) and the message
	 * goes in the clear otherwise, which suits a local relay; set
	 * require_tls, or use smtps://, for a server across the network.
	 * Certificates are always verified (against the system's CAs, or ca_file).
	 * NULL or "": no server configured, nothing is sent.
	 */
	const char *url;
	const char *username; /* NULL: no AUTH, unless netrc finds some */
	const char *password;
	int netrc;            /* 1: credentials for the host from ~/.netrc (CURL_NETRC_OPTIONAL) */
	long timeout_seconds; /* connect and per-response timeout; 0: 30 seconds */
	int require_tls;      /* 1: refuse to send unless STARTTLS succeeds (CURLUSESSL_ALL) */
	const char *ca_file;  /* PEM file of CAs to trust instead of the system's; NULL: system */
} est_mail_smtp;

/*
 * Send every complete pending message of `game`, in name order, over one
 * SMTP connection (one curl handle, reused, so curl keeps the connection
 * open between messages), each with MAIL FROM and RCPT TO from its .json
 * envelope. Every recipient must be accepted for a message to go. Right
 * after the server accepts a message (curl returns CURLE_OK) it is moved to
 * sent/, its .eml first: from then on it is no longer a complete pending
 * message, so even a crash before its .json follows cannot send it twice
 * (deliver.c, move_to_sent, says why the other order could). Before
 * sending, a move interrupted by a crash is finished, and temporary files
 * left in pending/ by a run killed while queueing are removed.
 *
 * On every return, *sent_out is how many went out in this call and
 * *pending_out how many complete messages still wait in pending/.
 *
 * smtp NULL or smtp->url NULL or "": nothing is sent, returns 0; *pending_out
 * says what waits (the caller says where, est_mail_outbox_dir).
 *
 * Call curl_global_init once at program start; this function relies on it
 * (or on curl's implicit, not thread-safe, initialisation).
 *
 * Errors:
 *  EST_ETEMPFAIL  the server could not be reached, timed out or answered 4xx
 *                 (greylisting, a full disk): delivery stops at that message
 *                 and the rest stay pending for the next run, so reports
 *                 still go out in order and a struggling server is left
 *                 alone. Also
 *                 returned at the end when the server refused one or more
 *                 messages for good (5xx), or a pending .json envelope does
 *                 not parse: those stay pending, the others were still sent,
 *                 and the message names the first such file so the GM can
 *                 fix its envelope or remove it.
 *  EST_ECONFIG    the URL is malformed or not smtp/smtps, the server wants a
 *                 login (530) or refused it (535), TLS was required but not
 *                 offered, or the server's certificate did not verify:
 *                 delivery stops, everything stays pending.
 *  EST_EINVAL     bad game.
 *  EST_EIO        a pending file cannot be read or moved.
 *  EST_ENOMEM
 * The error message never includes the password.
 */
int est_mail_outbox_deliver(size_t *sent_out, size_t *pending_out, const char *home,
			    const char *game, const est_mail_smtp *smtp);

#endif
