# src/netlink: the netlink transport of the run (issue 8, part 3).
libhalo_la_SOURCES += \
	src/netlink/transport.h \
	src/netlink/transport.c
