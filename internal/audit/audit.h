/*
 * Replay verification (docs/protocol.md "The repository" and its dice protocols):
 * anyone holding a game's repository re-checks every step without trusting
 * the GM.
 */
#ifndef EST_AUDIT_AUDIT_H
#define EST_AUDIT_AUDIT_H

#include <jansson.h>

/* Called before each step is checked: `step` of `last`, for a progress bar. */
typedef void (*est_audit_progress_fn)(void *payload, long long step, long long last);

/*
 * Replay the game at `path` from step 0 and check, step by step (each at
 * its tag step-NNNN):
 *   - step 0: the ruleset's set-up from rules/ and game.json's options gives
 *     state.json exactly; the ruleset version is the one game.json recorded;
 *   - every step's files under turns/NNNN/ and the state at main are those of
 *     the step's own commit (the same tree: nothing added or edited
 *     afterwards), turns/NNNN/ holds only what a step writes, no step is
 *     missing between 0 and the last, and each step's tag lies on main's
 *     history after the one before it;
 *   - turns/NNNN/orders/, in the step's commit and at main, holds only the
 *     files the manifest lists as resolved (order files, commitments, their
 *     signatures: est_step_manifest_lists);
 *   - each order file: the SHA-256 of its bytes and of its signature match the
 *     manifest; the signature is the named player's (keys/allowed_signers as
 *     of the commit before the step, which must be the one step 0 committed:
 *     a key added later could sign for anyone); its binding (game, step,
 *     prev) holds;
 *   - the players the manifest answers for (orders, missing) are exactly
 *     those the state awaited, each with its awaited powers; default orders
 *     given for a missing power are the ruleset's;
 *   - accepted orders (unsealed games, accepted.h): every order file for the
 *     step that a commit of main's history recorded before the step's commit
 *     and that est_intake_check_recorded accepts at the step commit's time
 *     was resolved, or a later seq of its player was;
 *   - dice.json is a record of the protocol game.json names (v1 or v2; any
 *     other is refused): the revealed chain value hashes to the previous one
 *     (to game.json's tip for step 1), the manifest's SHA-256 (v1) or the
 *     step's inputs made again (v2, est_step_dice_inputs) and the step seed
 *     are as recorded;
 *   - re-resolving the step with the ruleset from the previous state draws
 *     exactly the rolls of dice.json and gives state.json's SHA-256;
 *   - what players read: events.json, report.txt, report.html and map.svg
 *     are what est_step_derived makes again from the replay, with the game
 *     as it stood at the commit before the step (est_game_open_at: its
 *     players, its GM acts, its templates/ if the GM put any there, else the
 *     installed ones) and the deadline dated by the step commit's time,
 *     byte for byte; a file no template makes is absent. A file that cannot
 *     be made again (no templates, one that does not parse) is a failure
 *     naming it, never a pass;
 *   - a signed history (game.json "signed_history": true at step 0): every
 *     commit of main carries a good SSH signature (namespace "git") by the
 *     key of principal "gm" in step 0's keys/allowed_signers, or is a
 *     player's: one parent, and it only adds or changes one player's
 *     orders/<player>.json, orders/<player>.commitment.json and their .sig
 *     as plain files (a merge must be the GM's); every step tag is an
 *     annotated tag the GM signed, of its own name, on a commit of main the
 *     GM signed (check "signatures", the file "commit <7 hex> \"subject\""
 *     or the tag's name);
 *   - reveal.json, if the GM published it (estafette reveal): its value h_T
 *     hashes to game.json's hidden_chain_tip in T steps; revealed/NNNN/
 *     holds the hidden rolls (and, sealed, the whole state) the replay gives.
 * Steps that drew hidden rolls (deck shuffles) need the hidden chain: the
 * GM's secrets under `home` ($ESTAFETTE_HOME; NULL: none), reveal.json, or
 * a sample game's public dice.test_secret (checked against the tip).
 * A sealed game's steps need it always (the public state.json is the whole
 * state sealed with the step's hidden seed: seal/seal.h), and its order
 * files: revealed/NNNN/orders/ at main, or the GM's sealed store under
 * `home`. A step without them is not re-resolved but the rest of it is
 * checked (but its derived files, which need the replay: "checks" counts
 * such steps); an unsealed game goes on from the state the step committed, a
 * sealed one checks only the dice chain and history of the later steps.
 *
 * *report_out (caller decrefs): {"game", "ruleset", "steps": last step,
 * "checked": {"steps": re-resolved, "orders": order files verified,
 * "rolls", "order_files": files under turns/NNNN/orders/ matched to their
 * manifest, "derived": derived files rendered again and compared},
 * "checks": [{"check": "history", "setup", "dice", "orders", "accepted",
 * "orders folder", "rolls", "state", "derived" or (--receipts) "receipts", "count": how many were checked,
 * "unit": of what ("steps", "files", ...), "what": the check in words;
 * "derived" adds "steps_not_checked": steps not re-resolved; a signed
 * history adds "signatures", counting commits, with "signed_commits",
 * "player_commits" and "signed_tags", which "checked" also has}], "ok": bool,
 * "failure": null or {"step", "file", "check", "message"} naming the first
 * step and file that do not hold ("check" is "derived" for a derived file,
 * "orders folder" for a file the manifest does not list), "complete": ok
 * and every step re-resolved, "unverified": null or {"steps": how many were not re-resolved, "first": step, "reason"}}.
 * `receipts` (NULL: none) is a folder of players' receipts (`audit
 * --receipts DIR`): every *.json there with its .sig must be a receipt/1
 * the GM signed (accepted.h) whose commit is on main's history holding the
 * file, and whose step resolved that file or a later seq of its player (or,
 * the step still open, main holds one of them); "checked" then has
 * "receipts", a failure's "check" is "receipts" naming the receipt, and
 * "receipts_refused" lists [{"file", "why"}] the files of DIR that are no
 * evidence (unsigned, forged, another game's, unreadable), which the
 * audit passes over. A DIR with no *.json at all is EST_ENOTFOUND.
 * `progress` may be NULL.
 *
 * Returns 0 whenever the audit ran, ok or not. Errors: EST_ENOTFOUND (no
 * game repository at `path`), EST_ECONFIG (a ruleset this estafette lacks),
 * EST_ENOMEM.
 */
int est_audit_run(json_t **report_out, const char *path, const char *home, const char *receipts,
		  est_audit_progress_fn progress, void *payload);

#endif
