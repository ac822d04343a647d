#include <string.h>

#include "engine/engine.h"
#include "rulesets/campaign/campaign.h"
#include "rulesets/la-guerre/la_guerre.h"
#include "rulesets/levee-en-masse/levee_en_masse.h"
#include "rulesets/napoleonic-empire/napoleonic_empire.h"

/* Every ruleset estafette ships; the engine reaches games only through here. */
static const est_ruleset *const rulesets[] = {
	&est_ruleset_napoleonic_empire,
	&est_ruleset_la_guerre,
	&est_ruleset_levee_en_masse,
	&est_ruleset_campaign,
};

static const char *const names[] = {
	"napoleonic-empire",
	"la-guerre",
	"levee-en-masse",
	"campaign",
	NULL,
};

const est_ruleset *est_engine_ruleset(const char *name)
{
	for (size_t i = 0; i < sizeof(rulesets) / sizeof(rulesets[0]); i++)
		if (name && strcmp(rulesets[i]->name, name) == 0)
			return rulesets[i];
	return NULL;
}

const char *const *est_engine_ruleset_names(void)
{
	return names;
}
