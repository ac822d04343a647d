/*
 * Duel (toy_ruleset.h): the whole ruleset in one file, the est_ruleset
 * table at the end. It uses only what a ruleset may (docs/HACKING.md
 * "Layers"): util, dice, rulesets/common and rulesets/ruleset.h.
 */
#include <stdio.h>
#include <string.h>

#include "rulesets/common/common.h"
#include "util/error.h"
#include "toy_ruleset.h"

#define R_ORDERS "Duel, orders"
#define R_ROUND "Duel, a round"

static const char *const powers_list[] = {"Red", "Blue", NULL};

static const char *const *powers(void)
{
	return powers_list;
}

static const json_t *deck_data(const json_t *rules)
{
	return json_object_get(rules, "deck");
}

/* The rules data, checked once at set-up: a GM may bring their own (`new --rules DIR`). */
static int check_rules(const json_t *rules)
{
	const json_t *cards = json_object_get(deck_data(rules), "cards"), *c;
	int hand = est_rules_int(deck_data(rules), "hand", 0);
	size_t i;
	int error;

	if (!json_is_object(deck_data(rules)))
		return est_error_set(EST_EINVAL, "rules: Duel needs deck.json; restore it");
	if ((error = est_rules_check_data(deck_data(rules), "deck.json")) < 0)
		return error;
	json_array_foreach(cards, i, c)
		if (!json_is_integer(c) || json_integer_value(c) < 1)
			return est_error_set(EST_EINVAL, "rules/deck.json: field \"cards[%zu]\" must be a whole "
					     "number from 1; fix the data", i);
	if (hand < 1 || (size_t)hand * 2 > json_array_size(cards) ||
	    est_rules_int(deck_data(rules), "target", 0) < 1)
		return est_error_set(EST_EINVAL, "rules/deck.json: \"hand\" (1 or more) and \"target\" (1 or "
				     "more) are needed, and \"cards\" must deal two hands; fix the data");
	return 0;
}

/* The options: target=N only; anything else is refused, not ignored. */
static int read_options(int *target, const json_t *options)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)options, key, v) {
		if (strcmp(key, "target") != 0)
			return est_error_set(EST_EINVAL, "option \"%s\" is not an option of Duel, which takes "
					     "\"target\" only; remove it", key);
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 9)
			return est_error_set(EST_EINVAL, "option \"target\" is the rounds that win, 1 to 9; fix it");
		*target = (int)json_integer_value(v);
	}
	return 0;
}

static int setup(json_t **state_out, const json_t *rules, const json_t *options)
{
	int target, error;

	if ((error = check_rules(rules)) < 0)
		return error;
	target = est_rules_int(deck_data(rules), "target", 0);
	if ((error = read_options(&target, options)) < 0)
		return error;
	/* Step 0 draws no dice: the deck stays in the rules' order until the deal. */
	*state_out = json_pack("{s:s, s:i, s:i, s:O, s:{s:[], s:[]}, s:{s:i, s:i}, s:n, s:n}", "phase", "deal",
			       "round", 0, "target", target, "deck", json_object_get(deck_data(rules), "cards"),
			       "hands", "Red", "Blue", "won", "Red", 0, "Blue", 0, "last", "winner");
	if (!*state_out)
		return est_error_set(EST_ENOMEM, "out of memory");
	/* The deck is the state's own, not shared with the rules. */
	json_object_set_new(*state_out, "deck", json_deep_copy(json_object_get(deck_data(rules), "cards")));
	return 0;
}

static int pending(json_t **out, const json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase");
	char prompt[120];

	if (!phase)
		return est_error_set(EST_ERROR, "state.json: no \"phase\"; not a Duel state");
	if (strcmp(phase, "deal") == 0) {
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "automatic", "kind", "deal", "powers", "prompt",
				 "the deck is shuffled and each power dealt its hand");
	} else if (strcmp(phase, "play") == 0) {
		snprintf(prompt, sizeof(prompt), "round %d: Red and Blue each play one card of their hand",
			 est_rules_int(state, "round", 0));
		*out = json_pack("{s:s, s:s, s:[s, s], s:s}", "mode", "simultaneous", "kind", "play", "powers", "Red",
				 "Blue", "prompt", prompt);
	} else {
		snprintf(prompt, sizeof(prompt), "the duel is over: %s",
			 est_rules_str(state, "winner") ? est_rules_str(state, "winner") : "a draw");
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "over", "kind", "over", "powers", "prompt", prompt);
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

static int in_play(const json_t *state)
{
	const char *phase = est_rules_str(state, "phase");

	return phase && strcmp(phase, "play") == 0;
}

static const json_t *hand_of(const json_t *state, const char *power)
{
	return json_object_get(json_object_get(state, "hands"), power ? power : "");
}

/* Where card `value` is in `hand`, or -1. */
static int hand_index(const json_t *hand, json_int_t value)
{
	const json_t *c;
	size_t i;

	json_array_foreach(hand, i, c)
		if (json_integer_value(c) == value)
			return (int)i;
	return -1;
}

static void check_item(json_t *diags, int i, const json_t *o, const json_t *hand, const char *power, int *plays)
{
	static const char *const fields[] = {"type", "card", NULL};
	const char *type = est_rules_str(o, "type");
	const json_t *card;

	if (!json_is_object(o) || !type) {
		est_rules_diag(diags, i, "type", R_ORDERS, "each order is an object with a \"type\"; write "
			       "{\"type\": \"play\", \"card\": N}");
		return;
	}
	if (strcmp(type, "play") != 0) {
		est_rules_diag(diags, i, "type", R_ORDERS, "\"%s\" is not an order; a round takes play", type);
		return;
	}
	if (!est_rules_fields_ok(diags, i, o, fields, fields + 1, R_ORDERS))
		return;
	card = json_object_get(o, "card");
	if (!json_is_integer(card) || hand_index(hand, json_integer_value(card)) < 0)
		est_rules_diag(diags, i, "card", R_ROUND, "%s holds no such card; play a card of your hand", power);
	++*plays;
}

static int validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		    const json_t *orders)
{
	const json_t *hand = hand_of(state, power), *o;
	json_t *diags = json_array();
	int plays = 0;
	size_t i;

	if (!diags)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (!in_play(state) || !est_rules_listed(powers_list, power))
		est_rules_diag(diags, -1, "orders", R_ORDERS, "no round awaits orders from %s now; wait for the "
			       "report that asks for them", power ? power : "(none)");
	else if (!json_is_array(orders))
		est_rules_diag(diags, -1, "orders", R_ORDERS, "must be an array of orders");
	else
		json_array_foreach(orders, i, o)
			check_item(diags, (int)i, o, hand, power, &plays);
	if (json_array_size(diags) == 0 && plays != 1)
		est_rules_diag(diags, -1, "orders", R_ROUND, "each power plays one card a round, and these orders "
			       "play %d; play one", plays);
	return est_rules_validated(diagnostics_out, diags);
}

/* A missed round plays the lowest card of the hand. */
static int default_orders(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	const json_t *hand = hand_of(state, power), *c;
	json_int_t low = 0;
	size_t i;

	json_array_foreach(hand, i, c)
		if (low == 0 || json_integer_value(c) < low)
			low = json_integer_value(c);
	if (!in_play(state) || low == 0)
		*out = json_array();
	else
		*out = json_pack("[{s:s, s:I}]", "type", "play", "card", low);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* The top card of the deck into `power`'s hand, told to that power alone. */
static int draw(json_t *state, json_t *events, const char *power)
{
	json_t *deck = json_object_get(state, "deck"), *card = json_array_get(deck, 0);

	if (!card)
		return 0;
	if (json_array_append(json_object_get(json_object_get(state, "hands"), power), card) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (est_rules_event(events, json_pack("{s:[s]}", "visible_to", power), "draw", "%s draws a %lld", power,
			    (long long)json_integer_value(card)) < 0)
		return est_error_code();
	return json_array_remove(deck, 0) < 0 ? est_error_set(EST_ERROR, "state.json: the deck is not a list") : 0;
}

static int deal(json_t *state, json_t *events, const json_t *rules, est_dice *hidden)
{
	int hand = est_rules_int(deck_data(rules), "hand", 0), error;

	if ((error = est_dice_shuffle(json_object_get(state, "deck"), hidden, "the deck")) < 0 ||
	    (error = est_rules_event(events, NULL, "deal", "the deck is shuffled and each power dealt %d card%s",
				     hand, hand == 1 ? "" : "s")) < 0)
		return error;
	for (int k = 0; k < hand; k++)
		if ((error = draw(state, events, "Red")) < 0 || (error = draw(state, events, "Blue")) < 0)
			return error;
	json_object_set_new(state, "phase", json_string("play"));
	json_object_set_new(state, "round", json_integer(1));
	return 0;
}

/* The card `power` plays: its orders' (validated) or, if none stands, its default. */
static json_int_t played(const json_t *state, const json_t *orders, const char *power)
{
	json_int_t card = json_integer_value(json_object_get(json_array_get(json_object_get(orders, power), 0), "card"));
	json_t *fallback = NULL;

	if (hand_index(hand_of(state, power), card) >= 0)
		return card;
	if (default_orders(&fallback, state, NULL, power) < 0)
		return 0;
	card = json_integer_value(json_object_get(json_array_get(fallback, 0), "card"));
	json_decref(fallback);
	return card;
}

static int play(json_t *state, json_t *events, const json_t *orders, est_dice *dice)
{
	json_int_t red = played(state, orders, "Red"), blue = played(state, orders, "Blue");
	json_t *won = json_object_get(state, "won"), *hands = json_object_get(state, "hands");
	int round = est_rules_int(state, "round", 0), target = est_rules_int(state, "target", 1), face = 0, error;
	const char *winner = red > blue ? "Red" : "Blue";

	if (red == blue) {
		/* A tie goes to the die: 1 Red, 2 Blue. */
		if ((error = est_rules_roll(&face, dice, 2, "round %d: a tie, 1 Red, 2 Blue", round)) < 0)
			return error;
		winner = face == 1 ? "Red" : "Blue";
	}
	json_array_remove(json_object_get(hands, "Red"), (size_t)hand_index(json_object_get(hands, "Red"), red));
	json_array_remove(json_object_get(hands, "Blue"), (size_t)hand_index(json_object_get(hands, "Blue"), blue));
	json_object_set_new(won, winner, json_integer(est_rules_int(won, winner, 0) + 1));
	json_object_set_new(state, "last", json_pack("{s:I, s:I, s:s}", "Red", red, "Blue", blue, "winner", winner));
	if ((error = est_rules_event(events, NULL, "round", "round %d: Red plays a %lld, Blue a %lld%s: %s wins it",
				     round, (long long)red, (long long)blue, face ? ", the die breaks the tie" : "",
				     winner)) < 0 ||
	    (error = draw(state, events, "Red")) < 0 || (error = draw(state, events, "Blue")) < 0)
		return error;
	if (est_rules_int(won, winner, 0) >= target || json_array_size(json_object_get(hands, "Red")) == 0) {
		int r = est_rules_int(won, "Red", 0), b = est_rules_int(won, "Blue", 0);
		json_object_set_new(state, "phase", json_string("over"));
		json_object_set_new(state, "winner", r == b ? json_null() : json_string(r > b ? "Red" : "Blue"));
		return est_rules_event(events, NULL, "over", "the duel is over, %d rounds to %d", r > b ? r : b,
				       r > b ? b : r);
	}
	json_object_set_new(state, "round", json_integer(round + 1));
	return 0;
}

static int resolve(json_t **state_out, json_t **events_out, const json_t *state, const json_t *rules,
		   const json_t *orders, est_dice *dice, est_dice *hidden)
{
	json_t *s = json_deep_copy(state), *events = json_array();
	const char *phase = est_rules_str(state, "phase");
	int error;

	if (!s || !events)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if (!phase || strcmp(phase, "over") == 0)
		error = est_error_set(EST_ERROR, "state.json: the duel is over; nothing to resolve");
	else if (strcmp(phase, "deal") == 0)
		error = deal(s, events, rules, hidden);
	else
		error = play(s, events, orders, dice);
	return est_rules_resolved(state_out, events_out, s, events, error);
}

/* The public parts, the reader's own hand when it is a power's, and how many cards each holds. */
static int view(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	const json_t *hands = json_object_get(state, "hands"), *mine = hand_of(state, power);

	*out = json_pack("{s:O, s:O, s:O, s:O, s:O, s:i, s:{s:i, s:i}}", "phase", json_object_get(state, "phase"),
			 "round", json_object_get(state, "round"), "won", json_object_get(state, "won"), "last",
			 json_object_get(state, "last"), "winner", json_object_get(state, "winner"), "deck",
			 est_rules_pile_count(json_object_get(state, "deck")), "cards", "Red",
			 est_rules_pile_count(json_object_get(hands, "Red")), "Blue",
			 est_rules_pile_count(json_object_get(hands, "Blue")));
	if (*out && json_is_array(mine))
		json_object_set_new(*out, "hand", json_deep_copy(mine));
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* The deck's order and each hand. */
static int sealed(json_t **paths_out, const json_t *state, const json_t *rules)
{
	*paths_out = json_pack("[s, s, s]", "/deck", "/hands/Red", "/hands/Blue");
	return *paths_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const est_ruleset est_ruleset_toy = {
	.name = "toy",
	.version = "1",
	.powers = powers,
	.setup = setup,
	.pending = pending,
	.validate = validate,
	.default_orders = default_orders,
	.resolve = resolve,
	.view = view,
	.sealed = sealed,
};
