/*
 * Notices to players: receipts for every submission, whatever
 * channel, and reminders before a deadline. Each goes through the outbox
 * under a stable name, so a submission handled twice (a mail fetched again
 * after a crash) is answered once.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

void est_intake_text_orders(est_text *t, const json_t *orders)
{
	size_t i;
	json_t *item;

	json_array_foreach(orders, i, item) {
		const char *key;
		json_t *value;

		est_text_add(t, "  %zu. %s", i + 1, json_string_value(json_object_get(item, "type")));
		json_object_foreach((json_t *)item, key, value) {
			char *v = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
			if (strcmp(key, "type") != 0)
				est_text_add(t, " %s=%s", key, json_is_string(value) ?
					     json_string_value(value) : v ? v : "?");
			free(v);
		}
		est_text_add(t, "\n");
	}
	if (json_array_size(orders) == 0)
		est_text_add(t, "  (no orders: the step is answered with none)\n");
}

void est_intake_text_awaiting(est_text *t, est_game *game, time_t now)
{
	json_t *pending = NULL, *a;
	size_t i;

	if (est_intake_pending(&pending, game, now) < 0) {
		est_error_clear();
		return;
	}
	if (json_is_true(json_object_get(pending, "over"))) {
		est_text_add(t, "\nThe game is over.\n");
	} else {
		est_text_add(t, "\nThe game now awaits step %lld (%s):",
			     (long long)json_integer_value(json_object_get(pending, "step")),
			     json_string_value(json_object_get(pending, "kind")));
		json_array_foreach(json_object_get(pending, "awaiting"), i, a)
			est_text_add(t, " %s%s", json_string_value(json_object_get(a, "player")),
				     json_is_true(json_object_get(a, "received")) ? " (received)" : "");
		if (json_string_value(json_object_get(pending, "deadline")))
			est_text_add(t, "; deadline %s", json_string_value(json_object_get(pending, "deadline")));
		est_text_add(t, ".\n");
	}
	json_decref(pending);
}

int est_intake_receipt(est_game *game, const json_t *receipt, const est_order *order,
				time_t now)
{
	const json_t *player = est_game_player(game, order->player);
	const char *sha = json_string_value(json_object_get(receipt, "sha256"));
	char name[64], subject[200];
	est_text t = {0};
	int error;

	snprintf(name, sizeof(name), "receipt-%.16s", sha);
	snprintf(subject, sizeof(subject), "[%s] your %s for step %lld %s recorded",
		 json_string_value(json_object_get(game->game, "id")),
		 order->commitment ? "commitment" : "orders", order->step,
		 order->commitment ? "was" : "were");
	if (order->commitment)
		est_text_add(&t, "Your commitment for step %lld (seq %lld) was recorded: sealed orders.\n"
			     "SHA-256 of the commitment file: %s\nIt promises the order file with "
			     "SHA-256 %s. Send that file, byte for byte, once every awaited player "
			     "has committed or the deadline has passed.\n\n", order->step, order->seq,
			     sha, order->sha256);
	else if (est_turn_is_join(game->state))
		est_text_add(&t, "You have joined: your file for step 1 (seq %lld) was recorded, and its "
			     "signature verified with the key the game holds for you, so your key works.\n"
			     "SHA-256 of the file: %s\n\nOnce every player has joined (or the deadline "
			     "passes), step 1 resolves: the game's set-up is drawn with every player's "
			     "entropy, and your first report says what step 2 asks of you.\n",
			     order->seq, sha);
	else
		est_text_add(&t, "Your orders for step %lld (seq %lld) were recorded.\n"
			     "SHA-256 of the order file: %s\n\n", order->step, order->seq, sha);
	if (!order->commitment && !est_turn_is_join(game->state))
		est_intake_text_orders(&t, order->orders);
	est_intake_text_awaiting(&t, game, now);
	if (t.failed)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_game_notice(game, name, json_string_value(json_object_get(player, "email")),
					subject, t.text, NULL, now);
	free(t.text);
	return error;
}
