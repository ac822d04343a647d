/*
 * Delivering the outbox over SMTP with libcurl: one easy handle for the
 * whole run, so curl keeps one connection open from message to message.
 */
#include "mail/curl_private.h"
#include "mail/mail.h"
#include "mail/outbox_private.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#define DEFAULT_TIMEOUT_SECONDS 30L
#define EML_MAX (64u * 1024 * 1024)

/* How one message went. Negative values are EST_E* codes of local failures. */
enum send_result {
	SENT = 0,
	REFUSED = 1,  /* 5xx for this message: keep it, go on with the others */
	TEMPFAIL = 2, /* unreachable, timeout, 4xx: stop, retry next run */
	CONFIG = 3,   /* bad URL, login refused, TLS: stop, the GM must act */
};

struct session {
	CURL *curl;
	const char *data; /* the message being uploaded */
	size_t len, pos;
	char errbuf[CURL_ERROR_SIZE];
	char reply[512];  /* the server's last reply line, for messages */
	char url[512];    /* the URL without user:password@, for messages */
};

static size_t read_message(char *dest, size_t size, size_t nmemb, void *userdata)
{
	struct session *s = userdata;
	size_t n = size * nmemb;

	if (n > s->len - s->pos)
		n = s->len - s->pos;
	memcpy(dest, s->data + s->pos, n);
	s->pos += n;
	return n;
}

/*
 * Keeps the server's last reply line, for messages: curl reports only a
 * code. Once a 4xx or 5xx is kept, later lines (curl's QUIT earns "221")
 * do not replace it.
 */
static int keep_reply(CURL *curl, curl_infotype type, char *data, size_t size, void *userdata)
{
	struct session *s = userdata;

	(void)curl;
	if (type != CURLINFO_HEADER_IN || size == 0)
		return 0;
	if ((s->reply[0] == '4' || s->reply[0] == '5') && data[0] != '4' && data[0] != '5')
		return 0;
	est_mail__keep_line(s->reply, sizeof(s->reply), data, size);
	return 0;
}

/* The URL as it may be shown: any "user:password@" is left out. */
static void redact_url(char *out, size_t size, const char *url)
{
	const char *scheme_end = strstr(url, "://");
	const char *host = scheme_end ? scheme_end + 3 : url;
	const char *end = host + strcspn(host, "/?#");
	const char *at = memchr(host, '@', (size_t)(end - host));

	if (at)
		snprintf(out, size, "%.*s%s", (int)(host - url), url, at + 1);
	else
		snprintf(out, size, "%s", url);
}

static int session_open(struct session *s, const est_mail_smtp *smtp)
{
	long timeout = smtp->timeout_seconds > 0 ? smtp->timeout_seconds : DEFAULT_TIMEOUT_SECONDS;
	CURL *c;
	CURLcode rc = CURLE_OK;

	redact_url(s->url, sizeof(s->url), smtp->url);
	est_mail_curl_options common = {"smtp,smtps", (long)(CURLPROTO_SMTP | CURLPROTO_SMTPS),
					 smtp->require_tls, smtp->username, smtp->password,
					 smtp->ca_file, smtp->netrc, timeout};

	if (!(c = s->curl = curl_easy_init()))
		return est_error_set(EST_ERROR, "%s: cannot start libcurl", s->url);
	rc = est_mail__curl_common(c, &common);
	EST_CURL_SET(rc, c, CURLOPT_URL, smtp->url);
	EST_CURL_SET(rc, c, CURLOPT_UPLOAD, 1L);
	EST_CURL_SET(rc, c, CURLOPT_READFUNCTION, read_message);
	EST_CURL_SET(rc, c, CURLOPT_READDATA, s);
	EST_CURL_SET(rc, c, CURLOPT_ERRORBUFFER, s->errbuf);
	/* VERBOSE only feeds keep_reply; with a DEBUGFUNCTION curl prints nothing. */
	EST_CURL_SET(rc, c, CURLOPT_DEBUGFUNCTION, keep_reply);
	EST_CURL_SET(rc, c, CURLOPT_DEBUGDATA, s);
	EST_CURL_SET(rc, c, CURLOPT_VERBOSE, 1L);
	if (rc != CURLE_OK)
		return est_error_set(EST_ECONFIG, "%s: libcurl refused an option: %s", s->url,
				     curl_easy_strerror(rc));
	return 0;
}

/* Read a pending .json envelope into "<addr>" strings for curl. */
static int read_envelope(char **from_out, struct curl_slist **rcpts_out, const char *path)
{
	json_t *root = NULL, *from, *to, *item;
	json_error_t jerr;
	struct curl_slist *rcpts = NULL, *grown;
	char *mail_from = NULL, *rcpt;
	size_t i;
	int error = 0;

	if (!(root = json_load_file(path, 0, &jerr))) {
		error = est_error_set(EST_EINVAL, "%s: not valid JSON (line %d: %s); remove the "
				      "message or rewrite its envelope", path, jerr.line, jerr.text);
		goto out;
	}
	from = json_object_get(root, "from");
	to = json_object_get(root, "to");
	if (!json_is_string(from) || !json_is_array(to) || json_array_size(to) == 0) {
		error = est_error_set(EST_EINVAL, "%s: needs \"from\" (an address) and \"to\" (a "
				      "list of addresses); rewrite its envelope", path);
		goto out;
	}
	json_array_foreach(to, i, item) {
		if (!json_is_string(item) ||
		    (error = est_mail_check_address(json_string_value(item),
						    json_string_length(item), path)) < 0) {
			error = error ? error : est_error_set(EST_EINVAL, "%s: field \"to\" holds "
							      "something other than an address", path);
			goto out;
		}
		if (!(rcpt = est_strdup_printf("<%s>", json_string_value(item))) ||
		    !(grown = curl_slist_append(rcpts, rcpt))) {
			free(rcpt);
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		free(rcpt);
		rcpts = grown;
	}
	if ((error = est_mail_check_address(json_string_value(from), json_string_length(from),
					    path)) < 0)
		goto out;
	if (!(mail_from = est_strdup_printf("<%s>", json_string_value(from)))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	*from_out = mail_from;
	*rcpts_out = rcpts;
	mail_from = NULL;
	rcpts = NULL;
out:
	free(mail_from);
	curl_slist_free_all(rcpts);
	json_decref(root);
	return error;
}

/* Sorts a failed transfer into REFUSED, TEMPFAIL or CONFIG, with a reason. */
static enum send_result classify(struct session *s, CURLcode rc, char *reason, size_t size)
{
	long code = 0;

	curl_easy_getinfo(s->curl, CURLINFO_RESPONSE_CODE, &code);
	if (code >= 400 && code < 600 && s->reply[0])
		snprintf(reason, size, "the server answered \"%s\"", s->reply);
	else
		snprintf(reason, size, "%s", s->errbuf[0] ? s->errbuf : curl_easy_strerror(rc));
	switch (rc) {
	case CURLE_LOGIN_DENIED:
	case CURLE_URL_MALFORMAT:
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_USE_SSL_FAILED:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_AUTH_ERROR:
		return CONFIG;
	default:
		break;
	}
	/* RFC 4954: 530 authentication required, 534/538 stronger or TLS needed, 535 bad login. */
	if (code == 530 || code == 534 || code == 535 || code == 538)
		return CONFIG;
	if (code >= 500 && code < 600)
		return REFUSED;
	return TEMPFAIL;
}

/* One message: a send_result, or a negative EST_E* code of a local failure. */
static int send_one(struct session *s, const char *dir, const char *name, char *reason,
		    size_t size)
{
	char *eml_path = est_strdup_printf("%s/pending/%s.eml", dir, name);
	char *json_path = est_strdup_printf("%s/pending/%s.json", dir, name);
	char *eml = NULL, *mail_from = NULL;
	struct curl_slist *rcpts = NULL;
	size_t len;
	CURLcode rc;
	int result;

	if (!eml_path || !json_path) {
		result = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((result = est_file_read(&eml, &len, eml_path, EML_MAX)) < 0 ||
	    (result = read_envelope(&mail_from, &rcpts, json_path)) < 0)
		goto out;
	s->data = eml;
	s->len = len;
	s->pos = 0;
	s->errbuf[0] = '\0';
	s->reply[0] = '\0';
	if (curl_easy_setopt(s->curl, CURLOPT_MAIL_FROM, mail_from) != CURLE_OK ||
	    curl_easy_setopt(s->curl, CURLOPT_MAIL_RCPT, rcpts) != CURLE_OK) {
		result = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_fault_point("smtp-before-send");
	rc = curl_easy_perform(s->curl);
	result = rc == CURLE_OK ? SENT : (int)classify(s, rc, reason, size);
out:
	/* curl keeps the pointer to the list: take it back before freeing it. */
	if (s->curl)
		curl_easy_setopt(s->curl, CURLOPT_MAIL_RCPT, (struct curl_slist *)NULL);
	curl_slist_free_all(rcpts);
	free(mail_from);
	free(eml);
	free(json_path);
	free(eml_path);
	return result;
}

static int rename_to_sent(const char *dir, const char *name, const char *suffix)
{
	char *from = est_strdup_printf("%s/pending/%s%s", dir, name, suffix);
	char *to = est_strdup_printf("%s/sent/%s%s", dir, name, suffix);
	int error = 0;

	if (!from || !to)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if (rename(from, to) < 0)
		error = est_error_set(EST_EIO, "%s: sent, but cannot move it to %s: %s", from, to,
				      strerror(errno));
	free(from);
	free(to);
	return error;
}

/*
 * Move an accepted message to sent/, its .eml first. A message is pending
 * only while both its files are in pending/ (est_mail_outbox_put writes the
 * .json last), so from the moment the .eml has left, no run sends it again,
 * even if we crash before the .json follows. The lone pending .json such a
 * crash leaves cannot be mistaken for anything else: a put cut short leaves
 * a lone .eml, never a lone .json. finish_interrupted_moves completes the
 * move on the next run. The other order would leave a lone pending .eml,
 * which looks like a put cut short, and put would queue the report again.
 * The moves are made durable once for the whole delivery (sync_moves).
 */
static int move_to_sent(const char *dir, const char *name)
{
	int error;

	if ((error = rename_to_sent(dir, name, ".eml")) < 0)
		return error;
	est_fault_point("outbox-after-sent-eml");
	return rename_to_sent(dir, name, ".json");
}

/*
 * Make the moves to sent/ durable, sent/ first: a power cut before this
 * brings the messages moved since the last sync back to pending/, and the
 * next run sends them again, under their own Message-ID (at least once,
 * never lost). Returns `error` (its message followed by the sync's when
 * both failed), else the sync's.
 */
static int sync_moves(const char *dir, int error)
{
	char *sent = est_strdup_printf("%s/sent", dir), *pending = est_strdup_printf("%s/pending", dir);
	char first[4096];
	int synced;

	snprintf(first, sizeof(first), "%s", error < 0 ? est_error_message() : "");
	if (!sent || !pending)
		synced = est_error_set(EST_ENOMEM, "out of memory");
	else if ((synced = est_dir_sync(sent)) == 0)
		synced = est_dir_sync(pending);
	free(sent);
	free(pending);
	/* Both said: a temporary failure must not hide that the moves may not be on disk. */
	if (error < 0 && synced < 0) {
		char second[1024];

		snprintf(second, sizeof(second), "%s", est_error_message());
		return est_error_set(error, "%s; and %s", first, second);
	}
	return error < 0 ? error : synced;
}

/*
 * Each lone pending .json (see est_mail__outbox_pending) whose .eml is
 * already in sent/: a move cut short, finished now.
 */
static int finish_interrupted_moves(const char *dir, char **lone, size_t count)
{
	int error = 0;

	for (size_t i = 0; i < count && !error; i++) {
		char *eml = est_strdup_printf("%s/sent/%s.eml", dir, lone[i]);

		if (!eml)
			error = est_error_set(EST_ENOMEM, "out of memory");
		else if (est_path_exists(eml))
			error = rename_to_sent(dir, lone[i], ".json");
		free(eml);
	}
	return error;
}

static int stopped(enum send_result result, const struct session *s, const char *name,
		   const char *reason, size_t pending, const char *dir, const char *game)
{
	const char *plural = pending == 1 ? "" : "s", *verb = pending == 1 ? "s" : "";
	const char *go = pending == 1 ? "goes" : "go";

	if (result == CONFIG)
		return est_error_set(EST_ECONFIG, "%s: cannot send %s.eml: %s; %zu message%s "
				     "wait%s in %s/pending: fix the SMTP settings, then run "
				     "`estafette mail %s`", s->url, name, reason, pending, plural,
				     verb, dir, game);
	return est_error_set(EST_ETEMPFAIL, "%s: cannot send %s.eml: %s; %zu message%s wait%s "
			     "in %s/pending and %s out with the next run (or `estafette mail "
			     "%s`)", s->url, name, reason, pending, plural, verb, dir, go, game);
}

int est_mail_outbox_deliver(size_t *sent_out, size_t *pending_out, const char *home,
			    const char *game, const est_mail_smtp *smtp)
{
	struct session s = {0};
	char *dir = NULL, *sent = NULL, **names = NULL, **lone = NULL;
	char reason[768], first_refused[1024] = "";
	size_t count = 0, lone_count = 0, refused = 0;
	int error, moved = 0;

	*sent_out = 0;
	*pending_out = 0;
	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if ((error = est_mail__outbox_pending(&names, &count, &lone, &lone_count, home, game)) < 0)
		goto out;
	moved = lone_count > 0;
	if ((error = finish_interrupted_moves(dir, lone, lone_count)) < 0)
		goto out;
	*pending_out = count;
	if (count == 0 || !smtp || !smtp->url || !*smtp->url)
		goto out;
	if (!(sent = est_strdup_printf("%s/sent", dir))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_mkdir_p(sent, 0700)) < 0 || (error = session_open(&s, smtp)) < 0)
		goto out;
	for (size_t i = 0; i < count; i++) {
		int result = send_one(&s, dir, names[i], reason, sizeof(reason));

		/* A broken envelope blocks only its own message, like a refusal. */
		if (result == EST_EINVAL) {
			snprintf(reason, sizeof(reason), "%s", est_error_message());
			result = REFUSED;
		}
		if (result < 0) {
			error = result;
			goto out;
		}
		if (result == REFUSED) {
			if (refused++ == 0)
				snprintf(first_refused, sizeof(first_refused), "%s/pending/%s.eml: %s",
					 dir, names[i], reason);
			continue;
		}
		if (result != SENT) {
			error = stopped(result, &s, names[i], reason, *pending_out, dir, game);
			goto out;
		}
		est_fault_point("smtp-after-accept");
		moved = 1;
		if ((error = move_to_sent(dir, names[i])) < 0)
			goto out;
		est_fault_point("outbox-after-sent");
		(*sent_out)++;
		(*pending_out)--;
	}
	if (refused > 0)
		error = est_error_set(EST_ETEMPFAIL,
				      "%s: %zu message%s could not go out and stay%s pending (first: "
				      "%s); fix the address in its .json, or remove its .eml and .json",
				      s.url, refused, refused == 1 ? "" : "s", refused == 1 ? "s" : "",
				      first_refused);
out:
	if (moved)
		error = sync_moves(dir, error);
	if (s.curl)
		curl_easy_cleanup(s.curl);
	est_mail_names_free(names, count);
	est_mail_names_free(lone, lone_count);
	free(sent);
	free(dir);
	return error;
}
