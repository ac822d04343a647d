/*
 * internal/mail intake: messages built by tests/helpers/make_mail.py, the
 * way real clients mangle them, around order files signed by the real
 * ssh-keygen. Every candidate found is checked with `ssh-keygen -Y verify`
 * on the bytes the intake hands out, so nothing here trusts the intake's
 * own idea of what was signed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mail/intake.h"
#include "util/error.h"
#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#define FROM "anne@example.org"

static char dir[] = "/tmp/estafette-intake-XXXXXX";
static char *order_new, *order_old; /* the signed files, seq 2 and seq 1 */
static size_t order_new_len, order_old_len;
static char *order_win; /* the seq-2 file as Notepad saves it: CRLF, no final line end; signed */
static size_t order_win_len;

/* Run a shell command; 1 if it exited 0. */
static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	status = system(cmd);
	return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static void write_file(const char *name, const char *data, size_t len)
{
	char *path = est_strdup_printf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	free(path);
}

static char *read_file(size_t *len, const char *name)
{
	char *path = est_strdup_printf("%s/%s", dir, name);
	char *data = NULL;

	assert_int_equal(est_file_read(&data, len, path, 0), 0);
	free(path);
	return data;
}

/* An order file as a player's tool writes it: UTF-8, with accents in the
 * press (all of them in Latin-1, so the latin1 style can carry them). */
static void write_order(const char *name, int seq)
{
	char *json = est_strdup_printf(
		"{\n  \"estafette\": \"orders/1\",\n  \"game\": \"ne-001\",\n  \"step\": 7,\n"
		"  \"player\": \"france\",\n  \"prev\": \"%s\",\n  \"seq\": %d,\n"
		"  \"entropy\": \"%s\",\n  \"orders\": [\n    {\n      \"move\": \"Paris\",\n"
		"      \"to\": \"Lyon\"\n    }\n  ],\n  \"press\": [\n    {\n"
		"      \"to\": \"allies\",\n      \"text\": \"Vive l'Empereur ! L'arm\xc3\xa9" "e "
		"d'Italie marche sur Milan {sans} d\xc3\xa9lai, \\\"vite\\\" et en bon ordre, "
		"avant l'hiver, seq %d.\"\n    }\n  ]\n}\n",
		"5e1f0c2a9b7d3e4f60718293a4b5c6d7e8f90123456789abcdef0123456789ab", seq,
		seq == 1 ? "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0"
			 : "aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55aa55",
		seq);

	write_file(name, json, strlen(json));
	free(json);
	assert_true(run("ssh-keygen -q -Y sign -f %s/key -n estafette-orders %s/%s", dir, dir, name));
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	if (!run("ssh-keygen -q -t ed25519 -N '' -C anne -f %s/key", dir))
		return -1;
	if (!run("printf 'france %%s\\n' \"$(cut -d' ' -f1,2 %s/key.pub)\" > %s/allowed", dir, dir))
		return -1;
	write_order("new.json", 2);
	write_order("old.json", 1);
	order_new = read_file(&order_new_len, "new.json");
	order_old = read_file(&order_old_len, "old.json");
	if (!run("sed -e 's/$/\\r/' %s/new.json | head -c -2 > %s/win.json && "
		 "ssh-keygen -q -Y sign -f %s/key -n estafette-orders %s/win.json", dir, dir, dir, dir))
		return -1;
	order_win = read_file(&order_win_len, "win.json");
	return 0;
}

static int teardown(void **state)
{
	free(order_new);
	free(order_old);
	free(order_win);
	return est_remove_tree(dir) == 0 ? 0 : -1;
}

/* The message make_mail.py writes for STYLE around the order file FILE, parsed. */
static est_intake_message *parse_file_style(const char *style, const char *file, const char *return_path)
{
	est_intake_message *m = NULL;
	char *name = est_strdup_printf("%s.eml", style), *eml;
	size_t len;

	assert_true(run("/usr/bin/python3 %s/tests/helpers/make_mail.py %s --order %s/%s "
			"--sig %s/%s.sig --older %s/old.json --older-sig %s/old.json.sig "
			"--from " FROM " --to gm@example.org > %s/%s",
			EST_SOURCE_DIR, style, dir, file, dir, file, dir, dir, dir, name));
	eml = read_file(&len, name);
	if (est_intake_parse(&m, eml, len, return_path) < 0)
		fail_msg("%s: %s", style, est_error_message());
	assert_string_equal(m->from, strcmp(style, "bounce") ? FROM : "MAILER-DAEMON@mx.example.org");
	free(eml);
	free(name);
	return m;
}

static est_intake_message *parse_style(const char *style, const char *return_path)
{
	return parse_file_style(style, "new.json", return_path);
}

/* 1 if ssh-keygen says `sig` is france's signature over `order`. */
static int verifies_pair(const est_intake_bytes *order, const est_intake_bytes *sig)
{
	write_file("cand.json", order->bytes, order->len);
	write_file("cand.json.sig", sig->bytes, sig->len);
	return run("ssh-keygen -Y verify -f %s/allowed -I france -n estafette-orders "
		   "-s %s/cand.json.sig < %s/cand.json > /dev/null 2>&1", dir, dir, dir);
}

/* The first reading of the candidate that ssh-keygen verifies with one of its signatures, or NULL. */
static const est_intake_bytes *verified_reading(const est_intake_candidate *c)
{
	for (size_t r = 0; r < c->reading_count; r++)
		for (size_t s = 0; s < c->sig_count; s++)
			if (verifies_pair(&c->readings[r], &c->sigs[s]))
				return &c->readings[r];
	return NULL;
}

static int verifies(const est_intake_candidate *c)
{
	return verified_reading(c) != NULL;
}

/* Candidate `i` is the seq-2 (new) or seq-1 (old) file, found at `where`,
 * and its bytes verify. */
static void assert_candidate(const est_intake_message *m, size_t i, int new, int quoted,
			     const char *where)
{
	const est_intake_candidate *c;

	assert_true(i < m->count);
	c = &m->candidates[i];
	assert_string_equal(c->where, where);
	assert_int_equal(c->quoted, quoted);
	assert_true(c->sig_count > 0);
	const est_intake_bytes *r = verified_reading(c);
	if (!r)
		fail_msg("%s: no reading of %zu verifies with any of %zu signatures", where,
			 c->reading_count, c->sig_count);
	assert_int_equal(r->len, new ? order_new_len : order_old_len);
	assert_memory_equal(r->bytes, new ? order_new : order_old, r->len);
	assert_int_equal(r->bytes[r->len], '\0');
}

/* One signed order, found whole, from a person. */
static void check_single(const char *style, const char *where)
{
	est_intake_message *m = parse_style(style, NULL);

	assert_int_equal(m->automated, 0);
	assert_null(m->automated_why);
	assert_null(m->truncated);
	assert_int_equal(m->count, 1);
	assert_candidate(m, 0, 1, 0, where);
	est_intake_free(m);
}

/*
 * The Notepad file (CRLF, no final line end) in STYLE: the reading that
 * verifies is the file's bytes exactly; `first` 1 if that is the first
 * reading, as it must be for a file that came in base64.
 */
static void check_windows(const char *style, const char *where, int first)
{
	est_intake_message *m = parse_file_style(style, "win.json", NULL);
	const est_intake_bytes *r;

	assert_int_equal(m->count, 1);
	assert_string_equal(m->candidates[0].where, where);
	r = verified_reading(&m->candidates[0]);
	if (!r)
		fail_msg("%s: no reading verifies", style);
	assert_int_equal(r->len, order_win_len);
	assert_memory_equal(r->bytes, order_win, order_win_len);
	if (first)
		assert_ptr_equal(r, &m->candidates[0].readings[0]);
	est_intake_free(m);
}

static void test_windows_file(void **state)
{
	check_windows("attachments", "attachment orders.json", 1);
	check_windows("text-attachment", "attachment orders.json", 0);
	check_windows("plain", "body", 0);
	check_windows("renamed", "attachment orders.txt", 0);
}

/* Orders pasted, signature attached under a name of its own; files renamed past a filter. */
static void test_paired_by_content(void **state)
{
	check_single("gmail-orders", "attachment orders.json");
	check_single("iphone-orders", "attachment orders.json");
	check_single("outlook-orders", "attachment orders.json");
	check_single("sig-attached", "body");
	check_single("renamed", "attachment orders.txt");
	check_single("text-attachment", "attachment orders.json");
}

/* Hard-wrapped at 72 columns: the prev and entropy lines break after ':', the press inside its string. */
static void test_wrapped(void **state)
{
	est_intake_message *m = parse_style("wrapped", NULL);

	assert_int_equal(m->count, 1);
	assert_int_equal(m->candidates[0].wrapped, 1);
	assert_candidate(m, 0, 1, 0, "body");
	est_intake_free(m);
}

/* Cut off in transit, inside the signature's base64: said so. */
static void test_truncated(void **state)
{
	est_intake_message *m = parse_style("truncated", NULL);

	assert_non_null(m->truncated);
	assert_non_null(strstr(m->truncated, "closing boundary"));
	est_intake_free(m);
}

/* A one-part message cut mid-line inside the signature is cut; a broken paste that ends its lines is not. */
static void test_truncated_body(void **state)
{
	static const char cut[] = "From: Anne <anne@example.org>\nSubject: x\n\n"
		"{\"estafette\": \"orders/1\", \"seq\": 1}\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lHAAAA";
	static const char broken[] = "From: Anne <anne@example.org>\nSubject: x\n\n"
		"{\"{\"estafette\": \"orders/1\", \"seq\": 1}\n";
	est_intake_message *m = NULL;

	(void)state;
	assert_int_equal(est_intake_parse(&m, cut, strlen(cut), NULL), 0);
	assert_non_null(m->truncated);
	assert_non_null(strstr(m->truncated, "signature in it begins and never ends"));
	est_intake_free(m);
	assert_int_equal(est_intake_parse(&m, broken, strlen(broken), NULL), 0);
	assert_null(m->truncated);
	est_intake_free(m);
}

static void test_plain(void **state) { check_single("plain", "body"); }
static void test_attachments(void **state)
{
	check_single("attachments", "attachment orders.json");
}
/* The same pair pasted and attached is one candidate, the attachment's. */
static void test_both_deduplicated(void **state) { check_single("both", "attachment orders.json"); }
/* Thunderbird's multipart/alternative: the text/plain part is read. */
static void test_alternative(void **state) { check_single("alternative", "body"); }
static void test_html_only(void **state) { check_single("html-only", "body (HTML)"); }
static void test_quoted_printable(void **state) { check_single("qp", "body"); }
static void test_base64(void **state) { check_single("base64", "body"); }
/* The player signed UTF-8; the client sent ISO-8859-1; GMime converts back. */
static void test_latin1(void **state) { check_single("latin1", "body"); }
/*
 * A BOM and CRLF in a base64 attachment whose signature is over the file
 * without them: the bytes are handed out as they came and nothing else
 * (the caller then refuses the BOM as `check` does); no reading verifies.
 */
static void test_bom(void **state)
{
	est_intake_message *m = parse_style("bom", NULL);
	const est_intake_candidate *c = &m->candidates[0];

	assert_int_equal(m->count, 1);
	assert_string_equal(c->where, "attachment orders.json");
	assert_int_equal(c->reading_count, 1);
	assert_memory_equal(c->readings[0].bytes, "\xEF\xBB\xBF{\r\n", 5);
	assert_false(verifies(c));
	est_intake_free(m);
}
static void test_crlf(void **state) { check_single("crlf", "body"); }
static void test_flowed(void **state) { check_single("flowed", "body"); }

/* Newer order first, the quoted older one after it. */
static void check_two(const char *style, const char *old_where)
{
	est_intake_message *m = parse_style(style, NULL);

	assert_int_equal(m->automated, 0);
	assert_int_equal(m->count, 2);
	assert_candidate(m, 0, 1, 0, "body");
	assert_candidate(m, 1, 0, 1, old_where);
	est_intake_free(m);
}

/* No attached NAME.sig: the only .sig, or the armored block of the body. */
static void test_attached_order_pasted_sig(void **state)
{
	check_single("attach-paste-sig", "attachment orders.json");
}

static void test_attached_order_other_sig(void **state)
{
	check_single("attach-other-sig", "attachment france-step7.json");
}

static void test_reply(void **state) { check_two("reply", "quoted text (level 1)"); }
static void test_reply_nested(void **state) { check_two("reply-nested", "quoted text (level 2)"); }
/* Thunderbird HTML: <pre>, and <blockquote type="cite"> as a quote level. */
static void test_html_reply(void **state)
{
	est_intake_message *m = parse_style("html-reply", NULL);

	assert_int_equal(m->count, 2);
	assert_candidate(m, 0, 1, 0, "body (HTML)");
	assert_candidate(m, 1, 0, 1, "quoted text (level 1)");
	est_intake_free(m);
}

static void test_forward(void **state) { check_two("forward", "forwarded message: body"); }
static void test_forward_inline(void **state)
{
	check_two("forward-inline", "forwarded text in body");
}

static void check_automated(const char *style, const char *why, const char *where)
{
	est_intake_message *m = parse_style(style, NULL);

	assert_int_equal(m->automated, 1);
	assert_non_null(m->automated_why);
	if (!strstr(m->automated_why, why))
		fail_msg("%s: automated_why \"%s\" lacks \"%s\"", style, m->automated_why, why);
	/* What it carries is still listed: the caller decides. */
	assert_int_equal(m->count, 1);
	assert_candidate(m, 0, 1, strcmp(where, "body") != 0, where);
	est_intake_free(m);
}

static void test_autoreply(void **state)
{
	check_automated("autoreply", "Auto-Submitted is \"auto-replied\"", "quoted text (level 1)");
	check_automated("autoreply", "X-Autoreply", "quoted text (level 1)");
}

static void test_bounce(void **state)
{
	check_automated("bounce", "return path is empty", "forwarded message: body");
	check_automated("bounce", "MAILER-DAEMON", "forwarded message: body");
	check_automated("bounce", "multipart/report", "forwarded message: body");
}

static void test_list(void **state)
{
	check_automated("list", "List-Id present", "body");
	check_automated("list", "Precedence is \"list\"", "body");
}

/* The envelope sender given by procmail wins over the header. */
static void test_return_path_argument(void **state)
{
	est_intake_message *m = parse_style("plain", "<>");

	assert_int_equal(m->automated, 1);
	assert_non_null(strstr(m->automated_why, "return path is empty"));
	est_intake_free(m);
	m = parse_style("bounce", FROM);
	assert_null(strstr(m->automated_why, "return path"));
	est_intake_free(m);
}

static void test_headers(void **state)
{
	est_intake_message *m = parse_style("reply", NULL);

	assert_string_equal(m->reply_to, FROM);
	assert_string_equal(m->subject, "Re: Orders");
	assert_non_null(m->message_id);
	assert_null(strchr(m->message_id, '<'));
	assert_non_null(strstr(m->message_id, "@example.org"));
	est_intake_free(m);
}

static void test_no_order(void **state)
{
	est_intake_message *m = parse_style("none", NULL);

	assert_int_equal(m->count, 0);
	assert_null(m->candidates);
	assert_int_equal(m->automated, 0);
	est_intake_free(m);
}

/* The verify helper can fail: one changed byte of the order, and the same
 * signature no longer verifies. */
static void test_tampered_order_fails_verify(void **state)
{
	est_intake_message *m = parse_style("plain", NULL);
	char *seq2 = strstr(m->candidates[0].readings[0].bytes, "\"seq\": 2");

	assert_non_null(seq2);
	assert_true(verifies(&m->candidates[0]));
	for (size_t r = 0; r < m->candidates[0].reading_count; r++)
		strstr(m->candidates[0].readings[r].bytes, "\"seq\": 2")[7] = '3';
	assert_false(verifies(&m->candidates[0]));
	est_intake_free(m);
}

static void expect_einval(const char *bytes, size_t len, const char *what)
{
	est_intake_message *m = (est_intake_message *)1;

	assert_int_equal(est_intake_parse(&m, bytes, len, NULL), EST_EINVAL);
	assert_null(m);
	if (!strstr(est_error_message(), what))
		fail_msg("message \"%s\" lacks \"%s\"", est_error_message(), what);
}

static void test_malformed(void **state)
{
	static const char no_from[] = "Subject: orders\nTo: gm@example.org\n\nhello\n";
	unsigned char garbage[4096];
	size_t i;
	uint32_t x = 2463534242u;

	for (i = 0; i < sizeof(garbage); i++) { /* xorshift: fixed, binary, no header */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		garbage[i] = (unsigned char)x;
	}
	static const char no_header[] = "hello, here are my orders\n\n{\"estafette\": \"orders/1\"}\n";
	est_intake_message *m = NULL;

	expect_einval("", 0, "empty");
	expect_einval((const char *)garbage, sizeof(garbage), "not an RFC 5322 message");
	expect_einval(no_header, strlen(no_header), "not an RFC 5322 message");
	/* Mail without a From is mail still: nobody to answer, not a bounce for the MTA. */
	assert_int_equal(est_intake_parse(&m, no_from, strlen(no_from), NULL), 0);
	assert_null(m->from);
	assert_null(m->reply_to);
	est_intake_free(m);
}

/* A pasted order without a signature is still a candidate, sig NULL; a
 * brace inside a JSON string does not end the object; an mbox "From " line
 * is skipped; Reply-To is read. */
static void test_unsigned_and_braces(void **state)
{
	static const char msg[] =
		"From anne@example.org Sun Nov 29 17:00:00 2026\r\n"
		"From: Anne <anne@example.org>\r\nTo: gm@example.org\r\nSubject: x\r\n"
		"Reply-To: Anne at home <anne.home@example.net>\r\n\r\n"
		"my {draft} orders:\r\n{\"estafette\": \"orders/1\", \"press\": [\"} {\"]}\r\n"
		"thanks\r\n";
	est_intake_message *m = NULL;

	assert_int_equal(est_intake_parse(&m, msg, strlen(msg), NULL), 0);
	assert_string_equal(m->from, "anne@example.org");
	assert_string_equal(m->reply_to, "anne.home@example.net");
	assert_int_equal(m->count, 1);
	assert_string_equal(m->candidates[0].readings[0].bytes,
			    "{\"estafette\": \"orders/1\", \"press\": [\"} {\"]}\n");
	assert_int_equal(m->candidates[0].sig_count, 0);
	assert_int_equal(m->candidates[0].wrapped, 0);
	est_intake_free(m);
}

/* One message of `n` distinct pasted orders, each followed by the same armored block. */
static char *many_orders(size_t n)
{
	char *out = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	fprintf(f, "From: Anne <anne@example.org>\nSubject: x\n\n");
	for (i = 0; i < n; i++)
		fprintf(f, "{\"estafette\": \"orders/1\", \"seq\": %zu}\n"
			"-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n", i + 1);
	assert_int_equal(fclose(f), 0);
	return out;
}

/*
 * At most EST_INTAKE_MAX_CANDIDATES are taken, in the order they come, each
 * with its signature; the rest are counted, not copied.
 */
static void test_candidates_capped(void **state)
{
	char *msg = many_orders(EST_INTAKE_MAX_CANDIDATES + 8);
	est_intake_message *m = NULL;

	(void)state;
	assert_int_equal(est_intake_parse(&m, msg, strlen(msg), NULL), 0);
	assert_int_equal(m->count, EST_INTAKE_MAX_CANDIDATES);
	assert_int_equal(m->ignored, 8);
	assert_string_equal(m->candidates[0].readings[0].bytes, "{\"estafette\": \"orders/1\", \"seq\": 1}\n");
	assert_string_equal(m->candidates[EST_INTAKE_MAX_CANDIDATES - 1].readings[0].bytes,
			    "{\"estafette\": \"orders/1\", \"seq\": 32}\n");
	assert_int_equal(m->candidates[31].sig_count, 1);
	est_intake_free(m);
	free(msg);
}

/*
 * The member finds its object whatever stands around it: an unclosed brace
 * and a stray quote in the prose before, a nested object before the member,
 * another object without the member; an object holding a second member is
 * no order file.
 */
static void test_object_from_member(void **state)
{
	static const char msg[] =
		"From: Anne <anne@example.org>\nSubject: x\n\n"
		"my {draft \"orders\n"
		"{\"orders\": [{\"type\": \"pass\"}], \"note\": \"}{\\\"\", \"estafette\": \"orders/1\"}\n"
		"{\"not\": \"an order\"}\n"
		"{\"estafette\": \"orders/1\", \"x\": {\"estafette\": \"orders/1\"}}\n";
	est_intake_message *m = NULL;

	(void)state;
	assert_int_equal(est_intake_parse(&m, msg, strlen(msg), NULL), 0);
	assert_int_equal(m->count, 2);
	assert_string_equal(m->candidates[0].readings[0].bytes,
			    "{\"orders\": [{\"type\": \"pass\"}], \"note\": \"}{\\\"\", \"estafette\": \"orders/1\"}\n");
	/* the inner object of the last: the outer one holds two members */
	assert_string_equal(m->candidates[1].readings[0].bytes, "{\"estafette\": \"orders/1\"}\n");
	est_intake_free(m);
}

/*
 * Quoted local parts: one that needs its quotes keeps them, one that does
 * not loses them (the address players' records hold); an address GMime
 * cannot read leaves a message without a sender, which is mail still.
 */
static void test_quoted_local_parts(void **state)
{
	static const struct {
		const char *header, *from;
	} cases[] = {
		{"From: \"john smith\"@example.org\n", "\"john smith\"@example.org"},
		{"From: John <\"john smith\"@example.org>\n", "\"john smith\"@example.org"},
		{"From: \"john.smith\"@example.org\n", "john.smith@example.org"},
		{"From: john.smith@example.org (John \"Q\" Smith)\n", "john.smith@example.org"},
		{"From: undisclosed-recipients:;\n", NULL},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *msg = est_strdup_printf("%sSubject: x\n\nhello\n", cases[i].header);
		est_intake_message *m = NULL;

		assert_int_equal(est_intake_parse(&m, msg, strlen(msg), NULL), 0);
		if (cases[i].from)
			assert_string_equal(m->from, cases[i].from);
		else
			assert_null(m->from);
		est_intake_free(m);
		free(msg);
	}
}

/* More multipart boundaries than the intake reads: the header is read, the body is not. */
static void test_too_many_boundaries(void **state)
{
	est_intake_message *m = NULL;
	char *msg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&msg, &len);
	int i;

	(void)state;
	assert_non_null(f);
	fprintf(f, "From: Anne <anne@example.org>\nSubject: x\nMIME-Version: 1.0\n");
	for (i = 0; i < 200; i++)
		fprintf(f, "Content-Type: multipart/mixed; boundary=\"b%d\"\n\n--b%d\n", i, i);
	fprintf(f, "Content-Type: text/plain\n\n{\"estafette\": \"orders/1\"}\n");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(est_intake_parse(&m, msg, len, NULL), 0);
	assert_string_equal(m->from, "anne@example.org");
	assert_int_equal(m->count, 0);
	assert_non_null(m->unread);
	assert_non_null(strstr(m->unread, "more than 128 multipart boundaries"));
	est_intake_free(m);
	free(msg);
}

/* A bounce of tests/mail/bounces/, its placeholders filled in as gm_mail.sh fills them, parsed. */
static est_intake_message *parse_bounce(const char *fixture)
{
	est_intake_message *m = NULL;
	char *name = est_strdup_printf("%s.eml", fixture), *eml;
	size_t len;

	assert_true(run("sed -e 's/{MSGID}/abc.0001.france@estafette/g' -e 's/{RCPT}/france@example.org/g' "
			"-e 's/{ORDERS}/orders@example.org/g' %s/tests/mail/bounces/%s.eml > %s/%s",
			EST_SOURCE_DIR, fixture, dir, name));
	eml = read_file(&len, name);
	if (est_intake_parse(&m, eml, len, NULL) < 0)
		fail_msg("%s: %s", fixture, est_error_message());
	assert_int_equal(m->automated, 1);
	free(eml);
	free(name);
	return m;
}

/* A bounce of our message to france, with its status; `recipients` 0: it names none. */
static void check_bounce(const char *fixture, const char *status, int standard, int recipients)
{
	est_intake_message *m = parse_bounce(fixture);
	const est_intake_bounce *b = m->bounce;

	if (!b)
		fail_msg("%s: not read as a bounce", fixture);
	assert_int_equal(b->standard, standard);
	assert_int_equal(b->id_count, 1);
	assert_string_equal(b->ids[0], "abc.0001.france@estafette");
	assert_int_equal(b->recipient_count, recipients);
	if (recipients)
		assert_string_equal(b->recipients[0], "france@example.org");
	assert_string_equal(b->status, status);
	assert_non_null(b->diagnostic);
	assert_null(strchr(b->diagnostic, '\n'));
	est_intake_free(m);
}

static void test_bounces(void **state)
{
	check_bounce("postfix", "5.1.1", 1, 1);
	check_bounce("gmail", "5.1.1", 1, 1);
	check_bounce("exim", "5.2.2", 0, 1);
	check_bounce("qmail", "5.1.1", 0, 1);
	check_bounce("sendmail", "5.1.2", 0, 0);
}

/* Delay warnings are machines' mail, never bounces. */
static void test_delays_are_no_bounces(void **state)
{
	static const char *const delays[] = {"postfix-delayed", "exim-delayed"};

	for (size_t i = 0; i < 2; i++) {
		est_intake_message *m = parse_bounce(delays[i]);
		if (m->bounce)
			fail_msg("%s: a delay read as a bounce", delays[i]);
		est_intake_free(m);
	}
}

/* A player's mail without orders, as each client writes it: its text and attachments for the GM. */
static void test_clients_text(void **state)
{
	static const char *const clients[] = {"thunderbird", "gmail", "outlook", "iphone"};

	write_file("map.txt", "a map\n", 6);
	for (size_t i = 0; i < 4; i++) {
		est_intake_message *m = NULL;
		char *eml, *attach = est_strdup_printf("--attach %s/map.txt", dir);
		size_t len;

		assert_true(run("/usr/bin/python3 %s/tests/helpers/make_mail.py %s --from " FROM
				" --to gm@example.org --subject 'Away' --text 'Away next week,\\nback on the 9th.' "
				"%s > %s/c.eml", EST_SOURCE_DIR, clients[i], i == 3 ? attach : "", dir));
		free(attach);
		eml = read_file(&len, "c.eml");
		assert_int_equal(est_intake_parse(&m, eml, len, NULL), 0);
		assert_int_equal(m->count, 0);
		assert_null(m->bounce);
		if (!m->text || !strstr(m->text, "Away next week,\nback on the 9th."))
			fail_msg("%s: text %s", clients[i], m->text ? m->text : "(none)");
		assert_non_null(m->date);
		if (i == 3)
			assert_string_equal(m->attachments, "map.txt");
		else
			assert_null(m->attachments);
		est_intake_free(m);
		free(eml);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_attachments),
		cmocka_unit_test(test_both_deduplicated),
		cmocka_unit_test(test_alternative),
		cmocka_unit_test(test_html_only),
		cmocka_unit_test(test_quoted_printable),
		cmocka_unit_test(test_base64),
		cmocka_unit_test(test_latin1),
		cmocka_unit_test(test_bom),
		cmocka_unit_test(test_windows_file),
		cmocka_unit_test(test_paired_by_content),
		cmocka_unit_test(test_wrapped),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_truncated_body),
		cmocka_unit_test(test_crlf),
		cmocka_unit_test(test_flowed),
		cmocka_unit_test(test_attached_order_pasted_sig),
		cmocka_unit_test(test_attached_order_other_sig),
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_html_reply),
		cmocka_unit_test(test_reply_nested),
		cmocka_unit_test(test_forward),
		cmocka_unit_test(test_forward_inline),
		cmocka_unit_test(test_autoreply),
		cmocka_unit_test(test_bounce),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_return_path_argument),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_no_order),
		cmocka_unit_test(test_tampered_order_fails_verify),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_unsigned_and_braces),
		cmocka_unit_test(test_candidates_capped),
		cmocka_unit_test(test_object_from_member),
		cmocka_unit_test(test_quoted_local_parts),
		cmocka_unit_test(test_too_many_boundaries),
		cmocka_unit_test(test_bounces),
		cmocka_unit_test(test_delays_are_no_bounces),
		cmocka_unit_test(test_clients_text),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
