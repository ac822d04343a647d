/*
 * The SSH wire format (RFC 4251 section 5), base64 and armor. Small on
 * purpose: every read checks its bounds, and nothing here knows what the
 * bytes mean.
 */
#include "sshsig/sshsig_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

#include "util/error.h"
#include "util/util.h"

/* No single field we read is near this; it keeps length sums far from overflow. */
#define WIRE_MAX (16u * 1024 * 1024)

int sshsig_get_bytes(const unsigned char **out, size_t n, struct sshsig_reader *r)
{
	if (n > r->len)
		return -1;
	*out = r->p;
	r->p += n;
	r->len -= n;
	return 0;
}

int sshsig_get_u32(uint32_t *out, struct sshsig_reader *r)
{
	const unsigned char *p;

	if (sshsig_get_bytes(&p, 4, r) < 0)
		return -1;
	*out = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return 0;
}

int sshsig_get_string(const unsigned char **out, size_t *out_len, struct sshsig_reader *r)
{
	struct sshsig_reader save = *r;
	uint32_t n;

	if (sshsig_get_u32(&n, r) < 0 || n > WIRE_MAX || sshsig_get_bytes(out, n, r) < 0) {
		*r = save;
		return -1;
	}
	*out_len = n;
	return 0;
}

int sshsig_str_eq(const unsigned char *p, size_t len, const char *s)
{
	return strlen(s) == len && memcmp(p, s, len) == 0;
}

int sshsig_is_name(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] <= ' ' || p[i] > '~')
			return 0;
	return n > 0;
}

int sshsig_get_expect(struct sshsig_reader *r, const char *want)
{
	struct sshsig_reader save = *r;
	const unsigned char *p;
	size_t n;

	if (sshsig_get_string(&p, &n, r) < 0 || !sshsig_str_eq(p, n, want)) {
		*r = save;
		return -1;
	}
	return 0;
}

int sshsig_get_mpint(BIGNUM **out, struct sshsig_reader *r)
{
	struct sshsig_reader save = *r;
	const unsigned char *p;
	size_t n;

	/* RFC 4251: two's complement; every number we read is positive. */
	if (sshsig_get_string(&p, &n, r) < 0 || (n > 0 && (p[0] & 0x80)))
		goto bad;
	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	if ((*out = BN_bin2bn(p, (int)n, NULL)) == NULL)
		goto bad;
	return 0;
bad:
	*r = save;
	return -1;
}

static void buf_grow(struct sshsig_buf *b, size_t need)
{
	unsigned char *p;
	size_t cap;

	if (b->failed)
		return;
	if (need > WIRE_MAX * 4) {
		b->failed = 1;
		return;
	}
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	/* Not realloc: the old block may hold a private key and must be wiped. */
	if ((p = malloc(cap)) == NULL) {
		b->failed = 1;
		return;
	}
	if (b->len)
		memcpy(p, b->p, b->len);
	OPENSSL_clear_free(b->p, b->cap);
	b->p = p;
	b->cap = cap;
}

void sshsig_put_bytes(struct sshsig_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap)
		buf_grow(b, b->len + n);
	if (b->failed || n == 0)
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void sshsig_put_u32(struct sshsig_buf *b, uint32_t v)
{
	unsigned char be[4] = { v >> 24, v >> 16, v >> 8, v };

	sshsig_put_bytes(b, be, sizeof(be));
}

void sshsig_put_string(struct sshsig_buf *b, const void *p, size_t n)
{
	sshsig_put_u32(b, (uint32_t)n);
	sshsig_put_bytes(b, p, n);
}

void sshsig_put_cstring(struct sshsig_buf *b, const char *s)
{
	sshsig_put_string(b, s, strlen(s));
}

int sshsig_buf_check(const struct sshsig_buf *b)
{
	if (b->failed)
		return est_error_set(EST_ENOMEM, "out of memory building an ssh message");
	return 0;
}

void sshsig_buf_free(struct sshsig_buf *b)
{
	OPENSSL_clear_free(b->p, b->cap);
	memset(b, 0, sizeof(*b));
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int sshsig_base64_decode(unsigned char **out, size_t *out_len, const char *in, size_t in_len)
{
	unsigned char *clean = NULL, *bin = NULL;
	size_t n = 0, pad = 0, i;
	int error = EST_EINVAL;

	if ((clean = malloc(in_len + 4)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory decoding base64");
	for (i = 0; i < in_len; i++) {
		if (is_space(in[i]))
			continue;
		/* EVP_DecodeBlock would stop quietly at a NUL; refuse it here. */
		if (in[i] == '\0' || (pad && in[i] != '='))
			goto out;
		if (in[i] == '=')
			pad++;
		clean[n++] = (unsigned char)in[i];
	}
	/* ssh-keygen writes padding, but an unpadded copy is still the same bytes. */
	if (pad == 0 && n % 4 == 1)
		goto out;
	while (pad == 0 && n % 4 != 0)
		clean[n++] = '=';
	for (pad = 0; pad < n && clean[n - 1 - pad] == '='; pad++)
		;
	if (n % 4 != 0 || pad > 2)
		goto out;
	if ((bin = malloc(n / 4 * 3 + 1)) == NULL) {
		error = est_error_set(EST_ENOMEM, "out of memory decoding base64");
		goto out;
	}
	if (n > 0 && EVP_DecodeBlock(bin, clean, (int)n) < 0)
		goto out;
	*out_len = n / 4 * 3 - pad;
	*out = bin;
	bin = NULL;
	error = 0;
out:
	free(bin);
	OPENSSL_clear_free(clean, in_len + 4);
	return error;
}

char *sshsig_base64_encode(const unsigned char *in, size_t len, size_t wrap)
{
	size_t b64_len = (len + 2) / 3 * 4, lines, i, o = 0;
	unsigned char *flat;
	char *out;

	if (len > WIRE_MAX || (flat = malloc(b64_len + 1)) == NULL)
		return NULL;
	EVP_EncodeBlock(flat, in, (int)len);
	lines = wrap ? (b64_len + wrap - 1) / wrap : 1;
	if ((out = malloc(b64_len + lines + 1)) == NULL) {
		OPENSSL_clear_free(flat, b64_len + 1);
		return NULL;
	}
	for (i = 0; i < b64_len; i++) {
		if (wrap && i > 0 && i % wrap == 0)
			out[o++] = '\n';
		out[o++] = (char)flat[i];
	}
	out[o] = '\0';
	OPENSSL_clear_free(flat, b64_len + 1);
	return out;
}

/* Where `needle` starts in the n bytes at `hay`, or NULL. */
static const char *find(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	return k <= n ? memmem(hay, n, needle, k) : NULL;
}

int sshsig_unarmor(unsigned char **out, size_t *out_len, const char *text, size_t len,
	const char *label, int code, const char *what)
{
	char begin[80], end[80];
	const char *p = text, *stop = text + len, *body, *tail;
	int error;

	snprintf(begin, sizeof(begin), "-----BEGIN %s-----", label);
	snprintf(end, sizeof(end), "-----END %s-----", label);
	while (p < stop && is_space(*p))
		p++;
	while (stop > p && is_space(stop[-1]))
		stop--;
	if (p == stop)
		return est_error_set(code, "%s: bad armor: the file is empty", what);
	if ((size_t)(stop - p) < strlen(begin) || memcmp(p, begin, strlen(begin)) != 0)
		return est_error_set(code, "%s: bad armor: it does not start with \"%s\"",
			what, begin);
	body = p + strlen(begin);
	if ((tail = find(body, (size_t)(stop - body), end)) == NULL)
		return est_error_set(code, "%s: bad armor: no \"%s\" line (the file is cut short); "
			"copy the whole file again", what, end);
	if (tail + strlen(end) != stop)
		return est_error_set(code, "%s: trailing data after \"%s\"; the file must end "
			"with the armor", what, end);
	error = sshsig_base64_decode(out, out_len, body, (size_t)(tail - body));
	if (error == EST_EINVAL)
		return est_error_set(code, "%s: bad armor: the text between the "
			"BEGIN and END lines is not base64", what);
	return error;
}

int sshsig_armor(char **out, size_t *out_len, const unsigned char *blob, size_t len,
	const char *label)
{
	char *b64;

	if ((b64 = sshsig_base64_encode(blob, len, 70)) == NULL)
		return est_error_set(EST_ENOMEM, "out of memory armoring %s", label);
	*out = est_strdup_printf("-----BEGIN %s-----\n%s\n-----END %s-----\n", label, b64, label);
	OPENSSL_clear_free(b64, strlen(b64));
	if (*out == NULL)
		return est_error_set(EST_ENOMEM, "out of memory armoring %s", label);
	if (out_len)
		*out_len = strlen(*out);
	return 0;
}
