/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the model store's mount options (src/config/mount-options.c),
 * alone and through the loader. */
#include "config-test.h"
#include "config/mount-options.h"

static void assert_refused(const char *opts, const char *why_part)
{
	const char *why = halo_check_mount_options(opts);

	if (!why)
		fail_msg("\"%s\" was accepted", opts);
	if (!strstr(why, why_part))
		fail_msg("\"%s\": got \"%s\", want it to mention \"%s\"", opts, why, why_part);
}

static void test_accepted(void **state)
{
	(void)state;
	assert_null(halo_check_mount_options("noatime"));
	assert_null(halo_check_mount_options("noatime,nodiratime"));
	assert_null(halo_check_mount_options("ro,nofail"));
	assert_null(halo_check_mount_options("defaults,logbufs=8,logbsize=256k"));
	assert_null(halo_check_mount_options("uid=1000,gid=1000,umask=022"));
	/* Names that only begin like a refused one. */
	assert_null(halo_check_mount_options("users_xattr,grpid,bindable"));
	assert_null(halo_check_mount_options("x-mount.mkdir"));
}

static void test_characters(void **state)
{
	(void)state;
	assert_refused("", "empty");
	assert_refused("noatime nodiratime", "whitespace");
	assert_refused("noatime,\tro", "whitespace");
	assert_refused("noatime\nExecStart=/bin/sh", "control character");
	assert_refused("context=\"system_u:object_r:x\"", "quote");
	assert_refused("a='b'", "quote");
	assert_refused("a=`id`", "quote");
	assert_refused("a\\b", "backslash");
	assert_refused("noatime,%n", "'%'");
	assert_refused("ro,\xc3\xa9", "non-ASCII");
}

static void test_list_shape(void **state)
{
	(void)state;
	assert_refused(",noatime", "empty option");
	assert_refused("noatime,", "empty option");
	assert_refused("noatime,,ro", "empty option");
	assert_refused("=x", "no name");
}

static void test_refused_options(void **state)
{
	(void)state;
	assert_refused("bind", "bind");
	assert_refused("noatime,rbind", "rbind");
	assert_refused("remount,ro", "remount");
	assert_refused("move", "move");
	assert_refused("noauto", "noauto");
	assert_refused("ro,user", "user");
	assert_refused("users", "users");
	assert_refused("owner", "owner");
	assert_refused("group", "group");
	assert_refused("x-systemd.device-timeout=10s", "x-systemd");
	assert_refused("nofail,x-systemd.automount", "x-systemd");
}

static void through_the_loader(void **state)
{
	struct halo_config *c;

	(void)state;
	assert_config_ok("storage = ( { what = \"LABEL=m\"; where = \"/m\";\n"
			 "  options = \"noatime,logbsize=256k\"; } );\n", &c);
	assert_string_equal(c->storage[0].options, "noatime,logbsize=256k");
	halo_config_free(c);
	assert_config_errors("storage = (\n  { what = \"LABEL=m\"; where = \"/m\";\n"
			     "    options = \"noatime,bind\"; }\n);\n",
			     "halo.conf:3: storage[0].options: \"noatime,bind\" contains \"bind\": "
			     "the model store is a device's file system, not a bind mount");
	assert_config_errors("storage = ( { what = \"LABEL=m\"; where = \"/m\"; options = \"ro,,nodev\"; } );\n",
			     "halo.conf:1: storage[0].options: \"ro,,nodev\" has an empty option "
			     "(\",,\" or a leading or trailing comma)");
	assert_config_errors("storage = ( { what = \"LABEL=m\"; where = \"/m\"; options = \"\"; } );\n",
			     "halo.conf:1: storage[0].options: \"\" is empty (leave it out for the defaults)");
	assert_config_errors("storage = ( { what = \"LABEL=m\"; where = \"/m\";\n"
			     "  options = \"x-systemd.automount\"; } );\n",
			     "halo.conf:2: storage[0].options: \"x-systemd.automount\" contains an "
			     "x-systemd.* option: only systemd-fstab-generator reads those, a mount "
			     "unit passes them to mount(8)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepted),
		cmocka_unit_test(test_characters),
		cmocka_unit_test(test_list_shape),
		cmocka_unit_test(test_refused_options),
		cmocka_unit_test(through_the_loader),
	};

	return cmocka_run_group_tests_name("config-mount-options", tests, NULL, NULL);
}
