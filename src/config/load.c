/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c: the one file that includes <libconfig.h>. It opens the config
 * once, checks owner and mode on that descriptor, reads its bytes once (the
 * digest and the parse see the same bytes), and hands the libconfig tree to
 * the schema walk through the halo_cset accessors.
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "config/digest.h"
#include "config/internal.h"

/* Larger than any sane config; keeps a mistaken -c /dev/zero-like file out. */
#define HALO_CONFIG_MAX_BYTES (4u << 20)

#define CS(s) ((config_setting_t *)(s))

enum halo_cset_kind halo_cset_kind(const struct halo_cset *s)
{
	switch (config_setting_type(CS(s))) {
	case CONFIG_TYPE_GROUP: return HALO_CSET_GROUP;
	case CONFIG_TYPE_ARRAY: return HALO_CSET_ARRAY;
	case CONFIG_TYPE_LIST: return HALO_CSET_LIST;
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return HALO_CSET_INT;
	case CONFIG_TYPE_FLOAT: return HALO_CSET_FLOAT;
	case CONFIG_TYPE_STRING: return HALO_CSET_STRING;
	default: return HALO_CSET_BOOL;
	}
}

const char *halo_cset_name(const struct halo_cset *s) { return config_setting_name(CS(s)); }

int halo_cset_line(const struct halo_cset *s)
{
	/* The root group has no line; elements of some aggregates neither. */
	for (config_setting_t *c = CS(s); c; c = config_setting_parent(c))
		if (config_setting_source_line(c))
			return (int)config_setting_source_line(c);
	return 1;
}

size_t halo_cset_len(const struct halo_cset *s)
{
	int n = config_setting_length(CS(s));

	return n > 0 ? (size_t)n : 0;
}

const struct halo_cset *halo_cset_elem(const struct halo_cset *s, size_t i)
{
	return (const struct halo_cset *)config_setting_get_elem(CS(s), (unsigned)i);
}

const struct halo_cset *halo_cset_member(const struct halo_cset *s, const char *name)
{
	return (const struct halo_cset *)config_setting_get_member(CS(s), name);
}

int64_t halo_cset_int(const struct halo_cset *s)
{
	int64_t v = 0;

	/* A loose integer ("9000"): halo_pwant let it through. */
	if (config_setting_type(CS(s)) == CONFIG_TYPE_STRING)
		return halo_loose_int(config_setting_get_string(CS(s)), &v) ? v : 0;
	return config_setting_get_int64(CS(s));
}

const char *halo_cset_string(const struct halo_cset *s)
{
	const char *v = config_setting_get_string(CS(s));

	return v ? v : "";
}

bool halo_cset_bool(const struct halo_cset *s)
{
	/* A loose boolean ("yes"): halo_pwant let it through. */
	if (config_setting_type(CS(s)) == CONFIG_TYPE_STRING)
		return halo_loose_bool(config_setting_get_string(CS(s))) == 1;
	return config_setting_get_bool(CS(s));
}

int halo_config_load_text(const char *name, const char *text, size_t len, bool loose,
			  char ***line_paths, size_t n_line_paths,
			  struct halo_config **ret, struct halo_errors *errs)
{
	struct halo_pctx p = { .file = name, .errs = errs, .loose = loose,
			       .line_paths = line_paths ? *line_paths : NULL,
			       .n_line_paths = n_line_paths };
	size_t before = errs->n;
	_cleanup_free_ int *bad_lines = NULL;
	_cleanup_config_ struct halo_config *c = NULL;
	const char *nul = memchr(text, '\0', len);
	size_t includes;
	config_t cf;

	if (nul) {
		int line = 1;

		for (const char *q = text; q < nul; q++)
			line += *q == '\n';
		halo_errors_add(errs, "%s:%d: NUL byte in the config file", name, line);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->path = strdup(name)))
		return -ENOMEM;
	halo_sha256_hex(text, len, c->digest);

	includes = halo_config_prescan(&p, text, len, &bad_lines, &p.n_bad_int_lines);
	p.bad_int_lines = bad_lines;
	if (p.oom || errs->oom)
		return -ENOMEM;
	/* An @include would make libconfig open another file, by name,
	 * unchecked: never let the parser see it. */
	if (includes)
		return -EINVAL;

	config_init(&cf);
	/* No automatic int/float conversion: a float where an int belongs
	 * is a type error. */
	config_set_options(&cf, 0);
	if (config_read_string(&cf, text) != CONFIG_TRUE) {
		const char *what = config_error_text(&cf) ? config_error_text(&cf) : "syntax error";
		int line = config_error_line(&cf);
		char key[64];

		/* libconfig does not say which name; the line usually does. */
		if (strcmp(what, "duplicate setting name") == 0 &&
		    halo_config_line_setting(text, line, key, sizeof(key)) == 1)
			halo_errors_add(errs, "%s:%d: \"%s\" is set twice in the same group",
					name, line, key);
		else
			halo_errors_add(errs, "%s:%d: %s", name, line, what);
		config_destroy(&cf);
		return -EINVAL;
	}
	halo_parse_root(&p, (const struct halo_cset *)config_root_setting(&cf), c);
	config_destroy(&cf);

	if (p.oom || errs->oom)
		return -ENOMEM;
	if (errs->n > before)
		return -EINVAL;
	if (line_paths) {
		c->line_paths = TAKE_PTR(*line_paths);
		c->n_line_paths = n_line_paths;
	}
	*ret = TAKE_PTR(c);
	return 0;
}

static int load_text(const char *name, const char *text, size_t len,
		     struct halo_config **ret, struct halo_errors *errs)
{
	return halo_config_load_text(name, text, len, false, NULL, 0, ret, errs);
}

int halo_config_load_string(const char *name, const char *text,
			    struct halo_config **ret, struct halo_errors *errs)
{
	return load_text(name, text, strlen(text), ret, errs);
}

/* Reads the whole descriptor through one FILE; NUL-terminated result. */
static int read_all(int fd, char **ret, size_t *ret_len)
{
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f = fdopen(fd, "r");
	int r = 0;

	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			if (cap > HALO_CONFIG_MAX_BYTES + 8192) {
				r = -EFBIG;
				break;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0) {
			if (ferror(f))
				r = -EIO;
			break;
		}
	}
	fclose(f); /* closes FD */
	if (r < 0)
		return r;
	if (len > HALO_CONFIG_MAX_BYTES)
		return -EFBIG;
	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

int halo_config_load(const char *path, bool check_owner,
		     struct halo_config **ret, struct halo_errors *errs)
{
	/* O_NONBLOCK: a FIFO given as -c must not hang us before fstat
	 * refuses it. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), r;

	if (fd < 0) {
		r = -errno;
		halo_errors_add(errs, "%s: cannot open the config file: %s", path, strerror(-r));
		return r;
	}
	return halo_config_load_fd(fd, path, check_owner, ret, errs);
}

int halo_config_load_fd(int fd, const char *path, bool check_owner,
			struct halo_config **ret, struct halo_errors *errs)
{
	_cleanup_free_ char *text = NULL;
	struct stat st;
	size_t len = 0;
	int r;

	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		halo_errors_add(errs, "%s: cannot stat the config file: %s", path, strerror(-r));
		return r;
	}
	r = 0;
	if (!S_ISREG(st.st_mode)) {
		halo_errors_add(errs, "%s: refusing a config file that is not a regular file", path);
		r = -EPERM;
	} else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		halo_errors_add(errs, "%s: refusing a config file writable by group or others (mode %04o)",
				path, (unsigned)(st.st_mode & 07777));
		r = -EPERM;
	} else if (check_owner && st.st_uid != 0) {
		halo_errors_add(errs, "%s: refusing a config file not owned by root (uid %u)",
				path, (unsigned)st.st_uid);
		r = -EPERM;
	}
	if (r < 0) {
		close(fd);
		return r;
	}
	r = read_all(fd, &text, &len);
	if (r < 0) {
		halo_errors_add(errs, "%s: cannot read the config file: %s", path,
				r == -EFBIG ? "larger than 4 MiB" : strerror(-r));
		return r;
	}
	return load_text(path, text, len, ret, errs);
}
