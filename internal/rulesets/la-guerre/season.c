/*
 * La Guerre de l'Empereur: the order of turns (France, then the Coalition,
 * each season), standing orders, the winter phase with France's
 * Continental System embargo (4.241), and the end of the scenario.
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

json_t *lg_side_powers(const json_t *rules, const char *side)
{
	json_t *out = json_array(), *n;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(lg_scenario(rules), "sides"), side), i, n)
		if (lg_is_power(json_string_value(n)))
			json_array_append(out, n);
	return out;
}

int lg_turn_start(json_t *state, const char *side)
{
	/* RULINGS.md L27: an offer not accepted in the Coalition's turn that follows lapses. */
	if (strcmp(side, LG_FRANCE) == 0)
		json_object_del(state, "offers");
	if (json_object_set_new(state, "phase", json_string("turn")) < 0 ||
	    json_object_set_new(state, "side", json_string(side)) < 0 ||
	    json_object_set_new(state, "moved", json_array()) < 0 ||
	    json_object_set_new(state, "queue", json_array()) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

static int season_index(const json_t *rules, const char *season)
{
	const json_t *s;
	size_t i;

	json_array_foreach(json_object_get(lg_scenario(rules), "seasons"), i, s)
		if (season && strcmp(json_string_value(s), season) == 0)
			return (int)i;
	return -1;
}

/* Victory (placeholder, scenario.json "victory"): more VPs when the last season ends. */
static int game_over(json_t *state, json_t *events)
{
	const json_t *vp = json_object_get(state, "vp");
	int f = est_rules_int(vp, LG_FRANCE, 0), c = est_rules_int(vp, LG_COALITION, 0);
	const char *winner = f > c ? LG_FRANCE : c > f ? LG_COALITION : "draw";
	char *why = est_strdup_printf("the scenario ends with France at %d VP%s and the Coalition at %d",
				      f, f == 1 ? "" : "s", c);
	int error;

	json_object_set_new(state, "phase", json_string("over"));
	json_object_set_new(state, "winner", json_string(winner));
	json_object_set_new(state, "win_reason", json_string(why ? why : ""));
	error = est_rules_event(events, json_pack("{s:s}", "winner", winner), "over", "%s: %s", why ? why : "",
			 strcmp(winner, "draw") == 0 ? "a draw" : strcmp(winner, LG_FRANCE) == 0 ?
			 "France wins" : "the Coalition wins");
	free(why);
	return error;
}

static int next_season(json_t *state, json_t *events, const json_t *rules)
{
	const json_t *end = json_object_get(lg_scenario(rules), "end");
	const json_t *seasons = json_object_get(lg_scenario(rules), "seasons");
	int year = est_rules_int(state, "year", 0), s = season_index(rules, est_rules_str(state, "season"));

	if (year >= est_rules_int(end, "year", 0) && s >= season_index(rules, est_rules_str(end, "season")))
		return game_over(state, events);
	if (++s >= (int)json_array_size(seasons)) {
		s = 0;
		year++;
	}
	json_object_set_new(state, "year", json_integer(year));
	json_object_set_new(state, "season", json_copy(json_array_get(seasons, (size_t)s)));
	if (est_rules_event(events, json_pack("{s:i, s:s}", "year", year, "season", est_rules_str(state, "season")),
		     "season", "%s %d begins: France moves first", est_rules_str(state, "season"), year) < 0)
		return est_error_code();
	return lg_turn_start(state, LG_FRANCE);
}

/* The moving side's turn is over: the Coalition's turn, the winter phase or the next season. */
static int end_turn(json_t *state, json_t *events, const json_t *rules)
{
	if (strcmp(est_rules_str(state, "side"), LG_FRANCE) == 0) {
		if (est_rules_event(events, NULL, "turn", "France's turn ends; the Coalition moves") < 0)
			return est_error_code();
		return lg_turn_start(state, LG_COALITION);
	}
	if (season_index(rules, est_rules_str(state, "season")) ==
	    (int)json_array_size(json_object_get(lg_scenario(rules), "seasons")) - 1) {
		json_object_set_new(state, "phase", json_string("winter"));
		return est_rules_event(events, NULL, "turn", "the Coalition's turn ends; the winter phase follows");
	}
	return next_season(state, events, rules);
}

int lg_advance(json_t *state, json_t *events, const json_t *rules, est_dice *dice)
{
	int error;

	while (strcmp(est_rules_str(state, "phase"), "turn") == 0) {
		json_t *queue = json_object_get(state, "queue"), *next;

		/* A battle still here awaits a decision: whoever started it has run it as far as it goes. */
		if (json_object_get(state, "battle"))
			return 0;
		if (json_array_size(queue) == 0)
			return end_turn(state, events, rules);
		next = json_incref(json_array_get(queue, 0));
		json_array_remove(queue, 0);
		error = lg_apply_order(state, events, rules, dice, est_rules_str(next, "power"),
				       json_object_get(next, "order"));
		json_decref(next);
		if (error < 0)
			return error;
	}
	return 0;
}

/* Winter: the embargo's accounts (embargo.c), then the next season. */
int lg_winter(json_t *state, json_t *events, const json_t *rules)
{
	int error = lg_embargo_winter(state, events, rules);

	return error < 0 ? error : next_season(state, events, rules);
}
