/*
 * estafette sign FILE [-f KEY] [-n NAMESPACE]: FILE.sig, as
 * ssh-keygen -Y sign -f KEY -n NAMESPACE FILE would write it. An order
 * file whose "entropy" a report left to fill (orders.h
 * EST_ORDERS_ENTROPY_PLACEHOLDER, or "") first gets 32 fresh random bytes
 * there, the file rewritten atomically with nothing else changed.
 */
#include <sys/stat.h>

#include <openssl/rand.h>

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
#include "orders/orders.h"
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
	"  writes FILE.sig, as ssh-keygen -Y sign -f KEY -n NAMESPACE FILE would; an order\n"
	"  file's \"entropy\": \"" EST_ORDERS_ENTROPY_PLACEHOLDER "\" (or \"\") is first filled\n"
	"  with 64 fresh hex digits"};

/*
 * Fill `file`'s entropy when a report left it to fill, rewriting the file
 * atomically with its mode kept; *data and *len then hold the new bytes.
 */
static int fill_entropy(int *filled, char **data, size_t *len, const char *file)
{
	unsigned char random[32];
	char hex[65], *text = NULL;
	size_t text_len;
	struct stat st;
	int error;

	if (RAND_bytes(random, sizeof(random)) != 1)
		return est_error_set(EST_ERROR, "%s: no fresh randomness from OpenSSL (RAND_bytes)", file);
	for (size_t i = 0; i < sizeof(random); i++)
		snprintf(hex + 2 * i, 3, "%02x", random[i]);
	error = est_orders_fill_entropy(&text, &text_len, filled, file, *data, *len, hex);
	if (error < 0 || !*filled)
		return error;
	if ((error = est_file_write_atomic(file, text, text_len, stat(file, &st) == 0 ?
					   (st.st_mode & 07777) : 0644)) < 0) {
		free(text);
		return error;
	}
	free(*data);
	*data = text;
	*len = text_len;
	return 0;
}

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
	int json, error, status = 0, filled = 0;

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
	if ((error = est_file_read(&data, &len, file, 0)) < 0 ||
	    (error = fill_entropy(&filled, &data, &len, file)) < 0)
		goto fail;
	if ((error = est_sshsig_sign(&sig, &sig_len, key, key_len, namespace, data, len)) < 0) {
		est_error_prefix("%s%s", key_file, strstr(key_file, ".pub") ?
				 " (a public key: give the private key file beside it)" : "");
		goto fail;
	}
	if ((error = est_file_write_atomic(sig_path, sig, sig_len, 0644)) < 0)
		goto fail;
	if (json) {
		json_t *out = json_pack("{s:s, s:s, s:s, s:b}", "file", file, "signature", sig_path,
					"namespace", namespace, "entropy_filled", filled);
		cmd_print_json(out);
		json_decref(out);
	} else {
		if (filled)
			printf("filled the entropy of %s with 64 fresh hex digits\n", file);
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
