/*
 * Levée en Masse with its Expansion Kit (seeds/levee-en-masse-expansion-kit.txt):
 * the rules with fixed dice. Each test names the rule it checks, quotes the
 * seed (or RULINGS.md where the base game had to be rebuilt) and works its
 * faces by hand. The rules data is the real one of
 * internal/rulesets/levee-en-masse/data/: set-up puts the Political markers
 * at Republic 2, Monarchy 1, Despotism 0 (the Republic is the single
 * highest: Military DRM 0, Political DRM +1); Battle Values are Vendée 2,
 * Austrian 3, Prussian 3, Piedmont 2, Spanish 2, Suvorov [4], Korsakov [3].
 */
#include "lem_helpers.h"

#define NF(...) (sizeof((const int[]){__VA_ARGS__}) / sizeof(int))
/* lem_actions() on `st` with these faces, every one drawn; the events are the caller's. */
#define ACT(st, orders, ...) lemt_act((st), rules, (orders), (const int[]){__VA_ARGS__}, NF(__VA_ARGS__))
/* A whole Action Phase step (Actions, Housekeeping, next card) with these public faces. */
#define STEP(st, orders, ev, ...) lemt_step((st), rules, (orders), (const int[]){__VA_ARGS__}, NF(__VA_ARGS__), (ev))

static int setup_rules(void **state)
{
	*state = lemt_rules();
	return 0;
}

static int teardown_rules(void **state)
{
	json_decref(*state);
	return 0;
}

static const char *deck_of(const json_t *rules, const char *card)
{
	return est_rules_str(lem_card(rules, card), "deck");
}

static size_t pile(const json_t *state, const char *name)
{
	return json_array_size(json_object_get(json_object_get(state, "deck"), name));
}

/*
 * Draw every card of a dealt `state` with the hidden stream answering 1 to
 * each roll; returns the ids drawn in order (caller's) and, in *rolls_out,
 * how many rolls the draws took.
 */
static json_t *draw_all(json_t *state, const json_t *rules, size_t *rolls_out)
{
	int ones[100];
	est_dice *hidden = NULL;
	json_t *drawn = json_array();
	const char *card;

	for (size_t i = 0; i < 100; i++)
		ones[i] = 1;
	assert_int_equal(est_dice_new_fixed(&hidden, ones, 100), 0);
	for (;;) {
		assert_int_equal(lem_draw(&card, state, rules, hidden), 0);
		if (!card)
			break;
		json_array_append_new(drawn, json_string(card));
	}
	*rolls_out = est_dice_count(hidden);
	est_dice_free(hidden);
	return drawn;
}

/*
 * Options (README.md "Options"): values are JSON true/false or 1/0, the
 * scenario one of 12.0's, difficulty -1/0/1 (13.0); anything else is
 * EST_EINVAL.
 */
static void test_setup_options(void **rs)
{
	const json_t *rules = *rs;
	static const char *const good[] = {
		"{'10.4': true, '10.6': false, 'scenario': 'puree'}", "{'9.1': 1, '9.2': 0, 'difficulty': -1}",
		"{'napoleon-historical': true, '10.3': 1, '10.5': true}",
	};
	static const char *const bad[] = {"{'10.7': 1}", "{'10.4': 2}", "{'difficulty': 2}", "{'scenario': 'short'}"};
	json_t *state = NULL, *o;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		o = J(good[i]);
		if (LEM->setup(&state, rules, o) < 0)
			fail_msg("%s refused: %s", good[i], est_error_message());
		assert_string_equal(est_rules_str(state, "phase"), "start");
		json_decref(state);
		json_decref(o);
	}
	state = lemt_setup(rules, "{'10.4': 1, '10.6': 0, 'scenario': 'historical'}");
	assert_true(lem_option(state, "10.4"));
	assert_false(lem_option(state, "10.6"));
	assert_string_equal(est_rules_str(state, "scenario"), "historical");
	json_decref(state);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		state = NULL;
		o = J(bad[i]);
		assert_int_equal(LEM->setup(&state, rules, o), EST_EINVAL);
		assert_null(state);
		json_decref(o);
	}
}

/* ---- Step 1, the decks (12.1, 12.2, 12.3) ---- */

/*
 * 12.1 The Extended Game: "Simply add the 12 new cards to their respective
 * decks" (1.0: two Blue, seven White, three Red). Step 1 deals and draws
 * with the hidden stream only: the Blue pile holds 22 + 2 = 24 cards, a d24
 * of 3 takes its third card, #3 (the Austrian Army advances 4 -> 3, Disorder
 * in Paris, 2 Actions). The public stream is empty: any roll of it fails.
 * The same hidden face gives the same state; another face another card
 * (a d24 of 24: E19, the last Blue card, which brings the Spanish Army).
 */
static void test_start_extended_hidden_stream_decides(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{'scenario': 'extended'}"), *a, *b, *c, *events = NULL, *p = NULL;
	est_dice *hidden = NULL;

	a = lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){3}, 1, &events);
	assert_string_equal(est_rules_str(a, "current"), "3");
	assert_int_equal(pile(a, "Blue"), 23);
	assert_int_equal(pile(a, "White"), 29);
	assert_int_equal(pile(a, "Red"), 25);
	assert_int_equal(lemt_box(a, "austrian"), 3);
	assert_true(lemt_int(a, "disorder"));
	assert_int_equal(lemt_int(a, "actions"), 2);
	assert_string_equal(est_rules_str(a, "phase"), "actions");
	assert_int_equal(rules_event_count(events, "headline"), 1);
	assert_int_equal(LEM->pending(&p, a, rules), 0);
	assert_string_equal(est_rules_str(p, "mode"), "sequential");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "Republic");

	/* The hidden roll is a d24 (the whole Blue pile), logged as such. */
	assert_int_equal(est_dice_new_fixed(&hidden, (const int[]){3}, 1), 0);
	json_object_set_new(state, "deck", json_object());
	assert_int_equal(lem_deal(state, rules), 0);
	{
		const char *card;
		assert_int_equal(lem_draw(&card, state, rules, hidden), 0);
		assert_string_equal(card, "3");
		assert_int_equal(est_rules_int(json_array_get(est_dice_log(hidden), 0), "sides", 0), 24);
	}
	est_dice_free(hidden);
	json_object_set_new(state, "deck", json_object());
	json_object_set_new(state, "current", json_null());
	json_object_set_new(state, "played", json_array());

	b = lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){3}, 1, NULL);
	assert_true(json_equal(a, b));
	c = lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){24}, 1, NULL);
	assert_string_equal(est_rules_str(c, "current"), "E19");
	assert_int_equal(lemt_box(c, "spanish"), 4);
	json_decref(p);
	json_decref(events);
	json_decref(a);
	json_decref(b);
	json_decref(c);
	json_decref(state);
}

/*
 * 12.1: the next card comes from the first pile not empty, Blue, then
 * White, then Red. Drawing all 78 with every roll 1 gives the 24 Blue cards,
 * then the 29 White, then the 25 Red; the last card of each pile needs no
 * roll, so 78 - 3 = 75 rolls.
 */
static void test_extended_deck_blue_white_red(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{}"), *drawn;
	size_t rolls, i;

	assert_int_equal(lem_deal(state, rules), 0);
	drawn = draw_all(state, rules, &rolls);
	assert_int_equal(json_array_size(drawn), 78);
	assert_int_equal(rolls, 75);
	for (i = 0; i < 78; i++)
		assert_string_equal(deck_of(rules, json_string_value(json_array_get(drawn, i))),
				    i < 24 ? "Blue" : i < 53 ? "White" : "Red");
	assert_string_equal(json_string_value(json_array_get(drawn, 0)), "1");
	assert_string_equal(json_string_value(json_array_get(drawn, 24)), "23");
	json_decref(drawn);
	json_decref(state);
}

/* "base": the original game's 66 Headline cards (14.0), 22 a deck, none of the Expansion Kit's. */
static void test_base_deck_66_cards(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{'scenario': 'base'}"), *drawn, *v;
	size_t rolls, i;

	assert_int_equal(lem_deal(state, rules), 0);
	assert_int_equal(pile(state, "Blue"), 22);
	assert_int_equal(pile(state, "White"), 22);
	assert_int_equal(pile(state, "Red"), 22);
	drawn = draw_all(state, rules, &rolls);
	assert_int_equal(json_array_size(drawn), 66);
	assert_int_equal(rolls, 63);
	json_array_foreach(drawn, i, v)
		assert_int_not_equal(json_string_value(v)[0], 'E');
	json_decref(drawn);
	json_decref(state);
}

/*
 * 12.2 Chronological Purée: "shuffle all of the cards together into a
 * single large deck". One pile "All" of 78: the first draw is a d78, and a
 * 78 takes the last card of the pile, E52 (a Red card: no Blue first).
 */
static void test_puree_one_pile(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{'scenario': 'puree'}");
	est_dice *hidden = NULL;
	const char *card;

	assert_int_equal(lem_deal(state, rules), 0);
	assert_int_equal(pile(state, "All"), 78);
	assert_int_equal(pile(state, "Blue"), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, (const int[]){78}, 1), 0);
	assert_int_equal(lem_draw(&card, state, rules, hidden), 0);
	assert_string_equal(card, "E52");
	assert_int_equal(est_rules_int(json_array_get(est_dice_log(hidden), 0), "sides", 0), 78);
	assert_int_equal(pile(state, "All"), 77);
	est_dice_free(hidden);
	json_decref(state);
}

/*
 * 12.3 The Historical Game: "arranging the Headline cards in numerical
 * sequence" (RULINGS.md M4: a base card before the Expansion Kit's card of
 * the same number): 1, ..., 12, E12, 13, ... with no roll at all, and
 * step 1 draws card #1 with neither stream.
 */
static void test_historical_ordered_no_rolls(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{'scenario': 'historical'}"), *drawn, *next;
	size_t rolls, i;
	int last = 0;

	next = lemt_step_hidden(state, rules, "[]", NULL, 0, NULL, 0, NULL);
	assert_string_equal(est_rules_str(next, "current"), "1");
	assert_int_equal(pile(next, "Ordered"), 77);
	assert_int_equal(lem_deal(state, rules), 0);
	drawn = draw_all(state, rules, &rolls);
	assert_int_equal(rolls, 0);
	assert_int_equal(json_array_size(drawn), 78);
	assert_string_equal(json_string_value(json_array_get(drawn, 11)), "12");
	assert_string_equal(json_string_value(json_array_get(drawn, 12)), "E12");
	assert_string_equal(json_string_value(json_array_get(drawn, 13)), "13");
	assert_string_equal(json_string_value(json_array_get(drawn, 77)), "66");
	for (i = 0; i < 78; i++) {
		int n = est_rules_int(lem_card(rules, json_string_value(json_array_get(drawn, i))), "number", 0);
		assert_true(n >= last);
		last = n;
	}
	json_decref(drawn);
	json_decref(next);
	json_decref(state);
}

/* ---- Headline cards ---- */

/*
 * 5.0 "The Spanish Army enters play on Card #19 in the '4' space on the
 * Vendée track (which it shares)": E19 places it on 4 and advances the
 * Vendée Army 5 -> 4; 2 Actions.
 */
static void test_headline_spanish_enters(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *events;

	assert_int_equal(lemt_box(state, "spanish"), -1);
	events = lemt_headline(state, rules, "E19");
	assert_int_equal(lemt_box(state, "spanish"), 4);
	assert_string_equal(lemt_status(state, "spanish"), "normal");
	assert_int_equal(lemt_box(state, "vendee"), 4);
	assert_int_equal(lemt_int(state, "actions"), 2);
	assert_int_equal(rules_event_count(events, "enter"), 1);
	json_decref(events);
	json_decref(state);
}

/*
 * 5.0 "Cards #32 and #47 call for the placement of the British Support
 * marker ... Regardless of this marker's current location or status, pick
 * it up and place it as directed": from 5, E32 puts it on 3; E47 then on 2.
 */
static void test_headline_british_support_moved_regardless(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *e1, *e2;

	json_object_set_new(state, "british_support", json_integer(5));
	e1 = lemt_headline(state, rules, "E32");
	assert_int_equal(lemt_int(state, "british_support"), 3);
	e2 = lemt_headline(state, rules, "E47");
	assert_int_equal(lemt_int(state, "british_support"), 2);
	json_decref(e1);
	json_decref(e2);
	json_decref(state);
}

/* 5.0 "Card #44 brings Napoleon himself into the game, placing his marker in the Holding Box." */
static void test_headline_napoleon_holding_box(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *events;

	assert_true(json_is_null(json_object_get(state, "napoleon")));
	events = lemt_headline(state, rules, "E44");
	assert_true(json_is_object(json_object_get(state, "napoleon")));
	assert_true(json_is_null(json_object_get(json_object_get(state, "napoleon"), "with")));
	assert_int_equal(rules_event_count(events, "napoleon"), 1);
	json_decref(events);
	json_decref(state);
}

/*
 * 10.6 "While it is rotated due to the effects of Card #9 (5.5.2), the
 * Prussian Army ...": card #9 rotates the Prussian Army (and advances the
 * Austrian Army 4 -> 3).
 */
static void test_headline_card9_rotates_prussian(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *events;

	lemt_put(state, "prussian", 3);
	events = lemt_headline(state, rules, "9");
	assert_true(json_is_true(json_object_get(lem_army(state, "prussian"), "rotated")));
	assert_int_equal(lemt_box(state, "prussian"), 3);
	assert_int_equal(lemt_box(state, "austrian"), 3);
	json_decref(events);
	json_decref(state);
}

/*
 * Card events (README.md "Rules data"): #3 puts Paris in Disorder; E12 adds
 * the Expansion Kit's Liberation marker (1.0 "an extra Liberation marker"):
 * 2 -> 3; #13 gives -1 to Military Actions this turn and 1 Action; the next
 * card (#1) clears that DRM.
 */
static void test_headline_disorder_liberation_drm(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *e[4];

	e[0] = lemt_headline(state, rules, "3");
	assert_true(lemt_int(state, "disorder"));
	e[1] = lemt_headline(state, rules, "E12");
	assert_int_equal(lemt_int(state, "liberation"), 3);
	e[2] = lemt_headline(state, rules, "13");
	assert_int_equal(lemt_int(state, "card_drm"), -1);
	assert_int_equal(lemt_int(state, "actions"), 1);
	e[3] = lemt_headline(state, rules, "1");
	assert_int_equal(lemt_int(state, "card_drm"), 0);
	for (int i = 0; i < 4; i++)
		json_decref(e[i]);
	json_decref(state);
}

/*
 * 10.6.1 Enemy Army Recovery: "When instructed to Advance a box, a
 * Disorganized Army instead recovers ... a Routed Army is reduced to merely
 * Disorganized". Card #1 advances the Vendée Army: routed on 3 -> 
 * disorganized on 3; #4 -> normal on 3; #10 -> advances to 2.
 * 5.0 Stationary Armies "do not move"; an Army off the map is skipped
 * (card #28 advances the Piedmontese 5 -> 4 and the Spanish, not in play).
 */
static void test_headline_advance_recover_stationary_offmap(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *e[4], *events = json_array();

	lemt_put(state, "vendee", 3);
	json_object_set_new(lem_army(state, "vendee"), "status", json_string("routed"));
	e[0] = lemt_headline(state, rules, "1");
	assert_int_equal(lemt_box(state, "vendee"), 3);
	assert_string_equal(lemt_status(state, "vendee"), "disorganized");
	e[1] = lemt_headline(state, rules, "4");
	assert_int_equal(lemt_box(state, "vendee"), 3);
	assert_string_equal(lemt_status(state, "vendee"), "normal");
	e[2] = lemt_headline(state, rules, "10");
	assert_int_equal(lemt_box(state, "vendee"), 2);

	lemt_put(state, "suvorov", 4);
	assert_int_equal(lem_advance(state, events, rules, lem_army(state, "suvorov"), "test"), 0);
	assert_int_equal(lemt_box(state, "suvorov"), 4);
	assert_int_equal(json_array_size(events), 0);

	e[3] = lemt_headline(state, rules, "28");
	assert_int_equal(lemt_box(state, "piedmont"), 4);
	assert_int_equal(lemt_box(state, "spanish"), -1);
	assert_int_equal(rules_event_count(e[3], "advance"), 1);
	for (int i = 0; i < 4; i++)
		json_decref(e[i]);
	json_decref(events);
	json_decref(state);
}

/*
 * The Political track runs from -1 to +4 (RULINGS.md M6): card #1's
 * Monarchy +1 leaves Monarchy at 4; #8's Republic -1 leaves it at -1; #2's
 * Republic +1 leaves it at 4.
 */
static void test_headline_political_clamped(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 0), *e[3];

	lemt_political(state, -1, 4, 0);
	e[0] = lemt_headline(state, rules, "1");
	assert_int_equal(lemt_marker(state, "Monarchy"), 4);
	e[1] = lemt_headline(state, rules, "8");
	assert_int_equal(lemt_marker(state, "Republic"), -1);
	lemt_political(state, 4, 0, 0);
	e[2] = lemt_headline(state, rules, "2");
	assert_int_equal(lemt_marker(state, "Republic"), 4);
	for (int i = 0; i < 3; i++)
		json_decref(e[i]);
	json_decref(state);
}

/*
 * 13.0 Varying Difficulty: "If you cannot seem to win, then add an Action
 * every fifth card played ... if you feel that the game is too easy,
 * subtract one Action point for every fifth card played." README.md
 * "Options": difficulty -1 is easier (one more), 1 harder (one less).
 * Card #1 gives 3: with difficulty -1 the fifth card gives 4, the fourth 3;
 * with 1 the tenth gives 2, the ninth 3; with 0 the fifth gives 3.
 */
static void test_difficulty_every_fifth_card(void **rs)
{
	const json_t *rules = *rs;
	static const struct { int difficulty, played, actions; } cases[] = {
		{-1, 5, 4}, {-1, 4, 3}, {1, 10, 2}, {1, 9, 3}, {0, 5, 3},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char opts[64];
		json_t *state, *events;
		snprintf(opts, sizeof(opts), "{'difficulty': %d}", cases[c].difficulty);
		state = lemt_turn(rules, opts, "1", 0);
		for (int i = 1; i < cases[c].played; i++)
			json_array_append_new(json_object_get(state, "played"), json_string("2"));
		events = lemt_headline(state, rules, "1");
		if (lemt_int(state, "actions") != cases[c].actions)
			fail_msg("difficulty %d, card %d played: %d Actions, expected %d", cases[c].difficulty,
				 cases[c].played, lemt_int(state, "actions"), cases[c].actions);
		json_decref(events);
		json_decref(state);
	}
}

/* ---- The Action Phase ---- */

/*
 * Costs (README.md "Orders"): Military, Political and Restore Order cost an
 * Action; To the Barricades!, Liberation and Napoleon are free. With 3
 * Actions: Military vs the Austrians (d6 2: 2 + 0 does not beat 3),
 * Political on the Republic (1 + 1 < 4), Barricades vs the Vendée Army on
 * 3 (4 < 5), Liberation vs the Piedmontese on 3 (pushed to 4, no roll):
 * 1 Action left, 1 Liberation marker left.
 */
static void test_action_costs(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *events;

	static const struct { const char *order; int costs; } costs[] = {
		{"{'type': 'military', 'army': 'austrian'}", 1}, {"{'type': 'political', 'marker': 'Republic'}", 1},
		{"{'type': 'restore-order'}", 1}, {"{'type': 'barricades', 'army': 'vendee'}", 0},
		{"{'type': 'liberation', 'army': 'vendee'}", 0}, {"{'type': 'napoleon', 'assign': 'vendee'}", 0},
		{"{'type': 'military', 'army': 'vendee', 'disorder': 'extra'}", 0},
		{"{'type': 'military', 'army': 'vendee', 'disorder': 'drm-if-needed'}", 1},
	};

	for (size_t c = 0; c < sizeof(costs) / sizeof(costs[0]); c++) {
		json_t *o = J(costs[c].order);
		assert_int_equal(lem_costs_action(o), costs[c].costs);
		json_decref(o);
	}
	lemt_put(state, "vendee", 3);
	lemt_put(state, "piedmont", 3);
	events = ACT(state, "[{'type': 'military', 'army': 'austrian'}, {'type': 'political', 'marker': 'Republic'},"
		     " {'type': 'barricades', 'army': 'vendee'}, {'type': 'liberation', 'army': 'piedmont'}]",
		     2, 1, 4);
	assert_int_equal(lemt_int(state, "actions"), 1);
	assert_int_equal(lemt_int(state, "liberation"), 1);
	assert_int_equal(lemt_box(state, "austrian"), 4);
	assert_int_equal(lemt_box(state, "vendee"), 3);
	assert_int_equal(lemt_box(state, "piedmont"), 4);
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	json_decref(events);
	json_decref(state);
}

/*
 * "if": "previous-succeeded" | "previous-failed" tests the last roll before
 * the item. Military vs the Austrians rolls 2 (fails); the Political Action
 * on the Republic "if previous-succeeded" is skipped (no roll, no cost);
 * the one on Monarchy "if previous-failed" rolls 3 (3 + 1 >= 4: Monarchy
 * 1 -> 0); the Military Action "if previous-succeeded" then rolls 4 (beats
 * 3: the Austrians 4 -> 5).
 */
static void test_if_previous_roll(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *events;

	events = ACT(state, "[{'type': 'military', 'army': 'austrian'},"
		     " {'type': 'political', 'marker': 'Republic', 'if': 'previous-succeeded'},"
		     " {'type': 'political', 'marker': 'Monarchy', 'if': 'previous-failed'},"
		     " {'type': 'military', 'army': 'austrian', 'if': 'previous-succeeded'}]", 2, 3, 4);
	assert_int_equal(rules_event_count(events, "skipped"), 1);
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	assert_int_equal(lemt_marker(state, "Monarchy"), 0);
	assert_int_equal(lemt_box(state, "austrian"), 5);
	assert_int_equal(lemt_int(state, "actions"), 0);
	json_decref(events);
	json_decref(state);
}


/*
 * 10.6.2 "if the result is less than or equal to the box number that Army
 * occupies, it advances one space" and 10.6.1 "When instructed to Advance
 * a box, a Disorganized Army instead recovers ... it remains in its current
 * box": RULINGS.md M15. The disorganized Austrians on 3: a natural 1, then
 * 3 (<= 3): they stay on 3 and are normal again, Republic 2 -> 1. Routed:
 * they stay on 3, disorganized.
 */
static void test_10_6_2_disorganized_recovers(void **rs)
{
	const json_t *rules = *rs;
	static const struct { const char *before, *after; } cases[] = {
		{"disorganized", "normal"}, {"routed", "disorganized"},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;
		lemt_put(state, "austrian", 3);
		json_object_set_new(lem_army(state, "austrian"), "status", json_string(cases[c].before));
		events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 1, 3);
		assert_int_equal(lemt_box(state, "austrian"), 3);
		assert_string_equal(lemt_status(state, "austrian"), cases[c].after);
		assert_int_equal(rules_event_count(events, "recover"), 1);
		assert_int_equal(lemt_marker(state, "Republic"), 1);
		json_decref(events);
		json_decref(state);
	}
}

/*
 * 5.0: Napoleon fights "stacked with" an Army; a Stationary Army "defeated
 * in battle by a French Military Action" is removed from the map. Napoleon
 * with Suvorov [4] on 4: a 4 (+1 Napoleon = 5, beats 4) removes Suvorov and
 * Napoleon goes back to the Holding Box (RULINGS.md M19), so the Political
 * Action after it has the Republic's +1 alone (3 + 1 >= 4: Republic 2 -> 3),
 * not Napoleon's -1 too. He cannot be assigned again this turn, as after a
 * triumph ("cannot be redeployed until a subsequent turn's Action Phase"),
 * and may be the next turn.
 */
static void test_napoleon_returns_with_stationary_army_removed(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *next, *events;

	lemt_put(state, "suvorov", 4);
	json_object_set_new(state, "napoleon", J("{'with': 'suvorov', 'recalled': -1}"));
	next = STEP(state, "[{'type': 'military', 'army': 'suvorov'}, {'type': 'political', 'marker': 'Republic'}]",
		    &events, 4, 3);
	assert_int_equal(lemt_box(next, "suvorov"), -1);
	assert_true(json_is_null(json_object_get(json_object_get(next, "napoleon"), "with")));
	assert_int_equal(lemt_event_int(events, "political-action", "drm"), 1);
	assert_int_equal(lemt_marker(next, "Republic"), 3);
	lemt_accepted(next, rules, "[{'type': 'napoleon', 'assign': 'austrian'}]");
	json_decref(events);
	/* The same turn, after the battle: refused, as 5.0 says of a recall. */
	events = ACT(state, "[{'type': 'military', 'army': 'suvorov'}]", 4);
	assert_int_equal(rules_event_count(events, "napoleon"), 1);
	lemt_refused(state, rules, "[{'type': 'napoleon', 'assign': 'austrian'}]", 0, "assign");
	json_decref(events);
	json_decref(next);
	json_decref(state);
}

/*
 * 10.6.1 "an Army in the highest-numbered box on its track can now be
 * pressed by a Military Action. Each victory won against such an Army ...
 * does cause it to be rotated": only a Military Action. The Vendée Army in
 * Cholet (5, a square space): To the Barricades! and a Liberation marker
 * are refused, citing 10.6.1 with 10.6 and RULINGS.md M5 without it (a
 * marker spent for nothing); a Military Action is accepted under 10.6.
 * With the Army on 4, two Liberation markers: the first pushes it to 5, the
 * second is passed over at no cost, leaving it normal and a marker unused.
 */
static void test_free_rolls_never_press_highest_box(void **rs)
{
	const json_t *rules = *rs;
	static const char *const opts[] = {"{'10.6': 1}", "{}"};
	static const char *const rule[] = {"10.6.1", "M5"};
	json_t *state, *diags, *events;

	for (size_t k = 0; k < 2; k++) {
		state = lemt_turn(rules, opts[k], "1", 3);
		lemt_put(state, "vendee", 5);
		for (int b = 0; b < 2; b++) {
			const char *orders = b ? "[{'type': 'liberation', 'army': 'vendee'}]" :
					     "[{'type': 'barricades', 'army': 'vendee'}]";
			lemt_refused(state, rules, orders, 0, "army");
			diags = lemt_validate(state, rules, orders);
			assert_non_null(strstr(est_rules_str(json_array_get(diags, 0), "rule"), rule[k]));
			json_decref(diags);
		}
		if (k == 0)
			lemt_accepted(state, rules, "[{'type': 'military', 'army': 'vendee'}]");
		json_decref(state);
	}

	state = lemt_turn(rules, "{'10.6': 1}", "1", 3);
	lemt_put(state, "vendee", 4);
	events = lemt_act(state, rules, "[{'type': 'liberation', 'army': 'vendee'}, {'type': 'liberation', 'army': "
			  "'vendee'}]", NULL, 0);
	assert_int_equal(lemt_box(state, "vendee"), 5);
	assert_string_equal(lemt_status(state, "vendee"), "normal");
	assert_int_equal(lemt_int(state, "liberation"), 1);
	assert_int_equal(rules_event_count(events, "skipped"), 1);
	json_decref(events);
	json_decref(state);
}

/*
 * The highest box refused to a Military Action without 10.6 is the base
 * game's rule (RULINGS.md M5) that 10.6.1 lifts, not 7.2's order of attack:
 * the refusal cites it. The Austrians in Aachen (5).
 */
static void test_highest_box_refusal_cites_its_rule(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *diags;
	const char *rule;

	lemt_put(state, "austrian", 5);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian'}]", 0, "army");
	diags = lemt_validate(state, rules, "[{'type': 'military', 'army': 'austrian'}]");
	rule = est_rules_str(json_array_get(diags, 0), "rule");
	assert_non_null(strstr(rule, "10.6.1"));
	assert_non_null(strstr(rule, "M5"));
	assert_null(strstr(rule, "7.2"));
	json_decref(diags);
	json_decref(state);
}

/*
 * Actions are the turn's budget, spent by what is carried out (README.md
 * "Orders"), so the file is judged on every branch the dice can take, not
 * by its items: with 1 Action, a Political Action "if previous-failed"
 * before any roll can never be carried out, and the Military Action after
 * it is the one Action spent. And "if" tests the last roll made: in
 * [military, political "if previous-succeeded", political "if
 * previous-failed"] the second Political Action also follows the first one
 * failing, so a branch spends 3: refused with 2 Actions at the item that
 * overspends, accepted with 3, and the dice 4 (the attack wins), 1 (the
 * Republic's Action fails), 3 (Monarchy goes down) take that branch.
 */
static void test_conditions_judged_per_branch(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 1), *events;
	const char *orders = "[{'type': 'military', 'army': 'austrian'},"
			     " {'type': 'political', 'marker': 'Republic', 'if': 'previous-succeeded'},"
			     " {'type': 'political', 'marker': 'Monarchy', 'if': 'previous-failed'}]";

	lemt_accepted(state, rules, "[{'type': 'political', 'marker': 'Republic', 'if': 'previous-failed'},"
		      " {'type': 'military', 'army': 'austrian'}]");
	events = ACT(state, "[{'type': 'political', 'marker': 'Republic', 'if': 'previous-failed'},"
		     " {'type': 'military', 'army': 'austrian'}]", 2);
	assert_int_equal(lemt_event_int(events, "actions-spent", "spent"), 1);
	assert_int_equal(rules_event_count(events, "skipped"), 1);
	json_decref(events);
	json_decref(state);

	state = lemt_turn(rules, "{}", "1", 2);
	lemt_refused(state, rules, orders, 2, "type");
	json_object_set_new(state, "actions", json_integer(3));
	lemt_accepted(state, rules, orders);
	events = ACT(state, orders, 4, 1, 3);
	assert_int_equal(lemt_box(state, "austrian"), 5);
	assert_int_equal(lemt_marker(state, "Monarchy"), 0);
	assert_int_equal(lemt_event_int(events, "actions-spent", "spent"), 3);
	json_decref(events);
	json_decref(state);
}

/*
 * "if this fails, attack again, otherwise a Political Action": a Military
 * Action's "on-failure" and "on-success" orders. With 2 Actions the file is
 * accepted (each branch spends 2). The Austrians (3) on 4: a 2 fails, the
 * on-failure attack rolls 4 and pushes them to 5; the Political Action is
 * not carried out, and the events say which branch ran. A 4 at once pushes
 * them; the on-success Political Action rolls 3 (+1: Republic 2 -> 3).
 */
static void test_on_success_on_failure_branches(void **rs)
{
	const json_t *rules = *rs;
	const char *orders = "[{'type': 'military', 'army': 'austrian',"
			     " 'on-failure': [{'type': 'military', 'army': 'austrian'}],"
			     " 'on-success': [{'type': 'political', 'marker': 'Republic'}]}]";
	json_t *state = lemt_turn(rules, "{}", "1", 2), *events;
	const json_t *branch;

	lemt_accepted(state, rules, orders);
	events = ACT(state, orders, 2, 4);
	branch = rules_event_nth(events, "branch", 0);
	assert_non_null(branch);
	assert_string_equal(est_rules_str(branch, "branch"), "on-failure");
	assert_non_null(strstr(est_rules_str(branch, "text"), "order 1 failed: its on-failure orders are carried out"));
	assert_int_equal(lemt_box(state, "austrian"), 5);
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	assert_int_equal(lemt_int(state, "actions"), 0);
	json_decref(events);
	json_decref(state);

	state = lemt_turn(rules, "{}", "1", 2);
	events = ACT(state, orders, 4, 3);
	assert_string_equal(est_rules_str(rules_event_nth(events, "branch", 0), "branch"), "on-success");
	assert_int_equal(lemt_box(state, "austrian"), 5);
	assert_int_equal(lemt_marker(state, "Republic"), 3);
	assert_int_equal(lemt_event_int(events, "actions-spent", "spent"), 2);
	json_decref(events);
	json_decref(state);

	/* A branch that spends 3 of 2 Actions is refused at its item, named by its path. */
	state = lemt_turn(rules, "{}", "1", 2);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian', 'on-failure': [{'type': 'military',"
		     " 'army': 'austrian'}, {'type': 'political', 'marker': 'Republic'}]}]", 0, "on-failure[1].type");
	lemt_refused(state, rules, "[{'type': 'political', 'marker': 'Republic', 'on-success': [{'type': 'military',"
		     " 'army': 'spanish'}]}]", 0, "on-success[0].army");
	/* One free To the Barricades! on each branch is one a turn. */
	lemt_put(state, "vendee", 3);
	lemt_accepted(state, rules, "[{'type': 'political', 'marker': 'Republic', 'on-success': [{'type': "
		      "'barricades', 'army': 'vendee'}], 'on-failure': [{'type': 'barricades', 'army': 'vendee'}]}]");
	lemt_refused(state, rules, "[{'type': 'barricades', 'army': 'vendee', 'on-failure': [{'type': "
		     "'barricades', 'army': 'vendee'}]}]", 0, "on-failure[0].type");
	/* A Liberation marker rolls nothing: it has no branches. */
	lemt_refused(state, rules, "[{'type': 'liberation', 'army': 'vendee', 'on-success': []}]", 0, "on-success");
	json_decref(state);
}

/* ---- Military Actions ---- */

/* One Military Action vs `army` with one face on a copy of `base`; returns the Army's box after. */
static int attack(const json_t *base, const json_t *rules, const char *army, int face)
{
	json_t *state = json_deep_copy(base), *events;
	char orders[128];
	int box;

	snprintf(orders, sizeof(orders), "[{'type': 'military', 'army': '%s'}]", army);
	events = ACT(state, orders, face);
	box = lemt_box(state, army);
	json_decref(events);
	json_decref(state);
	return box;
}

/*
 * RULINGS.md M5: "a d6 with DRMs must beat the Army's value". The Austrians
 * (3) on 4: with the Republic highest (DRM 0) a 3 fails, a 4 pushes them to
 * 5. With Monarchy highest (-1, tables.political_drm) a 4 fails (3); with
 * Republic and Monarchy tied there is no DRM and a 4 succeeds.
 */
static void test_military_must_beat_value(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3);

	assert_int_equal(attack(state, rules, "austrian", 3), 4);
	assert_int_equal(attack(state, rules, "austrian", 4), 5);
	lemt_political(state, 1, 2, 0);
	assert_int_equal(attack(state, rules, "austrian", 4), 4);
	lemt_political(state, 2, 2, 0);
	assert_int_equal(attack(state, rules, "austrian", 4), 5);
	json_decref(state);
}

/* The text of the first event of `type` (fails if there is none). */
static const char *event_text(const json_t *events, const char *type)
{
	const json_t *e = rules_event_nth(events, type, 0);

	if (!e)
		fail_msg("no \"%s\" event", type);
	return json_string_value(json_object_get(e, "text"));
}

/*
 * A roll's event says what it needed, as the rule says it: M5 a Military
 * Action must beat the Army's value (the Austrians' 3: a 3 "needs more
 * than 3" and fails); M6 a Political Action needs the target or more (3 +1
 * Republic = 4, "needs 4 or more"); M7 Restore Order 4 or more.
 */
static void test_roll_events_say_what_they_need(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *events;

	events = ACT(state, "[{'type': 'military', 'army': 'austrian'}, {'type': 'political', 'marker': 'Republic'}]",
		     3, 3);
	assert_string_equal(event_text(events, "military"), "Military Action against Austrian Army: rolls 3 = 3, "
			    "needs more than 3 (the Army's value, RULINGS.md M5): fails");
	assert_non_null(strstr(event_text(events, "political-action"), ": rolls 3 +1 (Republic) = 4, needs 4 or more "
			       "(RULINGS.md M6): success"));
	json_decref(events);
	json_object_set_new(state, "disorder", json_true());
	events = ACT(state, "[{'type': 'restore-order'}]", 3);
	assert_string_equal(event_text(events, "restore-order"), "Restore Order in Paris: rolls 3, needs 4 or more "
			    "(RULINGS.md M7): Disorder remains");
	json_decref(events);
	json_decref(state);
}

/*
 * M5 "a natural 1 fails": the Piedmontese (2) on 3, Despotism highest (+1)
 * and Napoleon with them (+1): 1 + 2 = 3 would beat 2, but a natural 1
 * fails.
 */
static void test_military_natural_one_fails(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *events;

	lemt_political(state, 0, 0, 2);
	lemt_put(state, "piedmont", 3);
	json_object_set_new(state, "napoleon", J("{'with': 'piedmont', 'recalled': -1}"));
	events = ACT(state, "[{'type': 'military', 'army': 'piedmont'}]", 1);
	assert_int_equal(lemt_box(state, "piedmont"), 3);
	assert_int_equal(lemt_event_int(events, "military", "drm"), 2);
	json_decref(events);
	json_decref(state);
}

/*
 * The DRMs add up: Disorder -1, the card's -1 (#13) and 10.4's -1 from last
 * turn: the Austrians (3) on 3, a 6 gives 6 - 3 = 3, which does not beat 3.
 * British Support (-1) counts only against a Vendée-track Army in the
 * marker's box: the Vendée Army (2) on 3 with the marker on 3: a 3 gives 2,
 * fails; with the marker on 4 the same 3 beats 2.
 */
static void test_military_drms(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *events;

	lemt_put(state, "austrian", 3);
	json_object_set_new(state, "disorder", json_true());
	json_object_set_new(state, "card_drm", json_integer(-1));
	json_object_set_new(state, "drm_now", json_integer(-1));
	events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 6);
	assert_int_equal(lemt_event_int(events, "military", "drm"), -3);
	assert_int_equal(lemt_box(state, "austrian"), 3);
	json_decref(events);
	json_decref(state);

	state = lemt_turn(rules, "{}", "1", 3);
	lemt_put(state, "vendee", 3);
	json_object_set_new(state, "british_support", json_integer(3));
	assert_int_equal(attack(state, rules, "vendee", 3), 3);
	json_object_set_new(state, "british_support", json_integer(4));
	assert_int_equal(attack(state, rules, "vendee", 3), 4);
	json_decref(state);
}

/*
 * 5.0 "If they are defeated in battle by a French Military Action ...,
 * remove them from the map": Suvorov [4] on 4 of the Piedmont track; a 5
 * beats 4 and he is removed.
 */
static void test_stationary_army_removed(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3);

	lemt_put(state, "suvorov", 4);
	assert_int_equal(attack(state, rules, "suvorov", 4), 4);
	assert_int_equal(attack(state, rules, "suvorov", 5), -1);
	json_decref(state);
}

/*
 * 7.2 "only the one in the box closest to Paris can be attacked ... If
 * more than one unit occupies that space, you must engage and defeat the
 * one with a bracketed Combat Value before engaging the other unit. If
 * neither stacked unit is bracketed, you choose"; and M5 / 10.6: without
 * 10.6 an Army in its track's highest box cannot be attacked ("can now be
 * pressed").
 */
static void test_7_2_targets(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *six = lemt_turn(rules, "{'10.6': 1}", "1", 3);

	lemt_put(state, "spanish", 3);
	lemt_put(state, "vendee", 4);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'vendee'}]", 0, "army");
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'spanish'}]");
	lemt_put(state, "vendee", 3);
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'vendee'}]");
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'spanish'}]");

	lemt_put(state, "korsakov", 2);
	lemt_put(state, "austrian", 2);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian'}]", 0, "army");
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'korsakov'}]");
	lemt_put(state, "austrian", 3);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian'}]", 0, "army");

	/* The Piedmontese on 5, the highest box. */
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'piedmont'}]", 0, "army");
	lemt_accepted(six, rules, "[{'type': 'military', 'army': 'piedmont'}]");
	json_decref(six);
	json_decref(state);
}

/* ---- 10.4 A Single Battalion Sometimes Decides the Day ---- */

/*
 * 10.4 "Once per turn, you may commit your last reserves and re-roll a
 * Military Action ... flip the targeted Army over ... at the end of the
 * Housekeeping Phase, flip that Army back and place a -1 DRM marker ...
 * a -1 DRM for the French Army on the next turn (only)."
 * Turn 1: the Austrians (3) on 3: 2 fails, the reroll 5 beats 3: to 4.
 * After Housekeeping they are flipped back and drm_now is -1. Turn 2 (card
 * E41): a 4 - 1 = 3 does not beat 3; that Housekeeping (the decks out)
 * clears the -1.
 */
static void test_10_4_reserves_reroll_and_penalty(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.4': 1}", "1", 3), *events, *t2, *t3, *copy;

	lemt_put(state, "austrian", 3);
	copy = json_deep_copy(state);
	events = ACT(copy, "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'}]", 2, 5);
	assert_true(json_is_true(json_object_get(lem_army(copy, "austrian"), "flipped")));
	assert_true(lemt_int(copy, "reserves_used"));
	assert_int_equal(rules_event_count(events, "military"), 2);
	json_decref(events);
	json_decref(copy);

	t2 = STEP(state, "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'}]", NULL, 2, 5);
	assert_int_equal(lemt_box(t2, "austrian"), 4);
	assert_false(json_is_true(json_object_get(lem_army(t2, "austrian"), "flipped")));
	assert_int_equal(lemt_int(t2, "drm_now"), -1);
	assert_false(lemt_int(t2, "reserves_used"));
	assert_string_equal(est_rules_str(t2, "current"), "E41");

	t3 = STEP(t2, "[{'type': 'military', 'army': 'austrian'}]", &events, 4);
	assert_int_equal(lemt_event_int(events, "military", "drm"), -1);
	assert_int_equal(lemt_box(t3, "austrian"), 4);
	assert_int_equal(lemt_int(t3, "drm_now"), 0);
	json_decref(events);
	json_decref(t2);
	json_decref(t3);
	json_decref(state);
}

/*
 * 10.4 without the option, or a second time in a turn: no reroll. With
 * 10.4 the first Military Action's reroll is used; the second's failure
 * stands (2, 5 then 2).
 */
static void test_10_4_once_per_turn(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.4': 1}", "1", 3), *events;

	lemt_put(state, "austrian", 3);
	lemt_put(state, "vendee", 3);
	events = ACT(state, "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'},"
		     " {'type': 'military', 'army': 'vendee', 'reserves': 'if-fails'}]", 2, 5, 2);
	assert_int_equal(lemt_box(state, "austrian"), 4);
	assert_int_equal(lemt_box(state, "vendee"), 3);
	assert_int_equal(rules_event_count(events, "reserves"), 1);
	json_decref(events);
	json_decref(state);
}

/*
 * Ruling: the reroll replaces the first roll, its natural 1 included. With
 * 10.4 and 10.6, the Austrians (3) on 3: 2 fails, the reroll is a natural
 * 1: a decisive defeat (10.6.2), second roll 3 <= box 3: they advance to 2,
 * and the Republic, single highest, loses one (2 -> 1). Then the other way:
 * a first natural 1 rerolled to a 6 is a success and a decisive victory
 * (no second roll): to 4, disorganized, Republic 2 -> 3.
 */
static void test_10_4_reroll_replaces_natural(void **rs)
{
	const json_t *rules = *rs;
	json_t *base = lemt_turn(rules, "{'10.4': 1, '10.6': 1}", "1", 3), *state, *events;
	const char *o = "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'}]";

	lemt_put(base, "austrian", 3);
	state = json_deep_copy(base);
	events = ACT(state, o, 2, 1, 3);
	assert_int_equal(lemt_box(state, "austrian"), 2);
	assert_int_equal(lemt_marker(state, "Republic"), 1);
	json_decref(events);
	json_decref(state);

	state = json_deep_copy(base);
	events = ACT(state, o, 1, 6);
	assert_int_equal(lemt_box(state, "austrian"), 4);
	assert_string_equal(lemt_status(state, "austrian"), "disorganized");
	assert_int_equal(lemt_marker(state, "Republic"), 3);
	json_decref(events);
	json_decref(state);
	json_decref(base);
}

/* ---- 10.5 He who fears being conquered is sure of defeat ---- */

/*
 * 10.5.1 "place the Disorder marker in Paris and ... Take an additional
 * Military Action that turn to fight any Army in a square space": with no
 * Action left, the Vendée Army (2) on 3 (Tours, square). The marker is
 * placed first ("place the Disorder marker in Paris and ... take"), so the
 * attack itself rolls with Disorder's -1: a 4 - 1 = 3 beats 2: to 4; Paris
 * is in Disorder and the Actions stay 0. Refused: against the
 * Austrians on 3 (Namur, not square), with Paris already in Disorder,
 * without the option.
 */
static void test_10_5_extra_military_action(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.5': 1}", "1", 0), *off = lemt_turn(rules, "{}", "1", 3), *events;
	const char *o = "[{'type': 'military', 'army': 'vendee', 'disorder': 'extra'}]";

	lemt_put(state, "vendee", 3);
	lemt_put(state, "austrian", 3);
	lemt_put(off, "vendee", 3);
	lemt_accepted(state, rules, o);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian', 'disorder': 'extra'}]", 0, "disorder");
	lemt_refused(off, rules, o, 0, "disorder");
	events = ACT(state, o, 4);
	assert_int_equal(lemt_event_int(events, "military", "drm"), -1);
	assert_int_equal(lemt_box(state, "vendee"), 4);
	assert_true(lemt_int(state, "disorder"));
	assert_int_equal(lemt_int(state, "actions"), 0);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'vendee', 'disorder': 'extra'}]", 0, "disorder");
	json_decref(events);
	json_decref(off);
	json_decref(state);
}

/*
 * 10.5: Restore Order follows a Disorder marker placed earlier in the file,
 * but the marker may be placed on the other branch of a roll only. The
 * Political Action succeeds (4): its on-success Restore Order finds Paris in
 * order and is passed over at no cost, rolling nothing; 1 of 2 Actions spent.
 */
static void test_restore_order_needs_disorder_on_its_branch(void **rs)
{
	const json_t *rules = *rs;
	const char *o = "[{'type': 'political', 'marker': 'Republic', 'on-failure': [{'type': 'military', "
			"'army': 'vendee', 'disorder': 'extra'}], 'on-success': [{'type': 'restore-order'}]}]";
	json_t *state = lemt_turn(rules, "{'10.5': 1}", "1", 2), *events;

	lemt_put(state, "vendee", 3);
	lemt_accepted(state, rules, o);
	events = ACT(state, o, 4);
	assert_null(rules_event_nth(events, "restore-order", 0));
	assert_non_null(strstr(est_rules_str(rules_event_nth(events, "skipped", 0), "text"), "Paris is in order"));
	assert_false(lemt_int(state, "disorder"));
	assert_int_equal(lemt_int(state, "actions"), 1);
	json_decref(events);
	json_decref(state);
}

/*
 * 10.5.2 "Receive a +1 DRM ... after the die is rolled! I.e., it can be
 * used as a tie breaker": the Vendée Army (2) on 3. A 2 ties: +1 makes 3,
 * success, Disorder placed. A 3 wins on its own: no Disorder. With Monarchy
 * highest (-1) a 2 gives 1, short by two: no Disorder, fails. A natural 1
 * never (with Despotism highest, 1 + 1 = 2 ties, but a 1 fails).
 * Refused against an Army outside France.
 */
static void test_10_5_drm_if_needed(void **rs)
{
	const json_t *rules = *rs;
	static const struct { int r, m, d, face, box, disorder; } cases[] = {
		{2, 1, 0, 2, 4, 1}, {2, 1, 0, 3, 4, 0}, {1, 2, 0, 2, 3, 0}, {0, 0, 2, 1, 3, 0},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *state = lemt_turn(rules, "{'10.5': 1}", "1", 3), *events;
		lemt_put(state, "vendee", 3);
		lemt_political(state, cases[c].r, cases[c].m, cases[c].d);
		events = ACT(state, "[{'type': 'military', 'army': 'vendee', 'disorder': 'drm-if-needed'}]",
			     cases[c].face);
		assert_int_equal(lemt_box(state, "vendee"), cases[c].box);
		assert_int_equal(lemt_int(state, "disorder"), cases[c].disorder);
		json_decref(events);
		json_decref(state);
	}
	/* "against any Army in a square space": not the Austrians on 3 (Namur). */
	{
		json_t *state = lemt_turn(rules, "{'10.5': 1}", "1", 3);
		lemt_put(state, "austrian", 3);
		lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian', 'disorder': 'drm-if-needed'}]", 0,
			     "disorder");
		json_decref(state);
	}
}

/* ---- 10.6 Decisive Military Outcomes ---- */

/*
 * 10.6.1 "A decisive victory is achieved whenever a natural 6 is rolled ...
 * In addition to any possible movement of the targeted Army itself, it is
 * also rotated 90 degrees. Furthermore, add one (+1) to the highest marker
 * ... (if two or more ... are tied ..., then this does not apply)."
 * The Austrians on 3: a 6 pushes them to 4, disorganized, Republic 2 -> 3.
 * Tied Republic and Monarchy at 2: no shift.
 */
static void test_10_6_natural_six(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;

	lemt_put(state, "austrian", 3);
	events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 6);
	assert_int_equal(lemt_box(state, "austrian"), 4);
	assert_string_equal(lemt_status(state, "austrian"), "disorganized");
	assert_int_equal(lemt_marker(state, "Republic"), 3);
	json_decref(events);
	json_decref(state);

	state = lemt_turn(rules, "{'10.6': 1}", "1", 3);
	lemt_put(state, "austrian", 3);
	lemt_political(state, 2, 2, 0);
	events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 6);
	assert_string_equal(lemt_status(state, "austrian"), "disorganized");
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	assert_int_equal(lemt_marker(state, "Monarchy"), 2);
	json_decref(events);
	json_decref(state);
}

/*
 * 10.6.1 "an Army in the highest-numbered box on its track can now be
 * pressed ... does not retreat or remove it from play, but does cause it
 * to be rotated ... No Army can ever be worse off than Routed": the
 * Austrians on 5 take three 6s: disorganized, routed, routed, still on 5;
 * the Republic gains one each time, to 4 and no further.
 */
static void test_10_6_highest_box_pressed(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;
	static const char *const after[] = {"disorganized", "routed", "routed"};

	lemt_put(state, "austrian", 5);
	for (int i = 0; i < 3; i++) {
		events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 6);
		assert_int_equal(lemt_box(state, "austrian"), 5);
		assert_string_equal(lemt_status(state, "austrian"), after[i]);
		assert_int_equal(lemt_marker(state, "Republic"), i < 2 ? 3 + i : 4);
		json_decref(events);
	}
	json_decref(state);
}

/*
 * 10.6.1 "Where Napoleon fights, an automatic decisive victory occurs on a
 * natural roll of 5 or 6, but then one is added (+1) to Despotism instead of
 * the highest track." The Austrians (3) on 3, Monarchy highest (-1),
 * Disorder (-1), the card's -1, Napoleon +1: a 5 gives 3, which alone would
 * not beat 3; it is an automatic decisive victory: to 4, disorganized,
 * Despotism 0 -> 1, Monarchy unchanged.
 */
static void test_10_6_napoleon_five(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;

	lemt_put(state, "austrian", 3);
	lemt_political(state, 1, 2, 0);
	json_object_set_new(state, "disorder", json_true());
	json_object_set_new(state, "card_drm", json_integer(-1));
	json_object_set_new(state, "napoleon", J("{'with': 'austrian', 'recalled': -1}"));
	events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 5);
	assert_int_equal(lemt_event_int(events, "military", "drm"), -2);
	assert_int_equal(lemt_box(state, "austrian"), 4);
	assert_string_equal(lemt_status(state, "austrian"), "disorganized");
	assert_int_equal(lemt_marker(state, "Despotism"), 1);
	assert_int_equal(lemt_marker(state, "Monarchy"), 2);
	json_decref(events);
	json_decref(state);
}

/*
 * 10.6.2 "After a decisive defeat occurs, roll a second die; if the result
 * is less than or equal to the box number that Army occupies, it advances
 * ... subtract one (-1) from the highest marker (if ... tied ... does not
 * apply)." The Austrians on 3: 1 then 3 (<= 3): to 2, Republic 2 -> 1;
 * 1 then 4 (> 3): stay on 3, Republic 2 -> 1; tied at 2: 1 then 6, no shift.
 */
static void test_10_6_natural_one(void **rs)
{
	const json_t *rules = *rs;
	static const struct { int r, m, second, box, republic, monarchy; } cases[] = {
		{2, 1, 3, 2, 1, 1}, {2, 1, 4, 3, 1, 1}, {2, 2, 6, 3, 2, 2},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;
		lemt_put(state, "austrian", 3);
		lemt_political(state, cases[c].r, cases[c].m, 0);
		events = ACT(state, "[{'type': 'military', 'army': 'austrian'}]", 1, cases[c].second);
		assert_int_equal(lemt_box(state, "austrian"), cases[c].box);
		assert_int_equal(lemt_marker(state, "Republic"), cases[c].republic);
		assert_int_equal(lemt_marker(state, "Monarchy"), cases[c].monarchy);
		json_decref(events);
		json_decref(state);
	}
}

/*
 * 10.6 "While it is rotated due to the effects of Card #9 (5.5.2), the
 * Prussian Army and Military Actions against it ignore this rule." The
 * rotated Prussians (3) on 3: a 6 pushes them to 4 but is not decisive
 * (normal, Republic stays 2); a 1 is a plain failure with no second roll.
 * Ignoring 10.6, they cannot be pressed in their highest box either, while
 * the unrotated Prussians there can.
 */
static void test_10_6_rotated_prussian_ignores(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;

	lemt_put(state, "prussian", 3);
	json_object_set_new(lem_army(state, "prussian"), "rotated", json_true());
	events = ACT(state, "[{'type': 'military', 'army': 'prussian'}]", 6);
	assert_int_equal(lemt_box(state, "prussian"), 4);
	assert_string_equal(lemt_status(state, "prussian"), "normal");
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	json_decref(events);
	events = ACT(state, "[{'type': 'military', 'army': 'prussian'}]", 1);
	assert_int_equal(lemt_box(state, "prussian"), 4);
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	json_decref(events);

	lemt_put(state, "prussian", 5);
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'prussian'}]", 0, "army");
	json_object_set_new(lem_army(state, "prussian"), "rotated", json_false());
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'prussian'}]");
	json_decref(state);
}

/*
 * 10.6.1 with 5.0: a natural 6 against Suvorov [4] on 4 removes him; the
 * decisive victory still adds one to the highest marker ("Furthermore, add
 * one (+1) to the highest marker"): Republic 2 -> 3.
 */
static void test_10_6_stationary_decisive(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{'10.6': 1}", "1", 3), *events;

	lemt_put(state, "suvorov", 4);
	events = ACT(state, "[{'type': 'military', 'army': 'suvorov'}]", 6);
	assert_int_equal(lemt_box(state, "suvorov"), -1);
	assert_int_equal(lemt_marker(state, "Republic"), 3);
	json_decref(events);
	json_decref(state);
}

/* ---- 10.3 Nothing is Free ---- */

/*
 * 10.3 "For each successful To the Barricades! roll, add one (+1) to
 * Monarchy while in the Blue Deck, or to Despotism while in the White or
 * Red Decks." The Vendée Army on 3 (square); a 5 (>= 5) pushes it to 4.
 * Card #1 (Blue): Monarchy 1 -> 2. Card #23 (White) and #45 (Red):
 * Despotism 0 -> 1. A 4 fails: no shift. Without 10.3: pushed, no shift.
 */
static void test_10_3_barricades_price(void **rs)
{
	const json_t *rules = *rs;
	static const struct { const char *opts, *card; int face, box, monarchy, despotism; } cases[] = {
		{"{'10.3': 1}", "1", 5, 4, 2, 0}, {"{'10.3': 1}", "23", 6, 4, 1, 1},
		{"{'10.3': 1}", "45", 5, 4, 1, 1}, {"{'10.3': 1}", "1", 4, 3, 1, 0}, {"{}", "1", 5, 4, 1, 0},
	};

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *state = lemt_turn(rules, cases[c].opts, cases[c].card, 3), *events;
		lemt_put(state, "vendee", 3);
		events = ACT(state, "[{'type': 'barricades', 'army': 'vendee'}]", cases[c].face);
		assert_int_equal(lemt_box(state, "vendee"), cases[c].box);
		assert_int_equal(lemt_marker(state, "Monarchy"), cases[c].monarchy);
		assert_int_equal(lemt_marker(state, "Despotism"), cases[c].despotism);
		assert_int_equal(lemt_int(state, "actions"), 3);
		json_decref(events);
		json_decref(state);
	}
}

/* ---- Napoleon (5.0) ---- */

/*
 * 5.0 "you may remove Napoleon from the Holding Box (at no Action cost) and
 * assign him ... +1 DRM to Military Actions against that Army ... a -1 DRM
 * to all Political Actions". Assign to the Austrians (3) on 3; Military: a
 * 3 + 1 = 4 beats 3: to 4; Political on the Republic: 3 + 1 (Republic
 * highest) - 1 (Napoleon) = 3 < 4 fails. Two Actions spent of 3.
 */
static void test_napoleon_assign_drms(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *events;

	lemt_put(state, "austrian", 3);
	json_object_set_new(state, "napoleon", J("{'with': null, 'recalled': -1}"));
	events = ACT(state, "[{'type': 'napoleon', 'assign': 'austrian'}, {'type': 'military', 'army': 'austrian'},"
		     " {'type': 'political', 'marker': 'Republic'}]", 3, 3);
	assert_string_equal(est_rules_str(json_object_get(state, "napoleon"), "with"), "austrian");
	assert_int_equal(lemt_box(state, "austrian"), 4);
	assert_int_equal(lemt_marker(state, "Republic"), 2);
	assert_int_equal(lemt_int(state, "actions"), 1);
	json_decref(events);
	json_decref(state);
}

/*
 * 5.0 Removing Napoleon: "If, at the beginning of an Action Phase, the
 * Little Corporal is attached to an Army in either its '4' or '5' space,
 * you may detach Napoleon ... Napoleon cannot be redeployed until a
 * subsequent turn's Action Phase"; "limit your use of Napoleon to the
 * Piedmont and Austria tracks only" (optional).
 */
static void test_napoleon_validate(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 3), *hist = lemt_turn(rules, "{'napoleon-historical': 1}", "1", 3);
	json_t *events;
	const char *detach = "[{'type': 'napoleon', 'detach': true}]";

	lemt_refused(state, rules, "[{'type': 'napoleon', 'assign': 'austrian'}]", 0, "type");
	json_object_set_new(state, "napoleon", J("{'with': 'austrian', 'recalled': -1}"));
	lemt_put(state, "austrian", 3);
	lemt_refused(state, rules, detach, 0, "detach");
	lemt_put(state, "austrian", 4);
	lemt_accepted(state, rules, detach);
	lemt_put(state, "austrian", 5);
	lemt_accepted(state, rules, detach);
	lemt_refused(state, rules, "[{'type': 'political', 'marker': 'Republic'}, {'type': 'napoleon', 'detach': true}]",
		     1, "detach");
	lemt_refused(state, rules, "[{'type': 'napoleon', 'detach': true}, {'type': 'napoleon', 'assign': 'vendee'}]",
		     1, "assign");
	json_decref(state);
	state = lemt_turn(rules, "{}", "1", 3);
	json_object_set_new(state, "napoleon", J("{'with': 'austrian', 'recalled': -1}"));
	lemt_put(state, "austrian", 4);
	events = lemt_act(state, rules, detach, NULL, 0);
	assert_true(json_is_null(json_object_get(json_object_get(state, "napoleon"), "with")));
	lemt_refused(state, rules, "[{'type': 'napoleon', 'assign': 'vendee'}]", 0, "assign");
	json_decref(events);

	json_object_set_new(state, "napoleon", J("{'with': null, 'recalled': -1}"));
	lemt_accepted(state, rules, "[{'type': 'napoleon', 'assign': 'vendee'}]");
	lemt_refused(state, rules, "[{'type': 'napoleon', 'assign': 'vendee'}, {'type': 'napoleon', 'assign': 'austrian'}]",
		     1, "assign");
	lemt_refused(state, rules, "[{'type': 'napoleon', 'assign': 'spanish'}]", 0, "army");

	json_object_set_new(hist, "napoleon", J("{'with': null, 'recalled': -1}"));
	lemt_refused(hist, rules, "[{'type': 'napoleon', 'assign': 'vendee'}]", 0, "assign");
	lemt_accepted(hist, rules, "[{'type': 'napoleon', 'assign': 'piedmont'}]");
	lemt_accepted(hist, rules, "[{'type': 'napoleon', 'assign': 'austrian'}]");
	json_decref(hist);
	json_decref(state);
}

/* ---- Housekeeping, victory and defeat ---- */

static void assert_over(const json_t *state, const char *outcome, const char *grade)
{
	const json_t *result = json_object_get(state, "result");

	assert_string_equal(est_rules_str(state, "phase"), "over");
	assert_string_equal(est_rules_str(result, "outcome"), outcome);
	assert_string_equal(est_rules_str(result, "grade"), grade);
}

/* Housekeeping of an Action Phase laid out by `card` (no orders); returns the new state. */
static json_t *housekeep(const json_t *rules, const char *opts, const char *card, const char *army, int box,
			 int republic)
{
	json_t *state = lemt_turn(rules, opts, card, 0), *next;

	if (army)
		lemt_put(state, army, box);
	lemt_political(state, republic, 1, 0);
	next = lemt_step(state, rules, "[]", NULL, 0, NULL);
	json_decref(state);
	return next;
}

/*
 * RULINGS.md M8: an Army in Paris (box 0) at the end of the turn, or the
 * Republic at -1, is defeat. 9.1 "If, during a Housekeeping Phase while the
 * Blue deck is in play, the Vendée Army is in the Versailles (1) space ...
 * Crushing Defeat"; 9.2 "... while the White deck is in play, the Austrian
 * Army is in the Arras (1) space ... Decisive Defeat". Both optional.
 */
static void test_housekeeping_defeats(void **rs)
{
	const json_t *rules = *rs;
	json_t *s;

	s = housekeep(rules, "{}", "1", "austrian", 0, 2);
	assert_over(s, "defeat", "Defeat");
	json_decref(s);
	s = housekeep(rules, "{}", "1", NULL, 0, -1);
	assert_over(s, "defeat", "Defeat");
	json_decref(s);
	s = housekeep(rules, "{'9.1': 1}", "1", "vendee", 1, 2);
	assert_over(s, "defeat", "Crushing Defeat");
	json_decref(s);
	s = housekeep(rules, "{'9.1': 1}", "23", "vendee", 1, 2);
	assert_string_equal(est_rules_str(s, "phase"), "actions");
	json_decref(s);
	s = housekeep(rules, "{}", "1", "vendee", 1, 2);
	assert_string_equal(est_rules_str(s, "phase"), "actions");
	json_decref(s);
	s = housekeep(rules, "{'9.2': 1}", "23", "austrian", 1, 2);
	assert_over(s, "defeat", "Decisive Defeat");
	json_decref(s);
	s = housekeep(rules, "{'9.2': 1}", "1", "austrian", 1, 2);
	assert_string_equal(est_rules_str(s, "phase"), "actions");
	json_decref(s);
}

/*
 * M8: "When the decks are out, the Republic as the single highest marker
 * wins, graded by its level" (tables.victory.grades: 4 Decisive, 3
 * Substantial, 0 Marginal); otherwise defeat. score(): any victory ranks
 * above any defeat, however long the defeat held.
 */
static void test_victory_when_decks_out_and_score(void **rs)
{
	const json_t *rules = *rs;
	static const struct { int r, m; const char *outcome, *grade; } cases[] = {
		{4, 1, "victory", "Decisive Victory"}, {3, 1, "victory", "Substantial Victory"},
		{1, 0, "victory", "Marginal Victory"}, {2, 2, "defeat", "Defeat"}, {1, 2, "defeat", "Defeat"},
	};
	json_t *won = NULL, *lost = NULL, *sw = NULL, *sl = NULL;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *state = lemt_turn(rules, "{}", "1", 0), *next;
		json_object_set_new(state, "deck", J("{'Blue': [], 'White': [], 'Red': []}"));
		lemt_political(state, cases[c].r, cases[c].m, 0);
		next = lemt_step(state, rules, "[]", NULL, 0, NULL);
		assert_over(next, cases[c].outcome, cases[c].grade);
		if (c == 2)
			won = next;
		else if (c == 3)
			lost = next;
		else
			json_decref(next);
		json_decref(state);
	}
	for (int i = 0; i < 70; i++)
		json_array_append_new(json_object_get(lost, "played"), json_string("2"));
	assert_int_equal(LEM->score(&sw, won, rules), 0);
	assert_int_equal(LEM->score(&sl, lost, rules), 0);
	assert_true(json_is_true(json_object_get(sw, "over")));
	assert_true(est_rules_int(sw, "score", 0) > est_rules_int(sl, "score", 0));
	json_decref(sw);
	json_decref(sl);
	json_decref(won);
	json_decref(lost);
}

/* ---- validate() ---- */

/*
 * Each refusal names its item and field: an unknown type, an unknown field,
 * an Army not on the map, more Action-costing orders than Actions (index
 * -1), two To the Barricades! (one free a turn), no Liberation marker left,
 * Restore Order with Paris in order, a bad "if", 10.4 and 10.5 fields
 * without those options.
 */
static void test_validate_refusals(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_turn(rules, "{}", "1", 1);

	lemt_put(state, "vendee", 3);
	lemt_refused(state, rules, "[{'type': 'charge'}]", 0, "type");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian', 'force': 3}]", 0, "force");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'spanish'}]", 0, "army");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'prussian'}]", 0, "army");
	lemt_refused(state, rules, "[{'type': 'political', 'marker': 'Republic'}, {'type': 'political', 'marker': "
		     "'Monarchy'}]", 1, "type");
	lemt_refused(state, rules, "[{'type': 'barricades', 'army': 'vendee'}, {'type': 'barricades', 'army': "
		     "'vendee'}]", 1, "type");
	lemt_refused(state, rules, "[{'type': 'barricades', 'army': 'austrian'}]", 0, "army");
	lemt_refused(state, rules, "[{'type': 'restore-order'}]", 0, "type");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian'}, {'type': 'political', 'marker': "
		     "'Republic', 'if': 'always'}]", 1, "if");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'}]", 0, "reserves");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'vendee', 'disorder': 'extra'}]", 0, "disorder");
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'austrian'}, {'type': 'barricades', 'army': "
		      "'vendee'}, {'type': 'liberation', 'army': 'vendee'}, {'type': 'liberation', 'army': 'austrian'}]");
	json_object_set_new(state, "liberation", json_integer(0));
	lemt_refused(state, rules, "[{'type': 'liberation', 'army': 'vendee'}]", 0, "type");
	json_object_set_new(state, "disorder", json_true());
	lemt_accepted(state, rules, "[{'type': 'restore-order'}]");
	json_decref(state);

	/* 10.4: one reserves a turn. */
	state = lemt_turn(rules, "{'10.4': 1}", "1", 2);
	lemt_put(state, "vendee", 3);
	lemt_accepted(state, rules, "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'}]");
	lemt_refused(state, rules, "[{'type': 'military', 'army': 'austrian', 'reserves': 'if-fails'}, {'type': "
		     "'military', 'army': 'vendee', 'reserves': 'if-fails'}]", 1, "reserves");
	json_decref(state);
}

/*
 * Rules data (README.md "Rules data"): armies.json's Battle Values are what
 * a Military Action must beat (7.2), so a value the rules cannot read is
 * refused at set-up, naming the one field that is wrong, what it holds and
 * what it must hold.
 */
static void army_refused(const json_t *rules, const char *field, json_t *value, const char *message)
{
	json_t *copy = json_deep_copy(rules), *army, *state = NULL, *o = J("{}");

	army = json_array_get(json_object_get(json_object_get(copy, "armies"), "armies"), 0);
	json_object_set_new(army, field, value);
	assert_int_equal(LEM->setup(&state, copy, o), EST_EINVAL);
	assert_null(state);
	assert_string_equal(est_error_message(), message);
	est_error_clear();
	json_decref(o);
	json_decref(copy);
}

static void test_army_data_names_its_field(void **rs)
{
	const json_t *rules = *rs;

	army_refused(rules, "value", json_string("three"), "rules/armies.json: field \"armies[0].value\" is "
		     "\"three\"; it must be the Army's Battle Value, a whole number from 1 to 12 (3, not "
		     "\"three\"); fix the data");
	army_refused(rules, "value", json_integer(13), "rules/armies.json: field \"armies[0].value\" is 13; it must be the "
		     "Army's Battle Value, a whole number from 1 to 12 (3, not \"three\"); fix the data");
	army_refused(rules, "track", json_string("Rhine"), "rules/armies.json: field \"armies[0].track\" is "
		     "\"Rhine\"; it must be the \"name\" of a track of tracks.json (\"Austrian\"); fix the data");
	army_refused(rules, "box", json_integer(0), "rules/armies.json: field \"armies[0].box\" is 0; it must be a box of the "
		     "Vendée track, a whole number from 1 to 5, or null (off the map); fix the data");
	army_refused(rules, "stationary", json_string("no"), "rules/armies.json: field \"armies[0].stationary\" is \"no\"; it "
		     "must be true or false (or left out: false); fix the data");
	army_refused(rules, "id", json_string("austrian"), "rules/armies.json: field \"armies[1].id\" repeats the id "
		     "\"austrian\" of armies[0]; give each Army an id of its own; fix the data");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_options),
		cmocka_unit_test(test_army_data_names_its_field),
		cmocka_unit_test(test_start_extended_hidden_stream_decides),
		cmocka_unit_test(test_extended_deck_blue_white_red),
		cmocka_unit_test(test_base_deck_66_cards),
		cmocka_unit_test(test_puree_one_pile),
		cmocka_unit_test(test_historical_ordered_no_rolls),
		cmocka_unit_test(test_headline_spanish_enters),
		cmocka_unit_test(test_headline_british_support_moved_regardless),
		cmocka_unit_test(test_headline_napoleon_holding_box),
		cmocka_unit_test(test_headline_card9_rotates_prussian),
		cmocka_unit_test(test_headline_disorder_liberation_drm),
		cmocka_unit_test(test_headline_advance_recover_stationary_offmap),
		cmocka_unit_test(test_headline_political_clamped),
		cmocka_unit_test(test_difficulty_every_fifth_card),
		cmocka_unit_test(test_action_costs),
		cmocka_unit_test(test_if_previous_roll),
		cmocka_unit_test(test_military_must_beat_value),
		cmocka_unit_test(test_roll_events_say_what_they_need),
		cmocka_unit_test(test_military_natural_one_fails),
		cmocka_unit_test(test_military_drms),
		cmocka_unit_test(test_stationary_army_removed),
		cmocka_unit_test(test_7_2_targets),
		cmocka_unit_test(test_10_4_reserves_reroll_and_penalty),
		cmocka_unit_test(test_10_4_once_per_turn),
		cmocka_unit_test(test_10_4_reroll_replaces_natural),
		cmocka_unit_test(test_10_5_extra_military_action),
		cmocka_unit_test(test_restore_order_needs_disorder_on_its_branch),
		cmocka_unit_test(test_10_5_drm_if_needed),
		cmocka_unit_test(test_10_6_natural_six),
		cmocka_unit_test(test_10_6_highest_box_pressed),
		cmocka_unit_test(test_10_6_napoleon_five),
		cmocka_unit_test(test_10_6_natural_one),
		cmocka_unit_test(test_10_6_rotated_prussian_ignores),
		cmocka_unit_test(test_10_6_stationary_decisive),
		cmocka_unit_test(test_10_3_barricades_price),
		cmocka_unit_test(test_napoleon_assign_drms),
		cmocka_unit_test(test_napoleon_validate),
		cmocka_unit_test(test_housekeeping_defeats),
		cmocka_unit_test(test_victory_when_decks_out_and_score),
		cmocka_unit_test(test_validate_refusals),
		cmocka_unit_test(test_10_6_2_disorganized_recovers),
		cmocka_unit_test(test_napoleon_returns_with_stationary_army_removed),
		cmocka_unit_test(test_free_rolls_never_press_highest_box),
		cmocka_unit_test(test_highest_box_refusal_cites_its_rule),
		cmocka_unit_test(test_conditions_judged_per_branch),
		cmocka_unit_test(test_on_success_on_failure_branches),
	};

	return cmocka_run_group_tests(tests, setup_rules, teardown_rules);
}
