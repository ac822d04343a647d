/*
 * What store.c and commit.c share. Not for other modules: they use store.h.
 */
#ifndef EST_STORE_PRIVATE_H
#define EST_STORE_PRIVATE_H

#include <git2.h>

#include "store/store.h"

#define EST_STORE_BRANCH "refs/heads/main"

/*
 * Revisions this handle has resolved (see store.h, "Revisions"): a spec
 * and the type it was peeled to, and the object it named. A ring of a few,
 * enough for a step's "main", its tag and the tag's parent.
 */
#define EST_STORE_REVS 8
#define EST_STORE_CLEAN 8
struct est_store_rev {
	char spec[48]; /* "" if unused; longer specs are not kept */
	git_object_t type;
	git_oid oid;
};

struct est_store {
	git_repository *repo;
	char *path;      /* work tree or bare folder, no trailing '/' */
	char *lock_path; /* <git dir>/estafette.lock */
	int lock_fd;     /* -1 unless this handle holds the lock */
	est_store_sign_fn sign; /* NULL: commits and tags are not signed */
	void *sign_payload;
	git_odb_backend *mempack; /* new objects until est_store__pack_write (pack.c) */
	git_oid *unpacked;        /* their ids, in the order written */
	size_t unpacked_count, unpacked_cap;
	struct est_store_rev revs[EST_STORE_REVS];
	unsigned next_rev; /* the slot the next resolution takes */
	git_oid clean[EST_STORE_CLEAN]; /* trees guard.c found clean, a ring */
	unsigned clean_count, next_clean;
	git_oid base;   /* the clean tree the next check compares with (guard.c) */
	int have_base;  /* 1 once base is set: a check, or the hint file read at open */
	int hint_read;  /* 1 once <git dir>/estafette-checked was read */
	char pinned[EST_STORE_OID_HEX + 1]; /* "" or the commit "main" names (est_store_pin) */
	long long held_clock; /* the time commits carry (est_store_hold_clock); -1: the clock's */
};

/*
 * Set `code` with "<repository>: <what>: <libgit2's message>" and return it.
 * When libgit2's error is an OS error whose errno has a class of its own
 * (ENOSPC, EDQUOT, EROFS, EACCES: EST_EIO; EMFILE, EAGAIN: EST_ETEMPFAIL;
 * ENOMEM), that class replaces `code` and the message ends with what to do.
 * Call it right after the failing libgit2 call: another call may replace
 * libgit2's last error.
 */
int est_store__git_error(const est_store *store, int code, const char *what);

/*
 * 0 if `path` is a relative, '/'-separated path with no empty, ".", ".." or
 * ".git" (any case) part; else EST_EINVAL with a message naming `what`.
 */
int est_store__check_path(const est_store *store, const char *path, const char *what);

/*
 * Forget the revisions this handle resolved: a ref moved, or another
 * process may have moved one (the lock was just taken).
 */
void est_store__forget_revs(est_store *store);

/*
 * pack.c. est_store__pack_start: new objects go to memory from now on (at
 * open). est_store__pack_write: write those noted with est_store__pack_add
 * as one pack file in objects/pack, fsynced, and empty the memory; call it
 * before any ref names them. est_store__pack_merge: roll the smallest packs into one, as git
 * repack --geometric=2, and pack the refs once many tags are loose, as git
 * pack-refs; under the lock. Errors: EST_ERROR, EST_EIO, EST_ENOMEM.
 */
int est_store__pack_start(est_store *store);
/* Note object `id`, just written, for the next est_store__pack_write. EST_ENOMEM. */
int est_store__pack_add(est_store *store, const git_oid *id);
int est_store__pack_write(est_store *store);
int est_store__pack_merge(est_store *store);

/*
 * guard.c: what a game's tree may hold, and where checkout may write (see
 * there for why these checks are sound and what they cost).
 *
 * est_store__guard_tree: 0 if `tree` holds only folders (mode 040000) and
 * plain files (100644), at every depth; else EST_EINVAL naming the first
 * other entry (a symbolic link, a submodule, an executable file, any other
 * mode), what it is and the fix, and *bad_out (NULL: not wanted) a new
 * string with its path (caller frees). `rev` and `commit` (NULL: the
 * revision is a tree, not a commit) say in the message where it was found;
 * `is_main` 1 when `tree` is what refs/heads/main names, so that the next
 * process compares with it.
 */
int est_store__guard_tree(char **bad_out, est_store *store, const git_tree *tree, const char *rev,
			  const git_oid *commit, int is_main);

/*
 * est_store__guard_paths: 0 if none of the work tree paths a checkout of
 * the `count` paths of `changes` writes or removes is a symbolic link or
 * reached through one: each path, every folder above it, and every file
 * `parent` (the tree checked out now; NULL: none) holds below it.
 * est_store__guard_full: the same for a checkout of all of `tree` over
 * `index` (NULL: none; the files it tracks may be removed). Else
 * EST_EINVAL naming the link and the fix, and nothing is written; EST_EIO
 * if the work tree cannot be looked at; EST_ENOMEM.
 */
int est_store__guard_paths(est_store *store, const git_tree *parent,
			   const est_store_change *changes, size_t count);
int est_store__guard_full(est_store *store, const git_tree *tree, git_index *index);

/* 0 if refs/tags/<tag> is a valid ref name; else EST_EINVAL. */
int est_store__check_tag(const est_store *store, const char *tag);

/* Parse 40 hex digits into *out; EST_EINVAL naming `what` otherwise. */
int est_store__parse_oid(git_oid *out, const est_store *store, const char *hex,
			 const char *what);

#endif
