/* estafette gm GAME extend|pause|resume: the GM's signed acts on the open step */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette gm GAME extend --hours N --reason TEXT [--now TIME] [--json]\n" \
	"       estafette gm GAME pause|resume --reason TEXT [--now TIME] [--json]\n" \
	"  signed with git config estafette.signingkey; the players read the reason in their\n" \
	"  next reports. extend: the open step's deadline, by 1 to 8760 hours. pause: nothing\n" \
	"  resolves until resume; resume moves the deadline by the time paused"

int cmd_gm(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hours", required_argument, NULL, 'H'}, {"reason", required_argument, NULL, 'r'},
		{"now", required_argument, NULL, 'n'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'}, {0}};
	const char *reason = NULL, *now_text = NULL, *act;
	est_game *game = NULL;
	json_t *receipt = NULL;
	int c, json = 0, hours = 0, error, status = 0;
	time_t now;
	char *end;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'H':
			hours = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg)
				return cmd_usage(USAGE);
			break;
		case 'r': reason = optarg; break;
		case 'n': now_text = optarg; break;
		case 'j': json = 1; break;
		default: return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	if (optind + 2 != argc || (now = cmd_parse_time(now_text)) == (time_t)-1)
		return cmd_usage(USAGE);
	act = argv[optind + 1];
	if (strcmp(act, "extend") != 0 && strcmp(act, "pause") != 0 && strcmp(act, "resume") != 0)
		return cmd_usage(USAGE "\n  the acts of this version: extend, pause, resume");
	if ((error = est_game_open(&game, argv[optind])) < 0 ||
	    (error = est_game_gm_act(&receipt, game, act, hours, reason, now)) < 0) {
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	if (json)
		cmd_print_json(receipt);
	else
		printf("%s: %s step %lld recorded as %s%s%s\n", argv[optind], act,
		       (long long)json_integer_value(json_object_get(receipt, "step")),
		       json_string_value(json_object_get(receipt, "file")),
		       json_object_get(receipt, "deadline") ? "; deadline now " : "",
		       json_object_get(receipt, "deadline") ?
		       json_string_value(json_object_get(receipt, "deadline")) : "");
	cmd_print_warnings(game->warnings);
out:
	json_decref(receipt);
	est_game_free(game);
	return status;
}
