/*
 * Shared fixtures of the Napoleonic Empire tests (tests/unit/ne_*_test.c):
 * the real rules data from internal/rulesets/napoleonic-empire/data/, fixed
 * dice streams (est_dice_new_fixed) and small state edits. Included by each
 * test file; everything is static.
 */
#ifndef NE_TEST_HELPERS_H
#define NE_TEST_HELPERS_H

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
#include "rules_helpers.h"
#include "rulesets/napoleonic-empire/napoleonic_empire.h"
#include "rulesets/napoleonic-empire/ne_internal.h"
#include "util/error.h"

#define NE (&est_ruleset_napoleonic_empire)

static inline json_t *ne_rules(void)
{
	return rules_load("napoleonic-empire");
}

/*
 * Hidden faces for a 32-card shuffle that leaves the deck in card-list
 * order: at position i the shuffle rolls roll(i+1) and swaps i with
 * roll-1, so face i+1 swaps i with itself.
 */
static inline void ne_identity_shuffle(int *faces, int cards)
{
	int i, k = 0;

	for (i = cards - 1; i >= 1; i--)
		faces[k++] = i + 1;
}

/* Resolve one step with fixed public and hidden faces; every face must be used. */
static inline json_t *ne_step(const json_t *state, const json_t *rules, json_t *orders, const int *pub,
		       size_t npub, const int *hid, size_t nhid, json_t **events_out)
{
	est_dice *dice = NULL, *hidden = NULL;
	json_t *next = NULL, *events = NULL;
	int error;

	assert_int_equal(est_dice_new_fixed(&dice, pub, npub), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, hid, nhid), 0);
	error = NE->resolve(&next, &events, state, rules, orders, dice, hidden);
	if (error < 0)
		fail_msg("resolve: %s", est_error_message());
	assert_int_equal(est_dice_count(dice), npub);
	assert_int_equal(est_dice_count(hidden), nhid);
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(orders);
	if (events_out)
		*events_out = events;
	else
		json_decref(events);
	return next;
}

/* The state after step 1 (deck in card-list order): France's turn 1, hand Toulon, Italian Campaign. */
static inline json_t *ne_started(const json_t *rules)
{
	json_t *s0 = NULL, *s1;
	int faces[31];

	assert_int_equal(NE->setup(&s0, rules, NULL), 0);
	ne_identity_shuffle(faces, 32);
	s1 = ne_step(s0, rules, json_object(), NULL, 0, faces, 31, NULL);
	json_decref(s0);
	return s1;
}

/* Set a country's armies and controller ("France", "Allies" or NULL). */
static inline void ne_put(json_t *state, const char *country, int france, int allies, const char *control)
{
	assert_int_equal(ne_set_armies(state, country, NE_FRANCE, france), 0);
	assert_int_equal(ne_set_armies(state, country, NE_ALLIES, allies), 0);
	assert_int_equal(ne_set_controller(state, country, control), 0);
}

/* Empty the map (control unchanged) so a test can lay out its own armies. */
static inline void ne_clear(json_t *state, const json_t *rules)
{
	size_t i;

	for (i = 0; i < ne_country_count(rules); i++) {
		ne_set_armies(state, ne_country_name(rules, i), NE_FRANCE, 0);
		ne_set_armies(state, ne_country_name(rules, i), NE_ALLIES, 0);
	}
}

/* Replace a side's hand with the given card ids (NULL-terminated list). */
static inline void ne_hand_set(json_t *state, const char *side, ...)
{
	json_t *hand = ne_hand(state, side);
	const char *id;
	va_list ap;

	json_array_clear(hand);
	va_start(ap, side);
	while ((id = va_arg(ap, const char *)))
		json_array_append_new(hand, json_string(id));
	va_end(ap);
}

/* {side: copy of items}: orders for ne_step from an orders array. */
static inline json_t *ne_orders_of(const char *side, const json_t *items)
{
	json_t *o = json_object();

	json_object_set_new(o, side, json_deep_copy(items));
	return o;
}

/*
 * validate() refuses `items` (JSON text with ' for ") from `power`: among
 * the diagnostics, one of order `index` on `field` whose "rule" holds
 * `rule` and whose "message" holds `words`. Fails the test otherwise.
 */
static inline void ne_refused(const json_t *state, const json_t *rules, const char *power, const char *items,
			      int index, const char *field, const char *rule, const char *words)
{
	json_t *diag = NULL, *o = J(items);
	const json_t *d;
	size_t i;

	assert_int_equal(NE->validate(&diag, state, rules, power, o), EST_EINVAL);
	json_array_foreach(diag, i, d)
		if (json_integer_value(json_object_get(d, "index")) == index &&
		    strcmp(json_string_value(json_object_get(d, "field")), field) == 0 &&
		    strstr(json_string_value(json_object_get(d, "rule")), rule) &&
		    strstr(json_string_value(json_object_get(d, "message")), words))
			break;
	if (i == json_array_size(diag))
		fail_msg("no diagnostic [%d] %s (rule \"%s\", saying \"%s\") in %s", index, field, rule, words,
			 json_dumps(diag, 0));
	json_decref(diag);
	json_decref(o);
}

/* The first event of `type`, or NULL. */
static inline const json_t *ne_find(const json_t *events, const char *type)
{
	size_t i;
	json_t *e;

	json_array_foreach(events, i, e) {
		if (strcmp(json_string_value(json_object_get(e, "type")), type) == 0)
			return e;
	}
	return NULL;
}

static inline const char *ne_text(const json_t *events, const char *type)
{
	return json_string_value(json_object_get(ne_find(events, type), "text"));
}

static inline const char *ne_phase(const json_t *state)
{
	return json_string_value(json_object_get(state, "phase"));
}

static inline int A(const json_t *state, const char *country, const char *side)
{
	return ne_armies(state, country, side);
}

#endif
