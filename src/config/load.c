/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * load.c: the entry of src/config. It opens the config once, checks owner
 * and mode on that descriptor, reads its bytes once (the parse and the
 * digest, made from the copy the config keeps, see the same bytes), has
 * them prescanned (lex.c) and parsed
 * (cset.c), and hands the tree to the schema walk (parse.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cset.h"
#include "config/digest.h"
#include "config/lex.h"
#include "config/load.h"
#include "util/rootfs.h"
#include "config/sections.h"

/* Larger than any sane config; keeps a mistaken -c /dev/zero-like file out. */
#define HALO_CONFIG_MAX_BYTES (4u << 20)

/* The line a file ends on: a final newline ends that line, it starts none
 * (what `wc -l` and an editor count). An empty file is line 1. */
static int last_line(const char *text, size_t len)
{
	int newlines = 0;

	for (size_t i = 0; i < len; i++)
		newlines += text[i] == '\n';
	return len == 0 || text[len - 1] != '\n' ? newlines + 1 : newlines;
}

/* "the group's '{'" and the like, for what lex.c found open (OPEN);
 * NULL for none. */
static const char *opener_name(char open)
{
	static const struct {
		char open;
		const char *what;
	} kinds[] = {
		{ '{', "the group's '{'" },   { '[', "the array's '['" },
		{ '(', "the list's '('" },    { '"', "the string's opening '\"'" },
		{ '*', "the comment's '/*'" },
	};

	for (size_t i = 0; open && i < ARRAY_SIZE(kinds); i++)
		if (kinds[i].open == open)
			return kinds[i].what;
	return NULL;
}

/* "NAME:LINE: the group's '{' on this line is never closed ...": OPEN is
 * what halo_config_unclosed found. True when it names one (in ERRS). */
static bool report_unclosed(const char *name, const char *text, size_t len, char open,
			    int line, struct halo_errors *errs)
{
	const char *what = opener_name(open);

	if (!what)
		return false;
	halo_errors_add(errs, "%s:%d: %s on this line is never closed (the file ends at line %d)",
			name, line, what, last_line(text, len));
	return true;
}

/* libconfig reports a closer of the wrong kind (a '}' for a '[', a ']'
 * for a '{') where the closer is: point at the line where the bracket it
 * should have closed opened, and say what closed it where. True when that
 * was the case (an error in ERRS). */
static bool syntax_error_at_mismatch(const char *name, const char *text, size_t len,
				     const struct halo_ctree_error *err, struct halo_errors *errs)
{
	int open_line = 0, close_line = 0;
	char closer = 0, open, want;

	if (strcmp(err->what, "syntax error") != 0)
		return false;
	open = halo_config_mismatched(text, len, &open_line, &closer, &close_line);
	/* libconfig stops at its first error: one before the closer is
	 * something else, and its own to say. */
	if (!opener_name(open) || close_line != err->line)
		return false;
	want = open == '{' ? '}' : open == '[' ? ']' : ')';
	if (close_line == open_line)
		halo_errors_add(errs, "%s:%d: %s is closed by '%c' on this line, not by '%c'",
				name, open_line, opener_name(open), closer, want);
	else
		halo_errors_add(errs, "%s:%d: %s on this line is closed by '%c' on line %d, not by '%c'",
				name, open_line, opener_name(open), closer, close_line, want);
	return true;
}

/* libconfig reports a group, array or list left open (or a string or
 * comment) at the end of the file, where the scanner ran out: point at the
 * line where it opened instead. True when that was the case (an error in
 * ERRS). */
static bool syntax_error_at_end(const char *name, const char *text, size_t len,
				const struct halo_ctree_error *err, struct halo_errors *errs)
{
	int scanner_end = 1, line = 0;
	char open;

	/* libconfig's line counter where its scanner ran out: one past the
	 * last newline, whether or not a line follows it. */
	for (size_t i = 0; i < len; i++)
		scanner_end += text[i] == '\n';
	if (strcmp(err->what, "syntax error") != 0 || err->line < scanner_end)
		return false;
	open = halo_config_unclosed(text, len, &line);
	return report_unclosed(name, text, len, open, line, errs);
}

/* libconfig takes the end of the file inside a block comment for the end
 * of the comment, no error: outside any group the rest of the file would
 * be dropped in silence (inside one, libconfig fails and
 * syntax_error_at_end says why). PRESCAN_OPEN: what the prescan saw; the
 * bracket scan runs only then (a good config never pays for it). True
 * when that was the case (in ERRS). */
static bool comment_open_at_end(const char *name, const char *text, size_t len,
				bool prescan_open, struct halo_errors *errs)
{
	int line = 0;

	/* Only a comment: anything else left open libconfig refuses itself. */
	if (!prescan_open || halo_config_unclosed(text, len, &line) != '*')
		return false;
	return report_unclosed(name, text, len, '*', line, errs);
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
	struct halo_ctree *tree = NULL;
	struct halo_ctree_error err;
	bool comment_open = false;
	size_t includes;
	int r;

	if (nul) {
		int line = 1;

		for (const char *q = text; q < nul; q++)
			line += *q == '\n';
		halo_errors_add(errs, "%s:%d: NUL byte in the config file", name, line);
		return -EINVAL;
	}
	/* Editors on other systems save one; libconfig sees only a stray
	 * character and says "syntax error". */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		halo_errors_add(errs, "%s:1: the file starts with a UTF-8 byte order mark, which "
				"libconfig cannot read: save it without one", name);
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c || !(c->path = strdup(name)) || !(c->text = malloc(len + 1)))
		return -ENOMEM;
	memcpy(c->text, text, len);
	c->text[len] = '\0';
	c->text_len = len;

	includes = halo_config_prescan(&p, text, len, &bad_lines, &p.n_bad_int_lines,
				       &comment_open);
	p.bad_int_lines = bad_lines;
	if (p.oom || errs->oom)
		return -ENOMEM;
	/* An @include would make libconfig open another file, by name,
	 * unchecked: never let the parser see it. */
	if (includes)
		return -EINVAL;

	r = halo_ctree_parse(text, &tree, &err);
	if (r == -EINVAL) {
		char key[64], hint_buf[160];
		const char *hint;

		/* libconfig does not say which name; the line usually does. */
		if (strcmp(err.what, "duplicate setting name") == 0 &&
		    halo_config_line_setting(text, err.line, key, sizeof(key)) == 1)
			halo_errors_add(errs, "%s:%d: \"%s\" is set twice in the same group",
					name, err.line, key);
		else if (syntax_error_at_mismatch(name, text, len, &err, errs) ||
			 syntax_error_at_end(name, text, len, &err, errs))
			;
		else if (strcmp(err.what, "syntax error") == 0 &&
			 (hint = halo_config_syntax_hint(text, err.line, hint_buf, sizeof(hint_buf))))
			halo_errors_add(errs, "%s:%d: syntax error: %s", name, err.line, hint);
		else
			halo_errors_add(errs, "%s:%d: %s", name, err.line, err.what);
		return r;
	}
	if (r < 0)
		return r;
	if (comment_open_at_end(name, text, len, comment_open, errs)) {
		halo_ctree_free(tree);
		return -EINVAL;
	}
	halo_parse_root(&p, halo_ctree_root(tree), c);
	halo_ctree_free(tree);

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

int halo_config_file_check(const struct stat *st, const char *path, const char *what,
			   bool check_owner, struct halo_errors *errs)
{
	const char *a = strchr("aeiou", what[0]) ? "an" : "a";

	if (!S_ISREG(st->st_mode)) {
		halo_errors_add(errs, "%s: %s, not a regular file: refused as the %s", path,
				halo_file_kind(st->st_mode), what);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		halo_errors_add(errs, "%s: refusing %s %s writable by group or others (mode %04o)",
				path, a, what, (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	if (check_owner && st->st_uid != 0) {
		halo_errors_add(errs, "%s: refusing %s %s not owned by root (uid %u)", path, a, what,
				(unsigned)st->st_uid);
		return -EPERM;
	}
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
	r = halo_config_file_check(&st, path, "config file", check_owner, errs);
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

const char *halo_config_digest(const struct halo_config *cfg, char ret[65])
{
	ret[0] = '\0';
	if (cfg->text)
		halo_sha256_hex(cfg->text, cfg->text_len, ret);
	return ret;
}
