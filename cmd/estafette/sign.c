/*
 * estafette sign FILE [-f KEY] [-n NAMESPACE]: FILE.sig, as
 * ssh-keygen -Y sign -f KEY -n NAMESPACE FILE would write it.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "game/game.h"
#include "turn/turn.h"
#include "intake/intake.h"
#include "step/step.h"
#include "engine/engine.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

#define USAGE "estafette sign FILE [-f KEY] [-n NAMESPACE] [--json]\n" \
	"  KEY defaults to $ESTAFETTE_KEY, then ~/.ssh/id_ed25519; NAMESPACE to " EST_ORDERS_NAMESPACE

static char *default_key(void)
{
	const char *env = getenv("ESTAFETTE_KEY"), *home = getenv("HOME");

	if (env && *env)
		return strdup(env);
	return est_strdup_printf("%s/.ssh/id_ed25519", home ? home : "");
}

int cmd_sign(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0}};
	const char *namespace = EST_ORDERS_NAMESPACE, *file;
	char *key_file = NULL, *key = NULL, *data = NULL, *sig = NULL, *sig_path = NULL;
	size_t key_len, len, sig_len;
	int c, json = 0, error, status = 0;

	while ((c = getopt_long(argc, argv, "f:n:", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': free(key_file); key_file = strdup(optarg); break;
		case 'n': namespace = optarg; break;
		case 'j': json = 1; break;
		default:
			free(key_file);
			return c == 'h' ? cmd_help(USAGE) : cmd_usage(USAGE);
		}
	}
	if (optind + 1 != argc) {
		free(key_file);
		return cmd_usage(USAGE);
	}
	file = argv[optind];
	if (!key_file)
		key_file = default_key();
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
