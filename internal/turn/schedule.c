/*
 * A game's schedule (game.json "schedule"; turn.h est_schedule_check):
 * when each step's deadline falls, and how long the grace after it runs.
 * Pure functions of the schedule and the times given: the clock itself is
 * read by `run` alone (run.c), so that every rule here can be tested with
 * a fake one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game.h"
#include "turn/turn.h"
#include "util/error.h"

static const char *const day_names[7] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

static long long hours_of(const json_t *schedule, const char *key)
{
	const json_t *v = json_object_get(schedule, key);

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* The hours a step of this kind (or mode) is given: "deadlines" first, then deadline_hours. */
static long long step_hours(const json_t *schedule, const json_t *pending)
{
	const json_t *per = json_object_get(schedule, "deadlines"), *v;

	if ((v = json_object_get(per, json_string_value(json_object_get(pending, "kind")))) ||
	    (v = json_object_get(per, json_string_value(json_object_get(pending, "mode")))))
		return json_integer_value(v);
	return hours_of(schedule, "deadline_hours");
}

/* May a deadline fall at `t`: an allowed day, within the allowed hours (UTC)? */
static int allowed(const json_t *schedule, time_t t)
{
	const json_t *days = json_object_get(schedule, "days"), *hours = json_object_get(schedule, "hours");
	struct tm tm;
	size_t i;
	json_t *d;
	int day_ok = json_array_size(days) == 0;

	gmtime_r(&t, &tm);
	json_array_foreach(days, i, d)
		day_ok |= strcmp(json_string_value(d), day_names[tm.tm_wday]) == 0;
	if (!day_ok)
		return 0;
	if (json_array_size(hours) != 2)
		return 1;
	return tm.tm_hour >= json_integer_value(json_array_get(hours, 0)) &&
	       tm.tm_hour < json_integer_value(json_array_get(hours, 1));
}

time_t est_schedule_deadline(const json_t *schedule, long long opened, const json_t *pending)
{
	long long hours = step_hours(schedule, pending);
	time_t t;

	if (hours <= 0 || opened <= 0)
		return 0;
	t = (time_t)(opened + hours * 3600);
	/* Forward an hour at a time to the next allowed one: a week holds one (est_schedule_check). */
	for (int i = 0; i < 8 * 24 && !allowed(schedule, t); i++)
		t += 3600 - t % 3600;
	return t;
}

time_t est_schedule_grace(const json_t *schedule)
{
	return (time_t)hours_of(schedule, "grace_hours") * 3600;
}

/* An integer field of hours in [min, max], or absent. */
static int check_int(const json_t *schedule, const char *key, long long min, long long max,
		     const char *file)
{
	const json_t *v = json_object_get(schedule, key);

	if (!v)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return est_error_set(EST_EINVAL, "%s: field \"schedule.%s\" must be a whole number from "
				     "%lld to %lld; write e.g. \"%s\": %lld", file, key, min, max, key,
				     max < 24 ? max : 24);
	return 0;
}

static int check_days(const json_t *days, const char *file)
{
	size_t i, k;
	json_t *d;

	if (!days)
		return 0;
	if (!json_is_array(days) || json_array_size(days) == 0)
		return est_error_set(EST_EINVAL, "%s: field \"schedule.days\" must be a non-empty list of "
				     "days; write e.g. \"days\": [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\"]", file);
	json_array_foreach(days, i, d) {
		for (k = 0; k < i; k++)
			if (json_equal(d, json_array_get(days, k)))
				return est_error_set(EST_EINVAL, "%s: field \"schedule.days\" names %s twice; "
						     "name each day once", file, json_string_value(d));
		for (k = 0; k < 7; k++)
			if (json_is_string(d) && strcmp(json_string_value(d), day_names[k]) == 0)
				break;
		if (k == 7)
			return est_error_set(EST_EINVAL, "%s: field \"schedule.days[%zu]\" is not one of sun, "
					     "mon, tue, wed, thu, fri, sat; write the day in those three "
					     "letters", file, i);
	}
	return 0;
}

static int check_hours(const json_t *hours, const char *file)
{
	long long from, to;

	if (!hours)
		return 0;
	from = json_integer_value(json_array_get(hours, 0));
	to = json_integer_value(json_array_get(hours, 1));
	if (!json_is_array(hours) || json_array_size(hours) != 2 ||
	    !json_is_integer(json_array_get(hours, 0)) || !json_is_integer(json_array_get(hours, 1)) ||
	    from < 0 || to > 24 || from >= to)
		return est_error_set(EST_EINVAL, "%s: field \"schedule.hours\" must be [FROM, TO], whole "
				     "hours of the day (UTC) with 0 <= FROM < TO <= 24; write e.g. "
				     "\"hours\": [8, 22]", file);
	return 0;
}

static int check_deadlines(const json_t *per, const char *file)
{
	const char *kind;
	json_t *v;

	if (!per)
		return 0;
	if (!json_is_object(per))
		return est_error_set(EST_EINVAL, "%s: field \"schedule.deadlines\" must be an object of "
				     "hours per kind of step; write e.g. {\"turn\": 72, \"simultaneous\": 24}",
				     file);
	json_object_foreach((json_t *)per, kind, v)
		if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 8760)
			return est_error_set(EST_EINVAL, "%s: field \"schedule.deadlines.%s\" must be a whole "
					     "number of hours from 1 to 8760", file, kind);
	return 0;
}

int est_schedule_check(const json_t *schedule, const char *file)
{
	static const char *const known[] = {"deadline_hours", "deadlines", "days", "hours", "grace_hours",
					    "reminder_hours", "reveal_hours", "clock_jump_hours",
					    "outage_percent", "nmr", "civil_disorder_after"};
	const char *key, *nmr;
	json_t *v;
	size_t i;
	int error;

	if (!json_is_object(schedule))
		return est_error_set(EST_EINVAL, "%s: the schedule must be a JSON object", file);
	json_object_foreach((json_t *)schedule, key, v) {
		for (i = 0; i < sizeof(known) / sizeof(known[0]) && strcmp(key, known[i]) != 0; i++)
			;
		if (i == sizeof(known) / sizeof(known[0]))
			return est_error_set(EST_EINVAL, "%s: unknown field \"schedule.%s\" (a schedule has "
					     "deadline_hours, deadlines, days, hours, grace_hours, "
					     "reminder_hours, reveal_hours, clock_jump_hours, outage_percent, "
					     "nmr and civil_disorder_after); remove it", file, key);
	}
	nmr = json_string_value(json_object_get(schedule, "nmr"));
	if (json_object_get(schedule, "nmr") && (!nmr || (strcmp(nmr, "hold") != 0 && strcmp(nmr, "wait") != 0)))
		return est_error_set(EST_EINVAL, "%s: field \"schedule.nmr\" must be \"hold\" (a missing "
				     "player gets the ruleset's default orders at the deadline) or \"wait\" "
				     "(the step waits for them)", file);
	if ((error = check_int(schedule, "deadline_hours", 0, 8760, file)) < 0 ||
	    (error = check_int(schedule, "grace_hours", 0, 720, file)) < 0 ||
	    (error = check_int(schedule, "reminder_hours", 0, 8760, file)) < 0 ||
	    (error = check_int(schedule, "reveal_hours", 1, 8760, file)) < 0 ||
	    (error = check_int(schedule, "clock_jump_hours", 1, 8760, file)) < 0 ||
	    (error = check_int(schedule, "outage_percent", 0, 100, file)) < 0 ||
	    (error = check_int(schedule, "civil_disorder_after", 0, 1000, file)) < 0 ||
	    (error = check_deadlines(json_object_get(schedule, "deadlines"), file)) < 0 ||
	    (error = check_days(json_object_get(schedule, "days"), file)) < 0)
		return error;
	if (hours_of(schedule, "reminder_hours") > 0 &&
	    hours_of(schedule, "reminder_hours") >= hours_of(schedule, "deadline_hours"))
		return est_error_set(EST_EINVAL, "%s: field \"schedule.reminder_hours\" must be fewer than "
				     "deadline_hours (a reminder before the step opens would go out at "
				     "once); lower it, or give deadline_hours", file);
	return check_hours(json_object_get(schedule, "hours"), file);
}
