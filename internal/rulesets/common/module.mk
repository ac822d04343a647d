# What every ruleset shares. tests/unit/ruleset_contract_test.c runs every
# registered ruleset, and the test suite's toy ruleset beside them, through
# the contract of rulesets/ruleset.h; it links the whole library (for the
# registry) and the toy.
$(B)/tests/ruleset_contract_test: $(B)/tests/unit/toy_ruleset.o
