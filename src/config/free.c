/* SPDX-License-Identifier: GPL-2.0-or-later */
/* free.c: releases a struct halo_config and everything it owns. */
#include "config/halo-config.h"
#include "util/strv.h"

static void strlist_free(struct halo_strlist *l)
{
	halo_strv_free(l->v);
	free(l->line);
}

static void interface_free(struct halo_interface *it)
{
	free(it->name);
	free(it->match_driver);
	for (size_t i = 0; i < it->addresses.n; i++)
		free(it->addresses.v[i].text);
	free(it->addresses.v);
	for (size_t i = 0; i < it->n_routes; i++) {
		free(it->routes[i].to);
		free(it->routes[i].via);
	}
	free(it->routes);
	free(it->roce.dscp_prio);
}

void halo_config_free(struct halo_config *c)
{
	if (!c)
		return;
	free(c->path);
	free(c->text);
	for (size_t i = 0; i < c->n_line_paths; i++)
		free(c->line_paths[i]);
	free(c->line_paths);
	halo_kernel_params_free(&c->boot.extra);
	halo_kernel_params_free(&c->boot.remove);
	strlist_free(&c->modules.load);
	strlist_free(&c->modules.blacklist);
	for (size_t i = 0; i < c->modules.n_options; i++) {
		free(c->modules.options[i].module);
		free(c->modules.options[i].text);
		halo_module_params_free(c->modules.options[i].params,
					c->modules.options[i].n_params);
	}
	free(c->modules.options);
	for (size_t i = 0; i < c->n_interfaces; i++)
		interface_free(&c->interfaces[i]);
	free(c->interfaces);
	free(c->firewall.allow_udp);
	free(c->firewall.allow_tcp);
	free(c->access.rdma_group);
	free(c->access.gpu_group);
	for (size_t i = 0; i < c->sysctl.n_settings; i++)
		halo_sysctl_setting_clear(&c->sysctl.settings[i]);
	free(c->sysctl.settings);
	for (size_t i = 0; i < c->n_storage; i++) {
		halo_device_spec_clear(&c->storage[i].what);
		free(c->storage[i].where);
		free(c->storage[i].type);
		free(c->storage[i].options);
	}
	free(c->storage);
	free(c->state.path);
	free(c->state.env_file);
	free(c->state.prometheus);
	free(c);
}
