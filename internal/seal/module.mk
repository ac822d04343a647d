# cmocka tests of the seal module (tests/unit/seal_test.c).
TEST_DEPS_seal := util seal
