/*
 * Verifiable dice (DESIGN.md "Dice", protocol estafette/dice/v1).
 *
 * A hash chain commits the GM to every step's key in advance; each step's
 * seed mixes the revealed chain value with the SHA-256 of the step's
 * manifest, which holds every order's hash (and so the players' entropy).
 * All rolls of a step come from one HMAC-SHA256 stream and are logged with
 * their purpose in turns/NNNN/dice.json.
 */
#ifndef EST_DICE_DICE_H
#define EST_DICE_DICE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#define EST_DICE_ALGORITHM "estafette/dice/v1"
#define EST_DICE_DOMAIN_STEP "estafette/dice/v1/step"
#define EST_DICE_DOMAIN_HIDDEN "estafette/dice/v1/hidden-step"
#define EST_DICE_CHAIN_LENGTH 10000

typedef struct est_dice est_dice;

/*
 * c_n: SHA-256 applied `n` times to the 32-byte secret (c_0 = secret).
 * The tip published in game.json is c_N; step t reveals c_(N-t).
 */
void est_dice_chain_value(unsigned char out[32], const unsigned char secret[32], uint32_t n);

/*
 * Check that SHA-256(reveal) == prev (prev = r_(t-1), r_0 = tip).
 * Errors: EST_ESIG with a message naming both values.
 */
int est_dice_check_reveal(const unsigned char reveal[32], const unsigned char prev[32]);

/*
 * seed_t = HMAC-SHA256(key = reveal, enc(domain) || enc(game_id) ||
 *                      u32be(step) || enc(manifest_sha256))
 * `domain` is EST_DICE_DOMAIN_STEP or EST_DICE_DOMAIN_HIDDEN.
 */
void est_dice_step_seed(unsigned char out[32], const unsigned char reveal[32],
			const char *domain, const char *game_id, uint32_t step,
			const unsigned char manifest_sha256[32]);

/*
 * A roll stream keyed by `seed` (block_i = HMAC-SHA256(seed,
 * enc("estafette/dice/v1/stream") || u64be(i)), eight big-endian words a
 * block). Caller frees with est_dice_free. Errors: EST_ENOMEM.
 */
int est_dice_new(est_dice **out, const unsigned char seed[32]);

/*
 * A test stream that returns `faces` in order, whatever the sides asked
 * (each face must fit the die it answers, or est_dice_roll fails with
 * EST_EINVAL). Rolls are logged exactly as with a real stream. Running out
 * of faces is EST_EINVAL ("test stream exhausted"). `faces` is copied.
 * Errors: EST_ENOMEM.
 */
int est_dice_new_fixed(est_dice **out, const int *faces, size_t count);

void est_dice_free(est_dice *dice);

/*
 * Roll one die of `sides` faces: take the next word w; while
 * w >= 2^32 - (2^32 mod sides) take another; *out = w mod sides + 1.
 * `purpose` (e.g. "battle Austria: allied roll") is copied into the log.
 * Errors: EST_EINVAL if sides < 2 (or a fixed face out of range / exhausted);
 * EST_ENOMEM.
 */
int est_dice_roll(int *out, est_dice *dice, int sides, const char *purpose);

/*
 * Fisher-Yates shuffle of `array` in place: for i = n-1 down to 1,
 * j = roll(i+1) - 1, swap items i and j. Each roll is logged with
 * "`purpose`: position i". Errors: as est_dice_roll.
 */
int est_dice_shuffle(json_t *array, est_dice *dice, const char *purpose);

/*
 * The roll log so far: a JSON array of {"sides", "value", "purpose"} in the
 * order drawn. Borrowed; valid until the next roll or est_dice_free.
 */
const json_t *est_dice_log(const est_dice *dice);

/* Number of rolls drawn so far. */
size_t est_dice_count(const est_dice *dice);

#endif
