/*
 * Napoleonic Empire report templates (templates/napoleonic-empire/): the
 * real renderer over the engine's data model with this ruleset's view. The
 * report shows the map by country, the step's battle with every roll, the
 * reader's own hand only, what is awaited and how to send orders; the map
 * drawing (map.svg) shows what the state and the map rules say.
 */
#include "ne_helpers.h"

static json_t *rules;

/* The engine's report data for `power` (NULL: public) after an Allied victory in Italy, France to retreat. */
static json_t *model(json_t **state_out, json_t **events_out, const char *power)
{
	json_t *s = ne_started(rules), *n, *ev, *v = NULL, *m;
	json_t *o = J("{'Allies': [{'type':'move','from':'England','to':'Italy','armies':10}]}");
	int faces[] = {1, 6, 1, 1, 1};

	json_object_set_new(s, "active", json_string("Allies"));
	ne_hand_set(s, "France", "toulon", NULL);
	ne_hand_set(s, "Allies", "austerlitz", NULL);
	ne_put(s, "Rhineland", 4, 0, "France");
	ne_put(s, "Switzerland", 0, 0, "Allies");
	ne_put(s, "Naples", 0, 0, "Allies");
	n = ne_step(s, rules, o, faces, 5, NULL, 0, &ev);
	assert_int_equal(NE->view(&v, n, rules, power), 0);
	m = json_pack("{s:s, s:s, s:i, s:s, s:b, s:O, s:[{s:s, s:s, s:[s], s:s, s:s, s:s}], s:s, s:i, s:s,"
		      " s:{s:s, s:s, s:[]}, s:b, s:o}",
		      "game", "ne-001", "ruleset", "napoleonic-empire", "step", 7, "kind", "retreat",
		      "public", power == NULL, "events", ev,
		      "awaiting", "player", "france", "name", "Jean <Lannes>", "powers", "France", "powers_text", "France", "mode",
		      "sequential", "deadline", "2026-12-01T12:00:00Z",
		      "prompt", "France: send your orders", "next_step", 8, "state_sha256", "ab12",
		      "dice", "reveal", "00", "seed", "11", "rolls", "over", 0, "view", v);
	json_object_set_new(m, "template", json_pack("{s:s, s:s, s:s, s:s}", "name", "report",
						     "source", "estafette 0.1.0", "sha256", "ab12cd34",
						     "short", "ab12cd"));
	if (power) {
		json_object_set_new(m, "player", json_pack("{s:s, s:s, s:[s]}", "id", "france", "name",
							   "Jean <Lannes>", "powers", power));
		rules_answer(m, NE, n, rules, "orders-0008-france.json");
	}
	*state_out = n;
	*events_out = ev;
	json_decref(s);
	return m;
}

/* The text report: map, battle with rolls and modifiers, own hand, how to send orders. */
static void test_text_report_for_france(void **unused)
{
	json_t *s, *ev, *m = model(&s, &ev, "France");
	char *t = rules_render("napoleonic-empire", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);

	(void)unused;
	assert_non_null(strstr(t, "Battle in Italy: France 2 armies + 1 defender + 1d6 (1) = 4; Allies 10 armies + 1d6 (6) = 16; Allies win"));
	assert_non_null(strstr(t, "  Italy: France 2, Allies 9, France, CONTESTED; reinforcement value 1"));
	assert_non_null(strstr(t, "  France must retreat 2 armies from Italy to one of: France, Rhineland\n"));
	assert_non_null(strstr(t, "  Sweden: France 0, Allies 0, neutral;"));
	assert_non_null(strstr(t, "  Toulon [toulon]: France: French +4"));
	assert_null(strstr(t, "Austerlitz ["));
	/* The retreat step lists the retreats open, not every kind of order. */
	assert_non_null(strstr(t, "\nHOW TO SEND ORDERS\nYour order file is attached, filled in: orders-0008-france.json\n"));
	assert_non_null(strstr(t, "\n{THE ORDER FILE}\n"));
	assert_non_null(strstr(t, "send both files to orders@example.org\n"));
	assert_non_null(strstr(t, "\n  {\"type\": \"retreat\", \"from\": \"Italy\", \"to\": \"France\"}\n      retreat to France\n"));
	assert_non_null(strstr(t, "{\"type\": \"retreat\", \"from\": \"Italy\", \"to\": \"Rhineland\"}"));
	assert_null(strstr(t, "{\"type\": \"move\""));
	assert_non_null(strstr(t, "Jean <Lannes> (france) for France - sequential, by 2026-12-01T12:00:00Z"));
	free(t);
	json_decref(m);
	json_decref(ev);
	json_decref(s);
}

/* The public HTML report escapes text and shows no hand. */
static void test_public_html_report(void **unused)
{
	json_t *s, *ev, *m = model(&s, &ev, NULL);
	char *h = rules_render("napoleonic-empire", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);

	(void)unused;
	assert_non_null(strstr(h, "<td title=\"Kingdom of Italy\">Italy</td><td class=\"n\">2</td><td class=\"n\">9</td>"));
	/* Nobody's order file: the public report tells no one how to send orders. */
	assert_null(strstr(h, "How to send orders"));
	assert_non_null(strstr(h, "Jean &lt;Lannes&gt;"));
	assert_null(strstr(h, "Your hand"));
	assert_null(strstr(h, "Toulon"));
	assert_non_null(strstr(h, "Public report"));
	free(h);
	json_decref(m);
	json_decref(ev);
	json_decref(s);
}

/* Occurrences of `needle` in `hay`. */
static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static const json_t *map_country(const json_t *map, const char *name)
{
	json_t *c;
	size_t i;

	json_array_foreach(json_object_get(map, "countries"), i, c)
		if (strcmp(json_string_value(json_object_get(c, "name")), name) == 0)
			return c;
	fail_msg("no %s on the map", name);
	return NULL;
}

/* The border pairs and sea reach of data/map.json, counted here from the seed's lists. */
static void map_counts(size_t *borders, size_t *sea)
{
	const json_t *map = json_object_get(rules, "map"), *list = json_object_get(map, "countries");
	size_t i, j;

	*borders = *sea = 0;
	for (i = 0; i < json_array_size(list); i++) {
		const json_t *a = json_array_get(list, i);
		const char *an = json_string_value(json_object_get(a, "name"));

		if (!est_rules_in_list(json_object_get(map, "landlocked"), an) &&
		    !est_rules_in_list(json_object_get(map, "never_entered"), an) &&
		    strcmp(an, json_string_value(json_object_get(map, "sea_power"))) != 0)
			(*sea)++;
		for (j = i + 1; j < json_array_size(list); j++) {
			const json_t *b = json_array_get(list, j);
			const char *bn = json_string_value(json_object_get(b, "name"));

			if (est_rules_in_list(json_object_get(a, "adjacent"), bn) ||
			    est_rules_in_list(json_object_get(b, "adjacent"), an))
				(*borders)++;
		}
	}
}

/* The view's map: every country at its geometry.json place, state marks, borders, sea lanes. */
static void test_map_view(void **unused)
{
	json_t *s, *ev, *m = model(&s, &ev, "France"), *pub, *v = NULL;
	const json_t *map = json_object_get(json_object_get(m, "view"), "map"), *italy, *geo;
	size_t borders, sea;

	(void)unused;
	map_counts(&borders, &sea);
	assert_int_equal(json_array_size(json_object_get(map, "countries")), ne_country_count(rules));
	assert_int_equal(json_array_size(json_object_get(map, "borders")), borders);
	assert_int_equal(json_array_size(json_object_get(map, "sea")), sea);
	assert_int_equal(sea, 13);
	assert_int_equal(json_integer_value(json_object_get(map, "width")), 1000);

	italy = map_country(map, "Italy");
	geo = json_object_get(json_object_get(json_object_get(rules, "geometry"), "countries"), "Italy");
	assert_true(json_equal(json_object_get(italy, "x"), json_object_get(geo, "x")));
	assert_true(json_equal(json_object_get(italy, "y"), json_object_get(geo, "y")));
	assert_string_equal(json_string_value(json_object_get(italy, "full_name")), "Kingdom of Italy");
	assert_int_equal(json_integer_value(json_object_get(italy, "france")), 2);
	assert_int_equal(json_integer_value(json_object_get(italy, "allies")), 9);
	assert_true(json_is_true(json_object_get(italy, "contested")));
	assert_true(json_is_true(json_object_get(italy, "retreat")));
	assert_false(json_is_true(json_object_get(italy, "battle")));
	assert_int_equal(json_array_size(json_object_get(italy, "chips")), 2);
	assert_string_equal(json_string_value(json_object_get(map_country(map, "Sweden"), "controller")), "neutral");
	assert_int_equal(json_array_size(json_object_get(map_country(map, "Sweden"), "chips")), 0);
	assert_true(json_is_true(json_object_get(map_country(map, "Ottoman Empire"), "never_entered")));
	assert_true(json_is_true(json_object_get(map_country(map, "England"), "sea_power")));

	/* Nothing of the map is private: the public view draws the same map. */
	assert_int_equal(NE->view(&pub, s, rules, NULL), 0);
	assert_true(json_equal(json_object_get(pub, "map"), map));
	json_decref(pub);

	/* A game whose rules/ predates geometry.json: no map, no failure. */
	{
		json_t *old = json_deep_copy(rules);

		json_object_del(old, "geometry");
		assert_int_equal(NE->view(&v, s, old, NULL), 0);
		assert_true(json_is_null(json_object_get(v, "map")));
		json_decref(v);
		json_decref(old);
	}
	json_decref(m);
	json_decref(ev);
	json_decref(s);
}

/* A pending battle is ringed, and only there; the SVG is standalone and escaped. */
static void test_map_svg(void **unused)
{
	json_t *s = ne_started(rules), *v = NULL, *m;
	const json_t *at = json_object_get(json_object_get(json_object_get(rules, "geometry"), "countries"),
					   "Austria");
	char *svg, ring[128];

	(void)unused;
	ne_put(s, "Austria", 6, 5, "Allies");
	json_object_set_new(s, "attack", J("{'battles': ['Austria'], 'plays': {'France': {}, 'Allies': {}},"
					   " 'bonus': [], 'rebels': [], 'extra_turn': false}"));
	assert_int_equal(NE->view(&v, s, rules, "Allies"), 0);
	assert_true(json_is_true(json_object_get(map_country(json_object_get(v, "map"), "Austria"), "battle")));
	m = json_pack("{s:s, s:i, s:s, s:o, s:{s:s, s:s, s:s}}", "game", "ne-<1>", "step", 9, "kind", "turn",
		      "view", v, "template", "name", "map.svg", "source", "estafette 0.1.0", "short", "ab12cd");
	svg = rules_render("napoleonic-empire", "map.svg.mustache", m, EST_RENDER_ESCAPE_HTML);

	assert_memory_equal(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 60);
	assert_non_null(strstr(svg, "viewBox=\"0 0 1000 700\""));
	assert_non_null(strstr(svg, "width=\"1000\" height=\"700\""));
	assert_non_null(strstr(svg, "<title>Napoleonic Empire, game ne-&lt;1&gt;, step 9: the map</title>"));
	assert_null(strstr(svg, "ne-<1>"));
	snprintf(ring, sizeof(ring), "<circle class=\"battle\" cx=\"%lld\" cy=\"%lld\" r=\"43\"/>",
		 json_integer_value(json_object_get(at, "x")), json_integer_value(json_object_get(at, "y")));
	assert_non_null(strstr(svg, ring));
	assert_int_equal(count(svg, "<circle class=\"battle\""), 1);
	/* 16 countries by controller and the hatched Ottoman Empire, plus the legend's samples. */
	assert_int_equal(count(svg, "<circle class=\"country "), 16 + 3);
	assert_int_equal(count(svg, "<circle class=\"never\""), 1 + 1);
	assert_int_equal(count(svg, "<text class=\"name\""), 17);
	assert_int_equal(count(svg, "<path class=\"sea\""), 13 + 1);
	assert_int_equal(count(svg, "<line class=\"border\""), 28 + 1);
	assert_non_null(strstr(svg, ">Ottoman Empire</text>"));
	assert_non_null(strstr(svg, "never entered</text>"));
	assert_non_null(strstr(svg, "<text class=\"n France\""));
	assert_non_null(strstr(svg, "font-family=\"Georgia, 'DejaVu Serif', serif\""));
	assert_non_null(strstr(svg, "Report made by estafette from template map.svg (estafette 0.1.0, ab12cd)"));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
	json_decref(m);
	json_decref(s);
}

/* Both reports name their template and say the map is attached; the HTML one fits a phone. */
static void test_reports_name_template(void **unused)
{
	json_t *s, *ev, *m = model(&s, &ev, "France");
	char *t = rules_render("napoleonic-empire", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	char *h = rules_render("napoleonic-empire", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);

	(void)unused;
	assert_non_null(strstr(t, "Report made by estafette from template report (estafette 0.1.0, ab12cd)\n"));
	assert_non_null(strstr(t, "the map is attached as map.svg"));
	assert_non_null(strstr(h, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
	assert_non_null(strstr(h, "attached to this mail as <strong>map.svg</strong>"));
	assert_non_null(strstr(h, "<div class=\"scroll\">\n<table>"));
	assert_non_null(strstr(h, "Report made by estafette from template report (estafette 0.1.0, ab12cd)</p>"));
	free(t);
	free(h);
	json_decref(m);
	json_decref(ev);
	json_decref(s);
}

/* The text report of `state` for `power`, from its view alone. */
static char *view_text(const json_t *state, const char *power)
{
	json_t *v = NULL, *m;
	char *t;

	assert_int_equal(NE->view(&v, state, rules, power), 0);
	m = json_pack("{s:o}", "view", v);
	t = rules_render("napoleonic-empire", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
	json_decref(m);
	return t;
}

/*
 * The "reinforcement value" column says what a country gives its holder:
 * REINFORCEMENTS PHASE "France can never receive reinforcements from
 * Prussia, Russia, or Austria", and the Continental System's "France &
 * England receive 2 less reinforcements per turn" (R14).
 */
static void test_reinforcement_column(void **unused)
{
	json_t *s = ne_started(rules);
	char *t;

	(void)unused;
	ne_put(s, "Austria", 5, 0, "France");
	json_object_set_new(s, "continental_system", json_true());
	t = view_text(s, NULL);
	assert_non_null(strstr(t, "  Austria: France 5, Allies 0, France; reinforcement value 0\n"));
	assert_non_null(strstr(t, "  Russia: France 0, Allies 10, Allies; reinforcement value 3\n"));
	assert_non_null(strstr(t, "  France: France 20, Allies 0, France; reinforcement value 2\n"));
	assert_non_null(strstr(t, "  England: France 0, Allies 10, Allies; reinforcement value 1\n"));
	assert_non_null(strstr(t, "  Sweden: France 0, Allies 0, neutral; reinforcement value 1\n"));
	free(t);
	json_decref(s);
}

/*
 * Josephine, "The French may not move this turn" (R13): played by the
 * Allies, it holds France's next turn; in that turn the report says it
 * holds this turn, not "in their next turn".
 */
static void test_hold_said_of_this_turn(void **unused)
{
	json_t *s = ne_started(rules);
	char *t;

	(void)unused;
	json_object_set_new(json_object_get(s, "no_move"), "France", json_true());
	t = view_text(s, "France");
	assert_non_null(strstr(t, "In force: Josephine: the French may not move this turn\n"));
	assert_null(strstr(t, "next turn"));
	free(t);
	json_object_set_new(s, "active", json_string("Allies"));
	t = view_text(s, "France");
	assert_non_null(strstr(t, "In force: Josephine: the French may not move in their next turn\n"));
	free(t);
	json_decref(s);
}

/* "Allies" takes the plural in the events too: a battle card named where no battle is fought (R10). */
static void test_allies_plural_in_events(void **unused)
{
	json_t *s = ne_started(rules), *ev = NULL, *n;

	(void)unused;
	json_object_set_new(s, "active", json_string("Allies"));
	ne_hand_set(s, "Allies", "general-winter", NULL);
	n = ne_step(s, rules, J("{'Allies': [{'type':'play','card':'general-winter','country':'Russia'}]}"),
		    NULL, 0, NULL, 0, &ev);
	assert_string_equal(ne_text(ev, "card-kept"), "Allies keep General Winter: there is no battle in Russia");
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * The Allied turn of a divided game with control=lapses (three players as
 * `new` deals them), and Switzerland emptied by France's turn.
 */
static json_t *divided_lapses(void)
{
	json_t *s0 = NULL, *s1, *s2, *o = J("{'control': 'lapses', 'allies': 'divided', "
					    "'players': [['France'], ['England', 'Prussia'], ['Russia', 'Austria']]}");
	int faces[31];

	assert_int_equal(NE->setup(&s0, rules, o), 0);
	json_decref(o);
	ne_identity_shuffle(faces, 32);
	s1 = ne_step(s0, rules, json_object(), NULL, 0, faces, 31, NULL);
	s2 = ne_step(s1, rules, J("{'France': [{'type':'move','from':'Switzerland','to':'Italy','armies':3}]}"),
		     NULL, 0, NULL, 0, NULL);
	json_decref(s0);
	json_decref(s1);
	return s2;
}

/* The report of `state` for the player `id` holding `powers` (a JSON list), as report.c builds it. */
static char *divided_report(const json_t *state, const char *id, const char *name, const char *powers,
			    const char *powers_text, int html)
{
	json_t *v = NULL, *m, *held = J(powers);
	char *t;

	assert_int_equal(NE->view(&v, state, rules, json_string_value(json_array_get(held, 0))), 0);
	m = json_pack("{s:o, s:{s:s, s:s, s:o, s:s}, s:o}", "view", v, "player", "id", id, "name", name,
		      "powers", held, "powers_text", powers_text,
		      "holders", J("{'France': {'id': 'anne', 'name': 'Anne'}, 'England': {'id': 'bert', 'name': 'Bert'},"
				   " 'Prussia': {'id': 'bert', 'name': 'Bert'}, 'Russia': {'id': 'carl', 'name': 'Carl'},"
				   " 'Austria': {'id': 'carl', 'name': 'Carl'}}"));
	t = rules_render("napoleonic-empire", html ? "report.html.mustache" : "report.txt.mustache", m,
			 html ? EST_RENDER_ESCAPE_HTML : EST_RENDER_NO_ESCAPE);
	json_decref(m);
	return t;
}

/*
 * Every report states the options the game was made with (README.md
 * "Options"): control=lapses changes how France wins (R5a), and the divided
 * Allies (GAME DESIGNERS NOTES; R36, R37) who commands which countries and
 * who keeps the hand, by the players' names: France's report too. The
 * keeper is told he keeps it; the other Allied player whom to ask.
 */
static void test_options_in_force(void **unused)
{
	json_t *s = divided_lapses(), *u;
	char *t;

	(void)unused;
	t = divided_report(s, "anne", "Anne", "['France']", "France", 0);
	assert_non_null(strstr(t, "\nOPTIONS IN FORCE\n  Control lapses: a country is a side's only while"));
	assert_non_null(strstr(t, "France wins only with armies in every continental country (R5a)\n"));
	assert_non_null(strstr(t, "\n    England (Bert, bert): England, Holland, Spain, Portugal, Naples, Egypt\n"
			       "    Russia (Carl, carl): Russia, Sweden, Warsaw, Ottoman Empire\n"
			       "    Prussia (Bert, bert): France, Prussia, Denmark, Rhineland\n"
			       "    Austria (Carl, carl): Austria, Italy, Switzerland\n"));
	assert_non_null(strstr(t, "\n  The Allied hand is kept by Bert (bert), who holds England: he alone plays"));
	free(t);
	t = divided_report(s, "carl", "Carl", "['Russia', 'Austria']", "Russia, Austria", 0);
	assert_non_null(strstr(t, "\nTHE ALLIED HAND is kept and played by Bert (bert),\nwho holds England:"));
	assert_null(strstr(t, "the player holding England"));
	assert_null(strstr(t, "You keep the Allied hand"));
	free(t);
	t = divided_report(s, "bert", "Bert", "['England', 'Prussia']", "England, Prussia", 0);
	assert_non_null(strstr(t, "\nYOUR HAND (England)\n  You keep the Allied hand: you alone play its cards"));
	assert_non_null(strstr(t, "\nReport for Bert (bert), playing England, Prussia\n"));
	free(t);
	t = divided_report(s, "carl", "Carl", "['Russia', 'Austria']", "Russia, Austria", 1);
	assert_non_null(strstr(t, "<h2>Options in force</h2>"));
	assert_non_null(strstr(t, "<li>Russia (Carl, carl): Russia, Sweden, Warsaw, Ottoman Empire</li>"));
	assert_non_null(strstr(t, "The Allied hand is kept and played by Bert (bert), who holds England"));
	free(t);
	json_decref(s);

	u = ne_started(rules);
	t = view_text(u, NULL);
	assert_non_null(strstr(t, "\n  Control persists: a country stays with the side that last held it alone, "
			       "even when empty (R5)\n  Allies united: one player holds them and their hand (R32)\n"));
	free(t);
	json_decref(u);
}

/*
 * R5a: "If you have one or more armies in a country, and your opponent has
 * none, you control it" read as lasting only that long: France emptied
 * Switzerland, which the report gives as nobody's, not as neutral like
 * Sweden, which nobody held from the start (R4).
 */
static void test_lapsed_country(void **unused)
{
	json_t *s = divided_lapses();
	char *t = view_text(s, NULL), *h;

	(void)unused;
	assert_non_null(strstr(t, "\n  Switzerland: France 0, Allies 0, nobody's (control lapsed); "
			       "reinforcement value 1\n"));
	assert_non_null(strstr(t, "\n  Sweden: France 0, Allies 0, neutral; reinforcement value 1\n"));
	free(t);
	h = divided_report(s, "anne", "Anne", "['France']", "France", 1);
	assert_non_null(strstr(h, "<td class=\"c\">nobody&#39;s (control lapsed)</td>"));
	free(h);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_report_for_france),
		cmocka_unit_test(test_public_html_report),
		cmocka_unit_test(test_map_view),
		cmocka_unit_test(test_map_svg),
		cmocka_unit_test(test_reports_name_template),
		cmocka_unit_test(test_reinforcement_column),
		cmocka_unit_test(test_hold_said_of_this_turn),
		cmocka_unit_test(test_allies_plural_in_events),
		cmocka_unit_test(test_options_in_force),
		cmocka_unit_test(test_lapsed_country),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
