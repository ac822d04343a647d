# Levée en Masse ruleset: its cmocka tests (tests/unit/lem_*_test.c); lem_seal seals states as the engine does.
TEST_DEPS_lem_rules := util dice rulesets/common rulesets/levee-en-masse
TEST_DEPS_lem_report := util dice render rulesets/common rulesets/levee-en-masse
TEST_DEPS_lem_seal := util dice seal rulesets/common rulesets/levee-en-masse
