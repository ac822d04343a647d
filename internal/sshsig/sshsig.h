/*
 * OpenSSH signatures (SSHSIG, OpenSSH's PROTOCOL.sshsig) and allowed_signers
 * files (ssh-keygen(1) "ALLOWED SIGNERS"), done in-process with OpenSSL 3.
 *
 * Accepted signer keys: ssh-ed25519, ecdsa-sha2-nistp256, and ssh-rsa of
 * 2048 bits or more with rsa-sha2-256 or rsa-sha2-512 signatures (docs/protocol.md
 * "Order files"). Plain ssh-rsa (SHA-1) signatures, other key types and
 * certificates are refused.
 *
 * Times in valid-after= / valid-before= are read as ssh-keygen reads them:
 * with a trailing "Z" in UTC, otherwise in the local time zone of the
 * process (TZ). A game master who wants results that do not depend on the
 * machine writes the "Z".
 *
 * Every function returns 0 or a negative EST_E* code with the message set
 * (util/error.h). Messages name "allowed_signers line N" or the signature,
 * not a path: callers put the file name in front with est_error_prefix().
 */
#ifndef EST_SSHSIG_SSHSIG_H
#define EST_SSHSIG_SSHSIG_H

#include <stddef.h>
#include <time.h>

/* The namespace players sign order files with (docs/protocol.md "Order files"). */
#define EST_SSHSIG_NAMESPACE_ORDERS "estafette-orders"

/*
 * Verify a detached armored signature, as `ssh-keygen -Y verify -f
 * allowed_signers -I principal -n namespace -s sig < data` does.
 *
 * `allowed_signers` (allowed_len bytes, need not be NUL-terminated) is the
 * whole allowed_signers file; `armored_sig` (sig_len bytes) the whole .sig
 * file, "-----BEGIN SSH SIGNATURE-----" ... "-----END SSH SIGNATURE-----";
 * LF or CRLF line ends and white space around the armor are accepted.
 * `data` (data_len bytes; NULL only with data_len 0) is what was signed,
 * byte for byte. `now` is the time judged against valid-after= /
 * valid-before= (seconds since the epoch). The allowed_signers text is read
 * first, so a malformed file is reported whatever the signature; a key no
 * line lists is refused as not listed before any arithmetic, so a made-up
 * key costs nothing.
 *
 * Returns 0 if the signature is well formed, verifies over `data` for
 * `namespace`, and its key is listed for `principal` on a line whose
 * namespaces= (if any) admits `namespace` and whose validity covers `now`.
 *
 * Errors:
 *   EST_EINVAL  an allowed_signers line is malformed (the message names the
 *               line and what is wrong; cert-authority lines are refused as
 *               not supported), or principal/namespace is empty;
 *   EST_ESIG    the signature is refused; the message says why: bad armor,
 *               unknown version, trailing data, signed for another
 *               namespace, unsupported algorithm, RSA key under 2048 bits,
 *               signature does not verify, key not listed for principal,
 *               namespace not allowed for the key, key expired, key not
 *               yet valid;
 *   EST_ERROR   OpenSSL failed to hash; EST_ENOMEM.
 */
int est_sshsig_verify(const char *allowed_signers, size_t allowed_len,
	const char *principal, const char *namespace,
	const void *data, size_t data_len,
	const char *armored_sig, size_t sig_len, time_t now);

/*
 * Who may have made this signature, like `ssh-keygen -Y find-principals`:
 * the principals fields of every allowed_signers line that lists the
 * signature's key, admits its namespace and is valid at `now`, joined with
 * "," in file order (patterns are returned as written). ssh-keygen 9.2
 * differs: it gives only the first current line for the key and ignores
 * namespaces=. *principals_out is a new string the caller frees with free().
 *
 * `namespace` may be NULL to take the namespace the signature carries;
 * otherwise the signature must carry that namespace. If `data` is not NULL
 * the signature must also verify over its data_len bytes; with `data` NULL,
 * as in ssh-keygen, the signature itself is not checked, so the caller must
 * follow with est_sshsig_verify() before trusting anything.
 *
 * Errors: EST_ENOTFOUND if no line matches (checked before the signature's
 * arithmetic); EST_ESIG as est_sshsig_verify
 * for the signature itself; EST_EINVAL for a malformed allowed_signers
 * line; EST_ENOMEM.
 */
int est_sshsig_find_principals(char **principals_out,
	const char *allowed_signers, size_t allowed_len, const char *namespace,
	const void *data, size_t data_len,
	const char *armored_sig, size_t sig_len, time_t now);

/*
 * Sign `data` (data_len bytes) for `namespace` with an unencrypted OpenSSH
 * Ed25519 private key file ("-----BEGIN OPENSSH PRIVATE KEY-----", key_len
 * bytes), as `ssh-keygen -Y sign -f key -n namespace` does: hash sha512,
 * armored, base64 in lines of 70 columns, ending in a newline. Ed25519 is
 * deterministic, so the output is the bytes ssh-keygen writes for the same
 * key and data.
 *
 * *armored_out (NUL-terminated, *armored_len bytes without the NUL) is new;
 * the caller frees it with free(). `armored_len` may be NULL.
 *
 * Errors: EST_EINVAL if the key is not an OpenSSH private key, is encrypted
 * with a passphrase, is not Ed25519, or is corrupt, or if namespace is
 * empty or holds spaces or control characters (verification refuses
 * those); EST_ERROR if OpenSSL fails to sign; EST_ENOMEM.
 */
int est_sshsig_sign(char **armored_out, size_t *armored_len,
	const char *private_key, size_t key_len, const char *namespace,
	const void *data, size_t data_len);

/*
 * Make a new Ed25519 key from OpenSSL's random generator.
 *
 * *private_out: an unencrypted OpenSSH private key file (openssh-key-v1,
 * cipher and kdf "none") that ssh-keygen and ssh read; write it mode 0600.
 * *public_out: its public line, "ssh-ed25519 AAAA... comment\n" (without
 * " comment" when `comment` is NULL or empty). Both are new strings the
 * caller frees; the private one should be cleared first
 * (OPENSSL_clear_free(p, strlen(p))).
 *
 * Errors: EST_EINVAL if comment holds a line break; EST_ERROR if OpenSSL
 * fails; EST_ENOMEM.
 */
int est_sshsig_keygen(char **private_out, char **public_out, const char *comment);

/*
 * The public line of an OpenSSH private key file, as `ssh-keygen -y -f`
 * prints it: "TYPE BASE64 COMMENT\n". Works for any key type; the comment
 * is known only for unencrypted keys (an encrypted key gives "TYPE
 * BASE64\n"). *public_out is new; the caller frees it.
 *
 * Errors: EST_EINVAL if the text is not an OpenSSH private key file or is
 * corrupt; EST_ENOMEM.
 */
int est_sshsig_public_key(char **public_out, const char *private_key, size_t key_len);

/*
 * The SHA-256 fingerprint of a public key line ("TYPE BASE64 [COMMENT]",
 * as in .pub files or allowed_signers without its principals and options),
 * as `ssh-keygen -l` prints it: "SHA256:" and unpadded base64, e.g.
 * "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s". *out is new; the
 * caller frees it.
 *
 * Errors: EST_EINVAL if the line is not a public key; EST_ENOMEM.
 */
int est_sshsig_fingerprint(char **out, const char *public_line);

/*
 * Check that `public_line` ("TYPE BASE64 [COMMENT]") is a key that may sign
 * orders: well formed, of a supported type (ssh-ed25519,
 * ecdsa-sha2-nistp256, ssh-rsa of 2048 bits or more). Its fingerprint
 * ("SHA256:...") goes to *fingerprint_out if not NULL (caller frees), to
 * tell two players' keys apart.
 *
 * Errors: EST_EINVAL saying what is wrong with the key; EST_ENOMEM.
 */
int est_sshsig_check_public_key(char **fingerprint_out, const char *public_line);

/*
 * A public key read strictly, for keys/allowed_signers (docs/protocol.md
 * "The repository"). `key_text` is the line of a .pub file
 * without its line end, "TYPE BASE64" or "TYPE BASE64 COMMENT":
 *
 *   - no control character anywhere (a line break would start a line of
 *     its own in allowed_signers), only printable ASCII;
 *   - TYPE is ssh-ed25519, ecdsa-sha2-nistp256 or ssh-rsa: no options such
 *     as namespaces= or cert-authority before it, no certificate;
 *   - one space, then BASE64 exactly as ssh-keygen writes it (padded, no
 *     white space, no bits set past the end);
 *   - the blob names TYPE, holds the type's fields and nothing after them,
 *     each in its one encoding (an RSA e or n without a needless leading
 *     zero byte), and the key may sign orders (RSA of 2048 bits or more);
 *   - then, after one space, an optional comment that names no second key
 *     (no word starting "ssh-", "ecdsa-", "sk-" or "rsa-sha2-").
 *
 * So every key has one canonical text, and two key texts are the same key
 * exactly when their fingerprints are equal: one key, one seat.
 *
 * *canonical_out: "TYPE BASE64", the comment dropped (estafette keeps no
 * comment in allowed_signers); *fingerprint_out: "SHA256:..." as
 * ssh-keygen -l prints it. Either may be NULL; both are new strings the
 * caller frees.
 *
 * Errors: EST_EINVAL, the message starting "public key: " and saying what
 * is wrong and what to do; EST_ENOMEM.
 */
int est_sshsig_canonical_key(char **canonical_out, char **fingerprint_out, const char *key_text);

/*
 * One keys/allowed_signers line as estafette writes it, the only way it
 * writes one:
 *
 *     PRINCIPAL namespaces="NAMESPACES" TYPE BASE64\n
 *
 * with the key of est_sshsig_canonical_key(key_text) and no comment.
 * `principal` is 1 to 64 of A-Z a-z 0-9 . _ - @ (allowed_signers reads it
 * as a pattern list, so no patterns or commas); `namespaces` such names
 * joined by commas. *line_out is new; the caller frees it.
 *
 * Errors: EST_EINVAL (the principal, the namespaces, or the key as
 * est_sshsig_canonical_key says); EST_ENOMEM.
 */
int est_sshsig_allowed_line(char **line_out, const char *principal, const char *namespaces,
	const char *key_text);

/* One line of a keys/allowed_signers file estafette wrote. */
typedef struct {
	size_t line;       /* its number, from 1 */
	char *principal;
	char *namespaces;
	char *key;         /* canonical "TYPE BASE64" */
	char *fingerprint; /* "SHA256:..." */
} est_sshsig_entry;

/*
 * Read a keys/allowed_signers text that estafette wrote: every line, each
 * ending in "\n", is cut into principal, namespaces and key, written again
 * with est_sshsig_allowed_line and compared byte for byte. A line may also
 * carry, after one space, the comment of its key (a plain comment as
 * est_sshsig_canonical_key accepts): estafette wrote key lines with their
 * comments before it kept canonical keys only. Anything else (a blank or
 * # line, other options, white space, CR, a key not in its canonical
 * encoding, a line without its line break) is refused.
 *
 * *out is a new array of *n_out entries, in file order (NULL and 0 for an
 * empty text); free it with est_sshsig_entries_free.
 *
 * Errors: EST_EINVAL "allowed_signers line N: ..." saying what is wrong;
 * EST_ENOMEM.
 */
int est_sshsig_read_entries(est_sshsig_entry **out, size_t *n_out, const char *text, size_t len);
void est_sshsig_entries_free(est_sshsig_entry *entries, size_t n);

#endif
