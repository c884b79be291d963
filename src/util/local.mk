# src/util: root-confined files, spawn, lock, strings, diff.
libhalo_la_SOURCES += \
	src/util/rootfs.h \
	src/util/strv.h \
	src/util/spawn.h \
	src/util/lock.h \
	src/util/diff.h \
	src/util/errors.h
