/* tracepipe - the perfetto plugin's private API: the format engine
 * (perfetto-*.c) and the elements (traceperfetto*.c) that wrap it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <trace/trace.h>

#include "ftrace-text.h"
#include "trace.pb-c.h"

G_BEGIN_DECLS

/* ---- What the writer and the reader share ---- */

typedef Perfetto__Protos__TracePacket PerfettoPacket;
typedef Perfetto__Protos__TrackEvent PerfettoTrackEvent;
typedef Perfetto__Protos__TrackDescriptor PerfettoTrackDescriptor;
typedef Perfetto__Protos__DebugAnnotation PerfettoAnnotation;
typedef Perfetto__Protos__InternedData PerfettoInternedData;
typedef Perfetto__Protos__FtraceEvent PerfettoFtraceEvent;
typedef Perfetto__Protos__FtraceEventBundle PerfettoFtraceBundle;

/* The sequence flags of TracePacket. */
#define PERFETTO_SEQ_CLEARED PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_INCREMENTAL_STATE_CLEARED
#define PERFETTO_SEQ_NEEDS PERFETTO__PROTOS__TRACE_PACKET__SEQUENCE_FLAGS__SEQ_NEEDS_INCREMENTAL_STATE

/* Perfetto's builtin clock ids. */
#define PERFETTO_CLOCK_REALTIME 1
#define PERFETTO_CLOCK_MONOTONIC 3
#define PERFETTO_CLOCK_MONOTONIC_RAW 5
#define PERFETTO_CLOCK_BOOTTIME 6

/* The name of the track global-scope instants go to. */
#define PERFETTO_GLOBAL_TRACK_NAME "Global events"
/* The debug annotation that carries an async step's name. */
#define PERFETTO_STEP_ANNOTATION "step"

/* The PerfSample fields a sample event carries as integer args, by
 * these names: a sample with any of them (or a cpu) is written back as
 * a PerfSample, whose timebase count makes trace_processor's per-cpu
 * counter. */
typedef enum
{
  PERFETTO_PERF_TIMEBASE_COUNT,
  PERFETTO_PERF_CPU_MODE,
  PERFETTO_PERF_UNWIND_ERROR,
  PERFETTO_PERF_SKIPPED_REASON,
  PERFETTO_PERF_N_ARGS
} PerfettoPerfArg;

extern const char *const perfetto_perf_arg_names[PERFETTO_PERF_N_ARGS];
/* What a counter track's name appends for a counter instance id, as
 * trace_processor's JSON importer names them. */
#define PERFETTO_COUNTER_ID_SEPARATOR " id: "
/* An ftrace event of a kind the .proto subset does not declare travels
 * as a FTRACE event named PREFIX<field number>, with these two args: the
 * FtraceEvent field number and the payload's bytes in base64. */
#define PERFETTO_OPAQUE_FTRACE_PREFIX "perfetto_ftrace_"

/* A time in µs, as TrackEvent's thread times, legacy durations and
 * streaming profile deltas give it, in ns: saturated at the ends of
 * gint64 (a µs value past ±9.2·10¹⁵ overflowed the product, which C
 * leaves undefined; tests/data/fuzz-regressions/perfetto). */
static inline gint64
perfetto_us_to_ns (gint64 us)
{
  if (us > G_MAXINT64 / 1000)
    return G_MAXINT64;
  if (us < G_MININT64 / 1000)
    return G_MININT64;
  return us * 1000;
}
#define PERFETTO_OPAQUE_FIELD_ARG "perfetto.field"
#define PERFETTO_OPAQUE_BYTES_ARG "perfetto.bytes"
/* Records carrying a packet of a kind the subset does not declare. */
#define PERFETTO_OPAQUE_PACKET_PREFIX "perfetto_packet_"
/* The largest such payload carried (base64 in the string pool, 4/3 of
 * it); larger ones are counted as skipped. */
#define PERFETTO_MAX_OPAQUE_PACKET (16u << 20)
/* The kernel record of when a cpu's ring buffer holds all its events
 * (the first bundle's previous_bundle_end_timestamp): a FTRACE event of
 * that cpu at that time, with no args. */
#define PERFETTO_CPU_DATA_START "perfetto_cpu_data_start"
/* The prefix of atrace clock-sync markers written as ftrace print. */
#define PERFETTO_CLOCK_SYNC_PREFIX "trace_event_clock_sync: "

/* The largest packet the reader accepts. */
/* cpus perfetto-src keeps state for (cpu_state()) */
#define PERFETTO_READER_MAX_CPUS 4096u
#define PERFETTO_MAX_PACKET_SIZE (256u * 1024 * 1024)

/* The key of the writer's and reader's tables: up to four numbers. */
typedef struct
{
  gint64 a, b, c, d;
} PerfettoKey;

guint perfetto_key_hash (gconstpointer key);
gboolean perfetto_key_equal (gconstpointer a,
                             gconstpointer b);

guint32 perfetto_clock_domain_to_builtin (TraceClockDomain domain);
TraceClockDomain perfetto_builtin_to_clock_domain (guint32 clock_id);

/* Typed ftrace events reached through TRACE_EVENT_FTRACE (name + args):
 * which arg (as ftrace prints it) goes to which field of which message. */
typedef enum
{
  PERFETTO_FTRACE_NUMBER, /* an integer field */
  PERFETTO_FTRACE_STRING, /* a string field */
  PERFETTO_FTRACE_KSYM,   /* a kernel symbol: interned in kernel_symbols */
} PerfettoFtraceValueKind;

typedef struct
{
  const char *key;     /* the arg key ftrace text uses */
  const char *alt_key; /* another spelling accepted on input, or NULL */
  const char *field;   /* the field of the typed message */
  PerfettoFtraceValueKind kind;
} PerfettoFtraceFieldMap;

#define PERFETTO_FTRACE_MAX_FIELDS 8

typedef struct
{
  const char *name;    /* the ftrace event name */
  guint32 event_field; /* its field number in FtraceEvent's oneof */
  const ProtobufCMessageDescriptor *descriptor;
  PerfettoFtraceFieldMap fields[PERFETTO_FTRACE_MAX_FIELDS];
  /* trace_processor reads the typed message only (not the text line):
   * written typed only for a stream that came from Perfetto */
  gboolean proto_only;
  /* resolved at first use */
  const ProtobufCFieldDescriptor *field_descs[PERFETTO_FTRACE_MAX_FIELDS];
  guint n_fields;
} PerfettoFtraceEventMap;

const PerfettoFtraceEventMap *perfetto_ftrace_map_by_name (const char *name);
const PerfettoFtraceEventMap *perfetto_ftrace_map_by_field (guint32 event_field);
const PerfettoFtraceEventMap *perfetto_ftrace_map_for_writer (const char *name,
                                                              gboolean proto_kernel_events);

void perfetto_message_set_int (ProtobufCMessage *msg,
                               const ProtobufCFieldDescriptor *field,
                               gint64 value);
void perfetto_message_set_string (ProtobufCMessage *msg,
                                  const ProtobufCFieldDescriptor *field,
                                  const char *value);
gboolean perfetto_message_get_int (const ProtobufCMessage *msg,
                                   const ProtobufCFieldDescriptor *field,
                                   gint64 *value);
const char *perfetto_message_get_string (const ProtobufCMessage *msg,
                                         const ProtobufCFieldDescriptor *field);
void perfetto_oneof_set (ProtobufCMessage *msg,
                         guint32 field_number,
                         ProtobufCMessage *value);
guint8 *perfetto_pack_length_delimited (const ProtobufCMessage *msg,
                                        gsize *out);
ProtobufCMessage *perfetto_oneof_get (const ProtobufCMessage *msg,
                                      guint32 *field_number);

/* ---- The reader: perfetto-reader*.c ---- */

/**
 * PerfettoReaderStats:
 * @bytes: bytes consumed
 * @packets: TracePackets read (including those inside compressed packets)
 * @events: events produced
 * @unknown_packets: packets with no payload the reader understands
 *   (counted and skipped)
 * @unknown_fields: top-level records other than `Trace.packet`
 * @truncated_bytes: bytes of a last record cut short by the end of the
 *   input (a warning: the file was cut while being written)
 * @truncated_offset: where that record began
 * @no_incremental_state: packets that need interned data of a sequence
 *   whose state was never cleared (as trace_processor, skipped)
 * @unknown_track: TrackEvents on a track no descriptor declared
 * @unknown_iid: interned ids not found in their table
 * @unsupported_events: TrackEvents, legacy phases or ftrace events the
 *   event model cannot carry
 * @extra_flows: flow ids beyond the first of an event (the event model
 *   binds one incoming and one outgoing flow per slice)
 * @other_clock: packets timestamped on a clock no snapshot ties to the
 *   stream's (kept as they are)
 * @atrace_markers: ftrace `print` events read as atrace markers (slices,
 *   counters, async events), as ftrace-src reads `tracing_mark_write`
 * @opaque_ftrace: ftrace events of kinds the .proto subset does not
 *   declare, carried on as opaque bytes (not dropped)
 * @unread_fields: fields the subset does not declare in packets and
 *   ftrace events that are read (not carried; by kind:
 *   perfetto_reader_foreach_packet_kind())
 * @late_system_info: `system_info` packets naming another kernel version
 *   after sched switches were read (those were read with the version
 *   before; trace_processor reads all with the last one)
 * @opaque_packets: packets of kinds the .proto subset does not declare,
 *   carried on as records (not dropped; by kind:
 *   perfetto_reader_foreach_packet_kind())
 * @no_cpu_events: ftrace events of bundles that name no cpu, skipped as
 *   trace_processor skips those bundles (`ftrace_bundle_tokenizer_errors`)
 *
 * What a #PerfettoReader read and what it could not use.
 */
typedef struct
{
  guint64 bytes;
  guint64 packets;
  guint64 events;
  guint64 unknown_packets;
  guint64 unknown_fields;
  guint64 truncated_bytes;
  guint64 truncated_offset;
  guint64 no_incremental_state;
  guint64 unknown_track;
  guint64 unknown_iid;
  guint64 unsupported_events;
  guint64 extra_flows;
  guint64 other_clock;
  guint64 atrace_markers;
  guint64 opaque_ftrace;
  guint64 no_cpu_events;
  guint64 opaque_packets;
  guint64 late_system_info;
  guint64 unread_fields;
} PerfettoReaderStats;

/* Packets of one kind the subset does not declare. */
typedef struct
{
  guint64 carried;
  guint64 skipped;
  guint64 unread_fields; /* of packets of a kind that is read */
} PerfettoPacketKindCount;

typedef void (*PerfettoPacketKindFunc) (guint32 field,
                                        const PerfettoPacketKindCount *count,
                                        gpointer user_data);

typedef struct _PerfettoReader PerfettoReader;

PerfettoReader *perfetto_reader_new (GInputStream *in,
                                     const char *location,
                                     TraceStringPool *pool);
gboolean perfetto_reader_read_batch (PerfettoReader *r,
                                     TraceBatch **out,
                                     GError **error);
TraceClockDomain perfetto_reader_get_clock_domain (PerfettoReader *r);
char *perfetto_reader_get_metadata (PerfettoReader *r);
void perfetto_reader_get_stats (PerfettoReader *r,
                                PerfettoReaderStats *stats);
void perfetto_reader_foreach_packet_kind (PerfettoReader *r,
                                          PerfettoPacketKindFunc func,
                                          gpointer user_data);
char *perfetto_reader_describe_unsupported (PerfettoReader *r);
void perfetto_reader_free (PerfettoReader *r);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PerfettoReader, perfetto_reader_free)

/* ---- The writer: perfetto-writer*.c ---- */

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
 * @dropped_kernel: kernel records dropped because @emit_ftrace is off
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
} PerfettoWriterStats;

typedef struct _PerfettoWriter PerfettoWriter;
typedef struct _PerfettoArgKeys PerfettoArgKeys;

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
void perfetto_writer_get_stats (PerfettoWriter *w,
                                PerfettoWriterStats *stats);
void perfetto_writer_free (PerfettoWriter *w);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PerfettoWriter, perfetto_writer_free)

/* ---- The reader's internals, shared by its source files ---- */

/* What a track uuid stands for. */
typedef enum
{
  PERFETTO_RTRACK_THREAD,
  PERFETTO_RTRACK_PROCESS,
  PERFETTO_RTRACK_COUNTER,
  PERFETTO_RTRACK_NAMED,  /* a child of a process, or a root track */
  PERFETTO_RTRACK_GLOBAL, /* tracepipe's track of global instants */
} PerfettoRTrackKind;

typedef struct
{
  guint64 uuid;
  PerfettoRTrackKind kind;
  gint64 pid; /* TRACE_ID_UNKNOWN for root tracks */
  gint64 tid;
  guint32 name;
  guint32 unit;           /* counters */
  guint64 id;             /* counters: the instance id in the name */
  guint32 async_track;    /* the async.track of the slice open on it */
  guint32 async_category; /* the category of the outermost slice open on it */
  guint async_depth;      /* async slices open on it */
  gint64 multiplier;      /* counters: unit_multiplier, 0 for none */
  gboolean incremental;   /* counters: values are deltas on total */
  double total;
  gboolean thread_time; /* counters: a thread's CPU time */
} PerfettoRTrack;

typedef struct
{
  guint32 function;
  guint64 mapping;
  guint64 rel_pc;
  gboolean has_line;
  guint32 line;
} PerfettoRFrame;

/* Interning tables and defaults of one packet sequence. */
typedef struct
{
  guint32 id;
  gboolean valid; /* its incremental state was cleared once */
  guint32 default_clock;
  guint64 default_track;
  GHashTable *names; /* iid → string id, for each table below */
  GHashTable *categories;
  GHashTable *ann_names;
  GHashTable *str_values;
  GHashTable *ksyms;
  GHashTable *functions;
  GHashTable *map_paths;
  GHashTable *mappings;   /* iid → string id of the path */
  GHashTable *frames;     /* iid → PerfettoRFrame */
  GHashTable *callstacks; /* iid → GArray of frame iids */
  /* its ThreadDescriptor (a packet of its own, or a thread's track
   * descriptor): the thread of its StreamingProfilePackets and of its
   * TrackEvents that name no track */
  gboolean has_thread;
  gint64 pid;
  gint64 tid;
  gint64 time_us;        /* where the next timestamp delta starts */
  gint64 thread_time_us; /* where the next thread time delta starts */
  gint64 instructions;   /* where the next instruction count delta starts */
  PerfettoRTrack thread_track;
  /* TrackEventDefaults' extra_{double_,}counter_track_uuids (guint64) */
  GArray *extra_counter_tracks;
  GArray *extra_double_counter_tracks;
} PerfettoSeq;

typedef struct
{
  gboolean valid;
  gint64 next_tid;
  gint32 next_prio;
  guint32 next_comm;
  gboolean bundle_seen; /* its first bundle was read */
  gboolean expected;    /* bundles with events of it come (perfetto_reader_expect_cpus()) */
  gint64 last_ts;       /* of the last event of its bundles, 0 before any */
} PerfettoRCpu;

typedef struct
{
  guint8 *base;
  gsize size;
  gsize used;
  GSList *extra;
  gboolean overflowed;
} PerfettoArena;

struct _PerfettoReader
{
  GInputStream *in;
  char *location;
  TraceStringPool *pool;
  gboolean done;

  /* input buffer: buf[pos..len) not yet consumed; buf[0] is at offset */
  guint8 *buf;
  gsize pos;
  gsize len;
  gsize cap;
  guint64 offset;
  gboolean eof;
  GByteArray *inflated;

  PerfettoArena arena;
  ProtobufCAllocator allocator;

  GHashTable *sequences;    /* guint32 → PerfettoSeq */
  GHashTable *tracks;       /* guint64 uuid → PerfettoRTrack */
  GHashTable *proc_names;   /* gint64 pid → string id */
  GHashTable *proc_sort;    /* PerfettoKey pid → gint64 */
  GHashTable *proc_labels;  /* "pid/label" keys seen: PerfettoKey → TRUE */
  GHashTable *thread_names; /* PerfettoKey (pid, tid) → string id */
  GHashTable *thread_sort;  /* PerfettoKey (pid, tid) → gint64 */
  GHashTable *tid_to_pid;   /* gint64 tid → gint64 pid */
  GHashTable *active_flows; /* guint64 ids */
  GHashTable *stack_nodes;  /* guint64 id → guint64 parent id */
  GArray *cpus;             /* PerfettoRCpu */
  GHashTable *ftrace_names; /* FtraceEvent field number → string id */
  GHashTable *packet_kinds; /* TracePacket field number → PerfettoPacketKindCount */
  GHashTable *unsupported;  /* reason (a static string) → count, of unsupported_events */
  GHashTable *clocks;       /* clock key → PerfettoClock (perfetto-reader-clocks.c) */
  guint32 kernel_version;   /* of system_info (perfetto_kernel_version()), 0 for none */
  gboolean states_read;     /* whether a sched switch's prev_state was read */
  GArray *comm_ids;         /* string ids of a compact intern_table */
  FtraceParser *markers;    /* atrace markers in print events: their stacks */
  GPtrArray *prints;        /* PerfettoPendingPrint: print events waiting for time order */
  guint64 prints_seen;      /* print events deferred so far (their order at equal times) */
  gboolean releasing_prints;
  gboolean cpus_expected;      /* perfetto_reader_expect_cpus() was called */
  const guint8 *inflated_rest; /* the compressed packets after the one being read */
  gsize inflated_rest_len;

  TraceBatch *batch;
  guint32 stream_clock;
  gboolean clock_stated;
  gint64 last_ts;
  gint64 event_thread_ts; /* of the TrackEvent being read, -1 for none */

  /* interned once */
  guint32 k_step;
  guint32 k_url;
  guint32 k_line;
  guint32 k_perf_args[PERFETTO_PERF_N_ARGS];
  guint32 k_global_track;
  guint32 k_opaque_field;
  guint32 k_opaque_bytes;
  guint32 k_cpu_data_start;
  guint32 k_instruction_count;

  JsonObject *metadata; /* Chrome bundles' metadata, NULL until some */
  PerfettoReaderStats stats;

  /* descriptors declared ahead of their place (perfetto_reader_declare_ahead()) */
  guint64 record_end;    /* file offset where the record being read ends */
  guint64 ahead_scanned; /* file offset up to which records were scanned for them */

  /* for the debug messages */
  guint64 packet_offset; /* of the record being read (the outer one of compressed packets) */
  guint8 kinds_seen[32]; /* a bit per TracePacket data field seen */
};

/* perfetto-reader-clocks.c */
typedef struct _PerfettoClock PerfettoClock;
GHashTable *perfetto_clocks_new (void);
guint perfetto_reader_clock_snapshot (PerfettoReader *r,
                                      const Perfetto__Protos__ClockSnapshot *snap,
                                      guint32 sequence);
gboolean perfetto_reader_convert_time (PerfettoReader *r,
                                       guint32 clock_id,
                                       guint32 sequence,
                                       guint64 value,
                                       gint64 *ts);

/* perfetto-reader-opaque.c */
void perfetto_reader_unknown_packet (PerfettoReader *r,
                                     const PerfettoPacket *pkt,
                                     gint64 ts);

/* perfetto-kernel-state.c */
guint32 perfetto_kernel_version (const char *sysname,
                                 const char *release);
gint64 perfetto_task_state_from_raw (gint64 raw,
                                     guint32 version);
gint64 perfetto_task_state_to_raw (gint64 state,
                                   guint32 version);
guint32 perfetto_system_info_version (const Perfetto__Protos__SystemInfo *info);

void perfetto_reader_unread_fields (PerfettoReader *r,
                                    guint32 kind,
                                    guint n);
void perfetto_reader_count_unread_payload (PerfettoReader *r,
                                           const PerfettoPacket *pkt);
void perfetto_reader_system_info (PerfettoReader *r,
                                  const Perfetto__Protos__SystemInfo *info,
                                  gint64 ts);
void perfetto_reader_carry_unread_members (PerfettoReader *r,
                                           guint32 kind,
                                           const ProtobufCMessage *payload,
                                           gint64 ts);

/* perfetto-chrome-threads.c */
const char *perfetto_chrome_thread_name (gint32 thread_type);

/* perfetto-packet-kinds.c */
const char *perfetto_packet_kind_name (guint32 field,
                                       char *buf,
                                       gsize size);
gboolean perfetto_packet_kind_carries_unread (guint32 field);

/* perfetto-reader.c */
void perfetto_reader_release_prints (PerfettoReader *r,
                                     gint64 upto);
void perfetto_reader_expect_cpus (PerfettoReader *r);
gboolean perfetto_reader_declare_ahead (PerfettoReader *r,
                                        guint64 uuid,
                                        gint64 ts);
void perfetto_reader_skip (PerfettoReader *r,
                           guint64 *counter,
                           guint64 n,
                           const char *what);
TraceEvent *perfetto_reader_emit (PerfettoReader *r,
                                  TraceEventKind kind,
                                  gint64 ts);
guint32 perfetto_reader_lookup_string (PerfettoReader *r,
                                       GHashTable *table,
                                       guint64 iid);
guint32 perfetto_reader_intern (PerfettoReader *r,
                                const char *str);
void perfetto_reader_set_assoc (PerfettoReader *r,
                                gint64 tid,
                                gint64 pid);
gint64 perfetto_reader_pid_of (PerfettoReader *r,
                               gint64 tid);
gint64 *perfetto_int64_dup (gint64 v);

/* perfetto-reader-events.c */
void perfetto_reader_track_descriptor (PerfettoReader *r,
                                       PerfettoTrackDescriptor *desc,
                                       gint64 ts);
void perfetto_reader_track_event (PerfettoReader *r,
                                  PerfettoSeq *seq,
                                  PerfettoTrackEvent *te,
                                  gint64 ts);
guint32 perfetto_reader_event_name (PerfettoReader *r,
                                    PerfettoSeq *seq,
                                    const PerfettoTrackEvent *te);
guint32 perfetto_reader_event_category (PerfettoReader *r,
                                        PerfettoSeq *seq,
                                        const PerfettoTrackEvent *te);
void perfetto_reader_event_args (PerfettoReader *r,
                                 PerfettoSeq *seq,
                                 TraceEvent *ev,
                                 const PerfettoTrackEvent *te);
void perfetto_reader_event_flows (PerfettoReader *r,
                                  TraceEvent *ev,
                                  const PerfettoTrackEvent *te);
void perfetto_reader_event_thread_time (PerfettoReader *r,
                                        PerfettoSeq *seq,
                                        TraceEvent *ev,
                                        const PerfettoTrackEvent *te);
guint32 perfetto_reader_string_arg (TraceBatch *batch,
                                    const TraceEvent *ev,
                                    guint32 key);
void perfetto_reader_chrome_events (PerfettoReader *r,
                                    const Perfetto__Protos__ChromeEventBundle *bundle);
void perfetto_reader_process_tree (PerfettoReader *r,
                                   Perfetto__Protos__ProcessTree *tree,
                                   gint64 ts);
void perfetto_reader_thread_name (PerfettoReader *r,
                                  gint64 pid,
                                  gint64 tid,
                                  guint32 name,
                                  gint64 ts);

/* perfetto-writer-kargs.c */
gboolean perfetto_karg_to_int (PerfettoWriter *w,
                               TraceBatch *batch,
                               const TraceArg *arg,
                               gint64 *out);
guint32 perfetto_karg_to_symbol (PerfettoWriter *w,
                                 TraceBatch *batch,
                                 const TraceArg *arg);

/* perfetto-writer-opaque.c */
gboolean perfetto_opaque_ftrace_payload (PerfettoWriter *w,
                                         TraceBatch *batch,
                                         const TraceEvent *ev,
                                         guint32 *field,
                                         GArray *out);
void perfetto_write_record (PerfettoWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev);

/* perfetto-process-stats.c */
void perfetto_reader_process_stats (PerfettoReader *r,
                                    const Perfetto__Protos__ProcessStats *stats,
                                    gint64 ts);

/* perfetto-reader-legacy.c */
void perfetto_reader_legacy_event (PerfettoReader *r,
                                   PerfettoSeq *seq,
                                   const PerfettoRTrack *track,
                                   const PerfettoTrackEvent *te,
                                   gint64 ts);

/* perfetto-sys-stats.c */
void perfetto_reader_sys_stats (PerfettoReader *r,
                                const Perfetto__Protos__SysStats *stats,
                                gint64 ts);

/* perfetto-reader-samples.c */
void perfetto_reader_intern_profiling (PerfettoReader *r,
                                       PerfettoSeq *seq,
                                       const PerfettoInternedData *d);
void perfetto_reader_perf_sample (PerfettoReader *r,
                                  PerfettoSeq *seq,
                                  const Perfetto__Protos__PerfSample *s,
                                  gint64 ts);
void perfetto_reader_thread_descriptor (PerfettoSeq *seq,
                                        const Perfetto__Protos__ThreadDescriptor *td);
void perfetto_reader_streaming_profile (PerfettoReader *r,
                                        PerfettoSeq *seq,
                                        const Perfetto__Protos__StreamingProfilePacket *sp);

/* perfetto-reader-ftrace.c */
void perfetto_reader_ftrace_bundle (PerfettoReader *r,
                                    PerfettoSeq *seq,
                                    PerfettoFtraceBundle *bundle);

/* ---- The writer's internals, shared by its source files ---- */

/* A growable array of protobuf-c structs, with the array of pointers to
 * them that repeated message fields want. The pointers are only built
 * (perfetto_vec_ptrs) right before packing, because growing moves the structs. */
typedef struct
{
  guint8 *data;
  guint len;
  guint cap;
  gsize elt_size;
  gpointer *ptrs;
  guint ptrs_cap;
} PerfettoVec;

void perfetto_vec_init (PerfettoVec *v, gsize elt_size);
void perfetto_vec_clear (PerfettoVec *v);
void perfetto_vec_grow (PerfettoVec *v);
gpointer *perfetto_vec_ptrs (PerfettoVec *v);

/* Returns: an uninitialised slot at the end of @v, for a struct the
 * caller initialises whole (a protobuf-c __init()); valid until the next
 * push. Inline: annotations are pushed per arg. */
static inline gpointer
perfetto_vec_push_uninit (PerfettoVec *v)
{
  if (G_UNLIKELY (v->len == v->cap))
    perfetto_vec_grow (v);
  return v->data + v->len++ * v->elt_size;
}

/* Returns: a zeroed slot at the end of @v; valid until the next push */
static inline gpointer
perfetto_vec_push (PerfettoVec *v)
{
  return memset (perfetto_vec_push_uninit (v), 0, v->elt_size);
}
#define perfetto_vec_at(v, type, i) (&((type *) (v)->data)[i])

/* A set of string ids, one bit each. */
typedef struct
{
  guint8 *bits;
  gsize n_bytes;
} PerfettoIdSet;

typedef struct
{
  PerfettoKey key; /* pid */
  gint64 pid;
  guint64 uuid;
  guint32 name;
  gboolean has_sort_index;
  gint64 sort_index;
  GArray *labels; /* guint32 string ids */
  gboolean described;
  gboolean has_rank; /* a sort index coming later in the batch */
  gint64 rank;
} PerfettoProcess;

/* A slice on a thread's stack, as trace_processor's slice tracker keeps
 * it for a JSON trace: begun (end unknown) or complete (its end known:
 * a complete slice, an instant, or a begun slice ended below the top).
 * @needs_end: its end TrackEvent is not written yet (begun slices, and
 * complete slices longer than 0 written as begin + end, not as a legacy
 * `X`). */
typedef struct
{
  gint64 ts;
  gint64 end_ts;
  gint64 end_thread_ts; /* the thread time its end carries, -1: none */
  guint32 name;
  guint32 category;
  guint8 complete;
  guint8 needs_end;
} PerfettoOpenSlice;

/* An overflow track of a thread, for complete slices that partially
 * overlap the thread's open slices (trace_processor spills them the
 * same way). */
typedef struct
{
  guint64 uuid;
  GArray *open_ends; /* gint64, innermost last */
} PerfettoLane;

typedef struct
{
  PerfettoKey key; /* pid, tid */
  gint64 pid;      /* TRACE_ID_UNKNOWN when the input did not tell */
  gint64 tid;
  guint64 uuid;
  guint32 name;
  gboolean has_sort_index;
  gint64 sort_index;
  gboolean described;
  gboolean has_rank; /* a sort index coming later in the batch */
  gint64 rank;
  GArray *open;             /* PerfettoOpenSlice, innermost last */
  guint n_complete;         /* of them complete: none, nothing to close */
  guint n_paired;           /* of them complete, written as begin + end, the end not yet */
  guint untracked;          /* begins past the depth limit */
  GArray *lanes;            /* PerfettoLane, created on the first overlap */
  guint64 thread_time_uuid; /* its thread_time counter track, 0: none yet */
} PerfettoThread;

/* Named, counter and global tracks. */
typedef struct
{
  PerfettoKey key;
  guint64 uuid;
  guint depth; /* open slices, for dropping unmatched ends */
} PerfettoTrack;

typedef struct
{
  guint64 uuid;
  gboolean busy;
} PerfettoAsyncTrack;

/* The async tracks of one (process, track name): as many as async slices
 * ever overlapped, reused when free so that each track's slices nest. */
typedef struct
{
  PerfettoKey key; /* pid, track name */
  GArray *tracks;  /* PerfettoAsyncTrack */
} PerfettoAsyncPool;

/* An open async slice family (same id): all on one track. */
typedef struct
{
  PerfettoKey key; /* pid, id, scope, name for unnestable families */
  PerfettoAsyncPool *pool;
  guint index;
  guint depth;
  guint32 track_name;
} PerfettoAsyncSlot;

typedef struct
{
  guint64 id;
  guint64 parent_id;
  guint32 name;
  guint32 url;
  gint64 line;
  guint64 frame_iid;
} PerfettoStackNode;

/* The packet sequence of one sampled thread (StreamingProfilePacket). */
typedef struct
{
  PerfettoKey key; /* pid, tid */
  guint32 seq_id;
  gint64 pid;
  gint64 tid;
  gboolean described; /* its ThreadDescriptor is written since the clear */
  gint64 last_us;     /* the time the next delta starts from */
  GHashTable *sent;   /* interned entries sent: PERFETTO_SENT_* | iid */
  GArray *iids;       /* guint64 callstack iids waiting for their packet */
  GArray *deltas;     /* gint64 their timestamp_delta_us */
} PerfettoSampleSeq;

typedef struct _PfBundle PerfettoBundle;

#define PERFETTO_CACHE_SIZE 256

typedef struct
{
  gint64 tid;
  gint64 pid;
  gboolean valid;
} PerfettoAssocEntry;

/* A growable output buffer of the wire writer (perfetto-writer-wire.c). */
typedef struct
{
  guint8 *data;
  gsize len;
  gsize cap;
} PerfettoWireBuf;

gboolean perfetto_wire_append_record (PerfettoWireBuf *b,
                                      const PerfettoPacket *pkt,
                                      const PerfettoWireBuf *annotations);
gboolean perfetto_wire_check_schema (GError **error);

struct _PerfettoWriter
{
  GOutputStream *out;
  PerfettoWriterOptions opts;
  TraceStringPool *pool;
  gboolean failed;
  gboolean finished;
  guint32 builtin_clock;

  /* output: whole Trace.packet records, written out in large chunks
   * (the wire writer appends to it in place) */
  PerfettoWireBuf obuf;
  gsize flush_at; /* write out once obuf.len reaches this */
  /* compress=true: the deflated run and the packet that carries it */
  GByteArray *zbuf;
  GByteArray *zpacket;
  GArray *record_payload; /* guint8: the payload of the record being written */
  GArray *iids;           /* guint32 by pool id: its iid, 0 for none yet (perfetto_iid()) */
  guint32 last_iid;
  guint32 kernel_version; /* prev_states are written for it (perfetto_kernel_version()) */
  gboolean states_written;

  /* sequence state */
  gboolean started;
  gboolean header_has_pair; /* the header holds the pair header_pair_ts/_other: not written again */
  gint64 header_pair_ts;
  gint64 header_pair_other;
  gboolean need_clear;
  guint generation;
  guint interned_in_generation;
  gint64 last_ts;

  /* the packet being built and its interned data */
  PerfettoPacket pkt;
  PerfettoInternedData idata;
  gboolean packet_has_interned;
  PerfettoVec new_names;      /* EventName */
  PerfettoVec new_categories; /* EventCategory */
  PerfettoVec new_ann_names;  /* DebugAnnotationName */
  PerfettoVec new_str_values; /* InternedString */
  PerfettoVec new_ksyms;      /* InternedString */
  PerfettoVec new_functions;  /* InternedString */
  PerfettoVec new_map_paths;  /* InternedString */
  PerfettoVec new_mappings;   /* Mapping */
  PerfettoVec new_frames;     /* Frame */
  PerfettoVec new_callstacks; /* Callstack */
  GArray *callstack_frames;   /* guint64 frame iids of the callstacks above */
  GArray *mapping_paths;      /* guint64 path ids of the mappings above */
  PerfettoIdSet seen_names;
  PerfettoIdSet seen_categories;
  PerfettoIdSet seen_ann_names;
  PerfettoIdSet seen_str_values;
  PerfettoIdSet seen_ksyms;
  PerfettoIdSet seen_functions;
  PerfettoIdSet seen_map_paths;

  /* the TrackEvent being built */
  PerfettoTrackEvent te;
  PerfettoWireBuf ann_wire;  /* its debug annotations, in wire format (perfetto-writer-args.c) */
  PerfettoArgKeys *arg_keys; /* split keys (perfetto-writer-args.c) */
  guint64 category_iid;
  char *category_str;
  guint64 flow_out;
  guint64 flow_in;
  Perfetto__Protos__TrackEvent__LegacyEvent legacy; /* of the TrackEvent being built: flow v2, X, b e n */
  PerfettoVec owed_ends;                            /* PerfettoOpenSlice: cut ends close_stack() left to trace_processor */
  guint64 thread_time_uuid;                         /* extra counter of the TrackEvent being built */
  gint64 thread_time_value;

  /* tracks */
  guint64 next_uuid;
  GHashTable *processes;   /* PerfettoKey → PerfettoProcess */
  GHashTable *threads;     /* PerfettoKey → PerfettoThread */
  GHashTable *counters;    /* PerfettoKey → PerfettoTrack */
  GHashTable *named;       /* PerfettoKey → PerfettoTrack */
  GHashTable *async_pools; /* PerfettoKey → PerfettoAsyncPool */
  GHashTable *async_slots; /* PerfettoKey → PerfettoAsyncSlot */
  GHashTable *tid_to_pid;  /* gint64 tid → gint64 pid, as told to readers */
  guint64 global_uuid;
  gboolean ordering_explicit; /* root descriptor written (sort indexes) */
  char *metadata;             /* the stream's, a JSON object's text */
  PerfettoThread *last_thread;
  /* Direct-mapped caches in front of threads and tid_to_pid: most events
   * of a trace come from a few hundred threads (entries are never removed
   * from those tables, so a cached pointer stays valid). */
  PerfettoThread *thread_cache[PERFETTO_CACHE_SIZE];
  PerfettoAssocEntry assoc_cache[PERFETTO_CACHE_SIZE];

  /* process_tree entries waiting for the end of the batch */
  PerfettoVec tree_processes; /* ProcessTree.Process */
  PerfettoVec tree_threads;   /* ProcessTree.Thread */
  GPtrArray *tree_cmdlines;   /* char* cmdline[0] of the processes above */
  gint64 tree_ts;

  /* kernel events */
  GPtrArray *bundles;           /* PerfettoBundle per cpu + 1 (0: cpu unknown) */
  GArray *cpu_sched;            /* PerfettoCpuSched per cpu */
  gint64 max_data_start;        /* the latest cpu data start, G_MININT64 for none */
  guint32 data_start_name;      /* PERFETTO_CPU_DATA_START in the pool, 0: not yet */
  GHashTable *ftrace_map_cache; /* name id → PerfettoFtraceEventMap or &no_map */

  /* CPU-profile stacks */
  GHashTable *stack_nodes; /* guint64 id → PerfettoStackNode */
  guint64 next_frame_iid;
  GHashTable *sample_seqs;     /* PerfettoKey (pid, tid) → PerfettoSampleSeq */
  PerfettoSampleSeq *perf_seq; /* the sequence of the PerfSample packets */
  guint32 next_sample_seq;
  gboolean sample_clock_tied; /* MONOTONIC tied to the stream's clock */

  /* JSON streams: track events wait here for trace_processor's order:
   * those that come in order in a run (a FIFO from order_run_head),
   * the others in a heap */
  PerfettoVec order_heap; /* PerfettoHeld */
  PerfettoVec order_run;  /* PerfettoHeld */
  guint order_run_head;
  /* the batches whose events wait in the run where they are (a FIFO of
   * PerfettoHeldBatch from order_batches_head) */
  PerfettoVec order_batches;
  guint order_batches_head;
  guint32 order_seq;       /* arrival number of the next event held */
  TraceBatch *order_store; /* copies of the other events that wait */
  GArray *order_remap;     /* guint32: compact_store()'s new index of each stored event */
  gint64 order_last_ts;
  gboolean order_released;
  /* trace_processor's sorter state, followed (perfetto-writer-order.c) */
  gboolean order_slow;
  gint64 order_max_ts;
  gint64 order_sort_min_ts;

  PerfettoWriterStats stats;
};

/* How many events wait at most for their place in a JSON stream's order. */
#define PERFETTO_ORDER_WINDOW 65536
/* events the store of waiting events holds before it is compacted */
#define PERFETTO_ORDER_STORE_SIZE (2 * PERFETTO_ORDER_WINDOW)
/* batches kept for their waiting events at most: a window's worth of
 * json-src's batches, and some */
#define PERFETTO_ORDER_MAX_BATCHES 24
/* a batch with fewer events is copied from (a batch is kept whole) */
#define PERFETTO_ORDER_MIN_BATCH 1024

/* perfetto-writer.c */
void perfetto_writer_drop (PerfettoWriter *w,
                           guint64 *counter,
                           guint64 n,
                           gint64 ts,
                           const char *what);
gboolean perfetto_intern_enabled (PerfettoWriter *w);
void perfetto_packet_begin (PerfettoWriter *w);
void perfetto_packet_emit (PerfettoWriter *w,
                           gint64 ts,
                           gboolean has_ts,
                           gboolean needs_state);
guint64 perfetto_intern_name (PerfettoWriter *w,
                              guint32 id);
guint64 perfetto_intern_category (PerfettoWriter *w,
                                  guint32 id);
guint64 perfetto_intern_ann_name (PerfettoWriter *w,
                                  guint32 id);
guint64 perfetto_intern_str_value (PerfettoWriter *w,
                                   guint32 id);
guint64 perfetto_intern_ksym (PerfettoWriter *w,
                              guint32 id);
guint64 perfetto_intern_function (PerfettoWriter *w,
                                  guint32 id);
guint64 perfetto_intern_map_path (PerfettoWriter *w,
                                  guint32 id);
guint64 perfetto_timestamp (PerfettoWriter *w,
                            gint64 ts);
guint64 perfetto_iid (PerfettoWriter *w,
                      guint32 id);
const char *perfetto_str (PerfettoWriter *w,
                          guint32 id);

/* perfetto-writer-args.c */
void perfetto_args_write (PerfettoWriter *w,
                          TraceBatch *batch,
                          const TraceEvent *ev);
void perfetto_args_write_string (PerfettoWriter *w,
                                 guint32 key,
                                 guint32 value);
void perfetto_args_free (PerfettoWriter *w);
void perfetto_args_reset (PerfettoWriter *w);

/* perfetto-writer-events.c */
void perfetto_write_track_event (PerfettoWriter *w,
                                 TraceBatch *batch,
                                 const TraceEvent *ev);
void perfetto_close_open_slices (PerfettoWriter *w);

/* perfetto-writer-order.c */
void perfetto_order_write (PerfettoWriter *w,
                           TraceBatch *batch,
                           const TraceEvent *ev);
void perfetto_order_follow (PerfettoWriter *w,
                            const TraceEvent *ev);
gboolean perfetto_order_drain (PerfettoWriter *w,
                               GError **error);
gboolean perfetto_writer_flush_output (PerfettoWriter *w,
                                       GError **error);
void perfetto_order_init (PerfettoWriter *w);
void perfetto_order_clear (PerfettoWriter *w);

/* perfetto-writer-tracks.c */
void perfetto_tracks_init (PerfettoWriter *w);
void perfetto_tracks_free (PerfettoWriter *w);
PerfettoProcess *perfetto_process_get (PerfettoWriter *w,
                                       gint64 pid);
void perfetto_process_describe (PerfettoWriter *w,
                                PerfettoProcess *p,
                                gint64 ts);
PerfettoThread *perfetto_thread_get (PerfettoWriter *w,
                                     gint64 pid,
                                     gint64 tid,
                                     gint64 ts);
void perfetto_thread_describe (PerfettoWriter *w,
                               PerfettoThread *t,
                               gint64 ts);
PerfettoThread *perfetto_thread_lookup (PerfettoWriter *w,
                                        gint64 pid,
                                        gint64 tid);
guint64 perfetto_process_track (PerfettoWriter *w,
                                gint64 pid,
                                gint64 ts);
PerfettoTrack *perfetto_named_track (PerfettoWriter *w,
                                     gint64 pid,
                                     guint32 name,
                                     gint64 ts);
guint64 perfetto_global_track (PerfettoWriter *w,
                               gint64 ts);
guint64 perfetto_lane_track (PerfettoWriter *w,
                             PerfettoThread *t,
                             gint64 ts);
guint64 perfetto_thread_time_track (PerfettoWriter *w,
                                    PerfettoThread *t,
                                    gint64 ts);
guint64 perfetto_counter_track (PerfettoWriter *w,
                                const TraceEvent *ev);
PerfettoAsyncSlot *perfetto_async_slot_lookup (PerfettoWriter *w,
                                               const TraceEvent *ev);
PerfettoAsyncSlot *perfetto_async_slot_open (PerfettoWriter *w,
                                             const TraceEvent *ev);
void perfetto_async_slot_close (PerfettoWriter *w,
                                PerfettoAsyncSlot *slot);
guint64 perfetto_async_slot_uuid (PerfettoAsyncSlot *slot);
void perfetto_assoc_thread (PerfettoWriter *w,
                            gint64 tid,
                            gint64 pid,
                            guint32 name,
                            gint64 ts,
                            gboolean force);
void perfetto_tree_add_process (PerfettoWriter *w,
                                gint64 pid,
                                guint32 name,
                                gint64 ts);
void perfetto_tree_flush (PerfettoWriter *w);
void perfetto_write_trace_metadata (PerfettoWriter *w);
void perfetto_ranks_prescan (PerfettoWriter *w,
                             const TraceBatch *batch);
void perfetto_write_metadata (PerfettoWriter *w,
                              TraceBatch *batch,
                              const TraceEvent *ev);

/* perfetto-writer-ftrace.c */
void perfetto_ftrace_init (PerfettoWriter *w);
void perfetto_ftrace_free (PerfettoWriter *w);
void perfetto_write_kernel_event (PerfettoWriter *w,
                                  TraceBatch *batch,
                                  const TraceEvent *ev);
void perfetto_write_processless_thread_name (PerfettoWriter *w,
                                             const TraceEvent *ev);
char *perfetto_clock_marker_text (PerfettoWriter *w,
                                  const TraceEvent *ev);
void perfetto_write_clock_pair (PerfettoWriter *w,
                                const TraceEvent *ev);
void perfetto_write_clock_marker (PerfettoWriter *w,
                                  const TraceEvent *ev);
void perfetto_ftrace_flush (PerfettoWriter *w);
void perfetto_ftrace_prescan (PerfettoWriter *w,
                              TraceBatch *batch);

/* perfetto-sys-stats.c */
gboolean perfetto_write_sys_stats (PerfettoWriter *w,
                                   const TraceEvent *ev);

/* perfetto-process-stats.c */
gboolean perfetto_write_process_stats (PerfettoWriter *w,
                                       const TraceEvent *ev);

/* perfetto-writer-samples.c */
void perfetto_samples_init (PerfettoWriter *w);
void perfetto_samples_free (PerfettoWriter *w);
void perfetto_samples_flush (PerfettoWriter *w);
void perfetto_write_stack_node (PerfettoWriter *w,
                                TraceBatch *batch,
                                const TraceEvent *ev);
void perfetto_write_sample (PerfettoWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev);

/* ---- The elements: traceperfettosink.c, traceperfettosrc.c ---- */

#define TRACE_TYPE_PERFETTO_SINK (trace_perfetto_sink_get_type ())
G_DECLARE_FINAL_TYPE (TracePerfettoSink, trace_perfetto_sink, TRACE, PERFETTO_SINK, TraceFileSink)

#define TRACE_TYPE_PERFETTO_SRC (trace_perfetto_src_get_type ())
G_DECLARE_FINAL_TYPE (TracePerfettoSrc, trace_perfetto_src, TRACE, PERFETTO_SRC, TraceFileSrc)

TRACE_ELEMENT_REGISTER_DECLARE (perfetto_sink)
TRACE_ELEMENT_REGISTER_DECLARE (perfetto_src)

G_END_DECLS
