/* estafette run GAME... | --all DIR [--shard K/N] [--now TIME] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"
#include "util/util.h"

static struct {
	const char *all;
	cmd_shard shard;
	time_t now;
	int no_mail, force, confirm_clock;
} args;

static const struct est_opt run_opts[] = {
	{"all", EST_OPT_DIR, &args.all, "every game repository directly under DIR",
	 .flags = EST_OPT_INSTEAD},
	{"shard", EST_OPT_CALL, &args.shard, "with --all: only the games of shard K of N hosts",
	 .arg = "K/N", .parse = cmd_read_shard, .expect = CMD_SHARD_EXPECT},
	{"now", EST_OPT_TIME, &args.now, "resolve as of TIME instead of the clock"},
	{"no-mail", EST_OPT_FLAG, &args.no_mail,
	 "queue the reports, send nothing (estafette mail sends them)"},
	{"force", EST_OPT_FLAG, &args.force,
	 "resolve by deadline past the outage guard and \"nmr\": \"wait\""},
	{"confirm-clock", EST_OPT_FLAG, &args.confirm_clock,
	 "the time is right, although it jumped since the last run"},
	{NULL}
};

static const struct est_opt_cmd run_cmd = {"run", "GAME...", 1, -1, run_opts,
	"  --all: every game repository directly under DIR, each under its own lock;\n"
	"  folders that are not games are passed over, a failing game never stops\n"
	"  the rest; one summary line per game (the steps resolved, nothing due, or\n"
	"  what failed), then a line of totals\n"
	"  --shard K/N: N hosts share DIR's games, each running its own shard: a game\n"
	"  is in shard K when the first 8 bytes of SHA-256 of its game.json id, as a\n"
	"  big-endian number, modulo N, plus 1, make K (docs/hosting.md); games of\n"
	"  other shards are passed over and counted apart\n"
	"  exit status: 0 every game ran; 75 the only failures were a lock held or a\n"
	"  temporary failure (SMTP down, main moved: the next run catches up); else\n"
	"  the sysexits code of the first other failure (65 data, 66 missing or\n"
	"  damaged repository, 70 internal, 73 cannot write, 78 configuration)\n"
	"  TIME is 2026-11-29T16:00:00Z (UTC) or @SECONDS, a real date from 1970 to 9999"};

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
	const json_t *mail = json_object_get(s, "mail"), *site = json_object_get(s, "site");
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
	if (site)
		printf("  site: %s (%lld files written, %lld removed)\n",
		       json_string_value(json_object_get(site, "dir")),
		       (long long)json_integer_value(json_object_get(site, "written")),
		       (long long)json_integer_value(json_object_get(site, "removed")));
	if (!mail)
		return;
	printf("  mail: %lld sent, %lld waiting in %s\n",
	       (long long)json_integer_value(json_object_get(mail, "sent")),
	       (long long)json_integer_value(json_object_get(mail, "pending")),
	       json_string_value(json_object_get(mail, "outbox")));
	cmd_print_no_smtp(mail, "  ");
}

/*
 * The games of one command: what they run with, where --json collects
 * their summaries, and what happened to them. The exit status a cron job
 * acts on is 0 when every game ran, 75 (EX_TEMPFAIL) when the only
 * failures were a lock held or a temporary one (the next run catches up),
 * else the sysexits code of the first other failure.
 */
typedef struct {
	time_t now;
	unsigned flags;   /* EST_RUN_NO_MAIL, EST_RUN_FORCE, EST_RUN_CONFIRM_CLOCK */
	int json;
	json_t *results;  /* --json: one summary or failure per game */
	int games, failed, temporary;
	int others;       /* --shard: games of other shards, not run */
	int hard; /* exit code of the first failure that is not temporary, or 0 */
} run_batch;

static int batch_status(const run_batch *b)
{
	return b->hard ? b->hard : b->temporary ? EX_TEMPFAIL : 0;
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

/* Count the failure `error` of the game at `path` and say it (see run_game). */
static void game_failed(run_batch *b, int error, const char *path, int all, int summarised)
{
	int temporary = error == EST_ELOCKED || error == EST_ETEMPFAIL;

	if (strncmp(est_error_message(), path, strlen(path)) != 0)
		est_error_prefix("%s", path);
	if (b->json)
		json_array_append_new(b->results, json_pack("{s:s, s:s, s:s, s:s, s:i}", "game", path,
			"outcome", temporary ? "temporary" : "failed", "error", est_error_name(error),
			"message", est_error_message(), "exit", est_error_exit_code(error)));
	else if (all && !summarised)
		print_failure(path, error);
	else
		fprintf(stderr, "estafette: %s\n", est_error_message());
	temporary ? b->temporary++ : b->failed++;
	if (!temporary && !b->hard)
		b->hard = est_error_exit_code(error);
	est_error_clear();
}

/*
 * Run `game` (opened from `path`; NULL when opening failed with `error`;
 * neither when `summary`, the next-due record's, says nothing is due),
 * print or collect its summary and count the outcome. With `all`, a
 * failure is a summary line on stdout (cron mails it with the rest); else
 * it goes to stderr. Takes over `summary`.
 */
static void run_game(run_batch *b, est_game *game, int error, const char *path, int all, json_t *summary)
{
	b->games++;
	if (game)
		error = est_engine_run(&summary, game, b->now, b->flags);
	if (error < 0)
		game_failed(b, error, path, all, summary != NULL);
	if (summary)
		b->json ? (void)json_array_append(b->results, summary) : print_summary(summary);
	json_decref(summary);
}

/*
 * `run GAME`: the game must be there. A game that cannot be opened is a
 * failure of the batch like any other (cmd_open_game would end the
 * command), so that `run A B` still runs B.
 */
static void run_one(run_batch *b, const char *path)
{
	est_game *game = NULL;
	int error = est_game_open(&game, path);

	run_game(b, game, error, path, 0, NULL);
	est_game_free(game);
}

/*
 * --shard: is the game whose id is `id` (NULL when it could not be opened:
 * every host reports it) another host's? Counted apart and, with --json,
 * listed as such.
 */
static int other_shard(run_batch *b, const json_t *id, const char *path)
{
	unsigned shard;

	if (!id || !cmd_other_shard(&shard, &args.shard, id))
		return 0;
	b->others++;
	if (b->json)
		json_array_append_new(b->results, json_pack("{s:O, s:s, s:s, s:I}", "game", id,
			"path", path, "outcome", "other-shard", "shard", (json_int_t)shard));
	return 1;
}

/*
 * Is the game whose id is `id` (NULL: not known) one that an earlier folder
 * of this run already holds? A game's dice secrets and outbox in
 * $ESTAFETTE_HOME are kept by id, so a second folder with that id (a
 * clone, a copy, a link) would resolve with the first one's secrets and
 * mail as it: it fails with EST_ECONFIG naming both, and only the first
 * is run. `seen` maps each id to its folder.
 */
static int same_id(run_batch *b, json_t *seen, const json_t *id, const char *path)
{
	const char *first;

	if (!json_is_string(id))
		return 0;
	if (!(first = json_string_value(json_object_get(seen, json_string_value(id))))) {
		json_object_set_new(seen, json_string_value(id), json_string(path));
		return 0;
	}
	est_error_set(EST_ECONFIG, "%s: holds game %s, as %s does: a game's dice secrets "
		      "and outbox in $ESTAFETTE_HOME go by its id, so only %s is run; move this "
		      "copy out of the folder (a clone to read belongs elsewhere), or run it with "
		      "its own ESTAFETTE_HOME", path, json_string_value(id), first, first);
	run_game(b, NULL, EST_ECONFIG, path, 1, NULL);
	return 1;
}

/*
 * Every game repository directly under `dir` (with a work tree or bare), in
 * name order, each under its own lock (est_engine_run takes it); folders that
 * are not games are passed over, a damaged game is a failure of its own. A
 * game whose next-due record holds is not opened at all, nor, with
 * --shard, another host's game whose record names it at main's commit.
 */
static int run_all(run_batch *b, const char *dir)
{
	char **paths = NULL;
	size_t count = 0;
	json_t *seen;
	int error;

	if ((error = est_overview_scan(&paths, &count, dir)) < 0)
		return cmd_fail(error, b->json, NULL);
	seen = json_object();
	for (size_t i = 0; i < count; i++) {
		est_game *game = NULL;
		json_t *passed, *id;
		int is_game, fresh = est_next_due_fresh(&passed, &id, paths[i], b->now, b->flags);
		int other = other_shard(b, id, paths[i]);

		if (other || (fresh && same_id(b, seen, id, paths[i])))
			json_decref(passed);
		else if (fresh)
			run_game(b, NULL, 0, paths[i], 1, passed);
		json_decref(id);
		if (other || fresh)
			continue;
		error = est_overview_open(&game, &is_game, paths[i]);
		id = game ? json_object_get(game->game, "id") : NULL;
		if (is_game && game && other_shard(b, id, paths[i]))
			est_next_due_save_game(game);
		else if (is_game && !same_id(b, seen, id, paths[i]))
			run_game(b, game, error, paths[i], 1, NULL);
		est_game_free(game);
		est_error_clear();
	}
	json_decref(seen);
	est_overview_paths_free(paths);
	return 0;
}

static void print_totals(const run_batch *b)
{
	if (b->json)
		cmd_print_json(b->results);
	else if (args.all && b->games + b->others == 0)
		printf("no games in %s\n", args.all);
	else if (args.all && args.shard.n)
		printf("%d game%s, %d in shard %u/%u: %d ran, %d locked or failed temporarily, %d failed\n",
		       b->games + b->others, b->games + b->others == 1 ? "" : "s", b->games, args.shard.k,
		       args.shard.n, b->games - b->failed - b->temporary, b->temporary, b->failed);
	else if (args.all)
		printf("%d game%s: %d ran, %d locked or failed temporarily, %d failed\n", b->games,
		       b->games == 1 ? "" : "s", b->games - b->failed - b->temporary,
		       b->temporary, b->failed);
}

int cmd_run(int argc, char **argv)
{
	struct est_opt_args a;
	run_batch b = {0};
	int error, status;

	if ((error = est_opt_parse(&a, &run_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if (args.shard.n && !args.all)
		return est_opt_refuse(&run_cmd, "--shard %u/%u: only with --all DIR, whose games the "
				      "hosts share; add --all DIR, or leave --shard out to run the games "
				      "named", args.shard.k, args.shard.n);
	b.now = args.now;
	b.json = a.json;
	b.flags = (args.no_mail ? EST_RUN_NO_MAIL : 0) | (args.force ? EST_RUN_FORCE : 0) |
		  (args.confirm_clock ? EST_RUN_CONFIRM_CLOCK : 0);
	/*
	 * The steps this run commits are dated by its clock, so each new
	 * step's deadline counts from the run's "now" (a replay with --now
	 * never finds every later deadline already passed).
	 */
	if (est_opt_given(&a, "now")) {
		char secs[32];
		snprintf(secs, sizeof(secs), "%lld", (long long)args.now);
		setenv("ESTAFETTE_COMMIT_TIME", secs, 1);
	}
	b.results = json_array();
	if (args.all && (status = run_all(&b, args.all)) != 0)
		goto out;
	for (int i = 0; i < a.count; i++)
		run_one(&b, a.args[i]);
	print_totals(&b);
	status = batch_status(&b);
out:
	json_decref(b.results);
	return status;
}
