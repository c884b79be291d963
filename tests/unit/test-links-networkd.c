/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/links/networkd.c: the systemd-networkd drop-in item
 * and the drift cause, from networkd's files and records in a temporary
 * root. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "subsystems.h"

#include "links/networkd.h"
#include "root-test.h"
#include "util/rootfs.h"

/* Two ConnectX ports, both selected and found. */
static const struct halo_host_link ports[2] = {
	{ .selected = true, .found = true, .link = { .ifindex = 2, .name = "enp194s0f0" },
	  .driver = (char *)"mlx5_core" },
	{ .selected = true, .found = true, .link = { .ifindex = 3, .name = "enp194s0f1" },
	  .driver = (char *)"mlx5_core" },
};
static const struct halo_host_link *const links[2] = { &ports[0], &ports[1] };

/* A root where networkd is installed and enabled. */
static int fx_setup(void **state)
{
	return root_fixture_setup(state, "links-networkd",
				  "mkdir -p usr/lib/systemd etc/systemd/system/multi-user.target.wants "
				  "run/systemd/network etc/systemd/network && "
				  ": >usr/lib/systemd/systemd-networkd && "
				  "ln -s /lib/systemd/system/systemd-networkd.service "
				  "etc/systemd/system/multi-user.target.wants/");
}

/* Plans for both links; *PLAN is the caller's to free. */
static void plan_for(struct root_fixture *fx, struct halo_plan *plan,
		     struct halo_networkd_view *v)
{
	char *why = NULL;

	halo_plan_init(plan);
	assert_int_equal(halo_networkd_view(&fx->ctx, links, 2, v, &why), 0);
	assert_null(why);
	assert_int_equal(halo_networkd_plan(&fx->ctx, plan, links, 2, v), 0);
}

static void hand_over(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_networkd_view v;
	struct halo_plan plan;
	struct halo_item *item;
	char *text = NULL, *cause;

	/* no file matches: nothing at all */
	plan_for(fx, &plan, &v);
	assert_int_equal(plan.n, 0);
	assert_null(halo_networkd_cause(&v, 0, "enp194s0f0"));
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);

	/* netplan's all-en file takes the first link only */
	sh(fx->root, "printf '[Match]\\nName=enp194s0f0\\n[Network]\\nDHCP=ipv4\\n' "
		     ">run/systemd/network/10-netplan-all-en.network");
	plan_for(fx, &plan, &v);
	assert_int_equal(plan.n, 1);
	item = plan.items[0];
	assert_string_equal(item->key, "file" HALO_NETWORKD_DROPIN);
	assert_string_equal(item->note,
			    "systemd-networkd manages enp194s0f0 "
			    "(/run/systemd/network/10-netplan-all-en.network): unmanaged from its "
			    "next reload (networkctl reload) or the next boot");
	cause = halo_networkd_cause(&v, 0, "enp194s0f0");
	assert_non_null(strstr(cause, "unless " HALO_NETWORKD_DROPIN " excludes it"));
	free(cause);
	assert_null(halo_networkd_cause(&v, 1, "enp194s0f1"));
	assert_int_equal(item->ops->observe(&fx->ctx, item), HALO_SYNC_DIFFERS);
	assert_int_equal(item->ops->apply(&fx->ctx, item), 0);
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);
	assert_int_equal(halo_read_file(&fx->ctx, HALO_NETWORKD_DROPIN, &text, NULL), 0);
	assert_non_null(strstr(text, "\n[Match]\nName=enp194s0f0\n\n[Link]\nUnmanaged=yes\n"));
	free(text);

	/* networkd obeyed: its record says unmanaged; the decision leaves
	 * our file out, so it is still wanted and in sync, and the drop-in
	 * listing the link means networkd is no cause of drift */
	sh(fx->root, "mkdir -p run/systemd/netif/links && "
		     "printf 'ADMIN_STATE=unmanaged\\n' >run/systemd/netif/links/2");
	plan_for(fx, &plan, &v);
	assert_int_equal(plan.n, 1);
	assert_int_equal(plan.items[0]->ops->observe(&fx->ctx, plan.items[0]), HALO_SYNC_OK);
	assert_null(halo_networkd_cause(&v, 0, "enp194s0f0"));
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);

	/* networkd runs with another file for the second link (not reloaded
	 * since): that link is named too, and networkd is its cause */
	sh(fx->root, "printf 'ADMIN_STATE=configured\\nNETWORK_FILE=/etc/systemd/network/x.network\\n' "
		     ">run/systemd/netif/links/3");
	plan_for(fx, &plan, &v);
	assert_non_null(strstr(plan.items[0]->note, "enp194s0f1 (/etc/systemd/network/x.network)"));
	cause = halo_networkd_cause(&v, 1, "enp194s0f1");
	assert_string_equal(cause, "systemd-networkd, which manages enp194s0f1 "
				   "(/etc/systemd/network/x.network)");
	free(cause);
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);

	/* a file that sorts before ours and matches: a warning */
	sh(fx->root, "rm run/systemd/netif/links/3 && "
		     "printf '[Match]\\nName=enp194s0f1\\n' >etc/systemd/network/00-a.network");
	plan_for(fx, &plan, &v);
	assert_int_equal(plan.n_warnings, 1);
	assert_non_null(strstr(plan.warnings[0], "/etc/systemd/network/00-a.network sorts before"));
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);

	/* the first matching file says Unmanaged=yes itself: not ours to do */
	sh(fx->root, "rm etc/systemd/network/00-a.network && "
		     "printf '[Match]\\nName=enp*\\n[Link]\\nUnmanaged=yes\\n' "
		     ">run/systemd/network/05-vendor.network");
	plan_for(fx, &plan, &v);
	assert_int_equal(plan.n, 1);
	assert_null(plan.items[0]->note); /* the removal of ours */
	assert_int_equal(plan.items[0]->ops->observe(&fx->ctx, plan.items[0]), HALO_SYNC_DIFFERS);
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);
}

static void not_present(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_networkd_view v;
	struct halo_plan plan;

	sh(fx->root, "printf '[Match]\\nName=en*\\n' >run/systemd/network/10-netplan-all-en.network && "
		     "rm etc/systemd/system/multi-user.target.wants/systemd-networkd.service");
	plan_for(fx, &plan, &v);
	assert_false(v.present);
	assert_int_equal(plan.n, 0); /* installed, not enabled, not running */
	assert_null(halo_networkd_cause(&v, 0, "enp194s0f0"));
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);
	/* a drop-in of ours left behind goes */
	sh(fx->root, "printf '# Managed by halo-provision; local changes will be overwritten.\\n' "
		     ">etc/systemd/network/00-halo-provision-unmanaged.network");
	plan_for(fx, &plan, &v);
	assert_int_equal(plan.n, 1);
	assert_string_equal(plan.items[0]->wanted, "absent");
	halo_networkd_view_free(&v);
	halo_plan_free(&plan);
}

static void bad_record(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_networkd_view v;
	char *why = NULL;

	sh(fx->root, "mkdir -p run/systemd/netif/links && mkfifo run/systemd/netif/links/3");
	assert_true(halo_networkd_view(&fx->ctx, links, 2, &v, &why) < 0);
	assert_non_null(strstr(why, "/run/systemd/netif/links/3: a FIFO"));
	free(why);
	why = NULL;
	sh(fx->root, "rm run/systemd/netif/links/3 && mkfifo " HALO_NETWORKD_DROPIN_NAME " && "
		     "mv " HALO_NETWORKD_DROPIN_NAME " etc/systemd/network/");
	assert_true(halo_networkd_view(&fx->ctx, links, 2, &v, &why) < 0);
	assert_non_null(strstr(why, HALO_NETWORKD_DROPIN ": a FIFO"));
	free(why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(hand_over, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(not_present, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(bad_record, fx_setup, root_fixture_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
