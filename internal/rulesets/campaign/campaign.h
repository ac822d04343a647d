/*
 * Campaign (John Waddington Ltd, 1971; seeds/campaign-waddington-1971.txt):
 * two to four generals on a square grid of Europe — Generals, infantry and
 * cavalry moved by a shared throw of two dice, attacks won by position,
 * towns, capitals, and alliances made and broken. Both the Introductory and
 * the Standard game (option game=). The board is a reconstruction
 * (data/board.json, "provenance": "reconstructed"). Rulings are in
 * RULINGS.md; orders, steps and the view in README.md.
 *
 * Rules data: rules = {"board"}. Powers: France, Russia, Austria, Spain,
 * Prussia — the countries the players choose as bases (powers_optional:
 * the others stay out). Steps: "start" (automatic: the order of play,
 * §9), "turn" (sequential: the active country), "over".
 */
#ifndef EST_RULESETS_CAMPAIGN_H
#define EST_RULESETS_CAMPAIGN_H

#include "rulesets/ruleset.h"

/*
 * The ruleset table (rulesets/ruleset.h documents each function, its
 * ownership rules and its errors: EST_EINVAL for refused orders, players
 * or options §1 does not allow, or a board the rules cannot play;
 * EST_ERROR for a state this ruleset did not write; EST_ENOMEM).
 */
extern const est_ruleset est_ruleset_campaign;

#endif
