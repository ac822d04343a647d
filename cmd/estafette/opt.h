/*
 * A subcommand's command line as a table (STYLE.md "A subcommand's options
 * are a table, not a loop"). One parser reads every table, prints every
 * usage line and --help from it, and refuses a bad command line with one
 * message shape everywhere:
 *
 *     estafette run: --now "soon": not a time; TIME is 2026-11-29T16:00:00Z ...
 *     usage: estafette run GAME... | --all DIR [--now TIME] [--no-mail] ...
 *
 * on stderr, exit 64 (EX_USAGE, what EST_EUSAGE maps to). A command reads
 * its values from the variables its table points at:
 *
 *     static struct { const char *all; time_t now; int force; } args;
 *     static const struct est_opt run_opts[] = {
 *         {"all",   EST_OPT_DIR,  &args.all,   "every game under DIR", .flags = EST_OPT_INSTEAD},
 *         {"now",   EST_OPT_TIME, &args.now,   "resolve as of TIME"},
 *         {"force", EST_OPT_FLAG, &args.force, "resolve past the outage guard"},
 *         {NULL}
 *     };
 *     static const struct est_opt_cmd run_cmd = {"run", "GAME...", 1, -1, run_opts, NULL};
 *
 *     if ((error = est_opt_parse(&a, &run_cmd, argc, argv)) != 0)
 *         return est_opt_exit(error);
 *
 * The words, as getopt_long takes them: --name VALUE or --name=VALUE, a
 * unique prefix of a name for the name (--no-m is --no-mail); -X VALUE or
 * -XVALUE for a one-letter option; a value is the next word whatever it
 * starts with. Options and positional arguments mix in any order, and "--"
 * ends the options. An option given twice keeps the last value, but for the
 * repeatable kinds. Every command also takes --json and --help, which the
 * parser adds to each table.
 */
#ifndef EST_CMD_OPT_H
#define EST_CMD_OPT_H

#include <stdio.h>

#include <jansson.h>

/*
 * A table entry names the fields it needs and leaves the rest out, as in
 * {"now", EST_OPT_TIME, &args.now, "resolve as of TIME"}: zero is each
 * one's default.
 */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

/* What an option's `value` points at, and how its word is read. */
enum est_opt_kind {
	EST_OPT_FLAG,   /* int: set to 1; takes no value */
	EST_OPT_STRING, /* const char *: the word (borrowed from argv); shown as TEXT */
	EST_OPT_FILE,   /* the same, shown as FILE */
	EST_OPT_DIR,    /* the same, shown as DIR */
	EST_OPT_INT,    /* long long: a whole number from .min to .max (both 0: any); shown as N */
	EST_OPT_TIME,   /* time_t: 2026-11-29T16:00:00Z (UTC) or @SECONDS, 1970 to 9999
			   (cmd_parse_time); the current time when not given; shown as TIME */
	EST_OPT_KV,     /* json_t *: an object, made at the first K=V and added to at each
			   (repeatable); V is an integer when it reads as one; the caller
			   decrefs it; shown as K=V */
	EST_OPT_CALL,   /* .parse(value, word) reads it: 0, or -1 to refuse the word;
			   .arg names it; EST_OPT_MANY if .parse adds to a list */
};

/* est_opt.flags */
enum {
	EST_OPT_REQUIRED = 1 << 0, /* the command refuses to run without it */
	EST_OPT_INSTEAD = 1 << 1,  /* given, it takes the place of the positional
				      arguments (run --all DIR instead of GAME...) */
	EST_OPT_MANY = 1 << 2,     /* an EST_OPT_CALL that may be given again and adds
				      to what it read (shown as [--set PATH=JSON]...) */
};

/* One option of a table; a table ends with {NULL}. */
struct est_opt {
	const char *name;       /* the long name without "--"; NULL with short_name for a
				   one-letter option only */
	enum est_opt_kind kind;
	void *value;            /* where the value goes, of the kind's type */
	const char *help;       /* one line for --help, lower case, no full stop */
	const char *arg;        /* the value's name in usage lines; NULL: the kind's */
	char short_name;        /* 'f' for -f, or 0 */
	unsigned flags;         /* EST_OPT_REQUIRED, EST_OPT_INSTEAD, EST_OPT_MANY */
	long long min, max;     /* EST_OPT_INT's range; both 0: any whole number */
	int (*parse)(void *value, const char *word); /* EST_OPT_CALL */
	const char *expect;     /* after a refused word: what a good one looks like */
};

/* A subcommand: its name, positional arguments and options. */
struct est_opt_cmd {
	const char *name;           /* "run" */
	const char *args;           /* the positional arguments in usage lines, "GAME FILE" */
	int min_args, max_args;     /* how many; max_args -1: no limit */
	const struct est_opt *opts; /* the table */
	const char *notes;          /* --help's lines after the options, or NULL; each
				       line starts with two spaces */
};

/* What est_opt_parse found besides the values the table points at. */
struct est_opt_args {
	char **args;               /* the positional arguments in order, within argv */
	int count;                 /* how many */
	int json;                  /* --json was given */
	unsigned long long given;  /* bit i: opts[i] was given (est_opt_given) */
	const struct est_opt_cmd *cmd;
};

/* est_opt_parse's return when it printed --help: exit 0. */
#define EST_OPT_HELP 1

/*
 * Parse argv (argv[0] the subcommand's name, argv[argc] NULL) against `cmd`:
 * each option's value goes where its table entry points, the positional
 * arguments into *out. argv's slots are reordered (the words are not
 * touched): main keeps its own copy. A table holds at most 64 options.
 *
 * Returns 0 to run the command; EST_OPT_HELP after printing --help on
 * stdout; EST_EUSAGE after refusing the command line on stderr (an unknown
 * or ambiguous option, a missing or bad value, a missing required option,
 * the wrong number of positional arguments). est_opt_exit gives the exit
 * status for either.
 */
int est_opt_parse(struct est_opt_args *out, const struct est_opt_cmd *cmd, int argc, char **argv);

/* The exit status for what est_opt_parse returned: 0 after --help, else 64. */
int est_opt_exit(int code);

/* Whether the option `name` of the parsed table was given. */
int est_opt_given(const struct est_opt_args *args, const char *name);

/*
 * Refuse the command line for a reason only the command can judge (two
 * options that exclude each other, an empty DIR): "estafette CMD: " and the
 * printf-style message, then the usage line, on stderr. Returns 64.
 */
int est_opt_refuse(const struct est_opt_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
