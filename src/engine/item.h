/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * item.h: the one model every subsystem fills (docs/architecture.md "every setting is
 * an item"). A subsystem adds items to the plan with ops that observe and
 * apply; the engine runs every mode over the same list; text, JSON, diff,
 * Prometheus and the state file are views of it. Subsystems never print.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/owned.h"
#include "halo.h"

struct halo_interface;

enum halo_outcome {
	HALO_OUTCOME_OK,
	HALO_OUTCOME_CHANGED,
	HALO_OUTCOME_DRIFT,
	HALO_OUTCOME_PENDING_REBOOT, /* configured, not yet active */
	HALO_OUTCOME_UNSUPPORTED,    /* the hardware has no such knob */
	HALO_OUTCOME_FAILED,
};
/* Outcomes are listed (summaries, JSON, Prometheus) in enum order. */
#define HALO_N_OUTCOMES (HALO_OUTCOME_FAILED + 1)

/* What an observation found; returned by ops->observe (>= 0). */
enum halo_sync {
	HALO_SYNC_OK,          /* host matches */
	HALO_SYNC_DIFFERS,     /* apply would change it */
	HALO_SYNC_PENDING,     /* configured, active after reboot/reload */
	HALO_SYNC_UNSUPPORTED, /* no such knob here (failed if item->required) */
	HALO_SYNC_INVALID,     /* the host makes the config impossible (bad
				* /etc/default/grub, MTU above device max,
				* symlinked target, ...): exit 1, nothing changed */
};

/* Apply order: modules first (they bring the devices), the links' own
 * state, the NICs' DCB before the addresses and routes (ice resets the port
 * on every DCB change it applies, which flushes routes and IPv6
 * addresses: docs/hardware.md "E810 (ice): DCB"), RDMA on the addresses,
 * files, the boot configuration last. */
enum halo_phase {
	HALO_PHASE_MODULES,
	HALO_PHASE_LINKS,
	HALO_PHASE_ROCE,
	HALO_PHASE_ADDRESSES,
	HALO_PHASE_RDMA,
	HALO_PHASE_FILES,
	HALO_PHASE_BOOT,
	/* Check-only (readiness): after every phase the engine applies, so
	 * it never applies these items. */
	HALO_PHASE_CHECK_ONLY,
};

struct halo_item;
struct halo_plan;

struct halo_item_ops {
	/* Sets item->observed (halo_item_set_observed) and returns a
	 * halo_sync, or -errno for a failure; UNSUPPORTED, INVALID and errors
	 * set item->message (cleared by the engine before the call). Must
	 * not change the host. Called again after apply, to verify. */
	int (*observe)(struct halo_ctx *ctx, struct halo_item *item);
	/* Makes the host match the wanted value. 0 or -errno, message set on
	 * error; a remark about the change itself goes to item->note. Only
	 * called after observe returned HALO_SYNC_DIFFERS.
	 * NULL: the item is applied through other items (a boot parameter is
	 * carried by the file that holds it); the engine only observes it
	 * again after the apply. */
	int (*apply)(struct halo_ctx *ctx, struct halo_item *item);
	/* Frees item->data. May be NULL: then free() is enough. */
	void (*free_data)(void *data);
	/* --revert: adds ITEM's undo to TO (an item of the same key with
	 * reverting set; engine/revert.c). 0 or -errno. NULL: the engine's
	 * default (an owned file is removed, anything else left as is). */
	int (*revert)(const struct halo_item *item, struct halo_plan *to);
};

struct halo_item {
	char *key;      /* stable: "boot/param/iommu", "module/irdma", ... */
	uint32_t key_hash; /* of KEY (halo_plan_add): what halo_plan_find tests first */
	char *wanted;   /* display form of the wanted value */
	char *observed; /* display form of what the host has; NULL: absent */
	/* One line about the last observation or the failure: why it
	 * differs, what to reload, the error. The engine clears it before
	 * every observation, so it always speaks of the state the item is
	 * in now. */
	char *message;
	/* One line the subsystem adds at plan time (how the file is read,
	 * when it takes effect) or that apply adds about its own change
	 * ("carrier back after 300 ms"); reports print it after the
	 * message. The engine never clears it. */
	char *note;
	enum halo_subsys subsys;
	enum halo_phase phase;
	/* The interface entry the item configures (link, roce and rdma
	 * items), NULL for the rest: what an --interface run and the state
	 * file tell one interface's items by. */
	const struct halo_interface *iface;
	/* The file the item writes whole (an owned file, the firewall zone,
	 * the env file), absolute inside the root; NULL for anything else.
	 * --revert removes it. */
	char *path;
	/* A path apply creates that is no owned file (the symlink enabling a
	 * mount unit), absolute inside the root; NULL for the rest. Proven
	 * writable before the first change, like PATH. */
	char *creates;
	/* What the file at PATH is to the operator, with the config key that
	 * makes the run write it, when the path alone would not say ("the
	 * record of the command-line edits (boot)"): lines about the file
	 * that are not the item's own name it so. Static; NULL for the rest. */
	const char *what;
	/* One kernel command-line parameter (wanted is "key=value" as the
	 * command line holds it): the boot facts --cluster compares. */
	bool cmdline_param;
	/* The wanted value is a command to paste (boot/regenerate): the
	 * text report cuts it at a blank. */
	bool wanted_command;
	/* What applying this item also does to its interface that may undo
	 * other items there ("the port reset that ice does on every DCB
	 * change"); NULL when nothing is known. Named when such an item
	 * undid another. */
	const char *side_effect;
	unsigned applies;         /* set by the engine: applies in this run */
	enum halo_sync sync;       /* last observation */
	enum halo_outcome outcome; /* set by the engine */
	bool required;            /* unsupported counts as failed */
	bool activates_on_reboot; /* applying leaves a reboot/reload pending */
	bool changed;             /* apply changed it in this run */
	bool reverting;           /* --revert: already the undo (its subsystem
				   * made it); engine/revert.c keeps it */
	/* Applied only if NEEDS (an earlier item of the same phase) did not
	 * fail in this run: the undo record before the edits it describes. */
	const struct halo_item *needs;
	/* The entries of a shared table this item added (owned.h), NULL
	 * when it keeps no record; written to the state file. */
	struct halo_owned *owned;
	/* One line the item remembers across runs, its subsystem's to read
	 * and write (a driverinit value set, and when); the state file keeps
	 * it and the planner gets it back (halo_plan_recorded_memo). */
	char *memo;
	char *diff;               /* unified diff (file items), for --diff */
	char *was;                /* set by the engine: observed before apply */
	const struct halo_item_ops *ops;
	void *data;
};

int halo_item_set_wanted(struct halo_item *item, const char *fmt, ...) _printf_(2, 3);
int halo_item_set_observed(struct halo_item *item, const char *fmt, ...) _printf_(2, 3);
/* NULL fmt clears. */
int halo_item_set_message(struct halo_item *item, const char *fmt, ...) _printf_(2, 3);
int halo_item_set_note(struct halo_item *item, const char *fmt, ...) _printf_(2, 3);
/* Convenience for observe/apply failures: sets "what: strerror(-err)" and
 * returns err (negative). */
int halo_item_fail(struct halo_item *item, int err, const char *fmt, ...) _printf_(3, 4);
/* The same with the reason given: "what: WHY" (WHY NULL: as above). */
int halo_item_fail_why(struct halo_item *item, int err, const char *why, const char *fmt, ...)
	_printf_(4, 5);
/* A failure whose text says it all: the message is exactly the formatted
 * text (no errno text appended); returns ERR. */
int halo_item_refuse(struct halo_item *item, int err, const char *fmt, ...) _printf_(3, 4);

const char *halo_outcome_name(enum halo_outcome o); /* "ok", "pending-reboot", ... */

/* Gives ITEM an ownership record (owned.h): a copy of OWNED. 0 or -ENOMEM. */
int halo_item_keep_owned(struct halo_item *item, const struct halo_owned *owned);

/* Frees the item and everything it owns (ops->free_data, or free(), on
 * data). */
void halo_item_free(struct halo_item *item);
