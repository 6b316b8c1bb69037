/* tracepipe tests - htrace: running the reader, and a protobuf walker of
 * the tests' own that derives expectations from the files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "htrace-private.h"

typedef struct
{
  TraceStringPool *pool;
  HtraceReader *reader;
  GPtrArray *batches;
} HtraceRun;

HtraceRun *htrace_run_bytes (const void *data,
                             gsize len,
                             GError **error);
HtraceRun *htrace_run_file (const char *name,
                            GError **error);
void htrace_run_free (HtraceRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HtraceRun, htrace_run_free)

char *htrace_test_path (const char *name);
GBytes *htrace_test_read (const char *name);

guint htrace_run_count (HtraceRun *run,
                        TraceEventKind kind,
                        const char *name);
const TraceEvent *htrace_run_first (HtraceRun *run,
                                    TraceEventKind kind,
                                    const char *name);
const char *htrace_run_string (HtraceRun *run,
                               guint32 id);

/* One protobuf field: its number, wire type, and value or bytes. */
typedef struct
{
  const guint8 *p, *end;
  guint field, wire_type;
  guint64 value;
  const guint8 *data;
  gsize len;
} Wire;

void wire_init (Wire *w,
                const guint8 *data,
                gsize len);
gboolean wire_next (Wire *w);
/* the first length-delimited field @field of @data, or FALSE */
gboolean wire_find (const guint8 *data,
                    gsize len,
                    guint field,
                    const guint8 **out,
                    gsize *out_len);
guint64 wire_find_varint (const guint8 *data,
                          gsize len,
                          guint field);

/* A record of an htrace file, walked by the tests' own code. */
typedef struct
{
  char *name;
  guint64 tv_sec, tv_nsec;
  const guint8 *data;
  gsize len;
} WireRecord;

typedef void (*WireRecordFunc) (const WireRecord *rec,
                                gpointer user_data);
guint wire_foreach_record (GBytes *file,
                           WireRecordFunc func,
                           gpointer user_data);

/* Writes an htrace file: a header (boottime, realtime and monotonic
 * readings, 0 for none) and records added with wire_file_add_record(). */
GByteArray *wire_file_new (guint64 boottime,
                           guint64 realtime,
                           guint64 monotonic);
void wire_put_varint (GByteArray *b,
                      guint field,
                      guint64 v);
void wire_put_bytes (GByteArray *b,
                     guint field,
                     const void *data,
                     gsize len);
void wire_file_add_record (GByteArray *file,
                           const char *plugin,
                           guint64 tv_sec,
                           guint64 tv_nsec,
                           const GByteArray *result);
