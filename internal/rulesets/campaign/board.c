/*
 * Campaign: the board of data/board.json — terrain, countries, the
 * frontier crossings (the only ways between countries), towns and capitals.
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "cp_internal.h"

static const struct {
	char letter;
	const char *name;
} countries[] = {{'F', "France"}, {'P', "Prussia"}, {'R', "Russia"}, {'A', "Austria"}, {'I', "Italy"},
		 {'S', "Spain"}};

const json_t *cp_board(const json_t *rules)
{
	return json_object_get(rules, "board");
}

int cp_width(const json_t *rules)
{
	return est_rules_int(cp_board(rules), "width", 0);
}

int cp_height(const json_t *rules)
{
	return est_rules_int(cp_board(rules), "height", 0);
}

/* The character of row y, column x of one of the board's grids; 0 off the board. */
static char grid_at(const json_t *rules, const char *grid, int x, int y)
{
	const char *row;

	if (x < 0 || y < 0 || x >= cp_width(rules) || y >= cp_height(rules))
		return 0;
	row = json_string_value(json_array_get(json_object_get(cp_board(rules), grid), (size_t)y));
	return row && (int)strlen(row) > x ? row[x] : 0;
}

char cp_terrain(const json_t *rules, int x, int y)
{
	char c = grid_at(rules, "terrain", x, y);

	return c ? c : '~';
}

const char *cp_country_at(const json_t *rules, int x, int y)
{
	char c = grid_at(rules, "countries", x, y);

	for (size_t i = 0; i < sizeof(countries) / sizeof(countries[0]); i++)
		if (countries[i].letter == c)
			return countries[i].name;
	return NULL;
}

static int same_square(const json_t *sq, int x, int y)
{
	int sx, sy;

	return cp_sq(sq, &sx, &sy) && sx == x && sy == y;
}

int cp_may_cross(const json_t *rules, int ax, int ay, int bx, int by)
{
	const char *a = cp_country_at(rules, ax, ay), *b = cp_country_at(rules, bx, by);
	const json_t *pair;
	size_t i;

	if (!a || !b || strcmp(a, b) == 0)
		return 1;
	json_array_foreach(json_object_get(cp_board(rules), "crossings"), i, pair) {
		const json_t *p = json_array_get(pair, 0), *q = json_array_get(pair, 1);
		if ((same_square(p, ax, ay) && same_square(q, bx, by)) ||
		    (same_square(p, bx, by) && same_square(q, ax, ay)))
			return 1;
	}
	return 0;
}

/* The first object of a board list whose "square" is (x, y). */
static const json_t *at(const json_t *rules, const char *list, int x, int y)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(cp_board(rules), list), i, o)
		if (same_square(json_object_get(o, "square"), x, y))
			return o;
	return NULL;
}

const json_t *cp_town_at(const json_t *rules, int x, int y)
{
	return at(rules, "towns", x, y);
}

const json_t *cp_town(const json_t *rules, const char *name)
{
	return est_rules_find(json_object_get(cp_board(rules), "towns"), "name", name);
}

int cp_capital(int *x, int *y, const json_t *rules, const char *country)
{
	const json_t *c = est_rules_find(json_object_get(cp_board(rules), "capitals"), "country", country);

	return c && cp_sq(json_object_get(c, "square"), x, y);
}

const char *cp_capital_at(const json_t *rules, int x, int y)
{
	return est_rules_str(at(rules, "capitals", x, y), "country");
}

/*
 * Whether a piece of `kind` on (x, y) can ever reach a start square of its
 * kind of `country`: infantry steps diagonally, so it keeps the colour of
 * its square (x + y even or odd); cavalry steps two squares straight, so it
 * keeps both x and y even or odd. A General goes anywhere.
 */
int cp_start_reachable(const json_t *rules, const char *country, const char *kind, int x, int y)
{
	const json_t *sq;
	size_t i;
	int sx, sy;

	if (strcmp(kind, "general") == 0)
		return 1;
	json_array_foreach(json_object_get(json_object_get(json_object_get(cp_board(rules), "start"), country), kind),
			   i, sq) {
		if (!cp_sq(sq, &sx, &sy))
			continue;
		if (kind[0] == 'i' ? ((sx + sy) & 1) == ((x + y) & 1) : ((sx ^ x) & 1) == 0 && ((sy ^ y) & 1) == 0)
			return 1;
	}
	return 0;
}

json_t *cp_entry_squares(const json_t *state, const json_t *rules, const char *country, const char *kind)
{
	const json_t *board = cp_board(rules), *sq;
	json_t *list = json_array();
	size_t i;
	int x, y;

	if (!list)
		return NULL;
	if (strcmp(est_rules_str(state, "game"), "standard") == 0) {
		json_array_foreach(json_object_get(json_object_get(board, "enlistment"), country), i, sq)
			if (cp_sq(sq, &x, &y) && cp_start_reachable(rules, country, kind, x, y) &&
			    json_array_append(list, (json_t *)sq) < 0)
				goto fail;
	} else if (strcmp(kind, "general") == 0) {
		if (cp_capital(&x, &y, rules, country) && json_array_append_new(list, json_pack("[i, i]", x, y)) < 0)
			goto fail;
	} else {
		json_t *starts = json_object_get(json_object_get(json_object_get(board, "start"), country), kind);
		if (starts && json_array_extend(list, starts) < 0)
			goto fail;
	}
	return list;
fail:
	json_decref(list);
	return NULL;
}

/* A [x, y] on a land square of the board (of `country` when given). */
static int land(const json_t *rules, const json_t *sq, const char *country)
{
	int x, y;
	const char *c;

	if (!cp_sq(sq, &x, &y) || cp_terrain(rules, x, y) != '.')
		return 0;
	c = cp_country_at(rules, x, y);
	return !country || (c && strcmp(c, country) == 0);
}

static int check_grids(const json_t *rules)
{
	int w = cp_width(rules), h = cp_height(rules);

	if (w < 4 || w > 80 || h < 4 || h > 80)
		return est_error_set(EST_EINVAL, "rules/board.json: \"width\" and \"height\" must be 4 to 80; fix the data");
	for (int y = 0; y < h; y++) {
		const char *t = json_string_value(json_array_get(json_object_get(cp_board(rules), "terrain"), (size_t)y));
		const char *c = json_string_value(json_array_get(json_object_get(cp_board(rules), "countries"), (size_t)y));
		if (!t || !c || (int)strlen(t) != w || (int)strlen(c) != w || strspn(t, ".~#^") != (size_t)w ||
		    strspn(c, "FPRAIS~-") != (size_t)w)
			return est_error_set(EST_EINVAL, "rules/board.json: row %d of \"terrain\" or \"countries\" is "
					     "missing or not %d characters of the legend (terrain . ~ # ^; countries F P R "
					     "A I S, ~ sea, - none); fix the data", y, w);
	}
	return 0;
}

/* "seating": countries of the board, each at most once (§9: the order round the table); set-up checks the bases are in it. */
static int check_seating(const json_t *rules)
{
	const json_t *seating = json_object_get(cp_board(rules), "seating"), *v, *w;
	size_t i, j;

	json_array_foreach(seating, i, v) {
		int known = 0;
		for (size_t k = 0; k < sizeof(countries) / sizeof(countries[0]); k++)
			known |= json_is_string(v) && strcmp(json_string_value(v), countries[k].name) == 0;
		json_array_foreach(seating, j, w)
			known &= j >= i || !json_equal(v, w);
		if (!known)
			return est_error_set(EST_EINVAL, "rules/board.json: field \"seating[%zu]\" must be a country "
					     "(France, Prussia, Russia, Austria, Italy, Spain) not listed before; fix "
					     "the data", i);
	}
	return 0;
}

/* Per country with a capital: 4 infantry and 4 cavalry start squares and an Enlistment Area, all distinct and off the capital. */
static int check_armies(const json_t *rules)
{
	const json_t *capitals = json_object_get(cp_board(rules), "capitals"), *c;
	size_t i;

	json_array_foreach(capitals, i, c) {
		const char *country = est_rules_str(c, "country");
		const json_t *start = json_object_get(json_object_get(cp_board(rules), "start"), country);
		const json_t *area = json_object_get(json_object_get(cp_board(rules), "enlistment"), country);
		json_t *seen = json_object(), *sq;
		int bad = !country || strcmp(country, "Italy") == 0 ||
			  est_rules_find(capitals, "country", country) != c ||
			  json_array_size(json_object_get(start, "infantry")) != 4 ||
			  json_array_size(json_object_get(start, "cavalry")) != 4 || json_array_size(area) < 4;
		const json_t *lists[] = {json_object_get(start, "infantry"), json_object_get(start, "cavalry"), area};
		char key[32];
		int x, y;
		cp_sq(json_object_get(c, "square"), &x, &y);
		snprintf(key, sizeof(key), "%d,%d", x, y);
		json_object_set_new(seen, key, json_true());
		for (int l = 0; l < 3 && !bad; l++) {
			size_t k;
			json_array_foreach(lists[l], k, sq) {
				if (!cp_sq(sq, &x, &y))
					continue;
				snprintf(key, sizeof(key), "%d,%d", x, y);
				bad |= json_object_get(seen, key) != NULL;
				json_object_set_new(seen, key, json_true());
			}
		}
		json_decref(seen);
		if (bad)
			return est_error_set(EST_EINVAL, "rules/board.json: field \"capitals[%zu]\": each base country "
					     "(not Italy) has one capital, 4 infantry and 4 cavalry start squares and an "
					     "Enlistment Area of 4 squares or more, all distinct and off the capital; "
					     "fix the data", i);
	}
	return 0;
}

/* Towns: red (with its piece: infantry or cavalry) or yellow (§5), never on a capital. */
static int check_towns(const json_t *rules)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(cp_board(rules), "towns"), i, t) {
		const char *colour = est_rules_str(t, "colour"), *piece = est_rules_str(t, "piece");
		int x, y, red = strcmp(colour, "red") == 0;
		cp_sq(json_object_get(t, "square"), &x, &y);
		if ((!red && strcmp(colour, "yellow") != 0) || cp_capital_at(rules, x, y) ||
		    (red && (!piece || (strcmp(piece, "infantry") != 0 && strcmp(piece, "cavalry") != 0))))
			return est_error_set(EST_EINVAL, "rules/board.json: field \"towns[%zu]\" must be red (with "
					     "\"piece\": infantry or cavalry) or yellow, and off the capitals; fix the "
					     "data", i);
	}
	return 0;
}

int cp_check_board(const json_t *rules)
{
	const json_t *board = cp_board(rules), *t, *pair;
	const char *key;
	json_t *v;
	size_t i;
	int error;

	if (!json_is_object(board))
		return est_error_set(EST_EINVAL, "rules: Campaign needs board.json; restore it");
	if ((error = est_rules_check_data(board, "board.json")) < 0 || (error = check_grids(rules)) < 0)
		return error;
	json_array_foreach(json_object_get(board, "towns"), i, t)
		if (!est_rules_str(t, "name") || cp_town(rules, est_rules_str(t, "name")) != t ||
		    !land(rules, json_object_get(t, "square"), est_rules_str(t, "country")) || !est_rules_str(t, "colour") ||
		    (strcmp(est_rules_str(t, "colour"), "red") == 0 && !est_rules_str(t, "piece")))
			return est_error_set(EST_EINVAL, "rules/board.json: field \"towns[%zu]\" needs a name of its own, "
					     "a land square of its country, a colour, and a piece if red; fix the data", i);
	json_array_foreach(json_object_get(board, "capitals"), i, t)
		if (!land(rules, json_object_get(t, "square"), est_rules_str(t, "country")))
			return est_error_set(EST_EINVAL, "rules/board.json: field \"capitals[%zu]\" must stand on a land "
					     "square of its country; fix the data", i);
	json_array_foreach(json_object_get(board, "crossings"), i, pair) {
		int ax, ay, bx, by;
		const char *a, *b;
		if (!land(rules, json_array_get(pair, 0), NULL) || !land(rules, json_array_get(pair, 1), NULL) ||
		    !cp_sq(json_array_get(pair, 0), &ax, &ay) || !cp_sq(json_array_get(pair, 1), &bx, &by) ||
		    abs(ax - bx) > 1 || abs(ay - by) > 1 || !(a = cp_country_at(rules, ax, ay)) ||
		    !(b = cp_country_at(rules, bx, by)) || strcmp(a, b) == 0)
			return est_error_set(EST_EINVAL, "rules/board.json: field \"crossings[%zu]\" must join two "
					     "neighbouring land squares of two countries; fix the data", i);
	}
	json_object_foreach((json_t *)json_object_get(board, "enlistment"), key, v)
		json_array_foreach(v, i, t)
			if (!land(rules, t, key))
				return est_error_set(EST_EINVAL, "rules/board.json: field \"enlistment.%s[%zu]\" must be a "
						     "land square of %s; fix the data", key, i, key);
	json_object_foreach((json_t *)json_object_get(board, "start"), key, v) {
		const char *kinds[] = {"infantry", "cavalry"};
		for (int k = 0; k < 2; k++)
			json_array_foreach(json_object_get(v, kinds[k]), i, t)
				if (!land(rules, t, key))
					return est_error_set(EST_EINVAL, "rules/board.json: field \"start.%s.%s[%zu]\" must be "
							     "a land square of %s; fix the data", key, kinds[k], i, key);
	}
	return check_seating(rules) < 0 || check_armies(rules) < 0 || check_towns(rules) < 0 ? est_error_code() : 0;
}
