/* estafette new DIR --ruleset NAME --players FILE [--scenario S] [--option K=V]... */
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
#include "util/util.h"

#define USAGE "estafette new DIR --ruleset NAME --players FILE [--id ID] [--scenario S]\n" \
	"       [--option K=V]... [--gm-key FILE.pub] [--gm-signing-key KEY]\n" \
	"       [--deadline-hours N [--reminder-hours R]]\n" \
	"       [--schedule FILE.json] [--sealed | --sealed-orders [--reveal-hours R]]\n" \
	"       [--press full|public|none] [--press-by-mail]\n" \
	"       [--rules DIR] [--test-dice-secret TEXT] [--deal NAME | --deal-from GAME] [--json]"

/* K=V into options; V is an integer when it reads as one. */
static int add_option(json_t *options, const char *kv)
{
	const char *eq = strchr(kv, '=');
	char *key, *end;
	long long n;

	if (!eq || eq == kv)
		return -1;
	key = strndup(kv, (size_t)(eq - kv));
	n = strtoll(eq + 1, &end, 10);
	json_object_set_new(options, key, *(eq + 1) && !*end ? json_integer(n) : json_string(eq + 1));
	free(key);
	return 0;
}

/* A whole number of hours, 1 to a year. */
static int parse_hours(int *out, const char *text)
{
	char *end;
	long n = strtol(text, &end, 10);

	if (*end || end == text || n < 1 || n > 8760)
		return -1;
	*out = (int)n;
	return 0;
}

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
	if (json_is_string(json_object_get(summary, "deal")))
		printf("  deal %s: its games share the dice secrets and rules/; join it with "
		       "--deal-from %s\n", json_string_value(json_object_get(summary, "deal")),
		       json_string_value(json_object_get(summary, "path")));
	printf("next: estafette run %s\n", json_string_value(json_object_get(summary, "path")));
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
	static const struct option longopts[] = {
		{"ruleset", required_argument, NULL, 'r'}, {"players", required_argument, NULL, 'p'},
		{"scenario", required_argument, NULL, 's'}, {"option", required_argument, NULL, 'o'},
		{"id", required_argument, NULL, 'i'}, {"gm-key", required_argument, NULL, 'g'},
		{"deadline-hours", required_argument, NULL, 'd'},
		{"reminder-hours", required_argument, NULL, 'R'},
		{"gm-signing-key", required_argument, NULL, 'k'}, {"sealed", no_argument, NULL, 'S'},
		{"sealed-orders", no_argument, NULL, 'O'}, {"reveal-hours", required_argument, NULL, 'V'},
		{"schedule", required_argument, NULL, 'c'}, {"press", required_argument, NULL, 'P'},
		{"press-by-mail", no_argument, NULL, 'M'}, {"rules", required_argument, NULL, 'D'},
		{"test-dice-secret", required_argument, NULL, 't'}, {"json", no_argument, NULL, 'j'},
		{"deal", required_argument, NULL, 'e'}, {"deal-from", required_argument, NULL, 'f'},
		{"help", no_argument, NULL, 'h'}, {0}};
	est_new_options opts = {0};
	json_t *options = json_object(), *summary = NULL, *schedule = NULL;
	const char *schedule_file = NULL;
	int c, json = 0, error, status = 0;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': opts.ruleset = optarg; break;
		case 'p': opts.players_file = optarg; break;
		case 's': json_object_set_new(options, "scenario", json_string(optarg)); break;
		case 'o':
			if (add_option(options, optarg) < 0) {
				status = cmd_usage(USAGE);
				goto out;
			}
			break;
		case 'i': opts.id = optarg; break;
		case 'g': opts.gm_key = optarg; break;
		case 'k': opts.signing_key = optarg; break;
		case 'd':
		case 'R':
		case 'V':
			if (parse_hours(c == 'd' ? &opts.deadline_hours : c == 'R' ? &opts.reminder_hours :
					&opts.reveal_hours, optarg) < 0) {
				status = cmd_usage(USAGE "\n  hours are a whole number from 1 to 8760");
				goto out;
			}
			break;
		case 't': opts.test_secret = optarg; break;
		case 'S': opts.sealed = 1; break;
		case 'O': opts.sealed_orders = 1; break;
		case 'c': schedule_file = optarg; break;
		case 'P': opts.press = optarg; break;
		case 'M': opts.press_by_mail = 1; break;
		case 'D': opts.rules_dir = optarg; break;
		case 'e': opts.deal = optarg; break;
		case 'f': opts.deal_from = optarg; break;
		case 'j': json = 1; break;
		case 'h': status = cmd_help(USAGE); goto out;
		default: status = cmd_usage(USAGE); goto out;
		}
	}
	if (optind + 1 != argc || !opts.ruleset || !opts.players_file) {
		status = cmd_usage(USAGE);
		goto out;
	}
	if (!argv[optind][0]) {
		status = cmd_usage(USAGE "\n  DIR: the folder for the new game, not an empty name");
		goto out;
	}
	opts.dir = argv[optind];
	opts.options = options;
	if (schedule_file && (error = read_schedule(&schedule, schedule_file)) < 0) {
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	opts.schedule = schedule;
	if ((error = est_engine_new(&summary, &opts)) < 0) {
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	json ? cmd_print_json(summary) : print_summary(summary);
out:
	json_decref(summary);
	json_decref(schedule);
	json_decref(options);
	return status;
}
