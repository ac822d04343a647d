/*
 * Campaign: the board of data/board.json — terrain, countries, the
 * frontier crossings (the only ways between countries), towns and capitals.
 */
#include <stdio.h>
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

/*
 * Every refusal of the board names rules/board.json, the field's path, what is wrong and the fix
 * (README.md "The board" gives each field).
 */
#define BOARD_FILE "rules/board.json"

/* Row y of the grid `key` ("terrain" or "countries"): a string of `w` characters of `legend`. */
static int check_row(const json_t *rules, const char *key, int y, int w, const char *legend, const char *meaning)
{
	const char *row = json_string_value(json_array_get(json_object_get(cp_board(rules), key), (size_t)y));
	size_t good;

	if (!row)
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"%s[%d]\" is missing or not a string; give "
				     "every row of the board (\"height\" rows) as a string", key, y);
	if ((int)strlen(row) != w)
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"%s[%d]\" is %zu characters long; make it %d, "
				     "one a column (\"width\")", key, y, strlen(row), w);
	if ((good = strspn(row, legend)) != (size_t)w)
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"%s[%d]\" has '%c' at column %zu; use only "
				     "%s", key, y, row[good], good, meaning);
	return 0;
}

static int check_grids(const json_t *rules)
{
	int w = cp_width(rules), h = cp_height(rules), error;
	const char *field = w < 4 || w > 80 ? "width" : "height";

	/* The text board numbers rows and columns with two digits. */
	if (w < 4 || w > 80 || h < 4 || h > 80)
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"%s\" is %d (or missing); give the board's "
				     "size in squares, from 4 to 80", field, strcmp(field, "width") == 0 ? w : h);
	for (int y = 0; y < h; y++)
		if ((error = check_row(rules, "terrain", y, w, ".~#^", ". land, ~ sea, # forest, ^ mountain")) < 0 ||
		    (error = check_row(rules, "countries", y, w, "FPRAIS~-", "F P R A I S (France, Prussia, Russia, "
				       "Austria, Italy, Spain), ~ sea, - land of no country")) < 0)
			return error;
	return 0;
}

/* "seating": countries of the board, each at most once (§9: the order round the table); set-up checks the bases are in it. */
static int check_seating(const json_t *rules)
{
	const json_t *seating = json_object_get(cp_board(rules), "seating"), *v, *w;
	size_t i, j;

	json_array_foreach(seating, i, v) {
		int known = 0, twice = 0;
		for (size_t k = 0; k < sizeof(countries) / sizeof(countries[0]); k++)
			known |= json_is_string(v) && strcmp(json_string_value(v), countries[k].name) == 0;
		json_array_foreach(seating, j, w)
			twice |= j < i && json_equal(v, w);
		if (!known || twice)
			return est_error_set(EST_EINVAL, BOARD_FILE ": field \"seating[%zu]\" must be a country of "
					     "the board, listed once, and %s; list each country once, by name: France, "
					     "Prussia, Russia, Austria, Italy, Spain", i,
					     twice ? "it is listed before" : "it is not one");
	}
	return 0;
}

/* The squares of `list` (the field `path`): none the capital's or one already in `seen` ("x,y" keys). */
static int check_distinct(json_t *seen, const json_t *list, const char *path, const char *country)
{
	const json_t *sq;
	char key[32];
	size_t k;
	int x, y;

	json_array_foreach(list, k, sq) {
		if (!cp_sq(sq, &x, &y))
			continue;
		snprintf(key, sizeof(key), "%d,%d", x, y);
		if (json_object_get(seen, key))
			return est_error_set(EST_EINVAL, BOARD_FILE ": field \"%s[%zu]\" is [%d, %d], %s's capital or "
					     "a square listed before for it; give each start and enlistment square of "
					     "a country once, off its capital", path, k, x, y, country);
		json_object_set_new(seen, key, json_true());
	}
	return 0;
}

/* A base country's army squares: 4 infantry and 4 cavalry start squares (§1), 4 or more to enlist in (§15). */
static int check_army(const json_t *rules, const json_t *capital, const char *country)
{
	const json_t *start = json_object_get(json_object_get(cp_board(rules), "start"), country);
	const json_t *area = json_object_get(json_object_get(cp_board(rules), "enlistment"), country);
	const char *kinds[] = {"infantry", "cavalry"};
	json_t *seen = json_object();
	char path[80], key[32];
	int x = -1, y = -1, error = 0;

	if (!seen)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (int k = 0; k < 2 && !error; k++)
		if (json_array_size(json_object_get(start, kinds[k])) != 4)
			error = est_error_set(EST_EINVAL, BOARD_FILE ": field \"start.%s.%s\" lists %zu squares; give "
					      "4, the starting squares of %s's %s (§1)", country, kinds[k],
					      json_array_size(json_object_get(start, kinds[k])), country, kinds[k]);
	if (!error && json_array_size(area) < 4)
		error = est_error_set(EST_EINVAL, BOARD_FILE ": field \"enlistment.%s\" lists %zu squares; give 4 "
				      "or more, %s's Enlistment Area (§15)", country, json_array_size(area), country);
	cp_sq(json_object_get(capital, "square"), &x, &y);
	snprintf(key, sizeof(key), "%d,%d", x, y);
	json_object_set_new(seen, key, json_true());
	for (int k = 0; k < 2 && !error; k++) {
		snprintf(path, sizeof(path), "start.%s.%s", country, kinds[k]);
		error = check_distinct(seen, json_object_get(start, kinds[k]), path, country);
	}
	if (!error) {
		snprintf(path, sizeof(path), "enlistment.%s", country);
		error = check_distinct(seen, area, path, country);
	}
	json_decref(seen);
	return error;
}

/* Per country with a capital: one capital, and its army's squares. */
static int check_armies(const json_t *rules)
{
	const json_t *capitals = json_object_get(cp_board(rules), "capitals"), *c;
	size_t i;
	int error;

	json_array_foreach(capitals, i, c) {
		const char *country = est_rules_str(c, "country");
		if (est_rules_find(capitals, "country", country) != c)
			return est_error_set(EST_EINVAL, BOARD_FILE ": field \"capitals[%zu]\" is a second capital of "
					     "%s; give each country one", i, country);
		if ((error = check_army(rules, c, country)) < 0)
			return error;
	}
	return 0;
}

/* A town: a name of its own, a land square of its country off the capitals, red with its piece or yellow (§5, §13). */
static int check_town(const json_t *rules, const json_t *t, size_t i)
{
	const char *name = est_rules_str(t, "name"), *colour = est_rules_str(t, "colour"), *piece = est_rules_str(t, "piece");
	const char *country = est_rules_str(t, "country");
	int x = -1, y = -1, red = colour && strcmp(colour, "red") == 0;

	if (!name || cp_town(rules, name) != t)
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"towns[%zu].name\" is %s; give each town a "
				     "name of its own", i, name ? "the name of an earlier town" : "missing");
	if (!land(rules, json_object_get(t, "square"), country))
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"towns[%zu].square\" (%s) is not a land square "
				     "of its \"country\" (%s); give [column, row] of a land square inside %s", i, name,
				     country ? country : "missing", country ? country : "it");
	cp_sq(json_object_get(t, "square"), &x, &y);
	if (cp_capital_at(rules, x, y))
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"towns[%zu].square\" (%s) is the capital of %s; "
				     "move the town off it", i, name, cp_capital_at(rules, x, y));
	if (!red && (!colour || strcmp(colour, "yellow") != 0))
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"towns[%zu].colour\" (%s) is %s%s%s; make it "
				     "\"red\" or \"yellow\" (§5)", i, name, colour ? "\"" : "", colour ? colour : "missing",
				     colour ? "\"" : "");
	if (red && (!piece || (strcmp(piece, "infantry") != 0 && strcmp(piece, "cavalry") != 0)))
		return est_error_set(EST_EINVAL, BOARD_FILE ": field \"towns[%zu].piece\" (%s, a red town) is %s%s%s; "
				     "make it \"infantry\" or \"cavalry\", the piece the town brings (§13)", i, name,
				     piece ? "\"" : "", piece ? piece : "missing", piece ? "\"" : "");
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
	json_array_foreach(json_object_get(board, "capitals"), i, t) {
		const char *country = est_rules_str(t, "country");
		/* The Board: Italy is the one country with no capital. */
		if (!country || strcmp(country, "Italy") == 0)
			return est_error_set(EST_EINVAL, BOARD_FILE ": field \"capitals[%zu].country\" is %s; name a "
					     "base country (France, Prussia, Russia, Austria, Spain): Italy has no "
					     "capital", i, country ? "Italy" : "missing");
		if (!land(rules, json_object_get(t, "square"), country))
			return est_error_set(EST_EINVAL, BOARD_FILE ": field \"capitals[%zu].square\" is not a land "
					     "square of its \"country\" (%s); give [column, row] of a land square inside it",
					     i, country);
	}
	json_array_foreach(json_object_get(board, "towns"), i, t)
		if ((error = check_town(rules, t, i)) < 0)
			return error;
	json_array_foreach(json_object_get(board, "crossings"), i, pair) {
		int ax, ay, bx, by;
		const char *a, *b;
		if (!land(rules, json_array_get(pair, 0), NULL) || !land(rules, json_array_get(pair, 1), NULL) ||
		    !cp_sq(json_array_get(pair, 0), &ax, &ay) || !cp_sq(json_array_get(pair, 1), &bx, &by) ||
		    abs(ax - bx) > 1 || abs(ay - by) > 1 || !(a = cp_country_at(rules, ax, ay)) ||
		    !(b = cp_country_at(rules, bx, by)) || strcmp(a, b) == 0)
			return est_error_set(EST_EINVAL, BOARD_FILE ": field \"crossings[%zu]\" is not two neighbouring "
					     "land squares of two countries; give [[x1, y1], [x2, y2]], two squares side "
					     "by side or corner to corner across a frontier (§0)", i);
	}
	json_object_foreach((json_t *)json_object_get(board, "enlistment"), key, v)
		json_array_foreach(v, i, t)
			if (!land(rules, t, key))
				return est_error_set(EST_EINVAL, BOARD_FILE ": field \"enlistment.%s[%zu]\" is not a land "
						     "square of %s; give [column, row] of one inside it", key, i, key);
	json_object_foreach((json_t *)json_object_get(board, "start"), key, v) {
		const char *kinds[] = {"infantry", "cavalry"};
		for (int k = 0; k < 2; k++)
			json_array_foreach(json_object_get(v, kinds[k]), i, t)
				if (!land(rules, t, key))
					return est_error_set(EST_EINVAL, BOARD_FILE ": field \"start.%s.%s[%zu]\" is not a "
							     "land square of %s; give [column, row] of one inside it", key,
							     kinds[k], i, key);
	}
	return check_seating(rules) < 0 || check_armies(rules) < 0 ? est_error_code() : 0;
}
