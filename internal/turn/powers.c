/*
 * Order items by power (rulesets/ruleset.h): a player holding several of the
 * powers a step awaits addresses each item to one of them.
 */
#include <stdio.h>
#include <string.h>

#include "game/game.h"
#include "turn/turn.h"
#include "util/error.h"

static int held_by(const json_t *held, const char *power)
{
	const json_t *p;
	size_t i;

	json_array_foreach(held, i, p)
		if (strcmp(json_string_value(p), power) == 0)
			return 1;
	return 0;
}

int est_turn_orders_for(json_t **out, json_t **index_out, const json_t *orders, const char *power,
			  const json_t *held)
{
	json_t *mine = json_array(), *index = json_array(), *item;
	size_t i;

	if (!mine || !index)
		goto nomem;
	json_array_foreach(orders, i, item) {
		const json_t *to = json_object_get(item, "power");
		json_t *copy;
		if (to && (!json_is_string(to) || !held_by(held, json_string_value(to)))) {
			char list[256] = "";
			const json_t *h;
			size_t k;
			json_array_foreach(held, k, h)
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", k ? ", " : "",
					 json_string_value(h));
			json_decref(mine);
			json_decref(index);
			return est_error_set(EST_EINVAL, "orders[%zu].power: %s is not among the powers this step "
					     "awaits from you (%s); address the order to one of those, or send it "
					     "when its power's step comes", i,
					     json_is_string(to) ? json_string_value(to) : "a non-string", list);
		}
		if (to && strcmp(json_string_value(to), power) != 0)
			continue;
		if (!(copy = to ? json_copy(item) : json_incref(item)) ||
		    (to && json_object_del(copy, "power") < 0) || json_array_append_new(mine, copy) < 0 ||
		    json_array_append_new(index, json_integer((json_int_t)i)) < 0)
			goto nomem;
	}
	*out = mine;
	if (index_out)
		*index_out = index;
	else
		json_decref(index);
	return 0;
nomem:
	json_decref(mine);
	json_decref(index);
	return est_error_set(EST_ENOMEM, "out of memory");
}

/* Diagnostics name items of the power's share of the file: point them at the file's own index. */
static void point_at_file(json_t *diagnostics, const json_t *index)
{
	json_t *d;
	size_t i;

	json_array_foreach(diagnostics, i, d) {
		json_int_t k = json_integer_value(json_object_get(d, "index"));
		if (k >= 0 && (size_t)k < json_array_size(index))
			json_object_set(d, "index", json_array_get(index, (size_t)k));
	}
}

/*
 * Add the diagnostics of one power's share to `all`, each once: an item
 * without "power" is read for every power. `seen` holds each added one's
 * compact JSON as a key, so a hostile file's thousands cost no more than
 * their number.
 */
static int gather(json_t *all, json_t *seen, const json_t *diagnostics)
{
	const json_t *d;
	size_t i;

	json_array_foreach(diagnostics, i, d) {
		char *key = json_dumps(d, JSON_COMPACT | JSON_SORT_KEYS);
		int error = !key || (!json_object_get(seen, key) &&
				     (json_object_set_new(seen, key, json_true()) < 0 ||
				      json_array_append(all, (json_t *)d) < 0));

		free(key);
		if (error)
			return est_error_set(EST_ENOMEM, "out of memory");
	}
	return 0;
}

int est_turn_validate_powers(json_t **diagnostics_out, const est_ruleset *rs, const json_t *rules,
			     const json_t *wrapped, const json_t *orders, const json_t *held)
{
	json_t *all = json_array(), *seen = json_object(), *power;
	size_t i;
	int error = 0;

	*diagnostics_out = NULL;
	if (!all || !seen) {
		error = est_error_set(EST_ENOMEM, "out of memory");
		goto out;
	}
	/* Every power's share is checked: a player holding two learns of both powers' mistakes at once. */
	json_array_foreach(held, i, power) {
		json_t *diagnostics = NULL, *mine = NULL, *index = NULL;
		if ((error = est_turn_orders_for(&mine, &index, orders, json_string_value(power), held)) < 0)
			goto out;
		error = est_turn_validate(&diagnostics, rs, rules, wrapped, json_string_value(power), mine);
		point_at_file(diagnostics, index);
		json_decref(mine);
		json_decref(index);
		/* A failure without diagnostics (no memory, a broken state) is no refusal of the orders. */
		if (error < 0 && json_array_size(diagnostics) == 0) {
			json_decref(diagnostics);
			goto out;
		}
		error = gather(all, seen, diagnostics);
		json_decref(diagnostics);
		if (error < 0)
			goto out;
	}
	if (json_array_size(all) > 0) {
		*diagnostics_out = all;
		all = NULL;
		error = EST_EINVAL;
	}
out:
	json_decref(seen);
	json_decref(all);
	return error;
}
