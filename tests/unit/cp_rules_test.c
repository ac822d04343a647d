/*
 * Campaign (Waddington 1971; seeds/campaign-waddington-1971.txt): the rules
 * on the small board of cp_helpers.h, section by section — movement (§3),
 * frontiers (The Board), breakthroughs (§4), the throw (§2), attacks (§10),
 * support (§14), towns (§6, §7, §13), captured Generals (§12, §15, §16),
 * alliances (§8), winning and losing. The real board serves only set-up (§1).
 */
#include "cp_helpers.h"

static json_t *rules;

/* §1: four players France, Russia, Austria, Spain: each General on its Capital, 4 infantry and 4 cavalry beside it. */
static void test_setup_real_board_four_players(void **unused)
{
	json_t *real = rules_load("campaign"), *state = NULL;
	json_t *options = J("{'players': [['France'], ['Russia'], ['Austria'], ['Spain']], 'game': 'introductory'}");
	int x, y;

	(void)unused;
	assert_int_equal(CP->setup(&state, real, options), 0);
	assert_string_equal(est_rules_str(state, "game"), "introductory");
	assert_int_equal(json_array_size(json_object_get(state, "pieces")), 4 * 9);
	assert_int_equal(cp_count(state, "France", "infantry"), 4);
	assert_int_equal(cp_count(state, "France", "cavalry"), 4);
	assert_int_equal(cp_count(state, "Prussia", NULL), 0);
	assert_true(cp_capital(&x, &y, real, "France"));
	assert_string_equal(cpt_at(state, x, y), "France-G");
	/* Every start square of France holds a French piece of its kind. */
	for (int k = 0; k < 2; k++) {
		const char *kind = k ? "cavalry" : "infantry";
		const json_t *sq;
		size_t i;
		json_array_foreach(json_object_get(json_object_get(json_object_get(cp_board(real), "start"), "France"),
						   kind), i, sq) {
			const json_t *p;
			assert_true(cp_sq(sq, &x, &y));
			p = cp_piece_at(state, x, y);
			assert_non_null(p);
			assert_string_equal(est_rules_str(p, "country"), "France");
			assert_string_equal(est_rules_str(p, "kind"), kind);
		}
	}
	/* §5: each player begins with the cards of his own colour; Prussia's and Italy's towns are unheld. */
	{
		const json_t *t;
		size_t i;
		json_array_foreach(json_object_get(cp_board(real), "towns"), i, t) {
			const char *c = est_rules_str(t, "country"), *h = cpt_holder(state, est_rules_str(t, "name"));
			if (strcmp(c, "Prussia") == 0 || strcmp(c, "Italy") == 0)
				assert_null(h);
			else
				assert_string_equal(h, c);
		}
	}
	json_decref(state);
	json_decref(options);
	json_decref(real);
}

/* §1: "France and Prussia cannot be used as base countries at the same time"; with 2 players each holds two. */
static void test_setup_refusals(void **unused)
{
	json_t *real = rules_load("campaign"), *state = NULL;
	json_t *both = J("{'players': [['France'], ['Prussia'], ['Austria']]}");
	json_t *single = J("{'players': [['France'], ['Russia']]}");
	json_t *pairs = J("{'players': [['France', 'Spain'], ['Russia', 'Austria']]}");

	(void)unused;
	assert_int_equal(CP->setup(&state, real, both), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "France and Prussia"));
	assert_int_equal(CP->setup(&state, real, single), EST_EINVAL);
	assert_int_equal(CP->setup(&state, real, pairs), 0);
	assert_int_equal(json_array_size(json_object_get(state, "partners")), 2);
	assert_true(cp_allied(state, "France", "Spain"));
	assert_false(cp_allied(state, "France", "Russia"));
	json_decref(state);
	json_decref(both);
	json_decref(single);
	json_decref(pairs);
	json_decref(real);
}

/* §3 The General: "one square at a time, in any direction, horizontally, vertically or diagonally". */
static void test_general_moves_one_square_any_direction(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			if (dx || dy)
				cpt_step_allowed(s, rules, "France-G", 1 + dx, 4 + dy);
	cpt_step_refused(s, rules, "France-G", 3, 4, "General moves one square");
	cpt_step_refused(s, rules, "France-G", 1, 6, "General moves one square");
	json_decref(s);
}

/* §3 Cavalry: "must move two squares at a time ... only horizontally or vertically — never diagonally". */
static void test_cavalry_moves_exactly_two_squares_orthogonally(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-C1", "France", "cavalry", 1, 4);
	cpt_step_allowed(s, rules, "France-C1", 3, 4);
	cpt_step_allowed(s, rules, "France-C1", 1, 2);
	cpt_step_allowed(s, rules, "France-C1", 1, 6);
	cpt_step_refused(s, rules, "France-C1", 2, 4, "cavalry must move two squares");
	cpt_step_refused(s, rules, "France-C1", 1, 5, "cavalry must move two squares");
	cpt_step_refused(s, rules, "France-C1", 2, 5, "cavalry must move two squares");
	cpt_step_refused(s, rules, "France-C1", 3, 6, "cavalry must move two squares");
	cpt_step_refused(s, rules, "France-C1", 1, 7, "cavalry must move two squares");
	json_decref(s);
}

/* §3 Infantry: "move only one square at a time. They only move diagonally." */
static void test_infantry_moves_one_square_diagonally(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-I1", "France", "infantry", 1, 4);
	cpt_step_allowed(s, rules, "France-I1", 0, 3);
	cpt_step_allowed(s, rules, "France-I1", 2, 3);
	cpt_step_allowed(s, rules, "France-I1", 0, 5);
	cpt_step_allowed(s, rules, "France-I1", 2, 5);
	cpt_step_refused(s, rules, "France-I1", 1, 3, "infantry moves one square at a time, only diagonally");
	cpt_step_refused(s, rules, "France-I1", 2, 4, "infantry moves one square at a time, only diagonally");
	cpt_step_refused(s, rules, "France-I1", 3, 6, "infantry moves one square at a time, only diagonally");
	json_decref(s);
}

/* §3: "Pieces may not jump over one another. Only one piece may occupy any one square." */
static void test_no_jumping_and_one_piece_per_square(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-C1", "France", "cavalry", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 2, 4);	/* the middle square of a move to [3, 4] */
	cpt_put(s, "Russia-I1", "Russia", "infantry", 1, 2);	/* on the end square of a move to [1, 2] */
	cpt_step_refused(s, rules, "France-C1", 3, 4, "only one piece may occupy");
	cpt_step_refused(s, rules, "France-C1", 1, 2, "only one piece may occupy");
	cpt_step_allowed(s, rules, "France-C1", 1, 6);
	cpt_put(s, "France-G", "France", "general", 0, 0 + 3);
	cpt_step_refused(s, rules, "France-G", 1, 4, "only one piece may occupy");
	json_decref(s);
}

/* The Board: "Playing pieces may not move on to or over any square that is marked as sea, forest or mountain." */
static void test_sea_forest_mountain_refused(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 1);
	cpt_put(s, "France-C1", "France", "cavalry", 2, 2);	/* [2, 0] mountain, over [2, 1] */
	cpt_put(s, "France-C2", "France", "cavalry", 3, 0);	/* over the mountain [2, 0] to the forest [1, 0] */
	cpt_put(s, "France-I1", "France", "infantry", 1, 1 + 6);
	cpt_step_refused(s, rules, "France-G", 0, 0, "sea");
	cpt_step_refused(s, rules, "France-G", 1, 0, "forest");
	cpt_step_refused(s, rules, "France-G", 2, 0, "mountain");
	cpt_step_allowed(s, rules, "France-G", 0, 1);
	cpt_step_refused(s, rules, "France-C1", 2, 0, "mountain");
	cpt_step_refused(s, rules, "France-C2", 1, 0, "forest");
	/* Off the board. */
	cpt_step_refused(s, rules, "France-I1", 0, 8, "off the board");
	json_decref(s);
}

/* The Board: "They are only allowed to move from one country into another by crossing the frontier rivers or the red, frontier lines." */
static void test_frontier_crossed_only_at_crossings(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 3, 2);
	cpt_put(s, "France-C1", "France", "cavalry", 2, 2);
	cpt_put(s, "France-C2", "France", "cavalry", 2, 3);
	cpt_put(s, "France-I1", "France", "infantry", 3, 5);
	cpt_put(s, "France-I2", "France", "infantry", 3, 6);
	cpt_step_allowed(s, rules, "France-G", 4, 2);		/* the crossing [3,2]-[4,2] */
	cpt_step_refused(s, rules, "France-G", 4, 1, "frontier");	/* beside it, diagonally */
	cpt_step_refused(s, rules, "France-G", 4, 3, "frontier");
	json_array_remove(json_object_get(s, "pieces"), 0);
	cpt_step_allowed(s, rules, "France-C1", 4, 2);		/* over [3, 2], then across */
	cpt_step_refused(s, rules, "France-C2", 4, 3, "frontier");
	cpt_step_allowed(s, rules, "France-I1", 4, 6);		/* the diagonal crossing [3,5]-[4,6] */
	cpt_step_refused(s, rules, "France-I1", 4, 4, "frontier");
	cpt_step_refused(s, rules, "France-I2", 4, 7, "frontier");
	json_decref(s);
}

/* §4: "Pieces may not pass through opposing lines unless there is a clear gap of at least one square." */
static void test_breakthrough_between_two_opposing_pieces_refused(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-I1", "France", "infantry", 1, 4);
	cpt_put(s, "France-G", "France", "general", 2, 2);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 2, 4);	/* X and Y: the corners of [1,4] -> [2,5] */
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 1, 5);
	cpt_put(s, "Russia-C2", "Russia", "cavalry", 3, 2);	/* and of [2,2] -> [3,3] */
	cpt_put(s, "Russia-C3", "Russia", "cavalry", 2, 3);
	cpt_step_refused(s, rules, "France-I1", 2, 5, "§4 Breakthroughs");
	cpt_step_refused(s, rules, "France-G", 3, 3, "§4 Breakthroughs");
	/* A clear gap: one of the two corners empty. */
	cpt_step_allowed(s, rules, "France-I1", 0, 5);
	json_array_remove(json_object_get(s, "pieces"), 5);
	cpt_step_allowed(s, rules, "France-G", 3, 3);
	json_decref(s);
}

/* §4: "Infantry pieces and Generals can pass between adjacent units of their own side." */
static void test_breakthrough_between_own_pieces_allowed(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	cpt_put(s, "France-I1", "France", "infantry", 1, 4);
	cpt_put(s, "France-G", "France", "general", 2, 2);
	cpt_put(s, "France-I2", "France", "infantry", 2, 4);
	cpt_put(s, "France-C1", "France", "cavalry", 1, 5);
	cpt_put(s, "France-C2", "France", "cavalry", 3, 2);
	cpt_put(s, "France-C3", "France", "cavalry", 2, 3);
	cpt_step_allowed(s, rules, "France-I1", 2, 5);
	cpt_step_allowed(s, rules, "France-G", 3, 3);
	json_decref(s);
}

/* §2: "with a throw of 7 a player can move one piece 7 times, 7 pieces once each ...": no more moves than the throw. */
static void test_throw_limits_the_number_of_moves(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 1, 2);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	rules_valid(CP, s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [1, 3]},"
		  " {'type': 'move', 'piece': 'France-G', 'to': [1, 2]},"
		  " {'type': 'move', 'piece': 'France-I1', 'to': [1, 6]}]");
	cpt_refused(s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [1, 3]},"
		    " {'type': 'move', 'piece': 'France-G', 'to': [1, 2]},"
		    " {'type': 'move', 'piece': 'France-G', 'to': [2, 2]},"
		    " {'type': 'move', 'piece': 'France-G', 'to': [3, 2]}]", 3, "§2", "the dice threw 3");
	json_decref(s);
}

/* §10: "Once a piece has been moved and let go it must not be touched again in that turn." */
static void test_piece_touched_again_refused(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_refused(s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [1, 3]},"
		    " {'type': 'move', 'piece': 'France-I1', 'to': [1, 6]},"
		    " {'type': 'move', 'piece': 'France-G', 'to': [1, 2]}]", 2, "§10", "France-G");
	json_decref(s);
}

/* §3 refused with the rule and the piece: a cavalry move of one square. */
static void test_cavalry_one_square_order_refused(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "France-C1", "France", "cavalry", 1, 4);
	cpt_refused(s, rules, "France", "[{'type': 'move', 'piece': 'France-C1', 'to': [2, 4]}]", 0,
		    "§3: cavalry must move two squares", "France-C1");
	json_decref(s);
}

/* §10: "Only one piece may be attacked in any one turn. The attacking player must say which piece ... he may not change his target once he has made a move". */
static void test_attack_declared_first_and_only_one(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 3, 3);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 4, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 5, 5);
	rules_valid(CP, s, rules, "France", "[{'type': 'attack', 'target': 'Russia-I1'},"
		  " {'type': 'move', 'piece': 'France-G', 'to': [3, 2]}]");
	cpt_refused(s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [3, 2]},"
		    " {'type': 'attack', 'target': 'Russia-I1'}]", 1, "§10", "declared before any move");
	cpt_refused(s, rules, "France", "[{'type': 'attack', 'target': 'Russia-I1'},"
		    " {'type': 'attack', 'target': 'Russia-I2'}]", 1, "§10", "only one piece may be attacked");
	json_decref(s);
}

/* §10: "When attacking, all pieces have a value of 1"; a troop defends 1: two attackers take it, one does not. */
static void test_two_attackers_take_a_troop(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);	/* along the side */
	assert_false(cpt_taken(s, "France", "Russia-I1"));
	cpt_put(s, "France-I1", "France", "infantry", 6, 4);	/* at a corner */
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);
}

/* §10: "The General, when defending has a value of 2, ie, it takes 3 pieces, or 2 pieces and a General". */
static void test_three_attackers_take_a_general(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-G", "Russia", "general", 5, 3);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 6, 4);
	assert_false(cpt_taken(s, "France", "Russia-G"));
	cpt_put(s, "France-G", "France", "general", 5, 2);	/* a General attacks from any side at value 1 */
	assert_true(cpt_taken(s, "France", "Russia-G"));
	json_decref(s);
}

/* §10: "infantry pieces must be touching at a corner, cavalry pieces ... along the side and the General can be in either position." */
static void test_attack_positions_by_kind(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "France-I1", "France", "infantry", 4, 3);	/* infantry along a side: does not count */
	cpt_put(s, "France-C1", "France", "cavalry", 6, 4);	/* cavalry at a corner: does not count */
	cpt_put(s, "France-I2", "France", "infantry", 4, 2);	/* infantry at a corner: counts */
	assert_false(cpt_taken(s, "France", "Russia-I1"));
	cpt_put(s, "France-G", "France", "general", 6, 2);	/* the General at a corner counts */
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);

	s = cpt_state(rules, "introductory", 6, 6);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "France-G", "France", "general", 5, 4);	/* the General along a side counts */
	cpt_put(s, "France-C1", "France", "cavalry", 6, 3);	/* cavalry along a side counts */
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);
}

/* §10 through resolve(): a diagonal cavalry attack does not take; the target stays and the event says why. */
static void test_diagonal_cavalry_attack_does_not_take(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *events = NULL, *next;
	const json_t *e;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Austria-G", "Austria", "general", 10, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 7, 7);
	cpt_put(s, "Austria-I1", "Austria", "infantry", 11, 7);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 2);	/* diagonal to the target */
	cpt_put(s, "France-C2", "France", "cavalry", 6, 2);	/* diagonal to the target */
	next = cpt_resolve(s, rules, "[{'type': 'attack', 'target': 'Russia-I1'}]", 3, 4, &events);
	e = rules_event_nth(events, "attack", 0);
	assert_non_null(e);
	assert_false(json_is_true(json_object_get(e, "taken")));
	assert_non_null(strstr(json_string_value(json_object_get(e, "text")), "Russia-I1"));
	assert_non_null(strstr(json_string_value(json_object_get(e, "text")), "§10"));
	assert_true(cpt_on(next, "Russia-I1", 5, 3));
	json_decref(next);
	json_decref(events);
	json_decref(s);
}

/* §10: attackers move into place in the turn, the target is removed at the end of it, attackers stay where they are. */
static void test_attack_takes_and_attackers_do_not_move_on(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 3, 3), *events = NULL, *next;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 6);
	cpt_put(s, "Austria-G", "Austria", "general", 10, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 7, 7);
	cpt_put(s, "Austria-I1", "Austria", "infantry", 11, 7);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 5, 5);
	rules_valid(CP, s, rules, "France", "[{'type': 'attack', 'target': 'Russia-I1'},"
		  " {'type': 'move', 'piece': 'France-I1', 'to': [4, 4]}]");
	next = cpt_resolve(s, rules, "[{'type': 'attack', 'target': 'Russia-I1'},"
			   " {'type': 'move', 'piece': 'France-I1', 'to': [4, 4]}]", 2, 5, &events);
	assert_true(json_is_true(json_object_get(rules_event_nth(events, "attack", 0), "taken")));
	assert_null(cp_piece(next, "Russia-I1"));
	assert_null(cpt_at(next, 5, 3));
	assert_true(cpt_on(next, "France-C1", 4, 3));
	assert_true(cpt_on(next, "France-I1", 4, 4));
	assert_string_equal(est_rules_str(next, "active"), "Russia");
	json_decref(next);
	json_decref(events);
	json_decref(s);
}

/* §10: "Opposing pieces can be taken by any mixed, allied force." */
static void test_allied_pieces_combine(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6);

	(void)unused;
	cpt_put(s, "Austria-I1", "Austria", "infantry", 8, 3);
	cpt_put(s, "France-C1", "France", "cavalry", 7, 3);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 9, 4);
	assert_false(cpt_taken(s, "France", "Austria-I1"));	/* not allied: one French piece */
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	assert_true(cpt_taken(s, "France", "Austria-I1"));
	json_decref(s);
}

/*
 * §14: "A piece being attacked is supported by any other pieces adjacent to it ... every adjacent piece
 * must be engaged ... by an attacking piece". Russia-I1 at [5,3] with Russia-C1 beside it at [5,4].
 */
static void test_standard_support_left_unengaged_holds(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 5, 4);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 6, 2);
	/* Two attackers touch the target, but the supporter is free: it holds. */
	assert_false(cpt_taken(s, "France", "Russia-I1"));
	/* An attacker touching only the supporter engages it... but one engaged and two left would be needed. */
	cpt_put(s, "France-C2", "France", "cavalry", 5, 5);
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);

	/* The Introductory game has no support: the same two attackers take it. */
	s = cpt_state(rules, "introductory", 6, 6);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 5, 4);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 6, 2);
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);
}

/*
 * §10 and §14: the turn's account of an attack names the pieces: those that strike, who engages each
 * supporter, and a supporter left unengaged, with its square, which is why the target holds.
 */
static void test_attack_result_names_the_pieces(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *events = NULL;
	const char *text;

	(void)unused;
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 5, 4);
	cpt_put(s, "Russia-G", "Russia", "general", 7, 7);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 6, 2);
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_austria_stands_by(s);
	next = cpt_resolve(s, rules, "[{'type': 'attack', 'target': 'Russia-I1'}]", 2, 3, &events);
	text = est_rules_str(rules_event_nth(events, "attack", 0), "text");
	if (!strstr(text, "it holds") || !strstr(text, "striking: France-C1, France-I1") ||
	    !strstr(text, "Russia-C1 at [5, 4] supports it unengaged (§14)"))
		fail_msg("the attack's account does not name the pieces: %s", text);
	assert_string_equal(est_rules_str(json_object_get(json_object_get(next, "last"), "attack"), "pieces"),
			    "striking: France-C1, France-I1; Russia-C1 at [5, 4] supports it unengaged (§14)");
	json_decref(events);
	json_decref(next);
	/* A third cavalry engages the supporter: taken, and the account says who engaged whom. */
	cpt_put(s, "France-C2", "France", "cavalry", 5, 5);
	next = cpt_resolve(s, rules, "[{'type': 'attack', 'target': 'Russia-I1'}]", 2, 3, &events);
	text = est_rules_str(rules_event_nth(events, "attack", 0), "text");
	if (!strstr(text, "taken") || !strstr(text, "striking: France-C1, France-I1; France-C2 engages Russia-C1"))
		fail_msg("the attack's account does not name the pieces: %s", text);
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/*
 * §10, §15 and RULINGS.md C14: a piece waiting off the board ("square":
 * null) is on no square, so it neither strikes, supports nor can be
 * attacked. Read as the corner off the board (-1, -1), France-I2 would
 * touch Russia-I4 on [0, 0] and make two pieces against a defence of 1.
 */
static void test_piece_off_the_board_takes_no_part(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-I4", "Russia", "infantry", 0, 0);
	cpt_put(s, "France-I1", "France", "infantry", 1, 1);
	cpt_put(s, "France-I2", "France", "infantry", 1, 1);
	json_object_set_new(cp_piece(s, "France-I2"), "square", json_null());
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 1, 1);
	json_object_set_new(cp_piece(s, "Russia-C1"), "square", json_null());
	cpt_put(s, "France-G", "France", "general", 3, 3);
	cpt_put(s, "Russia-G", "Russia", "general", 7, 7);
	assert_int_equal(cpt_taken(s, "France", "Russia-I4"), 0);
	cpt_refused(s, rules, "France", "[{'type': 'attack', 'target': 'Russia-C1'}]", 0,
		    "off the board", "cannot be attacked");
	json_decref(s);
}

/* §14: an attacker engaging a supporter is no longer free against the target: enough pieces must remain. */
static void test_standard_support_needs_enough_left(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 6, 4);	/* a supporter at the corner */
	cpt_put(s, "France-G", "France", "general", 5, 4);	/* touches both the target and the supporter */
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	/* The General engages the supporter; one cavalry is left against a defence of 1: not enough. */
	assert_false(cpt_taken(s, "France", "Russia-I1"));
	cpt_put(s, "France-I1", "France", "infantry", 4, 2);
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);
}

/* §14: "Only one piece chosen for attack can be supported. Supporting pieces cannot themselves be supported." */
static void test_supporters_are_not_supported(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 5, 4);	/* supports the target */
	cpt_put(s, "Russia-C2", "Russia", "cavalry", 5, 5);	/* beside the supporter only: no part */
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 6, 2);
	cpt_put(s, "France-C2", "France", "cavalry", 4, 4);	/* engages Russia-C1 along its side */
	assert_true(cpt_taken(s, "France", "Russia-I1"));
	json_decref(s);
}

/* §6: "Only a General can capture a town - simply by moving on to the Town square"; the card changes hands at the end of the turn. */
static void test_only_a_general_captures_a_town(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *next, *events = NULL;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 4, 0 + 2);
	cpt_put(s, "France-I1", "France", "infantry", 4, 5);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	/* An infantry piece on Kiev [5,6] takes nothing. */
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-I1', 'to': [5, 6]}]", 1, 1, NULL);
	assert_string_equal(cpt_holder(next, "Kiev"), "Russia");
	json_decref(next);
	/* The General on Minsk [6,1]: France holds the card after the turn. */
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-G', 'to': [5, 1]},"
			   " {'type': 'move', 'piece': 'France-G', 'to': [6, 1]}]", 1, 1, &events);
	assert_string_equal(cpt_holder(next, "Minsk"), "France");
	assert_string_equal(cpt_holder(s, "Minsk"), "Russia");
	assert_non_null(rules_event_nth(events, "town", 0));
	/* In the Introductory game a red town brings no piece (§13 is the Standard game's). */
	assert_int_equal(cp_count(next, "France", NULL), 2);
	assert_int_equal(cp_count(next, "Russia", NULL), 2);
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/* §7: "A Capital can only be taken after all the provincial towns in that country have been captured and are still held." */
static void test_capital_falls_when_all_its_towns_are_held(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *next, *events = NULL;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 6, 3);	/* beside Moscow [6,4] */
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 4, 7);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	json_object_set_new(json_object_get(s, "towns"), "Minsk", json_string("France"));
	/* Kiev still Russian: the General on Moscow takes nothing. */
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-G', 'to': [6, 4]}]", 1, 1, NULL);
	assert_false(cp_is_out(next, "Russia"));
	assert_int_equal(cp_count(next, "Russia", NULL), 2);
	json_decref(next);
	/* Kiev held by Austria: all Russia's towns are held by others; Russia is out. */
	json_object_set_new(json_object_get(s, "towns"), "Kiev", json_string("Austria"));
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-G', 'to': [6, 4]}]", 1, 1, &events);
	assert_true(cp_is_out(next, "Russia"));
	assert_int_equal(cp_count(next, "Russia", NULL), 0);
	assert_non_null(rules_event_nth(events, "out", 0));
	/* Russia's turn is passed: Austria plays next. */
	assert_string_equal(est_rules_str(next, "active"), "Austria");
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/*
 * §13: the captor of a red town gains its piece on an adjacent empty square; the previous holder
 * "must remove ... a corresponding infantry or cavalry piece of his own ... the piece that is closest to the town".
 */
static void test_red_town_gains_and_loses_a_piece(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *events = json_array();
	int x, y;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 6, 1);	/* on Minsk, red cavalry */
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 7, 7);	/* far */
	cpt_put(s, "Russia-C2", "Russia", "cavalry", 6, 3);	/* closest cavalry: 2 squares */
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 1);	/* closer, but infantry */
	assert_int_equal(cp_capture_towns(s, events, rules, NULL), 0);
	assert_string_equal(cpt_holder(s, "Minsk"), "France");
	assert_int_equal(cp_count(s, "France", "cavalry"), 1);
	{
		const json_t *p;
		size_t i;
		json_array_foreach(json_object_get(s, "pieces"), i, p)
			if (strcmp(est_rules_str(p, "country"), "France") == 0 && strcmp(est_rules_str(p, "kind"), "cavalry") == 0) {
				assert_true(cp_sq(json_object_get(p, "square"), &x, &y));
				assert_true(abs(x - 6) <= 1 && abs(y - 1) <= 1);
				assert_int_equal(cp_terrain(rules, x, y), '.');
			}
	}
	assert_null(cp_piece(s, "Russia-C2"));
	assert_non_null(cp_piece(s, "Russia-C1"));
	assert_non_null(cp_piece(s, "Russia-I1"));
	json_decref(events);
	json_decref(s);
}

/* §13: the "place" order's square; and "If the losing player does not have a correct piece he must discard an incorrect one." */
static void test_red_town_place_order_and_other_kind(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *events = json_array();
	json_t *orders = J("[{'type': 'place', 'town': 'Minsk', 'square': [5, 0]}]");

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 6, 1);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 6, 3);
	rules_valid(CP, s, rules, "France", "[{'type': 'place', 'town': 'Minsk', 'square': [5, 0]}]");
	assert_int_equal(cp_capture_towns(s, events, rules, orders), 0);
	assert_non_null(cpt_at(s, 5, 0));
	assert_string_equal(est_rules_str(cp_piece_at(s, 5, 0), "kind"), "cavalry");
	assert_string_equal(est_rules_str(cp_piece_at(s, 5, 0), "country"), "France");
	/* No Russian cavalry: the closest infantry goes instead. */
	assert_null(cp_piece(s, "Russia-I2"));
	assert_non_null(cp_piece(s, "Russia-I1"));
	json_decref(orders);
	json_decref(events);
	json_decref(s);
}

/*
 * §12 (Introductory): "When a General is taken ... moved immediately to its starting position on the Capital
 * square ... all remaining troop pieces ... to their appropriate Capital starting squares"; "The player with the
 * defeated General misses his next turn ... He may not be attacked again until after this second turn."
 */
static void test_introductory_general_captured(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *next, *after, *events = NULL;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 3, 3);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 2);
	cpt_put(s, "France-I1", "France", "infantry", 5, 2);
	cpt_put(s, "Russia-G", "Russia", "general", 4, 3);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 4, 7);
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 7, 0);
	cpt_austria_stands_by(s);
	next = cpt_resolve(s, rules, "[{'type': 'attack', 'target': 'Russia-G'}]", 3, 4, &events);
	assert_true(json_is_true(json_object_get(rules_event_nth(events, "attack", 0), "taken")));
	/* Not removed: back on Moscow, the troops on their start squares. */
	assert_true(cpt_on(next, "Russia-G", 6, 4));
	assert_true(cpt_on(next, "Russia-I1", 5, 3));
	assert_true(cpt_on(next, "Russia-C1", 6, 3));
	/* Russia misses its turn: Austria throws. */
	assert_non_null(rules_event_nth(events, "missed", 0));
	assert_string_equal(est_rules_str(next, "active"), "Austria");
	json_decref(events);
	/* Austria may not attack the General before Russia's second turn. */
	cpt_put(next, "Austria-C1", "Austria", "cavalry", 7, 4);
	cpt_refused(next, rules, "Austria", "[{'type': 'attack', 'target': 'Russia-G'}]", 0, "§12", "Russia-G");
	after = cpt_resolve(next, rules, "[]", 2, 2, NULL);		/* France's turn next */
	json_decref(next);
	assert_string_equal(est_rules_str(after, "active"), "France");
	cpt_refused(after, rules, "France", "[{'type': 'attack', 'target': 'Russia-G'}]", 0, "§12", NULL);
	next = cpt_resolve(after, rules, "[]", 1, 2, NULL);		/* Russia plays its second turn */
	json_decref(after);
	assert_string_equal(est_rules_str(next, "active"), "Russia");
	after = cpt_resolve(next, rules, "[]", 4, 4, NULL);		/* after it, Austria may attack */
	json_decref(next);
	assert_string_equal(est_rules_str(after, "active"), "Austria");
	rules_valid(CP, after, rules, "Austria", "[{'type': 'attack', 'target': 'Russia-G'}]");
	json_decref(after);
	json_decref(s);
}

/*
 * §12 (Introductory): the captured General's troops go "to their appropriate Capital starting squares",
 * and §3: "Only one piece may occupy any one square". The attackers stand on three of Russia's four
 * cavalry start squares: one Russian cavalry piece takes the free one, the other waits off the board
 * and enters a start square of its kind once it is free (RULINGS.md C14); no square holds two pieces.
 */
static void test_introductory_captured_army_never_shares_a_square(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *next, *events = NULL;
	const json_t *p, *q;
	size_t i, j;
	int x, y, qx, qy, off = 0;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 6, 3);	/* Russian cavalry start squares: [6,3] [5,4] [7,4] [6,5] */
	cpt_put(s, "France-C1", "France", "cavalry", 5, 4);
	cpt_put(s, "France-C2", "France", "cavalry", 7, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);	/* on his Capital, Moscow */
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 4, 0);
	cpt_put(s, "Russia-C2", "Russia", "cavalry", 7, 0);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	next = cpt_resolve(s, rules, "[{'type': 'attack', 'target': 'Russia-G'}]", 3, 4, &events);
	assert_true(json_is_true(json_object_get(rules_event_nth(events, "attack", 0), "taken")));
	json_array_foreach(json_object_get(next, "pieces"), i, p) {
		if (!cp_sq(json_object_get(p, "square"), &x, &y)) {
			off++;
			continue;
		}
		json_array_foreach(json_object_get(next, "pieces"), j, q)
			if (j > i && cp_sq(json_object_get(q, "square"), &qx, &qy) && qx == x && qy == y)
				fail_msg("%s and %s both stand on [%d, %d] (§3)", est_rules_str(p, "id"),
					 est_rules_str(q, "id"), x, y);
	}
	assert_true(cpt_on(next, "Russia-G", 6, 4));
	assert_true(cpt_on(next, "Russia-I1", 5, 3));
	assert_true(cpt_on(next, "Russia-C1", 6, 5) || cpt_on(next, "Russia-C2", 6, 5));
	assert_int_equal(off, 1);
	assert_non_null(strstr(est_rules_str(rules_event_nth(events, "general", 0), "text"), "wait off the board"));
	{
		const char *waiting = cpt_on(next, "Russia-C1", 6, 5) ? "Russia-C2" : "Russia-C1";
		/* It enters a start square of its kind once the attacker has moved off it, not before. */
		cpt_step_refused(next, rules, waiting, 5, 4, "only one piece may occupy");
		cpt_step_refused(next, rules, waiting, 5, 3, "its own start square");
		json_object_set_new(cp_piece(next, "France-C1"), "square", json_pack("[i, i]", 3, 4));	/* leaves [5, 4] */
		cpt_step_allowed(next, rules, waiting, 5, 4);
	}
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/* A Standard-game state with Russia's General taken by cp_general_taken; `troops` Russian infantry and `red` red cards. */
static json_t *standard_capture(int troops, int red, json_t **events_out)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *events = json_array();
	const char *reds[] = {"Minsk", "Lyon", "Prague"};
	char id[32];

	json_object_set_new(json_object_get(s, "towns"), "Minsk", json_string("France"));
	for (int i = 0; i < red; i++)
		json_object_set_new(json_object_get(s, "towns"), reds[i], json_string("Russia"));
	cpt_put(s, "Russia-G", "Russia", "general", 2, 2);
	for (int i = 0; i < troops; i++) {
		snprintf(id, sizeof(id), "Russia-I%d", i + 1);
		cpt_put(s, id, "Russia", "infantry", 4 + i, 0);
	}
	assert_int_equal(cp_general_taken(s, events, rules, cp_piece(s, "Russia-G")), 0);
	*events_out = events;
	return s;
}

/* True when a piece stands in Russia's Enlistment Area (rows 6 and 7 of columns 4 to 7). */
static int in_russian_enlistment(const json_t *p)
{
	int x, y;

	return cp_sq(json_object_get(p, "square"), &x, &y) && y >= 6 && x >= 4 && x <= 7;
}

/*
 * §15 (Standard): the General and "any troops remaining to it, wherever they may be" go to the Enlistment
 * Area; one recruit with "1 troop piece more than red Town cards", two (one cavalry, one infantry) with
 * "an equal number of troop pieces and red Town cards" or "more red Town cards than troop pieces", else none.
 */
static void test_standard_general_captured_recruits(void **unused)
{
	json_t *s, *events;
	const json_t *p;
	size_t i;

	(void)unused;
	/* 1 troop, no red card: one recruit. */
	s = standard_capture(1, 0, &events);
	assert_int_equal(cp_count(s, "Russia", NULL), 3);
	json_array_foreach(json_object_get(s, "pieces"), i, p)
		assert_true(in_russian_enlistment(p));
	assert_true(json_is_true(json_object_get(json_object_get(s, "mobilising"), "Russia")));
	json_decref(events);
	json_decref(s);
	/* 2 troops, 1 red card: one recruit. */
	s = standard_capture(2, 1, &events);
	assert_int_equal(cp_count(s, "Russia", NULL), 4);
	json_decref(events);
	json_decref(s);
	/* 2 troops, 2 red cards: one cavalry and one infantry. */
	s = standard_capture(2, 2, &events);
	assert_int_equal(cp_count(s, "Russia", "infantry"), 3);
	assert_int_equal(cp_count(s, "Russia", "cavalry"), 1);
	json_decref(events);
	json_decref(s);
	/* 1 troop, 2 red cards: two. */
	s = standard_capture(1, 2, &events);
	assert_int_equal(cp_count(s, "Russia", NULL), 1 + 1 + 2);
	json_decref(events);
	json_decref(s);
	/* 3 troops, 1 red card: none. */
	s = standard_capture(3, 1, &events);
	assert_int_equal(cp_count(s, "Russia", NULL), 1 + 3);
	json_decref(events);
	json_decref(s);
	/* No troop left: "provided it has one or more troop pieces still left" — Russia is out. */
	s = standard_capture(0, 0, &events);
	assert_true(cp_is_out(s, "Russia"));
	json_decref(events);
	json_decref(s);
}

/* Russia mobilising in its Capital (§16), at its own turn. */
static void russia_mobilising_at_its_turn(json_t *s)
{
	json_object_set_new(json_object_get(s, "mobilising"), "Russia", json_true());
	json_object_set_new(s, "active", json_string("Russia"));
}

/*
 * The two turns after Russia's: Austria and France pass, drawing the throws [1, 2] and [2, 2]. Takes
 * `state` (it is freed); the state after them is the caller's.
 */
static json_t *others_pass(json_t *state)
{
	json_t *after = cpt_resolve(state, rules, "[]", 1, 2, NULL), *next;

	json_decref(state);
	next = cpt_resolve(after, rules, "[]", 2, 2, NULL);
	json_decref(after);
	return next;
}

/*
 * §16: "Before a 'new' General and his army may engage in hostilities they must 'mobilise' in the Capital"
 * and "No other player may attack the Capital or any pieces being mobilised until mobilisation is complete";
 * when every piece stands on a start square, the army moves off at the following turn.
 */
static void test_mobilising(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *events = NULL;

	(void)unused;
	json_object_set_new(json_object_get(s, "mobilising"), "Russia", json_true());
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-C1", "Russia", "cavalry", 6, 7);	/* still on its way from the Enlistment Area */
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-G", "France", "general", 0, 0 + 1);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_austria_stands_by(s);
	cpt_refused(s, rules, "France", "[{'type': 'attack', 'target': 'Russia-I1'}]", 0, "§16", "Russia-I1");
	cpt_refused(s, rules, "France", "[{'type': 'attack', 'target': 'Russia-G'}]", 0, "§16", NULL);
	/* Russia's turn: it may not attack while it mobilises. */
	json_object_set_new(s, "active", json_string("Russia"));
	cpt_refused(s, rules, "Russia", "[{'type': 'attack', 'target': 'France-C1'}]", 0, "§16", NULL);
	/* The cavalry reaches its start square [6,5]: mobilisation is complete at the end of the turn. */
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'Russia-C1', 'to': [6, 5]}]", 2, 3, &events);
	assert_null(json_object_get(json_object_get(next, "mobilising"), "Russia"));
	assert_non_null(rules_event_nth(events, "mobilised", 0));
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/*
 * §16: "No other player may attack the Capital or any pieces being mobilised until mobilisation is complete"
 * (RULINGS.md C6): an enemy General on the Capital of a mobilising player does not take it, though every
 * provincial town of its country is held (§7).
 */
static void test_mobilising_capital_is_not_taken(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *events = NULL;

	(void)unused;
	json_object_set_new(json_object_get(s, "mobilising"), "Russia", json_true());
	json_object_set_new(json_object_get(s, "towns"), "Minsk", json_string("France"));
	json_object_set_new(json_object_get(s, "towns"), "Kiev", json_string("Austria"));
	cpt_put(s, "France-G", "France", "general", 5, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 7);	/* in the Enlistment Area, on its way */
	cpt_put(s, "Russia-I1", "Russia", "infantry", 4, 7);
	cpt_austria_stands_by(s);
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-G', 'to': [6, 4]}]", 2, 3, &events);
	assert_true(cpt_on(next, "France-G", 6, 4));
	if (cp_is_out(next, "Russia"))
		fail_msg("Russia is mobilising, yet France took its Capital: %s", json_dumps(events, 0));
	assert_non_null(rules_event_nth(events, "capital", 0));
	json_decref(events);
	json_decref(next);
	/* Not mobilising, the same step takes it (§7). */
	json_object_del(json_object_get(s, "mobilising"), "Russia");
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-G', 'to': [6, 4]}]", 2, 3, NULL);
	assert_true(cp_is_out(next, "Russia"));
	json_decref(next);
	json_decref(s);
}

/*
 * §16: mobilisation is complete when "all pieces are on the starting squares, or all possible starting squares
 * are occupied (supposing there are more than 4 infantry and/or cavalry pieces)": a fifth infantry piece waiting
 * in the Enlistment Area does not hold it up.
 */
static void test_mobilised_with_more_than_four_of_a_kind(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *events = NULL;

	(void)unused;
	russia_mobilising_at_its_turn(s);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 7, 3);
	cpt_put(s, "Russia-I3", "Russia", "infantry", 5, 5);
	cpt_put(s, "Russia-I4", "Russia", "infantry", 6, 6);	/* one diagonal step from its start square [7,5] */
	cpt_put(s, "Russia-I5", "Russia", "infantry", 4, 7);	/* the fifth: no start square left for it */
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_austria_stands_by(s);
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'Russia-I4', 'to': [7, 5]}]", 2, 3, &events);
	assert_true(cpt_on(next, "Russia-I4", 7, 5));
	if (json_object_get(json_object_get(next, "mobilising"), "Russia"))
		fail_msg("every infantry start square of Russia is occupied, yet Russia is still mobilising (§16)");
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/*
 * §16: mobilisation is complete when "all pieces are on the starting squares, or all possible starting squares
 * are occupied"; "No other player may attack ... any pieces being mobilised until mobilisation is complete".
 * A start square an opposing piece holds is not a possible one (RULINGS.md C16): France's cavalry parked on
 * Russia's infantry start square [7,5] no longer holds Russia mobilising, and once it has mobilised Russia
 * may attack it. An ally's piece on the square is not an opposing one: Russia waits for it.
 */
static void test_mobilising_start_square_held_by_an_opponent(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *after, *events = NULL;
	const char *text;

	(void)unused;
	russia_mobilising_at_its_turn(s);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 7, 3);
	cpt_put(s, "Russia-I3", "Russia", "infantry", 5, 5);
	cpt_put(s, "Russia-I4", "Russia", "infantry", 6, 6);	/* its start square [7,5] is France's */
	cpt_put(s, "France-C1", "France", "cavalry", 7, 5);
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_austria_stands_by(s);
	/* The lock: Russia may not attack the intruder while it mobilises. */
	cpt_refused(s, rules, "Russia", "[{'type': 'attack', 'target': 'France-C1'}]", 0, "§16", NULL);
	next = cpt_resolve(s, rules, "[]", 1, 1, &events);
	if (json_object_get(json_object_get(next, "mobilising"), "Russia"))
		fail_msg("France-C1 holds Russia's last infantry start square, yet Russia is still mobilising (§16: "
			 "\"all possible starting squares are occupied\"): %s", json_dumps(events, 0));
	text = est_rules_str(rules_event_nth(events, "mobilised", 0), "text");
	assert_non_null(strstr(text, "France-C1"));
	json_decref(events);
	/* Austria and France pass; at Russia's next turn its army moves off and takes the intruder (§10). */
	next = others_pass(next);
	assert_string_equal(est_rules_str(next, "active"), "Russia");
	after = cpt_resolve(next, rules, "[{'type': 'attack', 'target': 'France-C1'}]", 3, 3, NULL);
	assert_null(cp_piece(after, "France-C1"));
	json_decref(after);
	json_decref(next);
	/* Allied with France, the square is an ally's: Russia's own piece may yet stand there (RULINGS.md C16). */
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	next = cpt_resolve(s, rules, "[]", 1, 1, NULL);
	assert_true(json_is_true(json_object_get(json_object_get(next, "mobilising"), "Russia")));
	json_decref(next);
	json_decref(s);
}

/*
 * §16, and §1, §12: the General's starting position is the Capital square. An opposing General standing on it
 * makes it not a possible one (RULINGS.md C16): Russia mobilises with its troops on their start squares, and
 * at its next turn may attack the intruder (§10: a General defending counts 2, three pieces take him), unless
 * every Russian provincial town is held, when §7 gives France Moscow at France's turn (RULINGS.md C6).
 */
static void test_mobilising_capital_held_by_an_opponent(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *after, *events = NULL;
	const char *text;

	(void)unused;
	russia_mobilising_at_its_turn(s);
	json_object_set_new(json_object_get(s, "towns"), "Minsk", json_string("France"));
	cpt_put(s, "France-G", "France", "general", 6, 4);	/* on Moscow */
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 7);	/* in the Enlistment Area, kept from his Capital */
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 7, 3);
	cpt_put(s, "Russia-I3", "Russia", "infantry", 6, 6);
	cpt_austria_stands_by(s);
	cpt_refused(s, rules, "Russia", "[{'type': 'attack', 'target': 'France-G'}]", 0, "§16", NULL);
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'Russia-I3', 'to': [7, 5]}]", 1, 1, &events);
	if (json_object_get(json_object_get(next, "mobilising"), "Russia"))
		fail_msg("France-G holds Russia's Capital and every Russian troop stands on a start square, yet Russia "
			 "is still mobilising (§16): %s", json_dumps(events, 0));
	text = est_rules_str(rules_event_nth(events, "mobilised", 0), "text");
	assert_non_null(strstr(text, "France-G"));
	json_decref(events);
	next = others_pass(next);
	assert_false(cp_is_out(next, "Russia"));	/* Kiev is still Russia's: §7 does not give France Moscow */
	after = cpt_resolve(next, rules, "[{'type': 'attack', 'target': 'France-G'}]", 3, 3, &events);
	text = est_rules_str(rules_event_nth(events, "general", 0), "text");
	if (!text || !strstr(text, "France's General is captured"))
		fail_msg("Russia's three infantry pieces did not take France-G on Moscow: %s", json_dumps(events, 0));
	assert_false(cpt_on(after, "France-G", 6, 4));
	json_decref(events);
	json_decref(after);
	json_decref(next);
	/* With Kiev held too, mobilisation ends C6's shelter: France, still on Moscow at its turn's end, takes it (§7). */
	json_object_set_new(json_object_get(s, "towns"), "Kiev", json_string("Austria"));
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'Russia-I3', 'to': [7, 5]}]", 1, 1, NULL);
	next = others_pass(next);
	assert_true(cp_is_out(next, "Russia"));
	json_decref(next);
	json_decref(s);
}

/*
 * Contents: each set has "1 General, 9 infantry and 9 cavalry units" (RULINGS.md C15). A red town (§13)
 * brings no 10th infantry piece; the previous holder still loses his piece.
 */
static void test_red_town_brings_no_piece_beyond_the_set(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *events = NULL;
	char id[32];

	(void)unused;
	json_object_set_new(json_object_get(s, "towns"), "Lyon", json_string("Russia"));
	cpt_put(s, "France-G", "France", "general", 1, 2);
	for (int i = 0; i < 9; i++) {
		snprintf(id, sizeof(id), "France-I%d", i + 1);
		cpt_put(s, id, "France", "infantry", i % 4, 7 - i / 4 * 2);
	}
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 6, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 6, 5);
	cpt_austria_stands_by(s);
	next = cpt_resolve(s, rules, "[{'type': 'move', 'piece': 'France-G', 'to': [1, 1]}]", 2, 3, &events);
	assert_string_equal(cpt_holder(next, "Lyon"), "France");
	if (cp_count(next, "France", "infantry") != 9)
		fail_msg("France has %d infantry pieces; its set has 9 (Contents)", cp_count(next, "France", "infantry"));
	assert_non_null(strstr(est_rules_str(rules_event_nth(events, "recruit", 0), "text"), "Contents"));
	assert_int_equal(cp_count(next, "Russia", "infantry"), 1);
	json_decref(events);
	json_decref(next);
	json_decref(s);
}

/* Contents and §15: with as many red cards as troops a General recruits one of each kind, but none of a kind whose 9 are in play. */
static void test_recruits_within_the_set(void **unused)
{
	json_t *r = cpt_rules(), *s, *events = json_array();
	json_t *towns = json_object_get(cp_board(r), "towns");
	char name[16];

	(void)unused;
	s = cpt_state(r, "standard", 6, 6);
	for (int i = 0; i < 9; i++) {
		snprintf(name, sizeof(name), "R%d", i);
		json_array_append_new(towns, json_pack("{s:s, s:s, s:[i, i], s:s, s:s}", "name", name, "country",
						       "Austria", "square", 8 + i % 4, i < 4 ? 0 : i / 4 + 1, "colour", "red", "piece",
						       "infantry"));
		json_object_set_new(json_object_get(s, "towns"), name, json_string("Russia"));
		snprintf(name, sizeof(name), "Russia-I%d", i + 1);
		cpt_put(s, name, "Russia", "infantry", i % 4, i / 4);
	}
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	assert_int_equal(cp_general_taken(s, events, r, cp_piece(s, "Russia-G")), 0);
	if (cp_count(s, "Russia", "infantry") != 9)
		fail_msg("Russia has %d infantry pieces; its set has 9 (Contents)", cp_count(s, "Russia", "infantry"));
	assert_int_equal(cp_count(s, "Russia", "cavalry"), 1);
	assert_non_null(strstr(est_rules_str(rules_event_nth(events, "general", 0), "text"), "Contents"));
	json_decref(events);
	json_decref(s);
	json_decref(r);
}

/*
 * Contents: "4 Alliance Cards", one a player, and §5: "each player will hold the card of his ally": a
 * player in an alliance has no card left for a second (RULINGS.md C15). Broken first, in the same file,
 * it may accept another (RULINGS.md C13).
 */
static void test_one_alliance_card_each(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next;

	(void)unused;
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	json_array_append_new(json_object_get(s, "proposals"), json_pack("[s, s]", "Austria", "France"));
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	cpt_refused(s, rules, "France", "[{'type': 'alliance', 'action': 'accept', 'with': 'Austria'}]", 0,
		    "Contents", "Russia's Alliance card");
	cpt_refused(s, rules, "France", "[{'type': 'alliance', 'action': 'propose', 'with': 'Austria'}]", 0,
		    "Contents", "break that alliance first");
	rules_valid(CP, s, rules, "France", "[{'type': 'alliance', 'action': 'break', 'with': 'Russia'},"
		    " {'type': 'alliance', 'action': 'accept', 'with': 'Austria'}]");
	next = cpt_resolve(s, rules, "[{'type': 'alliance', 'action': 'break', 'with': 'Russia'},"
			   " {'type': 'alliance', 'action': 'accept', 'with': 'Austria'}]", 2, 2, NULL);
	assert_true(cp_allied(next, "France", "Austria"));
	assert_false(cp_allied(next, "France", "Russia"));
	/* Russia, its turn now, may not accept an old proposal of Austria's: Austria's card is with France. */
	json_array_append_new(json_object_get(next, "proposals"), json_pack("[s, s]", "Austria", "Russia"));
	cpt_refused(next, rules, "Russia", "[{'type': 'alliance', 'action': 'accept', 'with': 'Austria'}]", 0,
		    "Contents", "Austria holds France's Alliance card");
	json_decref(next);
	json_decref(s);
}

/* §8: "players simply agree to be allies and then exchange Alliance cards": propose, then accept. */
static void test_alliance_propose_then_accept(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next, *after;

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	/* Accepting what was never proposed is refused. */
	cpt_refused(s, rules, "France", "[{'type': 'alliance', 'action': 'accept', 'with': 'Russia'}]", 0, "§8",
		    "has not proposed");
	rules_valid(CP, s, rules, "France", "[{'type': 'alliance', 'action': 'propose', 'with': 'Russia'}]");
	next = cpt_resolve(s, rules, "[{'type': 'alliance', 'action': 'propose', 'with': 'Russia'}]", 3, 3, NULL);
	assert_false(cp_allied(next, "France", "Russia"));
	assert_string_equal(est_rules_str(next, "active"), "Russia");
	rules_valid(CP, next, rules, "Russia", "[{'type': 'alliance', 'action': 'accept', 'with': 'France'}]");
	after = cpt_resolve(next, rules, "[{'type': 'alliance', 'action': 'accept', 'with': 'France'}]", 3, 3, NULL);
	assert_true(cp_allied(after, "France", "Russia"));
	assert_false(cp_allied(after, "France", "Austria"));
	json_decref(after);
	json_decref(next);
	json_decref(s);
}

/*
 * §8 in one file: accepting an alliance and consenting to the new ally's
 * crossing are read in order; an order item's unknown field is refused,
 * not ignored; §13's "place" names a land square next to the red town.
 */
static void test_orders_read_in_order_and_strictly(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Austria-G", "Austria", "general", 10, 4);
	json_array_append_new(json_object_get(s, "proposals"), json_pack("[s, s]", "Russia", "France"));
	rules_valid(CP, s, rules, "France", "[{'type': 'alliance', 'action': 'accept', 'with': 'Russia'}, "
		  "{'type': 'consent', 'to': 'Russia'}]");
	cpt_refused(s, rules, "France", "[{'type': 'attack', 'target': 'Austria-G', 'with': 'France-G'}]", 0,
		    "not a field of attack orders", NULL);
	cpt_refused(s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [1, 3], 'bogus': 1}]", 0,
		    "not a field of move orders", NULL);
	json_decref(s);
}

/* §8: "A player must not cross any border into his ally's territory without his consent." */
static void test_crossing_into_an_ally_needs_consent(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6), *next;

	(void)unused;
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	cpt_put(s, "France-G", "France", "general", 3, 2);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	cpt_refused(s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [4, 2]}]", 0, "§8",
		    "France-G");
	/* Russia's turn: it consents; then France may cross. */
	json_object_set_new(s, "active", json_string("Russia"));
	rules_valid(CP, s, rules, "Russia", "[{'type': 'consent', 'to': 'France'}]");
	next = cpt_resolve(s, rules, "[{'type': 'consent', 'to': 'France'}]", 3, 3, NULL);
	json_object_set_new(next, "active", json_string("France"));
	rules_valid(CP, next, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [4, 2]}]");
	json_decref(next);
	/* An opponent's territory needs no consent. */
	json_array_clear(json_object_get(s, "alliances"));
	json_object_set_new(s, "active", json_string("France"));
	rules_valid(CP, s, rules, "France", "[{'type': 'move', 'piece': 'France-G', 'to': [4, 2]}]");
	json_decref(s);
}

/*
 * §8: "A player must not cross any border into his ally's territory without his consent", and a break
 * takes effect where it is written: the orders are carried out in the order written, by check and by the
 * turn alike (RULINGS.md C13). The finding's file, a move into the ally's country and then the break, is
 * refused by validate() at the move; written the other way round it is accepted, and it resolves.
 */
static void test_check_and_turn_apply_orders_alike(void **unused)
{
	static const char *const files[] = {
		"[{'type': 'move', 'piece': 'France-G', 'to': [4, 2]},"
		" {'type': 'alliance', 'action': 'break', 'with': 'Russia'}]",
		"[{'type': 'alliance', 'action': 'break', 'with': 'Russia'},"
		" {'type': 'move', 'piece': 'France-G', 'to': [4, 2]}]"};
	json_t *s = cpt_state(rules, "standard", 3, 4);

	(void)unused;
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	cpt_put(s, "France-G", "France", "general", 3, 2);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	/* Whatever check says of a file, a file it accepts resolves (cpt_resolve fails the test otherwise). */
	for (size_t f = 0; f < 2; f++) {
		json_t *d = NULL, *o = J(files[f]), *next;
		if (CP->validate(&d, s, rules, "France", o) < 0) {
			json_decref(d);
			json_decref(o);
			continue;
		}
		next = cpt_resolve(s, rules, files[f], 2, 2, NULL);
		json_decref(next);
		json_decref(o);
	}
	cpt_refused(s, rules, "France", files[0], 0, "§8", "consent");
	rules_valid(CP, s, rules, "France", files[1]);
	{
		json_t *next = cpt_resolve(s, rules, files[1], 2, 2, NULL);
		assert_true(cpt_on(next, "France-G", 4, 2));
		assert_false(cp_allied(next, "France", "Russia"));
		json_decref(next);
	}
	json_decref(s);
}

/* §8: "he may not break the alliance and attack his former ally in the same turn"; he attacks at his next turn. */
static void test_break_then_attack_former_ally(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *next, *after, *third;

	(void)unused;
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-C1", "France", "cavalry", 4, 3);
	cpt_put(s, "France-I1", "France", "infantry", 6, 2);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 6);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 5, 3);
	cpt_put(s, "Russia-I2", "Russia", "infantry", 7, 7);
	cpt_austria_stands_by(s);
	cpt_refused(s, rules, "France", "[{'type': 'alliance', 'action': 'break', 'with': 'Russia'},"
		    " {'type': 'attack', 'target': 'Russia-I1'}]", 1, "§8", "Russia-I1");
	cpt_refused(s, rules, "France", "[{'type': 'attack', 'target': 'Russia-I1'},"
		    " {'type': 'alliance', 'action': 'break', 'with': 'Russia'}]", 0, "§8", "Russia-I1");
	/* Consent given both ways goes with the alliance. */
	json_object_set_new(json_object_get(s, "consent"), "France", json_pack("[s]", "Russia"));
	json_object_set_new(json_object_get(s, "consent"), "Russia", json_pack("[s]", "France"));
	next = cpt_resolve(s, rules, "[{'type': 'alliance', 'action': 'break', 'with': 'Russia'}]", 1, 1, NULL);
	assert_false(cp_allied(next, "France", "Russia"));
	assert_false(est_rules_in_list(json_object_get(json_object_get(next, "consent"), "France"), "Russia"));
	assert_false(est_rules_in_list(json_object_get(json_object_get(next, "consent"), "Russia"), "France"));
	after = cpt_resolve(next, rules, "[]", 1, 1, NULL);	/* Russia */
	third = cpt_resolve(after, rules, "[]", 1, 1, NULL);	/* Austria; France's next turn */
	assert_string_equal(est_rules_str(third, "active"), "France");
	rules_valid(CP, third, rules, "France", "[{'type': 'attack', 'target': 'Russia-I1'}]");
	json_decref(third);
	json_decref(after);
	json_decref(next);
	json_decref(s);
}

/* Introduction: "When only two players are involved there can, of course, be no alliances." */
static void test_two_player_game_has_no_alliances(void **unused)
{
	json_t *s = cpt_state(rules, "standard", 6, 6);

	(void)unused;
	json_object_set_new(s, "partners", json_pack("[[s, s]]", "France", "Russia"));
	cpt_put(s, "France-G", "France", "general", 3, 2);
	cpt_refused(s, rules, "France", "[{'type': 'alliance', 'action': 'propose', 'with': 'Austria'}]", 0, "§1",
		    "no alliances");
	/* §1 "Each player controls two armies": France's General enters Russia, the same player's country. */
	cpt_step_allowed(s, rules, "France-G", 4, 2);
	json_decref(s);
}

/* Winning the Game, 2: "captures 8 towns, of whatever colour, but not including the 4 in his own country". */
static void test_win_by_eight_towns_abroad(void **unused)
{
	json_t *r = cpt_rules(), *s, *events = json_array();
	json_t *towns = json_object_get(cp_board(r), "towns");
	char name[16];

	(void)unused;
	/* Six more Russian yellow towns along row 7 and row 0: Russia then has 8. */
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof(name), "R%d", i);
		json_array_append_new(towns, json_pack("{s:s, s:s, s:[i, i], s:s}", "name", name, "country", "Russia",
						       "square", 4 + i % 4, i < 4 ? 7 : 0, "colour", "yellow"));
	}
	s = cpt_state(r, "introductory", 6, 6);
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 6, 3);
	cpt_austria_stands_by(s);
	/* France holds its own 2 and 7 abroad: not yet. */
	json_object_set_new(json_object_get(s, "towns"), "Minsk", json_string("France"));
	json_object_set_new(json_object_get(s, "towns"), "Prague", json_string("France"));
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "R%d", i);
		json_object_set_new(json_object_get(s, "towns"), name, json_string("France"));
	}
	assert_int_equal(cp_check_end(s, events, r), 0);
	assert_string_equal(est_rules_str(s, "phase"), "turn");
	json_object_set_new(json_object_get(s, "towns"), "Kiev", json_string("France"));
	assert_int_equal(cp_check_end(s, events, r), 0);
	assert_string_equal(est_rules_str(s, "phase"), "over");
	assert_string_equal(est_rules_str(s, "winner"), "France");
	json_decref(events);
	json_decref(s);
	json_decref(r);
}

/* Winning the Game, 1 (every opponent out) and Losing the game, 2 ("left with a General but no troops"). */
static void test_win_when_all_opponents_are_out_and_lose_with_no_troops(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *events = json_array();

	(void)unused;
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 6, 3);
	cpt_put(s, "Austria-G", "Austria", "general", 10, 4);
	/* Austria has a General but no troops: out; France and Russia stand. */
	assert_int_equal(cp_check_end(s, events, rules), 0);
	assert_true(cp_is_out(s, "Austria"));
	assert_false(cp_is_out(s, "Russia"));
	assert_string_equal(est_rules_str(s, "phase"), "turn");
	/* Russia out too: France wins. */
	json_array_append_new(json_object_get(s, "out"), json_string("Russia"));
	assert_int_equal(cp_check_end(s, events, rules), 0);
	assert_string_equal(est_rules_str(s, "phase"), "over");
	assert_string_equal(est_rules_str(s, "winner"), "France");
	json_decref(events);
	json_decref(s);
}

/*
 * Winning the Game, 1: "captures all his opponents' Capitals". Two allies left standing have not
 * taken each other's Capitals: the game goes on (an alliance may be broken at any time, §8).
 */
static void test_allies_left_standing_do_not_win(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *events = json_array();

	(void)unused;
	json_array_append_new(json_object_get(s, "alliances"), json_pack("[s, s]", "France", "Russia"));
	json_array_append_new(json_object_get(s, "out"), json_string("Austria"));
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 6, 3);
	assert_int_equal(cp_check_end(s, events, rules), 0);
	if (strcmp(est_rules_str(s, "phase"), "over") == 0)
		fail_msg("allies France and Russia both stand, yet the game is over: %s wins (%s)",
			 est_rules_str(s, "winner"), est_rules_str(s, "win_reason"));
	json_decref(events);
	json_decref(s);
}

/* "The player holding the largest number of towns when the deadline is reached would be the winner." */
static void test_time_limit_most_towns(void **unused)
{
	json_t *s = cpt_state(rules, "introductory", 6, 6), *events = json_array();

	(void)unused;
	json_object_set_new(s, "limit", json_integer(5));
	json_object_set_new(s, "turn", json_integer(4));
	cpt_put(s, "France-G", "France", "general", 1, 4);
	cpt_put(s, "France-I1", "France", "infantry", 0, 7);
	cpt_put(s, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(s, "Russia-I1", "Russia", "infantry", 6, 3);
	cpt_austria_stands_by(s);
	json_object_set_new(json_object_get(s, "towns"), "Kiev", json_string("Austria"));
	assert_int_equal(cp_check_end(s, events, rules), 0);
	assert_string_equal(est_rules_str(s, "phase"), "turn");
	json_object_set_new(s, "turn", json_integer(5));
	assert_int_equal(cp_check_end(s, events, rules), 0);
	assert_string_equal(est_rules_str(s, "phase"), "over");
	assert_string_equal(est_rules_str(s, "winner"), "Austria");
	json_decref(events);
	json_decref(s);
}

static int group_setup(void **unused)
{
	(void)unused;
	rules = cpt_rules();
	return rules && cp_check_board(rules) == 0 ? 0 : -1;
}

static int group_teardown(void **unused)
{
	(void)unused;
	json_decref(rules);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_real_board_four_players),
		cmocka_unit_test(test_setup_refusals),
		cmocka_unit_test(test_general_moves_one_square_any_direction),
		cmocka_unit_test(test_cavalry_moves_exactly_two_squares_orthogonally),
		cmocka_unit_test(test_infantry_moves_one_square_diagonally),
		cmocka_unit_test(test_no_jumping_and_one_piece_per_square),
		cmocka_unit_test(test_sea_forest_mountain_refused),
		cmocka_unit_test(test_frontier_crossed_only_at_crossings),
		cmocka_unit_test(test_breakthrough_between_two_opposing_pieces_refused),
		cmocka_unit_test(test_breakthrough_between_own_pieces_allowed),
		cmocka_unit_test(test_throw_limits_the_number_of_moves),
		cmocka_unit_test(test_piece_touched_again_refused),
		cmocka_unit_test(test_cavalry_one_square_order_refused),
		cmocka_unit_test(test_attack_declared_first_and_only_one),
		cmocka_unit_test(test_two_attackers_take_a_troop),
		cmocka_unit_test(test_three_attackers_take_a_general),
		cmocka_unit_test(test_attack_positions_by_kind),
		cmocka_unit_test(test_diagonal_cavalry_attack_does_not_take),
		cmocka_unit_test(test_attack_takes_and_attackers_do_not_move_on),
		cmocka_unit_test(test_allied_pieces_combine),
		cmocka_unit_test(test_standard_support_left_unengaged_holds),
		cmocka_unit_test(test_standard_support_needs_enough_left),
		cmocka_unit_test(test_attack_result_names_the_pieces),
		cmocka_unit_test(test_piece_off_the_board_takes_no_part),
		cmocka_unit_test(test_supporters_are_not_supported),
		cmocka_unit_test(test_only_a_general_captures_a_town),
		cmocka_unit_test(test_capital_falls_when_all_its_towns_are_held),
		cmocka_unit_test(test_red_town_gains_and_loses_a_piece),
		cmocka_unit_test(test_red_town_place_order_and_other_kind),
		cmocka_unit_test(test_introductory_general_captured),
		cmocka_unit_test(test_introductory_captured_army_never_shares_a_square),
		cmocka_unit_test(test_standard_general_captured_recruits),
		cmocka_unit_test(test_mobilising),
		cmocka_unit_test(test_mobilised_with_more_than_four_of_a_kind),
		cmocka_unit_test(test_mobilising_capital_is_not_taken),
		cmocka_unit_test(test_mobilising_start_square_held_by_an_opponent),
		cmocka_unit_test(test_mobilising_capital_held_by_an_opponent),
		cmocka_unit_test(test_alliance_propose_then_accept),
		cmocka_unit_test(test_red_town_brings_no_piece_beyond_the_set),
		cmocka_unit_test(test_recruits_within_the_set),
		cmocka_unit_test(test_one_alliance_card_each),
		cmocka_unit_test(test_orders_read_in_order_and_strictly),
		cmocka_unit_test(test_crossing_into_an_ally_needs_consent),
		cmocka_unit_test(test_check_and_turn_apply_orders_alike),
		cmocka_unit_test(test_break_then_attack_former_ally),
		cmocka_unit_test(test_two_player_game_has_no_alliances),
		cmocka_unit_test(test_win_by_eight_towns_abroad),
		cmocka_unit_test(test_win_when_all_opponents_are_out_and_lose_with_no_troops),
		cmocka_unit_test(test_allies_left_standing_do_not_win),
		cmocka_unit_test(test_time_limit_most_towns),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
