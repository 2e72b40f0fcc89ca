/* A circular doubly linked list with the node embedded in its owner, as the
 * kernel's list_head. Used for object bindings, address-space node lists and
 * LRUs. */
#ifndef GTSIM_KERNEL_LIST_H
#define GTSIM_KERNEL_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *prev, *next;
};

static inline void list_init(struct list_node *l) { l->prev = l->next = l; }
static inline bool list_empty(const struct list_node *l) { return l->next == l; }

static inline void list_insert_after(struct list_node *pos, struct list_node *n)
{
	n->prev = pos;
	n->next = pos->next;
	pos->next->prev = n;
	pos->next = n;
}

static inline void list_add_tail(struct list_node *head, struct list_node *n)
{
	list_insert_after(head->prev, n);
}

static inline void list_del(struct list_node *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	list_init(n);
}

#define list_entry(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define list_for_each_safe(pos, tmp, head) \
	for (pos = (head)->next, tmp = pos->next; pos != (head); pos = tmp, tmp = pos->next)

#endif
