/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * firewall-item.c: the zone or table file as an owned-file item (writing,
 * modes, symlink refusal and diffs exactly as every owned file), plus
 * what makes a written file take effect:
 *
 * - firewalld: `firewall-cmd --reload` when `firewall-cmd --state` says it
 *   runs; a firewalld that does not run reads the zone when it starts.
 * - nftables: `nft -f FILE`, which replaces our table in one transaction.
 *
 * The file is the state: a file already right is not loaded again, and
 * the live ruleset is not observed (nft's listing is normalised, not the
 * file's text; a check would have to run nft on every timer tick). So a
 * file that failed to load is put back as it was, for the next run to
 * load again. After a reboot the table is there when /etc/nftables.conf
 * includes the file.
 *
 * Under --root nothing is run: the tree is not this machine's firewall.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "files/firewall.h"
#include "util/spawn.h"
#include "util/strv.h"

struct fw_data {
	enum halo_fw_kind kind;
	struct halo_plan inner; /* the owned-file item */
};

static void fw_data_free(void *p)
{
	struct fw_data *d = p;

	halo_plan_free(&d->inner);
	free(d);
}

static const char *const reload_argv[] = { "firewall-cmd", "--reload", NULL };
static const char *const state_argv[] = { "firewall-cmd", "--state", NULL };
static const char *const load_argv[] = { "nft", "-f", HALO_FW_NFT_PATH, NULL };

const char *const *halo_fw_activate_argv(enum halo_fw_kind kind)
{
	return kind == HALO_FW_KIND_FIREWALLD ? reload_argv : load_argv;
}

static const char *under_root_note(enum halo_fw_kind kind)
{
	return kind == HALO_FW_KIND_FIREWALLD ?
		"under --root firewalld is not reloaded: left to the operator or the next boot" :
		"under --root the table is not loaded: left to the operator (nft -f "
		HALO_FW_NFT_PATH ") or the next boot (include it from /etc/nftables.conf)";
}

/* The first line of S (a program's stderr), for a one-line message. */
static char *first_line(const char *s)
{
	return strndup(s ? s : "", s ? strcspn(s, "\n") : 0);
}

static int copy_view(struct halo_item *item, const struct halo_item *f)
{
	free(item->diff);
	item->diff = f->diff ? strdup(f->diff) : NULL;
	if (f->diff && !item->diff)
		return -ENOMEM;
	if (f->observed ? halo_item_set_observed(item, "%s", f->observed) < 0 :
			  halo_item_set_observed(item, NULL) < 0)
		return -ENOMEM;
	return f->message ? halo_item_set_message(item, "%s", f->message) : 0;
}

static int fw_observe(struct halo_ctx *ctx, struct halo_item *item)
{
	struct fw_data *d = item->data;
	struct halo_item *f = d->inner.items[0];
	int r = f->ops->observe(ctx, f);
	int c = copy_view(item, f);

	if (c < 0)
		return c;
	/* What an apply would leave to someone else, said before it. */
	if (r == HALO_SYNC_DIFFERS && !item->message && ctx->under_root &&
	    halo_item_set_message(item, "%s", under_root_note(d->kind)) < 0)
		return -ENOMEM;
	return r;
}

/* Runs ARGV: 0 when it exited 0, else -EIO with the message set. */
static int run(struct halo_ctx *ctx, struct halo_item *item, const char *const *argv,
	       int *ret_status)
{
	_cleanup_free_ char *err = NULL, *line = NULL;
	int status = -1;
	int r = halo_spawn(ctx, argv, &status, NULL, &err);

	if (ret_status)
		*ret_status = status;
	if (r < 0)
		return r;
	if (status == 0)
		return 0;
	line = first_line(err);
	if (!line)
		return -ENOMEM;
	(void)halo_item_set_message(item, "%s %s exited %d%s%s", argv[0], argv[1], status,
				    line[0] ? ": " : "", line);
	return -EIO;
}

static int activate_firewalld(struct halo_ctx *ctx, struct halo_item *item)
{
	int status, r = run(ctx, item, state_argv, &status);

	/* Not installed, or installed and stopped (--state exits 252):
	 * firewalld reads the zone when it starts. */
	if (r == -ENOENT || r == -EIO) {
		return halo_item_set_note(item, "%s", r == -ENOENT ?
					  "firewall-cmd is not installed: the zone is read when firewalld starts" :
					  "firewalld is not running: the zone is read when it starts");
	}
	if (r < 0)
		return halo_item_fail(item, r, "running firewall-cmd --state");
	r = run(ctx, item, reload_argv, NULL);
	if (r == -EIO)
		return r;
	if (r < 0)
		return halo_item_fail(item, r, "running firewall-cmd --reload");
	return halo_item_set_note(item, "firewalld reloaded");
}

static int activate_nft(struct halo_ctx *ctx, struct halo_item *item)
{
	int r = run(ctx, item, load_argv, NULL);

	if (r == -EIO)
		return r;
	if (r < 0)
		return halo_item_fail(item, r, "running nft -f %s", HALO_FW_NFT_PATH);
	return halo_item_set_note(item, "loaded with nft -f " HALO_FW_NFT_PATH);
}

/* The file was written but did not take effect (ERR): it goes back to
 * what it was, so the next run sees it differ and loads it again instead
 * of calling it right. The message says so after what failed. */
static int put_back(struct halo_ctx *ctx, struct halo_item *item, struct halo_item *f, int err)
{
	_cleanup_free_ char *what = strdup(item->message ? item->message : strerror(-err));
	int r;

	if (!what)
		return -ENOMEM;
	r = halo_file_item_restore(ctx, f);
	if (r < 0)
		(void)halo_item_set_message(item, "%s; putting %s back as it was failed too: %s",
					    what, f->path, strerror(-r));
	else
		(void)halo_item_set_message(item, "%s; %s is back as it was, for the next run to "
					    "write and load again", what, f->path);
	return err;
}

static int fw_apply(struct halo_ctx *ctx, struct halo_item *item)
{
	struct fw_data *d = item->data;
	struct halo_item *f = d->inner.items[0];
	int r = f->ops->apply(ctx, f);

	if (r < 0) {
		(void)halo_item_set_message(item, "%s", f->message ? f->message : strerror(-r));
		return r;
	}
	if (ctx->under_root)
		return halo_item_set_note(item, "%s", under_root_note(d->kind));
	r = d->kind == HALO_FW_KIND_FIREWALLD ? activate_firewalld(ctx, item) :
						activate_nft(ctx, item);
	return r < 0 && r != -ENOMEM ? put_back(ctx, item, f, r) : r;
}

static const struct halo_item_ops fw_ops = {
	.observe = fw_observe,
	.apply = fw_apply,
	.free_data = fw_data_free,
};

int halo_fw_item_add(struct halo_plan *plan, enum halo_fw_kind kind, const char *path,
		     const char *content)
{
	struct halo_item *item, *f;
	struct fw_data *d;
	int err = halo_plan_add_for_file(plan, path, HALO_SUB_FILES, HALO_PHASE_FILES, &fw_ops,
					 sizeof(*d), &item);

	if (err < 0)
		return err;
	d = item->data;
	d->kind = kind;
	halo_plan_init(&d->inner);
	err = halo_plan_add_file(&d->inner, HALO_SUB_FILES, HALO_PHASE_FILES, path, content,
				 0644, &f);
	if (err < 0)
		return err;
	halo_file_item_keep_prior(f);
	return halo_item_set_wanted(item, "%s", f->wanted);
}
