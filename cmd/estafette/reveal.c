/* estafette reveal GAME [--before-end]: publish the hidden chain and the sealed parts */
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
	int before_end;
} args;

static const struct est_opt reveal_opts[] = {
	{"before-end", EST_OPT_FLAG, &args.before_end,
	 "reveal while the game is still on (the players then know the hidden values)"},
	{NULL}
};

static const struct est_opt_cmd reveal_cmd = {"reveal", "GAME", 1, 1, reveal_opts, NULL};

static void print_summary(const json_t *summary)
{
	printf("%s: revealed the hidden chain%s up to step %lld (commit %.12s); "
	       "anyone can now run estafette audit on it\n",
	       json_string_value(json_object_get(summary, "game")),
	       json_is_true(json_object_get(summary, "sealed")) ? " and the sealed parts" : "",
	       (long long)json_integer_value(json_object_get(summary, "step")),
	       json_string_value(json_object_get(summary, "commit")));
}

int cmd_reveal(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	json_t *summary = NULL;
	int error, status;

	if ((error = est_opt_parse(&a, &reveal_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if ((error = est_engine_reveal(&summary, game, args.before_end)) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	a.json ? cmd_print_json(summary) : print_summary(summary);
	cmd_print_warnings(game->warnings);
out:
	json_decref(summary);
	est_game_free(game);
	return status;
}
