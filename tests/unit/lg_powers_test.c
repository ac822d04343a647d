/*
 * A player holding several La Guerre powers (README.md "Powers and
 * players"; RULINGS.md L26) sends one file for all of them: the checks the
 * engine makes of it (internal/turn est_turn_validate_powers, which the
 * intake runs on every order file) report the mistakes of every power,
 * not only those of the first power found wrong.
 */
#include "lg_helpers.h"
#include "turn/turn.h"

/* The Coalition's turn of Autumn 1805, after France's turn of no orders. */
static json_t *coalition_turn(void)
{
	json_t *s = lgt_setup(rules), *n = lgt_step(s, rules, "{}", NULL, 0, NULL, NULL);

	json_decref(s);
	lgt_assert_pending(n, rules, "simultaneous", "turn", NULL);
	return n;
}

static const json_t *diag_at(const json_t *diagnostics, long long index)
{
	const json_t *d;
	size_t i;

	json_array_foreach(diagnostics, i, d)
		if (json_integer_value(json_object_get(d, "index")) == index)
			return d;
	fail_msg("no diagnostic for orders[%lld] in %s", index, json_dumps(diagnostics, 0));
	return NULL;
}

/*
 * Austria's item 1 marches Mack's army into neutral Saxony (RULINGS.md L5)
 * and Russia's item 2 marches Kutuzov's four provinces with 3 Movement
 * Points (L4): both refusals come back, each at the item's index in the
 * file, with Austria's valid item 0 unremarked.
 */
static void test_l26_both_powers_mistakes_reported(void **unused)
{
	json_t *s = coalition_turn(), *wrapped = json_pack("{s:O}", "state", s), *d = NULL;
	json_t *held = J("['Austria', 'Russia', 'Britain']");
	json_t *orders = J("[{'type': 'standing', 'at': 'Bavaria', 'step': 4, 'option': 'attack', 'power': 'Austria'},"
			   " {'type': 'move', 'army': 'armee-d-allemagne', 'path': ['Saxony'], 'power': 'Austria'},"
			   " {'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia', 'Bohemia', 'Bavaria', "
			   "'Wurttemberg'], 'power': 'Russia'}]");

	(void)unused;
	assert_int_equal(est_turn_validate_powers(&d, LG, rules, wrapped, orders, held), EST_EINVAL);
	assert_int_equal(json_array_size(d), 2);
	assert_non_null(strstr(est_rules_str(diag_at(d, 1), "message"), "Saxony is neutral"));
	assert_non_null(strstr(est_rules_str(diag_at(d, 2), "message"), "costs 4 Movement Points"));
	json_decref(d);
	json_decref(orders);
	json_decref(held);
	json_decref(wrapped);
	json_decref(s);
}

/* Valid orders for each power: no diagnostics at all. */
static void test_l26_valid_for_every_power(void **unused)
{
	json_t *s = coalition_turn(), *wrapped = json_pack("{s:O}", "state", s), *d = NULL;
	json_t *held = J("['Austria', 'Russia']");
	json_t *orders = J("[{'type': 'move', 'army': 'armee-d-allemagne', 'path': ['Upper Austria'], "
			   "'power': 'Austria'}, {'type': 'move', 'army': 'army-of-podolia', 'path': ['Moravia'], "
			   "'power': 'Russia'}]");

	(void)unused;
	assert_int_equal(est_turn_validate_powers(&d, LG, rules, wrapped, orders, held), 0);
	assert_null(d);
	json_decref(orders);
	json_decref(held);
	json_decref(wrapped);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l26_both_powers_mistakes_reported),
		cmocka_unit_test(test_l26_valid_for_every_power),
	};

	return cmocka_run_group_tests(tests, lgt_group_setup, lgt_group_teardown);
}
