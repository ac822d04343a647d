/*
 * One step (rulesets/ruleset.h; docs/protocol.md for the dice): collect
 * the awaited orders, write the manifest, reveal the chain value, derive
 * the seeds, let the ruleset resolve, render the public report, commit and
 * tag. Then `run` queues the players' reports and delivers them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/json.h"
#include "util/fault.h"
#include "util/util.h"

typedef struct {
	long long step;
	char name[32];          /* "0007" */
	json_t *pending;        /* the ruleset's pending() */
	json_t *orders;         /* power -> orders array, for resolve() */
	json_t *manifest;
	json_t *press;          /* player -> the "press" of the order file resolved for them */
	est_changes changes;
	int due;
	int wait;               /* an accepted order asked to wait for the deadline */
	const json_t *gm_act;   /* a GM step (gm_step.c): the act, in place of the ruleset */
} step_work;

static void step_work_free(step_work *w)
{
	json_decref(w->pending);
	json_decref(w->orders);
	json_decref(w->manifest);
	json_decref(w->press);
	est_changes_free(&w->changes);
}

/* Keep the order file and its signature byte for byte under turns/NNNN/orders. */
static int keep_order_files(step_work *w, const char *file, char *bytes, size_t len,
			    char *sig, size_t sig_len)
{
	int error = est_changes_add(&w->changes,
				    est_strdup_printf("turns/%s/orders/%s", w->name, file), bytes, len);
	if (error < 0) {
		free(sig);
		return error;
	}
	return est_changes_add(&w->changes,
			       est_strdup_printf("turns/%s/orders/%s.sig", w->name, file), sig, sig_len);
}

/*
 * The recorded order of one awaited player, checked again as it stands now
 * (keys may have changed since it was submitted, or a pull request may
 * have committed it without `submit`). Returns 1 if it holds, 0 if missing.
 */
static int take_order(step_work *w, est_game *game, const json_t *entry, time_t now)
{
	const char *player = json_string_value(json_object_get(entry, "player"));
	char path[320], file[300], *bytes = NULL, *sig = NULL, sha[65], sig_sha[65];
	size_t len, sig_len, i;
	est_order *order = NULL;
	json_t *power, *refused = NULL;
	int error;

	est_game_order_path(path, game, player, 0);
	snprintf(file, sizeof(file), "%s.json", player);
	/*
	 * A file that is not there is a missing order, and one that cannot be
	 * an order (a folder in its place) or is refused (the file, its
	 * signature) is an outcome the manifest names; any other failure (of
	 * git, of memory) stops the step rather than give a player defaults.
	 */
	if ((error = est_game_order_read(&bytes, &len, game, player, 0)) < 0 ||
	    (error = est_game_order_read(&sig, &sig_len, game, player, EST_ORDER_SIG)) < 0 ||
	    (error = est_intake_check_recorded(&order, game, path, bytes, len, sig, sig_len, now)) < 0) {
		free(bytes);
		free(sig);
		if (error == EST_ENOTFOUND) {
			est_error_clear();
			return 0;
		}
		if (error != EST_EINVAL && error != EST_ESIG)
			return error;
		refused = json_pack("{s:s, s:s}", "player", player, "reason", est_error_message());
		json_array_append_new(json_object_get(w->manifest, "refused"), refused);
		est_error_clear();
		return 0;
	}
	json_array_foreach(json_object_get(entry, "awaited_powers"), i, power) {
		json_t *mine = NULL;
		/* Checked when the file was accepted; the same split now. */
		if ((error = est_turn_orders_for(&mine, NULL, order->orders, json_string_value(power),
						   json_object_get(entry, "awaited_powers"))) < 0) {
			est_orders_free(order);
			free(bytes);
			free(sig);
			return error;
		}
		json_object_set_new(w->orders, json_string_value(power), mine);
	}
	w->wait |= order->wait;
	if (order->press)
		json_object_set(w->press, player, order->press);
	est_sha256_hex(sha, bytes, len);
	est_sha256_hex(sig_sha, sig, sig_len);
	json_array_append_new(json_object_get(w->manifest, "orders"),
		json_pack("{s:s, s:O, s:s, s:s, s:s, s:I}", "player", player,
			  "powers", json_object_get(entry, "awaited_powers"),
			  "file", file, "sha256", sha, "signature_sha256", sig_sha,
			  "seq", (json_int_t)order->seq));
	est_orders_free(order);
	/* A sealed game's order files stay in the sealed store until `reveal`. */
	if (est_game_is_sealed(game)) {
		free(bytes);
		free(sig);
		return 1;
	}
	error = keep_order_files(w, file, bytes, len, sig, sig_len);
	return error < 0 ? error : 1;
}

/* No moves received: the ruleset's default orders, recorded in the manifest and told to all. */
static int take_default(step_work *w, est_game *game, const json_t *entry)
{
	const char *player = json_string_value(json_object_get(entry, "player"));
	json_t *given, *power;
	size_t i;
	int missed, disorder, error;

	/* One walk back through the manifests gives both. */
	if ((error = est_missed_in_a_row(&missed, game, player, 1000)) < 0)
		return error;
	disorder = est_civil_disorder_reached(game, missed);
	given = json_object();

	json_array_foreach(json_object_get(entry, "awaited_powers"), i, power) {
		json_t *orders = NULL;
		if ((error = est_turn_default_orders(&orders, game->ruleset, game->rules, game->state,
						     json_string_value(power))) < 0) {
			json_decref(given);
			return error;
		}
		json_object_set(w->orders, json_string_value(power), orders);
		json_object_set_new(given, json_string_value(power), orders);
	}
	/* A sealed game's defaults name hidden cards: audit recomputes them from the whole state. */
	json_array_append_new(json_object_get(w->manifest, "missing"),
		json_pack("{s:O, s:O, s:i, s:s, s:o*}", "player", json_object_get(entry, "player"),
			  "powers", json_object_get(entry, "awaited_powers"), "missed_in_a_row", missed + 1,
			  "policy", disorder ? "civil disorder: the ruleset's default orders" :
			  "no moves received: the ruleset's default orders",
			  "orders", est_game_is_sealed(game) ? NULL : given));
	if (est_game_is_sealed(game))
		json_decref(given);
	return 0;
}

/*
 * Files in orders/ that no awaited player's order accounts for (committed
 * out of turn, e.g. by a merged pull request) are not resolved; the
 * manifest names each with its SHA-256 so nothing disappears unexplained.
 * They stay in the history of main.
 */
static int note_ignored(step_work *w, est_game *game)
{
	char **names = NULL, dir[64], path[320], sha[65], *bytes;
	est_store *store = est_game_is_sealed(game) ? game->sealed_store : game->store;
	size_t count = 0, len, i;
	int error;

	if (est_game_is_sealed(game))
		snprintf(dir, sizeof(dir), "orders/%s", w->name);
	else
		snprintf(dir, sizeof(dir), "orders");
	if ((error = est_store_list(&names, &count, store, NULL, dir)) < 0)
		return error;
	for (i = 0; i < count; i++) {
		if (est_step_manifest_lists(w->manifest, names[i]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (est_store_read(&bytes, &len, store, NULL, path) < 0) {
			est_error_clear();
			continue;
		}
		est_sha256_hex(sha, bytes, len);
		free(bytes);
		/* Only when there is something to say: the manifest's bytes seed the dice. */
		if (!json_object_get(w->manifest, "ignored"))
			json_object_set_new(w->manifest, "ignored", json_array());
		json_array_append_new(json_object_get(w->manifest, "ignored"),
			json_pack("{s:s, s:s, s:s}", "file", names[i], "sha256", sha, "reason",
				  w->gm_act ? EST_STEP_SET_ASIDE : "not an awaited player's order for this step"));
	}
	est_store_list_free(names);
	return 0;
}

/*
 * Sealed orders: the commitments of the step go into the manifest and,
 * with their signatures, into turns/NNNN/orders/; each revealed order's
 * SHA-256 was checked against its commitment when it was accepted.
 */
static int take_commitments(step_work *w, est_game *game, const json_t *awaiting)
{
	json_t *list = json_array(), *entry;
	size_t i;
	int error = 0;

	json_object_set_new(w->manifest, "commitments", list);
	json_array_foreach(awaiting, i, entry) {
		const char *player = json_string_value(json_object_get(entry, "player"));
		char *bytes = NULL, *sig = NULL, sha[65], sig_sha[65], file[300];
		size_t len, sig_len;

		if ((error = est_game_order_read(&bytes, &len, game, player, EST_ORDER_COMMITMENT)) < 0 ||
		    (error = est_game_order_read(&sig, &sig_len, game, player,
						 EST_ORDER_COMMITMENT | EST_ORDER_SIG)) < 0) {
			free(bytes);
			if (error != EST_ENOTFOUND)
				break;
			est_error_clear();
			error = 0;
			continue;
		}
		est_sha256_hex(sha, bytes, len);
		est_sha256_hex(sig_sha, sig, sig_len);
		snprintf(file, sizeof(file), "%s.commitment.json", player);
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s}", "player", player, "file", file,
						      "sha256", sha, "signature_sha256", sig_sha));
		if ((error = keep_order_files(w, file, bytes, len, sig, sig_len)) < 0)
			break;
	}
	return error;
}

/*
 * Sealed orders: past the deadline, the step still waits for the reveals
 * of those who committed, until the reveal deadline.
 */
static int sealed_orders_due(step_work *w, est_game *game, const json_t *awaiting, size_t missing,
			     time_t now)
{
	time_t reveal_by;
	size_t i, unrevealed = 0;
	json_t *entry;
	int sealed, error;

	if ((error = est_sealed_orders_step(&sealed, game)) < 0 || !sealed)
		return error;
	if ((error = est_reveal_deadline(&reveal_by, game)) < 0)
		return error;
	json_array_foreach(awaiting, i, entry) {
		const char *first = json_string_value(json_array_get(json_object_get(entry, "awaited_powers"), 0));
		unrevealed += !json_object_get(w->orders, first) && json_is_true(json_object_get(entry, "committed"));
	}
	if (missing > 0 && unrevealed > 0 && (reveal_by == 0 || now < reveal_by))
		w->due = 0;
	return w->due ? take_commitments(w, game, awaiting) : 0;
}

/*
 * Due without a deadline: every awaited player not in civil disorder sent
 * orders, and none asked to wait. By the deadline (and its grace): if the
 * guards allow it (guards.c).
 */
static int decide_due(step_work *w, est_game *game, const json_t *pending, size_t missing,
		      unsigned flags, time_t now)
{
	const json_t *awaiting = json_object_get(pending, "awaiting"), *entry;
	const char *forced = NULL;
	size_t i, disorder = 0, committed = 0;
	int error, allows;

	json_array_foreach(awaiting, i, entry) {
		const char *first = json_string_value(json_array_get(json_object_get(entry, "awaited_powers"), 0));
		if (json_object_get(w->orders, first))
			continue;
		/* est_turn_awaiting marked both, for those who sent nothing. */
		disorder += json_is_true(json_object_get(entry, "civil_disorder"));
		/* Sealed orders: who committed is no outage, only not yet revealed (sealed_orders_due). */
		committed += json_is_true(json_object_get(entry, "committed"));
	}
	/* A paused game resolves nothing until the GM resumes it. */
	if (json_is_true(json_object_get(pending, "paused")))
		return 0;
	/*
	 * Steps stop waiting for players in civil disorder, but not when all
	 * the step awaits are: then it waits for its deadline, so that a game
	 * of absent players does not run on by itself, and a player can come
	 * back by sending orders before it.
	 */
	w->due = missing == disorder && !w->wait && (disorder == 0 || disorder < json_array_size(awaiting));
	if (w->due || !json_is_true(json_object_get(pending, "deadline_passed")))
		return 0;
	if ((error = est_deadline_allows(&allows, &forced, game, missing - disorder - committed,
					 json_array_size(awaiting) - disorder, flags, now)) < 0)
		return error;
	w->due = allows;
	if (forced)
		json_object_set_new(w->manifest, "forced", json_string(forced));
	return 0;
}

/*
 * The GM's acts on the step: kept under turns/NNNN/gm/ with their
 * signatures (est_step_notices tells them to all in the step's events).
 */
static int take_gm_acts(step_work *w, est_game *game)
{
	json_t *acts = NULL, *a;
	size_t i;
	int error;

	if ((error = est_gm_acts(&acts, game)) < 0)
		return error;
	json_array_foreach(acts, i, a) {
		const char *file = json_string_value(json_object_get(a, "file"));
		char from[300], to[300];

		for (int sig = 0; sig < 2 && !error; sig++) {
			char *bytes = NULL;
			size_t len;
			snprintf(from, sizeof(from), "gm/%s%s", file, sig ? ".sig" : "");
			snprintf(to, sizeof(to), "turns/%s/gm/%s%s", w->name, file, sig ? ".sig" : "");
			if ((error = est_store_read(&bytes, &len, game->store, NULL, from)) == 0)
				error = est_changes_add(&w->changes, strdup(to), bytes, len);
		}
		if (error < 0)
			break;
	}
	json_decref(acts);
	return error < 0 ? error : est_changes_delete(&w->changes, "gm");
}

/* Decide whether the step is due and gather what resolves it. */
static int collect(step_work *w, est_game *game, time_t now, unsigned flags)
{
	json_t *pending = NULL, *awaiting = NULL, *entry;
	time_t deadline;
	const char *mode;
	size_t i, missing = 0;
	char when[32];
	int error, got;

	if ((error = est_turn_deadline(&deadline, game, NULL)) < 0 ||
	    (error = est_turn_pending(&pending, game, now)) < 0)
		return error;
	w->pending = pending;
	mode = json_string_value(json_object_get(pending, "mode"));
	awaiting = json_object_get(pending, "awaiting");
	est_time_iso(when, deadline);
	w->orders = json_object();
	w->press = json_object();
	w->manifest = json_pack("{s:O, s:I, s:O, s:O, s:[], s:[], s:[], s:s?}",
		"game", json_object_get(game->game, "id"), "step", (json_int_t)w->step,
		"kind", json_object_get(pending, "kind"), "mode", json_object_get(pending, "mode"),
		"orders", "missing", "refused", "deadline", *when ? when : NULL);
	if (strcmp(mode, "over") == 0)
		return 0;
	json_array_foreach(awaiting, i, entry) {
		if ((got = take_order(w, game, entry, now)) < 0)
			return got;
		missing += got == 0;
	}
	if ((error = decide_due(w, game, pending, missing, flags, now)) < 0 ||
	    (error = sealed_orders_due(w, game, awaiting, missing, now)) < 0)
		return error;
	json_array_foreach(awaiting, i, entry) {
		const char *first = json_string_value(
			json_array_get(json_object_get(entry, "awaited_powers"), 0));
		if (w->due && !json_object_get(w->orders, first) &&
		    (error = take_default(w, game, entry)) < 0)
			return error;
	}
	if (!w->due)
		return 0;
	if ((error = take_gm_acts(w, game)) < 0)
		return error;
	return note_ignored(w, game);
}

/* r_t from the GM's secret, checked against r_(t-1) as published. */
static int reveal(unsigned char out[32], unsigned char hidden_out[32], est_game *game, long long step)
{
	const json_t *dice = json_object_get(game->game, "dice");
	long long n = json_integer_value(json_object_get(dice, "chain_length"));
	unsigned char prev[32];
	const char *prev_hex;
	json_t *last = NULL;
	char path[64], name[32];
	int error;

	if (step >= n)
		return est_error_set(EST_ECONFIG, "game.json: the dice chain has %lld values and step %lld "
				     "needs one more; the game cannot go on with this chain", n, step);
	if ((error = est_secrets_chain_values(out, hidden_out, game->home,
					      json_string_value(json_object_get(game->game, "id")),
					      (uint32_t)(n - step))) < 0)
		return error;
	if (step == 1) {
		prev_hex = json_string_value(json_object_get(dice, "chain_tip"));
	} else {
		est_step_name(name, step - 1);
		snprintf(path, sizeof(path), "turns/%s/dice.json", name);
		if ((error = est_game_read_json(&last, game, NULL, path)) < 0)
			return error;
		prev_hex = json_string_value(json_object_get(last, "reveal"));
	}
	if (!prev_hex || est_hex_decode(prev, 32, prev_hex) < 0)
		error = est_error_set(EST_EINVAL, "the previous chain value of step %lld is not 64 hex digits",
				      step);
	else if ((error = est_dice_check_reveal(out, prev)) < 0)
		est_error_prefix("%s: these dice secrets are not the ones this game committed to",
				 game->home);
	json_decref(last);
	return error;
}

static json_t *hex_json(const unsigned char *bytes)
{
	char hex[65];

	est_hex_encode(hex, bytes, 32);
	return json_string(hex);
}

/*
 * turns/NNNN/dice.json, and the hidden stream's record kept by the GM. Dice
 * v1 names the manifest's SHA-256 the seed was made from; v2 its inputs.
 */
static int record_dice(json_t **hidden_record_out, step_work *w, est_game *game,
		       const unsigned char r[32], const unsigned char h[32], const unsigned char seed[32],
		       const unsigned char hidden_seed[32], const char *domain,
		       const unsigned char manifest_sha[32], const json_t *inputs, est_dice *dice, est_dice *hidden)
{
	int v2 = est_game_dice_version(game->game) == 2;
	json_t *pub = json_pack("{s:I, s:s, s:o, s:o, s:O, s:I}", "step", (json_int_t)w->step,
		"algorithm", v2 ? EST_DICE_ALGORITHM_V2 : EST_DICE_ALGORITHM, "reveal", hex_json(r),
		"seed", hex_json(seed), "rolls", est_dice_log(dice),
		"hidden_rolls", (json_int_t)est_dice_count(hidden));
	const char *deal = json_string_value(json_object_get(game->game, "deal"));
	json_t *secret = json_pack("{s:I, s:s, s:o, s:o, s:O}", "step", (json_int_t)w->step,
		"domain", domain, "reveal", hex_json(h), "seed", hex_json(hidden_seed),
		"rolls", est_dice_log(hidden));
	char file[64], *path = NULL, *text = est_json_text(secret), *dir = est_game_home_path(game, "hidden");
	int error;

	if (pub)
		json_object_set_new(pub, v2 ? "inputs" : "manifest_sha256", v2 ? json_incref((json_t *)inputs) :
				    hex_json(manifest_sha));
	snprintf(file, sizeof(file), "hidden/%s.json", w->name);
	/* A dealt game's hidden seed is the deal's (docs/protocol.md "Deals"): dice.json says which was used. */
	if (pub && deal) {
		json_object_set_new(pub, "hidden_domain", json_string(domain));
		json_object_set_new(pub, "deal", json_string(deal));
	}
	if (!pub || !text || !dir || !(path = est_game_home_path(game, file))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(file, sizeof(file), "turns/%s/dice.json", w->name);
	if ((error = est_mkdir_p(dir, 0700)) < 0 ||
	    (error = est_file_write_atomic(path, text, strlen(text), 0600)) < 0)
		goto out;
	est_fault_point("step-after-hidden-record");
	if ((error = est_changes_add_json(&w->changes, file, pub)) < 0)
		goto out;
	*hidden_record_out = secret;
	secret = NULL;
out:
	free(path);
	free(dir);
	free(text);
	json_decref(secret);
	json_decref(pub);
	return error;
}

/* turns/NNNN/events.json and the public report (est_step_derived), into the commit. */
static int add_derived(step_work *w, est_game *game, const json_t *wrapped, const char *state_sha,
		       const json_t *events_doc, const json_t *dice_doc, time_t deadline)
{
	json_t *files = NULL, *text;
	const char *name, *failed;
	int error;

	if ((error = est_step_derived(&files, &failed, game, w->step, wrapped, state_sha, events_doc,
				      dice_doc, deadline)) < 0)
		return error;
	json_object_foreach(files, name, text) {
		char *bytes = malloc(json_string_length(text) + 1);
		if (bytes)
			memcpy(bytes, json_string_value(text), json_string_length(text) + 1);
		if ((error = est_changes_add(&w->changes, est_strdup_printf("turns/%s/%s", w->name, name),
					     bytes, json_string_length(text))) < 0)
			break;
	}
	json_decref(files);
	return error;
}

static char *commit_message(const step_work *w, const json_t *events, const char *state_sha)
{
	char *msg = est_strdup_printf("step %s: %s\n\n", w->name,
				      json_string_value(json_object_get(w->pending, "kind"))), *next;
	size_t i, shown = 0;
	json_t *event;

	json_array_foreach(events, i, event) {
		if (!msg || json_object_get(event, "visible_to") || shown++ >= 30)
			continue;
		next = est_strdup_printf("%s%s\n", msg, json_string_value(json_object_get(event, "text")));
		free(msg);
		msg = next;
	}
	if (!msg)
		return NULL;
	next = est_strdup_printf("%s\nEstafette-Step: %lld\nEstafette-State-SHA256: %s\n", msg,
				 w->step, state_sha);
	free(msg);
	return next;
}

/*
 * Sealed games: the whole state, every event and the hidden stream's record
 * go to the sealed store first (a run killed before the public commit
 * resolves the step again from the same orders); the public state.json
 * carries commitments in place of the hidden parts, and events.json only
 * what everyone may see.
 */
static int seal_step(char **state_text_out, json_t **events_out, step_work *w, est_game *game,
		     const json_t *wrapped, json_t *hidden_record, const unsigned char key[32])
{
	char *paths[3] = {NULL, NULL, NULL}, *texts[3] = {NULL, NULL, NULL}, *msg = NULL;
	const char *files[3] = {"state.json", "events.json", "hidden.json"};
	const json_t *docs[3] = {wrapped, *events_out, hidden_record};
	est_store_change changes[3];
	json_t *public_events = NULL;
	int error = 0;

	for (int i = 0; i < 3; i++) {
		paths[i] = est_strdup_printf("steps/%s/%s", w->name, files[i]);
		texts[i] = est_json_text(docs[i]);
		if (!paths[i] || !texts[i])
			error = est_error_set(EST_ENOMEM, "out of memory");
		changes[i] = (est_store_change){paths[i], texts[i], texts[i] ? strlen(texts[i]) : 0};
	}
	if (!error && !(msg = est_strdup_printf("step %s: the sealed parts\n\nEstafette-Step: %lld\n",
						 w->name, w->step)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	if (error < 0 || (error = est_sealed_public_state(state_text_out, game->ruleset, game->rules, wrapped, key)) < 0 ||
	    (error = est_sealed_commit(game, changes, 3, msg)) < 0)
		goto out;
	est_fault_point("sealed-after-step");
	if (!(public_events = est_public_events(*events_out))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	json_decref(*events_out);
	*events_out = public_events;
out:
	for (int i = 0; i < 3; i++) {
		free(paths[i]);
		free(texts[i]);
	}
	free(msg);
	return error;
}

/* The seeds of the step: r_t and h_t revealed, mixed with the manifest's hash (v1) or the inputs (v2). */
static int step_seeds(unsigned char seed[32], unsigned char hidden_seed[32], const char **domain,
		      unsigned char r[32], unsigned char h[32], est_game *game, long long step,
		      const unsigned char manifest_sha[32], const json_t *inputs)
{
	int error;

	if ((error = reveal(r, h, game, step)) < 0)
		return error;
	return est_step_seeds(seed, hidden_seed, domain, game->game, step, r, h, manifest_sha, inputs);
}

/*
 * The deadline of the step that opens now, dated by the commit about to be
 * made: the store holds the clock at that time until the commit, so audit
 * recomputes the deadline from the commit's own time.
 */
static int next_deadline(time_t *out, est_game *game, const json_t *wrapped)
{
	long long opened;
	int error;

	if ((error = est_store_clock(&opened)) < 0)
		return error;
	est_store_hold_clock(game->store, opened);
	return est_step_deadline(out, game, wrapped, opened);
}

/* The step's new state.json document and events: the ruleset's resolution, or a GM act's. */
static int new_state(json_t **wrapped_out, json_t **events_out, step_work *w, est_game *game,
		     json_t *notices, est_dice *dice, est_dice *hidden)
{
	int error;

	if (w->gm_act) {
		if ((error = est_step_gm_apply(wrapped_out, events_out, game->store, game->state,
						 w->gm_act, w->step)) < 0)
			return error;
		return json_array_extend(*events_out, notices) < 0 ?
			est_error_set(EST_ENOMEM, "out of memory") : 0;
	}
	if ((error = est_turn_resolve(wrapped_out, events_out, game->ruleset, game->rules, game->state, w->step,
				      w->orders, dice, hidden)) < 0)
		return est_error_prefix("step %lld (%s)", w->step, game->ruleset->name);
	return json_array_extend(*events_out, notices) < 0 ? est_error_set(EST_ENOMEM, "out of memory") : 0;
}

/* Resolve the collected step and commit it. */
static int resolve(step_work *w, est_game *game)
{
	unsigned char r[32], h[32], seed[32], hidden_seed[32], manifest_sha[32];
	char *manifest_text = est_json_text(w->manifest), *state_text = NULL, *msg = NULL;
	char state_sha[65], oid[EST_STORE_OID_HEX + 1], tag[40];
	json_t *events = NULL, *wrapped = NULL, *events_doc = NULL, *dice_doc = NULL;
	json_t *hidden_record = NULL, *inputs = NULL, *notices = NULL;
	est_dice *dice = NULL, *hidden = NULL;
	const char *domain = NULL;
	time_t deadline;
	int error;

	if (!manifest_text)
		return est_error_set(EST_ENOMEM, "out of memory");
	est_sha256(manifest_sha, manifest_text, strlen(manifest_text));
	/* v2: the state resolved is main's (a sealed game's public one), as the orders' "prev" names it. */
	if (est_game_dice_version(game->game) == 2 &&
	    (error = est_step_dice_inputs(&inputs, game->game, w->step, game->state_sha256, w->manifest)) < 0)
		goto out;
	if ((error = step_seeds(seed, hidden_seed, &domain, r, h, game, w->step, manifest_sha, inputs)) < 0 ||
	    (error = est_step_dice_new(&dice, game->game, seed)) < 0 ||
	    (error = est_step_dice_new(&hidden, game->game, hidden_seed)) < 0)
		goto out;
	if ((error = est_step_notices(&notices, game, w->manifest, w->press)) < 0 ||
	    (error = new_state(&wrapped, &events, w, game, notices, dice, hidden)) < 0 ||
	    (error = est_step_events_doc(&events_doc, w->step, json_object_get(w->pending, "kind"),
					 events)) < 0)
		goto out;
	dice_doc = est_step_report_dice(r, seed, dice);
	if (!wrapped || !dice_doc) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_changes_delete(&w->changes, "orders")) < 0 ||
	    (error = est_changes_add(&w->changes, est_strdup_printf("turns/%s/manifest.json", w->name),
				     manifest_text, strlen(manifest_text))) < 0)
		goto out;
	manifest_text = NULL;
	if ((error = record_dice(&hidden_record, w, game, r, h, seed, hidden_seed, domain, manifest_sha, inputs,
				 dice, hidden)) < 0 || (error = next_deadline(&deadline, game, wrapped)) < 0)
		goto out;
	if (est_game_is_sealed(game))
		error = seal_step(&state_text, &events_doc, w, game, wrapped, hidden_record, hidden_seed);
	else if (!(state_text = est_json_text(wrapped)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	if (error < 0)
		goto out;
	est_sha256_hex(state_sha, state_text, strlen(state_text));
	if ((error = add_derived(w, game, wrapped, state_sha, events_doc, dice_doc, deadline)) < 0 ||
	    (error = est_changes_add(&w->changes, strdup("state.json"), state_text, strlen(state_text))) < 0)
		goto out;
	state_text = NULL;
	snprintf(tag, sizeof(tag), "step-%s", w->name);
	if (!(msg = commit_message(w, events, state_sha))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	error = est_game_commit(oid, game, w->changes.items, w->changes.count, msg, tag);
out:
	est_store_hold_clock(game->store, -1);
	json_decref(notices);
	free(msg);
	free(state_text);
	free(manifest_text);
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(hidden_record);
	json_decref(inputs);
	json_decref(dice_doc);
	json_decref(events_doc);
	json_decref(wrapped);
	json_decref(events);
	return error;
}

int est_step_try(int *resolved_out, est_game *game, time_t now, unsigned flags)
{
	step_work w = {0};
	int error;

	*resolved_out = 0;
	if ((error = est_sealed_require(game, "resolving a step")) < 0)
		return error;
	w.step = game->step + 1;
	est_step_name(w.name, w.step);
	if ((error = collect(&w, game, now, flags)) < 0)
		goto out;
	if (!w.due) /* waiting on a player or a deadline, or the game is over */
		goto out;
	if ((error = resolve(&w, game)) < 0)
		goto out;
	*resolved_out = 1;
	error = est_game_reload(game);
out:
	step_work_free(&w);
	return error;
}

int est_step_gm(est_game *game, const json_t *act, char *text, char *sig, size_t sig_len)
{
	step_work w = {0};
	char file[64], sha[65];
	int error;

	w.step = game->step + 1;
	est_step_name(w.name, w.step);
	snprintf(file, sizeof(file), "%s-gm.json", w.name);
	est_sha256_hex(sha, text, strlen(text));
	w.gm_act = act;
	w.pending = json_pack("{s:s, s:s}", "kind", "gm", "mode", "gm");
	w.orders = json_object();
	w.press = json_object();
	w.manifest = json_pack("{s:O, s:I, s:s, s:s, s:O, s:s, s:s, s:[], s:[], s:[]}", "game",
			       json_object_get(game->game, "id"), "step", (json_int_t)w.step, "kind", "gm",
			       "mode", "gm", "act", json_object_get(act, "act"), "file", file, "sha256", sha,
			       "orders", "missing", "refused");
	if (!w.pending || !w.manifest) {
		free(text);
		free(sig);
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_changes_add(&w.changes, est_strdup_printf("turns/%s/gm/%s", w.name, file), text,
				     strlen(text))) < 0) {
		free(sig);
		goto out;
	}
	/* The step's other acts (an extend made before it) and stray orders go with it. */
	if ((error = est_changes_add(&w.changes, est_strdup_printf("turns/%s/gm/%s.sig", w.name, file), sig,
				     sig_len)) < 0 ||
	    (error = take_gm_acts(&w, game)) < 0 || (error = note_ignored(&w, game)) < 0 ||
	    (error = resolve(&w, game)) < 0)
		goto out;
	error = est_game_reload(game);
out:
	step_work_free(&w);
	return error;
}
