/*
 * Text that other people will read: which code points it may not hold.
 *
 * One table (unicode_table.h, generated from the Unicode Character
 * Database by unicode_table.py) lists every control (Cc), line or paragraph
 * separator (Zl, Zp), format character (Cf), bidirectional control
 * (Bidi_Control) and default-ignorable code point. Such a character is
 * invisible or moves the text around it: in a report, a mail header or a
 * terminal it could forge a line, reverse a name, hide words, or make two
 * names that look the same differ.
 */
#ifndef EST_UTIL_UNICODE_H
#define EST_UTIL_UNICODE_H

#include <stddef.h>
#include <stdint.h>

/*
 * What the text is, which decides the one exception to the table:
 *
 * EST_UNICODE_NAME     a name shown as who someone is (a player's display
 *                      name): nothing of the table, ever, so that no two
 *                      names can look alike and differ.
 * EST_UNICODE_MESSAGE  prose (press, a GM's reason): the zero-width
 *                      non-joiner and joiner (U+200C, U+200D) and the
 *                      variation selectors 1-16 (U+FE00-U+FE0F) may stand
 *                      where they shape what is on either side and hide
 *                      nothing: a selector right after a visible character
 *                      (a red heart's U+FE0F), a joiner between two visible
 *                      characters or a selected one (an emoji family, a
 *                      Persian word's non-joiner). A visible character is
 *                      one that is neither in the table nor a space.
 */
enum est_unicode_kind {
	EST_UNICODE_NAME,
	EST_UNICODE_MESSAGE,
};

/*
 * 1 if code point `cp` is in the table, else 0. When it is and `name_out`
 * is not NULL, *name_out is its Unicode name ("ARABIC LETTER MARK"; for a
 * control its alias, "LINE FEED"), or NULL for a reserved code point.
 * Borrowed, static. A value above U+10FFFF is not in the table.
 */
int est_unicode_is_refused(const char **name_out, uint32_t cp);

/* The Unicode version the table was generated from, e.g. "15.0.0". */
const char *est_unicode_table_version(void);

/*
 * What est_unicode_check found: the code point (or EST_UNICODE_BAD_UTF8
 * for bytes that are not UTF-8), its byte offset in the text, and `what`,
 * e.g. "U+061C ARABIC LETTER MARK" or "U+E0080 (a reserved code point)".
 */
#define EST_UNICODE_BAD_UTF8 0xFFFFFFFFu
/* The longest run of blanks (space separators, U+2800 BRAILLE PATTERN BLANK) text may hold. */
#define EST_UNICODE_MAX_BLANKS 8
typedef struct {
	uint32_t cp;
	size_t offset;
	char what[128];
	const char *kind;	/* "an invisible control or formatting character" or "a run of blanks" */
} est_unicode_problem;

/*
 * Check the `len` bytes of UTF-8 `text` against the table (with the
 * exception `kind` allows). Returns 0 when the text may be shown.
 *
 * Errors: EST_EINVAL, with *problem (if not NULL) filled in for the first
 * refused code point and the message "holds U+061C ARABIC LETTER MARK (at
 * byte 3), an invisible control or formatting character that could hide,
 * reorder or forge the text around it; remove it" (or "is not UTF-8 at
 * byte N; ...", or "holds 200 blank characters in a row ..." for a run of
 * more than EST_UNICODE_MAX_BLANKS, with *problem naming the run's first
 * blank), for the caller to put the file and field in front of with
 * est_error_prefix.
 */
int est_unicode_check(est_unicode_problem *problem, const char *text, size_t len,
		      enum est_unicode_kind kind);

/*
 * 1 if the `len` bytes of UTF-8 `text` hold a code point that shows: one
 * neither blank (a space separator, U+2800 BRAILLE PATTERN BLANK) nor in
 * the table; else 0 (also for bytes that are not UTF-8, from there on).
 */
int est_unicode_has_visible(const char *text, size_t len);

#endif
