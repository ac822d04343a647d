/*
 * The GM's own address and the notices that go to it (docs/mail.md "Two
 * addresses"). Players write to the game's orders address, which `fetch`
 * empties or `receive` is fed from; the GM reads mail elsewhere. A notice
 * sent to the orders address would come back as a message from a machine
 * and be dropped unread, so a game without a GM address keeps its notices
 * on disk and says where, rather than send them there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "game/game.h"
#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

int est_game_gm_address(char **out, est_game *game)
{
	char *value = est_game_config(game, "estafette.gmaddress", NULL), *addr = NULL;
	char *sender = NULL, *orders = NULL;
	int error = 0;

	*out = NULL;
	if (!value)
		return 0;
	if (!(addr = est_mail_address_of(value)) ||
	    !(sender = est_game_sender(game)) ||
	    !(orders = est_mail_address_of(sender))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_mail_check_address(addr, strlen(addr), "git config estafette.gmaddress")) < 0) {
		error = est_error_set(EST_ECONFIG, "%s; set your own address: git -C GAME config "
				      "estafette.gmaddress you@example.org", est_error_message());
		goto out;
	}
	if (strcasecmp(addr, orders) == 0) {
		error = est_error_set(EST_ECONFIG, "git config estafette.gmaddress is %s, the game's "
				      "orders address (estafette.sender), whose mailbox fetch empties: notices "
				      "sent there would be lost; set your own address: git -C GAME config "
				      "estafette.gmaddress you@example.org", addr);
		goto out;
	}
	*out = addr;
	addr = NULL;
out:
	free(orders);
	free(sender);
	free(addr);
	free(value);
	return error;
}

/* Keep a notice the GM cannot be mailed in gm-notices/, once; *written_out 1 when written now. */
static int keep_notice(int *written_out, char **path_out, est_game *game, const char *name,
		       const char *subject, const char *text, const char *reply_to, time_t date,
		       const est_mail_attachment *att, size_t att_count)
{
	char *dir = est_game_home_path(game, "gm-notices"), *path = NULL, *body = NULL, when[32];
	int error = 0;

	*written_out = 0;
	*path_out = NULL;
	if (!dir || !(path = est_strdup_printf("%s/%s.txt", dir, name))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (est_path_exists(path))
		goto done;
	est_time_iso(when, date);
	if (!(body = est_strdup_printf("Subject: %s\nDate: %s\n%s%s%s\n%s", subject, when,
				       reply_to ? "Reply-To: " : "", reply_to ? reply_to : "",
				       reply_to ? "\n" : "", text))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_mkdir_p(dir, 0700)) < 0)
		goto out;
	/* attachments first: the .txt, written last, says the notice is whole */
	for (size_t i = 0; i < att_count; i++) {
		char safe[80], *file;
		size_t j;

		for (j = 0; att[i].filename[j] && j + 1 < sizeof(safe); j++)
			safe[j] = strchr("/\\", att[i].filename[j]) || (unsigned char)att[i].filename[j] < 0x20
				  ? '_' : att[i].filename[j];
		safe[j] = '\0';
		if (!(file = est_strdup_printf("%s/%s.%zu.%s", dir, name, i + 1, safe))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		error = est_file_write_atomic(file, att[i].data, att[i].len, 0600);
		free(file);
		if (error < 0)
			goto out;
	}
	if ((error = est_file_write_atomic(path, body, strlen(body), 0600)) < 0)
		goto out;
	*written_out = 1;
done:
	*path_out = path;
	path = NULL;
out:
	free(body);
	free(path);
	free(dir);
	return error;
}

int est_game_gm_notice(int *held_out, est_game *game, const char *name, const char *subject,
		       const char *text, const char *reply_to, const char *in_reply_to, time_t date,
		       const est_mail_attachment *att, size_t att_count)
{
	char *gm = NULL, *path = NULL, why[600];
	int error, written;

	if (held_out)
		*held_out = 0;
	if ((error = est_game_gm_address(&gm, game)) == EST_ENOMEM)
		return error;
	if (error == 0 && gm) {
		error = est_game_notice_reply(game, name, gm, reply_to, subject, text, in_reply_to, date,
					      att, att_count);
		free(gm);
		return error;
	}
	snprintf(why, sizeof(why), "%s", error < 0 ? est_error_message() :
		 "git config estafette.gmaddress is not set, so notices cannot reach the GM; set your "
		 "own address (not the orders address): git -C GAME config estafette.gmaddress "
		 "you@example.org");
	est_error_clear();
	if ((error = keep_notice(&written, &path, game, name, subject, text, reply_to, date, att,
				 att_count)) < 0)
		return error;
	if (written)
		est_game_warn(game, "%s: a notice for the GM (%s), kept here and not mailed: %s", path,
			      subject, why);
	if (held_out)
		*held_out = 1;
	free(path);
	return 0;
}
