#include "util/unicode.h"
#include "util/error.h"

#include <stdio.h>

struct unicode_entry {
	uint32_t first, last;
	const char *name;
};

#include "util/unicode_table.h"

#define TABLE_SIZE (sizeof(unicode_table) / sizeof(unicode_table[0]))

int est_unicode_is_refused(const char **name_out, uint32_t cp)
{
	size_t lo = 0, hi = TABLE_SIZE;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cp < unicode_table[mid].first) {
			hi = mid;
		} else if (cp > unicode_table[mid].last) {
			lo = mid + 1;
		} else {
			if (name_out)
				*name_out = unicode_table[mid].name;
			return 1;
		}
	}
	return 0;
}

const char *est_unicode_table_version(void)
{
	return EST_UNICODE_TABLE_VERSION;
}

/*
 * Decode one code point at s[0..len) strictly (no overlong form, no
 * surrogate, nothing above U+10FFFF). Returns its length in bytes, or 0.
 */
static size_t decode(uint32_t *cp, const unsigned char *s, size_t len)
{
	size_t n, i;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* Space separators (General_Category Zs): visible as a gap, but nothing a joiner may join. */
static int is_space(uint32_t cp)
{
	return cp == 0x20 || cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
	       cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

/* What shows as nothing but a gap: the spaces, and the braille blank, which is no space to any wrapper. */
static int is_blank(uint32_t cp)
{
	return is_space(cp) || cp == 0x2800;
}

/*
 * A run of blanks long enough to push what follows onto a line of its own,
 * where it would read as another line of a report (another player's press).
 */
static int refuse_blanks(est_unicode_problem *problem, uint32_t cp, size_t offset, size_t run)
{
	est_unicode_problem p = {cp, offset, "", "a run of blanks"};

	snprintf(p.what, sizeof(p.what), "%zu blank characters in a row", run);
	if (problem)
		*problem = p;
	return est_error_set(EST_EINVAL, "holds %zu blank characters in a row (from byte %zu), more than "
			     "the %d that can stand together: a run of blanks can push the text after "
			     "it onto a line of its own, where it reads as another line of the report; "
			     "shorten it", run, offset, EST_UNICODE_MAX_BLANKS);
}

static int is_joiner(uint32_t cp)
{
	return cp == 0x200c || cp == 0x200d;
}

static int is_selector(uint32_t cp)
{
	return cp >= 0xfe00 && cp <= 0xfe0f;
}

enum before { START, VISIBLE, SPACE, SELECTED, JOINER };

static int refuse(est_unicode_problem *problem, uint32_t cp, size_t offset)
{
	est_unicode_problem p = {cp, offset, "", "an invisible control or formatting character"};
	const char *name = NULL;

	if (cp == EST_UNICODE_BAD_UTF8) {
		snprintf(p.what, sizeof(p.what), "bytes that are not UTF-8");
		if (problem)
			*problem = p;
		return est_error_set(EST_EINVAL, "is not UTF-8 at byte %zu; save the text as UTF-8", offset);
	}
	est_unicode_is_refused(&name, cp);
	if (name)
		snprintf(p.what, sizeof(p.what), "U+%04X %s", (unsigned)cp, name);
	else
		snprintf(p.what, sizeof(p.what), "U+%04X (a reserved code point)", (unsigned)cp);
	if (problem)
		*problem = p;
	return est_error_set(EST_EINVAL, "holds %s (at byte %zu), an invisible control or formatting "
			     "character that could hide, reorder or forge the text around it; remove it",
			     p.what, offset);
}

int est_unicode_check(est_unicode_problem *problem, const char *text, size_t len,
		      enum est_unicode_kind kind)
{
	const unsigned char *s = (const unsigned char *)text;
	enum before before = START;
	size_t i = 0, n, joiner_at = 0, blanks = 0, blanks_at = 0;
	uint32_t cp, joiner = 0, first_blank = 0;

	while (i < len) {
		if (!(n = decode(&cp, s + i, len - i)))
			return refuse(problem, EST_UNICODE_BAD_UTF8, i);
		if (!is_blank(cp))
			blanks = 0;
		else if (blanks++ == 0) {
			blanks_at = i;
			first_blank = cp;
		} else if (blanks > EST_UNICODE_MAX_BLANKS) {
			while (i < len && (n = decode(&cp, s + i, len - i)) && is_blank(cp)) {
				i += n;
				blanks++;
			}
			return refuse_blanks(problem, first_blank, blanks_at, blanks - 1);
		}
		if (!est_unicode_is_refused(NULL, cp)) {
			if (before == JOINER && is_space(cp))
				return refuse(problem, joiner, joiner_at);
			before = is_space(cp) ? SPACE : VISIBLE;
		} else if (kind == EST_UNICODE_MESSAGE && is_selector(cp) && before == VISIBLE) {
			before = SELECTED;
		} else if (kind == EST_UNICODE_MESSAGE && is_joiner(cp) &&
			   (before == VISIBLE || before == SELECTED)) {
			before = JOINER;
			joiner = cp;
			joiner_at = i;
		} else {
			/* A joiner followed by anything refused is the first fault. */
			return before == JOINER ? refuse(problem, joiner, joiner_at) : refuse(problem, cp, i);
		}
		i += n;
	}
	if (before == JOINER)
		return refuse(problem, joiner, joiner_at);
	return 0;
}

int est_unicode_has_visible(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = 0, n;
	uint32_t cp;

	while (i < len && (n = decode(&cp, s + i, len - i))) {
		if (!is_blank(cp) && !est_unicode_is_refused(NULL, cp))
			return 1;
		i += n;
	}
	return 0;
}
