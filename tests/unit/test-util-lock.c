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
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* Whatever is planted at the lock that is no regular file is refused, by
 * a check (no CREATE) and an apply alike, and the lock is not taken on
 * it: a FIFO, a character device (the numbers of /dev/null, harmless if
 * this ever opened it), a directory. */
static void test_lock_not_regular_refused(void **state)
{
	struct fx *f = *state;
	char p[256];
	int fd = -1;

	snprintf(p, sizeof(p), "%s/run", f->root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock", f->root);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), -HALO_ENOTREG);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, false, &fd), -HALO_ENOTREG);
	assert_int_equal(fd, -1);
	assert_int_equal(unlink(p), 0);
	if (mknod(p, S_IFCHR | 0600, makedev(1, 3)) == 0) {
		assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), -HALO_ENOTREG);
		assert_int_equal(fd, -1);
		assert_int_equal(unlink(p), 0);
	}
	assert_int_equal(mkdir(p, 0700), 0);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), -EISDIR);
	assert_int_equal(fd, -1);
	assert_int_equal(rmdir(p), 0);
	/* Gone: an apply makes a regular file of its own and locks it. */
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), 0);
	assert_true(fd >= 0);
	close(fd);
}

struct notified {
	int calls;
	int read_r;
	struct halo_lock_holder holder;
	const struct halo_ctx *ctx;
};

static void on_wait(void *userdata)
{
	struct notified *n = userdata;

	n->calls++;
	n->read_r = halo_lock_holder_read(n->ctx, &n->holder);
}

static void put(const struct fx *f, const char *name, const char *text)
{
	char p[256];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/run/%s", f->root, name);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

/* The holder records itself beside the lock; a run that waits a second
 * hears once who it is; the record goes with the lock. */
static void test_lock_holder(void **state)
{
	struct fx *f = *state;
	struct notified n = { .ctx = &f->ctx };
	struct halo_lock_holder h;
	char p[256], text[128];
	struct stat st;
	int a = -1, b = -1;
	long long now = (long long)time(NULL);

	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &a), 0);
	assert_int_equal(halo_lock_holder_write(&f->ctx, "apply"), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), 0);
	assert_int_equal(h.pid, getpid());
	assert_string_equal(h.mode, "apply");
	assert_true(h.since >= now && h.since <= now + 5);
	/* No temp file is left beside it. */
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock.holder.%ld", f->root, (long)getpid());
	assert_int_equal(lstat(p, &st), -1);

	/* Another open of the lock waits: told once after 100 ms, then it
	 * gives up after its second. */
	assert_int_equal(halo_lock_acquire_notify(&f->ctx, 1, true, 100, on_wait, &n, &b), -ETIMEDOUT);
	assert_int_equal(n.calls, 1);
	assert_int_equal(n.read_r, 0);
	assert_int_equal(n.holder.pid, getpid());
	assert_string_equal(n.holder.mode, "apply");
	/* Not told when it would give up first, nor when it does not wait. */
	n.calls = 0;
	assert_int_equal(halo_lock_acquire_notify(&f->ctx, 1, true, 5000, on_wait, &n, &b), -ETIMEDOUT);
	assert_int_equal(halo_lock_acquire_notify(&f->ctx, 0, true, 0, on_wait, &n, &b), -EWOULDBLOCK);
	assert_int_equal(n.calls, 0);

	h = (struct halo_lock_holder){ .pid = 42, .mode = "check", .since = 10 };
	halo_lock_holder_format(&h, text, sizeof(text));
	assert_string_equal(text, "pid 42, check, since 1970-01-01 00:00:10 UTC");

	/* Released: the record goes first, then the lock. */
	halo_lock_release(&f->ctx, a, true);
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock.holder", f->root);
	assert_int_equal(lstat(p, &st), -1);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &a), 0);
	/* A record this process did not write is not removed. */
	put(f, "halo-provision.lock.holder", "pid 1\nmode apply\nsince 10\n");
	halo_lock_release(&f->ctx, a, false);
	assert_int_equal(lstat(p, &st), 0);
	/* A run that takes the lock replaces a record left behind. */
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &a), 0);
	assert_int_equal(halo_lock_holder_write(&f->ctx, "dry-run"), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), 0);
	assert_string_equal(h.mode, "dry-run");
	halo_lock_release(&f->ctx, a, true);
	assert_int_equal(lstat(p, &st), -1);
	assert_int_equal(halo_lock_holder_write(&f->ctx, "two words"), -EINVAL);
}

/* Records that are not ours, or whose run is gone: no holder named. */
static void test_lock_holder_bad(void **state)
{
	struct fx *f = *state;
	struct halo_lock_holder h;
	char p[256], text[256];
	pid_t dead;
	int ws, fd = -1, r;

	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), 0);
	close(fd);
	static const char *const bad[] = {
		"", "garbage", "pid 0\nmode apply\nsince 10\n", "pid -3\nmode apply\nsince 10\n",
		"pid 1\nmode apply\nsince 0\n", "pid 1\nmode Apply!\nsince 10\n",
		"pid 1\nmode apply\nsince 10\nmore\n", "pid 1\nmode apply\n",
		"pid 1\nmode aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nsince 10\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(f, "halo-provision.lock.holder", bad[i]);
		assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -EBADMSG);
	}
	/* A killed run's record: its pid is gone. */
	dead = fork();
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, &ws, 0), dead);
	snprintf(text, sizeof(text), "pid %ld\nmode apply\nsince 10\n", (long)dead);
	put(f, "halo-provision.lock.holder", text);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	/* A FIFO is never opened for reading. */
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock.holder", f->root);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -EBADMSG);
	assert_int_equal(unlink(p), 0);
	/* /run a symlink out of the root: no record is written there. */
	snprintf(p, sizeof(p), "%s/run", f->root);
	snprintf(text, sizeof(text), "%s/run.moved", f->root);
	assert_int_equal(rename(p, text), 0);
	assert_int_equal(symlink(f->outer, p), 0);
	/* Refused: -ELOOP through openat2, -ENOTDIR from the component walk
	 * (no openat2, as under valgrind), which opens the last component
	 * with O_NOFOLLOW|O_DIRECTORY. */
	r = halo_lock_holder_write(&f->ctx, "apply");
	assert_true(r == -ELOOP || r == -ENOTDIR);
	snprintf(p, sizeof(p), "%s/halo-provision.lock.holder", f->outer);
	assert_int_equal(access(p, F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lock_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_wait, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_symlink_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_not_regular_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_holder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lock_holder_bad, setup, teardown),
	};

	return cmocka_run_group_tests_name("util-lock", tests, NULL, NULL);
}
