/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * detect.h: which boot loader backend `loader = "auto"` means on this tree.
 *
 * Rules, first match wins (facts gathered from the files under the root):
 *  1. bls: /boot/loader/entries holds a *.conf entry, /etc/default/grub
 *     exists, and the distribution is Fedora-like (os-release ID or ID_LIKE
 *     has fedora, rhel or centos) or grubby is installed (/usr/sbin/grubby,
 *     /usr/bin/grubby or /sbin/grubby);
 *  2. grub-dropin: /etc/default/grub.d is a directory, or /etc/default/grub
 *     exists on a Debian-like system (ID or ID_LIKE has debian or ubuntu);
 *  3. kernel-cmdline: /etc/kernel/cmdline exists or /boot/loader/entries
 *     has an entry, and there is no /etc/default/grub (systemd-boot,
 *     kernel-install);
 *  4. grub: /etc/default/grub exists;
 *  5. nothing: no loader can be detected (a validation error).
 */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"
#include "halo.h"

struct halo_boot_facts {
	bool default_grub;     /* /etc/default/grub */
	bool grub_d;           /* /etc/default/grub.d directory */
	bool bls_entries;      /* /boot/loader/entries *.conf */
	bool kernel_cmdline;   /* /etc/kernel/cmdline */
	bool grubby;           /* grubby installed */
	bool fedora_like;      /* os-release */
	bool debian_like;      /* os-release */
};

/* HALO_LOADER_AUTO when nothing fits. */
enum halo_boot_loader halo_boot_detect(const struct halo_boot_facts *f);

/* Sets *fedora_like / *debian_like from an os-release TEXT (ID, ID_LIKE). */
void halo_os_release_family(const char *text, bool *ret_fedora_like,
			    bool *ret_debian_like);

/* halo_boot_detect on the facts under ctx->root, each looked at only when
 * it can change the answer. 0 or -errno (of reading os-release). */
int halo_boot_detect_root(struct halo_ctx *ctx, enum halo_boot_loader *ret);

