/* The order in which trace_processor reads a JSON trace, for the views of
 * streams that went into perfetto-sink as Chrome JSON. Written from
 * docs/perfetto.md "The order of a JSON stream", not from the writer. */
#include "rt-util.h"

typedef struct
{
  const TraceBatch *b;
  gboolean slow;    /* the stream has a complete slice */
  gint64 sort_from; /* events from this time on are sorted */
} JsonOrder;

static gint64
json_rank (const TraceEvent *ev)
{
  if (ev->kind == TRACE_EVENT_SLICE_END)
    return G_MININT64;
  if (ev->kind == TRACE_EVENT_SLICE_COMPLETE && ev->u.slice.dur > 0)
    return G_MAXINT64 - ev->u.slice.dur;
  return G_MAXINT64;
}

static gint
cmp_json_order (gconstpointer a,
                gconstpointer b,
                gpointer data)
{
  const JsonOrder *o = data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  const TraceEvent *ea = &o->b->events[ia], *eb = &o->b->events[ib];
  gint64 ra, rb;

  if (ea->ts != eb->ts)
    return ea->ts < eb->ts ? -1 : 1;
  ra = o->slow && ea->ts >= o->sort_from ? json_rank (ea) : 0;
  rb = o->slow && eb->ts >= o->sort_from ? json_rank (eb) : 0;
  if (ra != rb)
    return ra < rb ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

/**
 * rt_json_order:
 * @b: the events of a JSON trace, in file order
 *
 * Returns: (transfer full): the indexes of @b's events in the order
 *   trace_processor reads a JSON trace (docs/perfetto.md): in time order;
 *   at one time, where the file is out of order (or repeats a time once it
 *   had a complete slice), ends first, then complete slices longest first,
 *   then the rest as they came
 */
GArray *
rt_json_order (const TraceBatch *b)
{
  JsonOrder o = { b, FALSE, G_MAXINT64 };
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), b->n_events);
  gint64 max_ts = 0;

  for (guint i = 0; i < b->n_events; i++)
    {
      const TraceEvent *ev = &b->events[i];

      g_array_append_val (order, i);
      if (ev->kind == TRACE_EVENT_SAMPLE || ev->kind == TRACE_EVENT_STACK_NODE)
        continue;
      o.slow |= ev->kind == TRACE_EVENT_SLICE_COMPLETE;
      if (ev->ts > max_ts || (!o.slow && ev->ts == max_ts))
        max_ts = ev->ts;
      else
        o.sort_from = MIN (o.sort_from, ev->ts);
    }
  g_array_sort_with_data (order, cmp_json_order, &o);
  return order;
}
