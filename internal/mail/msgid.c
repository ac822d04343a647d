/*
 * Message-IDs unique in the world (mail.h): a random part made when the
 * message is queued, the game and message name for a reader, and the
 * sending host on the right. Two games of the same id on two machines, or in
 * two $ESTAFETTE_HOMEs of one machine, never share an id, so a mail service
 * that drops duplicates (Gmail does) drops none of ours.
 */
#include "mail/mail.h"
#include "util/error.h"
#include "util/util.h"

#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/rand.h>

#define RANDOM_BYTES 16

/* A name that may go to the right of any id: RFC 2606 reserves .invalid. */
#define FALLBACK_DOMAIN "localhost.invalid"

int est_mail_check_domain(const char *domain, const char *what)
{
	size_t n = domain ? strlen(domain) : 0, label = 0;

	for (size_t i = 0; i < n; i++) {
		char c = domain[i];

		if (c == '.') {
			if (label == 0 || domain[i - 1] == '-' || i == n - 1)
				goto bad;
			label = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			   (c == '-' && label > 0)) {
			if (++label > 63)
				goto bad;
		} else {
			goto bad;
		}
	}
	if (n > 0 && n <= 253 && domain[n - 1] != '-')
		return 0;
bad:
	return est_error_set(EST_EINVAL,
			     "%s is \"%.100s\", not a domain name (labels of letters, digits and "
			     "inner \"-\", 1 to 63 characters, joined by \".\", at most 253 in all); "
			     "give the host's name, e.g. mail.example.org",
			     what, domain ? domain : "");
}

/*
 * `name` as a domain: lower case, each character outside [a-z0-9-.] as
 * "-", empty labels and a label's leading or trailing "-" dropped. A new
 * string (caller frees), NULL when nothing valid is left or on ENOMEM.
 */
static char *tidy_domain(const char *name)
{
	size_t n = strlen(name), len = 0;
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i <= n; i++) {
		char c = name[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		else if (c != '\0' && c != '.' && !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9'))
			c = '-';
		if (c == '.' || c == '\0') {
			while (len > 0 && out[len - 1] == '-')
				len--; /* a label's trailing "-" */
			if (len > 0 && out[len - 1] != '.' && c == '.')
				out[len++] = '.';
			continue;
		}
		if (c == '-' && (len == 0 || out[len - 1] == '.'))
			continue; /* a label's leading "-" */
		out[len++] = c;
	}
	while (len > 0 && out[len - 1] == '.')
		len--;
	out[len] = '\0';
	if (est_mail_check_domain(out, "host name") < 0) {
		est_error_clear();
		free(out);
		return NULL;
	}
	return out;
}

/* The host's name as est_mail_host_domain gives it, worked out now: new, or NULL on ENOMEM. */
static char *host_domain(void)
{
	char host[256] = "";
	struct addrinfo hints, *res = NULL;
	char *domain = NULL;

	if (gethostname(host, sizeof(host) - 1) < 0)
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	/*
	 * A bare name ("gm-box") is completed from the resolver, which on a
	 * usual host reads /etc/hosts first; a name with a dot is taken as
	 * the host's full name already, with no lookup at all.
	 */
	if (host[0] && !strchr(host, '.')) {
		memset(&hints, 0, sizeof(hints));
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_CANONNAME;
		if (getaddrinfo(host, NULL, &hints, &res) == 0 && res && res->ai_canonname &&
		    strchr(res->ai_canonname, '.'))
			domain = tidy_domain(res->ai_canonname);
		if (res)
			freeaddrinfo(res);
	}
	if (!domain && host[0])
		domain = tidy_domain(host);
	if (!domain)
		domain = strdup(FALLBACK_DOMAIN);
	return domain;
}

int est_mail_host_domain(char **out)
{
	/* Once a process: a run over many games asks the resolver once, not once a game. */
	static char *cached;

	if (!cached)
		cached = host_domain();
	if (!cached || !(*out = strdup(cached)))
		return est_error_set(EST_ENOMEM, "out of memory");
	return 0;
}

/* Append `part` to `dst` at *len as dot-atom text: "." only between other characters. */
static void put_atom(char *dst, size_t *len, const char *part)
{
	for (const char *p = part; *p; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			c = '-';
		if (c == '.' && (dst[*len - 1] == '.' || p[1] == '\0'))
			c = '-';
		dst[(*len)++] = c;
	}
}

int est_mail_message_id(char **out, const char *domain, const char *game, const char *name)
{
	unsigned char random[RANDOM_BYTES];
	char hex[2 * RANDOM_BYTES + 1], *id;
	size_t len = 0;
	int error;

	*out = NULL;
	if ((error = est_mail_check_domain(domain, "message id: the domain")) < 0)
		return error;
	if (!game || !*game || !name || !*name)
		return est_error_set(EST_EINVAL, "message id: no game or message name given");
	if (RAND_bytes(random, sizeof(random)) != 1)
		return est_error_set(EST_ERROR, "message id: OpenSSL's RAND_bytes failed");
	est_hex_encode(hex, random, sizeof(random));
	/* "<" hex "." game "." name "@" domain ">" */
	if (!(id = malloc(strlen(hex) + strlen(game) + strlen(name) + strlen(domain) + 6)))
		return est_error_set(EST_ENOMEM, "out of memory");
	id[len++] = '<';
	memcpy(id + len, hex, strlen(hex));
	len += strlen(hex);
	id[len++] = '.';
	put_atom(id, &len, game);
	id[len++] = '.';
	put_atom(id, &len, name);
	id[len++] = '@';
	memcpy(id + len, domain, strlen(domain));
	len += strlen(domain);
	id[len++] = '>';
	id[len] = '\0';
	*out = id;
	return 0;
}
