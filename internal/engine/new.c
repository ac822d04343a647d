/*
 * `estafette new`: a game repository at step 0 (docs/protocol.md
 * "The repository"). Step 0 draws no dice: any key it could use is public.
 */
#include <dirent.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "mail/mail.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/json.h"
#include "util/unicode.h"
#include "util/util.h"

/* Order files and turns keep their bytes exactly as signed. */
#define GITATTRIBUTES "orders/** -text\nturns/** -text\n"

static int deal_powers(json_t *players, const char *file, const est_ruleset *rs)
{
	const char *const *powers = rs->powers();
	size_t i, n = json_array_size(players), npowers = 0, next = 0;
	json_t *p, *dealt = NULL;
	int error;

	while (powers[npowers])
		npowers++;
	if (n == 0 || n > npowers)
		return est_error_set(EST_EINVAL, "%s: %zu players, but %s has %zu powers; "
				     "list 1 to %zu players", file, n, rs->name, npowers, npowers);
	if ((error = est_game_check_players(players, NULL, file, rs)) < 0)
		return error;
	if (rs->deal && (error = rs->deal(&dealt, n)) < 0)
		return error;
	json_array_foreach(players, i, p) {
		if (json_object_get(p, "powers"))
			continue;
		json_t *hand = dealt ? json_incref(json_array_get(dealt, i)) : json_array();
		for (size_t k = i; !dealt && k < npowers; k += n)
			json_array_append_new(hand, json_string(powers[k]));
		json_object_set_new(p, "powers", hand);
	}
	json_decref(dealt);
	for (const char *const *pw = powers; *pw; pw++, next++) {
		size_t holders = 0;
		json_array_foreach(players, i, p) {
			size_t j;
			json_t *h;
			json_array_foreach(json_object_get(p, "powers"), j, h)
				holders += strcmp(json_string_value(h), *pw) == 0;
		}
		if (holders > 1 || (holders == 0 && !rs->powers_optional))
			return est_error_set(EST_EINVAL, "%s: power \"%s\" is held by %zu players; "
					     "each power needs %s one", file, *pw, holders,
					     rs->powers_optional ? "at most" : "exactly");
	}
	return 0;
}

/*
 * One data file `dir`/`name` into rules (key: the name without ".json").
 * Replacing (`replace` set) is only for a name rules already holds, so a
 * misspelt file is refused instead of ignored.
 */
static int add_data_file(json_t *rules, json_t *raw, const char *dir, const char *name, int replace)
{
	size_t len = strlen(name), size;
	char *path = est_strdup_printf("%s/%s", dir, name), *bytes = NULL, *key = strndup(name, len - 5);
	json_t *value = NULL;
	int error;

	if (!path || !key) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (replace && !json_object_get(rules, key)) {
		error = est_error_set(EST_EINVAL, "--rules %s: %s is not a data file of this ruleset; name "
				      "the file after the one it replaces (the game's rules/ lists them)", dir, name);
		goto out;
	}
	if ((error = est_file_read(&bytes, &size, path, 1 << 22)) < 0 ||
	    (error = est_json_parse(&value, bytes, size, path)) < 0)
		goto out;
	if (!json_is_object(value)) {
		error = est_error_set(EST_EINVAL, "%s: a rules data file is one JSON object; fix the file", path);
		goto out;
	}
	json_object_set_new(rules, key, value);
	value = NULL;
	/* rules/ keeps each file's bytes as written, so a GM's file reads as the GM wrote it. */
	if (json_object_set_new(raw, name, json_stringn(bytes, size)) < 0)
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(value);
	free(bytes);
	free(key);
	free(path);
	return error;
}

/* Every NAME.json of `dir` into rules, in name order. */
static int add_data_dir(json_t *rules, json_t *raw, const char *dir, int replace)
{
	struct dirent **entries = NULL;
	int n = scandir(dir, &entries, NULL, alphasort), error = 0;

	if (n < 0)
		return est_error_set(EST_ENOTFOUND, "%s: cannot read the folder (%s); name a folder of rules "
				     "data files", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *name = entries[i]->d_name;
		size_t len = strlen(name);
		if (!error && len > 5 && len < 200 && strcmp(name + len - 5, ".json") == 0 && name[0] != '.')
			error = add_data_file(rules, raw, dir, name, replace);
		free(entries[i]);
	}
	free(entries);
	return error;
}

/*
 * The ruleset's data files (*.json), with those of `new --rules DIR` in
 * their place, merged for setup() and written to rules/ as they are.
 */
static int read_ruleset_data(json_t **rules_out, est_changes *c, const est_ruleset *rs,
			     const char *rules_dir)
{
	char *sub = est_strdup_printf("rulesets/%s/data", rs->name), *dir = NULL;
	json_t *rules = json_object(), *raw = json_object(), *value;
	const char *name;
	int error = 0;

	if (!sub || !(dir = est_game_datadir(sub))) {
		error = sub ? EST_ECONFIG : est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = add_data_dir(rules, raw, dir, 0)) < 0 ||
	    (rules_dir && (error = add_data_dir(rules, raw, rules_dir, 1)) < 0))
		goto out;
	json_object_foreach(raw, name, value) {
		size_t len = json_string_length(value);
		char *bytes = malloc(len + 1);
		if (bytes)
			memcpy(bytes, json_string_value(value), len + 1);
		if ((error = est_changes_add(c, est_strdup_printf("rules/%s", name), bytes, len)) < 0)
			goto out;
	}
	*rules_out = rules;
	rules = NULL;
out:
	json_decref(raw);
	json_decref(rules);
	free(dir);
	free(sub);
	return error;
}

static json_t *game_json(const char *id, const est_ruleset *rs, const est_new_options *opts,
			 json_t *players, const est_secrets *secrets)
{
	unsigned char tip[32], hidden_tip[32];
	char tip_hex[65], hidden_hex[65];
	json_t *options = opts->options ? json_deep_copy(opts->options) : json_object();
	json_t *dice;

	est_dice_chain_value(tip, secrets->chain, EST_DICE_CHAIN_LENGTH);
	est_dice_chain_value(hidden_tip, secrets->hidden, EST_DICE_CHAIN_LENGTH);
	est_hex_encode(tip_hex, tip, 32);
	est_hex_encode(hidden_hex, hidden_tip, 32);
	dice = json_pack("{s:s, s:i, s:s, s:s}", "algorithm", opts->dice_protocol &&
			 strcmp(opts->dice_protocol, "v1") == 0 ? EST_DICE_ALGORITHM : EST_DICE_ALGORITHM_V2,
			 "chain_length", EST_DICE_CHAIN_LENGTH, "chain_tip", tip_hex,
			 "hidden_chain_tip", hidden_hex);
	if (opts->test_secret)
		json_object_set_new(dice, "test_secret", json_string(opts->test_secret));
	json_t *game = json_pack("{s:s, s:s, s:s, s:s, s:O?, s:o, s:O, s:{s:i, s:i}, s:o, s:s, s:O*}",
		"estafette", "game/1", "id", id, "ruleset", rs->name, "ruleset_version", rs->version,
		"scenario", json_object_get(options, "scenario"), "options", options,
		"players", players, "schedule", "deadline_hours", opts->deadline_hours,
		"reminder_hours", opts->reminder_hours,
		"dice", dice, "estafette_version", EST_VERSION,
		"sealed", opts->sealed ? json_true() : NULL);

	json_t *schedule = json_object_get(game, "schedule");
	/* The --schedule file first; the options given on the command line win over it. */
	if (game && opts->schedule) {
		const char *key;
		json_t *value;
		json_object_foreach((json_t *)opts->schedule, key, value)
			json_object_set(schedule, key, value);
		if (opts->deadline_hours)
			json_object_set_new(schedule, "deadline_hours", json_integer(opts->deadline_hours));
		if (opts->reminder_hours)
			json_object_set_new(schedule, "reminder_hours", json_integer(opts->reminder_hours));
	}
	if (game && (opts->press || opts->press_by_mail))
		json_object_set_new(game, "press", json_pack("{s:s, s:s}", "mode",
				    opts->press ? opts->press : "full", "delivery",
				    opts->press_by_mail ? "mail" : "report"));
	/* The deal's name seeds the hidden stream of every game of the deal (deal.c). */
	if (game && opts->deal)
		json_object_set_new(game, "deal", json_string(opts->deal));
	/* Every commit is the GM's: a runner without the key must not add unsigned ones. */
	if (game && opts->signing_key)
		json_object_set_new(game, "signed_history", json_true());
	if (game && opts->sealed_orders) {
		json_object_set_new(game, "sealed_orders", json_true());
		if (opts->reveal_hours || !json_object_get(schedule, "reveal_hours"))
			json_object_set_new(schedule, "reveal_hours",
					    json_integer(opts->reveal_hours ? opts->reveal_hours : 24));
	}
	return game;
}

static int read_players(json_t **out, const char *file, const est_ruleset *rs)
{
	json_t *root = NULL, *players;
	char *text = NULL;
	size_t len;
	int error;

	if ((error = est_file_read(&text, &len, file, 1 << 20)) < 0)
		return error;
	if ((error = est_json_parse(&root, text, len, file)) < 0)
		goto out;
	if (!json_is_array(players = json_object_get(root, "players"))) {
		error = est_error_set(EST_EINVAL, "%s: field \"players\" must be an array of players", file);
		goto out;
	}
	if ((error = deal_powers(players, file, rs)) < 0)
		goto out;
	*out = json_incref(players);
out:
	json_decref(root);
	free(text);
	return error;
}

static int read_gm_key(char **out, const char *file)
{
	size_t len;
	int error;

	*out = NULL;
	if (!file)
		return 0;
	if ((error = est_file_read(out, &len, file, 16384)) < 0)
		return error;
	while (len > 0 && ((*out)[len - 1] == '\n' || (*out)[len - 1] == '\r'))
		(*out)[--len] = '\0';
	/* The file is a .pub file's one line; a second line would be a key of its own. */
	if (strlen(*out) != len)
		return est_error_set(EST_EINVAL, "--gm-key %s: holds a NUL byte; give the GM's .pub file", file);
	if ((error = est_sshsig_canonical_key(NULL, NULL, *out)) < 0)
		return est_error_prefix("--gm-key %s", file);
	return 0;
}

static char *default_id(const char *dir)
{
	char *copy = strdup(dir), *id;

	if (!copy)
		return NULL;
	id = strdup(basename(copy));
	free(copy);
	return id;
}

/* An empty folder or none at all: the only places a game may be created. */
static int check_target(const char *dir)
{
	struct dirent **entries = NULL;
	int n = scandir(dir, &entries, NULL, NULL), error = 0;

	if (n < 0)
		return est_path_exists(dir) ? est_error_set(EST_EINVAL, "%s: exists and is not a folder; "
							    "choose another place for the game", dir) : 0;
	if (n > 2)
		error = est_error_set(EST_EINVAL, "%s: already exists and is not empty; choose a new "
				      "folder for the game", dir);
	for (int i = 0; i < n; i++)
		free(entries[i]);
	free(entries);
	return error;
}

static void remove_sealed_store(const char *home, const char *id)
{
	char *path = est_sealed_path(home, id);

	if (path && est_remove_tree(path) < 0)
		est_error_clear();
	free(path);
}

/*
 * The GM's folder for the game (0700: the sealed store is as secret as the
 * dice). The game's secrets are not there yet (est_secrets_check_free), so
 * a sealed store that is can only be a killed `new`'s.
 */
static int make_sealed_store(const char *home, const char *id)
{
	char *dir = est_strdup_printf("%s/games/%s", home, id);
	int error;

	if (!dir)
		return est_error_set(EST_ENOMEM, "out of memory");
	remove_sealed_store(home, id);
	if ((error = est_mkdir_p(dir, 0700)) == 0)
		error = est_sealed_create(home, id);
	free(dir);
	return error;
}

/* Remove the "DIR.new-PID" folders of `new`s that were killed (their process is gone). */
static void remove_stale_attempts(const char *dir)
{
	char *copy = strdup(dir), *copy2 = strdup(dir), *parent, *base, *path;
	struct dirent **entries = NULL;
	int n;

	if (!copy || !copy2)
		goto out;
	parent = dirname(copy);
	base = basename(copy2);
	n = scandir(parent, &entries, NULL, NULL);
	for (int i = 0; i < n; i++) {
		const char *name = entries[i]->d_name, *rest;
		char *end;
		long pid;
		if (strncmp(name, base, strlen(base)) == 0 && strncmp(rest = name + strlen(base), ".new-", 5) == 0 &&
		    (pid = strtol(rest + 5, &end, 10)) > 0 && !*end && kill((pid_t)pid, 0) < 0 && errno == ESRCH &&
		    (path = est_strdup_printf("%s/%s", parent, name))) {
			if (est_remove_tree(path) < 0)
				est_error_clear();
			free(path);
		}
		free(entries[i]);
	}
	free(entries);
out:
	free(copy);
	free(copy2);
}

/*
 * Commit step 0 in a folder beside `dir`, save the dice secrets, then
 * rename the folder into place: a `new` killed at any point leaves no
 * half-made game under `dir`. What a killed `new` left beside it (a
 * "DIR.new-PID" folder of a process that is gone, a sealed store without
 * secrets) the next `new` removes; secrets saved before the kill are named
 * by est_secrets_check_free.
 */
static int create_in_place(char oid[EST_STORE_OID_HEX + 1], const char *dir, est_changes *c,
			   const char *msg, const est_secrets *secrets, const char *home, const char *id,
			   const est_signing_key *key, const char *key_path, int sealed)
{
	char *tmp = est_strdup_printf("%s.new-%ld", dir, (long)getpid());
	est_store *store = NULL;
	int error;

	if (!tmp)
		return est_error_set(EST_ENOMEM, "out of memory");
	remove_stale_attempts(dir);
	if ((error = check_target(dir)) < 0 || (error = est_store_init(&store, tmp)) < 0)
		goto out;
	est_game_sign_with(store, key);
	if ((error = est_store_commit(oid, store, NULL, c->items, c->count, msg, "step-0000")) < 0 ||
	    (key_path && (error = est_store_config_set(store, "estafette.signingkey", key_path)) < 0))
		goto out;
	est_store_free(store);
	store = NULL;
	/* Before the secrets, which make the id taken: a failure here leaves only the mark. */
	if ((error = est_mail_outbox_mark_maker(home, id)) < 0 ||
	    (sealed && (error = make_sealed_store(home, id)) < 0))
		goto out;
	if ((error = est_secrets_save(secrets, home, id)) < 0) {
		if (sealed)
			remove_sealed_store(home, id);
		goto out;
	}
	/* libgit2 syncs the objects and refs it writes, not the folders it makes. */
	if ((error = est_dir_sync_tree(tmp)) < 0)
		goto out;
	if (rename(tmp, dir) < 0)
		error = est_error_set(EST_EIO, "%s: cannot move the new game into place: %s", dir,
				      strerror(errno));
	else
		error = est_dir_sync_parent(dir);
out:
	est_store_free(store);
	if (error < 0 && est_remove_tree(tmp) < 0)
		est_error_clear();
	free(tmp);
	return error;
}

/* game.json, state.json, keys/allowed_signers and .gitattributes of step 0. */
static int step0_files(est_changes *c, char sha[65], const char *id, const est_ruleset *rs,
		       const est_new_options *opts, json_t *players, const char *gm_key,
		       const json_t *rules, const est_secrets *secrets)
{
	json_t *game = game_json(id, rs, opts, players, secrets), *wrapped = NULL;
	char *signers = NULL, *state_text = NULL;
	int error;

	if (!game)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_turn_setup(&wrapped, rs, rules, game)) < 0) {
		json_decref(game);
		return error;
	}
	state_text = est_json_text(wrapped);
	if ((error = est_game_allowed_signers(&signers, players, gm_key)) < 0 || !game || !wrapped ||
	    !state_text) {
		free(signers);
		free(state_text);
		if (error == 0)
			error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_sha256_hex(sha, state_text, strlen(state_text));
	if ((error = est_changes_add_json(c, "game.json", game)) < 0 ||
	    (error = est_changes_add(c, strdup("state.json"), state_text, strlen(state_text))) < 0 ||
	    (error = est_changes_add(c, strdup("keys/allowed_signers"), signers, strlen(signers))) < 0)
		goto out;
	error = est_changes_add(c, strdup(".gitattributes"), strdup(GITATTRIBUTES), strlen(GITATTRIBUTES));
out:
	json_decref(wrapped);
	json_decref(game);
	return error;
}

/*
 * "TYPE BASE64" of a public line: the comment of a private key file is
 * not the GM's to vouch for, and keys/allowed_signers keeps none.
 */
static void cut_to_key(char *line)
{
	size_t n = strcspn(line, " \r\n");

	if (line[n] == ' ')
		n += 1 + strcspn(line + n + 1, " \r\n");
	line[n] = '\0';
}

/*
 * The GM's signing key (--gm-signing-key): its text, its absolute path for
 * the game's git config, and its public line for keys/allowed_signers when
 * --gm-key gave none.
 */
static int read_signing_key(est_signing_key *k, char **path_out, char **gm_key, const char *file)
{
	int error;

	if (!file)
		return 0;
	if ((error = est_file_read_private(&k->key, &k->len, file, 65536)) < 0)
		return est_error_prefix("--gm-signing-key");
	if (!(*path_out = realpath(file, NULL)))
		return est_error_set(EST_EIO, "%s: cannot resolve the path", file);
	if (!*gm_key) {
		if ((error = est_sshsig_public_key(gm_key, k->key, k->len)) < 0)
			return est_error_prefix("--gm-signing-key %s", file);
		cut_to_key(*gm_key);
	}
	return 0;
}

/* The GM keys' folder: the GM's own, and no one else may write in it. */
static int private_dir(const char *dir)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return est_error_set(EST_EIO, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022))
		return est_error_set(EST_ECONFIG, "%s: the folder of the GM keys must be a folder of yours "
				     "that no one else may write in; chmod 700 %s", dir, dir);
	return 0;
}

/*
 * Signed history by default: a game given neither --gm-signing-key nor
 * --gm-key gets a GM key of its own, $ESTAFETTE_HOME/gm/<id> (mode 0600,
 * its public line beside it as <id>.pub), which `new` then signs with as
 * with --gm-signing-key. A key a killed `new` left there is replaced: its
 * game never came to be (est_secrets_check_free found the id free).
 */
static int make_gm_key(char **path_out, const char *home, const char *id)
{
	char *dir = est_strdup_printf("%s/gm", home), *path = est_strdup_printf("%s/gm/%s", home, id);
	char *pub_path = est_strdup_printf("%s/gm/%s.pub", home, id), *comment = est_strdup_printf("gm@%s", id);
	char *priv = NULL, *pub = NULL;
	int error;

	if (!dir || !path || !pub_path || !comment) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* A key is never replaced: a game of this id may still need it to sign. */
	if (access(path, F_OK) == 0 || errno != ENOENT) {
		error = est_error_set(EST_ECONFIG, "%s: a GM key for a game \"%s\" is already there, from a "
				      "game made here before (or a `new` that was killed); give this game "
				      "another --id, or, if that game is gone for good, move the key away "
				      "and run new again", path, id);
		goto out;
	}
	if ((error = est_mkdir_p(dir, 0700)) < 0 || (error = private_dir(dir)) < 0 ||
	    (error = est_sshsig_keygen(&priv, &pub, comment)) < 0 ||
	    (error = est_file_write_atomic(path, priv, strlen(priv), 0600)) < 0 ||
	    (error = est_file_write_atomic(pub_path, pub, strlen(pub), 0644)) < 0)
		goto out;
	*path_out = path;
	path = NULL;
out:
	if (priv)
		OPENSSL_clear_free(priv, strlen(priv));
	free(pub);
	free(comment);
	free(pub_path);
	free(path);
	free(dir);
	return error;
}

static int check_names(const est_ruleset *rs, const char *name, const char *id)
{
	if (!rs) {
		char list[256] = "";
		for (const char *const *n = est_game_ruleset_names(); *n; n++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", *list ? ", " : "", *n);
		return est_error_set(EST_EUSAGE, "--ruleset \"%s\" is not a ruleset of this estafette; "
				     "choose one of %s", name ? name : "", list);
	}
	if (!est_orders_is_id(id))
		return est_error_set(EST_EUSAGE, "game id \"%s\" must be 1-64 of a-z 0-9 _ . -, starting "
				     "with a letter or digit; pass --id", id ? id : "");
	return 0;
}

static int check_sealable(const est_ruleset *rs, const est_new_options *opts)
{
	if (opts->sealed && !rs->sealed)
		return est_error_set(EST_EUSAGE, "--sealed: %s has no hidden information to seal; "
				     "leave --sealed out", rs->name);
	if (opts->sealed && opts->sealed_orders)
		return est_error_set(EST_EUSAGE, "--sealed-orders: a sealed game keeps every order "
				     "file from the public until reveal already; leave --sealed-orders out");
	if ((opts->reveal_hours || json_object_get(opts->schedule, "reveal_hours")) && !opts->sealed_orders)
		return est_error_set(EST_EUSAGE, "--reveal-hours (schedule.reveal_hours) is for games with "
				     "--sealed-orders");
	if (opts->schedule && ((opts->deadline_hours && json_object_get(opts->schedule, "deadline_hours")) ||
			       (opts->reminder_hours && json_object_get(opts->schedule, "reminder_hours")) ||
			       (opts->reveal_hours && json_object_get(opts->schedule, "reveal_hours"))))
		return est_error_set(EST_EUSAGE, "the --schedule file and a --*-hours option both set the "
				     "same hours; give each in one place");
	if (opts->press && strcmp(opts->press, "none") == 0 && opts->press_by_mail)
		return est_error_set(EST_EUSAGE, "--press-by-mail with --press none: there is no press "
				     "to mail; leave one out");
	if (opts->press && strcmp(opts->press, "full") != 0 && strcmp(opts->press, "public") != 0 &&
	    strcmp(opts->press, "none") != 0)
		return est_error_set(EST_EUSAGE, "--press \"%s\": choose full (to all or to chosen "
				     "players), public (to all only) or none", opts->press);
	return 0;
}

/* --deal and --deal-from: what they may be given with. */
static int check_deal_options(const est_new_options *opts)
{
	if (opts->deal && opts->deal_from)
		return est_error_set(EST_EINVAL, "--deal and --deal-from: a game starts a deal or joins "
				     "one; give --deal NAME for the first game, --deal-from GAME for the others");
	if (opts->deal && !est_orders_is_id(opts->deal))
		return est_error_set(EST_EINVAL, "--deal \"%s\": a deal's name must be 1-64 of a-z 0-9 _ . -, "
				     "starting with a letter or digit", opts->deal);
	if (opts->dice_protocol && strcmp(opts->dice_protocol, "v1") != 0 && strcmp(opts->dice_protocol, "v2") != 0)
		return est_error_set(EST_EINVAL, "--dice-protocol \"%s\": the dice protocols are v2 (new "
				     "games) and v1 (as earlier versions made them); give one of them",
				     opts->dice_protocol);
	if (!opts->deal_from)
		return 0;
	if (opts->dice_protocol)
		return est_error_set(EST_EINVAL, "--deal-from with --dice-protocol: a deal draws by the "
				     "protocol of %s; leave --dice-protocol out", opts->deal_from);
	if (opts->rules_dir)
		return est_error_set(EST_EINVAL, "--deal-from with --rules: a deal has one rule set, that "
				     "of %s; leave --rules out", opts->deal_from);
	if (opts->options && json_object_size(opts->options))
		return est_error_set(EST_EINVAL, "--deal-from with --scenario or --option: a deal has the "
				     "options of %s; leave them out", opts->deal_from);
	if (opts->test_secret)
		return est_error_set(EST_EINVAL, "--deal-from with --test-dice-secret: a deal has the dice "
				     "secrets of %s; leave --test-dice-secret out", opts->deal_from);
	return 0;
}

/*
 * The dice secrets, rules and options of the new game: its own, or those of
 * the game it joins the deal of (`o`, a copy of the options, then names them).
 */
static int game_sources(est_secrets *secrets, json_t **rules, json_t **options, est_new_options *o,
			est_deal_source *src, est_changes *c, const est_ruleset *rs, const char *home)
{
	int error;

	if (!o->deal_from) {
		if ((error = read_ruleset_data(rules, c, rs, o->rules_dir)) < 0)
			return error;
		return est_secrets_generate(secrets, o->test_secret);
	}
	if ((error = est_deal_join(src, c, o->deal_from, rs, home)) < 0)
		return error;
	*secrets = src->secrets;
	/*
	 * Only the hidden chain is the deal's: its public chain is the game's own,
	 * or a player could read another game's reveal of step t and work out his
	 * own step-t rolls before sending his orders. (Test-secret deals are
	 * public anyway: both chains come from the text.)
	 */
	if (!src->test_secret && RAND_bytes(secrets->chain, sizeof(secrets->chain)) != 1)
		return est_error_set(EST_ERROR, "the system random source failed");
	*rules = json_incref(src->rules);
	json_decref(*options);
	/* Who holds what (ruleset.h powers_optional) is this game's own: tell_holders() sets it. */
	if (!(*options = json_deep_copy(src->options)))
		return est_error_set(EST_ENOMEM, "out of memory");
	json_object_del(*options, "players");
	o->options = *options;
	o->deal = src->deal;
	o->test_secret = src->test_secret;
	o->dice_protocol = src->dice_protocol;
	return 0;
}

/* ruleset.h powers_optional: options["players"], the powers each player holds, for setup() and game.json. */
static int tell_holders(json_t **options, est_new_options *opts, const est_ruleset *rs, const json_t *players)
{
	json_t *copy, *held = json_array(), *p;
	size_t i;

	if (!rs->powers_optional) {
		json_decref(held);
		return 0;
	}
	if (json_object_get(*options, "players")) {
		json_decref(held);
		return est_error_set(EST_EINVAL, "option \"players\" is set by `new` from the players file; "
				     "remove it");
	}
	json_array_foreach(players, i, p)
		json_array_append(held, json_object_get(p, "powers"));
	copy = json_deep_copy(*options);
	if (!copy || json_object_set_new(copy, "players", held) < 0) {
		json_decref(copy);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_decref(*options);
	*options = copy;
	opts->options = copy;
	return 0;
}

/*
 * ruleset.h deal_private: a dealt game keeps its progress sealed, its state
 * told by options["deal"] (the deal's name; a joining game has it among the
 * options it copied). Other rulesets' deals are as before.
 */
static int tell_deal(json_t **options, est_new_options *opts, const est_ruleset *rs)
{
	json_t *copy;

	if (!rs->deal_private)
		return 0;
	/* A joining game's options, copied from the deal's first game, already name it. */
	if (!opts->deal_from && json_object_get(*options, "deal"))
		return est_error_set(EST_EINVAL, "option \"deal\" is set by `new --deal NAME`; remove it "
				     "and give --deal NAME to start a deal");
	if (!opts->deal)
		return 0;
	opts->sealed = 1;
	if (opts->deal_from)
		return 0;
	copy = json_deep_copy(*options);
	if (!copy || json_object_set_new(copy, "deal", json_string(opts->deal)) < 0) {
		json_decref(copy);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_decref(*options);
	*options = copy;
	opts->options = copy;
	return 0;
}

/*
 * $ESTAFETTE_HOME/games/<id>/deal.json: {"deal", "path"}, so that `reveal`
 * finds the deal's other games on this host (they share its secrets).
 */
static int record_deal(const char *home, const char *id, const char *deal, const char *path)
{
	json_t *doc = json_pack("{s:s, s:s}", "deal", deal, "path", path);
	char *file = est_strdup_printf("%s/games/%s/deal.json", home, id), *text = doc ? est_json_text(doc) : NULL;
	int error;

	if (!file || !text)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if ((error = est_file_write_atomic(file, text, strlen(text), 0600)) < 0)
		est_error_prefix("the game is made, but its deal's record is not: reveal will not find it");
	free(text);
	free(file);
	json_decref(doc);
	return error;
}

int est_engine_new(json_t **summary_out, const est_new_options *opts_in)
{
	est_new_options copy = *opts_in, *opts = &copy;
	est_deal_source src = {0};
	const est_ruleset *rs = est_game_ruleset(opts->ruleset);
	char *id = opts->id ? strdup(opts->id) : default_id(opts->dir), *home = NULL, *gm_key = NULL;
	char oid[EST_STORE_OID_HEX + 1], *msg = NULL, sha[65], *path = NULL;
	json_t *players = NULL, *rules = NULL;
	json_t *options = opts->options ? json_incref(opts->options) : json_object();
	est_signing_key key = {0};
	char *key_path = NULL, *made_key = NULL;
	est_changes c = {0};
	est_secrets secrets;
	int error;

	if ((error = check_names(rs, opts->ruleset, id)) < 0 || (error = check_sealable(rs, opts)) < 0 ||
	    (error = check_deal_options(opts)) < 0)
		goto out;
	if (!(home = est_home_dir())) {
		error = est_error_set(EST_ECONFIG, "neither ESTAFETTE_HOME nor HOME is set");
		goto out;
	}
	if ((error = est_secrets_check_free(home, id)) < 0)
		goto out;
	if (!opts->signing_key && !opts->gm_key) {
		if ((error = make_gm_key(&made_key, home, id)) < 0)
			goto out;
		opts->signing_key = made_key;
	}
	if ((error = read_players(&players, opts->players_file, rs)) < 0 ||
	    (error = read_gm_key(&gm_key, opts->gm_key)) < 0 ||
	    (error = read_signing_key(&key, &key_path, &gm_key, opts->signing_key)) < 0 ||
	    (error = est_game_check_players(players, gm_key, opts->players_file, rs)) < 0 ||
	    (error = game_sources(&secrets, &rules, &options, opts, &src, &c, rs, home)) < 0 ||
	    (error = tell_holders(&options, opts, rs, players)) < 0 ||
	    (error = tell_deal(&options, opts, rs)) < 0 ||
	    (error = step0_files(&c, sha, id, rs, opts, players, gm_key, rules, &secrets)) < 0)
		goto out;
	msg = est_strdup_printf("new game %s: %s %s\n\nEstafette-Step: 0\nEstafette-State-SHA256: %s\n",
				id, rs->name, rs->version, sha);
	if ((error = create_in_place(oid, opts->dir, &c, msg, &secrets, home, id, &key, key_path,
				     opts->sealed)) < 0)
		goto out;
	path = realpath(opts->dir, NULL);
	if (opts->deal && (error = record_deal(home, id, opts->deal, path ? path : opts->dir)) < 0)
		goto out;
	*summary_out = json_pack("{s:s, s:s, s:s, s:O, s:s, s:s, s:s?, s:s?, s:b}", "game", id, "ruleset",
				 rs->name, "path", path ? path : opts->dir, "players", players, "commit", oid,
				 "state_sha256", sha, "deal", opts->deal, "gm_signing_key", key_path,
				 "gm_key_made", made_key != NULL);
out:
	if (error < 0 && made_key) {
		char *pub = est_strdup_printf("%s.pub", made_key);
		unlink(made_key);
		if (pub)
			unlink(pub);
		free(pub);
	}
	free(made_key);
	OPENSSL_cleanse(&secrets, sizeof(secrets));
	est_deal_source_free(&src);
	free(path);
	free(msg);
	if (key.key)
		memset(key.key, 0, key.len);
	free(key.key);
	free(key_path);
	est_changes_free(&c);
	json_decref(options);
	json_decref(rules);
	json_decref(players);
	free(gm_key);
	free(home);
	free(id);
	return error;
}
