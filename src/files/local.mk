# src/files: the files subsystem (issue 11). Each part lists its own
# sources and tests in its fragment: access.mk (device access and
# memlock), firewall.mk, sysctl.mk.
libhalo_la_SOURCES += \
	src/files/files.h \
	src/files/files.c
