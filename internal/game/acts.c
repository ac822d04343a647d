/*
 * GM act files (gm/1): read one and verify the GM's signature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "orders/orders.h"
#include "sshsig/sshsig.h"
#include "util/error.h"
#include "util/util.h"

int est_gm_act_read(json_t **act_out, char sha_out[65], est_store *store, const char *rev,
		    const char *path, const char *signers)
{
	char sig_path[320], *bytes = NULL, *sig = NULL;
	size_t len, sig_len;
	est_order *act = NULL;
	int error;

	*act_out = NULL;
	snprintf(sig_path, sizeof(sig_path), "%s.sig", path);
	if ((error = est_store_read(&bytes, &len, store, rev, path)) < 0 ||
	    (error = est_store_read(&sig, &sig_len, store, rev, sig_path)) < 0 ||
	    (error = est_orders_parse(&act, path, bytes, len)) < 0)
		goto out;
	if (sha_out)
		est_sha256_hex(sha_out, bytes, len);
	if (!act->gm_act)
		error = est_error_set(EST_EINVAL, "%s: not a gm/1 file; only GM acts belong there", path);
	else if (est_sshsig_verify(signers, strlen(signers), "gm", EST_GM_NAMESPACE, bytes, len, sig,
				   sig_len, 0) < 0)
		error = est_error_prefix("%s: not the GM's signature", sig_path);
	else if (!(*act_out = json_incref(act->root)))
		error = est_error_set(EST_ENOMEM, "out of memory");
out:
	est_orders_free(act);
	free(sig);
	free(bytes);
	return error;
}
