/* tracepipe - json plugin: the Chrome Trace Event Format writer, as json-sink uses it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <trace/trace.h>

#include "json-common.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The writer: streaming, the Chrome Trace Event Format out           */

/*
 * Events are written as they arrive; no document is built in memory.
 * Memory is bounded by the slices still open (complete-slice style), the
 * kernel text (spilled to a temporary file past a limit) and the stack
 * nodes of CPU samples.  See docs/json.md for every mapping decision.
 */

/* The defaults of ChromeWriterOptions, each said once: the writer takes
 * them for a 0 (NULL) member, json-sink's properties start from them. */
#define CHROME_WRITER_DEFAULT_DISPLAY_TIME_UNIT "ns"
#define CHROME_WRITER_DEFAULT_MAX_OPEN 65536
#define CHROME_WRITER_DEFAULT_KERNEL_MEMORY (8 * 1024 * 1024)
/* Threads held for X slices: a few hundred bytes each, tens of MB at the
 * cap, which real traces (tens of thousands of threads) never reach. */
#define CHROME_WRITER_DEFAULT_MAX_THREADS (1u << 18)
/* The pseudo process of the per-cpu interrupt threads: above any Linux
 * pid (at most 2^22), within the 32 bits trace_processor reads. */
#define CHROME_IRQ_PID G_GINT64_CONSTANT (0xFFFF0000)
/* The pseudo process of the idle task's function_graph calls, a thread
 * per cpu (tid pid + 1 + cpu). */
#define CHROME_FUNCGRAPH_IDLE_PID G_GINT64_CONSTANT (0xFFFE0000)
/* Vendor trace points written as atrace lines (json-writer-kernel.c). */
#define CHROME_KERNEL_ATRACE_FORMS 6

typedef enum
{
  CHROME_FORM_OBJECT = 0, /* {"traceEvents":[…],"displayTimeUnit":…,"metadata":{…}} */
  CHROME_FORM_ARRAY,      /* […]: no metadata, no systemTraceEvents */
} ChromeForm;

typedef enum
{
  CHROME_SLICES_COMPLETE = 0, /* X events: a begin waits for its end */
  CHROME_SLICES_BEGIN_END,    /* B and E events as they come */
  CHROME_SLICES_AUTO,         /* B/E for a Chrome JSON stream
                               * (chrome_json), X otherwise */
} ChromeSliceStyle;

typedef enum
{
  CHROME_FLOWS_V1 = 0, /* s/t/f events ("bp":"e") */
  CHROME_FLOWS_V2,     /* bind_id/flow_in/flow_out on the slices */
  CHROME_FLOWS_AUTO,   /* v2 for a Chrome JSON stream (chrome_json),
                        * v1 otherwise */
} ChromeFlowStyle;

/**
 * ChromeWriterOptions:
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
 * @chrome_json: the events come from a Chrome JSON trace (the stream's
 *   format is `chrome-json`): what %CHROME_SLICES_AUTO and
 *   %CHROME_FLOWS_AUTO become
 * @perfetto_kernel_events: the kernel events come from a Perfetto trace
 *   (the stream's format is `perfetto`), typed: its interrupts go as
 *   slices (chrome_writer_kernel_as_event())
 *
 * A zeroed struct means the defaults.
 */
typedef struct
{
  ChromeForm form;
  ChromeSliceStyle slices;
  ChromeFlowStyle flows;
  gboolean flat_args;
  gboolean nestable_legacy_async;
  const char *display_time_unit;
  TraceClockDomain clock_domain;
  JsonObject *metadata;
  guint max_open_slices;
  gsize system_trace_memory;
  guint max_threads;
  gboolean chrome_json;
  gboolean perfetto_kernel_events;
} ChromeWriterOptions;

/**
 * ChromeWriterStats:
 * @events: JSON event objects written
 * @kernel_lines: systemTraceEvents lines written
 * @open_slices: slices still open at the end, written as B
 * @unmatched_ends: slice ends without a begin, written as E
 * @dropped_kernel: kernel records dropped (array form has no place for them)
 * @dropped_markers: atrace marker records not written again as text
 * @dropped_flows: slice flow ids v2 could not carry (two different ids,
 *   flows past a slice's first pair), flows past the first pair of an
 *   end written as `E`, and the flows of an async event past its first,
 *   or all of them when it is written as none of `b` and `n`
 * @dropped_clock_markers: clock pairs and parent_ts/realtime_ts markers
 *   with nothing to go to (the array form has no metadata; past
 *   1 024 of them)
 * @dropped_other: other events without a JSON form (stack nodes beyond
 *   the limit)
 * @dropped_repeated_legacy_begins: atrace `S|` begins of a family (process,
 *   cookie, name) already open, which atrace ignores; written as nestable
 *   `b` they would open a second slice
 * @dropped_unmatched_legacy_ends: atrace `F|` ends of no open family
 * @slices_past_thread_table: slice begins and ends of threads past
 *   @max_threads, written as B and E
 * @dropped_samples_past_thread_table: CPU samples of threads past
 *   @max_threads
 * @thread_names_in_kernel_text: names of threads of unknown process,
 *   written only in the task column of their kernel lines (an `M` event
 *   has a pid: trace_processor would put them in process 0)
 * @dropped_switches_without_prev: sched switches whose previous task is
 *   unknown (a cpu's first compact switch in a Perfetto trace):
 *   trace_processor skips them in the original; a text line must name one
 * @records: records of another format carried through (Perfetto packets
 *   perfetto-src did not read), written as metadata events of their name
 * @dropped_gpu_counters: GPU counter values of a counter id no descriptor
 *   of the trace named (or named in interned data, which is not carried)
 * @dropped_frames: frame timeline events trace_processor rejects (a start
 *   without cookie, token or pid, an end of no start)
 * @dropped_frame_links: links of a second actual surface frame to one
 *   display frame (a v2 flow id begins once)
 * @dropped_sys_stats: sys_stats entries with no JSON form: of the tables
 *   other than meminfo, cpu times and cpuidle, a meminfo key with no name,
 *   cpu times of no cpu
 * @process_names_from_kernel: `M process_name` events written for the
 *   forks and main-thread renames of a Perfetto trace's kernel, which
 *   name processes there (json-writer-process-names.c)
 * @process_names_past_table: such names not written: past @max_threads
 *   processes
 * @app_process_names_outranked: names processes gave their own track
 *   descriptor, not written: the kernel or the system named the process,
 *   which outranks them in trace_processor
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
  guint64 dropped_repeated_legacy_begins;
  guint64 dropped_unmatched_legacy_ends;
  guint64 records;
  guint64 dropped_switches_without_prev;
  guint64 dropped_clock_markers;
  guint64 dropped_gpu_counters;
  guint64 dropped_frames;
  guint64 dropped_frame_links;
  guint64 dropped_sys_stats;
  guint64 process_names_from_kernel;
  guint64 process_names_past_table;
  guint64 app_process_names_outranked;
} ChromeWriterStats;

typedef struct _ChromeWriter ChromeWriter;

ChromeWriter *chrome_writer_new (GOutputStream *out,
                                 const ChromeWriterOptions *opts);
void chrome_writer_free (ChromeWriter *writer);

void chrome_writer_set_metadata (ChromeWriter *writer,
                                 JsonObject *metadata);
gboolean chrome_writer_write_batch (ChromeWriter *writer,
                                    TraceBatch *batch,
                                    GError **error);
gboolean chrome_writer_write_suffix (ChromeWriter *writer,
                                     GError **error);
gboolean chrome_writer_finish (ChromeWriter *writer,
                               GError **error);
gboolean chrome_writer_flush (ChromeWriter *writer,
                              GError **error);

guint64 chrome_writer_get_bytes_written (ChromeWriter *writer);
const ChromeWriterStats *chrome_writer_get_stats (ChromeWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChromeWriter, chrome_writer_free)

G_END_DECLS
