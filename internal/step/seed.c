/*
 * The seed of a step's hidden stream (DESIGN.md "Dice"): a dealt game's
 * games draw the same hidden values, so their seed leaves out the game.
 */
#include "dice/dice.h"
#include "step/step.h"
#include "util/error.h"

int est_step_hidden_seed(unsigned char out[32], const char **domain_out, const json_t *game,
			   const unsigned char h[32], long long step,
			   const unsigned char manifest_sha[32])
{
	const json_t *deal = json_object_get(game, "deal");
	const char *id = json_string_value(json_object_get(game, "id"));

	if (deal) {
		if (!json_is_string(deal))
			return est_error_set(EST_EINVAL, "game.json: field \"deal\" is not a string; "
					     "a dealt game names its deal, e.g. \"deal\": \"march-2027\"");
		*domain_out = EST_DICE_DOMAIN_DEAL;
		return est_dice_deal_seed(out, h, json_string_value(deal), (uint32_t)step);
	}
	if (!id)
		return est_error_set(EST_EINVAL, "game.json: field \"id\" is missing or not a string");
	*domain_out = EST_DICE_DOMAIN_HIDDEN;
	return est_dice_step_seed(out, h, EST_DICE_DOMAIN_HIDDEN, id, (uint32_t)step, manifest_sha);
}
