/* tracepipe - Perfetto writer: clock snapshots
 *
 * The trace's clock is stated in a ClockSnapshot ahead of every other
 * packet, and each exact pair of clock readings the stream carries
 * becomes one more; the other clock markers are written as atrace
 * clock-sync markers, whose text is made here and which
 * perfetto-writer-ftrace.c writes as ftrace prints.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

/* A pair of BOOTTIME and the stream's clock among the first events
 * (clock-sync puts one there for every input it moved): the header must
 * state that relation, not a second, contradicting one. */
static const TraceEvent *
find_boottime_pair (TraceBatch *batch)
{
  for (guint i = 0; batch && i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_CLOCK_MARKER && ev->u.clock.marker == TRACE_CLOCK_MARKER_PAIR &&
          ev->u.clock.domain == TRACE_CLOCK_BOOTTIME)
        return ev;
    }
  return NULL;
}

/**
 * perfetto_write_clock_snapshot:
 * @w: a #PerfettoWriter
 * @ids: two builtin clocks
 * @values: their readings at one moment, the first the packet's time
 * @primary: whether the first is stated as the trace's clock
 *
 * Writes a ClockSnapshot of two clocks.
 */
void
perfetto_write_clock_snapshot (PerfettoWriter *w,
                               const guint32 ids[2],
                               const gint64 values[2],
                               gboolean primary)
{
  Perfetto__Protos__ClockSnapshot snap = PERFETTO__PROTOS__CLOCK_SNAPSHOT__INIT;
  Perfetto__Protos__ClockSnapshot__Clock clocks[2];
  Perfetto__Protos__ClockSnapshot__Clock *ptrs[2] = { &clocks[0], &clocks[1] };

  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__clock_snapshot__clock__init (&clocks[i]);
      clocks[i].has_clock_id = clocks[i].has_timestamp = TRUE;
      clocks[i].clock_id = ids[i];
      clocks[i].timestamp = perfetto_timestamp (w, values[i]);
    }
  snap.n_clocks = 2;
  snap.clocks = ptrs;
  snap.has_primary_trace_clock = primary;
  snap.primary_trace_clock = primary ? ids[0] : 0;
  w->pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_CLOCK_SNAPSHOT;
  w->pkt.clock_snapshot = &snap;
  perfetto_packet_emit (w, values[0], TRUE, FALSE);
}

/* The first packet of a stream not on BOOTTIME is a clock snapshot that
 * makes its clock the trace's clock. Kernel events are written as
 * BOOTTIME (the only clock ftrace bundles can state for a stream of
 * any domain), so the snapshot also ties BOOTTIME to the stream's clock:
 * by the pair the stream gives when it has one, else one to one, so both
 * land on the same timeline. */
void
perfetto_write_header (PerfettoWriter *w,
                       TraceBatch *batch)
{
  guint32 ids[2] = { w->builtin_clock, PERFETTO_CLOCK_BOOTTIME };
  const TraceEvent *pair = find_boottime_pair (batch);
  gint64 ts = batch && batch->n_events ? batch->events[0].ts : 0;
  gint64 values[2] = { ts, ts };

  w->started = TRUE;
  if (w->builtin_clock == PERFETTO_CLOCK_BOOTTIME)
    return;
  if (pair)
    {
      values[0] = pair->ts;
      values[1] = pair->u.clock.other_ts;
      w->header_has_pair = TRUE;
      w->header_pair_ts = pair->ts;
      w->header_pair_other = pair->u.clock.other_ts;
    }
  perfetto_write_clock_snapshot (w, ids, values, TRUE);
}

static guint32
strict_builtin_clock (TraceClockDomain domain)
{
  switch (domain)
    {
    case TRACE_CLOCK_BOOTTIME:
    case TRACE_CLOCK_MONOTONIC:
    case TRACE_CLOCK_MONOTONIC_RAW:
    case TRACE_CLOCK_REALTIME:
      return perfetto_clock_domain_to_builtin (domain);
    default:
      return 0;
    }
}

/**
 * perfetto_write_clock_pair:
 * @w: a #PerfettoWriter
 * @ev: a clock marker of an exact pair of readings
 *
 * An exact pair of clock readings is what a ClockSnapshot is.
 */
static void
perfetto_write_clock_pair (PerfettoWriter *w,
                           const TraceEvent *ev)
{
  guint32 other = strict_builtin_clock (ev->u.clock.domain);
  gint64 values[2] = { ev->ts, ev->u.clock.other_ts };
  guint32 ids[2] = { w->builtin_clock, other };

  if (other == 0 || other == w->builtin_clock)
    {
      perfetto_writer_drop (w, &w->stats.dropped_clock_marker, 1, ev->ts, "clock pair with no second builtin clock dropped");
      return;
    }
  /* the header holds it already (a reader takes it from there) */
  if (w->header_has_pair && ev->u.clock.domain == TRACE_CLOCK_BOOTTIME && ev->ts == w->header_pair_ts &&
      ev->u.clock.other_ts == w->header_pair_other)
    {
      w->header_has_pair = FALSE;
      return;
    }
  perfetto_write_clock_snapshot (w, ids, values, FALSE);
}

/* Returns: the atrace text of a clock-sync marker, or %NULL */
static char *
perfetto_clock_marker_text (PerfettoWriter *w,
                            const TraceEvent *ev)
{
  char num[G_ASCII_DTOSTR_BUF_SIZE];

  switch (ev->u.clock.marker)
    {
    case TRACE_CLOCK_MARKER_PARENT_TS:
      g_ascii_formatd (num, sizeof num, ev->u.clock.other_ts % 1000 == 0 ? "%.6f" : "%.9f",
                       ev->u.clock.other_ts / 1e9);
      return g_strdup_printf (PERFETTO_CLOCK_SYNC_PREFIX "parent_ts=%s", num);
    case TRACE_CLOCK_MARKER_REALTIME_TS:
      return g_strdup_printf (PERFETTO_CLOCK_SYNC_PREFIX "realtime_ts=%" G_GINT64_FORMAT,
                              ev->u.clock.other_ts / 1000000);
    case TRACE_CLOCK_MARKER_SYNC_ID:
      return g_strdup_printf (PERFETTO_CLOCK_SYNC_PREFIX "name=%s", perfetto_str (w, ev->u.clock.sync_id));
    default:
      return NULL;
    }
}

/**
 * perfetto_write_clock_marker:
 * @w: a #PerfettoWriter
 * @ev: a clock marker
 *
 * Exact pairs become ClockSnapshots; the other markers go back as the
 * atrace clock-sync text they came from (perfetto-writer-ftrace.c).
 */
void
perfetto_write_clock_marker (PerfettoWriter *w,
                             const TraceEvent *ev)
{
  g_autofree char *text = NULL;

  if (ev->u.clock.marker == TRACE_CLOCK_MARKER_PAIR)
    {
      perfetto_write_clock_pair (w, ev);
      return;
    }
  text = perfetto_clock_marker_text (w, ev);
  perfetto_write_clock_sync_print (w, ev, text);
}
