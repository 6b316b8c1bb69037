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

/**
 * TraceSinkDropReason:
 * @TRACE_SINK_DROP_UNMATCHED_END: `unmatched-end`: slice ends without an
 *   open slice
 * @TRACE_SINK_DROP_UNMATCHED_ASYNC_END: `unmatched-async-end`: async ends
 *   without an open async slice
 * @TRACE_SINK_DROP_REPEATED_LEGACY_BEGIN: `repeated-legacy-begin`: a
 *   begin of an unnestable async slice (atrace `S|`, Chrome `S`) already
 *   open
 * @TRACE_SINK_DROP_KERNEL: `kernel`: kernel events the output has no
 *   place for
 * @TRACE_SINK_DROP_SWITCHES_WITHOUT_PREV: `switches-without-prev`: sched
 *   switches that name no previous task
 * @TRACE_SINK_DROP_UNKNOWN_STACK_NODE: `unknown-stack-node`: samples on a
 *   stack node never defined
 * @TRACE_SINK_DROP_CLOCK_MARKER: `clock-marker`: clock markers with
 *   nothing to map to
 * @TRACE_SINK_DROP_FLOWS: `flows`: flow ids of slices with no place in
 *   the output (json-sink's v2: two different ids on one slice)
 * @TRACE_SINK_DROP_THREAD_TABLE_FULL: `thread-table-full`: events of
 *   threads past the thread table
 * @TRACE_SINK_DROP_OTHER: `other`: events the output format has no form
 *   for
 * @TRACE_SINK_DROP_N_REASONS: how many reasons there are
 *
 * Why a sink dropped events. Each has one stats key and one text, the
 * same whichever sink reports it (trace_sink_drops_append()), so that a
 * user reads the same words for the same loss from every sink, in the
 * same order.
 */
typedef enum
{
  TRACE_SINK_DROP_UNMATCHED_END,
  TRACE_SINK_DROP_UNMATCHED_ASYNC_END,
  TRACE_SINK_DROP_REPEATED_LEGACY_BEGIN,
  TRACE_SINK_DROP_KERNEL,
  TRACE_SINK_DROP_SWITCHES_WITHOUT_PREV,
  TRACE_SINK_DROP_UNKNOWN_STACK_NODE,
  TRACE_SINK_DROP_CLOCK_MARKER,
  TRACE_SINK_DROP_FLOWS,
  TRACE_SINK_DROP_THREAD_TABLE_FULL,
  TRACE_SINK_DROP_OTHER,
  TRACE_SINK_DROP_N_REASONS
} TraceSinkDropReason;

TRACE_AVAILABLE_IN_ALL
void trace_sink_drops_append (GArray *drops,
                              const guint64 counts[TRACE_SINK_DROP_N_REASONS]);

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
