/*
 * The game repository (docs/protocol.md "The repository") through libgit2.
 *
 * Every step of a game is one commit on refs/heads/main, tagged step-NNNN.
 * This module reads files at any revision, commits a set of changes on top
 * of an expected head (compare-and-swap on the branch, so two runs cannot
 * both win), tags steps, and holds the per-game lock. libgit2 types never
 * cross this header: object ids are 40 lower-case hex digits.
 *
 * libgit2's global state: est_store_init() and est_store_open() each call
 * git_libgit2_init() and est_store_free() calls git_libgit2_shutdown().
 * libgit2 counts those calls itself; the first handle of the process also
 * takes one reference it never drops, so the library is set up at the first
 * repository opened and stays up for the process; callers do nothing.
 *
 * Revisions: a handle remembers the last few revisions it resolved
 * ("main", "step-0003^", ...) and reads those commits again until the
 * handle itself moves a ref (est_store_commit, est_store_tag) or takes the
 * lock. A run under the lock thus sees its own commits and no one else's
 * (no one else commits). A reader that holds no lock usually reads one
 * commit for "main" even if another process commits meanwhile, but that is
 * not a snapshot: a revision resolved for the first time, or again after
 * it fell out of the handle's few, names the commit of that moment.
 * est_store_head() and est_store_tag_target() always read the ref anew.
 *
 * What a game holds (docs/protocol.md "The repository"): only
 * folders and plain files (mode 100644), never a symbolic link, a
 * submodule (gitlink) or an executable file. Every function that resolves
 * a revision first checks its whole tree, at every depth, including paths
 * estafette never reads, and refuses with EST_EINVAL naming the first such
 * path; a revision that passed is not checked again by the handle, and a
 * tree equal to one already checked costs one comparison (guard.c says why
 * that is sound and what it costs). To that end a handle may write
 * <git dir>/estafette-checked, a hint naming main's tree as last found
 * clean; a repository it cannot write is checked in full each time.
 * est_store_commit() refuses to check out through a link in the work tree.
 *
 * Every function returns 0 or a negative EST_E* code with the message set
 * (util/error.h). Messages start with the repository's path.
 */
#ifndef EST_STORE_STORE_H
#define EST_STORE_STORE_H

#include <jansson.h>
#include <stddef.h>

#define EST_STORE_OID_HEX 40

typedef struct est_store est_store;

/*
 * One change for est_store_commit(). `path` is relative and '/'-separated,
 * with no empty, "." or ".." part, no leading or trailing '/' and no ".git"
 * part in any case (e.g. "turns/0007/dice.json").
 *
 * data != NULL: write `len` bytes (which may hold NUL and CR bytes; len 0 is
 * an empty file) as a regular file (mode 100644) at `path`, making folders as
 * needed and replacing a file that stood where a folder must go.
 * data == NULL: delete `path`, a file or a whole folder (e.g. "orders");
 * deleting what is not there is not an error.
 *
 * Changes apply in the order given, so {delete "orders", write
 * "orders/france.json"} leaves a folder with that one file.
 */
typedef struct {
	const char *path;
	const void *data;
	size_t len;
} est_store_change;

/*
 * Create a new repository with a work tree at `path` (made, with its parents,
 * if missing; if it exists it must be an empty folder). HEAD is the unborn
 * refs/heads/main. On success *out is a new handle (free with
 * est_store_free()).
 *
 * Errors: EST_EINVAL if `path` exists and is not an empty folder;
 * EST_EIO if it cannot be made; EST_ERROR (libgit2); EST_ENOMEM.
 */
int est_store_init(est_store **out, const char *path);

/*
 * Sign `len` bytes (a commit or tag object without its signature) for git:
 * an armored SSH signature in namespace "git" into *armored_out (caller
 * frees). Returns 0 or an EST_E* code with the message set.
 */
typedef int (*est_store_sign_fn)(char **armored_out, const char *data, size_t len, void *payload);

/*
 * From now on, sign every commit and annotated tag this handle writes, as
 * `git commit -S` and `git tag -s` do with gpg.format=ssh, so that
 * `git verify-commit` and `git verify-tag` say "Good". `sign` NULL: stop
 * signing. `payload` is passed to `sign`, borrowed.
 */
void est_store_set_signer(est_store *store, est_store_sign_fn sign, void *payload);

/*
 * Open the game repository at `path`: its work tree, its .git folder or a
 * bare repository. Folders above `path` are not searched. On success *out is
 * a new handle (free with est_store_free()).
 *
 * Errors: EST_ENOTFOUND if there is no repository at `path`;
 * EST_ECONFIG if it belongs to another user and is not listed in git's
 * safe.directory; EST_ERROR (libgit2); EST_ENOMEM.
 */
int est_store_open(est_store **out, const char *path);

/* Release `store` (NULL is fine), and its lock if held. */
void est_store_free(est_store *store);

/*
 * The work tree, or for a bare repository its folder, as an absolute path
 * without a trailing '/'. Borrowed: valid until est_store_free().
 */
const char *est_store_path(const est_store *store);

/*
 * Take the game's lock: an exclusive, non-blocking flock() on
 * <git dir>/estafette.lock (made mode 0644 if missing; this process's pid is
 * written in it so that a refused run can say who holds it). Two runs on one
 * game never interleave. flock() locks belong to the open file, so the kernel
 * drops the lock when the holder exits or crashes: there is no stale lock to
 * clean up, and the file itself is never removed (removing it would let a
 * second process lock a new file while the first still holds the old one).
 * Taking a lock this handle already holds is a no-op. Another handle in the
 * same process conflicts like another process.
 *
 * Errors: EST_ELOCKED if another process (or handle) holds it;
 * EST_EIO if the lock file cannot be opened.
 */
int est_store_lock(est_store *store);

/* Release the lock if this handle holds it. */
void est_store_unlock(est_store *store);

/*
 * With the game's lock held, no other estafette process can be writing, so
 * git's own lock files on the refs and index estafette writes (index.lock,
 * refs/heads/main.lock, packed-refs.lock, refs/tags/step-*.lock) can only
 * be left by a process that was killed: remove them. *removed_out is a new
 * JSON array of the paths removed (caller decrefs), usually empty. A git
 * command run by hand at the same moment would lose its lock: the GM runs
 * no git command that writes to a game while estafette does (docs/hosting.md "Locks and concurrency").
 *
 * Errors: EST_ERROR if the lock is not held; EST_ENOMEM.
 */
int est_store_clear_stale_locks(json_t **removed_out, est_store *store);

/*
 * The commit refs/heads/main points to, as 40 hex digits in out[41].
 *
 * Errors: EST_ENOTFOUND if the branch is unborn (no commit yet: "not a
 * game"), or dangling: it names a commit the repository does not have (the
 * message says so, with the newest step tag whose commit is there to point
 * it back at); EST_ERROR (libgit2).
 */
int est_store_head(char out[EST_STORE_OID_HEX + 1], est_store *store);

/*
 * Read the file at `path` (rules as in est_store_change) in the tree of
 * `rev`: any git rev-parse expression ("main", "step-0003", "main~2", a full
 * or abbreviated hex id); NULL means refs/heads/main. *out is a new buffer
 * holding the bytes exactly as stored plus a NUL after them (not counted in
 * *len); the caller frees it with free().
 *
 * Errors: EST_ENOTFOUND if `rev` or `path` does not exist;
 * EST_EINVAL if `path` is malformed or is a folder, `rev` is malformed or
 * ambiguous, or its tree holds a link, a submodule or an executable file
 * anywhere (see the top; a committed link is never read or followed);
 * EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_read(char **out, size_t *len, est_store *store, const char *rev,
		   const char *path);

/*
 * The JSON file `path` at `rev` (as in est_store_read()), parsed strictly
 * (duplicate keys refused). *out is a new reference. Errors: those of
 * est_store_read(); EST_EINVAL naming the file, line and column.
 */
int est_store_read_json(json_t **out, est_store *store, const char *rev, const char *path);

/*
 * The git object id (40 hex digits and a NUL, into out) of the file or
 * folder at `path` (rules as in est_store_change) in the tree of `rev` (as
 * in est_store_read()). Two paths have equal ids exactly when they hold the
 * same bytes (a folder: the same names and contents), so a comparison needs
 * no reading.
 *
 * Errors: EST_ENOTFOUND if `rev` or `path` does not exist; EST_EINVAL if
 * `path` is malformed or `rev` is malformed or ambiguous; EST_ERROR (libgit2).
 */
int est_store_id(char out[EST_STORE_OID_HEX + 1], est_store *store, const char *rev,
		 const char *path);

/*
 * The names of the entries (files and folders, without any '/') directly
 * under folder `dir` ("" or NULL for the root) in the tree of `rev` (as in
 * est_store_read()), in git's tree order. *names_out is a new NULL-terminated
 * array, freed with est_store_list_free(); *count_out its length. A folder
 * that does not exist has no entries: *count_out is 0 and 0 is returned.
 *
 * Errors: EST_ENOTFOUND if `rev` does not exist; EST_EINVAL if `dir` is
 * malformed or is a file; EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_list(char ***names_out, size_t *count_out, est_store *store,
		   const char *rev, const char *dir);

/* Free an array from est_store_list() (NULL is fine). */
void est_store_list_free(char **names);

/*
 * Check the tree of `rev` (as in est_store_read()) as every read does (see
 * the top), to refuse a revision before reading it with the reason first.
 * On EST_EINVAL for a refused entry, *path_out (NULL: not wanted) is a new
 * string with its path, e.g. "turns/0003" (caller frees), and the message
 * says "<repository>: turns/0003: a symbolic link in the game's tree at
 * main (commit abc1234); ..." with the fix.
 *
 * Errors: EST_EINVAL (a refused entry; `rev` malformed or ambiguous);
 * EST_ENOTFOUND if `rev` does not exist; EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_check_tree(char **path_out, est_store *store, const char *rev);

/*
 * Commit `changes` (count of them, applied in order; 0 makes a commit with
 * the parent's tree) on refs/heads/main and return its id in out_oid.
 *
 * `expected_head` is the commit the caller read its state from (40 hex), or
 * NULL if the branch must still be unborn (the game's first commit). The new
 * tree is the parent's tree with the changes applied, built in memory; the
 * work tree is not read. The branch moves only if it still points at
 * `expected_head` (a compare-and-swap in libgit2's ref database), so a run
 * that worked from an older state never overwrites a newer one. Callers
 * hold est_store_lock() from reading the head to committing; the
 * compare-and-swap still guards against anyone who does not (git itself).
 *
 * `message` is the whole commit message (a '\n' is added if it lacks one).
 * If `tag` is not NULL (e.g. "step-0007") an annotated tag of that name,
 * whose message is the first line of `message`, points at the new commit.
 * A tag of that name that already points at a different commit is refused
 * before the branch moves.
 *
 * Author, committer and tagger: user.name and user.email from the
 * repository's own (local) git config when both are set, else
 * "estafette <estafette@localhost>"; global and system config are ignored,
 * so a game's history does not depend on who runs it or on which machine.
 * Time: now, or $ESTAFETTE_COMMIT_TIME (seconds since the epoch) if set,
 * always in UTC (+0000): with that variable set, identical inputs give
 * identical commit ids (tests, sample games).
 *
 * Order of writes, so that a crash at any point leaves a consistent game:
 * blobs, trees, the commit and the tag object first, kept in memory and
 * then written as one pack file in objects/pack, fsynced, rather than as a
 * loose file each (unreferenced objects are harmless and git gc removes
 * them); then refs/heads/main (the step becomes real here, atomically);
 * then refs/tags/<tag>. A crash between the
 * last two leaves a step committed but untagged: it is in the history, its
 * commit message names it, and est_store_tag() adds the tag later. The
 * reverse order could leave a tag naming a commit that is not on main, which
 * the next run, building a different commit for the same step, could then
 * never tag (it would be refused as pointing elsewhere).
 *
 * With a work tree whose HEAD is refs/heads/main, the work tree and index
 * are then brought in line with the new commit (before the branch moves,
 * every path that checkout will write or remove is looked at: a symbolic
 * link in the work tree on the way to one, or at one, refuses the commit,
 * as nothing may be written through a link): the changed paths are
 * forced (overwritten, or removed when deleted); a hand edit to another
 * tracked file stays as a modification git status shows, and untracked
 * files stay. A work tree not known to be at the parent commit (an earlier
 * checkout was interrupted, or HEAD was elsewhere) is forced in full. Only
 * the changed paths are looked at, so a commit costs the same late in a
 * long history as early.
 *
 * Last, past 16 small packs in objects/pack, they are merged as `git
 * repack --geometric=2` would (packs over 1 MiB, or marked .keep or
 * .promisor, are left alone): a history holds at most some 20 small packs
 * and one pack a MiB.
 * Once 64 tags are loose, the refs are packed into packed-refs, as `git
 * pack-refs --all` would. A failure of either is not an error; the next
 * commit tries again.
 *
 * Errors: EST_EINVAL (a malformed change path, expected_head, tag or empty
 * message; tag exists elsewhere; expected_head is not a commit; the new
 * tree holds a link, submodule or executable, which only a parent that
 * held one can cause; a symbolic link in the work tree where checkout
 * writes, named with the fix: nothing is committed);
 * EST_ETEMPFAIL if refs/heads/main is not at expected_head (nothing is
 * moved; run again); EST_EIO if the commit was made (out_oid is set, the
 * branch moved) but the work tree could not be updated or the tag ref could
 * not be written; EST_ECONFIG if $ESTAFETTE_COMMIT_TIME is not an integer;
 * EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_commit(char out_oid[EST_STORE_OID_HEX + 1], est_store *store,
		     const char *expected_head, const est_store_change *changes,
		     size_t count, const char *message, const char *tag);

/*
 * Bring the index and work tree to refs/heads/main, whatever an earlier
 * process killed mid-checkout left: the index is read from main's tree and
 * checked out, forced (untracked files stay). Nothing for a bare repository,
 * an unborn branch or HEAD on another branch, or when <git dir>/
 * estafette-worktree says the last checkout of main's commit completed (so
 * the usual run pays nothing). Call it holding the lock.
 *
 * Errors: EST_EINVAL if main's tree holds a link, submodule or executable
 * file, or a symbolic link in the work tree lies where checkout writes
 * (nothing is written); EST_EIO (libgit2 could not write the index or the
 * files, e.g. a .git/index.lock left by another process; the message says
 * which).
 */
int est_store_sync(est_store *store);

/*
 * Make annotated tag `tag` pointing at commit `commit` (40 hex) with message
 * `message` (its first line is used; NULL: the commit's first line, so that
 * the tag is the one est_store_commit() would have written), signed as in
 * est_store_commit(). If the
 * tag already points at that commit nothing is done: this repairs a step
 * whose tag a crash left unwritten, and is safe to repeat.
 *
 * Errors: EST_EINVAL if `tag` is not a valid tag name, `commit` is not 40
 * hex digits or names no commit, or the tag exists pointing elsewhere;
 * EST_ECONFIG ($ESTAFETTE_COMMIT_TIME); EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_tag(est_store *store, const char *tag, const char *commit,
		  const char *message);

/*
 * The value of `key` (e.g. "estafette.smtpurl") in the repository's own git
 * config (.git/config or the bare repository's config; never the global or
 * system files), as a new string the caller frees with free().
 *
 * Errors: EST_ENOTFOUND if it is not set there; EST_EINVAL if `key` is not a
 * valid config name; EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_config_get(char **out, est_store *store, const char *key);

/*
 * Set `key` to `value` in the repository's own (local) git config.
 * Errors: EST_EIO naming the key.
 */
int est_store_config_set(est_store *store, const char *key, const char *value);

/*
 * The committer time of `rev` (as in est_store_read()), in seconds since the
 * epoch, in *out.
 *
 * Errors: EST_ENOTFOUND if `rev` does not exist; EST_EINVAL if it is
 * malformed or not a commit; EST_ERROR (libgit2).
 */
int est_store_commit_time(long long *out, est_store *store, const char *rev);

/*
 * Whether the commit `rev` is `ancestor` or descends from it (as in
 * est_store_read(), both resolved to commits): *out 1 or 0.
 * Errors: those of resolving either; EST_ERROR (libgit2).
 */
int est_store_descends(int *out, est_store *store, const char *rev, const char *ancestor);

/*
 * The time the next commit will carry, in seconds since the epoch: the
 * environment's ESTAFETTE_COMMIT_TIME when set (tests, replays, `run
 * --now`), else now. Errors: EST_ECONFIG if that variable is not a whole
 * number (*out is then now).
 */
int est_store_clock(long long *out);

/*
 * From now on, the commits and tags this handle makes carry `when`
 * (seconds since the epoch) rather than est_store_clock's time, so that a
 * value derived from the time before committing (a step's deadline) is the
 * commit's own; `when` < 0 goes back to the clock.
 */
void est_store_hold_clock(est_store *store, long long when);

/*
 * Read the game as it stood at commit `rev` (as in est_store_read(), e.g.
 * "step-0007^"): from now on every read of this handle that names main
 * (NULL or "main") reads that commit, est_store_head() gives it, and
 * est_store_commit() refuses. For replaying what a step saw (audit).
 * Errors: those of resolving `rev` (est_store_read()).
 */
int est_store_pin(est_store *store, const char *rev);

/*
 * The commit tag `tag` (refs/tags/<tag>, annotated or not) points to, in
 * out[41]. With `out` NULL, only whether the ref is there: nothing but the
 * ref is read, so a tag whose objects are lost is still found.
 *
 * Errors: EST_ENOTFOUND if there is no such tag; EST_EINVAL if `tag` is not
 * a valid tag name or does not lead to a commit; EST_ERROR (libgit2).
 */
int est_store_tag_target(char out[EST_STORE_OID_HEX + 1], est_store *store,
			 const char *tag);

/*
 * The commits of refs/heads/main, as `git rev-list --topo-order --reverse
 * main` lists them: oldest first, each after its parents. *out is a new
 * JSON array (caller decrefs) of {"commit": 40 hex, "subject": the first
 * line of its message, "parents": [40 hex, ...] (none for a root commit),
 * "time": committer time in seconds since the epoch}. For an auditor,
 * who must look at every commit (docs/protocol.md "Signed history").
 *
 * Errors: EST_ENOTFOUND if main has no commit; EST_ENOMEM; EST_ERROR
 * (libgit2).
 */
int est_store_log(json_t **out, est_store *store);

/*
 * What commit `commit` (40 hex) changes against commit `parent` (40 hex;
 * NULL: against nothing, as for a root commit), file by file, with no
 * rename detection: *out is a new JSON array (caller decrefs) of {"path":
 * the file's path, "status": "added", "modified", "deleted" or
 * "typechange", "mode": the file's git mode (0100644 = 33188 for a plain
 * file; the old mode for a deleted file)}. Empty when the trees are equal.
 *
 * Errors: EST_EINVAL if either is not 40 hex digits or names no commit;
 * EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_changes(json_t **out, est_store *store, const char *parent, const char *commit);

/*
 * The signature of commit `commit` (40 hex) and the bytes it signs, as
 * `git verify-commit` takes them apart: its "gpgsig" header (for an SSH
 * signature the armored "-----BEGIN SSH SIGNATURE-----" block) into
 * *sig_out, and the commit object without that header into *data_out,
 * which the signer signed in namespace "git" (est_sshsig_verify). Both are
 * new NUL-terminated buffers (lengths without the NUL) the caller frees. An
 * unsigned commit gives NULL and 0 for both, and 0.
 *
 * Errors: EST_EINVAL if `commit` is not 40 hex digits or names no commit;
 * EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_commit_signature(char **sig_out, size_t *sig_len, char **data_out, size_t *data_len,
			       est_store *store, const char *commit);

/*
 * The SSH signature of tag `tag` (refs/tags/<tag>) and the bytes it signs,
 * as `git verify-tag` takes a tag object apart (and as est_store_tag()
 * writes one, like `git tag -s`): the signature is appended to the tag's
 * message, from the last line that opens "-----BEGIN SSH SIGNATURE-----"
 * to the end, into *sig_out; everything before it into *data_out. Both are
 * new NUL-terminated buffers (lengths without the NUL) the caller frees. A
 * lightweight tag (no tag object) or an annotated tag without an SSH
 * signature gives NULL and 0 for both, and 0.
 *
 * Errors: EST_ENOTFOUND if there is no such tag; EST_EINVAL if `tag` is
 * not a valid tag name; EST_ENOMEM; EST_ERROR (libgit2).
 */
int est_store_tag_signature(char **sig_out, size_t *sig_len, char **data_out, size_t *data_len,
			    est_store *store, const char *tag);

#endif
