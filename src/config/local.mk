# src/config: libconfig loader and validation.
libhalo_la_SOURCES += \
	src/config/config.h \
	src/config/cidr.h
