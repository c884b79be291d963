/* SPDX-License-Identifier: GPL-2.0-or-later */
/* detect.c: boot loader detection for loader = "auto" (see detect.h). */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "boot/detect.h"
#include "util/rootfs.h"
#include "util/strv.h"

enum halo_boot_loader halo_boot_detect(const struct halo_boot_facts *f)
{
	if (f->bls_entries && f->default_grub && (f->fedora_like || f->grubby))
		return HALO_LOADER_BLS;
	if (f->grub_d || (f->default_grub && f->debian_like))
		return HALO_LOADER_GRUB_DROPIN;
	if ((f->kernel_cmdline || f->bls_entries) && !f->default_grub)
		return HALO_LOADER_KERNEL_CMDLINE;
	if (f->default_grub)
		return HALO_LOADER_GRUB;
	return HALO_LOADER_AUTO;
}

/* True if the space-separated list VALUE (quotes allowed) has WORD. */
static bool list_has(const char *value, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = value; *p;) {
		size_t len;

		p += strspn(p, " \t\"'");
		len = strcspn(p, " \t\"'\n");
		if (len == n && memcmp(p, word, n) == 0)
			return true;
		if (!len)
			break;
		p += len;
	}
	return false;
}

void halo_os_release_family(const char *text, bool *ret_fedora_like,
			    bool *ret_debian_like)
{
	static const char *const fedora[] = { "fedora", "rhel", "centos" };
	static const char *const debian[] = { "debian", "ubuntu" };
	bool fl = false, dl = false;

	for (const char *p = text; *p;) {
		const char *eol = strchrnul(p, '\n');
		_cleanup_free_ char *line = strndup(p, (size_t)(eol - p));
		const char *v = NULL;

		if (line && strncmp(line, "ID=", 3) == 0)
			v = line + 3;
		else if (line && strncmp(line, "ID_LIKE=", 8) == 0)
			v = line + 8;
		for (size_t i = 0; v && i < ARRAY_SIZE(fedora); i++)
			fl = fl || list_has(v, fedora[i]);
		for (size_t i = 0; v && i < ARRAY_SIZE(debian); i++)
			dl = dl || list_has(v, debian[i]);
		p = *eol ? eol + 1 : eol;
	}
	*ret_fedora_like = fl;
	*ret_debian_like = dl;
}

static bool is_dir(struct halo_ctx *ctx, const char *path)
{
	struct stat st;

	return halo_root_lstat(ctx, path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool has_conf(struct halo_ctx *ctx, const char *dir)
{
	_cleanup_strv_free_ char **names = NULL;

	if (halo_root_list_dir(ctx, dir, &names) < 0)
		return false;
	for (size_t i = 0; names[i]; i++) {
		size_t n = strlen(names[i]);

		if (n > 5 && strcmp(names[i] + n - 5, ".conf") == 0)
			return true;
	}
	return false;
}

/* Reads only the facts that can still change halo_boot_detect's answer
 * (a probe costs a system call or more; on a Debian machine with
 * /etc/default/grub the answer is known after two). os-release is always
 * read: an error reading it is the answer. The rules' order decides:
 * grubby matters only with BLS entries, /etc/default/grub and no Fedora
 * family; grub.d only when the BLS rule failed and the Debian one would
 * not already hold; /etc/kernel/cmdline only without /etc/default/grub
 * and BLS entries. */
int halo_boot_detect_root(struct halo_ctx *ctx, enum halo_boot_loader *ret)
{
	static const char *const grubby[] = { "/usr/sbin/grubby",
					      "/usr/bin/grubby", "/sbin/grubby" };
	struct halo_boot_facts f = { 0 };
	_cleanup_free_ char *osr = NULL;
	bool bls;
	size_t len;
	int r;

	f.default_grub = halo_root_exists(ctx, "/etc/default/grub") > 0;
	f.bls_entries = has_conf(ctx, "/boot/loader/entries");
	r = halo_read_file(ctx, "/etc/os-release", &osr, &len);
	if (r == -ENOENT)
		r = halo_read_file(ctx, "/usr/lib/os-release", &osr, &len);
	if (r >= 0)
		halo_os_release_family(osr, &f.fedora_like, &f.debian_like);
	else if (r != -ENOENT)
		return r;
	if (f.bls_entries && f.default_grub && !f.fedora_like)
		for (size_t i = 0; i < ARRAY_SIZE(grubby) && !f.grubby; i++)
			f.grubby = halo_root_exists(ctx, grubby[i]) > 0;
	bls = f.bls_entries && f.default_grub && (f.fedora_like || f.grubby);
	if (!bls && !(f.default_grub && f.debian_like))
		f.grub_d = is_dir(ctx, "/etc/default/grub.d");
	if (!f.default_grub && !f.bls_entries)
		f.kernel_cmdline = halo_root_exists(ctx, "/etc/kernel/cmdline") > 0;
	*ret = halo_boot_detect(&f);
	return 0;
}
