/*
 * Napoleonic Empire, ATTACK PHASE: "If enemy armies occupy the same
 * country there will be a battle." Force, casualties and retreats.
 */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "ne_internal.h"

static json_t *attack(const json_t *state)
{
	return json_object_get(state, "attack");
}

static json_t *plays(const json_t *state, const char *side)
{
	return json_object_get(json_object_get(attack(state), "plays"), side);
}

/*
 * The battles of this Attack Phase: every contested country, in the order
 * of the seed's map table (RULINGS.md R9). A battle card the active side
 * named for a country where no battle takes place stays in its hand.
 */
int ne_attack_start(json_t *state, json_t *events, const json_t *rules)
{
	json_t *battles = json_object_get(attack(state), "battles");
	json_t *own = plays(state, est_rules_str(state, "active"));
	const char *country;
	json_t *card, *tmp;
	size_t i;
	int error;

	json_array_clear(battles);
	for (i = 0; i < ne_country_count(rules); i++) {
		if (ne_contested(state, ne_country_name(rules, i)) &&
		    json_array_append_new(battles, json_string(ne_country_name(rules, i))) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_object_foreach_safe(own, tmp, country, card) {
		if (est_rules_in_list(battles, country))
			continue;
		if ((error = est_rules_event(events, json_pack("{s:s, s:s, s:[s]}", "card", json_string_value(card),
							"country", country, "visible_to", est_rules_str(state, "active")),
				      "card-kept", "%s %s %s: there is no battle in %s",
				      est_rules_str(state, "active"),
				      ne_verb(est_rules_str(state, "active"), "keeps", "keep"), ne_card_name(rules, json_string_value(card)),
				      country)) < 0)
			return error;
		json_object_del(own, country);
	}
	return 0;
}

int ne_card_committed(const json_t *state, const char *side, const char *card)
{
	const char *country;
	json_t *v;

	json_object_foreach(plays(state, side), country, v) {
		if (strcmp(json_string_value(v), card) == 0)
			return 1;
	}
	return 0;
}

/* Whether `side` holds a card it may play in a pending battle where it has none yet. */
static int may_play_battle_card(const json_t *state, const json_t *rules, const char *side)
{
	json_t *battles = json_object_get(attack(state), "battles"), *b, *c;
	size_t i, j;

	json_array_foreach(battles, i, b) {
		if (json_object_get(plays(state, side), json_string_value(b)))
			continue;
		json_array_foreach(ne_hand(state, side), j, c) {
			const json_t *card = ne_card(rules, json_string_value(c));

			if (ne_card_playable_by(card, side) && ne_card_fits(card, json_string_value(b)) &&
			    !ne_card_committed(state, side, json_string_value(c)))
				return 1;
		}
	}
	return 0;
}

/*
 * The sides the battle-cards step asks (RULINGS.md R10): those holding a
 * card they may play in a pending battle where they have none yet. A side
 * with nothing to play is not asked, which saves a round trip by mail.
 */
json_t *ne_battle_cards_sides(const json_t *state, const json_t *rules)
{
	json_t *sides = json_array();

	if (may_play_battle_card(state, rules, NE_FRANCE))
		json_array_append_new(sides, json_string(NE_FRANCE));
	if (may_play_battle_card(state, rules, NE_ALLIES))
		json_array_append_new(sides, json_string(NE_ALLIES));
	return sides;
}

struct side_force {
	const char *side;
	int armies, bonus, defender, roll;
	char card[64];
};

static int play_battle_card(struct side_force *f, json_t *state, json_t *events,
			    const json_t *rules, const char *country)
{
	const char *id = json_string_value(json_object_get(plays(state, f->side), country));
	const json_t *card = ne_card(rules, id);
	int error;

	if (!id || ne_hand_index(state, f->side, id) < 0 || !ne_card_fits(card, country))
		return 0;
	if ((error = ne_play_from_hand(state, f->side, id)) < 0)
		return error;
	f->bonus = ne_card_bonus(card);
	snprintf(f->card, sizeof(f->card), "%s", ne_card_name(rules, id));
	return est_rules_event(events, json_pack("{s:s, s:s, s:s, s:i}", "side", f->side, "card", id,
					  "country", country, "bonus", f->bonus),
			"card", "%s %s %s in the battle in %s: %s +%d", f->side,
			ne_verb(f->side, "plays", "play"), f->card,
			country, f->side, f->bonus);
}

static int roll_force(struct side_force *f, est_dice *dice, const char *country, int again)
{
	char purpose[128];

	snprintf(purpose, sizeof(purpose), "battle %s: %s force %s", country, f->side,
		 again ? "re-roll" : "roll");
	return est_dice_roll(&f->roll, dice, 6, purpose);
}

static int total(const struct side_force *f)
{
	return f->armies + f->bonus + f->defender + f->roll;
}

static void describe(char *buf, size_t len, const struct side_force *f)
{
	int n = snprintf(buf, len, "%s %d arm%s", f->side, f->armies, ne_ies(f->armies));

	if (f->bonus && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " + %d %s", f->bonus, f->card);
	if (f->defender && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " + %d defender", f->defender);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " + 1d6 (%d) = %d", f->roll, total(f));
}

/*
 * "Each side rolls 1D6 and adds this to their Force. The side with the
 * higher modified force total wins." Equal totals: both roll again
 * (RULINGS.md R7). France rolls first, then the Allies.
 */
static int decide(struct side_force f[2], json_t *events, const char *country, est_dice *dice)
{
	char a[160], b[160];
	const char *winner;
	int again = 0, error;

	for (;;) {
		if ((error = roll_force(&f[0], dice, country, again)) < 0 ||
		    (error = roll_force(&f[1], dice, country, again)) < 0)
			return error;
		describe(a, sizeof(a), &f[0]);
		describe(b, sizeof(b), &f[1]);
		if (total(&f[0]) != total(&f[1]))
			break;
		if ((error = est_rules_event(events, json_pack("{s:s}", "country", country), "battle-tie",
				      "Battle in %s: %s; %s; a tie, both roll again", country, a, b)) < 0)
			return error;
		again = 1;
	}
	winner = total(&f[0]) > total(&f[1]) ? NE_FRANCE : NE_ALLIES;
	return est_rules_event(events,
			json_pack("{s:s, s:s, s:{s:i, s:i, s:i, s:i, s:i}, s:{s:i, s:i, s:i, s:i, s:i}}",
				  "country", country, "winner",
				  total(&f[0]) > total(&f[1]) ? NE_FRANCE : NE_ALLIES,
				  NE_FRANCE, "armies", f[0].armies, "card", f[0].bonus, "defender",
				  f[0].defender, "roll", f[0].roll, "total", total(&f[0]),
				  NE_ALLIES, "armies", f[1].armies, "card", f[1].bonus, "defender",
				  f[1].defender, "roll", f[1].roll, "total", total(&f[1])),
			"battle", "Battle in %s: %s; %s; %s %s", country, a, b, winner,
			ne_verb(winner, "wins", "win"));
}

/*
 * "The winning side takes casualties = 1D6 x 10%. (Round Down) The winner
 * cannot take more casualties than the loser had armies x2. The defeated
 * side takes 2D6 x 10% casualties." The cap counts the loser's armies as
 * the battle began (RULINGS.md R25, R30).
 */
static int casualties(int *winner_loss, int *loser_loss, const struct side_force *w,
		      const struct side_force *l, const char *country, est_dice *dice,
		      json_t *events)
{
	char p[128];
	int d, s1, s2, error;

	snprintf(p, sizeof(p), "battle %s: %s casualty roll (winner)", country, w->side);
	if ((error = est_dice_roll(&d, dice, 6, p)) < 0)
		return error;
	snprintf(p, sizeof(p), "battle %s: %s casualty roll 1 (loser)", country, l->side);
	if ((error = est_dice_roll(&s1, dice, 6, p)) < 0)
		return error;
	snprintf(p, sizeof(p), "battle %s: %s casualty roll 2 (loser)", country, l->side);
	if ((error = est_dice_roll(&s2, dice, 6, p)) < 0)
		return error;
	*winner_loss = d * w->armies / 10;
	if (*winner_loss > 2 * l->armies)
		*winner_loss = 2 * l->armies;
	*loser_loss = (s1 + s2) * l->armies / 10;
	if (*loser_loss > l->armies)
		*loser_loss = l->armies;
	return est_rules_event(events,
			json_pack("{s:s, s:{s:s, s:i, s:i, s:i}, s:{s:s, s:i, s:[i, i], s:i}}",
				  "country", country, "winner", "side", w->side, "armies", w->armies,
				  "roll", d, "loss", *winner_loss, "loser", "side", l->side, "armies",
				  l->armies, "roll", s1, s2, "loss", *loser_loss),
			"casualties",
			"Casualties in %s: %s (winner, %d arm%s) %s 1d6 (%d) x 10%% = %d lost%s; "
			"%s (loser, %d arm%s) %s 2d6 (%d+%d=%d) x 10%% = %d lost",
			country, w->side, w->armies, ne_ies(w->armies), ne_verb(w->side, "rolls", "roll"),
			d, *winner_loss,
			d * w->armies / 10 > 2 * l->armies ? " (capped at twice the loser's armies)" : "",
			l->side, l->armies, ne_ies(l->armies), ne_verb(l->side, "rolls", "roll"),
			s1, s2, s1 + s2, *loser_loss);
}

/* One battle; *loser_out names the side that lost (a static string). */
static int fight(const char **loser_out, json_t *state, json_t *events, const json_t *rules,
		 const char *country, est_dice *dice)
{
	const char *active = est_rules_str(state, "active");
	struct side_force f[2];
	int i, wl, ll, error;

	memset(f, 0, sizeof(f));
	for (i = 0; i < 2; i++) {
		f[i].side = i ? NE_ALLIES : NE_FRANCE;
		f[i].armies = ne_armies(state, country, f[i].side);
		/* "The defender has a Force bonus +1": the side whose turn it is not. */
		f[i].defender = strcmp(f[i].side, active) != 0;
		if ((error = play_battle_card(&f[i], state, events, rules, country)) < 0)
			return error;
	}
	if ((error = decide(f, events, country, dice)) < 0)
		return error;
	i = total(&f[0]) > total(&f[1]) ? 0 : 1;
	if ((error = casualties(&wl, &ll, &f[i], &f[1 - i], country, dice, events)) < 0)
		return error;
	if ((error = ne_set_armies(state, country, f[i].side, f[i].armies - wl)) < 0 ||
	    (error = ne_set_armies(state, country, f[1 - i].side, f[1 - i].armies - ll)) < 0)
		return error;
	*loser_out = f[1 - i].side;
	return 0;
}

/* Order: most of the side's own armies first, then alphabetical (RULINGS.md R8). */
static int better(const json_t *state, const char *side, const char *a, const char *b)
{
	int na = ne_armies(state, a, side), nb = ne_armies(state, b, side);

	return na != nb ? na > nb : strcmp(a, b) < 0;
}

/*
 * "must retreat the surviving armies to an adjacent friendly territory, or
 * they are destroyed": adjacent countries `side` controls that hold no
 * enemy army; never England for the Allies, never the Ottoman Empire.
 * *out: a new array of country names, the default choice first.
 */
int ne_retreat_options(json_t **out, const json_t *state, const json_t *rules,
		       const char *country, const char *side)
{
	json_t *opts = json_array();
	size_t i, j;

	if (!opts)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (i = 0; i < ne_country_count(rules); i++) {
		const char *c = ne_country_name(rules, i), *ctl = ne_controller(state, c);

		if (!ne_land_adjacent(rules, country, c) || !ctl || strcmp(ctl, side) != 0 ||
		    ne_armies(state, c, ne_other(side)) > 0)
			continue;
		if (strcmp(side, NE_ALLIES) == 0 &&
		    est_rules_in_list(json_object_get(json_object_get(rules, "map"), "no_allied_return"), c))
			continue;
		if (est_rules_in_list(json_object_get(json_object_get(rules, "map"), "never_entered"), c))
			continue;
		for (j = 0; j < json_array_size(opts); j++) {
			if (better(state, side, c, json_string_value(json_array_get(opts, j))))
				break;
		}
		if (json_array_insert_new(opts, j, json_string(c)) < 0) {
			json_decref(opts);
			return est_error_set(EST_ENOMEM, "out of memory");
		}
	}
	*out = opts;
	return 0;
}

int ne_apply_retreat(json_t *state, json_t *events, const json_t *rules, const char *to)
{
	json_t *r = json_object_get(state, "retreat");
	const char *from = est_rules_str(r, "from"), *side = est_rules_str(r, "side");
	int n = ne_armies(state, from, side), error;

	if ((error = ne_set_armies(state, to, side, ne_armies(state, to, side) + n)) < 0 ||
	    (error = ne_set_armies(state, from, side, 0)) < 0)
		return error;
	if ((error = est_rules_event(events, json_pack("{s:s, s:s, s:s, s:i}", "side", side, "from", from,
						"to", to, "armies", n),
			      "retreat", "%s %s %d arm%s from %s to %s", side,
			      ne_verb(side, "retreats", "retreat"), n, ne_ies(n), from, to)) < 0)
		return error;
	if (json_object_set_new(state, "retreat", json_null()) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return ne_update_control(state, events, rules);
}

/*
 * After the casualties: the loser's survivors retreat. One choice (or a
 * valid standing order) is applied now; several pause the step for the
 * loser's "retreat" decision (*paused = 1).
 */
static int after_battle(int *paused, json_t *state, json_t *events, const json_t *rules,
			const char *country, const char *loser)
{
	const char *standing;
	json_t *opts = NULL;
	int n, error;

	*paused = 0;
	n = ne_armies(state, country, loser);
	if (n == 0)
		return ne_update_control(state, events, rules);
	if ((error = ne_retreat_options(&opts, state, rules, country, loser)) < 0)
		return error;
	if (json_object_set_new(state, "retreat",
				json_pack("{s:s, s:s, s:i, s:O}", "from", country, "side", loser,
					  "armies", n, "options", opts)) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	standing = est_rules_str(json_object_get(json_object_get(json_object_get(state, "standing"), loser),
					  "retreats"), country);
	if (json_array_size(opts) == 0) {
		if ((error = ne_set_armies(state, country, loser, 0)) < 0 ||
		    (error = est_rules_event(events, json_pack("{s:s, s:s, s:i}", "side", loser, "country", country,
							"armies", n),
				      "destroyed", "%s %s no adjacent friendly country to retreat to from %s: "
				      "%s %d surviving arm%s %s destroyed", loser,
				      ne_verb(loser, "has", "have"), country, ne_verb(loser, "its", "their"),
				      n, ne_ies(n), n == 1 ? "is" : "are")) < 0)
			goto out;
		json_object_set_new(state, "retreat", json_null());
		error = ne_update_control(state, events, rules);
	} else if (json_array_size(opts) == 1) {
		error = ne_apply_retreat(state, events, rules, json_string_value(json_array_get(opts, 0)));
	} else if (standing && est_rules_in_list(opts, standing)) {
		error = ne_apply_retreat(state, events, rules, standing);
	} else {
		*paused = 1;
		error = 0;
	}
out:
	json_decref(opts);
	return error;
}

/*
 * Fight the pending battles in order; pause for a retreat decision or, when
 * all are fought, end the turn (Reinforcements Phase, victory, next turn).
 */
int ne_run_battles(json_t *state, json_t *events, const json_t *rules, est_dice *dice,
		   est_dice *hidden)
{
	json_t *battles = json_object_get(attack(state), "battles");
	const char *loser;
	int paused, error;

	while (json_array_size(battles) > 0) {
		char country[64];

		snprintf(country, sizeof(country), "%s", json_string_value(json_array_get(battles, 0)));
		if ((error = json_array_remove(battles, 0)) < 0)
			return est_error_set(EST_ERROR, "state.json: attack.battles is broken");
		if (!ne_contested(state, country))
			continue;
		if ((error = fight(&loser, state, events, rules, country, dice)) < 0)
			return error;
		if ((error = after_battle(&paused, state, events, rules, country, loser)) < 0)
			return error;
		if (paused) {
			json_object_set_new(state, "phase", json_string("retreat"));
			return ne_set_defaults(state, rules);
		}
	}
	return ne_end_turn(state, events, rules, hidden);
}
