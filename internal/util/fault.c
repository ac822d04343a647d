#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/fault.h"

/* ESTAFETTE_FAULT split once a process: the point's name and which passage kills. */
static struct {
	int read;
	char name[64];
	long nth;   /* 1: the first passage */
	long seen;  /* passages so far */
} want;

static void read_env(void)
{
	const char *env = getenv("ESTAFETTE_FAULT");
	const char *at;
	size_t len;

	want.read = 1;
	want.nth = 1;
	if (!env || !*env)
		return;
	at = strchr(env, '@');
	len = at ? (size_t)(at - env) : strlen(env);
	if (len >= sizeof(want.name))
		return; /* no point has so long a name: none can match */
	memcpy(want.name, env, len);
	want.name[len] = '\0';
	if (at) {
		char *end;
		long n = strtol(at + 1, &end, 10);

		/* A bad count names no passage: nothing is killed. */
		want.nth = (*end || n < 1) ? 0 : n;
	}
}

void est_fault_point(const char *name)
{
	if (!want.read)
		read_env();
	if (!want.name[0] || strcmp(want.name, name) != 0)
		return;
	if (++want.seen == want.nth)
		kill(getpid(), SIGKILL);
}
