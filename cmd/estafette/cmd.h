/*
 * The command line (docs/gm-guide.md "Commands"): main.c dispatches to one
 * cmd_<name>() per file. Only cmd/ prints and picks exit codes.
 */
#ifndef EST_CMD_H
#define EST_CMD_H

#include <stdio.h>

#include <jansson.h>
#include <time.h>

#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"

int cmd_new(int argc, char **argv);
int cmd_submit(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_keygen(int argc, char **argv);
int cmd_sign(int argc, char **argv);
int cmd_mail(int argc, char **argv);
int cmd_receive(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_reveal(int argc, char **argv);
int cmd_gm(int argc, char **argv);
int cmd_standings(int argc, char **argv);
int cmd_site(int argc, char **argv);

/* One est_intake_receive result as lines for a person (receive.c). */
void cmd_print_intake(const json_t *result);

/*
 * Report the last library error for `what` (a game or file) and return
 * its sysexits code. With `json`, a {"status": "error", ...} object goes to
 * stdout instead of a line on stderr; `extra` (may be NULL, borrowed) is
 * merged into it.
 */
int cmd_fail(int code, int json, const json_t *extra);

/*
 * Open the game at `path` for a command (est_game_open). When it cannot
 * be opened, report why as cmd_fail does and return the sysexits code (66
 * no game there, 65 a file does not parse, 78 an unknown ruleset, ...);
 * *out is NULL then. Returns 0 with the game in *out (est_game_free it).
 */
int cmd_open_game(est_game **out, const char *path, int json);

/* Print each string of `warnings` (may be NULL) to stderr as a warning. */
void cmd_print_warnings(const json_t *warnings);

/*
 * After a delivery's summary `mail` ({"pending", "configured", ...} of
 * est_game_deliver): when messages wait because no SMTP server is set,
 * one line on stdout, indented by `indent`, saying where they are and how
 * to set one.
 */
void cmd_print_no_smtp(const json_t *mail, const char *indent);

/* Print text (NULL prints "?") with control characters as \xNN: it may quote an attacker. */
void cmd_put_safe(FILE *out, const char *text);

/* Print `value` as estafette's JSON (indented, a final newline). */
void cmd_print_json(const json_t *value);

/*
 * Parse --now: "2026-11-29T16:00:00Z" (UTC) or "@<seconds since the
 * epoch>". NULL gives the current time. Returns -1 when unreadable.
 */
time_t cmd_parse_time(const char *text);

/*
 * --shard K/N of run --all and status (docs/hosting.md "Running the same
 * games from several hosts"): this host runs shard k of n; n 0 when the
 * option was not given.
 */
typedef struct {
	unsigned k, n;
} cmd_shard;

/* --shard's table entry needs these: the parser (EST_OPT_CALL) and what it expects. */
int cmd_read_shard(void *value, const char *word);
#define CMD_SHARD_WORD(n) #n
#define CMD_SHARD_MAX(n) CMD_SHARD_WORD(n)
#define CMD_SHARD_EXPECT "not K/N, this host's shard K of N hosts, whole numbers with " \
	"1 <= K <= N <= " CMD_SHARD_MAX(EST_OVERVIEW_SHARDS_MAX) " (e.g. --shard 2/3 on the second of three hosts)"

/*
 * 1 when the game whose id is `id` (a JSON string, as in game.json or a
 * run's summary) is another host's under `shard` (its share in
 * *shard_out, est_overview_shard); 0 when it is this host's, or no --shard
 * was given.
 */
int cmd_other_shard(unsigned *shard_out, const cmd_shard *shard, const json_t *id);

#endif
