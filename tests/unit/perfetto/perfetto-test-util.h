/* Helpers of the Perfetto unit tests */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

#include "perfetto-private.h"
#include "perfetto-reader-private.h"
#include "perfetto-writer-private.h"
#include "trace.pb-c.h"

G_BEGIN_DECLS

GBytes *pt_write (TraceBatch **batches,
                  guint n_batches,
                  const PerfettoWriterOptions *opts,
                  PerfettoWriterStats *stats);
Perfetto__Protos__Trace *pt_unpack (GBytes *bytes);
TraceBatch *pt_read (GBytes *bytes,
                     TraceStringPool *pool,
                     PerfettoReaderStats *stats,
                     TraceClockDomain *clock,
                     GError **error);
TraceBatch *pt_read_data_file (TraceStringPool *pool,
                               const char *name,
                               PerfettoReaderStats *stats);
char *pt_event_string (TraceBatch *batch,
                       const TraceEvent *ev);
GPtrArray *pt_event_strings (TraceBatch *batch,
                             gboolean sorted);
void pt_assert_same_events (GPtrArray *expected,
                            GPtrArray *actual);
GArray *pt_record_offsets (GBytes *bytes);

TraceEvent *pt_add (TraceBatch *b,
                    TraceEventKind kind,
                    gint64 ts,
                    gint64 pid,
                    gint64 tid,
                    const char *name);
guint32 pt_str (TraceBatch *b,
                const char *s);
TraceBatch *pt_all_kinds_batch (TraceStringPool *pool);

typedef struct
{
  guint dropped_ends;
  guint dropped_async_ends;
  guint dropped_legacy_begins;
  guint dropped_samples;
  guint dropped_thread_states; /* no Perfetto form */
} PtExpectStats;

TraceBatch *pt_expected_events (TraceBatch *in,
                                gboolean mask_kernel_pid,
                                PtExpectStats *stats);
void pt_mask_kernel_pids (TraceBatch *batch);

G_END_DECLS
