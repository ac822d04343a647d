/*
 * estafette sign FILE [-f KEY] [-n NAMESPACE]: FILE.sig, as
 * ssh-keygen -Y sign -f KEY -n NAMESPACE FILE would write it. An order
 * file first gets 32 fresh random bytes as its "entropy", whatever the
 * field held (the report's placeholder, "", or a value a GM or an older
 * file put there, which the player cannot know to be fresh), the file
 * rewritten atomically with nothing else changed; unless FILE.sig is
 * already this key's signature of it: signing again changes nothing.
 */
#include <sys/stat.h>

#include <openssl/rand.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
	"  file's \"entropy\" is first given 64 fresh hex digits, whatever it held, unless\n"
	"  FILE.sig is already this key's signature of it; in the orders namespace FILE\n"
	"  must be a strict order file"};

/*
 * Give `file` fresh entropy, rewriting it atomically with its mode kept;
 * *data and *len then hold the new bytes.
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
	est_hex_encode(hex, random, sizeof(random));
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

/*
 * 1 if `sig_path` holds `key`'s signature of `data` in `namespace`: the
 * file was signed as it is, and signing it again must not change it.
 */
static int signed_already(const char *key, size_t key_len, const char *namespace,
			  const char *data, size_t len, const char *sig_path)
{
	char *pub = NULL, *allowed = NULL, *sig = NULL;
	size_t sig_len;
	int yes = 0;

	if (est_file_read(&sig, &sig_len, sig_path, 65536) == 0 &&
	    est_sshsig_public_key(&pub, key, key_len) == 0 &&
	    (allowed = est_strdup_printf("signer %s", pub)))
		yes = est_sshsig_verify(allowed, strlen(allowed), "signer", namespace, data, len, sig,
					sig_len, time(NULL)) == 0;
	est_error_clear();
	free(allowed);
	free(pub);
	free(sig);
	return yes;
}

/*
 * An order signature is a player's word on a strict order file: anything
 * else signed in that namespace (an outbox envelope, a half-written file)
 * is refused before a signature exists that someone could send.
 */
static int strict_orders(const char *file, const char *data, size_t len)
{
	est_order *order = NULL;
	int error = est_orders_parse(&order, file, data, len);

	est_orders_free(order);
	if (error < 0)
		est_error_prefix("not signed (namespace %s is for strict order files only, "
				 "docs/player-guide.md \"Writing an order file\"; sign other files with "
				 "-n NAMESPACE)", EST_ORDERS_NAMESPACE);
	return error;
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
	int json, error, status = 0, filled = 0, orders, keep;

	if ((error = est_opt_parse(&a, &sign_cmd, argc, argv)) != 0)
		return est_opt_exit(error);
	json = a.json;
	file = a.args[0];
	namespace = args.namespace ? args.namespace : EST_ORDERS_NAMESPACE;
	orders = strcmp(namespace, EST_ORDERS_NAMESPACE) == 0;
	key_file = args.key ? strdup(args.key) : default_key();
	sig_path = est_strdup_printf("%s.sig", file);
	if ((error = est_file_read(&key, &key_len, key_file, 65536)) < 0) {
		est_error_prefix("private key (give it with -f KEY or $ESTAFETTE_KEY)");
		goto fail;
	}
	if ((error = est_file_read(&data, &len, file, 0)) < 0)
		goto fail;
	/* A signature beside a file that still needs its entropy (ssh-keygen signed the blank) is not kept. */
	keep = signed_already(key, key_len, namespace, data, len, sig_path) &&
	       (!orders || strict_orders(file, data, len) == 0);
	est_error_clear();
	if ((!keep && (error = fill_entropy(&filled, &data, &len, file)) < 0) ||
	    (orders && (error = strict_orders(file, data, len)) < 0))
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
