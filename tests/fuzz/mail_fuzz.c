/*
 * Fuzz target: mail intake (internal/mail/intake.c): one whole RFC 5322
 * message as `receive` reads it, the envelope sender taken from its
 * Return-Path header, and once more with an envelope sender given. Every
 * candidate found is read to its end. Oracle besides ASan and UBSan: every
 * refusal is EST_EINVAL (or EST_ENOMEM) with a message, and every candidate
 * has its readings, signatures and where, with the lengths its header
 * promises.
 */
#include "fuzz.h"
#include "mail/intake.h"

/* Abort unless `m` holds what intake.h promises. */
static void check_message(const est_intake_message *m)
{
	size_t i;

	/* A message without an address to answer is mail all the same: `from` NULL, and `reply_to` with it. */
	if ((m->from && !m->reply_to) || (m->automated && !m->automated_why) || (m->count && !m->candidates)) {
		fprintf(stderr, "fuzz: intake message lacks a field intake.h promises\n");
		abort();
	}
	/* A bounce lists what intake.h promises: a status, ids and recipients within the bound. */
	if (m->bounce && (!m->bounce->status || m->bounce->id_count > EST_INTAKE_BOUNCE_MAX ||
			  m->bounce->recipient_count > EST_INTAKE_BOUNCE_MAX || !m->automated ||
			  (m->bounce->diagnostic && strchr(m->bounce->diagnostic, '\n')))) {
		fprintf(stderr, "fuzz: intake bounce is not as intake.h describes\n");
		abort();
	}
	if (m->text && strlen(m->text) > EST_INTAKE_TEXT_MAX) {
		fprintf(stderr, "fuzz: intake text over EST_INTAKE_TEXT_MAX\n");
		abort();
	}
	for (i = 0; i < m->count; i++) {
		const est_intake_candidate *c = &m->candidates[i];
		size_t j;
		int bad = !c->where || c->reading_count < 1 || c->reading_count > EST_INTAKE_MAX_READINGS ||
			  c->sig_count > EST_INTAKE_MAX_SIGS || (c->wrapped != 0 && c->wrapped != 1);

		/* A reading may hold a NUL from a binary attachment (est_orders_parse refuses it),
		 * but it has its uncounted NUL; a signature is armor text. */
		for (j = 0; j < c->reading_count && !bad; j++)
			bad = !c->readings[j].bytes || c->readings[j].bytes[c->readings[j].len] != '\0';
		for (j = 0; j < c->sig_count && !bad; j++)
			bad = !c->sigs[j].bytes || strlen(c->sigs[j].bytes) != c->sigs[j].len ||
			      c->sigs[j].bytes[c->sigs[j].len - 1] != '\n';
		if (bad) {
			fprintf(stderr, "fuzz: intake candidate %zu is not as intake.h describes\n", i);
			abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const int refusal = FUZZ_OK(EST_EINVAL) | FUZZ_OK(EST_ENOMEM);
	static const char *const senders[] = { NULL, "<france@example.org>" };
	size_t i;

	for (i = 0; i < sizeof(senders) / sizeof(senders[0]); i++) {
		est_intake_message *m = NULL;
		int rc = est_intake_parse(&m, (const char *)data, size, senders[i]);

		fuzz_expect(rc, "est_intake_parse", refusal);
		if (rc == 0)
			check_message(m);
		est_intake_free(m);
	}
	return 0;
}
