/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pci.h: PCI addresses as sysfs names them ("0000:c2:00.0"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "dddd:bb:dd.f" and its NUL (a domain above ffff prints longer). */
#define HALO_PCI_STRLEN 13

struct halo_pci_addr {
	uint32_t domain;  /* 32 bits: VMD domains start at 0x10000 */
	uint8_t bus;
	uint8_t device;   /* 0..0x1f */
	uint8_t function; /* 0..7 */
};

/* "DDDD:BB:DD.F", hex digits of either case, four for the domain (what
 * the config accepts), device <= 1f, function <= 7. 0 or -EINVAL, *RET
 * untouched then. */
int halo_pci_parse(const char *s, struct halo_pci_addr *ret);

/* Lower case "0000:c2:00.0"; BUF of at least HALO_PCI_STRLEN bytes (more
 * for a domain above ffff). */
void halo_pci_format(const struct halo_pci_addr *a, char *buf, size_t len);

bool halo_pci_equal(const struct halo_pci_addr *a, const struct halo_pci_addr *b);
