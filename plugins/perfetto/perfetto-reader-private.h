/* tracepipe - the Perfetto reader's internals, shared by its source
 * files (perfetto-reader*.c and the reader halves of the files that
 * read and write one kind of packet)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "ftrace-text.h"
#include "perfetto-common.h"
#include "perfetto-reader.h"

G_BEGIN_DECLS

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

/* cpus perfetto-src keeps state for (cpu_state()) */
#define PERFETTO_READER_MAX_CPUS 4096u
/* The largest packet the reader accepts. */
#define PERFETTO_MAX_PACKET_SIZE (256u * 1024 * 1024)

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
  guint32 path;         /* string id, 0 for none */
  guint64 identity;     /* hash of what tells two mappings apart */
  gboolean per_process; /* an address range: one mapping per process */
} PerfettoRMapping;

typedef struct
{
  guint32 function;
  guint32 url; /* its mapping's path */
  guint64 rel_pc;
  guint64 identity; /* hash of mapping, function and rel_pc */
  gboolean per_process;
  gboolean has_line;
  guint32 line;
} PerfettoRFrame;

/* Interning tables and defaults of one packet sequence. The reader
 * keeps one only while it holds state (perfetto-reader.c: seq_get()),
 * and each table and array from its first entry (NULL before): a
 * sequence id costs nothing until its packets give it state. */
typedef struct
{
  guint32 id;
  GList lru;      /* its link in the reader's sequences, least recently used first */
  gboolean valid; /* its incremental state was cleared once */
  guint32 default_clock;
  guint64 default_track;
  GHashTable *names; /* iid → string id, for each table below (NULL: empty) */
  GHashTable *categories;
  GHashTable *ann_names;
  GHashTable *str_values;
  GHashTable *ksyms;
  GHashTable *functions;
  GHashTable *map_paths;
  GHashTable *mappings;   /* iid → PerfettoRMapping */
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
  /* TrackEventDefaults' extra_{double_,}counter_track_uuids (guint64),
   * NULL for none */
  GArray *extra_counter_tracks;
  GArray *extra_double_counter_tracks;
  /* the name of its PerfSamples' timebase (perf_sample_defaults), 0 for
   * none: trace_processor then says cpu-clock */
  guint32 perf_timebase;
} PerfettoSeq;

/* Sequences with state kept at once; past it the least recently used
 * one's state is dropped (counted: PerfettoReaderStats.dropped_sequences). */
#define PERFETTO_READER_MAX_SEQUENCES 65536u

/* The interning table at @slot, made at its first entry. */
static inline GHashTable *
perfetto_seq_table (GHashTable **slot,
                    GDestroyNotify free_value)
{
  if (*slot == NULL)
    *slot = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, free_value);
  return *slot;
}

/* Returns: what @table (NULL: an empty one) holds for @iid */
static inline gpointer
perfetto_seq_lookup (GHashTable *table,
                     guint64 iid)
{
  return table ? g_hash_table_lookup (table, &iid) : NULL;
}

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

  TraceArena *arena; /* what a packet unpacks to */
  ProtobufCAllocator allocator;

  GHashTable *sequences;    /* guint32 → PerfettoSeq, those with state */
  GQueue seq_lru;           /* of those, least recently used first */
  PerfettoSeq scratch;      /* of a packet whose sequence has no state */
  GHashTable *tracks;       /* guint64 uuid → PerfettoRTrack */
  GHashTable *proc_names;   /* gint64 pid → string id << 1 | given by
                             * the app only */
  GHashTable *proc_sort;    /* PerfettoKey pid → gint64 */
  GHashTable *proc_labels;  /* "pid/label" keys seen: PerfettoKey → TRUE */
  GHashTable *thread_names; /* PerfettoKey (pid, tid) → string id */
  GHashTable *thread_sort;  /* PerfettoKey (pid, tid) → gint64 */
  GHashTable *tid_to_pid;   /* gint64 tid → gint64 pid */
  GHashTable *active_flows; /* guint64 ids */
  GHashTable *stack_nodes;  /* guint64 id → PerfettoRNode */
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
  /* that time is a value of a thread_time counter track (extra_counter_values),
   * which trace_processor keeps whatever track the event is on */
  gboolean event_thread_ts_counted;
  gint64 event_thread_pid; /* the thread of that counter track */
  gint64 event_thread_tid;

  /* interned once */
  guint32 k_step;
  guint32 k_url;
  guint32 k_line;
  guint32 k_perf_args[PERFETTO_PERF_N_ARGS];
  guint32 k_perf_timebase;
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

/* perfetto-reader-opaque.c */
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
void perfetto_reader_recorder_thread_time (PerfettoReader *r,
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

G_END_DECLS
