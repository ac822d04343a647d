/*
 * Napoleonic Empire (seeds/napoleonic-empire.txt): two players, France and
 * the Allies, on a seventeen-country map of Europe circa 1800, with a deck
 * of 32 cards. Rulings where the seed is silent are in RULINGS.md; the
 * order format and the view are in README.md, both beside this header.
 *
 * The ruleset reads its rules data from `rules` = {"map", "cards",
 * "reinforcements", "setup", "rulings"} (the files of data/).
 * Powers: "France", then "Allies". Steps: "start" (automatic: first
 * shuffle with the hidden stream, French Draw Phase), "turn" (sequential),
 * "battle-cards" (simultaneous), "retreat" (sequential, the loser), "over".
 */
#ifndef EST_RULESETS_NAPOLEONIC_EMPIRE_H
#define EST_RULESETS_NAPOLEONIC_EMPIRE_H

#include "rulesets/ruleset.h"

/*
 * The ruleset table (rulesets/ruleset.h documents each function, its
 * ownership rules and its errors: EST_EINVAL for refused orders or a rules
 * data file that lacks what the seed gives, EST_ERROR for a state that is
 * not one this ruleset wrote, EST_ENOMEM).
 */
extern const est_ruleset est_ruleset_napoleonic_empire;

#endif
