/*
 * La Guerre de l'Empereur: look-ups in the rules data and the state,
 * divisions lost by corps, the event log and logged dice.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

const json_t *lg_table(const json_t *rules, const char *name)
{
	return json_object_get(json_object_get(rules, "tables"), name);
}

const json_t *lg_scenario(const json_t *rules)
{
	return json_object_get(rules, "scenario");
}

const json_t *lg_province_data(const json_t *rules, const char *name)
{
	return est_rules_find(json_object_get(json_object_get(rules, "map"), "provinces"), "name", name);
}

int lg_adjacent(const json_t *rules, const char *a, const char *b)
{
	return est_rules_in_list(json_object_get(lg_province_data(rules, a), "adjacent"), b);
}

const char *lg_side_of(const json_t *rules, const char *nation)
{
	const json_t *sides = json_object_get(lg_scenario(rules), "sides");

	if (est_rules_in_list(json_object_get(sides, LG_FRANCE), nation))
		return LG_FRANCE;
	if (est_rules_in_list(json_object_get(sides, LG_COALITION), nation))
		return LG_COALITION;
	return NULL;
}

const char *lg_other_side(const char *side)
{
	return strcmp(side, LG_FRANCE) == 0 ? LG_COALITION : LG_FRANCE;
}

json_t *lg_province(const json_t *state, const char *name)
{
	return json_object_get(json_object_get(state, "provinces"), name);
}

const char *lg_controller(const json_t *state, const char *province)
{
	return est_rules_str(lg_province(state, province), "controller");
}

int lg_friendly(const json_t *state, const json_t *rules, const char *province, const char *side)
{
	const char *s = lg_side_of(rules, lg_controller(state, province));

	return s && strcmp(s, side) == 0;
}

int lg_enemy(const json_t *state, const json_t *rules, const char *province, const char *side)
{
	const char *s = lg_side_of(rules, lg_controller(state, province));

	return s && strcmp(s, side) != 0;
}

json_t *lg_army(const json_t *state, const char *id)
{
	return est_rules_find(json_object_get(state, "armies"), "id", id);
}

const char *lg_army_side(const json_t *rules, const json_t *army)
{
	return lg_side_of(rules, est_rules_str(army, "nation"));
}

json_t *lg_army_at(const json_t *state, const json_t *rules, const char *province, const char *side)
{
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a) {
		const char *s = lg_army_side(rules, a);
		if (strcmp(est_rules_str(a, "location"), province) == 0 && s && strcmp(s, side) == 0)
			return a;
	}
	return NULL;
}

int lg_divisions(const json_t *army)
{
	const json_t *c;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(army, "corps"), i, c)
		n += est_rules_int(c, "divisions", 0);
	return n;
}

int lg_corps_count(const json_t *army)
{
	return (int)json_array_size(json_object_get(army, "corps"));
}

const json_t *lg_leader(const json_t *rules, const char *id)
{
	return est_rules_find(json_object_get(json_object_get(rules, "leaders"), "leaders"), "id", id);
}

int lg_tactical(const json_t *rules, const json_t *army)
{
	return est_rules_int(lg_leader(rules, est_rules_str(army, "commander")), "tactical", 0);
}

const char *lg_commander_name(const json_t *rules, const json_t *army)
{
	const char *name = est_rules_str(lg_leader(rules, est_rules_str(army, "commander")), "name");

	return name ? name : "no commander";
}

int lg_set_controller(json_t *state, const char *province, const char *nation, int garrison,
		      int ghost)
{
	json_t *p = lg_province(state, province);

	if (!p)
		return est_error_set(EST_ERROR, "state.json: no province \"%s\"", province);
	if (json_object_set_new(p, "controller", json_string(nation)) < 0 ||
	    json_object_set_new(p, "garrison", json_integer(garrison)) < 0 ||
	    json_object_set_new(p, "ghost", json_integer(ghost)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

int lg_add_vp(json_t *state, const char *side, int vp)
{
	json_t *vps = json_object_get(state, "vp");

	if (json_object_set_new(vps, side, json_integer(est_rules_int(vps, side, 0) + vp)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/* The corps with the most divisions, skipping `avoid` (-1: none); first listed on ties. */
static long largest_corps(const json_t *corps, long avoid)
{
	long best = -1;
	size_t i;
	json_t *c;

	json_array_foreach(corps, i, c) {
		if ((long)i == avoid || est_rules_int(c, "divisions", 0) <= 0)
			continue;
		if (best < 0 || est_rules_int(c, "divisions", 0) > est_rules_int(json_array_get(corps, best), "divisions", 0))
			best = (long)i;
	}
	return best;
}

static int drop_empty_corps(json_t *corps)
{
	for (size_t i = json_array_size(corps); i-- > 0;)
		if (est_rules_int(json_array_get(corps, i), "divisions", 0) <= 0 && json_array_remove(corps, i) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

int lg_lose_divisions(json_t **lost_out, json_t *army, int n, int spread)
{
	json_t *corps = json_object_get(army, "corps"), *lost = json_object();
	long last = -1;
	int error;

	if (!lost)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (int k = 0; k < n; k++) {
		/* 5.616 Bombardment: the two divisions of a hit "from different Corps if possible". */
		long i = largest_corps(corps, spread && k % 2 == 1 ? last : -1);
		if (i < 0)
			i = largest_corps(corps, -1);
		if (i < 0)
			break;
		json_t *c = json_array_get(corps, (size_t)i);
		const char *name = est_rules_str(c, "name");
		json_object_set_new(c, "divisions", json_integer(est_rules_int(c, "divisions", 0) - 1));
		json_object_set_new(lost, name, json_integer(est_rules_int(lost, name, 0) + 1));
		last = i;
	}
	if ((error = drop_empty_corps(corps)) < 0) {
		json_decref(lost);
		return error;
	}
	*lost_out = lost;
	return 0;
}

char *lg_losses_text(const json_t *lost)
{
	char *text = strdup(""), *next;
	const char *name;
	json_t *n;

	json_object_foreach((json_t *)lost, name, n) {
		if (!text)
			return NULL;
		next = est_strdup_printf("%s%s%s %lld", text, *text ? ", " : "", name,
					 (long long)json_integer_value(n));
		free(text);
		text = next;
	}
	if (text && !*text) {
		free(text);
		text = strdup("none");
	}
	return text;
}

int lg_lose(int *lost_out, json_t *state, json_t *events, const json_t *rules, json_t *army, int n,
	    int spread, const char *why)
{
	json_t *lost = NULL;
	char *text;
	int error, before = lg_divisions(army), gone;

	if (lost_out)
		*lost_out = 0;
	if (n <= 0)
		return 0;
	if ((error = lg_lose_divisions(&lost, army, n, spread)) < 0)
		return error;
	/* An army smaller than the loss loses what it has: the report and the VPs go by that. */
	gone = before - lg_divisions(army);
	if (lost_out)
		*lost_out = gone;
	text = lg_losses_text(lost);
	error = est_rules_event(events, json_pack("{s:s, s:s, s:o, s:i}", "army", est_rules_str(army, "id"), "nation",
						  est_rules_str(army, "nation"), "lost", lost, "divisions", gone), "losses",
				"%s loses %d division%s to %s: %s", est_rules_str(army, "nation"), gone,
				gone == 1 ? "" : "s", why, text ? text : "");
	free(text);
	if (error == 0 && lg_divisions(army) == 0)
		error = lg_remove_army(state, events, rules, army, "no divisions left");
	return error;
}

int lg_remove_army(json_t *state, json_t *events, const json_t *rules, json_t *army,
		   const char *why)
{
	json_t *armies = json_object_get(state, "armies"), *a;
	size_t i;
	int error;

	json_array_foreach(armies, i, a) {
		if (a != army)
			continue;
		if ((error = est_rules_event(events, json_pack("{s:s, s:s}", "army", est_rules_str(a, "id"), "nation",
							 est_rules_str(a, "nation")), "eliminated",
				      "%s's army (%s) is eliminated: %s", est_rules_str(a, "nation"),
				      lg_commander_name(rules, a), why)) < 0)
			return error;
		return json_array_remove(armies, i) < 0 ? est_error_set(EST_ENOMEM, "out of memory") : 0;
	}
	return 0;
}

const char *lg_other_role(const char *role)
{
	return role && strcmp(role, "attacker") == 0 ? "defender" : "attacker";
}

static const char *const power_names[] = {"France", "Austria", "Russia", "Britain", NULL};

const char *const *lg_powers(void)
{
	return power_names;
}

int lg_is_power(const char *name)
{
	return est_rules_listed(power_names, name);
}
