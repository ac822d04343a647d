/*
 * Duel, a toy ruleset that exists only in the test suite. It is written as
 * docs/adding-a-ruleset.md tells a newcomer to write a fifth game, and
 * tests/unit/ruleset_contract_test.c runs it through the same contract as
 * the rulesets estafette ships: a ruleset needs nothing but its own files
 * and one entry in the registry. Not linked into estafette.
 *
 * Two powers, Red then Blue, and a deck of numbered cards. Rules data:
 * rules = {"deck": {"provenance", "cards": [values], "hand": cards dealt
 * to each power, "target": rounds that win}} (what data/deck.json would
 * hold). Option: target=N (1 to 9) overrides the rules' target.
 * Steps: "deal" (automatic: the deck is shuffled with the hidden stream and
 * each power dealt its hand), "play" (simultaneous: each power plays one
 * card; the higher wins the round, a tie goes to a public d2; each then
 * draws while the deck lasts), "over" (a power has won `target` rounds or
 * the hands are out). The deck and the hands are hidden (sealed()).
 */
#ifndef EST_TESTS_TOY_RULESET_H
#define EST_TESTS_TOY_RULESET_H

#include "rulesets/ruleset.h"

/* The ruleset table (rulesets/ruleset.h documents each function and its errors). */
extern const est_ruleset est_ruleset_toy;

#endif
