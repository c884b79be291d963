/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the mount at a path from mountinfo (src/storage/mountinfo.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "storage/mountinfo.h"

/* Lines as proc(5) shows them, optional fields and escapes included. */
static const char text[] =
	"22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro\n"
	"25 22 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
	"40 22 8:17 / /models rw,noatime shared:20 master:3 - xfs /dev/sdb1 rw,attr2,inode64\n"
	"41 22 8:33 / /mnt/my\\040models rw,relatime - ext4 /dev/sdc1 rw\n"
	"42 22 0:45 / /srv/store rw - tmpfs tmpfs rw,size=1024k\n"
	"43 22 8:49 / /srv/store rw,noatime - ext4 /dev/sdd1 rw\n"
	"44 22 8:50 / /mnt/back\\134slash rw - ext4 /dev/with\\040space rw\n";

static void test_found(void **state)
{
	struct halo_mount m = { 0 };

	(void)state;
	assert_int_equal(halo_mountinfo_find(text, "/models", &m), 1);
	assert_string_equal(m.fstype, "xfs");
	assert_string_equal(m.source, "/dev/sdb1");
	assert_int_equal(m.major, 8);
	assert_int_equal(m.minor, 17);
	halo_mount_free(&m);
	assert_int_equal(halo_mountinfo_find(text, "/", &m), 1);
	assert_string_equal(m.source, "/dev/nvme0n1p2");
	halo_mount_free(&m);
}

static void test_escapes(void **state)
{
	struct halo_mount m = { 0 };

	(void)state;
	assert_int_equal(halo_mountinfo_find(text, "/mnt/my models", &m), 1);
	assert_string_equal(m.source, "/dev/sdc1");
	halo_mount_free(&m);
	assert_int_equal(halo_mountinfo_find(text, "/mnt/my\\040models", &m), 0);
	assert_int_equal(halo_mountinfo_find(text, "/mnt/back\\slash", &m), 1);
	assert_string_equal(m.source, "/dev/with space");
	halo_mount_free(&m);
}

static void test_stacked_last_wins(void **state)
{
	struct halo_mount m = { 0 };

	(void)state;
	assert_int_equal(halo_mountinfo_find(text, "/srv/store", &m), 1);
	assert_string_equal(m.fstype, "ext4");
	assert_string_equal(m.source, "/dev/sdd1");
	halo_mount_free(&m);
}

static void test_absent(void **state)
{
	struct halo_mount m = { 0 };

	(void)state;
	assert_int_equal(halo_mountinfo_find(text, "/model", &m), 0);
	assert_int_equal(halo_mountinfo_find(text, "/models/sub", &m), 0);
	assert_int_equal(halo_mountinfo_find("", "/models", &m), 0);
	assert_int_equal(halo_mountinfo_find("\n\n", "/models", &m), 0);
	assert_null(m.source);
}

static void test_malformed(void **state)
{
	struct halo_mount m = { 0 };

	(void)state;
	/* No separator, too few fields after it, no MAJ:MIN. */
	assert_int_equal(halo_mountinfo_find("40 22 8:17 / /models rw shared:1 xfs /dev/sdb1 rw\n",
					     "/models", &m), -EBADMSG);
	assert_int_equal(halo_mountinfo_find("40 22 8:17 / /models rw - xfs\n", "/models", &m),
			 -EBADMSG);
	assert_int_equal(halo_mountinfo_find("40 22 x / /models rw - xfs /dev/sdb1 rw\n",
					     "/models", &m), -EBADMSG);
	/* No trailing newline is fine. */
	assert_int_equal(halo_mountinfo_find("40 22 8:17 / /models rw - xfs /dev/sdb1 rw",
					     "/models", &m), 1);
	halo_mount_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found),
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_stacked_last_wins),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests_name("storage-mountinfo", tests, NULL, NULL);
}
