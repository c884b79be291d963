/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.h: syntax of single values the config names (check.c, paths.c).
 * Each returns NULL when S is fine, else the rest of a sentence saying why
 * not (static text): "KEY: \"S\" <why>".
 */
#pragma once

const char *halo_check_module_name(const char *s);
const char *halo_check_ifname(const char *s);
const char *halo_check_group_name(const char *s);
const char *halo_check_abs_path(const char *s); /* absolute and normalized */
const char *halo_check_mac(const char *s);   /* "aa:bb:cc:dd:ee:ff" any case */
const char *halo_check_pci(const char *s);   /* "dddd:bb:dd.f" any case */
const char *halo_check_word(const char *s);  /* non-empty, no space/quote/ctl */
/* paths.c: a file halo-provision writes (not under /proc, /sys, /dev, not
 * its own lock, flag or managed files); a mount point. */
const char *halo_check_output_path(const char *s);
const char *halo_check_mount_point(const char *s);
