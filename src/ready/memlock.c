/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memlock.c: ready/memlock, the RLIMIT_MEMLOCK a login session gets from
 * pam_limits: /etc/security/limits.conf, then /etc/security/limits.d/
 * *.conf in name order, later "*" lines winning. Large memory regions
 * (NCCL buffers, a KV cache) fail to register below it, and rootless
 * podman's --ulimit memlock=-1 fails when the hard limit is lower.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ready/ready.h"
#include "util/rootfs.h"
#include "util/strv.h"

#define LIMITS_CONF "/etc/security/limits.conf"
#define LIMITS_D "/etc/security/limits.d"

static bool parse_value(const char *s, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (strcmp(s, "unlimited") == 0 || strcmp(s, "infinity") == 0 || strcmp(s, "-1") == 0) {
		*ret = HALO_MEMLOCK_UNLIMITED;
		return true;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-')
		return false;
	*ret = v;
	return true;
}

static void parse_line(char *line, struct halo_memlock *m)
{
	char *w[4], *save = NULL;
	uint64_t v;
	int n = 0;

	line[strcspn(line, "#")] = '\0';
	for (char *t = strtok_r(line, " \t\r", &save); t && n < 4; t = strtok_r(NULL, " \t\r", &save))
		w[n++] = t;
	if (n < 4 || strcmp(w[2], "memlock") != 0)
		return;
	if (strcmp(w[0], "*") != 0) {
		m->other_domains = true;
		return;
	}
	if (!parse_value(w[3], &v))
		return; /* pam_limits skips a bad value too */
	if (strcmp(w[1], "soft") == 0 || strcmp(w[1], "-") == 0) {
		m->soft_set = true;
		m->soft_kib = v;
	}
	if (strcmp(w[1], "hard") == 0 || strcmp(w[1], "-") == 0) {
		m->hard_set = true;
		m->hard_kib = v;
	}
}

void halo_memlock_parse(const char *text, struct halo_memlock *m)
{
	_cleanup_free_ char *copy = strdup(text);
	char *save = NULL;

	if (!copy)
		return;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		parse_line(l, m);
}

static const char *show(uint64_t kib, bool set, char *buf, size_t len)
{
	if (!set)
		return "kernel default";
	if (kib == HALO_MEMLOCK_UNLIMITED)
		return "unlimited";
	snprintf(buf, len, "%" PRIu64 " KiB", kib);
	return buf;
}

/* Folds FILE into M; 1 when it was there, 0 when absent. */
static int fold(struct halo_ctx *ctx, struct halo_item *item, const char *file,
		struct halo_memlock *m)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r = halo_read_file(ctx, file, &text, &len);

	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return halo_item_fail(item, r, "reading %s", file);
	halo_memlock_parse(text, m);
	return 1;
}

int halo_ready_memlock_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	const struct halo_ready_want *w = item->data;
	_cleanup_(halo_strv_freep) char **names = NULL;
	struct halo_memlock m = { 0 };
	uint64_t want = w->memlock_unlimited ? HALO_MEMLOCK_UNLIMITED : w->memlock_kib;
	char a[32], b[32], c[32], path[320];
	int r, found;

	(void)halo_item_set_wanted(item, "soft and hard %s", show(want, true, a, sizeof(a)));
	found = fold(ctx, item, LIMITS_CONF, &m);
	if (found < 0)
		return found;
	r = halo_root_list_dir(ctx, LIMITS_D, &names);
	if (r < 0 && r != -ENOENT)
		return halo_item_fail(item, r, "listing %s", LIMITS_D);
	for (size_t i = 0; names && names[i]; i++) {
		size_t n = strlen(names[i]);

		if (n < 6 || strcmp(names[i] + n - 5, ".conf") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", LIMITS_D, names[i]);
		r = fold(ctx, item, path, &m);
		if (r < 0)
			return r;
		found |= r;
	}
	if (!found && !names) {
		(void)halo_item_set_message(item, "no pam_limits files in the root (%s, %s/): the "
					    "login session's limit cannot be read", LIMITS_CONF, LIMITS_D);
		return HALO_SYNC_UNSUPPORTED;
	}
	(void)halo_item_set_observed(item, "soft %s, hard %s%s",
				     show(m.soft_kib, m.soft_set, b, sizeof(b)),
				     show(m.hard_kib, m.hard_set, c, sizeof(c)),
				     m.other_domains ? " (user or group lines differ)" : "");
	if (m.soft_set && m.hard_set && m.soft_kib >= want && m.hard_kib >= want)
		return HALO_SYNC_OK;
	(void)halo_item_set_message(item, "a login session gets less memlock than %s (RDMA memory "
				    "registration, podman --ulimit memlock=-1 fail): set access.memlock "
				    "(a limits.d drop-in this tool owns) and log in again",
				    show(want, true, a, sizeof(a)));
	return HALO_SYNC_DIFFERS;
}
