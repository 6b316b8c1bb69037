/* tracepipe - base class for sources that read a file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracebasesrc.h>

G_BEGIN_DECLS

#define TRACE_TYPE_FILE_SRC (trace_file_src_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceFileSrc, trace_file_src, TRACE, FILE_SRC, TraceBaseSrc)

/**
 * TraceFileSrcClass:
 * @parent_class: the parent class
 * @open: called in start once the input is open: @stream reads the
 *   file (or standard input for `-`), already decompressed when it was
 *   gzip; @size is the file's size, 0 when unknown
 *
 * A source with a `location` property. The base opens the input, with an
 * error that quotes the location exactly as given, and reports progress
 * from the bytes read.
 */
struct _TraceFileSrcClass
{
  TraceBaseSrcClass parent_class;

  gboolean (*open) (TraceFileSrc *src,
                    GInputStream *stream,
                    guint64 size,
                    GError **error);

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
const char *trace_file_src_get_location (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
const char *trace_file_src_get_display_name (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
guint64 trace_file_src_get_bytes_read (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
guint64 trace_file_src_get_size (TraceFileSrc *src);
TRACE_AVAILABLE_IN_ALL
void trace_file_src_update_progress (TraceFileSrc *src);

G_END_DECLS
