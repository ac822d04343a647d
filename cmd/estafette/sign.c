/*
 * estafette sign FILE [-f KEY] [-n NAMESPACE]: FILE.sig, as
 * ssh-keygen -Y sign -f KEY -n NAMESPACE FILE would write it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "opt.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

static struct {
	const char *key, *namespace;
} args;

static const struct est_opt sign_opts[] = {
	{NULL, EST_OPT_FILE, &args.key,
	 "the private key (default: $ESTAFETTE_KEY, then ~/.ssh/id_ed25519)", .arg = "KEY",
	 .short_name = 'f'},
	{NULL, EST_OPT_STRING, &args.namespace, "the signature's namespace (default: "
	 EST_ORDERS_NAMESPACE ")", .arg = "NAMESPACE", .short_name = 'n'},
	{NULL}
};

static const struct est_opt_cmd sign_cmd = {"sign", "FILE", 1, 1, sign_opts,
	"  writes FILE.sig, as ssh-keygen -Y sign -f KEY -n NAMESPACE FILE would"};

static char *default_key(void)
{
	const char *env = getenv("ESTAFETTE_KEY"), *home = getenv("HOME");

	if (env && *env)
		return strdup(env);
	return est_strdup_printf("%s/.ssh/id_ed25519", home ? home : "");
}

int cmd_sign(int argc, char **argv)
{
	struct est_opt_args a;
	const char *namespace, *file;
	char *key_file = NULL, *key = NULL, *data = NULL, *sig = NULL, *sig_path = NULL;
	size_t key_len, len, sig_len;
	int json, error, status = 0;

	if ((error = est_opt_parse(&a, &sign_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	json = a.json;
	file = a.args[0];
	namespace = args.namespace ? args.namespace : EST_ORDERS_NAMESPACE;
	key_file = args.key ? strdup(args.key) : default_key();
	sig_path = est_strdup_printf("%s.sig", file);
	if ((error = est_file_read(&key, &key_len, key_file, 65536)) < 0) {
		est_error_prefix("private key (give it with -f KEY or $ESTAFETTE_KEY)");
		goto fail;
	}
	if ((error = est_file_read(&data, &len, file, 0)) < 0)
		goto fail;
	if ((error = est_sshsig_sign(&sig, &sig_len, key, key_len, namespace, data, len)) < 0) {
		est_error_prefix("%s%s", key_file, strstr(key_file, ".pub") ?
				 " (a public key: give the private key file beside it)" : "");
		goto fail;
	}
	if ((error = est_file_write_atomic(sig_path, sig, sig_len, 0644)) < 0)
		goto fail;
	if (json) {
		json_t *out = json_pack("{s:s, s:s, s:s}", "file", file, "signature", sig_path,
					"namespace", namespace);
		cmd_print_json(out);
		json_decref(out);
	} else {
		printf("signed %s with %s (namespace %s): %s\n", file, key_file, namespace, sig_path);
	}
	goto out;
fail:
	status = cmd_fail(error, json, NULL);
out:
	free(sig_path);
	free(sig);
	free(data);
	if (key)
		memset(key, 0, key_len);
	free(key);
	free(key_file);
	return status;
}
