/* tracepipe - json plugin: the flows bound to slices, as v1 events or v2
 * bind ids
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A slice's first pair of flow ids is in the event; the flows a
 * TrackEvent binds past them travel as its args
 * (TRACE_EVENT_FLAG_MORE_FLOWS). chrome_writer_take_more_flows() moves
 * those out of the args before the slice is written or held, and
 * chrome_writer_put_slice_flows_v1() writes them after the first pair.
 */
#include "config.h"

#include "json-writer-private.h"

typedef struct
{
  guint64 in, out;
} FlowPair;

/* Whether the slice's flow ids go as v2 (bind_id): all of them if the
 * user chose v2 or the stream is Chrome JSON; else those a source marked
 * as flow v2, which v1 events cannot carry (one sender, many receivers). */
gboolean
chrome_writer_slice_flows_v2 (const ChromeWriter *w,
                              const TraceEvent *ev)
{
  return w->opts.flows == CHROME_FLOWS_V2 || (w->flows_auto && (ev->flags & TRACE_EVENT_FLAG_FLOW_V2));
}

void
chrome_writer_put_id_member (ChromeWriter *w,
                             const char *key,
                             guint64 id)
{
  g_string_append_printf (w->buf, ",\"%s\":", key);
  chrome_fmt_hex_id (w->buf, id);
}

/* trace_processor never closes a flow of a JSON file (a v1 `f` and a v2
 * `flow_in` leave its id bound), so an id used again after its flow ended
 * (a TrackEvent terminating_flow_ids, then flow_ids) is a
 * flow_duplicate_id to it. A v1 flow is keyed by id, category and name:
 * each later flow of an ended id gets a name of its own, `flow#N`. */
static guint32
v1_flow_name (ChromeWriter *w,
              guint64 id)
{
  guint generation = GPOINTER_TO_UINT (g_hash_table_lookup (w->ended_flows, &id));
  g_autofree char *name = NULL;

  if (generation == 0)
    return w->str_flow;
  name = g_strdup_printf ("flow#%u", generation);
  return trace_string_pool_intern (w->pool, name);
}

static void
put_v1_flow_event (ChromeWriter *w,
                   const char *ph,
                   guint64 id,
                   const TraceEvent *ev)
{
  chrome_writer_event_open (w, ph, v1_flow_name (w, id), 0, ev->ts, ev->pid, ev->tid);
  chrome_writer_put_id_member (w, "id", id);
  g_string_append (w->buf, ",\"bp\":\"e\"}");
}

/* One flow of a slice as v1 events: an id received and sent on is a
 * step, one received ends its flow, one sent starts one. */
static void
put_v1_flow_pair (ChromeWriter *w,
                  guint64 in,
                  guint64 out,
                  const TraceEvent *ev)
{
  if (in != 0 && in == out)
    {
      put_v1_flow_event (w, "t", in, ev);
      return;
    }
  if (in != 0)
    {
      guint generation = GPOINTER_TO_UINT (g_hash_table_lookup (w->ended_flows, &in));

      put_v1_flow_event (w, "f", in, ev);
      g_hash_table_insert (w->ended_flows, g_memdup2 (&in, sizeof in), GUINT_TO_POINTER (generation + 1));
    }
  if (out != 0)
    put_v1_flow_event (w, "s", out, ev);
}

/* flow v1 events standing for the flow ids bound to a slice, and for the
 * flows taken from its args (chrome_writer_take_more_flows()) */
void
chrome_writer_put_slice_flows_v1 (ChromeWriter *w,
                                  const TraceEvent *ev)
{
  if (chrome_writer_slice_flows_v2 (w, ev))
    {
      chrome_writer_drop_more_flows (w);
      return;
    }
  put_v1_flow_pair (w, ev->u.slice.flow_in, ev->u.slice.flow_out, ev);
  for (guint i = 0; w->more_flows != NULL && i < w->more_flows->len; i++)
    {
      const FlowPair *p = &g_array_index (w->more_flows, FlowPair, i);

      put_v1_flow_pair (w, p->in, p->out, ev);
    }
  if (w->more_flows != NULL)
    g_array_set_size (w->more_flows, 0);
}

/* One flow as a v2 bind_id with its direction. */
static void
put_bind_id (ChromeWriter *w,
             guint64 in,
             guint64 out)
{
  /* one bind_id per event: a slice with two different flows keeps the
   * outgoing one */
  if (in != 0 && out != 0 && in != out)
    {
      chrome_writer_count_drop (w, &w->stats.dropped_flows, "flow id dropped: a slice with two different flow ids");
      in = 0;
    }
  chrome_writer_put_id_member (w, "bind_id", out ? out : in);
  if (in != 0)
    g_string_append (w->buf, ",\"flow_in\":true");
  if (out != 0)
    g_string_append (w->buf, ",\"flow_out\":true");
}

void
chrome_writer_put_slice_flows_v2 (ChromeWriter *w,
                                  const TraceEvent *ev)
{
  guint64 in = ev->u.slice.flow_in, out = ev->u.slice.flow_out;

  if (!chrome_writer_slice_flows_v2 (w, ev) || (in == 0 && out == 0))
    return;
  put_bind_id (w, in, out);
}

/**
 * chrome_writer_put_async_flow:
 * @w: the writer
 * @ph: the phase the async event is written as
 *
 * Writes the first flow of an async event (chrome_writer_take_more_flows()
 * took them all from its args) as its bind_id: trace_processor binds a
 * v2 flow of a `b` or `n` to the async slice, one per event, and none of
 * the other phases, whatever the flows option (a v1 event binds only to
 * a thread slice). The flows left are counted by
 * chrome_writer_drop_more_flows().
 */
void
chrome_writer_put_async_flow (ChromeWriter *w,
                              const char *ph)
{
  FlowPair p;

  if (w->more_flows == NULL || w->more_flows->len == 0 || ph[1] != '\0' || (ph[0] != 'b' && ph[0] != 'n'))
    return;
  p = g_array_index (w->more_flows, FlowPair, 0);
  g_array_remove_index (w->more_flows, 0);
  put_bind_id (w, p.in, p.out);
}

/* The flows taken from an event's args and not written (a v2 bind_id is
 * one per event; an end that ends no slice written here): counted. */
void
chrome_writer_drop_more_flows (ChromeWriter *w)
{
  if (w->more_flows == NULL || w->more_flows->len == 0)
    return;
  w->stats.dropped_flows += w->more_flows->len - 1;
  chrome_writer_count_drop (w, &w->stats.dropped_flows,
                            "flow ids dropped: more than one flow bound to a slice written as v2 or without its begin, "
                            "or bound to an async event of a phase that binds none");
  g_array_set_size (w->more_flows, 0);
}

/* The event's args without its flows, copied to w->flow_scratch. */
static TraceEvent *
copy_without_flows (ChromeWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);
  TraceEvent *copy;

  if (w->flow_scratch == NULL)
    w->flow_scratch = trace_batch_new (batch->pool, 1);
  trace_batch_clear (w->flow_scratch);
  copy = trace_batch_append (w->flow_scratch, ev->kind, ev->ts);
  *copy = *ev;
  copy->flags &= ~TRACE_EVENT_FLAG_MORE_FLOWS;
  copy->first_arg = w->flow_scratch->n_args;
  copy->n_args = 0;
  for (guint i = 0; i < ev->n_args; i++)
    {
      if (trace_batch_arg_is_slice_flow (batch, ev, &args[i]))
        continue;
      if (args[i].type == TRACE_ARG_TEXT)
        trace_batch_add_arg_text (w->flow_scratch, copy, args[i].key, batch->text + args[i].v.text.offset,
                                  args[i].v.text.len);
      else
        trace_batch_add_arg (w->flow_scratch, copy, args[i].key, args[i].type)->v = args[i].v;
    }
  return copy;
}

/**
 * chrome_writer_take_more_flows:
 * @w: the writer
 * @batch: (inout): the batch of @ev; given back: the batch of the copy
 * @ev: a slice or async event with %TRACE_EVENT_FLAG_MORE_FLOWS
 *
 * Keeps the flows @ev binds past its first pair (all of an async
 * event's) for chrome_writer_put_slice_flows_v1() or
 * chrome_writer_put_async_flow(), and gives a copy of @ev without
 * them in its args, valid until the next call. w->batch_text is the
 * copy's while it is written.
 *
 * Returns: the copy
 */
const TraceEvent *
chrome_writer_take_more_flows (ChromeWriter *w,
                               TraceBatch **batch,
                               const TraceEvent *ev)
{
  FlowPair p;
  guint iter = 0;
  TraceEvent *copy;

  if (w->more_flows == NULL)
    w->more_flows = g_array_new (FALSE, FALSE, sizeof (FlowPair));
  g_array_set_size (w->more_flows, 0);
  while (trace_batch_next_slice_flow (*batch, ev, &iter, &p.in, &p.out))
    g_array_append_val (w->more_flows, p);
  copy = copy_without_flows (w, *batch, ev);
  *batch = w->flow_scratch;
  w->batch_text = w->flow_scratch->text;
  return copy;
}
