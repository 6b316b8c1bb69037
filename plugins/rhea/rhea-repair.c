/* tracepipe - the logic of the `rhea-repair` element
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One pass over each batch.  Events that are not slices pass untouched;
 * slice events go through their thread's stack (rhea-frames.c).  Output
 * is written in place while events only get renamed or dropped, and
 * switches to a spill batch at the first event that has to be inserted
 * (a synthesized end, held events released), so the common case copies
 * nothing.  See docs/rhea-repair.md.
 */
#include "rhea-private.h"

#include <string.h>

static const char *const repair_names[N_REPAIRS] = {
  [REPAIR_EXITED_BY_THROW] = "exited-by-throw",
  [REPAIR_UNWOUND] = "unwound-by-exception",
  [REPAIR_MISSING_END] = "missing-end",
  [REPAIR_CLOSED_AT_EOS] = "closed-at-eos",
};

/**
 * rhea_repair_new:
 * @pool: (nullable): the pipeline's string pool, or %NULL for the default
 *
 * Returns: (transfer full): a repair with the default options
 */
const char *
rhea_repair_kind_name (RepairKind kind)
{
  return repair_names[kind];
}

/* Counts one more of something repaired or dropped; the first one of each
 * kind is logged (never every one: this runs per event). */
void
rhea_count (guint64 *counter,
            const char *what,
            gint64 ts,
            gint64 tid)
{
  if ((*counter)++ == 0)
    g_debug ("first %s at ts=%" G_GINT64_FORMAT " on thread %" G_GINT64_FORMAT, what, ts, tid);
}

RheaRepair *
rhea_repair_new (TraceStringPool *pool)
{
  const RheaRepairOptions defaults = {
    .markers = RHEA_REPAIR_DEFAULT_MARKERS,
    .marker_ends = RHEA_REPAIR_DEFAULT_MARKER_ENDS,
    .crash_tag = RHEA_REPAIR_DEFAULT_CRASH_TAG,
    .max_hold = RHEA_REPAIR_DEFAULT_MAX_HOLD,
    .max_hold_total = RHEA_REPAIR_DEFAULT_MAX_HOLD_TOTAL,
  };

  return rhea_repair_new_with_options (pool, &defaults);
}

/**
 * rhea_repair_new_with_options:
 * @pool: (nullable): the pipeline's string pool, or %NULL for the default
 * @opts: the options, copied (the element's properties)
 *
 * Returns: (transfer full): a repair
 */
RheaRepair *
rhea_repair_new_with_options (TraceStringPool *pool,
                              const RheaRepairOptions *opts)
{
  RheaRepair *r;

  g_return_val_if_fail (opts != NULL, NULL);

  r = g_new0 (RheaRepair, 1);
  r->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  r->opts = *opts;
  r->opts.max_hold = MAX (opts->max_hold, 1);
  r->opts.max_hold_total = MAX (opts->max_hold_total, 1);
  r->marker_cache = g_array_new (FALSE, TRUE, sizeof (MarkerInfo));
  r->threads = g_hash_table_new (g_int64_hash, g_int64_equal);
  r->thread_list = g_ptr_array_new_with_free_func (rhea_thread_free);
  r->last_tid = G_MININT64;
  r->next_ts = G_MAXINT64;
  r->spill = trace_batch_new (r->pool, 256);
  r->crash_names = g_hash_table_new (NULL, NULL);
  r->call_mask = 1023;
  r->call_keys = g_new0 (guint64, r->call_mask + 1);
  r->call_flags = g_new0 (guint8, r->call_mask + 1);
  r->repair_key = trace_string_pool_intern (r->pool, "repair");
  for (guint i = 0; i < N_REPAIRS; i++)
    r->repair_values[i] = trace_string_pool_intern (r->pool, repair_names[i]);
  return r;
}

void
rhea_repair_free (RheaRepair *r)
{
  if (r == NULL)
    return;
  g_array_unref (r->marker_cache);
  g_hash_table_unref (r->threads);
  g_ptr_array_unref (r->thread_list);
  trace_batch_unref (r->spill);
  g_hash_table_unref (r->crash_names);
  g_free (r->call_keys);
  g_free (r->call_flags);
  trace_string_pool_unref (r->pool);
  g_free (r);
}

/* The setters change one option of a repair made with rhea_repair_new()
 * (the unit tests use them); see #RheaRepairOptions for what each does. */
void
rhea_repair_set_markers (RheaRepair *r,
                         gboolean markers)
{
  r->opts.markers = markers;
}

void
rhea_repair_set_marker_ends (RheaRepair *r,
                             RheaMarkerEnds marker_ends)
{
  r->opts.marker_ends = marker_ends;
}

void
rhea_repair_set_crash_tag (RheaRepair *r,
                           gboolean crash_tag)
{
  r->opts.crash_tag = crash_tag;
}

void
rhea_repair_set_max_hold (RheaRepair *r,
                          guint max_events)
{
  r->opts.max_hold = MAX (max_events, 1);
}

void
rhea_repair_set_max_hold_total (RheaRepair *r,
                                guint max_events)
{
  r->opts.max_hold_total = MAX (max_events, 1);
}

void
rhea_repair_get_stats (RheaRepair *r,
                       RheaRepairStats *stats)
{
  *stats = r->stats;
}

/* ---- output ----------------------------------------------------------- */

void
rhea_output_keep_current (RheaRepair *r,
                          guint index)
{
  RheaOutput *o = &r->out;

  if (o->spill == NULL)
    {
      if (o->w != index)
        o->batch->events[o->w] = o->batch->events[index];
      o->w++;
    }
  else
    trace_batch_append_event (o->spill, &o->batch->events[index], o->batch);
  r->stats.events_out++;
}

/* Appends to the output; from now on the output is the spill batch. */
TraceEvent *
rhea_output_append (RheaRepair *r,
                    const TraceEvent *ev,
                    TraceBatch *args_from)
{
  RheaOutput *o = &r->out;

  if (o->spill == NULL)
    {
      trace_batch_clear (r->spill);
      o->spill = r->spill;
    }
  r->stats.events_out++;
  return trace_batch_append_event (o->spill, ev, args_from);
}

static void
output_finish (RheaRepair *r)
{
  RheaOutput *o = &r->out;
  TraceBatch *spill = o->spill;

  o->batch->n_events = o->w;
  if (spill != NULL)
    {
      for (guint i = 0; i < spill->n_events; i++)
        trace_batch_append_event (o->batch, &spill->events[i], spill);
      trace_batch_clear (spill);
    }
  memset (o, 0, sizeof *o);
}

/* ---- markers ---------------------------------------------------------- */

static MarkerType
marker_type_of (const char *str)
{
  if (str[0] == '\0' || str[1] != ':')
    return MARKER_NONE;
  switch (str[0])
    {
    case 'B':
      return MARKER_BEGIN;
    case 'E':
      return MARKER_RETURN;
    case 'T':
      return MARKER_THROW;
    default:
      return MARKER_NONE;
    }
}

/* What slice name @name says; looked at once per string id. */
static MarkerInfo
classify (RheaRepair *r,
          guint32 name)
{
  const char *str, *method;
  gsize len;
  MarkerInfo info = { name, MARKER_NONE };

  if (G_UNLIKELY (name >= r->marker_cache->len))
    g_array_set_size (r->marker_cache, MAX (name + 1, r->marker_cache->len * 2));
  if (G_LIKELY (g_array_index (r->marker_cache, MarkerInfo, name).type != MARKER_UNKNOWN))
    return g_array_index (r->marker_cache, MarkerInfo, name);

  str = trace_string_pool_get (r->pool, name);
  if (str != NULL)
    info.type = marker_type_of (str);
  if (info.type != MARKER_NONE)
    {
      /* btrace strips the method: `E:Foo:bar ` pairs with `B:Foo:bar` */
      method = str + 2;
      len = strlen (method);
      while (len > 0 && g_ascii_isspace (*method))
        method++, len--;
      while (len > 0 && g_ascii_isspace (method[len - 1]))
        len--;
      info.stripped = trace_string_pool_intern_len (r->pool, method, len);
    }
  g_array_index (r->marker_cache, MarkerInfo, name) = info;
  return info;
}

/* Whether a plain end right after a marker is that marker's own end. */
static gboolean
absorbs_marker_end (RheaRepair *r,
                    RheaThread *th)
{
  switch (r->opts.marker_ends)
    {
    case RHEA_MARKER_ENDS_PRESENT:
      return TRUE;
    case RHEA_MARKER_ENDS_ABSENT:
      return FALSE;
    default:
      /* undecided (no B: seen yet): an end with nothing plain to close */
      return th->n_plain == 0;
    }
}

/* ---- per event -------------------------------------------------------- */

static void
handle_return (RheaRepair *r,
               RheaThread *th,
               guint index,
               guint32 method)
{
  TraceEvent *ev = &r->out.batch->events[index];
  gint at = rhea_thread_find_method (th, method);

  if (th->n_suspended > 0)
    rhea_thread_resume (r, th, at);
  if (at < 0)
    {
      rhea_count (&r->stats.unmatched_returns, "unmatched E: dropped", ev->ts, th->tid);
      return;
    }
  rhea_thread_close_above (r, th, at);
  if (g_array_index (th->frames, Frame, at).state == FRAME_THROWN)
    {
      th->n_thrown--; /* it caught its own exception */
      r->stats.throws_caught++;
    }
  ev->kind = TRACE_EVENT_SLICE_END;
  ev->name = method;
  rhea_thread_emit_current (r, th, index);
  if (th->calls->len > 0)
    rhea_thread_learn_calls (r, th, at);
  rhea_thread_pop (th);
  r->stats.returns++;
}

static void
handle_throw (RheaRepair *r,
              RheaThread *th,
              guint32 method,
              gint64 ts)
{
  gint at = rhea_thread_find_method (th, method);

  if (th->n_suspended > 0)
    rhea_thread_resume (r, th, at);
  if (at < 0)
    {
      rhea_count (&r->stats.unmatched_throws, "unmatched T: dropped", ts, th->tid);
      return;
    }
  rhea_thread_close_above (r, th, at);
  if (th->calls->len > 0)
    rhea_thread_learn_calls (r, th, at); /* it ran until its T: */
  rhea_thread_throw (r, th, at, ts);
}

static void
handle_end (RheaRepair *r,
            RheaThread *th,
            guint index,
            guint8 previous_marker)
{
  gint at;

  if (previous_marker != MARKER_NONE && absorbs_marker_end (r, th))
    {
      r->stats.marker_ends++;
      return;
    }
  if (th->n_untracked > 0)
    {
      th->n_untracked--; /* the end of a begin dropped for depth */
      r->stats.too_deep++;
      return;
    }
  at = rhea_thread_find_plain (th);
  if (at < 0)
    {
      rhea_count (&r->stats.unmatched_ends, "unmatched slice end dropped", r->out.batch->events[index].ts, th->tid);
      return;
    }
  rhea_thread_close_above (r, th, at);
  rhea_thread_emit_current (r, th, index);
  rhea_thread_pop (th);
}

static guint8
handle_begin (RheaRepair *r,
              RheaThread *th,
              guint index)
{
  TraceEvent *ev = &r->out.batch->events[index];
  MarkerInfo info = { ev->name, MARKER_NONE };
  gboolean known;

  if (r->opts.markers)
    info = classify (r, ev->name);
  if (info.type != MARKER_RETURN && info.type != MARKER_THROW && th->frames->len >= RHEA_REPAIR_MAX_DEPTH)
    {
      /* a method's return will be unmatched; a plain end is paired here */
      if (info.type == MARKER_NONE)
        th->n_untracked++;
      rhea_count (&r->stats.too_deep, "slice begin dropped beyond the maximum depth", ev->ts, th->tid);
      return info.type;
    }
  switch (info.type)
    {
    case MARKER_BEGIN:
      ev->name = info.stripped;
      r->stats.methods++;
      known = TRUE;
      if (th->frames->len == 0 || th->n_suspended > 0 || g_array_index (th->frames, Frame, th->frames->len - 1).last_call != info.stripped)
        known = rhea_thread_begin_method (r, th, info.stripped);
      rhea_thread_push (r, th, index, TRUE);
      g_array_index (th->frames, Frame, th->frames->len - 1).call_known = known;
      break;
    case MARKER_RETURN:
      handle_return (r, th, index, info.stripped);
      break;
    case MARKER_THROW:
      handle_throw (r, th, info.stripped, ev->ts);
      break;
    default:
      rhea_thread_push (r, th, index, FALSE);
      break;
    }
  return info.type;
}

static void
repair_event (RheaRepair *r,
              guint index)
{
  TraceEvent *ev = &r->out.batch->events[index];
  guint kind = ev->kind;
  gint64 end_ts = ev->ts;
  RheaThread *th;
  guint8 previous, marker = MARKER_NONE;

  if (!trace_event_is_slice_like (kind))
    {
      if (kind != TRACE_EVENT_NONE)
        rhea_output_keep_current (r, index);
      return;
    }
  if (kind == TRACE_EVENT_SLICE_COMPLETE)
    end_ts += MAX (ev->u.slice.dur, 0);
  th = rhea_thread_get (r, ev->tid, ev->pid);
  r->next_ts = ev->ts;
  previous = th->last_marker;
  if (previous == MARKER_BEGIN && r->opts.marker_ends == RHEA_MARKER_ENDS_AUTO)
    r->opts.marker_ends = kind == TRACE_EVENT_SLICE_END ? RHEA_MARKER_ENDS_PRESENT : RHEA_MARKER_ENDS_ABSENT;

  if (kind == TRACE_EVENT_SLICE_BEGIN)
    marker = handle_begin (r, th, index);
  else if (kind == TRACE_EVENT_SLICE_END)
    handle_end (r, th, index, previous);
  else
    rhea_thread_emit_current (r, th, index);

  th->last_marker = marker;
  th->last_ts = th->seen ? MAX (th->last_ts, end_ts) : end_ts;
  th->seen = TRUE;
  rhea_thread_settle (r, th);
}

/**
 * rhea_repair_process:
 * @batch: a writable batch, repaired in place
 *
 * Renames markers, turns `E:` into ends, drops what cannot be paired and
 * inserts estimated ends.  Events of a thread with an unsettled throw
 * are held and come out in a later batch (or at drain).
 */
void
rhea_repair_process (RheaRepair *r,
                     TraceBatch *batch)
{
  guint n;

  g_return_if_fail (r != NULL);
  g_return_if_fail (batch != NULL);

  n = batch->n_events;
  r->stats.events_in += n;
  r->out.batch = batch;
  r->out.w = 0;
  r->out.spill = NULL;
  for (guint i = 0; i < n; i++)
    repair_event (r, i);
  output_finish (r);
}

/**
 * rhea_repair_drain:
 *
 * At EOS: closes the open slices of the next thread that has any (see
 * rhea_thread_close_at_eos()) and releases its held events.  Call it
 * until it returns %NULL.  One thread at a time, so that each hold is
 * freed as its events go out: the events still held and one thread's
 * last events are in memory at once, not every held event twice.
 *
 * Returns: (transfer full) (nullable): one thread's last events, or
 *   %NULL once every thread is closed
 */
TraceBatch *
rhea_repair_drain (RheaRepair *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  r->next_ts = G_MAXINT64; /* nothing comes after the drain's ends */
  while (r->n_drained < r->thread_list->len)
    {
      TraceBatch *batch = trace_batch_new (r->pool, 64);

      memset (&r->out, 0, sizeof r->out);
      r->out.spill = batch;
      rhea_thread_close_at_eos (r, r->thread_list->pdata[r->n_drained++]);
      memset (&r->out, 0, sizeof r->out);
      if (batch->n_events > 0)
        return batch;
      trace_batch_unref (batch);
    }
  return NULL;
}

/* ---- reporting -------------------------------------------------------- */

char *
rhea_repair_stats_to_string (const RheaRepairStats *s)
{
  return g_strdup_printf ("in=%" G_GUINT64_FORMAT " out=%" G_GUINT64_FORMAT
                          " methods=%" G_GUINT64_FORMAT " returns=%" G_GUINT64_FORMAT
                          " throws=%" G_GUINT64_FORMAT " throws-caught=%" G_GUINT64_FORMAT
                          " unwound=%" G_GUINT64_FORMAT " missing-end=%" G_GUINT64_FORMAT
                          " closed-at-eos=%" G_GUINT64_FORMAT " unmatched-E=%" G_GUINT64_FORMAT
                          " unmatched-T=%" G_GUINT64_FORMAT " unmatched-end=%" G_GUINT64_FORMAT
                          " marker-ends=%" G_GUINT64_FORMAT " crash-tagged=%" G_GUINT64_FORMAT
                          " hold-overflows=%" G_GUINT64_FORMAT " hold-total-overflows=%" G_GUINT64_FORMAT
                          " too-deep=%" G_GUINT64_FORMAT
                          " suspended=%" G_GUINT64_FORMAT " resumed=%" G_GUINT64_FORMAT
                          " max-depth=%u max-held=%u max-held-total=%" G_GUINT64_FORMAT,
                          s->events_in, s->events_out, s->methods, s->returns, s->throws,
                          s->throws_caught, s->unwound, s->missing_ends, s->closed_at_eos,
                          s->unmatched_returns, s->unmatched_throws, s->unmatched_ends,
                          s->marker_ends, s->crash_tagged, s->hold_overflows, s->hold_total_overflows,
                          s->too_deep, s->suspended, s->resumed, s->max_depth, s->max_held, s->max_held_total);
}

static void
append_count (GString *s,
              guint64 n,
              const char *one,
              const char *many)
{
  if (n == 0)
    return;
  g_string_append_printf (s, "%s%" G_GUINT64_FORMAT " %s", s->len > 0 ? ", " : "", n, n == 1 ? one : many);
}

/**
 * rhea_repair_get_summary:
 *
 * Returns: (nullable): the one-line WARNING for EOS, naming every kind of
 *   repair made, or %NULL when the stream needed none
 */
char *
rhea_repair_get_summary (RheaRepair *r)
{
  const RheaRepairStats *s = &r->stats;
  GString *line = g_string_new (NULL);

  append_count (line, s->unwound,
                "method unwound by an exception (closed at the last time known inside it)",
                "methods unwound by an exception (closed at the last time known inside them)");
  append_count (line, s->throws, "method exited by a throw", "methods exited by a throw");
  append_count (line, s->missing_ends, "slice without an end closed with its parent",
                "slices without an end closed with their parent");
  append_count (line, s->closed_at_eos,
                "slice still open at the end of the stream closed at its thread's last event",
                "slices still open at the end of the stream closed at their thread's last event");
  append_count (line, s->unmatched_returns, "unmatched E: dropped", "unmatched E: dropped");
  append_count (line, s->unmatched_throws, "unmatched T: dropped", "unmatched T: dropped");
  append_count (line, s->unmatched_ends, "unmatched slice end dropped", "unmatched slice ends dropped");
  append_count (line, s->hold_overflows, "throw taken to escape every instrumented frame at the hold limit",
                "throws taken to escape every instrumented frame at the hold limit");
  append_count (line, s->hold_total_overflows,
                "hold cut at the total hold limit (frames open across it may end late)",
                "holds cut at the total hold limit (frames open across them may end late)");
  append_count (line, s->too_deep, "event dropped beyond the maximum stack depth",
                "events dropped beyond the maximum stack depth");
  if (line->len == 0)
    {
      g_string_free (line, TRUE);
      return NULL;
    }
  g_string_prepend (line, "rhea-repair: ");
  return g_string_free (line, FALSE);
}
