/* SPDX-License-Identifier: GPL-2.0-or-later */
/* halo.h: the run context and the small conventions every file shares. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _must_check_ __attribute__((warn_unused_result))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _nonnull_(...) __attribute__((nonnull(__VA_ARGS__)))
#define _unused_ __attribute__((unused))

static inline void freep(void *p) { free(*(void **)p); }
static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
/* Hand ownership out of a _cleanup_ variable. */
#define TAKE_PTR(p)                                                            \
	({                                                                     \
		__typeof__(p) _p_ = (p);                                       \
		(p) = NULL;                                                    \
		_p_;                                                           \
	})
#define TAKE_FD(fd)                                                            \
	({                                                                     \
		int _fd_ = (fd);                                               \
		(fd) = -1;                                                     \
		_fd_;                                                          \
	})
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Subsystems: the bit an item and --only's mask carry. Each is declared,
 * with its name and hooks, in the table of src/subsystems.c. */
enum halo_subsys {
	HALO_SUB_BOOT = 1u << 0,
	HALO_SUB_MODULES = 1u << 1,
	HALO_SUB_LINKS = 1u << 2,
	HALO_SUB_ROCE = 1u << 3,
	HALO_SUB_RDMA = 1u << 4,
	HALO_SUB_FILES = 1u << 5,
	HALO_SUB_STORAGE = 1u << 6,
	HALO_SUB_READY = 1u << 7,
};

enum halo_mode {
	HALO_MODE_APPLY,
	HALO_MODE_CHECK,
	HALO_MODE_DRY_RUN,
	HALO_MODE_VALIDATE,
	HALO_MODE_STATUS,
};

/* Exit status bits (pinned; the man page lists them). */
enum halo_exit {
	HALO_EXIT_OK = 0,
	HALO_EXIT_USAGE = 1,   /* usage, config or validation error: nothing changed */
	HALO_EXIT_CHANGED = 2, /* apply changed / check or dry-run found drift */
	HALO_EXIT_FAILED = 4,  /* at least one item failed */
	HALO_EXIT_REBOOT = 8,  /* reboot or driver reload needed */
};

struct halo_registry; /* engine/subsystem.h: the subsystems of the program */
struct halo_kmod;  /* modules/: lazily created libkmod context */
struct halo_modindex; /* modules/: the module index, mapped once a run */
struct halo_nlt;   /* netlink/: the run's netlink transport */
struct halo_rtnl;  /* netlink/: the run's rtnetlink snapshots */
struct halo_host;  /* host/: the managed interfaces, resolved once */
struct halo_refusals; /* util/rootfs.h: the reads the file layer refused */
struct halo_rootcache; /* util/rootfs: what a run that changes nothing read */

/*
 * One context, made once in main and passed first to everything. Paths that
 * the host owns (/etc, /proc, /sys, /run, /boot, /lib/modules) are always
 * resolved inside root_fd through util/rootfs.h, never by string concat.
 */
struct halo_ctx {
	const char *root;           /* "/" unless --root DIR */
	int root_fd;                /* O_PATH|O_DIRECTORY descriptor of root */
	bool under_root;            /* --root given and not "/": never spawn host tools */
	const char *netns;          /* --netns NAME or NULL (host path /run/netns/NAME) */
	const char *kernel_release; /* --kernel-release or uname -r */
	bool kernel_release_guessed; /* uname -r's: no --kernel-release given */
	enum halo_mode mode;
	/* --revert: the plan is turned into its undo (engine/revert.c);
	 * mode stays APPLY or DRY_RUN, so the engine runs it as usual. */
	bool revert;
	/* The subsystem table (src/subsystems.c), handed down by main. */
	const struct halo_registry *registry;
	unsigned only;              /* enum halo_subsys mask; by default every
				     * subsystem but the on-request ones */
	const char *interface;      /* --interface NAME: only that managed link's items */
	unsigned wait_seconds;      /* --wait: how long to wait for the run lock */
	int verbosity;              /* -1 quiet, 0 normal, 1 verbose */
	bool json;
	bool diff;
	/* Called once when the run has waited a second for another run's
	 * lock: HOLDER is "pid N, MODE, since TIME", or NULL when that run
	 * left no record. Set by main, which prints; NULL: say nothing. */
	void (*lock_waiting)(const struct halo_ctx *ctx, const char *lock, const char *holder);
	/* Facts found once per run before planning, for the subsystems that
	 * need another one's knowledge (boot never calls into modules/). */
	bool amdgpu_dkms;           /* amdgpu is the amdgpu-dkms build (amdttm) */
	/* The managed interfaces, resolved after the modules phase (host/);
	 * read-only for every planner. NULL until then. */
	struct halo_host *host;

	/* Lazily opened library handles, owned and freed by their subsystem. */
	struct halo_kmod *kmod;
	struct halo_modindex *modindex;
	/* What an apply keeps of compressed modules' parameter types, for
	 * the record it writes after its phases (modules/parmrec.c). */
	struct halo_parmrec *modparms;
	/* The run's netlink (netlink/context.h): its transport and the
	 * rtnetlink snapshots, made on first use, released by main's
	 * cleanup. */
	struct halo_nlt *nlt;
	struct halo_rtnl *rtnl;
	/* The root as read so far, in a run that changes nothing (NULL
	 * otherwise): util/rootfs.h, halo_root_snapshot_start. */
	struct halo_rootcache *rootcache;

	/* Counted up by the engine before it observes again after the
	 * phases applied: the host may have changed under what was read
	 * before (a driver's port reset), so a cache of host state read in an
	 * earlier generation is read anew. */
	unsigned long generation;

	/* Where the file layer notes each file it refused to read (a FIFO, a
	 * device, a directory: util/rootfs-refused.c), so that no refusal
	 * passes unnamed whatever the caller makes of the error; NULL: not
	 * noted. The run owns it. */
	struct halo_refusals *refusals;

	/* Counters reported in the JSON "stats" object: tests assert on them. */
	unsigned long files_written;    /* files created, replaced or removed */
	unsigned long netlink_requests; /* requests sent to the kernel */
	unsigned long spawned;          /* external programs run */
};
