/*
 * Orders by mail: one RFC 5322 message in; every order it carries is
 * checked as `submit` checks a file; the newest valid one (by seq) is
 * recorded; the sender gets a receipt; the game's intake log says what
 * happened. Machines (auto-replies, bounces, lists) get no answer.
 * Handling the same message twice records nothing twice and answers once:
 * the receipt's outbox name comes from the message's bytes.
 *
 * What a message costs is bounded before the lock is taken: one over the
 * game's size limit is not parsed (only its header is read, to answer a
 * player), and the intake takes at most EST_INTAKE_MAX_CANDIDATES order
 * files from the rest; parsing is done before the lock, and the receipt
 * stays a few KiB whatever came in.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "mail/imap.h"
#include "mail/intake.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

/* The limit when git config estafette.maxmessage is not set: 10 MiB. */
#define DEFAULT_MAX_MESSAGE ((size_t)10 << 20)
/* The header of a message over the limit is read from this many first bytes at most. */
#define HEADER_READ_MAX ((size_t)256 << 10)
/* What a receipt lists of the message beyond its verdict and the accepted orders. */
#define RECEIPT_LIST_MAX 4096
/* One line of a receipt: an error quotes names and text from the message. */
#define RECEIPT_LINE_MAX 400
/* Diagnostics listed for one candidate. */
#define RECEIPT_DIAGNOSTICS_MAX 5
/*
 * Signature verifications for one message: each candidate's readings
 * against its signatures, most likely first. A player's message needs a
 * handful; one of 32 orders with 4 signatures and 6 readings each would
 * need 768.
 */
#define VERIFY_MAX 128

int est_intake_max_message(size_t *out, est_game *game)
{
	char *value = est_game_config(game, "estafette.maxmessage", NULL), *end = NULL;
	unsigned long long n, unit = 1;
	int error = 0;

	*out = DEFAULT_MAX_MESSAGE;
	if (!value)
		return 0;
	/* git's integer syntax (git config --type=int): digits, then k, m or g for 1024^1..3 */
	errno = 0;
	n = strtoull(value, &end, 10);
	if (end && (*end == 'k' || *end == 'K'))
		unit = 1ULL << 10, end++;
	else if (end && (*end == 'm' || *end == 'M'))
		unit = 1ULL << 20, end++;
	else if (end && (*end == 'g' || *end == 'G'))
		unit = 1ULL << 30, end++;
	if (errno || end == value || !isdigit((unsigned char)value[0]) || *end || n == 0 ||
	    n > (unsigned long long)SIZE_MAX / 4 / unit) {
		error = est_error_set(EST_ECONFIG, "git config estafette.maxmessage: \"%.40s\" is not a "
				      "size in bytes (a positive number, optionally with k, m or g for "
				      "KiB, MiB or GiB); set it with git -C GAME config "
				      "estafette.maxmessage 10m, or unset it for the default of 10 MiB",
				      value);
	} else {
		*out = (size_t)(n * unit);
	}
	free(value);
	return error;
}

/* What became of one candidate. */
typedef struct {
	const est_intake_candidate *c;
	est_order *order;              /* checked and valid, or NULL */
	const est_intake_bytes *bytes; /* the reading judged: the one signed, when one was */
	const est_intake_bytes *sig;   /* the signature judged with it, or NULL */
	json_t *result;                /* {"where", "quoted", "status", ...} */
} tried;

static const json_t *player_by_email(const est_game *game, const char *email)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(game->game, "players"), i, p)
		if (email && strcasecmp(json_string_value(json_object_get(p, "email")), email) == 0)
			return p;
	return NULL;
}

static void set_status(tried *t, const char *status, const char *error)
{
	json_object_set_new(t->result, "status", json_string(status));
	if (error)
		json_object_set_new(t->result, "error", json_string(error));
}

/* A reading of the candidate is the file recorded for its player already: that one, else NULL. */
static const est_intake_bytes *already_recorded(est_game *game, const est_intake_candidate *c)
{
	const est_intake_bytes *same = NULL;
	const char *player = NULL;
	json_t *root = NULL;
	char *bytes = NULL;
	size_t len, i;

	for (i = 0; i < c->reading_count && !player; i++) {
		json_decref(root);
		root = json_loadb(c->readings[i].bytes, c->readings[i].len, 0, NULL);
		player = json_string_value(json_object_get(root, "player"));
	}
	if (player && est_orders_is_id(player) && est_game_order_read(&bytes, &len, game, player, 0) == 0)
		for (i = 0; i < c->reading_count && !same; i++)
			if (c->readings[i].len == len && memcmp(c->readings[i].bytes, bytes, len) == 0)
				same = &c->readings[i];
	est_error_clear();
	json_decref(root);
	free(bytes);
	return same;
}

/*
 * The first reading and signature of the candidate that a key of
 * allowed_signers verifies, in the intake's order of likelihood: 1 and
 * *r, *s set, or 0. Each try costs *budget one; at 0 the search stops, so
 * a message of many orders and signatures costs a bounded number of
 * verifications.
 */
static int signed_pair(size_t *r, size_t *s, est_game *game, const est_intake_candidate *c,
		       time_t now, int *budget)
{
	for (*r = 0; *r < c->reading_count; (*r)++) {
		for (*s = 0; *s < c->sig_count; (*s)++) {
			char *signer = NULL;
			int found;

			if (*budget <= 0)
				return 0;
			(*budget)--;
			found = est_sshsig_find_principals(&signer, game->allowed_signers,
							   strlen(game->allowed_signers), EST_ORDERS_NAMESPACE,
							   c->readings[*r].bytes, c->readings[*r].len,
							   c->sigs[*s].bytes, c->sigs[*s].len, now) == 0;
			free(signer);
			est_error_clear();
			if (found)
				return 1;
		}
	}
	return 0;
}

/*
 * Check one candidate like `submit`: its first reading with its first
 * signature, else, when that signature does not verify, the first other
 * pair that does (so the bytes recorded are the bytes signed); a refusal
 * is the first pair's (a BOM, a strict JSON error, a signature over other
 * bytes) unless another pair verified.
 */
static void try_candidate(tried *t, est_game *game, const est_intake_candidate *c, time_t now,
			  int *budget)
{
	json_t *diagnostics = NULL;
	size_t r = 0, s = 0;
	int error, found;

	t->c = c;
	t->bytes = &c->readings[0];
	t->result = json_pack("{s:s, s:b}", "where", c->where, "quoted", c->quoted);
	if ((t->bytes = already_recorded(game, c))) {
		set_status(t, "duplicate", "already recorded: the game holds this very file for you");
		return;
	}
	t->bytes = &c->readings[0];
	if (!c->sig_count) {
		set_status(t, "refused", "no SSH signature found with it; attach FILE.sig or paste the "
			   "-----BEGIN SSH SIGNATURE----- block after the orders");
		return;
	}
	/* The most likely pair first: a plain message costs one verification. */
	t->sig = &c->sigs[0];
	error = est_intake_check(&t->order, &diagnostics, game, c->where, t->bytes->bytes, t->bytes->len,
				 "its signature", t->sig->bytes, t->sig->len, now);
	if (error == EST_ESIG && (c->reading_count > 1 || c->sig_count > 1)) {
		char first[1024];

		snprintf(first, sizeof(first), "%s", est_error_message());
		found = signed_pair(&r, &s, game, c, now, budget);
		est_error_set(EST_ESIG, "%s", first); /* the search clears it; the first pair's stands */
		if (found && (r || s)) {
			json_decref(diagnostics);
			diagnostics = NULL;
			est_error_clear();
			t->bytes = &c->readings[r];
			t->sig = &c->sigs[s];
			error = est_intake_check(&t->order, &diagnostics, game, c->where, t->bytes->bytes,
						 t->bytes->len, "its signature", t->sig->bytes, t->sig->len, now);
		} else if (!found && c->wrapped) {
			est_error_set(EST_ESIG, "%s: your mail program wrapped the long lines of the order "
				      "file, and they could not be put back as they were signed; attach the "
				      "order file and its .sig to your message instead of pasting them", c->where);
		}
	}
	if (error < 0) {
		set_status(t, "refused", est_error_message());
		if (diagnostics)
			json_object_set(t->result, "diagnostics", diagnostics);
		est_error_clear();
	} else {
		set_status(t, "valid", NULL);
		json_object_set_new(t->result, "player", json_string(t->order->player));
		json_object_set_new(t->result, "step", json_integer(t->order->step));
		json_object_set_new(t->result, "seq", json_integer(t->order->seq));
	}
	json_decref(diagnostics);
}

/*
 * Whether `a` is to be recorded before `b`: the message's own text before
 * what it quotes or forwards, the sender's own orders before those relayed
 * for another player, then the higher seq. So neither a quoted file nor
 * another player's shown in a message displaces the sender's own.
 */
static int ranks_before(const tried *a, const tried *b, const char *sender)
{
	int own_a = strcmp(a->order->player, sender) == 0, own_b = strcmp(b->order->player, sender) == 0;

	if (a->c->quoted != b->c->quoted)
		return a->c->quoted < b->c->quoted;
	if (own_a != own_b)
		return own_a > own_b;
	return a->order->seq > b->order->seq;
}

/*
 * The valid candidate to record (ranks_before), or NULL. Two different
 * order files of its player with its seq, at its level of the message,
 * leave no way to tell what the player meant: then none of the message's
 * orders is used.
 */
static tried *newest_valid(tried *all, size_t n, const char *sender)
{
	tried *best = NULL;
	char why[200];

	for (size_t i = 0; i < n; i++)
		if (all[i].order && (!best || ranks_before(&all[i], best, sender)))
			best = &all[i];
	for (size_t i = 0; best && i < n; i++) {
		if (!all[i].order || &all[i] == best || all[i].order->seq != best->order->seq ||
		    all[i].c->quoted != best->c->quoted ||
		    strcmp(all[i].order->player, best->order->player) != 0 ||
		    (all[i].bytes->len == best->bytes->len &&
		     memcmp(all[i].bytes->bytes, best->bytes->bytes, best->bytes->len) == 0))
			continue;
		snprintf(why, sizeof(why), "two different order files with seq %lld came in one message, "
			 "so none of its orders is used; send the one you mean, with a higher seq",
			 best->order->seq);
		for (size_t j = 0; j < n; j++) {
			if (!all[j].order)
				continue;
			set_status(&all[j], "refused", why);
			est_orders_free(all[j].order);
			all[j].order = NULL;
		}
		return NULL;
	}
	return best;
}

/* Add one line, at most RECEIPT_LINE_MAX bytes of `text` (cut at a UTF-8 boundary). */
static void add_clipped(est_text *t, const char *prefix, const char *text)
{
	est_intake_text_clipped(t, prefix, text, RECEIPT_LINE_MAX);
}

/* One refused candidate: its reason (which names the fix), and the ruleset's diagnostics. */
static void receipt_refusal(est_text *t, const tried *c)
{
	const char *error = json_string_value(json_object_get(c->result, "error"));
	const json_t *diagnostics = json_object_get(c->result, "diagnostics"), *d;
	size_t j;
	char line[1024];

	/* most messages start with where the candidate was found; those that do not get it */
	if (strncmp(error, c->c->where, strlen(c->c->where)) != 0)
		add_clipped(t, "\n- ", c->c->where);
	add_clipped(t, strncmp(error, c->c->where, strlen(c->c->where)) ? ": " : "\n- ", error);
	json_array_foreach(diagnostics, j, d) {
		if (j == RECEIPT_DIAGNOSTICS_MAX) {
			est_text_add(t, "\n    and %zu more", json_array_size(diagnostics) - j);
			break;
		}
		est_intake_diagnostic_text(line, sizeof(line), d);
		add_clipped(t, "\n    ", line);
	}
	if (json_array_size(diagnostics) && !c->c->quoted)
		est_text_add(t, "\n  Correct them, sign the file again and send it.");
}

/*
 * The other candidates, one short paragraph each, until RECEIPT_LIST_MAX
 * bytes are used; the rest are counted in one line (the intake log has
 * each). The order files the intake did not read are named once.
 */
static void receipt_candidates(est_text *t, const tried *all, size_t n, const tried *best,
			       size_t ignored)
{
	size_t start = t->len, unlisted = 0;

	for (size_t i = 0; i < n; i++) {
		const char *status = json_string_value(json_object_get(all[i].result, "status"));

		if (&all[i] == best)
			continue;
		if (t->len - start > RECEIPT_LIST_MAX) {
			unlisted++;
			continue;
		}
		if (all[i].c->quoted && best) {
			add_clipped(t, "\n- ", all[i].c->where);
			est_text_add(t, ": older orders quoted in your message; not used");
		} else if (all[i].order && best && strcmp(all[i].order->player, best->order->player)) {
			add_clipped(t, "\n- ", all[i].c->where);
			est_text_add(t, ": orders of %s, seq %lld, valid but not recorded: one order file "
				     "is recorded from a message, the sender's own first; send these in a "
				     "message of their own", all[i].order->player, all[i].order->seq);
		} else if (all[i].order && best) {
			add_clipped(t, "\n- ", all[i].c->where);
			est_text_add(t, ": seq %lld, replaced by seq %lld from this message",
				     all[i].order->seq, best->order->seq);
		} else if (!strcmp(status, "duplicate")) {
			add_clipped(t, "\n- ", all[i].c->where);
			est_text_add(t, ": already recorded");
		} else {
			receipt_refusal(t, &all[i]);
		}
	}
	if (unlisted)
		est_text_add(t, "\n- and %zu more order files found in it, not listed here", unlisted);
	if (ignored)
		est_text_add(t, "\n- and %zu more order files in it, not read: at most %d are read from "
			     "one message. Send one order file (and its .sig) a message.", ignored,
			     EST_INTAKE_MAX_CANDIDATES);
	est_text_add(t, "\n");
}

/* "Re: SUBJECT" on one line of at most 150 bytes: a decoded subject may hold anything. */
/* Control characters of out[0..len) as spaces: a header's text put on one line. */
static void one_line(char *out, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = ' ';
}

void est_intake_reply_subject(char *out, size_t size, const char *subject)
{
	const char *s = subject ? subject : "your orders";
	size_t used;

	if (strncasecmp(s, "re:", 3) == 0)
		s += 3;
	while (*s == ' ')
		s++;
	used = (size_t)snprintf(out, size, "Re: %.150s", s);
	one_line(out, used < size ? used : size);
}

void est_intake_message_name(char *out, size_t size, const est_intake_message *m)
{
	size_t used;

	if (m->message_id)
		used = (size_t)snprintf(out, size, "<%.200s>", m->message_id);
	else if (m->subject)
		used = (size_t)snprintf(out, size, "\"%.200s\"", m->subject);
	else
		used = (size_t)snprintf(out, size, "without subject or Message-ID");
	one_line(out, used < size ? used : size);
}



/* The receipt's first paragraph: what became of the message as a whole. */
static void receipt_verdict(est_text *t, est_game *game, const est_intake_message *m, const char *status,
			    size_t n, const tried *best, const json_t *recorded, int signed_doc)
{
	if (best) {
		est_intake_text_recorded(t, game, recorded, best->order, best->c->where, signed_doc);
	} else if (m->unread) {
		est_text_add(t, "REFUSED: %s.\n", m->unread);
	} else if (!strcmp(status, "duplicate")) {
		est_text_add(t, "ALREADY RECORDED: the game holds these very orders already; nothing "
			     "changed. To change your orders, send a new file with a higher seq.\n");
	} else if (m->truncated) {
		est_text_add(t, "NOT READ WHOLE: your message arrived cut off (%s), so nothing in it was "
			     "recorded. Send it again; if it arrives cut off again, attach the order "
			     "file and its .sig instead of pasting them.\n", m->truncated);
	} else if (n == 0 && m->ignored == 0) {
		est_text_add(t, "REFUSED: no orders found in it. Attach the order file and its .sig, "
			     "or paste both into the body.\n");
	} else {
		est_text_add(t, "NOTHING RECORDED from this message:");
	}
}

/*
 * The receipt: what was found, what was recorded or refused and why, what
 * the game awaits; with the signed receipt of the recorded file attached
 * (`files`, count 0 if none).
 */
static int send_receipt(est_game *game, const est_intake_message *m, const char *key, const char *to,
			const char *status, const tried *all, size_t n, const tried *best,
			json_t *recorded, const est_intake_receipt_attachments *files, time_t now)
{
	char name[80], subject[200], which[210];
	est_text t = {0};
	int error;

	snprintf(name, sizeof(name), "receipt-%.16s", key);
	est_intake_reply_subject(subject, sizeof(subject), m->subject);
	est_intake_message_name(which, sizeof(which), m);
	est_text_add(&t, "estafette, game %s: your message %s\n\n",
		     json_string_value(json_object_get(game->game, "id")), which);
	receipt_verdict(&t, game, m, status, n, best, recorded, files->count > 0);
	if (best && (n > 1 || m->ignored))
		est_text_add(&t, "\nAlso found in it:");
	if (best ? n > 1 || m->ignored : strcmp(status, "duplicate") != 0 || n > 1 || m->ignored)
		receipt_candidates(&t, all, n, best, m->ignored);
	est_intake_text_awaiting(&t, game, now);
	char *answered = m->message_id ? est_strdup_printf("<%s>", m->message_id) : NULL;

	if (t.failed) {
		error = est_error_set(EST_ENOMEM, "out of memory");
	} else {
		error = est_game_notice(game, name, to, subject, t.text, answered, now, files->att,
					files->count);
		/* Orders relayed for another player: that player gets the receipt of their
		 * own file, nothing of the relayer's message. */
		const json_t *owner = best ? est_game_player(game, best->order->player) : NULL;
		const char *owner_email = json_string_value(json_object_get(owner, "email"));
		if (!error && owner_email && strcasecmp(owner_email, to) != 0)
			error = est_intake_receipt(game, recorded, best->order, now);
	}
	free(answered);
	free(t.text);
	return error;
}

/* One line of JSON per message in $ESTAFETTE_HOME/games/<id>/intake.log. */
static void log_intake(est_game *game, const json_t *result)
{
	char *path = est_game_home_path(game, "intake.log"), *line = NULL;
	char *text = json_dumps(result, JSON_COMPACT | JSON_SORT_KEYS);
	int fd;

	if (path && text && (line = est_strdup_printf("%s\n", text)) &&
	    (fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600)) >= 0) {
		if (write(fd, line, strlen(line)) < 0)
			est_game_warn(game, "%s: cannot append to the intake log", path);
		close(fd);
	}
	free(line);
	free(text);
	free(path);
}

/*
 * A sender who is no player: a short refusal, logged, nothing processed.
 * One per address and game, however many such messages come: a forged
 * From must not turn the game into a source of mail to strangers.
 */
static int refuse_stranger(est_game *game, const est_intake_message *m, time_t now)
{
	char name[64], text[600], sha[65], *lower = strdup(m->from);

	if (!lower)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (char *p = lower; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	est_sha256_hex(sha, lower, strlen(lower));
	free(lower);
	snprintf(name, sizeof(name), "stranger-%.16s", sha);
	snprintf(text, sizeof(text), "estafette, game %s: %s is not the address of a player of this "
		 "game, so this message was not processed. If you play, send from the address your GM "
		 "has for you.\n", json_string_value(json_object_get(game->game, "id")), m->from);
	return est_game_notice(game, name, m->from, "Your message to a game's address", text, NULL, now, NULL, 0);
}

/* `to` is a copy: recording an order reloads game.json, and with it every player record. */
static int handle(json_t *result, est_game *game, const est_intake_message *m, const char *key,
		  const char *to, const char *sender, time_t now)
{
	tried *all = calloc(m->count ? m->count : 1, sizeof(*all));
	json_t *list = json_array(), *recorded = NULL;
	est_intake_receipt_attachments files = {.count = 0};
	char *doc = NULL, *sig = NULL;
	const char *status;
	int error = 0, budget = VERIFY_MAX;
	tried *best;

	if (!all)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (size_t i = 0; i < m->count; i++) {
		try_candidate(&all[i], game, &m->candidates[i], now, &budget);
		json_array_append(list, all[i].result);
	}
	if ((best = newest_valid(all, m->count, sender)) &&
	    ((error = est_intake_record(&recorded, game, best->order, best->bytes->bytes, best->bytes->len,
				      best->sig->bytes, best->sig->len)) < 0 ||
	     (error = est_intake_press_mail(game, best->order, json_string_value(json_object_get(recorded, "sha256")),
				     now)) < 0))
		goto out;
	if (best) {
		est_fault_point("receive-after-record");
		if (est_intake_receipt_sign(&doc, &sig, game, recorded, best->order, now) < 0) {
			est_game_warn(game, "no signed receipt: %s", est_error_message());
			est_error_clear();
		}
		est_intake_receipt_files(&files, best->order, doc, sig);
	}
	for (size_t i = 0; i < m->count; i++) {
		if (all[i].order && &all[i] != best)
			set_status(&all[i], "superseded", NULL);
		/* Recorded by a run killed before its press was queued: queue it (once). */
		if (!best && !strcmp(json_string_value(json_object_get(all[i].result, "status")), "duplicate") &&
		    (error = est_intake_requeue(game, all[i].c->where, all[i].bytes->bytes, all[i].bytes->len,
					      0, now)) < 0)
			goto out;
	}
	if (best)
		set_status(best, "accepted", NULL);
	/* Signed orders of their own show the player reads mail again: a bounce episode ends. */
	if (best && strcmp(best->order->player, sender) == 0 &&
	    (error = est_intake_heard_from(result, game, sender)) < 0)
		goto out;
	status = best ? "accepted" : m->count && strcmp(json_string_value(
		json_object_get(all[0].result, "status")), "duplicate") == 0 ? "duplicate" : "refused";
	json_object_set_new(result, "status", json_string(status));
	json_object_set(result, "candidates", list);
	if (!best && m->truncated)
		json_object_set_new(result, "truncated", json_string(m->truncated));
	/* To the address the GM has for the player, whatever Reply-To says. */
	if (send_receipt(game, m, key, to, status, all, m->count, best, recorded, &files, now) < 0) {
		est_game_warn(game, "no receipt queued: %s", est_error_message());
		est_error_clear();
	}
out:
	for (size_t i = 0; i < m->count; i++) {
		est_orders_free(all[i].order);
		json_decref(all[i].result);
	}
	free(all);
	free(doc);
	free(sig);
	json_decref(recorded);
	json_decref(list);
	return error;
}

/*
 * The message's identity, for answering once: its Message-ID when it has
 * one (the same mail fetched by IMAP and piped by the MTA differs in its
 * trace headers), else its bytes.
 */
static void message_key(char key[65], const est_intake_message *m, const char *bytes, size_t len)
{
	if (m && m->message_id)
		est_sha256_hex(key, m->message_id, strlen(m->message_id));
	else
		est_sha256_hex(key, bytes, len);
}

/* The mail system calls us as mail arrives: wait a little for a run to finish rather than fail. */
static int lock_patiently(est_game *game)
{
	int error;

	for (int tries = 0; (error = est_game_lock(game)) == EST_ELOCKED && tries < 150; tries++) {
		est_error_clear();
		usleep(200 * 1000);
	}
	return error;
}

/*
 * A notice that cannot be composed for this sender's address (one RFC 5322
 * allows but SMTP and our headers cannot carry, or that is not UTF-8) is
 * no error of the message: it is logged as not answered.
 */
static int answered(json_t *result, int error)
{
	if (error != EST_EINVAL)
		return error;
	json_object_set_new(result, "not_answered", json_string(est_error_message()));
	est_error_clear();
	return 0;
}

/* The header section: the bytes up to and with the empty line that ends it, at most HEADER_READ_MAX. */
static size_t header_length(const char *bytes, size_t len)
{
	size_t n = len < HEADER_READ_MAX ? len : HEADER_READ_MAX;

	for (size_t i = 0; i + 1 < n; i++) {
		if (bytes[i] != '\n')
			continue;
		if (bytes[i + 1] == '\n')
			return i + 2;
		if (bytes[i + 1] == '\r' && i + 2 < n && bytes[i + 2] == '\n')
			return i + 3;
	}
	return n;
}

/* A player's message over the limit: one short notice, once per message, saying what to do. */
static int notice_too_large(est_game *game, const est_intake_message *m, const char *key,
			    const char *to, size_t size, size_t limit, time_t now)
{
	char name[80], subject[200], text[900], which[210];
	char *answered_id = m->message_id ? est_strdup_printf("<%s>", m->message_id) : NULL;
	int error;

	if (m->message_id && !answered_id)
		return est_error_set(EST_ENOMEM, "out of memory");
	snprintf(name, sizeof(name), "too-large-%.16s", key);
	est_intake_reply_subject(subject, sizeof(subject), m->subject);
	est_intake_message_name(which, sizeof(which), m);
	snprintf(text, sizeof(text), "estafette, game %s: your message %s is %zu bytes, over "
		 "this game's limit of %zu bytes, so it was not read and nothing in it was recorded.\n\n"
		 "Send the order file and its .sig alone (an order file is at most 64 KiB), without "
		 "other attachments or quoted mail; or ask your GM to raise the limit (git config "
		 "estafette.maxmessage).\n", json_string_value(json_object_get(game->game, "id")),
		 which, size, limit);
	error = est_game_notice(game, name, to, subject, text, answered_id, now, NULL, 0);
	free(answered_id);
	return error;
}

int est_intake_receive(json_t **result_out, est_game *game, const char *bytes, size_t len,
		     size_t size, const char *return_path, est_intake_report_fn report, time_t now)
{
	est_intake_message *m = NULL;
	const json_t *sender;
	json_t *result = NULL;
	size_t limit, parsed = len;
	int too_large, error;
	char key[65];

	*result_out = NULL;
	if ((error = est_intake_max_message(&limit, game)) < 0)
		return error;
	if (size < len)
		size = len;
	/* Over the limit, only the header is read: enough to know whom to tell, and cheap. */
	if ((too_large = size > limit))
		parsed = header_length(bytes, len);
	if ((error = est_intake_parse(&m, bytes, parsed, return_path)) < 0) {
		message_key(key, NULL, bytes, parsed);
		result = json_pack("{s:s, s:s, s:s}", "status", "unreadable", "error",
				   est_error_message(), "sha256", key);
		log_intake(game, result);
		json_decref(result);
		return error;
	}
	message_key(key, m, bytes, parsed);
	est_fault_point("receive-after-parse");
	if ((error = lock_patiently(game)) < 0)
		goto out;
	if ((error = est_game_reload(game)) < 0 || (error = est_game_repair(NULL, game)) < 0)
		goto unlock;
	result = json_pack("{s:s?, s:s?, s:s?, s:s}", "from", m->from, "message_id", m->message_id,
			   "subject", m->subject, "sha256", key);
	if (too_large) {
		char why[200];

		snprintf(why, sizeof(why), "%zu bytes, over the limit of %zu bytes (git config "
			 "estafette.maxmessage): not read", size, limit);
		json_object_set_new(result, "status", json_string("too large"));
		json_object_set_new(result, "error", json_string(why));
		json_object_set_new(result, "size", json_integer((json_int_t)size));
	}
	if (m->automated) {
		if (!too_large)
			json_object_set_new(result, "status", json_string("ignored"));
		json_object_set_new(result, "reason", json_string(m->automated_why));
		if (m->bounce && !too_large) /* never answered: matched, and the GM told */
			error = est_intake_take_bounce(result, game, m, key, now);
	} else if (!m->from) {
		if (!too_large)
			json_object_set_new(result, "status", json_string("unanswerable"));
		json_object_set_new(result, "reason", json_string(
			"no From address to answer (none, an empty group, or one that does not parse)"));
	} else if (!(sender = player_by_email(game, m->from))) {
		if (!too_large)
			json_object_set_new(result, "status", json_string("stranger"));
		error = answered(result, refuse_stranger(game, m, now));
	} else {
		char *to = strdup(json_string_value(json_object_get(sender, "email")));
		char *pid = strdup(json_string_value(json_object_get(sender, "id")));

		if (!to || !pid)
			error = est_error_set(EST_ENOMEM, "out of memory");
		else if (too_large)
			error = answered(result, notice_too_large(game, m, key, to, size, limit, now));
		else if (m->count == 0 && !m->ignored && !m->unread && est_intake_command_of(m))
			error = answered(result, est_intake_command(result, game, m, key, sender, to, report, now));
		else if (est_intake_for_gm(m))
			error = answered(result, est_intake_forward(result, game, m, key, sender, to, bytes,
								    parsed, now));
		else
			error = handle(result, game, m, key, to, pid, now);
		free(pid);
		free(to);
	}
	if (error == 0 && m->ignored)
		json_object_set_new(result, "ignored", json_integer((json_int_t)m->ignored));
	if (error == 0 && m->unread && !too_large)
		json_object_set_new(result, "error", json_string(m->unread));
	if (error == 0) {
		json_t *mail = NULL;

		est_fault_point("receive-after-receipt");
		log_intake(game, result);
		est_fault_point("receive-after-log");
		/* The order is safe and the receipt queued: a mail server that is down only delays it. */
		if (est_game_deliver(&mail, game) < 0) {
			est_game_warn(game, "%s", est_error_message());
			est_error_clear();
		}
		json_object_set_new(result, "mail", mail ? mail : json_null());
		json_object_set(result, "warnings", game->warnings);
		*result_out = result;
		result = NULL;
	}
unlock:
	est_store_unlock(game->store);
out:
	json_decref(result);
	est_intake_free(m);
	return error;
}

typedef struct {
	est_game *game;
	time_t now;
	json_t *results;
	est_intake_report_fn report;
} fetch_run;

/* est_intake_fn: a message is done (may be marked seen) once its outcome is stored. */
static int fetch_one(void *payload, const char *message, size_t len, size_t size, const char *id)
{
	fetch_run *run = payload;
	json_t *result = NULL;
	int error = est_intake_receive(&result, run->game, message, len, size, NULL, run->report, run->now);

	if (error == EST_EINVAL) { /* not a message at all: nothing to answer, and never will be */
		result = json_pack("{s:s, s:s}", "status", "unreadable", "error", est_error_message());
		est_error_clear();
	} else if (error < 0) {
		return error;
	}
	json_object_set_new(result, "mailbox_id", json_string(id));
	json_array_append_new(run->results, result);
	est_fault_point("fetch-after-store");
	return error;
}

int est_intake_fetch(json_t **summary_out, est_game *game, const char *imap_url, const char *maildir,
		   est_intake_report_fn report, time_t now)
{
	fetch_run run = {game, now, json_array(), report};
	char *url = imap_url ? strdup(imap_url) : est_game_config(game, "estafette.imapurl", NULL);
	char *user = est_game_config(game, "estafette.imapuser", NULL), *ca = est_game_config(game, "estafette.imapcafile", NULL);
	char *password = NULL;
	size_t handled = 0, left = 0, limit;
	int error;

	*summary_out = NULL;
	if ((error = est_intake_max_message(&limit, game)) < 0 ||
	    (error = est_game_password(&password, game, "imap-password")) < 0)
		goto out;
	if (maildir) {
		error = est_mail_maildir_fetch(&handled, &left, maildir, limit, fetch_one, &run);
	} else if (!url) {
		error = est_error_set(EST_ECONFIG, "no mailbox: give --imap URL or --maildir DIR, or set "
				      "git -C GAME config estafette.imapurl imaps://host/INBOX");
	} else {
		est_mail_imap imap = {.url = url, .username = user, .password = password, .netrc = 1,
				      .ca_file = ca, .timeout_seconds = 60, .max_message = limit};
		error = est_mail_imap_fetch(&handled, &left, &imap, fetch_one, &run);
	}
	*summary_out = json_pack("{s:I, s:I, s:O, s:O}", "handled", (json_int_t)handled,
				 "left", (json_int_t)left, "messages", run.results, "warnings", game->warnings);
out:
	if (password)
		memset(password, 0, strlen(password));
	free(password);
	free(ca);
	free(user);
	free(url);
	json_decref(run.results);
	return error;
}
