/* estafette fetch GAME [--imap URL | --maildir DIR]: every unseen message through `receive` */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette fetch GAME [--imap URL | --maildir DIR] [--json]\n" \
	"  URL is imaps://host/INBOX or imap://host/INBOX (STARTTLS); without either,\n" \
	"  git config estafette.imapurl. Credentials: estafette.imapuser and\n" \
	"  $ESTAFETTE_HOME/imap-password, or ~/.netrc; never on the command line."

int cmd_fetch(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"imap", required_argument, NULL, 'i'}, {"maildir", required_argument, NULL, 'm'},
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0}};
	const char *imap = NULL, *maildir = NULL;
	est_game *game = NULL;
	json_t *summary = NULL;
	int c, json = 0, error, status = 0;
	size_t i;
	json_t *m;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': imap = optarg; break;
		case 'm': maildir = optarg; break;
		case 'j': json = 1; break;
		default: return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	if (optind + 1 != argc || (imap && maildir))
		return cmd_usage(USAGE);
	if ((error = est_game_open(&game, argv[optind])) == 0)
		error = est_intake_fetch(&summary, game, imap, maildir, time(NULL));
	if (json && summary)
		cmd_print_json(summary);
	else if (summary) {
		json_array_foreach(json_object_get(summary, "messages"), i, m)
			cmd_print_intake(m);
		/* After a failure, only say how far it got when it got anywhere. */
		if (error == 0 || json_integer_value(json_object_get(summary, "handled")) > 0)
			printf("%lld handled, %lld left unseen\n",
			       (long long)json_integer_value(json_object_get(summary, "handled")),
			       (long long)json_integer_value(json_object_get(summary, "left")));
		cmd_print_warnings(json_object_get(summary, "warnings"));
	}
	if (error < 0)
		status = cmd_fail(error, json && !summary, NULL);
	json_decref(summary);
	est_game_free(game);
	return status;
}
