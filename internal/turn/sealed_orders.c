/*
 * Sealed orders (game.json "sealed_orders"; rulesets/ruleset.h: a simultaneous step's orders are sealed). In a public
 * repository the first order file of a simultaneous step would show its
 * orders to everyone who has not yet sent theirs. So each awaited player
 * first sends a commitment/1 file, signed, holding only the SHA-256 of its
 * order file (whose fresh entropy makes the hash unguessable), and reveals
 * the order file itself once every awaited player has committed, or the
 * step's deadline has passed. A revealed file must hash to its commitment;
 * commitments are closed from then on, so nobody answers what was shown.
 * Who committed but did not reveal by the reveal deadline (the step's
 * deadline plus schedule.reveal_hours) gets the ruleset's default orders.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

int est_sealed_orders_step(int *out, est_game *game)
{
	const json_t *open;
	int error;

	*out = 0;
	if (!json_is_true(json_object_get(game->game, "sealed_orders")))
		return 0;
	if ((error = est_turn_open(&open, game)) < 0)
		return error;
	*out = est_turn_sealed_round(game->game, json_object_get(open, "pending"));
	return 0;
}

int est_commitment_read(char out_sha[65], est_game *game, const char *player)
{
	char *text = NULL, path[320];
	est_order *c = NULL;
	size_t len;
	int found = 0;

	est_game_order_path(path, game, player, EST_ORDER_COMMITMENT);
	if (est_game_order_read(&text, &len, game, player, EST_ORDER_COMMITMENT) == 0 &&
	    est_orders_parse(&c, path, text, len) == 0 && c->commitment && c->step == game->step + 1) {
		memcpy(out_sha, c->sha256, 65);
		found = 1;
	}
	est_error_clear();
	est_orders_free(c);
	free(text);
	return found;
}

/*
 * The open step's commitments: how many awaited players have none, and
 * whether commitments are closed (every awaited player committed, or the
 * deadline passed). *awaiting_out: est_intake_pending's "awaiting".
 */
static int commitment_state(int *closed_out, json_t **pending_out, est_game *game, time_t now)
{
	json_t *pending = NULL, *entry;
	size_t i, missing = 0;
	int error;

	if ((error = est_turn_pending(&pending, game, now)) < 0)
		return error;
	json_array_foreach(json_object_get(pending, "awaiting"), i, entry)
		missing += !json_is_true(json_object_get(entry, "committed"));
	*closed_out = missing == 0 || json_is_true(json_object_get(pending, "deadline_passed"));
	*pending_out = pending;
	return 0;
}

/* The players awaited who have not committed, as "france, allies" into buf. */
static void uncommitted(char *buf, size_t size, const json_t *pending)
{
	size_t i, used = 0;
	json_t *entry;

	buf[0] = '\0';
	json_array_foreach(json_object_get(pending, "awaiting"), i, entry) {
		const char *p = json_string_value(json_object_get(entry, "player"));
		if (!json_is_true(json_object_get(entry, "committed")) && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", p);
	}
}

static int check_reveal(est_game *game, const est_order *order, const char *bytes, size_t len,
			const char *filename, int closed, const json_t *pending)
{
	char mine[65], sha[65], who[512];
	long long step = game->step + 1;

	if (!est_commitment_read(mine, game, order->player) &&
	    json_is_true(json_object_get(pending, "deadline_passed")))
		return est_error_set(EST_EINVAL, "%s: step %lld takes sealed orders, player \"%s\" has no "
				     "commitment for it, and the deadline has passed, which closed the "
				     "commitments: the step resolves with the rules' default orders for "
				     "you; send orders for the next step", filename, step, order->player);
	if (!est_commitment_read(mine, game, order->player))
		return est_error_set(EST_EINVAL, "%s: step %lld takes sealed orders, and player \"%s\" has "
				     "no commitment for it; send first a signed commitment/1 file holding "
				     "this file's SHA-256 (sha256sum), then this file once every commitment "
				     "is in", filename, step, order->player);
	if (!closed) {
		uncommitted(who, sizeof(who), pending);
		return est_error_set(EST_EINVAL, "%s: too early to reveal orders for step %lld: %s %s not "
				     "committed yet, and revealing now would show your orders to them; "
				     "keep the file and send it once every commitment is in or the "
				     "deadline has passed (estafette status)", filename, step, who,
				     strchr(who, ',') ? "have" : "has");
	}
	est_sha256_hex(sha, bytes, len);
	if (strcmp(sha, mine) != 0)
		return est_error_set(EST_EINVAL, "%s: its SHA-256 is %s, but %s committed to %s for step "
				     "%lld (sealed orders); send the exact file you committed to, byte for "
				     "byte", filename, sha, order->player, mine, step);
	return 0;
}

int est_sealed_orders_check(est_game *game, const est_order *order, const char *bytes, size_t len,
			    const char *filename, time_t now)
{
	json_t *pending = NULL;
	int sealed, closed, error;

	if ((error = est_sealed_orders_step(&sealed, game)) < 0)
		return error;
	if (!sealed)
		return order->commitment ?
			est_error_set(EST_EINVAL, "%s: a commitment/1 file, but %s; send the order file "
				      "itself", filename,
				      json_is_true(json_object_get(game->game, "sealed_orders")) ?
				      "the step this game awaits is not simultaneous" :
				      "this game does not take sealed orders") : 0;
	if ((error = commitment_state(&closed, &pending, game, now)) < 0)
		return error;
	if (order->commitment && closed)
		error = est_error_set(EST_EINVAL, "%s: commitments for step %lld are closed (every "
				      "awaited player has committed, or the deadline passed), and orders "
				      "may have been revealed since; reveal the order file you committed "
				      "to", filename, game->step + 1);
	else if (!order->commitment)
		error = check_reveal(game, order, bytes, len, filename, closed, pending);
	json_decref(pending);
	return error;
}

int est_reveal_deadline(time_t *out, est_game *game)
{
	const json_t *hours = json_object_get(json_object_get(game->game, "schedule"), "reveal_hours");
	time_t deadline;
	int error;

	if ((error = est_turn_deadline(&deadline, game, NULL)) < 0)
		return error;
	/* The reveals come after the commitments close: the deadline and its grace. */
	*out = deadline ? deadline + est_schedule_grace(json_object_get(game->game, "schedule")) +
		(time_t)json_integer_value(hours) * 3600 : 0;
	return 0;
}
