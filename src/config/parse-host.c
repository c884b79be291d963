/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse-host.c: the modules, firewall and access sections. */
#include <errno.h>
#include <string.h>

#include "config/check.h"
#include "config/parse-common.h"
#include "config/sections.h"
#include "util/strv.h"

static const char *const modules_keys[] = { "load", "options", "blacklist", "persist", NULL };
static const char *const firewall_keys[] = {
	"backend", "trusted_interfaces", "allow_udp", "allow_tcp", NULL,
};
static const char *const fw_backends[] = { "auto", "firewalld", "nftables", "none", NULL };
static const char *const access_keys[] = {
	"rdma_group", "gpu_group", "gpu_mode", "memlock", NULL,
};

/* An option string goes into a modprobe.d line: one line, something in it. */
static const char *check_module_options(const char *s)
{
	bool blank = true;

	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return "is not an option string (control character or newline)";
		blank &= *s == ' ';
	}
	return blank ? "is not an option string (empty)" : NULL;
}

static void option_clear(struct halo_module_option *o)
{
	free(o->module);
	free(o->text);
	halo_module_params_free(o->params, o->n_params);
	*o = (struct halo_module_option){ 0 };
}

static void parse_module_options(struct halo_pctx *p, const struct halo_cset *m,
				 struct halo_modules_config *mc)
{
	const struct halo_cset *g = halo_cset_member(m, "options");
	size_t n;
	char k[256], q[96];

	if (!g || !halo_pwant(p, g, "modules.options", HALO_CSET_GROUP))
		return;
	n = halo_cset_len(g);
	mc->options = calloc(n + 1, sizeof(*mc->options));
	if (!mc->options) {
		p->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct halo_cset *s = halo_cset_elem(g, i);
		const char *name = halo_cset_name(s), *why;
		struct halo_module_option *o;
		int line = halo_cset_line(s), r;
		bool dup = false;

		halo_pkey(k, sizeof(k), "modules.options", name, 0);
		why = halo_check_module_name(name);
		if (why) {
			halo_perr(p, line, "modules.options: %s %s", halo_pquote(name, q, sizeof(q)), why);
			continue;
		}
		if (!halo_pwant(p, s, k, HALO_CSET_STRING))
			continue;
		why = check_module_options(halo_cset_string(s));
		if (why) {
			halo_perr(p, line, "%s: %s %s", k,
				  halo_pquote(halo_cset_string(s), q, sizeof(q)), why);
			continue;
		}
		o = &mc->options[mc->n_options];
		o->line = line;
		if (!(o->module = strdup(name)) || !(o->text = strdup(halo_cset_string(s)))) {
			option_clear(o);
			p->oom = true;
			return;
		}
		halo_name_normalize(o->module);
		for (size_t j = 0; j < mc->n_options; j++)
			if (strcmp(mc->options[j].module, o->module) == 0) {
				halo_perr(p, line, "%s: module %s already has options at line %d",
					  k, o->module, mc->options[j].line);
				dup = true;
			}
		r = dup ? 0 : halo_module_params_parse(o->text, line, &o->params, &o->n_params);
		if (r == -EINVAL)
			halo_perr(p, line, "modules.options: %s: cannot parse \"%s\" (unbalanced "
				  "quote or empty name)", o->module, o->text);
		if (r == -ENOMEM)
			p->oom = true;
		if (dup || r < 0) {
			option_clear(o);
			continue;
		}
		mc->n_options++;
	}
}

void halo_parse_modules(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_modules_config *m = &c->modules;
	const struct halo_cset *g;

	if (halo_pget_group(p, root, "", "modules", modules_keys, &g) <= 0)
		return;
	m->present = true;
	m->line = halo_cset_line(g);
	halo_pget_strlist(p, g, "modules", "load", halo_check_module_name,
			  halo_name_normalize, &m->load);
	parse_module_options(p, g, m);
	halo_pget_strlist(p, g, "modules", "blacklist", halo_check_module_name,
			  halo_name_normalize, &m->blacklist);
	halo_pget_bool(p, g, "modules", "persist", &m->persist);
	for (size_t i = 0; i < m->blacklist.n; i++)
		for (size_t j = 0; j < m->load.n; j++)
			if (strcmp(m->blacklist.v[i], m->load.v[j]) == 0)
				halo_perr(p, m->blacklist.line[i], "modules.blacklist: \"%s\" "
					  "is also in modules.load (line %d)",
					  m->blacklist.v[i], m->load.line[j]);
}

static void get_ports(struct halo_pctx *p, const struct halo_cset *g, const char *key,
		      uint16_t **ret, size_t *ret_n)
{
	_cleanup_free_ int64_t *v = NULL;
	size_t n = 0;

	if (halo_pget_intlist(p, g, "firewall", key, 1, 65535, &v, &n, NULL) == 0)
		return;
	if (!v)
		return;
	*ret = calloc(n + 1, sizeof(**ret));
	if (!*ret) {
		p->oom = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		(*ret)[i] = (uint16_t)v[i];
	*ret_n = n;
}

void halo_parse_firewall(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_firewall_config *f = &c->firewall;
	const struct halo_cset *g;
	int i;

	if (halo_pget_group(p, root, "", "firewall", firewall_keys, &g) <= 0)
		return;
	f->present = true;
	f->line = halo_cset_line(g);
	if (halo_pget_keyword(p, g, "firewall", "backend", fw_backends, &i) > 0)
		f->backend = (enum halo_fw_backend)i;
	halo_pget_bool(p, g, "firewall", "trusted_interfaces", &f->trusted_interfaces);
	get_ports(p, g, "allow_udp", &f->allow_udp, &f->n_allow_udp);
	get_ports(p, g, "allow_tcp", &f->allow_tcp, &f->n_allow_tcp);
}

static void get_group_name(struct halo_pctx *p, const struct halo_cset *g, const char *key,
			   char **ret, int *ret_line)
{
	char q[96];
	int line;

	if (halo_pget_string(p, g, "access", key, ret, &line) > 0) {
		*ret_line = line;
		const char *why = halo_check_group_name(*ret);

		if (why) {
			halo_perr(p, line, "access.%s: %s %s", key, halo_pquote(*ret, q, sizeof(q)), why);
			free(*ret);
			*ret = NULL;
		}
	}
}

/* A device node mode as udev's MODE= takes it: "0660" or "660", octal.
 * The group must be able to read and write (it is what the group is for);
 * execute, setuid/setgid/sticky mean nothing on a device node and are
 * refused rather than written. Returns why not, or NULL. */
static const char *check_device_mode(const char *s, unsigned *ret)
{
	size_t n = strlen(s), start = n == 4 ? 1 : 0;
	unsigned m = 0;

	if ((n != 3 && n != 4) || (n == 4 && s[0] != '0'))
		return "is not a device mode (octal, like \"0660\")";
	for (size_t i = start; i < n; i++) {
		if (s[i] < '0' || s[i] > '7')
			return "is not a device mode (octal, like \"0660\")";
		m = m * 8 + (unsigned)(s[i] - '0');
	}
	if (m & 0111)
		return "has an execute bit (meaningless on a device node)";
	if ((m & 060) != 060)
		return "does not let the group read and write the device";
	*ret = m;
	return NULL;
}

static void get_gpu_mode(struct halo_pctx *p, const struct halo_cset *g,
			 struct halo_access_config *a)
{
	_cleanup_free_ char *s = NULL;
	const char *why;
	char q[96];
	int line;

	if (halo_pget_string(p, g, "access", "gpu_mode", &s, &line) <= 0)
		return;
	a->gpu_mode_line = line;
	why = check_device_mode(s, &a->gpu_mode);
	if (why)
		halo_perr(p, line, "access.gpu_mode: %s %s", halo_pquote(s, q, sizeof(q)), why);
	else if (!halo_cset_member(g, "gpu_group"))
		halo_perr(p, line, "access.gpu_mode: set without access.gpu_group "
			  "(the group the mode is for)");
}

void halo_parse_access(struct halo_pctx *p, const struct halo_cset *root, struct halo_config *c)
{
	struct halo_access_config *a = &c->access;
	const struct halo_cset *g, *m;
	int64_t v;
	char q[96];

	if (halo_pget_group(p, root, "", "access", access_keys, &g) <= 0)
		return;
	a->present = true;
	a->line = halo_cset_line(g);
	get_group_name(p, g, "rdma_group", &a->rdma_group, &a->rdma_group_line);
	get_group_name(p, g, "gpu_group", &a->gpu_group, &a->gpu_group_line);
	get_gpu_mode(p, g, a);
	m = halo_cset_member(g, "memlock");
	if (!m)
		return;
	a->memlock_line = halo_cset_line(m);
	if (halo_pkind(p, m) == HALO_CSET_STRING) {
		if (strcmp(halo_cset_string(m), "unlimited") == 0)
			a->memlock_set = a->memlock_unlimited = true;
		else
			halo_perr(p, halo_cset_line(m), "access.memlock: %s is neither \"unlimited\" "
				  "nor an integer (KiB)", halo_pquote(halo_cset_string(m), q, sizeof(q)));
	} else if (halo_pkind(p, m) != HALO_CSET_INT) {
		halo_perr(p, halo_cset_line(m), "access.memlock: expected \"unlimited\" or an "
			  "integer (KiB), got %s", halo_cset_kind_name(halo_cset_kind(m)));
	} else if (halo_pget_int(p, g, "access", "memlock", 64, INT64_C(1) << 40, &v, NULL) > 0) {
		/* Below the kernel's 64 KiB default would lower the limit. */
		a->memlock_set = true;
		a->memlock_kib = (uint64_t)v;
	}
}
