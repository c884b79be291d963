# src/modules: kernel modules through libkmod.
libhalo_la_SOURCES += \
	src/modules/modules.h \
	src/modules/modules.c
