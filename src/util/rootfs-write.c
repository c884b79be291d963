/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs-write.c: atomic replace of a file inside the root.
 *
 * A named temp file in the same directory (not O_TMPFILE: linkat of an
 * O_TMPFILE cannot replace an existing name, and a named temp is what
 * every filesystem supports), written and checked in full, fchmod, fsync,
 * renameat over the target, fsync of the directory. Any failure before the
 * rename unlinks the temp file, so the old file is untouched.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "util/rootfs-internal.h"

#define MODE_BITS 07777

/* 1 if the open regular file FD holds exactly BUF/LEN. */
static int same_content(int fd, const char *buf, size_t len)
{
	char chunk[8192];
	size_t off = 0;

	for (;;) {
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return off == len;
		if ((size_t)n > len - off || memcmp(chunk, buf + off, (size_t)n) != 0)
			return 0;
		off += (size_t)n;
	}
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ".#NAME.XXXXXX" with O_CREAT|O_EXCL, like mkostemp but relative to DFD. */
static int open_temp(int dfd, const char *base, char *ret_name, size_t size)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

	for (int tries = 0; tries < 100; tries++) {
		unsigned char rnd[6];
		char suffix[7];
		int fd;

		if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != sizeof(rnd)) {
			/* Unpredictability is not needed (O_EXCL and a
			 * root-only directory do the work), only spread. */
			unsigned long v = (unsigned long)time(NULL) ^
					  ((unsigned long)getpid() << 16) ^
					  ((unsigned long)tries * 2654435761u);

			for (size_t i = 0; i < sizeof(rnd); i++, v >>= 5)
				rnd[i] = (unsigned char)v;
		}
		for (size_t i = 0; i < sizeof(rnd); i++)
			suffix[i] = chars[rnd[i] % (sizeof(chars) - 1)];
		suffix[6] = '\0';
		/* Keep the temp name within NAME_MAX for long targets. */
		snprintf(ret_name, size, ".#%.200s.%s", base, suffix);
		fd = openat(dfd, ret_name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Whether NAME is a temp file open_temp() made for BASE: ".#" BASE (cut
 * at 200 bytes) "." and six letters or digits. */
static bool is_our_temp(const char *name, const char *base)
{
	size_t blen = strnlen(base, 200), nlen = strlen(name);

	if (nlen != 2 + blen + 7 || strncmp(name, ".#", 2) != 0 ||
	    strncmp(name + 2, base, blen) != 0 || name[2 + blen] != '.')
		return false;
	for (const char *p = name + 3 + blen; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9'))
			return false;
	return true;
}

/* Removes the temp files a killed run left beside BASE in DFD. Only ours:
 * the exact name pattern and a regular file; the run lock keeps another
 * run from writing the same target meanwhile. */
static int clean_stale_temps(struct halo_ctx *ctx, int dfd, const char *base)
{
	DIR *dir;
	struct dirent *de;
	int fd, r = 0;

	fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		r = -errno;
		close(fd);
		return r;
	}
	while ((de = readdir(dir)) != NULL) {
		struct stat st;

		if (!is_our_temp(de->d_name, base) ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (unlinkat(dfd, de->d_name, 0) < 0) {
			r = -errno;
			break;
		}
		ctx->files_written++;
	}
	closedir(dir);
	return r;
}

int halo_root_clean_temps(struct halo_ctx *ctx, const char *path)
{
	_cleanup_close_ int dfd = -1;
	const char *base;
	int r;

	halo_rootcache_forget(ctx);
	r = halo_rootfs_open_parent(ctx, path, false, &dfd, &base);
	/* No directory (or a file in its place): no temp files either. */
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0)
		return r;
	return clean_stale_temps(ctx, dfd, base);
}

#ifndef STATX_ATTR_MOUNT_ROOT
#define STATX_ATTR_MOUNT_ROOT 0x00002000 /* uapi linux/stat.h, Linux 5.8 */
#endif

/* Whether the file FD (O_PATH) is a mount point in this view of the tree:
 * neither renamed over nor unlinked (fs/namei.c do_renameat2, do_unlinkat:
 * EBUSY). A file mounted over in another view of the same tree (--root
 * a plain bind of it) is not seen here; the rename then says so. */
static bool is_mount_point(int fd)
{
	struct statx stx;

	return statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, 0, &stx) == 0 &&
	       (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
	       (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
}

/* A regular file that is append-only or immutable: access() passes the
 * former, and neither can be renamed over (fs/namei.c may_delete). FD: an
 * O_PATH descriptor of the file. 0 or -EPERM; flags a filesystem does
 * not keep are no refusal. */
static int check_flags(int fd)
{
	_cleanup_close_ int rfd = -1;
	char proc[64];
	struct stat st;
	int flags = 0;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	rfd = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (rfd < 0 || ioctl(rfd, FS_IOC_GETFLAGS, &flags) < 0)
		return 0;
	return flags & (FS_APPEND_FL | FS_IMMUTABLE_FL) ? -EPERM : 0;
}

int halo_root_check_writable(const struct halo_ctx *ctx, const char *path)
{
	_cleanup_free_ char *dir = strdup(path);
	char proc[64];
	int r;

	if (!dir)
		return -ENOMEM;
	/* The file itself when it exists (a mount point, an immutable or
	 * append-only file cannot be renamed over), and the deepest directory
	 * that exists (the temp file is made there, and mkdir -p needs it
	 * writable); for a symlink to be replaced, its directory. access()
	 * through the descriptor: EROFS and EPERM (immutable) come from the
	 * kernel's own permission check, without writing anything. A mount
	 * point first: a read-only one is no more replaceable made writable. */
	for (bool first = true;; first = false) {
		_cleanup_close_ int fd = -1;

		r = halo_rootfs_open(ctx, dir, O_PATH, 0, true, &fd);
		if (r == 0) {
			if (first && is_mount_point(fd))
				return -EBUSY;
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
			if (access(proc, W_OK) < 0 && errno != ENOENT)
				return -errno;
			if (!first)
				return 0;
			r = check_flags(fd);
			if (r < 0)
				return r;
		} else if (r != -ENOENT && !(first && r == -ELOOP)) {
			return r;
		}
		char *slash = strrchr(dir, '/');

		if (!slash || (slash == dir && !dir[1]))
			return 0;
		slash[slash == dir] = '\0'; /* "/var" goes up to "/" */
	}
}

int halo_write_file_atomic(struct halo_ctx *ctx, const char *path,
			   const char *buf, size_t len, mode_t mode)
{
	_cleanup_close_ int dfd = -1;
	char tmp[NAME_MAX + 1];
	const char *base;
	struct stat st;
	bool exists;
	int fd, r;

	mode &= MODE_BITS;
	halo_rootcache_forget(ctx);
	r = halo_rootfs_open_parent(ctx, path, true, &dfd, &base);
	if (r < 0)
		return r;
	r = clean_stale_temps(ctx, dfd, base);
	if (r < 0)
		return r;

	exists = fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!exists && errno != ENOENT)
		return -errno;
	if (exists) {
		if (S_ISLNK(st.st_mode))
			return -ELOOP;
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		/* A device, fifo or socket is not ours to replace (and a fifo
		 * would block the comparison read). */
		if (!S_ISREG(st.st_mode))
			return -EEXIST;
		if ((st.st_mode & MODE_BITS) == mode && (size_t)st.st_size == len) {
			_cleanup_close_ int old = -1;

			struct stat ost;

			/* Whoever can write the directory may have swapped in
			 * a FIFO since the fstatat: never wait on one. */
			old = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
			if (old < 0)
				return -errno;
			if (fstat(old, &ost) < 0)
				return -errno;
			if (!S_ISREG(ost.st_mode))
				return -EEXIST;
			r = same_content(old, buf, len);
			if (r != 0)
				return r < 0 ? r : 0;
		}
	}

	fd = open_temp(dfd, base, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	r = write_all(fd, buf, len);
	/* Keep the owner of a file we replace (a group-owned rules file must
	 * stay so); new files belong to us. Before fchmod: chown clears the
	 * set-id bits. */
	if (r == 0 && exists && fchown(fd, st.st_uid, st.st_gid) < 0)
		r = -errno;
	/* fchmod, not the open mode: the umask must not weaken MODE. */
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, base) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dfd, tmp, 0);
		return r;
	}
	ctx->files_written++;
	if (fsync(dfd) < 0)
		return -errno;
	return 1;
}
