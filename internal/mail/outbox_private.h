/*
 * The outbox as delivery reads it. Private to the mail module.
 */
#ifndef EST_MAIL_OUTBOX_PRIVATE_H
#define EST_MAIL_OUTBOX_PRIVATE_H

#include <stddef.h>

/*
 * One pass over pending/ of `game`'s outbox, for delivery: *names_out the
 * complete messages as est_mail_outbox_list lists them (sorted; *count of
 * them); *lone_out the names whose .json is there without its .eml (sorted;
 * *lone_count): a move to sent/ cut short leaves one, est_mail_outbox_put
 * never does, though a GM removing files by hand may; and on the way, each
 * temporary file a dead est_mail_outbox_put left is removed. Both arrays
 * are new, freed with est_mail_names_free. A pending/ that does not exist
 * yet is empty. On error the four outputs are NULL and 0.
 *
 * Errors: EST_EINVAL (no home, bad game); EST_EIO (cannot read the folder, or a
 * stale temporary file cannot be removed); EST_ENOMEM.
 */
int est_mail__outbox_pending(char ***names_out, size_t *count, char ***lone_out,
			     size_t *lone_count, const char *home, const char *game);

#endif
