/*
 * Press: messages players send with their orders
 * ("press": [{"to": "all" | [player ids], "text"}]), under the game's
 * setting in game.json:
 *
 *   "press": {"mode": "full" | "public" | "none", "delivery": "report" | "mail"}
 *
 * "full" (the default) lets players write to all or to chosen players,
 * "public" only to all, "none" not at all. Press is always an event of the
 * step its order resolves in, seen by its recipients (step.c take_press;
 * in a sealed game private press stays in the GM's sealed store); with
 * "delivery": "mail" each message is also mailed to its recipients as soon
 * as its order is recorded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

static const char *press_setting(const est_game *game, const char *key, const char *fallback)
{
	const char *v = json_string_value(json_object_get(json_object_get(game->game, "press"), key));

	return v ? v : fallback;
}

int est_intake_press_check(est_game *game, const est_order *order, const char *filename)
{
	const char *mode = press_setting(game, "mode", "full");
	size_t i, j;
	json_t *item, *id;

	if (json_array_size(order->press) > 0 && strcmp(mode, "none") == 0)
		return est_error_set(EST_EINVAL, "%s: field \"press\": this game has no press (game.json "
				     "press.mode \"none\"); remove the press messages", filename);
	json_array_foreach(order->press, i, item) {
		const json_t *to = json_object_get(item, "to");
		if (!json_is_string(to) && strcmp(mode, "public") == 0)
			return est_error_set(EST_EINVAL, "%s: press[%zu].to names players, but this game "
					     "has public press only (game.json press.mode \"public\"); "
					     "write \"to\": \"all\"", filename, i);
		json_array_foreach(to, j, id)
			if (!est_game_player(game, json_string_value(id)))
				return est_error_set(EST_EINVAL, "%s: press[%zu].to[%zu] is \"%s\", who is "
						     "not a player of this game; name players by their id, "
						     "or send to \"all\"", filename, i, j,
						     json_string_value(id));
	}
	return 0;
}

/* Whether message `item` goes to player `p` (never back to its sender). */
static int addressed_to(const json_t *item, const json_t *p, const char *sender)
{
	const json_t *to = json_object_get(item, "to"), *id;
	const char *pid = json_string_value(json_object_get(p, "id"));
	size_t i;

	if (strcmp(pid, sender) == 0)
		return 0;
	if (json_is_string(to))
		return 1;
	json_array_foreach(to, i, id)
		if (strcmp(json_string_value(id), pid) == 0)
			return 1;
	return 0;
}

int est_intake_press_mail(est_game *game, const est_order *order, const char *sha256, time_t now)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	const json_t *from = est_game_player(game, order->player), *item, *p;
	size_t i, j;
	int error = 0;

	if (strcmp(press_setting(game, "delivery", "report"), "mail") != 0)
		return 0;
	json_array_foreach(order->press, i, item) {
		json_array_foreach(json_object_get(game->game, "players"), j, p) {
			char name[128], subject[256], which[96], tag[65], *text;
			if (!addressed_to(item, p, order->player))
				continue;
			/*
			 * One name per message and reader: a file recorded twice mails once.
			 * The message's index is hashed in, not shown: the name is in the
			 * Message-ID, and "press 2" would tell a reader that two messages
			 * of the file went to others.
			 */
			snprintf(which, sizeof(which), "%.64s/%zu", sha256, i);
			est_sha256_hex(tag, which, strlen(which));
			snprintf(name, sizeof(name), "press-%.16s-%s", tag,
				 json_string_value(json_object_get(p, "id")));
			snprintf(subject, sizeof(subject), "[%s] press from %s", id,
				 json_string_value(json_object_get(from, "name")));
			text = est_strdup_printf("%s (%s) writes%s, with the orders for step %lld:\n\n%s\n",
						 json_string_value(json_object_get(from, "name")), order->player,
						 json_is_string(json_object_get(item, "to")) ? " to all" : "",
						 order->step, json_string_value(json_object_get(item, "text")));
			error = text ? est_game_notice(game, name, json_string_value(json_object_get(p, "email")),
						       subject, text, NULL, now, NULL, 0) :
				       est_error_set(EST_ENOMEM, "out of memory");
			free(text);
			if (error < 0)
				return error;
		}
	}
	return 0;
}
