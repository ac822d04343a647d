/*
 * Napoleonic Empire's options (README.md "Options"): the designers'
 * multiplayer variant, "the major countries of the Allies can be divvied
 * up" (GAME DESIGNERS NOTES; RULINGS.md R36-R38), and control=lapses, the
 * other reading of "If you have one or more armies in a country, and your
 * opponent has none, you control it" (REINFORCEMENTS PHASE; R5, R5a).
 */
#include "ne_helpers.h"

static json_t *rules;

/* The state after set-up with `options` and step 1 (deck in card-list order): France's turn 1. */
static json_t *started_with(json_t *options)
{
	json_t *s0 = NULL, *s1;
	int faces[31];

	if (NE->setup(&s0, rules, options) < 0)
		fail_msg("setup: %s", est_error_message());
	json_decref(options);
	ne_identity_shuffle(faces, 32);
	s1 = ne_step(s0, rules, json_object(), NULL, 0, faces, 31, NULL);
	json_decref(s0);
	return s1;
}

/* A game of `players` players as `new` deals it (no "powers" in the players file). */
static json_t *dealt(size_t players)
{
	json_t *held = NULL;

	assert_int_equal(NE->deal(&held, players), 0);
	return json_pack("{s:o}", "players", held);
}

/* France's turn 1 with no orders: the Allies' turn 2 opens (they draw Battle of the Nile, Austerlitz). */
static json_t *allied_turn_of(json_t *options)
{
	json_t *s = started_with(options), *n;

	n = ne_step(s, rules, J("{'France': []}"), NULL, 0, NULL, 0, NULL);
	json_decref(s);
	assert_string_equal(json_string_value(json_object_get(n, "active")), "Allies");
	return n;
}

static json_t *awaited_of(const json_t *state)
{
	json_t *p = NULL, *powers;

	assert_int_equal(NE->pending(&p, state, rules), 0);
	powers = json_incref(json_object_get(p, "powers"));
	json_decref(p);
	return powers;
}

static void assert_awaits(const json_t *state, const char *want)
{
	json_t *powers = awaited_of(state), *w = J(want);

	if (!json_equal(powers, w))
		fail_msg("awaited %s, wanted %s", json_dumps(powers, 0), want);
	json_decref(powers);
	json_decref(w);
}

/* A refusal of order `index` on `field` under the Game Designers Notes, its message holding `want`. */
static void refused_with(const json_t *state, const char *power, const char *items, int index,
			 const char *field, const char *want)
{
	ne_refused(state, rules, power, items, index, field, "Game Designers Notes", want);
}

static void accepted(const json_t *state, const char *power, const char *items)
{
	rules_valid(NE, state, rules, power, items);
}

/*
 * Three players as `new` deals them: France; England and Prussia; Russia
 * and Austria (R38). The Allied turn awaits both Allied players, each
 * under his first power, side by side; France's turn awaits France alone.
 */
static void test_three_players(void **unused)
{
	json_t *s = started_with(dealt(3)), *a;
	json_t *want = J("[['England','Prussia'],['Russia','Austria']]");

	assert_true(json_equal(json_object_get(s, "allied_players"), want));
	json_decref(want);
	(void)unused;
	assert_awaits(s, "['France']");
	a = allied_turn_of(dealt(3));
	assert_awaits(a, "['England','Russia']");
	/* The Allied hand is the keeper's own part: England's (R36). */
	assert_non_null(json_object_get(json_object_get(a, "hands"), "England"));
	assert_null(json_object_get(json_object_get(a, "hands"), "Allies"));
	accepted(a, "England", "[{'type':'move','from':'England','to':'Spain','armies':3},"
		 "{'type':'move','from':'Prussia','to':'Warsaw','armies':2},{'type':'rebels','country':'Spain'}]");
	accepted(a, "Russia", "[{'type':'move','from':'Russia','to':'Warsaw','armies':2},"
		 "{'type':'move','from':'Austria','to':'Italy','armies':4}]");
	json_decref(s);
	json_decref(a);
}

/* Five players: France and one player for each Allied country; the Allied turn awaits all four. */
static void test_five_players(void **unused)
{
	json_t *a = allied_turn_of(dealt(5)), *p = NULL;

	(void)unused;
	assert_awaits(a, "['England','Russia','Prussia','Austria']");
	assert_int_equal(NE->pending(&p, a, rules), 0);
	assert_string_equal(json_string_value(json_object_get(p, "mode")), "simultaneous");
	json_decref(p);
	json_decref(a);
}

/*
 * R37: each Allied player moves the Allied armies in the countries his
 * powers command, and only those; R36: cards, rebels and standing orders
 * are the player holding England's. Each refusal names who may order it.
 */
static void test_other_players_country_refused(void **unused)
{
	json_t *a = allied_turn_of(dealt(3));

	(void)unused;
	refused_with(a, "Russia", "[{'type':'move','from':'England','to':'Spain','armies':3}]", 0, "from",
		     "moved by the player holding England, not by the player holding Russia");
	refused_with(a, "England", "[{'type':'move','from':'Austria','to':'Italy','armies':3}]", 0, "from",
		     "moved by the player holding Austria, not by the player holding England");
	/* the power that commands there is named, not the first power its player holds */
	refused_with(a, "Russia", "[{'type':'move','from':'Prussia','to':'Warsaw','armies':3}]", 0, "from",
		     "moved by the player holding Prussia, not by the player holding Russia");
	refused_with(a, "Russia", "[{'type':'rebels','country':'Russia'}]", 0, "type", "holding England keeps");
	refused_with(a, "Russia", "[{'type':'play','card':'battle-of-the-nile','country':'Egypt'}]", 0, "type",
		     "holding England keeps");
	/* Prussia and Austria are held, but each player orders under his first power only. */
	{
		json_t *diag = NULL, *none = json_array();
		assert_int_equal(NE->validate(&diag, a, rules, "Prussia", none), EST_EINVAL);
		assert_non_null(strstr(json_string_value(json_object_get(json_array_get(diag, 0), "message")),
				       "does not await orders from Prussia"));
		json_decref(diag);
		json_decref(none);
	}
	json_decref(a);
}

/*
 * One Allied turn of three players: both players' moves are made, from the
 * positions at the start of the turn (R17), and the Reinforcements Phase
 * places the table in every Allied country whoever commands it (R38); the
 * Allied draw is seen by England's player only (R36).
 */
static void test_allied_turn_resolved(void **unused)
{
	json_t *s = started_with(dealt(3)), *a, *n, *ev = NULL, *keeper = J("['England']");

	(void)unused;
	a = ne_step(s, rules, J("{'France': []}"), NULL, 0, NULL, 0, &ev);
	assert_true(json_equal(json_object_get(ne_find(ev, "draw-cards"), "visible_to"), keeper));
	json_decref(keeper);
	json_decref(ev);
	n = ne_step(a, rules, J("{'England': [{'type':'move','from':'England','to':'Sweden','armies':3},"
				"{'type':'rebels','country':'Russia'}],"
				"'Russia': [{'type':'move','from':'Russia','to':'Warsaw','armies':2}]}"),
		    NULL, 0, NULL, 0, NULL);
	assert_int_equal(A(n, "England", "Allies"), 7 + 3);
	assert_int_equal(A(n, "Sweden", "Allies"), 3 + 1);
	assert_int_equal(A(n, "Warsaw", "Allies"), 2 + 1);
	assert_int_equal(A(n, "Russia", "Allies"), 8 + 3 + 2);
	assert_string_equal(json_string_value(json_object_get(n, "active")), "France");
	json_decref(n);
	json_decref(a);
	json_decref(s);
}

/* A battle's card step and a retreat are decisions of the whole side: the player holding England's (R36). */
static void test_side_decisions_are_englands(void **unused)
{
	json_t *a = allied_turn_of(dealt(5)), *n;

	(void)unused;
	ne_hand_set(a, "England", "duke-of-wellington", NULL);
	ne_hand_set(a, "France", "the-little-corporal", NULL);
	n = ne_step(a, rules, J("{'England': [{'type':'move','from':'England','to':'Portugal','armies':3}],"
				"'Russia': [], 'Prussia': [], 'Austria': []}"), NULL, 0, NULL, 0, NULL);
	assert_string_equal(ne_phase(n), "battle-cards");
	assert_awaits(n, "['France','England']");
	json_object_set_new(n, "phase", json_string("retreat"));
	json_object_set_new(n, "retreat", J("{'from':'Portugal','side':'Allies','armies':2,'options':['Spain']}"));
	assert_awaits(n, "['England']");
	json_decref(n);
	json_decref(a);
}

/*
 * The divided Allies are an option (allies=divided) or follow from the
 * players holding the Allied countries; the players must hold the Allies
 * one way, whole or all four countries, and the two-player game is what it
 * was whether `new` lists the players or not.
 */
static void test_allies_option(void **unused)
{
	json_t *s = NULL, *plain = NULL, *o;

	(void)unused;
	o = J("{'players': [['France'], ['Allies', 'England']]}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "give one player \"Allies\""));
	json_decref(o);
	o = J("{'allies': 'united', 'players': [['France'], ['England', 'Russia', 'Prussia', 'Austria']]}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "--option allies=divided"));
	json_decref(o);
	o = J("{'allies': 'divided', 'players': [['France'], ['England', 'Russia', 'Prussia']]}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "hold 3 of England, Russia, Prussia and Austria"));
	json_decref(o);
	o = J("{'allies': 'divided', 'players': [['France'], ['Allies']]}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	json_decref(o);
	o = J("{'allies': 'several'}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "\"united\" or \"divided\""));
	json_decref(o);
	/* Two players, one holding all four Allied countries: the divided form, one Allied player. */
	o = J("{'allies': 'divided', 'players': [['France'], ['England', 'Russia', 'Prussia', 'Austria']]}");
	assert_int_equal(NE->setup(&s, rules, o), 0);
	assert_int_equal(json_array_size(json_object_get(s, "allied_players")), 1);
	json_decref(s);
	json_decref(o);
	assert_int_equal(NE->setup(&plain, rules, NULL), 0);
	o = dealt(2);
	assert_int_equal(NE->setup(&s, rules, o), 0);
	assert_true(json_equal(s, plain));
	json_decref(s);
	json_decref(o);
	json_decref(plain);
	assert_int_equal(NE->deal(&o, 6), EST_EINVAL);
}

/*
 * What each Allied player sees (R27, R36, R37): the player holding England
 * the Allied hand and standing orders; the others where they command and
 * who keeps the hand, never its cards. The hand is sealed as England's.
 */
static void test_allied_views(void **unused)
{
	json_t *a = allied_turn_of(dealt(3)), *v = NULL, *paths = NULL;

	(void)unused;
	assert_int_equal(NE->view(&v, a, rules, "England"), 0);
	assert_int_equal(json_array_size(json_object_get(v, "hand")), 2);
	assert_string_equal(json_string_value(json_object_get(v, "command_text")),
			    "France, England, Prussia, Holland, Denmark, Spain, Portugal, Rhineland, Naples, Egypt");
	json_decref(v);
	assert_int_equal(NE->view(&v, a, rules, "Russia"), 0);
	assert_null(json_object_get(v, "hand"));
	assert_string_equal(json_string_value(json_object_get(v, "hand_kept_by")), "England");
	assert_string_equal(json_string_value(json_object_get(v, "command_text")),
			    "Russia, Austria, Sweden, Italy, Switzerland, Warsaw, Ottoman Empire");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(v, "sides"), 1), "hand")), 2);
	json_decref(v);
	assert_int_equal(NE->sealed(&paths, a, rules), 0);
	assert_true(est_rules_in_list(paths, "/hands/England"));
	assert_false(est_rules_in_list(paths, "/hands/Allies"));
	json_decref(paths);
	json_decref(a);
}

/* pending()'s choices of `state` whose order is of `type`. */
static json_t *choices_of(const json_t *state, const char *type)
{
	json_t *p = NULL, *out = json_array(), *c;
	size_t i;

	assert_int_equal(NE->pending(&p, state, rules), 0);
	json_array_foreach(json_object_get(p, "choices"), i, c)
		if (strcmp(json_string_value(json_object_get(json_object_get(c, "order"), "type")), type) == 0)
			json_array_append(out, c);
	json_decref(p);
	return out;
}

/*
 * GAME DESIGNERS NOTES, "the major countries of the Allies can be divvied
 * up": what the Allied turn takes is offered to each player as he may send
 * it. R37: each Allied player a move from the countries he commands, named;
 * R36: every other kind of order to the player holding England only, since
 * validate() refuses it from the others. The two-player game's choices are
 * every awaited power's.
 */
static void test_allied_turn_choices(void **unused)
{
	json_t *a = allied_turn_of(dealt(3)), *moves = choices_of(a, "move"), *c;
	const char *types[] = {"discard", "play", "rebels", "retreat", "standing-play", NULL};
	json_t *keeper = J("['England']"), *u;
	size_t i;

	(void)unused;
	assert_int_equal(json_array_size(moves), 2);
	c = json_array_get(moves, 0);
	assert_true(json_equal(json_object_get(c, "powers"), json_array_get(json_object_get(a, "allied_players"), 0)));
	assert_non_null(strstr(json_string_value(json_object_get(c, "text")), "(France, England, Prussia, Holland, "
			       "Denmark, Spain, Portugal, Rhineland, Naples, Egypt) across a border, or out of England by sea"));
	c = json_array_get(moves, 1);
	assert_true(json_equal(json_object_get(c, "powers"), json_array_get(json_object_get(a, "allied_players"), 1)));
	assert_non_null(strstr(json_string_value(json_object_get(c, "text")), "(Russia, Austria, Sweden, Italy, "
			       "Switzerland, Warsaw, Ottoman Empire) across a border (R37)"));
	for (int t = 0; types[t]; t++) {
		json_t *list = choices_of(a, types[t]);

		assert_true(json_array_size(list) > 0);
		json_array_foreach(list, i, c)
			if (!json_equal(json_object_get(c, "powers"), keeper))
				fail_msg("a %s choice not the keeper's alone: %s", types[t], json_dumps(c, 0));
		json_decref(list);
	}
	json_decref(moves);
	json_decref(keeper);
	json_decref(a);

	u = allied_turn_of(json_object());
	moves = choices_of(u, "rebels");
	assert_int_equal(json_array_size(moves), 1);
	assert_null(json_object_get(json_array_get(moves, 0), "powers"));
	json_decref(moves);
	moves = choices_of(u, "move");
	assert_int_equal(json_array_size(moves), 1);
	assert_null(json_object_get(json_array_get(moves, 0), "powers"));
	json_decref(moves);
	json_decref(u);
}

/* The country named `name` in a view's "countries". */
static const json_t *view_country(const json_t *view, const char *name)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(view, "countries"), i, c)
		if (strcmp(json_string_value(json_object_get(c, "name")), name) == 0)
			return c;
	fail_msg("no %s in the view", name);
	return NULL;
}

/*
 * README.md "Options": the view states the game's options for every report:
 * the control reading (R5, R5a), and in the divided Allies what each Allied
 * power commands (R37) and whose player keeps the hand (R36), which the
 * keeper's own view says too.
 */
static void test_options_in_view(void **unused)
{
	json_t *a = allied_turn_of(J("{'control': 'lapses', 'allies': 'divided', "
				     "'players': [['France'], ['England', 'Prussia'], ['Russia', 'Austria']]}"));
	json_t *v = NULL, *o;

	(void)unused;
	assert_int_equal(NE->view(&v, a, rules, "France"), 0);
	o = json_object_get(v, "options");
	assert_string_equal(json_string_value(json_object_get(o, "control")), "lapses");
	assert_non_null(strstr(json_string_value(json_object_get(o, "control_text")), "France wins only with "
			       "armies in every continental country (R5a)"));
	assert_true(json_is_true(json_object_get(o, "divided")));
	assert_string_equal(json_string_value(json_object_get(o, "keeper")), "England");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "command"), "Russia")),
			    "Russia, Sweden, Warsaw, Ottoman Empire");
	assert_string_equal(json_string_value(json_object_get(json_object_get(o, "command"), "Prussia")),
			    "France, Prussia, Denmark, Rhineland");
	assert_null(json_object_get(v, "keeps_hand"));
	json_decref(v);
	assert_int_equal(NE->view(&v, a, rules, "England"), 0);
	assert_true(json_is_true(json_object_get(v, "keeps_hand")));
	json_decref(v);
	assert_int_equal(NE->view(&v, a, rules, "Russia"), 0);
	assert_null(json_object_get(v, "keeps_hand"));
	json_decref(v);
	json_decref(a);

	a = allied_turn_of(json_object());
	assert_int_equal(NE->view(&v, a, rules, NULL), 0);
	o = json_object_get(v, "options");
	assert_string_equal(json_string_value(json_object_get(o, "control")), "persists");
	assert_false(json_is_true(json_object_get(o, "divided")));
	assert_null(json_object_get(o, "command"));
	json_decref(v);
	json_decref(a);
}

/*
 * REINFORCEMENTS PHASE, "If you have one or more armies in a country, and
 * your opponent has none, you control it": France empties Switzerland.
 * R5 (the default): France still controls it and reinforces it (value 1).
 * R5a (control=lapses): nobody controls it, so it gives nothing.
 */
static void test_control_lapses(void **unused)
{
	const char *move = "{'France': [{'type':'move','from':'Switzerland','to':'Italy','armies':2}]}";
	json_t *s, *n, *ev = NULL, *v = NULL;

	(void)unused;
	s = started_with(json_object());
	n = ne_step(s, rules, J(move), NULL, 0, NULL, 0, NULL);
	assert_string_equal(ne_controller(n, "Switzerland"), "France");
	assert_int_equal(A(n, "Switzerland", "France"), 1);
	json_decref(n);
	json_decref(s);

	s = started_with(J("{'control': 'lapses'}"));
	n = ne_step(s, rules, J(move), NULL, 0, NULL, 0, &ev);
	assert_null(ne_controller(n, "Switzerland"));
	assert_int_equal(A(n, "Switzerland", "France"), 0);
	assert_int_equal(A(n, "Italy", "France"), 2 + 2 + 1);
	assert_string_equal(ne_text(ev, "control"), "Switzerland is empty: France controls it no longer "
			    "(control lapses, RULINGS.md R5a)");
	/* The view says so, apart from a country neutral from the start (R4, R5a). */
	assert_int_equal(NE->view(&v, n, rules, NULL), 0);
	assert_string_equal(json_string_value(json_object_get(view_country(v, "Switzerland"), "controller_text")),
			    "nobody's (control lapsed)");
	assert_true(json_is_true(json_object_get(view_country(v, "Switzerland"), "lapsed")));
	assert_string_equal(json_string_value(json_object_get(view_country(v, "Sweden"), "controller_text")),
			    "neutral");
	assert_false(json_is_true(json_object_get(view_country(v, "Sweden"), "lapsed")));
	json_decref(v);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_players),
		cmocka_unit_test(test_five_players),
		cmocka_unit_test(test_other_players_country_refused),
		cmocka_unit_test(test_allied_turn_resolved),
		cmocka_unit_test(test_side_decisions_are_englands),
		cmocka_unit_test(test_allies_option),
		cmocka_unit_test(test_allied_views),
		cmocka_unit_test(test_control_lapses),
		cmocka_unit_test(test_allied_turn_choices),
		cmocka_unit_test(test_options_in_view),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
