/*
 * The players of a game (docs/gm-guide.md "Commands", the players file):
 * every rule a players list must keep, for `new` and for `gm replace`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/unicode.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "util/util.h"

static const char *const player_fields[] = {"id", "name", "email", "key", "powers", NULL};

static int power_known(const est_ruleset *rs, const char *power)
{
	for (const char *const *p = rs->powers(); *p; p++)
		if (strcmp(*p, power) == 0)
			return 1;
	return 0;
}

/*
 * A display name: 1-100 bytes, and none of util/unicode.h's code points at
 * all: it goes into mail headers and every report, where a line break could
 * forge a header and an invisible or bidirectional character could make one
 * player's name look like another's.
 */
static int check_name(const char *name, size_t i, const char *file)
{
	size_t n = strlen(name);
	est_unicode_problem bad;

	if (n == 0 || n > 100)
		return est_error_set(EST_EINVAL, "%s: players[%zu].name must be 1 to 100 bytes", file, i);
	if (est_unicode_check(&bad, name, n, EST_UNICODE_NAME) < 0)
		return est_error_set(EST_EINVAL, "%s: players[%zu].name holds %s at byte %zu, %s that could "
				     "forge a mail header or make the name look like another; write the name "
				     "without it, on one line", file, i, bad.what, bad.offset, bad.kind);
	/* Only ASCII's space can be told from the name's edge; a wider blank is a name's whole disguise. */
	if (name[0] == ' ' || name[n - 1] == ' ' || !est_unicode_has_visible(name, n))
		return est_error_set(EST_EINVAL, "%s: players[%zu].name \"%s\" starts or ends with a blank, "
				     "or is nothing but blanks; give the name the player is known by",
				     file, i, name);
	return 0;
}

/* Check one player of the players file; `i` numbers it in messages. */
static int check_player(const json_t *p, size_t i, const char *file, const est_ruleset *rs)
{
	const char *fields[] = {"id", "name", "email", "key"}, *key, *id, *email;
	char what[300];
	const char *field;
	json_t *value, *power;
	size_t j;
	int error;

	if (!json_is_object(p))
		return est_error_set(EST_EINVAL, "%s: players[%zu] is not an object", file, i);
	json_object_foreach((json_t *)p, field, value) {
		for (j = 0; player_fields[j] && strcmp(player_fields[j], field) != 0; j++)
			;
		if (!player_fields[j])
			return est_error_set(EST_EINVAL, "%s: players[%zu] has an unknown field \"%s\"; a "
					     "player has id, name, email, key and powers", file, i, field);
	}
	for (j = 0; j < 4; j++)
		if (!json_is_string(json_object_get(p, fields[j])))
			return est_error_set(EST_EINVAL, "%s: players[%zu].%s is missing or not a string; "
					     "every player needs id, name, email and key", file, i, fields[j]);
	id = json_string_value(json_object_get(p, "id"));
	if (!est_orders_is_id(id))
		return est_error_set(EST_EINVAL, "%s: players[%zu].id \"%s\" must be 1-64 of a-z 0-9 _ . -, "
				     "starting with a letter or digit", file, i, id);
	if (strcmp(id, "gm") == 0)
		return est_error_set(EST_EINVAL, "%s: players[%zu].id \"gm\" is the GM's principal in "
				     "keys/allowed_signers; give the player another id", file, i);
	if ((error = check_name(json_string_value(json_object_get(p, "name")), i, file)) < 0)
		return error;
	email = json_string_value(json_object_get(p, "email"));
	snprintf(what, sizeof(what), "%s: players[%zu].email", file, i);
	if ((error = est_mail_check_address(email, strlen(email), what)) < 0)
		return error;
	key = json_string_value(json_object_get(p, "key"));
	if ((error = est_sshsig_canonical_key(NULL, NULL, key)) < 0)
		return est_error_prefix("%s: players[%zu].key", file, i);
	if (json_object_get(p, "powers") &&
	    (!json_is_array(json_object_get(p, "powers")) || !json_array_size(json_object_get(p, "powers"))))
		return est_error_set(EST_EINVAL, "%s: players[%zu].powers must list at least one power, "
				     "or be left out to have powers dealt", file, i);
	json_array_foreach(json_object_get(p, "powers"), j, power)
		if (!json_is_string(power) || !power_known(rs, json_string_value(power)))
			return est_error_set(EST_EINVAL, "%s: players[%zu].powers[%zu] is not a power of %s",
					     file, i, j, rs->name);
	return 0;
}

/*
 * A player holding the GM's key could sign GM commits and acts. Keys are
 * compared by fingerprint, which est_sshsig_canonical_key makes one per key.
 */
static int check_gm_not_player(const json_t *players, const char *gm_key)
{
	char *gm = NULL, *fp = NULL;
	size_t i;
	json_t *p;
	int error = 0;

	if (!gm_key)
		return 0;
	if ((error = est_sshsig_canonical_key(NULL, &gm, gm_key)) < 0)
		return est_error_prefix("the GM's key");
	json_array_foreach(players, i, p) {
		/* The players' keys were checked already (check_distinct_keys). */
		if (est_sshsig_canonical_key(NULL, &fp, json_string_value(json_object_get(p, "key"))) < 0)
			est_error_clear();
		else if (strcmp(fp, gm) == 0)
			error = est_error_set(EST_EINVAL, "the GM's key (%s) is also the key of player \"%s\": "
					      "that player could sign as the GM; give the GM a key of its "
					      "own (estafette keygen)", gm,
					      json_string_value(json_object_get(p, "id")));
		free(fp);
		fp = NULL;
		if (error < 0)
			break;
	}
	free(gm);
	return error;
}

/* Two players with one key could each sign for the other. */
static int check_distinct_keys(const json_t *players, const char *file)
{
	json_t *seen = json_array(), *p;
	size_t i, j;
	int error = 0;

	json_array_foreach(players, i, p) {
		char *fp = NULL;

		if ((error = est_sshsig_canonical_key(NULL, &fp, json_string_value(json_object_get(p, "key")))) < 0) {
			est_error_prefix("%s: players[%zu].key", file, i);
			break;
		}
		for (j = 0; j < i; j++)
			if (strcmp(fp, json_string_value(json_array_get(seen, j))) == 0)
				error = est_error_set(EST_EINVAL, "%s: players[%zu] and players[%zu] have the same "
						      "key (%s): each could sign the other's orders; each "
						      "player needs a key of their own", file, j, i, fp);
		json_array_append_new(seen, json_string(fp));
		free(fp);
		if (error < 0)
			break;
	}
	json_decref(seen);
	return error;
}

/*
 * Check the players and deal powers to those without: the ruleset's
 * powers in its order, to the players in file order (docs/gm-guide.md "The players file").
 */
int est_game_check_players(const json_t *players, const char *gm_key, const char *file,
			     const est_ruleset *rs)
{
	json_t *p;
	size_t i;
	int error;

	json_array_foreach(players, i, p) {
		if ((error = check_player(p, i, file, rs)) < 0)
			return error;
		for (size_t j = 0; j < i; j++) {
			const json_t *q = json_array_get(players, j);

			if (json_equal(json_object_get(p, "id"), json_object_get(q, "id")))
				return est_error_set(EST_EINVAL, "%s: players[%zu].id repeats players[%zu].id",
						     file, i, j);
			/* Reports and mail name players by name: two alike would pass for each other. */
			if (strcasecmp(json_string_value(json_object_get(p, "name")),
				       json_string_value(json_object_get(q, "name"))) == 0)
				return est_error_set(EST_EINVAL, "%s: players[%zu].name is players[%zu].name "
						     "(\"%s\"): reports could not tell them apart; give "
						     "each player a name of their own", file, i, j,
						     json_string_value(json_object_get(q, "name")));
		}
	}
	if ((error = check_distinct_keys(players, file)) < 0)
		return error;
	return check_gm_not_player(players, gm_key);
}
