/* estafette status GAME | --all DIR [--shard K/N] [--now TIME] [--json] */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "mail/mail.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"

static struct {
	const char *all;
	cmd_shard shard;
	time_t now;
} args;

static const struct est_opt status_opts[] = {
	{"all", EST_OPT_DIR, &args.all, "one line per game repository directly under DIR",
	 .flags = EST_OPT_INSTEAD},
	{"shard", EST_OPT_CALL, &args.shard, "only the games of shard K of N hosts (run --all --shard)",
	 .arg = "K/N", .parse = cmd_read_shard, .expect = CMD_SHARD_EXPECT},
	{"now", EST_OPT_TIME, &args.now, "as of TIME instead of the clock"},
	{NULL}
};

static const struct est_opt_cmd status_cmd = {"status", "GAME", 1, 1, status_opts,
	"  --all: one line per game repository directly under DIR (folders that are\n"
	"  not games are passed over): the next step, whom it awaits, the deadline,\n"
	"  missed steps per player and what needs the GM\n"
	"  --shard K/N: with --all, only the games run --all --shard K/N runs, and\n"
	"  how many others there are; with GAME, the game's shard of N (--json:\n"
	"  \"shard\", and \"in_shard\" true when it is K)\n"
	"  exit status with --all: 0 when every game could be read; else the code of\n"
	"  the first game (in name order) that could not, per sysexits: 65 a file does\n"
	"  not parse, 66 a part of the repository is missing, 70 git cannot read it,\n"
	"  78 a setting is wrong (an unknown ruleset, a fixed file edited by hand);\n"
	"  the other games are listed all the same (66 also when DIR is missing)\n"
	"  TIME is 2026-11-29T16:00:00Z (UTC) or @SECONDS, a real date from 1970 to 9999"};

/* Players whose mail bounces: the GM has to reach them some other way. */
static void print_unreachable(const json_t *s)
{
	size_t i;
	json_t *u;

	json_array_foreach(json_object_get(s, "unreachable"), i, u) {
		const char *diagnostic = json_string_value(json_object_get(u, "diagnostic"));

		printf("unreachable: %s since %s, %lld bounce%s (%s", json_string_value(json_object_get(u, "player")),
		       json_string_value(json_object_get(u, "since")),
		       (long long)json_integer_value(json_object_get(u, "bounces")),
		       json_integer_value(json_object_get(u, "bounces")) == 1 ? "" : "s",
		       json_string_value(json_object_get(u, "status")));
		if (diagnostic && *diagnostic) {
			printf(": ");
			cmd_put_safe(stdout, diagnostic);
		}
		printf(")\n");
	}
}

/* How many notices gm-notices/ keeps for the GM (est_game_gm_notice), into *count. */
static int kept_notices(json_int_t *count, est_game *game, char **dir_out)
{
	char *dir = est_game_home_path(game, "gm-notices");
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;

	*count = 0;
	*dir_out = dir;
	if (!dir)
		return est_error_set(EST_ENOMEM, "out of memory");
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		*count += n > 4 && e->d_name[0] != '.' && strcmp(e->d_name + n - 4, ".txt") == 0;
	}
	if (d)
		closedir(d);
	return 0;
}

/*
 * What status --json says of the GM's mail (docs/mail.md "Two addresses",
 * "Bounces"): "gm_address", the address notices go to or null, with
 * "gm_address_problem" when the one set is refused; "gm_notices_kept",
 * how many notices gm-notices/ holds, and "gm_notices", that folder; and
 * "unreachable": [{"player", "since", "last", "status", "diagnostic",
 * "bounces"}] (game.h est_game_unreachable), by player id; "gm_host",
 * whether this host keeps the game's dice secrets (the GM's copy, not a
 * player's clone, whose owner has no GM mail to set).
 */
static int add_gm_mail(json_t *status, est_game *game)
{
	json_t *doc = NULL, *list = json_array(), *entry;
	const char *player;
	char *gm = NULL, *dir = NULL;
	json_int_t kept;
	int error;

	if ((error = est_game_gm_address(&gm, game)) == EST_ECONFIG) {
		json_object_set_new(status, "gm_address_problem", json_string(est_error_message()));
		est_error_clear();
		error = 0;
	}
	if (error < 0 || (error = kept_notices(&kept, game, &dir)) < 0 ||
	    (error = est_game_unreachable(&doc, game)) < 0) {
		free(gm);
		free(dir);
		json_decref(list);
		return error;
	}
	json_object_set_new(status, "gm_host", json_boolean(est_secrets_check_free(game->home, json_string_value(
		json_object_get(game->game, "id"))) < 0));
	est_error_clear();
	json_object_set_new(status, "gm_address", gm ? json_string(gm) : json_null());
	json_object_set_new(status, "gm_notices_kept", json_integer(kept));
	json_object_set_new(status, "gm_notices", json_string(dir));
	free(gm);
	free(dir);
	json_object_foreach(doc, player, entry) {
		json_t *u = json_pack("{s:s, s:O*, s:O*, s:O*, s:O*, s:O*}", "player", player, "since",
				      json_object_get(entry, "since"), "last", json_object_get(entry, "last"),
				      "status", json_object_get(entry, "status"), "diagnostic",
				      json_object_get(entry, "diagnostic"), "bounces", json_object_get(entry, "bounces"));
		json_array_append_new(list, u);
	}
	json_object_set_new(status, "unreachable", list);
	json_decref(doc);
	return 0;
}

/* "mail_pending": how many messages wait in the game's outbox (sent by `run` or `mail`). */
static int add_outbox(json_t *status, est_game *game)
{
	char **names = NULL;
	size_t count = 0;
	int error = est_mail_outbox_list(&names, &count, game->home,
					 json_string_value(json_object_get(game->game, "id")), "pending");

	if (error == 0)
		json_object_set_new(status, "mail_pending", json_integer((json_int_t)count));
	est_mail_names_free(names, count);
	return error;
}

/* --shard K/N with GAME: "shard", the game's of N, and "in_shard", whether it is K. */
static void add_shard(json_t *status, const est_game *game)
{
	unsigned shard;
	int other = cmd_other_shard(&shard, &args.shard, json_object_get(game->game, "id"));

	json_object_set_new(status, "shard", json_integer(shard));
	json_object_set_new(status, "in_shard", json_boolean(!other));
}

/* 1 when every player the open step awaits has sent their file: the next run resolves it. */
static int all_in(const json_t *s)
{
	size_t i;
	json_t *a;

	json_array_foreach(json_object_get(s, "awaiting"), i, a)
		if (!json_is_true(json_object_get(a, "received")))
			return 0;
	return json_array_size(json_object_get(s, "awaiting")) > 0;
}

static void print_status(const json_t *s)
{
	size_t i;
	json_t *a;

	printf("game %s (%s)\n", json_string_value(json_object_get(s, "game")),
	       json_string_value(json_object_get(s, "ruleset")));
	print_unreachable(s);
	if (json_object_get(s, "shard"))
		printf("shard %lld of %u: %s\n", (long long)json_integer_value(json_object_get(s, "shard")),
		       args.shard.n, json_is_true(json_object_get(s, "in_shard")) ? "this host's" :
		       "another host's (run --all --shard passes it over here)");
	if (json_is_true(json_object_get(s, "gm_host")) && json_is_null(json_object_get(s, "gm_address")))
		printf("notices to the GM cannot be mailed: %s\n", json_string_value(json_object_get(s, "gm_address_problem"))
		       ? json_string_value(json_object_get(s, "gm_address_problem"))
		       : "set your own address with git -C GAME config estafette.gmaddress you@example.org");
	if (json_integer_value(json_object_get(s, "gm_notices_kept")) > 0)
		printf("notices kept for the GM: %lld in %s\n",
		       (long long)json_integer_value(json_object_get(s, "gm_notices_kept")),
		       json_string_value(json_object_get(s, "gm_notices")));
	if (json_integer_value(json_object_get(s, "mail_pending")) > 0)
		printf("mail waiting in the outbox: %lld message%s (run or estafette mail GAME sends them, "
		       "once git config estafette.smtpurl is set)\n",
		       (long long)json_integer_value(json_object_get(s, "mail_pending")),
		       json_integer_value(json_object_get(s, "mail_pending")) == 1 ? "" : "s");
	if (json_is_true(json_object_get(s, "over"))) {
		printf("the game is over\n");
		return;
	}
	printf("next step: %lld (%s, %s)\n", (long long)json_integer_value(json_object_get(s, "step")),
	       json_string_value(json_object_get(s, "kind")), json_string_value(json_object_get(s, "mode")));
	printf("prev (state.json SHA-256): %s\n", json_string_value(json_object_get(s, "state_sha256")));
	printf("%s\n", json_string_value(json_object_get(s, "prompt")));
	if (json_is_true(json_object_get(s, "paused")))
		printf("paused by the GM: nothing resolves until gm resume, which moves the deadline "
		       "by the time paused\n");
	if (json_object_get(s, "reveal_deadline"))
		printf("sealed orders: commit, then reveal once all have committed; reveals close at %s\n",
		       json_string_value(json_object_get(s, "reveal_deadline")));
	json_array_foreach(json_object_get(s, "awaiting"), i, a) {
		const char *deadline = json_string_value(json_object_get(a, "deadline"));
		printf("  %-12s %-10s %s", json_string_value(json_object_get(a, "player")),
		       json_string_value(json_object_get(a, "mode")),
		       json_is_true(json_object_get(a, "received")) ? "received" :
		       json_is_true(json_object_get(a, "committed")) ? "committed" :
		       json_is_true(json_object_get(a, "civil_disorder")) ? "awaited (civil disorder)" : "awaited");
		if (deadline)
			printf(", deadline %s", deadline);
		/* What run will do with the file it holds: the same check, done now. */
		if (json_is_string(json_object_get(a, "refused")))
			printf("\n%15sthe order recorded (seq %lld) will be refused: %s; send new orders "
			       "with \"seq\": %lld or higher", "",
			       (long long)json_integer_value(json_object_get(a, "seq")),
			       json_string_value(json_object_get(a, "refused")),
			       (long long)json_integer_value(json_object_get(a, "seq")) + 1);
		if (json_is_true(json_object_get(a, "note_missing")))
			printf(" (its public note orders/%s.received is missing, so players' copies "
			       "show it awaited; the next submit, receive or run writes it)",
			       json_string_value(json_object_get(a, "player")));
		printf("\n");
	}
	if (all_in(s) && !json_is_true(json_object_get(s, "paused")))
		printf("every file is in: the next run resolves the step\n");
}

/* "france, allies (sent)": whom the step awaits, and who has sent what. */
static void format_awaiting(char *buf, size_t len, const json_t *o)
{
	size_t i, used = 0;
	json_t *a;

	buf[0] = '\0';
	json_array_foreach(json_object_get(o, "awaiting"), i, a) {
		int n = snprintf(buf + used, len - used, "%s%s%s", i ? ", " : "",
				 json_string_value(json_object_get(a, "player")),
				 json_is_true(json_object_get(a, "received")) ? " (sent)" :
				 json_is_true(json_object_get(a, "committed")) ? " (committed)" : "");
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* "france 2, allies 1" for the players who missed steps, else "-". */
static void format_missed(char *buf, size_t len, const json_t *o)
{
	const char *player;
	size_t used = 0;
	json_t *n;

	buf[0] = '\0';
	json_object_foreach((json_t *)json_object_get(o, "missed"), player, n) {
		int w;
		if (json_integer_value(n) == 0)
			continue;
		w = snprintf(buf + used, len - used, "%s%s %lld", used ? ", " : "", player,
			     (long long)json_integer_value(n));
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

/* The table's short words for each "needs_gm" reason. */
static void format_needs(char *buf, size_t len, const json_t *o)
{
	size_t i, used = 0;
	json_t *r;

	buf[0] = '\0';
	json_array_foreach(json_object_get(o, "needs_gm"), i, r) {
		const char *reason = json_string_value(json_object_get(r, "reason"));
		char word[64];
		int n;

		if (strcmp(reason, "deadline-passed") == 0)
			snprintf(word, sizeof(word), "deadline passed: run it");
		else if (strcmp(reason, "due") == 0)
			snprintf(word, sizeof(word), "due: run it");
		else if (strcmp(reason, "mail") == 0)
			snprintf(word, sizeof(word), "mail waiting (%lld)",
				 (long long)json_integer_value(json_object_get(o, "mail_pending")));
		else if (strcmp(reason, "dice") == 0)
			snprintf(word, sizeof(word), "dice chain low (%lld left)",
				 (long long)json_integer_value(json_object_get(o, "dice_left")));
		else if (strcmp(reason, "over") == 0)
			snprintf(word, sizeof(word), "game over");
		else
			snprintf(word, sizeof(word), "%s", reason);
		n = snprintf(buf + used, len - used, "%s%s", used ? "; " : "", word);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void print_overview_line(const json_t *o)
{
	char step[64], deadline[48], awaiting[512], missed[512], needs[512];
	const char *when = json_string_value(json_object_get(o, "deadline"));

	if (json_object_get(o, "error")) {
		printf("%-14s cannot be read: %s\n", json_string_value(json_object_get(o, "game")),
		       json_string_value(json_object_get(o, "message")));
		return;
	}
	if (json_is_true(json_object_get(o, "over")))
		snprintf(step, sizeof(step), "over");
	else
		snprintf(step, sizeof(step), "%lld %s (%s)",
			 (long long)json_integer_value(json_object_get(o, "step")),
			 json_string_value(json_object_get(o, "kind")),
			 json_string_value(json_object_get(o, "mode")));
	snprintf(deadline, sizeof(deadline), "%s%s", when ? when : "-",
		 json_is_true(json_object_get(o, "deadline_passed")) ? " passed" : "");
	format_awaiting(awaiting, sizeof(awaiting), o);
	format_missed(missed, sizeof(missed), o);
	format_needs(needs, sizeof(needs), o);
	printf("%-14s %-28s %-24s %-28s %-18s %s\n", json_string_value(json_object_get(o, "game")),
	       step, awaiting, deadline, missed, needs);
}

/*
 * One game of --all into `list`; returns its sysexits code if it cannot be
 * read. A game of another shard is counted in *others instead.
 */
static int overview_one(json_t *list, int *others, const char *path, time_t now)
{
	est_game *game = NULL;
	json_t *entry = NULL;
	unsigned shard;
	int error, is_game;

	if ((error = est_overview_open(&game, &is_game, path)) == 0 && !is_game)
		return 0;
	if (game && cmd_other_shard(&shard, &args.shard, json_object_get(game->game, "id"))) {
		++*others;
		est_game_free(game);
		return 0;
	}
	if (error == 0 && (error = est_overview_game(&entry, game, now)) < 0 &&
	    strncmp(est_error_message(), path, strlen(path)) != 0)
		est_error_prefix("%s", path);
	if (error < 0 && est_overview_unreadable(&entry, path, error, est_error_message()) < 0)
		entry = NULL;
	if (entry)
		json_array_append_new(list, entry);
	est_game_free(game);
	est_error_clear();
	return error < 0 ? est_error_exit_code(error) : 0;
}

static int status_all(const char *dir, time_t now, int json)
{
	json_t *list = json_array(), *o;
	char **paths = NULL;
	size_t count = 0, i;
	int error, status = 0, others = 0;

	if ((error = est_overview_scan(&paths, &count, dir)) < 0) {
		json_decref(list);
		return cmd_fail(error, json, NULL);
	}
	for (i = 0; i < count; i++) {
		int s = overview_one(list, &others, paths[i], now);
		status = status ? status : s;
	}
	if (json) {
		cmd_print_json(list);
	} else if (json_array_size(list) == 0 && !others) {
		printf("no games in %s\n", dir);
	} else {
		printf("%-14s %-28s %-24s %-28s %-18s %s\n", "GAME", "NEXT STEP", "AWAITS", "DEADLINE",
		       "MISSED STEPS", "NEEDS THE GM");
		json_array_foreach(list, i, o)
			print_overview_line(o);
		if (args.shard.n)
			printf("(shard %u/%u: %d game%s of other shards not listed)\n", args.shard.k,
			       args.shard.n, others, others == 1 ? "" : "s");
	}
	est_overview_paths_free(paths);
	json_decref(list);
	return status;
}

int cmd_status(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	json_t *status_json = NULL;
	int error, status;

	if ((error = est_opt_parse(&a, &status_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if (args.all)
		return status_all(args.all, args.now, a.json);
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if ((error = est_intake_pending(&status_json, game, args.now)) < 0 ||
	    (error = add_gm_mail(status_json, game)) < 0 || (error = add_outbox(status_json, game)) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	if (args.shard.n)
		add_shard(status_json, game);
	a.json ? cmd_print_json(status_json) : print_status(status_json);
out:
	json_decref(status_json);
	est_game_free(game);
	return status;
}
