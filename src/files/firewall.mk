# src/files/firewall.c: the firewalld zone or nftables table.
libhalo_la_SOURCES += src/files/firewall.c
