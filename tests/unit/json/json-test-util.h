/* tracepipe - json plugin tests: shared helpers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <trace/trace.h>

#include "json-reader.h"
#include "json-writer.h"

G_BEGIN_DECLS

/* A batch to fill, then the writer's output of it, parsed. */
typedef struct
{
  TraceStringPool *pool;
  TraceBatch *batch;
  char *text;
  gsize len;
  JsonNode *root;
  JsonArray *events;
  ChromeWriterStats stats;
} TestOut;

char *test_data_path (const char *name);
TraceBatch *test_read_data (const char *data, gssize len, const char *location, TraceStringPool *pool, ChromeReader **reader, GError **error);
TraceBatch *test_read_gzip_data (const char *data, gsize len, const char *location, TraceStringPool *pool, ChromeReader **reader, GError **error);
TraceBatch *test_read_file (const char *name, TraceStringPool *pool, ChromeReader **reader, GError **error);
guint test_count_kind (TraceBatch *batch, TraceEventKind kind);
const TraceEvent *test_find (TraceBatch *batch, TraceEventKind kind, const char *name, guint nth);
const char *test_str (TraceBatch *batch, guint32 id);
const TraceArg *test_arg (TraceBatch *batch, const TraceEvent *ev, const char *key);
const char *test_arg_str (TraceBatch *batch, const TraceEvent *ev, const char *key);
char *test_write (TraceBatch *batch, const ChromeWriterOptions *opts, gsize *len);
char *test_write_with_stats (TraceBatch *batch, const ChromeWriterOptions *opts, gsize *len, ChromeWriterStats *stats);
void test_out_init (TestOut *o);
void test_out_write (TestOut *o, const ChromeWriterOptions *opts);
void test_out_clear (TestOut *o);
JsonNode *test_parse_json (const char *text, gsize len);
JsonArray *test_trace_events (JsonNode *root);
JsonObject *test_json_event (JsonArray *events, const char *ph, const char *name, guint nth);
guint test_count_ph (JsonArray *events, const char *ph);
TraceEvent *test_add (TraceBatch *batch, TraceEventKind kind, gint64 ts, gint64 pid, gint64 tid, const char *name);

G_END_DECLS
