/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-errors.c: one test per class of bad input, each asserting the
 * exact one-line message and its line. */
#include "config-test.h"

static void syntax_error(void **state)
{
	assert_config_errors("version = 1;\nboot = {\n  loader = ;\n};\n",
			     "halo.conf:3: syntax error");
}

/* libconfig's bare "syntax error" gets the likely mistake on its line. */
static void syntax_error_hints(void **state)
{
	assert_config_errors("version = 1;\nboot = { iommu = pt; };\n",
			     "halo.conf:2: syntax error: pt is not quoted: strings are in double "
			     "quotes (\"pt\")");
	assert_config_errors("version = 1;\nmodules = { load = [ \"irdma\", ice ]; };\n",
			     "halo.conf:2: syntax error: ice is not quoted: strings are in double "
			     "quotes (\"ice\")");
	assert_config_errors("version = 1;\nboot = { extra = [ \"quiet\", ]; };\n",
			     "halo.conf:2: syntax error: a ',' before ']': libconfig takes none "
			     "after the last element");
	/* The comma on the line before the closer libconfig stopped at. */
	assert_config_errors("version = 1;\nstorage = (\n  { what = \"LABEL=m\"; where = \"/m\"; },\n);\n",
			     "halo.conf:4: syntax error: a ',' before ')': libconfig takes none "
			     "after the last element");
	assert_config_errors("version = 1;\nboot = { iommu = \"pt\"; };;\n",
			     "halo.conf:2: syntax error: ';;': one ';' ends a setting");
	/* Words in strings and comments, and booleans, are no mistake: the
	 * line's error stays libconfig's own. */
	assert_config_errors("version = 1;\nboot = {\n  loader = ; # not pt\n};\n",
			     "halo.conf:3: syntax error");
	assert_config_errors("version = 1;\nx = { a = \"b c\"; d = TRUE; e = ; };\n",
			     "halo.conf:2: syntax error");
}

/* libconfig reports what is left open at the end of the file, where it
 * ran out: the message points at the line that opened it. */
static void unclosed_at_end(void **state)
{
	/* The last line counted as `wc -l` and an editor do: a final newline
	 * ends the last line (here the empty line 4), it starts none. */
	assert_config_errors("version = 1;\nboot = {\n  loader = \"grub\";\n\n",
			     "halo.conf:2: the group's '{' on this line is never closed (the file ends at line 4)");
	assert_config_errors("version = 1;\nboot = {\n  loader = \"grub\";\n",
			     "halo.conf:2: the group's '{' on this line is never closed (the file ends at line 3)");
	assert_config_errors("version = 1;\r\nboot = {\r\n  loader = \"grub\";\r\n",
			     "halo.conf:2: the group's '{' on this line is never closed (the file ends at line 3)");
	/* No newline at the end: the last line is where it ends. */
	assert_config_errors("version = 1;\nboot = {\n  loader = \"grub\";",
			     "halo.conf:2: the group's '{' on this line is never closed (the file ends at line 3)");
	/* The innermost one; closed ones, and braces in strings and comments,
	 * do not count. */
	assert_config_errors("version = 1;\n"
			     "interfaces = (\n"
			     "  { name = \"a{\"; mtu = 9000; },  # {\n"
			     "  { name = \"b\";  // (\n"
			     "    /* [ { */ addresses = [ \"10.0.0.1/24\" ];\n"
			     "    roce = { pfc = [ 3 ]; }\n"
			     "\n",
			     "halo.conf:4: the group's '{' on this line is never closed (the file ends at line 7)");
	assert_config_errors("version = 1;\nboot = {\n  extra = [ \"a\",\n    \"b\"\n",
			     "halo.conf:3: the array's '[' on this line is never closed (the file ends at line 4)");
	assert_config_errors("version = 1;\nstorage = (\n  { what = \"LABEL=x\"; where = \"/m\"; }\n",
			     "halo.conf:2: the list's '(' on this line is never closed (the file ends at line 3)");
	assert_config_errors("version = 1;\nboot = {\n  loader = \"grub;\n};\n",
			     "halo.conf:3: the string's opening '\"' on this line is never closed (the file ends at line 4)");
	/* An error before the end stays where libconfig found it. */
	assert_config_errors("version = 1;\nboot = {\n  loader = ;\n",
			     "halo.conf:3: syntax error");
}

/* libconfig reports a closer of the wrong kind where the closer is: the
 * message points at the bracket left open, and says what closed it where. */
static void mismatched_closer(void **state)
{
	char deep[600] = "version = 1;\nx = ";

	/* An array closed by a group's '}'. */
	assert_config_errors("version = 1;\n"
			     "boot = {\n"
			     "  extra = [ \"quiet\",\n"
			     "    \"iommu=pt\"\n"
			     "};\n",
			     "halo.conf:3: the array's '[' on this line is closed by '}' on line 5, not by ']'");
	/* A list closed by "};". */
	assert_config_errors("version = 1;\n"
			     "interfaces = (\n"
			     "  { name = \"rdma0\"; mtu = 9000; }\n"
			     "};\n",
			     "halo.conf:2: the list's '(' on this line is closed by '}' on line 4, not by ')'");
	/* A group closed by ']'. */
	assert_config_errors("version = 1;\n"
			     "firewall = {\n"
			     "  allow_udp = [ 4791 ];\n"
			     "];\n",
			     "halo.conf:2: the group's '{' on this line is closed by ']' on line 4, not by '}'");
	/* The innermost one: a group in a list that a missing '}' leaves
	 * open. */
	assert_config_errors("version = 1;\n"
			     "interfaces = (\n"
			     "  { name = \"a\"; },\n"
			     "  { name = \"b\";\n"
			     ");\n",
			     "halo.conf:4: the group's '{' on this line is closed by ')' on line 5, not by '}'");
	/* On one line. */
	assert_config_errors("version = 1;\nboot = { extra = [ \"a\" }; };\n",
			     "halo.conf:2: the array's '[' is closed by '}' on this line, not by ']'");
	/* Brackets in strings (with escaped quotes) and in comments of every
	 * kind do not count. */
	assert_config_errors("version = 1;\n"
			     "boot = {\n"
			     "  # a ] in a comment\n"
			     "  extra = [ \"a}\", // }\n"
			     "    /* ] ) }\n"
			     "       ] */ \"b\\\"]\", \"c\\\\\"\n"
			     "  );\n"
			     "};\n",
			     "halo.conf:4: the array's '[' on this line is closed by ')' on line 7, not by ']'");
	assert_config_errors("version = 1;\r\nboot = {\r\n  extra = [ \"a\"\r\n  };\r\n",
			     "halo.conf:3: the array's '[' on this line is closed by '}' on line 4, not by ']'");
	/* An error libconfig finds before the closer stays where it is. */
	assert_config_errors("version = 1;\nboot = {\n  loader = ;\n  extra = [ \"a\" };\n",
			     "halo.conf:3: syntax error");
	/* A closer with nothing open is libconfig's to report. */
	assert_config_errors("version = 1;\n};\n", "halo.conf:2: syntax error");
	/* Brackets nested too deep to follow: libconfig's words. */
	for (int i = 0; i < 130; i++)
		strcat(deep, "(");
	strcat(deep, "\n}");
	assert_config_errors(deep, "halo.conf:3: syntax error");
}

/* libconfig ends a comment at the end of the file without a word: outside
 * any group the rest of the file would be gone in silence. */
static void comment_open_at_end(void **state)
{
	char deep[600] = "version = 1;\nx = ";

	assert_config_errors("version = 1;\n/* a comment\nboot = {\n  iommu = \"pt\";\n};\n",
			     "halo.conf:2: the comment's '/*' on this line is never closed (the file ends at line 5)");
	/* Closed comments, and an opener in a string or a line comment, do
	 * not count. */
	assert_config_errors("version = 1; /* closed */\n"
			     "boot = { loader = \"/* in a string\"; }; # /* \n"
			     "// /* \n"
			     "/* open */ /* here",
			     "halo.conf:4: the comment's '/*' on this line is never closed (the file ends at line 4)");
	assert_config_ok("version = 1; /* closed */\n# /* \n// /* \n", NULL);
	/* Inside a group (libconfig's syntax error at the end). */
	assert_config_errors("version = 1;\nboot = {\n  /* iommu = \"pt\";\n};\n",
			     "halo.conf:3: the comment's '/*' on this line is never closed (the file ends at line 4)");
	/* After brackets nested too deep to follow, still found. */
	for (int i = 0; i < 130; i++)
		strcat(deep, "(");
	for (int i = 0; i < 130; i++)
		strcat(deep, ")");
	strcat(deep, ";\n/* open\n");
	assert_config_errors(deep,
			     "halo.conf:3: the comment's '/*' on this line is never closed (the file ends at line 3)");
}

static void duplicate_setting(void **state)
{
	assert_config_errors("interfaces = ( {\n  name = \"rdma0\";\n  mtu = 9000;\n  mtu = 1500;\n} );\n",
			     "halo.conf:4: \"mtu\" is set twice in the same group");
	assert_config_errors("boot = { loader = \"x=1\"; extra = []; loader = \"grub\"; };\n",
			     "halo.conf:1: duplicate setting name");
}

static void unknown_key_suggested(void **state)
{
	assert_config_errors("version = 1;\nboot = {\n  gtt_mb = 1024;\n};\n",
			     "halo.conf:3: boot: unknown key \"gtt_mb\" (did you mean \"gtt_mib\"?)");
}

static void unknown_key_everywhere(void **state)
{
	assert_config_errors("bot = {};\n"
			     "interfaces = ( { name = \"a\"; matches = {}; roce = { pfcs = [ 1 ]; }; } );\n"
			     "storage = ( { what = \"LABEL=x\"; where = \"/m\"; zzz = 1; } );\n",
			     "halo.conf:1: unknown key \"bot\" (did you mean \"boot\"?)\n"
			     "halo.conf:2: interfaces[0]: unknown key \"matches\" (did you mean \"match\"?)\n"
			     "halo.conf:2: interfaces[0].roce: unknown key \"pfcs\" (did you mean \"pfc\"?)\n"
			     "halo.conf:3: storage[0]: unknown key \"zzz\"");
}

static void wrong_type(void **state)
{
	assert_config_errors("boot = {\n  regenerate = \"yes\";\n  reserve_mib = 2048.0;\n"
			     "  extra = \"quiet\";\n};\nmodules = [ 1 ];\n",
			     "halo.conf:3: boot.reserve_mib: expected an integer, got a float\n"
			     "halo.conf:4: boot.extra: expected an array or list, got a string\n"
			     "halo.conf:2: boot.regenerate: expected a boolean, got a string\n"
			     "halo.conf:6: modules: expected a group, got an array");
}

static void out_of_range(void **state)
{
	assert_config_errors("interfaces = (\n  { name = \"rdma0\";\n    mtu = 70000; }\n);\n"
			     "firewall = { allow_udp = [ 0 ]; allow_tcp = [ 65536 ]; };\n"
			     "boot = { gtt_mib = 128; };\n",
			     "halo.conf:6: boot.gtt_mib: 128 is out of range (256..16777216)\n"
			     "halo.conf:3: interfaces[0].mtu: 70000 is out of range (68..65535)\n"
			     "halo.conf:5: firewall.allow_udp[0]: 0 is out of range (1..65535)\n"
			     "halo.conf:5: firewall.allow_tcp[0]: 65536 is out of range (1..65535)");
}

static void inexact_keyword(void **state)
{
	assert_config_errors("boot = {\n  loader = \"GRUB\";\n  iommu = \"passthrough\";\n"
			     "  gtt_params = \"ttm \";\n  pcie_aspm = \"of\";\n};\n"
			     "firewall = { backend = \"nft\"; };\n",
			     "halo.conf:2: boot.loader: \"GRUB\" is not one of auto, grub, grub-dropin, "
			     "bls, kernel-cmdline, none (did you mean \"grub\"?)\n"
			     "halo.conf:3: boot.iommu: \"passthrough\" is not one of pt, nopt, off, force, soft\n"
			     "halo.conf:4: boot.gtt_params: \"ttm \" is not one of auto, ttm, amdttm, "
			     "ttm+gttsize (did you mean \"ttm\"?)\n"
			     "halo.conf:5: boot.pcie_aspm: \"of\" is not one of off, force (did you mean \"off\"?)\n"
			     "halo.conf:7: firewall.backend: \"nft\" is not one of auto, firewalld, nftables, none");
}

static void bad_gtt_and_memlock(void **state)
{
	assert_config_errors("boot = { gtt_mib = \"Auto\"; };\naccess = { memlock = \"infinity\"; };\n"
			     "state = { path = \"state.json\"; };\n",
			     "halo.conf:1: boot.gtt_mib: \"Auto\" is neither an integer (MiB) nor \"auto\"\n"
			     "halo.conf:2: access.memlock: \"infinity\" is neither \"unlimited\" nor an integer (KiB)\n"
			     "halo.conf:3: state.path: \"state.json\" is not an absolute path");
}

static void bad_cidr(void **state)
{
	assert_config_errors("interfaces = ( {\n  name = \"rdma0\";\n"
			     "  addresses = [ \"192.168.100.1\", \"192.168.100.01/30\", \"10.0.0.1/33\", \"fe80::1/64\" ];\n"
			     "  routes = ( { to = \"10.0.2.1/24\"; via = \"192.168.100.2/30\"; },\n"
			     "             { to = \"fd00::/8\"; via = \"192.168.100.2\"; } );\n"
			     "} );\n",
			     "halo.conf:3: interfaces[0].addresses[0]: \"192.168.100.1\" has no prefix length "
			     "(write e.g. 192.168.100.1/30)\n"
			     "halo.conf:3: interfaces[0].addresses[1]: \"192.168.100.01/30\" is not an IPv4 or IPv6 "
			     "address with a prefix length (no leading zeros, prefix up to 32 or 128)\n"
			     "halo.conf:3: interfaces[0].addresses[2]: \"10.0.0.1/33\" is not an IPv4 or IPv6 "
			     "address with a prefix length (no leading zeros, prefix up to 32 or 128)\n"
			     "halo.conf:4: interfaces[0].routes[0].to: \"10.0.2.1/24\" has host bits set beyond its prefix length\n"
			     "halo.conf:4: interfaces[0].routes[0].via: \"192.168.100.2/30\" is not an IPv4 or IPv6 "
			     "address (no prefix length)\n"
			     "halo.conf:5: interfaces[0].routes[1]: via 192.168.100.2 is not of the same address family as fd00::/8");
}

/* 0.0.0.0/0 on an interface was accepted and failed only on the
 * host, after other changes. */
static void non_host_addresses(void **state)
{
	assert_config_errors("interfaces = ( { name = \"rdma0\";\n"
			     "  addresses = [ \"0.0.0.0/0\", \"192.168.1.0/24\", \"192.168.1.255/24\",\n"
			     "    \"127.0.0.1/8\", \"224.0.0.1/24\", \"255.255.255.255/32\", \"240.0.0.1/24\",\n"
			     "    \"10.1.2.3/0\", \"0.0.0.7/8\" ];\n"
			     "}, { name = \"rdma1\";\n"
			     "  addresses = [ \"::/64\", \"::1/128\", \"ff02::1/64\", \"fd00::/64\",\n"
			     "    \"::ffff:192.168.1.1/128\" ];\n"
			     "} );\n",
			     "halo.conf:2: interfaces[0].addresses[0]: \"0.0.0.0/0\" is the unspecified address "
			     "0.0.0.0, not a host address\n"
			     "halo.conf:2: interfaces[0].addresses[1]: \"192.168.1.0/24\" is the network address "
			     "of its prefix, not a host address\n"
			     "halo.conf:2: interfaces[0].addresses[2]: \"192.168.1.255/24\" is the broadcast "
			     "address of its prefix, not a host address\n"
			     "halo.conf:3: interfaces[0].addresses[3]: \"127.0.0.1/8\" is a loopback address "
			     "(127.0.0.0/8), not a host address on a network\n"
			     "halo.conf:3: interfaces[0].addresses[4]: \"224.0.0.1/24\" is a multicast address "
			     "(224.0.0.0/4), not a host address\n"
			     "halo.conf:3: interfaces[0].addresses[5]: \"255.255.255.255/32\" is the limited "
			     "broadcast address, not a host address\n"
			     "halo.conf:3: interfaces[0].addresses[6]: \"240.0.0.1/24\" is in the reserved "
			     "class E range (240.0.0.0/4), not a host address\n"
			     "halo.conf:4: interfaces[0].addresses[7]: \"10.1.2.3/0\" has prefix length 0, "
			     "which would put every destination on this link\n"
			     "halo.conf:4: interfaces[0].addresses[8]: \"0.0.0.7/8\" is in 0.0.0.0/8 "
			     "(\"this network\", RFC 1122), not a host address\n"
			     "halo.conf:6: interfaces[1].addresses[0]: \"::/64\" is the unspecified address ::, "
			     "not a host address\n"
			     "halo.conf:6: interfaces[1].addresses[1]: \"::1/128\" is the loopback address ::1, "
			     "not a host address on a network\n"
			     "halo.conf:6: interfaces[1].addresses[2]: \"ff02::1/64\" is a multicast address "
			     "(ff00::/8), not a host address\n"
			     "halo.conf:6: interfaces[1].addresses[3]: \"fd00::/64\" is the subnet-router anycast "
			     "address of its prefix (RFC 4291), not a host address\n"
			     "halo.conf:7: interfaces[1].addresses[4]: \"::ffff:192.168.1.1/128\" is an "
			     "IPv4-mapped address (::ffff:0:0/96); write the IPv4 address itself");
	/* Point-to-point prefixes: every address is a host's (RFC 3021, 6164). */
	assert_config_ok("interfaces = ( { name = \"rdma0\"; addresses = [ \"192.168.100.0/31\",\n"
			 "  \"10.0.0.255/32\", \"fd00::/127\", \"fd00:1::/128\", \"169.254.1.1/16\" ]; } );\n",
			 NULL);
}

static void non_host_gateways(void **state)
{
	assert_config_errors("interfaces = ( { name = \"rdma0\";\n"
			     "  routes = ( { to = \"10.0.2.0/24\"; via = \"0.0.0.0\"; },\n"
			     "    { to = \"10.0.3.0/24\"; via = \"224.0.0.1\"; },\n"
			     "    { to = \"fd00:2::/64\"; via = \"::1\"; },\n"
			     "    { to = \"fd00:3::/64\"; via = \"ff02::2\"; } );\n"
			     "} );\n",
			     "halo.conf:2: interfaces[0].routes[0].via: \"0.0.0.0\" is the unspecified address "
			     "0.0.0.0, not a host address\n"
			     "halo.conf:3: interfaces[0].routes[1].via: \"224.0.0.1\" is a multicast address "
			     "(224.0.0.0/4), not a host address\n"
			     "halo.conf:4: interfaces[0].routes[2].via: \"::1\" is the loopback address ::1, "
			     "not a host address on a network\n"
			     "halo.conf:5: interfaces[0].routes[3].via: \"ff02::2\" is a multicast address "
			     "(ff00::/8), not a host address");
}

static void bad_match(void **state)
{
	assert_config_errors("interfaces = ( {\n  name = \"rdma0\";\n"
			     "  match = { mac = \"b4:96:91:aa:bb\"; driver = \"ice!\"; pci = \"c2:00.0\"; };\n"
			     "}, {\n  name = \"rdma1\";\n"
			     "  match = { mac = \"01:00:5e:00:00:01\"; pci = \"0000:c2:20.0\"; };\n"
			     "}, {\n  name = \"rdma2\";\n  match = { pci = \"0000:c2:00.8\"; };\n} );\n",
			     "halo.conf:3: interfaces[0].match.mac: \"b4:96:91:aa:bb\" is not a MAC address (aa:bb:cc:dd:ee:ff)\n"
			     "halo.conf:3: interfaces[0].match.driver: \"ice!\" is not a module name "
			     "(only letters, digits, '_' and '-')\n"
			     "halo.conf:3: interfaces[0].match.pci: \"c2:00.0\" is not a full PCI address "
			     "(write the domain too, e.g. 0000:c2:00.0)\n"
			     "halo.conf:6: interfaces[1].match.mac: \"01:00:5e:00:00:01\" is a multicast MAC address, not an interface's\n"
			     "halo.conf:6: interfaces[1].match.pci: \"0000:c2:20.0\" is not a PCI address (device above 1f)\n"
			     "halo.conf:9: interfaces[2].match.pci: \"0000:c2:00.8\" is not a PCI address (function above 7)");
}

static void bad_ifname(void **state)
{
	assert_config_errors("interfaces = ( { name = \"enp194s0f0np0xyz\"; }, { name = \"a:b\"; },\n"
			     "  { name = \"\"; }, { mtu = 9000; } );\n",
			     "halo.conf:1: interfaces[0].name: \"enp194s0f0np0xyz\" is not an interface name "
			     "(longer than 15 characters)\n"
			     "halo.conf:1: interfaces[1].name: \"a:b\" is not an interface name "
			     "(no '/', ':', whitespace or control characters)\n"
			     "halo.conf:2: interfaces[2].name: \"\" is not an interface name (empty)\n"
			     "halo.conf:2: interfaces[3]: \"name\" is required");
}

static void bad_modules(void **state)
{
	assert_config_errors("modules = {\n  load = [ \"ice\", \"irdma\", \"ib uverbs\",\n    \"ice\", \"rdma-ucm\" ];\n"
			     "  options = { mlx5_core = \"prof_sel=2\"; ib_core = \"\"; };\n"
			     "  blacklist = [ \"rdma_ucm\" ];\n};\n",
			     "halo.conf:2: modules.load[2]: \"ib uverbs\" is not a module name "
			     "(only letters, digits, '_' and '-')\n"
			     "halo.conf:3: modules.load[3]: \"ice\" is listed twice (first at line 2)\n"
			     "halo.conf:4: modules.options.ib_core: \"\" is not an option string (empty)\n"
			     "halo.conf:5: modules.blacklist: \"rdma_ucm\" is also in modules.load (line 3)");
}

static void bad_kernel_params(void **state)
{
	assert_config_errors("boot = {\n  iommu = \"pt\";\n"
			     "  extra = [ \"a=b c\", \"x=\\\"y\\\"\", \"=1\", \"\", \"iommu=off\",\n"
			     "            \"amd-pstate=active\", \"amd_pstate=passive\", \"quiet\" ];\n"
			     "  remove = [ \"quiet\", \"iommu\" ];\n};\n",
			     "halo.conf:3: boot.extra[0]: \"a=b c\" is not a single kernel parameter "
			     "(whitespace or control character)\n"
			     "halo.conf:3: boot.extra[1]: \"x=\\\"y\\\"\" is not a single kernel parameter (no quotes)\n"
			     "halo.conf:3: boot.extra[2]: \"=1\" is not a kernel parameter (no name before '=')\n"
			     "halo.conf:3: boot.extra[3]: \"\" is not a kernel parameter (empty)\n"
			     "halo.conf:3: boot.extra: \"iommu=off\" conflicts with boot.iommu "
			     "(set it there, or drop that key)\n"
			     "halo.conf:3: boot.extra: parameter \"iommu\" is also in boot.remove (line 5)\n"
			     "halo.conf:4: boot.extra: parameter \"amd_pstate\" is already given at line 4\n"
			     "halo.conf:4: boot.extra: parameter \"quiet\" is also in boot.remove (line 5)\n"
			     "halo.conf:5: boot.remove: \"iommu\" is set by boot.iommu");
}

/* console= and hugepage pools are taken several times by the kernel;
 * only the same token twice is a mistake for them. */
static void repeatable_params(void **state)
{
	assert_config_ok("boot = { extra = [ \"console=tty0\", \"console=ttyS0,115200\",\n"
			 "  \"hugepagesz=1G\", \"hugepages=4\", \"hugepagesz=2M\", \"hugepages=512\" ]; };\n",
			 NULL);
	assert_config_errors("boot = { extra = [ \"console=tty0\",\n \"console=tty0\" ]; };\n",
			     "halo.conf:2: boot.extra[1]: \"console=tty0\" is listed twice (first at line 1)");
}

static void bad_roce(void **state)
{
	assert_config_errors("interfaces = ( { name = \"rdma0\"; roce = {\n"
			     "  pfc = [ 3, 8, 3 ];\n  dcbx = \"Host\";\n"
			     "  dscp_prio = ( [ 26, 3 ], [ 64, 1 ], [ 26, 4 ], [ 1 ], [ 2, 9 ] );\n"
			     "  tos = 256;\n  ecn = [ -1 ];\n} } );\n",
			     "halo.conf:3: interfaces[0].roce.dcbx: \"Host\" is not one of host, firmware "
			     "(did you mean \"host\"?)\n"
			     "halo.conf:2: interfaces[0].roce.pfc[1]: 8 is out of range (0..7)\n"
			     "halo.conf:2: interfaces[0].roce.pfc[2]: 3 is listed twice\n"
			     "halo.conf:4: interfaces[0].roce.dscp_prio[1]: DSCP 64 is out of range (0..63)\n"
			     "halo.conf:4: interfaces[0].roce.dscp_prio[2]: DSCP 26 is already mapped at line 4\n"
			     "halo.conf:4: interfaces[0].roce.dscp_prio[3]: expected a pair [dscp, priority]\n"
			     "halo.conf:4: interfaces[0].roce.dscp_prio[4]: priority 9 is out of range (0..7)\n"
			     "halo.conf:6: interfaces[0].roce.ecn[0]: -1 is out of range (0..7)\n"
			     "halo.conf:5: interfaces[0].roce.tos: 256 is out of range (0..255)");
}

static void bad_access_storage_state(void **state)
{
	assert_config_errors("access = { rdma_group = \"1rdma\"; gpu_group = \"ren der\"; memlock = 8; };\n"
			     "storage = ( { what = \"models\"; where = \"/models/../etc\"; type = \"xfs,\"; },\n"
			     "  { what = \"LABEL=\"; where = \"/\"; options = \"noatime nodev\"; },\n"
			     "  { type = \"ext4\"; } );\n"
			     "state = { env_file = \"/etc/x/\"; prometheus = \"relative.prom\"; };\n",
			     "halo.conf:1: access.rdma_group: \"1rdma\" is not a group name (must start with a letter or '_')\n"
			     "halo.conf:1: access.gpu_group: \"ren der\" is not a group name (only letters, digits, '_' and '-')\n"
			     "halo.conf:1: access.memlock: 8 is out of range (64..1099511627776)\n"
			     "halo.conf:2: storage[0].what: \"models\" is not LABEL=, UUID=, PARTUUID=, PARTLABEL= or a /dev/ path\n"
			     "halo.conf:2: storage[0].where: \"/models/../etc\" is not a usable path (contains \"..\")\n"
			     "halo.conf:2: storage[0].type: \"xfs,\" is not a file system type\n"
			     "halo.conf:3: storage[1].what: \"LABEL=\" has an empty or unusable value "
			     "(no whitespace, quotes or control characters)\n"
			     "halo.conf:3: storage[1].where: \"/\" is the root directory\n"
			     "halo.conf:3: storage[1].options: \"noatime nodev\" contains whitespace or a control character\n"
			     "halo.conf:4: storage[2]: \"what\" is required\n"
			     "halo.conf:4: storage[2]: \"where\" is required\n"
			     "halo.conf:5: state.env_file: \"/etc/x/\" is not a usable path (trailing '/')\n"
			     "halo.conf:5: state.prometheus: \"relative.prom\" is not an absolute path");
}

/* state.path = "/proc/sys/kernel/osrelease" overwrote the root's
 * osrelease. */
static void bad_outputs(void **state)
{
	assert_config_errors("state = {\n  path = \"/proc/sys/kernel/osrelease\";\n"
			     "  prometheus = \"/sys/class/net/eth0/mtu\";\n"
			     "  env_file = \"/dev/null\";\n};\n",
			     "halo.conf:2: state.path: \"/proc/sys/kernel/osrelease\" is under /proc, "
			     "the kernel's, not a place for files\n"
			     "halo.conf:4: state.env_file: \"/dev/null\" is under /dev, the device tree, "
			     "not a place for files\n"
			     "halo.conf:3: state.prometheus: \"/sys/class/net/eth0/mtu\" is under /sys, "
			     "the kernel's, not a place for files");
	assert_config_errors("state = { path = \"/run/halo-provision.lock\";\n"
			     "  env_file = \"/run/reboot-required\";\n"
			     "  prometheus = \"/etc/default/grub\"; };\n",
			     "halo.conf:1: state.path: \"/run/halo-provision.lock\" is halo-provision's run lock\n"
			     "halo.conf:2: state.env_file: \"/run/reboot-required\" is the reboot-required "
			     "flag file halo-provision writes\n"
			     "halo.conf:3: state.prometheus: /etc/default/grub is the GRUB defaults file "
			     "halo-provision edits for boot; each output needs a file of its own");
	assert_config_errors("state = { path = \"/etc/halo-provision/halo.conf\";\n"
			     "  env_file = \"/etc/kernel/cmdline\";\n"
			     "  prometheus = \"/\"; };\n",
			     "halo.conf:1: state.path: \"/etc/halo-provision/halo.conf\" is the default config file\n"
			     "halo.conf:3: state.prometheus: \"/\" is the root directory, not a file\n"
			     "halo.conf:2: state.env_file: /etc/kernel/cmdline is the kernel command line "
			     "file halo-provision edits for boot; each output needs a file of its own");
	/* An owned file names the key that makes the run own it, and its line. */
	assert_config_errors("access = { gpu_group = \"render\"; };\n"
			     "state = { prometheus = \"/etc/udev/rules.d/70-halo-access.rules\";\n"
			     "  env_file = \"/var/lib/halo-provision/state.json\"; };\n",
			     "halo.conf:2: state.prometheus: /etc/udev/rules.d/70-halo-access.rules is the "
			     "udev rule halo-provision writes for access (line 1); each output needs a "
			     "file of its own\n"
			     "halo.conf:3: state.env_file: /var/lib/halo-provision/state.json is also "
			     "state.path (the default); each output needs a file of its own");
	/* Absolute and normalized. */
	assert_config_errors("state = { path = \"/var/lib/./state.json\";\n"
			     "  env_file = \"/etc//rccl.env\";\n"
			     "  prometheus = \"/var/lib/node_exporter/../halo.prom\"; };\n",
			     "halo.conf:1: state.path: \"/var/lib/./state.json\" is not a usable path "
			     "(contains a \".\" component)\n"
			     "halo.conf:2: state.env_file: \"/etc//rccl.env\" is not a usable path (\"//\")\n"
			     "halo.conf:3: state.prometheus: \"/var/lib/node_exporter/../halo.prom\" is not a "
			     "usable path (contains \"..\")");
	/* Names that only look like the refused ones. */
	assert_config_ok("state = { path = \"/procfs/state.json\"; env_file = \"/run/halo.env\";\n"
			 "  prometheus = \"/var/lib/node_exporter/textfile_collector/.halo.prom\"; };\n",
			 NULL);
}

static void bad_mount_points(void **state)
{
	assert_config_errors("storage = ( { what = \"LABEL=a\"; where = \"/usr\"; },\n"
			     "  { what = \"LABEL=b\"; where = \"/proc/models\"; },\n"
			     "  { what = \"LABEL=c\"; where = \"/models/.\"; } );\n",
			     "halo.conf:1: storage[0].where: \"/usr\" is a system directory; mounting over "
			     "it would hide what is there\n"
			     "halo.conf:2: storage[1].where: \"/proc/models\" is under /proc, the kernel's, "
			     "not a place for files\n"
			     "halo.conf:3: storage[2].where: \"/models/.\" is not a usable path "
			     "(contains a \".\" component)");
	assert_config_ok("storage = ( { what = \"LABEL=a\"; where = \"/var/lib/models\"; },\n"
			 "  { what = \"/dev/nvme0n1p3\"; where = \"/srv/models\"; } );\n", NULL);
}

static void bad_version(void **state)
{
	assert_config_errors("version = 2;\n", "halo.conf:1: version: 2 is not supported "
			     "(this halo-provision reads version 1)");
	assert_config_errors("version = \"1\";\n", "halo.conf:1: version: expected an integer, got a string");
}

static void wrapped_integer(void **state)
{
	/* libconfig 1.5 reads 4294967552 as 256: within range, silently. */
	assert_config_errors("boot = {\n  gtt_mib = 4294967552;\n};\ninterfaces = ( { name = \"a\"; mtu = 9000; "
			     "routes = ( { to = \"default\"; metric = 4294967295L; } ); } );\n",
			     "halo.conf:2: integer 4294967552 does not fit in 32 bits (libconfig would "
			     "silently wrap it; append L for a 64-bit integer)");
	/* A hexadecimal one too (the prescan stops at its leading 0). */
	assert_config_errors("boot = {\n  gtt_mib = 0x100000000;\n};\n"
			     "interfaces = ( { name = \"a\"; mtu = 9000; } );\n",
			     "halo.conf:2: integer 0x100000000 does not fit in 32 bits (libconfig would "
			     "silently wrap it; append L for a 64-bit integer)");
	assert_config_errors("access = { memlock = 99999999999999999999L; };\n",
			     "halo.conf:1: integer 99999999999999999999L does not fit in 64 bits");
	/* Not numbers: in strings, comments, names, floats. */
	assert_config_ok("# 99999999999\nmodules = { options = { mlx5_core = \"x=99999999999\"; }; };\n"
			 "/* 99999999999 */ version = 1; // 99999999999\n", NULL);
}

static void include_refused(void **state)
{
	assert_config_errors("version = 1;\n  @include \"/etc/passwd\"\n",
			     "halo.conf:2: @include is not allowed (an included file would bypass "
			     "the config file's ownership check)");
}

static void all_errors_at_once(void **state)
{
	assert_config_errors("version = 1;\n"
			     "boot = { loader = \"grub2\"; };\n"
			     "interfaces = ( { name = \"rdma0\"; mtu = 9001000; } );\n"
			     "firewall = { allow_udp = [ 4791, 4791 ]; };\n",
			     "halo.conf:2: boot.loader: \"grub2\" is not one of auto, grub, grub-dropin, "
			     "bls, kernel-cmdline, none (did you mean \"grub\"?)\n"
			     "halo.conf:3: interfaces[0].mtu: 9001000 is out of range (68..65535)\n"
			     "halo.conf:4: firewall.allow_udp[1]: 4791 is listed twice");
}

static void message_stays_one_line(void **state)
{
	assert_config_errors("boot = { loader = \"gr\nub\"; };\n",
			     "halo.conf:1: boot.loader: \"gr\\x0aub\" is not one of auto, grub, grub-dropin, "
			     "bls, kernel-cmdline, none (did you mean \"grub\"?)");
}

static void message_truncated(void **state)
{
	char text[256], want[256];
	size_t o;

	/* Control characters escaped, long values cut with "...". */
	o = (size_t)snprintf(text, sizeof(text), "boot = { loader = \"");
	memset(text + o, 1, 100);
	snprintf(text + o + 100, sizeof(text) - o - 100, "\"; };\n");
	o = (size_t)snprintf(want, sizeof(want), "halo.conf:1: boot.loader: \"");
	for (int i = 0; i < 22; i++)
		o += (size_t)snprintf(want + o, sizeof(want) - o, "\\x01");
	snprintf(want + o, sizeof(want) - o, "...\" is not one of auto, grub, grub-dropin, "
		 "bls, kernel-cmdline, none");
	assert_config_errors(text, want);
}

/* access.gpu_mode: an octal device mode the group can read
 * and write, nothing else, and only beside a gpu_group. */
static void bad_access_modes(void **state)
{
	assert_config_errors("access = { gpu_group = \"render\"; gpu_mode = \"0777\"; };\n",
			     "halo.conf:1: access.gpu_mode: \"0777\" has an execute bit (meaningless on a device node)");
	assert_config_errors("access = {\n gpu_mode = \"0660\";\n};\n",
			     "halo.conf:2: access.gpu_mode: set without access.gpu_group (the group the mode is for)");
	assert_config_errors("access = { gpu_group = \"render\";\n gpu_mode = \"0606\"; };\n",
			     "halo.conf:2: access.gpu_mode: \"0606\" does not let the group read and write the device");
	assert_config_errors("access = { gpu_group = \"render\";\n gpu_mode = \"4660\"; };\n",
			     "halo.conf:2: access.gpu_mode: \"4660\" is not a device mode (octal, like \"0660\")");
	assert_config_errors("access = { gpu_group = \"render\";\n gpu_mode = \"0680\"; };\n",
			     "halo.conf:2: access.gpu_mode: \"0680\" is not a device mode (octal, like \"0660\")");
	assert_config_errors("access = { gpu_group = \"render\";\n gpu_mode = 660; };\n",
			     "halo.conf:2: access.gpu_mode: expected a string, got an integer");
	assert_config_errors("access = { gpu_group = \"render\";\n gpu_mode = \"0660\\n\"; };\n",
			     "halo.conf:2: access.gpu_mode: \"0660\\x0a\" is not a device mode (octal, like \"0660\")");
}

/* sysctl: every bad setting at once, each at its line; wrong types. */
static void bad_sysctl(void **state)
{
	(void)state;
	assert_config_errors("interfaces = ( { name = \"rdma0\"; }, { name = \"rdma1\"; } );\n"
			     "sysctl = {\n"
			     " multi_nic = \"auto\";\n"
			     " settings = [\n"
			     "  \"net.core.rmem_max\",\n"
			     "  \"net/core/rmem_max=1\",\n"
			     "  \"net.core.rmem_max=1\\nkernel.x=1\",\n"
			     "  \"net.core.rmem_max=$(reboot)\",\n"
			     "  \"net.ipv4.tcp_ecn=1\",\n"
			     "  \"net.ipv4.tcp_ecn=2\",\n"
			     "  \"net.ipv4.conf.rdma0.arp_announce=1\" ];\n"
			     "};\n",
			     "halo.conf:5: sysctl.settings[0]: \"net.core.rmem_max\" is not a setting (\"key=value\")\n"
			     "halo.conf:6: sysctl.settings[1]: \"net/core/rmem_max=1\" is not a sysctl key (write it with dots, not \"/\")\n"
			     "halo.conf:7: sysctl.settings[2]: \"net.core.rmem_max=1\\x0akernel.x=1\" is not a sysctl value (control character or newline)\n"
			     "halo.conf:8: sysctl.settings[3]: \"net.core.rmem_max=$(reboot)\" is not a sysctl value (letters, digits, single spaces and ._:,/+@%- only)\n"
			     "halo.conf:10: sysctl.settings: net.ipv4.tcp_ecn is already set at line 9\n"
			     "halo.conf:11: sysctl.settings: net.ipv4.conf.rdma0.arp_announce=1 contradicts multi_nic (arp_announce=2 on the managed interfaces)");
	assert_config_errors("sysctl = { multi_nic = true; };",
			     "halo.conf:1: sysctl.multi_nic: expected a string, got a boolean");
	assert_config_errors("sysctl = { settings = \"net.core.rmem_max=1\"; };",
			     "halo.conf:1: sysctl.settings: expected an array or list, got a string");
	assert_config_errors("sysctl = [ ];",
			     "halo.conf:1: sysctl: expected a group, got an array");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(syntax_error),
		cmocka_unit_test(syntax_error_hints),
		cmocka_unit_test(unclosed_at_end),
		cmocka_unit_test(comment_open_at_end),
		cmocka_unit_test(mismatched_closer),
		cmocka_unit_test(duplicate_setting),
		cmocka_unit_test(unknown_key_suggested),
		cmocka_unit_test(unknown_key_everywhere),
		cmocka_unit_test(wrong_type),
		cmocka_unit_test(out_of_range),
		cmocka_unit_test(inexact_keyword),
		cmocka_unit_test(bad_gtt_and_memlock),
		cmocka_unit_test(bad_cidr),
		cmocka_unit_test(non_host_addresses),
		cmocka_unit_test(non_host_gateways),
		cmocka_unit_test(bad_match),
		cmocka_unit_test(bad_ifname),
		cmocka_unit_test(bad_modules),
		cmocka_unit_test(bad_kernel_params),
		cmocka_unit_test(repeatable_params),
		cmocka_unit_test(bad_roce),
		cmocka_unit_test(bad_access_storage_state),
		cmocka_unit_test(bad_outputs),
		cmocka_unit_test(bad_mount_points),
		cmocka_unit_test(bad_version),
		cmocka_unit_test(wrapped_integer),
		cmocka_unit_test(include_refused),
		cmocka_unit_test(all_errors_at_once),
		cmocka_unit_test(message_stays_one_line),
		cmocka_unit_test(message_truncated),
		cmocka_unit_test(bad_access_modes),
		cmocka_unit_test(bad_sysctl),
	};

	return cmocka_run_group_tests_name("config-errors", tests, NULL, NULL);
}
