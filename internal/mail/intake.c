/*
 * Mail intake: one RFC 5322 message in, candidate (order, signature) pairs
 * out. GMime takes the message apart (MIME structure, transfer encodings,
 * charsets); what is left here is text: undoing format=flowed, turning HTML
 * into text, separating quote levels, finding order objects and armored
 * signatures, and putting both back in the shape the player signed.
 *
 * Inside, everything is GLib (GString, GPtrArray), which aborts rather than
 * fail on memory; only the result handed out is malloc'd, so that
 * est_intake_free and the caller need nothing of GLib.
 */
#include "mail/intake.h"

#include "util/error.h"
#include "util/util.h"

#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define SIG_BEGIN "-----BEGIN SSH SIGNATURE-----"
#define SIG_END "-----END SSH SIGNATURE-----"
#define SIG_COLUMNS 70
/* An order file is at most 64 KiB (docs/protocol.md "Order files"); in a body it
 * may grow by quote prefixes and markup, so look a good deal further. */
#define OBJECT_SCAN_MAX (512 * 1024)
/* An armored SSH signature is a few hundred bytes (Ed25519) to a few KiB (RSA
 * 16384); a longer block, quoted and wrapped, is not one. */
#define SIG_SCAN_MAX (64 * 1024)
/* Quote levels deeper than this are read as this one: a line of a million
 * '>' must not make a million layers, nor an HTML body of a million
 * <blockquote> a million '>' before each line. */
#define QUOTE_DEPTH_MAX 16
/* GMime checks each line against every boundary still open, so a message
 * of thousands of nested multiparts costs their number times its lines. A
 * player's mail has a few; beyond this many, the body is not read. */
#define BOUNDARIES_MAX 128

/* A found order before it is handed out; GLib-allocated. */
typedef struct {
	GPtrArray *readings; /* GString *: what may have been signed, most likely first */
	GPtrArray *sigs;     /* GString *: canonical signatures, most likely first */
	char *where;
	int quoted;
	int wrapped;
} found;

/* A named attachment: an order file or a signature (already canonical). */
typedef struct {
	char *name;
	GString *bytes;  /* as received, the transfer encoding undone */
	GString *utf8;   /* an order file's bytes converted from its declared charset, or NULL */
	int rewritable;  /* sent as text, not base64: its line ends are the servers' */
} blob;

typedef struct collector collector;

/* What one message level (the message, or a forwarded message/rfc822 in
 * it) holds, gathered while its parts are walked. */
typedef struct {
	collector *c;       /* where its candidates go, and what room is left */
	const char *prefix; /* "" or "forwarded message: " */
	int quoted;
	GPtrArray *jsons;   /* blob *: order attachments */
	GPtrArray *sigs;    /* blob *: signature attachments */
	GPtrArray *body;    /* found *: from top-level body text */
	GPtrArray *inner;   /* found *: from quoted text in the body */
	GPtrArray *body_sigs; /* GString *: the armored blocks of the top-level body */
} level;

struct collector {
	GPtrArray *top;    /* found * */
	GPtrArray *quoted; /* found * */
	size_t held[2];    /* candidates taken, top level [0] and quoted [1] */
	size_t ignored;    /* order files found once both were full */
	GString *cut;      /* why the message looks cut off in transit, or NULL */
	int open_end;      /* the message's bytes end mid-line */
};

static void gstring_free(gpointer p)
{
	g_string_free(p, TRUE);
}

static void found_free(gpointer p)
{
	found *f = p;

	if (!f)
		return;
	g_ptr_array_free(f->readings, TRUE);
	g_ptr_array_free(f->sigs, TRUE);
	g_free(f->where);
	g_free(f);
}

static void blob_free(gpointer p)
{
	blob *b = p;

	g_free(b->name);
	g_string_free(b->bytes, TRUE);
	if (b->utf8)
		g_string_free(b->utf8, TRUE);
	g_free(b);
}

/* ---- text helpers ---- */

/* CRLF and lone CR become LF. */
static GString *unix_lines(const char *s, size_t len)
{
	GString *out = g_string_sized_new(len + 1);
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\r') {
			g_string_append_c(out, '\n');
			if (i + 1 < len && s[i + 1] == '\n')
				i++;
		} else {
			g_string_append_c(out, s[i]);
		}
	}
	return out;
}

static int ends_with_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && g_ascii_strcasecmp(s + n - m, suffix) == 0;
}

/*
 * The armored block from `begin` (which points at SIG_BEGIN) to `end` (which
 * points at SIG_END) in its canonical form. Everything between the armor
 * lines that is not base64 is dropped: line breaks of any client, quote
 * marks, flowed spaces; the "=" of quoted-printable never reaches here since
 * GMime decoded it.
 */
static GString *canonical_sig(const char *begin, const char *end)
{
	const char *body = begin + strlen(SIG_BEGIN);
	GString *b64 = g_string_new(NULL), *out;
	const char *p;
	size_t i;

	for (p = body; p < end; p++)
		if (g_ascii_isalnum(*p) || *p == '+' || *p == '/' || *p == '=')
			g_string_append_c(b64, *p);
	out = g_string_new(SIG_BEGIN "\n");
	for (i = 0; i < b64->len; i += SIG_COLUMNS) {
		size_t n = MIN((size_t)SIG_COLUMNS, b64->len - i);
		g_string_append_len(out, b64->str + i, n);
		g_string_append_c(out, '\n');
	}
	g_string_append(out, SIG_END "\n");
	g_string_free(b64, TRUE);
	return out;
}

/*
 * Finds the armored signatures of one text for queries that only move
 * forward, each byte searched once however many orders ask: a text of
 * many BEGIN lines and no END, or many orders and no signature, would
 * otherwise be searched to its end once per order.
 */
typedef struct {
	const char *limit;
	const char *search; /* the next BEGIN is searched from here */
	const char *end;    /* the first END after the last BEGIN found; NULL: not searched */
	const char *block;  /* the BEGIN of the cached block; NULL: none */
	GString *sig;       /* the cached block, canonical */
	int done;           /* no signature from `search` on */
} sig_finder;

static void sig_finder_init(sig_finder *f, const char *s, const char *limit)
{
	memset(f, 0, sizeof(*f));
	f->search = s;
	f->limit = limit;
}

static void sig_finder_clear(sig_finder *f)
{
	if (f->sig)
		g_string_free(f->sig, TRUE);
	f->sig = NULL;
}

/* The first armored signature at or after `from` (borrowed from `f`), or NULL. */
static const GString *sig_next(sig_finder *f, const char *from)
{
	const size_t begin_len = strlen(SIG_BEGIN);

	while (!f->done) {
		const char *start = MAX(from, f->search), *begin;

		if (f->block && f->block >= from)
			return f->sig;
		if (!(begin = memmem(start, f->limit - start, SIG_BEGIN, begin_len)))
			break;
		if (!f->end || f->end < begin + begin_len)
			f->end = memmem(begin + begin_len, f->limit - begin - begin_len, SIG_END,
					strlen(SIG_END));
		if (!f->end)
			break; /* no END after this BEGIN, so none after any later one */
		f->search = begin + 1;
		if ((size_t)(f->end - begin) <= SIG_SCAN_MAX) {
			sig_finder_clear(f);
			f->block = begin;
			f->sig = canonical_sig(begin, f->end);
			return f->sig;
		}
	}
	f->done = 1;
	return NULL;
}

/*
 * If `p` starts the key and value "estafette": "orders/1", where that
 * value ends, else NULL.
 */
static const char *marker_end(const char *p, const char *end)
{
	static const char key[] = "\"estafette\"", value[] = "\"orders/1\"";
	const char *q = p + strlen(key);

	while (q < end && g_ascii_isspace(*q))
		q++;
	if (q >= end || *q != ':')
		return NULL;
	q++;
	while (q < end && g_ascii_isspace(*q))
		q++;
	if ((size_t)(end - q) < strlen(value) || memcmp(q, value, strlen(value)) != 0)
		return NULL;
	return q + strlen(value);
}

/* 1 if the '"' at s[i] ends or starts a JSON string: not escaped by an odd run of '\'. */
static int is_quote(const char *s, size_t i, size_t lo)
{
	size_t run = 0;

	while (i > lo + run && s[i - run - 1] == '\\')
		run++;
	return s[i] == '"' && run % 2 == 0;
}

/*
 * The '{' of the object whose member starts at s[m] (outside any string, at
 * depth 1), searched back to s[lo], or -1. Walking back over a JSON text
 * from a point outside its strings parses it as well as walking forward.
 */
static ptrdiff_t object_start(const char *s, size_t lo, size_t m)
{
	size_t depth = 0, i = m;
	int in_string = 0;

	while (i-- > lo) {
		char c = s[i];

		if (c == '"' && is_quote(s, i, lo))
			in_string = !in_string;
		else if (in_string)
			continue;
		else if (c == '}')
			depth++;
		else if (c == '{' && depth-- == 0)
			return (ptrdiff_t)i;
	}
	return -1;
}

/*
 * Past the '}' that closes the object opening at s[start], if s[m] is at
 * its depth 1 outside any string and it closes before s[hi]; else 0.
 */
static size_t object_close(const char *s, size_t start, size_t m, size_t hi)
{
	int in_string = 0, escaped = 0;
	size_t depth = 0, i;

	for (i = start; i < hi; i++) {
		char c = s[i];

		if (i == m && (in_string || depth != 1))
			return 0;
		if (in_string) {
			if (escaped)
				escaped = 0;
			else if (c == '\\')
				escaped = 1;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && --depth == 0) {
			return i > m ? i + 1 : 0;
		}
	}
	return 0;
}

/* A pasted order as its file was: trailing blanks of each line dropped
 * (mail clients and HTML add them), one final newline. */
static GString *order_from_text(const char *s, size_t len)
{
	GString *out = g_string_sized_new(len + 2);
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\n') {
			while (out->len && (out->str[out->len - 1] == ' ' ||
					    out->str[out->len - 1] == '\t'))
				g_string_truncate(out, out->len - 1);
		}
		g_string_append_c(out, s[i]);
	}
	g_string_append_c(out, '\n');
	return out;
}

/* A text file sent as text: LF line ends and one final "\n" (a BOM stays: it was in the file). */
static GString *file_as_text(const GString *raw)
{
	GString *out = unix_lines(raw->str, raw->len);

	while (out->len && out->str[out->len - 1] == '\n')
		g_string_truncate(out, out->len - 1);
	g_string_append_c(out, '\n');
	return out;
}

/* `lf` with every "\n" as "\r\n". */
static GString *crlf_lines(const GString *lf)
{
	GString *out = g_string_sized_new(lf->len + lf->len / 16 + 1);
	size_t i;

	for (i = 0; i < lf->len; i++) {
		if (lf->str[i] == '\n')
			g_string_append_c(out, '\r');
		g_string_append_c(out, lf->str[i]);
	}
	return out;
}

/* A copy of `s` without its final line end ("\n" or "\r\n"). */
static GString *without_final_newline(const GString *s)
{
	size_t n = s->len;

	if (n && s->str[n - 1] == '\n')
		n--;
	if (n && s->str[n - 1] == '\r')
		n--;
	return g_string_new_len(s->str, n);
}

/*
 * A pasted order with the hard wrap of a mail client undone, where the
 * JSON makes it certain: a line break inside a string (which no JSON
 * file holds) and one after a ':' (which no JSON writer puts there) were
 * a space the client broke the line at, its trailing blank already gone.
 * *wrapped is set to 1 if anything was joined.
 */
static GString *unwrap(const GString *lf, int *wrapped)
{
	GString *out = g_string_sized_new(lf->len);
	int in_string = 0, escaped = 0;
	size_t i;

	*wrapped = 0;
	for (i = 0; i < lf->len; i++) {
		char c = lf->str[i];

		if (c == '\n' && i + 1 < lf->len &&
		    (in_string || (out->len && out->str[out->len - 1] == ':'))) {
			g_string_append_c(out, ' ');
			*wrapped = 1;
			continue;
		}
		g_string_append_c(out, c);
		if (escaped)
			escaped = 0;
		else if (in_string && c == '\\')
			escaped = 1;
		else if (c == '"')
			in_string = !in_string;
	}
	return out;
}

/* Append `s` (taken) to `list` unless the list holds it already or has `max`. */
static void add_unique(GPtrArray *list, GString *s, guint max)
{
	guint i;

	for (i = 0; i < list->len; i++) {
		if (g_string_equal(g_ptr_array_index(list, i), s)) {
			g_string_free(s, TRUE);
			return;
		}
	}
	if (list->len >= max)
		g_string_free(s, TRUE);
	else
		g_ptr_array_add(list, s);
}

static void add_sig(found *f, const GString *sig)
{
	if (sig)
		add_unique(f->sigs, g_string_new_len(sig->str, sig->len), EST_INTAKE_MAX_SIGS);
}

/* The readings of text with LF line ends and one final "\n": as it is, without
 * that newline, and both with CRLF line ends. */
static void add_text_readings(found *f, const GString *lf)
{
	GString *crlf = crlf_lines(lf);

	add_unique(f->readings, g_string_new_len(lf->str, lf->len), EST_INTAKE_MAX_READINGS);
	add_unique(f->readings, without_final_newline(lf), EST_INTAKE_MAX_READINGS);
	add_unique(f->readings, without_final_newline(crlf), EST_INTAKE_MAX_READINGS);
	add_unique(f->readings, crlf, EST_INTAKE_MAX_READINGS);
}

static found *found_new(char *where, int quoted)
{
	found *f = g_new0(found, 1);

	f->readings = g_ptr_array_new_with_free_func(gstring_free);
	f->sigs = g_ptr_array_new_with_free_func(gstring_free);
	f->where = where;
	f->quoted = quoted;
	return f;
}

/* A pasted order (its text as order_from_text gives it, taken), with its readings. */
static found *found_pasted(GString *text, char *where, int quoted)
{
	found *f = found_new(where, quoted);
	GString *joined = unwrap(text, &f->wrapped);

	add_text_readings(f, f->wrapped ? joined : text);
	g_string_free(joined, TRUE);
	g_string_free(text, TRUE);
	return f;
}

/* An attached order file: its bytes as received first, then what text transfer may have changed. */
static found *found_attached(const blob *b, char *where, int quoted)
{
	found *f = found_new(where, quoted);
	const GString *versions[] = {b->bytes, b->utf8};
	size_t i;

	for (i = 0; i < G_N_ELEMENTS(versions); i++) {
		if (!versions[i])
			continue;
		add_unique(f->readings, g_string_new_len(versions[i]->str, versions[i]->len),
			   EST_INTAKE_MAX_READINGS);
		if (b->rewritable) {
			GString *text = file_as_text(versions[i]);
			add_text_readings(f, text);
			g_string_free(text, TRUE);
		}
	}
	return f;
}

/* Room for one more candidate of its kind (top level or quoted)? Else it is counted as ignored. */
static int take_slot(collector *c, int quoted)
{
	if (c->held[quoted] >= EST_INTAKE_MAX_CANDIDATES) {
		c->ignored++;
		return 0;
	}
	c->held[quoted]++;
	return 1;
}

/* The offsets of every "estafette": "orders/1" member in `text`. */
static GArray *find_markers(const GString *text)
{
	static const char key[] = "\"estafette\"";
	GArray *at = g_array_new(FALSE, FALSE, sizeof(size_t));
	const char *s = text->str, *limit = s + text->len, *p = s;

	while ((p = memmem(p, limit - p, key, strlen(key)))) {
		if (marker_end(p, limit)) {
			size_t off = p - s;
			g_array_append_val(at, off);
		}
		p++;
	}
	return at;
}

/* Every armored signature of `text`, canonical, appended to `into` (up to EST_INTAKE_MAX_SIGS). */
static void all_sigs(GPtrArray *into, const GString *text)
{
	sig_finder f;
	const GString *sig;

	sig_finder_init(&f, text->str, text->str + text->len);
	for (sig = sig_next(&f, text->str); sig && into->len < EST_INTAKE_MAX_SIGS;
	     sig = sig_next(&f, f.block + 1))
		add_unique(into, g_string_new_len(sig->str, sig->len), EST_INTAKE_MAX_SIGS);
	sig_finder_clear(&f);
}

/* The last occurrence of `needle` in `s`, or NULL. */
static const char *last_of(const char *s, size_t len, const char *needle)
{
	const char *p = s, *last = NULL, *limit = s + len;

	while ((p = memmem(p, (size_t)(limit - p), needle, strlen(needle)))) {
		last = p;
		p++;
	}
	return last;
}

static void note_cut(collector *c, const char *why)
{
	if (!c->cut)
		c->cut = g_string_new(why);
}

/*
 * Every order object in `text` (one quote level, prefixes removed), each
 * with the first armored signature after it, appended to `into` while the
 * collector has room. The armored blocks of the text go to `sigs_out` if
 * that is not NULL. In a message that ends mid-line, an order or a
 * signature of its own text (not quoted) that begins and never ends is
 * noted as a cut: a broken paste or a garbled charset in a whole message
 * is not one.
 *
 * An order object is found from its "estafette": "orders/1" member: back to
 * the '{' that opens it, forward to the '}' that closes it, and it holds
 * no other such member. So each stretch of text between two members is
 * walked at most three times, and the cost is linear in the text whatever
 * braces, quotes and armor lines it holds.
 */
static void scan_layer(collector *c, GPtrArray *into, const GString *text, const char *where,
		       int quoted, GPtrArray *sigs_out)
{
	const char *s = text->str;
	GArray *markers = find_markers(text);
	size_t n = markers->len, taken_end = 0, i;
	sig_finder sigs;

	sig_finder_init(&sigs, s, s + text->len);
	if (sigs_out)
		all_sigs(sigs_out, text);
	for (i = 0; i < n; i++) {
		size_t m = g_array_index(markers, size_t, i);
		size_t lo = i ? g_array_index(markers, size_t, i - 1) + 1 : 0;
		size_t hi = i + 1 < n ? g_array_index(markers, size_t, i + 1) : text->len;
		size_t close;
		ptrdiff_t start;
		found *f;

		if (m < taken_end)
			continue;
		lo = MAX(lo, taken_end);
		if (m > OBJECT_SCAN_MAX)
			lo = MAX(lo, m - OBJECT_SCAN_MAX);
		if ((start = object_start(s, lo, m)) < 0)
			continue;
		if (!quoted && c->open_end && hi == text->len && text->len - (size_t)start < OBJECT_SCAN_MAX &&
		    !object_close(s, (size_t)start, m, hi))
			note_cut(c, "an order file in it begins and never ends");
		hi = MIN(hi, (size_t)start + OBJECT_SCAN_MAX);
		if (!(close = object_close(s, (size_t)start, m, hi)))
			continue;
		taken_end = close;
		if (!take_slot(c, quoted))
			continue;
		f = found_pasted(order_from_text(s + start, close - (size_t)start), g_strdup(where), quoted);
		add_sig(f, sig_next(&sigs, s + close));
		g_ptr_array_add(into, f);
	}
	if (!quoted && c->open_end) {
		const char *begin = last_of(s, text->len, SIG_BEGIN);
		if (begin && !memmem(begin, text->len - (size_t)(begin - s), SIG_END, strlen(SIG_END)))
			note_cut(c, "a signature in it begins and never ends");
	}
	sig_finder_clear(&sigs);
	g_array_free(markers, TRUE);
}

/*
 * The lines of a text (up to its first NUL), as g_strsplit(text, "\n", -1)
 * gives them, walked in place in one copy of the text: a line is made a
 * string by writing a NUL over its "\n". No allocation a line, so a body of
 * ten million line ends costs its own size, not a string each.
 */
typedef struct {
	char *copy;
	char *next; /* the next line, or NULL: no more */
	char *end;
} line_walk;

static void lines_init(line_walk *w, const char *text)
{
	w->copy = g_strdup(text);
	w->end = w->copy + strlen(w->copy);
	w->next = *w->copy ? w->copy : NULL;
}

/* The next line (borrowed until lines_clear), or NULL; w->next is NULL after the last. */
static char *lines_next(line_walk *w)
{
	char *line = w->next, *nl;

	if (!line)
		return NULL;
	nl = memchr(line, '\n', (size_t)(w->end - line));
	if (nl) {
		*nl = '\0';
		w->next = nl + 1;
	} else {
		w->next = NULL;
	}
	return line;
}

static void lines_clear(line_walk *w)
{
	g_free(w->copy);
}

/* ---- format=flowed (RFC 3676) ---- */

/*
 * Undo format=flowed: a line ending in a space continues on the next line
 * of the same quote depth; one leading space is stuffing. Quoted lines come
 * out as ">" * depth + " " + content, the form split_quotes reads.
 */
static GString *unflow(const GString *in, int delsp)
{
	GString *out = g_string_sized_new(in->len);
	int open_depth = -1; /* depth of a paragraph still being joined */
	const char *l;
	line_walk w;

	lines_init(&w, in->str);
	while ((l = lines_next(&w))) {
		int depth = 0;
		size_t n;
		int soft;

		if (!w.next && !*l)
			break; /* the text's final newline */
		while (*l == '>') {
			depth++;
			l++;
		}
		if (*l == ' ')
			l++;
		n = strlen(l);
		soft = n > 0 && l[n - 1] == ' ' && strcmp(l, "-- ") != 0;
		if (soft && delsp)
			n--;
		if (open_depth != depth) {
			if (open_depth >= 0)
				g_string_append_c(out, '\n');
			if (depth > 0) {
				int d;
				for (d = 0; d < depth; d++)
					g_string_append_c(out, '>');
				g_string_append_c(out, ' ');
			}
		}
		g_string_append_len(out, l, n);
		if (soft) {
			open_depth = depth;
		} else {
			g_string_append_c(out, '\n');
			open_depth = -1;
		}
	}
	if (open_depth >= 0)
		g_string_append_c(out, '\n');
	lines_clear(&w);
	return out;
}

/* ---- HTML to text ---- */

static const struct {
	const char *name;
	gunichar c;
} entities[] = {
	{"quot", '"'}, {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"apos", '\''},
	{"nbsp", ' '}, {"eacute", 0xE9}, {"egrave", 0xE8}, {"ecirc", 0xEA},
	{"euml", 0xEB}, {"agrave", 0xE0}, {"acirc", 0xE2}, {"ccedil", 0xE7},
	{"ocirc", 0xF4}, {"ucirc", 0xFB}, {"ugrave", 0xF9}, {"uuml", 0xFC},
	{"ouml", 0xF6}, {"auml", 0xE4}, {"icirc", 0xEE}, {"iuml", 0xEF},
	{"szlig", 0xDF}, {"Eacute", 0xC9}, {"Egrave", 0xC8}, {"Agrave", 0xC0},
	{"Ccedil", 0xC7}, {"laquo", 0xAB}, {"raquo", 0xBB}, {"hellip", 0x2026},
	{"ndash", 0x2013}, {"mdash", 0x2014}, {"lsquo", 0x2018}, {"rsquo", 0x2019},
	{"ldquo", 0x201C}, {"rdquo", 0x201D}, {"euro", 0x20AC}, {"copy", 0xA9},
};

typedef struct {
	GString *out;
	int pre;        /* inside <pre> */
	int quote;      /* <blockquote> depth */
	int line_start; /* nothing written on the current line yet */
	int collapsed;  /* the last thing written is a space white space collapsed
			 * into; a no-break space is not one ("&nbsp; &nbsp;") */
} html_text;

static void html_put(html_text *h, const char *s, size_t n)
{
	h->collapsed = 0;
	if (h->line_start && n) {
		int d;
		for (d = 0; d < MIN(h->quote, QUOTE_DEPTH_MAX); d++)
			g_string_append_c(h->out, '>');
		if (h->quote)
			g_string_append_c(h->out, ' ');
		h->line_start = 0;
	}
	g_string_append_len(h->out, s, n);
}

static void html_newline(html_text *h, int only_if_open)
{
	if (only_if_open && h->line_start)
		return;
	g_string_append_c(h->out, '\n');
	h->line_start = 1;
	h->collapsed = 0;
}

/* Decode the entity at s[0] == '&'; returns the bytes consumed (0: none). */
static size_t html_entity(html_text *h, const char *s, const char *limit)
{
	const char *semi = memchr(s, ';', MIN((size_t)(limit - s), (size_t)12));
	char utf8[6];
	gunichar c = 0;
	size_t i;

	if (!semi)
		return 0;
	if (s[1] == '#') {
		char *endp;
		if (s[2] == 'x' || s[2] == 'X')
			c = (gunichar)strtoul(s + 3, &endp, 16);
		else
			c = (gunichar)strtoul(s + 2, &endp, 10);
		if (endp != semi)
			return 0;
		if (c == 0xA0)
			c = ' ';
	} else {
		for (i = 0; i < G_N_ELEMENTS(entities); i++)
			if ((size_t)(semi - s - 1) == strlen(entities[i].name) &&
			    memcmp(s + 1, entities[i].name, semi - s - 1) == 0)
				c = entities[i].c;
	}
	if (!c || !g_unichar_validate(c))
		return 0;
	html_put(h, utf8, g_unichar_to_utf8(c, utf8));
	return semi - s + 1;
}

static int tag_is(const char *name, size_t n, const char *want)
{
	return n == strlen(want) && g_ascii_strncasecmp(name, want, n) == 0;
}

/* Handle the tag at s[0] == '<'; returns the bytes consumed. */
static size_t html_tag(html_text *h, const char *s, const char *limit)
{
	const char *p = s + 1, *name, *gt, *skip_to;
	int closing = 0;
	size_t n;

	if ((size_t)(limit - s) >= 4 && memcmp(s, "<!--", 4) == 0) {
		const char *e = g_strstr_len(s, limit - s, "-->");
		return e ? (size_t)(e + 3 - s) : (size_t)(limit - s);
	}
	if (p < limit && *p == '/') {
		closing = 1;
		p++;
	}
	name = p;
	while (p < limit && g_ascii_isalnum(*p))
		p++;
	n = p - name;
	/* A lone '<' is text: looking for its '>' would walk the rest of the body once per '<'. */
	if (n == 0 && (closing || !(p < limit && (*p == '!' || *p == '?')))) {
		html_put(h, "<", 1);
		return 1;
	}
	/* Attribute values may hold '>'. */
	for (gt = p; gt < limit && *gt != '>'; gt++) {
		if (*gt == '"' || *gt == '\'') {
			const char *q = memchr(gt + 1, *gt, limit - gt - 1);
			if (!q)
				break;
			gt = q;
		}
	}
	if (gt >= limit)
		return limit - s;
	if (n == 0) /* "<!DOCTYPE", "<?xml" */
		return gt + 1 - s;
	if (!closing && (tag_is(name, n, "head") || tag_is(name, n, "style") ||
			 tag_is(name, n, "script") || tag_is(name, n, "title"))) {
		char *close = g_strdup_printf("</%.*s", (int)n, name);
		skip_to = gt + 1;
		while (skip_to < limit && g_ascii_strncasecmp(skip_to, close, strlen(close)))
			skip_to++;
		g_free(close);
		if (skip_to >= limit)
			return limit - s;
		skip_to = memchr(skip_to, '>', limit - skip_to);
		return skip_to ? (size_t)(skip_to + 1 - s) : (size_t)(limit - s);
	}
	if (tag_is(name, n, "br")) {
		html_newline(h, 0);
	} else if (tag_is(name, n, "pre")) {
		html_newline(h, 1);
		h->pre += closing ? (h->pre > 0 ? -1 : 0) : 1;
	} else if (tag_is(name, n, "blockquote")) {
		html_newline(h, 1);
		h->quote += closing ? (h->quote > 0 ? -1 : 0) : 1;
	} else if (tag_is(name, n, "p") || tag_is(name, n, "div") ||
		   tag_is(name, n, "tr") || tag_is(name, n, "li") ||
		   tag_is(name, n, "table") || tag_is(name, n, "hr") ||
		   (n == 2 && (name[0] == 'h' || name[0] == 'H') && g_ascii_isdigit(name[1]))) {
		html_newline(h, 1);
	}
	return gt + 1 - s;
}

/*
 * The text a reader sees in an HTML body: tags gone, entities decoded, line
 * breaks from <br> and block ends, white space collapsed outside <pre>, and
 * <blockquote> as "> " prefixes. A no-break space (Outlook's indentation)
 * becomes a plain space: in a pasted order it can only stand for one.
 */
static GString *html_to_text(const GString *in)
{
	html_text h = {g_string_sized_new(in->len), 0, 0, 1, 0};
	const char *s = in->str, *limit = in->str + in->len;

	while (s < limit) {
		if (*s == '<') {
			s += html_tag(&h, s, limit);
		} else if (*s == '&') {
			size_t used = html_entity(&h, s, limit);
			html_put(&h, s, used ? 0 : 1);
			s += used ? used : 1;
		} else if (!h.pre && g_ascii_isspace(*s)) {
			if (!h.line_start && !h.collapsed) {
				html_put(&h, " ", 1);
				h.collapsed = 1;
			}
			s++;
		} else if (*s == '\n') {
			html_newline(&h, 0);
			s++;
		} else if ((size_t)(limit - s) >= 2 && memcmp(s, "\xC2\xA0", 2) == 0) {
			html_put(&h, " ", 1);
			s += 2;
		} else {
			html_put(&h, s, 1);
			s++;
		}
	}
	return h.out;
}

/* ---- quote levels ---- */

/* The quote depth of a line ("> > x", ">> x", "> x") and where its text starts. */
static int quote_depth(const char **text, const char *line)
{
	const char *p = line;
	int depth = 0;

	while (*p == '>') {
		depth++;
		p++;
		if (p[0] == ' ' && p[1] == '>')
			p++;
	}
	if (depth && *p == ' ')
		p++;
	*text = p;
	return depth;
}

/* Lines that start what a client forwards inline. */
static int is_forward_marker(const char *line)
{
	char *l = g_ascii_strdown(line, -1);
	int yes;

	g_strstrip(l);
	yes = (g_str_has_prefix(l, "--") && g_str_has_suffix(l, "--") &&
	       (strstr(l, "forwarded message") || strstr(l, "original message"))) ||
	      g_str_has_prefix(l, "begin forwarded message");
	g_free(l);
	return yes;
}

/*
 * Split a body (LF line ends) into its quote levels and scan each: depth 0
 * before a forward marker is the body itself; after one it is forwarded
 * text; depth k > 0 is "quoted text (level k)".
 */
static void scan_body(level *lv, const GString *text, int html)
{
	GPtrArray *layers = g_ptr_array_new(); /* GString * by depth */
	GString *forwarded = g_string_new(NULL);
	int forwarding = 0;
	const char *line;
	line_walk w;
	size_t i;

	lines_init(&w, text->str);
	while ((line = lines_next(&w))) {
		const char *content;
		int depth = quote_depth(&content, line);
		GString *into;

		if (depth == 0 && !forwarding && is_forward_marker(content))
			forwarding = 1;
		depth = MIN(depth, QUOTE_DEPTH_MAX);
		while (layers->len <= (guint)depth)
			g_ptr_array_add(layers, g_string_new(NULL));
		into = depth == 0 && forwarding ? forwarded : g_ptr_array_index(layers, depth);
		g_string_append(into, content);
		g_string_append_c(into, '\n');
	}
	for (i = 0; i < layers->len; i++) {
		char *where = i == 0 ? g_strdup_printf("%sbody%s", lv->prefix, html ? " (HTML)" : "")
				     : g_strdup_printf("%squoted text (level %zu)", lv->prefix, i);
		if (i == 0)
			scan_layer(lv->c, lv->body, g_ptr_array_index(layers, 0), where, lv->quoted,
				   lv->body_sigs);
		else
			scan_layer(lv->c, lv->inner, g_ptr_array_index(layers, i), where, 1, NULL);
		g_free(where);
		g_string_free(g_ptr_array_index(layers, i), TRUE);
	}
	if (forwarded->len) {
		char *where = g_strdup_printf("%sforwarded text in body", lv->prefix);
		scan_layer(lv->c, lv->inner, forwarded, where, 1, NULL);
		g_free(where);
	}
	g_string_free(forwarded, TRUE);
	g_ptr_array_free(layers, TRUE);
	lines_clear(&w);
}

/* ---- the MIME tree ---- */

/* The decoded bytes of a leaf part (transfer encoding undone). */
static GString *part_bytes(GMimePart *part)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	GMimeStream *mem;
	GByteArray *bytes;
	GString *out;

	if (!content)
		return g_string_new(NULL);
	mem = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(content, mem);
	bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	out = g_string_new_len((const char *)bytes->data, bytes->len);
	g_object_unref(mem);
	return out;
}

/*
 * An attachment's bytes converted to UTF-8 from the charset it declares,
 * or NULL: none declared, UTF-8 or ASCII already, or not convertible.
 */
static GString *part_utf8(GMimePart *part, const GString *raw)
{
	GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(part));
	const char *charset = ct ? g_mime_content_type_get_parameter(ct, "charset") : NULL;
	GString *out = NULL;
	gsize written = 0;
	char *conv;

	if (!charset || !g_ascii_strcasecmp(charset, "utf-8") || !g_ascii_strcasecmp(charset, "us-ascii"))
		return NULL;
	conv = g_convert(raw->str, raw->len, "UTF-8", g_mime_charset_iconv_name(charset), NULL,
			 &written, NULL);
	if (conv)
		out = g_string_new_len(conv, written);
	g_free(conv);
	return out;
}

/*
 * A text part as a person reads it: UTF-8, LF line ends, HTML turned into
 * text, format=flowed undone. NULL when the part has no text.
 */
static GString *part_text(GMimeTextPart *part)
{
	GMimeContentType *ct = g_mime_object_get_content_type(GMIME_OBJECT(part));
	const char *format = g_mime_content_type_get_parameter(ct, "format");
	const char *delsp = g_mime_content_type_get_parameter(ct, "delsp");
	char *utf8 = g_mime_text_part_get_text(part);
	GString *text, *plain = NULL;

	if (!utf8)
		return NULL;
	text = unix_lines(utf8, strlen(utf8));
	g_free(utf8);
	if (g_mime_content_type_is_type(ct, "text", "html"))
		plain = html_to_text(text);
	else if (format && !g_ascii_strcasecmp(format, "flowed"))
		plain = unflow(text, delsp && !g_ascii_strcasecmp(delsp, "yes"));
	if (!plain)
		return text;
	g_string_free(text, TRUE);
	return plain;
}

static void scan_text_part(level *lv, GMimeTextPart *part)
{
	GString *text = part_text(part);

	if (!text)
		return;
	scan_body(lv, text, g_mime_content_type_is_type(g_mime_object_get_content_type(
		GMIME_OBJECT(part)), "text", "html"));
	g_string_free(text, TRUE);
}

static void walk(level *lv, GMimeObject *obj, collector *c);

static void level_init(level *lv, collector *c, const char *prefix, int quoted)
{
	lv->c = c;
	lv->prefix = prefix;
	lv->quoted = quoted;
	lv->jsons = g_ptr_array_new_with_free_func(blob_free);
	lv->sigs = g_ptr_array_new_with_free_func(blob_free);
	lv->body = g_ptr_array_new();
	lv->inner = g_ptr_array_new();
	lv->body_sigs = g_ptr_array_new_with_free_func(gstring_free);
}

/*
 * The signatures a level holds, for an order found in it: the one named
 * after it (`name`.sig) first when it is an attachment, then every other
 * attached one whatever its name, then those pasted in the body.
 */
static void level_sigs(found *f, const level *lv, const char *name)
{
	char *want = name ? g_strconcat(name, ".sig", NULL) : NULL;
	guint i;

	for (i = 0; want && i < lv->sigs->len; i++) {
		const blob *b = g_ptr_array_index(lv->sigs, i);
		if (!g_ascii_strcasecmp(b->name, want))
			add_sig(f, b->bytes);
	}
	g_free(want);
	for (i = 0; i < lv->sigs->len; i++)
		add_sig(f, ((const blob *)g_ptr_array_index(lv->sigs, i))->bytes);
	for (i = 0; i < lv->body_sigs->len; i++)
		add_sig(f, g_ptr_array_index(lv->body_sigs, i));
}

/* Hand what a level found to the collector: its attachments, its body, then
 * its quoted text; and free the level. */
static void level_flush(level *lv, collector *c)
{
	GPtrArray *dest = lv->quoted ? c->quoted : c->top;
	guint i;

	for (i = 0; i < lv->jsons->len; i++) {
		blob *b = g_ptr_array_index(lv->jsons, i);
		found *f = found_attached(b, g_strdup_printf("%sattachment %s", lv->prefix, b->name),
					  lv->quoted);

		level_sigs(f, lv, b->name);
		g_ptr_array_add(dest, f);
	}
	for (i = 0; i < lv->body->len; i++) {
		found *f = g_ptr_array_index(lv->body, i);

		level_sigs(f, lv, NULL);
		g_ptr_array_add(dest, f);
	}
	for (i = 0; i < lv->inner->len; i++)
		g_ptr_array_add(c->quoted, g_ptr_array_index(lv->inner, i));
	g_ptr_array_free(lv->jsons, TRUE);
	g_ptr_array_free(lv->sigs, TRUE);
	g_ptr_array_free(lv->body, TRUE);
	g_ptr_array_free(lv->inner, TRUE);
	g_ptr_array_free(lv->body_sigs, TRUE);
}

static void walk_message(GMimeMessage *msg, const char *prefix, int quoted, collector *c)
{
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	level lv;

	level_init(&lv, c, prefix, quoted);
	if (body)
		walk(&lv, body, c);
	level_flush(&lv, c);
}

/* multipart/alternative: the text/plain part, else the HTML one, else the
 * last part (the richest, by RFC 2046). */
static GMimeObject *pick_alternative(GMimeMultipart *mp)
{
	GMimeObject *html = NULL, *last = NULL;
	int i, n = g_mime_multipart_get_count(mp);

	for (i = 0; i < n; i++) {
		GMimeObject *p = g_mime_multipart_get_part(mp, i);
		GMimeContentType *ct = g_mime_object_get_content_type(p);
		if (g_mime_content_type_is_type(ct, "text", "plain"))
			return p;
		if (!html && g_mime_content_type_is_type(ct, "text", "html"))
			html = p;
		last = p;
	}
	return html ? html : last;
}

static int has_marker(const GString *text)
{
	GArray *markers = find_markers(text);
	int yes = markers->len > 0;

	g_array_free(markers, TRUE);
	return yes;
}

/* 1 if `raw` is an order file by itself: an object holding the order member, and no signature. */
static int is_order_file(const GString *raw)
{
	const char *p = raw->str, *limit = raw->str + raw->len;

	if (raw->len >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
		p += 3;
	while (p < limit && g_ascii_isspace(*p))
		p++;
	return p < limit && *p == '{' && !memmem(raw->str, raw->len, SIG_BEGIN, strlen(SIG_BEGIN)) &&
	       has_marker(raw);
}

/* An attached order file (`raw` taken): kept as received, with what text transfer may have changed. */
static void add_order_file(level *lv, GMimePart *part, GString *raw, const char *filename)
{
	blob *b = g_new0(blob, 1);

	b->name = g_strdup(filename ? filename : "(unnamed)");
	b->bytes = raw;
	b->utf8 = part_utf8(part, raw);
	b->rewritable = g_mime_part_get_content_encoding(part) != GMIME_CONTENT_ENCODING_BASE64;
	g_ptr_array_add(lv->jsons, b);
}

/* Every armored signature in an attachment, each under the attachment's name. */
static void add_sig_files(level *lv, const GString *raw, const char *filename)
{
	GPtrArray *sigs = g_ptr_array_new();
	guint i;

	all_sigs(sigs, raw);
	for (i = 0; i < sigs->len; i++) {
		blob *b = g_new0(blob, 1);
		b->name = g_strdup(filename ? filename : "(unnamed)");
		b->bytes = g_ptr_array_index(sigs, i);
		g_ptr_array_add(lv->sigs, b);
	}
	g_ptr_array_free(sigs, TRUE);
}

/*
 * A leaf part. A body part is text to scan. An attachment is taken for
 * what it holds, whatever its name (filters make players rename files):
 * an order file, signatures, or text with both pasted in it.
 */
static void walk_part(level *lv, GMimePart *part)
{
	GMimeObject *obj = GMIME_OBJECT(part);
	GMimeContentType *ct = g_mime_object_get_content_type(obj);
	const char *filename = g_mime_part_get_filename(part);
	const char *disposition = g_mime_object_get_disposition(obj);
	int json = g_mime_content_type_is_type(ct, "application", "json") ||
		   (filename && ends_with_ci(filename, ".json"));
	GString *raw;

	if (!json && !filename && !(disposition && !g_ascii_strcasecmp(disposition, "attachment"))) {
		if (GMIME_IS_TEXT_PART(part))
			scan_text_part(lv, GMIME_TEXT_PART(part));
		return;
	}
	if (json && !take_slot(lv->c, lv->quoted))
		return; /* counted, not decoded */
	raw = part_bytes(part);
	if (json) {
		add_order_file(lv, part, raw, filename);
		return;
	}
	if (is_order_file(raw)) {
		if (take_slot(lv->c, lv->quoted))
			add_order_file(lv, part, raw, filename);
		else
			g_string_free(raw, TRUE);
		return;
	}
	if (!has_marker(raw))
		add_sig_files(lv, raw, filename);
	else if (GMIME_IS_TEXT_PART(part))
		scan_text_part(lv, GMIME_TEXT_PART(part));
	g_string_free(raw, TRUE);
}

static void walk(level *lv, GMimeObject *obj, collector *c)
{
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		GMimeContentType *ct = g_mime_object_get_content_type(obj);
		int i, n = g_mime_multipart_get_count(mp);

		if (g_mime_content_type_is_type(ct, "multipart", "alternative")) {
			GMimeObject *pick = pick_alternative(mp);
			if (pick)
				walk(lv, pick, c);
			return;
		}
		for (i = 0; i < n; i++)
			walk(lv, g_mime_multipart_get_part(mp, i), c);
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		if (inner)
			walk_message(inner, "forwarded message: ", 1, c);
	} else if (GMIME_IS_PART(obj)) {
		walk_part(lv, GMIME_PART(obj));
	}
}

/* ---- headers ---- */

/* The first mailbox's addr-spec in a list (groups searched too), or NULL. */
static const char *first_addr(InternetAddressList *list)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		const char *addr = NULL;
		if (INTERNET_ADDRESS_IS_MAILBOX(ia))
			addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
		else if (INTERNET_ADDRESS_IS_GROUP(ia))
			addr = first_addr(internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(ia)));
		if (addr && *addr)
			return addr;
	}
	return NULL;
}

static void add_reason(GString *why, const char *reason)
{
	if (why->len)
		g_string_append(why, "; ");
	g_string_append(why, reason);
}

/* 1 if the return path is the null path: "", "<>", "< >". */
static int empty_return_path(const char *rp)
{
	for (; *rp; rp++)
		if (!g_ascii_isspace(*rp) && *rp != '<' && *rp != '>')
			return 0;
	return 1;
}

/* Why a machine sent this message (RFC 3834 and the usual list and bounce
 * marks), or "" if nothing says so. */
static GString *automated_reasons(GMimeMessage *msg, const char *from, const char *return_path)
{
	GMimeObject *o = GMIME_OBJECT(msg);
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	GString *why = g_string_new(NULL);
	const char *h;
	const char *at = from ? strchr(from, '@') : NULL;

	if ((h = g_mime_object_get_header(o, "Auto-Submitted"))) {
		char *v = g_strstrip(g_strdup(h));
		char *semi = strchr(v, ';');
		if (semi)
			*semi = '\0';
		g_strstrip(v);
		if (g_ascii_strcasecmp(v, "no")) {
			char *r = g_strdup_printf("Auto-Submitted is \"%s\"", v);
			add_reason(why, r);
			g_free(r);
		}
		g_free(v);
	}
	if ((h = g_mime_object_get_header(o, "Precedence"))) {
		char *v = g_strstrip(g_ascii_strdown(h, -1));
		if (!strcmp(v, "bulk") || !strcmp(v, "junk") || !strcmp(v, "list")) {
			char *r = g_strdup_printf("Precedence is \"%s\"", v);
			add_reason(why, r);
			g_free(r);
		}
		g_free(v);
	}
	if (g_mime_object_get_header(o, "List-Id"))
		add_reason(why, "List-Id present (mailing list)");
	if (g_mime_object_get_header(o, "List-Unsubscribe"))
		add_reason(why, "List-Unsubscribe present (mailing list)");
	if (return_path && empty_return_path(return_path))
		add_reason(why, "return path is empty (<>), as for a bounce");
	if (from && at) {
		size_t n = at - from;
		if ((n == 13 && !g_ascii_strncasecmp(from, "mailer-daemon", n)) ||
		    (n == 10 && !g_ascii_strncasecmp(from, "postmaster", n)))
			add_reason(why, "From is a mail system address (MAILER-DAEMON or postmaster)");
	}
	if (body && g_mime_content_type_is_type(g_mime_object_get_content_type(body),
						"multipart", "report"))
		add_reason(why, "multipart/report (a delivery or disposition report)");
	if (g_mime_object_get_header(o, "X-Autoreply"))
		add_reason(why, "X-Autoreply present");
	if (g_mime_object_get_header(o, "X-Autorespond"))
		add_reason(why, "X-Autorespond present");
	return why;
}

/* ---- the result ---- */

/* The same order with the same signature first: one found twice (pasted and attached). */
static int same_found(const found *a, const found *b)
{
	if (!g_string_equal(g_ptr_array_index(a->readings, 0), g_ptr_array_index(b->readings, 0)))
		return 0;
	if (!a->sigs->len || !b->sigs->len)
		return !a->sigs->len && !b->sigs->len;
	return g_string_equal(g_ptr_array_index(a->sigs, 0), g_ptr_array_index(b->sigs, 0));
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char *dup_len(const char *s, size_t len)
{
	char *out = malloc(len + 1);

	if (out) {
		memcpy(out, s, len);
		out[len] = '\0';
	}
	return out;
}

/* Copy the GStrings of `from` out as malloc'd bytes; -1 on ENOMEM (those copied are counted). */
static int copy_out(est_intake_bytes *to, size_t *count, const GPtrArray *from)
{
	guint i;

	for (i = 0; i < from->len; i++) {
		const GString *g = g_ptr_array_index(from, i);

		if (!(to[i].bytes = dup_len(g->str, g->len)))
			return -1;
		to[i].len = g->len;
		*count = i + 1;
	}
	return 0;
}

/* Move the collected pairs into m->candidates, top level first, dropping
 * repeats, at most EST_INTAKE_MAX_CANDIDATES; m->ignored counts the rest. */
static int fill_candidates(est_intake_message *m, collector *c)
{
	GPtrArray *all = g_ptr_array_new();
	guint i, j;
	int error = 0;

	for (i = 0; i < c->top->len; i++)
		g_ptr_array_add(all, g_ptr_array_index(c->top, i));
	for (i = 0; i < c->quoted->len; i++)
		g_ptr_array_add(all, g_ptr_array_index(c->quoted, i));
	if (all->len && !(m->candidates = calloc(all->len, sizeof(*m->candidates)))) {
		error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
		goto out;
	}
	for (i = 0; i < all->len; i++) {
		const found *f = g_ptr_array_index(all, i);
		est_intake_candidate *cand;
		int repeat = 0;

		for (j = 0; j < i && !repeat; j++)
			repeat = same_found(g_ptr_array_index(all, j), f);
		if (repeat)
			continue;
		if (m->count == EST_INTAKE_MAX_CANDIDATES) {
			m->ignored++;
			continue;
		}
		cand = &m->candidates[m->count++];
		cand->where = strdup(f->where);
		cand->quoted = f->quoted;
		cand->wrapped = f->wrapped;
		if (!cand->where || copy_out(cand->readings, &cand->reading_count, f->readings) < 0 ||
		    copy_out(cand->sigs, &cand->sig_count, f->sigs) < 0) {
			error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
			goto out;
		}
	}
	m->ignored += c->ignored;
out:
	g_ptr_array_free(all, TRUE);
	return error;
}

static void ensure_gmime(void)
{
	/* g_mime_init is not thread-safe and must run once per process. */
	static gsize initialised = 0;

	if (g_once_init_enter(&initialised)) {
		g_mime_init();
		g_once_init_leave(&initialised, 1);
	}
}

/* Skip an mbox "From " separator line, which is not a header. */
static void skip_mbox_line(const char **bytes, size_t *len)
{
	const char *nl;

	if (*len >= 5 && !memcmp(*bytes, "From ", 5) && (nl = memchr(*bytes, '\n', *len))) {
		*len -= nl + 1 - *bytes;
		*bytes = nl + 1;
	}
}

/* 1 if s[0..n) is a dot-atom (RFC 5322 3.2.3): atoms of atext joined by single dots. */
static int is_dot_atom(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch == '.' ? s[i + 1] == '.' : !(g_ascii_isalnum(ch) || strchr("!#$%&'*+-/=?^_`{|}~", ch)))
			return 0;
	}
	return 1;
}

/*
 * The address as players' records hold it: a quoted local part that needs
 * no quotes loses them ("john.smith"@example.org is john.smith@example.org,
 * RFC 5321 4.1.2), one that needs them ("john smith"@example.org) keeps
 * them. A new malloc'd string, or NULL on ENOMEM.
 */
static char *canonical_addr(const char *addr)
{
	const char *at = strrchr(addr, '@');
	size_t n = at ? (size_t)(at - addr) : 0;

	if (at && n >= 2 && addr[0] == '"' && addr[n - 1] == '"' &&
	    !memchr(addr + 1, '"', n - 2) && !memchr(addr + 1, '\\', n - 2) &&
	    is_dot_atom(addr + 1, n - 2))
		return est_strdup_printf("%.*s%s", (int)(n - 2), addr + 1, at);
	return strdup(addr);
}

static int read_headers(est_intake_message *m, GMimeMessage *msg, const char *return_path)
{
	const char *from = first_addr(g_mime_message_get_from(msg));
	const char *reply_to = first_addr(g_mime_message_get_reply_to(msg));
	const char *id = g_mime_message_get_message_id(msg);
	const char *subject = g_mime_message_get_subject(msg);
	GString *why;

	if (!return_path)
		return_path = g_mime_object_get_header(GMIME_OBJECT(msg), "Return-Path");
	why = automated_reasons(msg, from, return_path);
	m->automated = why->len > 0;
	m->automated_why = why->len ? strdup(why->str) : NULL;
	g_string_free(why, TRUE);
	m->from = from ? canonical_addr(from) : NULL;
	m->reply_to = reply_to || from ? canonical_addr(reply_to ? reply_to : from) : NULL;
	m->message_id = dup_or_null(id);
	m->subject = dup_or_null(subject);
	if ((from && !m->from) || ((reply_to || from) && !m->reply_to) || (id && !m->message_id) ||
	    (subject && !m->subject) ||
	    (m->automated && !m->automated_why))
		return est_error_set(EST_ENOMEM, "mail intake: out of memory");
	return 0;
}

/* ---- what a person reads of the message ---- */

/* Cut `s` to at most `max` bytes, at a UTF-8 character boundary. */
static void cut_utf8(GString *s, size_t max)
{
	size_t n = max;

	if (s->len <= max)
		return;
	while (n > 0 && ((unsigned char)s->str[n] & 0xC0) == 0x80)
		n--;
	g_string_truncate(s, n);
}

/* `s` as valid UTF-8 (a part that says UTF-8 and is not), U+FFFD for what is not; `s` is consumed. */
static GString *valid_utf8(GString *s)
{
	gchar *valid = g_utf8_make_valid(s->str, (gssize)s->len);

	g_string_assign(s, valid);
	g_free(valid);
	return s;
}

/* The first text part of the message's own body (not of a message it carries): plain, else HTML. */
static GMimeTextPart *first_text_part(GMimeObject *obj, int html)
{
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);

		for (i = 0; i < n; i++) {
			GMimeTextPart *t = first_text_part(g_mime_multipart_get_part(mp, i), html);
			if (t)
				return t;
		}
	} else if (GMIME_IS_TEXT_PART(obj) && !g_mime_part_get_filename(GMIME_PART(obj)) &&
		   g_mime_content_type_is_type(g_mime_object_get_content_type(obj), "text",
					       html ? "html" : "plain")) {
		return GMIME_TEXT_PART(obj);
	}
	return NULL;
}

/* The message's text for a person (est_intake_message.text), or NULL. */
static GString *read_text(GMimeMessage *msg)
{
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	GMimeTextPart *part = body ? first_text_part(body, 0) : NULL;
	GString *text;

	if (!part && body)
		part = first_text_part(body, 1);
	if (!part || !(text = part_text(part)))
		return NULL;
	cut_utf8(text, EST_INTAKE_TEXT_MAX);
	return valid_utf8(text);
}

/* The names of the attachments (and carried messages), ", "-joined, into `out` up to 1 KiB. */
static void attachment_names(GMimeObject *obj, GString *out)
{
	const char *name = NULL;

	if (out->len > 1024)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);

		for (i = 0; i < n; i++)
			attachment_names(g_mime_multipart_get_part(mp, i), out);
		return;
	}
	if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		name = inner && g_mime_message_get_subject(inner) ? g_mime_message_get_subject(inner)
								  : "a forwarded message";
	} else if (GMIME_IS_PART(obj)) {
		name = g_mime_part_get_filename(GMIME_PART(obj));
	}
	if (!name)
		return;
	if (out->len)
		g_string_append(out, ", ");
	g_string_append(out, name);
	cut_utf8(out, 1024);
}

/* ---- bounces ---- */

/* Add the `n` bytes of `s`, trimmed of blanks and angle brackets, to a list once (case-insensitively). */
static void list_add(char **list, size_t *count, const char *s, size_t n)
{
	size_t i;

	while (n && (g_ascii_isspace(*s) || *s == '<'))
		s++, n--;
	while (n && (g_ascii_isspace(s[n - 1]) || s[n - 1] == '>'))
		n--;
	if (n == 0 || n > 900 || *count == EST_INTAKE_BOUNCE_MAX || memchr(s, '<', n) ||
	    memchr(s, ' ', n))
		return;
	for (i = 0; i < *count; i++)
		if (strlen(list[i]) == n && !g_ascii_strncasecmp(list[i], s, n))
			return;
	if ((list[*count] = dup_len(s, n)))
		(*count)++;
}

/* One line of at most 300 bytes of ASCII, blanks collapsed, into a new malloc'd string (NULL for none). */
static char *one_line(const char *s, size_t n)
{
	GString *out = g_string_new(NULL);
	char *line;
	size_t i;

	for (i = 0; i < n && out->len < 300; i++) {
		unsigned char ch = (unsigned char)s[i];
		if (ch < 0x20 || ch == ' ' || ch == 0x7f) {
			if (out->len && out->str[out->len - 1] != ' ')
				g_string_append_c(out, ' ');
		} else if (ch >= 0x80) { /* status fields are ASCII (RFC 3464); others are not trusted */
			g_string_append_c(out, '?');
		} else {
			g_string_append_c(out, (char)ch);
		}
	}
	cut_utf8(out, 300);
	while (out->len && out->str[out->len - 1] == ' ')
		g_string_truncate(out, out->len - 1);
	line = out->len ? strdup(out->str) : NULL;
	g_string_free(out, TRUE);
	return line;
}

/* An enhanced status code (RFC 3463: "5.1.1") in `s`, into out[16]; 0 when there is none. */
static int find_status(char out[16], const char *s)
{
	for (const char *p = s; *p; p++) {
		int a = 0, b = 0, c = 0, used = 0;
		if ((p == s || !g_ascii_isdigit(p[-1])) && (*p == '4' || *p == '5') &&
		    sscanf(p, "%1d.%3d.%3d%n", &a, &b, &c, &used) == 3 && !g_ascii_isdigit(p[used])) {
			snprintf(out, 16, "%d.%d.%d", a, b, c);
			return 1;
		}
	}
	return 0;
}

/* The Message-IDs a text quotes in "Message-ID: <...>" lines (returned headers, a plain bounce's copy). */
static void quoted_ids(est_intake_bounce *b, const GString *text)
{
	const char *p = text->str, *end = text->str + text->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *eol = nl ? nl : end;
		const char *q = p;

		while (q < eol && (*q == ' ' || *q == '\t' || *q == '>'))
			q++;
		if (eol - q > 11 && !g_ascii_strncasecmp(q, "message-id:", 11)) {
			const char *lt = memchr(q, '<', (size_t)(eol - q));
			const char *gt = lt ? memchr(lt, '>', (size_t)(eol - lt)) : NULL;
			if (lt && gt)
				list_add(b->ids, &b->id_count, lt + 1, (size_t)(gt - lt - 1));
		}
		p = eol + 1;
	}
}

/* The value of field `name` in one unfolded block of a delivery-status part, or NULL (g_free). */
static char *dsn_field(char **lines, const char *name)
{
	size_t n = strlen(name);

	for (; *lines; lines++)
		if (!g_ascii_strncasecmp(*lines, name, n) && (*lines)[n] == ':')
			return g_strstrip(g_strdup(*lines + n + 1));
	return NULL;
}

/*
 * A message/delivery-status part (RFC 3464 2.1): blocks of fields parted
 * by empty lines, the first per message, the others per recipient. Each
 * recipient whose Action is "failed" is added; the first one's Status and
 * Diagnostic-Code are kept. Returns how many failed.
 */
static size_t dsn_failed(est_intake_bounce *b, const GString *text)
{
	GString *unfolded = unix_lines(text->str, text->len);
	gchar **blocks, **block;
	size_t failed = 0;

	/* a continuation line (RFC 5322 folding) joins the line before it */
	for (size_t i = 0; i + 1 < unfolded->len; i++)
		if (unfolded->str[i] == '\n' && (unfolded->str[i + 1] == ' ' || unfolded->str[i + 1] == '\t'))
			unfolded->str[i] = ' ';
	blocks = g_strsplit(unfolded->str, "\n\n", 64);
	for (block = blocks; *block; block++) {
		gchar **lines = g_strsplit(*block, "\n", 64);
		char *action = dsn_field(lines, "Action"), *rcpt = dsn_field(lines, "Final-Recipient");
		char *status = dsn_field(lines, "Status"), *diag = dsn_field(lines, "Diagnostic-Code");

		if (action && rcpt && !g_ascii_strncasecmp(action, "failed", 6)) {
			const char *semi = strchr(rcpt, ';'), *addr = semi ? semi + 1 : rcpt;
			const char *d = diag && strchr(diag, ';') ? strchr(diag, ';') + 1 : diag;

			failed++;
			list_add(b->recipients, &b->recipient_count, addr, strlen(addr));
			if (!b->status && status && *status)
				b->status = one_line(status, strlen(status));
			if (!b->diagnostic && d)
				b->diagnostic = one_line(d, strlen(d));
		}
		g_free(action);
		g_free(rcpt);
		g_free(status);
		g_free(diag);
		g_strfreev(lines);
	}
	g_strfreev(blocks);
	g_string_free(unfolded, TRUE);
	return failed;
}

/*
 * Everything a bounce returns: the delivery-status parts (into `dsn`), the
 * ids of carried messages and of "Message-ID:" lines in text parts (into
 * b->ids), and the first text part (the human-readable one) into `human`.
 */
static void bounce_walk(GMimeObject *obj, est_intake_bounce *b, GString *dsn, GString **human, int depth)
{
	GMimeContentType *ct = g_mime_object_get_content_type(obj);

	if (depth > 8)
		return;
	if (GMIME_IS_MULTIPART(obj)) {
		GMimeMultipart *mp = GMIME_MULTIPART(obj);
		int i, n = g_mime_multipart_get_count(mp);

		for (i = 0; i < n; i++)
			bounce_walk(g_mime_multipart_get_part(mp, i), b, dsn, human, depth + 1);
	} else if (GMIME_IS_MESSAGE_PART(obj)) {
		GMimeMessage *inner = g_mime_message_part_get_message(GMIME_MESSAGE_PART(obj));
		const char *id = inner ? g_mime_message_get_message_id(inner) : NULL;
		if (id)
			list_add(b->ids, &b->id_count, id, strlen(id));
	} else if (GMIME_IS_PART(obj)) {
		GString *bytes = part_bytes(GMIME_PART(obj));

		cut_utf8(bytes, OBJECT_SCAN_MAX);
		if (g_mime_content_type_is_type(ct, "message", "delivery-status") ||
		    g_mime_content_type_is_type(ct, "message", "global-delivery-status")) {
			g_string_append_len(dsn, bytes->str, (gssize)bytes->len);
			g_string_append(dsn, "\n\n");
		} else if (g_mime_content_type_is_type(ct, "text", "*")) {
			quoted_ids(b, bytes);
			if (!*human)
				*human = unix_lines(bytes->str, bytes->len);
		}
		g_string_free(bytes, TRUE);
	}
}

/* A plain bounce's own words that delivery failed for good (subject or text); delay warnings are not. */
static int plain_bounce(const char *subject, const GString *human)
{
	static const char *const subjects[] = {
		"undelivered mail returned to sender", "mail delivery failed", "failure notice",
		"returned mail", "undeliverable", "delivery status notification (failure)",
		"mail delivery failure", "delivery failure", "undeliverable mail", NULL};
	static const char *const texts[] = {
		"this is the qmail-send program", "this is a permanent error",
		"could not be delivered to one or more recipients",
		"i'm sorry to have to inform you that your message could not", NULL};
	char *s = g_ascii_strdown(subject ? subject : "", -1);
	char *t = human ? g_ascii_strdown(human->str, (gssize)MIN(human->len, 4096)) : NULL;
	int yes = 0;

	if (strstr(s, "delay") || strstr(s, "warning"))
		goto out;
	for (size_t i = 0; subjects[i] && !yes; i++)
		yes = strstr(s, subjects[i]) != NULL;
	for (size_t i = 0; texts[i] && t && !yes; i++)
		yes = strstr(t, texts[i]) != NULL;
out:
	g_free(t);
	g_free(s);
	return yes;
}

/*
 * The failed recipients a plain bounce names before the copy of the
 * message: qmail's and Postfix's "<addr>: reason" lines, Exim's indented
 * "  addr" line followed by more indented lines of reason.
 */
static void plain_recipients(est_intake_bounce *b, const GString *human)
{
	gchar **lines = g_strsplit(human->str, "\n", 400);
	size_t i;

	for (i = 0; lines[i]; i++) {
		const char *l = lines[i], *s = l;
		char *lower = g_ascii_strdown(l, -1);
		int stop = strstr(lower, "copy of the message") || strstr(lower, "below this line") ||
			   strstr(lower, "returned message") || strstr(lower, "original message");

		g_free(lower);
		if (stop)
			break;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '<' && strstr(s, ">:") && memchr(s, '@', (size_t)(strstr(s, ">:") - s))) {
			const char *close = strstr(s, ">:");
			GString *why = g_string_new(close + 2);
			for (size_t j = i + 1; lines[j] && (lines[j][0] == ' ' || lines[j][0] == '\t') && j < i + 6; j++)
				g_string_append_printf(why, " %s", lines[j]);
			list_add(b->recipients, &b->recipient_count, s + 1, (size_t)(close - s - 1));
			if (!b->diagnostic)
				b->diagnostic = one_line(why->str, why->len);
			g_string_free(why, TRUE);
		} else if (s != l && strchr(s, '@') && !strpbrk(s, " \t<>:") && lines[i + 1] &&
			   strspn(lines[i + 1], " \t") > (size_t)(s - l)) {
			GString *why = g_string_new(NULL);
			for (size_t j = i + 1; lines[j] && strspn(lines[j], " \t") > (size_t)(s - l) && j < i + 6; j++)
				g_string_append_printf(why, " %s", lines[j]);
			list_add(b->recipients, &b->recipient_count, s, strlen(s));
			if (!b->diagnostic)
				b->diagnostic = one_line(why->str, why->len);
			g_string_free(why, TRUE);
		}
	}
	g_strfreev(lines);
}

static void bounce_free(est_intake_bounce *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->id_count; i++)
		free(b->ids[i]);
	for (i = 0; i < b->recipient_count; i++)
		free(b->recipients[i]);
	free(b->status);
	free(b->diagnostic);
	free(b);
}

/*
 * The bounce a message sent by a machine is, or NULL: a delivery-status
 * report with a failed recipient, else a plain bounce (plain_bounce). The
 * bounce's own Message-ID is never taken as a returned one.
 */
static est_intake_bounce *read_bounce(GMimeMessage *msg, const est_intake_message *m)
{
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	est_intake_bounce *b = calloc(1, sizeof(*b));
	GString *dsn = g_string_new(NULL), *human = NULL;
	int bounce = 0;
	char status[16];

	if (!b || !body)
		goto out;
	bounce_walk(body, b, dsn, &human, 0);
	if (dsn->len) {
		b->standard = 1;
		bounce = dsn_failed(b, dsn) > 0; /* only delayed, relayed or delivered: no bounce */
	} else if (plain_bounce(m->subject, human)) {
		bounce = 1;
		if (human)
			plain_recipients(b, human);
		if (!b->status && b->diagnostic && find_status(status, b->diagnostic))
			b->status = strdup(status);
		if (!b->status && human && find_status(status, human->str)) {
			b->status = strdup(status);
			/* no reason beside a recipient (Sendmail's transcript): the line with the code */
			if (!b->diagnostic) {
				const char *at = strstr(human->str, status), *start = at, *end = at;
				while (start > human->str && start[-1] != '\n')
					start--;
				end += strcspn(end, "\n");
				b->diagnostic = one_line(start, (size_t)(end - start));
			}
		}
		if (!b->status)
			b->status = strdup("5.0.0");
	}
	for (size_t i = 0; bounce && m->message_id && i < b->id_count; i++) {
		if (strcmp(b->ids[i], m->message_id) == 0) {
			free(b->ids[i]);
			b->ids[i] = b->ids[--b->id_count];
			break;
		}
	}
out:
	g_string_free(dsn, TRUE);
	if (human)
		g_string_free(human, TRUE);
	if (!bounce) {
		bounce_free(b);
		b = NULL;
	}
	return b;
}

/* The message's Date, text, attachments' names and, when a machine sent it, the bounce it is. */
static int read_for_people(est_intake_message *m, GMimeMessage *msg)
{
	const char *date = g_mime_object_get_header(GMIME_OBJECT(msg), "Date");
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	GString *names = g_string_new(NULL), *text = NULL;
	/* What a person reads of it matters only when it holds no order file (it goes to the GM). */
	int for_people = !m->unread && !m->count && !m->ignored, error = 0;

	if (date) /* NULL from one_line: a blank Date, which is none */
		m->date = one_line(date, strlen(date));
	if (for_people && (text = read_text(msg)) && !(m->text = strdup(text->str)))
		error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
	if (!error && for_people && body)
		attachment_names(body, names);
	if (!error && names->len && !(m->attachments = strdup(valid_utf8(names)->str)))
		error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
	if (!error && m->automated && !m->unread)
		m->bounce = read_bounce(msg, m);
	if (text)
		g_string_free(text, TRUE);
	g_string_free(names, TRUE);
	return error;
}

/* The length of the header section: up to and with the empty line that ends it, or all. */
static size_t header_section(const char *s, size_t len)
{
	const char *p = s;

	while ((p = memchr(p, '\n', len - (size_t)(p - s)))) {
		p++;
		if ((size_t)(p - s) < len && *p == '\n')
			return (size_t)(p - s) + 1;
		if ((size_t)(p - s) + 1 < len && p[0] == '\r' && p[1] == '\n')
			return (size_t)(p - s) + 2;
	}
	return len;
}

/* How many "boundary" parameters the bytes hold (case-insensitive), counted up to max + 1. */
static size_t count_boundaries(const char *s, size_t len, size_t max)
{
	size_t n = 0, i;

	for (i = 0; i + 8 <= len && n <= max; i++)
		if ((s[i] == 'b' || s[i] == 'B') && !g_ascii_strncasecmp(s + i, "boundary", 8))
			n++;
	return n;
}

/*
 * 0 if the message is multipart and its closing delimiter ("--boundary--")
 * is missing: a message cut off in transit. A cut inside any inner part
 * cuts the outer one too, so the outermost one says it.
 */
static int closed(GMimeMessage *msg, const char *bytes, size_t len)
{
	GMimeObject *body = g_mime_message_get_mime_part(msg);
	const char *boundary;
	char *close;
	int yes;

	/* the parameter as sent: GMime makes one up for a multipart that has none */
	if (!body || !GMIME_IS_MULTIPART(body) ||
	    !(boundary = g_mime_content_type_get_parameter(g_mime_object_get_content_type(body),
							   "boundary")))
		return 1;
	close = g_strconcat("--", boundary, "--", NULL);
	yes = last_of(bytes, len, close) != NULL;
	g_free(close);
	return yes;
}

int est_intake_parse(est_intake_message **out, const char *bytes, size_t len,
		     const char *return_path)
{
	est_intake_message *m = NULL;
	GMimeStream *stream = NULL;
	GMimeParser *parser = NULL;
	GMimeMessage *msg = NULL;
	collector c = {g_ptr_array_new_with_free_func(found_free),
		       g_ptr_array_new_with_free_func(found_free), {0, 0}, 0, NULL, 0};
	int complex, error;

	*out = NULL;
	skip_mbox_line(&bytes, &len);
	if (len == 0) {
		error = est_error_set(EST_EINVAL, "message: empty; send the orders as a mail");
		goto out;
	}
	ensure_gmime();
	/* Too many boundaries: GMime reads the header section alone, which is cheap. */
	if ((complex = count_boundaries(bytes, len, BOUNDARIES_MAX) > BOUNDARIES_MAX))
		len = header_section(bytes, len);
	stream = g_mime_stream_mem_new_with_buffer(bytes, len);
	parser = g_mime_parser_new_with_stream(stream);
	msg = g_mime_parser_construct_message(parser, NULL);
	if (!msg || g_mime_header_list_get_count(g_mime_object_get_header_list(GMIME_OBJECT(msg))) == 0) {
		error = est_error_set(EST_EINVAL,
				      "message: no header parses (not an RFC 5322 message); "
				      "send the orders as a mail");
		goto out;
	}
	if (!(m = calloc(1, sizeof(*m)))) {
		error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
		goto out;
	}
	if ((error = read_headers(m, msg, return_path)) < 0)
		goto out;
	if (complex) {
		m->unread = est_strdup_printf("its MIME structure has more than %d multipart "
					      "boundaries, so it was not read; send the order file and "
					      "its .sig in a plain message", BOUNDARIES_MAX);
		if (!m->unread)
			error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
		goto done;
	}
	c.open_end = bytes[len - 1] != '\n';
	walk_message(msg, "", 0, &c);
	if (!closed(msg, bytes, len))
		note_cut(&c, "its MIME parts end before the message's closing boundary");
	if ((error = fill_candidates(m, &c)) < 0)
		goto out;
	if (c.cut && !(m->truncated = strdup(c.cut->str))) {
		error = est_error_set(EST_ENOMEM, "mail intake: out of memory");
		goto out;
	}
done:
	if (error == 0)
		error = read_for_people(m, msg);
	if (error < 0)
		goto out;
	*out = m;
	m = NULL;
out:
	est_intake_free(m);
	g_ptr_array_free(c.top, TRUE);
	g_ptr_array_free(c.quoted, TRUE);
	if (c.cut)
		g_string_free(c.cut, TRUE);
	if (msg)
		g_object_unref(msg);
	if (parser)
		g_object_unref(parser);
	if (stream)
		g_object_unref(stream);
	return error;
}

void est_intake_free(est_intake_message *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->count; i++) {
		est_intake_candidate *c = &m->candidates[i];
		size_t j;

		for (j = 0; j < c->reading_count; j++)
			free(c->readings[j].bytes);
		for (j = 0; j < c->sig_count; j++)
			free(c->sigs[j].bytes);
		free(c->where);
	}
	free(m->candidates);
	free(m->from);
	free(m->reply_to);
	free(m->message_id);
	free(m->subject);
	free(m->automated_why);
	free(m->unread);
	free(m->truncated);
	free(m->date);
	free(m->text);
	free(m->attachments);
	bounce_free(m->bounce);
	free(m);
}
