/*
 * The next-due record: what a run that found nothing due learnt, so that
 * `run --all` can pass over the game until something it depended on
 * changes, without libgit2 and without parsing the game (engine.h,
 * docs/hosting.md "The next-due record").
 *
 * The record is <git dir>/estafette-next-due, a hint: it never causes a
 * step, only the skip of a run that would have found nothing due, and
 * only while every input it was made from is unchanged: main's commit (read
 * from the ref file or packed-refs, as git stores it), the repository's git
 * config file, the site's manifest, an empty outbox, the game's dice
 * secrets file, this very binary, $ESTAFETTE_HOME, and a clock between
 * the run that wrote it and the earliest time anything could fall due.
 * Anything else, a missing field, a file it cannot read, a layout it does
 * not know, means the full run.
 *
 * Every record also names the game's id (fixed at `new`) with main's
 * commit, so that `run --all --shard` passes over another host's game
 * without opening it; a host writes an id-only record for such a game.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/engine.h"
#include "turn/turn.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

#define RECORD_NAME "estafette-next-due"
#define RECORD_FORMAT 2
/* A record is a few KiB; anything far larger is not one this code wrote. */
#define RECORD_MAX (256 << 10)

/*
 * The folder the record lives in for the repository at `path`, as a new
 * string: `path`/.git when that is a folder (a work tree), else `path`
 * itself (a bare repository). NULL when .git is anything else (a gitfile
 * of a linked work tree, a link: no record for such layouts) or out of
 * memory. Needs no libgit2, so reader and writer agree on it.
 */
static char *record_dir(const char *path)
{
	char *dotgit = est_strdup_printf("%s/.git", path);
	struct stat st;

	if (!dotgit)
		return NULL;
	if (lstat(dotgit, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return dotgit;
		free(dotgit);
		return NULL;
	}
	free(dotgit);
	return errno == ENOENT ? strdup(path) : NULL;
}

/* A file's identity as [inode, size, mtime in ns], or JSON null when stat fails. */
static json_t *file_id(const char *path)
{
	struct stat st;

	if (!path || stat(path, &st) < 0)
		return json_null();
	return json_pack("[I, I, I]", (json_int_t)st.st_ino, (json_int_t)st.st_size,
			 (json_int_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec);
}

/* 1 if the file at `path` still has the identity `recorded` (file_id's), else 0. */
static int same_file(const char *path, const json_t *recorded)
{
	json_t *now = file_id(path);
	int same = json_is_array(recorded) && json_equal(now, recorded);

	json_decref(now);
	return same;
}

/*
 * This binary's identity (file_id of /proc/self/exe), found once per
 * process: a running binary stays the file it was started from, even when
 * a new build replaces it on disk. Borrowed; NULL out of memory.
 */
static const json_t *exe_id(void)
{
	static json_t *id;

	if (!id)
		id = file_id("/proc/self/exe");
	return id;
}

/*
 * main's commit id as git stores it under `gitdir`, into out[41], without
 * libgit2: refs/heads/main holding 40 hex digits and a newline, else, when
 * there is no such file, the line of packed-refs that names it. 0 on
 * success, -1 for anything else (a symbolic ref, an odd file, no main).
 */
static int read_main(char out[EST_STORE_OID_HEX + 1], const char *gitdir)
{
	char *path = est_strdup_printf("%s/refs/heads/main", gitdir), *text = NULL, *line;
	struct stat st;
	size_t len;
	int found = -1;

	if (!path)
		return -1;
	if (lstat(path, &st) == 0) {
		if (S_ISREG(st.st_mode) && est_file_read(&text, &len, path, 64) == 0 &&
		    len == EST_STORE_OID_HEX + 1 && text[EST_STORE_OID_HEX] == '\n' &&
		    strspn(text, "0123456789abcdef") == EST_STORE_OID_HEX) {
			memcpy(out, text, EST_STORE_OID_HEX);
			out[EST_STORE_OID_HEX] = '\0';
			found = 0;
		}
		goto out;
	}
	if (errno != ENOENT)
		goto out;
	free(path);
	if (!(path = est_strdup_printf("%s/packed-refs", gitdir)) || est_file_read(&text, &len, path, 0) < 0)
		goto out;
	/* "<40 hex> refs/heads/main" on a line of its own (a "^" line peels a tag, never a branch). */
	for (line = strstr(text, " refs/heads/main\n"); line; line = strstr(line + 1, " refs/heads/main\n")) {
		char *start = line - EST_STORE_OID_HEX;

		if (line - text < EST_STORE_OID_HEX || (start > text && start[-1] != '\n'))
			continue;
		if (strspn(start, "0123456789abcdef") == EST_STORE_OID_HEX) {
			memcpy(out, start, EST_STORE_OID_HEX);
			out[EST_STORE_OID_HEX] = '\0';
			found = 0;
		}
		break;
	}
out:
	est_error_clear();
	free(text);
	free(path);
	return found;
}

/* 1 if the folder at `path` holds no entry (or does not exist), else 0. */
static int folder_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return errno == ENOENT;
	while (empty && (e = readdir(d)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/*
 * The record's text, or NULL when there is none this user could have
 * written: it must be a regular file (never followed through a link)
 * owned by this user and writable by no one else.
 */
static char *read_record(size_t *len_out, const char *dir)
{
	char *path = est_strdup_printf("%s/" RECORD_NAME, dir), *text = NULL;
	struct stat st;
	ssize_t n = -1;
	int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;

	free(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    !(st.st_mode & 022) && st.st_size > 0 && st.st_size < RECORD_MAX &&
	    (text = malloc((size_t)st.st_size + 1)))
		n = read(fd, text, (size_t)st.st_size);
	close(fd);
	if (n < 0 || n != st.st_size) {
		free(text);
		return NULL;
	}
	text[n] = '\0';
	*len_out = (size_t)n;
	return text;
}

/* 1 if every input `rec` (main's commit checked already) depends on is as it was and `now` lies in its window, else 0. */
static int record_holds(const json_t *rec, const char *gitdir, time_t now)
{
	char *config = NULL, *secrets = NULL, *home = est_home_dir();
	const char *outbox = json_string_value(json_object_get(rec, "outbox"));
	const json_t *site = json_object_get(rec, "site");
	int holds = 0;

	if (!json_is_string(json_object_get(rec, "version")) ||
	    strcmp(json_string_value(json_object_get(rec, "version")), EST_VERSION) != 0 ||
	    !json_is_integer(json_object_get(rec, "written")) || !json_is_integer(json_object_get(rec, "due")) ||
	    (long long)now < json_integer_value(json_object_get(rec, "written")) ||
	    (long long)now >= json_integer_value(json_object_get(rec, "due")) ||
	    !home || !json_is_string(json_object_get(rec, "home")) ||
	    strcmp(home, json_string_value(json_object_get(rec, "home"))) != 0 || !outbox ||
	    !json_is_object(json_object_get(rec, "summary")) ||
	    !json_is_array(exe_id()) || !json_equal(exe_id(), json_object_get(rec, "exe")))
		goto out;
	if (!(config = est_strdup_printf("%s/config", gitdir)) ||
	    !same_file(config, json_object_get(rec, "config")))
		goto out;
	if (!json_is_null(site) && (!json_is_string(json_array_get(site, 0)) ||
	    !same_file(json_string_value(json_array_get(site, 0)), json_array_get(site, 1))))
		goto out;
	/* The secrets a full run checks for: gone, the run fails, and no record may hide that. */
	if (!json_is_string(json_object_get(rec, "game")) ||
	    !(secrets = est_secrets_path(home, json_string_value(json_object_get(rec, "game")))) ||
	    !same_file(secrets, json_object_get(rec, "secrets")))
		goto out;
	holds = folder_empty(outbox);
out:
	free(secrets);
	free(config);
	free(home);
	return holds;
}

/*
 * The record of the repository at `path`, parsed, into *rec_out, when it
 * is one of this format that names main's commit as it stands; its folder
 * into *dir_out. 0 on success, -1 (nothing to free) for anything else.
 */
static int load_record(json_t **rec_out, char **dir_out, const char *path)
{
	char main[EST_STORE_OID_HEX + 1], *dir, *text = NULL;
	json_t *rec = NULL;
	size_t len;

	if (!(dir = record_dir(path)) || !(text = read_record(&len, dir)) ||
	    est_json_parse(&rec, text, len, RECORD_NAME) < 0 ||
	    json_integer_value(json_object_get(rec, "format")) != RECORD_FORMAT ||
	    !json_is_string(json_object_get(rec, "game")) || read_main(main, dir) < 0 ||
	    !json_is_string(json_object_get(rec, "main")) ||
	    strcmp(main, json_string_value(json_object_get(rec, "main"))) != 0) {
		est_error_clear();
		json_decref(rec);
		free(text);
		free(dir);
		return -1;
	}
	free(text);
	*rec_out = rec;
	*dir_out = dir;
	return 0;
}

int est_next_due_fresh(json_t **summary_out, json_t **id_out, const char *path, time_t now, unsigned flags)
{
	char *dir = NULL;
	json_t *rec = NULL, *summary;
	int fresh = 0;

	*summary_out = NULL;
	*id_out = NULL;
	if (load_record(&rec, &dir, path) < 0)
		goto out;
	*id_out = json_incref(json_object_get(rec, "game"));
	/* --force and --confirm-clock act on the guards: only the full run knows them. */
	if ((flags & ~EST_RUN_NO_MAIL) || !record_holds(rec, dir, now))
		goto out;
	summary = json_incref(json_object_get(rec, "summary"));
	if (flags & EST_RUN_NO_MAIL)
		json_object_del(summary, "mail");
	else if (!json_is_object(json_object_get(summary, "mail"))) {
		json_decref(summary);
		goto out;
	}
	*summary_out = summary;
	fresh = 1;
out:
	est_error_clear();
	json_decref(rec);
	free(dir);
	return fresh;
}

int est_next_due_forget(est_next_due_mark *mark, est_game *game)
{
	char *path;

	memset(mark, 0, sizeof(*mark));
	if (!(mark->dir = record_dir(est_store_path(game->store))))
		return 0;
	/* Before anything is read: a config edited during the run spoils the record. */
	if (!(path = est_strdup_printf("%s/config", mark->dir)) || !(mark->config = file_id(path)) ||
	    !(mark->exe = json_incref((json_t *)exe_id()))) {
		free(path);
		est_next_due_mark_clear(mark);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	free(path);
	if (!(path = est_strdup_printf("%s/" RECORD_NAME, mark->dir)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if (unlink(path) < 0 && errno != ENOENT)
		est_game_warn(game, "%s: cannot remove the next-due record: %s; remove it by hand, or "
			      "run --all may pass over this game while it holds", path, strerror(errno));
	free(path);
	return 0;
}

void est_next_due_mark_clear(est_next_due_mark *mark)
{
	free(mark->dir);
	json_decref(mark->config);
	json_decref(mark->exe);
	memset(mark, 0, sizeof(*mark));
}

/*
 * The earliest time anything could fall due after `now` in `game`, as its
 * run at `now` left it, into *due_out; 0 when something is due already (a
 * deadline passed but held by a guard). The clock guard bounds it: a pass
 * over the game does not move the guard's last trusted run, and a full run
 * later than that plus schedule.clock_jump_hours takes the clock for one
 * that jumped and stops trusting it. So the record lasts half that span:
 * the full run after it comes within the bound, cron's period allowing.
 */
static int next_due_time(long long *due_out, est_game *game, time_t now)
{
	long long hours = json_integer_value(json_object_get(json_object_get(game->game, "schedule"),
							     "reminder_hours"));
	long long due = (long long)now + est_clock_jump_seconds(game) / 2;
	time_t deadline;
	int error;

	*due_out = 0;
	if ((error = est_turn_deadline(&deadline, game, NULL)) < 0)
		return error;
	if (deadline && (long long)deadline <= (long long)now)
		return 0;
	if (deadline && hours > 0 && (long long)deadline - hours * 3600 > (long long)now &&
	    (long long)deadline - hours * 3600 < due)
		due = (long long)deadline - hours * 3600;
	if (deadline && (long long)deadline < due)
		due = (long long)deadline;
	*due_out = due;
	return 0;
}

/* The record's text for the run `summary` of `game` at `now`, or NULL when none may be written. */
static char *record_text(const est_next_due_mark *mark, est_game *game, const json_t *summary, time_t now)
{
	const json_t *mail = json_object_get(summary, "mail");
	char *site_dir = est_engine_site_dir(game), *manifest = NULL, *outbox = NULL, *text = NULL;
	char *secrets = est_secrets_path(game->home, json_string_value(json_object_get(game->game, "id")));
	json_t *rec = NULL, *kept = NULL, *site = json_null();
	long long due;

	if (next_due_time(&due, game, now) < 0 || due <= (long long)now ||
	    !(outbox = est_strdup_printf("%s/outbox/%s/pending", game->home,
					 json_string_value(json_object_get(game->game, "id")))) ||
	    !(kept = json_deep_copy(summary)))
		goto out;
	/* The next run sends nothing and writes no site: its summary says so. */
	if (mail && json_object_set_new(json_object_get(kept, "mail"), "sent", json_integer(0)) < 0)
		goto out;
	json_object_del(kept, "site");
	if (site_dir) {
		json_decref(site);
		if (!(manifest = est_strdup_printf("%s/" EST_SITE_MANIFEST, site_dir)) ||
		    !(site = json_pack("[s, o]", manifest, file_id(manifest))))
			goto out;
	}
	if (!secrets)
		goto out;
	rec = json_pack("{s:i, s:O, s:s, s:O, s:s, s:s, s:O, s:O, s:s, s:o, s:I, s:I, s:O}", "format",
			RECORD_FORMAT, "game", json_object_get(game->game, "id"), "version", EST_VERSION,
			"exe", mark->exe, "home", game->home, "main", game->head, "config", mark->config,
			"site", site, "outbox", outbox, "secrets", file_id(secrets), "written", (json_int_t)now,
			"due", (json_int_t)due, "summary", kept);
	/* Compact: every run --all parses it. */
	if (rec)
		text = json_dumps(rec, JSON_COMPACT);
out:
	est_error_clear();
	json_decref(rec);
	json_decref(site);
	json_decref(kept);
	free(secrets);
	free(outbox);
	free(manifest);
	free(site_dir);
	return text;
}

void est_next_due_save(const est_next_due_mark *mark, est_game *game, const json_t *summary, time_t now)
{
	const json_t *mail = json_object_get(summary, "mail");
	char *text = NULL, *path = NULL;

	/* Only a run that left nothing to do: no step, no mail waiting, no sealed store moving on its own. */
	if (!mark->dir || json_array_size(json_object_get(summary, "resolved")) > 0 || est_game_is_sealed(game) ||
	    (mail && json_integer_value(json_object_get(mail, "pending")) != 0) ||
	    !(text = record_text(mark, game, summary, now)) ||
	    !(path = est_strdup_printf("%s/" RECORD_NAME, mark->dir)))
		goto out;
	/* Not fsynced: lost or emptied by a power cut, it is only no record. */
	if (est_file_write_hint(path, text, strlen(text), 0600) < 0)
		est_error_clear();
out:
	free(path);
	free(text);
}

void est_next_due_save_game(est_game *game)
{
	char *dir = record_dir(est_store_path(game->store)), *path = NULL, *text = NULL;
	json_t *rec = NULL;

	if (!dir || !(path = est_strdup_printf("%s/" RECORD_NAME, dir)) ||
	    !(rec = json_pack("{s:i, s:O, s:s}", "format", RECORD_FORMAT, "game",
			      json_object_get(game->game, "id"), "main", game->head)) ||
	    !(text = json_dumps(rec, JSON_COMPACT)) ||
	    est_file_write_hint(path, text, strlen(text), 0600) < 0)
		est_error_clear();
	json_decref(rec);
	free(text);
	free(path);
	free(dir);
}
