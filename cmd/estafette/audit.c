/* estafette audit GAME [--json]: replay and verify the whole history (internal/audit) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>
#include <unistd.h>

#include "audit/audit.h"
#include "cmd.h"
#include "opt.h"
#include "util/error.h"
#include "util/util.h"

static const char *receipts;

static const struct est_opt audit_opts[] = {
	{"receipts", EST_OPT_DIR, &receipts, "also check the players' signed receipts in DIR"},
	{NULL}
};

static const struct est_opt_cmd audit_cmd = {"audit", "GAME", 1, 1, audit_opts,
	"  replays the game from its creation and checks every step: the orders, their\n"
	"  signatures, the files under turns/NNNN/orders/, the dice, the state, and the\n"
	"  events and reports rendered again; exit status 65 when a step fails.\n"
	"  --receipts DIR: each receipt-*.json there (with its .sig) must be the GM's,\n"
	"  and its step must have resolved that order file or a later seq of its player"};

/* A progress bar on a terminal, for long histories. */
static void progress(void *payload, long long step, long long last)
{
	int width = 40, done = last > 0 ? (int)(width * step / last) : width;

	(void)payload;
	fprintf(stderr, "\rauditing step %lld of %lld [%.*s%*s]", step, last, done,
		"########################################", width - done, "");
	if (step == last)
		fprintf(stderr, "\n");
}

int cmd_audit(int argc, char **argv)
{
	struct est_opt_args a;
	json_t *report = NULL;
	const json_t *f, *checked;
	char *home, summary[768];
	int json, error, status = 0;

	if ((error = est_opt_parse(&a, &audit_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	json = a.json;
	home = est_home_dir();
	error = est_audit_run(&report, a.args[0], home, receipts,
			      !json && isatty(STDERR_FILENO) ? progress : NULL, NULL);
	free(home);
	if (error < 0)
		return cmd_fail(error, json, NULL);
	f = json_object_get(report, "failure");
	checked = json_object_get(report, "checked");
	snprintf(summary, sizeof(summary), "%lld steps resolved again, %lld orders and their signatures, "
		 "%lld rolls, %lld files under turns/*/orders/ matched to their manifests, %lld derived "
		 "files (events.json, reports, maps) rendered again and compared",
		 (long long)json_integer_value(json_object_get(checked, "steps")),
		 (long long)json_integer_value(json_object_get(checked, "orders")),
		 (long long)json_integer_value(json_object_get(checked, "rolls")),
		 (long long)json_integer_value(json_object_get(checked, "order_files")),
		 (long long)json_integer_value(json_object_get(checked, "derived")));
	if (json_object_get(checked, "signed_commits")) {
		size_t n = strlen(summary);
		snprintf(summary + n, sizeof(summary) - n, ", %lld commits and %lld step tags signed by the "
			 "GM and %lld players' commits of order files only",
			 (long long)json_integer_value(json_object_get(checked, "signed_commits")),
			 (long long)json_integer_value(json_object_get(checked, "signed_tags")),
			 (long long)json_integer_value(json_object_get(checked, "player_commits")));
	}
	if (json_object_get(checked, "receipts")) {
		size_t n = strlen(summary);
		snprintf(summary + n, sizeof(summary) - n, ", %lld receipts",
			 (long long)json_integer_value(json_object_get(checked, "receipts")));
	}
	const json_t *r;
	size_t i;
	json_array_foreach(json_object_get(report, "receipts_refused"), i, r)
		if (!json)
			fprintf(stderr, "estafette: warning: %s is no evidence, so it was not checked: %s\n",
				json_string_value(json_object_get(r, "file")),
				json_string_value(json_object_get(r, "why")));
	if (json) {
		cmd_print_json(report);
	} else if (!json_is_true(json_object_get(report, "ok"))) {
		fprintf(stderr, "estafette: audit of %s fails at step %lld, %s (%s): %s\n",
			json_string_value(json_object_get(report, "game")),
			(long long)json_integer_value(json_object_get(f, "step")),
			json_string_value(json_object_get(f, "file")),
			json_string_value(json_object_get(f, "check")),
			json_string_value(json_object_get(f, "message")));
	} else if (json_object_get(report, "unverified") && !json_is_null(json_object_get(report, "unverified"))) {
		const json_t *u = json_object_get(report, "unverified");
		printf("audit of %s: everything that can be checked holds (%s), but it is NOT COMPLETE: "
		       "%lld of %lld steps, the first step %lld, could not be resolved again, so their "
		       "state, events.json and reports were not compared: %s\n",
		       json_string_value(json_object_get(report, "game")), summary,
		       (long long)json_integer_value(json_object_get(u, "steps")),
		       (long long)json_integer_value(json_object_get(report, "steps")),
		       (long long)json_integer_value(json_object_get(u, "first")),
		       json_string_value(json_object_get(u, "reason")));
	} else {
		printf("audit of %s: all %lld steps hold (%s)\n",
		       json_string_value(json_object_get(report, "game")),
		       (long long)json_integer_value(json_object_get(report, "steps")), summary);
	}
	if (!json_is_true(json_object_get(report, "ok")))
		status = EX_DATAERR;
	json_decref(report);
	return status;
}
