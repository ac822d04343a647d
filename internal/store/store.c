/*
 * The game repository: opening, the lock, and reading at a revision.
 * Committing is in commit.c.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store_private.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

#define LOCK_NAME "estafette.lock"

static int code_of_git(int git_code)
{
	switch (git_code) {
	case GIT_ENOTFOUND:
		return EST_ENOTFOUND;
	case GIT_EINVALIDSPEC:
	case GIT_EAMBIGUOUS:
		return EST_EINVAL;
	default:
		return EST_ERROR;
	}
}

/*
 * The EST_E* class of a libgit2 OS error and what to do about it, or
 * `code` and "" when it has none. libgit2 ends an OS error's message with
 * strerror(errno) and then clears errno (git_error_vset), so the message
 * is the only place the errno is left: a full disk while moving main must
 * say 73 (cannot write), not 70.
 */
static int code_of_os_error(const char **fix, const git_error *e, int code)
{
	static const char full[] = "; free space on that file system and run again",
			  denied[] = "; make the game's repository writable by this user and run again",
			  broken[] = "; check the disk and run again",
			  later[] = "; run again later";
	static const struct {
		int err, code;
		const char *fix;
	} classes[] = {
		{ENOSPC, EST_EIO, full}, {EDQUOT, EST_EIO, full}, {EFBIG, EST_EIO, full},
		{EROFS, EST_EIO, denied}, {EACCES, EST_EIO, denied}, {EPERM, EST_EIO, denied},
		{EIO, EST_EIO, broken}, {ENOMEM, EST_ENOMEM, ""}, {EMFILE, EST_ETEMPFAIL, later},
		{ENFILE, EST_ETEMPFAIL, later}, {EAGAIN, EST_ETEMPFAIL, later},
		{EBUSY, EST_ETEMPFAIL, later}, {EINTR, EST_ETEMPFAIL, later},
	};
	size_t len, n;

	*fix = "";
	if (!e || e->klass != GIT_ERROR_OS || !e->message)
		return code;
	len = strlen(e->message);
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		const char *reason = strerror(classes[i].err);

		n = strlen(reason);
		if (len >= n + 2 && strcmp(e->message + len - n, reason) == 0 &&
		    strncmp(e->message + len - n - 2, ": ", 2) == 0) {
			*fix = classes[i].fix;
			return classes[i].code;
		}
	}
	return code;
}

int est_store__git_error(const est_store *store, int code, const char *what)
{
	const git_error *e = git_error_last();
	const char *detail = e && e->message ? e->message : "libgit2 gave no reason", *fix;

	code = code_of_os_error(&fix, e, code);
	return est_error_set(code, "%s: %s: %s%s", store ? store->path : "repository", what, detail, fix);
}

int est_store__check_path(const est_store *store, const char *path, const char *what)
{
	const char *p = path, *end;
	size_t n;

	if (!path || !*path)
		goto bad;
	for (;;) {
		end = strchr(p, '/');
		n = end ? (size_t)(end - p) : strlen(p);
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.') ||
		    (n == 4 && strncasecmp(p, ".git", 4) == 0))
			goto bad;
		if (!end)
			return 0;
		p = end + 1;
	}
bad:
	return est_error_set(EST_EINVAL,
			     "%s: %s \"%s\": a path in the game must be relative and "
			     "'/'-separated, with no empty, \".\", \"..\" or \".git\" part; "
			     "name it from the repository's root, e.g. \"orders/france.json\"",
			     store->path, what, path ? path : "(null)");
}

int est_store__check_tag(const est_store *store, const char *tag)
{
	int valid = 0;

	if (tag && *tag && git_tag_name_is_valid(&valid, tag) < 0)
		return est_store__git_error(store, EST_ERROR, "checking a tag name");
	if (!valid)
		return est_error_set(EST_EINVAL,
				     "%s: tag \"%s\" is not a valid git tag name; use a name "
				     "such as \"step-0007\"",
				     store->path, tag ? tag : "(null)");
	return 0;
}

int est_store__parse_oid(git_oid *out, const est_store *store, const char *hex,
			 const char *what)
{
	size_t i;

	for (i = 0; hex && hex[i] && i <= EST_STORE_OID_HEX; i++)
		if (!isxdigit((unsigned char)hex[i]))
			break;
	if (!hex || i != EST_STORE_OID_HEX || hex[i] ||
	    git_oid_fromstrn(out, hex, EST_STORE_OID_HEX) < 0)
		return est_error_set(EST_EINVAL,
				     "%s: %s \"%s\" is not a commit id; give the 40 hex "
				     "digits est_store_head() returned",
				     store->path, what, hex ? hex : "(null)");
	return 0;
}

/* A copy of `path` without trailing '/' (libgit2 ends folders with one). */
static char *strip_slash(const char *path)
{
	char *copy = strdup(path);
	size_t n;

	if (!copy)
		return NULL;
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	return copy;
}

/*
 * A libgit2 reference for a new handle. libgit2 caches no tree over 4 KiB
 * by default, and turns/ holds one entry per step: past about 120 steps
 * every read of a step's file inflated and hashed turns/ again, so a step
 * and an audit's step cost more the longer the history (tests/bench).
 * Trees are cached whatever their size, and the whole cache is bounded so
 * that memory stays flat over long histories: at 2 MiB, an audit of 2,000
 * packed steps peaks at 27 MiB resident (35 MiB at 4 MiB).
 */
static void store_init(void)
{
	static int started;

	/*
	 * The first handle of the process also takes a reference that is never
	 * dropped: libgit2 starts once, at the first game a command opens (its
	 * TLS set-up parses the system's certificates, 56 M instructions), and
	 * is not torn down and set up again for each game of `run --all`. A
	 * command that opens no repository never starts it.
	 */
	if (!started) {
		started = 1;
		git_libgit2_init();
	}
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)(4 << 20));
	/* A step reads game.json, state.json and the rules three times (one per reload). */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_BLOB, (size_t)(256 << 10));
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)(2 << 20));
	/*
	 * Pack files are read through mappings of 1 MiB, at most 4 MiB mapped
	 * at once (libgit2 maps up to 1 GiB a window by default): an audit
	 * reads a whole packed history, and mapped pages count as resident.
	 */
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)(1 << 20));
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)(4 << 20));
	/* A step is durable once main names it: its objects and refs reach the disk first. */
	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
}

/*
 * Wrap an open repository in a handle. Takes over `repo` and the
 * git_libgit2_init() reference the caller made, releasing both on failure.
 */
static int wrap_repository(est_store **out, git_repository *repo)
{
	est_store *store = calloc(1, sizeof(*store));
	const char *top = git_repository_workdir(repo);

	if (!store)
		goto nomem;
	store->repo = repo;
	store->lock_fd = -1;
	store->held_clock = -1;
	store->path = strip_slash(top ? top : git_repository_path(repo));
	/* The common dir, so that linked work trees share one lock. */
	store->lock_path = est_strdup_printf("%s%s", git_repository_commondir(repo),
					     LOCK_NAME);
	if (!store->path || !store->lock_path)
		goto nomem;
	if (est_store__pack_start(store) < 0) {
		est_store_free(store);
		return est_error_code();
	}
	*out = store;
	return 0;
nomem:
	est_store_free(store);
	if (!store) {
		git_repository_free(repo);
		git_libgit2_shutdown();
	}
	return est_error_set(EST_ENOMEM, "out of memory opening a repository");
}

/* 1 if `path` is a folder with nothing in it, else 0. */
static int is_empty_folder(const char *path)
{
	DIR *dir = opendir(path);
	struct dirent *d;
	int empty = 1;

	if (!dir)
		return 0;
	while ((d = readdir(dir)) != NULL) {
		if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0) {
			empty = 0;
			break;
		}
	}
	closedir(dir);
	return empty;
}

int est_store_init(est_store **out, const char *path)
{
	git_repository_init_options opts;
	git_repository *repo = NULL;
	int error;

	*out = NULL;
	if (!path || !*path)
		return est_error_set(EST_EINVAL, "no folder given for the new game repository");
	if (est_path_exists(path) && !is_empty_folder(path))
		return est_error_set(EST_EINVAL,
				     "%s: already exists and is not empty; choose a new "
				     "folder for the game",
				     path);
	if ((error = est_mkdir_p(path, 0755)) < 0)
		return error;

	git_repository_init_options_init(&opts, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	opts.flags = GIT_REPOSITORY_INIT_MKPATH | GIT_REPOSITORY_INIT_NO_REINIT;
	opts.initial_head = "main";
	store_init();
	if (git_repository_init_ext(&repo, path, &opts) < 0) {
		error = est_error_set(EST_ERROR, "%s: cannot create a git repository: %s",
				      path, git_error_last() ? git_error_last()->message : "");
		git_libgit2_shutdown();
		return error;
	}
	return wrap_repository(out, repo);
}

int est_store_open(est_store **out, const char *path)
{
	git_repository *repo = NULL;
	int error;

	*out = NULL;
	if (!path || !*path)
		return est_error_set(EST_EINVAL, "no game repository given");
	store_init();
	/* NO_SEARCH: a game is the folder named, never some repository above it. */
	error = git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);
	if (error < 0) {
		if (error == GIT_ENOTFOUND)
			error = est_error_set(EST_ENOTFOUND,
					      "%s: no game repository there; check the "
					      "path, or create a game with `estafette new`",
					      path);
		else if (error == GIT_EOWNER)
			error = est_error_set(EST_ECONFIG,
					      "%s: the repository belongs to another user, "
					      "so git does not trust it; run as its owner, or "
					      "trust it with `git config --global --add "
					      "safe.directory %s`",
					      path, path);
		else
			error = est_error_set(EST_ERROR, "%s: cannot open the repository: %s",
					      path,
					      git_error_last() ? git_error_last()->message : "");
		git_libgit2_shutdown();
		return error;
	}
	return wrap_repository(out, repo);
}

void est_store_free(est_store *store)
{
	if (!store)
		return;
	est_store_unlock(store);
	if (store->repo) {
		git_repository_free(store->repo);
		git_libgit2_shutdown();
	}
	free(store->unpacked);
	free(store->path);
	free(store->lock_path);
	free(store);
}

const char *est_store_path(const est_store *store)
{
	return store->path;
}

/* The pid a holder wrote into the lock file, or 0 if it cannot be read. */
static long lock_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Remove <git dir>/<name> if it exists; append its path to *removed. */
static int remove_stale(json_t *removed, const char *gitdir, const char *name)
{
	char *path = est_strdup_printf("%s/%s", gitdir, name);

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (unlink(path) == 0)
		json_array_append_new(removed, json_string(path));
	free(path);
	return 0;
}

int est_store_clear_stale_locks(json_t **removed_out, est_store *store)
{
	const char *gitdir = git_repository_commondir(store->repo);
	json_t *removed = json_array();
	char *tags = est_strdup_printf("%s/refs/tags", gitdir);
	struct dirent *e;
	DIR *dir;
	int error;

	if (store->lock_fd < 0) {
		error = est_error_set(EST_ERROR, "est_store_clear_stale_locks without the lock");
		goto out;
	}
	if ((error = remove_stale(removed, gitdir, "index.lock")) < 0 ||
	    (error = remove_stale(removed, gitdir, "refs/heads/main.lock")) < 0 ||
	    (error = remove_stale(removed, gitdir, "packed-refs.lock")) < 0)
		goto out;
	if (tags && (dir = opendir(tags))) {
		while (!error && (e = readdir(dir))) {
			size_t n = strlen(e->d_name);
			if (strncmp(e->d_name, "step-", 5) == 0 && n > 5 &&
			    strcmp(e->d_name + n - 5, ".lock") == 0) {
				char name[300];
				snprintf(name, sizeof(name), "refs/tags/%s", e->d_name);
				error = remove_stale(removed, gitdir, name);
			}
		}
		closedir(dir);
	}
out:
	free(tags);
	if (error < 0)
		json_decref(removed);
	else
		*removed_out = removed;
	return error;
}

int est_store_lock(est_store *store)
{
	char pid[32];
	long holder;
	int fd, n;

	if (store->lock_fd >= 0)
		return 0;
	fd = open(store->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return est_error_set(EST_EIO, "%s: cannot open the lock file: %s; check the "
				     "folder's permissions",
				     store->lock_path, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		holder = lock_holder(fd);
		close(fd);
		if (err != EWOULDBLOCK)
			return est_error_set(EST_EIO, "%s: cannot lock: %s", store->lock_path,
					     strerror(err));
		if (holder > 0)
			return est_error_set(EST_ELOCKED,
					     "another estafette process (pid %ld) holds %s; "
					     "try again when it ends",
					     holder, store->lock_path);
		return est_error_set(EST_ELOCKED,
				     "another estafette process holds %s; try again when "
				     "it ends",
				     store->lock_path);
	}
	/* Only for the message above; the flock() is what locks. */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, pid, (size_t)n, 0) != n) {
		int err = errno;

		close(fd);
		return est_error_set(EST_EIO, "%s: cannot write the lock file: %s",
				     store->lock_path, strerror(err));
	}
	store->lock_fd = fd;
	est_store__forget_revs(store);
	return 0;
}

void est_store_unlock(est_store *store)
{
	if (store->lock_fd < 0)
		return;
	/* Closing drops the flock(); the file stays (see store.h). */
	close(store->lock_fd);
	store->lock_fd = -1;
}

/* The newest step-NNNN tag whose commit is in the repository, into tag[32], or "". */
static void last_good_step(char tag[32], est_store *store)
{
	git_strarray tags = {0};
	char commit[EST_STORE_OID_HEX + 1];

	tag[0] = '\0';
	if (git_tag_list_match(&tags, "step-*", store->repo) < 0)
		return;
	for (size_t i = 0; i < tags.count; i++) {
		/* step-0009 < step-0010 < step-10000: longer is later, then by bytes. */
		if (tag[0] && (strlen(tags.strings[i]) < strlen(tag) ||
			       (strlen(tags.strings[i]) == strlen(tag) && strcmp(tags.strings[i], tag) < 0)))
			continue;
		if (strlen(tags.strings[i]) < 32 && est_store_tag_target(commit, store, tags.strings[i]) == 0)
			strcpy(tag, tags.strings[i]);
	}
	git_strarray_dispose(&tags);
	est_error_clear();
	git_error_clear();
}

/*
 * A ref that names an object the repository does not have (a copy that lost
 * objects, a hand edit): say so, not that some file at it differs or is missing.
 */
static int dangling_error(est_store *store, const char *ref, const git_oid *oid)
{
	char hex[EST_STORE_OID_HEX + 1], tag[32];

	git_oid_tostr(hex, sizeof(hex), oid);
	last_good_step(tag, store);
	return est_error_set(EST_ENOTFOUND,
			     "%s: %s is dangling: it names commit %s, which is not in the repository "
			     "(the game is damaged: objects were lost, or the ref was edited); bring the "
			     "missing objects back from a clone or backup of the game (git fetch), or "
			     "point main at the last step whose commit is here with git -C %s update-ref "
			     "%s %s^{commit}", store->path, ref, hex, store->path, ref, tag[0] ? tag : "step-NNNN");
}

int est_store_head(char out[EST_STORE_OID_HEX + 1], est_store *store)
{
	git_odb *odb = NULL;
	git_oid oid;
	int error, exists;

	if (store->pinned[0]) {
		memcpy(out, store->pinned, EST_STORE_OID_HEX + 1);
		return 0;
	}
	error = git_reference_name_to_id(&oid, store->repo, EST_STORE_BRANCH);
	if (error == GIT_ENOTFOUND)
		return est_error_set(EST_ENOTFOUND,
				     "%s: not a game: " EST_STORE_BRANCH " does not exist (no commit "
				     "yet); create games with `estafette new`",
				     store->path);
	if (error < 0)
		return est_store__git_error(store, EST_ERROR, "reading " EST_STORE_BRANCH);
	if (git_repository_odb(&odb, store->repo) < 0)
		return est_store__git_error(store, EST_ERROR, "opening the object store");
	exists = git_odb_exists(odb, &oid);
	git_odb_free(odb);
	if (!exists)
		return dangling_error(store, EST_STORE_BRANCH, &oid);
	git_oid_tostr(out, EST_STORE_OID_HEX + 1, &oid);
	return 0;
}

void est_store__forget_revs(est_store *store)
{
	memset(store->revs, 0, sizeof(store->revs));
}

/* The object `spec` peeled to `type` named when this handle last resolved it, or NULL. */
static const git_oid *known_rev(const est_store *store, const char *spec, git_object_t type)
{
	for (size_t i = 0; i < EST_STORE_REVS; i++)
		if (store->revs[i].type == type && strcmp(store->revs[i].spec, spec) == 0)
			return &store->revs[i].oid;
	return NULL;
}

static void remember_rev(est_store *store, const char *spec, git_object_t type,
			 const git_oid *oid)
{
	struct est_store_rev *slot = &store->revs[store->next_rev++ % EST_STORE_REVS];

	if (strlen(spec) >= sizeof(slot->spec))
		return;
	strcpy(slot->spec, spec);
	slot->type = type;
	git_oid_cpy(&slot->oid, oid);
}

/* Is `spec` the branch? Then its tree is the base of the next check (guard.c). */
static int names_branch(const char *spec)
{
	return strcmp(spec, EST_STORE_BRANCH) == 0 || strcmp(spec, "main") == 0;
}

/* Check the tree `obj` (what `spec` names) leads to, before anything of it is read. */
static int guard_rev(char **bad_out, est_store *store, git_object *obj, const char *spec)
{
	git_object *tree = NULL, *commit = NULL;
	int error;

	if (git_object_peel(&tree, obj, GIT_OBJECT_TREE) < 0)
		return est_error_set(EST_EINVAL, "%s: revision \"%s\" is not a commit or tree",
				     store->path, spec);
	if (git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0)
		git_error_clear();
	error = est_store__guard_tree(bad_out, store, (git_tree *)tree,
				      names_branch(spec) ? EST_STORE_BRANCH : spec,
				      commit ? git_object_id(commit) : NULL, names_branch(spec));
	git_object_free(commit);
	git_object_free(tree);
	return error;
}

/* EST_ENOTFOUND naming the ref if `spec` is a ref whose object is missing; else 0. */
static int dangling_ref(est_store *store, const char *spec)
{
	git_reference *ref = NULL, *direct = NULL;
	git_odb *odb = NULL;
	int error = 0;

	if (git_reference_dwim(&ref, store->repo, spec) < 0) {
		git_error_clear();
		return 0;
	}
	if (git_reference_resolve(&direct, ref) == 0 && git_repository_odb(&odb, store->repo) == 0 &&
	    !git_odb_exists(odb, git_reference_target(direct)))
		error = dangling_error(store, git_reference_name(ref), git_reference_target(direct));
	git_error_clear();
	git_odb_free(odb);
	git_reference_free(direct);
	git_reference_free(ref);
	return error;
}

/*
 * Look up `rev` (NULL: the branch) and peel it to `type`. Each spec is
 * resolved once a handle (store.h, "Revisions"): git's rules for a short
 * name try four refs and packed-refs, and a step reads some thirty files.
 * Its tree is checked first (guard.c), and a spec is remembered only once
 * it passed, so no file is ever read from a tree that holds a link.
 */
static int resolve_checked(git_object **out, char **bad_out, est_store *store, const char *rev,
			   git_object_t type)
{
	const char *spec = rev ? rev : EST_STORE_BRANCH;
	const git_oid *known;
	git_object *obj = NULL;
	int error;

	/* A pinned handle reads its commit wherever the others read main. */
	if (store->pinned[0] && names_branch(spec))
		spec = store->pinned;
	known = known_rev(store, spec, type);
	*out = NULL;
	if (known && git_object_lookup(out, store->repo, known, type) == 0)
		return 0;
	/*
	 * A ref that exists but names a missing object is damage, not an
	 * unknown name; asked before git_revparse_single, which leaks what it
	 * looked up when the object is missing (libgit2 1.5).
	 */
	if ((error = dangling_ref(store, spec)) < 0)
		return error;
	if ((error = git_revparse_single(&obj, store->repo, spec)) < 0) {
		if (error == GIT_ENOTFOUND)
			return est_error_set(EST_ENOTFOUND,
					     "%s: no revision \"%s\" in the repository; list "
					     "the steps with `git tag -l 'step-*'`",
					     store->path, spec);
		return est_store__git_error(store, code_of_git(error), "resolving a revision");
	}
	error = git_object_peel(out, obj, type);
	if (error < 0)
		error = est_error_set(EST_EINVAL, "%s: revision \"%s\" is not a %s", store->path,
				      spec, type == GIT_OBJECT_COMMIT ? "commit" : "commit or tree");
	else
		error = guard_rev(bad_out, store, obj, spec);
	git_object_free(obj);
	if (error < 0) {
		git_object_free(*out);
		*out = NULL;
		return error;
	}
	remember_rev(store, spec, type, git_object_id(*out));
	return 0;
}

static int resolve(git_object **out, est_store *store, const char *rev, git_object_t type)
{
	return resolve_checked(out, NULL, store, rev, type);
}

int est_store_pin(est_store *store, const char *rev)
{
	git_object *commit = NULL;
	int error;

	if ((error = resolve(&commit, store, rev, GIT_OBJECT_COMMIT)) < 0)
		return error;
	git_oid_tostr(store->pinned, sizeof(store->pinned), git_object_id(commit));
	git_object_free(commit);
	est_store__forget_revs(store);
	return 0;
}

int est_store_check_tree(char **path_out, est_store *store, const char *rev)
{
	git_object *tree = NULL;
	int error;

	if (path_out)
		*path_out = NULL;
	error = resolve_checked(&tree, path_out, store, rev, GIT_OBJECT_TREE);

	git_object_free(tree);
	return error;
}

/* The tree entry at `path` of `rev` (NULL: the branch), or EST_ENOTFOUND naming what is missing. */
static int entry_at(git_tree_entry **out, est_store *store, const char *rev, const char *path,
		    const char *what)
{
	git_object *tree = NULL;
	int error;

	*out = NULL;
	if ((error = est_store__check_path(store, path, what)) < 0 ||
	    (error = resolve(&tree, store, rev, GIT_OBJECT_TREE)) < 0)
		return error;
	if ((error = git_tree_entry_bypath(out, (git_tree *)tree, path)) < 0)
		error = error == GIT_ENOTFOUND ?
			est_error_set(EST_ENOTFOUND, "%s: %s: no such %s at %s", store->path, path, what,
				      rev ? rev : EST_STORE_BRANCH) :
			est_store__git_error(store, EST_ERROR, path);
	git_object_free(tree);
	return error;
}

int est_store_id(char out[EST_STORE_OID_HEX + 1], est_store *store, const char *rev,
		 const char *path)
{
	git_tree_entry *entry = NULL;
	int error;

	out[0] = '\0';
	if ((error = entry_at(&entry, store, rev, path, "path")) == 0)
		git_oid_tostr(out, EST_STORE_OID_HEX + 1, git_tree_entry_id(entry));
	git_tree_entry_free(entry);
	return error;
}

int est_store_read(char **out, size_t *len, est_store *store, const char *rev,
		   const char *path)
{
	git_tree_entry *entry = NULL;
	git_blob *blob = NULL;
	git_object_size_t size;
	char *buf = NULL;
	int error;

	*out = NULL;
	*len = 0;
	if ((error = entry_at(&entry, store, rev, path, "file")) < 0)
		goto out;
	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB) {
		error = est_error_set(EST_EINVAL, "%s: %s is a folder at %s, not a file",
				      store->path, path, rev ? rev : EST_STORE_BRANCH);
		goto out;
	}
	/* A committed link's blob is its target's name: never read as the file, never followed. */
	if (git_tree_entry_filemode(entry) == GIT_FILEMODE_LINK) {
		error = est_error_set(EST_EINVAL, "%s: %s is a symbolic link at %s, and estafette never "
				      "follows links in a game; git rm it and commit the file itself",
				      store->path, path, rev ? rev : EST_STORE_BRANCH);
		goto out;
	}
	if ((error = git_blob_lookup(&blob, store->repo, git_tree_entry_id(entry))) < 0) {
		error = est_store__git_error(store, EST_ERROR, path);
		goto out;
	}
	size = git_blob_rawsize(blob);
	if (size >= (git_object_size_t)SIZE_MAX || !(buf = malloc((size_t)size + 1))) {
		error = est_error_set(EST_ENOMEM, "%s: %s: out of memory reading the file",
				      store->path, path);
		goto out;
	}
	memcpy(buf, git_blob_rawcontent(blob), (size_t)size);
	buf[size] = '\0';
	*out = buf;
	*len = (size_t)size;
out:
	git_blob_free(blob);
	git_tree_entry_free(entry);
	return error;
}

int est_store_read_json(json_t **out, est_store *store, const char *rev, const char *path)
{
	char *text = NULL;
	size_t len;
	int error;

	if ((error = est_store_read(&text, &len, store, rev, path)) < 0)
		return error;
	error = est_json_parse(out, text, len, path);
	free(text);
	return error;
}

/* The subtree at `dir` of `root`, or *out NULL if there is none. */
static int subtree(git_tree **out, est_store *store, git_tree *root, const char *dir)
{
	git_tree_entry *entry = NULL;
	int error;

	*out = NULL;
	error = git_tree_entry_bypath(&entry, root, dir);
	if (error == GIT_ENOTFOUND)
		return 0;
	if (error < 0)
		return est_store__git_error(store, EST_ERROR, dir);
	if (git_tree_entry_type(entry) != GIT_OBJECT_TREE)
		error = est_error_set(EST_EINVAL, "%s: %s is a file, not a folder",
				      store->path, dir);
	else if (git_tree_lookup(out, store->repo, git_tree_entry_id(entry)) < 0)
		error = est_store__git_error(store, EST_ERROR, dir);
	git_tree_entry_free(entry);
	return error;
}

int est_store_list(char ***names_out, size_t *count_out, est_store *store,
		   const char *rev, const char *dir)
{
	git_object *root = NULL;
	git_tree *tree = NULL;
	char **names = NULL;
	size_t i, n = 0;
	int error;

	*names_out = NULL;
	*count_out = 0;
	if (dir && *dir && (error = est_store__check_path(store, dir, "folder")) < 0)
		return error;
	if ((error = resolve(&root, store, rev, GIT_OBJECT_TREE)) < 0)
		goto out;
	if (!dir || !*dir) {
		tree = (git_tree *)root;
		root = NULL;
	} else if ((error = subtree(&tree, store, (git_tree *)root, dir)) < 0) {
		goto out;
	}
	n = tree ? git_tree_entrycount(tree) : 0;
	if (!(names = calloc(n + 1, sizeof(*names))))
		goto nomem;
	for (i = 0; i < n; i++)
		if (!(names[i] = strdup(git_tree_entry_name(git_tree_entry_byindex(tree, i)))))
			goto nomem;
	*names_out = names;
	*count_out = n;
	names = NULL;
	goto out;
nomem:
	error = est_error_set(EST_ENOMEM, "%s: out of memory listing a folder", store->path);
out:
	est_store_list_free(names);
	git_tree_free(tree);
	git_object_free(root);
	return error;
}

void est_store_list_free(char **names)
{
	size_t i;

	if (!names)
		return;
	for (i = 0; names[i]; i++)
		free(names[i]);
	free(names);
}

int est_store_config_set(est_store *store, const char *key, const char *value)
{
	git_config *cfg = NULL, *local = NULL;
	int error = 0;

	if (git_repository_config(&cfg, store->repo) < 0 ||
	    git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL) < 0 ||
	    git_config_set_string(local, key, value) < 0)
		error = est_store__git_error(store, EST_EIO, key);
	git_config_free(local);
	git_config_free(cfg);
	return error;
}

int est_store_config_get(char **out, est_store *store, const char *key)
{
	git_config *cfg = NULL, *local = NULL;
	git_buf value = GIT_BUF_INIT;
	int error;

	*out = NULL;
	if (!key || !*key)
		return est_error_set(EST_EINVAL, "%s: no git config key given", store->path);
	if (git_repository_config(&cfg, store->repo) < 0 ||
	    git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL) < 0) {
		error = est_store__git_error(store, EST_ERROR, "opening the repository's config");
		goto out;
	}
	if ((error = git_config_get_string_buf(&value, local, key)) < 0) {
		if (error == GIT_ENOTFOUND)
			error = est_error_set(EST_ENOTFOUND,
					      "%s: git config \"%s\" is not set in the "
					      "repository; set it with `git -C %s config %s VALUE`",
					      store->path, key, store->path, key);
		else
			error = est_store__git_error(store, code_of_git(error), key);
		goto out;
	}
	if (!(*out = strdup(value.ptr)))
		error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
out:
	git_buf_dispose(&value);
	git_config_free(local);
	git_config_free(cfg);
	return error;
}

int est_store_descends(int *out, est_store *store, const char *rev, const char *ancestor)
{
	git_object *commit = NULL, *older = NULL;
	int error, found;

	*out = 0;
	if ((error = resolve(&commit, store, rev, GIT_OBJECT_COMMIT)) < 0 ||
	    (error = resolve(&older, store, ancestor, GIT_OBJECT_COMMIT)) < 0)
		goto out;
	if (git_oid_equal(git_object_id(commit), git_object_id(older))) {
		*out = 1;
		goto out;
	}
	if ((found = git_graph_descendant_of(store->repo, git_object_id(commit), git_object_id(older))) < 0) {
		error = est_store__git_error(store, EST_ERROR, "walking the history");
		goto out;
	}
	*out = found;
out:
	git_object_free(older);
	git_object_free(commit);
	return error;
}

int est_store_commit_time(long long *out, est_store *store, const char *rev)
{
	git_object *commit = NULL;
	int error;

	if ((error = resolve(&commit, store, rev, GIT_OBJECT_COMMIT)) < 0)
		return error;
	*out = (long long)git_commit_time((git_commit *)commit);
	git_object_free(commit);
	return 0;
}

int est_store_tag_target(char out[EST_STORE_OID_HEX + 1], est_store *store,
			 const char *tag)
{
	git_reference *ref = NULL;
	git_object *commit = NULL;
	char *name = NULL;
	int error;

	if ((error = est_store__check_tag(store, tag)) < 0)
		return error;
	if (!(name = est_strdup_printf("refs/tags/%s", tag)))
		return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	if ((error = git_reference_lookup(&ref, store->repo, name)) < 0) {
		if (error == GIT_ENOTFOUND)
			error = est_error_set(EST_ENOTFOUND, "%s: no tag \"%s\"; list the steps "
					      "with `git tag -l 'step-*'`",
					      store->path, tag);
		else
			error = est_store__git_error(store, EST_ERROR, name);
		goto out;
	}
	if (!out)
		goto out;
	if (git_reference_peel(&commit, ref, GIT_OBJECT_COMMIT) < 0) {
		error = est_store__git_error(store, EST_EINVAL, name);
		goto out;
	}
	git_oid_tostr(out, EST_STORE_OID_HEX + 1, git_object_id(commit));
out:
	git_object_free(commit);
	git_reference_free(ref);
	free(name);
	return error;
}
