/*
 * Binding an order file to its context (docs/protocol.md "Order files"): a file
 * signed for one game, step and state cannot be replayed into another, and
 * a player's later file replaces an earlier one only with a higher seq.
 */
#include "orders/orders.h"
#include "util/error.h"

#include <limits.h>
#include <string.h>
#include <strings.h>

/*
 * The fix for a wrong step: for an earlier one, the awaited step and the
 * prev to go with it when that is wrong too; for a later one, that the copy
 * checked against may be behind.
 */
static int check_step(const est_order *o, const char *filename, long long step, const char *prev_hex)
{
	int prev_too = strlen(prev_hex) != 64 || strcasecmp(o->prev, prev_hex) != 0;

	if (o->step == step)
		return 0;
	/* Re-signing for the open step would be wrong: that step may be another player's. */
	if (o->step > step)
		return est_error_set(EST_EINVAL, "%s: field \"step\" is %lld, but the game awaits step %lld "
				     "(step %lld is not open yet here): if your report named step %lld, this copy "
				     "of the game is behind (update it: git pull --tags) and check again; else "
				     "wait for the report that opens your step", filename, o->step, step, o->step,
				     o->step);
	return est_error_set(EST_EINVAL,
			     "%s: field \"step\" is %lld, but the game awaits step %lld (an order for an "
			     "earlier step cannot be replayed); re-sign with \"step\": %lld%s%s%s", filename,
			     o->step, step, step, prev_too ? " and \"prev\": \"" : "", prev_too ? prev_hex : "",
			     prev_too ? "\"" : "");
}

int est_orders_check_binding(const est_order *o, const char *filename, const char *game,
			     long long step, const char *prev_hex, const char *signer)
{
	int error;

	if (strcmp(o->game, game) != 0)
		return est_error_set(EST_EINVAL,
				     "%s: field \"game\" is \"%s\", but this is game \"%s\" (an order "
				     "file is bound to one game); re-sign with \"game\": \"%s\"",
				     filename, o->game, game, game);
	if (strcmp(o->player, signer) != 0)
		return est_error_set(EST_EINVAL,
				     "%s: signed by %s but names player \"%s\" (a player signs only "
				     "their own orders); sign it with %s's key, or write "
				     "\"player\": \"%s\"", filename, signer, o->player, o->player, signer);
	if ((error = check_step(o, filename, step, prev_hex)) < 0)
		return error;
	if (strlen(prev_hex) != 64 || strcasecmp(o->prev, prev_hex) != 0)
		return est_error_set(EST_EINVAL,
				     "%s: field \"prev\" is %s, but the state before step %lld has "
				     "SHA-256 %s (an order is bound to the state it was written "
				     "against); fetch it with `estafette status %s --json`, field "
				     "state_sha256, and re-sign", filename, o->prev, step, prev_hex, game);
	return 0;
}

int est_orders_check_seq(const est_order *incoming, const est_order *current,
			 const char *filename)
{
	if (!current)
		return 0;
	if (strcmp(incoming->player, current->player) != 0)
		return est_error_set(EST_EINVAL,
				     "%s: orders of player \"%s\" compared with those of \"%s\" (seq "
				     "orders the files of one player); this is an estafette bug",
				     filename, incoming->player, current->player);
	if (strcmp(incoming->game, current->game) != 0 || incoming->step != current->step)
		return 0;
	if (incoming->seq <= current->seq && current->seq == LLONG_MAX)
		return est_error_set(EST_EINVAL,
				     "%s: field \"seq\" is %lld, but orders with seq %lld are already "
				     "held for %s at step %lld, and no seq is higher; ask the GM to "
				     "clear the held orders", filename, incoming->seq, current->seq,
				     current->player, current->step);
	if (incoming->seq <= current->seq)
		return est_error_set(EST_EINVAL,
				     "%s: field \"seq\" is %lld, but orders with seq %lld are already "
				     "held for %s at step %lld (a later file replaces an earlier one "
				     "only with a higher seq); re-sign with \"seq\": %lld",
				     filename, incoming->seq, current->seq, current->player,
				     current->step, current->seq + 1);
	return 0;
}
