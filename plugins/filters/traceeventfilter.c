/* tracepipe - the logic of the `filter` and `main-thread-filter` elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per event: metadata passes; a slice end, an async end or step follows
 * the decision its begin got (a stack per thread, per async id); anything
 * else is decided by the conditions.  The time window is a small state
 * machine over the stream (before / inside / after): crossing its start
 * emits clipped begins for the kept slices open at that moment, crossing
 * its end emits their ends, so no slice is cut in half.  See
 * docs/filters.md.
 */
#include "filter-private.h"

#include <string.h>

typedef enum
{
  PHASE_BEFORE,
  PHASE_INSIDE,
  PHASE_AFTER,
} WindowPhase;

typedef enum
{
  MATCH_YES,
  MATCH_NO,
  MATCH_UNKNOWN,
} Match;

/* A synthesized event waiting to be moved before original event `before`;
 * it was appended to the batch at `index` (so its args are in place). */
typedef struct
{
  guint before;
  guint index;
} Insert;

struct _TraceEventFilter
{
  TraceStringPool *pool;

  gboolean has_tid;
  gboolean tid_main;
  gint64 tid;
  gboolean has_pid;
  gint64 pid;
  FilterGlob process_name;
  FilterGlob thread_name;
  FilterGlob name;
  FilterGlob category;
  guint kinds; /* TraceEventGroup, 0 for all */
  gboolean has_start;
  gboolean has_end;
  gint64 start;
  gint64 end;
  /* +1.5s: start/end hold offsets from the first timed event until it
   * comes (window_resolve) */
  gboolean start_relative;
  gboolean end_relative;
  gboolean have_ts; /* a timed event came: first_ts, last_ts are set */
  gint64 first_ts;  /* of the first timed event, in stream order */
  gint64 last_ts;   /* the latest timed event */
  gboolean invert;
  gboolean keep_unknown;

  /* derived from the conditions */
  gboolean has_conditions;
  gboolean has_window;
  gboolean want_names;

  FilterKnowledge k;
  gboolean started;
  WindowPhase phase;
  TraceEventFilterStats stats;

  TraceBatch *cur;   /* the batch being filtered, or the drain's */
  guint cur_index;   /* the original event being looked at */
  gboolean draining; /* synthesized events are appended, not moved */
  GArray *inserts;   /* Insert */
  GArray *scratch;   /* TraceEvent, to merge inserts in one pass */
  guint32 clip_key;
  guint32 clip_start;
  guint32 clip_end;
};

TraceEventFilter *
trace_event_filter_new (TraceStringPool *pool)
{
  TraceEventFilter *f = g_new0 (TraceEventFilter, 1);

  f->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  filter_knowledge_init (&f->k);
  f->inserts = g_array_new (FALSE, FALSE, sizeof (Insert));
  f->scratch = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  f->clip_key = trace_string_pool_intern (f->pool, "window-clip");
  f->clip_start = trace_string_pool_intern (f->pool, "start");
  f->clip_end = trace_string_pool_intern (f->pool, "end");
  return f;
}

void
trace_event_filter_free (TraceEventFilter *f)
{
  if (f == NULL)
    return;
  filter_glob_clear (&f->process_name);
  filter_glob_clear (&f->thread_name);
  filter_glob_clear (&f->name);
  filter_glob_clear (&f->category);
  filter_knowledge_clear (&f->k);
  g_array_unref (f->inserts);
  g_array_unref (f->scratch);
  trace_string_pool_unref (f->pool);
  g_free (f);
}

static void
filter_update (TraceEventFilter *f)
{
  f->has_conditions = f->has_tid || f->has_pid || f->kinds != 0 || f->process_name.spec || f->thread_name.spec || f->name.spec || f->category.spec || f->invert;
  f->has_window = f->has_start || f->has_end;
  f->want_names = f->process_name.spec || f->thread_name.spec;
  if (!f->started)
    f->phase = f->has_start ? PHASE_BEFORE : PHASE_INSIDE;
}

void
trace_event_filter_set_tid (TraceEventFilter *f,
                            gint64 tid)
{
  f->has_tid = TRUE;
  f->tid_main = FALSE;
  f->tid = tid;
  filter_update (f);
}

void
trace_event_filter_set_tid_main (TraceEventFilter *f)
{
  f->has_tid = TRUE;
  f->tid_main = TRUE;
  filter_update (f);
}

void
trace_event_filter_unset_tid (TraceEventFilter *f)
{
  f->has_tid = FALSE;
  f->tid_main = FALSE;
  filter_update (f);
}

/**
 * trace_event_filter_set_tid_from_string:
 * @text: a thread id, `main`, or empty/%NULL for no tid condition
 */
gboolean
trace_event_filter_set_tid_from_string (TraceEventFilter *f,
                                        const char *text,
                                        GError **error)
{
  gint64 tid;

  if (text == NULL || *text == '\0')
    trace_event_filter_unset_tid (f);
  else if (g_ascii_strcasecmp (text, "main") == 0)
    trace_event_filter_set_tid_main (f);
  else if (g_ascii_string_to_signed (text, 10, 0, G_MAXINT64, &tid, NULL))
    trace_event_filter_set_tid (f, tid);
  else
    {
      g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE,
                   "invalid tid \"%s\": expected a thread id or \"main\"", text);
      return FALSE;
    }
  return TRUE;
}

void
trace_event_filter_set_pid (TraceEventFilter *f,
                            gint64 pid)
{
  f->has_pid = TRUE;
  f->pid = pid;
  filter_update (f);
}

void
trace_event_filter_unset_pid (TraceEventFilter *f)
{
  f->has_pid = FALSE;
  filter_update (f);
}

void
trace_event_filter_set_process_name (TraceEventFilter *f,
                                     const char *glob)
{
  filter_glob_set (&f->process_name, glob, FALSE);
  filter_update (f);
}

void
trace_event_filter_set_thread_name (TraceEventFilter *f,
                                    const char *glob)
{
  filter_glob_set (&f->thread_name, glob, FALSE);
  filter_update (f);
}

void
trace_event_filter_set_name (TraceEventFilter *f,
                             const char *glob)
{
  filter_glob_set (&f->name, glob, FALSE);
  filter_update (f);
}

void
trace_event_filter_set_category (TraceEventFilter *f,
                                 const char *glob)
{
  filter_glob_set (&f->category, glob, TRUE);
  filter_update (f);
}

void
trace_event_filter_set_kinds (TraceEventFilter *f,
                              TraceEventGroup kinds)
{
  f->kinds = kinds;
  filter_update (f);
}

void
trace_event_filter_set_start (TraceEventFilter *f,
                              gint64 start_ns)
{
  f->has_start = TRUE;
  f->start = start_ns;
  f->start_relative = FALSE;
  filter_update (f);
}

void
trace_event_filter_set_end (TraceEventFilter *f,
                            gint64 end_ns)
{
  f->has_end = TRUE;
  f->end = end_ns;
  f->end_relative = FALSE;
  filter_update (f);
}

/**
 * trace_event_filter_set_start_relative:
 * @offset_ns: how long after the first timed event the window starts
 *
 * The first timed event (not metadata, clock or stack node: the events the
 * window applies to) is only known once it comes, so the window is fixed
 * then; see docs/filters.md.
 */
void
trace_event_filter_set_start_relative (TraceEventFilter *f,
                                       gint64 offset_ns)
{
  trace_event_filter_set_start (f, offset_ns);
  f->start_relative = TRUE;
}

/**
 * trace_event_filter_set_end_relative:
 * @offset_ns: how long after the first timed event the window ends
 */
void
trace_event_filter_set_end_relative (TraceEventFilter *f,
                                     gint64 offset_ns)
{
  trace_event_filter_set_end (f, offset_ns);
  f->end_relative = TRUE;
}

/**
 * trace_event_filter_set_window_from_string:
 * @start: (nullable): `1212.5s` (the trace's clock), `+1.5s` (from the
 *   first timed event), or %NULL/empty for no start
 * @end: (nullable): the same for the end
 * @error: a %TRACE_PARSE_ERROR_BAD_VALUE naming the text
 */
gboolean
trace_event_filter_set_window_from_string (TraceEventFilter *f,
                                           const char *start,
                                           const char *end,
                                           GError **error)
{
  gint64 ns;
  gboolean relative;

  if (start && *start)
    {
      if (!trace_event_filter_parse_window_time (start, &ns, &relative, error))
        return g_prefix_error (error, "start: "), FALSE;
      relative ? trace_event_filter_set_start_relative (f, ns) : trace_event_filter_set_start (f, ns);
    }
  if (end && *end)
    {
      if (!trace_event_filter_parse_window_time (end, &ns, &relative, error))
        return g_prefix_error (error, "end: "), FALSE;
      relative ? trace_event_filter_set_end_relative (f, ns) : trace_event_filter_set_end (f, ns);
    }
  return TRUE;
}

static gint64
add_saturated (gint64 a,
               gint64 b)
{
  if (b > 0 && a > G_MAXINT64 - b)
    return G_MAXINT64;
  if (b < 0 && a < G_MININT64 - b)
    return G_MININT64;
  return a + b;
}

/* The first timed event: relative edges become times of the stream. */
static void
window_resolve (TraceEventFilter *f,
                gint64 ts)
{
  f->have_ts = TRUE;
  f->first_ts = f->last_ts = ts;
  if (f->start_relative)
    f->start = add_saturated (ts, f->start);
  if (f->end_relative)
    f->end = add_saturated (ts, f->end);
}

void
trace_event_filter_set_invert (TraceEventFilter *f,
                               gboolean invert)
{
  f->invert = invert;
  filter_update (f);
}

void
trace_event_filter_set_keep_unknown (TraceEventFilter *f,
                                     gboolean keep_unknown)
{
  f->keep_unknown = keep_unknown;
}

void
trace_event_filter_get_stats (TraceEventFilter *f,
                              TraceEventFilterStats *stats)
{
  *stats = f->stats;
}

/* ---- conditions ------------------------------------------------------- */

static Match
match_of (gboolean yes)
{
  return yes ? MATCH_YES : MATCH_NO;
}

static Match
check_tid (TraceEventFilter *f,
           const TraceEvent *ev,
           gint64 pid)
{
  if (ev->tid < 0)
    return MATCH_NO; /* not a thread's event */
  if (!f->tid_main)
    return match_of (ev->tid == f->tid);
  /* tid 0 is the kernel's idle task on every cpu (<idle>, swapper), not
   * the main thread of a process, though its tid equals its "pid". */
  if (ev->tid == 0)
    return MATCH_NO;
  if (pid >= 0)
    return match_of (ev->tid == pid);
  /* A tid some event used as a pid is a main thread (the thread-group
   * leader's tid is the pid), even when this event did not say so. */
  if (filter_knowledge_process (&f->k, ev->tid, FALSE) != NULL)
    return MATCH_YES;
  return MATCH_UNKNOWN;
}

static Match
check_pid (TraceEventFilter *f,
           const TraceEvent *ev,
           gint64 pid)
{
  if (pid >= 0)
    return match_of (pid == f->pid);
  return ev->tid < 0 ? MATCH_NO : MATCH_UNKNOWN;
}

static Match
check_thread_name (TraceEventFilter *f,
                   const TraceEvent *ev,
                   FilterThread *thread)
{
  if (ev->tid < 0 || thread == NULL)
    return MATCH_NO;
  if (thread->name == 0)
    return MATCH_UNKNOWN;
  return match_of (filter_glob_match (&f->thread_name, f->pool, thread->name));
}

static Match
check_process_name (TraceEventFilter *f,
                    const TraceEvent *ev,
                    FilterThread *thread,
                    gint64 pid)
{
  FilterProcess *proc;
  guint32 name = 0;

  if (pid < 0)
    return ev->tid < 0 ? MATCH_NO : MATCH_UNKNOWN;
  proc = (thread && thread->pid == pid) ? thread->proc : filter_knowledge_process (&f->k, pid, FALSE);
  if (proc != NULL)
    name = proc->name ? proc->name : (proc->main_thread ? proc->main_thread->name : 0);
  if (name == 0)
    return MATCH_UNKNOWN;
  return match_of (filter_glob_match (&f->process_name, f->pool, name));
}

/* Folds one condition's answer in: the first definite "no" decides. */
static gboolean
fold (Match m,
      TraceFilterDropReason why,
      gboolean *unknown,
      guint8 *reason)
{
  if (m == MATCH_UNKNOWN)
    *unknown = TRUE;
  if (m != MATCH_NO)
    return FALSE;
  *reason = why;
  return TRUE;
}

/* The conditions, cheapest first; @with_names FALSE for an end that has
 * no begin to follow (ends rarely carry a name or category). */
static Match
filter_match (TraceEventFilter *f,
              const TraceEvent *ev,
              FilterThread *thread,
              gboolean with_names,
              guint8 *reason)
{
  gboolean unknown = FALSE;
  gint64 pid = filter_knowledge_resolve_pid (&f->k, ev, ev->tid >= 0 ? thread : NULL);

  if (f->kinds != 0 && fold (match_of (trace_event_kind_get_group (ev->kind) & f->kinds), TRACE_FILTER_DROP_KIND, &unknown, reason))
    return MATCH_NO;
  if (with_names && f->category.spec && fold (match_of (filter_glob_match (&f->category, f->pool, ev->category)), TRACE_FILTER_DROP_CATEGORY, &unknown, reason))
    return MATCH_NO;
  if (with_names && f->name.spec && fold (match_of (filter_glob_match (&f->name, f->pool, ev->name)), TRACE_FILTER_DROP_NAME, &unknown, reason))
    return MATCH_NO;
  if (f->has_tid && fold (check_tid (f, ev, pid), TRACE_FILTER_DROP_TID, &unknown, reason))
    return MATCH_NO;
  if (f->has_pid && fold (check_pid (f, ev, pid), TRACE_FILTER_DROP_PID, &unknown, reason))
    return MATCH_NO;
  if (f->thread_name.spec && fold (check_thread_name (f, ev, thread), TRACE_FILTER_DROP_THREAD_NAME, &unknown, reason))
    return MATCH_NO;
  if (f->process_name.spec && fold (check_process_name (f, ev, thread, pid), TRACE_FILTER_DROP_PROCESS_NAME, &unknown, reason))
    return MATCH_NO;
  return unknown ? MATCH_UNKNOWN : MATCH_YES;
}

/* Keep @ev?  `invert` flips a definite answer; an undecidable one is
 * counted and settled by `keep-unknown`, never flipped. */
static gboolean
filter_decide (TraceEventFilter *f,
               const TraceEvent *ev,
               FilterThread *thread,
               gboolean with_names,
               guint8 *reason)
{
  Match m;

  if (!f->has_conditions)
    return TRUE;
  m = filter_match (f, ev, thread, with_names, reason);
  if (m == MATCH_UNKNOWN)
    {
      f->stats.undecidable++;
      *reason = TRACE_FILTER_DROP_UNDECIDABLE;
      return f->keep_unknown;
    }
  if (f->invert)
    {
      *reason = TRACE_FILTER_DROP_INVERT;
      return m == MATCH_NO;
    }
  return m == MATCH_YES;
}

/* ---- output ----------------------------------------------------------- */

static void
drop_event (TraceEventFilter *f,
            TraceEvent *ev,
            guint reason)
{
  ev->kind = TRACE_EVENT_NONE;
  f->stats.dropped[reason]++;
}

static gboolean
in_window (TraceEventFilter *f,
           gint64 ts)
{
  return (!f->has_start || ts >= f->start) && (!f->has_end || ts <= f->end);
}

static gint64
clamp_to_window (TraceEventFilter *f,
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
emit_edge (TraceEventFilter *f,
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
open_pending (TraceEventFilter *f,
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
close_emitted (TraceEventFilter *f,
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
window_enter (TraceEventFilter *f)
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
window_leave (TraceEventFilter *f)
{
  for (guint i = 0; i < f->k.thread_list->len; i++)
    close_emitted (f, ((FilterThread *) f->k.thread_list->pdata[i])->stack, TRACE_EVENT_SLICE_END);
  for (guint i = 0; i < f->k.async_list->len; i++)
    close_emitted (f, ((AsyncState *) f->k.async_list->pdata[i])->stack, TRACE_EVENT_ASYNC_END);
  f->phase = PHASE_AFTER;
}

static void
window_advance (TraceEventFilter *f,
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
handle_begin (TraceEventFilter *f,
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
      entry.reason = TRACE_FILTER_DROP_WINDOW;
    }
  else if (f->has_end && ev->ts > f->end)
    {
      entry.state = ENTRY_DROPPED;
      entry.reason = TRACE_FILTER_DROP_WINDOW;
    }
  else if (f->has_start && ev->ts < f->start)
    ev->ts = f->start; /* a late event: clip like the others */
  g_array_append_val (stack, entry);

  if (entry.state == ENTRY_EMITTED)
    f->stats.kept++;
  else
    drop_event (f, ev, entry.reason);
}

/* An end: follows its begin.  Returns FALSE when there was none. */
static gboolean
handle_end (TraceEventFilter *f,
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
    drop_event (f, ev, e->state == ENTRY_DROPPED ? e->reason : TRACE_FILTER_DROP_WINDOW);
  g_array_set_size (stack, stack->len - 1);
  return TRUE;
}

/* Anything decided on its own: instants, counters, kernel records… */
static void
handle_single (TraceEventFilter *f,
               TraceEvent *ev,
               FilterThread *thread,
               gboolean with_names)
{
  guint8 reason = 0;

  if (!filter_decide (f, ev, thread, with_names, &reason))
    drop_event (f, ev, reason);
  else if (!in_window (f, ev->ts))
    drop_event (f, ev, TRACE_FILTER_DROP_WINDOW);
  else
    f->stats.kept++;
}

static void
handle_complete (TraceEventFilter *f,
                 TraceEvent *ev,
                 FilterThread *thread)
{
  guint8 reason = 0;
  gint64 s = ev->ts, e = ev->ts + MAX (ev->u.slice.dur, 0);

  if (!filter_decide (f, ev, thread, TRUE, &reason))
    {
      drop_event (f, ev, reason);
      return;
    }
  if ((f->has_start && e < f->start) || (f->has_end && s > f->end))
    {
      drop_event (f, ev, TRACE_FILTER_DROP_WINDOW);
      return;
    }
  if (clamp_to_window (f, s) != s || clamp_to_window (f, e) != e)
    {
      ev->ts = clamp_to_window (f, s);
      ev->u.slice.dur = clamp_to_window (f, e) - ev->ts;
      f->stats.clipped++;
    }
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
handle_async (TraceEventFilter *f,
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
        drop_event (f, ev, e->state == ENTRY_DROPPED ? e->reason : TRACE_FILTER_DROP_WINDOW);
      else if (!in_window (f, ev->ts))
        drop_event (f, ev, TRACE_FILTER_DROP_WINDOW);
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
filter_event (TraceEventFilter *f,
              guint index)
{
  TraceEvent *ev = &f->cur->events[index];
  FilterThread *thread = NULL;
  guint kind = ev->kind;

  if (ev->tid >= 0 || trace_event_is_slice_like (kind))
    thread = filter_knowledge_thread (&f->k, ev->tid, ev->pid);
  if (f->has_conditions)
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
filter_merge_inserts (TraceEventFilter *f,
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
 * trace_event_filter_process:
 * @batch: a writable batch, filtered in place
 *
 * Drops the events that do not match and may add slice begins and ends
 * at the window's edges (placed where the stream crossed the edge).
 */
void
trace_event_filter_process (TraceEventFilter *f,
                            TraceBatch *batch)
{
  guint n = batch->n_events;

  f->stats.events_in += n;
  f->started = TRUE;
  if (!f->has_conditions && !f->has_window)
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

static void
append_seconds (GString *s,
                gint64 ns)
{
  guint64 abs_ns = ns < 0 ? -(guint64) ns : (guint64) ns;

  g_string_append_printf (s, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s", ns < 0 ? "-" : "",
                          abs_ns / 1000000000, abs_ns % 1000000000);
}

/**
 * trace_event_filter_explain_empty_window:
 *
 * A window that misses the trace (`start=1s` on a trace that begins at
 * 1212 s) keeps only metadata: say so, with where the trace is.
 *
 * Returns: (transfer full) (nullable): the warning, or %NULL when the
 *   window kept a timed event or dropped none
 */
char *
trace_event_filter_explain_empty_window (TraceEventFilter *f)
{
  GString *s;

  if (!f->has_window || !f->have_ts || f->stats.dropped[TRACE_FILTER_DROP_WINDOW] == 0 ||
      f->stats.kept > f->stats.metadata)
    return NULL;
  s = g_string_new ("the time window");
  if (f->has_start)
    g_string_append (s, " from "), append_seconds (s, f->start);
  if (f->has_end)
    g_string_append (s, " until "), append_seconds (s, f->end);
  g_string_append (s, " holds no event of the trace, which runs from ");
  append_seconds (s, f->first_ts);
  g_string_append (s, " to ");
  append_seconds (s, f->last_ts);
  g_string_append (s, " (start=+1.5s counts from the first event; trace-info shows both)");
  return g_string_free (s, FALSE);
}

/**
 * trace_event_filter_drain:
 *
 * At EOS: when the stream went past the window's end, slices that began
 * late (out-of-order input) and are still open end at the end edge.
 * Slices open at EOS inside the window stay open, as in the input.
 *
 * Returns: (transfer full) (nullable): a batch of ends, or %NULL
 */
TraceBatch *
trace_event_filter_drain (TraceEventFilter *f)
{
  TraceBatch *batch;

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
