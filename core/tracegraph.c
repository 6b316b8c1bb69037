/* tracepipe - the graph of linked elements: cycles and the order of states
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/* A message names at most this many elements of a cycle: a cycle through
 * ten thousand elements must not make a ten-thousand-name line. */
#define CYCLE_NAMES_SHOWN 8

/* The elements one link away from @element: downstream (through its src
 * pads) or upstream (through its sink pads). */
static void
for_each_neighbour (TraceElement *element,
                    TracePadDirection through,
                    void (*func) (TraceElement *neighbour, gpointer data),
                    gpointer data)
{
  for (const GList *l = trace_element_get_pads (element); l; l = l->next)
    {
      TracePad *peer;
      TraceElement *other;

      if (trace_pad_get_direction (l->data) != through)
        continue;
      peer = trace_pad_get_peer (l->data);
      other = peer ? trace_pad_get_parent_element (peer) : NULL;
      if (other)
        func (other, data);
    }
}

/* One breadth-first walk, one element per step. */
typedef struct
{
  TracePadDirection through;
  GQueue todo;
  GHashTable *seen; /* element -> the element it was reached from */
  TraceElement *target;
  gboolean found;
} Walk;

static void
walk_init (Walk *w,
           TraceElement *from,
           TraceElement *target,
           TracePadDirection through)
{
  g_queue_init (&w->todo);
  w->seen = g_hash_table_new (NULL, NULL);
  w->through = through;
  w->target = target;
  w->found = from == target;
  g_queue_push_tail (&w->todo, from);
  g_hash_table_insert (w->seen, from, from);
}

static void
walk_clear (Walk *w)
{
  g_queue_clear (&w->todo);
  g_hash_table_unref (w->seen);
}

typedef struct
{
  Walk *walk;
  TraceElement *current;
} WalkVisit;

static void
walk_visit (TraceElement *neighbour,
            gpointer data)
{
  WalkVisit *v = data;

  if (g_hash_table_contains (v->walk->seen, neighbour))
    return;
  g_hash_table_insert (v->walk->seen, neighbour, v->current);
  g_queue_push_tail (&v->walk->todo, neighbour);
  if (neighbour == v->walk->target)
    v->walk->found = TRUE;
}

/* Returns FALSE once there is nothing left to visit. */
static gboolean
walk_step (Walk *w)
{
  WalkVisit v = { w, g_queue_pop_head (&w->todo) };

  if (v.current == NULL)
    return FALSE;
  for_each_neighbour (v.current, w->through, walk_visit, &v);
  return TRUE;
}

/* "a ! b ! c ! a", from the downstream walk that reached @up from @down. */
static char *
describe_cycle (TraceElement *up,
                TraceElement *down)
{
  Walk w;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  GString *text = g_string_new (NULL);

  walk_init (&w, down, up, TRACE_PAD_SRC);
  while (!w.found && walk_step (&w))
    ;
  for (TraceElement *e = up; e != down; e = g_hash_table_lookup (w.seen, e))
    g_ptr_array_insert (path, 0, e);
  g_ptr_array_insert (path, 0, down);
  g_ptr_array_add (path, down);
  for (guint i = 0; i < path->len; i++)
    {
      if (i == CYCLE_NAMES_SHOWN && path->len > CYCLE_NAMES_SHOWN + 2)
        {
          g_string_append_printf (text, " ! ... (%u more)", path->len - CYCLE_NAMES_SHOWN - 2);
          i = path->len - 2;
          continue;
        }
      g_string_append_printf (text, "%s%s", i ? " ! " : "", trace_element_get_name (g_ptr_array_index (path, i)));
    }
  walk_clear (&w);
  return g_string_free (text, FALSE);
}

/* Whether @up is downstream of @down already, so that a link from @up to
 * @down would close a loop. Two walks take turns, one element at a time:
 * downstream from @down and upstream from @up. Either one that ends
 * without meeting its target proves there is no cycle, so the cost is
 * that of the smaller side: linking a chain in either order stays
 * linear in all. */
static gboolean
would_close_cycle (TraceElement *up,
                   TraceElement *down)
{
  Walk downstream, upstream;
  gboolean cycle = FALSE;

  walk_init (&downstream, down, up, TRACE_PAD_SRC);
  walk_init (&upstream, up, down, TRACE_PAD_SINK);
  for (;;)
    {
      if (downstream.found || upstream.found)
        {
          cycle = TRUE;
          break;
        }
      if (!walk_step (&downstream) || !walk_step (&upstream))
        {
          cycle = downstream.found || upstream.found;
          break;
        }
    }
  walk_clear (&downstream);
  walk_clear (&upstream);
  return cycle;
}

gboolean
_trace_graph_check_link (TracePad *srcpad,
                         TracePad *sinkpad,
                         GError **error)
{
  TraceElement *up = trace_pad_get_parent_element (srcpad);
  TraceElement *down = trace_pad_get_parent_element (sinkpad);
  g_autofree char *src_path = NULL, *sink_path = NULL, *cycle = NULL;

  if (up == NULL || down == NULL || !would_close_cycle (up, down))
    return TRUE;
  src_path = trace_pad_get_path_string (srcpad);
  sink_path = trace_pad_get_path_string (sinkpad);
  cycle = describe_cycle (up, down);
  g_set_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_CYCLE,
               "cannot link %s to %s: it would make a cycle (%s); "
               "events must flow one way, from the sources to the sinks",
               src_path, sink_path, cycle);
  return FALSE;
}

/* ---- the order of state changes ---- */

/* The count of links from an element to children not placed yet, plus
 * one, so that 0 (NULL) can mean "not a child". */
#define COUNT(table, e) GPOINTER_TO_UINT (g_hash_table_lookup (table, e))
#define SET_COUNT(table, e, n) g_hash_table_insert (table, e, GUINT_TO_POINTER (n))

typedef struct
{
  GHashTable *pending;
  GQueue *ready;
  TraceElement *current;
} SortState;

static void
count_link_down (TraceElement *downstream,
                 gpointer data)
{
  SortState *s = data;

  if (COUNT (s->pending, downstream) != 0)
    SET_COUNT (s->pending, s->current, COUNT (s->pending, s->current) + 1);
}

static void
release_upstream (TraceElement *upstream,
                  gpointer data)
{
  SortState *s = data;
  guint n = COUNT (s->pending, upstream);

  if (n < 2)
    return; /* not a child, or placed */
  SET_COUNT (s->pending, upstream, n - 1);
  if (n - 1 == 1)
    g_queue_push_tail (s->ready, upstream);
}

/* Kahn's algorithm on the reversed graph: sinks first, then each element
 * once everything downstream of it is placed; linear in elements and
 * links. Links to elements outside @children do not count. */
GList *
_trace_graph_sort_sinks_first (const GList *children)
{
  g_autoptr (GHashTable) pending = g_hash_table_new (NULL, NULL);
  GQueue ready = G_QUEUE_INIT, sorted = G_QUEUE_INIT;
  SortState s = { pending, &ready, NULL };
  TraceElement *e;

  for (const GList *l = children; l; l = l->next)
    SET_COUNT (pending, l->data, 1);
  for (const GList *l = children; l; l = l->next)
    {
      s.current = l->data;
      for_each_neighbour (l->data, TRACE_PAD_SRC, count_link_down, &s);
      if (COUNT (pending, l->data) == 1)
        g_queue_push_tail (&ready, l->data);
    }
  while ((e = g_queue_pop_head (&ready)) != NULL)
    {
      g_queue_push_tail (&sorted, e);
      SET_COUNT (pending, e, 1);
      for_each_neighbour (e, TRACE_PAD_SINK, release_upstream, &s);
    }
  /* Only a cycle leaves some: trace_pad_link() refuses them, but an
   * element's own link function might not; keep them in insertion order
   * rather than loop. */
  for (const GList *l = children; l; l = l->next)
    if (COUNT (pending, l->data) > 1)
      g_queue_push_tail (&sorted, l->data);
  return sorted.head;
}
