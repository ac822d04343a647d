/*
 * A text that grows line by line, for receipts and notices.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

void est_text_add(est_text *t, const char *fmt, ...)
{
	va_list ap;
	char *line = NULL;
	int n;

	if (t->failed)
		return;
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		t->failed = 1;
		return;
	}
	if (t->len + (size_t)n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *grown;

		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		if (!(grown = realloc(t->text, cap))) {
			free(line);
			t->failed = 1;
			return;
		}
		t->text = grown;
		t->cap = cap;
	}
	memcpy(t->text + t->len, line, (size_t)n + 1);
	t->len += (size_t)n;
	free(line);
}
