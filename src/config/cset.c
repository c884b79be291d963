/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cset.c: the libconfig tree behind cset.h, the one file that includes
 * <libconfig.h>. */
#include <errno.h>
#include <libconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/cset.h"
#include "config/loose.h"

#define CS(s) ((config_setting_t *)(s))

struct halo_ctree {
	config_t cf;
};

int halo_ctree_parse(const char *text, struct halo_ctree **ret,
		     struct halo_ctree_error *ret_err)
{
	struct halo_ctree *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	config_init(&t->cf);
	/* No automatic int/float conversion: a float where an int belongs
	 * is a type error. */
	config_set_options(&t->cf, 0);
	if (config_read_string(&t->cf, text) != CONFIG_TRUE) {
		const char *what = config_error_text(&t->cf);

		ret_err->line = config_error_line(&t->cf);
		snprintf(ret_err->what, sizeof(ret_err->what), "%s", what ? what : "syntax error");
		halo_ctree_free(t);
		return -EINVAL;
	}
	*ret = t;
	return 0;
}

void halo_ctree_free(struct halo_ctree *t)
{
	if (!t)
		return;
	config_destroy(&t->cf);
	free(t);
}

const struct halo_cset *halo_ctree_root(const struct halo_ctree *t)
{
	return (const struct halo_cset *)config_root_setting(&t->cf);
}

enum halo_cset_kind halo_cset_kind(const struct halo_cset *s)
{
	switch (config_setting_type(CS(s))) {
	case CONFIG_TYPE_GROUP: return HALO_CSET_GROUP;
	case CONFIG_TYPE_ARRAY: return HALO_CSET_ARRAY;
	case CONFIG_TYPE_LIST: return HALO_CSET_LIST;
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64: return HALO_CSET_INT;
	case CONFIG_TYPE_FLOAT: return HALO_CSET_FLOAT;
	case CONFIG_TYPE_STRING: return HALO_CSET_STRING;
	default: return HALO_CSET_BOOL;
	}
}

const char *halo_cset_name(const struct halo_cset *s) { return config_setting_name(CS(s)); }

int halo_cset_line(const struct halo_cset *s)
{
	/* The root group has no line; elements of some aggregates neither. */
	for (config_setting_t *c = CS(s); c; c = config_setting_parent(c))
		if (config_setting_source_line(c))
			return (int)config_setting_source_line(c);
	return 1;
}

size_t halo_cset_len(const struct halo_cset *s)
{
	int n = config_setting_length(CS(s));

	return n > 0 ? (size_t)n : 0;
}

const struct halo_cset *halo_cset_elem(const struct halo_cset *s, size_t i)
{
	return (const struct halo_cset *)config_setting_get_elem(CS(s), (unsigned)i);
}

/* What config_setting_get_member finds, without its cost: libconfig
 * compares names a character at a time, each looked up in its path
 * separators (":./") with strchr, for every member before the one
 * wanted. A member's name never holds a separator (libconfig's scanner
 * and config_setting_add refuse one), and NAME counts up to its first
 * one: the same member is found. */
const struct halo_cset *halo_cset_member(const struct halo_cset *s, const char *name)
{
	const config_list_t *list;
	size_t n = 0;

	if (config_setting_type(CS(s)) != CONFIG_TYPE_GROUP)
		return NULL;
	/* Where strcspn(name, ":./") stops, by hand: the names are short. */
	while (name[n] && name[n] != ':' && name[n] != '.' && name[n] != '/')
		n++;
	/* An empty group may have no list. */
	list = CS(s)->value.list;
	if (!list)
		return NULL;
	/* The group's members from libconfig.h's public list, not a call
	 * per member: the schema walk asks for every key it knows. */
	for (unsigned i = 0; i < list->length; i++) {
		const config_setting_t *m = list->elements[i];
		const char *mname = config_setting_name(m);

		/* The first character rules out most members without a call. */
		if (mname && mname[0] == name[0] && strncmp(mname, name, n) == 0 &&
		    mname[n] == '\0')
			return (const struct halo_cset *)m;
	}
	return NULL;
}

int64_t halo_cset_int(const struct halo_cset *s)
{
	int64_t v = 0;

	/* A loose integer ("9000"): halo_pwant let it through. */
	if (config_setting_type(CS(s)) == CONFIG_TYPE_STRING)
		return halo_loose_int(config_setting_get_string(CS(s)), &v) ? v : 0;
	return config_setting_get_int64(CS(s));
}

const char *halo_cset_string(const struct halo_cset *s)
{
	const char *v = config_setting_get_string(CS(s));

	return v ? v : "";
}

bool halo_cset_bool(const struct halo_cset *s)
{
	/* A loose boolean ("yes"): halo_pwant let it through. */
	if (config_setting_type(CS(s)) == CONFIG_TYPE_STRING)
		return halo_loose_bool(config_setting_get_string(CS(s))) == 1;
	return config_setting_get_bool(CS(s));
}
