/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sysctl-setting.h: one element of sysctl.settings, "key=value" with
 * blanks allowed around the "=" (sysctl-setting.c). It ends up as a line
 * of a sysctl.d(5) drop-in and a write under /proc/sys, so both halves
 * are held to what those read unambiguously.
 */
#pragma once

struct halo_sysctl_setting {
	char *key;   /* sysctl(8) name, dots: "net.ipv4.tcp_rmem" */
	char *value; /* "4096 87380 6291456" */
	char *text;  /* as written ("net.ipv4.tcp_rmem = 4096 87380 6291456") */
	int line;
};

/* Syntax checks: NULL when fine, else why not (static text). A key is
 * dot-separated names of [a-z0-9_-] (no "/", no empty name, not starting
 * with "-", which sysctl.d reads as "ignore errors"); a value is tokens of
 * [A-Za-z0-9._:,/+@%-] separated by single spaces. */
const char *halo_sysctl_check_key(const char *key);
const char *halo_sysctl_check_value(const char *value);

/* TEXT → *RET (key, value and TEXT copied; LINE). 0; -EINVAL with the
 * reason in *RET_WHY (static text); -ENOMEM. *RET is untouched on failure. */
int halo_sysctl_setting_parse(const char *text, int line, struct halo_sysctl_setting *ret,
			      const char **ret_why);
void halo_sysctl_setting_clear(struct halo_sysctl_setting *s);
