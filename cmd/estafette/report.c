/* estafette report GAME [--step N] [--player P] [--format text|html|svg|json] */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"

static struct {
	long long step;
	const char *player, *format;
} args;

static const struct est_opt report_opts[] = {
	{"step", EST_OPT_INT, &args.step, "the report of step N (default: the last resolved)",
	 .min = 0, .max = LLONG_MAX},
	{"player", EST_OPT_STRING, &args.player, "as player P sees it (default: the public report)",
	 .arg = "P"},
	{"format", EST_OPT_STRING, &args.format, "text (the default), html, svg or json",
	 .arg = "text|html|svg|json"},
	{NULL}
};

static const struct est_opt_cmd report_cmd = {"report", "GAME", 1, 1, report_opts,
	"  --json is --format json"};

int cmd_report(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	char *out = NULL;
	int error, status;

	if ((error = est_opt_parse(&a, &report_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if (!est_opt_given(&a, "step"))
		args.step = -1;
	if (a.json || !args.format)
		args.format = a.json ? "json" : "text";
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if ((error = est_report_format(&out, game, args.step, args.player, args.format)) < 0)
		status = cmd_fail(error, a.json, NULL);
	else
		fputs(out, stdout);
out:
	free(out);
	est_game_free(game);
	return status;
}
