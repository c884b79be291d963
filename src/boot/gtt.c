/* SPDX-License-Identifier: GPL-2.0-or-later */
/* gtt.c: GTT arithmetic and the two text formats it reads (see gtt.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "boot/cmdline.h"
#include "boot/gtt.h"
#include "util/strv.h"

int halo_meminfo_memtotal_kib(const char *text, uint64_t *ret_kib)
{
	const char *p = text;

	/* The line starting with "MemTotal:", at the start or after a \n. */
	while (strncmp(p, "MemTotal:", 9) != 0) {
		p = strchr(p, '\n');
		if (!p)
			return -EINVAL;
		p++;
	}
	p += 9;
	p += strspn(p, " \t");
	if (*p < '0' || *p > '9')
		return -EINVAL;

	uint64_t v = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	p += strspn(p, " \t");
	if (v == 0 || strncmp(p, "kB", 2) != 0)
		return -EINVAL;
	*ret_kib = v;
	return 0;
}

uint64_t halo_gtt_ceiling_mib(uint64_t ram_mib)
{
	uint64_t cut = ram_mib / 64 + 1536;

	return ram_mib > cut ? ram_mib - cut : 0;
}

uint64_t halo_gtt_auto_mib(uint64_t ram_mib, uint64_t reserve_mib)
{
	uint64_t reserve = reserve_mib > HALO_GTT_AUTO_MIN_RESERVE_MIB ?
				   reserve_mib :
				   HALO_GTT_AUTO_MIN_RESERVE_MIB;
	uint64_t v = ram_mib > reserve ? ram_mib - reserve : 0;
	uint64_t ceiling = halo_gtt_ceiling_mib(ram_mib);

	if (v > ceiling)
		v = ceiling;
	return v / 1024 * 1024;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(p, w, n) == 0;
}

int halo_modprobe_find_option(const char *text, const char *module,
			      const char *param, char **ret_value)
{
	int found = 0;
	unsigned line = 0;
	char *value = NULL;

	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');
		const char *q = skip_ws(p);
		size_t n;

		line++;
		n = strcspn(q, " \t\n");
		if (word_is(q, n, "options")) {
			q = skip_ws(q + n);
			n = strcspn(q, " \t\n");
			/* modprobe treats - and _ alike in module names. */
			if (n == strlen(module) && halo_name_eq(q, module, n)) {
				q += n;
				for (;;) {
					q = skip_ws(q);
					n = strcspn(q, " \t\n");
					if (!n)
						break;
					const char *eq = memchr(q, '=', n);

					if (eq && word_is(q, (size_t)(eq - q), param)) {
						char *v = strndup(eq + 1, n - (size_t)(eq - q) - 1);

						if (!v) {
							free(value);
							return -ENOMEM;
						}
						free(value);
						value = v;
						found = (int)line;
					}
					q += n;
				}
			}
		}
		p = *eol ? eol + 1 : eol;
	}
	if (found)
		*ret_value = value;
	return found;
}

/* amdgpu.gttsize counts MiB, the pages_limit parameters pages. */
bool halo_gtt_token_pages(const char *tok, uint64_t *ret)
{
	const char *eq = strchr(tok, '=');
	char *end;
	uint64_t v;

	if (!eq || !eq[1])
		return false;
	errno = 0;
	v = strtoull(eq + 1, &end, 10);
	if (errno || *end)
		return false;
	*ret = halo_kernel_param_has_key(tok, "amdgpu.gttsize") ? v * 256 : v;
	return true;
}
