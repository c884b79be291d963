# src/files/access.c and memlock.c: device access rules, memlock limits.
libhalo_la_SOURCES += src/files/access.c src/files/memlock.c
