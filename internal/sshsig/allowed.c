/*
 * allowed_signers files, as ssh-keygen(1) "ALLOWED SIGNERS" describes them:
 *
 *     principals [options] keytype base64 [comment]
 *
 * Unlike ssh-keygen, which skips a line it cannot read, every line must
 * parse: a typo in the game's key list should stop the game master, not
 * quietly lock a player out.
 */
#include "sshsig/sshsig_private.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sshsig/sshsig.h"
#include "util/error.h"

#define LINE_MAX_LEN (64 * 1024)

static int line_error(size_t no, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int line_error(size_t no, const char *fmt, ...)
{
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return est_error_set(EST_EINVAL, "allowed_signers line %zu: %s", no, what);
}

/* A glob of * and ? over the `n` bytes at `pat`, as ssh's match_pattern. */
static int glob_match(const char *s, const char *pat, size_t n)
{
	size_t pi = 0, star = (size_t)-1;
	const char *star_s = NULL;

	while (*s) {
		if (pi < n && pat[pi] == '*') {
			star = pi++;
			star_s = s;
		} else if (pi < n && (pat[pi] == '?' || pat[pi] == *s)) {
			s++;
			pi++;
		} else if (star != (size_t)-1) {
			pi = star + 1;
			s = ++star_s;
		} else {
			return 0;
		}
	}
	while (pi < n && pat[pi] == '*')
		pi++;
	return pi == n;
}

int sshsig_match_list(const char *s, const char *list)
{
	const char *p = list;
	int matched = 0;
	size_t n;

	for (;;) {
		n = strcspn(p, ",");
		if (n > 0 && p[0] == '!') {
			if (glob_match(s, p + 1, n - 1))
				return 0; /* a negated match vetoes the whole list */
		} else if (glob_match(s, p, n)) {
			matched = 1;
		}
		if (p[n] == '\0')
			return matched;
		p += n + 1;
	}
}

static char *skip_blanks(char *p)
{
	return p + strspn(p, " \t");
}

/*
 * Cut the next blank-separated field out of the line at *p, keeping any
 * double quotes in it (blanks inside quotes do not end the field).
 */
static int take_field(char **out, char **p, size_t no, const char *what)
{
	char *s = *p;
	int quoted = 0;

	*out = s;
	for (; *s && (quoted || (*s != ' ' && *s != '\t')); s++) {
		if (*s == '"')
			quoted = !quoted;
	}
	if (quoted)
		return line_error(no, "%s: a double quote is not closed", what);
	if (*s)
		*s++ = '\0';
	*p = skip_blanks(s);
	return 0;
}

/*
 * YYYYMMDD[HHMM[SS]][Z], as ssh-keygen's valid-after/valid-before: UTC with
 * the Z, else local time. -1 if not such a time.
 */
static int parse_time(time_t *out, const char *text)
{
	size_t n = strlen(text), i;
	int v[6] = { 0, 1, 1, 0, 0, 0 }, utc = 0;
	static const int width[6] = { 4, 2, 2, 2, 2, 2 };
	struct tm tm, back;
	const char *p = text;

	if (n > 0 && text[n - 1] == 'Z') {
		utc = 1;
		n--;
	}
	if (n != 8 && n != 12 && n != 14)
		return -1;
	for (i = 0; i < n; i++)
		if (text[i] < '0' || text[i] > '9')
			return -1;
	for (i = 0; i < 6 && p < text + n; p += width[i], i++) {
		v[i] = 0;
		for (int k = 0; k < width[i]; k++)
			v[i] = v[i] * 10 + (p[k] - '0');
	}
	if (v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 59)
		return -1;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = v[0] - 1900;
	tm.tm_mon = v[1] - 1;
	tm.tm_mday = v[2];
	tm.tm_hour = v[3];
	tm.tm_min = v[4];
	tm.tm_sec = v[5];
	tm.tm_isdst = -1;
	*out = utc ? timegm(&tm) : mktime(&tm);
	/* 20250231 would roll over into March: refuse dates that do not exist. */
	if ((utc ? gmtime_r(out, &back) : localtime_r(out, &back)) == NULL ||
	    back.tm_year != v[0] - 1900 || back.tm_mon != v[1] - 1 || back.tm_mday != v[2])
		return -1;
	return 0;
}

static int set_option(char **slot, const char *name, const char *value, size_t no)
{
	if (*slot)
		return line_error(no, "option %s is given twice; keep one", name);
	if ((*slot = strdup(value)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
	return 0;
}

static int time_option(time_t *t, char **text, int *has, const char *name,
	const char *value, size_t no)
{
	int error;

	if ((error = set_option(text, name, value, no)) < 0)
		return error;
	if (parse_time(t, value) < 0)
		return line_error(no, "%s=\"%s\" is not a time; write YYYYMMDD, YYYYMMDDHHMM "
			"or YYYYMMDDHHMMSS, with a Z for UTC (e.g. %s=\"20270101Z\")",
			name, value, name);
	*has = 1;
	return 0;
}

/* namespaces="...", valid-after="...", valid-before="..." (names in any case). */
static int parse_options(struct sshsig_signer *s, char *opts, size_t no)
{
	char *p = opts, *name, *value, *end;
	size_t name_len;
	int error;

	for (;;) {
		name = p;
		name_len = strcspn(p, "=,");
		p += name_len;
		if (name_len == strlen("cert-authority") &&
		    strncasecmp(name, "cert-authority", name_len) == 0)
			return line_error(no, "cert-authority is not supported: estafette checks "
				"players' own keys, not certificates; list each player's key instead");
		if (*p != '=')
			return line_error(no, "option \"%.*s\" is unknown or has no value "
				"(estafette knows namespaces=, valid-after=, valid-before=)",
				(int)name_len, name);
		*p++ = '\0';
		if (*p == '"') {
			value = ++p;
			if ((end = strchr(p, '"')) == NULL)
				return line_error(no, "option %s: a double quote is not closed", name);
			*end = '\0';
			p = end + 1;
		} else {
			value = p;
			p += strcspn(p, ",\"");
			if (*p == '"')
				return line_error(no, "option %s: a double quote inside a value; "
					"quote the whole value", name);
		}
		if (*p != ',' && *p != '\0')
			return line_error(no, "option %s: expected a comma after the value", name);
		end = p;
		p += (*p == ',');
		*end = '\0';

		if (strcasecmp(name, "namespaces") == 0)
			error = set_option(&s->namespaces, "namespaces", value, no);
		else if (strcasecmp(name, "valid-after") == 0)
			error = time_option(&s->after, &s->after_text, &s->has_after,
				"valid-after", value, no);
		else if (strcasecmp(name, "valid-before") == 0)
			error = time_option(&s->before, &s->before_text, &s->has_before,
				"valid-before", value, no);
		else
			error = line_error(no, "option \"%s\" is unknown (estafette knows "
				"namespaces=, valid-after=, valid-before=)", name);
		if (error < 0)
			return error;
		if (*p == '\0')
			return 0;
	}
}

/* An options field has a '=' or a quote, or is cert-authority; a key type has neither. */
static int looks_like_options(const char *field)
{
	return strpbrk(field, "=\"") != NULL ||
		strncasecmp(field, "cert-authority", strlen("cert-authority")) == 0;
}

static int parse_key(struct sshsig_signer *s, const char *type, const char *b64, size_t no)
{
	unsigned char *blob = NULL;
	size_t len;
	int error;

	if ((error = sshsig_base64_decode(&blob, &len, b64, strlen(b64))) < 0) {
		if (error == EST_EINVAL)
			error = line_error(no, "the %s key is not base64; copy it again from the "
				"player's .pub file", type);
		return error;
	}
	if ((error = sshsig_key_parse(&s->key, blob, len, EST_EINVAL)) < 0) {
		est_error_prefix("allowed_signers line %zu", no);
		goto out;
	}
	if (strcmp(s->key.type, type) != 0)
		error = line_error(no, "the key says it is %s, but the line says %s; copy the "
			"line again from the player's .pub file", s->key.type, type);
out:
	free(blob);
	return error;
}

/* One line, NUL-terminated and without its line end. *used is 0 for blanks and comments. */
static int parse_line(struct sshsig_signer *s, int *used, char *line, size_t no)
{
	char *p = skip_blanks(line), *principals, *field, *type, *b64;
	size_t n;
	int error;

	*used = 0;
	if (*p == '\0' || *p == '#')
		return 0;
	*used = 1;
	s->line = no;
	if ((error = take_field(&principals, &p, no, "principals")) < 0)
		return error;
	n = strlen(principals);
	if (n >= 2 && principals[0] == '"' && principals[n - 1] == '"') {
		principals[n - 1] = '\0';
		principals++;
	}
	if (*principals == '\0' || strchr(principals, '"'))
		return line_error(no, "the principals field is empty or badly quoted");
	if (*p == '\0')
		return line_error(no, "no key after the principals; write the line as "
			"\"%s ssh-ed25519 AAAA...\", options such as namespaces= before the "
			"key type", principals);
	if ((s->principals = strdup(principals)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
	if ((error = take_field(&field, &p, no, "options")) < 0)
		return error;
	if (looks_like_options(field)) {
		if ((error = parse_options(s, field, no)) < 0)
			return error;
		if (*p == '\0')
			return line_error(no, "no key after the options");
		if ((error = take_field(&field, &p, no, "key type")) < 0)
			return error;
	}
	type = field;
	if (*p == '\0')
		return line_error(no, "key type \"%s\" is not followed by the key's base64",
			type);
	if ((error = take_field(&b64, &p, no, "key")) < 0)
		return error;
	return parse_key(s, type, b64, no); /* the rest of the line is a comment */
}

static void signer_free(struct sshsig_signer *s)
{
	free(s->principals);
	free(s->namespaces);
	free(s->after_text);
	free(s->before_text);
	sshsig_key_free(&s->key);
	memset(s, 0, sizeof(*s));
}

static int append(struct sshsig_allowed *a, struct sshsig_signer *s)
{
	struct sshsig_signer *grown;

	if ((grown = realloc(a->signers, (a->n + 1) * sizeof(*grown))) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
	a->signers = grown;
	a->signers[a->n++] = *s;
	memset(s, 0, sizeof(*s));
	return 0;
}

int sshsig_allowed_parse(struct sshsig_allowed *out, const char *text, size_t len)
{
	struct sshsig_allowed a = { NULL, 0 };
	struct sshsig_signer s;
	const char *p = text, *stop = text + len, *nl;
	char *line = NULL;
	size_t no = 0, n;
	int used, error = 0;

	memset(&s, 0, sizeof(s));
	for (; p < stop; p = nl ? nl + 1 : stop) {
		no++;
		nl = memchr(p, '\n', (size_t)(stop - p));
		n = (size_t)((nl ? nl : stop) - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (n > LINE_MAX_LEN) {
			error = line_error(no, "the line is longer than %d bytes", LINE_MAX_LEN);
			goto out;
		}
		if (memchr(p, '\0', n)) {
			error = line_error(no, "the line holds a NUL byte; is this a text file?");
			goto out;
		}
		free(line);
		if ((line = strndup(p, n)) == NULL) {
			error = est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
			goto out;
		}
		if ((error = parse_line(&s, &used, line, no)) < 0)
			goto out;
		if (used && (error = append(&a, &s)) < 0)
			goto out;
	}
	*out = a;
	a.signers = NULL;
	a.n = 0;
out:
	free(line);
	signer_free(&s);
	sshsig_allowed_free(&a);
	return error;
}

void sshsig_allowed_free(struct sshsig_allowed *a)
{
	for (size_t i = 0; i < a->n; i++)
		signer_free(&a->signers[i]);
	free(a->signers);
	a->signers = NULL;
	a->n = 0;
}

/* ---- keys/allowed_signers as estafette writes it ---- */

/* A principal or a namespace: no pattern characters, quotes, commas or spaces. */
static int is_plain_name(const char *s, size_t n)
{
	if (n == 0 || n > 64)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '_' || s[i] == '-' ||
		      s[i] == '@'))
			return 0;
	return 1;
}

static int is_namespace_list(const char *s)
{
	size_t n;

	for (;;) {
		n = strcspn(s, ",");
		if (!is_plain_name(s, n))
			return 0;
		if (s[n] == '\0')
			return 1;
		s += n + 1;
	}
}

int est_sshsig_allowed_line(char **line_out, const char *principal, const char *namespaces,
	const char *key_text)
{
	char *canonical = NULL;
	int error;

	*line_out = NULL;
	/* allowed_signers reads principals as a pattern list: "a,*" would be every principal. */
	if (!principal || !is_plain_name(principal, strlen(principal)))
		return est_error_set(EST_EINVAL, "principal \"%.64s\" must be 1 to 64 "
			"of A-Z a-z 0-9 . _ - @ (no patterns, commas or quotes)",
			principal ? principal : "");
	if (!namespaces || !is_namespace_list(namespaces))
		return est_error_set(EST_EINVAL, "namespaces \"%.64s\" must be "
			"names of A-Z a-z 0-9 . _ - @ joined by commas", namespaces ? namespaces : "");
	if ((error = est_sshsig_canonical_key(&canonical, NULL, key_text)) < 0)
		return error;
	if (asprintf(line_out, "%s namespaces=\"%s\" %s\n", principal, namespaces, canonical) < 0) {
		*line_out = NULL;
		error = est_error_set(EST_ENOMEM, "out of memory writing allowed_signers");
	}
	free(canonical);
	return error;
}

void est_sshsig_entries_free(est_sshsig_entry *entries, size_t n)
{
	for (size_t i = 0; entries && i < n; i++) {
		free(entries[i].principal);
		free(entries[i].namespaces);
		free(entries[i].key);
		free(entries[i].fingerprint);
	}
	free(entries);
}

/*
 * One line (NUL-terminated, without its "\n") into *e: cut it as
 * PRINCIPAL namespaces="NAMESPACES" KEY, write it again from those parts,
 * and compare.
 */
static int read_entry(est_sshsig_entry *e, const char *line, size_t no)
{
	static const char opt[] = " namespaces=\"";
	const char *sp = strchr(line, ' '), *ns, *quote;
	char *principal = NULL, *namespaces = NULL, *again = NULL;
	size_t again_len;
	int error = 0;

	if (!sp || strncmp(sp, opt, strlen(opt)) != 0 || !(quote = strchr(sp + strlen(opt), '"')) ||
	    quote[1] != ' ')
		return line_error(no, "is not a line estafette writes: PRINCIPAL "
			"namespaces=\"NAMESPACES\" TYPE BASE64");
	ns = sp + strlen(opt);
	if ((principal = strndup(line, (size_t)(sp - line))) == NULL ||
	    (namespaces = strndup(ns, (size_t)(quote - ns))) == NULL) {
		error = est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
		goto out;
	}
	if ((error = est_sshsig_allowed_line(&again, principal, namespaces, quote + 2)) < 0) {
		if (error == EST_EINVAL)
			est_error_prefix("allowed_signers line %zu", no);
		goto out;
	}
	/*
	 * Byte for byte what estafette writes; or that and the key's comment
	 * after one space, as estafette wrote before it dropped comments (the
	 * comment was read with the key, so it is plain text and no key).
	 */
	again_len = strlen(again) - 1;
	if (strncmp(line, again, again_len) != 0 || (line[again_len] != '\0' && line[again_len] != ' ')) {
		error = line_error(no, "is not the line estafette writes for its principal and key");
		goto out;
	}
	e->line = no;
	e->principal = principal;
	e->namespaces = namespaces;
	principal = namespaces = NULL;
	e->key = strndup(quote + 2, again_len - (size_t)(quote + 2 - line));
	if (!e->key || (error = est_sshsig_canonical_key(NULL, &e->fingerprint, e->key)) < 0) {
		error = error ? error : est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
		goto out;
	}
out:
	free(again);
	free(namespaces);
	free(principal);
	return error;
}

int est_sshsig_read_entries(est_sshsig_entry **out, size_t *n_out, const char *text, size_t len)
{
	est_sshsig_entry *entries = NULL, *grown;
	const char *p = text, *stop = text + len, *nl;
	char *line = NULL;
	size_t n = 0, no = 0;
	int error = 0;

	*out = NULL;
	*n_out = 0;
	for (; p < stop; p = nl + 1) {
		no++;
		if ((nl = memchr(p, '\n', (size_t)(stop - p))) == NULL) {
			error = line_error(no, "does not end in a line break; estafette ends every "
				"line with one");
			goto out;
		}
		if ((size_t)(nl - p) > LINE_MAX_LEN) {
			error = line_error(no, "the line is longer than %d bytes", LINE_MAX_LEN);
			goto out;
		}
		if (memchr(p, '\0', (size_t)(nl - p))) {
			error = line_error(no, "the line holds a NUL byte");
			goto out;
		}
		free(line);
		if ((line = strndup(p, (size_t)(nl - p))) == NULL ||
		    (grown = realloc(entries, (n + 1) * sizeof(*entries))) == NULL) {
			error = est_error_set(EST_ENOMEM, "out of memory reading allowed_signers");
			goto out;
		}
		entries = grown;
		memset(&entries[n], 0, sizeof(entries[n]));
		n++;
		if ((error = read_entry(&entries[n - 1], line, no)) < 0)
			goto out;
	}
	*out = entries;
	*n_out = n;
	entries = NULL;
	n = 0;
out:
	free(line);
	est_sshsig_entries_free(entries, n);
	return error;
}
