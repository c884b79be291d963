/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/links/nm.c: NetworkManager's device state files and the
 * unmanaged-devices drop-in, in a temporary root. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "subsystems.h"

#include "links/nm.h"
#include "root-test.h"
#include "util/rootfs.h"

static void parse_state(void **state)
{
	assert_int_equal(halo_nm_parse_device_state("[device]\nmanaged=true\nnm-owned=false\n"), 1);
	assert_int_equal(halo_nm_parse_device_state("[device]\nmanaged = 1 \r\n"), 1);
	assert_int_equal(halo_nm_parse_device_state("[device]\nmanaged=false\n"), 0);
	assert_int_equal(halo_nm_parse_device_state("[device]\nmanaged-x=true\n"), 0);
	assert_int_equal(halo_nm_parse_device_state("[other]\nmanaged=true\n[device]\n"), 0);
	assert_int_equal(halo_nm_parse_device_state("[device]\nperm-hw-addr-fake=x\n"), 0);
	assert_int_equal(halo_nm_parse_device_state("managed=true\n"), 0);
	assert_int_equal(halo_nm_parse_device_state(""), 0);
	assert_int_equal(halo_nm_parse_device_state("[device]\nmanaged=truex"), 0);
}

static void dropin_lists(void **state)
{
	const char *t = "[keyfile]\nunmanaged-devices+=interface-name:a;interface-name:rdma10\n";

	assert_true(halo_nm_dropin_lists(t, "a"));
	assert_true(halo_nm_dropin_lists(t, "rdma10"));
	assert_false(halo_nm_dropin_lists(t, "rdma1"));
	assert_false(halo_nm_dropin_lists(t, "rdma"));
	assert_false(halo_nm_dropin_lists(t, "b"));
}

static void parse_profile(void **state)
{
	struct halo_nm_profile p;

	(void)state;
	halo_nm_parse_profile("[connection]\nid=rdma0\ntype=ethernet\ninterface-name=enp194s0f0\n"
			      "[ethernet]\nmac-address=B4:96:91:AA:BB:01\nmtu=9000\n", &p);
	assert_string_equal(p.id, "rdma0");
	assert_string_equal(p.interface_name, "enp194s0f0");
	assert_string_equal(p.mac, "B4:96:91:AA:BB:01");
	/* the older group name, CRLF, blanks around "=" */
	halo_nm_parse_profile("[connection]\r\nid = a b\r\n[802-3-ethernet]\r\nmac-address=x;\r\n", &p);
	assert_string_equal(p.id, "a b");
	assert_string_equal(p.interface_name, "");
	assert_string_equal(p.mac, "x;");
	/* a value of blanks only is empty, and never runs into the next line */
	halo_nm_parse_profile("[connection]\nid=   \ninterface-name=x\n", &p);
	assert_string_equal(p.id, "");
	assert_string_equal(p.interface_name, "x");
	/* keys of other groups do not bind */
	halo_nm_parse_profile("[ipv4]\ninterface-name=eth0\n[wifi]\nmac-address=b4:96:91:aa:bb:01\n", &p);
	assert_string_equal(p.interface_name, "");
	assert_string_equal(p.mac, "");
}

static int fx_setup(void **state)
{
	return root_fixture_setup(state, "links-nm", NULL);
}

static struct halo_rtnl_link L(int idx, const char *name)
{
	struct halo_rtnl_link l = { .ifindex = idx };

	snprintf(l.name, sizeof(l.name), "%s", name);
	return l;
}

static void plan_without_nm(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_rtnl_link a = L(2, "rdma0");
	const struct halo_rtnl_link *links[] = { &a };
	struct halo_plan plan;

	halo_plan_init(&plan);
	assert_int_equal(halo_nm_plan(&fx->ctx, &plan, links, 1, NULL), 0);
	assert_int_equal(plan.n, 0); /* no NetworkManager: nothing at all */
	halo_plan_free(&plan);
}

static void plan_managed(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_rtnl_link a = L(2, "rdma0"), b = L(3, "rdma1"), c = L(4, "eth9");
	const struct halo_rtnl_link *links[] = { &a, &b, &c };
	struct halo_plan plan;
	struct halo_item *item;
	int r;

	sh(fx->root, "mkdir -p run/NetworkManager/devices && "
	   "printf '[device]\\nmanaged=true\\n' > run/NetworkManager/devices/2 && "
	   "printf '[device]\\nmanaged=false\\n' > run/NetworkManager/devices/3");
	halo_plan_init(&plan);
	assert_int_equal(halo_nm_plan(&fx->ctx, &plan, links, 3, NULL), 0);
	assert_int_equal(plan.n, 1);
	item = plan.items[0];
	assert_string_equal(item->key, "file" HALO_NM_DROPIN);
	assert_non_null(strstr(item->note, "rdma0"));
	assert_null(strstr(item->note, "rdma1"));
	r = item->ops->observe(&fx->ctx, item);
	assert_int_equal(r, HALO_SYNC_DIFFERS);
	assert_int_equal(item->ops->apply(&fx->ctx, item), 0);
	halo_plan_free(&plan);

	/* What NetworkManager reads back: exactly the managed link. */
	{
		char *text = NULL;

		assert_int_equal(halo_read_file(&fx->ctx, HALO_NM_DROPIN, &text, NULL), 0);
		assert_string_equal(text, HALO_MANAGED_HEADER
				    "# NetworkManager would reset the MTU and addresses of these links.\n"
				    "[keyfile]\nunmanaged-devices+=interface-name:rdma0\n");
		free(text);
	}

	/* NetworkManager obeys: its state now says managed=false. The link
	 * stays in the drop-in (no flip-flop), and the file is in sync. */
	sh(fx->root, "printf '[device]\\nmanaged=false\\n' > run/NetworkManager/devices/2");
	halo_plan_init(&plan);
	assert_int_equal(halo_nm_plan(&fx->ctx, &plan, links, 3, NULL), 0);
	assert_int_equal(plan.n, 1);
	assert_int_equal(plan.items[0]->ops->observe(&fx->ctx, plan.items[0]), HALO_SYNC_OK);
	halo_plan_free(&plan);

	/* After a reboot NetworkManager has no state yet (/run is empty) but
	 * is installed: the drop-in stays as it is. */
	sh(fx->root, "rm -rf run/NetworkManager && mkdir -p usr/sbin && touch usr/sbin/NetworkManager");
	halo_plan_init(&plan);
	assert_int_equal(halo_nm_plan(&fx->ctx, &plan, links, 3, NULL), 0);
	assert_int_equal(plan.n, 1);
	assert_int_equal(plan.items[0]->ops->observe(&fx->ctx, plan.items[0]), HALO_SYNC_OK);
	halo_plan_free(&plan);

	/* NetworkManager uninstalled: the stale drop-in is removed. */
	sh(fx->root, "rm -f usr/sbin/NetworkManager");
	halo_plan_init(&plan);
	assert_int_equal(halo_nm_plan(&fx->ctx, &plan, links, 3, NULL), 0);
	assert_int_equal(plan.n, 1);
	item = plan.items[0];
	assert_int_equal(item->ops->observe(&fx->ctx, item), HALO_SYNC_DIFFERS);
	assert_int_equal(item->ops->apply(&fx->ctx, item), 0);
	assert_int_equal(halo_root_exists(&fx->ctx, HALO_NM_DROPIN), 0);
	halo_plan_free(&plan);
}

/* A FIFO where the drop-in or a device state file should be: the read
 * fails and the caller learns which file, for its one-line error. */
static void plan_unreadable(void **state)
{
	struct root_fixture *fx = *state;
	struct halo_rtnl_link a = L(2, "rdma0");
	const struct halo_rtnl_link *links[] = { &a };
	struct halo_plan plan;
	char *failed = NULL;

	sh(fx->root, "mkdir -p run/NetworkManager/devices etc/NetworkManager/conf.d && "
	   "mkfifo run/NetworkManager/devices/2");
	halo_plan_init(&plan);
	assert_true(halo_nm_plan(&fx->ctx, &plan, links, 1, &failed) < 0);
	assert_string_equal(failed, "/run/NetworkManager/devices/2");
	assert_int_equal(plan.n, 0);
	free(failed);
	failed = NULL;

	sh(fx->root, "rm run/NetworkManager/devices/2 && "
	   "mkfifo etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf");
	assert_true(halo_nm_plan(&fx->ctx, &plan, links, 1, &failed) < 0);
	assert_string_equal(failed, HALO_NM_DROPIN);
	assert_int_equal(plan.n, 0);
	free(failed);
	halo_plan_free(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse_state),
		cmocka_unit_test(dropin_lists),
		cmocka_unit_test(parse_profile),
		cmocka_unit_test_setup_teardown(plan_without_nm, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(plan_managed, fx_setup, root_fixture_teardown),
		cmocka_unit_test_setup_teardown(plan_unreadable, fx_setup, root_fixture_teardown),
	};

	return cmocka_run_group_tests_name("links-nm", tests, NULL, NULL);
}
