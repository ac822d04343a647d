/*
 * Players whose mail bounces (docs/mail.md "Bounces"): a small file beside
 * the intake log, read by `status`, written by the intake under the game's
 * lock. It is the GM's record, not the game's: nothing in the repository
 * changes when a player's mailbox is full.
 */
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "util/error.h"
#include "util/util.h"

#define UNREACHABLE_FILE "unreachable.json"
#define UNREACHABLE_MAX (1024 * 1024)

int est_game_unreachable(json_t **out, est_game *game)
{
	char *path = est_game_home_path(game, UNREACHABLE_FILE), *text = NULL;
	json_t *doc = NULL;
	size_t len;
	int error;

	*out = NULL;
	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_file_read(&text, &len, path, UNREACHABLE_MAX)) == EST_ENOTFOUND) {
		est_error_clear();
		error = 0;
		doc = json_object();
	} else if (error == 0 && (!(doc = json_loadb(text, len, 0, NULL)) || !json_is_object(doc))) {
		error = est_error_set(EST_EINVAL, "%s: not a JSON object of players; remove the file "
				      "(it only records bounces) and let the next bounce write it again",
				      path);
	}
	if (error == 0) {
		*out = doc;
		doc = NULL;
	}
	json_decref(doc);
	free(text);
	free(path);
	return error;
}

static int save(est_game *game, const json_t *doc)
{
	char *path = est_game_home_path(game, UNREACHABLE_FILE);
	char *text = json_dumps(doc, JSON_INDENT(2) | JSON_SORT_KEYS);
	int error;

	if (!path || !text)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_file_write_atomic(path, text, strlen(text), 0600);
	free(text);
	free(path);
	return error;
}

int est_game_unreachable_mark(int *first_out, est_game *game, const char *player, const char *status,
			      const char *diagnostic, const char *message_id, time_t now)
{
	json_t *doc = NULL, *entry;
	char when[32];
	int error;

	*first_out = 0;
	if ((error = est_game_unreachable(&doc, game)) < 0)
		return error;
	est_time_iso(when, now);
	if (!(entry = json_object_get(doc, player))) {
		*first_out = 1;
		if (!(entry = json_pack("{s:s, s:I}", "since", when, "bounces", (json_int_t)0)) ||
		    json_object_set_new(doc, player, entry) < 0) {
			json_decref(doc);
			return est_error_set(EST_ENOMEM, "out of memory");
		}
	}
	json_object_set_new(entry, "last", json_string(when));
	json_object_set_new(entry, "status", json_string(status ? status : ""));
	json_object_set_new(entry, "diagnostic", json_string(diagnostic ? diagnostic : ""));
	json_object_set_new(entry, "message_id", json_string(message_id ? message_id : ""));
	json_object_set_new(entry, "bounces",
			    json_integer(json_integer_value(json_object_get(entry, "bounces")) + 1));
	error = save(game, doc);
	json_decref(doc);
	return error;
}

int est_game_unreachable_clear(int *cleared_out, est_game *game, const char *player)
{
	json_t *doc = NULL;
	int error;

	*cleared_out = 0;
	if ((error = est_game_unreachable(&doc, game)) < 0)
		return error;
	if (json_object_get(doc, player)) {
		json_object_del(doc, player);
		*cleared_out = 1;
		error = save(game, doc);
	}
	json_decref(doc);
	return error;
}
