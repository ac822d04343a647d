/*
 * Which host runs a game when N hosts share a folder of games
 * (engine/overview.c est_overview_shard, docs/hosting.md "Running the same
 * games from several hosts"). The expected shards were worked out apart
 * from the code, with the one line of Python the guide gives:
 *
 *   python3 -c 'import hashlib,sys; print(int.from_bytes(hashlib.sha256(
 *       sys.argv[1].encode()).digest()[:8], "big") % int(sys.argv[2]) + 1)' ID N
 *
 * e.g. "ne-001": its SHA-256 starts 93 8a 0d b6 c3 58 1a f3, and
 * 0x938a0db6c3581af3 = 10631324948974017267, which is 0 modulo 3: plus 1,
 * shard 1 of 3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "util/error.h"

static unsigned shard_of(const char *id, unsigned n)
{
	unsigned shard = 0;

	assert_int_equal(est_overview_shard(&shard, id, n), 0);
	return shard;
}

/* Ids whose shards Python gave, for N of 1, 2, 3, 7 and 1000. */
static void shards_match_the_python_line(void **state)
{
	(void)state;
	assert_int_equal(shard_of("ne-001", 3), 1);
	assert_int_equal(shard_of("ne-001", 2), 2);
	assert_int_equal(shard_of("ne-001", 1000), 268);
	assert_int_equal(shard_of("ne-004", 3), 2);
	assert_int_equal(shard_of("ne-004", 1000), 328);
	assert_int_equal(shard_of("g02", 3), 3);
	assert_int_equal(shard_of("g02", 2), 1);
	assert_int_equal(shard_of("g02", 1000), 223);
	assert_int_equal(shard_of("g01", 7), 7);
	assert_int_equal(shard_of("levee-2027", 7), 6);
	assert_int_equal(shard_of("levee-2027", 1000), 717);
	/* the id's UTF-8 bytes are hashed, as Python's str.encode() gives them */
	assert_int_equal(shard_of("\xc3\xa9-\xc3\xbc", 3), 3);
	assert_int_equal(shard_of("\xc3\xa9-\xc3\xbc", 7), 3);
}

/* One host runs every game. */
static void one_host_runs_all(void **state)
{
	(void)state;
	assert_int_equal(shard_of("ne-001", 1), 1);
	assert_int_equal(shard_of("g02", 1), 1);
	assert_int_equal(shard_of("", 1), 1);
}

/* Every shard is from 1 to N, and over many ids each one gets some. */
static void shards_cover_1_to_n(void **state)
{
	unsigned seen[8] = {0};
	char id[16];

	(void)state;
	for (int i = 0; i < 240; i++) {
		unsigned s;

		snprintf(id, sizeof(id), "g%03d", i);
		s = shard_of(id, 7);
		assert_in_range(s, 1, 7);
		seen[s]++;
	}
	for (unsigned s = 1; s <= 7; s++)
		assert_true(seen[s] > 10);
}

static void refuses_zero_and_too_many_hosts(void **state)
{
	unsigned shard = 99;

	(void)state;
	assert_int_equal(est_overview_shard(&shard, "ne-001", 0), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "1 to 1000 hosts"));
	est_error_clear();
	assert_int_equal(est_overview_shard(&shard, "ne-001", EST_OVERVIEW_SHARDS_MAX + 1), EST_EINVAL);
	est_error_clear();
	assert_int_equal(shard, 99);
	assert_int_equal(shard_of("ne-001", EST_OVERVIEW_SHARDS_MAX), 268);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shards_match_the_python_line),
		cmocka_unit_test(one_host_runs_all),
		cmocka_unit_test(shards_cover_1_to_n),
		cmocka_unit_test(refuses_zero_and_too_many_hosts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
