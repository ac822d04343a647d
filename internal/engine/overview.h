/*
 * Many games on one host (`estafette run --all DIR`, `estafette status
 * --all DIR`): finding the games in a folder, telling a folder that is not a
 * game from a game whose repository is damaged, and one game's overview for
 * the GM: the step, whom it awaits, the deadline, the missed steps per
 * player and what needs the GM.
 *
 * Nothing here writes to a game or caches anything on disk; the overview
 * only takes the game's lock for an instant to see whether someone holds it.
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_ENGINE_OVERVIEW_H
#define EST_ENGINE_OVERVIEW_H

#include <jansson.h>
#include <stddef.h>
#include <time.h>

#include "engine/engine.h"

/* Fewer dice chain values left than this is a thing the GM must plan for. */
#define EST_OVERVIEW_DICE_LOW 100

/*
 * The folders directly under `dir` that may hold games: every entry that is
 * a folder (or a symbolic link to one) and whose name does not start with
 * '.', in strcmp order, as paths "dir/name". *paths_out is a new
 * NULL-terminated array of *count_out strings, freed with
 * est_overview_paths_free.
 *
 * Errors: EST_ENOTFOUND (`dir` does not exist or is not a folder), EST_EIO
 * (it cannot be read), EST_ENOMEM.
 */
int est_overview_scan(char ***paths_out, size_t *count_out, const char *dir);

/* Free what est_overview_scan returned (NULL is fine). */
void est_overview_paths_free(char **paths);

/*
 * Open the game at `path`, found by est_overview_scan, as est_game_open
 * does, but tell three cases apart:
 *
 *   - a game: returns 0, *is_game_out 1, *out the open game (caller frees
 *     with est_game_free);
 *   - not a game (no repository at `path`, or a repository with neither a
 *     game.json on main nor the tag step-0000 that `estafette new` makes):
 *     returns 0, *is_game_out 0, *out NULL; pass it over;
 *   - a game that cannot be read (the repository is damaged: main missing
 *     while step-0000 exists, an object that git cannot read, a file that
 *     does not parse): returns the error, *is_game_out 1, *out NULL, and the
 *     message starts with `path`.
 *
 * Errors: EST_ENOTFOUND (a part of the game is missing), EST_EINVAL (a file
 * does not parse), EST_ECONFIG (unknown ruleset, repository of another
 * user, no $ESTAFETTE_HOME), EST_ERROR (git cannot read the repository),
 * EST_ENOMEM.
 */
int est_overview_open(est_game **out, int *is_game_out, const char *path);

/*
 * The GM's overview of `game` at time `now` (seconds since the epoch), in
 * *out (caller decrefs):
 *
 *   {"game": id, "path": the repository's folder, "ruleset",
 *    "step": the next step, "kind", "mode", "over": bool,
 *    "deadline": ISO time or null, "deadline_passed": bool,
 *    "awaiting": [{"player", "received": bool, "committed": bool (sealed
 *                  orders only)}],
 *    "missed": {player id: how many resolved steps list that player under
 *               "missing" in turns/NNNN/manifest.json},
 *    "mail_pending": messages waiting in $ESTAFETTE_HOME/outbox/<id>/pending,
 *    "dice_left": steps the dice chain can still resolve,
 *    "locked": bool,
 *    "needs_gm": [{"reason", "message"}]}
 *
 * "reason" is one of "deadline-passed" (the deadline passed but the step
 * is not resolved: run it), "due" (an automatic step waits for a run),
 * "over" (the game is over), "mail" (mail waits in the outbox), "dice"
 * (fewer than EST_OVERVIEW_DICE_LOW chain values left), "locked" (another
 * process holds the game's lock: probed with a non-blocking est_store_lock,
 * released at once), "lock" (the lock file cannot be opened); "message"
 * tells the GM what it is and what to do.
 *
 * Errors: those of est_game_pending; EST_EINVAL (a manifest does not
 * parse); EST_EIO (the outbox cannot be read); EST_ERROR (libgit2);
 * EST_ENOMEM.
 */
int est_overview_game(json_t **out, est_game *game, time_t now);

/*
 * The overview entry of a game that cannot be read, for the same list:
 * {"game": the folder's base name, "path", "error": est_error_name(code),
 * "exit": its sysexits code, "message", "needs_gm": [{"reason":
 * "unreadable", "message"}]}, in *out (caller decrefs). `message` is the
 * error's text. Errors: EST_ENOMEM.
 */
int est_overview_unreadable(json_t **out, const char *path, int code, const char *message);

#endif
