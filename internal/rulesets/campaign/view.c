/*
 * Campaign: what a player or the public may see, shaped for the logic-less
 * report templates (templates/campaign/). Nothing is hidden in this game:
 * every reader sees the same board; the view of a power only marks that
 * power's pieces (and its partner's, RULINGS.md C2) as its own. Templates
 * cannot count, join or compare, so the view gives booleans for sections,
 * the pixel coordinates the SVG needs and preformatted text.
 *
 * The view: game, introductory, phase, over, turn, active, active_letter,
 * throw {d1, d2, total, text} (null before the first throw), limit, order
 * [{country, active, out}], order_text, winner, win_reason, board_note,
 * board_provenance, alliances_open (§1: none in a two-player game), example
 * {piece, x, y, target, other, ally},
 * text_board [{line}], crossings_text [{line}], countries [{country, letter, own, active, out,
 * mobilising, missed, immune, recruits, notes [{text}], pieces [{id,
 * country, kind, letter, square, square_text, on_board, own, where}],
 * troops, infantry, cavalry, towns [{name, colour, country, abroad}],
 * towns_text, towns_count, red_cards, yellow_cards, towns_abroad}],
 * towns [{name, country, colour, square_text, holder, holder_text, cx, cy,
 * lx, ly}], capitals [{name, country, square_text, points, px, py, lx, ly}],
 * alliances [{a, b, text}], proposals [{from, to, text}], consents
 * [{country, to, text}], broken [{by, with, turn, attack_from (the turn
 * the breaker plays next; 0: none), text}],
 * diplomacy (any of those four), last {moves [{piece, from_text, to_text,
 * text, x1, y1, x2, y2, arrow}], any, attack (null or {target, taken,
 * why, text, ring, cx, cy})}, legal [{id, kind, square_text, count,
 * none, squares_text, squares [{x, y, text}]}], legal_total, map {width,
 * height, grid_w, grid_h, ox, oy, cell, legend_y, cols [{n, p}], rows
 * [{n, p}], squares [{px, py, cls, title}], frontiers [{x1, y1, x2,
 * y2}], crossings [{x1, y1, x2, y2, title}], tokens [{id, country,
 * letter, cx, cy, ty, own, title}]}; for a power also power, own_turn.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "cp_internal.h"

/* The SVG grid: square size, margins for the coordinates and the caption, room for the legend. */
#define CP_CELL 32
#define CP_OX 30
#define CP_OY 70
#define CP_LEGEND_H 150
#define CP_TOKEN_R 11

/* Append a new item to `list`; -1 if the item could not be made or added. */
static int add(json_t *list, json_t *item)
{
	return item && list && json_array_append_new(list, item) == 0 ? 0 : -1;
}

static int put(json_t *v, const char *key, json_t *value)
{
	return value && json_object_set_new(v, key, value) == 0 ? 0 : -1;
}

static int px(int x)
{
	return CP_OX + x * CP_CELL;
}

static int py(int y)
{
	return CP_OY + y * CP_CELL;
}

static int same(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

/* Whether `country` is the reader's: its own power, or the other country of its player (RULINGS.md C2). */
static int own(const json_t *state, const char *power, const char *country)
{
	const json_t *held;
	size_t i;

	if (!power || !country)
		return 0;
	if (strcmp(power, country) == 0)
		return 1;
	json_array_foreach(json_object_get(state, "partners"), i, held)
		if (est_rules_in_list(held, power) && est_rules_in_list(held, country))
			return 1;
	return 0;
}

/* "G", "I" or "C": a piece's letter on the map. */
static const char *kind_letter(const char *kind)
{
	return same(kind, "general") ? "G" : same(kind, "infantry") ? "I" : "C";
}

/* "[4, 5]" or what a square off the board means in the game of `state` (§15; RULINGS.md C14). */
static json_t *square_text(const json_t *state, const json_t *square)
{
	int x, y;

	if (!cp_sq(square, &x, &y))
		return json_string(same(est_rules_str(state, "game"), "introductory") ?
				   "off the board, waiting for its start square to be free (§12, §3)" :
				   "off the board, waiting to enter the Enlistment Area (§15)");
	return est_rules_string(est_strdup_printf("[%d, %d]", x, y));
}

/* Whether a frontier crossing (The Board: "the frontier rivers or the red, frontier lines") leaves (x, y). */
static int crossing_end(const json_t *rules, int x, int y)
{
	const json_t *pair;
	size_t i;
	int ax, ay, bx, by;

	json_array_foreach(json_object_get(cp_board(rules), "crossings"), i, pair)
		if (cp_sq(json_array_get(pair, 0), &ax, &ay) && cp_sq(json_array_get(pair, 1), &bx, &by) &&
		    ((ax == x && ay == y) || (bx == x && by == y)))
			return 1;
	return 0;
}

/*
 * The two characters of one square on the text board: a piece (country and
 * kind: "FG", "Fi", "Fc"), or the terrain ("~~", "##", "^^"), or land as its
 * country's lower-case letter and a mark ("." plain, "*" capital, "@" red
 * town, "o" yellow town, "+" a square a frontier crossing leaves).
 */
static void cell(char out[3], const json_t *state, const json_t *rules, int x, int y)
{
	const json_t *piece = cp_piece_at(state, x, y), *town = cp_town_at(rules, x, y);
	const char *country = cp_country_at(rules, x, y);
	char t = cp_terrain(rules, x, y);

	out[2] = 0;
	if (piece && est_rules_str(piece, "country")) {
		out[0] = est_rules_str(piece, "country")[0];
		out[1] = same(est_rules_str(piece, "kind"), "general") ? 'G' : same(est_rules_str(piece, "kind"), "infantry") ? 'i' : 'c';
		return;
	}
	if (t != '.') {
		out[0] = out[1] = t;
		return;
	}
	out[0] = country ? (char)(country[0] - 'A' + 'a') : '.';
	out[1] = cp_capital_at(rules, x, y) ? '*' : town ? (same(est_rules_str(town, "colour"), "red") ? '@' : 'o') :
		 crossing_end(rules, x, y) ? '+' : '.';
}

/* The text board: two lines of column numbers (tens, units), then one line per row. */
static json_t *text_board(const json_t *state, const json_t *rules)
{
	int w = cp_width(rules), h = cp_height(rules);
	json_t *lines = json_array();
	char *tens = calloc(1, (size_t)(3 + 2 * w + 1)), *units = calloc(1, (size_t)(3 + 2 * w + 1));
	char *row = calloc(1, (size_t)(3 + 2 * w + 4 + 1));

	if (!lines || !tens || !units || !row)
		goto fail;
	memcpy(tens, "   ", 3);
	memcpy(units, "   ", 3);
	for (int x = 0; x < w; x++) {
		tens[3 + 2 * x] = x >= 10 ? (char)('0' + x / 10 % 10) : ' ';
		tens[4 + 2 * x] = ' ';
		units[3 + 2 * x] = (char)('0' + x % 10);
		units[4 + 2 * x] = ' ';
	}
	if (add(lines, json_pack("{s:s}", "line", tens)) < 0 || add(lines, json_pack("{s:s}", "line", units)) < 0)
		goto fail;
	for (int y = 0; y < h; y++) {
		/* cp_check_board() keeps the board within 80 rows: two digits. */
		row[0] = y >= 10 ? (char)('0' + y / 10 % 10) : ' ';
		row[1] = (char)('0' + y % 10);
		row[2] = ' ';
		for (int x = 0; x < w; x++)
			cell(row + 3 + 2 * x, state, rules, x, y);
		row[3 + 2 * w] = ' ';
		memcpy(row + 4 + 2 * w, row, 2);
		row[6 + 2 * w] = 0;
		if (add(lines, json_pack("{s:s}", "line", row)) < 0)
			goto fail;
	}
	free(tens);
	free(units);
	free(row);
	return lines;
fail:
	free(tens);
	free(units);
	free(row);
	json_decref(lines);
	return NULL;
}

/*
 * The text board's list of crossings, a line per frontier (wrapped within the report's width):
 * "  France-Prussia: [7, 4]-[8, 4] [7, 5]-[8, 6]", frontiers in the order the board lists them.
 */
static json_t *crossings_text(const json_t *rules)
{
	const json_t *crossings = json_object_get(cp_board(rules), "crossings"), *pair, *other;
	json_t *lines = json_array();
	char *line = NULL;
	size_t i, j;
	int ax, ay, bx, by;

	json_array_foreach(crossings, i, pair) {
		const char *a, *b;
		int seen = 0, width;
		if (!cp_sq(json_array_get(pair, 0), &ax, &ay) || !cp_sq(json_array_get(pair, 1), &bx, &by) ||
		    !(a = cp_country_at(rules, ax, ay)) || !(b = cp_country_at(rules, bx, by)))
			continue;
		/* One line a frontier: from its first crossing, taking the later ones of the same two countries. */
		for (j = 0; j < i && !seen; j++) {
			const char *c, *d;
			int cx, cy, dx, dy;
			other = json_array_get(crossings, j);
			seen = cp_sq(json_array_get(other, 0), &cx, &cy) && cp_sq(json_array_get(other, 1), &dx, &dy) &&
			       (c = cp_country_at(rules, cx, cy)) && (d = cp_country_at(rules, dx, dy)) &&
			       ((same(a, c) && same(b, d)) || (same(a, d) && same(b, c)));
		}
		if (seen)
			continue;
		if (est_rules_join(&line, "", "  %s-%s:", a, b) < 0)
			goto fail;
		width = (int)strlen(line);
		for (j = i; j < json_array_size(crossings); j++) {
			const char *c, *d;
			int cx, cy, dx, dy;
			other = json_array_get(crossings, j);
			if (!cp_sq(json_array_get(other, 0), &cx, &cy) || !cp_sq(json_array_get(other, 1), &dx, &dy) ||
			    !(c = cp_country_at(rules, cx, cy)) || !(d = cp_country_at(rules, dx, dy)) ||
			    !((same(a, c) && same(b, d)) || (same(a, d) && same(b, c))))
				continue;
			if (width > 60) {
				json_t *full = json_pack("{s:o}", "line", est_rules_string(line));
				line = NULL;
				if (add(lines, full) < 0 || est_rules_join(&line, "", "   ") < 0)
					goto fail;
			}
			if (est_rules_join(&line, " ", "[%d, %d]-[%d, %d]", cx, cy, dx, dy) < 0)
				goto fail;
			width = (int)strlen(line);
		}
		{
			json_t *last = json_pack("{s:o}", "line", est_rules_string(line));
			line = NULL;
			if (add(lines, last) < 0)
				goto fail;
		}
	}
	return lines;
fail:
	free(line);
	json_decref(lines);
	return NULL;
}

/* The town or capital a square holds, for "on Paris". */
static const char *place_name(const json_t *rules, int x, int y)
{
	const json_t *town = cp_town_at(rules, x, y);
	const char *capital = cp_capital_at(rules, x, y);

	if (town)
		return est_rules_str(town, "name");
	if (capital)
		return est_rules_str(est_rules_find(json_object_get(cp_board(rules), "capitals"), "country", capital), "name");
	return NULL;
}

static json_t *piece_view(const json_t *state, const json_t *rules, const char *power, const json_t *p)
{
	const json_t *sq = json_object_get(p, "square");
	const char *where = NULL;
	int x, y, on = cp_sq(sq, &x, &y);

	if (on)
		where = place_name(rules, x, y);
	return json_pack("{s:s?, s:s?, s:s?, s:s, s:O, s:o, s:b, s:b, s:s?}", "id", est_rules_str(p, "id"),
			 "country", est_rules_str(p, "country"), "kind", est_rules_str(p, "kind"),
			 "letter", kind_letter(est_rules_str(p, "kind")), "square", sq ? sq : json_null(),
			 "square_text", square_text(state, sq), "on_board", on, "own", own(state, power, est_rules_str(p, "country")),
			 "where", where);
}

/* The Town cards `country` holds, red first. */
static int country_towns(json_t **list_out, json_t **text_out, const json_t *state, const json_t *rules,
			 const char *country)
{
	const char *colours[] = {"red", "yellow"};
	json_t *list = json_array();
	char *text = NULL;
	const json_t *t;
	size_t i;

	for (int c = 0; c < 2; c++)
		json_array_foreach(json_object_get(cp_board(rules), "towns"), i, t) {
			const char *name = est_rules_str(t, "name");
			if (!same(est_rules_str(t, "colour"), colours[c]) ||
			    !same(json_string_value(json_object_get(json_object_get(state, "towns"), name)), country))
				continue;
			if (add(list, json_pack("{s:s, s:s, s:s?, s:b}", "name", name, "colour", colours[c], "country",
						est_rules_str(t, "country"), "abroad", !same(est_rules_str(t, "country"), country))) < 0 ||
			    est_rules_join(&text, ", ", "%s (%s%s%s)", name, colours[c], same(est_rules_str(t, "country"), country) ? "" :
				 ", of ", same(est_rules_str(t, "country"), country) ? "" : est_rules_str(t, "country")) < 0)
				goto fail;
		}
	*list_out = list;
	*text_out = est_rules_string(text ? text : strdup("none"));
	return *text_out ? 0 : -1;
fail:
	json_decref(list);
	free(text);
	return -1;
}

/* Append {"text": the printf-style text} to `list`; -1 when out of memory. */
static int note(json_t *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int note(json_t *list, const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	return add(list, json_pack("{s:o}", "text", est_rules_string(text)));
}

/* What sets a country apart this turn: out, mobilising, a missed turn, a General immune. */
static json_t *notes(const json_t *state, const char *country)
{
	json_t *list = json_array();
	int missed = est_rules_int(json_object_get(state, "missed"), country, 0);
	int immune = est_rules_int(json_object_get(state, "immune"), country, 0);

	if ((cp_is_out(state, country) && note(list, "out of the game") < 0) ||
	    (json_is_true(json_object_get(json_object_get(state, "mobilising"), country)) &&
	     note(list, "mobilising: its General and army must gather in its Capital before they may attack "
		  "or be attacked, bar the squares opposing pieces hold (§16)") < 0) ||
	    (missed > 0 && note(list, "misses its next %s (§12)", missed == 1 ? "turn" : "turns") < 0) ||
	    (immune > 0 && note(list, "its General may not be attacked until %d more turn%s of its own have "
				"passed (§12)", immune, immune == 1 ? "" : "s") < 0)) {
		json_decref(list);
		return NULL;
	}
	return list;
}

static json_t *country_view(const json_t *state, const json_t *rules, const char *power, const char *country)
{
	json_t *pieces = json_array(), *towns = NULL, *towns_text = NULL, *p;
	size_t i;

	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (same(est_rules_str(p, "country"), country) && add(pieces, piece_view(state, rules, power, p)) < 0)
			goto fail;
	if (!pieces || country_towns(&towns, &towns_text, state, rules, country) < 0)
		goto fail;
	return json_pack("{s:s, s:s#, s:b, s:b, s:b, s:b, s:i, s:i, s:i, s:o, s:o, s:i, s:i, s:i, s:o, s:o, s:i, "
			 "s:i, s:i, s:i}",
			 "country", country, "letter", country, 1, "own", own(state, power, country),
			 "active", same(est_rules_str(state, "active"), country), "out", cp_is_out(state, country),
			 "mobilising", json_is_true(json_object_get(json_object_get(state, "mobilising"), country)),
			 "missed", est_rules_int(json_object_get(state, "missed"), country, 0),
			 "immune", est_rules_int(json_object_get(state, "immune"), country, 0),
			 "recruits", est_rules_int(json_object_get(state, "recruits"), country, 0),
			 "notes", notes(state, country), "pieces", pieces,
			 "troops", cp_count(state, country, "infantry") + cp_count(state, country, "cavalry"),
			 "infantry", cp_count(state, country, "infantry"), "cavalry", cp_count(state, country, "cavalry"),
			 "towns", towns, "towns_text", towns_text, "towns_count", (int)json_array_size(towns),
			 "red_cards", cp_red_cards(state, rules, country),
			 "yellow_cards", (int)json_array_size(towns) - cp_red_cards(state, rules, country),
			 "towns_abroad", cp_towns_abroad(state, rules, country));
fail:
	json_decref(pieces);
	return NULL;
}

static json_t *countries_view(const json_t *state, const json_t *rules, const char *power)
{
	json_t *list = json_array(), *c;
	size_t i;

	json_array_foreach(json_object_get(state, "bases"), i, c)
		if (add(list, country_view(state, rules, power, json_string_value(c))) < 0) {
			json_decref(list);
			return NULL;
		}
	return list;
}

/* Every town of the board with its holder, and where the map draws it. */
static json_t *towns_view(const json_t *state, const json_t *rules)
{
	json_t *list = json_array();
	const json_t *t;
	size_t i;
	int x, y;

	json_array_foreach(json_object_get(cp_board(rules), "towns"), i, t) {
		const char *holder = json_string_value(json_object_get(json_object_get(state, "towns"), est_rules_str(t, "name")));
		if (!cp_sq(json_object_get(t, "square"), &x, &y))
			continue;
		if (add(list, json_pack("{s:s?, s:s?, s:s?, s:o, s:s?, s:s, s:i, s:i, s:i, s:i}", "name", est_rules_str(t, "name"),
					"country", est_rules_str(t, "country"), "colour", est_rules_str(t, "colour"),
					"square_text", square_text(state, json_object_get(t, "square")), "holder", holder,
					"holder_text", holder ? holder : "nobody", "cx", px(x) + CP_CELL / 2,
					"cy", py(y) + CP_CELL / 2, "lx", px(x) + CP_CELL / 2, "ly", py(y) + CP_CELL + 9)) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* A five-pointed star on square (x, y), as SVG polygon points (outer radius 13, inner 5). */
static json_t *star(int x, int y)
{
	static const int pts[10][2] = {{0, -13}, {3, -4}, {12, -4}, {5, 2}, {8, 11},
				       {0, 5}, {-8, 11}, {-5, 2}, {-12, -4}, {-3, -4}};
	char *text = NULL;
	int cx = px(x) + CP_CELL / 2, cy = py(y) + CP_CELL / 2;

	for (int i = 0; i < 10; i++)
		if (est_rules_join(&text, " ", "%d,%d", cx + pts[i][0], cy + pts[i][1]) < 0)
			return NULL;
	return est_rules_string(text);
}

static json_t *capitals_view(const json_t *rules)
{
	json_t *list = json_array();
	const json_t *c;
	size_t i;
	int x, y;

	json_array_foreach(json_object_get(cp_board(rules), "capitals"), i, c) {
		if (!cp_sq(json_object_get(c, "square"), &x, &y))
			continue;
		if (add(list, json_pack("{s:s?, s:s?, s:o, s:o, s:i, s:i, s:i, s:i}", "name", est_rules_str(c, "name"),
					"country", est_rules_str(c, "country"), "square_text",
					square_text(NULL, json_object_get(c, "square")), "points", star(x, y),
					"px", px(x) + 2, "py", py(y) + 2, "lx", px(x) + CP_CELL / 2, "ly", py(y) - 3)) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* A pair list ([[a, b], ...]) of alliances ({a, b, text}) or of proposals ({from, to, text}). */
static json_t *pairs_view(const json_t *pairs, int proposals)
{
	json_t *list = json_array();
	const json_t *pair;
	size_t i;

	json_array_foreach(pairs, i, pair) {
		const char *a = json_string_value(json_array_get(pair, 0)), *b = json_string_value(json_array_get(pair, 1));
		if (!a || !b)
			continue;
		if (add(list, json_pack("{s:s, s:s, s:o}", proposals ? "from" : "a", a, proposals ? "to" : "b", b, "text",
					est_rules_string(proposals ? est_strdup_printf("%s proposes an alliance to %s (§8)", a, b) :
						    est_strdup_printf("%s and %s are allies (§8)", a, b)))) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* §8 consents: "Austria lets Russia cross into its territory". */
static json_t *consents_view(const json_t *state)
{
	json_t *list = json_array(), *to;
	const char *country;

	json_object_foreach(json_object_get(state, "consent"), country, to) {
		const json_t *c;
		size_t i;
		json_array_foreach(to, i, c)
			if (json_is_string(c) &&
			    add(list, json_pack("{s:s, s:s, s:o}", "country", country, "to", json_string_value(c), "text",
						est_rules_string(est_strdup_printf("%s lets its ally %s cross into its territory",
									      country, json_string_value(c))))) < 0) {
				json_decref(list);
				return NULL;
			}
	}
	return list;
}

/*
 * The turn `country` plays next, as next_player() (turn.c) will count them: each country in the game
 * after the active one takes the next turn number, and a turn to miss (§12) costs it a round. 0 when
 * nobody is to play (before the order of play, or the game over); the current turn when it is active.
 */
static int next_turn_of(const json_t *state, const char *country)
{
	const json_t *order = json_object_get(state, "order");
	size_t n = json_array_size(order), at = n, i;
	int live = 0, distance = 0, turn = est_rules_int(state, "turn", 0);

	if (!same(est_rules_str(state, "phase"), "turn"))
		return 0;
	if (same(est_rules_str(state, "active"), country))
		return turn;
	for (i = 0; i < n; i++) {
		const char *c = json_string_value(json_array_get(order, i));
		live += !cp_is_out(state, c);
		if (same(c, est_rules_str(state, "active")))
			at = i;
	}
	for (i = 1; at < n && i <= n; i++) {
		const char *c = json_string_value(json_array_get(order, (at + i) % n));
		if (cp_is_out(state, c))
			continue;
		distance++;
		if (same(c, country))
			return turn + distance + live * est_rules_int(json_object_get(state, "missed"), country, 0);
	}
	return 0;
}

/*
 * §8: "he may not break the alliance and attack his former ally in the same turn"; the breaker may
 * attack from its next turn, named by the number of the turn it actually plays next.
 */
static json_t *broken_view(const json_t *state)
{
	json_t *list = json_array();
	const json_t *b;
	size_t i;

	json_array_foreach(json_object_get(state, "broken"), i, b) {
		const char *by = est_rules_str(b, "by"), *with = est_rules_str(b, "with");
		int turn = est_rules_int(b, "turn", 0), next = next_turn_of(state, by);
		char *text;
		if (!by || !with)
			continue;
		if (next == 0 || cp_is_out(state, by) || cp_is_out(state, with))
			text = est_strdup_printf("%s broke its alliance with %s in turn %d", by, with, turn);
		else if (next == est_rules_int(state, "turn", 0))
			text = est_strdup_printf("%s broke its alliance with %s in turn %d: it may attack %s now",
						 by, with, turn, with);
		else
			text = est_strdup_printf("%s broke its alliance with %s in turn %d: it may attack %s from "
						 "its next turn, turn %d, on", by, with, turn, with, next);
		if (add(list, json_pack("{s:s, s:s, s:i, s:i, s:o}", "by", by, "with", with, "turn", turn,
					"attack_from", next, "text", est_rules_string(text))) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* One move of last turn: text, and an arrow between the squares' centres, kept clear of the tokens. */
static json_t *move_view(const json_t *state, const json_t *m)
{
	const json_t *from = json_object_get(m, "from"), *to = json_object_get(m, "to");
	int fx, fy, tx, ty, arrow;
	double dx, dy, len, ax = 0, ay = 0, bx = 0, by = 0;

	arrow = cp_sq(from, &fx, &fy) && cp_sq(to, &tx, &ty) && (fx != tx || fy != ty);
	if (arrow) {
		dx = tx - fx;
		dy = ty - fy;
		/* The octagonal length: exact along rows, columns and diagonals, which are all a piece moves on. */
		len = abs(tx - fx) > abs(ty - fy) ? abs(tx - fx) + 0.41421356 * abs(ty - fy) :
		      abs(ty - fy) + 0.41421356 * abs(tx - fx);
		ax = px(fx) + CP_CELL / 2 + dx / len * (CP_TOKEN_R + 1);
		ay = py(fy) + CP_CELL / 2 + dy / len * (CP_TOKEN_R + 1);
		bx = px(tx) + CP_CELL / 2 - dx / len * (CP_TOKEN_R + 3);
		by = py(ty) + CP_CELL / 2 - dy / len * (CP_TOKEN_R + 3);
	}
	return json_pack("{s:s?, s:o, s:o, s:o, s:b, s:i, s:i, s:i, s:i}", "piece", est_rules_str(m, "piece"),
			 "from_text", square_text(state, from), "to_text", square_text(state, to),
			 "text", est_rules_string(est_strdup_printf("%s moved", est_rules_str(m, "piece") ? est_rules_str(m, "piece") : "?")),
			 "arrow", arrow, "x1", (int)ax, "y1", (int)ay, "x2", (int)bx, "y2", (int)by);
}

/* The attack of last turn: ringed on the map where the target stood, when that is known. */
static json_t *attack_view(const json_t *state, const json_t *attack)
{
	const char *target = est_rules_str(attack, "target");
	const json_t *piece = cp_piece(state, target);
	int taken = json_is_true(json_object_get(attack, "taken")), x = 0, y = 0, ring;

	if (!json_is_object(attack) || !target)
		return json_null();
	/* A taken piece has left its square (removed, or a General sent home): only a recorded square tells where. */
	ring = cp_sq(json_object_get(attack, "square"), &x, &y) ||
	       (!taken && cp_sq(json_object_get(piece, "square"), &x, &y));
	return json_pack("{s:s, s:b, s:s?, s:s?, s:o, s:b, s:i, s:i}", "target", target, "taken", taken,
			 "why", est_rules_str(attack, "why"), "pieces", est_rules_str(attack, "pieces"),
			 "text", est_rules_string(est_strdup_printf("%s was attacked: %s%s%s%s%s%s", target,
							       taken ? "taken" : "it held",
							       est_rules_str(attack, "why") ? " (" : "",
							       est_rules_str(attack, "why") ? est_rules_str(attack, "why") : "",
							       est_rules_str(attack, "why") ? ")" : "",
							       est_rules_str(attack, "pieces") ? "; " : "",
							       est_rules_str(attack, "pieces") ? est_rules_str(attack, "pieces") : "")),
			 "ring", ring, "cx", px(x) + CP_CELL / 2, "cy", py(y) + CP_CELL / 2);
}

static json_t *last_view(const json_t *state)
{
	const json_t *last = json_object_get(state, "last"), *m;
	json_t *moves = json_array(), *attack;
	size_t i;

	json_array_foreach(json_object_get(last, "moves"), i, m)
		if (add(moves, move_view(state, m)) < 0) {
			json_decref(moves);
			return NULL;
		}
	attack = attack_view(state, json_object_get(last, "attack"));
	return json_pack("{s:o, s:b, s:o}", "moves", moves,
			 "any", json_array_size(moves) > 0 || !json_is_null(attack), "attack", attack);
}

/* The squares a piece might step to (§3): a General's eight neighbours, infantry's four diagonals, cavalry's two-square lines. */
static const int general_steps[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
static const int infantry_steps[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
static const int cavalry_steps[4][2] = {{0, -2}, {-2, 0}, {2, 0}, {0, 2}};

/* Add (x, y) to `squares` and `text` when `piece` may step there now. */
static int try_step(json_t *squares, char **text, const json_t *state, const json_t *rules, const json_t *piece,
		    int x, int y)
{
	if (cp_step_refusal(state, rules, piece, x, y))
		return 0;
	if (add(squares, json_pack("{s:i, s:i, s:o}", "x", x, "y", y, "text",
				   est_rules_string(est_strdup_printf("[%d, %d]", x, y)))) < 0 ||
	    est_rules_join(text, " ", "[%d, %d]", x, y) < 0)
		return -1;
	return 0;
}

/*
 * How many single steps `piece` may take now, and to where, so players can
 * plan the throw: each candidate square judged by cp_step_refusal() on the
 * board as it stands. A piece off the board may enter the squares it waits for (§15, RULINGS.md C14).
 */
static json_t *legal_piece(const json_t *state, const json_t *rules, const json_t *piece)
{
	const char *kind = est_rules_str(piece, "kind");
	const int(*steps)[2] = same(kind, "general") ? general_steps : same(kind, "infantry") ? infantry_steps :
			       cavalry_steps;
	size_t n = same(kind, "general") ? 8 : 4, i;
	json_t *squares = json_array();
	const json_t *sq;
	char *text = NULL;
	int x, y;

	if (cp_sq(json_object_get(piece, "square"), &x, &y)) {
		for (i = 0; i < n; i++)
			if (try_step(squares, &text, state, rules, piece, x + steps[i][0], y + steps[i][1]) < 0)
				goto fail;
	} else {
		json_t *entry = cp_entry_squares(state, rules, est_rules_str(piece, "country"), kind);
		if (!entry)
			goto fail;
		json_array_foreach(entry, i, sq)
			if (cp_sq(sq, &x, &y) && try_step(squares, &text, state, rules, piece, x, y) < 0) {
				json_decref(entry);
				goto fail;
			}
		json_decref(entry);
	}
	if (!squares)
		goto fail;
	return json_pack("{s:s?, s:s?, s:o, s:i, s:b, s:o, s:o}", "id", est_rules_str(piece, "id"), "kind", kind,
			 "square_text", square_text(state, json_object_get(piece, "square")),
			 "count", (int)json_array_size(squares), "none", json_array_size(squares) == 0,
			 "squares_text", est_rules_string(text ? text : strdup("none")), "squares", squares);
fail:
	free(text);
	json_decref(squares);
	return NULL;
}

/* The legal steps of each piece of the active country; none once the game is over. */
static json_t *legal_view(int *total, const json_t *state, const json_t *rules)
{
	json_t *list = json_array(), *p;
	size_t i;

	*total = 0;
	if (!same(est_rules_str(state, "phase"), "turn"))
		return list;
	json_array_foreach(json_object_get(state, "pieces"), i, p) {
		json_t *v;
		if (!same(est_rules_str(p, "country"), est_rules_str(state, "active")))
			continue;
		v = legal_piece(state, rules, p);
		*total += est_rules_int(v, "count", 0);
		if (add(list, v) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* "France", "Russia" ... for the map's classes; "none" for land of no country, "sea" for sea. */
static const char *region(const json_t *rules, int x, int y)
{
	const char *c = cp_country_at(rules, x, y);

	if (cp_terrain(rules, x, y) == '~')
		return "sea";
	return c ? c : "none";
}

static json_t *squares_view(const json_t *rules)
{
	static const struct {
		char t;
		const char *name;
	} terrains[] = {{'.', "land"}, {'~', "sea"}, {'#', "forest"}, {'^', "mountain"}};
	json_t *list = json_array();

	for (int y = 0; y < cp_height(rules); y++)
		for (int x = 0; x < cp_width(rules); x++) {
			const char *terrain = "land", *r = region(rules, x, y);
			for (size_t k = 0; k < sizeof(terrains) / sizeof(terrains[0]); k++)
				if (terrains[k].t == cp_terrain(rules, x, y))
					terrain = terrains[k].name;
			if (add(list, json_pack("{s:i, s:i, s:o, s:o}", "px", px(x), "py", py(y), "cls",
				est_rules_string(strcmp(r, "sea") == 0 ? strdup("sea") : est_strdup_printf("%s %s", terrain, r)),
				"title", est_rules_string(est_strdup_printf("[%d, %d] %s%s%s", x, y, terrain,
					strcmp(r, "sea") == 0 ? "" : ", ", strcmp(r, "sea") == 0 ? "" : r)))) < 0) {
				json_decref(list);
				return NULL;
			}
		}
	return list;
}

/* A frontier: the edge between two squares of different countries (sea is no country's). */
static json_t *frontiers_view(const json_t *rules)
{
	json_t *list = json_array();

	for (int y = 0; y < cp_height(rules); y++)
		for (int x = 0; x < cp_width(rules); x++) {
			const char *here = region(rules, x, y);
			if (strcmp(here, "sea") == 0)
				continue;
			/* The right edge, then the bottom edge. */
			if (x + 1 < cp_width(rules) && strcmp(region(rules, x + 1, y), "sea") != 0 &&
			    strcmp(region(rules, x + 1, y), here) != 0 &&
			    add(list, json_pack("{s:i, s:i, s:i, s:i}", "x1", px(x + 1), "y1", py(y), "x2", px(x + 1),
						"y2", py(y + 1))) < 0)
				goto fail;
			if (y + 1 < cp_height(rules) && strcmp(region(rules, x, y + 1), "sea") != 0 &&
			    strcmp(region(rules, x, y + 1), here) != 0 &&
			    add(list, json_pack("{s:i, s:i, s:i, s:i}", "x1", px(x), "y1", py(y + 1), "x2", px(x + 1),
						"y2", py(y + 1))) < 0)
				goto fail;
		}
	return list;
fail:
	json_decref(list);
	return NULL;
}

/* The frontier rivers and red lines: a short bar across the frontier, from one square towards the other. */
static json_t *crossings_view(const json_t *rules)
{
	json_t *list = json_array();
	const json_t *pair;
	size_t i;
	int ax, ay, bx, by;

	json_array_foreach(json_object_get(cp_board(rules), "crossings"), i, pair) {
		if (!cp_sq(json_array_get(pair, 0), &ax, &ay) || !cp_sq(json_array_get(pair, 1), &bx, &by))
			continue;
		if (add(list, json_pack("{s:i, s:i, s:i, s:i, s:o}",
					"x1", px(ax) + CP_CELL / 2 + (bx - ax) * CP_CELL / 4,
					"y1", py(ay) + CP_CELL / 2 + (by - ay) * CP_CELL / 4,
					"x2", px(bx) + CP_CELL / 2 - (bx - ax) * CP_CELL / 4,
					"y2", py(by) + CP_CELL / 2 - (by - ay) * CP_CELL / 4,
					"title", est_rules_string(est_strdup_printf("crossing [%d, %d] %s - [%d, %d] %s", ax, ay,
						region(rules, ax, ay), bx, by, region(rules, bx, by))))) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

static json_t *tokens_view(const json_t *state, const json_t *rules, const char *power)
{
	json_t *list = json_array(), *p;
	size_t i;
	int x, y;

	json_array_foreach(json_object_get(state, "pieces"), i, p) {
		const char *where;
		if (!cp_sq(json_object_get(p, "square"), &x, &y))
			continue;
		where = place_name(rules, x, y);
		if (add(list, json_pack("{s:s?, s:s?, s:s, s:i, s:i, s:i, s:b, s:o}", "id", est_rules_str(p, "id"),
					"country", est_rules_str(p, "country"), "letter", kind_letter(est_rules_str(p, "kind")),
					"cx", px(x) + CP_CELL / 2, "cy", py(y) + CP_CELL / 2, "ty", py(y) + CP_CELL / 2 + 5,
					"own", own(state, power, est_rules_str(p, "country")),
					"title", est_rules_string(est_strdup_printf("%s (%s) at [%d, %d]%s%s", est_rules_str(p, "id"),
						est_rules_str(p, "kind"), x, y, where ? " on " : "", where ? where : "")))) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* Column and row numbers along the grid. */
static json_t *numbers(int n, int horizontal)
{
	json_t *list = json_array();

	for (int i = 0; i < n; i++)
		if (add(list, json_pack("{s:i, s:i}", "n", i, "p", horizontal ? px(i) + CP_CELL / 2 :
					py(i) + CP_CELL / 2 + 4)) < 0) {
			json_decref(list);
			return NULL;
		}
	return list;
}

static json_t *map_view(const json_t *state, const json_t *rules, const char *power)
{
	int w = cp_width(rules), h = cp_height(rules);

	return json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "width", px(w) + CP_OX, "height", py(h) + CP_LEGEND_H, "grid_w", w * CP_CELL,
			 "grid_h", h * CP_CELL, "ox", CP_OX, "oy", CP_OY, "cell", CP_CELL, "legend_y", py(h) + 12,
			 "cols", numbers(w, 1), "rows", numbers(h, 0), "squares", squares_view(rules),
			 "frontiers", frontiers_view(rules), "crossings", crossings_view(rules),
			 "tokens", tokens_view(state, rules, power));
}

/* The order of play (§9), the active country marked. */
static int order_view(json_t **list_out, json_t **text_out, const json_t *state)
{
	json_t *list = json_array(), *c;
	char *text = NULL;
	size_t i;

	json_array_foreach(json_object_get(state, "order"), i, c) {
		const char *country = json_string_value(c);
		if (!country)
			continue;
		if (add(list, json_pack("{s:s, s:b, s:b}", "country", country, "active",
					same(country, est_rules_str(state, "active")), "out", cp_is_out(state, country))) < 0 ||
		    est_rules_join(&text, ", ", "%s%s", country, cp_is_out(state, country) ? " (out)" : "") < 0) {
			json_decref(list);
			free(text);
			return -1;
		}
	}
	*list_out = list;
	*text_out = est_rules_string(text ? text : strdup("not yet thrown (§9)"));
	return list && *text_out ? 0 : -1;
}

static json_t *throw_view(const json_t *state)
{
	const json_t *t = json_object_get(state, "throw");
	int a, b;

	if (!cp_sq(t, &a, &b))
		return json_null();
	return json_pack("{s:i, s:i, s:i, s:o}", "d1", a, "d2", b, "total", a + b, "text",
			 est_rules_string(est_strdup_printf("%d and %d: %d moves (§2)", a, b, a + b)));
}

/*
 * Order examples for the report, from the board as it stands: the first legal
 * step of the active country, an enemy piece to name as a target, a country
 * of another player for diplomacy (never the active player's other country,
 * RULINGS.md C2; one not allied already when there is one), the active
 * country's ally to break with or consent to (else that other country); the
 * seed's names when there are none.
 */
static json_t *example_view(const json_t *state, const json_t *legal)
{
	const char *active = est_rules_str(state, "active"), *piece = "France-C1", *target = "Austria-I3", *other = "Russia";
	const char *ally = NULL, *stranger = NULL, *another = NULL;
	const json_t *l, *p, *c;
	int x = 6, y = 7, found = 0;
	size_t i;

	json_array_foreach(legal, i, l)
		if (!found && json_array_size(json_object_get(l, "squares")) > 0) {
			const json_t *sq = json_array_get(json_object_get(l, "squares"), 0);
			piece = est_rules_str(l, "id");
			x = est_rules_int(sq, "x", 0);
			y = est_rules_int(sq, "y", 0);
			found = 1;
		}
	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (active && est_rules_str(p, "country") && !cp_friendly(state, active, est_rules_str(p, "country"))) {
			target = est_rules_str(p, "id");
			break;
		}
	json_array_foreach(json_object_get(state, "bases"), i, c) {
		const char *country = json_string_value(c);
		if (!active || !country || same(country, active) || cp_partners(state, active, country) ||
		    cp_is_out(state, country))
			continue;
		if (!ally && cp_allied(state, active, country))
			ally = country;
		if (!stranger && !cp_allied(state, active, country))
			stranger = country;
		if (!another)
			another = country;
	}
	if (stranger || another)
		other = stranger ? stranger : another;
	return json_pack("{s:s, s:i, s:i, s:s, s:s, s:s}", "piece", piece, "x", x, "y", y, "target", target,
			 "other", other, "ally", ally ? ally : other);
}

json_t *cp_choices(const json_t *state, const json_t *rules)
{
	int total;
	json_t *legal = legal_view(&total, state, rules), *ex = legal ? example_view(state, legal) : NULL;
	json_t *c = json_array(), *l;
	const char *other = est_rules_str(ex, "other");
	static const char *const actions[] = {"propose", "accept", "break", NULL};
	int error = c && ex ? 0 : EST_ENOMEM;
	size_t i;

	if (!error)
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "attack", "target", "<enemy piece>"),
					 "§10: at most one attack, the first order (e.g. %s)", est_rules_str(ex, "target"));
	json_array_foreach(legal, i, l) {
		const json_t *sq = json_array_get(json_object_get(l, "squares"), 0);
		if (error || !sq)
			continue;
		error = est_rules_choice(c, json_pack("{s:s, s:O, s:[O, O]}", "type", "move", "piece",
						      json_object_get(l, "id"), "to", json_object_get(sq, "x"),
						      json_object_get(sq, "y")),
					 "one step of %s, to any of %s", est_rules_str(l, "id"),
					 est_rules_str(l, "squares_text"));
	}
	/* §1: no alliances between two players; the game refuses them, so the report does not offer them. */
	for (i = 0; !error && cp_alliances_open(state) && actions[i]; i++)
		error = est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "alliance", "with", "<country>",
						      "action", actions[i]), "§8: %s an alliance (e.g. with %s)",
					 actions[i], strcmp(actions[i], "break") == 0 ? est_rules_str(ex, "ally") : other);
	if (!error && cp_alliances_open(state))
		error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "consent", "to", "<ally>"),
					 "§8: let an ally cross into your territory (e.g. to %s)",
					 est_rules_str(ex, "ally"));
	if (!error)
		error = est_rules_choice(c, json_pack("{s:s, s:s, s:[s, s]}", "type", "place", "town", "<town>",
						      "square", "<number>", "<number>"),
					 "§13: where the piece a red town brings stands");
	json_decref(legal);
	json_decref(ex);
	if (error < 0) {
		json_decref(c);
		return NULL;
	}
	return c;
}

/* docs/adding-a-ruleset.md "Rules data": every report says where the board comes from. */
static json_t *board_note(const json_t *rules)
{
	const char *provenance = est_rules_str(cp_board(rules), "provenance"), *source = est_rules_str(cp_board(rules), "source");

	return est_rules_string(est_strdup_printf("board.json is %s%s%s", provenance ? provenance : "of unknown provenance",
					     source ? ", from " : "", source ? source : ""));
}

static int header(json_t *v, const json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase"), *active = est_rules_str(state, "active");
	json_t *order = NULL, *order_text = NULL;

	if (order_view(&order, &order_text, state) < 0)
		return -1;
	if (put(v, "order", order) < 0) {
		json_decref(order_text);
		return -1;
	}
	return put(v, "order_text", order_text) < 0 ||
	       put(v, "game", json_string(same(est_rules_str(state, "game"), "introductory") ? "introductory" : "standard")) < 0 ||
	       put(v, "introductory", json_boolean(same(est_rules_str(state, "game"), "introductory"))) < 0 ||
	       put(v, "alliances_open", json_boolean(cp_alliances_open(state))) < 0 ||
	       put(v, "phase", json_string(phase ? phase : "start")) < 0 ||
	       put(v, "over", json_boolean(same(phase, "over"))) < 0 ||
	       put(v, "turn", json_integer(est_rules_int(state, "turn", 0))) < 0 ||
	       put(v, "active", active ? json_string(active) : json_null()) < 0 ||
	       put(v, "active_letter", active ? json_stringn(active, 1) : json_null()) < 0 ||
	       put(v, "throw", throw_view(state)) < 0 ||
	       put(v, "limit", json_integer(est_rules_int(state, "limit", 0))) < 0 ||
	       put(v, "winner", est_rules_str(state, "winner") ? json_string(est_rules_str(state, "winner")) : json_null()) < 0 ||
	       put(v, "win_reason", est_rules_str(state, "win_reason") ? json_string(est_rules_str(state, "win_reason")) :
		   json_null()) < 0 ||
	       put(v, "board_note", board_note(rules)) < 0 ||
	       put(v, "board_provenance", json_string(est_rules_str(cp_board(rules), "provenance") ?
						      est_rules_str(cp_board(rules), "provenance") : "unknown")) < 0 ? -1 : 0;
}

static int diplomacy(json_t *v, const json_t *state)
{
	json_t *alliances = pairs_view(json_object_get(state, "alliances"), 0),
	       *proposals = pairs_view(json_object_get(state, "proposals"), 1),
	       *consents = consents_view(state), *broken = broken_view(state);
	int any = json_array_size(alliances) + json_array_size(proposals) + json_array_size(consents) +
		  json_array_size(broken) > 0;

	/* put() takes each list, made or not, so all four are put before the result is judged. */
	int failed = put(v, "alliances", alliances) < 0;

	failed |= put(v, "proposals", proposals) < 0;
	failed |= put(v, "consents", consents) < 0;
	failed |= put(v, "broken", broken) < 0;
	return failed || put(v, "diplomacy", json_boolean(any)) < 0 ? -1 : 0;
}

int cp_view(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	json_t *v = json_object();
	int total = 0;

	if (!v || header(v, state, rules) < 0 || diplomacy(v, state) < 0 ||
	    put(v, "text_board", text_board(state, rules)) < 0 ||
	    put(v, "crossings_text", crossings_text(rules)) < 0 ||
	    put(v, "countries", countries_view(state, rules, power)) < 0 ||
	    put(v, "towns", towns_view(state, rules)) < 0 ||
	    put(v, "capitals", capitals_view(rules)) < 0 ||
	    put(v, "last", last_view(state)) < 0 ||
	    put(v, "legal", legal_view(&total, state, rules)) < 0 ||
	    put(v, "legal_total", json_integer(total)) < 0 ||
	    put(v, "example", example_view(state, json_object_get(v, "legal"))) < 0 ||
	    put(v, "map", map_view(state, rules, power)) < 0 ||
	    (power && (put(v, "power", json_string(power)) < 0 ||
		       put(v, "own_turn", json_boolean(same(est_rules_str(state, "phase"), "turn") &&
						       own(state, power, est_rules_str(state, "active")))) < 0))) {
		json_decref(v);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*out = v;
	return 0;
}
