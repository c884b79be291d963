/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for util/diff.c: exact output for the simple cases, and for
 * random edits the proof that matters: GNU patch applies our diff to the
 * old text and gets the new text.
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

#include <cmocka.h>

#include "util/diff.h"
#include "util/rootfs.h"
#include "util/spawn.h"
#include "util/strv.h"

static void check(const char *old, const char *new, const char *want)
{
	char *d = halo_unified_diff("/etc/x", old, new);

	assert_non_null(d);
	assert_string_equal(d, want);
	free(d);
}

static void test_identical(void **state)
{
	check("a\nb\n", "a\nb\n", "");
	check("", "", "");
	check(NULL, NULL, "");
	check("no newline", "no newline", "");
}

static void test_creation_and_removal(void **state)
{
	check(NULL, "a\nb\n",
	      "--- /dev/null\n+++ b/etc/x\n@@ -0,0 +1,2 @@\n+a\n+b\n");
	check(NULL, "a\n", "--- /dev/null\n+++ b/etc/x\n@@ -0,0 +1 @@\n+a\n");
	check("a\nb\n", NULL,
	      "--- a/etc/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n");
}

static void test_change_in_middle(void **state)
{
	check("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
	      "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n",
	      "--- a/etc/x\n+++ b/etc/x\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n");
	/* Two changes 7 lines apart: two hunks; 6 apart: one. */
	check("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n",
	      "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\nfifteen\n",
	      "--- a/etc/x\n+++ b/etc/x\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n"
	      "@@ -12,4 +12,4 @@\n 12\n 13\n 14\n-15\n+fifteen\n");
	check("1\n2\n3\n4\n5\n6\n7\n8\n",
	      "one\n2\n3\n4\n5\n6\n7\neight\n",
	      "--- a/etc/x\n+++ b/etc/x\n@@ -1,8 +1,8 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n");
	/* Pure insertion after line 2. */
	check("a\nb\nc\nd\ne\nf\n", "a\nb\nNEW\nc\nd\ne\nf\n",
	      "--- a/etc/x\n+++ b/etc/x\n@@ -1,5 +1,6 @@\n a\n b\n+NEW\n c\n d\n e\n");
}

static void test_no_trailing_newline(void **state)
{
	check("a\nb", "a\nb\n",
	      "--- a/etc/x\n+++ b/etc/x\n@@ -1,2 +1,2 @@\n a\n-b\n"
	      "\\ No newline at end of file\n+b\n");
	check("a\nb\n", "a\nc",
	      "--- a/etc/x\n+++ b/etc/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
	      "\\ No newline at end of file\n");
	check(NULL, "x", "--- /dev/null\n+++ b/etc/x\n@@ -0,0 +1 @@\n+x\n"
	      "\\ No newline at end of file\n");
}

/* --- round trips through GNU patch --- */

static char tmpdir[64];

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	return remove(p);
}

static void put(const char *name, const char *text)
{
	char p[128];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Applies DIFF with patch -p1 inside tmpdir; returns patch's status. */
static int apply(const char *diff)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	char dir[128], file[128];
	const char *argv[] = { "patch", "-p1", "-s", "-f", "-d", dir, "-i", file, NULL };
	char *out = NULL, *err = NULL;
	int status = -1;

	snprintf(dir, sizeof(dir), "%s/tree", tmpdir);
	snprintf(file, sizeof(file), "%s/d.patch", tmpdir);
	put("d.patch", diff);
	assert_int_equal(halo_spawn(&ctx, argv, &status, &out, &err), 0);
	if (status != 0)
		print_message("# patch: %s%s\n# diff was:\n%s", out, err, diff);
	free(out);
	free(err);
	return status;
}

static char *slurp(const char *name)
{
	struct halo_ctx ctx = { .root = "/" };
	char p[128], *buf = NULL;
	int r;

	assert_int_equal(halo_root_open("/", &ctx.root_fd), 0);
	snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
	r = halo_read_file(&ctx, p, &buf, NULL);
	close(ctx.root_fd);
	return r < 0 ? NULL : buf;
}

static int rt_setup(void **state)
{
	char p[128];

	strcpy(tmpdir, "/tmp/halo-diff.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(p, sizeof(p), "%s/tree", tmpdir);
	if (mkdir(p, 0755) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s/tree/etc", tmpdir);
	return mkdir(p, 0755);
}

static int rt_teardown(void **state)
{
	return nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void round_trip(const char *old, const char *new)
{
	char *d = halo_unified_diff("/etc/x", old, new), *got;
	char p[128];

	assert_non_null(d);
	/* patch removes a directory it emptied: recreate it. */
	snprintf(p, sizeof(p), "%s/tree/etc", tmpdir);
	assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
	snprintf(p, sizeof(p), "%s/tree/etc/x", tmpdir);
	unlink(p);
	if (old)
		put("tree/etc/x", old);
	if (*d)
		assert_int_equal(apply(d), 0);
	got = slurp("tree/etc/x");
	if (new) {
		assert_non_null(got);
		assert_string_equal(got, new);
	} else {
		assert_null(got); /* patch removed the file */
	}
	free(got);
	free(d);
}

static void test_patch_fixed_cases(void **state)
{
	round_trip(NULL, "a\nb\n");
	round_trip("a\nb\n", NULL);
	round_trip("a\nb", "a\nb\n");
	round_trip("a\nb\n", "a\nb");
	round_trip("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n");
	round_trip("x\n", "y\n");
	round_trip("x", "y");
	round_trip("", "new\n");
	round_trip("old\n", "");
}

/* Random texts over a tiny alphabet, so lines repeat and the diff has
 * real choices to make; random edits, with and without a final newline. */
static char *random_text(unsigned *seed, int lines, bool final_nl)
{
	static const char *const words[] = { "a", "b", "c", "d", "GRUB=1", "" };
	struct halo_buf b = { 0 };

	for (int i = 0; i < lines; i++) {
		halo_buf_puts(&b, words[rand_r(seed) % ARRAY_SIZE(words)]);
		if (i < lines - 1 || final_nl)
			halo_buf_puts(&b, "\n");
	}
	return halo_buf_steal(&b);
}

static char *mutate(unsigned *seed, const char *text, bool final_nl)
{
	_cleanup_strv_free_ char **v = NULL;
	struct halo_buf b = { 0 };
	const char *p = text;
	size_t n;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = strndup(p, len);

		assert_int_equal(halo_strv_push(&v, line), 0);
		free(line);
		p += len + (p[len] == '\n');
	}
	n = halo_strv_len(v);
	for (size_t i = 0; i < n; i++) {
		int r = rand_r(seed) % 10;

		if (r == 0)
			continue; /* delete */
		if (r == 1)
			halo_buf_puts(&b, "changed\n");
		else if (r == 2)
			halo_buf_printf(&b, "inserted %d\n", rand_r(seed) % 3);
		halo_buf_printf(&b, "%s\n", v[i]);
	}
	if (rand_r(seed) % 3 == 0)
		halo_buf_puts(&b, "tail\n");
	if (!final_nl && b.len > 0)
		b.data[--b.len] = '\0';
	return halo_buf_steal(&b);
}

static void test_patch_random(void **state)
{
	unsigned seed = 4791;

	for (int i = 0; i < 150; i++) {
		char *old = random_text(&seed, rand_r(&seed) % 40, rand_r(&seed) % 4);
		char *new = mutate(&seed, old, rand_r(&seed) % 4);

		round_trip(old, new);
		free(old);
		free(new);
	}
}

static void test_large_files(void **state)
{
	/* ~100 KiB, every line changed: the trace cap fallback still gives
	 * a correct patch. */
	struct halo_buf a = { 0 }, b = { 0 };
	char *old, *new;

	for (int i = 0; i < 6000; i++) {
		halo_buf_printf(&a, "line %d old\n", i);
		halo_buf_printf(&b, "line %d %s\n", i, i % 2 ? "new" : "old");
	}
	old = halo_buf_steal(&a);
	new = halo_buf_steal(&b);
	round_trip(old, new);
	free(new);
	new = strdup(old);
	new[50000] = 'X';
	round_trip(old, new);
	free(old);
	free(new);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identical),
		cmocka_unit_test(test_creation_and_removal),
		cmocka_unit_test(test_change_in_middle),
		cmocka_unit_test(test_no_trailing_newline),
		cmocka_unit_test_setup_teardown(test_patch_fixed_cases, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_patch_random, rt_setup, rt_teardown),
		cmocka_unit_test_setup_teardown(test_large_files, rt_setup, rt_teardown),
	};

	return cmocka_run_group_tests_name("util-diff", tests, NULL, NULL);
}
