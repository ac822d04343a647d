/*
 * What SMTP delivery and IMAP intake set alike on their libcurl handle.
 * Private to the mail module.
 */
#ifndef EST_MAIL_CURL_PRIVATE_H
#define EST_MAIL_CURL_PRIVATE_H

#include <curl/curl.h>

typedef struct {
	const char *protocols; /* "smtp,smtps" or "imap,imaps" */
	long protocol_bits;    /* the same as CURLPROTO_* bits, for libcurl before 7.85 */
	int require_tls;       /* 1: STARTTLS is a must; else used when offered */
	const char *username, *password, *ca_file; /* each may be NULL */
	int netrc;             /* 1: missing credentials from ~/.netrc */
	long timeout;          /* seconds, for connecting and for each reply */
} est_mail_curl_options;

/*
 * Set on `c` what both protocols share: the protocols allowed, STARTTLS,
 * credentials (never logged), the CA file, .netrc, timeouts, no signals.
 * Returns the first libcurl error, or CURLE_OK.
 */
CURLcode est_mail__curl_common(CURL *c, const est_mail_curl_options *o);

/*
 * Set one option on `c` unless an earlier one failed: `rc` (a CURLcode
 * variable) keeps the first error, so a run of settings is checked once.
 */
#define EST_CURL_SET(rc, c, option, value)                          \
	do {                                                        \
		if ((rc) == CURLE_OK)                               \
			(rc) = curl_easy_setopt((c), (option), (value)); \
	} while (0)

/*
 * Keep one server reply line (`size` bytes at `data`, as libcurl's debug
 * callback gives it) in `dst` (`dst_size` bytes): line end removed,
 * truncated to fit, NUL-terminated. For messages that quote the server.
 */
void est_mail__keep_line(char *dst, size_t dst_size, const char *data, size_t size);

#endif
