/* estafette mail GAME: send what waits in the game's outbox (docs/gm-guide.md "Commands") */
#include <stdio.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"

static const struct est_opt mail_opts[] = {
	{NULL}
};

static const struct est_opt_cmd mail_cmd = {"mail", "GAME", 1, 1, mail_opts, NULL};

int cmd_mail(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	json_t *mail = NULL;
	int error, status;

	if ((error = est_opt_parse(&a, &mail_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if ((error = est_engine_mail(&mail, game)) < 0) {
		status = cmd_fail(error, a.json, mail);
		goto out;
	}
	if (a.json)
		cmd_print_json(mail);
	else
		printf("%lld sent, %lld waiting in %s\n",
		       (long long)json_integer_value(json_object_get(mail, "sent")),
		       (long long)json_integer_value(json_object_get(mail, "pending")),
		       json_string_value(json_object_get(mail, "outbox")));
	if (!a.json)
		cmd_print_no_smtp(mail, "");
	cmd_print_warnings(game->warnings);
out:
	json_decref(mail);
	est_game_free(game);
	return status;
}
