/* tracepipe - filter: the engine's pass over a batch
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per event: metadata passes; a slice end, an async end or step follows
 * the decision its begin got (a stack per thread, per async id); anything
 * else is decided by the conditions (filters-conditions.c).  The time window
 * is a small state machine over the stream (before / inside / after):
 * crossing its start emits clipped begins for the kept slices open at that
 * moment, crossing its end emits their ends, so no slice is cut in half.
 * See docs/filters.md.
 */
#include "filters-private.h"

#include <string.h>

Filter *
filter_new (TraceStringPool *pool)
{
  Filter *f = g_new0 (Filter, 1);

  f->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  filter_knowledge_init (&f->k);
  f->inserts = g_array_new (FALSE, FALSE, sizeof (Insert));
  f->scratch = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  f->clip_key = trace_string_pool_intern (f->pool, "window-clip");
  f->clip_start = trace_string_pool_intern (f->pool, "start");
  f->clip_end = trace_string_pool_intern (f->pool, "end");
  return f;
}

/**
 * filter_new_with_options:
 * @pool: (nullable): the pipeline's string pool, or %NULL for the default
 * @opts: the element's options
 * @error: a %TRACE_PARSE_ERROR_BAD_VALUE when the window does not parse
 *
 * The engine of an element: every slice is tracked from the first batch
 * on, even with no condition set, so that conditions set later (a
 * property changed while playing, see filter_set_conditions()) find the
 * slices already open and keep or drop them whole.
 *
 * Returns: (transfer full) (nullable): the filter, or %NULL on error
 */
Filter *
filter_new_with_options (TraceStringPool *pool,
                         const FilterOptions *opts,
                         GError **error)
{
  g_autoptr (Filter) f = NULL;

  g_return_val_if_fail (opts != NULL, NULL);

  f = filter_new (pool);
  f->live = TRUE;
  filter_set_conditions (f, opts);
  /* Strings, not int64 times: "+1.5s" must stay distinct from "1.5s". */
  if (!filter_set_window_from_string (f, opts->start, opts->end, error))
    return NULL;
  return g_steal_pointer (&f);
}

void
filter_free (Filter *f)
{
  if (f == NULL)
    return;
  filter_glob_clear (&f->process_name);
  filter_glob_clear (&f->thread_name);
  filter_glob_clear (&f->name);
  filter_glob_clear (&f->category);
  filter_knowledge_clear (&f->k);
  g_clear_pointer (&f->named_main, g_hash_table_unref);
  g_array_unref (f->inserts);
  g_array_unref (f->scratch);
  trace_string_pool_unref (f->pool);
  g_free (f);
}

/* The first timed event: relative edges become times of the stream. */
static void
window_resolve (Filter *f,
                gint64 ts)
{
  f->have_ts = TRUE;
  f->first_ts = f->last_ts = ts;
  if (f->start_relative)
    f->start = trace_time_add_saturated (ts, f->start);
  if (f->end_relative)
    f->end = trace_time_add_saturated (ts, f->end);
}

void
filter_get_stats (Filter *f,
                  FilterStats *stats)
{
  *stats = f->stats;
}

/* ---- output ----------------------------------------------------------- */

static void
drop_event (Filter *f,
            TraceEvent *ev,
            guint reason)
{
  /* the first of each reason only: this runs per event */
  if (f->stats.dropped[reason]++ == 0)
    g_debug ("first event dropped by %s: ts=%" G_GINT64_FORMAT " pid=%" G_GINT64_FORMAT " tid=%" G_GINT64_FORMAT,
             filter_drop_reason_to_string (reason), ev->ts, ev->pid, ev->tid);
  ev->kind = TRACE_EVENT_NONE;
}

static gboolean
in_window (Filter *f,
           gint64 ts)
{
  return (!f->has_start || ts >= f->start) && (!f->has_end || ts <= f->end);
}

static gint64
clamp_to_window (Filter *f,
                 gint64 ts)
{
  if (f->has_start && ts < f->start)
    return f->start;
  if (f->has_end && ts > f->end)
    return f->end;
  return ts;
}

/* Appends an event modelled on an open slice's begin, at @ts, marked as
 * made at a window edge; it is moved before the current event later. */
static void
emit_edge (Filter *f,
           const TraceEvent *begin,
           guint kind,
           gint64 ts,
           guint32 edge)
{
  TraceEvent *ev = trace_batch_append (f->cur, kind, ts);
  guint64 id = begin->u.async.id;
  guint32 scope = begin->u.async.scope, track = begin->u.async.track;

  ev->pid = begin->pid;
  ev->tid = begin->tid;
  ev->name = begin->name;
  ev->category = begin->category;
  ev->cpu = begin->cpu;
  ev->flags = (begin->flags & ~TRACE_EVENT_FLAG_FLOW_NEXT_SLICE) | TRACE_EVENT_FLAG_REPAIRED;
  if (kind == TRACE_EVENT_SLICE_BEGIN || kind == TRACE_EVENT_SLICE_END)
    ev->u.slice.track = begin->u.slice.track;
  else
    {
      ev->u.async.id = id;
      ev->u.async.scope = scope;
      ev->u.async.track = track;
    }
  trace_batch_add_arg (f->cur, ev, f->clip_key, TRACE_ARG_STRING)->v.s = edge;
  f->stats.synthesized++;
  if (!f->draining)
    {
      Insert ins = { f->cur_index, f->cur->n_events - 1 };

      g_array_append_val (f->inserts, ins);
    }
}

static void
open_pending (Filter *f,
              GArray *stack,
              guint begin_kind)
{
  for (guint i = 0; stack && i < stack->len; i++)
    {
      SliceEntry *e = &g_array_index (stack, SliceEntry, i);

      if (e->state != ENTRY_PENDING)
        continue;
      emit_edge (f, &e->begin, begin_kind, f->start, f->clip_start);
      e->state = ENTRY_EMITTED;
    }
}

static void
close_emitted (Filter *f,
               GArray *stack,
               guint end_kind)
{
  for (guint i = stack ? stack->len : 0; i-- > 0;)
    {
      SliceEntry *e = &g_array_index (stack, SliceEntry, i);

      if (e->state != ENTRY_EMITTED)
        continue;
      emit_edge (f, &e->begin, end_kind, f->end, f->clip_end);
      e->state = ENTRY_CLOSED;
    }
}

/* The stream reached the window: every kept slice open now begins at
 * the start edge (outermost first). */
static void
window_enter (Filter *f)
{
  for (guint i = 0; i < f->k.thread_list->len; i++)
    open_pending (f, ((FilterThread *) f->k.thread_list->pdata[i])->stack, TRACE_EVENT_SLICE_BEGIN);
  for (guint i = 0; i < f->k.async_list->len; i++)
    open_pending (f, ((AsyncState *) f->k.async_list->pdata[i])->stack, TRACE_EVENT_ASYNC_BEGIN);
  f->phase = PHASE_INSIDE;
}

/* The stream left the window: every emitted slice ends at the end edge
 * (innermost first). */
static void
window_leave (Filter *f)
{
  for (guint i = 0; i < f->k.thread_list->len; i++)
    close_emitted (f, ((FilterThread *) f->k.thread_list->pdata[i])->stack, TRACE_EVENT_SLICE_END);
  for (guint i = 0; i < f->k.async_list->len; i++)
    close_emitted (f, ((AsyncState *) f->k.async_list->pdata[i])->stack, TRACE_EVENT_ASYNC_END);
  f->phase = PHASE_AFTER;
}

static void
window_advance (Filter *f,
                gint64 ts)
{
  if (f->phase == PHASE_BEFORE && ts >= f->start)
    window_enter (f);
  if (f->phase != PHASE_AFTER && f->has_end && ts > f->end)
    {
      if (f->phase == PHASE_BEFORE)
        window_enter (f);
      window_leave (f);
    }
}

/* ---- per kind --------------------------------------------------------- */

/* A begin (thread or async): decide, remember the decision for its end. */
static void
handle_begin (Filter *f,
              TraceEvent *ev,
              FilterThread *thread,
              GArray *stack)
{
  SliceEntry entry = { 0 };
  guint8 reason = 0;

  entry.keep = filter_decide (f, ev, thread, TRUE, &reason);
  entry.reason = reason;
  entry.state = ENTRY_EMITTED;
  if (f->has_window)
    entry.begin = *ev;
  if (!entry.keep)
    entry.state = ENTRY_DROPPED;
  else if (f->phase == PHASE_BEFORE)
    {
      entry.state = ENTRY_PENDING; /* may begin again at the start edge */
      entry.reason = FILTER_DROP_WINDOW;
    }
  else if (f->has_end && ev->ts > f->end)
    {
      entry.state = ENTRY_DROPPED;
      entry.reason = FILTER_DROP_WINDOW;
    }
  else if (f->has_start && ev->ts < f->start)
    ev->ts = f->start; /* a late event: clip like the others */
  g_array_append_val (stack, entry);

  f->stats.slices_in++;
  f->stats.slices_kept += entry.keep;
  if (entry.state == ENTRY_EMITTED)
    f->stats.kept++;
  else
    drop_event (f, ev, entry.reason);
}

/* An end: follows its begin.  Returns FALSE when there was none. */
static gboolean
handle_end (Filter *f,
            TraceEvent *ev,
            GArray *stack)
{
  SliceEntry *e;

  if (stack == NULL || stack->len == 0)
    return FALSE;
  e = &g_array_index (stack, SliceEntry, stack->len - 1);
  if (e->state == ENTRY_EMITTED)
    {
      ev->ts = clamp_to_window (f, ev->ts);
      f->stats.kept++;
    }
  else
    drop_event (f, ev, e->state == ENTRY_DROPPED ? e->reason : FILTER_DROP_WINDOW);
  g_array_set_size (stack, stack->len - 1);
  return TRUE;
}

/* Anything decided on its own: instants, counters, kernel records… */
static void
handle_single (Filter *f,
               TraceEvent *ev,
               FilterThread *thread,
               gboolean with_names)
{
  guint8 reason = 0;

  if (!filter_decide (f, ev, thread, with_names, &reason))
    drop_event (f, ev, reason);
  else if (!in_window (f, ev->ts))
    drop_event (f, ev, FILTER_DROP_WINDOW);
  else
    f->stats.kept++;
}

static void
handle_complete (Filter *f,
                 TraceEvent *ev,
                 FilterThread *thread)
{
  guint8 reason = 0;
  gint64 s = ev->ts, e = ev->ts + MAX (ev->u.slice.dur, 0);

  f->stats.slices_in++;
  if (!filter_decide (f, ev, thread, TRUE, &reason))
    {
      drop_event (f, ev, reason);
      return;
    }
  if ((f->has_start && e < f->start) || (f->has_end && s > f->end))
    {
      drop_event (f, ev, FILTER_DROP_WINDOW);
      return;
    }
  if (clamp_to_window (f, s) != s || clamp_to_window (f, e) != e)
    {
      ev->ts = clamp_to_window (f, s);
      ev->u.slice.dur = clamp_to_window (f, e) - ev->ts;
      f->stats.clipped++;
    }
  f->stats.slices_kept++;
  f->stats.kept++;
}

static GArray *
thread_stack (FilterThread *thread)
{
  if (thread->stack == NULL)
    thread->stack = g_array_new (FALSE, FALSE, sizeof (SliceEntry));
  return thread->stack;
}

static void
handle_async (Filter *f,
              TraceEvent *ev,
              FilterThread *thread)
{
  gint64 pid = filter_knowledge_resolve_pid (&f->k, ev, ev->tid >= 0 ? thread : NULL);
  AsyncState *state = filter_knowledge_async (&f->k, ev, pid, ev->kind == TRACE_EVENT_ASYNC_BEGIN);

  if (ev->kind == TRACE_EVENT_ASYNC_BEGIN)
    handle_begin (f, ev, thread, state->stack);
  else if (ev->kind == TRACE_EVENT_ASYNC_END)
    {
      if (!handle_end (f, ev, state ? state->stack : NULL))
        handle_single (f, ev, thread, FALSE);
      if (state && state->stack->len == 0)
        filter_knowledge_async_release (&f->k, state);
    }
  else if (state && state->stack->len > 0)
    {
      /* a step belongs to its slice: kept when it is, inside the window */
      SliceEntry *e = &g_array_index (state->stack, SliceEntry, state->stack->len - 1);

      if (e->state != ENTRY_EMITTED)
        drop_event (f, ev, e->state == ENTRY_DROPPED ? e->reason : FILTER_DROP_WINDOW);
      else if (!in_window (f, ev->ts))
        drop_event (f, ev, FILTER_DROP_WINDOW);
      else
        f->stats.kept++;
    }
  else
    handle_single (f, ev, thread, TRUE);
}

static gboolean
always_passes (guint kind)
{
  return (trace_event_kind_get_group (kind) & (TRACE_EVENT_GROUP_METADATA | TRACE_EVENT_GROUP_CLOCK)) || kind == TRACE_EVENT_STACK_NODE;
}

static void
filter_event (Filter *f,
              guint index)
{
  TraceEvent *ev = &f->cur->events[index];
  FilterThread *thread = NULL;
  guint kind = ev->kind;

  if (ev->tid >= 0 || trace_event_is_slice_like (kind))
    thread = filter_knowledge_thread (&f->k, ev->tid, ev->pid);
  /* an element's engine learns even with no condition: one set while
   * playing needs the names and pids seen before (this decides nothing) */
  if (f->has_conditions || f->live)
    filter_knowledge_learn (&f->k, ev, ev->tid >= 0 ? thread : NULL, f->want_names);

  if (kind == TRACE_EVENT_NONE)
    return;
  if (always_passes (kind))
    {
      f->stats.metadata++;
      f->stats.kept++;
      return;
    }
  if (f->has_window)
    {
      if (G_UNLIKELY (!f->have_ts))
        window_resolve (f, ev->ts);
      f->last_ts = MAX (f->last_ts, ev->ts);
      window_advance (f, ev->ts);
      ev = &f->cur->events[index]; /* edges may have grown the batch */
    }

  switch (kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      handle_begin (f, ev, thread, thread_stack (thread));
      break;
    case TRACE_EVENT_SLICE_END:
      if (!handle_end (f, ev, thread->stack))
        handle_single (f, ev, thread, FALSE);
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      handle_complete (f, ev, thread);
      break;
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_END:
      handle_async (f, ev, thread);
      break;
    default:
      handle_single (f, ev, thread, TRUE);
      break;
    }
}

/* Moves the events synthesized at window edges before the event that
 * crossed the edge, and drops the NONE slots, in one pass. */
static void
filter_merge_inserts (Filter *f,
                      TraceBatch *batch,
                      guint n_original)
{
  const Insert *ins = (const Insert *) f->inserts->data;
  guint n_ins = f->inserts->len, j = 0;

  g_array_set_size (f->scratch, 0);
  for (guint i = 0; i < n_original; i++)
    {
      for (; j < n_ins && ins[j].before == i; j++)
        g_array_append_val (f->scratch, batch->events[ins[j].index]);
      if (batch->events[i].kind != TRACE_EVENT_NONE)
        g_array_append_val (f->scratch, batch->events[i]);
    }
  for (; j < n_ins; j++)
    g_array_append_val (f->scratch, batch->events[ins[j].index]);
  /* the batch holds n_original + n_ins slots, at least as many */
  memcpy (batch->events, f->scratch->data, f->scratch->len * sizeof (TraceEvent));
  batch->n_events = f->scratch->len;
}

/**
 * filter_process:
 * @batch: a writable batch, filtered in place
 *
 * Drops the events that do not match and may add slice begins and ends
 * at the window's edges (placed where the stream crossed the edge).
 */
void
filter_process (Filter *f,
                TraceBatch *batch)
{
  guint n;

  g_return_if_fail (f != NULL);
  g_return_if_fail (batch != NULL);

  n = batch->n_events;
  f->stats.events_in += n;
  f->started = TRUE;
  if (!f->has_conditions && !f->has_window && !f->live)
    {
      f->stats.kept += n;
      return;
    }
  f->cur = batch;
  f->draining = FALSE;
  g_array_set_size (f->inserts, 0);
  for (guint i = 0; i < n; i++)
    {
      f->cur_index = i;
      filter_event (f, i);
    }
  if (f->inserts->len > 0)
    filter_merge_inserts (f, batch, n);
  else
    trace_batch_remove_none (batch);
  f->cur = NULL;
}

/**
 * filter_drain:
 *
 * At EOS: when the stream went past the window's end, slices that began
 * late (out-of-order input) and are still open end at the end edge.
 * Slices open at EOS inside the window stay open, as in the input.
 *
 * Returns: (transfer full) (nullable): a batch of ends, or %NULL
 */
TraceBatch *
filter_drain (Filter *f)
{
  TraceBatch *batch;

  g_return_val_if_fail (f != NULL, NULL);

  if (!f->has_window || f->phase != PHASE_AFTER)
    return NULL;
  batch = trace_batch_new (f->pool, 16);
  f->cur = batch;
  f->draining = TRUE;
  window_leave (f);
  f->cur = NULL;
  f->draining = FALSE;
  if (batch->n_events == 0)
    g_clear_pointer (&batch, trace_batch_unref);
  return batch;
}
