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

/* USER@HOST, as ssh-keygen comments a key; a new string. */
static char *default_comment(void)
{
	const char *user = getenv("USER");
	char host[256];

	if (gethostname(host, sizeof(host)) < 0)
		strcpy(host, "localhost");
	host[sizeof(host) - 1] = '\0';
	return est_strdup_printf("%s@%s", user ? user : "estafette", host);
}

static void print_keys(const char *file, const char *pub_path, const char *pub,
		       const char *fingerprint, int json)
{
	json_t *out;

	if (!json) {
		printf("private key: %s\npublic key:  %s\nfingerprint: %s\n%s", file, pub_path,
		       fingerprint, pub);
		return;
	}
	out = json_pack("{s:s, s:s, s:s, s:s}", "private_key", file, "public_key", pub_path,
			"public", pub, "fingerprint", fingerprint);
	cmd_print_json(out);
	json_decref(out);
}

int cmd_keygen(int argc, char **argv)
{
	struct est_opt_args a;
	const char *file;
	char *comment = NULL, *priv = NULL, *pub = NULL, *pub_path = NULL, *fingerprint = NULL;
	int error, status = 0;

	if ((error = est_opt_parse(&a, &keygen_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	file = a.args[0];
	if (est_path_exists(file)) {
		error = est_error_set(EST_EIO, "%s: already exists; estafette keygen never overwrites a key, "
				      "choose another file name", file);
		goto fail;
	}
	if (!(comment = args.comment ? strdup(args.comment) : default_comment()) ||
	    !(pub_path = est_strdup_printf("%s.pub", file))) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto fail;
	}
	if ((error = est_sshsig_keygen(&priv, &pub, comment)) < 0 ||
	    (error = est_file_write_atomic(file, priv, strlen(priv), 0600)) < 0 ||
	    (error = est_file_write_atomic(pub_path, pub, strlen(pub), 0644)) < 0 ||
	    (error = est_sshsig_fingerprint(&fingerprint, pub)) < 0)
		goto fail;
	print_keys(file, pub_path, pub, fingerprint, a.json);
	goto out;
fail:
	status = cmd_fail(error, a.json, NULL);
out:
	free(fingerprint);
	free(pub_path);
	free(pub);
	if (priv)
		memset(priv, 0, strlen(priv));
	free(priv);
	free(comment);
	return status;
}
