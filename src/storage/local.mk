# src/storage: the model store (issue 11).
libhalo_la_SOURCES += src/storage/storage.h src/storage/storage.c
