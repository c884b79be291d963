/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-state.c: $NICSIM_STATE/IFNAME.json, what the simulated NIC holds.
 * Read before every request (so an edit between or during runs is "drift"
 * the next request sees) and written after every request (temp file and
 * rename, so a reader never sees half a file). Without NICSIM_STATE the
 * state lives in the process only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicsim.h"

static const char *const selectors[] = {
	[IEEE_8021QAZ_APP_SEL_ETHERTYPE] = "ethertype",
	[IEEE_8021QAZ_APP_SEL_STREAM] = "stream",
	[IEEE_8021QAZ_APP_SEL_DGRAM] = "dgram",
	[IEEE_8021QAZ_APP_SEL_ANY] = "any",
	[IEEE_8021QAZ_APP_SEL_DSCP] = "dscp",
};
static const char *const proto_names[NICSIM_PROTO_N] = { "dcbnl", "devlink", "ethtool" };

/* IEEE_8021QAZ_TSA_* by name (the vendor one is 255). */
static const struct { const char *name; uint8_t tsa; } tsa_names[] = {
	{ "strict", IEEE_8021QAZ_TSA_STRICT }, { "cb_shaper", IEEE_8021QAZ_TSA_CB_SHAPER },
	{ "ets", IEEE_8021QAZ_TSA_ETS }, { "vendor", IEEE_8021QAZ_TSA_VENDOR },
};

static json_object *u8_array(const uint8_t *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

static json_object *ets_json(const struct nicsim_ets *ets)
{
	json_object *o = json_object_new_object(), *tsa = json_object_new_array();

	json_object_object_add(o, "willing", json_object_new_int(ets->willing));
	json_object_object_add(o, "tc_bw", u8_array(ets->tc_bw, IEEE_8021QAZ_MAX_TCS));
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		const char *name = NULL;

		for (size_t j = 0; j < sizeof(tsa_names) / sizeof(tsa_names[0]); j++)
			if (tsa_names[j].tsa == ets->tsa[i])
				name = tsa_names[j].name;
		json_object_array_add(tsa, name ? json_object_new_string(name)
						: json_object_new_int(ets->tsa[i]));
	}
	json_object_object_add(o, "tsa", tsa);
	json_object_object_add(o, "prio_tc", u8_array(ets->prio_tc, IEEE_8021QAZ_MAX_TCS));
	return o;
}

/* A PFC enable mask as the priorities it enables. */
static json_object *pfc_json(uint8_t mask)
{
	json_object *a = json_object_new_array();

	for (int p = 0; p < 8; p++)
		if (mask & (1u << p))
			json_object_array_add(a, json_object_new_int(p));
	return a;
}

/* ice's desired configuration (nicsim.h). */
static json_object *desired_json(const struct nicsim_ice_desired *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "ets", ets_json(&d->ets));
	json_object_object_add(o, "pfc_enabled", pfc_json(d->pfc_en));
	json_object_object_add(o, "pfc_cap", json_object_new_int(d->pfc_cap));
	json_object_object_add(o, "trust", json_object_new_string(d->trust_dscp ? "dscp" : "pcp"));
	json_object_object_add(o, "apps_differ", json_object_new_boolean(d->apps_differ));
	return o;
}

/* The traffic classes the port runs: ice counts them as
 * ice_dcb_get_num_tc; mlx5 uses every TC up to the highest mapped. */
static int traffic_classes(const struct nicsim_if *nic)
{
	int n = 0;

	if (nic->profile == NICSIM_E810)
		return (int)nicsim_ice_num_tc(&nic->ets);
	for (int i = 0; i < IEEE_8021QAZ_MAX_TCS; i++)
		if (nic->ets.prio_tc[i] + 1 > n)
			n = nic->ets.prio_tc[i] + 1;
	return n;
}

static int state_path(const struct nicsim_if *nic, const char *suffix,
		      char *buf, size_t len)
{
	const char *dir = nicsim_env()->state;

	/* DIR/NAME.jsonSUFFIX, put together by hand: it is asked for before
	 * every request, and snprintf cost a thousand instructions a time. */
	size_t n_dir, n_name, n_suffix;

	if (!dir || !*dir)
		return 0;
	n_dir = strlen(dir);
	n_name = strlen(nic->name);
	n_suffix = strlen(suffix);
	if (n_dir + 1 + n_name + 5 + n_suffix >= len)
		return -ENAMETOOLONG;
	memcpy(buf, dir, n_dir);
	buf[n_dir] = '/';
	memcpy(buf + n_dir + 1, nic->name, n_name);
	memcpy(buf + n_dir + 1 + n_name, ".json", 5);
	memcpy(buf + n_dir + 1 + n_name + 5, suffix, n_suffix + 1);
	return 1;
}

static json_object *state_json(const struct nicsim_if *nic)
{
	json_object *o = json_object_new_object(), *a, *dl, *pf, *rq;
	size_t nflags;
	const char *const *flags = nicsim_priv_flag_names(nic->profile, &nflags);
	unsigned long get = 0, set = 0;

	json_object_object_add(o, "profile", json_object_new_string(
		nic->profile == NICSIM_E810 ? "e810" : "connectx"));
	json_object_object_add(o, "dcbx", json_object_new_string(
		nic->dcbx & DCB_CAP_DCBX_HOST ? "host" : "firmware"));
	json_object_object_add(o, "dcbx_mode", json_object_new_int(nic->dcbx));
	json_object_object_add(o, "pfc_enabled", pfc_json(nic->pfc_en));
	json_object_object_add(o, "pfc_cap", json_object_new_int(nic->pfc_cap));
	json_object_object_add(o, "pfc_mbc", json_object_new_int(nic->pfc_mbc));
	json_object_object_add(o, "pfc_delay", json_object_new_int(nic->pfc_delay));
	a = json_object_new_array();
	for (size_t i = 0; i < nic->n_app; i++) {
		json_object *e = json_object_new_object();
		uint8_t s = nic->app[i].selector;

		json_object_object_add(e, "selector", s < 6 && selectors[s] ?
			json_object_new_string(selectors[s]) : json_object_new_int(s));
		json_object_object_add(e, "protocol", json_object_new_int(nic->app[i].protocol));
		json_object_object_add(e, "priority", json_object_new_int(nic->app[i].priority));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "app", a);
	json_object_object_add(o, "trust", json_object_new_string(
		nic->trust_dscp ? "dscp" : "pcp"));
	json_object_object_add(o, "ets", ets_json(&nic->ets));
	if (nic->profile == NICSIM_E810)
		json_object_object_add(o, "desired", desired_json(&nic->desired));
	json_object_object_add(o, "traffic_classes", json_object_new_int(traffic_classes(nic)));
	dl = json_object_new_object();
	json_object_object_add(dl, "enable_roce", json_object_new_boolean(nic->enable_roce));
	json_object_object_add(dl, "enable_iwarp", json_object_new_boolean(nic->enable_iwarp));
	json_object_object_add(o, "devlink", dl);
	dl = json_object_new_object();
	json_object_object_add(dl, "enable_roce", json_object_new_boolean(nic->active_roce));
	json_object_object_add(dl, "enable_iwarp", json_object_new_boolean(nic->active_iwarp));
	json_object_object_add(o, "devlink_active", dl);
	json_object_object_add(o, "devlink_reloads", json_object_new_int64((int64_t)nic->reloads));
	json_object_object_add(o, "pci", json_object_new_string(nic->pci));
	json_object_object_add(o, "firmware", json_object_new_string(nic->fw));
	pf = json_object_new_object();
	for (size_t i = 0; i < nflags; i++)
		json_object_object_add(pf, flags[i],
				       json_object_new_boolean(nic->priv_flags & (1u << i)));
	json_object_object_add(o, "priv_flags", pf);
	json_object_object_add(o, "bonded", json_object_new_boolean(nic->bonded));
	json_object_object_add(o, "link_flaps", json_object_new_int64((int64_t)nic->link_flaps));
	json_object_object_add(o, "port_resets", json_object_new_int64((int64_t)nic->port_resets));
	rq = json_object_new_object();
	for (int p = 0; p < NICSIM_PROTO_N; p++) {
		get += nic->get[p];
		set += nic->set[p];
	}
	json_object_object_add(rq, "get", json_object_new_int64((int64_t)get));
	json_object_object_add(rq, "set", json_object_new_int64((int64_t)set));
	for (int p = 0; p < NICSIM_PROTO_N; p++) {
		json_object *c = json_object_new_object();

		json_object_object_add(c, "get", json_object_new_int64((int64_t)nic->get[p]));
		json_object_object_add(c, "set", json_object_new_int64((int64_t)nic->set[p]));
		json_object_object_add(rq, proto_names[p], c);
	}
	json_object_object_add(o, "requests", rq);
	return o;
}

int nicsim_state_save(const struct nicsim_if *nic)
{
	char path[PATH_MAX], tmp[PATH_MAX + 16];
	json_object *o;
	const char *text;
	int fd, r;
	size_t len;

	r = state_path(nic, "", path, sizeof(path));
	if (r <= 0)
		return r;
	snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
	o = state_json(nic);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED);
	len = strlen(text);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (write(fd, text, len) != (ssize_t)len || write(fd, "\n", 1) != 1) {
		r = -EIO;
		close(fd);
		unlink(tmp);
		goto out;
	}
	close(fd);
	r = rename(tmp, path) < 0 ? -errno : 0;
	if (r < 0)
		unlink(tmp);
out:
	json_object_put(o);
	return r;
}

/* json_object_is_type: a JSON null is a NULL json_object there. */
static bool is_type(const struct nicsim_json *v, enum json_type type)
{
	return v ? v->type == type : type == json_type_null;
}

static bool get_bool(const struct nicsim_json *o, const char *key, bool *ret)
{
	const struct nicsim_json *v;

	if (!nicsim_json_get(o, key, &v))
		return true; /* absent: keep */
	if (!is_type(v, json_type_boolean))
		return false;
	*ret = v->b;
	return true;
}

static bool get_uint(const struct nicsim_json *o, const char *key, unsigned long max,
		     unsigned long *ret)
{
	const struct nicsim_json *v;
	int64_t n;

	if (!nicsim_json_get(o, key, &v))
		return true;
	if (!is_type(v, json_type_int))
		return false;
	n = v->i64;
	if (n < 0 || (uint64_t)n > max)
		return false;
	*ret = (unsigned long)n;
	return true;
}

static int selector_of(const struct nicsim_json *v)
{
	if (is_type(v, json_type_int)) {
		int64_t n = v->i64;

		return n >= 0 && n <= 255 ? (int)n : -1;
	}
	if (!is_type(v, json_type_string))
		return -1;
	for (size_t i = 0; i < sizeof(selectors) / sizeof(selectors[0]); i++)
		if (selectors[i] && strcmp(selectors[i], v->s) == 0)
			return (int)i;
	return -1;
}

static int tsa_of(const struct nicsim_json *v)
{
	if (is_type(v, json_type_int)) {
		int64_t n = v->i64;

		return n >= 0 && n <= 255 ? (int)n : -1;
	}
	for (size_t i = 0; is_type(v, json_type_string) &&
			   i < sizeof(tsa_names) / sizeof(tsa_names[0]); i++)
		if (strcmp(tsa_names[i].name, v->s) == 0)
			return tsa_names[i].tsa;
	return -1;
}

/* An array of eight small numbers (or TSA names with TSA). */
static int u8_array_from(const struct nicsim_json *o, const char *key, unsigned max, bool tsa, uint8_t *out)
{
	const struct nicsim_json *a;

	if (!nicsim_json_get(o, key, &a))
		return 0;
	if (!is_type(a, json_type_array) ||
	    a->n != IEEE_8021QAZ_MAX_TCS)
		return -EINVAL;
	for (size_t i = 0; i < IEEE_8021QAZ_MAX_TCS; i++) {
		const struct nicsim_json *e = nicsim_json_idx(a, i);
		int64_t n = tsa ? tsa_of(e) : is_type(e, json_type_int) ?
					      e->i64 : -1;

		if (n < 0 || n > max)
			return -EINVAL;
		out[i] = (uint8_t)n;
	}
	return 0;
}

static int ets_from_json(struct nicsim_ets *ets, const struct nicsim_json *v)
{
	unsigned long willing = ets->willing;

	if (!is_type(v, json_type_object) || !get_uint(v, "willing", 1, &willing))
		return -EINVAL;
	ets->willing = (uint8_t)willing;
	if (u8_array_from(v, "tc_bw", 100, false, ets->tc_bw) < 0 ||
	    u8_array_from(v, "tsa", 255, true, ets->tsa) < 0 ||
	    u8_array_from(v, "prio_tc", 7, false, ets->prio_tc) < 0)
		return -EINVAL;
	return 0;
}

/* KEY of O, a list of priorities, into *MASK; absent: unchanged. */
static int pfc_from_json(const struct nicsim_json *o, const char *key, uint8_t *mask)
{
	const struct nicsim_json *v, *e;

	if (!nicsim_json_get(o, key, &v))
		return 0;
	if (!is_type(v, json_type_array))
		return -EINVAL;
	*mask = 0;
	for (size_t i = 0; i < v->n; i++) {
		e = nicsim_json_idx(v, i);
		if (!is_type(e, json_type_int) ||
		    e->i32 < 0 || e->i32 > 7)
			return -EINVAL;
		*mask |= (uint8_t)(1u << e->i32);
	}
	return 0;
}

/* "desired" of an e810; a file without it (written by hand) holds a port
 * whose desired copy is what it holds. */
static int desired_from_json(struct nicsim_if *nic, const struct nicsim_json *o)
{
	struct nicsim_ice_desired *d = &nic->desired;
	const struct nicsim_json *v, *x;
	unsigned long n;

	if (!nicsim_json_get(o, "desired", &v)) {
		nicsim_ice_desired_sync(nic);
		return 0;
	}
	if (!is_type(v, json_type_object) ||
	    (nicsim_json_get(v, "ets", &x) && ets_from_json(&d->ets, x) < 0) ||
	    pfc_from_json(v, "pfc_enabled", &d->pfc_en) < 0)
		return -EINVAL;
	n = d->pfc_cap;
	if (!get_uint(v, "pfc_cap", 8, &n))
		return -EINVAL;
	d->pfc_cap = (uint8_t)n;
	if (nicsim_json_get(v, "trust", &x)) {
		const char *s = x->s;

		if (!is_type(x, json_type_string) ||
		    (strcmp(s, "dscp") && strcmp(s, "pcp")))
			return -EINVAL;
		d->trust_dscp = strcmp(s, "dscp") == 0;
	}
	return get_bool(v, "apps_differ", &d->apps_differ) ? 0 : -EINVAL;
}

/* Members a test edited are taken as the NIC's new truth; members left
 * out keep their value. A malformed file is an error the caller reports. */
static int from_json(struct nicsim_if *nic, const struct nicsim_json *o)
{
	const struct nicsim_json *v, *e, *x;
	unsigned long n;
	bool b;

	if (nicsim_json_get(o, "dcbx", &v)) {
		/* Only a string can be "host" or "firmware" (json-c would
		 * give any other value's JSON text: never either word). */
		const char *s = v->s;

		if (!s || (strcmp(s, "host") && strcmp(s, "firmware")))
			return -EINVAL;
		if (!nicsim_json_get(o, "dcbx_mode", &x) ||
		    ((x->i32 & DCB_CAP_DCBX_HOST) != 0) !=
		    (strcmp(s, "host") == 0)) {
			/* "dcbx" edited without "dcbx_mode": the profile's
			 * usual bits for that mode. */
			bool host = strcmp(s, "host") == 0;

			nic->dcbx = nic->profile == NICSIM_E810 ? nicsim_ice_dcbx_mode(!host)
								 : nicsim_mlx5_dcbx_mode(host);
		} else {
			nic->dcbx = (uint8_t)x->i32;
		}
	}
	if (pfc_from_json(o, "pfc_enabled", &nic->pfc_en) < 0)
		return -EINVAL;
	n = nic->pfc_cap;
	if (!get_uint(o, "pfc_cap", 8, &n))
		return -EINVAL;
	nic->pfc_cap = (uint8_t)n;
	n = nic->pfc_mbc;
	if (!get_uint(o, "pfc_mbc", 255, &n))
		return -EINVAL;
	nic->pfc_mbc = (uint8_t)n;
	n = nic->pfc_delay;
	if (!get_uint(o, "pfc_delay", 65535, &n))
		return -EINVAL;
	nic->pfc_delay = (uint16_t)n;
	if (nicsim_json_get(o, "app", &v)) {
		if (!is_type(v, json_type_array) ||
		    v->n > NICSIM_MAX_APPS)
			return -EINVAL;
		nic->n_app = 0;
		for (size_t i = 0; i < v->n; i++) {
			unsigned long prot = 0, prio = 0;
			int sel;

			e = nicsim_json_idx(v, i);
			if (!is_type(e, json_type_object) ||
			    !nicsim_json_get(e, "selector", &x) ||
			    (sel = selector_of(x)) < 0 ||
			    !get_uint(e, "protocol", 65535, &prot) ||
			    !get_uint(e, "priority", 7, &prio))
				return -EINVAL;
			nic->app[nic->n_app++] = (struct dcb_app){
				.selector = (uint8_t)sel, .priority = (uint8_t)prio,
				.protocol = (uint16_t)prot };
		}
	}
	/* "trust" is an output: both drivers trust DSCP exactly while a
	 * DSCP APP entry exists. */
	nic->trust_dscp = false;
	for (size_t i = 0; i < nic->n_app; i++)
		if (nic->app[i].selector == IEEE_8021QAZ_APP_SEL_DSCP)
			nic->trust_dscp = true;
	if (nicsim_json_get(o, "ets", &v) && ets_from_json(&nic->ets, v) < 0)
		return -EINVAL;
	if (nic->profile == NICSIM_E810 && desired_from_json(nic, o) < 0)
		return -EINVAL;
	if (nicsim_json_get(o, "devlink", &v)) {
		if (!get_bool(v, "enable_roce", &nic->enable_roce) ||
		    !get_bool(v, "enable_iwarp", &nic->enable_iwarp))
			return -EINVAL;
	}
	if (nicsim_json_get(o, "devlink_active", &v)) {
		if (!get_bool(v, "enable_roce", &nic->active_roce) ||
		    !get_bool(v, "enable_iwarp", &nic->active_iwarp))
			return -EINVAL;
	}
	if (nic->profile == NICSIM_E810) {
		/* ice's parameters are runtime: the value read is the one
		 * in effect. */
		nic->active_roce = nic->enable_roce;
		nic->active_iwarp = nic->enable_iwarp;
	}
	n = nic->reloads;
	if (!get_uint(o, "devlink_reloads", LONG_MAX, &n))
		return -EINVAL;
	nic->reloads = n;
	if (nicsim_json_get(o, "priv_flags", &v)) {
		size_t nflags;
		const char *const *flags = nicsim_priv_flag_names(nic->profile, &nflags);

		for (size_t i = 0; i < nflags; i++) {
			b = nic->priv_flags & (1u << i);
			if (!get_bool(v, flags[i], &b))
				return -EINVAL;
			nic->priv_flags = (nic->priv_flags & ~(1u << i)) | ((uint32_t)b << i);
		}
	}
	if (nic->profile == NICSIM_E810) {
		/* ice derives the DCBX mode from the firmware agent. */
		if (nic->priv_flags & (1u << NICSIM_E810_FW_LLDP))
			nic->dcbx = nicsim_ice_dcbx_mode(true);
		else if (nic->dcbx & DCB_CAP_DCBX_LLD_MANAGED)
			nic->dcbx = nicsim_ice_dcbx_mode(false);
	}
	if (!get_bool(o, "bonded", &nic->bonded))
		return -EINVAL;
	if (nicsim_json_get(o, "firmware", &v)) {
		const char *s = v->s;

		if (!is_type(v, json_type_string) || !nicsim_fw_valid(nic->profile, s))
			return -EINVAL;
		snprintf(nic->fw, sizeof(nic->fw), "%s", s);
	}
	n = nic->link_flaps;
	if (!get_uint(o, "link_flaps", LONG_MAX, &n))
		return -EINVAL;
	nic->link_flaps = n;
	n = nic->port_resets;
	if (!get_uint(o, "port_resets", LONG_MAX, &n))
		return -EINVAL;
	nic->port_resets = n;
	if (nicsim_json_get(o, "requests", &v)) {
		for (int p = 0; p < NICSIM_PROTO_N; p++) {
			if (!nicsim_json_get(v, proto_names[p], &x))
				continue;
			if (!get_uint(x, "get", LONG_MAX, &nic->get[p]) ||
			    !get_uint(x, "set", LONG_MAX, &nic->set[p]))
				return -EINVAL;
		}
	}
	return 0;
}

/* 1 loaded, 0 no file yet (the config's starting state stands). */
int nicsim_state_stat(const struct nicsim_if *nic, struct stat *st)
{
	char path[PATH_MAX];
	int r = state_path(nic, "", path, sizeof(path));

	if (r <= 0)
		return r < 0 ? r : -ENOENT;
	return stat(path, st) < 0 ? -errno : 0;
}

/* The whole file FD into a NUL-terminated buffer (*RET_LEN bytes) to
 * free, NULL with errno. SIZE: its size as fstat gave it, -1 unknown.
 * Asked for one byte more than that, a shorter read of a regular file is
 * its end (Linux returns less than asked only there), so the read that
 * returns 0 is not made; a file grown meanwhile is read on to its end. */
static char *read_whole(int fd, off_t size, size_t *ret_len)
{
	size_t cap = size >= 0 ? (size_t)size + 1 : 4096, len = 0;
	char *buf = malloc(cap + 1), *grown;

	while (buf) {
		ssize_t n = read(fd, buf + len, cap - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		len += (size_t)n;
		if (n == 0 || (size >= 0 && len < cap)) {
			buf[len] = '\0';
			*ret_len = len;
			return buf;
		}
		if (len == cap) {
			cap *= 2;
			grown = realloc(buf, cap + 1);
			if (!grown)
				break;
			buf = grown;
		}
	}
	free(buf);
	return NULL;
}

/* One open, one fstat, one read, one close: an access() and
 * json_object_from_file's own read loop, then a stat() by path, made
 * three calls more for the same bytes (and the stat could see a file
 * renamed in after the read). The text is the simulator's own plain JSON
 * (nicsim-json.c), or else parsed as json_object_from_fd parses it, one
 * json_tokener_parse_ex over all of it, so what is taken or refused is
 * unchanged. */
int nicsim_state_load(struct nicsim_if *nic, struct stat *ret_st)
{
	char path[PATH_MAX], *text;
	struct stat st;
	size_t len = 0;
	int fd, r = state_path(nic, "", path, sizeof(path));

	if (r <= 0)
		return r;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	text = read_whole(fd, S_ISREG(st.st_mode) ? st.st_size : -1, &len);
	r = text ? 0 : -errno;
	close(fd);
	if (!text)
		return r;
	if (ret_st)
		*ret_st = st;
	r = nicsim_state_parse(nic, text, len, true);
	free(text);
	return r < 0 ? r : 1;
}

/* json_tokener_parse_ex over all of TEXT, as before the reader of
 * nicsim-json.c; NULL when it is no JSON object. */
static json_object *parse_jsonc(const char *text, size_t len)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *o = NULL;

	if (tok && len <= INT_MAX)
		o = json_tokener_parse_ex(tok, text, (int)len);
	if (tok)
		json_tokener_free(tok);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

int nicsim_state_parse(struct nicsim_if *nic, const char *text, size_t len, bool fast)
{
	struct nicsim_json_doc doc;
	const struct nicsim_json *root = NULL, *v;
	json_object *o = NULL;
	int r;

	if (fast)
		root = nicsim_json_read(&doc, text, len);
	/* json_object_get_int of a string parses its text: left to json-c
	 * for the one member read as a number whatever its type. */
	if (root && nicsim_json_get(root, "dcbx_mode", &v) && v->type == json_type_string) {
		nicsim_json_free(&doc);
		root = NULL;
	}
	if (!root) {
		o = parse_jsonc(text, len);
		if (!o)
			return -EBADMSG;
		root = nicsim_json_from_jsonc(&doc, o);
		if (!root) {
			json_object_put(o);
			return -ENOMEM;
		}
	}
	r = from_json(nic, root);
	nicsim_json_free(&doc);
	json_object_put(o);
	return r;
}
