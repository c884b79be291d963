/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the GID parser and the GID table scan (src/rdma/gid.c),
 * through a reader that answers like the kernel's sysfs: an empty entry's
 * gid_attrs read EINVAL, its GID reads all zeros.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "rdma/rdma.h"
#include "util/rootfs.h"

#define ZERO "0000:0000:0000:0000:0000:0000:0000:0000"
#define FE80 "fe80:0000:0000:0000:b696:91ff:feaa:bb01"
#define V4_1 "0000:0000:0000:0000:0000:ffff:c0a8:6401" /* 192.168.100.1 */
#define V4_9 "0000:0000:0000:0000:0000:ffff:c0a8:6409" /* 192.168.100.9 */
#define V6 "2001:0db8:0000:0000:0000:0000:0000:0001"

/* One GID table entry; type or ndev NULL: reads EINVAL (empty). */
struct entry {
	const char *gid, *type, *ndev;
};

struct table {
	const struct entry *e;
	size_t n;
	int fail_index; /* an entry whose gid read fails with EIO, -1 none */
	unsigned attr_reads; /* of gid_attrs, counted */
	unsigned gid_reads;  /* of gids, counted */
};

static int fake_read(void *userdata, const char *path, char **ret)
{
	const struct table *t = userdata;
	const char *rest = path + strlen("P/");
	const char *value;
	unsigned i;
	char what[16];

	if (sscanf(rest, "gids/%u", &i) == 1)
		strcpy(what, "gid");
	else if (sscanf(rest, "gid_attrs/types/%u", &i) == 1)
		strcpy(what, "type");
	else if (sscanf(rest, "gid_attrs/ndevs/%u", &i) == 1)
		strcpy(what, "ndev");
	else
		return -ENOENT;
	if (i >= t->n)
		return -ENOENT;
	if (what[0] != 'g')
		((struct table *)userdata)->attr_reads++;
	else
		((struct table *)userdata)->gid_reads++;
	if ((int)i == t->fail_index)
		return -EIO;
	value = what[0] == 'g' ? t->e[i].gid : what[0] == 't' ? t->e[i].type : t->e[i].ndev;
	if (!value)
		return -EINVAL;
	*ret = malloc(strlen(value) + 2);
	if (!*ret)
		return -ENOMEM;
	sprintf(*ret, "%s\n", value);
	return 0;
}

static int scan(const struct entry *e, size_t n, const char *ifname, const uint8_t *addr,
		struct halo_rdma_gid *ret)
{
	struct table t = { e, n, -1, 0, 0 };
	unsigned idx[32];

	for (unsigned i = 0; i < n; i++)
		idx[i] = i;
	return halo_rdma_gid_scan(fake_read, &t, "P", idx, n, ifname, addr, ret);
}

static const uint8_t addr1[4] = { 192, 168, 100, 1 };

static void test_parse(void **state)
{
	uint8_t g[16];

	(void)state;
	assert_int_equal(halo_rdma_gid_parse(V4_1 "\n", g), 0);
	assert_int_equal(g[10], 0xff);
	assert_int_equal(g[12], 192);
	assert_int_equal(g[15], 1);
	assert_int_equal(halo_rdma_gid_parse(FE80, g), 0);
	assert_int_equal(g[0], 0xfe);
	/* Only the kernel's own form: 8 groups of 4 hex digits. */
	assert_int_equal(halo_rdma_gid_parse("::ffff:192.168.100.1", g), -EINVAL);
	assert_int_equal(halo_rdma_gid_parse("0000:0000:0000:0000:0000:ffff:c0a8:640", g), -EINVAL);
	assert_int_equal(halo_rdma_gid_parse(V4_1 ":0000", g), -EINVAL);
	assert_int_equal(halo_rdma_gid_parse(V4_1 "\n\n", g), -EINVAL);
	assert_int_equal(halo_rdma_gid_parse("", g), -EINVAL);
	assert_int_equal(halo_rdma_gid_parse("0000:0000:0000:0000:0000:ffff:c0a8:64g1", g), -EINVAL);
}

/* irdma: RoCE v2 only, 0 = fe80, 1 = IPv4. */
static void test_irdma(void **state)
{
	static const struct entry e[] = {
		{ FE80, "RoCE v2", "eth0" }, { V4_1, "RoCE v2", "eth0" },
		{ ZERO, NULL, NULL },        { ZERO, NULL, NULL },
	};
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 1);
	assert_int_equal(g.n_v4, 1);
}

/* mlx5: 0/1 fe80 v1/v2, 2/3 IPv4 v1/v2: the v2 one. */
static void test_mlx5(void **state)
{
	static const struct entry e[] = {
		{ FE80, "IB/RoCE v1", "eth0" }, { FE80, "RoCE v2", "eth0" },
		{ V4_1, "IB/RoCE v1", "eth0" }, { V4_1, "RoCE v2", "eth0" },
		{ ZERO, NULL, NULL },
	};
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 3);
}

/* An IPv6 address added before the IPv4 one shifts it. */
static void test_ipv6_shift(void **state)
{
	static const struct entry e[] = {
		{ FE80, "RoCE v2", "eth0" }, { V6, "RoCE v2", "eth0" }, { V4_1, "RoCE v2", "eth0" },
	};
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 2);
}

/* Two IPv4 addresses: the configured one, wherever it is. */
static void test_two_ipv4(void **state)
{
	static const struct entry e[] = {
		{ FE80, "RoCE v2", "eth0" }, { V4_9, "RoCE v2", "eth0" }, { V4_1, "RoCE v2", "eth0" },
	};
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 2);
	assert_int_equal(g.n_v4, 2);
	assert_int_equal(g.first_v4, 1);
	/* Without a configured address: both are candidates. */
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", NULL, &g), 0);
	assert_int_equal(g.index, -1);
	assert_int_equal(g.n_v4, 2);
}

/* An entry whose attributes read EINVAL (deleted between the reads) is
 * skipped, never matched and never fatal. */
static void test_einval(void **state)
{
	static const struct entry e[] = {
		{ FE80, "RoCE v2", "eth0" }, { V4_1, NULL, NULL },
		{ V4_1, "RoCE v2", NULL },   { V4_1, "RoCE v2", "eth0" },
	};
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 3);
	assert_int_equal(g.n_empty, 2);
}

/* Another netdev's GID (a VLAN upper device, the other port) is not ours;
 * a v1 IPv4 GID alone is no RoCE v2 GID. */
static void test_other_ndev(void **state)
{
	static const struct entry e[] = {
		{ FE80, "RoCE v2", "eth0" },
		{ V4_1, "RoCE v2", "eth0.100" },
		{ V4_1, "IB/RoCE v1", "eth0" },
	};
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(scan(e, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, -1);
	assert_int_equal(g.n_v4, 0);
}

/* Only an IPv4-mapped GID's attributes are read: a link-local or IPv6
 * GID is no candidate whatever its type (one that would fail to read is
 * not even looked at), and a zero GID is an empty entry. */
static void test_attrs_of_v4_only(void **state)
{
	static const struct entry e[] = {
		{ FE80, NULL, NULL },           { V6, "RoCE v2", "eth0" },
		{ ZERO, NULL, NULL },           { V4_1, "IB/RoCE v1", "eth0" },
		{ V4_1, "RoCE v2", "eth0" },
	};
	struct table t = { e, ARRAY_SIZE(e), -1, 0, 0 };
	unsigned idx[] = { 0, 1, 2, 3, 4 };
	struct halo_rdma_gid g;

	(void)state;
	assert_int_equal(halo_rdma_gid_scan(fake_read, &t, "P", idx, 5, "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 4);
	assert_int_equal(g.n_v4, 1);
	assert_int_equal(g.n_empty, 0);
	/* The types of 3 and 4, the ndev of 4. */
	assert_int_equal(t.attr_reads, 3);
}

/* A read error other than the empty entry's is reported. */
static void test_read_error(void **state)
{
	static const struct entry e[] = {
		{ FE80, "RoCE v2", "eth0" }, { V4_1, "RoCE v2", "eth0" },
	};
	struct table t = { e, ARRAY_SIZE(e), 1, 0, 0 };
	unsigned idx[] = { 0, 1 };
	struct halo_rdma_gid g = { .index = 42 };

	(void)state;
	assert_int_equal(halo_rdma_gid_scan(fake_read, &t, "P", idx, 2, "eth0", addr1, &g), -EIO);
	assert_int_equal(g.index, 42); /* untouched on failure */
}

/* mlx5's table runs to hundreds of entries, a sysfs file each: the scan
 * ends at the address's entry (an entry past it that would fail is not
 * read); without an address it reads them all, to count the candidates. */
static void test_stops_at_match(void **state)
{
	static struct entry e[256];
	struct table t = { e, ARRAY_SIZE(e), 200, 0, 0 };
	static unsigned idx[ARRAY_SIZE(e)];
	struct halo_rdma_gid g;

	(void)state;
	for (unsigned i = 0; i < ARRAY_SIZE(e); i++) {
		e[i] = (struct entry){ ZERO, NULL, NULL };
		idx[i] = i;
	}
	e[0] = (struct entry){ FE80, "IB/RoCE v1", "eth0" };
	e[1] = (struct entry){ FE80, "RoCE v2", "eth0" };
	e[2] = (struct entry){ V4_1, "IB/RoCE v1", "eth0" };
	e[3] = (struct entry){ V4_1, "RoCE v2", "eth0" };
	assert_int_equal(halo_rdma_gid_scan(fake_read, &t, "P", idx, ARRAY_SIZE(e), "eth0", addr1, &g), 0);
	assert_int_equal(g.index, 3);
	assert_int_equal(g.n_v4, 1);
	assert_int_equal(t.gid_reads, 4);
	t.gid_reads = 0;
	assert_int_equal(halo_rdma_gid_scan(fake_read, &t, "P", idx, ARRAY_SIZE(e), "eth0", NULL, &g), -EIO);
	assert_int_equal(t.gid_reads, 201);
	t.fail_index = -1;
	t.gid_reads = 0;
	assert_int_equal(halo_rdma_gid_scan(fake_read, &t, "P", idx, ARRAY_SIZE(e), "eth0", NULL, &g), 0);
	assert_int_equal(g.index, -1);
	assert_int_equal(g.n_v4, 1);
	assert_int_equal(g.first_v4, 3);
	assert_int_equal(t.gid_reads, 256);
}

/* In a root: a GID entry that cannot be read (a huge file planted there) fails
 * the scan, and the reason names that file as the root shows it. */
static void test_find_names_file(void **state)
{
	char root[] = "/tmp/halo-rdma-gid.XXXXXX", cmd[512];
	struct halo_ctx ctx = { .under_root = true };
	struct halo_rdma_dev dev = { .ibdev = "rocep1s0", .port = 1 };
	struct halo_rdma_gid g;
	char *why = NULL, *want;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && d=sys/class/infiniband/rocep1s0/ports/1 && "
		 "mkdir -p $d/gids $d/gid_attrs/types $d/gid_attrs/ndevs && "
		 "echo " V4_1 " >$d/gids/0 && truncate -s 20M $d/gid_attrs/types/0", root);
	assert_int_equal(system(cmd), 0);
	ctx.root = root;
	assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
	assert_true(halo_rdma_gid_find(&ctx, &dev, "eth0", addr1, &g, &why) < 0);
	assert_non_null(why);
	want = halo_root_display_path(&ctx, "/sys/class/infiniband/rocep1s0/ports/1/gid_attrs/types/0");
	assert_non_null(want);
	assert_ptr_equal(strstr(why, want), why);
	assert_non_null(strchr(why + strlen(want), ':'));
	free(want);
	free(why);
	close(ctx.root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),      cmocka_unit_test(test_irdma),
		cmocka_unit_test(test_mlx5),       cmocka_unit_test(test_ipv6_shift),
		cmocka_unit_test(test_two_ipv4),   cmocka_unit_test(test_einval),
		cmocka_unit_test(test_other_ndev), cmocka_unit_test(test_read_error),
		cmocka_unit_test(test_find_names_file), cmocka_unit_test(test_attrs_of_v4_only),
		cmocka_unit_test(test_stops_at_match),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
