/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-ansible-args.c: Ansible's args file → parameters → the command
 * line (the binary-module protocol's input side): loose values, Ansible's
 * own "_ansible_*" keys, and every bad input with its one-line message. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ansible/args.h"
#include "cli.h"
#include "util/strv.h"

/* Parses TEXT; returns the error ("" when none) and fills *A. */
static char *parse(const char *text, struct halo_ansible_args *a)
{
	char *error = NULL;
	int r = halo_ansible_args_parse(text, strlen(text), a, &error);

	if (r == 0) {
		assert_null(error);
		return strdup("");
	}
	assert_int_equal(r, -EINVAL);
	assert_non_null(error);
	assert_null(strchr(error, '\n'));
	return error;
}

#define assert_args_error(text, want)                                          \
	do {                                                                   \
		struct halo_ansible_args a_ = { 0 };                           \
		char *got_ = parse(text, &a_);                                 \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
		halo_ansible_args_free(&a_);                                   \
	} while (0)

/* The command line the parameters make, joined by spaces. */
static char *argv_of(const char *text)
{
	struct halo_ansible_args a = { 0 };
	char *err = parse(text, &a), **argv = NULL;
	struct halo_buf b = { 0 };
	int argc = 0;

	assert_string_equal(err, "");
	free(err);
	assert_int_equal(halo_ansible_args_argv(&a, &argv, &argc), 0);
	assert_int_equal(argc, (int)halo_strv_len(argv));
	for (int i = 0; i < argc; i++)
		halo_buf_printf(&b, "%s%s", i ? " " : "", argv[i]);
	halo_strv_free(argv);
	halo_ansible_args_free(&a);
	return halo_buf_steal(&b);
}

#define assert_argv(text, want)                                                \
	do {                                                                   \
		char *got_ = argv_of(text);                                    \
		assert_non_null(got_);                                         \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void params_to_command_line(void **state)
{
	(void)state;
	assert_argv("{}", "halo-provision");
	assert_argv("{\"config\": \"/etc/x.conf\", \"root\": \"/srv/n1\", \"netns\": \"n1\","
		    " \"kernel_release\": \"6.18.4\", \"interface\": \"rdma0\", \"wait\": 30}",
		    "halo-provision --config=/etc/x.conf --root=/srv/n1 --netns=n1"
		    " --kernel-release=6.18.4 --interface=rdma0 --wait=30");
	assert_argv("{\"wait\": \"30\"}", "halo-provision --wait=30");
	assert_argv("{\"only\": \"links,roce\"}", "halo-provision --only=links,roce");
	assert_argv("{\"only\": [\"links\", \"roce\"]}", "halo-provision --only=links,roce");
	assert_argv("{\"_ansible_check_mode\": true}", "halo-provision --dry-run");
	assert_argv("{\"_ansible_check_mode\": \"yes\", \"revert\": \"true\"}",
		    "halo-provision --dry-run --revert");
	assert_argv("{\"revert\": false, \"_ansible_check_mode\": \"no\"}", "halo-provision");
	/* Unset as Ansible sends it: null or "" (but an empty "only" is an
	 * error: every_option below). */
	assert_argv("{\"config\": null, \"root\": \"\", \"only\": null, \"revert\": \"\"}",
		    "halo-provision");
	/* A value that starts with "-" stays the option's value. */
	assert_argv("{\"root\": \"-x\"}", "halo-provision --root=-x");
}

static void ansible_internal_params(void **state)
{
	struct halo_ansible_args a = { 0 };
	char *err;

	(void)state;
	err = parse("{\"_ansible_check_mode\": false, \"_ansible_diff\": true,"
		    " \"_ansible_verbosity\": 3, \"_ansible_module_name\": \"halo_provision\","
		    " \"_ansible_tmpdir\": null, \"_ansible_remote_tmp\": [1]}", &a);
	assert_string_equal(err, "");
	assert_false(a.check_mode);
	assert_true(a.diff);
	free(err);
	halo_ansible_args_free(&a);
	assert_args_error("{\"_ansible_diff\": \"sometimes\"}",
			  "parameter _ansible_diff: \"sometimes\" is not a boolean (true, false, yes, no)");
}

static void inline_configs(void **state)
{
	struct halo_ansible_args a = { 0 };
	char *err;

	(void)state;
	err = parse("{\"config_text\": \"version = 1;\"}", &a);
	assert_string_equal(err, "");
	assert_string_equal(a.config_text, "version = 1;");
	free(err);
	halo_ansible_args_free(&a);
	err = parse("{\"config_data\": {\"version\": 1}}", &a);
	assert_string_equal(err, "");
	assert_non_null(a.config_data);
	free(err);
	halo_ansible_args_free(&a);
	/* config_data is not on the command line: main loads it. */
	assert_argv("{\"config_data\": {}}", "halo-provision");
	assert_args_error("{\"config\": \"/a\", \"config_text\": \"version = 1;\"}",
			  "parameters are mutually exclusive: config and config_text"
			  " (give one of config, config_text, config_data)");
	assert_args_error("{\"config_data\": {}, \"config_text\": \"x\"}",
			  "parameters are mutually exclusive: config_text and config_data"
			  " (give one of config, config_text, config_data)");
	/* "" is unset, so it does not collide. */
	assert_args_error("{\"config\": \"\", \"config_text\": \"version = 1;\"}", "");
	assert_args_error("{\"config_data\": \"version = 1;\"}",
			  "parameter config_data: expected an object (a mapping), got a string");
	assert_args_error("{\"config_data\": [1]}",
			  "parameter config_data: expected an object (a mapping), got a list");
}

static void bad_params(void **state)
{
	(void)state;
	assert_args_error("{\"confg\": \"/a\"}",
			  "unsupported parameter \"confg\" (did you mean \"config\"?)");
	assert_args_error("{\"state\": \"present\"}", "unsupported parameter \"state\"");
	assert_args_error("{\"root\": 5}", "parameter root: expected a string, got an integer");
	assert_args_error("{\"root\": [\"/a\"]}", "parameter root: expected a string, got a list");
	assert_args_error("{\"netns\": true}", "parameter netns: expected a string, got a boolean");
	assert_args_error("{\"revert\": \"maybe\"}",
			  "parameter revert: \"maybe\" is not a boolean (true, false, yes, no)");
	assert_args_error("{\"revert\": 1}", "parameter revert: expected a boolean, got an integer");
	assert_args_error("{\"wait\": 1.5}",
			  "parameter wait: expected whole seconds (a number or its text), got a float");
	assert_args_error("{\"only\": [\"links\", 3]}",
			  "parameter only: expected a list of strings, got an integer in it");
	assert_args_error("{\"root\": \"a\\u0000b\"}", "parameter root: NUL byte in the value");
}

static void bad_files(void **state)
{
	(void)state;
	assert_args_error("", "the args file is not JSON: unexpected end of data");
	assert_args_error("{\"root\": ", "the args file is not JSON: unexpected end of data");
	assert_args_error("{} {}", "the args file is not JSON: unexpected character");
	assert_args_error("[1]", "the args file is not a JSON object: a list");
	assert_args_error("{root: 1}", "the args file is not JSON: quoted object property name expected");
}

/* The options are checked by cli.c, with the command line's messages. */
static void options_checked_like_the_command_line(void **state)
{
	static const struct {
		const char *json, *error;
	} cases[] = {
		{ "{\"wait\": \"soon\"}", "--wait needs whole seconds from 0 to 86400, not 'soon'" },
		{ "{\"only\": \"links,bogus\"}", "unknown subsystem 'bogus' in --only (known: boot, modules, links, roce, rdma, files, storage, ready)" },
		{ "{\"interface\": \"a/b\"}", "invalid interface name 'a/b'" },
		{ "{\"netns\": \"..\"}", "invalid network namespace name '..'" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct halo_ansible_args a = { 0 };
		char *err = parse(cases[i].json, &a), **argv = NULL, *cli_error = NULL;
		struct halo_cli cli;
		int argc;

		assert_string_equal(err, "");
		free(err);
		assert_int_equal(halo_ansible_args_argv(&a, &argv, &argc), 0);
		assert_int_equal(halo_cli_parse(argc, argv, &cli, &cli_error), -EINVAL);
		assert_string_equal(cli_error, cases[i].error);
		free(cli_error);
		halo_strv_free(argv);
		halo_ansible_args_free(&a);
	}
}

#define KNOWN "boot, modules, links, roce, rdma, files, storage, ready"
#define EMPTY_ONLY "parameter only: empty: give one or more of " KNOWN \
	" (leave it out for every subsystem)"

/* Every option with an empty value, a value of the wrong type and a value
 * the tool does not know, and what each means: the command line it makes
 * (ARGV), or the one-line error of the args file (ARGS) or of the command
 * line (CLI), which checks the values as it does its own. Values only the
 * run can find unknown (a config path, a root, a namespace, a kernel that
 * do not exist, a config that does not validate) make a command line
 * here; tests/integration/ansible-module.sh runs them. */
static void every_option(void **state)
{
	enum { ARGV, ARGS, CLI };
	static const struct {
		const char *json;
		int kind;
		const char *want;
	} cases[] = {
		{ "{\"config\": \"\"}", ARGV, "halo-provision" },
		{ "{\"config\": [\"/a\"]}", ARGS, "parameter config: expected a string, got a list" },
		{ "{\"config\": \"/nonexistent/halo.conf\"}", ARGV, "halo-provision --config=/nonexistent/halo.conf" },
		{ "{\"config_text\": \"\"}", ARGV, "halo-provision" },
		{ "{\"config_text\": {}}", ARGS, "parameter config_text: expected a string, got an object" },
		{ "{\"config_text\": \"bogus = 1;\"}", ARGV, "halo-provision" },
		{ "{\"config_data\": \"\"}", ARGV, "halo-provision" },
		{ "{\"config_data\": 9000}", ARGS, "parameter config_data: expected an object (a mapping), got an integer" },
		{ "{\"config_data\": {\"bogus\": 1}}", ARGV, "halo-provision" },
		{ "{\"only\": \"\"}", ARGS, EMPTY_ONLY },
		{ "{\"only\": []}", ARGS, EMPTY_ONLY },
		{ "{\"only\": [\"\", \"\"]}", ARGS, EMPTY_ONLY },
		{ "{\"only\": 3}", ARGS, "parameter only: expected a string, got an integer" },
		{ "{\"only\": {\"links\": true}}", ARGS, "parameter only: expected a string, got an object" },
		{ "{\"only\": \"bogus\"}", CLI, "unknown subsystem 'bogus' in --only (known: " KNOWN ")" },
		{ "{\"only\": [\"links\", \"\"]}", CLI, "unknown subsystem '' in --only (known: " KNOWN ")" },
		{ "{\"root\": \"\"}", ARGV, "halo-provision" },
		{ "{\"root\": 5}", ARGS, "parameter root: expected a string, got an integer" },
		{ "{\"root\": \"/nonexistent\"}", ARGV, "halo-provision --root=/nonexistent" },
		{ "{\"netns\": \"\"}", ARGV, "halo-provision" },
		{ "{\"netns\": true}", ARGS, "parameter netns: expected a string, got a boolean" },
		{ "{\"netns\": \"a/b\"}", CLI, "invalid network namespace name 'a/b'" },
		{ "{\"netns\": \"halo-no-such-ns\"}", ARGV, "halo-provision --netns=halo-no-such-ns" },
		{ "{\"kernel_release\": \"\"}", ARGV, "halo-provision" },
		{ "{\"kernel_release\": 6.1}", ARGS, "parameter kernel_release: expected a string, got a float" },
		{ "{\"kernel_release\": \"..\"}", CLI, "invalid kernel release '..'" },
		{ "{\"kernel_release\": \"0.0.1-none\"}", ARGV, "halo-provision --kernel-release=0.0.1-none" },
		{ "{\"revert\": \"\"}", ARGV, "halo-provision" },
		{ "{\"revert\": [true]}", ARGS, "parameter revert: expected a boolean, got a list" },
		{ "{\"revert\": \"maybe\"}", ARGS, "parameter revert: \"maybe\" is not a boolean (true, false, yes, no)" },
		{ "{\"interface\": \"\"}", ARGV, "halo-provision" },
		{ "{\"interface\": 0}", ARGS, "parameter interface: expected a string, got an integer" },
		{ "{\"interface\": \"a:b\"}", CLI, "invalid interface name 'a:b'" },
		{ "{\"interface\": \"nosuch0\"}", ARGV, "halo-provision --interface=nosuch0" },
		{ "{\"wait\": \"\"}", ARGV, "halo-provision" },
		{ "{\"wait\": true}", ARGS, "parameter wait: expected whole seconds (a number or its text), got a boolean" },
		{ "{\"wait\": -1}", CLI, "--wait needs whole seconds from 0 to 86400, not '-1'" },
		{ "{\"wait\": \"soon\"}", CLI, "--wait needs whole seconds from 0 to 86400, not 'soon'" },
		{ "{\"_ansible_check_mode\": \"\"}", ARGV, "halo-provision" },
		{ "{\"_ansible_check_mode\": 1}", ARGS, "parameter _ansible_check_mode: expected a boolean, got an integer" },
		{ "{\"_ansible_check_mode\": \"perhaps\"}", ARGS,
		  "parameter _ansible_check_mode: \"perhaps\" is not a boolean (true, false, yes, no)" },
		{ "{\"_ansible_diff\": \"\"}", ARGV, "halo-provision" },
		{ "{\"_ansible_diff\": {}}", ARGS, "parameter _ansible_diff: expected a boolean, got an object" },
		{ "{\"_ansible_diff\": \"sometimes\"}", ARGS,
		  "parameter _ansible_diff: \"sometimes\" is not a boolean (true, false, yes, no)" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct halo_ansible_args a = { 0 };
		char *err = parse(cases[i].json, &a), **argv = NULL, *got = NULL;
		struct halo_cli cli;
		int argc;

		if (cases[i].kind == ARGS) {
			assert_string_equal(err, cases[i].want);
		} else {
			assert_string_equal(err, "");
			assert_int_equal(halo_ansible_args_argv(&a, &argv, &argc), 0);
			if (cases[i].kind == CLI) {
				assert_int_equal(halo_cli_parse(argc, argv, &cli, &got), -EINVAL);
				assert_string_equal(got, cases[i].want);
			} else {
				struct halo_buf b = { 0 };

				assert_int_equal(halo_cli_parse(argc, argv, &cli, &got), 0);
				for (int k = 0; k < argc; k++)
					halo_buf_printf(&b, "%s%s", k ? " " : "", argv[k]);
				free(got);
				got = halo_buf_steal(&b);
				assert_string_equal(got, cases[i].want);
			}
		}
		free(got);
		free(err);
		halo_strv_free(argv);
		halo_ansible_args_free(&a);
	}
}

static void args_file_detection(void **state)
{
	char dir[] = "/tmp/test-ansible-args.XXXXXX", path[128], fifo[128], want[256];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/args", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("  \n\t{\"_ansible_check_mode\": true}", f);
	fclose(f);
	assert_true(halo_ansible_is_args_file(path));
	f = fopen(path, "w");
	fputs("version = 1;", f);
	fclose(f);
	assert_false(halo_ansible_is_args_file(path));
	f = fopen(path, "w");
	fclose(f);
	assert_false(halo_ansible_is_args_file(path)); /* empty */
	assert_false(halo_ansible_is_args_file(dir));  /* a directory */
	assert_false(halo_ansible_is_args_file("/nonexistent/args"));
	assert_false(halo_ansible_is_args_file("--check"));
	assert_false(halo_ansible_is_args_file(""));
	/* A FIFO or a device is taken for the args file, never opened (a
	 * FIFO nobody writes would block the open), and loading it refuses
	 * it before anything is read. */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_true(halo_ansible_is_args_file(fifo));
	assert_true(halo_ansible_is_args_file("/dev/null"));
	{
		struct halo_ansible_args a = { 0 };
		char *err = NULL;

		assert_int_equal(halo_ansible_args_load(fifo, &a, &err), -EINVAL);
		assert_true(S_ISFIFO(a.st.st_mode));
		snprintf(want, sizeof(want), "%s: a FIFO, not a regular file: refused as the args file", fifo);
		assert_string_equal(err, want);
		free(err);
		assert_int_equal(halo_ansible_args_load("/dev/null", &a, &err), -EINVAL);
		assert_string_equal(err, "/dev/null: a character device, not a regular file: refused as the args file");
		free(err);
		halo_ansible_args_free(&a);
	}
	unlink(fifo);
	/* Loading a file that vanished is an error with its name. */
	{
		struct halo_ansible_args a = { 0 };
		char *err = NULL;

		assert_int_equal(halo_ansible_args_load("/nonexistent/args", &a, &err), -EINVAL);
		assert_string_equal(err, "cannot open the args file /nonexistent/args: No such file or directory");
		free(err);
		assert_int_equal(halo_ansible_args_load(path, &a, &err), -EINVAL);
		assert_non_null(strstr(err, "is empty"));
		free(err);
		halo_ansible_args_free(&a);
	}
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(params_to_command_line),
		cmocka_unit_test(ansible_internal_params),
		cmocka_unit_test(inline_configs),
		cmocka_unit_test(bad_params),
		cmocka_unit_test(bad_files),
		cmocka_unit_test(options_checked_like_the_command_line),
		cmocka_unit_test(every_option),
		cmocka_unit_test(args_file_detection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
