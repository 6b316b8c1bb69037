/* tracepipe - ftrace-src's reader: files in, batches of events out
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reads ftrace text (raw `trace` dumps, atrace output, OpenHarmony dumps,
 * trace-cmd reports), systrace HTML (modern, legacy, trace2html),
 * `atrace -z` captures, gzip files, UTF-16 text and RheaTrace/btrace raw
 * captures, detected from the content. Streams: memory does not grow with
 * the input.
 *
 *   g_autoptr (FtraceReader) r = ftrace_reader_new (in, "trace.html", pool, NULL);
 *   TraceBatch *batch;
 *   while (ftrace_reader_read_batch (r, &batch, &error) && batch != NULL)
 *     push (batch);
 *   summary = ftrace_reader_get_summary (r);    (a WARNING when not NULL)
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

#include "ftrace-parser.h"

G_BEGIN_DECLS

/**
 * FtraceReaderOptions:
 * @pid: the app's pid for a RheaTrace main-thread capture without its
 *   TRACE_START line; 0 when not given
 * @process_name: (nullable): the app's process name (a PROCESS_NAME event
 *   for RheaTrace captures)
 * @format: (nullable): %NULL or "auto" to detect, else one of
 *   ftrace_reader_get_formats()
 */
typedef struct
{
  gint64 pid;
  const char *process_name;
  const char *format;
} FtraceReaderOptions;

typedef struct _FtraceReader FtraceReader;

FtraceReader *ftrace_reader_new (GInputStream *in,
                                 const char *location,
                                 TraceStringPool *pool,
                                 const FtraceReaderOptions *opts);
void ftrace_reader_free (FtraceReader *reader);

gboolean ftrace_reader_read_batch (FtraceReader *reader,
                                   TraceBatch **out,
                                   GError **error);

TraceClockDomain ftrace_reader_get_clock_domain (FtraceReader *reader);
const char *ftrace_reader_get_format (FtraceReader *reader);
const char *ftrace_reader_get_compression (FtraceReader *reader);
guint64 ftrace_reader_get_bytes_read (FtraceReader *reader);
guint64 ftrace_reader_get_nul_bytes (FtraceReader *reader);
const FtraceStats *ftrace_reader_get_stats (FtraceReader *reader);
char *ftrace_reader_get_summary (FtraceReader *reader);
FtraceParser *ftrace_reader_get_parser (FtraceReader *reader);

const char *const *ftrace_reader_get_formats (void);
gboolean ftrace_reader_is_format (const char *format);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceReader, ftrace_reader_free)

G_END_DECLS
