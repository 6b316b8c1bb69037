/* tracepipe - the Perfetto writer: perfetto-sink's engine
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <gio/gio.h>
#include <trace/trace.h>

G_BEGIN_DECLS

/* The defaults of the writer's options that perfetto-sink has as
 * properties: perfetto_writer_options_init() and the sink's param specs
 * both take them from here, so that there is one default each. */
#define DEFAULT_FTRACE TRUE
#define DEFAULT_INTERN TRUE
#define DEFAULT_COMPACT_SCHED TRUE
#define DEFAULT_THREAD_TIME FALSE

/* perfetto-sink's thread-time: whether slices' thread time is written */
typedef enum
{
  PERFETTO_THREAD_TIME_FALSE = 0,
  PERFETTO_THREAD_TIME_TRUE = 1,
  PERFETTO_THREAD_TIME_AUTO = 2, /* for a stream read from Perfetto */
} PerfettoThreadTimeMode;
#define DEFAULT_COMPRESS FALSE
/* About 600 bytes of state per thread: 160 MB at the cap (a million
 * distinct tids took 627 MB before there was one); real traces have at
 * most tens of thousands of threads. */
#define DEFAULT_MAX_THREADS (1u << 18)

/**
 * PerfettoWriterOptions:
 * @emit_ftrace: write kernel records (sched, cpu, other ftrace events,
 *   clock-sync markers) as ftrace event bundles; when %FALSE they are
 *   dropped and counted, and only TrackEvent data is written
 * @intern: intern event names, categories, arg names and string values
 *   (as the Perfetto SDK does); %FALSE writes every string inline, which
 *   is bigger but easier to read in `protoc --decode` output
 * @compact_sched: write sched_switch / sched_waking in the compact
 *   packed form where it is lossless
 * @clock: the clock domain of the events' timestamps (written as
 *   BOOTTIME when Perfetto has no builtin clock for it, unknown included)
 * @sequence_id: the trusted packet sequence id (0 picks the default, 1)
 * @max_interned: how many strings one generation of interned data may
 *   hold before the incremental state is cleared and interning starts
 *   over (bounds the reader's memory); 0 picks the default
 * @thread_time: write slices' thread time (Chrome `tts`/`tdur`) as
 *   values of a `thread_time` counter track of their thread, from which
 *   trace_processor fills the slice's thread_ts/thread_dur (it also shows
 *   the counter, which the original JSON does not have)
 * @json_order: the stream is a Chrome JSON trace: write its slices in
 *   the order trace_processor reads a JSON trace (see
 *   perfetto-writer-order.c), within a bounded window
 * @compress: write the packets deflated, in runs of about 256 KiB, each
 *   in the `compressed_packets` field of one outer TracePacket (what the
 *   Perfetto service writes with `compress_from_cli`)
 * @max_threads: how many threads (and sampled threads) the writer keeps
 *   state for; events of threads past it are dropped and counted in
 *   @dropped_thread_table (0 picks the default, 262 144)
 * @proto_kernel_events: the stream came from a Perfetto trace: kernel
 *   events trace_processor reads only from their typed message (interrupt
 *   entries and exits, which it shows as slices) are written typed;
 *   otherwise as generic events, since from ftrace text it ignores them
 * @perfetto_order: the stream came from a Perfetto trace, in the order
 *   of its file, not of time (each producer's chunks come in turn): an
 *   async family keeps one track of its own for good, so that
 *   trace_processor, which sorts by time, pairs its begins and ends as
 *   in the original whatever order they come in
 *
 * How a #PerfettoWriter writes. Initialise with
 * perfetto_writer_options_init().
 */
typedef struct
{
  gboolean emit_ftrace;
  gboolean intern;
  gboolean compact_sched;
  TraceClockDomain clock;
  guint32 sequence_id;
  guint max_interned;
  gboolean json_order;
  gboolean thread_time;
  gboolean compress;
  guint max_threads;
  gboolean proto_kernel_events;
  gboolean perfetto_order;
} PerfettoWriterOptions;

/**
 * PerfettoWriterStats:
 * @events_in: events given to the writer
 * @packets: TracePackets written
 * @bytes: bytes written (the file's size once finished; with @compress,
 *   the compressed size)
 * @track_events: TrackEvents written
 * @ftrace_events: kernel events written (full and compact)
 * @compact_sched: of these, in the compact form
 * @samples: CPU-profile samples written
 * @descriptors: track descriptors written
 * @state_resets: times the interning state was cleared
 * @dropped_unmatched_end: slice ends without an open slice on the thread
 * @dropped_unmatched_async_end: async ends without an open async slice
 * @dropped_repeated_legacy_begin: an unnestable async begin (atrace `S`)
 *   repeated while its slice is open (Perfetto ignores it too)
 * @truncated_complete: unused since complete slices are never cut (kept
 *   for the API; always 0)
 * @spilled_complete: complete slices that partially overlapped an open
 *   slice of their thread, written whole on an overflow track of the
 *   thread (as trace_processor reads such a JSON slice)
 * @late_events: events of a JSON stream that came after later events
 *   had already left the ordering window, written where they came
 * @ignored_json_legacy_async: Chrome legacy async events (`S T p F`) of
 *   a JSON stream, not written: trace_processor ignores them in JSON
 * @dropped_kernel: kernel records dropped because @emit_ftrace is off, and
 *   a cpu's data start that came after its first bundle
 * @dropped_kernel_args: args of typed kernel events with no field to go to
 * @dropped_unknown_stack_node: samples whose stack node was never defined
 * @sample_state_resets: interning tables of a sampled thread's sequence
 *   that grew full and started over
 * @dropped_clock_marker: clock markers with nothing to map to
 * @closed_open_slices: slices still open inside a complete slice that
 *   ended, closed at its end (or at the end of the stream)
 * @clamped_timestamps: negative timestamps written as 0
 * @dropped_other: events of kinds with no Perfetto equivalent
 * @dropped_thread_table: events of threads first seen once the thread
 *   table held @max_threads threads
 * @records: packets perfetto-src carried as records, written back as
 *   they were (perfetto_write_record())
 * @dropped_late_utsname: system_info records naming another kernel
 *   version after prev_states were written, written without their utsname
 *   (the states read back as written)
 * @mapped_ids: pids and tids that do not fit Perfetto's 32 bits (or
 *   took the id one of those was given), written as ids of their own
 *   from 2147483647 down (perfetto_id())
 * @first_mapped_id: the first of those, written as @first_mapped_as
 * @dropped_switches_without_prev: sched switches whose previous task is
 *   unknown that cannot be written compact (the next switch names it)
 *
 * What a #PerfettoWriter did.
 */
typedef struct
{
  guint64 events_in;
  guint64 packets;
  guint64 bytes;
  guint64 track_events;
  guint64 ftrace_events;
  guint64 compact_sched;
  guint64 samples;
  guint64 descriptors;
  guint64 state_resets;
  guint64 dropped_unmatched_end;
  guint64 dropped_unmatched_async_end;
  guint64 dropped_repeated_legacy_begin;
  guint64 truncated_complete;
  guint64 spilled_complete;
  guint64 late_events;
  guint64 ignored_json_legacy_async;
  guint64 dropped_kernel;
  guint64 dropped_kernel_args;
  guint64 dropped_unknown_stack_node;
  guint64 sample_state_resets;
  guint64 dropped_clock_marker;
  guint64 closed_open_slices;
  guint64 clamped_timestamps;
  guint64 dropped_other;
  guint64 dropped_thread_table;
  guint64 records;
  guint64 dropped_late_utsname;
  guint64 mapped_ids;
  gint64 first_mapped_id;
  guint64 dropped_switches_without_prev;
  gint64 first_mapped_as;
} PerfettoWriterStats;

typedef struct _PerfettoWriter PerfettoWriter;

void perfetto_writer_options_init (PerfettoWriterOptions *opts);

PerfettoWriter *perfetto_writer_new (GOutputStream *out,
                                     const PerfettoWriterOptions *opts);
gboolean perfetto_writer_write_batch (PerfettoWriter *w,
                                      TraceBatch *batch,
                                      GError **error);
void perfetto_writer_set_metadata (PerfettoWriter *w,
                                   const char *metadata);
gboolean perfetto_writer_finish (PerfettoWriter *w,
                                 GError **error);
gboolean perfetto_writer_flush_output (PerfettoWriter *w,
                                       GError **error);
void perfetto_writer_get_stats (PerfettoWriter *w,
                                PerfettoWriterStats *stats);
void perfetto_writer_free (PerfettoWriter *w);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PerfettoWriter, perfetto_writer_free)

G_END_DECLS
