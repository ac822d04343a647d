/*
 * Fuzz target: the Mustache renderer (internal/render) with a fuzzed
 * template and fuzzed data. Input: TEMPLATE NUL DATA NUL PARTIAL, where DATA
 * is JSON text (if it does not parse, the template renders against NULL
 * data) and PARTIAL is what every {{>name}} loads (so a partial may include
 * itself and must meet the depth limit). Each template renders with both
 * flags. Oracle besides ASan and UBSan: every refusal is EST_EINVAL (or
 * EST_ENOMEM) with a message.
 */
#include <jansson.h>

#include "fuzz.h"
#include "render/render.h"

/* est_render_partial_fn: every partial is the input's third part. */
static int load_partial(char **out, const char *name, void *payload)
{
	(void)name;
	*out = strdup((const char *)payload);
	return *out ? 0 : est_error_set(EST_ENOMEM, "out of memory");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const int refusal = FUZZ_OK(EST_EINVAL) | FUZZ_OK(EST_ENOMEM);
	char *part[3], *out;
	size_t len[3];
	json_t *json;
	int flags;

	if (fuzz_split(part, len, 3, data, size) < 0)
		return 0;
	json = json_loadb(part[1], len[1], JSON_DECODE_ANY, NULL);
	for (flags = EST_RENDER_ESCAPE_HTML; flags <= EST_RENDER_NO_ESCAPE; flags++) {
		out = NULL;
		fuzz_expect(est_render(&out, part[0], json, flags, load_partial, part[2]), "est_render", refusal);
		free(out);
	}
	json_decref(json);
	fuzz_parts_free(part, 3);
	return 0;
}
