/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-hosttext.c: the parsers of the text files the host and its kernel
 * provide, read under --root:
 *  - /proc/meminfo MemTotal (src/boot/gtt.c),
 *  - modprobe.d `options` lines (src/boot/gtt.c),
 *  - /etc/os-release ID / ID_LIKE (src/boot/detect.c),
 *  - NetworkManager's /run/NetworkManager/devices/<ifindex> keyfile, our
 *    unmanaged-devices drop-in and connection profiles (src/links/nm.c),
 *  - systemd-networkd's .network files and its runtime link records
 *    (src/host/networkd*.c),
 *  - the `linux` line of grub.cfg and the `options` line of a BLS entry
 *    (src/boot/levels.c: line_after is static, so levels.c is compiled
 *    into this target; the code under test is unchanged), then tokenized,
 *  - the --revert record of command-line edits (src/boot/record.c): what
 *    parses renders and parses back to the same text,
 *  - /proc/self/mountinfo (src/storage/mountinfo.c) and /etc/group
 *    (src/files/group.c),
 *  - the record of module parameter types (src/modules/parmrec.c): what
 *    parses renders and parses back to the same text, and every line
 *    kept is found again by its key and identity.
 * Input: one file text; every parser gets the same bytes.
 */
#include "../../src/boot/levels.c"

#include "boot/detect.h"
#include "boot/record.h"
#include "boot/gtt.h"
#include "fuzz/fuzz.h"
#include "files/group.h"
#include "host/networkd.h"
#include "links/nm.h"
#include "modules/internal.h"
#include "storage/mountinfo.h"

static void check_option(const char *text, const char *module,
			 const char *param)
{
	char *value = NULL;
	int r = halo_modprobe_find_option(text, module, param, &value);

	FUZZ_CHECK(r >= 0 && (unsigned)r <= fuzz_count_lines(text));
	FUZZ_CHECK(r == 0 ? value == NULL : value != NULL);
	if (value)
		FUZZ_CHECK(!strpbrk(value, " \t\n"));
	free(value);
}

static void check_line(const char *text, const char *const *words, size_t n)
{
	char *line = line_after(text, words, n);
	char **tok = NULL;

	if (!line)
		return;
	FUZZ_CHECK(!strchr(line, '\n'));
	FUZZ_CHECK(halo_cmdline_split(line, &tok) == 0);
	halo_strv_free(tok);
	free(line);
}

/* A record that parses renders to a text that parses to the same record. */
static void check_record(const char *text)
{
	struct boot_record rec, again;
	char *out = NULL, *out2 = NULL;
	unsigned line;
	int r = boot_record_parse(text, &rec, &line);

	FUZZ_CHECK(r == 0 || r == -EBADMSG || r == -ENOMEM);
	if (r == -EBADMSG)
		FUZZ_CHECK(line >= 1 && line <= fuzz_count_lines(text) + 1);
	if (r < 0)
		return;
	if (boot_record_render(&rec, &out) == 0 && out) {
		FUZZ_CHECK(boot_record_parse(out, &again, &line) == 0);
		FUZZ_CHECK(again.no == rec.no && again.nk == rec.nk);
		FUZZ_CHECK(boot_record_render(&again, &out2) == 0 && out2 && strcmp(out, out2) == 0);
		boot_record_free(&again);
	}
	free(out);
	free(out2);
	boot_record_free(&rec);
}

static void check_parmrec(const char *text)
{
	struct halo_parmrec rec = { 0 }, again = { 0 };
	char *out = NULL, *out2 = NULL;
	int r = halo_parmrec_parse(text, &rec);

	FUZZ_CHECK(r == 0 || r == -ENOMEM);
	if (r < 0)
		return;
	for (size_t i = 0; i < rec.n; i++)
		FUZZ_CHECK(halo_parmrec_find(&rec, rec.v[i].key, &rec.v[i].id) == &rec.v[i]);
	if (halo_parmrec_render(&rec, &out) == 0 && out) {
		FUZZ_CHECK(halo_parmrec_parse(out, &again) == 0 && again.n == rec.n);
		FUZZ_CHECK(halo_parmrec_render(&again, &out2) == 0 && out2 && strcmp(out, out2) == 0);
	}
	FUZZ_CHECK(rec.n > 0 || !out);
	free(out);
	free(out2);
	halo_parmrec_clear(&again);
	halo_parmrec_clear(&rec);
}

static void check_mount_and_group(const char *text)
{
	struct halo_mount m = { 0 };
	gid_t gid;
	int r = halo_mountinfo_find(text, "/models", &m);

	FUZZ_CHECK(r == 0 || r == 1 || r == -EBADMSG || r == -ENOMEM);
	if (r == 1)
		FUZZ_CHECK(m.fstype && m.source);
	halo_mount_free(&m);
	r = halo_group_find(text, "render", &gid);
	FUZZ_CHECK(r == 0 || r == 1);
}

/* A .network file parses into lists whose words are never empty (an
 * empty value resets a list) and matches a link or not; the runtime
 * record's fields stay NUL-terminated. */
static void check_networkd(const char *text)
{
	static const uint8_t mac[6] = { 0xb4, 0x96, 0x91, 0xaa, 0xbb, 0x01 };
	static char *const alt[] = { (char *)"enp194s0f0np0", NULL };
	const struct halo_networkd_link l = {
		.name = "enp194s0f0", .altnames = alt, .mac = mac, .mac_len = 6,
		.perm_mac = mac, .perm_mac_len = 6, .driver = "mlx5_core",
		.path = "pci-0000:c2:00.0", .type = "ether",
	};
	struct halo_networkd_files files = { .v = calloc(1, sizeof(*files.v)), .n = 1 };
	struct halo_networkd_state st;
	struct halo_nm_profile prof;
	uint8_t b[6];

	FUZZ_CHECK(files.v != NULL);
	if (halo_networkd_parse(text, &files.v[0]) == 0) {
		for (char **w = files.v[0].match.name; w && *w; w++)
			FUZZ_CHECK(**w != '\0');
		(void)halo_networkd_first(&files, &l);
	}
	halo_networkd_files_free(&files);
	halo_networkd_parse_state(text, &st);
	FUZZ_CHECK(strlen(st.network_file) < sizeof(st.network_file));
	FUZZ_CHECK(!strchr(st.admin_state, '\n'));
	(void)halo_networkd_parse_mac(text, b);
	halo_nm_parse_profile(text, &prof);
	FUZZ_CHECK(!strchr(prof.id, '\n') && !strchr(prof.interface_name, '\n') &&
		   !strchr(prof.mac, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const linux_cmds[] = { "linux", "linuxefi", "linux16" };
	static const char *const options_kw[] = { "options" };
	char *text = fuzz_string(data, size);
	uint64_t kib = 0;
	bool fedora, debian;
	int r;

	if (halo_meminfo_memtotal_kib(text, &kib) == 0)
		FUZZ_CHECK(kib > 0);
	check_option(text, "amdgpu", "gttsize");
	check_option(text, "ttm", "pages_limit");
	check_option(text, "amdttm", "pages_limit");
	halo_os_release_family(text, &fedora, &debian);
	r = halo_nm_parse_device_state(text);
	FUZZ_CHECK(r == 0 || r == 1);
	(void)halo_nm_dropin_lists(text, "rdma0");
	check_line(text, linux_cmds, ARRAY_SIZE(linux_cmds));
	check_line(text, options_kw, 1);
	check_record(text);
	check_parmrec(text);
	check_mount_and_group(text);
	check_networkd(text);
	free(text);
	return 0;
}
