/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * envfile.c: state.env_file, the environment of RCCL/NCCL, Gloo and
 * containers, rendered from templates/rccl.env on what this node's sysfs
 * says: NCCL_IB_HCA (exact "=" names, so NCCL does not prefix-match
 * "rocep194s0f0" against "rocep194s0f01"), the computed GID index, the
 * ToS, the socket interfaces.
 *
 * An owned file, but its content is only known after the links phase
 * added the address the GID index is made of: the item computes it at
 * every observation (and again at apply) and hands it to an owned-file
 * item of its own, so writing, modes, symlink refusal and diffs follow
 * the owned-file rules exactly.
 *
 * The grammar is the intersection of systemd's EnvironmentFile= (quotes
 * and backslashes processed, "#" and ";" comments) and podman's
 * --env-file (everything after the first "=" taken verbatim, "#"
 * comments): KEY=VALUE lines whose values need no quoting in either. A
 * value outside that set is refused, never quoted.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rdma/rdma.h"
#include "util/strv.h"
#include "util/template.h"

/* Characters both parsers read verbatim in an unquoted value. */
static bool plain_value(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._-:,=+@", *s)))
			return false;
	return true;
}

int halo_rdma_env_render(const struct halo_rdma_env_entry *e, size_t n, int tos,
			 char **ret, char **ret_why)
{
	struct halo_buf hca = { 0 }, ifs = { 0 }, diff = { 0 };
	_cleanup_free_ char *hca_s = NULL, *ifs_s = NULL, *diff_s = NULL;
	_cleanup_free_ char *gid = NULL, *tc = NULL;
	char timeout[16], retry[16];
	bool same = true;
	int err;

	*ret_why = NULL;
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		char port[16], index[16];

		if (!plain_value(e[i].ifname) || !plain_value(e[i].ibdev)) {
			*ret_why = halo_strdup_printf("interface %s or RDMA device %s has a character "
						      "an env file would need to quote",
						      e[i].ifname, e[i].ibdev);
			return -EINVAL;
		}
		/* Appended: a format parsed for each part costs more than the parts. */
		snprintf(port, sizeof(port), ":%u", e[i].port);
		snprintf(index, sizeof(index), " %d", e[i].gid_index);
		halo_buf_puts(&hca, i ? "," : "");
		halo_buf_puts(&hca, e[i].ibdev);
		halo_buf_puts(&hca, port);
		halo_buf_puts(&ifs, i ? "," : "");
		halo_buf_puts(&ifs, e[i].ifname);
		halo_buf_puts(&diff, i ? ", " : "");
		halo_buf_puts(&diff, e[i].ifname);
		halo_buf_puts(&diff, index);
		if (e[i].gid_index != e[0].gid_index)
			same = false;
	}
	hca_s = halo_buf_steal(&hca);
	ifs_s = halo_buf_steal(&ifs);
	diff_s = halo_buf_steal(&diff);
	if (!hca_s || !ifs_s || !diff_s)
		return -ENOMEM;
	/* NCCL takes one GID index for every device: when they differ, NCCL
	 * >= 2.21 choosing the RoCE v2 IPv4 GID itself is right, a single
	 * number would be wrong on some device. */
	if (same)
		gid = halo_strdup_printf("NCCL_IB_GID_INDEX=%d", e[0].gid_index);
	else
		gid = halo_strdup_printf("# NCCL_IB_GID_INDEX is not set: the GID indexes differ "
					 "(%s); NCCL >= 2.21 picks each RoCE v2 IPv4 GID", diff_s);
	if (tos >= 0)
		tc = halo_strdup_printf("NCCL_IB_TC=%d", tos);
	else
		tc = strdup("# NCCL_IB_TC is not set: no roce.tos in the config");
	if (!gid || !tc)
		return -ENOMEM;
	snprintf(timeout, sizeof(timeout), "%d", HALO_RDMA_NCCL_IB_TIMEOUT);
	snprintf(retry, sizeof(retry), "%d", HALO_RDMA_NCCL_IB_RETRY_CNT);
	{
		const char *const vars[] = {
			"HCA", hca_s, "GID_INDEX", gid, "TC", tc, "IFNAMES", ifs_s,
			"TIMEOUT", timeout, "RETRY_CNT", retry, NULL,
		};

		err = halo_template_render("rccl.env", vars, ret);
	}
	return err;
}

struct env_data {
	char *path;
	struct halo_rdma_link *links;
	size_t n;
	struct halo_plan inner; /* the owned-file item of the last content */
};

static void env_data_free(void *p)
{
	struct env_data *d = p;

	for (size_t i = 0; i < d->n; i++)
		halo_rdma_seen_unref(d->links[i].seen);
	free(d->path);
	free(d->links);
	halo_plan_free(&d->inner);
	free(d);
}

/* The content from sysfs now (OBSERVING: halo_rdma_link_dev): 0, or
 * -errno with *RET_WHY. */
static int compute(struct halo_ctx *ctx, const struct env_data *d, bool observing, char **ret,
		   char **ret_why)
{
	struct halo_rdma_env_entry e[16];
	struct halo_rdma_dev dev[16];
	int tos = -1;

	*ret_why = NULL;
	if (d->n > ARRAY_SIZE(e)) {
		*ret_why = halo_strdup_printf("more than %zu RDMA interfaces", ARRAY_SIZE(e));
		return -E2BIG;
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct halo_rdma_link *l = &d->links[i];
		struct halo_rdma_gid g;
		char *why = NULL;
		int err = halo_rdma_link_dev(ctx, l, observing, &dev[i], &why);

		if (err == -ENODEV && !why)
			why = halo_rdma_why_no_dev(ctx, l->ifname, l->driver);
		if (err == 0 && dev[i].iwarp) {
			err = -EPROTONOSUPPORT;
			why = halo_strdup_printf("%s on %s is an iWARP device", dev[i].ibdev,
						 l->ifname);
		}
		if (err < 0 && err != -ENODEV && err != -ENOTUNIQ && why) {
			/* why names the sysfs file that could not be read */
			*ret_why = halo_strdup_printf("looking up the RDMA device of %s: %s",
						      l->ifname, why);
			free(why);
			return err;
		}
		if (err < 0) {
			*ret_why = why ? why : halo_strdup_printf("%s: %s", l->ifname, strerror(-err));
			return err;
		}
		err = halo_rdma_link_gid(ctx, l, &dev[i], observing, &g, &why);
		if (err < 0) {
			*ret_why = halo_strdup_printf("reading the GID table of %s: %s", dev[i].ibdev,
						      why ? why : strerror(-err));
			free(why);
			return err;
		}
		if (!l->has_addr && g.n_v4 == 1)
			g.index = g.first_v4;
		if (!l->has_addr && g.n_v4 > 1) {
			*ret_why = halo_strdup_printf("%s has %u RoCE v2 IPv4 GIDs: list the address "
						      "NCCL should use in the entry's addresses "
						      "(rdma/%s/gid-index)", l->ifname, g.n_v4,
						      l->entry);
			return -ENOTUNIQ;
		}
		if (g.index < 0) {
			*ret_why = halo_strdup_printf("no RoCE v2 GID of %s on %s yet (rdma/%s/gid-index)",
						      l->has_addr ? l->addr_text : "an IPv4 address",
						      l->ifname, l->entry);
			return -ENOENT;
		}
		e[i] = (struct halo_rdma_env_entry){
			.ifname = l->ifname, .ibdev = dev[i].ibdev, .port = dev[i].port,
			.gid_index = g.index,
		};
		if (l->tos >= 0)
			tos = l->tos;
	}
	return halo_rdma_env_render(e, d->n, tos, ret, ret_why);
}

/* A fresh owned-file item for CONTENT in d->inner. */
static int inner_item(struct env_data *d, const char *content, struct halo_item **ret)
{
	halo_plan_free(&d->inner);
	halo_plan_init(&d->inner);
	return halo_plan_add_file(&d->inner, HALO_SUB_RDMA, HALO_PHASE_FILES, d->path, content,
				  0644, ret);
}

/* Copies what the file item found into ITEM. */
static int copy_view(struct halo_item *item, const struct halo_item *f)
{
	free(item->diff);
	item->diff = f->diff ? strdup(f->diff) : NULL;
	if ((f->diff && !item->diff) || halo_item_set_wanted(item, "%s", f->wanted) < 0)
		return -ENOMEM;
	if (f->message && halo_item_set_message(item, "%s", f->message) < 0)
		return -ENOMEM;
	if (f->observed)
		return halo_item_set_observed(item, "%s", f->observed);
	return halo_item_set_observed(item, NULL);
}

static int env_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct env_data *d = item->data;
	_cleanup_free_ char *content = NULL, *why = NULL;
	struct halo_item *f;
	int r = compute(ctx, d, true, &content, &why);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		/* Not known yet (an apply computes it after the rdma phase),
		 * or not now: the file cannot be checked. */
		(void)halo_item_set_observed(item, NULL);
		(void)halo_item_set_message(item, "cannot compute the content: %s",
					    why ? why : strerror(-r));
		return HALO_SYNC_DIFFERS;
	}
	r = inner_item(d, content, &f);
	if (r < 0)
		return r;
	r = f->ops->observe(ctx, f);
	if (r < 0 || r == HALO_SYNC_INVALID) {
		(void)halo_item_set_message(item, "%s", f->message ? f->message : strerror(-r));
		return r;
	}
	return copy_view(item, f) < 0 ? -ENOMEM : r;
}

static int env_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct env_data *d = item->data;
	_cleanup_free_ char *content = NULL, *why = NULL;
	struct halo_item *f;
	int r = compute(ctx, d, false, &content, &why);

	if (r < 0) {
		if (r != -ENOMEM)
			(void)halo_item_set_message(item, "not written: %s", why ? why : strerror(-r));
		return r;
	}
	r = inner_item(d, content, &f);
	if (r < 0)
		return r;
	r = f->ops->observe(ctx, f);
	if (r == HALO_SYNC_DIFFERS)
		r = f->ops->apply(ctx, f);
	if (r < 0 || r == HALO_SYNC_INVALID) {
		(void)halo_item_set_message(item, "%s", f->message ? f->message : strerror(-r));
		return r < 0 ? r : -ELOOP;
	}
	return 0;
}

static const struct halo_item_ops env_ops = {
	.observe = env_observe,
	.apply = env_apply,
	.free_data = env_data_free,
};

int halo_rdma_env_add(struct halo_plan *plan, const char *path,
		      const struct halo_rdma_link *links, size_t n)
{
	struct halo_item *item;
	struct env_data *d;
	int err = halo_plan_add_for_file(plan, path, HALO_SUB_RDMA, HALO_PHASE_FILES, &env_ops,
					 sizeof(*d), &item);

	if (err < 0)
		return err;
	d = item->data;
	halo_plan_init(&d->inner);
	d->path = strdup(path);
	d->links = calloc(n, sizeof(*links));
	if (!d->path || !d->links)
		return -ENOMEM;
	memcpy(d->links, links, n * sizeof(*links));
	d->n = n;
	for (size_t i = 0; i < n; i++)
		halo_rdma_seen_ref(d->links[i].seen);
	return halo_item_set_wanted(item, "computed from the GID tables of %zu interface%s", n,
				    n == 1 ? "" : "s");
}
