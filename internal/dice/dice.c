/*
 * The dice protocol of docs/protocol.md "Dice protocol v2": the hash chain, the step seed,
 * the HMAC-SHA256 word stream with rejection sampling, and the roll log.
 */
#include "dice/dice.h"
#include "util/error.h"
#include "util/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#define STREAM_DOMAIN "estafette/dice/v1/stream"
#define STREAM_DOMAIN_V2 "estafette/dice/v2/stream"
#define WORDS_PER_BLOCK 8

struct est_dice {
	/* A real stream: the seed, the next block to draw, the current one. */
	unsigned char seed[32];
	uint64_t next_block;
	unsigned char block[32];
	unsigned int next_word; /* WORDS_PER_BLOCK: block used up */
	const char *domain;     /* STREAM_DOMAIN or STREAM_DOMAIN_V2 */
	EVP_MAC_CTX *stream;    /* keyed by the seed once; NULL until the first block */

	/* A test stream (est_dice_new_fixed) when `fixed` is set. */
	int fixed;
	int *faces;
	size_t face_count, next_face;

	/*
	 * The roll log, kept flat (a roll is a few bytes and its purpose text
	 * in one growing buffer) and turned into JSON only when asked: a JSON
	 * object per roll cost more than drawing it.
	 */
	struct roll {
		int sides, value;
		size_t purpose; /* offset of its NUL-terminated text in `purposes` */
	} *rolls;
	size_t count, rolls_cap;
	char *purposes;
	size_t purposes_len, purposes_cap;
	json_t *log; /* the first json_array_size(log) rolls, as JSON */
};

static void put_u32be(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static void put_u64be(unsigned char *p, uint64_t v)
{
	put_u32be(p, (uint32_t)(v >> 32));
	put_u32be(p + 4, (uint32_t)v);
}

static uint32_t get_u32be(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Feed enc(x) = u32be(len(x)) || x into an HMAC computation. */
static void mac_enc(EVP_MAC_CTX *ctx, const void *x, size_t len)
{
	unsigned char prefix[4];

	put_u32be(prefix, (uint32_t)len);
	EVP_MAC_update(ctx, prefix, sizeof(prefix));
	EVP_MAC_update(ctx, x, len);
}

/*
 * An HMAC-SHA256 context keyed by `key`, or NULL if OpenSSL could not make
 * one (out of memory): callers fail with EST_ENOMEM rather than roll a die
 * from a wrong value.
 */
static EVP_MAC *hmac;
static CRYPTO_ONCE hmac_once = CRYPTO_ONCE_STATIC_INIT;

/* Looked up once: OpenSSL's fetch by name cost more than the HMAC of a block. */
static void fetch_hmac(void)
{
	hmac = EVP_MAC_fetch(NULL, "HMAC", NULL);
}

static EVP_MAC_CTX *mac_start(const unsigned char key[32])
{
	EVP_MAC_CTX *ctx = CRYPTO_THREAD_run_once(&hmac_once, fetch_hmac) && hmac ?
			   EVP_MAC_CTX_new(hmac) : NULL;
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string("digest", (char *)"SHA256", 0),
		OSSL_PARAM_construct_end(),
	};

	if (ctx && !EVP_MAC_init(ctx, key, 32, params)) {
		EVP_MAC_CTX_free(ctx);
		ctx = NULL;
	}
	return ctx;
}

static int mac_finish(unsigned char out[32], EVP_MAC_CTX *ctx)
{
	size_t len = 0;
	int ok = EVP_MAC_final(ctx, out, &len, 32) && len == 32;

	EVP_MAC_CTX_free(ctx);
	return ok ? 0 : est_error_set(EST_ENOMEM, "dice: OpenSSL could not compute an HMAC");
}

void est_dice_chain_value(unsigned char out[32], const unsigned char secret[32], uint32_t n)
{
	unsigned char c[32];

	memcpy(c, secret, sizeof(c));
	while (n--)
		est_sha256(c, c, sizeof(c));
	memcpy(out, c, sizeof(c));
	OPENSSL_cleanse(c, sizeof(c));
}

void est_dice_chain_checkpoints(est_dice_checkpoints *out, const unsigned char secret[32])
{
	memcpy(out->value[0], secret, 32);
	for (size_t i = 1; i < EST_DICE_CHECKPOINTS; i++)
		est_dice_chain_value(out->value[i], out->value[i - 1], EST_DICE_CHECKPOINT_EVERY);
}

int est_dice_chain_value_from(unsigned char out[32], const est_dice_checkpoints *cp, uint32_t n)
{
	uint32_t j = n / EST_DICE_CHECKPOINT_EVERY, k = n % EST_DICE_CHECKPOINT_EVERY;
	unsigned char next[32];
	int ok;

	if (n > EST_DICE_CHAIN_LENGTH)
		return est_error_set(EST_EINVAL, "dice: chain value %u is past the chain's length %d", n,
				     EST_DICE_CHAIN_LENGTH);
	est_dice_chain_value(out, cp->value[j], k);
	if (k == 0)
		return 0;
	est_dice_chain_value(next, out, EST_DICE_CHECKPOINT_EVERY - k);
	ok = CRYPTO_memcmp(next, cp->value[j + 1], 32) == 0;
	OPENSSL_cleanse(next, sizeof(next));
	if (ok)
		return 0;
	OPENSSL_cleanse(out, 32);
	return est_error_set(EST_EINVAL, "dice: checkpoints %u and %u do not chain", j, j + 1);
}

int est_dice_check_reveal(const unsigned char reveal[32], const unsigned char prev[32])
{
	unsigned char hashed[32];
	char reveal_hex[65], prev_hex[65];

	est_sha256(hashed, reveal, 32);
	if (CRYPTO_memcmp(hashed, prev, sizeof(hashed)) == 0)
		return 0;
	est_hex_encode(reveal_hex, reveal, 32);
	est_hex_encode(prev_hex, prev, 32);
	return est_error_set(EST_ESIG,
			     "dice: revealed chain value %s does not hash to the previous value %s "
			     "(SHA-256 of r_t must equal r_(t-1), with r_0 the chain tip of game.json); "
			     "check that the GM's dice secret belongs to this game",
			     reveal_hex, prev_hex);
}

/* HMAC(reveal, enc(domain) || enc(name) || u32be(step) [|| enc(manifest SHA-256)]). */
static int seed_of(unsigned char out[32], const unsigned char reveal[32], const char *domain,
		   const char *name, uint32_t step, const unsigned char *manifest_sha256)
{
	EVP_MAC_CTX *ctx = mac_start(reveal);
	unsigned char step_be[4];

	if (!ctx)
		return est_error_set(EST_ENOMEM, "dice: OpenSSL could not start an HMAC");
	put_u32be(step_be, step);
	mac_enc(ctx, domain, strlen(domain));
	mac_enc(ctx, name, strlen(name));
	EVP_MAC_update(ctx, step_be, sizeof(step_be));
	if (manifest_sha256)
		mac_enc(ctx, manifest_sha256, 32);
	return mac_finish(out, ctx);
}

int est_dice_step_seed(unsigned char out[32], const unsigned char reveal[32],
		       const char *domain, const char *game_id, uint32_t step,
		       const unsigned char manifest_sha256[32])
{
	return seed_of(out, reveal, domain, game_id, step, manifest_sha256);
}

int est_dice_deal_seed(unsigned char out[32], const unsigned char reveal[32], const char *deal,
		       uint32_t step)
{
	return seed_of(out, reveal, EST_DICE_DOMAIN_DEAL, deal, step, NULL);
}

/* Byte order of player ids, as unsigned bytes (strcmp compares so). */
static int compare_inputs(const void *a, const void *b)
{
	return strcmp(((const est_dice_input *)a)->player, ((const est_dice_input *)b)->player);
}

/* enc(x) of inputs_t after the domain: the awaited players sorted by id, each once. */
static int mac_v2_inputs(EVP_MAC_CTX *ctx, const char *game_id, uint32_t step, const unsigned char prev[32],
			 const est_dice_input *inputs, size_t count)
{
	est_dice_input *sorted = count ? malloc(count * sizeof(*sorted)) : NULL;
	unsigned char be[4];
	size_t i;

	if (count && !sorted)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (count) {
		memcpy(sorted, inputs, count * sizeof(*sorted));
		qsort(sorted, count, sizeof(*sorted), compare_inputs);
	}
	for (i = 1; i < count; i++)
		if (strcmp(sorted[i - 1].player, sorted[i].player) == 0) {
			est_error_set(EST_EINVAL, "dice: player \"%s\" is awaited twice in the seed's inputs",
				      sorted[i].player);
			free(sorted);
			return EST_EINVAL;
		}
	mac_enc(ctx, game_id, strlen(game_id));
	put_u32be(be, step);
	EVP_MAC_update(ctx, be, sizeof(be));
	mac_enc(ctx, prev, 32);
	put_u32be(be, (uint32_t)count);
	EVP_MAC_update(ctx, be, sizeof(be));
	for (i = 0; i < count; i++) {
		mac_enc(ctx, sorted[i].player, strlen(sorted[i].player));
		mac_enc(ctx, sorted[i].sha256, sorted[i].sha256 ? 32 : 0);
	}
	free(sorted);
	return 0;
}

int est_dice_v2_seed(unsigned char out[32], const unsigned char key[32], const char *domain,
		     const char *game_id, uint32_t step, const unsigned char prev[32],
		     const est_dice_input *inputs, size_t count)
{
	EVP_MAC_CTX *ctx = mac_start(key);
	int error;

	if (!ctx)
		return est_error_set(EST_ENOMEM, "dice: OpenSSL could not start an HMAC");
	mac_enc(ctx, domain, strlen(domain));
	if ((error = mac_v2_inputs(ctx, game_id, step, prev, inputs, count)) < 0) {
		EVP_MAC_CTX_free(ctx);
		return error;
	}
	return mac_finish(out, ctx);
}

int est_dice_v2_deal_seed(unsigned char out[32], const unsigned char key[32], const char *deal,
			  uint32_t step)
{
	return seed_of(out, key, EST_DICE_V2_DOMAIN_HIDDEN, deal, step, NULL);
}

/* block_i from `ctx`, an HMAC context keyed by the seed (left keyed, for the next block). */
static int block_from(unsigned char out[32], EVP_MAC_CTX *ctx, const char *domain, uint64_t i)
{
	unsigned char index_be[8];
	size_t len = 0;

	put_u64be(index_be, i);
	mac_enc(ctx, domain, strlen(domain));
	EVP_MAC_update(ctx, index_be, sizeof(index_be));
	if (!EVP_MAC_final(ctx, out, &len, 32) || len != 32)
		return est_error_set(EST_ENOMEM, "dice: OpenSSL could not compute an HMAC");
	return 0;
}

static int block_in(unsigned char out[32], const unsigned char seed[32], const char *domain, uint64_t i)
{
	EVP_MAC_CTX *ctx = mac_start(seed);
	int error;

	if (!ctx)
		return est_error_set(EST_ENOMEM, "dice: OpenSSL could not start an HMAC");
	error = block_from(out, ctx, domain, i);
	EVP_MAC_CTX_free(ctx);
	return error;
}

int est_dice_block(unsigned char out[32], const unsigned char seed[32], uint64_t i)
{
	return block_in(out, seed, STREAM_DOMAIN, i);
}

int est_dice_block_v2(unsigned char out[32], const unsigned char seed[32], uint64_t i)
{
	return block_in(out, seed, STREAM_DOMAIN_V2, i);
}

static int dice_alloc(est_dice **out)
{
	est_dice *dice = calloc(1, sizeof(*dice));

	if (!dice || !(dice->log = json_array())) {
		free(dice);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	*out = dice;
	return 0;
}

static int new_stream(est_dice **out, const unsigned char seed[32], const char *domain)
{
	est_dice *dice;
	int error;

	if ((error = dice_alloc(&dice)) < 0)
		return error;
	memcpy(dice->seed, seed, sizeof(dice->seed));
	dice->next_word = WORDS_PER_BLOCK;
	dice->domain = domain;
	*out = dice;
	return 0;
}

int est_dice_new(est_dice **out, const unsigned char seed[32])
{
	return new_stream(out, seed, STREAM_DOMAIN);
}

int est_dice_new_v2(est_dice **out, const unsigned char seed[32])
{
	return new_stream(out, seed, STREAM_DOMAIN_V2);
}

int est_dice_new_fixed(est_dice **out, const int *faces, size_t count)
{
	est_dice *dice;
	int error;

	if ((error = dice_alloc(&dice)) < 0)
		return error;
	dice->fixed = 1;
	dice->face_count = count;
	/* One spare slot so that count 0 still gets a distinct allocation. */
	if (!(dice->faces = calloc(count + 1, sizeof(*faces)))) {
		est_dice_free(dice);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	if (count)
		memcpy(dice->faces, faces, count * sizeof(*faces));
	*out = dice;
	return 0;
}

void est_dice_free(est_dice *dice)
{
	if (!dice)
		return;
	OPENSSL_cleanse(dice->seed, sizeof(dice->seed));
	OPENSSL_cleanse(dice->block, sizeof(dice->block));
	EVP_MAC_CTX_free(dice->stream);
	free(dice->rolls);
	free(dice->purposes);
	free(dice->faces);
	json_decref(dice->log);
	free(dice);
}

static int next_word(uint32_t *out, est_dice *dice)
{
	int error;

	if (dice->next_word == WORDS_PER_BLOCK) {
		/* Keyed once; EVP_MAC_init with no key then starts the next block with the same key. */
		if (!dice->stream && !(dice->stream = mac_start(dice->seed)))
			return est_error_set(EST_ENOMEM, "dice: OpenSSL could not start an HMAC");
		if (dice->next_block > 0 && !EVP_MAC_init(dice->stream, NULL, 0, NULL))
			return est_error_set(EST_ENOMEM, "dice: OpenSSL could not restart an HMAC");
		if ((error = block_from(dice->block, dice->stream, dice->domain, dice->next_block)) < 0)
			return error;
		dice->next_block++;
		dice->next_word = 0;
	}
	*out = get_u32be(dice->block + 4 * dice->next_word++);
	return 0;
}

/*
 * Rejection sampling: words at or above the largest multiple of `sides`
 * below 2^32 would make the low faces more likely, so they are skipped.
 */
static int draw_real(int *out, est_dice *dice, int sides)
{
	uint64_t n = (uint64_t)sides;
	uint64_t limit = (UINT64_C(1) << 32) - ((UINT64_C(1) << 32) % n);
	uint32_t w = 0;
	int error;

	do
		if ((error = next_word(&w, dice)) < 0)
			return error;
	while (w >= limit);
	*out = (int)(w % n) + 1;
	return 0;
}

static int draw_fixed(int *out, est_dice *dice, int sides, const char *purpose)
{
	int face;

	if (dice->next_face >= dice->face_count)
		return est_error_set(EST_EINVAL,
				     "dice: test stream exhausted after %zu faces (roll of d%d for \"%s\"); "
				     "give the test more faces",
				     dice->face_count, sides, purpose);
	face = dice->faces[dice->next_face];
	if (face < 1 || face > sides)
		return est_error_set(EST_EINVAL,
				     "dice: test stream face %zu is %d, which a d%d cannot show "
				     "(roll for \"%s\"); give a face from 1 to %d",
				     dice->next_face + 1, face, sides, purpose, sides);
	dice->next_face++;
	*out = face;
	return 0;
}

/* Make room for `more` items of `size` bytes in *buf (*cap items); 0 or -1. */
static int reserve(void **buf, size_t *cap, size_t used, size_t more, size_t size)
{
	size_t want = *cap ? *cap : 64;
	void *grown;

	if (more > SIZE_MAX / size - used)
		return -1;
	while (want < used + more)
		want = want > SIZE_MAX / 2 / size ? used + more : want * 2;
	if (want == *cap)
		return 0;
	if (!(grown = realloc(*buf, want * size)))
		return -1;
	*buf = grown;
	*cap = want;
	return 0;
}

static int log_roll(est_dice *dice, int sides, int value, const char *purpose)
{
	size_t len = strlen(purpose) + 1;

	if (reserve((void **)&dice->rolls, &dice->rolls_cap, dice->count, 1, sizeof(*dice->rolls)) < 0 ||
	    reserve((void **)&dice->purposes, &dice->purposes_cap, dice->purposes_len, len, 1) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	memcpy(dice->purposes + dice->purposes_len, purpose, len);
	dice->rolls[dice->count++] = (struct roll){sides, value, dice->purposes_len};
	dice->purposes_len += len;
	return 0;
}

int est_dice_roll(int *out, est_dice *dice, int sides, const char *purpose)
{
	int value = 0, error;

	if (!purpose)
		purpose = "";
	if (sides < 2)
		return est_error_set(EST_EINVAL,
				     "dice: a die needs at least 2 sides, but %d were asked (roll for \"%s\"); "
				     "this is a ruleset bug",
				     sides, purpose);
	if (dice->fixed) {
		if ((error = draw_fixed(&value, dice, sides, purpose)) < 0)
			return error;
	} else if ((error = draw_real(&value, dice, sides)) < 0) {
		return error;
	}
	if ((error = log_roll(dice, sides, value, purpose)) < 0)
		return error;
	*out = value;
	return 0;
}

static int swap_items(json_t *array, size_t i, size_t j)
{
	json_t *a = json_incref(json_array_get(array, i));
	json_t *b = json_incref(json_array_get(array, j));

	/* json_array_set_new takes the references even when it fails. */
	if (json_array_set_new(array, i, b) < 0 || json_array_set_new(array, j, a) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

int est_dice_shuffle(json_t *array, est_dice *dice, const char *purpose)
{
	size_t n, i;
	char *label = NULL;
	int face, error = 0;

	if (!purpose)
		purpose = "";
	if (!json_is_array(array))
		return est_error_set(EST_EINVAL, "dice: shuffle for \"%s\" was given something "
				     "that is not a JSON array; this is a ruleset bug", purpose);
	n = json_array_size(array);
	if (n > (size_t)INT_MAX)
		return est_error_set(EST_EINVAL, "dice: shuffle for \"%s\" of %zu items is too "
				     "large (at most %d)", purpose, n, INT_MAX);
	for (i = n; i-- > 1;) {
		if (!(label = est_strdup_printf("%s: position %zu", purpose, i))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		if ((error = est_dice_roll(&face, dice, (int)(i + 1), label)) < 0)
			goto out;
		if ((size_t)(face - 1) != i && (error = swap_items(array, i, (size_t)(face - 1))) < 0)
			goto out;
		free(label);
		label = NULL;
	}
out:
	free(label);
	return error;
}

const json_t *est_dice_log(est_dice *dice)
{
	for (size_t i = json_array_size(dice->log); i < dice->count; i++) {
		const struct roll *r = &dice->rolls[i];
		json_t *entry = json_pack("{s:i, s:i, s:s}", "sides", r->sides, "value", r->value,
					  "purpose", dice->purposes + r->purpose);

		if (!entry || json_array_append_new(dice->log, entry) < 0)
			return NULL;
	}
	return dice->log;
}

size_t est_dice_count(const est_dice *dice)
{
	return dice->count;
}
