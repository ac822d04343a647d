/*
 * estafette error convention (STYLE.md "Errors").
 *
 * Library functions return 0 on success or a negative EST_E* code. The
 * message for a person goes into a per-thread error slot, in the form
 * "FILE: field "X" ...: rule; fix", which cmd/ prints. Libraries never
 * print to stderr and never exit.
 */
#ifndef EST_UTIL_ERROR_H
#define EST_UTIL_ERROR_H

enum {
	EST_OK = 0,
	EST_ERROR = -1,     /* internal error; exit 70 */
	EST_EINVAL = -2,    /* bad input: orders, mail, JSON; exit 65 */
	EST_ESIG = -3,      /* a signature does not verify; exit 65 */
	EST_ENOTFOUND = -4, /* missing file or game; exit 66 */
	EST_ENOMEM = -5,    /* out of memory; exit 70 */
	EST_EIO = -6,       /* cannot write; exit 73 */
	EST_ELOCKED = -7,   /* another run holds the game's lock; exit 75 */
	EST_ETEMPFAIL = -8, /* try later: SMTP down, ref moved; exit 75 */
	EST_ECONFIG = -9,   /* configuration error; exit 78 */
	EST_EUSAGE = -10,   /* command line misuse; exit 64 */
};

/*
 * Record `code` and a printf-style message as this thread's last error.
 * Returns `code`, so callers can write `return est_error_set(EST_EINVAL, ...)`.
 */
int est_error_set(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Put "PREFIX: " in front of the current message (e.g. the file name a
 * lower layer did not know). Returns the current code.
 */
int est_error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last message set on this thread, or "" if none. Borrowed. */
const char *est_error_message(void);

/* The last code set on this thread (0 if none). */
int est_error_code(void);

/* Forget the last error. */
void est_error_clear(void);

/* The sysexits.h code (docs/gm-guide.md "Commands") for an EST_E* code. */
int est_error_exit_code(int code);

/* A short stable name for an EST_E* code ("invalid", "signature", ...). */
const char *est_error_name(int code);

#endif
