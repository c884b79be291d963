/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the phased run (engine/run.c) with scripted test items,
 * planned before the run starts, in a scratch root. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine-test.h"
#include "engine/engine.h"
#include "engine/plan.h"
#include "engine/run.h"
#include "engine/subsystem.h"
#include "host/host.h"

/* A scripted item: what observe answers before and after apply, what
 * apply returns. Calls are logged in order. */
struct fake {
	int before;   /* sync or -errno of the first observation */
	int after;    /* of observations after apply */
	int apply_r;  /* apply's return */
	bool applied;
	int observed_n;
	const char *msg; /* message set by observe when not NULL */
	/* Applying this item undoes UNDOES (a port reset that flushes a
	 * route): it observes DIFFERS until applied again. */
	struct fake *undoes;
	bool undone;
};

static char call_log[1024];

static void log_call(const char *what, const struct halo_item *item)
{
	size_t len = strlen(call_log);

	snprintf(call_log + len, sizeof(call_log) - len, "%s%s:%s",
		 len ? " " : "", what, item->key);
}

static int fake_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct fake *f = item->data;
	int r = f->undone ? HALO_SYNC_DIFFERS : f->applied ? f->after : f->before;

	f->observed_n++;
	log_call("observe", item);
	(void)halo_item_set_observed(item, "%s", f->applied ? "new" : "old");
	if (f->msg)
		(void)halo_item_set_message(item, "%s", f->msg);
	return r;
}

static int fake_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct fake *f = item->data;

	log_call("apply", item);
	if (f->apply_r < 0)
		return halo_item_fail(item, f->apply_r, "doing it");
	f->applied = true;
	f->undone = false;
	if (f->undoes)
		f->undoes->undone = true;
	return 0;
}

static const struct halo_item_ops fake_ops = {
	.observe = fake_observe,
	.apply = fake_apply,
	.free_data = free,
};

/* Applied through another item: observes like it was applied once any
 * other fake was. */
static int through_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct fake *f = item->data;
	struct fake *other = *(struct fake **)((char *)f + sizeof(*f));

	log_call("observe", item);
	return other->applied ? HALO_SYNC_OK : HALO_SYNC_DIFFERS;
}

static const struct halo_item_ops through_ops = {
	.observe = through_observe,
	.apply = NULL,
	.free_data = free,
};

static struct halo_item *add(struct halo_plan *plan, const char *key,
			     enum halo_subsys sub, enum halo_phase phase,
			     int before, int after, int apply_r)
{
	struct fake *f = calloc(1, sizeof(*f) + sizeof(struct fake *));
	struct halo_item *item = NULL;

	assert_non_null(f);
	f->before = before;
	f->after = after;
	f->apply_r = apply_r;
	assert_int_equal(halo_plan_add(plan, key, sub, phase, &fake_ops, f, &item), 0);
	assert_int_equal(halo_item_set_wanted(item, "new"), 0);
	return item;
}

static struct fake *fake_of(struct halo_item *item)
{
	return item->data;
}

struct fixture {
	struct halo_ctx ctx;
	struct halo_config cfg;
	struct halo_plan plan;
	struct halo_errors errs;
	char dir[64];
};

/* The items are in the plan before the run starts: it plans nothing. */
static const struct halo_registry no_subsystems = { 0 };

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx || scratch_root_open(&fx->ctx, fx->dir, "engine") < 0)
		return -1;
	fx->ctx.registry = &no_subsystems;
	fx->ctx.only = ~0u;
	fx->ctx.kernel_release = "6.18.4-test";
	halo_plan_init(&fx->plan);
	call_log[0] = '\0';
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	halo_plan_free(&fx->plan);
	halo_errors_free(&fx->errs);
	halo_host_release(&fx->ctx);
	scratch_root_remove(&fx->ctx);
	free(fx);
	return 0;
}

static int run(struct fixture *fx)
{
	return halo_run(&fx->ctx, &fx->cfg, &fx->plan, &fx->errs);
}

static void test_check_outcomes(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *ok, *drift, *pend, *unsup, *req, *err;
	int bits;

	fx->ctx.mode = HALO_MODE_CHECK;
	ok = add(&fx->plan, "a/ok", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_OK, 0, 0);
	drift = add(&fx->plan, "a/drift", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_DIFFERS, 0, 0);
	pend = add(&fx->plan, "a/pending", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_PENDING, 0, 0);
	unsup = add(&fx->plan, "a/unsup", HALO_SUB_ROCE, HALO_PHASE_ROCE, HALO_SYNC_UNSUPPORTED, 0, 0);
	req = add(&fx->plan, "a/required", HALO_SUB_ROCE, HALO_PHASE_ROCE, HALO_SYNC_UNSUPPORTED, 0, 0);
	req->required = true;
	err = add(&fx->plan, "a/error", HALO_SUB_LINKS, HALO_PHASE_LINKS, -EIO, 0, 0);

	bits = run(fx);
	assert_int_equal(bits, HALO_EXIT_CHANGED | HALO_EXIT_FAILED | HALO_EXIT_REBOOT);
	assert_int_equal(ok->outcome, HALO_OUTCOME_OK);
	assert_int_equal(drift->outcome, HALO_OUTCOME_DRIFT);
	assert_int_equal(pend->outcome, HALO_OUTCOME_PENDING_REBOOT);
	assert_int_equal(unsup->outcome, HALO_OUTCOME_UNSUPPORTED);
	assert_int_equal(req->outcome, HALO_OUTCOME_FAILED);
	assert_int_equal(err->outcome, HALO_OUTCOME_FAILED);
	/* An observe error without a message gets the errno text. */
	assert_string_equal(err->message, strerror(EIO));
	/* Check never applies. */
	assert_null(strstr(call_log, "apply"));
	assert_int_equal(fx->errs.n, 0);
}

static void test_check_in_sync_is_zero(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.mode = HALO_MODE_CHECK;
	add(&fx->plan, "a", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_OK, 0, 0);
	add(&fx->plan, "b", HALO_SUB_ROCE, HALO_PHASE_ROCE, HALO_SYNC_UNSUPPORTED, 0, 0);
	assert_int_equal(run(fx), 0);
}

static void test_dry_run_reboot_bit(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *boot;

	fx->ctx.mode = HALO_MODE_DRY_RUN;
	boot = add(&fx->plan, "boot/param/x", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		   HALO_SYNC_DIFFERS, HALO_SYNC_PENDING, 0);
	boot->activates_on_reboot = true;
	assert_int_equal(run(fx),
			 HALO_EXIT_CHANGED | HALO_EXIT_REBOOT);
	assert_int_equal(boot->outcome, HALO_OUTCOME_DRIFT);
	assert_false(fake_of(boot)->applied);

	/* The same drift in check mode says nothing about a reboot. */
	fx->ctx.mode = HALO_MODE_CHECK;
	assert_int_equal(halo_plan_exit_bits(&fx->ctx, &fx->plan), HALO_EXIT_CHANGED);
}

static void test_invalid_stops_before_apply(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *a, *bad, *bad2;

	fx->ctx.mode = HALO_MODE_APPLY;
	a = add(&fx->plan, "m/a", HALO_SUB_MODULES, HALO_PHASE_MODULES, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	bad = add(&fx->plan, "file/x", HALO_SUB_FILES, HALO_PHASE_FILES, HALO_SYNC_INVALID, 0, 0);
	fake_of(bad)->msg = "refusing to write through a symlink: /x";
	bad2 = add(&fx->plan, "link/y", HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_SYNC_INVALID, 0, 0);

	assert_int_equal(run(fx), -EINVAL);
	assert_false(fake_of(a)->applied);
	assert_null(strstr(call_log, "apply"));
	/* Every invalid item is reported, not just the first. */
	assert_int_equal(fx->errs.n, 2);
	assert_string_equal(fx->errs.msgs[0], "file/x: refusing to write through a symlink: /x");
	assert_string_equal(fx->errs.msgs[1], "link/y: invalid");
	(void)bad2;
}

static void test_apply_phase_order(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.mode = HALO_MODE_APPLY;
	/* Plan order deliberately against phase order. */
	add(&fx->plan, "boot1", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "file1", HALO_SUB_FILES, HALO_PHASE_FILES, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "link1", HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "mod1", HALO_SUB_MODULES, HALO_PHASE_MODULES, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "mod2", HALO_SUB_MODULES, HALO_PHASE_MODULES, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "rdma1", HALO_SUB_RDMA, HALO_PHASE_RDMA, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "roce1", HALO_SUB_ROCE, HALO_PHASE_ROCE, HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	add(&fx->plan, "same", HALO_SUB_ROCE, HALO_PHASE_ROCE, HALO_SYNC_OK, HALO_SYNC_OK, 0);

	assert_int_equal(run(fx), HALO_EXIT_CHANGED);
	/* After every phase, every item is observed again: what held too. */
	assert_string_equal(call_log,
		"observe:boot1 observe:file1 observe:link1 observe:mod1 observe:mod2 "
		"observe:rdma1 observe:roce1 observe:same "
		"apply:mod1 apply:mod2 apply:link1 apply:roce1 apply:rdma1 apply:file1 apply:boot1 "
		"observe:boot1 observe:file1 observe:link1 observe:mod1 observe:mod2 "
		"observe:rdma1 observe:roce1 observe:same");
	for (size_t i = 0; i < fx->plan.n - 1; i++) {
		assert_int_equal(fx->plan.items[i]->outcome, HALO_OUTCOME_CHANGED);
		assert_true(fx->plan.items[i]->changed);
		assert_string_equal(fx->plan.items[i]->was, "old");
		assert_string_equal(fx->plan.items[i]->observed, "new");
	}
	assert_int_equal(fx->plan.items[7]->outcome, HALO_OUTCOME_OK);
	assert_false(fx->plan.items[7]->changed);
}

static void test_apply_failures(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *fails, *later, *still, *pend, *ok;

	fx->ctx.mode = HALO_MODE_APPLY;
	fails = add(&fx->plan, "mod/fails", HALO_SUB_MODULES, HALO_PHASE_MODULES,
		    HALO_SYNC_DIFFERS, HALO_SYNC_OK, -EACCES);
	later = add(&fx->plan, "boot/later", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		    HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	still = add(&fx->plan, "link/still", HALO_SUB_LINKS, HALO_PHASE_LINKS,
		    HALO_SYNC_DIFFERS, HALO_SYNC_DIFFERS, 0);
	pend = add(&fx->plan, "boot/pend", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		   HALO_SYNC_DIFFERS, HALO_SYNC_PENDING, 0);
	ok = add(&fx->plan, "boot/ok", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		 HALO_SYNC_PENDING, HALO_SYNC_PENDING, 0);

	assert_int_equal(run(fx),
			 HALO_EXIT_CHANGED | HALO_EXIT_FAILED | HALO_EXIT_REBOOT);
	assert_int_equal(fails->outcome, HALO_OUTCOME_FAILED);
	assert_false(fails->changed);
	assert_string_equal(fails->message, "doing it: Permission denied");
	/* A failure does not stop later phases. */
	assert_int_equal(later->outcome, HALO_OUTCOME_CHANGED);
	assert_int_equal(still->outcome, HALO_OUTCOME_FAILED);
	assert_string_equal(still->message, "still differs after apply: observed new");
	assert_int_equal(pend->outcome, HALO_OUTCOME_PENDING_REBOOT);
	assert_true(pend->changed);
	/* Already pending before the run: not applied, not changed. */
	assert_int_equal(ok->outcome, HALO_OUTCOME_PENDING_REBOOT);
	assert_false(ok->changed);
	assert_false(fake_of(ok)->applied);
}

/* An item that needs another is not applied when that one failed (the
 * boot record before the edits it describes), and is applied when it
 * succeeded or was already in sync. */
static void test_apply_needs(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *record, *edit, *record2, *edit2;

	fx->ctx.mode = HALO_MODE_APPLY;
	record = add(&fx->plan, "file/record", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		     HALO_SYNC_DIFFERS, HALO_SYNC_OK, -EIO);
	edit = add(&fx->plan, "file/grub", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		   HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	edit->needs = record;
	record2 = add(&fx->plan, "file/record2", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		      HALO_SYNC_OK, HALO_SYNC_OK, 0);
	edit2 = add(&fx->plan, "file/grub2", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		    HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	edit2->needs = record2;

	assert_int_equal(run(fx),
			 HALO_EXIT_CHANGED | HALO_EXIT_FAILED);
	assert_int_equal(record->outcome, HALO_OUTCOME_FAILED);
	assert_int_equal(edit->outcome, HALO_OUTCOME_FAILED);
	assert_false(fake_of(edit)->applied);
	assert_string_equal(edit->message, "not applied: file/record failed");
	assert_int_equal(edit2->outcome, HALO_OUTCOME_CHANGED);
	assert_true(fake_of(edit2)->applied);
}

static void test_apply_only_pending_is_reboot_only(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.mode = HALO_MODE_APPLY;
	add(&fx->plan, "boot/p", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_PENDING, 0, 0);
	assert_int_equal(run(fx), HALO_EXIT_REBOOT);
}

static void test_apply_through_other_item(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *file, *param;
	struct fake *f = calloc(1, sizeof(*f) + sizeof(struct fake *));

	fx->ctx.mode = HALO_MODE_APPLY;
	param = NULL;
	assert_non_null(f);
	assert_int_equal(halo_plan_add(&fx->plan, "boot/param/iommu", HALO_SUB_BOOT,
				       HALO_PHASE_BOOT, &through_ops, f, &param), 0);
	file = add(&fx->plan, "file/etc/default/grub", HALO_SUB_BOOT, HALO_PHASE_BOOT,
		   HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	*(struct fake **)((char *)f + sizeof(*f)) = fake_of(file);

	assert_int_equal(run(fx), HALO_EXIT_CHANGED);
	assert_int_equal(param->outcome, HALO_OUTCOME_CHANGED);
	assert_int_equal(file->outcome, HALO_OUTCOME_CHANGED);
	assert_string_equal(call_log,
		"observe:boot/param/iommu observe:file/etc/default/grub "
		"apply:file/etc/default/grub "
		"observe:boot/param/iommu observe:file/etc/default/grub");
}

static const struct halo_interface rdma0 = { .name = "rdma0" };

/* An address that held is removed by the port reset a later phase's DCB
 * change makes: the final observation sees it, it is applied again (the
 * note says why), and the run ends with what the host keeps. */
static void test_undone_is_applied_again(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *addr, *pfc, *other;

	fx->ctx.mode = HALO_MODE_APPLY;
	addr = add(&fx->plan, "link/rdma0/addr", HALO_SUB_LINKS, HALO_PHASE_ADDRESSES,
		   HALO_SYNC_OK, HALO_SYNC_OK, 0);
	pfc = add(&fx->plan, "roce/rdma0/pfc", HALO_SUB_ROCE, HALO_PHASE_ROCE,
		  HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	other = add(&fx->plan, "file/x", HALO_SUB_FILES, HALO_PHASE_FILES, HALO_SYNC_OK,
		    HALO_SYNC_OK, 0);
	addr->iface = pfc->iface = &rdma0;
	pfc->side_effect = "the port reset that ice does on every DCB change";
	fake_of(pfc)->undoes = fake_of(addr);

	assert_int_equal(run(fx), HALO_EXIT_CHANGED);
	assert_int_equal(pfc->outcome, HALO_OUTCOME_CHANGED);
	assert_int_equal(addr->outcome, HALO_OUTCOME_CHANGED);
	assert_true(addr->changed);
	assert_string_equal(addr->note, "applied again: undone by the port reset that ice does "
					"on every DCB change (roce/rdma0/pfc)");
	assert_int_equal(other->outcome, HALO_OUTCOME_OK);
	assert_string_equal(call_log,
		"observe:link/rdma0/addr observe:roce/rdma0/pfc observe:file/x "
		"apply:roce/rdma0/pfc "
		"observe:link/rdma0/addr observe:roce/rdma0/pfc observe:file/x "
		"apply:link/rdma0/addr "
		"observe:link/rdma0/addr observe:roce/rdma0/pfc observe:file/x");
}

/* Two items that undo each other whatever the order: after the bounded
 * passes both fail, each naming what undid it; exit bit 4. */
static void test_undone_for_good_fails_naming_the_cause(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *mtu, *pfc;

	fx->ctx.mode = HALO_MODE_APPLY;
	mtu = add(&fx->plan, "link/rdma0/mtu", HALO_SUB_LINKS, HALO_PHASE_LINKS,
		  HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	pfc = add(&fx->plan, "roce/rdma0/pfc", HALO_SUB_ROCE, HALO_PHASE_ROCE,
		  HALO_SYNC_DIFFERS, HALO_SYNC_OK, 0);
	mtu->iface = pfc->iface = &rdma0;
	pfc->side_effect = "the port reset that ice does on every DCB change";
	mtu->side_effect = "an MTU change";
	fake_of(pfc)->undoes = fake_of(mtu);
	fake_of(mtu)->undoes = fake_of(pfc);

	assert_int_equal(run(fx), HALO_EXIT_CHANGED | HALO_EXIT_FAILED);
	assert_int_equal(mtu->outcome, HALO_OUTCOME_FAILED);
	assert_string_equal(mtu->message, "undone by the port reset that ice does on every DCB "
					  "change (roce/rdma0/pfc), also after applying it again: "
					  "observed new");
	/* pfc was applied last: it holds, mtu does not. */
	assert_int_equal(pfc->outcome, HALO_OUTCOME_CHANGED);
	/* The apply and two more passes, no more. */
	assert_int_equal(fake_of(mtu)->observed_n, 4);
}

/* An apply that changes nothing observes nothing twice. */
static void test_nothing_applied_observes_once(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.mode = HALO_MODE_APPLY;
	add(&fx->plan, "a", HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_SYNC_OK, HALO_SYNC_OK, 0);
	add(&fx->plan, "b", HALO_SUB_READY, HALO_PHASE_CHECK_ONLY, HALO_SYNC_DIFFERS, 0, 0);
	assert_int_equal(run(fx), 0);
	assert_string_equal(call_log, "observe:a observe:b");
}

static void test_only_filters(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.mode = HALO_MODE_CHECK;
	fx->ctx.only = HALO_SUB_LINKS;
	add(&fx->plan, "boot/x", HALO_SUB_BOOT, HALO_PHASE_BOOT, HALO_SYNC_DIFFERS, 0, 0);
	add(&fx->plan, "link/x", HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_SYNC_OK, 0, 0);
	assert_int_equal(run(fx), 0);
	assert_int_equal(fx->plan.n, 1);
	assert_string_equal(fx->plan.items[0]->key, "link/x");
	assert_string_equal(call_log, "observe:link/x");
}

static void test_empty_plan(void **state)
{
	struct fixture *fx = *state;

	fx->ctx.mode = HALO_MODE_APPLY;
	assert_int_equal(run(fx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_check_outcomes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_in_sync_is_zero, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dry_run_reboot_bit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_stops_before_apply, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_phase_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_failures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_needs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_only_pending_is_reboot_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apply_through_other_item, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undone_is_applied_again, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undone_for_good_fails_naming_the_cause, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nothing_applied_observes_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_only_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_plan, setup, teardown),
	};

	return cmocka_run_group_tests_name("engine", tests, NULL, NULL);
}
