/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * owned.h: ownership records. The entries this tool added to a table it
 * shares with others on the host (the DSCP entries of a NIC's APP table),
 * so that a later run removes only its own stale entries, never one
 * someone else added. The engine loads the last state file's records
 * once per run, before planning; a planner gives an item a record
 * (halo_item_keep_owned), its ops keep it up to date through
 * item->owned, and the state writer stores it as the item's "owned"
 * member, a sorted list of strings ("26:3"). No subsystem reads the state
 * file. A file without that member (an older version's) means: nothing
 * recorded, the safe side.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#define HALO_OWNED_MAX 64 /* entries */
#define HALO_OWNED_LEN 16 /* bytes of one entry, NUL included */

struct halo_owned {
	size_t n;
	char v[HALO_OWNED_MAX][HALO_OWNED_LEN];
};

bool halo_owned_has(const struct halo_owned *o, const char *entry);
/* Adds ENTRY once: 0, -ENOSPC (full), -ENAMETOOLONG. */
int halo_owned_add(struct halo_owned *o, const char *entry);
void halo_owned_remove(struct halo_owned *o, const char *entry);

/* The records of the last state file, by item key: an ownership record,
 * the item's memo (item.h), NULL when it had none, and for an owned file
 * its path and its subsystem's name (NULL for any other item). */
struct halo_recorded {
	char *key;
	struct halo_owned owned;
	char *memo;
	char *path, *subsystem;
};

struct halo_records {
	struct halo_recorded *v;
	size_t n;
	char *textfile; /* the Prometheus textfile the file records, or NULL */
	bool ours;      /* the text was a state file of ours (this schema) */
};

void halo_records_free(struct halo_records *records);
/* Adds ENTRY to the record of KEY (made on first use). 0 or -errno. */
int halo_records_add(struct halo_records *records, const char *key, const char *entry);
/* Keeps MEMO as the memo of KEY (made on first use). 0 or -errno. */
int halo_records_set_memo(struct halo_records *records, const char *key, const char *memo);
/* Keeps PATH and SUBSYSTEM as the owned file KEY records. 0 or -errno. */
int halo_records_set_file(struct halo_records *records, const char *key, const char *path,
			  const char *subsystem);
