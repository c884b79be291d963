# src/net: links, addresses, routes through libnl-route-3.
libhalo_la_SOURCES += \
	src/net/links.h \
	src/net/links.c
