# cmocka tests of util alone (tests/unit/unicode_test.c).
TEST_DEPS_unicode := util
