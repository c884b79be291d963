/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the sysctl part (src/files/sysctl-key.c, its config
 * section in src/config/parse-sysctl.c). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "config-test.h"
#include "engine/plan.h"
#include "files/sysctl-key.h"
#include "util/template.h"

static void keys(void **state)
{
	static const char *const good[] = {
		"net.core.rmem_max", "net.ipv4.conf.eth-a.arp_ignore", "vm.max_map_count",
		"net.ipv4.tcp_rmem", "kernel.numa_balancing", "a.b",
	};
	static const char *const bad[] = {
		"", "net", ".net.core", "net.core.", "net..core", "net/core/rmem_max",
		"net.ipv4.conf.eth0/100.rp_filter", "-net.core.rmem_max", "Net.core",
		"net.core.rmem max", "net.core.rmem_max\n", "net.*.x", "net.core.$x",
		"net.../etc", "../../etc/passwd",
	};
	char longkey[300];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (halo_sysctl_check_key(good[i]))
			fail_msg("\"%s\" refused: %s", good[i], halo_sysctl_check_key(good[i]));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!halo_sysctl_check_key(bad[i]))
			fail_msg("\"%s\" accepted", bad[i]);
	memset(longkey, 'a', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	longkey[1] = '.';
	assert_non_null(halo_sysctl_check_key(longkey));
	assert_string_equal(halo_sysctl_check_key("net/core/rmem_max"),
			    "is not a sysctl key (write it with dots, not \"/\")");
}

static void values(void **state)
{
	static const char *const good[] = {
		"1", "268435456", "4096 87380 6291456", "fq_codel", "-1", "/var/crash/core.%p",
		"1024:65535", "a,b", "0x10",
	};
	static const char *const bad[] = {
		"", " 1", "1 ", "1  2", "1\t2", "1\n", "1;reboot", "$(id)", "`id`", "a|b",
		"a&b", "a>b", "\"1\"", "'1'", "a#b", "a\\b", "a*", "a?", "a=b", "\x7f",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good); i++)
		if (halo_sysctl_check_value(good[i]))
			fail_msg("\"%s\" refused: %s", good[i], halo_sysctl_check_value(good[i]));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (!halo_sysctl_check_value(bad[i]) && strchr(bad[i], '=') == NULL)
			fail_msg("\"%s\" accepted", bad[i]);
	/* "=" inside a value is refused by the setting check. */
	assert_non_null(halo_sysctl_check_setting("a.b=c=d"));
}

static void settings(void **state)
{
	char s[] = "net.core.rmem_max  =  268435456";
	char *k = NULL, *v = NULL;

	(void)state;
	assert_null(halo_sysctl_check_setting(s));
	assert_null(halo_sysctl_check_setting("net.ipv4.tcp_rmem=4096 87380 6291456"));
	assert_non_null(halo_sysctl_check_setting("net.core.rmem_max"));
	assert_non_null(halo_sysctl_check_setting("=1"));
	assert_non_null(halo_sysctl_check_setting("net.core.rmem_max="));
	assert_non_null(halo_sysctl_check_setting("net.core.rmem_max=1\nkernel.x=1"));
	halo_sysctl_setting_normalize(s);
	assert_string_equal(s, "net.core.rmem_max=268435456");
	assert_int_equal(halo_sysctl_setting_split(s, &k, &v), 0);
	assert_string_equal(k, "net.core.rmem_max");
	assert_string_equal(v, "268435456");
	free(k);
	free(v);
	assert_int_equal(halo_sysctl_setting_split("nothing", &k, &v), -EINVAL);
}

/* sysctl.d(5): with a dot as the first separator, dots and slashes swap,
 * so a dot inside an interface name is written as "/". */
static void dot_in_name(void **state)
{
	char *n, *p;

	(void)state;
	n = halo_sysctl_iface_name("eth0.100", "rp_filter");
	assert_string_equal(n, "net.ipv4.conf.eth0/100.rp_filter");
	p = halo_sysctl_path(n);
	assert_string_equal(p, "/proc/sys/net/ipv4/conf/eth0.100/rp_filter");
	free(n);
	free(p);
	n = halo_sysctl_iface_name("rdma0", "arp_ignore");
	assert_string_equal(n, "net.ipv4.conf.rdma0.arp_ignore");
	p = halo_sysctl_path(n);
	assert_string_equal(p, "/proc/sys/net/ipv4/conf/rdma0/arp_ignore");
	free(n);
	free(p);
	/* The other spelling sysctl.d allows: the first separator a slash. */
	p = halo_sysctl_path("net/ipv4/conf/eth0.100/rp_filter");
	assert_string_equal(p, "/proc/sys/net/ipv4/conf/eth0.100/rp_filter");
	free(p);
	assert_null(halo_sysctl_check_ifname("eth0.100"));
	assert_null(halo_sysctl_check_ifname("enp194s0f0np0"));
	assert_non_null(halo_sysctl_check_ifname("a=b"));
	assert_non_null(halo_sysctl_check_ifname("a b"));
	assert_non_null(halo_sysctl_check_ifname("a#b"));
	assert_non_null(halo_sysctl_check_ifname(""));
}

static void conflicts(void **state)
{
	char *why = NULL;

	(void)state;
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.rdma0.rp_filter", "1", "rdma0",
						   &why), 1);
	assert_string_equal(why, "net.ipv4.conf.rdma0.rp_filter=1 contradicts multi_nic "
				 "(rp_filter=2 on the managed interfaces)");
	free(why);
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.rdma0.arp_ignore", "1", "rdma0",
						   &why), 1);
	assert_string_equal(why, "net.ipv4.conf.rdma0.arp_ignore is already set by multi_nic "
				 "(arp_ignore=1 on the managed interfaces)");
	free(why);
	/* "all" above the rule wins in the kernel; at or below it does not. */
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.all.arp_ignore", "8", "rdma0",
						   &why), 1);
	assert_non_null(strstr(why, "the larger of \"all\""));
	free(why);
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.all.rp_filter", "1", "rdma0",
						   &why), 0);
	assert_null(why);
	/* Other interfaces, other keys, prefixes of the name. */
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.rdma1.rp_filter", "1", "rdma0",
						   &why), 0);
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.rdma0.forwarding", "1", "rdma0",
						   &why), 0);
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv4.conf.rdma00.rp_filter", "1", "rdma0",
						   &why), 0);
	assert_int_equal(halo_sysctl_rule_conflict("net.ipv6.conf.rdma0.rp_filter", "1", "rdma0",
						   &why), 0);
	assert_null(why);
}

static void normalize_observed(void **state)
{
	char *v;

	(void)state;
	v = halo_sysctl_value_normalize("4096\t87380\t6291456\n");
	assert_string_equal(v, "4096 87380 6291456");
	free(v);
	v = halo_sysctl_value_normalize("1\n");
	assert_string_equal(v, "1");
	free(v);
	v = halo_sysctl_value_normalize("\n");
	assert_string_equal(v, "");
	free(v);
}

static void render(void **state)
{
	struct halo_sysctl v[] = {
		{ "net.ipv4.conf.eth0/100.arp_ignore", "1", 0 },
		{ "net.ipv4.conf.eth0/100.rp_filter", "2", 0 },
		{ "net.ipv4.tcp_rmem", "4096 87380 6291456", 7 },
	};
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_sysctl_render(v, 0, &out), 0);
	assert_null(out);
	assert_int_equal(halo_sysctl_render(v, ARRAY_SIZE(v), &out), 0);
	/* The managed header first, then comments and the keys in order. */
	assert_int_equal(strncmp(out, HALO_MANAGED_HEADER, strlen(HALO_MANAGED_HEADER)), 0);
	assert_non_null(strstr(out, "\nnet.ipv4.conf.eth0/100.arp_ignore = 1\n"
				    "net.ipv4.conf.eth0/100.rp_filter = 2\n# settings\n"
				    "net.ipv4.tcp_rmem = 4096 87380 6291456\n"));
	assert_int_equal(out[strlen(out) - 1], '\n');
	assert_null(strstr(out, "\n\n"));
	/* Every line is a comment or "key = value". */
	for (char *line = out, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		if (*line != '#')
			assert_non_null(memchr(line, '=', (size_t)(nl - line)));
	}
	free(out);
}

static void rule_applies(void **state)
{
	struct halo_config c = { 0 };

	(void)state;
	c.sysctl.multi_nic = HALO_MULTI_NIC_AUTO;
	c.n_interfaces = 1;
	assert_false(halo_sysctl_rule_applies(&c));
	c.n_interfaces = 2;
	assert_true(halo_sysctl_rule_applies(&c));
	c.sysctl.multi_nic = HALO_MULTI_NIC_OFF;
	assert_false(halo_sysctl_rule_applies(&c));
	c.sysctl.multi_nic = HALO_MULTI_NIC_ON;
	c.n_interfaces = 1;
	assert_true(halo_sysctl_rule_applies(&c));
}

static void config_parsed(void **state)
{
	struct halo_config *c = NULL;

	(void)state;
	assert_config_ok("sysctl = { multi_nic = \"off\"; settings = [ \"net.core.rmem_max = 1\", "
			 "\"net.ipv4.tcp_rmem=4096 87380 6291456\" ]; };", &c);
	assert_true(c->sysctl.present);
	assert_int_equal(c->sysctl.multi_nic, HALO_MULTI_NIC_OFF);
	assert_int_equal(c->sysctl.multi_nic_line, 1);
	assert_int_equal(c->sysctl.settings.n, 2);
	assert_string_equal(c->sysctl.settings.v[0], "net.core.rmem_max=1");
	assert_string_equal(c->sysctl.settings.v[1], "net.ipv4.tcp_rmem=4096 87380 6291456");
	halo_config_free(c);
	assert_config_ok("sysctl = { };", &c);
	assert_true(c->sysctl.present);
	assert_int_equal(c->sysctl.multi_nic, HALO_MULTI_NIC_AUTO);
	halo_config_free(c);
	assert_config_ok("", &c);
	assert_false(c->sysctl.present);
	halo_config_free(c);
}

static void config_refused(void **state)
{
	(void)state;
	assert_config_errors("sysctl = {\n multi_nic = \"yes\";\n};",
			     "halo.conf:2: sysctl.multi_nic: \"yes\" is not one of auto, on, off");
	assert_config_errors("sysctl = {\n settings = [\n \"net.core.rmem_max=1\",\n"
			     " \"net.core.rmem_max=2\" ];\n};",
			     "halo.conf:4: sysctl.settings: net.core.rmem_max is already set at line 3");
	assert_config_errors("sysctl = {\n settings = [ \"kernel.x=1; reboot\" ];\n};",
			     "halo.conf:2: sysctl.settings[0]: \"kernel.x=1; reboot\" is not a sysctl "
			     "value (letters, digits, single spaces and ._:,/+@%- only)");
	assert_config_errors("sysctl = {\n settings = [ \"../../etc/x=1\" ];\n};",
			     "halo.conf:2: sysctl.settings[0]: \"../../etc/x=1\" is not a sysctl key "
			     "(an empty name between dots)");
	/* Two interfaces: auto applies the rule, which the settings contradict. */
	assert_config_errors("interfaces = ( { name = \"rdma0\"; }, { name = \"rdma1\"; } );\n"
			     "sysctl = {\n settings = [\n \"net.ipv4.conf.rdma1.rp_filter=1\" ];\n};",
			     "halo.conf:4: sysctl.settings: net.ipv4.conf.rdma1.rp_filter=1 "
			     "contradicts multi_nic (rp_filter=2 on the managed interfaces)");
	/* One interface: auto does not apply it; "off" neither. */
	assert_config_ok("interfaces = ( { name = \"rdma0\"; } );\n"
			 "sysctl = { settings = [ \"net.ipv4.conf.rdma0.rp_filter=1\" ]; };", NULL);
	assert_config_ok("interfaces = ( { name = \"rdma0\"; }, { name = \"rdma1\"; } );\n"
			 "sysctl = { multi_nic = \"off\"; settings = [ "
			 "\"net.ipv4.conf.rdma0.rp_filter=1\" ]; };", NULL);
	assert_config_errors("sysctl = {\n multi_nic = \"on\";\n settings = [ "
			     "\"net.ipv4.conf.all.arp_announce=3\" ];\n};",
			     "halo.conf:3: sysctl.settings: net.ipv4.conf.all.arp_announce=3 "
			     "contradicts multi_nic (arp_announce=2 on the managed interfaces; the "
			     "kernel uses the larger of \"all\" and the interface's own)");
	assert_config_errors("sysctl = { mutli_nic = \"on\"; };",
			     "halo.conf:1: sysctl: unknown key \"mutli_nic\" (did you mean "
			     "\"multi_nic\"?)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys),
		cmocka_unit_test(values),
		cmocka_unit_test(settings),
		cmocka_unit_test(dot_in_name),
		cmocka_unit_test(conflicts),
		cmocka_unit_test(normalize_observed),
		cmocka_unit_test(render),
		cmocka_unit_test(rule_applies),
		cmocka_unit_test(config_parsed),
		cmocka_unit_test(config_refused),
	};

	return cmocka_run_group_tests_name("files-sysctl", tests, NULL, NULL);
}
