/*
 * What a game's tree may hold, and where a checkout may write (docs/protocol.md
 * "The repository": no path of a game is a symbolic
 * link, a submodule or an executable file).
 *
 * The tree. Every revision this handle resolves (store.c, resolve) and
 * every tree est_store_commit() makes is checked here before any file of
 * it is read or checked out: each entry, at every depth, must be a folder
 * (040000) or a plain file (100644), under a name git itself would check
 * out: not empty, ".", "..", ".git" in any case or with trailing dots or
 * spaces (how Windows reads it), "git~1" (its short name), and no byte
 * that is not UTF-8 or code point of util/unicode.h's table (which holds
 * the characters macOS ignores in names, so ".g\u200cit" is no way round,
 * and the controls, so no name can split a line of a log). A ".git" folder
 * in a commit would be checked out as the repository's own. A link committed at turns/0003 would
 * otherwise have the next step's checkout write turns/0003/manifest.json
 * wherever the link points; a submodule or an executable has no place in a
 * game, and refusing every other mode keeps the rule one line long.
 *
 * Why comparing with a tree already checked is sound: git names a tree by
 * the hash of its entries (names, modes, ids), and a folder's entry holds
 * its tree's id, so two entries with the same mode and id hold the very
 * same files at every depth. A tree is thus walked against `base`, a tree
 * already found clean: an entry equal to base's entry of the same name is
 * skipped, anything else is checked, and a folder that differs is walked
 * against base's folder of that name (or against nothing). Every path of
 * the tree is either checked or equal to a checked one; nothing is taken
 * on trust but the hash. A tree found clean goes into a small ring, so a
 * handle checks each revision once.
 *
 * What it costs: a game opened at a main that no one moved since the last
 * check compares one id. A step's commit walks only the folders it
 * changes: the root, turns/ (one comparison per step folder) and the new
 * step's folder. A main moved by hand or by a push walks what the push
 * changed. Only a repository never checked (the first open, or a clone)
 * walks every tree of the revision once. Measured on a 2,000-step game
 * (2,003 trees, 12,010 files at main; callgrind): `status` at an unchanged
 * main costs the same 87.5 M instructions as without the check, the first
 * open 157 M (some 15 ms more), a step 295.0 M instead of 292.7 M (+0.8 %,
 * parsing turns/ once more), and an audit of the 2,000 steps as long
 * (3.7 to 4.0 s, both).
 *
 * The base survives the process in <git dir>/estafette-checked, the id of
 * the tree of main last found clean, written (not fsynced: a hint, as
 * estafette-worktree) when main's tree is checked. That file is trusted as
 * the rest of <git dir> is (its config names the GM's signing key): what
 * can write there can write the refs too. A push or a fetch writes objects
 * and refs, never that file; a file that does not parse or names no tree
 * is no hint.
 *
 * The work tree. libgit2's checkout follows a link it finds in the work
 * tree, where a folder should be (turns -> /elsewhere) or at a file it
 * rewrites (state.json -> /elsewhere/x), and writes through it; git's own
 * checkout refuses, or with --force replaces the link.
 * Before est_store_commit() moves the branch, every path its checkout will
 * write or remove is looked at with fstatat(AT_SYMLINK_NOFOLLOW), one
 * component at a time from the work tree's root: a link on the way, or at
 * the path itself, refuses the commit, so nothing is committed and nothing
 * written. The check and the checkout are two steps: a process that
 * changes the work tree between them, under the GM's own account, could
 * still slip a link in; the GM's account is trusted with the game anyway
 * (it can write <git dir>).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/store_private.h"
#include "util/error.h"
#include "util/unicode.h"
#include "util/util.h"

#define HINT_NAME "estafette-checked"

/* Deeper folders than any game has: a hostile tree nested a million deep would exhaust the stack. */
#define MAX_DEPTH 256

/* A name git checks out as a file of the work tree, and no other (see above). */
static int name_is_safe(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strchr(name, '/') ||
	    strcasecmp(name, "git~1") == 0)
		return 0;
	while (n > 4 && (name[n - 1] == '.' || name[n - 1] == ' '))
		n--;
	if (n == 4 && strncasecmp(name, ".git", 4) == 0)
		return 0;
	return est_unicode_check(NULL, name, strlen(name), EST_UNICODE_NAME) == 0;
}

static int is_clean(const est_store *store, const git_oid *id)
{
	if (store->have_base && git_oid_equal(&store->base, id))
		return 1;
	for (unsigned i = 0; i < store->clean_count; i++)
		if (git_oid_equal(&store->clean[i], id))
			return 1;
	return 0;
}

static void remember_clean(est_store *store, const git_oid *id)
{
	git_oid_cpy(&store->clean[store->next_clean++ % EST_STORE_CLEAN], id);
	if (store->clean_count < EST_STORE_CLEAN)
		store->clean_count++;
}

static char *hint_path(const est_store *store)
{
	return est_strdup_printf("%s%s", git_repository_commondir(store->repo), HINT_NAME);
}

/* The tree <git dir>/estafette-checked names, if it names one, becomes the base. */
static void read_hint(est_store *store)
{
	char *path = hint_path(store), *text = NULL;
	git_tree *tree = NULL;
	git_oid id;
	size_t len;

	store->hint_read = 1;
	if (path && est_file_read(&text, &len, path, 128) == 0 && len >= GIT_OID_HEXSZ &&
	    strspn(text, "0123456789abcdef") == GIT_OID_HEXSZ &&
	    git_oid_fromstrn(&id, text, GIT_OID_HEXSZ) == 0 && git_tree_lookup(&tree, store->repo, &id) == 0) {
		git_oid_cpy(&store->base, &id);
		store->have_base = 1;
	}
	git_error_clear();
	est_error_clear();
	git_tree_free(tree);
	free(text);
	free(path);
}

/* main's tree `id` was found clean: the base of the next check, here and in the next process. */
static void set_base(est_store *store, const git_oid *id)
{
	char hex[GIT_OID_HEXSZ + 2], *path;

	if (store->have_base && git_oid_equal(&store->base, id))
		return;
	git_oid_cpy(&store->base, id);
	store->have_base = 1;
	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, id);
	strcat(hex, "\n");
	/* A hint only: a repository this user cannot write is checked in full each time. */
	if ((path = hint_path(store)) && est_file_write_hint(path, hex, strlen(hex), 0644) < 0)
		est_error_clear();
	free(path);
}

struct walk {
	est_store *store;
	char *path; /* the entry being looked at, from the root */
	size_t len, cap;
	unsigned mode; /* the refused entry's mode, or 0 */
	int too_deep;
	int bad_name;
};

/* Append "/name" (or "name" at the root) to w->path; the old length in *old. */
static int push_name(struct walk *w, size_t *old, const char *name)
{
	size_t n = strlen(name), need = w->len + n + 2;

	*old = w->len;
	if (need > w->cap) {
		char *p = realloc(w->path, need * 2);

		if (!p)
			return est_error_set(EST_ENOMEM, "%s: out of memory checking the tree",
					     w->store->path);
		w->path = p;
		w->cap = need * 2;
	}
	if (w->len)
		w->path[w->len++] = '/';
	memcpy(w->path + w->len, name, n + 1);
	w->len += n;
	return 0;
}

/*
 * base's entry named `name`, looked for first where the tree has it: a
 * later tree of a game adds step folders after the earlier ones, so
 * turns/'s thousands of entries mostly stand at the same index.
 */
static const git_tree_entry *base_entry(const git_tree *base, size_t i, const char *name)
{
	const git_tree_entry *b = git_tree_entry_byindex(base, i);

	return b && strcmp(git_tree_entry_name(b), name) == 0 ? b : git_tree_entry_byname(base, name);
}

/*
 * Check `tree` against `base` (NULL: nothing known). 1 with w->path at the
 * first refused entry, 0 if clean, or an EST_E* code.
 */
static int walk_tree(struct walk *w, const git_tree *tree, const git_tree *base, int depth)
{
	size_t n = git_tree_entrycount(tree), old;
	int found = 0;

	for (size_t i = 0; i < n && !found; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		const git_tree_entry *b = base ? base_entry(base, i, name) : NULL;
		unsigned mode = git_tree_entry_filemode_raw(e);
		git_tree *sub = NULL, *sub_base = NULL;

		if (b && git_tree_entry_filemode_raw(b) == mode &&
		    git_oid_equal(git_tree_entry_id(b), git_tree_entry_id(e)))
			continue; /* the same files as base's, which were checked */
		if (mode == GIT_FILEMODE_BLOB && name_is_safe(name))
			continue;
		if ((found = push_name(w, &old, name)) < 0)
			return found;
		if (!name_is_safe(name)) {
			w->bad_name = 1;
			return 1;
		}
		if (mode != GIT_FILEMODE_TREE) {
			w->mode = mode;
			return 1;
		}
		if (depth >= MAX_DEPTH) {
			w->too_deep = 1;
			return 1;
		}
		if (git_tree_lookup(&sub, w->store->repo, git_tree_entry_id(e)) < 0)
			return est_store__git_error(w->store, EST_ERROR, w->path);
		if (b && git_tree_entry_filemode_raw(b) == GIT_FILEMODE_TREE &&
		    git_tree_lookup(&sub_base, w->store->repo, git_tree_entry_id(b)) < 0) {
			git_tree_free(sub);
			return est_store__git_error(w->store, EST_ERROR, w->path);
		}
		found = walk_tree(w, sub, sub_base, depth + 1);
		git_tree_free(sub_base);
		git_tree_free(sub);
		if (found == 0)
			w->path[w->len = old] = '\0';
	}
	return found;
}

/* `path` with every byte but printable ASCII as \xHH, so no name can hide in a message. */
static char *shown_path(const char *path)
{
	char *out = malloc(strlen(path) * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		if (*c >= 0x20 && *c < 0x7f && *c != '\\' && *c != '"')
			*o++ = (char)*c;
		else
			o += sprintf(o, "\\x%02x", *c);
	*o = '\0';
	return out;
}

/* The refusal of w->path, found in the tree of `rev`. */
static int refuse_entry(const struct walk *w, const char *rev, const git_oid *commit)
{
	const char *repo = w->store->path, *p = w->path;
	char at[GIT_OID_HEXSZ + 32] = "";

	if (commit) {
		char hex[GIT_OID_HEXSZ + 1];

		git_oid_tostr(hex, sizeof(hex), commit);
		snprintf(at, sizeof(at), " (commit %.7s)", hex);
	}
	if (w->bad_name) {
		char *shown = shown_path(p);
		int error = est_error_set(EST_EINVAL, "%s: \"%s\": a name git never checks out (\".git\", "
				     "\"..\", or an invisible or control character) in the game's tree "
				     "at %s%s; a game's files have plain names: remove that path with "
				     "git -C %s rm -r --cached and commit", repo,
				     shown ? shown : "(out of memory)", rev, at, repo);

		free(shown);
		return error;
	}
	if (w->too_deep)
		return est_error_set(EST_EINVAL, "%s: %s: folders nested deeper than %d in the game's "
				     "tree at %s%s; a game is a few folders deep: remove them with "
				     "git -C %s rm -r %s and commit", repo, p, MAX_DEPTH, rev, at, repo, p);
	switch (w->mode) {
	case GIT_FILEMODE_LINK:
		return est_error_set(EST_EINVAL, "%s: %s: a symbolic link in the game's tree at %s%s; "
				     "estafette never follows links in a game: remove it with "
				     "git -C %s rm %s and commit", repo, p, rev, at, repo, p);
	case GIT_FILEMODE_COMMIT:
		return est_error_set(EST_EINVAL, "%s: %s: a submodule (gitlink) in the game's tree at "
				     "%s%s; a game holds only its own files: remove it with "
				     "git -C %s rm --cached %s and commit", repo, p, rev, at, repo, p);
	case GIT_FILEMODE_BLOB_EXECUTABLE:
		return est_error_set(EST_EINVAL, "%s: %s: an executable file in the game's tree at "
				     "%s%s; a game holds no programs: clear the bit with "
				     "git -C %s update-index --chmod=-x %s and commit", repo, p, rev, at,
				     repo, p);
	default:
		return est_error_set(EST_EINVAL, "%s: %s: an entry of mode %06o in the game's tree at "
				     "%s%s, and a game holds only folders (040000) and plain files "
				     "(100644): remove it with git -C %s rm --cached %s and commit the "
				     "file again", repo, p, w->mode, rev, at, repo, p);
	}
}

int est_store__guard_tree(char **bad_out, est_store *store, const git_tree *tree, const char *rev,
			  const git_oid *commit, int is_main)
{
	const git_oid *id = git_tree_id(tree);
	struct walk w = {.store = store};
	git_tree *base = NULL;
	const git_oid *base_id = NULL;
	int found;

	if (bad_out)
		*bad_out = NULL;
	if (!store->hint_read)
		read_hint(store);
	if (is_clean(store, id))
		goto clean;
	/* main's tree, else the last tree found clean: the one likeliest to share folders */
	if (store->have_base)
		base_id = &store->base;
	else if (store->clean_count)
		base_id = &store->clean[(store->next_clean - 1) % EST_STORE_CLEAN];
	if (base_id && git_tree_lookup(&base, store->repo, base_id) < 0)
		git_error_clear(); /* gone (git gc): check in full */
	found = walk_tree(&w, tree, base, 0);
	git_tree_free(base);
	if (found == 1) {
		found = refuse_entry(&w, rev, commit);
		if (bad_out && !(*bad_out = strdup(w.path)))
			found = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	}
	free(w.path);
	if (found < 0)
		return found;
	remember_clean(store, id);
clean:
	if (is_main)
		set_base(store, id);
	return 0;
}

/*
 * The work tree, looked at one component at a time. `dir` is the last
 * folder found a real folder (with its '/'), so that the many paths of one
 * folder cost one fstatat each, not one per folder above them too.
 */
struct work {
	est_store *store;
	int root; /* the work tree's folder */
	char *dir;
	size_t dir_len, dir_cap;
	int error;
};

static int work_open(struct work *w, est_store *store)
{
	memset(w, 0, sizeof(*w));
	w->store = store;
	w->root = open(store->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w->root < 0)
		return est_error_set(EST_EIO, "%s: cannot open the work tree: %s", store->path,
				     strerror(errno));
	return 0;
}

static void work_close(struct work *w)
{
	if (w->root >= 0)
		close(w->root);
	free(w->dir);
}

static int refuse_link(const struct work *w, const char *link, const char *path)
{
	const char *repo = w->store->path;

	return est_error_set(EST_EINVAL, "%s: %s is a symbolic link in the work tree, and estafette "
			     "never writes through links (a checkout would write %s there); remove "
			     "it with rm %s/%s and restore the work tree with git -C %s checkout -f "
			     "main, then run again", repo, link, path, repo, link, repo);
}

/* 0 if nothing on the way to `path` in the work tree, nor `path` itself, is a link. */
static int work_check(struct work *w, const char *path)
{
	size_t start = 0, n = strlen(path);
	char *copy = malloc(n + 1), *p, *end;
	struct stat st;
	int error = 0;

	if (!copy)
		return est_error_set(EST_ENOMEM, "%s: out of memory", w->store->path);
	memcpy(copy, path, n + 1);
	/* The folders this path shares with the last one were found real folders. */
	for (size_t i = 0; i < w->dir_len && i < n && w->dir[i] == path[i]; i++)
		if (path[i] == '/')
			start = i + 1;
	for (p = copy + start;; p = end + 1) {
		if ((end = strchr(p, '/')))
			*end = '\0';
		if (fstatat(w->root, copy, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT && errno != ENOTDIR)
				error = est_error_set(EST_EIO, "%s: %s: cannot look at it in the work "
						      "tree: %s", w->store->path, copy, strerror(errno));
			break; /* nothing there: checkout makes it, as a real folder or file */
		}
		if (S_ISLNK(st.st_mode)) {
			error = refuse_link(w, copy, path);
			break;
		}
		/* A file where a folder goes is replaced by checkout: nothing lies beyond it. */
		if (!end || !S_ISDIR(st.st_mode))
			break;
		*end = '/';
		if ((size_t)(end - copy) + 2 > w->dir_cap) {
			char *d = realloc(w->dir, n + 2);

			if (!d) {
				error = est_error_set(EST_ENOMEM, "%s: out of memory", w->store->path);
				break;
			}
			w->dir = d;
			w->dir_cap = n + 2;
		}
		w->dir_len = (size_t)(end - copy) + 1;
		memcpy(w->dir, copy, w->dir_len);
	}
	free(copy);
	return error;
}

struct tree_paths {
	struct work *work;
	const char *prefix; /* the walked tree's path, "" for the root */
};

static int check_entry(const char *root, const git_tree_entry *entry, void *payload)
{
	struct tree_paths *t = payload;
	char *path = est_strdup_printf("%s%s%s%s", t->prefix, *t->prefix ? "/" : "", root,
				       git_tree_entry_name(entry));

	if (!path)
		t->work->error = est_error_set(EST_ENOMEM, "%s: out of memory", t->work->store->path);
	else
		t->work->error = work_check(t->work, path);
	free(path);
	return t->work->error < 0 ? -1 : 0;
}

/* Every path of `tree`, found at `prefix`, in the work tree. */
static int work_check_tree(struct work *w, const git_tree *tree, const char *prefix)
{
	struct tree_paths t = {.work = w, .prefix = prefix};

	w->error = 0;
	if (git_tree_walk(tree, GIT_TREEWALK_PRE, check_entry, &t) < 0 && w->error == 0)
		return est_store__git_error(w->store, EST_ERROR, "reading a tree");
	return w->error;
}

int est_store__guard_paths(est_store *store, const git_tree *parent,
			   const est_store_change *changes, size_t count)
{
	struct work w;
	int error;

	if ((error = work_open(&w, store)) < 0)
		return error;
	for (size_t i = 0; i < count && !error; i++) {
		git_tree_entry *entry = NULL;
		git_tree *sub = NULL;

		if ((error = work_check(&w, changes[i].path)) < 0)
			break;
		/* A folder checkout removes or replaces: each file it held. */
		if (!parent || git_tree_entry_bypath(&entry, parent, changes[i].path) < 0) {
			git_error_clear();
			continue;
		}
		if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) {
			if (git_tree_lookup(&sub, store->repo, git_tree_entry_id(entry)) < 0)
				error = est_store__git_error(store, EST_ERROR, changes[i].path);
			else
				error = work_check_tree(&w, sub, changes[i].path);
		}
		git_tree_free(sub);
		git_tree_entry_free(entry);
	}
	work_close(&w);
	return error;
}

int est_store__guard_full(est_store *store, const git_tree *tree, git_index *index)
{
	struct work w;
	size_t n = index ? git_index_entrycount(index) : 0;
	int error;

	if ((error = work_open(&w, store)) < 0)
		return error;
	error = work_check_tree(&w, tree, "");
	/* What the index tracks and the tree lacks, checkout removes. */
	for (size_t i = 0; i < n && !error; i++) {
		const git_index_entry *entry = git_index_get_byindex(index, i);

		if (entry)
			error = work_check(&w, entry->path);
	}
	work_close(&w);
	return error;
}
