/* tracepipe - ftrace-sink: events written as ftrace/atrace text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/* Why events are not written: ftrace text and its atrace markers have no
 * form for them. */
typedef enum
{
  FTRACE_SINK_DROP_FLOWS,
  FTRACE_SINK_DROP_BOUND_FLOWS, /* flow ids bound to a slice or async event */
  FTRACE_SINK_DROP_JSON_LEGACY_ASYNC,
  FTRACE_SINK_DROP_NO_THREAD,
  FTRACE_SINK_DROP_BEFORE_ZERO,
  FTRACE_SINK_DROP_SCOPED_INSTANTS,
  FTRACE_SINK_DROP_ASYNC_STEPS,
  FTRACE_SINK_DROP_BAR_NAMES,
  FTRACE_SINK_DROP_FRACTIONS,
  FTRACE_SINK_DROP_PROCESS_METADATA,
  FTRACE_SINK_DROP_SAMPLES,
  FTRACE_SINK_DROP_SWITCHES_WITHOUT_PREV,
  FTRACE_SINK_DROP_OTHER,
  FTRACE_SINK_DROP_N
} FtraceSinkDrop;

typedef struct
{
  guint64 lines;
  guint64 args_not_written; /* events written without their args */
  guint64 threads_moved;    /* Chrome JSON threads given a tid of their own */
  guint64 dropped[FTRACE_SINK_DROP_N];
} FtraceSinkStats;

typedef struct _FtraceSinkWriter FtraceSinkWriter;

FtraceSinkWriter *ftrace_sink_writer_new (GOutputStream *out,
                                          gsize sort_memory,
                                          gboolean chrome_json);
void ftrace_sink_writer_free (FtraceSinkWriter *writer);
gboolean ftrace_sink_writer_write_batch (FtraceSinkWriter *writer,
                                         TraceBatch *batch,
                                         GError **error);
gboolean ftrace_sink_writer_finish (FtraceSinkWriter *writer,
                                    GError **error);
const FtraceSinkStats *ftrace_sink_writer_get_stats (FtraceSinkWriter *writer);
guint64 ftrace_sink_writer_get_late_lines (FtraceSinkWriter *writer);
gsize ftrace_sink_writer_get_peak_sort_bytes (FtraceSinkWriter *writer);
guint64 ftrace_sink_writer_get_bytes_written (FtraceSinkWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceSinkWriter, ftrace_sink_writer_free)

G_END_DECLS
