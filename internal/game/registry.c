#include <string.h>

#include "game/game.h"
#include "util/error.h"
#include "util/util.h"
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

const est_ruleset *est_game_ruleset(const char *name)
{
	for (size_t i = 0; i < sizeof(rulesets) / sizeof(rulesets[0]); i++)
		if (name && strcmp(rulesets[i]->name, name) == 0)
			return rulesets[i];
	return NULL;
}

const char *const *est_game_ruleset_names(void)
{
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
