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

/* The holder records itself in the lock; a run that waits a second hears
 * once who it is; the record is believed only while its run holds the
 * lock. */
static void test_lock_holder(void **state)
{
	struct fx *f = *state;
	struct notified n = { .ctx = &f->ctx };
	struct halo_lock_holder h;
	char p[256], text[128];
	struct stat st;
	int a = -1, b = -1, ready[2], go[2], ws;
	long long now = (long long)time(NULL);
	pid_t child;

	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &a), 0);
	/* A lock nobody recorded in yet: no holder named. */
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	assert_int_equal(halo_lock_holder_write(a, "apply"), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), 0);
	assert_int_equal(h.pid, getpid());
	assert_string_equal(h.mode, "apply");
	assert_true(h.since >= now && h.since <= now + 5);
	/* Nothing beside the lock: the record is in it. */
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock.holder", f->root);
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

	/* Released: the record stays, and is believed by nobody. */
	halo_lock_release(a);
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock", f->root);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(st.st_size > 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);

	/* Another process takes the lock: our record is not its, until it
	 * writes its own over it. */
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	child = fork();
	if (child == 0) {
		int fd = -1;
		char c;

		if (halo_lock_acquire(&f->ctx, 0, true, &fd) < 0 || write(ready[1], "1", 1) != 1 ||
		    read(go[0], &c, 1) != 1 || halo_lock_holder_write(fd, "revert-dry-run") < 0 ||
		    write(ready[1], "2", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	assert_int_equal(read(ready[0], text, 1), 1);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	assert_int_equal(write(go[1], "1", 1), 1);
	assert_int_equal(read(ready[0], text, 1), 1);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), 0);
	assert_int_equal(h.pid, child);
	assert_string_equal(h.mode, "revert-dry-run");
	assert_int_equal(write(go[1], "1", 1), 1);
	assert_int_equal(waitpid(child, &ws, 0), child);
	assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);

	/* Longer text in the lock file is replaced whole by a record. */
	put(f, "halo-provision.lock",
	    "pid 1\nmode apply\nsince 10\nand more text after it, longer than any record\n");
	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &a), 0);
	assert_int_equal(halo_lock_holder_write(a, "dry-run"), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), 0);
	assert_string_equal(h.mode, "dry-run");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 71);
	assert_int_equal(halo_lock_holder_write(a, "two words"), -EINVAL);
	assert_int_equal(halo_lock_holder_write(a, "aaaaaaaaaaaaaaaaaaaaaaaa"), -EINVAL);
	assert_int_equal(halo_lock_holder_write(-1, "apply"), -EINVAL);
	halo_lock_release(a);
}

/* Records that are not records, or not the holder's: no holder named. */
static void test_lock_holder_bad(void **state)
{
	struct fx *f = *state;
	struct halo_lock_holder h;
	char p[256], text[256];
	pid_t dead;
	int ws, fd = -1;

	assert_int_equal(halo_lock_acquire(&f->ctx, 0, true, &fd), 0);
	static const char *const bad[] = {
		"garbage", "pid 0\nmode apply\nsince 10\n", "pid -3\nmode apply\nsince 10\n",
		"pid 1\nmode apply\nsince 0\n", "pid 1\nmode Apply!\nsince 10\n",
		"pid 1\nmode apply\nsince 10\nmore\n", "pid 1\nmode apply\n",
		"pid 1\nmode aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nsince 10\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(f, "halo-provision.lock", bad[i]);
		assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -EBADMSG);
	}
	/* A NUL inside is no record either. */
	snprintf(p, sizeof(p), "%s/run/halo-provision.lock", f->root);
	{
		int w = open(p, O_WRONLY | O_TRUNC);

		assert_true(w >= 0);
		assert_int_equal(write(w, "pid 1\0mode apply\nsince 10\n", 26), 26);
		close(w);
	}
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -EBADMSG);
	/* A killed run's record: its pid is gone. */
	dead = fork();
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, &ws, 0), dead);
	snprintf(text, sizeof(text), "pid %ld\nmode apply\nsince 10\n", (long)dead);
	put(f, "halo-provision.lock", text);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	/* A live process that does not hold the lock (our parent). */
	snprintf(text, sizeof(text), "pid %ld\nmode apply\nsince 10\n", (long)getppid());
	put(f, "halo-provision.lock", text);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -ENOENT);
	halo_lock_release(fd);
	/* A FIFO or a symlink at the lock is never opened for reading. */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -EBADMSG);
	assert_int_equal(unlink(p), 0);
	snprintf(text, sizeof(text), "%s/elsewhere", f->outer);
	put(f, "../../elsewhere", "pid 1\nmode apply\nsince 10\n");
	assert_int_equal(symlink(text, p), 0);
	assert_int_equal(halo_lock_holder_read(&f->ctx, &h), -EBADMSG);
}

/* /proc/locks lines: only a flock held (no waiter's "->") by that pid on
 * that inode counts. */
static void test_lock_held_by(void **state)
{
	static const char locks[] =
		"1: POSIX  ADVISORY  WRITE 4242 fe:00:77 0 EOF\n"
		"2: FLOCK  ADVISORY  WRITE 4243 fe:00:78 0 EOF\n"
		"2: -> FLOCK  ADVISORY  WRITE 4244 fe:00:78 0 EOF\n"
		"3: OFDLCK ADVISORY  READ -1 00:05:79 0 EOF\n"
		"4: LEASE  ACTIVE    READ 4245 fe:00:80 0 EOF\n"
		"5: FLOCK  ADVISORY  WRITE 4246 103:02:1234567890123 0 EOF";

	(void)state;
	assert_int_equal(halo_lock_held_by(locks, 4243, 78), 1);
	assert_int_equal(halo_lock_held_by(locks, 4246, 1234567890123ull), 1);
	assert_int_equal(halo_lock_held_by(locks, 4242, 77), 0); /* POSIX */
	assert_int_equal(halo_lock_held_by(locks, 4244, 78), 0); /* waiting */
	assert_int_equal(halo_lock_held_by(locks, 4243, 77), 0); /* other file */
	assert_int_equal(halo_lock_held_by(locks, 4245, 80), 0); /* a lease */
	assert_int_equal(halo_lock_held_by("", 4243, 78), 0);
	assert_int_equal(halo_lock_held_by("garbage\n\n:", 4243, 78), 0);
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
		cmocka_unit_test(test_lock_held_by),
	};

	return cmocka_run_group_tests_name("util-lock", tests, NULL, NULL);
}
