# Napoleonic Empire ruleset: its cmocka tests (tests/unit/ne_*_test.c).
TEST_DEPS_ne_map := util dice rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_cards := util dice rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_battle := util dice rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_turn := util dice rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_validate := util dice rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_report := util dice render rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_play := util dice rulesets/common rulesets/napoleonic-empire
TEST_DEPS_ne_options := util dice rulesets/common rulesets/napoleonic-empire
