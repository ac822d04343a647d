/*
 * Accepted orders against what the steps resolved (accepted.h): the order
 * files main's own history recorded, and the receipts players hold. The
 * checks that need the game as it stood are audit.c's; this file finds the
 * candidates and judges a manifest against one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit/accepted.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

/* "orders/<player>.json" with a player id: the order file itself, not its .sig or a commitment. */
static int order_path(const char *path)
{
	char id[128];
	size_t n = strlen(path);

	if (strncmp(path, "orders/", 7) != 0 || n < 13 || n - 12 >= sizeof(id) ||
	    strcmp(path + n - 5, ".json") != 0)
		return 0;
	memcpy(id, path + 7, n - 12);
	id[n - 12] = '\0';
	return est_orders_is_id(id) && !strchr(id, '.');
}

/* One recorded file: its step, player and seq as it says them (judged later), under its step. */
static int note_file(json_t *out, est_store *store, const char *commit, const char *path)
{
	char *bytes = NULL, sha[65], key[32];
	size_t len;
	json_t *doc = NULL, *list;
	int error;

	if ((error = est_store_read(&bytes, &len, store, commit, path)) < 0)
		return error;
	doc = json_loadb(bytes, len, JSON_REJECT_DUPLICATES, NULL);
	est_sha256_hex(sha, bytes, len);
	free(bytes);
	/* What does not parse, or names no step, was never an order run would take. */
	if (!json_is_integer(json_object_get(doc, "step")) || !json_is_string(json_object_get(doc, "player")) ||
	    !json_is_integer(json_object_get(doc, "seq"))) {
		json_decref(doc);
		return 0;
	}
	snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(json_object_get(doc, "step")));
	if (!(list = json_object_get(out, key)))
		json_object_set_new(out, key, list = json_array());
	error = json_array_append_new(list, json_pack("{s:s, s:s, s:O, s:O, s:s}", "commit", commit, "path",
				      path, "player", json_object_get(doc, "player"), "seq",
				      json_object_get(doc, "seq"), "sha256", sha)) < 0 ?
		est_error_set(EST_ENOMEM, "out of memory") : 0;
	json_decref(doc);
	return error;
}

int est_audit_recorded_orders(json_t **out, est_store *store, const json_t *log)
{
	json_t *changes = NULL, *c, *ch;
	size_t i, j;
	int error = 0;

	if (!(*out = json_object()))
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(log, i, c) {
		const char *id = json_string_value(json_object_get(c, "commit"));
		if ((error = est_store_changes(&changes, store, json_string_value(json_array_get(
			json_object_get(c, "parents"), 0)), id)) < 0)
			goto out;
		json_array_foreach(changes, j, ch) {
			const char *path = json_string_value(json_object_get(ch, "path"));
			const char *status = json_string_value(json_object_get(ch, "status"));
			if ((strcmp(status, "added") == 0 || strcmp(status, "modified") == 0) && order_path(path) &&
			    (error = note_file(*out, store, id, path)) < 0)
				goto out;
		}
		json_decref(changes);
		changes = NULL;
	}
out:
	json_decref(changes);
	if (error < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return error;
}

int est_audit_order_kept(char *why, size_t why_len, const json_t *manifest, const char *player, long long seq,
			 const char *sha)
{
	const json_t *entry;
	const char *kind = json_string_value(json_object_get(manifest, "kind"));
	size_t i;

	/* A GM act that is a step (adjust, rollback, end) sets the open step's orders aside, in view. */
	if (kind && strcmp(kind, "gm") == 0)
		return 1;
	json_array_foreach(json_object_get(manifest, "orders"), i, entry) {
		long long resolved = json_integer_value(json_object_get(entry, "seq"));
		const char *resolved_sha = json_string_value(json_object_get(entry, "sha256"));
		if (strcmp(json_string_value(json_object_get(entry, "player")), player) != 0)
			continue;
		if (resolved > seq || (resolved == seq && resolved_sha && strcmp(resolved_sha, sha) == 0))
			return 1;
		snprintf(why, why_len, "the step resolved seq %lld (SHA-256 %.16s...) in its place: %s", resolved,
			 resolved_sha ? resolved_sha : "?", resolved < seq ? "an older order replaced a newer "
			 "accepted one" : "another file of the same seq replaced the accepted one");
		return 0;
	}
	snprintf(why, why_len, "the step gave player \"%s\" default orders instead: an accepted order was "
		 "left out", player);
	return 0;
}

/* receipt/1's fields, exactly (docs/protocol.md "Signed receipts"). */
static int receipt_fields(char *why, size_t why_len, const json_t *doc, const char *game_id)
{
	static const char *const strings[] = {"estafette", "game", "player", "sha256", "recorded", "at"};
	const char *key;
	json_t *value;
	size_t i;

	if (!json_is_object(doc) || json_object_size(doc) != 8) {
		snprintf(why, why_len, "it is not a receipt/1 document (an object of exactly estafette, game, "
			 "step, player, seq, sha256, recorded and at)");
		return 0;
	}
	for (i = 0; i < sizeof(strings) / sizeof(strings[0]); i++)
		if (!json_is_string(json_object_get(doc, strings[i]))) {
			snprintf(why, why_len, "field \"%s\" must be a string", strings[i]);
			return 0;
		}
	json_object_foreach((json_t *)doc, key, value)
		if ((strcmp(key, "step") == 0 || strcmp(key, "seq") == 0) &&
		    (!json_is_integer(value) || json_integer_value(value) < 1)) {
			snprintf(why, why_len, "field \"%s\" must be a whole number from 1", key);
			return 0;
		}
	if (strcmp(json_string_value(json_object_get(doc, "estafette")), "receipt/1") != 0) {
		snprintf(why, why_len, "field \"estafette\" is not \"receipt/1\"");
		return 0;
	}
	if (strcmp(json_string_value(json_object_get(doc, "game")), game_id) != 0) {
		snprintf(why, why_len, "it is a receipt of game \"%s\", not of this game (\"%s\")",
			 json_string_value(json_object_get(doc, "game")), game_id);
		return 0;
	}
	return 1;
}

int est_audit_read_receipt(json_t **out, char *why, size_t why_len, const char *dir, const char *name,
			   const char *signers, size_t signers_len, const char *game_id)
{
	char *path = est_strdup_printf("%s/%s", dir, name), *sig_path = est_strdup_printf("%s/%s.sig", dir, name);
	char *text = NULL, *sig = NULL;
	size_t len, sig_len;
	int error = 0, good = 0;

	*out = NULL;
	if (!path || !sig_path) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (est_file_read(&text, &len, path, 65536) < 0) {
		snprintf(why, why_len, "it cannot be read: %s", est_error_message());
		est_error_clear();
		goto out;
	}
	if (est_file_read(&sig, &sig_len, sig_path, 65536) < 0) {
		snprintf(why, why_len, "%s.sig cannot be read: %s", name, est_error_message());
		est_error_clear();
		goto out;
	}
	/* The GM's signature first: nothing in an unsigned receipt is evidence. */
	if (est_sshsig_verify(signers, signers_len, "gm", "estafette-receipt", text, len, sig, sig_len, 0) < 0) {
		snprintf(why, why_len, "its signature is not a good one by the GM's key in namespace "
			 "estafette-receipt: %s", est_error_message());
		est_error_clear();
		goto out;
	}
	if (!(*out = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL))) {
		snprintf(why, why_len, "it is not JSON");
		goto out;
	}
	if (!(good = receipt_fields(why, why_len, *out, game_id))) {
		json_decref(*out);
		*out = NULL;
	}
out:
	free(sig);
	free(text);
	free(sig_path);
	free(path);
	return error < 0 ? error : good;
}
