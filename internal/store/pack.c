/*
 * A commit's new objects as one pack file, and packs merged as they pile up.
 *
 * libgit2 writes each new object as a loose file: a step made some fifteen
 * files, as many folders and fsyncs, and in the profile of a 50-game batch
 * on ext4 half the time went to allocating those inodes. So the
 * objects go to an in-memory store (libgit2's mempack) first, and land as
 * one .pack and its .idx, both fsynced by libgit2's indexer, before any ref
 * names them.
 *
 * One pack a step would leave thousands of packs, and every lookup of a
 * new object searches them all. Past PACKS_BEFORE_MERGE small packs, they
 * are merged as `git repack --geometric=2` does: sorted by size, the small ones that do
 * not each at least double the one before are rolled into one. Packs over
 * MERGE_MAX_BYTES stay as they are. A history then holds at most some 20
 * small packs plus one pack a MiB, and each object is rewritten a few
 * times at most. The refs are packed too, as the step tags pile up.
 */
#include <dirent.h>
#include <errno.h>
#include <git2/sys/mempack.h>
#include <limits.h>
#include <git2/sys/odb_backend.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "store/store_private.h"
#include "util/error.h"
#include "util/fault.h"
#include "util/util.h"

/* Above libgit2's own backends (loose 1, packed 2): new objects go here. */
#define MEMPACK_PRIORITY 999

/*
 * A pack this big is left alone, so that a merge stays small: merging
 * 1.8 MiB of packs took 1.3 s and 14 MiB more memory on the 2-core test VM.
 * Past it, a history grows a pack about every 1 MiB (some 300 steps).
 */
#define MERGE_MAX_BYTES (1 << 20)

/*
 * Merge only past this many small packs: a merge runs libgit2's delta
 * search and reads every tag, so merging two 4 KiB packs at each step cost
 * more than the lookups among a few more packs.
 */
#define PACKS_BEFORE_MERGE 16

/* A pack in objects/pack: its path without ".pack" and its size in bytes. */
struct pack {
	char *base;
	off_t size;
};

int est_store__pack_start(est_store *store)
{
	git_odb *odb = NULL;
	git_odb_backend *mempack = NULL;
	int error = 0;

	if (git_repository_odb(&odb, store->repo) < 0 || git_mempack_new(&mempack) < 0) {
		error = est_store__git_error(store, EST_ERROR, "setting up the object store");
	} else if (git_odb_add_backend(odb, mempack, MEMPACK_PRIORITY) < 0) {
		error = est_store__git_error(store, EST_ERROR, "setting up the object store");
		mempack->free(mempack);
	} else {
		store->mempack = mempack; /* the object database owns it now */
	}
	git_odb_free(odb);
	return error;
}

int est_store__pack_add(est_store *store, const git_oid *id)
{
	if (store->unpacked_count == store->unpacked_cap) {
		size_t cap = store->unpacked_cap ? store->unpacked_cap * 2 : 32;
		git_oid *grown = realloc(store->unpacked, cap * sizeof(*grown));

		if (!grown)
			return est_error_set(EST_ENOMEM, "%s: out of memory", store->path);
		store->unpacked = grown;
		store->unpacked_cap = cap;
	}
	git_oid_cpy(&store->unpacked[store->unpacked_count++], id);
	return 0;
}

static int by_oid(const void *a, const void *b)
{
	return git_oid_cmp(a, b);
}

/*
 * Object `obj` as a pack entry: git's type-and-size header, then its zlib
 * data from `zs` (deflateInit'd once a pack, reset here). At zlib's fastest
 * level: a step's pack is merged once 16 small packs have gathered, and the
 * merge (libgit2's packbuilder) compresses every object again at the
 * default level. Errors: EST_EINVAL (over 4 GiB), EST_ERROR (zlib),
 * EST_ENOMEM (unset: the caller says it).
 */
static int put_entry(FILE *f, z_stream *zs, git_odb_object *obj)
{
	size_t size = git_odb_object_size(obj), n = 0;
	unsigned char head[16], c = (unsigned char)((git_odb_object_type(obj) << 4) | (size & 15));
	unsigned char *z = NULL;
	uLong zlen;
	int error = 0;

	if (size > UINT_MAX) /* zlib's avail_in; a game's files are kilobytes */
		return est_error_set(EST_EINVAL, "an object of %zu bytes is too large to pack", size);
	if (deflateReset(zs) != Z_OK)
		return est_error_set(EST_ERROR, "zlib: cannot reset: %s", zs->msg ? zs->msg : "?");
	zlen = deflateBound(zs, (uLong)size);
	if (!(z = malloc(zlen)))
		return EST_ENOMEM;
	for (size_t left = size >> 4; left; left >>= 7) {
		head[n++] = c | 0x80;
		c = left & 127;
	}
	head[n++] = c;
	zs->next_in = (Bytef *)git_odb_object_data(obj);
	zs->avail_in = (uInt)size;
	zs->next_out = z;
	zs->avail_out = (uInt)zlen;
	if (deflate(zs, Z_FINISH) != Z_STREAM_END)
		error = est_error_set(EST_ERROR, "zlib: cannot compress: %s", zs->msg ? zs->msg : "?");
	else if (fwrite(head, 1, n, f) != n || fwrite(z, 1, zs->total_out, f) != zs->total_out)
		error = EST_ENOMEM;
	free(z);
	return error;
}

/*
 * The noted objects as pack data in *out (malloc'd, *len bytes): git's
 * pack format version 2, "PACK", version and count, each object whole
 * (est_store__pack_merge makes the deltas), then the SHA-1 of all that.
 * Not git_packbuilder: to order the objects it reads every tag of the
 * repository, one ref lookup each, 10% of a step at step 1,100.
 */
static int pack_noted(char **out, size_t *len, est_store *store)
{
	git_oid *ids = store->unpacked;
	size_t n = 0, i;
	unsigned char head[12] = {'P', 'A', 'C', 'K', 0, 0, 0, 2}, sha[EVP_MAX_MD_SIZE];
	unsigned int sha_len = 0;
	git_odb *odb = NULL;
	z_stream zs = {0};
	FILE *f;
	char *grown;
	int error = 0;

	*out = NULL;
	*len = 0;
	qsort(ids, store->unpacked_count, sizeof(*ids), by_oid);
	for (i = 0; i < store->unpacked_count; i++)
		if (n == 0 || git_oid_cmp(&ids[n - 1], &ids[i]) != 0)
			git_oid_cpy(&ids[n++], &ids[i]);
	store->unpacked_count = n;
	for (i = 0; i < 4; i++)
		head[8 + i] = (unsigned char)(n >> (24 - 8 * i));
	if (!(f = open_memstream(out, len)))
		return est_error_set(EST_ENOMEM, "%s: out of memory packing the new objects",
				     store->path);
	if (fwrite(head, 1, sizeof(head), f) != sizeof(head))
		error = EST_ENOMEM;
	/* memLevel 4, not 8: a quarter of the hash table to clear at each reset, for a pack 1% larger. */
	if (error == 0 && deflateInit2(&zs, Z_BEST_SPEED, Z_DEFLATED, 15, 4, Z_DEFAULT_STRATEGY) != Z_OK)
		error = EST_ENOMEM; /* zlib's only failure here with valid arguments */
	if (error == 0 && git_repository_odb(&odb, store->repo) < 0)
		error = est_store__git_error(store, EST_ERROR, "packing the new objects");
	for (i = 0; i < n && error == 0; i++) {
		git_odb_object *obj = NULL;

		if (git_odb_read(&obj, odb, &ids[i]) < 0)
			error = est_store__git_error(store, EST_ERROR, "packing the new objects");
		else
			error = put_entry(f, &zs, obj);
		git_odb_object_free(obj);
	}
	deflateEnd(&zs);
	git_odb_free(odb);
	if (fclose(f) != 0 && error == 0)
		error = EST_ENOMEM;
	if (error == 0 && EVP_Digest(*out, *len, sha, &sha_len, EVP_sha1(), NULL) != 1)
		error = est_error_set(EST_ERROR, "%s: SHA-1 of the new pack failed", store->path);
	if (error == 0 && (grown = realloc(*out, *len + sha_len))) {
		memcpy(grown + *len, sha, sha_len);
		*out = grown;
		*len += sha_len;
	} else if (error == 0) {
		error = EST_ENOMEM;
	}
	if (error == EST_ENOMEM)
		est_error_set(EST_ENOMEM, "%s: out of memory packing the new objects", store->path);
	if (error < 0) {
		free(*out);
		*out = NULL;
	}
	return error;
}

int est_store__pack_write(est_store *store)
{
	char *pack = NULL;
	size_t len = 0;
	git_odb *odb = NULL;
	git_odb_writepack *writer = NULL;
	git_indexer_progress stats = {0};
	int error = 0;

	if (store->unpacked_count == 0) /* nothing to write */
		return 0;
	if ((error = pack_noted(&pack, &len, store)) < 0)
		goto out;
	if (git_repository_odb(&odb, store->repo) < 0 ||
	    git_odb_write_pack(&writer, odb, NULL, NULL) < 0 ||
	    writer->append(writer, pack, len, &stats) < 0 ||
	    writer->commit(writer, &stats) < 0 || git_odb_refresh(odb) < 0) {
		error = est_store__git_error(store, EST_EIO, "writing the new objects' pack");
		goto out;
	}
	est_fault_point("store-after-pack");
	/* Only once they are on disk: until then the objects live only here. */
	git_mempack_reset(store->mempack);
	store->unpacked_count = 0;
out:
	if (writer)
		writer->free(writer);
	git_odb_free(odb);
	free(pack);
	return error;
}

static int by_size(const void *a, const void *b)
{
	const struct pack *x = a, *y = b;

	return (x->size > y->size) - (x->size < y->size);
}

static void packs_free(struct pack *packs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(packs[i].base);
	free(packs);
}

/* Append a pack of `size` bytes at `base` (its path without ".pack"); takes `base`. */
static int push_pack(struct pack **packs, size_t *n, size_t *cap, char *base, off_t size)
{
	if (*n == *cap) {
		size_t grown_cap = *cap ? *cap * 2 : 16;
		struct pack *grown = realloc(*packs, grown_cap * sizeof(*grown));

		if (!grown) {
			free(base);
			return est_error_set(EST_ENOMEM, "out of memory");
		}
		*packs = grown;
		*cap = grown_cap;
	}
	(*packs)[*n].base = base;
	(*packs)[(*n)++].size = size;
	return 0;
}

/*
 * What a process killed while writing or merging packs leaves: the
 * temporary file of libgit2's indexer (pack_git2_*), and a .pack whose
 * .idx is gone (remove_pack removes the .idx first). Removed once older
 * than LEFTOVER_SECONDS, since git itself writes a .pack before its .idx.
 */
#define LEFTOVER_SECONDS 3600
static int is_old(const struct stat *st, time_t now)
{
	return S_ISREG(st->st_mode) && now - st->st_mtime > LEFTOVER_SECONDS;
}

/*
 * Take <dir>/<name>.pack (`len` bytes of `name`): a merge candidate if it
 * has its .idx, neither a .keep nor a .promisor (git's marks for packs to
 * leave be) and is at most MERGE_MAX_BYTES; a leftover if it has no .idx.
 */
static int take_pack(struct pack **packs, size_t *n, size_t *cap, const char *dir,
		     const char *name, size_t len, time_t now)
{
	char *base = est_strdup_printf("%s/%.*s", dir, (int)len, name);
	char *idx = base ? est_strdup_printf("%s.idx", base) : NULL;
	char *keep = base ? est_strdup_printf("%s.keep", base) : NULL;
	char *promisor = base ? est_strdup_printf("%s.promisor", base) : NULL;
	char *pack = base ? est_strdup_printf("%s.pack", base) : NULL;
	struct stat st;
	int error = 0;

	if (!idx || !keep || !promisor || !pack) {
		error = est_error_set(EST_ENOMEM, "out of memory");
	} else if (stat(pack, &st) < 0) {
		/* gone meanwhile: nothing to take */
	} else if (!est_path_exists(idx)) {
		if (is_old(&st, now))
			unlink(pack);
	} else if (!est_path_exists(keep) && !est_path_exists(promisor) &&
		   st.st_size <= MERGE_MAX_BYTES) {
		error = push_pack(packs, n, cap, base, st.st_size);
		base = NULL;
	}
	free(pack);
	free(promisor);
	free(keep);
	free(idx);
	free(base);
	return error;
}

/* Remove <dir>/<name> if it is an old temporary file of libgit2's indexer. */
static void take_temporary(const char *dir, const char *name, time_t now)
{
	char *path = est_strdup_printf("%s/%s", dir, name);
	struct stat st;

	if (path && stat(path, &st) == 0 && is_old(&st, now))
		unlink(path);
	free(path);
}

/*
 * The merge candidates of `dir` (as take_pack takes them), smallest first,
 * into a new array; leftovers removed on the way. One stat a pack.
 */
static int list_packs(struct pack **out, size_t *count, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	struct pack *packs = NULL;
	size_t n = 0, cap = 0, len;
	time_t now = time(NULL);
	int error = 0;

	*out = NULL;
	*count = 0;
	if (!d)
		return est_error_set(EST_EIO, "%s: cannot read folder: %s", dir, strerror(errno));
	while (error == 0 && (entry = readdir(d))) {
		len = strlen(entry->d_name);
		if (strncmp(entry->d_name, "pack_git2_", 10) == 0)
			take_temporary(dir, entry->d_name, now);
		else if (len > 5 && strcmp(entry->d_name + len - 5, ".pack") == 0)
			error = take_pack(&packs, &n, &cap, dir, entry->d_name, len - 5, now);
	}
	closedir(d);
	if (error < 0) {
		packs_free(packs, n);
		return error;
	}
	if (n > 1)
		qsort(packs, n, sizeof(*packs), by_size);
	*out = packs;
	*count = n;
	return 0;
}

/*
 * How many of the smallest `packs` to roll into one (0 or 1: none), as git
 * repack --geometric=2: everything up to the last pair from the top that
 * does not double, then every next pack smaller than twice the roll-up.
 */
static size_t geometric_split(const struct pack *packs, size_t n)
{
	size_t i, split;
	off_t total = 0;

	for (i = n > 0 ? n - 1 : 0; i > 0; i--)
		if (packs[i].size < 2 * packs[i - 1].size)
			break;
	split = i > 0 ? i + 1 : 0;
	for (i = 0; i < split; i++)
		total += packs[i].size;
	while (split < n && packs[split].size < 2 * total)
		total += packs[split++].size;
	return split;
}

static int insert_object(const git_oid *id, void *payload)
{
	return git_packbuilder_insert(payload, id, NULL);
}

/* Remove a merged pack: its .idx first, so that no index names a missing pack. */
static void remove_pack(const char *base)
{
	static const char *const suffixes[] = {".idx", ".pack", ".rev", ".bitmap", ".mtimes"};

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		char *path = est_strdup_printf("%s%s", base, suffixes[i]);

		if (path)
			unlink(path);
		free(path);
	}
}

/* Write one pack of every object of packs[0..count), then remove those packs. */
static int merge_packs(est_store *store, const struct pack *packs, size_t count, const char *dir)
{
	git_packbuilder *builder = NULL;
	git_odb *odb = NULL;
	char *name = NULL;
	int error = 0;

	if (git_packbuilder_new(&builder, store->repo) < 0)
		return est_store__git_error(store, EST_ERROR, "merging packs");
	/*
	 * Every object of the merged packs is read once: kept out of the object
	 * cache, which they would fill to its bound and hold while the step's
	 * map is drawn, the process's peak (2 MiB of a late step's). With
	 * caching off, libgit2 empties the cache at the first object read.
	 */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	for (size_t i = 0; i < count && error == 0; i++) {
		char *idx = est_strdup_printf("%s.idx", packs[i].base);
		git_odb_backend *one = NULL;

		if (!idx || git_odb_backend_one_pack(&one, idx) < 0 ||
		    one->foreach(one, insert_object, builder) < 0)
			error = est_store__git_error(store, EST_ERROR, "merging packs");
		if (one)
			one->free(one);
		free(idx);
	}
	if (error == 0 && git_packbuilder_write(builder, dir, 0, NULL, NULL) < 0)
		error = est_store__git_error(store, EST_EIO, "writing a merged pack");
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 1);
	if (error == 0) {
		est_fault_point("store-after-merged-pack");
		name = est_strdup_printf("%s/pack-%s", dir, git_packbuilder_name(builder));
		for (size_t i = 0; i < count; i++)
			if (name && strcmp(packs[i].base, name) != 0)
				remove_pack(packs[i].base);
		if (git_repository_odb(&odb, store->repo) == 0)
			git_odb_refresh(odb);
	}
	free(name);
	git_odb_free(odb);
	git_packbuilder_free(builder);
	return error;
}

/* The entries of folder `dir` (0 if it cannot be read), counting at most `most`. */
static size_t count_entries(const char *dir, size_t most)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	size_t n = 0;

	while (d && n < most && (entry = readdir(d)))
		n += entry->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/*
 * Move the loose refs into packed-refs, as `git pack-refs` does, once
 * LOOSE_TAGS_MAX step tags are loose: libgit2 reads every tag when it
 * writes a pack (to order the objects), and a loose tag is a file to open.
 */
#define LOOSE_TAGS_MAX 64
static int pack_refs(est_store *store)
{
	char *tags = est_strdup_printf("%srefs/tags", git_repository_commondir(store->repo));
	git_refdb *refdb = NULL;
	int error = 0;

	if (!tags)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (count_entries(tags, LOOSE_TAGS_MAX) >= LOOSE_TAGS_MAX &&
	    (git_repository_refdb(&refdb, store->repo) < 0 || git_refdb_compress(refdb) < 0))
		error = est_store__git_error(store, EST_EIO, "packing the refs");
	git_refdb_free(refdb);
	free(tags);
	return error;
}

int est_store__pack_merge(est_store *store)
{
	char *dir = est_strdup_printf("%sobjects/pack", git_repository_commondir(store->repo));
	struct pack *packs = NULL;
	size_t n = 0, split;
	int error, refs_error;

	if (!dir)
		return est_error_set(EST_ENOMEM, "out of memory");
	/* Independent: refs that cannot be packed must not stop the packs' merging. */
	refs_error = pack_refs(store);
	if ((error = list_packs(&packs, &n, dir)) == 0 && n > PACKS_BEFORE_MERGE &&
	    (split = geometric_split(packs, n)) > 1)
		error = merge_packs(store, packs, split, dir);
	packs_free(packs, n);
	free(dir);
	return refs_error < 0 ? refs_error : error;
}
