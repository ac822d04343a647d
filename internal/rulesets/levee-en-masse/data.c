/*
 * Levée en Masse: the rules data checked once, at set-up. A GM may bring
 * their own files (`new --rules DIR`); whatever the rules code later reads
 * without a second look is checked here, with the file, the field and the
 * fix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

static const char *const colors[] = {"Blue", "White", "Red", NULL};
static const char *const markers[] = {"Republic", "Monarchy", "Despotism", NULL};

static int check_tracks(const json_t *rules)
{
	const json_t *t, *b;
	size_t i, j;

	json_array_foreach(json_object_get(json_object_get(rules, "tracks"), "tracks"), i, t) {
		if (!est_rules_str(t, "name") || lem_track(rules, est_rules_str(t, "name")) != t ||
		    json_array_size(json_object_get(t, "boxes")) == 0)
			return est_error_set(EST_EINVAL, "rules/tracks.json: field \"tracks[%zu]\" needs a \"name\" "
					     "of its own and \"boxes\"; fix the data", i);
		json_array_foreach(json_object_get(t, "boxes"), j, b)
			if (est_rules_int(b, "box", 0) != (int)j + 1 || !est_rules_str(b, "name") ||
			    (json_object_get(b, "square") && !json_is_boolean(json_object_get(b, "square"))))
				return est_error_set(EST_EINVAL, "rules/tracks.json: field \"tracks[%zu].boxes[%zu]\" "
						     "must be box %zu (boxes count from 1, nearest Paris) with a "
						     "\"name\" and, if any, \"square\" true or false; fix the data",
						     i, j, j + 1);
	}
	return 0;
}

/* `v` as JSON text, cut to fit `len`, for a refusal that shows what the file holds. */
static const char *shown(char *buf, size_t len, const json_t *v)
{
	char *text = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	snprintf(buf, len, "%s", v ? (text ? text : "a value") : "missing");
	free(text);
	return buf;
}

/*
 * One Army of armies.json, field by field, so that the refusal names the
 * field that is wrong, what it holds and what it must hold.
 */
static int check_army(const json_t *rules, const json_t *a, size_t i)
{
	const char *track = est_rules_str(a, "track");
	const json_t *box = json_object_get(a, "box"), *value = json_object_get(a, "value");
	const json_t *stationary = json_object_get(a, "stationary");
	char got[64];
	int length = lem_track_length(rules, track);

	if (!est_rules_str(a, "id"))
		return est_error_set(EST_EINVAL, "rules/armies.json: field \"armies[%zu].id\" is %s; it must be the "
				     "Army's id, a string (\"austrian\"); fix the data", i,
				     shown(got, sizeof(got), json_object_get(a, "id")));
	if (!lem_track(rules, track))
		return est_error_set(EST_EINVAL, "rules/armies.json: field \"armies[%zu].track\" is %s; it must be "
				     "the \"name\" of a track of tracks.json (\"Austrian\"); fix the data", i,
				     shown(got, sizeof(got), json_object_get(a, "track")));
	if (box && !json_is_null(box) &&
	    (!json_is_integer(box) || json_integer_value(box) < 1 || json_integer_value(box) > length))
		return est_error_set(EST_EINVAL, "rules/armies.json: field \"armies[%zu].box\" is %s; it must be a "
				     "box of the %s track, a whole number from 1 to %d, or null (off the map); "
				     "fix the data", i, shown(got, sizeof(got), box), track, length);
	if (!json_is_integer(value) || json_integer_value(value) < 1 || json_integer_value(value) > 12)
		return est_error_set(EST_EINVAL, "rules/armies.json: field \"armies[%zu].value\" is %s; it must be "
				     "the Army's Battle Value, a whole number from 1 to 12 (3, not \"three\"); "
				     "fix the data", i, shown(got, sizeof(got), value));
	if (stationary && !json_is_boolean(stationary))
		return est_error_set(EST_EINVAL, "rules/armies.json: field \"armies[%zu].stationary\" is %s; it "
				     "must be true or false (or left out: false); fix the data", i,
				     shown(got, sizeof(got), stationary));
	return 0;
}

static int check_armies(const json_t *rules)
{
	const json_t *armies = json_object_get(json_object_get(rules, "armies"), "armies"), *a, *other;
	size_t i, j;
	int error;

	json_array_foreach(armies, i, a) {
		if ((error = check_army(rules, a, i)) < 0)
			return error;
		json_array_foreach(armies, j, other)
			if (j < i && strcmp(est_rules_str(other, "id"), est_rules_str(a, "id")) == 0)
				return est_error_set(EST_EINVAL, "rules/armies.json: field \"armies[%zu].id\" repeats the "
						     "id \"%s\" of armies[%zu]; give each Army an id of its own; fix the "
						     "data", i, est_rules_str(a, "id"), j);
	}
	return 0;
}

static int army_known(const json_t *rules, const char *id)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "armies"), "armies"), i, a)
		if (id && strcmp(est_rules_str(a, "id"), id) == 0)
			return 1;
	return 0;
}

/* A card's events: known types, with the armies and boxes they name. */
static int check_events(const json_t *rules, const json_t *card, size_t i)
{
	static const char *const types[] = {"enter", "british-support", "napoleon", "rotate", "disorder",
					    "liberation", "drm", NULL};
	const json_t *e;
	size_t j;

	json_array_foreach(json_object_get(card, "events"), j, e) {
		const char *type = est_rules_str(e, "type"), *army = est_rules_str(e, "army");
		int ok = est_rules_listed(types, type);
		if (ok && (strcmp(type, "enter") == 0 || strcmp(type, "rotate") == 0))
			ok = army_known(rules, army);
		if (ok && strcmp(type, "enter") == 0) {
			const json_t *a = NULL, *x;
			size_t k;
			json_array_foreach(json_object_get(json_object_get(rules, "armies"), "armies"), k, x)
				if (strcmp(est_rules_str(x, "id"), army) == 0)
					a = x;
			ok = est_rules_int(e, "box", 0) >= 1 && est_rules_int(e, "box", 0) <= lem_track_length(rules, est_rules_str(a, "track"));
		}
		if (ok && strcmp(type, "drm") == 0)
			ok = json_is_integer(json_object_get(e, "military"));
		if (ok && strcmp(type, "british-support") == 0)
			ok = est_rules_int(e, "box", 0) >= 1 && est_rules_int(e, "box", 0) <= lem_track_length(rules, "Vendée");
		if (!ok)
			return est_error_set(EST_EINVAL, "rules/cards.json: field \"cards[%zu].events[%zu]\" must be "
					     "one of enter {army, box}, british-support {box}, napoleon, rotate "
					     "{army}, disorder, liberation, drm {military}, naming armies of "
					     "armies.json and boxes on their tracks; fix the data", i, j);
	}
	return 0;
}

/* Only the fields cards.json documents: a misspelt "advnace" must not pass for a card that advances nothing. */
static int card_fields_ok(const json_t *card)
{
	static const char *const known[] = {"id", "number", "deck", "title", "expansion", "provenance", "actions",
					    "advance", "political", "events", "source", "note", NULL};
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)card, key, v)
		if (!est_rules_listed(known, key))
			return 0;
	return json_object_get(card, "expansion") == NULL || json_is_boolean(json_object_get(card, "expansion"));
}

static int check_cards(const json_t *rules)
{
	const json_t *cards = json_object_get(json_object_get(rules, "cards"), "cards"), *c, *v;
	const char *key;
	size_t i, j;
	int error;

	if (json_array_size(cards) == 0)
		return est_error_set(EST_EINVAL, "rules/cards.json: no \"cards\"; fix the data");
	json_array_foreach(cards, i, c) {
		int ok = est_rules_str(c, "id") && lem_card(rules, est_rules_str(c, "id")) == c && est_rules_listed(colors, est_rules_str(c, "deck")) &&
			 est_rules_str(c, "title") && json_is_integer(json_object_get(c, "number")) &&
			 est_rules_int(c, "actions", -1) >= 0 && est_rules_int(c, "actions", -1) <= 9 && card_fields_ok(c);
		json_array_foreach(json_object_get(c, "advance"), j, v)
			ok &= army_known(rules, json_string_value(v));
		json_object_foreach((json_t *)json_object_get(c, "political"), key, v)
			ok &= est_rules_listed(markers, key) && json_is_integer(v);
		if (!ok)
			return est_error_set(EST_EINVAL, "rules/cards.json: field \"cards[%zu]\" needs an \"id\" of its "
					     "own, a \"number\", a \"deck\" (Blue, White, Red), a \"title\", "
					     "\"actions\" from 0 to 9, \"advance\" naming armies of armies.json and "
					     "\"political\" shifts of Republic, Monarchy, Despotism, and no other "
					     "fields than those (and expansion, provenance, events, source, note); fix "
					     "the data", i);
		if ((error = check_events(rules, c, i)) < 0)
			return error;
	}
	return 0;
}

static int check_tables(const json_t *rules)
{
	static const char *const needed[] = {"political_drm", "political_action", "restore_order", "barricades",
					     "military", "british_support", "napoleon", "decisive", "reserves",
					     "difficulty", "victory", "political_range", NULL};
	static const char *const dice[] = {"political_action", "restore_order", "barricades", "military", NULL};

	for (const char *const *n = needed; *n; n++)
		if (!json_is_object(lem_table(rules, *n)))
			return est_error_set(EST_EINVAL, "rules/tables.json: no table \"%s\"; the rules need %s; "
					     "fix the data", *n, "political_drm, political_action, restore_order, "
					     "barricades, military, british_support, napoleon, decisive, reserves, "
					     "difficulty, victory and political_range");
	for (const char *const *d = dice; *d; d++)
		if (est_rules_int(lem_table(rules, *d), "die", 0) < 2)
			return est_error_set(EST_EINVAL, "rules/tables.json: field \"%s.die\" must be 2 or more; fix "
					     "the data", *d);
	for (const char *const *m = markers; *m; m++)
		if (!json_is_integer(json_object_get(json_object_get(lem_table(rules, "political_drm"), *m), "military")) ||
		    !json_is_integer(json_object_get(json_object_get(lem_table(rules, "political_drm"), *m), "political")))
			return est_error_set(EST_EINVAL, "rules/tables.json: field \"political_drm.%s\" needs "
					     "\"military\" and \"political\" DRMs as integers; fix the data", *m);
	for (const char *const *d = dice; *d; d++)
		if (*d != dice[3] && !json_is_integer(json_object_get(lem_table(rules, *d), "target")))
			return est_error_set(EST_EINVAL, "rules/tables.json: field \"%s.target\" must be an integer; "
					     "fix the data", *d);
	if (est_rules_int(lem_table(rules, "barricades"), "free_per_turn", -1) < 0 ||
	    json_array_size(json_object_get(lem_table(rules, "victory"), "grades")) == 0)
		return est_error_set(EST_EINVAL, "rules/tables.json: \"barricades.free_per_turn\" must be 0 or more "
				     "and \"victory.grades\" must list at least one grade; fix the data");
	if (est_rules_int(lem_table(rules, "political_range"), "min", 0) > -1 ||
	    est_rules_int(lem_table(rules, "political_range"), "max", 0) < 1)
		return est_error_set(EST_EINVAL, "rules/tables.json: field \"political_range\" must run from -1 or "
				     "lower to 1 or higher (the Republic at -1 is defeat); fix the data");
	return 0;
}

int lem_check_rules(const json_t *rules)
{
	static const char *const files[] = {"tracks", "armies", "cards", "tables", "setup", NULL};
	char name[32];
	int error;

	for (const char *const *f = files; *f; f++) {
		snprintf(name, sizeof(name), "%s.json", *f);
		if (!json_is_object(json_object_get(rules, *f)))
			return est_error_set(EST_EINVAL, "rules: Levée en Masse needs %s; restore it", name);
		if ((error = est_rules_check_data(json_object_get(rules, *f), name)) < 0)
			return error;
	}
	if ((error = check_tracks(rules)) < 0 || (error = check_armies(rules)) < 0 ||
	    (error = check_cards(rules)) < 0 || (error = check_tables(rules)) < 0)
		return error;
	for (const char *const *m = markers; *m; m++) {
		const json_t *v = json_object_get(json_object_get(json_object_get(rules, "setup"), "political"), *m);
		if (!json_is_integer(v) || json_integer_value(v) < est_rules_int(lem_table(rules, "political_range"), "min", -1) ||
		    json_integer_value(v) > est_rules_int(lem_table(rules, "political_range"), "max", 4))
			return est_error_set(EST_EINVAL, "rules/setup.json: field \"political.%s\" must be an integer "
					     "on the Political track (tables.json political_range); fix the data", *m);
	}
	if (est_rules_int(json_object_get(rules, "setup"), "liberation", -1) < 0 ||
	    est_rules_int(json_object_get(rules, "setup"), "liberation", -1) > 20 ||
	    (json_object_get(json_object_get(rules, "setup"), "disorder") &&
	     !json_is_boolean(json_object_get(json_object_get(rules, "setup"), "disorder"))))
		return est_error_set(EST_EINVAL, "rules/setup.json: \"liberation\" must be 0 to 20 and \"disorder\" "
				     "true or false; fix the data");
	return 0;
}
