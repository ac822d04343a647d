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
#include "step/step.h"
#include "util/error.h"
#include "util/util.h"

typedef void (*notice_fn)(est_text *t, char subject[200], est_game *game, const json_t *pending,
			  const json_t *a, const char *arg);
/* A file to attach to the notice for awaited entry `a`: *name and *text new. */
typedef int (*file_fn)(char **name, char **text, est_game *game, const json_t *pending, const json_t *a);

/*
 * A notice, written by `write`, to each player the open step (`pending`,
 * est_intake_pending's) awaits whose file has not arrived: once per step
 * and player (outbox name NNNN-PLAYER-WHAT).
 */
static int to_missing(int *sent_out, est_game *game, const json_t *pending, const char *what, notice_fn write,
		      file_fn file, const char *arg, time_t now)
{
	json_t *a;
	size_t i;
	int error = 0;

	json_array_foreach(json_object_get(pending, "awaiting"), i, a) {
		const char *player = json_string_value(json_object_get(a, "player"));
		char name[128], subject[200], *file_name = NULL, *file_text = NULL;
		est_mail_attachment att = {0};
		est_text t = {0};

		if (json_is_true(json_object_get(a, "received")))
			continue;
		snprintf(name, sizeof(name), "%04lld-%s-%s",
			 (long long)json_integer_value(json_object_get(pending, "step")), player, what);
		write(&t, subject, game, pending, a, arg);
		if (file && (error = file(&file_name, &file_text, game, pending, a)) == 0)
			att = (est_mail_attachment){.filename = file_name, .content_type = "application/json",
						    .data = file_text, .len = strlen(file_text)};
		if (error == 0)
			error = t.failed ? est_error_set(EST_ENOMEM, "out of memory") :
				est_game_notice(game, name, json_string_value(json_object_get(
					est_game_player(game, player), "email")), subject, t.text, NULL, now,
					file_text ? &att : NULL, file_text ? 1 : 0);
		free(file_name);
		free(file_text);
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
	return to_missing(sent_out, game, pending, "reminder", reminder, NULL, NULL, now);
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
		est_text_add(t, "%s%s", i ? ", " : " ", json_string_value(power));
	est_text_add(t, ".\n\nStep 1 is the join: every player sends a signed order file with no orders. "
		     "It shows your key works, and your file's entropy goes into the game's set-up draws "
		     "(the first shuffle, the order of play), so that nobody, the GM included, could "
		     "choose them.\n\n"
		     "The file is attached, filled in: orders-0001-%s.json (game %s, step 1, \"prev\"\n"
		     "%s, seq 1, no orders). Sign it with the key you gave\n"
		     "the GM:\n\n"
		     "  estafette sign -f ~/.ssh/id_ed25519 orders-0001-%s.json\n\n"
		     "which fills in its \"entropy\" with fresh random digits and writes the .sig (or\n"
		     "put 64 random hex digits of your own there, from openssl rand -hex 32, and run\n"
		     "ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n estafette-orders on it). Mail the\n"
		     "file and its .sig as attachments to %s. A receipt confirms your key works; once\n"
		     "every player has joined%s, step 1 resolves and your first report says what step 2\n"
		     "asks of you.\n",
		     json_string_value(json_object_get(a, "player")), id,
		     json_string_value(json_object_get(pending, "state_sha256")),
		     json_string_value(json_object_get(a, "player")), to,
		     json_string_value(json_object_get(pending, "deadline")) ? " or the deadline passes" : "");
	if (json_string_value(json_object_get(pending, "deadline")))
		est_text_add(t, "\nThe deadline is %s.\n", json_string_value(json_object_get(pending, "deadline")));
}

/* The join's file for entry `a`, filled in but for its entropy: the invitation's attachment. */
static int join_file(char **name, char **text, est_game *game, const json_t *pending, const json_t *a)
{
	return est_report_order_file(name, text, game, 1, json_string_value(json_object_get(a, "player")),
				     json_string_value(json_object_get(pending, "state_sha256")), 1);
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
	error = to_missing(sent_out, game, pending, "join", invitation, join_file, sender, now);
	free(sender);
	return error;
}
