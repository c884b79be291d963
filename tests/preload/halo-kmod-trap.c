/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo-kmod-trap: an LD_PRELOAD shim that lets a real libkmod "load"
 * modules from a fixture tree without ever reaching the kernel (the build
 * machines' kernel has no module support, and tests must never touch the
 * host's modules anyway). Same idea as kmod's own testsuite.
 *
 * Environment (read once per process, at the first call: a test that
 * changes it runs another process; the tool never sets these itself):
 *   HALO_TRAP_ROOT  fixture root (required). /sys/module, /proc/modules and
 *                   /proc/cmdline are redirected into it.
 *   HALO_TRAP_LOG   file to append one line per call to:
 *                   "load NAME OPTIONS" / "fail NAME ERRNO" / "remove NAME".
 *                   Default: $HALO_TRAP_ROOT/trap.log.
 *   HALO_TRAP_CMDLINE  a file that stands for the running kernel's
 *                   /proc/cmdline instead of ROOT/proc/cmdline.
 *   HALO_TRAP_KEEP_CMDLINE  set: /proc/cmdline is not redirected, libkmod
 *                   opens the real path (a test that shows which command
 *                   line the process itself sees there).
 *   HALO_TRAP_FAIL  "name:ERRNO[,name:ERRNO...]", ERRNO symbolic (EPERM,
 *                   ENOENT, EEXIST, ...) or a number: that load fails.
 *   HALO_TRAP_NETDEV  "module:OLD:NEW[,...]": a successful load of MODULE
 *                   renames the (down) link OLD to NEW in the caller's
 *                   network namespace, through a real RTM_NEWLINK: the
 *                   driver registering its netdev, so a test sees a
 *                   device that exists only after the module is loaded.
 *
 * A successful load creates ROOT/sys/module/NAME/initstate ("live") and
 * parameters/KEY for every key=value of the option string (bool parameters,
 * per the module's parmtype, shown as Y/N like the kernel), and appends a
 * line to ROOT/proc/modules. Loading a module whose initstate exists fails
 * with EEXIST, as the kernel does. Every module syscall is answered here;
 * none is ever passed on to the kernel.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#define EXPORT __attribute__((visibility("default")))

static const char *const redirected[] = { "/sys/module", "/proc/modules",
					  "/proc/cmdline" };

/* The HALO_TRAP_* variables as the process started with them. Read once:
 * the path wrappers run on every open and stat of the process (hundreds
 * per run) and getenv walks the whole environment each time. Nothing in
 * the process sets them (tests change them between runs, each one a new
 * process), and getenv's strings stay valid while no one sets them. */
static struct {
	bool read;
	const char *root, *log, *cmdline, *fail, *netdev;
	bool keep_cmdline;
} env;

static void env_read(void)
{
	if (env.read)
		return;
	env.root = getenv("HALO_TRAP_ROOT");
	env.log = getenv("HALO_TRAP_LOG");
	env.cmdline = getenv("HALO_TRAP_CMDLINE");
	env.keep_cmdline = getenv("HALO_TRAP_KEEP_CMDLINE") != NULL;
	env.fail = getenv("HALO_TRAP_FAIL");
	env.netdev = getenv("HALO_TRAP_NETDEV");
	env.read = true;
}

/* Read before the program starts its threads; the calls above cover a
 * library constructor that opens a file before this one runs. */
__attribute__((constructor)) static void env_init(void)
{
	env_read();
}

/* PATH inside the fixture when it is one of the redirected trees. */
static const char *trap_path(const char *path, char *buf, size_t size)
{
	/* Relative paths (most of the tool's, opened under a directory fd)
	 * are never redirected: decided before anything else. */
	if (!path || path[0] != '/')
		return path;
	env_read();
	if (!env.root)
		return path;
	/* HALO_TRAP_CMDLINE: the running kernel's command line, when a test
	 * needs it to differ from the root's. */
	if (strcmp(path, "/proc/cmdline") == 0 && env.keep_cmdline)
		return path;
	if (strcmp(path, "/proc/cmdline") == 0 && env.cmdline)
		return env.cmdline;
	for (size_t i = 0; i < sizeof(redirected) / sizeof(redirected[0]); i++) {
		size_t n = strlen(redirected[i]);

		if (strncmp(path, redirected[i], n) == 0 &&
		    (path[n] == '\0' || path[n] == '/')) {
			int r = snprintf(buf, size, "%s%s", env.root, path);

			return r > 0 && (size_t)r < size ? buf : path;
		}
	}
	return path;
}

#define REAL(name)                                                             \
	static __typeof__(name) *real_##name;                                  \
	if (!real_##name)                                                      \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static mode_t open_mode(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ?
		       (mode_t)va_arg(ap, int) : 0;
}

EXPORT int open(const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	mode_t mode;

	REAL(open);
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return real_open(trap_path(path, buf, sizeof(buf)), flags, mode);
}

EXPORT int open64(const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	mode_t mode;

	REAL(open64);
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return real_open64(trap_path(path, buf, sizeof(buf)), flags, mode);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	char buf[PATH_MAX];
	va_list ap;
	mode_t mode;

	REAL(openat);
	va_start(ap, flags);
	mode = open_mode(flags, ap);
	va_end(ap);
	return real_openat(dirfd, trap_path(path, buf, sizeof(buf)), flags, mode);
}

EXPORT FILE *fopen(const char *path, const char *how)
{
	char buf[PATH_MAX];

	REAL(fopen);
	return real_fopen(trap_path(path, buf, sizeof(buf)), how);
}

EXPORT FILE *fopen64(const char *path, const char *how)
{
	char buf[PATH_MAX];

	REAL(fopen64);
	return real_fopen64(trap_path(path, buf, sizeof(buf)), how);
}

EXPORT DIR *opendir(const char *path)
{
	char buf[PATH_MAX];

	REAL(opendir);
	return real_opendir(trap_path(path, buf, sizeof(buf)));
}

EXPORT int stat(const char *path, struct stat *st)
{
	char buf[PATH_MAX];

	REAL(stat);
	return real_stat(trap_path(path, buf, sizeof(buf)), st);
}

EXPORT int lstat(const char *path, struct stat *st)
{
	char buf[PATH_MAX];

	REAL(lstat);
	return real_lstat(trap_path(path, buf, sizeof(buf)), st);
}

EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char buf[PATH_MAX];

	REAL(fstatat);
	return real_fstatat(dirfd, trap_path(path, buf, sizeof(buf)), st, flags);
}

EXPORT int access(const char *path, int how)
{
	char buf[PATH_MAX];

	REAL(access);
	return real_access(trap_path(path, buf, sizeof(buf)), how);
}

/* --- the module calls ---------------------------------------------------- */

static void trap_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void trap_log(const char *fmt, ...)
{
	const char *root, *log;
	char def[PATH_MAX];
	va_list ap;
	FILE *f;

	env_read();
	root = env.root;
	log = env.log;
	if (!log || !*log) {
		snprintf(def, sizeof(def), "%s/trap.log", root ? root : ".");
		log = def;
	}
	f = fopen(log, "ae");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	fclose(f);
}

static int errno_from_name(const char *s, size_t n)
{
	static const struct {
		const char *name;
		int err;
	} names[] = {
		{ "EPERM", EPERM },   { "ENOENT", ENOENT },   { "EEXIST", EEXIST },
		{ "EINVAL", EINVAL }, { "ENOEXEC", ENOEXEC }, { "EBUSY", EBUSY },
		{ "ENOMEM", ENOMEM }, { "EACCES", EACCES },   { "ENODEV", ENODEV },
		{ "EKEYREJECTED", EKEYREJECTED },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == n && strncmp(s, names[i].name, n) == 0)
			return names[i].err;
	return (int)strtol(s, NULL, 10);
}

/* The errno HALO_TRAP_FAIL asks for NAME, or 0. */
static int wanted_failure(const char *name)
{
	const char *spec;
	size_t len = strlen(name);

	env_read();
	spec = env.fail;
	while (spec && *spec) {
		const char *end = strchr(spec, ',');
		const char *colon = strchr(spec, ':');
		size_t n = end ? (size_t)(end - spec) : strlen(spec);

		if (colon && colon < spec + n && (size_t)(colon - spec) == len &&
		    strncmp(spec, name, len) == 0)
			return errno_from_name(colon + 1, spec + n - colon - 1);
		spec = end ? end + 1 : NULL;
	}
	return 0;
}

/* Finds SECTION in an ELF64 image; returns its bytes or NULL. */
static const char *elf_section(const char *img, size_t len, const char *section,
			       size_t *ret_size)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *sh, *strsh;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > len ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	strsh = &sh[eh->e_shstrndx];
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		size_t off = strsh->sh_offset + sh[i].sh_name;

		if (off >= len || sh[i].sh_offset + sh[i].sh_size > len)
			continue;
		if (strncmp(img + off, section, len - off) == 0) {
			*ret_size = sh[i].sh_size;
			return img + sh[i].sh_offset;
		}
	}
	return NULL;
}

/* Value of "KEY=" (first match whose value starts with PREFIX) in .modinfo. */
static bool modinfo_get(const char *mi, size_t size, const char *key,
			const char *prefix, char *out, size_t outsize)
{
	size_t klen = strlen(key), plen = prefix ? strlen(prefix) : 0;

	for (size_t i = 0; i < size;) {
		const char *s = mi + i;
		size_t n = strnlen(s, size - i);

		if (n > klen && strncmp(s, key, klen) == 0 && s[klen] == '=' &&
		    (!prefix || strncmp(s + klen + 1, prefix, plen) == 0)) {
			snprintf(out, outsize, "%.*s", (int)(n - klen - 1),
				 s + klen + 1);
			return true;
		}
		i += n + 1;
	}
	return false;
}

static void dash_to_underscore(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

/* Writes parameters/KEY for each key=value of OPTIONS (kernel quoting). */
static void write_params(const char *dir, const char *mi, size_t misize,
			 const char *options)
{
	const char *p = options;

	while (p && *p) {
		char key[256], val[1024], type[256], prefix[260], path[PATH_MAX + 256];
		size_t k = 0, v = 0;
		bool quoted = false;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		while (*p && *p != '=' && *p != ' ' && k < sizeof(key) - 1)
			key[k++] = *p++;
		key[k] = '\0';
		if (*p == '=')
			p++;
		while (*p && (quoted || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (*p == '"')
				quoted = !quoted;
			else if (v < sizeof(val) - 1)
				val[v++] = *p;
			p++;
		}
		val[v] = '\0';
		dash_to_underscore(key);
		snprintf(prefix, sizeof(prefix), "%s:", key);
		if (mi && modinfo_get(mi, misize, "parmtype", prefix, type,
				      sizeof(type)) &&
		    strcmp(type + strlen(prefix), "bool") == 0)
			snprintf(val, sizeof(val), "%s",
				 strchr("1yY", val[0] ? val[0] : '1') ? "Y" : "N");
		strcat(val, "\n");
		snprintf(path, sizeof(path), "%s/%s", dir, key);
		write_text(path, val);
	}
}

/* One RTM_NEWLINK renaming OLD to NEW; 0 or -1 with errno. */
static int rename_link(const char *old, const char *new)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[64];
	} req = { 0 };
	struct {
		struct nlmsghdr nh;
		struct nlmsgerr err;
	} ack;
	struct rtattr *rta;
	unsigned idx = if_nametoindex(old);
	size_t n = strlen(new) + 1;
	int fd, r = -1;

	if (!idx || n > IF_NAMESIZE)
		return -1;
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.nh.nlmsg_seq = 1;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = (int)idx;
	rta = (struct rtattr *)req.attrs;
	rta->rta_type = IFLA_IFNAME;
	rta->rta_len = (unsigned short)RTA_LENGTH(n);
	memcpy(RTA_DATA(rta), new, n);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi)) + RTA_ALIGN(rta->rta_len);
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	if (send(fd, &req, req.nh.nlmsg_len, 0) >= 0 &&
	    recv(fd, &ack, sizeof(ack), 0) >= (ssize_t)sizeof(ack) &&
	    ack.nh.nlmsg_type == NLMSG_ERROR) {
		errno = -ack.err.error;
		r = ack.err.error ? -1 : 0;
	}
	close(fd);
	return r;
}

/* HALO_TRAP_NETDEV entries of module NAME. */
static void bring_netdevs(const char *name)
{
	const char *spec;
	char buf[1024], *save = NULL;

	env_read();
	spec = env.netdev;
	if (!spec || strlen(spec) >= sizeof(buf))
		return;
	strcpy(buf, spec);
	for (char *e = strtok_r(buf, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
		char *old = strchr(e, ':'), *new;

		if (!old || !(new = strchr(old + 1, ':')))
			continue;
		*old++ = '\0';
		*new++ = '\0';
		if (strcmp(e, name) != 0)
			continue;
		if (rename_link(old, new) < 0)
			trap_log("netdev %s %s %s failed: %s", name, old, new, strerror(errno));
		else
			trap_log("netdev %s %s %s", name, old, new);
	}
}

static int trap_load(const char *img, size_t len, const char *options,
		     const char *fallback_name)
{
	const char *root;
	char name[256] = "", path[PATH_MAX], line[512];
	const char *mi;
	size_t misize = 0;
	struct stat st;
	FILE *f;
	int err;

	env_read();
	root = env.root;
	if (!root) {
		errno = ENOSYS;
		return -1;
	}
	mi = img ? elf_section(img, len, ".modinfo", &misize) : NULL;
	if (!mi || !modinfo_get(mi, misize, "name", NULL, name, sizeof(name)))
		snprintf(name, sizeof(name), "%s", fallback_name ? fallback_name : "");
	dash_to_underscore(name);
	if (!name[0]) {
		errno = ENOEXEC;
		return -1;
	}

	err = wanted_failure(name);
	if (err) {
		trap_log("fail %s %s", name, strerrorname_np(err) ?: "?");
		errno = err;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/sys/module/%s/initstate", root, name);
	if (stat(path, &st) == 0) {
		trap_log("fail %s EEXIST", name);
		errno = EEXIST;
		return -1;
	}

	snprintf(path, sizeof(path), "%s/sys/module/%s/parameters", root, name);
	if (mkdirs(path) < 0)
		return -1;
	write_params(path, mi, misize, options);
	snprintf(path, sizeof(path), "%s/sys/module/%s/holders", root, name);
	mkdirs(path);
	snprintf(path, sizeof(path), "%s/sys/module/%s/refcnt", root, name);
	write_text(path, "0\n");
	/* initstate last: its presence is what "loaded" means. */
	snprintf(path, sizeof(path), "%s/sys/module/%s/initstate", root, name);
	if (write_text(path, "live\n") < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/proc/modules", root);
	f = fopen(path, "ae");
	if (f) {
		snprintf(line, sizeof(line), "%s 16384 0 - Live 0x0000000000000000\n",
			 name);
		fputs(line, f);
		fclose(f);
	}
	trap_log("load %s %s", name, options ? options : "");
	bring_netdevs(name);
	return 0;
}

static int trap_finit(int fd, const char *options)
{
	char link[64], target[PATH_MAX], *img, *base, *dot;
	struct stat st;
	ssize_t n;
	int r;

	if (fstat(fd, &st) < 0)
		return -1;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	dot = strchr(base, '.');
	if (dot)
		*dot = '\0';
	img = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!img)
		return -1;
	n = pread(fd, img, st.st_size, 0);
	r = trap_load(n > 0 ? img : NULL, n > 0 ? (size_t)n : 0, options, base);
	free(img);
	return r;
}

static int trap_delete(const char *name_in)
{
	const char *root;
	char name[256], path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	env_read();
	root = env.root;
	if (!root) {
		errno = ENOSYS;
		return -1;
	}
	snprintf(name, sizeof(name), "%s", name_in);
	dash_to_underscore(name);
	snprintf(path, sizeof(path), "%s/sys/module/%s/initstate", root, name);
	if (unlink(path) < 0) {
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/sys/module/%s/parameters", root, name);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		char p[PATH_MAX + 256];

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/module/%s/holders", root, name);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sys/module/%s/refcnt", root, name);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sys/module/%s", root, name);
	rmdir(path);
	trap_log("remove %s", name);
	return 0;
}

/* glibc declares no prototypes for these (they are bare syscall stubs). */
int init_module(void *image, unsigned long len, const char *options);
int finit_module(int fd, const char *options, int flags);
int delete_module(const char *name, unsigned int flags);

EXPORT int init_module(void *image, unsigned long len, const char *options)
{
	return trap_load(image, len, options, NULL);
}

EXPORT int finit_module(int fd, const char *options, int flags)
{
	(void)flags;
	return trap_finit(fd, options);
}

EXPORT int delete_module(const char *name, unsigned int flags)
{
	(void)flags;
	return trap_delete(name);
}

EXPORT long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);

	switch (nr) {
	case SYS_finit_module:
		return trap_finit((int)a[0], (const char *)a[1]);
	case SYS_init_module:
		return trap_load((const void *)a[0], (size_t)a[1],
				 (const char *)a[2], NULL);
	case SYS_delete_module:
		return trap_delete((const char *)a[0]);
	default: {
		REAL(syscall);
		return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	}
}
