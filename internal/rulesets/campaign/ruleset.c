/*
 * Campaign: the est_ruleset table: set-up from the players' bases (§1),
 * the step each state awaits, and resolve() by step.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "campaign.h"
#include "cp_internal.h"

static const char *const powers_list[] = {"France", "Russia", "Austria", "Spain", "Prussia", NULL};

static const char *const *powers(void)
{
	return powers_list;
}

/* §1: four players France, Russia, Austria, Spain; three: "An obvious choice would be Spain, Prussia and Austria"; two: "France and Spain v Russia and Austria". */
static int deal(json_t **out, size_t players)
{
	switch (players) {
	case 2:
		*out = json_pack("[[s, s], [s, s]]", "France", "Spain", "Russia", "Austria");
		break;
	case 3:
		*out = json_pack("[[s], [s], [s]]", "Spain", "Prussia", "Austria");
		break;
	case 4:
		*out = json_pack("[[s], [s], [s], [s]]", "France", "Russia", "Austria", "Spain");
		break;
	default:
		return est_error_set(EST_EINVAL, "Campaign is for two to four players (§1); list 2, 3 or 4 players");
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* The bases from options["players"] (rulesets/ruleset.h powers_optional), checked against §1. */
static int read_bases(json_t **bases_out, json_t **partners_out, const json_t *options)
{
	const json_t *players = json_object_get(options, "players");
	json_t *bases = json_array(), *partners = json_array(), *held, *c;
	size_t i, j, n = json_array_size(players);
	int error = 0;

	json_array_foreach(players, i, held) {
		json_array_foreach(held, j, c)
			json_array_append(bases, c);
		if (json_array_size(held) > 1)
			json_array_append(partners, held);
		if (!error && n == 2 && json_array_size(held) != 2)
			error = est_error_set(EST_EINVAL, "players[%zu] holds %zu countries: \"When only two players "
					      "are involved ... Each player controls two armies\" (§1); give each two",
					      i, json_array_size(held));
		if (!error && n > 2 && json_array_size(held) != 1)
			error = est_error_set(EST_EINVAL, "players[%zu] holds %zu countries: with %zu players each "
					      "chooses one country as its base (§1); give it one", i,
					      json_array_size(held), n);
	}
	if (!error && (n < 2 || n > 4))
		error = est_error_set(EST_EINVAL, "Campaign is for two to four players (§1); list 2, 3 or 4");
	if (!error && est_rules_in_list(bases, "France") && est_rules_in_list(bases, "Prussia"))
		error = est_error_set(EST_EINVAL, "the players hold France and Prussia: \"France and Prussia cannot "
				      "be used as base countries at the same time\" (§1); choose another base");
	if (!error && n == 4 && est_rules_in_list(bases, "Prussia"))
		error = est_error_set(EST_EINVAL, "with four players \"the four countries used as bases are France, "
				      "Russia, Austria and Spain. Prussia is not used as a base\" (§1); hold those");
	if (error < 0) {
		json_decref(bases);
		json_decref(partners);
		return error;
	}
	*bases_out = bases;
	*partners_out = partners;
	return 0;
}

static int read_options(const char **game, int *limit, const json_t *options)
{
	const char *key;
	json_t *v;

	*game = "standard";
	*limit = 0;
	json_object_foreach((json_t *)options, key, v) {
		if (strcmp(key, "players") == 0)
			continue;
		if (strcmp(key, "game") == 0 && json_is_string(v) &&
		    (strcmp(json_string_value(v), "standard") == 0 || strcmp(json_string_value(v), "introductory") == 0))
			*game = json_string_value(v);
		else if (strcmp(key, "limit") == 0 && json_is_integer(v) && json_integer_value(v) >= 0 &&
			 json_integer_value(v) <= 10000)
			*limit = (int)json_integer_value(v);
		else
			return est_error_set(EST_EINVAL, "option \"%s\": Campaign takes game=standard|introductory and "
					     "limit=TURNS (the time limit after which most towns wins; 0: none); fix "
					     "or remove it", key);
	}
	return 0;
}

/* §1: "Place the Generals on the Capital squares ... 4 infantry and 4 cavalry pieces on the starting squares". */
static int place_armies(json_t *state, const json_t *rules, const json_t *bases)
{
	const json_t *c, *sq;
	size_t i, j;
	int x, y, error;

	json_array_foreach(bases, i, c) {
		const char *country = json_string_value(c), *kinds[] = {"infantry", "cavalry"};
		char id[40];
		if (!cp_capital(&x, &y, rules, country))
			return est_error_set(EST_EINVAL, "rules/board.json: field \"capitals\" has no capital "
					     "of %s, a base of this game; add {\"country\": \"%s\", \"name\", \"square\"}",
					     country, country);
		snprintf(id, sizeof(id), "%s-G", country);
		json_array_append_new(json_object_get(state, "pieces"), json_pack("{s:s, s:s, s:s, s:[i, i]}", "id", id,
				      "country", country, "kind", "general", "square", x, y));
		for (int k = 0; k < 2; k++)
			json_array_foreach(json_object_get(json_object_get(json_object_get(cp_board(rules), "start"),
									   country), kinds[k]), j, sq)
				if (cp_sq(sq, &x, &y) && (error = cp_new_piece(state, country, kinds[k], x, y)) < 0)
					return error;
	}
	return 0;
}

/* "Each player will begin with the five cards of his own colour": the bases hold their own towns. */
static json_t *towns_at_start(const json_t *rules, const json_t *bases)
{
	json_t *towns = json_object();
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(cp_board(rules), "towns"), i, t) {
		const char *country = est_rules_str(t, "country");
		json_object_set_new(towns, est_rules_str(t, "name"),
				    est_rules_in_list(bases, country) ? json_string(country) : json_null());
	}
	return towns;
}

static int setup(json_t **state_out, const json_t *rules, const json_t *options)
{
	json_t *bases = NULL, *partners = NULL, *state, *c;
	const char *game;
	size_t i;
	int limit, error;

	if ((error = cp_check_board(rules)) < 0 || (error = read_options(&game, &limit, options)) < 0 ||
	    (error = read_bases(&bases, &partners, options)) < 0)
		return error;
	json_array_foreach(bases, i, c)
		if (!est_rules_in_list(json_object_get(cp_board(rules), "seating"), json_string_value(c))) {
			json_decref(bases);
			json_decref(partners);
			return est_error_set(EST_EINVAL, "rules/board.json: \"seating\" lacks %s, a base of this "
					     "game; list every country round the table", json_string_value(c));
		}
	state = json_pack("{s:s, s:o, s:o, s:[], s:s, s:i, s:n, s:n, s:[], s:o, s:[], s:[], s:[], s:[], s:{}, "
			  "s:{}, s:{}, s:{}, s:{}, s:{s:[], s:n}, s:i}",
			  "game", game, "bases", bases, "partners", partners, "order", "phase", "start", "turn", 0,
			  "active", "throw", "pieces", "towns", towns_at_start(rules, bases), "out", "alliances",
			  "proposals", "broken", "consent", "missed", "immune", "mobilising", "recruits", "last",
			  "moves", "attack", "limit", limit);
	if (!state)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = place_armies(state, rules, json_object_get(state, "bases"))) < 0) {
		json_decref(state);
		return error;
	}
	*state_out = state;
	return 0;
}

static int pending(json_t **out, const json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase"), *active = est_rules_str(state, "active");
	const json_t *t = json_object_get(state, "throw");
	char prompt[300];

	if (strcmp(phase, "over") == 0)
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "over", "kind", "over", "powers", "prompt",
				 "the campaign is over");
	else if (strcmp(phase, "start") == 0)
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "automatic", "kind", "start", "powers", "prompt",
				 "the order of play is thrown (§9)");
	else {
		snprintf(prompt, sizeof(prompt), "%s's turn %d: the dice throw %d moves; move, attack one piece, "
			 "make and break alliances", active, est_rules_int(state, "turn", 0),
			 (int)(json_integer_value(json_array_get(t, 0)) + json_integer_value(json_array_get(t, 1))));
		*out = json_pack("{s:s, s:s, s:[s], s:s, s:o}", "mode", "sequential", "kind", "turn", "powers", active,
				 "prompt", prompt, "choices", cp_choices(state, rules));
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

static int resolve(json_t **state_out, json_t **events_out, const json_t *state, const json_t *rules,
		   const json_t *orders, est_dice *dice, est_dice *hidden)
{
	json_t *s = json_deep_copy(state), *events = json_array();
	const char *phase = est_rules_str(state, "phase");
	int error;

	(void)hidden;
	if (!s || !events)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if (strcmp(phase, "over") == 0)
		error = est_error_set(EST_ERROR, "state.json: the campaign is over; nothing to resolve");
	else if (strcmp(phase, "start") == 0)
		error = cp_start(s, events, rules, dice);
	else
		error = cp_play_turn(s, events, rules, dice, json_object_get(orders, est_rules_str(state, "active")));
	return est_rules_resolved(state_out, events_out, s, events, error);
}

const est_ruleset est_ruleset_campaign = {
	.name = "campaign",
	.version = "2",
	.powers = powers,
	.setup = setup,
	.pending = pending,
	.validate = cp_validate,
	.default_orders = est_rules_no_orders, /* RULINGS.md C12: a missed turn orders nothing */
	.resolve = resolve,
	.view = cp_view,
	.sealed = NULL,
	.deal = deal,
	.score = NULL,
	.powers_optional = 1,
};
