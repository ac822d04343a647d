/* estafette gm GAME ACT ...: the GM's signed acts (engine.h est_engine_gm_act) */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"

#define USAGE "estafette gm GAME extend --hours N --reason TEXT [--now TIME] [--json]\n" \
	"       estafette gm GAME pause|resume --reason TEXT\n" \
	"       estafette gm GAME end --result draw|concession|time-limit [--winner POWER] --reason TEXT\n" \
	"       estafette gm GAME adjust --set PATH=JSON [--set ...] --reason TEXT\n" \
	"       estafette gm GAME rollback --to STEP --reason TEXT\n" \
	"       estafette gm GAME replace --player ID --name NAME --email ADDRESS --key FILE.pub --reason TEXT\n" \
	"  each act is signed with git config estafette.signingkey and told to the players in\n" \
	"  their reports with its reason. extend: the open step's deadline, by 1 to 8760 hours.\n" \
	"  pause: nothing resolves until resume, which moves the deadline by the time paused.\n" \
	"  end, adjust and rollback are steps of their own: the game ends; fields of the state\n" \
	"  are set (PATH a JSON pointer such as /countries/Austria/France, JSON its new value);\n" \
	"  the state of an earlier step comes back (history is kept, later dice are fresh).\n" \
	"  replace: a new person takes the player's seat; the old key is refused from then on"

static const char *const acts[] = {"extend", "pause", "resume", "end", "adjust", "rollback", "replace",
				   NULL};

/* --key FILE.pub: its first line, the public key. */
static int add_key(json_t *params, const char *file)
{
	char line[16384];
	FILE *f = fopen(file, "r");

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	line[strcspn(line, "\r\n")] = '\0';
	return json_object_set_new(params, "key", json_string(line));
}

/* --set PATH=JSON into params "set". */
static int add_set(json_t *params, const char *arg)
{
	const char *eq = strchr(arg, '=');
	json_t *value, *path;

	if (!eq || arg[0] != '/' || !(value = json_loads(eq + 1, JSON_DECODE_ANY, NULL)))
		return -1;
	path = json_stringn(arg, (size_t)(eq - arg));
	if (!json_object_get(params, "set"))
		json_object_set_new(params, "set", json_array());
	json_array_append_new(json_object_get(params, "set"), json_pack("{s:o, s:o}", "path", path,
									"value", value));
	return 0;
}

/* --hours N, --to N: a whole number. */
static int add_int(json_t *params, const char *key, const char *arg)
{
	char *end;
	long long n = strtoll(arg, &end, 10);

	if (*end || end == arg)
		return -1;
	return json_object_set_new(params, key, json_integer(n));
}

int cmd_gm(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"hours", required_argument, NULL, 'H'}, {"reason", required_argument, NULL, 'r'},
		{"result", required_argument, NULL, 'R'}, {"winner", required_argument, NULL, 'w'},
		{"set", required_argument, NULL, 's'}, {"to", required_argument, NULL, 't'},
		{"player", required_argument, NULL, 'p'}, {"name", required_argument, NULL, 'N'},
		{"email", required_argument, NULL, 'e'}, {"key", required_argument, NULL, 'k'},
		{"now", required_argument, NULL, 'n'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'}, {0}};
	const char *reason = NULL, *now_text = NULL, *act = NULL;
	json_t *params = json_object(), *receipt = NULL;
	est_game *game = NULL;
	int c, json = 0, error, status = 0, bad = 0;
	time_t now;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'H': bad |= add_int(params, "hours", optarg) < 0; break;
		case 't': bad |= add_int(params, "to_step", optarg) < 0; break;
		case 's': bad |= add_set(params, optarg) < 0; break;
		case 'R':
			json_object_set_new(params, "result", json_string(strcmp(optarg, "time-limit") == 0 ?
									    "time limit" : optarg));
			break;
		case 'w': json_object_set_new(params, "winner", json_string(optarg)); break;
		case 'p': json_object_set_new(params, "seat", json_string(optarg)); break;
		case 'N': json_object_set_new(params, "name", json_string(optarg)); break;
		case 'e': json_object_set_new(params, "email", json_string(optarg)); break;
		case 'k': bad |= add_key(params, optarg) < 0; break;
		case 'r': reason = optarg; break;
		case 'n': now_text = optarg; break;
		case 'j': json = 1; break;
		default:
			json_decref(params);
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	for (int i = 0; optind + 2 == argc && acts[i]; i++)
		if (strcmp(argv[optind + 1], acts[i]) == 0)
			act = acts[i];
	if (bad || !act || (now = cmd_parse_time(now_text)) == (time_t)-1) {
		json_decref(params);
		return cmd_usage(bad ? USAGE "\n  --hours and --to take a whole number; --set takes "
			"/PATH=JSON, e.g. --set /countries/Austria/France=5; --key a readable .pub file" : USAGE);
	}
	if ((error = est_game_open(&game, argv[optind])) < 0 ||
	    (error = est_engine_gm_act(&receipt, game, act, params, reason, now)) < 0) {
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	if (json)
		cmd_print_json(receipt);
	else if (json_object_get(receipt, "file"))
		printf("%s: %s step %lld recorded as %s%s%s\n", argv[optind], act,
		       (long long)json_integer_value(json_object_get(receipt, "step")),
		       json_string_value(json_object_get(receipt, "file")),
		       json_object_get(receipt, "deadline") ? "; deadline now " : "",
		       json_object_get(receipt, "deadline") ?
		       json_string_value(json_object_get(receipt, "deadline")) : "");
	else
		printf("%s: %s made step %lld\n", argv[optind], act,
		       (long long)json_integer_value(json_object_get(receipt, "step")));
	cmd_print_warnings(game->warnings);
out:
	json_decref(receipt);
	json_decref(params);
	est_game_free(game);
	return status;
}
