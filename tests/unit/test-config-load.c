/* SPDX-License-Identifier: GPL-2.0-or-later */
/* test-config-load.c: loading from a file (ownership and mode through the
 * descriptor, @include, digest) and the shipped halo.conf.example. */
#include <errno.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config-test.h"
#include "config/digest.h"

static char dir[] = "/tmp/halo-test-config.XXXXXX";

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *write_file(const char *name, const void *data, size_t len, mode_t mode)
{
	static char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
	return path;
}

/* Loads PATH; returns the single error line, or NULL when it loaded. */
static char *load_one(const char *path, bool check_owner, int want_r)
{
	struct halo_errors errs = { 0 };
	struct halo_config *c = NULL;
	int r = halo_config_load(path, check_owner, &c, &errs);
	char *msg = NULL;

	assert_int_equal(r, want_r);
	if (r == 0) {
		assert_non_null(c);
		assert_int_equal(errs.n, 0);
		halo_config_free(c);
	} else {
		assert_null(c);
		assert_int_equal(errs.n, 1);
		msg = strdup(errs.msgs[0]);
	}
	halo_errors_free(&errs);
	return msg;
}

#define assert_load_error(path, owner, r, want)                                \
	do {                                                                   \
		char *m_ = load_one(path, owner, r);                           \
		char w_[512];                                                  \
		snprintf(w_, sizeof(w_), want, path);                          \
		assert_non_null(m_);                                           \
		assert_string_equal(m_, w_);                                   \
		free(m_);                                                      \
	} while (0)

static void example_validates(void **state)
{
	struct halo_errors errs = { 0 };
	struct halo_config *c = NULL;
	const struct halo_interface *it;
	char *text = NULL, digest[65], got[65];
	const char *path;
	size_t len = 0;
	FILE *f;

	/* A 0600 copy: the checkout's own mode depends on the umask it was
	 * unpacked with, and a group-writable config is refused. */
	f = fopen(TOP_SRCDIR "/halo.conf.example", "r");
	assert_non_null(f);
	assert_int_equal(getdelim(&text, &len, '\0', f) > 0, 1);
	fclose(f);
	path = write_file("example.conf", text, strlen(text), 0600);
	assert_int_equal(halo_config_load(path, false, &c, &errs), 0);
	for (size_t i = 0; i < errs.n; i++)
		print_error("%s\n", errs.msgs[i]);
	assert_int_equal(errs.n, 0);
	assert_string_equal(c->path, path);
	assert_int_equal(c->version, 1);

	assert_true(c->boot.present);
	assert_int_equal(c->boot.loader, HALO_LOADER_AUTO);
	assert_int_equal(c->boot.iommu, HALO_IOMMU_PT);
	assert_string_equal(halo_iommu_mode_name(c->boot.iommu), "pt");
	assert_true(c->boot.gtt_set && !c->boot.gtt_auto);
	assert_int_equal(c->boot.gtt_mib, 126976);
	assert_int_equal(c->boot.reserve_mib, 2048);
	assert_int_equal(c->boot.gtt_params, HALO_GTT_PARAMS_AUTO);
	assert_int_equal(c->boot.pci_realloc, HALO_TRUE);
	assert_int_equal(c->boot.pcie_aspm, HALO_PCIE_ASPM_OFF);
	assert_int_equal(c->boot.extra.n, 1);
	assert_string_equal(c->boot.extra.v[0].text, "amd_pstate=active");
	assert_string_equal(c->boot.extra.v[0].key, "amd_pstate");
	assert_string_equal(c->boot.extra.v[0].value, "active");
	assert_string_equal(c->boot.remove.v[0].text, "quiet");
	assert_null(c->boot.remove.v[0].value);
	assert_true(c->boot.regenerate);

	assert_true(c->modules.present);
	assert_int_equal(c->modules.load.n, 4);
	assert_string_equal(c->modules.load.v[3], "rdma_ucm");
	assert_null(c->modules.load.v[4]);
	assert_int_equal(c->modules.n_options, 1);
	assert_string_equal(c->modules.options[0].module, "ib_core");
	assert_string_equal(c->modules.options[0].text, "netns_mode=1");
	assert_int_equal(c->modules.options[0].n_params, 1);
	assert_string_equal(c->modules.options[0].params[0].name, "netns_mode");
	assert_string_equal(c->modules.options[0].params[0].value, "1");
	assert_int_equal(c->modules.blacklist.n, 0);
	assert_true(c->modules.persist);

	assert_int_equal(c->n_interfaces, 1);
	it = &c->interfaces[0];
	assert_string_equal(it->name, "rdma0");
	assert_true(it->match.has_mac);
	assert_string_equal(it->match_driver, "ice");
	assert_true(it->match.has_pci);
	assert_true(it->match.has_mac);
	assert_memory_equal(it->match.mac.b, ((uint8_t[]){ 0xb4, 0x96, 0x91, 0xaa, 0xbb, 0x01 }), 6);
	assert_true(it->match.has_pci);
	assert_int_equal(it->match.pci.domain, 0);
	assert_int_equal(it->match.pci.bus, 0xc2);
	assert_int_equal(it->match.pci.device, 0);
	assert_int_equal(it->match.pci.function, 0);
	assert_int_equal(it->mtu, 9000);
	assert_string_equal(it->addresses.v[0].text, "192.168.100.1/30");
	assert_int_equal(it->addresses.v[0].cidr.family, AF_INET);
	assert_memory_equal(it->addresses.v[0].cidr.addr, ((uint8_t[]){ 192, 168, 100, 1 }), 4);
	assert_int_equal(it->addresses.v[0].cidr.prefixlen, 30);
	assert_true(it->addresses.v[0].line > it->line);
	assert_false(it->exclusive_addresses);
	assert_int_equal(it->n_routes, 1);
	assert_string_equal(it->routes[0].to, "10.0.2.0/24");
	assert_string_equal(it->routes[0].via, "192.168.100.2");
	assert_false(it->routes[0].dst_default);
	assert_int_equal(it->routes[0].dst.family, AF_INET);
	assert_memory_equal(it->routes[0].dst.addr, ((uint8_t[]){ 10, 0, 2, 0 }), 4);
	assert_int_equal(it->routes[0].dst.prefixlen, 24);
	assert_true(it->routes[0].has_gateway);
	assert_memory_equal(it->routes[0].gateway.addr, ((uint8_t[]){ 192, 168, 100, 2 }), 4);
	assert_int_equal(it->routes[0].gateway.prefixlen, 32);
	assert_int_equal(it->routes[0].metric, 100);
	assert_true(it->roce.present);
	assert_int_equal(it->roce.enable, HALO_TRUE);
	assert_int_equal(it->roce.dcbx, HALO_DCBX_HOST);
	assert_true(it->roce.pfc_set);
	assert_int_equal(it->roce.pfc_mask, 1u << 3);
	assert_int_equal(it->roce.trust, HALO_TRUST_DSCP);
	assert_int_equal(it->roce.n_dscp_prio, 2);
	assert_int_equal(it->roce.dscp_prio[1].dscp, 48);
	assert_int_equal(it->roce.dscp_prio[1].prio, 6);
	assert_true(it->roce.ecn_set);
	assert_int_equal(it->roce.ecn_mask, 1u << 3);
	assert_int_equal(it->roce.tos, 106);
	assert_false(it->roce.required);

	assert_true(c->firewall.present);
	assert_int_equal(c->firewall.backend, HALO_FW_AUTO);
	assert_true(c->firewall.trusted_interfaces);
	assert_int_equal(c->firewall.n_allow_udp, 1);
	assert_int_equal(c->firewall.allow_udp[0], 4791);
	assert_int_equal(c->firewall.n_allow_tcp, 3);
	assert_int_equal(c->firewall.allow_tcp[2], 8000);

	assert_true(c->access.present);
	assert_string_equal(c->access.rdma_group, "rdma");
	assert_string_equal(c->access.gpu_group, "render");
	assert_true(c->access.memlock_set && c->access.memlock_unlimited);

	assert_int_equal(c->n_storage, 1);
	assert_int_equal(c->storage[0].what.tag, HALO_DEVICE_LABEL);
	assert_string_equal(c->storage[0].what.value, "models");
	assert_string_equal(c->storage[0].what.text, "LABEL=models");
	assert_string_equal(c->storage[0].where, "/models");
	assert_string_equal(c->storage[0].type, "xfs");
	assert_string_equal(c->storage[0].options, "noatime");

	assert_string_equal(c->state.path, "/var/lib/halo-provision/state.json");
	assert_string_equal(c->state.env_file, "/etc/halo-provision/rccl.env");
	assert_string_equal(c->state.prometheus,
			    "/var/lib/prometheus/node-exporter/halo-provision.prom");

	/* The digest is of the file's bytes. */
	halo_sha256_hex(text, strlen(text), digest);
	assert_string_equal(halo_config_digest(c, got), digest);
	free(text);
	halo_config_free(c);
}

/* Every key of the schema appears in the example. */
static void example_covers_every_key(void **state)
{
	static const char *const keys[] = {
		"version", "boot", "loader", "iommu", "gtt_mib", "reserve_mib", "gtt_params",
		"pci_realloc", "pcie_aspm", "extra", "remove", "regenerate", "modules", "load",
		"options", "blacklist", "persist", "interfaces", "name", "match", "mac",
		"driver", "pci", "mtu", "addresses", "exclusive_addresses", "routes", "to",
		"via", "metric", "roce", "enable", "dcbx", "pfc", "trust", "dscp_prio", "ecn",
		"tos", "required", "firewall", "backend", "trusted_interfaces", "allow_udp",
		"allow_tcp", "access", "rdma_group", "gpu_group", "gpu_mode", "memlock", "sysctl",
		"multi_nic", "settings", "storage", "what", "where", "type", "options", "state",
		"path", "env_file", "prometheus", NULL,
	};
	FILE *f = fopen(TOP_SRCDIR "/halo.conf.example", "r");
	char *text = NULL, pat[64];
	size_t len = 0;

	assert_non_null(f);
	assert_true(getdelim(&text, &len, '\0', f) > 0);
	fclose(f);
	for (size_t i = 0; keys[i]; i++) {
		snprintf(pat, sizeof(pat), "%s = ", keys[i]);
		if (!strstr(text, pat))
			fail_msg("halo.conf.example lacks \"%s\"", keys[i]);
	}
	free(text);
}

static void defaults(void **state)
{
	struct halo_config *c;
	char got[65];

	assert_config_ok("", &c);
	assert_int_equal(c->version, 1);
	assert_false(c->boot.present || c->modules.present || c->firewall.present ||
		     c->access.present);
	assert_int_equal(c->n_interfaces, 0);
	assert_int_equal(c->n_storage, 0);
	assert_int_equal(c->boot.reserve_mib, 2048);
	assert_true(c->boot.regenerate);
	assert_int_equal(c->boot.pci_realloc, HALO_UNSET);
	assert_true(c->modules.persist);
	assert_true(c->firewall.trusted_interfaces);
	assert_string_equal(c->state.path, "/var/lib/halo-provision/state.json");
	assert_null(c->state.env_file);
	assert_null(c->state.prometheus);
	assert_string_equal(halo_config_digest(c, got),
			    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	halo_config_free(c);

	assert_config_ok("boot = { gtt_mib = \"auto\"; pci_realloc = false; };\n"
			 "interfaces = ( { name = \"x\"; roce = { }; } );\n"
			 "state = { prometheus = \"\"; };\n", &c);
	assert_true(c->boot.gtt_set && c->boot.gtt_auto);
	assert_int_equal(c->boot.pci_realloc, HALO_FALSE);
	assert_int_equal(c->boot.reserve_mib, 2048);
	assert_int_equal(c->interfaces[0].roce.tos, -1);
	assert_int_equal(c->interfaces[0].roce.enable, HALO_UNSET);
	assert_false(c->interfaces[0].roce.pfc_set);
	assert_int_equal(c->interfaces[0].roce.dcbx, HALO_DCBX_UNSET);
	assert_int_equal(c->interfaces[0].roce.trust, HALO_TRUST_UNSET);
	assert_false(c->interfaces[0].match.has_mac || c->interfaces[0].match.has_pci);
	assert_int_equal(c->interfaces[0].addresses.n, 0);
	assert_int_equal(c->boot.iommu, HALO_IOMMU_UNSET);
	assert_int_equal(c->boot.pcie_aspm, HALO_PCIE_ASPM_UNSET);
	assert_null(c->state.prometheus);
	assert_string_equal(c->state.path, "/var/lib/halo-provision/state.json");
	halo_config_free(c);
}

static const char good[] = "version = 1;\n";

static void world_writable_refused(void **state)
{
	const char *p = write_file("ww.conf", good, strlen(good), 0666);

	assert_load_error(p, false, -EPERM,
			  "%s: refusing a config file writable by group or others (mode 0666)");
	p = write_file("ow.conf", good, strlen(good), 0602);
	assert_load_error(p, false, -EPERM,
			  "%s: refusing a config file writable by group or others (mode 0602)");
}

static void group_writable_refused(void **state)
{
	const char *p = write_file("gw.conf", good, strlen(good), 0660);

	assert_load_error(p, true, -EPERM,
			  "%s: refusing a config file writable by group or others (mode 0660)");
}

static void owner_checked(void **state)
{
	const char *p = write_file("uid.conf", good, strlen(good), 0644);

	assert_null(load_one(p, true, 0));
	if (geteuid() != 0)
		skip();
	assert_int_equal(chown(p, 1000, 1000), 0);
	assert_load_error(p, true, -EPERM,
			  "%s: refusing a config file not owned by root (uid 1000)");
	/* Under --root (no owner check) the same file is fine. */
	assert_null(load_one(p, false, 0));
}

static void not_regular_refused(void **state)
{
	char fifo[256];

	assert_load_error(dir, false, -EPERM,
			  "%s: a directory, not a regular file: refused as the config file");
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* Must not block waiting for a writer. */
	assert_load_error(fifo, false, -EPERM,
			  "%s: a FIFO, not a regular file: refused as the config file");
}

/* -c is a path as given: a symlink is followed, and the mode checked is
 * that of the file actually opened. */
static void symlink_followed(void **state)
{
	char link[256], target[256];
	const char *p = write_file("target.conf", good, strlen(good), 0644);

	snprintf(target, sizeof(target), "%s", p);
	snprintf(link, sizeof(link), "%s/link.conf", dir);
	assert_int_equal(symlink(target, link), 0);
	assert_null(load_one(link, true, 0));
	assert_int_equal(chmod(target, 0666), 0);
	assert_load_error(link, true, -EPERM,
			  "%s: refusing a config file writable by group or others (mode 0666)");
}

static void missing_file(void **state)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/nonexistent.conf", dir);
	assert_load_error(p, false, -ENOENT,
			  "%s: cannot open the config file: No such file or directory");
}

static void include_refused(void **state)
{
	static const char inc[] = "version = 1;\n@include \"other.conf\"\n";
	char other[256], cwd[512];
	const char *p;

	/* A target that exists, with an error of its own: libconfig must
	 * never get to read it. */
	snprintf(other, sizeof(other), "%s/other.conf", dir);
	write_file("other.conf", "boot = { zzz = 1; };\n", 21, 0666);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	p = write_file("inc.conf", inc, strlen(inc), 0600);
	assert_load_error(p, false, -EINVAL,
			  "%s:2: @include is not allowed (an included file would bypass the "
			  "config file's ownership check)");
	assert_int_equal(chdir(cwd), 0);
}

static void nul_byte_refused(void **state)
{
	static const char text[] = "version = 1;\nboot = {\0 };\n";
	const char *p = write_file("nul.conf", text, sizeof(text) - 1, 0600);

	assert_load_error(p, false, -EINVAL, "%s:2: NUL byte in the config file");
}

static void byte_order_mark_refused(void **state)
{
	static const char text[] = "\xef\xbb\xbfversion = 1;\n";
	const char *p = write_file("bom.conf", text, sizeof(text) - 1, 0600);

	assert_load_error(p, false, -EINVAL,
			  "%s:1: the file starts with a UTF-8 byte order mark, which libconfig "
			  "cannot read: save it without one");
}

static void file_errors_name_the_path(void **state)
{
	static const char text[] = "version = 1;\n\ninterfaces = ( { name = \"rdma0\"; mtu = 70000; } );\n";
	static const char syntax[] = "version = 1;\nboot = {\n};}\n";
	const char *p = write_file("range.conf", text, strlen(text), 0600);

	assert_load_error(p, false, -EINVAL,
			  "%s:3: interfaces[0].mtu: 70000 is out of range (68..65535)");
	p = write_file("syntax.conf", syntax, strlen(syntax), 0600);
	assert_load_error(p, false, -EINVAL, "%s:3: syntax error");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(example_validates),
		cmocka_unit_test(example_covers_every_key),
		cmocka_unit_test(defaults),
		cmocka_unit_test(world_writable_refused),
		cmocka_unit_test(group_writable_refused),
		cmocka_unit_test(owner_checked),
		cmocka_unit_test(not_regular_refused),
		cmocka_unit_test(symlink_followed),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(include_refused),
		cmocka_unit_test(nul_byte_refused),
		cmocka_unit_test(byte_order_mark_refused),
		cmocka_unit_test(file_errors_name_the_path),
	};

	return cmocka_run_group_tests_name("config-load", tests, setup, teardown);
}
