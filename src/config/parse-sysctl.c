/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse-sysctl.c: sysctl = { multi_nic; settings; } (src/files/sysctl.c).
 * Keys and values are checked here (they end up in a sysctl.d line); a
 * key twice, or one the multi_nic rule sets on an interface entry, is an
 * error at its line. Whether a key exists under /proc/sys is the host's
 * business: checked when the run is planned.
 */
#include <string.h>

#include "config/parse-common.h"
#include "config/sections.h"
#include "files/sysctl-key.h"

static const char *const sysctl_keys[] = { "multi_nic", "settings", NULL };
static const char *const multi_nic_keywords[] = { "auto", "on", "off", NULL };

/* Keys repeated within settings. */
static void check_duplicates(struct halo_pctx *p, const struct halo_strlist *s)
{
	for (size_t i = 0; i < s->n; i++) {
		size_t ki = strcspn(s->v[i], "=");

		for (size_t j = 0; j < i; j++)
			if (strcspn(s->v[j], "=") == ki && strncmp(s->v[i], s->v[j], ki) == 0) {
				halo_perr(p, s->line[i], "sysctl.settings: %.*s is already set at "
					  "line %d", (int)ki, s->v[i], s->line[j]);
				break;
			}
	}
}

/* Settings the rule would write too, on the interface entries' names (the
 * live names are checked again when the run is planned). */
static void check_rule(struct halo_pctx *p, const struct halo_config *c)
{
	const struct halo_strlist *s = &c->sysctl.settings;

	if (!halo_sysctl_rule_applies(c))
		return;
	for (size_t i = 0; i < s->n; i++) {
		_cleanup_free_ char *key = NULL, *value = NULL;

		if (halo_sysctl_setting_split(s->v[i], &key, &value) < 0) {
			p->oom = true;
			return;
		}
		/* "all" is checked once, with the first entry's name. */
		for (size_t j = 0; j < c->n_interfaces || (j == 0 && c->n_interfaces == 0); j++) {
			_cleanup_free_ char *why = NULL;
			const char *name = j < c->n_interfaces ? c->interfaces[j].name : "";
			int r = halo_sysctl_rule_conflict(key, value, name ? name : "", &why);

			if (r < 0) {
				p->oom = true;
				return;
			}
			if (r > 0) {
				halo_perr(p, s->line[i], "sysctl.settings: %s", why);
				break;
			}
		}
	}
}

void halo_parse_sysctl(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_sysctl_config *s = &c->sysctl;
	const struct halo_cset *g, *m;
	int i;

	if (halo_pget_group(p, root, "", "sysctl", sysctl_keys, &g) <= 0)
		return;
	s->present = true;
	s->line = halo_cset_line(g);
	s->multi_nic = HALO_MULTI_NIC_AUTO;
	if (halo_pget_keyword(p, g, "sysctl", "multi_nic", multi_nic_keywords, &i) > 0) {
		s->multi_nic = (enum halo_multi_nic)i;
		m = halo_cset_member(g, "multi_nic");
		s->multi_nic_line = m ? halo_cset_line(m) : s->line;
	}
	/* The valid elements are kept: their own errors are reported too. */
	(void)halo_pget_strlist(p, g, "sysctl", "settings", halo_sysctl_check_setting,
				halo_sysctl_setting_normalize, &s->settings);
	check_duplicates(p, &s->settings);
	check_rule(p, c);
}
