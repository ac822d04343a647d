/*
 * Verifiable dice (docs/protocol.md "Dice protocol v2", protocol estafette/dice/v1).
 *
 * A hash chain commits the GM to every step's key in advance; each step's
 * seed mixes the revealed chain value with the SHA-256 of the step's
 * manifest, which holds every order's hash (and so the players' entropy).
 * All rolls of a step come from one HMAC-SHA256 stream and are logged with
 * their purpose in turns/NNNN/dice.json.
 *
 * enc(x) below is u32be(len(x)) || x. All 32-byte values are raw bytes,
 * not hex; est_hex_encode (util/util.h) gives the hex dice.json records.
 * tests/helpers/dice_check.py is an independent implementation that checks
 * the normative vector and every roll of a game repository.
 */
#ifndef EST_DICE_DICE_H
#define EST_DICE_DICE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define EST_DICE_ALGORITHM "estafette/dice/v1"
#define EST_DICE_DOMAIN_STEP "estafette/dice/v1/step"
#define EST_DICE_DOMAIN_HIDDEN "estafette/dice/v1/hidden-step"
#define EST_DICE_DOMAIN_DEAL "estafette/dice/v1/deal-step"
#define EST_DICE_ALGORITHM_V2 "estafette/dice/v2"
#define EST_DICE_V2_DOMAIN_STEP "estafette/dice/v2/step"
#define EST_DICE_V2_DOMAIN_HIDDEN "estafette/dice/v2/hidden-step"
#define EST_DICE_CHAIN_LENGTH 10000
/* Checkpoints c_0, c_100, ..., c_N: a step's chain value in at most 100 hashes. */
#define EST_DICE_CHECKPOINT_EVERY 100
#define EST_DICE_CHECKPOINTS (EST_DICE_CHAIN_LENGTH / EST_DICE_CHECKPOINT_EVERY + 1)

typedef struct est_dice est_dice;

/*
 * c_n: SHA-256 applied `n` times to the 32-byte secret (c_0 = secret),
 * into out[32] (`out` may be `secret`). The tip published in game.json is
 * c_N; step t reveals c_(N-t). Takes n hash computations. Cannot fail.
 */
void est_dice_chain_value(unsigned char out[32], const unsigned char secret[32], uint32_t n);

/* A chain's checkpoints: value[i] = c_(i * EST_DICE_CHECKPOINT_EVERY). */
typedef struct {
	unsigned char value[EST_DICE_CHECKPOINTS][32];
} est_dice_checkpoints;

/*
 * Every checkpoint of the chain from `secret`: out->value[i] = c_(i *
 * EST_DICE_CHECKPOINT_EVERY) for i < EST_DICE_CHECKPOINTS, so out[0] is
 * the secret and the last is the tip c_N of an EST_DICE_CHAIN_LENGTH chain.
 * Takes EST_DICE_CHAIN_LENGTH hash computations. Cannot fail.
 */
void est_dice_chain_checkpoints(est_dice_checkpoints *out, const unsigned char secret[32]);

/*
 * c_n into out[32] from checkpoints made by est_dice_chain_checkpoints,
 * checked on the way: hashing on from c_n must reach the next checkpoint.
 * At most EST_DICE_CHECKPOINT_EVERY hash computations.
 * Errors: EST_EINVAL when n > EST_DICE_CHAIN_LENGTH or the checkpoints do
 * not chain (a damaged or stale copy; compute them again).
 */
int est_dice_chain_value_from(unsigned char out[32], const est_dice_checkpoints *cp, uint32_t n);

/*
 * Check that SHA-256(reveal) == prev (prev = r_(t-1), r_0 = tip), in
 * constant time. Returns 0 when they chain.
 * Errors: EST_ESIG with a message naming both values in hex.
 */
int est_dice_check_reveal(const unsigned char reveal[32], const unsigned char prev[32]);

/*
 * seed_t = HMAC-SHA256(key = reveal, enc(domain) || enc(game_id) ||
 *                      u32be(step) || enc(manifest_sha256))
 * into out[32]. `domain` is EST_DICE_DOMAIN_STEP or EST_DICE_DOMAIN_HIDDEN;
 * `domain` and `game_id` are NUL-terminated and enter without their NUL;
 * `manifest_sha256` is the raw SHA-256 of the bytes of
 * turns/NNNN/manifest.json. Errors: EST_ENOMEM (OpenSSL could not make
 * an HMAC context).
 */
int est_dice_step_seed(unsigned char out[32], const unsigned char reveal[32],
		       const char *domain, const char *game_id, uint32_t step,
		       const unsigned char manifest_sha256[32]);

/*
 * The hidden stream's seed in a dealt game (game.json "deal"; docs/protocol.md
 * "Deals"):
 * seed'_t = HMAC-SHA256(key = reveal, enc(EST_DICE_DOMAIN_DEAL) || enc(deal)
 *                       || u32be(step))
 * into out[32]. Neither the game id nor the manifest enters, so every game
 * of one deal (sharing the hidden chain) draws the same hidden values at
 * the same step. `deal` is NUL-terminated and enters without its NUL.
 * Errors: EST_ENOMEM (OpenSSL could not make an HMAC context).
 */
int est_dice_deal_seed(unsigned char out[32], const unsigned char reveal[32], const char *deal,
		       uint32_t step);

/* One awaited player's part of a v2 seed's inputs. */
typedef struct {
	const char *player;          /* the player's id, NUL-terminated */
	const unsigned char *sha256; /* 32 bytes: SHA-256 of the order file resolved for
	                                the player, as signed; NULL: the player sent none */
} est_dice_input;

/*
 * Dice v2 (docs/protocol.md "Dice protocol v2"): seed_t = HMAC-SHA256(key, enc(domain) ||
 * inputs_t) into out[32], where
 *   inputs_t = enc(game_id) || u32be(step) || enc(prev) || u32be(count)
 *              || for each awaited player in byte order of id:
 *                 enc(player) || enc(sha256, or empty when NULL)
 * `key` is r_t (domain EST_DICE_V2_DOMAIN_STEP) or the hidden chain's
 * value (EST_DICE_V2_DOMAIN_HIDDEN); `prev` is the raw SHA-256 of the
 * state.json the step resolves. `inputs` may come in any order (they are
 * sorted by id, not changed); `count` 0 for a step that awaits nobody.
 * Strings enter without their NUL.
 * Errors: EST_EINVAL (a player twice), EST_ENOMEM.
 */
int est_dice_v2_seed(unsigned char out[32], const unsigned char key[32], const char *domain,
		     const char *game_id, uint32_t step, const unsigned char prev[32],
		     const est_dice_input *inputs, size_t count);

/*
 * Dice v2, the hidden seed of a dealt game's step: HMAC-SHA256(key,
 * enc(EST_DICE_V2_DOMAIN_HIDDEN) || enc(deal) || u32be(step)), so every game
 * of the deal draws the same hidden values. Errors: EST_ENOMEM.
 */
int est_dice_v2_deal_seed(unsigned char out[32], const unsigned char key[32], const char *deal,
			  uint32_t step);

/*
 * block_i = HMAC-SHA256(key = seed, enc("estafette/dice/v1/stream") ||
 * u64be(i)) into out[32]: the i-th block (counted from 0) of the roll
 * stream keyed by `seed`. Its eight 4-byte big-endian words are the words
 * est_dice_roll uses, in order. Exposed so that tests and audits can check
 * the stream against the normative vector. Errors: EST_ENOMEM.
 */
int est_dice_block(unsigned char out[32], const unsigned char seed[32], uint64_t i);

/* est_dice_block of dice v2: the domain "estafette/dice/v2/stream". */
int est_dice_block_v2(unsigned char out[32], const unsigned char seed[32], uint64_t i);

/*
 * A roll stream keyed by `seed` (block_i as est_dice_block, eight
 * big-endian words a block, starting at block 0) with an empty log.
 * `seed` is copied. Caller frees with est_dice_free. Errors: EST_ENOMEM.
 */
int est_dice_new(est_dice **out, const unsigned char seed[32]);

/* est_dice_new of dice v2: its blocks are est_dice_block_v2's. */
int est_dice_new_v2(est_dice **out, const unsigned char seed[32]);

/*
 * A test stream that returns `faces` in order, whatever the sides asked
 * (each face must fit the die it answers, 1..sides, or est_dice_roll fails
 * with EST_EINVAL and the face stays unused). Rolls are logged exactly as
 * with a real stream. Running out of faces is EST_EINVAL ("test stream
 * exhausted"). `faces` is copied; count may be 0.
 * Errors: EST_ENOMEM.
 */
int est_dice_new_fixed(est_dice **out, const int *faces, size_t count);

/* Free a stream and its log. NULL is allowed. */
void est_dice_free(est_dice *dice);

/*
 * Roll one die of `sides` faces: take the next word w; while
 * w >= 2^32 - (2^32 mod sides) take another; *out = w mod sides + 1.
 * `purpose` (e.g. "battle Austria: allied roll") is copied into the log
 * (NULL logs as ""). Rejected words are consumed but not logged.
 * Errors: EST_EINVAL if sides < 2 (or a fixed face out of range /
 * exhausted); EST_ENOMEM. After EST_ENOMEM the stream may have moved on
 * without logging: discard it.
 */
int est_dice_roll(int *out, est_dice *dice, int sides, const char *purpose);

/*
 * Fisher-Yates shuffle of `array` in place: for i = n-1 down to 1,
 * j = roll(i+1) - 1, swap items i and j. Each roll is logged with
 * "`purpose`: position i". Arrays of 0 or 1 items draw nothing.
 * Errors: EST_EINVAL if `array` is not a JSON array (or holds more than
 * INT_MAX items); otherwise as est_dice_roll, and then the array may be
 * partly shuffled.
 */
int est_dice_shuffle(json_t *array, est_dice *dice, const char *purpose);

/*
 * The roll log so far: a JSON array of {"sides", "value", "purpose"} in the
 * order drawn, built from the rolls on the first call after them (rolls are
 * logged flat, not as JSON). Borrowed; valid until the next roll or
 * est_dice_free (json_deep_copy it to keep it). NULL when out of memory.
 */
const json_t *est_dice_log(est_dice *dice);

/* Number of rolls drawn (and logged) so far. */
size_t est_dice_count(const est_dice *dice);

#endif
