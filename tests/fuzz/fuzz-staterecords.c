/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-staterecords.c: the one-pass reading of a state file's ownership
 * records (src/engine/state-scan.h). Input: the file's text.
 *
 * Property: whenever the scan reads a text itself (rather than leaving it
 * to json-c), its records are exactly those the parsed document gives
 * (halo_state_records_parse): the two readings never disagree on what a
 * state file records as owned.
 */
#include "config.h"

#include <errno.h>

#include "engine/state-scan.h"
#include "engine/state.h"
#include "fuzz/fuzz.h"
#include "unit/state-records-test.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct halo_records scanned, parsed;
	char *text = malloc(size + 1);
	int r;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	r = halo_state_scan_records(text, size, 1, &scanned);
	FUZZ_CHECK(r == 0 || r == 1 || r == -ENOMEM);
	if (r == 1 && halo_state_records_parse(text, &parsed) == 0) {
		FUZZ_CHECK(same_records(&scanned, &parsed));
		halo_records_free(&parsed);
	}
	if (r == 0)
		FUZZ_CHECK(scanned.n == 0);
	halo_records_free(&scanned);
	free(text);
	return 0;
}
