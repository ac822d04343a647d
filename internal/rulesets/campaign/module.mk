# Campaign ruleset: its cmocka tests (tests/unit/cp_*_test.c).
TEST_DEPS_cp_rules := util dice rulesets/common rulesets/campaign
TEST_DEPS_cp_report := util dice render rulesets/common rulesets/campaign
