/*
 * Napoleonic Empire report templates (templates/napoleonic-empire/): the
 * real renderer over the engine's data model with this ruleset's view. The
 * report shows the map by country, the step's battle with every roll, the
 * reader's own hand only, what is awaited and how to send orders.
 */
#include "ne_helpers.h"
#include "render/render.h"

static json_t *rules;

static char *template_text(const char *name)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	char path[4096];
	json_error_t err;
	FILE *f;
	char *buf = calloc(1, 65536);
	size_t n;

	(void)err;
	snprintf(path, sizeof(path), "%s/templates/napoleonic-empire/%s", top, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, 65535, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* The engine's report data for `power` (NULL: public) after an Allied victory in Italy, France to retreat. */
static json_t *model(json_t **state_out, json_t **events_out, const char *power)
{
	json_t *s = ne_started(rules), *n, *ev, *v = NULL, *m;
	json_t *o = J("{'Allies': [{'type':'move','from':'England','to':'Italy','armies':10}]}");
	int faces[] = {1, 6, 1, 1, 1};

	json_object_set_new(s, "active", json_string("Allies"));
	ne_hand_set(s, "France", "toulon", NULL);
	ne_hand_set(s, "Allies", "austerlitz", NULL);
	ne_put(s, "Rhineland", 4, 0, "France");
	ne_put(s, "Switzerland", 0, 0, "Allies");
	ne_put(s, "Naples", 0, 0, "Allies");
	n = ne_step(s, rules, o, faces, 5, NULL, 0, &ev);
	assert_int_equal(NE->view(&v, n, rules, power), 0);
	m = json_pack("{s:s, s:s, s:i, s:s, s:b, s:O, s:[{s:s, s:s, s:[s], s:s, s:s}], s:s, s:i, s:s,"
		      " s:{s:s, s:s, s:[]}, s:b, s:o}",
		      "game", "ne-001", "ruleset", "napoleonic-empire", "step", 7, "kind", "retreat",
		      "public", power == NULL, "events", ev,
		      "awaiting", "player", "france", "name", "Jean <Lannes>", "powers", "France", "mode",
		      "sequential", "deadline", "2026-12-01T12:00:00Z",
		      "prompt", "France: send your orders", "next_step", 8, "state_sha256", "ab12",
		      "dice", "reveal", "00", "seed", "11", "rolls", "over", 0, "view", v);
	if (power)
		json_object_set_new(m, "player", json_pack("{s:s, s:s, s:[s]}", "id", "france", "name",
							   "Jean <Lannes>", "powers", power));
	*state_out = n;
	*events_out = ev;
	json_decref(s);
	return m;
}

static char *render(const char *name, const json_t *data, int flags)
{
	char *tpl = template_text(name), *out = NULL;

	if (est_render(&out, tpl, data, flags, NULL, NULL) < 0)
		fail_msg("%s: %s", name, est_error_message());
	free(tpl);
	return out;
}

/* The text report: map, battle with rolls and modifiers, own hand, how to send orders. */
static void test_text_report_for_france(void **unused)
{
	json_t *s, *ev, *m = model(&s, &ev, "France");
	char *t = render("report.txt.mustache", m, EST_RENDER_NO_ESCAPE);

	(void)unused;
	assert_non_null(strstr(t, "Battle in Italy: France 2 armies + 1 defender + 1d6 (1) = 4; Allies 10 armies + 1d6 (6) = 16; Allies win"));
	assert_non_null(strstr(t, "  Italy: France 2, Allies 9, France, CONTESTED; reinforcement value 1"));
	assert_non_null(strstr(t, "  France must retreat 2 armies from Italy to one of: France Rhineland"));
	assert_non_null(strstr(t, "  Sweden: France 0, Allies 0, neutral;"));
	assert_non_null(strstr(t, "  Toulon [toulon]: France: French +4"));
	assert_null(strstr(t, "Austerlitz ["));
	assert_non_null(strstr(t, "\"step\": 8"));
	assert_non_null(strstr(t, "Jean <Lannes> (france) for France - sequential, by 2026-12-01T12:00:00Z"));
	free(t);
	json_decref(m);
	json_decref(ev);
	json_decref(s);
}

/* The public HTML report escapes text and shows no hand. */
static void test_public_html_report(void **unused)
{
	json_t *s, *ev, *m = model(&s, &ev, NULL);
	char *h = render("report.html.mustache", m, EST_RENDER_ESCAPE_HTML);

	(void)unused;
	assert_non_null(strstr(h, "<td title=\"Kingdom of Italy\">Italy</td><td class=\"n\">2</td><td class=\"n\">9</td>"));
	assert_non_null(strstr(h, "Jean &lt;Lannes&gt;"));
	assert_null(strstr(h, "Your hand"));
	assert_null(strstr(h, "Toulon"));
	assert_non_null(strstr(h, "Public report"));
	free(h);
	json_decref(m);
	json_decref(ev);
	json_decref(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_report_for_france),
		cmocka_unit_test(test_public_html_report),
	};
	int rc;

	rules = ne_rules();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	json_decref(rules);
	return rc;
}
