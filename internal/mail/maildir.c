/*
 * Maildir intake (imap.h): the unseen messages of new/ and cur/, handed to
 * the caller in name order and marked seen by renaming them into cur/ with
 * the S flag, the way a mail client would (https://cr.yp.to/proto/maildir.html).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mail/imap.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"


struct entry {
	char *name;   /* file name inside its folder */
	int in_cur;   /* cur/ rather than new/ */
};

struct list {
	struct entry *items;
	size_t count;
	size_t cap;
};

static void list_free(struct list *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->items[i].name);
	free(l->items);
}

/* The info part "FLAGS" of "NAME:2,FLAGS", or NULL when the name has none. */
static const char *maildir_flags(const char *name)
{
	const char *info = strstr(name, ":2,");

	return info ? info + 3 : NULL;
}

static int is_seen(const char *name)
{
	const char *flags = maildir_flags(name);

	return flags && strchr(flags, 'S') != NULL;
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A Maildir has new/, cur/ and tmp/; anything else is some other folder. */
static int check_maildir(const char *maildir)
{
	static const char *const subs[] = { "new", "cur", "tmp" };
	size_t i;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		char *path = est_strdup_printf("%s/%s", maildir, subs[i]);
		int found;

		if (!path)
			return est_error_set(EST_ENOMEM, "out of memory");
		found = is_dir(path);
		free(path);
		if (!found)
			return est_error_set(EST_ENOTFOUND,
					     "%s: not a Maildir (no %s/ folder); give the folder "
					     "that holds new/, cur/ and tmp/",
					     maildir, subs[i]);
	}
	return 0;
}

static int list_folder(struct list *l, const char *maildir, int in_cur)
{
	const char *sub = in_cur ? "cur" : "new";
	char *path;
	DIR *dir = NULL;
	struct dirent *de;
	int error = 0;

	if (!(path = est_strdup_printf("%s/%s", maildir, sub)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if (!(dir = opendir(path))) {
		error = est_error_set(EST_EIO, "%s: cannot read the folder: %s", path,
				      strerror(errno));
		goto out;
	}
	for (;;) {
		errno = 0;
		if (!(de = readdir(dir)))
			break;
		if (de->d_name[0] == '.')
			continue;
		if (in_cur && is_seen(de->d_name))
			continue;
		if (l->count == l->cap) {
			size_t cap = l->cap ? l->cap * 2 : 32;
			struct entry *items = realloc(l->items, cap * sizeof(*items));

			if (!items) {
				error = est_error_set(EST_ENOMEM, "out of memory");
				goto out;
			}
			l->items = items;
			l->cap = cap;
		}
		if (!(l->items[l->count].name = strdup(de->d_name))) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		l->items[l->count++].in_cur = in_cur;
	}
	if (errno)
		error = est_error_set(EST_EIO, "%s: cannot read the folder: %s", path,
				      strerror(errno));
out:
	if (dir)
		closedir(dir);
	free(path);
	return error;
}

static int compare_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->in_cur - y->in_cur;
}

/*
 * The name a seen message has in cur/: "NAME:2,S" for a name without info,
 * else the same flags with S added in ASCII order.
 */
static char *seen_name(const char *name)
{
	const char *flags = maildir_flags(name);
	size_t len = strlen(name), at;
	char *out;

	if (!flags)
		return est_strdup_printf("%s:2,S", name);
	if (!(out = malloc(len + 2)))
		return NULL;
	at = (size_t)(flags - name);
	while (name[at] && (unsigned char)name[at] < 'S')
		at++;
	memcpy(out, name, at);
	out[at] = 'S';
	memcpy(out + at + 1, name + at, len - at + 1);
	return out;
}

static int mark_seen(const char *maildir, const struct entry *e)
{
	char *from = NULL, *to = NULL, *name = NULL;
	int error = 0;

	if (!(name = seen_name(e->name)) ||
	    !(from = est_strdup_printf("%s/%s/%s", maildir, e->in_cur ? "cur" : "new", e->name)) ||
	    !(to = est_strdup_printf("%s/cur/%s", maildir, name))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (rename(from, to) != 0)
		error = est_error_set(EST_EIO, "%s: cannot mark the message seen (rename to %s): %s",
				      from, to, strerror(errno));
out:
	free(to);
	free(from);
	free(name);
	return error;
}

/*
 * The message at `path`: whole, or its first EST_MAIL_HEAD_MAX bytes when it
 * is over `max` (0: no limit); *size is the file's size either way.
 * Errors: those of est_file_read.
 */
static int read_message(char **out, size_t *len, size_t *size, const char *path, size_t max)
{
	struct stat st;
	size_t want, got = 0;
	char *buf;
	int fd;

	*out = NULL;
	*len = *size = 0;
	/* est_file_read says what a missing or odd file is; only a big one is read here */
	if (max == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size <= max) {
		int error = est_file_read(out, len, path, 0);

		*size = *len;
		return error;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return est_error_set(errno == ENOENT ? EST_ENOTFOUND : EST_EIO, "%s: cannot open: %s",
				     path, strerror(errno));
	want = EST_MAIL_HEAD_MAX;
	if (!(buf = malloc(want + 1))) {
		close(fd);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	while (got < want) {
		ssize_t n = read(fd, buf + got, want - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return est_error_set(EST_EIO, "%s: cannot read: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*out = buf;
	*len = got;
	*size = (size_t)st.st_size;
	return 0;
}

int est_mail_maildir_fetch(size_t *handled_out, size_t *left_out, const char *maildir,
			   size_t max_message, est_intake_fn fn, void *payload)
{
	struct list l = { NULL, 0, 0 };
	size_t handled = 0, gone = 0, i;
	int error = 0;

	if (handled_out)
		*handled_out = 0;
	if (left_out)
		*left_out = 0;
	if ((error = check_maildir(maildir)) < 0)
		return error;
	if ((error = list_folder(&l, maildir, 0)) < 0 || (error = list_folder(&l, maildir, 1)) < 0)
		goto out;
	if (l.count > 1)
		qsort(l.items, l.count, sizeof(*l.items), compare_entry);
	for (i = 0; i < l.count; i++) {
		const struct entry *e = &l.items[i];
		char *path, *id, *message = NULL;
		size_t len = 0, size = 0;

		path = est_strdup_printf("%s/%s/%s", maildir, e->in_cur ? "cur" : "new", e->name);
		id = est_strdup_printf("%s/%s", e->in_cur ? "cur" : "new", e->name);
		if (!path || !id) {
			free(path);
			free(id);
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		error = read_message(&message, &len, &size, path, max_message);
		free(path);
		if (error == EST_ENOTFOUND) {
			/* another reader moved it since we listed the folder */
			free(id);
			gone++;
			continue;
		} else if (error < 0) {
			free(id);
			if (error != EST_ENOMEM) {
				/* the setter writes where the old message lives */
				char message_copy[1024];

				snprintf(message_copy, sizeof(message_copy), "%s",
					 est_error_message());
				error = est_error_set(EST_EIO, "%s", message_copy);
			}
			goto out;
		} else {
			error = fn(payload, message, len, size, id);
		}
		free(message);
		free(id);
		if (error > 0)
			error = EST_ERROR;
		if (error < 0 && error != EST_EINVAL)
			goto out;
		/* A crash here hands the message to fn again next run (imap.h). */
		if ((error = mark_seen(maildir, e)) < 0)
			goto out;
		est_fault_point("fetch-after-seen");
		handled++;
	}
	error = 0;
out:
	if (handled_out)
		*handled_out = handled;
	if (left_out)
		*left_out = l.count - handled - gone;
	list_free(&l);
	return error;
}
