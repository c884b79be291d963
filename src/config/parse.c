/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.c: the top level of the schema walk, and the defaults. */
#include <string.h>

#include "config/parse-common.h"
#include "config/sections.h"

static const char *const root_keys[] = {
	"version", "boot", "modules", "interfaces", "firewall", "access", "storage",
	"state", "ready", "sysctl", NULL,
};

static void set_defaults(struct halo_pctx *p, struct halo_config *c)
{
	c->version = 1;
	c->boot.reserve_mib = 2048;
	c->boot.regenerate = true;
	c->boot.pci_realloc = HALO_UNSET;
	c->modules.persist = true;
	c->ready.kernel_min[0] = 6;
	c->ready.kernel_min[1] = 18;
	c->ready.kernel_min[2] = 4;
	c->ready.uma_max_mib = 512;
	c->firewall.trusted_interfaces = true;
	c->state.path = strdup("/var/lib/halo-provision/state.json");
	if (!c->state.path)
		p->oom = true;
}

void halo_parse_root(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	const struct halo_cset *s;
	int64_t v;

	set_defaults(p, c);
	halo_pcheck_keys(p, root, "", root_keys);
	s = halo_cset_member(root, "version");
	if (s && halo_pwant(p, s, "version", HALO_CSET_INT)) {
		v = halo_cset_int(s);
		if (v != 1)
			halo_perr(p, halo_cset_line(s), "version: %lld is not supported "
				  "(this halo-provision reads version 1)", (long long)v);
	}
	halo_parse_boot(p, root, c);
	halo_parse_modules(p, root, c);
	halo_parse_interfaces(p, root, c);
	halo_parse_firewall(p, root, c);
	halo_parse_access(p, root, c);
	halo_parse_sysctl(p, root, c);
	halo_parse_storage(p, root, c);
	halo_parse_state(p, root, c);
	halo_parse_ready(p, root, c);
	halo_config_validate(p, c);
}
