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
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

/* What a receipt lists of the orders themselves (an order file is up to 64 KiB). */
#define ORDERS_TEXT_MAX 2048

/*
 * The order items, numbered, one line each: "  1. move from=France
 * to=Rhineland armies=4"; the list cut after about ORDERS_TEXT_MAX bytes
 * with a line saying how many there are in all.
 */
static void text_orders(est_text *t, const json_t *orders)
{
	size_t i, start = t->len;
	json_t *item;

	json_array_foreach(orders, i, item) {
		const char *key;
		json_t *value;

		if (t->len - start > ORDERS_TEXT_MAX) {
			est_text_add(t, "  ... and more: %zu orders in all, as in the order file\n",
				     json_array_size(orders));
			break;
		}
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
			est_text_add(t, "%s %s (%s)", i ? "," : "", json_string_value(json_object_get(a, "player")),
				     json_is_true(json_object_get(a, "received")) ? "orders in" : "not yet");
		if (json_string_value(json_object_get(pending, "deadline")))
			est_text_add(t, "; deadline %s", json_string_value(json_object_get(pending, "deadline")));
		est_text_add(t, ".\n");
	}
	json_decref(pending);
}

int est_intake_receipt_sign(char **doc_out, char **sig_out, est_game *game, const json_t *recorded,
			    const est_order *order, time_t at)
{
	const char *commit = json_string_value(json_object_get(recorded, "commit"));
	char when[32];
	json_t *doc = NULL;
	size_t sig_len;
	int error;

	*doc_out = *sig_out = NULL;
	/* A commitment promises an order; the order file's own receipt is the one that counts. */
	if (!game->signing_key.key || !commit || order->commitment)
		return 0;
	est_time_iso(when, at);
	doc = json_pack("{s:s, s:O, s:I, s:s, s:I, s:O, s:s, s:s}", "estafette", EST_RECEIPT_FORMAT, "game",
			json_object_get(game->game, "id"), "step", (json_int_t)order->step, "player",
			order->player, "seq", (json_int_t)order->seq, "sha256",
			json_object_get(recorded, "sha256"), "recorded", commit, "at", when);
	if (!doc || !(*doc_out = est_json_text(doc))) {
		json_decref(doc);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_decref(doc);
	if ((error = est_sshsig_sign(sig_out, &sig_len, game->signing_key.key, game->signing_key.len,
				     EST_RECEIPT_NAMESPACE, *doc_out, strlen(*doc_out))) < 0) {
		free(*doc_out);
		*doc_out = NULL;
		return est_error_prefix("signing the receipt with the GM's key (git config estafette.signingkey)");
	}
	return 0;
}

void est_intake_text_clipped(est_text *t, const char *prefix, const char *text, size_t max)
{
	size_t n = strlen(text);

	if (n <= max) {
		est_text_add(t, "%s%s", prefix, text);
		return;
	}
	for (n = max; n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80; n--)
		;
	est_text_add(t, "%s%.*s ...", prefix, (int)n, text);
}

/* The press of an order file, one line each, its text cut at PRESS_LINE_MAX bytes. */
#define PRESS_LINE_MAX 200
static void text_press(est_text *t, const json_t *press)
{
	size_t i, j;
	json_t *item, *reader;

	if (!json_array_size(press))
		return;
	est_text_add(t, "Press sent with it:\n");
	json_array_foreach(press, i, item) {
		const json_t *to = json_object_get(item, "to");
		const char *text = json_string_value(json_object_get(item, "text"));

		est_text_add(t, "  to %s", json_is_string(to) ? json_string_value(to) : "");
		json_array_foreach(to, j, reader)
			est_text_add(t, "%s%s", j ? ", " : "", json_string_value(reader));
		est_intake_text_clipped(t, ": ", text ? text : "", PRESS_LINE_MAX);
		est_text_add(t, "\n");
	}
}

void est_intake_text_recorded(est_text *t, est_game *game, const json_t *recorded,
			      const est_order *order, const char *where, int signed_doc)
{
	const char *sha = json_string_value(json_object_get(recorded, "sha256"));
	long long replaces = json_integer_value(json_object_get(recorded, "replaces"));
	char from[240] = "";

	if (where)
		snprintf(from, sizeof(from), " (%.200s)", where);
	if (order->commitment)
		est_text_add(t, "ACCEPTED: the commitment of %s for step %lld, seq %lld%s: sealed orders.\n"
			     "SHA-256 of the commitment file: %s\nIt promises the order file with "
			     "SHA-256 %s. Send that file, byte for byte, once every awaited player "
			     "has committed or the deadline has passed.\n", order->player, order->step,
			     order->seq, from, sha, order->sha256);
	else if (est_turn_is_join(game->state))
		est_text_add(t, "ACCEPTED: %s has joined (step 1, seq %lld)%s. The file's signature "
			     "verified with the key the game holds for you, so your key works.\n"
			     "SHA-256 of the file: %s\n\nOnce every player has joined (or the deadline "
			     "passes), step 1 resolves: the game's set-up is drawn with every player's "
			     "entropy, and your first report says what step 2 asks of you.\n",
			     order->player, order->seq, from, sha);
	else
		est_text_add(t, "ACCEPTED: orders of %s for step %lld, seq %lld%s\n"
			     "SHA-256 of the order file: %s\n", order->player, order->step, order->seq,
			     from, sha);
	if (replaces)
		est_text_add(t, "It replaces seq %lld, recorded before, which no longer counts.\n",
			     replaces);
	if (!order->commitment && !est_turn_is_join(game->state)) {
		est_text_add(t, "\n");
		text_orders(t, order->orders);
		text_press(t, order->press);
	}
	if (signed_doc)
		est_text_add(t, "\nKeep the two attached files: signed by the GM's key, they prove this file "
			     "was accepted, and `estafette audit GAME --receipts DIR` on a clone of the game "
			     "checks that the step resolved it or a later seq of yours (docs/player-guide.md, "
			     "\"Receipts\").\n");
}

void est_intake_receipt_files(est_intake_receipt_attachments *a, const est_order *order,
			      const char *doc, const char *sig)
{
	snprintf(a->file, sizeof(a->file), "receipt-%04lld-%s-%lld.json", order->step, order->player,
		 order->seq);
	snprintf(a->sig_file, sizeof(a->sig_file), "%s.sig", a->file);
	a->att[0] = (est_mail_attachment){.filename = a->file, .content_type = "application/json",
					  .data = doc, .len = doc ? strlen(doc) : 0};
	a->att[1] = (est_mail_attachment){.filename = a->sig_file, .content_type = "text/plain",
					  .data = sig, .len = sig ? strlen(sig) : 0};
	a->count = doc && sig ? 2 : 0;
}

int est_intake_receipt(est_game *game, json_t *receipt, const est_order *order,
				time_t now)
{
	const json_t *player = est_game_player(game, order->player);
	const char *sha = json_string_value(json_object_get(receipt, "sha256"));
	char name[64], subject[200], *doc = NULL, *sig = NULL;
	est_intake_receipt_attachments files;
	est_text t = {0};
	int error;

	if ((error = est_intake_receipt_sign(&doc, &sig, game, receipt, order, now)) < 0)
		return error;
	snprintf(name, sizeof(name), "receipt-%.16s", sha);
	snprintf(subject, sizeof(subject), "[%s] your %s for step %lld %s recorded",
		 json_string_value(json_object_get(game->game, "id")),
		 order->commitment ? "commitment" : "orders", order->step,
		 order->commitment ? "was" : "were");
	est_intake_receipt_files(&files, order, doc, sig);
	est_intake_text_recorded(&t, game, receipt, order, NULL, doc != NULL);
	est_intake_text_awaiting(&t, game, now);
	if (doc && json_object_set_new(receipt, "signed_receipt", json_pack("{s:s, s:s, s:s}", "file",
				       files.file, "text", doc, "sig", sig)) < 0)
		t.failed = 1;
	if (t.failed)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_game_notice(game, name, json_string_value(json_object_get(player, "email")),
					subject, t.text, NULL, now, files.att, files.count);
	free(t.text);
	free(doc);
	free(sig);
	return error;
}
