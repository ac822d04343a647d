/*
 * estafette reveal (docs/protocol.md "Dice protocol v2" and sealed games): publish the hidden
 * chain up to the last step, and for a sealed game what was sealed, so
 * that anyone can audit every step.
 *
 * reveal.json carries h_T, the hidden chain's value of the last step T:
 * hashing it gives h_(T-1), ..., h_1 and finally game.json's
 * hidden_chain_tip, so one value opens every step so far and none after.
 * revealed/NNNN/ carries, for each step, the hidden stream's record (when
 * this machine resolved the step: a CI runner's is gone with it) and, in a
 * sealed game, the whole state, every event and the order files.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "dice/dice.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"
#include "util/util.h"

/* The game is over, or the GM says to reveal before the end. */
static int check_over(est_game *game, int before_end)
{
	const json_t *open;
	int over, error;

	if ((error = est_turn_open(&open, game)) < 0)
		return error;
	over = strcmp(json_string_value(json_object_get(json_object_get(open, "pending"), "mode")),
		      "over") == 0;
	if (over || before_end)
		return 0;
	return est_error_set(EST_EUSAGE, "game %s is not over (step %lld is open): reveal publishes "
			     "the hidden chain so far%s; pass --before-end to reveal now anyway",
			     json_string_value(json_object_get(game->game, "id")), game->step + 1,
			     est_game_is_sealed(game) ? ", every hand and the deck order" : "");
}

/* Whether the game at `path` is over; *step_out its last step. */
static int game_over(int *over_out, long long *step_out, const char *path)
{
	est_game *other = NULL;
	const json_t *open;
	int error;

	if ((error = est_game_open(&other, path)) == 0 && (error = est_turn_open(&open, other)) == 0) {
		*over_out = strcmp(json_string_value(json_object_get(json_object_get(open, "pending"), "mode")),
				   "over") == 0;
		*step_out = other->step;
	}
	est_game_free(other);
	return error;
}

/*
 * Add games/<name> of this host to `running` if it is a game of `deal`
 * (new.c record_deal: games/<id>/deal.json) still being played, as
 * "id (awaiting step N)"; one that cannot be opened counts as running.
 */
static void deal_game_running(est_text *running, const char *games_dir, const char *name, const char *deal)
{
	char *file = est_strdup_printf("%s/%s/deal.json", games_dir, name), *text = NULL;
	json_t *doc = NULL;
	const char *path;
	long long step = 0;
	size_t len;
	int over = 0;

	if (!file) {
		running->failed = 1;
		return;
	}
	if (est_file_read(&text, &len, file, 1 << 16) < 0 || !(doc = json_loads(text, 0, NULL)) ||
	    !json_is_string(json_object_get(doc, "deal")) ||
	    strcmp(json_string_value(json_object_get(doc, "deal")), deal) != 0)
		goto out;
	path = json_string_value(json_object_get(doc, "path"));
	if (!path || game_over(&over, &step, path) < 0)
		est_text_add(running, "%s%s (cannot be opened at %s)", running->len ? ", " : "", name,
			     path ? path : "the path its deal.json lacks");
	else if (!over)
		est_text_add(running, "%s%s (awaiting step %lld)", running->len ? ", " : "", name, step + 1);
out:
	est_error_clear();
	json_decref(doc);
	free(text);
	free(file);
}

/*
 * The deal's games on this host that are still being played, as
 * deal_game_running() names them, in *running (a heap string, NULL when none).
 */
static int deal_running(char **running, est_game *game, const char *deal)
{
	char *dir = est_strdup_printf("%s/games", game->home);
	const char *self = json_string_value(json_object_get(game->game, "id"));
	DIR *d = dir ? opendir(dir) : NULL;
	est_text t = {0};
	struct dirent *e;

	*running = NULL;
	while (d && !t.failed && (e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, self) != 0)
			deal_game_running(&t, dir, e->d_name, deal);
	if (d)
		closedir(d);
	free(dir);
	if (!dir || t.failed) {
		free(t.text);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*running = t.text;
	return 0;
}

/*
 * A dealt game's hidden chain is the deal's: its reveal.json opens every
 * game's hidden draws up to its last step, and its revealed/ holds the
 * cards it drew, which the games behind it are still to meet. So a game of
 * a deal is revealed only once every game of the deal on this host is over.
 */
static int check_deal_over(est_game *game)
{
	const char *deal = json_string_value(json_object_get(game->game, "deal"));
	char *running = NULL;
	int error;

	/* A test-secret deal's chains follow from a public text: a reveal tells nothing new. */
	if (!deal || json_object_get(json_object_get(game->game, "dice"), "test_secret"))
		return 0;
	if ((error = deal_running(&running, game, deal)) < 0 || !running)
		return error;
	error = est_error_set(EST_EUSAGE, "game %s is one of deal %s, whose games %s are still being "
			      "played: its reveal would show them the deal's cards before they draw them "
			      "(one hidden chain deals every game); reveal the deal's games once the last "
			      "is over (estafette standings lists them)",
			      json_string_value(json_object_get(game->game, "id")), deal, running);
	free(running);
	return error;
}

/* Copy `path` of `store` at its main into the changes as `to`. */
static int copy_file(est_changes *c, est_store *store, const char *path, char *to)
{
	char *bytes = NULL;
	size_t len;
	int error;

	if (!to)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_store_read(&bytes, &len, store, NULL, path)) < 0) {
		free(to);
		return error;
	}
	return est_changes_add(c, to, bytes, len);
}

/* The order files of a sealed step, as its manifest lists them. */
static int reveal_orders(est_changes *c, est_game *game, const char *name)
{
	char path[300], sig_path[310], sha[65], *bytes = NULL;
	json_t *manifest = NULL, *entry;
	size_t i, len;
	int error;

	snprintf(path, sizeof(path), "turns/%s/manifest.json", name);
	if ((error = est_game_read_json(&manifest, game, NULL, path)) < 0)
		return error;
	json_array_foreach(json_object_get(manifest, "orders"), i, entry) {
		const char *file = json_string_value(json_object_get(entry, "file"));
		snprintf(path, sizeof(path), "orders/%s/%s", name, file ? file : "?");
		snprintf(sig_path, sizeof(sig_path), "%s.sig", path);
		if ((error = est_store_read(&bytes, &len, game->sealed_store, NULL, path)) < 0)
			break;
		est_sha256_hex(sha, bytes, len);
		if (strcmp(sha, json_string_value(json_object_get(entry, "sha256"))) != 0) {
			free(bytes);
			error = est_error_set(EST_ECONFIG, "%s in the sealed store is not the file step %s "
					      "resolved (its SHA-256 differs from the manifest's)", path, name);
			break;
		}
		if ((error = est_changes_add(c, est_strdup_printf("revealed/%s/orders/%s", name, file),
					     bytes, len)) < 0 ||
		    (error = copy_file(c, game->sealed_store, sig_path,
				       est_strdup_printf("revealed/%s/orders/%s.sig", name, file))) < 0)
			break;
	}
	json_decref(manifest);
	return error;
}

static int reveal_step(est_changes *c, est_game *game, long long step)
{
	char name[32], file[64], *path, *bytes = NULL;
	size_t len;
	int error;

	est_step_name(name, step);
	snprintf(file, sizeof(file), "hidden/%s.json", name);
	if (!(path = est_game_home_path(game, file)))
		return est_error_set(EST_ENOMEM, "out of memory");
	/* Only the runner that resolved a step has its record; audit recomputes it anyway. */
	if ((error = est_file_read(&bytes, &len, path, 16 << 20)) == EST_ENOTFOUND) {
		est_error_clear();
		error = 0;
	} else if (error == 0) {
		error = est_changes_add(c, est_strdup_printf("revealed/%s/hidden-dice.json", name), bytes, len);
	}
	free(path);
	if (error < 0 || !game->sealed_store)
		return error;
	for (int i = 0; i < 2 && !error; i++) {
		const char *part = i ? "events.json" : "state.json";
		snprintf(file, sizeof(file), "steps/%s/%s", name, part);
		error = copy_file(c, game->sealed_store, file,
				  est_strdup_printf("revealed/%s/%s", name, part));
	}
	return error ? error : reveal_orders(c, game, name);
}

/* reveal.json: h_T, which opens the hidden chain of every step up to T. */
static int reveal_json(est_changes *c, est_game *game)
{
	const json_t *dice = json_object_get(game->game, "dice");
	long long n = json_integer_value(json_object_get(dice, "chain_length"));
	unsigned char r[32], h[32];
	char hex[65];
	json_t *doc;
	int error;

	if ((error = est_secrets_chain_values(r, h, game->home,
					      json_string_value(json_object_get(game->game, "id")),
					      (uint32_t)(n - game->step))) < 0)
		return error;
	OPENSSL_cleanse(r, sizeof(r));
	est_hex_encode(hex, h, 32);
	doc = json_pack("{s:s, s:O, s:I, s:s, s:O}", "estafette", "reveal/1", "game",
				json_object_get(game->game, "id"), "step", (json_int_t)game->step,
				"hidden_reveal", hex, "hidden_chain_tip",
				json_object_get(dice, "hidden_chain_tip"));
	error = doc ? est_changes_add_json(c, "reveal.json", doc) :
		est_error_set(EST_ENOMEM, "out of memory");
	json_decref(doc);
	return error;
}

long long est_engine_revealed_step(est_game *game)
{
	json_t *doc = NULL;
	long long step = 0;

	if (est_game_read_json(&doc, game, NULL, "reveal.json") == 0)
		step = json_integer_value(json_object_get(doc, "step"));
	est_error_clear();
	json_decref(doc);
	return step;
}

int est_engine_reveal(json_t **summary_out, est_game *game, int before_end)
{
	char oid[EST_STORE_OID_HEX + 1], *msg = NULL;
	est_changes c = {0};
	int error;

	if ((error = est_sealed_require(game, "revealing")) < 0 || (error = est_game_lock(game)) < 0)
		return error;
	if ((error = est_game_reload(game)) < 0 || (error = est_game_repair(NULL, game)) < 0 ||
	    (error = check_over(game, before_end)) < 0 || (error = check_deal_over(game)) < 0)
		goto out;
	if (game->step == 0) {
		error = est_error_set(EST_EUSAGE, "nothing to reveal: no step has been resolved");
		goto out;
	}
	if (est_engine_revealed_step(game) >= game->step) {
		error = est_error_set(EST_EUSAGE, "reveal.json at main reveals up to step %lld already, the "
				      "last step resolved: nothing new to reveal", game->step);
		goto out;
	}
	if ((error = est_changes_delete(&c, "revealed")) < 0 || (error = reveal_json(&c, game)) < 0)
		goto out;
	for (long long t = 1; t <= game->step && !error; t++)
		error = reveal_step(&c, game, t);
	if (error < 0 ||
	    !(msg = est_strdup_printf("reveal: the hidden chain%s up to step %lld\n\nEstafette-Step: %lld\n",
				      game->sealed_store ? " and the sealed parts" : "", game->step,
				      game->step))) {
		error = error < 0 ? error : est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_game_commit(oid, game, c.items, c.count, msg, NULL)) < 0)
		goto out;
	*summary_out = json_pack("{s:O, s:I, s:b, s:s}", "game", json_object_get(game->game, "id"),
				 "step", (json_int_t)game->step, "sealed", game->sealed_store != NULL,
				 "commit", oid);
	error = est_game_reload(game);
out:
	free(msg);
	est_changes_free(&c);
	est_store_unlock(game->store);
	return error;
}
