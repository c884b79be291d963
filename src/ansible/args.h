/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args.h: Ansible's binary-module protocol, the input side. Ansible copies
 * a JSON object of the task's parameters to the node and runs
 * `halo-provision ARGS_FILE`. The parameters become the command line the
 * same run would have had (so every option is checked by cli.c, with its
 * messages), plus the config given inline. Pure: prints nothing.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* json-c stays inside the files that include it. */
struct json_object;

struct halo_ansible_args {
	char *config;             /* "config": a path on the node, as -c */
	char *config_text;        /* "config_text": libconfig text */
	struct json_object *config_data; /* "config_data": the config as an object (owned) */
	char *only;               /* "only": "a,b" (a list is joined); "" or []: an error */
	char *root, *netns, *kernel_release, *interface;
	char *wait;               /* "wait": seconds, a number or a string */
	bool revert;              /* "revert" */
	bool check_mode;          /* "_ansible_check_mode": dry-run */
	bool diff;                /* "_ansible_diff": a "diff" member */
	struct stat st;           /* the args file, as it was read: its owner and
				   * mode are held to the config file's rule */
};

/* Whether a lone command-line argument is an args file: a regular file
 * (a symlink followed) whose first non-blank byte is '{', or a FIFO,
 * device or socket (never opened here), which halo_ansible_args_load
 * then refuses in the module's answer. Anything else (a directory, a
 * path that is not there, another regular file) keeps the command line's
 * own usage error. */
bool halo_ansible_is_args_file(const char *path);

/* Reads and parses the args file at PATH: one that is not a regular file
 * is refused before it is opened to be read ("PATH: a FIFO, not a regular
 * file: refused as the args file"). 0 with *RET filled, -EINVAL with
 * *RET_ERROR one line (caller frees; NULL on ENOMEM), or -errno. Whatever
 * it returns, *RET holds what was parsed so far (check mode and diff are
 * read first, so even a failed run answers in the right mode): free it
 * with halo_ansible_args_free. */
int halo_ansible_args_load(const char *path, struct halo_ansible_args *ret,
			   char **ret_error);
/* The same on TEXT (LEN bytes). */
int halo_ansible_args_parse(const char *text, size_t len, struct halo_ansible_args *ret,
			    char **ret_error);

/* The command line these parameters mean: ARGV[0] "halo-provision",
 * NULL-terminated; config_text and config_data are not in it (main loads
 * them). Caller frees with halo_strv_free. 0 or -ENOMEM. */
int halo_ansible_args_argv(const struct halo_ansible_args *a, char ***ret_argv, int *ret_argc);

void halo_ansible_args_free(struct halo_ansible_args *a);

/* Points descriptor 1 at /dev/null for the rest of the run and returns the
 * real standard output as a stream: Ansible reads exactly one JSON object
 * there, and nothing else (a library, a program a subsystem spawns) can
 * add a byte to it. NULL with errno set on failure. */
FILE *halo_ansible_take_stdout(void);

/* Loose booleans as Ansible sends them: JSON true/false or "true", "yes",
 * "false", "no" (any case). 1 true, 0 false, -1 anything else. */
int halo_ansible_loose_bool(const struct json_object *v);
