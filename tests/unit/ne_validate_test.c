/*
 * Napoleonic Empire: validate() refuses what the rules forbid, naming the
 * order index, the field, the rule and the fix; default_orders() gives the
 * documented defaults (README.md "Orders").
 */
#include "ne_helpers.h"

static json_t *rules;

/*
 * Validate `items` for `power`; expect a refusal of order `index` whose rule
 * contains `rule`, its message giving a fix (after a ';').
 */
static void refused(const json_t *state, const char *power, const char *items, int index,
		    const char *field, const char *rule)
{
	ne_refused(state, rules, power, items, index, field, rule, ";");
}

static void accepted(const json_t *state, const char *power, const char *items)
{
	rules_valid(NE, state, rules, power, items);
}

static json_t *france_turn(void)
{
	return ne_started(rules); /* hand: toulon, italian-campaign */
}

static json_t *allied_turn(void)
{
	json_t *s = ne_started(rules), *o = json_object(), *n;

	json_object_set_new(o, "France", json_array());
	n = ne_step(s, rules, o, NULL, 0, NULL, 0, NULL);
	json_decref(s);
	return n; /* hand: battle-of-the-nile, austerlitz */
}

/* CARD LIST: unknown cards, cards not in the hand, cards of the other side, wrong countries. */
static void test_card_refusals(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn();

	(void)unused;
	refused(f, "France", "[{'type':'play','card':'grande-armee','country':'Austria'}]", 0, "card", "Card List");
	refused(f, "France", "[{'type':'play','card':'jena','country':'Prussia'}]", 0, "card", "Card List");
	refused(a, "Allies", "[{'type':'play','card':'austerlitz','country':'Austria'}]", 0, "card", "Card List");
	refused(f, "France", "[{'type':'play','card':'toulon','country':'Austria'}]", 0, "country", "Card List");
	refused(f, "France", "[{'type':'play','card':'toulon'}]", 0, "country", "orders");
	refused(f, "France", "[{'type':'discard','card':'toulon'},{'type':'play','card':'toulon','country':'France'}]",
		1, "card", "Card List");
	accepted(f, "France", "[{'type':'play','card':'italian-campaign','country':'Naples'}]");
	json_decref(f);
	json_decref(a);
}

/* MOVE PHASE: borders, England, the Ottoman Empire, once per turn, at least one army. */
static void test_move_refusals(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn();

	(void)unused;
	refused(f, "France", "[{'type':'move','from':'France','to':'Prussia','armies':1}]", 0, "to", "Move Phase");
	refused(f, "France", "[{'type':'move','from':'Holland','to':'England','armies':1}]", 0, "to", "never move armies into England");
	refused(a, "Allies", "[{'type':'move','from':'Russia','to':'Ottoman Empire','armies':1}]", 0, "to", "Ottoman");
	refused(f, "France", "[{'type':'move','from':'Egypt','to':'Ottoman Empire','armies':1}]", 0, "to", "Ottoman");
	refused(a, "Allies", "[{'type':'move','from':'England','to':'Warsaw','armies':1}]", 0, "to", "Move Phase");
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':15},"
		"{'type':'move','from':'France','to':'Italy','armies':6}]", 1, "armies", "an army may move only once per turn");
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':0}]", 0, "armies", "Move Phase");
	refused(f, "France", "[{'type':'move','from':'Atlantis','to':'Spain','armies':1}]", 0, "from", "The Map");
	accepted(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':14},"
		 "{'type':'move','from':'France','to':'Italy','armies':6},"
		 "{'type':'move','from':'Spain','to':'Portugal','armies':2}]");
	accepted(a, "Allies", "[{'type':'move','from':'England','to':'Spain','armies':5},"
		 "{'type':'move','from':'England','to':'Sweden','armies':5}]");
	json_decref(f);
	json_decref(a);
}

/* "Allied Armies cannot be moved back to England." */
static void test_allied_return_to_england_refused(void **unused)
{
	json_t *a = allied_turn();

	(void)unused;
	ne_put(a, "Holland", 2, 3, "France");
	refused(a, "Allies", "[{'type':'move','from':'Holland','to':'England','armies':3}]", 0, "to", "back to England");
	json_decref(a);
}

/* NATIONALIST MOVEMENTS: only the Allies, only the five countries, once a turn (more with Balance of Power). */
static void test_rebel_refusals(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn();

	(void)unused;
	refused(a, "Allies", "[{'type':'rebels','country':'Italy'}]", 0, "country", "Nationalist Movements");
	refused(a, "Allies", "[{'type':'rebels','country':'Spain'},{'type':'rebels','country':'Russia'}]", 1,
		"type", "Nationalist Movements");
	refused(f, "France", "[{'type':'rebels','country':'Spain'}]", 0, "type", "Nationalist Movements");
	accepted(a, "Allies", "[{'type':'rebels','country':'Austria'}]");
	json_decref(f);
	json_decref(a);
}

/*
 * NATIONALIST MOVEMENTS, "an additional 2 rebel armies in any one of the
 * following countries" (R21, once a turn): a rebels item refused for its
 * country places nothing, so the file's one valid rebels item is not
 * refused as a second placement.
 */
static void test_refused_rebels_do_not_count(void **unused)
{
	json_t *a = allied_turn(), *diag = NULL, *o = J("[{'type':'rebels','country':'Italy'},"
							  "{'type':'rebels','country':'Spain'}]");
	const json_t *d;
	size_t i;

	(void)unused;
	assert_int_equal(NE->validate(&diag, a, rules, "Allies", o), EST_EINVAL);
	assert_int_equal(json_array_size(diag), 1);
	json_array_foreach(diag, i, d) {
		assert_int_equal(json_integer_value(json_object_get(d, "index")), 0);
		assert_string_equal(json_string_value(json_object_get(d, "field")), "country");
	}
	json_decref(diag);
	json_decref(o);
	json_decref(a);
}

/* Orders of a kind the step does not take, unknown fields, a power not awaited. */
static void test_step_kind_refusals(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn();

	(void)unused;
	refused(f, "Allies", "[]", -1, "orders", "orders");
	refused(f, "France", "[{'type':'attack','country':'Austria'}]", 0, "type", "orders");
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':1,'speed':2}]", 0, "speed", "orders");
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':'all'}]", 0, "armies", "orders");
	/* a battle-cards step takes plays only */
	json_object_set_new(a, "phase", json_string("battle-cards"));
	json_object_set_new(a, "attack", J("{'battles':['Austria'],'plays':{'France':{},'Allies':{}},'rebels':[],'bonus':[],'extra_turn':false}"));
	refused(a, "Allies", "[{'type':'move','from':'England','to':'Spain','armies':1}]", 0, "type", "orders");
	refused(a, "Allies", "[{'type':'play','card':'battle-of-the-nile','country':'Egypt'}]", 0, "country", "Attack Phase");
	json_decref(f);
	json_decref(a);
}

/* Extra turns: no Reinforcements phase, so no rebels and no bonus armies; one extra-turn card a turn. */
static void test_extra_turn_refusals(void **unused)
{
	json_t *a = allied_turn(), *f = france_turn();

	(void)unused;
	json_object_set_new(a, "extra", json_true());
	refused(a, "Allies", "[{'type':'rebels','country':'Spain'}]", 0, "type", "Nationalist Movements");
	ne_hand_set(f, "France", "louis-berthier", "a-man-of-destiny", "conscription", NULL);
	refused(f, "France", "[{'type':'play','card':'louis-berthier'},{'type':'play','card':'a-man-of-destiny'}]", 1,
		"card", "Card List");
	refused(f, "France", "[{'type':'play','card':'conscription','country':'Austria'}]", 0, "country", "Reinforcements");
	json_object_set_new(f, "extra", json_true());
	refused(f, "France", "[{'type':'play','card':'conscription'}]", 0, "card", "Card List");
	json_decref(a);
	json_decref(f);
}

/* The retreat step takes one retreat, from the country of the battle, to a listed option. */
static void test_retreat_step_refusals(void **unused)
{
	json_t *a = allied_turn();

	(void)unused;
	json_object_set_new(a, "phase", json_string("retreat"));
	json_object_set_new(a, "retreat", J("{'from':'Austria','side':'Allies','armies':3,'options':['Prussia','Russia']}"));
	refused(a, "Allies", "[{'type':'retreat','from':'Austria','to':'Warsaw'}]", 0, "to", "Attack Phase");
	refused(a, "Allies", "[{'type':'retreat','from':'Prussia','to':'Russia'}]", 0, "from", "Attack Phase");
	refused(a, "Allies", "[]", -1, "orders", "Attack Phase");
	refused(a, "France", "[{'type':'retreat','from':'Austria','to':'Prussia'}]", -1, "orders", "orders");
	accepted(a, "Allies", "[{'type':'retreat','from':'Austria','to':'Russia'}]");
	json_decref(a);
}

/* Standing orders: battle cards of one's own side only, and they persist as defaults of a missed turn. */
static void test_standing_orders_and_turn_defaults(void **unused)
{
	json_t *a = allied_turn(), *o = json_object(), *n, *m, *d = NULL;

	(void)unused;
	refused(a, "Allies", "[{'type':'standing-play','card':'austerlitz','country':'Austria'}]", 0, "card", "Card List");
	refused(a, "Allies", "[{'type':'retreat','from':'Austria','to':'England'}]", 0, "to", "Attack Phase");
	accepted(a, "Allies", "[{'type':'standing-play','card':'battle-of-the-nile','country':'Egypt'},"
		 "{'type':'retreat','from':'Austria','to':'Russia'}]");
	json_object_set_new(o, "Allies", J("[{'type':'standing-play','card':'battle-of-the-nile','country':'Egypt'},"
					   "{'type':'retreat','from':'Austria','to':'Russia'}]"));
	n = ne_step(a, rules, o, NULL, 0, NULL, 0, NULL);
	o = json_object();
	json_object_set_new(o, "France", json_array());
	m = ne_step(n, rules, o, NULL, 0, NULL, 0, NULL);
	/* the Allies' next turn: missing it keeps the standing orders */
	assert_int_equal(NE->default_orders(&d, m, rules, "Allies"), 0);
	assert_int_equal(json_array_size(d), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 0), "type")), "retreat");
	assert_string_equal(json_string_value(json_object_get(json_array_get(d, 1), "type")), "standing-play");
	json_decref(d);
	json_decref(m);
	json_decref(n);
	json_decref(a);
}

/* The message of the diagnostic for order `index`, field `field` (a copy), or fail. */
static char *message(const json_t *state, const char *power, const char *items, int index, const char *field)
{
	json_t *diag = NULL, *o = J(items);
	const json_t *d;
	char *msg = NULL;
	size_t i;

	assert_int_equal(NE->validate(&diag, state, rules, power, o), EST_EINVAL);
	json_array_foreach(diag, i, d) {
		if (json_integer_value(json_object_get(d, "index")) == index &&
		    strcmp(json_string_value(json_object_get(d, "field")), field) == 0) {
			msg = strdup(json_string_value(json_object_get(d, "message")));
			break;
		}
	}
	if (!msg)
		fail_msg("no diagnostic [%d] %s in %s", index, field, json_dumps(diag, 0));
	json_decref(diag);
	json_decref(o);
	return msg;
}

static void message_has(const json_t *state, const char *power, const char *items, int index,
			const char *field, const char *want, const char *not_want)
{
	char *msg = message(state, power, items, index, field);

	if (!strstr(msg, want) || (not_want && strstr(msg, not_want)))
		fail_msg("message \"%s\": wanted \"%s\"%s%s", msg, want, not_want ? ", not " : "",
			 not_want ? not_want : "");
	free(msg);
}

/*
 * "armies" is compared as written, before any narrowing to int:
 * 4294967301 and -4294967291 would both become 5 and pass.
 */
static void test_armies_compared_before_narrowing(void **unused)
{
	json_t *f = france_turn();

	(void)unused;
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':4294967301}]", 0, "armies",
		"an army may move only once per turn");
	message_has(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':4294967301}]", 0, "armies",
		    "4294967301", NULL);
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':-4294967291}]", 0, "armies",
		"Move Phase");
	message_has(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':-4294967291}]", 0, "armies",
		    "-4294967291", NULL);
	/* a second move whose sum would wrap */
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':1},"
		"{'type':'move','from':'France','to':'Italy','armies':9223372036854775807}]", 1, "armies",
		"an army may move only once per turn");
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':21}]", 0, "armies",
		"an army may move only once per turn");
	accepted(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':20}]");
	json_decref(f);
}

/* An unknown "type" is called unknown, with the types the step takes. */
static void test_unknown_type_named(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn();

	(void)unused;
	message_has(f, "France", "[{'type':'nuke'}]", 0, "type", "\"nuke\" is no order type",
		    "not accepted");
	message_has(f, "France", "[{'type':'nuke'}]", 0, "type",
		    "discard, play, move, rebels, retreat, standing-play", NULL);
	json_object_set_new(a, "phase", json_string("retreat"));
	json_object_set_new(a, "retreat", J("{'from':'Austria','side':'Allies','armies':3,'options':['Prussia']}"));
	message_has(a, "Allies", "[{'type':'nuke'}]", 0, "type", "is no order type; the \"retreat\" step takes: retreat",
		    "not accepted");
	message_has(a, "Allies", "[{'type':'move','from':'England','to':'Spain','armies':1}]", 0, "type",
		    "not accepted in the \"retreat\" step", NULL);
	json_decref(f);
	json_decref(a);
}

/* Counts agree with their nouns: "1 army", "1 card", never "1 armies" or "item(s)". */
static void test_count_grammar(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn();

	(void)unused;
	ne_put(f, "Spain", 0, 0, "France");
	ne_put(f, "Portugal", 1, 0, "France");
	message_has(f, "France", "[{'type':'move','from':'Spain','to':'Portugal','armies':1}]", 0, "armies",
		    "total 1 army,", "1 armies");
	message_has(f, "France", "[{'type':'move','from':'Portugal','to':'Spain','armies':2}]", 0, "armies",
		    "France has 1 army there", NULL);
	ne_hand_set(f, "France", "toulon", NULL);
	message_has(f, "France", "[{'type':'discard','card':'toulon'}]", -1, "orders", "holds 1 card and", "1 cards");
	message_has(f, "France", "[{'type':'discard','card':'toulon'}]", -1, "orders", "discard 1 card but", NULL);
	ne_hand_set(f, "France", "toulon", "jena", "ulm", "wagram", "borodino", "eylau", "trafalgar", "marengo", NULL);
	message_has(f, "France", "[]", -1, "orders", "must discard exactly 1 card;", "(s)");
	message_has(a, "Allies", "[{'type':'rebels','country':'Spain'},{'type':'rebels','country':'Russia'},"
		    "{'type':'rebels','country':'Austria'}]", 2, "type", "3 times", "(s)");
	/* "Allies" is plural in every sentence: "Allies hold", never "Allies holds". */
	ne_hand_set(a, "Allies", "toulon", "jena", "ulm", "wagram", "borodino", "eylau", "trafalgar", "marengo", NULL);
	message_has(a, "Allies", "[]", -1, "orders", "Allies hold 8 cards", "holds");
	ne_hand_set(a, "Allies", "duke-of-wellington", "gebhard-von-blucher", NULL);
	json_object_set_new(a, "phase", json_string("battle-cards"));
	json_object_set_new(a, "attack", J("{'battles':['Spain'],'plays':{'France':{},'Allies':{'Spain':"
					   "'duke-of-wellington'}},'asked':['Allies']}"));
	message_has(a, "Allies", "[{'type':'play','card':'gebhard-von-blucher','country':'Spain'}]", 0, "country",
		    "Allies already play a card", "Allies already plays");
	json_decref(f);
	json_decref(a);
}

/* game.json "options": "scenario" ("standard"), "allies" and "control" (README.md "Options"). */
static void test_setup_options(void **unused)
{
	json_t *s = NULL, *o;

	(void)unused;
	o = J("{'foo':'bar'}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_null(s);
	assert_non_null(strstr(est_error_message(), "option \"foo\""));
	assert_non_null(strstr(est_error_message(), "accepts \"scenario\", \"allies\" and \"control\""));
	json_decref(o);
	o = J("{'scenario':'1812'}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "option \"scenario\" is \"1812\""));
	assert_non_null(strstr(est_error_message(), "\"standard\""));
	assert_null(strstr(est_error_message(), "game.json"));
	json_decref(o);
	o = J("{'scenario':1812}");
	assert_int_equal(NE->setup(&s, rules, o), EST_EINVAL);
	assert_non_null(strstr(est_error_message(), "option \"scenario\""));
	json_decref(o);
	o = J("{'scenario':'standard'}");
	assert_int_equal(NE->setup(&s, rules, o), 0);
	json_decref(s);
	s = NULL;
	json_decref(o);
	o = json_object();
	assert_int_equal(NE->setup(&s, rules, o), 0);
	json_decref(s);
	json_decref(o);
}

/*
 * The engine prints `FILE: orders[INDEX].FIELD: MESSAGE (RULE)`, so no
 * message starts with "orders[N]" or names its own field again, each ends
 * with its fix after a ';', and index -1 (field "orders") is the file as a
 * whole. Every kind of refusal is produced here.
 */
static void check_shapes(const json_t *state, const char *power, const char *items)
{
	json_t *diag = NULL, *o = J(items);
	const json_t *d;
	size_t i;

	assert_int_equal(NE->validate(&diag, state, rules, power, o), EST_EINVAL);
	json_array_foreach(diag, i, d) {
		const char *msg = json_string_value(json_object_get(d, "message"));
		const char *field = json_string_value(json_object_get(d, "field"));
		json_int_t index = json_integer_value(json_object_get(d, "index"));
		char quoted[128];

		snprintf(quoted, sizeof(quoted), "field \"%s\"", field);
		if (strstr(msg, "orders[") || strstr(msg, quoted) || strncmp(msg, field, strlen(field)) == 0 ||
		    !strrchr(msg, ';') || strlen(strrchr(msg, ';')) < 4 || strstr(msg, "(s)") ||
		    strstr(msg, " 1 armies") || strstr(msg, " 1 cards") || strstr(msg, " 1 items") ||
		    (index == -1) != (strcmp(field, "orders") == 0) ||
		    (index >= 0 && (size_t)index >= json_array_size(o)))
			fail_msg("badly shaped diagnostic for %s: %s", items, json_dumps(d, 0));
	}
	json_decref(diag);
	json_decref(o);
}

static void test_message_shapes(void **unused)
{
	json_t *f = france_turn(), *a = allied_turn(), *b, *r;
	static const char *const france[] = {
		"[{'type':'move','from':'France','to':'Spain','armies':1,'note':'x'}]",
		"[{'type':'move','from':'France','to':'Spain','armies':'all'}]",
		"[{'type':'move','from':'France','to':'Spain'}]",
		"[{'type':'move','from':'Atlantis','to':'Spain','armies':1}]",
		"[{'type':'move','from':'France','to':'Prussia','armies':1}]",
		"[{'type':'move','from':'France','to':'Spain','armies':0}]",
		"[{'type':'move','from':'France','to':'Spain','armies':4294967301}]",
		"[{'type':'play','card':'nothing'}]",
		"[{'type':'play','card':'jena','country':'Prussia'}]",
		"[{'type':'play','card':'toulon','country':'Austria'}]",
		"[{'type':'discard','card':'toulon'},{'type':'play','card':'toulon','country':'France'}]",
		"[{'type':'rebels','country':'Spain'}]",
		"[{'type':'retreat','from':'Austria','to':'England'},{'type':'retreat','from':'Austria','to':'Prussia'}]",
		"[3]", "[{'card':'toulon'}]", "[{'type':'nuke'}]", "{}",
		NULL,
	};
	static const char *const france_cards[] = {
		"[{'type':'play','card':'louis-berthier'},{'type':'play','card':'a-man-of-destiny'}]",
		"[{'type':'play','card':'conscription','country':'Austria'}]",
		"[{'type':'play','card':'louis-berthier','country':'Austria'}]",
		"[{'type':'play','card':'toulon','country':'France'},{'type':'play','card':'the-little-corporal','country':'France'}]",
		"[{'type':'standing-play','card':'louis-berthier','country':'France'}]",
		NULL,
	};
	static const char *const allies[] = {
		"[{'type':'play','card':'austerlitz','country':'Austria'}]",
		"[{'type':'rebels','country':'Italy'}]",
		"[{'type':'rebels','country':'Spain'},{'type':'rebels','country':'Russia'}]",
		"[{'type':'move','from':'Holland','to':'England','armies':3}]",
		NULL,
	};
	size_t i;

	(void)unused;
	for (i = 0; france[i]; i++)
		check_shapes(f, "France", france[i]);
	check_shapes(f, "Allies", "[]");
	for (i = 0; allies[i]; i++)
		check_shapes(a, "Allies", allies[i]);
	ne_hand_set(f, "France", "louis-berthier", "a-man-of-destiny", "conscription", "toulon", "the-little-corporal",
		    "continental-system", NULL);
	for (i = 0; france_cards[i]; i++)
		check_shapes(f, "France", france_cards[i]);
	json_object_set_new(f, "continental_system", json_true());
	check_shapes(f, "France", "[{'type':'play','card':'continental-system'}]");
	json_object_set_new(f, "extra", json_true());
	check_shapes(f, "France", "[{'type':'play','card':'conscription'}]");
	json_object_set_new(a, "extra", json_true());
	check_shapes(a, "Allies", "[{'type':'rebels','country':'Spain'}]");
	json_object_set_new(f, "extra", json_false());
	json_object_set_new(json_object_get(f, "no_move"), "France", json_true());
	check_shapes(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':1}]");
	b = allied_turn();
	json_object_set_new(b, "phase", json_string("battle-cards"));
	json_object_set_new(b, "attack", J("{'battles':['Austria'],'plays':{'France':{},'Allies':{'Austria':'x'}},"
					   "'rebels':[],'bonus':[],'extra_turn':false}"));
	ne_hand_set(b, "Allies", "battle-of-the-nile", "czar-alexander-i", "balance-of-power",
		    "duke-of-wellington", NULL);
	check_shapes(b, "Allies", "[{'type':'play','card':'battle-of-the-nile','country':'Egypt'}]");
	check_shapes(b, "Allies", "[{'type':'play','card':'duke-of-wellington','country':'Austria'}]");
	check_shapes(b, "Allies", "[{'type':'play','card':'balance-of-power'}]");
	check_shapes(b, "Allies", "[{'type':'move','from':'England','to':'Spain','armies':1}]");
	r = allied_turn();
	json_object_set_new(r, "phase", json_string("retreat"));
	json_object_set_new(r, "retreat", J("{'from':'Austria','side':'Allies','armies':3,'options':['Prussia','Russia']}"));
	check_shapes(r, "Allies", "[]");
	check_shapes(r, "Allies", "[{'type':'retreat','from':'Austria','to':'Warsaw'}]");
	check_shapes(r, "Allies", "[{'type':'retreat','from':'Prussia','to':'Russia'}]");
	check_shapes(r, "Allies", "[{'type':'retreat','from':'Austria','to':'Russia'},"
		     "{'type':'retreat','from':'Austria','to':'Prussia'}]");
	json_decref(r);
	json_decref(b);
	json_decref(f);
	json_decref(a);
}

/*
 * "An army may move only once per turn": armies that arrive in Spain may
 * not go on to Portugal. Spain holds 2 French armies at the start of the
 * turn, so 14 moving in from France leave at most 2 to move on.
 */
static void test_no_army_moves_twice(void **unused)
{
	json_t *f = france_turn();

	(void)unused;
	refused(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':14},"
		"{'type':'move','from':'Spain','to':'Portugal','armies':3}]", 1, "armies",
		"an army may move only once per turn");
	accepted(f, "France", "[{'type':'move','from':'France','to':'Spain','armies':14},"
		 "{'type':'move','from':'Spain','to':'Portugal','armies':2}]");
	json_decref(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_card_refusals),
		cmocka_unit_test(test_move_refusals),
		cmocka_unit_test(test_allied_return_to_england_refused),
		cmocka_unit_test(test_rebel_refusals),
		cmocka_unit_test(test_refused_rebels_do_not_count),
		cmocka_unit_test(test_step_kind_refusals),
		cmocka_unit_test(test_extra_turn_refusals),
		cmocka_unit_test(test_retreat_step_refusals),
		cmocka_unit_test(test_standing_orders_and_turn_defaults),
		cmocka_unit_test(test_armies_compared_before_narrowing),
		cmocka_unit_test(test_unknown_type_named),
		cmocka_unit_test(test_count_grammar),
		cmocka_unit_test(test_setup_options),
		cmocka_unit_test(test_message_shapes),
		cmocka_unit_test(test_no_army_moves_twice),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
