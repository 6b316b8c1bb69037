/* tracepipe - the flows a slice binds beyond the first pair
 *
 * A TrackEvent may bind any number of flows to one slice (its repeated
 * `flow_ids` and `terminating_flow_ids`); a Chrome JSON event binds one.
 * So a slice event keeps its first pair in `u.slice.flow_out` and
 * `flow_in`, where every element reads them at no cost, and each flow
 * past them as an arg of type %TRACE_ARG_UINT under
 * %TRACE_ARG_KEY_FLOW_IN or %TRACE_ARG_KEY_FLOW_OUT, with the event
 * flagged %TRACE_EVENT_FLAG_MORE_FLOWS: a sink looks for them in an
 * event's args only when the flag says they are there. An async event
 * binds flows the same way, all of them as args: `u.async` has no room
 * for a pair, and a flow on an async slice is rare enough that its arg
 * costs less than a larger #TraceEvent would cost every event. A step (an id the
 * slice receives and sends on) is a `flow_in` arg followed by a
 * `flow_out` arg of the same id, as it is the same id in both fields.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <trace/trace.h>

/* The pool ids of the two keys, G_MAXUINT32 for one the pool lacks. */
static void
flow_keys (const TraceBatch *batch,
           guint32 *key_in,
           guint32 *key_out)
{
  *key_in = trace_string_pool_lookup (batch->pool, TRACE_ARG_KEY_FLOW_IN, sizeof TRACE_ARG_KEY_FLOW_IN - 1);
  *key_out = trace_string_pool_lookup (batch->pool, TRACE_ARG_KEY_FLOW_OUT, sizeof TRACE_ARG_KEY_FLOW_OUT - 1);
}

/**
 * trace_batch_count_slice_flows:
 * @batch: a #TraceBatch
 * @event: an event of @batch
 *
 * How many flows @event binds, its `u.slice` pair and its args together:
 * what a sink with no form for flows counts as dropped.
 *
 * Returns: the number of flows, a step counting once
 */
guint
trace_batch_count_slice_flows (const TraceBatch *batch,
                               const TraceEvent *event)
{
  guint64 in, out;
  guint iter = 0;
  guint n = 0;

  g_return_val_if_fail (batch != NULL && event != NULL, 0);

  if (trace_event_is_slice_like (event->kind))
    n = (event->u.slice.flow_out != 0) +
        (event->u.slice.flow_in != 0 && event->u.slice.flow_in != event->u.slice.flow_out);
  while (trace_batch_next_slice_flow (batch, event, &iter, &in, &out))
    n++;
  return n;
}

static void
add_flow_arg (TraceBatch *batch,
              TraceEvent *event,
              const char *key,
              guint64 id)
{
  TraceArg *arg = trace_batch_add_arg (batch, event, trace_string_pool_intern (batch->pool, key), TRACE_ARG_UINT);

  if (arg != NULL)
    arg->v.u = id;
}

/**
 * trace_batch_add_slice_flow:
 * @batch: a writable #TraceBatch
 * @event: the last event of @batch, a slice, its end or an instant, or
 *   an async event (trace_event_binds_flows())
 * @flow_in: an id the slice receives, 0 for none
 * @flow_out: an id the slice sends, 0 for none
 *
 * Binds one more flow to @event, as `u.slice.flow_in`/`flow_out` say: the
 * same id in both is a step. On a thread slice it goes in those fields
 * while they are free, else (and always on an async event) in the args
 * (%TRACE_EVENT_FLAG_MORE_FLOWS); call it in the order the input gives
 * the ids, which is the order sinks write them in.
 *
 * Returns: %FALSE when @event binds %TRACE_SLICE_MAX_FLOWS flows already:
 *   the flow is not bound, for the caller to count
 */
gboolean
trace_batch_add_slice_flow (TraceBatch *batch,
                            TraceEvent *event,
                            guint64 flow_in,
                            guint64 flow_out)
{
  g_return_val_if_fail (batch != NULL && event != NULL, FALSE);
  g_return_val_if_fail (trace_event_binds_flows (event->kind), FALSE);

  if (flow_in == 0 && flow_out == 0)
    return TRUE;
  if (trace_event_is_slice_like (event->kind) && !(event->flags & TRACE_EVENT_FLAG_MORE_FLOWS))
    {
      gboolean fits_in = flow_in == 0 || (event->u.slice.flow_in == 0 && flow_in != event->u.slice.flow_out);
      gboolean fits_out = flow_out == 0 || (event->u.slice.flow_out == 0 && flow_out != event->u.slice.flow_in);

      if (fits_in && fits_out)
        {
          if (flow_in != 0)
            event->u.slice.flow_in = flow_in;
          if (flow_out != 0)
            event->u.slice.flow_out = flow_out;
          return TRUE;
        }
    }
  if (trace_batch_count_slice_flows (batch, event) >= TRACE_SLICE_MAX_FLOWS)
    return FALSE;
  if (flow_in != 0)
    add_flow_arg (batch, event, TRACE_ARG_KEY_FLOW_IN, flow_in);
  if (flow_out != 0)
    add_flow_arg (batch, event, TRACE_ARG_KEY_FLOW_OUT, flow_out);
  event->flags |= TRACE_EVENT_FLAG_MORE_FLOWS;
  return TRUE;
}

/**
 * trace_batch_next_slice_flow:
 * @batch: a #TraceBatch
 * @event: an event of @batch
 * @iter: (inout): 0 before the first call, then left as it is given back
 * @flow_in: (out): the id the slice receives, 0 for none
 * @flow_out: (out): the id the slice sends, 0 for none
 *
 * Gives the flows @event binds past `u.slice.flow_in`/`flow_out` (all
 * those of an async event), one per call, in the order they were added.
 *
 * Returns: %FALSE when there is none left (at once without
 *   %TRACE_EVENT_FLAG_MORE_FLOWS)
 */
gboolean
trace_batch_next_slice_flow (const TraceBatch *batch,
                             const TraceEvent *event,
                             guint *iter,
                             guint64 *flow_in,
                             guint64 *flow_out)
{
  const TraceArg *args;
  guint32 key_in, key_out;

  g_return_val_if_fail (batch != NULL && event != NULL && iter != NULL, FALSE);

  if (!(event->flags & TRACE_EVENT_FLAG_MORE_FLOWS))
    return FALSE;
  args = trace_batch_get_args (batch, event);
  flow_keys (batch, &key_in, &key_out);
  for (guint i = *iter; i < event->n_args; i++)
    {
      const TraceArg *a = &args[i];

      if (a->type != TRACE_ARG_UINT || (a->key != key_in && a->key != key_out))
        continue;
      *flow_in = a->key == key_in ? a->v.u : 0;
      *flow_out = a->key == key_out ? a->v.u : 0;
      *iter = i + 1;
      /* a step: the same id received, then sent */
      if (a->key == key_in && i + 1 < event->n_args && args[i + 1].key == key_out &&
          args[i + 1].type == TRACE_ARG_UINT && args[i + 1].v.u == a->v.u)
        {
          *flow_out = a->v.u;
          *iter = i + 2;
        }
      return TRUE;
    }
  *iter = event->n_args;
  return FALSE;
}

/**
 * trace_batch_arg_is_slice_flow:
 * @batch: a #TraceBatch
 * @event: an event of @batch
 * @arg: one of @event's args
 *
 * Whether @arg is one of the flows @event binds
 * (%TRACE_EVENT_FLAG_MORE_FLOWS), which a sink writes as a flow, not as
 * an arg.
 *
 * Returns: %TRUE for such an arg
 */
gboolean
trace_batch_arg_is_slice_flow (const TraceBatch *batch,
                               const TraceEvent *event,
                               const TraceArg *arg)
{
  guint32 key_in, key_out;

  g_return_val_if_fail (batch != NULL && event != NULL && arg != NULL, FALSE);

  if (!(event->flags & TRACE_EVENT_FLAG_MORE_FLOWS) || arg->type != TRACE_ARG_UINT)
    return FALSE;
  flow_keys (batch, &key_in, &key_out);
  return arg->key == key_in || arg->key == key_out;
}
