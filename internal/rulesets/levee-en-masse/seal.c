/*
 * Levée en Masse, sealed (rulesets/ruleset.h sealed(), deal_private;
 * RULINGS.md S1, S2). A sealed game hides the cards still to come: each
 * pile of the deck stands on the public refs as a commitment and its count.
 * What the player drew and played stays public, as the rules show it.
 *
 * A game of a deal hides more: every game of the deal meets the same card
 * at the same step, so the card a faster player drew, and everything it
 * did to the tracks, the markers and the turn's Actions, is what the
 * players behind him are still to meet. Its public refs keep only the
 * scenario, the options and the phase, the number of cards played and the
 * cards left per pile; the rest is sealed, every event is the Republic's
 * own, and pending() and the public view answer from what is left.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lem_internal.h"

/* The piles the deck may hold (deck.c): 12.1's three, 12.2's one, 12.3's sequence. */
static const char *const piles[] = {"Blue", "White", "Red", "All", "Ordered", NULL};

/* What a dealt game's public refs keep of the state: nothing the cards shaped. */
static const char *const public_keys[] = {"scenario", "options", "phase", "deck", NULL};

int lem_dealt(const json_t *state)
{
	return json_is_string(json_object_get(json_object_get(state, "options"), "deal"));
}

int lem_roll(int *out, const json_t *state, est_dice *dice, int sides, const char *fmt, ...)
{
	char purpose[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(purpose, sizeof(purpose), fmt, ap);
	va_end(ap);
	return est_dice_roll(out, dice, sides, lem_dealt(state) ? LEM_DEALT_ROLL : purpose);
}

/* A JSON pointer "/<a>" or "/<a>/<b>", appended to `paths`; -1 out of memory. */
static int add_path(json_t *paths, const char *a, const char *b)
{
	char path[64];

	snprintf(path, sizeof(path), b ? "/%s/%s" : "/%s", a, b);
	return json_array_append_new(paths, json_string(path));
}

int lem_sealed(json_t **paths_out, const json_t *state, const json_t *rules)
{
	json_t *paths = json_array(), *v;
	const char *key;
	int error = paths ? 0 : -1;

	(void)rules;
	/* S1: the cards to come, pile by pile, so that each pile's count stays public. */
	for (const char *const *p = piles; *p && !error; p++)
		if (json_object_get(json_object_get(state, "deck"), *p))
			error = add_path(paths, "deck", *p);
	/* S2: a dealt game's progress, whatever the state holds beside the public keys. */
	if (lem_dealt(state))
		json_object_foreach((json_t *)state, key, v)
			if (!error && !est_rules_listed(public_keys, key))
				error = add_path(paths, key, NULL);
	if (error) {
		json_decref(paths);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*paths_out = paths;
	return 0;
}

int lem_seal_events(json_t *events)
{
	json_t *event;
	size_t i;

	json_array_foreach(events, i, event)
		if (!json_object_get(event, "visible_to") &&
		    json_object_set_new(event, "visible_to", json_pack("[s]", LEM_POWER)) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/* The kinds of order the actions step takes, with what the player fills in: nothing of the card. */
static json_t *order_kinds(const json_t *state)
{
	json_t *c = json_array();
	int error = c ? 0 : EST_ENOMEM;

	if (!error)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "military", "army", "<army id>"),
					 "1 Action, a Military Action (7.2) against an Army your report lists "
					 "under WHO MAY BE ATTACKED NOW");
	if (!error && lem_option(state, "10.4"))
		error = est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "military", "army", "<army id>",
						      "reserves", "if-fails"),
					 "the same, with the reserves if it fails (10.4), once a game");
	if (!error && lem_option(state, "10.5"))
		error = est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "military", "army", "<army id>",
						      "disorder", "extra"),
					 "no Action, risking Disorder in Paris (10.5), against an Army inside France");
	if (!error)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "political", "marker",
						      "<Republic, Monarchy or Despotism>"),
					 "1 Action: the Republic marker goes up, the others down");
	if (!error)
		error = est_rules_choice(c, json_pack("{s:s}", "type", "restore-order"),
					 "1 Action, in Disorder: restore order in Paris");
	if (!error)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "barricades", "army", "<army id>"),
					 "free, once a turn: barricades (10.3) against an Army inside France");
	if (!error)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "liberation", "army", "<army id>"),
					 "a Liberation marker against an Army, while you have one");
	if (!error && strcmp(est_rules_str(state, "scenario") ? est_rules_str(state, "scenario") : "", "base") != 0)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "napoleon", "assign", "<army id>"),
					 "free, first order only, once Napoleon is in play: he joins an Army (5.0)");
	if (error < 0) {
		json_decref(c);
		return NULL;
	}
	return c;
}

int lem_dealt_pending(json_t **out, const json_t *state)
{
	char prompt[300];

	snprintf(prompt, sizeof(prompt), "turn %d: spend this turn's Actions (and the free ones); your own "
		 "report shows the Headline card (a game of a deal keeps it off the public record until the "
		 "deal ends)", est_rules_pile_count(json_object_get(state, "played")));
	*out = json_pack("{s:s, s:s, s:[s], s:s, s:o*}", "mode", "sequential", "kind", "actions", "powers", LEM_POWER,
			 "prompt", prompt, "choices", order_kinds(state));
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/*
 * The public view of a dealt game: the whole view of what its public refs
 * keep (the scenario, options, phase and counts), without the parts that
 * view makes of the tracks, markers and card, which it does not hold. The
 * victory and defeat conditions follow from the options alone, so they
 * stay; the result does not (S2), so an ended game says only that it ended.
 */
int lem_dealt_view(json_t **out, const json_t *state, const json_t *rules)
{
	static const char *const kept[] = {"scenario", "scenario_text", "options", "options_on", "difficulty",
					   "difficulty_text", "conditions", "phase", "awaits_orders", "over", "turn",
					   "decks", "cards_left", "decks_text", "map", NULL};
	json_t *part = json_object(), *view = NULL, *drop = json_array(), *v;
	const char *key;
	size_t i;
	int error;

	for (const char *const *k = public_keys; part && *k; k++)
		if (json_object_get(state, *k))
			json_object_set(part, *k, json_object_get(state, *k));
	if (!part || !drop || json_object_set(part, "played", json_object_get(state, "played")) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = lem_view(&view, part, rules, NULL)) < 0)
		goto out;
	json_object_foreach(view, key, v)
		if (!est_rules_listed(kept, key))
			json_array_append_new(drop, json_string(key));
	json_array_foreach(drop, i, v)
		json_object_del(view, json_string_value(v));
	json_object_set_new(view, "sealed_progress", json_string("This game is one of a deal: the cards it "
		"drew and what they did stay sealed on the public record until the deal's last game ends."));
	if (json_is_true(json_object_get(view, "over")) &&
	    json_object_set_new(view, "sealed_result", est_rules_string(est_strdup_printf("the game is over, "
		"after %d cards; whether the Republic won or lost, and why, stays sealed with the game's progress "
		"until the deal's games are revealed", est_rules_pile_count(json_object_get(state, "played"))))) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	*out = view;
	view = NULL;
out:
	json_decref(view);
	json_decref(drop);
	json_decref(part);
	return error;
}
