/*
 * Named fault points, for tests that must kill a process at one exact
 * moment (a crash between two durable writes, or between a server's answer
 * and our record of it). With ESTAFETTE_FAULT=NAME in the environment,
 * est_fault_point(NAME) kills the process with SIGKILL, as a power cut
 * would; with ESTAFETTE_FAULT=NAME@N, the N-th time it is reached (N >= 1).
 * Otherwise it does nothing: the variable is read once a process, so a
 * point costs a comparison of two pointers when unset.
 *
 * tests/integration/fault_points.sh reads the first list below (the lines
 * of the form "*   name   what") and kills `run`, `submit`, `receive`,
 * `fetch` and `mail` at each point; it fails when a point in the code is
 * missing from both lists.
 * Points in use:
 *
 *   store-before-blobs         a commit's file blobs are not written yet
 *   store-after-blobs          the blobs are written, the trees not yet
 *   store-after-trees          the trees are written, the commit object not yet
 *   store-after-commit         the commit object is written, main not moved
 *   store-after-tag-object     the step's tag object is written, its ref not yet
 *   store-after-pack           the commit's new objects are on disk as one pack, main not moved
 *   store-before-ref           every object is written, main not moved yet
 *   store-after-ref            main moved; its tag ref and work tree not yet
 *   store-before-tag-ref       the tag ref is about to be written (commit or repair)
 *   store-after-tag-ref        the tag ref is written, the work tree not yet
 *   store-before-checkout      main and the tag are written, the work tree lags
 *   store-after-checkout       the work tree is checked out, estafette-worktree not yet
 *   store-after-merged-pack    packs merged into a new one, the old ones not yet removed
 *   step-after-hidden-record   $ESTAFETTE_HOME/games/ID/hidden/NNNN.json written, the step not committed
 *   clock-after-write          $ESTAFETTE_HOME/games/ID/clock.json written
 *   secrets-after-checkpoints  the chain-checkpoints cache beside the secrets written
 *   outbox-before-write        a message not yet in the outbox
 *   outbox-after-eml           its pending .eml written, its .json (the message complete) not yet
 *   outbox-after-write         the message is in the outbox, .eml and .json
 *   smtp-before-send           about to hand a pending message to the SMTP server
 *   smtp-after-accept          the server accepted it, not yet moved to sent/
 *   outbox-after-sent-eml      its .eml is in sent/, its .json still in pending/
 *   outbox-after-sent          both files in sent/: the acceptance is recorded
 *   submit-after-record        submit: the order is committed, press and receipt not queued
 *   receive-after-parse        receive: the message is parsed, the game's lock not yet taken
 *   receive-after-record       receive: the order is committed, press and receipt not queued
 *   receive-after-receipt      receive: the receipt is queued, intake.log not written
 *   receive-after-log          receive: intake.log appended, the outbox not delivered
 *   fetch-after-store          a mail's outcome is stored, its message not yet marked seen
 *   fetch-after-seen           the message is marked seen (IMAP or Maildir), the next not read
 *
 * Points only a sealed game reaches (tests/integration/sealed_fault_points.sh
 * kills `run`, `submit`, `receive`, `gm` and `reveal` of a sealed game at
 * these and at every point above its commands reach, at their first and
 * second passage: the sealed store's commit, then main's):
 *
 *   sealed-after-order         an order is in the sealed store, its public note not yet on main
 *   sealed-after-step          a step's sealed parts are committed, the public step not yet
 */
#ifndef EST_UTIL_FAULT_H
#define EST_UTIL_FAULT_H

/*
 * Kill the process with SIGKILL if ESTAFETTE_FAULT names `name` (a string
 * literal from the list above) and, with "@N", this is its N-th passage.
 * Never returns in that case; otherwise does nothing.
 */
void est_fault_point(const char *name);

#endif
