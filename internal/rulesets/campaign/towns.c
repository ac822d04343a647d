/*
 * Campaign: §6 capturing towns, §7 capitals, §13 the red towns' pieces,
 * §12 and §15 captured Generals, and winning and losing the game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "cp_internal.h"

static const char *const kinds[] = {"infantry", "cavalry"};

/* The piece of `country` and `kind` closest to (x, y), or NULL. */
static json_t *closest(const json_t *state, const char *country, const char *kind, int x, int y)
{
	json_t *p, *best = NULL;
	size_t i;
	int d = 1 << 30;

	json_array_foreach(json_object_get(state, "pieces"), i, p) {
		int px, py, e;
		if (strcmp(est_rules_str(p, "country"), country) != 0 || strcmp(est_rules_str(p, "kind"), kind) != 0 ||
		    !cp_sq(json_object_get(p, "square"), &px, &py))
			continue;
		e = abs(px - x) > abs(py - y) ? abs(px - x) : abs(py - y);
		if (e < d) {
			d = e;
			best = p;
		}
	}
	return best;
}

static int remove_piece(json_t *state, const json_t *piece)
{
	json_t *pieces = json_object_get(state, "pieces"), *p;
	size_t i;

	json_array_foreach(pieces, i, p)
		if (p == piece)
			return json_array_remove(pieces, i);
	return 0;
}

/* An empty land square next to (x, y): the order's choice when it names one that is, else the first. */
static int place_square(int *px, int *py, const json_t *state, const json_t *rules, int x, int y,
			const json_t *wanted)
{
	int wx, wy;

	if (cp_sq(wanted, &wx, &wy) && abs(wx - x) <= 1 && abs(wy - y) <= 1 && cp_terrain(rules, wx, wy) == '.' &&
	    !cp_piece_at(state, wx, wy)) {
		*px = wx;
		*py = wy;
		return 1;
	}
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			if ((dx || dy) && cp_terrain(rules, x + dx, y + dy) == '.' && !cp_piece_at(state, x + dx, y + dy)) {
				*px = x + dx;
				*py = y + dy;
				return 1;
			}
	return 0;
}

/*
 * §13: "he also claims one infantry or cavalry piece, according to the symbol ... At the same time the
 * player who previously held the Town card must remove ... the piece that is closest to the town".
 */
static int red_town_pieces(json_t *state, json_t *events, const json_t *rules, const json_t *town,
			   const char *captor, const char *previous, const json_t *orders)
{
	const char *kind = est_rules_str(town, "piece"), *name = est_rules_str(town, "name");
	const json_t *o, *wanted = NULL;
	json_t *lost;
	size_t i;
	int x, y, px, py, error;

	cp_sq(json_object_get(town, "square"), &x, &y);
	json_array_foreach(orders, i, o)
		if (strcmp(est_rules_str(o, "type"), "place") == 0 && strcmp(est_rules_str(o, "town"), name) == 0)
			wanted = json_object_get(o, "square");
	if (cp_in_box(state, captor, kind) == 0) {
		if ((error = est_rules_event(events, NULL, "recruit", "%s gains no %s piece from the red town of %s: "
					     "all %d of its set are in play (%s)", captor, kind, name, CP_SET_TROOPS,
					     CP_CONTENTS)) < 0)
			return error;
	} else if (place_square(&px, &py, state, rules, x, y, wanted)) {
		if ((error = cp_new_piece(state, captor, kind, px, py)) < 0 ||
		    (error = est_rules_event(events, NULL, "recruit", "%s gains a%s %s piece from the red town of %s, "
					     "placed at [%d, %d] (§13)", captor, kind[0] == 'i' ? "n" : "", kind, name,
					     px, py)) < 0)
			return error;
	}
	if (!previous)
		return 0;
	/* "If the losing player does not have a correct piece he must discard an incorrect one." */
	if (!(lost = closest(state, previous, kind, x, y)))
		lost = closest(state, previous, strcmp(kind, kinds[0]) == 0 ? kinds[1] : kinds[0], x, y);
	if (!lost)
		return 0;
	if ((error = est_rules_event(events, json_pack("{s:s}", "piece", est_rules_str(lost, "id")), "lost",
				     "%s loses %s, its piece closest to %s (§13)", previous, est_rules_str(lost, "id"), name)) < 0)
		return error;
	return remove_piece(state, lost) < 0 ? est_error_set(EST_ENOMEM, "out of memory") : 0;
}

static int capture_town(json_t *state, json_t *events, const json_t *rules, const json_t *town,
			const char *captor, const json_t *orders)
{
	json_t *towns = json_object_get(state, "towns");
	const char *name = est_rules_str(town, "name"), *held = json_string_value(json_object_get(towns, name));
	char previous[32] = "";
	int error;

	if (held && strcmp(held, captor) == 0)
		return 0;
	if (held)
		snprintf(previous, sizeof(previous), "%s", held);
	json_object_set_new(towns, name, json_string(captor));
	if ((error = est_rules_event(events, json_pack("{s:s, s:s}", "town", name, "holder", captor), "town",
				     "%s captures %s (%s town of %s)%s%s (§6)", captor, name, est_rules_str(town, "colour"),
				     est_rules_str(town, "country"), *previous ? "; the Town card leaves " : "", previous)) < 0)
		return error;
	if (strcmp(est_rules_str(state, "game"), "standard") != 0 || strcmp(est_rules_str(town, "colour"), "red") != 0)
		return 0;
	return red_town_pieces(state, events, rules, town, captor, *previous ? previous : NULL, orders);
}

/* §7: "A Capital can only be taken after all the provincial towns in that country have been captured and are still held." */
static int all_towns_held(const json_t *state, const json_t *rules, const char *country)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(cp_board(rules), "towns"), i, t) {
		const char *holder = json_string_value(json_object_get(json_object_get(state, "towns"), est_rules_str(t, "name")));
		if (strcmp(est_rules_str(t, "country"), country) == 0 && (!holder || strcmp(holder, country) == 0))
			return 0;
	}
	return 1;
}

static int knock_out(json_t *state, json_t *events, const char *country, const char *why)
{
	json_t *pieces = json_object_get(state, "pieces");

	for (size_t i = json_array_size(pieces); i-- > 0;)
		if (strcmp(est_rules_str(json_array_get(pieces, i), "country"), country) == 0)
			json_array_remove(pieces, i);
	json_array_append_new(json_object_get(state, "out"), json_string(country));
	return est_rules_event(events, json_pack("{s:s}", "country", country), "out", "%s is out of the game: %s",
			       country, why);
}

int cp_capture_towns(json_t *state, json_t *events, const json_t *rules, const json_t *orders)
{
	const char *active = est_rules_str(state, "active");
	json_t *general = NULL, *p;
	size_t i;
	int x, y, error;
	const json_t *town;
	const char *capital;

	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (strcmp(est_rules_str(p, "country"), active) == 0 && strcmp(est_rules_str(p, "kind"), "general") == 0)
			general = p;
	if (!general || !cp_sq(json_object_get(general, "square"), &x, &y))
		return 0;
	/* §6: "Only a General can capture a town - simply by moving on to the Town square." */
	if ((town = cp_town_at(rules, x, y)) && (error = capture_town(state, events, rules, town, active, orders)) < 0)
		return error;
	capital = cp_capital_at(rules, x, y);
	if (!capital || strcmp(capital, active) == 0 || cp_is_out(state, capital) ||
	    !est_rules_in_list(json_object_get(state, "bases"), capital) || !all_towns_held(state, rules, capital))
		return 0;
	/* §16: "No other player may attack the Capital or any pieces being mobilised until mobilisation is complete." */
	if (json_is_true(json_object_get(json_object_get(state, "mobilising"), capital)))
		return est_rules_event(events, NULL, "capital", "%s's General stands on %s's Capital, but %s is "
				       "mobilising: its Capital may not be taken until mobilisation is complete (§16)",
				       active, capital, capital);
	{
		char why[120];
		snprintf(why, sizeof(why), "%s takes its Capital, all its provincial towns being held (§7)", active);
		return knock_out(state, events, capital, why);
	}
}

/*
 * A free square of those a piece of `country` and `kind` is sent to (cp_entry_squares: the Enlistment
 * Area, or the Introductory game's start squares and Capital); 0 when none is free, and the piece waits
 * off the board to enter one (RULINGS.md C9, C14).
 */
static int free_entry_square(int *x, int *y, const json_t *state, const json_t *rules, const char *country,
			     const char *kind)
{
	json_t *entry = cp_entry_squares(state, rules, country, kind);
	const json_t *sq;
	size_t i;
	int found = 0;

	json_array_foreach(entry, i, sq)
		if (!found && cp_sq(sq, x, y) && !cp_piece_at(state, *x, *y))
			found = 1;
	json_decref(entry);
	return found;
}

/*
 * Send `country`'s General and troops to the squares a captured General's army goes to: §12 "to its
 * starting position on the Capital square ... all remaining troop pieces ... to their appropriate Capital
 * starting squares", §15 "to the square indicated in the Enlistment Area". Its pieces are lifted first,
 * so they never block each other's squares; "Only one piece may occupy any one square" (§3), so a piece
 * whose squares are all taken (by the attackers, say) waits off the board and enters one once it is free
 * (§15: "when earlier units have been moved away"; RULINGS.md C14).
 */
static void gather(json_t *state, const json_t *rules, const char *country)
{
	json_t *p;
	size_t i;
	int x, y;

	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (strcmp(est_rules_str(p, "country"), country) == 0)
			json_object_set_new(p, "square", json_null());
	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (strcmp(est_rules_str(p, "country"), country) == 0 &&
		    free_entry_square(&x, &y, state, rules, country, est_rules_str(p, "kind")))
			json_object_set_new(p, "square", json_pack("[i, i]", x, y));
}

/* Whether a piece of `country` waits off the board. */
static int waiting(const json_t *state, const char *country)
{
	const json_t *p;
	size_t i;
	int x, y;

	json_array_foreach(json_object_get(state, "pieces"), i, p)
		if (strcmp(est_rules_str(p, "country"), country) == 0 && !cp_sq(json_object_get(p, "square"), &x, &y))
			return 1;
	return 0;
}

/*
 * §15: "one new cavalry or infantry piece (he may choose which)" with one troop piece more than red
 * Town cards, "one cavalry and one infantry piece" with as many or more red cards than troops. The
 * one piece is of the kind the player has fewer of (RULINGS.md C9), or the other when its set has no
 * more of that kind; a kind whose 9 pieces are all in play is not recruited (Contents, RULINGS.md C15).
 * The recruits go to the Enlistment Area, or wait off the board when no fitting square is free.
 */
static int recruit(json_t *state, const json_t *rules, const char *country, int n)
{
	int made = 0, x, y, error;

	for (int k = 0; k < n; k++) {
		const char *kind = n == 2 ? kinds[k] : cp_count(state, country, "cavalry") <
			cp_count(state, country, "infantry") ? "cavalry" : "infantry";
		int placed;
		if (n == 1 && cp_in_box(state, country, kind) == 0)
			kind = strcmp(kind, kinds[0]) == 0 ? kinds[1] : kinds[0];
		if (cp_in_box(state, country, kind) == 0)
			continue;
		placed = free_entry_square(&x, &y, state, rules, country, kind);
		if ((error = cp_new_piece(state, country, kind, placed ? x : -1, placed ? y : -1)) < 0)
			return error;
		made++;
		if (!placed)
			json_object_set_new(json_array_get(json_object_get(state, "pieces"),
							   json_array_size(json_object_get(state, "pieces")) - 1),
					    "square", json_null());
	}
	return json_object_set_new(json_object_get(state, "recruits"), country, json_integer(made)) < 0 ?
	       est_error_set(EST_ENOMEM, "out of memory") : 0;
}

int cp_general_taken(json_t *state, json_t *events, const json_t *rules, json_t *general)
{
	const char *country = est_rules_str(general, "country");
	int standard = strcmp(est_rules_str(state, "game"), "standard") == 0;
	int troops = cp_count(state, country, "infantry") + cp_count(state, country, "cavalry");
	int red = cp_red_cards(state, rules, country), error, allowed, made;
	char name[32];

	snprintf(name, sizeof(name), "%s", country);
	if (standard && troops == 0)
		return knock_out(state, events, name, "its General is taken with no troop piece left (§15)");
	gather(state, rules, name);
	if (!standard) {
		json_object_set_new(json_object_get(state, "missed"), name, json_integer(1));
		json_object_set_new(json_object_get(state, "immune"), name, json_integer(2));
		return est_rules_event(events, NULL, "general", "%s's General is captured: back to the Capital with "
				       "all its troops%s; %s misses its next turn and may not be attacked again until "
				       "after its second (§12)", name, waiting(state, name) ? " (those whose squares "
				       "are taken wait off the board to enter them, §3)" : "", name);
	}
	allowed = troops <= red ? 2 : troops == red + 1 ? 1 : 0;
	if ((error = recruit(state, rules, name, allowed)) < 0)
		return error;
	made = est_rules_int(json_object_get(state, "recruits"), name, 0);
	json_object_set_new(json_object_get(state, "mobilising"), name, json_true());
	return est_rules_event(events, NULL, "general", "%s's General is captured: he and his %d troop piece%s go "
			       "to the Enlistment Area; %d recruit%s (§15%s%s); %s must mobilise in its Capital before "
			       "it may attack (§16)", name, troops, troops == 1 ? "" : "s", made, made == 1 ? "" : "s",
			       made < allowed ? ", fewer than it allows: the set's pieces of a kind are all in play; " : "",
			       made < allowed ? CP_CONTENTS : "", name);
}

/* The winner when the game ends: by the Capitals, 8 towns abroad, or the time limit (most towns). */
static int finish(json_t *state, json_t *events, const char *winner, const char *why)
{
	json_object_set_new(state, "phase", json_string("over"));
	json_object_set_new(state, "winner", json_string(winner));
	json_object_set_new(state, "win_reason", json_string(why));
	if (strcmp(winner, "draw") == 0)
		return est_rules_event(events, json_pack("{s:s}", "winner", winner), "over", "a draw: %s", why);
	return est_rules_event(events, json_pack("{s:s}", "winner", winner), "over", "%s wins: %s", winner, why);
}

static int towns_held(const json_t *state, const char *country)
{
	const char *name;
	const json_t *holder;
	int n = 0;

	json_object_foreach((json_t *)json_object_get(state, "towns"), name, holder)
		n += json_is_string(holder) && strcmp(json_string_value(holder), country) == 0;
	return n;
}

int cp_check_end(json_t *state, json_t *events, const json_t *rules)
{
	const json_t *b;
	const char *alive = NULL, *best = NULL;
	size_t i;
	int standing = 0, error, most = -1, tie = 0;

	/* Losing the game, 2: "he is left with a General but no troops". */
	json_array_foreach(json_object_get(state, "bases"), i, b) {
		const char *c = json_string_value(b);
		if (!cp_is_out(state, c) && cp_count(state, c, "infantry") + cp_count(state, c, "cavalry") == 0 &&
		    !json_is_true(json_object_get(json_object_get(state, "mobilising"), c)) &&
		    (error = knock_out(state, events, c, "it is left with a General but no troops")) < 0)
			return error;
	}
	json_array_foreach(json_object_get(state, "bases"), i, b) {
		const char *c = json_string_value(b);
		if (cp_is_out(state, c))
			continue;
		if (cp_towns_abroad(state, rules, c) >= 8)
			return finish(state, events, c, "8 towns outside its own country (Winning the Game, 2)");
		/* RULINGS.md C11: one side standing — a player's two countries are one side, allies are not. */
		if (!alive || !cp_partners(state, alive, c))
			standing++;
		alive = c;
		if (towns_held(state, c) > most) {
			most = towns_held(state, c);
			best = c;
			tie = 0;
		} else if (towns_held(state, c) == most) {
			tie = 1;
		}
	}
	if (standing == 1)
		return finish(state, events, alive, "every opponent's Capital is taken (Winning the Game, 1)");
	if (est_rules_int(state, "limit", 0) > 0 && est_rules_int(state, "turn", 0) >= est_rules_int(state, "limit", 0)) {
		if (tie)
			return finish(state, events, "draw", "the time limit is reached and the most towns are shared");
		return finish(state, events, best, "the time limit is reached and it holds the most towns");
	}
	return 0;
}
