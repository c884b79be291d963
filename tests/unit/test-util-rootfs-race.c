/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo_write_file_atomic (util/rootfs-write.c) against a file swapped for
 * a FIFO between its look at the file and its open, as anyone who can
 * write the directory could do: fstatat is interposed here, and swaps the
 * file right after reporting it regular. The write must refuse at once,
 * never wait on the FIFO (an alarm fails the test if it does).
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

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("the write waited on the FIFO");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_swapped_in),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
