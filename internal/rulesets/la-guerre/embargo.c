/*
 * La Guerre de l'Empereur 4.241: France's Continental System Embargo, the
 * treaties it counts (RULINGS.md L27) and the winter's accounts it governs
 * (RULINGS.md L22-L25).
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

static const json_t *treaty_of(const json_t *state, const char *nation)
{
	return json_object_get(json_object_get(state, "diplomacy"), nation);
}

static int is_treaty(const char *status)
{
	return status && (strcmp(status, "alliance") == 0 || strcmp(status, "peace") == 0);
}

/* RULINGS.md L25: a treaty's "expires" is its last year. */
static int treaty_expired(const json_t *state, const json_t *d)
{
	return is_treaty(est_rules_str(d, "status")) && json_is_integer(json_object_get(d, "expires")) &&
	       est_rules_int(d, "expires", 0) < est_rules_int(state, "year", 0);
}

const char *lg_treaty_words(const char *kind)
{
	return strcmp(kind, "peace") == 0 ? "an enforced peace" : "an alliance";
}

int lg_treaty_expired(const json_t *state, const char *nation)
{
	return treaty_expired(state, treaty_of(state, nation));
}

int lg_treaty_live(const json_t *state, const char *nation)
{
	const json_t *d = treaty_of(state, nation);

	return is_treaty(est_rules_str(d, "status")) && !treaty_expired(state, d);
}

/*
 * RULINGS.md L27: while a treaty with France lasts, France's side and the
 * nation are at peace: an army of one may not enter a province the other
 * controls or holds with an army.
 */
static int at_peace(const json_t *state, const json_t *rules, const char *mover, const char *other)
{
	const char *side = lg_side_of(rules, mover), *other_side = lg_side_of(rules, other);

	/* An ally of France's own side (Spain) is no enemy to begin with. */
	if (!side || !other_side || strcmp(side, other_side) == 0)
		return 0;
	return strcmp(side, LG_FRANCE) == 0 ? lg_treaty_live(state, other) : lg_treaty_live(state, mover);
}

int lg_treaty_bars(const json_t *state, const json_t *rules, const json_t *army, const char *province)
{
	const char *mover = est_rules_str(army, "nation"), *holder = lg_controller(state, province);
	const json_t *a;
	size_t i;

	if (holder && at_peace(state, rules, mover, holder))
		return 1;
	json_array_foreach(json_object_get(state, "armies"), i, a)
		if (a != army && strcmp(est_rules_str(a, "location"), province) == 0 &&
		    at_peace(state, rules, mover, est_rules_str(a, "nation")))
			return 1;
	return 0;
}

int lg_treaty_conclude(json_t *state, json_t *events, const json_t *rules, const char *nation,
		       const char *kind)
{
	const json_t *old = treaty_of(state, nation);
	int years = est_rules_int(json_object_get(lg_scenario(rules), "embargo"), "treaty_years", 1);
	int last = est_rules_int(state, "year", 0) + (years > 0 ? years : 1) - 1;
	/* A non-player nation stays inactive (3.31) through its treaties: 4.241 keeps it in after one. */
	int inactive = strcmp(est_rules_str(old, "status") ? est_rules_str(old, "status") : "", "inactive") == 0 ||
		       strcmp(est_rules_str(old, "npc") ? est_rules_str(old, "npc") : "", "inactive") == 0;
	json_t *d = json_pack("{s:s, s:i}", "status", kind, "expires", last);

	if (!d || (inactive && json_object_set_new(d, "npc", json_string("inactive")) < 0) ||
	    json_object_set_new(json_object_get(state, "diplomacy"), nation, d) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return est_rules_event(events, json_pack("{s:s, s:s, s:i}", "nation", nation, "treaty", kind, "expires", last),
			"treaty", "France and %s conclude %s, enforced through %d (RULINGS.md L27); it counts "
			"for France's Continental System (4.241)", nation,
			lg_treaty_words(kind), last);
}

/*
 * A treaty order (RULINGS.md L27): France's concludes one with a
 * non-player nation at once, and offers one to a power; that power's
 * acceptance in the Coalition's turn that follows concludes it.
 */
int lg_treaty_order(json_t *state, json_t *events, const json_t *rules, const char *power,
		    const json_t *order)
{
	const char *nation = est_rules_str(order, "nation"), *kind = est_rules_str(order, "treaty");
	json_t *offers = json_object_get(state, "offers");

	if (strcmp(power, LG_FRANCE) != 0) {
		if (!est_rules_str(offers, power) || strcmp(est_rules_str(offers, power), kind) != 0)
			return est_error_set(EST_EINVAL, "orders: France has offered %s no %s", power, kind);
		json_object_del(offers, power);
		return lg_treaty_conclude(state, events, rules, power, kind);
	}
	if (!lg_is_power(nation))
		return lg_treaty_conclude(state, events, rules, nation, kind);
	if (!offers) {
		offers = json_object();
		if (json_object_set_new(state, "offers", offers) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	if (json_object_set_new(offers, nation, json_string(kind)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return est_rules_event(events, json_pack("{s:s, s:s}", "nation", nation, "treaty", kind), "treaty",
			"France offers %s %s (RULINGS.md L27); %s concludes it by accepting in the Coalition's "
			"turn that follows", nation, lg_treaty_words(kind), nation);
}

static int inactive_npc(const json_t *state, const char *nation)
{
	const char *npc = est_rules_str(treaty_of(state, nation), "npc");

	return npc && strcmp(npc, "inactive") == 0;
}

/*
 * RULINGS.md L22: the player whose discretion 4.241 gives is the one who
 * holds the nation: a power's own player, France's for a nation of its
 * side; an inactive NPC, or any nation no player holds, has none.
 */
const char *lg_embargo_holder(const json_t *state, const json_t *rules, const char *nation)
{
	const char *const *p;
	const char *side = lg_side_of(rules, nation);

	if (inactive_npc(state, nation))
		return NULL;
	for (p = lg_powers(); *p; p++)
		if (strcmp(*p, nation) == 0)
			return *p;
	return side && strcmp(side, LG_FRANCE) == 0 ? LG_FRANCE : NULL;
}

/* Whether `nation`'s holder keeps it in the embargo this winter (the `embargo` order, L22). */
static int kept_in(const json_t *state, const char *holder, const char *nation)
{
	return est_rules_in_list(json_object_get(json_object_get(state, "embargo_keep"), holder), nation);
}

/* A member nation's own standing in the embargo (4.241), or 0; *why_out says why. */
static int member_counts(char **why_out, const json_t *state, const json_t *rules, const char *nation)
{
	const json_t *d = treaty_of(state, nation);
	const char *status = est_rules_str(d, "status"), *holder;

	if (lg_treaty_live(state, nation)) {
		*why_out = json_is_integer(json_object_get(d, "expires")) ?
			est_strdup_printf("%s: %s with France until %d", nation, status, est_rules_int(d, "expires", 0)) :
			est_strdup_printf("%s: %s with France", nation, status);
		return 1;
	}
	if (!treaty_expired(state, d)) {
		/* RULINGS.md L22: "inactive" alone is no treaty; it matters once one has expired. */
		*why_out = NULL;
		return 0;
	}
	if (!(holder = lg_embargo_holder(state, rules, nation))) {
		*why_out = est_strdup_printf("%s: its %s has expired, and %s remains part of the Embargo", nation,
					     status, inactive_npc(state, nation) ? "an inactive non-player nation" :
					     "a nation no player holds");
		return 1;
	}
	if (kept_in(state, holder, nation)) {
		*why_out = est_strdup_printf("%s: its %s has expired, and %s keeps it in this winter, at its player's "
					     "discretion", nation, status, holder);
		return 1;
	}
	*why_out = est_strdup_printf("%s: its %s has expired, and %s has not kept it in this winter (its "
				     "player's discretion)", nation, status, holder);
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
		const char *p = json_string_value(v), *c = lg_controller(state, p);
		/* RULINGS.md L22: France controls a province it holds, or one a minor nation of its side holds. */
		int ok = lg_friendly(state, rules, p, LG_FRANCE);
		why = append(why, !ok ? est_strdup_printf("%s: not controlled by France (held by %s)", p, c ? c : "no one") :
			     strcmp(c, LG_FRANCE) == 0 ? est_strdup_printf("%s: controlled by France", p) :
			     est_strdup_printf("%s: controlled by France through %s, a nation of its side", p, c));
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
	/* RULINGS.md L22: a holder's choice to keep a nation in is for one winter. */
	json_object_set_new(state, "embargo_keep", json_object());
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
