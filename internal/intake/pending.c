/*
 * What the open step awaits, with each recorded order judged as `run`
 * will judge it.
 */
#include <stdlib.h>

#include "game/game.h"
#include "intake/intake.h"
#include "turn/turn.h"
#include "util/error.h"

/*
 * Each awaited player's recorded order judged as run will judge it
 * (est_intake_check_recorded): one that run would refuse, signed by a key
 * since replaced or expired, is not "received" but "refused", with why.
 * A player's copy of a sealed game holds only the notes, and is left as it is.
 */
static void judge_received(est_game *game, json_t *awaiting, time_t now)
{
	json_t *entry;
	size_t i;

	if (est_game_is_sealed(game) && !game->sealed_store)
		return;
	json_array_foreach(awaiting, i, entry) {
		const char *player = json_string_value(json_object_get(entry, "player"));
		char path[320], *bytes = NULL, *sig = NULL;
		size_t len, sig_len;

		if (!json_is_true(json_object_get(entry, "received")))
			continue;
		est_game_order_path(path, game, player, 0);
		if (est_game_order_read(&bytes, &len, game, player, 0) < 0 ||
		    est_game_order_read(&sig, &sig_len, game, player, 1) < 0 ||
		    est_intake_check_recorded(NULL, game, path, bytes, len, sig, sig_len, now) < 0) {
			json_object_set_new(entry, "received", json_false());
			json_object_set_new(entry, "refused", json_string(est_error_message()));
		}
		est_error_clear();
		free(bytes);
		free(sig);
	}
}

int est_intake_pending(json_t **out, est_game *game, time_t now)
{
	int error = est_turn_pending(out, game, now);

	if (error == 0)
		judge_received(game, json_object_get(*out, "awaiting"), now);
	return error;
}
