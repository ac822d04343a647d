/*
 * La Guerre de l'Empereur report templates (templates/la-guerre/) and view
 * (internal/rulesets/la-guerre/view.c): the real renderer over the engine's
 * report data with this ruleset's view, for states made by setup() from the
 * real data files and a battle set up by hand and by 5.513 itself. Each
 * report carries the provisional-data banner, a battle shows the decision
 * awaited and its options, each reader sees only their own powers'
 * standing orders, and map.svg is well-formed.
 */
#include "lg_helpers.h"


static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static json_t *set_up(void)
{
	json_t *s = NULL;

	if (LG->setup(&s, rules, NULL) < 0)
		fail_msg("setup: %s", est_error_message());
	return s;
}

static json_t *view(const json_t *state, const char *power)
{
	json_t *v = NULL;

	if (lg_view(&v, state, rules, power) < 0)
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
		if (!json_string_value(json_object_get(v, "provenance")) ||
		    strcmp(json_string_value(json_object_get(v, "provenance")), "placeholder") != 0)
			continue;
		snprintf(name, sizeof(name), "%s.json", file);
		json_array_append_new(list, json_pack("{s:s, s:O?}", "file", name, "note", json_object_get(v, "note")));
	}
	return list;
}

/*
 * The engine's report data for a player holding `powers` (NULL: the
 * public report): view of the first power, views of each, the events and
 * the dice log given.
 */
static json_t *model(const json_t *state, const char *const *powers, json_t *events, const json_t *rolls)
{
	json_t *views = json_array(), *m, *ps = json_array();

	for (const char *const *p = powers; p && *p; p++) {
		json_array_append_new(views, json_pack("{s:s, s:o}", "power", *p, "view", view(state, *p)));
		json_array_append_new(ps, json_string(*p));
	}
	m = json_pack("{s:s, s:s, s:i, s:s, s:b, s:o, s:[{s:s, s:s, s:[s], s:s, s:s, s:s}], s:s, s:i, s:s,"
		      " s:{s:s, s:s, s:o}, s:b, s:o, s:o, s:o, s:{s:s, s:s, s:s, s:s}}",
		      "game", "lg-<1>", "ruleset", "la-guerre", "step", 3, "kind", "turn",
		      "public", powers == NULL, "events", events ? events : json_array(),
		      "awaiting", "player", "austria", "name", "Karl <Mack>", "powers", "Austria", "powers_text", "Austria",
		      "mode", "sequential", "deadline", "2026-12-01T12:00:00Z",
		      "prompt", "Battle at Bavaria, 5.612 step 4: Austria, the initiative player, chooses",
		      "next_step", 4, "state_sha256", "ab12cd",
		      "dice", "reveal", "00ff", "seed", "11ee", "rolls", rolls ? json_deep_copy(rolls) : json_array(),
		      "over", 0, "view", powers ? view(state, powers[0]) : view(state, NULL),
		      "views", views, "provisional", provisional(),
		      "template", "name", "report", "source", "estafette 0.1.0", "sha256", "ab12cd34",
		      "short", "ab12cd");
	assert_non_null(m);
	if (powers) {
		json_object_set_new(m, "player", json_pack("{s:s, s:s, s:o}", "id", "p1", "name", "Karl <Mack>",
							   "powers", ps));
		rules_answer(m, LG, state, rules, "orders-0004-p1.json");
	} else
		json_decref(ps);
	return m;
}

/* The text report of a model (model()); the caller frees. */
static char *report_text(const json_t *m)
{
	return rules_render("la-guerre", "report.txt.mustache", m, EST_RENDER_NO_ESCAPE);
}

/* The HTML report of a model; the caller frees. */
static char *report_html(const json_t *m)
{
	return rules_render("la-guerre", "report.html.mustache", m, EST_RENDER_ESCAPE_HTML);
}

/* Austria's Mack in Bavaria; Napoleon's Grande Armee came in from Wurttemberg and lost the 5.513 roll. */
static json_t *battle_state(void)
{
	json_t *s = set_up();

	json_object_set_new(lg_army(s, "grande-armee"), "location", json_string("Bavaria"));
	json_object_set_new(s, "battle", J("{'province': 'Bavaria', 'attacker': {'army': 'grande-armee',"
					   " 'power': 'France', 'from': 'Wurttemberg'}, 'defender': {'army':"
					   " 'armee-d-allemagne', 'power': 'Austria'}, 'initiative': 'defender',"
					   " 'step': 4, 'begun': false, 'drm': {'attacker': -1, 'defender': 1},"
					   " 'corps': {'attacker': 4, 'defender': 3}}"));
	json_object_set_new(s, "standing", J("{'France': [{'at': 'Bavaria', 'step': 6, 'option': 'attack'}],"
					     " 'Austria': [{'at': 'Bavaria', 'step': 5, 'option': 'retreat',"
					     " 'to': 'Upper Austria'}],"
					     " 'Russia': [{'at': 'Galicia', 'step': 4, 'option': 'bombard'}]}"));
	return s;
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

/* The map's adjacencies counted once, and those that are sea links, from data/map.json. */
static void map_counts(size_t *edges, size_t *sea)
{
	const json_t *map = json_object_get(rules, "map"), *list = json_object_get(map, "provinces");
	size_t i, j, k;

	*edges = 0;
	for (i = 0; i < json_array_size(list); i++)
		for (j = i + 1; j < json_array_size(list); j++) {
			const json_t *a = json_array_get(list, i), *b = json_array_get(list, j), *n;
			int adj = 0;
			json_array_foreach(json_object_get(a, "adjacent"), k, n)
				adj |= json_equal(n, json_object_get(b, "name"));
			json_array_foreach(json_object_get(b, "adjacent"), k, n)
				adj |= json_equal(n, json_object_get(a, "name"));
			*edges += adj;
		}
	*sea = json_array_size(json_object_get(map, "sea_links"));
}

/* Provinces whose controller is a nation of scenario.json's Coalition, or of neither side. */
static int controlled_by(const json_t *state, const char *side)
{
	const json_t *sides = json_object_get(json_object_get(rules, "scenario"), "sides"), *p, *n;
	const char *name;
	int count_side = 0;
	size_t i;

	json_object_foreach(json_object_get(state, "provinces"), name, p) {
		int in_france = 0, in_coalition = 0;
		json_array_foreach(json_object_get(sides, "France"), i, n)
			in_france |= json_equal(n, json_object_get(p, "controller"));
		json_array_foreach(json_object_get(sides, "Coalition"), i, n)
			in_coalition |= json_equal(n, json_object_get(p, "controller"));
		count_side += side ? in_coalition : !in_france && !in_coalition;
	}
	return count_side;
}

static int coalition_provinces(const json_t *state)
{
	return controlled_by(state, "Coalition");
}

static int neutral_provinces(const json_t *state)
{
	return controlled_by(state, NULL);
}

/* The view of the 1805 set-up: every province where the map puts it, the scenario's armies and control. */
static void test_setup_view(void **unused)
{
	json_t *s = set_up(), *v = view(s, NULL);
	const json_t *provinces = json_object_get(v, "provinces"), *p, *a;
	size_t edges, sea, i, n_sea = 0;

	(void)unused;
	assert_string_equal(json_string_value(json_object_get(v, "title")),
			    json_string_value(json_object_get(json_object_get(rules, "scenario"), "title")));
	assert_string_equal(json_string_value(json_object_get(v, "season_text")), "Autumn 1805");
	assert_string_equal(json_string_value(json_object_get(v, "phase_text")), "France's turn");
	assert_int_equal(json_array_size(provinces),
			 json_array_size(json_object_get(json_object_get(rules, "map"), "provinces")));
	json_array_foreach(json_object_get(json_object_get(rules, "map"), "provinces"), i, p) {
		const json_t *q = json_array_get(provinces, i);
		assert_true(json_equal(json_object_get(q, "name"), json_object_get(p, "name")));
		assert_true(json_equal(json_object_get(q, "x"), json_object_get(p, "x")));
		assert_true(json_equal(json_object_get(q, "y"), json_object_get(p, "y")));
	}
	p = find(provinces, "name", "Hanover");
	assert_string_equal(json_string_value(json_object_get(p, "controller")), "France");
	assert_string_equal(json_string_value(json_object_get(p, "side")), "France");
	assert_string_equal(json_string_value(json_object_get(p, "garrison_text")), "1 ghost");
	assert_string_equal(json_string_value(json_object_get(p, "garrison_short")), "+1");
	p = find(provinces, "name", "Ile-de-France");
	assert_string_equal(json_string_value(json_object_get(p, "garrison_text")), "2 divisions");
	p = find(provinces, "name", "Saxony");
	assert_string_equal(json_string_value(json_object_get(p, "side")), "neutral");
	p = find(provinces, "name", "Bavaria");
	assert_string_equal(json_string_value(json_object_get(p, "side")), "France");
	assert_true(json_is_true(json_object_get(p, "occupied")));
	assert_string_equal(json_string_value(json_object_get(p, "armies_text")),
			    "Austria armee-d-allemagne (Mack, 7 divisions)");
	assert_int_equal(json_array_size(json_object_get(p, "markers")), 1);

	map_counts(&edges, &sea);
	assert_int_equal(json_array_size(json_object_get(json_object_get(v, "map"), "edges")), edges);
	json_array_foreach(json_object_get(json_object_get(v, "map"), "edges"), i, p)
		n_sea += json_is_true(json_object_get(p, "sea"));
	assert_int_equal(n_sea, sea);
	assert_int_equal(sea, 4);

	assert_int_equal(json_array_size(json_object_get(v, "armies")),
			 json_array_size(json_object_get(json_object_get(rules, "scenario"), "armies")));
	a = find(json_object_get(v, "armies"), "id", "grande-armee");
	assert_string_equal(json_string_value(json_object_get(a, "commander_name")), "Napoleon");
	assert_int_equal(json_integer_value(json_object_get(a, "tactical")), 3);
	assert_int_equal(json_integer_value(json_object_get(a, "divisions")), 10);
	assert_string_equal(json_string_value(json_object_get(a, "corps_text")),
			    "4 corps, 10 divisions: IV Corps (Soult) 3, III Corps (Davout) 3, V Corps (Lannes) 2, "
			    "VI Corps (Ney) 2");
	assert_int_equal(json_array_size(json_object_get(json_array_get(json_object_get(v, "sides"), 0), "armies")), 2);
	assert_int_equal(json_array_size(json_object_get(json_array_get(json_object_get(v, "sides"), 1), "armies")), 6);

	/* 4.241 at the start: Russia is at war with France and Holland is not France's: not raised. */
	a = json_object_get(v, "embargo");
	assert_false(json_is_true(json_object_get(a, "raised")));
	assert_int_equal(json_integer_value(json_object_get(a, "limit")), 5);
	assert_int_equal(json_integer_value(json_object_get(a, "britain_buy_max")), 10);
	assert_non_null(find(json_object_get(a, "conditions"), "text", "Hanover: controlled by France"));
	assert_true(json_is_null(json_object_get(v, "battle")));
	assert_null(json_object_get(v, "standing"));
	assert_null(json_object_get(v, "power"));
	json_decref(v);
	json_decref(s);
}

/* The public text report of the set-up: banner, armies by side with corps, provinces, embargo, VPs. */
static void test_public_text_report(void **unused)
{
	json_t *s = set_up(), *m = model(s, NULL, NULL, NULL), *f;
	char *t = report_text(m), line[400];
	size_t i;

	(void)unused;
	/* Every file the data mark as placeholder is named in the banner, before anything else. */
	assert_true(json_array_size(json_object_get(m, "provisional")) >= 3);
	json_array_foreach(json_object_get(m, "provisional"), i, f) {
		snprintf(line, sizeof(line), "\nProvisional data: %s (placeholder values; the seed does not give them)\n",
			 json_string_value(json_object_get(f, "file")));
		assert_non_null(strstr(t, line));
		assert_true(strstr(t, line) < strstr(t, "WHAT HAPPENED"));
	}
	assert_non_null(strstr(t, "The War of the Third Coalition, 1805: Autumn 1805, France's turn\n"));
	assert_non_null(strstr(t, "Public report\n"));
	assert_non_null(strstr(t, "\nARMIES\nFrance (14 divisions, 0 VP):\n"));
	assert_non_null(strstr(t, "\nthe Coalition (27 divisions, 0 VP):\n"));
	assert_non_null(strstr(t, "  grande-armee (France) in Alsace: Napoleon, tactical 3; movement 4, artillery 3\n"
				  "    4 corps, 10 divisions: IV Corps (Soult) 3,"));
	assert_non_null(strstr(t, "  Hanover: France (France); garrison 1 ghost\n"));
	assert_non_null(strstr(t, "  Bavaria: Bavaria (France); garrison none; Austria armee-d-allemagne (Mack, 7 divisions)\n"));
	assert_non_null(strstr(t, "  Embargo not raised: if the winter came now the Embargo limit would be 5 VPs"));
	assert_non_null(strstr(t, "    - Russia: war"));
	assert_non_null(strstr(t, "  France 0, Coalition 0\n"));
	/* The public report: nobody's order file, no "how to send orders". */
	assert_null(strstr(t, "HOW TO SEND ORDERS"));
	assert_null(strstr(t, "{\"type\": \"move\""));
	assert_null(strstr(t, "{\"type\": \"option\""));
	assert_null(strstr(t, "BATTLE IN"));
	assert_null(strstr(t, "STANDING ORDERS"));
	assert_non_null(strstr(t, "Report made by estafette from template report (estafette 0.1.0, ab12cd)\n"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/*
 * 4.241 and RULINGS.md L25, L27: the diplomacy section says until when a
 * treaty holds (a scenario's treaty has no end date) and which offer of
 * France's waits for an acceptance, as a refusal of a second treaty says.
 */
static void test_diplomacy_lines(void **unused)
{
	json_t *s = set_up(), *m;
	char *t;

	(void)unused;
	json_object_set_new(s, "offers", json_pack("{s:s}", "Russia", "peace"));
	m = model(s, NULL, NULL, NULL);
	t = report_text(m);
	assert_non_null(strstr(t, "\nDIPLOMACY\n  Russia: war; France offers an enforced peace, which Russia may "
				  "accept in the Coalition's turn that follows (RULINGS.md L27)\n"));
	assert_non_null(strstr(t, "\n  Spain: alliance with France, with no end date\n"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/* The battle in progress: both sides, the 5.612 step awaited, its options and where a retreat may go. */
static void test_battle_lines(void **unused)
{
	static const char *const france[] = {"France", NULL};
	json_t *s = battle_state(), *m = model(s, france, NULL, NULL);
	const json_t *b = json_object_get(json_object_get(m, "view"), "battle");
	char *t = report_text(m);
	char *h = report_html(m);

	(void)unused;
	assert_string_equal(json_string_value(json_object_get(b, "awaits_power")), "Austria");
	assert_string_equal(json_string_value(json_object_get(b, "awaits_kind")), "battle-step-4");
	assert_int_equal(json_array_size(json_object_get(b, "options")), 4);
	/* Bavaria's neighbours held by the Coalition with no army: Upper Austria and Bohemia, not Tyrol (John). */
	assert_int_equal(json_array_size(json_object_get(b, "retreat_to")), 2);
	assert_non_null(strstr(t, "\nBATTLE IN Bavaria (5.612 step 4)\n"
				  "  Attacker: France, army grande-armee under Napoleon (tactical 3): 4 corps, 10 divisions, "
				  "3 artillery; drm -1; came from Wurttemberg\n"
				  "  Defender: Austria, army armee-d-allemagne under Mack (tactical 0): 3 corps, 7 divisions, "
				  "2 artillery; drm +1; HAS THE INITIATIVE\n"));
	assert_non_null(strstr(t, "  Awaited: 5.612 step 4: Austria, the initiative player, may choose one option at Bavaria\n"
				  "  Options:\n"
				  "    attack: Attack (go directly to step 7)\n"
				  "    retreat: Retreat (no pursuit before combat)\n"
				  "    auxiliary: Auxiliary Option"));
	assert_non_null(strstr(t, "    bombard: Bombard (one d10 per artillery unit; each 10 eliminates 2 divisions)\n"));
	assert_non_null(strstr(t, "  Retreat open to Austria: Bohemia, Upper Austria\n"));
	assert_non_null(strstr(t, "  Bavaria: Bavaria (France); garrison none; France grande-armee (Napoleon, 10 divisions); "
				  "Austria armee-d-allemagne (Mack, 7 divisions); BATTLE\n"));
	assert_non_null(strstr(h, "<h2>Battle in Bavaria (5.612 step 4)</h2>"));
	assert_non_null(strstr(h, "<li><code>bombard</code>: Bombard"));
	assert_non_null(strstr(h, "<tr class=\"France battle\"><td>Bavaria (battle)</td>"));
	assert_non_null(strstr(h, "Karl &lt;Mack&gt;"));
	assert_null(strstr(h, "lg-<1>"));

	/* Step 6: the initiative player must attack or retreat. */
	json_object_set_new(json_object_get(s, "battle"), "step", json_integer(6));
	json_decref(m);
	free(t);
	m = model(s, france, NULL, NULL);
	t = report_text(m);
	assert_non_null(strstr(t, "  Awaited: 5.612 step 6: there was no Attack in step 5, so Austria, the initiative "
				  "player, MUST choose Attack or Retreat at Bavaria\n  Options:\n    attack: Attack\n"
				  "    retreat: Retreat, pursued (5.629)\n  Retreat"));
	free(t);
	json_decref(m);

	/* Step 9: Austria lost the attack; with Bohemia and Upper Austria French it has no haven left. */
	json_object_set_new(json_object_get(s, "battle"), "step", json_integer(9));
	json_object_set_new(json_object_get(s, "battle"), "loser", json_string("defender"));
	json_object_set_new(lg_province(s, "Bohemia"), "controller", json_string("France"));
	json_object_set_new(lg_province(s, "Upper Austria"), "controller", json_string("France"));
	m = model(s, france, NULL, NULL);
	t = report_text(m);
	assert_non_null(strstr(t, "  Awaited: 5.612 step 9: Austria lost the attack at Bavaria and must retreat; pursuit "
				  "follows (5.629)\n  Options:\n    retreat: Retreat, pursued (5.629)\n"
				  "  Retreat open to Austria: no adjacent friendly province without an army: a retreat goes "
				  "through enemy provinces, losing divisions (5.6291)\n"));
	/* The retreat step lists its one choice, not every kind of order. */
	assert_non_null(strstr(t, "\n  {\"type\": \"retreat\"}\n      retreat: no province is open, so through enemy "
				  "provinces (5.6291)\n"));
	assert_null(strstr(t, "{\"type\": \"move\""));
	assert_non_null(strstr(t, "  the attack has been resolved: the loser retreats and is pursued (5.629)"));
	assert_null(strstr(t, "{\"type\": \"option\""));
	free(t);
	free(h);
	json_decref(m);
	json_decref(s);
}

/* Standing orders are their power's own: France never sees Austria's; a Coalition player sees all of theirs. */
static void test_standing_orders_are_private(void **unused)
{
	static const char *const france[] = {"France", NULL};
	static const char *const austria[] = {"Austria", NULL};
	static const char *const coalition[] = {"Austria", "Russia", "Britain", NULL};
	const char *austrian = "at Bavaria, 5.612 step 5: retreat to Upper Austria";
	const char *french = "at Bavaria, 5.612 step 6: attack";
	const char *russian = "at Galicia, 5.612 step 4: bombard";
	json_t *s = battle_state(), *v;
	json_t *mf = model(s, france, NULL, NULL), *ma = model(s, austria, NULL, NULL);
	json_t *mc = model(s, coalition, NULL, NULL), *mp = model(s, NULL, NULL, NULL);
	char *tf = report_text(mf);
	char *ta = report_text(ma);
	char *tc = report_text(mc);
	char *tp = report_text(mp);
	char *hf = report_html(mf);
	char *hp = report_html(mp);
	char *dump;

	(void)unused;
	assert_non_null(strstr(tf, "\nYOUR STANDING ORDERS\n  France:\n    at Bavaria, 5.612 step 6: attack\n"));
	assert_null(strstr(tf, austrian));
	assert_null(strstr(tf, russian));
	assert_null(strstr(hf, austrian));
	assert_non_null(strstr(hf, "<h3>France</h3>\n<ul>\n<li>at Bavaria, 5.612 step 6: attack</li>"));

	assert_non_null(strstr(ta, "\nYOUR STANDING ORDERS\n  Austria:\n    at Bavaria, 5.612 step 5: retreat to Upper Austria\n"));
	assert_null(strstr(ta, french));
	assert_null(strstr(ta, russian));

	assert_non_null(strstr(tc, "  Austria:\n    at Bavaria, 5.612 step 5: retreat to Upper Austria\n"
				   "  Russia:\n    at Galicia, 5.612 step 4: bombard\n  Britain:\n    none\n"));
	assert_null(strstr(tc, french));

	assert_null(strstr(tp, "STANDING ORDERS"));
	assert_null(strstr(tp, austrian));
	assert_null(strstr(tp, french));
	assert_null(strstr(hp, "standing orders"));
	assert_null(strstr(hp, french));

	/* The view itself: France's holds France's orders only, the public view none at all. */
	v = view(s, "France");
	assert_int_equal(json_array_size(json_object_get(v, "standing")), 1);
	dump = json_dumps(v, 0);
	assert_null(strstr(dump, "step 5: retreat"));
	assert_null(strstr(dump, russian));
	free(dump);
	json_decref(v);
	v = view(s, NULL);
	assert_null(json_object_get(v, "standing"));
	dump = json_dumps(v, 0);
	assert_null(strstr(dump, "5.612 step 6: attack"));
	assert_null(strstr(dump, "step 5: retreat"));
	free(dump);
	json_decref(v);

	/* A sealed copy (the public refs) holds a commitment: the reader is told so. */
	json_object_set_new(json_object_get(s, "standing"), "France", J("{'sealed': 'abcd', 'count': 1}"));
	json_decref(mf);
	free(tf);
	mf = model(s, france, NULL, NULL);
	tf = report_text(mf);
	assert_non_null(strstr(tf, "  France:\n    sealed: this copy of the game holds only a commitment to them"));

	free(tf);
	free(ta);
	free(tc);
	free(tp);
	free(hf);
	free(hp);
	json_decref(mf);
	json_decref(ma);
	json_decref(mc);
	json_decref(mp);
	json_decref(s);
}

/* The same battle started by the rules (5.513, 5.612 steps 1-3) with a fixed die stream: events and dice in order. */
static void test_battle_from_the_rules(void **unused)
{
	static const char *const austria[] = {"Austria", NULL};
	/* 5.513: France 1 + 3 = 4, Austria 6 + 0 = 6: Austria has the initiative; approach: Austria 6, France 1. */
	const int faces[] = {1, 6, 6, 1};
	json_t *s = set_up(), *events = json_array(), *m, *hand = battle_state();
	est_dice *dice = NULL;
	json_t *mover = lg_army(s, "grande-armee");
	char *t;

	(void)unused;
	assert_int_equal(est_dice_new_fixed(&dice, faces, 4), 0);
	json_object_set_new(mover, "location", json_string("Bavaria"));
	if (lg_battle_enter(s, events, rules, dice, mover, "Wurttemberg", lg_army(s, "armee-d-allemagne")) < 0)
		fail_msg("battle: %s", est_error_message());
	assert_int_equal(est_dice_count(dice), 4);
	/* The battle the rules made has the shape the hand-made one has. */
	assert_true(json_equal(json_object_get(s, "battle"), json_object_get(hand, "battle")));

	m = model(s, austria, json_incref(events), est_dice_log(dice));
	t = report_text(m);
	assert_non_null(strstr(t, "\nWHAT HAPPENED\n- 5.513 entering Bavaria: France (Napoleon, tactical 3) rolls 1 = 4;"));
	assert_true(strstr(t, "- 5.612 step 1:") < strstr(t, "- 5.612 step 2:"));
	assert_true(strstr(t, "- 5.612 step 2:") < strstr(t, "- 5.612 step 3:"));
	assert_non_null(strstr(t, "\nDICE (reveal 00ff, seed 11ee)\n  d6 = 1: Bavaria 5.513: France initiative\n"
				  "  d6 = 6: Bavaria 5.513: Austria initiative\n"));
	assert_non_null(strstr(t, "drm +1; HAS THE INITIATIVE\n"));
	assert_non_null(strstr(t, "\nAWAITED\n  Karl <Mack> (austria) for Austria - sequential, by 2026-12-01T12:00:00Z\n"));
	assert_non_null(strstr(t, "{\"type\": \"option\", \"option\": \"attack\"}"));
	assert_non_null(strstr(t, "{\"type\": \"option\", \"option\": \"retreat\", \"to\": \"Bohemia\"}\n"));
	assert_null(strstr(t, "{\"type\": \"move\""));
	free(t);
	json_decref(m);
	json_decref(events);
	json_decref(hand);
	est_dice_free(dice);
	json_decref(s);
}

/* 4.241: alliances or enforced peace with Russia, Prussia and Spain, and Holland and Hanover French: limit 10. */
static void test_embargo_raised(void **unused)
{
	json_t *s = set_up(), *v, *m;
	const json_t *e;
	char *t;

	(void)unused;
	json_object_set_new(json_object_get(s, "diplomacy"), "Russia", J("{'status': 'peace', 'expires': 1807}"));
	json_object_set_new(json_object_get(s, "diplomacy"), "Prussia", J("{'status': 'alliance'}"));
	json_object_set_new(lg_province(s, "Holland"), "controller", json_string("France"));
	v = view(s, NULL);
	e = json_object_get(v, "embargo");
	assert_true(json_is_true(json_object_get(e, "raised")));
	assert_int_equal(json_integer_value(json_object_get(e, "limit")), 10);
	assert_int_equal(json_integer_value(json_object_get(e, "britain_buy_max")), 5);
	assert_non_null(find(json_object_get(v, "diplomacy"), "text", "Russia: peace with France, until 1807"));
	json_decref(v);
	m = model(s, NULL, NULL, NULL);
	t = report_text(m);
	assert_non_null(strstr(t, "  Embargo RAISED: if the winter came now the Embargo limit would be 10 VPs (raised: "
				  "every condition of 4.241 holds) and Britain could buy at most 5 VPs\n"));
	assert_non_null(strstr(t, "    - Holland: controlled by France\n"));
	free(t);
	json_decref(m);

	/* The end: the winner and why, and no order help. */
	json_object_set_new(s, "phase", json_string("over"));
	json_object_set_new(s, "winner", json_string("France"));
	json_object_set_new(s, "win_reason", json_string("the scenario ends with France at 3 VPs and the Coalition at 1"));
	m = model(s, NULL, NULL, NULL);
	json_object_set_new(m, "over", json_true());
	t = report_text(m);
	assert_non_null(strstr(t, "GAME OVER: France: the scenario ends with France at 3 VPs and the Coalition at 1\n"));
	assert_non_null(strstr(t, "Autumn 1805, the scenario is over\n"));
	assert_null(strstr(t, "HOW TO SEND ORDERS"));
	free(t);
	json_decref(m);
	json_decref(s);
}

/*
 * A tiny XML well-formedness check: every tag closes in order, attributes
 * are quoted, no raw '<' or '&' stands in text; the prolog, comments and
 * CDATA are skipped. Returns the number of elements, or -1.
 */
static int xml_elements(const char *x)
{
	char stack[64][32];
	int depth = 0, elements = 0;
	const char *p = x;

	while (*p) {
		if (*p == '&') {
			const char *semi = strchr(p, ';');
			if (!semi || semi - p > 8)
				return -1;
			p = semi + 1;
			continue;
		}
		if (*p != '<') {
			p++;
			continue;
		}
		if (strncmp(p, "<?", 2) == 0 || strncmp(p, "<!--", 4) == 0 || strncmp(p, "<![CDATA[", 9) == 0) {
			const char *end = strstr(p, p[1] == '?' ? "?>" : p[1] == '!' && p[2] == '-' ? "-->" : "]]>");
			if (!end)
				return -1;
			p = end + (p[1] == '?' ? 2 : 3);
			continue;
		}
		if (p[1] == '/') {
			size_t n = strcspn(p + 2, ">");
			if (depth == 0 || n != strlen(stack[depth - 1]) || strncmp(p + 2, stack[depth - 1], n) != 0)
				return -1;
			depth--;
			p += 2 + n + 1;
			continue;
		}
		{
			size_t n = strcspn(p + 1, " \t\n/>");
			const char *q = p + 1 + n;
			char quote = 0;
			if (n == 0 || n >= sizeof(stack[0]) || depth == 64)
				return -1;
			for (; *q && (quote || (*q != '>')); q++) {
				if (quote && *q == quote)
					quote = 0;
				else if (!quote && (*q == '"' || *q == '\''))
					quote = *q;
				else if (!quote && *q == '=' && q[1] != '"' && q[1] != '\'')
					return -1;
				else if (*q == '<')
					return -1;
			}
			if (!*q)
				return -1;
			elements++;
			if (q[-1] != '/') {
				memcpy(stack[depth], p + 1, n);
				stack[depth++][n] = 0;
			}
			p = q + 1;
		}
	}
	return depth == 0 ? elements : -1;
}

/* map.svg: well-formed; every province coloured by side, every edge, every army, the battle ringed. */
static void test_map_svg(void **unused)
{
	static const char *const france[] = {"France", NULL};
	json_t *s = battle_state(), *m = model(s, france, NULL, NULL);
	const json_t *bavaria = lg_province_data(rules, "Bavaria");
	char *svg = rules_render("la-guerre", "map.svg.mustache", m, EST_RENDER_ESCAPE_HTML), ring[128];
	size_t edges, sea, provinces = json_array_size(json_object_get(json_object_get(rules, "map"), "provinces"));
	size_t armies = json_array_size(json_object_get(s, "armies"));

	(void)unused;
	assert_true(xml_elements(svg) > (int)provinces);
	assert_int_equal(xml_elements("<a><b></a></b>"), -1);
	assert_int_equal(xml_elements("<a x=1/>"), -1);
	assert_int_equal(xml_elements("<a>x < y</a>"), -1);
	assert_memory_equal(svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"", 60);
	assert_non_null(strstr(svg, "viewBox=\"0 0 1000 800\""));
	assert_non_null(strstr(svg, "<title>La Guerre de l'Empereur, game lg-&lt;1&gt;, step 3: the map</title>"));
	assert_null(strstr(svg, "lg-<1>"));

	map_counts(&edges, &sea);
	/* Each province and the legend's three samples. */
	assert_int_equal(count(svg, "<circle class=\"province "), (int)provinces + 3);
	assert_int_equal(count(svg, "<circle class=\"province Coalition\""), coalition_provinces(s) + 1);
	assert_int_equal(count(svg, "<circle class=\"province neutral\""), neutral_provinces(s) + 1);
	assert_int_equal(count(svg, "<line class=\"edge\""), (int)(edges - sea) + 1);
	assert_int_equal(count(svg, "<line class=\"edge sea\""), (int)sea + 1);
	assert_int_equal(count(svg, "<rect class=\"marker "), (int)armies + 1);
	assert_int_equal(count(svg, "<text class=\"name\""), (int)provinces);
	snprintf(ring, sizeof(ring), "<circle class=\"battle\" cx=\"%lld\" cy=\"%lld\" r=\"27\"/>",
		 json_integer_value(json_object_get(bavaria, "x")), json_integer_value(json_object_get(bavaria, "y")));
	assert_non_null(strstr(svg, ring));
	assert_int_equal(count(svg, "<circle class=\"battle\""), 1 + 1);
	assert_int_equal(count(svg, "Provisional data: "), (int)json_array_size(json_object_get(m, "provisional")));
	assert_non_null(strstr(svg, "<tspan x=\"992\" dy=\"14\">Provisional data: map.json (placeholder values; the seed does not give them)</tspan>"));
	assert_non_null(strstr(svg, "<title>Austria army armee-d-allemagne (Mack): 7 divisions</title>"));
	assert_non_null(strstr(svg, ">Ile-de-France</text>"));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
	json_decref(m);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_view),
		cmocka_unit_test(test_public_text_report),
		cmocka_unit_test(test_diplomacy_lines),
		cmocka_unit_test(test_battle_lines),
		cmocka_unit_test(test_standing_orders_are_private),
		cmocka_unit_test(test_battle_from_the_rules),
		cmocka_unit_test(test_embargo_raised),
		cmocka_unit_test(test_map_svg),
	};
	int rc;

	rules = lgt_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
