/*
 * Campaign: pieces, sides and cards over the state.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "cp_internal.h"

int cp_sq(const json_t *square, int *x, int *y)
{
	/* Off every board, for a caller that reads them all the same. */
	*x = *y = -1;
	if (!json_is_array(square) || json_array_size(square) != 2 || !json_is_integer(json_array_get(square, 0)) ||
	    !json_is_integer(json_array_get(square, 1)))
		return 0;
	*x = (int)json_integer_value(json_array_get(square, 0));
	*y = (int)json_integer_value(json_array_get(square, 1));
	return 1;
}

json_t *cp_piece(const json_t *state, const char *id)
{
	return est_rules_find(json_object_get(state, "pieces"), "id", id);
}

json_t *cp_piece_at(const json_t *state, int x, int y)
{
	json_t *p;
	size_t i;
	int px, py;

	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (cp_sq(json_object_get(p, "square"), &px, &py) && px == x && py == y)
			return p;
	return NULL;
}

/* §10: "When attacking, all pieces ... have a value of 1 ... The General, when defending has a value of 2". */
int cp_value(const json_t *piece, int defending)
{
	return defending && strcmp(est_rules_str(piece, "kind"), "general") == 0 ? 2 : 1;
}

int cp_allied(const json_t *state, const char *a, const char *b)
{
	const json_t *pair;
	size_t i;

	if (strcmp(a, b) == 0)
		return 0;
	json_array_foreach(json_object_get(state, "alliances"), i, pair)
		if (est_rules_in_list(pair, a) && est_rules_in_list(pair, b))
			return 1;
	/* RULINGS.md C2: one player's two countries fight as one side. */
	return cp_partners(state, a, b);
}

int cp_partners(const json_t *state, const char *a, const char *b)
{
	const json_t *same;
	size_t i;

	json_array_foreach(json_object_get(state, "partners"), i, same)
		if (est_rules_in_list(same, a) && est_rules_in_list(same, b))
			return 1;
	return 0;
}

int cp_alliances_open(const json_t *state)
{
	/* Only the two-player game gives a player two countries (RULINGS.md C2). */
	return json_array_size(json_object_get(state, "partners")) == 0;
}

int cp_friendly(const json_t *state, const char *a, const char *b)
{
	return strcmp(a, b) == 0 || cp_allied(state, a, b);
}

int cp_count(const json_t *state, const char *country, const char *kind)
{
	const json_t *p;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(state, "pieces"), i, p)
		n += strcmp(est_rules_str(p, "country"), country) == 0 && (!kind || strcmp(est_rules_str(p, "kind"), kind) == 0);
	return n;
}

int cp_is_out(const json_t *state, const char *country)
{
	return est_rules_in_list(json_object_get(state, "out"), country);
}

int cp_red_cards(const json_t *state, const json_t *rules, const char *country)
{
	const char *name;
	const json_t *holder;
	int n = 0;

	json_object_foreach((json_t *)json_object_get(state, "towns"), name, holder)
		n += json_is_string(holder) && strcmp(json_string_value(holder), country) == 0 &&
		     strcmp(est_rules_str(cp_town(rules, name), "colour"), "red") == 0;
	return n;
}

int cp_towns_abroad(const json_t *state, const json_t *rules, const char *country)
{
	const char *name;
	const json_t *holder;
	int n = 0;

	json_object_foreach((json_t *)json_object_get(state, "towns"), name, holder)
		n += json_is_string(holder) && strcmp(json_string_value(holder), country) == 0 &&
		     strcmp(est_rules_str(cp_town(rules, name), "country"), country) != 0;
	return n;
}

int cp_in_box(const json_t *state, const char *country, const char *kind)
{
	int left = CP_SET_TROOPS - cp_count(state, country, kind);

	return left > 0 ? left : 0;
}

/* A new piece from the box: the next free number of its kind ("France-C5"). */
int cp_new_piece(json_t *state, const char *country, const char *kind, int x, int y)
{
	char id[64];

	if (cp_in_box(state, country, kind) == 0)
		return 1;

	for (int n = 1; n < 100; n++) {
		snprintf(id, sizeof(id), "%s-%c%d", country, kind[0] == 'i' ? 'I' : 'C', n);
		if (!cp_piece(state, id))
			break;
	}
	if (json_array_append_new(json_object_get(state, "pieces"), json_pack("{s:s, s:s, s:s, s:[i, i]}", "id", id,
				  "country", country, "kind", kind, "square", x, y)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}
