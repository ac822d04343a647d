/* estafette site GAME [DIR]: the game's public history as a static web site */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "opt.h"
#include "util/error.h"

static const struct est_opt site_opts[] = {
	{NULL}
};

static const struct est_opt_cmd site_cmd = {"site", "GAME [DIR]", 1, 2, site_opts,
	"  DIR: a new or empty folder, or an earlier site of this game;\n"
	"  without it, the folder git config estafette.sitedir names in the game's repository"};

static void print_summary(const json_t *summary)
{
	printf("%s: site of step %lld in %s: %d files, %d written, %d removed; open %s/index.html\n",
	       json_string_value(json_object_get(summary, "game")),
	       (long long)json_integer_value(json_object_get(summary, "step")),
	       json_string_value(json_object_get(summary, "dir")),
	       (int)json_integer_value(json_object_get(summary, "files")),
	       (int)json_integer_value(json_object_get(summary, "written")),
	       (int)json_integer_value(json_object_get(summary, "removed")),
	       json_string_value(json_object_get(summary, "dir")));
}

int cmd_site(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	json_t *summary = NULL;
	char *dir = NULL;
	int error, status;

	if ((error = est_opt_parse(&a, &site_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if (!(dir = a.count > 1 ? strdup(a.args[1]) : est_engine_site_dir(game)))
		error = est_error_set(EST_EUSAGE, "no DIR given and git config estafette.sitedir is not set "
				      "in %s; give the site's folder, or set it with git config "
				      "estafette.sitedir DIR", est_store_path(game->store));
	else
		error = est_engine_site(&summary, game, dir);
	if (error < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	a.json ? cmd_print_json(summary) : print_summary(summary);
	cmd_print_warnings(game->warnings);
out:
	free(dir);
	json_decref(summary);
	est_game_free(game);
	return status;
}
