/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-validate.c: cross-field checks (validate.c). */
#include <errno.h>

#include "config-test.h"

#define ROCE_IF(roce) "interfaces = ( { name = \"rdma0\";\n  roce = { " roce " };\n} );\n"

static void tos_pfc_consistent(void **state)
{
	struct halo_config *c;

	assert_config_ok(ROCE_IF("trust = \"dscp\"; pfc = [ 3 ]; dscp_prio = ( [ 26, 3 ] ); tos = 106;"), &c);
	assert_int_equal(c->interfaces[0].roce.tos, 106);
	assert_int_equal(c->interfaces[0].roce.pfc_mask, 1u << 3);
	halo_config_free(c);
	/* No tos or no pfc: nothing to cross-check. */
	assert_config_ok(ROCE_IF("pfc = [ 3 ];"), NULL);
	assert_config_ok(ROCE_IF("tos = 106;"), NULL);
}

static void tos_maps_to_prio_without_pfc(void **state)
{
	assert_config_errors(ROCE_IF("trust = \"dscp\"; pfc = [ 3, 5 ]; dscp_prio = ( [ 26, 2 ] );\n tos = 106;"),
			     "halo.conf:3: interfaces[0].roce.tos: 106 (DSCP 26) maps to priority 2 "
			     "(dscp_prio, line 2), which has no PFC (pfc = [ 3, 5 ])");
}

static void tos_without_mapping(void **state)
{
	assert_config_errors(ROCE_IF("pfc = [ 3 ]; dscp_prio = ( [ 48, 6 ] ); tos = 106;"),
			     "halo.conf:2: interfaces[0].roce.tos: 106 (DSCP 26) selects no PFC "
			     "priority: dscp_prio has no entry for DSCP 26 (e.g. [ 26, 3 ])");
	/* No DSCP entry, no trust: the port is in L2 mode (docs/hardware.md "E810 (ice): DCB"). */
	assert_config_errors(ROCE_IF("pfc = [ ]; tos = 106;"),
			     "halo.conf:2: interfaces[0].roce.tos: 106 (DSCP 26) selects no PFC "
			     "priority: dscp_prio has no entry for DSCP 26 and pfc is empty; "
			     "in L2 mode the kernel maps ToS 106 to priority 2");
	assert_config_errors(ROCE_IF("pfc = [ 3 ]; tos = 106;"),
			     "halo.conf:2: interfaces[0].roce.tos: 106 (DSCP 26) selects no PFC "
			     "priority: dscp_prio has no entry for DSCP 26 (e.g. [ 26, 3 ]); "
			     "in L2 mode the kernel maps ToS 106 to priority 2, not 3");
	/* trust = "dscp" explicitly: no L2 note (the missing map is its own error) */
	assert_config_errors(ROCE_IF("trust = \"dscp\"; pfc = [ 3 ]; tos = 106;"),
			     "halo.conf:2: interfaces[0].roce.tos: 106 (DSCP 26) selects no PFC "
			     "priority: dscp_prio has no entry for DSCP 26 (e.g. [ 26, 3 ])\n"
			     "halo.conf:2: interface \"rdma0\": roce.trust: \"dscp\" needs dscp_prio "
			     "entries (ice and mlx5 trust DSCP while the APP table has a DSCP entry)");
}

static void tos_with_trust_pcp(void **state)
{
	assert_config_errors(ROCE_IF("trust = \"pcp\"; pfc = [ 3 ]; tos = 106;"),
			     "halo.conf:2: interfaces[0].roce.tos: 106 (DSCP 26) selects no PFC "
			     "priority with trust = \"pcp\"; set trust = \"dscp\" and map DSCP 26 in dscp_prio; "
			     "in L2 mode the kernel maps ToS 106 to priority 2, not 3");
	/* ip_tos2prio of other ToS values; a PFC set holding it: no "not" */
	assert_config_errors(ROCE_IF("trust = \"pcp\"; pfc = [ 3 ]; tos = 184;"),
			     "halo.conf:2: interfaces[0].roce.tos: 184 (DSCP 46) selects no PFC "
			     "priority with trust = \"pcp\"; set trust = \"dscp\" and map DSCP 46 in dscp_prio; "
			     "in L2 mode the kernel maps ToS 184 to priority 4, not 3");
	assert_config_errors(ROCE_IF("trust = \"pcp\"; pfc = [ 2, 3 ]; tos = 106;"),
			     "halo.conf:2: interfaces[0].roce.tos: 106 (DSCP 26) selects no PFC "
			     "priority with trust = \"pcp\"; set trust = \"dscp\" and map DSCP 26 in dscp_prio; "
			     "in L2 mode the kernel maps ToS 106 to priority 2");
	assert_config_errors(ROCE_IF("trust = \"pcp\"; dscp_prio = ( [ 26, 3 ] );"),
			     "halo.conf:2: interfaces[0].roce.dscp_prio: DSCP mappings contradict "
			     "trust = \"pcp\"");
}

/* trust = "dscp" means "at least one DSCP APP entry": without dscp_prio
 * there is nothing to trust. Refused at load, at the roce group's line,
 * in the planner's words. */
static void trust_dscp_needs_map(void **state)
{
	(void)state;
	assert_config_errors("interfaces = ( { name = \"rdma0\";\n"
			     "  mtu = 9000;\n  roce = {\n    trust = \"dscp\";\n  };\n} );\n",
			     "halo.conf:3: interface \"rdma0\": roce.trust: \"dscp\" needs dscp_prio "
			     "entries (ice and mlx5 trust DSCP while the APP table has a DSCP entry)");
	/* each entry on its own */
	assert_config_errors("interfaces = ( { name = \"a\"; roce = { trust = \"dscp\"; }; },\n"
			     "  { name = \"b\"; roce = { trust = \"dscp\"; dscp_prio = ( [ 26, 3 ] ); }; },\n"
			     "  { name = \"c\"; roce = { trust = \"dscp\"; dscp_prio = ( ); }; } );\n",
			     "halo.conf:1: interface \"a\": roce.trust: \"dscp\" needs dscp_prio "
			     "entries (ice and mlx5 trust DSCP while the APP table has a DSCP entry)\n"
			     "halo.conf:3: interface \"c\": roce.trust: \"dscp\" needs dscp_prio "
			     "entries (ice and mlx5 trust DSCP while the APP table has a DSCP entry)");
	assert_config_ok(ROCE_IF("trust = \"dscp\"; dscp_prio = ( [ 26, 3 ] );"), NULL);
	assert_config_ok(ROCE_IF("trust = \"pcp\";"), NULL);
}

static void duplicate_addresses(void **state)
{
	assert_config_errors("interfaces = (\n"
			     "  { name = \"rdma0\"; addresses = [ \"192.168.100.1/30\", \"fd00::1/64\" ]; },\n"
			     "  { name = \"rdma1\"; addresses = [ \"192.168.100.1/24\",\n"
			     "    \"FD00::1/128\", \"192.168.101.1/30\", \"192.168.101.1/31\" ]; }\n);\n",
			     "halo.conf:3: interfaces[1].addresses: address 192.168.100.1/24 is already "
			     "on interfaces[0] (line 2)\n"
			     "halo.conf:4: interfaces[1].addresses: address FD00::1/128 is already "
			     "on interfaces[0] (line 2)\n"
			     "halo.conf:4: interfaces[1].addresses: address 192.168.101.1/31 is already "
			     "on interfaces[1] (line 4)");
}

static void duplicate_links(void **state)
{
	assert_config_errors("interfaces = (\n"
			     "  { name = \"rdma0\"; match = { mac = \"B4:96:91:AA:BB:01\"; pci = \"0000:C2:00.0\"; }; },\n"
			     "  { name = \"rdma0\"; },\n"
			     "  { name = \"rdma1\"; match = { mac = \"b4:96:91:aa:bb:01\"; }; },\n"
			     "  { name = \"rdma2\"; match = { pci = \"0000:c2:00.0\"; }; }\n);\n",
			     "halo.conf:3: interfaces[1]: name rdma0 is already used by interfaces[0] (line 2)\n"
			     "halo.conf:4: interfaces[2]: match.mac b4:96:91:aa:bb:01 is already used by "
			     "interfaces[0] (line 2)\n"
			     "halo.conf:5: interfaces[3]: match.pci 0000:c2:00.0 is already used by "
			     "interfaces[0] (line 2)");
}

static void duplicate_storage(void **state)
{
	assert_config_errors("storage = (\n  { what = \"LABEL=a\"; where = \"/models\"; },\n"
			     "  { what = \"LABEL=b\";\n    where = \"/models\"; }\n);\n",
			     "halo.conf:4: storage[1].where: /models is already mounted by storage[0] (line 2)");
}

static void gateway_on_link(void **state)
{
	assert_config_ok("interfaces = ( { name = \"rdma0\"; addresses = [ \"192.168.100.1/30\", \"fd00::1/64\" ];\n"
			 "  routes = ( { to = \"10.0.2.0/24\"; via = \"192.168.100.2\"; },\n"
			 "             { to = \"default\"; via = \"fd00::fe\"; } ); },\n"
			 /* No addresses listed: they come from elsewhere. */
			 "  { name = \"eth0\"; routes = ( { to = \"default\"; via = \"10.9.9.9\"; } ); } );\n",
			 NULL);
	assert_config_errors("interfaces = ( { name = \"rdma0\"; addresses = [ \"192.168.100.1/30\" ];\n"
			     "  routes = ( { to = \"10.0.2.0/24\"; via = \"192.168.100.5\"; },\n"
			     "             { to = \"fd00:2::/64\"; via = \"fd00::fe\"; } ); } );\n",
			     "halo.conf:2: interfaces[0].routes[0]: via 192.168.100.5 is not within any "
			     "of the interface's addresses");
}

/* A gateway is a host of the subnet it is reached on: not the subnet's
 * broadcast (the kernel: "Nexthop has invalid gateway"), network address
 * or the interface's own address. */
static void gateway_is_a_host(void **state)
{
	assert_config_errors("interfaces = ( { name = \"rdma0\";\n"
			     "  addresses = [ \"192.168.50.1/24\", \"fd00::1/64\", \"10.0.0.1/31\" ];\n"
			     "  routes = ( { to = \"10.20.0.0/16\"; via = \"192.168.50.255\"; },\n"
			     "    { to = \"10.21.0.0/16\"; via = \"192.168.50.0\"; },\n"
			     "    { to = \"10.22.0.0/16\"; via = \"192.168.50.1\"; },\n"
			     "    { to = \"fd00:2::/64\"; via = \"fd00::\"; },\n"
			     "    { to = \"fd00:3::/64\"; via = \"fd00::1\"; } ); } );\n",
			     "halo.conf:3: interfaces[0].routes[0]: via 192.168.50.255 is the broadcast address "
			     "of 192.168.50.0/24 (line 2), not a host address\n"
			     "halo.conf:4: interfaces[0].routes[1]: via 192.168.50.0 is the network address "
			     "of 192.168.50.0/24 (line 2), not a host address\n"
			     "halo.conf:5: interfaces[0].routes[2]: via 192.168.50.1 is the interface's own "
			     "address (line 2), not a router\n"
			     "halo.conf:6: interfaces[0].routes[3]: via fd00:: is the subnet-router anycast "
			     "address of fd00::/64 (line 2), not a host address\n"
			     "halo.conf:7: interfaces[0].routes[4]: via fd00::1 is the interface's own "
			     "address (line 2), not a router");
	/* Both ends of a /31 are hosts; IPv6 link-local routers are on-link
	 * on every interface. */
	assert_config_ok("interfaces = ( { name = \"rdma0\"; addresses = [ \"10.0.0.1/31\", \"fd00::1/64\" ];\n"
			 "  routes = ( { to = \"10.20.0.0/16\"; via = \"10.0.0.0\"; },\n"
			 "    { to = \"default\"; via = \"fe80::1\"; } ); } );\n", NULL);
}

/* "default" is 0.0.0.0/0 (or ::/0 with an IPv6 gateway), and an IPv6
 * network has more than one spelling. */
static void duplicate_routes(void **state)
{
	assert_config_errors("interfaces = ( { name = \"rdma0\";\n"
			     "  routes = ( { to = \"default\"; via = \"10.0.0.254\"; },\n"
			     "    { to = \"0.0.0.0/0\"; via = \"10.0.0.253\"; },\n"
			     "    { to = \"fd00:2::/64\"; },\n"
			     "    { to = \"FD00:2:0::/64\"; },\n"
			     "    { to = \"default\"; via = \"fd00::fe\"; },\n"
			     "    { to = \"::/0\"; } ); } );\n",
			     "halo.conf:3: interfaces[0].routes[1]: a route to 0.0.0.0/0 is already given at line 2\n"
			     "halo.conf:5: interfaces[0].routes[3]: a route to FD00:2:0::/64 is already given at line 4\n"
			     "halo.conf:7: interfaces[0].routes[5]: a route to ::/0 is already given at line 6");
	/* Another metric, another family: other routes. */
	assert_config_ok("interfaces = ( { name = \"rdma0\";\n"
			 "  routes = ( { to = \"default\"; via = \"10.0.0.254\"; },\n"
			 "    { to = \"default\"; via = \"10.0.0.253\"; metric = 10; },\n"
			 "    { to = \"default\"; via = \"fd00::fe\"; } ); } );\n", NULL);
}

/* Two outputs in one file would overwrite each other on every run. */
static void outputs_distinct(void **state)
{
	assert_config_errors("state = {\n  prometheus = \"/var/lib/halo-provision/state.json\";\n"
			     "  env_file = \"/var/lib/halo-provision/state.json/rccl.env\";\n};\n",
			     "halo.conf:2: state.prometheus: /var/lib/halo-provision/state.json is also "
			     "state.path (the default); each output needs a file of its own\n"
			     "halo.conf:3: state.env_file: /var/lib/halo-provision/state.json/rccl.env is "
			     "inside state.path (the default), which is a file");
	assert_config_errors("state = {\n  path = \"/var/lib/halo/x\";\n"
			     "  env_file = \"/var/lib/halo/x\";\n  prometheus = \"/var/lib/halo/x\";\n};\n",
			     "halo.conf:4: state.prometheus: /var/lib/halo/x is also state.path (line 2); "
			     "each output needs a file of its own\n"
			     "halo.conf:3: state.env_file: /var/lib/halo/x is also state.path (line 2); "
			     "each output needs a file of its own");
	assert_config_ok("state = { path = \"/var/lib/halo/state.json\"; env_file = \"/var/lib/halo/state.json.env\"; };\n",
			 NULL);
}

/* The config file named by an absolute path is not an output either. */
static void output_is_config_file(void **state)
{
	struct halo_errors errs = { 0 };
	struct halo_config *c = NULL;

	assert_int_equal(halo_config_load_string("/etc/halo.conf", "state = {\n"
						 "  env_file = \"/etc/halo.conf\"; };\n", &c, &errs),
			 -EINVAL);
	assert_null(c);
	assert_int_equal(errs.n, 1);
	assert_string_equal(errs.msgs[0], "/etc/halo.conf:2: state.env_file: /etc/halo.conf "
			    "is the config file itself");
	halo_errors_free(&errs);
}

static void index_survives_bad_entry(void **state)
{
	/* interfaces[1] is not a group; interfaces[2] keeps its index. */
	assert_config_errors("interfaces = ( { name = \"a\"; }, 5, { name = \"a\"; } );\n",
			     "halo.conf:1: interfaces[1]: expected a group, got an integer\n"
			     "halo.conf:1: interfaces[2]: name a is already used by interfaces[0] (line 1)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tos_pfc_consistent),
		cmocka_unit_test(tos_maps_to_prio_without_pfc),
		cmocka_unit_test(tos_without_mapping),
		cmocka_unit_test(tos_with_trust_pcp),
		cmocka_unit_test(trust_dscp_needs_map),
		cmocka_unit_test(duplicate_addresses),
		cmocka_unit_test(duplicate_links),
		cmocka_unit_test(duplicate_storage),
		cmocka_unit_test(gateway_on_link),
		cmocka_unit_test(gateway_is_a_host),
		cmocka_unit_test(duplicate_routes),
		cmocka_unit_test(outputs_distinct),
		cmocka_unit_test(output_is_config_file),
		cmocka_unit_test(index_survives_bad_entry),
	};

	return cmocka_run_group_tests_name("config-validate", tests, NULL, NULL);
}
