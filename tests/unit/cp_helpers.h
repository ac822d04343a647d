/*
 * Shared fixtures of the Campaign tests (tests/unit/cp_*_test.c): a small
 * board a reader can check by hand, states laid out piece by piece, one
 * resolve() with fixed dice that must use every face, and validate()
 * checks. Included by each test file; everything is static.
 *
 * The small board, 12 columns x 8 rows ([column, row], 0-based):
 *
 *        0 1 2 3 | 4 5 6 7 | 8 9 10 11
 *   row0 ~ # ^ . | . . . . | . .  .  .     sea, forest, mountain at the top left
 *        France  | Russia  | Austria
 *
 *   crossings: France-Russia [3,2]-[4,2] (along a row) and [3,5]-[4,6] (a diagonal);
 *              Russia-Austria [7,2]-[8,2] and [7,5]-[8,6]
 *   capitals:  Paris [1,4], Moscow [6,4], Vienna [10,4]
 *   towns:     Lyon [1,1] red infantry, Brest [2,6] yellow (France);
 *              Minsk [6,1] red cavalry, Kiev [5,6] yellow (Russia);
 *              Prague [10,1] red infantry, Buda [9,6] yellow (Austria)
 *   start:     infantry at the capital's corners, cavalry at its sides
 *   enlistment: row 7 of each country; Russia's also [4,6], [6,6], [7,6]
 */
#ifndef CP_TEST_HELPERS_H
#define CP_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "rulesets/campaign/campaign.h"
#include "rulesets/campaign/cp_internal.h"
#include "util/error.h"

#include "rules_helpers.h"

#define CP (&est_ruleset_campaign)

/* The small board above as rules = {"board": {...}}; caller decrefs. */
static inline json_t *cpt_rules(void)
{
	return J("{'board': {'provenance': 'test', 'width': 12, 'height': 8,"
		 " 'terrain': ['~#^.........', '............', '............', '............',"
		 "             '............', '............', '............', '............'],"
		 " 'countries': ['FFFFRRRRAAAA', 'FFFFRRRRAAAA', 'FFFFRRRRAAAA', 'FFFFRRRRAAAA',"
		 "               'FFFFRRRRAAAA', 'FFFFRRRRAAAA', 'FFFFRRRRAAAA', 'FFFFRRRRAAAA'],"
		 " 'crossings': [[[3, 2], [4, 2]], [[3, 5], [4, 6]], [[7, 2], [8, 2]], [[7, 5], [8, 6]]],"
		 " 'towns': ["
		 "  {'name': 'Lyon', 'country': 'France', 'square': [1, 1], 'colour': 'red', 'piece': 'infantry'},"
		 "  {'name': 'Brest', 'country': 'France', 'square': [2, 6], 'colour': 'yellow'},"
		 "  {'name': 'Minsk', 'country': 'Russia', 'square': [6, 1], 'colour': 'red', 'piece': 'cavalry'},"
		 "  {'name': 'Kiev', 'country': 'Russia', 'square': [5, 6], 'colour': 'yellow'},"
		 "  {'name': 'Prague', 'country': 'Austria', 'square': [10, 1], 'colour': 'red', 'piece': 'infantry'},"
		 "  {'name': 'Buda', 'country': 'Austria', 'square': [9, 6], 'colour': 'yellow'}],"
		 " 'capitals': [{'country': 'France', 'name': 'Paris', 'square': [1, 4]},"
		 "              {'country': 'Russia', 'name': 'Moscow', 'square': [6, 4]},"
		 "              {'country': 'Austria', 'name': 'Vienna', 'square': [10, 4]}],"
		 " 'start': {"
		 "  'France': {'infantry': [[0, 3], [2, 3], [0, 5], [2, 5]], 'cavalry': [[1, 3], [0, 4], [2, 4], [1, 5]]},"
		 "  'Russia': {'infantry': [[5, 3], [7, 3], [5, 5], [7, 5]], 'cavalry': [[6, 3], [5, 4], [7, 4], [6, 5]]},"
		 "  'Austria': {'infantry': [[9, 3], [11, 3], [9, 5], [11, 5]],"
		 "              'cavalry': [[10, 3], [9, 4], [11, 4], [10, 5]]}},"
		 " 'enlistment': {'France': [[0, 7], [1, 7], [2, 7], [3, 7]],"
		 "                'Russia': [[4, 7], [5, 7], [6, 7], [7, 7], [4, 6], [6, 6], [7, 6]],"
		 "                'Austria': [[8, 7], [9, 7], [10, 7], [11, 7]]},"
		 " 'seating': ['France', 'Russia', 'Austria']}}");
}

/*
 * A three-player state (France, Russia, Austria, one each) from set-up(),
 * turned to France's turn 1 with the throw [d1, d2] and an empty board:
 * the test lays the pieces out by hand. `game` is "standard" or
 * "introductory". Each base holds its own towns (§5).
 */
static inline json_t *cpt_state(const json_t *r, const char *game, int d1, int d2)
{
	json_t *state = NULL, *options = json_pack("{s:[[s], [s], [s]], s:s}", "players", "France", "Russia",
						   "Austria", "game", game);

	if (CP->setup(&state, r, options) < 0)
		fail_msg("setup: %s", est_error_message());
	json_decref(options);
	json_object_set_new(state, "phase", json_string("turn"));
	json_object_set_new(state, "order", json_pack("[s, s, s]", "France", "Russia", "Austria"));
	json_object_set_new(state, "active", json_string("France"));
	json_object_set_new(state, "turn", json_integer(1));
	json_object_set_new(state, "throw", json_pack("[i, i]", d1, d2));
	json_object_set_new(state, "pieces", json_array());
	return state;
}

/* Put a piece on (x, y); `id` as the reports name it ("France-C1"). */
static inline void cpt_put(json_t *state, const char *id, const char *country, const char *kind, int x, int y)
{
	assert_int_equal(json_array_append_new(json_object_get(state, "pieces"),
					       json_pack("{s:s, s:s, s:s, s:[i, i]}", "id", id, "country", country,
							 "kind", kind, "square", x, y)), 0);
}

/*
 * Austria standing by, out of the way: its General on Vienna and an infantry piece in its
 * Enlistment Area, so a test of France and Russia keeps Austria in the game (Losing the game, 2:
 * a player left with a General but no troops is out).
 */
static inline void cpt_austria_stands_by(json_t *state)
{
	cpt_put(state, "Austria-G", "Austria", "general", 10, 4);
	cpt_put(state, "Austria-I1", "Austria", "infantry", 11, 7);
}

/* The id of the piece on (x, y), or NULL. */
static inline const char *cpt_at(const json_t *state, int x, int y)
{
	return json_string_value(json_object_get(cp_piece_at(state, x, y), "id"));
}

/* Whether piece `id` stands on (x, y) (fails if there is no such piece). */
static inline int cpt_on(const json_t *state, const char *id, int x, int y)
{
	const json_t *p = cp_piece(state, id);
	int px, py;

	if (!p)
		fail_msg("no piece %s", id);
	return cp_sq(json_object_get(p, "square"), &px, &py) && px == x && py == y;
}

/* cp_step_refusal for piece `id` stepping to (x, y): NULL when allowed. */
static inline const char *cpt_step(const json_t *state, const json_t *r, const char *id, int x, int y)
{
	const json_t *p = cp_piece(state, id);

	if (!p)
		fail_msg("no piece %s", id);
	return cp_step_refusal(state, r, p, x, y);
}

/* Assert that a step is refused with a reason holding `words`. */
static inline void cpt_step_refused(const json_t *state, const json_t *r, const char *id, int x, int y,
				    const char *words)
{
	const char *why = cpt_step(state, r, id, x, y);

	if (!why)
		fail_msg("%s to [%d, %d] was allowed; expected a refusal saying \"%s\"", id, x, y, words);
	if (!strstr(why, words))
		fail_msg("%s to [%d, %d]: \"%s\" does not say \"%s\"", id, x, y, why, words);
}

static inline void cpt_step_allowed(const json_t *state, const json_t *r, const char *id, int x, int y)
{
	const char *why = cpt_step(state, r, id, x, y);

	if (why)
		fail_msg("%s to [%d, %d] refused: %s", id, x, y, why);
}

/* cp_attack_outcome of `attacker` against piece `target`: 1 taken, 0 holds. */
static inline int cpt_taken(const json_t *state, const char *attacker, const char *target)
{
	const json_t *t = cp_piece(state, target);
	char *why = NULL;
	int taken = -1;

	if (!t)
		fail_msg("no piece %s", target);
	assert_int_equal(cp_attack_outcome(&taken, &why, NULL, state, attacker, t), 0);
	assert_non_null(why);
	free(why);
	return taken;
}

/*
 * validate() refuses: EST_EINVAL with exactly one diagnostic, at order
 * `index`, whose rule and message together hold each of `words1` and
 * `words2` (NULL: not checked).
 */
static inline void cpt_refused(const json_t *state, const json_t *r, const char *power, const char *orders,
			       int index, const char *words1, const char *words2)
{
	json_t *d = NULL, *o = J(orders);
	const json_t *e;
	char text[1024];

	assert_int_equal(CP->validate(&d, state, r, power, o), EST_EINVAL);
	assert_non_null(d);
	if (json_array_size(d) != 1)
		fail_msg("expected one diagnostic, got %s", json_dumps(d, 0));
	e = json_array_get(d, 0);
	assert_int_equal(json_integer_value(json_object_get(e, "index")), index);
	snprintf(text, sizeof(text), "%s: %s", json_string_value(json_object_get(e, "rule")),
		 json_string_value(json_object_get(e, "message")));
	if ((words1 && !strstr(text, words1)) || (words2 && !strstr(text, words2)))
		fail_msg("diagnostic \"%s\" does not say \"%s\" and \"%s\"", text, words1 ? words1 : "",
			 words2 ? words2 : "");
	json_decref(d);
	json_decref(o);
}

/*
 * resolve() the active power's `orders` (J() text, an array); the next
 * player's throw is d1, d2 (0, 0: no throw is drawn, the game ends). Every
 * face must be drawn. *events_out, when asked for, is the caller's.
 */
static inline json_t *cpt_resolve(const json_t *state, const json_t *r, const char *orders, int d1, int d2,
				  json_t **events_out)
{
	est_dice *dice = NULL, *hidden = NULL;
	json_t *next = NULL, *events = NULL, *o = json_object();
	int faces[2] = {d1, d2};
	size_t n = d1 ? 2 : 0;

	json_object_set_new(o, json_string_value(json_object_get(state, "active")), J(orders));
	assert_int_equal(est_dice_new_fixed(&dice, faces, n), 0);
	assert_int_equal(est_dice_new_fixed(&hidden, NULL, 0), 0);
	if (CP->resolve(&next, &events, state, r, o, dice, hidden) < 0)
		fail_msg("resolve: %s", est_error_message());
	if (est_dice_count(dice) != n)
		fail_msg("resolve drew %zu dice of the %zu faces given", est_dice_count(dice), n);
	est_dice_free(dice);
	est_dice_free(hidden);
	json_decref(o);
	if (events_out)
		*events_out = events;
	else
		json_decref(events);
	return next;
}

/* The holder of a town in the state, or NULL. */
static inline const char *cpt_holder(const json_t *state, const char *town)
{
	return json_string_value(json_object_get(json_object_get(state, "towns"), town));
}

#endif
