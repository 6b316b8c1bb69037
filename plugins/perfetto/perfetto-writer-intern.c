/* tracepipe - Perfetto writer: strings and interning
 *
 * Interning follows the Perfetto SDK: one trusted packet sequence; its
 * first packet clears the incremental state; names, categories, arg names
 * and string values are sent once in `interned_data` and referred to by
 * iid. The iid of a string is its id in the pipeline's string pool, so the
 * writer only has to remember which ids it already sent (one bit each).
 * When a generation has sent `max_interned` strings, the state is cleared
 * and interning starts over, which bounds what a reader must keep. The
 * entries a packet sends wait in w->new_* until perfetto_packet_emit()
 * attaches them (perfetto-writer-output.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <string.h>

/* Returns: whether @id was in @set; adds it */
static gboolean
perfetto_id_set_test_and_add (PerfettoIdSet *set,
                              guint32 id)
{
  gsize byte = id / 8;
  guint8 bit = 1u << (id % 8);
  gboolean had;

  if (G_UNLIKELY (byte >= set->n_bytes))
    {
      gsize n = MAX (byte + 1, MAX (1024, set->n_bytes * 2));

      set->bits = g_realloc (set->bits, n);
      memset (set->bits + set->n_bytes, 0, n - set->n_bytes);
      set->n_bytes = n;
    }
  had = (set->bits[byte] & bit) != 0;
  set->bits[byte] |= bit;
  return had;
}

static void
perfetto_id_set_reset (PerfettoIdSet *set)
{
  if (set->bits)
    memset (set->bits, 0, set->n_bytes);
}

static void
perfetto_id_set_free (PerfettoIdSet *set)
{
  g_clear_pointer (&set->bits, g_free);
  set->n_bytes = 0;
}

/**
 * perfetto_intern_init:
 * @w: a #PerfettoWriter
 *
 * Sets up the interning state: nothing sent, the first packet clears the
 * sequence's incremental state.
 */
void
perfetto_intern_init (PerfettoWriter *w)
{
  perfetto_vec_init (&w->new_names, sizeof (Perfetto__Protos__EventName));
  perfetto_vec_init (&w->new_categories, sizeof (Perfetto__Protos__EventCategory));
  perfetto_vec_init (&w->new_ann_names, sizeof (Perfetto__Protos__DebugAnnotationName));
  perfetto_vec_init (&w->new_str_values, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_ksyms, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_functions, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_map_paths, sizeof (Perfetto__Protos__InternedString));
  perfetto_vec_init (&w->new_mappings, sizeof (Perfetto__Protos__Mapping));
  perfetto_vec_init (&w->new_frames, sizeof (Perfetto__Protos__Frame));
  perfetto_vec_init (&w->new_callstacks, sizeof (Perfetto__Protos__Callstack));
  w->callstack_frames = g_array_new (FALSE, FALSE, sizeof (guint64));
  w->mapping_paths = g_array_new (FALSE, FALSE, sizeof (guint64));
  w->iids = g_array_new (FALSE, TRUE, sizeof (guint32));
  w->generation = 1;
  w->need_clear = TRUE;
}

void
perfetto_intern_free (PerfettoWriter *w)
{
  PerfettoVec *vecs[] = { &w->new_names, &w->new_categories, &w->new_ann_names,
                          &w->new_str_values, &w->new_ksyms, &w->new_functions,
                          &w->new_map_paths, &w->new_mappings, &w->new_frames,
                          &w->new_callstacks };
  PerfettoIdSet *sets[] = { &w->seen_names, &w->seen_categories, &w->seen_ann_names,
                            &w->seen_str_values, &w->seen_ksyms, &w->seen_functions,
                            &w->seen_map_paths };

  for (guint i = 0; i < G_N_ELEMENTS (vecs); i++)
    perfetto_vec_clear (vecs[i]);
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    perfetto_id_set_free (sets[i]);
  g_array_unref (w->callstack_frames);
  g_array_unref (w->mapping_paths);
  g_array_unref (w->iids);
}

static void
perfetto_note_interned (PerfettoWriter *w)
{
  w->interned_in_generation++;
  w->packet_has_interned = TRUE;
}

/**
 * perfetto_iid:
 * @w: a #PerfettoWriter
 * @id: a string of the pool
 *
 * The interning id of a string: given in the order the writer first uses
 * strings (from 1), never the pool's id. Which id the pool gives a string
 * depends on which thread interned it first (a source, a queue's other
 * side, the writer's own thread), so iids that were pool ids made the
 * bytes of one conversion differ from run to run; these depend on the
 * events alone. One iid a string for all its tables (an iid need only be
 * unique within one), kept across generations (a string interned again
 * after a reset gets the same iid, which Perfetto allows).
 *
 * Returns: the iid of @id
 */
guint64
perfetto_iid (PerfettoWriter *w,
              guint32 id)
{
  guint32 *slot;

  if (G_UNLIKELY (id >= w->iids->len))
    g_array_set_size (w->iids, MAX ((guint) id + 1, w->iids->len * 2));
  slot = &g_array_index (w->iids, guint32, id);
  if (*slot == 0)
    *slot = ++w->last_iid;
  return *slot;
}

static guint64
perfetto_intern_string_into (PerfettoWriter *w,
                             PerfettoIdSet *seen,
                             PerfettoVec *vec,
                             guint32 id)
{
  Perfetto__Protos__InternedString *s;
  guint64 iid = perfetto_iid (w, id);

  if (perfetto_id_set_test_and_add (seen, id))
    return iid;
  s = perfetto_vec_push_uninit (vec);
  perfetto__protos__interned_string__init (s);
  s->has_iid = TRUE;
  s->iid = iid;
  s->has_str = TRUE;
  s->str.data = (guint8 *) perfetto_str (w, id);
  s->str.len = trace_string_pool_get_length (w->pool, id);
  perfetto_note_interned (w);
  return iid;
}

/* EventName, EventCategory and DebugAnnotationName are the same shape:
 * iid then name. */
#define PERFETTO_DEFINE_INTERN_NAMED(fn, Type, type_init, seen_field, vec_field) \
  guint64 fn (PerfettoWriter *w, guint32 id)                                     \
  {                                                                              \
    Type *e;                                                                     \
    guint64 iid = perfetto_iid (w, id);                                          \
    if (perfetto_id_set_test_and_add (&w->seen_field, id))                       \
      return iid;                                                                \
    e = perfetto_vec_push_uninit (&w->vec_field);                                \
    type_init (e);                                                               \
    e->has_iid = TRUE;                                                           \
    e->iid = iid;                                                                \
    e->name = (char *) perfetto_str (w, id);                                     \
    perfetto_note_interned (w);                                                  \
    return iid;                                                                  \
  }

PERFETTO_DEFINE_INTERN_NAMED (perfetto_intern_name, Perfetto__Protos__EventName, perfetto__protos__event_name__init, seen_names, new_names)
PERFETTO_DEFINE_INTERN_NAMED (perfetto_intern_category, Perfetto__Protos__EventCategory, perfetto__protos__event_category__init, seen_categories, new_categories)
PERFETTO_DEFINE_INTERN_NAMED (perfetto_intern_ann_name, Perfetto__Protos__DebugAnnotationName, perfetto__protos__debug_annotation_name__init, seen_ann_names, new_ann_names)

guint64
perfetto_intern_ksym (PerfettoWriter *w,
                      guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_ksyms, &w->new_ksyms, id);
}

guint64
perfetto_intern_function (PerfettoWriter *w,
                          guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_functions, &w->new_functions, id);
}

guint64
perfetto_intern_map_path (PerfettoWriter *w,
                          guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_map_paths, &w->new_map_paths, id);
}

guint64
perfetto_intern_str_value (PerfettoWriter *w,
                           guint32 id)
{
  return perfetto_intern_string_into (w, &w->seen_str_values, &w->new_str_values, id);
}

/* Starts interning over: the next packet clears the sequence's state. */
static void
perfetto_state_reset (PerfettoWriter *w)
{
  perfetto_id_set_reset (&w->seen_names);
  perfetto_id_set_reset (&w->seen_categories);
  perfetto_id_set_reset (&w->seen_ann_names);
  perfetto_id_set_reset (&w->seen_str_values);
  perfetto_id_set_reset (&w->seen_ksyms);
  perfetto_id_set_reset (&w->seen_functions);
  perfetto_id_set_reset (&w->seen_map_paths);
  /* Frames, callstacks and mappings compare their generation stamp. */
  w->generation++;
  w->interned_in_generation = 0;
  w->need_clear = TRUE;
  w->stats.state_resets++;
  /* once per max_interned strings, not per event */
  g_debug ("writer: interned data cleared after %u strings (reset %" G_GUINT64_FORMAT ")", w->opts.max_interned,
           w->stats.state_resets);
}

/**
 * perfetto_packet_begin:
 * @w: a #PerfettoWriter
 *
 * Called before building a packet that may intern: clears the state when
 * the generation is full, so the packet's interned data belong to the new
 * generation and the packet itself carries the CLEARED flag.
 */
void
perfetto_packet_begin (PerfettoWriter *w)
{
  if (w->interned_in_generation >= w->opts.max_interned)
    perfetto_state_reset (w);
}
