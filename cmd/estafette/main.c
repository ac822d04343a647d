#include <ctype.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *summary;
} commands[] = {
	{"new", cmd_new, "create a game repository"},
	{"submit", cmd_submit, "check and record a signed order file"},
	{"check", cmd_check, "check a signed order file, writing nothing"},
	{"receive", cmd_receive, "take orders from one mail message on standard input"},
	{"fetch", cmd_fetch, "take orders from the unseen mail of an IMAP mailbox or Maildir"},
	{"run", cmd_run, "resolve every due step, then mail the reports"},
	{"status", cmd_status, "the step, who is awaited, the deadline"},
	{"report", cmd_report, "render a step's report"},
	{"keygen", cmd_keygen, "make an Ed25519 key pair (OpenSSH format)"},
	{"sign", cmd_sign, "sign a file like ssh-keygen -Y sign"},
	{"mail", cmd_mail, "send what waits in a game's outbox"},
	{"audit", cmd_audit, "replay the game from its creation and check every step"},
	{"gm", cmd_gm, "the GM's signed acts: extend, pause, resume, end, adjust, rollback, replace"},
	{"standings", cmd_standings, "rank the games of each deal (challenge) in a folder, audited"},
	{"reveal", cmd_reveal, "publish the hidden chain and a sealed game's hidden parts"},
	{"site", cmd_site, "write the game's public history as a static web site"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: estafette <command> [options]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nevery command takes --json; `estafette <command> --help` for its options\n");
}

/*
 * After exit 75 (a lock held, a server down): the command to run again,
 * shell-quoted, so a cron log or a mail filter's bounce says what to retry.
 */
static void retry_hint(int argc, char **argv)
{
	fputs("estafette: nothing is lost; retry later with: estafette", stderr);
	for (int i = 1; i < argc; i++) {
		const unsigned char *c = (const unsigned char *)argv[i];
		int plain = *c != '\0';

		for (; *c; c++)
			plain = plain && (strchr("_./:=@%+,-", *c) || (*c < 0x80 && isalnum(*c)));
		fputc(' ', stderr);
		if (plain) {
			fputs(argv[i], stderr);
			continue;
		}
		fputc('\'', stderr);
		for (c = (const unsigned char *)argv[i]; *c; c++) {
			if (*c == '\'')
				fputs("'\\''", stderr);
			else if (*c < 0x20 || *c == 0x7f)
				fprintf(stderr, "\\x%02x", *c);
			else
				fputc(*c, stderr);
		}
		fputc('\'', stderr);
	}
	fputs(strcmp(argv[1], "receive") == 0 ? " < (the same message)\n" : "\n", stderr);
}

/*
 * Run one command on a copy of argv's slots: its parser reorders them
 * (opt.h), and the retry hint says the command line as it was given.
 */
static int run_command(int (*fn)(int, char **), int argc, char **argv)
{
	char **copy = calloc((size_t)argc + 1, sizeof(*copy));
	int code;

	if (!copy) {
		fprintf(stderr, "estafette: out of memory\n");
		return EX_SOFTWARE;
	}
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	code = fn(argc - 1, copy + 1);
	free(copy);
	if (code == EX_TEMPFAIL)
		retry_hint(argc, argv);
	return code;
}

/*
 * Every step draws the map: librsvg and cairo allocate surfaces of 4 MiB
 * and more, freed a step later. glibc's default mmap threshold adapts to
 * the first one freed, and whether later ones are mmapped (and faulted in
 * afresh, page by page) or reused from the heap then depends on the order
 * of frees: a run --all over 20 games took 1.7 or 2.5 s of CPU by chance.
 * Surfaces below 32 MiB always from the heap, and a heap that is not given
 * back before 256 MiB lie free, make every run the fast one, at the same
 * peak. A GLIBC_TUNABLES that sets malloc's own is left to rule.
 */
static void malloc_tune(void)
{
#ifdef __GLIBC__
	const char *t = getenv("GLIBC_TUNABLES");

	if (t && strstr(t, "glibc.malloc."))
		return;
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

int main(int argc, char **argv)
{
	malloc_tune();
	if (argc < 2) {
		usage(stderr);
		return EX_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("estafette %s\n", EST_VERSION);
		return 0;
	}
	/*
	 * Whole lines, not a write(2) per character: a warning is escaped a
	 * character at a time (cmd_put_safe), and `run --all` repeats each
	 * game's warnings at every pass (a 300-character one was 280 system
	 * calls). Every message ends its line, so none is held back.
	 */
	setvbuf(stderr, NULL, _IOLBF, BUFSIZ);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return run_command(commands[i].fn, argc, argv);
	fprintf(stderr, "estafette: \"%s\" is not a command\n", argv[1]);
	usage(stderr);
	return EX_USAGE;
}
