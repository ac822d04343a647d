/*
 * Sealing (docs/protocol.md "The repository", sealed games): the hidden parts
 * of a state (hands, the deck order) stand on the public refs only as
 * SHA-256 commitments, which anyone can open once the key is revealed.
 *
 *   nonce(path)      = HMAC-SHA256(key, enc("estafette/seal/v1") || enc(path))
 *   commitment(path) = SHA-256(nonce(path) || JSON(value))
 *
 * enc(x) = u32be(len(x)) || x as in the dice protocol; JSON(value) is
 * jansson's compact form with sorted keys; `path` is a JSON pointer
 * ("/hands/France") into the state. The key is the step's hidden seed
 * (docs/protocol.md "Dice protocol v2"): secret until the hidden chain is revealed, and
 * different at every step, so a commitment says nothing of whether a hand
 * changed, and the nonce keeps a small hand from being guessed by hashing
 * every possible one.
 */
#ifndef EST_SEAL_H
#define EST_SEAL_H

#include <jansson.h>

#define EST_SEAL_DOMAIN "estafette/seal/v1"

/*
 * The commitment to `value` at `path` under `key` (32 bytes), as 64 lower-case
 * hex digits into hex_out. Errors: EST_ENOMEM, EST_ERROR (OpenSSL).
 */
int est_seal_commitment(char hex_out[65], const unsigned char key[32], const char *path,
			const json_t *value);

/*
 * A copy of `state` (an object) in which each part named by a pointer in
 * `paths` (an array of strings such as "/hands/France"; pointers descend
 * objects only) is replaced by {"sealed": "<commitment>"}, with "count":
 * the number of items when the part is an array (how many cards a hand or
 * the deck holds is public in every card game; which cards, and in what
 * order, is not). A pointer to nothing is skipped: a part the state does
 * not hold now is not sealed.
 * *public_out is a new reference. Errors: EST_EINVAL (a path that is not a
 * JSON pointer of object keys), EST_ENOMEM, EST_ERROR.
 */
int est_seal_state(json_t **public_out, const json_t *state, const json_t *paths,
		   const unsigned char key[32]);

#endif
