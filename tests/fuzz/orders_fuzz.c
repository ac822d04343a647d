/*
 * Fuzz target: an order file as it arrives (internal/orders): the strict
 * parser, then the two checks the engine applies to every parsed file, the
 * binding to its game, step, state and signer, and the seq rule against
 * the file already held. Oracle besides ASan and UBSan: every refusal is
 * EST_EINVAL (or EST_ENOMEM) with a message.
 */
#include "fuzz.h"
#include "orders/orders.h"

#define PREV "3f2a9c0d1e4b5a6978c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6"
#define ENTROPY "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* The file "already held" for france at ne-001 step 7, parsed once. */
static const char held_text[] =
	"{\"estafette\": \"orders/1\", \"game\": \"ne-001\", \"step\": 7, \"player\": \"france\",\n"
	" \"prev\": \"" PREV "\", \"seq\": 2, \"entropy\": \"" ENTROPY "\",\n"
	" \"orders\": [{\"type\": \"move\", \"unit\": \"army-1\", \"to\": \"vienna\"}]}\n";

static est_order *held_order(void)
{
	static est_order *held;

	if (!held && est_orders_parse(&held, "orders/held.json", held_text, sizeof(held_text) - 1) < 0) {
		fprintf(stderr, "fuzz: the held order does not parse: %s\n", est_error_message());
		abort();
	}
	return held;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const int refusal = FUZZ_OK(EST_EINVAL) | FUZZ_OK(EST_ENOMEM);
	est_order *held = held_order(), *o = NULL;
	int rc;

	rc = est_orders_parse(&o, "orders/france.json", (const char *)data, size);
	fuzz_expect(rc, "est_orders_parse", refusal);
	if (rc < 0)
		return 0;
	/* The engine's view: a fixed game, step, state and signer. */
	fuzz_expect(est_orders_check_binding(o, "orders/france.json", "ne-001", 7, PREV, "france"),
		    "est_orders_check_binding", refusal);
	/* The file's own values, so the checks past the first can pass too. */
	fuzz_expect(est_orders_check_binding(o, "orders/france.json", o->game, o->step, o->prev, o->player),
		    "est_orders_check_binding (own values)", refusal);
	fuzz_expect(est_orders_check_seq(o, NULL, "orders/france.json"), "est_orders_check_seq (none)", refusal);
	fuzz_expect(est_orders_check_seq(o, held, "orders/france.json"), "est_orders_check_seq", refusal);
	fuzz_expect(est_orders_check_seq(held, o, "orders/held.json"), "est_orders_check_seq (reverse)", refusal);
	fuzz_expect(est_orders_check_seq(o, o, "orders/france.json"), "est_orders_check_seq (itself)", refusal);
	est_orders_free(o);
	return 0;
}
