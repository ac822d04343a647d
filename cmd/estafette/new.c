/* estafette new DIR --ruleset NAME --players FILE [--scenario S] [--option K=V]... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "opt.h"
#include "util/error.h"
#include "util/util.h"

static struct {
	est_new_options opts;
	const char *scenario, *schedule;
	long long deadline_hours, reminder_hours, reveal_hours;
	json_t *options; /* --option K=V... */
} args;

static const struct est_opt new_opts[] = {
	{"ruleset", EST_OPT_STRING, &args.opts.ruleset, "the rules played, e.g. napoleonic-empire",
	 .arg = "NAME", .flags = EST_OPT_REQUIRED},
	{"players", EST_OPT_FILE, &args.opts.players_file,
	 "{\"players\": [{\"id\", \"name\", \"email\", \"key\", \"powers\"?}, ...]}",
	 .flags = EST_OPT_REQUIRED},
	{"id", EST_OPT_STRING, &args.opts.id, "the game's id (default: DIR's last name)", .arg = "ID"},
	{"scenario", EST_OPT_STRING, &args.scenario, "the ruleset's scenario S", .arg = "S"},
	{"option", EST_OPT_KV, &args.options, "a rule option of the ruleset (V a number or text): the ruleset's README.md "
	 "\"Options\" lists them (internal/rulesets/NAME/, installed in share/estafette/rulesets/NAME/)"},
	{"gm-key", EST_OPT_FILE, &args.opts.gm_key, "the GM's public key", .arg = "FILE.pub"},
	{"gm-signing-key", EST_OPT_FILE, &args.opts.signing_key,
	 "sign every commit and tag with this private key", .arg = "KEY"},
	{"deadline-hours", EST_OPT_INT, &args.deadline_hours,
	 "each step's deadline, N hours after it opens (1 to 8760)",
	 .arg = "N", .min = 1, .max = 8760},
	{"reminder-hours", EST_OPT_INT, &args.reminder_hours,
	 "remind the awaited players N hours before a deadline",
	 .arg = "N", .min = 1, .max = 8760},
	{"schedule", EST_OPT_FILE, &args.schedule, "deadlines, days, hours, grace... as one object",
	 .arg = "FILE.json"},
	{"sealed", EST_OPT_FLAG, &args.opts.sealed,
	 "hidden parts only as commitments on the public refs"},
	{"sealed-orders", EST_OPT_FLAG, &args.opts.sealed_orders,
	 "simultaneous steps: commitments first, then reveals"},
	{"reveal-hours", EST_OPT_INT, &args.reveal_hours,
	 "sealed orders: reveals close N hours after the deadline",
	 .arg = "N", .min = 1, .max = 8760},
	{"press", EST_OPT_STRING, &args.opts.press, "who may send press (default: full)",
	 .arg = "full|public|none"},
	{"press-by-mail", EST_OPT_FLAG, &args.opts.press_by_mail,
	 "also mail press to its readers at once"},
	{"rules", EST_OPT_DIR, &args.opts.rules_dir,
	 "its NAME.json files replace the ruleset's data files of that name"},
	{"dice-protocol", EST_OPT_STRING, &args.opts.dice_protocol,
	 "the dice protocol (default v2); v1 makes a game as earlier versions did", .arg = "v2|v1"},
	{"test-dice-secret", EST_OPT_STRING, &args.opts.test_secret,
	 "sample games only: dice anyone can recompute from TEXT"},
	{"deal", EST_OPT_STRING, &args.opts.deal, "start the deal NAME (a challenge)", .arg = "NAME"},
	{"deal-from", EST_OPT_DIR, &args.opts.deal_from, "join the deal of the game GAME",
	 .arg = "GAME"},
	{NULL}
};

static const struct est_opt_cmd new_cmd = {"new", "DIR", 1, 1, new_opts,
	"  creates the game's repository in DIR; the dice secrets go to\n"
	"  $ESTAFETTE_HOME/games/ID/secrets.json, never into the repository.\n"
	"  Without --gm-signing-key or --gm-key the game gets a GM key of its own,\n"
	"  $ESTAFETTE_HOME/gm/ID, and every commit and tag is signed with it.\n"
	"  --reveal-hours is for --sealed-orders games; --sealed and --sealed-orders,\n"
	"  and --deal and --deal-from, exclude each other"};

static void print_summary(const json_t *summary)
{
	size_t i, j;
	json_t *p, *power;

	printf("created game %s (%s) in %s\n", json_string_value(json_object_get(summary, "game")),
	       json_string_value(json_object_get(summary, "ruleset")),
	       json_string_value(json_object_get(summary, "path")));
	json_array_foreach(json_object_get(summary, "players"), i, p) {
		printf("  %s (%s) plays", json_string_value(json_object_get(p, "id")),
		       json_string_value(json_object_get(p, "email")));
		json_array_foreach(json_object_get(p, "powers"), j, power)
			printf("%s %s", j ? "," : "", json_string_value(power));
		printf("\n");
	}
	if (json_is_true(json_object_get(summary, "gm_key_made")))
		printf("  the game's GM key, made for it: %s (keep it and back it up: it signs every "
		       "commit, tag and receipt of the game)\n",
		       json_string_value(json_object_get(summary, "gm_signing_key")));
	if (json_is_string(json_object_get(summary, "deal")))
		printf("  deal %s: its games share the dice secrets and rules/; join it with "
		       "--deal-from %s\n", json_string_value(json_object_get(summary, "deal")),
		       json_string_value(json_object_get(summary, "path")));
	/* the first run mails the players: its From must be the orders address by then */
	printf("next: set the game's mail (docs/mail.md), then run it:\n"
	       "  git -C %1$s config estafette.sender \"Game <orders@example.org>\"   # the orders address\n"
	       "  git -C %1$s config estafette.gmaddress you@example.org             # your own\n"
	       "  git -C %1$s config estafette.smtpurl smtp://mail.example.org:587\n"
	       "  estafette run %1$s\n", json_string_value(json_object_get(summary, "path")));
}

/* The --schedule file: one JSON object, checked field by field (engine.h est_schedule_check). */
static int read_schedule(json_t **out, const char *file)
{
	json_error_t jerr;
	char *text = NULL;
	size_t len;
	int error;

	*out = NULL;
	if ((error = est_file_read(&text, &len, file, 1 << 20)) < 0)
		return error;
	*out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!*out)
		return est_error_set(EST_EINVAL, "%s: not valid JSON (line %d: %s); write the schedule as "
				     "one object, e.g. {\"deadline_hours\": 72}", file, jerr.line, jerr.text);
	if ((error = est_schedule_check(*out, file)) < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return error;
}

int cmd_new(int argc, char **argv)
{
	struct est_opt_args a;
	est_new_options *opts = &args.opts;
	json_t *summary = NULL, *schedule = NULL;
	int error, status = 0;

	if ((error = est_opt_parse(&a, &new_cmd, argc, argv)) != 0) {
		status = est_opt_exit(error);
		goto out;
	}
	if (!a.args[0][0]) {
		status = est_opt_refuse(&new_cmd, "DIR: the folder for the new game, not an empty name");
		goto out;
	}
	if (!args.options)
		args.options = json_object();
	if (args.scenario)
		json_object_set_new(args.options, "scenario", json_string(args.scenario));
	opts->dir = a.args[0];
	opts->options = args.options;
	opts->deadline_hours = (int)args.deadline_hours;
	opts->reminder_hours = (int)args.reminder_hours;
	opts->reveal_hours = (int)args.reveal_hours;
	if (args.schedule && (error = read_schedule(&schedule, args.schedule)) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	opts->schedule = schedule;
	if ((error = est_engine_new(&summary, opts)) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	a.json ? cmd_print_json(summary) : print_summary(summary);
out:
	json_decref(summary);
	json_decref(schedule);
	json_decref(args.options);
	return status;
}
