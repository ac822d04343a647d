/*
 * Fuzz target: SSH signatures and allowed_signers files (internal/sshsig).
 * Input: SIGNATURE NUL ALLOWED_SIGNERS NUL DATA, all three fuzzed: the
 * armored signature, the allowed_signers text, and the signed bytes.
 * Runs what the engine runs on a received order file: find_principals
 * (who may have signed it, with and without the data) and verify (for
 * "france" in the orders namespace, and for the first principal found),
 * the public-key checks on DATA read as a key line, and the reading of
 * ALLOWED_SIGNERS as estafette writes it, each line read back through the
 * writer (whatever it accepts, the writer writes again). Oracle besides ASan
 * and UBSan: every refusal is one the header lists, with a message.
 */
#include "fuzz.h"
#include "sshsig/sshsig.h"

#define NOW ((time_t)1764000000) /* 2025-11-24, inside the seeds' validity */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const int refusal = FUZZ_OK(EST_EINVAL) | FUZZ_OK(EST_ESIG) | FUZZ_OK(EST_ENOMEM);
	char *part[3], *found = NULL, *fp = NULL;
	size_t len[3];
	int rc;

	if (fuzz_split(part, len, 3, data, size) < 0)
		return 0;
	fuzz_expect(est_sshsig_verify(part[1], len[1], "france", EST_SSHSIG_NAMESPACE_ORDERS, part[2], len[2],
				      part[0], len[0], NOW),
		    "est_sshsig_verify", refusal);
	rc = est_sshsig_find_principals(&found, part[1], len[1], NULL, NULL, 0, part[0], len[0], NOW);
	fuzz_expect(rc, "est_sshsig_find_principals", refusal | FUZZ_OK(EST_ENOTFOUND));
	if (rc == 0) {
		char *comma = strchr(found, ',');

		if (comma)
			*comma = 0;
		if (*found)
			fuzz_expect(est_sshsig_verify(part[1], len[1], found, EST_SSHSIG_NAMESPACE_ORDERS, part[2],
						      len[2], part[0], len[0], NOW),
				    "est_sshsig_verify (principal found)", refusal);
		free(found);
		found = NULL;
	}
	rc = est_sshsig_find_principals(&found, part[1], len[1], EST_SSHSIG_NAMESPACE_ORDERS, part[2], len[2],
					part[0], len[0], NOW);
	fuzz_expect(rc, "est_sshsig_find_principals (with data)", refusal | FUZZ_OK(EST_ENOTFOUND));
	free(found);
	fuzz_expect(est_sshsig_check_public_key(&fp, part[2]), "est_sshsig_check_public_key", refusal);
	free(fp);
	fp = NULL;
	fuzz_expect(est_sshsig_canonical_key(NULL, &fp, part[2]), "est_sshsig_canonical_key", refusal);
	free(fp);
	{
		est_sshsig_entry *e = NULL;
		size_t n = 0;

		rc = est_sshsig_read_entries(&e, &n, part[1], len[1]);
		fuzz_expect(rc, "est_sshsig_read_entries", refusal);
		for (size_t i = 0; rc == 0 && i < n; i++) {
			char *line = NULL;

			if (est_sshsig_allowed_line(&line, e[i].principal, e[i].namespaces, e[i].key) != 0) {
				fprintf(stderr, "fuzz: line %zu was read but is not written again: %s\n",
					e[i].line, est_error_message());
				abort();
			}
			free(line);
		}
		est_sshsig_entries_free(e, n);
	}
	fuzz_parts_free(part, 3);
	return 0;
}
