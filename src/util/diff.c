/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * diff.c: unified diff (GNU diff -u format, 3 lines of context), made with
 * Myers' O((N+M)D) algorithm after trimming the common head and tail. The
 * edit trace costs (D+1)^2 ints; past a cap (very different files, not our
 * case: owned files are small) the middle is shown as replaced wholesale,
 * which is still a correct patch.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "util/diff.h"
#include "util/strv.h"

#define CONTEXT 3
#define TRACE_CAP (4u << 20) /* ints */

struct line {
	const char *s;
	size_t len; /* with its '\n', if it has one */
	uint32_t hash;
};

enum op_kind { OP_EQ, OP_DEL, OP_INS };

struct op {
	enum op_kind kind;
	size_t a, b; /* line index in old (EQ, DEL) and new (EQ, INS) */
};

struct script {
	struct op *ops;
	size_t n;
};

static size_t split_lines(const char *text, struct line **ret)
{
	size_t n = 0, i = 0;
	struct line *v;
	const char *p;

	*ret = NULL;
	if (!text || !*text)
		return 0;
	for (p = text; *p; p++)
		n += *p == '\n';
	n += p[-1] != '\n';
	v = calloc(n, sizeof(*v));
	if (!v)
		return SIZE_MAX;
	for (p = text; *p; i++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		uint32_t h = 2166136261u; /* FNV-1a */

		for (size_t j = 0; j < len; j++)
			h = (h ^ (unsigned char)p[j]) * 16777619u;
		v[i] = (struct line){ .s = p, .len = len, .hash = h };
		p += len;
	}
	*ret = v;
	return n;
}

static bool line_eq(const struct line *x, const struct line *y)
{
	return x->hash == y->hash && x->len == y->len &&
	       memcmp(x->s, y->s, x->len) == 0;
}

static void push(struct script *sc, enum op_kind k, size_t a, size_t b)
{
	sc->ops[sc->n++] = (struct op){ .kind = k, .a = a, .b = b };
}

/* Myers on a[0..n) and b[0..m) (offsets ao/bo added to the op indices).
 * Appends the ops in order; -E2BIG past the trace cap. */
static int myers(const struct line *a, size_t n, const struct line *b,
		 size_t m, size_t ao, size_t bo, struct script *sc)
{
	long N = (long)n, M = (long)m, max = N + M, D = -1;
	long *v, **trace;
	size_t used = 0;
	struct op *rev;
	size_t nrev = 0;
	int r = 0;

	v = calloc((size_t)(2 * max + 3), sizeof(*v));
	trace = calloc((size_t)max + 1, sizeof(*trace));
	if (!v || !trace) {
		r = -ENOMEM;
		goto out;
	}
	v += max + 1; /* v[k] for k in -max-1 .. max+1 */
	for (long d = 0; d <= max && D < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			long x, y;

			if (k == -d || (k != d && v[k - 1] < v[k + 1]))
				x = v[k + 1];
			else
				x = v[k - 1] + 1;
			y = x - k;
			while (x < N && y < M && line_eq(&a[x], &b[y]))
				x++, y++;
			v[k] = x;
			if (x >= N && y >= M)
				D = d;
		}
		used += (size_t)(2 * d + 1);
		if (used > TRACE_CAP) {
			r = -E2BIG;
			goto out;
		}
		trace[d] = malloc((size_t)(2 * d + 1) * sizeof(long));
		if (!trace[d]) {
			r = -ENOMEM;
			goto out;
		}
		memcpy(trace[d], v - d, (size_t)(2 * d + 1) * sizeof(long));
	}

	/* Walk back from (N, M), collecting ops in reverse. */
	rev = malloc((size_t)(max + 1) * sizeof(*rev));
	if (!rev) {
		r = -ENOMEM;
		goto out;
	}
	{
		long x = N, y = M;

		for (long d = D; d > 0; d--) {
			const long *pv = trace[d - 1] + (d - 1); /* pv[k] */
			long k = x - y, pk, px, py;
			bool down;

			down = k == -d || (k != d && pv[k - 1] < pv[k + 1]);
			pk = down ? k + 1 : k - 1;
			px = pv[pk];
			py = px - pk;
			while (x > (down ? px : px + 1) && y > (down ? py + 1 : py)) {
				x--, y--;
				rev[nrev++] = (struct op){ OP_EQ, ao + (size_t)x, bo + (size_t)y };
			}
			if (down)
				rev[nrev++] = (struct op){ OP_INS, ao + (size_t)px, bo + (size_t)py };
			else
				rev[nrev++] = (struct op){ OP_DEL, ao + (size_t)px, bo + (size_t)py };
			x = px, y = py;
		}
		while (x > 0 && y > 0) {
			x--, y--;
			rev[nrev++] = (struct op){ OP_EQ, ao + (size_t)x, bo + (size_t)y };
		}
	}
	while (nrev > 0)
		sc->ops[sc->n++] = rev[--nrev];
	free(rev);
out:
	if (trace) {
		for (long d = 0; d <= max; d++) {
			if (!trace[d])
				break;
			free(trace[d]);
		}
		free(trace);
	}
	if (v)
		free(v - (max + 1));
	return r;
}

static void print_line(struct halo_buf *out, char mark, const struct line *l)
{
	halo_buf_append(out, &mark, 1);
	halo_buf_append(out, l->s, l->len);
	if (l->len == 0 || l->s[l->len - 1] != '\n')
		halo_buf_puts(out, "\n\\ No newline at end of file\n");
}

/* "-a,b": a count of 1 is implied; an empty range names the line before. */
static void print_range(struct halo_buf *out, size_t start, size_t count)
{
	if (count == 1)
		halo_buf_printf(out, "%zu", start + 1);
	else
		halo_buf_printf(out, "%zu,%zu", count ? start + 1 : start, count);
}

static void print_hunk(struct halo_buf *out, const struct script *sc,
		       size_t from, size_t to, const struct line *a,
		       const struct line *b, size_t a0, size_t b0)
{
	size_t na = 0, nb = 0;

	for (size_t i = from; i < to; i++) {
		na += sc->ops[i].kind != OP_INS;
		nb += sc->ops[i].kind != OP_DEL;
	}
	halo_buf_puts(out, "@@ -");
	print_range(out, a0, na);
	halo_buf_puts(out, " +");
	print_range(out, b0, nb);
	halo_buf_puts(out, " @@\n");
	for (size_t i = from; i < to;) {
		size_t j;

		if (sc->ops[i].kind == OP_EQ) {
			print_line(out, ' ', &a[sc->ops[i].a]);
			i++;
			continue;
		}
		/* A run of changes: all removals, then all additions. */
		for (j = i; j < to && sc->ops[j].kind != OP_EQ; j++)
			if (sc->ops[j].kind == OP_DEL)
				print_line(out, '-', &a[sc->ops[j].a]);
		for (j = i; j < to && sc->ops[j].kind != OP_EQ; j++)
			if (sc->ops[j].kind == OP_INS)
				print_line(out, '+', &b[sc->ops[j].b]);
		i = j;
	}
}

static void print_hunks(struct halo_buf *out, const struct script *sc,
			const struct line *a, const struct line *b)
{
	size_t i = 0, pa = 0, pb = 0; /* lines of old/new before ops[i] */

	while (i < sc->n) {
		size_t c = i, from, to, end, a0, b0;

		while (c < sc->n && sc->ops[c].kind == OP_EQ)
			c++;
		if (c == sc->n)
			break;
		from = c > i + CONTEXT ? c - CONTEXT : i;
		/* Grow the hunk while the next change is within 2*CONTEXT. */
		end = c;
		for (;;) {
			size_t next;

			while (end < sc->n && sc->ops[end].kind != OP_EQ)
				end++;
			next = end;
			while (next < sc->n && sc->ops[next].kind == OP_EQ)
				next++;
			if (next == sc->n || next - end > 2 * CONTEXT)
				break;
			end = next;
		}
		to = end + CONTEXT < sc->n ? end + CONTEXT : sc->n;
		a0 = pa, b0 = pb;
		for (size_t k = i; k < from; k++) {
			a0 += sc->ops[k].kind != OP_INS;
			b0 += sc->ops[k].kind != OP_DEL;
		}
		print_hunk(out, sc, from, to, a, b, a0, b0);
		pa = a0, pb = b0;
		for (size_t k = from; k < to; k++) {
			pa += sc->ops[k].kind != OP_INS;
			pb += sc->ops[k].kind != OP_DEL;
		}
		i = to;
	}
}

char *halo_unified_diff(const char *path, const char *old_text,
			const char *new_text)
{
	struct line *a = NULL, *b = NULL;
	struct script sc = { 0 };
	struct halo_buf out = { 0 };
	size_t n, m, pre = 0, suf = 0, i;
	bool changed = false;
	char *res = NULL;
	int r;

	if (!path)
		path = "";
	while (*path == '/')
		path++;
	n = split_lines(old_text, &a);
	m = split_lines(new_text, &b);
	if (n == SIZE_MAX || m == SIZE_MAX)
		goto out;
	while (pre < n && pre < m && line_eq(&a[pre], &b[pre]))
		pre++;
	while (suf < n - pre && suf < m - pre &&
	       line_eq(&a[n - 1 - suf], &b[m - 1 - suf]))
		suf++;

	sc.ops = calloc(n + m + 1, sizeof(*sc.ops));
	if (!sc.ops)
		goto out;
	for (i = 0; i < pre; i++)
		push(&sc, OP_EQ, i, i);
	/* a or b is NULL for a file that does not exist (no lines): no
	 * pointer arithmetic on it (UB even when adding 0). */
	r = myers(a ? a + pre : a, n - pre - suf, b ? b + pre : b, m - pre - suf, pre, pre, &sc);
	if (r == -E2BIG) {
		sc.n = pre;
		for (i = pre; i < n - suf; i++)
			push(&sc, OP_DEL, i, pre);
		for (i = pre; i < m - suf; i++)
			push(&sc, OP_INS, n - suf, i);
	} else if (r < 0) {
		goto out;
	}
	for (i = 0; i < suf; i++)
		push(&sc, OP_EQ, n - suf + i, m - suf + i);
	for (i = 0; i < sc.n; i++)
		changed |= sc.ops[i].kind != OP_EQ;

	if (changed) {
		if (old_text)
			halo_buf_printf(&out, "--- a/%s\n", path);
		else
			halo_buf_puts(&out, "--- /dev/null\n");
		if (new_text)
			halo_buf_printf(&out, "+++ b/%s\n", path);
		else
			halo_buf_puts(&out, "+++ /dev/null\n");
		print_hunks(&out, &sc, a, b);
	}
	res = halo_buf_steal(&out);
out:
	halo_buf_free(&out);
	free(sc.ops);
	free(a);
	free(b);
	return res;
}
