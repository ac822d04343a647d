/*
 * Napoleonic Empire, ATTACK PHASE and CASUALTY CALCULATION EXAMPLE: Force,
 * the defender's +1, card bonuses, ties, casualties, retreats and control
 * (seeds/napoleonic-empire.txt; RULINGS.md R5-R10).
 */
#include "ne_helpers.h"

static json_t *rules;

/* France's turn 1 on an empty map, no cards in either hand. */
static json_t *board(void)
{
	json_t *s = ne_started(rules);

	ne_clear(s, rules);
	ne_hand_set(s, "France", NULL);
	ne_hand_set(s, "Allies", NULL);
	return s;
}

static json_t *turn_orders(const char *side, const char *items)
{
	json_t *o = json_object();

	json_object_set_new(o, side, J(items));
	return o;
}

/*
 * "Each army has a Force = 1", the card bonus, "The defender has a Force
 * bonus +1", "Each side rolls 1D6": France 8 + 3 Austerlitz + 4 = 15 beats
 * Allies 10 + 1 + 2 = 13.
 */
static void test_force_with_defender_and_card_bonus(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {4, 2, 1, 6, 6};

	(void)unused;
	ne_put(s, "Austria", 8, 10, "Allies");
	ne_hand_set(s, "France", "austerlitz", NULL);
	n = ne_step(s, rules, turn_orders("France", "[{'type':'play','card':'austerlitz','country':'Austria'}]"),
		    faces, 5, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"),
			    "Battle in Austria: France 8 armies + 3 Austerlitz + 1d6 (4) = 15; "
			    "Allies 10 armies + 1 defender + 1d6 (2) = 13; France wins");
	assert_non_null(strstr(ne_text(ev, "card"), "France plays Austerlitz in the battle in Austria"));
	/* Austerlitz was played, so discarded */
	assert_int_equal(json_array_size(ne_hand(n, "France")), 0);
	assert_true(est_rules_in_list(json_object_get(n, "discard"), "austerlitz"));
	assert_int_equal(A(n, "Austria", "Allies"), 0);
	assert_string_equal(ne_controller(n, "Austria"), "France");
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* RULINGS.md R7: equal totals, both roll again; every roll is logged with its purpose. */
static void test_tie_both_roll_again(void **unused)
{
	json_t *s = board(), *ev, *st = NULL, *o = turn_orders("France", "[]");
	est_dice *d = NULL, *h = NULL;
	int faces[] = {3, 3, 2, 5, 1, 1, 1};
	const json_t *log;

	(void)unused;
	ne_put(s, "Austria", 5, 4, "Allies");
	ne_put(s, "Prussia", 0, 1, "Allies");
	assert_int_equal(est_dice_new_fixed(&d, faces, 7), 0);
	assert_int_equal(est_dice_new_fixed(&h, NULL, 0), 0);
	assert_int_equal(NE->resolve(&st, &ev, s, rules, o, d, h), 0);
	json_decref(o);
	assert_non_null(strstr(ne_text(ev, "battle-tie"), "8; Allies 4 armies + 1 defender + 1d6 (3) = 8; a tie"));
	assert_non_null(strstr(ne_text(ev, "battle"), "= 7; Allies 4 armies + 1 defender + 1d6 (5) = 10; Allies win"));
	log = est_dice_log(d);
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 0), "purpose")), "battle Austria: France force roll");
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 1), "purpose")), "battle Austria: Allies force roll");
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 2), "purpose")), "battle Austria: France force re-roll");
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 4), "purpose")), "battle Austria: Allies casualty roll (winner)");
	assert_string_equal(json_string_value(json_object_get(json_array_get(log, 5), "purpose")), "battle Austria: France casualty roll 1 (loser)");
	est_dice_free(d);
	est_dice_free(h);
	json_decref(ev);
	json_decref(st);
	json_decref(s);
}

/*
 * CASUALTY CALCULATION EXAMPLE: the winner had 10 armies and rolls 4: loses
 * 4; the loser had 6 and rolls 11 on 2D6: 110%, all destroyed.
 */
static void test_casualties_worked_example(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {5, 3, 4, 5, 6};

	(void)unused;
	ne_put(s, "Austria", 10, 6, "Allies");
	n = ne_step(s, rules, turn_orders("France", "[]"), faces, 5, NULL, 0, &ev);
	assert_int_equal(A(n, "Austria", "France"), 6);
	assert_int_equal(A(n, "Austria", "Allies"), 0);
	assert_non_null(strstr(ne_text(ev, "casualties"), "rolls 1d6 (4) x 10% = 4 lost"));
	assert_non_null(strstr(ne_text(ev, "casualties"), "Allies (loser, 6 armies) roll 2d6 (5+6=11) x 10% = 6 lost"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* "The winner cannot take more casualties than the loser had armies x2": 10 armies roll 6 = 6, capped at 2. */
static void test_winner_losses_capped_at_twice_loser(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {6, 1, 6, 1, 1};

	(void)unused;
	ne_put(s, "Austria", 10, 1, "Allies");
	ne_put(s, "Prussia", 0, 2, "Allies");
	ne_put(s, "Russia", 0, 0, NULL);
	n = ne_step(s, rules, turn_orders("France", "[]"), faces, 5, NULL, 0, &ev);
	assert_int_equal(A(n, "Austria", "France"), 8);
	/* the loser's 2d6 = 2: 20% of 1 rounds down to 0; the survivor retreats to Prussia */
	assert_int_equal(A(n, "Prussia", "Allies"), 3);
	assert_non_null(strstr(ne_text(ev, "casualties"), "capped at twice the loser's armies"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* Lay out an Allied defeat in Austria with survivors and two friendly neighbours. */
static json_t *retreat_board(int prussia, int russia)
{
	json_t *s = board();

	ne_put(s, "Austria", 10, 10, "Allies");
	ne_put(s, "Prussia", 0, prussia, "Allies");
	ne_put(s, "Russia", 0, russia, "Allies");
	ne_put(s, "Warsaw", 0, 0, NULL);
	ne_put(s, "Rhineland", 1, 0, "France");
	return s;
}

/* France 10+6 beats Allies 10+1+1; France loses 1 (10%), the Allies 2 (2d6 = 2): 8 survivors. */
static const int win_faces[] = {6, 1, 1, 1, 1};

/* "must retreat the surviving armies to an adjacent friendly territory": the loser decides (R8). */
static void test_retreat_decision_asked_of_loser(void **unused)
{
	json_t *s = retreat_board(3, 5), *n, *m, *ev, *p = NULL, *d = NULL;

	(void)unused;
	n = ne_step(s, rules, turn_orders("France", "[]"), win_faces, 5, NULL, 0, &ev);
	assert_string_equal(ne_phase(n), "retreat");
	assert_int_equal(NE->pending(&p, n, rules), 0);
	assert_string_equal(json_string_value(json_object_get(p, "kind")), "retreat");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "Allies");
	/* the default answer: the country holding most of its armies */
	assert_int_equal(NE->default_orders(&d, n, rules, "Allies"), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "to")), "Russia");
	m = ne_step(n, rules, turn_orders("Allies", "[{'type':'retreat','from':'Austria','to':'Prussia'}]"),
		    NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(m, "Prussia", "Allies"), 11);
	assert_int_equal(A(m, "Austria", "Allies"), 0);
	assert_string_equal(ne_controller(m, "Austria"), "France");
	/* the turn went on: the Allies' turn 2 awaits */
	assert_string_equal(ne_phase(m), "turn");
	assert_string_equal(json_string_value(json_object_get(m, "active")), "Allies");
	json_decref(p);
	json_decref(d);
	json_decref(ev);
	json_decref(n);
	json_decref(m);
	json_decref(s);
}

/* A standing retreat order, given in the Allies' own turn, answers the decision in advance. */
static void test_retreat_standing_order(void **unused)
{
	json_t *s = retreat_board(3, 5), *n;

	(void)unused;
	json_object_set_new(json_object_get(json_object_get(s, "standing"), "Allies"), "retreats",
			    J("{'Austria': 'Prussia'}"));
	n = ne_step(s, rules, turn_orders("France", "[]"), win_faces, 5, NULL, 0, NULL);
	assert_string_equal(ne_phase(n), "turn");
	assert_int_equal(A(n, "Prussia", "Allies"), 11);
	json_decref(n);
	json_decref(s);
}

/* R8 default: most of the loser's armies, then alphabetical (Prussia before Russia at 3 each). */
static void test_retreat_default_rule(void **unused)
{
	json_t *s = retreat_board(3, 3), *n, *d = NULL, *m;

	(void)unused;
	n = ne_step(s, rules, turn_orders("France", "[]"), win_faces, 5, NULL, 0, NULL);
	assert_int_equal(NE->default_orders(&d, n, rules, "Allies"), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "to")), "Prussia");
	/* a missed decision resolves with the default orders the engine passes */
	m = ne_step(n, rules, ne_orders_of("Allies", d), NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(m, "Prussia", "Allies"), 11);
	json_decref(d);
	json_decref(n);
	json_decref(m);
	json_decref(s);
}

/* "... or they are destroyed": no adjacent friendly country. */
static void test_retreat_impossible_destroys_survivors(void **unused)
{
	json_t *s = retreat_board(0, 0), *n, *ev;

	(void)unused;
	ne_put(s, "Prussia", 1, 0, "France");
	ne_put(s, "Russia", 0, 0, NULL);
	n = ne_step(s, rules, turn_orders("France", "[]"), win_faces, 5, NULL, 0, &ev);
	assert_int_equal(A(n, "Austria", "Allies"), 0);
	assert_non_null(strstr(ne_text(ev, "destroyed"), "Allies have no adjacent friendly country to retreat to from Austria: their 8 surviving armies are destroyed"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* R8: Allied armies never retreat into England; a country with enemy armies is no refuge either. */
static void test_retreat_never_into_england(void **unused)
{
	json_t *s = board(), *n, *ev;

	(void)unused;
	ne_put(s, "Spain", 10, 10, "France");
	ne_put(s, "Portugal", 1, 1, "Allies"); /* contested: not a refuge */
	ne_put(s, "England", 0, 5, "Allies");
	/* Spain: France 10+6 beats 10+1+1; then Portugal: France 1+6 beats 1+1+1 */
	{
		int faces[] = {6, 1, 1, 1, 1, 6, 1, 1, 1, 1};

		n = ne_step(s, rules, turn_orders("France", "[]"), faces, 10, NULL, 0, &ev);
	}
	/* England is friendly, free of enemies and reachable by sea, yet no refuge: destroyed */
	assert_int_equal(A(n, "England", "Allies"), 5);
	assert_int_equal(A(n, "Spain", "Allies"), 0);
	assert_non_null(strstr(ne_text(ev, "destroyed"), "from Spain"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* R5: control persists: an empty country stays with the side that last held it alone. */
static void test_control_persists(void **unused)
{
	json_t *s = board(), *n;

	(void)unused;
	ne_put(s, "Spain", 3, 0, "France");
	ne_put(s, "Portugal", 0, 0, "France");
	ne_put(s, "France", 5, 0, "France");
	n = ne_step(s, rules, turn_orders("France", "[{'type':'move','from':'Spain','to':'France','armies':3}]"),
		    NULL, 0, NULL, 0, NULL);
	/* Spain is empty but still French: it gives France its reinforcement */
	assert_string_equal(ne_controller(n, "Spain"), "France");
	assert_int_equal(A(n, "Spain", "France"), 1);
	assert_int_equal(A(n, "Portugal", "France"), 1);
	json_decref(n);
	json_decref(s);
}

/* "If you have one or more armies in a country, and your opponent has none, you control it." */
static void test_control_changes_on_entry(void **unused)
{
	json_t *s = board(), *n;

	(void)unused;
	json_object_set_new(s, "active", json_string("Allies"));
	ne_put(s, "England", 0, 4, "Allies");
	ne_put(s, "Portugal", 0, 0, "France");
	n = ne_step(s, rules, turn_orders("Allies", "[{'type':'move','from':'England','to':'Portugal','armies':4}]"),
		    NULL, 0, NULL, 0, NULL);
	assert_string_equal(ne_controller(n, "Portugal"), "Allies");
	/* and the Allies' Reinforcements Phase already counts it: 4 + 1 */
	assert_int_equal(A(n, "Portugal", "Allies"), 5);
	json_decref(n);
	json_decref(s);
}

/* R9: several battles are fought in the order of the seed's map table (Austria before Spain). */
static void test_battle_order_follows_map_table(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {6, 1, 6, 6, 6, 6, 1, 6, 6, 6};

	(void)unused;
	ne_put(s, "Spain", 2, 1, "France");
	ne_put(s, "Austria", 2, 1, "Allies");
	n = ne_step(s, rules, turn_orders("France", "[]"), faces, 10, NULL, 0, &ev);
	assert_non_null(strstr(json_string_value(json_object_get(json_array_get(ev, 0), "text")), "Battle in Austria"));
	assert_int_equal(rules_event_count(ev, "battle"), 2);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * "The defender has a Force bonus +1" decides a battle of equal forces:
 * France attacks Austria with 5 against 5 and both roll 3: France 5 + 3 = 8,
 * Allies 5 + 1 + 3 = 9, the Allies win. Winner's casualties: 1d6 = 3, 30% of
 * 5 = 1.5, rounded down 1. Loser's: 2d6 = 1 + 2 = 3, 30% of 5 = 1.5, rounded
 * down 1; France's 4 survivors retreat to the Rhineland, its one adjacent
 * friendly country (Italy is made Allied here), though they moved from
 * there this turn: a retreat is no move (RULINGS.md R29), and the empty
 * Rhineland is still French (R5).
 */
static void test_defender_bonus_breaks_equal_forces(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {3, 3, 3, 1, 2};

	(void)unused;
	ne_put(s, "Austria", 0, 5, "Allies");
	ne_put(s, "Rhineland", 5, 0, "France");
	ne_put(s, "Italy", 0, 0, "Allies");
	n = ne_step(s, rules, turn_orders("France", "[{'type':'move','from':'Rhineland','to':'Austria','armies':5}]"),
		    faces, 5, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"),
			    "Battle in Austria: France 5 armies + 1d6 (3) = 8; "
			    "Allies 5 armies + 1 defender + 1d6 (3) = 9; Allies win");
	assert_string_equal(ne_text(ev, "casualties"),
			    "Casualties in Austria: Allies (winner, 5 armies) roll 1d6 (3) x 10% = 1 lost; "
			    "France (loser, 5 armies) rolls 2d6 (1+2=3) x 10% = 1 lost");
	assert_int_equal(A(n, "Austria", "Allies"), 4);
	assert_int_equal(A(n, "Austria", "France"), 0);
	/* 4 survivors + the Rhineland's own 2 reinforcements of France's turn */
	assert_int_equal(A(n, "Rhineland", "France"), 4 + 2);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * "(Round Down)" on both sides: France 7 + 6 = 13 beats Allies 5 + 1 + 1 = 7.
 * Winner: 1d6 = 3, 30% of 7 = 2.1, 2 lost. Loser: 2d6 = 3 + 4 = 7, 70% of 5 =
 * 3.5, 3 lost; the 2 survivors retreat to Prussia (Russia made neutral).
 */
static void test_casualties_round_down(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {6, 1, 3, 3, 4};

	(void)unused;
	ne_put(s, "Austria", 7, 5, "Allies");
	ne_put(s, "Russia", 0, 0, NULL);
	n = ne_step(s, rules, turn_orders("France", "[]"), faces, 5, NULL, 0, &ev);
	assert_non_null(strstr(ne_text(ev, "casualties"), "France (winner, 7 armies) rolls 1d6 (3) x 10% = 2 lost"));
	assert_non_null(strstr(ne_text(ev, "casualties"), "Allies (loser, 5 armies) roll 2d6 (3+4=7) x 10% = 3 lost"));
	assert_int_equal(A(n, "Austria", "France"), 5);
	assert_int_equal(A(n, "Prussia", "Allies"), 2);
	assert_string_equal(ne_controller(n, "Austria"), "France");
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * "The winner cannot take more casualties than the loser had armies x2":
 * the loser's armies as the battle began, not its survivors (RULINGS.md R30). France 9 + 6
 * beats Allies 2 + 1 + 1; the winner's 1d6 = 6 would be 5 (54% of 9 rounds
 * down to 5), capped at 2 x 2 = 4 even though the loser (2d6 = 6 + 6, all
 * destroyed) ends with none.
 */
static void test_winner_cap_counts_loser_armies_before_battle(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {6, 1, 6, 6, 6};

	(void)unused;
	ne_put(s, "Austria", 9, 2, "Allies");
	n = ne_step(s, rules, turn_orders("France", "[]"), faces, 5, NULL, 0, &ev);
	assert_non_null(strstr(ne_text(ev, "casualties"),
			       "France (winner, 9 armies) rolls 1d6 (6) x 10% = 4 lost (capped at twice the loser's armies)"));
	assert_int_equal(A(n, "Austria", "France"), 5);
	assert_int_equal(A(n, "Austria", "Allies"), 0);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* RULINGS.md R10: a battle card named for a country where no battle takes place stays in the hand. */
static void test_card_for_no_battle_is_kept(void **unused)
{
	json_t *s = board(), *n, *ev;

	(void)unused;
	ne_put(s, "Austria", 0, 5, "Allies");
	ne_put(s, "Rhineland", 3, 0, "France");
	ne_hand_set(s, "France", "austerlitz", NULL);
	n = ne_step(s, rules, turn_orders("France", "[{'type':'play','card':'austerlitz','country':'Austria'}]"),
		    NULL, 0, NULL, 0, &ev);
	assert_null(ne_find(ev, "battle"));
	assert_string_equal(ne_text(ev, "card-kept"), "France keeps Austerlitz: there is no battle in Austria");
	/* still in France's hand, not in the discard pile */
	assert_int_equal(ne_hand_index(n, "France", "austerlitz"), 0);
	assert_false(est_rules_in_list(json_object_get(n, "discard"), "austerlitz"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * "must retreat ... to an adjacent friendly territory": the Ottoman Empire,
 * though on Russia's border, is never a refuge ("may not be entered"), nor
 * is a neutral country (Warsaw, R4). France 6 + 6 beats Allies 3 + 1 + 1 in
 * Russia; the Allies lose 2d6 = 1 + 1 = 20% of 3 = 0; with Prussia and
 * Austria French, Sweden and Warsaw neutral, the 3 survivors are destroyed.
 */
static void test_retreat_never_into_ottoman_or_neutral(void **unused)
{
	json_t *s = board(), *n, *ev;
	int faces[] = {6, 1, 1, 1, 1};

	(void)unused;
	ne_put(s, "Russia", 6, 3, "Allies");
	ne_put(s, "Prussia", 1, 0, "France");
	ne_put(s, "Austria", 1, 0, "France");
	ne_put(s, "Sweden", 0, 0, NULL);
	ne_put(s, "Warsaw", 0, 0, NULL);
	n = ne_step(s, rules, turn_orders("France", "[]"), faces, 5, NULL, 0, &ev);
	assert_non_null(strstr(ne_text(ev, "destroyed"), "from Russia: their 3 surviving armies are destroyed"));
	assert_int_equal(A(n, "Ottoman Empire", "Allies"), 0);
	assert_null(ne_controller(n, "Ottoman Empire"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_force_with_defender_and_card_bonus),
		cmocka_unit_test(test_tie_both_roll_again),
		cmocka_unit_test(test_casualties_worked_example),
		cmocka_unit_test(test_winner_losses_capped_at_twice_loser),
		cmocka_unit_test(test_retreat_decision_asked_of_loser),
		cmocka_unit_test(test_retreat_standing_order),
		cmocka_unit_test(test_retreat_default_rule),
		cmocka_unit_test(test_retreat_impossible_destroys_survivors),
		cmocka_unit_test(test_retreat_never_into_england),
		cmocka_unit_test(test_control_persists),
		cmocka_unit_test(test_control_changes_on_entry),
		cmocka_unit_test(test_battle_order_follows_map_table),
		cmocka_unit_test(test_defender_bonus_breaks_equal_forces),
		cmocka_unit_test(test_casualties_round_down),
		cmocka_unit_test(test_winner_cap_counts_loser_armies_before_battle),
		cmocka_unit_test(test_card_for_no_battle_is_kept),
		cmocka_unit_test(test_retreat_never_into_ottoman_or_neutral),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
