/*
 * La Guerre de l'Empereur, the campaign around the battles: the order of
 * turns (France sequential, the Coalition simultaneous), movement orders
 * and their refusals, seasons and the winter step, France's Continental
 * System embargo (4.241, seeds/la-guerre-de-l-empereur-2002-update.txt) and
 * the end of the 1805 scenario (data/scenario.json: Autumn 1805 to Summer
 * 1806; Russia at war, Prussia inactive with no treaty, Spain allied;
 * Hanover French, Holland under "Holland", a minor nation of France's side).
 *
 * Embargo ports on the map (Baltic, North Sea, Atlantic): England
 * (Britain), Belgium (France), Holland, Hanover, Mecklenburg, Pomerania and
 * East Prussia (Prussia), Denmark, Courland (Russia's only one).
 */
#include "lg_helpers.h"


/* A step that draws no dice. */
static json_t *step0(const json_t *s, const char *orders, json_t **events)
{
	return lgt_step(s, rules, orders, NULL, 0, events, NULL);
}

/* The winter step of 1805 with the scenario's map and diplomacy. */
static json_t *winter(void)
{
	json_t *s = lgt_setup(rules);

	json_object_set_new(s, "season", json_string("Winter"));
	json_object_set_new(s, "phase", json_string("winter"));
	json_object_set_new(s, "side", json_string("Coalition"));
	return s;
}

static void diplomacy(json_t *s, const char *nation, const char *status)
{
	json_object_set_new(json_object_get(s, "diplomacy"), nation, json_pack("{s:s}", "status", status));
}

/* Resolve the winter step; returns the embargo event's fields (a new reference) and the next state. */
static json_t *embargo(const json_t *s, json_t **next_out)
{
	json_t *ev, *n, *e;

	lgt_assert_pending(s, rules, "automatic", "winter", NULL);
	n = step0(s, "{}", &ev);
	e = json_incref((json_t *)lgt_event(ev, "embargo"));
	assert_non_null(e);
	json_decref(ev);
	if (next_out)
		*next_out = n;
	else
		json_decref(n);
	return e;
}

static int raised(const json_t *e)
{
	return json_is_true(json_object_get(e, "raised"));
}

/*
 * 4.241 at the start: Russia is at war with France (and France holds none
 * of Courland), and Prussia, inactive, has no treaty with France (RULINGS.md
 * L22: "remains part" only after one expires): the embargo is not raised.
 * France controls Holland through Holland, a minor nation of its side, and
 * Hanover itself. The limit stays 5 VPs; France's side holds three ports
 * (Belgium, Holland, Hanover): 3 VPs; Britain may buy up to 10: it asked 8
 * and buys 8.
 */
static void test_4241_not_raised_at_start(void **unused)
{
	json_t *s = winter(), *e, *n;

	(void)unused;
	json_object_set_new(s, "britain_buy", json_integer(8));
	e = embargo(s, &n);
	assert_false(raised(e));
	assert_int_equal(est_rules_int(e, "limit", 0), 5);
	assert_int_equal(est_rules_int(e, "income", 0), 3);
	assert_int_equal(est_rules_int(e, "france_vp", 0), 3);
	assert_int_equal(est_rules_int(e, "britain_cap", 0), 10);
	assert_int_equal(est_rules_int(e, "britain_vp", 0), 8);
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Prussia: inactive, and French troops do not occupy"));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Holland: controlled by France through Holland"));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Hanover: controlled by France"));
	assert_int_equal(lgt_vp(n, "France"), 3);
	assert_int_equal(lgt_vp(n, "Coalition"), 8);
	assert_int_equal(est_rules_int(n, "britain_buy", -1), 0);
	json_decref(e);
	json_decref(n);
	json_decref(s);
}

/*
 * 4.241: "If France has an alliance or an enforced peace with all of
 * Russia, Prussia, and Spain ... and if France also controls Holland and
 * Hanover, the Embargo limit goes up to 10 VPs per year ... In addition,
 * Britain may buy no more than 5 VP's that winter." Russia at peace,
 * Prussia and Spain allied, Holland and Hanover French: raised; Britain
 * asks 8, buys 5.
 */
static void test_4241_raised_by_treaty_britain_capped(void **unused)
{
	json_t *s = winter(), *e, *n;

	(void)unused;
	diplomacy(s, "Russia", "peace");
	diplomacy(s, "Prussia", "alliance");
	json_object_set_new(s, "britain_buy", json_integer(8));
	e = embargo(s, &n);
	assert_true(raised(e));
	assert_int_equal(est_rules_int(e, "limit", 0), 10);
	assert_int_equal(est_rules_int(e, "britain_cap", 0), 5);
	assert_int_equal(est_rules_int(e, "britain_vp", 0), 5);
	assert_int_equal(lgt_vp(n, "Coalition"), 5);
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Russia: peace with France"));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Prussia: alliance with France"));
	json_decref(e);
	json_decref(n);
	json_decref(s);
}

/*
 * 4.241, France's income (the reading the ruleset documents: the ports
 * controlled by France's side or by a nation counted in the embargo): with
 * Russia at peace and Prussia allied, and so in the embargo, Russia's
 * Courland and Prussia's Pomerania and East Prussia count beside Belgium,
 * Holland and Hanover: 6, under the raised limit of 10.
 */
static void test_4241_income_counts_ports_of_embargo_nations(void **unused)
{
	json_t *s = winter(), *e, *n;

	(void)unused;
	diplomacy(s, "Russia", "peace");
	diplomacy(s, "Prussia", "alliance");
	e = embargo(s, &n);
	assert_true(raised(e));
	assert_int_equal(est_rules_int(e, "income", 0), 6);
	assert_int_equal(est_rules_int(e, "france_vp", 0), 6);
	assert_int_equal(lgt_vp(n, "France"), 6);
	json_decref(e);
	json_decref(n);
	json_decref(s);
}

/*
 * 4.241: "or failing this, has troops occupying all of a nation's ports
 * bordering on the Baltic Sea, the North Sea, and the Atlantic Ocean":
 * Russia stays at war, but France controls Courland, Russia's only such
 * port; with Prussia allied the embargo is raised. Courland, French now,
 * is a sixth port: France scores 6. With Holland taken by Britain it is
 * not raised.
 */
static void test_4241_raised_by_occupied_ports(void **unused)
{
	json_t *s = winter(), *e;

	(void)unused;
	lgt_control(s, "Courland", "France", 0, 1);
	diplomacy(s, "Prussia", "alliance");
	lgt_control(s, "Holland", "Britain", 0, 1);
	e = embargo(s, NULL);
	assert_false(raised(e));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Holland: not controlled by France (held by Britain)"));
	json_decref(e);
	lgt_control(s, "Holland", "Holland", 1, 0);
	e = embargo(s, NULL);
	assert_true(raised(e));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Russia: French troops occupy all its ports"));
	assert_int_equal(est_rules_int(e, "income", 0), 6);
	assert_int_equal(est_rules_int(e, "france_vp", 0), 6);
	json_decref(e);
	json_decref(s);
}

/* 4.241 as the game stands now (what the report shows), with the conditions' text. */
static int raised_now(const json_t *s, const char *words)
{
	char *why = NULL;
	int r = lg_embargo_raised(&why, s, rules);

	if (words && !strstr(why, words))
		fail_msg("4.241's conditions \"%s\" do not say \"%s\"", why, words);
	free(why);
	return r;
}

/*
 * 4.241: "If the enforced peace or alliance ... expires, that nation may
 * still be considered part of the Embargo at the player's discretion. If
 * an 'inactive' NPC (see 3.31) that nation remains part of the Embargo."
 * RULINGS.md L22: "remains" speaks of a nation whose treaty has expired,
 * and an inactive NPC has no player to use the discretion. With Russia at
 * peace, Prussia inactive with no treaty does not count (its Baltic ports
 * are neutral, unoccupied): not raised. Prussia inactive with an alliance
 * expired in 1804 remains part with no one's order: raised; no player may
 * name it in an embargo order. Not marked inactive, Prussia, a neutral,
 * is still held by no player, and remains the same.
 */
static void test_4241_inactive_counts_only_after_a_treaty(void **unused)
{
	json_t *s = winter(), *e;

	(void)unused;
	diplomacy(s, "Russia", "peace");
	e = embargo(s, NULL);
	assert_false(raised(e));
	assert_int_equal(est_rules_int(e, "limit", 0), 5);
	json_decref(e);
	json_object_set_new(json_object_get(s, "diplomacy"), "Prussia",
			    J("{'status': 'alliance', 'expires': 1804, 'npc': 'inactive'}"));
	e = embargo(s, NULL);
	assert_true(raised(e));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Prussia: its alliance has expired, and an inactive "
			       "non-player nation remains part of the Embargo"));
	json_decref(e);
	json_object_set_new(s, "phase", json_string("turn"));
	json_object_set_new(s, "side", json_string("France"));
	lgt_refused(s, rules, "France", "[{'type': 'embargo', 'keep': ['Prussia']}]", "keep",
		    "Prussia is a non-player nation: after its treaty expires it remains part of the Embargo");
	json_object_set_new(s, "phase", json_string("winter"));
	json_object_set_new(json_object_get(s, "diplomacy"), "Prussia", J("{'status': 'alliance', 'expires': 1804}"));
	e = embargo(s, NULL);
	assert_true(raised(e));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Prussia: its alliance has expired, and a nation no "
			       "player holds remains part of the Embargo"));
	json_decref(e);
	json_decref(s);
}

/* Whether the turn's choices (pending) offer `power` to keep itself in the embargo, as Russia writes it. */
static int keep_offered(const json_t *s, const char *power)
{
	json_t *p = NULL, *want = json_pack("{s:s, s:[s], s:s}", "type", "embargo", "keep", power, "power", power), *c;
	size_t i;
	int found = 0;

	assert_int_equal(LG->pending(&p, s, rules), 0);
	json_array_foreach(json_object_get(p, "choices"), i, c)
		found |= json_equal(json_object_get(c, "order"), want);
	json_decref(want);
	json_decref(p);
	return found;
}

/*
 * 4.241: "If the enforced peace or alliance between Russia, Prussia or
 * Spain and France expires, that nation may still be considered part of
 * the Embargo at the player's discretion." RULINGS.md L22: the player is
 * the one who holds the nation, and the nation is out unless he keeps it
 * in, in his Winter turn, for that winter. Winter 1805: Russia's peace
 * expired in 1804, Prussia and Spain allied. France may not keep Russia
 * in; the Coalition's turn says nothing of it, and the embargo is not
 * raised. Russia's own order keeps it in: raised, and after the winter
 * phase Russia is out again until its player chooses anew. Spain's
 * alliance expired too: Spain, of France's side, is France's to keep in.
 */
static void test_4241_expired_treaty_at_its_holders_discretion(void **unused)
{
	json_t *s = lgt_setup(rules), *c, *w, *n, *e;

	(void)unused;
	json_object_set_new(json_object_get(s, "diplomacy"), "Russia", J("{'status': 'peace', 'expires': 1804}"));
	diplomacy(s, "Prussia", "alliance");
	lgt_refused(s, rules, "France", "[{'type': 'embargo', 'keep': []}]", "type", "Winter turn");
	json_object_set_new(s, "season", json_string("Winter"));
	lgt_refused(s, rules, "France", "[{'type': 'embargo', 'keep': ['Russia']}]", "keep",
		    "whether Russia stays in the Embargo is for Russia's player to decide");
	lgt_refused(s, rules, "France", "[{'type': 'embargo', 'keep': ['Austria']}]", "keep",
		    "not a nation of the embargo");
	lgt_refused(s, rules, "France", "[{'type': 'embargo', 'keep': ['Spain']}]", "keep",
		    "Spain's alliance with France has not expired");

	c = step0(s, "{'France': []}", NULL);
	assert_true(keep_offered(c, "Russia"));
	lgt_refused(c, rules, "Austria", "[{'type': 'embargo', 'keep': ['Russia']}]", "keep",
		    "for Russia's player to decide (4.241: \"at the player's discretion\"; a player holding "
		    "Russia and other powers adds \"power\": \"Russia\"");
	rules_valid(LG, c, rules, "Russia", "[{'type': 'embargo', 'keep': ['Russia']}]");
	w = step0(c, "{'Austria': [], 'Russia': [], 'Britain': []}", NULL);
	e = embargo(w, NULL);
	assert_false(raised(e));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Russia: its peace has expired, and Russia has not kept "
			       "it in this winter"));
	json_decref(e);
	json_decref(w);

	w = step0(c, "{'Russia': [{'type': 'embargo', 'keep': ['Russia']}]}", NULL);
	e = embargo(w, &n);
	assert_true(raised(e));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Russia: its peace has expired, and Russia keeps it in "
			       "this winter, at its player's discretion"));
	assert_false(raised_now(n, "Russia: its peace has expired, and Russia has not kept it in"));
	json_decref(e);
	json_decref(n);
	json_decref(w);
	json_decref(c);

	json_object_set_new(json_object_get(s, "diplomacy"), "Russia", J("{'status': 'peace', 'expires': 1805}"));
	json_object_set_new(json_object_get(s, "diplomacy"), "Spain", J("{'status': 'alliance', 'expires': 1804}"));
	lgt_refused(s, rules, "France", "[{'type': 'embargo', 'keep': ['Russia']}]", "keep", "Russia's player");
	c = step0(s, "{'France': []}", NULL);
	lgt_refused(c, rules, "Russia", "[{'type': 'embargo', 'keep': ['Spain']}]", "keep", "for France's player");
	w = step0(c, "{}", NULL);
	assert_false(raised_now(w, "Spain: its alliance has expired, and France has not kept it in this winter"));
	json_decref(w);
	json_decref(c);
	c = step0(s, "{'France': [{'type': 'embargo', 'keep': ['Spain']}]}", NULL);
	w = step0(c, "{}", NULL);
	assert_true(raised_now(w, "Spain: its alliance has expired, and France keeps it in this winter"));
	json_decref(w);
	json_decref(c);
	json_decref(s);
}

/*
 * Every clause of 4.241 reached by the players' orders from the 1805 start
 * (RULINGS.md L22, L25, L27), no state edited:
 * - Autumn 1805: France concludes an alliance with Prussia, an inactive
 *   non-player nation, and offers Russia an enforced peace; treaties run
 *   through the year they are made (scenario.json "treaty_years": 1).
 * - The Coalition's turn: Russia accepts; while it lasts Russia's army may
 *   not march into a province of France's side.
 * - Winter 1805: alliance or enforced peace with all of Russia, Prussia
 *   and Spain, Holland and Hanover held by France's side: the limit is 10
 *   VPs and Britain, asking 8, buys 5.
 * - Spring 1806: both treaties have expired. Russia is out of the embargo
 *   unless its own player keeps it in, which he does in his Winter turn
 *   (none comes before the scenario ends; RULINGS.md L22); Prussia, an
 *   inactive non-player nation, remains part, and no player may name it.
 * - Britain's expedition lands in Hanover (a ghost garrison: it changes
 *   hands on entry), so France no longer controls Hanover.
 */
static void test_4241_every_clause_by_orders(void **unused)
{
	json_t *s0 = lgt_setup(rules), *s1, *s2, *s3, *s4, *s5, *s6, *s7, *ev, *e;

	(void)unused;
	assert_false(raised_now(s0, "Russia: war"));
	lgt_refused(s0, rules, "France", "[{'type': 'treaty', 'nation': 'Austria', 'treaty': 'peace'}]", "nation",
		    "Russia, Prussia or Spain");
	lgt_refused(s0, rules, "France", "[{'type': 'treaty', 'nation': 'Spain', 'treaty': 'alliance'}]", "nation",
		    "already has a treaty");
	s1 = step0(s0, "{'France': [{'type': 'treaty', 'nation': 'Prussia', 'treaty': 'alliance'}, "
		   "{'type': 'treaty', 'nation': 'Russia', 'treaty': 'peace'}]}", &ev);
	assert_non_null(strstr(lgt_text(ev, "treaty"), "France and Prussia conclude an alliance, enforced through 1805"));
	json_decref(ev);
	lgt_assert_pending(s1, rules, "simultaneous", "turn", NULL);
	lgt_refused(s1, rules, "Russia", "[{'type': 'treaty', 'nation': 'France', 'treaty': 'alliance'}]", "treaty",
		    "an enforced peace, not an alliance");
	lgt_refused(s1, rules, "Austria", "[{'type': 'treaty', 'nation': 'France', 'treaty': 'peace'}]", "treaty",
		    "no treaty");
	s2 = step0(s1, "{'Russia': [{'type': 'treaty', 'nation': 'France', 'treaty': 'peace'}]}", &ev);
	assert_non_null(strstr(lgt_text(ev, "treaty"), "France and Russia conclude an enforced peace"));
	json_decref(ev);
	assert_true(raised_now(s2, "Russia: peace with France until 1805"));
	s3 = step0(s2, "{'France': []}", NULL);
	lgt_refused(s3, rules, "Russia", "[{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia', "
		    "'Bohemia', 'Bavaria']}]", "path", "would break a treaty with France");
	s4 = step0(s3, "{'Britain': [{'type': 'buy-vp', 'vp': 8}]}", NULL);
	e = embargo(s4, &s5);
	assert_true(raised(e));
	assert_int_equal(est_rules_int(e, "limit", 0), 10);
	assert_int_equal(est_rules_int(e, "britain_vp", 0), 5);
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Prussia: alliance with France until 1805"));
	assert_non_null(strstr(est_rules_str(e, "conditions"), "Spain: alliance with France"));
	json_decref(e);
	assert_false(raised_now(s5, "Russia: its peace has expired, and Russia has not kept it in this winter"));
	assert_false(raised_now(s5, "Prussia: its alliance has expired, and an inactive non-player nation remains"));
	rules_valid(LG, s5, rules, "France", "[{'type': 'treaty', 'nation': 'Russia', 'treaty': 'peace'}]");
	lgt_refused(s5, rules, "France", "[{'type': 'embargo', 'keep': ['Russia']}]", "type", "Winter turn");
	s6 = step0(s5, "{'France': []}", NULL);
	lgt_refused(s6, rules, "Russia", "[{'type': 'embargo', 'keep': ['Russia']}]", "type", "Winter turn");
	/* The peace over, only the stacking rule (Mack's army is in Bavaria) stops that march. */
	lgt_refused(s6, rules, "Russia", "[{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia', "
		    "'Bohemia', 'Bavaria']}]", "path", "armies do not stack");
	s7 = step0(s6, "{'Britain': [{'type': 'move', 'army': 'expedition', 'path': ['Hanover']}]}", NULL);
	assert_false(raised_now(s7, "Hanover: not controlled by France (held by Britain)"));
	json_decref(s7);
	json_decref(s6);
	json_decref(s5);
	json_decref(s4);
	json_decref(s3);
	json_decref(s2);
	json_decref(s1);
	json_decref(s0);
}

/* Resolve a Coalition turn of Russia's file alone; every move event must say its march went as written. */
static json_t *russia_as_written(const json_t *s, const char *file, json_t **events_out)
{
	char orders[512];
	json_t *n, *e;
	size_t i;

	snprintf(orders, sizeof(orders), "{'Russia': %s}", file);
	n = step0(s, orders, events_out);

	json_array_foreach(*events_out, i, e)
		if (strcmp(est_rules_str(e, "type"), "move") == 0 && strstr(est_rules_str(e, "text"), "stops"))
			fail_msg("the file check accepted was not carried out as written: %s",
				 est_rules_str(e, "text"));
	return n;
}

/*
 * 4.241's "enforced peace", made in play (RULINGS.md L27): a file check
 * accepts is carried out as written. France has offered Russia an enforced
 * peace; Russia's army "ru" stands in Lower Austria, two provinces from
 * Bavaria (France's side, no garrison). A treaty takes effect when the turn
 * is read, before any army moves, so the march into Bavaria is refused with
 * the acceptance in the same file, written after the move or before it,
 * naming the rule. Accepted: the march alone, which takes Bavaria; the
 * acceptance with a march that ends in Upper Austria, which is carried out
 * so, the peace concluded.
 */
static void test_4241_treaty_in_the_file_checked_as_carried_out(void **unused)
{
	json_t *s = lgt_setup(rules), *c, *n, *ev;

	(void)unused;
	lgt_clear_armies(s);
	lgt_put_army(s, "{'id': 'ru', 'nation': 'Russia', 'commander': 'kutuzov', 'location': 'Lower Austria', "
		     "'movement': 3, 'artillery': 1, 'corps': [{'name': 'Bagration', 'divisions': 3}]}");
	c = step0(s, "{'France': [{'type': 'treaty', 'nation': 'Russia', 'treaty': 'peace'}]}", NULL);
	lgt_refused(c, rules, "Russia", "[{'type': 'move', 'army': 'ru', 'path': ['Upper Austria', 'Bavaria']}, "
		    "{'type': 'treaty', 'nation': 'France', 'treaty': 'peace'}]", "path",
		    "the treaty with France that this file concludes");
	lgt_refused(c, rules, "Russia", "[{'type': 'treaty', 'nation': 'France', 'treaty': 'peace'}, "
		    "{'type': 'move', 'army': 'ru', 'path': ['Upper Austria', 'Bavaria']}]", "path",
		    "a treaty takes effect as soon as the turn is read, before any army moves");

	n = russia_as_written(c, "[{'type': 'move', 'army': 'ru', 'path': ['Upper Austria', 'Bavaria']}]", &ev);
	assert_string_equal(lgt_location(n, "ru"), "Bavaria");
	assert_string_equal(lg_controller(n, "Bavaria"), "Russia");
	assert_null(lgt_event(ev, "treaty"));
	json_decref(ev);
	json_decref(n);

	rules_valid(LG, c, rules, "Russia", "[{'type': 'move', 'army': 'ru', 'path': ['Upper Austria']}, "
		    "{'type': 'treaty', 'nation': 'France', 'treaty': 'peace'}]");
	n = russia_as_written(c, "[{'type': 'move', 'army': 'ru', 'path': ['Upper Austria']}, "
			      "{'type': 'treaty', 'nation': 'France', 'treaty': 'peace'}]", &ev);
	assert_string_equal(lgt_location(n, "ru"), "Upper Austria");
	assert_true(lg_treaty_live(n, "Russia"));
	assert_non_null(strstr(lgt_text(ev, "treaty"), "France and Russia conclude an enforced peace"));
	json_decref(ev);
	json_decref(n);
	json_decref(c);
	json_decref(s);
}

/* A board for movement orders: France's "fr" (3 MP) in Bavaria, Austria's "au" in Upper Austria. */
static json_t *move_board(void)
{
	json_t *s = lgt_setup(rules);

	lgt_clear_armies(s);
	lgt_put_army(s, "{'id': 'fr', 'nation': 'France', 'commander': 'ney', 'location': 'Bavaria', "
		     "'movement': 3, 'artillery': 1, 'corps': [{'name': 'I Corps', 'divisions': 3}]}");
	lgt_put_army(s, "{'id': 'au', 'nation': 'Austria', 'commander': 'mack', 'location': 'Upper Austria', "
		     "'movement': 3, 'artillery': 1, 'corps': [{'name': 'Werneck', 'divisions': 3}]}");
	return s;
}

/*
 * Movement (placeholder rules, README "Orders"; 5.513 for enemy armies):
 * a path lists each province entered, adjacent to the one before; it costs
 * 1 Movement Point per clear province and 2 per mountain; neutral provinces
 * may not be entered; entering an enemy army's province ends the move; a
 * power orders only its own armies, each once.
 */
static void test_validate_movement_refusals(void **unused)
{
	json_t *s = move_board();

	(void)unused;
	lgt_control(s, "Tyrol", "France", 0, 1);
	lgt_control(s, "Carinthia", "France", 0, 1);
	/* three clear provinces: 3 MP, allowed; and into the enemy army's province, ending there */
	rules_valid(LG, s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Wurttemberg', 'Baden', 'Alsace']}]");
	rules_valid(LG, s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Upper Austria']}]");
	rules_valid(LG, s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Wurttemberg', 'Tyrol']}]");
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Lower Austria']}]", "path",
		    "Lower Austria is not adjacent to Bavaria");
	/* two mountains: 2 + 2 = 4 MP, one more than the army has */
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Tyrol', 'Carinthia']}]", "path",
		    "costs 4 Movement Points");
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Wurttemberg', 'Baden', 'Alsace', "
		    "'Lorraine']}]", "path", "costs 4 Movement Points");
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Saxony']}]", "path",
		    "Saxony is neutral");
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Upper Austria', 'Lower Austria']}]",
		    "path", "an enemy army holds Upper Austria");
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'au', 'path': ['Styria']}]", "army",
		    "is Austria's, not France's");
	lgt_refused(s, rules, "France", "[{'type': 'move', 'army': 'fr', 'path': ['Wurttemberg']}, "
		    "{'type': 'move', 'army': 'fr', 'path': ['Saxony']}]", "army", "already has an order");
	/* and the Coalition is not awaited in France's turn */
	lgt_refused(s, rules, "Austria", "[{'type': 'move', 'army': 'au', 'path': ['Styria']}]", "orders",
		    "not awaited");
	json_decref(s);
}

/*
 * Turn order (README "Steps"): France moves alone (sequential); then the
 * Coalition's powers give their orders together (simultaneous) and they
 * are carried out power by power in the scenario's order: Austria's army
 * of Italy enters the mountains of Carinthia (2 MP), Russia's army of
 * Podolia marches into Moravia. Autumn ends; Winter 1805 begins with
 * France.
 */
static void test_coalition_simultaneous_turn(void **unused)
{
	json_t *s = lgt_setup(rules), *c, *n, *ev, *p = NULL, *want;

	(void)unused;
	lgt_assert_pending(s, rules, "sequential", "turn", "France");
	c = step0(s, "{'France': []}", NULL);
	assert_int_equal(LG->pending(&p, c, rules), 0);
	assert_string_equal(est_rules_str(p, "mode"), "simultaneous");
	want = J("['Austria', 'Russia', 'Britain']");
	assert_true(json_equal(json_object_get(p, "powers"), want));
	json_decref(want);
	json_decref(p);
	rules_valid(LG, c, rules, "Austria", "[{'type': 'move', 'army': 'army-of-italy', 'path': ['Carinthia']}]");
	rules_valid(LG, c, rules, "Russia", "[{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia']}]");
	lgt_refused(c, rules, "France", "[]", "orders", "not awaited");
	n = step0(c, "{'Austria': [{'type': 'move', 'army': 'army-of-italy', 'path': ['Carinthia']}], "
		  "'Russia': [{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia']}], 'Britain': []}", &ev);
	assert_string_equal(lgt_location(n, "army-of-italy"), "Carinthia");
	assert_string_equal(lgt_location(n, "army-of-podolia"), "Moravia");
	assert_string_equal(est_rules_str(rules_event_nth(ev, "move", 0), "army"), "army-of-italy");
	assert_string_equal(est_rules_str(rules_event_nth(ev, "move", 1), "army"), "army-of-podolia");
	assert_string_equal(est_rules_str(n, "season"), "Winter");
	assert_int_equal(est_rules_int(n, "year", 0), 1805);
	lgt_assert_pending(n, rules, "sequential", "turn", "France");
	json_decref(ev);
	json_decref(n);
	json_decref(c);
	json_decref(s);
}

/*
 * RULINGS.md L7, armies do not stack: two moves of one file may not end in
 * one province, nor may a path enter a province twice. Orders are checked
 * against the start of the turn, so two powers may both aim at Lower
 * Austria: Austria's orders are carried out first (the scenario's order),
 * its army of Tyrol marches through Upper Austria to Lower Austria; Russia's
 * army of Podolia then stops short in Moravia, with a line saying why.
 */
static void test_no_stacking(void **unused)
{
	json_t *s = lgt_setup(rules), *c, *n, *ev;

	(void)unused;
	c = step0(s, "{'France': []}", NULL);
	lgt_refused(c, rules, "Russia", "[{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia']}, "
		    "{'type': 'move', 'army': 'army-of-volhynia', 'path': ['Galicia', 'Moravia']}]", "path",
		    "already ends in Moravia");
	lgt_refused(c, rules, "Russia", "[{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia', "
		    "'Galicia']}]", "path", "a second time");
	rules_valid(LG, c, rules, "Austria", "[{'type': 'move', 'army': 'army-of-tyrol', 'path': ['Upper Austria', "
		  "'Lower Austria']}]");
	rules_valid(LG, c, rules, "Russia", "[{'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia', "
		  "'Lower Austria']}]");
	n = step0(c, "{'Austria': [{'type': 'move', 'army': 'army-of-tyrol', 'path': ['Upper Austria', "
		  "'Lower Austria']}], 'Russia': [{'type': 'move', 'army': 'army-of-podolia', 'path': "
		  "['Moravia', 'Lower Austria']}], 'Britain': []}", &ev);
	assert_string_equal(lgt_location(n, "army-of-tyrol"), "Lower Austria");
	assert_string_equal(lgt_location(n, "army-of-podolia"), "Moravia");
	assert_non_null(strstr(lgt_text(ev, "move"), "marches from Tyrol through Upper Austria to Lower Austria"));
	assert_non_null(strstr(est_rules_str(rules_event_nth(ev, "move", 1), "text"), "stops short"));
	json_decref(ev);
	json_decref(n);
	json_decref(c);
	json_decref(s);
}

/*
 * Seasons (README "Steps"): Autumn 1805, France then the Coalition; Winter
 * 1805 the same, Britain buying VPs in its winter turn (4.241), then the
 * automatic winter step scores the embargo and Spring 1806 begins.
 */
static void test_seasons_and_the_winter_step(void **unused)
{
	json_t *s = lgt_setup(rules), *a, *b, *c, *d, *e, *ev;

	(void)unused;
	assert_string_equal(est_rules_str(s, "season"), "Autumn");
	lgt_refused(s, rules, "France", "[{'type': 'buy-vp', 'vp': 3}]", "type", "only Britain buys VPs");
	a = step0(s, "{'France': []}", NULL);
	lgt_refused(a, rules, "Britain", "[{'type': 'buy-vp', 'vp': 3}]", "type", "winter turn");
	b = step0(a, "{'Austria': [], 'Russia': [], 'Britain': []}", &ev);
	assert_non_null(strstr(lgt_text(ev, "season"), "Winter 1805 begins"));
	json_decref(ev);
	c = step0(b, "{'France': []}", NULL);
	rules_valid(LG, c, rules, "Britain", "[{'type': 'buy-vp', 'vp': 3}]");
	lgt_refused(c, rules, "Britain", "[{'type': 'buy-vp', 'vp': 11}]", "vp", "from 0 to 10");
	d = step0(c, "{'Austria': [], 'Russia': [], 'Britain': [{'type': 'buy-vp', 'vp': 3}]}", NULL);
	assert_string_equal(est_rules_str(d, "phase"), "winter");
	lgt_assert_pending(d, rules, "automatic", "winter", NULL);
	e = step0(d, "{}", &ev);
	assert_non_null(lgt_event(ev, "embargo"));
	assert_non_null(strstr(lgt_text(ev, "season"), "Spring 1806 begins"));
	assert_string_equal(est_rules_str(e, "season"), "Spring");
	assert_int_equal(est_rules_int(e, "year", 0), 1806);
	assert_string_equal(est_rules_str(e, "phase"), "turn");
	/* France has given no orders for Spring 1806 yet: its turn must not have ended */
	assert_int_equal(rules_event_count(ev, "turn"), 0);
	assert_string_equal(est_rules_str(e, "side"), "France");
	assert_int_equal(lgt_vp(e, "France"), 3);
	assert_int_equal(lgt_vp(e, "Coalition"), 3);
	lgt_assert_pending(e, rules, "sequential", "turn", "France");
	json_decref(ev);
	json_decref(e);
	json_decref(d);
	json_decref(c);
	json_decref(b);
	json_decref(a);
	json_decref(s);
}

/*
 * The end (scenario.json "end": Summer 1806; "victory": the side with more
 * VPs wins): Spring 1806 is played on into Summer; when the Coalition's
 * Summer 1806 turn ends the game is over, won by the Coalition (5 VPs to
 * 3); nothing more is resolved.
 */
static void test_game_over_with_the_winner(void **unused)
{
	json_t *s = lgt_setup(rules), *n, *m, *ev;

	(void)unused;
	json_object_set_new(s, "year", json_integer(1806));
	json_object_set_new(s, "season", json_string("Spring"));
	json_object_set_new(s, "side", json_string("Coalition"));
	json_object_set_new(s, "vp", J("{'France': 3, 'Coalition': 5}"));
	n = step0(s, "{}", NULL);
	assert_string_equal(est_rules_str(n, "season"), "Summer");
	assert_string_equal(est_rules_str(n, "phase"), "turn");
	json_object_set_new(n, "side", json_string("Coalition"));
	m = step0(n, "{}", &ev);
	assert_string_equal(est_rules_str(m, "phase"), "over");
	assert_string_equal(est_rules_str(m, "winner"), "Coalition");
	assert_non_null(strstr(lgt_text(ev, "over"), "the Coalition wins"));
	lgt_assert_pending(m, rules, "over", "over", NULL);
	assert_int_equal(lgt_step_fails(m, rules, "{}"), EST_ERROR);
	json_decref(ev);
	json_decref(m);
	/* France ahead: France wins; level: a draw */
	json_object_set_new(n, "vp", J("{'France': 4, 'Coalition': 2}"));
	m = step0(n, "{}", NULL);
	assert_string_equal(est_rules_str(m, "winner"), "France");
	json_decref(m);
	json_object_set_new(n, "vp", J("{'France': 2, 'Coalition': 2}"));
	m = step0(n, "{}", NULL);
	assert_string_equal(est_rules_str(m, "winner"), "draw");
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_4241_not_raised_at_start),
		cmocka_unit_test(test_4241_raised_by_treaty_britain_capped),
		cmocka_unit_test(test_4241_income_counts_ports_of_embargo_nations),
		cmocka_unit_test(test_4241_raised_by_occupied_ports),
		cmocka_unit_test(test_4241_inactive_counts_only_after_a_treaty),
		cmocka_unit_test(test_4241_expired_treaty_at_its_holders_discretion),
		cmocka_unit_test(test_4241_every_clause_by_orders),
		cmocka_unit_test(test_4241_treaty_in_the_file_checked_as_carried_out),
		cmocka_unit_test(test_validate_movement_refusals),
		cmocka_unit_test(test_coalition_simultaneous_turn),
		cmocka_unit_test(test_no_stacking),
		cmocka_unit_test(test_seasons_and_the_winter_step),
		cmocka_unit_test(test_game_over_with_the_winner),
	};

	return cmocka_run_group_tests(tests, lgt_group_setup, lgt_group_teardown);
}
