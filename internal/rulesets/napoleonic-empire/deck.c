/*
 * Napoleonic Empire, DRAW PHASE: the deck, the discard pile and the hands.
 * Every shuffle uses the hidden stream (docs/protocol.md "Dice protocol v2": a deck order is
 * something no player may foresee).
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

int ne_shuffle_deck(json_t *state, json_t *events, est_dice *hidden, const char *why)
{
	json_t *deck = json_object_get(state, "deck");
	int error;

	if ((error = est_dice_shuffle(deck, hidden, "deck shuffle")) < 0)
		return error;
	return est_rules_event(events, json_pack("{s:i}", "cards", (int)json_array_size(deck)),
			"shuffle", "%s (%zu cards)", why, json_array_size(deck));
}

/* "If the deck runs out, shuffle the discard pile and continue drawing from it." */
static int reshuffle(json_t *state, json_t *events, est_dice *hidden)
{
	json_t *discard = json_object_get(state, "discard");
	int error;

	if ((error = json_array_extend(json_object_get(state, "deck"), discard)) < 0 ||
	    (error = json_array_clear(discard)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return ne_shuffle_deck(state, events, hidden, "The deck ran out: the discard pile is shuffled into a new deck");
}

static int draw_events(json_t *events, const json_t *rules, const char *side, json_t *drawn)
{
	char names[1024] = "";
	size_t i, len = 0;
	json_t *v;
	int error;

	json_array_foreach(drawn, i, v) {
		const char *nm = ne_card_name(rules, json_string_value(v));

		if (len + strlen(nm) + 3 < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						i ? ", " : "", nm);
	}
	if ((error = est_rules_event(events, json_pack("{s:s, s:i}", "side", side, "count",
						(int)json_array_size(drawn)),
			      "draw", "%s %s %zu card%s", side, ne_verb(side, "draws", "draw"),
			      json_array_size(drawn),
			      json_array_size(drawn) == 1 ? "" : "s")) < 0)
		return error;
	return est_rules_event(events, json_pack("{s:s, s:O, s:[s]}", "side", side, "cards", drawn,
					  "visible_to", side),
			"draw-cards", "%s %s %s", side, ne_verb(side, "draws", "draw"),
			len ? names : "nothing");
}

/* Draw `n` cards into `side`'s hand; fewer if deck and discard pile are both empty. */
int ne_draw(json_t *state, json_t *events, const json_t *rules, const char *side, int n,
	    est_dice *hidden)
{
	json_t *deck = json_object_get(state, "deck"), *hand = ne_hand(state, side);
	json_t *drawn = json_array();
	int error = 0;

	if (!drawn)
		return est_error_set(EST_ENOMEM, "out of memory");
	while (n-- > 0) {
		if (json_array_size(deck) == 0 &&
		    json_array_size(json_object_get(state, "discard")) > 0 &&
		    (error = reshuffle(state, events, hidden)) < 0)
			goto out;
		if (json_array_size(deck) == 0)
			break;
		if (json_array_append(hand, json_array_get(deck, 0)) < 0 ||
		    json_array_append(drawn, json_array_get(deck, 0)) < 0 ||
		    json_array_remove(deck, 0) < 0) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
	}
	error = draw_events(events, rules, side, drawn);
out:
	json_decref(drawn);
	return error;
}

/* "When a card is played, it is discarded." Returns EST_ERROR if not in hand. */
int ne_play_from_hand(json_t *state, const char *side, const char *card)
{
	int i = ne_hand_index(state, side, card);

	if (i < 0)
		return est_error_set(EST_ERROR, "state.json: %s does not hold card \"%s\"", side, card);
	if (json_array_append_new(json_object_get(state, "discard"), json_string(card)) < 0 ||
	    json_array_remove(ne_hand(state, side), (size_t)i) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}
