/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/host/networkd*.c: systemd-networkd's [Match] rules as
 * systemd.network(5) states them, its search path and shadowing, its
 * runtime records, and the bad inputs a root can hold. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/networkd.h"
#include "root-test.h"
#include "util/rootfs.h"

static const uint8_t mac_a[6] = { 0xb4, 0x96, 0x91, 0xaa, 0xbb, 0x01 };
static const uint8_t perm_a[6] = { 0xb4, 0x96, 0x91, 0xaa, 0xbb, 0x99 };
static char *const alt_a[] = { (char *)"enp194s0f0np0", NULL };

/* A ConnectX port as networkd sees it. */
static const struct halo_networkd_link port = {
	.name = "enp194s0f0", .altnames = alt_a,
	.mac = mac_a, .mac_len = 6, .perm_mac = perm_a, .perm_mac_len = 6,
	.driver = "mlx5_core", .path = "pci-0000:c2:00.0", .type = "ether",
};
/* A veth: no permanent address, no PCI path. */
static const struct halo_networkd_link veth = {
	.name = "eth-a", .mac = mac_a, .mac_len = 6, .driver = "veth", .type = "ether",
	.kind = "veth",
};

static bool holds(const char *text, const struct halo_networkd_link *l)
{
	struct halo_networkd_files files = { .v = calloc(1, sizeof(*files.v)), .n = 1 };
	bool r;

	assert_non_null(files.v);
	assert_int_equal(halo_networkd_parse(text, &files.v[0]), 0);
	r = halo_networkd_matches(&files.v[0], l);
	halo_networkd_files_free(&files);
	return r;
}

/* Each row: the file's text, whether it takes the ConnectX port and the veth. */
static const struct {
	const char *text;
	bool port, veth;
} cases[] = {
	/* Name= globs, lists, alternative names */
	{ "[Match]\nName=en*\n", true, false },
	{ "[Match]\nName=eth-? enp194s0f0\n", true, true },
	{ "[Match]\nName=enp194s0f0np0\n", true, false },
	{ "[Match]\nName=enp194s0f[0-1]\n", true, false },
	{ "[Match]\nName=*\n", true, true },
	{ "[match]\nName=*\n", false, false }, /* section names are case-sensitive */
	{ "[Match]\nname=*\n", false, false }, /* so are keys */
	/* negation: the whole list, and every word in it */
	{ "[Match]\nName=!en*\n", false, true },
	{ "[Match]\nName=!eth-a enp*\n", false, false },
	{ "[Match]\nName=enp* !eth-a\n", true, false }, /* a later "!" negates its word */
	{ "[Match]\nName=!nothing*\n", true, true },
	/* a key again adds to the list; empty resets it */
	{ "[Match]\nName=eth-a\nName=enp194s0f0\n", true, true },
	{ "[Match]\nName=eth-a\nName=\nName=enp*\n", true, false },
	/* every key must hold */
	{ "[Match]\nName=en*\nDriver=ice\n", false, false },
	{ "[Match]\nName=*\nDriver=mlx5_core veth\n", true, true },
	{ "[Match]\nDriver=!mlx5_*\n", false, true },
	/* MACAddress= and PermanentMACAddress=, in networkd's three spellings */
	{ "[Match]\nMACAddress=b4:96:91:aa:bb:01\n", true, true },
	{ "[Match]\nMACAddress=B4-96-91-AA-BB-01\n", true, true },
	{ "[Match]\nMACAddress=b496.91aa.bb01\n", true, true },
	{ "[Match]\nMACAddress=00:11:22:33:44:55 b4:96:91:aa:bb:01\n", true, true },
	{ "[Match]\nMACAddress=00:11:22:33:44:55\n", false, false },
	{ "[Match]\nPermanentMACAddress=b4:96:91:aa:bb:99\n", true, false },
	{ "[Match]\nPermanentMACAddress=b4:96:91:aa:bb:01\n", false, false },
	/* no negation for addresses: "!" makes the word invalid, dropped,
	 * which leaves no list (networkd: a warning; then any link) */
	{ "[Match]\nName=*\nMACAddress=!b4:96:91:aa:bb:01\n", true, true },
	/* Path= is udev's ID_PATH; a veth has none */
	{ "[Match]\nPath=pci-0000:c2:00.*\n", true, false },
	{ "[Match]\nPath=!pci-*\n", false, true },
	/* Type= and Kind= */
	{ "[Match]\nType=ether\n", true, true },
	{ "[Match]\nType=wlan\n", false, false },
	{ "[Match]\nKind=veth\n", false, true },
	{ "[Match]\nKind=!veth\n", true, false },
	/* wireless keys never hold for a wired link, unless negated */
	{ "[Match]\nName=*\nSSID=home\n", false, false },
	{ "[Match]\nName=*\nWLANInterfaceType=!station\n", true, true },
	/* a file without any key is ignored; a condition alone is a key */
	{ "[Match]\n", false, false },
	{ "[Network]\nDHCP=yes\n", false, false },
	{ "[Match]\nHost=node1\n", true, true },
	/* syntax: comments, blanks, continuation, quotes */
	{ "# c\n; c\n[Match]\n  Name = eth-a  \n", false, true },
	{ "[Match]\nName=enp194s0f1 \\\n  enp194s0f0\n", true, false },
	/* quotes group a word of the string lists; in Name= they are
	 * characters of the name */
	{ "[Match]\nName=\"enp194s0f0\"\n", false, false },
	{ "[Match]\nDriver=\"mlx5_core\"\n", true, false },
	/* Name= words networkd refuses are dropped: none left, no key */
	{ "[Match]\nName=a:b 1234 enp/x\n", false, false },
	{ "[Match]\nName=a:b enp*\n", true, false },
	{ "[Match]\r\nName=eth-a\r\n", false, true },
	/* keys of other sections do not count */
	{ "[Network]\nName=*\n", false, false },
};

static void match_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bool p = holds(cases[i].text, &port), v = holds(cases[i].text, &veth);

		if (p != cases[i].port || v != cases[i].veth)
			fail_msg("case %zu (%s): port %d veth %d, wanted %d %d", i, cases[i].text,
				 p, v, cases[i].port, cases[i].veth);
	}
}

static void unmanaged_key(void **state)
{
	struct halo_networkd_files files = { .v = calloc(3, sizeof(*files.v)), .n = 3 };

	(void)state;
	assert_non_null(files.v);
	assert_int_equal(halo_networkd_parse("[Match]\nName=x\n[Link]\nUnmanaged=yes\n", &files.v[0]), 0);
	assert_true(files.v[0].unmanaged);
	assert_int_equal(halo_networkd_parse("[Link]\nUnmanaged=off\n", &files.v[1]), 0);
	assert_false(files.v[1].unmanaged);
	assert_int_equal(halo_networkd_parse("[Network]\nUnmanaged=yes\n", &files.v[2]), 0);
	assert_false(files.v[2].unmanaged);
	halo_networkd_files_free(&files);
}

static void mac_syntax(void **state)
{
	uint8_t b[6];

	(void)state;
	assert_int_equal(halo_networkd_parse_mac("b4:96:91:aa:bb:01", b), 0);
	assert_memory_equal(b, mac_a, 6);
	assert_int_equal(halo_networkd_parse_mac("b4:96-91:aa:bb:01", b), -EINVAL);
	assert_int_equal(halo_networkd_parse_mac("b4:96:91:aa:bb:0g", b), -EINVAL);
	assert_int_equal(halo_networkd_parse_mac("b4:96:91:aa:bb", b), -EINVAL);
	assert_int_equal(halo_networkd_parse_mac("", b), -EINVAL);
}

static void state_record(void **state)
{
	struct halo_networkd_state st;

	(void)state;
	halo_networkd_parse_state("# This is private data. Do not parse.\nADMIN_STATE=configured\n"
				  "OPER_STATE=routable\nNETWORK_FILE=/run/systemd/network/10-x.network\n",
				  &st);
	assert_string_equal(st.admin_state, "configured");
	assert_string_equal(st.network_file, "/run/systemd/network/10-x.network");
	assert_true(halo_networkd_state_manages(&st, NULL));
	assert_true(halo_networkd_state_manages(&st, "/etc/systemd/network/00-y.network"));
	assert_false(halo_networkd_state_manages(&st, "/run/systemd/network/10-x.network"));
	halo_networkd_parse_state("ADMIN_STATE=unmanaged\nNETWORK_FILE=/etc/a.network\n", &st);
	assert_false(halo_networkd_state_manages(&st, NULL));
	halo_networkd_parse_state("ADMIN_STATE=pending\n", &st);
	assert_false(halo_networkd_state_manages(&st, NULL));
	assert_string_equal(st.network_file, "");
}

/* ---- the search path in a root ---- */

/* A root with every directory of networkd's search path. */
static int fx_setup(void **state)
{
	return root_fixture_setup(state, "host-networkd",
				  "mkdir -p etc/systemd/network run/systemd/network "
				  "usr/lib/systemd/network lib/systemd/network "
				  "usr/local/lib/systemd/network");
}

/* The path of the file that takes L, "" none. */
static const char *first(struct root_fixture *fx, const char *skip,
			 const struct halo_networkd_link *l)
{
	static char path[256];
	struct halo_networkd_files files;
	const struct halo_networkd_file *f;
	char *why = NULL;

	assert_int_equal(halo_networkd_load(&fx->ctx, skip, &files, &why), 0);
	assert_null(why);
	f = halo_networkd_first(&files, l);
	snprintf(path, sizeof(path), "%s", f ? f->path : "");
	halo_networkd_files_free(&files);
	return path;
}

static void search_path(void **state)
{
	struct root_fixture *fx = *state;

	assert_string_equal(first(fx, NULL, &port), "");
	/* netplan's file, then the lexically later rdma file */
	sh(fx->root, "printf '[Match]\\nName=en*\\n[Network]\\nDHCP=ipv4\\n' "
		     ">run/systemd/network/10-netplan-all-en.network && "
		     "printf '[Match]\\nDriver=mlx5_core\\n' >run/systemd/network/10-netplan-rdma0.network");
	assert_string_equal(first(fx, NULL, &port), "/run/systemd/network/10-netplan-all-en.network");
	/* first in lexical order of names, whatever the directory */
	sh(fx->root, "printf '[Match]\\nDriver=mlx5_core\\n' >usr/lib/systemd/network/05-vendor.network");
	assert_string_equal(first(fx, NULL, &port), "/usr/lib/systemd/network/05-vendor.network");
	/* the same name in an earlier directory hides it: here one that does
	 * not match, so the next file wins */
	sh(fx->root, "printf '[Match]\\nName=nothing\\n' >etc/systemd/network/05-vendor.network");
	assert_string_equal(first(fx, NULL, &port), "/run/systemd/network/10-netplan-all-en.network");
	/* masks: a symlink to /dev/null, an empty file */
	sh(fx->root, "rm etc/systemd/network/05-vendor.network && "
		     "ln -s /dev/null etc/systemd/network/05-vendor.network && "
		     ": >etc/systemd/network/10-netplan-all-en.network");
	assert_string_equal(first(fx, NULL, &port), "/run/systemd/network/10-netplan-rdma0.network");
	/* hidden names, other suffixes and directories are not files of networkd */
	sh(fx->root, "printf '[Match]\\nName=*\\n' >etc/systemd/network/.00-hidden.network && "
		     "printf '[Match]\\nName=*\\n' >etc/systemd/network/00-a.network~ && "
		     "printf '[Match]\\nName=*\\n' >etc/systemd/network/00-a.link && "
		     "mkdir etc/systemd/network/00-dir.network");
	assert_string_equal(first(fx, NULL, &port), "/run/systemd/network/10-netplan-rdma0.network");
	/* the caller's own file is left out, wherever it is */
	sh(fx->root, "printf '[Match]\\nName=*\\n[Link]\\nUnmanaged=yes\\n' "
		     ">etc/systemd/network/00-halo.network");
	assert_string_equal(first(fx, NULL, &port), "/etc/systemd/network/00-halo.network");
	assert_string_equal(first(fx, "00-halo.network", &port),
			    "/run/systemd/network/10-netplan-rdma0.network");
	assert_string_equal(first(fx, "00-halo.network", &veth), "");
}

/* A bad candidate: an error naming the file, whatever the link. */
static void bad_file(struct root_fixture *fx, const char *make, const char *path,
		     const char *reason)
{
	struct halo_networkd_files files = { 0 };
	char *why = NULL;

	sh(fx->root, make);
	assert_true(halo_networkd_load(&fx->ctx, NULL, &files, &why) < 0);
	assert_non_null(why);
	if (!strstr(why, path) || !strstr(why, reason) || strchr(why, '\n'))
		fail_msg("error \"%s\" does not name %s with \"%s\"", why, path, reason);
	assert_int_equal(files.n, 0);
	free(why);
}

static void bad_inputs(void **state)
{
	struct root_fixture *fx = *state;

	bad_file(fx, "mkfifo run/systemd/network/10-fifo.network",
		 "/run/systemd/network/10-fifo.network", "FIFO");
	bad_file(fx, "rm run/systemd/network/10-fifo.network && "
		     "ln -s ../../../etc/passwd etc/systemd/network/20-x.network",
		 "/etc/systemd/network/20-x.network", "symbolic link");
	bad_file(fx, "rm etc/systemd/network/20-x.network && "
		     "mknod lib/systemd/network/30-dev.network c 1 3",
		 "/lib/systemd/network/30-dev.network", "not a regular file");
	bad_file(fx, "rm lib/systemd/network/30-dev.network && "
		     "truncate -s 20M usr/lib/systemd/network/40-huge.network",
		 "/usr/lib/systemd/network/40-huge.network", "too large");
	sh(fx->root, "rm usr/lib/systemd/network/40-huge.network");
	/* a FIFO that an earlier directory hides is never opened */
	sh(fx->root, "mkfifo usr/lib/systemd/network/50-x.network && "
		     "printf '[Match]\\nName=zz\\n' >etc/systemd/network/50-x.network");
	assert_string_equal(first(fx, NULL, &port), "");
}

/* "PATH unmanaged|managed" of the file that takes L, "" none. */
static const char *taken_by(struct root_fixture *fx, const struct halo_networkd_link *l)
{
	static char out[300];
	struct halo_networkd_files files;
	const struct halo_networkd_file *f;
	char *why = NULL;

	assert_int_equal(halo_networkd_load(&fx->ctx, NULL, &files, &why), 0);
	assert_null(why);
	f = halo_networkd_first(&files, l);
	snprintf(out, sizeof(out), "%s%s", f ? f->path : "",
		 f ? (f->unmanaged ? " unmanaged" : " managed") : "");
	halo_networkd_files_free(&files);
	return out;
}

static void dropins(void **state)
{
	struct root_fixture *fx = *state;

	sh(fx->root, "printf '[Match]\\nName=en*\\n' >run/systemd/network/10-a.network && "
		     "mkdir -p etc/systemd/network/10-a.network.d run/systemd/network/10-a.network.d "
		     "usr/lib/systemd/network/10-a.network.d");
	assert_string_equal(taken_by(fx, &port), "/run/systemd/network/10-a.network managed");
	/* a drop-in in any directory of the search path changes the file */
	sh(fx->root, "printf '[Link]\\nUnmanaged=yes\\n' "
		     ">usr/lib/systemd/network/10-a.network.d/50-off.conf");
	assert_string_equal(taken_by(fx, &port), "/run/systemd/network/10-a.network unmanaged");
	/* the same name in an earlier directory hides it: here an empty one */
	sh(fx->root, ": >etc/systemd/network/10-a.network.d/50-off.conf");
	assert_string_equal(taken_by(fx, &port), "/run/systemd/network/10-a.network managed");
	/* and a symlink to /dev/null */
	sh(fx->root, "rm etc/systemd/network/10-a.network.d/50-off.conf && "
		     "ln -s /dev/null etc/systemd/network/10-a.network.d/50-off.conf");
	assert_string_equal(taken_by(fx, &port), "/run/systemd/network/10-a.network managed");
	/* applied in lexical order of names, whatever the directory */
	sh(fx->root, "printf '[Link]\\nUnmanaged=yes\\n' >usr/lib/systemd/network/10-a.network.d/20-on.conf && "
		     "printf '[Link]\\nUnmanaged=no\\n' >etc/systemd/network/10-a.network.d/30-no.conf && "
		     "printf '[Link]\\nUnmanaged=yes\\n' >run/systemd/network/10-a.network.d/40-yes.conf");
	assert_string_equal(taken_by(fx, &port), "/run/systemd/network/10-a.network unmanaged");
	/* other names, hidden ones and directories are no drop-ins */
	sh(fx->root, "rm run/systemd/network/10-a.network.d/40-yes.conf && "
		     "printf '[Link]\\nUnmanaged=yes\\n' >run/systemd/network/10-a.network.d/90-x.conf~ && "
		     "printf '[Link]\\nUnmanaged=yes\\n' >run/systemd/network/10-a.network.d/.90-x.conf && "
		     "mkdir run/systemd/network/10-a.network.d/90-dir.conf");
	assert_string_equal(taken_by(fx, &port), "/run/systemd/network/10-a.network managed");
	/* [Match] after the file's own: an empty Name= resets the list */
	sh(fx->root, "printf '[Match]\\nName=\\nName=zz*\\n' >etc/systemd/network/10-a.network.d/60-match.conf");
	assert_string_equal(taken_by(fx, &port), "");
	/* a masked file's drop-ins are never opened */
	sh(fx->root, "mkfifo etc/systemd/network/10-a.network.d/70-fifo.conf && "
		     ": >etc/systemd/network/10-a.network");
	assert_string_equal(taken_by(fx, &port), "");
	/* a bad drop-in: an error naming it */
	sh(fx->root, "rm etc/systemd/network/10-a.network etc/systemd/network/10-a.network.d/60-match.conf");
	bad_file(fx, ":", "/etc/systemd/network/10-a.network.d/70-fifo.conf", "FIFO");
	bad_file(fx, "rm etc/systemd/network/10-a.network.d/70-fifo.conf && "
		     "ln -s ../../../../etc/passwd etc/systemd/network/10-a.network.d/70-x.conf",
		 "/etc/systemd/network/10-a.network.d/70-x.conf", "symbolic link");
}

static void runtime_record(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_networkd_state st;
	char *why = NULL;

	assert_int_equal(halo_networkd_link_state(&fx->ctx, 7, &st, &why), -ENOENT);
	assert_null(why);
	sh(fx->root, "mkdir -p run/systemd/netif/links && "
		     "printf 'ADMIN_STATE=configured\\nNETWORK_FILE=/run/systemd/network/a.network\\n' "
		     ">run/systemd/netif/links/7 && mkfifo run/systemd/netif/links/8");
	assert_int_equal(halo_networkd_link_state(&fx->ctx, 7, &st, &why), 0);
	assert_string_equal(st.network_file, "/run/systemd/network/a.network");
	assert_true(halo_networkd_link_state(&fx->ctx, 8, &st, &why) < 0);
	assert_non_null(strstr(why, "/run/systemd/netif/links/8"));
	free(why);
}

static void presence(void **state)
{
	struct root_fixture *fx = *state;

	assert_false(halo_networkd_present(&fx->ctx));
	sh(fx->root, "mkdir -p usr/lib/systemd etc/systemd/system/multi-user.target.wants && "
		     ": >usr/lib/systemd/systemd-networkd");
	assert_false(halo_networkd_present(&fx->ctx)); /* installed, not enabled */
	sh(fx->root, "ln -s /lib/systemd/system/systemd-networkd.service "
		     "etc/systemd/system/multi-user.target.wants/");
	assert_true(halo_networkd_present(&fx->ctx));
	sh(fx->root, "ln -s /dev/null etc/systemd/system/systemd-networkd.service");
	assert_false(halo_networkd_present(&fx->ctx)); /* masked */
	sh(fx->root, "rm etc/systemd/system/systemd-networkd.service "
		     "etc/systemd/system/multi-user.target.wants/systemd-networkd.service && "
		     "mkdir -p run/systemd/netif/links");
	assert_true(halo_networkd_present(&fx->ctx)); /* running */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(match_table),
		cmocka_unit_test(unmanaged_key),
		cmocka_unit_test(mac_syntax),
		cmocka_unit_test(state_record),
		cmocka_unit_test_setup_teardown(search_path, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(bad_inputs, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(dropins, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(runtime_record, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(presence, fx_setup, root_fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
