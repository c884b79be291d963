/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo_write_file_atomic (util/rootfs-write.c) against a file swapped for
 * a FIFO between its look at the file and its open, as anyone who can
 * write the directory could do: fstatat is interposed here, and swaps the
 * file right after reporting it regular. The write must refuse at once,
 * never wait on the FIFO (an alarm fails the test if it does). And the
 * reader of owned files, which follows no symlink.
 */
#define _GNU_SOURCE
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/plan.h"
#include "engine/revert.h"
#include "root-test.h"

static const char *swap_name; /* the base name to swap, NULL: none */

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	static int (*real)(int, const char *, struct stat *, int);
	int r;

	if (!real)
		real = (int (*)(int, const char *, struct stat *, int))dlsym(RTLD_NEXT, "fstatat");
	r = real(dirfd, path, st, flags);
	if (r == 0 && swap_name && strcmp(path, swap_name) == 0) {
		swap_name = NULL;
		if (unlinkat(dirfd, path, 0) < 0 || mkfifoat(dirfd, path, 0644) < 0)
			abort();
	}
	return r;
}

/* The base name of a file to swap for a symlink to "secret" beside it,
 * right after a look at it through an O_PATH descriptor (how an owned
 * file's path is judged) found it regular; NULL: none. */
static const char *swap_to_link;

int fstat(int fd, struct stat *st)
{
	static int (*real)(int, struct stat *);
	char proc[64], path[256];
	size_t base;
	ssize_t n;
	int r;

	if (!real)
		real = (int (*)(int, struct stat *))dlsym(RTLD_NEXT, "fstat");
	r = real(fd, st);
	if (r < 0 || !swap_to_link || !S_ISREG(st->st_mode) || !(fcntl(fd, F_GETFL) & O_PATH))
		return r;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, path, sizeof(path) - 1);
	if (n <= 0 || (size_t)n <= strlen(swap_to_link))
		return r;
	path[n] = '\0';
	base = (size_t)n - strlen(swap_to_link);
	if (path[base - 1] != '/' || strcmp(path + base, swap_to_link) != 0)
		return r;
	swap_to_link = NULL;
	if (unlink(path) < 0 || symlink("secret", path) < 0)
		abort();
	return r;
}

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("waited on the FIFO");
}

static void test_fifo_swapped_in(void **state)
{
	struct halo_ctx ctx = { 0 };
	char dir[64], path[128];
	struct stat st;
	int fd;

	(void)state;
	assert_int_equal(scratch_root_open(&ctx, dir, "rootfs-race"), 0);
	snprintf(path, sizeof(path), "%s/race.conf", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "same\n", 5), 5);
	close(fd);
	assert_int_equal(chmod(path, 0644), 0);

	/* Same size and mode: the write compares the contents first. */
	signal(SIGALRM, on_alarm);
	alarm(5);
	swap_name = "race.conf";
	assert_int_equal(halo_write_file_atomic(&ctx, "/race.conf", "same\n", 5, 0644), -EEXIST);
	alarm(0);
	assert_null(swap_name);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode)); /* refused, not replaced */
	assert_int_equal(scratch_root_remove(&ctx), 0);
}

/* An owned file is read without following a symlink (one swapped in
 * since its path was judged), and without waiting on a FIFO. */
static void test_read_owned(void **state)
{
	struct halo_ctx ctx = { 0 };
	char dir[64], path[128], target[128];
	char *buf = NULL;
	size_t len = 0;
	int fd;

	(void)state;
	assert_int_equal(scratch_root_open(&ctx, dir, "rootfs-owned"), 0);
	snprintf(path, sizeof(path), "%s/owned.prom", dir);
	snprintf(target, sizeof(target), "%s/secret", dir);
	fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "secret\n", 7), 7);
	close(fd);

	assert_int_equal(halo_root_read_owned(&ctx, "/secret", &buf, &len), 0);
	assert_int_equal(len, 7);
	assert_string_equal(buf, "secret\n");
	free(buf);
	buf = NULL;

	assert_int_equal(symlink("secret", path), 0);
	assert_int_equal(halo_root_read_owned(&ctx, "/owned.prom", &buf, &len), -ELOOP);
	assert_null(buf);
	/* The general reader follows it inside the root: not for owned files. */
	assert_int_equal(halo_read_file(&ctx, "/owned.prom", &buf, &len), 0);
	free(buf);
	buf = NULL;

	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(halo_root_read_owned(&ctx, "/owned.prom", &buf, &len), -HALO_ENOTREG);
	alarm(0);
	assert_null(buf);
	assert_int_equal(halo_root_read_owned(&ctx, "/absent.prom", &buf, &len), -ENOENT);
	assert_int_equal(scratch_root_remove(&ctx), 0);
}

/* --revert judges the textfile by its path, then reads it: a symlink
 * swapped in between is refused, not followed to a file root can read
 * (whose first series would be quoted in the item's message). */
static void test_revert_reads_no_swapped_link(void **state)
{
	struct halo_ctx ctx = { 0 };
	struct halo_plan plan;
	struct halo_item *item;
	char dir[64], path[128];
	FILE *f;

	(void)state;
	assert_int_equal(scratch_root_open(&ctx, dir, "rootfs-revert"), 0);
	ctx.mode = HALO_MODE_CHECK;
	snprintf(path, sizeof(path), "%s/secret", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("secret_token 1\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/halo.prom", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("halo_provision_items 1\n", f);
	fclose(f);
	halo_plan_init(&plan);
	assert_int_equal(halo_plan_add_revert_output(&plan, "/halo.prom", HALO_REVERT_TEXTFILE, &item), 0);
	swap_to_link = "halo.prom";
	(void)item->ops->observe(&ctx, item);
	assert_null(swap_to_link); /* the swap happened */
	assert_true(item->message == NULL || !strstr(item->message, "secret"));
	assert_true(item->observed == NULL || !strstr(item->observed, "present"));
	halo_plan_free(&plan);
	assert_int_equal(scratch_root_remove(&ctx), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_swapped_in),
		cmocka_unit_test(test_read_owned),
		cmocka_unit_test(test_revert_reads_no_swapped_link),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
