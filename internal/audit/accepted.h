/*
 * Accepted orders against the steps that resolved them (accepted.c), for
 * the audit: an order file main's history recorded, or a player's receipt,
 * names an order the GM accepted; the step it was for must have resolved
 * that file or a later seq of the same player.
 *
 * Errors follow util/error.h.
 */
#ifndef EST_AUDIT_ACCEPTED_H
#define EST_AUDIT_ACCEPTED_H

#include <jansson.h>

#include "store/store.h"

/*
 * Every order file a commit of main's history (`log`, est_store_log's
 * answer, borrowed: merged branches included) added or changed as
 * orders/<player>.json, read at that commit: *out (new) maps each step the file names ("7") to an array of
 * {"commit": 40 hex, "path", "player", "seq": as the file says them,
 * "sha256": hex of its bytes}. Files that do not parse, or lack those
 * fields, are left out: run would never have taken them. Whether a file
 * would have been accepted (its signature, binding, turn) is the caller's
 * to judge. Errors: EST_ENOMEM, EST_ERROR (libgit2).
 */
int est_audit_recorded_orders(json_t **out, est_store *store, const json_t *log);

/*
 * Whether `manifest` (a step's manifest.json) resolved the accepted order
 * of `player` with `seq` and SHA-256 `sha` (hex): the same file, or a
 * later seq of the player, or the step is a GM act's (kind "gm"), which
 * sets the open step's orders aside for all to see. 1 if so; else 0 and why[why_len] says what the
 * step did instead (an older seq, another file, default orders).
 */
int est_audit_order_kept(char *why, size_t why_len, const json_t *manifest, const char *player, long long seq,
			 const char *sha);

/*
 * One receipt of `dir`: the file `name` and its signature `name`.sig,
 * which must be a good one by principal "gm" of `signers` (the game's
 * keys/allowed_signers) in namespace "estafette-receipt", over a receipt/1
 * document of game `game_id` (exactly its eight fields, step and seq from
 * 1). 1 and *out (new) the document; 0 and why[why_len] when the receipt is
 * no evidence (unreadable, unsigned, forged, malformed, another game's).
 * Errors: EST_ENOMEM.
 */
int est_audit_read_receipt(json_t **out, char *why, size_t why_len, const char *dir, const char *name,
			   const char *signers, size_t signers_len, const char *game_id);

#endif
