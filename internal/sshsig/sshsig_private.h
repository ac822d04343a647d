/*
 * What the sshsig module's files share; not for other modules.
 *
 * wire.c     the SSH wire format (RFC 4251 string, uint32, mpint), base64
 *            and the "-----BEGIN ...-----" armor
 * key.c      public key blobs: parse to an EVP_PKEY, compare, fingerprint,
 *            verify one signature
 * allowed.c  allowed_signers files
 * privkey.c  openssh-key-v1 private key files, keygen
 * sshsig.c   the SSHSIG blob: verify, find principals, sign
 */
#ifndef EST_SSHSIG_PRIVATE_H
#define EST_SSHSIG_PRIVATE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <openssl/bn.h>
#include <openssl/evp.h>

/* ---- wire.c ---- */

/*
 * A bounds-checked reader over bytes it does not own. Each get returns 0,
 * or -1 without moving when the bytes are not there; the caller words the
 * message, since only it knows what it was reading.
 */
struct sshsig_reader {
	const unsigned char *p;
	size_t len;
};

int sshsig_get_u32(uint32_t *out, struct sshsig_reader *r);
int sshsig_get_bytes(const unsigned char **out, size_t n, struct sshsig_reader *r);
/* An RFC 4251 string; *out points into the reader's bytes. */
int sshsig_get_string(const unsigned char **out, size_t *out_len, struct sshsig_reader *r);
/* A string that must equal `want` exactly. */
int sshsig_get_expect(struct sshsig_reader *r, const char *want);
/* A non-negative mpint into a new BIGNUM; -1 also when out of memory. */
int sshsig_get_mpint(BIGNUM **out, struct sshsig_reader *r);
/* 1 if the (string) bytes equal the C string `s`. */
int sshsig_str_eq(const unsigned char *p, size_t len, const char *s);
/*
 * 1 if the n bytes are printable ASCII without spaces: names that reach
 * messages (key types, namespaces) must not carry terminal escapes.
 */
int sshsig_is_name(const unsigned char *p, size_t n);

/*
 * A growing buffer. Puts never fail visibly: after an allocation failure
 * `failed` is set and later puts do nothing, so a builder checks once at
 * the end. Memory is cleansed whenever it is released, as buffers here
 * hold private keys.
 */
struct sshsig_buf {
	unsigned char *p;
	size_t len, cap;
	int failed;
};

void sshsig_put_bytes(struct sshsig_buf *b, const void *p, size_t n);
void sshsig_put_u32(struct sshsig_buf *b, uint32_t v);
void sshsig_put_string(struct sshsig_buf *b, const void *p, size_t n);
void sshsig_put_cstring(struct sshsig_buf *b, const char *s);
/* EST_ENOMEM (message set) if any put failed, else 0. */
int sshsig_buf_check(const struct sshsig_buf *b);
void sshsig_buf_free(struct sshsig_buf *b);

/*
 * Decode base64, skipping white space; padding optional. *out is new
 * (caller frees). Returns 0, EST_ENOMEM (message set), or EST_EINVAL
 * without a message: the caller says what was not base64.
 */
int sshsig_base64_decode(unsigned char **out, size_t *out_len, const char *in, size_t in_len);

/*
 * Base64 with padding, lines of `wrap` characters joined by "\n" (no
 * final newline; wrap 0: one line). NULL when out of memory.
 */
char *sshsig_base64_encode(const unsigned char *in, size_t len, size_t wrap);

/*
 * Take the bytes out of "-----BEGIN <label>-----" ... "-----END <label>-----"
 * (white space around and CRLF line ends accepted; nothing else before or
 * after). On failure returns `code` with a message starting with `what`.
 */
int sshsig_unarmor(unsigned char **out, size_t *out_len, const char *text, size_t len,
	const char *label, int code, const char *what);

/* Armor `blob` as ssh-keygen writes it: 70-column lines, final newline. */
int sshsig_armor(char **out, size_t *out_len, const unsigned char *blob, size_t len,
	const char *label);

/* ---- key.c ---- */

#define SSHSIG_FINGERPRINT_LEN 51 /* "SHA256:" + 43 base64 digits */

/*
 * A public key. `supported` keys have `pkey`; other types are kept as
 * bytes only, so an allowed_signers file may list them harmlessly.
 */
struct sshsig_key {
	char type[64];
	int supported;
	EVP_PKEY *pkey;
	int bits; /* RSA modulus size */
	unsigned char *blob;
	size_t blob_len;
	char fingerprint[SSHSIG_FINGERPRINT_LEN + 1];
};

/*
 * Parse a public key blob (string type, then the type's fields). On a
 * malformed key returns `code` with a message; EST_ENOMEM.
 */
int sshsig_key_parse(struct sshsig_key *key, const unsigned char *blob, size_t len, int code);
void sshsig_key_free(struct sshsig_key *key);
/* 1 if both are the same key. */
int sshsig_key_equal(const struct sshsig_key *a, const struct sshsig_key *b);
/* EST_ESIG unless the key may sign orders: supported type, RSA >= 2048. */
int sshsig_key_check_policy(const struct sshsig_key *key);
/*
 * Check the SSH signature `sig` (string algorithm, string bytes) by `key`
 * over `msg`. Errors: EST_ESIG (message says why), EST_ENOMEM.
 */
int sshsig_key_verify(const struct sshsig_key *key, const unsigned char *sig, size_t sig_len,
	const unsigned char *msg, size_t msg_len);
/* "SHA256:..." of a blob into out (SSHSIG_FINGERPRINT_LEN + 1 bytes). */
void sshsig_fingerprint_blob(char *out, const unsigned char *blob, size_t len);

/* ---- allowed.c ---- */

struct sshsig_signer {
	size_t line;
	char *principals;  /* pattern-list as written */
	char *namespaces;  /* pattern-list, NULL when no namespaces= */
	int has_after, has_before;
	time_t after, before;
	char *after_text, *before_text;
	struct sshsig_key key;
};

struct sshsig_allowed {
	struct sshsig_signer *signers;
	size_t n;
};

/* Errors: EST_EINVAL naming the line, EST_ENOMEM. */
int sshsig_allowed_parse(struct sshsig_allowed *out, const char *text, size_t len);
void sshsig_allowed_free(struct sshsig_allowed *a);

/*
 * ssh_config(5) PATTERNS: 1 if `s` matches the comma-separated
 * `list` of patterns (* and ?) and no negated (!) pattern, else 0.
 */
int sshsig_match_list(const char *s, const char *list);

/* ---- privkey.c ---- */

#define SSHSIG_ED25519_LEN 32

struct sshsig_private {
	char type[64];
	int encrypted;
	char cipher[64];
	unsigned char *public_blob; /* the file's public section */
	size_t public_blob_len;
	char *comment;              /* NULL for encrypted keys */
	int has_ed25519;            /* seed and pk below are set */
	unsigned char seed[SSHSIG_ED25519_LEN];
	unsigned char pk[SSHSIG_ED25519_LEN];
};

/*
 * Read an openssh-key-v1 file. With `need_ed25519`, refuse encrypted and
 * non-Ed25519 keys and fill seed/pk. Errors: EST_EINVAL, EST_ENOMEM.
 */
int sshsig_private_parse(struct sshsig_private *out, const char *text, size_t len,
	int need_ed25519);
void sshsig_private_free(struct sshsig_private *k);

#endif
