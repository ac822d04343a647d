/*
 * The schedule's pure rules (turn/schedule.c): the hours per kind of
 * step, deadlines moved to allowed days and hours, the grace, and the
 * strict check of a schedule. Times are UTC; 2026-01-05 is a Monday.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>
#include <time.h>

#include "game/game.h"
#include "turn/turn.h"
#include "util/error.h"

#define MON_10 1767607200LL /* 2026-01-05T10:00:00Z */
#define HOUR 3600LL

static json_t *parse(const char *text)
{
	json_t *v = json_loads(text, 0, NULL);

	assert_non_null(v);
	return v;
}

static time_t deadline(const char *schedule, long long opened, const char *kind, const char *mode)
{
	json_t *s = parse(schedule), *pending = json_pack("{s:s, s:s}", "kind", kind, "mode", mode);
	time_t t = est_schedule_deadline(s, opened, pending);

	json_decref(pending);
	json_decref(s);
	return t;
}

static void hours_per_kind_then_mode(void **state)
{
	const char *s = "{\"deadline_hours\": 24, \"deadlines\": {\"turn\": 72, \"simultaneous\": 12}}";

	(void)state;
	assert_int_equal(deadline(s, MON_10, "turn", "sequential"), MON_10 + 72 * HOUR);
	assert_int_equal(deadline(s, MON_10, "battle-cards", "simultaneous"), MON_10 + 12 * HOUR);
	assert_int_equal(deadline(s, MON_10, "retreat", "sequential"), MON_10 + 24 * HOUR);
	assert_int_equal(deadline("{\"deadline_hours\": 0}", MON_10, "turn", "sequential"), 0);
	assert_int_equal(deadline("{}", MON_10, "turn", "sequential"), 0);
}

static void allowed_days_and_hours(void **state)
{
	const char *week = "{\"deadline_hours\": 48, \"days\": [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\"], "
			   "\"hours\": [9, 17]}";
	long long fri_16 = MON_10 + 4 * 24 * HOUR + 6 * HOUR;

	(void)state;
	/* Wednesday 10:00 is allowed as it is. */
	assert_int_equal(deadline(week, MON_10, "turn", "sequential"), MON_10 + 48 * HOUR);
	/* Friday 16:00 + 48 h is Sunday 16:00: forward to Monday 09:00. */
	assert_int_equal(deadline(week, fri_16, "turn", "sequential"), MON_10 + 7 * 24 * HOUR - HOUR);
	/* Monday 10:00 + 8 h is 18:00, past the hours: Tuesday 09:00. */
	assert_int_equal(deadline("{\"deadline_hours\": 8, \"hours\": [9, 17]}", MON_10, "turn", "sequential"),
			 MON_10 + 23 * HOUR);
	/* A deadline at 10:30 outside the hours moves to the next whole allowed hour. */
	assert_int_equal(deadline("{\"deadline_hours\": 1, \"hours\": [12, 13]}", MON_10 + 1800, "turn", "sequential"),
			 MON_10 + 2 * HOUR);
}

static void grace(void **state)
{
	json_t *s = parse("{\"grace_hours\": 3}");

	(void)state;
	assert_int_equal(est_schedule_grace(s), 3 * HOUR);
	json_decref(s);
}

static void check_refuses(const char *text, const char *word)
{
	json_t *s = parse(text);

	est_error_clear();
	assert_int_equal(est_schedule_check(s, "schedule.json"), EST_EINVAL);
	if (!strstr(est_error_message(), word) || strncmp(est_error_message(), "schedule.json: ", 15) != 0)
		fail_msg("for %s: %s", text, est_error_message());
	json_decref(s);
}

static void strict_check(void **state)
{
	json_t *good = parse("{\"deadline_hours\": 48, \"deadlines\": {\"turn\": 72}, \"days\": [\"sat\"], "
			     "\"hours\": [0, 24], \"grace_hours\": 0, \"nmr\": \"wait\", "
			     "\"civil_disorder_after\": 3, \"outage_percent\": 100, \"clock_jump_hours\": 1}");

	(void)state;
	assert_int_equal(est_schedule_check(good, "schedule.json"), 0);
	json_decref(good);
	check_refuses("[]", "a JSON object");
	check_refuses("{\"deadline\": 3}", "unknown field \"schedule.deadline\"");
	check_refuses("{\"deadline_hours\": -1}", "schedule.deadline_hours");
	check_refuses("{\"deadline_hours\": \"48\"}", "schedule.deadline_hours");
	check_refuses("{\"deadlines\": {\"turn\": 0}}", "schedule.deadlines.turn");
	check_refuses("{\"deadlines\": 3}", "schedule.deadlines");
	check_refuses("{\"days\": []}", "schedule.days");
	check_refuses("{\"days\": [\"Mon\"]}", "schedule.days[0]");
	check_refuses("{\"hours\": [9]}", "schedule.hours");
	check_refuses("{\"hours\": [9, 9]}", "schedule.hours");
	check_refuses("{\"hours\": [-1, 9]}", "schedule.hours");
	check_refuses("{\"nmr\": \"drop\"}", "schedule.nmr");
	check_refuses("{\"outage_percent\": 101}", "schedule.outage_percent");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hours_per_kind_then_mode),
		cmocka_unit_test(allowed_days_and_hours),
		cmocka_unit_test(grace),
		cmocka_unit_test(strict_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
