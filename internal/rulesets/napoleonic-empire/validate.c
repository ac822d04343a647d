/*
 * Napoleonic Empire: checking one power's orders before they are accepted
 * (README.md "Orders" lists every item and what is refused).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

struct check {
	json_t *diags;
	const json_t *state, *rules;
	const char *side, *phase;
	const char *power;   /* the power ordering: the side's, or an Allied country's */
	int extra;
	/* per-file counts */
	int discards, bop, extra_turns, retreat_answers;
	json_t *rebels;      /* indices of the "rebels" items */
	json_t *used;        /* card ids named so far */
	json_t *moved;       /* country -> armies moved out so far */
	json_t *battle_plays; /* country -> card (this file) */
	json_t *standing;    /* country -> 1 (standing-play) */
	json_t *retreats;    /* country -> 1 (retreat) */
};

#define R_MOVE "Napoleonic Empire, Move Phase"
#define R_DRAW "Napoleonic Empire, Draw Phase"
#define R_CARDS "Napoleonic Empire, Card List"
#define R_ATTACK "Napoleonic Empire, Attack Phase"
#define R_REINF "Napoleonic Empire, Nationalist Movements"
#define R_ORDERS "Napoleonic Empire, orders (README.md)"
#define R_ONCE "Napoleonic Empire, Move Phase: an army may move only once per turn"
#define R_DIVIDED "Napoleonic Empire, Game Designers Notes (the divided Allies)"

/* "y" or "ies" for "arm%s", for counts that may exceed an int. */
static const char *ies(json_int_t n)
{
	return n == 1 ? "y" : "ies";
}

static const char *s_(json_int_t n)
{
	return n == 1 ? "" : "s";
}

static const char *const fields_discard[] = {"type", "card", NULL};
static const char *const fields_play[] = {"type", "card", "country", NULL};
static const char *const fields_move[] = {"type", "from", "to", "armies", NULL};
static const char *const fields_rebels[] = {"type", "country", NULL};
static const char *const fields_retreat[] = {"type", "from", "to", NULL};
static const char *const fields_standing[] = {"type", "card", "country", NULL};

static int known_fields(struct check *c, int i, const json_t *o, const char *const *allowed)
{
	const char *key;
	json_t *v;
	int ok = 1;

	json_object_foreach((json_t *)o, key, v) {
		if (!est_rules_listed(allowed, key)) {
			est_rules_diag(c->diags, i, key, R_ORDERS, "not part of a \"%s\" order; remove it",
			     est_rules_str(o, "type"));
			ok = 0;
		} else if (strcmp(key, "armies") == 0 ? !json_is_integer(v) : !json_is_string(v)) {
			est_rules_diag(c->diags, i, key, R_ORDERS, "must be %s; fix its type",
			     strcmp(key, "armies") == 0 ? "an integer (a number of armies)" : "a string");
			ok = 0;
		}
	}
	return ok;
}

static int need(struct check *c, int i, const json_t *o, const char *field)
{
	if (json_object_get(o, field))
		return 1;
	est_rules_diag(c->diags, i, field, R_ORDERS, "missing, and a \"%s\" order needs it; add it",
	     est_rules_str(o, "type"));
	return 0;
}

static int country_ok(struct check *c, int i, const json_t *o, const char *field)
{
	const char *name = est_rules_str(o, field);

	if (!need(c, i, o, field))
		return 0;
	if (ne_is_country(c->rules, name))
		return 1;
	est_rules_diag(c->diags, i, field, "Napoleonic Empire, The Map", "\"%s\" is not a country of the map; use a "
	     "name as the report spells it (e.g. \"Rhineland\")", name);
	return 0;
}

/* A card named in an order: known, held, named once in the file. */
static const json_t *card_ok(struct check *c, int i, const json_t *o)
{
	const char *id = est_rules_str(o, "card");
	const json_t *card;

	if (!need(c, i, o, "card"))
		return NULL;
	if (!(card = ne_card(c->rules, id))) {
		est_rules_diag(c->diags, i, "card", R_CARDS, "\"%s\" is no card of the game; use the card's id as your "
		     "report lists it (e.g. \"austerlitz\")", id);
		return NULL;
	}
	if (ne_hand_index(c->state, c->side, id) < 0) {
		est_rules_diag(c->diags, i, "card", R_CARDS, "%s does not hold \"%s\"; name only cards in your hand",
		     c->side, id);
		return NULL;
	}
	if (json_object_get(c->used, id)) {
		est_rules_diag(c->diags, i, "card", R_CARDS, "\"%s\" is already named by an earlier order of this file, "
		     "and a card is discarded or played once; name it once", id);
		return NULL;
	}
	json_object_set_new(c->used, id, json_true());
	return card;
}

static int own_side(struct check *c, int i, const json_t *card)
{
	if (ne_card_playable_by(card, c->side))
		return 1;
	est_rules_diag(c->diags, i, "card", R_CARDS, "\"%s\" is a card of %s (RULINGS.md R12); %s may only discard it",
	     est_rules_str(card, "id"), est_rules_str(card, "side"), c->side);
	return 0;
}

static void battle_play(struct check *c, int i, const json_t *o, const json_t *card,
			json_t *seen, const char *what)
{
	const char *country = est_rules_str(o, "country");

	if (!country_ok(c, i, o, "country"))
		return;
	if (!ne_card_fits(card, country)) {
		est_rules_diag(c->diags, i, "country", R_CARDS, "\"%s\" influences battles in %s only, not in %s; name one "
		     "of its countries", est_rules_str(card, "id"), est_rules_str(card, "notes"), country);
		return;
	}
	if (json_object_get(seen, country)) {
		est_rules_diag(c->diags, i, "country", R_ATTACK, "a second %s for the battle in %s, but each side plays at "
		     "most one battle card per battle (RULINGS.md R10); keep one", what, country);
		return;
	}
	json_object_set_new(seen, country, json_true());
}

static void event_play(struct check *c, int i, const json_t *o, const json_t *card)
{
	const char *type = ne_effect_type(card);
	const char *country = est_rules_str(o, "country");

	if (strcmp(type, "bonus-armies") != 0 && json_object_get(o, "country"))
		est_rules_diag(c->diags, i, "country", R_CARDS, "\"%s\" is an event card that names no country; remove "
		     "this field", est_rules_str(card, "id"));
	if ((strcmp(type, "bonus-armies") == 0 || strcmp(type, "rebels") == 0) && c->extra)
		est_rules_diag(c->diags, i, "card", R_CARDS, "\"%s\" places armies in the Reinforcement phase, and an "
		     "extra turn has none (RULINGS.md R15); play it in a normal turn", est_rules_str(card, "id"));
	if (strcmp(type, "bonus-armies") == 0 && country && country_ok(c, i, o, "country") &&
	    (est_rules_in_list(json_object_get(json_object_get(c->rules, "reinforcements"), "france_never_from"),
			country) || strcmp(country, "England") == 0 || strcmp(country, "Ottoman Empire") == 0))
		est_rules_diag(c->diags, i, "country", "Napoleonic Empire, Reinforcements Phase", "France can never "
		     "receive armies in %s; name a country France controls", country);
	if (strcmp(type, "continental-system") == 0 &&
	    json_is_true(json_object_get(c->state, "continental_system")))
		est_rules_diag(c->diags, i, "card", R_CARDS, "the Continental System is already in force; keep or "
		     "discard the card");
	if (strcmp(type, "extra-turn") == 0 && c->extra_turns++ > 0)
		est_rules_diag(c->diags, i, "card", R_CARDS, "a second extra-turn card in one turn (RULINGS.md R20); play "
		     "one per turn");
	if (strcmp(type, "rebels") == 0)
		c->bop++;
}

/* The country of the pending battle `side` already named `card` for, or NULL. */
static const char *committed_to(const json_t *attack, const char *side, const char *card)
{
	const char *country;
	json_t *v;

	json_object_foreach(json_object_get(json_object_get(attack, "plays"), side), country, v) {
		if (card && json_is_string(v) && strcmp(json_string_value(v), card) == 0)
			return country;
	}
	return NULL;
}

static void check_play(struct check *c, int i, const json_t *o)
{
	const json_t *card;

	if (!known_fields(c, i, o, fields_play) || !(card = card_ok(c, i, o)) || !own_side(c, i, card))
		return;
	if (!ne_card_is_battle(card) && strcmp(c->phase, "battle-cards") == 0) {
		est_rules_diag(c->diags, i, "card", R_CARDS, "\"%s\" is an event card, played in your own turn, and the "
		     "battle-cards step takes battle cards only; play it in your turn", est_rules_str(card, "id"));
		return;
	}
	if (!ne_card_is_battle(card)) {
		event_play(c, i, o, card);
		return;
	}
	if (strcmp(c->phase, "battle-cards") == 0) {
		const json_t *att = json_object_get(c->state, "attack");
		const char *country = est_rules_str(o, "country");
		const char *where = committed_to(att, c->side, est_rules_str(card, "id"));

		if (country && !est_rules_in_list(json_object_get(att, "battles"), country)) {
			est_rules_diag(c->diags, i, "country", R_ATTACK, "there is no pending battle in %s; play cards only "
			     "for the battles your report lists", country);
			return;
		}
		/* "When a card is played, it is discarded": one battle per card (RULINGS.md R34). */
		if (where) {
			est_rules_diag(c->diags, i, "card", R_ATTACK, "\"%s\" is already played by %s in the battle in %s "
			     "(named in the turn orders), and a played card is discarded; name another "
			     "card or none", est_rules_str(card, "id"), c->side, where);
			return;
		}
		if (country && json_object_get(json_object_get(json_object_get(att, "plays"), c->side), country)) {
			est_rules_diag(c->diags, i, "country", R_ATTACK, "%s %s a card in the battle in %s, and "
			     "a side plays one battle card per battle (RULINGS.md R10); remove this order",
			     c->side, ne_verb(c->side, "already plays", "already play"), country);
			return;
		}
	}
	battle_play(c, i, o, card, c->battle_plays, "battle card");
}

static void check_move(struct check *c, int i, const json_t *o)
{
	const char *from, *to, *why;
	json_int_t n, left;
	int start, before;

	if (!known_fields(c, i, o, fields_move) || !country_ok(c, i, o, "from") ||
	    !country_ok(c, i, o, "to") || !need(c, i, o, "armies"))
		return;
	from = est_rules_str(o, "from");
	to = est_rules_str(o, "to");
	n = json_integer_value(json_object_get(o, "armies"));
	if (ne_divided(c->state) && strcmp(c->side, NE_ALLIES) == 0 && !ne_commands(c->state, c->rules, c->power, from)) {
		const char *by = ne_commander(c->state, c->rules, from);
		est_rules_diag(c->diags, i, "from", R_DIVIDED, "the Allied armies in %s are moved by the player "
		     "holding %s, not by the player holding %s (RULINGS.md R37); leave this move to %s", from, by ? by : "no Allied power",
		     c->power, by ? "that player" : "nobody: rules/rulings.json \"allied_command\" names no power for it");
		return;
	}
	if (json_is_true(json_object_get(json_object_get(c->state, "no_move"), c->side))) {
		est_rules_diag(c->diags, i, "type", R_CARDS, "%s may not move this turn (%s); remove the moves", c->side,
		     strcmp(c->side, NE_FRANCE) == 0 ? "Josephine" : "Treaty of Tilsit");
		return;
	}
	if ((why = ne_move_refusal(c->rules, c->side, from, to))) {
		est_rules_diag(c->diags, i, "to", why, "%s cannot move from %s to %s; move only along a border the map "
		     "shows", c->side, from, to);
		return;
	}
	/* Compared as written (a json_int_t), so 4294967301 is never taken for 5. */
	if (n < 1) {
		est_rules_diag(c->diags, i, "armies", R_MOVE, "%" JSON_INTEGER_FORMAT " is no number of armies to move; "
		     "move 1 or more", n);
		return;
	}
	start = ne_armies(c->state, from, c->side);
	before = (int)json_integer_value(json_object_get(c->moved, from)); /* 0 .. start */
	left = start - before;
	if (n > left) {
		if (before > 0)
			est_rules_diag(c->diags, i, "armies", R_ONCE, "%" JSON_INTEGER_FORMAT " arm%s on top of the %d "
			     "already moved out of %s, but %s %s %d arm%s there at the start of the turn; "
			     "move at most %d more", n, ies(n), before, from, c->side, ne_verb(c->side, "has", "have"),
			     start, ne_ies(start),
			     start - before);
		else
			est_rules_diag(c->diags, i, "armies", R_ONCE, "the moves out of %s total %" JSON_INTEGER_FORMAT
			     " arm%s, but %s %s %d arm%s there at the start of the turn; move at most %d",
			     from, n, ies(n), c->side, ne_verb(c->side, "has", "have"), start, ne_ies(start), start);
		return;
	}
	json_object_set_new(c->moved, from, json_integer(before + (int)n));
}

static void check_rebels(struct check *c, int i, const json_t *o)
{
	const json_t *list = json_object_get(json_object_get(c->rules, "reinforcements"), "rebels");

	if (!known_fields(c, i, o, fields_rebels) || !country_ok(c, i, o, "country"))
		return;
	if (strcmp(c->side, NE_ALLIES) != 0) {
		est_rules_diag(c->diags, i, "type", R_REINF, "only the Allies place rebel armies; remove this order");
		return;
	}
	if (c->extra) {
		est_rules_diag(c->diags, i, "type", R_REINF, "an extra turn has no Reinforcements phase, so no rebels; "
		     "remove this order");
		return;
	}
	/* A refused item places nothing, so it does not count toward the once a turn. */
	if (!est_rules_in_list(json_object_get(list, "countries"), est_rules_str(o, "country"))) {
		est_rules_diag(c->diags, i, "country", R_REINF, "rebels rise only in Spain, Portugal, Prussia, Russia or "
		     "Austria, not in %s; name one of them", est_rules_str(o, "country"));
		return;
	}
	json_array_append_new(c->rebels, json_integer(i));
}

static void check_retreat(struct check *c, int i, const json_t *o)
{
	const char *from, *to;

	if (!known_fields(c, i, o, fields_retreat) || !country_ok(c, i, o, "from") ||
	    !country_ok(c, i, o, "to"))
		return;
	from = est_rules_str(o, "from");
	to = est_rules_str(o, "to");
	if (strcmp(c->phase, "retreat") == 0) {
		const json_t *r = json_object_get(c->state, "retreat");

		if (c->retreat_answers++ > 0)
			est_rules_diag(c->diags, i, "type", R_ATTACK, "a second retreat, but the retreat step takes "
			     "exactly one; remove this order");
		else if (strcmp(from, est_rules_str(r, "from")) != 0)
			est_rules_diag(c->diags, i, "from", R_ATTACK, "the retreat awaited is from %s, not from %s; set "
			     "\"from\": \"%s\"", est_rules_str(r, "from"), from, est_rules_str(r, "from"));
		else if (!est_rules_in_list(json_object_get(r, "options"), to))
			est_rules_diag(c->diags, i, "to", R_ATTACK, "%s is not an adjacent friendly country free of enemy "
			     "armies; choose one your report lists", to);
		return;
	}
	if (json_object_get(c->retreats, from))
		est_rules_diag(c->diags, i, "from", R_ORDERS, "a second standing retreat from %s; give one", from);
	else if (!ne_land_adjacent(c->rules, from, to) || ne_move_refusal(c->rules, c->side, from, to))
		est_rules_diag(c->diags, i, "to", R_ATTACK, "a retreat from %s cannot go to %s (not adjacent, England or "
		     "the Ottoman Empire); name an adjacent country", from, to);
	json_object_set_new(c->retreats, from, json_true());
}

static void check_standing(struct check *c, int i, const json_t *o)
{
	const json_t *card;

	if (!known_fields(c, i, o, fields_standing) || !(card = card_ok(c, i, o)) ||
	    !own_side(c, i, card))
		return;
	if (!ne_card_is_battle(card)) {
		est_rules_diag(c->diags, i, "card", R_CARDS, "\"%s\" is an event card, and only battle cards have standing "
		     "plays; play it in your turn or keep it", est_rules_str(card, "id"));
		return;
	}
	battle_play(c, i, o, card, c->standing, "standing play");
}

static const char *const all_types[] = {"discard", "play", "move", "rebels", "retreat",
					"standing-play", NULL};

static const char *accepted(const char *phase)
{
	if (strcmp(phase, "turn") == 0)
		return "discard, play, move, rebels, retreat, standing-play";
	if (strcmp(phase, "battle-cards") == 0)
		return "play";
	if (strcmp(phase, "retreat") == 0)
		return "retreat";
	return "";
}

static int accepts(const char *phase, const char *type)
{
	if (strcmp(phase, "turn") == 0)
		return est_rules_listed(all_types, type);
	if (strcmp(phase, "battle-cards") == 0)
		return strcmp(type, "play") == 0;
	return strcmp(phase, "retreat") == 0 && strcmp(type, "retreat") == 0;
}

static void check_item(struct check *c, int i, const json_t *o)
{
	const char *type = est_rules_str(o, "type");

	if (!json_is_object(o)) {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "this order is not a JSON object; write it as {\"type\": "
		     "..., ...} with one of the types the \"%s\" step takes: %s", c->phase,
		     accepted(c->phase));
		return;
	}
	if (!type) {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "missing or not a string; give the order one of the types "
		     "the \"%s\" step takes: %s", c->phase, accepted(c->phase));
		return;
	}
	if (!est_rules_listed(all_types, type)) {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "\"%s\" is no order type; the \"%s\" step takes: %s", type,
		     c->phase, accepted(c->phase));
		return;
	}
	if (!accepts(c->phase, type)) {
		est_rules_diag(c->diags, i, "type", R_ORDERS, "a \"%s\" order is not accepted in the \"%s\" step; this "
		     "step takes: %s", type, c->phase, accepted(c->phase));
		return;
	}
	if (strcmp(type, "move") != 0 && strcmp(c->side, c->power) != 0 && strcmp(c->power, NE_KEEPER) != 0) {
		est_rules_diag(c->diags, i, "type", R_DIVIDED, "in the divided Allies the player holding England keeps "
		     "the Allied hand and gives the side's %s orders, not %s (RULINGS.md R36); ask that player to "
		     "send it, and send only moves", type, c->power);
		return;
	}
	if (strcmp(type, "discard") == 0) {
		if (known_fields(c, i, o, fields_discard) && card_ok(c, i, o))
			c->discards++;
	} else if (strcmp(type, "play") == 0) {
		check_play(c, i, o);
	} else if (strcmp(type, "move") == 0) {
		check_move(c, i, o);
	} else if (strcmp(type, "rebels") == 0) {
		check_rebels(c, i, o);
	} else if (strcmp(type, "retreat") == 0) {
		check_retreat(c, i, o);
	} else {
		check_standing(c, i, o);
	}
}

/* "once", "twice", "3 times" */
static const char *times(char *buf, size_t len, int n)
{
	if (n == 1)
		return "once";
	if (n == 2)
		return "twice";
	snprintf(buf, len, "%d times", n);
	return buf;
}

static void check_discards(struct check *c)
{
	int hand = (int)json_array_size(ne_hand(c->state, c->side));
	int limit = ne_setup_int(c->rules, "hand_limit", 7);
	int excess = hand > limit ? hand - limit : 0;
	int off = excess - c->discards;

	if (off == 0)
		return;
	est_rules_diag(c->diags, -1, "orders", R_DRAW, "%s %s %d card%s and may keep %d: the orders discard %d "
	     "card%s but must discard exactly %d card%s; %s %d {\"type\": \"discard\", \"card\": "
	     "...} item%s", c->side, ne_verb(c->side, "holds", "hold"), hand, s_(hand), limit, c->discards, s_(c->discards), excess,
	     s_(excess), off > 0 ? "add" : "remove", off > 0 ? off : -off, s_(off > 0 ? off : -off));
}

/* Rebels once per turn, once more per Balance of Power: each item beyond that is refused. */
static void check_rebel_count(struct check *c)
{
	int allowed = 1 + c->bop, placed = (int)json_array_size(c->rebels), k;
	char a[32], p[32];

	for (k = allowed; k < placed; k++)
		est_rules_diag(c->diags, (int)json_integer_value(json_array_get(c->rebels, (size_t)k)), "type", R_REINF,
		     "the orders place rebels %s, but the Allies may place 2 rebel armies once per "
		     "turn, once more per Balance of Power played (%s here); remove this order",
		     times(p, sizeof(p), placed), times(a, sizeof(a), allowed));
}

static void check_totals(struct check *c)
{
	/* The hand limit is the keeper's to meet in the divided Allies (RULINGS.md R36). */
	if (strcmp(c->phase, "turn") == 0 && strcmp(c->power, ne_speaker(c->state, c->side)) == 0)
		check_discards(c);
	check_rebel_count(c);
	if (strcmp(c->phase, "retreat") == 0 && c->retreat_answers == 0)
		est_rules_diag(c->diags, -1, "orders", R_ATTACK, "the retreat step takes exactly one retreat, and these "
		     "orders hold none; send {\"type\": \"retreat\", \"from\": ..., \"to\": ...}");
}

/* The powers pending() names; in a battle-cards step also a side not asked, which may add a card (R10). */
static int awaited(const json_t *state, const char *power)
{
	json_t *powers = ne_awaited(state);
	const char *side = ne_side_of(state, power);
	int yes = est_rules_in_list(powers, power) ||
		  (strcmp(est_rules_str(state, "phase"), "battle-cards") == 0 && side &&
		   strcmp(power, ne_speaker(state, side)) == 0);

	json_decref(powers);
	return yes;
}

int ne_validate(json_t **diagnostics_out, const json_t *state_given, const json_t *rules,
		const char *power, const json_t *orders)
{
	struct check c = {0};
	json_t *o, *state = NULL;
	size_t i, n;
	int error = 0;

	*diagnostics_out = NULL;
	c.diags = json_array();
	c.used = json_object();
	c.moved = json_object();
	c.battle_plays = json_object();
	c.standing = json_object();
	c.retreats = json_object();
	c.rebels = json_array();
	if (!c.diags || !c.used || !c.moved || !c.battle_plays || !c.standing || !c.retreats ||
	    !c.rebels) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = ne_state_in(&state, state_given)) < 0)
		goto out;
	c.state = state;
	c.rules = rules;
	c.power = power;
	c.side = ne_side_of(state, power);
	c.phase = est_rules_str(state, "phase") ? est_rules_str(state, "phase") : "";
	c.extra = json_is_true(json_object_get(state, "extra"));
	if (!power || !c.side || !awaited(state, power)) {
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "the \"%s\" step does not await orders from %s; send "
		     "orders only when your report asks for them", c.phase, power ? power : "(none)");
	} else if (!json_is_array(orders)) {
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "not an array; write the orders as [{\"type\": ...}, ...] "
		     "(see README.md)");
	} else {
		json_array_foreach(orders, i, o)
			check_item(&c, (int)i, o);
		check_totals(&c);
	}
	if ((n = json_array_size(c.diags)) > 0) {
		*diagnostics_out = c.diags;
		c.diags = NULL;
		error = est_error_set(EST_EINVAL, "orders for %s: %zu problem%s; the first: %s",
				      power ? power : "(none)", n, n == 1 ? "" : "s",
				      est_rules_str(json_array_get(*diagnostics_out, 0), "message"));
	}
out:
	json_decref(state);
	json_decref(c.diags);
	json_decref(c.used);
	json_decref(c.moved);
	json_decref(c.battle_plays);
	json_decref(c.standing);
	json_decref(c.retreats);
	json_decref(c.rebels);
	return error;
}
