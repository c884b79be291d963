/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * attrs.h: strict reading of netlink replies, for every family.
 *
 * libmnl's attribute walk stops quietly at the first attribute that does
 * not fit, so a truncated reply would read as a shorter valid one. These
 * helpers fail with -EBADMSG instead: every attribute must fit whole and
 * nothing but padding may follow the last one.
 */
#pragma once

#include <linux/netlink.h>
#include <stddef.h>
#include <stdint.h>

/* Called for each attribute: 0 to go on, or -errno to stop with it. */
typedef int (*halo_attr_fn)(const struct nlattr *a, void *userdata);

/* Walks the LEN bytes of attributes at ATTRS. */
int halo_attr_walk(const void *attrs, size_t len, halo_attr_fn fn,
		   void *userdata);

/* Walks the attributes nested in A. */
int halo_attr_walk_nested(const struct nlattr *a, halo_attr_fn fn,
			  void *userdata);

/*
 * Checks that the message NLH (LEN bytes readable) is whole and has a
 * family header of HDRLEN bytes; returns where its attributes start and
 * how many bytes they take.
 */
int halo_attr_msg(const void *nlh, size_t len, size_t hdrlen,
		  const void **ret_attrs, size_t *ret_len);

/* A generic netlink reply (NLH, LEN bytes readable): whole, its command
 * CMD or ALT (the same twice when only one will do); FN gets each of its
 * top-level attributes. */
int halo_attr_genl(const void *nlh, size_t len, uint8_t cmd, uint8_t alt,
		   halo_attr_fn fn, void *userdata);

/* Typed reads: -EBADMSG unless the payload has exactly that size. A
 * string must be NUL-terminated and fit in SIZE bytes with its NUL. */
int halo_attr_u8(const struct nlattr *a, uint8_t *ret);
int halo_attr_u32(const struct nlattr *a, uint32_t *ret);
int halo_attr_flag(const struct nlattr *a);
int halo_attr_str(const struct nlattr *a, char *buf, size_t size);
