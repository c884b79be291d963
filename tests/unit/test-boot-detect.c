/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: boot loader detection rules (src/boot/detect.c). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/detect.h"

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
	};

	return cmocka_run_group_tests_name("boot-detect", tests, NULL, NULL);
}
