/*
 * estafette receive GAME [--return-path ADDR] < message.eml
 *
 * For .forward, procmail, maildrop or fetchmail's mda. Exits 0 once the
 * message is dealt with — orders recorded, or refused with a receipt to
 * the sender, or ignored as a machine's, or too large (over git config
 * estafette.maxmessage, default 10 MiB: not read, the player told) — so
 * the mail system neither bounces nor retries it; 65 only for what is not
 * mail at all (mail/intake.h); 75 asks it to try again later (lock held).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "step/step.h"
#include "turn/turn.h"
#include "opt.h"
#include "util/error.h"

static struct {
	const char *return_path;
} args;

static const struct est_opt receive_opts[] = {
	{"return-path", EST_OPT_STRING, &args.return_path,
	 "the envelope sender, when the mail system gives it apart from the message", .arg = "ADDR"},
	{NULL}
};

static const struct est_opt_cmd receive_cmd = {"receive", "GAME", 1, 1, receive_opts,
	"  reads one mail message on standard input: estafette receive GAME < message.eml\n"
	"  exit status 0 once it is dealt with (recorded, refused with a receipt to the\n"
	"  sender, ignored or too large), 65 only for what is not mail, 75 to try later"};

/*
 * Standard input: its first `max` bytes in *out (and *len), its whole size
 * in *size. A message over `max` is read on to its end and dropped, so the
 * mail system that pipes it sees it taken (not a broken pipe, not a
 * failure to bounce) while what is kept stays within the limit.
 */
static int read_stdin(char **out, size_t *len, size_t *size, size_t max)
{
	size_t cap = 65536, used = 0, n;
	char *buf = malloc(cap + 1), *grown, drop[65536];

	*size = 0;
	while (buf && used < max && (n = fread(buf + used, 1, (cap < max ? cap : max) - used, stdin)) > 0) {
		used += n;
		if (used == cap && cap < max) {
			if (!(grown = realloc(buf, 2 * cap + 1))) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = grown;
			cap *= 2;
		}
	}
	if (!buf)
		return est_error_set(EST_ENOMEM, "out of memory");
	*size = used;
	while (used == max && (n = fread(drop, 1, sizeof(drop), stdin)) > 0)
		*size += n;
	if (ferror(stdin)) {
		free(buf);
		return est_error_set(EST_EIO, "standard input: cannot read the message");
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
}

/* What became of a message for the GM, a command or a bounce (intake.h gm_mail.c). */
static void print_gm_mail(const json_t *r)
{
	const json_t *bounce = json_object_get(r, "bounce"), *p;
	const char *gm = json_string_value(json_object_get(r, "gm"));
	const char *answer = json_string_value(json_object_get(r, "answer"));
	size_t i;

	if (gm)
		printf("  no orders in it: passed on to the GM (%s)\n", strcmp(gm, "kept") == 0
		       ? "kept in $ESTAFETTE_HOME: git config estafette.gmaddress is not set" : "mailed");
	if (answer) {
		printf("  mail command ");
		cmd_put_safe(stdout, json_string_value(json_object_get(r, "command")));
		printf(": %s\n", strcmp(answer, "limited") == 0 ? "not answered (over the hourly limit)" :
		       strcmp(answer, "duplicate") == 0 ? "answered before" : "answered");
	}
	if (json_is_true(json_object_get(r, "reachable_again")))
		printf("  the player's mail bounced before; no longer marked unreachable\n");
	if (!bounce)
		return;
	printf("  bounce (status ");
	cmd_put_safe(stdout, json_string_value(json_object_get(bounce, "status")));
	printf("): ");
	if (json_object_get(bounce, "unmatched"))
		printf("matched to no player: %s", json_string_value(json_object_get(bounce, "unmatched")));
	json_array_foreach(json_object_get(bounce, "matched"), i, p) {
		printf("%s", i ? ", " : "unreachable: ");
		cmd_put_safe(stdout, json_string_value(p));
	}
	printf("\n");
}

void cmd_print_intake(const json_t *r)
{
	const char *status = json_string_value(json_object_get(r, "status"));
	const char *id = json_string_value(json_object_get(r, "mailbox_id"));
	size_t i;
	json_t *c;

	/* Names, addresses and errors quote the sender's bytes: printed with cmd_put_safe. */
	cmd_put_safe(stdout, id ? id : "message");
	printf(" from ");
	cmd_put_safe(stdout, json_string_value(json_object_get(r, "from")));
	printf(": %s", status);
	if (json_object_get(r, "error") || json_object_get(r, "reason")) {
		const char *error = json_string_value(json_object_get(r, "error"));
		const char *reason = json_string_value(json_object_get(r, "reason"));

		printf(" (");
		cmd_put_safe(stdout, error ? error : reason);
		if (error && reason) {
			printf("; ");
			cmd_put_safe(stdout, reason);
		}
		printf(")");
	}
	printf("\n");
	print_gm_mail(r);
	json_array_foreach(json_object_get(r, "candidates"), i, c) {
		printf("  ");
		cmd_put_safe(stdout, json_string_value(json_object_get(c, "where")));
		printf(": %s", json_string_value(json_object_get(c, "status")));
		if (json_object_get(c, "seq"))
			printf(" (%s, step %lld, seq %lld)", json_string_value(json_object_get(c, "player")),
			       (long long)json_integer_value(json_object_get(c, "step")),
			       (long long)json_integer_value(json_object_get(c, "seq")));
		if (json_object_get(c, "error")) {
			printf(": ");
			cmd_put_safe(stdout, json_string_value(json_object_get(c, "error")));
		}
		printf("\n");
	}
}

int cmd_receive(int argc, char **argv)
{
	struct est_opt_args a;
	est_game *game = NULL;
	json_t *result = NULL;
	char *message = NULL;
	size_t len = 0, size = 0, max = 0;
	int error, status;

	if ((error = est_opt_parse(&a, &receive_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	if ((status = cmd_open_game(&game, a.args[0], a.json)) != 0)
		goto out;
	if ((error = est_intake_max_message(&max, game)) < 0 ||
	    (error = read_stdin(&message, &len, &size, max)) < 0 ||
	    (error = est_intake_receive(&result, game, message, len, size, args.return_path,
				      est_engine_report_parts, time(NULL))) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	if (a.json) {
		cmd_print_json(result);
	} else {
		cmd_print_intake(result);
		cmd_print_warnings(json_object_get(result, "warnings"));
	}
out:
	json_decref(result);
	est_game_free(game);
	free(message);
	return status;
}
