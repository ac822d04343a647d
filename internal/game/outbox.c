/*
 * A game's outbox (mail/mail.h): notices queued under a stable name, and
 * delivery over SMTP with the game's settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

char *est_game_sender(est_game *game)
{
	char *sender = est_game_config(game, "estafette.sender", NULL);

	if (sender)
		return sender;
	if (!game->sender_warned) {
		est_game_warn(game, "git config estafette.sender is not set: mail to players goes out "
			      "from %s, which they cannot answer; set it to the game's orders address "
			      "(git -C GAME config estafette.sender \"Game <orders@example.org>\", "
			      "docs/mail.md); mail queued before keeps this From", EST_DEFAULT_SENDER);
		game->sender_warned = 1;
	}
	return strdup(EST_DEFAULT_SENDER);
}

int est_game_message_id(char **out, est_game *game, const char *name)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	char *domain = NULL;
	int error;

	*out = NULL;
	if (!game->msgid_domain) {
		if ((domain = est_game_config(game, "estafette.messageiddomain", NULL)) &&
		    est_mail_check_domain(domain, "git config estafette.messageiddomain") < 0) {
			error = est_error_set(EST_ECONFIG, "%s; or unset it (git -C GAME config --unset "
					      "estafette.messageiddomain) for this host's name",
					      est_error_message());
			free(domain);
			return error;
		}
		if (!domain && (error = est_mail_host_domain(&domain)) < 0)
			return error;
		game->msgid_domain = domain;
	}
	return est_mail_message_id(out, game->msgid_domain, id, name);
}

int est_game_notice_reply(est_game *game, const char *name, const char *to, const char *reply_to,
			  const char *subject, const char *text, const char *in_reply_to, time_t date,
			  const est_mail_attachment *att, size_t att_count)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	char *sender = est_game_sender(game);
	char *from_addr = NULL, *msgid = NULL, *eml = NULL, *full = NULL;
	size_t eml_len;
	int error, queued;

	if ((error = est_game_message_id(&msgid, game, name)) < 0)
		goto out;
	full = est_strdup_printf("%s\n-- \nestafette %s, game %s\n", text, EST_VERSION, id);
	from_addr = sender ? est_mail_address_of(sender) : NULL;
	if (!sender || !full || !from_addr) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	est_mail_message msg = {.from = sender, .to = to, .subject = subject, .message_id = msgid,
				.date = date, .text = full, .in_reply_to = in_reply_to, .reply_to = reply_to,
				.attachments = att, .attachment_count = att_count};
	if ((error = est_mail_compose(&eml, &eml_len, &msg)) < 0)
		goto out;
	error = est_mail_outbox_put(&queued, game->home, id, name, from_addr, &to, 1, eml, eml_len);
out:
	free(eml);
	free(full);
	free(from_addr);
	free(msgid);
	free(sender);
	return error;
}

int est_game_notice(est_game *game, const char *name, const char *to, const char *subject,
		    const char *text, const char *in_reply_to, time_t date, const est_mail_attachment *att,
		    size_t att_count)
{
	return est_game_notice_reply(game, name, to, NULL, subject, text, in_reply_to, date, att, att_count);
}

int est_game_password(char **out, est_game *game, const char *name)
{
	char *path = est_strdup_printf("%s/%s", game->home, name);
	size_t len;
	int error;

	*out = NULL;
	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_file_read_private(out, &len, path, 4096)) == 0) {
		(*out)[strcspn(*out, "\r\n")] = '\0';
	} else if (error == EST_ENOTFOUND) { /* none: ~/.netrc, or no login at all */
		est_error_clear();
		error = 0;
	}
	free(path);
	return error;
}

int est_game_deliver(json_t **mail_out, est_game *game)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	char *url = est_game_config(game, "estafette.smtpurl", NULL);
	char *user = est_game_config(game, "estafette.smtpuser", NULL), *password = NULL, *dir = NULL;
	size_t sent = 0, pending = 0;
	int error;

	if ((error = est_game_password(&password, game, "smtp-password")) < 0)
		goto out;
	est_mail_smtp smtp = {.url = url, .username = user, .password = password, .netrc = 1,
			      .timeout_seconds = 30};
	error = est_mail_outbox_deliver(&sent, &pending, game->home, id, url ? &smtp : NULL);
	if (est_mail_outbox_dir(&dir, game->home, id) == 0)
		*mail_out = json_pack("{s:I, s:I, s:s, s:b}", "sent", (json_int_t)sent,
				      "pending", (json_int_t)pending, "outbox", dir, "configured", url != NULL);
out:
	free(dir);
	free(password);
	free(user);
	free(url);
	return error;
}
