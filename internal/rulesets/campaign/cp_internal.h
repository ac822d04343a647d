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
 * The squares a piece of `country` and `kind` waiting off the board may enter, [[x, y], ...], whether
 * free or taken: in the Standard game the Enlistment Area's squares from which it can reach a start
 * square of its kind (§15, §16); in the Introductory game its start squares, the Capital for the General
 * (§12, RULINGS.md C14). A new array, the caller's to decref; NULL out of memory (no message set).
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
/*
 * A new piece of `country` on (x, y) from its set, the next free id of its kind ("France-C5"); (-1, -1)
 * makes it wait off the board (square null). 0; 1 when the box holds none of `kind` and none is made
 * (Contents, RULINGS.md C15); EST_ENOMEM.
 */
int cp_new_piece(json_t *state, const char *country, const char *kind, int x, int y);

/* move.c: §3 movement and §4 breakthroughs */
/* NULL if `piece` may step to (x, y) now, else why not (a rule and the reason). */
const char *cp_step_refusal(const json_t *state, const json_t *rules, const json_t *piece, int x, int y);

/* attack.c: §10 attack and defence, §14 supporting pieces */
/*
 * Whether `attacker`'s attack on `target` succeeds as the pieces stand (§10: more attacking pieces
 * touching it than its defence value; §14 in the Standard game: every adjacent supporting piece must
 * be engaged first, RULINGS.md C5): *taken_out 1 or 0. *why_out says how (counts), and *pieces_out
 * (unless NULL) names the pieces: those that strike, who engages each supporter, and the supporters
 * not engaged. Both heap strings, the caller's to free. 0, or EST_ENOMEM with nothing to free.
 */
int cp_attack_outcome(int *taken_out, char **why_out, char **pieces_out, const json_t *state,
		      const char *attacker, const json_t *target);
/*
 * NULL if `country` may attack `target` this turn, else why not: a static string that names the rule
 * (§8 own or allied piece, or an alliance broken this turn; §12 a General just captured; §16
 * mobilising; §15 and RULINGS.md C14 a piece waiting off the board).
 */
const char *cp_attack_refusal(const json_t *state, const char *country, const json_t *target);

/* turn.c: a turn from orders to the next throw */
/* §9: the order of play from the dice (each country throws both, highest begins), then its first throw. */
int cp_start(json_t *state, json_t *events, const json_t *rules, est_dice *dice);
/*
 * The active country's turn (§2): its `orders` applied by cp_apply_orders (a refused item is
 * EST_EINVAL naming it: validate() accepted the file), then the declared attack (§10, §14), towns and
 * capitals taken (§6, §7, §13), mobilisation (§16), the end of the game, and the next player's throw.
 */
int cp_play_turn(json_t *state, json_t *events, const json_t *rules, est_dice *dice, const json_t *orders);

/* towns.c: §6 towns, §7 capitals, §13 red towns, §12/§15 Generals, winning and losing */
/*
 * At the end of the active country's turn, where its General stands: the town there is taken (§6; a
 * red town brings a piece, placed as a "place" item of `orders` asks, §13), and another base
 * country's Capital with all its provincial towns held (§7), unless it is mobilising (§16).
 */
int cp_capture_towns(json_t *state, json_t *events, const json_t *rules, const json_t *orders);
/*
 * `general` (a piece of `state`) is captured: Introductory, his army goes back to its Capital and
 * start squares, misses a turn and is immune for two (§12); Standard, it goes to the Enlistment Area,
 * recruits (§15, RULINGS.md C9, C15) and mobilises (§16), or is out with no troop piece left.
 */
int cp_general_taken(json_t *state, json_t *events, const json_t *rules, json_t *general);
/*
 * Losing the game, 2 (a General but no troops, not while mobilising), then Winning the Game: 8 towns
 * abroad, one side standing (RULINGS.md C11), or the time limit (most towns; a tie is a draw). Sets
 * phase "over", winner and win_reason when the game ends.
 */
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
/* ruleset.h validate(): cp_apply_orders on a copy of `state`, for `power` at its turn. */
int cp_validate(json_t **diagnostics_out, const json_t *state, const json_t *rules, const char *power,
		const json_t *orders);
/* view.c */
/* ruleset.h view(): the fields view.c's head comment lists; `power` NULL for the public view. */
int cp_view(json_t **out, const json_t *state, const json_t *rules, const char *power);
/* A turn's choices (ruleset.h pending "choices"): each kind of order, each piece's first step; NULL on ENOMEM. */
json_t *cp_choices(const json_t *state, const json_t *rules);

#endif
