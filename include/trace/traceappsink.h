/* tracepipe - app-sink: the application pulls the events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracebatch.h>
#include <trace/traceelement.h>

G_BEGIN_DECLS

#define TRACE_TYPE_APP_SINK (trace_app_sink_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TraceAppSink, trace_app_sink, TRACE, APP_SINK, TraceElement)

TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_app_sink_pull_batch (TraceAppSink *sink);
TRACE_AVAILABLE_IN_ALL
TraceBatch *trace_app_sink_try_pull_batch (TraceAppSink *sink,
                                           gint64 timeout_us);
TRACE_AVAILABLE_IN_ALL
gboolean trace_app_sink_is_eos (TraceAppSink *sink);

G_END_DECLS
