/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-module-options.c: module option strings split once at load,
 * as the kernel splits them (src/config/module-options.c), and the
 * messages of modules.options. */
#include <errno.h>

#include "config-test.h"
#include "config/module-options.h"

static void parse_words(void **state)
{
	struct halo_module_param *o;
	size_t n;

	assert_int_equal(halo_module_params_parse("  prof_sel=2\tdebug-mask=0x3 \n flag  ", 4,
						  &o, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(o[0].name, "prof_sel");
	assert_string_equal(o[0].value, "2");
	assert_string_equal(o[0].text, "prof_sel=2");
	assert_int_equal(o[0].line, 4);
	assert_string_equal(o[1].name, "debug_mask"); /* '-' is '_' to the kernel */
	assert_string_equal(o[1].value, "0x3");
	assert_string_equal(o[1].text, "debug-mask=0x3"); /* as written */
	assert_string_equal(o[2].name, "flag");
	assert_null(o[2].value); /* a bare flag */
	halo_module_params_free(o, n);
}

static void parse_quotes(void **state)
{
	struct halo_module_param *o = (void *)1;
	size_t n = 99;

	assert_int_equal(halo_module_params_parse("name=\"a b=c\" x=\"\" y=1=2", 1, &o, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(o[0].value, "a b=c");
	assert_string_equal(o[0].text, "name=\"a b=c\"");
	assert_string_equal(o[1].value, "");
	assert_string_equal(o[2].value, "1=2"); /* only the first '=' splits */
	halo_module_params_free(o, n);

	o = (void *)1;
	n = 99;
	assert_int_equal(halo_module_params_parse("a=\"open", 1, &o, &n), -EINVAL);
	assert_int_equal(halo_module_params_parse("=1", 1, &o, &n), -EINVAL);
	assert_int_equal(halo_module_params_parse("a\"b\"=1", 1, &o, &n), -EINVAL);
	/* Untouched on failure. */
	assert_ptr_equal(o, (void *)1);
	assert_int_equal(n, 99);
	assert_int_equal(halo_module_params_parse("", 1, &o, &n), 0);
	assert_int_equal(n, 0);
	halo_module_params_free(o, n);
}

static void copy(void **state)
{
	struct halo_module_param *o, *c;
	size_t n;

	assert_int_equal(halo_module_params_parse("a=1 b", 2, &o, &n), 0);
	assert_int_equal(halo_module_params_copy(o, n, &c), 0);
	halo_module_params_free(o, n);
	assert_string_equal(c[0].name, "a");
	assert_string_equal(c[0].value, "1");
	assert_null(c[1].value);
	assert_string_equal(c[1].text, "b");
	assert_int_equal(c[1].line, 2);
	halo_module_params_free(c, n);
}

static void options_typed(void **state)
{
	struct halo_config *c;
	const struct halo_module_option *o;

	assert_config_ok("modules = {\n  options = {\n    mlx5-core = \"prof_sel=2 probe-vf\";\n"
			 "  };\n};\n", &c);
	assert_int_equal(c->modules.n_options, 1);
	o = &c->modules.options[0];
	assert_string_equal(o->module, "mlx5_core");
	assert_string_equal(o->text, "prof_sel=2 probe-vf");
	assert_int_equal(o->line, 3);
	assert_int_equal(o->n_params, 2);
	assert_string_equal(o->params[0].name, "prof_sel");
	assert_string_equal(o->params[0].value, "2");
	assert_int_equal(o->params[0].line, 3);
	assert_string_equal(o->params[1].name, "probe_vf");
	assert_null(o->params[1].value);
	halo_config_free(c);
}

static void options_refused(void **state)
{
	assert_config_errors("modules = {\n  options = { mlx5_core = \"prof_sel=\\\"2\"; };\n};\n",
			     "halo.conf:2: modules.options: mlx5_core: cannot parse \"prof_sel=\"2\" "
			     "(unbalanced quote or empty name)");
	assert_config_errors("modules = { options = { ice = \"=1\"; }; };\n",
			     "halo.conf:1: modules.options: ice: cannot parse \"=1\" "
			     "(unbalanced quote or empty name)");
	assert_config_errors("modules = { options = { ice = \"   \"; }; };\n",
			     "halo.conf:1: modules.options.ice: \"   \" is not an option string (empty)");
	assert_config_errors("modules = { options = { ice = 1; }; };\n",
			     "halo.conf:1: modules.options.ice: expected a string, got an integer");
	/* Every error of the section at once, the good entry kept out of it. */
	assert_config_errors("modules = { options = {\n  ice = \"a=\\\"\";\n  irdma = \"roce_ena=1\";\n"
			     "  mlx5_core = \"=x\"; }; };\n",
			     "halo.conf:2: modules.options: ice: cannot parse \"a=\"\" "
			     "(unbalanced quote or empty name)\n"
			     "halo.conf:4: modules.options: mlx5_core: cannot parse \"=x\" "
			     "(unbalanced quote or empty name)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_words),
		cmocka_unit_test(parse_quotes),
		cmocka_unit_test(copy),
		cmocka_unit_test(options_typed),
		cmocka_unit_test(options_refused),
	};

	return cmocka_run_group_tests_name("config-module-options", tests, NULL, NULL);
}
