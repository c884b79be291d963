/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * paths.c: rules for the paths the config names: the files halo-provision
 * writes (state.path, state.prometheus, state.env_file) and storage mount
 * points. All are resolved inside --root, and a writable path of the
 * operator's choosing is exactly how one run overwrote
 * proc/sys/kernel/osrelease in an image: so the kernel's trees, the tool's
 * own lock and flag files and the files it manages are refused by name,
 * before anything is written.
 */
#include <stdio.h>
#include <string.h>

#include "config/check.h"
#include "config/sections.h"

/* S is P or below it. */
static bool under(const char *s, const char *p)
{
	size_t n = strlen(p);

	return strncmp(s, p, n) == 0 && (s[n] == '\0' || s[n] == '/');
}

/* The kernel's own trees: never files to create or replace. */
static const char *kernel_tree(const char *s)
{
	if (under(s, "/proc"))
		return "is under /proc, the kernel's, not a place for files";
	if (under(s, "/sys"))
		return "is under /sys, the kernel's, not a place for files";
	if (under(s, "/dev"))
		return "is under /dev, the device tree, not a place for files";
	return NULL;
}

/* Files halo-provision itself writes whatever the config says; the files
 * a section makes it own are checked against the whole config
 * (owned-paths.c), so the message can name that section's line. */
static const struct {
	const char *path;
	const char *why;
} own_files[] = {
	{ "/run/halo-provision.lock", "is halo-provision's run lock" },
	{ "/run/reboot-required", "is the reboot-required flag file halo-provision writes" },
	{ "/run/reboot-required.pkgs", "is the reboot-required flag file halo-provision writes" },
	{ "/etc/halo-provision/halo.conf", "is the default config file" },
};

const char *halo_check_output_path(const char *s)
{
	const char *why = halo_check_abs_path(s);

	if (why)
		return why;
	if (strcmp(s, "/") == 0)
		return "is the root directory, not a file";
	why = kernel_tree(s);
	if (why)
		return why;
	for (size_t i = 0; i < ARRAY_SIZE(own_files); i++)
		if (strcmp(s, own_files[i].path) == 0)
			return own_files[i].why;
	return NULL;
}

/* Mounting the model store over one of these hides the system itself. */
static const char *const system_dirs[] = {
	"/bin", "/boot", "/etc", "/home", "/lib", "/lib32", "/lib64", "/libx32", "/opt",
	"/root", "/run", "/sbin", "/srv", "/tmp", "/usr", "/var", "/var/lib", "/var/log",
	"/usr/bin", "/usr/lib", "/usr/sbin", "/usr/share", "/usr/local", NULL,
};

const char *halo_check_mount_point(const char *s)
{
	const char *why = halo_check_abs_path(s);

	if (why)
		return why;
	if (strcmp(s, "/") == 0)
		return "is the root directory";
	why = kernel_tree(s);
	if (why)
		return why;
	for (size_t i = 0; system_dirs[i]; i++)
		if (strcmp(s, system_dirs[i]) == 0)
			return "is a system directory; mounting over it would hide what is there";
	return NULL;
}

struct output {
	const char *key;
	const char *path;
	int line; /* 0: the default */
};

static void say_where(char *buf, size_t len, const struct output *o)
{
	if (o->line)
		snprintf(buf, len, "%s (line %d)", o->key, o->line);
	else
		snprintf(buf, len, "%s (the default)", o->key);
}

void halo_validate_outputs(struct halo_pctx *p, const struct halo_config *c)
{
	const struct halo_state_config *st = &c->state;
	const struct output out[] = {
		{ "state.path", st->path, st->path_line },
		{ "state.prometheus", st->prometheus, st->prometheus_line },
		{ "state.env_file", st->env_file, st->env_file_line },
	};
	char other[64];
	unsigned reported = halo_validate_owned_outputs(p, c);

	for (size_t i = 0; i < ARRAY_SIZE(out); i++) {
		const struct output *a = &out[i];
		int line = a->line ? a->line : st->line;

		if (!a->path || (reported & (1u << i)))
			continue;
		/* Only an absolute name can be compared; it is a host path,
		 * the outputs are inside --root: the same text is still
		 * never meant. */
		if (p->file[0] == '/' && strcmp(a->path, p->file) == 0)
			halo_perr(p, line, "%s: %s is the config file itself", a->key, a->path);
		for (size_t j = 0; j < ARRAY_SIZE(out); j++) {
			const struct output *b = &out[j];

			if (j == i || !b->path)
				continue;
			/* One message per output is enough to act on. */
			if (j < i && strcmp(a->path, b->path) == 0) {
				say_where(other, sizeof(other), b);
				halo_perr(p, line, "%s: %s is also %s; each output needs a file "
					  "of its own", a->key, a->path, other);
				break;
			}
			if (strcmp(a->path, b->path) != 0 && under(a->path, b->path)) {
				say_where(other, sizeof(other), b);
				halo_perr(p, line, "%s: %s is inside %s, which is a file", a->key,
					  a->path, other);
				break;
			}
		}
	}
}
