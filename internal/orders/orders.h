/*
 * Order files (docs/protocol.md "Order files"): strict parsing, the orders/1
 * schema, and the checks that bind a file to its game, step, state and
 * signer.
 *
 *   {"estafette": "orders/1", "game": "ne-001", "step": 7, "player": "france",
 *    "prev": "<64 lower-case hex>", "seq": 2, "entropy": "<64 hex>",
 *    "orders": [ {...}, ... ], "press": [ {"to": "all", "text": "..."} ]}
 *
 * The signed bytes are never re-serialized: parsing only reads them, and
 * callers keep and commit the bytes they received.
 */
#ifndef EST_ORDERS_ORDERS_H
#define EST_ORDERS_ORDERS_H

#include <jansson.h>
#include <stddef.h>

#define EST_ORDERS_FORMAT "orders/1"
/* Sealed orders: a signed promise of an order file's SHA-256, revealed later. */
#define EST_COMMITMENT_FORMAT "commitment/1"
/* A GM act (engine gm.c), signed by principal "gm" in namespace EST_GM_NAMESPACE. */
#define EST_GM_ACT_FORMAT "gm/1"
#define EST_GM_NAMESPACE "estafette-gm"
#define EST_ORDERS_MAX_BYTES 65536 /* 64 KiB */
#define EST_ORDERS_MAX_DEPTH 32    /* the top-level object is depth 1 */
#define EST_ORDERS_MAX_STEP 4294967295LL /* the dice protocol carries u32be(step) */

/*
 * The "entropy" of an order file a report hands out filled in but for its
 * randomness: `estafette sign` gives the file 64 fresh hex digits there
 * before signing (est_orders_fill_entropy); est_orders_parse refuses a
 * file that still holds it, saying to sign with estafette sign.
 */
#define EST_ORDERS_ENTROPY_PLACEHOLDER "estafette sign fills this in"

/*
 * One parsed order file. Everything is owned by the struct and released by
 * est_orders_free.
 *
 * game, player  identifiers (see est_orders_is_id)
 * step          the step the orders are for, 1..EST_ORDERS_MAX_STEP
 * prev          SHA-256 of state.json at the previous step, 64 lower-case hex
 * seq           1, 2, ...: a higher seq replaces a lower one within a step
 * entropy       64 lower-case hex digits of the player's fresh randomness
 * orders        the "orders" array (ruleset-specific objects); points into root
 * press         the "press" array, or NULL when the file has none; points into root
 * root          the whole parsed document
 *
 * A commitment/1 file (sealed orders, rulesets/ruleset.h: a simultaneous step's orders committed to before any is
 * shown) has the same game, step, player, prev and seq, and in place of
 * entropy, orders and press one field "sha256": the SHA-256 (64 lower-case
 * hex digits) of the order file its player will reveal. Then `commitment`
 * is 1, `sha256` holds it, `entropy` is "" and `orders` and `press` NULL.
 */
typedef struct est_order {
	char *game;
	long long step;
	char *player;
	char prev[65];
	long long seq;
	char entropy[65];
	json_t *orders;
	json_t *press;
	json_t *root;
	int commitment;
	char sha256[65];
	int wait;	/* "wait": true: resolve the step at its deadline, not as soon as all are in */
	int gm_act;	/* a gm/1 file: "player" is "gm"; act, hours, at, reason in root */
} est_order;

/*
 * 1 if `s` is a valid game or player identifier, else 0: 1 to 64
 * characters from [a-z0-9_.-], the first a lower-case letter or a digit
 * (so that an id is always a safe file name, orders/<player>.json, and
 * never reads as a command-line option or a hidden file).
 */
int est_orders_is_id(const char *s);

/*
 * Parse the `len` bytes of an order file strictly. `filename` (e.g.
 * "orders/france.json") starts every error message. `bytes` is only read
 * and need not be NUL-terminated. On success *out is a new est_order the
 * caller frees with est_orders_free.
 *
 * Refused, each with EST_EINVAL and a message naming the file, the field
 * (a JSON path such as orders[3].country when nested), the rule and the
 * fix, with the line and column where the bytes themselves are at fault:
 *   - more than EST_ORDERS_MAX_BYTES bytes;
 *   - a UTF-8 byte-order mark, invalid UTF-8, a NUL byte (raw or \u0000);
 *   - objects and arrays nested deeper than EST_ORDERS_MAX_DEPTH (checked on
 *     the bytes before parsing, so a deep bomb costs one linear scan);
 *   - any JSON syntax error, a duplicate key in any object, text after the
 *     document;
 *   - any number that is not an integer (1.0, 1e3), anywhere;
 *   - a top level that is not an object; a top-level field other than
 *     estafette, game, step, player, prev, seq, entropy, orders, press, wait
 *     ("wait": true or false, optional: true asks that the step wait for
 *     its deadline rather than resolve as soon as every order is in);
 *   - a missing field (all but press are required) or one of the wrong type;
 *   - "estafette" other than "orders/1", "commitment/1" (whose fields are
 *     estafette, game, step, player, prev, seq and sha256, all required,
 *     sha256 of 64 lower-case hex digits) or "gm/1" (a GM act: estafette,
 *     game, step, player, prev, seq, act, at and reason required, hours
 *     optional; the engine checks their values); "step" outside 1..EST_ORDERS_MAX_STEP;
 *     "seq" below 1; "prev" or "entropy" not exactly 64 lower-case hex
 *     digits; "game" or "player" not an identifier (est_orders_is_id);
 *   - "orders" not an array, or an item of it not an object;
 *   - "press" not an array of objects {"to": "all" or a non-empty array of
 *     player identifiers, "text": string} with no other keys; a "text" that
 *     is empty or holds a code point util/unicode.h refuses in a message (a
 *     control, a line break, a bidirectional control, an invisible format
 *     character), named as "U+061C ARABIC LETTER MARK".
 * Errors: EST_EINVAL as above; EST_ENOMEM.
 */
int est_orders_parse(est_order **out, const char *filename, const char *bytes, size_t len);

/* Free a parsed order file. NULL is allowed. */
void est_orders_free(est_order *o);

/*
 * Check that a parsed file `o` belongs where it was sent: its "game" is
 * `game`; its "step" is `step`, the step the game awaits; its "prev" is
 * `prev_hex`, the SHA-256 (hex, either case) of state.json after the
 * previous step; and `signer`, the principal whose key verified the
 * file's signature, is the file's "player". To check an unsigned file's
 * other bindings (estafette check without --sig) pass o->player.
 * `filename` starts the messages. Returns 0 when all four hold.
 *
 * Errors: EST_EINVAL naming the field: a different game; an earlier step
 * ("cannot be replayed"); a later step ("not open yet"); another prev
 * (fetch it with `estafette status GAME --json`, field state_sha256);
 * "signed by X but names player Y".
 */
int est_orders_check_binding(const est_order *o, const char *filename, const char *game,
			     long long step, const char *prev_hex, const char *signer);

/*
 * May `incoming` replace `current`, the file already held for the same
 * player? seq counts within one step of one game: when `current` is NULL,
 * or is for another game or step (a leftover that does not compete),
 * returns 0. Otherwise `incoming` replaces it only with a higher "seq".
 * `filename` names the incoming file in messages.
 *
 * Errors: EST_EINVAL if incoming's seq is equal or lower (the message says
 * which seq is held and to re-sign with a higher one), or if the two files
 * name different players (a caller bug).
 */
int est_orders_check_seq(const est_order *incoming, const est_order *current,
			 const char *filename);

/*
 * Give an order file fresh entropy before it is signed (`estafette sign`):
 * when `bytes` (`len` of them, `filename` naming them in messages) are a
 * JSON object whose "entropy" is a string (EST_ORDERS_ENTROPY_PLACEHOLDER,
 * "", or any value: one a GM or a copied file put there is not fresh),
 * *out (caller frees) gets the same bytes with only that value replaced
 * by `hex` (64 lower-case hex digits of fresh randomness), *out_len its
 * length, and *filled is 1. The replacement is textual, so every other
 * byte is kept; the result must then parse as a strict order file with
 * that entropy. A file with no string "entropy" (no order file): *out
 * NULL, *filled 0, nothing to do.
 *
 * Errors: EST_EINVAL (the placeholder is in the file but "entropy" is not
 * a string of a JSON object; "entropy": "<value>" or the value appears
 * other than exactly once in the text; the filled file is not a strict
 * order file: est_orders_parse's message); EST_ENOMEM.
 */
int est_orders_fill_entropy(char **out, size_t *out_len, int *filled, const char *filename,
			    const char *bytes, size_t len, const char hex[65]);

#endif
