/*
 * What store.c and commit.c share. Not for other modules: they use store.h.
 */
#ifndef EST_STORE_PRIVATE_H
#define EST_STORE_PRIVATE_H

#include <git2.h>

#include "store/store.h"

#define EST_STORE_BRANCH "refs/heads/main"

struct est_store {
	git_repository *repo;
	char *path;      /* work tree or bare folder, no trailing '/' */
	char *lock_path; /* <git dir>/estafette.lock */
	int lock_fd;     /* -1 unless this handle holds the lock */
	est_store_sign_fn sign; /* NULL: commits and tags are not signed */
	void *sign_payload;
};

/*
 * Set `code` with "<repository>: <what>: <libgit2's message>" and return it.
 */
int est_store__git_error(const est_store *store, int code, const char *what);

/*
 * 0 if `path` is a relative, '/'-separated path with no empty, ".", ".." or
 * ".git" (any case) part; else EST_EINVAL with a message naming `what`.
 */
int est_store__check_path(const est_store *store, const char *path, const char *what);

/* 0 if refs/tags/<tag> is a valid ref name; else EST_EINVAL. */
int est_store__check_tag(const est_store *store, const char *tag);

/* Parse 40 hex digits into *out; EST_EINVAL naming `what` otherwise. */
int est_store__parse_oid(git_oid *out, const est_store *store, const char *hex,
			 const char *what);

#endif
