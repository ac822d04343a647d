# cmocka tests of the dice module (tests/unit/dice_test.c).
TEST_DEPS_dice := util dice
