/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The state file's own reader (nicsim-json.c) against json-c: every text
 * loads into the same NIC, with the same verdict, whichever reads it. The
 * texts: states the simulator writes for several configurations, as
 * written and compact, then edited (values replaced by others of every
 * type and size, members dropped, named twice), then mangled byte by
 * byte. A run also shows that the reader took most of the edited texts
 * itself (an agreement reached by always deferring to json-c would prove
 * nothing). Extra arguments: state files to compare as they are.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "nicsim.h"

/* What the library's other files give the ones linked here: only the
 * environment is used by loading and saving a state. */
static struct nicsim_env env;

const struct nicsim_env *nicsim_env(void)
{
	return &env;
}

int nicsim_port_reset(struct nicsim_if *nic)
{
	(void)nic;
	return 0;
}

int nicsim_carrier_flap(struct nicsim_if *nic)
{
	(void)nic;
	return 0;
}

static const char *const configs[] = {
	"p0 e810\n",
	"p0 e810 fw_lldp_agent=off pfc=3,4 dscp=26:3,48:6 nvm=4.a0\n",
	"p0 e810 fw_lldp_agent=off bonded=yes enable_roce=false enable_iwarp=true\n",
	"p0 connectx\n",
	"p0 connectx dcbx=host pfc=3 dscp=26:3 fw=16.35.2000 pci=0000:41:00.0\n",
	"p0 connectx pfc=none enable_roce=false flap_ms=10\n",
};
#define N_CONFIGS (sizeof(configs) / sizeof(configs[0]))

static char tmpdir[] = "/tmp/nicsim-json-test.XXXXXX";
static unsigned long long fast_taken, compared;

/* The NIC CONFIG describes, before any state file. */
static void nic_of(const char *config, struct nicsim_if *nic)
{
	char path[sizeof(tmpdir) + 16], err[256];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/conf", tmpdir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(config, f);
	fclose(f);
	memset(nic, 0, sizeof(*nic));
	assert_int_equal(nicsim_config_load(path, nic, 1, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
}

static char *slurp(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, len = 0, n;

	assert_non_null(f);
	do {
		if (len + 4096 > cap) {
			cap = (cap + 4096) * 2;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	*ret_len = len;
	return buf;
}

/* The state file the simulator writes for NIC. */
static char *written(const struct nicsim_if *nic, size_t *ret_len)
{
	char path[sizeof(tmpdir) + 32];

	assert_int_equal(nicsim_state_save(nic), 0);
	snprintf(path, sizeof(path), "%s/%s.json", tmpdir, nic->name);
	return slurp(path, ret_len);
}

/* TEXT loaded both ways over BASE: the same verdict and the same NIC. */
static void compare(const struct nicsim_if *base, const char *text, size_t len)
{
	static struct nicsim_if a, b;
	struct nicsim_json_doc doc;
	int ra, rb;

	a = *base;
	b = *base;
	ra = nicsim_state_parse(&a, text, len, true);
	rb = nicsim_state_parse(&b, text, len, false);
	if (ra != rb || memcmp(&a, &b, sizeof(a)) != 0) {
		fprintf(stderr, "# disagreement (%d, json-c %d) on:\n%.*s\n", ra, rb, (int)len, text);
		fail();
	}
	if (nicsim_json_read(&doc, text, len)) {
		fast_taken++;
		nicsim_json_free(&doc);
	}
	compared++;
}

static unsigned long long rng = 0x9e3779b97f4a7c15ull;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Values of every type json-c has, in and out of each member's range
 * (and past the reader's: 19 digits, a float, an escape, a signed one). */
static const char *const values[] = {
	"0", "1", "3", "7", "8", "9", "13", "100", "101", "255", "256", "65535", "65536",
	"2147483647", "2147483648", "4294967299", "999999999999999999",
	"1000000000000000000", "9223372036854775808", "-1", "1.0", "1e2",
	"\"\"", "\"host\"", "\"firmware\"", "\"dscp\"", "\"pcp\"", "\"e810\"", "\"ets\"",
	"\"strict\"", "\"vendor\"", "\"cb_shaper\"", "\"4.91\"", "\"4.a0\"", "\"16.35.2000\"",
	"\"9\"", "\"13\"", "\"x\"", "\"ho\\u0073t\"", "true", "false", "null", "[]", "{}",
	"[3]", "[3,4]", "[9]", "[0,1,2,3,4,5,6,7]", "[100,0,0,0,0,0,0,0]",
	"[\"ets\",\"ets\",\"strict\",\"vendor\",\"cb_shaper\",2,255,0]",
	"[{\"selector\":\"dscp\",\"protocol\":26,\"priority\":3}]",
	"[{\"selector\":5,\"protocol\":48,\"priority\":6},{\"selector\":\"ethertype\",\"protocol\":35078,\"priority\":3}]",
	"{\"enable_roce\":false,\"enable_iwarp\":true}", "{\"get\":1,\"set\":2}",
};
#define N_VALUES (sizeof(values) / sizeof(values[0]))

static json_object *value_of(const char *text)
{
	json_object *v = json_tokener_parse(text);

	assert_true(v || strcmp(text, "null") == 0);
	return v;
}

/* Every member of O (and below) as (object, key) pairs, or array slots. */
struct slot {
	json_object *parent;
	const char *key; /* NULL: element IDX of an array */
	size_t idx;
};

static size_t slots_of(json_object *o, struct slot *s, size_t n, size_t max)
{
	if (json_object_is_type(o, json_type_object)) {
		json_object_object_foreach(o, key, val) {
			if (n < max)
				s[n++] = (struct slot){ o, key, 0 };
			n = slots_of(val, s, n, max);
		}
	} else if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			if (n < max)
				s[n++] = (struct slot){ o, NULL, i };
			n = slots_of(json_object_array_get_idx(o, i), s, n, max);
		}
	}
	return n;
}

/* One edit of the tree: a value replaced, a member dropped. */
static void edit(json_object *root)
{
	struct slot s[512];
	size_t n = slots_of(root, s, 0, 512);
	struct slot *at;

	if (!n)
		return;
	at = &s[pick((unsigned)n)];
	if (at->key && pick(4) == 0) {
		json_object_object_del(at->parent, at->key);
	} else if (at->key) {
		json_object_object_add(at->parent, at->key, value_of(values[pick(N_VALUES)]));
	} else {
		json_object_array_put_idx(at->parent, at->idx, value_of(values[pick(N_VALUES)]));
	}
}

static const int layouts[] = {
	JSON_C_TO_STRING_PLAIN, JSON_C_TO_STRING_SPACED,
	JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED, JSON_C_TO_STRING_PRETTY_TAB,
};

/* The simulator's own files, as written and in json-c's other layouts. */
static void test_written(void **unused)
{
	(void)unused;
	for (size_t c = 0; c < N_CONFIGS; c++) {
		struct nicsim_if nic;
		size_t len;
		char *text;
		json_object *o;

		nic_of(configs[c], &nic);
		text = written(&nic, &len);
		fast_taken = 0;
		compare(&nic, text, len);
		assert_int_equal(fast_taken, 1);
		o = json_tokener_parse(text);
		for (size_t l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
			const char *t = json_object_to_json_string_ext(o, layouts[l]);

			fast_taken = 0;
			compare(&nic, t, strlen(t));
			assert_int_equal(fast_taken, 1);
		}
		json_object_put(o);
		free(text);
	}
}

/* Files a test edits: values of every type and range, members gone. */
static void test_edited(void **unused)
{
	(void)unused;
	fast_taken = compared = 0;
	for (size_t c = 0; c < N_CONFIGS; c++) {
		struct nicsim_if nic;
		size_t len;
		char *text;

		nic_of(configs[c], &nic);
		text = written(&nic, &len);
		for (int round = 0; round < 1500; round++) {
			json_object *o = json_tokener_parse(text);
			const char *t;
			int edits = 1 + (int)pick(3);

			for (int e = 0; e < edits; e++)
				edit(o);
			t = json_object_to_json_string_ext(o, layouts[pick(4)]);
			compare(&nic, t, strlen(t));
			json_object_put(o);
		}
		free(text);
	}
	/* Most of them are the reader's to take: the test compares it. */
	fprintf(stderr, "# edited: %llu of %llu taken by the reader\n", fast_taken, compared);
	assert_true(fast_taken * 2 > compared);
}

static const char *const hostile[] = {
	"", " ", "{", "}", "{}", "{} ", "{}x", "{} {}", "[]", "\"x\"", "1", "null",
	"{\"dcbx\":\"host\"}", "{\"dcbx\":\"host\",\"dcbx_mode\":\"13\"}",
	"{\"dcbx\":\"host\",\"dcbx_mode\":13.0}", "{\"dcbx\":\"host\",\"dcbx_mode\":true}",
	"{\"dcbx\":\"host\",\"dcbx_mode\":null}", "{\"dcbx\":\"host\",\"dcbx_mode\":[]}",
	"{\"dcbx\":null}", "{\"dcbx\":1}", "{\"dcbx\":\"ho\\u0000st\"}",
	"{\"pfc_cap\":1,\"pfc_cap\":2}", "{\"pfc_cap\":2,\"pfc_cap\":9}",
	"{\"pfc_cap\":07}", "{\"pfc_cap\":-0}", "{\"pfc_cap\":+1}", "{\"pfc_cap\":0x3}",
	"{\"pfc_cap\":TRUE}", "{\"bonded\":True}", "{\"bonded\":tru}", "{\"bonded\":truex}",
	"{\"pfc_enabled\":[1,]}", "{\"pfc_enabled\":[,1]}", "{,}", "{\"a\":1,}",
	"{'pfc_cap':1}", "{\"pfc_cap\":1}/*c*/", "/*c*/{\"pfc_cap\":1}", "\xef\xbb\xbf{}",
	"{\"pfc_cap\"\v:1}", "{\"pfc_cap\":\f1}", "{\"pfc_cap\" : 1 }", "\n{\"pfc_cap\":1}\n",
	"{\"firmware\":\"4.\\u0039\"}", "{\"firmware\":\"4.\xc3\xa9\"}", "{\"pci\":\"\x01\"}",
	"{\"app\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	"{\"app\":[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]}", "{\"app\":[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]}",
	"{\"requests\":{\"dcbnl\":{\"get\":18446744073709551615}}}",
	"{\"requests\":{\"dcbnl\":{\"get\":123456789012345678}}}",
	"{\"link_flaps\":9223372036854775807}", "{\"link_flaps\":1e400}",
	"{\"\":1}", "{\"a\\\"b\":1}", "{\"devlink\":5}", "{\"devlink\":null}",
	"{\"priv_flags\":{\"fw-lldp-agent\":false,\"fw-lldp-agent\":true}}",
	"{\"priv_flags\":{\"fw-lldp-agent\":false}}", "{\"ets\":{\"tsa\":[1,2,3,4,5,6,7,8,9]}}",
};

/* Texts no test writes on purpose: a written file mangled byte by byte,
 * and a list of corner cases of both readers. */
static void test_hostile(void **unused)
{
	static const char alphabet[] = "{}[]\",:0123456789-+.eE tfnrulsa\\/*'\t\n\r\v\f\x01\x80";
	(void)unused;
	for (size_t c = 0; c < N_CONFIGS; c++) {
		struct nicsim_if nic;
		size_t len;
		char *text;

		nic_of(configs[c], &nic);
		for (size_t h = 0; h < sizeof(hostile) / sizeof(hostile[0]); h++)
			compare(&nic, hostile[h], strlen(hostile[h]));
		text = written(&nic, &len);
		for (int round = 0; round < 1500; round++) {
			char buf[8192];
			size_t n = len < sizeof(buf) - 8 ? len : sizeof(buf) - 8;
			size_t at = pick((unsigned)n);

			memcpy(buf, text, n);
			switch (pick(4)) {
			case 0: /* a byte replaced */
				buf[at] = alphabet[pick(sizeof(alphabet) - 1)];
				break;
			case 1: /* a byte dropped */
				memmove(buf + at, buf + at + 1, n - at - 1);
				n--;
				break;
			case 2: /* a byte added */
				memmove(buf + at + 1, buf + at, n - at);
				buf[at] = alphabet[pick(sizeof(alphabet) - 1)];
				n++;
				break;
			default: /* cut short */
				n = at;
				break;
			}
			compare(&nic, buf, n);
		}
		free(text);
	}
}

/* State files given on the command line, as they are. */
static char **extra_files;
static int n_extra;

static void test_files(void **unused)
{
	(void)unused;
	for (int i = 0; i < n_extra; i++) {
		struct nicsim_if nic;
		size_t len;
		char *text = slurp(extra_files[i], &len);

		nic_of(strstr(text, "\"e810\"") ? configs[0] : configs[3], &nic);
		compare(&nic, text, len);
		free(text);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written),
		cmocka_unit_test(test_edited),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_files),
	};
	char rm[sizeof(tmpdir) + 16];
	int r;

	extra_files = argv + 1;
	n_extra = argc - 1;
	if (!mkdtemp(tmpdir))
		return 99;
	env.state = tmpdir;
	r = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(rm, sizeof(rm), "%s/p0.json", tmpdir);
	unlink(rm);
	snprintf(rm, sizeof(rm), "%s/conf", tmpdir);
	unlink(rm);
	rmdir(tmpdir);
	return r;
}
