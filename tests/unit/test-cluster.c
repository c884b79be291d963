/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-cluster.c: --cluster's cable pairing, segments, dangling ports
 * and comparisons, on state documents and live audits written here
 * (src/cluster/), and its Graphviz map. */
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
#include "cluster/internal.h"
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
	assert_int_equal(halo_cluster_add(cl, file, text, NULL), 0);
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
	 * n3 share no subnet. Another /30 next door is no cable, but a
	 * dangling port. */
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
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(cl.n_cables, 2);
	assert_non_null(find(&cl, "cluster/n1:p0~n2:p0/mtu"));
	assert_non_null(find(&cl, "cluster/n2:p1~n3:p0/mtu"));
	assert_null(find(&cl, "cluster/n1:p0~n3:p1/mtu"));
	assert_int_equal(cl.n_dangling, 1);
	assert_int_equal(find(&cl, "cluster/n3:p1/peer")->outcome, HALO_CL_DRIFT);
	assert_int_equal(count(&cl, HALO_CL_DRIFT), 1);
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

	/* A 10.0.0.0/30 next to 10.0.0.4/30: no cable either, two
	 * dangling ports. */
	add_node(&cl, "a", "e", "9000", "10.0.0.2/30", NULL);
	add_node(&cl, "b", "e", "9000", "10.0.0.5/30", NULL);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(cl.n_cables, 0);
	assert_int_equal(cl.n_dangling, 2);
	assert_string_equal(find(&cl, "cluster/b:e/peer")->message,
			    "dangling port: no other node's port in the subnet of 10.0.0.5/30 among the inputs");
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
	assert_int_equal(halo_cluster_add(&cl, "/nowhere/n9.json", NULL,
					  "missing state file: No such file or directory"), 0);
	assert_int_equal(halo_cluster_add(&cl, "garbage.json", "{ nope", NULL), 0);
	assert_int_equal(halo_cluster_add(&cl, "old.json",
					  "{ \"schema_version\": 1, \"items\": [] }", NULL), 0);
	add_node(&cl, "n1", "e", "9000", "10.0.0.9/30", NULL);
	i = iface("e", "9000", "10.0.0.2/30", NULL);
	add(&cl, "n2.json", state("n2", i, NULL, HALO_EXIT_FAILED));
	free(i);
	/* A port name the config could not have given: "n3" with port "b:e"
	 * would be the same endpoint as a host "n3:b" with port "e". */
	i = iface("b:e", "9000", "10.0.0.5/30", NULL);
	add(&cl, "n3.json", state("n3", i, NULL, 0));
	free(i);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_FAILED | HALO_EXIT_CHANGED);
	assert_string_equal(find(&cl, "cluster/n3.json/state")->message, "malformed node facts");
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

/* CL checked, then printed as text (DOT false) or as the Graphviz map:
 * the output (caller frees). */
static char *printed(struct halo_cluster *cl, bool dot)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int bits;

	assert_non_null(f);
	bits = halo_cluster_check(cl);
	if (dot)
		assert_int_equal(halo_cluster_print_dot(f, cl, bits), 0);
	else
		halo_cluster_print_text(f, cl, bits, 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

static void text_output(void **st)
{
	struct halo_cluster cl = { 0 };
	char *buf;

	(void)st;
	add_node(&cl, "n1", "eth0", "9000", "10.0.0.1/30", NULL);
	add_node(&cl, "n2", "eth0", "1500", "10.0.0.2/30", NULL);
	buf = printed(&cl, false);
	assert_string_equal(buf,
			    "drift   n1:eth0 <-> n2:eth0  mtu differs: 9000 on n1:eth0, 1500 on n2:eth0\n"
			    "cluster: 2 nodes, 1 cable, 3 items, 2 ok, 1 drift\n");
	free(buf);
	halo_cluster_free(&cl);
}

/* A --check --json document of node HOST: one interface E with the
 * configured MTU CONF and the live one LIVE, exit code BITS. */
static char *audit(const char *host, const char *conf, const char *live, const char *addr,
		   int bits)
{
	char *s = halo_strdup_printf(
		"{ \"schema_version\": 1, \"tool\": \"halo-provision\", \"mode\": \"check\","
		" \"exit_code\": %d, \"summary\": {}, \"items\": [], \"node\": { \"hostname\": \"%s\","
		" \"interfaces\": [ { \"name\": \"e\", \"mtu\": %s, \"live_mtu\": %s,"
		" \"addresses\": [ \"%s\" ] } ] } }", bits, host, conf, live, addr);

	assert_non_null(s);
	return s;
}

static void live_audits(void **st)
{
	struct halo_cluster cl = { 0 };
	const struct halo_cluster_item *it;

	(void)st;
	/* a's MTU drifted behind the tool's back: the cable is broken now,
	 * though both configs agree. */
	add(&cl, "a.json", audit("a", "9000", "1500", "10.0.0.1/30", HALO_EXIT_CHANGED));
	add(&cl, "b.json", audit("b", "9000", "9000", "10.0.0.2/30", 0));
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	it = find(&cl, "cluster/a:e~b:e/mtu");
	assert_int_equal(it->outcome, HALO_CL_DRIFT);
	assert_string_equal(it->value_a, "1500");
	assert_string_equal(it->value_b, "9000");
	assert_string_equal(it->message, "mtu differs: 1500 on a:e (configured 9000), 9000 on b:e");
	assert_int_equal(count(&cl, HALO_CL_DRIFT), 1);
	/* A drift of the node alone is no finding of the cluster. */
	assert_null(find(&cl, "cluster/a/stale"));
	halo_cluster_free(&cl);

	/* The live MTUs agree, the configs do not: the next apply would
	 * break the cable. */
	add(&cl, "a.json", audit("a", "1500", "9000", "10.0.0.1/30", HALO_EXIT_CHANGED));
	add(&cl, "b.json", audit("b", "9000", "9000", "10.0.0.2/30", 0));
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_string_equal(find(&cl, "cluster/a:e~b:e/mtu")->message,
			    "mtu differs in the configs: 1500 on a:e, 9000 on b:e (9000 on both now)");
	halo_cluster_free(&cl);

	/* An audit and a state file compare; a failed audit is stale; a
	 * link that was missing (live null) counts its configured MTU. */
	add(&cl, "a.json", audit("a", "9000", "null", "10.0.0.1/30", HALO_EXIT_FAILED));
	add_node(&cl, "b", "e", "9000", "10.0.0.2/30", NULL);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(find(&cl, "cluster/a:e~b:e/mtu")->outcome, HALO_CL_OK);
	assert_string_equal(find(&cl, "cluster/a/stale")->message,
			    "its audit found failed items (a.json): its facts need not be live; see its report");
	halo_cluster_free(&cl);

	/* Documents that are no node's audit. */
	assert_int_equal(halo_cluster_add(&cl, "cl.json",
					  "{ \"schema_version\": 1, \"mode\": \"cluster\", \"items\": [] }", NULL), 0);
	assert_int_equal(halo_cluster_add(&cl, "err.json",
					  "{ \"schema_version\": 1, \"mode\": \"check\", \"items\": [],"
					  " \"errors\": [ \"x\" ] }", NULL), 0);
	assert_int_equal(halo_cluster_add(&cl, "only.json",
					  "{ \"schema_version\": 1, \"mode\": \"check\", \"items\": [] }", NULL), 0);
	assert_int_equal(halo_cluster_add(&cl, "status.json",
					  "{ \"schema_version\": 1, \"mode\": \"status\", \"items\": [] }", NULL), 0);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_FAILED);
	assert_string_equal(find(&cl, "cluster/cl.json/state")->message, "a --cluster report, not a node's");
	assert_string_equal(find(&cl, "cluster/err.json/state")->message,
			    "a run that stopped before its audit (exit 1): it has no facts");
	assert_non_null(strstr(find(&cl, "cluster/only.json/state")->message,
			       "audit it with a full --check --json"));
	assert_string_equal(find(&cl, "cluster/status.json/state")->message,
			    "not a halo-provision state file or --json report");
	halo_cluster_free(&cl);
}

/* N nodes "n001".. with one port "e" each in 10.0.0.0/PREFIX at .I+1,
 * MTU 9000, but node ODD (1-based; 0: none) with MTU ODD_MTU. */
static void add_switched(struct halo_cluster *cl, size_t n, unsigned prefix, size_t odd,
			 const char *odd_mtu)
{
	for (size_t i = 1; i <= n; i++) {
		char host[16], addr[32];

		snprintf(host, sizeof(host), "n%03zu", i);
		snprintf(addr, sizeof(addr), "10.0.%zu.%zu/%u", i / 250, i % 250 + 1, prefix);
		add_node(cl, host, "e", i == odd ? odd_mtu : "9000", addr, NULL);
	}
}

static void segments(void **st)
{
	struct halo_cluster cl = { 0 };
	const struct halo_cluster_item *it;
	char *i1, *i2, *ifs;

	(void)st;
	/* Six nodes behind a switch, one of them at MTU 1500: exactly
	 * that port, one item per port and one for the segment. */
	add_switched(&cl, 6, 24, 3, "1500");
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(cl.n_cables, 0);
	assert_int_equal(cl.n_segments, 1);
	assert_int_equal(cl.n_items, 7);
	assert_int_equal(count(&cl, HALO_CL_DRIFT), 1);
	it = find(&cl, "cluster/n003:e~10.0.0.0/24/port");
	assert_non_null(it);
	assert_int_equal(it->outcome, HALO_CL_DRIFT);
	assert_string_equal(it->subject, "n003:e <-> switch 10.0.0.0/24");
	assert_string_equal(it->message, "mtu 1500, the segment's 9000");
	assert_string_equal(it->value_a, "1500");
	assert_string_equal(it->value_b, "9000");
	it = find(&cl, "cluster/10.0.0.0/24/segment");
	assert_int_equal(it->outcome, HALO_CL_OK);
	assert_string_equal(it->message, "a switched segment: 6 ports of 6 nodes, mtu 9000, prefix /24"
			    " (the most ports' values); 1 port differs");
	assert_string_equal(find(&cl, "cluster/n001:e~10.0.0.0/24/port")->message,
			    "mtu 9000, prefix /24, as the segment");
	halo_cluster_free(&cl);

	/* A duplicate address, a wider prefix (it covers the others: the
	 * same segment) and a RoCE section on one port only. */
	add_node(&cl, "a", "e", "9000", "10.0.0.1/24", NULL);
	add_node(&cl, "b", "e", "9000", "10.0.0.2/24", NULL);
	add_node(&cl, "c", "e", "9000", "10.0.0.2/24", NULL);
	add_node(&cl, "d", "e", "9000", "10.0.0.4/16", NULL);
	add_node(&cl, "e", "e", "9000", "10.0.0.5/24", ROCE("[ 3 ]", "null", "106"));
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(cl.n_segments, 1);
	assert_string_equal(find(&cl, "cluster/b:e~10.0.0.0/24/port")->message,
			    "address 10.0.0.2/24 also on c:e");
	assert_string_equal(find(&cl, "cluster/c:e~10.0.0.0/24/port")->message,
			    "address 10.0.0.2/24 also on b:e");
	assert_string_equal(find(&cl, "cluster/d:e~10.0.0.0/24/port")->message,
			    "prefix /16, the segment's /24");
	assert_string_equal(find(&cl, "cluster/e:e~10.0.0.0/24/port")->message,
			    "roce true, the segment's unset; pfc [3], the segment's unset; "
			    "tos 106, the segment's unset; trust dscp, the segment's unset");
	assert_int_equal(find(&cl, "cluster/a:e~10.0.0.0/24/port")->outcome, HALO_CL_OK);
	assert_int_equal(count(&cl, HALO_CL_DRIFT), 4);
	halo_cluster_free(&cl);

	/* Two ports of one node and one of another: a segment; two ports
	 * of one node alone: both dangle. */
	i1 = iface("p0", "9000", "10.1.0.1/24", NULL);
	i2 = iface("p1", "9000", "10.1.0.2/24", NULL);
	ifs = halo_strdup_printf("%s, %s", i1, i2);
	add(&cl, "m", state("m", ifs, NULL, 0));
	add_node(&cl, "n", "e", "9000", "10.1.0.3/24", NULL);
	assert_int_equal(halo_cluster_check(&cl), 0);
	assert_int_equal(cl.n_segments, 1);
	assert_int_equal(find(&cl, "cluster/10.1.0.0/24/segment")->outcome, HALO_CL_OK);
	assert_non_null(strstr(find(&cl, "cluster/10.1.0.0/24/segment")->message, "3 ports of 2 nodes"));
	halo_cluster_free(&cl);
	add(&cl, "m", state("m", ifs, NULL, 0));
	add_node(&cl, "n", "e", "9000", "10.2.0.3/24", NULL);
	assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
	assert_int_equal(cl.n_dangling, 3);
	assert_non_null(find(&cl, "cluster/m:p0/peer"));
	assert_non_null(find(&cl, "cluster/m:p1/peer"));
	halo_cluster_free(&cl);
	free(i1);
	free(i2);
	free(ifs);
}

/* A switched fabric holds one item per port and one per segment: the
 * count grows with the nodes, not with their pairs. */
static void segment_is_linear(void **st)
{
	(void)st;
	for (size_t n = 200; n <= 800; n *= 2) {
		struct halo_cluster cl = { 0 };

		add_switched(&cl, n, 16, n / 2, "1500");
		assert_int_equal(halo_cluster_check(&cl), HALO_EXIT_CHANGED);
		assert_int_equal(cl.n_items, n + 1);
		assert_int_equal(cl.n_links, n);
		assert_int_equal(count(&cl, HALO_CL_DRIFT), 1);
		halo_cluster_free(&cl);
	}
}

static void majority(void **st)
{
	static const char *const tie[] = { "b", "a", "a", "b" };
	static const char *const most[] = { "x", "y", "y" };
	size_t scratch[4];

	(void)st;
	bool is_tie;

	/* A tie goes to the value of the lowest index, and is said. */
	assert_int_equal(halo_cl_majority(tie, 4, scratch, &is_tie), 0);
	assert_true(is_tie);
	assert_int_equal(halo_cl_majority(tie + 1, 3, scratch, &is_tie), 0);
	assert_false(is_tie);
	assert_int_equal(halo_cl_majority(most, 3, scratch, &is_tie), 1);
	assert_false(is_tie);
	assert_int_equal(halo_cl_majority(most, 1, scratch, NULL), 0);
	/* one of each: every value ties */
	assert_int_equal(halo_cl_majority(most, 2, scratch, &is_tie), 0);
	assert_true(is_tie);
}

/* Whether a line of BUF contains NEEDLE (and ALSO, unless NULL). */
static bool dot_line(const char *buf, const char *needle, const char *also)
{
	for (const char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *line = strndup(p, len);
		bool hit = line && strstr(line, needle) && (!also || strstr(line, also));

		free(line);
		if (hit)
			return true;
	}
	return false;
}

static void dot_output(void **st)
{
	struct halo_cluster cl = { 0 };
	char *buf, *i;

	(void)st;
	add_node(&cl, "n1", "eth0", "9000", "10.0.0.1/30", NULL);
	add_node(&cl, "n2", "eth0", "1500", "10.0.0.2/30", NULL);
	add_node(&cl, "n2", "eth9", "9000", "10.9.0.2/30", NULL); /* the same node again */
	i = iface("eth1", "9000", "10.0.1.1/30", NULL);
	add(&cl, "n\"3", state("n\\\"3", i, NULL, HALO_EXIT_FAILED));
	free(i);
	assert_int_equal(halo_cluster_add(&cl, "gone.json", NULL, "missing state file: No such file or directory"), 0);
	buf = printed(&cl, true);
	assert_non_null(strstr(buf, "graph \"halo-cluster\" {\n"));
	/* The cable whose ends disagree, in red, with what differs. */
	assert_true(dot_line(buf, "\"n1:eth0\" -- \"n2:eth0\"", "class=\"cable drift\""));
	assert_true(dot_line(buf, "\"n1:eth0\" -- \"n2:eth0\"", "label=\"10.0.0.0/30\\nmtu 9000/1500\\ndiffers: mtu\""));
	/* A dangling port, a stale node, a missing one, a duplicate. */
	assert_true(dot_line(buf, "\"n\\\"3:eth1\" [label=\"eth1", "class=\"port dangling\""));
	assert_true(dot_line(buf, "class=\"host stale\"", NULL));
	assert_true(dot_line(buf, "label=\"n\\\"3 (stale: its last apply failed)\"", NULL));
	assert_true(dot_line(buf, "gone.json\\nmissing state file", "class=\"host missing\""));
	assert_true(dot_line(buf, "a second file of this node", "class=\"host missing\""));
	assert_string_equal(buf + strlen(buf) - 2, "}\n");
	free(buf);
	halo_cluster_free(&cl);

	/* A segment: a switch node, an edge per port. */
	add_switched(&cl, 4, 24, 2, "1500");
	buf = printed(&cl, true);
	assert_true(dot_line(buf, "\"segment0\" [shape=box3d", "label=\"switch 10.0.0.0/24\\nmtu 9000, 4 ports of 4 nodes\\n1 differs\""));
	assert_true(dot_line(buf, "\"n002:e\" -- \"segment0\"", "class=\"switchport drift\""));
	assert_true(dot_line(buf, "\"n001:e\" -- \"segment0\"", "class=\"switchport\"]"));
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
		cmocka_unit_test(live_audits),
		cmocka_unit_test(segments),
		cmocka_unit_test(segment_is_linear),
		cmocka_unit_test(majority),
		cmocka_unit_test(dot_output),
	};

	return cmocka_run_group_tests_name("cluster", tests, NULL, NULL);
}
