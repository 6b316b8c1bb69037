/* tracepipe - Perfetto writer: slices, instants, async slices, flows and
 * counters as TrackEvents
 *
 * Complete slices (a begin with a known duration) of a JSON stream that
 * last whole microseconds are legacy `X` events; others become a begin
 * and an end. The end is held on a per-thread stack of open slices and
 * written when the thread's next event comes at or after it (or at the
 * end of the stream), so that children and later slices of the thread
 * come in the order Perfetto's slice stack expects. Ends without an open
 * slice are dropped and counted, so trace_processor never sees an
 * unmatched end, except a JSON stream's while its stack for the output
 * is the one it keeps for the JSON (close_stack()).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <math.h>
#include <string.h>

/* Deeper than this a thread's begins are not tracked (only counted), so
 * a stream of begins without ends cannot grow memory. */
#define PERFETTO_MAX_TRACKED_DEPTH 4096

typedef Perfetto__Protos__TrackEvent__Type PerfettoType;
#define PERFETTO_TYPE_NONE PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_UNSPECIFIED
#define PERFETTO_TYPE_BEGIN PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN
#define PERFETTO_TYPE_END PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END
#define PERFETTO_TYPE_INSTANT PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT
#define PERFETTO_TYPE_COUNTER PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER

/* ---- building one TrackEvent packet ---- */

static void
te_begin (PerfettoWriter *w,
          guint64 uuid,
          PerfettoType type)
{
  perfetto_packet_begin (w);
  perfetto__protos__track_event__init (&w->te);
  w->te.has_track_uuid = TRUE;
  w->te.track_uuid = uuid;
  if (type != PERFETTO_TYPE_NONE)
    {
      w->te.has_type = TRUE;
      w->te.type = type;
    }
  perfetto_args_reset (w);
}

static void
te_name (PerfettoWriter *w,
         guint32 name)
{
  if (name == 0)
    return;
  if (perfetto_intern_enabled (w))
    {
      w->te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME_IID;
      w->te.name_iid = perfetto_intern_name (w, name);
    }
  else
    {
      w->te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
      w->te.name = (char *) perfetto_str (w, name);
    }
}

static void
te_category (PerfettoWriter *w,
             guint32 category)
{
  if (category == 0)
    return;
  if (perfetto_intern_enabled (w))
    {
      w->category_iid = perfetto_intern_category (w, category);
      w->te.n_category_iids = 1;
      w->te.category_iids = &w->category_iid;
    }
  else
    {
      w->category_str = (char *) perfetto_str (w, category);
      w->te.n_categories = 1;
      w->te.categories = &w->category_str;
    }
}

static gboolean
args_have_key (TraceBatch *batch,
               const TraceEvent *ev,
               guint32 key)
{
  const TraceArg *args = trace_batch_get_args (batch, ev);

  for (guint i = 0; i < ev->n_args; i++)
    if (args[i].key == key && !trace_arg_is_shape (&args[i]))
      return TRUE;
  return FALSE;
}

/* A JSON stream's slice flow ids are Chrome's flow v2 (one bind_id with
 * flow_in/flow_out), which trace_processor reads with rules of their own:
 * an id sent twice keeps its first sender, and an id received does not
 * end the flow, so one sender may reach several receivers. TrackEvent's
 * legacy bind_id and flow_direction carry exactly that. */
static gboolean
te_flows_v2 (PerfettoWriter *w,
             gboolean v2,
             guint64 flow_out,
             guint64 flow_in)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *legacy = &w->legacy;

  if (!(w->opts.json_order || v2) || (flow_out != 0 && flow_in != 0 && flow_out != flow_in))
    return FALSE;
  /* a legacy async event (write_legacy_async()) has its phase set */
  if (w->te.legacy_event != legacy)
    perfetto__protos__track_event__legacy_event__init (legacy);
  legacy->has_bind_id = legacy->has_flow_direction = TRUE;
  legacy->bind_id = flow_out ? flow_out : flow_in;
  legacy->flow_direction = flow_out && flow_in ? PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_INOUT
                           : flow_out          ? PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_OUT
                                               : PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__FLOW_DIRECTION__FLOW_IN;
  w->te.legacy_event = legacy;
  return TRUE;
}

/* The flows a slice binds past its first pair (args of the event), from
 * @iter on. */
static void
te_more_flows (PerfettoWriter *w,
               TraceBatch *batch,
               const TraceEvent *ev,
               guint iter,
               gsize *n_out,
               gsize *n_in)
{
  guint64 in, out;

  while (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out))
    {
      if (out != 0 && *n_out < G_N_ELEMENTS (w->flow_ids))
        w->flow_ids[(*n_out)++] = out;
      if (in != 0 && in != out && *n_in < G_N_ELEMENTS (w->terminating_flow_ids))
        w->terminating_flow_ids[(*n_in)++] = in;
    }
}

/* Flow ids bound to a slice: an outgoing id starts or continues a flow,
 * an incoming one ends it. A slice that both receives and sends the same
 * id is a step: Perfetto's flow_ids does that alone. An async event's
 * first pair is the first of its args. */
static void
te_flows (PerfettoWriter *w,
          TraceBatch *batch,
          const TraceEvent *ev)
{
  gboolean thread_slice = trace_event_is_slice_like (ev->kind);
  guint64 flow_out = thread_slice ? ev->u.slice.flow_out : 0, flow_in = thread_slice ? ev->u.slice.flow_in : 0;
  gsize n_out = 0, n_in = 0;
  guint iter = 0;

  if (flow_out == 0 && flow_in == 0 && !(ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS))
    return;
  if (!thread_slice)
    trace_batch_next_slice_flow (batch, ev, &iter, &flow_in, &flow_out);
  if (!((flow_out != 0 || flow_in != 0) && te_flows_v2 (w, (ev->flags & TRACE_EVENT_FLAG_FLOW_V2) != 0, flow_out, flow_in)))
    {
      if (flow_out != 0)
        w->flow_ids[n_out++] = flow_out;
      if (flow_in != 0 && flow_in != flow_out)
        w->terminating_flow_ids[n_in++] = flow_in;
    }
  if (G_UNLIKELY (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS))
    te_more_flows (w, batch, ev, iter, &n_out, &n_in);
  w->te.n_flow_ids = n_out;
  w->te.flow_ids = n_out ? w->flow_ids : NULL;
  w->te.n_terminating_flow_ids = n_in;
  w->te.terminating_flow_ids = n_in ? w->terminating_flow_ids : NULL;
}

static void
te_correlation (PerfettoWriter *w,
                guint64 id)
{
  w->te.correlation_id_field_case =
      PERFETTO__PROTOS__TRACK_EVENT__CORRELATION_ID_FIELD_CORRELATION_ID;
  w->te.correlation_id = id;
}

/* The thread time a slice event carries (opts.thread_time): a value of
 * the thread's thread_time counter track, which trace_processor also
 * takes as the slice's thread time. Called before te_begin(), as the
 * track's descriptor is a packet of its own; te_emit() attaches it. */
static void
te_thread_time (PerfettoWriter *w,
                PerfettoThread *t,
                gint64 value,
                gint64 ts)
{
  w->thread_time_uuid = 0;
  if (!w->opts.thread_time || value < 0)
    return;
  w->thread_time_uuid = perfetto_thread_time_track (w, t, ts);
  w->thread_time_value = value;
}

static gint64
event_thread_ts (const TraceEvent *ev)
{
  return (ev->flags & TRACE_EVENT_FLAG_THREAD_TIME) ? ev->u.slice.thread_ts : -1;
}

/* The thread time of an event written on another track than its
 * thread's (an async slice, a flow, a process or global instant):
 * trace_processor makes a value of the thread's thread_time counter of
 * it as of a thread slice's. As te_thread_time(). */
static void
te_recorder_thread_time (PerfettoWriter *w,
                         const TraceEvent *ev)
{
  gint64 value = trace_event_get_thread_ts (ev);
  PerfettoThread *t;

  w->thread_time_uuid = 0;
  if (value < 0 || ev->tid == TRACE_ID_UNKNOWN || !w->opts.thread_time)
    return;
  t = perfetto_thread_get (w, ev->pid, ev->tid, ev->ts);
  if (t != NULL)
    te_thread_time (w, t, value, ev->ts);
}

/* Where a complete slice's end leaves the thread time, -1: unknown. */
static gint64
event_end_thread_ts (const TraceEvent *ev)
{
  if (!(ev->flags & TRACE_EVENT_FLAG_THREAD_TIME) || ev->u.slice.thread_ts < 0 || ev->u.slice.thread_dur < 0)
    return -1;
  return ev->u.slice.thread_ts + ev->u.slice.thread_dur;
}

static void
te_emit (PerfettoWriter *w,
         gint64 ts)
{
  if (w->thread_time_uuid != 0)
    {
      w->te.n_extra_counter_values = w->te.n_extra_counter_track_uuids = 1;
      w->te.extra_counter_values = &w->thread_time_value;
      w->te.extra_counter_track_uuids = &w->thread_time_uuid;
    }
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
  w->pkt.track_event = &w->te;
  perfetto_packet_emit (w, ts, TRUE, perfetto_intern_enabled (w));
  w->stats.track_events++;
  w->thread_time_uuid = 0;
}

static void
te_emit_end (PerfettoWriter *w,
             guint64 uuid,
             gint64 ts)
{
  te_begin (w, uuid, PERFETTO_TYPE_END);
  te_emit (w, ts);
}

/* A slice begin or instant with everything the event carries. */
static void
te_emit_full (PerfettoWriter *w,
              TraceBatch *batch,
              const TraceEvent *ev,
              guint64 uuid,
              PerfettoType type)
{
  te_begin (w, uuid, type);
  te_name (w, ev->name);
  te_category (w, ev->category);
  perfetto_args_write (w, batch, ev);
  te_flows (w, batch, ev);
  te_emit (w, ev->ts);
}

/* ---- thread slices ----
 *
 * The thread's stack mirrors trace_processor's slice tracker as it reads
 * a JSON trace (importers/common/slice_tracker.cc), fed in the order of
 * perfetto-writer-order.c: complete slices are complete from the start,
 * ended slices leave the stack only when a later slice or instant of the
 * thread comes after them. The writer replays each decision of that
 * tracker as begin/end TrackEvents, which trace_processor's tracker then
 * reads into the same slices. */

/* The duration given for a begun slice: unknown. */
#define PERFETTO_PENDING G_MININT64

static PerfettoOpenSlice *
open_at (PerfettoThread *t,
         guint i)
{
  return &g_array_index (t->open, PerfettoOpenSlice, i);
}

/* trace_processor closes the innermost begun slice with a nameless end;
 * an end for a slice below another one still waiting for its end must
 * name it (and its category), as trace_processor then matches by both. */
static gboolean
end_needs_name (PerfettoThread *t,
                guint i)
{
  for (guint k = i + 1; k < t->open->len; k++)
    if (open_at (t, k)->needs_end)
      return TRUE;
  return FALSE;
}

static void
write_open_end (PerfettoWriter *w,
                PerfettoThread *t,
                guint i,
                gint64 ts)
{
  PerfettoOpenSlice *s = open_at (t, i);

  te_thread_time (w, t, s->end_thread_ts, ts);
  te_begin (w, t->uuid, PERFETTO_TYPE_END);
  if (end_needs_name (t, i))
    {
      te_name (w, s->name);
      te_category (w, s->category);
    }
  te_emit (w, ts);
  t->n_paired -= s->complete;
  s->needs_end = FALSE;
}

/* Pops the innermost slice; a begun one still open ends at @cut_ts, or,
 * with @owe, is owed that end (close_stack() leaves it to
 * trace_processor). */
static void
pop_top (PerfettoWriter *w,
         PerfettoThread *t,
         gint64 cut_ts,
         gboolean owe)
{
  guint top = t->open->len - 1;
  PerfettoOpenSlice *s = open_at (t, top);

  if (owe && s->needs_end && !s->complete)
    {
      PerfettoOpenSlice *owed = perfetto_vec_push_uninit (&w->owed_ends);

      *owed = *s;
      owed->end_ts = cut_ts;
    }
  else if (s->needs_end)
    write_open_end (w, t, top, s->complete ? s->end_ts : cut_ts);
  t->n_complete -= s->complete;
  g_array_set_size (t->open, top);
}

/* The cut ends close_stack() owed, written after all: the event that
 * would make trace_processor cut them goes to another track. */
static void
write_owed_ends (PerfettoWriter *w,
                 PerfettoThread *t)
{
  for (guint i = 0; i < w->owed_ends.len; i++)
    {
      const PerfettoOpenSlice *s = perfetto_vec_at (&w->owed_ends, PerfettoOpenSlice, i);

      te_thread_time (w, t, -1, s->end_ts);
      te_emit_end (w, t->uuid, s->end_ts);
    }
  w->owed_ends.len = 0;
}

/* Before a slice at @ts lasting @dur (PERFETTO_PENDING: begun) goes on the
 * stack: pops what ended before it (a slice ending at @ts too, unless
 * both last 0), and cuts slices begun inside a complete slice that ended
 * before @ts at its end, as trace_processor does.
 *
 * While no complete slice of the thread waits for its end TrackEvent
 * (n_paired), trace_processor's stack for the output is the one it
 * keeps for the JSON file, and the event about to be written on the
 * thread's track makes it cut the same slices at the same time: their
 * ends are owed, not written, which also cuts what trace_processor cuts
 * with them (complete slices begun inside them included). They are
 * written after all when the event goes to an overflow track instead.
 *
 * Returns: %FALSE if the new complete slice partially overlaps an open
 *   complete slice (trace_processor spills it to an overflow track) */
static gboolean
close_stack (PerfettoWriter *w,
             PerfettoThread *t,
             gint64 ts,
             gint64 dur)
{
  gboolean begun_above = FALSE;
  gboolean owe = w->opts.json_order && t->n_paired == 0;

  w->owed_ends.len = 0;
  /* Only complete slices are closed: a stack of begun slices (B/E
   * traces) is left as it is, without a walk over it per event. */
  if (t->n_complete == 0)
    return TRUE;
  for (gint i = t->open ? (gint) t->open->len - 1 : -1; i >= 0; i--)
    {
      PerfettoOpenSlice s = *open_at (t, (guint) i);

      if (!s.complete)
        {
          begun_above = TRUE;
          continue;
        }
      if (begun_above)
        {
          if (ts <= s.end_ts)
            continue;
          perfetto_writer_drop (w, &w->stats.closed_open_slices, t->open->len - 1 - (guint) i, s.end_ts, "slice still open inside a complete slice, closed at its end");
          while (t->open->len > (guint) i)
            pop_top (w, t, s.end_ts, owe);
          begun_above = FALSE;
          continue;
        }
      if (s.end_ts < ts || (s.end_ts == ts && !(s.end_ts == s.ts && dur == 0)))
        {
          pop_top (w, t, s.end_ts, owe);
          continue;
        }
      if (dur != PERFETTO_PENDING && ts < s.end_ts && ts + dur > s.end_ts)
        return FALSE;
    }
  return TRUE;
}

/* Returns: %FALSE when the stack is full: the slice is not tracked */
static gboolean
thread_push (PerfettoThread *t,
             const TraceEvent *ev,
             gint64 end_ts,
             gboolean complete,
             gboolean needs_end)
{
  PerfettoOpenSlice s = { ev->ts, end_ts, complete ? event_end_thread_ts (ev) : -1, ev->name, ev->category,
                          complete, needs_end };

  if (t->open == NULL)
    t->open = g_array_new (FALSE, FALSE, sizeof (PerfettoOpenSlice));
  if (t->open->len >= PERFETTO_MAX_TRACKED_DEPTH)
    return FALSE;
  g_array_append_val (t->open, s);
  t->n_complete += complete != FALSE;
  t->n_paired += complete && needs_end;
  return TRUE;
}

static void
write_thread_begin (PerfettoWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev,
                    PerfettoThread *t)
{
  close_stack (w, t, ev->ts, PERFETTO_PENDING);
  te_thread_time (w, t, event_thread_ts (ev), ev->ts);
  te_emit_full (w, batch, ev, t->uuid, PERFETTO_TYPE_BEGIN);
  if (!thread_push (t, ev, 0, FALSE, TRUE))
    t->untracked++; /* its end is written as it comes */
}

/* Whether a complete slice of a JSON stream goes as a legacy `X` event
 * (TrackEvent's legacy phase with duration_us). trace_processor reads
 * that as it reads a JSON `X`: complete from the start, so an end of the
 * thread never closes it and a slice begun inside it stays open at the
 * end of the stream. A begin + end pair is the same only until its end
 * is written. duration_us is in whole microseconds: a finer duration,
 * or a thread time that goes with the begin + end pair's two counter
 * values (opts.thread_time), is a begin + end pair. */
static gboolean
complete_as_legacy_x (PerfettoWriter *w,
                      const TraceEvent *ev)
{
  return w->opts.json_order && ev->u.slice.dur % 1000 == 0 &&
         !(w->opts.thread_time && (ev->flags & TRACE_EVENT_FLAG_THREAD_TIME));
}

static void
write_legacy_x (PerfettoWriter *w,
                TraceBatch *batch,
                const TraceEvent *ev,
                guint64 uuid)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *legacy = &w->legacy;

  te_begin (w, uuid, PERFETTO_TYPE_NONE);
  te_name (w, ev->name);
  te_category (w, ev->category);
  perfetto_args_write (w, batch, ev);
  te_flows (w, batch, ev);
  if (w->te.legacy_event == NULL)
    {
      perfetto__protos__track_event__legacy_event__init (legacy);
      w->te.legacy_event = legacy;
    }
  legacy->has_phase = legacy->has_duration_us = TRUE;
  legacy->phase = 'X';
  legacy->duration_us = ev->u.slice.dur / 1000;
  te_emit (w, ev->ts);
}

/* A complete slice that partially overlaps the thread's open slices goes
 * whole on the first overflow track where it nests or follows (a new one
 * if none), as trace_processor places such a JSON slice: a legacy `X`
 * when complete_as_legacy_x() says so (trace_processor takes one on a
 * child track of the thread that is not merged with its siblings:
 * perfetto_lane_track()), else a begin and an end. The `X` says what the
 * slice is: perfetto-src reads it back as a complete slice of the
 * thread, which perfetto-sink spills again, where a begin and an end
 * would nest on the thread's own stack. */
static void
write_spilled_complete (PerfettoWriter *w,
                        TraceBatch *batch,
                        const TraceEvent *ev,
                        PerfettoThread *t)
{
  gint64 end = ev->ts + ev->u.slice.dur;
  PerfettoLane *lane = NULL;

  if (t->lanes == NULL)
    t->lanes = g_array_new (FALSE, TRUE, sizeof (PerfettoLane));
  for (guint i = 0; i < t->lanes->len && lane == NULL; i++)
    {
      PerfettoLane *l = &g_array_index (t->lanes, PerfettoLane, i);
      GArray *ends = l->open_ends;

      while (ends->len > 0 && g_array_index (ends, gint64, ends->len - 1) <= ev->ts)
        g_array_set_size (ends, ends->len - 1);
      if (ends->len == 0 || end <= g_array_index (ends, gint64, ends->len - 1))
        lane = l;
    }
  if (lane == NULL)
    {
      PerfettoLane added = { perfetto_lane_track (w, t, ev->ts), g_array_new (FALSE, FALSE, sizeof (gint64)) };

      g_array_append_val (t->lanes, added);
      lane = &g_array_index (t->lanes, PerfettoLane, t->lanes->len - 1);
    }
  g_array_append_val (lane->open_ends, end);
  te_thread_time (w, t, event_thread_ts (ev), ev->ts);
  if (complete_as_legacy_x (w, ev))
    write_legacy_x (w, batch, ev, lane->uuid);
  else
    {
      te_emit_full (w, batch, ev, lane->uuid, PERFETTO_TYPE_BEGIN);
      te_thread_time (w, t, event_end_thread_ts (ev), end);
      te_emit_end (w, lane->uuid, end);
    }
  perfetto_writer_drop (w, &w->stats.spilled_complete, 1, ev->ts, "complete slice partially overlapping an open one, spilled to an overflow track");
}

/* A complete slice is never shortened: longer than 0 it is a legacy `X`
 * event (complete_as_legacy_x()) or a begin now and an end when
 * trace_processor would pop it; of length 0 it is an instant, which
 * trace_processor nests exactly as a JSON one. */
static void
write_thread_complete (PerfettoWriter *w,
                       TraceBatch *batch,
                       const TraceEvent *ev,
                       PerfettoThread *t)
{
  gint64 end = ev->ts + ev->u.slice.dur;

  if (ev->u.slice.dur < 0)
    {
      /* trace_processor drops it too (slice_negative_duration) */
      perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "complete slice of negative duration dropped");
      return;
    }
  if (!close_stack (w, t, ev->ts, ev->u.slice.dur))
    {
      write_owed_ends (w, t);
      write_spilled_complete (w, batch, ev, t);
      return;
    }
  te_thread_time (w, t, event_thread_ts (ev), ev->ts);
  if (ev->u.slice.dur == 0)
    {
      te_emit_full (w, batch, ev, t->uuid, PERFETTO_TYPE_INSTANT);
      thread_push (t, ev, end, TRUE, FALSE);
      return;
    }
  if (complete_as_legacy_x (w, ev))
    {
      write_legacy_x (w, batch, ev, t->uuid);
      thread_push (t, ev, end, TRUE, FALSE);
      return;
    }
  te_emit_full (w, batch, ev, t->uuid, PERFETTO_TYPE_BEGIN);
  if (!thread_push (t, ev, end, TRUE, TRUE))
    {
      te_thread_time (w, t, event_end_thread_ts (ev), end);
      te_emit_end (w, t->uuid, end);
    }
}

static void
write_thread_instant (PerfettoWriter *w,
                      TraceBatch *batch,
                      const TraceEvent *ev,
                      PerfettoThread *t)
{
  close_stack (w, t, ev->ts, 0);
  te_thread_time (w, t, event_thread_ts (ev), ev->ts);
  te_emit_full (w, batch, ev, t->uuid, PERFETTO_TYPE_INSTANT);
  thread_push (t, ev, ev->ts, TRUE, FALSE);
}

/* Returns: the innermost begun slice an end named @name in @category
 * closes (trace_processor's rule: a name or category the end does not
 * give matches any; one it gives must be the slice's), or -1 */
static gint
matching_begun (PerfettoThread *t,
                guint32 name,
                guint32 category)
{
  for (gint i = t->open ? (gint) t->open->len - 1 : -1; i >= 0; i--)
    {
      PerfettoOpenSlice *s = open_at (t, (guint) i);

      if (s->complete)
        continue;
      if (category != 0 && s->category != category)
        continue;
      if (name != 0 && s->name != 0 && s->name != name)
        continue;
      return i;
    }
  return -1;
}

/* Marks the begun slice at @i ended at @ts: ended below the top, it
 * stays on the stack as a complete slice until something after it pops
 * it. */
static void
end_begun (PerfettoThread *t,
           guint i,
           gint64 ts)
{
  PerfettoOpenSlice *s = open_at (t, i);

  s->needs_end = FALSE;
  s->complete = TRUE;
  s->end_ts = ts;
  if (i == t->open->len - 1)
    g_array_set_size (t->open, i);
  else
    t->n_complete++;
}

/* An end of a JSON stream, while trace_processor's stack for the output
 * is the one it keeps for the file (see close_stack()): written as the
 * file gives it, name and category, matched or not, so that
 * trace_processor closes the same slice (or none) and pops and cuts the
 * same slices before it. So is an end of another stream that closes
 * nothing but carries thread time (write_thread_end()). */
static void
write_thread_end_as_given (PerfettoWriter *w,
                           PerfettoThread *t,
                           const TraceEvent *ev)
{
  gint i = matching_begun (t, ev->name, ev->category);

  te_begin (w, t->uuid, PERFETTO_TYPE_END);
  te_name (w, ev->name);
  te_category (w, ev->category);
  if (i >= 0)
    end_begun (t, (guint) i, ev->ts);
}

static void
write_thread_end (PerfettoWriter *w,
                  TraceBatch *batch,
                  const TraceEvent *ev,
                  PerfettoThread *t)
{
  gint i;

  close_stack (w, t, ev->ts, PERFETTO_PENDING);
  te_thread_time (w, t, event_thread_ts (ev), ev->ts);
  if (t->untracked > 0)
    {
      t->untracked--;
      te_begin (w, t->uuid, PERFETTO_TYPE_END);
    }
  else if (w->opts.json_order && t->n_paired == 0)
    write_thread_end_as_given (w, t, ev);
  else if ((i = matching_begun (t, ev->name, ev->category)) < 0)
    {
      /* trace_processor ignores an end that matches no begun slice, but
       * makes a thread_time value of its thread time: an end that has
       * one goes as given, and closes nothing there either */
      if (w->thread_time_uuid == 0)
        {
          perfetto_writer_drop (w, &w->stats.dropped_unmatched_end, 1, ev->ts, "slice end without an open slice dropped");
          return;
        }
      write_thread_end_as_given (w, t, ev);
    }
  else
    {
      te_begin (w, t->uuid, PERFETTO_TYPE_END);
      if (end_needs_name (t, (guint) i))
        {
          te_name (w, open_at (t, (guint) i)->name);
          te_category (w, open_at (t, (guint) i)->category);
        }
      end_begun (t, (guint) i, ev->ts);
    }
  perfetto_args_write (w, batch, ev);
  te_flows (w, batch, ev);
  te_emit (w, ev->ts);
}

/* Slices on a named track of a process (atrace `N|`): a plain track. */
static void
write_named_slice (PerfettoWriter *w,
                   TraceBatch *batch,
                   const TraceEvent *ev)
{
  PerfettoTrack *track = perfetto_named_track (w, ev->pid, ev->u.slice.track, ev->ts);

  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      te_emit_full (w, batch, ev, track->uuid, PERFETTO_TYPE_BEGIN);
      track->depth++;
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      te_emit_full (w, batch, ev, track->uuid, PERFETTO_TYPE_BEGIN);
      te_emit_end (w, track->uuid, ev->ts + MAX (ev->u.slice.dur, 0));
      break;
    case TRACE_EVENT_SLICE_END:
      if (track->depth == 0)
        {
          perfetto_writer_drop (w, &w->stats.dropped_unmatched_end, 1, ev->ts, "slice end without an open slice on its named track dropped");
          return;
        }
      track->depth--;
      te_begin (w, track->uuid, PERFETTO_TYPE_END);
      /* A named end closes the slice of that name (trace_processor
       * ignores one that names no open slice), as in the input. */
      if (ev->name != 0)
        te_name (w, ev->name);
      perfetto_args_write (w, batch, ev);
      te_flows (w, batch, ev);
      te_emit (w, ev->ts);
      break;
    default:
      te_emit_full (w, batch, ev, track->uuid, PERFETTO_TYPE_INSTANT);
      break;
    }
}

/* Begins a legacy TrackEvent of @phase for @ev on the track of its
 * thread @t: its thread time, name, category and args, the phase set.
 * Returns: the legacy event, for the caller to add its id or scope
 * before te_emit(). */
static Perfetto__Protos__TrackEvent__LegacyEvent *
te_legacy_begin (PerfettoWriter *w,
                 TraceBatch *batch,
                 const TraceEvent *ev,
                 PerfettoThread *t,
                 char phase)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *legacy = &w->legacy;

  te_thread_time (w, t, trace_event_get_thread_ts (ev), ev->ts);
  te_begin (w, t->uuid, PERFETTO_TYPE_NONE);
  te_name (w, ev->name);
  te_category (w, ev->category);
  perfetto_args_write (w, batch, ev);
  perfetto__protos__track_event__legacy_event__init (legacy);
  legacy->has_phase = TRUE;
  legacy->phase = phase;
  w->te.legacy_event = legacy;
  return legacy;
}

/* Gives @legacy @id in the field of @kind, and its @scope (0: none). */
static void
legacy_set_id (PerfettoWriter *w,
               Perfetto__Protos__TrackEvent__LegacyEvent *legacy,
               TraceChromeIdKind kind,
               guint64 id,
               guint32 scope)
{
  switch (kind)
    {
    case TRACE_CHROME_ID_UNSCOPED:
      legacy->has_unscoped_id = TRUE;
      legacy->unscoped_id = id;
      break;
    case TRACE_CHROME_ID_GLOBAL:
      legacy->has_global_id = TRUE;
      legacy->global_id = id;
      break;
    case TRACE_CHROME_ID_LOCAL:
      legacy->has_local_id = TRUE;
      legacy->local_id = id;
      break;
    default:
      break;
    }
  if (scope != 0)
    legacy->id_scope = (char *) perfetto_str (w, scope);
}

/* A JSON stream's process- or global-scoped instant of a known thread:
 * a legacy `i` with its scope on the thread's track, which
 * trace_processor's TrackEvent importer puts on the tracks its JSON
 * importer uses (`chrome_process_instant`, `legacy_chrome_global_instants`).
 * Returns: %FALSE when it is not such an instant */
static gboolean
write_legacy_scoped_instant (PerfettoWriter *w,
                             TraceBatch *batch,
                             const TraceEvent *ev)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *legacy;
  PerfettoThread *t;

  if (!w->opts.json_order || ev->pid == TRACE_ID_UNKNOWN || ev->tid == TRACE_ID_UNKNOWN ||
      (t = perfetto_thread_get (w, ev->pid, ev->tid, ev->ts)) == NULL)
    return FALSE;
  legacy = te_legacy_begin (w, batch, ev, t, 'i');
  legacy->has_instant_event_scope = TRUE;
  legacy->instant_event_scope = (ev->flags & TRACE_EVENT_FLAG_SCOPE_GLOBAL)
                                    ? PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_GLOBAL
                                    : PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_PROCESS;
  te_emit (w, ev->ts);
  return TRUE;
}

static void
write_slice (PerfettoWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  PerfettoThread *t;

  if (ev->u.slice.track != 0)
    {
      write_named_slice (w, batch, ev);
      return;
    }
  if (ev->kind == TRACE_EVENT_INSTANT && (ev->flags & (TRACE_EVENT_FLAG_SCOPE_GLOBAL | TRACE_EVENT_FLAG_SCOPE_PROCESS)) &&
      write_legacy_scoped_instant (w, batch, ev))
    return;
  if (ev->kind == TRACE_EVENT_INSTANT && (ev->flags & (TRACE_EVENT_FLAG_SCOPE_GLOBAL | TRACE_EVENT_FLAG_SCOPE_PROCESS)))
    {
      guint64 uuid = (ev->flags & TRACE_EVENT_FLAG_SCOPE_GLOBAL) ? perfetto_global_track (w, ev->ts)
                                                                 : perfetto_process_track (w, ev->pid, ev->ts);

      te_recorder_thread_time (w, ev);
      te_emit_full (w, batch, ev, uuid, PERFETTO_TYPE_INSTANT);
      return;
    }
  t = perfetto_thread_get (w, ev->pid, ev->tid, ev->ts);
  if (t == NULL)
    {
      perfetto_writer_drop (w, &w->stats.dropped_thread_table, 1, ev->ts, "event of a thread past the thread table (max-threads) dropped");
      return;
    }
  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      write_thread_begin (w, batch, ev, t);
      break;
    case TRACE_EVENT_SLICE_COMPLETE:
      write_thread_complete (w, batch, ev, t);
      break;
    case TRACE_EVENT_SLICE_END:
      write_thread_end (w, batch, ev, t);
      break;
    default:
      write_thread_instant (w, batch, ev, t);
      break;
    }
}

/**
 * perfetto_close_open_slices:
 * @w: a #PerfettoWriter
 *
 * At the end of the stream: writes the ends of complete slices still on
 * a thread's stack. Begun slices stay open, as in the input (and as
 * trace_processor leaves them).
 */
void
perfetto_close_open_slices (PerfettoWriter *w)
{
  GHashTableIter iter;
  PerfettoThread *t;

  g_hash_table_iter_init (&iter, w->threads);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &t))
    {
      for (gint i = t->open ? (gint) t->open->len - 1 : -1; i >= 0; i--)
        {
          PerfettoOpenSlice *s = open_at (t, (guint) i);

          if (s->complete && s->needs_end)
            write_open_end (w, t, (guint) i, s->end_ts);
        }
    }
}

/* ---- async slices ---- */

/* A JSON stream's nestable async event (`b`, `e`, `n`) as a legacy event
 * of that phase on its thread's track, keyed by its id (`local_id` for
 * an id2.local): trace_processor's TrackEvent importer hands it to the
 * same track compressor as its JSON importer hands the JSON event, so
 * the slices land on the same tracks (of the same types, named after
 * the id's first event), however the ids' ends match their names. */
/* The letter of a legacy async event: a JSON stream's nestable async
 * (b e n), or the phase a Perfetto legacy event had. */
static char
legacy_async_phase (const TraceEvent *ev)
{
  gboolean s = (ev->flags & TRACE_EVENT_FLAG_PHASE_S) != 0;

  switch (ev->kind)
    {
    case TRACE_EVENT_ASYNC_BEGIN:
      return s ? 'S' : 'b';
    case TRACE_EVENT_ASYNC_END:
      return s ? 'F' : 'e';
    case TRACE_EVENT_ASYNC_STEP:
      if (s)
        return (ev->flags & TRACE_EVENT_FLAG_STEP_PAST) ? 'p' : 'T';
      return 'n';
    default:
      return 'n';
    }
}

static void
write_legacy_async (PerfettoWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *legacy;
  PerfettoThread *t = perfetto_thread_get (w, ev->pid, ev->tid, ev->ts);

  if (t == NULL)
    {
      perfetto_writer_drop (w, &w->stats.dropped_thread_table, 1, ev->ts, "event of a thread past the thread table (max-threads) dropped");
      return;
    }
  legacy = te_legacy_begin (w, batch, ev, t, legacy_async_phase (ev));
  legacy_set_id (w, legacy, (ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? TRACE_CHROME_ID_UNSCOPED : TRACE_CHROME_ID_LOCAL,
                 ev->u.async.id, ev->u.async.scope);
  te_flows (w, batch, ev);
  te_emit (w, ev->ts);
}

/* Whether @ev goes as a legacy event, which trace_processor places with
 * the track compressor of its JSON importer: a JSON stream's nestable
 * async event, or a Perfetto legacy phase going back as it came (on its
 * thread). */
static gboolean
written_as_legacy (PerfettoWriter *w,
                   const TraceEvent *ev)
{
  if ((ev->flags & TRACE_EVENT_FLAG_LEGACY_PHASE) && ev->tid != TRACE_ID_UNKNOWN && ev->pid != TRACE_ID_UNKNOWN)
    return TRUE;
  return w->opts.json_order && ev->kind != TRACE_EVENT_ASYNC_STEP && !(ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY);
}

static void
write_async (PerfettoWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  PerfettoAsyncSlot *slot;
  gboolean transient = FALSE;

  if (written_as_legacy (w, ev))
    {
      write_legacy_async (w, batch, ev);
      return;
    }
  slot = perfetto_async_slot_lookup (w, ev);
  /* From a Perfetto trace, ends may come before their begins (another
   * producer's chunk): a family's track is its own for good, and
   * trace_processor pairs its events by time. */
  if (slot == NULL && w->opts.perfetto_order)
    slot = perfetto_async_slot_open (w, ev);
  switch (ev->kind)
    {
    case TRACE_EVENT_ASYNC_BEGIN:
      if (slot && slot->depth > 0 && (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY))
        {
          /* Unnestable families (atrace S/F): a repeated begin is
           * ignored, as Perfetto does. */
          perfetto_writer_drop (w, &w->stats.dropped_repeated_legacy_begin, 1, ev->ts, "repeated begin of an open unnestable async slice dropped");
          return;
        }
      if (slot == NULL)
        slot = perfetto_async_slot_open (w, ev);
      slot->depth++;
      te_recorder_thread_time (w, ev);
      te_begin (w, perfetto_async_slot_uuid (slot), PERFETTO_TYPE_BEGIN);
      te_name (w, ev->name);
      te_category (w, ev->category);
      break;
    case TRACE_EVENT_ASYNC_END:
      if (slot == NULL)
        {
          perfetto_writer_drop (w, &w->stats.dropped_unmatched_async_end, 1, ev->ts, "async end without an open async slice dropped");
          return;
        }
      te_recorder_thread_time (w, ev);
      te_begin (w, perfetto_async_slot_uuid (slot), PERFETTO_TYPE_END);
      /* The end's own name, when it has one: trace_processor ends the
       * innermost open slice of the track of that name (any, for an end
       * without) and ignores an end that names none, for a TrackEvent
       * as for a JSON `e`. Not its category: perfetto-src gives an end
       * without one the category of its track's outermost slice, which
       * an inner slice need not have. */
      te_name (w, ev->name);
      break;
    default: /* STEP, INSTANT */
      if (slot == NULL)
        {
          slot = perfetto_async_slot_open (w, ev);
          transient = TRUE;
        }
      te_recorder_thread_time (w, ev);
      te_begin (w, perfetto_async_slot_uuid (slot), PERFETTO_TYPE_INSTANT);
      te_name (w, ev->name);
      te_category (w, ev->category);
      break;
    }
  perfetto_args_write (w, batch, ev);
  if (ev->kind == TRACE_EVENT_ASYNC_STEP && ev->u.async.step != 0)
    {
      guint32 key = trace_string_pool_intern (w->pool, PERFETTO_STEP_ANNOTATION);

      if (!args_have_key (batch, ev, key))
        perfetto_args_write_string (w, key, ev->u.async.step);
    }
  te_correlation (w, ev->u.async.id);
  te_flows (w, batch, ev);
  te_emit (w, ev->ts);
  if (w->opts.perfetto_order)
    slot->depth -= ev->kind == TRACE_EVENT_ASYNC_END && slot->depth > 0;
  else if (ev->kind == TRACE_EVENT_ASYNC_END && --slot->depth == 0)
    perfetto_async_slot_close (w, slot);
  else if (transient)
    perfetto_async_slot_close (w, slot);
}

/* ---- flows v1 and counters ---- */

/* Standalone flow events (Chrome `s`/`t`/`f`) bind to the enclosing slice
 * of their thread, or to the next one: TrackEvent has no type for them,
 * so they go as legacy events, which trace_processor binds exactly as
 * it binds the JSON phases. */
static void
write_flow (PerfettoWriter *w,
            TraceBatch *batch,
            const TraceEvent *ev)
{
  Perfetto__Protos__TrackEvent__LegacyEvent legacy = PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INIT;
  PerfettoThread *t = perfetto_thread_get (w, ev->pid, ev->tid, ev->ts);

  if (t == NULL)
    {
      perfetto_writer_drop (w, &w->stats.dropped_thread_table, 1, ev->ts, "flow of a thread past the thread table (max-threads) dropped");
      return;
    }
  /* No pops before a flow event: trace_processor binds it to the top of
   * the thread's stack as it is, ended slices included. */
  legacy.has_phase = TRUE;
  legacy.phase = ev->kind == TRACE_EVENT_FLOW_START  ? 's'
                 : ev->kind == TRACE_EVENT_FLOW_STEP ? 't'
                                                     : 'f';
  if (w->opts.json_order && !(ev->flags & TRACE_EVENT_FLAG_ID_GLOBAL))
    {
      /* A JSON id2.local: trace_processor's JSON importer keys v1 flows
       * by "id" alone (flow_invalid_id otherwise), its TrackEvent
       * importer by unscoped_id alone: as local_id it is refused alike,
       * not linked to the slices of another process's same id. */
      legacy.has_local_id = TRUE;
      legacy.local_id = ev->u.async.id;
    }
  else
    {
      legacy.has_unscoped_id = TRUE;
      legacy.unscoped_id = ev->u.async.id;
    }
  if (ev->kind == TRACE_EVENT_FLOW_END)
    {
      legacy.has_bind_to_enclosing = TRUE;
      legacy.bind_to_enclosing = !(ev->flags & TRACE_EVENT_FLAG_FLOW_NEXT_SLICE);
    }
  te_thread_time (w, t, trace_event_get_thread_ts (ev), ev->ts);
  te_begin (w, t->uuid, PERFETTO_TYPE_NONE);
  te_name (w, ev->name);
  te_category (w, ev->category);
  perfetto_args_write (w, batch, ev);
  w->te.legacy_event = &legacy;
  te_emit (w, ev->ts);
}

static void
write_counter (PerfettoWriter *w,
               const TraceEvent *ev)
{
  guint64 uuid = perfetto_counter_track (w, ev);

  te_begin (w, uuid, PERFETTO_TYPE_COUNTER);
  if (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT)
    {
      w->te.counter_value_field_case =
          PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_COUNTER_VALUE;
      w->te.counter_value = (gint64) llround (ev->u.counter.value);
    }
  else
    {
      w->te.counter_value_field_case =
          PERFETTO__PROTOS__TRACK_EVENT__COUNTER_VALUE_FIELD_DOUBLE_COUNTER_VALUE;
      w->te.double_counter_value = ev->u.counter.value;
    }
  te_emit (w, ev->ts);
}

/* A Chrome event of another phase goes back as the legacy TrackEvent it
 * came as (or would have been, from JSON), on its thread: trace_processor
 * keeps it as a raw row and a value of the thread's thread_time counter. */
static void
write_chrome_phase (PerfettoWriter *w,
                    TraceBatch *batch,
                    const TraceEvent *ev)
{
  Perfetto__Protos__TrackEvent__LegacyEvent *legacy;
  PerfettoThread *t = perfetto_thread_get (w, ev->pid, ev->tid, ev->ts);

  if (t == NULL)
    {
      perfetto_writer_drop (w, &w->stats.dropped_thread_table, 1, ev->ts, "event of a thread past the thread table (max-threads) dropped");
      return;
    }
  legacy = te_legacy_begin (w, batch, ev, t, (char) ev->u.chrome_phase.phase);
  legacy_set_id (w, legacy, ev->u.chrome_phase.id_kind, ev->u.chrome_phase.id, ev->u.chrome_phase.scope);
  te_emit (w, ev->ts);
}

/**
 * perfetto_write_track_event:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a slice, instant, async, flow, counter or Chrome phase event
 */
void
perfetto_write_track_event (PerfettoWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
    case TRACE_EVENT_SLICE_END:
    case TRACE_EVENT_SLICE_COMPLETE:
    case TRACE_EVENT_INSTANT:
      write_slice (w, batch, ev);
      break;
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_END:
    case TRACE_EVENT_ASYNC_INSTANT:
      write_async (w, batch, ev);
      break;
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      write_flow (w, batch, ev);
      break;
    case TRACE_EVENT_COUNTER:
      write_counter (w, ev);
      break;
    case TRACE_EVENT_CHROME_PHASE:
      write_chrome_phase (w, batch, ev);
      break;
    default:
      perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "event of a kind with no Perfetto form dropped");
      break;
    }
}
