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
