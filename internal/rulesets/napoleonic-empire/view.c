/*
 * Napoleonic Empire: what one power (or the public) may see, shaped for the
 * report templates (README.md "View"). No other power's hand, no deck order.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

static json_t *countries(const json_t *state, const json_t *rules)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; list && i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i), *ctl = ne_controller(state, c);
		const json_t *entry = json_array_get(json_object_get(json_object_get(rules, "map"), "countries"), i);
		const char *full = ne_str(entry, "full_name");

		json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:s?, s:b, s:b, s:i}",
						      "name", c, "full_name", full ? full : c,
						      "france", ne_armies(state, c, NE_FRANCE),
						      "allies", ne_armies(state, c, NE_ALLIES),
						      "controller", ctl, "neutral", ctl == NULL,
						      "contested", ne_contested(state, c),
						      "reinforcements", ne_table_value(rules, c)));
	}
	return list;
}

static json_t *hand(const json_t *state, const json_t *rules, const char *power)
{
	json_t *list = json_array(), *v;
	size_t i;

	json_array_foreach(ne_hand(state, power), i, v) {
		const json_t *card = ne_card(rules, json_string_value(v));

		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "id",
						      json_string_value(v), "name",
						      ne_card_name(rules, json_string_value(v)), "kind",
						      ne_str(card, "kind"), "side", ne_str(card, "side"),
						      "effect", ne_str(card, "notes"),
						      "playable", ne_card_playable_by(card, power)));
	}
	return list;
}

static void effect(json_t *list, const char *text)
{
	json_array_append_new(list, json_pack("{s:s}", "text", text));
}

static json_t *effects(const json_t *state)
{
	json_t *list = json_array();
	const json_t *nm = json_object_get(state, "no_move");

	if (json_is_true(json_object_get(state, "continental_system")))
		effect(list, "Continental System: France and England each give 2 fewer reinforcements "
		       "for the rest of the game");
	if (json_is_true(json_object_get(nm, NE_FRANCE)))
		effect(list, "Josephine: the French may not move in their next turn");
	if (json_is_true(json_object_get(nm, NE_ALLIES)))
		effect(list, "Treaty of Tilsit: the Allies may not move in their next turn");
	if (json_is_true(json_object_get(json_object_get(state, "attack"), "extra_turn")))
		effect(list, "An extra turn follows this one");
	if (json_is_true(json_object_get(state, "extra")))
		effect(list, "This is an extra turn: no Reinforcements phase");
	return list;
}

static json_t *standing(const json_t *state, const json_t *rules, const char *power)
{
	json_t *st = json_object_get(json_object_get(state, "standing"), power), *v, *list = json_array();
	const char *c;
	char text[256];

	json_object_foreach(json_object_get(st, "retreats"), c, v) {
		snprintf(text, sizeof(text), "retreat from %s to %s", c, json_string_value(v));
		effect(list, text);
	}
	json_object_foreach(json_object_get(st, "plays"), c, v) {
		/* A standing play whose card has left the hand no longer stands. */
		if (ne_hand_index(state, power, json_string_value(v)) < 0)
			continue;
		snprintf(text, sizeof(text), "play %s when defending %s", ne_card_name(rules, json_string_value(v)), c);
		effect(list, text);
	}
	return list;
}

/* "1 card", "2 cards": templates are logic-less, so the view says it. */
static json_t *count_text(int n, const char *one, const char *many)
{
	char text[64];

	snprintf(text, sizeof(text), "%d %s", n, n == 1 ? one : many);
	return json_string(text);
}

static json_t *side_view(const json_t *state, int counters, const char *side)
{
	int hand = (int)json_array_size(ne_hand(state, side));

	return json_pack("{s:s, s:i, s:i, s:i, s:o}", "side", side, "on_map", ne_on_map(state, side),
			 "off_map", counters - ne_on_map(state, side), "hand", hand,
			 "hand_text", count_text(hand, "card", "cards"));
}

static json_t *sides(const json_t *state, const json_t *rules)
{
	int counters = ne_setup_int(rules, "counters", 80);

	return json_pack("[o, o]", side_view(state, counters, NE_FRANCE),
			 side_view(state, counters, NE_ALLIES));
}

static json_t *retreat_view(const json_t *retreat)
{
	json_t *v;

	if (!json_is_object(retreat))
		return json_null();
	v = json_deep_copy(retreat);
	json_object_set_new(v, "armies_text",
			    count_text((int)json_integer_value(json_object_get(retreat, "armies")),
				       "army", "armies"));
	return v;
}

static json_t *provenance(const json_t *rules)
{
	json_t *list = json_array(), *v;
	const char *file;

	json_object_foreach((json_t *)rules, file, v) {
		const char *p = ne_str(v, "provenance");

		json_array_append_new(list, json_pack("{s:s, s:s, s:b}", "file", file, "provenance",
						      p ? p : "unknown", "placeholder",
						      p && strcmp(p, "placeholder") == 0));
	}
	return list;
}

int ne_view(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	const json_t *att = json_object_get(state, "attack"), *r = json_object_get(state, "retreat");
	int own = ne_side_index(power) >= 0;
	json_t *v;

	v = json_pack("{s:I, s:s, s:b, s:s, s:o, s:o, s:i, s:i, s:o, s:O, s:o, s:O, s:O, s:b, s:o}",
		      "turn", json_integer_value(json_object_get(state, "turn")),
		      "active", ne_str(state, "active"), "extra", json_is_true(json_object_get(state, "extra")),
		      "phase", ne_str(state, "phase"), "countries", countries(state, rules),
		      "sides", sides(state, rules),
		      "deck_count", (int)json_array_size(json_object_get(state, "deck")),
		      "discard_count", (int)json_array_size(json_object_get(state, "discard")),
		      "effects", effects(state),
		      "battles", json_is_object(att) ? json_object_get(att, "battles") : json_null(),
		      "retreat", retreat_view(r),
		      "winner", json_object_get(state, "winner") ? json_object_get(state, "winner") : json_null(),
		      "win_reason", json_object_get(state, "win_reason") ? json_object_get(state, "win_reason") : json_null(),
		      "over", ne_str(state, "winner") != NULL, "provenance", provenance(rules));
	if (!v)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (own && (json_object_set_new(v, "power", json_string(power)) < 0 ||
		    json_object_set_new(v, "hand", hand(state, rules, power)) < 0 ||
		    json_object_set_new(v, "standing", standing(state, rules, power)) < 0)) {
		json_decref(v);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*out = v;
	return 0;
}
