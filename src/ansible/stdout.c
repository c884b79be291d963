/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stdout.c: the module mode's answer channel (args.h). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "ansible/args.h"

FILE *halo_ansible_take_stdout(void)
{
	FILE *out;
	int out_fd, null_fd;

	fflush(stdout);
	out_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (out_fd < 0)
		return NULL;
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0 || dup2(null_fd, STDOUT_FILENO) < 0 || !(out = fdopen(out_fd, "w"))) {
		if (null_fd >= 0)
			close(null_fd);
		close(out_fd);
		return NULL;
	}
	close(null_fd);
	return out;
}
