/* tracepipe - json plugin: streaming reader of the Chrome Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reads the array form and the object form, plain or gzip, in bounded
 * memory: the file is read in large blocks and each event object is
 * parsed in place, never as a whole-document tree.  Events come out in
 * file order.  See docs/json.md for every mapping decision.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/* The largest single value held in memory at once (one event, one
 * metadata member, one stack frame).  Larger ones are refused. */
#define JSON_TRACE_MAX_ELEMENT_SIZE (256u * 1024 * 1024)

/* Args kept per event; the rest are dropped and counted. */
#define JSON_TRACE_MAX_ARGS 1024

/* Offsets remembered per skip reason. */
#define JSON_TRACE_MAX_OFFSETS 4

/**
 * JsonTraceSkipReason:
 *
 * Why something of the input did not become events.  The reasons before
 * %JSON_TRACE_SKIP_N_DAMAGE mean the input is damaged or data was lost
 * (worth a WARNING); the ones after are valid input the event model has
 * no place for (an INFO).
 */
typedef enum
{
  JSON_TRACE_SKIP_MALFORMED,
  JSON_TRACE_SKIP_TRUNCATED,
  JSON_TRACE_SKIP_NOT_AN_OBJECT,
  JSON_TRACE_SKIP_NO_PHASE,
  JSON_TRACE_SKIP_UNKNOWN_PHASE,
  JSON_TRACE_SKIP_BAD_TIMESTAMP,
  JSON_TRACE_SKIP_BAD_DURATION,
  JSON_TRACE_SKIP_BAD_ID,
  JSON_TRACE_SKIP_BAD_VALUE,
  JSON_TRACE_SKIP_BAD_SCOPE,
  JSON_TRACE_SKIP_TRAILING_DATA,
  /* not damage, but data lost (an array cut at 1024 elements): warned */
  JSON_TRACE_SKIP_ARGS_DROPPED,
  JSON_TRACE_SKIP_N_DAMAGE,
  JSON_TRACE_SKIP_UNSUPPORTED_PHASE = JSON_TRACE_SKIP_N_DAMAGE,
  JSON_TRACE_SKIP_THREAD_STATE,
  JSON_TRACE_SKIP_OTHER_METADATA,
  JSON_TRACE_SKIP_ORPHAN_SAMPLES,
  JSON_TRACE_SKIP_EMPTY_OBJECT,
  JSON_TRACE_SKIP_N_REASONS
} JsonTraceSkipReason;

typedef struct
{
  guint64 count;
  guint64 offsets[JSON_TRACE_MAX_OFFSETS]; /* byte offsets of the first ones */
} JsonTraceSkipCount;

/**
 * JsonTraceReaderStats:
 * @bytes: bytes of (decompressed) JSON read
 * @objects: event objects found in the traceEvents array
 * @events: #TraceEvent produced
 * @empty_objects: `{}` placeholders (also counted as skipped: empty object)
 * @skipped: per #JsonTraceSkipReason
 */
typedef struct
{
  guint64 bytes;
  guint64 objects;
  guint64 events;
  guint64 empty_objects;
  JsonTraceSkipCount skipped[JSON_TRACE_SKIP_N_REASONS];
} JsonTraceReaderStats;

typedef struct _JsonTraceReader JsonTraceReader;

JsonTraceReader *json_trace_reader_new (GInputStream *in,
                                        const char *location,
                                        TraceStringPool *pool);
void json_trace_reader_free (JsonTraceReader *reader);

gboolean json_trace_reader_read_batch (JsonTraceReader *reader,
                                       TraceBatch **out,
                                       GError **error);

TraceClockDomain json_trace_reader_get_clock_domain (JsonTraceReader *reader);
const char *json_trace_reader_get_clock_domain_name (JsonTraceReader *reader);
const char *json_trace_reader_get_display_time_unit (JsonTraceReader *reader);
JsonObject *json_trace_reader_get_metadata (JsonTraceReader *reader);

gboolean json_trace_reader_has_system_trace (JsonTraceReader *reader);
guint64 json_trace_reader_get_system_trace_size (JsonTraceReader *reader);
GInputStream *json_trace_reader_open_system_trace (JsonTraceReader *reader,
                                                   GError **error);

guint64 json_trace_reader_get_bytes_read (JsonTraceReader *reader);
const JsonTraceReaderStats *json_trace_reader_get_stats (JsonTraceReader *reader);
gboolean json_trace_reader_has_damage (JsonTraceReader *reader);
char *json_trace_reader_get_summary (JsonTraceReader *reader,
                                     gboolean include_unsupported);
char *json_trace_reader_get_unsupported_summary (JsonTraceReader *reader);
char *json_trace_reader_get_failure (JsonTraceReader *reader);
const char *json_trace_skip_reason_to_string (JsonTraceSkipReason reason);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsonTraceReader, json_trace_reader_free)

G_END_DECLS
