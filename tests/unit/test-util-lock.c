/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for util/lock.c. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "util/lock.h"
#include "util/rootfs.h"

struct fx {
	char outer[64];
	char root[96];
	struct halo_ctx ctx;
};

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	strcpy(f->outer, "/tmp/halo-lock.XXXXXX");
	if (!mkdtemp(f->outer))
		return -1;
	snprintf(f->root, sizeof(f->root), "%s/root", f->outer);
	if (mkdir(f->root, 0755) < 0)
		return -1;
	f->ctx = (struct halo_ctx){ .root = f->root, .root_fd = -1 };
	if (halo_root_open(f->root, &f->ctx.root_fd) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	int r;

	close(f->ctx.root_fd);
	r = nftw(f->outer, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return r;
}

static void test_lock_twice(void **state)
{
	struct fx *f = *state;
	char p[256];
	struct stat st;
	int a = -1, b = -1, c = -1;

	/* /run does not exist yet: created inside the root. */
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &a), 0);
	assert_true(a > 2);
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock", f->root);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_true(fcntl(a, F_GETFD) & FD_CLOEXEC);

	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &b), -EWOULDBLOCK);
	assert_int_equal(b, -1);

	/* Another process sees it held too. */
	pid_t pid = fork();
	if (pid == 0) {
		int fd = -1;

		_exit(halo_lock_acquire(&f->ctx, 0, true, &fd) == -EWOULDBLOCK ? 0 : 1);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);

	/* Released with the descriptor. */
	close(a);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &c), 0);
	close(c);
}

/* --wait: a held lock times out with -ETIMEDOUT after the wait; one that
 * is released while we wait is taken. */
static void test_lock_wait(void **state)
{
	struct fx *f = *state;
	int held = -1, fd = -1, ws;
	int pipefd[2];
	pid_t pid;

	/* Without create, an absent lock is -ENOENT (a check creates none). */
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, false, &fd), -ENOENT);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &held), 0);
	assert_int_equal(halo_lock_acquire(&f->ctx, 1, false, &fd), -ETIMEDOUT);
	assert_int_equal(fd, -1);

	/* A child takes over the lock and releases it 200 ms later; we wait. */
	close(held);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	if (pid == 0) {
		int c = -1;

		if (halo_lock_acquire(&f->ctx, 0, true, &c) < 0)
			_exit(1);
		(void)write(pipefd[1], "x", 1);
		usleep(200000);
		_exit(0);
	}
	char ch;
	assert_int_equal(read(pipefd[0], &ch, 1), 1);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), -EWOULDBLOCK);
	assert_int_equal(halo_lock_acquire(&f->ctx, 30, true, &fd), 0);
	assert_true(fd > 2);
	close(fd);
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	close(pipefd[0]);
	close(pipefd[1]);
}

static void test_lock_symlink_refused(void **state)
{
	struct fx *f = *state;
	char p[256], t[256];
	struct stat st;
	int fd = -1;

	snprintf(p, sizeof(p), "%s/run", f->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock", f->root);
	snprintf(t, sizeof(t), "%s/victim", f->outer);
	assert_int_equal(symlink(t, p), 0);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), -ELOOP);
	assert_int_equal(fd, -1);
	assert_int_equal(lstat(t, &st), -1);

	/* /run itself a symlink out of the root. */
	assert_int_equal(unlink(p), 0);
	snprintf(p, sizeof(p), "%s/run", f->root);
	assert_int_equal(rmdir(p), 0);
	assert_int_equal(symlink(f->outer, p), 0);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), -ELOOP);
	snprintf(t, sizeof(t), "%s/halo-provision.lock", f->outer);
	assert_int_equal(lstat(t, &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lock_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_symlink_refused, setup, teardown),
	};

	return cmocka_run_group_tests_name("util-lock", tests, NULL, NULL);
}
