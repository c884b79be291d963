/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * args.c: the args file Ansible writes for a binary module (a JSON object
 * of the task's parameters and its own "_ansible_*" ones) → struct
 * halo_ansible_args. Values arrive loosely typed (YAML vars, templating):
 * a string where a number or boolean is meant, "" or null for unset. The
 * options become a command line (halo_ansible_args_argv), so cli.c checks
 * them with the messages the command line has.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ansible/args.h"
#include "subsystems.h"
#include "util/rootfs.h"
#include "util/strv.h"

/* An args file is small; a bigger one is not Ansible's. */
#define ARGS_MAX_BYTES (4u << 20)

static const char *const params[] = {
	"config", "config_text", "config_data", "only", "root", "netns",
	"kernel_release", "revert", "interface", "wait", NULL,
};

bool halo_ansible_is_args_file(const char *path)
{
	_cleanup_close_ int pfd = -1, fd = -1;
	struct stat st;
	char buf[256];
	ssize_t n;

	if (!path[0] || path[0] == '-')
		return false;
	/* O_PATH: judged on the inode, never opened as what it is (a FIFO
	 * would block an open, a device may act on one). */
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (pfd < 0 || fstat(pfd, &st) < 0 || S_ISDIR(st.st_mode))
		return false;
	/* A FIFO, device or socket named alone is meant as the args file:
	 * the mode refuses it in its answer (halo_ansible_args_load). */
	if (!S_ISREG(st.st_mode))
		return true;
	fd = halo_fd_reopen(pfd, O_RDONLY | O_NOCTTY);
	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\n' || buf[i] == '\r')
				continue;
			return buf[i] == '{';
		}
	return false;
}

int halo_ansible_loose_bool(const struct json_object *v)
{
	static const char *const yes[] = { "true", "yes", NULL }, *const no[] = { "false", "no", NULL };
	const char *s;

	if (json_object_is_type(v, json_type_boolean))
		return json_object_get_boolean(v) ? 1 : 0;
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string((struct json_object *)v);
	for (size_t i = 0; yes[i]; i++) {
		if (strcasecmp(s, yes[i]) == 0)
			return 1;
		if (strcasecmp(s, no[i]) == 0)
			return 0;
	}
	return -1;
}

/* JSON's name for V's type, for messages. */
static const char *type_name(const struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean: return "a boolean";
	case json_type_double: return "a float";
	case json_type_int: return "an integer";
	case json_type_object: return "an object";
	case json_type_array: return "a list";
	case json_type_string: return "a string";
	default: return "null";
	}
}

/* Unset as Ansible sends it: null (an option not given) or "". */
static bool is_unset(const struct json_object *v)
{
	return !v || (json_object_is_type(v, json_type_string) &&
		      json_object_get_string_len(v) == 0);
}

static int fail(char **ret_error, const char *fmt, ...) _printf_(2, 3);
static int fail(char **ret_error, const char *fmt, ...)
{
	struct halo_buf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	halo_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	*ret_error = halo_buf_steal(&b);
	return *ret_error ? -EINVAL : -ENOMEM;
}

/* A string parameter. */
static int get_string(const char *name, struct json_object *v, char **ret, char **ret_error)
{
	const char *s;

	if (is_unset(v))
		return 0;
	if (!json_object_is_type(v, json_type_string))
		return fail(ret_error, "parameter %s: expected a string, got %s", name, type_name(v));
	s = json_object_get_string(v);
	if (strlen(s) != (size_t)json_object_get_string_len(v))
		return fail(ret_error, "parameter %s: NUL byte in the value", name);
	*ret = strdup(s);
	return *ret ? 0 : -ENOMEM;
}

/* "wait": seconds as a number or its decimal text (cli.c checks it). */
static int get_wait(struct json_object *v, char **ret, char **ret_error)
{
	if (!json_object_is_type(v, json_type_int) && !json_object_is_type(v, json_type_string))
		return fail(ret_error, "parameter wait: expected whole seconds (a number or its text), got %s",
			    type_name(v));
	if (!json_object_is_type(v, json_type_int))
		return get_string("wait", v, ret, ret_error);
	*ret = halo_strdup_printf("%" PRId64, json_object_get_int64(v));
	return *ret ? 0 : -ENOMEM;
}

static int get_bool(const char *name, struct json_object *v, bool *ret, char **ret_error)
{
	int b;

	if (is_unset(v))
		return 0;
	b = halo_ansible_loose_bool(v);
	if (b < 0) {
		if (json_object_is_type(v, json_type_string))
			return fail(ret_error, "parameter %s: \"%s\" is not a boolean (true, false, yes, no)",
				    name, json_object_get_string(v));
		return fail(ret_error, "parameter %s: expected a boolean, got %s", name, type_name(v));
	}
	*ret = b;
	return 0;
}

/* "only" given but naming nothing ("", [], [""]): an error, as the
 * command line's --only '' is. Unset means every subsystem; an empty
 * value (a template that rendered nothing) must not silently become
 * that. */
static int empty_only(char **ret_error)
{
	struct halo_buf b = { 0 };
	_cleanup_free_ char *names = NULL;

	for (size_t i = 0; i < halo_registry.n; i++)
		halo_buf_printf(&b, "%s%s", i ? ", " : "", halo_registry.subsystems[i].name);
	names = halo_buf_steal(&b);
	if (!names)
		return -ENOMEM;
	return fail(ret_error, "parameter only: empty: give one or more of %s (leave it out for every subsystem)",
		    names);
}

/* "only": "a,b" or a list of names, joined for --only (cli.c checks
 * each name). */
static int get_only(struct json_object *v, char **ret, char **ret_error)
{
	struct halo_buf b = { 0 };
	bool named = false;

	if (json_object_is_type(v, json_type_string) && json_object_get_string_len(v) == 0)
		return empty_only(ret_error);
	if (!json_object_is_type(v, json_type_array))
		return get_string("only", v, ret, ret_error);
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		struct json_object *e = json_object_array_get_idx(v, i);

		if (!json_object_is_type(e, json_type_string)) {
			halo_buf_free(&b);
			return fail(ret_error, "parameter only: expected a list of strings, got %s in it",
				    type_name(e));
		}
		halo_buf_printf(&b, "%s%s", i ? "," : "", json_object_get_string(e));
		named |= json_object_get_string_len(e) > 0;
	}
	if (!named) {
		halo_buf_free(&b);
		return empty_only(ret_error);
	}
	*ret = halo_buf_steal(&b);
	return *ret ? 0 : -ENOMEM;
}

/* The "_ansible_*" parameters this module honours; the others (verbosity,
 * tmpdir, version, ...) are Ansible's business. */
static int get_internal(const char *key, struct json_object *v, struct halo_ansible_args *a,
			char **ret_error)
{
	if (strcmp(key, "_ansible_check_mode") == 0)
		return get_bool(key, v, &a->check_mode, ret_error);
	if (strcmp(key, "_ansible_diff") == 0)
		return get_bool(key, v, &a->diff, ret_error);
	return 0;
}

static int get_param(const char *key, struct json_object *v, struct halo_ansible_args *a,
		     char **ret_error)
{
	if (strcmp(key, "config") == 0)
		return get_string(key, v, &a->config, ret_error);
	if (strcmp(key, "config_text") == 0)
		return get_string(key, v, &a->config_text, ret_error);
	if (strcmp(key, "config_data") == 0) {
		if (is_unset(v))
			return 0;
		if (!json_object_is_type(v, json_type_object))
			return fail(ret_error, "parameter %s: expected an object (a mapping), got %s",
				    key, type_name(v));
		a->config_data = json_object_get(v);
		return 0;
	}
	if (strcmp(key, "only") == 0)
		return v ? get_only(v, &a->only, ret_error) : 0;
	if (strcmp(key, "root") == 0)
		return get_string(key, v, &a->root, ret_error);
	if (strcmp(key, "netns") == 0)
		return get_string(key, v, &a->netns, ret_error);
	if (strcmp(key, "kernel_release") == 0)
		return get_string(key, v, &a->kernel_release, ret_error);
	if (strcmp(key, "interface") == 0)
		return get_string(key, v, &a->interface, ret_error);
	if (strcmp(key, "wait") == 0)
		return is_unset(v) ? 0 : get_wait(v, &a->wait, ret_error);
	if (strcmp(key, "revert") == 0)
		return get_bool(key, v, &a->revert, ret_error);
	return -ENOENT;
}

int halo_ansible_args_parse(const char *text, size_t len, struct halo_ansible_args *ret,
			    char **ret_error)
{
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error jerr;
	const char *given[3] = { NULL };
	size_t n_given = 0;
	int r = 0;

	*ret_error = NULL;
	if (memchr(text, '\0', len))
		return fail(ret_error, "the args file is not JSON: NUL byte in it");
	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	/* Strict: JSON as Ansible writes it, no single quotes or comments. */
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	/* Nothing may follow the one object but blanks. */
	if (root && jerr == json_tokener_success) {
		size_t off = json_tokener_get_parse_end(tok);

		while (off < len && strchr(" \t\r\n", text[off]))
			off++;
		if (off < len)
			jerr = json_tokener_error_parse_unexpected;
	} else if (jerr == json_tokener_continue) {
		jerr = json_tokener_error_parse_eof;
	}
	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success) {
		json_object_put(root);
		return fail(ret_error, "the args file is not JSON: %s",
			    json_tokener_error_desc(jerr));
	}
	if (!json_object_is_type(root, json_type_object)) {
		r = fail(ret_error, "the args file is not a JSON object: %s", type_name(root));
		json_object_put(root);
		return r;
	}
	/* Ansible's own parameters first: a failed run still answers in
	 * check mode when it was asked for. */
	json_object_object_foreach(root, k0, v0)
		if (strncmp(k0, "_ansible_", 9) == 0 && r == 0)
			r = get_internal(k0, v0, ret, ret_error);
	json_object_object_foreach(root, key, v) {
		const char *hint;

		if (r < 0)
			break;
		if (strncmp(key, "_ansible_", 9) == 0)
			continue;
		r = get_param(key, v, ret, ret_error);
		if (r == -ENOENT) {
			hint = halo_suggest(key, params);
			r = hint ? fail(ret_error, "unsupported parameter \"%s\" (did you mean \"%s\"?)", key, hint) :
				   fail(ret_error, "unsupported parameter \"%s\"", key);
		}
	}
	json_object_put(root);
	if (r < 0)
		return r;
	if (ret->config)
		given[n_given++] = "config";
	if (ret->config_text)
		given[n_given++] = "config_text";
	if (ret->config_data)
		given[n_given++] = "config_data";
	if (n_given > 1)
		return fail(ret_error, "parameters are mutually exclusive: %s and %s (give one of config, config_text, config_data)",
			    given[0], given[1]);
	return 0;
}

int halo_ansible_args_load(const char *path, struct halo_ansible_args *ret, char **ret_error)
{
	/* O_PATH first: what the path names is judged before it is opened
	 * to be read (a FIFO would block that open or the read, a device
	 * may act on an open), then the same inode is read, never the path
	 * again. */
	_cleanup_close_ int pfd = open(path, O_PATH | O_CLOEXEC), fd = -1;
	struct halo_buf b = { 0 };
	_cleanup_free_ char *text = NULL;
	char chunk[8192];
	ssize_t n;
	size_t len;

	*ret_error = NULL;
	if (pfd < 0 || fstat(pfd, &ret->st) < 0)
		return fail(ret_error, "cannot open the args file %s: %s", path, strerror(errno));
	/* The words of the config file's rule (halo_config_file_check),
	 * which holds the args file to the rest of it after the load. */
	if (!S_ISREG(ret->st.st_mode))
		return fail(ret_error, "%s: %s, not a regular file: refused as the args file", path,
			    halo_file_kind(ret->st.st_mode));
	fd = halo_fd_reopen(pfd, O_RDONLY | O_NOCTTY);
	if (fd < 0)
		return fail(ret_error, "cannot open the args file %s: %s", path, strerror(-fd));
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		halo_buf_append(&b, chunk, (size_t)n);
		if (b.len > ARGS_MAX_BYTES) {
			halo_buf_free(&b);
			return fail(ret_error, "the args file %s is larger than 4 MiB", path);
		}
	}
	if (n < 0) {
		int e = errno;

		halo_buf_free(&b);
		return fail(ret_error, "cannot read the args file %s: %s", path, strerror(e));
	}
	len = b.len;
	if (len == 0) {
		halo_buf_free(&b);
		return fail(ret_error, "the args file %s is empty", path);
	}
	text = halo_buf_steal(&b);
	if (!text)
		return -ENOMEM;
	return halo_ansible_args_parse(text, len, ret, ret_error);
}

static int push_opt(char ***argv, const char *opt, const char *value)
{
	_cleanup_free_ char *s = NULL;

	if (!value)
		return 0;
	s = halo_strdup_printf("--%s=%s", opt, value);
	return s ? halo_strv_push(argv, s) : -ENOMEM;
}

int halo_ansible_args_argv(const struct halo_ansible_args *a, char ***ret_argv, int *ret_argc)
{
	_cleanup_strv_free_ char **argv = NULL;

	if (halo_strv_push(&argv, "halo-provision") < 0 ||
	    (a->check_mode && halo_strv_push(&argv, "--dry-run") < 0) ||
	    (a->revert && halo_strv_push(&argv, "--revert") < 0) ||
	    push_opt(&argv, "config", a->config) < 0 ||
	    push_opt(&argv, "root", a->root) < 0 ||
	    push_opt(&argv, "netns", a->netns) < 0 ||
	    push_opt(&argv, "kernel-release", a->kernel_release) < 0 ||
	    push_opt(&argv, "only", a->only) < 0 ||
	    push_opt(&argv, "interface", a->interface) < 0 ||
	    push_opt(&argv, "wait", a->wait) < 0)
		return -ENOMEM;
	*ret_argc = (int)halo_strv_len(argv);
	*ret_argv = TAKE_PTR(argv);
	return 0;
}

void halo_ansible_args_free(struct halo_ansible_args *a)
{
	free(a->config);
	free(a->config_text);
	json_object_put(a->config_data);
	free(a->only);
	free(a->root);
	free(a->netns);
	free(a->kernel_release);
	free(a->interface);
	free(a->wait);
	*a = (struct halo_ansible_args){ 0 };
}
