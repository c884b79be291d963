# src/files/sysctl.c: the sysctl drop-in and runtime values; its config section.
libhalo_la_SOURCES += src/files/sysctl.c src/config/parse-sysctl.c
