/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state-int.h: what the state file's writer (state.c) and its --status
 * reader (state-status.c) share. */
#pragma once

#include <json-c/json.h>

/* The "schema_version" of the state file this version writes and reads. */
#define STATE_SCHEMA_VERSION 1

/* The string member NAME of O, or NULL (absent or not a string). */
const char *halo_state_member_string(struct json_object *o, const char *name);
