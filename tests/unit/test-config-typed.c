/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-typed.c: the typed fields the loader fills once (addresses,
 * routes, match, enums, module names), which the subsystems read instead
 * of parsing strings again. */
#include <arpa/inet.h>
#include <sys/socket.h>
#include "config-test.h"

static void addr_text(const struct halo_cidr *c, char *buf, size_t len)
{
	halo_cidr_format(c, buf, len);
}

static void addresses(void **state)
{
	struct halo_config *c;
	const struct halo_interface *it;
	char buf[64];

	assert_config_ok("interfaces = ( { name = \"a\";\n"
			 "  addresses = [ \"192.168.1.5/24\",\n"
			 "    \"FD00:0:0::1/64\" ]; } );\n", &c);
	it = &c->interfaces[0];
	assert_int_equal(it->addresses.n, 2);
	addr_text(&it->addresses.v[0].cidr, buf, sizeof(buf));
	assert_string_equal(buf, "192.168.1.5/24");
	assert_int_equal(it->addresses.v[0].line, 2);
	assert_int_equal(it->addresses.v[1].cidr.family, AF_INET6);
	addr_text(&it->addresses.v[1].cidr, buf, sizeof(buf));
	assert_string_equal(buf, "fd00::1/64");
	/* One element: the typed address and the text as written. */
	assert_string_equal(it->addresses.v[1].text, "FD00:0:0::1/64");
	assert_int_equal(it->addresses.v[1].line, 3);
	halo_config_free(c);
}

static void routes(void **state)
{
	struct halo_config *c;
	const struct halo_route *r;
	char buf[64];

	assert_config_ok("interfaces = ( { name = \"a\";\n"
			 "  addresses = [ \"192.168.1.5/24\", \"fd00::5/64\" ];\n"
			 "  routes = ( { to = \"default\"; via = \"fd00::1\"; },\n"
			 "    { to = \"default\"; metric = 5; },\n"
			 "    { to = \"10.1.0.0/16\"; via = \"192.168.1.1\"; metric = 7; },\n"
			 "    { to = \"fd01::/48\"; } ); } );\n", &c);
	r = c->interfaces[0].routes;
	assert_int_equal(c->interfaces[0].n_routes, 4);
	/* "default" takes its gateway's family... */
	assert_true(r[0].dst_default);
	assert_int_equal(r[0].dst.family, AF_INET6);
	assert_int_equal(r[0].dst.prefixlen, 0);
	assert_true(r[0].has_gateway);
	assert_int_equal(r[0].gateway.family, AF_INET6);
	assert_int_equal(r[0].gateway.prefixlen, 128);
	halo_cidr_format_addr(&r[0].gateway, buf, sizeof(buf));
	assert_string_equal(buf, "fd00::1");
	/* ... and is IPv4 without one. */
	assert_true(r[1].dst_default);
	assert_int_equal(r[1].dst.family, AF_INET);
	assert_int_equal(r[1].dst.prefixlen, 0);
	assert_false(r[1].has_gateway);
	assert_int_equal(r[1].metric, 5);
	assert_false(r[2].dst_default);
	halo_cidr_format(&r[2].dst, buf, sizeof(buf));
	assert_string_equal(buf, "10.1.0.0/16");
	halo_cidr_format_addr(&r[2].gateway, buf, sizeof(buf));
	assert_string_equal(buf, "192.168.1.1");
	assert_int_equal(r[2].metric, 7);
	halo_cidr_format(&r[3].dst, buf, sizeof(buf));
	assert_string_equal(buf, "fd01::/48");
	assert_false(r[3].has_gateway);
	halo_config_free(c);
}

/* "default" and 0.0.0.0/0 are one route; a default via an IPv6 gateway
 * is a different one. A CIDR and a gateway of two families: at load, not
 * when links plans ("mixes IPv4 and IPv6" there is unreachable). */
static void route_conflicts(void **state)
{
	assert_config_errors("interfaces = ( { name = \"a\";\n"
			     "  routes = ( { to = \"default\"; },\n"
			     "    { to = \"0.0.0.0/0\"; } ); } );\n",
			     "halo.conf:3: interfaces[0].routes[1]: a route to 0.0.0.0/0 is "
			     "already given at line 2");
	assert_config_ok("interfaces = ( { name = \"a\";\n"
			 "  routes = ( { to = \"default\"; via = \"fe80::1\"; },\n"
			 "    { to = \"0.0.0.0/0\"; } ); } );\n", NULL);
	assert_config_errors("interfaces = ( { name = \"a\";\n"
			     "  routes = ( { to = \"::/0\"; via = \"10.0.0.1\"; } ); } );\n",
			     "halo.conf:2: interfaces[0].routes[0]: via 10.0.0.1 is not of the "
			     "same address family as ::/0");
}

static void match(void **state)
{
	struct halo_config *c;
	const struct halo_interface *it;
	char buf[32];

	assert_config_ok("interfaces = ( { name = \"a\";\n"
			 "  match = { mac = \"0C:42:A1:0B:cd:EF\"; pci = \"0001:C2:1f.7\"; }; },\n"
			 "  { name = \"b\"; match = { driver = \"ice\"; }; } );\n", &c);
	it = &c->interfaces[0];
	assert_true(it->match.has_mac);
	halo_mac_format(&it->match.mac, buf, sizeof(buf));
	assert_string_equal(buf, "0c:42:a1:0b:cd:ef");
	assert_true(it->match.has_pci);
	assert_int_equal(it->match.pci.domain, 1);
	assert_int_equal(it->match.pci.bus, 0xc2);
	assert_int_equal(it->match.pci.device, 0x1f);
	assert_int_equal(it->match.pci.function, 7);
	halo_pci_format(&it->match.pci, buf, sizeof(buf));
	assert_string_equal(buf, "0001:c2:1f.7");
	it = &c->interfaces[1];
	assert_false(it->match.has_mac || it->match.has_pci);
	assert_string_equal(it->match_driver, "ice");
	halo_config_free(c);

	/* Duplicates compare the values, whatever the case written. */
	assert_config_errors("interfaces = ( { name = \"a\"; match = { mac = \"0c:42:a1:0b:cd:ef\"; "
			     "pci = \"0000:c2:00.0\"; }; },\n"
			     "  { name = \"b\"; match = { mac = \"0C:42:A1:0B:CD:EF\"; "
			     "pci = \"0000:C2:00.0\"; }; } );\n",
			     "halo.conf:2: interfaces[1]: match.mac 0c:42:a1:0b:cd:ef is already "
			     "used by interfaces[0] (line 1)\n"
			     "halo.conf:2: interfaces[1]: match.pci 0000:c2:00.0 is already "
			     "used by interfaces[0] (line 1)");
}

static void enums(void **state)
{
	struct halo_config *c;

	assert_config_ok("boot = { iommu = \"soft\"; pcie_aspm = \"force\"; loader = \"grub-dropin\";\n"
			 "  gtt_params = \"ttm+gttsize\"; };\n"
			 "interfaces = ( { name = \"a\"; roce = { dcbx = \"firmware\"; "
			 "trust = \"pcp\"; }; } );\n", &c);
	assert_int_equal(c->boot.iommu, HALO_IOMMU_SOFT);
	assert_int_equal(c->boot.pcie_aspm, HALO_PCIE_ASPM_FORCE);
	assert_int_equal(c->boot.loader, HALO_LOADER_GRUB_DROPIN);
	assert_int_equal(c->boot.gtt_params, HALO_GTT_PARAMS_TTM_GTTSIZE);
	assert_int_equal(c->interfaces[0].roce.dcbx, HALO_DCBX_FIRMWARE);
	assert_int_equal(c->interfaces[0].roce.trust, HALO_TRUST_PCP);
	halo_config_free(c);

	assert_config_ok("boot = { iommu = \"pt\"; };\n"
			 "interfaces = ( { name = \"a\"; roce = { dcbx = \"host\"; "
			 "trust = \"dscp\"; dscp_prio = ( [ 26, 3 ] ); }; } );\n", &c);
	assert_int_equal(c->boot.iommu, HALO_IOMMU_PT);
	assert_int_equal(c->boot.pcie_aspm, HALO_PCIE_ASPM_UNSET);
	assert_int_equal(c->boot.loader, HALO_LOADER_AUTO);
	assert_int_equal(c->interfaces[0].roce.dcbx, HALO_DCBX_HOST);
	assert_int_equal(c->interfaces[0].roce.trust, HALO_TRUST_DSCP);
	halo_config_free(c);
}

/* Every keyword maps back to itself: name(parse(k)) == k. */
static void enum_names(void **state)
{
	static const char *const iommu[] = { "pt", "nopt", "off", "force", "soft" };
	static const char *const loaders[] = {
		"auto", "grub", "grub-dropin", "bls", "kernel-cmdline", "none",
	};
	static const char *const gtt[] = { "auto", "ttm", "amdttm", "ttm+gttsize" };
	char text[128];

	for (size_t i = 0; i < sizeof(iommu) / sizeof(iommu[0]); i++) {
		struct halo_config *c;

		snprintf(text, sizeof(text), "boot = { iommu = \"%s\"; };", iommu[i]);
		assert_config_ok(text, &c);
		assert_string_equal(halo_iommu_mode_name(c->boot.iommu), iommu[i]);
		halo_config_free(c);
	}
	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++)
		assert_string_equal(halo_boot_loader_name((enum halo_boot_loader)i), loaders[i]);
	for (size_t i = 0; i < sizeof(gtt) / sizeof(gtt[0]); i++)
		assert_string_equal(halo_gtt_params_name((enum halo_gtt_params)i), gtt[i]);
	assert_null(halo_boot_loader_name((enum halo_boot_loader)6));
	assert_null(halo_boot_loader_name((enum halo_boot_loader)-1));
	assert_null(halo_iommu_mode_name(HALO_IOMMU_UNSET));
	assert_null(halo_iommu_mode_name((enum halo_iommu_mode)6));
	assert_string_equal(halo_pcie_aspm_name(HALO_PCIE_ASPM_OFF), "off");
	assert_string_equal(halo_pcie_aspm_name(HALO_PCIE_ASPM_FORCE), "force");
	assert_null(halo_pcie_aspm_name(HALO_PCIE_ASPM_UNSET));
	assert_string_equal(halo_dcbx_mode_name(HALO_DCBX_HOST), "host");
	assert_string_equal(halo_dcbx_mode_name(HALO_DCBX_FIRMWARE), "firmware");
	assert_null(halo_dcbx_mode_name(HALO_DCBX_UNSET));
	assert_string_equal(halo_trust_mode_name(HALO_TRUST_DSCP), "dscp");
	assert_string_equal(halo_trust_mode_name(HALO_TRUST_PCP), "pcp");
	assert_null(halo_trust_mode_name(HALO_TRUST_UNSET));
	assert_null(halo_trust_mode_name((enum halo_trust_mode)3));
}

static void module_names(void **state)
{
	struct halo_config *c;

	assert_config_ok("modules = { load = [ \"ib-uverbs\", \"rdma_ucm\" ];\n"
			 "  options = { mlx5-core = \"prof_sel=2\"; };\n"
			 "  blacklist = [ \"snd-hda-intel\" ]; };\n", &c);
	assert_string_equal(c->modules.load.v[0], "ib_uverbs");
	assert_string_equal(c->modules.load.v[1], "rdma_ucm");
	assert_string_equal(c->modules.options[0].module, "mlx5_core");
	assert_string_equal(c->modules.blacklist.v[0], "snd_hda_intel");
	halo_config_free(c);
	/* One module, two spellings. */
	assert_config_errors("modules = { load = [ \"ib_uverbs\" ];\n"
			     "  blacklist = [ \"ib-uverbs\" ]; };\n",
			     "halo.conf:2: modules.blacklist: \"ib_uverbs\" is also in "
			     "modules.load (line 1)");
}

/* An address on two entries is refused at load, before any host state is
 * read (as written in the message); IPv6 link-local addresses are per link
 * and may repeat. */
static void duplicate_addresses(void **state)
{
	assert_config_errors("interfaces = ( { name = \"a\"; addresses = [ \"10.0.0.1/24\" ]; },\n"
			     "  { name = \"b\"; addresses = [ \"10.0.0.1/16\" ]; } );\n",
			     "halo.conf:2: interfaces[1].addresses: address 10.0.0.1/16 is "
			     "already on interfaces[0] (line 1)");
	assert_config_errors("interfaces = ( { name = \"a\"; addresses = [ \"fd00::1/64\" ]; },\n"
			     "  { name = \"b\"; addresses = [ \"FD00::1/64\" ]; } );\n",
			     "halo.conf:2: interfaces[1].addresses: address FD00::1/64 is "
			     "already on interfaces[0] (line 1)");
	assert_config_ok("interfaces = ( { name = \"a\"; addresses = [ \"fe80::1/64\" ]; },\n"
			 "  { name = \"b\"; addresses = [ \"fe80::1/64\" ]; } );\n", NULL);
	/* Within one entry: the same text is listed twice, the same
	 * address in another spelling is already there. */
	assert_config_errors("interfaces = ( { name = \"a\";\n  addresses = [ \"10.0.0.1/24\",\n"
			     "    \"10.0.0.1/24\" ]; } );\n",
			     "halo.conf:3: interfaces[0].addresses[1]: \"10.0.0.1/24\" is listed "
			     "twice (first at line 2)");
	assert_config_errors("interfaces = ( { name = \"a\";\n  addresses = [ \"fd00::1/64\",\n"
			     "    \"FD00:0::1/64\" ]; } );\n",
			     "halo.conf:3: interfaces[0].addresses: address FD00:0::1/64 is already "
			     "on interfaces[0] (line 2)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(addresses),
		cmocka_unit_test(routes),
		cmocka_unit_test(route_conflicts),
		cmocka_unit_test(match),
		cmocka_unit_test(enums),
		cmocka_unit_test(enum_names),
		cmocka_unit_test(module_names),
		cmocka_unit_test(duplicate_addresses),
	};

	return cmocka_run_group_tests_name("config-typed", tests, NULL, NULL);
}
