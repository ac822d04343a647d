/*
 * estafette site (docs/site.md): a game's public history as a static web
 * site. Everything comes from the public refs, main and the step tags,
 * through the game's store: never the sealed store, the secrets or
 * anything else under $ESTAFETTE_HOME, so a sealed game's site holds
 * nothing its public refs do not.
 *
 * The folder is ours only when it is new, empty, or holds the manifest of
 * an earlier site of the same game (SITE_MANIFEST): that manifest lists the
 * files we wrote, and only those are ever removed. A file is rewritten only
 * when its bytes change, so a web server or a pages branch sees small
 * changes. Pages are written like hints (est_file_write_hint: renamed into
 * place, not fsynced): the site is derived from the repository, and a file
 * a power cut damaged differs from what the next build makes, which then
 * rewrites it. The manifest alone is fsynced, since without it the folder
 * would no longer be known as ours.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "game/game.h"
#include "turn/turn.h"
#include "render/render.h"
#include "step/step.h"
#include "engine/engine.h"
#include "util/error.h"
#include "util/json.h"
#include "util/util.h"

#define SITE_MANIFEST EST_SITE_MANIFEST
#define SITE_FORMAT "site/1"
#define SITE_FILE_MODE 0644
#define SITE_DIR_MODE 0755

typedef struct {
	est_game *game;
	const char *dir;    /* the site's folder */
	char *templates;    /* templates/site of the data folder */
	json_t *files;      /* path -> true: every file this build wrote or found as it is */
	json_t *dirs;       /* folders known to be real folders of the site */
	int written;
	int sealed;
	long long last;     /* the last resolved step */
} site;

/* ---- the folder ---- */

/* The repository's git folder: <work tree>/.git, or the bare repository itself. */
static char *git_dir(est_store *store)
{
	char *dotgit = est_strdup_printf("%s/.git", est_store_path(store));

	if (dotgit && !est_path_exists(dotgit)) {
		free(dotgit);
		return strdup(est_store_path(store));
	}
	return dotgit;
}

/* `dir`, or its nearest folder that exists, resolved (realpath), into out[PATH_MAX]. */
static int real_or_parent(char out[PATH_MAX], const char *dir)
{
	char *copy = strdup(dir), *slash;
	int ok = 0;

	if (!copy)
		return est_error_set(EST_ENOMEM, "out of memory");
	while (!(ok = realpath(copy, out) != NULL) && (slash = strrchr(copy, '/')) != NULL) {
		if (slash == copy) {
			slash[1] = '\0';
			ok = realpath(copy, out) != NULL;
			break;
		}
		*slash = '\0';
	}
	if (!ok)
		ok = realpath(".", out) != NULL;
	free(copy);
	return ok ? 0 : est_error_set(EST_EIO, "%s: cannot resolve the folder: %s", dir, strerror(errno));
}

/* 1 if `path` is `top` or below it. */
static int path_within(const char *path, const char *top)
{
	size_t n = strlen(top);

	return strncmp(path, top, n) == 0 && (path[n] == '\0' || path[n] == '/' || strcmp(top, "/") == 0);
}

/*
 * An earlier site's manifest at `dir`, into *out (NULL when there is none).
 * Errors: EST_EUSAGE when it is not a site of this game.
 */
static int read_manifest(json_t **out, const char *dir, const char *id)
{
	char *path = est_strdup_printf("%s/" SITE_MANIFEST, dir), *text = NULL;
	json_t *doc = NULL;
	size_t len;
	int error;

	*out = NULL;
	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_file_read(&text, &len, path, 0)) == EST_ENOTFOUND) {
		est_error_clear();
		error = 0;
		goto out;
	}
	if (error < 0)
		goto out;
	if (est_json_parse(&doc, text, len, path) < 0 ||
	    !json_is_string(json_object_get(doc, "game")) || !json_is_array(json_object_get(doc, "files")) ||
	    strcmp(json_string_value(json_object_get(doc, "game")), id) != 0) {
		error = est_error_set(EST_EUSAGE, "%s: not the manifest of a site of game %s; give another "
				      "folder for this game's site (each game needs its own)", path, id);
		goto out;
	}
	*out = doc;
	doc = NULL;
out:
	json_decref(doc);
	free(text);
	free(path);
	return error;
}

/* Is `dir` empty (no entry but . and ..)? */
static int dir_empty(const char *dir)
{
	int empty = 1;
	DIR *d;
	struct dirent *e;

	if (!(d = opendir(dir)))
		return 0;
	while (empty && (e = readdir(d)) != NULL)
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/*
 * `dir` may take the site of `game`: it does not exist yet, or is a real
 * folder (not a link) outside the repository's git folder that is empty or
 * an earlier site of this game. *old_out: that site's manifest, or NULL.
 */
static int check_dir(json_t **old_out, est_game *game, const char *dir)
{
	const char *id = json_string_value(json_object_get(game->game, "id"));
	char real[PATH_MAX], gitreal[PATH_MAX], *gd = NULL;
	struct stat st;
	int error = 0;

	*old_out = NULL;
	if (!(gd = git_dir(game->store)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = real_or_parent(real, dir)) < 0)
		goto out;
	if (realpath(gd, gitreal) && path_within(real, gitreal)) {
		error = est_error_set(EST_EUSAGE, "%s: inside the game repository's git folder %s; "
				      "give a folder outside it", dir, gitreal);
		goto out;
	}
	if (lstat(dir, &st) < 0) {
		if (errno != ENOENT)
			error = est_error_set(EST_EIO, "%s: %s", dir, strerror(errno));
		goto out;
	}
	if (S_ISLNK(st.st_mode)) {
		error = est_error_set(EST_EUSAGE, "%s: a symbolic link; the site is written only into a real "
				      "folder: give the folder it points to", dir);
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		error = est_error_set(EST_EUSAGE, "%s: not a folder; give a new or empty folder, or an "
				      "earlier site of this game", dir);
		goto out;
	}
	if ((error = read_manifest(old_out, dir, id)) < 0 || *old_out || dir_empty(dir))
		goto out;
	error = est_error_set(EST_EUSAGE, "%s: a folder that is neither empty nor an earlier site of game "
			      "%s (it has no " SITE_MANIFEST "); give a new or empty folder, so that "
			      "nothing of yours is overwritten or removed", dir, id);
out:
	free(gd);
	return error;
}

/* Make folder `rel` of the site and its parents, refusing to go through a link. */
static int site_mkdir(site *s, const char *rel)
{
	char *path = est_strdup_printf("%s/%s", s->dir, rel), *p;
	struct stat st;
	int error = 0;

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (json_object_get(s->dirs, rel))
		goto out;
	for (p = path + strlen(s->dir) + 1;; p++) {
		char c = *p;

		if (c != '/' && c != '\0')
			continue;
		*p = '\0';
		if (lstat(path, &st) < 0 && errno == ENOENT && mkdir(path, SITE_DIR_MODE) < 0 && errno != EEXIST)
			error = est_error_set(EST_EIO, "%s: cannot make the folder: %s", path, strerror(errno));
		else if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			error = est_error_set(EST_EIO, "%s: not a folder (a link or a file stands where the site "
					      "needs a folder); remove it and build the site again", path);
		*p = c;
		if (error < 0 || c == '\0')
			break;
	}
	if (error == 0)
		json_object_set_new(s->dirs, rel, json_true());
out:
	free(path);
	return error;
}

/* Write site file `rel` unless it holds these bytes already. */
static int site_put(site *s, const char *rel, const void *data, size_t len)
{
	char *path = est_strdup_printf("%s/%s", s->dir, rel), *parent = strdup(rel), *slash, *old = NULL;
	size_t old_len = 0;
	struct stat st;
	int error = 0;

	if (!path || !parent) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((slash = strrchr(parent, '/')) != NULL) {
		*slash = '\0';
		if ((error = site_mkdir(s, parent)) < 0)
			goto out;
	}
	json_object_set_new(s->files, rel, json_true());
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len &&
	    est_file_read(&old, &old_len, path, 0) == 0 && old_len == len && memcmp(old, data, len) == 0)
		goto out;
	est_error_clear();
	if ((error = est_file_write_hint(path, data, len, SITE_FILE_MODE)) == 0)
		s->written++;
out:
	free(old);
	free(parent);
	free(path);
	return error;
}

static int site_put_text(site *s, const char *rel, const char *text)
{
	return site_put(s, rel, text, strlen(text));
}

/*
 * Whether each folder on the way from `dir` to `rel` is a folder, not a
 * link: a manifest is a file in DIR that anyone who can write there can
 * edit, and "evil/x" with evil a link would have unlink() act elsewhere.
 */
static int plain_parents(const char *dir, const char *rel)
{
	char *path = est_strdup_printf("%s/%s", dir, rel), *p;
	struct stat st;
	int plain = path != NULL;

	for (p = path ? path + strlen(dir) + 1 : NULL; plain && p && (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		plain = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
		*p = '/';
	}
	free(path);
	return plain;
}

/* Remove the files an earlier build wrote that this one did not, and folders left empty. */
static int remove_stale(int *removed_out, site *s, const json_t *old)
{
	const json_t *name;
	size_t i;
	int removed = 0;

	json_array_foreach(json_object_get(old, "files"), i, name) {
		const char *rel = json_string_value(name);
		char *path, *slash;

		/* Only a plain relative path the site could have written. */
		if (!rel || !*rel || rel[0] == '/' || strstr(rel, "..") || json_object_get(s->files, rel) ||
		    !plain_parents(s->dir, rel))
			continue;
		if (!(path = est_strdup_printf("%s/%s", s->dir, rel)))
			return est_error_set(EST_ENOMEM, "out of memory");
		if (unlink(path) < 0 && errno != ENOENT) {
			int error = est_error_set(EST_EIO, "%s: cannot remove a page the site no longer has: %s",
						  path, strerror(errno));
			free(path);
			return error;
		}
		removed++;
		while ((slash = strrchr(path, '/')) != NULL && slash > path + strlen(s->dir)) {
			*slash = '\0';
			if (rmdir(path) < 0)
				break;
		}
		free(path);
	}
	*removed_out = removed;
	return 0;
}

/* ---- reading the game ---- */

/* `path` at `rev` of the game's repository, as committed. */
static int read_rev(char **out, size_t *len, site *s, const char *rev, const char *path)
{
	return est_store_read(out, len, s->game->store, rev, path);
}

/* Base64 of `len` bytes as a JSON string (the verifier's bytes, exactly). */
static json_t *base64_json(const char *data, size_t len)
{
	size_t cap = 4 * ((len + 2) / 3) + 1;
	unsigned char *buf = malloc(cap);
	json_t *value;

	if (!buf)
		return NULL;
	EVP_EncodeBlock(buf, (const unsigned char *)data, (int)len);
	value = json_string((char *)buf);
	free(buf);
	return value;
}

/* Add `path` at `rev` to `files` (base64); with `parsed_out`, parse it there too. */
static int add_blob(json_t *files, site *s, const char *rev, const char *path, json_t **parsed_out)
{
	char *data = NULL;
	size_t len;
	int error;

	if ((error = read_rev(&data, &len, s, rev, path)) < 0)
		goto out;
	if (json_object_set_new(files, path, base64_json(data, len)) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (parsed_out && (error = est_json_parse(parsed_out, data, len, path)) < 0)
		est_error_prefix("%s at %s", path, rev);
out:
	free(data);
	return error;
}

/* "estafetteData(<json>);\n" into data/<name> of the site. */
static int put_jsonp(site *s, const char *name, const json_t *doc)
{
	char *json = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER), *text = NULL, *rel = NULL;
	int error;

	if (!json || !(text = est_strdup_printf("estafetteData(%s);\n", json)) ||
	    !(rel = est_strdup_printf("data/%s", name))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	error = site_put_text(s, rel, text);
out:
	free(rel);
	free(text);
	free(json);
	return error;
}

/* Every file of main's tree, byte for byte, under raw/. */
static int put_raw(site *s)
{
	json_t *changes = NULL, *entry;
	size_t i;
	int error;

	if ((error = est_store_changes(&changes, s->game->store, NULL, s->game->head)) < 0)
		return error;
	json_array_foreach(changes, i, entry) {
		const char *path = json_string_value(json_object_get(entry, "path"));
		char *data = NULL, *rel = est_strdup_printf("raw/%s", path);
		size_t len;

		if (!rel)
			error = est_error_set(EST_ENOMEM, "out of memory");
		else if ((error = read_rev(&data, &len, s, s->game->head, path)) == 0)
			error = site_put(s, rel, data, len);
		free(data);
		free(rel);
		if (error < 0)
			break;
	}
	json_decref(changes);
	return error;
}

/* ---- the data model of the pages ---- */

/* Strings of a JSON array joined with ", "; null when none, so a template's section skips it. */
static json_t *joined(const json_t *list, const char *field)
{
	est_text t = {0};
	const json_t *item;
	json_t *out;
	size_t i;

	json_array_foreach(list, i, item) {
		const json_t *v = field ? json_object_get(item, field) : item;

		if (json_is_string(v))
			est_text_add(&t, "%s%s", t.len ? ", " : "", json_string_value(v));
	}
	out = t.failed ? NULL : t.len ? json_string(t.text) : json_null();
	free(t.text);
	return out;
}

/* What every page shows of the game: id, ruleset, scenario, options, players. */
static json_t *game_model(site *s)
{
	const json_t *g = s->game->game, *value, *player;
	json_t *options = json_array(), *players = json_array();
	const char *key, *dice = json_string_value(json_object_get(json_object_get(g, "dice"), "algorithm"));
	size_t i;

	json_object_foreach((json_t *)json_object_get(g, "options"), key, value) {
		char *text = json_is_string(value) ? strdup(json_string_value(value)) :
			json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
		json_array_append_new(options, json_pack("{s:s, s:s?}", "key", key, "value", text));
		free(text);
	}
	json_array_foreach(json_object_get(g, "players"), i, player)
		json_array_append_new(players, json_pack("{s:O, s:O, s:o}", "id", json_object_get(player, "id"),
			"name", json_object_get(player, "name"), "powers",
			joined(json_object_get(player, "powers"), NULL)));
	return json_pack("{s:O, s:O, s:O?, s:O?, s:o, s:o, s:b, s:s}", "id", json_object_get(g, "id"),
			 "ruleset", json_object_get(g, "ruleset"), "ruleset_version",
			 json_object_get(g, "ruleset_version"), "scenario", json_object_get(g, "scenario"),
			 "options", options, "players", players, "sealed", s->sealed,
			 "dice", dice ? dice : "estafette/dice/v1");
}

/* Whether `event` is of `type`. */
static int event_is(const json_t *event, const char *type)
{
	const char *t = json_string_value(json_object_get(event, "type"));

	return t && strcmp(t, type) == 0;
}

/* The text of the last of a step's events of `type`, or NULL (borrowed). */
static json_t *last_event_text(const json_t *events_doc, const char *type)
{
	json_t *event, *text = NULL;
	size_t i;

	json_array_foreach(json_object_get(events_doc, "events"), i, event)
		if (event_is(event, type))
			text = json_object_get(event, "text");
	return text;
}

/* How many of a step's events are of `type`. */
static int count_events(const json_t *events_doc, const char *type)
{
	const json_t *event;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(events_doc, "events"), i, event)
		n += event_is(event, type);
	return n;
}

/* Events of `type` (or, with `other`, of every type but press and gm) as [{type, text}]. */
static json_t *events_of(const json_t *events_doc, const char *type, int other)
{
	json_t *list = json_array();
	const json_t *event;
	size_t i;

	json_array_foreach(json_object_get(events_doc, "events"), i, event) {
		const char *t = json_string_value(json_object_get(event, "type"));
		int press_or_gm = event_is(event, "press") || event_is(event, "gm");

		if (other ? press_or_gm : !event_is(event, type))
			continue;
		json_array_append_new(list, json_pack("{s:s, s:O?}", "type", t ? t : "",
						      "text", json_object_get(event, "text")));
	}
	return list;
}

/* The timeline entry of step `n` from its manifest, dice and events. */
static json_t *step_record(long long n, const char *name, const json_t *manifest, const json_t *dice,
			   const json_t *events, int has_map)
{
	json_t *rec = json_pack("{s:I, s:s, s:O?, s:O?, s:O?, s:o, s:o, s:i, s:i, s:i, s:i, s:b}",
		"n", (json_int_t)n, "name", name, "kind", json_object_get(manifest, "kind"),
		"mode", json_object_get(manifest, "mode"), "deadline", json_object_get(manifest, "deadline"),
		"acted", joined(json_object_get(manifest, "orders"), "player"),
		"missed", joined(json_object_get(manifest, "missing"), "player"),
		"battles", count_events(events, "battle"),
		"rolls", (int)json_array_size(json_object_get(dice, "rolls")),
		"gm", count_events(events, "gm"), "press", count_events(events, "press"), "map", has_map);
	char *href = est_strdup_printf("steps/%s.html", name), *src = est_strdup_printf("raw/turns/%s/map.svg", name);

	if (rec && href && src) {
		json_object_set_new(rec, "href", json_string(href));
		json_object_set_new(rec, "map_src", json_string(src));
		if (json_is_string(json_object_get(manifest, "act")))
			json_object_set(rec, "act", json_object_get(manifest, "act"));
		if (last_event_text(events, "over"))
			json_object_set(rec, "over_text", last_event_text(events, "over"));
	}
	free(src);
	free(href);
	return rec;
}

/* Render templates/site/<name>.mustache with `data` into site file `rel`. */
static int put_page(site *s, const char *rel, const char *name, const json_t *data)
{
	char *tpath = est_strdup_printf("%s/%s.mustache", s->templates, name), *tmpl = NULL, *html = NULL;
	size_t len;
	int error;

	if (!tpath)
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = est_file_read(&tmpl, &len, tpath, 1 << 20)) < 0)
		goto out;
	if ((error = est_render(&html, tmpl, data, EST_RENDER_ESCAPE_HTML, est_render_file_partials,
				s->templates)) < 0) {
		est_error_prefix("%s", tpath);
		goto out;
	}
	error = site_put_text(s, rel, html);
out:
	free(html);
	free(tmpl);
	free(tpath);
	return error;
}

/* What lies between the HTML report's <body> and </body>: its content, to embed. */
static json_t *report_body(const char *html)
{
	const char *start = strstr(html, "<body"), *end;

	if (!start || !(start = strchr(start, '>')))
		return json_string(html);
	start++;
	for (end = NULL; (html = strstr(html, "</body>")) != NULL; html++)
		end = html;
	return end && end >= start ? json_stringn(start, (size_t)(end - start)) : json_string(start);
}

/*
 * The files of <top>/NNNN/<sub>/ at `rev` ("turns", "0007", "orders"):
 * [{name, href, sig_href?, text?, binary}], a signature linked from its
 * file; each added to `data_files` (base64) too when it is not NULL.
 */
static int step_files(json_t **out, json_t *data_files, site *s, const char *rev, const char *top,
		      const char *name, const char *sub)
{
	char **names = NULL, *dir = est_strdup_printf("%s/%s/%s", top, name, sub);
	json_t *list = json_array();
	size_t count, i;
	int error;

	if (!dir || !list) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_store_list(&names, &count, s->game->store, rev, dir)) < 0)
		goto out;
	for (i = 0; i < count; i++) {
		char *path = est_strdup_printf("%s/%s", dir, names[i]), *bytes = NULL, *href = NULL;
		size_t len, nlen = strlen(names[i]);
		int sig = nlen > 4 && strcmp(names[i] + nlen - 4, ".sig") == 0;
		json_t *entry;

		if (!path) {
			error = est_error_set(EST_ENOMEM, "out of memory");
			goto out;
		}
		/* Read once: the verifier's copy (base64) and the page's text come from the same bytes. */
		if ((data_files || !sig) && (error = read_rev(&bytes, &len, s, rev, path)) == 0 && data_files &&
		    json_object_set_new(data_files, path, base64_json(bytes, len)) < 0)
			error = est_error_set(EST_ENOMEM, "out of memory");
		if (error == 0 && !sig && (href = est_strdup_printf("../raw/%s", path)) != NULL) {
			/* Shown as text when it is UTF-8 (order files are); else only linked. */
			json_t *text = json_stringn(bytes, len);

			entry = json_pack("{s:s, s:s, s:o?, s:b}", "name", names[i], "href", href, "text", text,
					  "binary", text == NULL);
			for (size_t j = 0; entry && j < count; j++)
				if (strncmp(names[j], names[i], nlen) == 0 && strcmp(names[j] + nlen, ".sig") == 0)
					json_object_set_new(entry, "sig_href", json_sprintf("%s.sig", href));
			json_array_append_new(list, entry);
		}
		free(href);
		free(bytes);
		free(path);
		if (error < 0)
			goto out;
	}
	*out = list;
	list = NULL;
out:
	json_decref(list);
	est_store_list_free(names);
	free(dir);
	return error;
}

/* The dice of a step for its page: rolls numbered from 1. */
static json_t *dice_model(const json_t *dice)
{
	json_t *rolls = json_array();
	const json_t *roll;
	size_t i;

	json_array_foreach(json_object_get(dice, "rolls"), i, roll)
		json_array_append_new(rolls, json_pack("{s:I, s:O?, s:O?, s:O?}", "i", (json_int_t)i + 1,
			"sides", json_object_get(roll, "sides"), "value", json_object_get(roll, "value"),
			"purpose", json_object_get(roll, "purpose")));
	return json_pack("{s:O?, s:O?, s:O?, s:O?, s:o}", "algorithm", json_object_get(dice, "algorithm"),
			 "reveal", json_object_get(dice, "reveal"), "seed", json_object_get(dice, "seed"),
			 "hidden_rolls", json_integer_value(json_object_get(dice, "hidden_rolls")) > 0 ?
				 json_object_get(dice, "hidden_rolls") : NULL, "rolls", rolls);
}

/* 1 if `path` is the same blob (or equally missing) at revisions `a` and `b`. */
static int same_at(site *s, const char *a, const char *b, const char *path)
{
	char ida[EST_STORE_OID_HEX + 1] = "", idb[EST_STORE_OID_HEX + 1] = "";

	est_store_id(ida, s->game->store, a, path);
	est_store_id(idb, s->game->store, b, path);
	est_error_clear();
	return strcmp(ida, idb) == 0;
}

/*
 * What a step's data carries besides its own files, where there is any:
 * the step's revealed/NNNN/hidden-dice.json at main once `reveal` published
 * it, and keys/allowed_signers as the commit before the step had it when a
 * seat was replaced since (the orders were signed under those keys).
 */
static int add_step_extras(json_t *files, site *s, const char *rev, const char *name)
{
	char path[96], before[64], id[EST_STORE_OID_HEX + 1];
	int error;

	snprintf(path, sizeof(path), "revealed/%s/hidden-dice.json", name);
	if (est_store_id(id, s->game->store, s->game->head, path) < 0)
		est_error_clear();
	else if ((error = add_blob(files, s, s->game->head, path, NULL)) < 0)
		return error;
	snprintf(before, sizeof(before), "%s^", rev);
	if (!same_at(s, before, s->game->head, "keys/allowed_signers"))
		return add_blob(files, s, before, "keys/allowed_signers", NULL);
	return 0;
}

/* What a step's page is made of, read from its tag. */
typedef struct {
	json_t *manifest, *dice, *events; /* the step's files, parsed */
	json_t *orders, *acts;            /* turns/NNNN/orders/ and gm/ (step_files) */
	json_t *revealed;                 /* a sealed game's revealed/NNNN/orders/ at main, or NULL */
} step_parts;

static void step_parts_free(step_parts *p)
{
	json_decref(p->manifest);
	json_decref(p->dice);
	json_decref(p->events);
	json_decref(p->orders);
	json_decref(p->acts);
	json_decref(p->revealed);
}

/* data/NNNN.js of step `n` (tag `rev`), and the parts its page needs into *p. */
static int put_step_data(step_parts *p, site *s, long long n, const char *name, const char *rev)
{
	json_t *files = json_object(), *doc = NULL;
	char path[96];
	int error;

	if (est_store_tag_target((char[EST_STORE_OID_HEX + 1]){0}, s->game->store, rev) == EST_ENOTFOUND) {
		error = est_error_set(EST_ENOTFOUND, "%s: the tag %s is missing (a run was stopped between "
				      "the step's commit and its tag); estafette run adds it again, then build "
				      "the site", est_store_path(s->game->store), rev);
		goto out;
	}
	if ((error = add_blob(files, s, rev, "state.json", NULL)) < 0)
		goto out;
	snprintf(path, sizeof(path), "turns/%s/dice.json", name);
	if ((error = add_blob(files, s, rev, path, &p->dice)) < 0)
		goto out;
	snprintf(path, sizeof(path), "turns/%s/manifest.json", name);
	if ((error = add_blob(files, s, rev, path, &p->manifest)) < 0)
		goto out;
	snprintf(path, sizeof(path), "turns/%s/events.json", name);
	if ((error = add_blob(files, s, rev, path, &p->events)) < 0)
		goto out;
	if ((error = step_files(&p->orders, files, s, rev, "turns", name, "orders")) < 0 ||
	    (error = step_files(&p->acts, NULL, s, rev, "turns", name, "gm")) < 0 ||
	    (s->sealed && (error = step_files(&p->revealed, NULL, s, s->game->head, "revealed", name,
					      "orders")) < 0) ||
	    (error = add_step_extras(files, s, rev, name)) < 0)
		goto out;
	if (!(doc = json_pack("{s:s, s:I, s:O}", "kind", "step", "step", (json_int_t)n, "files", files))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s.js", name);
	error = put_jsonp(s, path, doc);
out:
	json_decref(doc);
	json_decref(files);
	return error;
}

/* steps/NNNN.html: step `n` (its timeline entry `rec`) after `prev` (NULL for step 1). */
static int put_step_page(site *s, const json_t *gamem, json_t *rec, const step_parts *p, json_t *prev,
			 long long n, const char *name)
{
	json_t *page, *body = NULL;
	char path[96], *report = NULL;
	int error;

	page = json_pack("{s:s, s:O, s:O, s:o, s:o, s:o, s:o, s:O, s:O, s:O?, s:O?, s:O?, s:s+}",
		"root", "../", "game", gamem, "step", rec, "dice", dice_model(p->dice),
		"events", events_of(p->events, NULL, 1), "press", events_of(p->events, "press", 0),
		"gm_events", events_of(p->events, "gm", 0), "acts", p->acts, "orders", p->orders,
		"manifest_orders", json_object_get(p->manifest, "orders"),
		"missing", json_object_get(p->manifest, "missing"),
		"refused", json_object_get(p->manifest, "refused"), "title", "step ", name);
	if (!page)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (json_array_size(p->revealed) > 0) {
		json_object_set(page, "revealed", p->revealed);
		json_object_set_new(page, "revealed_any", json_true());
	}
	/*
	 * Rendered here from the step's public state with estafette's own
	 * templates: never the committed report.html, nor a template of the
	 * game's, which whoever can push could fill with script.
	 */
	if (est_report_format_installed(&report, s->game, n, "html") == 0 && (body = report_body(report)) != NULL)
		json_object_set_new(page, "report", body);
	est_error_clear();
	if (prev) {
		json_object_set(page, "prev", prev);
		if (json_is_true(json_object_get(prev, "map")))
			json_object_set_new(page, "prev_map", json_true());
	}
	if (n < s->last) {
		est_step_name(path, n + 1);
		json_object_set_new(page, "next", json_pack("{s:I, s:s+}", "n", (json_int_t)n + 1,
							    "href", path, ".html"));
	}
	snprintf(path, sizeof(path), "steps/%s.html", name);
	error = put_page(s, path, "step.html", page);
	free(report);
	json_decref(page);
	return error;
}

/*
 * Step `n`: its data/NNNN.js, its page, and its entry of `timeline`.
 * `prev` is the previous step's entry (NULL for step 1).
 */
static int put_step(site *s, json_t *timeline, const json_t *gamem, long long n, json_t *prev)
{
	step_parts parts = {NULL, NULL, NULL, NULL, NULL, NULL};
	char name[32], rev[48], path[96], iso[32];
	json_t *rec = NULL;
	long long when;
	int error, has_map;

	est_step_name(name, n);
	snprintf(rev, sizeof(rev), "step-%s", name);
	if ((error = put_step_data(&parts, s, n, name, rev)) < 0)
		goto out;
	/*
	 * The page links the step's files and shows its map from raw/, main's
	 * tree: they must be what the step committed (audit's history check),
	 * or the page would show a later commit's bytes as the step's.
	 */
	snprintf(path, sizeof(path), "turns/%s", name);
	if (!same_at(s, rev, s->game->head, path)) {
		error = est_error_set(EST_EINVAL, "%s at main is not what %s committed: a later commit changed "
				      "the step's files (estafette audit names it); the site is not built on a "
				      "changed history", path, rev);
		goto out;
	}
	snprintf(path, sizeof(path), "turns/%s/map.svg", name);
	has_map = est_store_id((char[EST_STORE_OID_HEX + 1]){0}, s->game->store, rev, path) == 0;
	est_error_clear();
	if (!(rec = step_record(n, name, parts.manifest, parts.dice, parts.events, has_map)) ||
	    json_array_append(timeline, rec) < 0) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* When the step was resolved (its commit's time): what a reader looks for each morning. */
	if (est_store_commit_time(&when, s->game->store, rev) == 0) {
		est_time_iso(iso, (time_t)when);
		json_object_set_new(rec, "resolved", json_string(iso));
		/* "2026-12-02 16:00": short enough for a phone's column */
		json_object_set_new(rec, "resolved_text", json_sprintf("%.10s %.5s", iso, iso + 11));
	}
	est_error_clear();
	error = put_step_page(s, gamem, rec, &parts, prev, n, name);
out:
	json_decref(rec);
	step_parts_free(&parts);
	return error;
}

/* data/game.js: game.json and the keys as at main, state.json as step 0 made it. */
static int put_game_data(site *s)
{
	json_t *files = json_object(), *steps = json_array(), *doc = NULL;
	int error;

	for (long long n = 1; n <= s->last; n++)
		json_array_append_new(steps, json_integer(n));
	if ((error = add_blob(files, s, s->game->head, "game.json", NULL)) < 0 ||
	    (error = add_blob(files, s, s->game->head, "keys/allowed_signers", NULL)) < 0 ||
	    (error = add_blob(files, s, "step-0000", "state.json", NULL)) < 0)
		goto out;
	doc = json_pack("{s:s, s:O, s:O, s:O}", "kind", "game", "id", json_object_get(s->game->game, "id"),
			"steps", steps, "files", files);
	error = doc ? put_jsonp(s, "game.js", doc) : est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(doc);
	json_decref(steps);
	json_decref(files);
	return error;
}

/* The open step: what it awaits, from whom, by when; or the result when the game is over. */
static int current_model(json_t **out, site *s, const json_t *timeline)
{
	json_t *pending = NULL, *awaiting = json_array(), *state = NULL;
	const json_t *who, *last;
	long long when = 0;
	size_t i;
	int error;

	if ((error = est_store_commit_time(&when, s->game->store, s->game->head)) < 0 ||
	    (error = est_turn_pending(&pending, s->game, (time_t)when)) < 0)
		goto out;
	/* Who and how, never the prompt: in a sealed game it may come from the whole state. */
	json_array_foreach(json_object_get(pending, "awaiting"), i, who)
		json_array_append_new(awaiting, json_pack("{s:O?, s:O?, s:o, s:O?, s:O?, s:b}",
			"player", json_object_get(who, "player"), "name", json_object_get(who, "name"),
			"powers", joined(json_object_get(who, "awaited_powers") ?
				json_object_get(who, "awaited_powers") : json_object_get(who, "powers"), NULL),
			"mode", json_object_get(who, "mode"), "deadline", json_object_get(who, "deadline"),
			"received", json_is_true(json_object_get(who, "received"))));
	*out = json_pack("{s:I, s:O?, s:O?, s:O?, s:O?, s:o, s:b, s:b}", "last", (json_int_t)s->last,
		"next", json_object_get(pending, "step"), "kind", json_object_get(pending, "kind"),
		"mode", json_object_get(pending, "mode"), "deadline", json_object_get(pending, "deadline"),
		"awaiting", awaiting, "over", json_is_true(json_object_get(pending, "over")),
		"paused", json_is_true(json_object_get(pending, "paused")));
	awaiting = NULL;
	if (!*out) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (!json_is_true(json_object_get(*out, "over")))
		goto out;
	/* The result: the GM's end, else the last step's "over" event. */
	if (est_store_read_json(&state, s->game->store, s->game->head, "state.json") == 0 &&
	    json_is_string(json_object_get(json_object_get(state, "ended"), "text")))
		json_object_set(*out, "result", json_object_get(json_object_get(state, "ended"), "text"));
	est_error_clear();
	last = json_array_get(timeline, json_array_size(timeline) - 1);
	if (!json_object_get(*out, "result") && json_object_get(last, "over_text"))
		json_object_set(*out, "result", json_object_get(last, "over_text"));
out:
	json_decref(state);
	json_decref(awaiting);
	json_decref(pending);
	return error;
}

/* A copy of `list` in reverse order: the timeline newest first. */
static json_t *reversed(const json_t *list)
{
	json_t *out = json_array();

	for (size_t i = json_array_size(list); i-- > 0;)
		json_array_append(out, json_array_get(list, i));
	return out;
}

/* Copy templates/site/<name> to assets/<name>. */
static int put_asset(site *s, const char *name)
{
	char *src = est_strdup_printf("%s/%s", s->templates, name), *rel = est_strdup_printf("assets/%s", name);
	char *data = NULL;
	size_t len;
	int error;

	if (!src || !rel)
		error = est_error_set(EST_ENOMEM, "out of memory");
	else if ((error = est_file_read(&data, &len, src, 0)) == 0)
		error = site_put(s, rel, data, len);
	else if (error == EST_ENOTFOUND)
		error = est_error_set(EST_ECONFIG, "%s is missing: estafette's installation is incomplete "
				      "(reinstall it, or set ESTAFETTE_DATA to its data folder)", src);
	free(data);
	free(rel);
	free(src);
	return error;
}

/*
 * The manifest of the files of s->files, written only when it changed
 * (fsynced). `complete`: the build finished, and the manifest names the
 * commit it was built from; else "commit" is null, so that run builds the
 * site again.
 */
static int put_manifest(site *s, int complete)
{
	json_t *doc = json_pack("{s:s, s:O, s:I, s:s?, s:[]}", "estafette", SITE_FORMAT, "game",
				json_object_get(s->game->game, "id"), "step", (json_int_t)s->last,
				"commit", complete ? s->game->head : NULL, "files");
	char *text = NULL, *path = est_strdup_printf("%s/" SITE_MANIFEST, s->dir), *old = NULL;
	const char *key;
	json_t *value;
	size_t len;
	int error = 0;

	if (!doc || !path) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	json_object_foreach(s->files, key, value)
		json_array_append_new(json_object_get(doc, "files"), json_string(key));
	if (!(text = est_json_text(doc))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (est_file_read(&old, &len, path, 0) == 0 && strcmp(old, text) == 0)
		goto out;
	est_error_clear();
	error = est_file_write_atomic(path, text, strlen(text), SITE_FILE_MODE);
out:
	free(old);
	free(path);
	free(text);
	json_decref(doc);
	return error;
}

static int build(site *s, int *removed_out, const json_t *old)
{
	json_t *timeline = json_array(), *gamem = NULL, *page = NULL, *current = NULL;
	json_t *prev = NULL;
	int error;

	if (!(gamem = game_model(s)))
		return est_error_set(EST_ENOMEM, "out of memory");
	if ((error = put_raw(s)) < 0 || (error = put_game_data(s)) < 0 ||
	    (error = put_asset(s, "site.css")) < 0 || (error = put_asset(s, "estafette.js")) < 0 ||
	    (error = site_put_text(s, ".nojekyll", "")) < 0)
		goto out;
	for (long long n = 1; n <= s->last; n++) {
		if ((error = put_step(s, timeline, gamem, n, prev)) < 0)
			goto out;
		prev = json_array_get(timeline, json_array_size(timeline) - 1);
	}
	if ((error = current_model(&current, s, timeline)) < 0)
		goto out;
	page = json_pack("{s:s, s:O, s:o, s:O, s:o, s:I, s:s}", "root", "", "game", gamem,
			 "timeline", reversed(timeline), "maps", timeline, "current", current,
			 "steps", (json_int_t)s->last, "title", "the game");
	current = NULL;
	if (!page) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if (s->last > 0)
		json_object_set(page, "latest", json_array_get(timeline, json_array_size(timeline) - 1));
	if ((error = put_page(s, "index.html", "index.html", page)) < 0)
		goto out;
	json_object_set_new(page, "title", json_string("maps"));
	if ((error = put_page(s, "maps.html", "maps.html", page)) < 0)
		goto out;
	if ((error = remove_stale(removed_out, s, old)) < 0)
		goto out;
	error = put_manifest(s, 1);
out:
	json_decref(current);
	json_decref(page);
	json_decref(gamem);
	json_decref(timeline);
	return error;
}

int est_engine_site(json_t **summary_out, est_game *game, const char *dir)
{
	site s = {game, dir, NULL, json_object(), json_object(), 0, est_game_is_sealed(game), game->step};
	json_t *old = NULL;
	int error, removed = 0;

	if (!s.files || !s.dirs) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = check_dir(&old, game, dir)) < 0)
		goto out;
	if (!(s.templates = est_game_datadir("templates/site"))) {
		error = est_error_code();
		goto out;
	}
	/*
	 * The folder is marked as this game's site before anything is written
	 * into it, and a build that fails still lists what it wrote (and what
	 * the earlier one did), so that the next build takes the folder and
	 * cleans up after both.
	 */
	if ((error = est_mkdir_p(dir, SITE_DIR_MODE)) < 0 || (!old && (error = put_manifest(&s, 0)) < 0))
		goto out;
	if ((error = build(&s, &removed, old)) < 0) {
		char *message = strdup(est_error_message());
		const json_t *name;
		size_t i;

		json_array_foreach(json_object_get(old, "files"), i, name)
			if (json_is_string(name))
				json_object_set_new(s.files, json_string_value(name), json_true());
		put_manifest(&s, 0);
		/* The build's message, not whatever writing the manifest left. */
		est_error_set(error, "%s", message ? message : "out of memory");
		free(message);
		goto out;
	}
	*summary_out = json_pack("{s:O, s:s, s:I, s:s, s:i, s:i, s:i}", "game",
				 json_object_get(game->game, "id"), "dir", dir, "step", (json_int_t)game->step,
				 "commit", game->head, "files", (int)json_object_size(s.files),
				 "written", s.written, "removed", removed);
	if (!*summary_out)
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	json_decref(old);
	json_decref(s.dirs);
	json_decref(s.files);
	free(s.templates);
	return error;
}

/* The commit an earlier site of `game` at `dir` was built from, or NULL (none there, or not its site). */
static char *site_commit(est_game *game, const char *dir)
{
	json_t *doc = NULL;
	char *commit = NULL;

	if (read_manifest(&doc, dir, json_string_value(json_object_get(game->game, "id"))) == 0 &&
	    json_is_string(json_object_get(doc, "commit")))
		commit = strdup(json_string_value(json_object_get(doc, "commit")));
	est_error_clear();
	json_decref(doc);
	return commit;
}

char *est_engine_site_dir(est_game *game)
{
	char *dir = est_game_config(game, "estafette.sitedir", NULL), *path;

	if (!dir || dir[0] == '/')
		return dir;
	path = est_strdup_printf("%s/%s", est_store_path(game->store), dir);
	free(dir);
	return path;
}

int est_engine_site_update(json_t **summary_out, est_game *game)
{
	char *dir = est_engine_site_dir(game), *commit = NULL;
	int error = 0;

	*summary_out = NULL;
	if (!dir)
		return 0;
	commit = site_commit(game, dir);
	if (commit && strcmp(commit, game->head) == 0)
		goto out;
	if ((error = est_engine_site(summary_out, game, dir)) < 0)
		est_error_prefix("git config estafette.sitedir %s", dir);
out:
	free(commit);
	free(dir);
	return error;
}
