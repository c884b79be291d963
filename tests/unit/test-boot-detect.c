/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: boot loader detection rules (src/boot/detect.c). */
#include "config.h"

#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "boot/detect.h"
#include "util/rootfs.h"

static void test_rules(void **state)
{
	struct halo_boot_facts f = { 0 };

	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_AUTO);

	f = (struct halo_boot_facts){ .default_grub = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_GRUB);

	f = (struct halo_boot_facts){ .default_grub = true, .debian_like = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_GRUB_DROPIN);

	f = (struct halo_boot_facts){ .default_grub = true, .grub_d = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_GRUB_DROPIN);

	/* Fedora: grub + BLS entries + os-release or grubby. */
	f = (struct halo_boot_facts){ .default_grub = true, .bls_entries = true,
				      .kernel_cmdline = true, .fedora_like = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_BLS);
	f = (struct halo_boot_facts){ .default_grub = true, .bls_entries = true,
				      .grubby = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_BLS);
	/* BLS entries without grubby on a Debian box with grub.d: drop-in. */
	f = (struct halo_boot_facts){ .default_grub = true, .bls_entries = true,
				      .grub_d = true, .debian_like = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_GRUB_DROPIN);

	/* systemd-boot / kernel-install. */
	f = (struct halo_boot_facts){ .kernel_cmdline = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_KERNEL_CMDLINE);
	f = (struct halo_boot_facts){ .bls_entries = true, .fedora_like = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_KERNEL_CMDLINE);
	/* /etc/kernel/cmdline next to grub: grub wins. */
	f = (struct halo_boot_facts){ .kernel_cmdline = true, .default_grub = true };
	assert_int_equal(halo_boot_detect(&f), HALO_LOADER_GRUB);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (!text) {
		assert_int_equal(mkdir(path, 0755), 0);
		return;
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

/* Every combination of the facts, planted in a root: the answer of the
 * probing that skips what cannot matter is the rules' answer on all of
 * them. */
static void test_detect_in_root(void **state)
{
	static const char *const grubby[] = { "usr/sbin/grubby", "usr/bin/grubby", "sbin/grubby" };
	static const char *const osr[] = { "ID=arch\n", "ID=fedora\n", "ID=debian\n",
					   "ID=x\nID_LIKE=\"rhel debian\"\n" };
	char top[] = "/tmp/halo-detect-XXXXXX";

	assert_non_null(mkdtemp(top));
	for (unsigned c = 0; c < 1u << 7; c++) {
		struct halo_boot_facts f = {
			.default_grub = c & 1, .grub_d = c & 2, .bls_entries = c & 4,
			.kernel_cmdline = c & 8, .grubby = c & 16,
			.fedora_like = c & 32, .debian_like = c & 64,
		};
		struct halo_ctx ctx = { .root_fd = -1, .under_root = true };
		enum halo_boot_loader got = HALO_LOADER_NONE;
		char root[64];

		snprintf(root, sizeof(root), "%s/%u", top, c);
		assert_int_equal(mkdir(root, 0755), 0);
		put(root, "etc/os-release", osr[(c >> 5) & 3]);
		if (f.default_grub)
			put(root, "etc/default/grub", "GRUB_TIMEOUT=5\n");
		if (f.grub_d)
			put(root, "etc/default/grub.d", NULL);
		/* Entries without a .conf do not count. */
		put(root, f.bls_entries ? "boot/loader/entries/a.conf" : "boot/loader/entries/a.txt",
		    "title a\n");
		if (f.kernel_cmdline)
			put(root, "etc/kernel/cmdline", "quiet\n");
		if (f.grubby)
			put(root, grubby[c % 3], "#!/bin/sh\n");
		ctx.root = root;
		assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
		assert_int_equal(halo_boot_detect_root(&ctx, &got), 0);
		assert_int_equal(got, halo_boot_detect(&f));
		close(ctx.root_fd);
	}
	/* os-release unreadable: the error, whatever else is there. */
	{
		struct halo_ctx ctx = { .root_fd = -1, .under_root = true };
		enum halo_boot_loader got = HALO_LOADER_NONE;
		char root[64];

		snprintf(root, sizeof(root), "%s/osr", top);
		assert_int_equal(mkdir(root, 0755), 0);
		put(root, "etc/default/grub", "GRUB_TIMEOUT=5\n");
		put(root, "etc/os-release", NULL);
		ctx.root = root;
		assert_int_equal(halo_root_open(root, &ctx.root_fd), 0);
		assert_true(halo_boot_detect_root(&ctx, &got) < 0);
		close(ctx.root_fd);
	}
	assert_int_equal(nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void test_os_release(void **state)
{
	bool fl, dl;

	halo_os_release_family("NAME=\"Fedora Linux\"\nID=fedora\n", &fl, &dl);
	assert_true(fl);
	assert_false(dl);
	halo_os_release_family("ID=rocky\nID_LIKE=\"rhel centos fedora\"\n", &fl, &dl);
	assert_true(fl);
	halo_os_release_family("ID=ubuntu\nID_LIKE=debian\n", &fl, &dl);
	assert_false(fl);
	assert_true(dl);
	halo_os_release_family("ID=linuxmint\nID_LIKE=\"ubuntu debian\"\n", &fl, &dl);
	assert_true(dl);
	/* Exact words only: "debianish" is not debian. */
	halo_os_release_family("ID=debianish\nVERSION_ID=\"debian\"\n", &fl, &dl);
	assert_false(dl);
	halo_os_release_family("", &fl, &dl);
	assert_false(fl);
	assert_false(dl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_os_release),
		cmocka_unit_test(test_detect_in_root),
	};

	return cmocka_run_group_tests_name("boot-detect", tests, NULL, NULL);
}
