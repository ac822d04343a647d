#include "util/util.h"
#include "util/error.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

int est_file_read(char **out, size_t *len, const char *path, size_t max)
{
	char *buf = NULL;
	size_t used = 0, cap = 0;
	struct stat st;
	int error = 0;
	FILE *f;

	/* A folder or a FIFO given for a file: say so, rather than fail oddly or wait on it. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return est_error_set(EST_ENOTFOUND, "%s: is %s, not a regular file; name the file itself",
				     path, S_ISDIR(st.st_mode) ? "a folder" : S_ISCHR(st.st_mode) ||
				     S_ISBLK(st.st_mode) ? "a device" : S_ISFIFO(st.st_mode) ? "a pipe" :
				     "a special file");
	if (!(f = fopen(path, "rb")))
		return est_error_set(errno == ENOENT ? EST_ENOTFOUND : EST_EIO,
				     "%s: cannot open: %s", path, strerror(errno));
	for (;;) {
		if (cap - used < 4096) {
			char *grown;

			cap = cap ? cap * 2 : 8192;
			if (!(grown = realloc(buf, cap + 1))) {
				error = est_error_set(EST_ENOMEM, "out of memory");
				goto out;
			}
			buf = grown;
		}
		size_t n = fread(buf + used, 1, cap - used, f);
		used += n;
		if (max && used > max) {
			error = est_error_set(EST_EINVAL, "%s: larger than %zu bytes", path, max);
			goto out;
		}
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		error = est_error_set(EST_EIO, "%s: read error", path);
		goto out;
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	buf = NULL;
out:
	free(buf);
	fclose(f);
	return error;
}

int est_file_read_private(char **out, size_t *len, const char *path, size_t max)
{
	struct stat st;

	if (stat(path, &st) == 0 && (st.st_mode & 077))
		return est_error_set(EST_ECONFIG, "%s: readable by others (mode %04o), and it holds a "
				     "secret; chmod 600 %s", path, (unsigned)(st.st_mode & 07777), path);
	return est_file_read(out, len, path, max);
}

int est_dir_sync(const char *dir)
{
	int fd, error = 0;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || fsync(fd) < 0)
		error = est_error_set(EST_EIO, "%s: cannot sync folder: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	return error;
}

int est_dir_sync_parent(const char *path)
{
	char *dir = strdup(path), *slash;
	int error;

	if (!dir)
		return est_error_set(EST_ENOMEM, "out of memory");
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	error = est_dir_sync(dir);
	free(dir);
	return error;
}

enum { SYNC_CONTENT = 1, SYNC_FOLDER = 2 };

/* A temporary file, renamed over `path`; fsynced and its folder fsynced as `sync` says. */
static int write_replacing(const char *path, const void *data, size_t len, mode_t mode, unsigned sync)
{
	char *tmp = est_strdup_printf("%s.tmp.%ld", path, (long)getpid());
	const char *p = data;
	int fd = -1, error = 0;

	if (!tmp)
		return est_error_set(EST_ENOMEM, "out of memory");
	/*
	 * Our own file, never one planted at the temporary name (a link, or a
	 * file another user could read): what a killed process of the same pid
	 * left there is removed (the name, not what a link points to) and the
	 * file made anew, exclusively.
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd < 0) {
		error = est_error_set(EST_EIO, "%s: cannot create: %s", tmp, strerror(errno));
		goto out;
	}
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error = est_error_set(EST_EIO, "%s: write failed: %s", tmp, strerror(errno));
			goto out;
		}
		p += n;
		len -= (size_t)n;
	}
	if ((sync & SYNC_CONTENT) && fsync(fd) < 0) {
		error = est_error_set(EST_EIO, "%s: cannot sync: %s", tmp, strerror(errno));
		goto out;
	}
	if (close(fd) < 0) { /* a write the kernel deferred failed */
		fd = -1;
		error = est_error_set(EST_EIO, "%s: write failed: %s", tmp, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		error = est_error_set(EST_EIO, "%s: cannot rename into place: %s", path, strerror(errno));
		goto out;
	}
	if (sync & SYNC_FOLDER)
		error = est_dir_sync_parent(path);
out:
	if (fd >= 0)
		close(fd);
	if (error)
		unlink(tmp);
	free(tmp);
	return error;
}

int est_file_write_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	return write_replacing(path, data, len, mode, SYNC_CONTENT | SYNC_FOLDER);
}

int est_file_write_whole(const char *path, const void *data, size_t len, mode_t mode)
{
	return write_replacing(path, data, len, mode, SYNC_CONTENT);
}

int est_file_write_hint(const char *path, const void *data, size_t len, mode_t mode)
{
	return write_replacing(path, data, len, mode, 0);
}

int est_mkdir_p(const char *path, mode_t mode)
{
	char *copy = strdup(path);
	int error = 0;

	if (!copy)
		return est_error_set(EST_ENOMEM, "out of memory");
	for (char *p = copy + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char saved = *p;
		*p = '\0';
		if (mkdir(copy, mode) == 0) {
			/* A folder's name is durable only once its parent is synced. */
			if ((error = est_dir_sync_parent(copy)) < 0)
				break;
		} else if (errno != EEXIST) {
			error = est_error_set(EST_EIO, "%s: cannot create folder: %s", copy, strerror(errno));
			break;
		}
		*p = saved;
		if (saved == '\0')
			break;
	}
	free(copy);
	return error;
}

int est_dir_check_writable(const char *dir, mode_t mode)
{
	char *probe = NULL;
	int fd = -1, error;

	if ((error = est_mkdir_p(dir, mode)) < 0)
		return error;
	if (!(probe = est_strdup_printf("%s/.probe.%ld", dir, (long)getpid())))
		return est_error_set(EST_ENOMEM, "out of memory");
	/* One byte written, not just a name made: a full disk takes names but no data. */
	if ((fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600)) < 0 ||
	    write(fd, "", 1) != 1)
		error = est_error_set(EST_EIO, "%s: cannot write: %s", dir, strerror(errno));
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	free(probe);
	return error;
}

static int sync_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	/* 1, not -1: the walk stops, and est_dir_sync's message names the folder. */
	return type == FTW_DP && est_dir_sync(path) < 0 ? 1 : 0;
}

int est_dir_sync_tree(const char *path)
{
	int rc = nftw(path, sync_entry, 16, FTW_DEPTH | FTW_PHYS);

	if (rc > 0)
		return EST_EIO;
	if (rc < 0)
		return est_error_set(EST_EIO, "%s: cannot walk to sync it: %s", path, strerror(errno));
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return (type == FTW_DP ? rmdir(path) : unlink(path)) < 0 ? -1 : 0;
}

int est_remove_tree(const char *path)
{
	if (!est_path_exists(path))
		return 0;
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return est_error_set(EST_EIO, "%s: cannot remove: %s", path, strerror(errno));
	return 0;
}

int est_path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/*
 * OpenSSL 3 looks a digest up by name on every SHA256() or EVP_sha256()
 * call, which cost more than the hash of a dice chain value; fetch it once.
 */
static EVP_MD *sha256_md;
static CRYPTO_ONCE sha256_once = CRYPTO_ONCE_STATIC_INIT;

static void fetch_sha256(void)
{
	sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

void est_sha256(unsigned char out[EST_SHA256_LEN], const void *data, size_t len)
{
	if (CRYPTO_THREAD_run_once(&sha256_once, fetch_sha256) && sha256_md &&
	    EVP_Digest(data, len, out, NULL, sha256_md, NULL))
		return;
	SHA256(data, len, out);
}

void est_hex_encode(char *out, const unsigned char *in, size_t len)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int est_hex_decode(unsigned char *out, size_t len, const char *hex)
{
	if (strlen(hex) != 2 * len)
		return est_error_set(EST_EINVAL, "expected %zu hex digits, got %zu", 2 * len, strlen(hex));
	for (size_t i = 0; i < len; i++) {
		int hi = hex_value(hex[2 * i]), lo = hex_value(hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return est_error_set(EST_EINVAL, "not a hex digit at position %zu", 2 * i);
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	return 0;
}

void est_sha256_hex(char out[EST_SHA256_HEX_LEN + 1], const void *data, size_t len)
{
	unsigned char md[EST_SHA256_LEN];

	est_sha256(md, data, len);
	est_hex_encode(out, md, sizeof(md));
}

char *est_strdup_printf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

char *est_home_dir(void)
{
	const char *env = getenv("ESTAFETTE_HOME"), *home;

	if (env && *env)
		return strdup(env);
	if (!(home = getenv("HOME")) || !*home)
		return NULL;
	return est_strdup_printf("%s/.local/share/estafette", home);
}

void est_time_iso(char buf[32], time_t t)
{
	struct tm tm;

	buf[0] = '\0';
	if (t > 0 && gmtime_r(&t, &tm))
		strftime(buf, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
