/* SPDX-License-Identifier: GPL-2.0-or-later */
/* internal.h: what the files of src/modules share, sectioned by file. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"
#include "modules/modules.h"

struct stat;
struct timespec;

/* --- kmod.c: every libkmod call (through kmod-dl.h, opened on first use) */

/* A module file as it was read: what tells that it is still the same. */
struct halo_modfile_id {
	uint64_t dev, ino, size;
	int64_t mtime_s, ctime_s;
	long mtime_ns, ctime_ns;
};

/* What the module index and modinfo say about one module. */
struct halo_modinfo {
	char *name;        /* the kernel's name ('_', not '-') */
	char *relpath;     /* below the module directory; NULL when built in */
	bool builtin;
	char **parms;      /* declared parameters: "name:type" ("name:" if untyped) */
	char **deps;       /* every dependency, in load order (deepest first) */
	char **blacklisted; /* the module or dependencies blacklisted in modprobe.d */
	char *install_cmd; /* a modprobe.d install command for it, or NULL */
	/* Read from a compressed file (parms decoded from it, or taken from
	 * the record while FILE_ID matches: parmrec.c). */
	bool packed;
	struct halo_modfile_id file_id;
};

/*
 * The libkmod context of this run (ctx->kmod), made on first use over the
 * private view of the root (view.c): libkmod reads only files checked to
 * be regular files inside the root. -ENOENT when the kernel's module
 * directory or its index (modules.dep.bin) is missing; any other failure
 * about a file of the root sets *ret_why (caller frees), one line naming it.
 * -ELIBACC / -ELIBBAD, *ret_why set, when libkmod itself cannot be opened.
 */
int halo_kmod_get(struct halo_ctx *ctx, struct halo_kmod **ret, char **ret_why);
void halo_kmod_free(struct halo_kmod *k);

/* --- kmod-cmdline.c: under --root (ctx->under_root), /proc/cmdline is,
 * until halo_kmod_cmdline_unshadow, the root's own (or empty), in a
 * private mount namespace: kmod_new() reads that absolute path. 0 with
 * *RET_SHADOWED telling whether there is something to undo; -errno with
 * *RET_WHY (one line, caller frees) when it cannot be done. */
int halo_kmod_cmdline_shadow(struct halo_ctx *ctx, bool *ret_shadowed, char **ret_why);
void halo_kmod_cmdline_unshadow(bool shadowed);

/* halo_modinfo_new/free and halo_modinfo_parm_type live in modinfo.c. */
/* An empty record for module NAME ('-' read as '_'); NULL on OOM. */
struct halo_modinfo *halo_modinfo_new(const char *name);
/* Looks NAME up (a module name, '-' or '_'). -ENOENT when neither the index
 * nor modules.builtin knows it; when the module's file (or a dependency's)
 * is refused or unreadable, an error with *ret_why set (caller frees). */
int halo_kmod_lookup(struct halo_kmod *k, const char *name,
		     struct halo_modinfo **ret, char **ret_why);
void halo_modinfo_free(struct halo_modinfo *mi);
/* For a NAME the index does not know: a module file of that name in the
 * module directory that depmod left out (a .ko.gz that a depmod without
 * zlib skips, or depmod not re-run), as a one-line hint; -ENOENT if none. */
int halo_kmod_unindexed_hint(struct halo_kmod *k, const char *name, char **ret_hint);
/* The first module NAME is an alias of (modules.alias or modprobe.d), for
 * a hint when a config lists an alias; -ENOENT if none. */
int halo_kmod_alias_target(struct halo_kmod *k, const char *name, char **ret_module);
static inline void halo_modinfo_freep(struct halo_modinfo **mi) { halo_modinfo_free(*mi); }
#define _cleanup_modinfo_ _cleanup_(halo_modinfo_freep)

/* The declared type of PARM ("uint", "bool", ...), "" if untyped, NULL if
 * the module has no such parameter. */
const char *halo_modinfo_parm_type(const struct halo_modinfo *mi, const char *parm);

/*
 * Probe-inserts NAME with its dependencies and soft dependencies, the
 * modprobe.d options and EXTRA_OPTIONS, refusing blacklisted modules and
 * install commands (halo-provision runs no shell). 0, or -errno of the
 * load that failed; -EPERM with *ret_refused set (caller frees) for an
 * install command or a blacklist.
 */
int halo_kmod_probe(struct halo_kmod *k, const char *name,
		    const char *extra_options, bool apply_blacklist,
		    char **ret_refused);

/* --- view.c: the files libkmod may read, staged from the root ---------- */

struct halo_kmod_view;

/* RELEASE names one directory of /lib/modules (no '/', not "." or ".."). */
bool halo_kernel_release_valid(const char *rel);

/* Stages the index files of /lib/modules/<release> and the modprobe.d
 * files of the root, each checked; computes the blacklist (modprobe.d
 * and the root's /proc/cmdline). -ENOENT: no module directory or index. */
int halo_kmod_view_new(const struct halo_ctx *ctx, struct halo_kmod_view **ret,
		       char **ret_why);
void halo_kmod_view_free(struct halo_kmod_view *v);
const char *halo_kmod_view_moddir(const struct halo_kmod_view *v);
const char *const *halo_kmod_view_conf_paths(const struct halo_kmod_view *v);
bool halo_kmod_view_blacklisted(const struct halo_kmod_view *v, const char *name);
/* Stages the file of module NAME and its dependencies' (modules.dep.bin)
 * before libkmod parses NAME's dependency line, which stat()s them all. */
int halo_kmod_view_add_module(struct halo_kmod_view *v, const char *name, char **ret_why);
/* PATH of the view shown as the root's file, for messages. */
char *halo_kmod_view_root_path(const struct halo_kmod_view *v, const char *path);
/* A module file for NAME anywhere below the root's module directory
 * (symlinks not followed), shown as a path for messages; -ENOENT if none. */
int halo_kmod_view_find_unindexed(const struct halo_kmod_view *v, const char *name,
				  char **ret_path);
/* The root's module directory ("/lib/modules/<release>"). */
const char *halo_kmod_view_root_moddir(const struct halo_kmod_view *v);

/* A path below the module directory made only of plain names (no "",
 * ".", ".." components): what depmod writes for a module in the tree. */
bool halo_module_relpath_plain(const char *rel);

/* --- native.c: a lookup without libkmod, for the common case ---------- */

struct halo_modnative;
struct halo_parmrec;

/* Reads the root's module index, modprobe.d and kernel command line.
 * -EAGAIN when anything there is left to libkmod (see native.c). */
int halo_modnative_new(struct halo_ctx *ctx, struct halo_modnative **ret);
void halo_modnative_free(struct halo_modnative *n);
/* How a compressed module's file is read. */
enum halo_modread {
	HALO_MODREAD_COMPLETE, /* only checked complete (packcheck.c): no parameters */
	HALO_MODREAD_PARMS,    /* parameters from the record while it has the
				* same file (halo_modnative_use_record), else
				* decoded */
	HALO_MODREAD_DECODE,   /* decoded */
};

/* What halo_kmod_lookup would answer for NAME, or -EAGAIN: ask it. A
 * compressed module's file is read as HOW says. */
int halo_modnative_lookup(struct halo_modnative *n, const char *name, enum halo_modread how,
			  struct halo_modinfo **ret);
/* The record HALO_MODREAD_PARMS consults (the caller keeps it alive);
 * without one, the root's (halo_parmrec_load) is read at the first such
 * lookup of a compressed module. */
void halo_modnative_use_record(struct halo_modnative *n, const struct halo_parmrec *rec);
/* -EPERM when the root's record was found but not trusted, else 0. */
int halo_modnative_record_err(const struct halo_modnative *n);

/* --- elfsection.c: a section of an ELF file, in memory or on a descriptor */

/* The first section called NAME, in place: *RET points into BUF. -ENOENT
 * when there is none, -EBADMSG when BUF is not a well-formed ELF file.
 * On a prefix of a file, 0 and -ENOENT are the whole file's answer too;
 * -EBADMSG may be the prefix's only (something lies past it). */
int halo_elf_section(const void *buf, size_t len, const char *name,
		     const char **ret, size_t *ret_len);
/* The same of the file FD of SIZE bytes, read with pread (no mapping, no
 * change of the file offset): *RET is the section, the caller's to free.
 * HEAD (may be NULL) holds the first HEAD_LEN bytes of the file, already
 * read: what lies inside it is not read again. -errno when a read fails. */
int halo_elf_section_fd(int fd, uint64_t size, const void *head, size_t head_len,
			const char *name, char **ret, size_t *ret_len);
/* Where the section header table ends, from the ELF header (the first 64
 * bytes of BUF); -EBADMSG for a header halo_elf_section refuses. */
int halo_elf_headers_end(const void *buf, size_t len, uint64_t *ret_end);

/* --- unpack.c: a compressed module, decompressed as it is read -------- */

/* What libkmod finds at the start of a module file. */
enum halo_modpack {
	HALO_MODPACK_NONE,  /* read as it is (an ELF file, or nothing valid) */
	HALO_MODPACK_ZSTD,
	HALO_MODPACK_XZ,
	HALO_MODPACK_GZIP,  /* not read here */
};

/* The most a compressed module may decompress to here; more is left to
 * libkmod (the largest distribution module, amdgpu, is about 20 MiB). */
#define HALO_UNPACK_MAX ((uint64_t)64 << 20)

enum halo_modpack halo_modpack_of(const void *head, size_t len);

/* Decoders kept between modules of a run (making a zstd one costs more
 * than decompressing a small module): one of each kind, NULL when none. */
struct halo_unpack_pool {
	void *dec[2];
};
void halo_unpack_pool_clear(struct halo_unpack_pool *pool);

struct halo_unpack;
/* Decompresses the LEN bytes of FD from its offset, libzstd or liblzma
 * opened on first use (-ELIBACC, -ELIBBAD when they cannot be), with a
 * decoder of POOL (NULL: one of its own). */
int halo_unpack_new(struct halo_unpack_pool *pool, int fd, uint64_t len,
		    enum halo_modpack kind, struct halo_unpack **ret) _must_check_;
/* Decompresses until the first WANT bytes of the contents are kept, or
 * the stream ends: *RET, *RET_LEN what is kept (valid until the next
 * call). -EBADMSG for a stream that is corrupt, truncated or more than
 * libkmod agrees on; -EFBIG past HALO_UNPACK_MAX; -errno of a read. */
int halo_unpack_until(struct halo_unpack *u, uint64_t want,
		      const unsigned char **ret, size_t *ret_len) _must_check_;
/* Decompresses the rest without keeping it: 0 when the stream is whole
 * and ends with the file; errors as halo_unpack_until. */
int halo_unpack_finish(struct halo_unpack *u) _must_check_;
void halo_unpack_free(struct halo_unpack *u);
static inline void halo_unpack_freep(struct halo_unpack **u) { halo_unpack_free(*u); }

/* The parameters of the compressed module of LEN bytes at FD's offset,
 * from its .modinfo, added to MI. 0, or an error meaning: libkmod's.
 * HEAD (optional): the first HEAD_LEN bytes of those, already read (with
 * pread: FD's offset is still at their start), not read again when they
 * are the whole file or at least 64 bytes (the decoders' first input
 * must hold a whole stream header). */
int halo_modinfo_from_packed(struct halo_unpack_pool *pool, int fd, uint64_t len,
			     const void *head, size_t head_len, enum halo_modpack kind,
			     struct halo_modinfo *mi) _must_check_;

/* --- packcheck.c: a compressed module's container, not decompressed -- */

/* 0 when the zstd frame or xz stream of the LEN bytes of FD accounts for
 * every byte of the file (HEAD, optional: its first HEAD_LEN bytes, already
 * read); -EBADMSG when it does not, or has a layout left to libkmod;
 * -errno of a read. A damaged byte inside the data is not seen. */
int halo_packed_complete(int fd, uint64_t len, const void *head, size_t head_len,
			 enum halo_modpack kind) _must_check_;

/* A decoder of unpack-zstd.c or unpack-xz.c. */
struct halo_unpack_io {
	const unsigned char *in;
	size_t in_len;
	unsigned char *out;
	size_t out_len;
};

struct halo_unpack_codec {
	/* Opens the library (once) and a decoder into *DEC, or, when *DEC
	 * is one already, makes it ready for a new stream. */
	int (*start)(void **dec);
	/* Decodes from IO's input to its output, advancing both; LAST: the
	 * file has nothing after IO's input. 1 at the end of the stream,
	 * else 0; -EBADMSG, -EFBIG, -ENOMEM. */
	int (*step)(void *dec, struct halo_unpack_io *io, bool last);
	void (*end)(void *dec);
};

extern const struct halo_unpack_codec halo_unpack_zstd;
extern const struct halo_unpack_codec halo_unpack_xz;

/* --- unpack-xz.c: liblzma without its header ---------------------------- */

/* lzma_stream, as lzma.h (base.h) lays it out; LZMA_STREAM_INIT is all
 * zeros. tests/unit/test-modules-unpack.c compares the two where lzma.h
 * is installed. */
struct halo_lzma_stream {
	const uint8_t *next_in;
	size_t avail_in;
	uint64_t total_in;
	uint8_t *next_out;
	size_t avail_out;
	uint64_t total_out;
	const void *allocator;
	void *internal;
	void *reserved_ptr[4];
	uint64_t reserved_int[2];
	size_t reserved_size[2];
	int reserved_enum[2];
};

/* --- parmrec.c: compressed modules' parameter types, kept by apply ---- */


struct halo_parmrec_entry {
	char *key;    /* halo_parmrec_key */
	struct halo_modfile_id id;
	char **parms; /* as struct halo_modinfo's */
};

struct halo_parmrec {
	struct halo_parmrec_entry *v;
	size_t n;
};

void halo_modfile_id_of(const struct stat *st, struct halo_modfile_id *ret);
/* Whether the file's ctime is more than a second before NOW: a change
 * after it is bound to move the ctime (a change within the same clock
 * tick would not). */
bool halo_modfile_id_settled(const struct halo_modfile_id *id, const struct timespec *now);
void halo_parmrec_clear(struct halo_parmrec *rec);
/* "<release>/<path below the module directory>"; NULL on OOM. */
char *halo_parmrec_key(const char *release, const char *relpath);
/* Adds (or replaces) KEY's line. A key or parameter the line format cannot
 * carry (a tab, a line break) is left out: 0, nothing added. */
int halo_parmrec_add(struct halo_parmrec *rec, const char *key,
		     const struct halo_modfile_id *id, char *const *parms);
/* KEY's line when its file identity is ID; NULL otherwise. */
const struct halo_parmrec_entry *halo_parmrec_find(const struct halo_parmrec *rec,
						   const char *key,
						   const struct halo_modfile_id *id);
/* Adds the lines of TEXT to *RET (lines of another shape skipped). */
int halo_parmrec_parse(const char *text, struct halo_parmrec *ret);
/* The file's text, lines sorted by key (REC is sorted); NULL when empty. */
int halo_parmrec_render(struct halo_parmrec *rec, char **ret_text);
/* HALO_MODULES_RECORD_PATH of the root into *RET: absent or unreadable is empty;
 * -EPERM, *RET empty, when it is writable by group or others or owned by
 * another user than the one running. */
int halo_parmrec_load(const struct halo_ctx *ctx, struct halo_parmrec *ret);

#define HALO_PARMREC_MODE 0644
/* How the root's record stands against WANT, the text it should have
 * (NULL: no record). */
enum halo_parmrec_standing {
	HALO_PARMREC_RIGHT,   /* as a check trusts it (or absent, none wanted) */
	HALO_PARMREC_STALE,   /* to be written or removed */
	HALO_PARMREC_FOREIGN, /* another user's: to be removed, then written */
};
int halo_parmrec_standing(const struct halo_ctx *ctx, const char *want,
			  enum halo_parmrec_standing *ret);

/* --- modinfo.c: struct halo_modinfo from .modinfo entries (pure) ------- */

/* Records one "KEY=VALUE" entry (parm and parmtype; others say nothing). */
int halo_modinfo_add_entry(struct halo_modinfo *mi, const char *key, const char *value);
/* Records every entry of a .modinfo section, split as libkmod splits it. */
int halo_modinfo_add_section(struct halo_modinfo *mi, const char *sec, size_t len);

/* --- modindex.c: modules.dep.bin, mapped once a run ------------------- */

/* The root's /lib/modules/<ctx->kernel_release>/modules.dep.bin (the
 * caller has checked the release with halo_kernel_release_valid), or
 * halo_root_map_file's error; the same answer for the whole run until a
 * file is written or a program spawned. The map stays valid until the next
 * call or halo_modindex_release; the caller never unmaps it. */
int halo_modindex_get(struct halo_ctx *ctx, const void **ret_map, size_t *ret_len);
void halo_modindex_release(struct halo_ctx *ctx);

/* --- depindex.c: an exact lookup in modules.dep.bin (pure) ------------ */

/* The first value of KEY in the kmod index BUF; -ENOENT if absent,
 * -EBADMSG if BUF is not a well-formed index. */
int halo_depindex_lookup(const void *buf, size_t len, const char *key, char **ret_value);

/* --- blacklist.c: the blacklist as modprobe reads it (pure) ------------ */

/* kmod's config search list, in its order of precedence, NULL-terminated. */
#define HALO_MODPROBE_N_DIRS 4
extern const char *const halo_modprobe_dirs[HALO_MODPROBE_N_DIRS + 1];
/* kmod's conf_files_filter_out: only *.conf and *.alias, no dot files. */
bool halo_modprobe_conf_name(const char *name);
/* Adds the blacklist names of modprobe.d TEXT (or modules.softdep) to
 * *BLACKLIST and the modules it gives a softdep to *SOFTDEPS. 1 when TEXT
 * also has a directive that changes what a module name means (alias,
 * install, remove), which only libkmod applies; else 0, or -ENOMEM. */
int halo_modprobe_scan(const char *text, char ***blacklist, char ***softdeps);

/* Adds the "blacklist NAME" entries of modprobe.d TEXT to *NAMES. */
int halo_blacklist_from_modprobe(const char *text, char ***names);
/* Adds the modprobe.blacklist= names of kernel command line CMDLINE. */
int halo_blacklist_from_cmdline(const char *cmdline, char ***names);

/* --- sysmodule.c: the kernel's view, /sys/module under the root -------- */

enum halo_modstate {
	HALO_MODSTATE_ABSENT,
	HALO_MODSTATE_LIVE,
	HALO_MODSTATE_COMING,
	HALO_MODSTATE_GOING,
	HALO_MODSTATE_BUILTIN, /* /sys/module/<name> without initstate */
};

int halo_sysmodule_state(const struct halo_ctx *ctx, const char *name,
			 enum halo_modstate *ret);
/* The live value of a parameter, trailing newline removed; -ENOENT if the
 * module does not show it. */
int halo_sysmodule_param(const struct halo_ctx *ctx, const char *name,
			 const char *param, char **ret_value);
/* True when the kernel running under the root is ctx->kernel_release
 * (<root>/proc/sys/kernel/osrelease): only then can modules be loaded. */
bool halo_sysmodule_kernel_running(const struct halo_ctx *ctx);

/* --- options.c: module option values (pure) ---------------------------- */

/* Does the live sysfs value LIVE show WANTED for a parameter of TYPE? */
bool halo_modopt_matches(const char *type, const char *wanted, const char *live);
/* A copy of S with '-' read as '_' (halo_name_normalize); NULL on OOM. */
char *halo_modname_dup(const char *s);

/* --- parmtype.c: option values against their modinfo type (pure) ------ */

/* 0 when the kernel would accept VALUE (NULL: the option has no '=') for a
 * parameter of modinfo TYPE ("uint", "array of int", "" when untyped);
 * -EINVAL when it would refuse it, -ENOMEM. *ret_expected (static text)
 * says what the type takes, for the error message. */
int halo_modopt_check(const char *type, const char *value, const char **ret_expected);

/* --- persist.c: the drop-ins (pure) ------------------------------------ */

#define HALO_MODULES_LOAD_CONF "/etc/modules-load.d/halo-provision.conf"
#define HALO_MODPROBE_CONF "/etc/modprobe.d/halo-provision.conf"

/* The two drop-ins for MC; *ret_* NULL when the file must not exist
 * (persist = false, or nothing to write). */
int halo_modules_render(const struct halo_modules_config *mc,
			char **ret_load, char **ret_modprobe);

/* --- items.c: module/<name> and module/<name>/options ------------------- */

struct halo_module_want {
	const char *name;     /* normalized */
	const struct halo_module_option *options; /* from the config, or NULL */
	bool load;            /* listed in modules.load */
	bool builtin;         /* per modules.builtin */
	bool persist;
	bool kernel_running;
	char *const *pre;     /* dependencies to load first with their options */
	char *const *pre_options;
	const struct halo_modinfo *info;
	bool ignore_blacklist; /* probe without KMOD_PROBE_APPLY_BLACKLIST */
};

int halo_modules_add_load_item(struct halo_plan *plan,
			       const struct halo_module_want *w);
int halo_modules_add_options_item(struct halo_plan *plan,
				  const struct halo_module_want *w);
