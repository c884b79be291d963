/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the /etc/default/grub scanner and editor (src/boot/grubfile.c,
 * and the in-place edit of src/boot/backend_grub.c through its pieces). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/cmdline.h"
#include "boot/grubfile.h"
#include "util/strv.h"

/* The decoded value of NAME's last assignment, markers shown as $ and `. */
static char *value_of(const char *text, const char *name)
{
	struct halo_grub_file f;
	const struct halo_grub_assign *a;
	unsigned line = 0;
	char *v;

	assert_int_equal(halo_grubfile_scan(text, &f, &line), 0);
	if (!halo_grubfile_count(&f, name, NULL, &a)) {
		halo_grubfile_free(&f);
		return NULL;
	}
	v = strdup(a->value);
	halo_grubfile_unmark(v);
	halo_grubfile_free(&f);
	return v;
}

#define assert_value(text, name, want)                                         \
	do {                                                                   \
		char *got_ = value_of(text, name);                             \
		assert_non_null(got_);                                         \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void test_scan_quoting(void **state)
{
	assert_value("GRUB_CMDLINE_LINUX=\"quiet splash\"\n", "GRUB_CMDLINE_LINUX",
		     "quiet splash");
	assert_value("GRUB_CMDLINE_LINUX='quiet \"x\" $HOME'\n", "GRUB_CMDLINE_LINUX",
		     "quiet \"x\" $HOME");
	assert_value("GRUB_CMDLINE_LINUX=quiet\n", "GRUB_CMDLINE_LINUX", "quiet");
	assert_value("GRUB_CMDLINE_LINUX=\n", "GRUB_CMDLINE_LINUX", "");
	assert_value("GRUB_CMDLINE_LINUX=\"a \\\"b c\\\" \\$x \\\\ \\q\"\n",
		     "GRUB_CMDLINE_LINUX", "a \"b c\" $x \\ \\q");
	assert_value("  export GRUB_CMDLINE_LINUX=\"a\"'b c'd\n", "GRUB_CMDLINE_LINUX",
		     "ab cd");
	assert_value("X=1 GRUB_CMDLINE_LINUX=\"v\"; Y=2\n", "GRUB_CMDLINE_LINUX", "v");
	/* A continuation between words is a blank to the shell: the next
	 * line's assignment belongs to the same command, and bash sets it. */
	assert_value("A=1 \\\nGRUB_CMDLINE_LINUX=\"x y\"\n", "GRUB_CMDLINE_LINUX", "x y");
	assert_value("A=1 \\\r\nGRUB_CMDLINE_LINUX=z\n", "GRUB_CMDLINE_LINUX", "z");
}

static void test_scan_comments_and_vars(void **state)
{
	const char *text =
		"# GRUB_CMDLINE_LINUX=\"commented out\"\n"
		"GRUB_DEFAULT=0 # GRUB_CMDLINE_LINUX=\"nope\"\n"
		"GRUB_CMDLINE_LINUX=\"${EXTRA} quiet $OTHER\"\n"
		"echo \"GRUB_CMDLINE_LINUX=x\"\n"
		"GRUB_X=\"multi\nGRUB_CMDLINE_LINUX=inside\"\n";
	struct halo_grub_file f;
	const struct halo_grub_assign *a;
	unsigned line = 0;

	assert_int_equal(halo_grubfile_scan(text, &f, &line), 0);
	assert_int_equal(halo_grubfile_count(&f, "GRUB_CMDLINE_LINUX", &a, NULL), 1);
	assert_int_equal(a->line, 3);
	/* Expansions are marked, not literal dollars. */
	assert_int_equal(a->value[0], HALO_GRUB_DOLLAR);
	assert_string_equal(a->value + 1, "{EXTRA} quiet \x01OTHER");
	halo_grubfile_free(&f);
}

static void test_scan_errors(void **state)
{
	struct halo_grub_file f;
	unsigned line = 0;
	char *msg = NULL;

	assert_int_equal(halo_grubfile_scan("A=1\nGRUB_CMDLINE_LINUX=\"quiet\nB=2\n",
					    &f, &line), -EINVAL);
	assert_int_equal(line, 2);
	assert_int_equal(halo_grubfile_scan("A='x\n", &f, &line), -EINVAL);
	assert_int_equal(line, 1);

	assert_int_equal(halo_grubfile_scan("GRUB_CMDLINE_LINUX=\"a\"\n#\n"
					    "GRUB_CMDLINE_LINUX=\"b\"\n", &f, &line), 0);
	assert_int_equal(halo_grubfile_check_editable(&f, "GRUB_CMDLINE_LINUX", &msg,
						      &line), -EINVAL);
	assert_int_equal(line, 3);
	assert_non_null(strstr(msg, "assigned twice (first at line 1)"));
	free(msg);
	msg = NULL;
	halo_grubfile_free(&f);

	assert_int_equal(halo_grubfile_scan("GRUB_CMDLINE_LINUX=\"a \\\nb\"\nC=1\n",
					    &f, &line), 0);
	assert_int_equal(halo_grubfile_check_editable(&f, "GRUB_CMDLINE_LINUX", &msg,
						      &line), -EINVAL);
	assert_int_equal(line, 1);
	assert_non_null(strstr(msg, "continuation"));
	free(msg);
	msg = NULL;
	/* The line count went on after the continuation. */
	assert_int_equal(f.assigns[1].line, 3);
	halo_grubfile_free(&f);

	assert_int_equal(halo_grubfile_scan("GRUB_CMDLINE_LINUX=a\\\nb\n", &f, &line), 0);
	assert_int_equal(halo_grubfile_check_editable(&f, "GRUB_CMDLINE_LINUX", &msg,
						      &line), -EINVAL);
	free(msg);
	halo_grubfile_free(&f);
}

static void test_quote(void **state)
{
	char *q;

	q = halo_grubfile_quote("quiet iommu=pt", '"');
	assert_string_equal(q, "\"quiet iommu=pt\"");
	free(q);
	q = halo_grubfile_quote("a=\"x y\" $lit \\ `", '"');
	assert_string_equal(q, "\"a=\\\"x y\\\" \\$lit \\\\ \\`\"");
	free(q);
	q = halo_grubfile_quote("\x01{EXTRA} quiet", '"');
	assert_string_equal(q, "\"${EXTRA} quiet\"");
	free(q);
	q = halo_grubfile_quote("quiet a=\"b c\"", '\'');
	assert_string_equal(q, "'quiet a=\"b c\"'");
	free(q);
	/* A marker cannot live in single quotes: falls back to double. */
	q = halo_grubfile_quote("\x01X it's", '\'');
	assert_string_equal(q, "\"$X it's\"");
	free(q);
}

/* Re-merges GRUB_CMDLINE_LINUX of TEXT with SET appended, as the grub
 * backend does, and returns the new file. */
static char *edit(const char *text, const char *set)
{
	struct halo_grub_file f;
	const struct halo_grub_assign *a;
	_cleanup_strv_free_ char **cur = NULL, **s = NULL, **out = NULL;
	_cleanup_free_ char *joined = NULL, *enc = NULL;
	unsigned line = 0;
	char *res = NULL;

	assert_int_equal(halo_grubfile_scan(text, &f, &line), 0);
	halo_grubfile_count(&f, "GRUB_CMDLINE_LINUX", &a, NULL);
	assert_int_equal(halo_cmdline_split(a ? a->value : "", &cur), 0);
	assert_int_equal(halo_cmdline_split(set, &s), 0);
	assert_int_equal(halo_cmdline_merge(cur, s, NULL, &out), 0);
	joined = halo_cmdline_join(out);
	enc = halo_grubfile_quote(joined, a ? a->quote : '"');
	assert_int_equal(halo_grubfile_set(text, &f, a, "GRUB_CMDLINE_LINUX", enc, &res), 0);
	halo_grubfile_free(&f);
	return res;
}

#define assert_edit(text, set, want)                                           \
	do {                                                                   \
		char *got_ = edit(text, set);                                  \
		assert_string_equal(got_, want);                               \
		free(got_);                                                    \
	} while (0)

static void test_edit_preserves_bytes(void **state)
{
	/* CRLF, comments and other lines untouched. */
	assert_edit("# c\r\nGRUB_DEFAULT=0\r\nGRUB_CMDLINE_LINUX=\"quiet\"  # keep\r\nX=1\r\n",
		    "iommu=pt",
		    "# c\r\nGRUB_DEFAULT=0\r\nGRUB_CMDLINE_LINUX=\"quiet iommu=pt\"  # keep\r\nX=1\r\n");
	/* Missing trailing newline stays missing. */
	assert_edit("A=1\nGRUB_CMDLINE_LINUX=\"\"", "iommu=pt",
		    "A=1\nGRUB_CMDLINE_LINUX=\"iommu=pt\"");
	/* Single quotes stay single quotes. */
	assert_edit("GRUB_CMDLINE_LINUX='ro'\n", "iommu=pt",
		    "GRUB_CMDLINE_LINUX='ro iommu=pt'\n");
	/* ${VAR} references are kept verbatim. */
	assert_edit("GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX} $EXTRA quiet\"\n",
		    "iommu=pt",
		    "GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX} $EXTRA quiet iommu=pt\"\n");
	/* Kernel-style quotes inside the value survive the round trip. */
	assert_edit("GRUB_CMDLINE_LINUX=\"dyndbg=\\\"file a.c +p\\\"\"\n", "iommu=pt",
		    "GRUB_CMDLINE_LINUX=\"dyndbg=\\\"file a.c +p\\\" iommu=pt\"\n");
	/* Unquoted value becomes quoted. */
	assert_edit("GRUB_CMDLINE_LINUX=quiet\n", "iommu=pt",
		    "GRUB_CMDLINE_LINUX=\"quiet iommu=pt\"\n");
	/* Absent: appended, after adding the missing newline, CRLF style. */
	assert_edit("A=1\r\nB=2", "iommu=pt",
		    "A=1\r\nB=2\r\nGRUB_CMDLINE_LINUX=\"iommu=pt\"\r\n");
	assert_edit("", "iommu=pt", "GRUB_CMDLINE_LINUX=\"iommu=pt\"\n");
	/* A continued last line must not swallow the appended assignment. */
	assert_edit("true \\\n", "iommu=pt",
		    "true \\\n\nGRUB_CMDLINE_LINUX=\"iommu=pt\"\n");
	assert_edit("true \\", "iommu=pt",
		    "true \\\n\nGRUB_CMDLINE_LINUX=\"iommu=pt\"\n");
	/* A bare CR at the end stays in the value (fuzzer find). */
	assert_edit("X=5\r", "iommu=pt", "X=5\r\r\nGRUB_CMDLINE_LINUX=\"iommu=pt\"\n");
	/* An escaped backslash is no continuation. */
	assert_edit("X=a\\\\\n", "iommu=pt",
		    "X=a\\\\\nGRUB_CMDLINE_LINUX=\"iommu=pt\"\n");
}

static void test_expand(void **state)
{
	static const char *const names[] = { "A", "B", NULL };
	const char *values[] = { "one", "two \x01X", NULL };
	char *v = halo_grubfile_expand("\x01" "A \x01{B} \x01{A:-x} \x01" "AB \x01{C}",
				       names, values);

	assert_string_equal(v, "one two \x01X \x01{A:-x} \x01" "AB \x01{C}");
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scan_quoting),
		cmocka_unit_test(test_scan_comments_and_vars),
		cmocka_unit_test(test_scan_errors),
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_edit_preserves_bytes),
		cmocka_unit_test(test_expand),
	};

	return cmocka_run_group_tests_name("boot-grubfile", tests, NULL, NULL);
}
