/* estafette gm GAME ACT ...: the GM's signed acts (engine.h est_engine_gm_act) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"

static struct {
	long long hours, to;
	const char *reason, *result, *winner, *player, *name, *email;
	int force;
	json_t *set, *key; /* --set: [{"path", "value"}]; --key: the public key line */
	time_t now;
} args;

static int read_set(void *value, const char *word);
static int read_key(void *value, const char *file);

static const struct est_opt gm_opts[] = {
	{"hours", EST_OPT_INT, &args.hours, "extend: move the deadline by N hours (1 to 8760)"},
	{"result", EST_OPT_STRING, &args.result, "end: how the game ends",
	 .arg = "draw|concession|time-limit"},
	{"winner", EST_OPT_STRING, &args.winner, "end: the power that won", .arg = "POWER"},
	{"set", EST_OPT_CALL, &args.set, "adjust: set the state's field PATH (a JSON pointer) to JSON",
	 .arg = "PATH=JSON", .parse = read_set, .flags = EST_OPT_MANY,
	 .expect = "not /PATH=JSON, e.g. --set /countries/Austria/France=5"},
	{"to", EST_OPT_INT, &args.to, "rollback: the step whose state comes back", .arg = "STEP"},
	{"player", EST_OPT_STRING, &args.player, "replace: the player's id, whose seat changes hands",
	 .arg = "ID"},
	{"name", EST_OPT_STRING, &args.name, "replace: the new player's name", .arg = "NAME"},
	{"email", EST_OPT_STRING, &args.email, "replace: the new player's address", .arg = "ADDRESS"},
	{"key", EST_OPT_CALL, &args.key, "replace: the new player's public key", .arg = "FILE.pub",
	 .parse = read_key, .expect = "not a readable .pub file (its first line is the key)"},
	/* (not EST_OPT_REQUIRED: est_engine_gm_act says what --reason must be) */
	{"reason", EST_OPT_STRING, &args.reason, "every act: why, told to the players with it"},
	{"force", EST_OPT_FLAG, &args.force,
	 "adjust, rollback: even with orders recorded for the open step (they are set aside)"},
	{"now", EST_OPT_TIME, &args.now, "act as of TIME instead of the clock"},
	{NULL}
};

static const struct est_opt_cmd gm_cmd = {"gm", "GAME ACT", 2, 2, gm_opts,
	"  ACT and what it needs besides --reason:\n"
	"    extend --hours N          the open step's deadline, by 1 to 8760 hours\n"
	"    pause, resume             nothing resolves until resume, which moves the\n"
	"                              deadline by the time paused\n"
	"    end --result R [--winner POWER]   the game ends\n"
	"    adjust --set PATH=JSON... fields of the state are set (PATH a JSON pointer\n"
	"                              such as /countries/Austria/France)\n"
	"    rollback --to STEP        the state of an earlier step comes back (history\n"
	"                              is kept, later dice are fresh)\n"
	"    replace --player ID --name NAME --email ADDRESS --key FILE.pub\n"
	"                              a new person takes the player's seat; the old key\n"
	"                              is refused from then on\n"
	"  each act is signed with git config estafette.signingkey and told to the players\n"
	"  in their reports with its reason; end, adjust and rollback are steps of their own"};

static const char *const acts[] = {"extend", "pause", "resume", "end", "adjust", "rollback", "replace",
				   NULL};

/* --set PATH=JSON onto the array at *value (made at the first). */
static int read_set(void *value, const char *word)
{
	json_t **set = value, *json;
	const char *eq = strchr(word, '=');

	if (!eq || word[0] != '/' || !(json = json_loads(eq + 1, JSON_DECODE_ANY, NULL)))
		return -1;
	if (!*set)
		*set = json_array();
	return json_array_append_new(*set, json_pack("{s:s%, s:o}", "path", word, (size_t)(eq - word),
						      "value", json));
}

/* --key FILE.pub: its first line, the public key. */
static int read_key(void *value, const char *file)
{
	json_t **key = value;
	char line[16384];
	FILE *f = fopen(file, "r");
	int ok;

	if (!f)
		return -1;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	line[strcspn(line, "\r\n")] = '\0';
	json_decref(*key);
	*key = json_string(line);
	return *key ? 0 : -1;
}

/* The act's parameters (engine.h est_engine_gm_act) from the options given. */
static json_t *act_params(const struct est_opt_args *a)
{
	json_t *params = json_object();

	if (est_opt_given(a, "hours"))
		json_object_set_new(params, "hours", json_integer(args.hours));
	if (est_opt_given(a, "to"))
		json_object_set_new(params, "to_step", json_integer(args.to));
	if (args.result)
		json_object_set_new(params, "result", json_string(strcmp(args.result, "time-limit") == 0 ?
								 "time limit" : args.result));
	if (args.winner)
		json_object_set_new(params, "winner", json_string(args.winner));
	if (args.player)
		json_object_set_new(params, "seat", json_string(args.player));
	if (args.name)
		json_object_set_new(params, "name", json_string(args.name));
	if (args.email)
		json_object_set_new(params, "email", json_string(args.email));
	if (args.set)
		json_object_set(params, "set", args.set);
	if (args.key)
		json_object_set(params, "key", args.key);
	return params;
}

static void print_receipt(const json_t *receipt, const char *game, const char *act)
{
	const char *deadline = json_string_value(json_object_get(receipt, "deadline"));

	if (json_object_get(receipt, "file"))
		printf("%s: %s step %lld recorded as %s%s%s\n", game, act,
		       (long long)json_integer_value(json_object_get(receipt, "step")),
		       json_string_value(json_object_get(receipt, "file")),
		       deadline ? "; deadline now " : "", deadline ? deadline : "");
	else
		printf("%s: %s made step %lld\n", game, act,
		       (long long)json_integer_value(json_object_get(receipt, "step")));
}

static const char *find_act(const char *name)
{
	for (int i = 0; acts[i]; i++)
		if (strcmp(name, acts[i]) == 0)
			return acts[i];
	return NULL;
}

int cmd_gm(int argc, char **argv)
{
	struct est_opt_args a;
	json_t *params = NULL, *receipt = NULL;
	est_game *game = NULL;
	const char *act;
	int error, status;

	if ((error = est_opt_parse(&a, &gm_cmd, argc, argv)) != 0) {
		status = est_opt_exit(error);
		goto out;
	}
	if (!(act = find_act(a.args[1]))) {
		status = est_opt_refuse(&gm_cmd, "ACT \"%s\" is not an act; it is extend, pause, resume, "
					"end, adjust, rollback or replace", a.args[1]);
		goto out;
	}
	params = act_params(&a);
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if ((error = est_engine_gm_act(&receipt, game, act, params, args.reason, args.now,
				       args.force ? EST_GM_FORCE : 0)) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	a.json ? cmd_print_json(receipt) : print_receipt(receipt, a.args[0], act);
	cmd_print_warnings(game->warnings);
out:
	json_decref(receipt);
	json_decref(params);
	json_decref(args.set);
	json_decref(args.key);
	est_game_free(game);
	return status;
}
