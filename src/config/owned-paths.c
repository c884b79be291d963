/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * owned-paths.c: the outputs (state.path, state.env_file,
 * state.prometheus) against every file a run owns or records. An output
 * on an owned file never converges (each run rewrites the file, then the
 * output overwrites it) and an output on a record destroys it (a later
 * --revert would no longer know what to undo). The names here are the
 * ones the subsystems write (src/boot, src/modules, src/links,
 * src/files, src/storage); the engine checks the planned items again
 * before the first change (engine/outputs.c), so a file added there and
 * forgotten here is still refused, naming the item.
 */
#include <stdio.h>
#include <string.h>

#include "config/sections.h"

/* The directory of halo-provision's own records: the state file and what
 * the subsystems record beside it (the boot edits, the module
 * parameter types). */
#define RECORDS_DIR "/var/lib/halo-provision"

/* Which config key makes a run own the file; its line when present. */
enum owner {
	OWNER_BOOT,
	OWNER_MODULES,
	OWNER_INTERFACES,
	OWNER_ACCESS,
	OWNER_MEMLOCK,
	OWNER_SYSCTL,
	OWNER_FIREWALL,
	OWNER_STORAGE,
};

static const struct {
	const char *path;
	enum owner owner;
	const char *what;
} owned[] = {
	{ "/etc/default/grub", OWNER_BOOT, "the GRUB defaults file halo-provision edits" },
	{ "/etc/default/grub.d/zz-halo-provision.cfg", OWNER_BOOT, "the GRUB drop-in halo-provision writes" },
	{ "/etc/kernel/cmdline", OWNER_BOOT, "the kernel command line file halo-provision edits" },
	{ RECORDS_DIR "/cmdline-edits", OWNER_BOOT, "the record of halo-provision's command-line edits" },
	{ "/etc/modules-load.d/halo-provision.conf", OWNER_MODULES, "the modules-load.d drop-in halo-provision writes" },
	{ "/etc/modprobe.d/halo-provision.conf", OWNER_MODULES, "the modprobe.d drop-in halo-provision writes" },
	{ RECORDS_DIR "/module-parameters", OWNER_MODULES,
	  "the record of module parameter types halo-provision keeps" },
	{ "/etc/NetworkManager/conf.d/90-halo-provision-unmanaged.conf", OWNER_INTERFACES,
	  "the NetworkManager drop-in halo-provision writes" },
	{ "/etc/systemd/network/00-halo-provision-unmanaged.network", OWNER_INTERFACES,
	  "the systemd-networkd drop-in halo-provision writes" },
	{ "/etc/udev/rules.d/70-halo-access.rules", OWNER_ACCESS, "the udev rule halo-provision writes" },
	{ "/etc/security/limits.d/90-halo-provision.conf", OWNER_MEMLOCK,
	  "the limits.d drop-in halo-provision writes" },
	{ "/etc/systemd/system.conf.d/90-halo-provision.conf", OWNER_MEMLOCK,
	  "the systemd drop-in halo-provision writes" },
	{ "/etc/systemd/user.conf.d/90-halo-provision.conf", OWNER_MEMLOCK,
	  "the systemd user drop-in halo-provision writes" },
	{ "/etc/sysctl.d/90-halo-provision.conf", OWNER_SYSCTL, "the sysctl.d drop-in halo-provision writes" },
	{ "/etc/firewalld/zones/halo-rdma.xml", OWNER_FIREWALL, "the firewalld zone halo-provision writes" },
	{ "/etc/nftables.d/halo-provision.nft", OWNER_FIREWALL, "the nftables table halo-provision writes" },
};

static const char *const owner_key[] = {
	[OWNER_BOOT] = "boot",
	[OWNER_MODULES] = "modules",
	[OWNER_INTERFACES] = "interfaces",
	[OWNER_ACCESS] = "access",
	[OWNER_MEMLOCK] = "access.memlock",
	[OWNER_SYSCTL] = "sysctl",
	[OWNER_FIREWALL] = "firewall",
	[OWNER_STORAGE] = "storage",
};

/* The line of the key that makes this config own the file; 0 when this
 * config does not (another config on the host may: still refused). */
static int owner_line(const struct halo_config *c, enum owner o)
{
	switch (o) {
	case OWNER_BOOT:
		return c->boot.present ? c->boot.line : 0;
	case OWNER_MODULES:
		return c->modules.present ? c->modules.line : 0;
	case OWNER_INTERFACES:
		return c->n_interfaces ? c->interfaces[0].line : 0;
	case OWNER_ACCESS:
		return c->access.present ? c->access.line : 0;
	case OWNER_MEMLOCK:
		return c->access.memlock_set ? c->access.memlock_line : 0;
	case OWNER_SYSCTL:
		return c->sysctl.present ? c->sysctl.line : 0;
	case OWNER_FIREWALL:
		return c->firewall.present ? c->firewall.line : 0;
	case OWNER_STORAGE:
		return c->n_storage ? c->storage[0].line : 0;
	}
	return 0;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* What owned file PATH is (a static string) and who owns it, or NULL. */
static const char *owned_file(const char *path, enum owner *ret_owner)
{
	static const char unit_dir[] = "/etc/systemd/system/";

	for (size_t i = 0; i < ARRAY_SIZE(owned); i++)
		if (strcmp(path, owned[i].path) == 0) {
			*ret_owner = owned[i].owner;
			return owned[i].what;
		}
	/* storage's mount units and the links that enable them: names
	 * derived from the mount point, so any such name is refused. */
	if (strncmp(path, unit_dir, sizeof(unit_dir) - 1) == 0 &&
	    (has_suffix(path, ".mount") || has_suffix(path, ".automount"))) {
		*ret_owner = OWNER_STORAGE;
		return "a mount unit name halo-provision writes";
	}
	return NULL;
}

unsigned halo_validate_owned_outputs(struct halo_pctx *p, const struct halo_config *c)
{
	unsigned reported = 0;
	const struct halo_state_config *st = &c->state;
	const struct {
		const char *key;
		const char *path;
		int line;
	} out[] = {
		{ "state.path", st->path, st->path_line },
		{ "state.prometheus", st->prometheus, st->prometheus_line },
		{ "state.env_file", st->env_file, st->env_file_line },
	};

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		int line = out[i].line ? out[i].line : st->line;
		const char *what;
		enum owner o;

		if (!out[i].path)
			continue;
		what = owned_file(out[i].path, &o);
		if (what) {
			int oline = owner_line(c, o);

			if (oline)
				halo_perr(p, line, "%s: %s is %s for %s (line %d); each output "
					  "needs a file of its own", out[i].key, out[i].path, what,
					  owner_key[o], oline);
			else
				halo_perr(p, line, "%s: %s is %s for %s; each output needs a file "
					  "of its own", out[i].key, out[i].path, what, owner_key[o]);
			reported |= 1u << i;
		}
	}
	return reported;
}
