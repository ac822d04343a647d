/*
 * The plain driver of the fuzz targets for `make check`: runs each file
 * named on the command line through LLVMFuzzerTestOneInput once, as
 * libFuzzer would, so every input that once crashed a target (kept in
 * tests/fuzz/regressions/<target>/) stays fixed. A crash, an abort from the
 * target's oracle or a sanitizer report ends the process; otherwise it
 * prints how many files ran and exits 0.
 */
#include <errno.h>

#include "fuzz.h"

/*
 * Read all of `path` into *out, a buffer of exactly *len bytes as libFuzzer
 * hands its inputs (so a sanitizer build sees reads past the end), NULL for
 * an empty file. The caller frees it. -1 with errno set on error.
 */
static int read_all(uint8_t **out, size_t *len, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0)
		goto fail;
	if (n > 0 && (!(buf = malloc((size_t)n)) || fread(buf, 1, (size_t)n, f) != (size_t)n))
		goto fail;
	fclose(f);
	*out = buf;
	*len = (size_t)n;
	return 0;
fail:
	free(buf);
	fclose(f);
	if (!errno)
		errno = EIO;
	return -1;
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		uint8_t *data = NULL;
		size_t len = 0;

		if (read_all(&data, &len, argv[i]) < 0) {
			fprintf(stderr, "%s: cannot read: %s\n", argv[i], strerror(errno));
			return 66;
		}
		LLVMFuzzerTestOneInput(data ? data : (const uint8_t *)"", len);
		free(data);
	}
	printf("%d inputs ran\n", argc - 1);
	return 0;
}
