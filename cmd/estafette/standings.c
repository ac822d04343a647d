/*
 * estafette standings DIR [--json]: the games of each deal under DIR,
 * ranked, each with the verdict of its own audit (README "Challenges: one
 * deal, many players").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "audit/audit.h"
#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"
#include "util/util.h"

static const struct est_opt standings_opts[] = {
	{NULL}
};

static const struct est_opt_cmd standings_cmd = {"standings", "DIR", 1, 1, standings_opts,
	"  every game repository directly under DIR that is in a deal (game.json\n"
	"  \"deal\"; games in no deal are not listed), grouped by deal and ranked:\n"
	"  finished games first by score, then unfinished ones by score. Each game is\n"
	"  audited as `estafette audit` does; a game that fails its audit, or does not\n"
	"  share its deal's hidden dice chain, rules/ files and options, is shown but\n"
	"  not ranked, nor is a game whose ruleset does not score games\n"
	"  exit status: 0; 66 when DIR is missing; 65 when a game failed its audit or\n"
	"  the deal check or could not be read (after printing everything)"};

/*
 * What must be equal across the games of one deal, as a new object:
 * {"hidden dice chain tip": the tip and the chain length, "rules/ files": the
 * SHA-256 of rules/, "options": game.json's options}.
 */
static json_t *deal_key(const est_game *game)
{
	const json_t *dice = json_object_get(game->game, "dice");
	char rules[65];

	if (est_game_rules_sha256(rules, game->store, "step-0000") < 0) {
		est_error_clear();
		snprintf(rules, sizeof(rules), "unreadable");
	}
	return json_pack("{s:[O?, O?], s:s, s:O?}", "hidden dice chain tip",
			 json_object_get(dice, "hidden_chain_tip"), json_object_get(dice, "chain_length"),
			 "rules/ files", rules, "options",
			 json_object_get(game->game, "options"));
}

/* The audit's verdict of `path` into row: "audit", "complete", "audit_ok". */
static void audit_row(json_t *row, const char *path, const char *home)
{
	json_t *report = NULL;
	char *verdict;
	int error = est_audit_run(&report, path, home, NULL, NULL, NULL);
	const json_t *failure = json_object_get(report, "failure");

	if (error < 0)
		verdict = est_strdup_printf("AUDIT FAILED: %s", est_error_message());
	else if (!json_is_true(json_object_get(report, "ok")))
		verdict = est_strdup_printf("AUDIT FAILED: step %lld, %s: %s",
					    (long long)json_integer_value(json_object_get(failure, "step")),
					    json_string_value(json_object_get(failure, "file")),
					    json_string_value(json_object_get(failure, "message")));
	else
		verdict = strdup("verified");
	json_object_set_new(row, "audit", json_string(verdict ? verdict : "AUDIT FAILED: out of memory"));
	json_object_set_new(row, "audit_ok", json_boolean(error == 0 && verdict &&
							  strcmp(verdict, "verified") == 0));
	json_object_set_new(row, "complete", json_boolean(error == 0 &&
							  json_is_true(json_object_get(report, "complete"))));
	est_error_clear();
	free(verdict);
	json_decref(report);
}

/*
 * The state the row is scored by: the public one, or, once the game is
 * revealed through its end and its audit found the revealed states whole,
 * the last step's revealed state (a sealed game's public state may hold
 * only what its ruleset keeps public, a dealt game's not its result).
 * *owned_out is what the caller frees.
 */
static const json_t *scored_state(json_t **owned_out, const json_t *row, est_game *game)
{
	char name[32], path[64];
	json_t *doc = NULL;

	*owned_out = NULL;
	if (!json_is_true(json_object_get(row, "revealed")) || !json_is_true(json_object_get(row, "complete")))
		return game->state;
	est_step_name(name, game->step);
	snprintf(path, sizeof(path), "revealed/%s/state.json", name);
	if (est_game_read_json(&doc, game, NULL, path) < 0 || !json_is_object(json_object_get(doc, "state"))) {
		/* An unsealed game reveals no states: its public one is whole. */
		est_error_clear();
		json_decref(doc);
		return game->state;
	}
	*owned_out = doc;
	return doc;
}

/* "over", "score" and "result" of the row, from the ruleset's score() or as unranked. */
static int score_row(json_t *row, est_game *game)
{
	json_t *owned = NULL;
	const json_t *whole = scored_state(&owned, row, game), *state = json_object_get(whole, "state");
	json_t *score = NULL, *pending = NULL;
	int over, error;

	if ((error = est_turn_ruleset_pending(&pending, game->ruleset, game->rules, whole)) < 0)
		goto out;
	over = strcmp(json_string_value(json_object_get(pending, "mode")), "over") == 0;
	json_decref(pending);
	if (!game->ruleset->score) {
		json_object_set_new(row, "over", json_boolean(over));
		json_object_set_new(row, "score", json_null());
		json_object_set_new(row, "result", json_string(over ? "over (not scored)" : "in play"));
		goto out;
	}
	if ((error = game->ruleset->score(&score, state, game->rules)) < 0)
		goto out;
	if (!json_is_integer(json_object_get(score, "score")) ||
	    !json_is_string(json_object_get(score, "result"))) {
		error = est_error_set(EST_ERROR, "%s: score() gave no integer \"score\" and string \"result\"",
				      game->ruleset->name);
		goto out;
	}
	json_object_set_new(row, "over", json_boolean(over || json_is_true(json_object_get(score, "over"))));
	json_object_set(row, "score", json_object_get(score, "score"));
	json_object_set(row, "result", json_object_get(score, "result"));
out:
	json_decref(score);
	json_decref(owned);
	return error;
}

/* One row of a dealt game; the deal's name into *deal_out (NULL: in no deal). */
static int game_row(json_t **row_out, const char **deal_out, est_game *game, const char *path,
		    const char *home)
{
	const json_t *first = json_array_get(json_object_get(game->game, "players"), 0);
	json_t *row, *key;
	int error;

	*row_out = NULL;
	if (!(*deal_out = json_string_value(json_object_get(game->game, "deal"))))
		return 0;
	row = json_pack("{s:n, s:s, s:s, s:{s:s?, s:s?}, s:I}", "rank", "game",
			json_string_value(json_object_get(game->game, "id")), "path", path, "player",
			"id", json_string_value(json_object_get(first, "id")), "name",
			json_string_value(json_object_get(first, "name")), "steps", (json_int_t)game->step);
	if (!row || !(key = deal_key(game))) {
		json_decref(row);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_object_set_new(row, "key", key);
	/* Revealed through its last step: its cards are public, and its audit can be complete. */
	json_object_set_new(row, "revealed", json_boolean(game->step > 0 &&
							  est_engine_revealed_step(game) >= game->step));
	audit_row(row, path, home);
	if ((error = score_row(row, game)) < 0) {
		json_decref(row);
		return error;
	}
	*row_out = row;
	return 0;
}

/*
 * The key most of the deal's audited games share, or NULL with *disputed
 * set when two keys tie for it: then no game can be judged by the others.
 */
static const json_t *majority_key(int *disputed, const json_t *games)
{
	const json_t *best = NULL;
	size_t best_n = 0, i, j;
	json_t *a, *b;

	*disputed = 0;
	json_array_foreach(games, i, a) {
		size_t n = 0;
		if (!json_is_true(json_object_get(a, "audit_ok")))
			continue;
		json_array_foreach(games, j, b)
			n += json_is_true(json_object_get(b, "audit_ok")) &&
			     json_equal(json_object_get(a, "key"), json_object_get(b, "key"));
		if (n > best_n) {
			best_n = n;
			best = json_object_get(a, "key");
			*disputed = 0;
		} else if (n == best_n && !json_equal(best, json_object_get(a, "key"))) {
			*disputed = 1;
		}
	}
	return *disputed ? NULL : best;
}

/*
 * A game id that two folders hold and both pass their audits (a copy) counts
 * for neither: both are flagged and neither votes. (A copy rewritten since
 * fails its audit and is shown so.)
 */
static void flag_copies(json_t *games)
{
	json_t *a, *b, *copies = json_array();
	size_t i, j;

	json_array_foreach(games, i, a)
		json_array_foreach(games, j, b)
			if (i != j && json_is_true(json_object_get(a, "audit_ok")) &&
			    json_is_true(json_object_get(b, "audit_ok")) &&
			    json_equal(json_object_get(a, "game"), json_object_get(b, "game")))
				json_array_append(copies, a);
	json_array_foreach(copies, i, a) {
		json_object_set_new(a, "audit_ok", json_false());
		json_object_set_new(a, "audit", json_string("COPY: another folder holds the same game id; neither "
							    "is ranked"));
	}
	json_decref(copies);
}

/* Finished before unfinished, then the higher score, then the game id. */
static int compare_rows(const void *pa, const void *pb)
{
	const json_t *a = *(json_t *const *)pa, *b = *(json_t *const *)pb;
	int ra = json_is_true(json_object_get(a, "ranked")), rb = json_is_true(json_object_get(b, "ranked"));
	int oa = json_is_true(json_object_get(a, "over")), ob = json_is_true(json_object_get(b, "over"));
	json_int_t sa = json_integer_value(json_object_get(a, "score"));
	json_int_t sb = json_integer_value(json_object_get(b, "score"));

	if (ra != rb)
		return rb - ra;
	if (ra && oa != ob)
		return ob - oa;
	if (ra && sa != sb)
		return sa < sb ? 1 : -1;
	return strcmp(json_string_value(json_object_get(a, "game")),
		      json_string_value(json_object_get(b, "game")));
}

/* The audit column of a game that does not share the deal's `key`: what differs. */
static void not_this_deal(json_t *row, const json_t *key)
{
	const json_t *mine = json_object_get(row, "key"), *value;
	const char *part;
	char what[128] = "";
	char *text;

	json_object_foreach((json_t *)key, part, value)
		if (!json_equal(value, json_object_get(mine, part)))
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s%s", *what ? ", " : "", part);
	text = est_strdup_printf("verified, but NOT THIS DEAL: its %s differ from those of the "
				 "deal's other games", what);
	json_object_set_new(row, "audit", json_string(text ? text : "NOT THIS DEAL"));
	free(text);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The deal's "reveal": when its games may be revealed, or that they are.
 * One game's reveal opens the hidden chain every game of the deal draws
 * from, so `reveal` waits for the last game (docs/gm-guide.md "Challenges").
 */
static void reveal_note(json_t *deal)
{
	const json_t *games = json_object_get(deal, "games"), *g;
	const char **hidden_ids = calloc(json_array_size(games) + 1, sizeof(*hidden_ids));
	size_t i, playing = 0, hidden = 0;
	est_text t = {0};

	json_array_foreach(games, i, g) {
		playing += !json_is_true(json_object_get(g, "over"));
		if (hidden_ids && !json_is_true(json_object_get(g, "revealed")))
			hidden_ids[hidden++] = json_string_value(json_object_get(g, "game"));
	}
	if (playing) {
		est_text_add(&t, "reveals wait until every game of the deal is over (%zu still playing): "
			     "one game's reveal would show the deal's cards to the others", playing);
	} else if (hidden) {
		/* By name, not by rank: the note says which games, not how they stand. */
		qsort(hidden_ids, hidden, sizeof(*hidden_ids), by_name);
		est_text_add(&t, "every game is over; %zu not yet revealed (", hidden);
		for (i = 0; i < hidden; i++)
			est_text_add(&t, "%s%s", i ? ", " : "", hidden_ids[i]);
		est_text_add(&t, "): reveal each (estafette reveal GAME) to publish the deal's cards");
	} else {
		est_text_add(&t, "every game is over and revealed: the deal's cards are public, and each "
			     "game's audit can check every step");
	}
	json_object_set_new(deal, "reveal", json_string(hidden_ids && !t.failed ? t.text :
							 "reveals wait for the deal's end"));
	free(hidden_ids);
	free(t.text);
}

/*
 * Flag the games that are not of the deal, rank the others (equal standing,
 * equal rank) and drop the working fields. Returns how many games failed
 * their audit or the deal check.
 */
static int rank_deal(json_t *deal)
{
	json_t *games = json_object_get(deal, "games"), *row, *sorted = json_array();
	const json_t *key;
	size_t i, n = json_array_size(games);
	json_t **rows = calloc(n ? n : 1, sizeof(*rows));
	int bad = 0, disputed;

	flag_copies(games);
	key = majority_key(&disputed, games);
	json_array_foreach(games, i, row) {
		int audited = json_is_true(json_object_get(row, "audit_ok"));
		int in_deal = audited && key && json_equal(json_object_get(row, "key"), key);
		/* A game that fails its audit cannot be judged by what it claims. */
		json_object_set_new(row, "in_deal", audited && !disputed ? json_boolean(in_deal) : json_null());
		if (audited && disputed)
			json_object_set_new(row, "audit", json_string("verified, but the deal is DISPUTED: its games "
								      "split evenly on their hidden dice chain, rules/ "
								      "files or options, so none is ranked"));
		else if (audited && !in_deal)
			not_this_deal(row, key);
		bad += !audited || !in_deal;
		json_object_set_new(row, "ranked", json_boolean(in_deal && !json_is_null(json_object_get(row, "score"))));
		rows[i] = row;
	}
	qsort(rows, n, sizeof(*rows), compare_rows);
	for (i = 0; rows && i < n; i++) {
		size_t ahead = 0;
		for (size_t j = 0; j < i && json_is_true(json_object_get(rows[i], "ranked")); j++)
			ahead += json_is_true(json_object_get(rows[j], "over")) !=
				 json_is_true(json_object_get(rows[i], "over")) ||
				 !json_equal(json_object_get(rows[j], "score"), json_object_get(rows[i], "score"));
		/* Standard competition ranking: the rank is one more than the games strictly ahead. */
		if (json_is_true(json_object_get(rows[i], "ranked")))
			json_object_set_new(rows[i], "rank", json_integer((json_int_t)ahead + 1));
		json_array_append(sorted, rows[i]);
		json_object_del(rows[i], "key");
		json_object_del(rows[i], "audit_ok");
		json_object_del(rows[i], "ranked");
	}
	json_object_set_new(deal, "games", sorted);
	free(rows);
	reveal_note(deal);
	return bad;
}

/* The deal named `name` in `deals`, added when new. */
static json_t *deal_entry(json_t *deals, const char *name)
{
	size_t i;
	json_t *d;

	json_array_foreach(deals, i, d)
		if (strcmp(json_string_value(json_object_get(d, "deal")), name) == 0)
			return d;
	d = json_pack("{s:s, s:[]}", "deal", name, "games");
	json_array_append_new(deals, d);
	return d;
}

/* One folder of DIR into `deals` (or `unreadable`); 1 when it could not be read. */
static int collect_one(json_t *deals, json_t *unreadable, const char *path, const char *home)
{
	est_game *game = NULL;
	json_t *row = NULL;
	const char *deal = NULL;
	int error, is_game;

	if ((error = est_overview_open(&game, &is_game, path)) == 0 && !is_game)
		return 0;
	if (error == 0 && (error = game_row(&row, &deal, game, path, home)) < 0 &&
	    strncmp(est_error_message(), path, strlen(path)) != 0)
		est_error_prefix("%s", path);
	if (error < 0)
		json_array_append_new(unreadable, json_pack("{s:s, s:s}", "path", path, "message",
							    est_error_message()));
	else if (row)
		json_array_append_new(json_object_get(deal_entry(deals, deal), "games"), row);
	est_game_free(game);
	est_error_clear();
	return error < 0;
}

static void print_deal(const json_t *deal)
{
	size_t i;
	json_t *g;

	printf("deal %s (%zu games)\n", json_string_value(json_object_get(deal, "deal")),
	       json_array_size(json_object_get(deal, "games")));
	printf("  %-4s %-16s %-28s %5s  %-32s %6s  %s\n", "RANK", "GAME", "PLAYER", "STEPS", "RESULT",
	       "SCORE", "AUDIT");
	json_array_foreach(json_object_get(deal, "games"), i, g) {
		const json_t *p = json_object_get(g, "player");
		char rank[24] = "-", score[24] = "-", player[160];
		if (json_is_integer(json_object_get(g, "rank")))
			snprintf(rank, sizeof(rank), "%lld", (long long)json_integer_value(json_object_get(g, "rank")));
		if (json_is_integer(json_object_get(g, "score")))
			snprintf(score, sizeof(score), "%lld", (long long)json_integer_value(json_object_get(g, "score")));
		snprintf(player, sizeof(player), "%s (%s)", json_string_value(json_object_get(p, "name")),
			 json_string_value(json_object_get(p, "id")));
		printf("  %-4s %-16s %-28s %5lld  %-32s %6s  %s%s\n", rank,
		       json_string_value(json_object_get(g, "game")), player,
		       (long long)json_integer_value(json_object_get(g, "steps")),
		       json_string_value(json_object_get(g, "result")), score,
		       json_string_value(json_object_get(g, "audit")),
		       json_is_true(json_object_get(g, "complete")) ? " (complete)" :
		       strcmp(json_string_value(json_object_get(g, "audit")), "verified") == 0 ?
		       " (not complete: hidden values not revealed)" : "");
	}
	printf("  %s\n", json_string_value(json_object_get(deal, "reveal")));
}

static void print_text(const json_t *deals, const json_t *unreadable, const char *dir)
{
	size_t i;
	json_t *d;

	if (json_array_size(deals) == 0)
		printf("no games in a deal in %s\n", dir);
	json_array_foreach(deals, i, d) {
		if (i)
			printf("\n");
		print_deal(d);
	}
	json_array_foreach(unreadable, i, d)
		fprintf(stderr, "estafette: %s\n", json_string_value(json_object_get(d, "message")));
}

static int standings(const char *dir, int json)
{
	json_t *deals = json_array(), *unreadable = json_array(), *d;
	char **paths = NULL, *home = est_home_dir();
	size_t count = 0, i;
	int error, bad = 0;

	if ((error = est_overview_scan(&paths, &count, dir)) < 0) {
		error = cmd_fail(error, json, NULL);
		goto out;
	}
	for (i = 0; i < count; i++)
		bad += collect_one(deals, unreadable, paths[i], home);
	json_array_foreach(deals, i, d)
		bad += rank_deal(d);
	if (json) {
		json_t *doc = json_pack("{s:O, s:O}", "deals", deals, "unreadable", unreadable);
		cmd_print_json(doc);
		json_decref(doc);
	} else {
		print_text(deals, unreadable, dir);
	}
	error = bad ? EX_DATAERR : 0;
out:
	est_overview_paths_free(paths);
	json_decref(unreadable);
	json_decref(deals);
	free(home);
	return error;
}

int cmd_standings(int argc, char **argv)
{
	struct est_opt_args a;
	int error;

	if ((error = est_opt_parse(&a, &standings_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	return standings(a.args[0], a.json);
}
