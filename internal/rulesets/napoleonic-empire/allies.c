/*
 * Napoleonic Empire: the designers' multiplayer variant, "the major
 * countries of the Allies can be divvied up" (GAME DESIGNERS NOTES;
 * RULINGS.md R36-R38). France is one player; England, Russia, Prussia and
 * Austria are powers held by one to four Allied players.
 *
 * The Allies stay one side on the map and in the rules: one set of Ally
 * counters, one hand, one Reinforcements Phase. What the variant divides is
 * who decides: each Allied player moves the Allied armies in the countries
 * his powers command (rules["rulings"]["allied_command"], R37); the player
 * holding England keeps and plays the Allied hand and gives every other
 * Allied decision (R36). A divided state says so in "allied_players", the
 * Allied powers of each Allied player (canonical order, R38).
 *
 * The rest of the module speaks of the side "Allies". A divided state keeps
 * the Allied hidden parts (hands, standing, defaults, attack.plays) under
 * "England", the power that owns them, so that the sealing marks them as
 * England's part (ruleset.h sealed()); ne_state_in() and ne_state_out()
 * rename them at the module's entry points.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

const char *const ne_allied_powers[] = {"England", "Russia", "Prussia", "Austria", NULL};

/* The keys whose Allied entry is the keeper's own part in a divided game. */
static const char *const hidden_keys[] = {"hands", "standing", "defaults", NULL};

int ne_divided(const json_t *state)
{
	return json_is_array(json_object_get(state, "allied_players"));
}

static int allied_index(const char *power)
{
	for (int i = 0; power && ne_allied_powers[i]; i++)
		if (strcmp(power, ne_allied_powers[i]) == 0)
			return i;
	return -1;
}

const char *ne_side_of(const json_t *state, const char *power)
{
	if (!power)
		return NULL;
	if (strcmp(power, NE_FRANCE) == 0)
		return NE_FRANCE;
	if (ne_divided(state) ? allied_index(power) >= 0 : strcmp(power, NE_ALLIES) == 0)
		return NE_ALLIES;
	return NULL;
}

/* The power that answers for `side` in decisions of the whole side. */
const char *ne_speaker(const json_t *state, const char *side)
{
	return ne_divided(state) && side && strcmp(side, NE_ALLIES) == 0 ? NE_KEEPER : side;
}

/* The group (an Allied player's powers) holding `power`, or NULL. */
static const json_t *group_of(const json_t *state, const char *power)
{
	const json_t *g;
	size_t i;

	json_array_foreach(json_object_get(state, "allied_players"), i, g)
		if (est_rules_in_list(g, power))
			return g;
	return NULL;
}

int ne_commands(const json_t *state, const json_t *rules, const char *power, const char *country)
{
	const json_t *table = json_object_get(json_object_get(rules, "rulings"), "allied_command");
	const json_t *p;
	size_t i;

	json_array_foreach(group_of(state, power), i, p)
		if (est_rules_in_list(json_object_get(table, json_string_value(p)), country))
			return 1;
	return 0;
}

/* Whether the Allied player holding `power` (whole_group), or `power` alone, commands `country`. */
static int commands(const json_t *state, const json_t *rules, const char *power, int whole_group,
		    const char *country)
{
	const json_t *table = json_object_get(json_object_get(rules, "rulings"), "allied_command");

	if (whole_group)
		return ne_commands(state, rules, power, country);
	return est_rules_in_list(json_object_get(table, power), country);
}

json_t *ne_command_text(const json_t *state, const json_t *rules, const char *power, int whole_group)
{
	char text[512] = "";
	size_t used = 0, i;

	for (i = 0; i < ne_country_count(rules) && used < sizeof(text); i++)
		if (commands(state, rules, power, whole_group, ne_country_name(rules, i)))
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%s", used ? ", " : "",
						 ne_country_name(rules, i));
	return json_string(used ? text : "none");
}

const char *ne_commander(const json_t *state, const json_t *rules, const char *country)
{
	const json_t *table = json_object_get(json_object_get(rules, "rulings"), "allied_command"), *g, *p;
	size_t i, j;

	json_array_foreach(json_object_get(state, "allied_players"), i, g)
		json_array_foreach(g, j, p)
			if (est_rules_in_list(json_object_get(table, json_string_value(p)), country))
				return json_string_value(p);
	return NULL;
}

json_t *ne_awaited(const json_t *state)
{
	const char *phase = est_rules_str(state, "phase");
	json_t *out = json_array(), *g, *s;
	size_t i;

	if (!out || !phase)
		return out;
	if (strcmp(phase, "turn") == 0 && ne_divided(state) &&
	    strcmp(est_rules_str(state, "active"), NE_ALLIES) == 0) {
		/* R38: each Allied player orders in the Allied turn, under his first power. */
		json_array_foreach(json_object_get(state, "allied_players"), i, g)
			json_array_append(out, json_array_get(g, 0));
	} else if (strcmp(phase, "turn") == 0) {
		json_array_append_new(out, json_string(est_rules_str(state, "active")));
	} else if (strcmp(phase, "battle-cards") == 0) {
		json_array_foreach(json_object_get(json_object_get(state, "attack"), "asked"), i, s)
			json_array_append_new(out, json_string(ne_speaker(state, json_string_value(s))));
	} else if (strcmp(phase, "retreat") == 0) {
		json_array_append_new(out, json_string(ne_speaker(state,
			est_rules_str(json_object_get(state, "retreat"), "side"))));
	}
	return out;
}

/*
 * options["players"] (`new` gives it, ruleset.h powers_optional) and
 * option "allies" into *groups_out: NULL for the two-player game, else the
 * Allied players' powers, each in canonical order, the players ordered by
 * their first power (R38).
 */
int ne_allied_groups(json_t **groups_out, const json_t *players, const char *allies)
{
	int divided = allies && strcmp(allies, "divided") == 0, countries = 0, united = 0, france = 0;
	json_t *groups = NULL, *held;
	size_t i;

	*groups_out = NULL;
	json_array_foreach(players, i, held) {
		for (int k = 0; ne_allied_powers[k]; k++)
			countries += est_rules_in_list(held, ne_allied_powers[k]);
		united += est_rules_in_list(held, NE_ALLIES);
		france += est_rules_in_list(held, NE_FRANCE);
	}
	if (players && !france)
		return est_error_set(EST_EINVAL, "option \"players\": nobody holds France; give France to one player");
	if (countries && united)
		return est_error_set(EST_EINVAL, "option \"players\": the players hold the Allies and Allied "
				     "countries; give one player \"Allies\" (the two-player game) or give England, "
				     "Russia, Prussia and Austria to the Allied players (--option allies=divided)");
	if (countries && allies && !divided)
		return est_error_set(EST_EINVAL, "option \"allies\" is \"%s\", but the players hold Allied "
				     "countries; use --option allies=divided, or give one player \"Allies\"", allies);
	if (!countries && !divided) {
		if (players && !united)
			return est_error_set(EST_EINVAL, "option \"players\": nobody holds the Allies; give "
					     "\"Allies\" to one player");
		return 0;
	}
	if (players && countries < 4)
		return est_error_set(EST_EINVAL, "option \"allies\" is \"divided\", but the players hold %d of "
				     "England, Russia, Prussia and Austria; give each of the four to one Allied "
				     "player (GAME DESIGNERS NOTES, RULINGS.md R38)", countries);
	if (!(groups = json_array()))
		return est_error_set(EST_ENOMEM, "out of memory");
	/* Without a players list (a test's set-up), each Allied power is a player of its own. */
	for (int k = 0; ne_allied_powers[k]; k++) {
		const json_t *own = NULL;
		json_t *g = json_array();

		json_array_foreach(players, i, held)
			if (est_rules_in_list(held, ne_allied_powers[k]))
				own = held;
		for (int j = 0; g && ne_allied_powers[j]; j++)
			if (players ? own && est_rules_in_list(own, ne_allied_powers[j]) : j == k)
				json_array_append_new(g, json_string(ne_allied_powers[j]));
		/* A player's group is listed once, at its first power. */
		if (g && allied_index(json_string_value(json_array_get(g, 0))) == k)
			json_array_append(groups, g);
		json_decref(g);
	}
	*groups_out = groups;
	return 0;
}

/* Rename key `from` to `to` in `obj` (an object, else nothing). */
static int rename_key(json_t *obj, const char *from, const char *to)
{
	json_t *v = json_object_get(obj, from);

	if (!json_is_object(obj) || !v)
		return 0;
	if (json_object_set(obj, to, v) < 0 || json_object_del(obj, from) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

static int rename_parts(json_t *state, const char *from, const char *to)
{
	int error = 0;

	for (int i = 0; !error && hidden_keys[i]; i++)
		error = rename_key(json_object_get(state, hidden_keys[i]), from, to);
	if (!error)
		error = rename_key(json_object_get(json_object_get(state, "attack"), "plays"), from, to);
	return error;
}

int ne_state_in(json_t **out, const json_t *state)
{
	int error;

	if (!ne_divided(state)) {
		*out = json_incref((json_t *)state);
		return 0;
	}
	if (!(*out = json_deep_copy(state)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = rename_parts(*out, NE_KEEPER, NE_ALLIES)) < 0) {
		json_decref(*out);
		*out = NULL;
	}
	return error;
}

int ne_state_out(json_t *state, json_t *events)
{
	json_t *e, *to;
	size_t i;
	int error;

	if (!ne_divided(state))
		return 0;
	if ((error = rename_parts(state, NE_ALLIES, NE_KEEPER)) < 0)
		return error;
	/* What only the Allies may see (the cards they draw) is the keeper's to see (R36). */
	json_array_foreach(events, i, e) {
		to = json_object_get(e, "visible_to");
		if (est_rules_in_list(to, NE_ALLIES) &&
		    json_object_set_new(e, "visible_to", json_pack("[s]", NE_KEEPER)) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * The orders of a divided game's powers as the side's: France's as they
 * are; in the Allied turn each Allied player's in the order of
 * "allied_players" (R38), else the keeper's.
 */
int ne_side_orders(json_t **out, const json_t *state, const json_t *orders)
{
	const json_t *g, *o;
	json_t *allied;
	size_t i;

	if (!ne_divided(state)) {
		*out = json_incref((json_t *)orders);
		return 0;
	}
	if (!(*out = json_object()))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((o = json_object_get(orders, NE_FRANCE)))
		json_object_set(*out, NE_FRANCE, (json_t *)o);
	if (strcmp(est_rules_str(state, "phase"), "turn") != 0 ||
	    strcmp(est_rules_str(state, "active"), NE_ALLIES) != 0) {
		if ((o = json_object_get(orders, NE_KEEPER)))
			json_object_set(*out, NE_ALLIES, (json_t *)o);
		return 0;
	}
	if (!(allied = json_array()) || json_object_set_new(*out, NE_ALLIES, allied) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	json_array_foreach(json_object_get(state, "allied_players"), i, g) {
		const char *lead = json_string_value(json_array_get(g, 0));

		o = json_object_get(orders, lead);
		if (!o && strcmp(lead, NE_KEEPER) == 0) /* the keeper's defaults (R18, R19) */
			o = json_object_get(json_object_get(state, "defaults"), NE_ALLIES);
		if (o && json_array_extend(allied, (json_t *)o) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}
