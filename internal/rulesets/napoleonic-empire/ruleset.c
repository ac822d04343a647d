/*
 * Napoleonic Empire: the est_ruleset table: set-up, pending steps, default
 * orders and the dispatch of resolve() by step kind.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "napoleonic_empire.h"
#include "ne_internal.h"

static const char *const powers_list[] = {NE_FRANCE, NE_ALLIES, NULL};

static const char *const *powers(void)
{
	return powers_list;
}

/* FRENCH SETUP / ALLIES SETUP: armies and the initial control (RULINGS.md R4). */
static int place_setup(json_t *state, const json_t *rules, const char *side)
{
	const json_t *armies = json_object_get(json_object_get(json_object_get(rules, "setup"), "armies"), side);
	const char *c;
	json_t *n;
	int error;

	json_object_foreach((json_t *)armies, c, n) {
		if (!ne_is_country(rules, c) || !json_is_integer(n))
			return est_error_set(EST_EINVAL, "rules/setup.json: field \"armies.%s.%s\" names no "
					     "country of rules/map.json or is not an integer; fix the data", side, c);
		if ((error = ne_set_armies(state, c, side, (int)json_integer_value(n))) < 0 ||
		    (error = ne_set_controller(state, c, side)) < 0)
			return error;
	}
	if (ne_on_map(state, side) > ne_setup_int(rules, "counters", 80))
		return est_error_set(EST_EINVAL, "rules/setup.json: %s sets up %d armies, more than its %d "
				     "counters; fix the data", side, ne_on_map(state, side),
				     ne_setup_int(rules, "counters", 80));
	return 0;
}

/*
 * The options (--option K=V, kept in game.json "options"): "scenario" only,
 * whose one value is "standard". Anything else is refused, not ignored, so a
 * mistyped option is not mistaken for one in force.
 */
static int check_options(const json_t *options)
{
	const char *key, *scenario;
	json_t *v;

	if (!options)
		return 0;
	if (!json_is_object(options))
		return est_error_set(EST_EINVAL, "options: not an object; Napoleonic Empire accepts "
				     "\"scenario\" only");
	json_object_foreach((json_t *)options, key, v) {
		if (strcmp(key, "scenario") != 0)
			return est_error_set(EST_EINVAL, "option \"%s\" is not an option of Napoleonic "
					     "Empire, which accepts \"scenario\" only; remove it", key);
	}
	v = json_object_get(options, "scenario");
	scenario = json_string_value(v);
	if (v && (!scenario || strcmp(scenario, "standard") != 0))
		return est_error_set(EST_EINVAL, "option \"scenario\" is %s%s%s, but Napoleonic Empire "
				     "has one scenario, \"standard\"; use \"standard\" or leave the option "
				     "out", scenario ? "\"" : "", scenario ? scenario : "not a string",
				     scenario ? "\"" : "");
	return 0;
}

static int setup(json_t **state_out, const json_t *rules, const json_t *options)
{
	const json_t *cards = json_object_get(json_object_get(rules, "cards"), "cards"), *card;
	json_t *state = NULL, *map, *deck;
	size_t i;
	int error;

	if ((error = check_options(options)) < 0)
		return error;
	if (ne_country_count(rules) == 0 || json_array_size(cards) == 0)
		return est_error_set(EST_EINVAL, "rules: map.json or cards.json is missing or empty; "
				     "copy the ruleset's data/ folder into the game's rules/");
	state = json_pack("{s:s, s:i, s:s, s:b, s:{}, s:[], s:[], s:{s:[], s:[]}, s:b, s:{s:b, s:b},"
			  " s:{s:{s:{}, s:{}}, s:{s:{}, s:{}}}, s:n, s:n, s:{s:[], s:[]}, s:n, s:n}",
			  "phase", "start", "turn", 0, "active", NE_FRANCE, "extra", 0, "countries",
			  "deck", "discard", "hands", NE_FRANCE, NE_ALLIES, "continental_system", 0,
			  "no_move", NE_FRANCE, 0, NE_ALLIES, 0,
			  "standing", NE_FRANCE, "retreats", "plays", NE_ALLIES, "retreats", "plays",
			  "attack", "retreat", "defaults", NE_FRANCE, NE_ALLIES, "winner", "win_reason");
	if (!state)
		return est_error_set(EST_ENOMEM, "out of memory");
	map = json_object_get(state, "countries");
	deck = json_object_get(state, "deck");
	for (i = 0; i < ne_country_count(rules); i++) {
		if (json_object_set_new(map, ne_country_name(rules, i),
					json_pack("{s:i, s:i, s:n}", NE_FRANCE, 0, NE_ALLIES, 0, "control")) < 0) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
	}
	if ((error = place_setup(state, rules, NE_FRANCE)) < 0 ||
	    (error = place_setup(state, rules, NE_ALLIES)) < 0)
		goto out;
	/* Step 0 draws no dice: the deck stays in card-list order until step 1. */
	json_array_foreach(cards, i, card) {
		if (json_array_append(deck, json_object_get(card, "id")) < 0) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
	}
	*state_out = state;
	state = NULL;
out:
	json_decref(state);
	return error;
}

/* "France: play a battle card (or none) for the battles in Austria, Spain" */
static void battle_cards_prompt(char *buf, size_t len, const json_t *attack)
{
	const json_t *asked = json_object_get(attack, "asked");
	size_t used, i;
	json_t *b;

	used = (size_t)snprintf(buf, len, "%s%s%s: play battle cards (or none) for the battles in ",
				json_string_value(json_array_get(asked, 0)),
				json_array_size(asked) > 1 ? " and the " : "",
				json_array_size(asked) > 1 ? json_string_value(json_array_get(asked, 1)) : "");
	json_array_foreach(json_object_get(attack, "battles"), i, b)
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
						 json_string_value(b));
}

static const char *prompt(const json_t *state, char *buf, size_t len)
{
	const char *phase = est_rules_str(state, "phase"), *active = est_rules_str(state, "active");
	const json_t *r = json_object_get(state, "retreat");

	if (strcmp(phase, "start") == 0)
		snprintf(buf, len, "automatic: the deck is shuffled and France draws its first 2 cards");
	else if (strcmp(phase, "turn") == 0)
		snprintf(buf, len, "%s: send your orders for turn %d%s (discards, cards, moves%s, "
			 "standing orders)", active, (int)json_integer_value(json_object_get(state, "turn")),
			 json_is_true(json_object_get(state, "extra")) ? ", an extra turn" : "",
			 strcmp(active, NE_ALLIES) == 0 ? ", rebels" : "");
	else if (strcmp(phase, "battle-cards") == 0)
		battle_cards_prompt(buf, len, json_object_get(state, "attack"));
	else if (strcmp(phase, "retreat") == 0)
		snprintf(buf, len, "%s: choose where your %d surviving arm%s retreat%s from %s",
			 est_rules_str(r, "side"), (int)json_integer_value(json_object_get(r, "armies")),
			 ne_ies((int)json_integer_value(json_object_get(r, "armies"))),
			 json_integer_value(json_object_get(r, "armies")) == 1 ? "s" : "",
			 est_rules_str(r, "from"));
	else
		snprintf(buf, len, "the game is over: %s won (%s)", est_rules_str(state, "winner"),
			 est_rules_str(state, "win_reason"));
	return buf;
}

/* A turn's order items, as the README's Orders table gives them. */
static int turn_choices(json_t *c, const json_t *state)
{
	int allies = strcmp(est_rules_str(state, "active"), NE_ALLIES) == 0;

	if (est_rules_choice(c, json_pack("{s:s, s:s}", "type", "discard", "card", "<card>"),
			     "only with more than 7 cards: discard exactly the excess (R19)") < 0 ||
	    est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "play", "card", "<battle card>",
					  "country", "<country>"), "a battle card for a battle there (R10)") < 0 ||
	    est_rules_choice(c, json_pack("{s:s, s:s}", "type", "play", "card", "<event card>"),
			     "an event card, in effect at once (R15)") < 0 ||
	    est_rules_choice(c, json_pack("{s:s, s:s, s:s, s:s}", "type", "move", "from", "<country>",
					  "to", "<country>", "armies", "<number>"),
			     "move armies across a border, or out of England by sea") < 0 ||
	    (allies && est_rules_choice(c, json_pack("{s:s, s:s}", "type", "rebels", "country", "<country>"),
					"2 rebel armies in Spain, Portugal, Prussia, Russia or Austria (R21)") < 0) ||
	    est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "retreat", "from", "<country>",
					  "to", "<country>"), "a standing order: where survivors retreat") < 0 ||
	    est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "standing-play", "card", "<battle card>",
					  "country", "<country>"), "the card to play when you defend there (R18)") < 0)
		return est_error_code();
	return 0;
}

/*
 * What the step takes (ruleset.h "choices"): a turn's kinds of order; a
 * battle-cards step a play for each pending battle; a retreat step each
 * country open to the retreat. Hands are sealed, so no card is named.
 */
static json_t *choices(const json_t *state, const char *phase)
{
	json_t *c = json_array(), *v;
	const json_t *r = json_object_get(state, "retreat");
	int error = 0;
	size_t i;

	if (!c)
		return NULL;
	if (strcmp(phase, "turn") == 0)
		error = turn_choices(c, state);
	else if (strcmp(phase, "battle-cards") == 0)
		json_array_foreach(json_object_get(json_object_get(state, "attack"), "battles"), i, v)
			error = error ? error : est_rules_choice(c, json_pack("{s:s, s:s, s:O}", "type", "play",
				"card", "<battle card from your hand>", "country", v),
				"a battle card for the battle in %s, if you play one", json_string_value(v));
	else if (strcmp(phase, "retreat") == 0)
		json_array_foreach(json_object_get(r, "options"), i, v)
			error = error ? error : est_rules_choice(c, json_pack("{s:s, s:O, s:O}", "type", "retreat",
				"from", json_object_get(r, "from"), "to", v), "retreat to %s", json_string_value(v));
	if (error < 0) {
		json_decref(c);
		return NULL;
	}
	return c;
}

static int pending(json_t **out, const json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase");
	const char *mode, *kind = phase;
	json_t *powers_awaited;
	char text[256];

	if (!phase)
		return est_error_set(EST_ERROR, "state.json: no \"phase\"; not a Napoleonic Empire state");
	if (strcmp(phase, "start") == 0) {
		mode = "automatic";
		powers_awaited = json_array();
	} else if (strcmp(phase, "turn") == 0) {
		mode = "sequential";
		powers_awaited = json_pack("[s]", est_rules_str(state, "active"));
	} else if (strcmp(phase, "battle-cards") == 0) {
		mode = "simultaneous";
		powers_awaited = json_deep_copy(json_object_get(json_object_get(state, "attack"), "asked"));
	} else if (strcmp(phase, "retreat") == 0) {
		mode = "sequential";
		powers_awaited = json_pack("[s]", est_rules_str(json_object_get(state, "retreat"), "side"));
	} else if (strcmp(phase, "over") == 0) {
		mode = "over";
		powers_awaited = json_array();
	} else {
		return est_error_set(EST_ERROR, "state.json: unknown phase \"%s\"", phase);
	}
	*out = json_pack("{s:s, s:s, s:o, s:s, s:o}", "mode", mode, "kind", kind, "powers", powers_awaited,
			 "prompt", prompt(state, text, sizeof(text)), "choices", choices(state, phase));
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

static int default_orders(json_t **out, const json_t *state, const json_t *rules,
			  const char *power)
{
	const json_t *d = json_object_get(json_object_get(state, "defaults"), power ? power : "");

	*out = d ? json_deep_copy(d) : json_array();
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* Step 1: "The French player goes first": the first shuffle and French Draw Phase. */
static int resolve_start(json_t *state, json_t *events, const json_t *rules, est_dice *hidden)
{
	int error;

	if ((error = ne_shuffle_deck(state, events, hidden, "The deck is shuffled")) < 0)
		return error;
	if (json_object_set_new(state, "turn", json_integer(1)) < 0 ||
	    json_object_set_new(state, "phase", json_string("turn")) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:b}", "side", NE_FRANCE, "turn", 1,
						"extra", 0),
			      "turn", "Turn 1: France")) < 0 ||
	    (error = ne_draw(state, events, rules, NE_FRANCE, ne_setup_int(rules, "draw", 2), hidden)) < 0)
		return error;
	return ne_set_defaults(state, rules);
}

static const json_t *orders_of(const json_t *orders, const json_t *state, const char *power)
{
	const json_t *o = json_object_get(orders, power);

	return o ? o : json_object_get(json_object_get(state, "defaults"), power);
}

/* Battle cards of both sides (RULINGS.md R10), then the battles. */
static int resolve_battle_cards(json_t *state, json_t *events, const json_t *rules,
				const json_t *orders, est_dice *dice, est_dice *hidden)
{
	json_t *att = json_object_get(state, "attack"), *o;
	size_t i;
	int s;

	for (s = 0; s < 2; s++) {
		const char *side = s ? NE_ALLIES : NE_FRANCE;
		json_t *own = json_object_get(json_object_get(att, "plays"), side);

		json_array_foreach(orders_of(orders, state, side), i, o) {
			const char *id = est_rules_str(o, "card"), *c = est_rules_str(o, "country");

			/* A card named in the turn orders stays with its battle (RULINGS.md R34). */
			if (!id || !c || json_object_get(own, c) || ne_hand_index(state, side, id) < 0 ||
			    ne_card_committed(state, side, id) ||
			    !est_rules_in_list(json_object_get(att, "battles"), c) ||
			    !ne_card_playable_by(ne_card(rules, id), side) || !ne_card_fits(ne_card(rules, id), c))
				continue;
			if (json_object_set_new(own, c, json_string(id)) < 0)
				return est_error_set(EST_ENOMEM, "out of memory");
		}
	}
	return ne_run_battles(state, events, rules, dice, hidden);
}

static int resolve_retreat(json_t *state, json_t *events, const json_t *rules,
			   const json_t *orders, est_dice *dice, est_dice *hidden)
{
	const json_t *r = json_object_get(state, "retreat");
	const json_t *o = json_array_get(orders_of(orders, state, est_rules_str(r, "side")), 0);
	const char *to = est_rules_str(o, "to");
	int error;

	if (!to || !est_rules_in_list(json_object_get(r, "options"), to))
		to = json_string_value(json_array_get(json_object_get(r, "options"), 0));
	if ((error = ne_apply_retreat(state, events, rules, to)) < 0)
		return error;
	return ne_run_battles(state, events, rules, dice, hidden);
}

static int resolve(json_t **state_out, json_t **events_out, const json_t *state0,
		   const json_t *rules, const json_t *orders, est_dice *dice, est_dice *hidden)
{
	json_t *state = json_deep_copy(state0), *events = json_array();
	const char *phase = est_rules_str(state0, "phase");
	int error;

	if (!state || !events) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (!phase)
		error = est_error_set(EST_ERROR, "state.json: no \"phase\"; not a Napoleonic Empire state");
	else if (strcmp(phase, "start") == 0)
		error = resolve_start(state, events, rules, hidden);
	else if (strcmp(phase, "turn") == 0)
		error = ne_resolve_turn(state, events, rules,
					orders_of(orders, state0, est_rules_str(state0, "active")), dice, hidden);
	else if (strcmp(phase, "battle-cards") == 0)
		error = resolve_battle_cards(state, events, rules, orders, dice, hidden);
	else if (strcmp(phase, "retreat") == 0)
		error = resolve_retreat(state, events, rules, orders, dice, hidden);
	else
		error = est_error_set(EST_ERROR, "state.json: phase \"%s\" awaits nothing to resolve", phase);
	if (error < 0)
		goto out;
	*state_out = state;
	*events_out = events;
	state = events = NULL;
out:
	json_decref(state);
	json_decref(events);
	return error;
}

/*
 * R27 (hidden information): the hands, the deck order, the discard pile
 * (hand-limit discards are face down), the battle cards an attacker has
 * put down for battles still to be fought, the standing orders, and the
 * default orders made of them (they name standing plays, standing retreats
 * and the cards a missed turn would discard).
 */
static int sealed(json_t **paths_out, const json_t *state, const json_t *rules)
{
	(void)state;
	(void)rules;
	*paths_out = json_pack("[s, s, s, s, s, s, s, s, s, s]", "/deck", "/discard", "/hands/" NE_FRANCE,
			       "/hands/" NE_ALLIES, "/attack/plays/" NE_FRANCE,
			       "/attack/plays/" NE_ALLIES, "/standing/" NE_FRANCE, "/standing/" NE_ALLIES,
			       "/defaults/" NE_FRANCE, "/defaults/" NE_ALLIES);
	return *paths_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const est_ruleset est_ruleset_napoleonic_empire = {
	.name = "napoleonic-empire",
	.version = "1.0.0",
	.powers = powers,
	.setup = setup,
	.pending = pending,
	.validate = ne_validate,
	.default_orders = default_orders,
	.resolve = resolve,
	.view = ne_view,
	.sealed = sealed,
};
