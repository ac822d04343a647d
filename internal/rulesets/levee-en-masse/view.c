/*
 * Levée en Masse: what the player (or the public) sees, shaped for the
 * logic-less templates of templates/levee-en-masse/. This is a solitaire
 * game and the state hides nothing (the deck's order is not in it), so
 * "Republic" and the public get the same view. Templates cannot count,
 * compare or join, so the view gives booleans for sections, preformatted
 * text and the coordinates map.svg draws at.
 *
 * The view's keys: scenario, scenario_text, options [{key, rule, title, on,
 * text}], options_on (the same, only those in force), difficulty,
 * difficulty_text, phase, awaits_orders, over, result (null or {outcome,
 * grade, reason, turns, text}), turn, decks [{pile, left, text}], cards_left,
 * decks_text, card (null or {id, number, deck, title, expansion, actions,
 * text}), tracks [{name, length, boxes [{box, name, square, paris, shape,
 * units [unit], occupied, units_text, british_support, label, x, y, ...}]}],
 * armies [unit], off_map [unit], attackable [unit], not_attackable [unit],
 * political {markers [{marker, value, value_text, highest}], highest, tie,
 * text, military_drm, political_drm, drm_text}, disorder, disorder_text,
 * liberation, british_support (null or {box, name, text}), conditions [{rule, outcome, text}]
 * (the victory and defeat conditions in force), napoleon
 * {in_play, holding, with, with_name, box, can_detach, can_assign, text, short},
 * actions, free_barricades, drms [{text}], orders {army, square_army,
 * disorder_army, any_army, reserves, disorder, restore_order, barricades, liberation,
 * napoleon_assign, napoleon_detach}, map {width, height, bar {...}}.
 *
 * A unit: {id, name, track, box, box_name, on_map, value, value_text
 * ("3", or "[4]" for a Stationary Army), stationary, status, flipped,
 * rotated, napoleon, attackable, why, text, short, x, y, w, h, tx, ty}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lem_internal.h"

/* map.svg: a row per track, boxes from the highest at the left to Paris at the right. */
#define MAP_W 960
#define MAP_H 800
#define ROW_Y0 140
#define ROW_H 128
#define BOX_X0 200
#define BOX_STEP 122
#define BOX_HALF 40
#define COUNTER_W 108
#define COUNTER_H 18
#define BAR_X 200
#define BAR_Y 628
#define BAR_CELL 62

static const char *const markers[] = {"Republic", "Monarchy", "Despotism", NULL};

/* A JSON string made from a heap string, which is freed; NULL stays NULL. */
static json_t *owned(char *text)
{
	json_t *v = text ? json_string(text) : NULL;

	free(text);
	return v;
}

/* Append "<sep><part>" to *text (a heap string or NULL); -1 when out of memory. */
static int append(char **text, const char *sep, const char *part)
{
	char *next = *text ? est_strdup_printf("%s%s%s", *text, sep, part) : strdup(part);

	free(*text);
	*text = next;
	return next ? 0 : -1;
}

static int flag(const json_t *obj, const char *key)
{
	return json_is_true(json_object_get(obj, key));
}

static const char *scenario_text(const char *scenario)
{
	if (!scenario)
		return "unknown";
	if (strcmp(scenario, "base") == 0)
		return "the base game (the Expansion Kit's cards left out)";
	if (strcmp(scenario, "puree") == 0)
		return "Chronological Purée (12.2): every card shuffled into one deck";
	if (strcmp(scenario, "historical") == 0)
		return "The Historical Game (12.3): the cards in numerical sequence";
	return "The Extended Game (12.1): the Expansion Kit's cards added to their decks";
}

/* The optional rules of README.md "Options", with their rule numbers and titles. */
static const struct {
	const char *key, *rule, *title;
} option_list[] = {
	{"9.1", "9.1", "Defeat (optional): King Louis XVI rescued if the Vendée Army is at Versailles (1) "
		       "in a Housekeeping Phase of the Blue deck"},
	{"9.2", "9.2", "Defeat (optional): Louis XVIII installed if the Austrian Army is at Arras (1) "
		       "in a Housekeeping Phase of the White deck"},
	{"10.3", "10.3", "Nothing is Free: each successful To the Barricades! adds one to Monarchy (Blue deck) "
			 "or Despotism (White, Red)"},
	{"10.4", "10.4", "A Single Battalion Sometimes Decides the Day: once a turn, commit the last reserves "
			 "and reroll a Military Action, for -1 next turn"},
	{"10.5", "10.5", "He who fears being conquered is sure of defeat: place Disorder in Paris for an extra "
			 "Military Action or +1 after the roll, inside France"},
	{"10.6", "10.6", "Decisive Military Outcomes: a natural 6 disorganizes or routs, a natural 1 may let "
			 "the Army advance"},
	{"napoleon-historical", "5.0", "Napoleon only on the Piedmont and Austrian tracks (historical limit)"},
	{NULL, NULL, NULL},
};

static int options_view(json_t *v, const json_t *state)
{
	json_t *all = json_array(), *on = json_array();
	int d = est_rules_int(json_object_get(state, "options"), "difficulty", 0);

	if (!all || !on) {
		json_decref(all);
		json_decref(on);
		return -1;
	}
	for (size_t i = 0; option_list[i].key; i++) {
		int set = lem_option(state, option_list[i].key);
		json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:o}", "key", option_list[i].key, "rule",
				      option_list[i].rule, "title", option_list[i].title, "on", set, "text",
				      owned(est_strdup_printf("%s %s: %s", option_list[i].rule, set ? "on" : "off",
							      option_list[i].title)));
		if (!o || (set && json_array_append(on, o) < 0) || json_array_append_new(all, o) < 0) {
			json_decref(all);
			json_decref(on);
			return -1;
		}
	}
	if (json_object_set_new(v, "options", all) < 0 || json_object_set_new(v, "options_on", on) < 0)
		return -1;
	return json_object_set_new(v, "difficulty", json_integer(d)) < 0 ||
	       json_object_set_new(v, "difficulty_text", json_string(
		       d < 0 ? "13.0 easier: one more Action every fifth card played" :
		       d > 0 ? "13.0 harder: one Action fewer every fifth card played" :
		       "13.0 standard: the Actions the cards give")) < 0 ? -1 : 0;
}

/* One condition of victory or defeat in force: {rule, outcome, text}. */
static int condition(json_t *list, const char *rule, const char *outcome, char *text)
{
	json_t *c = text ? json_pack("{s:s, s:s, s:s}", "rule", rule, "outcome", outcome, "text", text) : NULL;

	free(text);
	return c && json_array_append_new(list, c) == 0 ? 0 : -1;
}

/*
 * The victory and defeat conditions this game plays with: the base game's (9.0, which the
 * Expansion Kit leaves "unchanged regardless of Option, Scenario, or varied Level of Difficulty";
 * rebuilt in RULINGS.md M8) and the optional 9.1 and 9.2 when in force.
 */
static int conditions_view(json_t *v, const json_t *state, const json_t *rules)
{
	const json_t *g;
	json_t *list = json_array();
	char *grades = NULL;
	size_t i;
	int error = list ? 0 : -1;

	json_array_foreach(json_object_get(lem_table(rules, "victory"), "grades"), i, g)
		if (!error && est_rules_join(&grades, ", ", "%s at %+d or more", est_rules_str(g, "grade"),
					     est_rules_int(g, "republic", 0)) < 0)
			error = -1;
	if (!error)
		error = condition(list, "9.0, RULINGS.md M8", "victory", est_strdup_printf("the decks run out with the "
				  "Republic the single highest Political marker; graded by its level: %s",
				  grades ? grades : "Victory"));
	if (!error)
		error = condition(list, "9.0, RULINGS.md M8", "defeat", strdup("the decks run out and the Republic is "
				  "not the single highest Political marker"));
	if (!error)
		error = condition(list, "9.0, RULINGS.md M8", "defeat", strdup("an enemy Army stands in Paris at the "
				  "end of a turn (checked in the Housekeeping Phase)"));
	if (!error)
		error = condition(list, "9.0, RULINGS.md M8", "defeat", est_strdup_printf("the Republic marker is at "
				  "%+d in a Housekeeping Phase", est_rules_int(lem_table(rules, "political_range"),
									       "min", -1)));
	if (!error && lem_option(state, "9.1"))
		error = condition(list, "9.1 (optional)", "Crushing Defeat", strdup("the Vendée Army is in the "
				  "Versailles (1) space in a Housekeeping Phase while the Blue deck is in play"));
	if (!error && lem_option(state, "9.2"))
		error = condition(list, "9.2 (optional)", "Decisive Defeat", strdup("the Austrian Army is in the "
				  "Arras (1) space in a Housekeeping Phase while the White deck is in play"));
	free(grades);
	if (error || json_object_set_new(v, "conditions", list) < 0) {
		json_decref(list);
		return -1;
	}
	return 0;
}

/* The cards still to come, by pile; never their order (the state does not hold it). */
static int decks_view(json_t *v, const json_t *state)
{
	static const char *const piles[] = {"Blue", "White", "Red", "All", "Ordered", NULL};
	const json_t *deck = json_object_get(state, "deck");
	json_t *list = json_array();
	char *text = NULL;
	size_t total = 0;

	for (const char *const *p = piles; list && *p; p++) {
		const json_t *pile = json_object_get(deck, *p);
		/* A sealed game's pile is a commitment with its count (seal.c). */
		size_t n = (size_t)est_rules_pile_count(pile);
		char *t;
		if (!pile)
			continue;
		total += n;
		t = est_strdup_printf("%s %zu", strcmp(*p, "All") == 0 ? "one shuffled deck" :
				      strcmp(*p, "Ordered") == 0 ? "in sequence" : *p, n);
		if (!t || append(&text, ", ", t) < 0 ||
		    json_array_append_new(list, json_pack("{s:s, s:i, s:s}", "pile", *p, "left", (int)n,
							  "text", t)) < 0) {
			free(t);
			free(text);
			json_decref(list);
			return -1;
		}
		free(t);
	}
	if (!list)
		return -1;
	json_object_set_new(v, "decks", list);
	json_object_set_new(v, "cards_left", json_integer((json_int_t)total));
	if (!text)
		text = strdup(strcmp(est_rules_str(state, "phase") ? est_rules_str(state, "phase") : "", "start") == 0 ?
			      "not dealt yet (step 1 deals them)" : "no cards left");
	return json_object_set_new(v, "decks_text", owned(text)) < 0 ? -1 : 0;
}

static json_t *card_view(const json_t *state, const json_t *rules)
{
	const char *id = est_rules_str(state, "current");
	const json_t *card = lem_card(rules, id);
	int expansion = flag(card, "expansion");

	if (!card)
		return json_null();
	return json_pack("{s:s, s:i, s:s?, s:s?, s:b, s:i, s:o}", "id", id, "number", est_rules_int(card, "number", 0),
			 "deck", est_rules_str(card, "deck"), "title", est_rules_str(card, "title"), "expansion", expansion,
			 "actions", est_rules_int(card, "actions", 0), "text",
			 owned(est_strdup_printf("#%d %s (%s deck%s), %d Action%s printed",
						 est_rules_int(card, "number", 0), est_rules_str(card, "title"),
						 est_rules_str(card, "deck"), expansion ? ", Expansion Kit" : "",
						 est_rules_int(card, "actions", 0),
						 est_rules_int(card, "actions", 0) == 1 ? "" : "s")));
}

static const char *napoleon_with(const json_t *state)
{
	return est_rules_str(json_object_get(state, "napoleon"), "with");
}

/* "Russian Army under Suvorov [4], stationary, disorganized (10.6.1), with Napoleon". */
static char *unit_text(const json_t *rules, const json_t *army, const char *value_text, int napoleon)
{
	const char *status = est_rules_str(army, "status");

	return est_strdup_printf("%s %s%s%s%s%s%s", lem_army_name(rules, est_rules_str(army, "id")), value_text,
				 flag(army, "stationary") ? ", stationary" : "",
				 status && strcmp(status, "normal") != 0 ? ", " : "",
				 status && strcmp(status, "normal") != 0 ?
				 (strcmp(status, "routed") == 0 ? "routed (10.6.1)" : "disorganized (10.6.1)") : "",
				 flag(army, "flipped") ? ", flipped: last reserves committed (10.4)" :
				 flag(army, "rotated") ? ", rotated by card #9 (10.6 does not apply)" : "",
				 napoleon ? ", with Napoleon" : "");
}

/* One Army for the text and the map; `k` is its place in its box (for the counter's y). */
static json_t *unit_view(const json_t *state, const json_t *rules, const json_t *army, int k)
{
	const char *id = est_rules_str(army, "id"), *track = est_rules_str(army, "track"), *why = NULL, *with;
	int box = est_rules_int(army, "box", -1), on = lem_on_map(army), value = est_rules_int(army, "value", 0);
	int napoleon = (with = napoleon_with(state)) && id && strcmp(with, id) == 0;
	int can = lem_attackable(&why, NULL, state, rules, army);
	int x = BOX_X0 + (lem_track_length(rules, track) - box) * BOX_STEP - COUNTER_W / 2;
	int y = ROW_Y0 - 12 + k * (COUNTER_H + 3);
	char value_text[24];
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "tracks"), "tracks"), i, t)
		if (track && est_rules_str(t, "name") && strcmp(est_rules_str(t, "name"), track) == 0)
			y += (int)i * ROW_H;
	snprintf(value_text, sizeof(value_text), flag(army, "stationary") ? "[%d]" : "%d", value);
	return json_pack("{s:s?, s:s, s:s?, s:o, s:s, s:b, s:i, s:s, s:b, s:s?, s:b, s:b, s:b, s:b, s:s?,"
			 " s:o, s:o, s:i, s:i, s:i, s:i, s:i, s:i}",
			 "id", id, "name", lem_army_name(rules, id), "track", track,
			 "box", on ? json_integer(box) : json_null(),
			 "box_name", on ? lem_box_name(rules, track, box) : "off the map", "on_map", on,
			 "value", value, "value_text", value_text, "stationary", flag(army, "stationary"),
			 "status", est_rules_str(army, "status"), "flipped", flag(army, "flipped"),
			 "rotated", flag(army, "rotated"), "napoleon", napoleon, "attackable", can, "why", why,
			 "text", owned(unit_text(rules, army, value_text, napoleon)),
			 "short", owned(est_strdup_printf("%s %s%s", id, value_text, napoleon ? " N" : "")),
			 "x", x, "y", y, "w", COUNTER_W, "h", COUNTER_H, "tx", x + COUNTER_W / 2,
			 "ty", y + COUNTER_H - 5);
}

static int push(json_t *list, json_t *item)
{
	return item && json_array_append_new(list, item) == 0 ? 0 : -1;
}

/* The boxes of one track, from the highest to 1, then Paris (0), with their units. */
static json_t *track_view(const json_t *state, const json_t *rules, const char *track, int row)
{
	int n = lem_track_length(rules, track), y = ROW_Y0 + row * ROW_H, vendee = strcmp(track, "Vendée") == 0;
	json_t *boxes = json_array(), *units;

	for (int b = n; boxes && b >= 0; b--) {
		int x = BOX_X0 + (n - b) * BOX_STEP, square = b == 0 || lem_square(rules, track, b), k = 0, occupied;
		json_t *units_text;
		int british = vendee && b > 0 && json_is_integer(json_object_get(state, "british_support")) &&
			      est_rules_int(state, "british_support", -1) == b;
		const json_t *a;
		char *text = NULL;
		size_t i;

		units = json_array();
		json_array_foreach(json_object_get(state, "armies"), i, a) {
			json_t *u;
			if (!units || !lem_on_map(a) || est_rules_int(a, "box", -1) != b ||
			    strcmp(est_rules_str(a, "track"), track) != 0)
				continue;
			/* The box's list owns the unit; its text stays valid while the list lives. */
			u = unit_view(state, rules, a, k++);
			if (push(units, u) < 0 || append(&text, "; ", est_rules_str(u, "text")) < 0)
				goto fail;
		}
		if (british && append(&text, "; ", "the British Support marker (5.0)") < 0)
			goto fail;
		occupied = text != NULL;
		units_text = owned(text ? text : strdup(""));
		text = NULL;
		if (push(boxes, json_pack("{s:i, s:s, s:b, s:b, s:s?, s:o, s:b, s:o, s:b, s:o, s:i, s:i, s:i,"
					  " s:i, s:i, s:i, s:i, s:i}",
					  "box", b, "name", lem_box_name(rules, track, b), "square", square,
					  "paris", b == 0, "shape", b == 0 ? NULL : square ? "■" : "○", "units", units,
					  "occupied", occupied, "units_text", units_text,
					  "british_support", british,
					  "label", owned(b == 0 ? strdup("Paris (0)") :
							 est_strdup_printf("%d %s", b, lem_box_name(rules, track, b))),
					  "x", x, "y", y, "left", x - BOX_HALF, "top", y - BOX_HALF, "size",
					  2 * BOX_HALF, "r", BOX_HALF, "name_y", y - BOX_HALF - 6,
					  "number_y", y + BOX_HALF - 6)) < 0) {
			units = NULL;
			goto fail;
		}
		continue;
fail:
		free(text);
		json_decref(units);
		json_decref(boxes);
		return NULL;
	}
	return json_pack("{s:s, s:i, s:o, s:i, s:i, s:i, s:i}", "name", track, "length", n, "boxes", boxes,
			 "label_y", y + 5, "line_y", y, "road_x1", BOX_X0, "road_x2", BOX_X0 + n * BOX_STEP);
}

static int tracks_view(json_t *v, const json_t *state, const json_t *rules)
{
	json_t *list = json_array(), *t;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "tracks"), "tracks"), i, t)
		if (!list || push(list, track_view(state, rules, est_rules_str(t, "name"), (int)i)) < 0) {
			json_decref(list);
			return -1;
		}
	return json_object_set_new(v, "tracks", list) < 0 ? -1 : 0;
}

/* Every Army: all of them, those off the map, and 7.2's who may be attacked now and who not. */
static int armies_view(json_t *v, const json_t *state, const json_t *rules)
{
	json_t *all = json_array(), *off = json_array(), *can = json_array(), *cannot = json_array();
	const json_t *a;
	size_t i;
	int error = 0;

	json_array_foreach(json_object_get(state, "armies"), i, a) {
		json_t *u = unit_view(state, rules, a, 0);
		if (!all || !off || !can || !cannot || !u) {
			json_decref(u);
			error = -1;
			break;
		}
		if (!lem_on_map(a))
			json_array_append(off, u);
		else
			json_array_append(flag(u, "attackable") ? can : cannot, u);
		json_array_append_new(all, u);
	}
	if (!all || !off || !can || !cannot)
		error = -1;
	if (error == 0 && (json_object_set(v, "armies", all) < 0 || json_object_set(v, "off_map", off) < 0 ||
			   json_object_set(v, "attackable", can) < 0 || json_object_set(v, "not_attackable", cannot) < 0))
		error = -1;
	json_decref(all);
	json_decref(off);
	json_decref(can);
	json_decref(cannot);
	return error;
}

/* The Political track: each marker, which is highest (or the tie) and the DRMs that gives. */
static json_t *political_view(const json_t *state, const json_t *rules)
{
	const json_t *p = json_object_get(state, "political");
	const json_t *range = lem_table(rules, "political_range");
	const char *high = lem_highest(state);
	const json_t *drm = json_object_get(lem_table(rules, "political_drm"), high ? high : "");
	int min = est_rules_int(range, "min", -1), top = -100, military = est_rules_int(drm, "military", 0);
	int political = est_rules_int(drm, "political", 0), k = 0;
	json_t *list = json_array();

	for (const char *const *m = markers; *m; m++)
		if (est_rules_int(p, *m, 0) > top)
			top = est_rules_int(p, *m, 0);
	for (const char *const *m = markers; list && *m; m++, k++) {
		int value = est_rules_int(p, *m, 0), x = BAR_X + (value - min) * BAR_CELL + 4;
		if (push(list, json_pack("{s:s, s:i, s:o, s:b, s:s#, s:i, s:i, s:i, s:i}", "marker", *m, "value",
					 value, "value_text", owned(est_strdup_printf("%+d", value)),
					 "highest", value == top, "initial", *m, 3, "x", x,
					 "y", BAR_Y + 22 + k * 20, "tx", x + (BAR_CELL - 8) / 2,
					 "ty", BAR_Y + 22 + k * 20 + 13)) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return json_pack("{s:o, s:s?, s:b, s:i, s:i, s:o, s:o}", "markers", list, "highest", high, "tie", high == NULL,
			 "military_drm", military, "political_drm", political,
			 "text", owned(high ? est_strdup_printf("%s is highest", high) :
				       strdup("two or more markers tie for highest")),
			 "drm_text", owned(high ? est_strdup_printf("%+d to Military Actions, %+d to Political Actions",
								   military, political) :
					   strdup("no DRM: no single marker is highest")));
}

/* The Political track as a bar of cells from the track's minimum to its maximum, for map.svg. */
static json_t *bar_view(const json_t *rules)
{
	const json_t *range = lem_table(rules, "political_range");
	int min = est_rules_int(range, "min", -1), max = est_rules_int(range, "max", 4);
	json_t *cells = json_array();

	for (int c = min; cells && c <= max; c++)
		if (push(cells, json_pack("{s:o, s:i, s:i, s:i}", "text", owned(est_strdup_printf("%+d", c)),
					  "x", BAR_X + (c - min) * BAR_CELL, "tx", BAR_X + (c - min) * BAR_CELL +
					  BAR_CELL / 2, "w", BAR_CELL)) < 0) {
			json_decref(cells);
			return NULL;
		}
	return json_pack("{s:o, s:i, s:i, s:i, s:i, s:i}", "cells", cells, "y", BAR_Y, "h", 84, "label_y",
			 BAR_Y + 14, "label_x", BAR_X - 12, "width", (max - min + 1) * BAR_CELL);
}

/* Whether Napoleon's Army stands in a box from which he may be detached in triumph (5.0). */
static int triumph(const json_t *state, const json_t *rules)
{
	const json_t *army = lem_army(state, napoleon_with(state)), *b;
	size_t i;

	json_array_foreach(json_object_get(lem_table(rules, "napoleon"), "triumph_boxes"), i, b)
		if (army && lem_on_map(army) && est_rules_int(army, "box", -1) == json_integer_value(b))
			return 1;
	return 0;
}

static json_t *napoleon_view(const json_t *state, const json_t *rules)
{
	const json_t *nap = json_object_get(state, "napoleon");
	const char *with = napoleon_with(state);
	const json_t *army = lem_army(state, with);
	int turn = (int)json_array_size(json_object_get(state, "played")), in_play = json_is_object(nap);
	int recalled = in_play && est_rules_int(nap, "recalled", -1) == turn, detach = with && triumph(state, rules);
	char *text;

	if (!in_play)
		text = strdup("not in play (card E44 brings him)");
	else if (!with)
		text = est_strdup_printf("in the Holding Box%s", recalled ? "; detached this turn, he cannot be "
					 "redeployed until a later turn (5.0)" : "; he may be assigned to any Army at "
					 "no Action cost (5.0)");
	else
		text = est_strdup_printf("with the %s in %s (%d): +1 to Military Actions against it, -1 to all "
					 "Political Actions (5.0)%s", lem_army_name(rules, with),
					 lem_box_name(rules, est_rules_str(army, "track"), est_rules_int(army, "box", 0)),
					 est_rules_int(army, "box", 0), detach ? "; he may be detached in triumph at the "
					 "beginning of the Action Phase" : "; he may be detached in triumph only from "
					 "the '4' or '5' space");
	return json_pack("{s:b, s:b, s:s?, s:s?, s:O?, s:b, s:b, s:o, s:o}", "in_play", in_play, "holding",
			 in_play && !with, "with", with, "with_name", with ? lem_army_name(rules, with) : NULL,
			 "box", army ? json_object_get(army, "box") : NULL, "can_detach", detach,
			 "can_assign", in_play && !with && !recalled, "text", owned(text),
			 "short", owned(!in_play ? strdup("not in play") : !with ? strdup("in the Holding Box") :
					est_strdup_printf("with the %s", lem_army_name(rules, with))));
}

/* The DRMs in force this turn, each with its source. */
static json_t *drms_view(const json_t *state, const json_t *rules)
{
	const char *high = lem_highest(state), *with = napoleon_with(state);
	const json_t *drm = json_object_get(lem_table(rules, "political_drm"), high ? high : "");
	json_t *list = json_array();
	int ok = list != NULL;

#define DRM(cond, ...) do { if (ok && (cond)) \
	ok = push(list, json_pack("{s:o}", "text", owned(est_strdup_printf(__VA_ARGS__)))) == 0; } while (0)
	DRM(high && est_rules_int(drm, "military", 0), "%+d to Military Actions: %s is highest",
	    est_rules_int(drm, "military", 0), high);
	DRM(high && est_rules_int(drm, "political", 0), "%+d to Political Actions: %s is highest",
	    est_rules_int(drm, "political", 0), high);
	DRM(flag(state, "disorder"), "%+d to Military Actions: Disorder in Paris",
	    est_rules_int(lem_table(rules, "military"), "disorder_drm", -1));
	DRM(with, "%+d to Military Actions against the %s, %+d to all Political Actions: Napoleon campaigns (5.0)",
	    est_rules_int(lem_table(rules, "napoleon"), "military_drm", 1), lem_army_name(rules, with),
	    est_rules_int(lem_table(rules, "napoleon"), "political_drm", -1));
	DRM(json_is_integer(json_object_get(state, "british_support")),
	    "%+d to Military Actions against an Army in the Vendée track's '%d' space: British Support (5.0)",
	    est_rules_int(lem_table(rules, "british_support"), "military_drm", -1), est_rules_int(state, "british_support", 0));
	DRM(est_rules_int(state, "card_drm", 0), "%+d to Military Actions this turn: the Headline card",
	    est_rules_int(state, "card_drm", 0));
	DRM(est_rules_int(state, "drm_now", 0), "%+d to Military Actions this turn: the last reserves were committed "
	    "last turn (10.4)", est_rules_int(state, "drm_now", 0));
#undef DRM
	if (!ok)
		json_decref(list);
	return ok ? list : NULL;
}

/* The first Army on the map `keep` accepts, or NULL. */
static const char *first_army(const json_t *state, const json_t *rules,
			      int (*keep)(const json_t *state, const json_t *rules, const json_t *army))
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a)
		if (lem_on_map(a) && keep(state, rules, a))
			return est_rules_str(a, "id");
	return NULL;
}

static int any(const json_t *state, const json_t *rules, const json_t *army)
{
	(void)state;
	(void)rules;
	(void)army;
	return 1;
}

static int may_attack(const json_t *state, const json_t *rules, const json_t *army)
{
	const char *why;

	return lem_attackable(&why, NULL, state, rules, army);
}

static int inside_france(const json_t *state, const json_t *rules, const json_t *army)
{
	(void)state;
	return lem_square(rules, est_rules_str(army, "track"), est_rules_int(army, "box", 0));
}

/* To the Barricades! and Liberation push back any Army but one in its highest box (10.6.1). */
static int free_target(const json_t *state, const json_t *rules, const json_t *army)
{
	const char *why;

	return !flag(army, "stationary") && lem_free_target(&why, NULL, state, rules, army);
}

static int barricades_target(const json_t *state, const json_t *rules, const json_t *army)
{
	return inside_france(state, rules, army) && free_target(state, rules, army);
}

/* 10.5 serves only in a Military Action against an Army inside France, which 7.2 must allow. */
static int attack_inside_france(const json_t *state, const json_t *rules, const json_t *army)
{
	return inside_france(state, rules, army) && may_attack(state, rules, army);
}

/* 5.0, and the historical limit when the game plays with it. */
static int napoleon_may_join(const json_t *state, const json_t *rules, const json_t *army)
{
	const char *track = est_rules_str(army, "track");

	(void)rules;
	return !lem_option(state, "napoleon-historical") ||
	       (track && (strcmp(track, "Piedmont") == 0 || strcmp(track, "Austrian") == 0));
}

/*
 * One choice per Army on the map `keep` accepts: {"type": `type`, "army"
 * (or "assign" for Napoleon): its id, `key`: `value` when key is given}.
 */
static int army_choices(json_t *c, const json_t *state, const json_t *rules,
			int (*keep)(const json_t *state, const json_t *rules, const json_t *army),
			const char *type, const char *key, const char *value, const char *what)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a) {
		if (!lem_on_map(a) || !keep(state, rules, a))
			continue;
		json_t *order = json_pack("{s:s, s:O}", "type", type, strcmp(type, "napoleon") == 0 ? "assign" :
					  "army", json_object_get(a, "id"));
		if (order && key && value)
			json_object_set_new(order, key, json_string(value));
		if (est_rules_choice(c, order, "%s: the %s Army", what, est_rules_str(a, "id")) < 0)
			return est_error_code();
	}
	return 0;
}

json_t *lem_choices(const json_t *state, const json_t *rules)
{
	json_t *c = json_array(), *napoleon = napoleon_view(state, rules);
	int free_rolls = est_rules_int(lem_table(rules, "barricades"), "free_per_turn", 1) -
			 est_rules_int(state, "barricades_used", 0), error = c && napoleon ? 0 : EST_ENOMEM;

	if (!error)
		error = army_choices(c, state, rules, may_attack, "military", NULL, NULL,
				     "1 Action, a Military Action (7.2) against");
	if (!error && lem_option(state, "10.4") && !flag(state, "reserves_used"))
		error = army_choices(c, state, rules, may_attack, "military", "reserves", "if-fails",
				     "the same, with the reserves if it fails (10.4), against");
	if (!error && lem_option(state, "10.5") && !flag(state, "disorder"))
		error = army_choices(c, state, rules, attack_inside_france, "military", "disorder", "extra",
				     "no Action, risking Disorder in Paris (10.5), against");
	for (size_t i = 0; !error && markers[i]; i++)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "political", "marker", markers[i]),
					 "1 Action: the %s marker %s", markers[i],
					 i == 0 ? "goes up" : "goes down");
	if (!error && flag(state, "disorder"))
		error = est_rules_choice(c, json_pack("{s:s}", "type", "restore-order"),
					 "1 Action: restore order in Paris");
	if (!error && free_rolls > 0)
		error = army_choices(c, state, rules, barricades_target, "barricades", NULL, NULL,
				     "free, once a turn: barricades (10.3) against");
	if (!error && est_rules_int(state, "liberation", 0) > 0)
		error = army_choices(c, state, rules, free_target, "liberation", NULL, NULL,
				     "a Liberation marker against");
	if (!error && flag(napoleon, "can_assign"))
		error = army_choices(c, state, rules, napoleon_may_join, "napoleon", NULL, NULL,
				     "free, first order only: Napoleon joins (5.0)");
	if (!error && flag(napoleon, "can_detach"))
		error = est_rules_choice(c, json_pack("{s:s, s:b}", "type", "napoleon", "detach", 1),
					 "free, first order only: Napoleon leaves his Army (5.0)");
	json_decref(napoleon);
	if (error < 0) {
		json_decref(c);
		return NULL;
	}
	return c;
}

/* What the order examples may show: real Army ids, and only the options this game plays with. */
static json_t *orders_view(const json_t *state, const json_t *rules, const json_t *napoleon, int free_rolls)
{
	const char *square = first_army(state, rules, barricades_target);
	const char *target = first_army(state, rules, attack_inside_france);

	return json_pack("{s:s?, s:s?, s:s?, s:s?, s:b, s:b, s:b, s:b, s:b, s:s?, s:b}",
			 "army", first_army(state, rules, may_attack), "square_army", square,
			 "disorder_army", target, "any_army", first_army(state, rules, any),
			 "reserves", lem_option(state, "10.4") && !flag(state, "reserves_used"),
			 "disorder", lem_option(state, "10.5") && !flag(state, "disorder") && target,
			 "restore_order", flag(state, "disorder"), "barricades", free_rolls > 0 && square,
			 "liberation", est_rules_int(state, "liberation", 0) > 0 && first_army(state, rules, free_target),
			 "napoleon_assign", flag(napoleon, "can_assign") ? first_army(state, rules, napoleon_may_join) :
			 NULL, "napoleon_detach", flag(napoleon, "can_detach"));
}

static json_t *result_view(const json_t *state)
{
	const json_t *r = json_object_get(state, "result");

	if (!json_is_object(r))
		return json_null();
	return json_pack("{s:s?, s:s?, s:s?, s:i, s:b, s:o}", "outcome", est_rules_str(r, "outcome"), "grade",
			 est_rules_str(r, "grade"), "reason", est_rules_str(r, "reason"), "turns", est_rules_int(r, "turns", 0),
			 "victory", est_rules_str(r, "outcome") && strcmp(est_rules_str(r, "outcome"), "victory") == 0,
			 "text", owned(est_strdup_printf("%s: %s", est_rules_str(r, "grade") ? est_rules_str(r, "grade") : "over",
							 est_rules_str(r, "reason") ? est_rules_str(r, "reason") : "")));
}

/* json_object_set_new that fails on a NULL value (an allocation that failed earlier). */
static int put(json_t *v, const char *key, json_t *value)
{
	return value && json_object_set_new(v, key, value) == 0 ? 0 : -1;
}

static int markers_view(json_t *v, const json_t *state, const json_t *rules)
{
	const json_t *bs = json_object_get(state, "british_support");
	int free_rolls = est_rules_int(lem_table(rules, "barricades"), "free_per_turn", 1) -
			 est_rules_int(state, "barricades_used", 0);
	json_t *napoleon = napoleon_view(state, rules);

	if (free_rolls < 0)
		free_rolls = 0;
	if (put(v, "disorder", json_boolean(flag(state, "disorder"))) < 0 ||
	    put(v, "disorder_text", json_string(flag(state, "disorder") ? "Disorder in Paris" :
						"Paris is in order")) < 0 ||
	    put(v, "liberation", json_integer(est_rules_int(state, "liberation", 0))) < 0 ||
	    put(v, "british_support", json_is_integer(bs) ?
		json_pack("{s:O, s:s, s:o}", "box", bs, "name", lem_box_name(rules, "Vendée", (int)json_integer_value(bs)),
			  "text", owned(est_strdup_printf("on the Vendée track's '%d' space, %s",
							  (int)json_integer_value(bs),
							  lem_box_name(rules, "Vendée", (int)json_integer_value(bs))))) :
		json_null()) < 0 ||
	    put(v, "actions", json_integer(est_rules_int(state, "actions", 0))) < 0 ||
	    put(v, "free_barricades", json_integer(free_rolls)) < 0 ||
	    put(v, "drms", drms_view(state, rules)) < 0 ||
	    put(v, "orders", orders_view(state, rules, napoleon, free_rolls)) < 0) {
		json_decref(napoleon);
		return -1;
	}
	return put(v, "napoleon", napoleon);
}

int lem_view(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	const char *phase = est_rules_str(state, "phase");
	json_t *v = json_object();

	/* Solitaire, and nothing hidden in the state: the player and the public see the same. */
	(void)power;
	if (!v || options_view(v, state) < 0 || conditions_view(v, state, rules) < 0 || decks_view(v, state) < 0 || tracks_view(v, state, rules) < 0 ||
	    armies_view(v, state, rules) < 0 || markers_view(v, state, rules) < 0 ||
	    put(v, "scenario", json_pack("s?", est_rules_str(state, "scenario"))) < 0 ||
	    put(v, "scenario_text", json_string(scenario_text(est_rules_str(state, "scenario")))) < 0 ||
	    put(v, "phase", json_pack("s?", phase)) < 0 ||
	    put(v, "awaits_orders", json_boolean(phase && strcmp(phase, "actions") == 0)) < 0 ||
	    put(v, "over", json_boolean(phase && strcmp(phase, "over") == 0)) < 0 ||
	    put(v, "result", result_view(state)) < 0 ||
	    put(v, "turn", json_integer((json_int_t)est_rules_pile_count(json_object_get(state, "played")))) < 0 ||
	    put(v, "card", card_view(state, rules)) < 0 ||
	    put(v, "political", political_view(state, rules)) < 0 ||
	    put(v, "map", json_pack("{s:i, s:i, s:o}", "width", MAP_W, "height", MAP_H, "bar", bar_view(rules))) < 0) {
		json_decref(v);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*out = v;
	return 0;
}
