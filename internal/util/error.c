#include "util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sysexits.h>

static _Thread_local char last_message[4096];
static _Thread_local int last_code;

int est_error_set(int code, const char *fmt, ...)
{
	char text[sizeof(last_message)];
	va_list ap;

	/* Through a copy: an argument may be est_error_message() itself (gm.c adds context so). */
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	memcpy(last_message, text, sizeof(last_message));
	last_code = code;
	return code;
}

int est_error_prefix(const char *fmt, ...)
{
	char prefix[1024], old[sizeof(last_message)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, last_message, sizeof(old));
	/* Bounded so the result always fits: context first, then the cause. */
	snprintf(last_message, sizeof(last_message), "%.1000s: %.3000s", prefix, old);
	return last_code;
}

const char *est_error_message(void)
{
	return last_message;
}

int est_error_code(void)
{
	return last_code;
}

void est_error_clear(void)
{
	last_message[0] = '\0';
	last_code = 0;
}

int est_error_exit_code(int code)
{
	switch (code) {
	case EST_OK: return EX_OK;
	case EST_EINVAL:
	case EST_ESIG: return EX_DATAERR;
	case EST_ENOTFOUND: return EX_NOINPUT;
	case EST_EIO: return EX_CANTCREAT;
	case EST_ELOCKED:
	case EST_ETEMPFAIL: return EX_TEMPFAIL;
	case EST_ECONFIG: return EX_CONFIG;
	case EST_EUSAGE: return EX_USAGE;
	default: return EX_SOFTWARE;
	}
}

const char *est_error_name(int code)
{
	switch (code) {
	case EST_OK: return "ok";
	case EST_EINVAL: return "invalid";
	case EST_ESIG: return "signature";
	case EST_ENOTFOUND: return "not-found";
	case EST_ENOMEM: return "no-memory";
	case EST_EIO: return "io";
	case EST_ELOCKED: return "locked";
	case EST_ETEMPFAIL: return "temporary";
	case EST_ECONFIG: return "config";
	case EST_EUSAGE: return "usage";
	default: return "internal";
	}
}
