# La Guerre de l'Empereur ruleset: its cmocka tests (tests/unit/lg_*_test.c).
TEST_DEPS_lg_battle := util dice rulesets/common rulesets/la-guerre
TEST_DEPS_lg_campaign := util dice rulesets/common rulesets/la-guerre
TEST_DEPS_lg_report := util dice render rulesets/common rulesets/la-guerre
TEST_DEPS_lg_data := util dice rulesets/common rulesets/la-guerre
