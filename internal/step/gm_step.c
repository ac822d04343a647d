/*
 * GM acts that change the state: end the game, adjust the state,
 * roll back to an earlier step. Each is a step of its own: a gm/1 file the
 * GM signs, a manifest of kind "gm", the chain value revealed as for any
 * step (no rolls), the state the act gives, a report and a tag. History is
 * never rewritten: a rollback is a new step whose state is an old one, and
 * the steps after it draw fresh dice from the chain. audit applies the same
 * act to the previous state (est_step_gm_apply) and compares.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "util/error.h"
#include "util/util.h"

/* RFC 6901: a reference token unescaped in place ("~1" is "/", "~0" is "~"); 0 if it holds another "~". */
static int pointer_token(char *token)
{
	char *in = token, *out = token;

	for (; *in; in++, out++) {
		if (*in != '~')
			*out = *in;
		else if (in[1] == '0' || in[1] == '1')
			*out = *++in == '0' ? '~' : '/';
		else
			return 0;
	}
	*out = '\0';
	return 1;
}

/* The array index `token` names, or -1: decimal digits, no leading zero, within the array. */
static long pointer_index(const json_t *array, const char *token)
{
	char *end;
	long n;

	if (!*token || (token[0] == '0' && token[1]) || strspn(token, "0123456789") != strlen(token))
		return -1;
	n = strtol(token, &end, 10);
	return n >= 0 && (size_t)n < json_array_size(array) ? n : -1;
}

/* The member or element `token` of `parent`, or NULL. */
static json_t *pointer_step(json_t *parent, const char *token)
{
	long n;

	if (json_is_object(parent))
		return json_object_get(parent, token);
	if (json_is_array(parent) && (n = pointer_index(parent, token)) >= 0)
		return json_array_get(parent, (size_t)n);
	return NULL;
}

/*
 * Set one {"path", "value"} in `state`: `path` is a JSON pointer (RFC 6901)
 * to a member or an array element that exists (a typo is not a new field).
 */
static int set_one(json_t *state, const json_t *item, size_t i)
{
	const char *path = json_string_value(json_object_get(item, "path"));
	json_t *parent = state, *value = json_object_get(item, "value");
	char *copy = path && path[0] == '/' ? strdup(path + 1) : NULL, *key, *slash;
	int error = 0, ok = 1;

	if (!copy || !value) {
		free(copy);
		return est_error_set(EST_EINVAL, "gm adjust: set[%zu] needs \"path\" (a JSON pointer such "
				     "as /countries/Austria/France or /pieces/3/square) and \"value\"", i);
	}
	for (key = copy; ok && (slash = strchr(key, '/')); key = slash + 1) {
		*slash = '\0';
		ok = pointer_token(key) && (parent = pointer_step(parent, key)) != NULL;
	}
	ok = ok && pointer_token(key) && pointer_step(parent, key);
	if (!ok)
		error = est_error_set(EST_EINVAL, "gm adjust: %s is not in the state; name a field or an "
				      "element that state.json has under \"state\" (a JSON pointer: /pieces/3 is "
				      "the fourth piece, ~1 stands for / and ~0 for ~ in a name)", path);
	else if (json_is_object(parent))
		json_object_set(parent, key, value);
	else
		json_array_set(parent, (size_t)pointer_index(parent, key), value);
	free(copy);
	return error;
}

/* Each {"path", "value"} of `set`, told as an event of its own. */
static int adjust(json_t *state, const json_t *set, json_t *events, const char *reason)
{
	const json_t *item;
	size_t i;
	int error;

	json_array_foreach(set, i, item) {
		if ((error = set_one(state, item, i)) < 0)
			return error;
		char *value = json_dumps(json_object_get(item, "value"), JSON_COMPACT | JSON_ENCODE_ANY);
		char *line = est_strdup_printf("The GM set %s to %s: %s",
					       json_string_value(json_object_get(item, "path")),
					       value ? value : "?", reason);
		json_array_append_new(events, json_pack("{s:s, s:s, s:s}", "type", "gm", "act", "adjust",
							"text", line ? line : "The GM adjusted the state"));
		free(line);
		free(value);
	}
	return 0;
}

static int ended(json_t *wrapped, json_t *events, const json_t *act)
{
	const char *result = json_string_value(json_object_get(act, "result"));
	const char *winner = json_string_value(json_object_get(act, "winner"));
	const char *reason = json_string_value(json_object_get(act, "reason"));
	char *text = winner ? est_strdup_printf("%s wins (%s): %s", winner, result, reason) :
			      est_strdup_printf("%s: %s", result, reason);
	char *line = text ? est_strdup_printf("The GM ended the game: %s", text) : NULL;

	if (!line) {
		free(text);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	json_object_set_new(wrapped, "ended", json_pack("{s:s, s:s?, s:s, s:s}", "result", result,
							"winner", winner, "reason", reason, "text", text));
	json_array_append_new(events, json_pack("{s:s, s:s, s:s}", "type", "gm", "act", "end", "text", line));
	free(line);
	free(text);
	return 0;
}

static int rolled_back(json_t **state, est_store *store, json_t *events, const json_t *act, long long step)
{
	long long to = json_integer_value(json_object_get(act, "to_step"));
	char tag[40];
	json_t *old = NULL;
	int error;

	if (to < 0 || to >= step - 1)
		return est_error_set(EST_EINVAL, "gm rollback: --to %lld must be an earlier step, 0 to %lld",
				     to, step - 2);
	snprintf(tag, sizeof(tag), "step-%04lld", to);
	if ((error = est_store_read_json(&old, store, tag, "state.json")) < 0)
		return error;
	/* The set-up draws took every player's entropy at the join; a step of the GM's would take none. */
	if (json_object_get(old, "join")) {
		json_decref(old);
		return est_error_set(EST_EINVAL, "gm rollback: --to %lld would undo the join, whose set-up "
				     "draws took every player's entropy; roll back to step 1 or later", to);
	}
	json_decref(*state);
	*state = json_incref(json_object_get(old, "state"));
	json_decref(old);
	char *text = est_strdup_printf("The GM rolled the game back to the state of step %lld: %s", to,
				       json_string_value(json_object_get(act, "reason")));
	json_array_append_new(events, json_pack("{s:s, s:s, s:I, s:s}", "type", "gm", "act", "rollback",
						"to_step", (json_int_t)to, "text", text ? text : "rollback"));
	free(text);
	return 0;
}

int est_step_gm_apply(json_t **wrapped_out, json_t **events_out, est_store *store,
			const json_t *prev_wrapped, const json_t *act, long long step)
{
	const char *kind = json_string_value(json_object_get(act, "act"));
	json_t *state = json_deep_copy(json_object_get(prev_wrapped, "state")), *events = json_array();
	json_t *wrapped = NULL;
	int error = 0;

	if (!state || !events) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* Before the join, a step of the GM's would leave the set-up draws to one without the players. */
	if ((strcmp(kind, "adjust") == 0 || strcmp(kind, "rollback") == 0) && est_turn_is_join(prev_wrapped)) {
		error = est_error_set(EST_EINVAL, "gm %s: the game awaits the join (step 1), whose set-up "
				      "draws take every player's entropy; a step of the GM's now would have them "
				      "drawn without it. Wait for the join to resolve, or end the game", kind);
		goto out;
	}
	if (strcmp(kind, "adjust") == 0)
		error = adjust(state, json_object_get(act, "set"), events,
			       json_string_value(json_object_get(act, "reason")));
	else if (strcmp(kind, "rollback") == 0)
		error = rolled_back(&state, store, events, act, step);
	else if (strcmp(kind, "end") != 0)
		error = est_error_set(EST_EINVAL, "gm act \"%s\" does not change the state", kind);
	if (error < 0)
		goto out;
	wrapped = json_pack("{s:O, s:I, s:O}", "game", json_object_get(prev_wrapped, "game"), "step",
			    (json_int_t)step, "state", state);
	if (!wrapped || (strcmp(kind, "end") == 0 && (error = ended(wrapped, events, act)) < 0)) {
		error = error ? error : est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	*wrapped_out = wrapped;
	*events_out = events;
	wrapped = events = NULL;
out:
	json_decref(wrapped);
	json_decref(events);
	json_decref(state);
	return error;
}
