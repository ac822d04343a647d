/*
 * Campaign: order checks (README.md "Orders"). The moves are played out on
 * a copy of the state, one by one, so each is judged on the board as the
 * earlier ones leave it; every refusal names the rule and the piece.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "cp_internal.h"

#define R_ORDERS "Campaign, orders (README.md)"

struct check {
	json_t *state; /* a copy the moves are played on */
	const json_t *rules;
	const char *active;
	json_t *diags;
	const char *last_piece;
	json_t *done; /* piece id -> true: moved and let go */
	int moves, attacks;
};

static int throw_of(const json_t *state)
{
	const json_t *t = json_object_get(state, "throw");

	return (int)(json_integer_value(json_array_get(t, 0)) + json_integer_value(json_array_get(t, 1)));
}

static void check_move(struct check *c, int i, const json_t *o)
{
	const char *id = est_rules_str(o, "piece"), *why;
	json_t *piece = cp_piece(c->state, id);
	int x, y;

	if (!piece || strcmp(est_rules_str(piece, "country"), c->active) != 0) {
		est_rules_diag(c->diags, i, "piece", R_ORDERS, "%s%s%s is not a piece of %s; move your own pieces "
			       "(ids as the report lists them, e.g. \"%s-C1\")", id ? "\"" : "", id ? id : "the move",
			       id ? "\"" : "", c->active, c->active);
		return;
	}
	if (!cp_sq(json_object_get(o, "to"), &x, &y)) {
		est_rules_diag(c->diags, i, "to", R_ORDERS, "must be a square [column, row]");
		return;
	}
	/* "Once a piece has been moved and let go it must not be touched again in that turn." */
	if (json_object_get(c->done, id) && (!c->last_piece || strcmp(c->last_piece, id) != 0)) {
		est_rules_diag(c->diags, i, "piece", "Campaign §10", "%s was moved and let go earlier this turn and "
			       "must not be touched again; give each piece's moves one after another", id);
		return;
	}
	if (++c->moves > throw_of(c->state)) {
		est_rules_diag(c->diags, i, "piece", "Campaign §2", "this is move %d and the dice threw %d; drop the "
			       "moves beyond the throw", c->moves, throw_of(c->state));
		return;
	}
	if ((why = cp_step_refusal(c->state, c->rules, piece, x, y))) {
		est_rules_diag(c->diags, i, "to", "Campaign", "%s cannot move to [%d, %d]: %s", id, x, y, why);
		return;
	}
	json_object_set_new(piece, "square", json_pack("[i, i]", x, y));
	json_object_set_new(c->done, id, json_true());
	c->last_piece = est_rules_str(piece, "id");
}

static void check_attack(struct check *c, int i, const json_t *o)
{
	const char *id = est_rules_str(o, "target"), *why;
	const json_t *target = cp_piece(c->state, id);

	/* §10: "The attacking player must say which piece it is ... and he may not change his target once he has made a move." */
	if (c->moves > 0 || c->attacks++ > 0) {
		est_rules_diag(c->diags, i, "type", "Campaign §10", "only one piece may be attacked in a turn, declared "
			       "before any move; put one attack first");
		return;
	}
	if (!target) {
		est_rules_diag(c->diags, i, "target", R_ORDERS, "there is no piece %s%s%s on the board; name one the "
			       "report lists", id ? "\"" : "", id ? id : "", id ? "\"" : "");
		return;
	}
	if ((why = cp_attack_refusal(c->state, c->rules, c->active, target)))
		est_rules_diag(c->diags, i, "target", "Campaign", "%s may not be attacked: %s", id, why);
}

static void check_diplomacy(struct check *c, int i, const json_t *o)
{
	const char *type = est_rules_str(o, "type"), *action = est_rules_str(o, "action");
	const char *with = est_rules_str(o, type[0] == 'c' ? "to" : "with");
	const json_t *state = c->state;

	if (!with || !est_rules_in_list(json_object_get(state, "bases"), with) || strcmp(with, c->active) == 0 ||
	    cp_is_out(state, with)) {
		est_rules_diag(c->diags, i, type[0] == 'c' ? "to" : "with", "Campaign §8", "name another country in "
			       "the game");
		return;
	}
	if (json_array_size(json_object_get(state, "partners")) > 0) {
		est_rules_diag(c->diags, i, "type", "Campaign §1", "when only two players are involved there can be "
			       "no alliances; remove it");
		return;
	}
	if (strcmp(type, "consent") == 0) {
		if (!cp_allied(state, c->active, with))
			est_rules_diag(c->diags, i, "to", "Campaign §8", "%s is not your ally: consent is for allies "
				       "crossing into your territory", with);
		return;
	}
	if (!action || (strcmp(action, "propose") != 0 && strcmp(action, "accept") != 0 && strcmp(action, "break") != 0))
		est_rules_diag(c->diags, i, "action", "Campaign §8", "an alliance order is propose, accept or break");
	else if (strcmp(action, "break") == 0 ? !cp_allied(state, c->active, with) : cp_allied(state, c->active, with))
		est_rules_diag(c->diags, i, "with", "Campaign §8", "%s %s your ally", with,
			       strcmp(action, "break") == 0 ? "is not" : "is already");
	else if (strcmp(action, "accept") == 0) {
		const json_t *p;
		size_t k;
		int found = 0;
		json_array_foreach(json_object_get(state, "proposals"), k, p)
			found |= strcmp(json_string_value(json_array_get(p, 0)), with) == 0 &&
				 strcmp(json_string_value(json_array_get(p, 1)), c->active) == 0;
		if (!found)
			est_rules_diag(c->diags, i, "with", "Campaign §8", "%s has not proposed an alliance to you; "
				       "propose one instead", with);
		else
			json_array_append_new(json_object_get(c->state, "alliances"), json_pack("[s, s]", with, c->active));
	} else if (strcmp(action, "break") == 0) {
		json_t *alliances = json_object_get(c->state, "alliances");
		for (size_t k = json_array_size(alliances); k-- > 0;)
			if (est_rules_in_list(json_array_get(alliances, k), c->active) &&
			    est_rules_in_list(json_array_get(alliances, k), with))
				json_array_remove(alliances, k);
		json_array_append_new(json_object_get(c->state, "broken"), json_pack("{s:s, s:s, s:O}", "by", c->active,
				      "with", with, "turn", json_object_get(c->state, "turn")));
	}
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

static void check_item(struct check *c, int i, const json_t *o)
{
	const char *type = est_rules_str(o, "type");

	if (!json_is_object(o) || !type)
		est_rules_diag(c->diags, i, "type", R_ORDERS, "each order is an object with a \"type\"");
	else if (!fields_ok(c, i, o))
		return;
	else if (strcmp(type, "move") == 0)
		check_move(c, i, o);
	else if (strcmp(type, "attack") == 0)
		check_attack(c, i, o);
	else if (strcmp(type, "place") == 0) {
		const json_t *town = cp_town(c->rules, est_rules_str(o, "town"));
		int tx, ty, x, y;
		if (!town || strcmp(est_rules_str(town, "colour"), "red") != 0 || strcmp(est_rules_str(c->state, "game"), "standard") != 0)
			est_rules_diag(c->diags, i, "town", "Campaign §13", "\"place\" says where the piece a red town "
				       "brings goes, in the Standard game; name a red town");
		else if (!cp_sq(json_object_get(town, "square"), &tx, &ty) || !cp_sq(json_object_get(o, "square"), &x, &y) ||
			 abs(x - tx) > 1 || abs(y - ty) > 1 || (x == tx && y == ty) || cp_terrain(c->rules, x, y) != '.')
			est_rules_diag(c->diags, i, "square", "Campaign §13", "the piece goes \"on any empty square "
				       "adjacent to the Town square\": name a land square next to %s", est_rules_str(town, "name"));
	} else
		est_rules_diag(c->diags, i, "type", R_ORDERS, "\"%s\" is not an order; a turn takes move, attack, "
			       "alliance, consent, place", type);
}

int cp_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		const json_t *orders)
{
	struct check c = {json_deep_copy(state), rules, power, json_array(), NULL, json_object(), 0, 0};
	const json_t *o;
	size_t i;

	if (!c.state || !c.diags || !c.done) {
		json_decref(c.state);
		json_decref(c.diags);
		json_decref(c.done);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	if (strcmp(est_rules_str(state, "phase"), "turn") != 0 || strcmp(est_rules_str(state, "active"), power) != 0)
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "it is not %s's turn; wait for the report that asks "
			       "for your orders", power);
	else if (!json_is_array(orders))
		est_rules_diag(c.diags, -1, "orders", R_ORDERS, "must be an array of orders");
	else {
		/* Diplomacy first, on the copy: an attack is judged with this turn's alliances and breaks. */
		json_array_foreach(orders, i, o)
			if (json_is_object(o) && est_rules_str(o, "type") && (strcmp(est_rules_str(o, "type"), "alliance") == 0 ||
								       strcmp(est_rules_str(o, "type"), "consent") == 0) &&
			    fields_ok(&c, (int)i, o))
				check_diplomacy(&c, (int)i, o);
		json_array_foreach(orders, i, o)
			if (!json_is_object(o) || !est_rules_str(o, "type") || (strcmp(est_rules_str(o, "type"), "alliance") != 0 &&
									  strcmp(est_rules_str(o, "type"), "consent") != 0))
				check_item(&c, (int)i, o);
	}
	json_decref(c.state);
	json_decref(c.done);
	return est_rules_validated(diagnostics_out, c.diags);
}
