/*
 * The GM in the loop (docs/mail.md): what comes to the game's orders
 * address and is not orders. A player's message without orders ("away next
 * week", a rules question) is passed on to the GM, whose answer goes
 * straight back to the player; a bounce marks the player whose mail it
 * returns as unreachable and tells the GM once; and a player may ask the
 * game itself for help, the open step or a report again, as njudge's
 * players always could.
 *
 * Every answer is queued under a name made from the message's key, so a
 * message handled twice (piped by the MTA and fetched by IMAP, or a run
 * killed and run again) is answered once.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "intake/intake.h"
#include "mail/intake.h"
#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

/* A subject line quoted to the GM: at most this many bytes. */
#define QUOTE_LINE_MAX 200
/* The commands' record beside the intake log: answers given per player, for the hourly limit. */
#define COMMANDS_FILE "commands.json"
/* The largest message passed on whole (original.eml) to the GM; above, its text only. */
#define FORWARD_ATTACH_MAX ((size_t)256 << 10)
#define HOUR 3600


static const char *game_id(const est_game *game)
{
	return json_string_value(json_object_get(game->game, "id"));
}

static const char *player_field(const json_t *player, const char *field)
{
	const char *v = json_string_value(json_object_get(player, field));

	return v ? v : "";
}

/*
 * At most `size` - 1 bytes of `in` on one line, as valid UTF-8: control
 * characters become spaces and bytes that are not UTF-8 become "?", cut at
 * a character. Headers decoded by GMime may hold anything a sender wrote.
 */
static void one_line(char *out, size_t size, const char *in)
{
	size_t used = 0;
	const unsigned char *s = (const unsigned char *)(in ? in : "");

	while (*s && used + 5 < size) {
		size_t n = *s < 0x80 ? 1 : (*s & 0xE0) == 0xC0 ? 2 : (*s & 0xF0) == 0xE0 ? 3 :
			   (*s & 0xF8) == 0xF0 ? 4 : 0;
		size_t i;

		for (i = 1; i < n && (s[i] & 0xC0) == 0x80; i++)
			;
		if (n == 0 || i < n || (n == 2 && *s < 0xC2)) {
			out[used++] = '?';
			s++;
		} else if (n == 1) {
			out[used++] = *s < 0x20 || *s == 0x7f ? ' ' : (char)*s;
			s++;
		} else {
			memcpy(out + used, s, n);
			used += n;
			s += n;
		}
	}
	out[used] = '\0';
}

const char *est_intake_command_of(const est_intake_message *m)
{
	static const char *const words[] = {"help", "status", "report"};
	const char *s = m->subject, *end;
	size_t n;

	if (!s)
		return NULL;
	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	n = strcspn(s, " \t");
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		if (n != strlen(words[i]) || strncasecmp(s, words[i], n) != 0)
			continue;
		if (s + n == end)
			return words[i];
		/* "report 12": one word after it; "report on the battle" is a message for the GM */
		const char *arg = s + n + strspn(s + n, " \t");
		if (i == 2 && arg < end && !memchr(arg, ' ', (size_t)(end - arg)) &&
		    !memchr(arg, '\t', (size_t)(end - arg)))
			return words[i];
	}
	return NULL;
}

/* ---- passing a player's message on to the GM ---- */

/* Does `hay` hold `needle`, ignoring case? */
static int has_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; hay && *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return 1;
	return 0;
}

int est_intake_for_gm(const est_intake_message *m)
{
	if (m->count || m->ignored || m->unread || est_intake_command_of(m))
		return 0;
	/* a signature, an order object or an order file that did not parse: orders gone wrong */
	return !has_ci(m->text, "BEGIN SSH SIGNATURE") && !has_ci(m->text, "orders/1") &&
	       !has_ci(m->attachments, ".json") && !has_ci(m->attachments, ".sig");
}

/* ---- the hourly limits (commands.json) ---- */

/*
 * Mail from a player's address is unsigned: anyone can forge it. So what
 * it makes the game do is limited per player and per kind ("PLAYER/help",
 * "PLAYER/forward"): a forger can use up a kind, never another, and never
 * the player's orders.
 */
/* The answers given in `slot` ("PLAYER/KIND") in the hour before `now`, from the record `doc`. */
static size_t answers_this_hour(json_t *doc, const char *slot, time_t now)
{
	json_t *times = json_object_get(doc, slot), *kept = json_array(), *v;
	size_t i;

	json_array_foreach(times, i, v)
		if (json_integer_value(v) > (json_int_t)now - HOUR && json_integer_value(v) <= (json_int_t)now)
			json_array_append(kept, v);
	json_object_set_new(doc, slot, kept);
	return json_array_size(kept);
}

static int load_commands(json_t **out, char **path_out, est_game *game)
{
	char *path = est_game_home_path(game, COMMANDS_FILE), *text = NULL;
	size_t len;
	int error;

	*out = NULL;
	*path_out = path;
	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_file_read(&text, &len, path, 1 << 20)) == EST_ENOTFOUND) {
		est_error_clear();
		error = 0;
	}
	/* a record that does not parse only lifts the limit for an hour: start it again */
	if (error == 0 && (!text || !(*out = json_loadb(text, len, 0, NULL)) || !json_is_object(*out))) {
		json_decref(*out);
		*out = json_object();
	}
	free(text);
	return error;
}

/* Note one answer in `slot` at `now` and write the record (atomically). */
static int rate_note(json_t *doc, const char *path, const char *slot, time_t now)
{
	json_t *times = json_object_get(doc, slot);
	char *saved;
	int error;

	if (!times)
		json_object_set_new(doc, slot, times = json_array());
	json_array_append_new(times, json_integer((json_int_t)now));
	if (!(saved = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS)))
		return est_error_set(EST_ENOMEM, "out of memory");
	error = est_file_write_atomic(path, saved, strlen(saved), 0600);
	free(saved);
	return error;
}

int est_intake_forward(json_t *result, est_game *game, const est_intake_message *m, const char *key,
		       const json_t *player, const char *to, const char *bytes, size_t len, time_t now)
{
	char name[80], subject[QUOTE_LINE_MAX + 100], line[QUOTE_LINE_MAX + 1], answer[200], slot[160], which[210];
	char *in_reply_to = m->message_id ? est_strdup_printf("<%s>", m->message_id) : NULL, *path = NULL;
	est_text t = {0}, r = {0};
	est_mail_attachment original = {.filename = "original.eml",
					.content_type = "application/octet-stream",
					.data = bytes, .len = len};
	/* its text shows all of it unless it has attachments or no text; a large one is not relayed */
	int attach = (m->attachments || !m->text) && len <= FORWARD_ATTACH_MAX, held = 0, error;
	json_t *doc = NULL;

	if (m->message_id && !in_reply_to)
		return est_error_set(EST_ENOMEM, "out of memory");
	snprintf(slot, sizeof(slot), "%s/forward", player_field(player, "id"));
	if ((error = load_commands(&doc, &path, game)) < 0)
		goto out;
	json_object_set_new(result, "status", json_string("forwarded"));
	if (answers_this_hour(doc, slot, now) >= EST_INTAKE_FORWARDS_PER_HOUR) {
		json_object_set_new(result, "gm", json_string("limited"));
		goto out;
	}
	one_line(line, sizeof(line), m->subject ? m->subject : "(no subject)");
	snprintf(subject, sizeof(subject), "[%s] from %s: %s", game_id(game), player_field(player, "id"), line);
	est_text_add(&t, "%s (player %s, %s) wrote to the game's orders address. The message holds no "
		     "orders, so the game passes it on to you. Reply to this mail to answer them: its "
		     "Reply-To is their address. (Orders are signed; mail like this is not, and its "
		     "From may be forged.)\n\n", player_field(player, "name"), player_field(player, "id"), to);
	est_text_add(&t, "From: %s\n", m->from);
	one_line(line, sizeof(line), m->date ? m->date : "(none)");
	est_text_add(&t, "Date: %s\n", line);
	one_line(line, sizeof(line), m->subject ? m->subject : "(none)");
	est_text_add(&t, "Subject: %s\n", line);
	if (m->attachments) {
		one_line(line, sizeof(line), m->attachments);
		if (attach)
			est_text_add(&t, "Attachments: %s (the whole message is attached as original.eml)\n", line);
		else
			est_text_add(&t, "Attachments: %s (not passed on: the message is %zu bytes; ask them "
				     "to send these to you directly)\n", line, len);
	}
	est_text_add(&t, "\n%s\n", m->text ? m->text : attach ? "(no text; the message is attached as "
		     "original.eml)" : "(no text)");
	if (t.failed) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(name, sizeof(name), "forward-%.16s", key);
	if ((error = est_game_gm_notice(&held, game, name, subject, t.text, to, in_reply_to, now,
					attach ? &original : NULL, attach ? 1 : 0)) < 0)
		goto out;
	json_object_set_new(result, "gm", json_string(held ? "kept" : "mailed"));
	if ((error = rate_note(doc, path, slot, now)) < 0)
		goto out;

	est_intake_message_name(which, sizeof(which), m);
	est_text_add(&r, "estafette, game %s: your message %s\n\n"
		     "PASSED ON TO THE GM: it holds no orders, so nothing was recorded, and your GM %s. "
		     "To send orders, attach the order file and its .sig (or paste both into the body). "
		     "Send a message whose subject is help for the mail commands.\n", game_id(game), which,
		     held ? "will read it with the game's notices" : "has it now and can answer you");
	if (r.failed) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(name, sizeof(name), "receipt-%.16s", key);
	est_intake_reply_subject(answer, sizeof(answer), m->subject);
	error = est_game_notice(game, name, to, answer, r.text, in_reply_to, now, NULL, 0);
out:
	json_decref(doc);
	free(path);
	free(r.text);
	free(t.text);
	free(in_reply_to);
	return error;
}

/* ---- bounces ---- */

static const json_t *player_of_address(const est_game *game, const char *address)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(game->game, "players"), i, p)
		if (strcasecmp(player_field(p, "email"), address) == 0)
			return p;
	return NULL;
}

/* Does the bounce name `address` among its failed recipients (or name none)? */
static int bounce_names(const est_intake_bounce *b, const char *address)
{
	if (b->recipient_count == 0)
		return 1;
	for (size_t i = 0; i < b->recipient_count; i++)
		if (strcasecmp(b->recipients[i], address) == 0)
			return 1;
	return 0;
}

/* The GM's notice of a new bounce episode: once, under the first bounce's key. */
static int notice_bounce(est_game *game, const json_t *player, const est_intake_bounce *b,
			 const char *id, const char *outbox_name, const char *key, time_t now)
{
	char name[160], subject[200];
	est_text t = {0};
	int error;

	snprintf(name, sizeof(name), "bounce-%s-%.16s", player_field(player, "id"), key);
	snprintf(subject, sizeof(subject), "[%s] mail to %s bounces", game_id(game), player_field(player, "id"));
	est_text_add(&t, "Mail to %s (player %s, %s) came back undelivered:\n\n"
		     "  status:  %s\n  reason:  %s\n  our message: <%s> (outbox %s)\n\n"
		     "estafette status now shows them as unreachable; further bounces are counted there, "
		     "not told. It clears when mail comes from their address. Until then, reach them "
		     "another way; a new address is set with estafette gm GAME replace --player %s "
		     "--email ADDRESS.\n", player_field(player, "name"), player_field(player, "id"),
		     player_field(player, "email"), b->status ? b->status : "(none)",
		     b->diagnostic ? b->diagnostic : "(none given)", id, outbox_name,
		     player_field(player, "id"));
	error = t.failed ? est_error_set(EST_ENOMEM, "out of memory")
			 : est_game_gm_notice(NULL, game, name, subject, t.text, NULL, NULL, now, NULL, 0);
	free(t.text);
	return error;
}

/* One returned Message-ID: the players it was sent to whom the bounce names, each marked. */
static int match_id(json_t *matched, est_game *game, const est_intake_message *m, const char *id,
		    const char *key, time_t now)
{
	const est_intake_bounce *b = m->bounce;
	char *outbox_name = NULL, **rcpts = NULL;
	size_t count = 0;
	json_t *unreachable = NULL;
	int error;

	if ((error = est_mail_outbox_find(&outbox_name, &rcpts, &count, game->home, game_id(game), id)) < 0 ||
	    !outbox_name)
		goto out;
	for (size_t i = 0; i < count; i++) {
		const json_t *player = player_of_address(game, rcpts[i]);
		const char *pid = player_field(player, "id");
		int first;
		size_t j;
		json_t *v;

		if (!player || !bounce_names(b, rcpts[i]))
			continue; /* the GM's own notices, a stranger's refusal: no player's */
		json_array_foreach(matched, j, v)
			if (strcmp(json_string_value(v), pid) == 0)
				break;
		if (j < json_array_size(matched))
			continue;
		json_decref(unreachable);
		unreachable = NULL;
		/* the notice before the mark: killed between them, the rerun tells the GM (once) */
		if ((error = est_game_unreachable(&unreachable, game)) < 0 ||
		    (!json_object_get(unreachable, pid) &&
		     (error = notice_bounce(game, player, b, id, outbox_name, key, now)) < 0) ||
		    (error = est_game_unreachable_mark(&first, game, pid, b->status, b->diagnostic, id, now)) < 0)
			goto out;
		json_array_append_new(matched, json_string(pid));
	}
out:
	json_decref(unreachable);
	est_mail_names_free(rcpts, count);
	free(outbox_name);
	return error;
}

int est_intake_take_bounce(json_t *result, est_game *game, const est_intake_message *m, const char *key,
			   time_t now)
{
	const est_intake_bounce *b = m->bounce;
	json_t *info, *matched = json_array();
	int error = 0;

	info = json_pack("{s:s?, s:s?, s:b, s:O}", "status", b->status, "diagnostic", b->diagnostic,
			 "standard", b->standard, "matched", matched);
	if (!info || !matched) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* the GM's records failing must not make the mail system retry or bounce a bounce */
	for (size_t i = 0; i < b->id_count && error == 0; i++) {
		if ((error = match_id(matched, game, m, b->ids[i], key, now)) < 0 && error != EST_ENOMEM) {
			est_game_warn(game, "a bounce of <%s> was not recorded: %s", b->ids[i], est_error_message());
			est_error_clear();
			error = 0;
		}
	}
	if (error < 0)
		goto out;
	if (json_array_size(matched) == 0)
		json_object_set_new(info, "unmatched", json_string(
			b->id_count ? "the message it returns is none this game sent to a player"
				    : "it returns no Message-ID, so it cannot be matched to mail this game sent"));
	json_object_set(result, "bounce", info);
out:
	json_decref(info);
	json_decref(matched);
	return error;
}

int est_intake_heard_from(json_t *result, est_game *game, const char *player)
{
	int cleared = 0, error = est_game_unreachable_clear(&cleared, game, player);

	if (error == 0 && cleared)
		json_object_set_new(result, "reachable_again", json_true());
	/* the player's mail is dealt with; a record that cannot be written is the GM's to mend */
	if (error < 0 && error != EST_ENOMEM) {
		est_game_warn(game, "player %s may still show as unreachable: %s", player, est_error_message());
		est_error_clear();
		error = 0;
	}
	return error;
}

/* ---- mail commands ---- */

static void help_text(est_text *t, est_game *game)
{
	est_text_add(t, "How to play game %s by mail.\n\n"
		     "1. Take the order file attached to your latest report when it is your turn\n"
		     "   (orders-NNNN-<you>.json; send \"report\" to get it again), and write your\n"
		     "   orders into its \"orders\": [] as the report describes.\n"
		     "2. Sign it: `estafette sign -f ~/.ssh/id_ed25519 orders-NNNN-<you>.json` fills\n"
		     "   in its \"entropy\" and writes the .sig; or put 64 random hex digits in\n"
		     "   \"entropy\" yourself and run\n"
		     "   ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n estafette-orders FILE\n"
		     "3. Send both files to this address, attached (or pasted into the body).\n\n"
		     "Every such message gets a receipt saying what was recorded or refused, and\n"
		     "why. A higher seq replaces orders sent before.\n\n"
		     "Mail commands: send a message whose whole subject is one of these, from the\n"
		     "address your GM has for you (the body is not read):\n\n"
		     "    help        this text\n"
		     "    status      the open step, whom it awaits, the deadline\n"
		     "    report      your report of the latest step, again\n"
		     "    report N    your report of step N\n\n"
		     "At most %d answers an hour for each command. Any other message without\n"
		     "orders is passed on to your GM.\n", game_id(game), EST_INTAKE_COMMANDS_PER_HOUR);
}

static void status_text(est_text *t, est_game *game, const json_t *player, time_t now)
{
	json_t *pending = NULL, *a;
	size_t i;
	int awaited = 0;

	if (game->step > 0)
		est_text_add(t, "Game %s: step %lld is the latest resolved.\n", game_id(game), game->step);
	est_intake_text_awaiting(t, game, now);
	if (est_intake_pending(&pending, game, now) < 0) {
		est_error_clear();
		return;
	}
	json_array_foreach(json_object_get(pending, "awaiting"), i, a) {
		if (strcmp(player_field(a, "player"), player_field(player, "id")) != 0)
			continue;
		awaited = 1;
		est_text_add(t, "\n%s\n", json_is_true(json_object_get(a, "received"))
			     ? "Your orders for it are received; a higher seq still replaces them."
			     : "Your orders are awaited.");
	}
	if (!awaited && !json_is_true(json_object_get(pending, "over")))
		est_text_add(t, "\nNothing is awaited from you in this step.\n");
	if (json_string_value(json_object_get(pending, "prompt")))
		est_text_add(t, "\n%s\n", json_string_value(json_object_get(pending, "prompt")));
	json_decref(pending);
}

/*
 * The step "report [N]" asks for into *step_out; 0, or -1 with why in
 * `why`: not a number, or no such resolved step.
 */
static int report_step(long long *step_out, char *why, size_t size, est_game *game, const char *subject)
{
	const char *s = subject + strspn(subject, " \t") + strlen("report");
	char arg[40];
	size_t n;

	s += strspn(s, " \t");
	n = strcspn(s, " \t");
	one_line(arg, n + 1 < sizeof(arg) ? n + 1 : sizeof(arg), s);
	if (game->step < 1) {
		snprintf(why, size, "No step has been resolved yet, so there is no report. Send status "
			 "to see what the game awaits.");
		return -1;
	}
	if (n == 0) {
		*step_out = game->step;
		return 0;
	}
	if (n <= 9 && strspn(s, "0123456789") == n) {
		long long step = strtoll(s, NULL, 10);
		if (step >= 1 && step <= game->step) {
			*step_out = step;
			return 0;
		}
	}
	snprintf(why, size, "report %s: there is no report of that step. Steps 1 to %lld are resolved; "
		 "send report for the latest, or report N with N from 1 to %lld.", arg, game->step,
		 game->step);
	return -1;
}

/* The report command's answer: the report's text, with the HTML and the map attached. */
static int report_answer(est_text *t, est_intake_report *r, est_intake_report_fn report_fn,
			 est_game *game, const json_t *player, const char *subject)
{
	char why[300];
	long long step;

	if (report_step(&step, why, sizeof(why), game, subject) < 0) {
		est_text_add(t, "%s\n", why);
		return 0;
	}
	if (!report_fn) {
		est_text_add(t, "Reports are not sent by mail command from here; ask your GM.\n");
		return 0;
	}
	if (report_fn(r, game, step, player) < 0) {
		est_game_warn(game, "report command of %s for step %lld: %s", player_field(player, "id"),
			      step, est_error_message());
		est_error_clear();
		est_text_add(t, "Your report of step %lld could not be made; your GM is told.\n", step);
		return 0;
	}
	est_text_add(t, "Your report of step %lld, as the run mailed it%s:\n\n%s", step,
		     r->html || r->svg ? " (its HTML version and map are attached)" : "", r->text);
	return 0;
}

void est_intake_report_clear(est_intake_report *r)
{
	free(r->text);
	free(r->html);
	free(r->svg);
	free(r->order_name);
	free(r->order_text);
	memset(r, 0, sizeof(*r));
}

int est_intake_command(json_t *result, est_game *game, const est_intake_message *m, const char *key,
		       const json_t *player, const char *to, est_intake_report_fn report, time_t now)
{
	const char *command = est_intake_command_of(m), *pid = player_field(player, "id");
	char name[80], subject[200], slot[160], *path = NULL, *in_reply_to = NULL;
	est_intake_report r = {0};
	est_text t = {0};
	json_t *doc = NULL;
	int found, error;

	snprintf(name, sizeof(name), "receipt-%.16s", key);
	json_object_set_new(result, "status", json_string("command"));
	json_object_set_new(result, "command", json_string(command));
	if ((error = est_mail_outbox_has(&found, game->home, game_id(game), name)) < 0)
		goto out;
	if (found) {
		json_object_set_new(result, "answer", json_string("duplicate"));
		goto out;
	}
	snprintf(slot, sizeof(slot), "%s/%s", pid, command);
	if ((error = load_commands(&doc, &path, game)) < 0)
		goto out;
	if (answers_this_hour(doc, slot, now) >= EST_INTAKE_COMMANDS_PER_HOUR) {
		json_object_set_new(result, "answer", json_string("limited"));
		goto out;
	}
	est_text_add(&t, "estafette, game %s: your command \"%s\"\n\n", game_id(game), command);
	if (strcmp(command, "help") == 0)
		help_text(&t, game);
	else if (strcmp(command, "status") == 0)
		status_text(&t, game, player, now);
	else
		report_answer(&t, &r, report, game, player, m->subject);
	in_reply_to = m->message_id ? est_strdup_printf("<%s>", m->message_id) : NULL;
	if (t.failed || (m->message_id && !in_reply_to)) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_mail_attachment parts[3];
	size_t nparts = 0;
	if (r.html)
		parts[nparts++] = (est_mail_attachment){.filename = "report.html", .content_type = "text/html",
							.data = r.html, .len = strlen(r.html)};
	if (r.svg)
		parts[nparts++] = (est_mail_attachment){.filename = "map.svg", .content_type = "image/svg+xml",
							.data = r.svg, .len = strlen(r.svg)};
	if (r.order_text)
		parts[nparts++] = (est_mail_attachment){.filename = r.order_name, .content_type = "application/json",
							.data = r.order_text, .len = strlen(r.order_text)};
	snprintf(subject, sizeof(subject), "[%s] %s", game_id(game), command);
	if ((error = est_game_notice(game, name, to, subject, t.text, in_reply_to, now,
				     nparts ? parts : NULL, nparts)) < 0)
		goto out;
	if ((error = rate_note(doc, path, slot, now)) == 0)
		json_object_set_new(result, "answer", json_string("queued"));
out:
	est_intake_report_clear(&r);
	free(in_reply_to);
	free(t.text);
	free(path);
	json_decref(doc);
	return error;
}
