/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spawn.c: run a program with an argv and a fixed environment. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "util/rootfs-internal.h"
#include "util/spawn.h"
#include "util/strv.h"

#define SPAWN_PATH "/usr/sbin:/usr/bin:/sbin:/bin"
#define CAPTURE_CAP (1u << 20)

/*
 * The program is looked up in SPAWN_PATH ourselves: posix_spawnp would
 * search the caller's PATH, which is not part of our contract.
 */
/* An executable regular file (root's access(X_OK) also passes for a
 * directory or a file with any x bit). */
static int executable(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EACCES;
	return access(path, X_OK) < 0 ? -errno : 0;
}

static int find_program(const char *name, char **ret_path)
{
	const char *p = SPAWN_PATH;
	int r;

	if (!name || !*name)
		return -EINVAL;
	if (strchr(name, '/')) {
		r = executable(name);
		if (r < 0)
			return r;
		*ret_path = strdup(name);
		return *ret_path ? 0 : -ENOMEM;
	}
	while (*p) {
		size_t n = strcspn(p, ":");
		char *cand = halo_strdup_printf("%.*s/%s", (int)n, p, name);

		if (!cand)
			return -ENOMEM;
		if (executable(cand) == 0) {
			*ret_path = cand;
			return 0;
		}
		free(cand);
		p += n;
		p += *p == ':';
	}
	return -ENOENT;
}

/* A pipe whose ends are above 2, so dup2 onto 1/2 never clobbers them. */
static int make_pipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	for (int i = 0; i < 2; i++) {
		if (fds[i] <= 2) {
			int fd = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);

			if (fd < 0) {
				int e = -errno;

				close(fds[0]);
				close(fds[1]);
				return e;
			}
			close(fds[i]);
			fds[i] = fd;
		}
	}
	return 0;
}

/* Reads both pipes to EOF; past the cap the rest is drained and dropped,
 * so a chatty child never blocks on a full pipe. */
static int capture(int out_fd, int err_fd, struct halo_buf *out,
		   struct halo_buf *err)
{
	struct pollfd p[2] = { { .fd = out_fd, .events = POLLIN },
			       { .fd = err_fd, .events = POLLIN } };
	struct halo_buf *bufs[2] = { out, err };
	char chunk[16384];
	int open_fds = 2;

	while (open_fds > 0) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (int i = 0; i < 2; i++) {
			ssize_t n;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			n = read(p[i].fd, chunk, sizeof(chunk));
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				p[i].fd = -1; /* EOF or error: stop polling it */
				open_fds--;
				continue;
			}
			if (bufs[i]->len < CAPTURE_CAP) {
				size_t room = CAPTURE_CAP - bufs[i]->len;

				halo_buf_append(bufs[i], chunk,
						(size_t)n < room ? (size_t)n : room);
			}
		}
	}
	return 0;
}

static int wait_child(pid_t pid, int *ret_status)
{
	int st;

	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return -errno;
	}
	if (WIFEXITED(st))
		*ret_status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		*ret_status = 128 + WTERMSIG(st);
	else
		*ret_status = 255;
	return 0;
}

static int spawn_child(const char *path, const char *const argv[],
		       int out_w, int err_w, pid_t *ret_pid)
{
	static char *const envp[] = { "PATH=" SPAWN_PATH, "LC_ALL=C", NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, all;
	int r;

	r = posix_spawn_file_actions_init(&fa);
	if (r)
		return -r;
	r = posix_spawnattr_init(&attr);
	if (r) {
		posix_spawn_file_actions_destroy(&fa);
		return -r;
	}
	sigemptyset(&none);
	sigfillset(&all);
	/* The child starts clean: no inherited blocked or ignored signals
	 * (an ignored SIGPIPE would change how tools behave). */
	r = posix_spawnattr_setsigmask(&attr, &none);
	if (!r)
		r = posix_spawnattr_setsigdefault(&attr, &all);
	if (!r)
		r = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
							    POSIX_SPAWN_SETSIGDEF);
	if (!r)
		r = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!r)
		r = posix_spawn_file_actions_adddup2(&fa, out_w, 1);
	if (!r)
		r = posix_spawn_file_actions_adddup2(&fa, err_w, 2);
	if (!r)
		r = posix_spawn(ret_pid, path, &fa, &attr, (char *const *)argv, envp);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	return -r;
}

int halo_spawn(struct halo_ctx *ctx, const char *const argv[],
	       int *ret_status, char **ret_stdout, char **ret_stderr)
{
	_cleanup_free_ char *path = NULL;
	struct halo_buf out = { 0 }, err = { 0 };
	int out_p[2], err_p[2], status = 0, r, rc;
	pid_t pid;

	if (!argv || !argv[0])
		return -EINVAL;
	r = find_program(argv[0], &path);
	if (r < 0)
		return r;
	r = make_pipe(out_p);
	if (r < 0)
		return r;
	r = make_pipe(err_p);
	if (r < 0) {
		close(out_p[0]);
		close(out_p[1]);
		return r;
	}
	r = spawn_child(path, argv, out_p[1], err_p[1], &pid);
	close(out_p[1]);
	close(err_p[1]);
	if (r < 0) {
		close(out_p[0]);
		close(err_p[0]);
		return r;
	}
	ctx->spawned++;
	/* What it does to the root is not known: read the root afresh. */
	halo_rootcache_forget(ctx);
	r = capture(out_p[0], err_p[0], &out, &err);
	close(out_p[0]);
	close(err_p[0]);
	/* Always reap, even when capturing failed: no zombies. */
	rc = wait_child(pid, &status);
	if (r == 0)
		r = rc;
	if (r == 0 && (out.oom || err.oom))
		r = -ENOMEM;
	if (r < 0) {
		halo_buf_free(&out);
		halo_buf_free(&err);
		return r;
	}
	if (ret_stdout) {
		*ret_stdout = halo_buf_steal(&out);
		if (!*ret_stdout) {
			halo_buf_free(&err);
			return -ENOMEM;
		}
	}
	if (ret_stderr) {
		*ret_stderr = halo_buf_steal(&err);
		if (!*ret_stderr) {
			if (ret_stdout) {
				free(*ret_stdout);
				*ret_stdout = NULL;
			}
			halo_buf_free(&out);
			return -ENOMEM;
		}
	}
	halo_buf_free(&out);
	halo_buf_free(&err);
	if (ret_status)
		*ret_status = status;
	return 0;
}
