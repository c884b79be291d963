/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of owned-file items (file_item.c) on a scratch root. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "subsystems.h"

#include "engine/engine.h"
#include "engine/outputs.h"
#include "engine/plan.h"
#include "engine-test.h"
#include "util/rootfs.h"

struct fixture {
	char dir[64];
	struct halo_ctx ctx;
	struct halo_plan plan;
	struct halo_errors errs;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	if (scratch_root_open(&fx->ctx, fx->dir, "file-item") < 0)
		return -1;
	fx->ctx.diff = true;
	halo_plan_init(&fx->plan);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	halo_plan_free(&fx->plan);
	halo_errors_free(&fx->errs);
	assert_int_equal(scratch_root_remove(&fx->ctx), 0);
	free(fx);
	return 0;
}

/* Host-side path of PATH under the fixture root. */
static const char *host(struct fixture *fx, const char *path)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%s%s", fx->dir, path);
	return buf;
}

static void put(struct fixture *fx, const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(host(fx, path), "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(host(fx, path), mode), 0);
}

static char *slurp(struct fixture *fx, const char *path)
{
	static char buf[4096];
	FILE *f = fopen(host(fx, path), "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_create_then_in_sync(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *it;
	struct stat st;

	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/etc/x.d/a.conf", "hello\n", 0640, &it), 0);
	assert_string_equal(it->key, "file/etc/x.d/a.conf");
	assert_string_equal(it->wanted, "mode 0640, 6 bytes");

	fx->ctx.mode = HALO_MODE_CHECK;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), HALO_EXIT_CHANGED);
	assert_int_equal(it->outcome, HALO_OUTCOME_DRIFT);
	assert_null(it->observed);
	assert_non_null(it->diff);
	assert_non_null(strstr(it->diff, "+hello"));
	assert_null(slurp(fx, "/etc/x.d/a.conf"));

	fx->ctx.mode = HALO_MODE_APPLY;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), HALO_EXIT_CHANGED);
	assert_int_equal(it->outcome, HALO_OUTCOME_CHANGED);
	assert_string_equal(slurp(fx, "/etc/x.d/a.conf"), "hello\n");
	assert_int_equal(stat(host(fx, "/etc/x.d/a.conf"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_string_equal(it->observed, "mode 0640, 6 bytes");
	/* The diff of what was changed survives the verification. */
	assert_non_null(strstr(it->diff, "+hello"));
	assert_int_equal(fx->ctx.files_written, 1);

	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), 0);
	assert_int_equal(it->outcome, HALO_OUTCOME_OK);
	assert_int_equal(fx->ctx.files_written, 1);
}

static void test_mode_and_content_drift(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *mode_only, *content;

	put(fx, "/m.conf", "same\n", 0600);
	put(fx, "/c.conf", "abcd\n", 0644);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/m.conf", "same\n", 0644, &mode_only), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/c.conf", "wxyz\n", 0644, &content), 0);
	fx->ctx.mode = HALO_MODE_CHECK;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), HALO_EXIT_CHANGED);
	assert_int_equal(mode_only->outcome, HALO_OUTCOME_DRIFT);
	assert_string_equal(mode_only->observed, "mode 0600, 5 bytes");
	assert_string_equal(mode_only->diff, "");
	assert_string_equal(content->observed, "mode 0644, 5 bytes (other content)");
	assert_non_null(strstr(content->diff, "-abcd"));
	assert_non_null(strstr(content->diff, "+wxyz"));
}

/* A kept prior file is put back as the first differing observation
 * found it: its text and mode, or its absence; nothing kept: -ENODATA. */
static void test_restore_prior(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *was, *none, *plain;
	struct stat st;

	put(fx, "/was.conf", "old\n", 0640);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/was.conf", "new\n", 0644, &was), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/none.conf", "new\n", 0644, &none), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/plain.conf", "new\n", 0644, &plain), 0);
	halo_file_item_keep_prior(was);
	halo_file_item_keep_prior(none);
	fx->ctx.mode = HALO_MODE_APPLY;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), HALO_EXIT_CHANGED);
	assert_string_equal(slurp(fx, "/was.conf"), "new\n");
	assert_string_equal(slurp(fx, "/none.conf"), "new\n");

	assert_int_equal(halo_file_item_restore(&fx->ctx, was), 0);
	assert_string_equal(slurp(fx, "/was.conf"), "old\n");
	assert_int_equal(stat(host(fx, "/was.conf"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(halo_file_item_restore(&fx->ctx, none), 0);
	assert_null(slurp(fx, "/none.conf"));
	assert_int_equal(halo_file_item_restore(&fx->ctx, plain), -ENODATA);
	assert_string_equal(slurp(fx, "/plain.conf"), "new\n");
}

static void test_remove_stale(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *it, *gone;

	put(fx, "/stale.conf", "old\n", 0644);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/stale.conf", NULL, 0, &it), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/never.conf", NULL, 0, &gone), 0);
	assert_string_equal(it->wanted, "absent");
	fx->ctx.mode = HALO_MODE_APPLY;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), HALO_EXIT_CHANGED);
	assert_int_equal(it->outcome, HALO_OUTCOME_CHANGED);
	assert_string_equal(it->was, "present, 4 bytes");
	assert_int_equal(gone->outcome, HALO_OUTCOME_OK);
	assert_null(slurp(fx, "/stale.conf"));
}

static void test_symlinks_are_invalid(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *leaf, *parent, *fine;

	assert_int_equal(mkdir(host(fx, "/etc"), 0755), 0);
	assert_int_equal(symlink("/etc/passwd", host(fx, "/etc/leaf.conf")), 0);
	assert_int_equal(symlink("/tmp", host(fx, "/etc/sub")), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/etc/leaf.conf", "x\n", 0644, &leaf), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/etc/sub/inner.conf", "x\n", 0644, &parent), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_MODULES,
					    "/etc/fine.conf", "x\n", 0644, &fine), 0);
	fx->ctx.mode = HALO_MODE_APPLY;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), -EINVAL);
	assert_int_equal(fx->errs.n, 2);
	assert_non_null(strstr(fx->errs.msgs[0], "file/etc/leaf.conf: refusing to write through a symlink"));
	assert_non_null(strstr(fx->errs.msgs[1], "file/etc/sub/inner.conf: refusing to write through a symlink"));
	assert_non_null(strstr(fx->errs.msgs[1], "/etc/sub"));
	/* Nothing at all was written, not even the unrelated file. */
	assert_null(slurp(fx, "/etc/fine.conf"));
	assert_int_equal(fx->ctx.files_written, 0);
}

static void test_directory_is_invalid(void **state)
{
	struct fixture *fx = *state;
	struct halo_item *it;

	assert_int_equal(mkdir(host(fx, "/d"), 0755), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/d", "x\n", 0644, &it), 0);
	fx->ctx.mode = HALO_MODE_CHECK;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), -EINVAL);
	assert_non_null(strstr(fx->errs.msgs[0], "not a regular file"));
}

static void test_bad_paths(void **state)
{
	struct fixture *fx = *state;

	put(fx, "/plain", "file\n", 0644);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/plain/x.conf", "x\n", 0644, NULL), 0);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "/plain/x.conf", "y\n", 0644, NULL), -EEXIST);
	assert_int_equal(halo_plan_add_file(&fx->plan, HALO_SUB_FILES, HALO_PHASE_FILES,
					    "relative", "x\n", 0644, NULL), -EINVAL);
	assert_int_equal(fx->plan.n, 1);
	/* Beneath a file nothing exists: drift, saying which parent. */
	fx->ctx.mode = HALO_MODE_CHECK;
	assert_int_equal(engine_steps(&fx->ctx, &fx->plan, &fx->errs), HALO_EXIT_CHANGED);
	assert_int_equal(fx->plan.items[0]->outcome, HALO_OUTCOME_DRIFT);
	assert_non_null(strstr(fx->plan.items[0]->message, "/plain is not a directory"));
	/* An apply finds it unwritable before the first change. */
	fx->ctx.mode = HALO_MODE_APPLY;
	assert_int_equal(halo_engine_observe(&fx->ctx, &fx->plan, 0, &fx->errs), 0);
	assert_int_equal(halo_outputs_check_files_writable(&fx->ctx, &fx->plan, &fx->errs), -EROFS);
	assert_int_equal(fx->errs.n, 1);
	assert_non_null(strstr(fx->errs.msgs[0], "/plain/x.conf cannot be written: "));
	assert_non_null(strstr(fx->errs.msgs[0], "/plain is not a directory; nothing was changed"));
	assert_string_equal(slurp(fx, "/plain"), "file\n");
}

/*
 * A target that cannot be written is a failed item with the errno text
 * (exit +4), and the old file stays. Real EROFS: a tmpfs remounted
 * read-only inside the root, in a private mount namespace of a child (the
 * parent's mounts are untouched). Returns the line that failed, 0 if all
 * held, 77 if mount namespaces are not available.
 */
static int erofs_child(const char *dir)
{
	struct halo_ctx ctx = { .root = dir, .under_root = true, .registry = &halo_registry,
				.only = halo_registry_default_mask(&halo_registry),
				.mode = HALO_MODE_APPLY };
	struct halo_errors errs = { 0 };
	struct halo_plan plan;
	struct halo_item *it = NULL;
	char mnt[128], old[16] = "";
	FILE *f;
	int bits;

	snprintf(mnt, sizeof(mnt), "%s/ro", dir);
	if (unshare(CLONE_NEWNS) < 0)
		return 77;
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mkdir(mnt, 0755) < 0 ||
	    mount("tmpfs", mnt, "tmpfs", 0, "size=16k,mode=0755") < 0)
		return __LINE__;
	snprintf(mnt, sizeof(mnt), "%s/ro/f.conf", dir);
	f = fopen(mnt, "w");
	if (!f || fputs("old\n", f) < 0 || fclose(f) != 0)
		return __LINE__;
	snprintf(mnt, sizeof(mnt), "%s/ro", dir);
	if (mount("none", mnt, "none", MS_REMOUNT | MS_RDONLY, NULL) < 0)
		return __LINE__;
	if (halo_root_open(dir, &ctx.root_fd) < 0)
		return __LINE__;
	halo_plan_init(&plan);
	if (halo_plan_add_file(&plan, HALO_SUB_FILES, HALO_PHASE_FILES, "/ro/f.conf",
			       "new\n", 0644, &it) < 0)
		return __LINE__;
	if (halo_plan_add_file(&plan, HALO_SUB_FILES, HALO_PHASE_BOOT, "/ok.conf",
			       "fine\n", 0644, NULL) < 0)
		return __LINE__;
	bits = engine_steps(&ctx, &plan, &errs);
	/* The other file (a later phase) is still written. */
	if (bits != (HALO_EXIT_FAILED | HALO_EXIT_CHANGED))
		return __LINE__;
	if (it->outcome != HALO_OUTCOME_FAILED || !it->message ||
	    strcmp(it->message, "writing /ro/f.conf: Read-only file system") != 0)
		return __LINE__;
	snprintf(mnt, sizeof(mnt), "%s/ro/f.conf", dir);
	f = fopen(mnt, "r");
	if (!f || !fgets(old, sizeof(old), f) || strcmp(old, "old\n") != 0)
		return __LINE__;
	fclose(f);
	halo_plan_free(&plan);
	close(ctx.root_fd);
	return 0;
}

/* --revert's ownership rule: the header text on one of the first three
 * lines, whatever the comment leader; elsewhere or altered, not ours. */
static void test_is_managed(void **state)
{
	static const char *const ours[] = {
		HALO_MANAGED_HEADER "x=1\n",
		"<?xml version=\"1.0\"?>\n<!-- " HALO_MANAGED_TEXT " -->\n<zone/>\n",
		"; " HALO_MANAGED_TEXT "\n",
		"// " HALO_MANAGED_TEXT,
		"[Unit]\n#" HALO_MANAGED_TEXT "\n",
	};
	static const char *const not_ours[] = {
		"",
		"x=1\n",
		"a\nb\nc\n# " HALO_MANAGED_TEXT "\n",
		"# Managed by halo-provision\n",
		"x # " HALO_MANAGED_TEXT "\n",
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ours); i++)
		assert_true(halo_is_managed(ours[i], strlen(ours[i])));
	for (size_t i = 0; i < ARRAY_SIZE(not_ours); i++)
		assert_false(halo_is_managed(not_ours[i], strlen(not_ours[i])));
	/* LEN bounds the text: a header cut short is not one. */
	assert_false(halo_is_managed(HALO_MANAGED_HEADER, 10));
}

static void test_unwritable_target_fails(void **state)
{
	struct fixture *fx = *state;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0)
		_exit(erofs_child(fx->dir));
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_string_equal(slurp(fx, "/ok.conf"), "fine\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_managed),
		cmocka_unit_test_setup_teardown(test_create_then_in_sync, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_and_content_drift, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remove_stale, setup, teardown),
		cmocka_unit_test_setup_teardown(test_restore_prior, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlinks_are_invalid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_is_invalid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_target_fails, setup, teardown),
	};

	return cmocka_run_group_tests_name("engine-file-item", tests, NULL, NULL);
}
