/*
 * Mailbox intake: the messages players mailed their orders in, read from an
 * IMAP mailbox (libcurl) or a local Maildir. Parsing the messages is not
 * done here; each one is handed whole to the caller's est_intake_fn.
 *
 * The mark of "done" is the \Seen flag (IMAP) or the S flag (Maildir). A
 * message is marked only after the callback stored its result durably or
 * refused it for good, so the order of events for one message is
 *
 *     read (without marking) -> fn -> mark seen
 *
 * and a run that dies between fn and the mark leaves the message unseen:
 * the next run hands it to fn again. Intake is therefore at least once, and
 * the caller's fn must be idempotent (recording the same order file twice
 * must change nothing the second time). A message is never lost, but a crash
 * can deliver it twice.
 *
 * Neither function takes a lock: two runs reading one mailbox at once may
 * both hand a message to their fn (again: fn must be idempotent).
 */
#ifndef EST_MAIL_IMAP_H
#define EST_MAIL_IMAP_H

#include <stddef.h>

/*
 * Called once per message, in the mailbox's order (ascending UID; Maildir
 * file name order). `message` is the message exactly as stored, `len` bytes
 * (CRLF line ends from IMAP; whatever the file holds from a Maildir), with
 * a NUL after them for convenience; borrowed for the call only. `size` is
 * the message's whole size: when it is over the caller's max_message,
 * `message` holds only its beginning (IMAP: its header section, BODY[HEADER];
 * Maildir: its first EST_MAIL_HEAD_MAX bytes), so len < size. `id` names
 * the message for logs: "UID 42" or the Maildir file name ("new/NAME" or
 * "cur/NAME").
 *
 * Return 0 when the message's result is stored durably (the mailbox then
 * marks it seen), EST_EINVAL when it was refused for good (also marked seen:
 * the refusal was answered), any other negative EST_E* code to stop the run
 * and leave this message and the ones after it unseen for the next run.
 */
typedef int (*est_intake_fn)(void *payload, const char *message, size_t len, size_t size,
			     const char *id);

/* What is read of a message over max_message: enough for any header a client writes. */
#define EST_MAIL_HEAD_MAX ((size_t)256 << 10)

typedef struct {
	/*
	 * imaps://host[:port]/MAILBOX (TLS from the start, port 993 by default),
	 * or imap://host[:port]/MAILBOX (port 143; STARTTLS when the server
	 * offers it, required when require_tls is set). MAILBOX is URL-encoded,
	 * e.g. "INBOX" or "INBOX/orders". No user name or password in the URL:
	 * give them below, they would otherwise end up in logs.
	 */
	const char *url;
	const char *username; /* NULL: from ~/.netrc when netrc is set */
	const char *password; /* NULL: from ~/.netrc when netrc is set; never logged */
	int netrc;            /* non-zero: read missing credentials from ~/.netrc */
	int require_tls;      /* non-zero: imap:// fails unless STARTTLS succeeds */
	const char *ca_file;  /* PEM bundle to verify the server with; NULL: system's */
	long timeout_seconds; /* connect and per-reply timeout; 0: 60 seconds */
	/*
	 * A message bigger than this (by its RFC822.SIZE) is not downloaded:
	 * only its header, up to EST_MAIL_HEAD_MAX bytes, is. If the server
	 * sends more than it said, the bytes past the limit are read and
	 * dropped and fn gets what came in with the size seen. 0: no limit.
	 */
	size_t max_message;
} est_mail_imap;

/*
 * Hand every unseen message of the IMAP mailbox `imap->url` to `fn`.
 *
 * Over one connection (one libcurl handle for the whole run): UID SEARCH
 * UNSEEN, then for each UID in ascending order, ask its RFC822.SIZE and
 * fetch the whole message (or its header, if over max_message) without
 * setting \Seen (the mailbox is opened read-only with EXAMINE for
 * the fetch, because libcurl 7.88 fetches with BODY[], not BODY.PEEK[]),
 * call fn(payload, message, len, "UID n"), and only after fn returned 0 or
 * EST_EINVAL set \Seen (SELECT, UID STORE n +FLAGS.SILENT (\Seen)). If the
 * connection drops, no second one is opened (its fresh SELECT would let a
 * fetch set \Seen): the run stops with EST_ETEMPFAIL. A message that
 * disappeared between the search and its fetch (expunged by another client)
 * is skipped and counted in neither total.
 *
 * *handled_out (may be NULL) is the number of messages marked seen;
 * *left_out (may be NULL) the number of unseen messages found but not
 * marked (the one that stopped the run and those after it). Both are set
 * on error too.
 *
 * Errors: EST_ECONFIG, only for what no retry mends until the GM changes a
 * setting (URL not imap:// or imaps:// with a mailbox, login refused, no
 * such mailbox, TLS required but not offered, imaps:// to a port that
 * answers in clear text, the server's certificate not verified);
 * EST_ETEMPFAIL for a server or network in trouble (connection refused or
 * reset, closed before or after the greeting, a TLS handshake cut off
 * midway, a timeout, a host name the resolver cannot look up now, the
 * connection lost, NO or BAD to SEARCH, FETCH or STORE: the messages not
 * yet marked stay unseen); EST_ENOMEM; any error fn returned other than
 * EST_EINVAL, passed through (the run stops there). The error message names
 * the server and mailbox, the login when it was refused, and the setting to
 * fix, never the password.
 *
 * Call curl_global_init once at program start; this function relies on it.
 */
int est_mail_imap_fetch(size_t *handled_out, size_t *left_out, const est_mail_imap *imap,
			est_intake_fn fn, void *payload);

/*
 * Hand every unseen message of the Maildir `maildir` (a folder holding new/,
 * cur/ and tmp/) to `fn` (a file over `max_message` bytes, 0 for no limit,
 * as its first EST_MAIL_HEAD_MAX bytes only): the files in new/ and those in cur/ whose info
 * ("NAME:2,FLAGS") has no S flag, all in ascending order of their file
 * name (Maildir names start with the delivery time). Names starting with
 * '.' are skipped. After fn returns 0 or EST_EINVAL the file is marked seen
 * with rename(2): new/NAME -> cur/NAME:2,S, cur/NAME:2,FLAGS -> cur/NAME:2,
 * FLAGS with S added (flags kept in ASCII order, as Maildir asks). A file
 * that vanished before it was read (another reader moved it) is skipped.
 *
 * *handled_out and *left_out (either may be NULL) as for
 * est_mail_imap_fetch.
 *
 * Errors: EST_ENOTFOUND (`maildir` lacks new/, cur/ or tmp/); EST_EIO (a
 * folder or message cannot be read, or the rename fails); EST_ENOMEM; any
 * error fn returned other than EST_EINVAL, passed through.
 */
int est_mail_maildir_fetch(size_t *handled_out, size_t *left_out, const char *maildir,
			   size_t max_message, est_intake_fn fn, void *payload);

#endif
