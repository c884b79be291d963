/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * networkd.c: systemd-networkd's files and runtime records, read under the
 * root (networkd-match.c parses and matches them).
 *
 * The search path is listed as networkd lists it (systemd's
 * conf_files_list_strv()): hidden names and names not ending in
 * ".network" skipped, the first directory that has a name wins it, the
 * winners tried in lexical order of names, each with its drop-ins
 * (load_dropins). An empty file or a symlink to /dev/null masks a name.
 * Other symlinks are not followed (networkd would follow one; this tool
 * never reads through one it did not resolve inside the root), and a
 * FIFO, device or socket there is refused: both are errors naming the
 * file, before anything changes.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/networkd.h"
#include "util/rootfs.h"
#include "util/strv.h"

static void match_free(struct halo_networkd_match *m)
{
	char **lists[] = { m->name, m->path, m->driver, m->type, m->kind, m->property,
			   m->ssid, m->wlan_type, m->mac, m->perm_mac, m->bssid };

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++)
		halo_strv_free(lists[i]);
	memset(m, 0, sizeof(*m));
}

void halo_networkd_file_clear(struct halo_networkd_file *f)
{
	free(f->path);
	match_free(&f->match);
	memset(f, 0, sizeof(*f));
}

void halo_networkd_files_free(struct halo_networkd_files *files)
{
	for (size_t i = 0; i < files->n; i++)
		halo_networkd_file_clear(&files->v[i]);
	free(files->v);
	files->v = NULL;
	files->n = 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n > k && strcmp(s + n - k, suffix) == 0;
}

/* The target of the symlink PATH (DIR/NAME) into BUF. */
static int read_link(const struct halo_ctx *ctx, const char *dir, const char *name,
		     char *buf, size_t size)
{
	int dfd, r;
	ssize_t n;

	r = halo_root_openat(ctx, dir, O_PATH | O_DIRECTORY, 0, &dfd);
	if (r < 0)
		return r;
	n = readlinkat(dfd, name, buf, size - 1);
	r = n < 0 ? -errno : 0;
	close(dfd);
	if (r == 0)
		buf[n] = '\0';
	return r;
}

static char *why_at(const struct halo_ctx *ctx, const char *path, const char *reason)
{
	_cleanup_free_ char *shown = halo_root_display_path(ctx, path);

	return shown ? halo_strdup_printf("%s: %s", shown, reason) : NULL;
}

/* The listings of the search path's directories (NULL: none there). */
struct search_path {
	char **names[5];
};

/* Reads DIR/NAME (PATH inside the root) as networkd reads a file of its
 * search path: *RET_TEXT NULL for a symlink to /dev/null (a mask). */
static int read_candidate(const struct halo_ctx *ctx, const char *dir, const char *name,
			  const char *path, char **ret_text, size_t *ret_len, char **ret_why)
{
	struct stat st;
	int r;

	*ret_text = NULL;
	*ret_len = 0;
	r = halo_root_lstat(ctx, path, &st);
	if (r < 0) {
		*ret_why = halo_root_read_error(ctx, path, r);
		return r;
	}
	if (S_ISLNK(st.st_mode)) {
		char target[PATH_MAX];

		r = read_link(ctx, dir, name, target, sizeof(target));
		if (r == 0 && strcmp(target, "/dev/null") == 0)
			return 0;
		*ret_why = why_at(ctx, path,
				  "a symbolic link; only one to /dev/null (a mask) is understood, "
				  "none is followed: replace it with the file itself");
		return r < 0 ? r : -ELOOP;
	}
	r = halo_read_file(ctx, path, ret_text, ret_len);
	if (r < 0)
		*ret_why = halo_root_read_error(ctx, path, r);
	return r;
}

static int cmp_path_base(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;

	return strcmp(strrchr(x, '/') + 1, strrchr(y, '/') + 1);
}

/*
 * The drop-ins of NAME, applied to F after the file itself, as networkd
 * applies them (systemd's conf_files_list_dropins()): NAME.d/ *.conf in
 * every directory of the search path, a name in an earlier directory
 * hiding the same name in a later one, in lexical order of names. An
 * empty one, or a symlink to /dev/null, changes nothing. Only a
 * directory whose listing has NAME.d is opened.
 */
static int load_dropins(const struct halo_ctx *ctx, const struct search_path *sp,
			const char *name, struct halo_networkd_file *f, char **ret_why)
{
	static const char *const dirs[] = HALO_NETWORKD_DIRS;
	_cleanup_strv_free_ char **seen = NULL, **paths = NULL;
	_cleanup_free_ char *sub = halo_strdup_printf("%s.d", name);
	int r = 0;

	if (!sub)
		return -ENOMEM;
	for (size_t d = 0; d < ARRAY_SIZE(dirs) && r == 0; d++) {
		_cleanup_strv_free_ char **names = NULL;
		_cleanup_free_ char *dir = NULL;

		if (!halo_strv_contains(sp->names[d], sub))
			continue;
		dir = halo_strdup_printf("%s/%s", dirs[d], sub);
		if (!dir)
			return -ENOMEM;
		r = halo_root_list_dir(ctx, dir, &names);
		if (r == -ENOENT || r == -ENOTDIR) {
			r = 0;
			continue;
		}
		if (r < 0) {
			*ret_why = halo_root_read_error(ctx, dir, r);
			return r;
		}
		for (char **n = names; *n && r == 0; n++) {
			_cleanup_free_ char *path = NULL;
			struct stat st;

			if (**n == '.' || !has_suffix(*n, ".conf") || halo_strv_contains(seen, *n))
				continue;
			path = halo_strdup_printf("%s/%s", dir, *n);
			if (!path)
				return -ENOMEM;
			/* As for the files: a directory neither counts nor hides. */
			if (halo_root_lstat(ctx, path, &st) == 0 && S_ISDIR(st.st_mode))
				continue;
			r = halo_strv_push(&seen, *n);
			if (r == 0)
				r = halo_strv_push(&paths, path);
		}
	}
	if (r < 0)
		return r;
	if (paths)
		qsort(paths, halo_strv_len(paths), sizeof(*paths), cmp_path_base);
	for (char **p = paths; p && *p && r == 0; p++) {
		_cleanup_free_ char *text = NULL, *dir = strndup(*p, (size_t)(strrchr(*p, '/') - *p));
		size_t len;

		if (!dir)
			return -ENOMEM;
		r = read_candidate(ctx, dir, strrchr(*p, '/') + 1, *p, &text, &len, ret_why);
		if (r == 0 && text)
			r = halo_networkd_parse(text, f);
	}
	return r;
}

/* Reads the candidate DIR/NAME into F, its drop-ins applied. */
static int load_one(const struct halo_ctx *ctx, const struct search_path *sp,
		    const char *dir, const char *name, struct halo_networkd_file *f,
		    char **ret_why)
{
	_cleanup_free_ char *text = NULL;
	size_t len;
	int r;

	r = read_candidate(ctx, dir, name, f->path, &text, &len, ret_why);
	if (r < 0)
		return r;
	f->masked = !text || strspn(text, " \t\r\n") == len;
	if (f->masked)
		return 0;
	r = halo_networkd_parse(text, f);
	return r < 0 ? r : load_dropins(ctx, sp, name, f, ret_why);
}

static int cmp_base(const void *a, const void *b)
{
	const struct halo_networkd_file *x = a, *y = b;

	return strcmp(strrchr(x->path, '/') + 1, strrchr(y->path, '/') + 1);
}

int halo_networkd_load(const struct halo_ctx *ctx, const char *skip,
		       struct halo_networkd_files *ret, char **ret_why)
{
	static const char *const dirs[] = HALO_NETWORKD_DIRS;
	struct halo_networkd_files files = { 0 };
	_cleanup_strv_free_ char **seen = NULL;
	struct search_path sp = { 0 };
	int r = 0;

	*ret_why = NULL;
	_Static_assert(ARRAY_SIZE(dirs) == ARRAY_SIZE(sp.names), "one listing a directory");
	/* Every directory listed first: a file's drop-ins may be in any. */
	for (size_t d = 0; d < ARRAY_SIZE(dirs) && r == 0; d++) {
		r = halo_root_list_dir(ctx, dirs[d], &sp.names[d]);
		if (r == -ENOENT || r == -ENOTDIR)
			r = 0;
		else if (r < 0)
			*ret_why = halo_root_read_error(ctx, dirs[d], r);
	}
	for (size_t d = 0; d < ARRAY_SIZE(dirs) && r == 0; d++) {
		for (char **n = sp.names[d]; n && *n && r == 0; n++) {
			struct halo_networkd_file *f, *v;
			struct stat st;

			if (**n == '.' || !has_suffix(*n, ".network") ||
			    halo_strv_contains(seen, *n) || (skip && strcmp(*n, skip) == 0))
				continue;
			v = realloc(files.v, (files.n + 1) * sizeof(*v));
			if (!v) {
				r = -ENOMEM;
				break;
			}
			files.v = v;
			f = memset(&files.v[files.n], 0, sizeof(*f));
			f->path = halo_strdup_printf("%s/%s", dirs[d], *n);
			if (!f->path) {
				r = -ENOMEM;
				break;
			}
			files.n++;
			/* networkd lists regular files and symlinks only: a
			 * directory of that name neither counts nor hides. */
			if (halo_root_lstat(ctx, f->path, &st) == 0 && S_ISDIR(st.st_mode)) {
				free(f->path);
				files.n--;
				continue;
			}
			r = halo_strv_push(&seen, *n);
			if (r == 0)
				r = load_one(ctx, &sp, dirs[d], *n, f, ret_why);
		}
	}
	for (size_t d = 0; d < ARRAY_SIZE(sp.names); d++)
		halo_strv_free(sp.names[d]);
	if (r < 0) {
		halo_networkd_files_free(&files);
		return r;
	}
	if (files.n)
		qsort(files.v, files.n, sizeof(*files.v), cmp_base);
	*ret = files;
	return 0;
}

const struct halo_networkd_file *halo_networkd_first(const struct halo_networkd_files *files,
						     const struct halo_networkd_link *l)
{
	for (size_t i = 0; i < files->n; i++)
		if (halo_networkd_matches(&files->v[i], l))
			return &files->v[i];
	return NULL;
}

void halo_networkd_parse_state(const char *text, struct halo_networkd_state *ret)
{
	const char *p = text;

	memset(ret, 0, sizeof(*ret));
	while (p && *p) {
		size_t n = strcspn(p, "\n");
		const char *v = memchr(p, '=', n);

		if (v) {
			size_t k = (size_t)(v - p), vn = n - k - 1;

			while (vn && p[k + vn] == '\r')
				vn--;
			if (k == 12 && strncmp(p, "NETWORK_FILE", 12) == 0)
				snprintf(ret->network_file, sizeof(ret->network_file), "%.*s",
					 (int)vn, v + 1);
			else if (k == 11 && strncmp(p, "ADMIN_STATE", 11) == 0)
				snprintf(ret->admin_state, sizeof(ret->admin_state), "%.*s",
					 (int)vn, v + 1);
		}
		p += n + (p[n] == '\n');
	}
}

int halo_networkd_link_state(const struct halo_ctx *ctx, int ifindex,
			     struct halo_networkd_state *ret, char **ret_why)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	int r;

	*ret_why = NULL;
	snprintf(path, sizeof(path), HALO_NETWORKD_STATE_FMT, ifindex);
	r = halo_read_file(ctx, path, &text, NULL);
	if (r == -ENOENT)
		return r;
	if (r < 0) {
		*ret_why = halo_root_read_error(ctx, path, r);
		return r;
	}
	halo_networkd_parse_state(text, ret);
	return 0;
}

bool halo_networkd_state_manages(const struct halo_networkd_state *st,
				 const char *skip_path)
{
	if (!st->network_file[0] || strcmp(st->admin_state, "unmanaged") == 0)
		return false;
	return !skip_path || strcmp(st->network_file, skip_path) != 0;
}

bool halo_networkd_present(const struct halo_ctx *ctx)
{
	static const char *const bins[] = {
		"/usr/lib/systemd/systemd-networkd", "/lib/systemd/systemd-networkd",
	};
	/* What `systemctl enable systemd-networkd` makes (its [Install]
	 * section: the service, its socket, the wait-online service). */
	static const char *const enabled[] = {
		"/etc/systemd/system/multi-user.target.wants/systemd-networkd.service",
		"/etc/systemd/system/sockets.target.wants/systemd-networkd.socket",
		"/etc/systemd/system/network-online.target.wants/systemd-networkd-wait-online.service",
		"/etc/systemd/system/dbus-org.freedesktop.network1.service",
	};
	char target[PATH_MAX];
	bool installed = false, on = false;
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(bins) && !installed; i++)
		installed = halo_root_exists(ctx, bins[i]) > 0;
	if (!installed)
		return false;
	if (read_link(ctx, "/etc/systemd/system", "systemd-networkd.service", target,
		      sizeof(target)) == 0 && strcmp(target, "/dev/null") == 0)
		return false; /* masked */
	for (size_t i = 0; i < ARRAY_SIZE(enabled) && !on; i++)
		on = halo_root_lstat(ctx, enabled[i], &st) == 0;
	return on || halo_root_lstat(ctx, "/run/systemd/netif/links", &st) == 0;
}
