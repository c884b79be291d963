/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.c: the --cluster run: read the files as given (no root, no lock,
 * nothing written), check, and print text, one JSON document or the
 * Graphviz map (dot.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cluster/internal.h"
#include "util/rootfs.h"
#include "util/strv.h"

static const char *const outcome_names[] = {
	[HALO_CL_OK] = "ok", [HALO_CL_DRIFT] = "drift", [HALO_CL_FAILED] = "failed",
};

static size_t count(const struct halo_cluster *cl, enum halo_cluster_outcome o)
{
	size_t n = 0;

	for (size_t i = 0; i < cl->n_items; i++)
		n += cl->items[i].outcome == o;
	return n;
}

size_t halo_cl_unread(const struct halo_cluster *cl)
{
	size_t n = 0;

	for (size_t i = 0; i < cl->n_nodes; i++)
		n += !cl->nodes[i].hostname;
	return n;
}

char *halo_cl_summary(const struct halo_cluster *cl)
{
	struct halo_buf b = { 0 };
	size_t unread = halo_cl_unread(cl), nodes = 0;

	/* A second file of a node is no node of its own. */
	for (size_t i = 0; i < cl->n_nodes; i++)
		nodes += cl->nodes[i].hostname && !cl->nodes[i].dup;
	halo_buf_printf(&b, "cluster: %zu node%s", nodes, nodes == 1 ? "" : "s");
	if (unread)
		halo_buf_printf(&b, " (%zu file%s without node facts)", unread, unread == 1 ? "" : "s");
	halo_buf_printf(&b, ", %zu cable%s", cl->n_cables, cl->n_cables == 1 ? "" : "s");
	if (cl->n_segments)
		halo_buf_printf(&b, ", %zu switched segment%s", cl->n_segments,
				cl->n_segments == 1 ? "" : "s");
	if (cl->n_dangling)
		halo_buf_printf(&b, ", %zu dangling port%s", cl->n_dangling,
				cl->n_dangling == 1 ? "" : "s");
	halo_buf_printf(&b, ", %zu item%s", cl->n_items, cl->n_items == 1 ? "" : "s");
	for (int o = HALO_CL_OK; o <= HALO_CL_FAILED; o++) {
		size_t n = count(cl, (enum halo_cluster_outcome)o);

		if (n)
			halo_buf_printf(&b, ", %zu %s", n, outcome_names[o]);
	}
	return halo_buf_steal(&b);
}

/* One line whatever a path or a hostname holds. */
static void put_line(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, out);
}

void halo_cluster_print_text(FILE *out, const struct halo_cluster *cl, int bits,
			     int verbosity)
{
	_cleanup_free_ char *sum = halo_cl_summary(cl);

	(void)bits;
	for (size_t i = 0; i < cl->n_items; i++) {
		const struct halo_cluster_item *it = &cl->items[i];

		if (verbosity < 0 ? it->outcome != HALO_CL_FAILED :
		    verbosity == 0 && it->outcome == HALO_CL_OK)
			continue;
		fprintf(out, "%-8s", outcome_names[it->outcome]);
		put_line(out, it->subject);
		fputs("  ", out);
		put_line(out, it->message);
		fputc('\n', out);
	}
	fprintf(out, "%s\n", sum ? sum : "cluster");
}

static struct json_object *jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* The --json document of CL. NULL: ENOMEM. */
static struct json_object *cluster_doc(const struct halo_cluster *cl, int bits)
{
	_cleanup_free_ char *sum = halo_cl_summary(cl);
	struct json_object *o = json_object_new_object(), *a, *s;

	if (!o)
		return NULL;
	json_object_object_add(o, "schema_version", json_object_new_int(1));
	json_object_object_add(o, "tool", json_object_new_string(PACKAGE_NAME));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(o, "mode", json_object_new_string("cluster"));
	json_object_object_add(o, "changed", json_object_new_boolean(bits & HALO_EXIT_CHANGED));
	json_object_object_add(o, "failed", json_object_new_boolean(bits & HALO_EXIT_FAILED));
	json_object_object_add(o, "reboot_required", json_object_new_boolean(false));
	json_object_object_add(o, "exit_code", json_object_new_int(bits));
	json_object_object_add(o, "msg", jstr(sum));
	s = json_object_new_object();
	for (int i = HALO_CL_OK; s && i <= HALO_CL_FAILED; i++)
		json_object_object_add(s, outcome_names[i],
				       json_object_new_int64((int64_t)count(cl, (enum halo_cluster_outcome)i)));
	json_object_object_add(o, "summary", s);
	a = json_object_new_array();
	for (size_t i = 0; a && i < cl->n_nodes; i++) {
		struct json_object *n = json_object_new_object();

		json_object_object_add(n, "file", jstr(halo_cluster_node_file(cl, i)));
		json_object_object_add(n, "hostname", jstr(halo_cluster_node_name(cl, i)));
		json_object_array_add(a, n);
	}
	json_object_object_add(o, "nodes", a);
	json_object_object_add(o, "cables", json_object_new_int64((int64_t)cl->n_cables));
	a = json_object_new_array();
	for (size_t i = 0; a && i < cl->n_segments; i++) {
		const struct halo_cluster_segment *g = &cl->segments[i];
		struct json_object *n = json_object_new_object();

		json_object_object_add(n, "subnet", jstr(g->subnet));
		json_object_object_add(n, "ports", json_object_new_int64((int64_t)g->n_ports));
		json_object_object_add(n, "nodes", json_object_new_int64((int64_t)g->n_nodes));
		json_object_object_add(n, "mtu", jstr(g->mtu));
		json_object_object_add(n, "prefix", jstr(g->prefix));
		json_object_object_add(n, "differing", json_object_new_int64((int64_t)g->n_drift));
		json_object_array_add(a, n);
	}
	json_object_object_add(o, "segments", a);
	json_object_object_add(o, "dangling_ports", json_object_new_int64((int64_t)cl->n_dangling));
	a = json_object_new_array();
	for (size_t i = 0; a && i < cl->n_items; i++) {
		const struct halo_cluster_item *it = &cl->items[i];
		struct json_object *n = json_object_new_object(), *v = NULL;

		json_object_object_add(n, "key", jstr(it->key));
		json_object_object_add(n, "subject", jstr(it->subject));
		json_object_object_add(n, "fact", jstr(it->fact));
		json_object_object_add(n, "outcome", jstr(outcome_names[it->outcome]));
		if (it->value_a || it->value_b) {
			v = json_object_new_array();
			json_object_array_add(v, jstr(it->value_a));
			json_object_array_add(v, jstr(it->value_b));
		}
		json_object_object_add(n, "values", v);
		json_object_object_add(n, "message", jstr(it->message));
		json_object_array_add(a, n);
	}
	json_object_object_add(o, "items", a);
	return o;
}

static int print_doc(FILE *out, struct json_object *o)
{
	const char *text = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_SPACED |
							     JSON_C_TO_STRING_NOSLASHESCAPE) :
			       NULL;

	if (text)
		fprintf(out, "%s\n", text);
	json_object_put(o);
	return text ? 0 : -ENOMEM;
}

int halo_cluster_print_json(FILE *out, const struct halo_cluster *cl, int bits)
{
	return print_doc(out, cluster_doc(cl, bits));
}

int halo_cluster_print_json_error(FILE *out, const struct halo_errors *errs)
{
	struct halo_cluster none = { 0 };
	struct json_object *o = cluster_doc(&none, HALO_EXIT_USAGE), *a;

	if (!o)
		return -ENOMEM;
	json_object_object_add(o, "failed", json_object_new_boolean(true));
	json_object_object_add(o, "msg", jstr(errs->n ? errs->msgs[0] : "out of memory"));
	a = json_object_new_array();
	for (size_t i = 0; a && i < errs->n; i++)
		json_object_array_add(a, json_object_new_string(errs->msgs[i]));
	json_object_object_add(o, "errors", a);
	return print_doc(out, o);
}

/* FILE as given (the operator's copy of a node's state file or report):
 * its text in *RET, or NULL with *RET_WHY saying why not. A file that
 * is not regular is never read (a FIFO would block), one over the cap
 * never loaded. 0 or -ENOMEM. */
static int read_input(const char *file, char **ret, char **ret_why)
{
	_cleanup_close_ int fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	size_t len;
	int r;

	*ret = *ret_why = NULL;
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = errno;
		*ret_why = halo_strdup_printf("%s: %s", r == ENOENT ? "missing state file" :
						"cannot read state file", strerror(r));
	} else if (!S_ISREG(st.st_mode)) {
		*ret_why = halo_strdup_printf("%s, not a regular file", halo_file_kind(st.st_mode));
	} else if ((uint64_t)st.st_size > HALO_CLUSTER_INPUT_MAX) {
		*ret_why = halo_strdup_printf("%jd bytes, over the %u MiB a state file or report can have: not read",
					      (intmax_t)st.st_size, HALO_CLUSTER_INPUT_MAX >> 20);
	} else {
		r = halo_read_fd(fd, (size_t)st.st_size, ret, &len);
		if (r == -EFBIG)
			*ret_why = halo_strdup_printf("over the %u MiB a state file or report can have: not read",
						      HALO_CLUSTER_INPUT_MAX >> 20);
		else if (r == -ENOMEM)
			return -ENOMEM;
		else if (r < 0)
			*ret_why = halo_strdup_printf("cannot read state file: %s", strerror(-r));
		else
			return 0;
	}
	return *ret_why ? 0 : -ENOMEM;
}

int halo_cluster_main(char *const *files, size_t n, enum halo_cluster_format format,
		      int verbosity)
{
	struct halo_cluster cl = { 0 };
	int bits = 0, r = 0;

	for (size_t i = 0; i < n && r >= 0; i++) {
		_cleanup_free_ char *text = NULL, *why = NULL;

		r = read_input(files[i], &text, &why);
		if (r >= 0)
			r = halo_cluster_add(&cl, files[i], text, why);
	}
	if (r >= 0 && !cl.oom)
		bits = halo_cluster_check(&cl);
	if (r < 0 || cl.oom) {
		fputs("halo-provision: --cluster: out of memory\n", stderr);
		halo_cluster_free(&cl);
		return HALO_EXIT_FAILED;
	}
	switch (format) {
	case HALO_CLUSTER_JSON:
		r = halo_cluster_print_json(stdout, &cl, bits);
		break;
	case HALO_CLUSTER_DOT:
		r = halo_cluster_print_dot(stdout, &cl, bits);
		break;
	default:
		halo_cluster_print_text(stdout, &cl, bits, verbosity);
		break;
	}
	if (r < 0) {
		fputs("halo-provision: --cluster: out of memory\n", stderr);
		bits |= HALO_EXIT_FAILED;
	}
	halo_cluster_free(&cl);
	return bits;
}
