/*
 * Shared fixtures of the La Guerre de l'Empereur tests (tests/unit/lg_*_test.c):
 * the real rules data of internal/rulesets/la-guerre/data/, readable JSON
 * literals, boards laid out by hand, one resolve() with fixed dice
 * (est_dice_new_fixed) that must use every face, and event look-ups.
 * Included by each test file; everything is static.
 */
#ifndef LG_TEST_HELPERS_H
#define LG_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "rulesets/la-guerre/la_guerre.h"
#include "rulesets/la-guerre/lg_internal.h"
#include "util/error.h"

#include "rules_helpers.h"

#define LG (&est_ruleset_la_guerre)

static inline json_t *lgt_rules(void)
{
	return rules_load("la-guerre");
}

/* The state set-up() makes from the real scenario: France's turn, Autumn 1805. */
static inline json_t *lgt_setup(const json_t *rules)
{
	json_t *state = NULL, *options = json_object();

	if (LG->setup(&state, rules, options) < 0)
		fail_msg("setup: %s", est_error_message());
	json_decref(options);
	return state;
}

/* Take every army off the map (control and garrisons stay). */
static inline void lgt_clear_armies(json_t *state)
{
	json_object_set_new(state, "armies", json_array());
}

/* Put an army (J() text) on the map. */
static inline void lgt_put_army(json_t *state, const char *army)
{
	assert_int_equal(json_array_append_new(json_object_get(state, "armies"), J(army)), 0);
}

/* Set a province's controller and its garrison (real and ghost divisions). */
static inline void lgt_control(json_t *state, const char *province, const char *nation, int garrison,
			       int ghost)
{
	assert_int_equal(lg_set_controller(state, province, nation, garrison, ghost), 0);
}

/*
 * Resolve the awaited step with fixed faces; every face must be drawn.
 * Takes `orders` (J() text, an object {power: [orders]}). *events_out and
 * *log_out (a copy of the dice log), when asked for, are the caller's.
 */
static inline json_t *lgt_step(const json_t *state, const json_t *rules, const char *orders,
			       const int *faces, size_t nfaces, json_t **events_out, json_t **log_out)
{
	est_dice *dice = NULL, *hidden = NULL;
	json_t *next = NULL, *events = NULL, *o = J(orders);

	assert_int_equal(est_dice_new_fixed(&dice, faces, nfaces), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, NULL, 0), 0);
	if (LG->resolve(&next, &events, state, rules, o, dice, hidden) < 0)
		fail_msg("resolve: %s", est_error_message());
	if (est_dice_count(dice) != nfaces)
		fail_msg("resolve drew %zu dice of the %zu faces given", est_dice_count(dice), nfaces);
	assert_int_equal(est_dice_count(hidden), 0);
	if (log_out)
		*log_out = json_deep_copy(est_dice_log(dice));
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(o);
	if (events_out)
		*events_out = events;
	else
		json_decref(events);
	return next;
}

/* resolve() must refuse: returns its error code (no state is made). */
static inline int lgt_step_fails(const json_t *state, const json_t *rules, const char *orders)
{
	est_dice *dice = NULL, *hidden = NULL;
	json_t *next = NULL, *events = NULL, *o = J(orders);
	int error;

	assert_int_equal(est_dice_new_fixed(&dice, NULL, 0), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, NULL, 0), 0);
	error = LG->resolve(&next, &events, state, rules, o, dice, hidden);
	assert_null(next);
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(o);
	return error;
}

/* The purpose of the i-th roll of a dice log. */
static inline const char *lgt_purpose(const json_t *log, size_t i)
{
	const char *p = json_string_value(json_object_get(json_array_get(log, i), "purpose"));

	if (!p)
		fail_msg("the dice log has no roll %zu", i);
	return p;
}

static inline const json_t *lgt_event(const json_t *events, const char *type)
{
	return rules_event_nth(events, type, 0);
}

/* The text of the first event of `type` (fails if there is none). */
static inline const char *lgt_text(const json_t *events, const char *type)
{
	const json_t *e = lgt_event(events, type);

	if (!e)
		fail_msg("no \"%s\" event", type);
	return json_string_value(json_object_get(e, "text"));
}

/* An integer field of the first event of `type`. */
static inline int lgt_event_int(const json_t *events, const char *type, const char *field)
{
	const json_t *e = lgt_event(events, type);

	if (!e)
		fail_msg("no \"%s\" event", type);
	return (int)json_integer_value(json_object_get(e, field));
}

/* The divisions of one corps of an army, 0 if the corps (or army) is gone. */
static inline int lgt_corps(const json_t *state, const char *army, const char *corps)
{
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(lg_army(state, army), "corps"), i, c)
		if (strcmp(json_string_value(json_object_get(c, "name")), corps) == 0)
			return (int)json_integer_value(json_object_get(c, "divisions"));
	return 0;
}

static inline const char *lgt_location(const json_t *state, const char *army)
{
	const json_t *a = lg_army(state, army);

	if (!a)
		fail_msg("army %s is not on the map", army);
	return json_string_value(json_object_get(a, "location"));
}

static inline int lgt_vp(const json_t *state, const char *side)
{
	return (int)json_integer_value(json_object_get(json_object_get(state, "vp"), side));
}

/* pending(): its kind and, when one power is awaited, that power. */
static inline void lgt_assert_pending(const json_t *state, const json_t *rules, const char *mode,
				      const char *kind, const char *power)
{
	json_t *p = NULL;

	assert_int_equal(LG->pending(&p, state, rules), 0);
	assert_string_equal(json_string_value(json_object_get(p, "mode")), mode);
	assert_string_equal(json_string_value(json_object_get(p, "kind")), kind);
	if (power) {
		assert_int_equal(json_array_size(json_object_get(p, "powers")), 1);
		assert_string_equal(json_string_value(json_array_get(json_object_get(p, "powers"), 0)), power);
	}
	json_decref(p);
}

/*
 * validate() refuses: EST_EINVAL with exactly one diagnostic, on `field`,
 * whose message holds `words`. Returns nothing; fails the test otherwise.
 */
static inline void lgt_refused(const json_t *state, const json_t *rules, const char *power, const char *orders,
			       const char *field, const char *words)
{
	json_t *d = NULL, *o = J(orders);
	const char *msg;

	assert_int_equal(LG->validate(&d, state, rules, power, o), EST_EINVAL);
	assert_non_null(d);
	if (json_array_size(d) != 1)
		fail_msg("expected one diagnostic, got %s", json_dumps(d, 0));
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "field")), field);
	msg = json_string_value(json_object_get(json_array_get(d, 0), "message"));
	if (!msg || !strstr(msg, words))
		fail_msg("diagnostic \"%s\" does not say \"%s\"", msg ? msg : "", words);
	json_decref(d);
	json_decref(o);
}

/* The real rules data, loaded once per test binary (lgt_group_setup). */
static json_t *rules;

static inline int lgt_group_setup(void **unused)
{
	(void)unused;
	rules = lgt_rules();
	return rules ? 0 : -1;
}

static inline int lgt_group_teardown(void **unused)
{
	(void)unused;
	json_decref(rules);
	return 0;
}

#endif
