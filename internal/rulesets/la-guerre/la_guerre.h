/*
 * La Guerre de l'Empereur (seeds/la-guerre-de-l-empereur-2002-update.txt):
 * the 2002 rules update — entering provinces held by enemy armies (5.513),
 * the strategic battle sequence (5.612), the battle options (5.616),
 * pursuit and France's Continental System embargo (4.241) — played in a
 * campaign scenario of central Europe, 1805. The map, ratings and tables
 * the seed does not give are placeholder data (data/, "provenance").
 * Rulings are in RULINGS.md; orders, steps and the view in README.md, both
 * beside this header.
 *
 * Rules data: rules = {"map", "leaders", "tables", "scenario"} (the files of
 * data/). Powers: France, Austria, Russia, Britain. Steps: "turn"
 * (sequential for France, simultaneous for the Coalition's powers),
 * "battle-step-4", "battle-step-5", "battle-step-6", "retreat"
 * (sequential, the power the rules name), "winter" (automatic), "over".
 */
#ifndef EST_RULESETS_LA_GUERRE_H
#define EST_RULESETS_LA_GUERRE_H

#include "rulesets/ruleset.h"

/*
 * The ruleset table (rulesets/ruleset.h documents each function, its
 * ownership rules and its errors: EST_EINVAL for refused orders, an
 * unknown option or rules data that lack what the rules need, EST_ERROR
 * for a state this ruleset did not write, EST_ENOMEM).
 */
extern const est_ruleset est_ruleset_la_guerre;

#endif
