/*
 * Campaign: what the files of this module share. Not public.
 *
 * State (plain JSON; README.md "State"):
 *   game ("introductory" | "standard"), bases [countries in play],
 *   partners [[countries of one player]] (the two-player game),
 *   order [bases, in playing order], phase ("start" | "turn" | "over"),
 *   turn (turns begun), active (the country whose turn it is), throw [d1, d2],
 *   pieces [{"id": "France-C3", "country", "kind": "general" | "infantry" |
 *            "cavalry", "square": [x, y]}],
 *   towns {town name: holder country or null}, out [countries],
 *   alliances [[a, b]], proposals [[from, to]], broken [{"by", "with", "turn"}],
 *   consent {country: [countries it lets cross into it]},
 *   missed {country: turns to miss}, immune {country: turns of its own
 *   before its captured General may be attacked again},
 *   mobilising {country: true}, recruits {country: n}, last {"moves", "attack"},
 *   limit (turns, 0: none), winner, win_reason.
 *
 * Squares are [column, row]. Unless said otherwise, functions return 0 or
 * a negative EST_E* code with the message set; `events` is the step's
 * event array (borrowed).
 */
#ifndef EST_RULESETS_CP_INTERNAL_H
#define EST_RULESETS_CP_INTERNAL_H

#include <jansson.h>

#include "dice/dice.h"
#include "rulesets/common/common.h"

/* board.c: the grid of data/board.json */
/* The board checked at set-up: EST_EINVAL naming the field and the fix. */
int cp_check_board(const json_t *rules);
const json_t *cp_board(const json_t *rules);
int cp_width(const json_t *rules);
int cp_height(const json_t *rules);
/* The terrain character at (x, y): '.' land, '~' sea, '#' forest, '^' mountain; '~' off the board. */
char cp_terrain(const json_t *rules, int x, int y);
/* The country of a square ("France" ...), or NULL for sea or no country. */
const char *cp_country_at(const json_t *rules, int x, int y);
/* Whether a step between neighbouring squares a and b may cross the frontier there (§0). */
int cp_may_cross(const json_t *rules, int ax, int ay, int bx, int by);
const json_t *cp_town_at(const json_t *rules, int x, int y);
const json_t *cp_town(const json_t *rules, const char *name);
/* The capital square of `country`; 0 if it has none (Italy). */
int cp_capital(int *x, int *y, const json_t *rules, const char *country);
const char *cp_capital_at(const json_t *rules, int x, int y);
/* Whether a piece of `kind` on (x, y) can ever reach one of `country`'s start squares of its kind (§16). */
int cp_start_reachable(const json_t *rules, const char *country, const char *kind, int x, int y);
/*
 * The squares a piece of `country` and `kind` waiting off the board may enter (a new array, free or not;
 * NULL out of memory): in the Standard game the Enlistment Area's squares from which it can reach a start
 * square of its kind (§15, §16); in the Introductory game its start squares, the Capital for the General
 * (§12, RULINGS.md C14).
 */
json_t *cp_entry_squares(const json_t *state, const json_t *rules, const char *country, const char *kind);

/* state.c: pieces, sides, alliances */
/* 1 and the square [x, y] in *x, *y; 0 and -1, -1 when there is none (a piece waiting off the board, C14). */
int cp_sq(const json_t *square, int *x, int *y);
json_t *cp_piece(const json_t *state, const char *id);
json_t *cp_piece_at(const json_t *state, int x, int y);
int cp_value(const json_t *piece, int defending);
/* Whether a and b are allied (an alliance, or one player's two countries). */
int cp_allied(const json_t *state, const char *a, const char *b);
/* Whether a and b are one player's two countries (the two-player game, RULINGS.md C2). */
int cp_partners(const json_t *state, const char *a, const char *b);
/* §1: "when only two players are involved there can be no alliances": whether this game has them. */
int cp_alliances_open(const json_t *state);
/* Own or allied: the same side for breakthroughs (§4) and combined attacks (§10). */
int cp_friendly(const json_t *state, const char *a, const char *b);
int cp_count(const json_t *state, const char *country, const char *kind);
int cp_is_out(const json_t *state, const char *country);
/* Red Town cards `country` holds. */
int cp_red_cards(const json_t *state, const json_t *rules, const char *country);
/* Towns `country` holds outside its own country (§ Winning the Game, 2). */
int cp_towns_abroad(const json_t *state, const json_t *rules, const char *country);
/*
 * Contents: "4 sets of playing pieces ... comprising 1 General, 9 infantry and 9 cavalry units". Pieces
 * taken go back to the box (§10); a country never has more than its set in play, on the board or waiting.
 */
#define CP_SET_TROOPS 9
#define CP_CONTENTS "Contents: each set has 1 General, 9 infantry and 9 cavalry units"
/* How many pieces of `kind` (infantry or cavalry) of `country`'s set are still in the box. */
int cp_in_box(const json_t *state, const char *country, const char *kind);
/* A new piece of `country` on (x, y) from its set: 0, or 1 when the box holds none of `kind` (none is made). */
int cp_new_piece(json_t *state, const char *country, const char *kind, int x, int y);

/* move.c: §3 movement and §4 breakthroughs */
/* NULL if `piece` may step to (x, y) now, else why not (a rule and the reason). */
const char *cp_step_refusal(const json_t *state, const json_t *rules, const json_t *piece, int x, int y);

/* attack.c: §10 attack and defence, §14 supporting pieces */
/*
 * Whether the attack on `target` succeeds as the pieces stand; *why_out says how (counts), and
 * *pieces_out (unless NULL) names the pieces: those that strike, who engages each supporter, and the
 * supporters not engaged. Both heap strings, the caller's.
 */
int cp_attack_outcome(int *taken_out, char **why_out, char **pieces_out, const json_t *state,
		      const json_t *rules, const char *attacker, const json_t *target);
/* NULL if `country` may attack `target` this turn, else why not. */
const char *cp_attack_refusal(const json_t *state, const json_t *rules, const char *country,
			      const json_t *target);

/* turn.c: a turn from orders to the next throw */
int cp_start(json_t *state, json_t *events, const json_t *rules, est_dice *dice);
int cp_play_turn(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const json_t *orders);

/* towns.c: §6 towns, §7 capitals, §13 red towns, §12/§15 Generals, winning and losing */
int cp_capture_towns(json_t *state, json_t *events, const json_t *rules, const json_t *orders);
int cp_general_taken(json_t *state, json_t *events, const json_t *rules, json_t *general);
int cp_check_end(json_t *state, json_t *events, const json_t *rules);

/*
 * validate.c: a turn's orders, checked and applied to `state` (the active
 * country's) in the order written, each item on the board and alliances as
 * the items before it left them (RULINGS.md C13). A refused item goes into
 * `diags` (est_rules_diag) and changes nothing; moves are recorded in
 * `moves` ({piece, from, to}), diplomacy in `events`, and the declared
 * attack's target in *target_out (borrowed from `orders`; NULL: none), for
 * the end of the turn. validate() runs it on a copy, resolve() on the turn.
 */
int cp_apply_orders(const char **target_out, json_t *diags, json_t *state, json_t *events, json_t *moves,
		    const json_t *rules, const json_t *orders);
int cp_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		const json_t *orders);
/* view.c */
int cp_view(json_t **out, const json_t *state, const json_t *rules, const char *power);
/* A turn's choices (ruleset.h pending "choices"): each kind of order, each piece's first step; NULL on ENOMEM. */
json_t *cp_choices(const json_t *state, const json_t *rules);

#endif
