# src/boot: kernel command line subsystem.
libhalo_la_SOURCES += \
	src/boot/boot.h \
	src/boot/boot.c
