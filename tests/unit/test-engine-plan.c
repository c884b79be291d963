/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the item model and the plan list (item.c, plan.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/plan.h"
#include "util/rootfs.h"

static int freed;

static void count_free(void *p)
{
	freed++;
	free(p);
}

static int nop_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	return HALO_SYNC_OK;
}

static const struct halo_item_ops ops = {
	.observe = nop_observe,
	.free_data = count_free,
};

static void test_add_find_duplicate(void **state)
{
	struct halo_plan plan;
	struct halo_item *a = NULL, *dup = NULL;

	freed = 0;
	halo_plan_init(&plan);
	assert_int_equal(halo_plan_add(&plan, "module/ice", HALO_SUB_MODULES,
				       HALO_PHASE_MODULES, &ops, malloc(4), &a), 0);
	assert_non_null(a);
	assert_string_equal(a->key, "module/ice");
	assert_int_equal(a->subsys, HALO_SUB_MODULES);
	assert_ptr_equal(halo_plan_find(&plan, "module/ice"), a);
	assert_null(halo_plan_find(&plan, "module/ic"));
	/* A duplicate key is refused and its data freed right away. */
	assert_int_equal(halo_plan_add(&plan, "module/ice", HALO_SUB_MODULES,
				       HALO_PHASE_MODULES, &ops, malloc(4), &dup), -EEXIST);
	assert_null(dup);
	assert_int_equal(freed, 1);
	assert_int_equal(plan.n, 1);
	halo_plan_free(&plan);
	assert_int_equal(freed, 2);
	assert_int_equal(plan.n, 0);
}

struct fat {
	char *name;
	unsigned long v[64];
};

static void test_add_new_zeroed_owned_data(void **state)
{
	static const struct halo_item_ops plain = { .observe = nop_observe };
	struct halo_plan plan;
	struct halo_item *a = NULL, *dup = (struct halo_item *)&plan, *b = NULL;
	struct fat *f;

	freed = 0;
	halo_plan_init(&plan);
	assert_int_equal(halo_plan_add_new(&plan, "module/ice", HALO_SUB_MODULES,
					   HALO_PHASE_MODULES, &ops, sizeof(*f), &a), 0);
	assert_non_null(a);
	assert_ptr_equal(halo_plan_find(&plan, "module/ice"), a);
	assert_int_equal(a->subsys, HALO_SUB_MODULES);
	assert_int_equal(a->phase, HALO_PHASE_MODULES);
	assert_ptr_equal(a->ops, &ops);
	f = a->data;
	assert_non_null(f);
	assert_null(f->name);
	for (size_t i = 0; i < ARRAY_SIZE(f->v); i++)
		assert_int_equal(f->v[i], 0);
	/* A duplicate: its zeroed data goes through free_data at once. */
	assert_int_equal(halo_plan_add_new(&plan, "module/ice", HALO_SUB_MODULES,
					   HALO_PHASE_MODULES, &ops, sizeof(*f), &dup), -EEXIST);
	assert_null(dup);
	assert_int_equal(freed, 1);
	/* No free_data: plain free() (ASan and valgrind see a leak). */
	assert_int_equal(halo_plan_add_new(&plan, "x", HALO_SUB_LINKS, HALO_PHASE_LINKS,
					   &plain, 0, &b), 0);
	assert_non_null(b->data);
	assert_int_equal(plan.n, 2);
	halo_plan_free(&plan);
	assert_int_equal(freed, 2);
}

static void test_many_items_keep_order(void **state)
{
	struct halo_plan plan;
	char key[32];

	halo_plan_init(&plan);
	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "k/%d", i);
		assert_int_equal(halo_plan_add(&plan, key, HALO_SUB_FILES,
					       HALO_PHASE_FILES, &ops, NULL, NULL), 0);
	}
	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "k/%d", i);
		assert_string_equal(plan.items[i]->key, key);
	}
	halo_plan_free(&plan);
}

/* Lookups test a hash of the key first: two keys of the same hash are
 * still two items, each found by its own key. */
static void test_find_same_hash(void **state)
{
	/* Both FNV-1a 0x1a105014. */
	static const char k1[] = "roce/e810/k730654", k2[] = "roce/e810/k1306740";
	struct halo_plan plan;
	struct halo_item *a = NULL, *b = NULL;
	char key[32];

	halo_plan_init(&plan);
	for (int i = 0; i < 40; i++) {
		snprintf(key, sizeof(key), "roce/e810/%d", i);
		assert_int_equal(halo_plan_add(&plan, key, HALO_SUB_ROCE, HALO_PHASE_ROCE,
					       &ops, NULL, NULL), 0);
	}
	assert_int_equal(halo_plan_add(&plan, k1, HALO_SUB_ROCE, HALO_PHASE_ROCE, &ops,
				       NULL, &a), 0);
	assert_null(halo_plan_find(&plan, k2));
	assert_int_equal(halo_plan_add(&plan, k2, HALO_SUB_ROCE, HALO_PHASE_ROCE, &ops,
				       NULL, &b), 0);
	assert_ptr_equal(halo_plan_find(&plan, k1), a);
	assert_ptr_equal(halo_plan_find(&plan, k2), b);
	assert_int_equal(halo_plan_add(&plan, k2, HALO_SUB_ROCE, HALO_PHASE_ROCE, &ops,
				       NULL, NULL), -EEXIST);
	for (int i = 0; i < 40; i++) {
		snprintf(key, sizeof(key), "roce/e810/%d", i);
		assert_ptr_equal(halo_plan_find(&plan, key), plan.items[i]);
	}
	assert_null(halo_plan_find(&plan, "roce/e810/"));
	assert_null(halo_plan_find(&plan, "roce/e810/400"));
	assert_int_equal(plan.n, 42);
	halo_plan_free(&plan);
}

static void test_warnings(void **state)
{
	struct halo_plan plan;

	halo_plan_init(&plan);
	assert_int_equal(halo_plan_warn(&plan, "gtt %d above %s", 5, "ceiling"), 0);
	assert_int_equal(halo_plan_warn(&plan, "second"), 0);
	assert_int_equal(plan.n_warnings, 2);
	assert_string_equal(plan.warnings[0], "gtt 5 above ceiling");
	assert_string_equal(plan.warnings[1], "second");
	assert_null(plan.warnings[2]);
	halo_plan_free(&plan);
}

/* A held file goes with the warning that announced it. */
static void test_held_with_warning(void **state)
{
	struct halo_plan plan;

	(void)state;
	halo_plan_init(&plan);
	assert_int_equal(halo_plan_warn(&plan, "first"), 0);
	assert_int_equal(halo_plan_warn_held(&plan, "/etc/a", "a is %s", "held"), 0);
	assert_int_equal(halo_plan_warn_held(&plan, "/etc/b", "b too"), 0);
	assert_int_equal(plan.n_warnings, 3);
	assert_string_equal(plan.warnings[1], "a is held");
	assert_true(halo_plan_holds(&plan, "/etc/a"));
	assert_true(halo_plan_holds(&plan, "/etc/b"));
	assert_false(halo_plan_holds(&plan, "/etc/c"));
	halo_plan_truncate(&plan, 0, 2);
	assert_true(halo_plan_holds(&plan, "/etc/a"));
	assert_false(halo_plan_holds(&plan, "/etc/b"));
	halo_plan_truncate(&plan, 0, 1);
	assert_false(halo_plan_holds(&plan, "/etc/a"));
	assert_int_equal(plan.n_held, 0);
	assert_int_equal(halo_plan_warn_held(&plan, "/etc/d", "d"), 0);
	halo_plan_free(&plan);
}

static void test_item_setters(void **state)
{
	struct halo_plan plan;
	struct halo_item *it;

	halo_plan_init(&plan);
	assert_int_equal(halo_plan_add(&plan, "x", HALO_SUB_LINKS, HALO_PHASE_LINKS,
				       &ops, NULL, &it), 0);
	assert_int_equal(halo_item_set_wanted(it, "%u", 9000u), 0);
	assert_int_equal(halo_item_set_observed(it, "%s", "1500"), 0);
	assert_string_equal(it->wanted, "9000");
	assert_string_equal(it->observed, "1500");
	assert_int_equal(halo_item_set_observed(it, NULL), 0);
	assert_null(it->observed);
	/* A literal, text with "%s", "%%": the same text as printf's. */
	assert_int_equal(halo_item_set_wanted(it, "absent"), 0);
	assert_string_equal(it->wanted, "absent");
	assert_int_equal(halo_item_set_note(it, "%s (%s)", "up", "carrier"), 0);
	assert_string_equal(it->note, "up (carrier)");
	assert_int_equal(halo_item_set_note(it, "100%% of %s", "it"), 0);
	assert_string_equal(it->note, "100% of it");
	assert_int_equal(halo_item_fail(it, -ENOENT, "reading %s", "/etc/x"), -ENOENT);
	assert_string_equal(it->message, "reading /etc/x: No such file or directory");
	/* halo_read_file's "not a regular file" (a FIFO, a device) says so. */
	assert_int_equal(halo_item_fail(it, -HALO_ENOTREG, "reading %s", "/etc/x"), -HALO_ENOTREG);
	assert_string_equal(it->message, "reading /etc/x: not a regular file");
	assert_int_equal(halo_item_set_message(it, NULL), 0);
	assert_null(it->message);
	halo_plan_free(&plan);
}

static void test_names(void **state)
{
	assert_string_equal(halo_outcome_name(HALO_OUTCOME_OK), "ok");
	assert_string_equal(halo_outcome_name(HALO_OUTCOME_PENDING_REBOOT), "pending-reboot");
	assert_string_equal(halo_outcome_name(HALO_OUTCOME_FAILED), "failed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_find_duplicate),
		cmocka_unit_test(test_add_new_zeroed_owned_data),
		cmocka_unit_test(test_many_items_keep_order),
		cmocka_unit_test(test_find_same_hash),
		cmocka_unit_test(test_warnings),
		cmocka_unit_test(test_held_with_warning),
		cmocka_unit_test(test_item_setters),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests_name("engine-plan", tests, NULL, NULL);
}
