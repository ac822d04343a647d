/*
 * Campaign §10 Attack and defence and §14 Supporting pieces: a piece is
 * taken when superior forces stand on adjacent squares, each touching it
 * along a line it may move on; in the Standard game every piece adjacent
 * to the target supports it and must first be engaged by attacking pieces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "cp_internal.h"

#define MAX_PIECES 64

/* §10: "infantry pieces must be touching at a corner, cavalry ... along the side, the General ... either". */
static int touches(const json_t *attacker, const json_t *target)
{
	int ax, ay, tx, ty, dx, dy;
	const char *kind = est_rules_str(attacker, "kind");

	/* A piece waiting off the board (RULINGS.md C14) touches nothing. */
	if (!cp_sq(json_object_get(attacker, "square"), &ax, &ay) || !cp_sq(json_object_get(target, "square"), &tx, &ty))
		return 0;
	dx = abs(ax - tx);
	dy = abs(ay - ty);
	if (dx > 1 || dy > 1 || (dx == 0 && dy == 0))
		return 0;
	if (strcmp(kind, "infantry") == 0)
		return dx == 1 && dy == 1;
	if (strcmp(kind, "cavalry") == 0)
		return dx + dy == 1;
	return 1;
}

static int adjacent(const json_t *a, const json_t *b)
{
	int ax, ay, bx, by;

	if (!cp_sq(json_object_get(a, "square"), &ax, &ay) || !cp_sq(json_object_get(b, "square"), &bx, &by))
		return 0;
	return a != b && abs(ax - bx) <= 1 && abs(ay - by) <= 1;
}

struct fight {
	const json_t *target;
	const json_t *attackers[MAX_PIECES];
	const json_t *supporters[MAX_PIECES];
	int by[MAX_PIECES];	 /* attacker -> the supporter it engages, or -1: free to strike */
	int best_by[MAX_PIECES]; /* the same, in the best assignment found */
	int best;		 /* its score: 100 a supporter engaged, 1 a free attacker touching the target */
	size_t na, ns;
};

static int score(const struct fight *f)
{
	int n = 0;

	for (size_t a = 0; a < f->na; a++)
		n += f->by[a] >= 0 ? 0 : touches(f->attackers[a], f->target);
	for (size_t s = 0; s < f->ns; s++) {
		int engaged = 0;
		for (size_t a = 0; a < f->na; a++)
			engaged += f->by[a] == (int)s;
		n += engaged > 0 ? 100 : 0;
	}
	return n;
}

/*
 * The best engagement of supporters from `s` on (RULINGS.md C5): a supporter is engaged by attacking
 * pieces of its defence value, each touching it, or left unengaged; an attacking piece engages one
 * supporter or strikes the target. Best: the most supporters engaged, then the most pieces left to
 * strike, so a failed attack can name the supporter that was not engaged.
 */
static void engage(struct fight *f, size_t s)
{
	int need;

	if (s == f->ns) {
		int n = score(f);
		if (n > f->best) {
			f->best = n;
			memcpy(f->best_by, f->by, sizeof(f->by));
		}
		return;
	}
	engage(f, s + 1);
	need = cp_value(f->supporters[s], 1);
	for (size_t a = 0; a < f->na; a++) {
		if (f->by[a] >= 0 || !touches(f->attackers[a], f->supporters[s]))
			continue;
		f->by[a] = (int)s;
		if (need == 1)
			engage(f, s + 1);
		else
			for (size_t b = a + 1; b < f->na; b++) {
				if (f->by[b] >= 0 || !touches(f->attackers[b], f->supporters[s]))
					continue;
				f->by[b] = (int)s;
				engage(f, s + 1);
				f->by[b] = -1;
			}
		f->by[a] = -1;
	}
}

/* "striking: Spain-G, Spain-I1; Spain-C1 engages France-I5; France-C2 at [4, 5] supports it unengaged (§14)". */
static char *pieces_text(const struct fight *f)
{
	char *text = NULL, *part = NULL;
	int x, y, fail = 0;

	for (size_t a = 0; a < f->na; a++)
		if (f->best_by[a] < 0 && touches(f->attackers[a], f->target))
			fail |= est_rules_join(&part, ", ", "%s", est_rules_str(f->attackers[a], "id")) < 0;
	fail |= est_rules_join(&text, "; ", "striking: %s", part ? part : "none") < 0;
	free(part);
	for (size_t s = 0; s < f->ns; s++) {
		part = NULL;
		for (size_t a = 0; a < f->na; a++)
			if (f->best_by[a] == (int)s)
				fail |= est_rules_join(&part, " and ", "%s", est_rules_str(f->attackers[a], "id")) < 0;
		cp_sq(json_object_get(f->supporters[s], "square"), &x, &y);
		if (part)
			fail |= est_rules_join(&text, "; ", "%s engage%s %s", part, strstr(part, " and ") ? "" : "s",
					       est_rules_str(f->supporters[s], "id")) < 0;
		else
			fail |= est_rules_join(&text, "; ", "%s at [%d, %d] supports it unengaged (§14)",
					       est_rules_str(f->supporters[s], "id"), x, y) < 0;
		free(part);
	}
	if (fail) {
		free(text);
		return NULL;
	}
	return text;
}

int cp_attack_outcome(int *taken_out, char **why_out, char **pieces_out, const json_t *state,
		      const char *attacker, const json_t *target)
{
	const char *owner = est_rules_str(target, "country");
	int standard = strcmp(est_rules_str(state, "game"), "standard") == 0, defence = cp_value(target, 1), left;
	struct fight f = {.target = target, .best = -1};
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(state, "pieces"), i, p) {
		const char *c = est_rules_str(p, "country");
		/* §10: "Opposing pieces can be taken by any mixed, allied force." */
		if (cp_friendly(state, attacker, c) && !cp_friendly(state, owner, c) && f.na < MAX_PIECES)
			f.attackers[f.na++] = p;
		/* §14: "A piece being attacked is supported by any other pieces adjacent to it." */
		else if (standard && cp_friendly(state, owner, c) && adjacent(p, target) && f.ns < MAX_PIECES)
			f.supporters[f.ns++] = p;
	}
	for (size_t a = 0; a < MAX_PIECES; a++)
		f.by[a] = -1;
	engage(&f, 0);
	/* Every supporter engaged, or the attack fails (§14: "every adjacent piece must be engaged"). */
	left = f.best >= 100 * (int)f.ns ? f.best - 100 * (int)f.ns : -1;
	*taken_out = left > defence;
	*why_out = est_strdup_printf("%d attacking piece%s free to strike against a defence of %d%s%s",
				     left < 0 ? 0 : left, left == 1 ? "" : "s", defence,
				     f.ns ? ", after engaging " : "",
				     f.ns ? (left < 0 ? "(not every supporter could be engaged)" :
					     "every supporting piece") : "");
	if (pieces_out && *why_out && !(*pieces_out = pieces_text(&f))) {
		free(*why_out);
		*why_out = NULL;
	}
	return *why_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const char *cp_attack_refusal(const json_t *state, const char *country, const json_t *target)
{
	const char *owner = est_rules_str(target, "country");
	const json_t *b;
	size_t i;
	int x, y;

	if (!cp_sq(json_object_get(target, "square"), &x, &y))
		return "§15 and RULINGS.md C14: that piece waits off the board until a square of its own is free, "
		       "and a piece off the board cannot be attacked";
	if (cp_friendly(state, country, owner))
		return "§8: that piece is your own or your ally's";
	json_array_foreach(json_object_get(state, "broken"), i, b)
		if (strcmp(est_rules_str(b, "by"), country) == 0 && strcmp(est_rules_str(b, "with"), owner) == 0 &&
		    est_rules_int(b, "turn", -1) == est_rules_int(state, "turn", 0))
			return "§8: a player may not break an alliance and attack his former ally in the same turn";
	if (json_is_true(json_object_get(json_object_get(state, "mobilising"), country)))
		return "§16: a General and his army must mobilise in the Capital before they engage in hostilities";
	/* "No other player may attack the Capital or any pieces being mobilised until mobilisation is complete." */
	if (json_is_true(json_object_get(json_object_get(state, "mobilising"), owner)))
		return "§16: no other player may attack the Capital or the pieces being mobilised until "
		       "mobilisation is complete";
	if (strcmp(est_rules_str(target, "kind"), "general") == 0 &&
	    est_rules_int(json_object_get(state, "immune"), owner, 0) > 0)
		return "§12: a captured General may not be attacked again until after his second turn";
	return NULL;
}
