/*
 * Napoleonic Empire: the est_ruleset table: set-up, pending steps, default
 * orders and the dispatch of resolve() by step kind.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "napoleonic_empire.h"
#include "ne_internal.h"

/* R2, R38: the two-player game's sides, then the Allied countries of the divided Allies. */
static const char *const powers_list[] = {NE_FRANCE, NE_ALLIES, "England", "Russia", "Prussia", "Austria", NULL};

static const char *const *powers(void)
{
	return powers_list;
}

/*
 * README.md "Powers and players": one player France and the Allies; two,
 * France and the Allies; three to five, France and the Allied countries
 * dealt round the Allied players in the order England, Russia, Prussia,
 * Austria (the divided Allies, RULINGS.md R38).
 */
static int deal(json_t **out, size_t players)
{
	switch (players) {
	case 1:
		*out = json_pack("[[s, s]]", NE_FRANCE, NE_ALLIES);
		break;
	case 2:
		*out = json_pack("[[s], [s]]", NE_FRANCE, NE_ALLIES);
		break;
	case 3:
		*out = json_pack("[[s], [s, s], [s, s]]", NE_FRANCE, "England", "Prussia", "Russia", "Austria");
		break;
	case 4:
		*out = json_pack("[[s], [s, s], [s], [s]]", NE_FRANCE, "England", "Austria", "Russia", "Prussia");
		break;
	case 5:
		*out = json_pack("[[s], [s], [s], [s], [s]]", NE_FRANCE, "England", "Russia", "Prussia", "Austria");
		break;
	default:
		return est_error_set(EST_EINVAL, "Napoleonic Empire is for 1 to 5 players: France, and the Allies "
				     "whole or divided among up to four (RULINGS.md R38); list 1 to 5 players");
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
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

/* An option and the values it takes, the default first. */
struct ne_option {
	const char *key;
	const char *values[3];
};

static const struct ne_option known_options[] = {
	{"scenario", {"standard"}},
	{"allies", {"united", "divided"}},   /* RULINGS.md R36-R38 */
	{"control", {"persists", "lapses"}}, /* RULINGS.md R5, R5a */
	{NULL, {NULL}},
};

static int check_value(const struct ne_option *opt, const json_t *v)
{
	const char *value = json_string_value(v);
	char list[128] = "";
	size_t used = 0;

	for (int i = 0; opt->values[i]; i++) {
		if (value && strcmp(value, opt->values[i]) == 0)
			return 0;
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s\"%s\"", i ? " or " : "",
					 opt->values[i]);
	}
	return est_error_set(EST_EINVAL, "option \"%s\" is %s%s%s, but Napoleonic Empire takes %s; "
			     "use one of them or leave the option out (the ruleset's README.md \"Options\")", opt->key,
			     value ? "\"" : "", value ? value : "not a string", value ? "\"" : "", list);
}

/*
 * The options (--option K=V, kept in game.json "options"): those of
 * known_options, and "players", which `new` sets (ruleset.h
 * powers_optional). Anything else is refused, not ignored, so a mistyped
 * option is not mistaken for one in force.
 */
static int check_options(const json_t *options)
{
	const char *key;
	json_t *v;
	int error;

	if (!options)
		return 0;
	if (!json_is_object(options))
		return est_error_set(EST_EINVAL, "options: not an object; Napoleonic Empire accepts "
				     "\"scenario\", \"allies\" and \"control\"");
	json_object_foreach((json_t *)options, key, v) {
		const struct ne_option *opt = known_options;

		while (opt->key && strcmp(opt->key, key) != 0)
			opt++;
		if (opt->key && (error = check_value(opt, v)) < 0)
			return error;
		if (!opt->key && strcmp(key, "players") != 0)
			return est_error_set(EST_EINVAL, "option \"%s\" is not an option of Napoleonic Empire, "
					     "which accepts \"scenario\", \"allies\" and \"control\"; remove it", key);
	}
	return 0;
}

/* Only what differs from the two-player game with R5 enters the state, which stays as it was. */
static int setup_variants(json_t *state, const json_t *options)
{
	json_t *groups = NULL;
	const char *control = est_rules_str(options, "control");
	int error;

	if ((error = ne_allied_groups(&groups, json_object_get(options, "players"),
				      est_rules_str(options, "allies"))) < 0)
		return error;
	if ((groups && json_object_set_new(state, "allied_players", groups) < 0) ||
	    (control && strcmp(control, "lapses") == 0 &&
	     json_object_set_new(state, "control_lapses", json_true()) < 0))
		return est_error_set(EST_ENOMEM, "out of memory");
	return ne_state_out(state, NULL);
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
	    (error = place_setup(state, rules, NE_ALLIES)) < 0 ||
	    (error = setup_variants(state, options)) < 0)
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
	else if (strcmp(phase, "turn") == 0 && ne_divided(state) && strcmp(active, NE_ALLIES) == 0)
		snprintf(buf, len, "Allies: send your orders for turn %d%s: each Allied player the moves "
			 "from the countries he commands, the player holding England also the cards, rebels "
			 "and standing orders", (int)json_integer_value(json_object_get(state, "turn")),
			 json_is_true(json_object_get(state, "extra")) ? ", an extra turn" : "");
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

/* Append a choice; `powers` (borrowed; NULL: every awaited power) names who may send it. */
static int choice_for(json_t *c, const json_t *powers, json_t *order, const char *text)
{
	if (est_rules_choice(c, order, "%s", text) < 0)
		return est_error_code();
	if (powers && json_object_set_new(json_array_get(c, json_array_size(c) - 1), "powers",
					  json_deep_copy(powers)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/*
 * The move items of a turn. In the divided Allies' turn each Allied player
 * gets his own, naming the countries whose Allied armies he moves (R37).
 */
static int move_choices(json_t *c, const json_t *state, const json_t *rules, int divided)
{
	const char *sea = est_rules_str(json_object_get(rules, "map"), "sea_power");
	const json_t *g;
	size_t i;
	int error = 0;

	if (!divided)
		return choice_for(c, NULL, json_pack("{s:s, s:s, s:s, s:s}", "type", "move", "from", "<country>",
						     "to", "<country>", "armies", "<number>"),
				  "move armies across a border, or out of England by sea");
	json_array_foreach(json_object_get(state, "allied_players"), i, g) {
		const char *lead = json_string_value(json_array_get(g, 0));
		json_t *where = ne_command_text(state, rules, lead, 1);
		char text[640];

		if (!where)
			return est_error_set(EST_ENOMEM, "out of memory");
		snprintf(text, sizeof(text), "move Allied armies out of a country you command (%s) across a "
			 "border%s (R37)", json_string_value(where),
			 sea && ne_commands(state, rules, lead, sea) ? ", or out of England by sea" : "");
		json_decref(where);
		if ((error = choice_for(c, g, json_pack("{s:s, s:s, s:s, s:s}", "type", "move", "from",
							"<country>", "to", "<country>", "armies",
							"<number>"), text)) < 0)
			break;
	}
	return error;
}

/*
 * A turn's order items, as the README's Orders table gives them. In the
 * divided Allies' turn all but the moves are the keeper's (R36): each is
 * listed only to the player holding England (R39).
 */
static int turn_choices(json_t *c, const json_t *state, const json_t *rules)
{
	int allies = strcmp(est_rules_str(state, "active"), NE_ALLIES) == 0;
	int divided = allies && ne_divided(state);
	json_t *keeper = divided ? json_pack("[s]", NE_KEEPER) : NULL;
	int error;

	if (divided && !keeper)
		return est_error_set(EST_ENOMEM, "out of memory");
	error = choice_for(c, keeper, json_pack("{s:s, s:s}", "type", "discard", "card", "<card>"),
			   "only with more than 7 cards: discard exactly the excess (R19)") < 0 ||
		choice_for(c, keeper, json_pack("{s:s, s:s, s:s}", "type", "play", "card", "<battle card>",
						"country", "<country>"), "a battle card for a battle there (R10)") < 0 ||
		choice_for(c, keeper, json_pack("{s:s, s:s}", "type", "play", "card", "<event card>"),
			   "an event card, in effect at once (R15)") < 0 ||
		move_choices(c, state, rules, divided) < 0 ||
		(allies && choice_for(c, keeper, json_pack("{s:s, s:s}", "type", "rebels", "country", "<country>"),
				      "2 rebel armies in Spain, Portugal, Prussia, Russia or Austria (R21)") < 0) ||
		choice_for(c, keeper, json_pack("{s:s, s:s, s:s}", "type", "retreat", "from", "<country>", "to",
						"<country>"), "a standing order: where survivors retreat") < 0 ||
		choice_for(c, keeper, json_pack("{s:s, s:s, s:s}", "type", "standing-play", "card",
						"<battle card>", "country", "<country>"),
			   "the card to play when you defend there (R18)") < 0 ? est_error_code() : 0;
	json_decref(keeper);
	return error;
}

/*
 * What the step takes (ruleset.h "choices"): a turn's kinds of order; a
 * battle-cards step a play for each pending battle; a retreat step each
 * country open to the retreat. Hands are sealed, so no card is named.
 */
static json_t *choices(const json_t *state, const json_t *rules, const char *phase)
{
	json_t *c = json_array(), *v;
	const json_t *r = json_object_get(state, "retreat");
	int error = 0;
	size_t i;

	if (!c)
		return NULL;
	if (strcmp(phase, "turn") == 0)
		error = turn_choices(c, state, rules);
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
	const char *mode;
	json_t *powers_awaited;
	char text[320];

	if (!phase)
		return est_error_set(EST_ERROR, "state.json: no \"phase\"; not a Napoleonic Empire state");
	if (strcmp(phase, "start") == 0)
		mode = "automatic";
	else if (strcmp(phase, "turn") == 0 || strcmp(phase, "retreat") == 0)
		mode = "sequential";
	else if (strcmp(phase, "battle-cards") == 0)
		mode = "simultaneous";
	else if (strcmp(phase, "over") == 0)
		mode = "over";
	else
		return est_error_set(EST_ERROR, "state.json: unknown phase \"%s\"", phase);
	if (!(powers_awaited = ne_awaited(state)))
		return est_error_set(EST_ENOMEM, "out of memory");
	/* The divided Allies' players order their turn side by side (RULINGS.md R38). */
	if (json_array_size(powers_awaited) > 1)
		mode = "simultaneous";
	*out = json_pack("{s:s, s:s, s:o, s:s, s:o}", "mode", mode, "kind", phase, "powers", powers_awaited,
			 "prompt", prompt(state, text, sizeof(text)), "choices", choices(state, rules, phase));
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* The default orders the state holds for `power` (a divided game's Allied ones are the keeper's). */
static int default_orders(json_t **out, const json_t *state, const json_t *rules,
			  const char *power)
{
	const json_t *d = json_object_get(json_object_get(state, "defaults"), power ? power : "");

	(void)rules;
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

static int resolve(json_t **state_out, json_t **events_out, const json_t *state_given,
		   const json_t *rules, const json_t *orders_given, est_dice *dice, est_dice *hidden)
{
	json_t *state0 = NULL, *state = NULL, *events = json_array(), *orders = NULL;
	const char *phase = est_rules_str(state_given, "phase");
	int error;

	if (!events) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (!phase) {
		error = est_error_set(EST_ERROR, "state.json: no \"phase\"; not a Napoleonic Empire state");
		goto out;
	}
	/* The divided Allies resolve as the one side they are (RULINGS.md R36-R38). */
	if ((error = ne_state_in(&state0, state_given)) < 0 ||
	    (error = ne_side_orders(&orders, state0, orders_given)) < 0)
		goto out;
	if (!(state = json_deep_copy(state0))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (strcmp(phase, "start") == 0)
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
	if (error < 0 || (error = ne_state_out(state, events)) < 0)
		goto out;
	*state_out = state;
	*events_out = events;
	state = events = NULL;
out:
	json_decref(state0);
	json_decref(orders);
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
	/* The divided Allies' parts are the keeper's (RULINGS.md R36). */
	const char *a = ne_speaker(state, NE_ALLIES);
	char hand[32], plays[32], standing[32], defaults[32];

	(void)rules;
	snprintf(hand, sizeof(hand), "/hands/%s", a);
	snprintf(plays, sizeof(plays), "/attack/plays/%s", a);
	snprintf(standing, sizeof(standing), "/standing/%s", a);
	snprintf(defaults, sizeof(defaults), "/defaults/%s", a);
	*paths_out = json_pack("[s, s, s, s, s, s, s, s, s, s]", "/deck", "/discard", "/hands/" NE_FRANCE,
			       hand, "/attack/plays/" NE_FRANCE, plays, "/standing/" NE_FRANCE, standing,
			       "/defaults/" NE_FRANCE, defaults);
	return *paths_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const est_ruleset est_ruleset_napoleonic_empire = {
	.name = "napoleonic-empire",
	.version = "1.1.0",
	.powers = powers,
	.setup = setup,
	.pending = pending,
	.validate = ne_validate,
	.default_orders = default_orders,
	.resolve = resolve,
	.view = ne_view,
	.sealed = sealed,
	.deal = deal,
	/* The players hold the Allies whole or divided (RULINGS.md R38), never both. */
	.powers_optional = 1,
};
