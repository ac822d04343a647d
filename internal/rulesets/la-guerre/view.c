/*
 * La Guerre de l'Empereur: what one power (or the public) may see, shaped
 * for the logic-less report templates (templates/la-guerre/). Everything on
 * the map is public; a power's standing orders are its own, so the view of
 * `power` carries state.standing[power] only and the public view none.
 * Templates cannot count, join or compare, so the view gives booleans for
 * sections, the coordinates the SVG needs and preformatted text.
 *
 * The view: scenario, title, season, year, season_text, phase, phase_text,
 * side, side_text, side_powers, next {kind, turn, option, retreat,
 * winter_turn}, vp {France, Coalition}, over, winner, win_reason,
 * provinces [{name, nation, terrain, controller, side, garrison, ghost,
 * garrison_text, garrison_short, armies, occupied, armies_text, markers,
 * ports, x, y, r, label_y, number_y, battle}], map {width, height, edges
 * [{from, to, x1, y1, x2, y2, sea}]}, armies [...], sides [{side,
 * side_text, vp, powers, armies, divisions, divisions_text}], battle (null
 * or {province, step, attacker, defender, initiative, initiative_power,
 * awaits_power, awaits_role, awaits_kind, awaits_text, options, begun,
 * begun_text, loser, loser_power, retreat_to, retreat_to_text,
 * retreat_first}), diplomacy [{nation, status, expires, text}], embargo
 * {raised, limit, normal_limit, raised_limit, britain_buy_max, why,
 * conditions, members, requires_control, text}; for a power also
 * power, standing [{at, step, option, to, text}], standing_sealed and, for
 * Britain, britain_buy.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/util.h"
#include "lg_internal.h"

/* The map's drawing area (data/map.json places markers in x 0..1000, y 0..800). */
#define LG_MAP_W 1000
#define LG_MAP_H 800
#define LG_PROVINCE_R 18
#define LG_MARKER_W 30
#define LG_MARKER_H 16

/* "1 division", "3 divisions". */
static json_t *count_text(int n, const char *one, const char *many)
{
	return est_rules_string(est_strdup_printf("%d %s", n, n == 1 ? one : many));
}

/* "France", "Coalition" or "neutral": the colour of a province or army. */
static const char *side_or_neutral(const json_t *rules, const char *nation)
{
	const char *side = lg_side_of(rules, nation);

	return side ? side : "neutral";
}

static const char *side_text(const char *side)
{
	return side && strcmp(side, LG_COALITION) == 0 ? "the Coalition" : side ? side : "";
}

/* "France's turn", "the winter phase (4.241)", "the scenario is over". */
static json_t *phase_text(const char *phase, const char *side)
{
	if (phase && strcmp(phase, "winter") == 0)
		return json_string("the winter phase (4.241)");
	if (phase && strcmp(phase, "over") == 0)
		return json_string("the scenario is over");
	return est_rules_string(est_strdup_printf("%s's turn", side_text(side)));
}

/* "4 corps, 10 divisions: IV Corps (Soult) 3, III Corps (Davout) 3, ..." */
static json_t *corps_text(const json_t *army)
{
	int corps = lg_corps_count(army), divisions = lg_divisions(army);
	char *text = est_strdup_printf("%d corps, %d division%s", corps, divisions, divisions == 1 ? "" : "s");
	const char *sep = ": ";
	const json_t *c;
	size_t i;

	json_array_foreach(json_object_get(army, "corps"), i, c) {
		if (!text || est_rules_join(&text, sep, "%s %d", est_rules_str(c, "name") ? est_rules_str(c, "name") : "corps",
				  est_rules_int(c, "divisions", 0)) < 0)
			return est_rules_string(text);
		sep = ", ";
	}
	return est_rules_string(text);
}

static json_t *army_view(const json_t *state, const json_t *rules, const json_t *army)
{
	const char *nation = est_rules_str(army, "nation");

	return json_pack("{s:s?, s:s?, s:s, s:s?, s:s, s:i, s:s?, s:i, s:i, s:O?, s:i, s:i, s:o, s:b}",
			 "id", est_rules_str(army, "id"), "nation", nation, "side", side_or_neutral(rules, nation),
			 "commander", est_rules_str(army, "commander"), "commander_name", lg_commander_name(rules, army),
			 "tactical", lg_tactical(rules, army), "location", est_rules_str(army, "location"),
			 "movement", est_rules_int(army, "movement", 0), "artillery", est_rules_int(army, "artillery", 0),
			 "corps", json_object_get(army, "corps"), "corps_count", lg_corps_count(army),
			 "divisions", lg_divisions(army), "corps_text", corps_text(army),
			 "moved", est_rules_in_list(json_object_get(state, "moved"), est_rules_str(army, "id")));
}

static json_t *armies_view(const json_t *state, const json_t *rules)
{
	json_t *list = json_array(), *a;
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a) {
		json_t *v = army_view(state, rules, a);
		if (!list || json_array_append_new(list, v) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* The armies of one side, for "armies by side"; `armies` is armies_view()'s list. */
static json_t *side_view(const json_t *state, const json_t *rules, const json_t *armies, const char *side)
{
	json_t *list = json_array(), *a;
	int divisions = 0;
	size_t i;

	json_array_foreach(armies, i, a) {
		if (strcmp(est_rules_str(a, "side"), side) != 0)
			continue;
		divisions += est_rules_int(a, "divisions", 0);
		if (!list || json_array_append(list, a) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return json_pack("{s:s, s:s, s:i, s:o, s:o, s:i, s:o}", "side", side, "side_text", side_text(side),
			 "vp", est_rules_int(json_object_get(state, "vp"), side, 0), "powers", lg_side_powers(rules, side),
			 "armies", list, "divisions", divisions, "divisions_text",
			 count_text(divisions, "division", "divisions"));
}

/* "2 divisions and 1 ghost", "1 ghost", "none". */
static json_t *garrison_text(int garrison, int ghost)
{
	if (garrison > 0 && ghost > 0)
		return est_rules_string(est_strdup_printf("%d division%s and %d ghost", garrison,
						     garrison == 1 ? "" : "s", ghost));
	if (garrison > 0)
		return count_text(garrison, "division", "divisions");
	if (ghost > 0)
		return est_rules_string(est_strdup_printf("%d ghost", ghost));
	return json_string("none");
}

/* What the map prints inside a province's circle: "2", "2+1" (ghosts), "+1" or nothing. */
static json_t *garrison_short(int garrison, int ghost)
{
	if (ghost > 0)
		return est_rules_string(garrison > 0 ? est_strdup_printf("%d+%d", garrison, ghost) :
				   est_strdup_printf("+%d", ghost));
	return est_rules_string(garrison > 0 ? est_strdup_printf("%d", garrison) : strdup(""));
}

/* One army's marker beside its province's circle, the k-th from the top. */
static json_t *marker(const json_t *rules, const json_t *army, int x, int y, int k)
{
	int mx = x + LG_PROVINCE_R + 4, my = y - LG_PROVINCE_R + k * (LG_MARKER_H + 4);

	/* A province at the right edge gets its markers on its left. */
	if (mx + LG_MARKER_W > LG_MAP_W - 2)
		mx = x - LG_PROVINCE_R - 4 - LG_MARKER_W;

	return json_pack("{s:s?, s:s, s:s?, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i}",
			 "id", est_rules_str(army, "id"), "side", side_or_neutral(rules, est_rules_str(army, "nation")),
			 "nation", est_rules_str(army, "nation"), "commander_name", lg_commander_name(rules, army),
			 "divisions", lg_divisions(army), "x", mx, "y", my, "w", LG_MARKER_W, "h", LG_MARKER_H,
			 "tx", mx + LG_MARKER_W / 2, "ty", my + LG_MARKER_H - 4);
}

/* The armies standing in `name`: a list for the text and markers for the SVG. */
static int province_armies(json_t **list_out, json_t **markers_out, json_t **text_out,
			   const json_t *state, const json_t *rules, const char *name, int x, int y)
{
	json_t *list = json_array(), *markers = json_array(), *a;
	char *text = NULL;
	int k = 0;
	size_t i;

	json_array_foreach(json_object_get(state, "armies"), i, a) {
		if (!list || !markers || !name || strcmp(est_rules_str(a, "location"), name) != 0)
			continue;
		if (json_array_append_new(list, json_pack("{s:s?, s:s?, s:s, s:i}", "id", est_rules_str(a, "id"),
							  "nation", est_rules_str(a, "nation"), "commander_name",
							  lg_commander_name(rules, a), "divisions",
							  lg_divisions(a))) < 0 ||
		    json_array_append_new(markers, marker(rules, a, x, y, k++)) < 0 ||
		    est_rules_join(&text, "; ", "%s %s (%s, %d division%s)", est_rules_str(a, "nation"), est_rules_str(a, "id"),
			 lg_commander_name(rules, a), lg_divisions(a), lg_divisions(a) == 1 ? "" : "s") < 0)
			goto fail;
	}
	if (!list || !markers)
		goto fail;
	*list_out = list;
	*markers_out = markers;
	*text_out = est_rules_string(text ? text : strdup(""));
	return 0;
fail:
	json_decref(list);
	json_decref(markers);
	free(text);
	return -1;
}

static json_t *province_view(const json_t *state, const json_t *rules, const json_t *data)
{
	const char *name = est_rules_str(data, "name"), *battle = est_rules_str(json_object_get(state, "battle"), "province");
	const json_t *p = lg_province(state, name);
	const char *controller = est_rules_str(p, "controller");
	int x = est_rules_int(data, "x", 0), y = est_rules_int(data, "y", 0);
	int garrison = est_rules_int(p, "garrison", 0), ghost = est_rules_int(p, "ghost", 0);
	json_t *armies, *markers, *text;

	if (province_armies(&armies, &markers, &text, state, rules, name, x, y) < 0)
		return NULL;
	return json_pack("{s:s?, s:s?, s:s?, s:s?, s:s, s:i, s:i, s:o, s:o, s:o, s:b, s:o, s:o, s:O?,"
			 " s:i, s:i, s:i, s:i, s:i, s:b}",
			 "name", name, "nation", est_rules_str(data, "nation"), "terrain", est_rules_str(data, "terrain"),
			 "controller", controller, "side", side_or_neutral(rules, controller),
			 "garrison", garrison, "ghost", ghost, "garrison_text", garrison_text(garrison, ghost),
			 "garrison_short", garrison_short(garrison, ghost), "armies", armies,
			 "occupied", json_array_size(armies) > 0, "armies_text", text, "markers", markers,
			 "ports", json_object_get(data, "ports"), "x", x, "y", y, "r", LG_PROVINCE_R,
			 "label_y", y + LG_PROVINCE_R + 15, "number_y", y + 5,
			 "battle", battle && name && strcmp(battle, name) == 0);
}

static json_t *provinces_view(const json_t *state, const json_t *rules)
{
	json_t *list = json_array(), *p;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "map"), "provinces"), i, p) {
		json_t *v = province_view(state, rules, p);
		if (!list || json_array_append_new(list, v) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* Whether map.json's "sea_links" joins `a` and `b` (drawn dashed). */
static int sea_link(const json_t *rules, const char *a, const char *b)
{
	const json_t *link;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(rules, "map"), "sea_links"), i, link) {
		const char *x = json_string_value(json_array_get(link, 0)), *y = json_string_value(json_array_get(link, 1));
		if (x && y && ((strcmp(x, a) == 0 && strcmp(y, b) == 0) || (strcmp(x, b) == 0 && strcmp(y, a) == 0)))
			return 1;
	}
	return 0;
}

/* Every adjacency of the map once (either province listing the other makes one). */
static json_t *edges_view(const json_t *rules)
{
	const json_t *provinces = json_object_get(json_object_get(rules, "map"), "provinces");
	json_t *list = json_array();
	size_t i, j, n = json_array_size(provinces);

	for (i = 0; list && i < n; i++) {
		const json_t *a = json_array_get(provinces, i);
		for (j = i + 1; j < n; j++) {
			const json_t *b = json_array_get(provinces, j);
			const char *an = est_rules_str(a, "name"), *bn = est_rules_str(b, "name");
			if (!an || !bn || (!lg_adjacent(rules, an, bn) && !lg_adjacent(rules, bn, an)))
				continue;
			if (json_array_append_new(list, json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:b}", "from", an,
				"to", bn, "x1", est_rules_int(a, "x", 0), "y1", est_rules_int(a, "y", 0), "x2", est_rules_int(b, "x", 0),
				"y2", est_rules_int(b, "y", 0), "sea", sea_link(rules, an, bn))) < 0) {
				json_decref(list);
				return NULL;
			}
		}
	}
	return list;
}

static json_t *map_view(const json_t *rules)
{
	return json_pack("{s:i, s:i, s:o}", "width", LG_MAP_W, "height", LG_MAP_H, "edges", edges_view(rules));
}

/* One side of the battle: who, under whom, with what. */
static json_t *combatant(const json_t *state, const json_t *rules, const json_t *battle, const char *role)
{
	const json_t *who = json_object_get(battle, role);
	const json_t *army = lg_army(state, est_rules_str(who, "army"));

	return json_pack("{s:s, s:s?, s:s?, s:s?, s:s, s:i, s:i, s:i, s:i, s:i, s:b, s:o}",
			 "role", role, "power", est_rules_str(who, "power"), "army", est_rules_str(who, "army"),
			 "from", est_rules_str(who, "from"), "commander_name", army ? lg_commander_name(rules, army) : "gone",
			 "tactical", lg_tactical(rules, army), "corps", lg_corps_count(army),
			 "divisions", lg_divisions(army), "artillery", est_rules_int(army, "artillery", 0),
			 "drm", est_rules_int(json_object_get(battle, "drm"), role, 0),
			 "initiative", strcmp(role, est_rules_str(battle, "initiative") ? est_rules_str(battle, "initiative") : "") == 0,
			 "drm_text", est_rules_string(est_strdup_printf("%+d", est_rules_int(json_object_get(battle, "drm"), role, 0))));
}

/* 5.616's bombardment in the words of the game's bombard table. */
static json_t *bombard_label(const json_t *rules)
{
	const json_t *bombard = lg_table(rules, "bombard");
	int die = est_rules_int(bombard, "die", 10), hit_on = est_rules_int(bombard, "hit_on", 10);
	int per_hit = est_rules_int(bombard, "divisions_per_hit", 2);

	return est_rules_string(est_strdup_printf("Bombard (one d%d per artillery unit; each %d%s eliminates %d "
						  "division%s)", die, hit_on, hit_on < die ? " or more" : "", per_hit,
						  per_hit == 1 ? "" : "s"));
}

/* 5.612's words for an option, as the report lists it. */
static json_t *option_label(const json_t *rules, const char *option, int step)
{
	if (strcmp(option, "attack") == 0)
		return json_string(step == 6 ? "Attack" : "Attack (go directly to step 7)");
	if (strcmp(option, "retreat") == 0)
		/* RULINGS.md L13: only a retreat before combat (step 4) is spared the pursuit. */
		return json_string(step == 4 ? "Retreat (no pursuit before combat)" : "Retreat, pursued (5.629)");
	if (strcmp(option, "auxiliary") == 0)
		return json_string("Auxiliary Option (a roll on the Auxiliary Options column)");
	if (strcmp(option, "bombard") == 0)
		return bombard_label(rules);
	return json_string(option);
}

static json_t *options_view(const json_t *state, const json_t *rules, int step)
{
	json_t *list = json_array();

	for (const char *const *o = lg_battle_options(state); list && *o; o++)
		if (json_array_append_new(list, json_pack("{s:s, s:o}", "option", *o, "label",
							  option_label(rules, *o, step))) < 0) {
			json_decref(list);
			return NULL;
		}
	return list;
}

/* What the battle waits for, in the seed's words. */
static json_t *awaits_text(const json_t *battle, const char *power)
{
	const char *province = est_rules_str(battle, "province");

	switch (est_rules_int(battle, "step", 0)) {
	case 4:
		return est_rules_string(est_strdup_printf("5.612 step 4: %s, the initiative player, may choose one "
						     "option at %s", power, province));
	case 5:
		return est_rules_string(est_strdup_printf("5.612 step 5: there was no Attack in step 4, so %s, the "
						     "non-initiative player, may choose one option at %s", power,
						     province));
	case 6:
		return est_rules_string(est_strdup_printf("5.612 step 6: there was no Attack in step 5, so %s, the "
						     "initiative player, MUST choose Attack or Retreat at %s", power,
						     province));
	case 9:
		return est_rules_string(est_strdup_printf("5.612 step 9: %s lost the attack at %s and must retreat; "
						     "pursuit follows (5.629)", power, province));
	default:
		return est_rules_string(est_strdup_printf("5.612 step %d at %s", est_rules_int(battle, "step", 0), province));
	}
}

/* Where the deciding army could retreat now (empty: only through enemy provinces, 5.6291). */
static json_t *retreat_to(const json_t *state, const json_t *rules, const json_t *battle, const char *role)
{
	const json_t *army = role ? lg_army(state, est_rules_str(json_object_get(battle, role), "army")) : NULL;

	return army ? lg_retreat_options(state, rules, army) : json_array();
}

/* "Bohemia, Upper Austria"; "" when the list is empty. */
static json_t *list_text(const json_t *list)
{
	char *text = NULL;
	const json_t *v;
	size_t i;

	json_array_foreach(list, i, v)
		if (est_rules_join(&text, ", ", "%s", json_string_value(v) ? json_string_value(v) : "?") < 0)
			return est_rules_string(text);
	return est_rules_string(text ? text : strdup(""));
}

/* What a retreat costs at this point of the battle (5.513 NOTE, 5.612 NOTE, 5.616). */
static const char *begun_text(const json_t *battle)
{
	if (est_rules_int(battle, "step", 0) == 9)
		return "the attack has been resolved: the loser retreats and is pursued (5.629); a defender "
		       "takes its garrison along and the winner gains the province (5.616)";
	if (json_is_true(json_object_get(battle, "begun")))
		return "the battle has begun (an Auxiliary or Bombard option was carried out): a retreat now "
		       "gives the enemy VPs, and a defender who retreats gives up the province, taking its "
		       "garrison along (5.616)";
	return "the battle has not begun: a retreat now scores no VPs, is not pursued and leaves the "
	       "garrison behind (5.513 NOTE, 5.612 NOTE)";
}

static json_t *battle_view(const json_t *state, const json_t *rules)
{
	const json_t *battle = json_object_get(state, "battle");
	const char *initiative = est_rules_str(battle, "initiative"), *role, *power, *kind;
	int step = est_rules_int(battle, "step", 0);
	json_t *to;

	if (!json_is_object(battle))
		return json_null();
	role = lg_battle_deciding_role(battle);
	lg_battle_awaits(&power, &kind, state);
	if (!(to = retreat_to(state, rules, battle, role)))
		return NULL;
	return json_pack("{s:s?, s:i, s:o, s:o, s:s?, s:s?, s:s?, s:s?, s:s?, s:o, s:o, s:b, s:o, s:s?,"
			 " s:s?, s:o, s:o, s:O?}",
			 "province", est_rules_str(battle, "province"), "step", step,
			 "attacker", combatant(state, rules, battle, "attacker"),
			 "defender", combatant(state, rules, battle, "defender"),
			 "initiative", initiative,
			 "initiative_power", est_rules_str(json_object_get(battle, initiative), "power"),
			 "awaits_power", power, "awaits_role", role, "awaits_kind", kind,
			 "awaits_text", awaits_text(battle, power ? power : "nobody"),
			 "options", options_view(state, rules, step),
			 "begun", json_is_true(json_object_get(battle, "begun")),
			 "begun_text", json_string(begun_text(battle)),
			 "loser", est_rules_str(battle, "loser"),
			 "loser_power", est_rules_str(json_object_get(battle, est_rules_str(battle, "loser")), "power"),
			 "retreat_to", to, "retreat_to_text", list_text(to),
			 "retreat_first", json_array_get(to, 0));
}

/*
 * A nation's standing with France in words: a treaty's last year (RULINGS.md
 * L25) or that it has none, and France's offer waiting for the nation's
 * acceptance (L27), so that a refusal's "the report's diplomacy says" holds.
 */
static char *diplomacy_text(const json_t *state, const char *nation, const json_t *d)
{
	const char *status = est_rules_str(d, "status") ? est_rules_str(d, "status") : "unknown";
	const char *offer = est_rules_str(json_object_get(state, "offers"), nation);
	const json_t *expires = json_object_get(d, "expires");
	char *text, *with_offer;

	if (json_is_integer(expires))
		text = est_strdup_printf("%s: %s with France, %s %d%s", nation, status,
					 lg_treaty_live(state, nation) ? "until" : "expired after",
					 (int)json_integer_value(expires),
					 json_object_get(d, "npc") ? " (an inactive non-player nation)" : "");
	else if (lg_treaty_live(state, nation))
		text = est_strdup_printf("%s: %s with France, with no end date", nation, status);
	else
		text = est_strdup_printf("%s: %s", nation, status);
	if (!text || !offer)
		return text;
	with_offer = est_strdup_printf("%s; France offers %s, which %s may accept in the Coalition's turn "
				       "that follows (RULINGS.md L27)", text, lg_treaty_words(offer), nation);
	free(text);
	return with_offer;
}

static json_t *diplomacy_view(const json_t *state)
{
	json_t *list = json_array(), *d;
	const char *nation;

	json_object_foreach(json_object_get(state, "diplomacy"), nation, d) {
		if (!list || json_array_append_new(list, json_pack("{s:s, s:s?, s:O?, s:o}", "nation", nation,
			"status", est_rules_str(d, "status"), "expires", json_object_get(d, "expires"), "text",
			est_rules_string(diplomacy_text(state, nation, d)))) < 0) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* "Russia: war; Holland: controlled by France" as a list of {"text"}. */
static json_t *conditions(const char *why)
{
	json_t *list = json_array();
	const char *p = why;

	while (list && p && *p) {
		const char *end = strstr(p, "; ");
		size_t n = end ? (size_t)(end - p) : strlen(p);
		json_t *item = json_pack("{s:s%}", "text", p, n);
		if (json_array_append_new(list, item) < 0) {
			json_decref(list);
			return NULL;
		}
		p = end ? end + 2 : NULL;
	}
	return list;
}

/* 4.241: the Embargo limit if the winter came now, and why. */
static int embargo_view(json_t **out, const json_t *state, const json_t *rules)
{
	const json_t *embargo = json_object_get(lg_scenario(rules), "embargo");
	char *why = NULL;
	int raised = lg_embargo_raised(&why, state, rules);
	int limit = est_rules_int(embargo, raised ? "raised_limit" : "limit", raised ? 10 : 5);
	int buy = est_rules_int(embargo, raised ? "britain_buy_max_under_embargo" : "britain_buy_max", raised ? 5 : 10);

	if (raised < 0)
		return raised;
	*out = json_pack("{s:b, s:i, s:i, s:i, s:i, s:s, s:o, s:O?, s:O?, s:o}",
			 "raised", raised, "limit", limit, "normal_limit", est_rules_int(embargo, "limit", 5),
			 "raised_limit", est_rules_int(embargo, "raised_limit", 10), "britain_buy_max", buy,
			 "why", why, "conditions", conditions(why), "members", json_object_get(embargo, "members"),
			 "requires_control", json_object_get(embargo, "requires_control"),
			 "text", est_rules_string(est_strdup_printf(
				 "if the winter came now the Embargo limit would be %d VPs (%s) and Britain could "
				 "buy at most %d VPs", limit, raised ? "raised: every condition of 4.241 holds" :
				 "not raised: a condition of 4.241 fails", buy)));
	free(why);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

/* "at Bavaria, 5.612 step 4: retreat to Tyrol". */
static json_t *standing_item(const json_t *s)
{
	const char *to = est_rules_str(s, "to");
	char *text = est_strdup_printf("at %s, 5.612 step %d: %s%s%s", est_rules_str(s, "at") ? est_rules_str(s, "at") : "?",
				       est_rules_int(s, "step", 0), est_rules_str(s, "option") ? est_rules_str(s, "option") : "?",
				       to ? " to " : "", to ? to : "");

	return json_pack("{s:s?, s:i, s:s?, s:s?, s:o}", "at", est_rules_str(s, "at"), "step", est_rules_int(s, "step", 0),
			 "option", est_rules_str(s, "option"), "to", to, "text", est_rules_string(text));
}

/* The reader's own standing orders; a sealed copy holds only a commitment to them. */
static int add_own(json_t *v, const json_t *state, const char *power)
{
	const json_t *mine = json_object_get(json_object_get(state, "standing"), power), *s;
	json_t *list = json_array();
	size_t i;

	json_array_foreach(mine, i, s)
		if (!list || json_array_append_new(list, standing_item(s)) < 0) {
			json_decref(list);
			list = NULL;
			break;
		}
	if (!list || json_object_set_new(v, "power", json_string(power)) < 0 ||
	    json_object_set_new(v, "standing", list) < 0 ||
	    json_object_set_new(v, "standing_sealed", json_boolean(json_is_object(mine))) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (strcmp(power, "Britain") == 0 &&
	    json_object_set_new(v, "britain_buy", json_integer(est_rules_int(state, "britain_buy", 0))) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/* Which kind of orders the state awaits next, as booleans for the order help. */
static json_t *next_view(const json_t *state)
{
	const char *phase = est_rules_str(state, "phase"), *power, *kind;

	lg_battle_awaits(&power, &kind, state);
	if (!kind)
		kind = phase && strcmp(phase, "turn") == 0 ? "turn" : phase ? phase : "turn";
	return json_pack("{s:s, s:b, s:b, s:b, s:b}", "kind", kind, "turn", strcmp(kind, "turn") == 0,
			 "option", strncmp(kind, "battle-step-", 12) == 0, "retreat", strcmp(kind, "retreat") == 0,
			 "winter_turn", strcmp(kind, "turn") == 0 && est_rules_str(state, "season") &&
			 strcmp(est_rules_str(state, "season"), "Winter") == 0);
}

static int put(json_t *v, const char *key, json_t *value)
{
	return value && json_object_set_new(v, key, value) == 0 ? 0 : -1;
}

int lg_view(json_t **out, const json_t *state, const json_t *rules, const char *power)
{
	const char *side = est_rules_str(state, "side"), *phase = est_rules_str(state, "phase");
	json_t *v = json_object(), *armies = armies_view(state, rules), *embargo = NULL;
	int error;

	if ((error = embargo_view(&embargo, state, rules)) < 0)
		goto out;
	if (!v || !armies) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* json_object_set_new takes the reference, even when it fails. */
	error = put(v, "embargo", embargo);
	embargo = NULL;
	if (error < 0 ||
	    put(v, "scenario", json_pack("s?", est_rules_str(state, "scenario"))) < 0 ||
	    put(v, "title", json_pack("s?", est_rules_str(lg_scenario(rules), "title"))) < 0 ||
	    put(v, "season", json_pack("s?", est_rules_str(state, "season"))) < 0 ||
	    put(v, "year", json_integer(est_rules_int(state, "year", 0))) < 0 ||
	    put(v, "season_text", est_rules_string(est_strdup_printf("%s %d", est_rules_str(state, "season") ?
				est_rules_str(state, "season") : "?", est_rules_int(state, "year", 0)))) < 0 ||
	    put(v, "phase", json_pack("s?", phase)) < 0 ||
	    put(v, "side", json_pack("s?", side)) < 0 ||
	    put(v, "side_text", json_string(side_text(side))) < 0 ||
	    put(v, "phase_text", phase_text(phase, side)) < 0 ||
	    put(v, "side_powers", lg_side_powers(rules, side ? side : LG_FRANCE)) < 0 ||
	    put(v, "next", next_view(state)) < 0 ||
	    put(v, "vp", json_pack("{s:i, s:i}", LG_FRANCE, est_rules_int(json_object_get(state, "vp"), LG_FRANCE, 0),
				   LG_COALITION, est_rules_int(json_object_get(state, "vp"), LG_COALITION, 0))) < 0 ||
	    put(v, "over", json_boolean(phase && strcmp(phase, "over") == 0)) < 0 ||
	    put(v, "winner", json_pack("s?", est_rules_str(state, "winner"))) < 0 ||
	    put(v, "win_reason", json_pack("s?", est_rules_str(state, "win_reason"))) < 0 ||
	    put(v, "provinces", provinces_view(state, rules)) < 0 ||
	    put(v, "map", map_view(rules)) < 0 ||
	    put(v, "sides", json_pack("[o, o]", side_view(state, rules, armies, LG_FRANCE),
				      side_view(state, rules, armies, LG_COALITION))) < 0 ||
	    put(v, "armies", json_incref(armies)) < 0 ||
	    put(v, "battle", battle_view(state, rules)) < 0 ||
	    put(v, "diplomacy", diplomacy_view(state)) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (power && lg_is_power(power) && (error = add_own(v, state, power)) < 0)
		goto out;
	*out = v;
	v = NULL;
	error = 0;
out:
	json_decref(embargo);
	json_decref(armies);
	json_decref(v);
	return error;
}
