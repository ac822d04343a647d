/*
 * Dice throughput against its floor, measured in one run: rolls of d6 per
 * second from est_dice_roll, against raw HMAC-SHA256 blocks per second
 * through OpenSSL (each block yields eight words, so a d6 costs at most one
 * eighth of a block plus the roll log). Prints a table and one JSON line.
 */
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dice/dice.h"

#define REPEATS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int with_json_log;

/*
 * Rolls per second of one fresh stream making `n` d6 rolls; with
 * `with_json_log`, the roll log is also turned into the JSON that dice.json
 * records (once, at the end, as a step does).
 */
static double rolls_per_second(long n)
{
	unsigned char seed[32] = {1};
	est_dice *dice = NULL;
	double start;
	int face;

	if (est_dice_new(&dice, seed) < 0)
		exit(1);
	start = now();
	for (long i = 0; i < n; i++)
		if (est_dice_roll(&face, dice, 6, "bench") < 0)
			exit(1);
	if (with_json_log && !est_dice_log(dice))
		exit(1);
	start = now() - start;
	est_dice_free(dice);
	return (double)n / start;
}

/* Raw HMAC-SHA256 blocks per second (one-shot HMAC over 36 bytes, as a block is). */
static double hmac_per_second(long n)
{
	unsigned char key[32] = {1}, msg[36] = {0}, out[32];
	unsigned int len;
	double start = now();

	for (long i = 0; i < n; i++) {
		msg[35] = (unsigned char)i;
		if (!HMAC(EVP_sha256(), key, 32, msg, sizeof(msg), out, &len))
			exit(1);
	}
	return (double)n / (now() - start);
}

static void measure(double *median, double *spread, double (*fn)(long), long n)
{
	double v[REPEATS];

	for (int i = 0; i < REPEATS; i++)
		v[i] = fn(n);
	qsort(v, REPEATS, sizeof(v[0]), cmp_double);
	*median = v[REPEATS / 2];
	*spread = (v[REPEATS - 1] - v[0]) / *median;
}

/* dice_bench [N]: each measure makes N rolls or blocks (400,000 unless given). */
int main(int argc, char **argv)
{
	double rolls, rolls_spread, logged, logged_spread, hmac, hmac_spread;
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 400000;

	if (n < 1) {
		fprintf(stderr, "dice_bench: N must be a positive count of rolls\n");
		return 64;
	}
	measure(&rolls, &rolls_spread, rolls_per_second, n);
	with_json_log = 1;
	measure(&logged, &logged_spread, rolls_per_second, n);
	measure(&hmac, &hmac_spread, hmac_per_second, n);
	printf("%-34s %14s %8s\n", "measure", "per second", "spread");
	printf("%-34s %14.0f %7.1f%%\n", "d6 rolls (est_dice_roll)", rolls, 100 * rolls_spread);
	printf("%-34s %14.0f %7.1f%%\n", "d6 rolls, with the JSON log", logged, 100 * logged_spread);
	printf("%-34s %14.0f %7.1f%%\n", "raw HMAC-SHA256 blocks (OpenSSL)", hmac, 100 * hmac_spread);
	printf("%-34s %14.2f\n", "d6 rolls in one raw HMAC's time", rolls / hmac);
	printf("{\"bench\": \"dice\", \"rolls_per_second\": %.0f, \"logged_rolls_per_second\": %.0f, "
	       "\"hmac_per_second\": %.0f, \"ratio\": %.3f, \"repeats\": %d}\n", rolls, logged, hmac,
	       rolls / hmac, REPEATS);
	return 0;
}
