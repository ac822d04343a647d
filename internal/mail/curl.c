#include <string.h>

#include "mail/curl_private.h"

void est_mail__keep_line(char *dst, size_t dst_size, const char *data, size_t size)
{
	while (size > 0 && (data[size - 1] == '\n' || data[size - 1] == '\r'))
		size--;
	if (size >= dst_size)
		size = dst_size - 1;
	memcpy(dst, data, size);
	dst[size] = '\0';
}

CURLcode est_mail__curl_common(CURL *c, const est_mail_curl_options *o)
{
	CURLcode rc = CURLE_OK;

#define SET(option, value)                                     \
	do {                                                   \
		if (rc == CURLE_OK)                            \
			rc = curl_easy_setopt(c, option, value); \
	} while (0)
#if LIBCURL_VERSION_NUM >= 0x075500
	SET(CURLOPT_PROTOCOLS_STR, o->protocols);
#else
	SET(CURLOPT_PROTOCOLS, o->protocol_bits);
#endif
	/* smtp:// and imap://: STARTTLS when offered, or always with require_tls. */
	SET(CURLOPT_USE_SSL, (long)(o->require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
	if (o->username)
		SET(CURLOPT_USERNAME, o->username);
	if (o->password)
		SET(CURLOPT_PASSWORD, o->password);
	if (o->ca_file)
		SET(CURLOPT_CAINFO, o->ca_file);
	if (o->netrc)
		SET(CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	SET(CURLOPT_CONNECTTIMEOUT, o->timeout);
	SET(CURLOPT_SERVER_RESPONSE_TIMEOUT, o->timeout);
	SET(CURLOPT_NOSIGNAL, 1L);
#undef SET
	return rc;
}
