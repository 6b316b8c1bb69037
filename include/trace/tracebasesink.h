/* tracepipe - base classes for sinks
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <gio/gio.h>
#include <trace/traceelement.h>

G_BEGIN_DECLS

#define TRACE_TYPE_BASE_SINK (trace_base_sink_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceBaseSink, trace_base_sink, TRACE, BASE_SINK, TraceElement)

/**
 * TraceBaseSinkClass:
 * @parent_class: the parent class
 * @start: prepares (NULL→READY)
 * @stop: releases (READY→NULL); also called after an error
 * @stream_start: sees each stream-start (its clock domain, its format)
 * @render: consumes a batch; on failure returns %TRACE_FLOW_ERROR with
 *   @error set (the base posts it)
 * @finish: at EOS, completes the output; the base posts EOS afterwards
 * @explain_error: adds to an error of @render or @finish what the user
 *   needs to act on it (the file it concerns), before the base posts it
 * @get_output_name: (nullable): names what the sink writes (a file's
 *   path as the user gave it) at the start of its warnings, or %NULL
 *
 * A sink with one `sink` pad. The base posts the sink's EOS message once
 * finish succeeded, so a pipeline's EOS means every output is complete.
 */
struct _TraceBaseSinkClass
{
  TraceElementClass parent_class;

  gboolean (*start) (TraceBaseSink *sink,
                     GError **error);
  gboolean (*stop) (TraceBaseSink *sink,
                    GError **error);
  void (*stream_start) (TraceBaseSink *sink,
                        const TraceStreamInfo *info);
  TraceFlowReturn (*render) (TraceBaseSink *sink,
                             TraceBatch *batch,
                             GError **error);
  gboolean (*finish) (TraceBaseSink *sink,
                      GError **error);
  void (*explain_error) (TraceBaseSink *sink,
                         GError *error);
  const char *(*get_output_name) (TraceBaseSink *sink);

  /*< private >*/
  gpointer _reserved[7];
};

/**
 * TraceSinkDrop:
 * @key: the reason as a stats key: `unmatched-end` becomes `dropped-unmatched-end`
 * @what: the reason in words, plural, for the warning: `slice ends without a begin`
 * @count: how many events were dropped for it
 *
 * One reason a sink dropped events, for trace_base_sink_report_drops().
 */
typedef struct
{
  const char *key;
  const char *what;
  guint64 count;
} TraceSinkDrop;

TRACE_AVAILABLE_IN_ALL
void trace_base_sink_report_drops (TraceBaseSink *sink,
                                   const TraceSinkDrop *drops,
                                   guint n_drops);
TRACE_AVAILABLE_IN_ALL
void trace_base_sink_add_drop_stats (GVariantDict *dict,
                                     const TraceSinkDrop *drops,
                                     guint n_drops);
TRACE_AVAILABLE_IN_ALL
void trace_base_sink_handle_drops (TraceBaseSink *sink,
                                   GVariantDict *dict,
                                   const TraceSinkDrop *drops,
                                   guint n_drops);
TRACE_AVAILABLE_IN_ALL
guint64 trace_base_sink_get_events_rendered (TraceBaseSink *sink);
TRACE_AVAILABLE_IN_ALL
void trace_base_sink_class_set_keeps_arg_shape (TraceBaseSinkClass *klass,
                                                gboolean keeps);
TRACE_AVAILABLE_IN_ALL
void trace_base_sink_class_set_reads_arg_text (TraceBaseSinkClass *klass,
                                               gboolean reads);
TRACE_AVAILABLE_IN_ALL
const TraceStreamInfo *trace_base_sink_get_stream_info (TraceBaseSink *sink);

G_END_DECLS
