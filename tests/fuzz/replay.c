/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c: a main() for the fuzz targets without libFuzzer, so the seed
 * corpora and the regression inputs run in `make check` under any
 * compiler, ASan and valgrind. Feeds every file of the directories (or the
 * files) given on the command line, else of FUZZ_CORPUS (a space-separated
 * list compiled in), to LLVMFuzzerTestOneInput, one TAP line per input.
 * A target that finds a bug aborts, which fails the test.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/fuzz.h"

/* LeakSanitizer reads its options from here when the environment has none:
 * the libconfig 1.5 lexer leak is suppressed with the config part's file
 * (tests/fixtures/config/lsan-libconfig-1.5.supp), nothing else. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "suppressions=" FUZZ_LSAN_SUPP;
}

struct inputs {
	char **v;
	size_t n, cap;
};

static void add(struct inputs *in, const char *path)
{
	if (in->n == in->cap) {
		in->cap = in->cap ? in->cap * 2 : 64;
		in->v = realloc(in->v, in->cap * sizeof(*in->v));
		if (!in->v)
			abort();
	}
	in->v[in->n] = strdup(path);
	if (!in->v[in->n++])
		abort();
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or the regular files of a directory (not recursive). */
static int collect(struct inputs *in, const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		add(in, path);
		return 0;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		char *p;

		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&p, "%s/%s", path, de->d_name) < 0)
			abort();
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			add(in, p);
		free(p);
	}
	closedir(d);
	return 0;
}

static int read_all(const char *path, uint8_t **ret, size_t *ret_len)
{
	size_t len = 0, cap = 4096;
	uint8_t *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (!buf)
		abort();
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	/* Exactly LEN bytes, as libFuzzer gives them: ASan sees overreads. */
	*ret = realloc(buf, len ? len : 1);
	if (!*ret)
		abort();
	*ret_len = len;
	return 0;
}

int main(int argc, char **argv)
{
	struct inputs in = { 0 };
	int fail = 0;

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			fail |= collect(&in, argv[i]) < 0;
	} else {
		char *list = strdup(FUZZ_CORPUS), *save = NULL;

		for (char *p = strtok_r(list, " \t", &save); p;
		     p = strtok_r(NULL, " \t", &save))
			fail |= collect(&in, p) < 0;
		free(list);
	}
	if (fail)
		return 99;
	qsort(in.v, in.n, sizeof(*in.v), cmp);
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	printf("1..%zu\n", in.n);
	for (size_t i = 0; i < in.n; i++) {
		uint8_t *data = NULL;
		size_t len = 0;
		int r = read_all(in.v[i], &data, &len);

		if (r < 0) {
			printf("not ok %zu - %s: %s\n", i + 1, in.v[i], strerror(-r));
			fail = 1;
		} else {
			/* Names the input should the target abort. */
			printf("# %s\n", in.v[i]);
			fflush(stdout);
			LLVMFuzzerTestOneInput(data, len);
			printf("ok %zu - %s (%zu bytes)\n", i + 1, in.v[i], len);
			free(data);
		}
		free(in.v[i]);
	}
	free(in.v);
	return fail;
}
