/*
 * Reminders before a deadline, to the players whose orders have not
 * arrived, and the invitation to the join.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "engine/engine.h"
#include "util/error.h"
#include "util/util.h"

typedef void (*notice_fn)(est_text *t, char subject[200], est_game *game, const json_t *pending,
			  const json_t *a, const char *arg);

/*
 * A notice, written by `write`, to each player the open step (`pending`,
 * est_intake_pending's) awaits whose file has not arrived: once per step
 * and player (outbox name NNNN-PLAYER-WHAT).
 */
static int to_missing(int *sent_out, est_game *game, const json_t *pending, const char *what, notice_fn write,
		      const char *arg, time_t now)
{
	json_t *a;
	size_t i;
	int error = 0;

	json_array_foreach(json_object_get(pending, "awaiting"), i, a) {
		const char *player = json_string_value(json_object_get(a, "player"));
		char name[128], subject[200];
		est_text t = {0};

		if (json_is_true(json_object_get(a, "received")))
			continue;
		snprintf(name, sizeof(name), "%04lld-%s-%s",
			 (long long)json_integer_value(json_object_get(pending, "step")), player, what);
		write(&t, subject, game, pending, a, arg);
		error = t.failed ? est_error_set(EST_ENOMEM, "out of memory") :
			est_game_notice(game, name, json_string_value(json_object_get(
				est_game_player(game, player), "email")), subject, t.text, NULL, now, NULL, 0);
		free(t.text);
		if (error < 0)
			break;
		(*sent_out)++;
	}
	return error;
}

static void reminder(est_text *t, char subject[200], est_game *game, const json_t *pending, const json_t *a,
		     const char *arg)
{
	long long step = (long long)json_integer_value(json_object_get(pending, "step"));
	const char *deadline = json_string_value(json_object_get(pending, "deadline"));

	(void)a;
	(void)arg;
	snprintf(subject, 200, "[%s] reminder: your orders for step %lld are due by %s",
		 json_string_value(json_object_get(game->game, "id")), step, deadline);
	est_text_add(t, "Your orders for step %lld have not arrived yet.\n%s\n\nThey are due by %s; "
		     "after that the step is resolved with the rules' default orders for you.\n"
		     "Your last report says how to write and sign them: the step is %lld and "
		     "\"prev\" is %s.\n", step, json_string_value(json_object_get(pending, "prompt")), deadline,
		     step, json_string_value(json_object_get(pending, "state_sha256")));
}

int est_engine_remind(int *sent_out, est_game *game, const json_t *pending, time_t now)
{
	const json_t *hours = json_object_get(json_object_get(game->game, "schedule"), "reminder_hours");
	time_t deadline;
	int error;

	*sent_out = 0;
	if ((error = est_turn_deadline(&deadline, game, NULL)) < 0)
		return error;
	if (!deadline || json_integer_value(hours) <= 0 || now < deadline - json_integer_value(hours) * 3600 ||
	    now >= deadline)
		return 0;
	return to_missing(sent_out, game, pending, "reminder", reminder, NULL, now);
}

/* The invitation's text: who the player is, what the join asks and how to answer it. */
static void invitation(est_text *t, char subject[200], est_game *game, const json_t *pending, const json_t *a,
		       const char *to)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	const json_t *power;
	size_t i;

	snprintf(subject, 200, "[%s] you are invited: join the game with a signed file", id);
	est_text_add(t, "You are player \"%s\" in game %s (%s), holding:", json_string_value(json_object_get(
		     a, "player")), id, game->ruleset->name);
	json_array_foreach(json_object_get(a, "powers"), i, power)
		est_text_add(t, " %s", json_string_value(power));
	est_text_add(t, ".\n\nStep 1 is the join: every player sends a signed order file with no orders. "
		     "It shows your key works, and your file's entropy goes into the game's set-up draws "
		     "(the first shuffle, the order of play), so that nobody, the GM included, could "
		     "choose them. Write this file, with 64 fresh hex digits of your own as entropy "
		     "(openssl rand -hex 32):\n\n"
		     "  {\"estafette\": \"orders/1\", \"game\": \"%s\", \"step\": 1, \"player\": \"%s\",\n"
		     "   \"prev\": \"%s\", \"seq\": 1,\n"
		     "   \"entropy\": \"<64 hex digits>\", \"orders\": []}\n\n"
		     "Sign it with the key you gave the GM:\n\n"
		     "  ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n estafette-orders join.json\n\n"
		     "and mail join.json and join.json.sig as attachments to %s (or submit them as the GM's "
		     "guide for this game says). A receipt confirms your key works; once every player has "
		     "joined%s, step 1 resolves and your first report says what step 2 asks of you.\n",
		     id, json_string_value(json_object_get(a, "player")),
		     json_string_value(json_object_get(pending, "state_sha256")), to,
		     json_string_value(json_object_get(pending, "deadline")) ? " or the deadline passes" : "");
	if (json_string_value(json_object_get(pending, "deadline")))
		est_text_add(t, "\nThe deadline is %s.\n", json_string_value(json_object_get(pending, "deadline")));
}

int est_engine_invite(int *sent_out, est_game *game, const json_t *pending, time_t now)
{
	const char *kind = json_string_value(json_object_get(pending, "kind"));
	char *sender;
	int error;

	*sent_out = 0;
	if (!kind || strcmp(kind, "join") != 0)
		return 0;
	if (!(sender = est_game_sender(game)))
		return est_error_set(EST_ENOMEM, "out of memory");
	error = to_missing(sent_out, game, pending, "join", invitation, sender, now);
	free(sender);
	return error;
}
