/* tracepipe - clock-sync: moving events onto the target clock
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "clocksync-private.h"

/* A marker's other times move with the stream only where they are in the
 * stream's own clock: a sync's issue_ts always is, a pair's other_ts only
 * when it names the stream's clock. */
static void
shift_marker (TraceEvent *ev,
              gint64 offset,
              TraceClockDomain from,
              TraceClockDomain to)
{
  if (ev->u.clock.marker == TRACE_CLOCK_MARKER_SYNC_ID)
    {
      if (ev->u.clock.issue_ts != 0)
        ev->u.clock.issue_ts = trace_time_add_saturated (ev->u.clock.issue_ts, offset);
      if (from != TRACE_CLOCK_UNKNOWN && ev->u.clock.domain == (guint) from)
        ev->u.clock.domain = to;
    }
  else if (clocksync_domain_is_shared (from) && ev->u.clock.domain == (guint) from)
    {
      ev->u.clock.other_ts = trace_time_add_saturated (ev->u.clock.other_ts, offset);
      ev->u.clock.domain = to;
    }
}

void
clocksync_shift_batch (TraceBatch *batch,
                       gint64 offset,
                       TraceClockDomain from,
                       TraceClockDomain to)
{
  TraceEvent *ev = batch->events, *end = batch->events + batch->n_events;

  for (; ev < end; ev++)
    {
      if (G_UNLIKELY (clocksync_kind_is_untimed (ev->kind)) && ev->ts == 0)
        continue;
      ev->ts = trace_time_add_saturated (ev->ts, offset);
      if (G_UNLIKELY (ev->kind == TRACE_EVENT_CLOCK_MARKER))
        shift_marker (ev, offset, from, to);
    }
}

/* Where a batch starts, cheaply: its first timed event (sources emit in
 * time order or nearly). Only used to interleave inputs. */
gint64
clocksync_batch_start (TraceBatch *batch)
{
  for (guint i = 0; i < batch->n_events && i < 16; i++)
    if (!clocksync_kind_is_untimed (batch->events[i].kind))
      return batch->events[i].ts;
  return batch->n_events > 0 ? batch->events[0].ts : G_MAXINT64;
}
