/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * items.c: what the checks of --cluster share: adding an item or a link
 * to the map (arrays that grow by doubling, so a fabric of thousands of
 * ports costs a few reallocations), and the majority of a fact.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/internal.h"
#include "util/strv.h"

/* Room for one more element of SIZE in *ARR (N used, *CAP allocated). */
static int grow(void **arr, size_t n, size_t *cap, size_t size)
{
	void *p;
	size_t c;

	if (n < *cap)
		return 0;
	c = *cap ? 2 * *cap : 64;
	p = reallocarray(*arr, c, size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = c;
	return 0;
}

int halo_cl_add_item(struct halo_cluster *cl, enum halo_cluster_outcome outcome,
		     const char *subject, const char *keyname, const char *fact,
		     const char *a, const char *b, const char *fmt, ...)
{
	struct halo_cluster_item *it;
	va_list ap;
	int r;

	if (grow((void **)&cl->items, cl->n_items, &cl->cap_items, sizeof(*cl->items)) < 0) {
		cl->oom = true;
		return -ENOMEM;
	}
	it = &cl->items[cl->n_items++];
	*it = (struct halo_cluster_item){ .outcome = outcome };
	it->key = halo_strdup_printf("cluster/%s/%s", keyname, fact);
	it->subject = strdup(subject);
	it->fact = strdup(fact);
	it->value_a = a ? strdup(a) : NULL;
	it->value_b = b ? strdup(b) : NULL;
	va_start(ap, fmt);
	r = vasprintf(&it->message, fmt, ap);
	va_end(ap);
	if (r < 0)
		it->message = NULL;
	if (!it->key || !it->subject || !it->fact || !it->message ||
	    (a && !it->value_a) || (b && !it->value_b)) {
		cl->oom = true;
		return -ENOMEM;
	}
	return 0;
}

int halo_cl_add_link(struct halo_cluster *cl, struct cl_port *a, struct cl_port *b,
		     size_t seg, const char *subnet, const char *mtu, const char *differs)
{
	bool drift = differs && differs[0];

	struct halo_cluster_link *l;

	if (grow((void **)&cl->links, cl->n_links, &cl->cap_links, sizeof(*cl->links)) < 0) {
		cl->oom = true;
		return -ENOMEM;
	}
	l = &cl->links[cl->n_links++];
	*l = (struct halo_cluster_link){ .a = a, .b = b, .seg = seg, .drift = drift,
					 .subnet = strdup(subnet), .mtu = strdup(mtu),
					 .differs = drift ? strdup(differs) : NULL };
	if (!l->subnet || !l->mtu || (drift && !l->differs)) {
		cl->oom = true;
		return -ENOMEM;
	}
	return 0;
}

const char *halo_cl_mtu_note(const struct cl_port *p, char *buf, size_t len)
{
	buf[0] = '\0';
	if (p->live_mtu && strcmp(p->live_mtu, p->mtu) != 0)
		snprintf(buf, len, " (configured %s)", p->mtu);
	return buf;
}

static int by_value_then_index(const void *x, const void *y, void *values)
{
	const char *const *v = values;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	int c = strcmp(v[a], v[b]);

	return c ? c : a < b ? -1 : a > b;
}

size_t halo_cl_majority(const char *const *values, size_t n, size_t *scratch, bool *ret_tie)
{
	size_t best = 0, best_n = 0;
	bool tie = false;

	for (size_t i = 0; i < n; i++)
		scratch[i] = i;
	qsort_r(scratch, n, sizeof(*scratch), by_value_then_index, (void *)values);
	/* Each run of one value starts with its lowest index. */
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(values[scratch[j]], values[scratch[i]]) == 0; j++)
			;
		if (j - i == best_n)
			tie = true;
		if (j - i > best_n) {
			tie = false;
			best = scratch[i];
			best_n = j - i;
		} else if (j - i == best_n && scratch[i] < best) {
			best = scratch[i];
		}
	}
	if (ret_tie)
		*ret_tie = tie;
	return best;
}
