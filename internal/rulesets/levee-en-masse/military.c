/*
 * Levée en Masse: Military Actions. A die roll with DRMs that beats the
 * Army's value pushes it back a box; a natural 1 fails. The Expansion Kit
 * adds 7.2 (which unit may be attacked), Napoleon (+1), and the optional
 * rules 10.4 (last reserves), 10.5 (Disorder for a +1 after the roll) and
 * 10.6 (decisive victories and defeats).
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "lem_internal.h"

/* Whether `army` stands in the highest box of its track, Stationary Armies aside (10.6.1). */
static int in_highest_box(const json_t *rules, const json_t *army)
{
	return !json_is_true(json_object_get(army, "stationary")) &&
	       est_rules_int(army, "box", 0) >= lem_track_length(rules, est_rules_str(army, "track"));
}

int lem_attackable(const char **why_out, const char **rule_out, const json_t *state, const json_t *rules,
		   const json_t *army)
{
	const char *track = est_rules_str(army, "track");
	int box = est_rules_int(army, "box", -1);
	const json_t *a;
	size_t i;

	*why_out = NULL;
	if (rule_out)
		*rule_out = "Levée en Masse 7.2";
	if (!lem_on_map(army)) {
		*why_out = "it is not on the map";
		return 0;
	}
	json_array_foreach(json_object_get(state, "armies"), i, a) {
		if (a == army || !lem_on_map(a) || strcmp(est_rules_str(a, "track"), track) != 0)
			continue;
		/* 7.2: "only the one in the box closest to Paris can be attacked" */
		if (est_rules_int(a, "box", 0) < box) {
			*why_out = "another unit stands closer to Paris on its track (7.2)";
			return 0;
		}
		/* "you must engage and defeat the one with a bracketed Combat Value before engaging the other" */
		if (est_rules_int(a, "box", 0) == box && json_is_true(json_object_get(a, "stationary")) &&
		    !json_is_true(json_object_get(army, "stationary"))) {
			*why_out = "a Stationary Army shares its space and must be defeated first (7.2)";
			return 0;
		}
	}
	/* 10.6.1: "an Army in the highest-numbered box on its track can now be pressed" — only then. */
	/* "the Prussian Army and Military Actions against it ignore this rule" while card #9 rotates it */
	if (in_highest_box(rules, army) && (!lem_option(state, "10.6") || json_is_true(json_object_get(army, "rotated")))) {
		int rotated = json_is_true(json_object_get(army, "rotated"));
		*why_out = rotated ? "it stands in the highest box of its track, and while card #9 rotates it "
			   "10.6 does not let you press it (10.6, 5.5.2)" : "it stands in the highest box of its "
			   "track, which only the optional rule 10.6 lets you press, and this game plays without it "
			   "(RULINGS.md M5, 10.6.1)";
		if (rule_out)
			*rule_out = rotated ? "Levée en Masse 10.6 (card #9, 5.5.2)" :
				    "Levée en Masse 10.6.1 (not in force; RULINGS.md M5)";
		return 0;
	}
	return 1;
}

int lem_free_target(const char **why_out, const char **rule_out, const json_t *state, const json_t *rules,
		    const json_t *army)
{
	int pressed = lem_option(state, "10.6");

	*why_out = NULL;
	if (rule_out)
		*rule_out = NULL;
	if (!lem_on_map(army) || !in_highest_box(rules, army))
		return 1;
	/* 10.6.1: "an Army in the highest-numbered box on its track can now be pressed by a Military Action" */
	*why_out = pressed ? "it stands in the highest box of its track, where only a Military Action may press it "
		   "(10.6.1)" : "it stands in the highest box of its track and cannot be pushed further (RULINGS.md M5)";
	if (rule_out)
		*rule_out = pressed ? "Levée en Masse 10.6.1" : "Levée en Masse, RULINGS.md M5";
	return 0;
}

/* 5.0: Napoleon fights "stacked with" his Army; when it leaves the map he goes back to the Holding Box. */
static int napoleon_returns(json_t *state, json_t *events, const json_t *rules, const char *id)
{
	json_t *nap = json_object_get(state, "napoleon");
	const char *with = est_rules_str(nap, "with");

	if (!with || strcmp(with, id) != 0)
		return 0;
	json_object_set_new(nap, "with", json_null());
	json_object_set_new(nap, "recalled", json_integer((json_int_t)json_array_size(json_object_get(state, "played"))));
	return est_rules_event(events, NULL, "napoleon", "Napoleon returns to the Holding Box, the Army he fought "
			       "being removed; he may be assigned again from the next turn's Action Phase (5.0, "
			       "RULINGS.md M19)");
}

int lem_push_back(json_t *state, json_t *events, const json_t *rules, json_t *army, int military, const char *why)
{
	const char *id = est_rules_str(army, "id");
	int box = est_rules_int(army, "box", 0), error;

	/* 5.0: a Stationary Army defeated by a French Military Action is removed from the map. */
	if (json_is_true(json_object_get(army, "stationary"))) {
		json_object_set_new(army, "box", json_null());
		if ((error = est_rules_event(events, json_pack("{s:s}", "army", id), "removed", "%s is removed from "
					     "the map (5.0: a Stationary Army defeated)", lem_army_name(rules, id))) < 0)
			return error;
		return napoleon_returns(state, events, rules, id);
	}
	if (box >= lem_track_length(rules, est_rules_str(army, "track"))) {
		const char *status = est_rules_str(army, "status"), *now;
		/*
		 * 10.6.1: "an Army in the highest-numbered box ... can now be pressed by a Military Action.
		 * Each victory won against such an Army ... does cause it to be rotated by 90 degrees".
		 */
		if (!military || !lem_option(state, "10.6") || json_is_true(json_object_get(army, "rotated")))
			return est_rules_event(events, json_pack("{s:s}", "army", id), "pressed", "%s holds the last box "
					       "of its track and cannot be pushed further", lem_army_name(rules, id));
		now = strcmp(status ? status : "normal", "normal") == 0 ? "disorganized" : "routed";
		json_object_set_new(army, "status", json_string(now));
		return est_rules_event(events, json_pack("{s:s, s:s}", "army", id, "status", now), "pressed",
				       "%s holds the last box of its track: the victory rotates it instead, now %s "
				       "(10.6.1)", lem_army_name(rules, id), now);
	}
	json_object_set_new(army, "box", json_integer(box + 1));
	return est_rules_event(events, json_pack("{s:s, s:i}", "army", id, "box", box + 1), "pushed",
			       "%s is pushed back to %s (%d) (%s)", lem_army_name(rules, id),
			       lem_box_name(rules, est_rules_str(army, "track"), box + 1), box + 1, why);
}

/* The DRMs of a Military Action against `army`, and what they are, before any 10.5 +1. */
static int modifiers(char *text, size_t len, const json_t *state, const json_t *rules, const json_t *army)
{
	const char *high = lem_highest(state);
	const json_t *nap = json_object_get(state, "napoleon");
	int drm = 0, n = 0;

#define ADD(v, what) do { int v_ = (v); if (v_) { drm += v_; \
	n += snprintf(text + n, len > (size_t)n ? len - (size_t)n : 0, " %+d %s", v_, what); } } while (0)
	ADD(high ? est_rules_int(json_object_get(lem_table(rules, "political_drm"), high), "military", 0) : 0,
	    high);
	ADD(json_is_true(json_object_get(state, "disorder")) ? est_rules_int(lem_table(rules, "military"), "disorder_drm", -1) : 0,
	    "Disorder");
	ADD(nap && est_rules_str(nap, "with") && strcmp(est_rules_str(nap, "with"), est_rules_str(army, "id")) == 0 ?
	    est_rules_int(lem_table(rules, "napoleon"), "military_drm", 1) : 0, "Napoleon");
	ADD(strcmp(est_rules_str(army, "track"), "Vendée") == 0 && json_is_integer(json_object_get(state, "british_support")) &&
	    est_rules_int(state, "british_support", 0) == est_rules_int(army, "box", -1) ?
	    est_rules_int(lem_table(rules, "british_support"), "military_drm", -1) : 0, "British Support");
	ADD(est_rules_int(state, "card_drm", 0), "the Headline card");
	ADD(est_rules_int(state, "drm_now", 0), "last reserves committed last turn (10.4)");
#undef ADD
	return drm;
}

/* 10.6.1 Decisive Victories: the Army is rotated and the highest marker gains one, unless tied. */
static int decisive_victory(json_t *state, json_t *events, const json_t *rules, json_t *army, int napoleon)
{
	const char *status = est_rules_str(army, "status"), *high = lem_highest(state);
	const char *now = strcmp(status ? status : "normal", "normal") == 0 ? "disorganized" : "routed";
	int error;

	/* An Army the victory removed from the map (a Stationary Army) is not rotated; the shift stands. */
	if (lem_on_map(army))
		json_object_set_new(army, "status", json_string(now));
	if ((error = est_rules_event(events, json_pack("{s:s, s:s}", "army", est_rules_str(army, "id"), "status", now),
				     "decisive", "a decisive victory (10.6.1)%s%s%s",
				     lem_on_map(army) ? ": " : "", lem_on_map(army) ? lem_army_name(rules, est_rules_str(army, "id")) : "",
				     lem_on_map(army) ? (strcmp(now, "routed") == 0 ? " is now routed" : " is now disorganized") : "")) < 0)
		return error;
	/* "Where Napoleon fights ... one is added (+1) to Despotism instead of the highest track." */
	if (napoleon)
		return lem_shift(state, events, rules, "Despotism", 1, "Napoleon's decisive victory, 10.6.1");
	if (!high)
		return est_rules_event(events, NULL, "political", "the highest Political markers are tied: no "
				       "shift (10.6.1)");
	return lem_shift(state, events, rules, high, 1, "a decisive victory, 10.6.1");
}

/* 10.6.2 Decisive Defeats: a second roll no higher than the box lets the Army advance. */
static int decisive_defeat(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army)
{
	const char *high = lem_highest(state);
	int roll, box = est_rules_int(army, "box", 0), error;

	if ((error = lem_roll(&roll, state, dice, 6, "10.6.2 decisive defeat against %s: second roll",
			      est_rules_str(army, "id"))) < 0)
		return error;
	if ((error = est_rules_event(events, json_pack("{s:i, s:i}", "roll", roll, "box", box), "decisive",
				     "a decisive defeat (10.6.2): second roll %d, needs %d or less (the Army's box): %s",
				     roll, box,
				     roll > box ? "no effect" : json_is_true(json_object_get(army, "stationary")) ?
				     "no effect, a Stationary Army does not move" :
				     "the Army is instructed to advance a box")) < 0)
		return error;
	/* 10.6.1 Enemy Army Recovery: "When instructed to Advance a box, a Disorganized Army instead recovers." */
	if (roll <= box && (error = lem_advance(state, events, rules, army, "a decisive defeat, 10.6.2")) < 0)
		return error;
	if (!high)
		return est_rules_event(events, NULL, "political", "the highest Political markers are tied: no "
				       "shift (10.6.2)");
	return lem_shift(state, events, rules, high, -1, "a decisive defeat, 10.6.2");
}

/* One roll of a Military Action: *natural_out, and whether it beats the Army. */
static int attack_roll(int *natural_out, int *won_out, json_t *state, json_t *events, const json_t *rules,
		       est_dice *dice, const json_t *army, const json_t *order, const char *attempt)
{
	char mods[240] = "";
	int drm = modifiers(mods, sizeof(mods), state, rules, army), roll, value = est_rules_int(army, "value", 0), error;
	int bonus = 0;

	if ((error = lem_roll(&roll, state, dice, est_rules_int(lem_table(rules, "military"), "die", 6),
			      "Military Action against %s%s", est_rules_str(army, "id"), attempt)) < 0)
		return error;
	/* 10.5.2: Disorder for +1 "after the die is rolled", when the +1 makes the difference. */
	if (est_rules_str(order, "disorder") && strcmp(est_rules_str(order, "disorder"), "drm-if-needed") == 0 &&
	    roll != 1 && roll + drm == value && !json_is_true(json_object_get(state, "disorder"))) {
		bonus = 1;
		json_object_set_new(state, "disorder", json_true());
	}
	*natural_out = roll;
	*won_out = roll != 1 && roll + drm + bonus > value;
	return est_rules_event(events, json_pack("{s:s, s:i, s:i, s:i}", "army", est_rules_str(army, "id"), "roll", roll,
						 "drm", drm + bonus, "value", value), "military",
			       "Military Action against %s%s: rolls %d%s%s = %d, needs more than %d (the Army's "
			       "value, RULINGS.md M5): %s",
			       lem_army_name(rules, est_rules_str(army, "id")), attempt, roll, mods,
			       bonus ? " +1 Disorder placed in Paris (10.5)" : "", roll + drm + bonus, value,
			       roll == 1 ? "a natural 1 fails" : *won_out ? "success" : "fails");
}

/* 10.6 applies unless the option is off, or the Prussian Army is rotated by card #9 (5.5.2). */
static int decisive_rules(const json_t *state, const json_t *army)
{
	return lem_option(state, "10.6") && !json_is_true(json_object_get(army, "rotated"));
}

int lem_military(int *won_out, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		 const json_t *order)
{
	json_t *army = lem_army(state, est_rules_str(order, "army"));
	const json_t *nap = json_object_get(state, "napoleon"), *naturals;
	int napoleon = nap && est_rules_str(nap, "with") && strcmp(est_rules_str(nap, "with"), est_rules_str(army, "id")) == 0;
	int natural, won, decisive = 0, error;
	size_t i;
	json_t *v;

	if ((error = attack_roll(&natural, &won, state, events, rules, dice, army, order, "")) < 0)
		return error;
	/* 10.4: "Once per turn ... flip the targeted Army over and reroll that attack." */
	if (!won && lem_option(state, "10.4") && !json_is_true(json_object_get(state, "reserves_used")) &&
	    est_rules_str(order, "reserves") && strcmp(est_rules_str(order, "reserves"), "if-fails") == 0) {
		json_object_set_new(state, "reserves_used", json_true());
		json_object_set_new(army, "flipped", json_true());
		if ((error = est_rules_event(events, NULL, "reserves", "the last reserves are committed (10.4): "
					     "%s is flipped and the attack rolled again",
					     lem_army_name(rules, est_rules_str(army, "id")))) < 0 ||
		    (error = attack_roll(&natural, &won, state, events, rules, dice, army, order,
					 " (last reserves)")) < 0)
			return error;
	}
	if (decisive_rules(state, army)) {
		naturals = json_object_get(lem_table(rules, "decisive"), "napoleon_victory_naturals");
		json_array_foreach(naturals, i, v)
			decisive |= napoleon && json_integer_value(v) == natural;
		/* "Where Napoleon fights, an automatic decisive victory occurs on a natural roll of 5 or 6" */
		won |= decisive;
		decisive |= natural == est_rules_int(lem_table(rules, "decisive"), "victory_natural", 6);
	}
	*won_out = won;
	/* In its last box a decisive victory's rotation is the one the victory brings, not a second. */
	if (won && !(decisive && est_rules_int(army, "box", 0) >= lem_track_length(rules, est_rules_str(army, "track"))) &&
	    (error = lem_push_back(state, events, rules, army, 1, "a Military Action")) < 0)
		return error;
	/* "regardless of any DRMs": a natural 6 is decisive whether or not the Army could be moved. */
	if (decisive)
		return decisive_victory(state, events, rules, army, napoleon);
	if (decisive_rules(state, army) && lem_on_map(army) &&
	    natural == est_rules_int(lem_table(rules, "decisive"), "defeat_natural", 1))
		return decisive_defeat(state, events, rules, dice, army);
	return 0;
}
