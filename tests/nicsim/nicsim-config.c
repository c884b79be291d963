/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nicsim-config.c: the NICSIM_CONFIG file, one simulated interface a line:
 *   IFNAME PROFILE [key=value ...]        (# starts a comment)
 * and each profile's starting state (what a freshly booted NIC reports).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicsim.h"

/* ice_gstrings_priv_flags, in the driver's order. */
static const char *const e810_flags[] = {
	"link-down-on-close", "fw-lldp-agent", "vf-true-promisc-support",
	"mdd-auto-reset-vf", "vf-vlan-pruning", "legacy-rx",
};
/* mlx5e_priv_flags, in the driver's order. */
static const char *const connectx_flags[] = {
	"rx_cqe_moder", "tx_cqe_moder", "rx_cqe_compress", "rx_striding_rq",
	"rx_no_csum_complete", "xdp_tx_mpwqe", "skb_tx_mpwqe", "tx_port_ts",
};

const char *const *nicsim_priv_flag_names(enum nicsim_profile p, size_t *ret_n)
{
	if (p == NICSIM_E810) {
		*ret_n = sizeof(e810_flags) / sizeof(e810_flags[0]);
		return e810_flags;
	}
	*ret_n = sizeof(connectx_flags) / sizeof(connectx_flags[0]);
	return connectx_flags;
}

int nicsim_priv_flag_index(enum nicsim_profile p, const char *name)
{
	size_t n;
	const char *const *names = nicsim_priv_flag_names(p, &n);

	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -ENOENT;
}

/* A PCI address that stays the same for the same name (a test can pin it
 * with pci=): bus from an FNV-1a hash of the name, device 0, function 0. */
static void default_pci(const char *name, char *buf, size_t len)
{
	uint32_t h = 2166136261u;

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	snprintf(buf, len, "0000:%02x:00.0", (unsigned)(h % 254) + 1);
}

/* e810: "%x.%02x" as ice_info_nvm_ver prints the NVM (hex digits, the
 * minor always two); connectx: "%d.%d.%04d" as mlx5 prints fw.version. */
bool nicsim_fw_valid(enum nicsim_profile p, const char *s)
{
	unsigned a, b, c;
	char tail;

	if (p == NICSIM_E810) {
		size_t n = strspn(s, "0123456789abcdef");

		return n >= 1 && n <= 4 && s[n] == '.' &&
		       strspn(s + n + 1, "0123456789abcdef") == 2 && s[n + 3] == '\0';
	}
	return strspn(s, "0123456789.") == strlen(s) && strlen(s) < 32 &&
	       sscanf(s, "%u.%u.%u%c", &a, &b, &c, &tail) == 3 && a < 256 && b < 256 &&
	       c < 65536 && strlen(strrchr(s, '.') + 1) >= 4;
}

static void defaults(struct nicsim_if *nic)
{
	nic->pfc_cap = 8;
	nic->enable_roce = true;
	/* What the seed systems run: the guide's minimum NVM on the E810, a
	 * current ConnectX-6 Dx firmware. */
	snprintf(nic->fw, sizeof(nic->fw), "%s",
		 nic->profile == NICSIM_E810 ? "4.91" : "16.35.2000");
	if (nic->profile == NICSIM_E810) {
		/* Factory NVM: the firmware LLDP agent runs, DCB is firmware
		 * managed (ice_dcb_get_mode: LLD_MANAGED | IEEE). With no
		 * peer to learn from, the firmware's one TC (as ice's own
		 * default: ice_dcb_sw_dflt_cfg). */
		nic->priv_flags = 1u << NICSIM_E810_FW_LLDP;
		nic->dcbx = nicsim_ice_dcbx_mode(true);
		nicsim_ice_sw_default(nic);
	} else {
		/* mlx5: firmware DCBX ("auto"), 7 m cable length default,
		 * rx_cqe_moder, rx_striding_rq and the MPWQE flags on, the
		 * ETS of mlx5e_ets_init. */
		nic->dcbx = nicsim_mlx5_dcbx_mode(false);
		nic->pfc_delay = 7;
		nic->priv_flags = (1u << 0) | (1u << 3) | (1u << 5) | (1u << 6);
		nicsim_mlx5_ets_init(nic);
	}
}

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_bool(const char *v, const char *yes, const char *no, bool *ret)
{
	if (strcmp(v, yes) == 0)
		*ret = true;
	else if (strcmp(v, no) == 0)
		*ret = false;
	else
		return -EINVAL;
	return 0;
}

static int parse_uint(const char *v, unsigned long max, unsigned long *ret)
{
	char *end;
	unsigned long n;

	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n > max)
		return -EINVAL;
	*ret = n;
	return 0;
}

/* pfc=3,4 (or pfc=none): the enabled priorities. */
static int parse_pfc(const char *v, uint8_t *ret)
{
	char buf[64], *save = NULL;
	uint8_t bits = 0;

	if (strcmp(v, "none") == 0) {
		*ret = 0;
		return 0;
	}
	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -EINVAL;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		unsigned long p;

		if (parse_uint(t, 7, &p) < 0)
			return -EINVAL;
		bits |= 1u << p;
	}
	*ret = bits;
	return 0;
}

/* dscp=26:3,48:6: DSCP APP entries. */
static int parse_dscp(const char *v, struct nicsim_if *nic)
{
	char buf[1024], *save = NULL;

	if (snprintf(buf, sizeof(buf), "%s", v) >= (int)sizeof(buf))
		return -EINVAL;
	nic->n_app = 0;
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(t, ':');
		unsigned long d, p;

		if (!colon)
			return -EINVAL;
		*colon = '\0';
		if (parse_uint(t, 63, &d) < 0 || parse_uint(colon + 1, 7, &p) < 0)
			return -EINVAL;
		for (size_t i = 0; i < nic->n_app; i++)
			if (nic->app[i].protocol == d)
				return -EINVAL; /* the driver maps a DSCP once */
		if (nic->n_app == NICSIM_MAX_APPS)
			return -E2BIG;
		nic->app[nic->n_app++] = (struct dcb_app){
			.selector = IEEE_8021QAZ_APP_SEL_DSCP,
			.priority = (uint8_t)p, .protocol = (uint16_t)d };
	}
	nic->trust_dscp = nic->n_app > 0;
	return 0;
}

static int parse_key(struct nicsim_if *nic, char *kv, char *err, size_t errlen,
		     const char *where)
{
	char *eq = strchr(kv, '=');
	const char *k = kv, *v;
	bool b, e810 = nic->profile == NICSIM_E810;
	unsigned long n;

	if (!eq)
		return fail(err, errlen, "%s: '%s' is not key=value", where, kv);
	*eq = '\0';
	v = eq + 1;
	if (strcmp(k, "fw_lldp_agent") == 0 && e810) {
		if (parse_bool(v, "on", "off", &b) < 0)
			goto bad;
		nic->priv_flags = (nic->priv_flags & ~(1u << NICSIM_E810_FW_LLDP)) |
				  ((uint32_t)b << NICSIM_E810_FW_LLDP);
		nic->dcbx = nicsim_ice_dcbx_mode(b);
	} else if (strcmp(k, "enable_roce") == 0) {
		if (parse_bool(v, "true", "false", &nic->enable_roce) < 0)
			goto bad;
	} else if (strcmp(k, "enable_iwarp") == 0 && e810) {
		if (parse_bool(v, "true", "false", &nic->enable_iwarp) < 0)
			goto bad;
	} else if (strcmp(k, "bonded") == 0 && e810) {
		if (parse_bool(v, "yes", "no", &nic->bonded) < 0)
			goto bad;
	} else if (strcmp(k, "dcbx") == 0 && !e810) {
		if (parse_bool(v, "host", "firmware", &b) < 0)
			goto bad;
		nic->dcbx = nicsim_mlx5_dcbx_mode(b);
	} else if (strcmp(k, "pfc") == 0) {
		if (parse_pfc(v, &nic->pfc_en) < 0)
			goto bad;
	} else if (strcmp(k, "dscp") == 0) {
		if (parse_dscp(v, nic) < 0)
			goto bad;
	} else if (strcmp(k, "pci") == 0) {
		if (!*v || strlen(v) >= sizeof(nic->pci) || strchr(v, '/'))
			goto bad;
		snprintf(nic->pci, sizeof(nic->pci), "%s", v);
	} else if ((strcmp(k, "nvm") == 0 && e810) || (strcmp(k, "fw") == 0 && !e810)) {
		if (!nicsim_fw_valid(nic->profile, v))
			goto bad;
		snprintf(nic->fw, sizeof(nic->fw), "%s", v);
	} else if (strcmp(k, "reset") == 0 && e810) {
		if (parse_bool(v, "off", "on", &nic->no_reset) < 0)
			goto bad;
	} else if (strcmp(k, "planted") == 0) {
		if (strcmp(v, "addr-clears-pfc") != 0)
			goto bad;
		nic->planted_addr_clears_pfc = true;
	} else if (strcmp(k, "flap_ms") == 0 && !e810) {
		if (parse_uint(v, 60000, &n) < 0)
			goto bad;
		nic->flap_ms = (unsigned)n;
	} else if (strcmp(k, "flap_delay_ms") == 0 && !e810) {
		if (parse_uint(v, 60000, &n) < 0)
			goto bad;
		nic->flap_delay_ms = (unsigned)n;
	} else {
		return fail(err, errlen, "%s: unknown key '%s' for profile %s",
			    where, k, e810 ? "e810" : "connectx");
	}
	return 0;
bad:
	return fail(err, errlen, "%s: bad value '%s' for %s", where, v, k);
}

int nicsim_config_load(const char *path, struct nicsim_if *ifs, size_t max,
		       size_t *ret_n, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char line[4096], where[512];
	size_t n = 0;
	int lineno = 0, r = 0;

	if (!f)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	while (r == 0 && fgets(line, sizeof(line), f)) {
		char *save = NULL, *hash = strchr(line, '#'), *name, *prof, *kv;
		struct nicsim_if *nic;

		lineno++;
		snprintf(where, sizeof(where), "%s:%d", path, lineno);
		if (hash)
			*hash = '\0';
		name = strtok_r(line, " \t\r\n", &save);
		if (!name)
			continue;
		prof = strtok_r(NULL, " \t\r\n", &save);
		if (!prof) {
			r = fail(err, errlen, "%s: '%s' needs a profile (e810 or connectx)",
				 where, name);
			break;
		}
		if (strlen(name) >= IFNAMSIZ || strchr(name, '/')) {
			r = fail(err, errlen, "%s: bad interface name '%s'", where, name);
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (strcmp(ifs[i].name, name) == 0)
				r = fail(err, errlen, "%s: %s listed twice", where, name);
		if (r)
			break;
		if (n == max) {
			r = fail(err, errlen, "%s: more than %zu interfaces", where, max);
			break;
		}
		nic = &ifs[n];
		memset(nic, 0, sizeof(*nic));
		snprintf(nic->name, sizeof(nic->name), "%s", name);
		if (strcmp(prof, "e810") == 0) {
			nic->profile = NICSIM_E810;
		} else if (strcmp(prof, "connectx") == 0) {
			nic->profile = NICSIM_CONNECTX;
		} else {
			r = fail(err, errlen, "%s: unknown profile '%s' (e810 or connectx)",
				 where, prof);
			break;
		}
		defaults(nic);
		default_pci(name, nic->pci, sizeof(nic->pci));
		while (r == 0 && (kv = strtok_r(NULL, " \t\r\n", &save)))
			r = parse_key(nic, kv, err, errlen, where);
		if (r == 0 && nic->enable_roce && nic->enable_iwarp)
			r = fail(err, errlen, "%s: enable_roce and enable_iwarp are exclusive",
				 where);
		/* Booted with these values: the device runs with them. */
		nic->active_roce = nic->enable_roce;
		nic->active_iwarp = nic->enable_iwarp;
		/* ice in L3 DSCP mode from the start: a TC per priority. */
		if (nic->profile == NICSIM_E810 && nic->trust_dscp) {
			nicsim_ice_dscp_ets(&nic->ets);
			nic->pfc_cap = 8;
		}
		/* PFC or DSCP entries given: set through dcbnl before, so
		 * ice's desired copy holds them too. Else it is as the probe
		 * left it: zero. */
		if (nic->profile == NICSIM_E810 && (nic->pfc_en || nic->n_app))
			nicsim_ice_desired_sync(nic);
		n++;
	}
	fclose(f);
	if (r == 0)
		*ret_n = n;
	return r;
}
