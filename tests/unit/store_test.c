/*
 * The game repository (docs/protocol.md "The repository"), checked against the
 * real git: every repository the store writes must pass `git fsck --strict`,
 * and what git sees (log, tags, work tree, status) must match.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <git2.h>

#include "store/store.h"
#include "util/error.h"
#include "util/util.h"

static char top[] = "/tmp/est-store-test-XXXXXX";

/* Run a shell command; its exit status (-1 if it did not exit). */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int status;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	status = system(cmd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * A shell command's stdout, trailing newlines cut, in one of four static
 * buffers used in turn (so two results can be compared in one assert).
 */
static const char *out_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *out_of(const char *fmt, ...)
{
	static char bufs[4][8192];
	static unsigned turn;
	char *buf = bufs[turn++ % 4];
	char cmd[4096];
	va_list ap;
	size_t n;
	FILE *p;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(buf, 1, sizeof(bufs[0]) - 1, p);
	pclose(p);
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return buf;
}

/* A fresh path under the test folder (static buffer per call site is fine). */
static char *game_path(const char *name)
{
	char *path = est_strdup_printf("%s/%s", top, name);

	assert_non_null(path);
	return path;
}

static int setup_all(void **state)
{
	char *home;

	(void)state;
	if (!mkdtemp(top))
		return -1;
	home = est_strdup_printf("%s/home", top);
	if (!home || mkdir(home, 0700) < 0)
		return -1;
	/* Keep the tester's own git config out: libgit2 and git read $HOME. */
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_AUTHOR_NAME", "Other Run", 1);
	setenv("GIT_AUTHOR_EMAIL", "other@example.org", 1);
	setenv("GIT_COMMITTER_NAME", "Other Run", 1);
	setenv("GIT_COMMITTER_EMAIL", "other@example.org", 1);
	unsetenv("ESTAFETTE_COMMIT_TIME");
	umask(022);
	free(home);
	return 0;
}

static int teardown_all(void **state)
{
	(void)state;
	return sh("rm -rf '%s'", top) == 0 ? 0 : -1;
}

#define CHANGE(p, s) {(p), (s), sizeof(s) - 1}
#define DELETE(p) {(p), NULL, 0}

static const est_store_change step0[] = {
	CHANGE("game.json", "{\"id\": \"ne-001\"}\n"),
	CHANGE("keys/allowed_signers", "france namespaces=\"estafette-orders\" ssh-ed25519 AAAA\n"),
	CHANGE("rules/map.json", "{\"areas\": []}\n"),
	CHANGE("state.json", "{\"step\": 0}\n"),
	CHANGE("orders/france.json", "{\"step\": 1}\n"),
	CHANGE("orders/france.json.sig", "-----BEGIN SSH SIGNATURE-----\n"),
	CHANGE("turns/0000/manifest.json", "{\"orders\": []}\n"),
};
#define STEP0_COUNT (sizeof(step0) / sizeof(step0[0]))

static const est_store_change step1[] = {
	DELETE("orders"),
	CHANGE("state.json", "{\"step\": 1}\n"),
	CHANGE("turns/0001/manifest.json", "{\"orders\": [\"france\"]}\n"),
	CHANGE("turns/0001/orders/france.json", "{\"step\": 1}\n"),
};
#define STEP1_COUNT (sizeof(step1) / sizeof(step1[0]))

/* Assert that `store` holds `path` with exactly `want` at `rev`. */
static void assert_file(est_store *store, const char *rev, const char *path, const char *want)
{
	char *data = NULL;
	size_t len = 0;

	assert_int_equal(est_store_read(&data, &len, store, rev, path), 0);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(data, want, len);
	assert_int_equal(data[len], '\0');
	free(data);
}

/* Assert the entries of `dir` at `rev`, given as one "a b c" string. */
static void assert_list(est_store *store, const char *rev, const char *dir, const char *want)
{
	char **names = NULL, joined[1024] = "";
	size_t i, n = 99;

	assert_int_equal(est_store_list(&names, &n, store, rev, dir), 0);
	for (i = 0; i < n; i++) {
		if (i)
			strcat(joined, " ");
		strcat(joined, names[i]);
	}
	assert_null(names[n]);
	assert_string_equal(joined, want);
	est_store_list_free(names);
}

/* A new repository with a work tree at top/name and step 0 committed. */
static est_store *game_at_step0(const char *name, char oid[EST_STORE_OID_HEX + 1])
{
	char *path = game_path(name);
	est_store *store = NULL;

	assert_int_equal(est_store_init(&store, path), 0);
	assert_int_equal(est_store_commit(oid, store, NULL, step0, STEP0_COUNT,
					  "step 0: set-up\n\nEstafette-Step: 0\n", "step-0000"),
			 0);
	free(path);
	return store;
}

/* The work tree file `rel` of `store`, or NULL if it does not exist. */
static char *work_file(est_store *store, const char *rel, size_t *len)
{
	char *path = est_strdup_printf("%s/%s", est_store_path(store), rel), *data = NULL;

	assert_non_null(path);
	if (est_file_read(&data, len, path, 0) < 0)
		data = NULL;
	free(path);
	return data;
}

static void test_init_then_first_commit_and_tag(void **state)
{
	char *path = game_path("first"), head[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	char target[EST_STORE_OID_HEX + 1];
	est_store *store = NULL;
	size_t i, len;
	char *data;

	(void)state;
	assert_int_equal(est_store_init(&store, path), 0);
	assert_string_equal(out_of("git -C %s symbolic-ref HEAD", path), "refs/heads/main");
	assert_int_equal(est_store_head(head, store), EST_ENOTFOUND);

	assert_int_equal(est_store_commit(oid, store, NULL, step0, STEP0_COUNT,
					  "step 0: set-up\n\nEstafette-Step: 0\n", "step-0000"),
			 0);
	assert_int_equal(strlen(oid), EST_STORE_OID_HEX);
	assert_int_equal(est_store_head(head, store), 0);
	assert_string_equal(head, oid);
	assert_string_equal(out_of("git -C %s rev-parse main", path), oid);
	assert_int_equal(est_store_tag_target(target, store, "step-0000"), 0);
	assert_string_equal(target, oid);

	assert_int_equal(sh("git -C %s fsck --strict --no-progress --no-dangling 2>&1", path), 0);
	assert_string_equal(out_of("git -C %s log --oneline | wc -l", path), "1");
	assert_string_equal(out_of("git -C %s cat-file -t step-0000", path), "tag");
	assert_string_equal(out_of("git -C %s tag -l --format='%%(contents)' step-0000", path),
			    "step 0: set-up");
	assert_string_equal(out_of("git -C %s log -1 --format=%%B main", path),
			    "step 0: set-up\n\nEstafette-Step: 0");
	assert_string_equal(out_of("git -C %s log -1 --format='%%an <%%ae>|%%cn <%%ce>'", path),
			    "estafette <estafette@localhost>|estafette <estafette@localhost>");
	assert_string_equal(out_of("git -C %s ls-tree -r --format='%%(objectmode)' main | sort -u",
				   path),
			    "100644");

	/* The work tree and index match the commit. */
	for (i = 0; i < STEP0_COUNT; i++) {
		data = work_file(store, step0[i].path, &len);
		assert_non_null(data);
		assert_int_equal(len, step0[i].len);
		assert_memory_equal(data, step0[i].data, len);
		free(data);
		assert_file(store, NULL, step0[i].path, step0[i].data);
	}
	assert_string_equal(out_of("git -C %s status --porcelain", path), "");
	est_store_free(store);

	/* And a new handle sees the same. */
	assert_int_equal(est_store_open(&store, path), 0);
	assert_string_equal(est_store_path(store), path);
	assert_file(store, "step-0000", "state.json", "{\"step\": 0}\n");
	est_store_free(store);
	free(path);
}

static void test_second_commit_deletes_folder_and_adds_files(void **state)
{
	char first[EST_STORE_OID_HEX + 1], second[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("second", first);
	const char *path = est_store_path(store);
	char *data = NULL;
	size_t len;

	(void)state;
	assert_int_equal(est_store_commit(second, store, first, step1, STEP1_COUNT,
					  "step 1: France moves\n\nEstafette-Step: 1\n", "step-0001"),
			 0);
	assert_string_not_equal(first, second);
	assert_string_equal(out_of("git -C %s rev-parse main~1", path), first);

	/* Read back at the branch, a tag and a hex id. */
	assert_file(store, NULL, "state.json", "{\"step\": 1}\n");
	assert_file(store, "main", "state.json", "{\"step\": 1}\n");
	assert_file(store, "step-0001", "turns/0001/orders/france.json", "{\"step\": 1}\n");
	assert_file(store, "step-0000", "state.json", "{\"step\": 0}\n");
	assert_file(store, first, "state.json", "{\"step\": 0}\n");
	assert_file(store, first, "orders/france.json.sig", "-----BEGIN SSH SIGNATURE-----\n");
	assert_file(store, "main~1", "orders/france.json", "{\"step\": 1}\n");
	assert_int_equal(est_store_read(&data, &len, store, "main", "orders/france.json"),
			 EST_ENOTFOUND);
	assert_null(data);
	assert_int_equal(est_store_read(&data, &len, store, "step-0009", "state.json"),
			 EST_ENOTFOUND);
	assert_int_equal(est_store_read(&data, &len, store, NULL, "turns"), EST_EINVAL);

	/* Listings in tree order; a missing folder is empty. */
	assert_list(store, NULL, "", "game.json keys rules state.json turns");
	assert_list(store, "step-0000", NULL, "game.json keys orders rules state.json turns");
	assert_list(store, "step-0000", "orders", "france.json france.json.sig");
	assert_list(store, "main", "turns", "0000 0001");
	assert_list(store, "main", "turns/0001", "manifest.json orders");
	assert_list(store, "main", "orders", "");
	{
		char **names = NULL;
		size_t n;

		assert_int_equal(est_store_list(&names, &n, store, NULL, "state.json"), EST_EINVAL);
		assert_int_equal(est_store_list(&names, &n, store, "nope", ""), EST_ENOTFOUND);
	}

	/* Object ids, files and folders, as git rev-parse gives them. */
	{
		char id[EST_STORE_OID_HEX + 1];

		assert_int_equal(est_store_id(id, store, NULL, "state.json"), 0);
		assert_string_equal(id, out_of("git -C %s rev-parse main:state.json", path));
		assert_int_equal(est_store_id(id, store, "step-0000", "orders"), 0);
		assert_string_equal(id, out_of("git -C %s rev-parse step-0000:orders", path));
		assert_int_equal(est_store_id(id, store, "step-0001", "turns/0001/orders"), 0);
		assert_string_equal(id, out_of("git -C %s rev-parse step-0001:turns/0001/orders", path));
		assert_int_equal(est_store_id(id, store, "main", "orders"), EST_ENOTFOUND);
		assert_string_equal(id, "");
		assert_int_equal(est_store_id(id, store, "step-0009", "state.json"), EST_ENOTFOUND);
		assert_int_equal(est_store_id(id, store, NULL, "../state.json"), EST_EINVAL);
		est_error_clear();
	}

	/* What git sees. */
	assert_int_equal(sh("git -C %s fsck --strict --no-progress --no-dangling 2>&1", path), 0);
	assert_string_equal(out_of("git -C %s log --oneline | wc -l", path), "2");
	assert_string_equal(out_of("git -C %s cat-file -t step-0001", path), "tag");
	assert_string_equal(out_of("git -C %s rev-parse 'step-0001^{commit}'", path), second);
	assert_string_equal(out_of("git -C %s ls-tree --name-only main", path),
			    "game.json\nkeys\nrules\nstate.json\nturns");

	/* The work tree followed: the deleted folder is gone, new files are there. */
	assert_int_equal(sh("test -e %s/orders", path), 1);
	data = work_file(store, "turns/0001/manifest.json", &len);
	assert_non_null(data);
	assert_string_equal(data, "{\"orders\": [\"france\"]}\n");
	free(data);
	data = work_file(store, "state.json", &len);
	assert_string_equal(data, "{\"step\": 1}\n");
	free(data);
	assert_string_equal(out_of("git -C %s status --porcelain --ignored", path), "");
	est_store_free(store);
}

/* Changes apply in order; git has no empty folders. */
static void test_changes_apply_in_order(void **state)
{
	char first[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("order", first);
	const char *path = est_store_path(store);
	static const est_store_change changes[] = {
		DELETE("orders"),
		CHANGE("orders/prussia.json", "{}"),
		CHANGE("notes", "a file first"),
		CHANGE("notes/today.txt", "then a folder"),
		DELETE("state.json/below-a-file"),
		DELETE("no/such/folder"),
		CHANGE("empty.txt", ""),
		DELETE("turns/0000/manifest.json"),
		CHANGE("rules/map.json", "{\"areas\": [1]}\n"),
		CHANGE("rules/map.json", "{\"areas\": [2]}\n"),
	};
	char *data = NULL;
	size_t len = 99;

	(void)state;
	assert_int_equal(est_store_commit(oid, store, first, changes,
					  sizeof(changes) / sizeof(changes[0]), "mixed", NULL),
			 0);
	assert_list(store, NULL, "", "empty.txt game.json keys notes orders rules state.json");
	assert_list(store, NULL, "orders", "prussia.json");
	assert_list(store, NULL, "notes", "today.txt");
	assert_file(store, NULL, "state.json", "{\"step\": 0}\n");
	assert_file(store, NULL, "rules/map.json", "{\"areas\": [2]}\n");
	assert_int_equal(est_store_read(&data, &len, store, NULL, "empty.txt"), 0);
	assert_int_equal(len, 0);
	free(data);
	assert_string_equal(out_of("git -C %s log -1 --format=%%B", path), "mixed");
	assert_int_equal(sh("git -C %s fsck --strict --no-progress --no-dangling 2>&1", path), 0);
	assert_string_equal(out_of("git -C %s status --porcelain", path), "");
	assert_int_equal(sh("test -e %s/turns", path), 1);

	/* No changes: a commit with the parent's tree. */
	assert_int_equal(est_store_commit(first, store, oid, NULL, 0, "nothing happened", NULL), 0);
	assert_string_equal(out_of("git -C %s rev-parse 'main^{tree}'", path),
			    out_of("git -C %s rev-parse 'main~1^{tree}'", path));
	est_store_free(store);
}

static void test_bare_repository(void **state)
{
	char *path = game_path("bare.git"), oid[EST_STORE_OID_HEX + 1], two[EST_STORE_OID_HEX + 1];
	est_store *store = NULL;

	(void)state;
	assert_int_equal(sh("git init -q --bare -b main %s", path), 0);
	assert_int_equal(est_store_open(&store, path), 0);
	assert_string_equal(est_store_path(store), path);
	assert_int_equal(est_store_head(oid, store), EST_ENOTFOUND);
	assert_int_equal(est_store_commit(oid, store, NULL, step0, STEP0_COUNT, "step 0", "step-0000"),
			 0);
	assert_int_equal(est_store_commit(two, store, oid, step1, STEP1_COUNT, "step 1", "step-0001"),
			 0);
	assert_int_equal(sh("git --git-dir=%s fsck --strict --no-progress --no-dangling 2>&1", path), 0);
	assert_string_equal(out_of("git --git-dir=%s log --oneline main | wc -l", path), "2");
	assert_string_equal(out_of("git --git-dir=%s cat-file -t step-0001", path), "tag");
	assert_string_equal(out_of("git --git-dir=%s show step-0000:state.json", path),
			    "{\"step\": 0}");
	assert_file(store, NULL, "turns/0001/manifest.json", "{\"orders\": [\"france\"]}\n");
	/* No work tree appeared inside the bare folder. */
	assert_int_equal(sh("test -e %s/state.json", path), 1);
	/* The lock lives in the git folder. */
	assert_int_equal(est_store_lock(store), 0);
	assert_int_equal(sh("test -f %s/estafette.lock", path), 0);
	est_store_free(store);
	free(path);
}

static void test_open_and_init_refusals(void **state)
{
	char *missing = game_path("missing"), *empty = game_path("empty"), *full = game_path("full");
	est_store *store = (est_store *)&store;

	(void)state;
	assert_int_equal(est_store_open(&store, missing), EST_ENOTFOUND);
	assert_null(store);
	assert_int_equal(mkdir(empty, 0755), 0);
	assert_int_equal(est_store_open(&store, empty), EST_ENOTFOUND);
	assert_non_null(strstr(est_error_message(), empty));

	assert_int_equal(mkdir(full, 0755), 0);
	assert_int_equal(sh("echo x > %s/file", full), 0);
	assert_int_equal(est_store_init(&store, full), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "already exists and is not empty"));
	assert_int_equal(sh("test -e %s/.git", full), 1);

	/* An existing empty folder is fine, and init twice is refused. */
	assert_int_equal(est_store_init(&store, empty), 0);
	est_store_free(store);
	assert_int_equal(est_store_init(&store, empty), EST_EINVAL);
	free(missing);
	free(empty);
	free(full);
}

static void test_ref_moved_meanwhile(void **state)
{
	char first[EST_STORE_OID_HEX + 1], other[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("moved", first);
	const char *path = est_store_path(store);

	(void)state;
	/* Another run commits between our reading the head and our commit. */
	assert_int_equal(sh("git -C %s commit -q --allow-empty -m 'another run'", path), 0);
	snprintf(other, sizeof(other), "%s", out_of("git -C %s rev-parse main", path));
	assert_string_not_equal(other, first);

	assert_int_equal(est_store_commit(oid, store, first, step1, STEP1_COUNT, "step 1",
					  "step-0001"),
			 EST_ETEMPFAIL);
	assert_string_equal(oid, "");
	assert_non_null(strstr(est_error_message(), first));
	assert_non_null(strstr(est_error_message(), other));
	assert_non_null(strstr(est_error_message(), "run again"));
	assert_int_equal(est_store_head(oid, store), 0);
	assert_string_equal(oid, other);
	assert_int_equal(sh("git -C %s rev-parse -q --verify refs/tags/step-0001 >/dev/null", path),
			 1);
	assert_int_equal(est_store_tag_target(oid, store, "step-0001"), EST_ENOTFOUND);

	/* Another process in the middle of moving the branch (git's lock file). */
	assert_int_equal(sh("touch %s/.git/refs/heads/main.lock", path), 0);
	assert_int_equal(est_store_commit(oid, store, other, step1, STEP1_COUNT, "step 1", NULL),
			 EST_ETEMPFAIL);
	assert_non_null(strstr(est_error_message(), "another process is moving"));
	assert_int_equal(sh("rm %s/.git/refs/heads/main.lock", path), 0);
	assert_string_equal(out_of("git -C %s rev-parse main", path), other);

	/* "The first commit" when there already is one. */
	assert_int_equal(est_store_commit(oid, store, NULL, step0, STEP0_COUNT, "again", NULL),
			 EST_ETEMPFAIL);
	assert_string_equal(out_of("git -C %s rev-parse main", path), other);
	assert_string_equal(out_of("git -C %s status --porcelain", path), "");
	est_store_free(store);
}

/*
 * store.h, "Revisions": a handle keeps reading the commit it resolved for
 * "main" while another process commits; it sees the new head after its own
 * commit or after taking the lock, and est_store_head() reads anew.
 */
static void test_revisions_kept_until_lock_or_commit(void **state)
{
	char first[EST_STORE_OID_HEX + 1], second[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("snapshot", first), *other = NULL;
	const est_store_change again[] = {CHANGE("state.json", "{\"step\": 2}\n")};

	(void)state;
	assert_file(store, "main", "state.json", "{\"step\": 0}\n");
	assert_file(store, NULL, "state.json", "{\"step\": 0}\n");
	assert_int_equal(est_store_open(&other, est_store_path(store)), 0);
	assert_int_equal(est_store_lock(other), 0);
	assert_int_equal(est_store_commit(second, other, first, step1, STEP1_COUNT, "step 1",
					  "step-0001"),
			 0);
	est_store_free(other);

	/* The snapshot holds, but the head and the new tag are there to see. */
	assert_file(store, "main", "state.json", "{\"step\": 0}\n");
	assert_int_equal(est_store_head(oid, store), 0);
	assert_string_equal(oid, second);
	assert_file(store, "step-0001", "state.json", "{\"step\": 1}\n");

	/* Taking the lock reads anew. */
	assert_int_equal(est_store_lock(store), 0);
	assert_file(store, "main", "state.json", "{\"step\": 1}\n");
	assert_file(store, NULL, "state.json", "{\"step\": 1}\n");
	assert_file(store, "main^", "state.json", "{\"step\": 0}\n");

	/* So does the handle's own commit. */
	assert_int_equal(est_store_commit(oid, store, second, again, 1, "step 2", "step-0002"), 0);
	assert_file(store, "main", "state.json", "{\"step\": 2}\n");
	assert_file(store, "main^", "state.json", "{\"step\": 1}\n");
	assert_file(store, "step-0002", "state.json", "{\"step\": 2}\n");
	assert_int_equal(sh("git -C %s fsck --strict --no-progress 2>/dev/null", est_store_path(store)), 0);
	est_store_free(store);
}

/*
 * pack.c: a commit's objects land as one pack (no loose object), packs are
 * merged geometrically past 16, and the tags are packed once 64 are loose,
 * every object and tag still there for git.
 */
static void test_commits_land_as_packs(void **state)
{
	char head[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1], path[64], data[64], tag[32];
	est_store *store = game_at_step0("packs", head);
	const char *repo = est_store_path(store);
	int i;

	(void)state;
	assert_int_equal(est_store_lock(store), 0);
	for (i = 1; i <= 64; i++) {
		snprintf(path, sizeof(path), "turns/%04d/manifest.json", i);
		snprintf(data, sizeof(data), "{\"step\": %d}\n", i);
		snprintf(tag, sizeof(tag), "step-%04d", i);
		est_store_change changes[] = {{"state.json", data, strlen(data)},
					      {path, data, strlen(data)}};

		assert_int_equal(est_store_commit(oid, store, head, changes, 2, "a step", tag), 0);
		strcpy(head, oid);
	}
	assert_string_equal(out_of("find %s/.git/objects -type f ! -path '*/pack/*' | wc -l", repo),
			    "0");
	assert_true(atoi(out_of("ls %s/.git/objects/pack | grep -c 'pack$'", repo)) <= 17);
	assert_string_equal(out_of("ls %s/.git/refs/tags | wc -l", repo), "1");
	assert_string_equal(out_of("git -C %s tag | wc -l", repo), "65");
	assert_string_equal(out_of("git -C %s rev-list --objects --all | wc -l", repo),
			    out_of("git -C %s cat-file --batch-all-objects --batch-check | wc -l", repo));
	assert_string_equal(out_of("git -C %s show step-0033:state.json", repo), "{\"step\": 33}");
	assert_int_equal(sh("git -C %s fsck --strict --no-progress --no-dangling 2>/dev/null", repo), 0);
	/* Each pack, the ones pack.c writes itself and the merged ones, as git reads it. */
	assert_int_equal(sh("for i in %s/.git/objects/pack/*.idx; do git verify-pack \"$i\" || "
			    "exit 1; done", repo),
			 0);
	assert_string_equal(out_of("git -C %s status --porcelain", repo), "");

	/* A killed run's leftovers go at the next commit once an hour old; fresh ones stay. */
	assert_int_equal(sh("cd %s/.git/objects/pack && printf x > pack_git2_old && "
			    "printf x > pack-%040d.pack && printf x > pack_git2_new && "
			    "touch -d '2 hours ago' pack_git2_old pack-%040d.pack",
			    repo, 0, 0),
			 0);
	{
		est_store_change last[] = {{"state.json", "{}\n", 3}};

		assert_int_equal(est_store_commit(oid, store, head, last, 1, "a step", "step-0065"), 0);
	}
	assert_string_equal(out_of("cd %s/.git/objects/pack && ls pack_git2_* pack-0000*.pack "
				   "2>/dev/null | tr '\\n' ' '",
				   repo),
			    "pack_git2_new ");
	assert_int_equal(sh("git -C %s fsck --strict --no-progress --no-dangling 2>/dev/null", repo), 0);
	est_store_free(store);
}

/*
 * A pack merge reads every object of the packs it merges; they stay out of
 * libgit2's object cache, which would hold them while the step's map is
 * drawn (what the cache held goes too). Each step here brings a blob of
 * 16 KiB of its own.
 */
static void test_pack_merge_leaves_the_cache(void **state)
{
	char head[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1], path[64], tag[32];
	est_store *store = game_at_step0("merge-cache", head);
	const char *repo = est_store_path(store);
	static char blob[16 << 10];
	ssize_t after, allowed;
	int packs = 0, merged = 0;

	(void)state;
	assert_int_equal(est_store_lock(store), 0);
	for (int i = 1; i <= 40 && !merged; i++) {
		est_store_change changes[] = {{path, blob, sizeof(blob)}};
		int now;

		for (size_t j = 0; j < sizeof(blob); j++)
			blob[j] = (char)('a' + (j * 7 + (size_t)i * 13 + j / 97 * i) % 26);
		snprintf(path, sizeof(path), "turns/%04d/map.svg", i);
		snprintf(tag, sizeof(tag), "step-%04d", i);
		assert_int_equal(est_store_commit(oid, store, head, changes, 1, "a step", tag), 0);
		assert_int_equal(git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &after, &allowed), 0);
		strcpy(head, oid);
		now = atoi(out_of("ls %s/.git/objects/pack | grep -c 'pack$'", repo));
		if (now < packs) {
			merged = 1;
			/* The merged packs hold 16 blobs of 16 KiB: not one cached. */
			assert_true(after < (ssize_t)sizeof(blob));
		}
		packs = now;
	}
	assert_true(merged);
	est_store_free(store);
}

static void test_lock_held_by_another_process(void **state)
{
	char *path = game_path("locked"), buf[1] = {0}, *lock_file;
	est_store *store = NULL, *second = NULL;
	int ready[2], status;
	struct stat st;
	pid_t child;

	(void)state;
	assert_int_equal(est_store_init(&store, path), 0);
	est_store_free(store);
	assert_int_equal(pipe(ready), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		est_store *held = NULL;

		close(ready[0]);
		if (est_store_open(&held, path) < 0 || est_store_lock(held) < 0)
			_exit(1);
		if (write(ready[1], "L", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], buf, 1), 1);
	close(ready[0]);

	assert_int_equal(est_store_open(&store, path), 0);
	assert_int_equal(est_store_lock(store), EST_ELOCKED);
	{
		char want[64];

		snprintf(want, sizeof(want), "(pid %ld)", (long)child);
		assert_non_null(strstr(est_error_message(), want));
		assert_non_null(strstr(est_error_message(), "try again when it ends"));
	}
	/* The holder dies without unlocking: the kernel drops its lock. */
	assert_int_equal(kill(child, SIGKILL), 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(est_store_lock(store), 0);
	assert_int_equal(est_store_lock(store), 0);

	lock_file = est_strdup_printf("%s/.git/estafette.lock", path);
	assert_int_equal(stat(lock_file, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_string_equal(out_of("cat %s", lock_file), out_of("echo %ld", (long)getpid()));

	/* A second handle conflicts like a second process; unlock frees it. */
	assert_int_equal(est_store_open(&second, path), 0);
	assert_int_equal(est_store_lock(second), EST_ELOCKED);
	est_store_unlock(store);
	assert_int_equal(est_store_lock(second), 0);
	assert_int_equal(est_store_lock(store), EST_ELOCKED);
	est_store_free(second);
	assert_int_equal(est_store_lock(store), 0);
	/* git itself does not mind the file. */
	assert_string_equal(out_of("git -C %s status --porcelain", path), "");
	est_store_free(store);
	free(lock_file);
	free(path);
}

static void test_bad_paths_and_arguments_refused(void **state)
{
	static const char *const bad[] = {
		"", "/etc/passwd", "orders//x.json", "orders/", "./state.json", "turns/../x",
		"..", ".", ".git/config", "turns/.git/x", ".GIT/hooks/pre-commit", "a/.Git",
	};
	char first[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("bad", first);
	const char *path = est_store_path(store);
	char *data = NULL;
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		est_store_change change[2] = {CHANGE("fine.txt", "x"), {bad[i], "x", 1}};

		assert_int_equal(est_store_commit(oid, store, first, change, 2, "bad", NULL),
				 EST_EINVAL);
		assert_non_null(strstr(est_error_message(), "change path"));
		change[1].data = NULL;
		assert_int_equal(est_store_commit(oid, store, first, change, 2, "bad", NULL),
				 EST_EINVAL);
		if (bad[i][0])
			assert_int_equal(est_store_read(&data, &len, store, NULL, bad[i]),
					 EST_EINVAL);
	}
	{
		est_store_change null_path = {NULL, "x", 1};

		assert_int_equal(est_store_commit(oid, store, first, &null_path, 1, "bad", NULL),
				 EST_EINVAL);
	}
	/* Bad tags, heads and messages. */
	assert_int_equal(est_store_commit(oid, store, first, step1, 1, "m", "step 1"), EST_EINVAL);
	assert_int_equal(est_store_commit(oid, store, first, step1, 1, "m", "a..b"), EST_EINVAL);
	assert_int_equal(est_store_commit(oid, store, first, step1, 1, "m", ""), EST_EINVAL);
	assert_int_equal(est_store_commit(oid, store, "abc123", step1, 1, "m", NULL), EST_EINVAL);
	assert_int_equal(est_store_commit(oid, store, first, step1, 1, "", NULL), EST_EINVAL);
	assert_int_equal(est_store_commit(oid, store, first, step1, 1, NULL, NULL), EST_EINVAL);
	assert_int_equal(est_store_tag_target(oid, store, "bad tag"), EST_EINVAL);
	assert_int_equal(est_store_read(&data, &len, store, "main..", "state.json"), EST_EINVAL);

	/* Nothing moved. */
	assert_string_equal(out_of("git -C %s rev-parse main", path), first);
	assert_string_equal(out_of("git -C %s log --oneline | wc -l", path), "1");
	est_store_free(store);
}

static void test_tag_exists(void **state)
{
	char first[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("tagged", first);
	const char *path = est_store_path(store);

	(void)state;
	/* step-0000 already names another commit: refused, branch unmoved. */
	assert_int_equal(est_store_commit(oid, store, first, step1, STEP1_COUNT, "step 1",
					  "step-0000"),
			 EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "tag step-0000 already points to"));
	assert_string_equal(out_of("git -C %s rev-parse main", path), first);
	assert_string_equal(out_of("git -C %s status --porcelain", path), "");

	/* Repairing a tag: same commit is a no-op; a missing tag is added. */
	assert_int_equal(est_store_tag(store, "step-0000", first, "step 0"), 0);
	assert_int_equal(est_store_commit(oid, store, first, step1, STEP1_COUNT,
					  "step 1: France moves\n\nbody", NULL),
			 0);
	assert_int_equal(est_store_tag(store, "step-0001", oid, "step 1: France moves\nbody"), 0);
	assert_string_equal(out_of("git -C %s cat-file -t step-0001", path), "tag");
	assert_string_equal(out_of("git -C %s rev-parse 'step-0001^{commit}'", path), oid);
	assert_string_equal(out_of("git -C %s tag -l --format='%%(contents)' step-0001", path),
			    "step 1: France moves");
	assert_int_equal(est_store_tag(store, "step-0001", first, "step 1"), EST_EINVAL);
	assert_int_equal(est_store_tag(store, "step-0002", "0123456789012345678901234567890123456789",
				       "step 2"),
			 EST_EINVAL);
	/* A lightweight tag made by hand is followed too. */
	assert_int_equal(sh("git -C %s tag light %s", path, first), 0);
	assert_int_equal(est_store_tag_target(oid, store, "light"), 0);
	assert_string_equal(oid, first);
	assert_int_equal(sh("git -C %s fsck --strict --no-progress --no-dangling 2>&1", path), 0);
	est_store_free(store);
}

static void test_commit_time_makes_commits_reproducible(void **state)
{
	char a[EST_STORE_OID_HEX + 1], b[EST_STORE_OID_HEX + 1];
	char a1[EST_STORE_OID_HEX + 1], b1[EST_STORE_OID_HEX + 1];
	est_store *one, *two;
	long long when;
	time_t before;

	(void)state;
	setenv("ESTAFETTE_COMMIT_TIME", "1700000000", 1);
	one = game_at_step0("repro-a", a);
	two = game_at_step0("repro-b", b);
	assert_string_equal(a, b);
	assert_int_equal(est_store_commit(a1, one, a, step1, STEP1_COUNT, "step 1", "step-0001"), 0);
	assert_int_equal(est_store_commit(b1, two, b, step1, STEP1_COUNT, "step 1", "step-0001"), 0);
	assert_string_equal(a1, b1);
	assert_string_equal(out_of("git -C %s rev-parse step-0001", est_store_path(one)),
			    out_of("git -C %s rev-parse step-0001", est_store_path(two)));
	assert_int_equal(est_store_commit_time(&when, one, "step-0001"), 0);
	assert_true(when == 1700000000LL);
	assert_string_equal(out_of("git -C %s log -1 --format='%%ct %%cd' --date=iso-strict",
				   est_store_path(one)),
			    "1700000000 2023-11-14T22:13:20+00:00");

	setenv("ESTAFETTE_COMMIT_TIME", "17e8", 1);
	assert_int_equal(est_store_commit(a1, one, b1, NULL, 0, "x", NULL), EST_ECONFIG);
	assert_non_null(strstr(est_error_message(), "ESTAFETTE_COMMIT_TIME"));
	unsetenv("ESTAFETTE_COMMIT_TIME");

	/* Without it: now. */
	before = time(NULL);
	assert_int_equal(est_store_commit(a1, one, b1, NULL, 0, "later", NULL), 0);
	assert_int_equal(est_store_commit_time(&when, one, NULL), 0);
	assert_true(when >= (long long)before && when <= (long long)time(NULL));
	assert_int_equal(est_store_commit_time(&when, one, "nope"), EST_ENOTFOUND);
	assert_int_equal(est_store_commit_time(&when, one, "main:state.json"), EST_EINVAL);
	est_store_free(one);
	est_store_free(two);
}

static void test_bytes_stored_exactly(void **state)
{
	static const char bytes[] = "line one\r\nline two\r\n\0after a NUL\0\xff\xfe\r\n";
	const est_store_change change[] = {
		{"orders/france.json", bytes, sizeof(bytes) - 1},
		CHANGE(".gitattributes", "orders/** -text\nturns/** -text\n"),
		CHANGE("crlf.txt", "a\r\nb\r\n"),
	};
	char first[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("bytes", first);
	const char *path = est_store_path(store);
	char *data;
	size_t len;

	(void)state;
	assert_int_equal(est_store_commit(oid, store, first, change, 3, "bytes", NULL), 0);
	assert_int_equal(est_store_read(&data, &len, store, NULL, "orders/france.json"), 0);
	assert_int_equal(len, sizeof(bytes) - 1);
	assert_memory_equal(data, bytes, len);
	free(data);
	assert_string_equal(out_of("git -C %s cat-file -s main:orders/france.json", path),
			    out_of("echo %zu", sizeof(bytes) - 1));
	assert_int_equal(sh("git -C %s cat-file blob main:orders/france.json | "
			    "cmp -s - %s/orders/france.json",
			    path, path),
			 0);
	data = work_file(store, "orders/france.json", &len);
	assert_non_null(data);
	assert_int_equal(len, sizeof(bytes) - 1);
	assert_memory_equal(data, bytes, len);
	free(data);
	data = work_file(store, "crlf.txt", &len);
	assert_string_equal(data, "a\r\nb\r\n");
	free(data);
	assert_string_equal(out_of("git -C %s status --porcelain", path), "");
	est_store_free(store);
}

static void test_config_from_the_repository_only(void **state)
{
	char first[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("config", first);
	const char *path = est_store_path(store);
	char *value = NULL;

	(void)state;
	assert_int_equal(sh("git -C %s config estafette.smtpurl smtp://mail.example.org:587", path),
			 0);
	assert_int_equal(est_store_config_get(&value, store, "estafette.smtpurl"), 0);
	assert_string_equal(value, "smtp://mail.example.org:587");
	free(value);
	assert_int_equal(est_store_config_get(&value, store, "estafette.sender"), EST_ENOTFOUND);
	assert_null(value);
	assert_non_null(strstr(est_error_message(), "git -C"));
	assert_int_equal(est_store_config_get(&value, store, "no-section"), EST_EINVAL);

	/* The GM's global config is not the game's. */
	assert_int_equal(sh("git config --global estafette.sender gm@example.org"), 0);
	assert_int_equal(sh("git config --global user.name 'Global Name'"), 0);
	assert_int_equal(est_store_config_get(&value, store, "estafette.sender"), EST_ENOTFOUND);

	/* Commits are signed with the repository's user.name and user.email. */
	assert_int_equal(sh("git -C %s config user.name 'Game Master'", path), 0);
	assert_int_equal(sh("git -C %s config user.email gm@example.org", path), 0);
	assert_int_equal(est_store_commit(oid, store, first, step1, STEP1_COUNT, "step 1",
					  "step-0001"),
			 0);
	assert_string_equal(out_of("git -C %s log -1 --format='%%an <%%ae>|%%cn <%%ce>'", path),
			    "Game Master <gm@example.org>|Game Master <gm@example.org>");
	assert_string_equal(out_of("git -C %s tag -l --format='%%(taggername) %%(taggeremail)' "
				   "step-0001",
				   path),
			    "Game Master <gm@example.org>");
	assert_int_equal(sh("git config --global --unset user.name"), 0);
	est_store_free(store);
}

/*
 * The paths a commit changes are forced to it in the work tree; a hand edit
 * elsewhere stays as a modification and untracked files stay (only a work
 * tree not known to be at the parent is brought to the commit in full).
 */
static void test_work_tree_follows(void **state)
{
	char first[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1], two[EST_STORE_OID_HEX + 1];
	est_store *store = game_at_step0("worktree", first);
	const char *path = est_store_path(store);
	const est_store_change game = CHANGE("game.json", "{\"id\": \"ne-002\"}\n");
	char *data;
	size_t len;

	(void)state;
	assert_int_equal(sh("echo edited > %s/state.json && echo edited > %s/game.json && "
			    "echo mine > %s/notes.txt", path, path, path), 0);
	assert_int_equal(est_store_commit(oid, store, first, &game, 1, "rename", NULL), 0);
	data = work_file(store, "game.json", &len);
	assert_string_equal(data, "{\"id\": \"ne-002\"}\n");
	free(data);
	data = work_file(store, "state.json", &len);
	assert_string_equal(data, "edited\n");
	free(data);
	data = work_file(store, "notes.txt", &len);
	assert_string_equal(data, "mine\n");
	free(data);
	assert_string_equal(out_of("git -C %s status --porcelain", path), " M state.json\n?? notes.txt");

	/* HEAD on another branch: the work tree is left alone... */
	assert_int_equal(sh("git -C %s symbolic-ref HEAD refs/heads/elsewhere", path), 0);
	assert_int_equal(est_store_commit(two, store, oid, step1, STEP1_COUNT, "step 1", NULL), 0);
	assert_int_equal(sh("test -f %s/orders/france.json", path), 0);
	/* ...and when it comes back one commit behind, the next commit catches up. */
	assert_int_equal(sh("git -C %s symbolic-ref HEAD refs/heads/main", path), 0);
	assert_int_equal(est_store_commit(oid, store, two, NULL, 0, "step 2", NULL), 0);
	assert_int_equal(sh("test -e %s/orders", path), 1);
	data = work_file(store, "state.json", &len);
	assert_string_equal(data, "{\"step\": 1}\n");
	free(data);
	assert_string_equal(out_of("git -C %s status --porcelain", path), "?? notes.txt");
	est_store_free(store);
}

/*
 * Runs that skip the lock and race on one branch: the compare-and-swap lets
 * exactly one win each time, the others see EST_ETEMPFAIL and retry from
 * the new head, and no commit is lost.
 */
#define RACERS 4
#define RACER_COMMITS 6
#define RACER_FILLER 20

/*
 * One racer: RACER_COMMITS commits, each adding its own file plus
 * RACER_FILLER files of new content (a wide window between reading the
 * head and moving the branch, where another racer can get in).
 */
static int racer(const char *path, int id)
{
	char head[EST_STORE_OID_HEX + 1], oid[EST_STORE_OID_HEX + 1];
	static char names[RACER_FILLER + 1][64], bodies[RACER_FILLER + 1][64];
	est_store_change changes[RACER_FILLER + 1];
	est_store *store = NULL;
	int j, k, error, tries = 0;

	if (est_store_open(&store, path) < 0)
		return 1;
	for (j = 0; j < RACER_COMMITS; j++) {
		for (k = 0; k <= RACER_FILLER; k++) {
			if (k == 0)
				snprintf(names[k], sizeof(names[k]), "racers/%d/%d", id, j);
			else
				snprintf(names[k], sizeof(names[k]), "filler/%d", k);
			changes[k].path = names[k];
			changes[k].data = bodies[k];
			changes[k].len = (size_t)snprintf(bodies[k], sizeof(bodies[k]),
							  "racer %d commit %d file %d\n", id, j, k);
		}
		do {
			if (++tries > 10000 || est_store_head(head, store) < 0)
				return 2;
			error = est_store_commit(oid, store, head, changes, RACER_FILLER + 1,
						 names[0], NULL);
		} while (error == EST_ETEMPFAIL);
		if (error < 0)
			return 3;
	}
	est_store_free(store);
	return 0;
}

static void test_racing_runs_lose_nothing(void **state)
{
	char *path = game_path("race.git"), oid[EST_STORE_OID_HEX + 1];
	est_store *store = NULL;
	pid_t pids[RACERS];
	int i, status, start[2];
	char byte;

	(void)state;
	assert_int_equal(sh("git init -q --bare -b main %s", path), 0);
	assert_int_equal(est_store_open(&store, path), 0);
	assert_int_equal(est_store_commit(oid, store, NULL, step0, STEP0_COUNT, "step 0", NULL), 0);
	/* All racers start together: each waits until the pipe closes. */
	assert_int_equal(pipe(start), 0);
	for (i = 0; i < RACERS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (pids[i] == 0) {
			close(start[1]);
			if (read(start[0], &byte, 1) != 0)
				_exit(4);
			_exit(racer(path, i));
		}
	}
	close(start[0]);
	close(start[1]);
	for (i = 0; i < RACERS; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_string_equal(out_of("git --git-dir=%s rev-list --count main", path),
			    out_of("echo %d", RACERS * RACER_COMMITS + 1));
	assert_string_equal(out_of("git --git-dir=%s ls-tree -r --name-only main racers | wc -l",
				   path),
			    out_of("echo %d", RACERS * RACER_COMMITS));
	assert_string_equal(out_of("git --git-dir=%s rev-list --merges main | wc -l", path), "0");
	assert_int_equal(sh("git --git-dir=%s fsck --strict --no-progress --no-dangling 2>&1", path),
			 0);
	est_store_free(store);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_then_first_commit_and_tag),
		cmocka_unit_test(test_second_commit_deletes_folder_and_adds_files),
		cmocka_unit_test(test_changes_apply_in_order),
		cmocka_unit_test(test_bare_repository),
		cmocka_unit_test(test_open_and_init_refusals),
		cmocka_unit_test(test_ref_moved_meanwhile),
		cmocka_unit_test(test_revisions_kept_until_lock_or_commit),
		cmocka_unit_test(test_commits_land_as_packs),
		cmocka_unit_test(test_pack_merge_leaves_the_cache),
		cmocka_unit_test(test_lock_held_by_another_process),
		cmocka_unit_test(test_bad_paths_and_arguments_refused),
		cmocka_unit_test(test_tag_exists),
		cmocka_unit_test(test_commit_time_makes_commits_reproducible),
		cmocka_unit_test(test_bytes_stored_exactly),
		cmocka_unit_test(test_config_from_the_repository_only),
		cmocka_unit_test(test_work_tree_follows),
		cmocka_unit_test(test_racing_runs_lose_nothing),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
