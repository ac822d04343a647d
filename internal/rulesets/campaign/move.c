/*
 * Campaign §3 Movement of the pieces and §4 Breakthroughs: one step of one
 * piece, judged on the board as the earlier steps of the turn left it.
 */
#include <stdlib.h>
#include <string.h>

#include "cp_internal.h"

/* "Playing pieces may not move on to or over any square that is marked as sea, forest or mountain." */
static const char *square_refusal(const json_t *state, const json_t *rules, int x, int y)
{
	char t = cp_terrain(rules, x, y);

	if (x < 0 || y < 0 || x >= cp_width(rules) || y >= cp_height(rules))
		return "§3: the square is off the board";
	if (t != '.')
		return t == '~' ? "The Board: pieces may not move onto sea" : t == '#' ?
		       "The Board: pieces may not move onto forest" : "The Board: pieces may not move onto mountains";
	if (cp_piece_at(state, x, y))
		return "§3: only one piece may occupy any one square (and pieces may not jump over one another)";
	return NULL;
}

/* §0 frontiers, and §8: "A player must not cross any border into his ally's territory without his consent." */
static const char *border_refusal(const json_t *state, const json_t *rules, const char *mover, int ax, int ay,
				  int bx, int by)
{
	const char *from = cp_country_at(rules, ax, ay), *into = cp_country_at(rules, bx, by);

	if (!cp_may_cross(rules, ax, ay, bx, by))
		return "The Board: pieces move from one country into another only across the frontier rivers "
		       "or red lines";
	if (into && (!from || strcmp(from, into) != 0) && cp_allied(state, mover, into) &&
	    !cp_partners(state, mover, into) &&
	    !est_rules_in_list(json_object_get(json_object_get(state, "consent"), into), mover))
		return "§8: a player must not cross into his ally's territory without its consent (a consent order "
		       "from the ally)";
	return NULL;
}

/* §4: "Pieces may not pass through opposing lines unless there is a clear gap of at least one square." */
static const char *gap_refusal(const json_t *state, const json_t *piece, int ax, int ay, int bx, int by)
{
	const json_t *c1 = cp_piece_at(state, bx, ay), *c2 = cp_piece_at(state, ax, by);
	const char *mover = est_rules_str(piece, "country");

	if (!c1 || !c2)
		return NULL;
	/* "Infantry pieces and Generals can pass between adjacent units of their own side." */
	if (cp_friendly(state, mover, est_rules_str(c1, "country")) && cp_friendly(state, mover, est_rules_str(c2, "country")))
		return NULL;
	return "§4 Breakthroughs: no clear gap between the two pieces at the corners of this step";
}

/*
 * A piece waiting off the board enters a free square of those it was to go to: §15 "he must bring any
 * additional units into the Enlistment Area when earlier units have been moved away"; in the Introductory
 * game its start square, or the Capital for the General (RULINGS.md C14).
 */
static const char *entry_refusal(const json_t *state, const json_t *rules, const json_t *piece, int x, int y)
{
	const char *mover = est_rules_str(piece, "country"), *kind = est_rules_str(piece, "kind");
	int standard = strcmp(est_rules_str(state, "game"), "standard") == 0, listed = 0, ex, ey;
	json_t *entry = cp_entry_squares(state, rules, mover, kind);
	const json_t *sq;
	size_t i;

	json_array_foreach(entry, i, sq)
		listed |= cp_sq(sq, &ex, &ey) && ex == x && ey == y;
	json_decref(entry);
	if (listed)
		return cp_piece_at(state, x, y) ? "§3: only one piece may occupy any one square; that square is "
		       "taken, so the piece waits until it is free" : NULL;
	if (!standard)
		return "§12: a piece waiting off the board enters its own start square beside its Capital (the "
		       "General, the Capital) once it is free";
	json_array_foreach(json_object_get(json_object_get(cp_board(rules), "enlistment"), mover), i, sq)
		if (cp_sq(sq, &ex, &ey) && ex == x && ey == y)
			return "§16: from that square the piece could never reach a start square of its kind; enter "
			       "by another";
	return "§15: a piece waiting off the board enters its country's Enlistment Area";
}

const char *cp_step_refusal(const json_t *state, const json_t *rules, const json_t *piece, int x, int y)
{
	const char *kind = est_rules_str(piece, "kind"), *why, *mover = est_rules_str(piece, "country");
	int px, py, dx, dy;

	if (!cp_sq(json_object_get(piece, "square"), &px, &py))
		return entry_refusal(state, rules, piece, x, y);
	dx = x - px;
	dy = y - py;
	if (strcmp(kind, "general") == 0 && (abs(dx) > 1 || abs(dy) > 1 || (dx == 0 && dy == 0)))
		return "§3: the General moves one square at a time, in any direction";
	if (strcmp(kind, "infantry") == 0 && (abs(dx) != 1 || abs(dy) != 1))
		return "§3: infantry moves one square at a time, only diagonally";
	if (strcmp(kind, "cavalry") == 0 && !((abs(dx) == 2 && dy == 0) || (dx == 0 && abs(dy) == 2)))
		return "§3: cavalry must move two squares at a time, only horizontally or vertically";
	if ((why = square_refusal(state, rules, x, y)))
		return why;
	if (strcmp(kind, "cavalry") == 0) {
		int mx = px + dx / 2, my = py + dy / 2;
		if ((why = square_refusal(state, rules, mx, my)))
			return why;
		if ((why = border_refusal(state, rules, mover, px, py, mx, my)) ||
		    (why = border_refusal(state, rules, mover, mx, my, x, y)))
			return why;
		return NULL;
	}
	if ((why = border_refusal(state, rules, mover, px, py, x, y)))
		return why;
	return dx && dy ? gap_refusal(state, piece, px, py, x, y) : NULL;
}
