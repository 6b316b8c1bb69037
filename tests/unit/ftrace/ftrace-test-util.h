/* Unit tests of ftrace-src's parsing core: shared helpers */
#pragma once

#include <trace/trace.h>

#include "ftrace-text.h"

/* Parses @text (lines separated by '\n') with a fresh parser. */
TraceBatch *parse_text (const char *text,
                        FtraceParser **parser_out);

/* Reads a whole input through FtraceReader into one batch; NULL on error. */
TraceBatch *read_bytes (const void *data,
                        gsize len,
                        const char *location,
                        const FtraceReaderOptions *opts,
                        FtraceReader **reader_out,
                        GError **error);
TraceBatch *read_file (const char *name,
                       const FtraceReaderOptions *opts,
                       FtraceReader **reader_out,
                       GError **error);

guint count_kind (TraceBatch *batch,
                  TraceEventKind kind);
const TraceEvent *nth_of_kind (TraceBatch *batch,
                               TraceEventKind kind,
                               guint n);
const char *str (TraceBatch *batch,
                 guint32 id);
const TraceArg *find_arg (TraceBatch *batch,
                          const TraceEvent *ev,
                          const char *key);
char *data_path (const char *name);
void assert_same_args (TraceBatch *a,
                       const TraceEvent *x,
                       TraceBatch *b,
                       const TraceEvent *y);

/* Asserts the kind, ts, pid, tid and name (NULL: not checked) of event @i. */
#define check_event(batch, i, kind, ts, pid, tid, name) \
  check_event_at (__FILE__, __LINE__, (batch), (i), (kind), (ts), (pid), (tid), (name))
void check_event_at (const char *file,
                     int line,
                     TraceBatch *batch,
                     guint i,
                     TraceEventKind kind,
                     gint64 ts,
                     gint64 pid,
                     gint64 tid,
                     const char *name);
