/* tracepipe - Perfetto reader: TrackEvents with a legacy (Chrome JSON) phase
 *
 * Chrome and older SDKs write TrackEvents with no type but a
 * `legacy_event.phase`, the phase letter of Chrome's JSON format. They
 * come back as the events json-src makes of the same letters:
 *
 *   B E X          slice begin / end / complete (duration_us) of a thread
 *   i I R          instant of the thread, process or trace (its scope)
 *   b e n          nestable async begin / end / instant (the id's slice)
 *   S T p F        async begin / step / step / end: not flagged legacy
 *                  (unnestable), since trace_processor nests a TrackEvent's
 *                  S on its id's track as it nests b; only atrace's S|
 *                  (and JSON's, which it ignores) behave otherwise
 *   s t f          flow start / step / end
 *
 * An async id is global when unscoped or global_id, the process's when
 * local_id, as trace_processor scopes them. Any other phase of a thread
 * ('O', '(', 'C', an 'M' that names no process or thread, …) is a
 * TRACE_EVENT_CHROME_PHASE: trace_processor keeps it as a raw row and a
 * thread_time value. Names given by 'M' and phases that are no printable
 * letter are counted in unsupported_events.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-reader-private.h"

typedef Perfetto__Protos__TrackEvent__LegacyEvent PerfettoLegacyEvent;

static TraceEvent *
emit_named (PerfettoReader *r,
            PerfettoSeq *seq,
            const PerfettoRTrack *track,
            const PerfettoTrackEvent *te,
            TraceEventKind kind,
            gint64 ts)
{
  TraceEvent *ev = perfetto_reader_emit (r, kind, ts);

  ev->pid = track->pid;
  ev->tid = track->tid;
  ev->name = perfetto_reader_event_name (r, seq, te);
  ev->category = perfetto_reader_event_category (r, seq, te);
  return ev;
}

static void
read_flow (PerfettoReader *r,
           PerfettoSeq *seq,
           const PerfettoRTrack *track,
           const PerfettoTrackEvent *te,
           TraceEventKind kind,
           gint64 ts)
{
  const PerfettoLegacyEvent *legacy = te->legacy_event;
  TraceEvent *ev = emit_named (r, seq, track, te, kind, ts);

  ev->u.async.id = legacy->has_unscoped_id ? legacy->unscoped_id
                   : legacy->has_global_id ? legacy->global_id
                                           : legacy->local_id;
  /* bind_to_enclosing is false unless stated: the next slice */
  if (kind == TRACE_EVENT_FLOW_END && !(legacy->has_bind_to_enclosing && legacy->bind_to_enclosing))
    ev->flags |= TRACE_EVENT_FLAG_FLOW_NEXT_SLICE;
  perfetto_reader_event_thread_time (r, seq, ev, te);
  perfetto_reader_event_args (r, seq, ev, te);
}

/* B, E and X belong to a thread: trace_processor refuses them elsewhere
 * ("without thread association"), so they are counted, not guessed. */
static void
read_slice (PerfettoReader *r,
            PerfettoSeq *seq,
            const PerfettoRTrack *track,
            const PerfettoTrackEvent *te,
            TraceEventKind kind,
            gint64 ts)
{
  const PerfettoLegacyEvent *legacy = te->legacy_event;
  TraceEvent *ev;

  if (track->kind != PERFETTO_RTRACK_THREAD)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy B, E or X event of no thread");
      return;
    }
  if (kind == TRACE_EVENT_SLICE_COMPLETE && legacy->duration_us < 0)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy X event with a negative duration");
      return;
    }
  ev = emit_named (r, seq, track, te, kind, ts);
  perfetto_reader_event_thread_time (r, seq, ev, te);
  if (kind == TRACE_EVENT_SLICE_COMPLETE)
    {
      ev->u.slice.dur = perfetto_us_to_ns (legacy->duration_us);
      if (legacy->has_thread_duration_us)
        {
          ev->u.slice.thread_dur = perfetto_us_to_ns (legacy->thread_duration_us);
          ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;
        }
    }
  perfetto_reader_event_args (r, seq, ev, te);
  perfetto_reader_event_flows (r, ev, te);
}

static void
read_instant (PerfettoReader *r,
              PerfettoSeq *seq,
              const PerfettoRTrack *track,
              const PerfettoTrackEvent *te,
              gint64 ts)
{
  TraceEvent *ev;

  switch (te->legacy_event->instant_event_scope)
    {
    case PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_GLOBAL:
      ev = emit_named (r, seq, track, te, TRACE_EVENT_INSTANT, ts);
      ev->flags |= TRACE_EVENT_FLAG_SCOPE_GLOBAL;
      break;
    case PERFETTO__PROTOS__TRACK_EVENT__LEGACY_EVENT__INSTANT_EVENT_SCOPE__SCOPE_PROCESS:
      if (track->pid == TRACE_ID_UNKNOWN)
        {
          perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy process instant of no process");
          return;
        }
      ev = emit_named (r, seq, track, te, TRACE_EVENT_INSTANT, ts);
      ev->flags |= TRACE_EVENT_FLAG_SCOPE_PROCESS;
      break;
    default:
      read_slice (r, seq, track, te, TRACE_EVENT_INSTANT, ts);
      return;
    }
  /* trace_processor takes the thread time fields of a thread's events
   * only, but a thread_time counter value of any */
  if (r->event_thread_ts_counted)
    perfetto_reader_event_thread_time (r, seq, ev, te);
  perfetto_reader_event_args (r, seq, ev, te);
  perfetto_reader_event_flows (r, ev, te);
}

static void
read_async (PerfettoReader *r,
            PerfettoSeq *seq,
            const PerfettoRTrack *track,
            const PerfettoTrackEvent *te,
            TraceEventKind kind,
            TraceEventFlags phase_flags,
            gint64 ts)
{
  const PerfettoLegacyEvent *legacy = te->legacy_event;
  TraceEvent *ev;

  if (!legacy->has_unscoped_id && !legacy->has_global_id && !legacy->has_local_id)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy async event without an id");
      return;
    }
  if (legacy->has_local_id && !legacy->has_unscoped_id && !legacy->has_global_id && track->pid == TRACE_ID_UNKNOWN)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy async event with a local id of no process");
      return;
    }
  /* tid stays the recording thread's, whose thread time the event
   * carries: the slice is the id's, on no thread */
  ev = emit_named (r, seq, track, te, kind, ts);
  ev->flags |= TRACE_EVENT_FLAG_LEGACY_PHASE | phase_flags;
  perfetto_reader_event_thread_time (r, seq, ev, te);
  if (legacy->has_unscoped_id || legacy->has_global_id)
    {
      ev->flags |= TRACE_EVENT_FLAG_ID_GLOBAL;
      ev->u.async.id = legacy->has_unscoped_id ? legacy->unscoped_id : legacy->global_id;
    }
  else
    ev->u.async.id = legacy->local_id;
  if (legacy->id_scope)
    ev->u.async.scope = perfetto_reader_intern (r, legacy->id_scope);
  perfetto_reader_event_args (r, seq, ev, te);
  /* trace_processor binds the flows of a legacy b, e, n, S or F to its
   * async slice, and none of a step's */
  if (kind == TRACE_EVENT_ASYNC_STEP)
    ev->u.async.step = perfetto_reader_string_arg (r->batch, ev, r->k_step);
  else
    perfetto_reader_event_flows (r, ev, te);
}

/* a printable letter that a JSON string holds as it is */
static gboolean
is_phase_letter (gint32 phase)
{
  return phase > ' ' && phase < 0x7f && phase != '"' && phase != '\\';
}

static TraceChromeIdKind
read_id (const PerfettoLegacyEvent *legacy,
         guint64 *id)
{
  if (legacy->has_unscoped_id)
    {
      *id = legacy->unscoped_id;
      return TRACE_CHROME_ID_UNSCOPED;
    }
  if (legacy->has_global_id)
    {
      *id = legacy->global_id;
      return TRACE_CHROME_ID_GLOBAL;
    }
  *id = legacy->local_id;
  return legacy->has_local_id ? TRACE_CHROME_ID_LOCAL : TRACE_CHROME_ID_NONE;
}

/* trace_processor names a process or thread of an 'M' so named, and
 * keeps the others as raw rows */
static gboolean
names_process_or_thread (PerfettoReader *r,
                         PerfettoSeq *seq,
                         const PerfettoTrackEvent *te)
{
  const char *name = trace_string_pool_get (r->pool, perfetto_reader_event_name (r, seq, te));

  return g_strcmp0 (name, "thread_name") == 0 || g_strcmp0 (name, "process_name") == 0;
}

static void
read_other_phase (PerfettoReader *r,
                  PerfettoSeq *seq,
                  const PerfettoRTrack *track,
                  const PerfettoTrackEvent *te,
                  gint64 ts)
{
  const PerfettoLegacyEvent *legacy = te->legacy_event;
  TraceEvent *ev;

  if (track->kind != PERFETTO_RTRACK_THREAD)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy event of another phase of no thread");
      return;
    }
  ev = emit_named (r, seq, track, te, TRACE_EVENT_CHROME_PHASE, ts);
  ev->u.chrome_phase.phase = (guint8) legacy->phase;
  ev->u.chrome_phase.id_kind = read_id (legacy, &ev->u.chrome_phase.id);
  if (legacy->id_scope)
    ev->u.chrome_phase.scope = perfetto_reader_intern (r, legacy->id_scope);
  perfetto_reader_event_thread_time (r, seq, ev, te);
  perfetto_reader_event_args (r, seq, ev, te);
}

/* An event on its sequence's thread may name another thread of the
 * process (`tid_override`), as trace_processor reads it; thread 0 it
 * refuses (the swapper's). A pid override (a synthetic thread of another
 * process) is counted, not read. */
static gboolean
override_thread (PerfettoReader *r,
                 const PerfettoLegacyEvent *legacy,
                 const PerfettoRTrack *track,
                 PerfettoRTrack *overridden)
{
  if (legacy->has_pid_override)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy event with a pid override");
      return FALSE;
    }
  if (legacy->tid_override == 0 || track->pid == 0)
    {
      perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy event of thread 0 (tid_override)");
      return FALSE;
    }
  *overridden = *track;
  overridden->tid = legacy->tid_override;
  return TRUE;
}

/**
 * perfetto_reader_legacy_event:
 * @r: a #PerfettoReader
 * @seq: the packet's sequence
 * @track: the event's track (its sequence's thread for most legacy
 *   events, whose `tid_override` then names the thread)
 * @te: a TrackEvent with `legacy_event.phase`
 * @ts: the packet's time
 */
void
perfetto_reader_legacy_event (PerfettoReader *r,
                              PerfettoSeq *seq,
                              const PerfettoRTrack *track,
                              const PerfettoTrackEvent *te,
                              gint64 ts)
{
  PerfettoRTrack overridden;

  if (track == &seq->thread_track && (te->legacy_event->has_tid_override || te->legacy_event->has_pid_override))
    {
      if (!override_thread (r, te->legacy_event, track, &overridden))
        return;
      track = &overridden;
    }
  switch (te->legacy_event->phase)
    {
    case 'B':
      read_slice (r, seq, track, te, TRACE_EVENT_SLICE_BEGIN, ts);
      break;
    case 'E':
      read_slice (r, seq, track, te, TRACE_EVENT_SLICE_END, ts);
      break;
    case 'X':
      read_slice (r, seq, track, te, TRACE_EVENT_SLICE_COMPLETE, ts);
      break;
    case 'i':
    case 'I':
    case 'R':
      read_instant (r, seq, track, te, ts);
      break;
    case 'b':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_BEGIN, 0, ts);
      break;
    case 'e':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_END, 0, ts);
      break;
    case 'n':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_INSTANT, 0, ts);
      break;
    case 'S':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_BEGIN, TRACE_EVENT_FLAG_PHASE_S, ts);
      break;
    case 'T':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_STEP, TRACE_EVENT_FLAG_PHASE_S, ts);
      break;
    case 'p':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_STEP, TRACE_EVENT_FLAG_PHASE_S | TRACE_EVENT_FLAG_STEP_PAST, ts);
      break;
    case 'F':
      read_async (r, seq, track, te, TRACE_EVENT_ASYNC_END, TRACE_EVENT_FLAG_PHASE_S, ts);
      break;
    case 's':
      read_flow (r, seq, track, te, TRACE_EVENT_FLOW_START, ts);
      break;
    case 't':
      read_flow (r, seq, track, te, TRACE_EVENT_FLOW_STEP, ts);
      break;
    case 'f':
      read_flow (r, seq, track, te, TRACE_EVENT_FLOW_END, ts);
      break;
    default:
      if (!is_phase_letter (te->legacy_event->phase))
        perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy event of a phase that is no letter");
      else if (te->legacy_event->phase == 'M' && names_process_or_thread (r, seq, te))
        perfetto_reader_skip (r, &r->stats.unsupported_events, 1, "legacy metadata event naming a process or thread");
      else
        read_other_phase (r, seq, track, te, ts);
      break;
    }
}
