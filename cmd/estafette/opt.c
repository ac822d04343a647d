/* One parser for every subcommand's table of options (opt.h). */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <time.h>

#include "cmd.h"
#include "opt.h"
#include "util/error.h"

/* What every command takes besides its own table. */
static const struct est_opt builtins[] = {
	{"json", EST_OPT_FLAG, NULL, "machine-readable output on stdout"},
	{"help", EST_OPT_FLAG, NULL, "print this help"},
	{NULL}
};
#define BUILTIN_JSON (&builtins[0])
#define BUILTIN_HELP (&builtins[1])

#define WIDTH 78	/* usage lines wrap before this column */
#define INDENT 7	/* a continued usage line, under "estafette" */
#define HELP_COLUMN 26	/* where --help's descriptions start */

static int is_end(const struct est_opt *o)
{
	return !o->name && !o->short_name;
}

static int takes_value(const struct est_opt *o)
{
	return o->kind != EST_OPT_FLAG;
}

static int repeatable(const struct est_opt *o)
{
	return o->kind == EST_OPT_KV || (o->flags & EST_OPT_MANY);
}

/* The value's name in usage lines: the table's, else the kind's. */
static const char *arg_name(const struct est_opt *o)
{
	static const char *const names[] = {
		[EST_OPT_STRING] = "TEXT", [EST_OPT_FILE] = "FILE", [EST_OPT_DIR] = "DIR",
		[EST_OPT_INT] = "N", [EST_OPT_TIME] = "TIME", [EST_OPT_KV] = "K=V", [EST_OPT_CALL] = "VALUE",
	};

	return o->arg ? o->arg : names[o->kind];
}

/* "--now TIME", "-f KEY", "--force" into buf. */
static void spell(char *buf, size_t size, const struct est_opt *o)
{
	char name[64];

	if (o->name)
		snprintf(name, sizeof(name), "--%s", o->name);
	else
		snprintf(name, sizeof(name), "-%c", o->short_name);
	snprintf(buf, size, "%s%s%s", name, takes_value(o) ? " " : "", takes_value(o) ? arg_name(o) : "");
}

/* The option given in place of the positional arguments, or NULL. */
static const struct est_opt *instead_opt(const struct est_opt_cmd *cmd)
{
	for (const struct est_opt *o = cmd->opts; !is_end(o); o++)
		if (o->flags & EST_OPT_INSTEAD)
			return o;
	return NULL;
}

/*
 * Print `len` bytes of `word` at *col, after a space, first breaking the
 * line (and indenting by `indent`) when it would pass WIDTH.
 */
static void put_word(FILE *out, int *col, const char *word, int len, int indent)
{
	if (*col + 1 + len > WIDTH && *col > indent) {
		fprintf(out, "\n%*s", indent, "");
		*col = indent;
	} else {
		fputc(' ', out);
		(*col)++;
	}
	fprintf(out, "%.*s", len, word);
	*col += len;
}

/* Each space-separated word of `text`, as put_word does. */
static void put_words(FILE *out, int *col, const char *text, int indent)
{
	while (*text) {
		int len = (int)strcspn(text, " ");

		if (len)
			put_word(out, col, text, len, indent);
		text += len + (text[len] == ' ');
	}
}

/* "usage: estafette new DIR --ruleset NAME ... [--json]", wrapped. */
static void print_synopsis(FILE *out, const struct est_opt_cmd *cmd)
{
	const struct est_opt *instead = instead_opt(cmd);
	char word[160], spelled[128];
	int col;

	col = fprintf(out, "usage: estafette %s", cmd->name);
	if (cmd->args && *cmd->args)
		put_words(out, &col, cmd->args, INDENT);
	if (instead) {
		spell(spelled, sizeof(spelled), instead);
		snprintf(word, sizeof(word), "| %s", spelled);
		put_word(out, &col, word, (int)strlen(word), INDENT);
	}
	for (const struct est_opt *o = cmd->opts; !is_end(o); o++) {
		if (o == instead)
			continue;
		spell(spelled, sizeof(spelled), o);
		snprintf(word, sizeof(word), o->flags & EST_OPT_REQUIRED ? "%s" : "[%s]%s", spelled,
			 repeatable(o) ? "..." : "");
		put_word(out, &col, word, (int)strlen(word), INDENT);
	}
	put_word(out, &col, "[--json]", 8, INDENT);
	fputc('\n', out);
}

static void print_option_help(const struct est_opt *o)
{
	char spelled[128];
	int col;

	spell(spelled, sizeof(spelled), o);
	col = printf("  %s", spelled);
	if (col >= HELP_COLUMN - 1) {
		printf("\n");
		col = 0;
	}
	/* (put_words adds the space before each word) */
	printf("%*s", HELP_COLUMN - 1 - col, "");
	col = HELP_COLUMN - 1;
	put_words(stdout, &col, o->help ? o->help : "", HELP_COLUMN);
	printf("\n");
}

static void print_help(const struct est_opt_cmd *cmd)
{
	print_synopsis(stdout, cmd);
	printf("\n");
	for (const struct est_opt *o = cmd->opts; !is_end(o); o++)
		print_option_help(o);
	for (const struct est_opt *o = builtins; !is_end(o); o++)
		print_option_help(o);
	if (cmd->notes)
		printf("\n%s\n", cmd->notes);
}

/* "estafette CMD: MESSAGE" and the usage line on stderr. */
static void vrefuse(const struct est_opt_cmd *cmd, const char *fmt, va_list ap)
{
	char message[1024];

	vsnprintf(message, sizeof(message), fmt, ap);
	fprintf(stderr, "estafette %s: ", cmd->name);
	/* The message may quote the command line: no control character reaches the terminal. */
	cmd_put_safe(stderr, message);
	fputc('\n', stderr);
	print_synopsis(stderr, cmd);
}

__attribute__((format(printf, 2, 3)))
static int refuse(const struct est_opt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrefuse(cmd, fmt, ap);
	va_end(ap);
	return EST_EUSAGE;
}

int est_opt_refuse(const struct est_opt_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vrefuse(cmd, fmt, ap);
	va_end(ap);
	return est_opt_exit(EST_EUSAGE);
}

int est_opt_exit(int code)
{
	return code == EST_OPT_HELP ? 0 : est_error_exit_code(EST_EUSAGE);
}

/*
 * The option `name` (its first `len` bytes) names in `table`: an exact
 * match, else the only one it is a prefix of. Counts the prefix matches
 * in *prefixes and keeps the first in *prefix.
 */
static const struct est_opt *match_long(const struct est_opt **prefix, int *prefixes,
					const struct est_opt *table, const char *name, size_t len)
{
	for (const struct est_opt *o = table; !is_end(o); o++) {
		if (!o->name || strncmp(o->name, name, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return o;
		if ((*prefixes)++ == 0)
			*prefix = o;
	}
	return NULL;
}

/* "--deal, --deal-from, --deadline-hours": the options `name` is a prefix of. */
static void list_prefixed(char *buf, size_t size, const struct est_opt *table, const char *name,
			  size_t len)
{
	size_t used = strlen(buf);

	for (const struct est_opt *o = table; !is_end(o) && used < size; o++)
		if (o->name && strncmp(o->name, name, len) == 0)
			used += (size_t)snprintf(buf + used, size - used, "%s--%s", used ? ", " : "", o->name);
}

static int find_long(const struct est_opt **out, const struct est_opt_cmd *cmd, const char *name,
		     size_t len)
{
	const struct est_opt *prefix = NULL;
	int prefixes = 0;
	char which[256] = "";

	if ((*out = match_long(&prefix, &prefixes, cmd->opts, name, len)) ||
	    (*out = match_long(&prefix, &prefixes, builtins, name, len)))
		return 0;
	if (prefixes == 1 && len > 0) {
		*out = prefix;
		return 0;
	}
	if (prefixes == 0 || len == 0)
		return refuse(cmd, "--%.*s is not an option of %s; estafette %s --help lists them",
			      (int)len, name, cmd->name, cmd->name);
	list_prefixed(which, sizeof(which), cmd->opts, name, len);
	list_prefixed(which, sizeof(which), builtins, name, len);
	return refuse(cmd, "--%.*s could be any of %s; spell it out", (int)len, name, which);
}

static int find_short(const struct est_opt **out, const struct est_opt_cmd *cmd, char c)
{
	for (const struct est_opt *o = cmd->opts; !is_end(o); o++)
		if (o->short_name && o->short_name == c) {
			*out = o;
			return 0;
		}
	return refuse(cmd, "-%c is not an option of %s; estafette %s --help lists them", c, cmd->name,
		      cmd->name);
}

/* K=V into the object at *slot (made when NULL); V an integer when it reads as one. */
static int add_kv(json_t **slot, const char *word)
{
	const char *eq = strchr(word, '=');
	char *end;
	long long n;
	json_t *value;

	if (!eq || eq == word)
		return -1;
	if (!*slot && !(*slot = json_object()))
		return -1;
	errno = 0;
	n = strtoll(eq + 1, &end, 10);
	/* A number too large for one is kept as the text it is, not clamped. */
	value = *(eq + 1) && !*end && errno != ERANGE ? json_integer(n) : json_string(eq + 1);
	return json_object_setn_new(*slot, word, (size_t)(eq - word), value);
}

/* A whole number in o's range into *out; its reason into `why` when it is not. */
static int read_int(long long *out, char *why, size_t size, const struct est_opt *o, const char *word)
{
	char *end;
	long long n;
	int ranged = o->min || o->max;

	errno = 0;
	n = strtoll(word, &end, 10);
	if (!*end && end != word && errno != ERANGE && (!ranged || (n >= o->min && n <= o->max))) {
		*out = n;
		return 0;
	}
	if (!ranged)
		snprintf(why, size, "not a whole number");
	else if (o->max == LLONG_MAX)
		snprintf(why, size, "not a whole number of %lld or more", o->min);
	else
		snprintf(why, size, "not a whole number from %lld to %lld", o->min, o->max);
	return -1;
}

/* Read `word` into o's value as its kind says; refuses a bad one. */
static int read_value(const struct est_opt_cmd *cmd, const struct est_opt *o, const char *word)
{
	char why[128] = "", spelled[128];
	time_t t;
	int bad = 0;

	switch (o->kind) {
	case EST_OPT_FLAG: *(int *)o->value = 1; break;
	case EST_OPT_STRING:
	case EST_OPT_FILE:
	case EST_OPT_DIR: *(const char **)o->value = word; break;
	case EST_OPT_INT: bad = read_int(o->value, why, sizeof(why), o, word) < 0; break;
	case EST_OPT_TIME:
		if (!(bad = (t = cmd_parse_time(word)) == (time_t)-1))
			*(time_t *)o->value = t;
		snprintf(why, sizeof(why), "not a time; TIME is 2026-11-29T16:00:00Z (UTC) or @SECONDS, "
			 "a real date from 1970 to 9999");
		break;
	case EST_OPT_KV: bad = add_kv(o->value, word) < 0; snprintf(why, sizeof(why), "not K=V"); break;
	case EST_OPT_CALL: bad = o->parse(o->value, word) < 0; break;
	}
	if (!bad)
		return 0;
	spell(spelled, sizeof(spelled), o);
	*strchr(spelled, ' ') = '\0';
	return refuse(cmd, "%s \"%s\": %s", spelled, word, o->expect ? o->expect : why);
}

/* One option and its value, if it takes one; marks it given. */
static int take(struct est_opt_args *out, const struct est_opt *o, const char *word)
{
	int error;

	if (o == BUILTIN_JSON) {
		out->json = 1;
		return 0;
	}
	if (o == BUILTIN_HELP) {
		print_help(out->cmd);
		return EST_OPT_HELP;
	}
	if ((error = read_value(out->cmd, o, word)) < 0)
		return error;
	out->given |= 1ULL << (o - out->cmd->opts);
	return 0;
}

/* argv[*i] is "--name", "--name=VALUE" or "--name" VALUE (then *i moves on). */
static int parse_long(struct est_opt_args *out, int *i, int argc, char **argv)
{
	const char *name = argv[*i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct est_opt *o = NULL;
	int error;

	if ((error = find_long(&o, out->cmd, name, len)) < 0)
		return error;
	if (!takes_value(o))
		return eq ? refuse(out->cmd, "--%s takes no value", o->name) : take(out, o, NULL);
	if (eq)
		return take(out, o, eq + 1);
	if (*i + 1 >= argc)
		return refuse(out->cmd, "--%s needs a value: --%s %s", o->name, o->name, arg_name(o));
	return take(out, o, argv[++*i]);
}

/* argv[*i] is "-X", "-XVALUE" or "-X" VALUE (then *i moves on). */
static int parse_short(struct est_opt_args *out, int *i, int argc, char **argv)
{
	const char *rest = argv[*i] + 2;
	const struct est_opt *o = NULL;
	int error;

	if ((error = find_short(&o, out->cmd, argv[*i][1])) < 0)
		return error;
	if (!takes_value(o))
		return *rest ? refuse(out->cmd, "-%c takes no value", o->short_name) : take(out, o, NULL);
	if (*rest)
		return take(out, o, rest);
	if (*i + 1 >= argc)
		return refuse(out->cmd, "-%c needs a value: -%c %s", o->short_name, o->short_name,
			      arg_name(o));
	return take(out, o, argv[++*i]);
}

static const char *count_words(char *buf, size_t size, int count)
{
	if (count == 0)
		return "no argument";
	snprintf(buf, size, "%d argument%s", count, count == 1 ? "" : "s");
	return buf;
}

/* After the words: the required options are there, and the right number of arguments. */
static int check_parsed(const struct est_opt_args *out)
{
	const struct est_opt_cmd *cmd = out->cmd;
	const struct est_opt *instead = instead_opt(cmd);
	char spelled[128], counted[32];

	for (const struct est_opt *o = cmd->opts; !is_end(o); o++) {
		spell(spelled, sizeof(spelled), o);
		if ((o->flags & EST_OPT_REQUIRED) && !(out->given & (1ULL << (o - cmd->opts))))
			return refuse(cmd, "%s is missing; %s needs it", spelled, cmd->name);
	}
	if (instead)
		spell(spelled, sizeof(spelled), instead);
	if (instead && est_opt_given(out, instead->name))
		return out->count == 0 ? 0 :
		       refuse(cmd, "%s takes the place of %s, but %s given; give one or the other",
			      spelled, cmd->args, count_words(counted, sizeof(counted), out->count));
	if (out->count >= cmd->min_args && (cmd->max_args < 0 || out->count <= cmd->max_args))
		return 0;
	return refuse(cmd, "%s%s%s expected, but %s given", cmd->args, instead ? " or " : "",
		      instead ? spelled : "", count_words(counted, sizeof(counted), out->count));
}

/* Each EST_OPT_TIME not given is the current time. */
static void default_times(const struct est_opt_cmd *cmd)
{
	time_t now = time(NULL);

	for (const struct est_opt *o = cmd->opts; !is_end(o); o++)
		if (o->kind == EST_OPT_TIME)
			*(time_t *)o->value = now;
}

int est_opt_parse(struct est_opt_args *out, const struct est_opt_cmd *cmd, int argc, char **argv)
{
	int i, error = 0, ended = 0;

	memset(out, 0, sizeof(*out));
	out->cmd = cmd;
	out->args = argv + 1;
	default_times(cmd);
	for (i = 1; i < argc && error == 0; i++) {
		const char *word = argv[i];

		if (ended || word[0] != '-' || word[1] == '\0')
			out->args[out->count++] = argv[i]; /* a slot already read: argv[1 + count] <= argv[i] */
		else if (strcmp(word, "--") == 0)
			ended = 1;
		else if (word[1] == '-')
			error = parse_long(out, &i, argc, argv);
		else
			error = parse_short(out, &i, argc, argv);
	}
	out->args[out->count] = NULL;
	return error ? error : check_parsed(out);
}

int est_opt_given(const struct est_opt_args *args, const char *name)
{
	int i = 0;

	for (const struct est_opt *o = args->cmd->opts; !is_end(o); o++, i++)
		if (o->name && strcmp(o->name, name) == 0)
			return (args->given >> i) & 1;
	return 0;
}
