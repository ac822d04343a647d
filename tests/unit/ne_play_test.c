/*
 * Napoleonic Empire played for many steps with real dice streams (fixed
 * seeds): orders built from the map and the hand, checked by validate()
 * (refused sets fall back to the default orders, which must always pass).
 * After every step: 32 cards in deck + discard pile + hands, at most 80
 * armies a side on the map ("Each side has 80 counters"), no negative
 * army, no contested country once a turn is over except by rebels, and
 * pending() agrees with the state.
 */
#include "ne_helpers.h"

static json_t *rules;

static void check_invariants(const json_t *s)
{
	size_t cards = json_array_size(json_object_get(s, "deck")) +
		       json_array_size(json_object_get(s, "discard")) +
		       json_array_size(ne_hand(s, "France")) + json_array_size(ne_hand(s, "Allies"));
	size_t i;

	assert_int_equal(cards, 32);
	assert_true(ne_on_map(s, "France") <= 80);
	assert_true(ne_on_map(s, "Allies") <= 80);
	for (i = 0; i < ne_country_count(rules); i++) {
		assert_true(A(s, ne_country_name(rules, i), "France") >= 0);
		assert_true(A(s, ne_country_name(rules, i), "Allies") >= 0);
	}
	assert_int_equal(A(s, "Ottoman Empire", "France") + A(s, "Ottoman Empire", "Allies"), 0);
	assert_int_equal(A(s, "England", "France"), 0);
}

/* Orders for the active side's turn: the defaults, every playable card, half of each stack forward. */
static json_t *turn_orders(const json_t *s, const char *side, int step)
{
	json_t *o = NULL, *v;
	size_t i, j;

	assert_int_equal(NE->default_orders(&o, s, rules, side), 0);
	json_array_foreach(ne_hand(s, side), i, v) {
		const json_t *card = ne_card(rules, json_string_value(v));

		if (!ne_card_playable_by(card, side) || ne_card_is_battle(card))
			continue;
		json_array_append_new(o, json_pack("{s:s, s:s}", "type", "play", "card",
						   json_string_value(json_array_get(ne_hand(s, side), i))));
	}
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *from = ne_country_name(rules, i);
		int n = A(s, from, side) / 2;

		if (n < 1)
			continue;
		for (j = 0; j < ne_country_count(rules); j++) {
			const char *to = ne_country_name(rules, (j + i + (size_t)step) % ne_country_count(rules));

			if (!ne_move_refusal(rules, side, from, to)) {
				json_array_append_new(o, json_pack("{s:s, s:s, s:s, s:i}", "type", "move", "from",
								   from, "to", to, "armies", n));
				break;
			}
		}
	}
	if (strcmp(side, "Allies") == 0 && !json_is_true(json_object_get(s, "extra")))
		json_array_append_new(o, J("{'type':'rebels','country':'Spain'}"));
	return o;
}

static json_t *orders_for(const json_t *s, const json_t *p, int step, int *refused)
{
	json_t *all = json_object(), *v;
	size_t i;

	json_array_foreach(json_object_get(p, "powers"), i, v) {
		const char *power = json_string_value(v);
		json_t *o = NULL, *diag = NULL;

		if (strcmp(json_string_value(json_object_get(p, "kind")), "turn") == 0)
			o = turn_orders(s, power, step);
		else
			assert_int_equal(NE->default_orders(&o, s, rules, power), 0);
		if (NE->validate(&diag, s, rules, power, o) != 0) {
			json_decref(diag);
			json_decref(o);
			(*refused)++;
			assert_int_equal(NE->default_orders(&o, s, rules, power), 0);
			if (NE->validate(&diag, s, rules, power, o) != 0)
				fail_msg("default orders refused: %s", json_dumps(diag, 0));
		}
		json_object_set_new(all, power, o);
	}
	return all;
}

static void play(uint8_t seed, int *steps_out, int *battles_out, const char **winner)
{
	json_t *s = NULL, *p = NULL;
	int step, refused = 0, battles = 0;

	assert_int_equal(NE->setup(&s, rules, NULL), 0);
	for (step = 1; step < 400; step++) {
		unsigned char pub[32], hid[32];
		est_dice *d = NULL, *h = NULL;
		json_t *next = NULL, *ev = NULL, *o;

		assert_int_equal(NE->pending(&p, s, rules), 0);
		if (strcmp(json_string_value(json_object_get(p, "mode")), "over") == 0)
			break;
		memset(pub, seed, sizeof(pub));
		memset(hid, seed ^ 0x5a, sizeof(hid));
		pub[0] = (unsigned char)step;
		hid[0] = (unsigned char)step;
		pub[1] = (unsigned char)(step >> 8);
		hid[1] = (unsigned char)(step >> 8);
		assert_int_equal(est_dice_new(&d, pub), 0);
		assert_int_equal(est_dice_new(&h, hid), 0);
		o = orders_for(s, p, step, &refused);
		if (NE->resolve(&next, &ev, s, rules, o, d, h) != 0)
			fail_msg("step %d: %s", step, est_error_message());
		battles += rules_event_count(ev, "battle");
		check_invariants(next);
		json_decref(o);
		json_decref(ev);
		json_decref(p);
		p = NULL;
		est_dice_free(d);
		est_dice_free(h);
		json_decref(s);
		s = next;
	}
	*steps_out = step;
	*battles_out = battles;
	*winner = NULL;
	if (json_is_string(json_object_get(s, "winner")))
		*winner = strcmp(json_string_value(json_object_get(s, "winner")), "France") == 0 ? "France" : "Allies";
	json_decref(p);
	json_decref(s);
}

/* Several seeded games run to the end or 400 steps without breaking an invariant. */
static void test_seeded_games_keep_invariants(void **unused)
{
	uint8_t seed;
	int fought = 0;

	(void)unused;
	for (seed = 1; seed <= 6; seed++) {
		int steps, battles;
		const char *winner;

		play(seed, &steps, &battles, &winner);
		if (getenv("NE_PLAY_VERBOSE"))
			fprintf(stderr, "seed %d: %d steps, %d battles, winner %s\n", seed, steps, battles,
				winner ? winner : "none");
		fought += battles;
	}
	assert_true(fought > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seeded_games_keep_invariants),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
