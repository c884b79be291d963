/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * halo-config.h: the typed, validated form of halo.conf (see
 * halo-provision.conf(5); its key names are pinned: keys are added, never
 * renamed). Every section is optional: `present == false` means "leave
 * that part of the host alone". Every value is parsed once, at load, and
 * remembers its source line (and, where a message quotes it, its text as
 * written) so later checks (against the host) can still say FILE:LINE.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "config/cidr.h"
#include "config/device-spec.h"
#include "config/hwaddr.h"
#include "config/kernel-param.h"
#include "config/module-options.h"
#include "config/pci.h"
#include "config/sysctl-setting.h"
#include "halo.h"
#include "util/errors.h"

/* A string list with the line of each element. */
struct halo_strlist {
	char **v; /* NULL-terminated */
	int *line;
	size_t n;
};

/* interfaces[].addresses[i]: the address with its prefix, typed at load,
 * and as written. */
struct halo_address {
	struct halo_cidr cidr;
	char *text; /* for messages: tests assert that spelling ("FD00::1/128") */
	int line;
};

struct halo_address_list {
	struct halo_address *v;
	size_t n;
};

enum halo_tristate { HALO_UNSET = -1, HALO_FALSE = 0, HALO_TRUE = 1 };

enum halo_boot_loader {
	HALO_LOADER_AUTO,
	HALO_LOADER_GRUB,        /* edit GRUB_CMDLINE_LINUX in /etc/default/grub */
	HALO_LOADER_GRUB_DROPIN, /* /etc/default/grub.d/zz-halo-provision.cfg */
	HALO_LOADER_BLS,         /* grubby + /etc/kernel/cmdline */
	HALO_LOADER_KERNEL_CMDLINE, /* /etc/kernel/cmdline only */
	HALO_LOADER_NONE,
};

enum halo_gtt_params {
	HALO_GTT_PARAMS_AUTO,        /* ttm. or amdttm. by detection */
	HALO_GTT_PARAMS_TTM,         /* ttm.pages_limit */
	HALO_GTT_PARAMS_AMDTTM,      /* amdttm.pages_limit */
	HALO_GTT_PARAMS_TTM_GTTSIZE, /* ttm.pages_limit + amdgpu.gttsize */
};

/* boot.iommu: iommu=<mode> on the kernel command line. */
enum halo_iommu_mode {
	HALO_IOMMU_UNSET, /* leave alone */
	HALO_IOMMU_PT,
	HALO_IOMMU_NOPT,
	HALO_IOMMU_OFF,
	HALO_IOMMU_FORCE,
	HALO_IOMMU_SOFT,
};

/* boot.pcie_aspm: pcie_aspm=<mode>. */
enum halo_pcie_aspm {
	HALO_PCIE_ASPM_UNSET, /* leave alone */
	HALO_PCIE_ASPM_OFF,
	HALO_PCIE_ASPM_FORCE,
};

struct halo_boot_config {
	bool present;
	int line;
	enum halo_boot_loader loader;
	enum halo_iommu_mode iommu;
	bool gtt_set;            /* gtt_mib given */
	bool gtt_auto;           /* gtt_mib = "auto" */
	uint64_t gtt_mib;        /* when gtt_set && !gtt_auto */
	int gtt_line;
	uint64_t reserve_mib;    /* default 2048 */
	enum halo_gtt_params gtt_params;
	enum halo_tristate pci_realloc; /* true: add pci=realloc; false: remove it */
	enum halo_pcie_aspm pcie_aspm;
	struct halo_kernel_params extra;  /* "key=value" or "flag" */
	struct halo_kernel_params remove; /* keys (or key=value) to take out */
	bool regenerate;         /* default true */
};

/* Module names (modules.load, .blacklist, .options) are normalised at load
 * as the kernel reads them: every '-' is '_' ("ib-uverbs" is "ib_uverbs");
 * messages show that form. */
struct halo_module_option {
	char *module; /* normalised */
	char *text;   /* the option string as written: "key=value key2=value2" */
	struct halo_module_param *params; /* split once, at load */
	size_t n_params;
	int line;
};

struct halo_modules_config {
	bool present;
	int line;
	struct halo_strlist load;      /* normalised names */
	struct halo_module_option *options;
	size_t n_options;
	struct halo_strlist blacklist; /* normalised names */
	bool persist; /* default true */
};

struct halo_route {
	/* As written ("default", "10.0.2.0/24"), for messages only: net/
	 * reads dst and gateway. */
	char *to;
	char *via; /* NULL: no gateway */
	/*
	 * The destination in network form (host bits are refused at load).
	 * "default" is the /0 of the gateway's family, IPv4 without a
	 * gateway; dst_default remembers it was written so. A gateway of the
	 * other family than a CIDR destination is refused at load.
	 */
	struct halo_cidr dst;
	bool dst_default;
	bool has_gateway;
	struct halo_cidr gateway; /* host prefix (/32, /128) */
	uint32_t metric; /* 0: unset */
	int line;
};

struct halo_dscp_prio {
	uint8_t dscp; /* 0..63 */
	uint8_t prio; /* 0..7 */
	int line;
};

/* roce.dcbx: who runs the DCBX agent. */
enum halo_dcbx_mode {
	HALO_DCBX_UNSET,
	HALO_DCBX_HOST,     /* host-managed IEEE DCB (E810: fw-lldp-agent off) */
	HALO_DCBX_FIRMWARE, /* the NIC firmware's agent */
};

/* roce.trust: which header field selects the priority. */
enum halo_trust_mode {
	HALO_TRUST_UNSET,
	HALO_TRUST_DSCP,
	HALO_TRUST_PCP,
};

struct halo_roce_config {
	bool present;
	int line;
	enum halo_tristate enable;
	enum halo_dcbx_mode dcbx;
	bool pfc_set;
	uint8_t pfc_mask; /* bit p: PFC on priority p */
	enum halo_trust_mode trust;
	struct halo_dscp_prio *dscp_prio;
	size_t n_dscp_prio;
	bool ecn_set;
	uint8_t ecn_mask;
	bool ecn_exclusive; /* ECN off on every priority not in ecn_mask too */
	int tos;         /* 0..255, -1 unset */
	bool required;
	bool exclusive;  /* remove DSCP APP entries someone else added too */
	int tos_line;    /* lines of tos and pfc, for cross-field messages */
	int pfc_line;
};

/* match = { mac, pci } of an interface entry, typed. */
struct halo_match {
	bool has_mac;
	struct halo_mac mac;
	bool has_pci;
	struct halo_pci_addr pci;
};

struct halo_interface {
	char *name;
	int line;
	char *match_driver; /* as written (a driver name, compared as sysfs has it) */
	struct halo_match match;
	uint32_t mtu;       /* 0: leave alone */
	struct halo_address_list addresses;
	bool exclusive_addresses;
	struct halo_route *routes;
	size_t n_routes;
	struct halo_roce_config roce;
	int name_line;      /* lines of name, match.mac, match.pci */
	int mac_line;
	int pci_line;
};

enum halo_fw_backend {
	HALO_FW_AUTO,
	HALO_FW_FIREWALLD,
	HALO_FW_NFTABLES,
	HALO_FW_NONE,
};

struct halo_firewall_config {
	bool present;
	int line;
	enum halo_fw_backend backend;
	bool trusted_interfaces; /* default true */
	uint16_t *allow_udp;
	size_t n_allow_udp;
	uint16_t *allow_tcp;
	size_t n_allow_tcp;
};

/* access = { ... } (src/files/access.c, memlock.c): the udev rule for
 * the device groups, the memlock drop-ins. Each key's line is kept: a
 * group missing from the root's /etc/group is reported there. */
struct halo_access_config {
	bool present;
	int line;
	char *rdma_group; /* NULL unset */
	int rdma_group_line;
	char *gpu_group;
	int gpu_group_line;
	unsigned gpu_mode; /* of /dev/kfd, /dev/dri/renderD*; 0 unset (0660) */
	int gpu_mode_line;
	bool memlock_set;
	bool memlock_unlimited;
	uint64_t memlock_kib; /* when set and not unlimited */
	int memlock_line;
};

/* sysctl = { ... } (src/files/sysctl.c): the ARP and reverse-path rule of
 * multi-NIC RDMA nodes on the managed interfaces (config/sysctl-rule.h),
 * and keys the operator asks for. */
enum halo_multi_nic {
	HALO_MULTI_NIC_AUTO, /* the rule when more than one interface is managed */
	HALO_MULTI_NIC_ON,
	HALO_MULTI_NIC_OFF,
};

struct halo_sysctl_config {
	bool present;
	int line;
	enum halo_multi_nic multi_nic;
	int multi_nic_line; /* 0: not given (auto) */
	/* Validated: keys unique, none repeating or contradicting the
	 * multi_nic rule. */
	struct halo_sysctl_setting *settings;
	size_t n_settings;
};

struct halo_storage {
	struct halo_device_spec what; /* text NULL: not given */
	char *where;   /* absolute path */
	char *type;    /* fs type, NULL: any */
	char *options; /* NULL: defaults */
	int line;
	int where_line;
};

struct halo_state_config {
	char *path;       /* default /var/lib/halo-provision/state.json */
	char *env_file;   /* NULL: none */
	char *prometheus; /* NULL or "": none */
	int line;
	int path_line;    /* lines of the keys; 0 when absent */
	int env_file_line;
	int prometheus_line;
};

/* ready = { ... }: thresholds of the check-only readiness items
 * (src/ready); the defaults hold when the group is absent. */
struct halo_ready_config {
	bool present;
	int line;
	unsigned kernel_min[3]; /* running kernel at least this; default 6.18.4 */
	uint64_t uma_max_mib;   /* amdgpu VRAM carve-out ceiling; default 512 */
};

struct halo_config {
	char *path; /* the file as given, for messages */
	/* Loaded from HALO_CONFIG_DEFAULT_PATH inside the root (no -c): the
	 * state file records that path, the node's, not the one the run
	 * reached it by. */
	bool in_root;
	int version;
	struct halo_boot_config boot;
	struct halo_modules_config modules;
	struct halo_interface *interfaces;
	size_t n_interfaces;
	struct halo_firewall_config firewall;
	struct halo_access_config access;
	struct halo_sysctl_config sysctl;
	struct halo_storage *storage;
	size_t n_storage;
	struct halo_state_config state;
	struct halo_ready_config ready;
	/* The file's bytes, kept for halo_config_digest: few runs report
	 * the digest, and hashing it on every load cost a sixth of loading. */
	char *text;
	size_t text_len;
	/* config_data (Ansible): the JSON path of each line of the text
	 * generated from it (halo_config_message); NULL for a file. */
	char **line_paths;
	size_t n_line_paths;
};

/*
 * The keyword of a value as halo.conf spells it (and the kernel command
 * line for iommu and pcie_aspm): "pt", "grub-dropin", "ttm+gttsize",
 * "firmware", "dscp"... NULL for UNSET or a value out of range.
 */
const char *halo_boot_loader_name(enum halo_boot_loader v);
const char *halo_gtt_params_name(enum halo_gtt_params v);
const char *halo_iommu_mode_name(enum halo_iommu_mode v);
const char *halo_pcie_aspm_name(enum halo_pcie_aspm v);
const char *halo_dcbx_mode_name(enum halo_dcbx_mode v);
const char *halo_trust_mode_name(enum halo_trust_mode v);

/* The config read without -c, inside the root. */
#define HALO_CONFIG_DEFAULT_PATH "/etc/halo-provision/halo.conf"

/* Where a run's config comes from. */
struct halo_config_source {
	const char *name;  /* in messages: the path as given, "config_text", ... */
	bool in_root;      /* no -c: HALO_CONFIG_DEFAULT_PATH inside the root */
	const char *text;  /* Ansible's config_text, or NULL */
	const void *data;  /* Ansible's config_data (a struct json_object *), or NULL */
	/* Ansible's args file, which brought the config (any of config,
	 * config_text, config_data) and the run's other parameters: held to
	 * the config file's rule (halo_config_file_check) before anything is
	 * loaded. NULL: none. */
	const char *args_path;
	const struct stat *args_st;
	/* The long option that "-c" with NAME glued on was probably meant to
	 * be ("-chek", which getopt reads as -c hek: "check"), named when no
	 * file NAME exists. NULL: none. */
	const char *meant;
};

/* The rule a file that brings a config must pass: a regular file, not
 * writable by group or others, and with CHECK_OWNER (outside --root runs)
 * owned by root. 0, or -EPERM with one line in ERRS: "PATH: refusing a
 * WHAT writable by group or others (mode 0666)". ST: the file's fstat,
 * of the descriptor that is (or was) read. */
int halo_config_file_check(const struct stat *st, const char *path, const char *what,
			   bool check_owner, struct halo_errors *errs);

/* Loads SRC the way the functions below do (a file not owned by root is
 * refused outside --root runs). */
int halo_config_load_source(const struct halo_ctx *ctx, const struct halo_config_source *src,
			    struct halo_config **ret, struct halo_errors *errs);

/*
 * Parses and validates the file at PATH (a path as given, not inside the
 * root). Every problem is added to ERRS as "PATH:LINE: message", all of them
 * in one pass. CHECK_OWNER: refuse a file not owned by root (outside --root
 * runs); a file writable by group or others is always refused.
 * Returns 0 with *ret set when ERRS is empty; -EINVAL when there were
 * validation errors (*ret NULL); -EPERM when the file is refused (mode,
 * owner, not a regular file); other -errno for I/O failures (also in ERRS).
 * The file is opened once and read once: the checks, the parse and
 * halo_config_digest all see the same bytes. @include is refused.
 */
int halo_config_load(const char *path, bool check_owner,
		     struct halo_config **ret, struct halo_errors *errs);

/* The same from an open descriptor (taken over and closed), e.g. the
 * default config opened inside --root; PATH is for messages. */
int halo_config_load_fd(int fd, const char *path, bool check_owner,
			struct halo_config **ret, struct halo_errors *errs);

/* The same from a memory buffer (tests, fuzzing, Ansible args). NAME is
 * used in messages. No ownership check. */
int halo_config_load_string(const char *name, const char *text,
			    struct halo_config **ret, struct halo_errors *errs);

/* Ansible's config_data: a JSON object mirroring the file's structure,
 * with loose values (an integer or boolean as a string, "" or null for a
 * key left out). Checked by the same schema walk, with the same messages;
 * they say "NAME: PATH: ..." (NAME "config_data") where a file's say
 * "FILE:LINE: ...". DATA is a struct json_object *. */
int halo_config_load_json(const char *name, const void *data,
			  struct halo_config **ret, struct halo_errors *errs);

/* The lower-case SHA-256 hex of the config's bytes into RET, and RET;
 * "" for a config that was not loaded from text. */
const char *halo_config_digest(const struct halo_config *cfg, char ret[65]);

/* The config's name for messages: its path as given, or "config". */
const char *halo_config_name(const struct halo_config *cfg);

/* MSG with a config_data line ("config_data:17: ...", "line 17") shown
 * as the JSON path it came from; a copy of MSG for a config file. Caller
 * frees; NULL on ENOMEM. */
char *halo_config_message(const struct halo_config *cfg, const char *msg);

void halo_config_free(struct halo_config *cfg);
static inline void halo_config_freep(struct halo_config **c) { halo_config_free(*c); }
#define _cleanup_config_ _cleanup_(halo_config_freep)
