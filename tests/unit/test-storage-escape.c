/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: systemd and udev names of paths and labels
 * (src/storage/escape.c), against fixed answers and, where installed, the
 * real systemd-escape. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sys/wait.h>

#include <cmocka.h>

#include "storage/escape.h"

static void assert_unit(const char *path, const char *want)
{
	char *got = NULL;

	assert_int_equal(halo_mount_unit_name(path, &got), 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_unit_names(void **state)
{
	(void)state;
	assert_unit("/models", "models.mount");
	assert_unit("/models/v2.1", "models-v2.1.mount");
	assert_unit("/mnt/my models", "mnt-my\\x20models.mount");
	assert_unit("/srv/a-b/c", "srv-a\\x2db-c.mount");
	assert_unit("/mnt/mod\xc3\xa8les", "mnt-mod\\xc3\\xa8les.mount");
	assert_unit("/.hidden/x", "\\x2ehidden-x.mount");
	assert_unit("/mnt/x_y:z", "mnt-x_y:z.mount");
	assert_unit("/mnt/100%", "mnt-100\\x25.mount");
	assert_unit("/a\\b", "a\\x5cb.mount");
	assert_unit("/", "-.mount");
}

static void test_unit_name_refused(void **state)
{
	char long_path[300];
	char *got = NULL;

	(void)state;
	assert_int_equal(halo_mount_unit_name("models", &got), -EINVAL);
	assert_int_equal(halo_mount_unit_name("/a//b", &got), -EINVAL);
	assert_int_equal(halo_mount_unit_name("/a/../b", &got), -EINVAL);
	assert_int_equal(halo_mount_unit_name("/a/./b", &got), -EINVAL);
	assert_int_equal(halo_mount_unit_name("/a/..", &got), -EINVAL);
	assert_int_equal(halo_mount_unit_name("/a/", &got), -EINVAL);
	long_path[0] = '/';
	/* systemd loads unit names up to 255 characters (UNIT_NAME_MAX
	 * counts the NUL); systemd-escape itself prints longer ones. */
	memset(long_path + 1, 'm', 249);
	long_path[250] = '\0';
	assert_int_equal(halo_mount_unit_name(long_path, &got), 0); /* 249 + 6 */
	free(got);
	got = NULL;
	long_path[250] = 'm';
	long_path[251] = '\0';
	assert_int_equal(halo_mount_unit_name(long_path, &got), -ENAMETOOLONG);
	assert_null(got);
}

/* The answer of the real `systemd-escape --path --suffix=mount PATH`. */
static char *real_escape(const char *path)
{
	char buf[1024];
	int fds[2];
	pid_t pid;
	ssize_t n;
	size_t len = 0;
	int status;

	if (pipe(fds) < 0)
		return NULL;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execlp("systemd-escape", "systemd-escape", "--path", "--suffix=mount", path,
		       (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return NULL;
	buf[len] = '\0';
	if (len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return strdup(buf);
}

static void test_against_systemd_escape(void **state)
{
	static const char *const paths[] = {
		"/models", "/models/v2.1", "/mnt/my models", "/srv/a-b/c",
		"/mnt/mod\xc3\xa8les", "/.hidden/x", "/mnt/x_y:z", "/mnt/100%",
		"/a\\b", "/mnt/\xe6\xa8\xa1\xe5\x9e\x8b", "/m/-lead", "/m/trail-",
		"/m/a~b+c=d@e#f", "/m/tab\there", "/",
	};
	(void)state;
	if (access("/usr/bin/systemd-escape", X_OK) != 0 &&
	    access("/bin/systemd-escape", X_OK) != 0)
		skip();
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		char *want = real_escape(paths[i]);
		char *got = NULL;

		assert_non_null(want);
		assert_int_equal(halo_mount_unit_name(paths[i], &got), 0);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
}

static void assert_udev(const char *in, const char *want)
{
	char *got = halo_udev_encode(in);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_udev_encode(void **state)
{
	(void)state;
	assert_udev("models", "models");
	assert_udev("my models", "my\\x20models");
	assert_udev("a/b", "a\\x2fb");
	assert_udev("x\\y", "x\\x5cy");
	assert_udev("#+-.:=@_", "#+-.:=@_");
	assert_udev("mod\xc3\xa8les", "mod\xc3\xa8les");
	/* A lone continuation byte, an overlong "/": not UTF-8, escaped. */
	assert_udev("a\x80z", "a\\x80z");
	assert_udev("\xc0\xaf", "\\xc0\\xaf");
	assert_udev("", "");
}

static void test_specifier_escape(void **state)
{
	char *got;

	(void)state;
	got = halo_specifier_escape("/mnt/100%/%n");
	assert_string_equal(got, "/mnt/100%%/%%n");
	free(got);
	got = halo_specifier_escape("plain");
	assert_string_equal(got, "plain");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit_names),
		cmocka_unit_test(test_unit_name_refused),
		cmocka_unit_test(test_against_systemd_escape),
		cmocka_unit_test(test_udev_encode),
		cmocka_unit_test(test_specifier_escape),
	};

	return cmocka_run_group_tests_name("storage-escape", tests, NULL, NULL);
}
