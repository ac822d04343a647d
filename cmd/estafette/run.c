/* estafette run GAME... | --all DIR [--now TIME] */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"
#include "util/util.h"

#define USAGE "estafette run GAME... | --all DIR [--now TIME] [--no-mail] [--force] [--confirm-clock]\n" \
	"       [--json]\n" \
	"  --no-mail: queue the reports, send nothing (estafette mail sends them)\n" \
	"  --force: resolve by deadline past the outage guard and \"nmr\": \"wait\"\n" \
	"  --confirm-clock: the time is right, although it jumped since the last run\n" \
	"  --all: every game repository directly under DIR, each under its own lock;\n" \
	"  folders that are not games are passed over, a failing game never stops\n" \
	"  the rest; one summary line per game (the steps resolved, nothing due, or\n" \
	"  what failed), then a line of totals\n" \
	"  exit status: 0 every game ran; 75 the only failures were a lock held or a\n" \
	"  temporary failure (SMTP down, main moved: the next run catches up); else\n" \
	"  the sysexits code of the first other failure (65 data, 66 missing or\n" \
	"  damaged repository, 70 internal, 73 cannot write, 78 configuration)\n" \
	"  TIME is 2026-11-29T16:00:00Z (UTC) or @SECONDS, a real date from 1970 to 9999"

static unsigned run_flags; /* EST_RUN_NO_MAIL, EST_RUN_FORCE, EST_RUN_CONFIRM_CLOCK */

static void print_awaiting(const json_t *waiting)
{
	size_t i;
	json_t *a;

	if (json_is_true(json_object_get(waiting, "over"))) {
		printf("  the game is over\n");
		return;
	}
	printf("  step %lld (%s) awaits:", (long long)json_integer_value(json_object_get(waiting, "step")),
	       json_string_value(json_object_get(waiting, "kind")));
	json_array_foreach(json_object_get(waiting, "awaiting"), i, a)
		printf(" %s%s", json_string_value(json_object_get(a, "player")),
		       json_is_true(json_object_get(a, "received")) ? " (received)" : "");
	printf("\n");
}

static void print_summary(const json_t *s)
{
	const json_t *mail = json_object_get(s, "mail");
	size_t i, n = json_array_size(json_object_get(s, "resolved"));
	json_t *step;

	printf("%s: ", json_string_value(json_object_get(s, "game")));
	if (n == 0)
		printf("nothing due");
	else
		printf("resolved step%s", n > 1 ? "s" : "");
	json_array_foreach(json_object_get(s, "resolved"), i, step)
		printf("%s %lld", i ? "," : "", (long long)json_integer_value(step));
	printf("\n");
	print_awaiting(json_object_get(s, "waiting"));
	cmd_print_warnings(json_object_get(s, "warnings"));
	if (!mail)
		return;
	printf("  mail: %lld sent, %lld waiting in %s\n",
	       (long long)json_integer_value(json_object_get(mail, "sent")),
	       (long long)json_integer_value(json_object_get(mail, "pending")),
	       json_string_value(json_object_get(mail, "outbox")));
	if (!json_is_true(json_object_get(mail, "configured")) &&
	    json_integer_value(json_object_get(mail, "pending")) > 0)
		printf("  (no SMTP server configured: the messages stay there as .eml files; "
		       "set one with git -C GAME config estafette.smtpurl smtp://host:port)\n");
}

/*
 * What happened to the games of one command: the exit status a cron job
 * acts on is 0 when every game ran, 75 (EX_TEMPFAIL) when the only
 * failures were a lock held or a temporary one (the next run catches up),
 * else the sysexits code of the first other failure.
 */
typedef struct {
	int games, failed, temporary;
	int hard; /* exit code of the first failure that is not temporary, or 0 */
} run_tally;

static int tally_status(const run_tally *t)
{
	return t->hard ? t->hard : t->temporary ? EX_TEMPFAIL : 0;
}

/* A game that --all could not run: one line on stdout, like a summary. */
static void print_failure(const char *path, int error)
{
	const char *what = error == EST_ELOCKED ? "locked, not run" :
			   error == EST_ETEMPFAIL ? "temporary failure, the next run retries" :
			   "failed";

	printf("%s: %s (%s, exit %d): %s\n", path, what, est_error_name(error),
	       est_error_exit_code(error), est_error_message());
}

/*
 * Run `game` (opened from `path`; NULL when opening failed with `error`),
 * print or collect its summary and count the outcome in `t`. With `all`,
 * a failure is a summary line on stdout (cron mails it with the rest);
 * else it goes to stderr.
 */
static void run_game(run_tally *t, est_game *game, int error, const char *path, time_t now,
		     int json, json_t *results, int all)
{
	json_t *summary = NULL;

	t->games++;
	if (game)
		error = est_engine_run(&summary, game, now, run_flags);
	if (error < 0) {
		int temporary = error == EST_ELOCKED || error == EST_ETEMPFAIL;

		if (strncmp(est_error_message(), path, strlen(path)) != 0)
			est_error_prefix("%s", path);
		if (json)
			json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:s, s:i}", "game", path,
				"outcome", temporary ? "temporary" : "failed", "error", est_error_name(error),
				"message", est_error_message(), "exit", est_error_exit_code(error)));
		else if (all && !summary)
			print_failure(path, error);
		else
			fprintf(stderr, "estafette: %s\n", est_error_message());
		temporary ? t->temporary++ : t->failed++;
		if (!temporary && !t->hard)
			t->hard = est_error_exit_code(error);
		est_error_clear();
	}
	if (summary)
		json ? (void)json_array_append(results, summary) : print_summary(summary);
	json_decref(summary);
}

/* `run GAME`: the game must be there. */
static void run_one(run_tally *t, const char *path, time_t now, int json, json_t *results)
{
	est_game *game = NULL;
	int error = est_game_open(&game, path);

	run_game(t, game, error, path, now, json, results, 0);
	est_game_free(game);
}

/*
 * Every game repository directly under `dir` (with a work tree or bare), in
 * name order, each under its own lock (est_engine_run takes it); folders that
 * are not games are passed over, a damaged game is a failure of its own.
 */
static int run_all(run_tally *t, const char *dir, time_t now, int json, json_t *results)
{
	char **paths = NULL;
	size_t count = 0;
	int error;

	if ((error = est_overview_scan(&paths, &count, dir)) < 0)
		return cmd_fail(error, json, NULL);
	for (size_t i = 0; i < count; i++) {
		est_game *game = NULL;
		int is_game;

		error = est_overview_open(&game, &is_game, paths[i]);
		if (is_game)
			run_game(t, game, error, paths[i], now, json, results, 1);
		est_game_free(game);
		est_error_clear();
	}
	est_overview_paths_free(paths);
	return 0;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"all", required_argument, NULL, 'a'}, {"now", required_argument, NULL, 'n'},
		{"no-mail", no_argument, NULL, 'm'}, {"json", no_argument, NULL, 'j'},
		{"force", no_argument, NULL, 'f'}, {"confirm-clock", no_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'}, {0}};
	const char *all = NULL, *now_text = NULL;
	json_t *results = json_array();
	run_tally tally = {0};
	int c, json = 0, status = 0;
	time_t now;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = optarg; break;
		case 'n': now_text = optarg; break;
		case 'm': run_flags |= EST_RUN_NO_MAIL; break;
		case 'f': run_flags |= EST_RUN_FORCE; break;
		case 'c': run_flags |= EST_RUN_CONFIRM_CLOCK; break;
		case 'j': json = 1; break;
		default:
			json_decref(results);
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	if ((all && optind != argc) || (!all && optind == argc) ||
	    (now = cmd_parse_time(now_text)) == (time_t)-1) {
		json_decref(results);
		return cmd_usage(USAGE);
	}
	/*
	 * The steps this run commits are dated by its clock, so each new
	 * step's deadline counts from the run's "now" (a replay with --now
	 * never finds every later deadline already passed).
	 */
	if (now_text) {
		char secs[32];
		snprintf(secs, sizeof(secs), "%lld", (long long)now);
		setenv("ESTAFETTE_COMMIT_TIME", secs, 1);
	}
	if (all && (status = run_all(&tally, all, now, json, results)) != 0) {
		json_decref(results);
		return status;
	}
	for (int i = optind; i < argc; i++)
		run_one(&tally, argv[i], now, json, results);
	if (json)
		cmd_print_json(results);
	else if (all && tally.games == 0)
		printf("no games in %s\n", all);
	else if (all)
		printf("%d game%s: %d ran, %d locked or failed temporarily, %d failed\n", tally.games,
		       tally.games == 1 ? "" : "s", tally.games - tally.failed - tally.temporary,
		       tally.temporary, tally.failed);
	json_decref(results);
	return tally_status(&tally);
}
