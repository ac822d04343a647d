/*
 * Levée en Masse: the Headline decks. The state holds the cards still to
 * come, never their order: each draw takes one of them with the hidden
 * stream (RULINGS.md M3), so nothing of the future is on the public refs,
 * sealed game or not, and the games of one deal draw alike.
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

static const char *const colors[] = {"Blue", "White", "Red", NULL};

/* Whether `card` is in the scenario: base cards always, the Expansion Kit's unless "base". */
static int in_play(const json_t *card, const char *scenario)
{
	return !json_is_true(json_object_get(card, "expansion")) || strcmp(scenario, "base") != 0;
}

/* 12.3 The Historical Game: "arranging the Headline cards in numerical sequence". */
static int by_number(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int nx = est_rules_int(x, "number", 0), ny = est_rules_int(y, "number", 0);

	if (nx != ny)
		return nx < ny ? -1 : 1;
	/* A base card before the Expansion Kit's card of the same number (RULINGS.md M4). */
	return json_is_true(json_object_get(x, "expansion")) - json_is_true(json_object_get(y, "expansion"));
}

static int historical(json_t *deck, const json_t *cards, const char *scenario)
{
	size_t n = 0, i;
	const json_t **list = calloc(json_array_size(cards) + 1, sizeof(*list));
	json_t *card, *ordered = json_array();

	if (!list || !ordered) {
		free(list);
		json_decref(ordered);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_array_foreach(cards, i, card)
		if (in_play(card, scenario))
			list[n++] = card;
	qsort(list, n, sizeof(*list), by_number);
	for (i = 0; i < n; i++)
		json_array_append(ordered, json_object_get(list[i], "id"));
	free(list);
	return json_object_set_new(deck, "Ordered", ordered);
}

int lem_deal(json_t *state, const json_t *rules)
{
	const char *scenario = est_rules_str(state, "scenario");
	const json_t *cards = json_object_get(json_object_get(rules, "cards"), "cards"), *card;
	json_t *deck = json_object();
	size_t i;

	if (!deck)
		return est_error_set(EST_ENOMEM, "out of memory");
	json_object_set_new(state, "deck", deck);
	if (strcmp(scenario, "historical") == 0)
		return historical(deck, cards, scenario);
	/* 12.2 Chronological Purée: "shuffle all of the cards together into a single large deck". */
	json_array_foreach(cards, i, card) {
		const char *pile = strcmp(scenario, "puree") == 0 ? "All" : est_rules_str(card, "deck");
		json_t *list = json_object_get(deck, pile);
		if (!in_play(card, scenario))
			continue;
		if (!list) {
			list = json_array();
			json_object_set_new(deck, pile, list);
		}
		json_array_append(list, json_object_get(card, "id"));
	}
	return 0;
}

/* The pile the next card comes from: Blue, then White, then Red (or the one pile). */
static json_t *next_pile(const char **name_out, const json_t *deck)
{
	static const char *const single[] = {"All", "Ordered", NULL};

	for (const char *const *p = single; *p; p++)
		if (json_object_get(deck, *p)) {
			*name_out = *p;
			return json_object_get(deck, *p);
		}
	for (const char *const *c = colors; *c; c++)
		if (json_array_size(json_object_get(deck, *c)) > 0) {
			*name_out = *c;
			return json_object_get(deck, *c);
		}
	*name_out = NULL;
	return NULL;
}

int lem_draw(const char **drawn_out, json_t *state, const json_t *rules, est_dice *hidden)
{
	const char *name;
	json_t *pile = next_pile(&name, json_object_get(state, "deck")), *card;
	size_t n = json_array_size(pile);
	int k = 1, error;

	(void)rules;
	*drawn_out = NULL;
	if (n == 0)
		return 0;
	if (strcmp(name, "Ordered") != 0 && n > 1 &&
	    (error = est_rules_roll(&k, hidden, (int)n, "draw a Headline card (%s, %zu left)", name, n)) < 0)
		return error;
	card = json_incref(json_array_get(pile, (size_t)k - 1));
	json_array_remove(pile, (size_t)k - 1);
	json_object_set_new(state, "current", card);
	json_array_append(json_object_get(state, "played"), card);
	*drawn_out = json_string_value(card);
	return 0;
}
