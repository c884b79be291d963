/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state-scan.h: a state file's ownership records, read without building
 * the document. */
#pragma once

#include <stddef.h>

#include "engine/owned.h"

/*
 * The records of the state file TEXT (LEN bytes): for every element of
 * "items", its "memo", its "path" and "subsystem" (when both are strings)
 * and the "owned" strings shorter than HALO_OWNED_LEN, under its "key",
 * and the top-level "textfile" (when a string), exactly as halo_state_records_parse takes them from the
 * parsed document; none when the file is not one of ours (a
 * "schema_version" other than SCHEMA, "items" not an array).
 *
 * 1 with *RET filled; 0, *RET empty, for any TEXT that is not plain JSON
 * (RFC 8259) of the usual shape: a \u escape, a number or nesting json-c
 * reads its own way, a member read here given twice, text after the
 * document, a NUL. The caller then parses the document, which decides.
 * -ENOMEM.
 */
int halo_state_scan_records(const char *text, size_t len, int schema,
			    struct halo_records *ret);
