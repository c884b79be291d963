/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/host/candidates.c (which sysfs directory names an
 * entry's links) and halo_link_sysfs_device_links (the netdevs of a
 * device, from a fake sysfs tree under a root). */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/candidates.h"
#include "host/sysfs.h"
#include "util/rootfs.h"
#include "util/strv.h"

static struct halo_interface by_name(const char *name)
{
	return (struct halo_interface){ .name = (char *)name };
}

static struct halo_interface by_pci(const char *pci, const char *driver)
{
	struct halo_interface f = { .name = (char *)"x", .match_driver = (char *)driver };

	if (pci) {
		f.match.has_pci = true;
		assert_int_equal(halo_pci_parse(pci, &f.match.pci), 0);
	}
	return f;
}

static void source(void **state)
{
	struct halo_interface f;
	char path[256];

	(void)state;
	f = by_name("rdma0");
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_NAME);
	f = by_pci("0000:C2:00.0", NULL); /* the config's case; sysfs is lower */
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_DEVICE);
	assert_string_equal(path, "/sys/bus/pci/devices/0000:c2:00.0");
	f = by_pci("0000:c2:00.1", "ice"); /* pci narrows more than the driver */
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_DEVICE);
	assert_string_equal(path, "/sys/bus/pci/devices/0000:c2:00.1");
	f = by_pci(NULL, "mlx5_core");
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_DRIVER);
	assert_string_equal(path, "/sys/bus/pci/drivers/mlx5_core");
	f = by_pci(NULL, "../../etc");
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_NONE);
	f = by_pci(NULL, "..");
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_NONE);
	f = by_pci("0000:c2:00.0", "ice");
	f.match.has_mac = true; /* only a dump shows addresses */
	assert_int_equal(halo_host_candidate_source(&f, path, sizeof(path)), HALO_CAND_NONE);
	f = by_pci(NULL, "mlx5_core");
	assert_int_equal(halo_host_candidate_source(&f, path, 10), HALO_CAND_NONE);
}

static char root[] = "/tmp/halo-candidates.XXXXXX";
static struct halo_ctx ctx;

/* Two functions of ice and one of mlx5_core, as the kernel lays them out:
 * 0000:c2:00.0 has two ports, an auxiliary device with its own netdev, a
 * PCI function behind it (a bridge's child: not its links), a "net" too
 * deep to be a netdev's (below the RDMA device), and symlinks
 * up and across that must not be followed. */
static int mkroot(void **state)
{
	char cmd[4096];

	(void)state;
	snprintf(root, sizeof(root), "/tmp/halo-candidates.XXXXXX");
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd %s; d=sys/devices/pci0000:00\n"
		 "mkdir -p $d/0000:c2:00.0/net/eth0 $d/0000:c2:00.0/net/eth1 "
		 "  $d/0000:c2:00.0/ice.aux.0/net/sf0 $d/0000:c2:00.0/power "
		 "  $d/0000:c2:00.0/0000:c5:00.0/net/inner0 "
		 "  $d/0000:c2:00.0/infiniband/rocep194s0f0/ports/1/net/deep0 "
		 "  $d/0000:c2:00.0/ice.aux.1/sub.0/net/sf1 $d/0000:c2:00.0/ice.aux.1/sub.1 "
		 "  $d/0000:c2:00.0/ice.aux.1/sub.2 "
		 "  $d/0000:c3:00.0/net/cx0 $d/0000:c4:00.0/net/other0 "
		 "  sys/bus/pci/devices sys/bus/pci/drivers/ice sys/bus/pci/drivers/mlx5_core "
		 "  sys/bus/pci/drivers/empty\n"
		 "touch $d/0000:c2:00.0/vendor sys/bus/pci/drivers/mlx5_core/bind\n"
		 "ln -s .. $d/0000:c2:00.0/up\n"
		 "touch $d/0000:c2:00.0/ice.aux.1/sub.1/net\n"
		 "ln -s ../sub.0/net $d/0000:c2:00.0/ice.aux.1/sub.2/net\n"
		 "ln -s ../0000:c4:00.0 $d/0000:c2:00.0/virtfn0\n"
		 "for f in 0000:c2:00.0 0000:c3:00.0; do\n"
		 "  ln -s ../../../devices/pci0000:00/$f sys/bus/pci/devices/$f; done\n"
		 "ln -s ../../../../devices/pci0000:00/0000:c2:00.0 sys/bus/pci/drivers/ice/0000:c2:00.0\n"
		 "ln -s ../../../../devices/pci0000:00/0000:c3:00.0 sys/bus/pci/drivers/mlx5_core/0000:c3:00.0\n"
		 "ln -s ../../../../module/mlx5_core sys/bus/pci/drivers/mlx5_core/module\n",
		 root);
	assert_int_equal(system(cmd), 0);
	memset(&ctx, 0, sizeof(ctx));
	ctx.root = root;
	assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
	return 0;
}

static int rmroot(void **state)
{
	char cmd[256];

	(void)state;
	close(ctx.root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void device_links(void **state)
{
	_cleanup_strv_free_ char **names = NULL;

	(void)state;
	assert_int_equal(halo_link_sysfs_device_links(&ctx, "/sys/bus/pci/devices/0000:c2:00.0",
						      &names), 0);
	assert_int_equal(halo_strv_len(names), 4);
	assert_true(halo_strv_contains(names, "eth0"));
	assert_true(halo_strv_contains(names, "eth1"));
	assert_true(halo_strv_contains(names, "sf0")); /* its PCI address is c2:00.0 too */
	/* two directories down, the last level: a "net" directory is read,
	 * a file or a symlink of that name is not */
	assert_true(halo_strv_contains(names, "sf1"));
	assert_false(halo_strv_contains(names, "inner0"));
	/* three directories down: not a netdev's place, not read */
	assert_false(halo_strv_contains(names, "deep0"));
	assert_false(halo_strv_contains(names, "other0"));
	/* appended once */
	assert_int_equal(halo_link_sysfs_device_links(&ctx, "/sys/bus/pci/devices/0000:c2:00.0",
						      &names), 0);
	assert_int_equal(halo_strv_len(names), 4);
	assert_int_equal(halo_link_sysfs_device_links(&ctx, "/sys/bus/pci/devices/0000:d0:00.0",
						      &names), -ENOENT);
}

static struct halo_config mkcfg(struct halo_interface *ifs, size_t n)
{
	return (struct halo_config){ .interfaces = ifs, .n_interfaces = n };
}

static void candidates(void **state)
{
	struct halo_interface ifs[4];
	struct halo_config cfg;
	char **names = NULL;

	(void)state;
	ifs[0] = by_pci("0000:c2:00.0", "ice");
	ifs[1] = by_pci(NULL, "mlx5_core");
	ifs[2] = by_name("eth0"); /* already a candidate: once */
	ifs[3] = by_name("rdma9");
	cfg = mkcfg(ifs, 4);
	assert_int_equal(halo_host_candidates(&ctx, &cfg, "enx0", &names), 1);
	assert_int_equal(halo_strv_len(names), 7);
	assert_true(halo_strv_contains(names, "cx0"));
	assert_true(halo_strv_contains(names, "rdma9"));
	assert_true(halo_strv_contains(names, "enx0"));
	assert_true(halo_strv_contains(names, "sf0"));
	halo_strv_free(names);

	/* a driver's devices: only the PCI-named entries */
	cfg = mkcfg(&ifs[1], 1);
	assert_int_equal(halo_host_candidates(&ctx, &cfg, NULL, &names), 1);
	assert_int_equal(halo_strv_len(names), 1);
	assert_string_equal(names[0], "cx0");
	halo_strv_free(names);

	/* a driver bound to nothing: no candidates, matching will fall back */
	ifs[1] = by_pci(NULL, "empty");
	assert_int_equal(halo_host_candidates(&ctx, &cfg, NULL, &names), 1);
	assert_int_equal(halo_strv_len(names), 0);
	halo_strv_free(names);

	/* the dump decides: no bus link for the function, no driver directory
	 * (veth is a kind), a mac */
	ifs[1] = by_pci("0000:c4:00.0", NULL);
	cfg = mkcfg(ifs, 2);
	assert_int_equal(halo_host_candidates(&ctx, &cfg, NULL, &names), 0);
	assert_null(names);
	ifs[1] = by_pci(NULL, "veth");
	assert_int_equal(halo_host_candidates(&ctx, &cfg, NULL, &names), 0);
	assert_null(names);
	ifs[1] = by_name("eth0");
	ifs[1].match.has_mac = true;
	assert_int_equal(halo_host_candidates(&ctx, &cfg, NULL, &names), 0);
	assert_null(names);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(source),
		cmocka_unit_test_setup_teardown(device_links, mkroot, rmroot),
		cmocka_unit_test_setup_teardown(candidates, mkroot, rmroot),
	};

	return cmocka_run_group_tests_name("host-candidates", tests, NULL, NULL);
}
