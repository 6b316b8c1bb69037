/* tracepipe - base class for sinks that write a file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracebasesink.h>

G_BEGIN_DECLS

#define TRACE_TYPE_FILE_SINK (trace_file_sink_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceFileSink, trace_file_sink, TRACE, FILE_SINK, TraceBaseSink)

/**
 * TraceFileSinkWriteFunc:
 * @writer: a writer #TraceFileSinkClass.new_writer made
 * @batch: the events to write
 * @error: where a failure to write is said
 *
 * Returns: %FALSE with @error set when the output cannot be written
 */
typedef gboolean (*TraceFileSinkWriteFunc) (gpointer writer,
                                            TraceBatch *batch,
                                            GError **error);

/**
 * TraceFileSinkFlushFunc:
 * @writer: a writer #TraceFileSinkClass.new_writer made
 * @error: where a failure to write is said
 *
 * Returns: %FALSE with @error set when the output cannot be written
 */
typedef gboolean (*TraceFileSinkFlushFunc) (gpointer writer,
                                            GError **error);

/**
 * TraceFileSinkClass:
 * @parent_class: the parent class
 * @begin: the output is open: write a header to @stream
 * @end: EOS, after the writer finished: write the trailer; the base then
 *   closes the temporary file and renames it to `location`
 * @new_writer: makes the writer of the output, at the first batch (at
 *   EOS for a stream without any): @stream is the buffered output, @info
 *   the stream's last stream-start (its clock and its facts; %NULL when
 *   there was none). Returns the writer, which the base keeps
 * @write_batch: writes a batch with a writer @new_writer made (on the
 *   hot path: a writer's own function fits, without a wrapper)
 * @finish_writer: EOS: completes the output with @writer; @info is the
 *   last stream-start, whose metadata may have come after the events
 * @free_writer: frees a writer @new_writer made, at stop (the output is
 *   complete or thrown away) and when the sink is disposed
 * @get_drops: appends to @drops (an array of #TraceSinkDrop) every reason
 *   @writer drops events for, with its count; the base reports them in
 *   the sink's WARNING and stats (trace_base_sink_handle_drops())
 * @flush_writer: writes to the stream what @writer buffers of its own, as
 *   whole records (not what it holds back to write later, such as events
 *   waiting for their order); the base then flushes the stream into the
 *   file. Called about once a second while a stream is written, never
 *   during @write_batch, so that a file cut at any moment holds what was
 *   rendered until a second before (%NULL: the writer has no buffer)
 *
 * A sink with a `location` property (`-` for standard output) that writes
 * to a temporary file beside the target and renames it into place only
 * when the output is complete, so the target path never holds a partial
 * file.
 *
 * A subclass is its properties and a writer: the base makes the writer
 * when the first batch comes, hands it each batch (on the sink's writer
 * thread, see #TraceFileSink:writer-thread), finishes it at EOS, reports
 * what it dropped, and frees it. A subclass that sets no @new_writer
 * renders the batches itself (#TraceBaseSinkClass.render) into
 * trace_file_sink_get_stream(), and its output reaches the file only as
 * the stream's buffer fills (no flush within a second).
 */
struct _TraceFileSinkClass
{
  TraceBaseSinkClass parent_class;

  gboolean (*begin) (TraceFileSink *sink,
                     GOutputStream *stream,
                     GError **error);
  gboolean (*end) (TraceFileSink *sink,
                   GOutputStream *stream,
                   GError **error);

  gpointer (*new_writer) (TraceFileSink *sink,
                          GOutputStream *stream,
                          const TraceStreamInfo *info);
  TraceFileSinkWriteFunc write_batch;
  gboolean (*finish_writer) (TraceFileSink *sink,
                             gpointer writer,
                             const TraceStreamInfo *info,
                             GError **error);
  GDestroyNotify free_writer;
  void (*get_drops) (TraceFileSink *sink,
                     gpointer writer,
                     GArray *drops);
  TraceFileSinkFlushFunc flush_writer;

  /*< private >*/
  gpointer _reserved[2];
};

TRACE_AVAILABLE_IN_ALL
GOutputStream *trace_file_sink_get_stream (TraceFileSink *sink);
TRACE_AVAILABLE_IN_ALL
const char *trace_file_sink_get_location (TraceFileSink *sink);
TRACE_AVAILABLE_IN_ALL
gpointer trace_file_sink_get_writer (TraceFileSink *sink);

G_END_DECLS
