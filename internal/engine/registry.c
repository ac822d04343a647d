#include <string.h>

#include "engine/engine.h"
#include "rulesets/campaign/campaign.h"
#include "rulesets/la-guerre/la_guerre.h"
#include "rulesets/levee-en-masse/levee_en_masse.h"
#include "rulesets/napoleonic-empire/napoleonic_empire.h"

/*
 * Every ruleset estafette ships, one entry each (docs/adding-a-ruleset.md);
 * the engine reaches games only through here. A ruleset's name is its own
 * table's (est_ruleset.name), never written a second time.
 */
static const est_ruleset *const rulesets[] = {
	&est_ruleset_napoleonic_empire,
	&est_ruleset_la_guerre,
	&est_ruleset_levee_en_masse,
	&est_ruleset_campaign,
};

#define RULESET_COUNT (sizeof(rulesets) / sizeof(rulesets[0]))

const est_ruleset *est_engine_ruleset(const char *name)
{
	for (size_t i = 0; i < RULESET_COUNT; i++)
		if (name && strcmp(rulesets[i]->name, name) == 0)
			return rulesets[i];
	return NULL;
}

/* Filled from the tables on first use: a name is not a constant expression C can initialise with. */
const char *const *est_engine_ruleset_names(void)
{
	static const char *names[RULESET_COUNT + 1];

	if (!names[0])
		for (size_t i = 0; i < RULESET_COUNT; i++)
			names[i] = rulesets[i]->name;
	return names;
}
