/*
 * Composing a report as an RFC 5322 / MIME message (RFC 2045-2047, 2231).
 * Output is deterministic: the same message composes to the same bytes, so
 * a report queued twice (or re-rendered by an audit) can be compared.
 */
#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* RFC 5322 2.1.1: lines SHOULD stay within 78 and MUST within 998 octets. */
#define FOLD_AT 78
#define LINE_MAX_OCTETS 998
/* RFC 2047 2: an encoded-word is at most 75 characters. */
#define ENCODED_WORD_MAX 75
#define QP_LINE_MAX 76
#define B64_LINE_INPUT 57 /* 57 bytes -> 76 base64 characters */

/*
 * A growing output buffer. Running out of memory only sets `oom`, checked
 * once at the end, which keeps the composing code free of error checks.
 */
struct buf {
	char *ptr;
	size_t len, cap;
	int oom;
};

static void buf_put(struct buf *b, const void *data, size_t len)
{
	if (b->oom)
		return;
	if (b->cap - b->len <= len) {
		size_t cap = b->cap ? b->cap : 1024;
		char *grown;

		while (cap - b->len <= len)
			cap *= 2;
		if (!(grown = realloc(b->ptr, cap))) {
			b->oom = 1;
			return;
		}
		b->ptr = grown;
		b->cap = cap;
	}
	memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
}

static void buf_puts(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

static void buf_putc(struct buf *b, char c)
{
	buf_put(b, &c, 1);
}

static void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(struct buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(small)) {
		b->oom = 1; /* only short, fixed formats go through here */
		return;
	}
	buf_put(b, small, (size_t)n);
}

/*
 * A header being written: words separated by single spaces, folded (CRLF
 * before the space) where a line would pass FOLD_AT. A word is never split,
 * and a line that would pass 998 octets marks the header as too long.
 */
struct header {
	struct buf *b;
	size_t col;
	int fresh; /* nothing after "Name:" yet: folding there would gain nothing */
	int too_long;
};

static void header_start(struct header *h, struct buf *b, const char *name)
{
	h->b = b;
	h->too_long = 0;
	h->fresh = 1;
	buf_puts(b, name);
	buf_putc(b, ':');
	h->col = strlen(name) + 1;
}

static void header_word(struct header *h, const char *word, size_t len)
{
	/* Never fold before an empty word: that would leave a blank line. */
	if (len > 0 && h->col + 1 + len > FOLD_AT && !h->fresh) {
		buf_puts(h->b, "\r\n");
		h->col = 0;
	}
	buf_putc(h->b, ' ');
	buf_put(h->b, word, len);
	h->col += 1 + len;
	h->fresh = 0;
	if (h->col > LINE_MAX_OCTETS)
		h->too_long = 1;
}

static int header_end(struct header *h, const char *name)
{
	buf_puts(h->b, "\r\n");
	if (h->too_long)
		return est_error_set(EST_EINVAL,
				     "mail header %s: a word is too long to fit a line of %d octets "
				     "(RFC 5322 2.1.1); shorten it",
				     name, LINE_MAX_OCTETS);
	return 0;
}

static int check_one_line(const char *value, const char *field)
{
	if (strpbrk(value, "\r\n"))
		return est_error_set(EST_EINVAL,
				     "mail message: field \"%s\" holds a line break (CR or LF), "
				     "which would start a new header; give it on one line",
				     field);
	return 0;
}

/* Length of the UTF-8 sequence starting at s (n bytes left), or 0 if invalid. */
static size_t utf8_char_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

static int check_utf8(const char *s, size_t n, const char *field)
{
	for (size_t i = 0; i < n;) {
		size_t len = utf8_char_len((const unsigned char *)s + i, n - i);

		if (len == 0)
			return est_error_set(EST_EINVAL,
					     "mail message: field \"%s\" is not valid UTF-8 at byte %zu; "
					     "give the text in UTF-8",
					     field, i);
		i += len;
	}
	return 0;
}

/* Printable ASCII, tabs and spaces only: can go into a header as it is. */
static int is_plain_ascii(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c > 0x7e)
			return 0;
	}
	/* A literal "=?" could be mistaken for an encoded-word by a reader. */
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '=' && s[i + 1] == '?')
			return 0;
	return 1;
}

/* RFC 2047 5(3): the characters a Q encoded-word may carry as they are in a phrase. */
static int q_safe(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '!' || c == '*' || c == '+' || c == '-' || c == '/';
}

/*
 * Write UTF-8 text `s` as Q encoded-words of at most 75 characters each,
 * never splitting a character between two words (RFC 2047 5(3), 2).
 */
static void header_encoded_words(struct header *h, const char *s, size_t n)
{
	static const char prefix[] = "=?UTF-8?Q?", suffix[] = "?=";
	const size_t overhead = (sizeof(prefix) - 1) + (sizeof(suffix) - 1);
	char word[ENCODED_WORD_MAX + 1];
	size_t i = 0;

	while (i < n) {
		size_t used = 0, room = ENCODED_WORD_MAX - overhead;

		/* The first word shares its line with "Name: ": shorten it to fit 78. */
		if (h->fresh && h->col + 1 + ENCODED_WORD_MAX > FOLD_AT)
			room = FOLD_AT > h->col + 1 + overhead + 12 ? FOLD_AT - h->col - 1 - overhead : 12;

		while (i < n) {
			size_t len = utf8_char_len((const unsigned char *)s + i, n - i), need = 0;
			char enc[4 * 3];

			for (size_t k = 0; k < len; k++) {
				unsigned char c = (unsigned char)s[i + k];

				if (c == ' ')
					enc[need++] = '_';
				else if (q_safe(c))
					enc[need++] = (char)c;
				else
					need += (size_t)snprintf(enc + need, 4, "=%02X", c);
			}
			if (used + need > room)
				break;
			memcpy(word + used, enc, need);
			used += need;
			i += len;
		}
		struct buf tmp = {0};
		buf_puts(&tmp, prefix);
		buf_put(&tmp, word, used);
		buf_puts(&tmp, suffix);
		if (tmp.oom)
			h->b->oom = 1;
		else
			header_word(h, tmp.ptr, tmp.len);
		free(tmp.ptr);
	}
}

/* Unstructured text (Subject): words at single spaces, or encoded-words. */
static void header_text(struct header *h, const char *s)
{
	size_t n = strlen(s), start = 0, longest = 0;

	for (size_t i = 0; i <= n; i++)
		if (i == n || s[i] == ' ') {
			if (i - start > longest)
				longest = i - start;
			start = i + 1;
		}
	if (!is_plain_ascii(s, n) || longest > LINE_MAX_OCTETS - 40) {
		header_encoded_words(h, s, n);
		return;
	}
	start = 0;
	for (size_t i = 0; i <= n; i++)
		if (i == n || s[i] == ' ') {
			header_word(h, s + start, i - start);
			start = i + 1;
		}
}

/*
 * A bare address as SMTP and our headers take it: printable ASCII, one "@"
 * with something on both sides, no spaces, brackets, quotes or commas; or
 * a quoted local part (RFC 5321 Quoted-string: "john smith"@example.org)
 * of printable ASCII and spaces, with \" and \\ escaped, and no "@" in it
 * (libcurl splits an envelope address at its first "@"). SMTPUTF8 is not
 * supported.
 */
int est_mail_check_address(const char *addr, size_t n, const char *what)
{
	size_t i = 0, at;

	if (n > 254 || n == 0)
		goto bad;
	if (addr[0] == '"') {
		for (i = 1; i < n && addr[i] != '"'; i++) {
			if (addr[i] == '\\' && ++i == n)
				goto bad;
			if ((unsigned char)addr[i] < 0x20 || (unsigned char)addr[i] > 0x7e || addr[i] == '@')
				goto bad;
		}
		if (i >= n || i == 1)
			goto bad; /* unterminated, or "" */
		i++;
	} else {
		for (; i < n && addr[i] != '@'; i++) {
			unsigned char c = (unsigned char)addr[i];

			if (c <= 0x20 || c > 0x7e || strchr("<>()[],;:\\\"", c))
				goto bad;
		}
		if (i == 0)
			goto bad;
	}
	if (i >= n || addr[i] != '@')
		goto bad;
	at = i;
	for (i = at + 1; i < n; i++) {
		unsigned char c = (unsigned char)addr[i];

		if (c <= 0x20 || c > 0x7e || strchr("<>()[],;:\\\"@", c))
			goto bad;
	}
	if (at + 1 < n)
		return 0;
bad:
	return est_error_set(EST_EINVAL,
			     "%s: \"%.*s\" is not a plain address (local@domain, printable "
			     "ASCII, no spaces or brackets outside a quoted local part); fix the "
			     "address",
			     what, (int)(n > 200 ? 200 : n), addr);
}

static void trim(const char **s, size_t *n)
{
	while (*n > 0 && (**s == ' ' || **s == '\t'))
		(*s)++, (*n)--;
	while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
}

/* A display name that is plain ASCII: atoms as they are, else a quoted-string. */
static void header_ascii_phrase(struct header *h, const char *s, size_t n)
{
	int special = 0;

	for (size_t i = 0; i < n; i++)
		if (strchr("()<>[]:;@\\,.\"", s[i]) || s[i] == '\t')
			special = 1;
	if (!special) {
		size_t start = 0;

		for (size_t i = 0; i <= n; i++)
			if (i == n || s[i] == ' ') {
				if (i > start)
					header_word(h, s + start, i - start);
				start = i + 1;
			}
		return;
	}
	struct buf q = {0};
	buf_putc(&q, '"');
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			buf_putc(&q, '\\');
		buf_putc(&q, s[i]);
	}
	buf_putc(&q, '"');
	if (q.oom)
		h->b->oom = 1;
	else
		header_word(h, q.ptr, q.len);
	free(q.ptr);
}

/* Undo a quoted-string's quotes and backslashes into *out (caller frees). */
static int unquote(char **out, size_t *out_len, const char *s, size_t n)
{
	char *plain = malloc(n + 1);
	size_t len = 0;

	if (!plain)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] == '\\' && i + 2 < n)
			i++;
		plain[len++] = s[i];
	}
	plain[len] = '\0';
	*out = plain;
	*out_len = len;
	return 0;
}

static int header_phrase(struct header *h, const char *s, size_t n, const char *field)
{
	char *plain = NULL;
	int error;

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		if ((error = unquote(&plain, &n, s, n)) < 0)
			return error;
		s = plain;
	}
	if ((error = check_utf8(s, n, field)) < 0)
		goto out;
	if (is_plain_ascii(s, n))
		header_ascii_phrase(h, s, n);
	else
		header_encoded_words(h, s, n);
out:
	free(plain);
	return error;
}

/* One mailbox: "addr" or "display name <addr>". `comma`: a list continues. */
static int header_mailbox(struct header *h, const char *s, size_t n, int comma, const char *field)
{
	const char *lt = NULL, *addr;
	size_t addr_len;
	char label[64];
	int error;

	trim(&s, &n);
	for (size_t i = 0; i < n; i++)
		if (s[i] == '<')
			lt = s + i;
	if (n == 0)
		return est_error_set(EST_EINVAL, "mail message: field \"%s\" holds an empty address; "
				     "remove the extra comma", field);
	if (lt) {
		if (s[n - 1] != '>')
			return est_error_set(EST_EINVAL,
					     "mail message: field \"%s\": \"%.*s\" has a \"<\" without a "
					     "closing \">\" at the end; write `Name <local@domain>`",
					     field, (int)(n > 200 ? 200 : n), s);
		addr = lt + 1;
		addr_len = (size_t)(s + n - 1 - addr);
	} else {
		addr = s;
		addr_len = n;
	}
	snprintf(label, sizeof(label), "mail message: field \"%s\"", field);
	if ((error = est_mail_check_address(addr, addr_len, label)) < 0)
		return error;
	if (lt) {
		const char *name = s;
		size_t name_len = (size_t)(lt - s);

		trim(&name, &name_len);
		if (name_len > 0 && (error = header_phrase(h, name, name_len, field)) < 0)
			return error;
	}
	struct buf w = {0};
	if (lt)
		buf_putc(&w, '<');
	buf_put(&w, addr, addr_len);
	if (lt)
		buf_putc(&w, '>');
	if (comma)
		buf_putc(&w, ',');
	if (w.oom)
		h->b->oom = 1;
	else
		header_word(h, w.ptr, w.len);
	free(w.ptr);
	return 0;
}

/*
 * A comma-separated list of mailboxes. Commas inside quotes or <> do not
 * split, nor does one before any "@" of the mailbox: `Smith, John <j@x>`
 * is one mailbox whose name a player forgot to quote.
 */
static int header_mailbox_list(struct header *h, const char *s, const char *field)
{
	size_t start = 0, n = strlen(s);
	int quoted = 0, angle = 0, seen_at = 0, error;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && quoted && s[i] == '\\' && i + 1 < n) {
			i++;
			continue;
		}
		if (i < n && s[i] == '"')
			quoted = !quoted;
		else if (i < n && !quoted && s[i] == '<')
			angle = 1;
		else if (i < n && !quoted && s[i] == '>')
			angle = 0;
		else if (i < n && !quoted && s[i] == '@')
			seen_at = 1;
		if (i == n || (s[i] == ',' && !quoted && !angle && seen_at)) {
			if ((error = header_mailbox(h, s + start, i - start, i < n, field)) < 0)
				return error;
			start = i + 1;
			seen_at = 0;
		}
	}
	return 0;
}

/* `id` is <left@right> in printable ASCII (RFC 5322 3.6.4); `field` names it in the refusal. */
static int check_message_id(const char *id, const char *field)
{
	size_t n = strlen(id);
	const char *at = strchr(id, '@');

	for (size_t i = 0; i < n; i++)
		if ((unsigned char)id[i] <= 0x20 || (unsigned char)id[i] > 0x7e)
			goto bad;
	if (n >= 5 && n <= 900 && id[0] == '<' && id[n - 1] == '>' && at && at > id + 1 &&
	    at < id + n - 2 && !strchr(at + 1, '@') && !strchr(id + 1, '<') &&
	    strchr(id, '>') == id + n - 1)
		return 0;
bad:
	return est_error_set(EST_EINVAL,
			     "mail message: field \"%s\" is \"%.100s\", not of the form "
			     "<left@right> in printable ASCII (RFC 5322 3.6.4); e.g. "
			     "<5f1c9e0b7a2d4c68.ne-001.0007-france@gm.example.org>",
			     field, id);
}

static int put_date(struct buf *b, time_t date)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	struct tm tm;

	/* Names written out rather than strftime: the locale must not matter. */
	if (!gmtime_r(&date, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 1900)
		return est_error_set(EST_EINVAL, "mail message: field \"date\" (%lld) is not a "
				     "year from 1900 to 9999; give the time of the run", (long long)date);
	buf_printf(b, "Date: %s, %02d %s %04d %02d:%02d:%02d +0000\r\n", days[tm.tm_wday],
		   tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
		   tm.tm_sec);
	return 0;
}

static int is_line_break(const char *s, size_t n, size_t i)
{
	return s[i] == '\n' || (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n');
}

/*
 * Quoted-printable (RFC 2045 6.7) of UTF-8 text with LF or CRLF line ends,
 * written with CRLF; output lines hold at most 76 characters counting the
 * "=" of a soft break. Beyond the rules, a "." or "From " starting a line is
 * encoded so that neither SMTP nor an mbox file can touch the text.
 */
static void qp_encode(struct buf *out, const char *s, size_t n)
{
	size_t col = 0;

	for (size_t i = 0; i < n;) {
		if (is_line_break(s, n, i)) {
			buf_puts(out, "\r\n");
			col = 0;
			i += s[i] == '\r' ? 2 : 1;
			continue;
		}
		unsigned char c = (unsigned char)s[i];
		int line_end = i + 1 == n || is_line_break(s, n, i + 1);
		char tok[4];
		size_t tok_len;

		for (;;) {
			int literal = (c >= 33 && c <= 126 && c != '=') ||
				      ((c == ' ' || c == '\t') && !line_end);

			if (col == 0 && (c == '.' || (c == 'F' && n - i >= 5 &&
						      memcmp(s + i, "From ", 5) == 0)))
				literal = 0;
			if (literal) {
				tok[0] = (char)c;
				tok_len = 1;
			} else { /* "=XX", not snprintf: every "=" of an HTML report comes here */
				tok[0] = '=';
				tok[1] = "0123456789ABCDEF"[c >> 4];
				tok[2] = "0123456789ABCDEF"[c & 15];
				tok_len = 3;
			}
			if (col + tok_len <= QP_LINE_MAX - 1 || col == 0)
				break;
			buf_puts(out, "=\r\n");
			col = 0;
		}
		buf_put(out, tok, tok_len);
		col += tok_len;
		i++;
	}
}

/* Base64 (RFC 2045 6.8) in lines of 76 characters joined by CRLF, no CRLF at the end. */
static void base64_encode(struct buf *out, const unsigned char *s, size_t n)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

	for (size_t i = 0; i < n; i += 3) {
		unsigned long v = (unsigned long)s[i] << 16;
		char quad[4];

		if (i > 0 && i % B64_LINE_INPUT == 0)
			buf_puts(out, "\r\n");
		if (i + 1 < n)
			v |= (unsigned long)s[i + 1] << 8;
		if (i + 2 < n)
			v |= s[i + 2];
		quad[0] = alphabet[(v >> 18) & 63];
		quad[1] = alphabet[(v >> 12) & 63];
		quad[2] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
		quad[3] = i + 2 < n ? alphabet[v & 63] : '=';
		buf_put(out, quad, 4);
	}
}

/* Every part's encoded body, built before the boundaries are chosen. */
struct parts {
	struct buf text, html;
	struct buf *attachments, *inlines;
	size_t count, inline_count;
};

static int occurs_in_parts(const struct parts *p, const char *delimiter)
{
	size_t n = strlen(delimiter);

	if (p->text.len && memmem(p->text.ptr, p->text.len, delimiter, n))
		return 1;
	if (p->html.len && memmem(p->html.ptr, p->html.len, delimiter, n))
		return 1;
	for (size_t i = 0; i < p->count; i++)
		if (p->attachments[i].len &&
		    memmem(p->attachments[i].ptr, p->attachments[i].len, delimiter, n))
			return 1;
	for (size_t i = 0; i < p->inline_count; i++)
		if (p->inlines[i].len && memmem(p->inlines[i].ptr, p->inlines[i].len, delimiter, n))
			return 1;
	return 0;
}

/*
 * A boundary derived from the message id and `label` ("mixed",
 * "alternative"): "=_est_" and 32 hex digits of SHA-256. "=_" can appear in
 * neither quoted-printable nor base64, so a clash is all but impossible; it
 * is checked all the same, and a counter derives the next candidate.
 */
static int choose_boundary(char out[64], const struct parts *p, const char *message_id,
			   const char *label)
{
	for (unsigned int counter = 0; counter < 1000; counter++) {
		char *seed = est_strdup_printf("estafette mail boundary\n%s\n%s\n%u", label,
					       message_id, counter);
		char hex[EST_SHA256_HEX_LEN + 1], delimiter[72];

		if (!seed)
			return est_error_set(EST_ENOMEM, "out of memory");
		est_sha256_hex(hex, seed, strlen(seed));
		free(seed);
		snprintf(out, 64, "=_est_%.32s", hex);
		snprintf(delimiter, sizeof(delimiter), "--%s", out);
		if (!occurs_in_parts(p, delimiter))
			return 0;
	}
	return est_error_set(EST_ERROR, "mail: no free MIME boundary after 1000 tries");
}

static void put_text_part_headers(struct buf *b, const char *subtype)
{
	buf_printf(b,
		   "Content-Type: text/%s; charset=utf-8\r\n"
		   "Content-Transfer-Encoding: quoted-printable\r\n",
		   subtype);
}

/* RFC 2231 attr-char: what an extended parameter value carries unescaped. */
static int attr_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       strchr("!#$&+-.^_`|~", c) != NULL;
}

/* An attachment's headers; an inline image's (content_id set) say inline and give its Content-ID. */
static int put_attachment_headers(struct buf *b, const est_mail_attachment *a, size_t index)
{
	const char *type = a->content_type ? a->content_type : "application/octet-stream";
	size_t n;
	struct header h;
	struct buf param = {0};
	int error;

	if (!a->filename || !*a->filename)
		return est_error_set(EST_EINVAL, "mail message: attachment %zu has no filename; "
				     "give each attachment a name such as map.svg", index + 1);
	if ((error = check_one_line(type, "attachments[].content_type")) < 0 ||
	    (error = check_one_line(a->filename, "attachments[].filename")) < 0)
		return error;
	n = strlen(a->filename);
	if ((error = check_utf8(a->filename, n, "attachments[].filename")) < 0)
		return error;
	if (!is_plain_ascii(type, strlen(type)) || !strchr(type, '/'))
		return est_error_set(EST_EINVAL,
				     "mail message: attachment %s: content type \"%.100s\" is "
				     "not type/subtype in ASCII; e.g. image/svg+xml",
				     a->filename, type);
	header_start(&h, b, "Content-Type");
	header_word(&h, type, strlen(type));
	if ((error = header_end(&h, "Content-Type")) < 0)
		return error;
	buf_puts(b, "Content-Transfer-Encoding: base64\r\n");
	if (a->content_id) {
		if ((error = check_message_id(a->content_id, "inline_images[].content_id")) < 0)
			return error;
		buf_printf(b, "Content-ID: %s\r\n", a->content_id);
	}
	header_start(&h, b, "Content-Disposition");
	header_word(&h, a->content_id ? "inline;" : "attachment;", a->content_id ? 7 : 11);
	if (is_plain_ascii(a->filename, n) && !strchr(a->filename, '\t')) {
		buf_puts(&param, "filename=\"");
		for (size_t i = 0; i < n; i++) {
			if (a->filename[i] == '"' || a->filename[i] == '\\')
				buf_putc(&param, '\\');
			buf_putc(&param, a->filename[i]);
		}
		buf_putc(&param, '"');
	} else {
		buf_puts(&param, "filename*=utf-8''");
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)a->filename[i];

			if (attr_char(c))
				buf_putc(&param, (char)c);
			else
				buf_printf(&param, "%%%02X", c);
		}
	}
	if (param.oom)
		b->oom = 1;
	else
		header_word(&h, param.ptr, param.len);
	free(param.ptr);
	return header_end(&h, "Content-Disposition");
}

/* Base64 of each of the `count` attachments of `list` ("attachments" or "inline_images"). */
static int encode_list(struct buf **out, size_t *out_count, const est_mail_attachment *list,
		       size_t count, const char *what)
{
	if (count == 0)
		return 0;
	if (!list)
		return est_error_set(EST_EINVAL, "mail message: %s count is %zu but %s is NULL", what,
				     count, what);
	if (!(*out = calloc(count, sizeof(**out))))
		return est_error_set(EST_ENOMEM, "out of memory");
	*out_count = count;
	for (size_t i = 0; i < count; i++)
		if (!list[i].data && list[i].len > 0)
			return est_error_set(EST_EINVAL, "mail message: %s %zu has %zu bytes but no data",
					     what, i + 1, list[i].len);
	for (size_t i = 0; i < count; i++) {
		base64_encode(&(*out)[i], list[i].data, list[i].len);
		if ((*out)[i].oom)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

static int encode_parts(struct parts *p, const est_mail_message *msg)
{
	int error;

	qp_encode(&p->text, msg->text, strlen(msg->text));
	if (msg->html)
		qp_encode(&p->html, msg->html, strlen(msg->html));
	if ((error = encode_list(&p->attachments, &p->count, msg->attachments, msg->attachment_count,
				 "attachments")) < 0 ||
	    (error = encode_list(&p->inlines, &p->inline_count, msg->inline_images, msg->inline_count,
				 "inline_images")) < 0)
		return error;
	if (p->text.oom || p->html.oom)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

static void free_parts(struct parts *p)
{
	free(p->text.ptr);
	free(p->html.ptr);
	for (size_t i = 0; i < p->count; i++)
		free(p->attachments[i].ptr);
	free(p->attachments);
	for (size_t i = 0; i < p->inline_count; i++)
		free(p->inlines[i].ptr);
	free(p->inlines);
}

/* One attachment or inline image part after its delimiter line: headers, blank line, base64. */
static int put_attachment(struct buf *b, const est_mail_attachment *a, const struct buf *body,
			  size_t index)
{
	int error;

	if ((error = put_attachment_headers(b, a, index)) < 0)
		return error;
	buf_puts(b, "\r\n");
	buf_put(b, body->ptr ? body->ptr : "", body->len);
	return 0;
}

/* The HTML, alone or (with inline images) as multipart/related with them (RFC 2387). */
static int put_html(struct buf *b, const struct parts *p, const est_mail_message *msg,
		    const char *related)
{
	int error;

	if (p->inline_count == 0) {
		put_text_part_headers(b, "html");
		buf_puts(b, "\r\n");
		buf_put(b, p->html.ptr ? p->html.ptr : "", p->html.len);
		return 0;
	}
	buf_printf(b, "Content-Type: multipart/related; type=\"text/html\";\r\n boundary=\"%s\"\r\n\r\n",
		   related);
	buf_printf(b, "--%s\r\n", related);
	put_text_part_headers(b, "html");
	buf_puts(b, "\r\n");
	buf_put(b, p->html.ptr ? p->html.ptr : "", p->html.len);
	for (size_t i = 0; i < p->inline_count; i++) {
		buf_printf(b, "\r\n--%s\r\n", related);
		if (!msg->inline_images[i].content_id)
			return est_error_set(EST_EINVAL, "mail message: inline image %zu has no "
					     "content_id; give it one the HTML names by cid:", i + 1);
		if ((error = put_attachment(b, &msg->inline_images[i], &p->inlines[i], i)) < 0)
			return error;
	}
	buf_printf(b, "\r\n--%s--", related);
	return 0;
}

/* The text (and html) as one entity: its headers, blank line, body. */
static int put_alternative(struct buf *b, const struct parts *p, const est_mail_message *msg,
			   const char *alt, const char *related)
{
	int error;

	if (!alt) {
		put_text_part_headers(b, "plain");
		buf_puts(b, "\r\n");
		buf_put(b, p->text.ptr ? p->text.ptr : "", p->text.len);
		return 0;
	}
	buf_printf(b, "Content-Type: multipart/alternative;\r\n boundary=\"%s\"\r\n\r\n", alt);
	buf_printf(b, "--%s\r\n", alt);
	put_text_part_headers(b, "plain");
	buf_puts(b, "\r\n");
	buf_put(b, p->text.ptr ? p->text.ptr : "", p->text.len);
	buf_printf(b, "\r\n--%s\r\n", alt);
	if ((error = put_html(b, p, msg, related)) < 0)
		return error;
	buf_printf(b, "\r\n--%s--", alt);
	return 0;
}

static int put_body(struct buf *b, const struct parts *p, const est_mail_message *msg)
{
	char mixed[64], alt[64], related[64];
	int error;

	if (msg->html && (error = choose_boundary(alt, p, msg->message_id, "alternative")) < 0)
		return error;
	if (p->inline_count && (error = choose_boundary(related, p, msg->message_id, "related")) < 0)
		return error;
	if (p->count == 0) {
		if (!msg->html) {
			put_alternative(b, p, msg, NULL, NULL);
			/* A soft break keeps a text without a final newline exact. */
			if (p->text.len < 2 || memcmp(p->text.ptr + p->text.len - 2, "\r\n", 2))
				buf_puts(b, p->text.len ? "=\r\n" : "");
			return 0;
		}
		if ((error = put_alternative(b, p, msg, alt, related)) < 0)
			return error;
		buf_puts(b, "\r\n");
		return 0;
	}
	if ((error = choose_boundary(mixed, p, msg->message_id, "mixed")) < 0)
		return error;
	buf_printf(b, "Content-Type: multipart/mixed;\r\n boundary=\"%s\"\r\n\r\n", mixed);
	buf_puts(b, "This is a multi-part message in MIME format.\r\n");
	buf_printf(b, "\r\n--%s\r\n", mixed);
	if ((error = put_alternative(b, p, msg, msg->html ? alt : NULL, related)) < 0)
		return error;
	for (size_t i = 0; i < p->count; i++) {
		buf_printf(b, "\r\n--%s\r\n", mixed);
		if ((error = put_attachment(b, &msg->attachments[i], &p->attachments[i], i)) < 0)
			return error;
	}
	buf_printf(b, "\r\n--%s--\r\n", mixed);
	return 0;
}

static int check_message(const est_mail_message *msg)
{
	static const char *const names[] = {"from", "to", "message_id", "text"};
	const char *values[] = {msg->from, msg->to, msg->message_id, msg->text};
	int error;

	for (size_t i = 0; i < 4; i++)
		if (!values[i] || (i < 3 && !*values[i]))
			return est_error_set(EST_EINVAL,
					     "mail message: field \"%s\" is missing; every report "
					     "needs a sender, a recipient, a message id and a text",
					     names[i]);
	if ((error = check_one_line(msg->from, "from")) < 0 ||
	    (error = check_one_line(msg->to, "to")) < 0 ||
	    (error = check_one_line(msg->message_id, "message_id")) < 0 ||
	    (msg->subject && (error = check_one_line(msg->subject, "subject")) < 0))
		return error;
	/* The parts are labelled charset=utf-8: hold them to it. */
	if ((msg->subject && (error = check_utf8(msg->subject, strlen(msg->subject), "subject")) < 0) ||
	    (error = check_utf8(msg->text, strlen(msg->text), "text")) < 0 ||
	    (msg->html && (error = check_utf8(msg->html, strlen(msg->html), "html")) < 0))
		return error;
	if (msg->inline_count > 0 && !msg->html)
		return est_error_set(EST_EINVAL, "mail message: %zu inline images but no html to show "
				     "them; attach them instead, or give the html", msg->inline_count);
	return check_message_id(msg->message_id, "message_id");
}

static int put_headers(struct buf *b, const est_mail_message *msg)
{
	struct header h;
	int error;

	if ((error = put_date(b, msg->date)) < 0)
		return error;
	header_start(&h, b, "From");
	if ((error = header_mailbox_list(&h, msg->from, "from")) < 0 ||
	    (error = header_end(&h, "From")) < 0)
		return error;
	header_start(&h, b, "To");
	if ((error = header_mailbox_list(&h, msg->to, "to")) < 0 ||
	    (error = header_end(&h, "To")) < 0)
		return error;
	if (msg->reply_to) {
		header_start(&h, b, "Reply-To");
		if ((error = header_mailbox_list(&h, msg->reply_to, "reply_to")) < 0 ||
		    (error = header_end(&h, "Reply-To")) < 0)
			return error;
	}
	if (msg->subject && *msg->subject) {
		header_start(&h, b, "Subject");
		header_text(&h, msg->subject);
		if ((error = header_end(&h, "Subject")) < 0)
			return error;
	}
	buf_printf(b, "Message-ID: %s\r\n", msg->message_id);
	/* Someone else's id that is not <left@right> is left out, not refused. */
	if (msg->in_reply_to && check_message_id(msg->in_reply_to, "in_reply_to") == 0)
		buf_printf(b, "In-Reply-To: %s\r\nReferences: %s\r\n", msg->in_reply_to, msg->in_reply_to);
	else if (msg->in_reply_to)
		est_error_clear();
	/* RFC 3834: tells vacation responders not to answer a report. */
	buf_puts(b, "Auto-Submitted: auto-generated\r\n");
	buf_puts(b, "MIME-Version: 1.0\r\n");
	return 0;
}

int est_mail_compose(char **eml_out, size_t *eml_len, const est_mail_message *msg)
{
	struct buf b = {0};
	struct parts p;
	int error;

	memset(&p, 0, sizeof(p));
	if (!msg)
		return est_error_set(EST_EINVAL, "mail message: none given");
	if ((error = check_message(msg)) < 0)
		goto out;
	if ((error = put_headers(&b, msg)) < 0)
		goto out;
	if ((error = encode_parts(&p, msg)) < 0)
		goto out;
	if ((error = put_body(&b, &p, msg)) < 0)
		goto out;
	if (b.oom) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	*eml_out = b.ptr;
	*eml_len = b.len;
	b.ptr = NULL;
out:
	free(b.ptr);
	free_parts(&p);
	return error;
}

char *est_mail_address_of(const char *mailbox)
{
	const char *lt = strrchr(mailbox, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	const char *start = mailbox, *end = mailbox + strlen(mailbox);

	if (lt && gt) {
		start = lt + 1;
		end = gt;
	}
	while (start < end && (*start == ' ' || *start == '\t'))
		start++;
	while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		end--;
	return strndup(start, (size_t)(end - start));
}
