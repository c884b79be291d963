/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse-sysctl.c: sysctl = { multi_nic; settings; } (src/files/sysctl.c).
 * Each setting is split and checked here, once (it ends up in a sysctl.d
 * line); a key twice, or one the multi_nic rule sets on an interface
 * entry, is an error at its line. Whether a key exists under /proc/sys is
 * the host's business: checked when the run is planned.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "config/parse-common.h"
#include "config/sections.h"
#include "config/sysctl-rule.h"
#include "config/sysctl-setting.h"

static const char *const sysctl_keys[] = { "multi_nic", "settings", NULL };
static const char *const multi_nic_keywords[] = { "auto", "on", "off", NULL };

static const char *parse_setting(const char *text, int line, void *elem)
{
	const char *why = NULL;
	int r = halo_sysctl_setting_parse(text, line, elem, &why);

	return r == -ENOMEM ? HALO_PARSE_OOM : why;
}

/* "a.b = 1" is "a.b=1" listed twice. */
static bool same_setting(const void *a, const void *b)
{
	const struct halo_sysctl_setting *x = a, *y = b;

	return strcmp(x->key, y->key) == 0 && strcmp(x->value, y->value) == 0;
}

static void clear_setting(void *elem) { halo_sysctl_setting_clear(elem); }

static const struct halo_elem_parser setting_parser = {
	.elem_size = sizeof(struct halo_sysctl_setting),
	.text_offset = offsetof(struct halo_sysctl_setting, text),
	.parse = parse_setting,
	.same = same_setting,
	.clear = clear_setting,
};

/* A key set twice, to different values. */
static void check_duplicates(struct halo_pctx *p, const struct halo_sysctl_config *s)
{
	for (size_t i = 0; i < s->n_settings; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(s->settings[i].key, s->settings[j].key) == 0) {
				halo_perr(p, s->settings[i].line, "sysctl.settings: %s is already set "
					  "at line %d", s->settings[i].key, s->settings[j].line);
				break;
			}
}

/* Settings the rule would write too, on the interface entries' names (the
 * live names are checked again when the run is planned). */
static void check_rule(struct halo_pctx *p, const struct halo_config *c)
{
	const struct halo_sysctl_config *s = &c->sysctl;

	if (!halo_sysctl_rule_applies(c))
		return;
	for (size_t i = 0; i < s->n_settings; i++) {
		const struct halo_sysctl_setting *set = &s->settings[i];

		/* "all" is checked once, with the first entry's name. */
		for (size_t j = 0; j < c->n_interfaces || (j == 0 && c->n_interfaces == 0); j++) {
			_cleanup_free_ char *why = NULL;
			const char *name = j < c->n_interfaces ? c->interfaces[j].name : "";
			int r = halo_sysctl_rule_conflict(set->key, set->value, name ? name : "", &why);

			if (r < 0) {
				p->oom = true;
				return;
			}
			if (r > 0) {
				halo_perr(p, set->line, "sysctl.settings: %s", why);
				break;
			}
		}
	}
}

void halo_parse_sysctl(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_sysctl_config *s = &c->sysctl;
	const struct halo_cset *g, *m;
	void *settings = NULL;
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
	(void)halo_pget_parsed(p, g, "sysctl", "settings", &setting_parser, &settings,
			       &s->n_settings);
	s->settings = settings;
	check_duplicates(p, s);
	check_rule(p, c);
}
