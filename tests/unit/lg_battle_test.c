/*
 * La Guerre de l'Empereur, the 2002 update's battle rules with fixed dice:
 * 5.513 (entering a province held by an enemy army), 5.612 (the strategic
 * battle sequence), 5.616 (the battle options), 5.629 pursuit and 5.6291
 * (seeds/la-guerre-de-l-empereur-2002-update.txt; the placeholder tables
 * of internal/rulesets/la-guerre/data/tables.json).
 *
 * The board: France's army "fr" (Ney, tactical 2; I Corps 3, II Corps 2;
 * 2 artillery) in Bavaria, a French-side province, marches into Upper
 * Austria, held by Austria (garrison 1) and by Austria's army "au" (Mack,
 * tactical 0; Werneck 3, Riesch 2, Kienmayer 2; 1 artillery). Austria has
 * more corps (3 to 2), so it adds the corps superiority DRM (+1) to its
 * attack roll. Bavaria is France's only open retreat from Upper Austria;
 * Austria's are Bohemia, Lower Austria, Styria and Tyrol.
 */
#include "lg_helpers.h"
#include "util/util.h"


#define MOVE "{'France': [{'type': 'move', 'army': 'fr', 'path': ['Upper Austria']}]}"
#define OPTION(power, option) "{'" power "': [{'type': 'option', 'option': '" option "'}]}"

static json_t *board(void)
{
	json_t *s = lgt_setup(rules);

	lgt_clear_armies(s);
	lgt_put_army(s, "{'id': 'fr', 'nation': 'France', 'commander': 'ney', 'location': 'Bavaria', "
		     "'movement': 3, 'artillery': 2, 'corps': [{'name': 'I Corps', 'divisions': 3}, "
		     "{'name': 'II Corps', 'divisions': 2}]}");
	lgt_put_army(s, "{'id': 'au', 'nation': 'Austria', 'commander': 'mack', 'location': 'Upper Austria', "
		     "'movement': 3, 'artillery': 1, 'corps': [{'name': 'Werneck', 'divisions': 3}, "
		     "{'name': 'Riesch', 'divisions': 2}, {'name': 'Kienmayer', 'divisions': 2}]}");
	return s;
}

/*
 * The battle at 5.612 step 4: France 1 + 2 = 3, Austria 5 + 0 = 5, so
 * Austria, the non-moving player, has the initiative; approach rolls 3
 * (Austria) and 4 (France) give no DRM.
 */
static json_t *at_step4(json_t *s)
{
	static const int faces[] = {1, 5, 3, 4};
	json_t *n = lgt_step(s, rules, MOVE, faces, 4, NULL, NULL);

	json_decref(s);
	return n;
}

/* Step 5: Austria took the Auxiliary Option at step 4 and rolled 1, Redeployment, which has no effect. */
static json_t *at_step5(json_t *s)
{
	static const int faces[] = {1};
	json_t *s4 = at_step4(s), *n = lgt_step(s4, rules, OPTION("Austria", "auxiliary"), faces, 1, NULL, NULL);

	json_decref(s4);
	return n;
}

/* Step 6: and France took the Auxiliary Option at step 5 and rolled 2, Rally, no effect either. */
static json_t *at_step6(json_t *s)
{
	static const int faces[] = {2};
	json_t *s5 = at_step5(s), *n = lgt_step(s5, rules, OPTION("France", "auxiliary"), faces, 1, NULL, NULL);

	json_decref(s5);
	return n;
}

static const json_t *battle_of(const json_t *s)
{
	const json_t *b = json_object_get(s, "battle");

	assert_non_null(b);
	return b;
}

/*
 * 5.513: "If the moving player rolls a modified result higher than his
 * opponent's, proceed immediately to resolve the attack." France 4 + 2 = 6
 * beats Austria 3 + 0 = 3: no decision is asked. Then 5.612 steps 1-2
 * (Austria rolls 3, France 4: no DRM), step 7: France 6 + 2 = 8, Austria
 * 2 + 1 corps = 3; Austria loses 5, capped at 4, one at a time from its
 * largest corps (Werneck, Werneck, Riesch, Kienmayer); France loses none
 * (margin > 1) and scores 1 VP + 1 for 3 or more divisions (5.628). Step 9:
 * Styria is Austria's one open province, so the retreat is automatic; the
 * garrison goes along; pursuit 5.629: France 3 + 2 = 5, one division.
 */
static void test_5513_mover_higher_attacks_at_once(void **unused)
{
	static const int faces[] = {4, 3, 3, 4, 6, 2, 3};
	json_t *s = board(), *n, *ev, *log;
	const json_t *att;

	(void)unused;
	lgt_control(s, "Bohemia", "Bavaria", 0, 0);
	lgt_control(s, "Lower Austria", "Bavaria", 0, 0);
	lgt_control(s, "Tyrol", "Bavaria", 0, 0);
	n = lgt_step(s, rules, MOVE, faces, 7, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.513: France initiative");
	assert_string_equal(lgt_purpose(log, 1), "Upper Austria 5.513: Austria initiative");
	assert_string_equal(lgt_purpose(log, 2), "Upper Austria 5.612 step 1: Austria approach to battlefield");
	assert_string_equal(lgt_purpose(log, 3), "Upper Austria 5.612 step 2: France approach to battlefield");
	assert_string_equal(lgt_purpose(log, 4), "Upper Austria 5.612 step 7: France attack roll");
	assert_string_equal(lgt_purpose(log, 5), "Upper Austria 5.612 step 7: Austria attack roll");
	assert_string_equal(lgt_purpose(log, 6), "Upper Austria 5.629: France pursuit");
	assert_int_equal(lgt_event_int(ev, "initiative", "mover_total"), 6);
	assert_int_equal(lgt_event_int(ev, "initiative", "defender_total"), 3);
	assert_int_equal(rules_event_count(ev, "option"), 0);
	att = json_object_get(lgt_event(ev, "attack"), "attack");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "attacker"), "total")), 8);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "defender"), "corps")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "defender"), "total")), 3);
	assert_string_equal(json_string_value(json_object_get(lgt_event(ev, "attack"), "winner")), "France");
	assert_int_equal(lgt_vp(n, "France"), 2);
	assert_int_equal(lgt_vp(n, "Coalition"), 0);
	/* the winner lost nothing */
	assert_int_equal(lg_divisions(lg_army(n, "fr")), 5);
	assert_string_equal(lgt_location(n, "fr"), "Upper Austria");
	/* 4 lost in the attack (Werneck 2, Riesch 1, Kienmayer 1), the garrison joined, 1 to pursuit (Werneck) */
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 1);
	assert_int_equal(lgt_corps(n, "au", "Werneck"), 0);
	assert_int_equal(lgt_corps(n, "au", "Riesch"), 1);
	assert_int_equal(lgt_corps(n, "au", "Kienmayer"), 1);
	assert_int_equal(lgt_corps(n, "au", "Garrison of Upper Austria"), 1);
	assert_string_equal(lgt_location(n, "au"), "Styria");
	assert_string_equal(lg_controller(n, "Upper Austria"), "France");
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "ghost", -1), 1);
	assert_null(json_object_get(n, "battle"));
	/* the battle over, France's turn goes on and ends: the Coalition moves */
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.513: "If the non-moving player's modified result is higher, he has the
 * 'initiative' and may choose to fight a battle or to retreat": France
 * 1 + 2 = 3, Austria 5 + 0 = 5. After steps 1-3 the battle waits for
 * Austria at step 4; France is not awaited.
 */
static void test_5513_defender_higher_has_initiative(void **unused)
{
	static const int faces[] = {1, 5, 3, 4};
	json_t *s = board(), *n, *ev, *log, *d = NULL, *o = J("[{'type': 'option', 'option': 'attack'}]");

	(void)unused;
	n = lgt_step(s, rules, MOVE, faces, 4, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.513: France initiative");
	assert_string_equal(lgt_purpose(log, 1), "Upper Austria 5.513: Austria initiative");
	assert_string_equal(lgt_purpose(log, 2), "Upper Austria 5.612 step 1: Austria approach to battlefield");
	assert_string_equal(lgt_purpose(log, 3), "Upper Austria 5.612 step 2: France approach to battlefield");
	assert_int_equal(lgt_event_int(ev, "corps", "attacker_corps"), 2);
	assert_int_equal(lgt_event_int(ev, "corps", "defender_corps"), 3);
	assert_string_equal(est_rules_str(battle_of(n), "initiative"), "defender");
	assert_int_equal(est_rules_int(battle_of(n), "step", 0), 4);
	lgt_assert_pending(n, rules, "sequential", "battle-step-4", "Austria");
	assert_int_equal(LG->validate(&d, n, rules, "France", o), EST_EINVAL);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "field")), "orders");
	json_decref(d);
	json_decref(o);
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.513: "(If the modified die rolls are equal, roll again.)" France
 * 2 + 2 = 4, Austria 4 + 0 = 4: both roll again, mover first; then 1 + 2 = 3
 * against 6: Austria has the initiative.
 */
static void test_5513_equal_results_roll_again(void **unused)
{
	static const int faces[] = {2, 4, 1, 6, 3, 4};
	json_t *s = board(), *n, *ev, *log;

	(void)unused;
	n = lgt_step(s, rules, MOVE, faces, 6, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.513: France initiative");
	assert_string_equal(lgt_purpose(log, 1), "Upper Austria 5.513: Austria initiative");
	assert_string_equal(lgt_purpose(log, 2), "Upper Austria 5.513: France initiative");
	assert_string_equal(lgt_purpose(log, 3), "Upper Austria 5.513: Austria initiative");
	assert_string_equal(lgt_purpose(log, 4), "Upper Austria 5.612 step 1: Austria approach to battlefield");
	assert_int_equal(rules_event_count(ev, "initiative"), 2);
	assert_int_equal(est_rules_int(rules_event_nth(ev, "initiative", 0), "mover_total", 0), 4);
	assert_int_equal(est_rules_int(rules_event_nth(ev, "initiative", 0), "defender_total", 0), 4);
	assert_non_null(strstr(lgt_text(ev, "initiative"), "equal, both roll again"));
	assert_int_equal(est_rules_int(rules_event_nth(ev, "initiative", 1), "defender_total", 0), 6);
	lgt_assert_pending(n, rules, "sequential", "battle-step-4", "Austria");
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 4 "Attack (go directly to step 7)": France 2 + 2 = 4 against
 * Austria 5 + 1 corps = 6; France loses 2 (I Corps twice), Austria none
 * (margin 2) and scores 1 VP (5.628). Bavaria is France's only open
 * province: the retreat is automatic, then pursuit: Austria 6 + 0 = 6, one
 * division (II Corps, now the largest).
 */
static void test_5612_step4_attack(void **unused)
{
	static const int faces[] = {2, 5, 6};
	json_t *s = at_step4(board()), *n, *ev, *log;

	(void)unused;
	n = lgt_step(s, rules, OPTION("Austria", "attack"), faces, 3, &ev, &log);
	assert_int_equal(est_rules_int(lgt_event(ev, "option"), "battle_step", 0), 4);
	assert_string_equal(est_rules_str(lgt_event(ev, "option"), "power"), "Austria");
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.612 step 7: France attack roll");
	assert_string_equal(lgt_purpose(log, 1), "Upper Austria 5.612 step 7: Austria attack roll");
	assert_string_equal(lgt_purpose(log, 2), "Upper Austria 5.629: Austria pursuit");
	assert_string_equal(json_string_value(json_object_get(lgt_event(ev, "attack"), "winner")), "Austria");
	assert_int_equal(lgt_vp(n, "Coalition"), 1);
	assert_int_equal(lgt_vp(n, "France"), 0);
	assert_int_equal(lg_divisions(lg_army(n, "au")), 7);
	assert_int_equal(lgt_corps(n, "fr", "I Corps"), 1);
	assert_int_equal(lgt_corps(n, "fr", "II Corps"), 1);
	assert_string_equal(lgt_location(n, "fr"), "Bavaria");
	assert_string_equal(lg_controller(n, "Upper Austria"), "Austria");
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "garrison", 0), 1);
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.513 NOTE: "If the Initiative Player chooses to retreat at this time,
 * the Garrison remains behind, and the moving player must besiege it at
 * least once (there is no additional Movement Point cost ...). The defender
 * does not suffer pursuit losses." Austria retreats at step 4 to Styria
 * with all 7 divisions; no VP; France's free siege of the 1-division
 * garrison rolls 4 (- 0): it falls and France places a ghost garrison.
 */
static void test_5513_note_step4_retreat_leaves_garrison_to_free_siege(void **unused)
{
	static const int faces[] = {4};
	json_t *s = at_step4(board()), *n, *ev, *log;

	(void)unused;
	n = lgt_step(s, rules, "{'Austria': [{'type': 'option', 'option': 'retreat', 'to': 'Styria'}]}",
		     faces, 1, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria siege: France");
	assert_string_equal(lgt_location(n, "au"), "Styria");
	assert_int_equal(lg_divisions(lg_army(n, "au")), 7);
	assert_int_equal(rules_event_count(ev, "pursuit"), 0);
	assert_int_equal(rules_event_count(ev, "vp"), 0);
	assert_non_null(strstr(lgt_text(ev, "retreat"), "without pursuit"));
	assert_true(json_is_true(json_object_get(lgt_event(ev, "siege"), "falls")));
	assert_non_null(strstr(lgt_text(ev, "siege"), "no Movement Point cost (5.513 NOTE)"));
	assert_string_equal(lg_controller(n, "Upper Austria"), "France");
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "garrison", -1), 0);
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "ghost", -1), 1);
	assert_int_equal(lgt_vp(n, "France") + lgt_vp(n, "Coalition"), 0);
	assert_string_equal(lgt_location(n, "fr"), "Upper Austria");
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.513 NOTE, the garrison holds: a garrison of 2 divisions makes the siege
 * roll 4 - 1 = 3 (placeholder siege table: falls on 4 or more); the
 * garrison stays Austrian, and France's army stays besieging it.
 */
static void test_5513_note_garrison_holds_free_siege(void **unused)
{
	static const int faces[] = {4};
	json_t *s = board(), *n, *ev;

	(void)unused;
	lgt_control(s, "Upper Austria", "Austria", 2, 0);
	s = at_step4(s);
	n = lgt_step(s, rules, "{'Austria': [{'type': 'option', 'option': 'retreat'}]}", faces, 1, &ev, NULL);
	/* no destination given: the first open province of the map's list */
	assert_string_equal(lgt_location(n, "au"), "Bohemia");
	assert_false(json_is_true(json_object_get(lgt_event(ev, "siege"), "falls")));
	assert_string_equal(lg_controller(n, "Upper Austria"), "Austria");
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "garrison", -1), 2);
	assert_string_equal(lgt_location(n, "fr"), "Upper Austria");
	assert_int_equal(rules_event_count(ev, "pursuit"), 0);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 4 Auxiliary Option (5.616): Austria rolls 3, Cavalry charge:
 * France loses one division (I Corps, its largest); the battle has begun
 * and moves on to step 5, France's (the non-initiative player's) choice.
 */
static void test_5612_step4_auxiliary(void **unused)
{
	static const int faces[] = {3};
	json_t *s = at_step4(board()), *n, *ev, *log;

	(void)unused;
	n = lgt_step(s, rules, OPTION("Austria", "auxiliary"), faces, 1, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.616: Austria auxiliary option");
	assert_string_equal(est_rules_str(lgt_event(ev, "auxiliary"), "result"), "Cavalry charge");
	assert_int_equal(lgt_corps(n, "fr", "I Corps"), 2);
	assert_int_equal(lgt_corps(n, "fr", "II Corps"), 2);
	assert_true(json_is_true(json_object_get(battle_of(n), "begun")));
	lgt_assert_pending(n, rules, "sequential", "battle-step-5", "France");
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 4 Bombard (5.616): "Roll one d10 per artillery unit present:
 * each result of '10' is a hit causing 2 enemy divisions to be eliminated.
 * These must come from different Corps if possible." Austria's one gun
 * rolls 10: France loses I Corps 1 and II Corps 1; step 5 follows.
 */
static void test_5612_step4_bombard(void **unused)
{
	static const int faces[] = {10};
	json_t *s = at_step4(board()), *n, *ev, *log;

	(void)unused;
	n = lgt_step(s, rules, OPTION("Austria", "bombard"), faces, 1, &ev, &log);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(log, 0), "sides")), 10);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.616: Austria bombardment, artillery unit 1");
	assert_int_equal(lgt_event_int(ev, "bombard", "hits"), 1);
	assert_int_equal(lgt_corps(n, "fr", "I Corps"), 2);
	assert_int_equal(lgt_corps(n, "fr", "II Corps"), 1);
	lgt_assert_pending(n, rules, "sequential", "battle-step-5", "France");
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 5 Attack, then step 9 with a choice: France 5 + 2 = 7 against
 * Austria 3 + 1 corps = 4: Austria loses 3 (Werneck, Werneck, Riesch),
 * France scores 2 VPs (5.628). Austria has four open provinces, so it is
 * asked where to go (a "retreat" step); it names Lower Austria, takes its
 * garrison along (5.616) and is pursued: France 1 + 2 = 3, no loss.
 */
static void test_5612_step5_attack_then_retreat_decision(void **unused)
{
	static const int faces[] = {5, 3}, pursuit[] = {1};
	json_t *s = at_step5(board()), *n, *m, *ev, *log, *def = NULL;

	(void)unused;
	lgt_assert_pending(s, rules, "sequential", "battle-step-5", "France");
	n = lgt_step(s, rules, OPTION("France", "attack"), faces, 2, &ev, NULL);
	assert_int_equal(lgt_vp(n, "France"), 2);
	assert_int_equal(lgt_corps(n, "au", "Werneck"), 1);
	assert_int_equal(lgt_corps(n, "au", "Riesch"), 1);
	assert_int_equal(lgt_corps(n, "au", "Kienmayer"), 2);
	assert_int_equal(lg_divisions(lg_army(n, "fr")), 5);
	lgt_assert_pending(n, rules, "sequential", "retreat", "Austria");
	/* NMR: the first open province */
	assert_int_equal(LG->default_orders(&def, n, rules, "Austria"), 0);
	assert_string_equal(est_rules_str(json_array_get(def, 0), "type"), "retreat");
	assert_string_equal(est_rules_str(json_array_get(def, 0), "to"), "Bohemia");
	rules_valid(LG, n, rules, "Austria", "[{'type': 'retreat', 'to': 'Lower Austria'}]");
	lgt_refused(n, rules, "Austria", "[{'type': 'retreat', 'to': 'Bavaria'}]", "to", "not open");
	json_decref(ev);
	m = lgt_step(n, rules, "{'Austria': [{'type': 'retreat', 'to': 'Lower Austria'}]}", pursuit, 1, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.629: France pursuit");
	assert_int_equal(lgt_event_int(ev, "pursuit", "total"), 3);
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 0);
	assert_string_equal(lgt_location(m, "au"), "Lower Austria");
	assert_int_equal(lgt_corps(m, "au", "Garrison of Upper Austria"), 1);
	assert_int_equal(lg_divisions(lg_army(m, "au")), 5);
	assert_string_equal(lg_controller(m, "Upper Austria"), "France");
	lgt_assert_pending(m, rules, "simultaneous", "turn", NULL);
	json_decref(def);
	json_decref(log);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 5 Retreat by the moving player: the battle had begun (an
 * Auxiliary Option at step 4), so Austria's side scores the retreat VP;
 * France goes back to Bavaria "risking casualties from pursuit" (5.616
 * The Retreat Option; RULINGS.md L13: the 5.612 NOTE spares only a retreat
 * before combat): Austria 5 + 0 = 5, one division (I Corps). Austria keeps
 * Upper Austria and its garrison.
 */
static void test_5612_step5_retreat_by_mover(void **unused)
{
	static const int pursuit[] = {5};
	json_t *s = at_step5(board()), *n, *ev, *log;

	(void)unused;
	n = lgt_step(s, rules, OPTION("France", "retreat"), pursuit, 1, &ev, &log);
	assert_string_equal(lgt_location(n, "fr"), "Bavaria");
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.629: Austria pursuit");
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 1);
	assert_int_equal(lgt_corps(n, "fr", "I Corps"), 2);
	assert_int_equal(lg_divisions(lg_army(n, "fr")), 4);
	assert_int_equal(lgt_vp(n, "Coalition"), 1);
	assert_int_equal(lgt_vp(n, "France"), 0);
	json_decref(log);
	assert_string_equal(lg_controller(n, "Upper Austria"), "Austria");
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "garrison", 0), 1);
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 5 Auxiliary (Flank march, +1 to France's attack), then step 6
 * Attack by Austria: France 3 + 2 + 1 DRM = 6, Austria 5 + 1 corps = 6; the
 * tie goes to the defender (placeholder attack table). Margin 0: France
 * loses 1, and Austria, winning by at most 1, loses 1 too; Austria scores
 * 1 VP. Pursuit: Austria 2 + 0 = 2, no loss.
 */
static void test_5612_step5_auxiliary_then_step6_attack(void **unused)
{
	static const int aux[] = {4}, faces[] = {3, 5, 2};
	json_t *s = at_step5(board()), *n, *m, *ev, *log;
	const json_t *att;

	(void)unused;
	n = lgt_step(s, rules, OPTION("France", "auxiliary"), aux, 1, NULL, NULL);
	assert_int_equal(est_rules_int(json_object_get(battle_of(n), "drm"), "attacker", 0), 1);
	lgt_assert_pending(n, rules, "sequential", "battle-step-6", "Austria");
	m = lgt_step(n, rules, OPTION("Austria", "attack"), faces, 3, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.612 step 7: France attack roll");
	assert_string_equal(lgt_purpose(log, 1), "Upper Austria 5.612 step 7: Austria attack roll");
	assert_string_equal(lgt_purpose(log, 2), "Upper Austria 5.629: Austria pursuit");
	att = json_object_get(lgt_event(ev, "attack"), "attack");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "attacker"), "total")), 6);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "defender"), "total")), 6);
	assert_string_equal(json_string_value(json_object_get(lgt_event(ev, "attack"), "winner")), "Austria");
	assert_int_equal(lgt_corps(m, "fr", "I Corps"), 2);
	assert_int_equal(lgt_corps(m, "au", "Werneck"), 2);
	assert_int_equal(lgt_vp(m, "Coalition"), 1);
	assert_string_equal(lgt_location(m, "fr"), "Bavaria");
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 0);
	json_decref(log);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.616 Bombardment: "each result of '10' is a hit causing 2 enemy
 * divisions to be eliminated. These must come from different Corps if
 * possible." France's two guns roll 10 and 10 at step 5: Austria (Werneck
 * 3, Riesch 2, Kienmayer 2) loses Werneck + Riesch for the first hit, then
 * Werneck + Kienmayer (the two largest, first listed on ties) for the
 * second: four divisions, no hit taking two from one corps.
 */
static void test_5616_two_hits_four_divisions_from_different_corps(void **unused)
{
	static const int faces[] = {10, 10};
	json_t *s = at_step5(board()), *n, *ev, *log;
	const json_t *lost;

	(void)unused;
	n = lgt_step(s, rules, OPTION("France", "bombard"), faces, 2, &ev, &log);
	assert_string_equal(lgt_purpose(log, 0), "Upper Austria 5.616: France bombardment, artillery unit 1");
	assert_string_equal(lgt_purpose(log, 1), "Upper Austria 5.616: France bombardment, artillery unit 2");
	assert_int_equal(lgt_event_int(ev, "bombard", "hits"), 2);
	lost = json_object_get(lgt_event(ev, "losses"), "lost");
	assert_int_equal(est_rules_int(lost, "Werneck", 0), 2);
	assert_int_equal(est_rules_int(lost, "Riesch", 0), 1);
	assert_int_equal(est_rules_int(lost, "Kienmayer", 0), 1);
	assert_int_equal(lgt_corps(n, "au", "Werneck"), 1);
	assert_int_equal(lgt_corps(n, "au", "Riesch"), 1);
	assert_int_equal(lgt_corps(n, "au", "Kienmayer"), 1);
	lgt_assert_pending(n, rules, "sequential", "battle-step-6", "Austria");
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.616 The Retreat Option: "If the defender retreats after a battle has
 * begun, he takes any garrison (except Ghost Divisions) with him, and the
 * attacker gains control of the province immediately (after scoring VPs for
 * the victory and placing the new garrison)." Upper Austria holds 2
 * garrison divisions and 1 ghost; Austria retreats at step 6 to Styria
 * with a "Garrison of Upper Austria" of 2; France scores 1 VP and places a
 * ghost garrison; France pursues (5.616; RULINGS.md L13): 1 + 2 = 3, no loss.
 */
static void test_5616_step6_retreat_takes_garrison_not_ghosts(void **unused)
{
	static const int pursuit[] = {1};
	json_t *s = board(), *n, *ev;

	(void)unused;
	lgt_control(s, "Upper Austria", "Austria", 2, 1);
	s = at_step6(s);
	lgt_assert_pending(s, rules, "sequential", "battle-step-6", "Austria");
	n = lgt_step(s, rules, "{'Austria': [{'type': 'option', 'option': 'retreat', 'to': 'Styria'}]}",
		     pursuit, 1, &ev, NULL);
	assert_string_equal(lgt_location(n, "au"), "Styria");
	assert_int_equal(lgt_corps(n, "au", "Garrison of Upper Austria"), 2);
	assert_int_equal(lg_divisions(lg_army(n, "au")), 9);
	assert_string_equal(lg_controller(n, "Upper Austria"), "France");
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "garrison", -1), 0);
	assert_int_equal(est_rules_int(lg_province(n, "Upper Austria"), "ghost", -1), 1);
	assert_int_equal(lgt_vp(n, "France"), 1);
	assert_int_equal(lgt_vp(n, "Coalition"), 0);
	assert_int_equal(rules_event_count(ev, "pursuit"), 1);
	assert_int_equal(rules_event_count(ev, "siege"), 0);
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.612 step 6: "If there was no Attack in Step 5, Initiative Player MUST
 * choose: Attack, Retreat": validate() refuses Auxiliary and Bombard, and
 * resolve() will not carry them out.
 */
static void test_5612_step6_only_attack_or_retreat(void **unused)
{
	json_t *s = at_step6(board());

	(void)unused;
	lgt_refused(s, rules, "Austria", "[{'type': 'option', 'option': 'auxiliary'}]", "option",
		    "not an option at step 6");
	lgt_refused(s, rules, "Austria", "[{'type': 'option', 'option': 'bombard'}]", "option",
		    "not an option at step 6");
	rules_valid(LG, s, rules, "Austria", "[{'type': 'option', 'option': 'attack'}]");
	rules_valid(LG, s, rules, "Austria", "[{'type': 'option', 'option': 'retreat'}]");
	assert_int_equal(lgt_step_fails(s, rules, OPTION("Austria", "auxiliary")), EST_EINVAL);
	assert_int_equal(lgt_step_fails(s, rules, OPTION("Austria", "bombard")), EST_EINVAL);
	json_decref(s);
}

/*
 * 5.616 Bombardment: "Roll one d10 per artillery unit present": an army
 * with no artillery cannot bombard: validate() refuses it, resolve() too,
 * and a standing order to bombard is not carried out: the decision is asked.
 */
static void test_5616_bombard_refused_without_artillery(void **unused)
{
	static const int faces[] = {1, 5, 3, 4};
	json_t *s = board(), *b = board(), *n, *ev;

	(void)unused;
	json_object_set_new(lg_army(s, "au"), "artillery", json_integer(0));
	s = at_step4(s);
	lgt_refused(s, rules, "Austria", "[{'type': 'option', 'option': 'bombard'}]", "option", "no artillery");
	assert_int_equal(lgt_step_fails(s, rules, OPTION("Austria", "bombard")), EST_EINVAL);
	/* the same answer given in advance: not carried out, the decision is asked */
	json_object_set_new(lg_army(b, "au"), "artillery", json_integer(0));
	json_object_set_new(b, "standing", J("{'Austria': [{'at': 'Upper Austria', 'step': 4, 'option': 'bombard'}]}"));
	n = lgt_step(b, rules, MOVE, faces, 4, &ev, NULL);
	assert_non_null(strstr(lgt_text(ev, "standing"), "cannot be carried out now"));
	assert_int_equal(rules_event_count(ev, "bombard"), 0);
	lgt_assert_pending(n, rules, "sequential", "battle-step-4", "Austria");
	json_decref(ev);
	json_decref(n);
	json_decref(b);
	json_decref(s);
}

/*
 * 5.6291 (5.616: "If there is no adjacent Province to which the enemy army
 * can retreat, it may retreat through enemy occupied provinces, losing
 * divisions as in 5.6291"): Bavaria, Wurttemberg and Lombardy are Austria's;
 * France loses the attack at step 5 (4 + 2 = 6 against 6 + 1 corps = 7:
 * each side loses 1), has no friendly province next to Upper Austria and
 * goes through Bavaria and Wurttemberg to Baden, the nearest friendly
 * province with no army, losing one division per enemy province crossed
 * (2); then pursuit: Austria 5 + 0 = 5, one more.
 */
static void test_56291_retreat_through_enemy_provinces(void **unused)
{
	static const int faces[] = {4, 6, 5};
	json_t *s = at_step5(board()), *n, *ev, *log;
	const json_t *way;

	(void)unused;
	lgt_control(s, "Bavaria", "Austria", 0, 0);
	lgt_control(s, "Wurttemberg", "Austria", 0, 0);
	lgt_control(s, "Lombardy", "Austria", 0, 0);
	n = lgt_step(s, rules, OPTION("France", "attack"), faces, 3, &ev, &log);
	assert_string_equal(lgt_purpose(log, 2), "Upper Austria 5.629: Austria pursuit");
	way = json_object_get(rules_event_nth(ev, "retreat", 0), "way");
	assert_int_equal(json_array_size(way), 3);
	assert_string_equal(json_string_value(json_array_get(way, 0)), "Bavaria");
	assert_string_equal(json_string_value(json_array_get(way, 1)), "Wurttemberg");
	assert_string_equal(json_string_value(json_array_get(way, 2)), "Baden");
	assert_string_equal(lgt_location(n, "fr"), "Baden");
	/* 5 - 1 (attack) - 2 (5.6291) - 1 (pursuit) */
	assert_int_equal(lg_divisions(lg_army(n, "fr")), 1);
	assert_non_null(strstr(json_string_value(json_object_get(rules_event_nth(ev, "losses", 2), "text")),
			       "5.6291"));
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 1);
	assert_int_equal(lgt_corps(n, "au", "Werneck"), 2);
	assert_int_equal(lgt_vp(n, "Coalition"), 1);
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * 5.6291 with no way out: every province of either side is Austria's, so
 * France, retreating at step 5, reaches no friendly province even through
 * enemy ones: its army is eliminated.
 */
static void test_56291_no_way_eliminated(void **unused)
{
	json_t *s = at_step5(board()), *n, *ev;
	const char *name;
	json_t *p;

	(void)unused;
	json_object_foreach(json_object_get(s, "provinces"), name, p)
		if (lg_side_of(rules, est_rules_str(p, "controller")))
			lgt_control(s, name, "Austria", 0, 0);
	n = lgt_step(s, rules, OPTION("France", "retreat"), NULL, 0, &ev, NULL);
	assert_null(lg_army(n, "fr"));
	assert_string_equal(est_rules_str(lgt_event(ev, "eliminated"), "army"), "fr");
	assert_non_null(strstr(lgt_text(ev, "eliminated"), "5.6291"));
	assert_null(json_object_get(n, "battle"));
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * Standing orders (README "Orders") answer each decision the
 * moment it comes up, so the whole battle resolves within France's move:
 * 5.513 France 1 + 2 = 3, Austria 5: Austria's initiative; approach 3, 4;
 * step 4 Austria's standing Auxiliary: 2, Rally, no effect; step 5
 * France's standing Bombard: 10 and 3, one hit (Werneck, Riesch); step 6
 * Austria's standing Retreat to Styria: the battle has begun, so France
 * scores 1 VP, takes Upper Austria and Austria takes its garrison along,
 * pursued (5.616; RULINGS.md L13): France 1 + 2 = 3, no loss.
 */
static void test_standing_orders_resolve_the_whole_battle(void **unused)
{
	static const int faces[] = {1, 5, 3, 4, 2, 10, 3, 1};
	json_t *s = board(), *n, *ev, *log;

	(void)unused;
	json_object_set_new(s, "standing", J("{'Austria': [{'at': 'Upper Austria', 'step': 4, 'option': 'auxiliary'}, "
					     "{'at': 'Upper Austria', 'step': 6, 'option': 'retreat', 'to': 'Styria'}]}"));
	n = lgt_step(s, rules, "{'France': [{'type': 'standing', 'at': 'Upper Austria', 'step': 5, "
		     "'option': 'bombard'}, {'type': 'move', 'army': 'fr', 'path': ['Upper Austria']}]}",
		     faces, 8, &ev, &log);
	assert_string_equal(lgt_purpose(log, 4), "Upper Austria 5.616: Austria auxiliary option");
	assert_string_equal(lgt_purpose(log, 5), "Upper Austria 5.616: France bombardment, artillery unit 1");
	assert_string_equal(lgt_purpose(log, 6), "Upper Austria 5.616: France bombardment, artillery unit 2");
	assert_int_equal(rules_event_count(ev, "standing"), 3);
	assert_string_equal(est_rules_str(lgt_event(ev, "auxiliary"), "result"), "Rally");
	assert_int_equal(lgt_corps(n, "au", "Werneck"), 2);
	assert_int_equal(lgt_corps(n, "au", "Riesch"), 1);
	assert_int_equal(lgt_corps(n, "au", "Garrison of Upper Austria"), 1);
	assert_string_equal(lgt_location(n, "au"), "Styria");
	assert_string_equal(lg_controller(n, "Upper Austria"), "France");
	assert_int_equal(lgt_vp(n, "France"), 1);
	assert_string_equal(lgt_purpose(log, 7), "Upper Austria 5.629: France pursuit");
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 0);
	assert_null(json_object_get(n, "battle"));
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	json_decref(log);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

/*
 * NMR (scenario.json "nmr": attack at steps 4, 5 and 6): the default
 * answer to a missed battle decision is Attack; nothing is owed in a turn.
 * Resolving with the default runs the attack (France 2 + 2 = 4 against
 * Austria 5 + 1 = 6, then Austria's pursuit roll 1).
 */
static void test_nmr_default_orders(void **unused)
{
	static const int faces[] = {2, 5, 1};
	json_t *s4 = at_step4(board()), *s6 = at_step6(board()), *t = board(), *d = NULL, *orders, *n, *ev;

	(void)unused;
	assert_int_equal(LG->default_orders(&d, t, rules, "France"), 0);
	assert_int_equal(json_array_size(d), 0);
	json_decref(d);
	assert_int_equal(LG->default_orders(&d, s6, rules, "Austria"), 0);
	assert_string_equal(est_rules_str(json_array_get(d, 0), "option"), "attack");
	json_decref(d);
	assert_int_equal(LG->default_orders(&d, s4, rules, "Austria"), 0);
	assert_int_equal(json_array_size(d), 1);
	assert_string_equal(est_rules_str(json_array_get(d, 0), "type"), "option");
	assert_string_equal(est_rules_str(json_array_get(d, 0), "option"), "attack");
	orders = json_pack("{s:O}", "Austria", d);
	{
		char *text = json_dumps(orders, 0);
		for (char *p = text; *p; p++)
			if (*p == '"')
				*p = '\'';
		n = lgt_step(s4, rules, text, faces, 3, &ev, NULL);
		free(text);
	}
	assert_string_equal(json_string_value(json_object_get(lgt_event(ev, "attack"), "winner")), "Austria");
	assert_string_equal(lgt_location(n, "fr"), "Bavaria");
	json_decref(orders);
	json_decref(d);
	json_decref(ev);
	json_decref(n);
	json_decref(t);
	json_decref(s6);
	json_decref(s4);
}

/*
 * 5.616 The Auxiliary Option: "all other options are handled normally":
 * Austria rolls 6 at step 4, Skirmishers (-1 to France's attack); France
 * rolls 5 at step 5, Grand battery (Austria loses a division, Werneck).
 * Step 6, Austria attacks: France 6 + 2 - 1 = 7, Austria 1 + 1 corps = 2:
 * Austria loses 4 (Werneck, Riesch, Kienmayer, Werneck, which is gone),
 * France scores 2 VPs (5.628); Austria, with four open provinces, is asked
 * where to retreat.
 */
static void test_5616_auxiliary_skirmishers_and_grand_battery(void **unused)
{
	static const int six[] = {6}, five[] = {5}, attack[] = {6, 1};
	json_t *s = at_step4(board()), *a, *b, *c, *ev;

	(void)unused;
	a = lgt_step(s, rules, OPTION("Austria", "auxiliary"), six, 1, &ev, NULL);
	assert_string_equal(est_rules_str(lgt_event(ev, "auxiliary"), "result"), "Skirmishers");
	assert_int_equal(est_rules_int(json_object_get(battle_of(a), "drm"), "attacker", 0), -1);
	json_decref(ev);
	b = lgt_step(a, rules, OPTION("France", "auxiliary"), five, 1, &ev, NULL);
	assert_string_equal(est_rules_str(lgt_event(ev, "auxiliary"), "result"), "Grand battery");
	assert_int_equal(lgt_corps(b, "au", "Werneck"), 2);
	lgt_assert_pending(b, rules, "sequential", "battle-step-6", "Austria");
	json_decref(ev);
	c = lgt_step(b, rules, OPTION("Austria", "attack"), attack, 2, &ev, NULL);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(lgt_event(ev, "attack"),
		"attack"), "attacker"), "total")), 7);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(lgt_event(ev, "attack"),
		"attack"), "defender"), "total")), 2);
	assert_int_equal(lgt_corps(c, "au", "Werneck"), 0);
	assert_int_equal(lgt_corps(c, "au", "Riesch"), 1);
	assert_int_equal(lgt_corps(c, "au", "Kienmayer"), 1);
	assert_int_equal(lgt_vp(c, "France"), 2);
	lgt_assert_pending(c, rules, "sequential", "retreat", "Austria");
	json_decref(ev);
	json_decref(c);
	json_decref(b);
	json_decref(a);
	json_decref(s);
}

/*
 * 5.612: "Victory Points and Pursuit are determined, and the Moving
 * Player's turn continues": France's second order (army "fr2" from
 * Wurttemberg to Baden) waits while the battle awaits Austria, and is
 * carried out once the battle ends.
 */
static void test_5612_moving_players_turn_continues(void **unused)
{
	static const int enter[] = {1, 5, 3, 4}, attack[] = {2, 5, 6};
	json_t *s = board(), *a, *b;

	(void)unused;
	lgt_put_army(s, "{'id': 'fr2', 'nation': 'France', 'commander': 'murat', 'location': 'Wurttemberg', "
		     "'movement': 3, 'artillery': 0, 'corps': [{'name': 'Reserve cavalry', 'divisions': 2}]}");
	a = lgt_step(s, rules, "{'France': [{'type': 'move', 'army': 'fr', 'path': ['Upper Austria']}, "
		     "{'type': 'move', 'army': 'fr2', 'path': ['Baden']}]}", enter, 4, NULL, NULL);
	lgt_assert_pending(a, rules, "sequential", "battle-step-4", "Austria");
	assert_string_equal(lgt_location(a, "fr2"), "Wurttemberg");
	b = lgt_step(a, rules, OPTION("Austria", "attack"), attack, 3, NULL, NULL);
	assert_string_equal(lgt_location(b, "fr2"), "Baden");
	assert_string_equal(lgt_location(b, "fr"), "Bavaria");
	lgt_assert_pending(b, rules, "simultaneous", "turn", NULL);
	json_decref(b);
	json_decref(a);
	json_decref(s);
}

/*
 * Standing orders (README "Orders") and 5.616 The Retreat Option,
 * "retreat his army into an adjacent friendly province": Austria's standing
 * retreat to Bavaria, a province of France's side, cannot be carried out,
 * so the step 4 decision is asked; withdrawn with "option": "none", the
 * standing order is gone.
 */
static void test_standing_retreat_must_be_open(void **unused)
{
	static const int faces[] = {1, 5, 3, 4};
	json_t *s = board(), *n, *ev;

	(void)unused;
	json_object_set_new(s, "standing", J("{'Austria': [{'at': 'Upper Austria', 'step': 4, 'option': 'retreat', "
					     "'to': 'Bavaria'}]}"));
	n = lgt_step(s, rules, MOVE, faces, 4, &ev, NULL);
	assert_non_null(strstr(lgt_text(ev, "standing"), "cannot be carried out now"));
	/* L19: said once, and to Austria only (a sealed game keeps it off the public refs) */
	assert_int_equal(rules_event_count(ev, "standing"), 1);
	{
		json_t *austria = J("['Austria']");
		assert_true(json_equal(json_object_get(lgt_event(ev, "standing"), "visible_to"), austria));
		json_decref(austria);
	}
	assert_string_equal(lgt_location(n, "au"), "Upper Austria");
	lgt_assert_pending(n, rules, "sequential", "battle-step-4", "Austria");
	assert_non_null(lg_standing(n, "Austria", "Upper Austria", 4));
	/* the answer with a withdrawal: attack (France 2 + 2 = 4, Austria 5 + 1 = 6), pursuit 1 */
	json_decref(ev);
	{
		static const int attack[] = {2, 5, 1};
		json_t *m = lgt_step(n, rules, "{'Austria': [{'type': 'standing', 'at': 'Upper Austria', 'step': 4, "
				     "'option': 'none'}, {'type': 'option', 'option': 'attack'}]}", attack, 3, NULL, NULL);
		assert_null(lg_standing(m, "Austria", "Upper Austria", 4));
		json_decref(m);
	}
	json_decref(n);
	json_decref(s);
}

/* The board with other corps: France's "fr" (I Corps 3, II Corps 1), Austria's "au" as given. */
static json_t *board_with(const char *austria_corps)
{
	json_t *s = lgt_setup(rules);
	char *au = est_strdup_printf("{'id': 'au', 'nation': 'Austria', 'commander': 'mack', 'location': "
				     "'Upper Austria', 'movement': 3, 'artillery': 1, 'corps': %s}", austria_corps);

	lgt_clear_armies(s);
	lgt_put_army(s, "{'id': 'fr', 'nation': 'France', 'commander': 'ney', 'location': 'Bavaria', "
		     "'movement': 3, 'artillery': 2, 'corps': [{'name': 'I Corps', 'divisions': 3}, "
		     "{'name': 'II Corps', 'divisions': 1}]}");
	lgt_put_army(s, au);
	free(au);
	return s;
}

/*
 * 5.612 step 3, "Players count how many Corps they have in the battle",
 * is the count attack resolution weighs (RULINGS.md L10), even when a
 * bombardment has taken a corps since. Austria counts 3 corps to France's
 * 2; France's bombardment at step 5 (10, 1: one hit) takes Werneck 1 and
 * Riesch 1, the last of Riesch, so Austria stands at 2 corps when it
 * attacks at step 6; it still adds the corps superiority DRM: France
 * 3 + 2 = 5, Austria 3 + 1 corps = 4.
 */
static void test_5612_step3_corps_count_survives_a_bombardment(void **unused)
{
	static const int bombard[] = {10, 1}, attack[] = {3, 3};
	json_t *s = at_step5(board_with("[{'name': 'Werneck', 'divisions': 3}, {'name': 'Riesch', 'divisions': 1}, "
					"{'name': 'Kienmayer', 'divisions': 1}]"));
	json_t *n, *m, *ev;
	const json_t *att;

	(void)unused;
	n = lgt_step(s, rules, OPTION("France", "bombard"), bombard, 2, NULL, NULL);
	assert_int_equal(lg_corps_count(lg_army(n, "au")), 2);
	lgt_assert_pending(n, rules, "sequential", "battle-step-6", "Austria");
	m = lgt_step(n, rules, OPTION("Austria", "attack"), attack, 2, &ev, NULL);
	att = json_object_get(lgt_event(ev, "attack"), "attack");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "defender"), "corps")), 1);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "defender"), "total")), 4);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "attacker"), "corps")), 0);
	json_decref(ev);
	json_decref(m);
	json_decref(n);
	json_decref(s);
}

/*
 * L12 (placeholder for 5.628): the winner scores 2 VPs "if the loser lost
 * 3 or more divisions". France attacks at once (5.513: 4 + 2 = 6 against
 * 3) and wins by 6 + 2 + 1 corps = 9 to 1: a loss of 8, capped at 4; but
 * Austria's army holds 2 divisions, loses those and is eliminated. The
 * report says 2, and France scores 1 VP, not the heavy-loss bonus. The
 * garrison of Upper Austria is then besieged at no cost (L17): 6, it falls.
 */
static void test_l12_vp_count_divisions_actually_lost(void **unused)
{
	static const int faces[] = {4, 3, 3, 4, 6, 1, 6};
	json_t *s = board_with("[{'name': 'Werneck', 'divisions': 2}]"), *n, *ev;

	(void)unused;
	n = lgt_step(s, rules, MOVE, faces, 7, &ev, NULL);
	assert_null(lg_army(n, "au"));
	assert_int_equal(lgt_event_int(ev, "losses", "divisions"), 2);
	assert_non_null(strstr(lgt_text(ev, "losses"), "Austria loses 2 divisions to the attack: Werneck 2"));
	assert_int_equal(lgt_event_int(ev, "vp", "vp"), 1);
	assert_int_equal(lgt_vp(n, "France"), 1);
	assert_string_equal(lg_controller(n, "Upper Austria"), "France");
	json_decref(ev);
	json_decref(n);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_5513_mover_higher_attacks_at_once),
		cmocka_unit_test(test_5513_defender_higher_has_initiative),
		cmocka_unit_test(test_5513_equal_results_roll_again),
		cmocka_unit_test(test_5612_step4_attack),
		cmocka_unit_test(test_5513_note_step4_retreat_leaves_garrison_to_free_siege),
		cmocka_unit_test(test_5513_note_garrison_holds_free_siege),
		cmocka_unit_test(test_5612_step4_auxiliary),
		cmocka_unit_test(test_5612_step4_bombard),
		cmocka_unit_test(test_5612_step5_attack_then_retreat_decision),
		cmocka_unit_test(test_5612_step5_retreat_by_mover),
		cmocka_unit_test(test_5612_step5_auxiliary_then_step6_attack),
		cmocka_unit_test(test_5616_two_hits_four_divisions_from_different_corps),
		cmocka_unit_test(test_5616_step6_retreat_takes_garrison_not_ghosts),
		cmocka_unit_test(test_5612_step6_only_attack_or_retreat),
		cmocka_unit_test(test_5616_bombard_refused_without_artillery),
		cmocka_unit_test(test_56291_retreat_through_enemy_provinces),
		cmocka_unit_test(test_56291_no_way_eliminated),
		cmocka_unit_test(test_standing_orders_resolve_the_whole_battle),
		cmocka_unit_test(test_nmr_default_orders),
		cmocka_unit_test(test_5616_auxiliary_skirmishers_and_grand_battery),
		cmocka_unit_test(test_5612_moving_players_turn_continues),
		cmocka_unit_test(test_standing_retreat_must_be_open),
		cmocka_unit_test(test_5612_step3_corps_count_survives_a_bombardment),
		cmocka_unit_test(test_l12_vp_count_divisions_actually_lost),
	};

	return cmocka_run_group_tests(tests, lgt_group_setup, lgt_group_teardown);
}
