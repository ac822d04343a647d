/* estafette status GAME [--now TIME] [--json] */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette status GAME [--now TIME] [--json]"

static void print_status(const json_t *s)
{
	size_t i;
	json_t *a;

	printf("game %s (%s)\n", json_string_value(json_object_get(s, "game")),
	       json_string_value(json_object_get(s, "ruleset")));
	if (json_is_true(json_object_get(s, "over"))) {
		printf("the game is over\n");
		return;
	}
	printf("next step: %lld (%s, %s)\n", (long long)json_integer_value(json_object_get(s, "step")),
	       json_string_value(json_object_get(s, "kind")), json_string_value(json_object_get(s, "mode")));
	printf("prev (state.json SHA-256): %s\n", json_string_value(json_object_get(s, "state_sha256")));
	printf("%s\n", json_string_value(json_object_get(s, "prompt")));
	json_array_foreach(json_object_get(s, "awaiting"), i, a) {
		const char *deadline = json_string_value(json_object_get(a, "deadline"));
		printf("  %-12s %-10s %s", json_string_value(json_object_get(a, "player")),
		       json_string_value(json_object_get(a, "mode")),
		       json_is_true(json_object_get(a, "received")) ? "received" :
		       json_is_true(json_object_get(a, "committed")) ? "committed" : "awaited");
		if (deadline)
			printf(", deadline %s", deadline);
		printf("\n");
	}
}

int cmd_status(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"now", required_argument, NULL, 'n'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'}, {0}};
	const char *now_text = NULL;
	est_game *game = NULL;
	json_t *status_json = NULL;
	int c, json = 0, error, status = 0;
	time_t now;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'n')
			now_text = optarg;
		else if (c == 'j')
			json = 1;
		else
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
	}
	if (optind + 1 != argc || (now = cmd_parse_time(now_text)) == (time_t)-1)
		return cmd_usage(USAGE);
	if ((error = est_game_open(&game, argv[optind])) < 0 ||
	    (error = est_game_pending(&status_json, game, now)) < 0) {
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	json ? cmd_print_json(status_json) : print_status(status_json);
out:
	json_decref(status_json);
	est_game_free(game);
	return status;
}
