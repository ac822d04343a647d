/*
 * Napoleonic Empire: THE MAP, ARMIES, FRENCH SETUP, ALLIES SETUP and the
 * first automatic step (seeds/napoleonic-empire.txt; RULINGS.md R1-R4).
 */
#include "ne_helpers.h"

static json_t *rules;

/* Powers are "France" then "Allies" (docs/gm-guide.md "The players file": new deals them in that order). */
static void test_powers_france_then_allies(void **unused)
{
	const char *const *p = NE->powers();

	(void)unused;
	assert_string_equal(p[0], "France");
	assert_string_equal(p[1], "Allies");
	/* The Allied countries, held instead of "Allies" in the divided Allies (RULINGS.md R38). */
	assert_string_equal(p[2], "England");
	assert_string_equal(p[3], "Russia");
	assert_string_equal(p[4], "Prussia");
	assert_string_equal(p[5], "Austria");
	assert_null(p[6]);
	assert_string_equal(NE->name, "napoleonic-empire");
}

/* "Each side has 80 counters"; France sets up 20 + 4 + 8 x 2 = 40, the Allies 4 x 10 = 40. */
static void test_setup_counts(void **unused)
{
	json_t *s = NULL, *v = NULL;

	(void)unused;
	assert_int_equal(NE->setup(&s, rules, NULL), 0);
	assert_int_equal(ne_on_map(s, "France"), 40);
	assert_int_equal(ne_on_map(s, "Allies"), 40);
	assert_int_equal(NE->view(&v, s, rules, NULL), 0);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(v, "sides"), 0), "off_map")), 40);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(v, "sides"), 1), "off_map")), 40);
	json_decref(v);
	json_decref(s);
}

/* FRENCH SETUP: 20 in France, 4 in the Rhineland, 2 in each of eight countries. */
static void test_french_setup(void **unused)
{
	const char *twos[] = {"Holland", "Denmark", "Spain", "Portugal", "Italy", "Naples",
			      "Switzerland", "Egypt"};
	json_t *s = NULL;
	size_t i;

	(void)unused;
	assert_int_equal(NE->setup(&s, rules, NULL), 0);
	assert_int_equal(A(s, "France", "France"), 20);
	assert_int_equal(A(s, "Rhineland", "France"), 4);
	for (i = 0; i < 8; i++) {
		assert_int_equal(A(s, twos[i], "France"), 2);
		assert_string_equal(ne_controller(s, twos[i]), "France");
	}
	assert_string_equal(ne_controller(s, "France"), "France");
	assert_string_equal(ne_controller(s, "Rhineland"), "France");
	json_decref(s);
}

/* ALLIES SETUP: 10 in England, Russia, Austria and Prussia; Sweden, Warsaw, Ottoman neutral (R4). */
static void test_allied_setup_and_neutrals(void **unused)
{
	const char *tens[] = {"England", "Russia", "Austria", "Prussia"};
	json_t *s = NULL;
	size_t i;

	(void)unused;
	assert_int_equal(NE->setup(&s, rules, NULL), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(A(s, tens[i], "Allies"), 10);
		assert_int_equal(A(s, tens[i], "France"), 0);
		assert_string_equal(ne_controller(s, tens[i]), "Allies");
	}
	assert_null(ne_controller(s, "Sweden"));
	assert_null(ne_controller(s, "Warsaw"));
	assert_null(ne_controller(s, "Ottoman Empire"));
	json_decref(s);
}

/* R1: the table lists France-Italy, Italy-Austria, Denmark-Sweden, Austria-Ottoman one way only: both ways hold. */
static void test_adjacency_union_is_symmetric(void **unused)
{
	size_t i, j, n = ne_country_count(rules);

	(void)unused;
	assert_int_equal(n, 17);
	assert_true(ne_land_adjacent(rules, "Italy", "France"));
	assert_true(ne_land_adjacent(rules, "Austria", "Italy"));
	assert_true(ne_land_adjacent(rules, "Denmark", "Sweden"));
	assert_true(ne_land_adjacent(rules, "Ottoman Empire", "Austria"));
	assert_false(ne_land_adjacent(rules, "France", "Prussia"));
	assert_false(ne_land_adjacent(rules, "Spain", "Italy"));
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			assert_int_equal(ne_land_adjacent(rules, ne_country_name(rules, i), ne_country_name(rules, j)),
					 ne_land_adjacent(rules, ne_country_name(rules, j), ne_country_name(rules, i)));
}

/* "England Controls the Seas. Access to all except Warsaw and Switzerland"; "any non-landlocked country". */
static void test_england_sea_access(void **unused)
{
	(void)unused;
	assert_null(ne_move_refusal(rules, "Allies", "England", "Spain"));
	assert_null(ne_move_refusal(rules, "Allies", "England", "Egypt"));
	assert_null(ne_move_refusal(rules, "Allies", "England", "France"));
	assert_null(ne_move_refusal(rules, "Allies", "England", "Sweden"));
	assert_null(ne_move_refusal(rules, "Allies", "England", "Prussia"));
	assert_non_null(ne_move_refusal(rules, "Allies", "England", "Warsaw"));
	assert_non_null(ne_move_refusal(rules, "Allies", "England", "Switzerland"));
	/* the sea runs from England only: no sea move between two other countries */
	assert_non_null(ne_move_refusal(rules, "Allies", "Spain", "Egypt"));
}

/* "The French player may never move armies into England"; "Allied Armies cannot be moved back to England". */
static void test_england_entry_refused(void **unused)
{
	(void)unused;
	assert_non_null(strstr(ne_move_refusal(rules, "France", "Holland", "England"), "never move armies into England"));
	assert_non_null(strstr(ne_move_refusal(rules, "Allies", "Holland", "England"), "back to England"));
}

/* "The Ottoman Empire may not be entered", by anybody, from Russia, Austria or Egypt. */
static void test_ottoman_never_entered(void **unused)
{
	(void)unused;
	assert_non_null(ne_move_refusal(rules, "Allies", "Russia", "Ottoman Empire"));
	assert_non_null(ne_move_refusal(rules, "France", "Egypt", "Ottoman Empire"));
	assert_non_null(ne_move_refusal(rules, "Allies", "England", "Ottoman Empire"));
	assert_null(ne_move_refusal(rules, "France", "Naples", "Egypt"));
}

/* docs/protocol.md "Dice protocol v2": step 0 draws no dice: the deck is in card-list order and step 1 is automatic. */
static void test_step0_deck_unshuffled_and_automatic(void **unused)
{
	json_t *s = NULL, *p = NULL, *o = J("{'scenario': 'standard'}");

	(void)unused;
	assert_int_equal(NE->setup(&s, rules, o), 0);
	json_decref(o);
	assert_int_equal(json_array_size(json_object_get(s, "deck")), 32);
	assert_string_equal(json_string_value(json_array_get(json_object_get(s, "deck"), 0)), "toulon");
	assert_string_equal(json_string_value(json_array_get(json_object_get(s, "deck"), 31)), "nation-of-shopkeepers");
	assert_int_equal(json_array_size(ne_hand(s, "France")), 0);
	assert_int_equal(json_array_size(ne_hand(s, "Allies")), 0);
	assert_int_equal(NE->pending(&p, s, rules), 0);
	assert_string_equal(json_string_value(json_object_get(p, "mode")), "automatic");
	assert_int_equal(json_array_size(json_object_get(p, "powers")), 0);
	json_decref(p);
	json_decref(s);
}

/* An unknown scenario is refused at set-up. */
static void test_setup_refuses_unknown_scenario(void **unused)
{
	json_t *s = NULL, *o = J("{'scenario': 'campaign-1812'}");

	(void)unused;
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "scenario"));
	json_decref(o);
}

/*
 * Step 1 shuffles with the hidden stream only (the public stream is empty
 * and would fail if touched), then France draws 2: the first two cards.
 */
static void test_step1_shuffles_with_hidden_stream(void **unused)
{
	json_t *s0 = NULL, *s1, *ev = NULL, *p = NULL;
	int faces[31], i;

	(void)unused;
	assert_int_equal(NE->setup(&s0, rules, NULL), 0);
	/* faces all 1: swap position i with 0 each time, a real reordering */
	for (i = 0; i < 31; i++)
		faces[i] = 1;
	s1 = ne_step(s0, rules, json_object(), NULL, 0, faces, 31, &ev);
	/* After i=31..1 each swapping with 0: deck[0] = card 1 (Italian Campaign), then 2, ... */
	assert_string_equal(json_string_value(json_array_get(ne_hand(s1, "France"), 0)), "italian-campaign");
	assert_string_equal(json_string_value(json_array_get(ne_hand(s1, "France"), 1)), "battle-of-the-nile");
	assert_int_equal(json_array_size(json_object_get(s1, "deck")), 30);
	assert_non_null(ne_find(ev, "shuffle"));
	assert_string_equal(ne_text(ev, "draw"), "France draws 2 cards");
	assert_int_equal(NE->pending(&p, s1, rules), 0);
	assert_string_equal(json_string_value(json_object_get(p, "kind")), "turn");
	assert_string_equal(json_string_value(json_object_get(p, "mode")), "sequential");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "France");
	json_decref(p);
	json_decref(ev);
	json_decref(s0);
	json_decref(s1);
}

/* The state is plain JSON and deterministic: the same dice give the same bytes. */
static void test_state_is_deterministic(void **unused)
{
	json_t *a = ne_started(rules), *b = ne_started(rules);
	char *x = json_dumps(a, JSON_SORT_KEYS), *y = json_dumps(b, JSON_SORT_KEYS);

	(void)unused;
	assert_string_equal(x, y);
	free(x);
	free(y);
	json_decref(a);
	json_decref(b);
}

/* R33: "Allied Armies cannot be moved back to England" holds for every Allied army, even one never there. */
static void test_no_allied_army_enters_england(void **unused)
{
	(void)unused;
	assert_non_null(strstr(ne_move_refusal(rules, "Allies", "Russia", "England"), "back to England"));
	assert_non_null(strstr(ne_move_refusal(rules, "Allies", "Spain", "England"), "back to England"));
}

/* R28: "Anywhere" cards fit every country; the others only the countries their line names. */
static void test_anywhere_cards_fit_every_country(void **unused)
{
	size_t i;

	(void)unused;
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i);

		assert_true(ne_card_fits(ne_card(rules, "the-little-corporal"), c));
		assert_true(ne_card_fits(ne_card(rules, "gebhard-von-blucher"), c));
		assert_int_equal(ne_card_fits(ne_card(rules, "italian-campaign"), c),
				 strcmp(c, "Italy") == 0 || strcmp(c, "Naples") == 0);
		assert_int_equal(ne_card_fits(ne_card(rules, "trafalgar"), c), strcmp(c, "France") == 0);
	}
	/* an event card fits no battle */
	assert_false(ne_card_fits(ne_card(rules, "josephine"), "France"));
}

/* REINFORCEMENTS PHASE: the seed's table, country by country, and the rebel countries. */
static void test_reinforcement_table_is_the_seeds(void **unused)
{
	static const struct { const char *country; int value; } table[] = {
		{"France", 4}, {"England", 3}, {"Russia", 3}, {"Austria", 2}, {"Prussia", 2},
		{"Holland", 1}, {"Denmark", 1}, {"Sweden", 1}, {"Spain", 1}, {"Portugal", 1},
		{"Rhineland", 2}, {"Italy", 1}, {"Naples", 1}, {"Switzerland", 1}, {"Warsaw", 1},
		{"Egypt", 1}, {"Ottoman Empire", 0},
	};
	const json_t *r = json_object_get(rules, "reinforcements");
	size_t i;

	(void)unused;
	assert_int_equal(json_object_size(json_object_get(r, "table")), 17);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		assert_int_equal(ne_table_value(rules, table[i].country), table[i].value);
	assert_true(est_rules_in_list(json_object_get(r, "france_never_from"), "Prussia"));
	assert_true(est_rules_in_list(json_object_get(r, "france_never_from"), "Russia"));
	assert_true(est_rules_in_list(json_object_get(r, "france_never_from"), "Austria"));
	assert_int_equal(json_array_size(json_object_get(r, "france_never_from")), 3);
	assert_int_equal(json_array_size(json_object_get(json_object_get(r, "rebels"), "countries")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "rebels"), "armies")), 2);
}

/* THE MAP: each "Connected to" list of the seed, as data/map.json keeps it (R1 takes the union). */
static void test_map_lists_are_the_seeds(void **unused)
{
	static const char *const seed[][8] = {
		{"France", "Spain", "Holland", "Rhineland", "Switzerland", "Italy", NULL},
		{"England", NULL},
		{"Russia", "Prussia", "Warsaw", "Sweden", "Austria", "Ottoman Empire", NULL},
		{"Austria", "Rhineland", "Prussia", "Russia", "Warsaw", "Ottoman Empire", NULL},
		{"Prussia", "Rhineland", "Austria", "Russia", "Warsaw", NULL},
		{"Holland", "Denmark", "Rhineland", "France", NULL},
		{"Sweden", "Denmark", "Russia", NULL},
		{"Denmark", "Holland", "Rhineland", NULL},
		{"Spain", "France", "Portugal", NULL},
		{"Portugal", "Spain", NULL},
		{"Rhineland", "Switzerland", "Italy", "France", "Holland", "Denmark", "Prussia", "Austria"},
		{"Italy", "Rhineland", "Switzerland", "Naples", "Austria", NULL},
		{"Naples", "Italy", "Egypt", NULL},
		{"Switzerland", "Rhineland", "Italy", "France", NULL},
		{"Warsaw", "Prussia", "Russia", "Austria", NULL},
		{"Egypt", "Naples", "Ottoman Empire", NULL},
		{"Ottoman Empire", "Russia", "Egypt", NULL},
	};
	const json_t *countries = json_object_get(json_object_get(rules, "map"), "countries");
	size_t i, k;

	(void)unused;
	assert_int_equal(json_array_size(countries), 17);
	for (i = 0; i < 17; i++) {
		const json_t *c = json_array_get(countries, i), *adj = json_object_get(c, "adjacent");

		/* in the seed's order, which is also the battle order (R9) */
		assert_string_equal(json_string_value(json_object_get(c, "name")), seed[i][0]);
		for (k = 1; k < 8 && seed[i][k]; k++)
			assert_string_equal(json_string_value(json_array_get(adj, k - 1)), seed[i][k]);
		assert_int_equal(json_array_size(adj), k - 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_powers_france_then_allies),
		cmocka_unit_test(test_setup_counts),
		cmocka_unit_test(test_french_setup),
		cmocka_unit_test(test_allied_setup_and_neutrals),
		cmocka_unit_test(test_adjacency_union_is_symmetric),
		cmocka_unit_test(test_england_sea_access),
		cmocka_unit_test(test_england_entry_refused),
		cmocka_unit_test(test_ottoman_never_entered),
		cmocka_unit_test(test_step0_deck_unshuffled_and_automatic),
		cmocka_unit_test(test_setup_refuses_unknown_scenario),
		cmocka_unit_test(test_step1_shuffles_with_hidden_stream),
		cmocka_unit_test(test_state_is_deterministic),
		cmocka_unit_test(test_no_allied_army_enters_england),
		cmocka_unit_test(test_anywhere_cards_fit_every_country),
		cmocka_unit_test(test_reinforcement_table_is_the_seeds),
		cmocka_unit_test(test_map_lists_are_the_seeds),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
