/*
 * Mailbox intake (internal/mail/imap.h) against a real Dovecot started by
 * tests/helpers/imapd.sh, and against Maildirs made here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "mail/imap.h"
#include "util/error.h"
#include "util/util.h"

#define HELPER EST_SOURCE_DIR "/tests/helpers/imapd.sh"
#define MAX_RECORDS 16

/* One Dovecot per test, in its own folder. */
struct server {
	char dir[64];
	char port[16];
	char imaps_port[16];
	char user[64];
	char pass[64];
	char ca[128];
	char maildir[160];
	char imaps_url[128];
	char imap_url[128];
};

/* What the intake callback saw, and how it should answer. */
struct recorder {
	char *messages[MAX_RECORDS];
	size_t lens[MAX_RECORDS];
	size_t sizes[MAX_RECORDS];
	char ids[MAX_RECORDS][300];
	size_t count;
	size_t fail_at;   /* 1-based call that returns fail_code; 0: none */
	int fail_code;
	size_t kill_at;   /* 1-based call after which the process is SIGKILLed */
	const char *trace; /* file to append each id to before a kill */
	const char *drop_connection; /* shell command run during the first call */
};

/* Three messages with CRLF lines, one holding what looks like IMAP replies. */
static const char *const letters[] = {
	"From: France <france@example.org>\r\nSubject: orders 1\r\n\r\nfirst body\r\n",
	"From: Allies <allies@example.org>\r\nSubject: orders 2\r\n\r\n"
	"* 1 FETCH (FLAGS (\\Seen))\r\nA005 OK fake completion\r\n.\r\n\r\n",
	"From: France <france@example.org>\r\nSubject: orders 3\r\n\r\n"
	"third body \xc3\xa9t\xc3\xa9\r\n",
};

static int record(void *payload, const char *message, size_t len, size_t size, const char *id)
{
	struct recorder *r = payload;
	size_t n;

	assert_true(r->count < MAX_RECORDS);
	assert_int_equal(message[len], '\0');
	n = r->count++;
	r->messages[n] = malloc(len + 1);
	assert_non_null(r->messages[n]);
	memcpy(r->messages[n], message, len + 1);
	r->lens[n] = len;
	r->sizes[n] = size;
	snprintf(r->ids[n], sizeof(r->ids[n]), "%s", id);
	if (r->drop_connection && r->count == 1)
		assert_int_equal(system(r->drop_connection), 0);
	if (r->kill_at == r->count) {
		FILE *f = fopen(r->trace, "a");

		assert_non_null(f);
		fprintf(f, "%s\n", id);
		fclose(f);
		kill(getpid(), SIGKILL);
	}
	if (r->fail_at == r->count)
		return est_error_set(r->fail_code, "test: refused %s", id);
	return 0;
}

static void recorder_free(struct recorder *r)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		free(r->messages[i]);
	memset(r, 0, sizeof(*r));
}

static void read_env_value(char *out, size_t size, const char *env, const char *key)
{
	size_t klen = strlen(key);
	const char *p = env;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == env || p[-1] == '\n') && p[klen] == '=') {
			const char *v = p + klen + 1;
			size_t n = strcspn(v, "\n");

			assert_true(n < size);
			memcpy(out, v, n);
			out[n] = '\0';
			return;
		}
		p += klen;
	}
	fail_msg("%s missing from the helper's environment", key);
}

static int start_server(struct server *s, int tls)
{
	char command[512], *envpath, *env = NULL;
	size_t len;

	memset(s, 0, sizeof(*s));
	strcpy(s->dir, "/tmp/est-imap-test-XXXXXX");
	assert_non_null(mkdtemp(s->dir));
	snprintf(command, sizeof(command),
		 "bash -c '. %s && %s start_imapd %s && env | grep ^IMAP > %s/env' >%s/helper.log 2>&1",
		 HELPER, tls ? "" : "IMAPD_TLS=no", s->dir, s->dir, s->dir);
	if (system(command) != 0) {
		snprintf(command, sizeof(command), "cat %s/helper.log >&2", s->dir);
		(void)system(command);
		fail_msg("start_imapd failed");
	}
	envpath = est_strdup_printf("%s/env", s->dir);
	assert_int_equal(est_file_read(&env, &len, envpath, 0), 0);
	read_env_value(s->port, sizeof(s->port), env, "IMAP_PORT");
	if (tls)
		read_env_value(s->imaps_port, sizeof(s->imaps_port), env, "IMAPS_PORT");
	read_env_value(s->user, sizeof(s->user), env, "IMAP_USER");
	read_env_value(s->pass, sizeof(s->pass), env, "IMAP_PASS");
	read_env_value(s->ca, sizeof(s->ca), env, "IMAP_CA");
	read_env_value(s->maildir, sizeof(s->maildir), env, "IMAP_MAILDIR");
	snprintf(s->imaps_url, sizeof(s->imaps_url), "imaps://127.0.0.1:%s/INBOX", s->imaps_port);
	snprintf(s->imap_url, sizeof(s->imap_url), "imap://127.0.0.1:%s/INBOX", s->port);
	free(env);
	free(envpath);
	return 0;
}

static char *imap_command_at(const struct server *s, const char *url, const char *custom,
			     const char *upload);

/*
 * The TLS tests share one server (Dovecot takes seconds to stop); each test
 * gets a mailbox of its own, so its UIDs start at 1.
 */
static struct server shared;
static int mailbox_count;

static int start_shared(void **state)
{
	(void)state;
	return start_server(&shared, 1);
}

static int stop_server(struct server *s)
{
	char command[512];

	snprintf(command, sizeof(command), "bash -c '. %s && IMAPD_DIR=%s stop_imapd'", HELPER,
		 s->dir);
	assert_int_equal(system(command), 0);
	assert_int_equal(est_remove_tree(s->dir), 0);
	return 0;
}

static int stop_shared(void **state)
{
	(void)state;
	return stop_server(&shared);
}

static int setup_tls(void **state)
{
	struct server *s = malloc(sizeof(*s));
	char base[64], create[32];

	assert_non_null(s);
	*s = shared;
	mailbox_count++;
	snprintf(base, sizeof(base), "imaps://127.0.0.1:%s/", s->imaps_port);
	snprintf(create, sizeof(create), "CREATE box%d", mailbox_count);
	free(imap_command_at(s, base, create, NULL));
	snprintf(s->imaps_url, sizeof(s->imaps_url), "imaps://127.0.0.1:%s/box%d", s->imaps_port,
		 mailbox_count);
	snprintf(s->imap_url, sizeof(s->imap_url), "imap://127.0.0.1:%s/box%d", s->port,
		 mailbox_count);
	assert_true((size_t)snprintf(s->maildir, sizeof(s->maildir), "%.100s/box%d", shared.maildir,
				     mailbox_count) < sizeof(s->maildir));
	*state = s;
	return 0;
}

static int teardown_tls(void **state)
{
	free(*state);
	return 0;
}

static int setup_plain(void **state)
{
	struct server *s = malloc(sizeof(*s));

	assert_non_null(s);
	start_server(s, 0);
	*state = s;
	return 0;
}

static int teardown_plain(void **state)
{
	stop_server(*state);
	free(*state);
	return 0;
}

static est_mail_imap imaps_config(const struct server *s)
{
	est_mail_imap imap = { s->imaps_url, s->user, s->pass, 0, 0, s->ca, 10, 0 };

	return imap;
}

/* Run one IMAP command with a plain libcurl handle; its untagged output. */
static char *imap_command_at(const struct server *s, const char *url, const char *custom,
			     const char *upload)
{
	struct {
		char *data;
		size_t len;
	} out = { NULL, 0 };
	FILE *in = NULL;
	FILE *mem = open_memstream(&out.data, &out.len);
	CURL *c = curl_easy_init();

	assert_non_null(mem);
	assert_non_null(c);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_USERNAME, s->user);
	curl_easy_setopt(c, CURLOPT_PASSWORD, s->pass);
	curl_easy_setopt(c, CURLOPT_CAINFO, s->ca);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, mem);
	if (custom)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, custom);
	if (upload) {
		in = fmemopen((void *)upload, strlen(upload), "r");
		assert_non_null(in);
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READDATA, in);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)strlen(upload));
	}
	assert_int_equal(curl_easy_perform(c), CURLE_OK);
	curl_easy_cleanup(c);
	if (in)
		fclose(in);
	fclose(mem);
	return out.data;
}

static char *imap_command(const struct server *s, const char *custom, const char *upload)
{
	return imap_command_at(s, s->imaps_port[0] ? s->imaps_url : s->imap_url, custom, upload);
}

/* IMAP APPEND each letter (libcurl appends them \Seen), then clear \Seen. */
static void append_letters(const struct server *s)
{
	size_t i;

	for (i = 0; i < 3; i++)
		free(imap_command(s, NULL, letters[i]));
	free(imap_command(s, "UID STORE 1:* -FLAGS (\\Seen)", NULL));
}

/* Write each letter into the Maildir's new/ as a local delivery would. */
static void deliver_letters(const struct server *s)
{
	size_t i;

	for (i = 0; i < 3; i++) {
		char *tmp = est_strdup_printf("%s/tmp/170000000%zu.M1P1.test", s->maildir, i);
		char *dst = est_strdup_printf("%s/new/170000000%zu.M1P1.test", s->maildir, i);

		assert_int_equal(est_file_write_atomic(tmp, letters[i], strlen(letters[i]), 0644),
				 0);
		assert_int_equal(rename(tmp, dst), 0);
		free(tmp);
		free(dst);
	}
}

static void assert_unseen(const struct server *s, const char *expected)
{
	char *out = imap_command(s, "UID SEARCH UNSEEN", NULL);
	size_t n = strlen(out);

	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' '))
		out[--n] = '\0';
	assert_string_equal(out, expected);
	free(out);
}

static void assert_letter(const struct recorder *r, size_t n, size_t letter, const char *id)
{
	assert_int_equal(r->lens[n], strlen(letters[letter]));
	assert_memory_equal(r->messages[n], letters[letter], r->lens[n]);
	assert_string_equal(r->ids[n], id);
}

static size_t count_logins(const struct server *s, int tls_only);

/*
 * Fetch hands each unseen message once, exactly, in UID order, then marks
 * it, all in one login.
 */
static void test_imaps_fetch_marks_seen(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	size_t handled = 99, left = 99, logins;

	append_letters(s);
	assert_unseen(s, "* SEARCH 1 2 3");
	logins = count_logins(s, 1);
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(count_logins(s, 1), logins + 1);
	assert_int_equal(handled, 3);
	assert_int_equal(left, 0);
	assert_int_equal(r.count, 3);
	assert_letter(&r, 0, 0, "UID 1");
	assert_letter(&r, 1, 1, "UID 2");
	assert_letter(&r, 2, 2, "UID 3");
	assert_unseen(s, "* SEARCH");
	recorder_free(&r);

	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(r.count, 0);
	assert_int_equal(handled, 0);
	assert_int_equal(left, 0);
}

/* Maildir files written straight into new/ are fetched as delivered. */
static void test_imap_maildir_delivery(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	size_t handled, left;

	deliver_letters(s);
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(handled, 3);
	assert_int_equal(r.count, 3);
	/* Dovecot gives new files UIDs in name order */
	assert_letter(&r, 0, 0, "UID 1");
	assert_letter(&r, 1, 1, "UID 2");
	assert_letter(&r, 2, 2, "UID 3");
	assert_unseen(s, "* SEARCH");
	recorder_free(&r);
}

/* A temporary failure of fn stops the run and leaves the rest unseen. */
static void test_imap_tempfail_stops(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	size_t handled, left;

	append_letters(s);
	r.fail_at = 2;
	r.fail_code = EST_ETEMPFAIL;
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), EST_ETEMPFAIL);
	assert_string_equal(est_error_message(), "test: refused UID 2");
	assert_int_equal(handled, 1);
	assert_int_equal(left, 2);
	assert_int_equal(r.count, 2);
	assert_unseen(s, "* SEARCH 2 3");
	recorder_free(&r);

	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(r.count, 2);
	assert_letter(&r, 0, 1, "UID 2");
	assert_letter(&r, 1, 2, "UID 3");
	assert_int_equal(handled, 2);
	assert_unseen(s, "* SEARCH");
	recorder_free(&r);
}

/* A refusal (EST_EINVAL) was answered: the message is marked seen too. */
static void test_imap_refusal_marks_seen(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	size_t handled, left;

	append_letters(s);
	r.fail_at = 1;
	r.fail_code = EST_EINVAL;
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(handled, 3);
	assert_int_equal(left, 0);
	assert_int_equal(r.count, 3);
	assert_unseen(s, "* SEARCH");
	recorder_free(&r);
}

/*
 * A run killed after fn and before the STORE leaves the message unseen:
 * the next run hands it again, once.
 */
static void test_imap_crash_before_store(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	char *trace = est_strdup_printf("%s/trace", s->dir), *seen = NULL;
	size_t handled, left, len;
	int status;
	pid_t pid;

	append_letters(s);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct recorder child = { 0 };

		child.kill_at = 1;
		child.trace = trace;
		est_mail_imap_fetch(NULL, NULL, &imap, record, &child);
		_exit(3); /* never reached: killed inside fn */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGKILL);
	assert_int_equal(est_file_read(&seen, &len, trace, 0), 0);
	assert_string_equal(seen, "UID 1\n");
	assert_unseen(s, "* SEARCH 1 2 3");

	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(r.count, 3);
	assert_letter(&r, 0, 0, "UID 1");
	assert_letter(&r, 1, 1, "UID 2");
	assert_letter(&r, 2, 2, "UID 3");
	recorder_free(&r);
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(r.count, 0);
	free(seen);
	free(trace);
}

/*
 * The server drops the connection while fn runs: no second connection is
 * made (its SELECT would let a FETCH set \Seen), the run stops, and the
 * message stays unseen for the next run.
 */
static void test_imap_connection_lost(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = { s->imap_url, s->user, s->pass, 0, 0, NULL, 10, 0 };
	struct recorder r = { 0 };
	char command[512];
	size_t handled = 9, left = 9, logins;

	deliver_letters(s);
	snprintf(command, sizeof(command),
		 "kill -9 $(doveadm -c %s/dovecot.conf who -1 | "
		 "awk '$2 == \"imap\" { print $3 }') && sleep 0.3",
		 s->dir);
	r.drop_connection = command;
	logins = count_logins(s, 0);
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), EST_ETEMPFAIL);
	assert_non_null(strstr(est_error_message(), "connection was lost"));
	assert_int_equal(handled, 0);
	assert_int_equal(left, 3);
	assert_int_equal(r.count, 1);
	assert_int_equal(count_logins(s, 0), logins + 1);
	assert_unseen(s, "* SEARCH 1 2 3");
	recorder_free(&r);

	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(r.count, 3);
	assert_letter(&r, 0, 0, "UID 1");
	recorder_free(&r);
}

static size_t count_logins(const struct server *s, int tls_only)
{
	char *path = est_strdup_printf("%s/dovecot.log", s->dir), *log = NULL, *p;
	size_t len, n = 0;

	assert_int_equal(est_file_read(&log, &len, path, 0), 0);
	for (p = log; (p = strstr(p, "Login: user=<")) != NULL; p++) {
		size_t line = strcspn(p, "\n");
		char *tls = strstr(p, ", TLS");

		if (!tls_only || (tls && tls < p + line))
			n++;
	}
	free(log);
	free(path);
	return n;
}

/* imap:// upgrades with STARTTLS, verified against the CA file. */
static void test_imap_starttls(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = { s->imap_url, s->user, s->pass, 0, 1, s->ca, 10, 0 };
	struct recorder r = { 0 };
	size_t handled, left, before;

	append_letters(s);
	before = count_logins(s, 1);
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(handled, 3);
	assert_int_equal(count_logins(s, 1), before + 1);
	assert_letter(&r, 2, 2, "UID 3");
	recorder_free(&r);

	/* STARTTLS is tried when offered, so the certificate is checked too */
	imap.require_tls = 0;
	imap.ca_file = NULL;
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), EST_ECONFIG);
	assert_non_null(strstr(est_error_message(), "certificate"));
}

/* A certificate not signed by a trusted CA is a configuration error. */
static void test_imaps_unverified_certificate(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	size_t handled = 9, left = 9;

	append_letters(s);
	imap.ca_file = NULL;
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), EST_ECONFIG);
	assert_non_null(strstr(est_error_message(), "certificate was not verified"));
	assert_int_equal(handled, 0);
	assert_int_equal(left, 0);
	assert_int_equal(r.count, 0);
	assert_unseen(s, "* SEARCH 1 2 3");
}

/*
 * imaps:// to the clear-text IMAP port: the handshake meets a greeting, not
 * TLS. No retry mends that: a configuration error, saying which scheme
 * goes with which port (a handshake cut off midway is EST_ETEMPFAIL:
 * tests/integration/imap_failures.sh).
 */
static void test_imaps_to_the_clear_text_port(void **state)
{
	struct server *s = *state;
	char url[160];
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };

	snprintf(url, sizeof(url), "imaps://127.0.0.1:%s/INBOX", s->port);
	imap.url = url;
	assert_int_equal(est_mail_imap_fetch(NULL, NULL, &imap, record, &r), EST_ECONFIG);
	assert_non_null(strstr(est_error_message(), "does not speak TLS"));
	assert_non_null(strstr(est_error_message(), url));
	assert_int_equal(r.count, 0);
}

/* A wrong password is refused, and the message does not repeat it. */
static void test_imap_wrong_password(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };

	imap.password = "not-the-password";
	assert_int_equal(est_mail_imap_fetch(NULL, NULL, &imap, record, &r), EST_ECONFIG);
	{
		char *named = est_strdup_printf("refused the login \"%s\"", s->user);

		assert_non_null(strstr(est_error_message(), named));
		free(named);
	}
	assert_null(strstr(est_error_message(), "not-the-password"));
	assert_int_equal(r.count, 0);
}

/* No such mailbox: a configuration error too. */
static void test_imap_missing_mailbox(void **state)
{
	struct server *s = *state;
	char url[160];
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };

	snprintf(url, sizeof(url), "imaps://127.0.0.1:%s/NoSuchBox", s->imaps_port);
	imap.url = url;
	assert_int_equal(est_mail_imap_fetch(NULL, NULL, &imap, record, &r), EST_ECONFIG);
	assert_non_null(strstr(est_error_message(), "NoSuchBox"));
	assert_non_null(strstr(est_error_message(), " NO "));
}

/* Credentials from ~/.netrc. */
static void test_imap_netrc(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	char *home = est_strdup_printf("%s/home-netrc", s->dir);
	char *netrc = est_strdup_printf("%s/.netrc", home);
	char *text = est_strdup_printf("machine 127.0.0.1 login %s password %s\n", s->user, s->pass);
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	size_t handled, left;

	append_letters(s);
	assert_int_equal(est_mkdir_p(home, 0700), 0);
	assert_int_equal(est_file_write_atomic(netrc, text, strlen(text), 0600), 0);
	setenv("HOME", home, 1);
	imap.username = NULL;
	imap.password = NULL;
	imap.netrc = 1;
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(handled, 3);
	recorder_free(&r);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_home);
	free(text);
	free(netrc);
	free(home);
}

/* A server without TLS: require_tls refuses it, the default goes plain. */
static void test_imap_require_tls_not_offered(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = { s->imap_url, s->user, s->pass, 0, 1, NULL, 10, 0 };
	struct recorder r = { 0 };
	size_t handled;
	char *tmp = est_strdup_printf("%s/tmp/1700000000.M1P1.test", s->maildir);
	char *dst = est_strdup_printf("%s/new/1700000000.M1P1.test", s->maildir);

	assert_int_equal(est_file_write_atomic(tmp, letters[0], strlen(letters[0]), 0644), 0);
	assert_int_equal(rename(tmp, dst), 0);
	assert_int_equal(est_mail_imap_fetch(&handled, NULL, &imap, record, &r), EST_ECONFIG);
	assert_non_null(strstr(est_error_message(), "STARTTLS"));
	assert_int_equal(r.count, 0);

	imap.require_tls = 0;
	assert_int_equal(est_mail_imap_fetch(&handled, NULL, &imap, record, &r), 0);
	assert_int_equal(handled, 1);
	assert_letter(&r, 0, 0, "UID 1");
	recorder_free(&r);
	free(tmp);
	free(dst);
}

/* Nothing listening: try again later. */
static void test_imap_no_server(void **state)
{
	struct sockaddr_in addr;
	socklen_t alen = sizeof(addr);
	char url[128];
	est_mail_imap imap = { url, "u", "p", 0, 0, NULL, 5, 0 };
	struct recorder r = { 0 };
	size_t handled = 9, left = 9;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&addr, &alen), 0);
	close(fd); /* the port is now free and nobody listens on it */
	snprintf(url, sizeof(url), "imaps://127.0.0.1:%u/INBOX", ntohs(addr.sin_port));
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), EST_ETEMPFAIL);
	assert_non_null(strstr(est_error_message(), url));
	assert_non_null(strstr(est_error_message(), "the next fetch tries again"));
	assert_int_equal(handled, 0);
	assert_int_equal(left, 0);
}

/* URLs the intake cannot use are configuration errors, found before connecting. */
static void test_imap_bad_urls(void **state)
{
	static const char *const urls[] = {
		"https://127.0.0.1/INBOX", "imaps://127.0.0.1/", "imaps://127.0.0.1/INBOX?ALL",
		"imaps://127.0.0.1/INBOX;UID=1", "imaps://user:secret@127.0.0.1/INBOX", "not a url",
	};
	struct recorder r = { 0 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		est_mail_imap imap = { urls[i], "u", "p", 0, 0, NULL, 5, 0 };

		assert_int_equal(est_mail_imap_fetch(NULL, NULL, &imap, record, &r), EST_ECONFIG);
		assert_null(strstr(est_error_message(), "secret"));
	}
	assert_int_equal(r.count, 0);
}

/* --- Maildir --- */

static char *make_maildir(void)
{
	char *dir = strdup("/tmp/est-maildir-test-XXXXXX");
	char *sub;

	assert_non_null(mkdtemp(dir));
	sub = est_strdup_printf("%s/new", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	free(sub);
	sub = est_strdup_printf("%s/cur", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	free(sub);
	sub = est_strdup_printf("%s/tmp", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	free(sub);
	return dir;
}

static void put_file(const char *dir, const char *name, const char *text)
{
	char *path = est_strdup_printf("%s/%s", dir, name);

	assert_int_equal(est_file_write_atomic(path, text, strlen(text), 0600), 0);
	free(path);
}

static void assert_exists(const char *dir, const char *name, int exists)
{
	char *path = est_strdup_printf("%s/%s", dir, name);

	assert_int_equal(est_path_exists(path), exists);
	free(path);
}

/* new/ and unseen cur/ files, in name order; seen ones get S by rename. */
static void test_maildir_fetch(void **state)
{
	char *dir = make_maildir();
	struct recorder r = { 0 };
	size_t handled = 9, left = 9;

	(void)state;
	put_file(dir, "new/1700000003.M3.host", letters[2]);
	put_file(dir, "new/1700000001.M1.host", letters[0]);
	put_file(dir, "cur/1700000002.M2.host:2,FR", letters[1]);
	put_file(dir, "cur/1700000000.M0.host:2,S", "already seen");
	put_file(dir, "new/.hidden", "not a message");
	put_file(dir, "tmp/1700000004.M4.host", "still being delivered");

	assert_int_equal(est_mail_maildir_fetch(&handled, &left, dir, 0, record, &r), 0);
	assert_int_equal(handled, 3);
	assert_int_equal(left, 0);
	assert_int_equal(r.count, 3);
	assert_letter(&r, 0, 0, "new/1700000001.M1.host");
	assert_letter(&r, 1, 1, "cur/1700000002.M2.host:2,FR");
	assert_letter(&r, 2, 2, "new/1700000003.M3.host");
	assert_exists(dir, "cur/1700000001.M1.host:2,S", 1);
	assert_exists(dir, "cur/1700000002.M2.host:2,FRS", 1);
	assert_exists(dir, "cur/1700000003.M3.host:2,S", 1);
	assert_exists(dir, "new/1700000001.M1.host", 0);
	assert_exists(dir, "cur/1700000002.M2.host:2,FR", 0);
	assert_exists(dir, "cur/1700000000.M0.host:2,S", 1);
	assert_exists(dir, "new/.hidden", 1);
	recorder_free(&r);

	assert_int_equal(est_mail_maildir_fetch(&handled, &left, dir, 0, record, &r), 0);
	assert_int_equal(r.count, 0);
	assert_int_equal(handled, 0);
	assert_int_equal(est_remove_tree(dir), 0);
	free(dir);
}

/* Flags stay in ASCII order when S joins them; a refusal is marked too. */
static void test_maildir_flags_and_refusal(void **state)
{
	char *dir = make_maildir();
	struct recorder r = { 0 };
	size_t handled, left;

	(void)state;
	put_file(dir, "cur/1.A.host:2,RT", "one");
	put_file(dir, "cur/2.B.host", "two");
	r.fail_at = 1;
	r.fail_code = EST_EINVAL;
	assert_int_equal(est_mail_maildir_fetch(&handled, &left, dir, 0, record, &r), 0);
	assert_int_equal(handled, 2);
	assert_exists(dir, "cur/1.A.host:2,RST", 1);
	assert_exists(dir, "cur/2.B.host:2,S", 1);
	recorder_free(&r);
	assert_int_equal(est_remove_tree(dir), 0);
	free(dir);
}

/* A temporary failure stops the run; the next one picks up from there. */
static void test_maildir_tempfail_stops(void **state)
{
	char *dir = make_maildir();
	struct recorder r = { 0 };
	size_t handled, left;

	(void)state;
	put_file(dir, "new/1.A.host", letters[0]);
	put_file(dir, "new/2.B.host", letters[1]);
	put_file(dir, "new/3.C.host", letters[2]);
	r.fail_at = 2;
	r.fail_code = EST_ETEMPFAIL;
	assert_int_equal(est_mail_maildir_fetch(&handled, &left, dir, 0, record, &r), EST_ETEMPFAIL);
	assert_int_equal(handled, 1);
	assert_int_equal(left, 2);
	assert_exists(dir, "cur/1.A.host:2,S", 1);
	assert_exists(dir, "new/2.B.host", 1);
	assert_exists(dir, "new/3.C.host", 1);
	recorder_free(&r);

	assert_int_equal(est_mail_maildir_fetch(&handled, &left, dir, 0, record, &r), 0);
	assert_int_equal(r.count, 2);
	assert_letter(&r, 0, 1, "new/2.B.host");
	assert_letter(&r, 1, 2, "new/3.C.host");
	recorder_free(&r);
	assert_int_equal(est_remove_tree(dir), 0);
	free(dir);
}

/* A folder without new/ cur/ tmp/ is not a Maildir. */
static void test_maildir_not_a_maildir(void **state)
{
	char dir[] = "/tmp/est-maildir-test-XXXXXX";
	char *sub;
	struct recorder r = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(est_mail_maildir_fetch(NULL, NULL, dir, 0, record, &r), EST_ENOTFOUND);
	assert_non_null(strstr(est_error_message(), "not a Maildir"));
	sub = est_strdup_printf("%s/new", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	free(sub);
	sub = est_strdup_printf("%s/cur", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	free(sub);
	assert_int_equal(est_mail_maildir_fetch(NULL, NULL, dir, 0, record, &r), EST_ENOTFOUND);
	assert_non_null(strstr(est_error_message(), "tmp/"));
	assert_int_equal(est_mail_maildir_fetch(NULL, NULL, "/nonexistent/maildir", 0, record, &r),
			 EST_ENOTFOUND);
	assert_int_equal(r.count, 0);
	assert_int_equal(est_remove_tree(dir), 0);
}

/* A letter of about `body` bytes: a From and a Subject, then lines of 'x'. */
static char *big_letter(size_t body)
{
	const char head[] = "From: France <france@example.org>\r\nSubject: big\r\n\r\n";
	char *out = malloc(sizeof(head) + body + 2);
	size_t i, n = sizeof(head) - 1;

	assert_non_null(out);
	memcpy(out, head, n);
	for (i = 0; i < body; i++)
		out[n++] = i % 72 == 70 ? '\r' : i % 72 == 71 ? '\n' : 'x';
	out[n] = '\0';
	return out;
}

/* The bytes the server sent in the last IMAP session its log names ("Logged out in=.. out=N"). */
static size_t last_session_out(const struct server *s)
{
	char *path = est_strdup_printf("%s/dovecot.log", s->dir), *log = NULL, *p, *last = NULL;
	size_t len, out;

	assert_int_equal(est_file_read(&log, &len, path, 0), 0);
	for (p = log; (p = strstr(p, " out=")) != NULL; p++)
		last = p;
	assert_non_null(last);
	out = strtoul(last + 5, NULL, 10);
	free(log);
	free(path);
	return out;
}

/*
 * A message over max_message is not downloaded: fn gets its header and its
 * RFC822.SIZE, the server sends little more than the header, and the
 * message is marked seen like any other; the one after it comes whole.
 */
static void test_imap_over_limit_header_only(void **state)
{
	struct server *s = *state;
	est_mail_imap imap = imaps_config(s);
	struct recorder r = { 0 };
	size_t handled = 9, left = 9, big_len;
	char *big = big_letter(2 << 20);

	big_len = strlen(big);
	free(imap_command(s, NULL, big));
	free(imap_command(s, NULL, letters[0]));
	free(imap_command(s, "UID STORE 1:* -FLAGS (\\Seen)", NULL));
	imap.max_message = 64 << 10;
	assert_int_equal(est_mail_imap_fetch(&handled, &left, &imap, record, &r), 0);
	assert_int_equal(handled, 2);
	assert_int_equal(left, 0);
	assert_int_equal(r.count, 2);
	assert_int_equal(r.sizes[0], big_len);
	assert_string_equal(r.messages[0], "From: France <france@example.org>\r\nSubject: big\r\n\r\n");
	assert_string_equal(r.messages[1], letters[0]);
	assert_int_equal(r.sizes[1], strlen(letters[0]));
	/* 2 MiB stayed on the server: the session sent a few KiB */
	assert_true(last_session_out(s) < (64 << 10));
	assert_unseen(s, "* SEARCH");
	recorder_free(&r);
	free(big);
}

/* A Maildir file over max_message: its first EST_MAIL_HEAD_MAX bytes and its size. */
static void test_maildir_over_limit(void **state)
{
	char *dir = make_maildir(), *big = big_letter(1 << 20);
	struct recorder r = { 0 };
	size_t handled = 9, left = 9;

	(void)state;
	put_file(dir, "new/1.host", big);
	put_file(dir, "new/2.host", letters[0]);
	assert_int_equal(est_mail_maildir_fetch(&handled, &left, dir, 64 << 10, record, &r), 0);
	assert_int_equal(handled, 2);
	assert_int_equal(r.count, 2);
	assert_int_equal(r.lens[0], EST_MAIL_HEAD_MAX);
	assert_int_equal(r.sizes[0], strlen(big));
	assert_memory_equal(r.messages[0], big, EST_MAIL_HEAD_MAX);
	assert_string_equal(r.messages[1], letters[0]);
	assert_int_equal(r.sizes[1], strlen(letters[0]));
	assert_exists(dir, "cur/1.host:2,S", 1);
	recorder_free(&r);
	assert_int_equal(est_remove_tree(dir), 0);
	free(dir);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_imaps_fetch_marks_seen, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_maildir_delivery, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_tempfail_stops, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_refusal_marks_seen, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_crash_before_store, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_connection_lost, setup_plain,
						teardown_plain),
		cmocka_unit_test_setup_teardown(test_imap_starttls, setup_tls, teardown_tls),
		cmocka_unit_test_setup_teardown(test_imaps_unverified_certificate, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imaps_to_the_clear_text_port, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_wrong_password, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_missing_mailbox, setup_tls,
						teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_netrc, setup_tls, teardown_tls),
		cmocka_unit_test_setup_teardown(test_imap_require_tls_not_offered, setup_plain,
						teardown_plain),
		cmocka_unit_test(test_imap_no_server),
		cmocka_unit_test(test_imap_bad_urls),
		cmocka_unit_test_setup_teardown(test_imap_over_limit_header_only, setup_tls,
						teardown_tls),
		cmocka_unit_test(test_maildir_fetch),
		cmocka_unit_test(test_maildir_over_limit),
		cmocka_unit_test(test_maildir_flags_and_refusal),
		cmocka_unit_test(test_maildir_tempfail_stops),
		cmocka_unit_test(test_maildir_not_a_maildir),
	};
	int failed;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	failed = cmocka_run_group_tests(tests, start_shared, stop_shared);
	curl_global_cleanup();
	return failed;
}
