/*
 * keys/allowed_signers (docs/protocol.md "The repository"):
 * written from keys that est_sshsig_canonical_key parsed, one
 * est_sshsig_allowed_line per key, never pasted; and checked, whenever a
 * game is opened or audited, to be the very lines estafette writes for
 * game.json's players and the GM. A key string holding a line break once
 * became a line of its own, as principal gm or as another player; a game
 * whose keys hold such a line is damaged, not playable.
 *
 * The key's comment is not written: a line is "PRINCIPAL
 * namespaces=\"NAMESPACES\" TYPE BASE64". game.json keeps the key as the
 * players file gave it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

/*
 * The GM's key signs acts, receipts and git's commits and tags. Games made
 * before receipts were signed have the line without estafette-receipt.
 */
#define GM_NAMESPACES EST_GM_NAMESPACE ",estafette-receipt,git"
#define GM_NAMESPACES_BEFORE_RECEIPTS EST_GM_NAMESPACE ",git"

/* Append `line` (taken) to *text. */
static int append(char **text, size_t *len, char *line)
{
	size_t n = strlen(line);
	char *grown = realloc(*text, *len + n + 1);

	if (!grown) {
		free(line);
		return est_error_set(EST_ENOMEM, "out of memory writing keys/allowed_signers");
	}
	memcpy(grown + *len, line, n + 1);
	*text = grown;
	*len += n;
	free(line);
	return 0;
}

int est_game_allowed_signers(char **out, const json_t *players, const char *gm_key)
{
	char *text = strdup(""), *line;
	size_t len = 0, i;
	json_t *p;
	int error = 0;

	*out = NULL;
	if (!text)
		return est_error_set(EST_ENOMEM, "out of memory writing keys/allowed_signers");
	json_array_foreach(players, i, p) {
		if ((error = est_sshsig_allowed_line(&line, json_string_value(json_object_get(p, "id")),
						     EST_ORDERS_NAMESPACE,
						     json_string_value(json_object_get(p, "key")))) < 0) {
			est_error_prefix("players[%zu].key", i);
			goto out;
		}
		if ((error = append(&text, &len, line)) < 0)
			goto out;
	}
	if (gm_key) {
		if ((error = est_sshsig_allowed_line(&line, "gm", GM_NAMESPACES, gm_key)) < 0) {
			est_error_prefix("the GM's key");
			goto out;
		}
		if ((error = append(&text, &len, line)) < 0)
			goto out;
	}
	*out = text;
	text = NULL;
out:
	free(text);
	return error;
}

char *est_game_gm_key(const char *allowed_signers)
{
	est_sshsig_entry *entries = NULL;
	size_t n = 0;
	char *key = NULL;

	if (est_sshsig_read_entries(&entries, &n, allowed_signers, strlen(allowed_signers)) < 0) {
		est_error_clear();
		return NULL;
	}
	for (size_t i = 0; i < n && !key; i++)
		if (strcmp(entries[i].principal, "gm") == 0)
			key = strdup(entries[i].key);
	est_sshsig_entries_free(entries, n);
	return key;
}

static int damaged(const char *rev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int damaged(const char *rev, const char *fmt, ...)
{
	char what[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return est_error_set(EST_ENOTFOUND, "%s; so at %s the repository is damaged: estafette "
			     "writes one line per player of game.json, in its order, then the GM's, each "
			     "from a key it parsed, and any other line can let one person sign as another; "
			     "make the game again with estafette new, each key in the players file one "
			     "line of a .pub file", what, rev ? rev : "main");
}

/* The players' lines in game.json's order, then at most the GM's, and no key twice. */
static int check_entries(const est_sshsig_entry *e, size_t n, const json_t *players, const char *rev)
{
	size_t count = json_array_size(players), i, j;
	char *fp = NULL;
	json_t *p;
	int error = 0;

	json_array_foreach(players, i, p) {
		const char *id = json_string_value(json_object_get(p, "id"));

		if (i >= n)
			return damaged(rev, "keys/allowed_signers has no line for players[%zu] \"%s\" of "
				       "game.json", i, id ? id : "");
		if (!id || strcmp(e[i].principal, id) != 0 || strcmp(e[i].namespaces, EST_ORDERS_NAMESPACE) != 0)
			return damaged(rev, "keys/allowed_signers line %zu is for principal \"%s\" "
				       "namespaces=\"%s\", where game.json's players[%zu] is \"%s\" (namespaces=\"%s\")",
				       e[i].line, e[i].principal, e[i].namespaces, i, id ? id : "",
				       EST_ORDERS_NAMESPACE);
		if (est_sshsig_canonical_key(NULL, &fp, json_string_value(json_object_get(p, "key"))) < 0) {
			char reason[600];

			snprintf(reason, sizeof(reason), "%s", est_error_message());
			return damaged(rev, "game.json: players[%zu].key: %s", i, reason);
		}
		error = strcmp(fp, e[i].fingerprint) != 0 ?
			damaged(rev, "keys/allowed_signers line %zu lists key %s for \"%s\", but game.json "
				"gives %s", e[i].line, e[i].fingerprint, id, fp) : 0;
		free(fp);
		fp = NULL;
		if (error < 0)
			return error;
	}
	for (i = count; i < n; i++) {
		if (i > count || strcmp(e[i].principal, "gm") != 0 ||
		    (strcmp(e[i].namespaces, GM_NAMESPACES) != 0 &&
		     strcmp(e[i].namespaces, GM_NAMESPACES_BEFORE_RECEIPTS) != 0))
			return damaged(rev, "keys/allowed_signers line %zu (principal \"%s\" namespaces=\"%s\") "
				       "is one estafette does not write: after game.json's %zu players comes "
				       "only the GM's line, gm namespaces=\"%s\"", e[i].line, e[i].principal,
				       e[i].namespaces, count, GM_NAMESPACES);
		for (j = 0; j < count; j++)
			if (strcmp(e[i].fingerprint, e[j].fingerprint) == 0)
				return damaged(rev, "keys/allowed_signers line %zu gives the GM key %s, which is "
					       "also the key of player \"%s\" (line %zu)", e[i].line,
					       e[i].fingerprint, e[j].principal, e[j].line);
	}
	for (i = 0; i < count && i < n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(e[i].fingerprint, e[j].fingerprint) == 0)
				return damaged(rev, "keys/allowed_signers lines %zu and %zu give one key "
					       "(%s) to \"%s\" and \"%s\"", e[j].line, e[i].line,
					       e[i].fingerprint, e[j].principal, e[i].principal);
	return 0;
}

int est_game_check_keys(est_store *store, const char *rev)
{
	est_sshsig_entry *entries = NULL;
	json_t *game = NULL;
	char *text = NULL, reason[1024];
	size_t len, n = 0;
	int error;

	if ((error = est_store_read_json(&game, store, rev, "game.json")) < 0 ||
	    (error = est_store_read(&text, &len, store, rev, "keys/allowed_signers")) < 0)
		goto out;
	if ((error = est_sshsig_read_entries(&entries, &n, text, len)) < 0) {
		if (error == EST_EINVAL) {
			snprintf(reason, sizeof(reason), "%s", est_error_message());
			error = damaged(rev, "keys/%s", reason);
		}
		goto out;
	}
	error = check_entries(entries, n, json_object_get(game, "players"), rev);
out:
	est_sshsig_entries_free(entries, n);
	free(text);
	json_decref(game);
	return error;
}

int est_game_same_keys(const char *a, size_t a_len, const char *b, size_t b_len)
{
	est_sshsig_entry *ea = NULL, *eb = NULL;
	size_t na = 0, nb = 0, i;
	int same = est_sshsig_read_entries(&ea, &na, a, a_len) == 0 &&
		   est_sshsig_read_entries(&eb, &nb, b, b_len) == 0 && na == nb;

	for (i = 0; same && i < na; i++)
		same = strcmp(ea[i].principal, eb[i].principal) == 0 &&
		       strcmp(ea[i].namespaces, eb[i].namespaces) == 0 && strcmp(ea[i].key, eb[i].key) == 0;
	est_error_clear();
	est_sshsig_entries_free(ea, na);
	est_sshsig_entries_free(eb, nb);
	return same;
}
