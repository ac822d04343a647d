/* estafette run GAME... | --all DIR [--now TIME] */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "engine/engine.h"
#include "util/error.h"
#include "util/util.h"

#define USAGE "estafette run GAME... | --all DIR [--now TIME] [--no-mail] [--json]"

static unsigned run_flags; /* EST_RUN_NO_MAIL */

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
 * Run one game; returns the sysexits code for it. With `only_games` (run
 * --all), a repository that is not a game is passed over, not an error.
 */
static int run_one(int *games, const char *path, time_t now, int json, json_t *results,
		   int only_games)
{
	est_game *game = NULL;
	json_t *summary = NULL;
	int error, status = 0;

	if ((error = est_game_open(&game, path)) == EST_ENOTFOUND && only_games) {
		est_error_clear();
		return 0;
	}
	(*games)++;
	if (error == 0)
		error = est_game_run(&summary, game, now, run_flags);
	if (error < 0) {
		if (strncmp(est_error_message(), path, strlen(path)) != 0)
			est_error_prefix("%s", path);
		if (json)
			json_array_append_new(results, json_pack("{s:s, s:s, s:s, s:i}", "game", path,
				"error", est_error_name(error), "message", est_error_message(),
				"exit", est_error_exit_code(error)));
		else
			fprintf(stderr, "estafette: %s\n", est_error_message());
		status = est_error_exit_code(error);
	}
	if (summary) {
		json ? (void)json_array_append(results, summary) : print_summary(summary);
	}
	json_decref(summary);
	est_game_free(game);
	return status;
}

/*
 * Every game repository directly under `dir` (with a work tree or bare), in
 * name order; folders that are not games are passed over.
 */
static int run_all(int *games, const char *dir, time_t now, int json, json_t *results)
{
	struct dirent **entries = NULL;
	int n = scandir(dir, &entries, NULL, alphasort), status = 0;

	if (n < 0) {
		fprintf(stderr, "estafette: %s: cannot read the folder of games\n", dir);
		return EX_NOINPUT;
	}
	for (int i = 0; i < n; i++) {
		char *path = est_strdup_printf("%s/%s", dir, entries[i]->d_name);

		if (entries[i]->d_name[0] != '.' && path &&
		    (entries[i]->d_type == DT_DIR || entries[i]->d_type == DT_UNKNOWN)) {
			int s = run_one(games, path, now, json, results, 1);
			status = status ? status : s;
		}
		free(path);
		free(entries[i]);
	}
	free(entries);
	return status;
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"all", required_argument, NULL, 'a'}, {"now", required_argument, NULL, 'n'},
		{"no-mail", no_argument, NULL, 'm'}, {"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'}, {0}};
	const char *all = NULL, *now_text = NULL;
	json_t *results = json_array();
	int c, json = 0, status = 0, games = 0;
	time_t now;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'a': all = optarg; break;
		case 'n': now_text = optarg; break;
		case 'm': run_flags |= EST_RUN_NO_MAIL; break;
		case 'j': json = 1; break;
		default:
			json_decref(results);
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	if ((all && optind != argc) || (!all && optind == argc) ||
	    (now = cmd_parse_time(now_text)) == (time_t)-1) {
		json_decref(results);
		return cmd_usage(USAGE "\n  TIME is 2026-11-29T16:00:00Z or @SECONDS");
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
	if (all)
		status = run_all(&games, all, now, json, results);
	for (int i = optind; i < argc; i++) {
		int s = run_one(&games, argv[i], now, json, results, 0);
		status = status ? status : s;
	}
	if (json)
		cmd_print_json(results);
	else if (all && games == 0 && status == 0)
		printf("no games in %s\n", all);
	json_decref(results);
	return status;
}
