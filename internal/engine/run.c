/*
 * `run`: resolve what is due, queue every player's report, deliver the
 * outbox (docs/mail.md). Each report is queued right after
 * its step's commit, and the latest step's are queued again at the start
 * of every run (queueing is idempotent), so a run killed between a commit
 * and its mail loses nothing: the next run queues and sends it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "mail/mail.h"
#include "render/render.h"
#include "util/error.h"
#include "util/util.h"

/* A guard against a ruleset whose automatic steps never wait on anyone. */
#define MAX_STEPS_PER_RUN 100

/* "\"Name\" <addr>": quoted, so commas and the like in a name stay in it. */
static char *mailbox(const char *name, const char *addr)
{
	size_t n = strlen(name), used = 0;
	char *quoted = malloc(2 * n + 1), *box;

	if (!quoted)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (name[i] == '"' || name[i] == '\\')
			quoted[used++] = '\\';
		quoted[used++] = name[i];
	}
	quoted[used] = '\0';
	box = est_strdup_printf("\"%s\" <%s>", quoted, addr);
	free(quoted);
	return box;
}

/* A report's parts: the text is required; the HTML and the SVG map where the ruleset has them. */
typedef struct {
	char *text, *html, *svg;
	unsigned char *png; /* the map's picture, inline in the HTML */
	size_t png_len;
} report_parts;

/* The map's picture: drawn this many pixels wide, shown at MAP_PNG_SHOWN (sharp on dense screens). */
#define MAP_PNG_WIDTH 1200
#define MAP_PNG_SHOWN 800

/*
 * The last map drawn while one step's reports are queued: players who see
 * the same map (byte for byte) share its picture, which is most of what a
 * report costs to compose.
 */
typedef struct {
	char *svg;
	unsigned char *png; /* NULL: librsvg could not draw that map */
	size_t png_len;
} map_picture;

static void map_picture_clear(map_picture *pic)
{
	free(pic->svg);
	free(pic->png);
	memset(pic, 0, sizeof(*pic));
}

/* A copy of `len` bytes at `data` into *out (NULL when `data` is). 0, or EST_ENOMEM. */
static int copy_png(unsigned char **out, const unsigned char *data, size_t len)
{
	*out = NULL;
	if (data && !(*out = malloc(len)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if (data)
		memcpy(*out, data, len);
	return 0;
}

/*
 * parts->svg's picture into parts->png: `last`'s when it drew the same
 * map, else drawn (and kept in `last`). A map librsvg cannot draw costs
 * only the picture: the run warns, once a map, and the mail goes without.
 */
static int draw_map(report_parts *parts, est_game *game, long long step, map_picture *last)
{
	int error;

	if (last->svg && strcmp(last->svg, parts->svg) == 0) {
		parts->png_len = last->png_len;
		return copy_png(&parts->png, last->png, last->png_len);
	}
	if (est_render_png(&parts->png, &parts->png_len, parts->svg, strlen(parts->svg), MAP_PNG_WIDTH) < 0) {
		if (est_error_code() == EST_ENOMEM)
			return EST_ENOMEM;
		est_game_warn(game, "step %lld: the report goes without the map's picture: %s", step,
			      est_error_message());
		est_error_clear();
	}
	map_picture_clear(last);
	if (!(last->svg = strdup(parts->svg)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = copy_png(&last->png, parts->png, parts->png_len)) < 0)
		return error;
	last->png_len = parts->png_len;
	return 0;
}

static int render_optional(char **out, est_game *game, json_t *data, const char *name)
{
	int error = est_report_render(out, game, data, name);

	if (error == EST_ENOTFOUND) {
		est_error_clear();
		*out = NULL;
		return 0;
	}
	return error;
}

/*
 * The map first, then, with a `cid` (and `last`, draw_map's), its picture
 * for mail clients that show no SVG (PNG, inline by cid: in the HTML,
 * named in the data as map_image), then the text and HTML.
 */
static int render_parts(report_parts *parts, est_game *game, json_t *data, long long step,
			const char *cid, map_picture *last)
{
	int error;

	if ((error = render_optional(&parts->svg, game, data, "map.svg")) < 0)
		return error;
	if (parts->svg && cid && (error = draw_map(parts, game, step, last)) < 0)
		return error;
	if (parts->png && json_object_set_new(data, "map_image", json_pack("{s:s+, s:i}", "src", "cid:",
		cid, "width", MAP_PNG_SHOWN)) < 0)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_report_render(&parts->text, game, data, "report.txt")) < 0)
		return error;
	return render_optional(&parts->html, game, data, "report.html");
}

int est_engine_report_parts(est_intake_report *out, est_game *game, long long step,
			    const json_t *player)
{
	report_parts parts = {0};
	json_t *data = NULL;
	const json_t *order_file;
	int error;

	memset(out, 0, sizeof(*out));
	if ((error = est_report_data(&data, game, step, player)) == 0 &&
	    (error = render_parts(&parts, game, data, step, NULL, NULL)) == 0) {
		out->text = parts.text;
		out->html = parts.html;
		out->svg = parts.svg;
		order_file = json_object_get(data, "order_file");
		if (json_string_value(json_object_get(order_file, "text")) &&
		    (!(out->order_name = strdup(json_string_value(json_object_get(order_file, "name")))) ||
		     !(out->order_text = strdup(json_string_value(json_object_get(order_file, "text")))))) {
			est_intake_report_clear(out);
			error = est_error_set(EST_ENOMEM, "out of memory");
		}
	} else {
		free(parts.text);
		free(parts.html);
		free(parts.svg);
	}
	json_decref(data);
	return error;
}

/*
 * Compose one player's report of `step` and put it in the outbox (`last`:
 * render_parts'), unless it is there already (*found 1).
 */
static int queue_one(int *queued, int *found, est_game *game, long long step, const json_t *player,
		     const char *sender, time_t date, map_picture *last)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	const char *pid = json_string_value(json_object_get(player, "id"));
	const char *email = json_string_value(json_object_get(player, "email"));
	char *eml = NULL, *to = NULL, *subject = NULL, *msgid = NULL, *cid = NULL;
	char *from_addr = est_mail_address_of(sender), name[64];
	report_parts parts = {0};
	json_t *data = NULL;
	size_t eml_len;
	int error;

	snprintf(name, sizeof(name), "%04lld-%s", step, pid);
	if ((error = est_mail_outbox_has(found, game->home, id, name)) < 0 || *found)
		goto out;
	cid = est_strdup_printf("map.%s.%04lld.%s@estafette", id, step, pid);
	if (!cid) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_report_data(&data, game, step, player)) < 0 ||
	    (error = render_parts(&parts, game, data, step, cid, last)) < 0)
		goto out;
	to = mailbox(json_string_value(json_object_get(player, "name")), email);
	subject = est_strdup_printf("[%s] step %lld: report for %s", id, step,
				    json_string_value(json_object_get(player, "name")));
	if ((error = est_game_message_id(&msgid, game, name)) < 0)
		goto out;
	if (!to || !subject || !from_addr) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* An awaited player's order file, filled in but for its entropy and orders. */
	const json_t *order_file = json_object_get(data, "order_file");
	const char *order_text = json_string_value(json_object_get(order_file, "text"));
	est_mail_attachment att[2];
	size_t natt = 0;
	if (parts.svg)
		att[natt++] = (est_mail_attachment){.filename = "map.svg", .content_type = "image/svg+xml",
						    .data = parts.svg, .len = strlen(parts.svg)};
	if (order_text)
		att[natt++] = (est_mail_attachment){
			.filename = json_string_value(json_object_get(order_file, "name")),
			.content_type = "application/json", .data = order_text, .len = strlen(order_text)};
	char *content_id = est_strdup_printf("<%s>", cid);
	if (!content_id) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_mail_attachment picture = {.filename = "map.png", .content_type = "image/png",
				       .data = parts.png, .len = parts.png_len, .content_id = content_id};
	int inline_png = parts.png && parts.html;
	est_mail_message msg = {.from = sender, .to = to, .subject = subject, .message_id = msgid,
				.date = date, .text = parts.text, .html = parts.html,
				.attachments = natt ? att : NULL, .attachment_count = natt,
				.inline_images = inline_png ? &picture : NULL, .inline_count = inline_png ? 1 : 0};
	error = est_mail_compose(&eml, &eml_len, &msg);
	free(content_id);
	if (error < 0)
		goto out;
	error = est_mail_outbox_put_unsynced(queued, game->home, id, name, from_addr, &email, 1, eml, eml_len);
out:
	free(from_addr);
	free(msgid);
	free(subject);
	free(to);
	free(eml);
	free(parts.svg);
	free(parts.png);
	free(cid);
	free(parts.html);
	free(parts.text);
	json_decref(data);
	return error;
}

int est_engine_queue_reports(int *queued_out, est_game *game, long long step)
{
	char *sender = est_game_sender(game), tag[40];
	map_picture last = {0};
	long long date = 0;
	size_t i;
	json_t *player;
	int error = 0, present = 0;

	*queued_out = 0;
	snprintf(tag, sizeof(tag), "step-%04lld", step);
	/* The step's own commit time: the same report always composes to the same message. */
	if (!sender || (error = est_store_commit_time(&date, game->store, tag)) < 0)
		goto out;
	json_array_foreach(json_object_get(game->game, "players"), i, player) {
		int queued = 0, found = 0;
		error = queue_one(&queued, &found, game, step, player, sender, (time_t)date, &last);
		present |= queued || found;
		/* One player's unusable address must not hold back the others' reports. */
		if (error == EST_EINVAL) {
			est_game_warn(game, "step %lld: no report queued for player \"%s\": %s; correct "
				      "game.json with estafette gm (or by a commit) and run again", step,
				      json_string_value(json_object_get(player, "id")), est_error_message());
			est_error_clear();
			error = 0;
		}
		if (error < 0)
			goto out;
		*queued_out += queued;
	}
out:
	/*
	 * One fsync of the folder for the step's reports, before a later step
	 * or the mail counts on them: those found there too, which a run killed
	 * before its own sync may have left named in memory only. After a
	 * failure the run stops, and its next one queues this step's reports
	 * again (it is the latest).
	 */
	if (error == 0 && present > 0)
		error = est_mail_outbox_sync(game->home, json_string_value(json_object_get(game->game, "id")));
	map_picture_clear(&last);
	free(sender);
	return error;
}

int est_engine_mail(json_t **mail_out, est_game *game)
{
	int error;

	if ((error = est_game_lock(game)) < 0)
		return error;
	error = est_game_deliver(mail_out, game);
	est_store_unlock(game->store);
	return error;
}

/*
 * A game that goes on needs its dice secrets for its next step: a host
 * without them (a shard taken over, a home not copied, the wrong
 * ESTAFETTE_HOME) says so at once, before it queues anything into that
 * home's outbox, not when a deadline passes and the game stalls.
 */
static int check_secrets(est_game *game)
{
	unsigned char chain[32], hidden[32];
	const json_t *open;
	const char *mode;
	int error;

	if ((error = est_turn_open(&open, game)) < 0)
		return error;
	mode = json_string_value(json_object_get(json_object_get(open, "pending"), "mode"));
	if (mode && strcmp(mode, "over") == 0)
		return 0;
	error = est_game_secrets(chain, hidden, game->home, json_string_value(json_object_get(game->game, "id")));
	OPENSSL_cleanse(chain, sizeof(chain));
	OPENSSL_cleanse(hidden, sizeof(hidden));
	if (error < 0)
		est_error_prefix("the game's next step cannot be resolved here");
	return error;
}

int est_engine_run(json_t **summary_out, est_game *game, time_t now, unsigned flags)
{
	json_t *resolved = json_array(), *waiting = NULL, *mail = NULL, *site = NULL;
	int error, queued, more = 1, count = 0, clock_sure, site_failed = 0;
	est_next_due_mark mark = {0};
	unsigned step_flags;

	if ((error = est_game_lock(game)) < 0 || (error = est_next_due_forget(&mark, game)) < 0)
		goto out;
	if ((error = est_game_reload(game)) < 0 || (error = est_game_repair(NULL, game)) < 0 ||
	    (error = check_secrets(game)) < 0)
		goto out;
	if (game->step > 0 && (error = est_engine_queue_reports(&queued, game, game->step)) < 0)
		goto out;
	if ((error = est_clock_check(&clock_sure, game, now, (flags & EST_RUN_CONFIRM_CLOCK) != 0)) < 0)
		goto out;
	step_flags = (flags & EST_RUN_FORCE ? EST_STEP_FORCE : 0) | (clock_sure ? 0 : EST_STEP_CLOCK_UNSURE);
	while (more) {
		if (count++ == MAX_STEPS_PER_RUN) {
			error = est_error_set(EST_ERROR, "%d steps resolved in one run and still not waiting "
					      "on anyone; the ruleset loops: report it", MAX_STEPS_PER_RUN);
			goto out;
		}
		if ((error = est_step_try(&more, game, now, step_flags)) < 0)
			goto out;
		if (more) {
			json_array_append_new(resolved, json_integer(game->step));
			if ((error = est_engine_queue_reports(&queued, game, game->step)) < 0)
				goto out;
		}
	}
	if ((error = est_intake_pending(&waiting, game, now)) < 0 ||
	    (error = est_engine_remind(&queued, game, waiting, now)) < 0 ||
	    (error = est_engine_invite(&queued, game, waiting, now)) < 0)
		goto out;
	/* The steps are safe: a site that cannot be written waits for the next run. */
	if ((site_failed = est_engine_site_update(&site, game) < 0))
		est_game_warn(game, "%s; the steps are committed, and the next run writes the site again",
			      est_error_message());
	if (!(flags & EST_RUN_NO_MAIL))
		error = est_game_deliver(&mail, game);
	*summary_out = json_pack("{s:O, s:O, s:O, s:O*, s:O*, s:O}", "game", json_object_get(game->game, "id"),
				 "resolved", resolved, "waiting", waiting, "mail", mail, "site", site,
				 "warnings", game->warnings);
	if (error == 0 && clock_sure && !site_failed)
		est_next_due_save(&mark, game, *summary_out, now);
out:
	est_next_due_mark_clear(&mark);
	est_store_unlock(game->store);
	json_decref(site);
	json_decref(mail);
	json_decref(waiting);
	json_decref(resolved);
	return error;
}
