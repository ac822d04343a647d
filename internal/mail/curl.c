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

#if LIBCURL_VERSION_NUM >= 0x075500
	EST_CURL_SET(rc, c, CURLOPT_PROTOCOLS_STR, o->protocols);
#else
	EST_CURL_SET(rc, c, CURLOPT_PROTOCOLS, o->protocol_bits);
#endif
	/* smtp:// and imap://: STARTTLS when offered, or always with require_tls. */
	EST_CURL_SET(rc, c, CURLOPT_USE_SSL, (long)(o->require_tls ? CURLUSESSL_ALL : CURLUSESSL_TRY));
	if (o->username)
		EST_CURL_SET(rc, c, CURLOPT_USERNAME, o->username);
	if (o->password)
		EST_CURL_SET(rc, c, CURLOPT_PASSWORD, o->password);
	if (o->ca_file)
		EST_CURL_SET(rc, c, CURLOPT_CAINFO, o->ca_file);
	if (o->netrc)
		EST_CURL_SET(rc, c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
	EST_CURL_SET(rc, c, CURLOPT_CONNECTTIMEOUT, o->timeout);
	EST_CURL_SET(rc, c, CURLOPT_SERVER_RESPONSE_TIMEOUT, o->timeout);
	EST_CURL_SET(rc, c, CURLOPT_NOSIGNAL, 1L);
	return rc;
}
