/*
 * The history of main as an auditor reads it (store.h): the commits, what
 * each changes against its parent, and the SSH signatures of commits and
 * tags with the bytes they sign, as `git verify-commit` and `git
 * verify-tag` take them apart.
 */
#include <stdlib.h>
#include <string.h>

#include "store/store_private.h"
#include "util/error.h"
#include "util/util.h"

#define SSH_ARMOR_BEGIN "-----BEGIN SSH SIGNATURE-----"

static json_t *oid_json(const git_oid *oid)
{
	char hex[GIT_OID_HEXSZ + 1];

	git_oid_tostr(hex, sizeof(hex), oid);
	return json_string(hex);
}

/* {"commit", "subject", "parents", "time"} of one commit, or NULL when out of memory. */
static json_t *commit_entry(const git_commit *commit)
{
	const char *summary = git_commit_message(commit);
	json_t *entry, *parents = json_array();
	unsigned i;

	for (i = 0; parents && i < git_commit_parentcount(commit); i++)
		json_array_append_new(parents, oid_json(git_commit_parent_id(commit, i)));
	entry = json_pack("{s:o, s:s%, s:o, s:I}", "commit", oid_json(git_commit_id(commit)),
			  "subject", summary ? summary : "", summary ? strcspn(summary, "\n") : 0,
			  "parents", parents, "time", (json_int_t)git_commit_time(commit));
	return entry;
}

int est_store_log(json_t **out, est_store *store)
{
	git_revwalk *walk = NULL;
	git_commit *commit = NULL;
	json_t *list = json_array(), *entry;
	git_oid oid;
	int error = 0, step;

	if (!list)
		return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	if (git_revwalk_new(&walk, store->repo) < 0 ||
	    git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE) < 0) {
		error = est_store__git_error(store, EST_ERROR, "walking main");
		goto out;
	}
	if ((step = git_revwalk_push_ref(walk, EST_STORE_BRANCH)) < 0) {
		error = step == GIT_ENOTFOUND
			? est_error_set(EST_ENOTFOUND, "%s: " EST_STORE_BRANCH " has no commit", store->path)
			: est_store__git_error(store, EST_ERROR, "walking main");
		goto out;
	}
	while ((step = git_revwalk_next(&oid, walk)) == 0) {
		if (git_commit_lookup(&commit, store->repo, &oid) < 0) {
			error = est_store__git_error(store, EST_ERROR, "reading a commit of main");
			goto out;
		}
		entry = commit_entry(commit);
		git_commit_free(commit);
		commit = NULL;
		if (!entry || json_array_append_new(list, entry) < 0) {
			error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
			goto out;
		}
	}
	if (step != GIT_ITEROVER) {
		error = est_store__git_error(store, EST_ERROR, "walking main");
		goto out;
	}
	*out = list;
	list = NULL;
out:
	json_decref(list);
	git_revwalk_free(walk);
	return error;
}

/* The tree of commit `hex` into *out; `what` names it in messages. */
static int commit_tree(git_tree **out, est_store *store, const char *hex, const char *what)
{
	git_commit *commit = NULL;
	git_oid oid;
	int error;

	if ((error = est_store__parse_oid(&oid, store, hex, what)) < 0)
		return error;
	if (git_commit_lookup(&commit, store->repo, &oid) < 0)
		return est_error_set(EST_EINVAL, "%s: %s %s names no commit", store->path, what, hex);
	if (git_commit_tree(out, commit) < 0)
		error = est_store__git_error(store, EST_ERROR, "reading a commit's tree");
	git_commit_free(commit);
	return error;
}

int est_store_changes(json_t **out, est_store *store, const char *parent, const char *commit)
{
	static const char *const status[] = {
		[GIT_DELTA_ADDED] = "added", [GIT_DELTA_DELETED] = "deleted",
		[GIT_DELTA_MODIFIED] = "modified", [GIT_DELTA_TYPECHANGE] = "typechange",
	};
	git_tree *old_tree = NULL, *new_tree = NULL;
	git_diff *diff = NULL;
	json_t *list = NULL, *entry;
	size_t i, n;
	int error;

	if ((parent && (error = commit_tree(&old_tree, store, parent, "parent")) < 0) ||
	    (error = commit_tree(&new_tree, store, commit, "commit")) < 0)
		goto out;
	if (git_diff_tree_to_tree(&diff, store->repo, old_tree, new_tree, NULL) < 0) {
		error = est_store__git_error(store, EST_ERROR, "comparing two commits");
		goto out;
	}
	if (!(list = json_array())) {
		error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
		goto out;
	}
	n = git_diff_num_deltas(diff);
	for (i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		const git_diff_file *f = d->status == GIT_DELTA_DELETED ? &d->old_file : &d->new_file;
		const char *s = (size_t)d->status < sizeof(status) / sizeof(status[0]) && status[d->status]
			? status[d->status] : "other";

		entry = json_pack("{s:s, s:s, s:i}", "path", f->path, "status", s, "mode", (int)f->mode);
		if (!entry || json_array_append_new(list, entry) < 0) {
			error = est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
			goto out;
		}
	}
	*out = list;
	list = NULL;
out:
	json_decref(list);
	git_diff_free(diff);
	git_tree_free(new_tree);
	git_tree_free(old_tree);
	return error;
}

/* Copies of `len` bytes at `p` into a new NUL-terminated buffer, or NULL. */
static char *copy_bytes(const char *p, size_t len)
{
	char *copy = malloc(len + 1);

	if (copy) {
		memcpy(copy, p, len);
		copy[len] = '\0';
	}
	return copy;
}

/* A signature and the bytes it signs, handed out as new NUL-terminated copies. */
static int hand_out(char **sig_out, size_t *sig_len, char **data_out, size_t *data_len, est_store *store,
		    const char *sig, size_t slen, const char *data, size_t dlen)
{
	char *s = copy_bytes(sig, slen), *d = copy_bytes(data, dlen);

	if (!s || !d) {
		free(s);
		free(d);
		return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	}
	*sig_out = s;
	*sig_len = slen;
	*data_out = d;
	*data_len = dlen;
	return 0;
}

int est_store_commit_signature(char **sig_out, size_t *sig_len, char **data_out, size_t *data_len,
			       est_store *store, const char *commit)
{
	git_buf sig = {0}, data = {0};
	git_oid oid;
	int error;

	if ((error = est_store__parse_oid(&oid, store, commit, "commit")) < 0)
		return error;
	if ((error = git_commit_extract_signature(&sig, &data, store->repo, &oid, NULL)) == GIT_ENOTFOUND) {
		/* no gpgsig header, or no such commit */
		git_commit *c = NULL;
		if (git_commit_lookup(&c, store->repo, &oid) < 0)
			error = est_error_set(EST_EINVAL, "%s: commit %s names no commit", store->path, commit);
		else
			error = 0;
		git_commit_free(c);
		*sig_out = NULL;
		*sig_len = 0;
		*data_out = NULL;
		*data_len = 0;
		goto out;
	}
	if (error < 0) {
		error = est_store__git_error(store, EST_ERROR, "reading a commit's signature");
		goto out;
	}
	error = hand_out(sig_out, sig_len, data_out, data_len, store, sig.ptr, sig.size, data.ptr, data.size);
out:
	git_buf_dispose(&data);
	git_buf_dispose(&sig);
	return error;
}

int est_store_tag_signature(char **sig_out, size_t *sig_len, char **data_out, size_t *data_len,
			    est_store *store, const char *tag)
{
	git_reference *ref = NULL;
	git_odb *odb = NULL;
	git_odb_object *obj = NULL;
	char *name = NULL;
	const char *text, *at = NULL;
	size_t len, i;
	int error;

	*sig_out = *data_out = NULL;
	*sig_len = *data_len = 0;
	if ((error = est_store__check_tag(store, tag)) < 0)
		return error;
	if (!(name = est_strdup_printf("refs/tags/%s", tag)))
		return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
	if ((error = git_reference_lookup(&ref, store->repo, name)) < 0) {
		error = error == GIT_ENOTFOUND
			? est_error_set(EST_ENOTFOUND, "%s: no tag \"%s\"", store->path, tag)
			: est_store__git_error(store, EST_ERROR, name);
		goto out;
	}
	if (git_reference_type(ref) != GIT_REFERENCE_DIRECT ||
	    git_repository_odb(&odb, store->repo) < 0 ||
	    git_odb_read(&obj, odb, git_reference_target(ref)) < 0) {
		error = est_store__git_error(store, EST_ERROR, name);
		goto out;
	}
	if (git_odb_object_type(obj) != GIT_OBJECT_TAG)
		goto out; /* a lightweight tag: no tag object, no signature */
	text = git_odb_object_data(obj);
	len = git_odb_object_size(obj);
	/* As git does (parse_signed_buffer): the last line that opens a signature. */
	for (i = 0; i < len; i = (size_t)((const char *)memchr(text + i, '\n', len - i) - text) + 1) {
		if (len - i >= strlen(SSH_ARMOR_BEGIN) && memcmp(text + i, SSH_ARMOR_BEGIN,
								 strlen(SSH_ARMOR_BEGIN)) == 0)
			at = text + i;
		if (!memchr(text + i, '\n', len - i))
			break;
	}
	if (!at)
		goto out; /* an annotated tag without an SSH signature */
	error = hand_out(sig_out, sig_len, data_out, data_len, store, at, len - (size_t)(at - text), text,
			 (size_t)(at - text));
out:
	git_odb_object_free(obj);
	git_odb_free(odb);
	git_reference_free(ref);
	free(name);
	return error;
}
