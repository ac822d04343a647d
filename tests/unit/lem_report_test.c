/*
 * Levée en Masse report templates (templates/levee-en-masse/) and view
 * (internal/rulesets/levee-en-masse/view.c): the real renderer over the
 * engine's report data with this ruleset's view, for the state setup()
 * and the first step make from the real data files, and for a mid-game
 * state laid out by hand (a Stationary Army sharing a box, Napoleon
 * assigned, Disorder in Paris, 10.6 statuses). Each report opens with the
 * provisional-data banner, the tracks list every box down to Paris, 7.2
 * says who cannot be attacked and why, and map.svg is well-formed XML
 * (checked by Python's own XML parser).
 */
#include "rules_helpers.h"

#include <unistd.h>

#include "dice/dice.h"
#include "rulesets/levee-en-masse/levee_en_masse.h"
#include "rulesets/levee-en-masse/lem_internal.h"

#define LEM (&est_ruleset_levee_en_masse)

static json_t *rules;

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The state after step 1 (the decks dealt, the first card drawn with hidden face 1), with `options`. */
static json_t *first_turn(const char *options, json_t **events_out)
{
	const int first = 1;
	json_t *s = NULL, *next = NULL, *events = NULL, *o = J(options), *orders = json_object();
	est_dice *dice = NULL, *hidden = NULL;

	if (LEM->setup(&s, rules, o) < 0)
		fail_msg("setup: %s", est_error_message());
	assert_int_equal(est_dice_new_fixed(&dice, NULL, 0), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, &first, 1), 0);
	if (LEM->resolve(&next, &events, s, rules, orders, dice, hidden) < 0)
		fail_msg("resolve: %s", est_error_message());
	assert_int_equal(est_dice_count(hidden), 1);
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(o);
	json_decref(orders);
	json_decref(s);
	if (events_out)
		*events_out = events;
	else
		json_decref(events);
	return next;
}

static json_t *view(const json_t *state)
{
	json_t *v = NULL;

	if (lem_view(&v, state, rules, "Republic") < 0)
		fail_msg("view: %s", est_error_message());
	return v;
}

/* What the engine lists as provisional: every rules file marked "provenance": "placeholder". */
static json_t *provisional(void)
{
	json_t *list = json_array(), *v;
	const char *file;
	char name[300];

	json_object_foreach(rules, file, v) {
		const char *p = json_string_value(json_object_get(v, "provenance"));
		if (!p || strcmp(p, "placeholder") != 0)
			continue;
		snprintf(name, sizeof(name), "%s.json", file);
		json_array_append_new(list, json_pack("{s:s, s:O?}", "file", name, "note", json_object_get(v, "note")));
	}
	return list;
}

/* The engine's report data (step/report.c) for the player, with `events` (taken) and `rolls`. */
static json_t *model(const json_t *state, json_t *events, const json_t *rolls)
{
	const char *phase = json_string_value(json_object_get(state, "phase"));
	json_t *m = json_pack("{s:s, s:s, s:i, s:s, s:b, s:o, s:[{s:s, s:s, s:[s], s:s, s:s}], s:s, s:i, s:s,"
			      " s:{s:s, s:s, s:o}, s:b, s:o, s:[{s:s, s:o}], s:o, s:{s:s, s:s, s:s, s:s},"
			      " s:{s:s, s:s, s:[s]}}",
			      "game", "lem-<1>", "ruleset", "levee-en-masse", "step", 5, "kind", "actions",
			      "public", 0, "events", events ? events : json_array(),
			      "awaiting", "player", "solo", "name", "Lazare <Carnot>", "powers", "Republic", "powers_text", "Republic",
			      "mode", "sequential", "prompt", "turn 4: spend your Actions", "next_step", 6,
			      "state_sha256", "ab12cd",
			      "dice", "reveal", "00ff", "seed", "11ee", "rolls", rolls ? json_deep_copy(rolls) : json_array(),
			      "over", strcmp(phase, "over") == 0, "view", view(state),
			      "views", "power", "Republic", "view", view(state), "provisional", provisional(),
			      "template", "name", "report", "source", "estafette 0.1.0", "sha256", "ab12cd34", "short",
			      "ab12cd", "player", "id", "solo", "name", "Lazare <Carnot>", "powers", "Republic");

	assert_non_null(m);
	if (strcmp(phase, "actions") == 0)
		rules_answer(m, LEM, state, rules, "orders-0006-solo.json");
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

/* How many cards of `deck` the scenario "extended" holds (every card of cards.json). */
static int cards_of(const char *deck)
{
	const json_t *c;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(json_object_get(rules, "cards"), "cards"), i, c)
		n += strcmp(json_string_value(json_object_get(c, "deck")), deck) == 0;
	return n;
}

/* A turn of the Extended Game: the decks by pile, the first Blue card, every track down to Paris. */
static void test_first_turn_view(void **unused)
{
	json_t *s = first_turn("{'10.4': 1, '10.5': 1}", NULL), *v = view(s);
	const json_t *tracks = json_object_get(v, "tracks"), *t, *card;
	const json_t *data = json_object_get(json_object_get(rules, "tracks"), "tracks");
	const char *current = json_string_value(json_object_get(s, "current"));
	size_t i;

	(void)unused;
	assert_string_equal(json_string_value(json_object_get(v, "scenario")), "extended");
	assert_int_equal(json_integer_value(json_object_get(v, "turn")), 1);
	/* The first card came from the Blue pile: one fewer there, the others whole. */
	assert_int_equal(json_integer_value(json_object_get(find(json_object_get(v, "decks"), "pile", "Blue"), "left")),
			 cards_of("Blue") - 1);
	assert_int_equal(json_integer_value(json_object_get(find(json_object_get(v, "decks"), "pile", "Red"), "left")),
			 cards_of("Red"));
	assert_int_equal(json_integer_value(json_object_get(v, "cards_left")),
			 (int)json_array_size(json_object_get(json_object_get(rules, "cards"), "cards")) - 1);
	card = json_object_get(v, "card");
	assert_string_equal(json_string_value(json_object_get(card, "id")), current);
	assert_string_equal(json_string_value(json_object_get(card, "deck")), "Blue");
	assert_true(json_equal(json_object_get(card, "title"), json_object_get(lem_card(rules, current), "title")));

	/* Each track: its boxes from the highest down to 1, then Paris; squares as tracks.json says. */
	assert_int_equal(json_array_size(tracks), json_array_size(data));
	json_array_foreach(data, i, t) {
		const json_t *vt = json_array_get(tracks, i), *boxes = json_object_get(vt, "boxes");
		size_t n = json_array_size(json_object_get(t, "boxes"));
		assert_true(json_equal(json_object_get(vt, "name"), json_object_get(t, "name")));
		assert_int_equal(json_array_size(boxes), n + 1);
		assert_int_equal(json_integer_value(json_object_get(json_array_get(boxes, 0), "box")), (int)n);
		assert_true(json_is_true(json_object_get(json_array_get(boxes, n), "paris")));
		for (size_t b = 0; b < n; b++) {
			const json_t *d = json_array_get(json_object_get(t, "boxes"), n - 1 - b);
			assert_true(json_equal(json_object_get(json_array_get(boxes, b), "name"), json_object_get(d, "name")));
			assert_int_equal(json_is_true(json_object_get(json_array_get(boxes, b), "square")),
					 json_is_true(json_object_get(d, "square")));
		}
	}
	/* The Expansion Kit's Armies wait off the map; the four base Armies stand on it. */
	assert_int_equal(json_array_size(json_object_get(v, "off_map")), 3);
	assert_true(json_is_null(json_object_get(find(json_object_get(v, "armies"), "id", "suvorov"), "box")));
	assert_string_equal(json_string_value(json_object_get(find(json_object_get(v, "armies"), "id", "suvorov"),
							      "value_text")), "[4]");
	assert_false(json_is_true(json_object_get(json_object_get(v, "napoleon"), "in_play")));
	assert_true(json_is_true(json_object_get(json_object_get(v, "political"), "tie")) ==
		    (lem_highest(s) == NULL));
	json_decref(v);
	json_decref(s);
}

/* Step 0, before the decks are dealt: no card yet, nothing to order. */
static void test_setup_view(void **unused)
{
	json_t *s = NULL, *o = J("{'scenario': 'historical', 'difficulty': 1, '9.1': 1}"), *v;

	(void)unused;
	if (LEM->setup(&s, rules, o) < 0)
		fail_msg("setup: %s", est_error_message());
	v = view(s);
	assert_true(json_is_null(json_object_get(v, "card")));
	assert_int_equal(json_integer_value(json_object_get(v, "turn")), 0);
	assert_string_equal(json_string_value(json_object_get(v, "decks_text")),
			    "not dealt yet (step 1 deals them)");
	assert_false(json_is_true(json_object_get(v, "awaits_orders")));
	assert_string_equal(json_string_value(json_object_get(v, "scenario_text")),
			    "The Historical Game (12.3): the cards in numerical sequence");
	assert_string_equal(json_string_value(json_object_get(v, "difficulty_text")),
			    "13.0 harder: one Action fewer every fifth card played");
	assert_int_equal(json_array_size(json_object_get(v, "options_on")), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "options_on"), 0),
							      "rule")), "9.1");
	json_decref(v);
	json_decref(o);
	json_decref(s);
}

/* The text report of that turn: banner first, the card, the track lines, 7.2 and the order examples. */
static void test_first_turn_text(void **unused)
{
	json_t *events = NULL, *s = first_turn("{'10.4': 1, '10.5': 1}", &events), *m = model(s, events, NULL), *f;
	const json_t *card = lem_card(rules, json_string_value(json_object_get(s, "current")));
	char *t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE), line[600];
	size_t i;

	(void)unused;
	/* Every placeholder file is named at the very top, before the header. */
	assert_true(json_array_size(json_object_get(m, "provisional")) >= 3);
	json_array_foreach(json_object_get(m, "provisional"), i, f) {
		snprintf(line, sizeof(line), "Provisional data: %s (placeholder values; the seed does not give them)\n",
			 json_string_value(json_object_get(f, "file")));
		assert_non_null(strstr(t, line));
		assert_true(strstr(t, line) < strstr(t, "LEVEE EN MASSE - game lem-<1>, step 5 (actions)\n"));
	}
	assert_memory_equal(t, "Provisional data: ", 18);
	assert_non_null(strstr(t, "The Extended Game (12.1): the Expansion Kit's cards added to their decks; turn 1 "
				  "(one for each card played), cards left: Blue "));
	assert_non_null(strstr(t, "\nOPTIONS IN FORCE\n  10.4 A Single Battalion"));
	assert_non_null(strstr(t, "\n  10.5 He who fears"));
	assert_null(strstr(t, "\n  10.6 Decisive"));
	snprintf(line, sizeof(line), "\nHEADLINE CARD #%d %s (Blue deck), %d Action",
		 (int)json_integer_value(json_object_get(card, "number")),
		 json_string_value(json_object_get(card, "title")), (int)json_integer_value(json_object_get(card, "actions")));
	assert_non_null(strstr(t, line));
	/* The first event is the card itself, as the rules logged it. */
	assert_non_null(strstr(t, "\nWHAT HAPPENED\n- Headline card #"));
	assert_non_null(strstr(t, "\nAustrian track:\n  5 Aachen ○\n"));
	assert_non_null(strstr(t, "  2 Brussels ○\n  1 Arras ■\n  Paris (0)\n"));
	assert_non_null(strstr(t, "\nVendée track:\n  5 Cholet ■"));
	assert_non_null(strstr(t, "  off the map: Russian Army under Suvorov [4], stationary\n"));
	/* Without 10.6 an Army in its track's highest box cannot be pressed. */
	assert_non_null(strstr(t, "(Prussian Army, Koblenz 5, value 3): cannot be attacked: it stands in the highest "
				  "box of its track, which only the optional rule 10.6 lets you press, and this game "
				  "plays without it (RULINGS.md M5, 10.6.1)\n"));
	/* 9.0: the base game's victory and defeat hold in every game; 9.1 and 9.2 only when chosen. */
	assert_non_null(strstr(t, "\nVICTORY AND DEFEAT\n  victory: the decks run out with the Republic the single "
				  "highest Political marker; graded by its level: Decisive Victory at +4 or more, "));
	assert_non_null(strstr(t, "\n  defeat: an enemy Army stands in Paris at the end of a turn"));
	assert_non_null(strstr(t, "\n  defeat: the Republic marker is at -1 in a Housekeeping Phase (9.0, RULINGS.md M8)\n"));
	assert_null(strstr(t, "(9.1 (optional))"));
	assert_null(strstr(t, "(9.2 (optional))"));
	/* 10.4 and 10.5 are on, Paris is in order: both appear in the examples. */
	assert_non_null(strstr(t, "\"reserves\": \"if-fails\"}"));
	/* 10.5 serves against an Army inside France that 7.2 lets you attack: the Vendée Army, now at Saumur. */
	assert_non_null(strstr(t, "{\"type\": \"military\", \"army\": \"vendee\", \"disorder\": \"extra\"}"));
	assert_non_null(strstr(t, "Your order file is attached, filled in: orders-0006-solo.json\n"));
	assert_non_null(strstr(t, "\"if\": \"previous-failed\""));
	assert_null(strstr(t, "{\"type\": \"restore-order\"}"));
	assert_null(strstr(t, "\"detach\": true"));
	assert_non_null(strstr(t, "Napoleon: not in play (card E44 brings him)\n"));
	assert_non_null(strstr(t, "Report made by estafette from template report (estafette 0.1.0, ab12cd)\n"));
	free(t);
	json_decref(m);

	/* Without 10.4 and 10.5 the examples do not offer them. */
	json_decref(s);
	s = first_turn("{}", NULL);
	m = model(s, NULL, NULL);
	t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	assert_null(strstr(t, "\"reserves\""));
	assert_null(strstr(t, "\"disorder\": \""));
	assert_non_null(strstr(t, "  none of the optional rules"));
	free(t);
	json_decref(m);
	json_decref(s);

	/* With 9.1 chosen its Crushing Defeat is in force too, and 9.2's Decisive Defeat still is not. */
	s = first_turn("{'9.1': 1}", NULL);
	m = model(s, NULL, NULL);
	t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	assert_non_null(strstr(t, "\n  Crushing Defeat: the Vendée Army is in the Versailles (1) space in a "
				  "Housekeeping Phase while the Blue deck is in play (9.1 (optional))\n"));
	assert_null(strstr(t, "(9.2 (optional))"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/*
 * Mid-game by hand, 10.4-10.6 on: Korsakov [3] stationary in Brussels with the
 * Austrian Army (flipped by 10.4), the Vendée Army disorganized at Tours ahead
 * of the routed Spanish at Saumur, British Support on the '3' space, Napoleon
 * with the Piedmontese in Turin (4), Disorder in Paris, Despotism highest.
 */
static json_t *mid_game(void)
{
	json_t *s = first_turn("{'10.4': 1, '10.5': 1, '10.6': 1}", NULL);

	json_object_set_new(lem_army(s, "austrian"), "box", json_integer(2));
	json_object_set_new(lem_army(s, "austrian"), "flipped", json_true());
	json_object_set_new(lem_army(s, "korsakov"), "box", json_integer(2));
	json_object_set_new(lem_army(s, "vendee"), "box", json_integer(3));
	json_object_set_new(lem_army(s, "vendee"), "status", json_string("disorganized"));
	json_object_set_new(lem_army(s, "spanish"), "box", json_integer(4));
	json_object_set_new(lem_army(s, "spanish"), "status", json_string("routed"));
	json_object_set_new(lem_army(s, "piedmont"), "box", json_integer(4));
	json_object_set_new(lem_army(s, "prussian"), "rotated", json_true());
	json_object_set_new(s, "british_support", json_integer(3));
	json_object_set_new(s, "napoleon", J("{'with': 'piedmont', 'recalled': -1}"));
	json_object_set_new(s, "disorder", json_true());
	json_object_set_new(s, "political", J("{'Republic': 1, 'Monarchy': 0, 'Despotism': 2}"));
	json_object_set_new(s, "reserves_used", json_true());
	json_object_set_new(s, "drm_now", json_integer(-1));
	json_object_set_new(s, "current", json_string("E44"));
	return s;
}

static void test_mid_game_view(void **unused)
{
	json_t *s = mid_game(), *v = view(s);
	const json_t *nap = json_object_get(v, "napoleon"), *u, *pol = json_object_get(v, "political");

	(void)unused;
	u = find(json_object_get(v, "not_attackable"), "id", "austrian");
	assert_string_equal(json_string_value(json_object_get(u, "why")),
			    "a Stationary Army shares its space and must be defeated first (7.2)");
	assert_non_null(find(json_object_get(v, "attackable"), "id", "korsakov"));
	u = find(json_object_get(v, "not_attackable"), "id", "spanish");
	assert_string_equal(json_string_value(json_object_get(u, "why")),
			    "another unit stands closer to Paris on its track (7.2)");
	/* 10.6 is on, but the Prussian Army rotated by card #9 ignores it: not pressed in its highest box. */
	u = find(json_object_get(v, "not_attackable"), "id", "prussian");
	assert_non_null(strstr(json_string_value(json_object_get(u, "why")), "highest box"));
	assert_true(json_is_true(json_object_get(nap, "can_detach")));
	assert_false(json_is_true(json_object_get(nap, "can_assign")));
	assert_string_equal(json_string_value(json_object_get(nap, "with")), "piedmont");
	assert_string_equal(json_string_value(json_object_get(pol, "highest")), "Despotism");
	assert_int_equal(json_integer_value(json_object_get(pol, "military_drm")),
			 json_integer_value(json_object_get(json_object_get(lem_table(rules, "political_drm"),
									    "Despotism"), "military")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(v, "card"), "title")),
			    "It is the Best of Units; It is the Worst of Units");
	assert_true(json_is_true(json_object_get(json_object_get(v, "card"), "expansion")));
	/* Disorder already in Paris and the reserves spent: neither 10.4 nor 10.5 is offered again. */
	assert_false(json_is_true(json_object_get(json_object_get(v, "orders"), "reserves")));
	assert_false(json_is_true(json_object_get(json_object_get(v, "orders"), "disorder")));
	assert_true(json_is_true(json_object_get(json_object_get(v, "orders"), "restore_order")));
	json_decref(v);

	/* Napoleon back in the Holding Box: he may be assigned, within the historical limit when it is on. */
	json_object_set_new(s, "napoleon", J("{'with': null, 'recalled': -1}"));
	v = view(s);
	assert_true(json_is_true(json_object_get(json_object_get(v, "napoleon"), "can_assign")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(v, "orders"), "napoleon_assign")), "vendee");
	json_decref(v);
	json_object_set_new(json_object_get(s, "options"), "napoleon-historical", json_true());
	v = view(s);
	assert_string_equal(json_string_value(json_object_get(json_object_get(v, "orders"), "napoleon_assign")), "austrian");
	json_decref(v);
	/* Detached this turn: not before a later turn (5.0). */
	json_object_set_new(s, "napoleon", json_pack("{s:n, s:I}", "with", "recalled",
						     (json_int_t)json_array_size(json_object_get(s, "played"))));
	v = view(s);
	assert_false(json_is_true(json_object_get(json_object_get(v, "napoleon"), "can_assign")));
	assert_true(json_is_null(json_object_get(json_object_get(v, "orders"), "napoleon_assign")));
	assert_non_null(strstr(json_string_value(json_object_get(json_object_get(v, "napoleon"), "text")),
			       "cannot be redeployed until a later turn"));
	json_decref(v);

	/* Two markers tied for highest: no political DRM. */
	json_object_set_new(s, "political", J("{'Republic': 2, 'Monarchy': 2, 'Despotism': 0}"));
	v = view(s);
	pol = json_object_get(v, "political");
	assert_true(json_is_true(json_object_get(pol, "tie")));
	assert_int_equal(json_integer_value(json_object_get(pol, "military_drm")), 0);
	assert_string_equal(json_string_value(json_object_get(pol, "text")), "two or more markers tie for highest");
	json_decref(v);
	json_decref(s);
}

static void test_mid_game_text(void **unused)
{
	json_t *s = mid_game(), *m = model(s, NULL, NULL);
	char *t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	char *h = rules_render("levee-en-masse", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);

	(void)unused;
	assert_non_null(strstr(t, "\nAustrian track:\n  5 Aachen ○\n  4 Liège ○\n  3 Namur ○\n"
				  "  2 Brussels ○: Austrian Army 3, flipped: last reserves committed (10.4); "
				  "Russian Army under Korsakov [3], stationary\n  1 Arras ■\n  Paris (0)\n"));
	assert_non_null(strstr(t, "\nVendée track:\n  5 Cholet ■\n  4 Saumur ■: Spanish Army 2, routed (10.6.1)\n"
				  "  3 Tours ■: Vendée Army 2, disorganized (10.6.1); the British Support marker (5.0)\n"));
	assert_non_null(strstr(t, "  4 Turin ○: Piedmontese Army 2, with Napoleon\n"));
	assert_non_null(strstr(t, "  5 Koblenz ○: Prussian Army 3, rotated by card #9 (10.6 does not apply)\n"));
	assert_non_null(strstr(t, "  austrian (Austrian Army, Brussels 2, value 3): cannot be attacked: a Stationary "
				  "Army shares its space and must be defeated first (7.2)\n"));
	assert_non_null(strstr(t, "  korsakov (Russian Army under Korsakov, Brussels 2, value [3]): may be attacked\n"));
	assert_non_null(strstr(t, "\nHEADLINE CARD #44 It is the Best of Units; It is the Worst of Units (White deck, "
				  "Expansion Kit), 3 Actions printed\n"));
	assert_non_null(strstr(t, "\n  Despotism +2 (highest)\n"));
	assert_non_null(strstr(t, "  Paris: Disorder in Paris\n"));
	assert_non_null(strstr(t, "  British Support: on the Vendée track's '3' space, Tours\n"));
	assert_non_null(strstr(t, "  Napoleon: with the Piedmontese Army in Turin (4): +1 to Military Actions"));
	assert_non_null(strstr(t, "he may be detached in triumph at the beginning of the Action Phase\n"));
	assert_non_null(strstr(t, "    -1 to Military Actions this turn: the last reserves were committed last turn "
				  "(10.4)\n"));
	assert_non_null(strstr(t, "    -1 to Military Actions: Disorder in Paris\n"));
	assert_non_null(strstr(t, "{\"type\": \"napoleon\", \"detach\": true}"));
	assert_non_null(strstr(t, "{\"type\": \"restore-order\"}"));
	assert_null(strstr(t, "\"assign\""));
	assert_null(strstr(t, "\"reserves\": \"if-fails\""));

	assert_non_null(strstr(h, "<td class=\"b\">2 Brussels ○</td><td>Austrian Army 3, flipped: last reserves "
				  "committed (10.4); Russian Army under Korsakov [3], stationary</td>"));
	assert_non_null(strstr(h, "Lazare &lt;Carnot&gt;"));
	assert_null(strstr(h, "lem-<1>"));
	assert_memory_equal(h, "<!DOCTYPE html>", 15);
	free(t);
	free(h);
	json_decref(m);

	/* The end: the result, and no order help. */
	json_object_set_new(s, "phase", json_string("over"));
	json_object_set_new(s, "result", J("{'outcome': 'defeat', 'grade': 'Defeat', 'reason': 'the Republic has "
					   "fallen to -1', 'turns': 30}"));
	m = model(s, NULL, NULL);
	t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	assert_non_null(strstr(t, "\nGAME OVER: Defeat (defeat) after 30 cards: the Republic has fallen to -1\n"));
	assert_null(strstr(t, "HOW TO SEND ORDERS"));
	assert_null(strstr(t, "ACTIONS THIS TURN"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/* A Military Action from the rules with a fixed die: its events and its roll in the report. */
static void test_events_and_dice(void **unused)
{
	const int faces[] = {5};
	json_t *s = mid_game(), *events = json_array(), *m, *order = J("{'type': 'military', 'army': 'korsakov'}");
	est_dice *dice = NULL;
	char *t;
	int won = 0;

	(void)unused;
	json_object_set_new(s, "napoleon", json_null());
	json_object_set_new(s, "political", J("{'Republic': 2, 'Monarchy': 1, 'Despotism': 0}"));
	assert_int_equal(est_dice_new_fixed(&dice, faces, 1), 0);
	if (lem_military(&won, s, events, rules, dice, order) < 0)
		fail_msg("military: %s", est_error_message());
	m = model(s, json_incref(events), est_dice_log(dice));
	t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	assert_int_equal(rules_event_count(events, "military"), 1);
	assert_non_null(strstr(t, "\nWHAT HAPPENED\n- Military Action against Russian Army under Korsakov: rolls 5"));
	assert_non_null(strstr(t, "\nDICE (reveal 00ff, seed 11ee)\n  d6 = 5: Military Action against korsakov\n"));
	if (won) {
		/* 5.0: a Stationary Army defeated is removed from the map. */
		assert_non_null(strstr(t, "is removed from the map"));
		assert_non_null(strstr(t, "  off the map: Russian Army under Korsakov [3], stationary\n"));
	}
	free(t);
	json_decref(m);
	json_decref(events);
	json_decref(order);
	est_dice_free(dice);
	json_decref(s);
}

/*
 * RULINGS.md S2, 9.0: the public report of a dealt game's last step says the
 * game is over, and lists the victory and defeat conditions (the options
 * alone decide them: 9.0 keeps them "unchanged regardless of Option,
 * Scenario, or varied Level of Difficulty"), but not its result, which is
 * sealed with its progress; its events, the Republic's own, are said to be
 * sealed rather than "nothing".
 */
static void test_dealt_game_over_public_text(void **unused)
{
	json_t *s = first_turn("{'deal': 'spring-1793'}", NULL), *m, *pub = NULL;
	char *t, *h;

	(void)unused;
	json_object_set_new(s, "phase", json_string("over"));
	json_object_set_new(s, "played", J("['1', '2', '3']"));
	json_object_set_new(s, "result", J("{'outcome': 'defeat', 'grade': 'Defeat', 'turns': 3, "
					   "'reason': 'the Austrian Army took Paris on its third card'}"));
	m = model(s, NULL, NULL);
	assert_int_equal(LEM->view(&pub, s, rules, NULL), 0);
	json_object_set_new(m, "view", pub);
	json_object_set_new(m, "public", json_true());
	json_object_del(m, "player");
	json_object_del(m, "views");
	t = rules_render("levee-en-masse", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	h = rules_render("levee-en-masse", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);
	assert_non_null(strstr(t, "\nPublic report\n\nGAME OVER: the game is over, after 3 cards; whether the "
				  "Republic won or lost, and why, stays sealed"));
	assert_non_null(strstr(t, "\nVICTORY AND DEFEAT\n  victory: the decks run out"));
	assert_non_null(strstr(t, "\nWHAT HAPPENED\n- what this step did is sealed with the game's progress\n"));
	assert_null(strstr(t, "nothing this step"));
	assert_null(strstr(t, "took Paris"));
	assert_non_null(strstr(h, "<h2>Game over</h2><p>the game is over, after 3 cards;"));
	assert_non_null(strstr(h, "<h2>Victory and defeat</h2>\n<ul>\n<li>victory: "));
	assert_null(strstr(h, "took Paris"));
	free(h);
	free(t);
	json_decref(m);
	json_decref(s);
}

/* Python's XML parser reads `svg` from a file; returns its exit status and the counts it prints. */
static int xml_check(char *counts, size_t len, const char *svg)
{
	char path[] = "/tmp/lem_report_svgXXXXXX", cmd[600];
	int fd = mkstemp(path), rc;
	FILE *p;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, svg, strlen(svg)), (ssize_t)strlen(svg));
	close(fd);
	snprintf(cmd, sizeof(cmd), "/usr/bin/python3 -c \"import sys, xml.etree.ElementTree as E\n"
		 "r = E.parse(sys.argv[1]).getroot(); c = lambda k: sum(1 for e in r.iter() "
		 "if (e.get('class') or '').split()[:1] == [k])\n"
		 "print(c('box'), c('counter'), c('paris'), c('marker'))\" %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(counts, (int)len, p))
		counts[0] = 0;
	rc = pclose(p);
	unlink(path);
	return rc;
}

static void test_map_svg(void **unused)
{
	json_t *s = mid_game(), *m = model(s, NULL, NULL);
	char *svg = rules_render("levee-en-masse", "map.svg.mustache", m, EST_RENDER_ESCAPE_HTML), counts[128], want[128];
	const json_t *t, *a;
	size_t i, boxes = 0, on_map = 0, squares = 0, k;

	(void)unused;
	json_array_foreach(json_object_get(json_object_get(rules, "tracks"), "tracks"), i, t) {
		json_array_foreach(json_object_get(t, "boxes"), k, a)
			squares += json_is_true(json_object_get(a, "square"));
		boxes += json_array_size(json_object_get(t, "boxes"));
	}
	json_array_foreach(json_object_get(s, "armies"), i, a)
		on_map += lem_on_map(a);
	assert_int_equal(xml_check(counts, sizeof(counts), svg), 0);
	/* Every box of every track and the legend's square and circle; a counter per Army on the map and the
	 * legend's; Paris once a track; the three Political markers. */
	snprintf(want, sizeof(want), "%zu %zu %zu 3\n", boxes + 2, on_map + 1,
		 json_array_size(json_object_get(json_object_get(rules, "tracks"), "tracks")));
	assert_string_equal(counts, want);
	assert_int_equal(count(svg, "<rect class=\"box square\""), (int)squares + 1);
	assert_int_equal(count(svg, "<circle class=\"box circle\""), (int)(boxes - squares) + 1);
	/* A broken document is refused: the check can fail. */
	assert_int_not_equal(xml_check(counts, sizeof(counts), "<svg><g></svg>"), 0);

	assert_non_null(strstr(svg, "<title>Levée en Masse, game lem-&lt;1&gt;, step 5: the tracks</title>"));
	assert_null(strstr(svg, "lem-<1>"));
	assert_non_null(strstr(svg, ">korsakov [3]</text>"));
	assert_non_null(strstr(svg, ">piedmont 2 N</text>"));
	assert_non_null(strstr(svg, "<rect class=\"counter stationary normal\""));
	assert_non_null(strstr(svg, "<rect class=\"counter routed\""));
	assert_non_null(strstr(svg, "<rect class=\"counter normal flipped\""));
	assert_non_null(strstr(svg, "<circle class=\"british\" cx=\""));
	assert_non_null(strstr(svg, "<rect class=\"marker Despotism highest\""));
	assert_int_equal(count(svg, "Provisional data: "), (int)json_array_size(json_object_get(m, "provisional")));
	assert_non_null(strstr(svg, ">Provisional data: tracks.json (placeholder values; the seed does not give "
				    "them)</tspan>"));
	free(svg);
	json_decref(m);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_view),
		cmocka_unit_test(test_first_turn_view),
		cmocka_unit_test(test_first_turn_text),
		cmocka_unit_test(test_mid_game_view),
		cmocka_unit_test(test_mid_game_text),
		cmocka_unit_test(test_events_and_dice),
		cmocka_unit_test(test_map_svg),
		cmocka_unit_test(test_dealt_game_over_public_text),
	};
	int rc;

	rules = rules_load("levee-en-masse");
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
