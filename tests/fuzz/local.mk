# tests/fuzz: libFuzzer targets (config loader, cmdline
# tokenizer and merge, grub file editor, netlink reply parsers (rtnetlink,
# dcbnl, devlink and ethtool), the module index, ELF and compressed-module
# readers, the other parsers of host-provided text, and the one-pass
# reading of the state file's records against json-c's).
#
# Always: each target is linked with replay.c and runs its seed corpus and
# regression inputs as a TAP test in `make check` (gcc, ASan, valgrind:
# `make check-valgrind` runs them too, with the libconfig 1.5 suppression).
# With --enable-fuzz (CC=clang, whole build instrumented): real libFuzzer
# binaries tests/fuzz/fuzz-<target>, and `make fuzz` runs each for
# FUZZ_SECONDS through tests/fuzz/run.sh.

fuzz_targets = config cmdline grubfile netlink modopts modinfo hosttext depindex elfsection \
	unpack dcbnl genl staterecords

# Seeds of each target: its own corpus directory (regression inputs
# included) and the fixtures it reads. Directories or files.
fuzz_src = $(abs_top_srcdir)/tests/fuzz/corpus
fuzz_fix = $(abs_top_srcdir)/tests/fixtures
fuzz_seeds_config = $(fuzz_src)/config $(fuzz_fix)/config/good \
	$(fuzz_fix)/config/bad $(abs_top_srcdir)/halo.conf.example
fuzz_seeds_cmdline = $(fuzz_src)/cmdline
fuzz_seeds_grubfile = $(fuzz_src)/grubfile \
	$(fuzz_fix)/boot/debian/etc/default/grub \
	$(fuzz_fix)/boot/debian/etc/default/grub.d/50-cloudimg-settings.cfg \
	$(fuzz_fix)/boot/fedora/etc/default/grub
fuzz_seeds_netlink = $(fuzz_src)/netlink
fuzz_seeds_modopts = $(fuzz_src)/modopts
fuzz_seeds_modinfo = $(fuzz_src)/modinfo
fuzz_seeds_depindex = $(fuzz_src)/depindex
fuzz_seeds_elfsection = $(fuzz_src)/elfsection
fuzz_seeds_unpack = $(fuzz_src)/unpack
fuzz_seeds_dcbnl = $(fuzz_src)/dcbnl
fuzz_seeds_genl = $(fuzz_src)/genl
fuzz_seeds_staterecords = $(fuzz_src)/staterecords
fuzz_seeds_hosttext = $(fuzz_src)/hosttext \
	$(fuzz_fix)/boot/debian/proc/meminfo \
	$(fuzz_fix)/boot/debian/etc/os-release \
	$(fuzz_fix)/boot/fedora/etc/os-release \
	$(fuzz_fix)/boot/fedora/boot/loader/entries/0123456789abcdef0123456789abcdef-6.17.1-300.fc43.x86_64.conf

# The LeakSanitizer suppression of the config part, reused as is.
fuzz_lsan_supp = $(fuzz_fix)/config/lsan-libconfig-1.5.supp
fuzz_valgrind_supp = $(fuzz_fix)/config/libconfig-1.5.supp

fuzz_cflags = $(unit_cflags) -I$(top_srcdir)/tests \
	-DFUZZ_LSAN_SUPP='"$(fuzz_lsan_supp)"'
fuzz_replay = \
	tests/fuzz/replay-config \
	tests/fuzz/replay-cmdline \
	tests/fuzz/replay-grubfile \
	tests/fuzz/replay-netlink \
	tests/fuzz/replay-modopts \
	tests/fuzz/replay-modinfo \
	tests/fuzz/replay-hosttext \
	tests/fuzz/replay-depindex \
	tests/fuzz/replay-elfsection \
	tests/fuzz/replay-unpack \
	tests/fuzz/replay-dcbnl \
	tests/fuzz/replay-genl \
	tests/fuzz/replay-staterecords
check_PROGRAMS += $(fuzz_replay)
TESTS += $(fuzz_replay)

tests_fuzz_replay_config_SOURCES = tests/fuzz/fuzz-config.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_config_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_config)"'
tests_fuzz_replay_config_LDADD = libhalo.la
tests_fuzz_replay_cmdline_SOURCES = tests/fuzz/fuzz-cmdline.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_cmdline_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_cmdline)"'
tests_fuzz_replay_cmdline_LDADD = libhalo.la
tests_fuzz_replay_grubfile_SOURCES = tests/fuzz/fuzz-grubfile.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_grubfile_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_grubfile)"'
tests_fuzz_replay_grubfile_LDADD = libhalo.la
tests_fuzz_replay_netlink_SOURCES = tests/fuzz/fuzz-netlink.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_netlink_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_netlink)"'
tests_fuzz_replay_netlink_LDADD = libhalo.la
tests_fuzz_replay_modopts_SOURCES = tests/fuzz/fuzz-modopts.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_modopts_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_modopts)"'
tests_fuzz_replay_modopts_LDADD = libhalo.la
tests_fuzz_replay_modinfo_SOURCES = tests/fuzz/fuzz-modinfo.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_modinfo_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_modinfo)"'
tests_fuzz_replay_modinfo_LDADD = libhalo.la
tests_fuzz_replay_hosttext_SOURCES = tests/fuzz/fuzz-hosttext.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_hosttext_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_hosttext)"'
tests_fuzz_replay_hosttext_LDADD = libhalo.la
tests_fuzz_replay_depindex_SOURCES = tests/fuzz/fuzz-depindex.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_depindex_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_depindex)"'
tests_fuzz_replay_depindex_LDADD = libhalo.la
tests_fuzz_replay_elfsection_SOURCES = tests/fuzz/fuzz-elfsection.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_elfsection_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_elfsection)"'
tests_fuzz_replay_elfsection_LDADD = libhalo.la
tests_fuzz_replay_unpack_SOURCES = tests/fuzz/fuzz-unpack.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_unpack_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_unpack)"'
tests_fuzz_replay_unpack_LDADD = libhalo.la
tests_fuzz_replay_dcbnl_SOURCES = tests/fuzz/fuzz-dcbnl.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_dcbnl_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_dcbnl)"'
tests_fuzz_replay_dcbnl_LDADD = libhalo.la
tests_fuzz_replay_genl_SOURCES = tests/fuzz/fuzz-genl.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_replay_genl_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_genl)"'
tests_fuzz_replay_genl_LDADD = libhalo.la
tests_fuzz_replay_staterecords_SOURCES = tests/fuzz/fuzz-staterecords.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h tests/unit/state-records-test.h
tests_fuzz_replay_staterecords_CFLAGS = $(fuzz_cflags) -DFUZZ_CORPUS='"$(fuzz_seeds_staterecords)"'
tests_fuzz_replay_staterecords_LDADD = libhalo.la

EXTRA_DIST += tests/fuzz/run.sh tests/fuzz/config.dict tests/fuzz/corpus

# The replays under valgrind, added to the suite's check-valgrind.
check-valgrind: check-valgrind-fuzz
check-valgrind-fuzz: $(fuzz_replay)
	$(MAKE) $(AM_MAKEFLAGS) check TEST_SUITE_LOG=test-suite-valgrind-fuzz.log \
		TESTS="$(fuzz_replay)" \
		LOG_COMPILER="$(VALGRIND_CHECK) --suppressions=$(fuzz_valgrind_supp)"
.PHONY: check-valgrind-fuzz

FUZZ_SECONDS = 60
if ENABLE_FUZZ
fuzz_bin = \
	tests/fuzz/fuzz-config \
	tests/fuzz/fuzz-cmdline \
	tests/fuzz/fuzz-grubfile \
	tests/fuzz/fuzz-netlink \
	tests/fuzz/fuzz-modopts \
	tests/fuzz/fuzz-modinfo \
	tests/fuzz/fuzz-hosttext \
	tests/fuzz/fuzz-depindex \
	tests/fuzz/fuzz-elfsection \
	tests/fuzz/fuzz-unpack \
	tests/fuzz/fuzz-dcbnl \
	tests/fuzz/fuzz-genl \
	tests/fuzz/fuzz-staterecords
check_PROGRAMS += $(fuzz_bin)
fuzz_ldflags = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_config_SOURCES = tests/fuzz/fuzz-config.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_config_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_config_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_config_LDADD = libhalo.la
tests_fuzz_fuzz_cmdline_SOURCES = tests/fuzz/fuzz-cmdline.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_cmdline_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_cmdline_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_cmdline_LDADD = libhalo.la
tests_fuzz_fuzz_grubfile_SOURCES = tests/fuzz/fuzz-grubfile.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_grubfile_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_grubfile_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_grubfile_LDADD = libhalo.la
tests_fuzz_fuzz_netlink_SOURCES = tests/fuzz/fuzz-netlink.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_netlink_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_netlink_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_netlink_LDADD = libhalo.la
tests_fuzz_fuzz_modopts_SOURCES = tests/fuzz/fuzz-modopts.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_modopts_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_modopts_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_modopts_LDADD = libhalo.la
tests_fuzz_fuzz_modinfo_SOURCES = tests/fuzz/fuzz-modinfo.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_modinfo_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_modinfo_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_modinfo_LDADD = libhalo.la
tests_fuzz_fuzz_hosttext_SOURCES = tests/fuzz/fuzz-hosttext.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_hosttext_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_hosttext_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_hosttext_LDADD = libhalo.la
tests_fuzz_fuzz_depindex_SOURCES = tests/fuzz/fuzz-depindex.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_depindex_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_depindex_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_depindex_LDADD = libhalo.la
tests_fuzz_fuzz_elfsection_SOURCES = tests/fuzz/fuzz-elfsection.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_elfsection_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_elfsection_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_elfsection_LDADD = libhalo.la
tests_fuzz_fuzz_unpack_SOURCES = tests/fuzz/fuzz-unpack.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_unpack_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_unpack_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_unpack_LDADD = libhalo.la
tests_fuzz_fuzz_dcbnl_SOURCES = tests/fuzz/fuzz-dcbnl.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_dcbnl_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_dcbnl_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_dcbnl_LDADD = libhalo.la
tests_fuzz_fuzz_genl_SOURCES = tests/fuzz/fuzz-genl.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_genl_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_genl_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_genl_LDADD = libhalo.la
tests_fuzz_fuzz_staterecords_SOURCES = tests/fuzz/fuzz-staterecords.c tests/fuzz/fuzz.h \
	tests/unit/state-records-test.h
tests_fuzz_fuzz_staterecords_CFLAGS = $(fuzz_cflags)
tests_fuzz_fuzz_staterecords_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_staterecords_LDADD = libhalo.la

# Every target for FUZZ_SECONDS, FUZZ_PARALLEL at a time (default: the
# CPUs); new corpus and crashes under tests/fuzz/work, a total at the end.
fuzz: $(fuzz_bin)
	@for t in $(fuzz_targets); do \
		case $$t in \
		config) seeds="$(fuzz_seeds_config)";; \
		cmdline) seeds="$(fuzz_seeds_cmdline)";; \
		grubfile) seeds="$(fuzz_seeds_grubfile)";; \
		netlink) seeds="$(fuzz_seeds_netlink)";; \
		modopts) seeds="$(fuzz_seeds_modopts)";; \
		modinfo) seeds="$(fuzz_seeds_modinfo)";; \
		hosttext) seeds="$(fuzz_seeds_hosttext)";; \
		depindex) seeds="$(fuzz_seeds_depindex)";; \
		elfsection) seeds="$(fuzz_seeds_elfsection)";; \
		unpack) seeds="$(fuzz_seeds_unpack)";; \
		dcbnl) seeds="$(fuzz_seeds_dcbnl)";; \
		genl) seeds="$(fuzz_seeds_genl)";; \
		staterecords) seeds="$(fuzz_seeds_staterecords)";; \
		esac; \
		echo "tests/fuzz/fuzz-$$t $$seeds"; \
	done | LSAN_SUPP="$(fuzz_lsan_supp)" bash $(top_srcdir)/tests/fuzz/run.sh \
		--all $(FUZZ_SECONDS) tests/fuzz/work
else
fuzz:
	@echo "make fuzz: configure with CC=clang --enable-fuzz" >&2; exit 1
endif
.PHONY: fuzz
