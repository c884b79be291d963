/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for util/rootfs*.c. Every test runs twice: with openat2 and
 * with the component walk forced, which must give the same answers.
 * Each test gets a fresh directory O holding the root R and, beside it,
 * files that no path inside R may ever reach.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "util/rootfs-internal.h"
#include "util/strv.h"

struct fx {
	bool walk;
	char outer[64]; /* O */
	char root[96];  /* O/root */
	struct halo_ctx ctx;
};

static struct fx fx_openat2 = { .walk = false };
static struct fx fx_walk = { .walk = true };

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static int setup(void **state)
{
	struct fx *f = *state;

	strcpy(f->outer, "/tmp/halo-rootfs.XXXXXX");
	if (!mkdtemp(f->outer))
		return -1;
	snprintf(f->root, sizeof(f->root), "%s/root", f->outer);
	if (mkdir(f->root, 0755) < 0)
		return -1;
	f->ctx = (struct halo_ctx){ .root = f->root, .root_fd = -1 };
	if (halo_root_open(f->root, &f->ctx.root_fd) < 0)
		return -1;
	halo_rootfs_force_walk(f->walk);
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	close(f->ctx.root_fd);
	halo_rootfs_force_walk(false);
	return nftw(f->outer, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Host-side helpers: build fixtures with plain syscalls, relative to O. */
static void put(struct fx *f, const char *rel, const char *text, mode_t mode)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", f->outer, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static void mkd(struct fx *f, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", f->outer, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void lnk(struct fx *f, const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", f->outer, rel);
	assert_int_equal(symlink(target, p), 0);
}

static char *slurp(struct fx *f, const char *rel)
{
	char p[256], *buf = calloc(1, 4096);
	int fd;

	snprintf(p, sizeof(p), "%s/%s", f->outer, rel);
	fd = open(p, O_RDONLY);
	if (fd < 0) {
		free(buf);
		return NULL;
	}
	assert_true(read(fd, buf, 4095) >= 0);
	close(fd);
	return buf;
}

static int hstat(struct fx *f, const char *rel, struct stat *st)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", f->outer, rel);
	return lstat(p, st);
}

/* Number of ".#" temp files left in O/REL (REL starts with "root"). */
static int temp_files(struct fx *f, const char *rel)
{
	_cleanup_strv_free_ char **names = NULL;
	char p[256];
	int n = 0;

	snprintf(p, sizeof(p), "/%s", rel + strlen("root"));
	assert_int_equal(halo_root_list_dir(&f->ctx, p, &names), 0);
	for (char **s = names; *s; s++)
		n += strncmp(*s, ".#", 2) == 0;
	return n;
}

static void test_path_rules(void **state)
{
	struct fx *f = *state;
	char *buf = NULL;
	int fd = -1;

	put(f, "root/x", "x\n", 0644);
	assert_int_equal(halo_read_file(&f->ctx, "x", &buf, NULL), -EINVAL);
	assert_int_equal(halo_read_file(&f->ctx, "", &buf, NULL), -EINVAL);
	assert_int_equal(halo_read_file(&f->ctx, NULL, &buf, NULL), -EINVAL);
	assert_int_equal(halo_read_file(&f->ctx, "/../root/x", &buf, NULL), -EXDEV);
	assert_int_equal(halo_read_file(&f->ctx, "/a/../../root/x", &buf, NULL), -EXDEV);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/../x", "y", 1, 0644), -EXDEV);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "x", "y", 1, 0644), -EINVAL);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/", "y", 1, 0644), -EINVAL);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/x/", "y", 1, 0644), -EINVAL);
	assert_int_equal(halo_root_openat(&f->ctx, "..", O_RDONLY, 0, &fd), -EINVAL);
	assert_int_equal(halo_root_mkdir_p(&f->ctx, "/../z", 0755), -EXDEV);
	assert_null(buf);
	assert_int_equal(fd, -1);
	/* ".." that stays inside is fine. */
	assert_int_equal(halo_read_file(&f->ctx, "/etc/../x", &buf, NULL), -ENOENT);
	mkd(f, "root/etc");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/../x", &buf, NULL), 0);
	assert_string_equal(buf, "x\n");
	free(buf);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/../x", "y", 1, 0644), 1);
	buf = slurp(f, "root/x");
	assert_string_equal(buf, "y");
	free(buf);
}

static void test_read_symlink_cannot_escape(void **state)
{
	struct fx *f = *state;
	char target[256], *buf = NULL;
	size_t len = 99;

	put(f, "secret", "SECRET\n", 0600);
	mkd(f, "root/etc");
	mkd(f, "root/data");
	put(f, "root/data/file", "inside\n", 0644);

	/* Absolute link to the real host path of the secret: re-rooted. */
	snprintf(target, sizeof(target), "%s/secret", f->outer);
	lnk(f, target, "root/etc/abs");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/abs", &buf, &len), -ENOENT);
	/* Relative link climbing out: clamped at the root. */
	lnk(f, "../../secret", "root/etc/rel");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/rel", &buf, &len), -ENOENT);
	lnk(f, "../../../../../../../../..", "root/etc/up");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/up/secret", &buf, &len), -ENOENT);
	/* A directory link out of the root. */
	lnk(f, f->outer, "root/outer");
	assert_int_equal(halo_read_file(&f->ctx, "/outer/secret", &buf, &len), -ENOENT);
	assert_int_equal(halo_root_exists(&f->ctx, "/outer/secret"), 0);
	assert_null(buf);
	assert_int_equal(len, 99);

	/* Links inside the root are followed for reads (sysfs is links). */
	lnk(f, "/data/file", "root/etc/in-abs");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/in-abs", &buf, &len), 0);
	assert_string_equal(buf, "inside\n");
	assert_int_equal(len, 7);
	free(buf);
	lnk(f, "../data", "root/etc/dir");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/dir/file", &buf, &len), 0);
	assert_string_equal(buf, "inside\n");
	free(buf);
	/* The clamped "up" link lands on the root itself. */
	assert_int_equal(halo_read_file(&f->ctx, "/etc/up/data/file", &buf, &len), 0);
	assert_string_equal(buf, "inside\n");
	free(buf);
	assert_int_equal(halo_root_exists(&f->ctx, "/etc/dir/file"), 1);

	/* Loops end. */
	lnk(f, "loop2", "root/etc/loop1");
	lnk(f, "loop1", "root/etc/loop2");
	assert_int_equal(halo_read_file(&f->ctx, "/etc/loop1", &buf, &len), -ELOOP);
}

static void test_write_symlink_refused(void **state)
{
	struct fx *f = *state;
	char target[256], *buf;
	struct stat st;
	int fd = -1;

	put(f, "secret", "SECRET\n", 0600);
	mkd(f, "out");
	mkd(f, "root/etc");
	snprintf(target, sizeof(target), "%s/secret", f->outer);
	lnk(f, target, "root/etc/link");
	lnk(f, "../../secret", "root/etc/rel");
	snprintf(target, sizeof(target), "%s/out", f->outer);
	lnk(f, target, "root/etc/dir");
	lnk(f, "/etc", "root/alias");

	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/link", "x", 1, 0644), -ELOOP);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/rel", "x", 1, 0644), -ELOOP);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/dir/x", "x", 1, 0644), -ELOOP);
	/* Not even a link that stays inside the root. */
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/alias/x", "x", 1, 0644), -ELOOP);
	assert_int_equal(halo_root_mkdir_p(&f->ctx, "/etc/dir/sub", 0755), -ELOOP);
	assert_int_equal(halo_root_openat(&f->ctx, "/etc/link", O_WRONLY, 0, &fd), -ELOOP);
	assert_int_equal(halo_root_openat(&f->ctx, "/etc/dir/new", O_WRONLY | O_CREAT, 0644, &fd), -ELOOP);
	assert_int_equal(halo_root_openat(&f->ctx, "/etc/link", O_RDONLY | O_NOFOLLOW, 0, &fd), -ELOOP);
	assert_int_equal(fd, -1);
	assert_int_equal(f->ctx.files_written, 0);

	buf = slurp(f, "secret");
	assert_string_equal(buf, "SECRET\n");
	free(buf);
	assert_int_equal(hstat(f, "out/x", &st), -1);
	assert_int_equal(hstat(f, "out/sub", &st), -1);
	assert_int_equal(hstat(f, "root/etc/x", &st), -1);
	assert_int_equal(hstat(f, "root/etc/link", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(temp_files(f, "root/etc"), 0);
}

static void test_write_create_and_skip_same(void **state)
{
	struct fx *f = *state;
	struct stat a, b;
	char *buf;

	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/default/grub.d/zz.cfg",
						"A=1\n", 4, 0644), 1);
	assert_int_equal(f->ctx.files_written, 1);
	assert_int_equal(hstat(f, "root/etc/default", &a), 0);
	assert_true(S_ISDIR(a.st_mode));
	assert_int_equal(a.st_mode & 07777, 0755);
	assert_int_equal(hstat(f, "root/etc/default/grub.d/zz.cfg", &a), 0);
	assert_int_equal(a.st_mode & 07777, 0644);
	buf = slurp(f, "root/etc/default/grub.d/zz.cfg");
	assert_string_equal(buf, "A=1\n");
	free(buf);

	/* Same content and mode: nothing touched at all. */
	usleep(20000);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/default/grub.d/zz.cfg",
						"A=1\n", 4, 0644), 0);
	assert_int_equal(f->ctx.files_written, 1);
	assert_int_equal(hstat(f, "root/etc/default/grub.d/zz.cfg", &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(a.st_mtim.tv_sec, b.st_mtim.tv_sec);
	assert_int_equal(a.st_mtim.tv_nsec, b.st_mtim.tv_nsec);
	assert_int_equal(a.st_ctim.tv_nsec, b.st_ctim.tv_nsec);

	/* Same length, other bytes: rewritten. */
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/default/grub.d/zz.cfg",
						"A=2\n", 4, 0644), 1);
	assert_int_equal(f->ctx.files_written, 2);
	buf = slurp(f, "root/etc/default/grub.d/zz.cfg");
	assert_string_equal(buf, "A=2\n");
	free(buf);
	/* Empty content is a valid file. */
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/empty", "", 0, 0600), 1);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/empty", "", 0, 0600), 0);
	assert_int_equal(temp_files(f, "root/etc/default/grub.d"), 0);
	assert_int_equal(temp_files(f, "root"), 0);
}

static void test_write_mode_change_rewrites(void **state)
{
	struct fx *f = *state;
	struct stat st;

	mkd(f, "root/etc");
	put(f, "root/etc/halo.conf", "version = 1;\n", 0644);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/halo.conf",
						"version = 1;\n", 13, 0600), 1);
	assert_int_equal(f->ctx.files_written, 1);
	assert_int_equal(hstat(f, "root/etc/halo.conf", &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	/* The type bits in MODE are ignored; the umask never applies. */
	umask(077);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/halo.conf",
						"version = 1;\n", 13, S_IFREG | 0644), 1);
	umask(022);
	assert_int_equal(hstat(f, "root/etc/halo.conf", &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/halo.conf",
						"version = 1;\n", 13, 0644), 0);
	assert_int_equal(f->ctx.files_written, 2);
}

static void test_write_keeps_owner(void **state)
{
	struct fx *f = *state;
	char p[256];
	struct stat st;

	mkd(f, "root/etc");
	put(f, "root/etc/rules", "old\n", 0640);
	snprintf(p, sizeof(p), "%s/root/etc/rules", f->outer);
	assert_int_equal(chown(p, 0, 1234), 0);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/rules", "new\n", 4, 0640), 1);
	assert_int_equal(hstat(f, "root/etc/rules", &st), 0);
	assert_int_equal(st.st_gid, 1234);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* Set-id bits survive the owner being carried over. */
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/rules", "new2\n", 5, 02750), 1);
	assert_int_equal(hstat(f, "root/etc/rules", &st), 0);
	assert_int_equal(st.st_gid, 1234);
	assert_int_equal(st.st_mode & 07777, 02750);
}

static void test_write_failure_keeps_old(void **state)
{
	struct fx *f = *state;
	struct rlimit old, small = { .rlim_cur = 8 };
	struct sigaction ign = { .sa_handler = SIG_IGN }, oldsa;
	char big[64], fifo[256], *buf;
	struct stat a, b;
	int r;

	mkd(f, "root/etc");
	put(f, "root/etc/target", "old\n", 0644);
	assert_int_equal(hstat(f, "root/etc/target", &a), 0);
	memset(big, 'n', sizeof(big));

	/* Files beyond 8 bytes fail with EFBIG (SIGXFSZ ignored): a real
	 * short write in the middle of the temp file. */
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &oldsa), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	r = halo_write_file_atomic(&f->ctx, "/etc/target", big, sizeof(big), 0644);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(sigaction(SIGXFSZ, &oldsa, NULL), 0);

	assert_int_equal(r, -EFBIG);
	assert_int_equal(f->ctx.files_written, 0);
	buf = slurp(f, "root/etc/target");
	assert_string_equal(buf, "old\n");
	free(buf);
	assert_int_equal(hstat(f, "root/etc/target", &b), 0);
	assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(temp_files(f, "root/etc"), 0);

	/* Not a regular file: refused, not replaced. */
	mkd(f, "root/etc/d");
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/d", "x", 1, 0644), -EISDIR);
	snprintf(fifo, sizeof(fifo), "%s/root/etc/fifo", f->outer);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/fifo", "x", 1, 0600), -EEXIST);
	/* A parent that is a file. */
	assert_int_equal(halo_write_file_atomic(&f->ctx, "/etc/target/x", "x", 1, 0644), -ENOTDIR);
	assert_int_equal(temp_files(f, "root/etc"), 0);
	assert_int_equal(f->ctx.files_written, 0);
}

/* REL's append-only and immutable flags made FLAGS (0: both cleared),
 * its other flags kept: false where the filesystem keeps no such flags. */
static bool set_flags(struct fx *f, const char *rel, int flags)
{
	char p[256];
	int fd, r, cur = 0;

	snprintf(p, sizeof(p), "%s/%s", f->outer, rel);
	fd = open(p, O_RDONLY | O_NONBLOCK);
	assert_true(fd >= 0);
	r = ioctl(fd, FS_IOC_GETFLAGS, &cur);
	cur = (cur & ~(FS_APPEND_FL | FS_IMMUTABLE_FL)) | flags;
	if (r == 0)
		r = ioctl(fd, FS_IOC_SETFLAGS, &cur);
	close(fd);
	return r == 0;
}

/* What access() does not see: an append-only file (it cannot be renamed
 * over), and the directory of a file that exists (the temp file is made
 * there). */
static void test_check_writable_flags(void **state)
{
	struct fx *f = *state;
	int appended, immutable, cleared, in_dir, new_in_dir, dir_cleared;

	mkd(f, "root/etc");
	mkd(f, "root/etc/d");
	put(f, "root/etc/file", "x\n", 0644);
	put(f, "root/etc/d/file", "x\n", 0644);
	if (!set_flags(f, "root/etc/file", FS_APPEND_FL)) {
		/* No such flags here (tmpfs, overlayfs): only the plain case. */
		print_message("no append-only or immutable flags on this filesystem\n");
		assert_int_equal(halo_root_check_writable(&f->ctx, "/etc/d/file"), 0);
		return;
	}
	/* Judged first, asserted after the flags are gone: a failure must
	 * not leave a tree nobody can remove. */
	appended = halo_root_check_writable(&f->ctx, "/etc/file");
	assert_true(set_flags(f, "root/etc/file", FS_IMMUTABLE_FL));
	immutable = halo_root_check_writable(&f->ctx, "/etc/file");
	assert_true(set_flags(f, "root/etc/file", 0));
	cleared = halo_root_check_writable(&f->ctx, "/etc/file");
	assert_true(set_flags(f, "root/etc/d", FS_IMMUTABLE_FL));
	in_dir = halo_root_check_writable(&f->ctx, "/etc/d/file");
	new_in_dir = halo_root_check_writable(&f->ctx, "/etc/d/new");
	assert_true(set_flags(f, "root/etc/d", 0));
	dir_cleared = halo_root_check_writable(&f->ctx, "/etc/d/file");
	assert_int_equal(appended, -EPERM);
	assert_int_equal(immutable, -EPERM);
	assert_int_equal(cleared, 0);
	assert_int_equal(in_dir, -EPERM);
	assert_int_equal(new_in_dir, -EPERM);
	assert_int_equal(dir_cleared, 0);
}

/*
 * Real ENOSPC and EROFS: a 16 KiB tmpfs inside the root, in a private
 * mount namespace of a child process (the parent's mounts are untouched).
 * The child names the first failed check on stderr and exits 1.
 */
#define CHK(c)                                                                 \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "# %s:%d: %s\n", __FILE__, __LINE__, #c); \
			_exit(1);                                              \
		}                                                              \
	} while (0)

static void enospc_erofs_child(struct fx *f)
{
	char mnt[256], big[65536], *buf = NULL;
	struct halo_ctx ctx = { .root = f->root, .root_fd = -1 };
	_cleanup_strv_free_ char **names = NULL;

	if (unshare(CLONE_NEWNS) < 0)
		_exit(254); /* no privilege here: skip */
	CHK(mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) == 0);
	snprintf(mnt, sizeof(mnt), "%s/mnt", f->root);
	CHK(mkdir(mnt, 0755) == 0);
	CHK(mount("tmpfs", mnt, "tmpfs", 0, "size=16k,mode=0755") == 0);
	/* A descriptor opened after the mount sees it. */
	CHK(halo_root_open(f->root, &ctx.root_fd) == 0);

	CHK(halo_write_file_atomic(&ctx, "/mnt/f", "old\n", 4, 0644) == 1);
	memset(big, 'x', sizeof(big));
	CHK(halo_write_file_atomic(&ctx, "/mnt/f", big, sizeof(big), 0644) == -ENOSPC);
	CHK(halo_read_file(&ctx, "/mnt/f", &buf, NULL) == 0);
	CHK(strcmp(buf, "old\n") == 0);
	free(buf);
	CHK(halo_root_list_dir(&ctx, "/mnt", &names) == 0);
	CHK(halo_strv_len(names) == 1); /* no temp file left */

	CHK(mount("none", mnt, "none", MS_REMOUNT | MS_RDONLY, NULL) == 0);
	CHK(halo_write_file_atomic(&ctx, "/mnt/f", "new\n", 4, 0644) == -EROFS);
	/* Same content on a read-only fs: nothing to do, not an error. */
	CHK(halo_write_file_atomic(&ctx, "/mnt/f", "old\n", 4, 0644) == 0);
	CHK(halo_root_unlink(&ctx, "/mnt/f") == -EROFS);
	CHK(halo_read_file(&ctx, "/mnt/f", &buf, NULL) == 0);
	CHK(strcmp(buf, "old\n") == 0);
	free(buf);
	CHK(ctx.files_written == 1);
	_exit(0);
}

static void test_write_enospc_erofs(void **state)
{
	struct fx *f = *state;
	pid_t pid;
	int ws;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		enospc_erofs_child(f);
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	if (WEXITSTATUS(ws) == 254)
		skip();
	if (WEXITSTATUS(ws) != 0)
		fail_msg("a check in the child failed (see above)");
}

static void test_read_proc(void **state)
{
	struct fx *f = *state;
	struct halo_ctx host = { .root = "/", .root_fd = -1 };
	char *buf = NULL;
	size_t len = 0;
	struct stat st;

	(void)f;
	assert_int_equal(halo_root_open("/", &host.root_fd), 0);
	/* st_size is 0 for /proc files: the read goes to EOF anyway. */
	assert_int_equal(stat("/proc/self/status", &st), 0);
	assert_int_equal(st.st_size, 0);
	assert_int_equal(halo_read_file(&host, "/proc/self/status", &buf, &len), 0);
	assert_true(len > 100);
	assert_int_equal(strlen(buf), len);
	assert_non_null(strstr(buf, "\nPid:"));
	free(buf);
	/* Bigger than one page (4 KiB sysfs/proc chunks). */
	assert_int_equal(halo_read_file(&host, "/proc/self/maps", &buf, &len), 0);
	assert_int_equal(strlen(buf), len);
	assert_non_null(strstr(buf, "[stack]"));
	free(buf);
	assert_int_equal(halo_read_file(&host, "/proc", &buf, &len), -EISDIR);
	close(host.root_fd);
}

/* halo_read_fd to the end of a pipe, at the sizes around the first
 * read's page: each comes back whole, NUL-terminated. */
static void test_read_fd_sizes(void **state)
{
	static const size_t sizes[] = { 0, 1, 3, 4094, 4095, 4096, 4097, 8191, 10000, 60000 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *want = malloc(sizes[i] + 1), *buf = NULL;
		size_t len = 1;
		int p[2];

		assert_non_null(want);
		for (size_t k = 0; k < sizes[i]; k++)
			want[k] = (char)('a' + (k * 7 + i) % 26);
		assert_int_equal(pipe(p), 0);
		assert_int_equal(write(p[1], want, sizes[i]), (ssize_t)sizes[i]);
		close(p[1]);
		assert_int_equal(halo_read_fd(p[0], 0, &buf, &len), 0);
		close(p[0]);
		assert_int_equal(len, sizes[i]);
		assert_memory_equal(buf, want, sizes[i]);
		assert_int_equal(buf[len], '\0');
		free(buf);
		free(want);
	}
}

static void test_list_dir_sorted(void **state)
{
	struct fx *f = *state;
	_cleanup_strv_free_ char **names = NULL;
	char **none = NULL;

	mkd(f, "root/d");
	put(f, "root/d/b", "", 0644);
	put(f, "root/d/a", "", 0644);
	put(f, "root/d/C", "", 0644);
	put(f, "root/d/.hidden", "", 0644);
	mkd(f, "root/d/sub");
	mkd(f, "root/empty");
	assert_int_equal(halo_root_list_dir(&f->ctx, "/d", &names), 0);
	assert_int_equal(halo_strv_len(names), 5);
	assert_string_equal(names[0], ".hidden");
	assert_string_equal(names[1], "C");
	assert_string_equal(names[2], "a");
	assert_string_equal(names[3], "b");
	assert_string_equal(names[4], "sub");
	assert_int_equal(halo_root_list_dir(&f->ctx, "/missing", &none), -ENOENT);
	assert_int_equal(halo_root_list_dir(&f->ctx, "/d/a", &none), -ENOTDIR);
	assert_null(none);
	assert_int_equal(halo_root_list_dir(&f->ctx, "/empty", &none), 0);
	assert_non_null(none);
	assert_null(none[0]);
	halo_strv_free(none);
}

static void test_mkdir_unlink_lstat_exists(void **state)
{
	struct fx *f = *state;
	struct stat st;

	assert_int_equal(halo_root_mkdir_p(&f->ctx, "/var/lib/halo-provision", 0755), 0);
	assert_int_equal(halo_root_mkdir_p(&f->ctx, "/var/lib/halo-provision/", 0755), 0);
	assert_int_equal(hstat(f, "root/var/lib/halo-provision", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	put(f, "root/var/file", "", 0644);
	assert_int_equal(halo_root_mkdir_p(&f->ctx, "/var/file/x", 0755), -ENOTDIR);

	lnk(f, "/nowhere", "root/var/dangling");
	assert_int_equal(halo_root_lstat(&f->ctx, "/var/dangling", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(halo_root_exists(&f->ctx, "/var/dangling"), 0);
	assert_int_equal(halo_root_exists(&f->ctx, "/var/file"), 1);
	assert_int_equal(halo_root_exists(&f->ctx, "/var/file/x"), 0);
	assert_int_equal(halo_root_lstat(&f->ctx, "/", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(halo_root_lstat(&f->ctx, "/var/nope", &st), -ENOENT);

	assert_int_equal(halo_root_unlink(&f->ctx, "/var/nope"), 0);
	assert_int_equal(halo_root_unlink(&f->ctx, "/nodir/nope"), 0);
	assert_int_equal(f->ctx.files_written, 0);
	assert_int_equal(halo_root_unlink(&f->ctx, "/var/file"), 1);
	/* A symlink is removed itself, never what it points to. */
	put(f, "keep", "k", 0644);
	lnk(f, "../../keep", "root/var/tokeep");
	assert_int_equal(halo_root_unlink(&f->ctx, "/var/tokeep"), 1);
	assert_int_equal(hstat(f, "keep", &st), 0);
	assert_int_equal(hstat(f, "root/var/tokeep", &st), -1);
	assert_int_equal(f->ctx.files_written, 2);
	assert_int_equal(hstat(f, "root/var/file", &st), -1);
	lnk(f, "/var", "root/varlink");
	assert_int_equal(halo_root_unlink(&f->ctx, "/varlink/lib"), -ELOOP);
}

/* A plain file in one pass; anything else (1) left to the long way,
 * never opened so that it could block or be taken for content. */
static void test_read_plain(void **state)
{
	struct fx *f = *state;
	char *buf = NULL, p[300];
	size_t len = 0;
	struct stat st;

	mkd(f, "root/etc");
	mkd(f, "root/etc/udev");
	put(f, "root/etc/udev/x.rules", "rule\n", 0640);
	put(f, "root/etc/file", "", 0644);
	lnk(f, "udev", "root/etc/udevlink");
	lnk(f, "x.rules", "root/etc/udev/y.rules");
	snprintf(p, sizeof(p), "%s/root/etc/fifo", f->outer);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/udev/x.rules", &st, &buf, &len), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(len, 5);
	assert_string_equal(buf, "rule\n");
	free(buf);
	buf = NULL;
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/file", &st, &buf, &len), 0);
	assert_int_equal(len, 0);
	assert_string_equal(buf, "");
	free(buf);
	buf = NULL;
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/nope", &st, &buf, &len), -ENOENT);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/nodir/nope", &st, &buf, &len), -ENOENT);
	/* A symlink, last or on the way; a parent that is a file; a FIFO
	 * (no writer: read, it would look like an empty file); a directory;
	 * a path the lexical rules refuse. */
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/udev/y.rules", &st, &buf, &len), 1);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/udevlink/x.rules", &st, &buf, &len), 1);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/file/x", &st, &buf, &len), 1);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/fifo", &st, &buf, &len), 1);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/etc/udev", &st, &buf, &len), 1);
	assert_int_equal(halo_root_read_plain(&f->ctx, "/../etc/file", &st, &buf, &len), 1);
	assert_null(buf);
}

/* A status in one step when no component is a symlink; anything else is
 * told apart for the walk that explains it. */
static void test_lstat_plain(void **state)
{
	struct fx *f = *state;
	struct stat st;

	mkd(f, "root/etc");
	mkd(f, "root/etc/udev");
	put(f, "root/etc/udev/x.rules", "x", 0644);
	put(f, "root/etc/file", "", 0644);
	lnk(f, "udev", "root/etc/udevlink");
	lnk(f, "x.rules", "root/etc/udev/y.rules");
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/udev/x.rules", &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_size, 1);
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/udev", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/udev/none", &st), -ENOENT);
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/nodir/none", &st), -ENOENT);
	/* A symlink on the way, even to a missing name; the last component
	 * is not followed, as by lstat. */
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/udevlink/x.rules", &st), -ELOOP);
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/udevlink/none", &st), -ELOOP);
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/udev/y.rules", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/file/x", &st), -ENOTDIR);
	/* A FIFO's status, never opened. */
	char p[256];
	snprintf(p, sizeof(p), "%s/etc/fifo", f->root);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(halo_root_lstat_plain(&f->ctx, "/etc/fifo", &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

/* What the writability check judges: the file, else the deepest
 * directory there is; a symlink at the path (replaced by a rename) by its
 * directory; a file in a parent's place is an error. Without writing
 * anything. (Symlinks on the way are refused by the observation before.) */
static void test_check_writable(void **state)
{
	struct fx *f = *state;
	struct stat st;
	int fd;

	mkd(f, "root/etc");
	put(f, "root/etc/file", "x\n", 0644);
	lnk(f, "/etc/elsewhere", "root/etc/link");
	assert_int_equal(halo_root_check_writable(&f->ctx, "/etc/file"), 0);
	assert_int_equal(halo_root_check_writable(&f->ctx, "/etc/new"), 0);
	assert_int_equal(halo_root_check_writable(&f->ctx, "/etc/new.d/a/b"), 0);
	assert_int_equal(halo_root_check_writable(&f->ctx, "/etc/link"), 0);
	assert_int_equal(halo_root_check_writable(&f->ctx, "/etc/file/x"), -ENOTDIR);
	/* What it relies on, the kernel's rule for a trailing symlink: refused
	 * unless O_PATH|O_NOFOLLOW asks for the link itself. */
	assert_int_equal(halo_rootfs_open(&f->ctx, "/etc/link", O_PATH, 0, true, &fd), -ELOOP);
	assert_int_equal(halo_rootfs_open(&f->ctx, "/etc/link", O_PATH | O_NOFOLLOW, 0, true, &fd), 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	close(fd);
	assert_int_equal(temp_files(f, "root/etc"), 0);
	assert_int_equal(f->ctx.files_written, 0);
}

static void test_write_attr(void **state)
{
	struct fx *f = *state;
	struct halo_ctx host = { .root = "/", .root_fd = -1 };
	char target[256], *buf;
	struct stat st;

	mkd(f, "root/sys");
	mkd(f, "root/sys/devices");
	mkd(f, "root/sys/devices/x");
	mkd(f, "root/sys/class");
	mkd(f, "root/sys/class/net");
	put(f, "root/sys/devices/x/mtu", "1500\n", 0644);
	put(f, "secret", "SECRET\n", 0600);
	lnk(f, "../../devices/x", "root/sys/class/net/eth0");
	snprintf(target, sizeof(target), "%s", f->outer);
	lnk(f, target, "root/sys/class/net/evil");

	/* Through the sysfs-style link; a fixture file is truncated first. */
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/class/net/eth0/mtu", "900", 3), 0);
	buf = slurp(f, "root/sys/devices/x/mtu");
	assert_string_equal(buf, "900");
	free(buf);
	/* Never creates, never leaves the root, only /sys and /proc. */
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/class/net/eth0/new", "1", 1), -ENOENT);
	assert_int_equal(hstat(f, "root/sys/devices/x/new", &st), -1);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/class/net/evil/secret", "x", 1), -ENOENT);
	buf = slurp(f, "secret");
	assert_string_equal(buf, "SECRET\n");
	free(buf);
	put(f, "root/sysx", "", 0644);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sysx", "x", 1), -EINVAL);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/etc/x", "x", 1), -EINVAL);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/", "x", 1), -EINVAL);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/../secret", "x", 1), -EINVAL);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/./devices/x/mtu", "x", 1), -EINVAL);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/devices", "x", 1), -EISDIR);
	assert_int_equal(f->ctx.files_written, 0);

	/* A real procfs attribute: our own name, through the /proc/self link. */
	assert_int_equal(halo_root_open("/", &host.root_fd), 0);
	assert_int_equal(halo_root_write_attr(&host, "/proc/self/comm", "halo-attr", 9), 0);
	assert_int_equal(halo_read_file(&host, "/proc/self/comm", &buf, NULL), 0);
	assert_string_equal(buf, "halo-attr\n");
	free(buf);
	close(host.root_fd);
}

/* What halo_root_read_attr says of PATH: 0 when it would be written. */
static int attr_verdict(struct fx *f, const char *path)
{
	char *buf = NULL;
	size_t len;
	int r = halo_root_read_attr(&f->ctx, path, &buf, &len);

	free(buf);
	return r;
}

/* A fixture attribute is rewritten in place: one reached through a
 * symlink (outside /sys's own links) or hard-linked to another file is
 * refused before anything is opened to write, and so is anything that is
 * no regular file (a FIFO would block an open for writing). */
static void test_write_attr_fixture_refusals(void **state)
{
	struct fx *f = *state;
	char p[256], q[256], *buf, *msg;

	mkd(f, "root/etc");
	mkd(f, "root/proc");
	mkd(f, "root/proc/sys");
	mkd(f, "root/proc/sys/vm");
	mkd(f, "root/sys");
	mkd(f, "root/sys/class");
	put(f, "root/etc/hostname", "node7\n", 0644);
	put(f, "decoy", "60\n", 0644);
	/* A hard link from inside the root to a file outside it. */
	snprintf(p, sizeof(p), "%s/decoy", f->outer);
	snprintf(q, sizeof(q), "%s/root/proc/sys/vm/swappiness", f->outer);
	assert_int_equal(link(p, q), 0);
	lnk(f, "/etc", "root/proc/sys/kernel");
	lnk(f, "../../etc", "root/sys/class/odd");
	snprintf(p, sizeof(p), "%s/root/proc/sys/vm/fifo", f->outer);
	assert_int_equal(mkfifo(p, 0644), 0);

	assert_int_equal(attr_verdict(f, "/proc/sys/vm/swappiness"), -EMLINK);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/proc/sys/vm/swappiness", "10\n", 3),
			 -EMLINK);
	assert_int_equal(attr_verdict(f, "/proc/sys/kernel/hostname"), -ELOOP);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/proc/sys/kernel/hostname", "pwned\n", 6),
			 -ELOOP);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/sys/class/odd/hostname", "pwned\n", 6),
			 -ELOOP);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/proc/sys/vm/fifo", "1\n", 2),
			 -HALO_ENOTREG);
	buf = slurp(f, "decoy");
	assert_string_equal(buf, "60\n");
	free(buf);
	buf = slurp(f, "root/etc/hostname");
	assert_string_equal(buf, "node7\n");
	free(buf);

	msg = halo_root_attr_refusal(&f->ctx, "/proc/sys/kernel/hostname", -ELOOP);
	snprintf(p, sizeof(p), "refusing to write through a symlink: %s/proc/sys/kernel/hostname "
		 "(not a kernel file system)", f->root);
	assert_string_equal(msg, p);
	free(msg);
	msg = halo_root_attr_refusal(&f->ctx, "/proc/sys/vm/swappiness", -EMLINK);
	snprintf(p, sizeof(p), "refusing to write a file with other hard links: "
		 "%s/proc/sys/vm/swappiness", f->root);
	assert_string_equal(msg, p);
	free(msg);
	assert_null(halo_root_attr_refusal(&f->ctx, "/proc/sys/vm/fifo", -HALO_ENOTREG));

	/* Once it is a file of its own, it is written. */
	snprintf(q, sizeof(q), "%s/root/proc/sys/vm/swappiness", f->outer);
	assert_int_equal(unlink(q), 0);
	put(f, "root/proc/sys/vm/swappiness", "60\n", 0644);
	assert_int_equal(attr_verdict(f, "/proc/sys/vm/swappiness"), 0);
	assert_int_equal(halo_root_write_attr(&f->ctx, "/proc/sys/vm/swappiness", "10\n", 3), 0);
	buf = slurp(f, "root/proc/sys/vm/swappiness");
	assert_string_equal(buf, "10\n");
	free(buf);
}

/* A fixture's sysfs link is judged by the kernel's name of the file and
 * of the root, the latter kept from one file to the next: a root renamed
 * during the run is still recognised, and a link out of it still refused. */
static void test_attr_root_renamed(void **state)
{
	struct fx *f = *state;
	char p[256], q[256];

	mkd(f, "root/sys");
	mkd(f, "root/sys/devices");
	mkd(f, "root/sys/devices/x");
	mkd(f, "root/sys/class");
	mkd(f, "root/etc");
	put(f, "root/sys/devices/x/mtu", "1500\n", 0644);
	put(f, "root/etc/hostname", "node7\n", 0644);
	lnk(f, "../devices/x", "root/sys/class/x");
	lnk(f, "../../etc", "root/sys/class/odd");
	assert_int_equal(attr_verdict(f, "/sys/class/x/mtu"), 0);
	assert_int_equal(attr_verdict(f, "/sys/class/odd/hostname"), -ELOOP);
	snprintf(p, sizeof(p), "%s/root", f->outer);
	snprintf(q, sizeof(q), "%s/moved", f->outer);
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(attr_verdict(f, "/sys/class/x/mtu"), 0);
	assert_int_equal(attr_verdict(f, "/sys/class/odd/hostname"), -ELOOP);
	assert_int_equal(rename(q, p), 0);
	assert_int_equal(attr_verdict(f, "/sys/class/x/mtu"), 0);
}

/* halo_root_read_attr: a read that answers, on the descriptor it reads,
 * what halo_root_write_attr would refuse; through the long way and, in a
 * run that changes nothing, through a directory listed before. */
static void test_read_attr(void **state)
{
	struct fx *f = *state;
	char p[256], q[256], *buf = NULL;
	size_t len;

	mkd(f, "root/etc");
	mkd(f, "root/proc");
	mkd(f, "root/proc/sys");
	mkd(f, "root/proc/sys/vm");
	mkd(f, "root/sys");
	mkd(f, "root/sys/devices");
	mkd(f, "root/sys/devices/x");
	mkd(f, "root/sys/class");
	mkd(f, "root/sys/class/net");
	put(f, "root/etc/hostname", "node7\n", 0644);
	put(f, "root/sys/devices/x/mtu", "1500\n", 0644);
	put(f, "root/proc/sys/vm/dirty_ratio", "20\n", 0644);
	put(f, "decoy", "60\n", 0644);
	lnk(f, "../../devices/x", "root/sys/class/net/eth0");
	lnk(f, "../../etc", "root/sys/class/odd");
	lnk(f, "/etc/hostname", "root/sys/devices/x/alias");
	lnk(f, "/etc", "root/proc/sys/kernel");
	snprintf(p, sizeof(p), "%s/decoy", f->outer);
	snprintf(q, sizeof(q), "%s/root/sys/devices/x/speed", f->outer);
	assert_int_equal(link(p, q), 0);
	snprintf(q, sizeof(q), "%s/root/proc/sys/vm/swappiness", f->outer);
	assert_int_equal(link(p, q), 0);
	snprintf(p, sizeof(p), "%s/root/sys/devices/x/fifo", f->outer);
	assert_int_equal(mkfifo(p, 0644), 0);

	for (int listed = 0; listed < 2; listed++) {
		char **names = NULL;

		if (listed) {
			/* The reads of eth0's files go through its listing. */
			assert_int_equal(halo_root_snapshot_start(&f->ctx), 0);
			assert_int_equal(halo_root_list_dir(&f->ctx, "/sys/class/net/eth0",
							    &names), 0);
			halo_strv_free(names);
			/* A plain read answered first is no judgement. */
			assert_int_equal(halo_read_file(&f->ctx, "/sys/class/net/eth0/speed",
							&buf, &len), 0);
			free(buf);
		}
		/* Through the class link, within /sys; plainly, in /proc/sys. */
		assert_int_equal(halo_root_read_attr(&f->ctx, "/sys/class/net/eth0/mtu", &buf,
						     &len), 0);
		assert_string_equal(buf, "1500\n");
		assert_int_equal(len, 5);
		free(buf);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/proc/sys/vm/dirty_ratio", &buf,
						     NULL), 0);
		assert_string_equal(buf, "20\n");
		free(buf);
		buf = NULL;
		/* Refused as the write refuses them, and nothing read. */
		assert_int_equal(halo_root_read_attr(&f->ctx, "/sys/class/net/eth0/speed", &buf,
						     &len), -EMLINK);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/sys/class/net/eth0/alias", &buf,
						     &len), -ELOOP);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/sys/class/odd/hostname", &buf,
						     &len), -ELOOP);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/proc/sys/vm/swappiness", &buf,
						     &len), -EMLINK);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/proc/sys/kernel/hostname", &buf,
						     &len), -ELOOP);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/sys/class/net/eth0/fifo", &buf,
						     &len), -HALO_ENOTREG);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/sys/class/net/eth0/none", &buf,
						     &len), -ENOENT);
		assert_int_equal(halo_root_read_attr(&f->ctx, "/etc/hostname", &buf, &len),
				 -EINVAL);
		assert_null(buf);
		/* The refusal is the attribute's: a plain read still reads. */
		assert_int_equal(halo_read_file(&f->ctx, "/sys/class/net/eth0/speed", &buf,
						&len), 0);
		assert_string_equal(buf, "60\n");
		free(buf);
		buf = NULL;
		if (listed)
			halo_root_snapshot_stop(&f->ctx);
	}
}

static void test_display_path(void **state)
{
	struct halo_ctx a = { .root = "/srv/img/" }, b = { .root = "/" };
	char *s;

	s = halo_root_display_path(&a, "/etc/default/grub");
	assert_string_equal(s, "/srv/img/etc/default/grub");
	free(s);
	s = halo_root_display_path(&b, "/etc/default/grub");
	assert_string_equal(s, "/etc/default/grub");
	free(s);
}

/* A FIFO or device is -HALO_ENOTREG, never EINVAL (the kernel's answer
 * for an empty sysfs GID entry), never read (no hang), and the message
 * names it. */
static void test_read_not_regular(void **state)
{
	struct fx *f = *state;
	char p[256], *buf = NULL, *msg;
	size_t len;

	mkd(f, "root/sys");
	snprintf(p, sizeof(p), "%s/root/sys/fifo", f->outer);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(halo_read_file(&f->ctx, "/sys/fifo", &buf, &len), -HALO_ENOTREG);
	assert_null(buf);
	assert_int_not_equal(HALO_ENOTREG, EINVAL);
	assert_string_equal(halo_root_strerror(-HALO_ENOTREG), "not a regular file");
	assert_string_equal(halo_root_strerror(-ENOENT), strerror(ENOENT));
	msg = halo_root_read_error(&f->ctx, "/sys/fifo", -HALO_ENOTREG);
	snprintf(p, sizeof(p), "%s/sys/fifo: a FIFO, not a regular file", f->root);
	assert_string_equal(msg, p);
	free(msg);
	mkd(f, "root/sys/dir");
	assert_int_equal(halo_read_file(&f->ctx, "/sys/dir", &buf, &len), -EISDIR);
	msg = halo_root_read_error(&f->ctx, "/sys/absent", -ENOENT);
	snprintf(p, sizeof(p), "%s/sys/absent: No such file or directory", f->root);
	assert_string_equal(msg, p);
	free(msg);
}

/* A mapped file reads as halo_read_file reads it, with its refusals. */
static void test_map_file(void **state)
{
	struct fx *f = *state;
	const void *map = NULL;
	char p[256], target[256];
	size_t len = 99;

	mkd(f, "root/lib");
	put(f, "root/lib/index", "0123456789", 0644);
	put(f, "root/lib/empty", "", 0644);
	put(f, "secret", "SECRET", 0600);
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib/index", &map, &len), 0);
	assert_int_equal(len, 10);
	assert_memory_equal(map, "0123456789", 10);
	halo_root_unmap_file(map, len);
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib/empty", &map, &len), 0);
	assert_null(map);
	assert_int_equal(len, 0);
	halo_root_unmap_file(map, len);
	snprintf(p, sizeof(p), "%s/root/lib/fifo", f->outer);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib/fifo", &map, &len), -HALO_ENOTREG);
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib", &map, &len), -EISDIR);
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib/absent", &map, &len), -ENOENT);
	assert_int_equal(halo_root_map_file(&f->ctx, "/../secret", &map, &len), -EXDEV);
	snprintf(target, sizeof(target), "%s/secret", f->outer);
	lnk(f, target, "root/lib/out");
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib/out", &map, &len), -ENOENT);
	lnk(f, "index", "root/lib/in");
	assert_int_equal(halo_root_map_file(&f->ctx, "/lib/in", &map, &len), 0);
	assert_int_equal(len, 10);
	halo_root_unmap_file(map, len);
}

/* A symlink leading out of the root, at the path or on the way to it, is
 * named with its target; a plainly absent path is 0. */
static void test_explain_missing(void **state)
{
	struct fx *f = *state;
	char want[256], *why = NULL;

	mkd(f, "root/sys");
	mkd(f, "root/sys/kernel");
	mkd(f, "outside");
	put(f, "outside/mode", "RoCE v2\n", 0644);
	lnk(f, "../../../outside", "root/sys/kernel/config");
	assert_int_equal(halo_root_explain_missing(&f->ctx, "/sys/kernel/config/rdma_cm/x",
						   &why), -ELOOP);
	snprintf(want, sizeof(want),
		 "%s/sys/kernel/config: symlink to '../../../outside' does not resolve inside the root",
		 f->root);
	assert_string_equal(why, want);
	free(why);
	why = NULL;
	assert_int_equal(halo_root_explain_missing(&f->ctx, "/sys/kernel/absent/x", &why), 0);
	assert_null(why);
	/* A symlink that resolves inside the root is no plant. */
	mkd(f, "root/sys/real");
	lnk(f, "/sys/real", "root/sys/inside");
	assert_int_equal(halo_root_explain_missing(&f->ctx, "/sys/inside/absent", &why), 0);
	assert_null(why);
	/* halo_root_read_error says the same for a read of such a path. */
	why = halo_root_read_error(&f->ctx, "/sys/kernel/config/rdma_cm", -ENOENT);
	assert_string_equal(why, want);
	free(why);
}

/* A refusal the run noted is said as the file it is about, once, whether
 * its line names that file (a FIFO there) or only the symlink on the way;
 * a path nothing refused is left alone. */
static void test_refusal_named(void **state)
{
	struct fx *f = *state;
	struct halo_refusals rf = { 0 };
	char p[256], want[512], *buf = NULL;
	size_t len;

	f->ctx.refusals = &rf;
	mkd(f, "root/var");
	mkd(f, "root/var/rec");
	mkd(f, "outside");
	snprintf(p, sizeof(p), "%s/root/var/rec/fifo", f->outer);
	assert_int_equal(mkfifo(p, 0644), 0);
	lnk(f, "../../outside", "root/var/away");
	assert_int_equal(halo_read_file(&f->ctx, "/var/rec/fifo", &buf, &len), -HALO_ENOTREG);
	assert_int_equal(halo_root_absent(&f->ctx, "/var/away/record"), -ELOOP);
	assert_int_equal(rf.n, 2);
	halo_root_refusal_name(&f->ctx, "/var/rec/fifo", "the record (boot)");
	halo_root_refusal_name(&f->ctx, "/var/rec/fifo", "the record (boot)");
	halo_root_refusal_name(&f->ctx, "/var/away/record", "the other record (state.path)");
	halo_root_refusal_name(&f->ctx, "/var/never", "nothing");
	snprintf(want, sizeof(want), "the record (boot) %s/var/rec/fifo: a FIFO, not a regular file",
		 f->root);
	assert_string_equal(rf.lines[0], want);
	snprintf(want, sizeof(want), "the other record (state.path) %s/var/away/record: %s/var/away: "
		 "symlink to '../../outside' does not resolve inside the root", f->root, f->root);
	assert_string_equal(rf.lines[1], want);
	assert_int_equal(rf.n, 2);
	f->ctx.refusals = NULL;
	halo_refusals_free(&rf);
}

/* The lexical rule alone: ".." may not climb above the root, "." and
 * names that merely start with a dot count as they should. */
static void test_check_path_lexical(void **state)
{
	static const struct {
		const char *path;
		int r;
	} cases[] = {
		{ "/", 0 },
		{ "/etc/modprobe.d/x.conf", 0 },
		{ "/.hidden", 0 },
		{ "/...", 0 },
		{ "/..a/b..", 0 },
		{ "/a/..", 0 },
		{ "/a/./..", 0 },
		{ "/a/.b/../..", 0 },
		{ "//a//..//", 0 },
		{ "/..", -EXDEV },
		{ "/./..", -EXDEV },
		{ "//..//", -EXDEV },
		{ "/a/../..", -EXDEV },
		{ "/a/./../..", -EXDEV },
		{ "/.hidden/../../x", -EXDEV },
		{ "/../a/b/c", -EXDEV },
		{ "a/b", -EINVAL },
		{ "", -EINVAL },
	};
	char *longp = malloc(PATH_MAX + 1);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r = halo_rootfs_check_path(cases[i].path);

		if (r != cases[i].r)
			print_message("\"%s\"\n", cases[i].path);
		assert_int_equal(r, cases[i].r);
	}
	assert_int_equal(halo_rootfs_check_path(NULL), -EINVAL);
	/* PATH_MAX counts the NUL, as the kernel's getname() does. */
	assert_non_null(longp);
	memset(longp, 'a', PATH_MAX);
	longp[0] = '/';
	longp[PATH_MAX - 1] = '\0';
	assert_int_equal(halo_rootfs_check_path(longp), 0);
	longp[PATH_MAX - 1] = 'a';
	longp[PATH_MAX] = '\0';
	assert_int_equal(halo_rootfs_check_path(longp), -ENAMETOOLONG);
	/* Too long wins over climbing out, as before. */
	memcpy(longp, "/..", 3);
	assert_int_equal(halo_rootfs_check_path(longp), -ENAMETOOLONG);
	free(longp);
}

/* Each test twice, named for the resolver it ran with. */
#define T(fn)                                                                  \
	{ #fn "/openat2", fn, setup, teardown, &fx_openat2 },                  \
	{ #fn "/walk", fn, setup, teardown, &fx_walk }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_path_lexical),
		cmocka_unit_test(test_read_fd_sizes),
		T(test_path_rules),
		T(test_read_symlink_cannot_escape),
		T(test_write_symlink_refused),
		T(test_write_create_and_skip_same),
		T(test_write_mode_change_rewrites),
		T(test_write_keeps_owner),
		T(test_write_failure_keeps_old),
		T(test_write_enospc_erofs),
		T(test_read_proc),
		T(test_list_dir_sorted),
		T(test_mkdir_unlink_lstat_exists),
		T(test_lstat_plain),
		T(test_read_plain),
		T(test_check_writable),
		T(test_check_writable_flags),
		T(test_write_attr),
		T(test_write_attr_fixture_refusals),
		T(test_attr_root_renamed),
		T(test_read_attr),
		T(test_display_path),
		T(test_read_not_regular),
		T(test_map_file),
		T(test_explain_missing),
		T(test_refusal_named),
	};

	return cmocka_run_group_tests_name("util-rootfs", tests, NULL, NULL);
}
