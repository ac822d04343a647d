/* estafette fetch GAME [--imap URL | --maildir DIR]: every unseen message through `receive` */
#include <stdio.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"

static struct {
	const char *imap, *maildir;
} args;

static const struct est_opt fetch_opts[] = {
	{"imap", EST_OPT_STRING, &args.imap,
	 "imaps://host/INBOX, or imap://host/INBOX (STARTTLS)", .arg = "URL"},
	{"maildir", EST_OPT_DIR, &args.maildir, "a Maildir instead of an IMAP mailbox"},
	{NULL}
};

static const struct est_opt_cmd fetch_cmd = {"fetch", "GAME", 1, 1, fetch_opts,
	"  without --imap or --maildir, git config estafette.imapurl. Credentials:\n"
	"  estafette.imapuser and $ESTAFETTE_HOME/imap-password, or ~/.netrc; never on\n"
	"  the command line"};

static void print_summary(const json_t *summary, int error)
{
	size_t i;
	json_t *m;

	json_array_foreach(json_object_get(summary, "messages"), i, m)
		cmd_print_intake(m);
	/* After a failure, only say how far it got when it got anywhere. */
	if (error == 0 || json_integer_value(json_object_get(summary, "handled")) > 0)
		printf("%lld handled, %lld left unseen\n",
		       (long long)json_integer_value(json_object_get(summary, "handled")),
		       (long long)json_integer_value(json_object_get(summary, "left")));
	cmd_print_warnings(json_object_get(summary, "warnings"));
}

int cmd_fetch(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	json_t *summary = NULL;
	int error, status;

	if ((error = est_opt_parse(&a, &fetch_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if (args.imap && args.maildir)
		return est_opt_refuse(&fetch_cmd, "--imap and --maildir are two mailboxes; give one");
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	error = est_intake_fetch(&summary, game, args.imap, args.maildir, est_engine_report_parts, time(NULL));
	if (a.json && summary)
		cmd_print_json(summary);
	else if (summary)
		print_summary(summary, error);
	if (error < 0)
		status = cmd_fail(error, a.json && !summary, NULL);
out:
	json_decref(summary);
	est_game_free(game);
	return status;
}
