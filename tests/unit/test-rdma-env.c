/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the env file's rendering (src/rdma/envfile.c). */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "rdma/rdma.h"
#include "render-test.h"

static void test_one(void **state)
{
	const struct halo_rdma_env_entry e[] = { { "eth-a", "rocep194s0f0", 1, 1 } };
	char *out = NULL, *why = NULL;

	(void)state;
	assert_int_equal(halo_rdma_env_render(e, 1, 106, &out, &why), 0);
	assert_string_equal(rendered_lines(out),
			    "NCCL_IB_HCA==rocep194s0f0:1\n"
			    "NCCL_IB_GID_INDEX=1\n"
			    "NCCL_IB_TC=106\n"
			    "NCCL_SOCKET_IFNAME==eth-a\n"
			    "GLOO_SOCKET_IFNAME=eth-a\n"
			    "NCCL_IB_TIMEOUT=23\n"
			    "NCCL_IB_RETRY_CNT=7\n");
	assert_non_null(strstr(out, "Managed by halo-provision"));
	free(out);
}

/* Several devices: comma lists in the given (config) order; one GID index
 * when they agree. */
static void test_two_same(void **state)
{
	const struct halo_rdma_env_entry e[] = {
		{ "rdma1", "irdma1", 1, 1 }, { "rdma0", "irdma0", 1, 1 },
	};
	char *out = NULL, *why = NULL;

	(void)state;
	assert_int_equal(halo_rdma_env_render(e, 2, 106, &out, &why), 0);
	assert_non_null(strstr(out, "\nNCCL_IB_HCA==irdma1:1,irdma0:1\n"));
	assert_non_null(strstr(out, "\nNCCL_IB_GID_INDEX=1\n"));
	assert_non_null(strstr(out, "\nNCCL_SOCKET_IFNAME==rdma1,rdma0\n"));
	assert_non_null(strstr(out, "\nGLOO_SOCKET_IFNAME=rdma1,rdma0\n"));
	free(out);
}

/* GID indexes that differ cannot be one NCCL_IB_GID_INDEX; no ToS: no TC. */
static void test_two_differ(void **state)
{
	const struct halo_rdma_env_entry e[] = {
		{ "eth-a", "irdma0", 1, 1 }, { "eth-c", "mlx5_0", 1, 3 },
	};
	char *out = NULL, *why = NULL;

	(void)state;
	assert_int_equal(halo_rdma_env_render(e, 2, -1, &out, &why), 0);
	assert_null(strstr(out, "\nNCCL_IB_GID_INDEX="));
	assert_non_null(strstr(out, "# NCCL_IB_GID_INDEX is not set: the GID indexes differ "
				    "(eth-a 1, eth-c 3)"));
	assert_null(strstr(out, "\nNCCL_IB_TC="));
	assert_non_null(strstr(out, "\n# NCCL_IB_TC is not set"));
	free(out);
}

/* A name that would need quoting is refused, never quoted. */
static void test_refused(void **state)
{
	const struct halo_rdma_env_entry bad_if[] = { { "eth a", "irdma0", 1, 1 } };
	const struct halo_rdma_env_entry bad_dev[] = { { "eth0", "ir\"dma", 1, 1 } };
	const struct halo_rdma_env_entry dollar[] = { { "eth$x", "irdma0", 1, 1 } };
	char *out = NULL, *why = NULL;

	(void)state;
	assert_int_equal(halo_rdma_env_render(bad_if, 1, 106, &out, &why), -EINVAL);
	assert_null(out);
	assert_non_null(strstr(why, "eth a"));
	free(why);
	assert_int_equal(halo_rdma_env_render(bad_dev, 1, 106, &out, &why), -EINVAL);
	free(why);
	assert_int_equal(halo_rdma_env_render(dollar, 1, 106, &out, &why), -EINVAL);
	free(why);
	assert_int_equal(halo_rdma_env_render(bad_if, 0, 106, &out, &why), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one),
		cmocka_unit_test(test_two_same),
		cmocka_unit_test(test_two_differ),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
