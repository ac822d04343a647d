/*
 * Levée en Masse with its Expansion Kit (seeds/levee-en-masse-expansion-kit.txt):
 * a solitaire game of the French Revolution in the States of Siege family.
 * Each turn a Headline card advances enemy Armies along tracks toward
 * Paris, shifts the Political markers and gives the player Actions. The
 * base game, which the seed does not hold, is rebuilt with placeholder data
 * (data/, "provenance"). Rulings are in RULINGS.md; orders, steps, options
 * and the view in README.md, both beside this header.
 *
 * Rules data: rules = {"tracks", "armies", "cards", "tables", "setup"}.
 * One power: "Republic". Steps: "start" (automatic: the decks dealt and the
 * first Headline card drawn, with the hidden stream), "actions"
 * (sequential: the turn's Actions, then Housekeeping and the next card),
 * "over".
 */
#ifndef EST_RULESETS_LEVEE_EN_MASSE_H
#define EST_RULESETS_LEVEE_EN_MASSE_H

#include "rulesets/ruleset.h"

/*
 * The ruleset table (rulesets/ruleset.h documents each function, its
 * ownership rules and its errors: EST_EINVAL for refused orders, an
 * unknown option or rules data the rules cannot play, EST_ERROR for a
 * state this ruleset did not write, EST_ENOMEM).
 */
extern const est_ruleset est_ruleset_levee_en_masse;

#endif
