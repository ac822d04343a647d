/*
 * Campaign: a turn's orders, checked and applied in the order written
 * (README.md "Orders", RULINGS.md C13). validate() applies them to a copy
 * of the state and keeps the refusals; resolve() applies them to the turn's
 * state with this same code, so a file validate() accepts always resolves.
 * Each item is judged on the board and the alliances as the items before it
 * left them; every refusal names the rule and the piece.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "cp_internal.h"

#define R_ORDERS "Campaign, orders (README.md)"

struct check {
	json_t *state; /* the state the orders change: a copy in validate() */
	const json_t *rules;
	const char *active;
	json_t *diags, *events, *moves;
	const char *last_piece;
	const char *target; /* the declared attack's target, borrowed from the orders */
	json_t *done; /* piece id -> true: moved and let go */
	int nmoves, attacks;
};

static int throw_of(const json_t *state)
{
	const json_t *t = json_object_get(state, "throw");

	return (int)(json_integer_value(json_array_get(t, 0)) + json_integer_value(json_array_get(t, 1)));
}

static int check_move(struct check *c, int i, const json_t *o)
{
	const char *id = est_rules_str(o, "piece"), *why;
	json_t *piece = cp_piece(c->state, id), *from;
	int x, y;

	if (!piece || strcmp(est_rules_str(piece, "country"), c->active) != 0) {
		est_rules_diag(c->diags, i, "piece", R_ORDERS, "%s%s%s is not a piece of %s; move your own pieces "
			       "(ids as the report lists them, e.g. \"%s-C1\")", id ? "\"" : "", id ? id : "the move",
			       id ? "\"" : "", c->active, c->active);
		return 0;
	}
	if (!cp_sq(json_object_get(o, "to"), &x, &y)) {
		est_rules_diag(c->diags, i, "to", R_ORDERS, "must be a square [column, row]");
		return 0;
	}
	/* "Once a piece has been moved and let go it must not be touched again in that turn." */
	if (json_object_get(c->done, id) && (!c->last_piece || strcmp(c->last_piece, id) != 0)) {
		est_rules_diag(c->diags, i, "piece", "Campaign §10", "%s was moved and let go earlier this turn and "
			       "must not be touched again; give each piece's moves one after another", id);
		return 0;
	}
	if (++c->nmoves > throw_of(c->state)) {
		est_rules_diag(c->diags, i, "piece", "Campaign §2", "this is move %d and the dice threw %d; drop the "
			       "moves beyond the throw", c->nmoves, throw_of(c->state));
		return 0;
	}
	if ((why = cp_step_refusal(c->state, c->rules, piece, x, y))) {
		est_rules_diag(c->diags, i, "to", "Campaign", "%s cannot move to [%d, %d]: %s", id, x, y, why);
		return 0;
	}
	from = json_object_get(piece, "square");
	if (json_array_append_new(c->moves, json_pack("{s:O, s:O, s:[i, i]}", "piece", json_object_get(piece, "id"),
						      "from", from ? from : json_null(), "to", x, y)) < 0 ||
	    json_object_set_new(piece, "square", json_pack("[i, i]", x, y)) < 0 ||
	    json_object_set_new(c->done, id, json_true()) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	c->last_piece = est_rules_str(piece, "id");
	return 0;
}

static void check_attack(struct check *c, int i, const json_t *o)
{
	const char *id = est_rules_str(o, "target"), *why;
	const json_t *target = cp_piece(c->state, id);

	/* §10: "The attacking player must say which piece it is ... and he may not change his target once he has made a move." */
	if (c->nmoves > 0 || c->attacks++ > 0) {
		est_rules_diag(c->diags, i, "type", "Campaign §10", "only one piece may be attacked in a turn, declared "
			       "before any move; put one attack first");
		return;
	}
	if (!target) {
		est_rules_diag(c->diags, i, "target", R_ORDERS, "there is no piece %s%s%s on the board; name one the "
			       "report lists", id ? "\"" : "", id ? id : "", id ? "\"" : "");
		return;
	}
	if ((why = cp_attack_refusal(c->state, c->active, target))) {
		est_rules_diag(c->diags, i, "target", "Campaign", "%s may not be attacked: %s", id, why);
		return;
	}
	c->target = id;
}

/* Remove the pairs of `list` ([[a, b], ...]) that hold both a and b. */
static void drop_pairs(json_t *list, const char *a, const char *b)
{
	for (size_t k = json_array_size(list); k-- > 0;)
		if (est_rules_in_list(json_array_get(list, k), a) && est_rules_in_list(json_array_get(list, k), b))
			json_array_remove(list, k);
}

/* Remove `name` from the array of strings `list`. */
static void drop_name(json_t *list, const char *name)
{
	for (size_t k = json_array_size(list); k-- > 0;)
		if (strcmp(json_string_value(json_array_get(list, k)), name) == 0)
			json_array_remove(list, k);
}

/* The country `country` is allied with, or NULL: it has one Alliance card to give (Contents, §5). */
static const char *ally_of(const json_t *state, const char *country)
{
	const json_t *pair;
	size_t k;

	json_array_foreach(json_object_get(state, "alliances"), k, pair)
		if (est_rules_in_list(pair, country))
			return json_string_value(json_array_get(pair, strcmp(json_string_value(json_array_get(pair, 0)),
									      country) == 0));
	return NULL;
}

/* §8: consent lets an ally cross into one's territory; it stands until withdrawn. */
static int apply_consent(struct check *c, int i, const char *with, int withdraw)
{
	json_t *consent = json_object_get(c->state, "consent"), *list = json_object_get(consent, c->active);

	if (!cp_allied(c->state, c->active, with)) {
		est_rules_diag(c->diags, i, "to", "Campaign §8", "%s is not your ally: consent is for allies crossing "
			       "into your territory", with);
		return 0;
	}
	if (!list) {
		list = json_array();
		if (json_object_set_new(consent, c->active, list) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	if (withdraw) {
		drop_name(list, with);
		return est_rules_event(c->events, NULL, "consent", "%s withdraws its consent for %s to cross into it",
				       c->active, with);
	}
	if (json_array_append_new(list, json_string(with)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return est_rules_event(c->events, NULL, "consent", "%s lets its ally %s cross into its territory (§8)",
			       c->active, with);
}

/*
 * Contents: "4 Alliance Cards", one a player, and §5: "each player will hold the card of his ally": a player
 * allied already has no card left to give. 1, with the refusal in the diagnostics, when `country` has none.
 */
static int card_refused(struct check *c, int i, const char *country)
{
	const char *ally = ally_of(c->state, country);

	if (!ally)
		return 0;
	est_rules_diag(c->diags, i, "with", "Campaign, Contents and §5", "%s holds %s's Alliance card already: the "
		       "game has one Alliance card a player (\"4 Alliance Cards\"), and an alliance exchanges them; "
		       "%s", country, ally, strcmp(country, c->active) == 0 ? "break that alliance first (an "
		       "earlier order of this turn)" : "wait until that alliance is broken");
	return 1;
}

static int apply_alliance(struct check *c, int i, const char *with, const char *action)
{
	json_t *state = c->state;
	const json_t *p;
	size_t k;
	int found = 0;

	if (!action || (strcmp(action, "propose") != 0 && strcmp(action, "accept") != 0 && strcmp(action, "break") != 0)) {
		est_rules_diag(c->diags, i, "action", "Campaign §8", "an alliance order is propose, accept or break");
		return 0;
	}
	if (strcmp(action, "break") == 0 ? !cp_allied(state, c->active, with) : cp_allied(state, c->active, with)) {
		est_rules_diag(c->diags, i, "with", "Campaign §8", "%s %s your ally", with,
			       strcmp(action, "break") == 0 ? "is not" : "is already");
		return 0;
	}
	if (strcmp(action, "propose") == 0) {
		if (card_refused(c, i, c->active))
			return 0;
		if (json_array_append_new(json_object_get(state, "proposals"), json_pack("[s, s]", c->active, with)) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
		return est_rules_event(c->events, NULL, "alliance", "%s proposes an alliance to %s (§8)", c->active, with);
	}
	if (strcmp(action, "accept") == 0) {
		json_array_foreach(json_object_get(state, "proposals"), k, p)
			found |= strcmp(json_string_value(json_array_get(p, 0)), with) == 0 &&
				 strcmp(json_string_value(json_array_get(p, 1)), c->active) == 0;
		if (!found) {
			est_rules_diag(c->diags, i, "with", "Campaign §8", "%s has not proposed an alliance to you; "
				       "propose one instead", with);
			return 0;
		}
		if (card_refused(c, i, c->active) || card_refused(c, i, with))
			return 0;
		drop_pairs(json_object_get(state, "proposals"), c->active, with);
		if (json_array_append_new(json_object_get(state, "alliances"), json_pack("[s, s]", with, c->active)) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
		return est_rules_event(c->events, NULL, "alliance", "%s and %s are allies: the Alliance cards are "
				       "exchanged (§8)", with, c->active);
	}
	drop_pairs(json_object_get(state, "alliances"), c->active, with);
	if (json_array_append_new(json_object_get(state, "broken"), json_pack("{s:s, s:s, s:I}", "by", c->active,
				  "with", with, "turn", (json_int_t)est_rules_int(state, "turn", 0))) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	/* Consent was given to an ally: it goes with the alliance, both ways. */
	drop_name(json_object_get(json_object_get(state, "consent"), c->active), with);
	drop_name(json_object_get(json_object_get(state, "consent"), with), c->active);
	return est_rules_event(c->events, NULL, "alliance", "%s breaks its alliance with %s and takes back its "
			       "Alliance card; it may attack %s from its next turn (§8)", c->active, with, with);
}

static int check_diplomacy(struct check *c, int i, const json_t *o)
{
	const char *type = est_rules_str(o, "type");
	const char *with = est_rules_str(o, type[0] == 'c' ? "to" : "with");

	if (!with || !est_rules_in_list(json_object_get(c->state, "bases"), with) || strcmp(with, c->active) == 0 ||
	    cp_is_out(c->state, with)) {
		est_rules_diag(c->diags, i, type[0] == 'c' ? "to" : "with", "Campaign §8", "name another country in "
			       "the game");
		return 0;
	}
	if (!cp_alliances_open(c->state)) {
		est_rules_diag(c->diags, i, "type", "Campaign §1", "when only two players are involved there can be "
			       "no alliances; remove it");
		return 0;
	}
	if (strcmp(type, "consent") == 0)
		return apply_consent(c, i, with, json_is_true(json_object_get(o, "withdraw")));
	return apply_alliance(c, i, with, est_rules_str(o, "action"));
}

/* Only the fields README.md "Orders" gives each type: anything else is refused, not ignored. */
static int fields_ok(struct check *c, int i, const json_t *o)
{
	static const struct {
		const char *type, *fields[5];
	} known[] = {{"move", {"type", "piece", "to", NULL}}, {"attack", {"type", "target", NULL}},
		     {"alliance", {"type", "with", "action", NULL}}, {"consent", {"type", "to", "withdraw", NULL}},
		     {"place", {"type", "town", "square", NULL}}};
	const char *type = est_rules_str(o, "type"), *key;
	json_t *v;

	for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
		if (strcmp(known[k].type, type) != 0)
			continue;
		json_object_foreach((json_t *)o, key, v) {
			if (!est_rules_listed(known[k].fields, key)) {
				est_rules_diag(c->diags, i, key, R_ORDERS, "\"%s\" is not a field of %s orders; remove it",
					       key, type);
				return 0;
			}
		}
	}
	return 1;
}

/* §13: "place" names the land square next to a red town where the piece it brings goes (applied with the towns, at the end of the turn). */
static void check_place(struct check *c, int i, const json_t *o)
{
	const json_t *town = cp_town(c->rules, est_rules_str(o, "town"));
	int tx, ty, x, y;

	if (!town || strcmp(est_rules_str(town, "colour"), "red") != 0 || strcmp(est_rules_str(c->state, "game"), "standard") != 0)
		est_rules_diag(c->diags, i, "town", "Campaign §13", "\"place\" says where the piece a red town "
			       "brings goes, in the Standard game; name a red town");
	else if (!cp_sq(json_object_get(town, "square"), &tx, &ty) || !cp_sq(json_object_get(o, "square"), &x, &y) ||
		 abs(x - tx) > 1 || abs(y - ty) > 1 || (x == tx && y == ty) || cp_terrain(c->rules, x, y) != '.')
		est_rules_diag(c->diags, i, "square", "Campaign §13", "the piece goes \"on any empty square "
			       "adjacent to the Town square\": name a land square next to %s", est_rules_str(town, "name"));
}

static int apply_item(struct check *c, int i, const json_t *o)
{
	const char *type = est_rules_str(o, "type");

	if (!json_is_object(o) || !type)
		est_rules_diag(c->diags, i, "type", R_ORDERS, "each order is an object with a \"type\"");
	else if (!fields_ok(c, i, o))
		return 0;
	else if (strcmp(type, "move") == 0)
		return check_move(c, i, o);
	else if (strcmp(type, "attack") == 0)
		check_attack(c, i, o);
	else if (strcmp(type, "alliance") == 0 || strcmp(type, "consent") == 0)
		return check_diplomacy(c, i, o);
	else if (strcmp(type, "place") == 0)
		check_place(c, i, o);
	else
		est_rules_diag(c->diags, i, "type", R_ORDERS, "\"%s\" is not an order; a turn takes move, attack, "
			       "alliance, consent, place", type);
	return 0;
}

int cp_apply_orders(const char **target_out, json_t *diags, json_t *state, json_t *events, json_t *moves,
		    const json_t *rules, const json_t *orders)
{
	struct check c = {state, rules, est_rules_str(state, "active"), diags, events, moves, NULL, NULL,
			  json_object(), 0, 0};
	const json_t *o;
	size_t i;
	int error = 0;

	*target_out = NULL;
	if (!c.done)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (orders && !json_is_array(orders))
		est_rules_diag(diags, -1, "orders", R_ORDERS, "must be an array of orders");
	json_array_foreach(orders, i, o)
		if ((error = apply_item(&c, (int)i, o)) < 0)
			break;
	json_decref(c.done);
	*target_out = c.target;
	return error;
}

int cp_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		const json_t *orders)
{
	json_t *copy = json_deep_copy(state), *diags = json_array(), *events = json_array(), *moves = json_array();
	const char *target;
	int error = 0;

	if (!copy || !diags || !events || !moves)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if (strcmp(est_rules_str(state, "phase"), "turn") != 0 || strcmp(est_rules_str(state, "active"), power) != 0)
		est_rules_diag(diags, -1, "orders", R_ORDERS, "it is not %s's turn; wait for the report that asks "
			       "for your orders", power);
	else if (!json_is_array(orders))
		est_rules_diag(diags, -1, "orders", R_ORDERS, "must be an array of orders");
	else
		error = cp_apply_orders(&target, diags, copy, events, moves, rules, orders);
	json_decref(copy);
	json_decref(events);
	json_decref(moves);
	if (error < 0) {
		json_decref(diags);
		return error;
	}
	return est_rules_validated(diagnostics_out, diags);
}
