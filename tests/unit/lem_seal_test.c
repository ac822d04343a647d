/*
 * Levée en Masse, sealed (RULINGS.md S1, S2; docs/protocol.md "Sealed
 * games"): what the public refs of a sealed game, and of a game of a deal,
 * hold of its state, its events, its pending step and its public view.
 * The states come from the ruleset's own set-up and resolve(), with fixed
 * hidden faces, and are sealed with seal/seal.h as the engine seals them.
 */
#include "lem_helpers.h"

#include "seal/seal.h"

static const unsigned char key[32] = "lem seal test: the step's seed.";

static int setup_rules(void **rs)
{
	*rs = lemt_rules();
	return 0;
}

static int teardown_rules(void **rs)
{
	json_decref(*rs);
	return 0;
}

/* The state sealed as the engine seals it with the step's key. */
static json_t *public_of(const json_t *state, const json_t *rules)
{
	json_t *paths = NULL, *pub = NULL;

	if (!LEM->sealed || LEM->sealed(&paths, state, rules) < 0)
		fail_msg("sealed: %s", LEM->sealed ? est_error_message() : "the ruleset cannot be sealed");
	if (est_seal_state(&pub, state, paths, key) < 0)
		fail_msg("est_seal_state: %s", est_error_message());
	json_decref(paths);
	return pub;
}

static int mentions(const json_t *doc, const char *text)
{
	char *dump = json_dumps(doc, JSON_SORT_KEYS | JSON_ENCODE_ANY);
	int found = dump && strstr(dump, text) != NULL;

	free(dump);
	return found;
}

/* Whether `doc` is the JSON of `text` (J() text). */
static int equals(const json_t *doc, const char *text)
{
	json_t *want = J(text);
	int same = json_equal((json_t *)doc, want);

	json_decref(want);
	return same;
}

/* pending() and the public view of the public state are those of the whole state. */
static void assert_public_answers(const json_t *state, const json_t *pub, const json_t *rules)
{
	json_t *a = NULL, *b = NULL;

	assert_int_equal(LEM->pending(&a, state, rules), 0);
	assert_int_equal(LEM->pending(&b, pub, rules), 0);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	assert_int_equal(LEM->view(&a, state, rules, NULL), 0);
	assert_int_equal(LEM->view(&b, pub, rules, NULL), 0);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
}

/*
 * S1, 12.1: a sealed game's public state keeps each pile of cards to come
 * as a commitment and its count; the card drawn (#3, the third Blue card
 * of 24) and the cards played stay public. E19, the last Blue card, still
 * to come, is nowhere in the public state or the public view.
 */
static void test_sealed_game_hides_the_cards_to_come(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{'scenario': 'extended'}"), *a, *pub, *view = NULL, *paths = NULL;

	a = lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){3}, 1, NULL);
	assert_int_equal(LEM->sealed(&paths, a, rules), 0);
	assert_true(equals(paths, "['/deck/Blue', '/deck/White', '/deck/Red']"));
	pub = public_of(a, rules);
	assert_int_equal(est_rules_int(json_object_get(json_object_get(pub, "deck"), "Blue"), "count", -1), 23);
	assert_int_equal(est_rules_int(json_object_get(json_object_get(pub, "deck"), "Red"), "count", -1), 25);
	assert_string_equal(est_rules_str(pub, "current"), "3");
	assert_true(equals(json_object_get(pub, "played"), "['3']"));
	assert_true(mentions(a, "\"E19\""));
	assert_false(mentions(pub, "\"E19\""));
	assert_public_answers(a, pub, rules);
	assert_int_equal(LEM->view(&view, pub, rules, NULL), 0);
	assert_string_equal(est_rules_str(view, "decks_text"), "Blue 23, White 29, Red 25");
	assert_false(mentions(view, "E19"));
	json_decref(view);
	json_decref(paths);
	json_decref(pub);
	json_decref(a);
	json_decref(state);
}

/* S1, 12.2 and 12.3: the one pile of the Purée and the sequence of the Historical Game are sealed too. */
static void test_sealed_single_piles(void **rs)
{
	const json_t *rules = *rs;
	const char *scenarios[] = {"puree", "historical"}, *piles[] = {"All", "Ordered"};

	for (int i = 0; i < 2; i++) {
		char options[64], path[32];
		json_t *state, *a, *paths = NULL, *pub;

		snprintf(options, sizeof(options), "{'scenario': '%s'}", scenarios[i]);
		state = lemt_setup(rules, options);
		a = i ? lemt_step_hidden(state, rules, "[]", NULL, 0, NULL, 0, NULL) :
			lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){1}, 1, NULL);
		snprintf(path, sizeof(path), "/deck/%s", piles[i]);
		assert_int_equal(LEM->sealed(&paths, a, rules), 0);
		assert_int_equal(json_array_size(paths), 1);
		assert_string_equal(json_string_value(json_array_get(paths, 0)), path);
		pub = public_of(a, rules);
		assert_int_equal(est_rules_int(json_object_get(json_object_get(pub, "deck"), piles[i]), "count", -1),
				 (int)json_array_size(json_object_get(json_object_get(a, "deck"), piles[i])));
		assert_public_answers(a, pub, rules);
		json_decref(paths);
		json_decref(pub);
		json_decref(a);
		json_decref(state);
	}
}

/*
 * S2: a game of a deal (options["deal"], from `new --deal`) seals all that
 * the cards shaped: the card in play, the cards played, the Armies, the
 * markers, the turn's Actions. Card #3 ("advances the Austrian Army,
 * Disorder in Paris, 2 Actions") is nowhere on the public side: not in the
 * state, the events (each the Republic's own), pending() or the public view;
 * the Republic's own view still shows it.
 */
static void test_dealt_game_seals_its_progress(void **rs)
{
	const json_t *rules = *rs;
	const char *title = est_rules_str(lem_card(rules, "3"), "title");
	json_t *state = lemt_setup(rules, "{'deal': 'spring-1793'}"), *a, *pub, *events = NULL, *e;
	json_t *paths = NULL, *p = NULL, *view = NULL, *own = NULL;
	size_t i;

	a = lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){3}, 1, &events);
	assert_string_equal(est_rules_str(a, "current"), "3");
	assert_int_equal(LEM->sealed(&paths, a, rules), 0);
	for (const char *const *k = (const char *const[]){"/current", "/played", "/armies", "/political", "/actions",
							     "/disorder", "/result", "/deck/Blue", NULL}; *k; k++)
		assert_true(mentions(paths, *k));
	assert_false(mentions(paths, "\"/phase\""));
	assert_false(mentions(paths, "\"/options\""));
	pub = public_of(a, rules);
	assert_string_equal(est_rules_str(pub, "phase"), "actions");
	assert_int_equal(est_rules_int(json_object_get(pub, "played"), "count", -1), 1);
	assert_true(json_is_string(json_object_get(json_object_get(pub, "current"), "sealed")));
	assert_false(mentions(pub, title));
	json_array_foreach(events, i, e)
		assert_true(equals(json_object_get(e, "visible_to"), "['Republic']"));
	assert_public_answers(a, pub, rules);
	assert_int_equal(LEM->pending(&p, pub, rules), 0);
	assert_string_equal(est_rules_str(p, "kind"), "actions");
	assert_false(mentions(p, title));
	assert_false(mentions(p, "#3"));
	assert_int_equal(LEM->view(&view, pub, rules, NULL), 0);
	assert_false(mentions(view, title));
	assert_null(json_object_get(view, "card"));
	assert_null(json_object_get(view, "tracks"));
	assert_int_equal(est_rules_int(view, "turn", -1), 1);
	assert_int_equal(LEM->view(&own, a, rules, LEM_POWER), 0);
	assert_true(mentions(own, title));
	json_decref(own);
	json_decref(view);
	json_decref(p);
	json_decref(paths);
	json_decref(pub);
	json_decref(events);
	json_decref(a);
	json_decref(state);
}

/* S2: the score of a dealt game's public state says it is still being played, and how far. */
static void test_dealt_score_from_public_state(void **rs)
{
	const json_t *rules = *rs;
	json_t *state = lemt_setup(rules, "{'deal': 'spring-1793'}"), *a, *pub, *s = NULL;

	a = lemt_step_hidden(state, rules, "[]", NULL, 0, (const int[]){3}, 1, NULL);
	pub = public_of(a, rules);
	assert_int_equal(LEM->score(&s, pub, rules), 0);
	assert_false(json_is_true(json_object_get(s, "over")));
	assert_true(mentions(s, "playing: 1 cards"));
	json_decref(s);
	json_decref(pub);
	json_decref(a);
	json_decref(state);
}

/* The purpose of the first public roll of one Military Action against the Austrian Army. */
static char *military_purpose(const json_t *rules, const char *options)
{
	json_t *state = lemt_turn(rules, options, "1", 1), *next = NULL, *events = NULL;
	json_t *o = J("{'Republic': [{'type': 'military', 'army': 'austrian'}]}");
	est_dice *dice = NULL, *hidden = NULL;
	char *purpose;

	assert_int_equal(est_dice_new_fixed(&dice, (const int[]){4}, 1), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, NULL, 0), 0);
	if (LEM->resolve(&next, &events, state, rules, o, dice, hidden) < 0)
		fail_msg("resolve: %s", est_error_message());
	purpose = strdup(est_rules_str(json_array_get(est_dice_log(dice), 0), "purpose"));
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(o);
	json_decref(next);
	json_decref(events);
	json_decref(state);
	return purpose;
}

/*
 * S2, 7.2: the public dice of a dealt game do not say what an Action's roll
 * was for, not even against which Army (an Expansion Kit Army attacked
 * tells its card has come; a Restore Order, that Paris is in Disorder); an
 * unsealed game's name it.
 */
static void test_dealt_rolls_name_no_army(void **rs)
{
	char *dealt = military_purpose(*rs, "{'deal': 'spring-1793'}"), *plain = military_purpose(*rs, "{}");

	assert_string_equal(dealt, LEM_DEALT_ROLL);
	assert_null(strstr(dealt, "Military"));
	assert_string_equal(plain, "Military Action against austrian");
	free(dealt);
	free(plain);
}

/* The "deal" option is the deal's name, as `new --deal` gives it; anything else is refused, named. */
static void test_deal_option_is_a_name(void **rs)
{
	json_t *state = NULL, *o = J("{'deal': 1}");

	assert_int_equal(LEM->setup(&state, *rs, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "\"deal\""));
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sealed_game_hides_the_cards_to_come),
		cmocka_unit_test(test_sealed_single_piles),
		cmocka_unit_test(test_dealt_game_seals_its_progress),
		cmocka_unit_test(test_dealt_score_from_public_state),
		cmocka_unit_test(test_dealt_rolls_name_no_army),
		cmocka_unit_test(test_deal_option_is_a_name),
	};

	return cmocka_run_group_tests(tests, setup_rules, teardown_rules);
}
