/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-sysctl.c: sysctl.settings split once at load
 * (src/config/sysctl-setting.c), the multi_nic rule
 * (src/config/sysctl-rule.c) and the section's messages. */
#include <errno.h>
#include <stdlib.h>

#include "config-test.h"
#include "config/sysctl-rule.h"
#include "config/sysctl-setting.h"

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
}

static const char *parse_why(const char *text)
{
	struct halo_sysctl_setting s = { 0 };
	const char *why = NULL;
	int r = halo_sysctl_setting_parse(text, 1, &s, &why);

	if (r == 0) {
		halo_sysctl_setting_clear(&s);
		return NULL;
	}
	assert_int_equal(r, -EINVAL);
	assert_non_null(why);
	/* Nothing was left behind in S. */
	assert_null(s.key);
	assert_null(s.text);
	return why;
}

static void settings(void **state)
{
	struct halo_sysctl_setting s = { 0 };
	const char *why = NULL;

	(void)state;
	assert_int_equal(halo_sysctl_setting_parse("net.core.rmem_max  =  268435456", 7, &s, &why), 0);
	assert_string_equal(s.key, "net.core.rmem_max");
	assert_string_equal(s.value, "268435456");
	assert_string_equal(s.text, "net.core.rmem_max  =  268435456");
	assert_int_equal(s.line, 7);
	halo_sysctl_setting_clear(&s);
	assert_int_equal(halo_sysctl_setting_parse("net.ipv4.tcp_rmem=4096 87380 6291456", 1, &s, &why), 0);
	assert_string_equal(s.value, "4096 87380 6291456");
	halo_sysctl_setting_clear(&s);

	assert_string_equal(parse_why("net.core.rmem_max"), "is not a setting (\"key=value\")");
	assert_string_equal(parse_why("=1"), "is not a sysctl key (empty)");
	assert_string_equal(parse_why("net.core.rmem_max="), "is not a sysctl value (empty)");
	assert_string_equal(parse_why("net.core.rmem_max=1\nkernel.x=1"),
			    "is not a sysctl value (control character or newline)");
	/* "=" inside a value is refused by the value's characters. */
	assert_non_null(parse_why("a.b=c=d"));
	assert_non_null(parse_why("net/core/rmem_max=1"));
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
	assert_int_equal(c->sysctl.n_settings, 2);
	/* Split once, at load; the text stays as written for messages. */
	assert_string_equal(c->sysctl.settings[0].key, "net.core.rmem_max");
	assert_string_equal(c->sysctl.settings[0].value, "1");
	assert_string_equal(c->sysctl.settings[0].text, "net.core.rmem_max = 1");
	assert_int_equal(c->sysctl.settings[0].line, 1);
	assert_string_equal(c->sysctl.settings[1].key, "net.ipv4.tcp_rmem");
	assert_string_equal(c->sysctl.settings[1].value, "4096 87380 6291456");
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
	/* The same setting twice, however spaced. */
	assert_config_errors("sysctl = {\n settings = [\n \"net.core.rmem_max=1\",\n"
			     " \"net.core.rmem_max = 1\" ];\n};",
			     "halo.conf:4: sysctl.settings[1]: \"net.core.rmem_max = 1\" is listed "
			     "twice (first at line 3)");
	assert_config_errors("sysctl = {\n settings = [ \"net.core.rmem_max\" ];\n};",
			     "halo.conf:2: sysctl.settings[0]: \"net.core.rmem_max\" is not a "
			     "setting (\"key=value\")");
	assert_config_errors("sysctl = {\n settings = ( \"net.core.rmem_max=1\", 2 );\n};",
			     "halo.conf:2: sysctl.settings[1]: expected a string, got an integer");
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
		cmocka_unit_test(conflicts),
		cmocka_unit_test(rule_applies),
		cmocka_unit_test(config_parsed),
		cmocka_unit_test(config_refused),
	};

	return cmocka_run_group_tests_name("config-sysctl", tests, NULL, NULL);
}
