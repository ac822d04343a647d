/* estafette keygen FILE [-C COMMENT]: FILE (private, 0600) and FILE.pub, as ssh-keygen -t ed25519 -N '' */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "opt.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

static struct {
	const char *comment;
} args;

static const struct est_opt keygen_opts[] = {
	{NULL, EST_OPT_STRING, &args.comment, "the public key's comment (default: USER@HOST)",
	 .arg = "COMMENT", .short_name = 'C'},
	{NULL}
};

static const struct est_opt_cmd keygen_cmd = {"keygen", "FILE", 1, 1, keygen_opts,
	"  writes the private key to FILE (mode 0600, no passphrase) and the public key to\n"
	"  FILE.pub, as ssh-keygen -t ed25519 -N '' would; never overwrites a key"};

int cmd_keygen(int argc, char **argv)
{
	struct est_opt_args a;
	const char *comment, *file;
	char *priv = NULL, *pub = NULL, *pub_path = NULL, *fingerprint = NULL, host[256];
	int json, error, status = 0;

	if ((error = est_opt_parse(&a, &keygen_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	json = a.json;
	file = a.args[0];
	comment = args.comment;
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
