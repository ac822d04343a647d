#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dice/dice.h"
#include "game/game.h"
#include "util/error.h"
#include "util/json.h"
#include "util/fault.h"
#include "util/util.h"

char *est_secrets_path(const char *home, const char *id)
{
	return est_strdup_printf("%s/games/%s/secrets.json", home, id);
}

int est_secrets_check_free(const char *home, const char *id)
{
	char *path = est_secrets_path(home, id);
	int error = 0;

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	if (est_path_exists(path))
		error = est_error_set(EST_EINVAL, "%s: dice secrets for a game \"%s\" already exist; "
				      "choose another game id (--id). If no game of that id exists (an "
				      "`estafette new` was interrupted), remove %s/games/%s", path, id,
				      home, id);
	free(path);
	return error;
}

int est_secrets_generate(est_secrets *out, const char *test_text)
{
	char *hidden_text;

	if (!test_text) {
		if (RAND_bytes(out->chain, 32) != 1 || RAND_bytes(out->hidden, 32) != 1)
			return est_error_set(EST_ERROR, "the system random source failed");
		return 0;
	}
	if (!(hidden_text = est_strdup_printf("%s/hidden", test_text)))
		return est_error_set(EST_ENOMEM, "out of memory");
	est_sha256(out->chain, test_text, strlen(test_text));
	est_sha256(out->hidden, hidden_text, strlen(hidden_text));
	free(hidden_text);
	return 0;
}

int est_secrets_save(const est_secrets *secrets, const char *home, const char *id)
{
	char *path = est_secrets_path(home, id), *dir = est_strdup_printf("%s/games/%s", home, id);
	char chain[65], hidden[65], *text = NULL;
	int error;

	est_hex_encode(chain, secrets->chain, 32);
	est_hex_encode(hidden, secrets->hidden, 32);
	text = est_strdup_printf("{\n  \"chain_secret\": \"%s\",\n  \"hidden_chain_secret\": \"%s\"\n}\n",
				 chain, hidden);
	if (!path || !dir || !text) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_secrets_check_free(home, id)) < 0 || (error = est_mkdir_p(dir, 0700)) < 0)
		goto out;
	error = est_file_write_atomic(path, text, strlen(text), 0600);
out:
	if (text)
		memset(text, 0, strlen(text));
	free(text);
	free(dir);
	free(path);
	return error;
}

static int decode_field(unsigned char out[32], const json_t *root, const char *field, const char *path)
{
	const char *hex = json_string_value(json_object_get(root, field));

	if (!hex || est_hex_decode(out, 32, hex) < 0)
		return est_error_set(EST_ECONFIG, "%s: field \"%s\" is not 64 hex digits; "
				     "restore the file from your backup", path, field);
	return 0;
}

int est_secrets_load(est_secrets *out, const char *home, const char *id)
{
	char *path = est_secrets_path(home, id), *text = NULL;
	json_t *root = NULL;
	size_t len;
	int error;

	if (!path)
		return est_error_set(EST_ENOMEM, "out of memory");
	/* A secret others can read is no secret: anyone who read it could foresee every die. */
	if ((error = est_file_read_private(&text, &len, path, 4096)) < 0) {
		if (error == EST_ENOTFOUND)
			est_error_set(EST_ECONFIG, "%s: the game's dice secrets are missing; "
				      "run estafette where the game was created, set ESTAFETTE_HOME to that "
				      "home, or copy its games/%s folder here (docs/hosting.md)", path, id);
		error = EST_ECONFIG;
		goto out;
	}
	if (est_json_parse(&root, text, len, path) < 0) {
		error = est_error_set(EST_ECONFIG, "%s: not valid JSON; restore it from your backup", path);
		goto out;
	}
	if ((error = decode_field(out->chain, root, "chain_secret", path)) < 0)
		goto out;
	error = decode_field(out->hidden, root, "hidden_chain_secret", path);
out:
	json_decref(root);
	free(text);
	free(path);
	return error;
}

/* The checkpoints of both chains, one after the other: a cache of est_dice_chain_checkpoints. */
typedef struct {
	est_dice_checkpoints chain;
	est_dice_checkpoints hidden;
} checkpoints;

/* The cached copy if it is whole and begins with these secrets, else 0. */
static int read_checkpoints(checkpoints *cp, const est_secrets *secrets, const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int ok;

	if (est_file_read_private(&text, &len, path, sizeof(*cp)) < 0) {
		est_error_clear();
		return 0;
	}
	ok = len == sizeof(*cp);
	if (ok)
		memcpy(cp, text, sizeof(*cp));
	OPENSSL_cleanse(text, len);
	free(text);
	return ok && CRYPTO_memcmp(cp->chain.value[0], secrets->chain, 32) == 0 &&
	       CRYPTO_memcmp(cp->hidden.value[0], secrets->hidden, 32) == 0;
}

static void make_checkpoints(checkpoints *cp, const est_secrets *secrets, const char *path)
{
	est_dice_chain_checkpoints(&cp->chain, secrets->chain);
	est_dice_chain_checkpoints(&cp->hidden, secrets->hidden);
	/* Only a cache: without it the next step computes it again. */
	if (est_file_write_atomic(path, cp, sizeof(*cp), 0600) < 0)
		est_error_clear();
	else
		est_fault_point("secrets-after-checkpoints");
}

static int values_from(unsigned char chain_out[32], unsigned char hidden_out[32], const checkpoints *cp,
		       uint32_t n)
{
	int error = est_dice_chain_value_from(chain_out, &cp->chain, n);

	return error < 0 ? error : est_dice_chain_value_from(hidden_out, &cp->hidden, n);
}

int est_secrets_chain_values(unsigned char chain_out[32], unsigned char hidden_out[32],
			     const char *home, const char *id, uint32_t n)
{
	char *path = est_strdup_printf("%s/games/%s/chain-checkpoints", home, id);
	checkpoints *cp = malloc(sizeof(*cp));
	est_secrets secrets;
	int error;

	if (!path || !cp) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	if ((error = est_secrets_load(&secrets, home, id)) < 0)
		goto out;
	if (read_checkpoints(cp, &secrets, path) && values_from(chain_out, hidden_out, cp, n) == 0)
		goto out;
	est_error_clear();
	make_checkpoints(cp, &secrets, path);
	error = values_from(chain_out, hidden_out, cp, n);
out:
	OPENSSL_cleanse(&secrets, sizeof(secrets));
	if (cp)
		OPENSSL_cleanse(cp, sizeof(*cp));
	free(cp);
	free(path);
	return error;
}

int est_game_secrets(unsigned char chain[32], unsigned char hidden[32], const char *home,
		       const char *id)
{
	est_secrets secrets;
	int error;

	if ((error = est_secrets_load(&secrets, home, id)) < 0)
		return error;
	memcpy(chain, secrets.chain, 32);
	memcpy(hidden, secrets.hidden, 32);
	OPENSSL_cleanse(&secrets, sizeof(secrets));
	return 0;
}
