/*
 * internal/mail: composing (checked structurally and by Python's email
 * package), the outbox, and delivery to a real aiosmtpd server
 * (tests/helpers/smtpd.py) started by the tests themselves.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>
#include <openssl/evp.h>

extern char **environ;

#define MSGID "<ne-001.0007.france@estafette>"
#define DATE_2001 ((time_t)1000000000) /* Sun, 09 Sep 2001 01:46:40 UTC */

/* ---- helpers: files, folders, the server ---- */

/* The temporary folders alive, so that a failed test still removes its own (teardown). */
static char *temp_dirs[8];

static char *make_temp_dir(void)
{
	char *dir = strdup("/tmp/est-mail-test-XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < 8; i++)
		if (!temp_dirs[i]) {
			temp_dirs[i] = dir;
			break;
		}
	return dir;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_tree(char *dir)
{
	for (size_t i = 0; i < 8; i++)
		if (temp_dirs[i] == dir)
			temp_dirs[i] = NULL;
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(dir);
}

static char *read_all(const char *path, size_t *len)
{
	char *data = NULL;
	size_t n = 0;

	if (est_file_read(&data, &n, path, 0) < 0)
		return NULL;
	if (len)
		*len = n;
	return data;
}

static char *path_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *path_of(const char *fmt, ...)
{
	char *path = NULL;
	va_list ap;

	va_start(ap, fmt);
	assert_true(vasprintf(&path, fmt, ap) >= 0);
	va_end(ap);
	return path;
}

static int exists_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int exists_fmt(const char *fmt, ...)
{
	char *path = NULL;
	va_list ap;
	int found;

	va_start(ap, fmt);
	assert_true(vasprintf(&path, fmt, ap) >= 0);
	va_end(ap);
	found = est_path_exists(path);
	free(path);
	return found;
}

static const char *helper_path(const char *name)
{
	static char path[4096];
	const char *top = getenv("TOP");

	snprintf(path, sizeof(path), "%s/tests/helpers/%s", top ? top : ".", name);
	return path;
}

struct server {
	pid_t pid;
	int port;
	char *dir; /* where it stores messages */
};

/* The servers running, so that a failed test still stops its own (teardown). */
static struct server *running[4];

/*
 * Start tests/helpers/smtpd.py on `port` (0: any) with `extra` arguments
 * and wait until it writes its port file.
 */
static void server_start(struct server *srv, const char *root, int port,
			 const char *const *extra)
{
	char *port_file = path_of("%s/port", root), *log = path_of("%s/smtpd.log", root);
	char port_arg[16];
	const char *argv[24];
	size_t argc = 0;
	posix_spawn_file_actions_t actions;

	srv->dir = path_of("%s/received", root);
	unlink(port_file);
	snprintf(port_arg, sizeof(port_arg), "%d", port);
	argv[argc++] = "/usr/bin/python3";
	argv[argc++] = helper_path("smtpd.py");
	argv[argc++] = "--dir";
	argv[argc++] = srv->dir;
	argv[argc++] = "--port";
	argv[argc++] = port_arg;
	argv[argc++] = "--port-file";
	argv[argc++] = port_file;
	for (size_t i = 0; extra && extra[i] && argc < 23; i++)
		argv[argc++] = extra[i];
	argv[argc] = NULL;
	/* Its log goes to ROOT/smtpd.log, to keep the test's output readable. */
	assert_int_equal(posix_spawn_file_actions_init(&actions), 0);
	assert_int_equal(posix_spawn_file_actions_addopen(&actions, 2, log,
							  O_WRONLY | O_CREAT | O_APPEND, 0600),
			 0);
	assert_int_equal(posix_spawn(&srv->pid, argv[0], &actions, NULL, (char *const *)argv, environ),
			 0);
	posix_spawn_file_actions_destroy(&actions);
	free(log);
	for (size_t i = 0; i < 4; i++)
		if (!running[i]) {
			running[i] = srv;
			break;
		}
	for (int i = 0; i < 200; i++) {
		char *text = read_all(port_file, NULL);

		if (text) {
			srv->port = atoi(text);
			free(text);
			break;
		}
		int status;
		assert_int_equal(waitpid(srv->pid, &status, WNOHANG), 0); /* still running */
		usleep(50 * 1000);
	}
	assert_true(srv->port > 0);
	free(port_file);
}

static void server_stop(struct server *srv)
{
	int status;

	if (srv->pid > 0) {
		kill(srv->pid, SIGTERM);
		waitpid(srv->pid, &status, 0);
	}
	srv->pid = 0;
	free(srv->dir);
	srv->dir = NULL;
	for (size_t i = 0; i < 4; i++)
		if (running[i] == srv)
			running[i] = NULL;
}

/* After each test, even a failed one: stop its servers, remove its folders. */
static int clean_up(void **state)
{
	(void)state;
	for (size_t i = 0; i < 4; i++)
		if (running[i])
			server_stop(running[i]);
	for (size_t i = 0; i < 8; i++)
		if (temp_dirs[i])
			remove_tree(temp_dirs[i]);
	return 0;
}

/* A port nothing listens on: bound, read and closed again. */
static int free_port(void)
{
	struct sockaddr_in addr = {.sin_family = AF_INET};
	socklen_t len = sizeof(addr);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&addr, &len), 0);
	port = ntohs(addr.sin_port);
	close(fd);
	return port;
}

static size_t count_lines(const char *path)
{
	char *text = read_all(path, NULL);
	size_t n = 0;

	if (!text)
		return 0;
	for (char *p = text; *p; p++)
		n += *p == '\n';
	free(text);
	return n;
}

/* ---- helpers: reading a composed message ---- */

static void assert_crlf_only(const char *eml, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (eml[i] == '\n')
			assert_true(i > 0 && eml[i - 1] == '\r');
		if (eml[i] == '\r')
			assert_true(i + 1 < len && eml[i + 1] == '\n');
	}
	assert_true(len >= 2 && eml[len - 2] == '\r' && eml[len - 1] == '\n');
}

static size_t longest_line(const char *s, size_t len)
{
	size_t longest = 0, start = 0;

	for (size_t i = 0; i < len; i++)
		if (s[i] == '\n') {
			size_t n = i - start - (i > start && s[i - 1] == '\r');
			if (n > longest)
				longest = n;
			start = i + 1;
		}
	return longest;
}

/* The unfolded value of header `name` (caller frees), or NULL. */
static char *header_value(const char *eml, const char *name)
{
	const char *end = strstr(eml, "\r\n\r\n"), *p = eml;
	size_t n = strlen(name);

	while (p && p < end) {
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			const char *v = p + n + 1;
			char *out = calloc(1, (size_t)(end - v) + 1);
			size_t len = 0;

			while (*v == ' ')
				v++;
			for (; v < end; v++) {
				if (v[0] == '\r' && v[1] == '\n' && v[2] != ' ' && v[2] != '\t')
					break;
				if (v[0] == '\r' || v[0] == '\n')
					continue;
				out[len++] = *v;
			}
			return out;
		}
		p = strstr(p, "\r\n");
		p = p ? p + 2 : NULL;
	}
	return NULL;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Quoted-printable decoding (RFC 2045 6.7), upper-case hex as we write it. */
static char *qp_decode(const char *s, size_t n, size_t *out_len)
{
	char *out = malloc(n + 1);
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '=' && i + 2 < n && s[i + 1] == '\r' && s[i + 2] == '\n') {
			i += 2;
		} else if (s[i] == '=' && i + 1 == n) {
			fail_msg("dangling = at the end");
		} else if (s[i] == '=') {
			assert_true(i + 2 < n);
			int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
			assert_true(hi >= 0 && lo >= 0);
			out[len++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			out[len++] = s[i];
		}
	}
	out[len] = '\0';
	*out_len = len;
	return out;
}

/* Decode a header made of "=?UTF-8?Q?...?=" words separated by spaces. */
static char *q_words_decode(const char *value)
{
	char *out = calloc(1, strlen(value) + 1);
	size_t len = 0;
	const char *p = value;

	while (*p) {
		const char *end;

		assert_true(!strncmp(p, "=?UTF-8?Q?", 10));
		end = strstr(p + 10, "?=");
		assert_non_null(end);
		assert_true(end + 2 - p <= 75); /* RFC 2047 2 */
		for (const char *q = p + 10; q < end; q++) {
			if (*q == '_')
				out[len++] = ' ';
			else if (*q == '=') {
				out[len++] = (char)(hex_value(q[1]) * 16 + hex_value(q[2]));
				q += 2;
			} else
				out[len++] = *q;
		}
		p = end + 2;
		while (*p == ' ')
			p++;
	}
	return out;
}

/* The body of the MIME part whose headers contain `marker`, up to the next "\r\n--". */
static char *part_body(const char *eml, const char *marker, size_t *len)
{
	const char *headers = strstr(eml, marker), *body, *end;

	assert_non_null(headers);
	body = strstr(headers, "\r\n\r\n");
	assert_non_null(body);
	body += 4;
	end = strstr(body, "\r\n--");
	assert_non_null(end);
	*len = (size_t)(end - body);
	return strndup(body, *len);
}

static char *boundary_of(const char *eml, const char *type)
{
	const char *p = strstr(eml, type), *q, *e;

	assert_non_null(p);
	q = strstr(p, "boundary=\"");
	assert_non_null(q);
	q += 10;
	e = strchr(q, '"');
	return strndup(q, (size_t)(e - q));
}

/* 0 if Python's email package reads `eml` back to these parts (independent check). */
static int python_reads_back(const char *dir, const char *eml, size_t eml_len, const char *text,
			     const char *html, const char *subject, const char *att_name,
			     const void *att, size_t att_len)
{
	static const char script[] =
		"import sys, email, email.policy\n"
		"a = sys.argv\n"
		"m = email.message_from_bytes(open(a[1], 'rb').read(), policy=email.policy.default)\n"
		"def norm(s): return s.replace('\\r\\n', '\\n')\n"
		"want = lambda i: open(a[i], 'rb').read().decode('utf-8')\n"
		"assert not m.defects, m.defects\n"
		"assert str(m['subject']) == a[5], (str(m['subject']), a[5])\n"
		"assert norm(m.get_body(('plain',)).get_content()) == norm(want(2))\n"
		"assert norm(m.get_body(('html',)).get_content()) == norm(want(3))\n"
		"atts = list(m.iter_attachments())\n"
		"assert len(atts) == 1, atts\n"
		"assert atts[0].get_filename() == a[6], atts[0].get_filename()\n"
		"assert atts[0].get_content() == open(a[4], 'rb').read()\n"
		"for p in m.walk(): assert not p.defects, p.defects\n";
	char *paths[4] = {path_of("%s/m.eml", dir), path_of("%s/text", dir),
			  path_of("%s/html", dir), path_of("%s/att", dir)};
	const char *argv[] = {"/usr/bin/python3", "-c", script, paths[0], paths[1], paths[2],
			      paths[3], subject, att_name, NULL};
	pid_t pid;
	int status = -1;

	assert_int_equal(est_file_write_atomic(paths[0], eml, eml_len, 0600), 0);
	assert_int_equal(est_file_write_atomic(paths[1], text, strlen(text), 0600), 0);
	assert_int_equal(est_file_write_atomic(paths[2], html, strlen(html), 0600), 0);
	assert_int_equal(est_file_write_atomic(paths[3], att, att_len, 0600), 0);
	assert_int_equal(posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ), 0);
	waitpid(pid, &status, 0);
	for (int i = 0; i < 4; i++)
		free(paths[i]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- compose ---- */

static const char report_text[] =
	"Step 7, spring 1805.\n"
	"The Grande Armée crosses the Rhine; Austria holds Ulm.\n"
	".a line that starts with a dot\n"
	"From the front: a line mbox would mangle\n"
	"trailing spaces   \n"
	"trailing tab\t\n"
	"equals = sign, 100% sure\r\n"
	"A very long line that goes on and on, well past the seventy-six characters a "
	"quoted-printable line may hold, so that it must be broken with soft line breaks "
	"and still come back whole: éèàùç — ✓.\n";

static void test_compose_text_only(void **state)
{
	est_mail_message msg = {.from = "GM <gm@example.org>",
				.to = "France player <france@example.org>",
				.subject = "[ne-001] step 7: report for France",
				.message_id = MSGID, .date = DATE_2001, .text = report_text};
	char *eml = NULL, *v, *body;
	size_t len, body_len, decoded_len;

	(void)state;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_int_equal(strlen(eml), len);
	assert_crlf_only(eml, len);
	assert_non_null(v = header_value(eml, "Date"));
	assert_string_equal(v, "Sun, 09 Sep 2001 01:46:40 +0000");
	free(v);
	assert_non_null(v = header_value(eml, "From"));
	assert_string_equal(v, "GM <gm@example.org>");
	free(v);
	assert_non_null(v = header_value(eml, "To"));
	assert_string_equal(v, "France player <france@example.org>");
	free(v);
	assert_non_null(v = header_value(eml, "Subject"));
	assert_string_equal(v, "[ne-001] step 7: report for France");
	free(v);
	assert_non_null(v = header_value(eml, "Message-ID"));
	assert_string_equal(v, MSGID);
	free(v);
	assert_non_null(v = header_value(eml, "Auto-Submitted"));
	assert_string_equal(v, "auto-generated");
	free(v);
	assert_non_null(v = header_value(eml, "MIME-Version"));
	free(v);
	assert_non_null(v = header_value(eml, "Content-Type"));
	assert_string_equal(v, "text/plain; charset=utf-8");
	free(v);
	assert_null(strstr(eml, "multipart"));

	/* Quoted-printable: lines of at most 76, decoding back to the text with CRLF. */
	body = strstr(eml, "\r\n\r\n") + 4;
	body_len = len - (size_t)(body - eml);
	assert_true(longest_line(body, body_len) <= 76);
	assert_true(longest_line(body, body_len) >= 70); /* the long line was really folded */
	assert_non_null(strstr(body, "=2Ea line"));
	assert_non_null(strstr(body, "=46rom the front"));
	assert_non_null(strstr(body, "spaces  =20\r\n"));
	assert_non_null(strstr(body, "tab=09\r\n"));
	char *decoded = qp_decode(body, body_len, &decoded_len);
	char *want = calloc(1, 2 * sizeof(report_text));
	size_t w = 0;
	for (const char *p = report_text; *p; p++) {
		if (*p == '\n' && (p == report_text || p[-1] != '\r'))
			want[w++] = '\r';
		want[w++] = *p;
	}
	assert_int_equal(decoded_len, w);
	assert_memory_equal(decoded, want, w);
	free(want);
	free(decoded);
	free(eml);
}

static void test_compose_text_without_final_newline(void **state)
{
	est_mail_message msg = {.from = "gm@example.org", .to = "france@example.org",
				.message_id = MSGID, .date = DATE_2001, .text = "no newline"};
	char *eml = NULL, *body, *decoded;
	size_t len, n;

	(void)state;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_crlf_only(eml, len);
	assert_null(header_value(eml, "Subject"));
	body = strstr(eml, "\r\n\r\n") + 4;
	decoded = qp_decode(body, len - (size_t)(body - eml), &n);
	assert_string_equal(decoded, "no newline");
	free(decoded);
	free(eml);
}

static void test_compose_alternative_and_attachments(void **state)
{
	unsigned char svg[1000];
	est_mail_attachment att[] = {{.filename = "map.svg", .content_type = "image/svg+xml",
				      .data = svg, .len = sizeof(svg)}};
	const char *html = "<html><body><p>Step 7: the <b>Grande Armée</b> marches.</p>"
			   "<p>a=b</p></body></html>\n";
	const char *subject = "Tour 7 : la Grande Armée marche sur Vienne — été 1805, "
			      "rapport complet pour le joueur français";
	est_mail_message msg = {.from = "GM <gm@example.org>", .to = "france@example.org",
				.subject = subject, .message_id = MSGID, .date = DATE_2001,
				.text = report_text, .html = html, .attachments = att,
				.attachment_count = 1};
	char *eml = NULL, *eml2 = NULL, *mixed, *alt, *b64, *v, *dir = make_temp_dir();
	size_t len, len2, b64_len;
	unsigned char decoded[2000];

	(void)state;
	for (size_t i = 0; i < sizeof(svg); i++)
		svg[i] = (unsigned char)(i * 7 + 3);
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_crlf_only(eml, len);
	assert_true(longest_line(eml, len) <= 78);

	/* multipart/mixed around multipart/alternative (plain, then html), then the map. */
	mixed = boundary_of(eml, "multipart/mixed");
	alt = boundary_of(eml, "multipart/alternative");
	assert_string_not_equal(mixed, alt);
	const char *plain_at = strstr(eml, "text/plain; charset=utf-8");
	const char *html_at = strstr(eml, "text/html; charset=utf-8");
	const char *att_at = strstr(eml, "Content-Type: image/svg+xml");
	assert_true(plain_at && html_at && att_at && plain_at < html_at && html_at < att_at);
	assert_non_null(strstr(eml, "Content-Disposition: attachment; filename=\"map.svg\""));
	char *close_mixed = path_of("\r\n--%s--\r\n", mixed);
	assert_non_null(strstr(eml, close_mixed));
	assert_true(strstr(eml, close_mixed) + strlen(close_mixed) == eml + len);
	free(close_mixed);
	/* The boundaries occur only in their parameter and as delimiters starting a line. */
	for (const char *p = eml; (p = strstr(p, mixed)); p++)
		assert_true(p - eml >= 10 && (!memcmp(p - 4, "\r\n--", 4) ||
					      !memcmp(p - 10, "boundary=\"", 10)));
	for (const char *p = eml; (p = strstr(p, alt)); p++)
		assert_true(p - eml >= 10 && (!memcmp(p - 4, "\r\n--", 4) ||
					      !memcmp(p - 10, "boundary=\"", 10)));

	/* base64 in 76-column lines decodes back to the bytes. */
	b64 = part_body(att_at, "Content-Type: image/svg+xml", &b64_len);
	assert_true(longest_line(b64, b64_len) == 76);
	size_t clean = 0;
	for (size_t i = 0; i < b64_len; i++)
		if (b64[i] != '\r' && b64[i] != '\n')
			b64[clean++] = b64[i];
	int n = EVP_DecodeBlock(decoded, (unsigned char *)b64, (int)clean);
	assert_int_equal(n - (b64[clean - 1] == '=') - (b64[clean - 2] == '='), sizeof(svg));
	assert_memory_equal(decoded, svg, sizeof(svg));
	free(b64);

	/* RFC 2047 subject: encoded-words of at most 75, folded, decoding to the subject. */
	assert_non_null(v = header_value(eml, "Subject"));
	char *subject_back = q_words_decode(v);
	assert_string_equal(subject_back, subject);
	free(subject_back);
	free(v);

	/* The same message composes to the same bytes; another id, other boundaries. */
	assert_int_equal(est_mail_compose(&eml2, &len2, &msg), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(eml, eml2, len);
	free(eml2);
	msg.message_id = "<ne-001.0007.austria@estafette>";
	assert_int_equal(est_mail_compose(&eml2, &len2, &msg), 0);
	assert_null(strstr(eml2, mixed));
	assert_null(strstr(eml2, alt));
	free(eml2);

	assert_int_equal(python_reads_back(dir, eml, len, report_text, html, subject, "map.svg",
					   svg, sizeof(svg)),
			 0);
	free(mixed);
	free(alt);
	free(eml);
	remove_tree(dir);
}

/*
 * An inline image (RFC 2387, 2392): the HTML and the picture in a
 * multipart/related inside the alternative's HTML branch, the picture with
 * its Content-ID and inline disposition, the attachment after; read back by
 * Python's email package under its strict policy (a defect raises).
 */
static void test_compose_inline_image(void **state)
{
	unsigned char png[700], svg[300];
	est_mail_attachment att[] = {{.filename = "map.svg", .content_type = "image/svg+xml",
				      .data = svg, .len = sizeof(svg)}};
	est_mail_attachment img[] = {{.filename = "map.png", .content_type = "image/png",
				      .data = png, .len = sizeof(png),
				      .content_id = "<map.0007.france@estafette>"}};
	const char *html = "<html><body><p><img src=\"cid:map.0007.france@estafette\" "
			   "alt=\"map\"></p></body></html>\n";
	est_mail_message msg = {.from = "GM <gm@example.org>", .to = "france@example.org",
				.subject = "step 7", .message_id = MSGID, .date = DATE_2001,
				.text = report_text, .html = html, .attachments = att,
				.attachment_count = 1, .inline_images = img, .inline_count = 1};
	static const char script[] =
		"import sys, email, email.policy\n"
		"a = sys.argv\n"
		"m = email.message_from_bytes(open(a[1], 'rb').read(), policy=email.policy.strict)\n"
		"alt = m.get_payload()[0]\n"
		"assert alt.get_content_type() == 'multipart/alternative', alt.get_content_type()\n"
		"plain, rel = alt.get_payload()\n"
		"assert plain.get_content_type() == 'text/plain'\n"
		"assert rel.get_content_type() == 'multipart/related', rel.get_content_type()\n"
		"assert rel.get_param('type') == 'text/html'\n"
		"h, i = rel.get_payload()\n"
		"assert 'cid:map.0007.france@estafette' in h.get_content()\n"
		"assert i['Content-ID'] == '<map.0007.france@estafette>', i['Content-ID']\n"
		"assert i.get_content_disposition() == 'inline'\n"
		"assert i.get_content() == open(a[2], 'rb').read()\n"
		"atts = list(m.iter_attachments())\n"
		"assert [x.get_filename() for x in atts] == ['map.svg'], atts\n"
		"assert m.get_body(('html',)) is h\n"
		"for p in m.walk(): assert not p.defects, p.defects\n";
	char *eml = NULL, *rel, *dir = make_temp_dir(), *paths[2];
	size_t len;
	pid_t pid;
	int status = -1;

	(void)state;
	for (size_t i = 0; i < sizeof(png); i++)
		png[i] = (unsigned char)(i * 13 + 1);
	memset(svg, 'x', sizeof(svg));
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_crlf_only(eml, len);
	assert_true(longest_line(eml, len) <= 78);
	rel = boundary_of(eml, "multipart/related");
	const char *alt_at = strstr(eml, "multipart/alternative"), *rel_at = strstr(eml, rel);
	const char *html_at = strstr(eml, "Content-Type: text/html"), *png_at = strstr(eml, "image/png");
	const char *svg_at = strstr(eml, "image/svg+xml");
	assert_true(alt_at < rel_at && rel_at < html_at && html_at < png_at && png_at < svg_at);
	assert_non_null(strstr(eml, "Content-ID: <map.0007.france@estafette>\r\n"
				    "Content-Disposition: inline; filename=\"map.png\""));
	paths[0] = path_of("%s/m.eml", dir);
	paths[1] = path_of("%s/png", dir);
	assert_int_equal(est_file_write_atomic(paths[0], eml, len, 0600), 0);
	assert_int_equal(est_file_write_atomic(paths[1], png, sizeof(png), 0600), 0);
	const char *argv[] = {"/usr/bin/python3", "-c", script, paths[0], paths[1], NULL};
	assert_int_equal(posix_spawn(&pid, argv[0], NULL, NULL, (char *const *)argv, environ), 0);
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(eml);

	/* Without attachments: the alternative is the whole body, related still inside it. */
	msg.attachment_count = 0;
	msg.attachments = NULL;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_non_null(strstr(eml, "Content-Type: multipart/alternative"));
	assert_non_null(strstr(eml, "Content-Type: multipart/related; type=\"text/html\""));
	assert_null(strstr(eml, "multipart/mixed"));
	free(eml);

	/* Refused: inline images with no html; a content id not <left@right>; none at all. */
	msg.html = NULL;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "inline images but no html"));
	msg.html = html;
	img[0].content_id = "map.png";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "inline_images[].content_id"));
	img[0].content_id = NULL;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "has no content_id"));
	est_error_clear();
	free(rel);
	free(paths[0]);
	free(paths[1]);
	remove_tree(dir);
}

static void test_compose_names_and_lists(void **state)
{
	est_mail_message msg = {.from = "Joueur français <fr@example.org>",
				.to = "Smith, John <john@example.org>, \"Ann\" <ann@example.org>, "
				      "bob@example.org, J. R. <jr@example.org>",
				.message_id = MSGID, .date = DATE_2001, .text = "hi\n"};
	char *eml = NULL, *v;
	size_t len;

	(void)state;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_non_null(v = header_value(eml, "From"));
	assert_string_equal(v, "=?UTF-8?Q?Joueur_fran=C3=A7ais?= <fr@example.org>");
	free(v);
	assert_non_null(v = header_value(eml, "To"));
	assert_string_equal(v, "\"Smith, John\" <john@example.org>, Ann <ann@example.org>, "
			       "bob@example.org, \"J. R.\" <jr@example.org>");
	free(v);
	free(eml);
}

static void test_compose_non_ascii_filename(void **state)
{
	est_mail_attachment att = {.filename = "carte d'été.svg", .data = "<svg/>", .len = 6};
	est_mail_message msg = {.from = "gm@example.org", .to = "france@example.org",
				.message_id = MSGID, .date = DATE_2001, .text = "map attached\n",
				.attachments = &att, .attachment_count = 1};
	char *eml = NULL, *v;
	size_t len;

	(void)state;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_crlf_only(eml, len);
	assert_non_null(strstr(eml, "Content-Type: application/octet-stream\r\n"));
	assert_non_null(v = header_value(strstr(eml, "Content-Type: application/octet-stream"),
					 "Content-Disposition"));
	assert_string_equal(v, "attachment; filename*=utf-8''carte%20d%27%C3%A9t%C3%A9.svg");
	free(v);
	/* Without html the first part of multipart/mixed is the text itself. */
	assert_null(strstr(eml, "multipart/alternative"));
	assert_non_null(strstr(eml, "multipart/mixed"));
	free(eml);
	att.data = NULL;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
}

static void test_compose_refuses_bad_headers(void **state)
{
	est_mail_message good = {.from = "gm@example.org", .to = "France <france@example.org>",
				 .subject = "report", .message_id = MSGID, .date = DATE_2001,
				 .text = "hi\n"};
	est_mail_message msg;
	char *eml = NULL;
	size_t len;

	(void)state;
	msg = good;
	msg.subject = "report\r\nBcc: everyone@example.org";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "subject"));
	msg = good;
	msg.to = "France <france@example.org>\nBcc: spy@example.org";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.from = "gm@example.org\r";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.message_id = "<a@b>\r\nX-Injected: 1";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.message_id = "no-brackets@estafette";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.from = NULL;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "\"from\""));
	msg = good;
	msg.text = NULL;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.to = "France <fr ance@example.org>";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.subject = "bad \xff utf-8";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	msg = good;
	msg.text = "latin-1 caf\xe9\n";
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "\"text\""));
	est_mail_attachment att = {.filename = "map.svg\r\nX: y", .data = "x", .len = 1};
	msg = good;
	msg.attachments = &att;
	msg.attachment_count = 1;
	assert_int_equal(est_mail_compose(&eml, &len, &msg), EST_EINVAL);
	assert_null(eml);
	/* and the good one composes */
	assert_int_equal(est_mail_compose(&eml, &len, &good), 0);
	free(eml);
}

static void test_compose_folds_long_headers(void **state)
{
	char subject[3000], *eml = NULL;
	size_t len, at = 0;
	est_mail_message msg = {.from = "gm@example.org", .to = "france@example.org",
				.subject = subject, .message_id = MSGID, .date = DATE_2001,
				.text = "hi\n"};

	(void)state;
	while (at < 2900)
		at += (size_t)snprintf(subject + at, sizeof(subject) - at, "word%zu ", at);
	subject[at - 1] = '\0';
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_true(longest_line(eml, len) <= 78);
	char *v = header_value(eml, "Subject");
	assert_string_equal(v, subject);
	free(v);
	free(eml);

	/* A 1500-octet word cannot be folded: it is sent as encoded-words. */
	memset(subject, 'x', 1500);
	subject[1500] = '\0';
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_true(longest_line(eml, len) <= 998);
	v = header_value(eml, "Subject");
	char *back = q_words_decode(v);
	assert_string_equal(back, subject);
	free(back);
	free(v);
	free(eml);
}

/* ---- outbox ---- */

static const char *const france_rcpt[] = {"france@example.org"};

static void test_outbox_put_is_idempotent(void **state)
{
	char *home = make_temp_dir(), *dir = NULL, *path, *data, **names = NULL;
	struct stat st;
	size_t len, count;
	int queued = -1, found = -1;

	(void)state;
	assert_int_equal(est_mail_outbox_has(&found, home, "ne-001", "0007-france"), 0);
	assert_int_equal(found, 0);
	assert_int_equal(est_mail_outbox_dir(&dir, home, "ne-001"), 0);
	path = path_of("%s/outbox/ne-001", home);
	assert_string_equal(dir, path);
	free(path);

	assert_int_equal(est_mail_outbox_put(&queued, home, "ne-001", "0007-france", "gm@example.org",
					     france_rcpt, 1, "first\r\n", 7),
			 0);
	assert_int_equal(queued, 1);
	path = path_of("%s/pending/0007-france.eml", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	free(path);
	path = path_of("%s/pending", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	free(path);
	path = path_of("%s/pending/0007-france.json", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	json_t *env = json_load_file(path, 0, NULL);
	assert_non_null(env);
	assert_string_equal(json_string_value(json_object_get(env, "from")), "gm@example.org");
	assert_int_equal(json_array_size(json_object_get(env, "to")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(env, "to"), 0)),
			    "france@example.org");
	json_decref(env);
	free(path);

	/* A second run asks first, or queues nothing and changes nothing. */
	assert_int_equal(est_mail_outbox_has(&found, home, "ne-001", "0007-france"), 0);
	assert_int_equal(found, 1);
	assert_int_equal(est_mail_outbox_has(&found, home, "ne-001", "0008-france"), 0);
	assert_int_equal(found, 0);
	assert_int_equal(est_mail_outbox_has(&found, home, "ne-001", "../escape"), EST_EINVAL);
	assert_int_equal(est_mail_outbox_has(&found, home, "ne/001", "0007-france"), EST_EINVAL);
	queued = -1;
	assert_int_equal(est_mail_outbox_put(&queued, home, "ne-001", "0007-france", "gm@example.org",
					     france_rcpt, 1, "second\r\n", 8),
			 0);
	assert_int_equal(queued, 0);
	path = path_of("%s/pending/0007-france.eml", dir);
	assert_non_null(data = read_all(path, &len));
	assert_string_equal(data, "first\r\n");
	free(data);
	free(path);

	assert_int_equal(est_mail_outbox_list(&names, &count, home, "ne-001", "pending"), 0);
	assert_int_equal(count, 1);
	assert_string_equal(names[0], "0007-france");
	est_mail_names_free(names, count);
	assert_int_equal(est_mail_outbox_list(&names, &count, home, "ne-001", "sent"), 0);
	assert_int_equal(count, 0);
	est_mail_names_free(names, count);

	/* Bad names and envelopes are refused. */
	assert_int_equal(est_mail_outbox_put(&queued, home, "ne-001", "../escape", "gm@example.org",
					     france_rcpt, 1, "x", 1),
			 EST_EINVAL);
	assert_int_equal(est_mail_outbox_put(&queued, home, "ne/001", "0007-france", "gm@example.org",
					     france_rcpt, 1, "x", 1),
			 EST_EINVAL);
	assert_int_equal(est_mail_outbox_put(&queued, home, "ne-001", "..", "gm@example.org",
					     france_rcpt, 1, "x", 1),
			 EST_EINVAL);
	assert_int_equal(est_mail_outbox_put(&queued, home, "ne-001", "0008-france", "gm@example.org",
					     france_rcpt, 0, "x", 1),
			 EST_EINVAL);
	const char *bad_rcpt[] = {"france@example.org>\r\nRCPT TO:<spy@example.org"};
	assert_int_equal(est_mail_outbox_put(&queued, home, "ne-001", "0008-france", "gm@example.org",
					     bad_rcpt, 1, "x", 1),
			 EST_EINVAL);
	assert_int_equal(est_mail_outbox_list(&names, &count, home, "ne-001", "trash"), EST_EINVAL);
	free(dir);
	remove_tree(home);
}

/* Queued without the folder's sync: the same message, pending, idempotent; the sync checks its folder. */
static void test_outbox_put_unsynced(void **state)
{
	char *home = make_temp_dir(), *path, *data, **names = NULL;
	size_t len, count;
	int queued = -1;

	(void)state;
	assert_int_equal(est_mail_outbox_sync(home, "ne-001"), EST_EIO);
	assert_int_equal(est_mail_outbox_sync(home, "../ne-001"), EST_EINVAL);
	assert_int_equal(est_mail_outbox_put_unsynced(&queued, home, "ne-001", "0007-france", "gm@example.org",
						      france_rcpt, 1, "first\r\n", 7),
			 0);
	assert_int_equal(queued, 1);
	assert_int_equal(est_mail_outbox_sync(home, "ne-001"), 0);
	path = path_of("%s/outbox/ne-001/pending/0007-france.eml", home);
	assert_non_null(data = read_all(path, &len));
	assert_string_equal(data, "first\r\n");
	free(data);
	free(path);
	assert_int_equal(est_mail_outbox_put_unsynced(&queued, home, "ne-001", "0007-france", "gm@example.org",
						      france_rcpt, 1, "second\r\n", 8),
			 0);
	assert_int_equal(queued, 0);
	assert_int_equal(est_mail_outbox_put_unsynced(&queued, home, "ne-001", "../escape", "gm@example.org",
						      france_rcpt, 1, "x", 1),
			 EST_EINVAL);
	assert_int_equal(est_mail_outbox_list(&names, &count, home, "ne-001", "pending"), 0);
	assert_int_equal(count, 1);
	est_mail_names_free(names, count);
	remove_tree(home);
}

static void test_outbox_put_after_a_half_written_message(void **state)
{
	char *home = make_temp_dir(), *path, *path2, *data, **names = NULL;
	size_t count;
	int queued, found = -1;

	(void)state;
	/* A crash between the .eml and the .json: the message is not pending... */
	path = path_of("%s/outbox/g/pending", home);
	assert_int_equal(est_mkdir_p(path, 0700), 0);
	free(path);
	path = path_of("%s/outbox/g/pending/0001-france.eml", home);
	assert_int_equal(est_file_write_atomic(path, "torn", 4, 0600), 0);
	assert_int_equal(est_mail_outbox_list(&names, &count, home, "g", "pending"), 0);
	assert_int_equal(count, 0);
	est_mail_names_free(names, count);
	assert_int_equal(est_mail_outbox_has(&found, home, "g", "0001-france"), 0);
	assert_int_equal(found, 0);
	/* An envelope alone (its .eml lost) is not a message either. */
	path2 = path_of("%s/outbox/g/pending/0002-france.json", home);
	assert_int_equal(est_file_write_atomic(path2, "{}", 2, 0600), 0);
	assert_int_equal(est_mail_outbox_list(&names, &count, home, "g", "pending"), 0);
	assert_int_equal(count, 0);
	est_mail_names_free(names, count);
	free(path2);
	/* ...and the next run writes it whole. */
	assert_int_equal(est_mail_outbox_put(&queued, home, "g", "0001-france", "gm@example.org",
					     france_rcpt, 1, "whole\r\n", 7),
			 0);
	assert_int_equal(queued, 1);
	assert_non_null(data = read_all(path, NULL));
	assert_string_equal(data, "whole\r\n");
	free(data);
	free(path);
	assert_int_equal(est_mail_outbox_list(&names, &count, home, "g", "pending"), 0);
	assert_int_equal(count, 1);
	assert_string_equal(names[0], "0001-france");
	est_mail_names_free(names, count);
	remove_tree(home);
}

/* The pid of a process that has exited and been reaped. */
static int dead_pid(void)
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, &status, 0);
	return (int)pid;
}

static void test_deliver_without_server_keeps_everything(void **state)
{
	char *home = make_temp_dir();
	size_t sent = 9, pending = 9;
	int queued;
	est_mail_smtp none = {.url = ""};

	(void)state;
	assert_int_equal(est_mail_outbox_put(&queued, home, "g", "0001-france", "gm@example.org",
					     france_rcpt, 1, "a\r\n", 3),
			 0);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, home, "g", NULL), 0);
	assert_int_equal(sent, 0);
	assert_int_equal(pending, 1);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, home, "g", &none), 0);
	assert_int_equal(pending, 1);
	assert_true(exists_fmt("%s/outbox/g/pending/0001-france.eml", home));

	/* Temporary files of a killed run go (reaped or zombie); a live process's stay. */
	pid_t zombie = fork();
	assert_true(zombie >= 0);
	if (zombie == 0)
		_exit(0);
	usleep(100 * 1000); /* let it exit, unreaped */
	char *dead = path_of("%s/outbox/g/pending/0002-austria.eml.tmp.%d", home, dead_pid());
	char *undead = path_of("%s/outbox/g/pending/0002-austria.json.tmp.%d", home, (int)zombie);
	char *live = path_of("%s/outbox/g/pending/0003-prussia.json.tmp.%d", home, (int)getpid());
	assert_int_equal(est_file_write_atomic(dead, "torn", 4, 0600), 0);
	assert_int_equal(est_file_write_atomic(undead, "torn", 4, 0600), 0);
	assert_int_equal(est_file_write_atomic(live, "torn", 4, 0600), 0);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, home, "g", NULL), 0);
	assert_int_equal(pending, 1);
	assert_false(est_path_exists(dead));
	assert_false(est_path_exists(undead));
	assert_true(est_path_exists(live));
	int status;
	waitpid(zombie, &status, 0);
	unlink(live);
	free(dead);
	free(undead);
	free(live);

	/* A move cut short by a crash (the .eml already in sent/) is finished, not resent. */
	char *from = path_of("%s/outbox/g/pending/0001-france.eml", home);
	char *to = path_of("%s/outbox/g/sent/0001-france.eml", home);
	assert_int_equal(rename(from, to), 0);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, home, "g", NULL), 0);
	assert_int_equal(pending, 0);
	assert_true(exists_fmt("%s/outbox/g/sent/0001-france.json", home));
	assert_false(exists_fmt("%s/outbox/g/pending/0001-france.json", home));
	assert_int_equal(est_mail_outbox_put(&queued, home, "g", "0001-france", "gm@example.org",
					     france_rcpt, 1, "a\r\n", 3),
			 0);
	assert_int_equal(queued, 0);
	/* An envelope alone whose .eml is in neither folder is no move: it stays. */
	char *alone = path_of("%s/outbox/g/pending/0009-spain.json", home);
	assert_int_equal(est_file_write_atomic(alone, "{}", 2, 0600), 0);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, home, "g", NULL), 0);
	assert_int_equal(pending, 0);
	assert_true(est_path_exists(alone));
	assert_false(exists_fmt("%s/outbox/g/sent/0009-spain.json", home));
	free(alone);
	free(from);
	free(to);
	remove_tree(home);
}

/* ---- delivery to a real server ---- */

struct three {
	char *home, *root;
	char *eml[3];
	size_t len[3];
};

static const char *const three_names[] = {"0001-france", "0002-austria", "0003-prussia"};
static const char *three_rcpts[] = {"france@example.org", "austria@example.org",
				    "prussia@example.org"};

/* Compose and queue three reports; the second goes to `second_rcpt`. */
static void queue_three(struct three *t, const char *second_rcpt)
{
	t->home = make_temp_dir();
	t->root = make_temp_dir();
	for (int i = 0; i < 3; i++) {
		const char *rcpt = i == 1 && second_rcpt ? second_rcpt : three_rcpts[i];
		char *to = path_of("Player <%s>", rcpt), *id = path_of("<g.0001.%d@estafette>", i);
		char *text = path_of("Report %d.\n.\n..leading dots survive SMTP\n", i);
		est_mail_message msg = {.from = "GM <gm@example.org>", .to = to,
					.subject = "step 1 report", .message_id = id,
					.date = DATE_2001, .text = text, .html = "<p>report</p>"};
		const char *rcpts[] = {rcpt, "archive@example.org"};
		int queued;

		assert_int_equal(est_mail_compose(&t->eml[i], &t->len[i], &msg), 0);
		assert_int_equal(est_mail_outbox_put(&queued, t->home, "g", three_names[i],
						     "gm@example.org", rcpts, 2, t->eml[i],
						     t->len[i]),
				 0);
		assert_int_equal(queued, 1);
		free(to);
		free(id);
		free(text);
	}
}

static void three_free(struct three *t)
{
	for (int i = 0; i < 3; i++)
		free(t->eml[i]);
	remove_tree(t->home);
	remove_tree(t->root);
}

static size_t count_names(const char *home, const char *which)
{
	char **names = NULL;
	size_t count = 0;

	assert_int_equal(est_mail_outbox_list(&names, &count, home, "g", which), 0);
	est_mail_names_free(names, count);
	return count;
}

/* The server's message number `n` came with this envelope (and on this session, if > 0). */
static void assert_envelope(const struct server *srv, int n, const char *rcpt, int session)
{
	char *path = path_of("%s/%04d.json", srv->dir, n);
	json_t *meta, *to;

	assert_non_null(meta = json_load_file(path, 0, NULL));
	assert_string_equal(json_string_value(json_object_get(meta, "mail_from")), "gm@example.org");
	to = json_object_get(meta, "rcpt_tos");
	assert_int_equal(json_array_size(to), 2);
	assert_string_equal(json_string_value(json_array_get(to, 0)), rcpt);
	assert_string_equal(json_string_value(json_array_get(to, 1)), "archive@example.org");
	if (session > 0)
		assert_int_equal(json_integer_value(json_object_get(meta, "session")), session);
	json_decref(meta);
	free(path);
}

static void assert_same_bytes(const struct server *srv, int n, const struct three *t, int i)
{
	char *path = path_of("%s/%04d.eml", srv->dir, n), *data;
	size_t len;

	assert_non_null(data = read_all(path, &len));
	assert_int_equal(len, t->len[i]);
	assert_memory_equal(data, t->eml[i], len);
	free(data);
	free(path);
}

static est_mail_smtp smtp_to(char *url, size_t size, int port)
{
	snprintf(url, size, "smtp://127.0.0.1:%d", port);
	return (est_mail_smtp){.url = url, .timeout_seconds = 10};
}

static int came_over_tls(const struct server *srv, int n);

static void test_deliver_three_over_one_connection(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], *log;
	size_t sent, pending;

	(void)state;
	queue_three(&t, NULL);
	server_start(&srv, t.root, 0, NULL);
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 3);
	assert_int_equal(pending, 0);
	for (int i = 0; i < 3; i++) {
		assert_envelope(&srv, i + 1, three_rcpts[i], 1);
		assert_same_bytes(&srv, i + 1, &t, i);
		assert_false(came_over_tls(&srv, i + 1)); /* the server offered no STARTTLS */
	}
	log = path_of("%s/connections.log", srv.dir);
	assert_int_equal(count_lines(log), 1);
	assert_int_equal(count_names(t.home, "pending"), 0);
	assert_int_equal(count_names(t.home, "sent"), 3);
	assert_true(exists_fmt("%s/outbox/g/sent/0002-austria.json", t.home));

	/* A second run sends nothing. */
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 0);
	assert_int_equal(pending, 0);
	assert_false(exists_fmt("%s/0004.eml", srv.dir));
	assert_int_equal(count_lines(log), 1);
	free(log);
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_when_server_is_down_then_up(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], *folder;
	size_t sent = 9, pending = 9;
	int port = free_port();

	(void)state;
	queue_three(&t, NULL);
	est_mail_smtp smtp = smtp_to(url, sizeof(url), port);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp),
			 EST_ETEMPFAIL);
	assert_int_equal(sent, 0);
	assert_int_equal(pending, 3);
	folder = path_of("%s/outbox/g/pending", t.home);
	assert_non_null(strstr(est_error_message(), folder));
	assert_non_null(strstr(est_error_message(), "3 messages wait"));
	free(folder);
	assert_int_equal(count_names(t.home, "pending"), 3);

	server_start(&srv, t.root, port, NULL);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 3);
	assert_int_equal(pending, 0);
	for (int i = 0; i < 3; i++)
		assert_same_bytes(&srv, i + 1, &t, i);
	assert_false(exists_fmt("%s/0004.eml", srv.dir));
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_retries_after_451(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64];
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	server_start(&srv, t.root, 0, (const char *[]){"--reject-first", "1", NULL});
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);
	/* 4xx stops the run: the first stays pending, and the rest wait behind it. */
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp),
			 EST_ETEMPFAIL);
	assert_non_null(strstr(est_error_message(), "451"));
	assert_non_null(strstr(est_error_message(), "0001-france.eml"));
	assert_int_equal(sent, 0);
	assert_int_equal(pending, 3);
	assert_false(exists_fmt("%s/0001.eml", srv.dir));
	assert_true(exists_fmt("%s/outbox/g/pending/0001-france.eml", t.home));

	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 3);
	assert_int_equal(pending, 0);
	for (int i = 0; i < 3; i++) {
		assert_envelope(&srv, i + 1, three_rcpts[i], 0);
		assert_same_bytes(&srv, i + 1, &t, i);
	}
	assert_false(exists_fmt("%s/0004.eml", srv.dir));
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_skips_a_refused_message(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], **names = NULL;
	size_t sent = 9, pending = 9, count;

	(void)state;
	queue_three(&t, "nobody@example.org");
	server_start(&srv, t.root, 0, (const char *[]){"--reject-rcpt", "nobody@example.org", NULL});
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);
	/* 5xx for one message: it stays pending, the others still go. */
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp),
			 EST_ETEMPFAIL);
	assert_non_null(strstr(est_error_message(), "0002-austria.eml"));
	assert_non_null(strstr(est_error_message(), "550"));
	assert_int_equal(sent, 2);
	assert_int_equal(pending, 1);
	assert_int_equal(est_mail_outbox_list(&names, &count, t.home, "g", "pending"), 0);
	assert_int_equal(count, 1);
	assert_string_equal(names[0], "0002-austria");
	est_mail_names_free(names, count);
	assert_same_bytes(&srv, 1, &t, 0);
	assert_same_bytes(&srv, 2, &t, 2);
	assert_false(exists_fmt("%s/0003.eml", srv.dir));
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_skips_a_broken_envelope(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], *json;
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	json = path_of("%s/outbox/g/pending/0001-france.json", t.home);
	assert_int_equal(est_file_write_atomic(json, "{\"from\": ", 9, 0600), 0);
	server_start(&srv, t.root, 0, NULL);
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp),
			 EST_ETEMPFAIL);
	assert_non_null(strstr(est_error_message(), json));
	assert_int_equal(sent, 2);
	assert_int_equal(pending, 1);
	assert_same_bytes(&srv, 1, &t, 1);
	assert_same_bytes(&srv, 2, &t, 2);
	free(json);
	server_stop(&srv);
	three_free(&t);
}

static void assert_logged_in_as(const struct server *srv, int n, const char *user)
{
	char *path = path_of("%s/%04d.json", srv->dir, n);
	json_t *meta = json_load_file(path, 0, NULL);

	assert_non_null(meta);
	assert_string_equal(json_string_value(json_object_get(meta, "auth")), user);
	json_decref(meta);
	free(path);
}

static void test_deliver_logs_in(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64];
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	server_start(&srv, t.root, 0, (const char *[]){"--auth", "gm:s3cret pass", NULL});
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);

	/* No credentials: 530 authentication required is a configuration error. */
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), EST_ECONFIG);
	assert_int_equal(pending, 3);
	/* A wrong password: 535, and the message does not show it. */
	smtp.username = "gm";
	smtp.password = "wrong-password";
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), EST_ECONFIG);
	assert_null(strstr(est_error_message(), "wrong-password"));
	assert_non_null(strstr(est_error_message(), "fix the SMTP settings"));
	assert_int_equal(pending, 3);
	assert_false(exists_fmt("%s/0001.eml", srv.dir));

	smtp.password = "s3cret pass";
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 3);
	for (int i = 0; i < 3; i++) {
		assert_logged_in_as(&srv, i + 1, "gm");
		assert_same_bytes(&srv, i + 1, &t, i);
	}
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_reads_netrc(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], *netrc, *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	const char *entry = "machine 127.0.0.1 login gm password netrc-secret\n";
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	server_start(&srv, t.root, 0, (const char *[]){"--auth", "gm:netrc-secret", NULL});
	/* curl reads $HOME/.netrc: point HOME at a folder of the test's own. */
	netrc = path_of("%s/.netrc", t.root);
	assert_int_equal(est_file_write_atomic(netrc, entry, strlen(entry), 0600), 0);
	setenv("HOME", t.root, 1);
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);
	smtp.netrc = 1;
	int error = est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_home);
	assert_int_equal(error, 0);
	assert_int_equal(sent, 3);
	assert_logged_in_as(&srv, 1, "gm");
	free(netrc);
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_requires_tls_when_told(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64];
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	server_start(&srv, t.root, 0, NULL); /* offers no STARTTLS */
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);
	smtp.require_tls = 1;
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), EST_ECONFIG);
	assert_int_equal(sent, 0);
	assert_int_equal(pending, 3);
	assert_false(exists_fmt("%s/0001.eml", srv.dir));
	server_stop(&srv);
	three_free(&t);
}

static void test_deliver_gives_up_on_a_silent_server(void **state)
{
	struct three t;
	struct sockaddr_in addr = {.sin_family = AF_INET};
	socklen_t addr_len = sizeof(addr);
	char url[64];
	size_t sent = 9, pending = 9;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	time_t started;

	(void)state;
	/* Listening, so the connection is made, but never a greeting. */
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), 0);
	assert_int_equal(listen(fd, 8), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&addr, &addr_len), 0);
	queue_three(&t, NULL);
	est_mail_smtp smtp = smtp_to(url, sizeof(url), ntohs(addr.sin_port));
	smtp.timeout_seconds = 1;
	started = time(NULL);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp),
			 EST_ETEMPFAIL);
	assert_true(time(NULL) - started <= 5);
	assert_int_equal(sent, 0);
	assert_int_equal(pending, 3);
	close(fd);
	three_free(&t);
}

static int run_program(const char *const *argv)
{
	posix_spawn_file_actions_t actions;
	pid_t pid;
	int status = -1;

	assert_int_equal(posix_spawn_file_actions_init(&actions), 0);
	assert_int_equal(posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0), 0);
	assert_int_equal(posix_spawn(&pid, argv[0], &actions, NULL, (char *const *)argv, environ), 0);
	posix_spawn_file_actions_destroy(&actions);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A self-signed certificate for 127.0.0.1 made by openssl(1): ROOT/cert.pem, key.pem. */
static void make_certificate(const char *root, char **cert, char **key)
{
	*cert = path_of("%s/cert.pem", root);
	*key = path_of("%s/key.pem", root);
	const char *argv[] = {"/usr/bin/openssl", "req", "-x509", "-newkey", "ec",
			      "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", *key,
			      "-out", *cert, "-days", "2", "-subj", "/CN=127.0.0.1",
			      "-addext", "subjectAltName=IP:127.0.0.1", NULL};

	assert_int_equal(run_program(argv), 0);
}

static int came_over_tls(const struct server *srv, int n)
{
	char *path = path_of("%s/%04d.json", srv->dir, n);
	json_t *meta = json_load_file(path, 0, NULL);
	int tls;

	assert_non_null(meta);
	tls = json_is_true(json_object_get(meta, "tls"));
	json_decref(meta);
	free(path);
	return tls;
}

static void test_deliver_uses_starttls_when_offered(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], *cert, *key;
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	make_certificate(t.root, &cert, &key);
	server_start(&srv, t.root, 0, (const char *[]){"--tls-cert", cert, "--tls-key", key, NULL});
	est_mail_smtp smtp = smtp_to(url, sizeof(url), srv.port);

	/* The server offers STARTTLS, so it is used, and its certificate checked. */
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), EST_ECONFIG);
	assert_int_equal(pending, 3);
	assert_false(exists_fmt("%s/0001.eml", srv.dir));
	smtp.ca_file = cert;
	smtp.require_tls = 1;
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(came_over_tls(&srv, i + 1));
		assert_same_bytes(&srv, i + 1, &t, i);
	}
	/* One connection refused by the certificate check, then one for all three. */
	char *log = path_of("%s/connections.log", srv.dir);
	assert_int_equal(count_lines(log), 2);
	free(log);
	server_stop(&srv);
	free(cert);
	free(key);
	three_free(&t);
}

static void test_deliver_over_smtps(void **state)
{
	struct three t;
	struct server srv = {0};
	char url[64], *cert, *key;
	size_t sent = 9, pending = 9;

	(void)state;
	queue_three(&t, NULL);
	make_certificate(t.root, &cert, &key);
	server_start(&srv, t.root, 0,
		     (const char *[]){"--tls-cert", cert, "--tls-key", key, "--smtps", NULL});
	snprintf(url, sizeof(url), "smtps://127.0.0.1:%d", srv.port);
	est_mail_smtp smtp = {.url = url, .timeout_seconds = 10, .ca_file = cert};
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), 0);
	assert_int_equal(sent, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(came_over_tls(&srv, i + 1));
		assert_same_bytes(&srv, i + 1, &t, i);
	}
	server_stop(&srv);
	free(cert);
	free(key);
	three_free(&t);
}

static void test_deliver_refuses_a_bad_url(void **state)
{
	struct three t;
	size_t sent, pending;
	est_mail_smtp smtp = {.url = "http://user:secret@127.0.0.1:1/", .timeout_seconds = 5};

	(void)state;
	queue_three(&t, NULL);
	assert_int_equal(est_mail_outbox_deliver(&sent, &pending, t.home, "g", &smtp), EST_ECONFIG);
	assert_null(strstr(est_error_message(), "secret"));
	assert_int_equal(pending, 3);
	three_free(&t);
}

/* ---- Message-IDs ---- */

/* 1 if `s` is n lower-case hex digits followed by `rest`. */
static int hex_then(const char *s, size_t n, const char *rest)
{
	return strspn(s, "0123456789abcdef") == n && strcmp(s + n, rest) == 0;
}

static void test_message_id_form_and_randomness(void **state)
{
	char *a = NULL, *b = NULL, *eml = NULL;
	size_t len;

	(void)state;
	assert_int_equal(est_mail_message_id(&a, "gm.example.org", "ne-001", "0007-france"), 0);
	assert_int_equal(est_mail_message_id(&b, "gm.example.org", "ne-001", "0007-france"), 0);
	assert_true(a[0] == '<' && hex_then(a + 1, 32, ".ne-001.0007-france@gm.example.org>"));
	assert_string_not_equal(a, b); /* made anew each time: the outbox keeps the first */
	/* what compose accepts, and its boundaries stay apart from the id's bytes */
	est_mail_message msg = {.from = "gm@example.org", .to = "france@example.org",
				.message_id = a, .date = DATE_2001, .text = "t\n", .html = "<p>t</p>"};
	assert_int_equal(est_mail_compose(&eml, &len, &msg), 0);
	assert_non_null(strstr(eml, "=_est_"));
	free(eml);
	free(b);
	free(a);
}

static void test_message_id_keeps_names_dot_atoms(void **state)
{
	char *id = NULL;

	(void)state;
	/* ".." , a leading or trailing "." and anything outside [A-Za-z0-9._-] become "-" */
	assert_int_equal(est_mail_message_id(&id, "h.example", ".g..x.", "a b@c<d>.e."), 0);
	assert_true(hex_then(id + 1, 32, ".-g.-x-.a-b-c-d-.e-@h.example>"));
	free(id);
	assert_int_equal(est_mail_message_id(&id, "h.example", "", "n"), EST_EINVAL);
	assert_null(id);
}

static void test_message_id_domain_is_checked(void **state)
{
	static const char *const good[] = {"localhost", "a.b", "gm-box.example.org", "x1.y2"};
	static const char *const bad[] = {"", ".a", "a.", "a..b", "-a.b", "a-.b", "a_b.c", "a b",
					  "a@b", "a>b", "é.fr"};
	char *id = NULL, label[70], *long_name;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++)
		assert_int_equal(est_mail_check_domain(good[i], "domain"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		assert_int_equal(est_mail_check_domain(bad[i], "domain"), EST_EINVAL);
		assert_non_null(strstr(est_error_message(), "not a domain name"));
		assert_int_equal(est_mail_message_id(&id, bad[i], "g", "n"), EST_EINVAL);
	}
	memset(label, 'a', 64);
	label[64] = '\0';
	assert_int_equal(est_mail_check_domain(label, "domain"), EST_EINVAL); /* a label over 63 */
	label[63] = '\0';
	assert_int_equal(est_mail_check_domain(label, "domain"), 0);
	long_name = calloc(300, 1);
	assert_non_null(long_name);
	for (size_t i = 0; i < 254; i++)
		long_name[i] = i % 2 ? '.' : 'a';
	long_name[253] = 'a';
	long_name[254] = '\0';
	assert_int_equal(est_mail_check_domain(long_name, "domain"), EST_EINVAL); /* over 253 */
	long_name[253] = '\0';
	assert_int_equal(est_mail_check_domain(long_name, "domain"), 0);
	free(long_name);
}

static void test_host_domain_is_a_domain(void **state)
{
	char *domain = NULL;

	(void)state;
	assert_int_equal(est_mail_host_domain(&domain), 0);
	assert_int_equal(est_mail_check_domain(domain, "host"), 0);
	free(domain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_compose_text_only, clean_up),
		cmocka_unit_test(test_message_id_form_and_randomness),
		cmocka_unit_test(test_message_id_keeps_names_dot_atoms),
		cmocka_unit_test(test_message_id_domain_is_checked),
		cmocka_unit_test(test_host_domain_is_a_domain),
		cmocka_unit_test_teardown(test_compose_text_without_final_newline, clean_up),
		cmocka_unit_test_teardown(test_compose_alternative_and_attachments, clean_up),
		cmocka_unit_test_teardown(test_compose_inline_image, clean_up),
		cmocka_unit_test_teardown(test_compose_names_and_lists, clean_up),
		cmocka_unit_test_teardown(test_compose_non_ascii_filename, clean_up),
		cmocka_unit_test_teardown(test_compose_refuses_bad_headers, clean_up),
		cmocka_unit_test_teardown(test_compose_folds_long_headers, clean_up),
		cmocka_unit_test_teardown(test_outbox_put_is_idempotent, clean_up),
		cmocka_unit_test_teardown(test_outbox_put_unsynced, clean_up),
		cmocka_unit_test_teardown(test_outbox_put_after_a_half_written_message, clean_up),
		cmocka_unit_test_teardown(test_deliver_without_server_keeps_everything, clean_up),
		cmocka_unit_test_teardown(test_deliver_three_over_one_connection, clean_up),
		cmocka_unit_test_teardown(test_deliver_when_server_is_down_then_up, clean_up),
		cmocka_unit_test_teardown(test_deliver_retries_after_451, clean_up),
		cmocka_unit_test_teardown(test_deliver_skips_a_refused_message, clean_up),
		cmocka_unit_test_teardown(test_deliver_skips_a_broken_envelope, clean_up),
		cmocka_unit_test_teardown(test_deliver_logs_in, clean_up),
		cmocka_unit_test_teardown(test_deliver_reads_netrc, clean_up),
		cmocka_unit_test_teardown(test_deliver_requires_tls_when_told, clean_up),
		cmocka_unit_test_teardown(test_deliver_uses_starttls_when_offered, clean_up),
		cmocka_unit_test_teardown(test_deliver_over_smtps, clean_up),
		cmocka_unit_test_teardown(test_deliver_gives_up_on_a_silent_server, clean_up),
		cmocka_unit_test_teardown(test_deliver_refuses_a_bad_url, clean_up),
	};
	int failed;

	curl_global_init(CURL_GLOBAL_DEFAULT);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	curl_global_cleanup();
	return failed;
}
