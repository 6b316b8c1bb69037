/* tracepipe - json plugin: streaming writer of the Chrome Trace Event Format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Events are written as they arrive; no document is built in memory.
 * Memory is bounded by the slices still open (complete-slice style), the
 * kernel text (spilled to a temporary file past a limit) and the stack
 * nodes of CPU samples.  See docs/json.md for every mapping decision.
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/* Threads held for X slices: a few hundred bytes each, tens of MB at the
 * cap, which real traces (tens of thousands of threads) never reach. */
#define JSON_WRITER_DEFAULT_MAX_THREADS (1u << 18)

typedef enum
{
  JSON_TRACE_FORM_OBJECT = 0, /* {"traceEvents":[…],"displayTimeUnit":…,"metadata":{…}} */
  JSON_TRACE_FORM_ARRAY,      /* […]: no metadata, no systemTraceEvents */
} JsonTraceForm;

typedef enum
{
  JSON_TRACE_SLICES_COMPLETE = 0, /* X events: a begin waits for its end */
  JSON_TRACE_SLICES_BEGIN_END,    /* B and E events as they come */
  JSON_TRACE_SLICES_AUTO,         /* json-sink only: B/E for a Chrome JSON
                                   * stream, X otherwise (the writer takes
                                   * it as X) */
} JsonTraceSliceStyle;

typedef enum
{
  JSON_TRACE_FLOWS_V1 = 0, /* s/t/f events ("bp":"e") */
  JSON_TRACE_FLOWS_V2,     /* bind_id/flow_in/flow_out on the slices */
  JSON_TRACE_FLOWS_AUTO,   /* json-sink only: v2 for a Chrome JSON stream,
                            * v1 otherwise (the writer takes it as v1) */
} JsonTraceFlowStyle;

/**
 * JsonTraceWriterOptions:
 * @form: object (default) or array form
 * @slices: X (default) or B/E
 * @flows: flow v1 events (default) or v2 ids on slices
 * @flat_args: write dotted arg keys as they are; by default "a.b" and
 *   "a[0]" become nested objects and arrays again
 * @nestable_legacy_async: write legacy async events (S/T/F) as b/n/e,
 *   which perfetto reads; by default they stay S/T/F
 * @display_time_unit: "ns" when %NULL; "" to leave the key out
 * @clock_domain: written as metadata "clock-domain"
 * @metadata: (nullable): more members for "metadata"
 * @max_open_slices: slices held back for X before the oldest are written
 *   as B; 0 for the default (65536)
 * @system_trace_memory: bytes of kernel text kept in memory before a
 *   temporary file is used; 0 for the default (8 MiB)
 * @max_threads: threads whose slices are held for X (and CPU-profile
 *   sessions); a further thread's slices are written as B/E, its samples
 *   dropped; 0 for the default (262 144)
 *
 * A zeroed struct means the defaults.
 */
typedef struct
{
  JsonTraceForm form;
  JsonTraceSliceStyle slices;
  JsonTraceFlowStyle flows;
  gboolean flat_args;
  gboolean nestable_legacy_async;
  const char *display_time_unit;
  TraceClockDomain clock_domain;
  JsonObject *metadata;
  guint max_open_slices;
  gsize system_trace_memory;
  guint max_threads;
} JsonTraceWriterOptions;

/**
 * JsonTraceWriterStats:
 * @events: JSON event objects written
 * @kernel_lines: systemTraceEvents lines written
 * @open_slices: slices still open at the end, written as B
 * @unmatched_ends: slice ends without a begin, written as E
 * @dropped_kernel: kernel records dropped (array form has no place for them)
 * @dropped_markers: atrace marker records not written again as text
 * @dropped_flows: slice flow ids v2 could not carry (two different ids)
 * @dropped_other: other events without a JSON form (clock markers in array
 *   form, stack nodes beyond the limit)
 * @slices_past_thread_table: slice begins and ends of threads past
 *   @max_threads, written as B and E
 * @dropped_samples_past_thread_table: CPU samples of threads past
 *   @max_threads
 * @thread_names_in_kernel_text: names of threads of unknown process,
 *   written only in the task column of their kernel lines (an `M` event
 *   has a pid: trace_processor would put them in process 0)
 */
typedef struct
{
  guint64 events;
  guint64 kernel_lines;
  guint64 open_slices;
  guint64 unmatched_ends;
  guint64 dropped_kernel;
  guint64 dropped_markers;
  guint64 dropped_flows;
  guint64 dropped_other;
  guint64 thread_names_in_kernel_text;
  guint64 slices_past_thread_table;
  guint64 dropped_samples_past_thread_table;
} JsonTraceWriterStats;

typedef struct _JsonTraceWriter JsonTraceWriter;

JsonTraceWriter *json_trace_writer_new (GOutputStream *out,
                                        const JsonTraceWriterOptions *opts);
void json_trace_writer_free (JsonTraceWriter *writer);

void json_trace_writer_set_metadata (JsonTraceWriter *writer,
                                     JsonObject *metadata);
gboolean json_trace_writer_write_batch (JsonTraceWriter *writer,
                                        TraceBatch *batch,
                                        GError **error);
gboolean json_trace_writer_write_suffix (JsonTraceWriter *writer,
                                         GError **error);
gboolean json_trace_writer_finish (JsonTraceWriter *writer,
                                   GError **error);

guint64 json_trace_writer_get_bytes_written (JsonTraceWriter *writer);
const JsonTraceWriterStats *json_trace_writer_get_stats (JsonTraceWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (JsonTraceWriter, json_trace_writer_free)

G_END_DECLS
