/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of what an observation pass keeps of a link's RDMA device and
 * GID table (src/rdma/seen.c), over a scratch --root laid out like the
 * kernel's sysfs: kept within a pass, read anew by an apply and in the
 * next generation, so an apply that makes ice replace its iWARP device by
 * a RoCE one (enable_roce) finds and verifies the new device. And the
 * path builder the lookups use instead of snprintf (src/rdma/rdma.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine-test.h"
#include "engine/plan.h"
#include "rdma/rdma.h"
#include "root-test.h"

#define PCI "sys/devices/pci0000:00/0000:41:00.0"

/* eth0 on the PCI function, no RDMA device yet. */
static const char *const NIC_SH =
	"mkdir -p " PCI "/net/eth0 sys/class/net sys/class/infiniband && "
	"ln -s ../../devices/pci0000:00/0000:41:00.0/net/eth0 sys/class/net/eth0 && "
	"ln -s ../.. " PCI "/net/eth0/device";

/* The RDMA device NAME of node type TYPE on eth0, port 1, a GID table of
 * four entries: the IPv4 GID of 192.168.1.1 at INDEX, the others zero. */
static void ibdev(const char *root, const char *name, const char *type, int index)
{
	char script[1536];

	snprintf(script, sizeof(script),
		 "d=" PCI "/infiniband/%s/ports/1 && "
		 "mkdir -p $d/gids $d/gid_attrs/types $d/gid_attrs/ndevs && "
		 "echo '%s' >" PCI "/infiniband/%s/node_type && "
		 "echo '4: ACTIVE' >$d/state && echo '5: LinkUp' >$d/phys_state && "
		 "for i in 0 1 2 3; do "
		 "echo 0000:0000:0000:0000:0000:0000:0000:0000 >$d/gids/$i; "
		 ": >$d/gid_attrs/types/$i; : >$d/gid_attrs/ndevs/$i; done && "
		 "echo 0000:0000:0000:0000:0000:ffff:c0a8:0101 >$d/gids/%d && "
		 "echo 'RoCE v2' >$d/gid_attrs/types/%d && echo eth0 >$d/gid_attrs/ndevs/%d && "
		 "ln -sfn ../../devices/pci0000:00/0000:41:00.0/infiniband/%s sys/class/infiniband/%s",
		 name, type, name, index, index, index, name, name);
	sh(root, script);
}

/* What ice does when enable_roce is set: its iWARP device goes, a RoCE
 * device comes (docs/hardware.md). */
static const char *const FLIP_SH =
	"rm -rf " PCI "/infiniband/iwp65s0f0 sys/class/infiniband/iwp65s0f0 && "
	"echo 1 >enable_roce";

static void link_init(struct halo_rdma_link *l)
{
	memset(l, 0, sizeof(*l));
	strcpy(l->entry, "rdma");
	strcpy(l->ifname, "eth0");
	strcpy(l->driver, "ice");
	l->has_addr = true;
	memcpy(l->addr, (const uint8_t[4]){ 192, 168, 1, 1 }, 4);
	strcpy(l->addr_text, "192.168.1.1");
	l->tos = -1;
	l->seen = halo_rdma_seen_new();
	assert_non_null(l->seen);
}

static int setup(void **state)
{
	int r = root_fixture_setup(state, "rdma-seen", NIC_SH);
	struct root_fixture *fx = *state;

	if (r == 0)
		fx->ctx.mode = HALO_MODE_APPLY;
	return r;
}

static int teardown(void **state)
{
	return root_fixture_teardown(state);
}

/* Appending gives what snprintf gives, cut off where it cuts. */
static void test_path(void **state)
{
	static const unsigned nums[] = { 0, 7, 10, 255, 65535, UINT_MAX };
	struct halo_rdma_path p;
	char want[sizeof(p.s)], part[700];
	size_t base;

	(void)state;
	halo_rdma_path_set(&p, "/sys/class/infiniband/");
	halo_rdma_path_add(&p, "mlx5_0");
	halo_rdma_path_add(&p, "/ports/");
	base = p.len;
	for (size_t i = 0; i < ARRAY_SIZE(nums); i++) {
		halo_rdma_path_cut(&p, base);
		halo_rdma_path_uint(&p, nums[i]);
		halo_rdma_path_add(&p, "/state");
		snprintf(want, sizeof(want), "/sys/class/infiniband/mlx5_0/ports/%u/state", nums[i]);
		assert_string_equal(p.s, want);
		assert_int_equal(p.len, strlen(want));
	}
	/* A part longer than the room left: cut, and later parts too. */
	memset(part, 'x', sizeof(part) - 1);
	part[sizeof(part) - 1] = '\0';
	halo_rdma_path_set(&p, "/dir/");
	halo_rdma_path_add(&p, part);
	halo_rdma_path_add(&p, "/gids/");
	halo_rdma_path_uint(&p, 3);
	/* (The length it wanted, to show it was cut.) */
	assert_true(snprintf(want, sizeof(want), "/dir/%s/gids/%u", part, 3u) >= (int)sizeof(want));
	assert_string_equal(p.s, want);
	assert_int_equal(p.len, sizeof(p.s) - 1);
}

/* Kept within a pass; an apply reads anew and drops it; the next
 * generation reads anew. */
static void test_kept_and_dropped(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_ctx *ctx = &fx->ctx;
	struct halo_rdma_link l;
	struct halo_rdma_dev dev, old;
	struct halo_rdma_gid g;
	char *why = NULL;

	link_init(&l);
	ibdev(fx->root, "iwp65s0f0", "4: RNIC", 1);
	assert_int_equal(halo_rdma_link_dev(ctx, &l, true, &dev, &why), 0);
	assert_string_equal(dev.ibdev, "iwp65s0f0");
	assert_true(dev.iwarp);
	old = dev;

	sh(fx->root, FLIP_SH);
	ibdev(fx->root, "rocep65s0f0", "1: CA", 2);
	/* The same pass: what it found. */
	assert_int_equal(halo_rdma_link_dev(ctx, &l, true, &dev, &why), 0);
	assert_string_equal(dev.ibdev, "iwp65s0f0");
	/* An apply: the host now. */
	assert_int_equal(halo_rdma_link_dev(ctx, &l, false, &dev, &why), 0);
	assert_string_equal(dev.ibdev, "rocep65s0f0");
	assert_false(dev.iwarp);
	assert_int_equal(dev.port, 1);
	/* ... and what was kept is gone. */
	assert_int_equal(halo_rdma_link_dev(ctx, &l, true, &dev, &why), 0);
	assert_string_equal(dev.ibdev, "rocep65s0f0");

	assert_int_equal(halo_rdma_link_gid(ctx, &l, &dev, true, &g, &why), 0);
	assert_int_equal(g.index, 2);
	sh(fx->root, "d=" PCI "/infiniband/rocep65s0f0/ports/1 && "
		     "mv $d/gids/2 $d/gids/3 && mv $d/gid_attrs/types/2 $d/gid_attrs/types/3 && "
		     "mv $d/gid_attrs/ndevs/2 $d/gid_attrs/ndevs/3 && "
		     "echo 0000:0000:0000:0000:0000:0000:0000:0000 >$d/gids/2");
	assert_int_equal(halo_rdma_link_gid(ctx, &l, &dev, true, &g, &why), 0);
	assert_int_equal(g.index, 2);
	/* A scan of another device is never answered from the kept one. */
	assert_int_equal(halo_rdma_link_gid(ctx, &l, &old, true, &g, &why), -ENOENT);
	free(why);
	why = NULL;
	/* The engine observes again after the phases applied. */
	ctx->generation++;
	assert_int_equal(halo_rdma_link_gid(ctx, &l, &dev, true, &g, &why), 0);
	assert_int_equal(g.index, 3);
	assert_null(why);
	halo_rdma_seen_unref(l.seen);
}

/* The roce phase's item in miniature: enable_roce set by its apply. */
static int roce_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	bool on = halo_read_file(ctx, "/enable_roce", &text, &len) == 0 && text[0] == '1';

	(void)halo_item_set_observed(item, "%s", on ? "true" : "false");
	return on ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int roce_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	(void)item;
	sh(ctx->root, FLIP_SH);
	ibdev(ctx->root, "rocep65s0f0", "1: CA", 1);
	return 0;
}

static const struct halo_item_ops roce_ops = { .observe = roce_observe, .apply = roce_apply };

/* A link whose address moves to GID entry 2 when applied (an address
 * added before it takes entry 1). */
static int addr_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	bool moved = halo_root_exists(ctx, "/moved") > 0;

	(void)halo_item_set_observed(item, "%s", moved ? "moved" : "not moved");
	return moved ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static int addr_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	(void)item;
	sh(ctx->root, "d=" PCI "/infiniband/rocep65s0f0/ports/1 && "
		      "mv $d/gids/1 $d/gids/2 && mv $d/gid_attrs/types/1 $d/gid_attrs/types/2 && "
		      "mv $d/gid_attrs/ndevs/1 $d/gid_attrs/ndevs/2 && "
		      "echo 0000:0000:0000:0000:0000:0000:0000:0000 >$d/gids/1 && : >moved");
	return 0;
}

static const struct halo_item_ops addr_ops = { .observe = addr_observe, .apply = addr_apply };

/* The rdma items of L in PLAN: device and gid-index. */
static void add_rdma(struct halo_plan *plan, const struct halo_rdma_link *l,
		     struct halo_item **ret_dev, struct halo_item **ret_gid)
{
	struct halo_rdma_want w = { .kind = HALO_RDMA_DEVICE, .link = *l };

	assert_int_equal(halo_rdma_item_add(plan, "rdma/rdma/device", &w, ret_dev), 0);
	w.kind = HALO_RDMA_GID_INDEX;
	assert_int_equal(halo_rdma_item_add(plan, "rdma/rdma/gid-index", &w, ret_gid), 0);
}

/* An apply whose roce phase makes ice replace its iWARP device: the
 * rdma phase finds the RoCE device, the verification sees it. */
static void test_apply_enable_roce(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_plan plan;
	struct halo_errors errs = { 0 };
	struct halo_item *roce, *dev, *gid;
	struct halo_rdma_link l;

	ibdev(fx->root, "iwp65s0f0", "4: RNIC", 1);
	link_init(&l);
	halo_plan_init(&plan);
	assert_int_equal(halo_plan_add_new(&plan, "roce/rdma/enable", HALO_SUB_ROCE,
					   HALO_PHASE_ROCE, &roce_ops, 1, &roce), 0);
	add_rdma(&plan, &l, &dev, &gid);
	halo_rdma_seen_unref(l.seen);

	assert_int_equal(engine_steps(&fx->ctx, &plan, &errs), HALO_EXIT_CHANGED);
	assert_int_equal(dev->outcome, HALO_OUTCOME_CHANGED);
	assert_string_equal(dev->observed, "rocep65s0f0 port 1");
	assert_string_equal(dev->was, "iwp65s0f0 port 1 (iWARP)");
	assert_int_equal(gid->outcome, HALO_OUTCOME_CHANGED);
	assert_string_equal(gid->observed, "1");
	assert_int_equal(roce->outcome, HALO_OUTCOME_CHANGED);
	halo_plan_free(&plan);
	halo_errors_free(&errs);
}

/* The GID index held at the first observation and is not applied; an
 * earlier phase moves it: the verification reads it anew. */
static void test_verify_reads_anew(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_plan plan;
	struct halo_errors errs = { 0 };
	struct halo_item *addr, *dev, *gid;
	struct halo_rdma_link l;

	ibdev(fx->root, "rocep65s0f0", "1: CA", 1);
	link_init(&l);
	halo_plan_init(&plan);
	assert_int_equal(halo_plan_add_new(&plan, "link/rdma/address", HALO_SUB_LINKS,
					   HALO_PHASE_ADDRESSES, &addr_ops, 1, &addr), 0);
	add_rdma(&plan, &l, &dev, &gid);
	halo_rdma_seen_unref(l.seen);

	assert_int_equal(engine_steps(&fx->ctx, &plan, &errs), HALO_EXIT_CHANGED);
	assert_int_equal(addr->outcome, HALO_OUTCOME_CHANGED);
	assert_int_equal(dev->outcome, HALO_OUTCOME_OK);
	assert_int_equal(gid->applies, 0);
	assert_int_equal(gid->outcome, HALO_OUTCOME_OK);
	assert_string_equal(gid->observed, "2");
	halo_plan_free(&plan);
	halo_errors_free(&errs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path),
		cmocka_unit_test_setup_teardown(test_kept_and_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_enable_roce, setup, teardown),
		cmocka_unit_test_setup_teardown(test_verify_reads_anew, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
