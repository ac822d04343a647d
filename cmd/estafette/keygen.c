/* estafette keygen FILE [-C COMMENT]: FILE (private, 0600) and FILE.pub, as ssh-keygen -t ed25519 -N '' */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

#define USAGE "estafette keygen FILE [-C COMMENT] [--json]"

int cmd_keygen(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0}};
	const char *comment = NULL, *file;
	char *priv = NULL, *pub = NULL, *pub_path = NULL, *fingerprint = NULL, host[256];
	int c, json = 0, error, status = 0;

	while ((c = getopt_long(argc, argv, "C:", longopts, NULL)) != -1) {
		if (c == 'C')
			comment = optarg;
		else if (c == 'j')
			json = 1;
		else
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
	}
	if (optind + 1 != argc)
		return cmd_usage(USAGE);
	file = argv[optind];
	if (!comment) {
		const char *user = getenv("USER");
		if (gethostname(host, sizeof(host)) < 0)
			strcpy(host, "localhost");
		host[sizeof(host) - 1] = '\0';
		comment = pub_path = est_strdup_printf("%s@%s", user ? user : "estafette", host);
	}
	if (est_path_exists(file)) {
		error = est_error_set(EST_EIO, "%s: already exists; estafette keygen never overwrites a key, "
				      "choose another file name", file);
		status = cmd_fail(error, json, NULL);
		goto out;
	}
	if ((error = est_sshsig_keygen(&priv, &pub, comment)) < 0 ||
	    (error = est_file_write_atomic(file, priv, strlen(priv), 0600)) < 0)
		goto fail;
	free(pub_path);
	if (!(pub_path = est_strdup_printf("%s.pub", file))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto fail;
	}
	if ((error = est_file_write_atomic(pub_path, pub, strlen(pub), 0644)) < 0 ||
	    (error = est_sshsig_fingerprint(&fingerprint, pub)) < 0)
		goto fail;
	if (json) {
		json_t *out = json_pack("{s:s, s:s, s:s, s:s}", "private_key", file, "public_key", pub_path,
					"public", pub, "fingerprint", fingerprint);
		cmd_print_json(out);
		json_decref(out);
	} else {
		printf("private key: %s\npublic key:  %s\nfingerprint: %s\n%s", file, pub_path,
		       fingerprint, pub);
	}
	goto out;
fail:
	status = cmd_fail(error, json, NULL);
out:
	free(fingerprint);
	free(pub_path);
	free(pub);
	if (priv)
		memset(priv, 0, strlen(priv));
	free(priv);
	return status;
}
