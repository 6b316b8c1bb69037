/* tracepipe - Perfetto writer: growable arrays of protobuf-c structs
 *
 * The writer builds each packet's repeated messages (interned entries,
 * ftrace events, process tree entries) in arrays that keep their memory
 * from packet to packet, so that a packet costs no allocation once they
 * have grown.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

void
perfetto_vec_init (PerfettoVec *v,
                   gsize elt_size)
{
  memset (v, 0, sizeof *v);
  v->elt_size = elt_size;
}

void
perfetto_vec_clear (PerfettoVec *v)
{
  g_free (v->data);
  g_free (v->ptrs);
  perfetto_vec_init (v, v->elt_size);
}

/* Makes room for more slots: perfetto_vec_push()'s rare path. */
void
perfetto_vec_grow (PerfettoVec *v)
{
  v->cap = MAX (16, v->cap * 2);
  v->data = g_realloc_n (v->data, v->cap, v->elt_size);
}

/* Returns: pointers to the structs of @v, as repeated message fields
 * want them */
gpointer *
perfetto_vec_ptrs (PerfettoVec *v)
{
  if (v->ptrs_cap < v->len)
    {
      v->ptrs_cap = MAX (v->len, v->ptrs_cap * 2);
      v->ptrs = g_renew (gpointer, v->ptrs, v->ptrs_cap);
    }
  for (guint i = 0; i < v->len; i++)
    v->ptrs[i] = v->data + i * v->elt_size;
  return v->ptrs;
}
