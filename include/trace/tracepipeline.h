/* tracepipe - the top-level bin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracebin.h>
#include <trace/tracebus.h>

G_BEGIN_DECLS

#define TRACE_TYPE_PIPELINE (trace_pipeline_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_FINAL_TYPE (TracePipeline, trace_pipeline, TRACE, PIPELINE, TraceBin)

TRACE_AVAILABLE_IN_ALL
TraceElement *trace_pipeline_new (const char *name);
TRACE_AVAILABLE_IN_ALL
TraceBus *trace_pipeline_get_bus (TracePipeline *pipeline);
TRACE_AVAILABLE_IN_ALL
GMainContext *trace_pipeline_get_context (TracePipeline *pipeline);
TRACE_AVAILABLE_IN_ALL
void trace_pipeline_set_context (TracePipeline *pipeline,
                                 GMainContext *context);
TRACE_AVAILABLE_IN_ALL
TraceStringPool *trace_pipeline_get_string_pool (TracePipeline *pipeline);
TRACE_AVAILABLE_IN_ALL
void trace_pipeline_send_eos (TracePipeline *pipeline);
TRACE_AVAILABLE_IN_ALL
gboolean trace_pipeline_run (TracePipeline *pipeline,
                             GError **error);

G_END_DECLS
