/*
 * Reminders before a deadline, to the players whose orders have not arrived.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "game/game.h"
#include "intake/intake.h"
#include "turn/turn.h"
#include "util/error.h"
#include "util/util.h"

int est_engine_remind(int *sent_out, est_game *game, time_t now)
{
	const json_t *hours = json_object_get(json_object_get(game->game, "schedule"), "reminder_hours");
	time_t deadline;
	json_t *pending = NULL, *a;
	size_t i;
	int error;

	*sent_out = 0;
	if ((error = est_turn_deadline(&deadline, game, NULL)) < 0)
		return error;
	if (!deadline || json_integer_value(hours) <= 0 || now < deadline - json_integer_value(hours) * 3600 ||
	    now >= deadline)
		return 0;
	if ((error = est_intake_pending(&pending, game, now)) < 0)
		return error;
	json_array_foreach(json_object_get(pending, "awaiting"), i, a) {
		const char *player = json_string_value(json_object_get(a, "player"));
		char name[128], subject[200];
		est_text t = {0};

		if (json_is_true(json_object_get(a, "received")))
			continue;
		snprintf(name, sizeof(name), "%04lld-%s-reminder",
			 (long long)json_integer_value(json_object_get(pending, "step")), player);
		snprintf(subject, sizeof(subject), "[%s] reminder: your orders for step %lld are due by %s",
			 json_string_value(json_object_get(game->game, "id")),
			 (long long)json_integer_value(json_object_get(pending, "step")),
			 json_string_value(json_object_get(pending, "deadline")));
		est_text_add(&t, "Your orders for step %lld have not arrived yet.\n%s\n\nThey are due by %s; "
			     "after that the step is resolved with the rules' default orders for you.\n"
			     "Your last report says how to write and sign them: the step is %lld and "
			     "\"prev\" is %s.\n",
			     (long long)json_integer_value(json_object_get(pending, "step")),
			     json_string_value(json_object_get(pending, "prompt")),
			     json_string_value(json_object_get(pending, "deadline")),
			     (long long)json_integer_value(json_object_get(pending, "step")),
			     json_string_value(json_object_get(pending, "state_sha256")));
		error = t.failed ? est_error_set(EST_ENOMEM, "out of memory") :
			est_game_notice(game, name, json_string_value(json_object_get(
				est_game_player(game, player), "email")), subject, t.text, NULL, now);
		free(t.text);
		if (error < 0)
			break;
		(*sent_out)++;
	}
	json_decref(pending);
	return error;
}
