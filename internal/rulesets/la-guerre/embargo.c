/*
 * La Guerre de l'Empereur 4.241: France's Continental System Embargo, and
 * the winter's accounts it governs (RULINGS.md L22-L25).
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

/* A member nation's own standing in the embargo (4.241), or 0; *why_out says why. */
static int member_counts(char **why_out, const json_t *state, const json_t *rules, const char *nation)
{
	const json_t *d = json_object_get(json_object_get(state, "diplomacy"), nation);
	const char *status = est_rules_str(d, "status");
	const json_t *exclude = json_object_get(state, "embargo_exclude"), *v;
	int expired = status && strcmp(status, "peace") == 0 && json_object_get(d, "expires") &&
		      est_rules_int(d, "expires", 0) < est_rules_int(state, "year", 0);
	size_t i;

	if (status && (strcmp(status, "alliance") == 0 || (strcmp(status, "peace") == 0 && !expired))) {
		*why_out = est_strdup_printf("%s: %s with France", nation, status);
		return 1;
	}
	if (status && strcmp(status, "inactive") == 0) {
		*why_out = est_strdup_printf("%s: an inactive non-player nation, which remains part of the "
					     "Embargo", nation);
		return 1;
	}
	if (expired) {
		json_array_foreach(exclude, i, v)
			if (strcmp(json_string_value(v), nation) == 0) {
				*why_out = est_strdup_printf("%s: its peace has expired and France leaves it out",
							     nation);
				return 0;
			}
		*why_out = est_strdup_printf("%s: its peace has expired, and France counts it", nation);
		return 1;
	}
	*why_out = NULL;
	return 0;
}

/* Whether a province of the map has a port on one of the embargo's seas. */
static int embargo_port(const json_t *rules, const json_t *province)
{
	const json_t *seas = json_object_get(json_object_get(lg_scenario(rules), "embargo"), "seas");
	const json_t *sea, *s;
	size_t i, j;

	json_array_foreach(json_object_get(province, "ports"), i, sea)
		json_array_foreach(seas, j, s)
			if (json_equal(s, sea))
				return 1;
	return 0;
}

/* "or failing this, has troops occupying all of a nation's ports" (4.241; RULINGS.md). */
static int ports_occupied(const json_t *state, const json_t *rules, const char *nation)
{
	const json_t *p;
	size_t i, ports = 0;

	json_array_foreach(json_object_get(json_object_get(rules, "map"), "provinces"), i, p) {
		if (strcmp(est_rules_str(p, "nation"), nation) != 0 || !embargo_port(rules, p))
			continue;
		ports++;
		if (strcmp(lg_controller(state, est_rules_str(p, "name")), LG_FRANCE) != 0)
			return 0;
	}
	return ports > 0;
}

static char *append(char *text, char *more)
{
	char *out = more ? est_strdup_printf("%s%s%s", text ? text : "", text && *text ? "; " : "", more) : text;

	if (more) {
		free(text);
		free(more);
	}
	return out;
}

/* Whether `nation` is in the embargo, by treaty, inactivity or occupied ports; says why. */
static int member_in(char **why, const json_t *state, const json_t *rules, const char *nation)
{
	char *reason = NULL;
	int in = member_counts(&reason, state, rules, nation);

	if (!in && ports_occupied(state, rules, nation)) {
		free(reason);
		reason = est_strdup_printf("%s: French troops occupy all its ports", nation);
		in = 1;
	} else if (!in && !reason) {
		reason = est_strdup_printf("%s: %s, and French troops do not occupy all its ports", nation,
					   est_rules_str(json_object_get(json_object_get(state, "diplomacy"), nation),
						  "status") ? est_rules_str(json_object_get(json_object_get(state,
						  "diplomacy"), nation), "status") : "no treaty with France");
	}
	*why = append(*why, reason);
	return in;
}

int lg_embargo_raised(char **why_out, const json_t *state, const json_t *rules)
{
	const json_t *embargo = json_object_get(lg_scenario(rules), "embargo"), *v;
	char *why = strdup("");
	size_t i;
	int raised = 1;

	json_array_foreach(json_object_get(embargo, "members"), i, v)
		raised &= member_in(&why, state, rules, json_string_value(v));
	json_array_foreach(json_object_get(embargo, "requires_control"), i, v) {
		const char *c = lg_controller(state, json_string_value(v));
		int ok = c && strcmp(c, LG_FRANCE) == 0;
		why = append(why, est_strdup_printf("%s: %s by France", json_string_value(v),
						    ok ? "controlled" : "not controlled"));
		raised &= ok;
	}
	if (!why)
		return est_error_set(EST_ENOMEM, "out of memory");
	*why_out = why;
	return raised;
}

/* France's embargo income (placeholder, RULINGS.md): ports on France's side or in the embargo. */
static int embargo_income(const json_t *state, const json_t *rules)
{
	const json_t *p;
	size_t i;
	int income = 0;

	json_array_foreach(json_object_get(json_object_get(rules, "map"), "provinces"), i, p) {
		const char *c = lg_controller(state, est_rules_str(p, "name")), *side = lg_side_of(rules, c);
		char *why = NULL;
		if (!embargo_port(rules, p))
			continue;
		if (side && strcmp(side, LG_FRANCE) == 0)
			income++;
		else if (c && member_counts(&why, state, rules, c))
			income++;
		free(why);
	}
	return income;
}

/* The winter phase's accounts: 4.241 France's Continental System Embargo and Britain's purchase. */
int lg_embargo_winter(json_t *state, json_t *events, const json_t *rules)
{
	const json_t *embargo = json_object_get(lg_scenario(rules), "embargo");
	char *why = NULL;
	int raised = lg_embargo_raised(&why, state, rules), limit, income, vp, asked, cap, bought, error;

	if (raised < 0)
		return raised;
	limit = est_rules_int(embargo, raised ? "raised_limit" : "limit", 5);
	income = embargo_income(state, rules);
	vp = income < limit ? income : limit;
	asked = est_rules_int(state, "britain_buy", 0);
	cap = est_rules_int(embargo, raised ? "britain_buy_max_under_embargo" : "britain_buy_max", 5);
	bought = asked < cap ? asked : cap;
	lg_add_vp(state, LG_FRANCE, vp);
	lg_add_vp(state, LG_COALITION, bought);
	json_object_set_new(state, "britain_buy", json_integer(0));
	error = est_rules_event(events, json_pack("{s:b, s:s, s:i, s:i, s:i, s:i, s:i, s:i}", "raised", raised,
					   "conditions", why, "limit", limit, "income", income, "france_vp", vp,
					   "britain_asked", asked, "britain_cap", cap, "britain_vp", bought),
			 "embargo", "4.241 Continental System, winter %d: %s; the Embargo limit is %d VPs "
			 "(%s); France's ports bring %d, so France scores %d VP%s. Britain may buy at most "
			 "%d VPs this winter: asked %d, buys %d", est_rules_int(state, "year", 0),
			 raised ? "France's embargo is complete" : "France's embargo is not complete", limit,
			 why, income, vp, vp == 1 ? "" : "s", cap, asked, bought);
	free(why);
	return error;
}
