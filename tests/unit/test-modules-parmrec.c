/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-modules-parmrec.c: the record of compressed modules' parameter
 * types: its lines back and forth, a line used only for the very file it
 * was read from, lines of another shape skipped, and a record the check
 * cannot trust (writable by others, another owner, a symlink) not read.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

static const struct halo_modfile_id id1 = {
	.dev = 2049, .ino = 131077, .size = 2811504,
	.mtime_s = 1764000000, .mtime_ns = 5,
	.ctime_s = 1764000001, .ctime_ns = 999999999,
};

static char **strv(const char *a, const char *b, const char *c)
{
	char **v = NULL;

	if (a)
		assert_int_equal(halo_strv_push(&v, a), 0);
	if (b)
		assert_int_equal(halo_strv_push(&v, b), 0);
	if (c)
		assert_int_equal(halo_strv_push(&v, c), 0);
	return v;
}

static void test_round_trip(void **state)
{
	_cleanup_strv_free_ char **p1 = strv("prof_sel:uint", "probe_vf:bool", "x:array of int");
	_cleanup_strv_free_ char **p2 = strv("untyped:", NULL, NULL);
	struct halo_parmrec rec = { 0 }, back = { 0 };
	const struct halo_parmrec_entry *e;
	char *text = NULL, *again = NULL;
	struct halo_modfile_id id2 = id1;

	(void)state;
	id2.ino = 7;
	assert_int_equal(halo_parmrec_add(&rec, "6.8.0-49-generic/kernel/mlx5_core.ko.zst", &id1, p1), 0);
	assert_int_equal(halo_parmrec_add(&rec, "6.8.0-49-generic/kernel/ice.ko.zst", &id2, p2), 0);
	assert_int_equal(halo_parmrec_add(&rec, "6.8.0-49-generic/kernel/irdma.ko.zst", &id2, NULL), 0);
	assert_int_equal(halo_parmrec_render(&rec, &text), 0);
	assert_non_null(text);
	assert_true(halo_is_managed(text, strlen(text)));
	/* Sorted by key: the same record renders the same bytes. */
	assert_non_null(strstr(text, "\n6.8.0-49-generic/kernel/ice.ko.zst\t2049\t7\t2811504\t"
				     "1764000000.000000005\t1764000001.999999999\tuntyped:\n"
				     "6.8.0-49-generic/kernel/irdma.ko.zst\t"));
	assert_int_equal(halo_parmrec_parse(text, &back), 0);
	assert_int_equal(back.n, 3);
	e = halo_parmrec_find(&back, "6.8.0-49-generic/kernel/mlx5_core.ko.zst", &id1);
	assert_non_null(e);
	assert_int_equal(halo_strv_len(e->parms), 3);
	assert_string_equal(e->parms[2], "x:array of int");
	e = halo_parmrec_find(&back, "6.8.0-49-generic/kernel/irdma.ko.zst", &id2);
	assert_non_null(e);
	assert_null(e->parms);
	assert_int_equal(halo_parmrec_render(&back, &again), 0);
	assert_string_equal(text, again);
	free(text);
	free(again);
	halo_parmrec_clear(&rec);
	halo_parmrec_clear(&back);
	/* Nothing to keep: no text (the file is removed). */
	assert_int_equal(halo_parmrec_render(&rec, &text), 0);
	assert_null(text);
}

/* A line is of one file: any field of its identity that differs, and
 * it is not used. */
static void test_identity(void **state)
{
	_cleanup_strv_free_ char **p = strv("a:int", NULL, NULL);
	struct halo_parmrec rec = { 0 };
	const char *key = "6.1.0/kernel/a.ko.xz";

	(void)state;
	assert_int_equal(halo_parmrec_add(&rec, key, &id1, p), 0);
	assert_non_null(halo_parmrec_find(&rec, key, &id1));
	assert_null(halo_parmrec_find(&rec, "6.1.0/kernel/b.ko.xz", &id1));
	assert_null(halo_parmrec_find(&rec, "6.1.1/kernel/a.ko.xz", &id1));
	for (int f = 0; f < 7; f++) {
		struct halo_modfile_id other = id1;

		switch (f) {
		case 0: other.dev++; break;
		case 1: other.ino++; break;
		case 2: other.size--; break;
		case 3: other.mtime_s++; break;
		case 4: other.mtime_ns++; break;
		case 5: other.ctime_s--; break;
		default: other.ctime_ns--; break;
		}
		assert_null(halo_parmrec_find(&rec, key, &other));
	}
	/* The same key again replaces its line. */
	{
		_cleanup_strv_free_ char **q = strv("b:charp", NULL, NULL);
		struct halo_modfile_id later = id1;

		later.ctime_s++;
		assert_int_equal(halo_parmrec_add(&rec, key, &later, q), 0);
		assert_int_equal(rec.n, 1);
		assert_null(halo_parmrec_find(&rec, key, &id1));
		assert_string_equal(halo_parmrec_find(&rec, key, &later)->parms[0], "b:charp");
	}
	halo_parmrec_clear(&rec);
}

/* What the line format cannot carry is not recorded (the check decodes). */
static void test_unrecordable(void **state)
{
	_cleanup_strv_free_ char **tab = strv("a:int", "b:in\tt", NULL);
	_cleanup_strv_free_ char **nl = strv("a:int\n6.1.0/x.ko.xz", NULL, NULL);
	_cleanup_strv_free_ char **empty = strv("", NULL, NULL);
	struct halo_parmrec rec = { 0 };

	(void)state;
	assert_int_equal(halo_parmrec_add(&rec, "6.1.0/a.ko.xz", &id1, tab), 0);
	assert_int_equal(halo_parmrec_add(&rec, "6.1.0/b.ko.xz", &id1, nl), 0);
	assert_int_equal(halo_parmrec_add(&rec, "6.1.0/c.ko.xz", &id1, empty), 0);
	assert_int_equal(halo_parmrec_add(&rec, "6.1.0/d\tx.ko.xz", &id1, NULL), 0);
	assert_int_equal(rec.n, 0);
}

/* Lines of another shape are skipped, each for its own fault; the good
 * line among them is kept. */
static void test_bad_lines(void **state)
{
	static const char *const bad[] = {
		"6.1.0/a.ko.xz\t1\t2\t3\t4.000000000\n",                      /* a field short */
		"nokey.ko.xz\t1\t2\t3\t4.000000000\t5.000000000\tp:int\n",   /* no release */
		"6.1.0/a.ko.xz\t-1\t2\t3\t4.000000000\t5.000000000\tp:int\n",
		"6.1.0/a.ko.xz\t1\t2x\t3\t4.000000000\t5.000000000\tp:int\n",
		"6.1.0/a.ko.xz\t1\t2\t99999999999999999999\t4.000000000\t5.000000000\n",
		"6.1.0/a.ko.xz\t1\t2\t3\t4\t5.000000000\tp:int\n",           /* no ns */
		"6.1.0/a.ko.xz\t1\t2\t3\t4.00000000\t5.000000000\tp:int\n",  /* 8 digits */
		"6.1.0/a.ko.xz\t1\t2\t3\t4.000000000\t5.0000000001\tp:int\n",
		"6.1.0/a.ko.xz\t1\t2\t3\t4.000000000\t5.00000000x\tp:int\n",
		"6.1.0/a.ko.xz\t1\t2\t3\t4.000000000\t5.000000000\tnocolon\n",
	};
	const char *good = "6.1.0/g.ko.zst\t1\t2\t3\t4.000000001\t5.000000002\tp:int\n";
	const struct halo_modfile_id gid = {
		.dev = 1, .ino = 2, .size = 3, .mtime_s = 4, .mtime_ns = 1,
		.ctime_s = 5, .ctime_ns = 2,
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct halo_parmrec rec = { 0 };
		_cleanup_free_ char *text = halo_strdup_printf("# x\n%s%s", bad[i], good);

		assert_non_null(text);
		assert_int_equal(halo_parmrec_parse(text, &rec), 0);
		if (rec.n != 1)
			fail_msg("line %zu taken: %s", i, bad[i]);
		assert_non_null(halo_parmrec_find(&rec, "6.1.0/g.ko.zst", &gid));
		halo_parmrec_clear(&rec);
	}
}

/* Recorded only when its ctime is more than a second old: a change in
 * the same clock tick would leave the ctime as it was. */
static void test_settled(void **state)
{
	struct timespec now = { .tv_sec = 1764000010, .tv_nsec = 500000000 };
	struct halo_modfile_id id = id1;

	(void)state;
	id.ctime_s = 1764000008, id.ctime_ns = 500000000;
	assert_true(halo_modfile_id_settled(&id, &now));      /* 2 s */
	id.ctime_s = 1764000009, id.ctime_ns = 400000000;
	assert_true(halo_modfile_id_settled(&id, &now));      /* 1.1 s */
	id.ctime_s = 1764000009, id.ctime_ns = 500000000;
	assert_false(halo_modfile_id_settled(&id, &now));     /* exactly 1 s */
	id.ctime_s = 1764000010, id.ctime_ns = 0;
	assert_false(halo_modfile_id_settled(&id, &now));     /* 0.5 s */
	id.ctime_s = 1764000015, id.ctime_ns = 0;
	assert_false(halo_modfile_id_settled(&id, &now));     /* in the future */
	id.ctime_s = 1764000008, id.ctime_ns = 500000001;
	assert_true(halo_modfile_id_settled(&id, &now));      /* 1.999999999 s */
	id.ctime_s = 1764000009, id.ctime_ns = 499999999;
	assert_true(halo_modfile_id_settled(&id, &now));      /* 1.000000001 s */
	now.tv_nsec = 0;
	id.ctime_s = 1764000008, id.ctime_ns = 999999999;
	assert_true(halo_modfile_id_settled(&id, &now));      /* 1.000000001 s */
	id.ctime_s = 1764000009, id.ctime_ns = 0;
	assert_false(halo_modfile_id_settled(&id, &now));     /* exactly 1 s */
	/* Centuries away either side (a --root image may carry such a
	 * ctime): judged without overflow. */
	id.ctime_s = INT64_C(1764000010) + INT64_C(20000000000);
	assert_false(halo_modfile_id_settled(&id, &now));
	id.ctime_s = INT64_MAX;
	assert_false(halo_modfile_id_settled(&id, &now));
	id.ctime_s = INT64_MIN;
	assert_true(halo_modfile_id_settled(&id, &now));
}

static char tmp[64];

static void ctx_at(struct halo_ctx *ctx, const char *root)
{
	*ctx = (struct halo_ctx){ .root = root, .mode = HALO_MODE_CHECK };
	assert_int_equal(halo_root_open(root, &ctx->root_fd), 0);
}

static void write_record(const char *root, const char *text, mode_t mode)
{
	char dir[256], path[300];
	int fd;

	snprintf(dir, sizeof(dir), "%s/var/lib/halo-provision", root);
	snprintf(path, sizeof(path), "%s%s", root, HALO_MODULES_RECORD_PATH);
	{
		_cleanup_free_ char *cmd = halo_strdup_printf("mkdir -p '%s'", dir);

		assert_int_equal(system(cmd), 0);
	}
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static int load_at(const char *root, size_t *ret_n)
{
	struct halo_parmrec rec = { 0 };
	struct halo_ctx ctx;
	int r;

	ctx_at(&ctx, root);
	r = halo_parmrec_load(&ctx, &rec);
	*ret_n = rec.n;
	halo_parmrec_clear(&rec);
	close(ctx.root_fd);
	return r;
}

static void test_load(void **state)
{
	const char *line = "6.1.0/g.ko.zst\t1\t2\t3\t4.000000001\t5.000000002\tp:int\n";
	char path[300], target[300];
	size_t n = 99;

	(void)state;
	strcpy(tmp, "/tmp/halo-parmrec-unit.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s%s", tmp, HALO_MODULES_RECORD_PATH);
	/* Absent: empty. */
	assert_int_equal(load_at(tmp, &n), 0);
	assert_int_equal(n, 0);
	write_record(tmp, line, 0644);
	assert_int_equal(load_at(tmp, &n), 0);
	assert_int_equal(n, 1);
	/* Writable by group or others: not read. */
	write_record(tmp, line, 0664);
	assert_int_equal(load_at(tmp, &n), -EPERM);
	assert_int_equal(n, 0);
	write_record(tmp, line, 0646);
	assert_int_equal(load_at(tmp, &n), -EPERM);
	assert_int_equal(n, 0);
	/* Owned by another user: not read. */
	write_record(tmp, line, 0644);
	assert_int_equal(chown(path, geteuid() + 1, (gid_t)-1), 0);
	assert_int_equal(load_at(tmp, &n), -EPERM);
	assert_int_equal(n, 0);
	/* A symlink to a good record: not followed. */
	snprintf(target, sizeof(target), "%s/elsewhere", tmp);
	write_record(tmp, line, 0644);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(load_at(tmp, &n), 0);
	assert_int_equal(n, 0);
	/* A directory, a FIFO: empty. */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(load_at(tmp, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(load_at(tmp, &n), 0);
	assert_int_equal(n, 0);
	{
		_cleanup_free_ char *cmd = halo_strdup_printf("rm -rf '%s'", tmp);

		assert_int_equal(system(cmd), 0);
	}
}

static enum halo_parmrec_standing standing_at(const char *root, const char *want)
{
	enum halo_parmrec_standing st = (enum halo_parmrec_standing)-1;
	struct halo_ctx ctx;

	ctx_at(&ctx, root);
	assert_int_equal(halo_parmrec_standing(&ctx, want, &st), 0);
	close(ctx.root_fd);
	return st;
}

static void test_standing(void **state)
{
	const char *line = "6.1.0/g.ko.zst\t1\t2\t3\t4.000000001\t5.000000002\tp:int\n";
	const char *other = "6.1.0/g.ko.zst\t1\t2\t3\t4.000000001\t5.000000002\tp:uint\n";
	char path[300], target[300];

	(void)state;
	strcpy(tmp, "/tmp/halo-parmrec-unit.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	snprintf(path, sizeof(path), "%s%s", tmp, HALO_MODULES_RECORD_PATH);
	/* Absent: right when none is wanted. */
	assert_int_equal(standing_at(tmp, NULL), HALO_PARMREC_RIGHT);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_STALE);
	/* Ours, 0644: right only with the very text. */
	write_record(tmp, line, 0644);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_RIGHT);
	assert_int_equal(standing_at(tmp, other), HALO_PARMREC_STALE);
	assert_int_equal(standing_at(tmp, "6.1.0/g.ko.zst"), HALO_PARMREC_STALE); /* a prefix */
	assert_int_equal(standing_at(tmp, NULL), HALO_PARMREC_STALE);
	/* The very text at a mode a check would not trust, or another. */
	write_record(tmp, line, 0664);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_STALE);
	write_record(tmp, line, 0600);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_STALE);
	/* Another user's, whatever its text. */
	write_record(tmp, line, 0644);
	assert_int_equal(chown(path, geteuid() + 1, (gid_t)-1), 0);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_FOREIGN);
	assert_int_equal(standing_at(tmp, NULL), HALO_PARMREC_FOREIGN);
	/* A symlink to the very text, a directory, a FIFO: stale. */
	snprintf(target, sizeof(target), "%s/elsewhere", tmp);
	write_record(tmp, line, 0644);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_STALE);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(standing_at(tmp, NULL), HALO_PARMREC_STALE);
	assert_int_equal(rmdir(path), 0);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(standing_at(tmp, line), HALO_PARMREC_STALE);
	{
		_cleanup_free_ char *cmd = halo_strdup_printf("rm -rf '%s'", tmp);

		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_unrecordable),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_settled),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_standing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
