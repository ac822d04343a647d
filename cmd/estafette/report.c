/* estafette report GAME [--step N] [--player P] [--format text|html|svg|json] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette report GAME [--step N] [--player P] [--format text|html|svg|json] [--json]"

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"step", required_argument, NULL, 's'}, {"player", required_argument, NULL, 'p'},
		{"format", required_argument, NULL, 'f'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'}, {0}};
	const char *player = NULL, *format = "text";
	long long step = -1;
	est_game *game = NULL;
	char *out = NULL, *end;
	int c, error, status = 0, json = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			step = strtoll(optarg, &end, 10);
			if (*end || step < 0)
				return cmd_usage(USAGE);
			break;
		case 'p': player = optarg; break;
		case 'f': format = optarg; break;
		case 'j': json = 1; format = "json"; break;
		default: return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(USAGE);
	if ((error = est_game_open(&game, argv[optind])) < 0 ||
	    (error = est_report_format(&out, game, step, player, format)) < 0)
		status = cmd_fail(error, json, NULL);
	else
		fputs(out, stdout);
	free(out);
	est_game_free(game);
	return status;
}
