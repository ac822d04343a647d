/*
 * La Guerre de l'Empereur: the est_ruleset table: set-up from the
 * scenario, the step each state awaits, default orders (the scenario's
 * NMR policy) and the dispatch of resolve() by step kind.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "la_guerre.h"
#include "lg_internal.h"

/* Every province of the map, with its controller and garrison at the start. */
static json_t *provinces_at_start(const json_t *rules)
{
	const json_t *scenario = lg_scenario(rules), *p;
	json_t *out = json_object();
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "map"), "provinces"), i, p) {
		const char *name = est_rules_str(p, "name");
		const char *c = est_rules_str(json_object_get(scenario, "control"), name);
		const json_t *g = json_object_get(json_object_get(scenario, "garrisons"), name);
		json_object_set_new(out, name, json_pack("{s:s, s:i, s:i}", "controller", c ? c : est_rules_str(p, "nation"),
							 "garrison", est_rules_int(g, "divisions", 0), "ghost",
							 est_rules_int(g, "ghost", 0)));
	}
	return out;
}

/* Each corps a name and 1 to 50 divisions. */
static int corps_ok(const json_t *corps)
{
	const json_t *c;
	size_t i;

	json_array_foreach(corps, i, c)
		if (!est_rules_str(c, "name") || !json_is_integer(json_object_get(c, "divisions")) ||
		    est_rules_int(c, "divisions", 0) < 1 || est_rules_int(c, "divisions", 0) > 50)
			return 0;
	return 1;
}

/* The scenario's armies must stand on the map, under a known leader of a power. */
static int check_armies(const json_t *rules)
{
	const json_t *a;
	size_t i;

	json_array_foreach(json_object_get(lg_scenario(rules), "armies"), i, a) {
		if (!lg_leader(rules, est_rules_str(a, "commander")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu].commander\" is no "
					     "\"id\" of rules/leaders.json; name a leader of leaders.json, or add "
					     "the leader there", i);
		if (!est_rules_str(a, "id") || !lg_is_power(est_rules_str(a, "nation")) ||
		    !lg_province_data(rules, est_rules_str(a, "location")) ||
		    lg_corps_count(a) == 0 || !corps_ok(json_object_get(a, "corps")))
			return est_error_set(EST_EINVAL, "rules/scenario.json: field \"armies[%zu]\" needs an "
					     "\"id\", a \"nation\" that is a power (France, Austria, Russia, "
					     "Britain), a \"location\" of rules/map.json and at least one corps, "
					     "each with a \"name\" and 1 to 50 \"divisions\"; add or correct what "
					     "is missing or wrong", i);
	}
	return 0;
}

static int check_options(const json_t *options, const json_t *rules)
{
	const char *key, *name = est_rules_str(lg_scenario(rules), "name");
	json_t *v;

	json_object_foreach((json_t *)options, key, v) {
		if (strcmp(key, "scenario") != 0)
			return est_error_set(EST_EINVAL, "option \"%s\" is not an option of La Guerre de "
					     "l'Empereur, which accepts \"scenario\" only; remove it", key);
		char given[32];
		/* --option scenario=1805 arrives as a number. */
		if (json_is_integer(v))
			snprintf(given, sizeof(given), "%lld", (long long)json_integer_value(v));
		else
			snprintf(given, sizeof(given), "%s", json_is_string(v) ? json_string_value(v) : "");
		if (strcmp(given, name) != 0)
			return est_error_set(EST_EINVAL, "option \"scenario\": this game's rules/scenario.json "
					     "holds the scenario \"%s\"; use it, or supply another "
					     "scenario.json with `new --rules DIR`", name);
	}
	return 0;
}

static int setup(json_t **state_out, const json_t *rules, const json_t *options)
{
	const json_t *scenario = lg_scenario(rules), *start = json_object_get(scenario, "start");
	json_t *state;
	int error;

	if (!scenario || !json_object_get(rules, "map") || !json_object_get(rules, "tables") ||
	    !json_object_get(rules, "leaders"))
		return est_error_set(EST_EINVAL, "rules: La Guerre de l'Empereur needs map.json, leaders.json, "
				     "tables.json and scenario.json; restore the missing file");
	if ((error = lg_check_rules(rules)) < 0 || (error = check_options(options, rules)) < 0 ||
	    (error = check_armies(rules)) < 0)
		return error;
	state = json_pack("{s:O, s:O, s:O, s:s, s:s, s:o, s:O, s:[], s:[], s:{}, s:O, s:{}, s:i, s:O}",
		"scenario", json_object_get(scenario, "name"), "year", json_object_get(start, "year"),
		"season", json_object_get(start, "season"), "phase", "turn", "side", LG_FRANCE,
		"provinces", provinces_at_start(rules), "armies", json_object_get(scenario, "armies"),
		"moved", "queue", "standing", "diplomacy", json_object_get(scenario, "diplomacy"),
		"embargo_keep", "britain_buy", 0, "vp", json_object_get(scenario, "vp"));
	if (!state)
		return est_error_set(EST_EINVAL, "rules/scenario.json: \"name\", \"start\" {year, season}, "
				     "\"armies\", \"diplomacy\" and \"vp\" are needed; add what is missing");
	/* The scenario's armies are copied, not shared with the rules. */
	json_object_set_new(state, "armies", json_deep_copy(json_object_get(scenario, "armies")));
	json_object_set_new(state, "diplomacy", json_deep_copy(json_object_get(scenario, "diplomacy")));
	json_object_set_new(state, "vp", json_deep_copy(json_object_get(scenario, "vp")));
	*state_out = state;
	return 0;
}

static const char *season_label(const json_t *state, char *buf, size_t len)
{
	snprintf(buf, len, "%s %d", est_rules_str(state, "season"), est_rules_int(state, "year", 0));
	return buf;
}

/* A battle decision's choices (ruleset.h "choices"): each option open, each retreat's province. */
static json_t *battle_choices(const json_t *state, const json_t *rules, const char *kind)
{
	const json_t *battle = json_object_get(state, "battle");
	const char *role = lg_battle_deciding_role(battle);
	const json_t *army = role ? lg_army(state, est_rules_str(json_object_get(battle, role), "army")) : NULL;
	const char *const *opt = lg_battle_options(state);
	json_t *c = json_array(), *to = army ? lg_retreat_options(state, rules, army) : json_array(), *v;
	int error = c && to ? 0 : EST_ENOMEM, begun = json_is_true(json_object_get(battle, "begun"));
	size_t i;

	for (; !error && *opt; opt++) {
		if (strcmp(*opt, "retreat") != 0)
			error = est_rules_choice(c, json_pack("{s:s, s:s}", "type", "option", "option", *opt),
						 "%s (5.616)", *opt);
		else
			json_array_foreach(to, i, v)
				error = error ? error : strcmp(kind, "retreat") == 0 ?
					est_rules_choice(c, json_pack("{s:s, s:O}", "type", "retreat", "to", v),
							 "retreat to %s; pursuit follows (5.629)", json_string_value(v)) :
					est_rules_choice(c, json_pack("{s:s, s:s, s:O}", "type", "option", "option",
								      "retreat", "to", v), "retreat to %s%s", json_string_value(v),
							 begun ? "; pursuit follows, the battle has begun (5.616)" : "");
	}
	/* No province open: the loser retreats through enemy provinces (5.6291), to no choice. */
	if (!error && strcmp(kind, "retreat") == 0 && json_array_size(to) == 0)
		error = est_rules_choice(c, json_pack("{s:s}", "type", "retreat"),
					 "retreat: no province is open, so through enemy provinces (5.6291)");
	json_decref(to);
	if (error < 0) {
		json_decref(c);
		return NULL;
	}
	return c;
}

/* The acceptance of each treaty France has offered a power of the Coalition (RULINGS.md L27). */
static int offer_choices(json_t *c, const json_t *state)
{
	const char *power;
	json_t *kind;

	json_object_foreach(json_object_get(state, "offers"), power, kind)
		if (est_rules_choice(c, json_pack("{s:s, s:s, s:O, s:s}", "type", "treaty", "nation", "France",
						  "treaty", kind, "power", power), "%s only: accept France's offer "
				     "of %s (4.241, L27)", power, lg_treaty_words(json_string_value(kind))) < 0)
			return -1;
	return 0;
}

/* In a Winter turn, the choice to keep in the embargo each nation of an expired treaty the side holds (L22). */
static int keep_choices(json_t *c, const json_t *state, const json_t *rules, const char *side)
{
	const json_t *v;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(lg_scenario(rules), "embargo"), "members"), i, v) {
		const char *nation = json_string_value(v), *holder = lg_embargo_holder(state, rules, nation);
		if (!holder || !lg_treaty_expired(state, nation) || !lg_side_of(rules, holder) ||
		    strcmp(lg_side_of(rules, holder), side) != 0)
			continue;
		if (est_rules_choice(c, json_pack("{s:s, s:[s], s:s}", "type", "embargo", "keep", nation, "power", holder),
				     "%s only: keep %s in France's embargo this winter, its treaty expired (4.241: "
				     "at its player's discretion; left out otherwise)", holder, nation) < 0)
			return -1;
	}
	return 0;
}

/* A turn's choices: the kinds of order the moving side may give, winter's for its power. */
static json_t *turn_choices(const json_t *state, const json_t *rules, const char *side)
{
	json_t *c = json_array();
	int winter = est_rules_str(state, "season") && strcmp(est_rules_str(state, "season"), "Winter") == 0;
	int france = strcmp(side, LG_FRANCE) == 0;

	if (!c || est_rules_choice(c, json_pack("{s:s, s:s, s:[s]}", "type", "move", "army", "<army>", "path",
						"<province>"), "march an army through the provinces entered, in order") < 0 ||
	    est_rules_choice(c, json_pack("{s:s, s:s}", "type", "besiege", "army", "<army>"),
			     "one siege roll against the enemy garrison where the army stands") < 0 ||
	    est_rules_choice(c, json_pack("{s:s, s:s, s:s, s:s}", "type", "standing", "at", "<province>",
					  "step", "<number: 4, 5, 6 or 9>", "option", "<option>"),
			     "a battle decision given in advance (L19)") < 0 ||
	    (winter && keep_choices(c, state, rules, side) < 0) ||
	    (winter && !france && est_rules_choice(c, json_pack("{s:s, s:s}", "type", "buy-vp", "vp", "<number>"),
			"Britain only: VPs bought this winter (4.241)") < 0) ||
	    (france && est_rules_choice(c, json_pack("{s:s, s:s, s:s}", "type", "treaty", "nation", "<nation>",
			"treaty", "<peace or alliance>"), "an alliance or an enforced peace with Russia, Prussia "
			"or Spain; a power must accept it (4.241, L27)") < 0) ||
	    offer_choices(c, state) < 0) {
		json_decref(c);
		return NULL;
	}
	return c;
}

static json_t *battle_pending(const json_t *state, const json_t *rules)
{
	const json_t *battle = json_object_get(state, "battle");
	const char *power, *kind;
	char prompt[400];

	lg_battle_awaits(&power, &kind, state);
	if (strcmp(kind, "retreat") == 0)
		snprintf(prompt, sizeof(prompt), "%s lost the attack at %s: choose the province to retreat "
			 "to (5.612 step 9, pursuit follows, 5.629)", power, est_rules_str(battle, "province"));
	else
		snprintf(prompt, sizeof(prompt), "Battle at %s, 5.612 step %d: %s, the %s player, chooses %s",
			 est_rules_str(battle, "province"), est_rules_int(battle, "step", 0), power,
			 est_rules_int(battle, "step", 0) == 5 ? "non-initiative" : "initiative",
			 est_rules_int(battle, "step", 0) == 6 ? "Attack or Retreat (it must)" :
			 "Attack, Retreat, Auxiliary or Bombard");
	return json_pack("{s:s, s:s, s:[s], s:s, s:o}", "mode", "sequential", "kind", kind, "powers", power,
			 "prompt", prompt, "choices", battle_choices(state, rules, kind));
}

static int pending(json_t **out, const json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase"), *side = est_rules_str(state, "side");
	char when[64], prompt[300];

	season_label(state, when, sizeof(when));
	if (strcmp(phase, "over") == 0)
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "over", "kind", "over", "powers", "prompt",
				 "the scenario is over");
	else if (strcmp(phase, "winter") == 0)
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "automatic", "kind", "winter", "powers",
				 "prompt", "the winter phase: the Continental System embargo (4.241)");
	else if (json_object_get(state, "battle"))
		*out = battle_pending(state, rules);
	else {
		snprintf(prompt, sizeof(prompt), "%s: %s's turn: moves, sieges and standing orders", when,
			 strcmp(side, LG_FRANCE) == 0 ? "France" : "the Coalition");
		*out = json_pack("{s:s, s:s, s:o, s:s, s:o}", "mode", strcmp(side, LG_FRANCE) == 0 ? "sequential" :
				 "simultaneous", "kind", "turn", "powers", lg_side_powers(rules, side),
				 "prompt", prompt, "choices", turn_choices(state, rules, side));
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* The scenario's NMR policy for a battle decision; a bombard without artillery attacks. */
static int default_orders(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	const char *awaited, *kind, *option;
	json_t *opts;

	(void)power;
	lg_battle_awaits(&awaited, &kind, state);
	if (!kind) {
		*out = json_array();
		return 0;
	}
	if (strcmp(kind, "retreat") == 0) {
		const json_t *battle = json_object_get(state, "battle");
		opts = lg_retreat_options(state, rules, lg_army(state, est_rules_str(json_object_get(battle,
			est_rules_str(battle, "loser")), "army")));
		*out = json_pack("[{s:s, s:O*}]", "type", "retreat", "to", json_array_get(opts, 0));
		json_decref(opts);
		return 0;
	}
	option = est_rules_str(json_object_get(lg_scenario(rules), "nmr"), kind);
	if (!option || (strcmp(kind, "battle-step-6") == 0 && strcmp(option, "retreat") != 0) ||
	    strcmp(option, "bombard") == 0)
		option = "attack";
	*out = json_pack("[{s:s, s:s}]", "type", "option", "option", option);
	return 0;
}

int lg_order_at_once(const char *type)
{
	static const char *const at_once[] = {"standing", "embargo", "buy-vp", "treaty", NULL};

	return type && est_rules_listed(at_once, type);
}

/* An `embargo` order: the nations `power` holds that it keeps in the embargo this winter (L22). */
static int keep_in_embargo(json_t *state, const char *power, const json_t *order)
{
	json_t *keep = json_object_get(state, "embargo_keep");

	if (!json_is_object(keep)) {
		keep = json_object();
		if (json_object_set_new(state, "embargo_keep", keep) < 0)
			return -1;
	}
	return json_object_set(keep, power, json_object_get(order, "keep"));
}

int lg_take_orders(json_t *state, json_t *events, const json_t *rules, const char *power, const json_t *orders)
{
	const json_t *o;
	size_t i;
	int error = 0;

	json_array_foreach(orders, i, o) {
		const char *type = est_rules_str(o, "type");
		if (!lg_order_at_once(type))
			error = json_array_append_new(json_object_get(state, "queue"),
				json_pack("{s:s, s:O}", "power", power, "order", o));
		else if (strcmp(type, "standing") == 0)
			error = lg_set_standing(state, power, o);
		else if (strcmp(type, "embargo") == 0)
			error = keep_in_embargo(state, power, o);
		else if (strcmp(type, "buy-vp") == 0)
			error = json_object_set(state, "britain_buy", json_object_get(o, "vp"));
		else
			error = lg_treaty_order(state, events, rules, power, o);
		if (error < 0)
			return est_error_code() ? est_error_code() : est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

/* The moving side's orders, power by power in the scenario's order (lg_take_orders). */
static int take_turn(json_t *state, json_t *events, const json_t *rules, const json_t *orders)
{
	json_t *powers = lg_side_powers(rules, est_rules_str(state, "side")), *p;
	size_t i;
	int error = 0;

	json_array_foreach(powers, i, p)
		if ((error = lg_take_orders(state, events, rules, json_string_value(p),
					    json_object_get(orders, json_string_value(p)))) < 0)
			break;
	json_decref(powers);
	return error;
}

/* A battle decision: the power's standing orders first, then its answer. */
static int take_decision(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
			 const json_t *orders)
{
	const char *power, *kind;
	const json_t *o, *answer = NULL;
	size_t i;
	int error;

	lg_battle_awaits(&power, &kind, state);
	json_array_foreach(json_object_get(orders, power), i, o) {
		if (strcmp(est_rules_str(o, "type"), "standing") == 0) {
			if ((error = lg_set_standing(state, power, o)) < 0)
				return error;
		} else {
			answer = o;
		}
	}
	if (!answer)
		return est_error_set(EST_EINVAL, "orders: %s's answer to %s is missing", power, kind);
	return lg_battle_decide(state, events, rules, dice, answer);
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
		error = est_error_set(EST_ERROR, "state.json: the scenario is over; nothing to resolve");
	else if (strcmp(phase, "winter") == 0)
		error = lg_winter(s, events, rules);
	else if (json_object_get(s, "battle"))
		error = take_decision(s, events, rules, dice, orders);
	else
		error = take_turn(s, events, rules, orders);
	/* The winter phase opens the next season's turn, which waits for France. */
	if (error == 0 && strcmp(phase, "winter") != 0)
		error = lg_advance(s, events, rules, dice);
	return est_rules_resolved(state_out, events_out, s, events, error);
}

/* Standing orders are a power's own: a sealed game keeps them off the public refs. */
static int sealed(json_t **paths_out, const json_t *state, const json_t *rules)
{
	json_t *paths = json_array();
	const char *power;
	json_t *v;

	(void)rules;
	json_object_foreach(json_object_get(state, "standing"), power, v) {
		char *path = est_strdup_printf("/standing/%s", power);
		json_array_append_new(paths, json_string(path ? path : ""));
		free(path);
	}
	*paths_out = paths;
	return 0;
}

/* README.md "Powers and players": France alone; the Coalition's nations shared among the rest. */
static int deal(json_t **out, size_t players)
{
	switch (players) {
	case 1:
		*out = json_pack("[[s, s, s, s]]", "France", "Austria", "Russia", "Britain");
		break;
	case 2:
		*out = json_pack("[[s], [s, s, s]]", "France", "Austria", "Russia", "Britain");
		break;
	case 3:
		*out = json_pack("[[s], [s, s], [s]]", "France", "Austria", "Britain", "Russia");
		break;
	default:
		*out = json_pack("[[s], [s], [s], [s]]", "France", "Austria", "Russia", "Britain");
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const est_ruleset est_ruleset_la_guerre = {
	.name = "la-guerre",
	.version = "2",
	.powers = lg_powers,
	.setup = setup,
	.pending = pending,
	.validate = lg_validate,
	.default_orders = default_orders,
	.resolve = resolve,
	.view = lg_view,
	.sealed = sealed,
	.deal = deal,
};
