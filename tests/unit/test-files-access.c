/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the device access rule (src/files/access.c) and the
 * /etc/group lookup (src/files/group.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "engine/plan.h"
#include "files/access.h"
#include "files/group.h"
#include "render-test.h"

static void gpu_default_mode(void **state)
{
	struct halo_access_config a = { .present = true, .gpu_group = "render" };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_access_render(&a, &out), 0);
	assert_true(strncmp(out, HALO_MANAGED_HEADER, strlen(HALO_MANAGED_HEADER)) == 0);
	assert_string_equal(rendered_lines(out),
		"SUBSYSTEM==\"kfd\", KERNEL==\"kfd\", GROUP=\"render\", MODE=\"0660\"\n"
		"SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", GROUP=\"render\", MODE=\"0660\"\n");
	assert_non_null(strstr(out, "# access.rdma_group is not set"));
	free(out);
}

/* 0666 only when the config says so. */
static void gpu_mode_from_config(void **state)
{
	struct halo_access_config a = { .present = true, .gpu_group = "video", .gpu_mode = 0666 };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_access_render(&a, &out), 0);
	assert_string_equal(rendered_lines(out),
		"SUBSYSTEM==\"kfd\", KERNEL==\"kfd\", GROUP=\"video\", MODE=\"0666\"\n"
		"SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", GROUP=\"video\", MODE=\"0666\"\n");
	free(out);
}

/* rdma_group: only umad and issm, never uverbs or rdma_cm (0666 already). */
static void rdma_only_mad(void **state)
{
	struct halo_access_config a = { .present = true, .rdma_group = "rdma" };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_access_render(&a, &out), 0);
	assert_string_equal(rendered_lines(out),
		"SUBSYSTEM==\"infiniband_mad\", KERNEL==\"umad*|issm*\", GROUP=\"rdma\", "
		"MODE=\"0660\"\n");
	assert_null(strstr(rendered_lines(out), "uverbs"));
	assert_null(strstr(rendered_lines(out), "rdma_cm"));
	assert_null(strstr(rendered_lines(out), "0666"));
	assert_non_null(strstr(out, "# access.gpu_group is not set"));
	free(out);
}

static void both_and_none(void **state)
{
	struct halo_access_config a = { .present = true, .gpu_group = "render",
					.rdma_group = "rdma" };
	struct halo_access_config none = { .present = true };
	char *out = NULL;

	(void)state;
	assert_int_equal(halo_access_render(&a, &out), 0);
	assert_non_null(strstr(rendered_lines(out), "GROUP=\"render\""));
	assert_non_null(strstr(rendered_lines(out), "GROUP=\"rdma\""));
	free(out);
	out = NULL;
	assert_int_equal(halo_access_render(&none, &out), -EINVAL);
	assert_null(out);
}

static void group_find(void **state)
{
	const char *text =
		"root:x:0:\n"
		"# not a comment to glibc, but no group either\n"
		"video:x:44:alice\n"
		"render:x:105:\n"
		"rdmaX:x:900:\n"
		"rdma-bad:x:abc:\n"
		"nogid::\n"
		"last:x:7"; /* no newline, no members field */
	gid_t gid = 0;

	(void)state;
	assert_int_equal(halo_group_find(text, "render", &gid), 1);
	assert_int_equal(gid, 105);
	assert_int_equal(halo_group_find(text, "video", &gid), 1);
	assert_int_equal(gid, 44);
	assert_int_equal(halo_group_find(text, "root", NULL), 1);
	assert_int_equal(halo_group_find(text, "last", &gid), 1);
	assert_int_equal(gid, 7);
	/* A prefix is not the name, nor is a member. */
	assert_int_equal(halo_group_find(text, "rdma", NULL), 0);
	assert_int_equal(halo_group_find(text, "rend", NULL), 0);
	assert_int_equal(halo_group_find(text, "alice", NULL), 0);
	/* Lines without a numeric GID do not count. */
	assert_int_equal(halo_group_find(text, "rdma-bad", NULL), 0);
	assert_int_equal(halo_group_find(text, "nogid", NULL), 0);
	assert_int_equal(halo_group_find(text, "", NULL), 0);
	assert_int_equal(halo_group_find("", "root", NULL), 0);
	assert_int_equal(halo_group_find("big:x:4294967295:\n", "big", NULL), 0);
	assert_int_equal(halo_group_find("big:x:99999999999:\n", "big", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_default_mode),
		cmocka_unit_test(gpu_mode_from_config),
		cmocka_unit_test(rdma_only_mad),
		cmocka_unit_test(both_and_none),
		cmocka_unit_test(group_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
