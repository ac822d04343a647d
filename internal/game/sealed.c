/*
 * Sealed games (docs/protocol.md "The repository"): the GM's sealed store.
 *
 * The public repository carries the hidden parts of each state only as
 * commitments (seal/seal.h), and no order file until `reveal`. The whole
 * state of each step, its private events and the orders received live in
 * a repository of their own beside the dice secrets,
 * $ESTAFETTE_HOME/games/<id>/sealed.git, on its refs/heads/main:
 *
 *   orders/NNNN/<player>.json(.sig)   orders received for step NNNN
 *   steps/NNNN/state.json             the whole state after step NNNN
 *   steps/NNNN/events.json            every event, private ones included
 *   steps/NNNN/hidden.json            the hidden stream's seed and rolls
 *
 * A separate repository rather than a ref beside main: objects of an
 * unpushed ref still travel with a local clone (which copies the object
 * database), a `git push --mirror` or a dumb-HTTP copy of the game.
 *
 * Orders stay under orders/NNNN/ after the step: the sealed commit of a
 * step comes before the public one, and a run killed between the two
 * simply resolves the step again from the same files (to the same sealed
 * parts, which are not committed again).
 *
 * An order's sealed commit, too, comes before its public note
 * orders/<player>.received at main, which is all players' copies know of
 * it. A submit or receive killed between the two leaves the GM holding an
 * order the players see awaited; every command that writes first writes
 * the notes so left out (est_sealed_repair_notes), the very commits the
 * killed command would have made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "orders/orders.h"
#include "seal/seal.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

int est_game_is_sealed(const est_game *game)
{
	return json_is_true(json_object_get(game->game, "sealed"));
}

char *est_sealed_path(const char *home, const char *id)
{
	return est_strdup_printf("%s/games/%s/sealed.git", home, id);
}

int est_sealed_require(est_game *game, const char *what)
{
	char *path;

	if (!est_game_is_sealed(game) || game->sealed_store)
		return 0;
	path = est_sealed_path(game->home, json_string_value(json_object_get(game->game, "id")));
	est_error_set(EST_ECONFIG, "this is a sealed game: %s needs the GM's sealed store %s, which "
		      "is not here; only the GM (with $ESTAFETTE_HOME as on the machine that made the "
		      "game) can do it", what, path ? path : "(out of memory)");
	free(path);
	return EST_ECONFIG;
}

int est_sealed_open(est_game *game)
{
	char *path;
	int error;

	if (game->sealed_store || !est_game_is_sealed(game))
		return 0;
	if (!(path = est_sealed_path(game->home, json_string_value(json_object_get(game->game, "id")))))
		return est_error_set(EST_ENOMEM, "out of memory");
	error = est_store_open(&game->sealed_store, path);
	if (error == EST_ENOTFOUND) { /* a player's copy of the game */
		est_error_clear();
		error = 0;
	}
	free(path);
	return error;
}

int est_sealed_create(const char *home, const char *id)
{
	char *path = est_sealed_path(home, id), oid[EST_STORE_OID_HEX + 1];
	est_store *store = NULL;
	int error;

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_store_init(&store, path)) == 0)
		error = est_store_commit(oid, store, NULL, NULL, 0,
					 "sealed store: the hidden parts of this game, kept by the GM\n\n"
					 "Never push or share this repository before `estafette reveal`.\n",
					 NULL);
	est_store_free(store);
	free(path);
	return error;
}

/* Does the sealed store's main hold every one of `changes` (all writes) already, byte for byte? */
static int holds_already(est_store *store, const est_store_change *changes, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		char *text = NULL;
		size_t len;
		int same;

		if (!changes[i].data || est_store_read(&text, &len, store, NULL, changes[i].path) < 0) {
			est_error_clear();
			return 0;
		}
		same = len == changes[i].len && memcmp(text, changes[i].data, len) == 0;
		free(text);
		if (!same)
			return 0;
	}
	return count > 0;
}

/*
 * Commit on the sealed store's main (the caller holds the game's lock).
 * Changes the store holds already make no commit: a run killed between a
 * step's sealed commit and its public one resolves the step again, from
 * the same orders to the same sealed parts, and those are committed once.
 */
int est_sealed_commit(est_game *game, const est_store_change *changes, size_t count,
		      const char *message)
{
	char head[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	int error;

	if ((error = est_store_head(head, game->sealed_store)) < 0)
		return error;
	if (holds_already(game->sealed_store, changes, count))
		return 0;
	oid[0] = '\0';
	error = est_store_commit(oid, game->sealed_store, head, changes, count, message, NULL);
	if (error == EST_EIO && oid[0]) { /* the work tree of the sealed store lags: no matter */
		est_error_clear();
		error = 0;
	}
	return error;
}

void est_game_order_path(char buf[320], const est_game *game, const char *player, unsigned what)
{
	const char *kind = what & EST_ORDER_COMMITMENT ? ".commitment" : "";
	const char *sig = what & EST_ORDER_SIG ? ".sig" : "";

	if (est_game_is_sealed(game))
		snprintf(buf, 320, "orders/%04lld/%s%s.json%s", game->step + 1, player, kind, sig);
	else
		snprintf(buf, 320, "orders/%s%s.json%s", player, kind, sig);
}

int est_game_order_read(char **out, size_t *len, est_game *game, const char *player, unsigned what)
{
	char path[320];

	if (est_game_is_sealed(game) && !game->sealed_store)
		return est_error_set(EST_ENOTFOUND, "orders of a sealed game are kept by the GM");
	est_game_order_path(path, game, player, what);
	return est_store_read(out, len, est_game_is_sealed(game) ? game->sealed_store : game->store,
			      NULL, path);
}

/* The bytes of orders/<player>.received for `order` (caller frees; NULL on ENOMEM). */
static char *note_text(const est_order *order, const char *bytes, size_t len)
{
	char sha[65], *text = NULL;
	json_t *note;

	est_sha256_hex(sha, bytes, len);
	note = json_pack("{s:s, s:I, s:I, s:s, s:s}", "player", order->player, "step",
			 (json_int_t)order->step, "seq", (json_int_t)order->seq, "sha256", sha,
			 "kept", "by the GM until estafette reveal (a sealed game)");
	if (note)
		text = est_json_text(note);
	json_decref(note);
	return text;
}

int est_sealed_note(char oid[EST_STORE_OID_HEX + 1], est_game *game, const est_order *order,
		    const char *bytes, size_t len)
{
	char path[320], *text = note_text(order, bytes, len), *msg = est_game_order_message(order);
	int error;

	snprintf(path, sizeof(path), "orders/%s.received", order->player);
	est_store_change change = {path, text, text ? strlen(text) : 0};
	if (!text || !msg)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_game_commit(oid, game, &change, 1, msg, NULL);
	free(msg);
	free(text);
	return error;
}

/*
 * The order the sealed store holds for `player` at the open step, parsed,
 * and whether main's note of it is other than est_sealed_note would write.
 * 0 with *order_out NULL when the store holds none (or none that parses:
 * it was checked when recorded, so that is no order of this step).
 */
static int sealed_order(est_order **order_out, char **bytes_out, size_t *len_out, int *missing_out,
			est_game *game, const char *player)
{
	char path[320], *bytes = NULL, *note = NULL, *want = NULL;
	est_order *order = NULL;
	size_t len, note_len;
	int error = 0;

	*order_out = NULL;
	*missing_out = 0;
	est_game_order_path(path, game, player, 0);
	if (!est_game_is_sealed(game) || !game->sealed_store ||
	    est_store_read(&bytes, &len, game->sealed_store, NULL, path) < 0 ||
	    est_orders_parse(&order, path, bytes, len) < 0 || order->step != game->step + 1) {
		est_error_clear();
		goto out;
	}
	if (!(want = note_text(order, bytes, len))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "orders/%s.received", player);
	if (est_store_read(&note, &note_len, game->store, NULL, path) < 0) {
		est_error_clear();
		*missing_out = 1;
	} else {
		*missing_out = note_len != strlen(want) || memcmp(note, want, note_len) != 0;
	}
	*order_out = order;
	order = NULL;
	*bytes_out = bytes;
	*len_out = len;
	bytes = NULL;
out:
	free(want);
	free(note);
	free(bytes);
	est_orders_free(order);
	return error;
}

int est_sealed_note_missing(est_game *game, const char *player)
{
	est_order *order = NULL;
	char *bytes = NULL;
	size_t len;
	int missing = 0;

	if (sealed_order(&order, &bytes, &len, &missing, game, player) < 0)
		est_error_clear();
	est_orders_free(order);
	free(bytes);
	return order ? missing : 0;
}

int est_sealed_repair_notes(json_t **repaired_out, est_game *game)
{
	/* (held: a note written reloads the game, and game.json with it) */
	json_t *repaired = json_array(), *doc = json_incref(game->game), *player;
	size_t i;
	int error = 0;

	if (!repaired)
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(json_object_get(doc, "players"), i, player) {
		const char *id = json_string_value(json_object_get(player, "id"));
		char oid[EST_STORE_OID_HEX + 1], sha[65], *bytes = NULL;
		est_order *order = NULL;
		size_t len;
		int missing;

		if ((error = sealed_order(&order, &bytes, &len, &missing, game, id)) == 0 && order &&
		    missing && (error = est_sealed_note(oid, game, order, bytes, len)) == 0) {
			est_sha256_hex(sha, bytes, len);
			json_array_append_new(repaired, json_pack("{s:s, s:I, s:I, s:s, s:s}", "player", id,
				"step", (json_int_t)order->step, "seq", (json_int_t)order->seq,
				"sha256", sha, "commit", oid));
			est_game_warn(game, "orders/%s.received: the sealed store holds %s's orders for step "
				      "%lld (seq %lld), but their public note was missing (a submit or "
				      "receive was killed between the two commits); written now", id, id,
				      order->step, order->seq);
			/* The next note, and the caller, commit on top of this one. */
			error = est_game_reload(game);
		}
		est_orders_free(order);
		free(bytes);
		if (error < 0)
			break;
	}
	if (error == 0 && repaired_out) {
		*repaired_out = repaired;
		repaired = NULL;
	}
	json_decref(repaired);
	json_decref(doc);
	return error;
}

/* The hidden seed of `step` as the sealed store recorded it. */
static int step_key(unsigned char key[32], est_game *game, long long step)
{
	char path[64];
	json_t *hidden = NULL;
	int error;

	snprintf(path, sizeof(path), "steps/%04lld/hidden.json", step);
	if ((error = est_store_read_json(&hidden, game->sealed_store, NULL, path)) < 0)
		return error;
	const char *seed = json_string_value(json_object_get(hidden, "seed"));
	error = seed && est_hex_decode(key, 32, seed) == 0 ? 0 :
		est_error_set(EST_EINVAL, "%s: field \"seed\" is not 64 hex digits", path);
	json_decref(hidden);
	return error;
}

int est_sealed_public_state(char **out, const est_ruleset *rs, const json_t *rules,
			    const json_t *wrapped, const unsigned char key[32])
{
	json_t *paths = NULL, *inner = NULL, *pub = NULL;
	int error;

	if (!rs->sealed)
		return est_error_set(EST_EINVAL, "%s has no hidden information to seal", rs->name);
	if ((error = rs->sealed(&paths, json_object_get(wrapped, "state"), rules)) < 0 ||
	    (error = est_seal_state(&inner, json_object_get(wrapped, "state"), paths, key)) < 0)
		goto out;
	pub = json_pack("{s:O, s:O, s:O}", "game", json_object_get(wrapped, "game"), "step",
			json_object_get(wrapped, "step"), "state", inner);
	if (!pub || !(*out = est_json_text(pub)))
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(pub);
	json_decref(inner);
	json_decref(paths);
	return error;
}

/*
 * The whole state of the last step, from the sealed store, checked against
 * the public one: sealed again with the step's key it must give exactly
 * the bytes of state.json at main (a stale or foreign sealed store must
 * never resolve a step).
 */
int est_sealed_load_state(est_game *game)
{
	char path[64], *text = NULL;
	unsigned char key[32];
	json_t *full = NULL;
	int error;

	if (!game->sealed_store || game->step == 0)
		return 0;
	snprintf(path, sizeof(path), "steps/%04lld/state.json", game->step);
	if ((error = est_store_read_json(&full, game->sealed_store, NULL, path)) == EST_ENOTFOUND) {
		error = est_error_set(EST_ECONFIG, "%s: the sealed store has no %s, so it is older than the "
				      "game (step %lld at main); restore the GM's latest copy of it",
				      est_store_path(game->sealed_store), path, game->step);
		goto out;
	}
	if (error < 0 ||
	    (error = step_key(key, game, game->step)) < 0 ||
	    (error = est_sealed_public_state(&text, game->ruleset, game->rules, full, key)) < 0)
		goto out;
	if (strcmp(text, game->state_text) != 0) {
		error = est_error_set(EST_ECONFIG, "%s: %s does not seal to state.json at main: this "
				      "sealed store is not this game's, or is older than the game; restore "
				      "the GM's own", est_store_path(game->sealed_store), path);
		goto out;
	}
	json_decref(game->state);
	game->state = full;
	full = NULL;
out:
	free(text);
	json_decref(full);
	return error;
}

int est_sealed_step_json(json_t **out, est_game *game, long long step, const char *file)
{
	char path[64];

	snprintf(path, sizeof(path), "steps/%04lld/%s", step, file);
	return est_store_read_json(out, game->sealed_store, NULL, path);
}

json_t *est_public_events(const json_t *events_doc)
{
	json_t *doc = json_deep_copy(events_doc), *list = json_array(), *event;
	size_t i;

	json_array_foreach(json_object_get(events_doc, "events"), i, event)
		if (!json_object_get(event, "visible_to"))
			json_array_append(list, event);
	if (doc)
		json_object_set_new(doc, "events", list);
	else
		json_decref(list);
	return doc;
}

char *est_game_order_message(const est_order *order)
{
	return est_strdup_printf("%s: %s for step %lld (seq %lld)\n\nEstafette-Step: %lld\n",
				 order->commitment ? "commitment" : "orders", order->player,
				 order->step, order->seq, order->step);
}
