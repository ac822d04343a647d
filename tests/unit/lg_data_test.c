/*
 * La Guerre de l'Empereur: the rules data a GM types in (docs/la-guerre-data.md).
 * The shipped placeholder data passes the check; a GM's file that breaks the
 * schema is refused with the file, the field's JSON path, what is wrong and
 * the fix; a GM's table that differs from the placeholder is the one a
 * battle plays (5.612 steps 1, 2 and 7, 5.616 The Auxiliary Option, of
 * seeds/la-guerre-de-l-empereur-2002-update.txt).
 */
#include "lg_helpers.h"

static json_t *rules;

/*
 * Set (or, with a NULL `value`, delete) the member at `path` of `root`:
 * "tables/auxiliary/results/2/effect"; a number indexes an array, "+" appends.
 */
static void put(json_t *root, const char *path, json_t *value)
{
	char buf[256], *key, *next;
	json_t *at = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = buf; (next = strchr(key, '/')); key = next + 1) {
		*next = '\0';
		at = json_is_array(at) ? json_array_get(at, strtoul(key, NULL, 10)) : json_object_get(at, key);
		if (!at)
			fail_msg("put: no \"%s\" in %s", key, path);
	}
	if (json_is_array(at) && strcmp(key, "+") == 0)
		assert_int_equal(json_array_append_new(at, value), 0);
	else if (json_is_array(at) && !value)
		assert_int_equal(json_array_remove(at, strtoul(key, NULL, 10)), 0);
	else if (json_is_array(at))
		assert_int_equal(json_array_set_new(at, strtoul(key, NULL, 10), value), 0);
	else if (!value)
		assert_int_equal(json_object_del(at, key), 0);
	else
		assert_int_equal(json_object_set_new(at, key, value), 0);
}

/* Any JSON value, written with ' for ". */
static json_t *V(const char *text)
{
	char buf[1024];
	json_t *array, *v;

	snprintf(buf, sizeof(buf), "[%s]", text);
	array = J(buf);
	v = json_incref(json_array_get(array, 0));
	json_decref(array);
	return v;
}

/* The real rules with one change; the caller frees. */
static json_t *changed(const char *path, const char *value)
{
	json_t *r = json_deep_copy(rules);

	put(r, path, value ? V(value) : NULL);
	return r;
}

/* Set-up (what `new` runs) refuses `r` (freed) with exactly `message`. */
static void refused(json_t *r, const char *message)
{
	json_t *state = NULL, *options = json_object();

	assert_int_equal(LG->setup(&state, r, options), EST_EINVAL);
	assert_null(state);
	assert_string_equal(est_error_message(), message);
	est_error_clear();
	json_decref(options);
	json_decref(r);
}

/* One change to the real rules (`value` as for changed()) and the refusal it must draw. */
struct change {
	const char *path, *value, *message;
};

/* Each change, made alone to the real rules, is refused with its message (refused()). */
static void each_refused(const struct change *c)
{
	for (; c->path; c++)
		refused(changed(c->path, c->value), c->message);
}

/* DESIGN.md: the shipped data is valid under the schema, and says it is placeholder. */
static void test_shipped_data_valid_and_marked_placeholder(void **unused)
{
	static const char *const files[] = {"map", "leaders", "tables", "scenario", NULL};
	static const char *const tables[] = {"approach", "auxiliary", "attack", "victory_points", "pursuit",
					     "retreat_through_enemy", "siege", "movement", NULL};

	(void)unused;
	assert_int_equal(lg_check_rules(rules), 0);
	for (const char *const *f = files; *f; f++)
		assert_string_equal(est_rules_str(json_object_get(rules, *f), "provenance"), "placeholder");
	for (const char *const *t = tables; *t; t++)
		assert_string_equal(est_rules_str(lg_table(rules, *t), "provenance"), "placeholder");
	/* 5.616 gives the bombardment itself. */
	assert_string_equal(est_rules_str(lg_table(rules, "bombard"), "provenance"), "seed");
}

/* The effect vocabulary: an effect the rules do not carry out is refused, naming those they do. */
static void test_unknown_effect_refused(void **unused)
{
	static const struct change changes[] = {
		{"tables/auxiliary/results/2/effect", "'teleport'",
		 "rules/tables.json: field \"auxiliary.results[2].effect\" is \"teleport\", which is no effect the "
		 "rules carry out; write one of none, drm, enemy-drm, eliminate, lose, bombard "
		 "(docs/la-guerre-data.md \"Effects\")"},
		{"tables/auxiliary/results/1/effect", NULL,
		 "rules/tables.json: field \"auxiliary.results[1].effect\" is missing; say what the result does, "
		 "one of the effects of docs/la-guerre-data.md (\"none\" for no effect)"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/* Each effect reads its one parameter, in its range, and a row holds no other. */
static void test_effect_parameters(void **unused)
{
	static const struct change changes[] = {
		{"tables/auxiliary/results/3/divisions", "2",
		 "rules/tables.json: field \"auxiliary.results[3].divisions\" is not read with the effect \"drm\" "
		 "(the roller's attack total at step 7 changes by \"drm\"); remove it, or change the effect to one "
		 "that reads it (eliminate, lose)"},
		{"tables/auxiliary/results/2/divisions", NULL,
		 "rules/tables.json: field \"auxiliary.results[2].divisions\" is missing; it must be the divisions "
		 "lost for the effect \"eliminate\" (the enemy army loses \"divisions\" divisions at once): a whole "
		 "number from 1 to 20; write one"},
		{"tables/auxiliary/results/5/drm", "'-1'",
		 "rules/tables.json: field \"auxiliary.results[5].drm\" is \"-1\"; it must be the change to an "
		 "attack total for the effect \"enemy-drm\" (the enemy's attack total at step 7 changes by "
		 "\"drm\"): a whole number from -9 to 9; write one"},
		{"tables/approach/results/0/dmr", "1",
		 "rules/tables.json: field \"approach.results[0].dmr\" is no field the rules read here, so its "
		 "value would be ignored; remove it, or spell one of: roll, min, max, name, effect, drm, "
		 "divisions, note"},
		{"tables/auxiliary/results/0/name", NULL,
		 "rules/tables.json: field \"auxiliary.results[0]\" has no \"name\"; give the result's name as "
		 "the table prints it (reports show it)"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/* A die table gives a result for every face, its rows in order without gap or overlap. */
static void test_rows_cover_the_die(void **unused)
{
	static const struct change changes[] = {
		{"tables/approach/results/1/roll", "3",
		 "rules/tables.json: field \"approach.results[1]\" starts at 3, but the row before ends at 1: the "
		 "rows leave totals with no result; list them from the lowest total up, each starting one above "
		 "the end of the row before"},
		{"tables/approach/results/2/roll", "2",
		 "rules/tables.json: field \"approach.results[2]\" starts at 2, but the row before ends at 2: the "
		 "rows overlap; list them from the lowest total up, each starting one above the end of the row "
		 "before"},
		{"tables/approach/results/5", NULL,
		 "rules/tables.json: field \"approach.results\" ends at 5, but a d6 rolls up to 6; end the last "
		 "row at 6 or higher"},
		{"tables/approach/results/0", NULL,
		 "rules/tables.json: field \"approach.results\" starts at 2, but the totals start at 1; begin the "
		 "first row at 1 or lower"},
		{"tables/auxiliary/results/0/min", "1",
		 "rules/tables.json: field \"auxiliary.results[0]\" needs either \"roll\" (the one total it "
		 "answers) or \"min\" and \"max\" (a range of totals), not both and not neither; give one of them"},
		{"tables/auxiliary/die", "'six'",
		 "rules/tables.json: field \"auxiliary.die\" is \"six\"; it must be the sides of the die rolled on "
		 "the table: a whole number from 2 to 100; write one"},
		{"tables/approach/add", "'strategic'",
		 "rules/tables.json: field \"approach.add\" must be \"tactical\" (the roller's commander's tactical "
		 "rating is added to the roll) or \"none\"; write one of them"},
		{"tables/pursuit/results/1/divisions", "-1",
		 "rules/tables.json: field \"pursuit.results[1].divisions\" is -1; it must be the divisions the "
		 "retreating army loses (5.629): a whole number from 0 to 20; write one"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/* The other tables: their numbers in range, no field the rules would not read, no table misspelt. */
static void test_plain_tables(void **unused)
{
	static const struct change changes[] = {
		{"tables/aproach", "{}",
		 "rules/tables.json: field \"aproach\" is no field the rules read here, so its value would be "
		 "ignored; remove it, or spell one of: provenance, approach, auxiliary, attack, victory_points, "
		 "pursuit, retreat_through_enemy, bombard, siege, movement, note"},
		{"tables/siege/provenance", NULL,
		 "rules/tables.json: field \"siege\" has no \"provenance\"; say where its values come from "
		 "(\"placeholder\", \"seed\", or the source a GM used)"},
		{"tables/bombard/hit_on", "11",
		 "rules/tables.json: field \"bombard.hit_on\" is 11; it must be the face of the bombardment die "
		 "that hits (5.616: 10): a whole number from 1 to 10; write one"},
		{"tables/attack/tie", "'mover'",
		 "rules/tables.json: field \"attack.tie\" must be \"attacker\" or \"defender\", who wins equal "
		 "totals; write one of them"},
		{"tables/attack/results", "[{'min': 0, 'max': 1, 'loser_loses': 1, 'winner_loses': 1}]",
		 "rules/tables.json: field \"attack.loser_losses_min\" is not read when \"attack.results\" gives "
		 "the losses by margin; remove it, or remove \"results\""},
		{"tables/movement/swamp", "0",
		 "rules/tables.json: field \"movement.swamp\" is 0; it must be the Movement Points to enter a "
		 "province of this terrain: a whole number from 1 to 20; write one"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/* leaders.json: the tactical rating in range, and no rating the rules would not read. */
static void test_leaders(void **unused)
{
	static const struct change changes[] = {
		{"leaders/leaders/0/strategic", "2",
		 "rules/leaders.json: field \"leaders[0].strategic\" is no field the rules read, so its value "
		 "would be ignored (the seed's rules use the tactical rating only); remove it, or spell one of: "
		 "id, name, nation, tactical, list, note"},
		{"leaders/leaders/0/tactical", "'high'",
		 "rules/leaders.json: field \"leaders[0].tactical\" of \"moore\" must be the tactical rating, a "
		 "whole number from -9 to 9 (5.513 and the tables that \"add\" it); write it so"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/* scenario.json: an army's fields each named, with the fix. */
static void test_scenario_armies(void **unused)
{
	static const struct change changes[] = {
		{"scenario/armies/0/commander", "'bonaparte-the-younger'",
		 "rules/scenario.json: field \"armies[0].commander\" is no \"id\" of rules/leaders.json; name a "
		 "leader of leaders.json, or add the leader there"},
		{"scenario/armies/0/location", "'Saxony'",
		 "rules/scenario.json: field \"armies[0].location\" is \"Saxony\", neutral at the start; an army "
		 "starts in a province of a side: move it, or take the province's nation out of \"neutral\""},
		{"scenario/armies/1/movement", "21",
		 "rules/scenario.json: field \"armies[1].movement\" must be the army's Movement Points, 0 to 20; "
		 "write a whole number in that range"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/* 4.241 and RULINGS.md L27: how long a treaty lasts, and the nation that stays in the embargo after one. */
static void test_scenario_treaties(void **unused)
{
	static const struct change changes[] = {
		{"scenario/embargo/treaty_years", "0",
		 "rules/scenario.json: field \"embargo.treaty_years\" is the years a treaty lasts (RULINGS.md L27): "
		 "a whole number from 1 to 100; write one"},
		{"scenario/diplomacy/Prussia/npc", "'asleep'",
		 "rules/scenario.json: field \"diplomacy.Prussia.npc\" can only be \"inactive\" (4.241: a nation "
		 "that stays part of the embargo after its treaty expires); write that or remove the field"},
		{NULL, NULL, NULL}};

	(void)unused;
	each_refused(changes);
}

/*
 * What a GM who owns the game might type: an Approach table indexed by the
 * die and the commander's rating (ranges of totals), an Auxiliary column
 * using every effect, and an attack table of losses by margin.
 */
#define GM_APPROACH \
	"{'provenance': 'the GM\\'s copy', 'die': 6, 'add': 'tactical', 'results': [" \
	"{'min': -9, 'max': 2, 'name': 'Lost on the march', 'effect': 'drm', 'drm': -1}," \
	"{'min': 3, 'max': 5, 'name': 'Orderly approach', 'effect': 'none'}," \
	"{'min': 6, 'max': 7, 'name': 'Seize the high ground', 'effect': 'drm', 'drm': 1}," \
	"{'min': 8, 'max': 20, 'name': 'Ambush', 'effect': 'eliminate', 'divisions': 2}]}"
#define GM_AUXILIARY \
	"{'provenance': 'the GM\\'s copy', 'die': 6, 'results': [" \
	"{'roll': 1, 'name': 'Redeployment', 'effect': 'none'}," \
	"{'roll': 2, 'name': 'Stragglers', 'effect': 'lose', 'divisions': 1}," \
	"{'roll': 3, 'name': 'Grand battery', 'effect': 'bombard'}," \
	"{'roll': 4, 'name': 'Flank march', 'effect': 'drm', 'drm': 2}," \
	"{'roll': 5, 'name': 'Cavalry charge', 'effect': 'eliminate', 'divisions': 1}," \
	"{'roll': 6, 'name': 'Skirmishers', 'effect': 'enemy-drm', 'drm': -1}]}"
#define GM_ATTACK \
	"{'provenance': 'the GM\\'s copy', 'die': 6, 'corps_superiority_drm': 1, 'tie': 'defender', " \
	"'results': [{'min': 0, 'max': 1, 'loser_loses': 1, 'winner_loses': 1}," \
	"{'min': 2, 'max': 4, 'loser_loses': 2, 'winner_loses': 1}," \
	"{'min': 5, 'max': 9, 'loser_loses': 3, 'winner_loses': 1}]}"

static json_t *gm_rules(void)
{
	json_t *r = json_deep_copy(rules);

	put(r, "tables/approach", J(GM_APPROACH));
	put(r, "tables/auxiliary", J(GM_AUXILIARY));
	put(r, "tables/attack", J(GM_ATTACK));
	return r;
}

static void test_gm_tables_accepted(void **unused)
{
	json_t *r = gm_rules();

	(void)unused;
	if (lg_check_rules(r) < 0)
		fail_msg("refused: %s", est_error_message());
	json_decref(r);
}

#define MOVE "{'France': [{'type': 'move', 'army': 'fr', 'path': ['Upper Austria']}]}"

/*
 * France's "fr" (Ney, tactical 2; I Corps 3, II Corps 2; no artillery) in
 * Bavaria marches on Upper Austria, held by Austria (garrison 1) and its
 * "au" (Mack, tactical 0; Werneck 3, Riesch 2, Kienmayer 2; 1 artillery).
 */
static json_t *board(const json_t *r, const char *austrian_corps)
{
	json_t *s = lgt_setup(r);
	char army[512];

	lgt_clear_armies(s);
	lgt_put_army(s, "{'id': 'fr', 'nation': 'France', 'commander': 'ney', 'location': 'Bavaria', "
		     "'movement': 3, 'artillery': 0, 'corps': [{'name': 'I Corps', 'divisions': 3}, "
		     "{'name': 'II Corps', 'divisions': 2}]}");
	snprintf(army, sizeof(army), "{'id': 'au', 'nation': 'Austria', 'commander': 'mack', "
		 "'location': 'Upper Austria', 'movement': 3, 'artillery': 1, 'corps': [%s]}", austrian_corps);
	lgt_put_army(s, army);
	/* Styria is Austria's one open retreat, so step 9 asks nothing. */
	lgt_control(s, "Bohemia", "Bavaria", 0, 0);
	lgt_control(s, "Lower Austria", "Bavaria", 0, 0);
	lgt_control(s, "Tyrol", "Bavaria", 0, 0);
	return s;
}

#define AUSTRIANS "{'name': 'Werneck', 'divisions': 3}, {'name': 'Riesch', 'divisions': 2}, " \
		  "{'name': 'Kienmayer', 'divisions': 2}"

/*
 * 5.612 step 7 with the GM's attack table. 5.513: France 4 + 2 = 6 beats
 * Austria 3 + 0, so the attack comes at once; the approach (GM table, the
 * rating added): Austria 3 + 0 = 3 Orderly approach, France 2 + 2 = 4
 * Orderly approach. Attack: France 6 + 2 = 8, Austria 2 + 1 corps = 3, a
 * margin of 5. The placeholder rule would cost Austria 4 and France none;
 * the GM's row 5..9 costs Austria 3 and France 1. Pursuit (placeholder):
 * France 1 + 2 = 3, none.
 */
static void test_gm_attack_table_decides_losses(void **unused)
{
	static const int faces[] = {4, 3, 3, 2, 6, 2, 1};
	json_t *r = gm_rules(), *s = board(r, AUSTRIANS), *n, *ev;

	(void)unused;
	n = lgt_step(s, r, MOVE, faces, 7, &ev, NULL);
	assert_string_equal(est_rules_str(lgt_event(ev, "approach"), "result"), "Orderly approach");
	assert_int_equal(lgt_event_int(ev, "approach", "total"), 3);
	assert_string_equal(json_string_value(json_object_get(lgt_event(ev, "attack"), "winner")), "France");
	assert_int_equal(lg_divisions(lg_army(n, "fr")), 4);
	/* 7 - 3 in the attack + 1 garrison taken along (5.616), no pursuit loss */
	assert_int_equal(lg_divisions(lg_army(n, "au")), 5);
	assert_int_equal(lgt_event_int(ev, "pursuit", "divisions"), 0);
	/* 5.628 (placeholder): 1 VP, and 1 more for 3 or more divisions lost */
	assert_int_equal(lgt_vp(n, "France"), 2);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
	json_decref(r);
}

/*
 * The GM's Approach table adds the rating: France rolls 4 + Ney's 2 = 6,
 * Seize the high ground (+1 to its attack), where the placeholder row 4
 * gives nothing. Austria has the initiative (France 1 + 2 = 3, Austria 5)
 * and takes the Auxiliary Option: 3 is the GM's Grand battery, a
 * bombardment (the placeholder's 3 is a Cavalry charge): Austria's one gun
 * rolls 10 and France loses 2 divisions, one from each corps (5.616).
 */
static void test_gm_approach_and_auxiliary_results_played(void **unused)
{
	static const int enter[] = {1, 5, 3, 4}, aux[] = {3, 10};
	json_t *r = gm_rules(), *s = board(r, AUSTRIANS), *a, *b, *ev;

	(void)unused;
	a = lgt_step(s, r, MOVE, enter, 4, &ev, NULL);
	assert_int_equal(est_rules_int(json_object_get(json_object_get(a, "battle"), "drm"), "attacker", 0), 1);
	assert_int_equal(lgt_event_int(ev, "approach", "roll"), 3);
	json_decref(ev);
	b = lgt_step(a, r, "{'Austria': [{'type': 'option', 'option': 'auxiliary'}]}", aux, 2, &ev, NULL);
	assert_string_equal(est_rules_str(lgt_event(ev, "auxiliary"), "result"), "Grand battery");
	assert_int_equal(lgt_event_int(ev, "bombard", "hits"), 1);
	assert_int_equal(lgt_corps(b, "fr", "I Corps"), 2);
	assert_int_equal(lgt_corps(b, "fr", "II Corps"), 1);
	lgt_assert_pending(b, r, "sequential", "battle-step-5", "France");
	json_decref(ev);
	json_decref(b);
	json_decref(a);
	json_decref(s);
	json_decref(r);
}

/*
 * An Approach result that destroys an army ends the battle before it is
 * fought (RULINGS.md L17): France wins the initiative (4 + 2 against 3),
 * Austria's approach is 2 (Lost on the march), France's 6 + 2 = 8, the GM's
 * Ambush: Austria's two divisions are lost and the army with them. No
 * attack is rolled; France holds the field and besieges the garrison once
 * at no cost (5.513 NOTE): 5 against the placeholder's 4, it falls.
 */
static void test_gm_approach_result_can_end_the_battle(void **unused)
{
	static const int faces[] = {4, 3, 2, 6, 5};
	json_t *r = gm_rules(), *s = board(r, "{'name': 'Werneck', 'divisions': 2}"), *n, *ev;

	(void)unused;
	n = lgt_step(s, r, MOVE, faces, 5, &ev, NULL);
	assert_null(lg_army(n, "au"));
	assert_null(json_object_get(n, "battle"));
	assert_int_equal(rules_event_count(ev, "attack"), 0);
	assert_string_equal(lg_controller(n, "Upper Austria"), "France");
	json_decref(ev);
	json_decref(n);
	json_decref(s);
	json_decref(r);
}

/*
 * RULINGS.md D1 and D2. An Approach row of the first shape (a "drm", no
 * "effect") is read as the effect "drm"; a total above the last row reads
 * the last. France (Ney, 2) wins the initiative 4 + 2 against 3 and rolls 6
 * on an Approach table that adds the rating: 8, above the last row (6),
 * which gives +2; Austria rolls 1 + 0, the first row, -1.
 */
static void test_d1_d2_old_rows_and_totals_off_the_table(void **unused)
{
	static const int faces[] = {4, 3, 1, 6, 6, 6, 1};
	json_t *r = json_deep_copy(rules), *s, *n, *ev;
	const json_t *att;

	(void)unused;
	put(r, "tables/approach/add", V("'tactical'"));
	put(r, "tables/approach/results/0", J("{'roll': 1, 'name': 'Lost on the march', 'drm': -1}"));
	put(r, "tables/approach/results/5", J("{'roll': 6, 'name': 'Seize the high ground', 'drm': 2}"));
	if (lg_check_rules(r) < 0)
		fail_msg("refused: %s", est_error_message());
	s = board(r, AUSTRIANS);
	n = lgt_step(s, r, MOVE, faces, 7, &ev, NULL);
	assert_int_equal(json_integer_value(json_object_get(rules_event_nth(ev, "approach", 1), "total")), 8);
	assert_string_equal(est_rules_str(rules_event_nth(ev, "approach", 1), "result"), "Seize the high ground");
	att = json_object_get(lgt_event(ev, "attack"), "attack");
	/* France 6 + 2 tactical + 2 DRM; Austria 6 + 0 - 1 DRM + 1 corps */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "attacker"), "total")), 10);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(att, "defender"), "total")), 6);
	json_decref(ev);
	json_decref(n);
	json_decref(s);
	json_decref(r);
}

static int setup(void **unused)
{
	(void)unused;
	rules = lgt_rules();
	return 0;
}

static int teardown(void **unused)
{
	(void)unused;
	json_decref(rules);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shipped_data_valid_and_marked_placeholder),
		cmocka_unit_test(test_unknown_effect_refused),
		cmocka_unit_test(test_effect_parameters),
		cmocka_unit_test(test_rows_cover_the_die),
		cmocka_unit_test(test_plain_tables),
		cmocka_unit_test(test_leaders),
		cmocka_unit_test(test_scenario_armies),
		cmocka_unit_test(test_scenario_treaties),
		cmocka_unit_test(test_gm_tables_accepted),
		cmocka_unit_test(test_gm_attack_table_decides_losses),
		cmocka_unit_test(test_gm_approach_and_auxiliary_results_played),
		cmocka_unit_test(test_gm_approach_result_can_end_the_battle),
		cmocka_unit_test(test_d1_d2_old_rows_and_totals_off_the_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
