/*
 * Napoleonic Empire, CARD LIST: every one of the 32 cards, each checked
 * against its line of the seed ("When a card is played, it is discarded").
 * Card sides and timings: RULINGS.md R12-R15, R20.
 */
#include <ctype.h>

#include "ne_helpers.h"

static json_t *rules;

static json_t *orders(const char *side, const char *items)
{
	json_t *o = json_object();

	json_object_set_new(o, side, J(items));
	return o;
}

/* A state at `side`'s normal turn, after the first draws. */
static json_t *turn_of(const char *side)
{
	json_t *s = ne_started(rules), *n;

	if (strcmp(side, "France") == 0)
		return s;
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);
	json_decref(s);
	return n;
}

/* CARD LIST: 32 cards, ids are the slugs of the seed's names. */
static void test_card_list_has_32_slugged_cards(void **unused)
{
	const json_t *cards = json_object_get(json_object_get(rules, "cards"), "cards"), *c;
	int battle = 0, event = 0;
	size_t i;

	(void)unused;
	assert_int_equal(json_array_size(cards), 32);
	assert_string_equal(json_string_value(json_object_get(json_object_get(rules, "cards"), "provenance")), "seed");
	json_array_foreach(cards, i, c) {
		const char *name = json_string_value(json_object_get(c, "name")), *p;
		char slug[64];
		size_t k = 0;

		for (p = name; *p; p++) {
			if (isalnum((unsigned char)*p))
				slug[k++] = (char)tolower((unsigned char)*p);
			else if (k && slug[k - 1] != '-')
				slug[k++] = '-';
		}
		slug[k] = 0;
		assert_string_equal(json_string_value(json_object_get(c, "id")), slug);
		battle += ne_card_is_battle(c);
		event += !ne_card_is_battle(c);
	}
	assert_int_equal(battle, 17);
	assert_int_equal(event, 15);
}

struct battle_card {
	const char *id, *name, *side, *country;
	int bonus;
};

/* Each battle card's seed line: country, side, bonus. */
static const struct battle_card battle_cards[] = {
	{"toulon", "Toulon", "France", "France", 4},
	{"italian-campaign", "Italian Campaign", "France", "Italy", 2},
	{"italian-campaign", "Italian Campaign", "France", "Naples", 2},
	{"battle-of-the-nile", "Battle of the Nile", "Allies", "Egypt", 3},
	{"austerlitz", "Austerlitz", "France", "Austria", 3},
	{"jena", "Jena", "France", "Prussia", 4},
	{"friedland", "Friedland", "France", "Russia", 4},
	{"trafalgar", "Trafalgar", "Allies", "France", 2},
	{"peninsular-war", "Peninsular War", "Allies", "Spain", 2},
	{"peninsular-war", "Peninsular War", "Allies", "Portugal", 2},
	{"general-winter", "General Winter", "Allies", "Russia", 4},
	{"battle-of-nations", "Battle of Nations", "Allies", "Rhineland", 5},
	{"battle-of-waterloo", "Battle of Waterloo", "Allies", "Holland", 4},
	{"admiral-horatio-nelson", "Admiral Horatio Nelson", "Allies", "Denmark", 2},
	{"duke-of-wellington", "Duke of Wellington", "Allies", "Naples", 2},
	{"the-little-corporal", "The Little Corporal", "France", "Sweden", 1},
	{"artillery-tactics", "Artillery Tactics", "France", "Warsaw", 1},
	{"scorched-earth-policy", "Scorched-earth Policy", "Allies", "Russia", 3},
	{"gebhard-von-blucher", "Gebhard von Blucher", "Allies", "Spain", 1},
};

/*
 * Every battle card, played by its side as the attacker: 5 armies + bonus
 * + 6 against 5 + 1 defender + 1; the card's "+N Name" is in the battle
 * line and the card goes to the discard pile.
 */
static void test_every_battle_card_adds_its_bonus(void **unused)
{
	size_t i, k;

	(void)unused;
	for (i = 0; i < sizeof(battle_cards) / sizeof(battle_cards[0]); i++) {
		const struct battle_card *b = &battle_cards[i];
		int france = strcmp(b->side, "France") == 0;
		int faces[] = {france ? 6 : 1, france ? 1 : 6, 1, 1, 1};
		json_t *s = turn_of(b->side), *n, *ev;
		char item[256], want[128];

		ne_clear(s, rules);
		for (k = 0; k < ne_country_count(rules); k++)
			ne_set_controller(s, ne_country_name(rules, k), NULL);
		ne_hand_set(s, "France", NULL);
		ne_hand_set(s, "Allies", NULL);
		ne_hand_set(s, b->side, b->id, NULL);
		ne_put(s, b->country, 5, 5, NULL);
		snprintf(item, sizeof(item), "[{'type':'play','card':'%s','country':'%s'}]", b->id, b->country);
		n = ne_step(s, rules, orders(b->side, item), faces, 5, NULL, 0, &ev);
		snprintf(want, sizeof(want), "%s 5 armies + %d %s + 1d6 (6) = %d", b->side, b->bonus, b->name,
			 11 + b->bonus);
		if (!strstr(ne_text(ev, "battle"), want))
			fail_msg("%s: \"%s\" lacks \"%s\"", b->id, ne_text(ev, "battle"), want);
		assert_non_null(strstr(ne_text(ev, "battle"), "+ 1 defender + 1d6 (1) = 7"));
		assert_true(est_rules_in_list(json_object_get(n, "discard"), b->id));
		assert_int_equal(A(n, b->country, ne_other(b->side)), 0);
		json_decref(ev);
		json_decref(n);
		json_decref(s);
	}
}

/*
 * The defender plays too: France attacks Russia, the Allies answer in the
 * battle-cards step with General Winter (Russia: Allies +4); France's
 * Friedland, named in its turn orders, counts as well.
 */
static void test_defender_plays_in_battle_cards_step(void **unused)
{
	json_t *s = turn_of("France"), *n, *m, *ev;
	int faces[] = {3, 3, 1, 1, 1};

	(void)unused;
	ne_clear(s, rules);
	ne_hand_set(s, "France", "friedland", NULL);
	ne_hand_set(s, "Allies", "general-winter", "jena", NULL);
	ne_put(s, "Russia", 0, 6, "Allies");
	ne_put(s, "Prussia", 8, 0, "France");
	n = ne_step(s, rules, orders("France", "[{'type':'move','from':'Prussia','to':'Russia','armies':8},"
				     "{'type':'play','card':'friedland','country':'Russia'}]"), NULL, 0, NULL, 0, NULL);
	assert_string_equal(ne_phase(n), "battle-cards");
	m = ne_step(n, rules, J("{'France': [], 'Allies': [{'type':'play','card':'general-winter','country':'Russia'}]}"),
		    faces, 5, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"), "Battle in Russia: France 8 armies + 4 Friedland + 1d6 (3) = 15; "
			    "Allies 6 armies + 4 General Winter + 1 defender + 1d6 (3) = 14; France wins");
	assert_int_equal(rules_event_count(ev, "card"), 2);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/* A standing play given in the defender's own turn is its default in the battle-cards step. */
static void test_standing_play_is_default(void **unused)
{
	json_t *s = turn_of("France"), *n, *d = NULL;

	(void)unused;
	ne_clear(s, rules);
	ne_hand_set(s, "France", NULL);
	ne_hand_set(s, "Allies", "general-winter", NULL);
	json_object_set_new(json_object_get(json_object_get(s, "standing"), "Allies"), "plays",
			    J("{'Russia': 'general-winter'}"));
	ne_put(s, "Russia", 0, 6, "Allies");
	ne_put(s, "Prussia", 8, 0, "France");
	n = ne_step(s, rules, orders("France", "[{'type':'move','from':'Prussia','to':'Russia','armies':8}]"),
		    NULL, 0, NULL, 0, NULL);
	assert_string_equal(ne_phase(n), "battle-cards");
	assert_int_equal(NE->default_orders(&d, n, rules, "Allies"), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "card")), "general-winter");
	json_decref(d);
	assert_int_equal(NE->default_orders(&d, n, rules, "France"), 0);
	assert_int_equal(json_array_size(d), 0);
	json_decref(d);
	json_decref(n);
	json_decref(s);
}

/* The six extra-turn cards: "may take an extra turn without reinforcements". */
static void test_every_extra_turn_card(void **unused)
{
	static const char *const ids[][2] = {
		{"czar-alexander-i", "Allies"}, {"king-frederick-iii", "Allies"},
		{"prince-metternich", "Allies"}, {"son-of-the-revolution", "France"},
		{"louis-berthier", "France"}, {"a-man-of-destiny", "France"},
	};
	size_t i;

	(void)unused;
	for (i = 0; i < 6; i++) {
		json_t *s = turn_of(ids[i][1]), *n;
		char item[128];

		ne_hand_set(s, ids[i][1], ids[i][0], NULL);
		snprintf(item, sizeof(item), "[{'type':'play','card':'%s'}]", ids[i][0]);
		n = ne_step(s, rules, orders(ids[i][1], item), NULL, 0, NULL, 0, NULL);
		assert_string_equal(json_string_value(json_object_get(n, "active")), ids[i][1]);
		assert_true(json_is_true(json_object_get(n, "extra")));
		assert_true(est_rules_in_list(json_object_get(n, "discard"), ids[i][0]));
		json_decref(n);
		json_decref(s);
	}
}

/* Wiff of Grapeshot (France 2), Proclamation of Empire (France 3), Nation of Shopkeepers (Allies 3). */
static void test_every_draw_card(void **unused)
{
	static const struct { const char *id, *side; int n; } d[] = {
		{"wiff-of-grapeshot", "France", 2}, {"proclamation-of-empire", "France", 3},
		{"nation-of-shopkeepers", "Allies", 3},
	};
	size_t i;

	(void)unused;
	for (i = 0; i < 3; i++) {
		json_t *s = turn_of(d[i].side), *n, *ev;
		char item[128];

		ne_hand_set(s, d[i].side, d[i].id, NULL);
		snprintf(item, sizeof(item), "[{'type':'play','card':'%s'}]", d[i].id);
		n = ne_step(s, rules, orders(d[i].side, item), NULL, 0, NULL, 0, &ev);
		assert_int_equal(json_array_size(ne_hand(n, d[i].side)), d[i].n);
		assert_true(est_rules_in_list(json_object_get(n, "discard"), d[i].id));
		json_decref(ev);
		json_decref(n);
		json_decref(s);
	}
}

/* Balance of Power: "Allies gain 2 rebel armies in Reinforcement phase": a second rebels placement (R15). */
static void test_balance_of_power(void **unused)
{
	json_t *s = turn_of("Allies"), *n, *diag = NULL;
	json_t *o = J("[{'type':'play','card':'balance-of-power'},{'type':'rebels','country':'Spain'},"
		      "{'type':'rebels','country':'Portugal'}]");

	(void)unused;
	ne_hand_set(s, "Allies", "balance-of-power", NULL);
	assert_int_equal(NE->validate(&diag, s, rules, "Allies", o), 0);
	n = ne_step(s, rules, ne_orders_of("Allies", o), NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(n, "Spain", "Allies"), 2);
	assert_int_equal(A(n, "Portugal", "Allies"), 2);
	json_decref(o);
	json_decref(n);
	json_decref(s);
}

/* Louisiana Purchase and Conscription: "France gains 2 armies in Reinforcement phase" (R15: where named, else France). */
static void test_louisiana_purchase_and_conscription(void **unused)
{
	json_t *s = turn_of("France"), *n;

	(void)unused;
	ne_hand_set(s, "France", "louisiana-purchase", "conscription", NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'louisiana-purchase','country':'Holland'},"
				     "{'type':'play','card':'conscription'}]"), NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(n, "Holland", "France"), 2 + 1 + 2);
	assert_int_equal(A(n, "France", "France"), 20 + 4 + 2);
	assert_int_equal(ne_on_map(n, "France"), 40 + 14 + 4);
	json_decref(n);
	json_decref(s);
}

/* Continental System: "France & England receive 2 less reinforcements per turn for rest of game" (R14). */
static void test_continental_system(void **unused)
{
	json_t *s = turn_of("France"), *n, *m;

	(void)unused;
	ne_hand_set(s, "France", "continental-system", NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'continental-system'}]"), NULL, 0, NULL, 0, NULL);
	assert_true(json_is_true(json_object_get(n, "continental_system")));
	assert_int_equal(A(n, "France", "France"), 20 + 2);
	m = ne_step(n, rules, orders("Allies", "[]"), NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(m, "England", "Allies"), 10 + 1);
	assert_int_equal(A(m, "Russia", "Allies"), 10 + 3);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/* Josephine: "The French may not move this turn": played by the Allies, it holds France's next turn (R13). */
static void test_josephine(void **unused)
{
	json_t *s = turn_of("Allies"), *n, *m, *diag = NULL, *mv = J("[{'type':'move','from':'France','to':'Spain','armies':1}]");

	(void)unused;
	ne_hand_set(s, "Allies", "josephine", NULL);
	n = ne_step(s, rules, orders("Allies", "[{'type':'play','card':'josephine'}]"), NULL, 0, NULL, 0, NULL);
	assert_int_equal(NE->validate(&diag, n, rules, "France", mv), EST_EINVAL);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(diag, 0), "message")), "Josephine"));
	json_decref(diag);
	m = ne_step(n, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);
	assert_false(json_is_true(json_object_get(json_object_get(m, "no_move"), "France")));
	json_decref(mv);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/* Treaty of Tilsit: "The Allies may not move this turn": played by France, it holds the Allies' next turn. */
static void test_treaty_of_tilsit(void **unused)
{
	json_t *s = turn_of("France"), *n, *diag = NULL, *mv = J("[{'type':'move','from':'Russia','to':'Warsaw','armies':1}]");

	(void)unused;
	ne_hand_set(s, "France", "treaty-of-tilsit", NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'treaty-of-tilsit'}]"), NULL, 0, NULL, 0, NULL);
	assert_int_equal(NE->validate(&diag, n, rules, "Allies", mv), EST_EINVAL);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(diag, 0), "message")), "Treaty of Tilsit"));
	json_decref(diag);
	json_decref(mv);
	json_decref(n);
	json_decref(s);
}

/* Josephine: the held turn's moves are ignored by resolve() as well (R13), and the hold ends with that turn. */
static void test_josephine_resolve_ignores_moves(void **unused)
{
	json_t *s = turn_of("France"), *n, *ev;

	(void)unused;
	json_object_set_new(json_object_get(s, "no_move"), "France", json_true());
	n = ne_step(s, rules, orders("France", "[{'type':'move','from':'France','to':'Spain','armies':5}]"),
		    NULL, 0, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "no-move"), "France may not move this turn");
	assert_null(ne_find(ev, "move"));
	assert_int_equal(A(n, "France", "France"), 20 + 4);
	assert_false(json_is_true(json_object_get(json_object_get(n, "no_move"), "France")));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * Continental System helps neither side, so the Allies may play it too
 * (R14): in their own Reinforcements Phase England then gives 3 - 2 = 1.
 */
static void test_continental_system_played_by_allies(void **unused)
{
	json_t *s = turn_of("Allies"), *n;

	(void)unused;
	ne_hand_set(s, "Allies", "continental-system", NULL);
	n = ne_step(s, rules, orders("Allies", "[{'type':'play','card':'continental-system'}]"), NULL, 0, NULL, 0, NULL);
	assert_true(json_is_true(json_object_get(n, "continental_system")));
	assert_int_equal(A(n, "England", "Allies"), 10 + 1);
	assert_int_equal(A(n, "Austria", "Allies"), 10 + 2);
	json_decref(n);
	json_decref(s);
}

/*
 * Conscription (R15) with France lost and Holland not French: the 2 armies
 * go to the French country holding most French armies, never Prussia ("France
 * can never receive reinforcements from Prussia, Russia, or Austria"): Prussia
 * holds 9, Spain 3, so Spain gets them (1 from the table + 2).
 */
static void test_bonus_armies_fall_back_never_to_prussia(void **unused)
{
	json_t *s = turn_of("France"), *n, *ev;

	(void)unused;
	ne_clear(s, rules);
	ne_put(s, "France", 0, 0, "Allies");
	ne_put(s, "Holland", 0, 0, "Allies");
	ne_put(s, "Prussia", 9, 0, "France");
	ne_put(s, "Spain", 3, 0, "France");
	ne_hand_set(s, "France", "conscription", NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'conscription','country':'Holland'}]"),
		    NULL, 0, NULL, 0, &ev);
	assert_int_equal(A(n, "Prussia", "France"), 9);
	assert_int_equal(A(n, "Spain", "France"), 3 + 1 + 2);
	assert_int_equal(A(n, "Holland", "France"), 0);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* The index of the last event of `type`. */
static size_t last_of(const json_t *events, const char *type)
{
	size_t i, last = 0;
	json_t *e;

	json_array_foreach(events, i, e) {
		if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0)
			last = i;
	}
	return last;
}

/*
 * "When a card is played, it is discarded": a card is played in one battle.
 * France names The Little Corporal for Austria in its turn; in the
 * battle-cards step it may not name the same card again for Prussia
 * (validate refuses it, RULINGS.md R34), and resolve() keeps it in Austria:
 * Austria (fought first, R9): France 5 + 1 + 1d6 (4) = 10 against Allies 5 +
 * 1 defender + 1d6 (1) = 7; Prussia: France 5 + 1d6 (4) = 9 against Allies
 * 5 + 1 + 1d6 (1) = 7, no card.
 */
static void test_card_committed_to_one_battle_only(void **unused)
{
	json_t *s = turn_of("France"), *n, *m, *ev, *diag = NULL;
	json_t *again = J("[{'type':'play','card':'the-little-corporal','country':'Prussia'}]");
	int faces[] = {4, 1, 1, 1, 1, 4, 1, 1, 1, 1};

	(void)unused;
	ne_clear(s, rules);
	ne_hand_set(s, "France", "the-little-corporal", NULL);
	ne_hand_set(s, "Allies", "gebhard-von-blucher", NULL);
	ne_put(s, "Austria", 5, 5, "Allies");
	ne_put(s, "Prussia", 5, 5, "Allies");
	ne_put(s, "Russia", 0, 0, NULL);
	ne_put(s, "Warsaw", 0, 0, NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'the-little-corporal','country':'Austria'}]"),
		    NULL, 0, NULL, 0, NULL);
	assert_string_equal(ne_phase(n), "battle-cards");
	assert_int_equal(NE->validate(&diag, n, rules, "France", again), EST_EINVAL);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(diag, 0), "message")),
			       "is already played by France in the battle in Austria"));
	json_decref(diag);
	m = ne_step(n, rules, json_pack("{s:O, s:[]}", "France", again, "Allies"), faces, 10, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"), "Battle in Austria: France 5 armies + 1 The Little Corporal + "
			    "1d6 (4) = 10; Allies 5 armies + 1 defender + 1d6 (1) = 7; France wins");
	assert_int_equal(rules_event_count(ev, "card"), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(ev, last_of(ev, "battle")), "text")),
			    "Battle in Prussia: France 5 armies + 1d6 (4) = 9; "
			    "Allies 5 armies + 1 defender + 1d6 (1) = 7; France wins");
	json_decref(again);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/*
 * The same, should resolve() ever get such orders unchecked: the card named
 * for Prussia in the turn stays there, and the battle-cards step cannot move
 * it to Austria. Austria: France 5 + 1d6 (4) = 9 against 5 + 1 + 1d6 (1) = 7,
 * no card; Prussia: France 5 + 1 The Little Corporal + 4 = 10 against 7.
 */
static void test_resolve_keeps_committed_card_in_its_battle(void **unused)
{
	json_t *s = turn_of("France"), *n, *m, *ev;
	int faces[] = {4, 1, 1, 1, 1, 4, 1, 1, 1, 1};

	(void)unused;
	ne_clear(s, rules);
	ne_hand_set(s, "France", "the-little-corporal", NULL);
	ne_hand_set(s, "Allies", "gebhard-von-blucher", NULL);
	ne_put(s, "Austria", 5, 5, "Allies");
	ne_put(s, "Prussia", 5, 5, "Allies");
	ne_put(s, "Russia", 0, 0, NULL);
	ne_put(s, "Warsaw", 0, 0, NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'the-little-corporal','country':'Prussia'}]"),
		    NULL, 0, NULL, 0, NULL);
	m = ne_step(n, rules, J("{'France': [{'type':'play','card':'the-little-corporal','country':'Austria'}],"
				"'Allies': []}"), faces, 10, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"), "Battle in Austria: France 5 armies + 1d6 (4) = 9; "
			    "Allies 5 armies + 1 defender + 1d6 (1) = 7; France wins");
	assert_string_equal(json_string_value(json_object_get(json_array_get(ev, last_of(ev, "battle")), "text")),
			    "Battle in Prussia: France 5 armies + 1 The Little Corporal + 1d6 (4) = 10; "
			    "Allies 5 armies + 1 defender + 1d6 (1) = 7; France wins");
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card_list_has_32_slugged_cards),
		cmocka_unit_test(test_every_battle_card_adds_its_bonus),
		cmocka_unit_test(test_defender_plays_in_battle_cards_step),
		cmocka_unit_test(test_standing_play_is_default),
		cmocka_unit_test(test_every_extra_turn_card),
		cmocka_unit_test(test_every_draw_card),
		cmocka_unit_test(test_balance_of_power),
		cmocka_unit_test(test_louisiana_purchase_and_conscription),
		cmocka_unit_test(test_continental_system),
		cmocka_unit_test(test_josephine),
		cmocka_unit_test(test_treaty_of_tilsit),
		cmocka_unit_test(test_josephine_resolve_ignores_moves),
		cmocka_unit_test(test_continental_system_played_by_allies),
		cmocka_unit_test(test_bonus_armies_fall_back_never_to_prussia),
		cmocka_unit_test(test_card_committed_to_one_battle_only),
		cmocka_unit_test(test_resolve_keeps_committed_card_in_its_battle),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
