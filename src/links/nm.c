/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nm.c: NetworkManager resets MTU and addresses of the devices it manages,
 * so those links get an unmanaged-devices drop-in.
 *
 * Evidence, read under --root and never over D-Bus (the bus of the host is
 * not the tree being provisioned): NetworkManager writes
 * /run/NetworkManager/devices/<ifindex> for every device it knows, with
 * "managed=true" when it manages it. A link already listed in our drop-in
 * stays listed while NetworkManager knows it, even though its state then
 * says managed=false because of that very drop-in (no flip-flop).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "config/hwaddr.h"
#include "links/nm.h"
#include "util/rootfs.h"
#include "util/strv.h"
#include "util/template.h"

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

int halo_nm_parse_device_state(const char *text)
{
	bool in_device = false;
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *p = skip_ws(line);

		if (*p == '[')
			in_device = strncmp(p, "[device]", 8) == 0;
		else if (in_device && strncmp(p, "managed", 7) == 0) {
			const char *v = skip_ws(p + 7);
			size_t vlen;

			if (*v == '=') {
				v = skip_ws(v + 1);
				vlen = len - (size_t)(v - line);
				while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\r' ||
						v[vlen - 1] == '\t'))
					vlen--;
				/* GKeyFile booleans: true/false, 1/0 */
				return (vlen == 4 && strncmp(v, "true", 4) == 0) ||
				       (vlen == 1 && v[0] == '1');
			}
		}
		line = end ? end + 1 : NULL;
	}
	return 0;
}

int halo_nm_device_state(const struct halo_ctx *ctx, int ifindex)
{
	_cleanup_free_ char *text = NULL;
	char path[64];
	int err;

	snprintf(path, sizeof(path), HALO_NM_DEVICE_FMT, ifindex);
	err = halo_read_file(ctx, path, &text, NULL);
	if (err < 0)
		return err;
	return halo_nm_parse_device_state(text);
}

bool halo_nm_dropin_lists(const char *text, const char *name)
{
	char needle[64];
	size_t nlen;
	const char *p = text;

	snprintf(needle, sizeof(needle), "interface-name:%s", name);
	nlen = strlen(needle);
	while (p && (p = strstr(p, needle))) {
		char next = p[nlen];

		if ((p == text || p[-1] == '=' || p[-1] == ';') &&
		    (next == '\0' || next == ';' || next == '\n' || next == '\r'))
			return true;
		p += nlen;
	}
	return false;
}

/* NetworkManager is installed in the root: without runtime state it may
 * just not have started yet (after a reboot /run is empty, and the boot
 * units run before it). */
static bool nm_installed(const struct halo_ctx *ctx)
{
	return halo_root_exists(ctx, "/usr/sbin/NetworkManager") > 0 ||
	       halo_root_exists(ctx, "/sbin/NetworkManager") > 0;
}

/* ERR for the file at PATH; *RET_FAILED names it (see nm.h). */
static int failed_at(int err, const char *path, char **ret_failed)
{
	if (ret_failed && err != -ENOMEM) {
		*ret_failed = strdup(path);
		if (!*ret_failed)
			return -ENOMEM;
	}
	return err;
}

int halo_nm_plan_stale(struct halo_ctx *ctx, struct halo_plan *plan)
{
	struct stat st;

	/* Remove a stale drop-in of ours; otherwise stay out of it. */
	if (halo_root_lstat(ctx, HALO_NM_DROPIN, &st) < 0)
		return 0;
	return halo_plan_add_file(plan, HALO_SUB_LINKS, HALO_PHASE_LINKS, HALO_NM_DROPIN, NULL,
				  0644, NULL);
}

int halo_nm_plan(struct halo_ctx *ctx, struct halo_plan *plan,
		 const struct halo_rtnl_link *const *links, size_t n,
		 char **ret_failed)
{
	_cleanup_free_ char *old = NULL, *content = NULL, *names = NULL, *devices = NULL;
	struct halo_buf b = { 0 }, nb = { 0 };
	struct halo_item *item;
	bool installed = nm_installed(ctx);
	size_t n_managed = 0;
	int err;

	err = halo_read_file(ctx, HALO_NM_DROPIN, &old, NULL);
	if (err < 0 && err != -ENOENT)
		return failed_at(err, HALO_NM_DROPIN, ret_failed);
	/* templates/nm-unmanaged.conf uses "+=": it appends to the list set by
	 * earlier files (Ubuntu ships unmanaged-devices=*,except:type:wifi,...);
	 * a plain "=" in a later conf.d file would replace it and hand every
	 * other device to NM. */
	for (size_t i = 0; i < n; i++) {
		int st_managed = halo_nm_device_state(ctx, links[i]->ifindex);

		/* No state for it, but NetworkManager is installed: keep a link
		 * our drop-in already lists, or the file would come and go
		 * with every boot. */
		if (st_managed == -ENOENT &&
		    !(old && installed && halo_nm_dropin_lists(old, links[i]->name)))
			continue;
		if (st_managed < 0 && st_managed != -ENOENT) {
			char path[64];

			halo_buf_free(&b);
			halo_buf_free(&nb);
			snprintf(path, sizeof(path), HALO_NM_DEVICE_FMT, links[i]->ifindex);
			return failed_at(st_managed, path, ret_failed);
		}
		if (st_managed == 0 && !(old && halo_nm_dropin_lists(old, links[i]->name)))
			continue;
		halo_buf_printf(&b, "%sinterface-name:%s", n_managed ? ";" : "",
				links[i]->name);
		halo_buf_printf(&nb, "%s%s", n_managed ? ", " : "", links[i]->name);
		n_managed++;
	}
	devices = halo_buf_steal(&b);
	names = halo_buf_steal(&nb);
	if (!devices || (n_managed && !names))
		return -ENOMEM;
	err = halo_template_render("nm-unmanaged.conf",
				   (const char *const[]){ "DEVICES", devices, NULL }, &content);
	if (err < 0)
		return err;
	if (n_managed == 0)
		return halo_nm_plan_stale(ctx, plan);
	err = halo_plan_add_file(plan, HALO_SUB_LINKS, HALO_PHASE_LINKS,
				 HALO_NM_DROPIN, content, 0644, &item);
	if (err < 0)
		return err;
	return halo_item_set_note(item,
			      "NetworkManager manages %s: unmanaged from its next reload (nmcli general reload conf)",
			      names);
}

void halo_nm_parse_profile(const char *text, struct halo_nm_profile *ret)
{
	char group[32] = "";
	const char *line = text;

	memset(ret, 0, sizeof(*ret));
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *p = skip_ws(line), *eq = memchr(line, '=', len);

		while (len && (line[len - 1] == '\r' || line[len - 1] == ' '))
			len--;
		if (*p == '[') {
			size_t k = strcspn(p + 1, "]\n");

			snprintf(group, sizeof(group), "%.*s", (int)k, p + 1);
		} else if (eq && (size_t)(eq - line) < len) {
			size_t klen = (size_t)(eq - p), vlen = len - (size_t)(eq + 1 - line);
			char *dst = NULL;
			size_t dlen = 0;

			while (klen && (p[klen - 1] == ' ' || p[klen - 1] == '\t'))
				klen--;
			if (strcmp(group, "connection") == 0 && klen == 2 && !strncmp(p, "id", 2))
				dst = ret->id, dlen = sizeof(ret->id);
			else if (strcmp(group, "connection") == 0 && klen == 14 &&
				 !strncmp(p, "interface-name", 14))
				dst = ret->interface_name, dlen = sizeof(ret->interface_name);
			else if ((strcmp(group, "ethernet") == 0 || strcmp(group, "802-3-ethernet") == 0) &&
				 klen == 11 && !strncmp(p, "mac-address", 11))
				dst = ret->mac, dlen = sizeof(ret->mac);
			if (dst) {
				const char *v = eq + 1;

				/* within the line: its trailing blanks are cut */
				while (vlen && (*v == ' ' || *v == '\t'))
					v++, vlen--;
				snprintf(dst, dlen, "%.*s", (int)vlen, v);
			}
		}
		line = end ? end + 1 : NULL;
	}
}

/* A profile's mac-address (NM writes "B4:96:91:AA:BB:01", a
 * trailing ";" in older files) against the link's address. */
static bool mac_binds(const char *text, const struct halo_rtnl_link *l)
{
	char buf[HALO_MAC_STRLEN];
	struct halo_mac m;

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(text, ";"), text);
	return halo_mac_parse(buf, &m) == 0 && halo_mac_equal_bytes(&m, l->mac, l->mac_len);
}

int halo_nm_profiles_warn(const struct halo_ctx *ctx, struct halo_plan *plan,
			  const struct halo_rtnl_link *const *links, size_t n, char **ret_why)
{
	_cleanup_strv_free_ char **names = NULL;
	int r;

	*ret_why = NULL;
	/* Profiles are inert without NetworkManager. */
	if (!nm_installed(ctx) && halo_root_exists(ctx, "/run/NetworkManager") <= 0)
		return 0;
	r = halo_root_list_dir(ctx, HALO_NM_PROFILE_DIR, &names);
	if (r == -ENOENT || r == -ENOTDIR)
		return 0;
	if (r < 0) {
		*ret_why = halo_root_read_error(ctx, HALO_NM_PROFILE_DIR, r);
		return r;
	}
	for (char **name = names; *name; name++) {
		_cleanup_free_ char *path = NULL, *text = NULL;
		struct halo_nm_profile prof;
		size_t k = strlen(*name);

		if (k <= 13 || strcmp(*name + k - 13, ".nmconnection") != 0)
			continue;
		path = halo_strdup_printf("%s/%s", HALO_NM_PROFILE_DIR, *name);
		if (!path)
			return -ENOMEM;
		r = halo_read_file(ctx, path, &text, NULL);
		if (r < 0) {
			*ret_why = halo_root_read_error(ctx, path, r);
			return r;
		}
		halo_nm_parse_profile(text, &prof);
		for (size_t i = 0; i < n; i++) {
			bool by_name = strcmp(prof.interface_name, links[i]->name) == 0;

			if (!by_name && !(prof.mac[0] && mac_binds(prof.mac, links[i])))
				continue;
			r = halo_plan_warn(plan, "NetworkManager profile %s (\"%s\") is bound to %s by %s: "
					   "it takes the link back whenever NetworkManager manages it; "
					   "remove it (nmcli connection delete \"%s\") or disable it "
					   "(nmcli connection modify \"%s\" connection.autoconnect no)",
					   path, prof.id, links[i]->name,
					   by_name ? "interface-name" : "mac-address",
					   prof.id[0] ? prof.id : *name, prof.id[0] ? prof.id : *name);
			if (r < 0)
				return r;
		}
	}
	return 0;
}
