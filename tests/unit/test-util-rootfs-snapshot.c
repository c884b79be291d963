/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for util/rootfs-cache.c and what rootfs-read.c and rootfs.c
 * do with it: a run that changes nothing (ctx->rootcache set) reads each
 * path once, and answers exactly what a run without it answers.
 *
 * The main test builds one root with every kind of entry the confinement
 * rules care about (regular files of several sizes, an empty one, a
 * directory, a FIFO, a character device, symlinks inside the root and out
 * of it, absolute and relative, dangling, a symlink loop), then asks the
 * four questions (read, list, lstat, exists) of every path and of a name
 * below each, without a cache and with one: cold, after listing the
 * directory, and again from the cache; under openat2 and under the
 * component walk. The others show that the cache really answers (a file
 * changed behind it reads as before) and is emptied by every write
 * through util/ and every spawn.
 */
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

#include <cmocka.h>

#include "util/rootfs-internal.h"
#include "util/spawn.h"
#include "util/strv.h"

static char outer[64], root[96];

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static void put(const char *rel, size_t size)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	for (size_t i = 0; i < size; i++)
		fputc('a' + (int)(i % 26), f);
	assert_int_equal(fclose(f), 0);
}

static void mkd(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void lnk(const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int group_setup(void **state)
{
	char p[256];

	strcpy(outer, "/tmp/halo-snapshot.XXXXXX");
	if (!mkdtemp(outer))
		return -1;
	snprintf(root, sizeof(root), "%s/root", outer);
	if (mkdir(root, 0755) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/secret", outer);
	if (symlink("/etc/hostname", p) < 0)
		return -1;
	return 0;
}

static int group_teardown(void **state)
{
	halo_rootfs_force_walk(false);
	return nftw(outer, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Every kind of entry, in /etc and in a sysfs-like /sys. */
static const char *const paths[] = {
	"/", "/etc", "/etc/small", "/etc/empty", "/etc/page", "/etc/page-1", "/etc/page+1",
	"/etc/big", "/etc/dir", "/etc/fifo", "/etc/null", "/etc/in-file", "/etc/in-dir",
	"/etc/abs-out", "/etc/rel-out", "/etc/dangling", "/etc/loop", "/etc/missing",
	"/etc/dir/inner", "/etc/in-dir/inner", "/etc/small/below", "/etc/fifo/below",
	"/sys", "/sys/attr", "/sys/bin", "/sys/dev", "/sys/dev/attr", "/proc/sys/x",
	"/etc/./small", "/etc/dir/../small", "/etc/in-dir/../small",
};

static void build_root(void)
{
	char p[256];

	mkd("etc");
	put("etc/small", 10);
	put("etc/empty", 0);
	put("etc/page", 4096);
	put("etc/page-1", 4095);
	put("etc/page+1", 4097);
	put("etc/big", 100000);
	mkd("etc/dir");
	put("etc/dir/inner", 5);
	snprintf(p, sizeof(p), "%s/etc/fifo", root);
	assert_int_equal(mkfifo(p, 0644), 0);
	snprintf(p, sizeof(p), "%s/etc/null", root);
	assert_int_equal(mknod(p, S_IFCHR | 0644, makedev(1, 3)), 0);
	lnk("small", "etc/in-file");
	lnk("/etc/dir", "etc/in-dir");
	snprintf(p, sizeof(p), "%s/secret", outer);
	lnk(p, "etc/abs-out");
	lnk("../../secret", "etc/rel-out");
	lnk("nowhere", "etc/dangling");
	lnk("loop", "etc/loop");
	mkd("sys");
	put("sys/attr", 7);
	put("sys/bin", 9000);
	mkd("sys/dev");
	put("sys/dev/attr", 3);
	mkd("proc");
	mkd("proc/sys");
	put("proc/sys/x", 2);
}

struct answers {
	int read, list, lstat, exists;
	char *data;
	size_t len;
	char **names;
	ino_t ino;
	mode_t mode;
};

static void answers_free(struct answers *a)
{
	free(a->data);
	halo_strv_free(a->names);
	*a = (struct answers){ 0 };
}

static void ask(const struct halo_ctx *ctx, const char *path, struct answers *a)
{
	struct stat st = { 0 };

	a->read = halo_read_file(ctx, path, &a->data, &a->len);
	a->list = halo_root_list_dir(ctx, path, &a->names);
	a->lstat = halo_root_lstat(ctx, path, &st);
	a->ino = a->lstat == 0 ? st.st_ino : 0;
	a->mode = a->lstat == 0 ? st.st_mode : 0;
	a->exists = halo_root_exists(ctx, path);
}

static void assert_same(const char *path, const struct answers *a, const struct answers *b)
{
	if (a->read != b->read || a->list != b->list || a->lstat != b->lstat ||
	    a->exists != b->exists)
		fail_msg("%s: read %d/%d list %d/%d lstat %d/%d exists %d/%d", path, a->read,
			 b->read, a->list, b->list, a->lstat, b->lstat, a->exists, b->exists);
	if (a->read == 0) {
		assert_int_equal(a->len, b->len);
		assert_memory_equal(a->data, b->data, a->len + 1);
	}
	if (a->list == 0) {
		assert_int_equal(halo_strv_len(a->names), halo_strv_len(b->names));
		for (size_t i = 0; a->names[i]; i++)
			assert_string_equal(a->names[i], b->names[i]);
	}
	assert_int_equal(a->ino, b->ino);
	assert_int_equal(a->mode, b->mode);
}

/* The parent of PATH ("/" for "/x"), in BUF. */
static const char *parent(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	snprintf(buf, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return buf;
}

static void same_answers(bool walk)
{
	struct halo_ctx plain = { .root = root, .root_fd = -1 };

	halo_rootfs_force_walk(walk);
	assert_int_equal(halo_root_open(root, &plain.root_fd), 0);
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		struct halo_ctx cold = plain, listed = plain;
		struct answers want = { 0 }, got = { 0 };
		_cleanup_strv_free_ char **names = NULL;
		char dir[256];

		ask(&plain, paths[i], &want);
		/* Cold: nothing known yet; then the same questions again,
		 * answered from what the first ones found. */
		assert_int_equal(halo_root_snapshot_start(&cold), 0);
		ask(&cold, paths[i], &got);
		assert_same(paths[i], &want, &got);
		answers_free(&got);
		ask(&cold, paths[i], &got);
		assert_same(paths[i], &want, &got);
		answers_free(&got);
		halo_root_snapshot_stop(&cold);
		assert_null(cold.rootcache);
		/* With the directory listed first: answered from its names. */
		assert_int_equal(halo_root_snapshot_start(&listed), 0);
		(void)halo_root_list_dir(&listed, parent(paths[i], dir, sizeof(dir)), &names);
		ask(&listed, paths[i], &got);
		assert_same(paths[i], &want, &got);
		answers_free(&got);
		halo_root_snapshot_stop(&listed);
		answers_free(&want);
	}
	close(plain.root_fd);
	halo_rootfs_force_walk(false);
}

static void test_same_answers(void **state)
{
	build_root();
	same_answers(false);
}

static void test_same_answers_walk(void **state)
{
	same_answers(true);
}

/* Proof that the cache answers: what changed behind it is not seen. */
/* A file stat'ed before it is read, and a directory of more names than
 * one step of the listing holds, created out of order: the cache answers
 * as the first look did. */
static void test_kept_after_stat(void **state)
{
	struct halo_ctx ctx = { .root = root, .root_fd = -1 };
	char **fresh = NULL, **kept = NULL, rel[32];
	char *buf = NULL;
	struct stat st;

	assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
	assert_int_equal(halo_root_snapshot_start(&ctx), 0);
	mkd("kept");
	for (int i = 39; i >= 0; i--) {
		snprintf(rel, sizeof(rel), "kept/n%02d", i);
		put(rel, (size_t)i);
	}
	assert_int_equal(halo_root_lstat(&ctx, "/kept/n07", &st), 0);
	assert_int_equal(halo_read_file(&ctx, "/kept/n07", &buf, NULL), 0);
	assert_string_equal(buf, "abcdefg");
	free(buf);
	put("kept/n07", 2);
	assert_int_equal(halo_read_file(&ctx, "/kept/n07", &buf, NULL), 0);
	assert_string_equal(buf, "abcdefg");
	free(buf);
	assert_int_equal(halo_root_list_dir(&ctx, "/kept", &fresh), 0);
	assert_int_equal(halo_root_list_dir(&ctx, "/kept", &kept), 0);
	assert_int_equal(halo_strv_len(fresh), 40);
	assert_int_equal(halo_strv_len(kept), 40);
	for (int i = 0; i < 40; i++) {
		snprintf(rel, sizeof(rel), "n%02d", i);
		assert_string_equal(fresh[i], rel);
		assert_string_equal(kept[i], rel);
	}
	halo_strv_free(fresh);
	halo_strv_free(kept);
	halo_root_snapshot_stop(&ctx);
	close(ctx.root_fd);
}

static void test_read_once(void **state)
{
	struct halo_ctx ctx = { .root = root, .root_fd = -1 };
	_cleanup_strv_free_ char **names = NULL;
	char *buf = NULL;
	struct stat st;

	assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
	assert_int_equal(halo_root_snapshot_start(&ctx), 0);
	mkd("once");
	put("once/a", 3);
	assert_int_equal(halo_read_file(&ctx, "/once/a", &buf, NULL), 0);
	assert_string_equal(buf, "abc");
	free(buf);
	assert_int_equal(halo_root_list_dir(&ctx, "/once", &names), 0);
	assert_int_equal(halo_root_lstat(&ctx, "/once/a", &st), 0);
	assert_int_equal(halo_root_exists(&ctx, "/once/b"), 0);
	/* Behind its back. */
	put("once/a", 5);
	put("once/b", 1);
	assert_int_equal(halo_read_file(&ctx, "/once/a", &buf, NULL), 0);
	assert_string_equal(buf, "abc");
	free(buf);
	assert_int_equal(halo_root_exists(&ctx, "/once/b"), 0);
	/* Not listed when /once was: absent, without a look. */
	assert_int_equal(halo_read_file(&ctx, "/once/b", &buf, NULL), -ENOENT);
	halo_strv_free(names);
	assert_int_equal(halo_root_list_dir(&ctx, "/once", &names), 0);
	assert_int_equal(halo_strv_len(names), 1);
	assert_int_equal(st.st_size, 3);
	/* A write through util/ empties it: everything is read afresh. */
	assert_int_equal(halo_write_file_atomic(&ctx, "/once/c", "x", 1, 0644), 1);
	assert_int_equal(halo_read_file(&ctx, "/once/a", &buf, NULL), 0);
	assert_string_equal(buf, "abcde");
	free(buf);
	assert_int_equal(halo_root_exists(&ctx, "/once/b"), 1);
	/* And so does a spawned program. */
	put("once/a", 2);
	assert_int_equal(halo_read_file(&ctx, "/once/a", &buf, NULL), 0);
	assert_string_equal(buf, "abcde");
	free(buf);
	{
		const char *argv[] = { "true", NULL };
		int status = -1;

		assert_int_equal(halo_spawn(&ctx, argv, &status, NULL, NULL), 0);
	}
	assert_int_equal(halo_read_file(&ctx, "/once/a", &buf, NULL), 0);
	assert_string_equal(buf, "ab");
	free(buf);
	/* Removal and mkdir through util/ too. */
	assert_int_equal(halo_read_file(&ctx, "/once/c", &buf, NULL), 0);
	free(buf);
	assert_int_equal(halo_root_unlink(&ctx, "/once/c"), 1);
	assert_int_equal(halo_read_file(&ctx, "/once/c", &buf, NULL), -ENOENT);
	assert_int_equal(halo_root_exists(&ctx, "/once/d"), 0);
	assert_int_equal(halo_root_mkdir_p(&ctx, "/once/d", 0755), 0);
	assert_int_equal(halo_root_exists(&ctx, "/once/d"), 1);
	halo_root_snapshot_stop(&ctx);
	close(ctx.root_fd);
}

/* Paths the rules refuse are refused before the cache is asked. */
static void test_rules_first(void **state)
{
	struct halo_ctx ctx = { .root = root, .root_fd = -1 };
	_cleanup_strv_free_ char **names = NULL;
	struct stat st;
	char *buf = NULL;

	assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
	assert_int_equal(halo_root_snapshot_start(&ctx), 0);
	assert_int_equal(halo_root_list_dir(&ctx, "/", &names), 0);
	assert_int_equal(halo_read_file(&ctx, NULL, &buf, NULL), -EINVAL);
	assert_int_equal(halo_read_file(&ctx, "etc/small", &buf, NULL), -EINVAL);
	assert_int_equal(halo_read_file(&ctx, "/../etc", &buf, NULL), -EXDEV);
	assert_int_equal(halo_root_list_dir(&ctx, NULL, &names), -EINVAL);
	assert_int_equal(halo_root_list_dir(&ctx, "/..", &names), -EXDEV);
	assert_int_equal(halo_root_lstat(&ctx, "/../etc", &st), -EXDEV);
	assert_int_equal(halo_root_exists(&ctx, "/../etc"), -EXDEV);
	assert_null(buf);
	halo_root_snapshot_stop(&ctx);
	close(ctx.root_fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_answers),
		cmocka_unit_test(test_same_answers_walk),
		cmocka_unit_test(test_read_once),
		cmocka_unit_test(test_kept_after_stat),
		cmocka_unit_test(test_rules_first),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
