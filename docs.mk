# docs/: the documentation installed with the program, and the monitoring
# kit installed for use.

# The monitoring kit, under $(pkgdatadir) (/usr/share/halo-provision for
# the packages): the Prometheus alert rules, and the Grafana dashboard with
# a provisioning file that loads it from its directory.
dist_pkgdata_DATA += docs/prometheus-alerts.yml
halografanadir = $(pkgdatadir)/grafana
dist_halografana_DATA = docs/grafana/halo-provision.json docs/grafana/provisioning.yml

# The documentation next to README.md, where its links point
# ($(docdir)/docs/...).
halodocsdir = $(docdir)/docs
dist_halodocs_DATA = docs/json-schema.md docs/prometheus.md docs/hardware.md \
	docs/architecture.md \
	docs/halo-provision.schema.json

monitoring_tests = tests/integration/monitoring.sh tests/integration/docs-citations.sh
TESTS += $(monitoring_tests)
EXTRA_DIST += $(monitoring_tests) tests/lib/docs.sh
