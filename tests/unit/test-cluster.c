/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-cluster.c: --cluster's cable pairing and comparisons, on state
 * documents written here (cluster/check.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cluster/cluster.h"
#include "util/strv.h"

/* A state document of node HOST with the interface entries IFS (JSON
 * objects, comma-separated), BOOT (a JSON object or NULL), exit bits. */
static char *state(const char *host, const char *ifs, const char *boot, int bits)
{
	char *s = halo_strdup_printf(
		"{ \"schema_version\": 1, \"tool\": \"halo-provision\", \"exit_bits\": %d,"
		" \"items\": [], \"node\": { \"hostname\": \"%s\", \"interfaces\": [ %s ]%s%s } }",
		bits, host, ifs, boot ? ", \"boot\": " : "", boot ? boot : "");

	assert_non_null(s);
	return s;
}

static char *iface(const char *name, const char *mtu, const char *addr, const char *roce)
{
	char *s = halo_strdup_printf("{ \"name\": \"%s\", \"mtu\": %s, \"addresses\": [ \"%s\" ]%s%s }",
				     name, mtu, addr, roce ? ", \"roce\": " : "", roce ? roce : "");

	assert_non_null(s);
	return s;
}

static void add(struct halo_cluster *cl, const char *file, char *text)
{
	assert_int_equal(halo_cluster_add(cl, file, text, 0), 0);
	free(text);
}

static void add_node(struct halo_cluster *cl, const char *host, const char *ifname,
		     const char *mtu, const char *addr, const char *roce)
{
	char *i = iface(ifname, mtu, addr, roce);

	add(cl, host, state(host, i, NULL, 0));
	free(i);
}

static const struct halo_cluster_item *find(const struct halo_cluster *cl, const char *key)
{
	for (size_t i = 0; i < cl->n_items; i++)
		if (strcmp(cl->items[i].key, key) == 0)
			return &cl->items[i];
	return NULL;
}

static size_t count(const struct halo_cluster *cl, enum halo_cluster_outcome o)
{
	size_t n = 0;

	for (size_t i = 0; i < cl->n_items; i++)
		n += cl->items[i].outcome == o;
	return n;
}

static void clean_pair(void **st)
{
	struct halo_cluster cl = { 0 };
	const struct halo_cluster_item *it;

	(void)st;
	/* Given in the "wrong" order: the key is by name all the same. */
	add_node(&cl, "n2", "eth1", "9000", "10.0.0.2/30", NULL);
	add_node(&cl, "n1", "eth0", "9000", "10.0.0.1/30", NULL);
	assert_int_equal(halo_cluster_check(&cl), 0);
	assert_int_equal(cl.n_cables, 1);
	it = find(&cl, "cluster/n1:eth0~n2:eth1/mtu");
	assert_non_null(it);
	assert_int_equal(it->outcome, HALO_CL_OK);
	assert_string_equal(it->subject, "n1:eth0 <-> n2:eth1");
	assert_non_null(find(&cl, "cluster/n1:eth0~n2:eth1/subnet"));
	assert_non_null(find(&cl, "cluster/n1:eth0~n2:eth1/address"));
	/* No roce section on either end: nothing RoCE compared. */
	assert_null(find(&cl, "cluster/n1:eth0~n2:eth1/pfc"));
	assert_int_equal(count(&cl, HALO_CL_DRIFT), 0);
	halo_cluster_free(&cl);
}

static void mtu_differs(void **st)
{
	struct halo_cluster cl = { 0 };
	const struct halo_cluster_item *it;

	(void)st;
	add_node(&cl, "n1", "eth0", "9000", "10.0.0.1/30", NULL);
	add_node(&cl, "n2", "eth0", "1500", "10.0.0.2/30", NULL);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	it = find(&cl, "cluster/n1:eth0~n2:eth0/mtu");
	assert_non_null(it);
	assert_int_equal(it->outcome, HALO_CL_DRIFT);
	assert_string_equal(it->value_a, "9000");
	assert_string_equal(it->value_b, "1500");
	assert_string_equal(it->message, "mtu differs: 9000 on n1:eth0, 1500 on n2:eth0");
	assert_int_equal(count(&cl, HALO_CL_DRIFT), 1);
	halo_cluster_free(&cl);
}

static void pairing(void **st)
{
	struct halo_cluster cl = { 0 };
	char *a, *b, *c, *ifs;

	(void)st;
	/* A daisy chain: n2 has two links, one to n1 and one to n3; n1 and
	 * n3 share no subnet. Another /30 next door is no cable. */
	a = iface("p0", "9000", "10.0.1.1/30", NULL);
	add(&cl, "n1", state("n1", a, NULL, 0));
	free(a);
	b = iface("p0", "9000", "10.0.1.2/30", NULL);
	c = iface("p1", "9000", "10.0.2.1/30", NULL);
	ifs = halo_strdup_printf("%s, %s", b, c);
	add(&cl, "n2", state("n2", ifs, NULL, 0));
	free(b);
	free(c);
	free(ifs);
	a = iface("p0", "9000", "10.0.2.2/30", NULL);
	c = iface("p1", "9000", "10.0.1.5/30", NULL);
	ifs = halo_strdup_printf("%s, %s", a, c);
	add(&cl, "n3", state("n3", ifs, NULL, 0));
	free(a);
	free(c);
	free(ifs);
	assert_int_equal(halo_cluster_check(&cl), 0);
	assert_int_equal(cl.n_cables, 2);
	assert_non_null(find(&cl, "cluster/n1:p0~n2:p0/mtu"));
	assert_non_null(find(&cl, "cluster/n2:p1~n3:p0/mtu"));
	assert_null(find(&cl, "cluster/n1:p0~n3:p1/mtu"));
	halo_cluster_free(&cl);
}

static void addresses(void **st)
{
	struct halo_cluster cl = { 0 };

	(void)st;
	/* The same address on both ends, and prefixes that differ (the
	 * shorter one covers both: still the cable). */
	add_node(&cl, "a", "e", "9000", "10.0.0.1/30", NULL);
	add_node(&cl, "b", "e", "9000", "10.0.0.1/24", NULL);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/address")->outcome, HALO_CL_DRIFT);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/subnet")->outcome, HALO_CL_DRIFT);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/mtu")->outcome, HALO_CL_OK);
	halo_cluster_free(&cl);

	/* IPv6 link-local addresses are on every link: no cable. */
	add_node(&cl, "a", "e", "9000", "fe80::1/64", NULL);
	add_node(&cl, "b", "e", "9000", "fe80::2/64", NULL);
	assert_int_equal(halo_cluster_check(&cl), 0);
	assert_int_equal(cl.n_cables, 0);
	halo_cluster_free(&cl);

	/* A 10.0.0.0/30 next to 10.0.0.4/30: no cable either. */
	add_node(&cl, "a", "e", "9000", "10.0.0.2/30", NULL);
	add_node(&cl, "b", "e", "9000", "10.0.0.5/30", NULL);
	assert_int_equal(halo_cluster_check(&cl), 0);
	assert_int_equal(cl.n_cables, 0);
	halo_cluster_free(&cl);
}

#define ROCE(pfc, dscp, tos) \
	"{ \"enable\": true, \"pfc\": " pfc ", \"dscp\": " dscp ", \"tos\": " tos \
	", \"trust\": \"dscp\", \"ecn\": null }"

static void roce_facts(void **st)
{
	struct halo_cluster cl = { 0 };

	(void)st;
	add_node(&cl, "a", "e", "9000", "10.0.0.1/30", ROCE("[ 3 ]", "[ \"26:3\" ]", "106"));
	add_node(&cl, "b", "e", "9000", "10.0.0.2/30", ROCE("[ 4 ]", "[ \"26:3\" ]", "104"));
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/pfc")->outcome, HALO_CL_DRIFT);
	assert_string_equal(find(&cl, "cluster/a:e~b:e/pfc")->value_a, "[3]");
	assert_int_equal(find(&cl, "cluster/a:e~b:e/tos")->outcome, HALO_CL_DRIFT);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/dscp")->outcome, HALO_CL_OK);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/trust")->outcome, HALO_CL_OK);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/roce")->outcome, HALO_CL_OK);
	halo_cluster_free(&cl);

	/* Only one end configures RoCE: the other's "unset" differs. */
	add_node(&cl, "a", "e", "9000", "10.0.0.1/30", ROCE("[ 3 ]", "[ \"26:3\" ]", "106"));
	add_node(&cl, "b", "e", "9000", "10.0.0.2/30", NULL);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_string_equal(find(&cl, "cluster/a:e~b:e/pfc")->value_b, "unset");
	assert_int_equal(find(&cl, "cluster/a:e~b:e/ecn")->outcome, HALO_CL_OK);
	halo_cluster_free(&cl);
}

static void nodes(void **st)
{
	struct halo_cluster cl = { 0 };
	char *i;

	(void)st;
	/* Missing, not JSON, no node facts, the same hostname twice, a
	 * failed last apply. */
	add_node(&cl, "n1", "e", "9000", "10.0.0.1/30", NULL);
	assert_int_equal(halo_cluster_add(&cl, "/nowhere/n9.json", NULL, -ENOENT), 0);
	assert_int_equal(halo_cluster_add(&cl, "garbage.json", "{ nope", 0), 0);
	assert_int_equal(halo_cluster_add(&cl, "old.json",
					  "{ \"schema_version\": 1, \"items\": [] }", 0), 0);
	add_node(&cl, "n1", "e", "9000", "10.0.0.9/30", NULL);
	i = iface("e", "9000", "10.0.0.2/30", NULL);
	add(&cl, "n2.json", state("n2", i, NULL, HALO_EXIT_FAILED));
	free(i);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_FAILED | HALO_EXIT_CHANGED);
	assert_int_equal(find(&cl, "cluster//nowhere/n9.json/state")->outcome, HALO_CL_FAILED);
	assert_string_equal(find(&cl, "cluster//nowhere/n9.json/state")->message,
			    "missing state file: No such file or directory");
	assert_string_equal(find(&cl, "cluster/garbage.json/state")->message, "not JSON");
	assert_non_null(strstr(find(&cl, "cluster/old.json/state")->message, "no node facts"));
	assert_int_equal(find(&cl, "cluster/n1/hostname")->outcome, HALO_CL_FAILED);
	assert_int_equal(find(&cl, "cluster/n2/stale")->outcome, HALO_CL_DRIFT);
	/* The cable n1 <-> n2 is still compared, once. */
	assert_int_equal(cl.n_cables, 1);
	halo_cluster_free(&cl);
}

static void boot_facts(void **st)
{
	struct halo_cluster cl = { 0 };
	static const char *const gtt[] = { "126976", "126976", "65536", NULL };
	char name[8];

	(void)st;
	for (size_t k = 0; k < 4; k++) {
		char *boot = k < 3 ? halo_strdup_printf(
			"{ \"gtt_mib\": %s, \"params\": [ \"iommu=pt\" ] }", gtt[k]) : NULL;

		snprintf(name, sizeof(name), "n%zu", k + 1);
		/* n4 has no boot section: left out. */
		add(&cl, name, state(name, "", boot, 0));
		free(boot);
	}
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(find(&cl, "cluster/n1/gtt_mib")->outcome, HALO_CL_OK);
	assert_int_equal(find(&cl, "cluster/n3/gtt_mib")->outcome, HALO_CL_DRIFT);
	assert_string_equal(find(&cl, "cluster/n3/gtt_mib")->message,
			    "gtt_mib differs: 65536 here, 126976 on n1 (the most nodes' value)");
	assert_int_equal(find(&cl, "cluster/n3/kernel_params")->outcome, HALO_CL_OK);
	assert_null(find(&cl, "cluster/n4/gtt_mib"));
	halo_cluster_free(&cl);
}

static void text_output(void **st)
{
	struct halo_cluster cl = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int bits;

	(void)st;
	assert_non_null(f);
	add_node(&cl, "n1", "eth0", "9000", "10.0.0.1/30", NULL);
	add_node(&cl, "n2", "eth0", "1500", "10.0.0.2/30", NULL);
	bits = halo_cluster_check(&cl);
	halo_cluster_print_text(f, &cl, bits, 0);
	fclose(f);
	assert_string_equal(buf,
			    "drift   n1:eth0 <-> n2:eth0  mtu differs: 9000 on n1:eth0, 1500 on n2:eth0\n"
			    "cluster: 2 nodes, 1 cable, 3 items, 2 ok, 1 drift\n");
	free(buf);
	halo_cluster_free(&cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clean_pair),
		cmocka_unit_test(mtu_differs),
		cmocka_unit_test(pairing),
		cmocka_unit_test(addresses),
		cmocka_unit_test(roce_facts),
		cmocka_unit_test(nodes),
		cmocka_unit_test(boot_facts),
		cmocka_unit_test(text_output),
	};

	return cmocka_run_group_tests_name("cluster", tests, NULL, NULL);
}
