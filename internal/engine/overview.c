/*
 * Many games on one host: the games of a folder and the GM's overview of
 * each (overview.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "intake/intake.h"
#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_folder(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void est_overview_paths_free(char **paths)
{
	if (!paths)
		return;
	for (size_t i = 0; paths[i]; i++)
		free(paths[i]);
	free(paths);
}

int est_overview_scan(char ***paths_out, size_t *count_out, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	char **paths = NULL;
	size_t count = 0, cap = 0;
	int error = 0;

	if (!d)
		return est_error_set(errno == ENOENT || errno == ENOTDIR ? EST_ENOTFOUND : EST_EIO,
				     "%s: cannot read the folder of games: %s", dir, strerror(errno));
	while ((entry = readdir(d))) {
		char *path;

		if (entry->d_name[0] == '.')
			continue;
		if (!(path = est_strdup_printf("%s/%s", dir, entry->d_name))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		if (!is_folder(path)) {
			free(path);
			continue;
		}
		if (count + 2 > cap) {
			char **grown = realloc(paths, (cap = cap ? cap * 2 : 16) * sizeof(*paths));
			if (!grown) {
				free(path);
				error = est_error_set(EST_ENOMEM, "out of memory");
				goto out;
			}
			paths = grown;
		}
		paths[count++] = path;
		paths[count] = NULL;
	}
	if (count == 0 && !(paths = calloc(1, sizeof(*paths)))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	qsort(paths, count, sizeof(*paths), compare_names);
	*paths_out = paths;
	*count_out = count;
	paths = NULL;
out:
	if (paths)
		paths[count] = NULL;
	est_overview_paths_free(paths);
	closedir(d);
	return error;
}

/*
 * est_game_open said "not found": a repository that never was a game (pass
 * it over), or a game that lost main? `estafette new` tags step-0000, and
 * that tag outlives a lost or deleted main.
 */
static int has_game_tag(const char *path)
{
	est_store *store = NULL;
	/* The ref alone: a game whose objects are lost is still a game, one that cannot be read. */
	int found = est_store_open(&store, path) == 0 &&
		    est_store_tag_target(NULL, store, "step-0000") == 0;

	est_store_free(store);
	est_error_clear();
	return found;
}

/* Does `message` start with `path`, as given or absolute (the store's messages)? */
static int names_path(const char *message, const char *path)
{
	char *absolute = realpath(path, NULL);
	int named = strncmp(message, path, strlen(path)) == 0 ||
		    (absolute && strncmp(message, absolute, strlen(absolute)) == 0);

	free(absolute);
	return named;
}

int est_overview_open(est_game **out, int *is_game_out, const char *path)
{
	char dangling[1024] = "";
	int error;

	*out = NULL;
	*is_game_out = 0;
	/* A folder that is no repository, or one without a game's step-0000, is passed over. */
	if ((error = est_game_open(out, path)) == 0) {
		*is_game_out = 1;
		return 0;
	}
	/* A game whose opening said how its repository is damaged keeps those words. */
	if (error == EST_ENOTFOUND && strstr(est_error_message(), "the repository is damaged"))
		goto damaged;
	/* The store's own word for a dangling main names the commit and the step to go back to. */
	if (error == EST_ENOTFOUND && strstr(est_error_message(), " is dangling: "))
		snprintf(dangling, sizeof(dangling), "%s", est_error_message());
	if (error == EST_ENOTFOUND && !has_game_tag(path)) {
		est_error_clear();
		return 0;
	}
	if (dangling[0])
		error = est_error_set(EST_ENOTFOUND, "%s", dangling);
	else if (error == EST_ENOTFOUND)
		error = est_error_set(EST_ENOTFOUND, "the repository is damaged: it has the tag "
				      "step-0000 of a game but no readable refs/heads/main with "
				      "game.json; restore it from a clone or a backup (git update-ref "
				      "refs/heads/main <the last step's commit>)");
damaged:
	*is_game_out = 1;
	if (!names_path(est_error_message(), path))
		est_error_prefix("%s", path);
	return error;
}

int est_overview_shard(unsigned *shard_out, const char *id, unsigned n)
{
	unsigned char md[EST_SHA256_LEN];
	uint64_t head = 0;

	if (n == 0 || n > EST_OVERVIEW_SHARDS_MAX)
		return est_error_set(EST_EINVAL, "%u hosts: a folder of games is shared among 1 to %d hosts",
				     n, EST_OVERVIEW_SHARDS_MAX);
	est_sha256(md, id, strlen(id));
	for (int i = 0; i < 8; i++)
		head = head << 8 | md[i];
	*shard_out = (unsigned)(head % n) + 1;
	return 0;
}

/* Count each player that turns/<name>/manifest.json lists under "missing". */
static int count_missing(json_t *missed, est_game *game, const char *name)
{
	json_t *manifest = NULL, *entry;
	char *path = est_strdup_printf("turns/%s/manifest.json", name);
	size_t i;
	int error;

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	error = est_store_read_json(&manifest, game->store, NULL, path);
	free(path);
	if (error == EST_ENOTFOUND) { /* a folder without a manifest is no resolved step */
		est_error_clear();
		return 0;
	}
	if (error < 0)
		return error;
	json_array_foreach(json_object_get(manifest, "missing"), i, entry) {
		const char *player = json_string_value(json_object_get(entry, "player"));

		if (player)
			json_object_set_new(missed, player,
					    json_integer(json_integer_value(json_object_get(missed, player)) + 1));
	}
	json_decref(manifest);
	return 0;
}

/* {player: missed steps} over every resolved step, each player of game.json listed. */
static int missed_steps(json_t **out, est_game *game)
{
	json_t *missed = json_object(), *player;
	char **names = NULL;
	size_t count = 0, i;
	int error;

	json_array_foreach(json_object_get(game->game, "players"), i, player)
		json_object_set_new(missed, json_string_value(json_object_get(player, "id")), json_integer(0));
	if ((error = est_store_list(&names, &count, game->store, NULL, "turns")) < 0)
		goto out;
	for (i = 0; i < count; i++) {
		char *end;
		long long step = strtoll(names[i], &end, 10);

		/* Only steps of the current history: turns/NNNN up to the last resolved one. */
		if (*end || end == names[i] || step < 1 || step > game->step)
			continue;
		if ((error = count_missing(missed, game, names[i])) < 0)
			goto out;
	}
	*out = missed;
	missed = NULL;
out:
	est_store_list_free(names);
	json_decref(missed);
	return error;
}

static void need(json_t *needs, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void need(json_t *needs, const char *reason, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(needs, json_pack("{s:s, s:s}", "reason", reason, "message", text));
}

/* Is the lock held elsewhere? Taken without waiting and released at once. */
static void probe_lock(json_t *needs, int *locked_out, est_game *game)
{
	int error = est_store_lock(game->store);

	*locked_out = error == EST_ELOCKED;
	if (error == 0)
		est_store_unlock(game->store);
	else if (error == EST_ELOCKED)
		need(needs, "locked", "%s (a run in progress; if it stays locked, a stuck process "
		     "holds it)", est_error_message());
	else
		need(needs, "lock", "%s", est_error_message());
	est_error_clear();
}

static void step_reasons(json_t *needs, const json_t *pending)
{
	long long step = json_integer_value(json_object_get(pending, "step"));
	const char *mode = json_string_value(json_object_get(pending, "mode"));

	if (json_is_true(json_object_get(pending, "over")))
		need(needs, "over", "the game is over: publish the hidden chain (estafette reveal) "
		     "and archive the game");
	else if (json_is_true(json_object_get(pending, "deadline_passed")))
		need(needs, "deadline-passed", "the deadline %s passed and step %lld is not resolved: "
		     "run it (estafette run); if the run says nothing is due, its warning names what "
		     "holds the step: the outage guard or \"nmr\": \"wait\" (estafette gm GAME extend, "
		     "or run --force) or the clock guard (run --confirm-clock)",
		     json_string_value(json_object_get(pending, "deadline")), step);
	else if (mode && strcmp(mode, "automatic") == 0)
		need(needs, "due", "step %lld is automatic and waits for a run (estafette run)", step);
}

/* The awaiting entries, each reduced to who and what they sent. */
static json_t *awaiting_brief(const json_t *pending)
{
	json_t *out = json_array(), *a;
	size_t i;

	json_array_foreach(json_object_get(pending, "awaiting"), i, a) {
		json_t *entry = json_pack("{s:O, s:b}", "player", json_object_get(a, "player"),
					  "received", json_is_true(json_object_get(a, "received")));
		if (json_object_get(a, "committed"))
			json_object_set(entry, "committed", json_object_get(a, "committed"));
		json_array_append_new(out, entry);
	}
	return out;
}

static int outbox_pending(size_t *count_out, est_game *game, const char *id)
{
	char **names = NULL;
	int error = est_mail_outbox_list(&names, count_out, game->home, id, "pending");

	est_mail_names_free(names, error < 0 ? 0 : *count_out);
	return error;
}

int est_overview_game(json_t **out, est_game *game, time_t now)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	long long chain = json_integer_value(json_object_get(json_object_get(game->game, "dice"),
							     "chain_length"));
	json_t *pending = NULL, *missed = NULL, *needs = json_array();
	long long dice_left = chain - (game->step + 1);
	size_t mail = 0;
	int error, locked = 0;

	if ((error = est_intake_pending(&pending, game, now)) < 0 ||
	    (error = missed_steps(&missed, game)) < 0 ||
	    (error = outbox_pending(&mail, game, id)) < 0)
		goto out;
	step_reasons(needs, pending);
	json_t *a;
	size_t i;
	json_array_foreach(json_object_get(pending, "awaiting"), i, a)
		if (json_is_true(json_object_get(a, "note_missing")))
			need(needs, "note", "orders/%s.received is missing at main, though the sealed store "
			     "holds %s's orders for step %lld (a submit or receive was killed between the "
			     "two): players' copies show them awaited until the next submit, receive or run "
			     "writes it (estafette run)", json_string_value(json_object_get(a, "player")),
			     json_string_value(json_object_get(a, "player")),
			     (long long)json_integer_value(json_object_get(pending, "step")));
	if (mail > 0)
		need(needs, "mail", "%zu message%s wait%s in the outbox %s/outbox/%s/pending: check the "
		     "SMTP server (git config estafette.smtpurl), then estafette mail", mail,
		     mail > 1 ? "s" : "", mail > 1 ? "" : "s", game->home, id);
	if (dice_left < EST_OVERVIEW_DICE_LOW)
		need(needs, "dice", "the dice chain can resolve %lld more step%s (game.json dice.chain_length "
		     "%lld): end the game or plan its continuation before it runs out", dice_left,
		     dice_left == 1 ? "" : "s", chain);
	probe_lock(needs, &locked, game);
	*out = json_pack("{s:s?, s:s, s:s, s:O, s:O, s:O, s:O, s:O, s:O, s:o, s:O, s:I, s:I, s:b, s:O}",
		"game", id, "path", est_store_path(game->store), "ruleset", game->ruleset->name,
		"step", json_object_get(pending, "step"), "kind", json_object_get(pending, "kind"),
		"mode", json_object_get(pending, "mode"), "over", json_object_get(pending, "over"),
		"deadline", json_object_get(pending, "deadline") ? json_object_get(pending, "deadline") : json_null(),
		"deadline_passed", json_object_get(pending, "deadline_passed"),
		"awaiting", awaiting_brief(pending), "missed", missed,
		"mail_pending", (json_int_t)mail, "dice_left", (json_int_t)dice_left,
		"locked", locked, "needs_gm", needs);
	if (!*out)
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(needs);
	json_decref(missed);
	json_decref(pending);
	return error;
}

int est_overview_unreadable(json_t **out, const char *path, int code, const char *message)
{
	const char *slash = strrchr(path, '/');

	*out = json_pack("{s:s, s:s, s:s, s:i, s:s, s:[{s:s, s:s}]}", "game", slash ? slash + 1 : path,
			 "path", path, "error", est_error_name(code), "exit", est_error_exit_code(code),
			 "message", message, "needs_gm", "reason", "unreadable", "message", message);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}
