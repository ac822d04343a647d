/*
 * The outbox: every report is written here before any attempt to send it,
 * so nothing is lost when the server is down (DESIGN.md "Reports and mail").
 */
#include "mail/mail.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

int est_mail_outbox_put(int *queued_out, const char *home, const char *game, const char *name,
			const char *envelope_from, const char *const *rcpts, size_t rcpt_count,
			const char *eml, size_t eml_len)
{
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
	if ((error = est_file_write_atomic(eml_path, eml, eml_len, 0600)) < 0)
		goto out;
	est_fault_point("outbox-after-eml");
	if ((error = est_file_write_atomic(json_path, json, strlen(json), 0600)) < 0)
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
 * Keep those of the sorted `names` that are also in the sorted `envelopes`
 * (a pending message is complete once its .json is there), freeing the rest.
 */
static size_t keep_complete(char **names, size_t n, char **envelopes, size_t m)
{
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		if (m > 0 && bsearch(&names[i], envelopes, m, sizeof(*envelopes), compare_names))
			names[kept++] = names[i];
		else
			free(names[i]);
	}
	return kept;
}

int est_mail_outbox_list(char ***names_out, size_t *count, const char *home, const char *game,
			 const char *which)
{
	char *dir = NULL, *folder = NULL, **names = NULL, **envelopes = NULL;
	size_t n = 0, cap = 0, m = 0, m_cap = 0;
	DIR *d = NULL;
	struct dirent *entry;
	int error, pending;

	*names_out = NULL;
	*count = 0;
	if (!which || (strcmp(which, "pending") && strcmp(which, "sent")))
		return est_error_set(EST_EINVAL, "outbox: folder \"%s\" is neither \"pending\" nor "
				     "\"sent\"", which ? which : "");
	pending = !strcmp(which, "pending");
	if ((error = est_mail_outbox_dir(&dir, home, game)) < 0)
		return error;
	if (!(folder = est_strdup_printf("%s/%s", dir, which))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (!(d = opendir(folder))) {
		if (errno != ENOENT)
			error = est_error_set(EST_EIO, "%s: cannot read folder: %s", folder,
					      strerror(errno));
		goto out;
	}
	/* One pass over the folder, no stat() a message: pending/ holds every unsent report. */
	while ((errno = 0, entry = readdir(d))) {
		char *name = NULL;
		int found = message_name(&name, entry->d_name, ".eml");

		if (found > 0) {
			error = push_name(&names, &n, &cap, name);
		} else if (found == 0 && pending &&
			   (found = message_name(&name, entry->d_name, ".json")) > 0) {
			error = push_name(&envelopes, &m, &m_cap, name);
		}
		if (found < 0)
			error = found;
		if (error < 0) {
			free(name);
			goto out;
		}
	}
	if (errno) {
		error = est_error_set(EST_EIO, "%s: cannot read folder: %s", folder, strerror(errno));
		goto out;
	}
	if (n > 0)
		qsort(names, n, sizeof(*names), compare_names);
	if (pending && m > 0)
		qsort(envelopes, m, sizeof(*envelopes), compare_names);
	if (pending)
		n = keep_complete(names, n, envelopes, m);
	*names_out = names;
	*count = n;
	names = NULL;
	n = 0;
out:
	est_mail_names_free(names, n);
	est_mail_names_free(envelopes, m);
	if (d)
		closedir(d);
	free(folder);
	free(dir);
	return error;
}
