/*
 * Levée en Masse: the est_ruleset table: set-up with its scenario and
 * options, the step each state awaits, resolve() by step kind, and the
 * score `estafette standings` ranks a deal's games by.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "levee_en_masse.h"
#include "lem_internal.h"

static const char *const powers_list[] = {LEM_POWER, NULL};
static const char *const scenarios[] = {"extended", "base", "puree", "historical", NULL};
static const char *const switches[] = {"9.1", "9.2", "10.3", "10.4", "10.5", "10.6", "napoleon-historical", NULL};

static const char *const *powers(void)
{
	return powers_list;
}

/* An option's value as on (1), off (0) or neither (-1): --option 10.4=1, =yes, =on. */
static int on_off(const json_t *v)
{
	const char *s = json_string_value(v);

	if (json_is_boolean(v))
		return json_is_true(v);
	if (json_is_integer(v))
		return json_integer_value(v) == 1 ? 1 : json_integer_value(v) == 0 ? 0 : -1;
	if (s && (strcmp(s, "yes") == 0 || strcmp(s, "on") == 0))
		return 1;
	if (s && (strcmp(s, "no") == 0 || strcmp(s, "off") == 0))
		return 0;
	return -1;
}

/* README.md "Options": the scenario (12.0), the optional rules (9.1, 9.2, 10.3-10.6), 13.0's difficulty. */
static int read_options(json_t **out, const char **scenario, const json_t *options)
{
	json_t *opts = json_pack("{s:i}", "difficulty", 0), *v;
	const char *key;

	*scenario = "extended";
	json_object_foreach((json_t *)options, key, v) {
		if (strcmp(key, "scenario") == 0 && est_rules_listed(scenarios, json_string_value(v))) {
			*scenario = json_string_value(v);
		} else if (strcmp(key, "deal") == 0 && json_is_string(v)) {
			/* Set by `new --deal` (ruleset.h deal_private): the game's progress is sealed. */
			json_object_set(opts, key, v);
		} else if (strcmp(key, "difficulty") == 0 && json_is_integer(v) && json_integer_value(v) >= -1 &&
			   json_integer_value(v) <= 1) {
			json_object_set(opts, key, v);
		} else if (est_rules_listed(switches, key) && on_off(v) >= 0) {
			json_object_set_new(opts, key, json_boolean(on_off(v)));
		} else {
			json_decref(opts);
			return est_error_set(EST_EINVAL, "option \"%s\": Levée en Masse takes scenario=extended|base|"
					     "puree|historical (12.0), difficulty=-1|0|1 (13.0) and the optional rules "
					     "9.1, 9.2, 10.3, 10.4, 10.5, 10.6, napoleon-historical as =1 or =0; fix "
					     "or remove it", key);
		}
	}
	for (const char *const *s = switches; *s; s++)
		if (!json_object_get(opts, *s))
			json_object_set_new(opts, *s, json_false());
	*out = opts;
	return 0;
}

/* Every Army of armies.json: the base game's on their boxes, the Expansion Kit's off the map. */
static json_t *armies_at_start(const json_t *rules)
{
	const json_t *a;
	json_t *out = json_array();
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "armies"), "armies"), i, a)
		json_array_append_new(out, json_pack("{s:O, s:O, s:O, s:O, s:b, s:s, s:b, s:b}", "id",
			json_object_get(a, "id"), "track", json_object_get(a, "track"), "box",
			json_object_get(a, "box") ? json_object_get(a, "box") : json_null(), "value",
			json_object_get(a, "value"), "stationary", json_is_true(json_object_get(a, "stationary")),
			"status", "normal", "flipped", 0, "rotated", 0));
	return out;
}

static int setup(json_t **state_out, const json_t *rules, const json_t *options)
{
	const json_t *start = json_object_get(rules, "setup");
	const char *scenario;
	json_t *opts = NULL, *state;
	int error;

	if ((error = lem_check_rules(rules)) < 0 || (error = read_options(&opts, &scenario, options)) < 0)
		return error;
	state = json_pack("{s:s, s:o, s:s, s:{}, s:n, s:[], s:o, s:O, s:b, s:i, s:n, s:n, s:i, s:i, s:i, "
			  "s:b, s:i, s:n}",
			  "scenario", scenario, "options", opts, "phase", "start", "deck", "current", "played",
			  "armies", armies_at_start(rules), "political", json_object_get(start, "political"),
			  "disorder", json_is_true(json_object_get(start, "disorder")), "liberation",
			  est_rules_int(start, "liberation", 0), "british_support", "napoleon", "actions", 0, "card_drm", 0,
			  "drm_now", 0, "reserves_used", 0, "barricades_used", 0, "result");
	if (!state)
		return est_error_set(EST_EINVAL, "rules/setup.json: \"political\" is needed; fix the data");
	json_object_set_new(state, "political", json_deep_copy(json_object_get(start, "political")));
	*state_out = state;
	return 0;
}

static int pending(json_t **out, const json_t *state, const json_t *rules)
{
	const char *phase = est_rules_str(state, "phase");
	const json_t *card = lem_card(rules, est_rules_str(state, "current"));
	char prompt[300];

	if (strcmp(phase, "over") == 0) {
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "over", "kind", "over", "powers", "prompt",
				 "the game is over");
	} else if (strcmp(phase, "start") == 0) {
		*out = json_pack("{s:s, s:s, s:[], s:s}", "mode", "automatic", "kind", "start", "powers", "prompt",
				 "the decks are dealt and the first Headline card drawn");
	} else if (lem_dealt(state)) {
		return lem_dealt_pending(out, state);
	} else {
		snprintf(prompt, sizeof(prompt), "turn %zu, Headline card #%d %s: spend %d Action%s (and the "
			 "free ones)", json_array_size(json_object_get(state, "played")), est_rules_int(card, "number", 0),
			 est_rules_str(card, "title"), est_rules_int(state, "actions", 0),
			 est_rules_int(state, "actions", 0) == 1 ? "" : "s");
		*out = json_pack("{s:s, s:s, s:[s], s:s, s:o}", "mode", "sequential", "kind", "actions", "powers",
				 LEM_POWER, "prompt", prompt, "choices", lem_choices(state, rules));
	}
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

static int resolve(json_t **state_out, json_t **events_out, const json_t *state, const json_t *rules,
		   const json_t *orders, est_dice *dice, est_dice *hidden)
{
	json_t *s = json_deep_copy(state), *events = json_array();
	const char *phase = est_rules_str(state, "phase");
	int error;

	if (!s || !events)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if (strcmp(phase, "over") == 0)
		error = est_error_set(EST_ERROR, "state.json: the game is over; nothing to resolve");
	else if (strcmp(phase, "start") == 0)
		error = lem_deal(s, rules) < 0 ? est_error_code() : lem_housekeeping(s, events, rules, hidden);
	else if ((error = lem_actions(s, events, rules, dice, json_object_get(orders, LEM_POWER))) == 0)
		error = lem_housekeeping(s, events, rules, hidden);
	/* A dealt game's events tell its cards: they are the player's alone (seal.c). */
	if (error == 0 && lem_dealt(s))
		error = lem_seal_events(events);
	return est_rules_resolved(state_out, events_out, s, events, error);
}

/*
 * The view: a dealt game's public one, and any view of its public state
 * (a player's copy), hold only what its public refs keep (seal.c).
 */
static int view(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	if (lem_dealt(state) && (!power || !json_is_array(json_object_get(state, "armies"))))
		return lem_dealt_view(out, state, rules);
	return lem_view(out, state, rules, power);
}

/*
 * rulesets/ruleset.h score(): a victory ranks above every defeat, victories by
 * the Republic's level (so by grade); defeats and games in play by the cards
 * survived, then the Republic's level.
 */
static int score(json_t **out, const json_t *state, const json_t *rules)
{
	const json_t *result = json_object_get(state, "result");
	const char *outcome = est_rules_str(result, "outcome");
	int over = strcmp(est_rules_str(state, "phase") ? est_rules_str(state, "phase") : "", "over") == 0;
	int victory = over && outcome && strcmp(outcome, "victory") == 0;
	/* A dealt game's public state holds the count of cards played, not the cards (seal.c). */
	int turns = est_rules_pile_count(json_object_get(state, "played"));
	int republic = est_rules_int(json_object_get(state, "political"), "Republic", 0);
	char text[200];

	(void)rules;
	if (over && !outcome)
		snprintf(text, sizeof(text), "over after %d cards: sealed until the deal is revealed", turns);
	else if (over)
		snprintf(text, sizeof(text), "%s after %d cards (Republic %+d): %s", est_rules_str(result, "grade"), turns,
			 republic, est_rules_str(result, "reason"));
	else
		snprintf(text, sizeof(text), "playing: %d cards, Republic %+d", turns, republic);
	/* Republic is -1..4 (political_range), so it orders games of equal progress without overtaking it. */
	*out = json_pack("{s:b, s:i, s:s}", "over", over, "score",
			 victory ? 100000 + 100 * republic + turns : 10 * turns + republic + 1, "result", text);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

const est_ruleset est_ruleset_levee_en_masse = {
	.name = "levee-en-masse",
	.version = "2.1",
	.powers = powers,
	.setup = setup,
	.pending = pending,
	.validate = lem_validate,
	.default_orders = est_rules_no_orders, /* RULINGS.md M12: a missed turn orders nothing */
	.resolve = resolve,
	.view = view,
	.sealed = lem_sealed,
	.score = score,
	.deal_private = 1,
};
