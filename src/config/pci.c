/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pci.c: PCI address parsing and formatting, by hand: sscanf("%x") would
 * take signs, spaces and any number of digits. */
#include <errno.h>
#include <string.h>

#include "config/pci.h"
#include "util/strv.h"

/* N hex digits at *P into *RET; advances *P. */
static int hex_field(const char **p, int n, uint32_t *ret)
{
	uint32_t v = 0;

	for (int i = 0; i < n; i++) {
		int d = halo_hex_digit((*p)[i]);

		if (d < 0)
			return -EINVAL;
		v = v << 4 | (uint32_t)d;
	}
	*p += n;
	*ret = v;
	return 0;
}

int halo_pci_parse(const char *s, struct halo_pci_addr *ret)
{
	uint32_t dom, bus, dev, fn;

	if (hex_field(&s, 4, &dom) < 0 || *s++ != ':' ||
	    hex_field(&s, 2, &bus) < 0 || *s++ != ':' ||
	    hex_field(&s, 2, &dev) < 0 || *s++ != '.' ||
	    hex_field(&s, 1, &fn) < 0 || *s)
		return -EINVAL;
	if (dev > 0x1f || fn > 7)
		return -EINVAL;
	*ret = (struct halo_pci_addr){
		.domain = dom, .bus = (uint8_t)bus, .device = (uint8_t)dev, .function = (uint8_t)fn,
	};
	return 0;
}

/* V in hex, at least MIN digits, at O; returns the end. */
static char *put_hex(char *o, uint32_t v, int min)
{
	static const char hex[] = "0123456789abcdef";
	int n = min;

	while (n < 8 && (v >> (4 * n)))
		n++;
	while (n--)
		*o++ = hex[(v >> (4 * n)) & 15];
	return o;
}

/* What snprintf("%04x:%02x:%02x.%x") writes, truncation included: by
 * hand, as the engine formats addresses in every run and snprintf costs
 * some 2,000 instructions an address. */
void halo_pci_format(const struct halo_pci_addr *a, char *buf, size_t len)
{
	char text[24], *o = text;
	size_t n;

	o = put_hex(o, a->domain, 4);
	*o++ = ':';
	o = put_hex(o, a->bus, 2);
	*o++ = ':';
	o = put_hex(o, a->device, 2);
	*o++ = '.';
	o = put_hex(o, a->function, 1);
	if (!len)
		return;
	n = (size_t)(o - text) < len ? (size_t)(o - text) : len - 1;
	memcpy(buf, text, n);
	buf[n] = '\0';
}

bool halo_pci_equal(const struct halo_pci_addr *a, const struct halo_pci_addr *b)
{
	return a->domain == b->domain && a->bus == b->bus && a->device == b->device &&
	       a->function == b->function;
}
