/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state.h: the verification state file and the Prometheus textfile. */
#pragma once

#include <stdbool.h>

#include "config/halo-config.h"
#include "engine/plan.h"
#include "halo.h"

#define HALO_STATE_DEFAULT_PATH "/var/lib/halo-provision/state.json"

/* Writes the state JSON (items with wanted/observed/outcome, config digest,
 * tool version, reboot flag, and the `node` facts --cluster compares:
 * src/cluster/cluster.h) at cfg->state.path under the root, only when
 * its content changes: a run that changes nothing leaves it byte-identical
 * (so it carries no timestamp, and records the host's state, not this run's
 * history: "changed" items are "ok", the exit bits lack +2). cfg->state.path
 * NULL: HALO_STATE_DEFAULT_PATH. With --only, the items of the other
 * subsystems are kept from the previous file (the file describes the whole
 * host). Returns 0/1 like halo_write_file_atomic. */
int halo_state_write(struct halo_ctx *ctx, const struct halo_config *cfg,
		     const struct halo_plan *plan, int exit_bits);

/* Calls FN for every item (key, subsystem) of the last state file
 * (cfg->state.path under the root), as --revert's record of the owned
 * files the last apply had. No file, an unreadable or foreign one:
 * nothing. FN's negative result stops the walk and is returned. */
int halo_state_recorded_items(struct halo_ctx *ctx, const struct halo_config *cfg,
			      int (*fn)(void *userdata, const char *key,
					enum halo_subsys subsys),
			      void *userdata);

/*
 * Ownership records: the entries this tool added to a table it shares with
 * others on the host (the DSCP entries of a NIC's APP table), so that a
 * later run removes only its own stale entries, never one someone else
 * added. An item that keeps one starts its data with a struct halo_owned
 * and has ops->free_data = halo_owned_free_data (which is how the state
 * writer finds it). The state file carries a non-empty record as the
 * item's "owned" member, a sorted list of strings ("26:3"); a file
 * without that member (an older version's) means: nothing recorded.
 */
#define HALO_OWNED_MAX 64 /* entries */
#define HALO_OWNED_LEN 16 /* bytes of one entry, NUL included */

struct halo_owned {
	size_t n;
	char v[HALO_OWNED_MAX][HALO_OWNED_LEN];
};

/* free(), for the data of an item that records ownership (see above). */
void halo_owned_free_data(void *data);
bool halo_owned_has(const struct halo_owned *o, const char *entry);
/* Adds ENTRY once: 0, -ENOSPC (full), -ENAMETOOLONG. */
int halo_owned_add(struct halo_owned *o, const char *entry);
void halo_owned_remove(struct halo_owned *o, const char *entry);

/* The record the last state file (cfg->state.path under the root) holds
 * for the item KEY, added to *RET. No file, an unreadable or foreign
 * one, no such item or no "owned" member: nothing added (this tool then
 * owns nothing, the safe side). 0, or -ENOSPC when *RET is full. */
int halo_state_owned_read(struct halo_ctx *ctx, const struct halo_config *cfg,
			  const char *key, struct halo_owned *ret);

/* The node_exporter textfile for PLAN at Unix time NOW (caller frees). */
char *halo_prometheus_render(const struct halo_ctx *ctx,
			     const struct halo_plan *plan, int exit_bits,
			     double now);

/* node_exporter textfile at cfg->state.prometheus under the root (nothing
 * when unset or "", nothing when EXIT_BITS is HALO_EXIT_USAGE: a run that
 * ends with exit 1 leaves the previous file), written atomically. It
 * carries the run time, so every other run rewrites it; that write is not
 * counted in ctx->files_written. Returns 0/1 like halo_write_file_atomic. */
int halo_prometheus_write(struct halo_ctx *ctx, const struct halo_config *cfg,
			  const struct halo_plan *plan, int exit_bits);

/* Debian's /run/reboot-required (and .pkgs naming halo-provision) under the
 * root, each left alone when already so. 0 if nothing written, 1 if written,
 * -errno. */
int halo_reboot_required_write(struct halo_ctx *ctx);
