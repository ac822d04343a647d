/*
 * Campaign report templates (templates/campaign/) and view
 * (internal/rulesets/campaign/view.c): the real renderer over the engine's
 * report data with this ruleset's view, for the four-player set-up made by
 * setup() from the real board and for a turn set up by hand with last
 * turn's moves, an attack and alliances. The text board is checked line by
 * line against the board data, the legal steps against counts worked out
 * by hand from the board (and each against the order checker), and map.svg
 * is parsed as XML by Python.
 */
#include <unistd.h>

#include "cp_helpers.h"

static json_t *rules;

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* §1's four players, set up by the ruleset; France to play turn 1 with a throw of 3 and 4. */
static json_t *four_players(void)
{
	json_t *s = NULL, *options = J("{'players': [['France'], ['Russia'], ['Austria'], ['Spain']]}");

	if (est_ruleset_campaign.setup(&s, rules, options) < 0)
		fail_msg("setup: %s", est_error_message());
	json_decref(options);
	json_object_set_new(s, "phase", json_string("turn"));
	json_object_set_new(s, "turn", json_integer(1));
	json_object_set_new(s, "active", json_string("France"));
	json_object_set_new(s, "throw", J("[3, 4]"));
	json_object_set_new(s, "order", J("['France', 'Russia', 'Austria', 'Spain']"));
	return s;
}

/*
 * Turn 6, Russia to play: France's cavalry France-C4 went [5, 6] -> [5, 8]
 * -> [5, 10] last turn and France attacked Austria-I1, which held; France
 * and Spain are allies, Austria proposes to Russia, Russia broke with
 * Austria in turn 4; Austria misses a turn, Spain mobilises.
 */
static json_t *mid_game(void)
{
	json_t *s = four_players();

	json_object_set_new(s, "turn", json_integer(6));
	json_object_set_new(s, "active", json_string("Russia"));
	json_object_set_new(s, "throw", J("[2, 5]"));
	json_object_set_new(cp_piece(s, "France-C4"), "square", J("[5, 10]"));
	json_object_set_new(s, "last", J("{'moves': [{'piece': 'France-C4', 'from': [5, 6], 'to': [5, 8]},"
					 " {'piece': 'France-C4', 'from': [5, 8], 'to': [5, 10]}],"
					 " 'attack': {'target': 'Austria-I1', 'taken': false,"
					 " 'why': '1 attacking piece free to strike against a defence of 1, after engaging "
					 "(not every supporter could be engaged)', 'pieces': 'striking: France-C4; Austria-I2 at "
					 "[11, 10] supports it unengaged (§14)'}}"));
	json_object_set_new(s, "alliances", J("[['France', 'Spain']]"));
	json_object_set_new(s, "proposals", J("[['Austria', 'Russia']]"));
	json_object_set_new(s, "broken", J("[{'by': 'Russia', 'with': 'Austria', 'turn': 4}]"));
	json_object_set_new(s, "consent", J("{'Spain': ['France']}"));
	json_object_set_new(s, "missed", J("{'Austria': 1}"));
	json_object_set_new(s, "immune", J("{'Austria': 2}"));
	json_object_set_new(s, "mobilising", J("{'Spain': true}"));
	json_object_set_new(json_object_get(s, "towns"), "Prague", json_string("France"));
	return s;
}

static json_t *view(const json_t *state, const char *power)
{
	json_t *v = NULL;

	if (cp_view(&v, state, rules, power) < 0)
		fail_msg("view: %s", est_error_message());
	return v;
}

/* The engine's report data (internal/step/report.c) for a player of `power`, or the public. */
static json_t *model(const json_t *state, const char *power, json_t *events)
{
	json_t *m = json_pack("{s:s, s:s, s:i, s:s, s:b, s:o, s:[{s:s, s:s, s:[s], s:s, s:s}], s:s, s:i, s:s,"
			      " s:{s:s, s:s, s:[{s:i, s:i, s:s}]}, s:b, s:o, s:[], s:[], s:{s:s, s:s, s:s, s:s}}",
			      "game", "cp-<1>", "ruleset", "campaign", "step", 6, "kind", "turn",
			      "public", power == NULL, "events", events ? events : json_array(),
			      "awaiting", "player", "russia", "name", "Tsar <Alexander>", "powers", "Russia", "powers_text", "Russia",
			      "mode", "sequential", "prompt", "Russia's turn 6: the dice throw 7 moves",
			      "next_step", 7, "state_sha256", "ab12cd",
			      "dice", "reveal", "00ff", "seed", "11ee", "rolls", "sides", 6, "value", 2, "purpose",
			      "Russia's throw", "over", 0, "view", view(state, power), "views", "provisional",
			      "template", "name", "report", "source", "estafette 0.1.0", "sha256", "ab12cd34",
			      "short", "ab12cd");

	assert_non_null(m);
	if (power) {
		json_object_set_new(m, "player", json_pack("{s:s, s:s, s:[s]}", "id", "p1", "name", "Player <One>",
							   "powers", power));
		rules_answer(m, &est_ruleset_campaign, state, rules, "orders-0007-p1.json");
	}
	return m;
}

static const json_t *find(const json_t *list, const char *key, const char *value)
{
	const json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (json_string_value(json_object_get(v, key)) &&
		    strcmp(json_string_value(json_object_get(v, key)), value) == 0)
			return v;
	fail_msg("no %s %s", key, value);
	return NULL;
}

/* The line of the text board for row y (two header lines come first). */
static const char *board_line(const json_t *v, int y)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(v, "text_board"), (size_t)y + 2),
						 "line"));
}

/* The text board of the set-up, row by row, as worked out by hand from data/board.json. */
static void test_text_board(void **unused)
{
	json_t *s = four_players(), *v = view(s, "France");

	(void)unused;
	assert_int_equal(json_array_size(json_object_get(v, "text_board")), 2 + 20);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "text_board"), 0), "line")),
			    "                       1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 ");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "text_board"), 1), "line")),
			    "   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 ");
	assert_string_equal(board_line(v, 0), " 0 " "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~" "  0");
	/* Hamburg (yellow) and St Petersburg (red); Prussia is not in this game but its land is. */
	assert_string_equal(board_line(v, 2), " 2 " "~~~~~~~~~~~~~~~~~~~~pop.p.p.p.~~~~~~~~~~~~r.r@r.r.~~" "  2");
	/* Paris under France's General between two cavalry; Russia's infantry and cavalry; a Prussian forest. */
	/*
	 * The Board: pieces move between countries only "by crossing the frontier rivers or the red, frontier
	 * lines": a square a crossing leaves is marked "+" ([7, 5] of France to [8, 4] of Prussia, [16, 5] of
	 * Prussia to [17, 4] and [17, 6] of Russia), and every crossing is listed, a line a frontier.
	 */
	assert_string_equal(board_line(v, 5), " 5 " "~~~~~~f.FcFGFcf+p.p.p.p.p.p.p.##p+r.r.r.r.RiRcRir.r." "  5");
	assert_int_equal(json_array_size(json_object_get(v, "crossings_text")), 14);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "crossings_text"), 8),
							      "line")),
			    "  France-Prussia: [7, 4]-[8, 4] [7, 6]-[8, 6] [8, 7]-[9, 7] [8, 8]-[9, 8]");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "crossings_text"), 9),
							      "line")),
			    "    [7, 5]-[8, 4] [8, 8]-[9, 7]");
	/* Vienna under Austria's General; Kiev (red) of Russia at the east edge. */
	assert_string_equal(board_line(v, 10), "10 " "~~~~f.f.f.f.f.f.^^^^^^a.a.a.AcAGAca.a+r+r.r.r.r.r@r." " 10");
	/* Madrid under Spain's General between two cavalry; an Italian forest. */
	assert_string_equal(board_line(v, 16), "16 " "s.s.ScSGScs.s.s.~~~~~~i.i.i.i.##i.i.~~~~~~~~~~~~~~~~" " 16");
	json_decref(v);
	json_decref(s);
}

/*
 * The legal steps of France's pieces at the set-up, worked out from the
 * board: the General on Paris is hemmed in by his own eight pieces;
 * France-I1 on [4, 4] has sea at [3, 3] and the General at [5, 5], leaving
 * [5, 3] and [3, 5]; France-C1 on [5, 4] meets sea, sea, France-I2 in the
 * way and France-C4; France-C4 on [5, 6] may go down to [5, 8] only.
 */
static void test_legal_moves(void **unused)
{
	json_t *s = four_players(), *v = view(s, "France");
	const json_t *legal = json_object_get(v, "legal"), *l;
	int total = 0;
	size_t i;

	(void)unused;
	assert_int_equal(json_array_size(legal), 9);
	l = find(legal, "id", "France-G");
	assert_int_equal(json_integer_value(json_object_get(l, "count")), 0);
	assert_true(json_is_true(json_object_get(l, "none")));
	l = find(legal, "id", "France-I1");
	assert_int_equal(json_integer_value(json_object_get(l, "count")), 2);
	assert_string_equal(json_string_value(json_object_get(l, "squares_text")), "[5, 3] [3, 5]");
	l = find(legal, "id", "France-C1");
	assert_int_equal(json_integer_value(json_object_get(l, "count")), 0);
	assert_string_equal(json_string_value(json_object_get(l, "squares_text")), "none");
	l = find(legal, "id", "France-C4");
	assert_int_equal(json_integer_value(json_object_get(l, "count")), 1);
	assert_string_equal(json_string_value(json_object_get(l, "squares_text")), "[5, 8]");

	/* Every step listed is one the order checker accepts as the first move of the turn. */
	json_array_foreach(legal, i, l) {
		const json_t *sq;
		size_t k;
		total += (int)json_integer_value(json_object_get(l, "count"));
		json_array_foreach(json_object_get(l, "squares"), k, sq) {
			json_t *orders = json_pack("[{s:s, s:s, s:[O, O]}]", "type", "move", "piece",
						   json_string_value(json_object_get(l, "id")), "to",
						   json_object_get(sq, "x"), json_object_get(sq, "y")), *diags = NULL;
			if (cp_validate(&diags, s, rules, "France", orders) < 0)
				fail_msg("%s to %s refused: %s", json_string_value(json_object_get(l, "id")),
					 json_string_value(json_object_get(sq, "text")), json_dumps(diags, 0));
			json_decref(orders);
		}
	}
	assert_int_equal(json_integer_value(json_object_get(v, "legal_total")), total);
	/* A square left out is refused: France-C1 to [7, 4] (France-I2 stands in the way). */
	{
		json_t *orders = J("[{'type': 'move', 'piece': 'France-C1', 'to': [7, 4]}]"), *diags = NULL;
		assert_int_equal(cp_validate(&diags, s, rules, "France", orders), EST_EINVAL);
		json_decref(diags);
		json_decref(orders);
	}
	/* Russia-I1 on [21, 5] in the hand-made turn: a forest at [20, 4], the General at [22, 6]. */
	json_decref(v);
	json_decref(s);
	s = mid_game();
	v = view(s, NULL);
	l = find(json_object_get(v, "legal"), "id", "Russia-I1");
	assert_int_equal(json_integer_value(json_object_get(l, "count")), 2);
	assert_string_equal(json_string_value(json_object_get(l, "squares_text")), "[22, 4] [20, 6]");
	/* Only the active country's pieces are listed. */
	{
		char *text = json_dumps(json_object_get(v, "legal"), 0);
		assert_non_null(text);
		assert_null(strstr(text, "France-"));
		free(text);
	}
	json_decref(v);
	json_decref(s);
}

/* The view's countries, towns and diplomacy for the hand-made turn; the reader's pieces are marked. */
static void test_mid_game_view(void **unused)
{
	json_t *s = mid_game(), *v = view(s, "France"), *pub = view(s, NULL);
	const json_t *c, *p, *a;

	(void)unused;
	assert_string_equal(json_string_value(json_object_get(v, "active")), "Russia");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(v, "throw"), "total")), 7);
	assert_string_equal(json_string_value(json_object_get(v, "order_text")), "France, Russia, Austria, Spain");
	assert_false(json_is_true(json_object_get(v, "own_turn")));
	c = find(json_object_get(v, "countries"), "country", "France");
	assert_true(json_is_true(json_object_get(c, "own")));
	assert_int_equal(json_integer_value(json_object_get(c, "towns_count")), 5);
	assert_int_equal(json_integer_value(json_object_get(c, "red_cards")), 3);
	assert_int_equal(json_integer_value(json_object_get(c, "towns_abroad")), 1);
	p = find(json_object_get(c, "pieces"), "id", "France-G");
	assert_true(json_is_true(json_object_get(p, "own")));
	assert_string_equal(json_string_value(json_object_get(p, "where")), "Paris");
	p = find(json_object_get(find(json_object_get(pub, "countries"), "country", "France"), "pieces"), "id", "France-G");
	assert_false(json_is_true(json_object_get(p, "own")));
	c = find(json_object_get(v, "countries"), "country", "Austria");
	assert_false(json_is_true(json_object_get(c, "own")));
	assert_int_equal(json_integer_value(json_object_get(c, "towns_count")), 3);
	assert_int_equal(json_array_size(json_object_get(c, "notes")), 2);
	a = find(json_object_get(v, "broken"), "by", "Russia");
	/* Russia broke in turn 4 and plays turn 6, now (§8: "attack at his next turn"). */
	assert_int_equal(json_integer_value(json_object_get(a, "attack_from")), 6);
	assert_true(json_is_true(json_object_get(v, "diplomacy")));
	assert_false(json_is_true(json_object_get(json_object_get(json_object_get(v, "last"), "attack"), "taken")));
	assert_string_equal(json_string_value(find(json_object_get(v, "towns"), "name", "Prague") ?
					      json_object_get(find(json_object_get(v, "towns"), "name", "Prague"), "holder") :
					      NULL), "France");
	/* Nothing is hidden: the public view and France's differ only in what is France's own. */
	json_object_del(v, "power");
	json_object_del(v, "own_turn");
	assert_false(json_equal(v, pub));
	json_decref(pub);
	json_decref(v);
	json_decref(s);
}

/* report.txt for the set-up: the board, the legal moves, France's turn, the order examples. */
static void test_setup_report(void **unused)
{
	json_t *s = four_players(), *m = model(s, "France", NULL);
	char *t = rules_render("campaign", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);

	(void)unused;
	assert_non_null(strstr(t, "CAMPAIGN (Waddington, 1971) - game cp-<1>, step 6 (turn)\n"));
	assert_non_null(strstr(t, "The standard game, turn 1: France to play, the dice throw 3 and 4: 7 moves (§2)\n"));
	assert_non_null(strstr(t, "Order of play: France, Russia, Austria, Spain\n"));
	assert_non_null(strstr(t, "IT IS YOUR TURN: France has 7 moves.\n"));
	assert_non_null(strstr(t, "\n 5 ~~~~~~f.FcFGFcf+p.p.p.p.p.p.p.##p+r.r.r.r.RiRcRir.r.  5\n"));
	assert_non_null(strstr(t, "\nFrance (yours) - TO PLAY: 4 infantry, 4 cavalry; 4 Town cards (2 red, 2 yellow), 0 abroad\n"));
	assert_non_null(strstr(t, "\n  France-G (general) at [5, 5] on Paris\n"));
	assert_non_null(strstr(t, "\n  Towns: Lille (red), Lyon (red), Bordeaux (yellow), Marseille (yellow)\n"));
	assert_non_null(strstr(t, "\n  Lyon (red, France) at [7, 9]: held by France\n"));
	assert_non_null(strstr(t, "\n  Venice (red, Italy) at [11, 12]: held by nobody\n"));
	assert_non_null(strstr(t, "\nLEGAL MOVES NOW FOR France (7 moves to spend)\n"));
	assert_non_null(strstr(t, "\n  France-I1 (infantry) at [4, 4]: 2 - [5, 3] [3, 5]\n"));
	assert_non_null(strstr(t, "\n  France-G (general) at [5, 5]: 0 - none\n"));
	assert_non_null(strstr(t, "  none: every country fights alone\n"));
	/* The choices name real pieces: each piece's first legal step, an enemy piece, another country. */
	assert_non_null(strstr(t, "{\"type\": \"attack\", \"target\": \"<enemy piece>\"}\n"
				  "      §10: at most one attack, the first order (e.g. Russia-G)\n"));
	assert_non_null(strstr(t, "{\"type\": \"move\", \"piece\": \"France-I1\", \"to\": [5, 3]}"));
	assert_non_null(strstr(t, "{\"type\": \"alliance\", \"with\": \"<country>\", \"action\": \"propose\"}"
				  "\n      §8: propose an alliance (e.g. with Russia)\n"));
	assert_non_null(strstr(t, "{\"type\": \"consent\", \"to\": \"<ally>\"}"));
	assert_non_null(strstr(t, "{\"type\": \"place\", \"town\": \"<town>\", \"square\": [\"<number>\", \"<number>\"]}"));
	assert_non_null(strstr(t, "Your order file is attached, filled in: orders-0007-p1.json\n"));
	assert_non_null(strstr(t, "\n  d6 = 2: Russia's throw\n"));
	assert_non_null(strstr(t, "\nNote: board.json is reconstructed, from "));
	assert_null(strstr(t, "Last turn on the map"));
	assert_null(strstr(t, "{{"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/*
 * §8: "He must declare his intention to break the alliance ... during one turn, and attack at his next
 * turn." The report names the turn the breaker plays next, counted as the turns go round the order of
 * play (France, Russia, Austria, Spain): not the turn after the break, which is another player's.
 */
static void test_broken_alliance_names_the_next_turn(void **unused)
{
	json_t *s = four_players(), *v;
	const char *text;

	(void)unused;
	json_object_set_new(s, "turn", json_integer(5));
	json_object_set_new(s, "active", json_string("Russia"));
	json_object_set_new(s, "broken", J("[{'by': 'France', 'with': 'Spain', 'turn': 4}]"));
	v = view(s, NULL);
	text = json_string_value(json_object_get(json_array_get(json_object_get(v, "broken"), 0), "text"));
	assert_string_equal(text, "France broke its alliance with Spain in turn 4: it may attack Spain from its "
			    "next turn, turn 8, on");
	json_decref(v);
	/* Austria out: one turn sooner. France to miss a turn (§12): a round later. */
	json_array_append_new(json_object_get(s, "out"), json_string("Austria"));
	v = view(s, NULL);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(v, "broken"), 0),
							     "attack_from")), 7);
	json_decref(v);
	json_object_set_new(json_object_get(s, "missed"), "France", json_integer(1));
	v = view(s, NULL);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(v, "broken"), 0),
							     "attack_from")), 10);
	json_decref(v);
	json_decref(s);
}

/* report.txt for the hand-made turn: last turn's moves and attack, the alliances, Austria's missed turn. */
static void test_mid_game_report(void **unused)
{
	json_t *s = mid_game(), *m = model(s, NULL, J("[{'type': 'throw', 'text': 'Russia\\u2019s turn: the dice throw 2 and 5'}]"));
	char *t = rules_render("campaign", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	char *h = rules_render("campaign", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);

	(void)unused;
	assert_non_null(strstr(t, "Public report\n"));
	assert_null(strstr(t, "IT IS YOUR TURN"));
	assert_null(strstr(t, "(yours)"));
	assert_non_null(strstr(t, "Last turn on the map:\n  France-C4 [5, 6] -> [5, 8]\n  France-C4 [5, 8] -> [5, 10]\n"
				  "  attack: Austria-I1 was attacked: it held (1 attacking piece free to strike against a "
				  "defence of 1, after engaging (not every supporter could be engaged)); striking: "
				  "France-C4; Austria-I2 at [11, 10] supports it unengaged (§14)\n"));
	assert_non_null(strstr(t, "\n  France and Spain are allies (§8)\n  Austria proposes an alliance to Russia (§8)\n"
				  "  Spain lets its ally France cross into its territory\n"
				  "  Russia broke its alliance with Austria in turn 4: it may attack Austria now\n"));
	assert_non_null(strstr(t, "\nAustria: 4 infantry, 4 cavalry; 3 Town cards (1 red, 2 yellow), 0 abroad\n"
				  "  ! misses its next turn (§12)\n"
				  "  ! its General may not be attacked until 2 more turns of its own have passed (§12)\n"));
	assert_non_null(strstr(t, "  ! mobilising: its General and army must gather"));
	assert_non_null(strstr(t, "\nRussia - TO PLAY: "));
	assert_non_null(strstr(t, "\n  Russia-I1 (infantry) at [21, 5]: 2 - [22, 4] [20, 6]\n"));
	assert_non_null(strstr(t, "\n  Prague (red, Austria) at [12, 9]: held by France\n"));
	/* The crossings, in the text board's legend of both reports, not only on the map. */
	assert_non_null(strstr(t, "\n  France-Prussia: [7, 4]-[8, 4] [7, 6]-[8, 6] [8, 7]-[9, 7] [8, 8]-[9, 8]\n"));
	assert_non_null(strstr(h, "\n  France-Prussia: [7, 4]-[8, 4] [7, 6]-[8, 6] [8, 7]-[9, 7] [8, 8]-[9, 8]\n"));
	/* France-C4 now on [5, 10]: row 10 shows it in France's Enlistment Area. */
	assert_non_null(strstr(t, "\n10 ~~~~f.f.f.Fcf.f.^^^^^^a.a.a.AcAGAca.a+r+r.r.r.r.r@r. 10\n"));
	/* The public report: nobody's order file, no "how to send orders". */
	assert_null(strstr(t, "HOW TO SEND ORDERS"));
	assert_null(strstr(t, "{\"type\": \"attack\""));

	assert_non_null(strstr(h, "<li>France-C4 [5, 8] &rarr; [5, 10]</li>"));
	assert_non_null(strstr(h, "<title>Campaign cp-&lt;1&gt;, step 6</title>"));
	assert_non_null(strstr(h, "<tr><td><code>Russia-I1</code> (infantry)</td><td>[21, 5]</td><td class=\"n\">2</td>"
				  "<td>[22, 4] [20, 6]</td></tr>"));
	assert_non_null(strstr(h, "\n10 ~~~~f.f.f.Fcf.f.^^^^^^a.a.a.AcAGAca.a+r+r.r.r.r.r@r. 10\n"));
	assert_null(strstr(h, "cp-<1>"));
	free(h);
	free(t);
	json_decref(m);
	json_decref(s);
}

/* The width of a line as a mail reader shows it: UTF-8 characters ("§" is one column). */
static size_t line_columns(const char *line, size_t len)
{
	size_t cols = 0;

	for (size_t i = 0; i < len; i++)
		cols += ((unsigned char)line[i] & 0xc0) != 0x80;
	return cols;
}

/*
 * §10: "he may not change his target once he has made a move", and RULINGS.md C5: the attack "is
 * declared as the turn's first order ... and resolved at the end of the turn, on the pieces as they
 * then stand". The advice of both reports says both halves; and the game does as it says: France
 * declares an attack on Russia-I1 with no piece of its own touching it, then moves its General and an
 * infantry piece next to it, and the two take it (2 against a defence of 1).
 */
static void test_order_advice_says_the_attack_is_judged_after_the_moves(void **unused)
{
	json_t *s = four_players(), *m = model(s, "France", NULL), *r = cpt_rules(), *small, *next;
	char *t = rules_render("campaign", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	char *h = rules_render("campaign", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);

	(void)unused;
	assert_non_null(strstr(t, "\nThe attack: at most one, written before any move, as its target may not\n"
				  "change once a piece has moved (§10); but it is judged at the end of the\n"
				  "turn, after the moves, on the pieces as they then stand (RULINGS.md C5):\n"
				  "declare it first, then move your pieces up to the target.\n"));
	assert_non_null(strstr(h, "(&sect;10); but it is judged at the end of the turn, after the moves, on the "
				  "pieces as they then stand\n(RULINGS.md C5)"));
	assert_non_null(strstr(t, "towns are taken, and the piece a red\ntown brings is placed, at the end of "
				  "the turn, after the attack (§6, §13).\n"));

	small = cpt_state(r, "standard", 1, 1);
	cpt_put(small, "Russia-I1", "Russia", "infantry", 1, 2);
	cpt_put(small, "Russia-G", "Russia", "general", 6, 4);
	cpt_put(small, "Russia-C1", "Russia", "cavalry", 5, 7);
	cpt_put(small, "Austria-G", "Austria", "general", 10, 4);
	cpt_put(small, "Austria-I1", "Austria", "infantry", 9, 3);
	cpt_put(small, "France-G", "France", "general", 1, 4);
	cpt_put(small, "France-I1", "France", "infantry", 3, 4);
	assert_int_equal(cpt_taken(small, "France", "Russia-I1"), 0);
	next = cpt_resolve(small, r, "[{'type': 'attack', 'target': 'Russia-I1'},"
			   " {'type': 'move', 'piece': 'France-G', 'to': [1, 3]},"
			   " {'type': 'move', 'piece': 'France-I1', 'to': [2, 3]}]", 3, 4, NULL);
	assert_null(cp_piece(next, "Russia-I1"));
	assert_true(cpt_on(next, "France-G", 1, 3));
	json_decref(next);
	json_decref(small);
	json_decref(r);
	free(h);
	free(t);
	json_decref(m);
	json_decref(s);
}

/* The choices of a report: 1 if one has order type `type`. */
static int offers(const json_t *choices, const char *type)
{
	const json_t *c;
	size_t i;

	json_array_foreach(choices, i, c)
		if (strcmp(json_string_value(json_object_get(json_object_get(c, "order"), "type")), type) == 0)
			return 1;
	return 0;
}

/* The text of the first choice of `type` whose order has `field` = `value` (NULL: any). */
static const char *choice_text(const json_t *choices, const char *type, const char *field, const char *value)
{
	const json_t *c;
	size_t i;

	json_array_foreach(choices, i, c) {
		const json_t *o = json_object_get(c, "order");
		if (strcmp(json_string_value(json_object_get(o, "type")), type) == 0 &&
		    (!field || strcmp(json_string_value(json_object_get(o, field)), value) == 0))
			return json_string_value(json_object_get(c, "text"));
	}
	fail_msg("no %s choice", type);
	return NULL;
}

/*
 * §1: "when only two players are involved there can be no alliances"; RULINGS.md C2: each player holds
 * two countries (France and Spain v Russia and Austria). Spain's report offers no alliance or consent
 * order, which check refuses, and says there are none; every choice it offers with no placeholder is an
 * order check accepts. With four players, the examples name a country of another player: France allied
 * with Spain proposes to Russia, breaks with or consents to Spain.
 */
static void test_two_player_report_offers_no_alliances(void **unused)
{
	json_t *s = NULL, *options = J("{'players': [['France', 'Spain'], ['Russia', 'Austria']]}"), *m, *pending = NULL;
	const json_t *c;
	char *t, *h;
	size_t i;

	(void)unused;
	if (est_ruleset_campaign.setup(&s, rules, options) < 0)
		fail_msg("setup: %s", est_error_message());
	json_decref(options);
	json_object_set_new(s, "phase", json_string("turn"));
	json_object_set_new(s, "turn", json_integer(2));
	json_object_set_new(s, "active", json_string("Spain"));
	json_object_set_new(s, "throw", J("[3, 4]"));
	json_object_set_new(s, "order", J("['France', 'Russia', 'Spain', 'Austria']"));
	cpt_refused(s, rules, "Spain", "[{'type': 'alliance', 'with': 'Russia', 'action': 'propose'}]", 0, "§1",
		    "no alliances");
	assert_int_equal(est_ruleset_campaign.pending(&pending, s, rules), 0);
	assert_false(offers(json_object_get(pending, "choices"), "alliance"));
	assert_false(offers(json_object_get(pending, "choices"), "consent"));
	assert_true(offers(json_object_get(pending, "choices"), "move"));
	json_array_foreach(json_object_get(pending, "choices"), i, c) {
		char *text = json_dumps(json_object_get(c, "order"), 0);
		json_t *orders = json_pack("[O]", json_object_get(c, "order")), *diags = NULL;
		if (!strchr(text, '<') && cp_validate(&diags, s, rules, "Spain", orders) < 0)
			fail_msg("the report offers %s, which check refuses: %s", text, json_dumps(diags, 0));
		free(text);
		json_decref(orders);
	}
	json_decref(pending);

	m = model(s, "Spain", NULL);
	t = rules_render("campaign", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	h = rules_render("campaign", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);
	assert_null(strstr(t, "\"type\": \"alliance\""));
	assert_null(strstr(t, "\"type\": \"consent\""));
	assert_null(strstr(t, "e.g. with France"));
	assert_null(strstr(t, "An alliance or consent order"));
	assert_non_null(strstr(t, "\nNo alliance or consent orders: between two players there can be no\n"
				  "alliances (§1).\n"));
	assert_non_null(strstr(t, "\nALLIANCES (§8)\n  none: between two players there can be no alliances (§1); "
				  "each player's\n  two countries fight as one side\n"));
	assert_null(strstr(h, "&quot;type&quot;: &quot;alliance&quot;"));
	assert_non_null(strstr(h, "No alliance or consent orders: between two players there can be no alliances"));
	free(h);
	free(t);
	json_decref(m);
	json_decref(s);

	s = four_players();
	json_object_set_new(s, "alliances", J("[['France', 'Spain']]"));
	assert_int_equal(est_ruleset_campaign.pending(&pending, s, rules), 0);
	c = json_object_get(pending, "choices");
	assert_string_equal(choice_text(c, "alliance", "action", "propose"), "§8: propose an alliance (e.g. with Russia)");
	assert_string_equal(choice_text(c, "alliance", "action", "break"), "§8: break an alliance (e.g. with Spain)");
	assert_string_equal(choice_text(c, "consent", NULL, NULL), "§8: let an ally cross into your territory (e.g. to Spain)");
	json_decref(pending);
	json_decref(s);
}

/*
 * The text board's legend is laid out within the 78 columns of a mailed report (RFC 5322 2.1.1), so the
 * mailer never re-wraps it into ragged lines: every line from the board's heading to the next section.
 */
static void test_board_legend_fits_78_columns(void **unused)
{
	json_t *s = four_players(), *m = model(s, "France", NULL);
	char *t = rules_render("campaign", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	const char *from = strstr(t, "\nTHE BOARD"), *to = strstr(t, "\nPIECES, TOWNS AND CARDS\n"), *line;
	int lines = 0;

	(void)unused;
	assert_non_null(from);
	assert_non_null(to);
	for (line = from + 1; line < to; line = strchr(line, '\n') + 1) {
		size_t len = strcspn(line, "\n");
		if (line_columns(line, len) > 78)
			fail_msg("a legend line is %zu columns wide: %.*s", line_columns(line, len), (int)len, line);
		lines++;
	}
	assert_true(lines > 30);
	assert_non_null(strstr(t, "\n  Pieces: the country's letter, then G General, i infantry, c cavalry\n"
				  "    (FG France's General, Fi French infantry, Fc French cavalry);\n"
				  "    F France, P Prussia, R Russia, A Austria, S Spain.\n"
				  "  Land: the country's small letter (f p r a i s), then . plain, * capital,\n"
				  "    @ red town, o yellow town, + a square a frontier crossing leaves.\n"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/* Replace the value at `path` ("towns[0].colour", "start.France.cavalry") of `root` with `value`. */
static void set_path(json_t *root, const char *path, json_t *value)
{
	char buf[128], *p = buf, *next;
	json_t *at = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (;;) {
		size_t n = strcspn(p, ".[");
		char sep = p[n];
		p[n] = 0;
		if (*p && !sep) {
			assert_int_equal(json_object_set_new(at, p, value), 0);
			return;
		}
		if (*p)
			at = json_object_get(at, p);
		if (sep == '[') {
			size_t index = strtoul(p + n + 1, &next, 10);
			if (next[1] == 0) {
				assert_int_equal(json_array_set_new(at, index, value), 0);
				return;
			}
			at = json_array_get(at, index);
			p = next + 1 + (next[1] == '.');
		} else {
			p += n + 1;
		}
		assert_non_null(at);
	}
}

/*
 * Rules data (docs/adding-a-ruleset.md): a broken board.json is refused at set-up with the file, the
 * field's path, what is wrong and the fix; never a bare "fix the data".
 */
static void test_board_data_errors_name_field_and_fix(void **unused)
{
	static const struct {
		const char *path, *value, *words, *fix;
	} cases[] = {
		{"width", "3", "field \"width\" is 3", "from 4 to 80"},
		{"height", "20000", "field \"height\" is 20000, outside -10000..10000", "give a number within"},
		{"terrain[2]", "'~~~'", "field \"terrain[2]\" is 3 characters long", "make it 26, one a column"},
		{"countries[1]", "'~~~~~~~~~~~~~~~~~~~~~~~~~Z'", "field \"countries[1]\" has 'Z' at column 25",
		 "use only F P R A I S"},
		{"towns[0].colour", "'green'", "field \"towns[0].colour\" (Lille) is \"green\"",
		 "make it \"red\" or \"yellow\" (§5)"},
		{"towns[0].piece", "'artillery'", "field \"towns[0].piece\" (Lille, a red town) is \"artillery\"",
		 "make it \"infantry\" or \"cavalry\""},
		{"towns[1].name", "'Lille'", "field \"towns[1].name\" is the name of an earlier town",
		 "give each town a name of its own"},
		{"towns[0].square", "[5, 5]", "field \"towns[0].square\" (Lille) is the capital of France",
		 "move the town off it"},
		{"capitals[0].square", "[0, 0]", "field \"capitals[0].square\" is not a land square of its "
		 "\"country\" (France)", "give [column, row]"},
		{"capitals[0].country", "'Italy'", "field \"capitals[0].country\" is Italy", "name a base country"},
		{"crossings[0]", "[[0, 0], [1, 1]]", "field \"crossings[0]\" is not two neighbouring land squares",
		 "give [[x1, y1], [x2, y2]]"},
		{"enlistment.France[0]", "[0, 0]", "field \"enlistment.France[0]\" is not a land square of France",
		 "give [column, row]"},
		{"start.France.cavalry", "[[5, 4], [4, 5], [6, 5]]", "field \"start.France.cavalry\" lists 3 squares",
		 "give 4, the starting squares of France's cavalry (§1)"},
		{"start.France.cavalry[0]", "[4, 4]", "field \"start.France.cavalry[0]\" is [4, 4], France's capital "
		 "or a square listed before", "give each start and enlistment square of a country once"},
		{"seating[1]", "'Narnia'", "field \"seating[1]\" must be a country of the board, listed once, and it "
		 "is not one",
		 "list each country once, by name"},
	};

	(void)unused;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		json_t *broken = json_deep_copy(rules), *state = NULL, *wrapped;
		json_t *options = J("{'players': [['France'], ['Russia'], ['Austria'], ['Spain']]}");
		char value[128];
		const char *msg;
		/* J() reads an array or object: the value is read as the one item of an array. */
		snprintf(value, sizeof(value), "[%s]", cases[k].value);
		wrapped = J(value);
		set_path(json_object_get(broken, "board"), cases[k].path, json_incref(json_array_get(wrapped, 0)));
		json_decref(wrapped);
		assert_int_equal(est_ruleset_campaign.setup(&state, broken, options), EST_EINVAL);
		json_decref(options);
		msg = est_error_message();
		if (strncmp(msg, "rules/board.json: ", 18) != 0 || !strstr(msg, cases[k].words) ||
		    !strstr(msg, cases[k].fix) || strstr(msg, "fix the data"))
			fail_msg("%s = %s: \"%s\" does not name the file, say \"%s\" and give the fix \"%s\"",
				 cases[k].path, cases[k].value, msg, cases[k].words, cases[k].fix);
		json_decref(broken);
	}
	/* A base with no capital: set-up names the field and what to add. */
	{
		json_t *broken = json_deep_copy(rules), *state = NULL, *options = J("{'players': [['France'], ['Russia'], ['Austria'], ['Spain']]}");
		json_t *capitals = json_object_get(json_object_get(broken, "board"), "capitals"), *c;
		size_t i;
		json_array_foreach(capitals, i, c)
			if (strcmp(json_string_value(json_object_get(c, "country")), "Spain") == 0)
				break;
		assert_int_equal(json_array_remove(capitals, i), 0);
		assert_int_equal(est_ruleset_campaign.setup(&state, broken, options), EST_EINVAL);
		assert_non_null(strstr(est_error_message(), "rules/board.json: field \"capitals\" has no capital of "
				       "Spain, a base of this game; add {\"country\": \"Spain\", \"name\", \"square\"}"));
		json_decref(options);
		json_decref(broken);
	}
}

/* Python's XML parser reads `svg` from a file; returns its exit status and the counts it prints. */
static int xml_check(char *counts, size_t len, const char *svg)
{
	char path[] = "/tmp/cp_report_svgXXXXXX", cmd[700];
	int fd = mkstemp(path), rc;
	FILE *p;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, svg, strlen(svg)), (ssize_t)strlen(svg));
	close(fd);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E\n"
		 "r = E.parse(sys.argv[1]).getroot(); c = lambda k: sum(1 for e in r.iter() "
		 "if (e.get('class') or '').split()[:1] == [k])\n"
		 "print(c('sq'), c('frontier'), c('crossing'), c('town'), c('capital'), c('token'), c('move'), "
		 "c('attack'))\" %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(counts, (int)len, p))
		counts[0] = 0;
	rc = pclose(p);
	unlink(path);
	return rc;
}

/* Frontier edges counted from the board's two grids: neighbours (right, below) on land of different countries. */
static int frontier_edges(void)
{
	const json_t *board = json_object_get(rules, "board");
	const json_t *grid = json_object_get(board, "countries");
	int n = 0, w = (int)json_integer_value(json_object_get(board, "width"));
	int h = (int)json_integer_value(json_object_get(board, "height"));

	for (int y = 0; y < h; y++) {
		const char *row = json_string_value(json_array_get(grid, (size_t)y));
		const char *below = y + 1 < h ? json_string_value(json_array_get(grid, (size_t)y + 1)) : NULL;
		for (int x = 0; x < w; x++) {
			if (row[x] == '~')
				continue;
			n += x + 1 < w && row[x + 1] != '~' && row[x + 1] != row[x];
			n += below && below[x] != '~' && below[x] != row[x];
		}
	}
	return n;
}

/* map.svg: well-formed; every square, frontier, crossing, town, capital and piece; the moves and the attack. */
static void test_map_svg(void **unused)
{
	json_t *s = mid_game(), *m = model(s, "France", NULL);
	char *svg = rules_render("campaign", "map.svg.mustache", m, EST_RENDER_ESCAPE_HTML), counts[160], want[160];
	const json_t *board = json_object_get(rules, "board");

	(void)unused;
	assert_int_equal(xml_check(counts, sizeof(counts), svg), 0);
	/* Squares and the legend's ten; the legend's frontier, crossing, two towns, star, token, arrow, ring. */
	snprintf(want, sizeof(want), "%d %d %zu %zu %zu %zu %d %d\n", 26 * 20 + 9, frontier_edges() + 1,
		 json_array_size(json_object_get(board, "crossings")) + 1,
		 json_array_size(json_object_get(board, "towns")) + 2,
		 json_array_size(json_object_get(board, "capitals")) + 1,
		 json_array_size(json_object_get(s, "pieces")) + 1, 2 + 1, 1 + 1);
	assert_string_equal(counts, want);
	/* A broken document is refused: the check can fail. */
	assert_int_not_equal(xml_check(counts, sizeof(counts), "<svg><g></svg>"), 0);

	assert_non_null(strstr(svg, "<title>Campaign, game cp-&lt;1&gt;, step 6: the board</title>"));
	assert_null(strstr(svg, "cp-<1>"));
	/* Each capital also framed, so a General standing on it does not hide it; and the legend's. */
	assert_int_equal(count(svg, "<rect class=\"capital-square\""),
			 (int)json_array_size(json_object_get(board, "capitals")) + 1);
	/* France's nine pieces ringed as the reader's own, and no other country's. */
	assert_int_equal(count(svg, "<circle class=\"token France own\""), 9);
	assert_int_equal(count(svg, " own\" cx="), 9);
	/* The attack ringed on Austria-I1's square [14, 9]: x 30 + 14 * 32 + 16, y 70 + 9 * 32 + 16. */
	assert_non_null(strstr(svg, "<circle class=\"attack\" cx=\"494\" cy=\"374\" r=\"15\">"));
	/* France-C4 [5, 8] -> [5, 10]: down column 5 (x 206), from 12 px below the centre of [5, 8] (y 342)
	 * to 14 px above that of [5, 10] (y 406), clear of both tokens. */
	assert_non_null(strstr(svg, "<line class=\"move\" x1=\"206\" y1=\"354\" x2=\"206\" y2=\"392\">"));
	assert_non_null(strstr(svg, "<rect class=\"sq land France\" x=\"190\" y=\"230\" width=\"32\" height=\"32\">"
				    "<title>[5, 5] land, France</title></rect>"));
	assert_non_null(strstr(svg, ">Vienna</text>"));
	/* Lyon on [7, 9]: x 30 + 7 * 32 + 16, y 70 + 9 * 32 + 16. */
	assert_non_null(strstr(svg, "<circle class=\"town red\" cx=\"270\" cy=\"374\" r=\"14\"><title>Lyon (red town of "
				    "France) at [7, 9]: held by France</title></circle>"));
	assert_non_null(strstr(svg, "The board is reconstructed (board.json)"));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
	json_decref(m);

	/* The public map marks nobody's pieces as its own. */
	m = model(s, NULL, NULL);
	svg = rules_render("campaign", "map.svg.mustache", m, EST_RENDER_ESCAPE_HTML);
	assert_int_equal(count(svg, " own\" cx="), 0);
	assert_int_equal(xml_check(counts, sizeof(counts), svg), 0);
	free(svg);
	json_decref(m);
	json_decref(s);
}

static int load(void **unused)
{
	(void)unused;
	rules = rules_load("campaign");
	return 0;
}

static int unload(void **unused)
{
	(void)unused;
	json_decref(rules);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_board),
		cmocka_unit_test(test_legal_moves),
		cmocka_unit_test(test_mid_game_view),
		cmocka_unit_test(test_setup_report),
		cmocka_unit_test(test_mid_game_report),
		cmocka_unit_test(test_broken_alliance_names_the_next_turn),
		cmocka_unit_test(test_map_svg),
		cmocka_unit_test(test_order_advice_says_the_attack_is_judged_after_the_moves),
		cmocka_unit_test(test_two_player_report_offers_no_alliances),
		cmocka_unit_test(test_board_legend_fits_78_columns),
		cmocka_unit_test(test_board_data_errors_name_field_and_fix),
	};

	return cmocka_run_group_tests(tests, load, unload);
}
