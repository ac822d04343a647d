/*
 * Shared fixtures of the Levée en Masse tests (tests/unit/lem_*_test.c):
 * the real rules data of internal/rulesets/levee-en-masse/data/, states laid
 * out by hand (Armies' boxes, Political markers, Napoleon, Disorder), one
 * resolve() with fixed dice for both streams that must use every face, and
 * event look-ups. Included by each test file; everything is static.
 */
#ifndef LEM_TEST_HELPERS_H
#define LEM_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "rulesets/levee-en-masse/levee_en_masse.h"
#include "rulesets/levee-en-masse/lem_internal.h"
#include "util/error.h"

#include "rules_helpers.h"

#define LEM (&est_ruleset_levee_en_masse)

static inline json_t *lemt_rules(void)
{
	return rules_load("levee-en-masse");
}

/* The state set-up() makes with `options` (J() text): phase "start". */
static inline json_t *lemt_setup(const json_t *rules, const char *options)
{
	json_t *state = NULL, *o = J(options);

	if (LEM->setup(&state, rules, o) < 0)
		fail_msg("setup: %s", est_error_message());
	json_decref(o);
	return state;
}

/*
 * An Action Phase laid out by hand: options as given, Headline card
 * `card` in play (the first card played), `actions` Actions, the Political
 * markers Republic 2, Monarchy 1, Despotism 0 (set-up's), and one card left
 * to come: E41, which only advances the Prussian Army (taken off the map
 * here, so the next Headline changes nothing but the Actions) and gives 4.
 */
static inline json_t *lemt_turn(const json_t *rules, const char *options, const char *card, int actions)
{
	json_t *state = lemt_setup(rules, options);

	json_object_set_new(state, "phase", json_string("actions"));
	json_object_set_new(state, "current", json_string(card));
	json_object_set_new(state, "played", json_pack("[s]", card));
	json_object_set_new(state, "deck", J("{'White': ['E41']}"));
	json_object_set_new(state, "actions", json_integer(actions));
	json_object_set_new(lem_army(state, "prussian"), "box", json_null());
	return state;
}

/* Put an Army on box `box` (-1: off the map). */
static inline void lemt_put(json_t *state, const char *army, int box)
{
	json_t *a = lem_army(state, army);

	if (!a)
		fail_msg("no army %s in the state", army);
	json_object_set_new(a, "box", box < 0 ? json_null() : json_integer(box));
}

/* An Army's box, -1 when it is off the map. */
static inline int lemt_box(const json_t *state, const char *army)
{
	const json_t *a = lem_army(state, army);

	if (!a)
		fail_msg("no army %s in the state", army);
	return lem_on_map(a) ? est_rules_int(a, "box", -1) : -1;
}

static inline const char *lemt_status(const json_t *state, const char *army)
{
	return est_rules_str(lem_army(state, army), "status");
}

/* Set the three Political markers. */
static inline void lemt_political(json_t *state, int republic, int monarchy, int despotism)
{
	json_object_set_new(state, "political", json_pack("{s:i, s:i, s:i}", "Republic", republic, "Monarchy",
							  monarchy, "Despotism", despotism));
}

static inline int lemt_marker(const json_t *state, const char *marker)
{
	return est_rules_int(json_object_get(state, "political"), marker, -100);
}

/* An integer or boolean field of the state, as an int (true 1, false/null 0). */
static inline int lemt_int(const json_t *state, const char *key)
{
	const json_t *v = json_object_get(state, key);

	return json_is_integer(v) ? (int)json_integer_value(v) : json_is_true(v);
}

/* Fixed dice: every face must be drawn (fails otherwise), and the stream freed. */
static inline void lemt_dice_done(est_dice *dice, size_t nfaces, const char *which)
{
	if (est_dice_count(dice) != nfaces)
		fail_msg("%s stream: %zu dice drawn of the %zu faces given", which, est_dice_count(dice), nfaces);
	est_dice_free(dice);
}

/*
 * resolve() the awaited step with fixed public `faces` and `hidden` faces;
 * every face of both must be drawn. `orders` is the Republic's orders array
 * (J() text). *events_out, when asked for, is the caller's.
 */
static inline json_t *lemt_step_hidden(const json_t *state, const json_t *rules, const char *orders,
				       const int *faces, size_t nfaces, const int *hidden_faces, size_t nhidden,
				       json_t **events_out)
{
	est_dice *dice = NULL, *hidden = NULL;
	json_t *next = NULL, *events = NULL, *o = json_pack("{s:o}", LEM_POWER, J(orders));

	assert_int_equal(est_dice_new_fixed(&dice, faces, nfaces), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, hidden_faces, nhidden), 0);
	if (LEM->resolve(&next, &events, state, rules, o, dice, hidden) < 0)
		fail_msg("resolve: %s", est_error_message());
	lemt_dice_done(dice, nfaces, "public");
	lemt_dice_done(hidden, nhidden, "hidden");
	json_decref(o);
	if (events_out)
		*events_out = events;
	else
		json_decref(events);
	return next;
}

/* An Action Phase step: the hidden stream must stay unused (one card left to draw). */
static inline json_t *lemt_step(const json_t *state, const json_t *rules, const char *orders, const int *faces,
				size_t nfaces, json_t **events_out)
{
	return lemt_step_hidden(state, rules, orders, faces, nfaces, NULL, 0, events_out);
}

/* lem_actions() alone (no Housekeeping, no next card) on `state` in place; every face drawn. */
static inline json_t *lemt_act(json_t *state, const json_t *rules, const char *orders, const int *faces,
			       size_t nfaces)
{
	est_dice *dice = NULL;
	json_t *events = json_array(), *o = J(orders);

	assert_int_equal(est_dice_new_fixed(&dice, faces, nfaces), 0);
	if (lem_actions(state, events, rules, dice, o) < 0)
		fail_msg("lem_actions: %s", est_error_message());
	lemt_dice_done(dice, nfaces, "public");
	json_decref(o);
	return events;
}

/* lem_headline() of `card` on `state` in place; returns its events (caller's). */
static inline json_t *lemt_headline(json_t *state, const json_t *rules, const char *card)
{
	json_t *events = json_array();

	json_object_set_new(state, "current", json_string(card));
	if (lem_headline(state, events, rules, card) < 0)
		fail_msg("lem_headline %s: %s", card, est_error_message());
	return events;
}

/*
 * validate() the Republic's orders (J() text). Returns the diagnostics
 * (caller's), NULL when accepted; asserts the return code agrees.
 */
static inline json_t *lemt_validate(const json_t *state, const json_t *rules, const char *orders)
{
	json_t *diags = NULL, *o = J(orders);
	int error = LEM->validate(&diags, state, rules, LEM_POWER, o);

	json_decref(o);
	if (diags)
		assert_int_equal(error, EST_EINVAL);
	else
		assert_int_equal(error, 0);
	return diags;
}

/* validate() must refuse with exactly one diagnostic on `field` of item `index`. */
static inline void lemt_refused(const json_t *state, const json_t *rules, const char *orders, int index,
				const char *field)
{
	json_t *diags = lemt_validate(state, rules, orders), *d;

	if (!diags)
		fail_msg("accepted: %s", orders);
	d = json_array_get(diags, 0);
	if (json_array_size(diags) != 1 || est_rules_int(d, "index", -2) != index ||
	    strcmp(est_rules_str(d, "field"), field) != 0)
		fail_msg("%s: expected one diagnostic on item %d field \"%s\", got %s", orders, index, field,
			 json_dumps(diags, JSON_COMPACT));
	assert_non_null(est_rules_str(d, "message"));
	assert_non_null(est_rules_str(d, "rule"));
	json_decref(diags);
}

static inline void lemt_accepted(const json_t *state, const json_t *rules, const char *orders)
{
	json_t *diags = lemt_validate(state, rules, orders);

	if (diags)
		fail_msg("%s refused: %s", orders, json_dumps(diags, JSON_COMPACT));
}

/* An integer field of the first event of `type` (fails if there is none). */
static inline int lemt_event_int(const json_t *events, const char *type, const char *field)
{
	const json_t *e = rules_event_nth(events, type, 0);

	if (!e)
		fail_msg("no \"%s\" event", type);
	return est_rules_int(e, field, -100);
}

#endif
