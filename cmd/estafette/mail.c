/* estafette mail GAME: send what waits in the game's outbox (DESIGN.md "Command line") */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette mail GAME [--json]"

int cmd_mail(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0}};
	est_game *game = NULL;
	json_t *mail = NULL;
	int c, json = 0, error, status = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
	}
	if (optind + 1 != argc)
		return cmd_usage(USAGE);
	if ((error = est_game_open(&game, argv[optind])) < 0 ||
	    (error = est_engine_mail(&mail, game)) < 0) {
		status = cmd_fail(error, json, mail);
		goto out;
	}
	if (json)
		cmd_print_json(mail);
	else
		printf("%lld sent, %lld waiting in %s\n",
		       (long long)json_integer_value(json_object_get(mail, "sent")),
		       (long long)json_integer_value(json_object_get(mail, "pending")),
		       json_string_value(json_object_get(mail, "outbox")));
	cmd_print_warnings(game->warnings);
out:
	json_decref(mail);
	est_game_free(game);
	return status;
}
