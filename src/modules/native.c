/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * native.c: a module lookup answered from the root's files directly, with
 * no libkmod: the dependency line from modules.dep.bin (depindex.c), the
 * parameters from the module's own .modinfo section (elfsection.c), the
 * blacklist and soft dependencies from modprobe.d (blacklist.c).
 *
 * Opening libkmod costs more than everything else a --check does: the
 * dynamic loader maps and relocates libcrypto, zstd and lzma for it. So
 * the common case, a module of a well-formed tree (plain, or compressed
 * with zstd or xz: unpack.c), is read here, and every other case is left
 * to libkmod (kmod.c) by -EAGAIN: a .ko.gz, a compressed module that
 * unpack.c does not read exactly as libkmod does, a module the index does
 * not list (built in, unknown, an alias), modprobe.d directives that
 * change what a name means (alias, install, remove), soft dependencies,
 * and any file that is missing, refused or malformed, so that errors keep
 * libkmod's verdict and the view's (view.c) explanation. What this
 * returns is what halo_kmod_lookup returns for the same module
 * (tests/unit/test-modules-native.c compares the two on every module of
 * plain, .ko.zst and .ko.xz fixture trees).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "modules/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

struct halo_modnative {
	const struct halo_ctx *ctx;
	char *moddir;      /* /lib/modules/<release>, inside the root */
	const void *depidx; /* modules.dep.bin, the run's map (modindex.c) */
	size_t depidx_len;
	char **blacklist;  /* modprobe.d, modules.softdep, modprobe.blacklist= */
	char **softdeps;   /* modules that have a softdep line */
	char **dep_files;  /* dependency files found regular, checked once */
	struct halo_unpack_pool unpack; /* decoders of compressed modules */
	/* Apply's record, read when the first compressed module with
	 * options is met (a tree without one never opens it). */
	const struct halo_parmrec *record;
	struct halo_parmrec own_record;
	int record_err;    /* -EPERM: not trusted, not read */
	bool record_tried;
};

void halo_modnative_free(struct halo_modnative *n)
{
	if (!n)
		return;
	free(n->moddir);
	halo_strv_free(n->blacklist);
	halo_strv_free(n->softdeps);
	halo_strv_free(n->dep_files);
	halo_unpack_pool_clear(&n->unpack);
	halo_parmrec_clear(&n->own_record);
	free(n);
}

/* Reads PATH and scans it as modprobe.d text; -EAGAIN for whatever only
 * libkmod (and the view's explanations) should handle. */
static int scan_file(struct halo_modnative *n, const char *path, bool may_be_absent)
{
	_cleanup_free_ char *text = NULL;
	int r;

	r = halo_read_file(n->ctx, path, &text, NULL);
	if (r == -ENOENT && may_be_absent)
		return 0;
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return -EAGAIN;
	r = halo_modprobe_scan(text, &n->blacklist, &n->softdeps);
	return r == 1 ? -EAGAIN : r;
}

/* The modprobe.d directories in kmod's order: a name seen in an earlier
 * one hides the later files of that name. */
static int scan_conf_dirs(struct halo_modnative *n)
{
	_cleanup_strv_free_ char **seen = NULL;
	int r;

	for (size_t i = 0; halo_modprobe_dirs[i]; i++) {
		_cleanup_strv_free_ char **names = NULL;

		r = halo_root_list_dir(n->ctx, halo_modprobe_dirs[i], &names);
		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r < 0)
			return r == -ENOMEM ? r : -EAGAIN;
		for (char **name = names; *name; name++) {
			_cleanup_free_ char *path = NULL;

			if (!halo_modprobe_conf_name(*name) || halo_strv_contains(seen, *name))
				continue;
			r = halo_strv_push(&seen, *name);
			if (r < 0)
				return r;
			path = halo_strdup_printf("%s/%s", halo_modprobe_dirs[i], *name);
			if (!path)
				return -ENOMEM;
			r = scan_file(n, path, false);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int halo_modnative_new(struct halo_ctx *ctx, struct halo_modnative **ret)
{
	struct halo_modnative *n;
	_cleanup_free_ char *softdep = NULL;
	_cleanup_free_ char *cmdline = NULL;
	int r;

	if (!halo_kernel_release_valid(ctx->kernel_release))
		return -EAGAIN;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	n->ctx = ctx;
	n->moddir = halo_strdup_printf("/lib/modules/%s", ctx->kernel_release);
	softdep = halo_strdup_printf("%s/modules.softdep", n->moddir ? n->moddir : "");
	if (!n->moddir || !softdep) {
		r = -ENOMEM;
		goto fail;
	}
	/* Mapped once a run: the amdgpu build probe may have mapped it. */
	r = halo_modindex_get(ctx, &n->depidx, &n->depidx_len);
	if (r < 0) {
		r = r == -ENOMEM ? r : -EAGAIN;
		goto fail;
	}
	/* libkmod reads modules.softdep as one more config file. */
	r = scan_file(n, softdep, true);
	if (r == 0)
		r = scan_conf_dirs(n);
	if (r < 0)
		goto fail;
	r = halo_read_file(ctx, "/proc/cmdline", &cmdline, NULL);
	if (r == 0)
		r = halo_blacklist_from_cmdline(cmdline, &n->blacklist);
	else if (r == -ENOENT)
		r = 0;
	else if (r != -ENOMEM)
		r = -EAGAIN;
	if (r < 0)
		goto fail;
	*ret = n;
	return 0;
fail:
	halo_modnative_free(n);
	return r;
}

/* kmod's modname_normalize on a path: the file name up to its first '.',
 * '-' read as '_'. */
static char *name_of_path(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	_cleanup_free_ char *name = strndup(base, strcspn(base, "."));
	if (name)
		halo_name_normalize(name);
	return TAKE_PTR(name);
}

/* MODDIR/REL, put together without printf: a lookup asks for a few. */
static char *in_moddir(const struct halo_modnative *n, const char *rel)
{
	size_t a = strlen(n->moddir), b = strlen(rel);
	char *path = malloc(a + 1 + b + 1);

	if (path) {
		memcpy(path, n->moddir, a);
		path[a] = '/';
		memcpy(path + a + 1, rel, b + 1);
	}
	return path;
}

/* 0 when REL (below the module directory) is a regular file in the root. */
static int regular_in_root(const struct halo_modnative *n, const char *rel, int flags,
			   int *ret_fd, struct stat *ret_st)
{
	_cleanup_free_ char *path = in_moddir(n, rel);
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if (!path)
		return -ENOMEM;
	if (!halo_module_relpath_plain(rel))
		return -EAGAIN;
	r = halo_root_openat(n->ctx, path, flags, 0, &fd);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return -EAGAIN;
	if (ret_st)
		*ret_st = st;
	if (ret_fd)
		*ret_fd = TAKE_FD(fd);
	return 0;
}

void halo_modnative_use_record(struct halo_modnative *n, const struct halo_parmrec *rec)
{
	n->record = rec;
	n->record_tried = true;
}

int halo_modnative_record_err(const struct halo_modnative *n)
{
	return n->record_err;
}

/* The parameters of REL's line in the record, when it is of this file. */
static int parms_recorded(struct halo_modnative *n, const char *rel, struct halo_modinfo *mi)
{
	_cleanup_free_ char *key = NULL;
	const struct halo_parmrec_entry *e;
	int r;

	if (!n->record_tried) {
		n->record_tried = true;
		r = halo_parmrec_load(n->ctx, &n->own_record);
		if (r == -ENOMEM)
			return r;
		n->record_err = r;
		if (r == 0)
			n->record = &n->own_record;
	}
	if (!n->record)
		return 0;
	key = halo_parmrec_key(n->ctx->kernel_release, rel);
	if (!key)
		return -ENOMEM;
	e = halo_parmrec_find(n->record, key, &mi->file_id);
	if (!e)
		return 0;
	for (char **p = e->parms; p && *p; p++)
		if (halo_strv_push(&mi->parms, *p) < 0)
			return -ENOMEM;
	return 1;
}

/* The parameters of the module file REL, from its .modinfo section: read
 * with pread, a few kilobytes of a module of megabytes, without mapping
 * it (a map, its page faults and its unmapping cost more than the reads).
 * A compressed module is decoded only as HOW asks: to decompress a
 * distribution's module costs milliseconds. */
static int read_modinfo(struct halo_modnative *n, const char *rel, enum halo_modread how,
			struct halo_modinfo *mi)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *sec = NULL;
	unsigned char head[4096]; /* the ELF header; all of a small module */
	enum halo_modpack kind;
	struct stat st;
	ssize_t got;
	size_t len;
	int r;

	r = regular_in_root(n, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY, &fd, &st);
	if (r < 0)
		return r;
	if (st.st_size <= 0)
		return -EAGAIN;
	got = pread(fd, head, sizeof(head), 0);
	if (got < 0)
		return -EAGAIN;
	kind = halo_modpack_of(head, (size_t)got);
	if (kind == HALO_MODPACK_NONE) {
		/* Broken, or without .modinfo: libkmod's. */
		r = halo_elf_section_fd(fd, (uint64_t)st.st_size, head, (size_t)got,
					".modinfo", &sec, &len);
		if (r == 0)
			r = halo_modinfo_add_section(mi, sec, len);
		return r == 0 || r == -ENOMEM ? r : -EAGAIN;
	}
	/* .ko.zst, .ko.xz: the head read already is the decoder's first
	 * input (all of a small module); gzip, a broken stream or a library
	 * missing: libkmod's. */
	if (kind == HALO_MODPACK_GZIP)
		return -EAGAIN;
	mi->packed = true;
	halo_modfile_id_of(&st, &mi->file_id);
	r = how == HALO_MODREAD_PARMS ? parms_recorded(n, rel, mi) : 0;
	if (r < 0)
		return r;
	if (how == HALO_MODREAD_COMPLETE || r == 1) {
		r = halo_packed_complete(fd, (uint64_t)st.st_size, head, (size_t)got, kind);
		return r == 0 || r == -ENOMEM ? r : -EAGAIN;
	}
	r = halo_modinfo_from_packed(&n->unpack, fd, (uint64_t)st.st_size, head, (size_t)got,
				     kind, mi);
	return r == 0 || r == -ENOMEM ? r : -EAGAIN;
}

static int blacklist_add(const struct halo_modnative *n, struct halo_modinfo *mi,
			 const char *name)
{
	if (!halo_strv_contains(n->blacklist, name) || halo_strv_contains(mi->blacklisted, name))
		return 0;
	return halo_strv_push(&mi->blacklisted, name);
}

/* "rel: dep1 dep2 ...": the module's file and every dependency's, the
 * deepest last; libkmod hands them out deepest first. */
static int parse_depline(struct halo_modnative *n, char *line, struct halo_modinfo *mi)
{
	_cleanup_strv_free_ char **deps = NULL;
	char *colon = strchr(line, ':'), *save = NULL;
	int r;

	if (!colon)
		return -EAGAIN;
	*colon = '\0';
	if (!halo_module_relpath_plain(line))
		return -EAGAIN;
	mi->relpath = strdup(line);
	if (!mi->relpath)
		return -ENOMEM;
	for (char *d = strtok_r(colon + 1, " \t", &save); d; d = strtok_r(NULL, " \t", &save)) {
		_cleanup_free_ char *name = NULL;

		/* libkmod stat()s each dependency while parsing the line;
		 * ib_core and the like are dependencies of many modules. */
		if (!halo_strv_contains(n->dep_files, d)) {
			r = regular_in_root(n, d, O_PATH, NULL, NULL);
			if (r == 0)
				r = halo_strv_push(&n->dep_files, d);
			if (r < 0)
				return r;
		}
		name = name_of_path(d);
		if (!name)
			return -ENOMEM;
		r = halo_strv_push(&deps, name);
		if (r < 0)
			return r;
	}
	for (size_t i = halo_strv_len(deps); i > 0; i--) {
		r = halo_strv_push(&mi->deps, deps[i - 1]);
		if (r < 0)
			return r;
	}
	return 0;
}

int halo_modnative_lookup(struct halo_modnative *n, const char *name, enum halo_modread how,
			  struct halo_modinfo **ret)
{
	_cleanup_modinfo_ struct halo_modinfo *mi = NULL;
	_cleanup_free_ char *line = NULL;
	int r;

	mi = halo_modinfo_new(name);
	if (!mi)
		return -ENOMEM;
	if (halo_strv_contains(n->softdeps, mi->name))
		return -EAGAIN; /* libkmod's probe stages them: keep its errors */
	r = halo_depindex_lookup(n->depidx, n->depidx_len, mi->name, &line);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return -EAGAIN;
	r = parse_depline(n, line, mi);
	if (r == 0)
		r = read_modinfo(n, mi->relpath, how, mi);
	/* Read, so a regular file: as a dependency it needs no other look. */
	if (r == 0 && !halo_strv_contains(n->dep_files, mi->relpath))
		r = halo_strv_push(&n->dep_files, mi->relpath);
	if (r == 0)
		r = blacklist_add(n, mi, mi->name);
	for (char **d = mi->deps; r == 0 && d && *d; d++)
		r = blacklist_add(n, mi, *d);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(mi);
	return 0;
}
