/* Logged rolls for the rulesets. */
#include <stdarg.h>
#include <stdio.h>

#include "rulesets/common/common.h"

int est_rules_roll(int *out, est_dice *dice, int sides, const char *fmt, ...)
{
	char purpose[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(purpose, sizeof(purpose), fmt, ap);
	va_end(ap);
	return est_dice_roll(out, dice, sides, purpose);
}
