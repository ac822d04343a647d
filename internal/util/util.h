/*
 * Small helpers shared by every module: whole-file I/O, atomic writes,
 * hex and SHA-256. Each returns 0 or a negative EST_E* code with the
 * message set (util/error.h).
 */
#ifndef EST_UTIL_UTIL_H
#define EST_UTIL_UTIL_H

#include <stddef.h>
#include <sys/types.h>
#include <time.h>

#define EST_SHA256_LEN 32
#define EST_SHA256_HEX_LEN 64

/*
 * Read all of `path` into a new NUL-terminated buffer (*out, length *len
 * without the NUL; caller frees with free()). Files over `max` bytes are
 * refused (max 0: no limit).
 *
 * Errors: EST_ENOTFOUND (no such file, or a folder or other non-regular
 * file, which is never waited on), EST_EINVAL (over max),
 * EST_EIO, EST_ENOMEM.
 */
int est_file_read(char **out, size_t *len, const char *path, size_t max);

/*
 * est_file_read for a secret (a password, the dice secrets): refused with
 * EST_ECONFIG, saying to chmod 600, when group or others may read it, as
 * ssh refuses such a private key. Errors: those of est_file_read, and
 * EST_ECONFIG.
 */
int est_file_read_private(char **out, size_t *len, const char *path, size_t max);

/*
 * Write `len` bytes to `path` atomically: a temporary file in the same
 * directory, fsync, rename, fsync of the directory. A crash leaves either
 * the old file or the new one, never a torn one. `mode` e.g. 0600. A
 * symbolic link at the temporary name is not followed (EST_EIO); one at
 * `path` is replaced by the file, never written through.
 *
 * Errors: EST_EIO.
 */
int est_file_write_atomic(const char *path, const void *data, size_t len, mode_t mode);

/*
 * est_file_write_atomic without the fsync of the folder, for files written
 * in numbers into one folder: the content is durable before the file gets
 * its name, so after a power cut the file is whole, or the old one, or
 * missing, never torn; est_dir_sync of the folder then makes the names
 * durable, all at once.
 *
 * Errors: EST_EIO.
 */
int est_file_write_whole(const char *path, const void *data, size_t len, mode_t mode);

/* fsync the folder `dir`: the names made in it so far are durable. Errors: EST_EIO. */
int est_dir_sync(const char *dir);

/*
 * fsync the folder that holds `path` ("." for a bare name): `path`'s name
 * there is durable. Errors: EST_ENOMEM, EST_EIO.
 */
int est_dir_sync_parent(const char *path);

/*
 * est_file_write_atomic without the two fsyncs, for a hint whose loss only
 * costs work: another process reads the old file or the new one, never a
 * torn one, but after a power cut the file may be the old one, missing or
 * empty, so a reader must treat anything unexpected as no hint.
 *
 * Errors: EST_EIO.
 */
int est_file_write_hint(const char *path, const void *data, size_t len, mode_t mode);

/*
 * mkdir -p with `mode` for the folders it makes; the parent of each folder
 * it makes is fsynced, so the whole path survives a power cut.
 * Errors: EST_EIO.
 */
int est_mkdir_p(const char *path, mode_t mode);

/*
 * Can a file be written in folder `dir` now? mkdir -p it (with `mode`),
 * then write one byte to a probe file in it and remove that. For a command
 * that must write there after a step it cannot take back, to find out
 * before that step.
 *
 * Errors: EST_EIO naming the folder and the system's reason ("Read-only
 * file system", "No space left on device"); EST_ENOMEM.
 */
int est_dir_check_writable(const char *dir, mode_t mode);

/*
 * fsync every folder under `path`, `path` itself last (no symbolic link is
 * followed): every name made in the tree so far is durable, though not the
 * name of `path` in its own parent. For a tree another library made
 * without syncing its folders. Errors: EST_EIO naming what failed.
 */
int est_dir_sync_tree(const char *path);

/*
 * rm -rf `path` (no symbolic link is followed). A missing path is fine.
 * Errors: EST_EIO naming what could not be removed.
 */
int est_remove_tree(const char *path);

/* 1 if `path` exists (any type), else 0. */
int est_path_exists(const char *path);

/* SHA-256 of `len` bytes into out[32]. */
void est_sha256(unsigned char out[EST_SHA256_LEN], const void *data, size_t len);

/* Lower-case hex of `len` bytes into `out` (2*len+1 bytes, NUL-terminated). */
void est_hex_encode(char *out, const unsigned char *in, size_t len);

/*
 * Decode exactly `len` bytes from `hex` (2*len hex digits, either case,
 * nothing after). Errors: EST_EINVAL.
 */
int est_hex_decode(unsigned char *out, size_t len, const char *hex);

/* SHA-256 of `len` bytes as 64 lower-case hex digits into out[65]. */
void est_sha256_hex(char out[EST_SHA256_HEX_LEN + 1], const void *data, size_t len);

/*
 * printf into a new heap string (caller frees). Returns NULL on ENOMEM.
 */
char *est_strdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * $ESTAFETTE_HOME, or $HOME/.local/share/estafette. Caller frees.
 * Returns NULL if neither variable is set.
 */
char *est_home_dir(void);

/* `t` (seconds since the epoch) as ISO 8601 UTC, "2026-11-29T16:00:00Z", into buf[32]; "" for 0. */
void est_time_iso(char buf[32], time_t t);

/*
 * A text that grows line by line (util/text.c); `failed` is set if memory
 * ran out, and later additions are then dropped. `len` and `cap` keep each
 * addition proportional to its own length, not to the text's. Start it as
 * {0}; the caller frees `text`.
 */
typedef struct {
	char *text;
	int failed;
	size_t len; /* strlen(text) */
	size_t cap; /* bytes allocated at text */
} est_text;

/* Append printf-style text to `t`. */
void est_text_add(est_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
