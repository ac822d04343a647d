/*
 * Checking and recording order files (docs/protocol.md "Order files"): strict
 * parsing, the player's signature, the binding to the game's context, the
 * turn, seq, then the ruleset's own checks. Nothing is written unless
 * every check holds.
 */
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
#include "util/fault.h"
#include "util/util.h"

/* Say whose key it was when a file names one player and is signed by another. */
static int signature_error(est_game *game, const est_order *order, const char *sig_name,
			   const char *bytes, size_t len, const char *sig, size_t sig_len, time_t now)
{
	char reason[1024], *signer = NULL;
	int found;

	snprintf(reason, sizeof(reason), "%s", est_error_message());
	found = est_sshsig_find_principals(&signer, game->allowed_signers, strlen(game->allowed_signers),
					   EST_ORDERS_NAMESPACE, bytes, len, sig, sig_len, now);
	est_error_clear();
	if (found == 0 && strcmp(signer, order->player) != 0) {
		est_error_set(EST_ESIG, "%s: signed with the key of \"%s\", but field \"player\" is "
			      "\"%s\" (one player cannot send orders for another); sign with %s's own key",
			      sig_name, signer, order->player, order->player);
		free(signer);
		return EST_ESIG;
	}
	free(signer);
	/* A key no line lists: the reason (sshsig's) names the key the game holds, and the fix. */
	if (found == EST_ENOTFOUND)
		return est_error_set(EST_ESIG, "%s: %s", sig_name, reason);
	return est_error_set(EST_ESIG, "%s: %s (orders are signed with the player's key in "
			     "keys/allowed_signers, namespace %s); sign the exact file with "
			     "ssh-keygen -Y sign -n %s or estafette sign", sig_name, reason,
			     EST_ORDERS_NAMESPACE, EST_ORDERS_NAMESPACE);
}

/* The player's powers this step awaits, as an array (caller decrefs). */
static int awaited_powers(json_t **out, est_game *game, const char *player)
{
	json_t *powers = json_array();
	const json_t *record = est_game_player(game, player), *open, *pending;
	size_t i;
	json_t *power;
	int error;

	if ((error = est_turn_open(&open, game)) < 0)
		goto out;
	pending = json_object_get(open, "pending");
	json_array_foreach(json_object_get(pending, "powers"), i, power) {
		const json_t *holder = est_game_player_by_power(game, json_string_value(power));
		if (holder == record)
			json_array_append(powers, power);
	}
	if (json_array_size(powers) == 0) {
		const char *kind = json_string_value(json_object_get(pending, "kind"));
		est_text who = {0};

		/* Who it awaits, by player id: the holders of the step's powers, each once. */
		json_array_foreach(json_object_get(pending, "powers"), i, power) {
			const json_t *holder = est_game_player_by_power(game, json_string_value(power));
			int seen = 0;
			for (size_t j = 0; j < i; j++)
				seen |= holder == est_game_player_by_power(game, json_string_value(
					json_array_get(json_object_get(pending, "powers"), j)));
			if (holder && !seen)
				est_text_add(&who, "%s%s", who.len ? ", " : "",
					     json_string_value(json_object_get(holder, "id")));
		}
		error = est_error_set(EST_EINVAL, "player \"%s\" is not awaited: step %lld (%s) awaits %s; "
				      "a file is bound to its step and prev, so when your turn comes, write a new one for "
				      "the step and prev your next report names (or estafette status shows)",
				      player, game->step + 1, kind ? kind : "?",
				      who.len && !who.failed ? who.text : "no player");
		free(who.text);
		goto out;
	}
	*out = powers;
	powers = NULL;
out:
	json_decref(powers);
	return error;
}

/* The seq of the file recorded for the order's player and step (or commitment), or 0. */
static long long recorded_seq(est_game *game, const est_order *order)
{
	unsigned kind = order->commitment ? EST_ORDER_COMMITMENT : 0;
	est_order *current = NULL;
	char *text = NULL;
	long long seq = 0;
	size_t len;

	if (est_game_order_read(&text, &len, game, order->player, kind) == 0 &&
	    est_orders_parse(&current, "recorded", text, len) == 0 && current->step == order->step)
		seq = current->seq;
	est_error_clear();
	est_orders_free(current);
	free(text);
	return seq;
}

/* A later file from the same player replaces an earlier one only with a higher seq. */
static int check_seq(est_game *game, const est_order *order, const char *order_bytes,
		     size_t order_len, const char *filename)
{
	unsigned kind = order->commitment ? EST_ORDER_COMMITMENT : 0;
	est_order *current = NULL;
	char path[320], *text = NULL;
	size_t len;
	int error = 0;

	est_game_order_path(path, game, order->player, kind);
	if (est_game_order_read(&text, &len, game, order->player, kind) < 0) {
		est_error_clear();
		return 0;
	}
	if (len == order_len && memcmp(text, order_bytes, len) == 0) {
		free(text);
		return est_error_set(EST_EINVAL, "%s: this very file is recorded already (%s); nothing to "
				     "do. To change your %s, send a new file with a higher seq",
				     filename, path, order->commitment ? "commitment" : "orders");
	}
	/* A recorded file for an older step (or one that no longer parses) is simply replaced. */
	if (est_orders_parse(&current, path, text, len) < 0)
		est_error_clear();
	else if (current->step == order->step)
		error = est_orders_check_seq(order, current, filename);
	est_orders_free(current);
	free(text);
	return error;
}

/*
 * One of the ruleset's diagnostics as a line: "orders[I].FIELD: MESSAGE
 * (RULE)", or "MESSAGE (RULE)" for the file as a whole (index -1).
 */
void est_intake_diagnostic_text(char *buf, size_t len, const json_t *d)
{
	long long index = json_integer_value(json_object_get(d, "index"));
	size_t used = 0;

	if (index >= 0)
		used = (size_t)snprintf(buf, len, "orders[%lld].%s: ", index,
					json_string_value(json_object_get(d, "field")));
	if (used < len)
		snprintf(buf + used, len - used, "%s (%s)",
			 json_string_value(json_object_get(d, "message")),
			 json_string_value(json_object_get(d, "rule")));
}

static int validate(json_t **diagnostics_out, est_game *game, const est_order *order,
		    const json_t *powers, const char *filename)
{
	json_t *diagnostics = NULL;
	size_t n;
	char first[1024];
	int error;

	/* A player's copy of a sealed game lacks the hand the rules check against. */
	if (est_game_is_sealed(game) && !game->sealed_store) {
		est_game_warn(game, "%s: this is a sealed game, and the rules checks that need its hidden "
			      "parts (a hand, the cards to come) are made when the GM records the file", filename);
		return 0;
	}
	error = est_turn_validate_powers(&diagnostics, game->ruleset, game->rules, game->state,
					 order->orders, powers);
	if (error >= 0)
		return error;
	if ((n = json_array_size(diagnostics)) == 0) {
		est_error_prefix("%s", filename);
		return error;
	}
	est_intake_diagnostic_text(first, sizeof(first), json_array_get(diagnostics, 0));
	if (n == 1)
		est_error_set(EST_EINVAL, "%s: %s", filename, first);
	else
		est_error_set(EST_EINVAL, "%s: %zu problems with the orders; the first: %s", filename, n, first);
	if (diagnostics_out)
		*diagnostics_out = diagnostics;
	else
		json_decref(diagnostics);
	return error;
}

/*
 * A file bound to a step that is over, from a player the open
 * step does not await: the refusal says whose turn it is, not how to sign
 * it again for a step that is not theirs. `error` (the binding's, message
 * set) is returned as it was otherwise.
 */
static int stale_file(est_game *game, const est_order *order, const char *filename, int error)
{
	char binding[1024];
	json_t *powers = NULL;

	if (order->step >= game->step + 1)
		return error;
	snprintf(binding, sizeof(binding), "%s", est_error_message());
	if (awaited_powers(&powers, game, order->player) == EST_EINVAL)
		return est_error_set(EST_EINVAL, "%s: for step %lld, which is over: %s", filename,
				     order->step, est_error_message());
	json_decref(powers);
	return est_error_set(error, "%s", binding);
}

static int check_order(est_order **order_out, json_t **diagnostics_out, est_game *game,
		       const char *filename, const char *bytes, size_t len, const char *sig_name,
		       const char *sig, size_t sig_len, time_t now, int recorded)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	est_order *order = NULL;
	json_t *powers = NULL;
	time_t deadline;
	int error;

	if (diagnostics_out)
		*diagnostics_out = NULL;
	if ((error = est_orders_parse(&order, filename, bytes, len)) < 0)
		goto out;
	/* A gm/1 file parses (gm.c reads acts with the same parser), but it is no order file. */
	if (order->gm_act) {
		error = est_error_set(EST_EINVAL, "%s: field \"estafette\" is \"" EST_GM_ACT_FORMAT "\", a GM "
				      "act, but players send order files (\"" EST_ORDERS_FORMAT "\"); only "
				      "the GM makes acts, with estafette gm", filename);
		goto out;
	}
	if (!est_game_player(game, order->player)) {
		error = est_error_set(EST_EINVAL, "%s: field \"player\" is \"%s\", who is not a player of "
				      "game %s; use your player id from game.json", filename, order->player, id);
		goto out;
	}
	if (est_sshsig_verify(game->allowed_signers, strlen(game->allowed_signers), order->player,
			      EST_ORDERS_NAMESPACE, bytes, len, sig, sig_len, now) < 0) {
		error = signature_error(game, order, sig_name, bytes, len, sig, sig_len, now);
		goto out;
	}
	if ((error = est_orders_check_binding(order, filename, id, game->step + 1,
					      game->state_sha256, order->player)) < 0) {
		error = stale_file(game, order, filename, error);
		goto out;
	}
	if ((error = awaited_powers(&powers, game, order->player)) < 0) {
		est_error_prefix("%s", filename);
		goto out;
	}
	if (order->wait && (error = est_turn_deadline(&deadline, game, NULL)) < 0)
		goto out;
	if (order->wait && deadline == 0) {
		error = est_error_set(EST_EINVAL, "%s: field \"wait\" asks step %lld to wait for its "
				      "deadline, and it has none (the game's schedule gives it none); "
				      "remove \"wait\"", filename, game->step + 1);
		goto out;
	}
	if ((error = est_intake_press_check(game, order, filename)) < 0 ||
	    (error = est_sealed_orders_check(game, order, bytes, len, filename, now)) < 0 ||
	    (!recorded && (error = check_seq(game, order, bytes, len, filename)) < 0) ||
	    (!order->commitment && (error = validate(diagnostics_out, game, order, powers, filename)) < 0))
		goto out;
	if (order_out) {
		*order_out = order;
		order = NULL;
	}
out:
	json_decref(powers);
	est_orders_free(order);
	return error;
}

int est_intake_check(est_order **order_out, json_t **diagnostics_out, est_game *game,
			 const char *filename, const char *bytes, size_t len,
			 const char *sig_name, const char *sig, size_t sig_len, time_t now)
{
	return check_order(order_out, diagnostics_out, game, filename, bytes, len, sig_name, sig,
			   sig_len, now, 0);
}

int est_intake_check_recorded(est_order **order_out, est_game *game, const char *filename,
			    const char *bytes, size_t len, const char *sig, size_t sig_len, time_t now)
{
	char sig_name[320];

	snprintf(sig_name, sizeof(sig_name), "%s.sig", filename);
	return check_order(order_out, NULL, game, filename, bytes, len, sig_name, sig, sig_len, now, 1);
}

static int receipt(json_t **out, const est_order *order, const char *bytes, size_t len,
		   const char *commit, long long replaces)
{
	char sha[65];

	est_sha256_hex(sha, bytes, len);
	*out = json_pack("{s:s, s:s, s:s, s:I, s:I, s:s, s:s, s:I}", "status", "accepted",
			 "kind", order->commitment ? "commitment" : "orders",
			 "player", order->player, "step", (json_int_t)order->step,
			 "seq", (json_int_t)order->seq, "sha256", sha, "commit", commit,
			 "orders", (json_int_t)json_array_size(order->orders));
	if (*out && replaces > 0 && json_object_set_new(*out, "replaces", json_integer(replaces)) < 0)
		json_decref(*out), *out = NULL;
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

int est_intake_record(json_t **receipt_out, est_game *game, const est_order *order,
		    const char *bytes, size_t len, const char *sig, size_t sig_len)
{
	char path[320], sig_path[320], oid[EST_STORE_OID_HEX + 1] = "", *msg;
	long long replaces = recorded_seq(game, order);
	int error;

	if ((error = est_sealed_require(game, "recording orders")) < 0)
		return error;
	unsigned kind = order->commitment ? EST_ORDER_COMMITMENT : 0;

	est_game_order_path(path, game, order->player, kind);
	est_game_order_path(sig_path, game, order->player, kind | EST_ORDER_SIG);
	est_store_change changes[] = {{path, bytes, len}, {sig_path, sig, sig_len}};
	if (!(msg = est_game_order_message(order)))
		return est_error_set(EST_ENOMEM, "out of memory");
	/*
	 * A sealed game's orders go to the sealed store; main gets only the
	 * note that they came (orders/<player>.received), for everyone's
	 * status. A kill between the two commits leaves the note out: the next
	 * command that writes repairs it (est_sealed_repair_notes).
	 */
	if (!est_game_is_sealed(game)) {
		error = est_game_commit(oid, game, changes, 2, msg, NULL);
	} else if ((error = est_sealed_commit(game, changes, 2, msg)) == 0) {
		est_fault_point("sealed-after-order");
		error = est_sealed_note(oid, game, order, bytes, len);
	}
	if (error == 0 && (error = receipt(receipt_out, order, bytes, len, oid, replaces)) == 0 &&
	    json_array_size(game->warnings))
		json_object_set(*receipt_out, "warnings", game->warnings);
	free(msg);
	if (error == 0)
		error = est_game_reload(game);
	return error;
}

int est_intake_requeue(est_game *game, const char *filename, const char *bytes, size_t len,
		     int receipt, time_t now)
{
	est_order *order = NULL;
	json_t *recorded = NULL;
	char *text = NULL, sha[65];
	size_t text_len;
	int error = 0;

	if (est_orders_parse(&order, filename, bytes, len) < 0 ||
	    est_game_order_read(&text, &text_len, game, order->player,
				order->commitment ? EST_ORDER_COMMITMENT : 0) < 0 ||
	    (text_len != len && text_len + 1 != len) || memcmp(text, bytes, text_len) != 0) {
		est_error_clear();
		goto out;
	}
	est_sha256_hex(sha, text, text_len);
	if (!(recorded = json_pack("{s:s}", "sha256", sha))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_intake_press_mail(game, order, sha, now)) == 0 && receipt)
		error = est_intake_receipt(game, recorded, order, now);
out:
	json_decref(recorded);
	free(text);
	est_orders_free(order);
	return error;
}

/*
 * The outbox must take the receipt (and any press by mail) after the
 * commit; a home that cannot be written refuses the order here, before it
 * is accepted, rather than after.
 */
static int outbox_writable(est_game *game)
{
	char *dir = NULL, *pending = NULL;
	int error;

	if ((error = est_mail_outbox_dir(&dir, game->home, json_string_value(json_object_get(game->game, "id")))) < 0)
		return error;
	if (!(pending = est_strdup_printf("%s/pending", dir)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if ((error = est_dir_check_writable(pending, 0700)) < 0) {
		char cause[1024];

		snprintf(cause, sizeof(cause), "%s", est_error_message());
		error = est_error_set(error, "%s; nothing was recorded, since the order's receipt could "
				      "not be queued there; make $ESTAFETTE_HOME writable (or free space "
				      "there) and submit again", cause);
	}
	free(pending);
	free(dir);
	return error;
}

/*
 * Was this very file's public note written by the repair just made? Then a
 * submit of it was killed between the sealed commit and the note: this run
 * finishes that one. *receipt_out: the receipt it would have given, with
 * "already_recorded". 0 with *receipt_out NULL for any other file.
 */
static int finish_killed(json_t **receipt_out, est_order **order_out, est_game *game,
			 const json_t *repaired, const char *filename, const char *bytes, size_t len,
			 const char *sig, size_t sig_len, time_t now)
{
	char sha[65];
	const json_t *r, *note = NULL;
	size_t i;
	int error;

	*receipt_out = NULL;
	est_sha256_hex(sha, bytes, len);
	json_array_foreach(repaired, i, r)
		if (strcmp(json_string_value(json_object_get(r, "sha256")), sha) == 0)
			note = r;
	if (!note)
		return 0;
	/* The same checks as when it was recorded, but for the seq against itself. */
	if ((error = est_intake_check_recorded(order_out, game, filename, bytes, len, sig, sig_len, now)) < 0)
		return error;
	if ((error = receipt(receipt_out, *order_out, bytes, len,
			     json_string_value(json_object_get(note, "commit")), 0)) < 0)
		return error;
	json_object_set_new(*receipt_out, "already_recorded", json_true());
	if (json_array_size(game->warnings))
		json_object_set(*receipt_out, "warnings", game->warnings);
	return 0;
}

int est_intake_submit(json_t **receipt_out, json_t **diagnostics_out, est_game *game,
		    const char *filename, const char *bytes, size_t len,
		    const char *sig_name, const char *sig, size_t sig_len, time_t now)
{
	est_order *order = NULL;
	json_t *repaired = NULL;
	int error;

	if ((error = est_sealed_require(game, "recording orders")) < 0 ||
	    (error = est_game_lock(game)) < 0)
		return error;
	/* Judge against main as it is now that we hold the lock, not as it was. */
	if ((error = est_game_reload(game)) < 0 || (error = est_game_repair(&repaired, game)) < 0 ||
	    (error = finish_killed(receipt_out, &order, game, repaired, filename, bytes, len, sig,
				   sig_len, now)) < 0)
		goto out;
	if (*receipt_out)
		goto mail;
	if ((error = est_intake_check(&order, diagnostics_out, game, filename, bytes, len,
					  sig_name, sig, sig_len, now)) == EST_EINVAL) {
		/* Refused, but perhaps recorded by a submit killed before its mail was queued. */
		char *refusal = strdup(est_error_message());

		if (est_intake_requeue(game, filename, bytes, len, 1, now) < 0)
			est_game_warn(game, "%s", est_error_message());
		error = est_error_set(EST_EINVAL, "%s", refusal ? refusal : "out of memory");
		free(refusal);
	}
	if (error < 0 || (error = outbox_writable(game)) < 0 ||
	    (error = est_intake_record(receipt_out, game, order, bytes, len, sig, sig_len)) < 0)
		goto out;
	est_fault_point("submit-after-record");
mail:
	/*
	 * The order is recorded: a failure to queue its mail now must not tell
	 * the player it was not. Submitting the same file again queues what is
	 * missing (est_intake_requeue), once.
	 */
	if ((error = est_intake_press_mail(game, order, json_string_value(json_object_get(*receipt_out, "sha256")),
				    now)) < 0 ||
	    (error = est_intake_receipt(game, *receipt_out, order, now)) < 0) {
		est_game_warn(game, "%s: the orders were recorded, but their receipt or press mail was not "
			      "queued: %s; when $ESTAFETTE_HOME can be written, submit the same file again: "
			      "it is not recorded twice, and what was not queued is", filename,
			      est_error_message());
		json_object_set(*receipt_out, "warnings", game->warnings);
		est_error_clear();
		error = 0;
	}
out:
	est_store_unlock(game->store);
	json_decref(repaired);
	est_orders_free(order);
	return error;
}
