/* SPDX-License-Identifier: GPL-2.0-or-later */
/* attrs.c: strict attribute walking (see attrs.h). */
#include "config.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <string.h>

#include "netlink/attrs.h"

int halo_attr_walk(const void *attrs, size_t len, halo_attr_fn fn,
		   void *userdata)
{
	size_t off = 0;

	while (len - off >= sizeof(struct nlattr)) {
		const struct nlattr *a = (const void *)((const char *)attrs + off);
		int err;

		if (a->nla_len < sizeof(*a) || a->nla_len > len - off)
			return -EBADMSG;
		err = fn(a, userdata);
		if (err < 0)
			return err;
		/* The last attribute's padding may be missing. */
		off += MNL_ALIGN((size_t)a->nla_len);
		if (off > len)
			off = len;
	}
	return off == len ? 0 : -EBADMSG;
}

int halo_attr_walk_nested(const struct nlattr *a, halo_attr_fn fn,
			  void *userdata)
{
	return halo_attr_walk(mnl_attr_get_payload(a),
			      mnl_attr_get_payload_len(a), fn, userdata);
}

int halo_attr_msg(const void *nlh, size_t len, size_t hdrlen,
		  const void **ret_attrs, size_t *ret_len)
{
	const struct nlmsghdr *h = nlh;
	size_t start = MNL_NLMSG_HDRLEN + MNL_ALIGN(hdrlen);

	if (!nlh || len < sizeof(*h) || h->nlmsg_len > len ||
	    h->nlmsg_len < start)
		return -EBADMSG;
	*ret_attrs = (const char *)nlh + start;
	*ret_len = h->nlmsg_len - start;
	return 0;
}

int halo_attr_u8(const struct nlattr *a, uint8_t *ret)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*ret))
		return -EBADMSG;
	*ret = *(const uint8_t *)mnl_attr_get_payload(a);
	return 0;
}

int halo_attr_u32(const struct nlattr *a, uint32_t *ret)
{
	if (mnl_attr_get_payload_len(a) != sizeof(*ret))
		return -EBADMSG;
	memcpy(ret, mnl_attr_get_payload(a), sizeof(*ret));
	return 0;
}

int halo_attr_flag(const struct nlattr *a)
{
	return mnl_attr_get_payload_len(a) == 0 ? 0 : -EBADMSG;
}

int halo_attr_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s = mnl_attr_get_payload(a);
	size_t len = mnl_attr_get_payload_len(a);
	const char *nul = memchr(s, '\0', len);

	if (!nul || (size_t)(nul - s) >= size)
		return -EBADMSG;
	memcpy(buf, s, (size_t)(nul - s) + 1);
	return 0;
}

int halo_attr_genl(const void *nlh, size_t len, uint8_t cmd, uint8_t alt,
		   halo_attr_fn fn, void *userdata)
{
	const struct genlmsghdr *g;
	const void *attrs;
	size_t alen;
	int err = halo_attr_msg(nlh, len, sizeof(*g), &attrs, &alen);

	if (err < 0)
		return err;
	g = mnl_nlmsg_get_payload(nlh);
	if (g->cmd != cmd && g->cmd != alt)
		return -EBADMSG;
	return halo_attr_walk(attrs, alen, fn, userdata);
}
