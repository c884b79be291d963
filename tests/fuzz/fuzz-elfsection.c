/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-elfsection.c: the .modinfo lookup in a module's ELF file
 * (src/modules/elfsection.c), a file of the --root tree and so hostile
 * input, and the split of what it finds (modinfo.c). Input: the file.
 *
 * Properties: the lookup fails with -ENOENT or -EBADMSG, or returns a
 * section that lies entirely within the file's bytes; that section is
 * then split into parameters without error. The descriptor reader
 * (pread, as modules are read) gives the same answer and the same bytes.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz/fuzz.h"
#include "modules/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *file = fuzz_copy(data, size);
	_cleanup_modinfo_ struct halo_modinfo *mi = calloc(1, sizeof(*mi));
	const char *sec = NULL;
	size_t len = 0;
	int r;

	FUZZ_CHECK(mi);
	r = halo_elf_section(file, size, ".modinfo", &sec, &len);
	FUZZ_CHECK(r == 0 || r == -ENOENT || r == -EBADMSG);
	if (r == 0) {
		FUZZ_CHECK(sec >= (const char *)file && len <= size);
		FUZZ_CHECK((size_t)(sec - (const char *)file) <= size - len);
		FUZZ_CHECK(halo_modinfo_add_section(mi, sec, len) == 0);
	}
	{
		int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
		char *got = NULL;
		size_t got_len = 0;

		FUZZ_CHECK(fd >= 0 && write(fd, data, size) == (ssize_t)size);
		FUZZ_CHECK(halo_elf_section_fd(fd, size, NULL, 0, ".modinfo", &got, &got_len) == r);
		FUZZ_CHECK(r != 0 || (got_len == len && memcmp(got, sec, len) == 0));
		free(got);
		got = NULL;
		/* With the file's first bytes already read, as native.c does. */
		FUZZ_CHECK(halo_elf_section_fd(fd, size, data, size / 2, ".modinfo", &got,
					       &got_len) == r);
		FUZZ_CHECK(r != 0 || (got_len == len && memcmp(got, sec, len) == 0));
		free(got);
		close(fd);
	}
	free(file);
	return 0;
}
