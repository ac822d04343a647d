/*
 * Commitments to hidden parts (seal/seal.h). The expected values were
 * computed independently with Python's hmac and hashlib:
 *   key   = SHA-256("estafette seal test")
 *   nonce = HMAC-SHA256(key, enc("estafette/seal/v1") || enc(path))
 *   value = SHA-256(nonce || json.dumps(v, separators=(",", ":"), sort_keys=True))
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "seal/seal.h"
#include "util/error.h"
#include "util/util.h"

#define HAND_FRANCE "8ded158dcf912d55f0709271b1ba2e35c77eecc9a3f3ed87a7fb8f5b5d6af744"
#define STANDING_ALLIES "92b675d59855ff0444d25e5e2ad2b59951c4c3bc2d6db9cd715a67df1c7286a3"
#define EMPTY_DECK "0a336ca0e0138653647c7c8aeffd871653355e54ff457648447ea720cb8a2536"

static void test_key(unsigned char key[32])
{
	est_sha256(key, "estafette seal test", strlen("estafette seal test"));
}

static json_t *parse(const char *text)
{
	json_t *v = json_loads(text, 0, NULL);

	assert_non_null(v);
	return v;
}

static void commitment_matches_python(void **state)
{
	unsigned char key[32];
	char hex[65];
	json_t *hand = parse("[\"austerlitz\", \"toulon\"]");
	json_t *standing = parse("{\"retreats\": {}, \"plays\": {\"Austria\": \"x\"}}");
	json_t *deck = parse("[]");

	(void)state;
	test_key(key);
	assert_int_equal(est_seal_commitment(hex, key, "/hands/France", hand), 0);
	assert_string_equal(hex, HAND_FRANCE);
	/* Keys are sorted before hashing: the order they were written in does not matter. */
	assert_int_equal(est_seal_commitment(hex, key, "/standing/Allies", standing), 0);
	assert_string_equal(hex, STANDING_ALLIES);
	assert_int_equal(est_seal_commitment(hex, key, "/deck", deck), 0);
	assert_string_equal(hex, EMPTY_DECK);
	json_decref(hand);
	json_decref(standing);
	json_decref(deck);
}

static void same_value_other_path_or_key_differs(void **state)
{
	unsigned char key[32];
	char a[65], b[65], c[65];
	json_t *hand = parse("[\"austerlitz\", \"toulon\"]");

	(void)state;
	test_key(key);
	assert_int_equal(est_seal_commitment(a, key, "/hands/France", hand), 0);
	assert_int_equal(est_seal_commitment(b, key, "/hands/Allies", hand), 0);
	key[0] ^= 1;
	assert_int_equal(est_seal_commitment(c, key, "/hands/France", hand), 0);
	assert_string_not_equal(a, b);
	assert_string_not_equal(a, c);
	json_decref(hand);
}

static void state_parts_are_replaced(void **state)
{
	unsigned char key[32];
	json_t *full = parse("{\"turn\": 3, \"deck\": [], \"hands\": {\"France\": [\"austerlitz\", "
			     "\"toulon\"], \"Allies\": []}, \"standing\": {\"Allies\": {\"retreats\": {}, "
			     "\"plays\": {\"Austria\": \"x\"}}}}");
	json_t *paths = parse("[\"/hands/France\", \"/standing/Allies\", \"/deck\", \"/attack/plays\"]");
	json_t *pub = NULL, *before = json_deep_copy(full);

	(void)state;
	test_key(key);
	assert_int_equal(est_seal_state(&pub, full, paths, key), 0);
	assert_true(json_equal(full, before)); /* the whole state is left alone */
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(pub, "hands"),
		"France"), "sealed")), HAND_FRANCE);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(pub, "hands"),
		"France"), "count")), 2);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(pub, "standing"),
		"Allies"), "sealed")), STANDING_ALLIES);
	assert_null(json_object_get(json_object_get(json_object_get(pub, "standing"), "Allies"), "count"));
	assert_string_equal(json_string_value(json_object_get(json_object_get(pub, "deck"), "sealed")), EMPTY_DECK);
	/* Not named: left as it is. Named but absent (no attack now): skipped. */
	assert_true(json_is_array(json_object_get(json_object_get(pub, "hands"), "Allies")));
	assert_int_equal(json_integer_value(json_object_get(pub, "turn")), 3);
	assert_null(json_object_get(pub, "attack"));
	json_decref(pub);
	json_decref(before);
	json_decref(paths);
	json_decref(full);
}

static void bad_pointers_are_refused(void **state)
{
	static const char *const bad[] = {"hands", "/hands/", "/a//b", "/a~1b", ""};
	unsigned char key[32];
	json_t *full = parse("{\"hands\": {}}"), *pub = NULL;

	(void)state;
	test_key(key);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *paths = json_pack("[s]", bad[i]);
		assert_int_equal(est_seal_state(&pub, full, paths, key), EST_EINVAL);
		assert_non_null(strstr(est_error_message(), "JSON pointer"));
		json_decref(paths);
	}
	json_decref(full);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(commitment_matches_python),
		cmocka_unit_test(same_value_other_path_or_key_differs),
		cmocka_unit_test(state_parts_are_replaced),
		cmocka_unit_test(bad_pointers_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
