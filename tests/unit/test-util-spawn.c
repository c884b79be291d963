/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for util/spawn.c, with real programs from coreutils. */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/spawn.h"

static void test_echo_stdout(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	const char *argv[] = { "/bin/echo", "hello", "a b", "$HOME;", NULL };
	char *out = NULL, *err = NULL;
	int status = -1;

	assert_int_equal(halo_spawn(&ctx, argv, &status, &out, &err), 0);
	assert_int_equal(status, 0);
	/* Arguments arrive verbatim: no shell, no splitting, no expansion. */
	assert_string_equal(out, "hello a b $HOME;\n");
	assert_string_equal(err, "");
	assert_int_equal(ctx.spawned, 1);
	free(out);
	free(err);
}

static void test_exit_status_and_path_lookup(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	const char *f[] = { "false", NULL };
	const char *t[] = { "true", NULL };
	int status = -1;

	assert_int_equal(halo_spawn(&ctx, f, &status, NULL, NULL), 0);
	assert_int_equal(status, 1);
	assert_int_equal(halo_spawn(&ctx, t, &status, NULL, NULL), 0);
	assert_int_equal(status, 0);
	assert_int_equal(ctx.spawned, 2);
}

static void test_missing_program(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	const char *a[] = { "halo-no-such-program-xyz", NULL };
	const char *b[] = { "/nonexistent/bin/tool", NULL };
	const char *none[] = { NULL };
	const char *dir[] = { "/tmp", NULL };
	char plain[] = "/tmp/halo-spawn.XXXXXX";
	const char *noexec[] = { plain, NULL };
	int fd = mkstemp(plain);
	char *out = (char *)"untouched";
	int status = 77;

	assert_int_equal(halo_spawn(&ctx, a, &status, &out, NULL), -ENOENT);
	assert_int_equal(halo_spawn(&ctx, b, &status, &out, NULL), -ENOENT);
	assert_int_equal(halo_spawn(&ctx, none, &status, &out, NULL), -EINVAL);
	assert_int_equal(halo_spawn(&ctx, dir, &status, &out, NULL), -EACCES);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(halo_spawn(&ctx, noexec, &status, &out, NULL), -EACCES);
	unlink(plain);
	assert_int_equal(status, 77);
	assert_string_equal(out, "untouched");
	assert_int_equal(ctx.spawned, 0);
}

static void test_stderr_captured(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	const char *argv[] = { "ls", "/nonexistent-halo-path", NULL };
	char *out = NULL, *err = NULL;
	int status = -1;

	assert_int_equal(halo_spawn(&ctx, argv, &status, &out, &err), 0);
	assert_int_equal(status, 2);
	assert_string_equal(out, "");
	/* LC_ALL=C: the message is the untranslated one. */
	assert_non_null(strstr(err, "No such file or directory"));
	assert_non_null(strstr(err, "/nonexistent-halo-path"));
	free(out);
	free(err);
}

static void test_environment_minimal(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	const char *argv[] = { "/usr/bin/env", NULL };
	char *out = NULL;
	int status = -1;

	setenv("HALO_LEAK_CHECK", "1", 1);
	setenv("LD_PRELOAD", "", 1);
	assert_int_equal(halo_spawn(&ctx, argv, &status, &out, NULL), 0);
	unsetenv("HALO_LEAK_CHECK");
	unsetenv("LD_PRELOAD");
	assert_int_equal(status, 0);
	assert_string_equal(out, "PATH=/usr/sbin:/usr/bin:/sbin:/bin\nLC_ALL=C\n");
	free(out);
}

static void test_stdin_is_dev_null(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	const char *argv[] = { "cat", NULL };
	const char *link[] = { "readlink", "/proc/self/fd/0", NULL };
	char *out = NULL;
	int status = -1;

	/* cat would hang if stdin were inherited from a terminal or pipe. */
	assert_int_equal(halo_spawn(&ctx, argv, &status, &out, NULL), 0);
	assert_int_equal(status, 0);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(halo_spawn(&ctx, link, &status, &out, NULL), 0);
	assert_string_equal(out, "/dev/null\n");
	free(out);
}

static void test_signal_status_and_clean_signals(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	/* perl-base is Essential on Debian: a program that kills itself. */
	const char *suicide[] = { "perl", "-e", "kill 'TERM', $$; sleep 5", NULL };
	const char *grep[] = { "grep", "^Sig[IB]", "/proc/self/status", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	sigset_t block, oldmask;
	char *out = NULL;
	int status = -1;

	assert_int_equal(halo_spawn(&ctx, suicide, &status, NULL, NULL), 0);
	assert_int_equal(status, 128 + SIGTERM);

	/* Ignored and blocked signals here are not inherited by the child. */
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	assert_int_equal(sigaction(SIGPIPE, &ign, &old), 0);
	assert_int_equal(sigprocmask(SIG_BLOCK, &block, &oldmask), 0);
	assert_int_equal(halo_spawn(&ctx, grep, &status, &out, NULL), 0);
	assert_int_equal(sigprocmask(SIG_SETMASK, &oldmask, NULL), 0);
	assert_int_equal(sigaction(SIGPIPE, &old, NULL), 0);
	assert_int_equal(status, 0);
	{
		unsigned long long blk = ~0ull, ig = ~0ull;

		assert_int_equal(sscanf(out, "SigBlk: %llx SigIgn: %llx", &blk, &ig), 2);
		/* Only the classic signals: glibc keeps 32 and 33 for itself. */
		assert_int_equal(blk & 0x7fffffffull, 0);
		assert_int_equal(ig & 0x7fffffffull, 0);
	}
	free(out);
}

static void test_large_output_capped(void **state)
{
	struct halo_ctx ctx = { .root_fd = -1 };
	/* 3 MiB of output: capped at 1 MiB, the rest drained. */
	const char *argv[] = { "head", "-c", "3145728", "/dev/zero", NULL };
	char *out = NULL;
	int status = -1;

	assert_int_equal(halo_spawn(&ctx, argv, &status, &out, NULL), 0);
	assert_int_equal(status, 0);
	free(out);
	{
		const char *big[] = { "seq", "1", "300000", NULL };

		assert_int_equal(halo_spawn(&ctx, big, &status, &out, NULL), 0);
		assert_int_equal(status, 0);
		assert_int_equal(strlen(out), 1u << 20);
		assert_memory_equal(out, "1\n2\n3\n", 6);
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo_stdout),
		cmocka_unit_test(test_exit_status_and_path_lookup),
		cmocka_unit_test(test_missing_program),
		cmocka_unit_test(test_stderr_captured),
		cmocka_unit_test(test_environment_minimal),
		cmocka_unit_test(test_stdin_is_dev_null),
		cmocka_unit_test(test_signal_status_and_clean_signals),
		cmocka_unit_test(test_large_output_capped),
	};

	return cmocka_run_group_tests_name("util-spawn", tests, NULL, NULL);
}
