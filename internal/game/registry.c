/*
 * The rulesets this estafette has, by name, and the folder their data and
 * the report templates are read from.
 */
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "util/error.h"
#include "util/util.h"
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

const est_ruleset *est_game_ruleset(const char *name)
{
	for (size_t i = 0; i < RULESET_COUNT; i++)
		if (name && strcmp(rulesets[i]->name, name) == 0)
			return rulesets[i];
	return NULL;
}

/* Filled from the tables on first use: a name is not a constant expression C can initialise with. */
const char *const *est_game_ruleset_names(void)
{
	static const char *names[RULESET_COUNT + 1];

	if (!names[0])
		for (size_t i = 0; i < RULESET_COUNT; i++)
			names[i] = rulesets[i]->name;
	return names;
}

char *est_game_datadir(const char *subdir)
{
	const char *env = getenv("ESTAFETTE_DATA");
	char *path;

	if (env && *env)
		return est_strdup_printf("%s/%s", env, subdir);
	/* The source tree lays ruleset data beside the code (internal/rulesets). */
	path = est_strdup_printf("%s/%s%s", EST_SOURCE_DIR,
				 strncmp(subdir, "rulesets/", 9) == 0 ? "internal/" : "", subdir);
	if (path && est_path_exists(path))
		return path;
	free(path);
	path = est_strdup_printf("%s/%s", EST_DATADIR, subdir);
	if (path && est_path_exists(path))
		return path;
	free(path);
	est_error_set(EST_ECONFIG, "%s: not found in $ESTAFETTE_DATA, the source tree or %s; "
		      "set ESTAFETTE_DATA to estafette's share folder", subdir, EST_DATADIR);
	return NULL;
}
