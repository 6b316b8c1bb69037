/* tracepipe tools - trace-info: what a trace holds, counted in one pass
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* The tables stop growing at these sizes, so a hostile input (a million
 * thread ids, random names) cannot take the memory: events that would
 * need a new row are counted as overflow instead. */
#define INFO_MAX_THREADS 8192
#define INFO_MAX_PROCESSES 4096
#define INFO_MAX_NAMES 8192
#define INFO_MAX_COUNTERS 2048

typedef struct
{
  gint64 pid;
  gint64 tid;
  guint64 events;
  guint32 name; /* string id, 0 when never named */
} InfoThread;   /* a process is an InfoThread with tid == TRACE_ID_UNKNOWN */

typedef struct
{
  guint32 name;
  guint64 count;
  double min, max;
} InfoName; /* a slice name (count) or a counter (count, min, max) */

typedef enum
{
  INFO_TABLE_THREADS,
  INFO_TABLE_PROCESSES,
  INFO_TABLE_SLICE_NAMES,
  INFO_TABLE_COUNTERS,
  INFO_N_TABLES
} InfoTable;

typedef struct
{
  guint64 events;
  guint64 by_kind[TRACE_EVENT_N_KINDS];
  gboolean have_ts;
  gint64 first_ts, last_ts;
  char *format;       /* from stream-start */
  char *clock;        /* clock domain name */
  char *clock_source; /* how the source learnt it */
  GHashTable *tables[INFO_N_TABLES];
  GHashTable *thread_by_tid;       /* tid → the thread row that tid last was (rows of tables[THREADS]) */
  guint64 overflow[INFO_N_TABLES]; /* events not counted in a full table */
  /* interrupts decoded typed (Perfetto) are slices in trace_processor */
  gboolean typed_kernel_events;
  struct
  {
    guint32 irq_entry, softirq_entry, name, vec; /* string ids, 0 until the first kernel event */
  } k;
} InfoSummary;

#define TRACE_TYPE_INFO_SINK (trace_info_sink_get_type ())
G_DECLARE_FINAL_TYPE (TraceInfoSink, trace_info_sink, TRACE, INFO_SINK, TraceBaseSink)

const InfoSummary *trace_info_sink_get_summary (TraceInfoSink *sink);
gboolean info_register_elements (GError **error);

/* The rows of @table sorted by events (or count), most first. */
GPtrArray *info_table_sorted (const InfoSummary *summary,
                              InfoTable table);

G_END_DECLS
