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
 * TraceFileSinkClass:
 * @parent_class: the parent class
 * @begin: the output is open: write a header to @stream
 * @end: EOS: write the trailer; the base then closes the temporary file
 *   and renames it to `location`
 * @interrupt: the pipeline was stopped without EOS (an error elsewhere):
 *   the base deletes the temporary file; write nothing
 *
 * A sink with a `location` property (`-` for standard output) that writes
 * to a temporary file beside the target and renames it into place only
 * when the output is complete, so the target path never holds a partial
 * file.
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

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
GOutputStream *trace_file_sink_get_stream (TraceFileSink *sink);
TRACE_AVAILABLE_IN_ALL
const char *trace_file_sink_get_location (TraceFileSink *sink);

G_END_DECLS
