/*
 * Committing a step: the new tree is built in memory from the parent's tree
 * and the changes, then the commit and tag objects are written (to memory,
 * then to disk as one pack: pack.c), then the branch moves by
 * compare-and-swap, then the tag ref, then the work tree. store.h explains
 * why in that order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_private.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

#define DEFAULT_NAME "estafette"
#define DEFAULT_EMAIL "estafette@localhost"

/*
 * The changes, folded into a tree of what differs from the parent's tree.
 * A folder node starts from the parent's folder of that name unless `fresh`
 * (it replaced a file, or a deleted folder, earlier in the same commit).
 * Folding first is what lets changes apply in order: a later change to a
 * path overrides any earlier one at or below it.
 */
enum node_kind { NODE_DIR, NODE_FILE, NODE_GONE };

struct node {
	char *name;
	enum node_kind kind;
	int fresh;
	git_oid blob;
	struct node *child;
	struct node *next;
};

static void node_free_list(struct node *n)
{
	while (n) {
		struct node *next = n->next;

		node_free_list(n->child);
		free(n->name);
		free(n);
		n = next;
	}
}

/* The child of `dir` named by the `len` bytes at `name`, made if missing. */
static struct node *node_child(struct node *dir, const char *name, size_t len)
{
	struct node *c;

	for (c = dir->child; c; c = c->next)
		if (strlen(c->name) == len && memcmp(c->name, name, len) == 0)
			return c;
	if (!(c = calloc(1, sizeof(*c))) || !(c->name = strndup(name, len))) {
		free(c);
		return NULL;
	}
	c->kind = NODE_DIR;
	c->next = dir->child;
	dir->child = c;
	return c;
}

/*
 * Fold one change (path already checked) into the model; `blob` is the
 * written file's id, or NULL to delete.
 */
static int model_apply(struct node *root, const char *path, const git_oid *blob)
{
	struct node *dir = root, *c;
	const char *p = path, *end;

	while ((end = strchr(p, '/')) != NULL) {
		if (!(c = node_child(dir, p, (size_t)(end - p))))
			return EST_ENOMEM;
		if (c->kind != NODE_DIR) {
			/* Deleting below a file or a deleted path: nothing is there. */
			if (!blob)
				return 0;
			/* Writing below it: a folder replaces it. */
			c->kind = NODE_DIR;
			c->fresh = 1;
		}
		dir = c;
		p = end + 1;
	}
	if (!(c = node_child(dir, p, strlen(p))))
		return EST_ENOMEM;
	node_free_list(c->child);
	c->child = NULL;
	c->fresh = 0;
	c->kind = blob ? NODE_FILE : NODE_GONE;
	if (blob)
		git_oid_cpy(&c->blob, blob);
	return 0;
}

/*
 * Write the tree for folder node `dir` over `base` (NULL: none). *empty is
 * set if it has no entries; then nothing is written unless `always`.
 */
static int build_tree(git_oid *out, int *empty, est_store *store, git_tree *base,
		      struct node *dir, int always)
{
	git_treebuilder *bld = NULL;
	struct node *c;
	int error = 0;

	if (git_treebuilder_new(&bld, store->repo, base) < 0)
		return est_store__git_error(store, EST_ERROR, "building a tree");
	for (c = dir->child; c; c = c->next) {
		const git_tree_entry *entry = base ? git_tree_entry_byname(base, c->name) : NULL;
		int is_tree = entry && git_tree_entry_type(entry) == GIT_OBJECT_TREE;
		git_tree *sub = NULL;
		git_oid oid;
		int sub_empty;

		switch (c->kind) {
		case NODE_FILE:
			error = git_treebuilder_insert(NULL, bld, c->name, &c->blob,
						       GIT_FILEMODE_BLOB);
			break;
		case NODE_GONE:
			error = entry ? git_treebuilder_remove(bld, c->name) : 0;
			break;
		case NODE_DIR:
			if (is_tree && !c->fresh &&
			    git_tree_lookup(&sub, store->repo, git_tree_entry_id(entry)) < 0) {
				error = est_store__git_error(store, EST_ERROR, c->name);
				goto out;
			}
			error = build_tree(&oid, &sub_empty, store, sub, c, 0);
			git_tree_free(sub);
			if (error < 0)
				goto out;
			if (!sub_empty)
				error = git_treebuilder_insert(NULL, bld, c->name, &oid,
							       GIT_FILEMODE_TREE);
			else if (entry && (is_tree || c->fresh))
				/* git has no empty folders: one emptied goes. */
				error = git_treebuilder_remove(bld, c->name);
			/* else: only deletes below a file that stays. */
			break;
		}
		if (error < 0) {
			error = est_store__git_error(store, EST_ERROR, c->name);
			goto out;
		}
	}
	*empty = git_treebuilder_entrycount(bld) == 0;
	error = 0;
	if ((!*empty || always) && (git_treebuilder_write(out, bld) < 0 ||
				    (error = est_store__pack_add(store, out)) < 0))
		error = error < 0 ? error : est_store__git_error(store, EST_ERROR, "writing a tree");
out:
	git_treebuilder_free(bld);
	return error;
}

/* The new root tree: `base` (NULL for the first commit) plus `changes`. */
static int make_tree(git_tree **out, est_store *store, git_tree *base,
		     const est_store_change *changes, size_t count)
{
	struct node root = {.kind = NODE_DIR};
	git_oid oid;
	size_t i;
	int error = 0, empty;

	est_fault_point("store-before-blobs");
	for (i = 0; i < count && error == 0; i++) {
		if (changes[i].data &&
		    git_blob_create_from_buffer(&oid, store->repo, changes[i].data,
						changes[i].len) < 0) {
			error = est_store__git_error(store, EST_ERROR, changes[i].path);
			break;
		}
		if (changes[i].data && (error = est_store__pack_add(store, &oid)) < 0)
			break;
		if (model_apply(&root, changes[i].path, changes[i].data ? &oid : NULL) < 0)
			error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	}
	if (error == 0)
		est_fault_point("store-after-blobs");
	if (error == 0 && (error = build_tree(&oid, &empty, store, base, &root, 1)) == 0 &&
	    git_tree_lookup(out, store->repo, &oid) < 0)
		error = est_store__git_error(store, EST_ERROR, "reading the new tree");
	if (error == 0)
		est_fault_point("store-after-trees");
	node_free_list(root.child);
	return error;
}

/* $ESTAFETTE_COMMIT_TIME if set, else now. */
static int commit_time(git_time_t *out)
{
	const char *env = getenv("ESTAFETTE_COMMIT_TIME");
	char *end;
	long long t;

	if (!env) {
		*out = (git_time_t)time(NULL);
		return 0;
	}
	errno = 0;
	t = strtoll(env, &end, 10);
	if (!*env || strspn(env, "0123456789") != strlen(env) || *end || errno)
		return est_error_set(EST_ECONFIG,
				     "environment variable ESTAFETTE_COMMIT_TIME is \"%s\", "
				     "not seconds since the epoch; unset it or give a whole "
				     "number such as 1700000000",
				     env);
	*out = (git_time_t)t;
	return 0;
}

void est_store_hold_clock(est_store *store, long long when)
{
	store->held_clock = when < 0 ? -1 : when;
}

int est_store_clock(long long *out)
{
	git_time_t t = (git_time_t)time(NULL);
	int error = commit_time(&t);

	*out = (long long)t;
	return error;
}

/*
 * The identity commits and tags are made with: the local config's
 * user.name and user.email, else the default (store.h says why local only).
 */
static int make_signature(git_signature **out, est_store *store)
{
	git_config *cfg = NULL, *local = NULL;
	git_buf name = GIT_BUF_INIT, email = GIT_BUF_INIT;
	git_time_t when = 0;
	int use_config, error = 0;

	if (store->held_clock >= 0)
		when = (git_time_t)store->held_clock;
	else if ((error = commit_time(&when)) < 0)
		return error;
	if (git_repository_config(&cfg, store->repo) < 0 ||
	    git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL) < 0) {
		error = est_store__git_error(store, EST_ERROR, "opening the repository's config");
		goto out;
	}
	use_config = git_config_get_string_buf(&name, local, "user.name") == 0 &&
		     git_config_get_string_buf(&email, local, "user.email") == 0 &&
		     name.size > 0 && email.size > 0;
	if (git_signature_new(out, use_config ? name.ptr : DEFAULT_NAME,
			      use_config ? email.ptr : DEFAULT_EMAIL, when, 0) < 0)
		error = est_store__git_error(store, EST_ECONFIG,
					     "user.name or user.email in the repository's "
					     "config cannot sign a commit; fix them with `git config`");
out:
	git_buf_dispose(&name);
	git_buf_dispose(&email);
	git_config_free(local);
	git_config_free(cfg);
	return error;
}

/* The first line of `message`, newline-terminated (caller frees). */
static char *first_line(const char *message)
{
	return est_strdup_printf("%.*s\n", (int)strcspn(message, "\n"), message);
}

/*
 * Before moving anything: is refs/heads/main where the caller expects
 * (NULL: unborn)? The compare-and-swap later is what makes it safe; this
 * only saves writing objects for a run that has already lost.
 */
static int moved_error(est_store *store, const git_oid *expected)
{
	char was[EST_STORE_OID_HEX + 1] = "(no commit)", now[EST_STORE_OID_HEX + 1];
	git_oid current;
	int error = git_reference_name_to_id(&current, store->repo, EST_STORE_BRANCH);

	if (error < 0 && error != GIT_ENOTFOUND)
		return est_store__git_error(store, EST_ERROR, "reading " EST_STORE_BRANCH);
	if (error == 0 ? (expected && git_oid_equal(&current, expected)) : !expected)
		return 0;
	if (expected)
		git_oid_tostr(was, sizeof(was), expected);
	if (error == 0)
		git_oid_tostr(now, sizeof(now), &current);
	else
		strcpy(now, "(no commit)");
	return est_error_set(EST_ETEMPFAIL,
			     "%s: " EST_STORE_BRANCH " moved from %s to %s while this run "
			     "worked; run again",
			     store->path, was, now);
}

/*
 * Does refs/tags/<tag> exist? *same is set if it leads to `commit`; if it
 * leads elsewhere, EST_EINVAL.
 */
static int tag_check(int *same, est_store *store, const char *ref_name, const char *tag,
		     const git_oid *commit)
{
	git_reference *ref = NULL;
	git_object *target = NULL;
	char there[EST_STORE_OID_HEX + 1], want[EST_STORE_OID_HEX + 1];
	int error;

	*same = 0;
	if ((error = git_reference_lookup(&ref, store->repo, ref_name)) == GIT_ENOTFOUND)
		return 0;
	if (error < 0)
		return est_store__git_error(store, EST_ERROR, ref_name);
	if (git_reference_peel(&target, ref, GIT_OBJECT_COMMIT) == 0 &&
	    git_oid_equal(git_object_id(target), commit)) {
		*same = 1;
	} else {
		git_oid_tostr(want, sizeof(want), commit);
		if (target)
			git_oid_tostr(there, sizeof(there), git_object_id(target));
		else
			strcpy(there, "something that is not a commit");
		error = est_error_set(EST_EINVAL,
				      "%s: tag %s already points to %s, not to %s (a step "
				      "is tagged once); if that tag is wrong, remove it with "
				      "`git -C %s tag -d %s` and run again",
				      store->path, tag, there, want, store->path, tag);
	}
	git_object_free(target);
	git_reference_free(ref);
	return error;
}

void est_store_set_signer(est_store *store, est_store_sign_fn sign, void *payload)
{
	store->sign = sign;
	store->sign_payload = payload;
}

/*
 * A signed annotated tag, as `git tag -s` writes it: the tag object's text
 * with the armored signature of everything before it appended. libgit2
 * has no call for that, so the object is written through the object
 * database.
 */
static int write_signed_tag(git_oid *tag_oid, est_store *store, const char *tag, git_commit *commit,
			    const git_signature *sig, const char *subject)
{
	char hex[GIT_OID_HEXSZ + 1], *text = NULL, *armored = NULL, *object = NULL;
	int offset = sig->when.offset, error;
	git_odb *odb = NULL;

	git_oid_tostr(hex, sizeof(hex), git_commit_id(commit));
	text = est_strdup_printf("object %s\ntype commit\ntag %s\ntagger %s <%s> %lld %c%02d%02d\n\n%s\n",
				 hex, tag, sig->name, sig->email, (long long)sig->when.time,
				 offset < 0 ? '-' : '+', abs(offset) / 60, abs(offset) % 60, subject);
	if (!text)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = store->sign(&armored, text, strlen(text), store->sign_payload)) < 0)
		goto out;
	if (!(object = est_strdup_printf("%s%s", text, armored))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (git_repository_odb(&odb, store->repo) < 0 ||
	    git_odb_write(tag_oid, odb, object, strlen(object), GIT_OBJECT_TAG) < 0)
		error = est_store__git_error(store, EST_ERROR, "writing the signed tag");
	else
		error = est_store__pack_add(store, tag_oid);
out:
	git_odb_free(odb);
	free(object);
	free(armored);
	free(text);
	return error;
}

/* A signed commit, as `git commit -S` writes it: the signature in its gpgsig header. */
static int write_signed_commit(git_oid *out, est_store *store, const git_signature *sig,
			       const char *message, const git_tree *tree, size_t nparents,
			       const git_commit **parents)
{
	git_buf buf = {0};
	char *armored = NULL;
	int error = 0;

	if (git_commit_create_buffer(&buf, store->repo, sig, sig, NULL, message, tree, nparents,
				     parents) < 0)
		return est_store__git_error(store, EST_ERROR, "writing the commit");
	if ((error = store->sign(&armored, buf.ptr, buf.size, store->sign_payload)) == 0 &&
	    git_commit_create_with_signature(out, store->repo, buf.ptr, armored, "gpgsig") < 0)
		error = est_store__git_error(store, EST_ERROR, "writing the signed commit");
	free(armored);
	git_buf_dispose(&buf);
	return error;
}

/*
 * Write the annotated tag object for `commit` into *tag_oid, unless
 * refs/tags/<tag> already leads to `commit` (*exists set, nothing written).
 * Leading elsewhere: EST_EINVAL. Only the object: the ref comes later.
 */
static int prepare_tag(git_oid *tag_oid, int *exists, est_store *store, const char *ref_name,
		       const char *tag, git_commit *commit, const git_signature *sig,
		       const char *subject)
{
	int error;

	if ((error = tag_check(exists, store, ref_name, tag, git_commit_id(commit))) < 0 ||
	    *exists)
		return error;
	if (store->sign)
		error = write_signed_tag(tag_oid, store, tag, commit, sig, subject);
	else if (git_tag_annotation_create(tag_oid, store->repo, tag, (const git_object *)commit,
					   sig, subject) < 0)
		error = est_store__git_error(store, EST_ERROR, "writing the tag");
	if (error == 0 && !store->sign)
		error = est_store__pack_add(store, tag_oid);
	if (error == 0)
		est_fault_point("store-after-tag-object");
	return error;
}

/*
 * Point refs/tags/<tag> at tag object `tag_oid`, unless a tag of that name
 * appeared meanwhile leading to the same commit.
 */
static int write_tag_ref(est_store *store, const char *ref_name, const char *tag,
			 const git_oid *tag_oid, const git_oid *commit)
{
	git_reference *ref = NULL;
	int error, same;

	est_fault_point("store-before-tag-ref");
	est_store__forget_revs(store);
	error = git_reference_create(&ref, store->repo, ref_name, tag_oid, 0, NULL);
	git_reference_free(ref);
	if (error == 0)
		est_fault_point("store-after-tag-ref");
	if (error == GIT_EEXISTS) {
		if ((error = tag_check(&same, store, ref_name, tag, commit)) < 0)
			return error;
		return 0;
	}
	if (error < 0)
		return est_store__git_error(store, EST_EIO, ref_name);
	return 0;
}

/*
 * A copy, in memory, of what `index` says was checked out last (merge
 * conflict stages left out): checkout's baseline. A copy because checkout
 * rewrites the repository's index while it reads the baseline.
 */
static int index_snapshot(git_index **out, est_store *store, git_index *index)
{
	git_index *copy = NULL;
	size_t i, n = git_index_entrycount(index);

	if (git_index_new(&copy) < 0)
		return est_store__git_error(store, EST_EIO, "copying the index");
	for (i = 0; i < n; i++) {
		const git_index_entry *entry = git_index_get_byindex(index, i);

		if (entry && git_index_entry_stage(entry) == 0 && git_index_add(copy, entry) < 0) {
			git_index_free(copy);
			return est_store__git_error(store, EST_EIO, "copying the index");
		}
	}
	*out = copy;
	return 0;
}

/*
 * <git dir>/estafette-worktree names the commit the work tree was last
 * brought to in full. Written after a checkout succeeds, so a process
 * killed mid-checkout leaves it naming an older commit, and the next
 * est_store_sync() does the full repair; otherwise that repair is skipped.
 */
static char *synced_path(const est_store *store)
{
	return est_strdup_printf("%s/estafette-worktree", git_repository_commondir(store->repo));
}

static void mark_synced(const est_store *store, const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 2], *path = synced_path(store);

	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, commit);
	strcat(hex, "\n");
	/*
	 * Only a hint that saves work: if it cannot be written, the next sync
	 * repairs in full. Not fsynced: checkout does not fsync the work tree
	 * either, so after a power cut a durable hint would be no truer.
	 */
	if (path && est_file_write_hint(path, hex, strlen(hex), 0644) < 0)
		est_error_clear();
	free(path);
}

static int is_synced(const est_store *store, const git_oid *commit)
{
	char hex[GIT_OID_HEXSZ + 1], *path = synced_path(store), *text = NULL;
	size_t len;
	int synced = 0;

	git_oid_tostr(hex, sizeof(hex), commit);
	if (path && est_file_read(&text, &len, path, 128) == 0)
		synced = strncmp(text, hex, GIT_OID_HEXSZ) == 0;
	est_error_clear();
	free(text);
	free(path);
	return synced;
}

/*
 * What the checkout after a commit does: nothing (a bare repository, or
 * HEAD on another branch: the work tree belongs to it), the changed paths
 * only (the work tree was last brought to the parent in full), or all.
 */
enum checkout_plan { CHECKOUT_NONE, CHECKOUT_PATHS, CHECKOUT_FULL };

static int plan_checkout(enum checkout_plan *plan, est_store *store, const git_commit *parent)
{
	git_reference *head = NULL;

	*plan = CHECKOUT_NONE;
	if (git_repository_is_bare(store->repo))
		return 0;
	if (git_reference_lookup(&head, store->repo, "HEAD") < 0)
		return est_store__git_error(store, EST_EIO, "reading HEAD");
	if (git_reference_type(head) == GIT_REFERENCE_SYMBOLIC &&
	    strcmp(git_reference_symbolic_target(head), EST_STORE_BRANCH) == 0)
		*plan = parent && is_synced(store, git_commit_id(parent)) ? CHECKOUT_PATHS :
									  CHECKOUT_FULL;
	git_reference_free(head);
	return 0;
}

/*
 * Before the branch moves: no path the planned checkout writes or removes
 * may be a link in the work tree, or lie behind one (guard.c).
 */
static int guard_checkout(est_store *store, enum checkout_plan plan, const git_tree *base,
			  const git_tree *tree, const est_store_change *changes, size_t count)
{
	git_index *index = NULL;
	int error;

	if (plan == CHECKOUT_PATHS)
		return est_store__guard_paths(store, base, changes, count);
	if (plan == CHECKOUT_NONE)
		return 0;
	/* An index that cannot be read fails the checkout itself, which then writes nothing. */
	if (git_repository_index(&index, store->repo) < 0 || git_index_read(index, 0) < 0) {
		git_error_clear();
		git_index_free(index);
		index = NULL;
	}
	error = est_store__guard_full(store, tree, index);
	git_index_free(index);
	return error;
}

/*
 * A checkout of the changed paths only: they are checkout's pathspec (so
 * only they are looked at, not the rest of a long history) and the
 * parent's tree its baseline.
 */
static int fast_checkout(git_checkout_options *opts, git_tree **baseline, est_store *store,
			 const git_commit *parent, const est_store_change *changes, size_t count)
{
	if (git_commit_tree(baseline, parent) < 0)
		return est_store__git_error(store, EST_EIO, "reading the parent's tree");
	if (!(opts->paths.strings = calloc(count ? count : 1, sizeof(*opts->paths.strings))))
		return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	for (size_t i = 0; i < count; i++)
		opts->paths.strings[i] = (char *)changes[i].path; /* checkout only reads them */
	opts->paths.count = count;
	opts->baseline = *baseline;
	return 0;
}

/*
 * The baseline of a full checkout: what the index says was checked out
 * last, not the parent commit, so that files it tracked which the new tree
 * lacks are removed even if an earlier run died before its own checkout
 * (or HEAD was on another branch meanwhile).
 */
static int full_checkout(git_checkout_options *opts, git_index **baseline, est_store *store)
{
	git_index *index = NULL;
	int error = 0;

	if (git_repository_index(&index, store->repo) < 0 || git_index_read(index, 0) < 0)
		error = est_store__git_error(store, EST_EIO, "reading the index");
	else if ((error = index_snapshot(baseline, store, index)) == 0)
		opts->baseline_index = *baseline;
	git_index_free(index);
	return error;
}

/*
 * Bring the work tree and index to `commit` as `plan` says: only the paths
 * of `changes` when the work tree is known to be at `parent`, else in full.
 */
static int sync_work_tree(est_store *store, git_commit *commit, const git_commit *parent,
			  enum checkout_plan plan, const est_store_change *changes, size_t count)
{
	git_checkout_options opts;
	git_index *baseline_index = NULL;
	git_tree *baseline_tree = NULL;
	int error = 0;

	if (plan == CHECKOUT_NONE)
		return 0;
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	if (plan == CHECKOUT_PATHS ?
	    (error = fast_checkout(&opts, &baseline_tree, store, parent, changes, count)) < 0 :
	    (error = full_checkout(&opts, &baseline_index, store)) < 0)
		goto out;
	/*
	 * Forced: a run's commit is the truth; untracked files are not touched.
	 * Literal paths: libgit2 then limits its walks of the index, the tree
	 * and the work tree to them (a pattern would have it walk everything).
	 */
	opts.checkout_strategy = GIT_CHECKOUT_FORCE | GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH;
	est_fault_point("store-before-checkout");
	if (git_checkout_tree(store->repo, (const git_object *)commit, &opts) < 0) {
		error = est_store__git_error(store, EST_EIO, "updating the work tree");
	} else {
		est_fault_point("store-after-checkout");
		mark_synced(store, git_commit_id(commit));
	}
out:
	free(opts.paths.strings);
	git_index_free(baseline_index);
	git_tree_free(baseline_tree);
	return error;
}

int est_store_sync(est_store *store)
{
	git_reference *head = NULL;
	git_commit *commit = NULL;
	git_tree *tree = NULL;
	git_index *index = NULL, *baseline = NULL;
	git_checkout_options opts;
	int error = 0;

	if (git_repository_is_bare(store->repo))
		return 0;
	if (git_reference_lookup(&head, store->repo, "HEAD") < 0)
		return est_store__git_error(store, EST_EIO, "reading HEAD");
	if (git_reference_type(head) != GIT_REFERENCE_SYMBOLIC ||
	    strcmp(git_reference_symbolic_target(head), EST_STORE_BRANCH) != 0)
		goto out;
	if (git_revparse_single((git_object **)&commit, store->repo, EST_STORE_BRANCH "^{commit}") < 0) {
		est_error_clear();
		goto out; /* unborn: nothing to check out */
	}
	if (is_synced(store, git_commit_id(commit)))
		goto out;
	if (git_commit_tree(&tree, commit) < 0) {
		error = est_store__git_error(store, EST_EIO, "reading " EST_STORE_BRANCH "'s tree");
		goto out;
	}
	git_checkout_options_init(&opts, GIT_CHECKOUT_OPTIONS_VERSION);
	opts.checkout_strategy = GIT_CHECKOUT_FORCE;
	/*
	 * The baseline is what the index says was checked out last (a killed
	 * checkout writes the index last, so it is never ahead of the files),
	 * as in sync_work_tree: files main no longer has are removed, not left
	 * behind untracked. An index that cannot be read is rebuilt from main.
	 * Neither main's tree nor the work tree may hold a link (guard.c).
	 */
	if (git_repository_index(&index, store->repo) < 0 || git_index_read(index, 0) < 0 ||
	    index_snapshot(&baseline, store, index) < 0) {
		est_error_clear();
		git_error_clear();
	}
	if ((error = est_store__guard_tree(NULL, store, tree, EST_STORE_BRANCH, git_commit_id(commit),
					   1)) < 0 ||
	    (error = est_store__guard_full(store, tree, baseline)) < 0)
		goto out;
	if (baseline) {
		opts.baseline_index = baseline;
		if (git_checkout_tree(store->repo, (const git_object *)commit, &opts) == 0) {
			mark_synced(store, git_commit_id(commit));
			goto out;
		}
	}
	est_error_clear();
	opts.baseline_index = NULL;
	if ((!index && git_repository_index(&index, store->repo) < 0) ||
	    git_index_read_tree(index, tree) < 0 || git_index_write(index) < 0 ||
	    git_checkout_index(store->repo, index, &opts) < 0)
		error = est_store__git_error(store, EST_EIO, "bringing the work tree to " EST_STORE_BRANCH);
	else
		mark_synced(store, git_commit_id(commit));
out:
	git_index_free(baseline);
	git_index_free(index);
	git_tree_free(tree);
	git_commit_free(commit);
	git_reference_free(head);
	return error;
}

/* Check every argument of est_store_commit() before writing anything. */
static int check_commit_args(git_oid *expected, est_store *store, const char *expected_head,
			     const est_store_change *changes, size_t count,
			     const char *message, const char *tag)
{
	size_t i;
	int error;

	if (!message || !*message)
		return est_error_set(EST_EINVAL, "%s: a commit needs a message saying what "
				     "happened", store->path);
	if (tag && (error = est_store__check_tag(store, tag)) < 0)
		return error;
	for (i = 0; i < count; i++)
		if ((error = est_store__check_path(store, changes[i].path, "change path")) < 0)
			return error;
	if (expected_head &&
	    (error = est_store__parse_oid(expected, store, expected_head, "expected head")) < 0)
		return error;
	return moved_error(store, expected_head ? expected : NULL);
}

/* Move the branch from `expected` (NULL: unborn) to `commit`, or ETEMPFAIL. */
static int move_branch(est_store *store, const git_oid *expected, const git_oid *commit,
		       const char *subject)
{
	git_reference *ref = NULL;
	char *log = est_strdup_printf("estafette: %s", subject), message[1024];
	int error, failure;

	if (!log)
		return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	est_store__forget_revs(store);
	if (expected)
		error = git_reference_create_matching(&ref, store->repo, EST_STORE_BRANCH,
						      commit, 1, expected, log);
	else
		error = git_reference_create(&ref, store->repo, EST_STORE_BRANCH, commit, 0, log);
	git_reference_free(ref);
	free(log);
	if (error == 0)
		return 0;
	if (error == GIT_ELOCKED)
		return est_error_set(EST_ETEMPFAIL,
				     "%s: another process is moving " EST_STORE_BRANCH
				     " right now; run again",
				     store->path);
	/* The failure's class and message, before moved_error's own calls replace libgit2's. */
	failure = est_store__git_error(store, EST_ERROR, "moving " EST_STORE_BRANCH);
	snprintf(message, sizeof(message), "%s", est_error_message());
	/* Lost the race: say where the branch went. */
	if ((error = moved_error(store, expected)) < 0)
		return error;
	return est_error_set(failure, "%s", message);
}

int est_store_commit(char out_oid[EST_STORE_OID_HEX + 1], est_store *store,
		     const char *expected_head, const est_store_change *changes,
		     size_t count, const char *message, const char *tag)
{
	git_oid expected, commit_oid, tag_oid;
	git_commit *parent = NULL, *commit = NULL;
	git_tree *base = NULL, *tree = NULL;
	git_signature *sig = NULL;
	const git_commit *parents[1] = {NULL};
	char *text = NULL, *subject = NULL, *tag_ref = NULL;
	enum checkout_plan plan = CHECKOUT_NONE;
	size_t mlen;
	int error, tag_exists = 0;

	if (store->pinned[0])
		return est_error_set(EST_EINVAL, "%s: this handle reads main as of commit %s "
				     "(est_store_pin) and commits nothing", store->path, store->pinned);

	out_oid[0] = '\0';
	if ((error = check_commit_args(&expected, store, expected_head, changes, count,
				       message, tag)) < 0)
		return error;
	if (expected_head) {
		if (git_commit_lookup(&parent, store->repo, &expected) < 0 ||
		    git_commit_tree(&base, parent) < 0) {
			error = est_store__git_error(store, EST_EINVAL, "expected head");
			goto out;
		}
		parents[0] = parent;
	}
	mlen = strlen(message);
	text = est_strdup_printf("%s%s", message, message[mlen - 1] == '\n' ? "" : "\n");
	subject = first_line(message);
	tag_ref = tag ? est_strdup_printf("refs/tags/%s", tag) : NULL;
	if (!text || !subject || (tag && !tag_ref)) {
		error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
		goto out;
	}
	/*
	 * The new tree is checked as any revision read, though its changes are
	 * plain files: a parent that held a link would pass it on. Then the
	 * work tree, while nothing has moved yet.
	 */
	if ((error = make_tree(&tree, store, base, changes, count)) < 0 ||
	    (error = est_store__guard_tree(NULL, store, tree, "the new commit", NULL, 0)) < 0 ||
	    (error = plan_checkout(&plan, store, parent)) < 0 ||
	    (error = guard_checkout(store, plan, base, tree, changes, count)) < 0 ||
	    (error = make_signature(&sig, store)) < 0)
		goto out;
	if (store->sign) {
		if ((error = write_signed_commit(&commit_oid, store, sig, text, tree, parent ? 1 : 0,
						 parents)) < 0)
			goto out;
	} else if (git_commit_create(&commit_oid, store->repo, NULL, sig, sig, NULL, text, tree,
				     parent ? 1 : 0, parents) < 0) {
		error = est_store__git_error(store, EST_ERROR, "writing the commit");
		goto out;
	}
	if ((error = est_store__pack_add(store, &commit_oid)) < 0)
		goto out;
	est_fault_point("store-after-commit");
	if (git_commit_lookup(&commit, store->repo, &commit_oid) < 0) {
		error = est_store__git_error(store, EST_ERROR, "reading back the commit");
		goto out;
	}
	if (tag && (error = prepare_tag(&tag_oid, &tag_exists, store, tag_ref, tag, commit,
				       sig, subject)) < 0)
		goto out;
	if ((error = est_store__pack_write(store)) < 0)
		goto out;
	est_fault_point("store-before-ref");
	if ((error = move_branch(store, expected_head ? &expected : NULL, &commit_oid,
				 subject)) < 0)
		goto out;
	est_fault_point("store-after-ref");
	/* The step is committed: from here on, report it even on error. */
	git_oid_tostr(out_oid, EST_STORE_OID_HEX + 1, &commit_oid);
	/* main's tree now, checked above: the base of the next check (cannot fail) */
	(void)est_store__guard_tree(NULL, store, tree, EST_STORE_BRANCH, &commit_oid, 1);
	if (tag && !tag_exists &&
	    (error = write_tag_ref(store, tag_ref, tag, &tag_oid, &commit_oid)) < 0) {
		est_error_prefix("commit %s is on " EST_STORE_BRANCH " but its tag is "
				 "missing (est_store_tag() adds it)", out_oid);
		goto out;
	}
	if ((error = sync_work_tree(store, commit, parent, plan, changes, count)) < 0) {
		est_error_prefix("commit %s is on " EST_STORE_BRANCH " but the work tree "
				 "lags; run `git -C %s checkout -f main`",
				 out_oid, store->path);
		goto out;
	}
	/* Upkeep only: packs left unmerged now are merged after a later commit. */
	if (est_store__pack_merge(store) < 0)
		est_error_clear();
out:
	free(text);
	free(subject);
	free(tag_ref);
	git_signature_free(sig);
	git_tree_free(tree);
	git_tree_free(base);
	git_commit_free(commit);
	git_commit_free(parent);
	return error;
}

int est_store_tag(est_store *store, const char *tag, const char *commit,
		  const char *message)
{
	git_oid commit_oid, tag_oid;
	git_commit *target = NULL;
	git_signature *sig = NULL;
	char *subject = NULL, *tag_ref = NULL;
	int error, exists = 0;

	if ((error = est_store__check_tag(store, tag)) < 0 ||
	    (error = est_store__parse_oid(&commit_oid, store, commit, "commit")) < 0)
		return error;
	if (message && !*message)
		return est_error_set(EST_EINVAL, "%s: tag %s needs a message", store->path, tag);
	if (git_commit_lookup(&target, store->repo, &commit_oid) < 0)
		return est_store__git_error(store, EST_EINVAL, commit);
	/* The commit's own first line, as est_store_commit() tags: a repaired tag is the same object. */
	if (!message && !(message = git_commit_message(target)))
		message = tag;
	subject = first_line(message);
	tag_ref = est_strdup_printf("refs/tags/%s", tag);
	if (!subject || !tag_ref) {
		error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
		goto out;
	}
	if ((error = make_signature(&sig, store)) < 0 ||
	    (error = prepare_tag(&tag_oid, &exists, store, tag_ref, tag, target, sig,
				 subject)) < 0 ||
	    exists || (error = est_store__pack_write(store)) < 0)
		goto out;
	error = write_tag_ref(store, tag_ref, tag, &tag_oid, &commit_oid);
out:
	free(subject);
	free(tag_ref);
	git_signature_free(sig);
	git_commit_free(target);
	return error;
}
