/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the firewall files (src/files/firewall-render.c) and the
 * zone scan (src/files/firewalld.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "files/firewall.h"

static const char *const two[] = { "eth-a", "enp194s0f0np0" };
static const uint16_t udp[] = { 4791, 4791 };
static const uint16_t tcp[] = { 6379, 8265 };

/* The lines of TEXT that are not comments (nor the XML comment lines). */
static char *body(const char *text)
{
	static char buf[4096];
	const char *p = text;
	bool in_comment = false;

	buf[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *q = p;

		while (*q == ' ' || *q == '\t')
			q++;
		if (strncmp(q, "<!--", 4) == 0)
			in_comment = true;
		if (n && p[0] != '#' && !in_comment && strncmp(q, "<?xml", 5) != 0)
			strncat(buf, p, n), strcat(buf, "\n");
		if (in_comment && memmem(p, n, "-->", 3))
			in_comment = false;
		p += n + (p[n] == '\n');
	}
	return buf;
}

static void test_zone_trusted(void **state)
{
	struct halo_fw_rules r = { two, 2, true, udp, 2, tcp, 2 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_fw_render_zone(&r, &out), 0);
	assert_true(strncmp(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			    "<!-- Managed by halo-provision; local changes will be overwritten. -->\n",
			    110) == 0);
	/* Trusted: the target says it all, no ports. */
	assert_string_equal(body(out),
			    "<zone target=\"ACCEPT\">\n"
			    "  <short>halo-rdma</short>\n"
			    "  <description>RDMA cluster links managed by halo-provision</description>\n"
			    "  <interface name=\"eth-a\"/>\n"
			    "  <interface name=\"enp194s0f0np0\"/>\n"
			    "</zone>\n");
	assert_non_null(strstr(out, "everything they receive is accepted"));
	free(out);
}

static void test_zone_ports(void **state)
{
	struct halo_fw_rules r = { two, 1, false, udp, 2, tcp, 2 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_fw_render_zone(&r, &out), 0);
	/* The default target; a repeated port once. */
	assert_string_equal(body(out),
			    "<zone>\n"
			    "  <short>halo-rdma</short>\n"
			    "  <description>RDMA cluster links managed by halo-provision</description>\n"
			    "  <interface name=\"eth-a\"/>\n"
			    "  <port protocol=\"udp\" port=\"4791\"/>\n"
			    "  <port protocol=\"tcp\" port=\"6379\"/>\n"
			    "  <port protocol=\"tcp\" port=\"8265\"/>\n"
			    "</zone>\n");
	assert_non_null(strstr(out, "UDP 4791, TCP 6379 8265 accepted, the rest rejected"));
	free(out);
}

static void test_nft_trusted(void **state)
{
	struct halo_fw_rules r = { two, 2, true, NULL, 0, NULL, 0 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_fw_render_nft(&r, &out), 0);
	assert_true(strncmp(out, "# Managed by halo-provision; local changes will be overwritten.\n",
			    64) == 0);
	assert_string_equal(body(out),
			    "table inet halo_provision\n"
			    "delete table inet halo_provision\n"
			    "table inet halo_provision {\n"
			    "\tchain input {\n"
			    "\t\ttype filter hook input priority 0; policy accept;\n"
			    "\t\tiifname { \"eth-a\", \"enp194s0f0np0\" } accept\n"
			    "\t}\n"
			    "}\n");
	/* Never the whole ruleset. */
	assert_null(strstr(out, "flush ruleset\n"));
	free(out);
}

static void test_nft_ports(void **state)
{
	struct halo_fw_rules r = { two, 1, false, udp, 2, tcp, 2 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_fw_render_nft(&r, &out), 0);
	assert_string_equal(body(out),
			    "table inet halo_provision\n"
			    "delete table inet halo_provision\n"
			    "table inet halo_provision {\n"
			    "\tchain input {\n"
			    "\t\ttype filter hook input priority 0; policy accept;\n"
			    "\t\tiifname { \"eth-a\" } ct state established,related accept\n"
			    "\t\tiifname { \"eth-a\" } meta l4proto { 1, 58 } accept\n"
			    "\t\tiifname { \"eth-a\" } udp dport { 4791 } accept\n"
			    "\t\tiifname { \"eth-a\" } tcp dport { 6379, 8265 } accept\n"
			    "\t\tiifname { \"eth-a\" } reject with icmpx type admin-prohibited\n"
			    "\t}\n"
			    "}\n");
	free(out);
}

/* Kernel names may hold quotes, '<', '&', '*', '+': refused, never
 * escaped. */
static void test_unsafe_names(void **state)
{
	const char *const bad[] = { "a\"b", "a<b", "a&b", "eth*", "eth+", "a b", "a\\b",
				    "a'b", "a{b", "$x", "", ".", "..", "sixteen-chars-xx" };
	char *out = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct halo_fw_rules r = { &bad[i], 1, true, NULL, 0, NULL, 0 };

		assert_false(halo_fw_ifname_safe(bad[i]));
		assert_int_equal(halo_fw_render_zone(&r, &out), -EINVAL);
		assert_int_equal(halo_fw_render_nft(&r, &out), -EINVAL);
	}
	assert_true(halo_fw_ifname_safe("enp194s0f0np0"));
	assert_true(halo_fw_ifname_safe("eth0.100"));
	assert_true(halo_fw_ifname_safe("fifteen-chars-x"));
	{
		struct halo_fw_rules none = { two, 0, true, NULL, 0, NULL, 0 };

		assert_int_equal(halo_fw_render_zone(&none, &out), -EINVAL);
		assert_int_equal(halo_fw_render_nft(&none, &out), -EINVAL);
	}
}

static void test_zone_binds(void **state)
{
	(void)state;
	assert_true(halo_fw_zone_binds("<zone><interface name=\"eth-a\"/></zone>", "eth-a"));
	assert_true(halo_fw_zone_binds("<zone>\n  <interface\n name = 'eth-a' />\n</zone>",
				       "eth-a"));
	assert_true(halo_fw_zone_binds("<zone><interface x=\"1\" name=\"eth-a\"></interface>"
				       "</zone>", "eth-a"));
	/* A prefix, another element, a comment: not bound. */
	assert_false(halo_fw_zone_binds("<zone><interface name=\"eth-ab\"/></zone>", "eth-a"));
	assert_false(halo_fw_zone_binds("<zone><interfaces name=\"eth-a\"/></zone>", "eth-a"));
	assert_false(halo_fw_zone_binds("<zone><source name=\"eth-a\"/></zone>", "eth-a"));
	assert_false(halo_fw_zone_binds("<zone><!-- <interface name=\"eth-a\"/> --></zone>",
					"eth-a"));
	assert_false(halo_fw_zone_binds("<zone><interface name=\"eth-a", "eth-a"));
	assert_false(halo_fw_zone_binds("", "eth-a"));
}

static void test_activate_argv(void **state)
{
	const char *const *a = halo_fw_activate_argv(HALO_FW_KIND_NFTABLES);

	(void)state;
	assert_string_equal(a[0], "nft");
	assert_string_equal(a[1], "-f");
	assert_string_equal(a[2], HALO_FW_NFT_PATH);
	assert_null(a[3]);
	a = halo_fw_activate_argv(HALO_FW_KIND_FIREWALLD);
	assert_string_equal(a[0], "firewall-cmd");
	assert_string_equal(a[1], "--reload");
	assert_null(a[2]);
	/* firewalld reads zone names of at most 17 characters. */
	assert_true(strlen(HALO_FW_ZONE ".xml") <= 17);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zone_trusted),
		cmocka_unit_test(test_zone_ports),
		cmocka_unit_test(test_nft_trusted),
		cmocka_unit_test(test_nft_ports),
		cmocka_unit_test(test_unsafe_names),
		cmocka_unit_test(test_zone_binds),
		cmocka_unit_test(test_activate_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
