/*
 * Opening a game: game.json, rules/, state.json and keys/allowed_signers
 * at refs/heads/main, and what the state awaits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "game/game.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

int est_game_read_json(json_t **out, est_game *game, const char *rev, const char *path)
{
	return est_store_read_json(out, game->store, rev, path);
}

void est_step_name(char buf[32], long long step)
{
	snprintf(buf, 32, "%04lld", step);
}

char *est_game_home_path(const est_game *game, const char *name)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));

	return est_strdup_printf("%s/games/%s/%s", game->home, id, name);
}

/*
 * Is `path` (a file or a folder) the same at `rev` as at step-0000 (both
 * missing counts as the same)? By object id: audit asks at every step.
 */
static int same_as_created(est_store *store, const char *rev, const char *path)
{
	char a[EST_STORE_OID_HEX + 1], b[EST_STORE_OID_HEX + 1];
	int ea = est_store_id(a, store, rev, path), eb = est_store_id(b, store, "step-0000", path);

	est_error_clear();
	return ea == eb && (ea < 0 || strcmp(a, b) == 0);
}

/*
 * Is `path` at `rev` exactly `text`? keys/allowed_signers by its lines'
 * principals, namespaces and keys: a game made before estafette dropped
 * the keys' comments keeps them in its lines (est_sshsig_read_entries).
 */
static int same_as(est_store *store, const char *rev, const char *path, const char *text)
{
	char *bytes = NULL;
	size_t len;
	int same = est_store_read(&bytes, &len, store, rev, path) == 0 &&
		   (strcmp(path, "keys/allowed_signers") == 0 ? est_game_same_keys(bytes, len, text, strlen(text)) :
		    len == strlen(text) && memcmp(bytes, text, len) == 0);

	est_error_clear();
	free(bytes);
	return same;
}

int est_game_fixed_files(char **changed_out, est_store *store, const char *rev)
{
	static const char *const fixed[] = {"game.json", "keys/allowed_signers", ".gitattributes"};
	char **names = NULL, path[300], *expected[2] = {NULL, NULL};
	size_t count = 0, created = 0, i;
	int error, same;

	*changed_out = NULL;
	/* The players and their keys: step 0's, or as the GM's replace acts made them (replace.c). */
	if ((error = est_replace_expected(&expected[0], &expected[1], store, rev)) < 0)
		return est_error_prefix("keys/replacements.json");
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && !*changed_out; i++) {
		same = i < 2 && expected[i] ? same_as(store, rev, fixed[i], expected[i]) :
		       same_as_created(store, rev, fixed[i]);
		if (!same && !(*changed_out = strdup(fixed[i])))
			error = est_error_set(EST_ENOMEM, "out of memory");
	}
	free(expected[0]);
	free(expected[1]);
	if (error < 0 || *changed_out || same_as_created(store, rev, "rules"))
		return error;
	/* Something in rules/ differs: find what, to name it. */
	if ((error = est_store_list(&names, &count, store, rev, "rules")) < 0) {
		/* rules/ made a file (or a link): that is the change to name */
		if (error != EST_EINVAL)
			return error;
		est_error_clear();
		return (*changed_out = strdup("rules/")) ? 0 : est_error_set(EST_ENOMEM, "out of memory");
	}
	for (i = 0; i < count && !*changed_out; i++) {
		snprintf(path, sizeof(path), "rules/%s", names[i]);
		if (!same_as_created(store, rev, path) && !(*changed_out = strdup(path)))
			error = est_error_set(EST_ENOMEM, "out of memory");
	}
	est_store_list_free(names);
	if (!error && !*changed_out && (error = est_store_list(&names, &created, store, "step-0000", "rules")) == 0) {
		if (created != count && !(*changed_out = strdup("rules/")))
			error = est_error_set(EST_ENOMEM, "out of memory");
		est_store_list_free(names);
	}
	return error;
}

/*
 * game.json, rules/ and the keys are fixed when the game is made: a hand
 * edit there would change the game under its players (and a sealed game
 * whose "sealed" was edited away would play on its commitments).
 */
static int check_fixed(est_game *game)
{
	char *changed = NULL, created[EST_STORE_OID_HEX + 1];
	int error;

	if (est_store_tag_target(created, game->store, "step-0000") < 0) {
		est_error_clear();
		return 0;
	}
	if ((error = est_game_fixed_files(&changed, game->store, NULL)) < 0 || !changed)
		return error;
	error = est_error_set(EST_ECONFIG, "%s: %s at main is not the one the game was created with "
			      "(tag step-0000): it is fixed for the whole game; restore it with git -C %s "
			      "checkout step-0000 -- %s and commit", est_store_path(game->store), changed,
			      est_store_path(game->store), changed);
	free(changed);
	return error;
}

/*
 * The keys players sign with are the lines estafette writes for game.json
 * (keys.c), at main and at step-0000: check_fixed compares main with step
 * 0, and a line step 0 itself holds (pasted there from a key string with a
 * line break) would otherwise pass every later check.
 */
static int check_keys(est_game *game)
{
	char created[EST_STORE_OID_HEX + 1];
	int error;

	if ((error = est_game_check_keys(game->store, NULL)) < 0)
		return est_error_prefix("%s", est_store_path(game->store));
	if (est_store_tag_target(created, game->store, "step-0000") < 0) {
		est_error_clear();
		return 0;
	}
	/* Most games never change their keys: then main's check was step 0's. */
	if (same_as_created(game->store, NULL, "keys/allowed_signers") &&
	    same_as_created(game->store, NULL, "game.json"))
		return 0;
	if ((error = est_game_check_keys(game->store, "step-0000")) < 0)
		return est_error_prefix("%s", est_store_path(game->store));
	return 0;
}

/*
 * state.json changes only with a step, so main's must be the very file its
 * step's tag holds: a hand edit (not JSON, another step or game, more
 * armies, a link) is named here, not played on or failing deep in a ruleset.
 */
static int check_state(est_game *game, const json_t *state)
{
	const json_t *step;
	char tag[32] = "", at_main[EST_STORE_OID_HEX + 1], at_tag[EST_STORE_OID_HEX + 1];
	int same = 0;

	if (est_store_tag_target(at_tag, game->store, "step-0000") < 0) {
		est_error_clear();
		return 0;
	}
	if (json_is_integer(step = json_object_get(state, "step")) && json_integer_value(step) >= 0 &&
	    json_integer_value(step) <= EST_ORDERS_MAX_STEP) {
		snprintf(tag, sizeof(tag), "step-%04lld", (long long)json_integer_value(step));
		same = est_store_id(at_main, game->store, NULL, "state.json") == 0 &&
		       est_store_id(at_tag, game->store, tag, "state.json") == 0 && strcmp(at_main, at_tag) == 0;
		/* A run killed between moving main and tagging the step: the next run tags it (repair_tag). */
		if (!same && json_integer_value(step) > 0 &&
		    est_store_tag_target(at_tag, game->store, tag) == EST_ENOTFOUND) {
			char prev[32];

			snprintf(prev, sizeof(prev), "step-%04lld", (long long)json_integer_value(step) - 1);
			same = est_store_tag_target(at_tag, game->store, prev) == 0;
		}
	}
	est_error_clear();
	if (same)
		return 0;
	return est_error_set(EST_ECONFIG, "%s: state.json at main is not the one %s%s committed: it changes "
			     "only with a step; restore it with git -C %s checkout %s -- state.json and commit",
			     est_store_path(game->store), tag[0] ? "step " : "any step (it is missing, not "
			     "JSON, or its field \"step\" is not a step number)", tag[0] ? tag + 5 : "", est_store_path(game->store),
			     tag[0] ? tag : "$(git tag -l 'step-*' | tail -n 1)");
}

/*
 * state.json at main, parsed once: a file missing or not JSON is left for
 * check_state to name with its fix, which the parser's message lacks.
 */
static int read_state(est_game *game, size_t *len)
{
	int error = est_store_read(&game->state_text, len, game->store, NULL, "state.json");

	if (error < 0 && error != EST_ENOTFOUND)
		return error;
	if (error == 0 && est_json_parse(&game->state, game->state_text, *len, "state.json") < 0)
		game->state = NULL;
	est_error_clear();
	if ((error = check_state(game, game->state)) < 0)
		return error;
	/* A game without step-0000 yet: no tag to compare with, so the plain reason. */
	if (!game->state_text)
		return est_error_set(EST_ENOTFOUND, "%s: state.json: no such file at main",
				     est_store_path(game->store));
	return game->state ? 0 : est_json_parse(&game->state, game->state_text, *len, "state.json");
}

/* Everything est_game_reload reads, but the rules (read_rules keeps them while rules/ stays). */
static void clear(est_game *game)
{
	json_decref(game->game);
	json_decref(game->state);
	json_decref(game->open_step);
	game->open_step = NULL;
	game->loaded = 0;
	free(game->state_text);
	free(game->allowed_signers);
	game->game = game->state = NULL;
	game->state_text = game->allowed_signers = NULL;
}

/*
 * The rules/ trees this process parsed last, by git tree id: `run --all`
 * opens hundreds of games made from the same ruleset, and equal tree ids
 * mean equal files. Shared read-only (rulesets take rules as const json_t);
 * a few slots, so memory stays flat in the number of games.
 */
#define RULES_CACHE_SLOTS 4
static struct {
	char id[EST_STORE_OID_HEX + 1];
	json_t *rules;
} rules_cache[RULES_CACHE_SLOTS];
static size_t rules_cache_next;

static json_t *cached_rules(const char *id)
{
	for (size_t i = 0; i < RULES_CACHE_SLOTS; i++)
		if (rules_cache[i].rules && strcmp(rules_cache[i].id, id) == 0)
			return json_incref(rules_cache[i].rules);
	return NULL;
}

static void cache_rules(const char *id, json_t *rules)
{
	size_t slot = rules_cache_next++ % RULES_CACHE_SLOTS;

	json_decref(rules_cache[slot].rules);
	rules_cache[slot].rules = json_incref(rules);
	memcpy(rules_cache[slot].id, id, sizeof(rules_cache[slot].id));
}

/*
 * rules/ at main, parsed again only when its tree changed: it is fixed for
 * the whole game (check_fixed), and a run reloads the game after each step.
 */
static int read_rules(est_game *game)
{
	char id[EST_STORE_OID_HEX + 1];
	int error;

	if (est_store_id(id, game->store, NULL, "rules") < 0) {
		est_error_clear();
		id[0] = '\0';
	}
	if (game->rules && id[0] && strcmp(id, game->rules_id) == 0)
		return 0;
	json_decref(game->rules);
	game->rules = NULL;
	game->rules_id[0] = '\0';
	if (id[0] && (game->rules = cached_rules(id))) {
		memcpy(game->rules_id, id, sizeof(id));
		return 0;
	}
	if ((error = est_game_read_rules(&game->rules, game->store, NULL)) < 0)
		return error;
	memcpy(game->rules_id, id, sizeof(id));
	if (id[0])
		cache_rules(id, game->rules);
	return 0;
}

/* game.json names a dice protocol this estafette draws by: no die is drawn by a guess. */
static int check_dice_protocol(const json_t *doc)
{
	const json_t *algorithm = json_object_get(json_object_get(doc, "dice"), "algorithm");
	const char *name = json_string_value(algorithm);

	if (!algorithm || (name && (strcmp(name, EST_DICE_ALGORITHM) == 0 ||
				    strcmp(name, EST_DICE_ALGORITHM_V2) == 0)))
		return 0;
	return est_error_set(EST_ECONFIG, "game.json: field \"dice\".\"algorithm\" is \"%s\", neither "
			     EST_DICE_ALGORITHM " nor " EST_DICE_ALGORITHM_V2 "; upgrade estafette, or "
			     "restore game.json from tag step-0000", name ? name : "(not a string)");
}

static int load(est_game *game)
{
	char head[EST_STORE_OID_HEX + 1];
	const char *ruleset;
	size_t len;
	int error;

	/*
	 * Everything below is read at main, so while main names the same
	 * commit there is nothing new to read; a sealed game's store moves on
	 * its own, and is read again.
	 */
	if (game->loaded && !game->sealed_store && !est_game_is_sealed(game) &&
	    est_store_head(head, game->store) == 0 && strcmp(head, game->head) == 0)
		return 0;
	est_error_clear();
	clear(game);
	if ((error = est_store_head(game->head, game->store)) < 0)
		return error;
	/*
	 * Every read checks its revision's tree anyway; asking first gives the
	 * reason (a link, a submodule, an executable) before a check below
	 * that clears a failed read could name a different one.
	 */
	if ((error = est_store_check_tree(NULL, game->store, NULL)) < 0 ||
	    (error = check_fixed(game)) < 0 || (error = check_keys(game)) < 0)
		return error;
	if ((error = est_game_read_json(&game->game, game, NULL, "game.json")) < 0)
		return error;
	if ((error = check_dice_protocol(game->game)) < 0)
		return error;
	ruleset = json_string_value(json_object_get(game->game, "ruleset"));
	if (!(game->ruleset = est_game_ruleset(ruleset)))
		return est_error_set(EST_ECONFIG, "game.json: field \"ruleset\" names \"%s\", which this "
				     "estafette does not have; upgrade estafette", ruleset ? ruleset : "");
	if ((error = read_rules(game)) < 0)
		return error;
	if ((error = read_state(game, &len)) < 0)
		return error;
	est_sha256_hex(game->state_sha256, game->state_text, len);
	game->step = json_integer_value(json_object_get(game->state, "step"));
	if ((error = est_store_read(&game->allowed_signers, &len, game->store, NULL,
				    "keys/allowed_signers")) < 0 ||
	    (error = est_sealed_open(game)) < 0)
		return error;
	if ((error = est_sealed_load_state(game)) < 0)
		return error;
	game->loaded = 1;
	return 0;
}

/* Tries at a load that saw main move under it (a reader without the lock). */
#define LOAD_TRIES 3

/*
 * A reader without the lock (status, run --all before it locks) reads
 * main's files one revision at a time, not from a snapshot: when another
 * process commits meanwhile, a check can compare files of two commits
 * (state.json of one step, the tag of another) and take a game in play for
 * a hand-edited one. A load that failed while main moved is read again.
 */
static int main_moved(est_game *game)
{
	char head[EST_STORE_OID_HEX + 1], *failure = strdup(est_error_message());
	int code = est_error_code();
	int moved = est_store_head(head, game->store) == 0 && strcmp(head, game->head) != 0;

	/* The load's failure stands, not est_store_head's. */
	if (!moved)
		est_error_set(code, "%s", failure ? failure : "out of memory");
	free(failure);
	return moved;
}

int est_game_reload(est_game *game)
{
	int error, tries = 0;

	while ((error = load(game)) < 0 && ++tries < LOAD_TRIES && main_moved(game))
		est_error_clear();
	return error;
}

static int sign_for_git(char **armored_out, const char *data, size_t len, void *payload)
{
	const est_signing_key *k = payload;
	size_t armored_len;

	return est_sshsig_sign(armored_out, &armored_len, k->key, k->len, "git", data, len);
}

void est_game_sign_with(est_store *store, const est_signing_key *key)
{
	est_store_set_signer(store, key && key->key ? sign_for_git : NULL, (void *)key);
}

/* git config estafette.signingkey: the GM's key that signs every commit and tag. */
static int load_signing_key(est_game *game)
{
	char *path = NULL;
	int error;

	if (est_store_config_get(&path, game->store, "estafette.signingkey") < 0) {
		est_error_clear();
		return 0;
	}
	error = est_file_read_private(&game->signing_key.key, &game->signing_key.len, path, 65536);
	if (error < 0)
		est_error_prefix("git config estafette.signingkey");
	else
		est_game_sign_with(game->store, &game->signing_key);
	free(path);
	return error;
}

/* A game of the repository at `path`, nothing read yet. */
static int game_new(est_game **out, const char *path)
{
	est_game *game = calloc(1, sizeof(*game));
	int error;

	if (!game)
		return est_error_set(EST_ENOMEM, "out of memory");
	game->warnings = json_array();
	if (!(game->home = est_home_dir())) {
		error = est_error_set(EST_ECONFIG, "neither ESTAFETTE_HOME nor HOME is set; "
				      "set ESTAFETTE_HOME to the folder for the GM's secrets");
		goto fail;
	}
	if ((error = est_store_open(&game->store, path)) < 0)
		goto fail;
	*out = game;
	return 0;
fail:
	est_game_free(game);
	return error;
}

int est_game_open(est_game **out, const char *path)
{
	est_game *game;
	int error;

	if ((error = game_new(&game, path)) < 0)
		return error;
	if ((error = load_signing_key(game)) < 0 || (error = est_game_reload(game)) < 0) {
		est_game_free(game);
		return error;
	}
	*out = game;
	return 0;
}

int est_game_pin(est_game *game, const char *rev)
{
	int error = est_store_pin(game->store, rev);

	return error < 0 ? error : est_game_reload(game);
}

int est_game_open_at(est_game **out, const char *path, const char *rev)
{
	est_game *game;
	int error;

	if ((error = game_new(&game, path)) < 0)
		return error;
	if ((error = est_game_pin(game, rev)) < 0) {
		est_game_free(game);
		return error;
	}
	*out = game;
	return 0;
}

void est_game_free(est_game *game)
{
	if (!game)
		return;
	if (game->signing_key.key)
		memset(game->signing_key.key, 0, game->signing_key.len);
	free(game->signing_key.key);
	clear(game);
	json_decref(game->rules);
	json_decref(game->warnings);
	est_store_free(game->sealed_store);
	est_store_free(game->store);
	free(game->msgid_domain);
	free(game->home);
	free(game);
}

char *est_game_config(est_game *game, const char *key, const char *fallback)
{
	char *value = NULL;

	if (est_store_config_get(&value, game->store, key) == 0)
		return value;
	est_error_clear();
	return fallback ? strdup(fallback) : NULL;
}

void est_game_warn(est_game *game, const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(game->warnings, json_string(text));
}

int est_game_lock(est_game *game)
{
	json_t *removed = NULL, *sealed = NULL, *path;
	size_t i;
	int error;

	if ((error = est_store_lock(game->store)) < 0)
		return error;
	if ((error = est_store_clear_stale_locks(&removed, game->store)) < 0)
		return error;
	/* A killed submit of a sealed game may have left one in the sealed store too. */
	if (game->sealed_store && ((error = est_store_lock(game->sealed_store)) < 0 ||
				   (error = est_store_clear_stale_locks(&sealed, game->sealed_store)) < 0)) {
		json_decref(removed);
		return error;
	}
	json_array_extend(removed, sealed);
	json_array_foreach(removed, i, path)
		est_game_warn(game, "removed %s, left by a killed process", json_string_value(path));
	json_decref(sealed);
	json_decref(removed);
	return 0;
}

/*
 * A step killed between moving main and writing its tag (a run, a GM act
 * that is a step) leaves the latest step untagged; tag it now.
 */
static int repair_tag(est_game *game)
{
	char tag[40], target[EST_STORE_OID_HEX + 1];

	if (game->step == 0)
		return 0;
	snprintf(tag, sizeof(tag), "step-%04lld", game->step);
	if (est_store_tag_target(target, game->store, tag) == 0)
		return 0;
	est_error_clear();
	/* The open step's deadline is dated by this tag: what was worked out without it goes. */
	json_decref(game->open_step);
	game->open_step = NULL;
	return est_store_tag(game->store, tag, game->head, NULL);
}

int est_game_repair(json_t **repaired_out, est_game *game)
{
	int error;

	if ((error = repair_tag(game)) < 0)
		return error;
	/* A command killed mid-checkout may have left the work tree behind main. */
	if (est_store_sync(game->store) < 0) {
		est_game_warn(game, "%s (the game itself is safe; if .git/index.lock was left by a "
			      "killed process and no git command is running, remove it)", est_error_message());
		est_error_clear();
	}
	return est_sealed_repair_notes(repaired_out, game);
}

int est_game_commit(char oid[EST_STORE_OID_HEX + 1], est_game *game,
		    const est_store_change *changes, size_t count, const char *message,
		    const char *tag)
{
	int error;

	oid[0] = '\0';
	if (json_is_true(json_object_get(game->game, "signed_history")) && !game->signing_key.key)
		return est_error_set(EST_ECONFIG, "%s: every commit of this game is signed by the GM "
				     "(game.json \"signed_history\"), and git config estafette.signingkey is not "
				     "set here; set it to the GM's private key: git -C %s config "
				     "estafette.signingkey PATH", est_store_path(game->store),
				     est_store_path(game->store));
	error = est_store_commit(oid, game->store, game->head, changes, count, message, tag);
	if (error < 0 && oid[0]) {
		est_game_warn(game, "%s (the game itself is committed; if .git/index.lock was left "
			      "by a killed process and no git command is running, remove it)",
			      est_error_message());
		est_error_clear();
		return 0;
	}
	return error;
}

const json_t *est_game_player(const est_game *game, const char *player)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(game->game, "players"), i, p)
		if (player && strcmp(json_string_value(json_object_get(p, "id")), player) == 0)
			return p;
	return NULL;
}

static int holds_power(const json_t *player, const char *power)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(player, "powers"), i, p)
		if (strcmp(json_string_value(p), power) == 0)
			return 1;
	return 0;
}

const json_t *est_game_player_by_power(const est_game *game, const char *power)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(game->game, "players"), i, p)
		if (holds_power(p, power))
			return p;
	return NULL;
}

int est_game_dice_version(const json_t *game)
{
	const char *algorithm = json_string_value(json_object_get(json_object_get(game, "dice"), "algorithm"));

	/* Games made before the field existed drew by v1. */
	if (!algorithm)
		return json_object_get(json_object_get(game, "dice"), "algorithm") ? 0 : 1;
	return strcmp(algorithm, EST_DICE_ALGORITHM) == 0 ? 1 : strcmp(algorithm, EST_DICE_ALGORITHM_V2) == 0 ? 2 : 0;
}
