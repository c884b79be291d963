/* SPDX-License-Identifier: GPL-2.0-or-later */
/* match.c: config entries to live links; every given key must hold. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "host/match.h"
#include "util/strv.h"

void halo_hwaddr_format(const uint8_t *addr, size_t n, char *buf, size_t len)
{
	size_t off = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < n && off + 4 <= len; i++)
		off += (size_t)snprintf(buf + off, len - off, i ? ":%02x" : "%02x",
					addr[i]);
}

static bool has_keys(const struct halo_interface *f)
{
	return f->match.has_mac || f->match_driver || f->match.has_pci;
}

void halo_link_match_describe(const struct halo_interface *f, char *buf,
			      size_t len)
{
	struct halo_buf b = { 0 };
	_cleanup_free_ char *s = NULL;

	if (!has_keys(f)) {
		snprintf(buf, len, "name %s", f->name);
		return;
	}
	if (f->match.has_mac) {
		char mac[HALO_MAC_STRLEN];

		halo_mac_format(&f->match.mac, mac, sizeof(mac));
		halo_buf_printf(&b, "mac %s", mac);
	}
	if (f->match_driver)
		halo_buf_printf(&b, "%sdriver %s", b.len ? ", " : "", f->match_driver);
	if (f->match.has_pci) {
		char pci[HALO_PCI_STRLEN];

		halo_pci_format(&f->match.pci, pci, sizeof(pci));
		halo_buf_printf(&b, "%spci %s", b.len ? ", " : "", pci);
	}
	s = halo_buf_steal(&b);
	snprintf(buf, len, "%s", s ? s : "match keys");
}

int halo_link_matches(const struct halo_interface *f,
		      const struct halo_rtnl_link *link,
		      halo_link_facts_fn facts, void *userdata)
{
	const struct halo_link_facts *have;
	int err;

	if (!has_keys(f))
		return strcmp(f->name, link->name) == 0;
	if (f->match.has_mac &&
	    !halo_mac_equal_bytes(&f->match.mac, link->mac, link->mac_len) &&
	    !halo_mac_equal_bytes(&f->match.mac, link->perm_mac, link->perm_mac_len))
		return 0;
	if (!f->match_driver && !f->match.has_pci)
		return 1;
	err = facts(userdata, link, &have);
	if (err < 0)
		return err;
	if (f->match_driver &&
	    (!have->driver || strcmp(have->driver, f->match_driver) != 0))
		return 0;
	if (f->match.has_pci &&
	    (!have->has_pci || !halo_pci_equal(&have->pci, &f->match.pci)))
		return 0;
	return 1;
}

int halo_links_match(const struct halo_interface *ifs, size_t n_ifs,
		     const struct halo_rtnl_link *links, size_t n_links,
		     halo_link_facts_fn facts, void *userdata,
		     const char *cfg_path, bool report_missing,
		     ssize_t *ret_idx, struct halo_errors *errs)
{
	const char *cfg = cfg_path ? cfg_path : "config";
	bool bad = false;

	for (size_t i = 0; i < n_ifs; i++) {
		const struct halo_interface *f = &ifs[i];
		struct halo_buf names = { 0 };
		_cleanup_free_ char *list = NULL;
		char what[256];
		size_t hits = 0;
		ssize_t found = -1;

		for (size_t j = 0; j < n_links; j++) {
			int r = halo_link_matches(f, &links[j], facts, userdata);

			if (r < 0) {
				halo_buf_free(&names);
				return r;
			}
			if (r == 0)
				continue;
			if (hits++ == 0)
				found = (ssize_t)j;
			if (hits <= 4)
				halo_buf_printf(&names, "%s%s", hits > 1 ? ", " : "",
						links[j].name);
		}
		list = halo_buf_steal(&names);
		halo_link_match_describe(f, what, sizeof(what));
		ret_idx[i] = -1;
		if (hits == 0 && !report_missing) {
			continue;
		} else if (hits == 0) {
			halo_errors_add(errs, "%s:%d: interface \"%s\": no link matches %s",
					cfg, f->line, f->name, what);
			bad = true;
		} else if (hits > 1) {
			halo_errors_add(errs,
					"%s:%d: interface \"%s\": %s matches %zu links (%s%s); add match keys to single one out",
					cfg, f->line, f->name, what, hits,
					list ? list : "", hits > 4 ? ", ..." : "");
			bad = true;
		} else {
			ret_idx[i] = found;
		}
	}
	for (size_t i = 0; i < n_ifs; i++) {
		for (size_t k = i + 1; k < n_ifs; k++) {
			if (ret_idx[i] < 0 || ret_idx[k] != ret_idx[i])
				continue;
			halo_errors_add(errs,
					"%s:%d: interfaces \"%s\" (line %d) and \"%s\" both match link %s",
					cfg, ifs[k].line, ifs[i].name, ifs[i].line,
					ifs[k].name, links[ret_idx[i]].name);
			bad = true;
		}
	}
	return bad ? -EINVAL : 0;
}

int halo_links_select(const struct halo_interface *ifs, size_t n_ifs,
		      const struct halo_rtnl_link *links, size_t n_links,
		      halo_link_facts_fn facts, void *userdata,
		      const char *name, bool *ret_sel)
{
	const struct halo_rtnl_link *link = NULL;
	int n = 0;

	for (size_t j = 0; j < n_links && !link; j++)
		if (strcmp(links[j].name, name) == 0)
			link = &links[j];
	for (size_t i = 0; i < n_ifs; i++) {
		int r = 0;

		if (link) {
			r = halo_link_matches(&ifs[i], link, facts, userdata);
			if (r < 0)
				return r;
		}
		ret_sel[i] = r > 0 || strcmp(ifs[i].name, name) == 0;
		n += ret_sel[i];
	}
	return n;
}
