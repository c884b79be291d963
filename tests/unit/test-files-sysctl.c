/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the sysctl drop-in's names, values and text
 * (src/files/sysctl-key.c). */
#include "config.h"

#include <stdlib.h>

#include "config-test.h"
#include "engine/plan.h"
#include "files/sysctl-key.h"
#include "util/template.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dot_in_name),
		cmocka_unit_test(normalize_observed),
		cmocka_unit_test(render),
	};

	return cmocka_run_group_tests_name("files-sysctl", tests, NULL, NULL);
}
