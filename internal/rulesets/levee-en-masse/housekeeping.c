/*
 * Levée en Masse: the Housekeeping Phase — defeat (an Army in Paris, the
 * Republic at -1, the optional 9.1 and 9.2), 10.4's flip back and its -1 for
 * the next turn — then victory when the decks are out, or the next Headline
 * card.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

static int finish(json_t *state, json_t *events, const char *outcome, const char *grade, const char *reason)
{
	json_object_set_new(state, "phase", json_string("over"));
	json_object_set_new(state, "result", json_pack("{s:s, s:s, s:s, s:i}", "outcome", outcome, "grade", grade,
							 "reason", reason, "turns",
							 (int)json_array_size(json_object_get(state, "played"))));
	return est_rules_event(events, json_pack("{s:s, s:s}", "outcome", outcome, "grade", grade), "over",
			       "%s: %s", grade, reason);
}

/* The defeats a Housekeeping Phase checks; 1 when the game ended. */
static int defeated(json_t *state, json_t *events, const json_t *rules)
{
	const char *color = lem_deck_color(state, rules);
	const json_t *a;
	char why[200];
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a) {
		const char *id = est_rules_str(a, "id");
		int box = est_rules_int(a, "box", -1);
		if (!lem_on_map(a))
			continue;
		if (box == 0) {
			snprintf(why, sizeof(why), "%s is in Paris at the end of the turn", lem_army_name(rules, id));
			return finish(state, events, "defeat", "Defeat", why) < 0 ? -1 : 1;
		}
		/* 9.1: "the Vendée Army is in the Versailles (1) space ... while the Blue deck is in play" */
		if (lem_option(state, "9.1") && strcmp(id, "vendee") == 0 && box == 1 && color &&
		    strcmp(color, "Blue") == 0)
			return finish(state, events, "defeat", "Crushing Defeat", "King Louis XVI is rescued: the "
				      "Vendée Army is at Versailles in a Housekeeping Phase of the Blue deck (9.1)") < 0 ? -1 : 1;
		/* 9.2: "the Austrian Army is in the Arras (1) space ... while the White deck is in play" */
		if (lem_option(state, "9.2") && strcmp(id, "austrian") == 0 && box == 1 && color &&
		    strcmp(color, "White") == 0)
			return finish(state, events, "defeat", "Decisive Defeat", "Louis XVIII is installed by "
				      "Austrian arms: the Austrian Army is at Arras in a Housekeeping Phase of the White "
				      "deck (9.2)") < 0 ? -1 : 1;
	}
	if (est_rules_int(json_object_get(state, "political"), "Republic", 0) <= -1)
		return finish(state, events, "defeat", "Defeat", "the Republic has fallen to -1") < 0 ? -1 : 1;
	return 0;
}

/* 10.4: "at the end of the Housekeeping Phase, flip that Army back and place a -1 DRM marker". */
static int reserves_penalty(json_t *state, json_t *events, const json_t *rules)
{
	int used = json_is_true(json_object_get(state, "reserves_used"));
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a)
		json_object_set_new(a, "flipped", json_false());
	json_object_set_new(state, "drm_now", json_integer(used ? est_rules_int(lem_table(rules, "reserves"),
								       "next_turn_drm", -1) : 0));
	json_object_set_new(state, "reserves_used", json_false());
	json_object_set_new(state, "barricades_used", json_integer(0));
	return used ? est_rules_event(events, NULL, "reserves", "the Army is flipped back; -1 to the French Army "
				      "next turn (10.4)") : 0;
}

/* The decks are out: the Republic reigning wins, graded by its level. */
static int victory(json_t *state, json_t *events, const json_t *rules)
{
	const char *high = lem_highest(state);
	int republic = est_rules_int(json_object_get(state, "political"), "Republic", 0);
	const json_t *g;
	size_t i;
	char why[160];

	if (!high || strcmp(high, "Republic") != 0)
		return finish(state, events, "defeat", "Defeat", "the decks are out and the Republic does not reign "
			      "over the Political track");
	snprintf(why, sizeof(why), "the decks are out with the Republic reigning at %+d", republic);
	json_array_foreach(json_object_get(lem_table(rules, "victory"), "grades"), i, g)
		if (republic >= est_rules_int(g, "republic", 0))
			return finish(state, events, "victory", est_rules_str(g, "grade"), why);
	return finish(state, events, "victory", "Victory", why);
}

int lem_housekeeping(json_t *state, json_t *events, const json_t *rules, est_dice *hidden)
{
	const char *card;
	int error;

	if ((error = defeated(state, events, rules)) != 0)
		return error < 0 ? est_error_code() : 0;
	if ((error = reserves_penalty(state, events, rules)) < 0 || (error = lem_draw(&card, state, rules, hidden)) < 0)
		return error;
	if (!card)
		return victory(state, events, rules);
	json_object_set_new(state, "phase", json_string("actions"));
	return lem_headline(state, events, rules, card);
}
