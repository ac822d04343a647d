/*
 * IMAP intake with libcurl (imap.h). One connection per run; the commands
 * are libcurl's own (SELECT, UID FETCH from the URL) plus a few custom
 * requests: UID SEARCH UNSEEN, EXAMINE, SELECT and UID STORE.
 *
 * libcurl 7.88 fetches ";UID=n" URLs with "UID FETCH n BODY[]", which sets
 * \Seen in a mailbox opened read-write, and it cannot hand back the literal
 * of a custom "BODY.PEEK[]" FETCH. So the mailbox is switched to read-only
 * (EXAMINE) for each fetch and back to read-write (SELECT) for the STORE
 * that marks the message handled. That only holds while the server session
 * is the one we switched: a silent reconnect would make libcurl SELECT
 * anew before its FETCH. The open-socket callback therefore refuses any
 * second connection once the first one is up, and the run stops with
 * EST_ETEMPFAIL instead.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "mail/curl_private.h"
#include "mail/imap.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

#define DEFAULT_TIMEOUT_SECONDS 60L

struct buffer {
	char *data;
	size_t len;
	size_t cap;
	int failed;   /* out of memory while curl wrote */
	size_t limit; /* keep at most this many bytes, read and drop the rest; 0: all */
	size_t seen;  /* bytes curl wrote, kept or not */
};

struct session {
	CURL *curl;
	char errbuf[CURL_ERROR_SIZE];
	char reply[256];    /* the server's last line, for messages */
	char *display;      /* scheme://host:port/PATH, no credentials */
	char *mailbox_url;  /* the same, for curl */
	char *mailbox;      /* the mailbox as an IMAP quoted string */
	const char *username; /* the login, for messages; NULL: ~/.netrc's */
	int connected;      /* the one connection of the run is up */
	int refused_socket; /* a reconnect was refused */
	struct buffer body;
};

static size_t write_body(char *ptr, size_t size, size_t nmemb, void *userdata)
{
	struct buffer *b = userdata;
	size_t n = size * nmemb, all = n;

	b->seen += all;
	/* Past the limit the transfer goes on, so the connection stays in step, but nothing is kept. */
	if (b->limit && b->len + n > b->limit)
		n = b->limit > b->len ? b->limit - b->len : 0;
	if (n == 0)
		return all;
	if (n > SIZE_MAX - b->len - 1) {
		b->failed = 1;
		return 0;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *data;

		while (cap < b->len + n + 1)
			cap = cap > SIZE_MAX / 2 ? b->len + n + 1 : cap * 2;
		if (!(data = realloc(b->data, cap))) {
			b->failed = 1;
			return 0;
		}
		b->data = data;
		b->cap = cap;
	}
	memcpy(b->data + b->len, ptr, n);
	b->len += n;
	b->data[b->len] = '\0';
	return all;
}

/* A tagged NO or BAD, or an untagged BYE: what a person needs to see. */
static int is_refusal(const char *line, size_t len)
{
	const char *space = memchr(line, ' ', len);
	size_t rest;

	if (len >= 5 && strncasecmp(line, "* BYE", 5) == 0)
		return 1;
	if (!space || line[0] == '*' || line[0] == '+')
		return 0;
	rest = len - (size_t)(space + 1 - line);
	return (rest >= 3 && strncasecmp(space + 1, "NO ", 3) == 0) ||
	       (rest >= 4 && strncasecmp(space + 1, "BAD ", 4) == 0);
}

/*
 * Keep the server's first refusal of a request, for messages (only what the server sent:
 * what we sent holds the login).
 */
static int keep_reply(CURL *c, curl_infotype type, char *data, size_t size, void *userdata)
{
	struct session *s = userdata;

	(void)c;
	/* the first one: the BYE of the LOGOUT curl sends after a failure is not news */
	if (type != CURLINFO_HEADER_IN || s->reply[0] || !is_refusal(data, size))
		return 0;
	est_mail__keep_line(s->reply, sizeof(s->reply), data, size);
	return 0;
}

/* One connection per run: see the comment at the top of the file. */
static curl_socket_t open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address)
{
	struct session *s = clientp;

	(void)purpose;
	if (s->connected) {
		s->refused_socket = 1;
		return CURL_SOCKET_BAD;
	}
	return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

/* The mailbox name as an IMAP quoted string; only printable ASCII. */
static int quote_mailbox(char **out, const char *display, const char *name)
{
	size_t len = strlen(name), i, j = 0;
	char *q;

	if (len == 0)
		return est_error_set(EST_ECONFIG,
				     "%s: the URL names no mailbox; end it with one, e.g. /INBOX",
				     display);
	if (!(q = malloc(2 * len + 3)))
		return est_error_set(EST_ENOMEM, "out of memory");
	q[j++] = '"';
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (c < 0x20 || c > 0x7e) {
			free(q);
			return est_error_set(EST_ECONFIG,
					     "%s: the mailbox name holds a control or non-ASCII "
					     "character; give its modified UTF-7 name (RFC 3501)",
					     display);
		}
		if (c == '"' || c == '\\')
			q[j++] = '\\';
		q[j++] = (char)c;
	}
	q[j++] = '"';
	q[j] = '\0';
	*out = q;
	return 0;
}

/* Split imap->url into what the session needs; refuse what it cannot use. */
static int parse_url(struct session *s, const char *url)
{
	CURLU *u = NULL;
	char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL, *query = NULL;
	char *user = NULL, *name = NULL;
	int error = 0;

	if (!url)
		return est_error_set(EST_ECONFIG, "IMAP URL: none given; give "
				     "imaps://host[:port]/MAILBOX");
	if (!(u = curl_url()))
		return est_error_set(EST_ENOMEM, "out of memory");
	if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
		error = est_error_set(EST_ECONFIG,
				      "IMAP URL: not a URL; write imaps://host[:port]/MAILBOX");
		goto out;
	}
	if (strcmp(scheme, "imap") != 0 && strcmp(scheme, "imaps") != 0) {
		error = est_error_set(EST_ECONFIG,
				      "IMAP URL: scheme %s is not imap or imaps; write "
				      "imaps://host[:port]/MAILBOX",
				      scheme);
		goto out;
	}
	if (!(s->display = est_strdup_printf("%s://%s:%s%s", scheme, host, port, path))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (curl_url_get(u, CURLUPART_USER, &user, 0) == CURLUE_OK) {
		error = est_error_set(EST_ECONFIG,
				      "%s: the URL holds a user name; give it and the password "
				      "as username and password, or in ~/.netrc",
				      s->display);
		goto out;
	}
	if (curl_url_get(u, CURLUPART_QUERY, &query, 0) == CURLUE_OK || strchr(path, ';')) {
		error = est_error_set(EST_ECONFIG,
				      "%s: the URL holds a search or ;parameters; give only "
				      "imaps://host[:port]/MAILBOX",
				      s->display);
		goto out;
	}
	if (!(s->mailbox_url = strdup(s->display))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (!(name = curl_easy_unescape(NULL, path + (path[0] == '/'), 0, NULL))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	error = quote_mailbox(&s->mailbox, s->display, name);
out:
	curl_free(name);
	curl_free(user);
	curl_free(query);
	curl_free(path);
	curl_free(port);
	curl_free(host);
	curl_free(scheme);
	curl_url_cleanup(u);
	return error;
}

static int session_open(struct session *s, const est_mail_imap *imap)
{
	long timeout = imap->timeout_seconds > 0 ? imap->timeout_seconds : DEFAULT_TIMEOUT_SECONDS;
	CURLcode rc = CURLE_OK;
	CURL *c;
	int error;

	s->username = imap->username;
	if ((error = parse_url(s, imap->url)) < 0)
		return error;
	est_mail_curl_options common = {"imap,imaps", (long)(CURLPROTO_IMAP | CURLPROTO_IMAPS),
					 imap->require_tls, imap->username, imap->password,
					 imap->ca_file, imap->netrc, timeout};

	if (!(c = s->curl = curl_easy_init()))
		return est_error_set(EST_ERROR, "%s: cannot start libcurl", s->display);
	rc = est_mail__curl_common(c, &common);
	/* A message that trickles in slower than a byte per timeout is a hang. */
	EST_CURL_SET(rc, c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	EST_CURL_SET(rc, c, CURLOPT_LOW_SPEED_TIME, timeout);
	EST_CURL_SET(rc, c, CURLOPT_OPENSOCKETFUNCTION, open_socket);
	EST_CURL_SET(rc, c, CURLOPT_OPENSOCKETDATA, s);
	EST_CURL_SET(rc, c, CURLOPT_WRITEFUNCTION, write_body);
	EST_CURL_SET(rc, c, CURLOPT_WRITEDATA, &s->body);
	EST_CURL_SET(rc, c, CURLOPT_ERRORBUFFER, s->errbuf);
	/* VERBOSE only feeds keep_reply; with a DEBUGFUNCTION curl prints nothing. */
	EST_CURL_SET(rc, c, CURLOPT_DEBUGFUNCTION, keep_reply);
	EST_CURL_SET(rc, c, CURLOPT_DEBUGDATA, s);
	EST_CURL_SET(rc, c, CURLOPT_VERBOSE, 1L);
	if (rc != CURLE_OK)
		return est_error_set(EST_ECONFIG, "%s: libcurl refused an option: %s", s->display,
				     curl_easy_strerror(rc));
	return 0;
}

static void session_close(struct session *s)
{
	curl_easy_cleanup(s->curl);
	free(s->body.data);
	free(s->mailbox);
	free(s->mailbox_url);
	free(s->display);
}

/*
 * 1 if a failed TLS handshake means the port does not speak TLS at all
 * (it answered in clear text: imaps:// to an IMAP port), which no retry
 * mends; 0 if the peer went away or stalled mid-handshake, which is a
 * server or network in trouble and worth another try.
 */
static int port_speaks_no_tls(const char *detail)
{
	static const char *const signs[] = {"wrong version number", "unknown protocol",
					    "packet length too long", "http request",
					    "record layer failure"};

	for (size_t i = 0; i < sizeof(signs) / sizeof(*signs); i++)
		if (strstr(detail, signs[i]))
			return 1;
	return 0;
}

/*
 * Turn a failed transfer into an EST_E* error; `what` is what we were
 * doing. EST_ECONFIG only when retrying cannot help until the GM changes a
 * setting; whatever a server or network in trouble does (refused, reset,
 * dropped mid-greeting or mid-handshake, silent, a name the resolver could
 * not look up now) is EST_ETEMPFAIL, so a cron line keeps trying.
 */
static int transfer_error(struct session *s, CURLcode rc, const char *what)
{
	const char *detail = s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc);
	const char *later = "the messages not yet handled stay unseen; the next fetch tries again";

	if (s->body.failed)
		return est_error_set(EST_ENOMEM, "%s: %s: out of memory", s->display, what);
	if (s->refused_socket)
		return est_error_set(EST_ETEMPFAIL, "%s: %s: the connection was lost (%s); %s",
				     s->display, what, detail, later);
	switch (rc) {
	case CURLE_LOGIN_DENIED:
	case CURLE_AUTH_ERROR:
		return est_error_set(EST_ECONFIG,
				     "%s: %s: the server refused the login %s%s%s or the mailbox (%s); "
				     "check the user name (git config estafette.imapuser), the password "
				     "($ESTAFETTE_HOME/imap-password or ~/.netrc) and the mailbox in the URL",
				     s->display, what, s->username ? "\"" : "", s->username ? s->username :
				     "of ~/.netrc", s->username ? "\"" : "", s->reply[0] ? s->reply : detail);
	case CURLE_USE_SSL_FAILED:
		return est_error_set(EST_ECONFIG,
				     "%s: %s: TLS is required but the server does not offer "
				     "STARTTLS; use imaps:// or a server that offers it",
				     s->display, what);
	case CURLE_SSL_CONNECT_ERROR:
		if (port_speaks_no_tls(detail))
			return est_error_set(EST_ECONFIG,
					     "%s: %s: the port does not speak TLS (%s); use imaps:// "
					     "with the server's TLS port (993), or imap:// (STARTTLS) "
					     "with its IMAP port (143)", s->display, what, detail);
		return est_error_set(EST_ETEMPFAIL,
				     "%s: %s: the TLS handshake broke off (%s): the server or the "
				     "network dropped the connection; %s",
				     s->display, what, detail, later);
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
		return est_error_set(EST_ECONFIG,
				     "%s: %s: the server's certificate was not verified (%s); "
				     "for a server with a private CA give its certificate: git -C GAME "
				     "config estafette.imapcafile /path/to/ca.pem",
				     s->display, what, detail);
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
	case CURLE_REMOTE_ACCESS_DENIED:
		return est_error_set(EST_ECONFIG, "%s: %s: %s; check the URL (git config "
				     "estafette.imapurl, or --imap)", s->display, what, detail);
	case CURLE_QUOTE_ERROR:
		return est_error_set(EST_ETEMPFAIL, "%s: %s: the server refused (%s); %s",
				     s->display, what, s->reply[0] ? s->reply : detail, later);
	case CURLE_COULDNT_RESOLVE_HOST:
		return est_error_set(EST_ETEMPFAIL,
				     "%s: %s: the host name could not be looked up (%s); %s (if "
				     "this lasts, check the host in the URL)",
				     s->display, what, detail, later);
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_WEIRD_SERVER_REPLY:
		return est_error_set(EST_ETEMPFAIL,
				     "%s: %s: the server is unreachable or dropped the connection "
				     "(%s); %s", s->display, what, detail, later);
	default:
		return est_error_set(EST_ETEMPFAIL, "%s: %s: %s; %s", s->display, what, detail, later);
	}
}

/*
 * One transfer on the run's connection: `url`, with `custom` as the IMAP
 * command (NULL: what the URL says). What the server wrote is in s->body,
 * its first `limit` bytes only if limit is not 0 (the rest is read and
 * dropped; s->body.seen counts it all).
 */
static CURLcode request_limited(struct session *s, const char *url, const char *custom,
				size_t limit)
{
	CURLcode rc;

	s->body.len = 0;
	s->body.failed = 0;
	s->body.limit = limit;
	s->body.seen = 0;
	if (s->body.data)
		s->body.data[0] = '\0';
	s->errbuf[0] = '\0';
	s->reply[0] = '\0';
	if ((rc = curl_easy_setopt(s->curl, CURLOPT_URL, url)) != CURLE_OK ||
	    (rc = curl_easy_setopt(s->curl, CURLOPT_CUSTOMREQUEST, custom)) != CURLE_OK)
		return rc;
	rc = curl_easy_perform(s->curl);
	if (rc == CURLE_OK)
		s->connected = 1;
	return rc;
}

static CURLcode request(struct session *s, const char *url, const char *custom)
{
	return request_limited(s, url, custom, 0);
}

static int compare_uid(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

struct uid_list {
	unsigned long *uids;
	size_t count;
	size_t cap;
};

static int push_uid(struct uid_list *l, unsigned long uid)
{
	if (l->count == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		unsigned long *grown = realloc(l->uids, cap * sizeof(*grown));

		if (!grown)
			return est_error_set(EST_ENOMEM, "out of memory");
		l->uids = grown;
		l->cap = cap;
	}
	l->uids[l->count++] = uid;
	return 0;
}

/* The numbers after "* SEARCH" on one line of `len` bytes. */
static int parse_search_line(struct uid_list *l, const char *line, size_t len,
			     const struct session *s)
{
	const char *q = line + 8, *end = line + len;
	int error;

	while (q < end) {
		char *after;
		unsigned long uid;

		while (q < end && *q == ' ')
			q++;
		if (q >= end || *q < '0' || *q > '9')
			break;
		errno = 0;
		uid = strtoul(q, &after, 10);
		if (errno || uid == 0 || uid > 0xffffffffUL)
			return est_error_set(EST_ETEMPFAIL,
					     "%s: UID SEARCH UNSEEN: the server answered a UID "
					     "out of range",
					     s->display);
		if ((error = push_uid(l, uid)) < 0)
			return error;
		q = after;
	}
	return 0;
}

/* The UIDs of "* SEARCH n n n" lines, ascending, without repeats. */
static int parse_search(unsigned long **out, size_t *count, struct session *s)
{
	const char *p = s->body.data ? s->body.data : "";
	struct uid_list l = { NULL, 0, 0 };
	size_t i, j;
	int error;

	while (*p) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len >= 8 && strncasecmp(p, "* SEARCH", 8) == 0 &&
		    (error = parse_search_line(&l, p, len, s)) < 0) {
			free(l.uids);
			return error;
		}
		p += len + (end != NULL);
	}
	if (l.count > 1)
		qsort(l.uids, l.count, sizeof(*l.uids), compare_uid);
	for (i = 0, j = 0; i < l.count; i++)
		if (j == 0 || l.uids[j - 1] != l.uids[i])
			l.uids[j++] = l.uids[i];
	*out = l.uids;
	*count = j;
	return 0;
}

static int search_unseen(unsigned long **out, size_t *count, struct session *s)
{
	CURLcode rc;

	/* libcurl SELECTs the URL's mailbox first: read-write from here on. */
	if ((rc = request(s, s->mailbox_url, "UID SEARCH UNSEEN")) != CURLE_OK)
		return transfer_error(s, rc, "UID SEARCH UNSEEN");
	return parse_search(out, count, s);
}

/* SELECT (read-write) or EXAMINE (read-only) the mailbox again. */
static int open_mailbox(struct session *s, const char *verb)
{
	char *command;
	CURLcode rc;
	int error = 0;

	if (!(command = est_strdup_printf("%s %s", verb, s->mailbox)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((rc = request(s, s->mailbox_url, command)) != CURLE_OK)
		error = transfer_error(s, rc, verb);
	free(command);
	return error;
}

/*
 * The RFC822.SIZE of message `uid` in *size_out; *gone_out is 1 when the
 * server has no such message any more.
 */
static int message_size(size_t *size_out, int *gone_out, struct session *s, unsigned long uid)
{
	char command[64];
	const char *p;
	CURLcode rc;

	*size_out = 0;
	*gone_out = 0;
	snprintf(command, sizeof(command), "UID FETCH %lu (RFC822.SIZE)", uid);
	if ((rc = request(s, s->mailbox_url, command)) != CURLE_OK)
		return transfer_error(s, rc, command);
	/* "* 12 FETCH (UID 7 RFC822.SIZE 1234)": no such line when the message is gone */
	for (p = s->body.data; p && (p = strcasestr(p, "RFC822.SIZE ")); p++) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(p + strlen("RFC822.SIZE "), &end, 10);
		if (errno || end == p + strlen("RFC822.SIZE ") || n > SIZE_MAX / 2)
			return est_error_set(EST_ETEMPFAIL, "%s: %s: the server answered a size out of "
					     "range; run again", s->display, command);
		*size_out = (size_t)n;
		return 0;
	}
	*gone_out = 1;
	return 0;
}

/*
 * Fetch message `uid` into s->body, leaving \Seen as it was: whole, or,
 * when its size is over s->max_message, its header only (both cut at what
 * may be kept). *size_out is the message's size; *gone_out is 1 when the
 * server has no such message any more.
 */
static int fetch_message(size_t *size_out, int *gone_out, struct session *s,
			 const est_mail_imap *imap, unsigned long uid)
{
	char *url = NULL;
	char what[64];
	size_t size = 0;
	int error, over;
	CURLcode rc;

	*gone_out = 0;
	snprintf(what, sizeof(what), "UID FETCH %lu", uid);
	if ((error = open_mailbox(s, "EXAMINE")) < 0)
		return error;
	if (imap->max_message && (error = message_size(&size, gone_out, s, uid)) < 0)
		return error;
	if (*gone_out)
		return 0;
	over = imap->max_message && size > imap->max_message;
	if (!(url = est_strdup_printf("%s;UID=%lu%s", s->mailbox_url, uid, over ? ";SECTION=HEADER" : "")))
		return est_error_set(EST_ENOMEM, "out of memory");
	rc = request_limited(s, url, NULL, over ? EST_MAIL_HEAD_MAX : imap->max_message);
	free(url);
	if (rc == CURLE_REMOTE_FILE_NOT_FOUND && !s->refused_socket) {
		*gone_out = 1;
		return 0;
	}
	if (rc != CURLE_OK)
		return transfer_error(s, rc, what);
	if (!s->body.data && !(s->body.data = calloc(1, 1)))
		return est_error_set(EST_ENOMEM, "out of memory");
	/* Whole, the size is what came in: more than was kept if the server sent more than it said. */
	*size_out = over ? size : s->body.seen;
	return 0;
}

static int mark_seen(struct session *s, unsigned long uid)
{
	char command[64];
	CURLcode rc;
	int error;

	if ((error = open_mailbox(s, "SELECT")) < 0)
		return error;
	snprintf(command, sizeof(command), "UID STORE %lu +FLAGS.SILENT (\\Seen)", uid);
	if ((rc = request(s, s->mailbox_url, command)) != CURLE_OK)
		return transfer_error(s, rc, "UID STORE +FLAGS (\\Seen)");
	return 0;
}

int est_mail_imap_fetch(size_t *handled_out, size_t *left_out, const est_mail_imap *imap,
			est_intake_fn fn, void *payload)
{
	struct session s;
	unsigned long *uids = NULL;
	size_t count = 0, handled = 0, gone = 0, i;
	int error;

	memset(&s, 0, sizeof(s));
	if ((error = session_open(&s, imap)) < 0)
		goto out;
	if ((error = search_unseen(&uids, &count, &s)) < 0)
		goto out;
	for (i = 0; i < count; i++) {
		char id[32];
		size_t size = 0;
		int missing;

		if ((error = fetch_message(&size, &missing, &s, imap, uids[i])) < 0)
			goto out;
		if (missing) {
			gone++;
			continue;
		}
		snprintf(id, sizeof(id), "UID %lu", uids[i]);
		error = fn(payload, s.body.data, s.body.len, size, id);
		if (error > 0)
			error = EST_ERROR;
		if (error < 0 && error != EST_EINVAL)
			goto out;
		/* A crash here hands the message to fn again next run (imap.h). */
		if ((error = mark_seen(&s, uids[i])) < 0)
			goto out;
		est_fault_point("fetch-after-seen");
		handled++;
	}
	error = 0;
out:
	if (handled_out)
		*handled_out = handled;
	if (left_out)
		*left_out = count - handled - gone;
	free(uids);
	session_close(&s);
	return error;
}
