/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for modules/native.c (the lookup without libkmod), its ELF
 * reader (elfsection.c) and the .modinfo split (modinfo.c).
 *
 * The native reader must answer exactly what libkmod answers, or defer
 * (-EAGAIN). So the main test runs both on every module of a fixture tree
 * (tests/fixtures/modules/mkfixture.sh: real ELF objects, indexes made by
 * depmod, filler modules with dependencies and aliases) with a blacklist
 * in modprobe.d and on the kernel command line, and compares every field.
 * The others plant, one at a time, each thing the reader leaves to
 * libkmod, and show that it defers.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "modules/internal.h"
#include "modules/modules.h"
#include "util/rootfs.h"
#include "util/strv.h"

#include "modules-fixture.h"


static char tmp[64];
static char plain[128];
/* The same tree compressed as Ubuntu's (.ko.zst) and Fedora's (.ko.xz). */
static char zst[128], xz[128];

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void drop(const char *root, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	assert_int_equal(unlink(path), 0);
}

static int group_setup(void **state)
{
	strcpy(tmp, "/tmp/halo-native-unit.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(plain, sizeof(plain), "%s/plain", tmp);
	snprintf(zst, sizeof(zst), "%s/zst", tmp);
	snprintf(xz, sizeof(xz), "%s/xz", tmp);
	if (fixture_build(plain, "bulk=60") < 0 || fixture_build(zst, "bulk=60 compress=zst") < 0)
		return -1;
	return fixture_build(xz, "bulk=60 compress=xz");
}

static int group_teardown(void **state)
{
	return fixture_remove(tmp);
}

static void ctx_open(struct halo_ctx *ctx, const char *root)
{
	*ctx = (struct halo_ctx){ .root = root, .root_fd = -1, .under_root = true,
				  .kernel_release = REL };
	assert_int_equal(halo_root_open(root, &ctx->root_fd), 0);
}

static void ctx_close(struct halo_ctx *ctx)
{
	halo_modules_release(ctx);
	close(ctx->root_fd);
}

static void assert_strv_equal(char **a, char **b)
{
	assert_int_equal(halo_strv_len(a), halo_strv_len(b));
	for (size_t i = 0; a && a[i]; i++)
		assert_string_equal(a[i], b[i]);
}

/* Every module of the tree's modules.dep (its text form, which depmod
 * writes from the same data as the binary index). */
/* Records MI's file, when compressed, in FRESH (its parameters and one
 * more, to tell a line's answer from a decoded one) and in STALE as
 * another inode. */
static void record_as(struct halo_parmrec *fresh, struct halo_parmrec *stale,
		      const struct halo_modinfo *mi)
{
	_cleanup_strv_free_ char **parms = NULL;
	struct halo_modfile_id other = mi->file_id;
	char *key;

	if (!mi->packed)
		return;
	for (char **p = mi->parms; p && *p; p++)
		assert_int_equal(halo_strv_push(&parms, *p), 0);
	assert_int_equal(halo_strv_push(&parms, "recorded:int"), 0);
	key = halo_parmrec_key(REL, mi->relpath);
	assert_non_null(key);
	assert_int_equal(halo_parmrec_add(fresh, key, &mi->file_id, parms), 0);
	other.ino++;
	assert_int_equal(halo_parmrec_add(stale, key, &other, parms), 0);
	free(key);
}

static char **all_modules(const struct halo_ctx *ctx)
{
	_cleanup_free_ char *text = NULL;
	char **names = NULL, *save = NULL;

	assert_int_equal(halo_read_file(ctx, "/lib/modules/" REL "/modules.dep", &text, NULL), 0);
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *base;

		*strchr(l, ':') = '\0';
		base = strrchr(l, '/') ? strrchr(l, '/') + 1 : l;
		_cleanup_free_ char *name = strndup(base, strcspn(base, "."));
		assert_non_null(name);
		halo_name_normalize(name);
		assert_int_equal(halo_strv_push(&names, name), 0);
	}
	return names;
}

/* Both readers on every module of the tree at ROOT, field by field;
 * SUFFIX: what every module file name ends with. */
static void same_as_libkmod(const char *root, const char *suffix)
{
	_cleanup_strv_free_ char **names = NULL;
	struct halo_modnative *n = NULL;
	struct halo_ctx ctx;
	struct halo_kmod *k;
	char *why = NULL;
	size_t with_deps = 0, with_parms = 0, blacklisted = 0;
	struct halo_parmrec fresh = { 0 }, stale = { 0 };

	put(root, "/etc/modprobe.d/b.conf", "# ours\nblacklist ib-core\noptions ice x=1\n");
	put(root, "/lib/modprobe.d/b.conf", "blacklist ice\n"); /* hidden by /etc's */
	put(root, "/run/modprobe.d/c.conf", "blacklist \\\n mlx5_core\n");
	put(root, "/proc/cmdline", "quiet modprobe.blacklist=ice_helper,amdgpu\n");
	ctx_open(&ctx, root);
	names = all_modules(&ctx);
	assert_true(halo_strv_len(names) > 60);
	assert_int_equal(halo_modnative_new(&ctx, &n), 0);
	assert_int_equal(halo_kmod_get(&ctx, &k, &why), 0);
	for (char **m = names; *m; m++) {
		struct halo_modinfo *a = NULL, *b = NULL;
		size_t len;

		assert_int_equal(halo_modnative_lookup(n, *m, HALO_MODREAD_DECODE, &a), 0);
		assert_int_equal(halo_kmod_lookup(k, *m, &b, &why), 0);
		assert_string_equal(a->name, b->name);
		assert_string_equal(a->relpath, b->relpath);
		len = strlen(a->relpath);
		assert_true(len > strlen(suffix));
		assert_string_equal(a->relpath + len - strlen(suffix), suffix);
		assert_int_equal(a->builtin, b->builtin);
		assert_strv_equal(a->parms, b->parms);
		assert_strv_equal(a->deps, b->deps);
		assert_strv_equal(a->blacklisted, b->blacklisted);
		assert_null(a->install_cmd);
		assert_null(b->install_cmd);
		with_deps += a->deps != NULL;
		with_parms += a->parms != NULL;
		blacklisted += a->blacklisted != NULL;
		assert_int_equal(a->packed, strcmp(suffix, ".ko") != 0);
		record_as(&fresh, &stale, a);
		halo_modinfo_free(a);
		/* Not decoded: the same but for the parameters, which a
		 * compressed module then has none of. */
		assert_int_equal(halo_modnative_lookup(n, *m, HALO_MODREAD_COMPLETE, &a), 0);
		assert_string_equal(a->relpath, b->relpath);
		assert_strv_equal(a->deps, b->deps);
		assert_strv_equal(a->blacklisted, b->blacklisted);
		if (strcmp(suffix, ".ko") == 0)
			assert_strv_equal(a->parms, b->parms);
		else
			assert_null(a->parms);
		halo_modinfo_free(a);
		/* From a record of this very file: its line's parameters,
		 * not decoded (a plain module is read, never recorded). */
		halo_modnative_use_record(n, &fresh);
		assert_int_equal(halo_modnative_lookup(n, *m, HALO_MODREAD_PARMS, &a), 0);
		if (strcmp(suffix, ".ko") == 0) {
			assert_strv_equal(a->parms, b->parms);
		} else {
			assert_true(halo_strv_len(a->parms) == halo_strv_len(b->parms) + 1);
			assert_string_equal(a->parms[halo_strv_len(b->parms)], "recorded:int");
		}
		halo_modinfo_free(a);
		/* A line of another file (another inode): decoded. */
		halo_modnative_use_record(n, &stale);
		assert_int_equal(halo_modnative_lookup(n, *m, HALO_MODREAD_PARMS, &a), 0);
		assert_strv_equal(a->parms, b->parms);
		halo_modnative_use_record(n, NULL);
		halo_modinfo_free(a);
		halo_modinfo_free(b);
	}
	halo_parmrec_clear(&fresh);
	halo_parmrec_clear(&stale);
	/* The comparison covered each kind of field, not just empty ones. */
	assert_true(with_deps >= 5);
	assert_true(with_parms >= 3);
	assert_true(blacklisted >= 4);
	halo_modnative_free(n);
	ctx_close(&ctx);
	drop(root, "/etc/modprobe.d/b.conf");
	drop(root, "/lib/modprobe.d/b.conf");
	drop(root, "/run/modprobe.d/c.conf");
}

static void test_same_as_libkmod(void **state)
{
	same_as_libkmod(plain, ".ko");
}

/* Compressed trees are read natively too (every lookup above answers
 * 0, none defers), with the same answers. */
static void test_same_as_libkmod_zst(void **state)
{
	same_as_libkmod(zst, ".ko.zst");
}

static void test_same_as_libkmod_xz(void **state)
{
	same_as_libkmod(xz, ".ko.xz");
}

/* What halo_modnative_new says about the tree with TEXT in a conf file. */
static int new_with_conf(const char *text)
{
	struct halo_modnative *n = NULL;
	struct halo_ctx ctx;
	int r;

	put(plain, "/etc/modprobe.d/x.conf", text);
	ctx_open(&ctx, plain);
	r = halo_modnative_new(&ctx, &n);
	halo_modnative_free(n);
	ctx_close(&ctx);
	drop(plain, "/etc/modprobe.d/x.conf");
	return r;
}

static void test_defers_on_directives(void **state)
{
	assert_int_equal(new_with_conf("options ice a=1\nblacklist x\n"), 0);
	assert_int_equal(new_with_conf("alias pci:v00008086d* ice\n"), -EAGAIN);
	assert_int_equal(new_with_conf("install ice /bin/true\n"), -EAGAIN);
	assert_int_equal(new_with_conf("\tremove ice /bin/true\n"), -EAGAIN);
	/* A line joined to the previous one is still read as a directive. */
	assert_int_equal(new_with_conf("blacklist a \\\n\ninstall b c\n"), -EAGAIN);
	/* Not a conf file name: kmod does not read it, nor do we. */
	put(plain, "/etc/modprobe.d/x.txt", "install ice /bin/true\n");
	assert_int_equal(new_with_conf("\n"), 0);
	drop(plain, "/etc/modprobe.d/x.txt");
}

/* What the reader says about NAME on the tree as it is now, decoding a
 * compressed module or not. */
static int lookup_decoded(const char *root, const char *name, enum halo_modread how)
{
	struct halo_modnative *n = NULL;
	struct halo_modinfo *mi = NULL;
	struct halo_ctx ctx;
	int r;

	ctx_open(&ctx, root);
	r = halo_modnative_new(&ctx, &n);
	if (r == 0)
		r = halo_modnative_lookup(n, name, how, &mi);
	halo_modinfo_free(mi);
	halo_modnative_free(n);
	ctx_close(&ctx);
	return r;
}

static int lookup_now(const char *root, const char *name)
{
	return lookup_decoded(root, name, HALO_MODREAD_DECODE);
}

/* Not decoded, a compressed module need only be complete: a damaged byte
 * inside passes, a file one byte short is libkmod's to judge. */
static void test_complete_only(void **state)
{
	static const char *const trees[] = { zst, xz };
	static const char *const files[] = { "ib_uverbs.ko.zst", "ib_uverbs.ko.xz" };

	for (size_t t = 0; t < 2; t++) {
		_cleanup_free_ unsigned char *orig = NULL;
		char path[512];
		unsigned char c;
		struct stat st;
		int fd;

		snprintf(path, sizeof(path), "%s/lib/modules/%s/kernel/drivers/infiniband/core/%s",
			 trees[t], REL, files[t]);
		fd = open(path, O_RDWR | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(fstat(fd, &st), 0);
		orig = malloc((size_t)st.st_size);
		assert_non_null(orig);
		assert_int_equal(pread(fd, orig, (size_t)st.st_size, 0), st.st_size);
		c = orig[st.st_size / 2] ^ 0x5a;
		assert_int_equal(pwrite(fd, &c, 1, st.st_size / 2), 1);
		assert_int_equal(lookup_decoded(trees[t], "ib_uverbs", HALO_MODREAD_COMPLETE), 0);
		assert_int_equal(lookup_decoded(trees[t], "ib_uverbs", HALO_MODREAD_DECODE), -EAGAIN);
		assert_int_equal(pwrite(fd, orig + st.st_size / 2, 1, st.st_size / 2), 1);
		assert_int_equal(lookup_decoded(trees[t], "ib_uverbs", HALO_MODREAD_DECODE), 0);
		assert_int_equal(ftruncate(fd, st.st_size - 1), 0);
		assert_int_equal(lookup_decoded(trees[t], "ib_uverbs", HALO_MODREAD_COMPLETE), -EAGAIN);
		assert_int_equal(lookup_decoded(trees[t], "ib_uverbs", HALO_MODREAD_DECODE), -EAGAIN);
		/* Whole again, for the tests after. */
		assert_int_equal(pwrite(fd, orig, (size_t)st.st_size, 0), st.st_size);
		close(fd);
		assert_int_equal(lookup_decoded(trees[t], "ib_uverbs", HALO_MODREAD_COMPLETE), 0);
	}
}

static void test_defers_on_modules(void **state)
{
	char root[160], path[512];
	int fd;

	snprintf(root, sizeof(root), "%s/scratch", tmp);
	assert_int_equal(fixture_build(root, ""), 0);
	assert_int_equal(lookup_now(root, "irdma"), 0);
	assert_int_equal(lookup_now(root, "ttm"), -EAGAIN);      /* built in */
	assert_int_equal(lookup_now(root, "nosuch"), -EAGAIN);   /* unknown */
	assert_int_equal(lookup_now(root, "rdma_cm"), 0);

	/* Soft dependencies: libkmod stages and loads them. */
	put(root, "/etc/modprobe.d/s.conf", "softdep rdma-cm pre: ib_uverbs\n");
	assert_int_equal(lookup_now(root, "rdma_cm"), -EAGAIN);
	assert_int_equal(lookup_now(root, "ib_uverbs"), 0);
	drop(root, "/etc/modprobe.d/s.conf");
	put(root, "/lib/modules/" REL "/modules.softdep", "softdep rdma_cm post: ib_uverbs\n");
	assert_int_equal(lookup_now(root, "rdma_cm"), -EAGAIN);
	put(root, "/lib/modules/" REL "/modules.softdep", "# none\n");

	/* A compressed module (zstd's magic): libkmod decompresses. */
	snprintf(path, sizeof(path), "%s/lib/modules/%s/kernel/drivers/infiniband/core/ib_uverbs.ko",
		 root, REL);
	assert_int_equal(truncate(path, 0), 0);
	fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "\x28\xb5\x2f\xfd" "0123456789abcdef0123456789abcdef"
				   "0123456789abcdef0123456789abcdef", 68), 68);
	close(fd);
	assert_int_equal(lookup_now(root, "ib_uverbs"), -EAGAIN);

	/* A truncated module: libkmod's verdict, not ours. */
	snprintf(path, sizeof(path), "%s/lib/modules/%s/kernel/drivers/infiniband/hw/irdma/irdma.ko",
		 root, REL);
	assert_int_equal(truncate(path, 400), 0);
	assert_int_equal(lookup_now(root, "irdma"), -EAGAIN);

	/* A dependency's file gone: libkmod fails on it while parsing. */
	snprintf(path, sizeof(path), "%s/lib/modules/%s/kernel/drivers/infiniband/core/ib_core.ko",
		 root, REL);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(lookup_now(root, "rdma_cm"), -EAGAIN);

	/* A conf file that is a FIFO: the view explains it. */
	snprintf(path, sizeof(path), "%s/etc/modprobe.d/f.conf", root);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(lookup_now(root, "mlx5_core"), -EAGAIN);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(lookup_now(root, "mlx5_core"), 0);

	/* No index: the error message is libkmod's path's. */
	drop(root, "/lib/modules/" REL "/modules.dep.bin");
	assert_int_equal(lookup_now(root, "mlx5_core"), -EAGAIN);
}

/* modindex.c: the amdgpu build probe and the reader share one map of the
 * index, which a run keeps until it has written or spawned something. */
static void test_index_once(void **state)
{
	char root[160], from[400], to[512];
	struct halo_modnative *n = NULL;
	struct halo_modinfo *mi = NULL;
	const void *m1 = NULL, *m2 = NULL;
	size_t l1 = 0, l2 = 0;
	struct halo_ctx ctx;
	bool dkms = true;

	snprintf(root, sizeof(root), "%s/index-once", tmp);
	assert_int_equal(fixture_build(root, ""), 0);
	snprintf(from, sizeof(from), "%s/lib/modules/%s/modules.dep.bin", root, REL);
	snprintf(to, sizeof(to), "%s.away", from);
	ctx_open(&ctx, root);
	assert_int_equal(halo_modules_amdgpu_is_dkms(&ctx, &dkms), 0);
	assert_false(dkms);
	assert_int_equal(halo_modindex_get(&ctx, &m1, &l1), 0);
	assert_non_null(m1);
	/* Gone from the disk, the run's map still answers: not read again. */
	assert_int_equal(rename(from, to), 0);
	assert_int_equal(halo_modnative_new(&ctx, &n), 0);
	assert_int_equal(halo_modnative_lookup(n, "irdma", HALO_MODREAD_DECODE, &mi), 0);
	assert_string_equal(mi->relpath, "kernel/drivers/infiniband/hw/irdma/irdma.ko");
	halo_modinfo_free(mi);
	halo_modnative_free(n);
	assert_int_equal(halo_modindex_get(&ctx, &m2, &l2), 0);
	assert_ptr_equal(m1, m2);
	assert_int_equal(l1, l2);
	/* After a write of the run: read anew, and its absence is seen. */
	ctx.files_written++;
	assert_int_equal(halo_modindex_get(&ctx, &m2, &l2), -ENOENT);
	assert_int_equal(halo_modnative_new(&ctx, &n), -EAGAIN);
	assert_int_equal(rename(to, from), 0);
	ctx.spawned++;
	assert_int_equal(halo_modindex_get(&ctx, &m2, &l2), 0);
	assert_int_equal(l1, l2);
	ctx_close(&ctx);
}

/* --- elfsection.c on hand-made files: both classes, both byte orders -- */

struct elfw {
	unsigned char b[1024];
	bool is64, msb;
};

static void putn(struct elfw *w, size_t off, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		w->b[w->msb ? off + n - 1 - i : off + i] = (unsigned char)(v >> (8 * i));
}

/* An ELF file with sections "", .shstrtab, .text, .modinfo; returns its
 * length. Section headers at 512. */
static size_t make_elf(struct elfw *w, bool is64, bool msb)
{
	static const char shstr[] = "\0.shstrtab\0.text\0.modinfo";
	static const char info[] = "license=GPL\0parm=x:an x\0parmtype=x:int";
	const size_t shoff = 512, es = is64 ? 64 : 40;
	const struct { uint32_t name, type; uint64_t off, size; } sh[] = {
		{ 0, 0, 0, 0 },
		{ 1, 3, 256, sizeof(shstr) },
		{ 11, 1, 300, 4 },
		{ 17, 1, 320, sizeof(info) - 1 }, /* the last entry unterminated */
	};

	memset(w, 0, sizeof(*w));
	w->is64 = is64;
	w->msb = msb;
	memcpy(w->b, "\x7f" "ELF", 4);
	w->b[4] = is64 ? 2 : 1;
	w->b[5] = msb ? 2 : 1;
	w->b[6] = 1;
	putn(w, is64 ? 40 : 32, shoff, is64 ? 8 : 4);
	putn(w, is64 ? 58 : 46, es, 2);
	putn(w, is64 ? 60 : 48, 4, 2);
	putn(w, is64 ? 62 : 50, 1, 2);
	memcpy(w->b + 256, shstr, sizeof(shstr));
	memcpy(w->b + 320, info, sizeof(info) - 1);
	for (size_t i = 0; i < 4; i++) {
		size_t at = shoff + i * es;

		putn(w, at, sh[i].name, 4);
		putn(w, at + 4, sh[i].type, 4);
		putn(w, at + (is64 ? 24 : 16), sh[i].off, is64 ? 8 : 4);
		putn(w, at + (is64 ? 32 : 20), sh[i].size, is64 ? 8 : 4);
	}
	return shoff + 4 * es;
}

static void test_elf_classes_and_orders(void **state)
{
	for (int v = 0; v < 4; v++) {
		struct halo_modinfo mi = { 0 };
		struct elfw w;
		size_t len = make_elf(&w, v & 1, v & 2);
		const char *sec;
		size_t n;

		assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), 0);
		assert_ptr_equal(sec, (const char *)w.b + 320);
		assert_int_equal(n, 38);
		assert_int_equal(halo_modinfo_add_section(&mi, sec, n), 0);
		assert_string_equal(halo_modinfo_parm_type(&mi, "x"), "int");
		halo_strv_free(mi.parms);
		assert_int_equal(halo_elf_section(w.b, len, ".text", &sec, &n), 0);
		assert_int_equal(n, 4);
		assert_int_equal(halo_elf_section(w.b, len, ".modinf", &sec, &n), -ENOENT);
		assert_int_equal(halo_elf_section(w.b, len, ".data", &sec, &n), -ENOENT);
	}
}

static void test_elf_malformed(void **state)
{
	struct elfw w;
	size_t len = make_elf(&w, true, false);
	const char *sec;
	size_t n;

	/* Each damage alone; the file is remade between them. */
	assert_int_equal(halo_elf_section(w.b, len - 1, ".modinfo", &sec, &n), -EBADMSG);
	assert_int_equal(halo_elf_section(w.b, 63, ".modinfo", &sec, &n), -EBADMSG);
	w.b[1] = 'e';
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	w.b[4] = 3; /* no such class */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 58, 40, 2); /* a 32-bit header size in a 64-bit file */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 62, 4, 2); /* string table index past the table */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 60, 0, 2); /* extended numbering */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 40, UINT64_MAX - 8, 8); /* headers at an offset that wraps */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 512 + 3 * 64 + 32, 1u << 20, 8); /* .modinfo runs off the end */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 512 + 2 * 64, 4000, 4); /* a name outside the string table */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	make_elf(&w, true, false);
	putn(&w, 512 + 3 * 64 + 4, 8, 4); /* .modinfo is SHT_NOBITS */
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -EBADMSG);
	/* The table cut short inside ".modinfo": that name is not there. */
	make_elf(&w, true, false);
	putn(&w, 512 + 64 + 32, 20, 8);
	assert_int_equal(halo_elf_section(w.b, len, ".modinfo", &sec, &n), -ENOENT);
}

/* What the descriptor reader (pread) answers for IMAGE of LEN bytes, as
 * a file; compared with the reader of the same bytes in memory. */
static void same_both_ways(const unsigned char *image, size_t len)
{
	const char *mem;
	char *got = NULL;
	size_t mem_len = 0, got_len = 0;
	int fd = memfd_create("elf", MFD_CLOEXEC), want, r;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, image, len), (ssize_t)len);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	want = halo_elf_section(image, len, ".modinfo", &mem, &mem_len);
	/* No head read before; the ELF header only; ending inside the names,
	 * inside .modinfo, inside the table; all of the file. Past the head,
	 * its buffer holds garbage: what lies there must be read. */
	for (size_t h = 0; h < 7; h++) {
		static const size_t heads[] = { 0, 64, 270, 330, 400, 600, SIZE_MAX };
		size_t head = heads[h] < len ? heads[h] : len;
		unsigned char copy[sizeof(((struct elfw *)0)->b)];

		assert_true(len <= sizeof(copy));
		memset(copy, 0x5a, sizeof(copy));
		memcpy(copy, image, head);
		got = NULL;
		r = halo_elf_section_fd(fd, len, head ? copy : NULL, head, ".modinfo",
					&got, &got_len);
		assert_int_equal(r, want);
		if (r == 0) {
			assert_int_equal(got_len, mem_len);
			assert_memory_equal(got, mem, mem_len);
		}
		free(got);
	}
	/* pread: the offset is left where it was, for the packed readers. */
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 0);
	close(fd);
}

/* The descriptor reader gives the memory reader's answer on every class
 * and order, every prefix, and every byte of the headers set to a few
 * telling values. */
static void test_elf_section_fd(void **state)
{
	static const unsigned char values[] = { 0x00, 0x01, 0x08, 0x28, 0x40, 0x80, 0xff };

	for (int v = 0; v < 4; v++) {
		struct elfw w;
		size_t len = make_elf(&w, v & 1, v & 2);

		for (size_t cut = 0; cut <= len; cut += 7)
			same_both_ways(w.b, cut);
		for (size_t at = 0; at < len; at++) {
			/* The bytes that matter: the ELF header, the names,
			 * the section header table. */
			if (at >= 64 && at < 256)
				continue;
			for (size_t k = 0; k < sizeof(values); k++) {
				make_elf(&w, v & 1, v & 2);
				w.b[at] = values[k];
				same_both_ways(w.b, len);
			}
		}
	}
	/* A file that claims more than it holds is no module to read. */
	{
		struct elfw w;
		size_t len = make_elf(&w, true, false);
		char *got = NULL;
		size_t n;
		int fd = memfd_create("elf", MFD_CLOEXEC);

		assert_int_equal(write(fd, w.b, len), (ssize_t)len);
		assert_int_equal(halo_elf_section_fd(fd, len + 4096, NULL, 0, ".modinfo", &got, &n), 0);
		free(got);
		assert_int_equal(ftruncate(fd, 400), 0);
		assert_int_equal(halo_elf_section_fd(fd, len, NULL, 0, ".modinfo", &got, &n), -EBADMSG);
		/* Cut inside the table, with the header read before. */
		assert_int_equal(halo_elf_section_fd(fd, len, w.b, 64, ".modinfo", &got, &n),
				 -EBADMSG);
		/* The head is the file's: what it holds is not read again. */
		assert_int_equal(halo_elf_section_fd(fd, len, w.b, len, ".modinfo", &got, &n), 0);
		free(got);
		assert_int_equal(halo_elf_section_fd(-1, len, NULL, 0, ".modinfo", &got, &n), -EBADF);
		close(fd);
	}
}

static void test_modinfo_split(void **state)
{
	static const char sec[] = "\0\0parm=a:the a\0\0\0parmtype=a:uint\0noequals\0"
				  "parm=b-c:desc\0parmtype=d:charp\0"
				  /* names that only start or end like one read */
				  "parmtypes=e:int\0parmx=f:desc\0par=g:x\0xparm=h:x\0alias=pci:v1";
	struct halo_modinfo mi = { 0 };

	assert_int_equal(halo_modinfo_add_section(&mi, sec, sizeof(sec) - 1), 0);
	assert_int_equal(halo_strv_len(mi.parms), 3);
	assert_string_equal(halo_modinfo_parm_type(&mi, "a"), "uint");
	assert_string_equal(halo_modinfo_parm_type(&mi, "b_c"), "");
	assert_string_equal(halo_modinfo_parm_type(&mi, "d"), "charp");
	assert_null(halo_modinfo_parm_type(&mi, "noequals"));
	assert_null(halo_modinfo_parm_type(&mi, "e"));
	assert_null(halo_modinfo_parm_type(&mi, "f"));
	assert_null(halo_modinfo_parm_type(&mi, "g"));
	assert_null(halo_modinfo_parm_type(&mi, "h"));
	halo_strv_free(mi.parms);
	/* Empty and all-NUL sections say nothing. */
	mi = (struct halo_modinfo){ 0 };
	assert_int_equal(halo_modinfo_add_section(&mi, "", 0), 0);
	assert_int_equal(halo_modinfo_add_section(&mi, "\0\0\0", 3), 0);
	assert_null(mi.parms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_libkmod),
		cmocka_unit_test(test_same_as_libkmod_zst),
		cmocka_unit_test(test_same_as_libkmod_xz),
		cmocka_unit_test(test_defers_on_directives),
		cmocka_unit_test(test_defers_on_modules),
		cmocka_unit_test(test_complete_only),
		cmocka_unit_test(test_index_once),
		cmocka_unit_test(test_elf_classes_and_orders),
		cmocka_unit_test(test_elf_malformed),
		cmocka_unit_test(test_elf_section_fd),
		cmocka_unit_test(test_modinfo_split),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
