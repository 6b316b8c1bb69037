/* tracepipe - clock-sync: several clocks, one timeline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

#define TRACE_TYPE_CLOCK_SYNC_PAD (trace_clock_sync_pad_get_type ())
G_DECLARE_FINAL_TYPE (TraceClockSyncPad, trace_clock_sync_pad, TRACE, CLOCK_SYNC_PAD, TraceAggregatorPad)

#define TRACE_TYPE_CLOCK_SYNC (trace_clock_sync_get_type ())
G_DECLARE_FINAL_TYPE (TraceClockSync, trace_clock_sync, TRACE, CLOCK_SYNC, TraceAggregator)

TRACE_ELEMENT_REGISTER_DECLARE (clock_sync)

G_END_DECLS
