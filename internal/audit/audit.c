/*
 * estafette audit: replay a game from its creation and check every step
 * (audit.h). Each check either holds or records the first failure, naming
 * the step, the file and what does not hold; the audit then stops, since
 * everything after a broken step is built on it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "audit/audit.h"
#include "audit/accepted.h"
#include "dice/dice.h"
#include "game/game.h"
#include "intake/intake.h"
#include "turn/turn.h"
#include "step/step.h"
#include "orders/orders.h"
#include "seal/seal.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

typedef struct {
	est_store *store;
	const est_ruleset *rs;
	json_t *game;  /* game.json as step 0 committed it: the dice commitment */
	json_t *rules; /* rules/ as step 0 committed them */
	char *signers; /* keys/allowed_signers as step 0 committed it */
	size_t signers_len;
	const char *id;
	int have_hidden;               /* the GM's hidden chain secret is at hand */
	unsigned char hidden_secret[32];
	long long revealed;            /* reveal.json's step T (0: none) */
	unsigned char reveal_value[32]; /* h_T */
	int sealed;                    /* game.json "sealed": true */
	est_store *sealed_store;       /* the GM's sealed store, when it is here */
	int blind;                     /* sealed, and a step could not be replayed */
	json_t *failure;
	json_t *log;                   /* main's commits, oldest first (est_store_log) */
	json_t *recorded;              /* order files main's history recorded, by step (accepted.h) */
	json_t *unverified;            /* {"steps", "first", "reason"} or NULL */
	long long steps, orders, rolls;
	long long dice_steps;          /* steps whose chain value and seed were checked */
	long long order_files;         /* files under turns/NNNN/orders/ matched to the manifest */
	long long derived;             /* derived files rendered again and compared */
	long long underived;           /* steps whose derived files could not be made again */
	int signed_history;            /* game.json "signed_history": true */
	long long signed_commits;      /* commits of main with a good signature by the GM */
	long long player_commits;      /* unsigned commits of main that change only a player's order files */
	long long signed_tags;         /* step tags with a good signature by the GM */
	long long receipts;            /* players' receipts checked (--receipts) */
	int receipts_given;            /* --receipts DIR was given */
	json_t *refused_receipts;      /* [{"file", "why"}]: files of DIR that are no evidence */
	long long accepted;            /* order files main's history recorded, checked against their step */
	const char *path;              /* the game's repository */
	est_game *at;                  /* the game as it stood before the step being checked */
	unsigned char *chain;          /* chain[k]: hash^k of the hidden chain's known end (32 bytes each) */
	long long chain_len;
} audit;

static int player_order_path(char seat[65], const audit *a, const char *path);

/* What an audit without the hidden parts cannot check (returned by checks, with fail's 1 and -1). */
#define UNVERIFIABLE 2

/*
 * Note a step that cannot be re-resolved without what only the GM holds
 * until `reveal`; the first reason is kept. Returns UNVERIFIABLE.
 */
static int cannot_verify(audit *a, long long step, const char *reason)
{
	if (!a->unverified)
		a->unverified = json_pack("{s:I, s:I, s:s}", "steps", (json_int_t)0, "first",
					  (json_int_t)step, "reason", reason);
	json_object_set_new(a->unverified, "steps", json_integer(
		json_integer_value(json_object_get(a->unverified, "steps")) + 1));
	return UNVERIFIABLE;
}

/* Record the first failure; returns 1 so checks can `return fail(...)`. */
static int fail(audit *a, long long step, const char *file, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(audit *a, long long step, const char *file, const char *check, const char *fmt, ...)
{
	char message[1024];
	va_list ap;

	if (a->failure)
		return 1;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	a->failure = json_pack("{s:I, s:s, s:s, s:s}", "step", (json_int_t)step, "file", file,
			       "check", check, "message", message);
	return 1;
}

static void tag_of(char tag[40], long long step)
{
	snprintf(tag, 40, "step-%04lld", step);
}

/* A file as the step's own commit (tag step-NNNN) holds it. */
static int read_at_step(char **out, size_t *len, audit *a, long long step, const char *path)
{
	char tag[40];

	tag_of(tag, step);
	if (est_store_read(out, len, a->store, tag, path) == 0)
		return 0;
	est_error_clear();
	return fail(a, step, path, "presence", "%s is missing from the step's commit %s", path, tag);
}

/* A file of turns/NNNN/, which main must still hold byte for byte. */
static int read_step_file(char **out, size_t *len, audit *a, long long step, const char *path)
{
	char tag[40], *at_main = NULL;
	size_t main_len;
	int failed;

	tag_of(tag, step);
	if ((failed = read_at_step(out, len, a, step, path)) != 0)
		return failed;
	if (est_store_read(&at_main, &main_len, a->store, "main", path) < 0 || main_len != *len ||
	    memcmp(at_main, *out, *len) != 0) {
		est_error_clear();
		free(at_main);
		return fail(a, step, path, "history", "%s at main differs from the one step %lld committed "
			    "(%s): it was changed or removed afterwards", path, step, tag);
	}
	free(at_main);
	return 0;
}

static int parse(json_t **out, audit *a, long long step, const char *path, const char *text, size_t len)
{
	if ((*out = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL)))
		return 0;
	return fail(a, step, path, "format", "%s is not valid JSON", path);
}

static int same_string(const json_t *v, const char *s)
{
	return json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

static int hex32(unsigned char out[32], audit *a, long long step, const char *file, const json_t *v,
		 const char *field)
{
	if (json_is_string(v) && est_hex_decode(out, 32, json_string_value(v)) == 0)
		return 0;
	est_error_clear();
	return fail(a, step, file, field, "%s: field \"%s\" is not 64 hex digits", file, field);
}

/*
 * A state as the engine holds it when it resolves the next step: parsed
 * from its state.json text, so its objects' members come in the order the
 * file has them (a ruleset's view lists them in that order). -1 when out
 * of memory.
 */
static int as_read(json_t **wrapped)
{
	char *text = est_json_text(*wrapped);
	json_t *read = text ? json_loads(text, JSON_REJECT_DUPLICATES, NULL) : NULL;

	free(text);
	if (!read)
		return -1;
	json_decref(*wrapped);
	*wrapped = read;
	return 0;
}

/* Step 0: the set-up the ruleset makes from rules/ and the options. */
static int check_setup(json_t **wrapped_out, char sha_out[65], audit *a)
{
	char *text = NULL, *made = NULL;
	size_t len;
	int failed;

	if ((failed = read_at_step(&text, &len, a, 0, "state.json")) != 0)
		return failed;
	est_sha256_hex(sha_out, text, len);
	if (est_turn_setup(wrapped_out, a->rs, a->rules, a->game) < 0) {
		failed = fail(a, 0, "state.json", "set-up", "the ruleset's set-up fails: %s", est_error_message());
		goto out;
	}
	made = est_json_text(*wrapped_out);
	if (!made || strcmp(made, text) != 0)
		failed = fail(a, 0, "state.json", "set-up", "state.json of step 0 is not the set-up %s %s "
			      "makes from rules/ and the options", a->rs->name, a->rs->version);
	else
		failed = as_read(wrapped_out);
out:
	free(made);
	free(text);
	return failed;
}

/*
 * A sealed game's order file and signature: published by `reveal` under
 * revealed/NNNN/orders/ at main, or in the GM's sealed store. `path` and
 * `sig_path` are set to where they were read.
 */
static int sealed_order(char **bytes, size_t *len, char **sig, size_t *sig_len, char path[300],
			char sig_path[310], audit *a, long long step, const char *file)
{
	est_store *store = a->store;
	const char *rev = "main";

	snprintf(path, 300, "revealed/%04lld/orders/%s", step, file ? file : "?");
	if (step > a->revealed) {
		if (!a->sealed_store)
			return cannot_verify(a, step, "a sealed game's order files are published by the GM "
					     "with estafette reveal");
		snprintf(path, 300, "orders/%04lld/%s", step, file ? file : "?");
		store = a->sealed_store;
		rev = NULL;
	}
	snprintf(sig_path, 310, "%s.sig", path);
	if (est_store_read(bytes, len, store, rev, path) == 0 &&
	    est_store_read(sig, sig_len, store, rev, sig_path) == 0)
		return 0;
	est_error_clear();
	return fail(a, step, path, "presence", "%s or its signature is missing%s", path,
		    store == a->store ? " from what reveal published" : " from the sealed store");
}

/*
 * One signed file of the manifest (an order file or a commitment): its
 * bytes, its signature, its binding. *order_out is the parsed file.
 */
static int check_signed(est_order **order_out, audit *a, long long step, const json_t *entry,
			const char *prev_sha)
{
	char dir[64], path[300], sig_path[310], tag[40], sha[65], *bytes = NULL, *sig = NULL, *signers = NULL;
	const char *file = json_string_value(json_object_get(entry, "file"));
	const char *player = json_string_value(json_object_get(entry, "player"));
	size_t len, sig_len, signers_len;
	long long when;
	est_order *order = NULL;
	int failed;

	snprintf(dir, sizeof(dir), "turns/%04lld/orders", step);
	snprintf(path, sizeof(path), "%s/%s", dir, file ? file : "?");
	snprintf(sig_path, sizeof(sig_path), "%s.sig", path);
	if (a->sealed)
		failed = sealed_order(&bytes, &len, &sig, &sig_len, path, sig_path, a, step, file);
	else if ((failed = read_step_file(&bytes, &len, a, step, path)) == 0)
		failed = read_step_file(&sig, &sig_len, a, step, sig_path);
	if (failed)
		goto out;
	est_sha256_hex(sha, bytes, len);
	if (!same_string(json_object_get(entry, "sha256"), sha)) {
		failed = fail(a, step, path, "manifest", "the SHA-256 of %s is %s, but the manifest says %s",
			      path, sha, json_string_value(json_object_get(entry, "sha256")));
		goto out;
	}
	est_sha256_hex(sha, sig, sig_len);
	if (!same_string(json_object_get(entry, "signature_sha256"), sha)) {
		failed = fail(a, step, sig_path, "manifest", "the SHA-256 of %s does not match the manifest",
			      sig_path);
		goto out;
	}
	/* Judged as when the step was resolved: the keys of the commit before it, at its time. */
	tag_of(tag, step);
	if (est_store_commit_time(&when, a->store, tag) < 0)
		when = 0;
	strcat(tag, "^");
	if (est_store_read(&signers, &signers_len, a->store, tag, "keys/allowed_signers") < 0) {
		est_error_clear();
		failed = fail(a, step, "keys/allowed_signers", "keys", "keys/allowed_signers is missing "
			      "before step %lld", step);
		goto out;
	}
	/*
	 * The keys are those the game began with, or as the GM's signed
	 * replace acts made them: a key added any other way could sign for
	 * any player.
	 */
	char *changed = NULL;
	if (est_game_fixed_files(&changed, a->store, tag) < 0 || changed) {
		est_error_clear();
		failed = fail(a, step, "keys/allowed_signers", "keys", "keys/allowed_signers before step "
			      "%lld is neither the one the game began with nor one the GM's replace acts "
			      "made (%s): a key was added or changed, so orders signed with it prove "
			      "nothing", step, changed ? changed : "keys/replacements.json");
		free(changed);
		goto out;
	}
	if (est_sshsig_verify(signers, signers_len, player ? player : "", EST_ORDERS_NAMESPACE, bytes, len,
			      sig, sig_len, (time_t)when) < 0) {
		failed = fail(a, step, sig_path, "signature", "%s: not a good signature of player \"%s\": %s",
			      sig_path, player ? player : "?", est_error_message());
		est_error_clear();
		goto out;
	}
	if (est_orders_parse(&order, path, bytes, len) < 0 ||
	    est_orders_check_binding(order, path, a->id, step, prev_sha, player) < 0) {
		failed = fail(a, step, path, "binding", "%s", est_error_message());
		est_error_clear();
		goto out;
	}
	*order_out = order;
	order = NULL;
out:
	est_orders_free(order);
	free(signers);
	free(sig);
	free(bytes);
	return failed;
}

/* One order file of the manifest, then its orders for the powers it answered. */
static int check_order(json_t *orders, json_t *press, audit *a, long long step, const json_t *entry,
		       const char *prev_sha)
{
	est_order *order = NULL;
	json_t *power;
	size_t i;
	int failed;

	if ((failed = check_signed(&order, a, step, entry, prev_sha)) != 0)
		return failed;
	if (order->commitment) {
		est_orders_free(order);
		return fail(a, step, "manifest.json", "orders", "the manifest lists a commitment/1 file "
			    "among the orders of step %lld", step);
	}
	json_array_foreach(json_object_get(entry, "powers"), i, power) {
		json_t *mine = NULL;
		if (est_turn_orders_for(&mine, NULL, order->orders, json_string_value(power),
					  json_object_get(entry, "powers")) < 0) {
			est_orders_free(order);
			est_error_clear();
			return fail(a, step, "manifest.json", "orders", "an order file of step %lld addresses "
				    "an item to a power its player did not hold", step);
		}
		json_object_set_new(orders, json_string_value(power), mine);
	}
	if (order->press && order->player)
		json_object_set(press, order->player, order->press);
	a->orders++;
	est_orders_free(order);
	return 0;
}

/* The manifest's entry for `player` in `list`, or NULL. */
static const json_t *entry_of(const json_t *list, const char *player)
{
	const json_t *e;
	size_t i;

	json_array_foreach(list, i, e)
		if (same_string(json_object_get(e, "player"), player))
			return e;
	return NULL;
}

/*
 * Sealed orders: each commitment is its player's signed file, and each
 * order revealed in the step hashes to its player's commitment; in a step
 * of sealed orders no order stands without one.
 */
static int check_commitments(audit *a, long long step, const json_t *manifest, const char *prev_sha,
			     int sealed_step, const char *path)
{
	const json_t *commitments = json_object_get(manifest, "commitments"), *e, *c;
	est_order *order = NULL;
	size_t i;
	int failed = 0;

	json_array_foreach(commitments, i, e) {
		const json_t *revealed = entry_of(json_object_get(manifest, "orders"),
						  json_string_value(json_object_get(e, "player")));
		if ((failed = check_signed(&order, a, step, e, prev_sha)) != 0)
			return failed;
		if (!order->commitment)
			failed = fail(a, step, path, "commitment", "%s: the commitment of %s is not a "
				      "commitment/1 file", path, order->player);
		else if (revealed && !same_string(json_object_get(revealed, "sha256"), order->sha256))
			failed = fail(a, step, path, "commitment", "%s: the order file of %s does not "
				      "hash to the SHA-256 its commitment promised", path, order->player);
		est_orders_free(order);
		order = NULL;
		if (failed)
			return failed;
	}
	json_array_foreach(json_object_get(manifest, "orders"), i, c)
		if (sealed_step && !entry_of(commitments, json_string_value(json_object_get(c, "player"))))
			return fail(a, step, path, "commitment", "%s: step %lld took sealed orders, but the "
				    "order of %s has no commitment", path, step,
				    json_string_value(json_object_get(c, "player")));
	return 0;
}

/* The chain value step `step` revealed, hashed to the one before; the manifest hash and the seed. */
/*
 * Dice v2: dice.json's "inputs" must be the step's own, made again here
 * from its manifest and the state it resolved (`prev_sha`), so that no byte
 * the GM chose enters the seed.
 */
static int check_inputs(json_t **inputs_out, audit *a, long long step, const json_t *dice,
			const json_t *manifest, const char *prev_sha, const char *path)
{
	json_t *inputs = NULL;
	int same;

	if (est_step_dice_inputs(&inputs, a->game, step, prev_sha, manifest) < 0) {
		int failed = fail(a, step, path, "inputs", "%s: %s", path, est_error_message());
		return failed;
	}
	same = json_equal(inputs, json_object_get(dice, "inputs"));
	if (!same) {
		json_decref(inputs);
		return fail(a, step, path, "inputs", "%s: \"inputs\" are not the step's: the game, the step, "
			    "the SHA-256 of the state it resolved (%s) and each awaited player's resolved "
			    "order file's SHA-256 as manifest.json lists them", path, prev_sha);
	}
	*inputs_out = inputs;
	return 0;
}

static int check_dice(unsigned char seed_out[32], unsigned char reveal[32], json_t **inputs_out, audit *a,
		      long long step, const json_t *dice, const json_t *manifest, const char *manifest_text,
		      size_t manifest_len, const char *prev_sha, const char *path)
{
	unsigned char prev[32], manifest_sha[32], recorded[32], seed[32];
	int failed, v2 = est_game_dice_version(a->game) == 2;

	const json_t *algorithm = json_object_get(json_object_get(a->game, "dice"), "algorithm");

	memcpy(prev, reveal, 32);
	if (json_integer_value(json_object_get(dice, "step")) != step)
		return fail(a, step, path, "step", "%s says step %lld", path,
			    (long long)json_integer_value(json_object_get(dice, "step")));
	/* One protocol for the whole game, the one game.json named at step 0. */
	if (!json_equal(json_object_get(dice, "algorithm"), algorithm) ||
	    json_object_get(dice, v2 ? "manifest_sha256" : "inputs"))
		return fail(a, step, path, "algorithm", "%s: not a dice record of %s, the protocol game.json "
			    "names", path, json_string_value(algorithm));
	est_sha256(manifest_sha, manifest_text, manifest_len);
	if (v2 && (failed = check_inputs(inputs_out, a, step, dice, manifest, prev_sha, path)) != 0)
		return failed;
	if (!v2 && (failed = hex32(recorded, a, step, path, json_object_get(dice, "manifest_sha256"),
				   "manifest_sha256")) != 0)
		return failed;
	if (!v2 && memcmp(recorded, manifest_sha, 32) != 0)
		return fail(a, step, path, "manifest_sha256", "%s: manifest_sha256 is not the SHA-256 of "
			    "the step's manifest.json", path);
	if ((failed = hex32(reveal, a, step, path, json_object_get(dice, "reveal"), "reveal")) != 0)
		return failed;
	if (est_dice_check_reveal(reveal, prev) < 0) {
		est_error_clear();
		return fail(a, step, path, "reveal", "%s: the revealed chain value does not hash to the "
			    "previous one (%s): the GM did not commit to these dice in advance", path,
			    step == 1 ? "game.json's chain_tip" : "the previous step's reveal");
	}
	if (est_step_seeds(seed, NULL, NULL, a->game, step, reveal, NULL, manifest_sha, *inputs_out) < 0 ||
	    (failed = hex32(recorded, a, step, path, json_object_get(dice, "seed"), "seed")) != 0)
		return failed ? failed : -1;
	if (memcmp(recorded, seed, 32) != 0)
		return fail(a, step, path, "seed", "%s: the seed is not HMAC-SHA256 of the reveal and %s",
			    path, v2 ? "the step's inputs" : "the manifest");
	memcpy(seed_out, seed, 32);
	a->dice_steps++;
	return 0;
}

/*
 * A dealt game seeds its hidden stream with the deal's name (deal.c): its
 * dice.json must say so, and no other game's may claim it.
 */
static int check_hidden_domain(audit *a, long long step, const json_t *dice)
{
	const json_t *deal = json_object_get(a->game, "deal");
	const json_t *domain = json_object_get(dice, "hidden_domain");
	const char *want = est_game_dice_version(a->game) == 2 ? EST_DICE_V2_DOMAIN_HIDDEN : EST_DICE_DOMAIN_DEAL;
	char path[64];

	snprintf(path, sizeof(path), "turns/%04lld/dice.json", step);
	if (deal && (!json_is_string(domain) ||
		     strcmp(json_string_value(domain), want) != 0 ||
		     !json_equal(json_object_get(dice, "deal"), deal)))
		return fail(a, step, path, "hidden domain", "%s: game.json names deal \"%s\", so the hidden "
			    "stream is seeded with domain %s and that deal, but dice.json does not say so",
			    path, json_string_value(deal) ? json_string_value(deal) : "?", want);
	if (!deal && (domain || json_object_get(dice, "deal")))
		return fail(a, step, path, "hidden domain", "%s: names a deal's hidden domain, but game.json "
			    "is in no deal", path);
	return 0;
}

/*
 * h^k(start) for every k up to `len` - 1, into a->chain, made once: step t
 * needs hash^(N - t), and computing it afresh for every step cost the
 * audit N hashes a step (three quarters of a long game's audit).
 */
static int chain_values(audit *a, const unsigned char start[32], long long len)
{
	if (a->chain)
		return 0;
	if (len < 1 || !(a->chain = malloc((size_t)len * 32)))
		return est_error_set(EST_ENOMEM, "out of memory");
	memcpy(a->chain, start, 32);
	for (long long k = 1; k < len; k++)
		est_sha256(a->chain + 32 * k, a->chain + 32 * (k - 1), 32);
	a->chain_len = len;
	return 0;
}

/*
 * The hidden stream of a step and its seed (the sealing key): from the GM's
 * secret, or from reveal.json's h_T (hashed T - t times for step t).
 */
static int hidden_stream(est_dice **out, unsigned char seed[32], audit *a, long long step,
			 const json_t *dice, const unsigned char manifest_sha[32], const json_t *inputs)
{
	unsigned char unused[32];
	long long n = json_integer_value(json_object_get(json_object_get(a->game, "dice"), "chain_length"));
	unsigned char h[32];
	const char *domain;
	int failed;

	if ((failed = check_hidden_domain(a, step, dice)) != 0)
		return failed;
	if (a->have_hidden || step <= a->revealed) {
		long long k = a->have_hidden ? n - step : a->revealed - step;
		if (chain_values(a, a->have_hidden ? a->hidden_secret : a->reveal_value,
				 (a->have_hidden ? n : a->revealed) + 1) < 0)
			return -1;
		if (k < 0 || k >= a->chain_len)
			return fail(a, step, "dice.json", "step", "step %lld lies outside the hidden chain", step);
		memcpy(h, a->chain + 32 * k, 32);
	} else if (a->sealed)
		return cannot_verify(a, step, "a sealed game's hidden parts open only with the hidden "
				     "chain, which the GM publishes with estafette reveal");
	else if (json_integer_value(json_object_get(dice, "hidden_rolls")) > 0)
		return cannot_verify(a, step, "the step drew hidden rolls (deck shuffles), which the "
				     "hidden chain checks; the GM publishes it with estafette reveal");
	else
		return est_dice_new_fixed(out, NULL, 0);
	if (est_step_seeds(unused, seed, &domain, a->game, step, NULL, h, manifest_sha, inputs) < 0)
		return -1;
	return est_step_dice_new(out, a->game, seed);
}

/* Which orders resolve the step: recorded ones, and the ruleset's defaults where none came. */
/* The id of the player game.json (step 0's: seats never change) gives `power`, or NULL. */
static const char *holder_of(const audit *a, const char *power)
{
	const json_t *p, *q;
	size_t i, j;

	json_array_foreach(json_object_get(a->game, "players"), i, p)
		json_array_foreach(json_object_get(p, "powers"), j, q)
			if (same_string(q, power))
				return json_string_value(json_object_get(p, "id"));
	return NULL;
}

/*
 * The players the manifest answers for, under "orders" and "missing", are
 * exactly those the state awaited, each once and with exactly the powers
 * of theirs it awaited: a player added or left out would change the
 * seed's inputs, and one given another's power would resolve another's
 * orders.
 */
static int check_awaited(audit *a, long long step, const json_t *manifest, const json_t *pending,
			 const char *path)
{
	static const char *const lists[] = {"orders", "missing"};
	json_t *want = json_object(), *seen = json_object(), *power, *entry;
	size_t i, j;
	int failed = 0;

	json_array_foreach(json_object_get(pending, "powers"), i, power) {
		const char *id = holder_of(a, json_string_value(power));
		if (!id)
			continue; /* a power nobody holds is awaited of nobody */
		if (!json_object_get(want, id))
			json_object_set_new(want, id, json_array());
		json_array_append(json_object_get(want, id), power);
	}
	for (j = 0; j < 2 && !failed; j++)
		json_array_foreach(json_object_get(manifest, lists[j]), i, entry) {
			const char *id = json_string_value(json_object_get(entry, "player"));
			if (!id || !json_object_get(want, id))
				failed = fail(a, step, path, "awaited", "%s: %s[%zu] names player \"%s\", whom "
					      "step %lld did not await", path, lists[j], i, id ? id : "?", step);
			else if (json_object_get(seen, id))
				failed = fail(a, step, path, "awaited", "%s: player \"%s\" is listed twice "
					      "under orders and missing", path, id);
			else if (!json_equal(json_object_get(entry, "powers"), json_object_get(want, id)))
				failed = fail(a, step, path, "awaited", "%s: %s[%zu] gives player \"%s\" powers "
					      "other than those of theirs step %lld awaited", path, lists[j], i,
					      id, step);
			if (failed)
				break;
			json_object_set_new(seen, id, json_true());
		}
	if (!failed && json_object_size(seen) != json_object_size(want))
		failed = fail(a, step, path, "awaited", "%s: a player step %lld awaited is under neither "
			      "orders nor missing", path, step);
	json_decref(seen);
	json_decref(want);
	return failed;
}

static int gather_orders(json_t *orders, json_t *press, audit *a, long long step, const json_t *manifest,
			 const json_t *prev, const char *prev_sha, const char *path)
{
	json_t *pending = NULL, *entry, *power;
	size_t i, j;
	int failed = 0;

	json_array_foreach(json_object_get(manifest, "orders"), i, entry)
		if ((failed = check_order(orders, press, a, step, entry, prev_sha)) != 0)
			return failed;
	json_array_foreach(json_object_get(manifest, "missing"), i, entry) {
		json_t *given = json_object_get(entry, "orders");
		json_array_foreach(json_object_get(entry, "powers"), j, power) {
			json_t *defaults = NULL;
			const char *p = json_string_value(power);
			if (est_turn_default_orders(&defaults, a->rs, a->rules, prev, p) < 0)
				return -1;
			/* A sealed game's manifest leaves them out: they name hidden cards. */
			if (!(a->sealed && !json_is_object(given)) &&
			    !json_equal(defaults, json_object_get(given, p)))
				failed = fail(a, step, path, "defaults", "%s: the orders given for missing power "
					      "%s are not the ruleset's default orders", path, p);
			json_object_set_new(orders, p, defaults);
			if (failed)
				return failed;
		}
	}
	if (est_turn_ruleset_pending(&pending, a->rs, a->rules, prev) < 0)
		return -1;
	if ((failed = check_awaited(a, step, manifest, pending, path)) != 0) {
		json_decref(pending);
		return failed;
	}
	int sealed_step = est_turn_sealed_round(a->game, pending);
	if ((failed = check_commitments(a, step, manifest, prev_sha, sealed_step, path)) != 0) {
		json_decref(pending);
		return failed;
	}
	json_array_foreach(json_object_get(pending, "powers"), i, power)
		if (!json_object_get(orders, json_string_value(power)))
			failed = fail(a, step, path, "awaited", "%s: power %s was awaited at step %lld but "
				      "neither its orders nor default orders are in the manifest", path,
				      json_string_value(power), step);
	if (!failed && json_object_size(orders) != json_array_size(json_object_get(pending, "powers")))
		failed = fail(a, step, path, "awaited", "%s: orders of a power the step did not await", path);
	json_decref(pending);
	return failed;
}

/*
 * What `reveal` published for the step, against the replay: the hidden
 * rolls, and in a sealed game the whole state.
 */
static int check_revealed(audit *a, long long step, const json_t *wrapped, est_dice *hidden)
{
	char path[80], *text = NULL, *made = NULL;
	json_t *doc = NULL;
	size_t len;
	int failed = 0;

	if (step > a->revealed)
		return 0;
	snprintf(path, sizeof(path), "revealed/%04lld/hidden-dice.json", step);
	/* Published only where the GM's machine resolved the step; the replay has the rolls anyway. */
	if (est_store_read(&text, &len, a->store, "main", path) == 0 &&
	    parse(&doc, a, step, path, text, len) != 0)
		failed = 1;
	else if (doc && !json_equal(json_object_get(doc, "rolls"), est_dice_log(hidden)))
		failed = fail(a, step, path, "hidden rolls", "%s: the hidden rolls listed are not those the "
			      "revealed hidden chain gives", path);
	free(text);
	text = NULL;
	snprintf(path, sizeof(path), "revealed/%04lld/state.json", step);
	if (!failed && a->sealed) {
		made = est_json_text(wrapped);
		if (est_store_read(&text, &len, a->store, "main", path) < 0 || !made ||
		    strcmp(made, text) != 0)
			failed = fail(a, step, path, "state", "%s is not the state the step gives when "
				      "resolved again", path);
	}
	est_error_clear();
	free(made);
	free(text);
	json_decref(doc);
	return failed;
}

/* The public state.json text of the replayed state: sealed with the step's key in a sealed game. */
static int public_text(char **out, audit *a, const json_t *wrapped, const unsigned char key[32])
{
	if (a->sealed)
		return est_sealed_public_state(out, a->rs, a->rules, wrapped, key) < 0 ? -1 : 0;
	return (*out = est_json_text(wrapped)) ? 0 : -1;
}

/* Resolve the step again and compare the rolls and the state with what was committed. */
/*
 * The step's new state.json document: the ruleset resolving the orders,
 * or the GM's act of a GM step (`act` not NULL), as the engine did.
 */
static int resolve_again(json_t **wrapped_out, json_t **events_out, audit *a, long long step,
			 const json_t *prev, const json_t *orders, est_dice *dice, est_dice *hidden,
			 const json_t *act)
{
	json_t *events = NULL;
	char path[80];
	int error;

	if (act)
		error = est_step_gm_apply(wrapped_out, &events, a->store, prev, act, step);
	else
		error = est_turn_resolve(wrapped_out, &events, a->rs, a->rules, prev, step, orders, dice, hidden);
	if (error == 0) {
		*events_out = events;
		return 0;
	}
	json_decref(events);
	snprintf(path, sizeof(path), "turns/%04lld/manifest.json", step);
	error = fail(a, step, path, "resolve", "the step cannot be resolved again: %s", est_error_message());
	est_error_clear();
	return error;
}

static int replay(json_t **wrapped_out, json_t **events_out, char sha_out[65], audit *a, long long step,
		  const json_t *prev, const json_t *orders, est_dice *dice, est_dice *hidden,
		  const unsigned char key[32], const json_t *dice_doc, const json_t *act)
{
	char dir[64], path[80], *text = NULL, *made = NULL;
	size_t len;
	int failed;

	snprintf(dir, sizeof(dir), "turns/%04lld", step);
	if ((failed = resolve_again(wrapped_out, events_out, a, step, prev, orders, dice, hidden, act)) != 0)
		goto out;
	snprintf(path, sizeof(path), "%s/dice.json", dir);
	if (!json_equal(est_dice_log(dice), json_object_get(dice_doc, "rolls"))) {
		failed = fail(a, step, path, "rolls", "%s: the rolls listed are not those the step's stream "
			      "gives when the step is resolved again", path);
		goto out;
	}
	a->rolls += (long long)est_dice_count(dice);
	if ((failed = read_at_step(&text, &len, a, step, "state.json")) != 0)
		goto out;
	if ((failed = public_text(&made, a, *wrapped_out, key)) != 0)
		goto out;
	est_sha256_hex(sha_out, text, len);
	if (strcmp(made, text) != 0)
		failed = fail(a, step, "state.json", "state", "state.json of step %lld (SHA-256 %.16s...) "
			      "is not what the orders and dice of the step give when resolved again%s", step,
			      sha_out, a->sealed ? " and sealed with the step's key" : "");
	if (!failed)
		failed = check_revealed(a, step, *wrapped_out, hidden);
out:
	free(made);
	free(text);
	return failed;
}

/*
 * A step that could not be re-resolved: the audit goes on from the state
 * the step committed, which an unsealed game's players can read whole; a
 * sealed game's later steps then have no whole state to start from.
 */
static int go_on_unverified(json_t **wrapped, char sha[65], audit *a, long long step)
{
	char *text = NULL;
	size_t len;
	int failed;

	a->blind |= a->sealed;
	if ((failed = read_at_step(&text, &len, a, step, "state.json")) != 0 ||
	    (!a->sealed && (failed = parse(wrapped, a, step, "state.json", text, len)) != 0)) {
		free(text);
		return failed;
	}
	/* What the next step's orders and acts are bound to: the public state.json. */
	est_sha256_hex(sha, text, len);
	free(text);
	return 0;
}

/*
 * A step that cannot be resolved again still has its public rolls: each
 * listed value must be what the step's seed gives for its sides, in order.
 */
static int check_listed_rolls(audit *a, long long step, const unsigned char seed[32],
			      const json_t *dice_doc, const char *path)
{
	const json_t *rolls = json_object_get(dice_doc, "rolls"), *r;
	est_dice *dice = NULL;
	size_t i;
	int failed = 0, value;

	if (est_step_dice_new(&dice, a->game, seed) < 0)
		return -1;
	json_array_foreach(rolls, i, r) {
		long long sides = json_integer_value(json_object_get(r, "sides"));
		if (sides < 1 || sides > 1000000 ||
		    est_dice_roll(&value, dice, (int)sides, json_string_value(json_object_get(r, "purpose"))) < 0 ||
		    value != json_integer_value(json_object_get(r, "value"))) {
			est_error_clear();
			failed = fail(a, step, path, "rolls", "%s: roll %zu (d%lld, \"%s\") is not what the "
				      "step's seed gives", path, i + 1, sides,
				      json_string_value(json_object_get(r, "purpose")));
			break;
		}
	}
	if (!failed)
		a->rolls += (long long)json_array_size(rolls);
	est_dice_free(dice);
	return failed;
}

/* One GM act kept with the step: the GM's signature and its binding. */
static int check_gm_act(audit *a, long long step, const char *name, const char *prev_sha)
{
	char path[300], sig_path[310], *bytes = NULL, *sig = NULL;
	size_t len, sig_len;
	est_order *act = NULL;
	int failed;

	snprintf(path, sizeof(path), "turns/%04lld/gm/%s", step, name);
	snprintf(sig_path, sizeof(sig_path), "%s.sig", path);
	if ((failed = read_step_file(&bytes, &len, a, step, path)) != 0 ||
	    (failed = read_step_file(&sig, &sig_len, a, step, sig_path)) != 0)
		goto out;
	if (est_sshsig_verify(a->signers, a->signers_len, "gm", EST_GM_NAMESPACE, bytes, len, sig, sig_len, 0) < 0)
		failed = fail(a, step, sig_path, "signature", "%s: not the GM's signature: %s", sig_path,
			      est_error_message());
	else if (est_orders_parse(&act, path, bytes, len) < 0 || !act->gm_act ||
		 est_orders_check_binding(act, path, a->id, step, prev_sha, "gm") < 0)
		failed = fail(a, step, path, "binding", "%s: not a GM act of this step: %s", path,
			      est_error_message());
	est_error_clear();
out:
	est_orders_free(act);
	free(sig);
	free(bytes);
	return failed;
}

/* The GM's acts of a step (turns/NNNN/gm/), if it has any. */
static int check_gm_acts(audit *a, long long step, const char *prev_sha)
{
	char dir[64], tag[40], **names = NULL;
	size_t count = 0, i, n;
	int failed = 0;

	snprintf(dir, sizeof(dir), "turns/%04lld/gm", step);
	tag_of(tag, step);
	if (est_store_list(&names, &count, a->store, tag, dir) < 0)
		return -1;
	for (i = 0; i < count && !failed; i++) {
		n = strlen(names[i]);
		if (n > 5 && strcmp(names[i] + n - 5, ".json") == 0)
			failed = check_gm_act(a, step, names[i], prev_sha);
	}
	est_store_list_free(names);
	return failed;
}

/*
 * game.json, the keys, .gitattributes and rules/ as step 0 made them, at
 * `rev` (a step's tag, or "main"): a later edit would change the game
 * under its players.
 */
/*
 * Nothing in the tree of `rev` is a link, a submodule or an executable
 * file (store.h): every read of it would fail, and name a file as missing.
 */
static int check_tree(audit *a, long long step, const char *rev)
{
	char *bad = NULL;
	int failed = 0;

	if (est_store_check_tree(&bad, a->store, rev) < 0) {
		if (!bad)
			return -1;
		failed = fail(a, step, bad, "tree", "%s", est_error_message());
		est_error_clear();
	}
	free(bad);
	return failed;
}

static int check_fixed(audit *a, long long step, const char *rev)
{
	char *changed = NULL;
	int failed = 0;

	if (est_game_fixed_files(&changed, a->store, rev) < 0)
		return -1;
	if (changed)
		failed = fail(a, step, changed, "fixed", "%s at %s is not the one the game was created "
			      "with (step-0000): game.json, keys/allowed_signers, .gitattributes and "
			      "rules/ are fixed for the whole game", changed, rev);
	free(changed);
	return failed;
}

/*
 * keys/allowed_signers at `rev` holds only the lines estafette writes for
 * game.json's players and the GM (est_game_check_keys): step 0's keys
 * judge every order, so a line pasted into them would pass every other
 * check.
 */
static int check_keys(audit *a, long long step, const char *rev)
{
	char message[1024];
	int error = est_game_check_keys(a->store, rev);

	if (error == 0)
		return 0;
	if (error != EST_ENOTFOUND)
		return -1;
	snprintf(message, sizeof(message), "%s", est_error_message());
	est_error_clear();
	return fail(a, step, "keys/allowed_signers", "keys", "%s", message);
}

/* The act of a GM step: the file its manifest names, with the SHA-256 it gives (check_gm_acts checked its signature). */
static int gm_step_act(json_t **act_out, audit *a, long long step, const json_t *manifest)
{
	const char *file = json_string_value(json_object_get(manifest, "file"));
	char path[300], sha[65], *bytes = NULL;
	size_t len;
	int failed;

	snprintf(path, sizeof(path), "turns/%04lld/gm/%s", step, file ? file : "?");
	if ((failed = read_step_file(&bytes, &len, a, step, path)) != 0)
		return failed;
	est_sha256_hex(sha, bytes, len);
	if (!same_string(json_object_get(manifest, "sha256"), sha))
		failed = fail(a, step, path, "manifest", "the SHA-256 of %s is not the manifest's", path);
	else
		failed = parse(act_out, a, step, path, bytes, len);
	free(bytes);
	return failed;
}

/*
 * turns/NNNN/orders/ holds exactly the files the manifest lists as
 * resolved (docs/protocol.md "The repository"), in the step's
 * commit and at main: a file slipped in beside them would claim a part in
 * the step it never had.
 */
/*
 * turns/NNNN/ holds only what a step writes, and main holds it exactly as
 * the step's commit did (same tree id): a file added there afterwards, or
 * slipped into the step's own commit, is no part of any step.
 */
/* The first path under `dir` whose git id differs between `tag` and main, into out[320]. */
static void differing_path(char out[320], audit *a, const char *tag, const char *dir)
{
	const char *revs[2] = {tag, "main"};
	char path[320], x[EST_STORE_OID_HEX + 1], y[EST_STORE_OID_HEX + 1], **names = NULL;
	size_t count = 0;

	snprintf(out, 320, "%s", dir);
	for (int r = 0; r < 2; r++) {
		if (est_store_list(&names, &count, a->store, revs[r], dir) < 0)
			break;
		for (size_t i = 0; i < count; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			int ex = est_store_id(x, a->store, tag, path), ey = est_store_id(y, a->store, "main", path);
			if (ex == 0 && ey == 0 && strcmp(x, y) == 0)
				continue;
			/* A folder on both sides: look inside it for the file itself. */
			if (ex == 0 && ey == 0)
				differing_path(out, a, tag, path);
			else
				snprintf(out, 320, "%s", path);
			est_store_list_free(names);
			est_error_clear();
			return;
		}
		est_store_list_free(names);
		names = NULL;
	}
	est_error_clear();
}

static int check_step_folder(audit *a, long long step)
{
	static const char *const made[] = {"manifest.json", "dice.json", "events.json", "report.txt",
					   "report.html", "map.svg", "orders", "gm", NULL};
	char dir[64], tag[40], at_tag[EST_STORE_OID_HEX + 1], at_main[EST_STORE_OID_HEX + 1], **names = NULL;
	size_t count = 0, i, j;
	int failed = 0;

	snprintf(dir, sizeof(dir), "turns/%04lld", step);
	tag_of(tag, step);
	if (est_store_id(at_tag, a->store, tag, dir) < 0 || est_store_id(at_main, a->store, "main", dir) < 0 ||
	    strcmp(at_tag, at_main) != 0) {
		char path[320];

		est_error_clear();
		differing_path(path, a, tag, dir);
		return fail(a, step, path, "history", "%s at main is not what step %lld committed (%s): "
			    "it was added, changed or removed afterwards", path, step, tag);
	}
	if (est_store_list(&names, &count, a->store, tag, dir) < 0)
		return -1;
	for (i = 0; i < count && !failed; i++) {
		for (j = 0; made[j] && strcmp(made[j], names[i]) != 0; j++)
			;
		if (!made[j])
			failed = fail(a, step, dir, "step folder", "%s/%s is no file a step writes: turns/NNNN/ "
				      "holds the manifest, dice.json, events.json, the reports, the map, orders/ "
				      "and gm/", dir, names[i]);
	}
	est_store_list_free(names);
	return failed;
}

static int check_order_folder(audit *a, long long step, const json_t *manifest)
{
	static const char *const revs[] = {NULL, "main"};
	char dir[64], tag[40], **names = NULL;
	size_t count = 0;
	int failed = 0;

	snprintf(dir, sizeof(dir), "turns/%04lld/orders", step);
	tag_of(tag, step);
	for (int r = 0; r < 2 && !failed; r++) {
		const char *rev = revs[r] ? revs[r] : tag;
		if (est_store_list(&names, &count, a->store, rev, dir) < 0)
			return -1;
		for (size_t i = 0; i < count && !failed; i++) {
			char path[320];
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			if (!est_step_manifest_lists(manifest, names[i]))
				failed = fail(a, step, path, "orders folder", "%s (at %s) is not a file step %lld "
					      "resolved: turns/%04lld/orders/ holds only the order files, "
					      "signatures and commitments turns/%04lld/manifest.json lists, and "
					      "this one it does not list", path, rev, step, step, step);
			else if (r == 0)
				a->order_files++;
		}
		est_store_list_free(names);
		names = NULL;
	}
	return failed;
}

/* The 1-based number of the first line where `a` and `b` differ. */
static long long first_difference(const char *a, size_t a_len, const char *b, size_t b_len)
{
	long long line = 1;

	for (size_t i = 0; i < a_len && i < b_len && a[i] == b[i]; i++)
		line += a[i] == '\n';
	return line;
}

/* The game as it stood when step `step` was resolved: main just before the step's commit. */
static int game_before(audit *a, long long step)
{
	char rev[48];

	snprintf(rev, sizeof(rev), "step-%04lld^", step);
	if (a->at)
		return est_game_pin(a->at, rev);
	return est_game_open_at(&a->at, a->path, rev);
}

/*
 * Every order file main's history recorded for the step (accepted.h) that
 * came before the step's commit and holds as run checks it (signature,
 * binding, turn, rules, sealed orders' commitment) against the game at the
 * commit that recorded it, at that commit's time (and, if a seat changed
 * hands since, with the keys the step was resolved with), is an order the GM
 * accepted: the step must have resolved it or a later seq of its player.
 * A dropped order, an older seq put back over a newer one, or one whose
 * commitment was taken out afterwards is caught here. A sealed game's
 * orders are the GM's until reveal.
 */
/* Whether keys/allowed_signers changed between commit `rev` and the commit before step `step`. */
static int keys_changed(audit *a, const char *rev, long long step)
{
	char before[48], *x = NULL, *y = NULL;
	size_t xl = 0, yl = 0;
	int changed;

	snprintf(before, sizeof(before), "step-%04lld^", step);
	changed = est_store_read(&x, &xl, a->store, rev, "keys/allowed_signers") < 0 ||
		  est_store_read(&y, &yl, a->store, before, "keys/allowed_signers") < 0 || xl != yl ||
		  memcmp(x, y, xl) != 0;
	est_error_clear();
	free(x);
	free(y);
	return changed;
}

/*
 * Whether the order file `path` that `commit` recorded still holds with
 * the keys step `step` was resolved with: 0 when a seat changed hands
 * since (gm replace revoked the key that signed it), so the step rightly
 * set it aside. A sealed game's files are not on main: a changed key
 * line is taken as the revocation.
 */
static int kept_by_keys(audit *a, long long step, const char *commit, const char *path)
{
	char *bytes = NULL, *sig = NULL, *sig_path = NULL;
	size_t len, sig_len;
	long long when;
	int held;

	if (!keys_changed(a, commit, step))
		return 1;
	if (a->sealed)
		return 0;
	held = (sig_path = est_strdup_printf("%s.sig", path)) &&
	       est_store_commit_time(&when, a->store, commit) == 0 && game_before(a, step) == 0 &&
	       est_store_read(&bytes, &len, a->store, commit, path) == 0 &&
	       est_store_read(&sig, &sig_len, a->store, commit, sig_path) == 0 &&
	       est_intake_check_recorded(NULL, a->at, path, bytes, len, sig, sig_len, (time_t)when) == 0;
	est_error_clear();
	free(bytes);
	free(sig);
	free(sig_path);
	return held;
}

static int check_accepted(audit *a, long long step, const json_t *manifest)
{
	const json_t *list, *e;
	char tag[40], key[32], why[512], seat[65];
	long long when;
	size_t i;
	int failed = 0;

	snprintf(key, sizeof(key), "%lld", step);
	if (a->sealed || !(list = json_object_get(a->recorded, key)))
		return 0;
	tag_of(tag, step);
	json_array_foreach(list, i, e) {
		const char *commit = json_string_value(json_object_get(e, "commit"));
		const char *path = json_string_value(json_object_get(e, "path"));
		const char *player = json_string_value(json_object_get(e, "player"));
		char *bytes = NULL, *sig = NULL, *sig_path = est_strdup_printf("%s.sig", path);
		size_t len, sig_len;
		int before = 0, holds;

		if (!sig_path || est_store_descends(&before, a->store, tag, commit) < 0 ||
		    (before && (est_store_commit_time(&when, a->store, commit) < 0 ||
				(a->at ? est_game_pin(a->at, commit) : est_game_open_at(&a->at, a->path, commit)) < 0))) {
			free(sig_path);
			return -1;
		}
		/* A file under another player's name is not one run reads for this player. */
		holds = before && player_order_path(seat, a, path) && strcmp(seat, player) == 0 &&
			est_store_read(&bytes, &len, a->store, commit, path) == 0 &&
			est_store_read(&sig, &sig_len, a->store, commit, sig_path) == 0 &&
			est_intake_check_recorded(NULL, a->at, path, bytes, len, sig, sig_len, (time_t)when) == 0;
		est_error_clear();
		holds = holds && kept_by_keys(a, step, commit, path);
		free(bytes);
		free(sig);
		free(sig_path);
		a->accepted += holds;
		if (holds && !est_audit_order_kept(why, sizeof(why), manifest, player,
						   json_integer_value(json_object_get(e, "seq")),
						   json_string_value(json_object_get(e, "sha256"))))
			failed = fail(a, step, path, "accepted", "commit %.7s recorded %s for step %lld (player "
				      "\"%s\", seq %lld, SHA-256 %.16s...), which holds as run checks it, but %s",
				      commit, path, step, player, (long long)json_integer_value(json_object_get(e, "seq")),
				      json_string_value(json_object_get(e, "sha256")), why);
		if (failed)
			break;
	}
	return failed;
}

/*
 * What players read of the step: events.json, report.txt, report.html and
 * map.svg, made again (est_step_derived, as the step made them) from the
 * replay, the game as it stood before the step (its players, its
 * templates/ if the GM put any there, else the installed ones) and the
 * deadline dated by the step's commit; each must be the committed file
 * byte for byte, and a file no template makes must not be there.
 */
static int check_derived(audit *a, long long step, const json_t *kind, const json_t *manifest,
			 const json_t *press, const json_t *wrapped, json_t *events, const char *sha,
			 const unsigned char reveal[32], const unsigned char seed[32], est_dice *dice)
{
	char tag[40], path[80], *text = NULL;
	json_t *notices = NULL, *doc = NULL, *public_doc = NULL, *files = NULL, *dice_doc = NULL;
	const char *failed_name = est_step_derived_files[0];
	long long opened;
	time_t deadline;
	size_t len;
	int failed = 0;

	tag_of(tag, step);
	if (game_before(a, step) < 0 || est_store_commit_time(&opened, a->store, tag) < 0 ||
	    est_step_deadline(&deadline, a->at, wrapped, opened) < 0 ||
	    est_step_notices(&notices, a->at, manifest, press) < 0 ||
	    json_array_extend(events, notices) < 0 ||
	    est_step_events_doc(&doc, step, kind, events) < 0 ||
	    (a->sealed && !(public_doc = est_public_events(doc))) ||
	    !(dice_doc = est_step_report_dice(reveal, seed, dice)) ||
	    est_step_derived(&files, &failed_name, a->at, step, wrapped, sha, public_doc ? public_doc : doc,
			     dice_doc, deadline) < 0) {
		snprintf(path, sizeof(path), "turns/%04lld/%s", step, failed_name ? failed_name : "");
		failed = fail(a, step, path, "derived", "%s cannot be made again, so the audit cannot say "
			      "it is what step %lld gave: %s; audit with the estafette and templates the "
			      "game was played with (ESTAFETTE_DATA names their folder)", path, step,
			      est_error_message()[0] ? est_error_message() : "out of memory");
		est_error_clear();
		goto out;
	}
	for (size_t i = 0; est_step_derived_files[i] && !failed; i++) {
		const json_t *made = json_object_get(files, est_step_derived_files[i]);
		snprintf(path, sizeof(path), "turns/%04lld/%s", step, est_step_derived_files[i]);
		if (!made) {
			if (est_store_read(&text, &len, a->store, tag, path) == 0)
				failed = fail(a, step, path, "derived", "%s is in step %lld's commit, but neither "
					      "the game's templates/ nor estafette's make such a file", path, step);
			est_error_clear();
			free(text);
			text = NULL;
			continue;
		}
		if ((failed = read_step_file(&text, &len, a, step, path)) != 0)
			break;
		if (len != json_string_length(made) || memcmp(text, json_string_value(made), len) != 0)
			failed = fail(a, step, path, "derived", "%s is not what step %lld gives when resolved "
				      "again%s (line %lld differs): it was edited after the step was "
				      "resolved%s", path, step, i == 0 ? "" : " and rendered with the "
				      "templates of its commit", first_difference(text, len,
				      json_string_value(made), json_string_length(made)), i == 0 ? "" :
				      ", or made with templates other than the game's templates/ or "
				      "estafette " EST_VERSION "'s");
		else
			a->derived++;
		free(text);
		text = NULL;
	}
out:
	json_decref(files);
	json_decref(dice_doc);
	json_decref(public_doc);
	json_decref(doc);
	json_decref(notices);
	return failed;
}

/*
 * Step t's tag names a commit of main's history that follows step t-1's:
 * a step resolved on a side branch (its templates, acts or keys never on
 * main) is no step of this game.
 */
static int check_on_main(audit *a, long long t, const char *tag)
{
	char before[40];
	int on_main = 0, follows = 0;

	tag_of(before, t - 1);
	if (est_store_descends(&on_main, a->store, "main", tag) < 0 ||
	    est_store_descends(&follows, a->store, tag, before) < 0) {
		est_error_clear();
		on_main = follows = 0;
	}
	if (!on_main || !follows)
		return fail(a, t, tag, "history", "tag %s names a commit %s; steps follow one another on "
			    "main, each tag on main's history after the one before it", tag,
			    !on_main ? "that is not in main's history" : "that does not follow the step before");
	return 0;
}

/* One step: its files, its orders, its dice, and the state they give. */
static int check_step(json_t **wrapped, char sha[65], unsigned char reveal[32], audit *a, long long step)
{
	char mpath[64], dpath[64], tag[40], *manifest_text = NULL, *dice_text = NULL;
	unsigned char seed[32], manifest_sha[32], key[32] = {0};
	json_t *manifest = NULL, *dice_doc = NULL, *orders = json_object(), *next = NULL, *act = NULL;
	json_t *inputs = NULL, *press = json_object(), *events = NULL, *kind = NULL, *pending = NULL;
	est_dice *dice = NULL, *hidden = NULL;
	size_t mlen, dlen;
	int failed;

	snprintf(mpath, sizeof(mpath), "turns/%04lld/manifest.json", step);
	snprintf(dpath, sizeof(dpath), "turns/%04lld/dice.json", step);
	tag_of(tag, step);
	if ((failed = check_tree(a, step, tag)) != 0 || (failed = check_on_main(a, step, tag)) != 0 ||
	    (failed = check_fixed(a, step, tag)) != 0 ||
	    (failed = check_gm_acts(a, step, sha)) != 0 ||
	    (failed = read_step_file(&manifest_text, &mlen, a, step, mpath)) != 0 ||
	    (failed = read_step_file(&dice_text, &dlen, a, step, dpath)) != 0 ||
	    (failed = parse(&manifest, a, step, mpath, manifest_text, mlen)) != 0 ||
	    (failed = parse(&dice_doc, a, step, dpath, dice_text, dlen)) != 0 ||
	    (failed = check_dice(seed, reveal, &inputs, a, step, dice_doc, manifest, manifest_text, mlen, sha,
				 dpath)) != 0 ||
	    (failed = check_order_folder(a, step, manifest)) != 0 ||
	    (failed = check_step_folder(a, step)) != 0)
		goto out;
	if (a->blind) {
		failed = cannot_verify(a, step, "an earlier step of this sealed game could not be replayed");
		goto out;
	}
	est_sha256(manifest_sha, manifest_text, mlen);
	/* A GM step (kind "gm") is its act applied to the state, with no orders. */
	if (same_string(json_object_get(manifest, "kind"), "gm")) {
		failed = gm_step_act(&act, a, step, manifest);
		kind = json_string("gm");
	} else {
		failed = gather_orders(orders, press, a, step, manifest, *wrapped, sha, mpath);
		if (!failed)
			failed = check_accepted(a, step, manifest);
		/* The kind of step resolved, as the state before it awaited. */
		if (!failed && est_turn_ruleset_pending(&pending, a->rs, a->rules, *wrapped) < 0)
			failed = -1;
		kind = json_incref(json_object_get(pending, "kind"));
	}
	if (failed != 0 || (failed = est_step_dice_new(&dice, a->game, seed)) != 0 ||
	    (failed = hidden_stream(&hidden, key, a, step, dice_doc, manifest_sha, inputs)) != 0 ||
	    (failed = replay(&next, &events, sha, a, step, *wrapped, orders, dice, hidden, key, dice_doc,
			     act)) != 0 ||
	    (failed = check_derived(a, step, kind, manifest, press, next, events, sha, reveal, seed,
				    dice)) != 0)
		goto out;
	json_decref(*wrapped);
	*wrapped = next;
	next = NULL;
	if ((failed = as_read(wrapped)) != 0)
		goto out;
	a->steps++;
out:
	if (failed == UNVERIFIABLE)
		a->underived++;
	if (failed == UNVERIFIABLE && (failed = check_listed_rolls(a, step, seed, dice_doc, dpath)) == 0) {
		json_decref(*wrapped);
		*wrapped = NULL;
		failed = go_on_unverified(wrapped, sha, a, step);
	}
	json_decref(next);
	json_decref(act);
	json_decref(inputs);
	json_decref(pending);
	json_decref(kind);
	json_decref(events);
	json_decref(press);
	est_dice_free(hidden);
	est_dice_free(dice);
	json_decref(orders);
	json_decref(dice_doc);
	json_decref(manifest);
	free(dice_text);
	free(manifest_text);
	return failed;
}

/* The principal and namespace of the GM's signatures on commits and tags (docs/protocol.md "Signatures"). */
#define GM_PRINCIPAL "gm"
#define GIT_NAMESPACE "git"

/*
 * Is `path` one of the files a player may commit unsigned (docs/protocol.md
 * "Signed history"): orders/<player>.json, orders/<player>.commitment.json,
 * or either's .sig, for a player of game.json? The player's id into
 * seat[65].
 */
static int player_order_path(char seat[65], const audit *a, const char *path)
{
	static const char *const suffixes[] = {".commitment.json.sig", ".commitment.json", ".json.sig",
					       ".json"};
	const char *name = path + strlen("orders/");
	const json_t *p;
	size_t i, n, len;

	if (strncmp(path, "orders/", strlen("orders/")) != 0 || strchr(name, '/'))
		return 0;
	len = strlen(name);
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		n = strlen(suffixes[i]);
		if (len > n && len - n < 65 && strcmp(name + len - n, suffixes[i]) == 0)
			break;
	}
	if (i == sizeof(suffixes) / sizeof(suffixes[0]))
		return 0;
	memcpy(seat, name, len - n);
	seat[len - n] = '\0';
	json_array_foreach(json_object_get(a->game, "players"), i, p)
		if (same_string(json_object_get(p, "id"), seat))
			return 1;
	return 0;
}

/*
 * 1 when `data` carries a good signature `sig` by the GM's key of step 0's
 * keys/allowed_signers in namespace "git", at time `when`; else 0 with the
 * reason in why[256].
 */
static int gm_signed(char why[256], const audit *a, const char *sig, size_t sig_len, const char *data,
		     size_t data_len, long long when)
{
	if (!sig) {
		snprintf(why, 256, "it carries no signature");
		return 0;
	}
	if (est_sshsig_verify(a->signers, a->signers_len, GM_PRINCIPAL, GIT_NAMESPACE, data, data_len, sig,
			      sig_len, (time_t)when) == 0)
		return 1;
	snprintf(why, 256, "its signature is not a good one by the GM's key: %s", est_error_message());
	est_error_clear();
	return 0;
}

/*
 * An unsigned commit (why: what its signature lacks) must be a player's:
 * one parent, and nothing changed but one player's own order files, added
 * or changed as plain files. Returns 0 or fail's 1.
 */
static int check_player_commit(audit *a, long long step, const json_t *c, const char *name, const char *why)
{
	const json_t *parents = json_object_get(c, "parents"), *ch;
	const char *id = json_string_value(json_object_get(c, "commit"));
	char seat[65], first[65] = "";
	json_t *changes = NULL;
	size_t i;
	int failed = 0;

	if (json_array_size(parents) != 1)
		return fail(a, step, name, "signatures", "%s is not the GM's (%s), and it has %zu parents, but "
			    "only the GM's commits may%s: a commit the GM did not make changed the game",
			    name, why, json_array_size(parents), json_array_size(parents) ? " merge" :
			    " start a history");
	if (est_store_changes(&changes, a->store, json_string_value(json_array_get(parents, 0)), id) < 0)
		return -1;
	if (json_array_size(changes) == 0)
		failed = fail(a, step, name, "signatures", "%s is not the GM's (%s), and it changes no file, "
			      "but a player's commit only brings in order files", name, why);
	json_array_foreach(changes, i, ch) {
		const char *path = json_string_value(json_object_get(ch, "path"));
		if (failed)
			break;
		if (!player_order_path(seat, a, path) || (first[0] && strcmp(seat, first) != 0))
			failed = fail(a, step, name, "signatures", "%s is not the GM's (%s), and it changes %s, "
				      "but a commit not signed by the GM may change only one player's "
				      "orders/<player>.json, orders/<player>.commitment.json and their .sig: "
				      "someone other than the GM changed the game", name, why, path);
		else if (!same_string(json_object_get(ch, "status"), "added") &&
			 !same_string(json_object_get(ch, "status"), "modified"))
			failed = fail(a, step, name, "signatures", "%s is not the GM's (%s), and %s is %s in it, "
				      "but a player's commit only adds or changes order files", name, why, path,
				      json_string_value(json_object_get(ch, "status")));
		else if (json_integer_value(json_object_get(ch, "mode")) != 0100644)
			failed = fail(a, step, name, "signatures", "%s is not the GM's (%s), and %s in it is "
				      "not a plain file (mode 100644)", name, why, path);
		else
			snprintf(first, sizeof(first), "%s", seat);
	}
	json_decref(changes);
	if (!failed)
		a->player_commits++;
	return failed;
}

/*
 * A signed history (game.json "signed_history": true): every commit of
 * main is signed by the GM or is a player's order files only, and every
 * step tag is signed by the GM, names its own step and tags a commit the
 * GM signed.
 */
static int check_signatures(audit *a, long long last)
{
	char tag[40], target[EST_STORE_OID_HEX + 1], name[160], why[256];
	char *sig = NULL, *data = NULL;
	json_t *steps = json_object(), *signed_ids = json_object(), *c;
	size_t sig_len, data_len, i;
	long long step = 0;
	int failed = 0;

	if (!steps || !signed_ids) {
		failed = -1;
		goto out;
	}
	for (long long t = 0; t <= last; t++) {
		tag_of(tag, t);
		if (est_store_tag_target(target, a->store, tag) < 0) {
			failed = -1;
			goto out;
		}
		json_object_set_new(steps, target, json_integer(t));
	}
	json_array_foreach(a->log, i, c) {
		const char *id = json_string_value(json_object_get(c, "commit"));
		const json_t *at = json_object_get(steps, id);
		/* the step a commit belongs to: its own, or the one it leads to */
		long long of = at ? json_integer_value(at) : step + 1;
		if (at)
			step = json_integer_value(at);
		snprintf(name, sizeof(name), "commit %.7s \"%.100s\"", id,
			 json_string_value(json_object_get(c, "subject")));
		if (est_store_commit_signature(&sig, &sig_len, &data, &data_len, a->store, id) < 0) {
			failed = -1;
			goto out;
		}
		if (gm_signed(why, a, sig, sig_len, data, data_len,
			      json_integer_value(json_object_get(c, "time")))) {
			a->signed_commits++;
			/* its time, for the tag's: a tree with a link is check_step's to name, not a read's */
			json_object_set(signed_ids, id, json_object_get(c, "time"));
		} else if ((failed = check_player_commit(a, of, c, name, why)) != 0) {
			goto out;
		}
		free(sig);
		free(data);
		sig = data = NULL;
	}
	for (long long t = 0; t <= last && !failed; t++) {
		char line[64];
		long long when = 0;
		tag_of(tag, t);
		if (est_store_tag_target(target, a->store, tag) < 0 ||
		    est_store_tag_signature(&sig, &sig_len, &data, &data_len, a->store, tag) < 0) {
			failed = -1;
			goto out;
		}
		when = json_integer_value(json_object_get(signed_ids, target));
		snprintf(line, sizeof(line), "\ntag %s\n", tag);
		if (!gm_signed(why, a, sig, sig_len, data, data_len, when))
			failed = fail(a, t, tag, "signatures", "tag %s is not the GM's: %s%s; a step tag is an "
				      "annotated tag the GM signed", tag, why, sig ? "" : " (a lightweight "
				      "tag or an unsigned one)");
		else if (!strstr(data, line))
			failed = fail(a, t, tag, "signatures", "tag %s is the GM's tag of another name, copied",
				      tag);
		else if (!json_object_get(signed_ids, target))
			failed = fail(a, t, tag, "signatures", "tag %s points to %.7s, which is not a commit of "
				      "main the GM signed", tag, target);
		else
			a->signed_tags++;
		free(sig);
		free(data);
		sig = data = NULL;
	}
out:
	free(sig);
	free(data);
	json_decref(signed_ids);
	json_decref(steps);
	return failed;
}

/* The order file the receipt names, at `rev`: 1 if it is there with the receipt's SHA-256 or a later seq. */
static int still_held(audit *a, const char *rev, const char *player, long long seq, const char *sha, int later_ok)
{
	char path[320], got[65], *text = NULL;
	json_t *doc = NULL;
	size_t len;
	int held;

	snprintf(path, sizeof(path), "orders/%s.json", player);
	if (est_store_read(&text, &len, a->store, rev, path) < 0) {
		est_error_clear();
		return 0;
	}
	est_sha256_hex(got, text, len);
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	held = strcmp(got, sha) == 0 || (later_ok && json_integer_value(json_object_get(doc, "seq")) > seq);
	json_decref(doc);
	free(text);
	return held;
}

/* 1 if `rev` holds orders/<player>.json.sig, `player`'s good signature of `bytes` under `rev`'s keys. */
static int signed_there(audit *a, const char *rev, const char *player, const char *bytes, size_t len)
{
	char path[320], *sig = NULL, *keys = NULL;
	size_t sig_len, keys_len;
	int good;

	snprintf(path, sizeof(path), "orders/%s.json.sig", player);
	good = est_store_read(&sig, &sig_len, a->store, rev, path) == 0 &&
	       est_store_read(&keys, &keys_len, a->store, rev, "keys/allowed_signers") == 0 &&
	       est_sshsig_verify(keys, keys_len, player, EST_ORDERS_NAMESPACE, bytes, len, sig, sig_len,
				 time(NULL)) == 0;
	est_error_clear();
	free(sig);
	free(keys);
	return good;
}

/*
 * The receipt says of the file what the file says of itself: at the commit
 * it names, orders/<player>.json (a sealed game: its public note
 * orders/<player>.received) has its SHA-256 and carries its game, step,
 * player and seq, and (unsealed) the player's good signature beside it
 * under that commit's keys; and the receipt's file name is made of them. Else a GM
 * could sign a true SHA-256 and commit under another step, one a GM act
 * covers, and the player's proof would prove nothing. 1 if bound, else 0
 * with the reason in `why`.
 */
static int receipt_bound(char *why, size_t why_len, audit *a, const char *name, const json_t *r)
{
	const char *player = json_string_value(json_object_get(r, "player"));
	const char *sha = json_string_value(json_object_get(r, "sha256"));
	long long step = json_integer_value(json_object_get(r, "step"));
	long long seq = json_integer_value(json_object_get(r, "seq"));
	char path[320], want[320], got[65], *text = NULL;
	json_t *doc = NULL;
	size_t len;
	int bound = 0;

	snprintf(want, sizeof(want), "receipt-%04lld-%s-%lld.json", step, player, seq);
	snprintf(path, sizeof(path), "orders/%s.%s", player, a->sealed ? "received" : "json");
	if (strcmp(name, want) != 0) {
		snprintf(why, why_len, "its name is not %s, which its step, player and seq make", want);
		return 0;
	}
	if (est_store_read(&text, &len, a->store, json_string_value(json_object_get(r, "recorded")), path) < 0) {
		est_error_clear();
		snprintf(why, why_len, "the commit it names holds no %s", path);
		return 0;
	}
	est_sha256_hex(got, text, len);
	doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	if (a->sealed)
		snprintf(got, sizeof(got), "%s", json_string_value(json_object_get(doc, "sha256")) ?
			 json_string_value(json_object_get(doc, "sha256")) : "");
	bound = strcmp(got, sha) == 0 && json_integer_value(json_object_get(doc, "step")) == step &&
		json_integer_value(json_object_get(doc, "seq")) == seq &&
		!strcmp(json_string_value(json_object_get(doc, "player")) ?
			json_string_value(json_object_get(doc, "player")) : "", player) &&
		(a->sealed || !strcmp(json_string_value(json_object_get(doc, "game")) ?
				      json_string_value(json_object_get(doc, "game")) : "", a->id));
	if (!bound)
		snprintf(why, why_len, "the commit it names holds %s with other contents: SHA-256 %.16s..., "
			 "step %lld, seq %lld, where the receipt says SHA-256 %.16s..., step %lld, seq %lld",
			 path, got, (long long)json_integer_value(json_object_get(doc, "step")),
			 (long long)json_integer_value(json_object_get(doc, "seq")), sha, step, seq);
	else if (!a->sealed && !signed_there(a, json_string_value(json_object_get(r, "recorded")), player,
					     text, len)) {
		snprintf(why, why_len, "the commit it names holds %s, but not with the player's good "
			 "signature under that commit's keys/allowed_signers: no order was accepted there", path);
		bound = 0;
	}
	json_decref(doc);
	free(text);
	return bound;
}

/*
 * One GM-signed receipt (accepted.h): the commit it names is on main's
 * history and holds the very file it receipts (receipt_bound); the step it names resolved
 * the file or a later seq of the player, or, while that step is open, main
 * still holds it or a later seq (unsealed).
 */
static int check_receipt(audit *a, long long last, const char *name, const json_t *r)
{
	const char *player = json_string_value(json_object_get(r, "player"));
	const char *sha = json_string_value(json_object_get(r, "sha256"));
	const char *recorded = json_string_value(json_object_get(r, "recorded"));
	long long step = json_integer_value(json_object_get(r, "step"));
	long long seq = json_integer_value(json_object_get(r, "seq"));
	char path[80], why[512], *text = NULL;
	json_t *manifest = NULL;
	size_t len;
	int on_main = 0, failed = 0;

	if (strlen(recorded) != EST_STORE_OID_HEX || est_store_descends(&on_main, a->store, "main", recorded) < 0)
		est_error_clear();
	if (!on_main)
		return fail(a, step, name, "receipts", "receipt %s: commit %.12s, which recorded player \"%s\"'s "
			    "seq %lld for step %lld, is not on main's history: the history that recorded an "
			    "accepted order was rewritten", name, recorded, player, seq, step);
	if (!receipt_bound(why, sizeof(why), a, name, r))
		return fail(a, step, name, "receipts", "receipt %s: commit %.7s: %s; signed by the GM "
			    "all the same, the receipt proves nothing it says", name, recorded, why);
	if (step > last) {
		if (!a->sealed && !still_held(a, "main", player, seq, sha, 1))
			failed = fail(a, step, name, "receipts", "receipt %s: player \"%s\"'s seq %lld for step "
				      "%lld, the open step, was accepted, but neither it nor a later seq is at "
				      "main any more: an accepted order was taken out", name, player, seq, step);
		return failed;
	}
	snprintf(path, sizeof(path), "turns/%04lld/manifest.json", step);
	if ((failed = read_at_step(&text, &len, a, step, path)) != 0 ||
	    (failed = parse(&manifest, a, step, path, text, len)) != 0)
		goto out;
	snprintf(path, sizeof(path), "orders/%s.json", player);
	if (!est_audit_order_kept(why, sizeof(why), manifest, player, seq, sha) &&
	    kept_by_keys(a, step, recorded, path))
		failed = fail(a, step, name, "receipts", "receipt %s: player \"%s\"'s seq %lld (SHA-256 "
			      "%.16s...) for step %lld was accepted, but %s", name, player, seq, sha, step, why);
out:
	json_decref(manifest);
	free(text);
	return failed;
}

static int is_json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && d->d_name[0] != '.' && strcmp(d->d_name + n - 5, ".json") == 0;
}

/* A name the audit may print: what a receipt's attachment name is made of. */
static int plain_name(const char *name)
{
	return strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(name) &&
	       strlen(name) <= 200;
}

/* A file of --receipts DIR that is no evidence: listed, and the audit goes on with the others. */
static int no_evidence(audit *a, const char *name, const char *why)
{
	return json_array_append_new(a->refused_receipts, json_pack("{s:s, s:s}", "file", plain_name(name) ?
				     name : "(a name of other characters)", "why", why)) < 0 ? -1 : 0;
}

/* Every receipt of `dir` (`audit --receipts DIR`), in name order. */
static int check_receipts(audit *a, long long last, const char *dir)
{
	struct dirent **names = NULL;
	char why[512];
	int n, i, failed = 0;

	if ((n = scandir(dir, &names, is_json_name, alphasort)) < 0) {
		est_error_set(EST_ENOTFOUND, "--receipts %s: cannot read the folder: %s", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < n && !failed; i++) {
		json_t *doc = NULL;
		int r = plain_name(names[i]->d_name) ?
			est_audit_read_receipt(&doc, why, sizeof(why), dir, names[i]->d_name, a->signers,
					       a->signers_len, a->id) :
			(snprintf(why, sizeof(why), "its name is not a receipt's (letters, digits, . _ -)"), 0);
		if (r < 0)
			failed = -1;
		else if (r == 0)
			failed = no_evidence(a, names[i]->d_name, why);
		else if ((failed = check_receipt(a, last, names[i]->d_name, doc)) == 0)
			a->receipts++;
		json_decref(doc);
	}
	if (!failed && a->receipts == 0 && json_array_size(a->refused_receipts) == 0) {
		est_error_set(EST_ENOTFOUND, "--receipts %s: no receipt there (receipt-NNNN-PLAYER-SEQ.json and "
			      "its .sig, as the receipts' mail attached them)", dir);
		failed = -1;
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return failed;
}

/* No step missing, none after the last, and main's state.json the last step's. */
static int check_history(audit *a, long long last)
{
	char **names = NULL, name[32], tag[40], target[EST_STORE_OID_HEX + 1], *at_main = NULL, *at_tag = NULL;
	size_t count = 0, main_len, tag_len;
	int failed = 0;

	if (est_store_list(&names, &count, a->store, "main", "turns") < 0)
		return -1;
	for (long long t = 1; t <= last && !failed; t++) {
		snprintf(name, sizeof(name), "%04lld", t);
		tag_of(tag, t);
		if (est_store_tag_target(target, a->store, tag) < 0) {
			est_error_clear();
			failed = fail(a, t, tag, "history", "step %lld has no tag %s: a step was dropped or "
				      "its tag removed (a clone that never fetched the tags has none: "
				      "git fetch --tags, then audit again)", t, tag);
		} else if ((size_t)(t - 1) >= count || strcmp(names[t - 1], name) != 0) {
			failed = fail(a, t, "turns/", "history", "turns/%s is missing at main: a step was "
				      "dropped from the history", name);
		}
	}
	if (!failed && count != (size_t)last)
		failed = fail(a, last, "turns/", "history", "main has %zu step folders under turns/ but "
			      "state.json says step %lld", count, last);
	tag_of(tag, last);
	if (!failed && (est_store_read(&at_main, &main_len, a->store, "main", "state.json") < 0 ||
			est_store_read(&at_tag, &tag_len, a->store, tag, "state.json") < 0 ||
			main_len != tag_len || memcmp(at_main, at_tag, tag_len) != 0))
		failed = fail(a, last, "state.json", "history", "state.json at main is not the one step "
			      "%lld committed", last);
	est_error_clear();
	free(at_tag);
	free(at_main);
	est_store_list_free(names);
	return failed;
}

/* The GM's sealed store, if this machine has it: it lets the GM audit before `reveal`. */
static void open_sealed_store(audit *a, const char *home)
{
	char *path = est_strdup_printf("%s/games/%s/sealed.git", home, a->id);

	if (path && est_store_open(&a->sealed_store, path) < 0)
		a->sealed_store = NULL;
	est_error_clear();
	free(path);
}

/*
 * reveal.json at main: h_T, which must hash to game.json's hidden chain
 * tip in exactly T steps.
 */
static int check_reveal_json(audit *a, long long last)
{
	const char *tip = json_string_value(json_object_get(json_object_get(a->game, "dice"),
							    "hidden_chain_tip"));
	unsigned char want[32], got[32];
	json_t *doc = NULL;
	long long t;
	int failed;

	if (est_store_read_json(&doc, a->store, "main", "reveal.json") < 0) {
		est_error_clear();
		return 0; /* nothing revealed yet */
	}
	t = json_integer_value(json_object_get(doc, "step"));
	if ((failed = hex32(a->reveal_value, a, t, "reveal.json", json_object_get(doc, "hidden_reveal"),
			    "hidden_reveal")) != 0)
		goto out;
	est_dice_chain_value(got, a->reveal_value, (uint32_t)(t > 0 ? t : 0));
	if (t < 1 || t > last || !tip || est_hex_decode(want, 32, tip) < 0 || memcmp(want, got, 32) != 0) {
		est_error_clear();
		failed = fail(a, t, "reveal.json", "reveal", "reveal.json: hidden_reveal hashed %lld times "
			      "is not game.json's hidden_chain_tip: it is not the hidden chain the GM "
			      "committed to at step 0", t);
		goto out;
	}
	a->revealed = t;
out:
	json_decref(doc);
	return failed;
}

/*
 * A sample game's chains come from a public text (game.json dice.test_secret,
 * new --test-dice-secret), so anyone may draw its hidden values: 1 and its
 * hidden chain's secret in out[32] when that text gives game.json's hidden
 * chain tip, else 0.
 */
static int test_secret_hidden(unsigned char out[32], const json_t *game)
{
	const json_t *dice = json_object_get(game, "dice");
	const char *text = json_string_value(json_object_get(dice, "test_secret"));
	long long n = json_integer_value(json_object_get(dice, "chain_length"));
	unsigned char tip[32], want[32];
	est_secrets secrets;
	int ok;

	if (!text || n < 1 || n > EST_DICE_CHAIN_LENGTH ||
	    est_hex_decode(want, 32, json_string_value(json_object_get(dice, "hidden_chain_tip"))) < 0 ||
	    est_secrets_generate(&secrets, text) < 0) {
		est_error_clear();
		return 0;
	}
	est_dice_chain_value(tip, secrets.hidden, (uint32_t)n);
	if ((ok = CRYPTO_memcmp(tip, want, 32) == 0))
		memcpy(out, secrets.hidden, 32);
	OPENSSL_cleanse(&secrets, sizeof(secrets));
	return ok;
}

static int open_audit(audit *a, const char *path, const char *home)
{
	const char *version;
	int error;

	if ((error = est_store_open(&a->store, path)) < 0 ||
	    (error = est_store_read_json(&a->game, a->store, "step-0000", "game.json")) < 0 ||
	    (error = est_game_read_rules(&a->rules, a->store, "step-0000")) < 0 ||
	    (error = est_store_read(&a->signers, &a->signers_len, a->store, "step-0000",
				    "keys/allowed_signers")) < 0)
		return error;
	a->id = json_string_value(json_object_get(a->game, "id"));
	if (!est_game_dice_version(a->game))
		return est_error_set(EST_EINVAL, "game.json at step-0000: dice.algorithm is \"%s\", neither "
				     EST_DICE_ALGORITHM " nor " EST_DICE_ALGORITHM_V2 "; the game's dice cannot "
				     "be checked", json_string_value(json_object_get(json_object_get(a->game, "dice"),
										"algorithm")));
	if (!a->id || !(a->rs = est_game_ruleset(json_string_value(json_object_get(a->game, "ruleset")))))
		return est_error_set(EST_ECONFIG, "game.json at step-0000: ruleset \"%s\" is not one this "
				     "estafette has; audit it with the estafette that made it",
				     json_string_value(json_object_get(a->game, "ruleset")));
	version = json_string_value(json_object_get(a->game, "ruleset_version"));
	if (!version || strcmp(version, a->rs->version) != 0)
		return est_error_set(EST_ECONFIG, "the game was played with %s %s, and this estafette has "
				     "%s %s: it cannot replay it; audit with the estafette of that version",
				     a->rs->name, version ? version : "?", a->rs->name, a->rs->version);
	unsigned char chain[32];
	a->have_hidden = home && est_game_secrets(chain, a->hidden_secret, home, a->id) == 0;
	est_error_clear();
	if (!a->have_hidden)
		a->have_hidden = test_secret_hidden(a->hidden_secret, a->game);
	a->sealed = json_is_true(json_object_get(a->game, "sealed"));
	a->signed_history = json_is_true(json_object_get(a->game, "signed_history"));
	if (a->sealed && home)
		open_sealed_store(a, home);
	return 0;
}

/* One entry of the report's "checks": what was checked, how many, of what. */
static json_t *check_entry(const char *name, long long count, const char *unit, const char *what)
{
	return json_pack("{s:s, s:I, s:s, s:s}", "check", name, "count", (json_int_t)count, "unit", unit,
			 "what", what);
}

/* The report's "checks" (audit.h): each check the audit makes, with how many it checked. */
static json_t *checks(const audit *a, long long last)
{
	json_t *list = json_array(), *derived;

	json_array_append_new(list, check_entry("history", last, "steps",
		"every step has its tag step-NNNN and its folder turns/NNNN/, and main holds each step's "
		"files as the step's commit made them; game.json, the keys and rules/ are step 0's"));
	json_array_append_new(list, check_entry("setup", 1, "steps",
		"step 0's state.json is the ruleset's set-up from rules/ and the options"));
	json_array_append_new(list, check_entry("dice", a->dice_steps, "steps",
		"each step's revealed chain value hashes to the one before (to game.json's tip for "
		"step 1), and its seed is the one the protocol gives from it and the manifest"));
	json_array_append_new(list, check_entry("orders", a->orders, "order files",
		"each resolved order file and its signature: the SHA-256 the manifest lists, a good "
		"signature of the named player with the game's keys, bound to the game, step and prev"));
	json_array_append_new(list, check_entry("accepted", a->accepted, "order files",
		"every order file a commit of main's history recorded for a step before it resolved, "
		"and that holds as run checks it, was resolved, or a later seq of its player was "
		"(unsealed games)"));
	json_array_append_new(list, check_entry("orders folder", a->order_files, "files",
		"every file under turns/NNNN/orders/, in the step's commit and at main, is one the "
		"manifest lists as resolved (order files, signatures, commitments)"));
	json_array_append_new(list, check_entry("rolls", a->rolls, "rolls",
		"every roll of dice.json is what the step's stream gives, in order"));
	json_array_append_new(list, check_entry("state", a->steps, "steps",
		"each step resolved again from the state before it, its orders and its dice gives "
		"its state.json byte for byte"));
	derived = check_entry("derived", a->derived, "files",
		"events.json, report.txt, report.html and map.svg of each step resolved again are "
		"rendered again, with the game's templates/ at the step's commit or the installed ones, "
		"and are the committed files byte for byte");
	json_object_set_new(derived, "steps_not_checked", json_integer(a->underived));
	json_array_append_new(list, derived);
	if (a->signed_history) {
		json_t *sigs = check_entry("signatures", a->signed_commits + a->player_commits, "commits",
			"every commit of main carries a good signature by the GM's key (principal gm of step "
			"0's keys/allowed_signers, namespace git) or changes only one player's order files, "
			"and every step tag is an annotated tag the GM signed, of its own name, on a commit "
			"the GM signed");
		json_object_set_new(sigs, "signed_commits", json_integer(a->signed_commits));
		json_object_set_new(sigs, "player_commits", json_integer(a->player_commits));
		json_object_set_new(sigs, "signed_tags", json_integer(a->signed_tags));
		json_array_append_new(list, sigs);
	}
	if (a->receipts_given)
		json_array_append_new(list, check_entry("receipts", a->receipts, "receipts",
			"each receipt of --receipts DIR is a receipt/1 of this game signed by the GM's key "
			"(namespace estafette-receipt); its commit is on main's history holding the file, "
			"and its step resolved the file or a later seq of its player (or, still open, main "
			"holds one of them)"));
	return list;
}

int est_audit_run(json_t **report_out, const char *path, const char *home, const char *receipts,
		  est_audit_progress_fn progress, void *payload)
{
	audit a = {0};
	json_t *wrapped = NULL, *latest = NULL;
	unsigned char reveal[32];
	const char *tip;
	char sha[65];
	long long last;
	int failed = 0, error;

	a.path = path;
	a.receipts_given = receipts != NULL;
	if (!(a.refused_receipts = json_array())) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = open_audit(&a, path, home)) < 0)
		goto out;
	if ((error = est_store_read_json(&latest, a.store, "main", "state.json")) < 0)
		goto out;
	last = json_integer_value(json_object_get(latest, "step"));
	tip = json_string_value(json_object_get(json_object_get(a.game, "dice"), "chain_tip"));
	if (est_hex_decode(reveal, 32, tip ? tip : "") < 0) {
		est_error_clear();
		failed = fail(&a, 0, "game.json", "chain_tip", "game.json: dice.chain_tip is not 64 hex digits");
	}
	if (!failed)
		failed = check_keys(&a, 0, "step-0000");
	if (!failed)
		failed = check_history(&a, last);
	/* main's commits, read once: the signatures and the accepted orders both walk them */
	if (!failed && (a.signed_history || !a.sealed) && est_store_log(&a.log, a.store) < 0)
		failed = -1;
	if (!failed && a.signed_history)
		failed = check_signatures(&a, last);
	if (!failed)
		failed = check_fixed(&a, last, "main");
	if (!failed)
		failed = check_keys(&a, last, "main");
	if (!failed)
		failed = check_reveal_json(&a, last);
	if (!failed)
		failed = check_setup(&wrapped, sha, &a);
	if (!failed && !a.sealed && est_audit_recorded_orders(&a.recorded, a.store, a.log) < 0)
		failed = -1;
	for (long long t = 1; t <= last && !failed; t++) {
		if (progress)
			progress(payload, t, last);
		failed = check_step(&wrapped, sha, reveal, &a, t);
	}
	if (!failed && receipts)
		failed = check_receipts(&a, last, receipts);
	if (failed < 0) {
		error = est_error_code() ? est_error_code() : EST_ERROR;
		goto out;
	}
	*report_out = json_pack("{s:s, s:s, s:I, s:{s:I, s:I, s:I, s:I, s:I}, s:b, s:O?, s:b, s:O?, s:o}",
				"game", a.id, "ruleset", a.rs->name, "steps", (json_int_t)last,
				"checked", "steps", (json_int_t)a.steps, "orders", (json_int_t)a.orders,
				"rolls", (json_int_t)a.rolls, "derived", (json_int_t)a.derived,
				"order_files", (json_int_t)a.order_files, "ok", a.failure == NULL,
				"failure", a.failure, "complete", a.failure == NULL && a.unverified == NULL,
				"unverified", a.unverified, "checks", checks(&a, last));
	error = *report_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
	if (*report_out && a.signed_history) {
		json_t *checked = json_object_get(*report_out, "checked");
		json_object_set_new(checked, "signed_commits", json_integer(a.signed_commits));
		json_object_set_new(checked, "player_commits", json_integer(a.player_commits));
		json_object_set_new(checked, "signed_tags", json_integer(a.signed_tags));
	}
	if (*report_out && receipts) {
		json_object_set_new(json_object_get(*report_out, "checked"), "receipts", json_integer(a.receipts));
		json_object_set(*report_out, "receipts_refused", a.refused_receipts);
	}
out:
	OPENSSL_cleanse(a.hidden_secret, sizeof(a.hidden_secret));
	if (a.chain)
		OPENSSL_cleanse(a.chain, (size_t)a.chain_len * 32);
	free(a.chain);
	json_decref(latest);
	json_decref(wrapped);
	est_game_free(a.at);
	json_decref(a.failure);
	json_decref(a.recorded);
	json_decref(a.log);
	json_decref(a.refused_receipts);
	json_decref(a.unverified);
	est_store_free(a.sealed_store);
	free(a.signers);
	json_decref(a.rules);
	json_decref(a.game);
	est_store_free(a.store);
	return error;
}
