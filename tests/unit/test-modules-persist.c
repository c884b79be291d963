/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for modules/persist.c: the modules-load.d and modprobe.d
 * drop-ins. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "modules/internal.h"

static char *load_v[] = { "ice", "irdma", "ib-uverbs", NULL };
static int lines[] = { 3, 3, 3 };
static char *bl_v[] = { "nouveau", "i40iw", NULL };

static struct halo_module_option opts[] = {
	{ .module = "mlx5-core", .text = "prof_sel=2  probe-vf=0", .line = 4 },
	{ .module = "foo", .text = "name=\"a b\"\nflag", .line = 5 },
};

/* The parameters as the config loader splits them. */
static int split_options(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		if (halo_module_params_parse(opts[i].text, opts[i].line, &opts[i].params,
					     &opts[i].n_params) < 0)
			return -1;
	return 0;
}

static int free_options(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++)
		halo_module_params_free(opts[i].params, opts[i].n_params);
	return 0;
}

static struct halo_modules_config full(void)
{
	return (struct halo_modules_config){
		.present = true,
		.load = { .v = load_v, .line = lines, .n = 3 },
		.options = opts,
		.n_options = 2,
		.blacklist = { .v = bl_v, .line = lines, .n = 2 },
		.persist = true,
	};
}

static void test_render_full(void **state)
{
	struct halo_modules_config mc = full();
	char *load, *mp;

	assert_int_equal(halo_modules_render(&mc, &load, &mp), 0);
	assert_string_equal(load, HALO_MANAGED_HEADER
			    "# Kernel modules loaded at boot (systemd-modules-load).\n"
			    "ice\nirdma\nib_uverbs\n");
	/* Options re-rendered from the parsed words: one line each, names
	 * normalized, quotes only where a value needs them. */
	assert_string_equal(mp, HALO_MANAGED_HEADER
			    "options mlx5_core prof_sel=2 probe_vf=0\n"
			    "options foo name=\"a b\" flag\n"
			    "blacklist nouveau\n"
			    "blacklist i40iw\n");
	free(load);
	free(mp);
}

static void test_render_absent(void **state)
{
	struct halo_modules_config mc = full();
	char *load = (char *)1, *mp = (char *)1;

	mc.persist = false;
	assert_int_equal(halo_modules_render(&mc, &load, &mp), 0);
	assert_null(load);
	assert_null(mp);

	mc = (struct halo_modules_config){ .present = true, .persist = true };
	assert_int_equal(halo_modules_render(&mc, &load, &mp), 0);
	assert_null(load);
	assert_null(mp);

	/* Only a blacklist: no modules-load.d file. */
	mc.blacklist = (struct halo_strlist){ .v = bl_v, .line = lines, .n = 1 };
	assert_int_equal(halo_modules_render(&mc, &load, &mp), 0);
	assert_null(load);
	assert_string_equal(mp, HALO_MANAGED_HEADER "blacklist nouveau\n");
	free(mp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_full),
		cmocka_unit_test(test_render_absent),
	};

	return cmocka_run_group_tests_name("modules-persist", tests, split_options, free_options);
}
