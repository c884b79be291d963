# src/files/sysctl.c: the sysctl drop-in and runtime values.
libhalo_la_SOURCES += src/files/sysctl.c
