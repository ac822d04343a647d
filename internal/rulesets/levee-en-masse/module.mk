# Levée en Masse ruleset: its cmocka tests (tests/unit/lem_*_test.c).
TEST_DEPS_lem_rules := util dice rulesets/common rulesets/levee-en-masse
TEST_DEPS_lem_report := util dice render rulesets/common rulesets/levee-en-masse
