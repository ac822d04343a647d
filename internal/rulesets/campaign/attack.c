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

	cp_sq(json_object_get(attacker, "square"), &ax, &ay);
	cp_sq(json_object_get(target, "square"), &tx, &ty);
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

	cp_sq(json_object_get(a, "square"), &ax, &ay);
	cp_sq(json_object_get(b, "square"), &bx, &by);
	return a != b && abs(ax - bx) <= 1 && abs(ay - by) <= 1;
}

struct fight {
	const json_t *target;
	const json_t *attackers[MAX_PIECES];
	const json_t *supporters[MAX_PIECES];
	int used[MAX_PIECES];
	size_t na, ns;
};

/* Attackers left free that touch the target, after supporters from `s` on are engaged. */
static int best_left(struct fight *f, size_t s)
{
	int best = -1, need;

	if (s == f->ns) {
		int n = 0;
		for (size_t a = 0; a < f->na; a++)
			n += !f->used[a] && touches(f->attackers[a], f->target);
		return n;
	}
	/* RULINGS.md C5: a supporter is engaged by attacking pieces of its defence value, each touching it. */
	need = cp_value(f->supporters[s], 1);
	for (size_t a = 0; a < f->na; a++) {
		if (f->used[a] || !touches(f->attackers[a], f->supporters[s]))
			continue;
		f->used[a] = 1;
		if (need == 1) {
			int n = best_left(f, s + 1);
			best = n > best ? n : best;
		} else {
			for (size_t b = a + 1; b < f->na; b++) {
				if (f->used[b] || !touches(f->attackers[b], f->supporters[s]))
					continue;
				f->used[b] = 1;
				int n = best_left(f, s + 1);
				best = n > best ? n : best;
				f->used[b] = 0;
			}
		}
		f->used[a] = 0;
	}
	return best;
}

int cp_attack_outcome(int *taken_out, char **why_out, const json_t *state, const json_t *rules,
		      const char *attacker, const json_t *target)
{
	const char *owner = est_rules_str(target, "country");
	int standard = strcmp(est_rules_str(state, "game"), "standard") == 0, defence = cp_value(target, 1), left;
	struct fight f = {.target = target};
	const json_t *p;
	size_t i;

	(void)rules;
	json_array_foreach(json_object_get(state, "pieces"), i, p) {
		const char *c = est_rules_str(p, "country");
		/* §10: "Opposing pieces can be taken by any mixed, allied force." */
		if (cp_friendly(state, attacker, c) && !cp_friendly(state, owner, c) && f.na < MAX_PIECES)
			f.attackers[f.na++] = p;
		/* §14: "A piece being attacked is supported by any other pieces adjacent to it." */
		else if (standard && cp_friendly(state, owner, c) && adjacent(p, target) && f.ns < MAX_PIECES)
			f.supporters[f.ns++] = p;
	}
	left = best_left(&f, 0);
	*taken_out = left > defence;
	*why_out = est_strdup_printf("%d attacking piece%s free to strike against a defence of %d%s%s",
				     left < 0 ? 0 : left, left == 1 ? "" : "s", defence,
				     f.ns ? ", after engaging " : "",
				     f.ns ? (left < 0 ? "(not every supporter could be engaged)" :
					     "every supporting piece") : "");
	return *why_out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const char *cp_attack_refusal(const json_t *state, const json_t *rules, const char *country,
			      const json_t *target)
{
	const char *owner = est_rules_str(target, "country");
	const json_t *b;
	size_t i;

	(void)rules;
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
