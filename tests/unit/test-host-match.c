/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/host/match.c (pure matcher) and src/host/sysfs.c
 * (driver and PCI address from a fake sysfs tree under a root). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "host/match.h"
#include "host/sysfs.h"
#include "util/rootfs.h"

struct fake {
	const char *name;
	struct halo_link_facts facts;
};

#define PCI(b, d, f) true, { .domain = 0, .bus = b, .device = d, .function = f }
static const struct fake facts_table[] = {
	{ "enp194s0f0", { (char *)"ice", PCI(0xc2, 0, 0) } },
	{ "enp194s0f1", { (char *)"ice", PCI(0xc2, 0, 1) } },
	{ "eno1", { (char *)"r8169", PCI(0x01, 0, 0) } },
	{ "veth0", { NULL, false, { 0 } } },
};
static int facts_calls;

static int fake_facts(void *userdata, const struct halo_rtnl_link *link,
		      const struct halo_link_facts **ret)
{
	static const struct halo_link_facts none = { NULL, false, { 0 } };

	facts_calls++;
	*ret = &none;
	for (size_t i = 0; i < ARRAY_SIZE(facts_table); i++)
		if (strcmp(facts_table[i].name, link->name) == 0)
			*ret = &facts_table[i].facts;
	return 0;
}

static struct halo_rtnl_link mk(int idx, const char *name, uint8_t last)
{
	struct halo_rtnl_link l = { .ifindex = idx, .mac_len = 6,
				  .mac = { 0xb4, 0x96, 0x91, 0xaa, 0xbb, last } };

	snprintf(l.name, sizeof(l.name), "%s", name);
	return l;
}

static struct halo_rtnl_link links[4];

static int setup(void **state)
{
	links[0] = mk(2, "enp194s0f0", 1);
	links[1] = mk(3, "enp194s0f1", 2);
	links[2] = mk(4, "eno1", 3);
	links[3] = mk(5, "veth0", 4);
	/* a bonded port: current MAC differs, permanent one is the NIC's */
	links[1].perm_mac_len = 6;
	memcpy(links[1].perm_mac, (uint8_t[]){ 0xb4, 0x96, 0x91, 0xaa, 0xbb, 0x22 }, 6);
	facts_calls = 0;
	return 0;
}

static struct halo_interface iface(const char *name, const char *mac,
				   const char *driver, const char *pci, int line)
{
	struct halo_interface f = { .name = (char *)name,
				    .match_driver = (char *)driver, .line = line };

	f.match.has_mac = mac && halo_mac_parse(mac, &f.match.mac) == 0;
	f.match.has_pci = pci && halo_pci_parse(pci, &f.match.pci) == 0;
	return f;
}

static void by_name(void **state)
{
	struct halo_interface ifs[] = { iface("eno1", NULL, NULL, NULL, 3),
					iface("veth0", NULL, NULL, NULL, 9) };
	struct halo_errors e = { 0 };
	ssize_t idx[2];

	assert_int_equal(halo_links_match(ifs, 2, links, 4, fake_facts, NULL,
					  "h.conf", true, idx, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(idx[0], 2);
	assert_int_equal(idx[1], 3);
	assert_int_equal(facts_calls, 0); /* names need no sysfs */
}

static void by_keys_all_must_hold(void **state)
{
	struct halo_interface ifs[] = {
		iface("rdma0", "B4:96:91:AA:BB:01", "ice", NULL, 3),
		iface("rdma1", NULL, "ice", "0000:c2:00.1", 4),
		/* permanent address of a port whose MAC was changed */
		iface("rdma2", "b4:96:91:aa:bb:22", NULL, NULL, 5),
	};
	struct halo_errors e = { 0 };
	ssize_t idx[3];

	assert_int_equal(halo_links_match(ifs, 3, links, 4, fake_facts, NULL,
					  "h.conf", true, idx, &e), -EINVAL);
	/* rdma1 and rdma2 mean the same port: that is the only error */
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0],
			    "h.conf:5: interfaces \"rdma1\" (line 4) and \"rdma2\" both match link enp194s0f1");
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 1);
	halo_errors_free(&e);

	/* a key that does not hold excludes the link */
	struct halo_interface wrong[] = { iface("rdma0", "b4:96:91:aa:bb:01", "mlx5_core", NULL, 7) };

	memset(&e, 0, sizeof(e));
	assert_int_equal(halo_links_match(wrong, 1, links, 4, fake_facts, NULL,
					  "h.conf", true, idx, &e), -EINVAL);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0],
			    "h.conf:7: interface \"rdma0\": no link matches mac b4:96:91:aa:bb:01, driver mlx5_core");
	assert_int_equal(idx[0], -1);
	halo_errors_free(&e);
}

static void one_entry_two_links(void **state)
{
	struct halo_interface ifs[] = { iface("rdma0", NULL, "ice", NULL, 12) };
	struct halo_errors e = { 0 };
	ssize_t idx[1];

	assert_int_equal(halo_links_match(ifs, 1, links, 4, fake_facts, NULL,
					  "h.conf", true, idx, &e), -EINVAL);
	assert_int_equal(e.n, 1);
	assert_string_equal(e.msgs[0],
			    "h.conf:12: interface \"rdma0\": driver ice matches 2 links (enp194s0f0, enp194s0f1); add match keys to single one out");
	halo_errors_free(&e);
}

static void unknown_name(void **state)
{
	struct halo_interface ifs[] = { iface("rdma9", NULL, NULL, NULL, 2) };
	struct halo_errors e = { 0 };
	ssize_t idx[1];

	assert_int_equal(halo_links_match(ifs, 1, links, 4, fake_facts, NULL,
					  NULL, true, idx, &e), -EINVAL);
	assert_string_equal(e.msgs[0], "config:2: interface \"rdma9\": no link matches name rdma9");
	halo_errors_free(&e);

	/* Pending on an earlier phase: not an error, just unmatched. */
	memset(&e, 0, sizeof(e));
	idx[0] = 7;
	assert_int_equal(halo_links_match(ifs, 1, links, 4, fake_facts, NULL,
					  NULL, false, idx, &e), 0);
	assert_int_equal(e.n, 0);
	assert_int_equal(idx[0], -1);
}

static int fail_facts(void *userdata, const struct halo_rtnl_link *link,
		      const struct halo_link_facts **ret)
{
	return -EIO;
}

static void facts_error_propagates(void **state)
{
	struct halo_interface ifs[] = { iface("x", NULL, "ice", NULL, 2) };
	struct halo_errors e = { 0 };
	ssize_t idx[1];

	assert_int_equal(halo_links_match(ifs, 1, links, 4, fail_facts, NULL,
					  NULL, true, idx, &e), -EIO);
	assert_int_equal(e.n, 0);
}

/* --interface NAME: the entry's own name, or the kernel name of the link
 * its keys match (what udev passes after a rename). */
static void select_interface(void **state)
{
	struct halo_interface ifs[] = {
		iface("rdma0", "b4:96:91:aa:bb:01", NULL, NULL, 3),
		iface("rdma1", NULL, "ice", "0000:c2:00.1", 4),
		iface("eno1", NULL, NULL, NULL, 5),
	};
	bool sel[3];

	(void)state;
	/* by the kernel name of the link rdma0's MAC matches */
	assert_int_equal(halo_links_select(ifs, 3, links, 4, fake_facts, NULL,
					   "enp194s0f0", sel), 1);
	assert_true(sel[0]);
	assert_false(sel[1]);
	assert_false(sel[2]);
	/* by the entry's name, though no link has it */
	assert_int_equal(halo_links_select(ifs, 3, links, 4, fake_facts, NULL,
					   "rdma1", sel), 1);
	assert_false(sel[0]);
	assert_true(sel[1]);
	/* by driver+pci */
	assert_int_equal(halo_links_select(ifs, 3, links, 4, fake_facts, NULL,
					   "enp194s0f1", sel), 1);
	assert_true(sel[1]);
	/* an entry without keys: its name is the link's */
	assert_int_equal(halo_links_select(ifs, 3, links, 4, fake_facts, NULL,
					   "eno1", sel), 1);
	assert_true(sel[2]);
	/* a live link no entry matches, and a name nothing has */
	assert_int_equal(halo_links_select(ifs, 3, links, 4, fake_facts, NULL,
					   "veth0", sel), 0);
	assert_false(sel[0] || sel[1] || sel[2]);
	assert_int_equal(halo_links_select(ifs, 3, links, 4, fake_facts, NULL,
					   "nosuch0", sel), 0);
}

static void select_facts_error(void **state)
{
	struct halo_interface ifs[] = { iface("rdma1", NULL, "ice", NULL, 4) };
	bool sel[1];

	(void)state;
	assert_int_equal(halo_links_select(ifs, 1, links, 4, fail_facts, NULL,
					   "enp194s0f1", sel), -EIO);
}

static void hwaddr_format(void **state)
{
	char buf[64];

	halo_hwaddr_format((const uint8_t *)"\x00\x1b\xff\x0a\x00\x01", 6, buf, sizeof(buf));
	assert_string_equal(buf, "00:1b:ff:0a:00:01");
	halo_hwaddr_format(NULL, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	halo_hwaddr_format((const uint8_t *)"\x01\x02\x03", 3, buf, 6);
	assert_string_equal(buf, "01:02");
}

/* sysfs under a root: device -> ../../../devices/pci0000:00/BDF,
 * device/driver -> ../../../bus/pci/drivers/ice (the real layout). */
static void sysfs_facts(void **state)
{
	char root[] = "/tmp/halo-net-match.XXXXXX";
	char cmd[2048];
	struct halo_ctx ctx = { 0 };
	struct halo_link_facts f = { NULL, false, { 0 } };
	char *why = NULL, pci[HALO_PCI_STRLEN];

	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p sys/class/net sys/devices/pci0000:00/0000:c2:00.0/net/eth7 "
		 "sys/bus/pci/drivers/ice sys/devices/virtual/net/veth9 && "
		 "ln -s ../../devices/pci0000:00/0000:c2:00.0/net/eth7 sys/class/net/eth7 && "
		 "ln -s ../../../0000:c2:00.0 sys/devices/pci0000:00/0000:c2:00.0/net/eth7/device && "
		 "ln -s ../../../bus/pci/drivers/ice sys/devices/pci0000:00/0000:c2:00.0/driver && "
		 "ln -s ../../devices/virtual/net/veth9 sys/class/net/veth9 && "
		 /* a virtio NIC: the device is virtio2, on PCI function 00:03.0 */
		 "mkdir -p sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth8 sys/bus/virtio/drivers/virtio_net && "
		 "ln -s ../../devices/pci0000:00/0000:00:03.0/virtio2/net/eth8 sys/class/net/eth8 && "
		 "ln -s ../../../virtio2 sys/devices/pci0000:00/0000:00:03.0/virtio2/net/eth8/device && "
		 "ln -s ../../../../bus/virtio/drivers/virtio_net sys/devices/pci0000:00/0000:00:03.0/virtio2/driver && "
		 /* an escape attempt: must resolve inside the root */
		 "mkdir -p sys/class/net/evil && ln -s /../../../../etc sys/class/net/evil/device && "
		 /* the same, resolving inside the root once it has an etc */
		 "mkdir -p sys/class/net/tame mnt && ln -s /../../../../mnt sys/class/net/tame/device && "
		 /* a class entry pointing out of the root */
		 "ln -s /halo-nowhere-outside sys/class/net/gone",
		 root);
	assert_int_equal(system(cmd), 0);
	ctx.root = root;
	assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);

	assert_int_equal(halo_link_sysfs_facts(&ctx, "eth7", &f, &why), 0);
	assert_string_equal(f.driver, "ice");
	assert_true(f.has_pci);
	halo_pci_format(&f.pci, pci, sizeof(pci));
	assert_string_equal(pci, "0000:c2:00.0");
	halo_link_facts_free(&f);

	assert_int_equal(halo_link_sysfs_facts(&ctx, "eth8", &f, &why), 0);
	assert_string_equal(f.driver, "virtio_net");
	assert_true(f.has_pci);
	halo_pci_format(&f.pci, pci, sizeof(pci));
	assert_string_equal(pci, "0000:00:03.0");
	halo_link_facts_free(&f);

	assert_int_equal(halo_link_sysfs_facts(&ctx, "veth9", &f, &why), 0);
	assert_null(f.driver);
	assert_false(f.has_pci);

	assert_int_equal(halo_link_sysfs_facts(&ctx, "absent0", &f, &why), 0);
	assert_null(f.driver);
	assert_false(f.has_pci);

	/* the device link resolves nowhere inside the root: refused, named
	 * (the host's /etc/driver is never read) */
	assert_int_equal(halo_link_sysfs_facts(&ctx, "evil", &f, &why), -ELOOP);
	assert_non_null(why);
	assert_non_null(strstr(why, "/sys/class/net/evil/device: symlink to '/../../../../etc' does not resolve inside the root"));
	free(why);
	why = NULL;

	/* resolving inside the root: a device without a driver link */
	assert_int_equal(halo_link_sysfs_facts(&ctx, "tame", &f, &why), 0);
	assert_false(f.has_pci);
	assert_null(f.driver);
	assert_null(why);

	/* the class entry itself leaves the root */
	assert_int_equal(halo_link_sysfs_facts(&ctx, "gone", &f, &why), -ELOOP);
	assert_non_null(strstr(why, "/sys/class/net/gone: symlink to '/halo-nowhere-outside'"));
	free(why);
	why = NULL;

	assert_int_equal(halo_link_sysfs_facts(&ctx, "../x", &f, &why), -EINVAL);
	close(ctx.root_fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(by_name, setup),
		cmocka_unit_test_setup(by_keys_all_must_hold, setup),
		cmocka_unit_test_setup(one_entry_two_links, setup),
		cmocka_unit_test_setup(unknown_name, setup),
		cmocka_unit_test_setup(facts_error_propagates, setup),
		cmocka_unit_test_setup(select_interface, setup),
		cmocka_unit_test_setup(select_facts_error, setup),
		cmocka_unit_test(hwaddr_format),
		cmocka_unit_test(sysfs_facts),
	};

	return cmocka_run_group_tests_name("host-match", tests, NULL, NULL);
}
