#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "util/error.h"
#include "util/json.h"

static int append(est_changes *c, char *path, char *data, size_t len, int keep_null_data)
{
	est_store_change *items = realloc(c->items, (c->count + 1) * sizeof(*items));
	char **owned = realloc(c->owned, (c->nowned + 2) * sizeof(*owned));

	if (items)
		c->items = items;
	if (owned)
		c->owned = owned;
	if (!items || !owned || !path || (!data && !keep_null_data)) {
		free(path);
		free(data);
		return est_error_set(EST_ENOMEM, "out of memory");
	}
	c->owned[c->nowned++] = path;
	c->owned[c->nowned++] = data;
	c->items[c->count++] = (est_store_change){path, data, len};
	return 0;
}

int est_changes_add(est_changes *c, char *path, char *data, size_t len)
{
	return append(c, path, data, len, 0);
}

int est_changes_delete(est_changes *c, const char *path)
{
	return append(c, strdup(path), NULL, 0, 1);
}

int est_changes_add_json(est_changes *c, const char *path, const json_t *value)
{
	char *text = est_json_text(value);

	return est_changes_add(c, strdup(path), text, text ? strlen(text) : 0);
}

void est_changes_free(est_changes *c)
{
	for (size_t i = 0; i < c->nowned; i++)
		free(c->owned[i]);
	free(c->owned);
	free(c->items);
	memset(c, 0, sizeof(*c));
}
