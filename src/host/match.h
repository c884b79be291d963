/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * match.h: which live link each `interfaces` entry means. Pure: the links
 * come from the netlink snapshot, driver and PCI address from a callback
 * (sysfs under --root in production, a table in tests).
 *
 * An entry without `match` keys is matched by name. With keys, every given
 * key must hold (mac against the current or permanent address, driver and
 * pci exactly) and `name` is only the entry's label: a link of another
 * name is reported, never renamed.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "config/halo-config.h"
#include "host/sysfs.h"
#include "netlink/rtnl.h"
#include "util/errors.h"

/* The facts of LINK (driver and PCI function) in *RET, owned by the
 * callee. 0 or -errno. */
typedef int (*halo_link_facts_fn)(void *userdata, const struct halo_rtnl_link *link,
				  const struct halo_link_facts **ret);

/*
 * RET_IDX[i] becomes the index in LINKS of the link entry i matches, or -1.
 * Every problem is added to ERRS as "CFG_PATH:LINE: ..." naming the
 * entries and links: no match (only with REPORT_MISSING: else the entry
 * just stays -1), one entry matching several links, several entries
 * matching one link. Returns 0, -EINVAL when errors were added, or
 * another -errno from the facts callback.
 */
int halo_links_match(const struct halo_interface *ifs, size_t n_ifs,
		     const struct halo_rtnl_link *links, size_t n_links,
		     halo_link_facts_fn facts, void *userdata,
		     const char *cfg_path, bool report_missing,
		     ssize_t *ret_idx, struct halo_errors *errs);

/* 1 when LINK satisfies every match key of F (its name, without keys),
 * 0 when not, -errno from the facts callback. */
int halo_link_matches(const struct halo_interface *f,
		      const struct halo_rtnl_link *link,
		      halo_link_facts_fn facts, void *userdata);

/*
 * --interface NAME: marks in RET_SEL (N_IFS of them) the entries that
 * manage NAME, which is either an entry's own `name` (what a person types)
 * or the kernel's name of a live link (what udev passes after a rename):
 * the entry of that name, and every entry whose match keys hold for the
 * link of that name. Returns how many were marked (0: NAME is not
 * managed) or -errno from the facts callback.
 */
int halo_links_select(const struct halo_interface *ifs, size_t n_ifs,
		      const struct halo_rtnl_link *links, size_t n_links,
		      halo_link_facts_fn facts, void *userdata,
		      const char *name, bool *ret_sel);

/* "name rdma0" or "mac b4:96:91:aa:bb:01, driver ice, pci 0000:c2:00.0". */
void halo_link_match_describe(const struct halo_interface *iface, char *buf,
			      size_t len);

/* "aa:bb:cc:dd:ee:ff" (lower case); "" for an empty address. */
void halo_hwaddr_format(const uint8_t *addr, size_t n, char *buf, size_t len);
