/*
 * Napoleonic Empire: what one power (or the public) may see, shaped for the
 * report templates (README.md "View"). No other power's hand, no deck order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "ne_internal.h"

/*
 * Under control=lapses (R5a) an empty country is nobody's: said so, apart
 * from the countries neutral from the start (R4), which are again as they
 * began (RULINGS.md R40).
 */
static int lapsed(const json_t *state, const json_t *rules, const char *country)
{
	return json_is_true(json_object_get(state, "control_lapses")) && !ne_controller(state, country) &&
	       !est_rules_in_list(json_object_get(json_object_get(rules, "rulings"), "neutral_at_start"), country);
}

static const char *controller_text(const json_t *state, const json_t *rules, const char *country)
{
	const char *ctl = ne_controller(state, country);

	if (ctl)
		return ctl;
	return lapsed(state, rules, country) ? "nobody's (control lapsed)" : "neutral";
}

static json_t *countries(const json_t *state, const json_t *rules)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; list && i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i), *ctl = ne_controller(state, c);
		const json_t *entry = json_array_get(json_object_get(json_object_get(rules, "map"), "countries"), i);
		const char *full = est_rules_str(entry, "full_name");

		json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:s?, s:s, s:b, s:b, s:b, s:i}",
						      "name", c, "full_name", full ? full : c,
						      "france", ne_armies(state, c, NE_FRANCE),
						      "allies", ne_armies(state, c, NE_ALLIES),
						      "controller", ctl, "controller_text", controller_text(state, rules, c),
						      "neutral", ctl == NULL, "lapsed", lapsed(state, rules, c),
						      "contested", ne_contested(state, c),
						      "reinforcements", ne_reinforcement_value(state, rules, ctl, c)));
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
						      est_rules_str(card, "kind"), "side", est_rules_str(card, "side"),
						      "effect", est_rules_str(card, "notes"),
						      "playable", ne_card_playable_by(card, power)));
	}
	return list;
}

static void effect(json_t *list, const char *text)
{
	json_array_append_new(list, json_pack("{s:s}", "text", text));
}

/* A hold on the side whose turn it is holds this turn; on the other side, its next. */
static const char *held_when(const json_t *state, const char *side)
{
	return strcmp(est_rules_str(state, "active"), side) == 0 ? "this turn" : "in their next turn";
}

static json_t *effects(const json_t *state)
{
	json_t *list = json_array();
	const json_t *nm = json_object_get(state, "no_move");
	char text[128];

	if (json_is_true(json_object_get(state, "continental_system")))
		effect(list, "Continental System: France and England each give 2 fewer reinforcements "
		       "for the rest of the game");
	if (json_is_true(json_object_get(nm, NE_FRANCE))) {
		snprintf(text, sizeof(text), "Josephine: the French may not move %s", held_when(state, NE_FRANCE));
		effect(list, text);
	}
	if (json_is_true(json_object_get(nm, NE_ALLIES))) {
		snprintf(text, sizeof(text), "Treaty of Tilsit: the Allies may not move %s",
			 held_when(state, NE_ALLIES));
		effect(list, text);
	}
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
	int hand = est_rules_pile_count(ne_hand(state, side));

	int on = ne_on_map(state, side);

	return json_pack("{s:s, s:i, s:i, s:i, s:o, s:o, s:o}", "side", side, "on_map", on,
			 "off_map", counters - on, "hand", hand,
			 "hand_text", count_text(hand, "card", "cards"),
			 "on_map_text", count_text(on, "army", "armies"),
			 "off_map_text", count_text(counters - on, "counter", "counters"));
}

static json_t *sides(const json_t *state, const json_t *rules)
{
	int counters = ne_setup_int(rules, "counters", 80);

	return json_pack("[o, o]", side_view(state, counters, NE_FRANCE),
			 side_view(state, counters, NE_ALLIES));
}

static json_t *retreat_view(const json_t *retreat)
{
	const json_t *o;
	json_t *v;
	char *to = NULL;
	size_t i;
	int fail = 0;

	if (!json_is_object(retreat))
		return json_null();
	v = json_deep_copy(retreat);
	json_array_foreach(json_object_get(retreat, "options"), i, o)
		fail |= est_rules_join(&to, ", ", "%s", json_string_value(o)) < 0;
	json_object_set_new(v, "armies_text",
			    count_text((int)json_integer_value(json_object_get(retreat, "armies")),
				       "army", "armies"));
	/* "France, Rhineland": templates join no lists. */
	json_object_set_new(v, "options_text", fail ? NULL : json_string(to ? to : "none"));
	free(to);
	return v;
}

static json_t *provenance(const json_t *rules)
{
	json_t *list = json_array(), *v;
	const char *file;

	json_object_foreach((json_t *)rules, file, v) {
		const char *p = est_rules_str(v, "provenance");

		json_array_append_new(list, json_pack("{s:s, s:s, s:b}", "file", file, "provenance",
						      p ? p : "unknown", "placeholder",
						      p && strcmp(p, "placeholder") == 0));
	}
	return list;
}

/*
 * The map drawing (templates' map.svg): positions come from
 * rules["geometry"] (data/geometry.json, a reconstructed layout); borders,
 * sea lanes and every marker come from the map rules and the state, so the
 * picture cannot disagree with the table. Templates are logic-less, so the
 * view computes every coordinate the SVG needs. Nothing here is hidden.
 */
#define NE_CHIP_W 28
#define NE_CHIP_H 22

static int geometry_point(int *x, int *y, const json_t *geometry, const char *country)
{
	const json_t *p = json_object_get(json_object_get(geometry, "countries"), country);

	if (!json_is_integer(json_object_get(p, "x")) || !json_is_integer(json_object_get(p, "y")))
		return -1;
	*x = (int)json_integer_value(json_object_get(p, "x"));
	*y = (int)json_integer_value(json_object_get(p, "y"));
	return 0;
}

static int map_flag(const json_t *rules, const char *key, const char *country)
{
	return est_rules_in_list(json_object_get(json_object_get(rules, "map"), key), country);
}

static int named(const char *name, const char *country)
{
	return name && strcmp(name, country) == 0;
}

/* One army count: a rounded box (rx, ry, w, h) and its number's baseline (tx, ty). */
static json_t *chip(const char *side, int n, int left, int y)
{
	return json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "side", side, "n", n, "rx", left,
			 "ry", y - NE_CHIP_H / 2, "w", NE_CHIP_W, "h", NE_CHIP_H,
			 "tx", left + NE_CHIP_W / 2, "ty", y + 6);
}

/* The army chips inside a marker: one per side present, side by side. */
static json_t *chips(const json_t *state, const char *c, int x, int y)
{
	int f = ne_armies(state, c, NE_FRANCE), a = ne_armies(state, c, NE_ALLIES);
	int left = f > 0 && a > 0 ? x - NE_CHIP_W - 2 : x - NE_CHIP_W / 2;
	json_t *list = json_array();

	if (f > 0)
		json_array_append_new(list, chip(NE_FRANCE, f, left, y));
	if (a > 0) {
		left = f > 0 ? x + 2 : left;
		json_array_append_new(list, chip(NE_ALLIES, a, left, y));
	}
	return list;
}

/* Country i of the map rules as drawn; NULL when geometry.json does not place it. */
static json_t *map_country(const json_t *state, const json_t *rules, const json_t *geometry,
			   size_t i, int r)
{
	const char *c = ne_country_name(rules, i), *ctl = ne_controller(state, c);
	const json_t *entry = json_array_get(json_object_get(json_object_get(rules, "map"), "countries"), i);
	const json_t *att = json_object_get(state, "attack");
	const char *full = est_rules_str(entry, "full_name");
	int x, y, battle = json_is_object(att) && est_rules_in_list(json_object_get(att, "battles"), c);

	if (geometry_point(&x, &y, geometry, c) < 0)
		return NULL;
	return json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:b, s:b, s:b, s:b, s:b,"
			 " s:b, s:o}",
			 "name", c, "full_name", full ? full : c, "x", x, "y", y, "r", r,
			 "label_y", y + r + 18, "note_y", y + r + 34,
			 "france", ne_armies(state, c, NE_FRANCE), "allies", ne_armies(state, c, NE_ALLIES),
			 "controller", ctl ? ctl : "neutral", "controller_text", controller_text(state, rules, c),
			 "contested", ne_contested(state, c),
			 "battle", battle, "retreat", named(est_rules_str(json_object_get(state, "retreat"), "from"), c),
			 "never_entered", map_flag(rules, "never_entered", c),
			 "landlocked", map_flag(rules, "landlocked", c),
			 "sea_power", named(est_rules_str(json_object_get(rules, "map"), "sea_power"), c),
			 "chips", chips(state, c, x, y));
}

/*
 * Every land border once, as ne_land_adjacent reads them (either country's
 * list), taken from the entries by index: by name, each pair cost two
 * searches of the country list, once per report.
 */
static json_t *map_borders(const json_t *rules, const json_t *geometry)
{
	const json_t *entries = json_object_get(json_object_get(rules, "map"), "countries");
	json_t *list = json_array();
	size_t i, j, n = json_array_size(entries);

	for (i = 0; list && i < n; i++) {
		const json_t *ea = json_array_get(entries, i);
		for (j = i + 1; j < n; j++) {
			const json_t *eb = json_array_get(entries, j);
			const char *a = est_rules_str(ea, "name"), *b = est_rules_str(eb, "name");
			int x1, y1, x2, y2;

			if (!a || !b || strcmp(a, b) == 0 ||
			    !(est_rules_in_list(json_object_get(ea, "adjacent"), b) ||
			      est_rules_in_list(json_object_get(eb, "adjacent"), a)) ||
			    geometry_point(&x1, &y1, geometry, a) < 0 ||
			    geometry_point(&x2, &y2, geometry, b) < 0)
				continue;
			json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:i, s:i}", "from", a,
							      "to", b, "x1", x1, "y1", y1, "x2", x2, "y2", y2));
		}
	}
	return list;
}

/* Append " X Y" to *d; 0, or -1 when out of memory (*d is then freed). */
static int path_point(char **d, const char *cmd, int x, int y)
{
	char *next = est_strdup_printf("%s%s%s%d %d", *d, **d ? " " : "", cmd, x, y);

	free(*d);
	*d = next;
	return next ? 0 : -1;
}

/*
 * An SVG path through England, the route's waypoints and the country: a
 * smooth curve whose control points are the waypoints, so lanes sharing
 * waypoints share their trunk. NULL when out of memory.
 */
static char *sea_path(int x0, int y0, const json_t *via, int x1, int y1)
{
	size_t n = json_array_size(via), i;
	char *d = est_strdup_printf("%s", "");

	if (!d || path_point(&d, "M", x0, y0) < 0)
		return NULL;
	if (n == 0)
		return path_point(&d, "L", x1, y1) < 0 ? NULL : d;
	for (i = 0; i < n; i++) {
		int cx = (int)json_integer_value(json_array_get(json_array_get(via, i), 0));
		int cy = (int)json_integer_value(json_array_get(json_array_get(via, i), 1));
		int ex = x1, ey = y1;

		if (i + 1 < n) {
			ex = (cx + (int)json_integer_value(json_array_get(json_array_get(via, i + 1), 0))) / 2;
			ey = (cy + (int)json_integer_value(json_array_get(json_array_get(via, i + 1), 1))) / 2;
		}
		if (path_point(&d, "Q", cx, cy) < 0 || path_point(&d, "", ex, ey) < 0)
			return NULL;
	}
	return d;
}

/* England's sea lanes: to every country an army in England may sail to (R1). */
static json_t *map_sea(const json_t *rules, const json_t *geometry)
{
	const char *sea = est_rules_str(json_object_get(rules, "map"), "sea_power");
	json_t *list = json_array();
	int x0, y0;
	size_t i;

	if (!list || !sea || geometry_point(&x0, &y0, geometry, sea) < 0)
		return list;
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i);
		const json_t *via = json_object_get(json_object_get(geometry, "sea_routes"), c);
		char *d;
		int x, y;

		if (strcmp(c, sea) == 0 || ne_land_adjacent(rules, sea, c) ||
		    ne_move_refusal(rules, NE_ALLIES, sea, c) || geometry_point(&x, &y, geometry, c) < 0)
			continue;
		if (!(d = sea_path(x0, y0, via, x, y))) {
			json_decref(list);
			return NULL;
		}
		json_array_append_new(list, json_pack("{s:s, s:s, s:s}", "from", sea, "to", c, "d", d));
		free(d);
	}
	return list;
}

/*
 * The borders and sea lanes last drawn, and the rules they were drawn from:
 * they depend on the rules alone, and every report of a step draws them
 * again (a fifth of a batch step's instructions went to it), as does every
 * game of a `run --all` that shares its rules (game.c). The rules are held
 * by a reference, so no other rules can have their address while kept.
 */
static struct {
	json_t *rules, *borders, *sea;
} drawn;

/* The lanes of `rules` into *borders and *sea (borrowed); -1 when out of memory. */
static int map_lanes(const json_t **borders, const json_t **sea, const json_t *rules,
		     const json_t *geometry)
{
	if (drawn.rules != rules) {
		json_t *b = map_borders(rules, geometry), *s = map_sea(rules, geometry);

		if (!b || !s) {
			json_decref(b);
			json_decref(s);
			return -1;
		}
		json_decref(drawn.rules);
		json_decref(drawn.borders);
		json_decref(drawn.sea);
		drawn.rules = json_incref((json_t *)rules); /* held, never changed */
		drawn.borders = b;
		drawn.sea = s;
	}
	*borders = drawn.borders;
	*sea = drawn.sea;
	return 0;
}

/* "map": null when the game's rules/ has no geometry.json (games made before it). */
static json_t *map_view(const json_t *state, const json_t *rules)
{
	const json_t *geometry = json_object_get(rules, "geometry"), *borders, *sea;
	int r = (int)json_integer_value(json_object_get(geometry, "radius"));
	json_t *list = json_array(), *c;
	size_t i;

	if (!json_is_object(geometry) || !list) {
		json_decref(list);
		return json_null();
	}
	if (map_lanes(&borders, &sea, rules, geometry) < 0) {
		json_decref(list);
		return NULL;
	}
	for (i = 0; i < ne_country_count(rules); i++)
		if ((c = map_country(state, rules, geometry, i, r > 0 ? r : 34)))
			json_array_append_new(list, c);
	/* The lanes shared, not copied: a view is only ever read. */
	return json_pack("{s:I, s:I, s:o, s:O, s:O}",
			 "width", json_integer_value(json_object_get(geometry, "width")),
			 "height", json_integer_value(json_object_get(geometry, "height")),
			 "countries", list, "borders", borders, "sea", sea);
}

/*
 * The options the game was made with, as every report states them
 * (README.md "Options", RULINGS.md R39): the reading of control (R5, R5a) and, in the
 * divided Allies, the countries each Allied power commands (R37) and the
 * power whose player keeps the hand (R36). The view knows powers, not
 * players: the report's "holders" names them.
 */
static json_t *options_view(const json_t *state, const json_t *rules)
{
	int lapses = json_is_true(json_object_get(state, "control_lapses"));
	json_t *o, *command;

	o = json_pack("{s:s, s:s, s:b}", "control", lapses ? "lapses" : "persists", "control_text",
		      lapses ? "a country is a side's only while that side has armies there and the other "
			       "none; an empty country is nobody's, gives no reinforcements and is no refuge, "
			       "and France wins only with armies in every continental country (R5a)"
			     : "a country stays with the side that last held it alone, even when empty (R5)",
		      "divided", ne_divided(state));
	if (!o || !ne_divided(state))
		return o;
	if (!(command = json_object()) || json_object_set_new(o, "command", command) < 0 ||
	    json_object_set_new(o, "keeper", json_string(NE_KEEPER)) < 0) {
		json_decref(o);
		return NULL;
	}
	for (int k = 0; ne_allied_powers[k]; k++)
		if (json_object_set_new(command, ne_allied_powers[k],
					ne_command_text(state, rules, ne_allied_powers[k], 0)) < 0) {
			json_decref(o);
			return NULL;
		}
	return o;
}

/*
 * What a power sees of its own: its side's hand and standing orders when it
 * speaks for the side; an Allied country of the divided Allies other than
 * the keeper sees where it commands and who keeps the hand (R36, R37).
 */
static int own_parts(json_t *v, const json_t *state, const json_t *rules, const char *power,
		     const char *side)
{
	if (json_object_set_new(v, "power", json_string(power)) < 0)
		return -1;
	if (ne_divided(state) && strcmp(side, NE_ALLIES) == 0 &&
	    json_object_set_new(v, "command_text", ne_command_text(state, rules, power, 1)) < 0)
		return -1;
	if (strcmp(power, ne_speaker(state, side)) != 0)
		return json_object_set_new(v, "hand_kept_by", json_string(NE_KEEPER));
	if (ne_divided(state) && strcmp(side, NE_ALLIES) == 0 &&
	    json_object_set_new(v, "keeps_hand", json_true()) < 0)
		return -1;
	/* A player's copy of a sealed game holds only a commitment to the hand. */
	if (json_object_set_new(v, "hand_sealed", json_boolean(json_is_object(ne_hand(state, side)))) < 0 ||
	    json_object_set_new(v, "hand", hand(state, rules, side)) < 0 ||
	    json_object_set_new(v, "standing", standing(state, rules, side)) < 0)
		return -1;
	return 0;
}

int ne_view(json_t **out, const json_t *state_given, const json_t *rules, const char *power)
{
	json_t *state = NULL, *v;
	const json_t *att, *r;
	const char *side;
	int deck, discard;

	if (ne_state_in(&state, state_given) < 0)
		return est_error_code();
	att = json_object_get(state, "attack");
	r = json_object_get(state, "retreat");
	/* A power not in this game (the other form of the Allies) gets the public view. */
	side = ne_side_of(state, power);
	/* R27: how many cards a pile holds is public in a sealed game, which cards are not. */
	deck = est_rules_pile_count(json_object_get(state, "deck"));
	discard = est_rules_pile_count(json_object_get(state, "discard"));

	v = json_pack("{s:I, s:s, s:b, s:s, s:o, s:o, s:i, s:i, s:o, s:o, s:o, s:O, s:o, s:O, s:O, s:b, s:o}",
		      "turn", json_integer_value(json_object_get(state, "turn")),
		      "active", est_rules_str(state, "active"), "extra", json_is_true(json_object_get(state, "extra")),
		      "phase", est_rules_str(state, "phase"), "countries", countries(state, rules),
		      "sides", sides(state, rules),
		      "deck_count", deck, "discard_count", discard,
		      "deck_text", count_text(deck, "card", "cards"),
		      "discard_text", count_text(discard, "card", "cards"),
		      "effects", effects(state),
		      "battles", json_is_object(att) ? json_object_get(att, "battles") : json_null(),
		      "retreat", retreat_view(r),
		      "winner", json_object_get(state, "winner") ? json_object_get(state, "winner") : json_null(),
		      "win_reason", json_object_get(state, "win_reason") ? json_object_get(state, "win_reason") : json_null(),
		      "over", est_rules_str(state, "winner") != NULL, "provenance", provenance(rules));
	if (!v || json_object_set_new(v, "map", map_view(state, rules)) < 0 ||
	    json_object_set_new(v, "options", options_view(state, rules)) < 0 ||
	    (side && own_parts(v, state, rules, power, side) < 0)) {
		json_decref(v);
		json_decref(state);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_decref(state);
	*out = v;
	return 0;
}
