/*
 * Napoleonic Empire, CARD LIST: the 32 cards of rules["cards"] and what
 * each one does, as data (kind, side, countries, bonus, effect).
 */
#include <string.h>

#include "ne_internal.h"

const json_t *ne_card(const json_t *rules, const char *id)
{
	const json_t *list = json_object_get(json_object_get(rules, "cards"), "cards");
	size_t i;
	json_t *c;

	json_array_foreach(list, i, c) {
		const char *cid = json_string_value(json_object_get(c, "id"));

		if (cid && id && strcmp(cid, id) == 0)
			return c;
	}
	return NULL;
}

const char *ne_card_name(const json_t *rules, const char *id)
{
	const char *name = json_string_value(json_object_get(ne_card(rules, id), "name"));

	return name ? name : id;
}

int ne_card_is_battle(const json_t *card)
{
	const char *kind = json_string_value(json_object_get(card, "kind"));

	return kind && strcmp(kind, "battle") == 0;
}

/* RULINGS.md R12: a card is played by the side it benefits ("any": both). */
int ne_card_playable_by(const json_t *card, const char *side)
{
	const char *s = json_string_value(json_object_get(card, "side"));

	return s && (strcmp(s, "any") == 0 || strcmp(s, side) == 0);
}

/* "If a player has a card that influences a battle at that country"; "Anywhere": every country (RULINGS.md R28). */
int ne_card_fits(const json_t *card, const char *country)
{
	const json_t *where = json_object_get(card, "countries");

	if (!ne_card_is_battle(card))
		return 0;
	if (json_is_string(where))
		return strcmp(json_string_value(where), "anywhere") == 0;
	return est_rules_in_list(where, country);
}

int ne_card_bonus(const json_t *card)
{
	return (int)json_integer_value(json_object_get(card, "bonus"));
}

const char *ne_effect_type(const json_t *card)
{
	const char *t = json_string_value(json_object_get(json_object_get(card, "effect"), "type"));

	return t ? t : "";
}

int ne_effect_int(const json_t *card, const char *key)
{
	return (int)json_integer_value(json_object_get(json_object_get(card, "effect"), key));
}
