/*
 * estafette submit GAME FILE [--sig FILE.sig]   record orders (one commit)
 * estafette check GAME FILE [--sig FILE.sig]    the same checks, writing nothing
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "opt.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/util.h"

static struct {
	const char *sig;
	time_t now;
} args;

static const struct est_opt order_opts[] = {
	{"sig", EST_OPT_FILE, &args.sig, "the signature (default: FILE.sig beside FILE)",
	 .arg = "FILE.sig"},
	{"now", EST_OPT_TIME, &args.now, "judge as of TIME (deadlines, key validity)"},
	{NULL}
};

#define ORDER_NOTES \
	"  FILE is signed orders (docs/protocol.md); sign it with estafette sign FILE or\n" \
	"  ssh-keygen -Y sign -f KEY -n " EST_ORDERS_NAMESPACE " FILE. Exit status 65 when refused.\n" \
	"  TIME is 2026-11-29T16:00:00Z (UTC) or @SECONDS, a real date from 1970 to 9999"

static const struct est_opt_cmd submit_cmd = {"submit", "GAME FILE", 2, 2, order_opts,
	"  records the orders in the game (one commit)\n" ORDER_NOTES};
static const struct est_opt_cmd check_cmd = {"check", "GAME FILE", 2, 2, order_opts,
	"  the checks of submit, writing nothing\n" ORDER_NOTES};

/* The files of one order. */
typedef struct {
	const char *game, *file;
	char *sig_file;
	char *bytes, *sig;
	size_t len, sig_len;
	int json;
	int sig_given; /* --sig named the signature: no "beside the order file" advice */
	time_t now;    /* --now: judged as of that time (deadlines, key validity) */
} order_args;

/* The order's files and times from the parsed command line. */
static void order_args_init(order_args *a, const struct est_opt_args *parsed)
{
	a->game = parsed->args[0];
	a->file = parsed->args[1];
	a->json = parsed->json;
	a->now = args.now;
	a->sig_given = args.sig != NULL;
	a->sig_file = args.sig ? strdup(args.sig) : est_strdup_printf("%s.sig", a->file);
}

/* Read both files; the parser itself refuses an oversized order with its own message. */
static int read_files(order_args *a)
{
	size_t n = strlen(a->file);
	int error;

	if (!a->sig_given && n > 4 && strcmp(a->file + n - 4, ".sig") == 0)
		return est_error_set(EST_EUSAGE, "%s: a signature, not an order file; give the order file "
				     "(%.*s), and its .sig beside it is read with it", a->file, (int)(n - 4), a->file);

	if ((error = est_file_read(&a->bytes, &a->len, a->file, EST_ORDER_MAX_BYTES)) == EST_EINVAL)
		return est_error_set(EST_EINVAL, "%s: over %d bytes, and an order file is at most 64 KiB; "
				     "send fewer or shorter orders", a->file, EST_ORDER_MAX_BYTES);
	if (error < 0)
		return error;
	if ((error = est_file_read(&a->sig, &a->sig_len, a->sig_file, 65536)) == EST_EINVAL)
		return est_error_set(EST_EINVAL, "%s: over 64 KiB, so not an SSH signature; give the .sig "
				     "file ssh-keygen -Y sign wrote", a->sig_file);
	/* (only when nothing is there: a folder named like the .sig has its own message) */
	if (error == EST_ENOTFOUND &&
	    !a->sig_given && access(a->sig_file, F_OK) != 0)
		est_error_set(EST_ENOTFOUND, "%s: no signature beside the order file; sign it with "
			      "ssh-keygen -Y sign -f KEY -n %s %s (or estafette sign), or pass --sig",
			      a->sig_file, EST_ORDERS_NAMESPACE, a->file);
	return error;
}

static void order_args_free(order_args *a)
{
	free(a->sig_file);
	free(a->bytes);
	free(a->sig);
}

static int refuse(int error, int json, json_t *diagnostics)
{
	json_t *extra = json_pack("{s:s, s:O?}", "status", "refused", "diagnostics", diagnostics);
	int status = cmd_fail(error, json, extra);

	/* The message holds the first problem (intake.c); list the others below it, so each shows once. */
	if (!json && json_array_size(diagnostics) > 1) {
		size_t i;
		json_t *d;
		char line[1024];

		/* (a hostile file may hold thousands: the first 20 say what to fix) */
		json_array_foreach(diagnostics, i, d) {
			if (i == 0)
				continue;
			if (i == 20) {
				fprintf(stderr, "  ... and %zu more\n", json_array_size(diagnostics) - i);
				break;
			}
			est_intake_diagnostic_text(line, sizeof(line), d);
			fputs("  ", stderr);
			cmd_put_safe(stderr, line);
			fputc('\n', stderr);
		}
	}
	json_decref(extra);
	json_decref(diagnostics);
	return status;
}

static int run(const struct est_opt_cmd *cmd, int argc, char **argv, int write)
{
	struct est_opt_args parsed;
	order_args a = {0};
	est_game *game = NULL;
	json_t *receipt = NULL, *diagnostics = NULL;
	est_order *order = NULL;
	int status, error;

	if ((error = est_opt_parse(&parsed, cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	order_args_init(&a, &parsed);
	if ((error = read_files(&a)) < 0) {
		status = cmd_fail(error, a.json, NULL);
		goto out;
	}
	if ((status = cmd_open_game(&game, a.game, a.json)) != 0)
		goto out;
	if (write)
		error = est_intake_submit(&receipt, &diagnostics, game, a.file, a.bytes, a.len,
					a.sig_file, a.sig, a.sig_len, a.now);
	else
		error = est_intake_check(&order, &diagnostics, game, a.file, a.bytes, a.len,
					     a.sig_file, a.sig, a.sig_len, a.now);
	if (error < 0) {
		status = refuse(error, a.json, diagnostics);
		goto out;
	}
	if (!write) {
		receipt = json_pack("{s:s, s:s, s:s, s:I, s:I}", "status", "valid",
				    "kind", order->commitment ? "commitment" : "orders", "player", order->player,
				    "step", (json_int_t)order->step, "seq", (json_int_t)order->seq);
		if (json_array_size(game->warnings))
			json_object_set(receipt, "warnings", game->warnings);
	}
	if (!a.json)
		cmd_print_warnings(json_object_get(receipt, "warnings"));
	if (a.json)
		cmd_print_json(receipt);
	else
		printf("%s: %s %s of %s for step %lld (seq %lld)%s\n", a.file,
		       !write ? "valid" : json_is_true(json_object_get(receipt, "already_recorded")) ?
		       "already recorded" : "recorded", json_string_value(json_object_get(receipt, "kind")),
		       json_string_value(json_object_get(receipt, "player")),
		       (long long)json_integer_value(json_object_get(receipt, "step")),
		       (long long)json_integer_value(json_object_get(receipt, "seq")),
		       json_is_true(json_object_get(receipt, "already_recorded")) ?
		       " by a submit cut short before its public note; the note is written now" : "");
	const json_t *sr = json_object_get(receipt, "signed_receipt");
	if (!a.json && sr)
		printf("the GM's signed receipt (the player's proof; mailed to them as %s and %s.sig):\n%s%s",
		       json_string_value(json_object_get(sr, "file")), json_string_value(json_object_get(sr, "file")),
		       json_string_value(json_object_get(sr, "text")), json_string_value(json_object_get(sr, "sig")));
out:
	json_decref(receipt);
	est_orders_free(order);
	est_game_free(game);
	order_args_free(&a);
	return status;
}

int cmd_submit(int argc, char **argv)
{
	return run(&submit_cmd, argc, argv, 1);
}

int cmd_check(int argc, char **argv)
{
	return run(&check_cmd, argc, argv, 0);
}
