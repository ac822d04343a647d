/*
 * Reports (docs/mail.md): the report data model for one
 * reader, rendered with templates/<ruleset>/report.<ext>.mustache.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "render/render.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

/* Whether `reader` (a player record; NULL: the public) may see `event`. */
static int visible(const json_t *event, const json_t *reader)
{
	const json_t *to = json_object_get(event, "visible_to");
	size_t i, j;
	json_t *a, *b;

	if (!to)
		return 1;
	json_array_foreach(to, i, a)
		json_array_foreach(json_object_get(reader, "powers"), j, b)
			if (json_equal(a, b))
				return 1;
	return 0;
}

static json_t *visible_events(const json_t *events_doc, const json_t *reader)
{
	json_t *out = json_array(), *event;
	size_t i;

	json_array_foreach(json_object_get(events_doc, "events"), i, event)
		if (visible(event, reader))
			json_array_append(out, event);
	return out;
}

/*
 * docs/adding-a-ruleset.md "Rules data": the game's rules/ files whose
 * values were made up where the seed is silent, for the report's banner.
 */
static json_t *provisional(const json_t *rules)
{
	json_t *out = json_array(), *file;
	const char *key;

	json_object_foreach((json_t *)rules, key, file) {
		const char *provenance = json_string_value(json_object_get(file, "provenance"));
		char *name = est_strdup_printf("%s.json", key);
		if (provenance && strcmp(provenance, "placeholder") == 0 && name)
			json_array_append_new(out, json_pack("{s:s, s:O*}", "file", name, "note",
							     json_object_get(file, "note")));
		free(name);
	}
	return out;
}

/*
 * The reader's own view under each power it holds: `view` is the first
 * power's, and a player holding several sees each one's private parts.
 */
static int own_views(json_t **out, est_game *game, const json_t *state, const json_t *player)
{
	json_t *views = json_array(), *power;
	size_t i;
	int error;

	json_array_foreach(json_object_get(player, "powers"), i, power) {
		json_t *view = NULL;
		if ((error = game->ruleset->view(&view, state, game->rules, json_string_value(power))) < 0) {
			json_decref(views);
			return error;
		}
		json_array_append_new(views, json_pack("{s:O, s:o}", "power", power, "view", view));
	}
	*out = views;
	return 0;
}

int est_report_build(json_t **out, est_game *game, long long step, const json_t *wrapped_state,
		     const char *sha, const json_t *events_doc, const json_t *dice_doc,
		     const json_t *player, time_t deadline)
{
	const json_t *state = json_object_get(wrapped_state, "state");
	const char *power = json_string_value(json_array_get(json_object_get(player, "powers"), 0));
	json_t *view = NULL, *pending = NULL, *awaiting = NULL, *data = NULL, *views = NULL;
	int error;

	if ((error = game->ruleset->view(&view, state, game->rules, power)) < 0 ||
	    (error = est_turn_ruleset_pending(&pending, game->ruleset, game->rules, wrapped_state)) < 0 ||
	    (error = est_turn_awaiting(&awaiting, game, pending, deadline)) < 0)
		goto out;
	data = json_pack("{s:O, s:s, s:I, s:O?, s:b, s:o, s:o, s:O, s:I, s:s, s:b, s:o}",
		"game", json_object_get(game->game, "id"), "ruleset", game->ruleset->name,
		"step", (json_int_t)step, "kind", json_object_get(events_doc, "kind"),
		"public", player == NULL, "events", visible_events(events_doc, player),
		"awaiting", awaiting, "prompt", json_object_get(pending, "prompt"),
		"next_step", (json_int_t)(step + 1), "state_sha256", sha,
		"over", strcmp(json_string_value(json_object_get(pending, "mode")), "over") == 0,
		"view", view);
	awaiting = view = NULL;
	if (!data) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	json_object_set_new(data, "provisional", provisional(game->rules));
	if ((error = own_views(&views, game, state, player)) < 0) {
		json_decref(data);
		goto out;
	}
	json_object_set_new(data, "views", views);
	views = NULL;
	if (player)
		json_object_set_new(data, "player", json_pack("{s:O, s:O, s:O}", "id",
			json_object_get(player, "id"), "name", json_object_get(player, "name"),
			"powers", json_object_get(player, "powers")));
	if (dice_doc)
		json_object_set_new(data, "dice", json_deep_copy(dice_doc));
	*out = data;
out:
	json_decref(awaiting);
	json_decref(view);
	json_decref(pending);
	return error;
}

/* A JSON file of step `step`'s tag, or NULL when the step has none (step 0). */
static json_t *step_json(est_game *game, const char *tag, const char *name, long long step,
			 const char *file)
{
	char path[80];
	json_t *value = NULL;

	snprintf(path, sizeof(path), "turns/%s/%s", name, file);
	if (step > 0 && est_game_read_json(&value, game, tag, path) == 0)
		return value;
	est_error_clear();
	return NULL;
}

/*
 * A sealed game's step as its players see it: the whole state and every
 * event from the sealed store (step 0 holds nothing sealed).
 */
static int sealed_parts(json_t **wrapped, json_t **events, est_game *game, long long step)
{
	json_t *full = NULL;
	int error;

	if (!game->sealed_store || step == 0)
		return 0;
	if ((error = est_sealed_step_json(&full, game, step, "state.json")) < 0)
		return error;
	json_decref(*wrapped);
	*wrapped = full;
	json_decref(*events);
	return est_sealed_step_json(events, game, step, "events.json");
}

int est_report_data(json_t **out, est_game *game, long long step, const json_t *player)
{
	char name[32], tag[40], *text = NULL, sha[65];
	json_t *wrapped = NULL, *events = NULL, *dice = NULL;
	time_t deadline;
	size_t len;
	int error;

	est_step_name(name, step);
	snprintf(tag, sizeof(tag), "step-%s", name);
	if (est_store_read(&text, &len, game->store, tag, "state.json") < 0)
		return est_error_set(EST_ENOTFOUND, "step %lld has not been resolved (no tag %s); the latest "
				     "is step %lld", step, tag, game->step);
	est_sha256_hex(sha, text, len);
	if ((error = est_json_parse(&wrapped, text, len, "state.json")) < 0)
		goto out;
	events = step_json(game, tag, name, step, "events.json");
	dice = step_json(game, tag, name, step, "dice.json");
	if ((error = sealed_parts(&wrapped, &events, game, step)) < 0)
		goto out;
	if ((error = est_turn_deadline(&deadline, game, tag)) < 0)
		goto out;
	error = est_report_build(out, game, step, wrapped, sha, events, dice, player, deadline);
out:
	free(text);
	json_decref(dice);
	json_decref(events);
	json_decref(wrapped);
	return error;
}

/* Where templates come from: the game's own templates/ folder first, then the installed one. */
typedef struct {
	est_game *game;
	char *dir; /* the installed templates/<ruleset> folder */
} template_source;

/*
 * Read template `name` ("report.txt", "map.svg", or a partial's name) with
 * ".mustache" added: templates/NAME.mustache in the game repository at
 * main if there is one, else the installed file. *from_game says which.
 */
static int load_template(char **out, int *from_game, template_source *src, const char *name)
{
	char *path = est_strdup_printf("templates/%s.mustache", name);
	size_t len;
	int error;

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	error = est_store_read(out, &len, src->game->store, NULL, path);
	free(path);
	if (error != EST_ENOTFOUND) {
		*from_game = 1;
		return error;
	}
	est_error_clear();
	*from_game = 0;
	if (!(path = est_strdup_printf("%s/%s.mustache", src->dir, name)))
		return est_error_set(EST_ENOMEM, "out of memory");
	error = est_file_read(out, &len, path, 1 << 20);
	free(path);
	return error;
}

static int load_partial(char **out, const char *name, void *payload)
{
	int from_game;

	if (strchr(name, '/') || name[0] == '.')
		return est_error_set(EST_EINVAL, "partial \"%s\": names a path; use a plain name", name);
	return load_template(out, &from_game, payload, name);
}

/*
 * The SHA-256 (hex) of a template's text, remembered for the last texts
 * seen: every report of every game hashes the same installed templates
 * (4% of a batch step's instructions). Compared byte for byte, so a
 * changed template is hashed anew; not remembered when out of memory.
 */
static void template_sha(char sha[65], const char *text)
{
	static struct {
		char *text;
		size_t len;
		char sha[65];
	} seen[8];
	static size_t next;
	size_t len = strlen(text), i;

	for (i = 0; i < sizeof(seen) / sizeof(seen[0]); i++)
		if (seen[i].text && seen[i].len == len && memcmp(seen[i].text, text, len) == 0) {
			memcpy(sha, seen[i].sha, 65);
			return;
		}
	est_sha256_hex(sha, text, len);
	i = next++ % (sizeof(seen) / sizeof(seen[0]));
	free(seen[i].text);
	if ((seen[i].text = malloc(len ? len : 1))) {
		memcpy(seen[i].text, text, len);
		seen[i].len = len;
		memcpy(seen[i].sha, sha, 65);
	}
}

int est_report_render(char **out, est_game *game, json_t *data, const char *name)
{
	char *sub = est_strdup_printf("templates/%s", game->ruleset->name), *template = NULL;
	template_source src = {game, NULL};
	char sha[65];
	int error, from_game, html = strstr(name, ".txt") == NULL;

	if (!sub)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (!(src.dir = est_game_datadir(sub))) {
		error = est_error_code();
		goto out;
	}
	if ((error = load_template(&template, &from_game, &src, name)) < 0)
		goto out;
	/* The report says which template made it: the game's own, or the installed one. */
	template_sha(sha, template);
	json_object_set_new(data, "template", json_pack("{s:s, s:s, s:s, s:s#}", "name", name,
		"source", from_game ? "the game's templates/ folder" : "estafette " EST_VERSION,
		"sha256", sha, "short", sha, (int)12));
	error = est_render(out, template, data, html ? EST_RENDER_ESCAPE_HTML : EST_RENDER_NO_ESCAPE,
			   load_partial, &src);
	if (error < 0)
		est_error_prefix("template %s%s", from_game ? "templates/" : "", name);
out:
	free(template);
	free(src.dir);
	free(sub);
	return error;
}

int est_report_format(char **out, est_game *game, long long step, const char *player,
		    const char *format)
{
	const json_t *reader = NULL;
	json_t *data = NULL;
	int error;

	if (step < 0)
		step = game->step;
	if (player && !(reader = est_game_player(game, player)))
		return est_error_set(EST_ENOTFOUND, "--player \"%s\" is not a player of this game", player);
	if (strcmp(format, "text") != 0 && strcmp(format, "html") != 0 && strcmp(format, "svg") != 0 &&
	    strcmp(format, "json") != 0)
		return est_error_set(EST_EUSAGE, "--format \"%s\": choose text, html, svg or json", format);
	if ((error = est_report_data(&data, game, step, reader)) < 0)
		return error;
	if (strcmp(format, "json") == 0) {
		*out = est_json_text(data);
		error = *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
	} else {
		error = est_report_render(out, game, data, strcmp(format, "text") == 0 ? "report.txt" :
					  strcmp(format, "html") == 0 ? "report.html" : "map.svg");
	}
	json_decref(data);
	return error;
}
