/*
 * Napoleonic Empire, TURN SEQUENCE, DRAW PHASE, REINFORCEMENTS PHASE,
 * NATIONALIST MOVEMENTS and VICTORY, and a full scripted cycle of steps
 * through resolve() (seeds/napoleonic-empire.txt; RULINGS.md).
 */
#include "ne_helpers.h"

static json_t *rules;

static json_t *orders(const char *side, const char *items)
{
	json_t *o = json_object();

	json_object_set_new(o, side, J(items));
	return o;
}

static const char *pending_kind(const json_t *s, json_t **p)
{
	json_decref(*p);
	*p = NULL;
	assert_int_equal(NE->pending(p, s, rules), 0);
	return json_string_value(json_object_get(*p, "kind"));
}

/* "Draw 2 cards from the Deck": at the end of France's turn the Allies draw the next two. */
static void test_draw_phase_draws_two(void **unused)
{
	json_t *s = ne_started(rules), *n, *ev;
	const json_t *secret;

	(void)unused;
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, &ev);
	assert_int_equal(json_array_size(ne_hand(n, "Allies")), 2);
	assert_string_equal(json_string_value(json_array_get(ne_hand(n, "Allies"), 0)), "battle-of-the-nile");
	assert_string_equal(ne_text(ev, "draw"), "Allies draw 2 cards");
	secret = ne_find(ev, "draw-cards");
	assert_string_equal(json_string_value(json_object_get(secret, "text")), "Allies draw Battle of the Nile, Austerlitz");
	assert_string_equal(json_string_value(json_array_get(json_object_get(secret, "visible_to"), 0)), "Allies");
	assert_null(json_object_get(ne_find(ev, "draw"), "visible_to"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* "You may have a maximum of 7 cards"; "Excess cards must be discarded face down into the discard pile." */
static void test_hand_limit_discard(void **unused)
{
	json_t *s = ne_started(rules), *d = NULL, *diag = NULL, *n, *ev, *none = J("[]");

	(void)unused;
	ne_hand_set(s, "France", "toulon", "jena", "friedland", "conscription", "josephine",
		    "trafalgar", "louis-berthier", "the-little-corporal", "artillery-tactics", NULL);
	/* as the Draw Phase leaves it: the defaults are computed when the step opens */
	assert_int_equal(ne_set_defaults(s, rules), 0);
	/* no discard: refused, naming the rule */
	assert_int_equal(NE->validate(&diag, s, rules, "France", none), EST_EINVAL);
	json_decref(none);
	assert_string_equal(json_string_value(json_object_get(json_array_get(diag, 0), "rule")), "Napoleonic Empire, Draw Phase");
	json_decref(diag);
	/* default orders discard the two oldest cards */
	assert_int_equal(NE->default_orders(&d, s, rules, "France"), 0);
	assert_int_equal(json_array_size(d), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "card")), "toulon");
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 1), "card")), "jena");
	assert_int_equal(NE->validate(&diag, s, rules, "France", d), 0);
	n = ne_step(s, rules, ne_orders_of("France", d), NULL, 0, NULL, 0, &ev);
	assert_int_equal(json_array_size(ne_hand(n, "France")), 7);
	assert_true(est_rules_in_list(json_object_get(n, "discard"), "toulon"));
	assert_int_equal(rules_event_count(ev, "discard"), 2);
	assert_non_null(json_object_get(ne_find(ev, "discard-card"), "visible_to"));
	json_decref(d);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* "If the deck runs out, shuffle the discard pile and continue drawing from it" (hidden stream). */
static void test_reshuffle_when_deck_runs_out(void **unused)
{
	json_t *s = ne_started(rules), *n, *ev;
	int hid[] = {3, 2};

	(void)unused;
	json_object_set_new(s, "deck", J("['jena']"));
	json_object_set_new(s, "discard", J("['toulon', 'friedland', 'josephine']"));
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, hid, 2, &ev);
	assert_int_equal(json_array_size(ne_hand(n, "Allies")), 2);
	assert_string_equal(json_string_value(json_array_get(ne_hand(n, "Allies"), 0)), "jena");
	assert_string_equal(json_string_value(json_array_get(ne_hand(n, "Allies"), 1)), "toulon");
	assert_int_equal(json_array_size(json_object_get(n, "deck")), 2);
	assert_int_equal(json_array_size(json_object_get(n, "discard")), 0);
	assert_non_null(strstr(ne_text(ev, "shuffle"), "discard pile is shuffled"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* REINFORCEMENTS table: France holds France 4, Rhineland 2 and eight countries of 1: 14 armies. */
static void test_reinforcements_table(void **unused)
{
	json_t *s = ne_started(rules), *n;

	(void)unused;
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);
	assert_int_equal(ne_on_map(n, "France"), 54);
	assert_int_equal(A(n, "France", "France"), 24);
	assert_int_equal(A(n, "Rhineland", "France"), 6);
	assert_int_equal(A(n, "Egypt", "France"), 3);
	/* the Allies do not reinforce in France's turn */
	assert_int_equal(ne_on_map(n, "Allies"), 40);
	json_decref(n);
	json_decref(s);
}

/* "France can never receive reinforcements from Prussia, Russia, or Austria." */
static void test_france_never_reinforced_from_prussia_russia_austria(void **unused)
{
	json_t *s = ne_started(rules), *n;

	(void)unused;
	ne_clear(s, rules);
	ne_put(s, "Prussia", 1, 0, "France");
	ne_put(s, "Russia", 1, 0, "France");
	ne_put(s, "Austria", 1, 0, "France");
	ne_put(s, "Warsaw", 1, 0, "France");
	ne_put(s, "France", 0, 0, "Allies");
	ne_put(s, "Rhineland", 0, 0, "Allies");
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(n, "Prussia", "France"), 1);
	assert_int_equal(A(n, "Russia", "France"), 1);
	assert_int_equal(A(n, "Austria", "France"), 1);
	assert_int_equal(A(n, "Warsaw", "France"), 2);
	json_decref(n);
	json_decref(s);
}

/* "Each side has 80 counters": with 78 on the map only 2 more can be placed (R11). */
static void test_reinforcements_stop_at_80_counters(void **unused)
{
	json_t *s = ne_started(rules), *n, *ev;

	(void)unused;
	ne_put(s, "France", 58, 0, "France"); /* 40 - 20 + 58 = 78 */
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, &ev);
	assert_int_equal(ne_on_map(n, "France"), 80);
	assert_int_equal(A(n, "France", "France"), 60);
	assert_int_equal(A(n, "Rhineland", "France"), 4);
	assert_non_null(strstr(ne_text(ev, "reinforcements"), "places 2 of 4 armies in France"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

static json_t *allied_turn(void)
{
	json_t *s = ne_started(rules), *n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);

	json_decref(s);
	return n;
}

/* NATIONALIST MOVEMENTS: 2 rebel armies in Spain "even if France occupies the country". */
static void test_rebels_in_french_spain(void **unused)
{
	json_t *s = allied_turn(), *n, *ev;

	(void)unused;
	n = ne_step(s, rules, orders("Allies", "[{'type':'rebels','country':'Spain'}]"), NULL, 0, NULL, 0, &ev);
	assert_int_equal(A(n, "Spain", "Allies"), 2);
	assert_int_equal(A(n, "Spain", "France"), 3);
	assert_true(ne_contested(n, "Spain"));
	/* control persists with France until a battle decides (R5) */
	assert_string_equal(ne_controller(n, "Spain"), "France");
	/* 40 + England 3 + Russia 3 + Austria 2 + Prussia 2 + 2 rebels */
	assert_int_equal(ne_on_map(n, "Allies"), 52);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/* VICTORY: "The Allies win if they control France at the end of their turn." */
static void test_allies_win_holding_france(void **unused)
{
	json_t *s = allied_turn(), *n, *p = NULL, *v = NULL;

	(void)unused;
	ne_put(s, "France", 0, 0, "France");
	ne_put(s, "England", 0, 10, "Allies");
	n = ne_step(s, rules, orders("Allies", "[{'type':'move','from':'England','to':'France','armies':10}]"),
		    NULL, 0, NULL, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(n, "winner")), "Allies");
	assert_string_equal(pending_kind(n, &p), "over");
	assert_string_equal(json_string_value(json_object_get(p, "mode")), "over");
	assert_int_equal(NE->view(&v, n, rules, NULL), 0);
	assert_true(json_is_true(json_object_get(v, "over")));
	json_decref(v);
	json_decref(p);
	json_decref(n);
	json_decref(s);
}

/* VICTORY: "The French win if they control all continental countries at the end of their turn" (R16). */
static void test_french_win_all_continental(void **unused)
{
	json_t *s = ne_started(rules), *n, *m;
	size_t i;

	(void)unused;
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i);

		if (strcmp(c, "England") && strcmp(c, "Egypt") && strcmp(c, "Ottoman Empire"))
			ne_put(s, c, 1, 0, "France");
	}
	ne_put(s, "Sweden", 0, 0, NULL);
	ne_put(s, "Denmark", 3, 0, "France");
	/* Sweden still neutral: no victory */
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);
	assert_true(json_is_null(json_object_get(n, "winner")));
	json_decref(n);
	/* take Sweden: victory (Egypt may be lost, England untouched) */
	ne_put(s, "Egypt", 0, 1, "Allies");
	m = ne_step(s, rules, orders("France", "[{'type':'move','from':'Denmark','to':'Sweden','armies':1}]"),
		    NULL, 0, NULL, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(m, "winner")), "France");
	assert_string_equal(ne_phase(m), "over");
	json_decref(m);
	json_decref(s);
}

/* Son of the Revolution: "The French may take an extra turn without reinforcements" (R20). */
static void test_extra_turn_without_reinforcements(void **unused)
{
	json_t *s = ne_started(rules), *n, *m, *ev;

	(void)unused;
	ne_hand_set(s, "France", "son-of-the-revolution", NULL);
	n = ne_step(s, rules, orders("France", "[{'type':'play','card':'son-of-the-revolution'}]"),
		    NULL, 0, NULL, 0, NULL);
	/* the normal turn reinforces: 40 + 14 */
	assert_int_equal(ne_on_map(n, "France"), 54);
	assert_string_equal(json_string_value(json_object_get(n, "active")), "France");
	assert_true(json_is_true(json_object_get(n, "extra")));
	assert_int_equal(json_integer_value(json_object_get(n, "turn")), 2);
	/* the extra turn has a Draw Phase ... */
	assert_int_equal(json_array_size(ne_hand(n, "France")), 2);
	m = ne_step(n, rules, orders("France", "[]"), NULL, 0, NULL, 0, &ev);
	/* ... but no Reinforcements Phase */
	assert_int_equal(ne_on_map(m, "France"), 54);
	assert_non_null(strstr(ne_text(ev, "reinforcements"), "no reinforcements: this was an extra turn"));
	assert_string_equal(json_string_value(json_object_get(m, "active")), "Allies");
	assert_false(json_is_true(json_object_get(m, "extra")));
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/* Each player sees only its own hand; others see hand sizes; nobody sees the deck order. */
static void test_view_hides_other_hand_and_deck(void **unused)
{
	json_t *s = allied_turn(), *f = NULL, *a = NULL, *p = NULL;
	char *pub;

	(void)unused;
	assert_int_equal(NE->view(&f, s, rules, "France"), 0);
	assert_int_equal(NE->view(&a, s, rules, "Allies"), 0);
	assert_int_equal(NE->view(&p, s, rules, NULL), 0);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(f, "hand"), 0), "id")), "toulon");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(a, "hand"), 0), "id")), "battle-of-the-nile");
	assert_null(json_object_get(p, "hand"));
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(p, "sides"), 1), "hand")), 2);
	assert_int_equal(json_integer_value(json_object_get(p, "deck_count")), 28);
	pub = json_dumps(p, 0);
	assert_null(strstr(pub, "toulon"));
	assert_null(strstr(pub, "jena")); /* the next card of the deck */
	free(pub);
	pub = json_dumps(f, 0);
	assert_null(strstr(pub, "battle-of-the-nile"));
	assert_null(strstr(pub, "jena"));
	free(pub);
	json_decref(f);
	json_decref(a);
	json_decref(p);
	json_decref(s);
}

/*
 * A full cycle with pending() at each step: set-up (automatic), start,
 * France's turn, the Allies' landing in Italy, the battle-cards step (France
 * defends with Italian Campaign), the French retreat decision, France's
 * next turn.
 */
static void test_full_scripted_cycle(void **unused)
{
	json_t *s0 = NULL, *s1, *s2, *s3, *s4, *s5, *p = NULL, *o, *ev;
	int hid[31], battle[] = {1, 6, 1, 1, 1};

	(void)unused;
	assert_int_equal(NE->setup(&s0, rules, NULL), 0);
	assert_string_equal(pending_kind(s0, &p), "start");
	ne_identity_shuffle(hid, 32);
	s1 = ne_step(s0, rules, json_object(), NULL, 0, hid, 31, NULL);
	assert_string_equal(pending_kind(s1, &p), "turn");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "France");

	o = orders("France", "[{'type':'move','from':'Rhineland','to':'Switzerland','armies':1}]");
	s2 = ne_step(s1, rules, o, NULL, 0, NULL, 0, NULL);
	assert_string_equal(pending_kind(s2, &p), "turn");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "Allies");
	assert_int_equal(A(s2, "Switzerland", "France"), 4); /* 2 + 1 moved + 1 reinforcement */

	o = orders("Allies", "[{'type':'move','from':'England','to':'Italy','armies':10}]");
	s3 = ne_step(s2, rules, o, NULL, 0, NULL, 0, NULL);
	assert_string_equal(pending_kind(s3, &p), "battle-cards");
	assert_string_equal(json_string_value(json_object_get(p, "mode")), "simultaneous");
	/* RULINGS.md R10: only France holds a card it may play here, so only France is asked. */
	assert_int_equal(json_array_size(json_object_get(p, "powers")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "France");
	assert_string_equal(json_string_value(json_object_get(p, "prompt")),
			    "France: play battle cards (or none) for the battles in Italy");

	o = J("{'France': [{'type':'play','card':'italian-campaign','country':'Italy'}]}");
	s4 = ne_step(s3, rules, o, battle, 5, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"), "Battle in Italy: France 3 armies + 2 Italian Campaign + 1 defender "
			    "+ 1d6 (1) = 7; Allies 10 armies + 1d6 (6) = 16; Allies win");
	assert_string_equal(pending_kind(s4, &p), "retreat");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "France");
	json_decref(ev);

	o = orders("France", "[{'type':'retreat','from':'Italy','to':'Naples'}]");
	s5 = ne_step(s4, rules, o, NULL, 0, NULL, 0, &ev);
	assert_int_equal(A(s5, "Naples", "France"), 3 + 3);
	assert_string_equal(ne_controller(s5, "Italy"), "Allies");
	/* Allied reinforcements: England 3, Russia 3, Austria 2, Prussia 2, Italy 1 */
	assert_int_equal(A(s5, "Italy", "Allies"), 9 + 1);
	assert_string_equal(pending_kind(s5, &p), "turn");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "France");
	assert_int_equal(json_integer_value(json_object_get(s5, "turn")), 3);
	json_decref(ev);
	json_decref(p);
	json_decref(s0);
	json_decref(s1);
	json_decref(s2);
	json_decref(s3);
	json_decref(s4);
	json_decref(s5);
}

/*
 * An "armies" count beyond int is compared as written, not narrowed:
 * -4294967295 (which narrows to 1) moves nothing, 4294967297 (also 1)
 * moves every French army in the Rhineland (a count above those present
 * moves all of them).
 */
static void test_move_count_not_narrowed(void **unused)
{
	json_t *s = ne_started(rules), *n, *ev;

	(void)unused;
	n = ne_step(s, rules, orders("France", "[{'type':'move','from':'Rhineland','to':'Switzerland',"
				       "'armies':-4294967295}]"), NULL, 0, NULL, 0, &ev);
	assert_null(ne_find(ev, "move"));
	assert_int_equal(A(n, "Rhineland", "France"), 4 + 2); /* + its reinforcements */
	json_decref(n);
	json_decref(ev);
	n = ne_step(s, rules, orders("France", "[{'type':'move','from':'Rhineland','to':'Switzerland',"
				       "'armies':4294967297}]"), NULL, 0, NULL, 0, &ev);
	assert_int_equal(json_integer_value(json_object_get(ne_find(ev, "move"), "armies")), 4);
	assert_string_equal(ne_text(ev, "move"), "France moves 4 armies from Rhineland to Switzerland");
	assert_int_equal(A(n, "Switzerland", "France"), 2 + 4 + 1);
	json_decref(n);
	json_decref(ev);
	json_decref(s);
}

/*
 * NATIONALIST MOVEMENTS, then the ATTACK PHASE of France's next turn
 * (RULINGS.md R21): the rebels in French Spain are fought with France
 * attacking and the Allies defending. France 3 + 1d6 (4) = 7 beats Allies
 * 2 + 1 defender + 1d6 (1) = 4; France loses 10% x 3 = 0, the Allies 2d6 =
 * 2, 20% of 2 = 0; no adjacent Allied country (France and Portugal are
 * French): the 2 rebels are destroyed.
 */
static void test_rebels_fought_in_next_french_turn(void **unused)
{
	json_t *s = allied_turn(), *n, *m, *ev;
	int faces[] = {4, 1, 1, 1, 1};

	(void)unused;
	n = ne_step(s, rules, orders("Allies", "[{'type':'rebels','country':'Spain'}]"), NULL, 0, NULL, 0, NULL);
	m = ne_step(n, rules, orders("France", "[]"), faces, 5, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"), "Battle in Spain: France 3 armies + 1d6 (4) = 7; "
			    "Allies 2 armies + 1 defender + 1d6 (1) = 4; France wins");
	assert_non_null(strstr(ne_text(ev, "destroyed"), "from Spain: their 2 surviving armies are destroyed"));
	assert_int_equal(A(m, "Spain", "Allies"), 0);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/* "Each side has 80 counters" holds for rebels too (R11): 79 Allied armies on the map leave 1 of the 2. */
static void test_rebels_stop_at_80_counters(void **unused)
{
	json_t *s = allied_turn(), *n, *ev;

	(void)unused;
	ne_clear(s, rules);
	ne_put(s, "England", 0, 76, "Allies");
	ne_put(s, "Russia", 0, 0, NULL);
	ne_put(s, "Austria", 0, 0, NULL);
	ne_put(s, "Prussia", 0, 0, NULL);
	/* England gives 3 (79 on the map), then the rebels find 1 counter left */
	n = ne_step(s, rules, orders("Allies", "[{'type':'rebels','country':'Spain'}]"), NULL, 0, NULL, 0, &ev);
	assert_int_equal(A(n, "England", "Allies"), 79);
	assert_int_equal(A(n, "Spain", "Allies"), 1);
	assert_int_equal(ne_on_map(n, "Allies"), 80);
	assert_string_equal(ne_controller(n, "Spain"), "Allies");
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * "The Allies win if they control France at the end of their turn", not at
 * the end of France's (R26); "The French win ... at the end of their turn",
 * not at the end of the Allies'.
 */
static void test_victory_only_at_end_of_own_turn(void **unused)
{
	json_t *f = ne_started(rules), *a = allied_turn(), *n, *m;
	size_t i;

	(void)unused;
	/* France's turn ends with the Allies holding France: nobody wins yet */
	ne_put(f, "France", 0, 3, "Allies");
	n = ne_step(f, rules, orders("France", "[]"), NULL, 0, NULL, 0, NULL);
	assert_true(json_is_null(json_object_get(n, "winner")));
	assert_string_equal(ne_phase(n), "turn");
	/* the Allies' turn ends with France holding every continental country: nobody wins */
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i);

		if (strcmp(c, "England") && strcmp(c, "Egypt") && strcmp(c, "Ottoman Empire"))
			ne_put(a, c, 1, 0, "France");
	}
	m = ne_step(a, rules, orders("Allies", "[]"), NULL, 0, NULL, 0, NULL);
	assert_true(json_is_null(json_object_get(m, "winner")));
	assert_string_equal(json_string_value(json_object_get(m, "active")), "France");
	json_decref(m);
	json_decref(n);
	json_decref(a);
	json_decref(f);
}

/* R24: with deck and discard pile both empty, fewer cards are drawn (here none). */
static void test_draw_from_empty_deck_and_discard(void **unused)
{
	json_t *s = ne_started(rules), *n, *ev;

	(void)unused;
	json_object_set_new(s, "deck", J("['jena']"));
	json_object_set_new(s, "discard", json_array());
	n = ne_step(s, rules, orders("France", "[]"), NULL, 0, NULL, 0, &ev);
	assert_int_equal(json_array_size(ne_hand(n, "Allies")), 1);
	assert_string_equal(ne_text(ev, "draw"), "Allies draw 1 card");
	assert_null(ne_find(ev, "shuffle"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * RULINGS.md R35: rebels placed in a turn that the Allies follow with an
 * extra turn are fought in that extra turn's Attack Phase, the Allies
 * attacking and France defending (R6). Spain: France 3 + 1 defender + 1d6
 * (1) = 5, Allies 2 + 1d6 (6) = 8, the Allies win; the Allies lose 10% x 2
 * = 0, France 2d6 = 2, 20% of 3 = 0; France's 3 survivors may go to France
 * or Portugal, so France is asked where.
 */
static void test_rebels_fought_in_allied_extra_turn(void **unused)
{
	json_t *s = allied_turn(), *n, *m, *ev, *p = NULL;
	int faces[] = {1, 6, 1, 1, 1};

	(void)unused;
	ne_hand_set(s, "Allies", "czar-alexander-i", NULL);
	n = ne_step(s, rules, orders("Allies", "[{'type':'play','card':'czar-alexander-i'},"
				     "{'type':'rebels','country':'Spain'}]"), NULL, 0, NULL, 0, NULL);
	assert_true(json_is_true(json_object_get(n, "extra")));
	assert_string_equal(json_string_value(json_object_get(n, "active")), "Allies");
	m = ne_step(n, rules, orders("Allies", "[]"), faces, 5, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "battle"), "Battle in Spain: France 3 armies + 1 defender + 1d6 (1) = 5; "
			    "Allies 2 armies + 1d6 (6) = 8; Allies win");
	assert_string_equal(pending_kind(m, &p), "retreat");
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), "France");
	json_decref(p);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draw_phase_draws_two),
		cmocka_unit_test(test_move_count_not_narrowed),
		cmocka_unit_test(test_hand_limit_discard),
		cmocka_unit_test(test_reshuffle_when_deck_runs_out),
		cmocka_unit_test(test_reinforcements_table),
		cmocka_unit_test(test_france_never_reinforced_from_prussia_russia_austria),
		cmocka_unit_test(test_reinforcements_stop_at_80_counters),
		cmocka_unit_test(test_rebels_in_french_spain),
		cmocka_unit_test(test_allies_win_holding_france),
		cmocka_unit_test(test_french_win_all_continental),
		cmocka_unit_test(test_extra_turn_without_reinforcements),
		cmocka_unit_test(test_view_hides_other_hand_and_deck),
		cmocka_unit_test(test_full_scripted_cycle),
		cmocka_unit_test(test_rebels_fought_in_next_french_turn),
		cmocka_unit_test(test_rebels_stop_at_80_counters),
		cmocka_unit_test(test_victory_only_at_end_of_own_turn),
		cmocka_unit_test(test_draw_from_empty_deck_and_discard),
		cmocka_unit_test(test_rebels_fought_in_allied_extra_turn),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
