/* tracepipe - the tracecmd plugin's internals
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

#include "kernel-engine.h"

G_BEGIN_DECLS

/* trace.dat's first bytes: 0x17 0x08 0x44 then "tracing" */
#define TRACECMD_MAGIC "\x17\x08\x44tracing"
#define TRACECMD_MAGIC_LEN 10

/* tracecmd-header.c */
gboolean tracecmd_has_magic (const guint8 *data,
                             gsize size);
char *tracecmd_describe_header (const char *path);

/**
 * TracecmdReaderStats:
 * @bytes_read: the file's size, once read to its end
 * @records: records read from every buffer read
 * @lost_events: events the ring buffers lost before they were saved (the
 *   records' missed-events marks and the saved per-cpu overruns)
 * @skipped_unknown_events: records of event ids without a format
 * @incomplete_events: scheduler/task records kept as generic events
 * @skipped_fields: fields of generic events not kept
 * @cut_strings: strings cut at their record's end
 * @ftrace: the ftrace engine's problems (atrace markers that do not parse)
 */
typedef struct
{
  guint64 bytes_read;
  guint64 records;
  guint64 lost_events;
  guint64 skipped_unknown_events;
  guint64 incomplete_events;
  guint64 skipped_fields;
  guint64 cut_strings;
  FtraceStats ftrace;
} TracecmdReaderStats;

typedef struct _TracecmdReader TracecmdReader;

TracecmdReader *tracecmd_reader_new (const char *path,
                                     const char *display_name,
                                     const char *buffer,
                                     TraceStringPool *pool,
                                     GError **error);
void tracecmd_reader_free (TracecmdReader *r);
gboolean tracecmd_reader_read_batch (TracecmdReader *r,
                                     TraceBatch **out,
                                     GError **error);
TraceClockDomain tracecmd_reader_get_clock_domain (TracecmdReader *r);
const char *tracecmd_reader_get_clock_name (TracecmdReader *r);
void tracecmd_reader_copy_stats (TracecmdReader *r,
                                 TracecmdReaderStats *out);
char *tracecmd_reader_get_summary (TracecmdReader *r);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TracecmdReader, tracecmd_reader_free)

#define TRACE_TYPE_TRACECMD_SRC (trace_tracecmd_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceTracecmdSrc, trace_tracecmd_src, TRACE, TRACECMD_SRC, TraceFileSrc)

TRACE_ELEMENT_REGISTER_DECLARE (tracecmd_src)

G_END_DECLS
