/*
 * The dice protocol (docs/protocol.md "Dice protocol v2"): the normative test vector, the
 * rejection test, shuffles, the roll log and fixed test streams.
 *
 * Where a value is not in docs/protocol.md it is recomputed here independently of
 * dice.c, with OpenSSL's one-shot HMAC() over messages built by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "dice/dice.h"
#include "util/error.h"
#include "util/util.h"

/* docs/protocol.md "Dice protocol v2", normative test vector. */
#define VEC_S "1da729e3272b59bdaa616c908975d0e26bc27dac7911be192b9ed1ad4dc85bad"
#define VEC_TIP "1ae05829b93ed33b91e94a288df681e62d8e0e1786787ea117238dd6e548b6a5"
#define VEC_R1 "dcac7d2aad709db85b466db137494c06797f0f35ca08e2976666e55f2f51a342"
#define VEC_MANIFEST "{\"orders\":[]}\n"
#define VEC_MANIFEST_SHA "bfc78645fff96da7048eef69ec1296336e0fb7b59a16927f4ae72726fca12591"
#define VEC_SEED1 "702c4341cf914556ccd4213499111b792ff5fd601f4bd604ad74dd0bd6f842c5"
#define VEC_BLOCK0 "cb0d210f4a599bb7a5d5257c3f8329a8c0258d72cad9b524ef78c574c355837c"

/* docs/protocol.md "Dice protocol v2", the v2 vector: the same chain, inputs instead of a manifest. */
#define VEC2_STATE "{\"turn\":1}\n"
#define VEC2_PREV "158b175fbfdd184299daf609fb8d45efe75489226b61736a41b3cb181f6fe5e3"
#define VEC2_ORDER "{\"estafette\":\"orders/1\",\"game\":\"demo\",\"step\":1,\"player\":\"france\"}\n"
#define VEC2_ORDER_SHA "dd3192ef45f65942f21794aaef914286be110a0a05bc078b16c94c70007a0eaf"
#define VEC2_SEED1 "73607feb67780e56c67903b80233cb3c527b92b6bfbfa86ed0c645fbeb6a33fa"
#define VEC2_BLOCK0 "03d559207a2488c666b1f0faa2aa5c572ab42cbc53ede6bc68ee46c8e2b2311f"
#define VEC2_HIDDEN1 "37a306d085e839d884a44ac433b7d496e72b0f21a85e9fee99f5871448bc4bf8"

static void assert_hex(const unsigned char bytes[32], const char *hex)
{
	char got[65];

	est_hex_encode(got, bytes, 32);
	assert_string_equal(got, hex);
}

static void vector_seed(unsigned char seed[32])
{
	assert_int_equal(est_hex_decode(seed, 32, VEC_SEED1), 0);
}

/* Independent: u32be(len) || x appended at *pos. */
static void put_enc(unsigned char *msg, size_t *pos, const void *x, size_t len)
{
	msg[(*pos)++] = (unsigned char)(len >> 24);
	msg[(*pos)++] = (unsigned char)(len >> 16);
	msg[(*pos)++] = (unsigned char)(len >> 8);
	msg[(*pos)++] = (unsigned char)len;
	memcpy(msg + *pos, x, len);
	*pos += len;
}

/* Independent block_i: HMAC-SHA256(seed, enc("estafette/dice/v1/stream") || u64be(i)). */
static void independent_block(unsigned char out[32], const unsigned char seed[32], uint64_t i)
{
	unsigned char msg[64];
	size_t pos = 0;
	unsigned int len = 0;
	int k;

	put_enc(msg, &pos, "estafette/dice/v1/stream", strlen("estafette/dice/v1/stream"));
	for (k = 7; k >= 0; k--)
		msg[pos++] = (unsigned char)(i >> (8 * k));
	assert_non_null(HMAC(EVP_sha256(), seed, 32, msg, pos, out, &len));
	assert_int_equal(len, 32);
}

/* Independent word reader over independent_block. */
struct words {
	const unsigned char *seed;
	uint64_t block;
	unsigned char bytes[32];
	int used; /* 8: block used up (start with 8) */
};

static uint32_t words_next(struct words *w)
{
	const unsigned char *p;

	if (w->used == 8) {
		independent_block(w->bytes, w->seed, w->block++);
		w->used = 0;
	}
	p = w->bytes + 4 * w->used++;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* docs/protocol.md: S = SHA-256("estafette test vector"), N = 4, tip = c_4, r_1 = c_3. */
static void test_vector_chain(void **state)
{
	unsigned char s[32], tip[32], r1[32], again[32];

	(void)state;
	est_sha256(s, "estafette test vector", strlen("estafette test vector"));
	assert_hex(s, VEC_S);

	est_dice_chain_value(tip, s, 4);
	assert_hex(tip, VEC_TIP);
	est_dice_chain_value(r1, s, 3);
	assert_hex(r1, VEC_R1);
	est_dice_chain_value(again, s, 0);
	assert_memory_equal(again, s, 32);

	/* step 1 reveals r_1 and it must hash to r_0 = tip */
	assert_int_equal(est_dice_check_reveal(r1, tip), 0);
	/* the chain read the wrong way round does not verify */
	est_error_clear();
	assert_int_equal(est_dice_check_reveal(tip, r1), EST_ESIG);
	assert_int_equal(est_error_code(), EST_ESIG);
	assert_non_null(strstr(est_error_message(), VEC_TIP));
	assert_non_null(strstr(est_error_message(), VEC_R1));
}

/* Checkpoints give the same c_n as hashing from the secret, and a damaged one is caught. */
static void test_chain_checkpoints(void **state)
{
	static const uint32_t at[] = {0, 1, 99, 100, 101, 4321, 9899, 9900, 9999, EST_DICE_CHAIN_LENGTH};
	est_dice_checkpoints *cp = malloc(sizeof(*cp));
	unsigned char s[32], want[32], got[32];

	(void)state;
	assert_non_null(cp);
	est_sha256(s, "estafette test vector", strlen("estafette test vector"));
	est_dice_chain_checkpoints(cp, s);
	assert_memory_equal(cp->value[0], s, 32);
	est_dice_chain_value(want, s, EST_DICE_CHAIN_LENGTH);
	assert_memory_equal(cp->value[EST_DICE_CHECKPOINTS - 1], want, 32);
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		est_dice_chain_value(want, s, at[i]);
		assert_int_equal(est_dice_chain_value_from(got, cp, at[i]), 0);
		assert_memory_equal(got, want, 32);
	}
	assert_int_equal(est_dice_chain_value_from(got, cp, EST_DICE_CHAIN_LENGTH + 1), EST_EINVAL);
	est_error_clear();
	/* c_4321 starts from checkpoint 43, checked against checkpoint 44. */
	cp->value[43][0] ^= 1;
	assert_int_equal(est_dice_chain_value_from(got, cp, 4321), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "do not chain"));
	est_error_clear();
	cp->value[43][0] ^= 1;
	cp->value[44][31] ^= 0x80;
	assert_int_equal(est_dice_chain_value_from(got, cp, 4321), EST_EINVAL);
	est_error_clear();
	free(cp);
}

/* docs/protocol.md: game "demo", step 1, manifest '{"orders":[]}\n' -> seed_1, block_0. */
static void test_vector_seed_and_block(void **state)
{
	unsigned char r1[32], manifest_sha[32], seed[32], block[32], check[32];

	(void)state;
	est_sha256(manifest_sha, VEC_MANIFEST, strlen(VEC_MANIFEST));
	assert_hex(manifest_sha, VEC_MANIFEST_SHA);

	assert_int_equal(est_hex_decode(r1, 32, VEC_R1), 0);
	assert_int_equal(est_dice_step_seed(seed, r1, EST_DICE_DOMAIN_STEP, "demo", 1, manifest_sha), 0);
	assert_hex(seed, VEC_SEED1);

	assert_int_equal(est_dice_block(block, seed, 0), 0);
	assert_hex(block, VEC_BLOCK0);

	/* later blocks agree with the independent computation */
	assert_int_equal(est_dice_block(block, seed, 1), 0);
	independent_block(check, seed, 1);
	assert_memory_equal(block, check, 32);
	assert_int_equal(est_dice_block(block, seed, UINT64_C(0x0102030405060708)), 0);
	independent_block(check, seed, UINT64_C(0x0102030405060708));
	assert_memory_equal(block, check, 32);
}

/* The hidden chain: same construction, domain "estafette/dice/v1/hidden-step". */
static void test_hidden_domain(void **state)
{
	unsigned char r1[32], manifest_sha[32], step_seed[32], hidden[32], check[32];
	unsigned char msg[256];
	const char *domain = "estafette/dice/v1/hidden-step";
	size_t pos = 0;
	unsigned int len = 0;

	(void)state;
	assert_int_equal(est_hex_decode(r1, 32, VEC_R1), 0);
	est_sha256(manifest_sha, VEC_MANIFEST, strlen(VEC_MANIFEST));
	assert_int_equal(est_dice_step_seed(step_seed, r1, EST_DICE_DOMAIN_STEP, "demo", 1, manifest_sha), 0);
	assert_int_equal(est_dice_step_seed(hidden, r1, EST_DICE_DOMAIN_HIDDEN, "demo", 1, manifest_sha), 0);
	assert_memory_not_equal(step_seed, hidden, 32);

	put_enc(msg, &pos, domain, strlen(domain));
	put_enc(msg, &pos, "demo", 4);
	msg[pos++] = 0, msg[pos++] = 0, msg[pos++] = 0, msg[pos++] = 1;
	put_enc(msg, &pos, manifest_sha, 32);
	assert_non_null(HMAC(EVP_sha256(), r1, 32, msg, pos, check, &len));
	assert_memory_equal(hidden, check, 32);

	/* the step number enters big-endian: step 256 differs from step 1 */
	assert_int_equal(est_dice_step_seed(check, r1, EST_DICE_DOMAIN_HIDDEN, "demo", 256, manifest_sha), 0);
	assert_memory_not_equal(hidden, check, 32);
}

/*
 * A dealt game's hidden stream (docs/protocol.md "Deals"): keyed by
 * r'_t over the deal name and the step only. The known answer was computed
 * with Python's hmac module from the normative r_1:
 * HMAC(r_1, enc("estafette/dice/v1/deal-step") || enc("spring-1793") || u32be(1)).
 */
static void test_deal_seed_known_answer(void **state)
{
	unsigned char r1[32], seed[32], other[32];
	char hex[65];

	(void)state;
	assert_int_equal(est_hex_decode(r1, 32, VEC_R1), 0);
	assert_int_equal(est_dice_deal_seed(seed, r1, "spring-1793", 1), 0);
	est_hex_encode(hex, seed, 32);
	assert_string_equal(hex, "f0d42d3203a5ac49243784dd437673b1b26570c92e141084eb696f0d5086c084");
	/* another deal or another step draws otherwise */
	assert_int_equal(est_dice_deal_seed(other, r1, "spring-1794", 1), 0);
	assert_memory_not_equal(seed, other, 32);
	assert_int_equal(est_dice_deal_seed(other, r1, "spring-1793", 2), 0);
	assert_memory_not_equal(seed, other, 32);
}

/* docs/protocol.md: twelve d6: 4 4 3 5 5 1 1 5 1 5 3 6, then six d10: 3 9 4 8 1 6. */
static void test_vector_rolls_and_log(void **state)
{
	static const int d6[12] = { 4, 4, 3, 5, 5, 1, 1, 5, 1, 5, 3, 6 };
	static const int d10[6] = { 3, 9, 4, 8, 1, 6 };
	unsigned char seed[32];
	est_dice *dice = NULL;
	const json_t *log, *entry;
	char purpose[32];
	int i, face;

	(void)state;
	vector_seed(seed);
	assert_int_equal(est_dice_new(&dice, seed), 0);
	assert_int_equal(est_dice_count(dice), 0);
	for (i = 0; i < 12; i++) {
		snprintf(purpose, sizeof(purpose), "d6 number %d", i + 1);
		assert_int_equal(est_dice_roll(&face, dice, 6, purpose), 0);
		assert_int_equal(face, d6[i]);
	}
	for (i = 0; i < 6; i++) {
		snprintf(purpose, sizeof(purpose), "d10 number %d", i + 1);
		assert_int_equal(est_dice_roll(&face, dice, 10, purpose), 0);
		assert_int_equal(face, d10[i]);
	}
	assert_int_equal(est_dice_count(dice), 18);

	log = est_dice_log(dice);
	assert_true(json_is_array(log));
	assert_int_equal(json_array_size(log), 18);
	for (i = 0; i < 18; i++) {
		entry = json_array_get(log, (size_t)i);
		assert_int_equal(json_object_size(entry), 3);
		assert_int_equal(json_integer_value(json_object_get(entry, "sides")), i < 12 ? 6 : 10);
		assert_int_equal(json_integer_value(json_object_get(entry, "value")),
				 i < 12 ? d6[i] : d10[i - 12]);
		snprintf(purpose, sizeof(purpose), "d%d number %d", i < 12 ? 6 : 10,
			 i < 12 ? i + 1 : i - 11);
		assert_string_equal(json_string_value(json_object_get(entry, "purpose")), purpose);
	}
	est_dice_free(dice);
}

/*
 * For a die of 1431655766 sides, 2^32 mod n = 2^32 - 2n = 1431655764: about
 * one word in three lies at or above 2^32 - (2^32 mod n) and is rejected.
 * The rolls must equal an independent rejection over independent words,
 * and the rejected words must be consumed but not logged.
 */
static void test_rejection_sampling(void **state)
{
	const int sides = 1431655766;
	const uint64_t limit = (UINT64_C(1) << 32) - ((UINT64_C(1) << 32) % (uint64_t)sides);
	unsigned char seed[32];
	struct words w = { .used = 8 };
	est_dice *dice = NULL;
	int i, face, expected, rejected = 0;
	uint32_t word;

	(void)state;
	assert_true(limit == UINT64_C(2863311532));
	vector_seed(seed);
	w.seed = seed;
	assert_int_equal(est_dice_new(&dice, seed), 0);
	for (i = 0; i < 40; i++) {
		while ((word = words_next(&w)) >= limit)
			rejected++;
		expected = (int)(word % (uint32_t)sides) + 1;
		assert_int_equal(est_dice_roll(&face, dice, sides, "wide die"), 0);
		assert_int_equal(face, expected);
	}
	/* the test is only meaningful if rejection actually happened */
	assert_true(rejected > 0);
	assert_int_equal(est_dice_count(dice), 40);

	/* after the rejections both streams stand on the same word */
	word = words_next(&w);
	assert_int_equal(est_dice_roll(&face, dice, 1000, "after"), 0);
	assert_true(word < 4294967000u);
	assert_int_equal(face, (int)(word % 1000) + 1);
	est_dice_free(dice);
}

static int int_at(const json_t *array, size_t i)
{
	return (int)json_integer_value(json_array_get(array, i));
}

static json_t *range_array(int n)
{
	json_t *a = json_array();
	int i;

	assert_non_null(a);
	for (i = 0; i < n; i++)
		assert_int_equal(json_array_append_new(a, json_integer(i)), 0);
	return a;
}

/* Same seed, same order; every item kept exactly once; rolls logged per position. */
static void test_shuffle_deterministic_permutation(void **state)
{
	const int n = 52;
	unsigned char seed[32];
	est_dice *one = NULL, *two = NULL, *fixed = NULL;
	json_t *a = range_array(n), *b = range_array(n), *c = range_array(n);
	int seen[52] = { 0 }, faces[51];
	const json_t *log;
	char purpose[32];
	int i, moved = 0;

	(void)state;
	vector_seed(seed);
	assert_int_equal(est_dice_new(&one, seed), 0);
	assert_int_equal(est_dice_new(&two, seed), 0);
	assert_int_equal(est_dice_shuffle(a, one, "deck"), 0);
	assert_int_equal(est_dice_shuffle(b, two, "deck"), 0);
	assert_true(json_equal(a, b));

	assert_int_equal(json_array_size(a), n);
	for (i = 0; i < n; i++) {
		int v = int_at(a, (size_t)i);

		assert_true(v >= 0 && v < n);
		seen[v]++;
		moved += v != i;
	}
	for (i = 0; i < n; i++)
		assert_int_equal(seen[i], 1);
	assert_true(moved > 0);

	/* n-1 rolls: position n-1 with a d(n) down to position 1 with a d2 */
	log = est_dice_log(one);
	assert_int_equal(est_dice_count(one), n - 1);
	for (i = 0; i < n - 1; i++) {
		const json_t *entry = json_array_get(log, (size_t)i);

		assert_int_equal(json_integer_value(json_object_get(entry, "sides")), n - i);
		snprintf(purpose, sizeof(purpose), "deck: position %d", n - 1 - i);
		assert_string_equal(json_string_value(json_object_get(entry, "purpose")), purpose);
		faces[i] = (int)json_integer_value(json_object_get(entry, "value"));
	}

	/* replaying the logged faces through a test stream gives the same order */
	assert_int_equal(est_dice_new_fixed(&fixed, faces, (size_t)(n - 1)), 0);
	assert_int_equal(est_dice_shuffle(c, fixed, "deck"), 0);
	assert_true(json_equal(a, c));
	assert_true(json_equal(est_dice_log(one), est_dice_log(fixed)));

	est_dice_free(one);
	est_dice_free(two);
	est_dice_free(fixed);
	json_decref(a);
	json_decref(b);
	json_decref(c);
}

/* Fisher-Yates by hand: [a b c], d3 -> 1 swaps 2<->0: [c b a]; d2 -> 1 swaps 1<->0: [b c a]. */
static void test_shuffle_swaps(void **state)
{
	static const int faces[] = { 1, 1 };
	est_dice *dice = NULL;
	json_t *array = json_pack("[s,s,s]", "a", "b", "c"), *want = json_pack("[s,s,s]", "b", "c", "a");
	json_t *small = json_pack("[s]", "only"), *empty = json_array(), *notarray = json_object();

	(void)state;
	assert_int_equal(est_dice_new_fixed(&dice, faces, 2), 0);
	assert_int_equal(est_dice_shuffle(array, dice, "order"), 0);
	assert_true(json_equal(array, want));
	assert_int_equal(est_dice_count(dice), 2);

	/* nothing to shuffle draws nothing */
	assert_int_equal(est_dice_shuffle(small, dice, "order"), 0);
	assert_int_equal(est_dice_shuffle(empty, dice, "order"), 0);
	assert_int_equal(est_dice_count(dice), 2);

	assert_int_equal(est_dice_shuffle(notarray, dice, "order"), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "not a JSON array"));

	est_dice_free(dice);
	json_decref(array);
	json_decref(want);
	json_decref(small);
	json_decref(empty);
	json_decref(notarray);
}

/* A test stream answers its faces in order, logged like real rolls. */
static void test_fixed_stream(void **state)
{
	static const int faces[] = { 3, 6, 1, 7 };
	est_dice *dice = NULL, *none = NULL;
	const json_t *entry;
	int face = 0;

	(void)state;
	assert_int_equal(est_dice_new_fixed(&dice, faces, 4), 0);
	assert_int_equal(est_dice_roll(&face, dice, 6, "first"), 0);
	assert_int_equal(face, 3);
	assert_int_equal(est_dice_roll(&face, dice, 6, "second"), 0);
	assert_int_equal(face, 6);
	assert_int_equal(est_dice_roll(&face, dice, 2, "third"), 0);
	assert_int_equal(face, 1);

	/* 7 cannot come from a d6: refused, not consumed, not logged */
	face = 0;
	assert_int_equal(est_dice_roll(&face, dice, 6, "fourth"), EST_EINVAL);
	assert_int_equal(face, 0);
	assert_non_null(strstr(est_error_message(), "cannot show"));
	assert_int_equal(est_dice_count(dice), 3);
	assert_int_equal(est_dice_roll(&face, dice, 8, "fourth again"), 0);
	assert_int_equal(face, 7);

	assert_int_equal(est_dice_roll(&face, dice, 6, "fifth"), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "exhausted"));
	assert_int_equal(est_dice_count(dice), 4);

	entry = json_array_get(est_dice_log(dice), 3);
	assert_int_equal(json_integer_value(json_object_get(entry, "sides")), 8);
	assert_int_equal(json_integer_value(json_object_get(entry, "value")), 7);
	assert_string_equal(json_string_value(json_object_get(entry, "purpose")), "fourth again");

	/* a face below 1 never fits */
	static const int zero[] = { 0 };
	est_dice_free(dice);
	assert_int_equal(est_dice_new_fixed(&dice, zero, 1), 0);
	assert_int_equal(est_dice_roll(&face, dice, 6, "zero"), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "cannot show"));

	assert_int_equal(est_dice_new_fixed(&none, NULL, 0), 0);
	assert_int_equal(est_dice_roll(&face, none, 6, "nothing"), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "exhausted"));

	est_dice_free(dice);
	est_dice_free(none);
	est_dice_free(NULL);
}

/* sides < 2 is a ruleset bug: refused without using a word or a face. */
static void test_sides_below_two(void **state)
{
	static const int faces[] = { 1 };
	unsigned char seed[32];
	est_dice *dice = NULL, *fixed = NULL;
	int face, bad[] = { 1, 0, -6 };
	size_t i;

	(void)state;
	vector_seed(seed);
	assert_int_equal(est_dice_new(&dice, seed), 0);
	assert_int_equal(est_dice_new_fixed(&fixed, faces, 1), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(est_dice_roll(&face, dice, bad[i], "bad"), EST_EINVAL);
		assert_non_null(strstr(est_error_message(), "at least 2 sides"));
		assert_int_equal(est_dice_roll(&face, fixed, bad[i], "bad"), EST_EINVAL);
	}
	assert_int_equal(est_dice_count(dice), 0);
	assert_int_equal(est_dice_count(fixed), 0);

	/* the stream did not move: the first d6 of the vector is still 4 */
	assert_int_equal(est_dice_roll(&face, dice, 6, NULL), 0);
	assert_int_equal(face, 4);
	assert_string_equal(json_string_value(json_object_get(json_array_get(est_dice_log(dice), 0),
							      "purpose")), "");
	assert_int_equal(est_dice_roll(&face, fixed, 2, "ok"), 0);
	assert_int_equal(face, 1);
	est_dice_free(dice);
	est_dice_free(fixed);
}

/*
 * Dice v2, the normative vector: step 1 of game "demo" resolves the state
 * '{"turn":1}\n' and awaits "france" (who sent the order file below) and
 * "allies" (who sent none). The inputs are given out of order on purpose:
 * the seed takes them in byte order of player id.
 */
static void test_v2_vector(void **state)
{
	static const int d6[12] = { 5, 1, 5, 2, 5, 1, 1, 2, 4, 6, 3, 4 };
	static const int d10[6] = { 1, 4, 4, 2, 9, 9 };
	unsigned char r1[32], prev[32], order[32], seed[32], again[32], block[32], hidden[32];
	est_dice *dice = NULL;
	int i, face;

	(void)state;
	assert_int_equal(est_hex_decode(r1, 32, VEC_R1), 0);
	est_sha256(prev, VEC2_STATE, strlen(VEC2_STATE));
	assert_hex(prev, VEC2_PREV);
	est_sha256(order, VEC2_ORDER, strlen(VEC2_ORDER));
	assert_hex(order, VEC2_ORDER_SHA);
	est_dice_input inputs[2] = {{"france", order}, {"allies", NULL}};
	est_dice_input sorted[2] = {{"allies", NULL}, {"france", order}};

	assert_int_equal(est_dice_v2_seed(seed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, inputs, 2), 0);
	assert_hex(seed, VEC2_SEED1);
	assert_int_equal(est_dice_v2_seed(again, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, sorted, 2), 0);
	assert_memory_equal(again, seed, 32);
	assert_string_equal(inputs[0].player, "france"); /* sorted on a copy */
	assert_int_equal(est_dice_block_v2(block, seed, 0), 0);
	assert_hex(block, VEC2_BLOCK0);
	/* the v1 stream of the same seed is another stream */
	assert_int_equal(est_dice_block(again, seed, 0), 0);
	assert_memory_not_equal(again, block, 32);

	assert_int_equal(est_dice_new_v2(&dice, seed), 0);
	for (i = 0; i < 12; i++) {
		assert_int_equal(est_dice_roll(&face, dice, 6, "d6"), 0);
		assert_int_equal(face, d6[i]);
	}
	for (i = 0; i < 6; i++) {
		assert_int_equal(est_dice_roll(&face, dice, 10, "d10"), 0);
		assert_int_equal(face, d10[i]);
	}
	est_dice_free(dice);

	assert_int_equal(est_dice_v2_seed(hidden, r1, EST_DICE_V2_DOMAIN_HIDDEN, "demo", 1, prev, inputs, 2), 0);
	assert_hex(hidden, VEC2_HIDDEN1);
}

/* What a GM might vary, each gives another seed; a player awaited twice is refused. */
static void test_v2_inputs_bind(void **state)
{
	unsigned char r1[32], prev[32], order[32], other[32], seed[32], changed[32];
	est_dice_input inputs[2] = {{"allies", NULL}, {"france", order}};

	(void)state;
	assert_int_equal(est_hex_decode(r1, 32, VEC_R1), 0);
	est_sha256(prev, VEC2_STATE, strlen(VEC2_STATE));
	est_sha256(order, VEC2_ORDER, strlen(VEC2_ORDER));
	assert_int_equal(est_dice_v2_seed(seed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, inputs, 2), 0);

	/* another order file of france's (a superseded seq) */
	memcpy(other, order, 32);
	other[31] ^= 1;
	inputs[1].sha256 = other;
	assert_int_equal(est_dice_v2_seed(changed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, inputs, 2), 0);
	assert_memory_not_equal(changed, seed, 32);
	/* france dropped as if missed */
	inputs[1].sha256 = NULL;
	assert_int_equal(est_dice_v2_seed(changed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, inputs, 2), 0);
	assert_memory_not_equal(changed, seed, 32);
	/* france left out of the awaited players */
	inputs[1].sha256 = order;
	assert_int_equal(est_dice_v2_seed(changed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, inputs, 1), 0);
	assert_memory_not_equal(changed, seed, 32);
	/* another step, another game */
	assert_int_equal(est_dice_v2_seed(changed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 2, prev, inputs, 2), 0);
	assert_memory_not_equal(changed, seed, 32);
	assert_int_equal(est_dice_v2_seed(changed, r1, EST_DICE_V2_DOMAIN_STEP, "demo2", 1, prev, inputs, 2), 0);
	assert_memory_not_equal(changed, seed, 32);
	/* the same player twice */
	inputs[0].player = "france";
	assert_int_equal(est_dice_v2_seed(changed, r1, EST_DICE_V2_DOMAIN_STEP, "demo", 1, prev, inputs, 2), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "awaited twice"));
	est_error_clear();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vector_chain),
		cmocka_unit_test(test_chain_checkpoints),
		cmocka_unit_test(test_vector_seed_and_block),
		cmocka_unit_test(test_hidden_domain),
		cmocka_unit_test(test_deal_seed_known_answer),
		cmocka_unit_test(test_vector_rolls_and_log),
		cmocka_unit_test(test_rejection_sampling),
		cmocka_unit_test(test_shuffle_deterministic_permutation),
		cmocka_unit_test(test_shuffle_swaps),
		cmocka_unit_test(test_fixed_stream),
		cmocka_unit_test(test_sides_below_two),
		cmocka_unit_test(test_v2_vector),
		cmocka_unit_test(test_v2_inputs_bind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
