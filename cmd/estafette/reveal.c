/* estafette reveal GAME [--before-end]: publish the hidden chain and the sealed parts */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette reveal GAME [--before-end] [--json]"

int cmd_reveal(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"before-end", no_argument, NULL, 'b'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'}, {0}};
	est_game *game = NULL;
	json_t *summary = NULL;
	int c, json = 0, before_end = 0, error, status = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'j')
			json = 1;
		else if (c == 'b')
			before_end = 1;
		else
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
	}
	if (optind + 1 != argc)
		return cmd_usage(USAGE);
	if ((error = est_game_open(&game, argv[optind])) < 0 ||
	    (error = est_engine_reveal(&summary, game, before_end)) < 0) {
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	if (json)
		cmd_print_json(summary);
	else
		printf("%s: revealed the hidden chain%s up to step %lld (commit %.12s); "
		       "anyone can now run estafette audit on it\n",
		       json_string_value(json_object_get(summary, "game")),
		       json_is_true(json_object_get(summary, "sealed")) ? " and the sealed parts" : "",
		       (long long)json_integer_value(json_object_get(summary, "step")),
		       json_string_value(json_object_get(summary, "commit")));
	cmd_print_warnings(game->warnings);
out:
	json_decref(summary);
	est_game_free(game);
	return status;
}
