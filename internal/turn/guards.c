/*
 * What keeps a run from resolving a step by its deadline when it should
 * not: a player in civil disorder, the GM's "nmr": "wait", a
 * clock that jumped, and a deadline that looks like a mail outage. Each
 * refusal is a warning the run prints; the GM overrides with `run --force`
 * (recorded in the step's manifest) or `run --confirm-clock`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "mail/mail.h"
#include "util/error.h"
#include "util/json.h"
#include "util/fault.h"
#include "util/util.h"

#define DEFAULT_CLOCK_JUMP_HOURS 72
#define DEFAULT_OUTAGE_PERCENT 50
/* Civil disorder looks back this many steps at the most. */
#define LOOK_BACK 500
/* A recorded count past this is no count this code wrote. */
#define LOOK_BACK_MAX 1000000

static long long schedule_int(est_game *game, const char *key, long long fallback)
{
	const json_t *v = json_object_get(json_object_get(game->game, "schedule"), key);

	return json_is_integer(v) ? json_integer_value(v) : fallback;
}

/* `player`'s entry in manifest list `key` ("orders", "missing"), or NULL. */
static const json_t *listed(const json_t *manifest, const char *key, const char *player)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(manifest, key), i, e)
		if (strcmp(json_string_value(json_object_get(e, "player")), player) == 0)
			return e;
	return NULL;
}

/*
 * A "missing" entry carries the count so far ("missed_in_a_row"), so the
 * walk stops at the player's last awaited step, whatever the history's
 * length; manifests written before that field are counted one by one.
 */
int est_missed_in_a_row(int *out, est_game *game, const char *player, int limit)
{
	json_t *manifest = NULL;
	const json_t *skipped;
	char path[64];
	int missed = 0, done = 0, error;

	for (long long t = game->step; t >= 1 && t > game->step - LOOK_BACK && !done && missed < limit;
	     t--) {
		snprintf(path, sizeof(path), "turns/%04lld/manifest.json", t);
		/* A step without a manifest (made by hand) ends the count; a damaged one is an error. */
		if ((error = est_game_read_json(&manifest, game, NULL, path)) == EST_ENOTFOUND) {
			est_error_clear();
			break;
		} else if (error < 0) {
			return error;
		}
		skipped = listed(manifest, "missing", player);
		done = listed(manifest, "orders", player) != NULL;
		json_int_t so_far = json_integer_value(json_object_get(skipped, "missed_in_a_row"));
		if (skipped && so_far >= 1 && so_far <= LOOK_BACK_MAX) {
			missed += (int)so_far;
			done = 1;
		} else {
			missed += skipped != NULL;
		}
		json_decref(manifest);
	}
	*out = missed < limit ? missed : limit;
	return 0;
}

int est_civil_disorder_reached(est_game *game, int missed)
{
	long long after = schedule_int(game, "civil_disorder_after", 0);

	return after > 0 && missed >= after;
}

int est_in_civil_disorder(int *out, est_game *game, const char *player)
{
	long long after = schedule_int(game, "civil_disorder_after", 0);
	int missed = 0, error;

	*out = 0;
	if (after <= 0)
		return 0;
	if ((error = est_missed_in_a_row(&missed, game, player, (int)after)) < 0)
		return error;
	*out = est_civil_disorder_reached(game, missed);
	return 0;
}

/* Tell the GM, once per `name`, at the GM's own address (git config estafette.gmaddress). */
static void notify_gm(est_game *game, const char *name, const char *subject, const char *text, time_t now)
{
	if (text && est_game_gm_notice(NULL, game, name, subject, text, NULL, NULL, now, NULL, 0) < 0) {
		est_game_warn(game, "could not queue a notice to the GM: %s", est_error_message());
		est_error_clear();
	}
}

/* The outage notice, once per step (outbox name NNNN-outage). */
static void mail_gm(est_game *game, size_t missing, size_t awaited, time_t now)
{
	const char *path = est_store_path(game->store);
	char name[64], subject[200], *text;

	snprintf(name, sizeof(name), "%04lld-outage", game->step + 1);
	snprintf(subject, sizeof(subject), "[%s] step %lld: %zu of %zu players missing at the deadline",
		 json_string_value(json_object_get(game->game, "id")), game->step + 1, missing, awaited);
	text = est_strdup_printf("At the deadline of step %lld, %zu of the %zu awaited players had sent "
				 "nothing. That looks like a mail outage rather than players who "
				 "missed a turn, so the step was not resolved by deadline.\n\n"
				 "Extend the deadline (estafette gm %s extend --hours N --reason TEXT),\n"
				 "or resolve it anyway with:\n"
				 "    estafette run --force %s\n", game->step + 1, missing, awaited, path, path);
	notify_gm(game, name, subject, text, now);
	free(text);
}

int est_deadline_allows(int *allows_out, const char **forced_out, est_game *game, size_t missing,
			size_t awaited, unsigned flags, time_t now)
{
	const char *nmr = json_string_value(json_object_get(json_object_get(game->game, "schedule"), "nmr"));
	long long percent = schedule_int(game, "outage_percent", DEFAULT_OUTAGE_PERCENT);
	int force = (flags & EST_STEP_FORCE) != 0;

	*allows_out = 0;
	*forced_out = NULL;
	if (flags & EST_STEP_CLOCK_UNSURE)
		return 0; /* est_clock_check said why */
	if (missing == 0) {
		*allows_out = 1;
		return 0;
	}
	if (nmr && strcmp(nmr, "wait") == 0) {
		if (!force)
			return 0;
		*forced_out = "the GM resolved it by deadline although the game waits for missing players";
	} else if (missing >= 2 && (long long)missing * 100 > percent * (long long)awaited) {
		if (!force) {
			est_game_warn(game, "step %lld: %zu of %zu awaited players sent nothing by the deadline: "
				      "a mail outage? nothing is resolved by deadline; extend the deadline "
				      "(estafette gm GAME extend), or run with --force to resolve it anyway", game->step + 1, missing, awaited);
			mail_gm(game, missing, awaited, now);
			return 0;
		}
		*forced_out = "the GM resolved it by deadline past the outage guard";
	}
	*allows_out = 1;
	return 0;
}

long long est_clock_jump_seconds(est_game *game)
{
	return schedule_int(game, "clock_jump_hours", DEFAULT_CLOCK_JUMP_HOURS) * 3600;
}

/* $ESTAFETTE_HOME/games/<id>/clock.json: {"last_run": seconds} of the last run that trusted its clock. */
int est_clock_check(int *sure_out, est_game *game, time_t now, int confirmed)
{
	long long bound = est_clock_jump_seconds(game);
	char *path = est_game_home_path(game, "clock.json"), *text = NULL, when[32], then[32];
	json_t *doc = NULL;
	long long last = 0;
	size_t len;
	int error = 0;

	*sure_out = 1;
	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (est_file_read(&text, &len, path, 4096) == 0 && (doc = json_loadb(text, len, 0, NULL)))
		last = json_integer_value(json_object_get(doc, "last_run"));
	est_error_clear();
	if (last > 0 && !confirmed && ((long long)now < last - 60 || (long long)now > last + bound)) {
		est_time_iso(when, now);
		est_time_iso(then, (time_t)last);
		est_game_warn(game, "the clock says %s, but the last run was at %s: it %s (schedule."
			      "clock_jump_hours, %lld); nothing is resolved by deadline until the time is "
			      "right: check it, then run `estafette run %s --confirm-clock`; a game run by "
			      "hand must be run more often than that to keep this guard quiet (from cron, "
			      "docs/gm-guide.md)", when, then, (long long)now < last ? "went backwards" :
			      "jumped forwards more than the hours allowed", bound / 3600,
			      est_store_path(game->store));
		*sure_out = 0;
		char name[64], subject[200], *note = est_strdup_printf("%s\n",
			json_string_value(json_array_get(game->warnings, json_array_size(game->warnings) - 1)));
		snprintf(name, sizeof(name), "clock-%lld", last);
		snprintf(subject, sizeof(subject), "[%s] the clock jumped: no step resolves by deadline",
			 json_string_value(json_object_get(game->game, "id")));
		notify_gm(game, name, subject, note, now);
		free(note);
	} else if ((long long)now > last || confirmed) {
		json_t *next = json_pack("{s:I}", "last_run", (json_int_t)now);
		char *out = next ? est_json_text(next) : NULL, *dir = est_game_home_path(game, "");
		if (!out || !dir || (error = est_mkdir_p(dir, 0700)) < 0 ||
		    (error = est_file_write_atomic(path, out, strlen(out), 0600)) < 0)
			error = error ? error : est_error_set(EST_ENOMEM, "out of memory");
		else
			est_fault_point("clock-after-write");
		free(dir);
		free(out);
		json_decref(next);
	}
	json_decref(doc);
	free(text);
	free(path);
	return error;
}
