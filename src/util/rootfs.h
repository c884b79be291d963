/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rootfs.h: every host path goes through here, resolved inside ctx->root_fd.
 *
 * Paths are absolute as seen from inside the root ("/etc/default/grub").
 * Reads use openat2(RESOLVE_IN_ROOT): symlinks are followed but can never
 * leave the root (sysfs is made of symlinks). Writes add RESOLVE_NO_SYMLINKS:
 * nothing is ever written through a symlink. Where openat2 is missing
 * (ENOSYS) a component walk with O_NOFOLLOW gives the same guarantees.
 * All functions return 0 (or a documented positive value) or -errno.
 * A relative or empty PATH is -EINVAL; a PATH whose own ".." would climb
 * above "/" is -EXDEV (refused, not clamped). ".." inside symlink targets
 * is clamped at the root, as RESOLVE_IN_ROOT does.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "halo.h"

/* Opens DIR as an O_PATH|O_DIRECTORY descriptor for ctx->root_fd. */
int halo_root_open(const char *dir, int *ret_fd);

/* open() inside the root; flags as for openat (O_CREAT needs mode); the
 * descriptor is always O_CLOEXEC. O_NOFOLLOW, O_WRONLY, O_RDWR, O_CREAT or
 * O_TRUNC in flags: refuse symlinks in every component with -ELOOP (the
 * write rule). */
int halo_root_openat(const struct halo_ctx *ctx, const char *path, int flags,
		     mode_t mode, int *ret_fd);

/* The file an O_PATH descriptor holds, opened with FLAGS (O_CLOEXEC
 * added) through /proc/self/fd: the inode already checked, never its path
 * again, so nothing can be swapped in between. A new descriptor, or
 * -errno. */
int halo_fd_reopen(int path_fd, int flags);

/* A FIFO, device or socket where a file was to be read. EBADFD, because
 * no read of a real file on /proc, /sys or configfs returns it: EINVAL
 * (what this once was) is the kernel's own answer for an empty GID entry
 * and other attributes without a value, so it cannot mean both. */
#define HALO_ENOTREG EBADFD

/* Whole file, NUL-terminated (len excludes the NUL). -ENOENT if absent,
 * -EISDIR for a directory, -HALO_ENOTREG for any other file that is not
 * regular (opened without blocking, never read). Works on /proc and /sys
 * files (whose st_size lies). Cap: 16 MiB (-EFBIG). */
int halo_read_file(const struct halo_ctx *ctx, const char *path,
		   char **ret_buf, size_t *ret_len);

/*
 * PATH did not open (ENOENT and the like): -ELOOP with *RET_WHY "<PATH as
 * shown>: symlink to 'T' does not resolve inside the root" when a
 * component of PATH is a symlink that resolves nowhere inside the root (it
 * may well resolve on the host: callers refuse it, never take it for
 * "absent"); 0, *RET_WHY untouched, when PATH is plainly absent. -ENOMEM.
 */
int halo_root_explain_missing(const struct halo_ctx *ctx, const char *path,
			      char **ret_why);

/* What a file of mode M that is not regular is, for a message ("a FIFO",
 * "a character device", "a directory", ...). */
const char *halo_file_kind(mode_t m);

/* strerror(-ERR), but "not a regular file" for -HALO_ENOTREG (whose own
 * text, "File descriptor in bad state", would mislead): for messages
 * about a failed halo_read_file that name the file themselves. */
const char *halo_root_strerror(int err);

/* "<PATH as shown>: REASON" for a read of PATH that failed with ERR, for
 * messages that must name the file: -HALO_ENOTREG and -EISDIR say what is
 * there ("a FIFO, not a regular file", "a directory, not a ..."), a missing PATH behind a symlink that leaves
 * the root says so (halo_root_explain_missing), else strerror. Caller
 * frees; NULL on ENOMEM. */
char *halo_root_read_error(const struct halo_ctx *ctx, const char *path, int err);

/* The reads the file layer refused in a run, one line each in the words
 * of halo_root_read_error ("<PATH>: a FIFO, not a regular file"), each
 * path once, in the order met. */
struct halo_refusals {
	char **lines;
	char **paths; /* the same, as paths inside the root */
	size_t n;
	bool oom;
};

/* Notes that PATH was refused with ERR (-HALO_ENOTREG, -EISDIR) in
 * ctx->refusals when the run collects them; returns ERR. */
int halo_root_refused(const struct halo_ctx *ctx, const char *path, int err);
/* For a PATH that did not open with ENOENT, where absent must not be
 * taken on trust (a record, the group file): -ENOENT when it is plainly
 * absent; -ELOOP, noted like halo_root_refused, when a symlink on the
 * way does not resolve inside the root (halo_root_explain_missing);
 * -ENOMEM. */
int halo_root_absent(const struct halo_ctx *ctx, const char *path);
/* "WHAT SHOWN: WHY", the line about a file the operator knows by what it
 * is (WHAT: "the state file (state.path)", naming the config key that
 * sets it) at PATH inside the root, shown as found; "WHAT WHY" when WHY
 * begins with "SHOWN:" already. Caller frees; NULL on ENOMEM. */
char *halo_root_named_line(const struct halo_ctx *ctx, const char *what, const char *path,
			   const char *why);
/* The refusal of PATH noted in this run, if any, is said as
 * halo_root_named_line says it: a record read behind a symlink out of the
 * root names the record, not only the symlink. */
void halo_root_refusal_name(const struct halo_ctx *ctx, const char *path, const char *what);
/* Which of R's refusals LINE is about: the one whose path it names
 * (inside the root or as shown), else, when it carries only the bare
 * errno text of HALO_ENOTREG, the last one noted; -1 for none. */
long halo_refusals_find(const struct halo_refusals *r, const char *line);
void halo_refusals_free(struct halo_refusals *r);
/* PATH mapped read-only, as halo_read_file finds it (same errors); an
 * empty file is *RET_MAP NULL, *RET_LEN 0. Only the pages looked at are
 * read: for large indexes that are searched, not read through (the
 * module index of a distribution kernel is 600 KiB and more). Unmap with
 * halo_root_unmap_file. */
int halo_root_map_file(const struct halo_ctx *ctx, const char *path,
		       const void **ret_map, size_t *ret_len);
void halo_root_unmap_file(const void *map, size_t len);

/* The rest of the open descriptor FD, NUL-terminated, as halo_read_file
 * reads (SIZE_HINT: the expected size, 0 if unknown; cap 16 MiB). */
int halo_read_fd(int fd, size_t size_hint, char **ret_buf, size_t *ret_len);

/* lstat() inside the root (the last component is not followed). */
int halo_root_lstat(const struct halo_ctx *ctx, const char *path,
		    struct stat *ret_st);

/* PATH's status in one step when no directory on the way to it is a
 * symlink: 0 (the last component not followed, as by lstat); -ENOENT
 * when a component is missing, -ELOOP when a directory on the way is a
 * symlink, -ENOTDIR when one is not a directory. */
int halo_root_lstat_plain(const struct halo_ctx *ctx, const char *path,
			  struct stat *ret_st);

/* An owned file read whole with the write rule: no symlink anywhere on
 * PATH, itself included (-ELOOP), never blocking on what is not a
 * regular file (-EISDIR, -HALO_ENOTREG), not from the run's cache. For
 * a file judged by its path first, which whoever can write its
 * directory could have swapped since. */
int halo_root_read_owned(const struct halo_ctx *ctx, const char *path,
			 char **ret_buf, size_t *ret_len);

/* PATH read whole in one pass when nothing on the way to it, itself
 * included, is a symlink and it is a regular file: 0 with its status
 * and contents (as halo_read_file gives them); -ENOENT when a component
 * is missing; -ENOMEM; 1 for anything else (a symlink, a parent that is
 * no directory, a file that is not regular, an error, contents already
 * read this run): the caller then asks the long way, which judges it. */
int halo_root_read_plain(const struct halo_ctx *ctx, const char *path,
			 struct stat *ret_st, char **ret_buf, size_t *ret_len);

/* 1 if PATH exists inside the root (symlinks followed inside), 0 if not. */
int halo_root_exists(const struct halo_ctx *ctx, const char *path);

/*
 * Atomic replace: temp file in the same directory, write, fchmod, fsync,
 * rename, fsync the directory; the temp file is removed on any error and
 * the old file stays intact. Missing parent directories are created 0755.
 * Returns 0 when content and mode were already right (nothing written),
 * 1 when the file was written (ctx->files_written is incremented).
 * -ELOOP when PATH or a parent is a symlink; -EISDIR for a directory,
 * -EEXIST for another non-regular file (never replaced). A replaced file
 * keeps its owner and group.
 */
int halo_write_file_atomic(struct halo_ctx *ctx, const char *path,
			   const char *buf, size_t len, mode_t mode);

/* Removes the temp files (".#NAME.XXXXXX") that a run killed between
 * creating and renaming them left beside PATH; halo_write_file_atomic does
 * it too. Each removal counts in ctx->files_written. 0 or -errno. */
int halo_root_clean_temps(struct halo_ctx *ctx, const char *path);

/* Whether PATH could be written now, without writing anything: the file
 * when it exists, else its deepest existing directory, must pass the
 * kernel's write permission check. 0, or -EROFS, -EPERM (immutable),
 * -EACCES, -ELOOP (a symlink on the way; a symlink at PATH itself is
 * judged by its directory, which replacing it writes), -errno. */
int halo_root_check_writable(const struct halo_ctx *ctx, const char *path);

/*
 * Writes BUF to a kernel attribute (a file under /sys or /proc, configfs
 * included) in one write(2), as sysfs wants. The path must start with
 * /sys/ or /proc/ (-EINVAL otherwise) and the file must exist: nothing is
 * created. On a kernel file system symlinks inside the root are followed
 * (/sys/class/net/X is one). Anywhere else (a --root fixture) the file is
 * truncated first so the result reads back like an attribute, and so it
 * must be a file of its own: -EMLINK when it has other hard links, -ELOOP
 * when a symlink led to it (below /sys: one that leads out of the root's
 * /sys). Only a regular file is opened to write (-EISDIR, -HALO_ENOTREG).
 * Not counted in ctx->files_written. A short write is -EIO; the driver's
 * refusal comes back as its -errno.
 */
int halo_root_write_attr(const struct halo_ctx *ctx, const char *path,
			 const char *buf, size_t len);

/* halo_read_file of a kernel attribute that is to be written later, with
 * what halo_root_write_attr would refuse judged on the descriptor read
 * (no second walk of PATH): -EMLINK or -ELOOP, nothing read, when
 * halo_root_write_attr would refuse the file; -EINVAL for a PATH not
 * below /sys or /proc. */
int halo_root_read_attr(const struct halo_ctx *ctx, const char *path,
			char **ret_buf, size_t *ret_len);

/* The one line for a refusal of those (-ELOOP, -EMLINK):
 * "refusing to write through a symlink: PATH ..."; NULL for any other
 * ERR (or ENOMEM). Caller frees. */
char *halo_root_attr_refusal(const struct halo_ctx *ctx, const char *path, int err);

/* The root is now FD, the same directory reached through other mounts (a
 * mount namespace entered since): ctx->root_fd becomes it, and every
 * directory cached from the old descriptor is closed, since walks from
 * those would still cross the old namespace's mounts. */
int halo_root_rebind(struct halo_ctx *ctx, int fd) _must_check_;

/* Removes PATH; 0 if it did not exist, 1 if removed (counted as written).
 * A symlink is removed itself; its parents must not be symlinks. */
int halo_root_unlink(struct halo_ctx *ctx, const char *path);

/* mkdir -p inside the root without following symlinks. */
int halo_root_mkdir_p(const struct halo_ctx *ctx, const char *dir, mode_t mode);

/* Sorted names in DIR (no "." or ".."), NULL-terminated; free with
 * halo_strv_free. -ENOENT if DIR is absent. */
int halo_root_list_dir(const struct halo_ctx *ctx, const char *dir,
		       char ***ret_names);

/*
 * A run that changes nothing (--check, --dry-run, --status, --validate)
 * sees the root as it first read it: each path is then listed, read,
 * lstat'ed or looked up once, a directory opened once, and the names a
 * listing gave answer for what is in that directory. Every confinement
 * rule holds as without it (the cache only remembers their answers).
 * Anything written through this file, and every program spawned, empties
 * it. halo_root_snapshot_stop closes what it holds; NULL ctx->rootcache
 * (the default) reads everything every time.
 */
int halo_root_snapshot_start(struct halo_ctx *ctx) _must_check_;
void halo_root_snapshot_stop(struct halo_ctx *ctx);

/* A display form of PATH inside the root, for messages: "<root>/etc/x"
 * or "/etc/x" when the root is "/". Caller frees. */
char *halo_root_display_path(const struct halo_ctx *ctx, const char *path);
