/* tracepipe - what the files of the clock-sync element share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "clocksync-solver.h"
#include "traceclocksync.h"

G_BEGIN_DECLS

struct _TraceClockSyncPad
{
  TraceAggregatorPad parent_instance;

  /* properties */
  gint64 offset;
  gboolean offset_set;
  TraceClockDomain domain;

  /* one run */
  GQueue held; /* batches of the look-ahead */
  gint input;  /* index in the solver, -1 before the first batch */
  gboolean decided;
  gboolean rewrite; /* batches need shifting or markers renaming */
  gint64 applied_offset;
  TraceClockDomain applied_domain;
  gint64 first_ts; /* earliest timed event of the look-ahead */
  gboolean has_first_ts;
  guint64 events_seen;
  guint late_warnings;
};

struct _TraceClockSync
{
  TraceAggregator parent_instance;

  TraceClockDomain target;
  guint lookahead;
  gint64 guess_window;

  ClockSyncSolver *solver;
  gboolean decided;
  guint64 markers_used;
  guint64 markers_unusable;
  guint64 markers_late;
  guint64 conflicts;
};

void _trace_clock_sync_pad_reset (TraceClockSyncPad *pad);

void _trace_clock_sync_decide (TraceClockSync *self);

G_END_DECLS
