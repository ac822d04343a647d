/*
 * Levée en Masse: a Headline card's effects — its events (the Expansion
 * Kit's new units and markers among them), the Army advances, the Political
 * shifts and the Actions it gives, with 13.0's variation every fifth card.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

int lem_advance(json_t *state, json_t *events, const json_t *rules, json_t *army, const char *why)
{
	const char *id = est_rules_str(army, "id"), *status = est_rules_str(army, "status");
	int box = est_rules_int(army, "box", 0);

	if (!lem_on_map(army) || json_is_true(json_object_get(army, "stationary")))
		return 0;
	/* 10.6.1 Enemy Army Recovery: "a Disorganized Army instead recovers". */
	if (status && strcmp(status, "normal") != 0) {
		const char *now = strcmp(status, "routed") == 0 ? "disorganized" : "normal";
		json_object_set_new(army, "status", json_string(now));
		return est_rules_event(events, json_pack("{s:s, s:s}", "army", id, "status", now), "recover",
				       "%s recovers instead of advancing (10.6.1): now %s", lem_army_name(rules, id),
				       now);
	}
	if (box <= 0)
		return 0;
	json_object_set_new(army, "box", json_integer(box - 1));
	return est_rules_event(events, json_pack("{s:s, s:i}", "army", id, "box", box - 1), "advance",
			       "%s advances to %s (%d)%s (%s)", lem_army_name(rules, id),
			       lem_box_name(rules, est_rules_str(army, "track"), box - 1), box - 1,
			       box - 1 == 0 ? ": it is in Paris" : "", why);
}

/* The Expansion Kit's units and markers enter with their cards (5.0). */
static int enter(json_t *state, json_t *events, const json_t *rules, const json_t *event)
{
	json_t *army = lem_army(state, est_rules_str(event, "army"));
	int box = est_rules_int(event, "box", 0);

	if (!army)
		return est_error_set(EST_ERROR, "rules/cards.json: an \"enter\" event names no army of the state");
	json_object_set_new(army, "box", json_integer(box));
	json_object_set_new(army, "status", json_string("normal"));
	return est_rules_event(events, json_pack("{s:s, s:i}", "army", est_rules_str(army, "id"), "box", box), "enter",
			       "%s enters play on the %s track's '%d' space, %s%s", lem_army_name(rules, est_rules_str(army, "id")),
			       est_rules_str(army, "track"), box, lem_box_name(rules, est_rules_str(army, "track"), box),
			       json_is_true(json_object_get(army, "stationary")) ?
			       ", a Stationary Army with a bracketed Battle Value (5.0)" : "");
}

static int card_event(json_t *state, json_t *events, const json_t *rules, const json_t *event)
{
	const char *type = est_rules_str(event, "type");

	if (strcmp(type, "enter") == 0)
		return enter(state, events, rules, event);
	if (strcmp(type, "british-support") == 0) {
		/* "Regardless of this marker's current location or status, pick it up and place it as directed." */
		json_object_set_new(state, "british_support", json_integer(est_rules_int(event, "box", 1)));
		return est_rules_event(events, NULL, "british-support", "the British Support marker is placed on "
				       "the Vendée track's '%d' space (5.0)", est_rules_int(event, "box", 1));
	}
	if (strcmp(type, "napoleon") == 0) {
		json_object_set_new(state, "napoleon", json_pack("{s:n, s:i}", "with", "recalled", -1));
		return est_rules_event(events, NULL, "napoleon", "Napoleon enters play in the Holding Box (card E44)");
	}
	if (strcmp(type, "rotate") == 0) {
		json_t *army = lem_army(state, est_rules_str(event, "army"));
		json_object_set_new(army, "rotated", json_true());
		return est_rules_event(events, NULL, "rotate", "%s is rotated (5.5.2): 10.6 does not apply to it",
				       lem_army_name(rules, est_rules_str(event, "army")));
	}
	if (strcmp(type, "disorder") == 0) {
		json_object_set_new(state, "disorder", json_true());
		return est_rules_event(events, NULL, "disorder", "Disorder in Paris");
	}
	if (strcmp(type, "liberation") == 0) {
		json_object_set_new(state, "liberation", json_integer(est_rules_int(state, "liberation", 0) + 1));
		return est_rules_event(events, NULL, "liberation", "one more Liberation marker (now %d)",
				       est_rules_int(state, "liberation", 0));
	}
	if (strcmp(type, "drm") == 0) {
		json_object_set_new(state, "card_drm", json_integer(est_rules_int(event, "military", 0)));
		return est_rules_event(events, NULL, "drm", "Military Actions this turn: %+d DRM",
				       est_rules_int(event, "military", 0));
	}
	return est_error_set(EST_ERROR, "rules/cards.json: unknown event \"%s\"", type);
}

/*
 * 13.0 Varying Difficulty: "add an Action every fifth card played" (option
 * difficulty=-1, easier) or "subtract one Action point" (difficulty=1, harder).
 */
static int actions_of(const json_t *state, const json_t *rules, const json_t *card)
{
	int n = est_rules_int(card, "actions", 1), played = (int)json_array_size(json_object_get(state, "played"));
	int every = est_rules_int(lem_table(rules, "difficulty"), "every", 5);
	int d = est_rules_int(json_object_get(state, "options"), "difficulty", 0);

	if (d != 0 && every > 0 && played % every == 0)
		n -= d;
	return n < 0 ? 0 : n;
}

int lem_headline(json_t *state, json_t *events, const json_t *rules, const char *id)
{
	const json_t *card = lem_card(rules, id), *v;
	const char *key;
	size_t i;
	int error;

	json_object_set_new(state, "card_drm", json_integer(0));
	if ((error = est_rules_event(events, json_pack("{s:s, s:s}", "card", id, "deck", est_rules_str(card, "deck")),
				     "headline", "Headline card #%d (%s deck%s): %s", est_rules_int(card, "number", 0),
				     est_rules_str(card, "deck"), json_is_true(json_object_get(card, "expansion")) ?
				     ", Expansion Kit" : "", est_rules_str(card, "title"))) < 0)
		return error;
	json_array_foreach(json_object_get(card, "events"), i, v)
		if ((error = card_event(state, events, rules, v)) < 0)
			return error;
	json_array_foreach(json_object_get(card, "advance"), i, v) {
		json_t *army = lem_army(state, json_string_value(v));
		if (army && (error = lem_advance(state, events, rules, army, "the Headline card")) < 0)
			return error;
	}
	json_object_foreach((json_t *)json_object_get(card, "political"), key, v)
		if ((error = lem_shift(state, events, rules, key, (int)json_integer_value(v), "the Headline card")) < 0)
			return error;
	json_object_set_new(state, "actions", json_integer(actions_of(state, rules, card)));
	return est_rules_event(events, json_pack("{s:i}", "actions", est_rules_int(state, "actions", 0)), "actions",
			       "%d Action%s this turn", est_rules_int(state, "actions", 0),
			       est_rules_int(state, "actions", 0) == 1 ? "" : "s");
}
