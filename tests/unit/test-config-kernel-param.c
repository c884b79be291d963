/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-kernel-param.c: one kernel command line parameter
 * (src/config/kernel-param.c), boot.extra and boot.remove parsed once. */
#include <errno.h>

#include "config-test.h"
#include "config/kernel-param.h"

static void key(void **state)
{
	const char *k;

	assert_int_equal(halo_kernel_param_key("iommu=pt", &k), 5);
	assert_memory_equal(k, "iommu", 5);
	assert_int_equal(halo_kernel_param_key("quiet", &k), 5);
	assert_int_equal(halo_kernel_param_key("\"quiet\"", &k), 5);
	assert_memory_equal(k, "quiet", 5);
	assert_int_equal(halo_kernel_param_key("\"foo=a b\"", &k), 3);
	assert_int_equal(halo_kernel_param_key("a=b=c", &k), 1);
	assert_true(halo_kernel_param_has_key("ttm.pages_limit=1", "ttm.pages_limit"));
	assert_false(halo_kernel_param_has_key("ttm.pages_limit2=1", "ttm.pages_limit"));
	assert_false(halo_kernel_param_has_key("ttm.pages_limit=1", "ttm.pages"));
	/* parameq(): dashes and underscores are the same. */
	assert_true(halo_kernel_param_has_key("pcie-aspm=off", "pcie_aspm"));
	assert_true(halo_kernel_param_has_key("pcie_aspm", "pcie-aspm"));
	/* A quoted token's closing quote is not key, unless an '=' is. */
	assert_true(halo_kernel_param_has_key("\"quiet\"", "quiet"));
	assert_false(halo_kernel_param_has_key("\"quiet\"", "quiet\""));
	assert_false(halo_kernel_param_has_key("quiet\"", "quiet"));
	assert_true(halo_kernel_param_has_key("quiet\"", "quiet\""));
	assert_true(halo_kernel_param_has_key("\"foo=a b\"", "foo"));
	assert_false(halo_kernel_param_has_key("\"foo=a b\"", "foo=a"));
	assert_false(halo_kernel_param_has_key("\"quiet\"x", "quiet"));
	/* The token's key ends at its first '=' or its end, whatever the
	 * key asked for goes on with. */
	assert_false(halo_kernel_param_has_key("foo=a", "foo=a"));
	assert_false(halo_kernel_param_has_key("ttm", "ttm.pages_limit"));
	assert_false(halo_kernel_param_has_key("\"quiet", "quiet\""));
	assert_true(halo_kernel_param_has_key("\"quiet", "quiet"));
	/* The empty key: "=x", "", "\"\"". */
	assert_true(halo_kernel_param_has_key("=x", ""));
	assert_true(halo_kernel_param_has_key("", ""));
	assert_true(halo_kernel_param_has_key("\"\"", ""));
	assert_false(halo_kernel_param_has_key("a", ""));
	assert_false(halo_kernel_param_has_key("", "a"));
}

static const char *why_refused(const char *text)
{
	struct halo_kernel_param p = { 0 };
	const char *why = NULL;

	assert_int_equal(halo_kernel_param_parse(text, 1, &p, &why), -EINVAL);
	assert_null(p.text);
	assert_non_null(why);
	return why;
}

static void parse(void **state)
{
	struct halo_kernel_param p = { 0 };
	const char *why = NULL;

	assert_int_equal(halo_kernel_param_parse("amd-pstate=active", 3, &p, &why), 0);
	assert_string_equal(p.key, "amd_pstate");
	assert_string_equal(p.value, "active");
	assert_string_equal(p.text, "amd-pstate=active"); /* as written */
	assert_int_equal(p.line, 3);
	halo_kernel_param_clear(&p);
	assert_int_equal(halo_kernel_param_parse("quiet", 1, &p, &why), 0);
	assert_string_equal(p.key, "quiet");
	assert_null(p.value); /* a flag */
	halo_kernel_param_clear(&p);
	assert_int_equal(halo_kernel_param_parse("pci=", 1, &p, &why), 0);
	assert_string_equal(p.value, ""); /* an empty value, not a flag */
	halo_kernel_param_clear(&p);
	assert_int_equal(halo_kernel_param_parse("memmap=2G$4G=x", 1, &p, &why), 0);
	assert_string_equal(p.key, "memmap");
	assert_string_equal(p.value, "2G$4G=x");
	halo_kernel_param_clear(&p);

	assert_string_equal(why_refused(""), "is not a kernel parameter (empty)");
	assert_string_equal(why_refused("=1"), "is not a kernel parameter (no name before '=')");
	assert_string_equal(why_refused("a b"),
			    "is not a single kernel parameter (whitespace or control character)");
	assert_string_equal(why_refused("x=\"y\""), "is not a single kernel parameter (no quotes)");
	assert_string_equal(why_refused("'quiet'"), "is not a single kernel parameter (no quotes)");
	assert_string_equal(why_refused("a/b=1"), "is not a kernel parameter (the name takes "
			    "letters, digits, '_', '-' and '.')");
}

static void boot_params_typed(void **state)
{
	struct halo_config *c;
	const struct halo_boot_config *b;

	assert_config_ok("boot = {\n  extra = [ \"amd-pstate=active\", \"nomodeset\" ];\n"
			 "  remove = [ \"quiet\", \"splash=silent\" ];\n};\n", &c);
	b = &c->boot;
	assert_int_equal(b->extra.n, 2);
	assert_string_equal(b->extra.v[0].key, "amd_pstate");
	assert_string_equal(b->extra.v[0].value, "active");
	assert_string_equal(b->extra.v[0].text, "amd-pstate=active");
	assert_int_equal(b->extra.v[0].line, 2);
	assert_null(b->extra.v[1].value);
	assert_int_equal(b->remove.n, 2);
	assert_string_equal(b->remove.v[0].key, "quiet");
	assert_string_equal(b->remove.v[1].key, "splash");
	assert_string_equal(b->remove.v[1].value, "silent");
	assert_int_equal(b->remove.v[1].line, 3);
	halo_config_free(c);
}

static void boot_params_refused(void **state)
{
	/* One key under two spellings is one key. */
	assert_config_errors("boot = {\n  extra = [ \"pcie-aspm=off\" ];\n  pcie_aspm = \"off\";\n};\n",
			     "halo.conf:2: boot.extra: \"pcie-aspm=off\" conflicts with boot.pcie_aspm "
			     "(set it there, or drop that key)");
	assert_config_errors("boot = {\n  extra = [ \"amd_pstate=active\" ];\n"
			     "  remove = [ \"amd-pstate\" ];\n};\n",
			     "halo.conf:2: boot.extra: parameter \"amd_pstate\" is also in "
			     "boot.remove (line 3)");
	assert_config_errors("boot = { remove = [ \"quiet\",\n \"quiet\" ]; };\n",
			     "halo.conf:2: boot.remove[1]: \"quiet\" is listed twice (first at line 1)");
	assert_config_errors("boot = { remove = [ \"a b\" ]; };\n",
			     "halo.conf:1: boot.remove[0]: \"a b\" is not a single kernel parameter "
			     "(whitespace or control character)");
	assert_config_errors("boot = { extra = ( \"quiet\", 1 ); };\n",
			     "halo.conf:1: boot.extra[1]: expected a string, got an integer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key),
		cmocka_unit_test(parse),
		cmocka_unit_test(boot_params_typed),
		cmocka_unit_test(boot_params_refused),
	};

	return cmocka_run_group_tests_name("config-kernel-param", tests, NULL, NULL);
}
