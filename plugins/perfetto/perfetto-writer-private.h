/* tracepipe - the Perfetto writer's internals, shared by its source files
 *
 * The writer in layers, each using only those below it (and, among the
 * event writers, the kernel-record writer and the clock snapshots, for
 * the records the others hand them):
 *   perfetto-writer.c: the public API; hands each event to its writer
 *   the writers of each kind of event: perfetto-writer-order.c (the order
 *     of a JSON stream's TrackEvents), perfetto-writer-events.c
 *     (TrackEvents), perfetto-writer-names.c (process and thread names),
 *     perfetto-writer-clock.c (clock markers), perfetto-writer-samples.c
 *     (CPU profiles), perfetto-writer-opaque.c (records),
 *     perfetto-writer-ftrace.c and perfetto-writer-kargs.c (kernel
 *     records), and the writer halves of perfetto-metadata.c,
 *     perfetto-sys-stats.c and perfetto-process-stats.c
 *   what they share: perfetto-writer-tracks.c (tracks, their descriptors,
 *     process_tree), perfetto-writer-args.c (an event's args)
 *   packets: perfetto-writer-output.c (a packet to its record, records to
 *     the stream), perfetto-writer-wire.c (the hot packets' bytes)
 *   interning: perfetto-writer-intern.c, perfetto-writer-vec.c
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "perfetto-common.h"
#include "perfetto-wire.h"
#include "perfetto-writer.h"

G_BEGIN_DECLS

typedef struct _PerfettoArgKeys PerfettoArgKeys;

/* A process keeps at most this many labels. */
#define PERFETTO_MAX_LABELS 32

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

/* perfetto-writer-vec.c */
void perfetto_vec_init (PerfettoVec *v,
                        gsize elt_size);
void perfetto_vec_clear (PerfettoVec *v);
void perfetto_vec_grow (PerfettoVec *v);
gpointer *perfetto_vec_ptrs (PerfettoVec *v);

/* Returns: an uninitialised slot at the end of @v, for a struct the
 * caller initialises whole (a protobuf-c __init()) or copies in; valid
 * until the next push. Inline: events waiting for their order are pushed
 * one by one. */
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
  gboolean name_in_tree; /* @name is listed in process_tree (not an
                          * app's own name only) */
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

/* The packet sequence of one sampled thread (StreamingProfilePacket), or
 * of the PerfSamples of one timebase. */
typedef struct
{
  PerfettoKey key;  /* pid, tid */
  guint32 timebase; /* PerfSamples: the timebase's name, 0 for cpu-clock */
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
  guint64 flow_ids[TRACE_SLICE_MAX_FLOWS];             /* of the TrackEvent being built */
  guint64 terminating_flow_ids[TRACE_SLICE_MAX_FLOWS]; /* of the TrackEvent being built */
  Perfetto__Protos__TrackEvent__LegacyEvent legacy;    /* of the TrackEvent being built: flow v2, X, b e n */
  PerfettoVec owed_ends;                               /* PerfettoOpenSlice: cut ends close_stack() left to trace_processor */
  guint64 thread_time_uuid;                            /* extra counter of the TrackEvent being built */
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
  /* pids and tids written otherwise (perfetto_id()), NULL until one */
  GHashTable *id_map;   /* gint64 id → GINT_TO_POINTER (the gint32 written) */
  GHashTable *id_taken; /* the gint32 ids ≥ PERFETTO_ID_PLAIN written: a set */
  gint64 next_mapped;   /* the next id given to one that does not fit */
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
  GHashTable *sample_seqs; /* PerfettoKey (pid, tid) → PerfettoSampleSeq */
  GHashTable *perf_seqs;   /* timebase name → the sequence of its PerfSample packets */
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

/* ---- what every layer asks of the writer: inline, since each is a
 * field of the writer or one step from it, and every writer calls them
 * for every event ---- */

static inline const char *
perfetto_str (PerfettoWriter *w,
              guint32 id)
{
  return trace_string_pool_get (w->pool, id);
}

static inline gboolean
perfetto_intern_enabled (PerfettoWriter *w)
{
  return w->opts.intern;
}

/* Counts @n events dropped, or changed to be written, for one reason
 * (@counter, in the writer's stats). The first of each reason is logged
 * with its timestamp @ts and @what; the rest are only counted (the sink
 * reports the totals). */
static inline void
perfetto_writer_drop (PerfettoWriter *w,
                      guint64 *counter,
                      guint64 n,
                      gint64 ts,
                      const char *what)
{
  if (*counter == 0 && n > 0)
    g_debug ("writer: at %" G_GINT64_FORMAT " ns: first %s (the rest are counted)", ts, what);
  *counter += n;
}

/* A packet's timestamp: a negative one is written as 0, and counted. */
static inline guint64
perfetto_timestamp (PerfettoWriter *w,
                    gint64 ts)
{
  if (G_UNLIKELY (ts < 0))
    {
      perfetto_writer_drop (w, &w->stats.clamped_timestamps, 1, ts, "negative timestamp written as 0");
      return 0;
    }
  return (guint64) ts;
}

/* ---- interning: perfetto-writer-intern.c ---- */

void perfetto_intern_init (PerfettoWriter *w);
void perfetto_intern_free (PerfettoWriter *w);
void perfetto_packet_begin (PerfettoWriter *w);
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
guint64 perfetto_iid (PerfettoWriter *w,
                      guint32 id);

/* ---- packets: perfetto-writer-output.c ---- */

void perfetto_output_init (PerfettoWriter *w);
void perfetto_output_free (PerfettoWriter *w);
void perfetto_packet_emit (PerfettoWriter *w,
                           gint64 ts,
                           gboolean has_ts,
                           gboolean needs_state);

/* ---- what the event writers share ---- */

/* perfetto-writer-args.c */
void perfetto_args_write (PerfettoWriter *w,
                          TraceBatch *batch,
                          const TraceEvent *ev);
void perfetto_args_write_string (PerfettoWriter *w,
                                 guint32 key,
                                 guint32 value);
void perfetto_args_free (PerfettoWriter *w);
void perfetto_args_reset (PerfettoWriter *w);

/* perfetto-writer-tracks.c */

/* Ids below it (and negative ones of 32 bits) are written as they are;
 * the rest pass through the writer's id map. */
#define PERFETTO_ID_PLAIN (G_GINT64_CONSTANT (1) << 30)

gint32 perfetto_map_id (PerfettoWriter *w,
                        gint64 id);

/* A pid or tid as written: Perfetto's are 32 bits; a larger one (a
 * cast would make 4294967297 pid 1) becomes an id of its own, unique in
 * the file, counted (stats.mapped_ids) and warned about by the sink. */
static inline gint32
perfetto_id (PerfettoWriter *w,
             gint64 id)
{
  if (G_LIKELY (id < PERFETTO_ID_PLAIN && id >= G_MININT32))
    return (gint32) id;
  return perfetto_map_id (w, id);
}

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
void perfetto_ranks_prescan (PerfettoWriter *w,
                             const TraceBatch *batch);
PerfettoThread *perfetto_thread_find (PerfettoWriter *w,
                                      gint64 pid,
                                      gint64 tid);
gint64 perfetto_assoc_pid (PerfettoWriter *w,
                           gint64 tid);

/* ---- the writers of each kind of event ---- */

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
void perfetto_order_init (PerfettoWriter *w);
void perfetto_order_clear (PerfettoWriter *w);

/* perfetto-writer-names.c */
void perfetto_write_names (PerfettoWriter *w,
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
void perfetto_write_clock_sync_print (PerfettoWriter *w,
                                      const TraceEvent *ev,
                                      const char *text);
void perfetto_ftrace_flush (PerfettoWriter *w);
void perfetto_ftrace_prescan (PerfettoWriter *w,
                              TraceBatch *batch);

/* perfetto-writer-kargs.c */
gboolean perfetto_karg_to_int (PerfettoWriter *w,
                               TraceBatch *batch,
                               const TraceArg *arg,
                               gint64 *out);
guint32 perfetto_karg_to_symbol (PerfettoWriter *w,
                                 TraceBatch *batch,
                                 const TraceArg *arg);

/* perfetto-writer-clock.c */
void perfetto_write_header (PerfettoWriter *w,
                            TraceBatch *batch);
void perfetto_write_clock_marker (PerfettoWriter *w,
                                  const TraceEvent *ev);
void perfetto_write_clock_snapshot (PerfettoWriter *w,
                                    const guint32 ids[2],
                                    const gint64 values[2],
                                    gboolean primary);

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

/* perfetto-writer-opaque.c */
gboolean perfetto_opaque_ftrace_payload (PerfettoWriter *w,
                                         TraceBatch *batch,
                                         const TraceEvent *ev,
                                         guint32 *field,
                                         GArray *out);
void perfetto_write_record (PerfettoWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev);

/* perfetto-metadata.c */
void perfetto_write_trace_metadata (PerfettoWriter *w);

/* perfetto-sys-stats.c */
gboolean perfetto_write_sys_stats (PerfettoWriter *w,
                                   const TraceEvent *ev);

/* perfetto-process-stats.c */
gboolean perfetto_write_process_stats (PerfettoWriter *w,
                                       const TraceEvent *ev);

G_END_DECLS
