/*
 * Mustache: a template is parsed once into a flat list of nodes (text,
 * variable, section, inverted section, partial), then rendered against a
 * stack of jansson values. Parsing does the spec's whitespace work
 * (standalone lines, partial indentation) so rendering only walks nodes.
 */
#include "render/render.h"
#include "util/error.h"
#include "util/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARTIAL_MAX_BYTES (1024 * 1024)
#define NO_SECTION SIZE_MAX
/* Sections nest by recursion while rendering; this keeps the C stack small. */
#define MAX_SECTION_DEPTH 100

enum node_type { NODE_TEXT, NODE_VAR, NODE_SECTION, NODE_INVERTED, NODE_PARTIAL };

struct node {
	enum node_type type;
	const char *str; /* TEXT: the text; the others: the name */
	size_t len;
	const char *indent; /* PARTIAL on a standalone line: the white space before it */
	size_t indent_len;
	int raw;     /* VAR: {{{x}}} or {{&x}}, never escaped */
	size_t end;  /* SECTION, INVERTED: index of the node after the body */
	size_t line; /* 1-based line of the tag, for messages */
};

struct template {
	char *source; /* owned text the nodes point into; NULL when borrowed */
	struct node *nodes;
	size_t count, cap;
};

struct parser {
	struct template *tmpl;
	const char *src;
	size_t len;
	size_t pos;
	size_t line;       /* line number at pos */
	size_t line_start; /* offset where that line starts */
	int tags_on_line;  /* tags already seen on that line */
	const char *open, *close;
	size_t open_len, close_len;
	size_t section; /* innermost open section, NO_SECTION at top level */
	int nesting;    /* sections open */
};

/* ---- parsing ---- */

static void template_free(struct template *tmpl)
{
	free(tmpl->nodes);
	free(tmpl->source);
	memset(tmpl, 0, sizeof(*tmpl));
}

static int add_node(struct node **out, struct parser *p, enum node_type type,
		    const char *str, size_t len)
{
	struct template *t = p->tmpl;

	if (t->count == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct node *grown = realloc(t->nodes, cap * sizeof(*grown));

		if (!grown)
			return est_error_set(EST_ENOMEM, "out of memory");
		t->nodes = grown;
		t->cap = cap;
	}
	*out = &t->nodes[t->count++];
	memset(*out, 0, sizeof(**out));
	(*out)->type = type;
	(*out)->str = str;
	(*out)->len = len;
	(*out)->line = p->line;
	return 0;
}

/* Text from pos up to `to`; keeps the line bookkeeping standalone tags need. */
static int add_text(struct parser *p, size_t to)
{
	struct node *node;
	size_t line = p->line, i;
	int error;

	for (i = p->pos; i < to; i++) {
		if (p->src[i] == '\n') {
			p->line++;
			p->line_start = i + 1;
			p->tags_on_line = 0;
		}
	}
	if (to == p->pos)
		return 0;
	if ((error = add_node(&node, p, NODE_TEXT, p->src + p->pos, to - p->pos)) < 0)
		return error;
	node->line = line;
	p->pos = to;
	return 0;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static void trim(const char **s, size_t *len)
{
	while (*len && is_space(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && is_space((*s)[*len - 1]))
		(*len)--;
}

/*
 * Find the end of a tag whose content starts at `from`: the closing
 * delimiter, preceded by `mark` for {{{x}}} ('}') and {{=a b=}} ('=').
 * Returns the offset of the closing delimiter (of `mark` when there is
 * one), or SIZE_MAX.
 */
static size_t find_close(const struct parser *p, size_t from, char mark)
{
	size_t at = from;

	for (;;) {
		const char *hit = memmem(p->src + at, p->len - at, p->close, p->close_len);
		size_t q;

		if (!hit)
			return SIZE_MAX;
		q = (size_t)(hit - p->src);
		if (!mark)
			return q;
		if (q > from && p->src[q - 1] == mark)
			return q - 1;
		at = q + 1;
	}
}

/*
 * Whether the tag [at, after) stands alone on its line (Mustache spec: only
 * white space around it, no other tag). If so, *next is where the text
 * resumes: after the line's end, which the tag swallows.
 */
static int standalone(size_t *next, const struct parser *p, size_t at, size_t after)
{
	size_t i;

	if (p->tags_on_line)
		return 0;
	for (i = p->line_start; i < at; i++)
		if (!is_blank(p->src[i]))
			return 0;
	for (i = after; i < p->len && is_blank(p->src[i]); i++)
		;
	if (i == p->len) {
		*next = i;
		return 1;
	}
	if (p->src[i] == '\n') {
		*next = i + 1;
		return 1;
	}
	if (p->src[i] == '\r' && i + 1 < p->len && p->src[i + 1] == '\n') {
		*next = i + 2;
		return 1;
	}
	return 0;
}

static int check_name(const struct parser *p, size_t line, char kind,
		      const char *name, size_t len)
{
	size_t i;
	const char *sigil = kind ? (const char[]){kind, '\0'} : "";

	if (len == 0)
		return est_error_set(EST_EINVAL,
				     "line %zu: tag %.*s%s%.*s has no name; write a name such as %.*s%sunits%.*s",
				     line, (int)p->open_len, p->open, sigil, (int)p->close_len, p->close,
				     (int)p->open_len, p->open, sigil, (int)p->close_len, p->close);
	for (i = 0; i < len; i++)
		if (is_space(name[i]))
			return est_error_set(EST_EINVAL,
					     "line %zu: tag %.*s%s%.*s%.*s has white space in its name; a name is one word such as \"player.name\"",
					     line, (int)p->open_len, p->open, sigil, (int)len, name,
					     (int)p->close_len, p->close);
	return 0;
}

/* {{=<% %>=}}: the two new delimiters, which live in the source. */
static int set_delimiters(struct parser *p, size_t line, const char *content, size_t len)
{
	const char *open = content, *close;
	size_t open_len = 0, close_len, i = 0;

	trim(&open, &len);
	while (open_len < len && !is_space(open[open_len]))
		open_len++;
	for (i = open_len; i < len && is_space(open[i]); i++)
		;
	close = open + i;
	close_len = len - i;
	for (i = 0; i < close_len; i++)
		if (is_space(close[i]))
			close_len = 0;
	if (!open_len || !close_len)
		return est_error_set(EST_EINVAL,
				     "line %zu: set-delimiter tag %.*s=%.*s=%.*s needs two delimiters; write it as %.*s=<%% %%>=%.*s",
				     line, (int)p->open_len, p->open, (int)len, open,
				     (int)p->close_len, p->close, (int)p->open_len, p->open,
				     (int)p->close_len, p->close);
	p->open = open;
	p->open_len = open_len;
	p->close = close;
	p->close_len = close_len;
	return 0;
}

static int open_section(struct parser *p, enum node_type type, const char *name,
			size_t len, size_t line)
{
	struct node *node;
	int error;

	if (++p->nesting > MAX_SECTION_DEPTH)
		return est_error_set(EST_EINVAL,
				     "line %zu: section \"%.*s\" nests more than %d sections deep; split the template into partials",
				     line, (int)len, name, MAX_SECTION_DEPTH);
	if ((error = add_node(&node, p, type, name, len)) < 0)
		return error;
	node->line = line;
	/* While the section is open, `end` links to the enclosing one. */
	node->end = p->section;
	p->section = p->tmpl->count - 1;
	return 0;
}

static int close_section(struct parser *p, const char *name, size_t len, size_t line)
{
	struct node *open;

	if (p->section == NO_SECTION)
		return est_error_set(EST_EINVAL,
				     "line %zu: %.*s/%.*s%.*s closes no open section; remove it or add %.*s#%.*s%.*s before it",
				     line, (int)p->open_len, p->open, (int)len, name,
				     (int)p->close_len, p->close, (int)p->open_len, p->open,
				     (int)len, name, (int)p->close_len, p->close);
	open = &p->tmpl->nodes[p->section];
	if (open->len != len || memcmp(open->str, name, len) != 0)
		return est_error_set(EST_EINVAL,
				     "line %zu: %.*s/%.*s%.*s does not match section \"%.*s\" opened on line %zu; close \"%.*s\" first",
				     line, (int)p->open_len, p->open, (int)len, name,
				     (int)p->close_len, p->close, (int)open->len, open->str,
				     open->line, (int)open->len, open->str);
	p->section = open->end;
	open->end = p->tmpl->count;
	p->nesting--;
	return 0;
}

/*
 * The node for a tag of `kind` ('\0' for a variable) holding `name`;
 * `indent` is the white space before a standalone tag, NULL otherwise.
 */
static int add_tag(struct parser *p, char kind, const char *name, size_t name_len,
		   size_t line, const char *indent, size_t indent_len)
{
	struct node *node;
	int error;

	if (kind == '!')
		return 0;
	if (kind == '=')
		return set_delimiters(p, line, name, name_len);
	trim(&name, &name_len);
	if ((error = check_name(p, line, kind, name, name_len)) < 0)
		return error;
	if (kind == '#' || kind == '^')
		return open_section(p, kind == '#' ? NODE_SECTION : NODE_INVERTED,
				    name, name_len, line);
	if (kind == '/')
		return close_section(p, name, name_len, line);
	if (kind == '>') {
		if ((error = add_node(&node, p, NODE_PARTIAL, name, name_len)) == 0 && indent) {
			node->indent = indent;
			node->indent_len = indent_len;
		}
		return error;
	}
	if ((error = add_node(&node, p, NODE_VAR, name, name_len)) == 0)
		node->raw = kind != '\0';
	return error;
}

/* One tag starting at `at` (the opening delimiter). */
static int parse_tag(struct parser *p, size_t at)
{
	size_t line = p->line, content = at + p->open_len, close, after, next, i;
	char kind = content < p->len ? p->src[content] : '\0';
	const char *name;
	size_t name_len;
	int error, alone = 0;

	if (kind && strchr("#^/>!&{=", kind))
		content++;
	else
		kind = '\0';
	close = find_close(p, content, kind == '{' ? '}' : kind == '=' ? '=' : '\0');
	if (close == SIZE_MAX) {
		/* Show the tag's start, up to its line's end. */
		size_t shown = 0;

		while (at + shown < p->len && shown < 24 && p->src[at + shown] != '\n' &&
		       p->src[at + shown] != '\r')
			shown++;
		return est_error_set(EST_EINVAL,
				     "line %zu: tag \"%.*s\" is never closed; end it with %s%.*s",
				     line, (int)shown, p->src + at,
				     kind == '{' ? "}" : kind == '=' ? "=" : "",
				     (int)p->close_len, p->close);
	}
	name = p->src + content;
	name_len = close - content;
	after = close + p->close_len + (kind == '{' || kind == '=');
	for (i = at; i < after; i++)
		if (p->src[i] == '\n')
			p->line++;

	if (kind && strchr("#^/>!=", kind))
		alone = standalone(&next, p, at, after);
	if (alone) {
		/* The line's indentation ends the text node before the tag. */
		struct node *last = p->tmpl->count ? &p->tmpl->nodes[p->tmpl->count - 1] : NULL;

		if (at > p->line_start && last && last->type == NODE_TEXT)
			last->len -= at - p->line_start;
	} else {
		next = after;
		p->tags_on_line++;
	}

	if ((error = add_tag(p, kind, name, name_len, line,
			     alone ? p->src + p->line_start : NULL, at - p->line_start)) < 0)
		return error;

	if (alone && next > after && p->src[next - 1] == '\n') {
		p->line++;
		p->line_start = next;
		p->tags_on_line = 0;
	}
	p->pos = next;
	return 0;
}

/*
 * Parse `len` bytes of `src` into *tmpl (nodes point into src, which must
 * outlive the template). Errors: EST_EINVAL with the line, EST_ENOMEM.
 */
static int parse(struct template *tmpl, const char *src, size_t len)
{
	struct parser p = {
		.tmpl = tmpl, .src = src, .len = len, .line = 1,
		.open = "{{", .close = "}}", .open_len = 2, .close_len = 2,
		.section = NO_SECTION,
	};
	int error;

	while (p.pos < p.len) {
		const char *tag = memmem(src + p.pos, len - p.pos, p.open, p.open_len);
		size_t at = tag ? (size_t)(tag - src) : len;

		if ((error = add_text(&p, at)) < 0)
			return error;
		if (tag && (error = parse_tag(&p, at)) < 0)
			return error;
	}
	if (p.section != NO_SECTION) {
		const struct node *open = &tmpl->nodes[p.section];

		return est_error_set(EST_EINVAL,
				     "line %zu: section \"%.*s\" is never closed; add %.*s/%.*s%.*s after its body",
				     open->line, (int)open->len, open->str, (int)p.open_len, p.open,
				     (int)open->len, open->str, (int)p.close_len, p.close);
	}
	return 0;
}

/* ---- rendering ---- */

struct buf {
	char *data;
	size_t len, cap;
};

/* A partial's text as its loader gave it, once per name; NULL text: not found. */
struct partial_source {
	struct partial_source *next;
	char *name;
	char *text;
};

/* A partial parsed with the indentation of the standalone tag that includes it. */
struct partial_variant {
	struct partial_variant *next;
	const struct partial_source *source;
	char *indent;
	size_t indent_len;
	struct template tmpl;
};

struct renderer {
	struct buf out;
	const json_t **stack;
	size_t depth, stack_cap;
	int escape;
	est_render_partial_fn load;
	void *payload;
	struct partial_source *sources;
	struct partial_variant *variants;
	int partial_depth;
};

static int buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->cap - b->len <= n) {
		size_t cap = b->cap ? b->cap : 256;
		char *grown;

		while (cap - b->len <= n)
			cap *= 2;
		if (!(grown = realloc(b->data, cap)))
			return est_error_set(EST_ENOMEM, "out of memory");
		b->data = grown;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

static int add_escaped(struct buf *b, const char *s, size_t n)
{
	size_t i, from = 0;
	int error;

	for (i = 0; i < n; i++) {
		const char *entity;

		switch (s[i]) {
		case '&': entity = "&amp;"; break;
		case '"': entity = "&quot;"; break;
		case '\'': entity = "&#39;"; break;
		case '<': entity = "&lt;"; break;
		case '>': entity = "&gt;"; break;
		default: continue;
		}
		if ((error = buf_add(b, s + from, i - from)) < 0 ||
		    (error = buf_add(b, entity, strlen(entity))) < 0)
			return error;
		from = i + 1;
	}
	return buf_add(b, s + from, n - from);
}

/*
 * The shortest text that reads back as `d`: whole numbers without a point
 * ("100"), others with as few significant digits as round-trip ("1.21").
 */
static void format_real(char *out, size_t size, double d)
{
	int precision;

	if (d > -1e15 && d < 1e15 && d == (double)(long long)d) {
		snprintf(out, size, "%lld", (long long)d);
		return;
	}
	for (precision = 1; precision < 17; precision++) {
		snprintf(out, size, "%.*g", precision, d);
		if (strtod(out, NULL) == d)
			return;
	}
	snprintf(out, size, "%.17g", d);
}

static int add_value(struct renderer *r, const json_t *v, int raw)
{
	char number[64];
	const char *text = number;
	char *dumped = NULL;
	size_t len;
	int error;

	if (!v)
		return 0;
	switch (json_typeof(v)) {
	case JSON_STRING:
		text = json_string_value(v);
		len = json_string_length(v);
		break;
	case JSON_INTEGER:
		len = (size_t)snprintf(number, sizeof(number), "%" JSON_INTEGER_FORMAT,
				       json_integer_value(v));
		break;
	case JSON_REAL:
		format_real(number, sizeof(number), json_real_value(v));
		len = strlen(number);
		break;
	case JSON_TRUE:
		text = "true";
		len = 4;
		break;
	case JSON_FALSE:
		text = "false";
		len = 5;
		break;
	case JSON_NULL:
		return 0;
	default:
		if (!(dumped = json_dumps(v, JSON_COMPACT)))
			return est_error_set(EST_ENOMEM, "out of memory");
		text = dumped;
		len = strlen(dumped);
		break;
	}
	error = raw || !r->escape ? buf_add(&r->out, text, len) : add_escaped(&r->out, text, len);
	free(dumped);
	return error;
}

static int push(struct renderer *r, const json_t *v)
{
	if (r->depth == r->stack_cap) {
		size_t cap = r->stack_cap ? r->stack_cap * 2 : 16;
		const json_t **grown = realloc(r->stack, cap * sizeof(*grown));

		if (!grown)
			return est_error_set(EST_ENOMEM, "out of memory");
		r->stack = grown;
		r->stack_cap = cap;
	}
	r->stack[r->depth++] = v;
	return 0;
}

/*
 * Resolve a name (Mustache spec, "Interpolation"): "." is the top of the
 * stack; otherwise the first dotted part is looked up from the top down,
 * and each further part only inside the value before it. NULL: a miss.
 */
static const json_t *lookup(const struct renderer *r, const char *name, size_t len)
{
	const json_t *v = NULL;
	size_t part, i;

	if (len == 1 && name[0] == '.')
		return r->depth ? r->stack[r->depth - 1] : NULL;
	for (part = 0; part < len && name[part] != '.'; part++)
		;
	if (part == 0)
		return NULL;
	for (i = r->depth; i > 0 && !v; i--)
		if (json_is_object(r->stack[i - 1]))
			v = json_object_getn(r->stack[i - 1], name, part);
	while (v && part < len) {
		name += part + 1;
		len -= part + 1;
		for (part = 0; part < len && name[part] != '.'; part++)
			;
		if (part == 0 || !json_is_object(v))
			return NULL;
		v = json_object_getn(v, name, part);
	}
	return v;
}

/* Falsy per the spec: false, null, a miss and the empty list. */
static int truthy(const json_t *v)
{
	if (!v || json_is_false(v) || json_is_null(v))
		return 0;
	return !json_is_array(v) || json_array_size(v) > 0;
}

static int render_nodes(struct renderer *r, const struct template *tmpl, size_t from, size_t to);

static int render_section(struct renderer *r, const struct template *tmpl, size_t at)
{
	const struct node *node = &tmpl->nodes[at];
	const json_t *v = lookup(r, node->str, node->len);
	size_t i;
	int error = 0;

	if (node->type == NODE_INVERTED)
		return truthy(v) ? 0 : render_nodes(r, tmpl, at + 1, node->end);
	if (!truthy(v))
		return 0;
	if (!json_is_array(v)) {
		if ((error = push(r, v)) < 0)
			return error;
		error = render_nodes(r, tmpl, at + 1, node->end);
		r->depth--;
		return error;
	}
	for (i = 0; i < json_array_size(v) && error == 0; i++) {
		if ((error = push(r, json_array_get(v, i))) < 0)
			return error;
		error = render_nodes(r, tmpl, at + 1, node->end);
		r->depth--;
	}
	return error;
}

/* The partial's text, loading it on first use. *out NULL: no such partial. */
static int partial_source(const struct partial_source **out, struct renderer *r,
			  const char *name, size_t len)
{
	struct partial_source *s;
	int error;

	for (s = r->sources; s; s = s->next) {
		if (strlen(s->name) == len && memcmp(s->name, name, len) == 0) {
			*out = s;
			return 0;
		}
	}
	if (!(s = calloc(1, sizeof(*s))) || !(s->name = strndup(name, len))) {
		free(s);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	s->next = r->sources;
	r->sources = s;
	if (!r->load)
		goto found;
	error = r->load(&s->text, s->name, r->payload);
	if (error == EST_ENOTFOUND) {
		est_error_clear();
		s->text = NULL;
	} else if (error < 0) {
		s->text = NULL;
		return error;
	} else if (!s->text) {
		return est_error_set(EST_ERROR, "partial \"%s\": the loader gave no text", s->name);
	}
found:
	*out = s;
	return 0;
}

/*
 * A standalone partial's indentation goes in front of every line of its
 * text before parsing (Mustache spec, "Partials"), so that only template
 * lines are indented and inserted data is not.
 */
static char *indent_text(const char *text, const char *indent, size_t indent_len)
{
	size_t len = strlen(text), lines = 1, i, o = 0;
	char *out;

	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (!(out = malloc(len + lines * indent_len + 1)))
		return NULL;
	memcpy(out, indent, indent_len);
	o = indent_len;
	for (i = 0; i < len; i++) {
		out[o++] = text[i];
		if (text[i] == '\n' && i + 1 < len) {
			memcpy(out + o, indent, indent_len);
			o += indent_len;
		}
	}
	out[o] = '\0';
	return out;
}

static int partial_template(const struct template **out, struct renderer *r,
			    const struct node *node)
{
	const struct partial_source *source = NULL;
	struct partial_variant *v;
	int error;

	*out = NULL;
	if ((error = partial_source(&source, r, node->str, node->len)) < 0)
		return error;
	if (!source->text)
		return 0;
	for (v = r->variants; v; v = v->next) {
		if (v->source == source && v->indent_len == node->indent_len &&
		    (!node->indent_len || memcmp(v->indent, node->indent, node->indent_len) == 0)) {
			*out = &v->tmpl;
			return 0;
		}
	}
	if (!(v = calloc(1, sizeof(*v))))
		return est_error_set(EST_ENOMEM, "out of memory");
	v->next = r->variants;
	r->variants = v;
	v->source = source;
	if (!(v->indent = strndup(node->indent ? node->indent : "", node->indent_len)) ||
	    !(v->tmpl.source = indent_text(source->text, v->indent, node->indent_len)))
		return est_error_set(EST_ENOMEM, "out of memory");
	v->indent_len = node->indent_len;
	if ((error = parse(&v->tmpl, v->tmpl.source, strlen(v->tmpl.source))) < 0)
		return est_error_prefix("partial \"%s\"", source->name);
	*out = &v->tmpl;
	return 0;
}

static int render_partial(struct renderer *r, const struct node *node)
{
	const struct template *tmpl;
	int error;

	if (r->partial_depth >= EST_RENDER_MAX_PARTIAL_DEPTH)
		return est_error_set(EST_EINVAL,
				     "line %zu: partial \"%.*s\" is nested more than %d deep; a partial that includes itself needs a section that ends the recursion",
				     node->line, (int)node->len, node->str,
				     EST_RENDER_MAX_PARTIAL_DEPTH);
	if ((error = partial_template(&tmpl, r, node)) < 0 || !tmpl)
		return error;
	r->partial_depth++;
	error = render_nodes(r, tmpl, 0, tmpl->count);
	r->partial_depth--;
	return error;
}

static int render_nodes(struct renderer *r, const struct template *tmpl, size_t from, size_t to)
{
	size_t i = from;
	int error = 0;

	while (i < to && error == 0) {
		const struct node *node = &tmpl->nodes[i];

		switch (node->type) {
		case NODE_TEXT:
			error = buf_add(&r->out, node->str, node->len);
			break;
		case NODE_VAR:
			error = add_value(r, lookup(r, node->str, node->len), node->raw);
			break;
		case NODE_SECTION:
		case NODE_INVERTED:
			error = render_section(r, tmpl, i);
			i = node->end;
			continue;
		case NODE_PARTIAL:
			error = render_partial(r, node);
			break;
		}
		i++;
	}
	return error;
}

static void renderer_free(struct renderer *r)
{
	while (r->variants) {
		struct partial_variant *v = r->variants;

		r->variants = v->next;
		template_free(&v->tmpl);
		free(v->indent);
		free(v);
	}
	while (r->sources) {
		struct partial_source *s = r->sources;

		r->sources = s->next;
		free(s->text);
		free(s->name);
		free(s);
	}
	free(r->stack);
	free(r->out.data);
}

int est_render(char **out, const char *template, const json_t *data, int flags,
	       est_render_partial_fn partials, void *payload)
{
	struct template tmpl = {0};
	struct renderer r = {0};
	int error;

	if (!out || !template || (flags & ~EST_RENDER_NO_ESCAPE))
		return est_error_set(EST_EINVAL,
				     "est_render: needs an out pointer, a template and flags EST_RENDER_ESCAPE_HTML or EST_RENDER_NO_ESCAPE");
	r.escape = !(flags & EST_RENDER_NO_ESCAPE);
	r.load = partials;
	r.payload = payload;
	if ((error = parse(&tmpl, template, strlen(template))) < 0)
		goto out;
	if (data && (error = push(&r, data)) < 0)
		goto out;
	if ((error = buf_add(&r.out, "", 0)) < 0)
		goto out;
	if ((error = render_nodes(&r, &tmpl, 0, tmpl.count)) < 0)
		goto out;
	*out = r.out.data;
	r.out.data = NULL;
out:
	renderer_free(&r);
	template_free(&tmpl);
	return error;
}

int est_render_file_partials(char **out, const char *name, void *dir)
{
	char *path, *text = NULL;
	size_t len;
	int error;

	if (!name || !*name || name[0] == '.' || strchr(name, '/') || strchr(name, '\\'))
		return est_error_set(EST_EINVAL,
				     "partial \"%s\": a partial name may not be empty, hold '/' or '\\' or start with '.'; name a file in the template folder, e.g. {{>unit-row}}",
				     name ? name : "");
	if (!dir)
		return est_error_set(EST_EINVAL, "partial \"%s\": no template folder given", name);
	if (!(path = est_strdup_printf("%s/%s.mustache", (const char *)dir, name)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_file_read(&text, &len, path, PARTIAL_MAX_BYTES)) == 0)
		*out = text;
	free(path);
	return error;
}
