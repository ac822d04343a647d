#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"
#include "util/json.h"

/*
 * A message may quote what an attacker wrote (a player id, a file name, a
 * mail header): control characters go out as \xNN, so no terminal escape
 * or line break reaches the GM's terminal or log as if it were ours.
 */
void cmd_put_safe(FILE *out, const char *text)
{
	if (!text)
		text = "?";
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			fprintf(out, "\\x%02x", *c);
		else
			fputc(*c, out);
	}
}

int cmd_fail(int code, int json, const json_t *extra)
{
	if (json) {
		json_t *out = json_pack("{s:s, s:s, s:s, s:i}", "status", "error",
					"error", est_error_name(code), "message", est_error_message(),
					"exit", est_error_exit_code(code));
		if (extra)
			json_object_update(out, (json_t *)extra);
		cmd_print_json(out);
		json_decref(out);
	} else {
		fputs("estafette: ", stderr);
		cmd_put_safe(stderr, est_error_message());
		fputc('\n', stderr);
	}
	return est_error_exit_code(code);
}

int cmd_open_game(est_game **out, const char *path, int json)
{
	int error;

	if ((error = est_game_open(out, path)) < 0)
		return cmd_fail(error, json, NULL);
	return 0;
}

void cmd_print_warnings(const json_t *warnings)
{
	size_t i;
	json_t *w;

	json_array_foreach(warnings, i, w) {
		fputs("estafette: warning: ", stderr);
		cmd_put_safe(stderr, json_string_value(w));
		fputc('\n', stderr);
	}
}

void cmd_print_no_smtp(const json_t *mail, const char *indent)
{
	if (!json_is_true(json_object_get(mail, "configured")) &&
	    json_integer_value(json_object_get(mail, "pending")) > 0)
		printf("%s(no SMTP server configured: the messages stay there as .eml files; "
		       "set one with git -C GAME config estafette.smtpurl smtp://host:port)\n", indent);
}

void cmd_print_json(const json_t *value)
{
	char *text = est_json_text(value);

	if (text)
		fputs(text, stdout);
	free(text);
}

time_t cmd_parse_time(const char *text)
{
	struct tm tm = {0};
	char *end;

	if (!text)
		return time(NULL);
	/* From 1970 to 9999: later would wrap in git's commit dates. */
	if (text[0] == '@') {
		long long secs = strtoll(text + 1, &end, 10);
		return *end || end == text + 1 || secs < 0 || secs > 253402300799LL ? -1 : (time_t)secs;
	}
	end = strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!end || (*end && strcmp(end, "Z") != 0))
		return -1;
	/* A date that does not exist (2026-02-30) comes back as another one: refuse it. */
	struct tm check = tm;
	time_t t = timegm(&check);
	if (check.tm_mday != tm.tm_mday || check.tm_mon != tm.tm_mon || check.tm_year != tm.tm_year ||
	    t < 0 || (long long)t > 253402300799LL)
		return -1;
	return t;
}

int cmd_read_shard(void *value, const char *word)
{
	cmd_shard *shard = value;
	unsigned long k, n;
	char *end;

	/* digits only: strtoul would take "+2", " 2" and "-1" too */
	if (!(*word >= '0' && *word <= '9'))
		return -1;
	k = strtoul(word, &end, 10);
	if (*end != '/' || !(end[1] >= '0' && end[1] <= '9'))
		return -1;
	n = strtoul(end + 1, &end, 10);
	if (*end || k < 1 || k > n || n > EST_OVERVIEW_SHARDS_MAX)
		return -1;
	shard->k = (unsigned)k;
	shard->n = (unsigned)n;
	return 0;
}

int cmd_other_shard(unsigned *shard_out, const cmd_shard *shard, const json_t *id)
{
	*shard_out = 0;
	if (shard->n == 0)
		return 0;
	/* (cannot fail: cmd_read_shard let only 1 to EST_OVERVIEW_SHARDS_MAX through) */
	if (est_overview_shard(shard_out, json_string_value(id), shard->n) < 0) {
		est_error_clear();
		return 0;
	}
	return *shard_out != shard->k;
}
