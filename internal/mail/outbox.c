/*
 * The outbox: every report is written here before any attempt to send it,
 * so nothing is lost when the server is down (docs/mail.md).
 */
#include "mail/mail.h"
#include "mail/outbox_private.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

/* Names become file names: keep them to a set no shell or path can misread. */
static int check_name(const char *name, const char *what)
{
	if (!name || !*name || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					     "0123456789._-") != strlen(name) ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return est_error_set(EST_EINVAL,
				     "outbox: %s \"%.100s\" may hold only letters, digits, \".\", "
				     "\"_\" and \"-\" (it becomes a file name); e.g. 0007-france",
				     what, name ? name : "");
	return 0;
}

int est_mail_outbox_dir(char **out, const char *home, const char *game)
{
	int error;

	if (!home || !*home)
		return est_error_set(EST_EINVAL, "outbox: no $ESTAFETTE_HOME folder given; set "
				     "ESTAFETTE_HOME or HOME");
	if ((error = check_name(game, "game")) < 0)
		return error;
	if (!(*out = est_strdup_printf("%s/outbox/%s", home, game)))
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/* "<dir>/<which>/<name><suffix>", or NULL when out of memory. */
static char *outbox_path(const char *dir, const char *which, const char *name, const char *suffix)
{
	return est_strdup_printf("%s/%s/%s%s", dir, which, name, suffix);
}

/* 1 if <name> is pending (both files) or sent, else 0; negative on ENOMEM. */
static int already_queued(const char *dir, const char *name)
{
	char *sent = outbox_path(dir, "sent", name, ".eml");
	char *eml = outbox_path(dir, "pending", name, ".eml");
	char *json = outbox_path(dir, "pending", name, ".json");
	int found = -1;

	if (sent && eml && json)
		found = est_path_exists(sent) || (est_path_exists(eml) && est_path_exists(json));
	free(sent);
	free(eml);
	free(json);
	return found < 0 ? est_error_set(EST_ENOMEM, "out of memory") : found;
}

int est_mail_outbox_has(int *found_out, const char *home, const char *game, const char *name)
{
	char *dir = NULL;
	int error;

	*found_out = 0;
	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if ((error = check_name(name, "message name")) == 0 &&
	    (error = already_queued(dir, name)) > 0) {
		*found_out = 1;
		error = 0;
	}
	free(dir);
	return error;
}

static int envelope_json(char **out, const char *from, const char *const *rcpts, size_t count)
{
	json_t *root = json_object(), *to = json_array();
	int error = 0;

	if (!root || !to || json_object_set_new(root, "from", json_string(from)) < 0)
		goto oom;
	for (size_t i = 0; i < count; i++)
		if (json_array_append_new(to, json_string(rcpts[i])) < 0)
			goto oom;
	if (json_object_set(root, "to", to) < 0)
		goto oom;
	if (!(*out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER)))
		goto oom;
	goto out;
oom:
	error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(to);
	json_decref(root);
	return error;
}

static int check_envelope(const char *from, const char *const *rcpts, size_t count)
{
	int error;

	if (!from || (error = est_mail_check_address(from, strlen(from), "outbox: envelope sender")) < 0)
		return from ? error : est_error_set(EST_EINVAL, "outbox: no envelope sender given; "
						    "set the game's sender address");
	if (count == 0 || !rcpts)
		return est_error_set(EST_EINVAL, "outbox: no recipients given; a message needs at "
				     "least one address");
	for (size_t i = 0; i < count; i++) {
		if (!rcpts[i])
			return est_error_set(EST_EINVAL, "outbox: recipient %zu is missing", i + 1);
		if ((error = est_mail_check_address(rcpts[i], strlen(rcpts[i]),
						    "outbox: envelope recipient")) < 0)
			return error;
	}
	return 0;
}

int est_mail_outbox_mark_maker(const char *home, const char *game)
{
	static const char text[] = "estafette new made this game with this $ESTAFETTE_HOME: its first mail "
				   "(the join's invitations) is this home's to send (hooks/run-and-push)\n";
	char *dir = NULL, *path = NULL;
	int error;

	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if (!(path = est_strdup_printf("%s/made-here", dir)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if ((error = est_mkdir_p(dir, 0700)) == 0)
		error = est_file_write_atomic(path, text, sizeof(text) - 1, 0600);
	free(path);
	free(dir);
	return error;
}

/* est_mail_outbox_put; the folder's fsync left to the caller when `defer_sync`. */
static int put(int *queued_out, const char *home, const char *game, const char *name,
	       const char *envelope_from, const char *const *rcpts, size_t rcpt_count,
	       const char *eml, size_t eml_len, int defer_sync)
{
	int (*write)(const char *, const void *, size_t, mode_t) =
		defer_sync ? est_file_write_whole : est_file_write_atomic;
	char *dir = NULL, *pending = NULL, *sent = NULL, *eml_path = NULL, *json_path = NULL;
	char *json = NULL;
	int error, found;

	*queued_out = 0;
	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if ((error = check_name(name, "message name")) < 0 ||
	    (error = check_envelope(envelope_from, rcpts, rcpt_count)) < 0)
		goto out;
	if ((found = already_queued(dir, name)) != 0) {
		error = found < 0 ? found : 0;
		goto out;
	}
	pending = est_strdup_printf("%s/pending", dir);
	sent = est_strdup_printf("%s/sent", dir);
	eml_path = outbox_path(dir, "pending", name, ".eml");
	json_path = outbox_path(dir, "pending", name, ".json");
	if (!pending || !sent || !eml_path || !json_path) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = envelope_json(&json, envelope_from, rcpts, rcpt_count)) < 0 ||
	    (error = est_mkdir_p(pending, 0700)) < 0 || (error = est_mkdir_p(sent, 0700)) < 0)
		goto out;
	/* The .json last: only with it is the message complete (see mail.h). */
	est_fault_point("outbox-before-write");
	if ((error = write(eml_path, eml, eml_len, 0600)) < 0)
		goto out;
	est_fault_point("outbox-after-eml");
	if ((error = write(json_path, json, strlen(json), 0600)) < 0)
		goto out;
	est_fault_point("outbox-after-write");
	*queued_out = 1;
out:
	free(json);
	free(json_path);
	free(eml_path);
	free(sent);
	free(pending);
	free(dir);
	return error;
}

int est_mail_outbox_put(int *queued_out, const char *home, const char *game, const char *name,
			const char *envelope_from, const char *const *rcpts, size_t rcpt_count,
			const char *eml, size_t eml_len)
{
	return put(queued_out, home, game, name, envelope_from, rcpts, rcpt_count, eml, eml_len, 0);
}

int est_mail_outbox_put_unsynced(int *queued_out, const char *home, const char *game, const char *name,
				 const char *envelope_from, const char *const *rcpts, size_t rcpt_count,
				 const char *eml, size_t eml_len)
{
	return put(queued_out, home, game, name, envelope_from, rcpts, rcpt_count, eml, eml_len, 1);
}

int est_mail_outbox_sync(const char *home, const char *game)
{
	char *dir = NULL, *pending = NULL;
	int error;

	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if (!(pending = est_strdup_printf("%s/pending", dir)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	else
		error = est_dir_sync(pending);
	free(pending);
	free(dir);
	return error;
}

void est_mail_names_free(char **names, size_t count)
{
	if (!names)
		return;
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * 1 and the name in *out (caller frees) for a "<name><suffix>" entry, 0 for
 * anything else (temporary files of est_file_write_atomic, other suffixes).
 */
static int message_name(char **out, const char *entry, const char *suffix)
{
	size_t n = strlen(entry), k = strlen(suffix);

	if (n <= k || strcmp(entry + n - k, suffix) ||
	    strspn(entry, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") <
		    n - k)
		return 0;
	if (!(*out = strndup(entry, n - k)))
		return est_error_set(EST_ENOMEM, "out of memory");
	return 1;
}

static int push_name(char ***names, size_t *count, size_t *cap, char *name)
{
	if (*count == *cap) {
		size_t grown_cap = *cap ? *cap * 2 : 16;
		char **grown = realloc(*names, grown_cap * sizeof(*grown));

		if (!grown)
			return est_error_set(EST_ENOMEM, "out of memory");
		*names = grown;
		*cap = grown_cap;
	}
	(*names)[(*count)++] = name;
	return 0;
}

/*
 * 1 if process `pid` has ended: gone, or a zombie nobody reaped (the
 * parent of a run killed by `timeout -s KILL` dies with it, and not every
 * container's init reaps orphans). Zombies are told by /proc on Linux.
 */
static int process_ended(long pid)
{
	char path[64], line[512], *paren;
	size_t n;
	FILE *f;

	if (kill((pid_t)pid, 0) < 0)
		return errno == ESRCH;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	/* "pid (command) S ...": the state follows the last ")". */
	paren = strrchr(line, ')');
	return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/*
 * 1 if `entry` is a temporary file est_file_write_atomic left behind when
 * its process died ("<name>.eml.tmp.<pid>", or .json), else 0.
 */
static int is_stale_temporary(const char *entry)
{
	const char *tmp = NULL, *digits;
	char *end;
	long pid;

	for (const char *p = entry; (p = strstr(p, ".tmp.")); p++)
		tmp = p; /* the last one: a name may hold ".tmp." too */

	if (!tmp || tmp - entry < 5 ||
	    (strncmp(tmp - 4, ".eml", 4) && (tmp - entry < 6 || strncmp(tmp - 5, ".json", 5))))
		return 0;
	digits = tmp + 5;
	errno = 0;
	pid = strtol(digits, &end, 10);
	if (*digits < '0' || *digits > '9' || *end || errno || pid <= 0)
		return 0;
	return process_ended(pid);
}

/* What one pass over a folder of the outbox found: names without suffix. */
struct scan {
	char **emls, **envelopes;
	size_t eml_count, eml_cap, envelope_count, envelope_cap;
};

static void scan_free(struct scan *s)
{
	est_mail_names_free(s->emls, s->eml_count);
	est_mail_names_free(s->envelopes, s->envelope_count);
}

/* Remove `entry` of `folder` if it is a temporary file of a dead process. */
static int tidy_entry(const char *folder, const char *entry)
{
	char *path;
	int error = 0;

	if (!is_stale_temporary(entry))
		return 0;
	if (!(path = est_strdup_printf("%s/%s", folder, entry)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if (unlink(path) < 0 && errno != ENOENT)
		error = est_error_set(EST_EIO, "%s: cannot remove: %s", path, strerror(errno));
	free(path);
	return error;
}

/* Note `entry`: a message; in pending/, an envelope or a temporary file to tidy. */
static int scan_entry(struct scan *s, const char *folder, const char *entry, int pending,
		      int tidy)
{
	char *name = NULL;
	int found, error;

	if ((found = message_name(&name, entry, ".eml")) > 0)
		error = push_name(&s->emls, &s->eml_count, &s->eml_cap, name);
	else if (found == 0 && pending && (found = message_name(&name, entry, ".json")) > 0)
		error = push_name(&s->envelopes, &s->envelope_count, &s->envelope_cap, name);
	else
		error = found < 0 ? found : tidy ? tidy_entry(folder, entry) : 0;
	if (error < 0)
		free(name);
	return error;
}

/*
 * One pass over `folder`, no stat() an entry (pending/ holds every unsent
 * report): its .eml names and, when `pending`, its .json names, sorted;
 * with `tidy`, the temporary files of dead processes removed on the way.
 * A missing folder is empty.
 */
static int scan_folder(struct scan *s, const char *folder, int pending, int tidy)
{
	struct dirent *entry;
	DIR *d;
	int error = 0;

	if (!(d = opendir(folder)))
		return errno == ENOENT ? 0 : est_error_set(EST_EIO, "%s: cannot read folder: %s",
							    folder, strerror(errno));
	while (!error && (errno = 0, entry = readdir(d)))
		error = scan_entry(s, folder, entry->d_name, pending, tidy);
	if (!error && errno)
		error = est_error_set(EST_EIO, "%s: cannot read folder: %s", folder, strerror(errno));
	closedir(d);
	if (s->eml_count > 0)
		qsort(s->emls, s->eml_count, sizeof(*s->emls), compare_names);
	if (s->envelope_count > 0)
		qsort(s->envelopes, s->envelope_count, sizeof(*s->envelopes), compare_names);
	return error;
}

/*
 * Pair the sorted names of a pending/ scan: s->emls keeps the complete
 * messages (both files: est_mail_outbox_put writes the .json last),
 * s->envelopes the .json files without their .eml. The rest is freed.
 */
static void pair_up(struct scan *s)
{
	size_t i = 0, j = 0, kept = 0, lone = 0;

	while (i < s->eml_count || j < s->envelope_count) {
		int cmp = i == s->eml_count ? 1 : j == s->envelope_count ? -1 :
			  strcmp(s->emls[i], s->envelopes[j]);

		if (cmp < 0) {
			free(s->emls[i++]);
		} else if (cmp > 0) {
			s->envelopes[lone++] = s->envelopes[j++];
		} else {
			s->emls[kept++] = s->emls[i++];
			free(s->envelopes[j++]);
		}
	}
	s->eml_count = kept;
	s->envelope_count = lone;
}

static int list_folder(struct scan *s, const char *home, const char *game, const char *which,
		       int tidy)
{
	char *dir = NULL, *folder = NULL;
	int error, pending = strcmp(which, "pending") == 0;

	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if (!(folder = est_strdup_printf("%s/%s", dir, which)))
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if ((error = scan_folder(s, folder, pending, tidy)) == 0 && pending)
		pair_up(s);
	free(folder);
	free(dir);
	return error;
}

int est_mail_outbox_list(char ***names_out, size_t *count, const char *home, const char *game,
			 const char *which)
{
	struct scan s = {0};
	int error;

	*names_out = NULL;
	*count = 0;
	if (!which || (strcmp(which, "pending") && strcmp(which, "sent")))
		return est_error_set(EST_EINVAL, "outbox: folder \"%s\" is neither \"pending\" nor "
				     "\"sent\"", which ? which : "");
	if ((error = list_folder(&s, home, game, which, 0)) == 0) {
		*names_out = s.emls;
		*count = s.eml_count;
		s.emls = NULL;
		s.eml_count = 0;
	}
	scan_free(&s);
	return error;
}

int est_mail__outbox_pending(char ***names_out, size_t *count, char ***lone_out,
			     size_t *lone_count, const char *home, const char *game)
{
	struct scan s = {0};
	int error;

	*names_out = *lone_out = NULL;
	*count = *lone_count = 0;
	if ((error = list_folder(&s, home, game, "pending", 1)) < 0) {
		scan_free(&s);
		return error;
	}
	*names_out = s.emls;
	*count = s.eml_count;
	*lone_out = s.envelopes;
	*lone_count = s.envelope_count;
	return 0;
}

/* Does the header section of `eml` (at most its first `len` bytes) hold Message-ID <id>? */
static int has_message_id(const char *eml, size_t len, const char *id)
{
	size_t n = strlen(id);

	for (size_t i = 0; i + 12 < len; i++) {
		if (i > 0 && eml[i - 1] != '\n')
			continue;
		if (eml[i] == '\r' || eml[i] == '\n')
			return 0; /* the empty line: the header ends */
		if (strncasecmp(eml + i, "Message-ID:", 11) != 0)
			continue;
		const char *v = eml + i + 11, *end = eml + len;
		/* our own header: one value, maybe folded onto the next line */
		while (v < end && (*v == ' ' || *v == '\t' || *v == '\r' || *v == '\n'))
			v++;
		return v + n + 2 <= end && v[0] == '<' && memcmp(v + 1, id, n) == 0 && v[n + 1] == '>';
	}
	return 0;
}

/* The first `max` bytes of a file (fewer when it is shorter) into buf; their number, or -1. */
static ssize_t read_head(char *buf, size_t max, const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, max, f);
	fclose(f);
	return (ssize_t)n;
}

/* The "to" addresses of an envelope file, as new strings. */
static int envelope_rcpts(char ***rcpts_out, size_t *count, const char *path)
{
	json_t *env = json_load_file(path, 0, NULL), *to = json_object_get(env, "to"), *v;
	char **list = NULL;
	size_t i, n = json_array_size(to);
	int error = 0;

	*rcpts_out = NULL;
	*count = 0;
	if (n && !(list = calloc(n, sizeof(*list)))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	json_array_foreach(to, i, v) {
		if (json_is_string(v) && !(list[(*count)++] = strdup(json_string_value(v)))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
	}
	*rcpts_out = list;
	list = NULL;
out:
	if (list)
		est_mail_names_free(list, *count), *count = 0;
	json_decref(env);
	return error;
}

/*
 * The outbox name a Message-ID of ours names (msgid.c: "HEX.GAME.NAME@HOST",
 * no angle brackets), new, or NULL when `id` is not of that form for
 * `game` or names no name an outbox could hold.
 */
static char *name_in_id(const char *id, const char *game)
{
	const char *p = id, *at = strrchr(id, '@');
	size_t n = strlen(game), len;

	while (*p && isxdigit((unsigned char)*p))
		p++;
	if (p == id || *p++ != '.' || !at || strncmp(p, game, n) != 0 || p[n] != '.')
		return NULL;
	p += n + 1;
	len = (size_t)(at - p);
	if (len == 0 || len > 200 || p[0] == '.' || memmem(p, len, "..", 2))
		return NULL;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)p[i]) && !strchr("-_.", p[i]))
			return NULL;
	return strndup(p, len);
}

int est_mail_outbox_find(char **name_out, char ***rcpts_out, size_t *rcpt_count, const char *home,
			 const char *game, const char *message_id)
{
	char *dir = NULL, *path = NULL, *name = NULL, head[8192];
	ssize_t n;
	int error;

	*name_out = NULL;
	*rcpts_out = NULL;
	*rcpt_count = 0;
	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0 ||
	    !(name = name_in_id(message_id, game)))
		goto out;
	if (!(path = outbox_path(dir, "sent", name, ".eml"))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((n = read_head(head, sizeof(head), path)) <= 0 || !has_message_id(head, (size_t)n, message_id))
		goto out;
	free(path);
	if (!(path = outbox_path(dir, "sent", name, ".json"))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = envelope_rcpts(rcpts_out, rcpt_count, path)) == 0) {
		*name_out = name;
		name = NULL;
	}
out:
	free(name);
	free(path);
	free(dir);
	return error;
}
