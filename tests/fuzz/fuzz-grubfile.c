/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-grubfile.c: the /etc/default/grub scanner and editor
 * (src/boot/grubfile.h). Input: FILE TEXT \0 NEW VALUE (decoded form; a
 * default when absent).
 *
 * Properties, as the grub backend uses them: every assignment's value
 * bytes lie inside the text; when GRUB_CMDLINE_LINUX is editable, setting
 * it (in place, or appended when absent) to the quoted new value gives a
 * text whose rescan shows exactly the new value for it and every other
 * assignment unchanged, with either quoting preference; a backslash line
 * continuation in front of the text ("A=1 \\<newline>") adds assignment
 * A and changes no other, as in the shell.
 */
#include "config.h"

#include <errno.h>

#include "boot/grubfile.h"
#include "fuzz/fuzz.h"

#define VAR "GRUB_CMDLINE_LINUX"

static void check_edit(const char *text, const struct halo_grub_file *f,
		       const char *value, char prefer)
{
	const struct halo_grub_assign *a = NULL;
	struct halo_grub_file g = { 0 };
	char *enc, *out = NULL;
	size_t j = 0;
	int r;

	halo_grubfile_count(f, VAR, &a, NULL);
	enc = halo_grubfile_quote(value, prefer);
	FUZZ_CHECK(enc);
	FUZZ_CHECK(halo_grubfile_set(text, f, a, VAR, enc, &out) == 0);
	r = halo_grubfile_scan(out, &g, NULL);
	if (r != 0)
		fprintf(stderr, "edited text does not scan (%d):\n%s\n", r, out);
	FUZZ_CHECK(r == 0);
	FUZZ_CHECK(g.n == f->n + (a ? 0 : 1));
	for (size_t i = 0; i < g.n; i++) {
		const struct halo_grub_assign *b = &g.assigns[i];

		if (strcmp(b->name, VAR) == 0) {
			FUZZ_CHECK(strcmp(b->value, value) == 0);
			continue;
		}
		/* The others, in order, untouched. */
		while (j < f->n && strcmp(f->assigns[j].name, VAR) == 0)
			j++;
		FUZZ_CHECK(j < f->n);
		FUZZ_CHECK(strcmp(b->name, f->assigns[j].name) == 0);
		FUZZ_CHECK(strcmp(b->value, f->assigns[j].value) == 0);
		j++;
	}
	FUZZ_CHECK(halo_grubfile_count(&g, VAR, NULL, NULL) == 1);
	halo_grubfile_free(&g);
	free(out);
	free(enc);
}

/*
 * The shell removes a backslash-newline before it splits words, so
 * "A=1 \<newline>" in front of TEXT makes A an assignment of TEXT's first
 * command and changes nothing else: the assignments are A, then TEXT's.
 */
static void check_continued_prefix(const char *text,
				   const struct halo_grub_file *f)
{
	static const char prefix[] = "HALO_FUZZ_A=1 \\\n";
	struct halo_grub_file g = { 0 };
	char *t;

	/* Known: a continuation between words starts a word in the scanner
	 * (corpus/grubfile/regress-continuation-between-words.grub). */
	if (fuzz_skip_known())
		return;
	t = malloc(strlen(prefix) + strlen(text) + 1);
	FUZZ_CHECK(t);
	strcpy(t, prefix);
	strcat(t, text);
	FUZZ_CHECK(halo_grubfile_scan(t, &g, NULL) == 0);
	FUZZ_CHECK(g.n == f->n + 1);
	FUZZ_CHECK(strcmp(g.assigns[0].name, "HALO_FUZZ_A") == 0);
	for (size_t i = 0; i < f->n; i++) {
		FUZZ_CHECK(strcmp(g.assigns[i + 1].name, f->assigns[i].name) == 0);
		FUZZ_CHECK(strcmp(g.assigns[i + 1].value, f->assigns[i].value) == 0);
	}
	halo_grubfile_free(&g);
	free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "GRUB_CMDLINE_LINUX",
					     "GRUB_CMDLINE_LINUX_DEFAULT", NULL };
	static const char *const values[] = { "a \x01x", "", NULL };
	char *part[2];
	struct halo_grub_file f = { 0 };
	unsigned err_line = 0, lines;
	size_t len;
	char *msg = NULL;
	unsigned line = 0;
	int r;

	fuzz_split(data, size, part, 2);
	lines = fuzz_count_lines(part[0]);
	len = strlen(part[0]);
	r = halo_grubfile_scan(part[0], &f, &err_line);
	if (r < 0) {
		FUZZ_CHECK(r == -EINVAL);
		FUZZ_CHECK(err_line >= 1 && err_line <= lines);
		goto out;
	}
	for (size_t i = 0; i < f.n; i++) {
		const struct halo_grub_assign *a = &f.assigns[i];
		char *x;

		FUZZ_CHECK(a->name[0] && a->value);
		FUZZ_CHECK(a->start <= a->end && a->end <= len);
		FUZZ_CHECK(a->line >= 1 && a->line <= lines);
		x = halo_grubfile_expand(a->value, names, values);
		FUZZ_CHECK(x);
		halo_grubfile_unmark(x);
		FUZZ_CHECK(!strchr(x, HALO_GRUB_DOLLAR) &&
			   !strchr(x, HALO_GRUB_BACKQUOTE));
		free(x);
	}
	check_continued_prefix(part[0], &f);
	if (halo_grubfile_check_editable(&f, VAR, &msg, &line) == 0) {
		const char *value = part[1] ? part[1] : "quiet iommu=pt";

		check_edit(part[0], &f, value, '"');
		check_edit(part[0], &f, value, '\'');
	} else {
		FUZZ_CHECK(msg && line >= 1 && line <= lines);
		free(msg);
	}
	halo_grubfile_free(&f);
out:
	fuzz_parts_free(part, 2);
	return 0;
}
