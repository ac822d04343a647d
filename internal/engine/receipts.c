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

#include "engine/internal.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

void est_text_add(est_text *t, const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;
	int n;

	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->failed = 1;
		return;
	}
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *grown;

		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		if (!(grown = realloc(t->text, cap))) {
			free(line);
			t->failed = 1;
			return;
		}
		t->text = grown;
		t->cap = cap;
	}
	memcpy(t->text + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
	free(line);
}

void est_text_orders(est_text *t, const json_t *orders)
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

void est_text_awaiting(est_text *t, est_game *game, time_t now)
{
	json_t *pending = NULL, *a;
	size_t i;

	if (est_game_pending(&pending, game, now) < 0) {
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

int est_game_notice(est_game *game, const char *name, const char *to, const char *subject,
		    const char *text, const char *in_reply_to, time_t date)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	char *sender = est_game_config(game, "estafette.sender", EST_DEFAULT_SENDER);
	char *from_addr = NULL, *msgid = NULL, *eml = NULL, *full = NULL;
	size_t eml_len;
	int error, queued;

	msgid = est_strdup_printf("<%s.%s@estafette>", id, name);
	full = est_strdup_printf("%s\n-- \nestafette %s, game %s\n", text, EST_VERSION, id);
	from_addr = sender ? est_mail_address_of(sender) : NULL;
	if (!sender || !msgid || !full || !from_addr) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_mail_message msg = {.from = sender, .to = to, .subject = subject, .message_id = msgid,
				.date = date, .text = full, .in_reply_to = in_reply_to};
	if ((error = est_mail_compose(&eml, &eml_len, &msg)) < 0)
		goto out;
	error = est_mail_outbox_put(&queued, game->home, id, name, from_addr, &to, 1, eml, eml_len);
out:
	free(eml);
	free(full);
	free(from_addr);
	free(msgid);
	free(sender);
	return error;
}

int est_game_receipt_for_submit(est_game *game, const json_t *receipt, const est_order *order,
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
	else
		est_text_add(&t, "Your orders for step %lld (seq %lld) were recorded.\n"
			     "SHA-256 of the order file: %s\n\n", order->step, order->seq, sha);
	if (!order->commitment)
		est_text_orders(&t, order->orders);
	est_text_awaiting(&t, game, now);
	if (t.failed)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_game_notice(game, name, json_string_value(json_object_get(player, "email")),
					subject, t.text, NULL, now);
	free(t.text);
	return error;
}

int est_game_remind(int *sent_out, est_game *game, time_t now)
{
	const json_t *hours = json_object_get(json_object_get(game->game, "schedule"), "reminder_hours");
	time_t deadline = est_game_deadline(game, NULL);
	json_t *pending = NULL, *a;
	size_t i;
	int error = 0;

	*sent_out = 0;
	if (!deadline || json_integer_value(hours) <= 0 || now < deadline - json_integer_value(hours) * 3600 ||
	    now >= deadline)
		return 0;
	if ((error = est_game_pending(&pending, game, now)) < 0)
		return error;
	json_array_foreach(json_object_get(pending, "awaiting"), i, a) {
		const char *player = json_string_value(json_object_get(a, "player"));
		char name[128], subject[200];
		est_text t = {0};

		if (json_is_true(json_object_get(a, "received")))
			continue;
		snprintf(name, sizeof(name), "%04lld-%s-reminder",
			 (long long)json_integer_value(json_object_get(pending, "step")), player);
		snprintf(subject, sizeof(subject), "[%s] reminder: your orders for step %lld are due by %s",
			 json_string_value(json_object_get(game->game, "id")),
			 (long long)json_integer_value(json_object_get(pending, "step")),
			 json_string_value(json_object_get(pending, "deadline")));
		est_text_add(&t, "Your orders for step %lld have not arrived yet.\n%s\n\nThey are due by %s; "
			     "after that the step is resolved with the rules' default orders for you.\n"
			     "Your last report says how to write and sign them: the step is %lld and "
			     "\"prev\" is %s.\n",
			     (long long)json_integer_value(json_object_get(pending, "step")),
			     json_string_value(json_object_get(pending, "prompt")),
			     json_string_value(json_object_get(pending, "deadline")),
			     (long long)json_integer_value(json_object_get(pending, "step")),
			     json_string_value(json_object_get(pending, "state_sha256")));
		error = t.failed ? est_error_set(EST_ENOMEM, "out of memory") :
			est_game_notice(game, name, json_string_value(json_object_get(
				est_game_player(game, player), "email")), subject, t.text, NULL, now);
		free(t.text);
		if (error < 0)
			break;
		(*sent_out)++;
	}
	json_decref(pending);
	return error;
}
