/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gid.c: the GID index of an interface's IPv4 address, computed from the
 * port's GID table the way mlnx-tools' show_gids reads it (docs/hardware.md "RDMA devices and GIDs"):
 * gids/<i> ("%pI6", all zeros when unused), gid_attrs/types/<i> ("RoCE v2"
 * or "IB/RoCE v1"; an empty entry reads EINVAL) and gid_attrs/ndevs/<i>.
 * The index depends on the vendor (irdma 1, mlx5 3) and on every address
 * added before it, so it is never assumed.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rdma/rdma.h"
#include "util/rootfs.h"
#include "util/strv.h"

int halo_rdma_gid_parse(const char *text, uint8_t gid[16])
{
	const char *p = text;

	for (int g = 0; g < 8; g++) {
		unsigned v = 0;

		for (int k = 0; k < 4; k++) {
			int h = halo_hex_digit(*p++);

			if (h < 0)
				return -EINVAL;
			v = v << 4 | (unsigned)h;
		}
		gid[2 * g] = (uint8_t)(v >> 8);
		gid[2 * g + 1] = (uint8_t)v;
		if (g < 7 && *p++ != ':')
			return -EINVAL;
	}
	if (*p == '\n')
		p++;
	return *p ? -EINVAL : 0;
}

static bool is_zero(const uint8_t gid[16])
{
	for (int i = 0; i < 16; i++)
		if (gid[i])
			return false;
	return true;
}

/* ::ffff:a.b.c.d, the form an IPv4 address takes in a RoCE v2 GID. */
static bool is_v4_mapped(const uint8_t gid[16])
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(gid, prefix, sizeof(prefix)) == 0;
}

/* An attribute of entry I: 1 read (newline removed), 0 empty entry. */
static int read_entry(halo_rdma_reader rd, void *userdata, const char *path, char **ret)
{
	int err = rd(userdata, path, ret);
	size_t n;

	/* The kernel answers EINVAL for an empty entry's attributes "for
	 * user space compatibility"; ENODATA is what lies underneath. */
	if (err == -EINVAL || err == -ENODATA)
		return 0;
	if (err < 0)
		return err;
	n = strlen(*ret);
	if (n > 0 && (*ret)[n - 1] == '\n')
		(*ret)[n - 1] = '\0';
	return 1;
}

int halo_rdma_gid_scan(halo_rdma_reader rd, void *userdata, const char *dir,
		       const unsigned *indices, size_t n, const char *ifname,
		       const uint8_t addr[4], struct halo_rdma_gid *ret)
{
	struct halo_rdma_gid res = { .index = -1, .first_v4 = -1 };
	struct halo_rdma_path p;
	size_t base;
	int err;

	halo_rdma_path_set(&p, dir);
	base = p.len;
	for (size_t k = 0; k < n; k++) {
		_cleanup_free_ char *text = NULL, *type = NULL, *ndev = NULL;
		unsigned i = indices[k];
		uint8_t gid[16];

		halo_rdma_path_cut(&p, base);
		halo_rdma_path_add(&p, "/gids/");
		halo_rdma_path_uint(&p, i);
		err = rd(userdata, p.s, &text);
		if (err == -EINVAL || err == -ENODATA) {
			res.n_empty++;
			continue;
		}
		if (err < 0)
			return err;
		/* A GID we cannot read as one is no IPv4 GID of ours; nor is
		 * any other than ::ffff:a.b.c.d, whatever its type: its
		 * attributes are not read (an empty entry reads all zeros,
		 * drivers/infiniband/core/sysfs.c show_port_gid). */
		if (halo_rdma_gid_parse(text, gid) < 0 || is_zero(gid) || !is_v4_mapped(gid))
			continue;
		halo_rdma_path_cut(&p, base);
		halo_rdma_path_add(&p, "/gid_attrs/types/");
		halo_rdma_path_uint(&p, i);
		err = read_entry(rd, userdata, p.s, &type);
		if (err < 0)
			return err;
		if (err == 0) {
			res.n_empty++;
			continue;
		}
		if (strcmp(type, "RoCE v2") != 0)
			continue;
		halo_rdma_path_cut(&p, base);
		halo_rdma_path_add(&p, "/gid_attrs/ndevs/");
		halo_rdma_path_uint(&p, i);
		err = read_entry(rd, userdata, p.s, &ndev);
		if (err < 0)
			return err;
		if (err == 0) {
			res.n_empty++;
			continue;
		}
		if (strcmp(ndev, ifname) != 0)
			continue;
		res.n_v4++;
		if (res.first_v4 < 0)
			res.first_v4 = (int)i;
		/* The kernel keeps one entry per GID, type and netdev
		 * (drivers/infiniband/core/cache.c ib_cache_gid_add): the
		 * first match is the only one, and the rest of the table
		 * (mlx5's runs to hundreds of entries, a file each) is not
		 * read. */
		if (addr && memcmp(gid + 12, addr, 4) == 0) {
			res.index = (int)i;
			break;
		}
	}
	*ret = res;
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* The root's reader, keeping the path of the last read: the scan stops
 * at the first failed read, so that is the file to name. */
struct last_read {
	struct halo_ctx *ctx;
	char path[512];
};

static int read_recording(void *userdata, const char *path, char **ret)
{
	struct last_read *lr = userdata;

	halo_strjoin(lr->path, sizeof(lr->path), path, NULL);
	return halo_rdma_read_root(lr->ctx, path, ret);
}

/* ERR, with *RET_WHY "PATH: REASON" (see rdma.h). */
static int find_failed(const struct halo_ctx *ctx, const char *path, int err, char **ret_why)
{
	if (err == -ENOMEM)
		return err;
	*ret_why = halo_root_read_error(ctx, path, err);
	return *ret_why ? err : -ENOMEM;
}

int halo_rdma_gid_find(struct halo_ctx *ctx, const struct halo_rdma_dev *dev,
		       const char *ifname, const uint8_t addr[4],
		       struct halo_rdma_gid *ret, char **ret_why)
{
	_cleanup_strv_free_ char **names = NULL;
	_cleanup_free_ unsigned *idx = NULL;
	struct last_read lr = { .ctx = ctx };
	struct halo_rdma_path p;
	size_t n = 0, dir;
	int err;

	halo_rdma_path_set(&p, "/sys/class/infiniband/");
	halo_rdma_path_add(&p, dev->ibdev);
	halo_rdma_path_add(&p, "/ports/");
	halo_rdma_path_uint(&p, dev->port);
	dir = p.len;
	halo_rdma_path_add(&p, "/gids");
	err = halo_root_list_dir(ctx, p.s, &names);
	if (err < 0)
		return find_failed(ctx, p.s, err, ret_why);
	idx = calloc(halo_strv_len(names) + 1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	/* The directory lists "0", "1", ..., "10": numeric order. */
	for (size_t i = 0; names[i]; i++) {
		char *end;
		unsigned long v = strtoul(names[i], &end, 10);

		if (!*end && names[i][0] && v < 65536)
			idx[n++] = (unsigned)v;
	}
	qsort(idx, n, sizeof(*idx), cmp_unsigned);
	/* gid_attrs/types is not listed: only the IPv4 GIDs' types are
	 * read (one or two a port), fewer calls from the root than a
	 * listing and reads in it. */
	halo_rdma_path_cut(&p, dir);
	err = halo_rdma_gid_scan(read_recording, &lr, p.s, idx, n, ifname, addr, ret);
	return err < 0 ? find_failed(ctx, lr.path, err, ret_why) : 0;
}
