# examples/: the seed clusters (E810 pair, ConnectX four) and their
# end-to-end tests, and the single-node configs. Each cluster directory: a
# config per node, cluster.sim (the simulated topology
# tests/lib/seed-cluster.sh builds), inventory.ini, site.yml. Installed as
# documentation, $(docdir)/examples.
haloexamplesdir = $(docdir)/examples
dist_haloexamples_DATA = examples/e810-pair-node1.conf examples/connectx-node.conf
haloexamplese810pairdir = $(haloexamplesdir)/e810-pair
dist_haloexamplese810pair_DATA = \
	examples/e810-pair/cluster.sim \
	examples/e810-pair/inventory.ini \
	examples/e810-pair/node1.conf \
	examples/e810-pair/node2.conf \
	examples/e810-pair/site.yml
haloexamplesconnectxfourdir = $(haloexamplesdir)/connectx-four
dist_haloexamplesconnectxfour_DATA = \
	examples/connectx-four/cluster.sim \
	examples/connectx-four/inventory.ini \
	examples/connectx-four/node1.conf \
	examples/connectx-four/node2.conf \
	examples/connectx-four/node3.conf \
	examples/connectx-four/node4.conf \
	examples/connectx-four/site.yml
seed_integration_tests = \
	tests/integration/seed-e810-pair.sh \
	tests/integration/seed-connectx-four.sh
TESTS += $(seed_integration_tests)
EXTRA_DIST += $(seed_integration_tests) tests/lib/seed-cluster.sh
