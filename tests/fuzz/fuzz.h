/*
 * Shared by the fuzz targets (tests/fuzz/<target>_fuzz.c): the libFuzzer
 * entry point's prototype, an input split into parts, and the oracle every
 * target applies besides the sanitizers.
 *
 * Each target is built twice: with clang -fsanitize=fuzzer,address,undefined
 * for `make fuzz`, and with the project's compiler, linked to the plain
 * driver regress.c, for `make check` (tests/integration/fuzz_regressions.sh
 * runs every saved crash and every corpus file through it).
 */
#ifndef EST_FUZZ_H
#define EST_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Cut `data` at the first `n - 1` NUL bytes into `n` parts: part[i] is a new
 * NUL-terminated copy (parts that are missing are ""), len[i] its length.
 * Free with fuzz_parts_free. Returns 0, or -1 when out of memory.
 */
static inline int fuzz_split(char **part, size_t *len, size_t n, const uint8_t *data, size_t size)
{
	size_t i, at = 0;

	for (i = 0; i < n; i++) {
		const uint8_t *nul = NULL;
		size_t l = 0;

		if (at < size) {
			nul = i + 1 < n ? memchr(data + at, 0, size - at) : NULL;
			l = nul ? (size_t)(nul - (data + at)) : size - at;
		}
		part[i] = malloc(l + 1);
		if (!part[i]) {
			while (i--)
				free(part[i]);
			return -1;
		}
		if (l)
			memcpy(part[i], data + at, l);
		part[i][l] = 0;
		len[i] = l;
		at += l + (nul != NULL);
		if (!nul)
			at = size;
	}
	return 0;
}

static inline void fuzz_parts_free(char **part, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(part[i]);
}

/*
 * A finding that is no sanitizer's: a refusal with no message, or a code the
 * function's header does not allow for this input (EST_ERROR is exit 70,
 * which bad input must never give). Aborts, so libFuzzer saves the input.
 */
static inline void fuzz_expect(int rc, const char *what, int allowed_mask)
{
	const char *msg;

	if (rc == 0)
		return;
	msg = est_error_message();
	if (rc > 0 || rc < -31 || !(allowed_mask & (1 << -rc))) {
		fprintf(stderr, "fuzz: %s returned %d (%s): %s\n", what, rc, est_error_name(rc), msg ? msg : "");
		abort();
	}
	if (!msg || !*msg) {
		fprintf(stderr, "fuzz: %s refused (%d) with no message\n", what, rc);
		abort();
	}
}

#define FUZZ_OK(code) (1 << -(code))

#endif
