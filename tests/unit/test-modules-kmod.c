/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for modules/kmod.c, sysmodule.c, dkms.c and the planner, on a
 * real libkmod: fixture trees from tests/fixtures/modules/mkfixture.sh
 * (fake .ko objects, indexes made by depmod). Nothing is loaded here; the
 * loading paths are covered by tests/integration/modules-*.sh under the
 * preload trap.
 */
#include "config.h"

#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "modules/internal.h"
#include "modules/modules.h"
#include "util/rootfs.h"
#include "util/strv.h"

#include "modules-fixture.h"


static char tmp[64];
static char plain[128], dkms[128];

static int group_setup(void **state)
{
	strcpy(tmp, "/tmp/halo-kmod-unit.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(plain, sizeof(plain), "%s/plain", tmp);
	snprintf(dkms, sizeof(dkms), "%s/dkms", tmp);
	if (fixture_build(plain, "") < 0 || fixture_build(dkms, "dkms") < 0)
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	return fixture_remove(tmp);
}

/* Where a refusal would be explained; none is expected in these tests. */
static char *why_sink;

struct fx {
	struct halo_ctx ctx;
};

static void ctx_open(struct halo_ctx *ctx, const char *root, const char *rel)
{
	*ctx = (struct halo_ctx){ .root = root, .root_fd = -1, .under_root = true,
				  .kernel_release = rel };
	assert_int_equal(halo_root_open(root, &ctx->root_fd), 0);
}

static void ctx_close(struct halo_ctx *ctx)
{
	halo_modules_release(ctx);
	assert_null(ctx->kmod);
	close(ctx->root_fd);
}

static void test_lookup_deps(void **state)
{
	struct halo_ctx ctx;
	struct halo_kmod *k;
	struct halo_modinfo *mi;

	ctx_open(&ctx, plain, REL);
	assert_int_equal(halo_kmod_get(&ctx, &k, &why_sink), 0);
	assert_ptr_equal(ctx.kmod, k);
	assert_int_equal(halo_kmod_lookup(k, "irdma", &mi, &why_sink), 0);
	assert_string_equal(mi->name, "irdma");
	assert_string_equal(mi->relpath, "kernel/drivers/infiniband/hw/irdma/irdma.ko");
	assert_false(mi->builtin);
	/* depmod derived these from the symbols; libkmod's load order. */
	assert_int_equal(halo_strv_len(mi->deps), 3);
	assert_string_equal(mi->deps[0], "ib_core");
	assert_string_equal(mi->deps[1], "ice_helper");
	assert_string_equal(mi->deps[2], "ice");
	assert_null(mi->parms); /* in-kernel irdma has no parameters */
	assert_null(mi->blacklisted);
	assert_null(mi->install_cmd);
	halo_modinfo_free(mi);
	ctx_close(&ctx);
}

static void test_lookup_parms(void **state)
{
	struct halo_ctx ctx;
	struct halo_kmod *k;
	struct halo_modinfo *mi;

	ctx_open(&ctx, plain, REL);
	assert_int_equal(halo_kmod_get(&ctx, &k, &why_sink), 0);
	assert_int_equal(halo_kmod_lookup(k, "mlx5-core", &mi, &why_sink), 0);
	assert_string_equal(mi->name, "mlx5_core");
	assert_string_equal(halo_modinfo_parm_type(mi, "prof_sel"), "uint");
	assert_string_equal(halo_modinfo_parm_type(mi, "probe_vf"), "bool");
	assert_string_equal(halo_modinfo_parm_type(mi, "debug_mask"), "uint");
	assert_null(halo_modinfo_parm_type(mi, "roce_tos"));
	assert_null(halo_modinfo_parm_type(mi, "prof"));
	assert_null(mi->deps);
	halo_modinfo_free(mi);
	ctx_close(&ctx);
}

static void test_lookup_builtin_unknown(void **state)
{
	struct halo_ctx ctx;
	struct halo_kmod *k;
	struct halo_modinfo *mi = NULL;

	ctx_open(&ctx, plain, REL);
	assert_int_equal(halo_kmod_get(&ctx, &k, &why_sink), 0);
	assert_int_equal(halo_kmod_lookup(k, "ttm", &mi, &why_sink), 0);
	assert_true(mi->builtin);
	assert_null(mi->relpath);
	/* From modules.builtin.modinfo. */
	assert_string_equal(halo_modinfo_parm_type(mi, "pages_limit"), "ulong");
	halo_modinfo_free(mi);
	mi = NULL;
	assert_int_equal(halo_kmod_lookup(k, "nosuchmod", &mi, &why_sink), -ENOENT);
	assert_null(mi);
	/* An alias resolves to ice, but it is not a module name. */
	assert_int_equal(halo_kmod_lookup(k, "pci:v00008086d00001593sv0sd0bc0sc0i0", &mi, &why_sink), -ENOENT);
	ctx_close(&ctx);
}

static void test_blacklist_and_install(void **state)
{
	char path[256];
	struct halo_ctx ctx;
	struct halo_kmod *k;
	struct halo_modinfo *mi;
	FILE *f;

	snprintf(path, sizeof(path), "%s/etc/modprobe.d/unit.conf", plain);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("blacklist ice\ninstall ib_core /bin/true\n", f);
	fclose(f);

	ctx_open(&ctx, plain, REL);
	assert_int_equal(halo_kmod_get(&ctx, &k, &why_sink), 0);
	assert_int_equal(halo_kmod_lookup(k, "irdma", &mi, &why_sink), 0);
	assert_int_equal(halo_strv_len(mi->blacklisted), 1);
	assert_string_equal(mi->blacklisted[0], "ice");
	assert_string_equal(mi->install_cmd, "ib_core: install /bin/true");
	halo_modinfo_free(mi);
	assert_int_equal(halo_kmod_lookup(k, "ice", &mi, &why_sink), 0);
	assert_true(halo_strv_contains(mi->blacklisted, "ice"));
	halo_modinfo_free(mi);
	ctx_close(&ctx);
	unlink(path);
}

static void test_no_tree(void **state)
{
	struct halo_ctx ctx;
	struct halo_kmod *k = NULL;
	bool d = true;

	ctx_open(&ctx, plain, "0.0.0-none");
	assert_int_equal(halo_kmod_get(&ctx, &k, &why_sink), -ENOENT);
	assert_null(ctx.kmod);
	assert_int_equal(halo_modules_amdgpu_is_dkms(&ctx, &d), 0);
	assert_false(d);
	ctx_close(&ctx);
	ctx_open(&ctx, plain, "../../etc");
	assert_int_equal(halo_kmod_get(&ctx, &k, &why_sink), -EINVAL);
	ctx_close(&ctx);
}

static void test_dkms(void **state)
{
	char path[256];
	struct halo_ctx ctx;
	bool d = true;

	ctx_open(&ctx, plain, REL);
	assert_int_equal(halo_modules_amdgpu_is_dkms(&ctx, &d), 0);
	assert_false(d); /* kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko */
	ctx_close(&ctx);

	ctx_open(&ctx, dkms, REL);
	assert_int_equal(halo_modules_amdgpu_is_dkms(&ctx, &d), 0);
	assert_true(d); /* updates/dkms/amdgpu.ko wins depmod's search */
	ctx_close(&ctx);

	/* The amdttm module loaded: dkms whatever the tree says. */
	snprintf(path, sizeof(path), "%s/sys/module/amdttm", plain);
	assert_int_equal(mkdir(path, 0755), 0);
	ctx_open(&ctx, plain, REL);
	d = false;
	assert_int_equal(halo_modules_amdgpu_is_dkms(&ctx, &d), 0);
	assert_true(d);
	assert_null(ctx.kmod); /* decided without libkmod */
	ctx_close(&ctx);
	rmdir(path);
}

static void test_sysmodule(void **state)
{
	char path[256];
	struct halo_ctx ctx;
	enum halo_modstate s;
	char *v = NULL;
	FILE *f;

	ctx_open(&ctx, plain, REL);
	assert_true(halo_sysmodule_kernel_running(&ctx));
	assert_int_equal(halo_sysmodule_state(&ctx, "ttm", &s), 0);
	assert_int_equal(s, HALO_MODSTATE_BUILTIN);
	assert_int_equal(halo_sysmodule_state(&ctx, "ice", &s), 0);
	assert_int_equal(s, HALO_MODSTATE_ABSENT);
	assert_int_equal(halo_sysmodule_param(&ctx, "ttm", "pages_limit", &v), 0);
	assert_string_equal(v, "0");
	free(v);
	assert_int_equal(halo_sysmodule_param(&ctx, "ttm", "nope", &v), -ENOENT);

	snprintf(path, sizeof(path), "%s/sys/module/ice", plain);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/sys/module/ice/initstate", plain);
	f = fopen(path, "w");
	fputs("coming\n", f);
	fclose(f);
	assert_int_equal(halo_sysmodule_state(&ctx, "ice", &s), 0);
	assert_int_equal(s, HALO_MODSTATE_COMING);
	f = fopen(path, "w");
	fputs("live\n", f);
	fclose(f);
	assert_int_equal(halo_sysmodule_state(&ctx, "ice", &s), 0);
	assert_int_equal(s, HALO_MODSTATE_LIVE);
	f = fopen(path, "w");
	fputs("weird\n", f);
	fclose(f);
	assert_int_equal(halo_sysmodule_state(&ctx, "ice", &s), -EBADMSG);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sys/module/ice", plain);
	rmdir(path);
	ctx_close(&ctx);

	ctx_open(&ctx, plain, "6.1.0-other");
	assert_false(halo_sysmodule_kernel_running(&ctx));
	ctx_close(&ctx);
}

static void plan_from(const char *text, struct halo_plan *plan, struct halo_errors *errs)
{
	struct halo_config *cfg = NULL;
	struct halo_errors cerrs = { 0 };
	struct halo_ctx ctx;

	assert_int_equal(halo_config_load_string("unit.conf", text, &cfg, &cerrs), 0);
	halo_errors_free(&cerrs);
	ctx_open(&ctx, plain, REL);
	halo_plan_init(plan);
	assert_int_equal(halo_modules_plan(&ctx, cfg, plan, errs), 0);
	ctx_close(&ctx);
	halo_config_free(cfg);
}

static void test_plan(void **state)
{
	struct halo_errors errs = { 0 };
	struct halo_plan plan;

	plan_from("version = 1;\n"
		  "modules = { load = [ \"irdma\", \"ttm\" ];\n"
		  "  options = { mlx5_core = \"prof_sel=2\"; }; };\n",
		  &plan, &errs);
	assert_int_equal(errs.n, 0);
	assert_int_equal(plan.n, 5);
	assert_string_equal(plan.items[0]->key, "module/irdma");
	assert_string_equal(plan.items[0]->wanted, "loaded");
	assert_string_equal(plan.items[1]->key, "module/ttm");
	assert_string_equal(plan.items[2]->key, "module/mlx5_core/options");
	assert_string_equal(plan.items[2]->wanted, "prof_sel=2");
	assert_string_equal(plan.items[3]->key, "file/etc/modules-load.d/halo-provision.conf");
	assert_string_equal(plan.items[4]->key, "file/etc/modprobe.d/halo-provision.conf");
	for (size_t i = 0; i < plan.n; i++)
		assert_int_equal(plan.items[i]->subsys, HALO_SUB_MODULES);
	halo_plan_free(&plan);

	plan_from("version = 1;\n"
		  "modules = { load = [ \"irdma\", \"nosuch\" ];\n"
		  "  options = { mlx5_core = \"roce_tos=106\"; }; };\n",
		  &plan, &errs);
	assert_int_equal(errs.n, 2);
	assert_non_null(strstr(errs.msgs[0], "unit.conf:2: modules.load: unknown module 'nosuch'"));
	assert_string_equal(errs.msgs[1],
			    "unit.conf:3: mlx5_core: unknown option 'roce_tos' (the kernel "
			    "would only log 'unknown parameter' and ignore it)");
	assert_int_equal(plan.n, 0); /* nothing planned from an invalid section */
	halo_plan_free(&plan);
	halo_errors_free(&errs);

	/* No modules section: the host's modules are left alone. */
	plan_from("version = 1;\n", &plan, &errs);
	assert_int_equal(errs.n, 0);
	assert_int_equal(plan.n, 0);
	halo_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookup_deps),
		cmocka_unit_test(test_lookup_parms),
		cmocka_unit_test(test_lookup_builtin_unknown),
		cmocka_unit_test(test_blacklist_and_install),
		cmocka_unit_test(test_no_tree),
		cmocka_unit_test(test_dkms),
		cmocka_unit_test(test_sysmodule),
		cmocka_unit_test(test_plan),
	};

	return cmocka_run_group_tests_name("modules-kmod", tests, group_setup,
					   group_teardown);
}
