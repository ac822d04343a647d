/*
 * La Guerre de l'Empereur: a turn's moves and sieges, applied in the order
 * given. Entering a province held by an enemy army starts a battle (5.513)
 * and ends the move; the rest of the turn waits for the battle to end.
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

int lg_path_cost(const json_t *rules, const json_t *path)
{
	const json_t *costs = lg_table(rules, "movement"), *p;
	size_t i;
	int mp = 0;

	json_array_foreach(path, i, p) {
		const char *terrain = est_rules_str(lg_province_data(rules, json_string_value(p)), "terrain");
		mp += est_rules_int(costs, terrain ? terrain : "clear", 1);
	}
	return mp;
}

/* A province of the enemy with no garrison, or ghosts only, changes hands on entry (RULINGS.md). */
static int take_control(json_t *state, json_t *events, json_t *army, const char *province)
{
	int error;

	if ((error = lg_set_controller(state, province, est_rules_str(army, "nation"), 0, 1)) < 0)
		return error;
	return est_rules_event(events, json_pack("{s:s, s:s}", "province", province, "controller",
					  est_rules_str(army, "nation")), "control",
			"%s takes control of %s and places a garrison (a ghost division)",
			est_rules_str(army, "nation"), province);
}

int lg_siege(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army,
	     const char *free_rule)
{
	const char *province = est_rules_str(army, "location");
	const json_t *table = lg_table(rules, "siege");
	json_t *p = lg_province(state, province);
	int garrison = est_rules_int(p, "garrison", 0), roll, drm, falls, error;
	char holder[64];

	if (garrison <= 0)
		return take_control(state, events, army, province);
	snprintf(holder, sizeof(holder), "%s", lg_controller(state, province));
	if ((error = est_rules_roll(&roll, dice, est_rules_int(table, "die", 6), "%s siege: %s", province,
			     est_rules_str(army, "nation"))) < 0)
		return error;
	drm = (garrison - 1) * est_rules_int(table, "drm_per_garrison_division_over_one", -1);
	falls = roll + drm >= est_rules_int(table, "falls_on", 4);
	if ((error = est_rules_event(events, json_pack("{s:s, s:i, s:i, s:b}", "province", province, "roll", roll,
						"garrison", garrison, "falls", falls), "siege",
			      "%s besieges the %s garrison of %s (%d division%s)%s%s%s: rolls %d %+d = %d, needs %d: "
			      "%s", est_rules_str(army, "nation"), holder, province, garrison, garrison == 1 ? "" : "s",
			      free_rule ? ", a first attempt at no Movement Point cost (" : "", free_rule ? free_rule : "",
			      free_rule ? ")" : "",
			      roll, drm, roll + drm, est_rules_int(table, "falls_on", 4),
			      falls ? "the garrison surrenders" : "the garrison holds")) < 0)
		return error;
	return falls ? take_control(state, events, army, province) : 0;
}

static int mark_moved(json_t *state, const char *id)
{
	json_t *moved = json_object_get(state, "moved");

	if (!moved) {
		moved = json_array();
		json_object_set_new(state, "moved", moved);
	}
	return json_array_append_new(moved, json_string(id)) < 0 ? est_error_set(EST_ENOMEM, "out of memory") : 0;
}

/*
 * Enter `to`: a battle if an enemy army holds it (5.513), a siege if an
 * enemy garrison does, else the province changes hands. Sets *stop when
 * the move ends here.
 */
static int enter(int *stop, json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		 json_t *army, const char *from, const char *to)
{
	const char *side = lg_army_side(rules, army);
	json_t *enemy = lg_army_at(state, rules, to, lg_other_side(side));

	json_object_set_new(army, "location", json_string(to));
	*stop = 1;
	if (enemy)
		return lg_battle_enter(state, events, rules, dice, army, from, enemy);
	if (lg_enemy(state, rules, to, side) && est_rules_int(lg_province(state, to), "garrison", 0) > 0)
		return lg_siege(state, events, rules, dice, army, "RULINGS.md L6");
	*stop = 0;
	return lg_enemy(state, rules, to, side) ? take_control(state, events, army, to) : 0;
}

/*
 * RULINGS.md L7: a move never ends on an army of its own side. Checked at
 * submission against the start of the turn; an army that has moved in since
 * makes this move stop at the last province of its path free of one.
 */
static size_t open_length(const json_t *state, const json_t *rules, const json_t *army, const json_t *path)
{
	const char *side = lg_army_side(rules, army);
	size_t n = json_array_size(path);

	while (n > 0 && lg_army_at(state, rules, json_string_value(json_array_get(path, n - 1)), side))
		n--;
	return n;
}

/* "through Baden, Wurttemberg to Bavaria", or "to Bavaria"; caller frees. */
static char *route_text(const json_t *path, size_t n)
{
	char *text = strdup(""), *next;

	for (size_t i = 0; text && i + 1 < n; i++) {
		next = est_strdup_printf("%s%s%s", text, i ? ", " : " through ",
					 json_string_value(json_array_get(path, i)));
		free(text);
		text = next;
	}
	next = text ? est_strdup_printf("%s to %s", text, json_string_value(json_array_get(path, n - 1))) : NULL;
	free(text);
	return next;
}

static int move(json_t *state, json_t *events, const json_t *rules, est_dice *dice, json_t *army,
		const json_t *path)
{
	size_t n = open_length(state, rules, army, path), i;
	char from[128], *route;
	int stop = 0, error;

	snprintf(from, sizeof(from), "%s", est_rules_str(army, "location"));
	if (n < json_array_size(path) &&
	    (error = est_rules_event(events, json_pack("{s:s}", "army", est_rules_str(army, "id")), "move",
				     "%s's army (%s) stops short: an army of its side now stands in %s, and "
				     "armies do not stack (RULINGS.md L7)", est_rules_str(army, "nation"),
				     lg_commander_name(rules, army),
				     json_string_value(json_array_get(path, json_array_size(path) - 1)))) < 0)
		return error;
	if (n == 0)
		return 0;
	route = route_text(path, n);
	error = est_rules_event(events, json_pack("{s:s, s:s, s:O}", "army", est_rules_str(army, "id"), "from", from,
						  "path", path), "move", "%s's army (%s) marches from %s%s",
				est_rules_str(army, "nation"), lg_commander_name(rules, army), from, route ? route : "");
	free(route);
	if (error < 0)
		return error;
	for (i = 0; i < n; i++) {
		const char *to = json_string_value(json_array_get(path, i));
		char at[128];

		snprintf(at, sizeof(at), "%s", est_rules_str(army, "location"));
		/* Validation saw the turn's start; earlier moves and battles may have changed the way. */
		if (!lg_adjacent(rules, at, to) || !lg_side_of(rules, lg_controller(state, to)) ||
		    lg_treaty_bars(state, rules, army, to))
			return est_rules_event(events, NULL, "move", "%s's army stops in %s: %s is %s",
					est_rules_str(army, "nation"), at, to, !lg_adjacent(rules, at, to) ?
					"not adjacent" : !lg_side_of(rules, lg_controller(state, to)) ? "neutral" :
					"held by a nation at peace with it by treaty (RULINGS.md L27)");
		if ((error = enter(&stop, state, events, rules, dice, army, at, to)) < 0 || stop)
			return error;
	}
	return 0;
}

int lg_apply_order(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		   const char *power, const json_t *order)
{
	const char *type = est_rules_str(order, "type"), *id = est_rules_str(order, "army");
	json_t *army = lg_army(state, id);
	int error;

	/* An army destroyed or driven off earlier in the turn cannot carry out its order. */
	if (!army || strcmp(est_rules_str(army, "nation"), power) != 0)
		return est_rules_event(events, json_pack("{s:s}", "army", id), "skipped",
				"%s's order for army %s is not carried out: the army is no longer on the map",
				power, id);
	if ((error = mark_moved(state, id)) < 0)
		return error;
	if (strcmp(type, "besiege") == 0) {
		if (!lg_enemy(state, rules, est_rules_str(army, "location"), lg_army_side(rules, army)))
			return est_rules_event(events, json_pack("{s:s}", "army", id), "skipped",
					"%s's army (%s) has no enemy garrison to besiege in %s", power,
					lg_commander_name(rules, army), est_rules_str(army, "location"));
		return lg_siege(state, events, rules, dice, army, NULL);
	}
	return move(state, events, rules, dice, army, json_object_get(order, "path"));
}
