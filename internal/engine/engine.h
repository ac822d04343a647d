/*
 * The engine's front: the commands that drive a game end to end (`new`,
 * `run`, `gm`, `reveal`, `mail`, challenges), each built from game/,
 * turn/, intake/ and step/, each taking the game's lock where it writes.
 *
 * Errors follow util/error.h; each function lists the codes it returns.
 */
#ifndef EST_ENGINE_ENGINE_H
#define EST_ENGINE_ENGINE_H

#include <jansson.h>
#include <stddef.h>
#include <time.h>

#include "game/game.h"
#include "intake/intake.h"

/* Options of `estafette new`. */
typedef struct {
	const char *dir;          /* the folder to create the repository in */
	const char *id;           /* game id; NULL: the folder's base name */
	const char *ruleset;      /* "napoleonic-empire" */
	const char *players_file; /* docs/gm-guide.md "The players file" */
	const char *gm_key;       /* a public key file for the GM, or NULL */
	json_t *options;          /* {"scenario": ..., K: V}; borrowed, may be NULL */
	const char *signing_key;  /* the GM's private key file: every commit and tag is
	                             signed with it (git config estafette.signingkey) */
	const char *dice_protocol; /* "v2" (NULL) or "v1": docs/protocol.md "Dice protocol v2"; v1 only to make
	                              a game as earlier versions did */
	const char *test_secret;  /* sample games only: dice secrets anyone can
	                             recompute from this text (game.json says so) */
	int deadline_hours;       /* 0: no deadline, steps wait for every order */
	int reminder_hours;       /* 0: no reminders; else that long before a deadline */
	int sealed;               /* hidden parts only as commitments on public refs */
	int sealed_orders;        /* simultaneous steps: commitments first, then reveals */
	const char *press;        /* "full" (NULL), "public" or "none" (press.c) */
	int press_by_mail;        /* press is also mailed to its readers at once */
	const json_t *schedule;   /* `new --schedule FILE` (est_schedule_check'ed), or NULL;
	                             the hour options above win over its fields */
	int reveal_hours;         /* sealed orders: how long after the deadline reveals wait */
	const char *rules_dir;    /* `new --rules DIR`: its NAME.json files replace the ruleset's
	                             data files of the same name in this game's rules/ */
	const char *deal;         /* `new --deal NAME`: start the deal NAME (game.json "deal") */
	const char *deal_from;    /* `new --deal-from GAME`: join GAME's deal (deal.c) */
} est_new_options;

/*
 * Create a game: a new repository at opts->dir with game.json,
 * keys/allowed_signers, rules/, state.json (the ruleset's set-up) and
 * .gitattributes as step 0, tagged step-0000. The dice chain secrets go to
 * $ESTAFETTE_HOME/games/<id>/secrets.json (mode 0600), never into the
 * repository. *summary_out (caller decrefs) tells who got which powers.
 *
 * Errors: EST_EINVAL (players file, options), EST_ENOTFOUND (players file,
 * ruleset data), EST_ECONFIG (no $ESTAFETTE_HOME or $HOME), EST_EIO.
 */
int est_engine_new(json_t **summary_out, const est_new_options *opts);

/*
 * Resolve every step that is due, one commit and tag each, until the game
 * waits on a player or a deadline or is over; then queue each player's
 * report in the outbox and deliver the outbox (est_game_deliver). Takes
 * the game's lock. *summary_out (caller decrefs): {"game", "resolved":
 * [step numbers], "waiting": pending (as est_intake_pending), "mail":
 * {"sent", "pending", "outbox"}, "site": est_engine_site's summary when
 * git config estafette.sitedir made the run rewrite the site
 * (est_engine_site_update; a site it could not write is a warning)}.
 *
 * Errors: EST_ELOCKED, EST_ETEMPFAIL (main moved, SMTP unreachable: the
 * steps are committed, the mail waits in the outbox), EST_EINVAL/EST_ESIG
 * (a recorded order no longer verifies), EST_ECONFIG (among others: the
 * dice secrets are missing here for a game that is not over, checked even
 * when nothing is due), EST_ERROR (ruleset), EST_EIO.
 *
 * Every run first removes the game's next-due record, and one that trusted
 * its clock and left nothing to do writes a new one (est_next_due_forget,
 * est_next_due_save).
 *
 * `flags`: EST_RUN_NO_MAIL queues the reports but sends nothing ("mail" is
 * then absent from the summary): a runner that must first publish its steps
 * (hooks/run-and-push) sends them with est_engine_mail once they are on the
 * host, never the reports of a step another runner's push replaced.
 * EST_RUN_FORCE: the GM resolves by deadline past the outage guard and the
 * "wait" policy (the manifest records it). EST_RUN_CONFIRM_CLOCK: the GM
 * confirms the clock that est_clock_check did not trust. Without it, a
 * clock behind the last run's or too far ahead resolves nothing by deadline
 * (steps whose orders are all in still resolve).
 */
#define EST_RUN_NO_MAIL 1u
#define EST_RUN_FORCE 2u
#define EST_RUN_CONFIRM_CLOCK 4u
int est_engine_run(json_t **summary_out, est_game *game, time_t now, unsigned flags);

/*
 * Queue the reports of step `step` for every player (idempotent: a report
 * already queued or sent is left alone). *queued_out counts new ones.
 * Each report is whole before it is named; the names are made durable by
 * one fsync of the outbox's pending folder on success, also when every
 * report was there already (a killed run may have named them without its
 * sync). A report a power cut loses in a failed call is queued again by
 * the next run, which begins by queueing the latest step's.
 * Errors: EST_ENOTFOUND (no such step), EST_EIO, rendering errors.
 */
int est_engine_queue_reports(int *queued_out, est_game *game, long long step);

/*
 * One player's report of `step` as the run mails it: its text, HTML and
 * SVG map (the last two NULL where the ruleset has none), rendered from
 * the player's own view (est_report_data: a sealed game shows the player
 * only what the player may see), and the filled-in order file the run
 * attaches for an awaited player. Into *out, all new (est_intake_report_clear).
 * It is the est_intake_report_fn cmd/ hands the intake, for the `report` mail command.
 * Errors: those of est_report_data and est_report_render.
 */
int est_engine_report_parts(est_intake_report *out, est_game *game, long long step,
			    const json_t *player);

/*
 * estafette reveal: publish, in one commit on main, reveal.json (the hidden
 * chain's value of the last step, from which every earlier one follows)
 * and revealed/NNNN/ for every step: hidden-dice.json (the hidden stream's
 * seed and rolls, if this machine resolved the step) and, in a sealed game, state.json and events.json whole
 * and the order files under orders/. Afterwards `audit` checks everything.
 * Refused while the game is not over unless `before_end`. *summary_out:
 * {"game", "step", "sealed", "commit"}.
 * Errors: EST_EUSAGE (not over, or nothing resolved yet), EST_ECONFIG (the
 * dice secrets or the sealed store are not here, or the store does not
 * match the manifests), EST_ELOCKED, EST_ETEMPFAIL, EST_EIO.
 */
int est_engine_reveal(json_t **summary_out, est_game *game, int before_end);

/*
 * The last step the game's reveal.json at main reveals (its hidden chain up
 * to there is public), or 0 when it has none: the game is revealed through
 * its end when this equals game->step.
 */
long long est_engine_revealed_step(est_game *game);

/*
 * `estafette mail`: est_game_deliver under the game's lock, so it never
 * races a run sending the same messages. Errors: EST_ELOCKED, and those of
 * est_game_deliver.
 */
int est_engine_mail(json_t **mail_out, est_game *game);

/*
 * A GM act on the open step, as the GM. `act` and its `params`
 * (an object, its fields copied into the act):
 *   "extend"   {"hours": 1..8760}: the open step's deadline moves
 *   "pause"    {}: nothing resolves until "resume"
 *   "resume"   {}: the deadline moves by the time paused
 *   "end"      {"result": "draw" | "concession" | "time limit", "winner": power}
 *   "adjust"   {"set": [{"path": JSON pointer, "value"}]}
 *   "rollback" {"to_step": N}: the state of step N again (unsealed games)
 * The last three are steps of their own (est_step_gm: committed and
 * tagged at once); the first three wait in gm/ for the step they concern.
 * `reason` is one line the players read in their reports. The act is a
 * gm/1 file signed with the GM's key (git config estafette.signingkey,
 * principal gm, namespace estafette-gm); `now` dates it.
 * *receipt_out: {"act", "step", "reason"} and, for the first three,
 * "file", "commit", "deadline".
 * "adjust" and "rollback" set aside the orders recorded for the open step
 * (the players sign new ones, and the dice take those): a GM could so roll
 * a step again, so they are refused while any are recorded unless `flags`
 * has EST_GM_FORCE.
 * Errors: EST_ECONFIG (no GM key here, or not the game's), EST_EUSAGE (the
 * act cannot be made now: no deadline to extend, paused already, not
 * paused, the game is over, a bad reason, orders recorded), EST_ELOCKED,
 * EST_ETEMPFAIL.
 */
#define EST_GM_FORCE 1u
int est_engine_gm_act(json_t **receipt_out, est_game *game, const char *act, const json_t *params,
		    const char *reason, time_t now, unsigned flags);

/*
 * Challenges (deal.c): the
 * games of one deal share both dice chain secrets and their rules/ files,
 * and game.json "deal" names the deal.
 */

/*
 * Reminders: when game.json "schedule" has "reminder_hours" R and the open
 * step has a deadline D, a run at a time within [D - R hours, D) queues a
 * reminder to each awaited player whose orders have not arrived, as
 * `pending` (est_intake_pending's answer for the open step, borrowed) says:
 * once per step and player (outbox name NNNN-PLAYER-reminder). *sent_out
 * counts the players reminded (a notice queued before is not queued again).
 * Errors: those of est_turn_deadline and est_game_notice.
 */
int est_engine_remind(int *sent_out, est_game *game, const json_t *pending, time_t now);

/*
 * The invitation to the join: while the open step is the join (step 1 of a
 * game under dice v2, turn/turn.h; `pending` as for est_engine_remind), a
 * run queues each awaited player whose file has not arrived a notice saying
 * who they are, what the join asks, the file to write (with the step's
 * "prev") and where to send it: once per player (outbox name
 * 0001-PLAYER-join). *sent_out counts the players invited.
 * Errors: EST_ENOMEM, those of est_game_notice.
 */
int est_engine_invite(int *sent_out, est_game *game, const json_t *pending, time_t now);

/* What a game joining a deal (`new --deal-from GAME`) takes from GAME (deal.c). */
typedef struct {
	char *deal;          /* GAME's game.json "deal" */
	json_t *options;     /* GAME's options (the scenario among them) */
	json_t *rules;       /* GAME's rules/ merged, for setup() */
	char *test_secret;   /* GAME's dice.test_secret mark, or NULL */
	char *dice_protocol; /* "v1" or "v2": a deal's games draw by one protocol */
	est_secrets secrets; /* GAME's dice chain secrets */
} est_deal_source;

/*
 * Read the game at `path` for a new game of ruleset `rs` to join its deal:
 * its secrets (under `home`), options and rules/ at step-0000, whose files
 * are added to `c` byte for byte. Free *out with est_deal_source_free.
 * Errors: EST_ENOTFOUND (no game at `path`), EST_EINVAL (another ruleset,
 * no deal), EST_ECONFIG (its secrets are not on this host), EST_ENOMEM.
 */
int est_deal_join(est_deal_source *out, est_changes *c, const char *path, const est_ruleset *rs,
		  const char *home);
void est_deal_source_free(est_deal_source *src);

/*
 * Many games on one host (overview.c; `estafette run --all DIR`, `estafette
 * status --all DIR`): finding the games in a folder, telling a folder that
 * is not a game from a game whose repository is damaged, and one game's
 * overview for the GM: the step, whom it awaits, the deadline, the missed
 * steps per player and what needs the GM. Nothing here writes to a game or
 * caches anything on disk; the overview only takes the game's lock for an
 * instant to see whether someone holds it.
 */
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

/* The most hosts a folder of games may be shared among (est_overview_shard). */
#define EST_OVERVIEW_SHARDS_MAX 1000

/*
 * Which of `n` hosts runs the game whose game.json "id" is `id`, when the
 * hosts share the games by `--shard K/N` (docs/hosting.md "Running the same
 * games from several hosts"): the first 8 bytes of SHA-256(id, as UTF-8) read
 * as a big-endian unsigned integer, modulo `n`, plus 1, into *shard_out (1 to
 * n). It depends on the id alone, never on the folder a clone sits in, so
 * every host works out the same answer, and so does anyone with Python:
 *
 *   python3 -c 'import hashlib,sys; print(int.from_bytes(hashlib.sha256(
 *       sys.argv[1].encode()).digest()[:8], "big") % int(sys.argv[2]) + 1)' ID N
 *
 * Errors: EST_EINVAL (`n` is 0 or above EST_OVERVIEW_SHARDS_MAX).
 */
int est_overview_shard(unsigned *shard_out, const char *id, unsigned n);

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
 * Errors: those of est_intake_pending; EST_EINVAL (a manifest does not
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

/*
 * estafette site (site.c, docs/site.md): the game's public history as a
 * static web site in folder `dir`: index.html (the game, the open step,
 * the timeline), steps/NNNN.html (each step's report, map, events, dice,
 * orders, GM acts and press), maps.html, raw/ (main's tree byte for byte),
 * data/game.js and data/NNNN.js (the bytes the browser's verifier checks,
 * as JSONP: docs/site.md "The data files") and assets/ (site.css and
 * estafette.js from templates/site/). Everything is read from the public
 * refs, main and the step tags, never from the sealed store or
 * $ESTAFETTE_HOME. A file is rewritten only when its bytes change, by a
 * rename; files an earlier build listed in dir/.estafette-site.json that
 * this one no longer makes are removed, and nothing else is; a build that
 * fails halfway still lists what it wrote there, so the next one takes
 * the folder and finishes. Takes no lock: it only reads the game, as it
 * stood at game->head.
 *
 * `dir` must not exist yet, or be an empty folder, or an earlier site of
 * this game; never a symbolic link, a file, or a folder inside the
 * repository's git folder. *summary_out (caller decrefs): {"game", "dir",
 * "step", "commit": main's commit, "files": how many the site holds,
 * "written": how many this build wrote, "removed"}.
 *
 * Errors: EST_EUSAGE (`dir` refused: the message names it and the fix),
 * EST_EIO (cannot write), EST_ENOTFOUND (a step's tag is missing),
 * EST_ECONFIG (templates/site missing), EST_EINVAL (a step's file does
 * not parse, a template), EST_ENOMEM.
 */
int est_engine_site(json_t **summary_out, est_game *game, const char *dir);

/*
 * The folder git config estafette.sitedir names in the game's repository
 * (relative: to the repository's folder, est_store_path), as a new string
 * (caller frees), or NULL when it is not set (or out of memory).
 */
char *est_engine_site_dir(est_game *game);

/*
 * The site `run` keeps current: when the game repository's git config
 * estafette.sitedir names a folder (est_engine_site_dir), est_engine_site
 * into it, unless its manifest says it was built from
 * game->head already. *summary_out: est_engine_site's, or NULL when
 * nothing was built. Errors: those of est_engine_site, the message
 * starting with the config key.
 */
int est_engine_site_update(json_t **summary_out, est_game *game);

/* The manifest a site build leaves in its folder (est_engine_site). */
#define EST_SITE_MANIFEST ".estafette-site.json"

/*
 * The next-due record (nextdue.c, docs/hosting.md "The next-due record"):
 * <git dir>/estafette-next-due, written by a run that left nothing to do,
 * so that `run --all` passes over the game without opening it until
 * something the run depended on changes. It is a hint, never fsynced: a
 * missing, stale or damaged record only costs the full run.
 *
 * est_next_due_fresh: 1 with *summary_out (caller decrefs) the summary the
 * full run would give (est_engine_run's, "mail" dropped under
 * EST_RUN_NO_MAIL) when the record of the repository at `path` holds at
 * `now`: a regular file of this user that no one else may write (never
 * read through a link), of this estafette binary and $ESTAFETTE_HOME,
 * main's commit (the loose ref file, else packed-refs; any other layout
 * fails) and the identity (inode, size, mtime) of the repository's git
 * config and of the site's manifest as the run left them, the outbox's
 * pending/ empty, and `now` between the run's time and the earliest time
 * anything could fall due (the deadline, the reminders before it, half
 * the clock guard's bound, so that a full run comes before the guard
 * would take the clock for one that jumped). Else 0 and *summary_out NULL: run the game in full.
 * With any flag but EST_RUN_NO_MAIL it is always 0. Whether 1 or 0,
 * *id_out (caller decrefs; a JSON string, else NULL) is the game's id when
 * a record of either kind (below) was written at main's present commit,
 * whatever the flags. Never an error; takes no lock and starts no libgit2.
 */
int est_next_due_fresh(json_t **summary_out, json_t **id_out, const char *path, time_t now, unsigned flags);

/*
 * est_next_due_save_game: write the id-only record of `game` (its id and
 * main's commit), for a game this host passes over (`run --all --shard`):
 * no run trusts it for more than the id. A record that cannot be written
 * is no record: no error.
 */
void est_next_due_save_game(est_game *game);

/* What a run notes, under the lock and before it reads anything, for the record it may write. */
typedef struct {
	char *dir;      /* where the record lives; NULL: this layout has none */
	json_t *config; /* the git config file's identity */
	json_t *exe;    /* this binary's identity */
} est_next_due_mark;

/*
 * est_next_due_forget: at the start of a run, under the game's lock: fill
 * `mark` (est_next_due_mark_clear frees it) and remove the game's record,
 * so that a run that fails or finds something due leaves none (one that
 * cannot be removed is a warning). Errors: EST_ENOMEM.
 *
 * est_next_due_save: at the end of a run that trusted its clock and wrote
 * its site, with `summary` its summary: write the record when the run
 * resolved nothing, left no mail waiting, the game is not sealed (its
 * sealed store moves apart from main) and something can only fall due
 * later; else nothing. A record that cannot be written is no record: no
 * error.
 */
int est_next_due_forget(est_next_due_mark *mark, est_game *game);
void est_next_due_save(const est_next_due_mark *mark, est_game *game, const json_t *summary, time_t now);
void est_next_due_mark_clear(est_next_due_mark *mark);

#endif
