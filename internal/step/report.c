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
#include "mail/mail.h"
#include "orders/orders.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

/* Whether `player` (a player record; NULL: the public) holds one of the array `powers`. */
static int holds_one_of(const json_t *player, const json_t *powers)
{
	const json_t *a, *b;
	size_t i, j;

	json_array_foreach(powers, i, a)
		json_array_foreach(json_object_get(player, "powers"), j, b)
			if (json_equal(a, b))
				return 1;
	return 0;
}

/* Whether `reader` (a player record; NULL: the public) may see `event`. */
static int visible(const json_t *event, const json_t *reader)
{
	const json_t *to = json_object_get(event, "visible_to");

	return !to || holds_one_of(reader, to);
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

/* The awaiting entry (turn.h est_turn_awaiting) of `player`, or NULL when the step does not await it. */
static const json_t *awaiting_entry(const json_t *awaiting, const json_t *player)
{
	const char *id = json_string_value(json_object_get(player, "id"));
	const json_t *entry;
	size_t i;

	json_array_foreach(awaiting, i, entry)
		if (id && strcmp(json_string_value(json_object_get(entry, "player")), id) == 0)
			return entry;
	return NULL;
}

/*
 * A number's placeholder ("<number>", "<number: 4, 5, 6 or 9>": the rulesets'
 * convention, ruleset.h "choices") shown as a number, not a string: players
 * copy it with its quotes, write "4", and the strict parser refuses a string
 * where an integer belongs. Done in place: the text only shrinks.
 */
static void unquote_numbers(char *text)
{
	char *p = text, *close;

	while (p && (p = strstr(p, "\"<number")) && (close = strstr(p, ">\""))) {
		memmove(p, p + 1, (size_t)(close - p));               /* "<number...> one to the left */
		memmove(close, close + 2, strlen(close + 2) + 1);     /* and the two quotes gone */
		p = close;
	}
}

/* Whether `player` may send `choice`: it names no powers, or one the player holds (ruleset.h). */
static int choice_for_player(const json_t *choice, const json_t *player)
{
	const json_t *only = json_object_get(choice, "powers");

	return !json_is_array(only) || holds_one_of(player, only);
}

/*
 * The step's choices that `player` may send, for his report, each with its
 * order item as one line of JSON ("json").
 */
static json_t *choices_view(const json_t *pending, const json_t *player)
{
	json_t *out = json_array(), *choice;
	char *text;
	size_t i;

	json_array_foreach(json_object_get(pending, "choices"), i, choice) {
		if (!choice_for_player(choice, player))
			continue;
		text = json_dumps(json_object_get(choice, "order"), JSON_PRESERVE_ORDER);
		unquote_numbers(text);
		json_array_append_new(out, json_pack("{s:s?, s:s?}", "json", text, "text",
						     json_string_value(json_object_get(choice, "text"))));
		free(text);
	}
	return out;
}

/*
 * What an awaited player needs to answer (docs/player-guide.md): the order
 * file filled in but for its entropy and orders (order_file {name, text}),
 * the step's choices that `player` may send, the address to send it to,
 * and whether this is the join. The seq is one above the file recorded for
 * the awaited step. Only the latest step's report has it: an older one's
 * next step is over.
 */
static int add_answer(json_t *data, est_game *game, long long step, const json_t *pending,
		      const json_t *player, const json_t *entry, const char *sha)
{
	const char *pid = json_string_value(json_object_get(entry, "player"));
	long long seq = 1 + json_integer_value(json_object_get(entry, "seq"));
	char *sender = est_game_sender(game), *address = NULL;
	char *text = NULL, *name = NULL;
	int error = 0;

	if (est_report_order_file(&name, &text, game, step + 1, pid, sha, seq) < 0)
		return EST_ENOMEM;
	address = sender ? est_mail_address_of(sender) : NULL;
	if (!address ||
	    json_object_set_new(data, "order_file", json_pack("{s:s, s:s, s:I}", "name", name, "text", text,
							       "seq", (json_int_t)seq)) < 0 ||
	    json_object_set_new(data, "orders_address", json_string(address)) < 0 ||
	    json_object_set_new(data, "choices", choices_view(pending, player)) < 0 ||
	    json_object_set_new(data, "join", json_boolean(strcmp(json_string_value(json_object_get(
				pending, "kind")), "join") == 0)) < 0)
		error = est_error_set(EST_ENOMEM, "out of memory");
	free(text);
	free(name);
	free(address);
	free(sender);
	return error;
}

/* "England, Prussia": a player's powers as the reports write them (templates join no lists). */
static json_t *powers_text(const json_t *powers)
{
	est_text t = {0};
	const json_t *p;
	json_t *out;
	size_t i;

	json_array_foreach(powers, i, p)
		est_text_add(&t, "%s%s", i ? ", " : "", json_string_value(p));
	out = t.failed ? NULL : json_string(t.text ? t.text : "");
	free(t.text);
	return out;
}

/* Each awaiting entry's "powers_text", its player's powers as powers_text() writes them. */
static int add_powers_text(json_t *awaiting)
{
	json_t *entry;
	size_t i;

	json_array_foreach(awaiting, i, entry)
		if (json_object_set_new(entry, "powers_text", powers_text(json_object_get(entry, "powers"))) < 0)
			return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/*
 * The reader's record, and who holds each power ("holders": {power: {id,
 * name}}), so that a template names the player behind a power
 * ({{holders.England.name}}): the rulesets know powers, not players.
 */
static int add_players(json_t *data, est_game *game, const json_t *player)
{
	json_t *holders = json_object(), *p, *power;
	size_t i, j;

	json_array_foreach(json_object_get(game->game, "players"), i, p)
		json_array_foreach(json_object_get(p, "powers"), j, power)
			if (holders && json_object_set_new(holders, json_string_value(power),
						json_pack("{s:O, s:O*}", "id", json_object_get(p, "id"), "name",
							  json_object_get(p, "name"))) < 0) {
				json_decref(holders);
				holders = NULL;
			}
	if (!holders || json_object_set_new(data, "holders", holders) < 0 ||
	    (player && json_object_set_new(data, "player", json_pack("{s:O, s:O*, s:O, s:o}", "id",
			json_object_get(player, "id"), "name", json_object_get(player, "name"),
			"powers", json_object_get(player, "powers"),
			"powers_text", powers_text(json_object_get(player, "powers")))) < 0))
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

int est_report_order_file(char **name_out, char **text_out, est_game *game, long long step,
			  const char *player, const char *sha, long long seq)
{
	json_t *skeleton = json_pack("{s:s, s:O, s:I, s:s, s:s, s:I, s:s, s:[]}", "estafette", "orders/1",
				     "game", json_object_get(game->game, "id"), "step", (json_int_t)step,
				     "player", player, "prev", sha, "seq", (json_int_t)seq, "entropy",
				     EST_ORDERS_ENTROPY_PLACEHOLDER, "orders");
	char *text = skeleton ? json_dumps(skeleton, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;

	json_decref(skeleton);
	*name_out = est_strdup_printf("orders-%04lld-%s.json", step, player);
	*text_out = text ? est_strdup_printf("%s\n", text) : NULL;
	free(text);
	if (!*name_out || !*text_out) {
		free(*name_out);
		free(*text_out);
		*name_out = *text_out = NULL;
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

int est_report_build(json_t **out, est_game *game, long long step, const json_t *wrapped_state,
		     const char *sha, const json_t *events_doc, const json_t *dice_doc,
		     const json_t *player, time_t deadline)
{
	const json_t *state = json_object_get(wrapped_state, "state");
	const char *power = json_string_value(json_array_get(json_object_get(player, "powers"), 0)), *kind;
	json_t *view = NULL, *pending = NULL, *awaiting = NULL, *data = NULL, *views = NULL;
	int error;

	if ((error = game->ruleset->view(&view, state, game->rules, power)) < 0 ||
	    (error = est_turn_ruleset_pending(&pending, game->ruleset, game->rules, wrapped_state)) < 0 ||
	    (error = est_turn_awaiting(&awaiting, game, pending, deadline)) < 0 ||
	    (error = add_powers_text(awaiting)) < 0)
		goto out;
	/* Step 0 has no events doc: it is the game as `new` made it, not "step 0 ()". */
	kind = json_string_value(json_object_get(events_doc, "kind"));
	data = json_pack("{s:O, s:s, s:I, s:s, s:b, s:o, s:o, s:O, s:I, s:s, s:b, s:o}",
		"game", json_object_get(game->game, "id"), "ruleset", game->ruleset->name,
		"step", (json_int_t)step, "kind", kind ? kind : "new game",
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
	const json_t *entry = player ? awaiting_entry(json_object_get(data, "awaiting"), player) : NULL;
	if (entry && step == game->step &&
	    (error = add_answer(data, game, step, pending, player, entry, sha)) < 0) {
		json_decref(data);
		goto out;
	}
	if ((error = add_players(data, game, player)) < 0) {
		json_decref(data);
		goto out;
	}
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
	char *dir;      /* the installed templates/<ruleset> folder */
	int installed;  /* the installed folder only: never the game's */
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
	error = src->installed ? EST_ENOTFOUND : est_store_read(out, &len, src->game->store, NULL, path);
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

/* Characters (UTF-8 code points) in s[0..n): a line's width as a mail reader shows it. */
static size_t columns(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n; i++)
		cols += ((unsigned char)s[i] & 0xc0) != 0x80;
	return cols;
}

/*
 * Plain-text reports are mailed: keep each line within TEXT_COLUMNS
 * (RFC 5322 2.1.1's 78) by breaking a longer one at its last space that
 * fits, the rest indented two more than the line. A word longer than a
 * line stays whole.
 */
#define TEXT_COLUMNS 78
static char *wrap_text(const char *text)
{
	est_text t = {0};
	const char *line = text;

	while (*line) {
		size_t len = strcspn(line, "\n"), indent = strspn(line, " ");
		const char *rest = line, *end = line + len;
		int first = 1;

		while (columns(rest, (size_t)(end - rest)) + (first ? 0 : indent + 2) > TEXT_COLUMNS) {
			size_t room = TEXT_COLUMNS - (first ? 0 : indent + 2), cols = 0;
			const char *p = rest, *cut = NULL;

			for (; p < end && cols <= room; p++) {
				if (*p == ' ' && p > rest && cols <= room && p[-1] != ' ')
					cut = p;
				cols += ((unsigned char)*p & 0xc0) != 0x80;
			}
			if (!cut || cut - rest <= (ptrdiff_t)indent)
				break;
			est_text_add(&t, "%*s%.*s\n", first ? 0 : (int)indent + 2, "", (int)(cut - rest), rest);
			rest = cut;
			while (rest < end && *rest == ' ')
				rest++;
			first = 0;
		}
		est_text_add(&t, "%*s%.*s%s", first ? 0 : (int)indent + 2, "", (int)(end - rest), rest,
			     *end ? "\n" : "");
		line = *end ? end + 1 : end;
	}
	if (t.failed) {
		free(t.text);
		return NULL;
	}
	return t.text ? t.text : strdup("");
}

static int render(char **out, est_game *game, json_t *data, const char *name, int installed)
{
	char *sub = est_strdup_printf("templates/%s", game->ruleset->name), *template = NULL;
	template_source src = {game, NULL, installed};
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
	if (error == 0 && !html) {
		char *wrapped = wrap_text(*out);
		free(*out);
		*out = wrapped;
		if (!wrapped)
			error = est_error_set(EST_ENOMEM, "out of memory");
	}
out:
	free(template);
	free(src.dir);
	free(sub);
	return error;
}

int est_report_render(char **out, est_game *game, json_t *data, const char *name)
{
	return render(out, game, data, name, 0);
}

static int report_format(char **out, est_game *game, long long step, const char *player,
			 const char *format, int installed)
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
		error = render(out, game, data, strcmp(format, "text") == 0 ? "report.txt" :
			       strcmp(format, "html") == 0 ? "report.html" : "map.svg", installed);
	}
	json_decref(data);
	return error;
}

int est_report_format(char **out, est_game *game, long long step, const char *player,
		    const char *format)
{
	return report_format(out, game, step, player, format, 0);
}

int est_report_format_installed(char **out, est_game *game, long long step, const char *format)
{
	return report_format(out, game, step, NULL, format, 1);
}
