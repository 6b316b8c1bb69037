/* tracepipe - Perfetto writer internals shared by its source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "perfetto-common.h"
#include "perfetto-writer.h"

G_BEGIN_DECLS

/* A growable array of protobuf-c structs, with the array of pointers to
 * them that repeated message fields want. The pointers are only built
 * (pf_vec_ptrs) right before packing, because growing moves the structs. */
typedef struct
{
  guint8 *data;
  guint len;
  guint cap;
  gsize elt_size;
  gpointer *ptrs;
  guint ptrs_cap;
} PfVec;

void pf_vec_init (PfVec *v, gsize elt_size);
void pf_vec_clear (PfVec *v);
gpointer pf_vec_push (PfVec *v);
gpointer *pf_vec_ptrs (PfVec *v);
#define pf_vec_at(v, type, i) (&((type *) (v)->data)[i])

/* A set of string ids, one bit each. */
typedef struct
{
  guint8 *bits;
  gsize n_bytes;
} PfIdSet;

typedef struct
{
  PfKey key; /* pid */
  gint64 pid;
  guint64 uuid;
  guint32 name;
  gboolean has_sort_index;
  gint64 sort_index;
  GArray *labels; /* guint32 string ids */
  gboolean described;
  gboolean has_rank; /* a sort index coming later in the batch */
  gint64 rank;
} PfProcess;

/* A slice on a thread's stack, as trace_processor's slice tracker keeps
 * it for a JSON trace: begun (end unknown) or complete (its end known:
 * a complete slice, an instant, or a begun slice ended below the top).
 * @needs_end: its end TrackEvent is not written yet (begun slices, and
 * complete slices longer than 0, which are written as begin + end). */
typedef struct
{
  gint64 ts;
  gint64 end_ts;
  gint64 end_thread_ts; /* the thread time its end carries, -1: none */
  guint32 name;
  guint32 category;
  guint8 complete;
  guint8 needs_end;
} PfOpenSlice;

/* An overflow track of a thread, for complete slices that partially
 * overlap the thread's open slices (trace_processor spills them the
 * same way). */
typedef struct
{
  guint64 uuid;
  GArray *open_ends; /* gint64, innermost last */
} PfLane;

typedef struct
{
  PfKey key;  /* pid, tid */
  gint64 pid; /* TRACE_ID_UNKNOWN when the input did not tell */
  gint64 tid;
  guint64 uuid;
  guint32 name;
  gboolean has_sort_index;
  gint64 sort_index;
  gboolean described;
  gboolean has_rank; /* a sort index coming later in the batch */
  gint64 rank;
  GArray *open;             /* PfOpenSlice, innermost last */
  guint untracked;          /* begins past the depth limit */
  GArray *lanes;            /* PfLane, created on the first overlap */
  guint64 thread_time_uuid; /* its thread_time counter track, 0: none yet */
} PfThread;

/* Named, counter and global tracks. */
typedef struct
{
  PfKey key;
  guint64 uuid;
  guint depth; /* open slices, for dropping unmatched ends */
} PfTrack;

typedef struct
{
  guint64 uuid;
  gboolean busy;
} PfAsyncTrack;

/* The async tracks of one (process, track name): as many as async slices
 * ever overlapped, reused when free so that each track's slices nest. */
typedef struct
{
  PfKey key;      /* pid, track name */
  GArray *tracks; /* PfAsyncTrack */
} PfAsyncPool;

/* An open async slice family (same id): all on one track. */
typedef struct
{
  PfKey key; /* pid, id, scope, name for unnestable families */
  PfAsyncPool *pool;
  guint index;
  guint depth;
  guint32 track_name;
} PfAsyncSlot;

typedef struct
{
  guint64 id;
  guint64 parent_id;
  guint32 name;
  guint32 url;
  gint64 line;
  guint64 frame_iid;
} PfStackNode;

/* The packet sequence of one sampled thread (StreamingProfilePacket). */
typedef struct
{
  PfKey key; /* pid, tid */
  guint32 seq_id;
  gint64 pid;
  gint64 tid;
  gboolean described; /* its ThreadDescriptor is written since the clear */
  gint64 last_us;     /* the time the next delta starts from */
  GHashTable *sent;   /* interned entries sent: PF_SENT_* | iid */
  GArray *iids;       /* guint64 callstack iids waiting for their packet */
  GArray *deltas;     /* gint64 their timestamp_delta_us */
} PfSampleSeq;

typedef struct _PfBundle PfBundle;

#define PF_CACHE_SIZE 256

typedef struct
{
  gint64 tid;
  gint64 pid;
  gboolean valid;
} PfAssocEntry;

struct _PerfettoWriter
{
  GOutputStream *out;
  PerfettoWriterOptions opts;
  TraceStringPool *pool;
  gboolean failed;
  gboolean finished;
  guint32 builtin_clock;

  /* output: whole Trace.packet records, written out in large chunks */
  guint8 *obuf;
  gsize olen;
  gsize ocap;
  gsize flush_at; /* write out once olen reaches this */
  /* compress=true: the deflated run and the packet that carries it */
  GByteArray *zbuf;
  GByteArray *zpacket;

  /* sequence state */
  gboolean started;
  gboolean need_clear;
  guint generation;
  guint interned_in_generation;
  gint64 last_ts;

  /* the packet being built and its interned data */
  PfPacket pkt;
  PfInternedData idata;
  gboolean packet_has_interned;
  PfVec new_names;          /* EventName */
  PfVec new_categories;     /* EventCategory */
  PfVec new_ann_names;      /* DebugAnnotationName */
  PfVec new_str_values;     /* InternedString */
  PfVec new_ksyms;          /* InternedString */
  PfVec new_functions;      /* InternedString */
  PfVec new_map_paths;      /* InternedString */
  PfVec new_mappings;       /* Mapping */
  PfVec new_frames;         /* Frame */
  PfVec new_callstacks;     /* Callstack */
  GArray *callstack_frames; /* guint64 frame iids of the callstacks above */
  GArray *mapping_paths;    /* guint64 path ids of the mappings above */
  PfIdSet seen_names;
  PfIdSet seen_categories;
  PfIdSet seen_ann_names;
  PfIdSet seen_str_values;
  PfIdSet seen_ksyms;
  PfIdSet seen_functions;
  PfIdSet seen_map_paths;

  /* the TrackEvent being built */
  PfTrackEvent te;
  PfVec annotations; /* DebugAnnotation */
  guint64 category_iid;
  char *category_str;
  guint64 flow_out;
  guint64 flow_in;
  Perfetto__Protos__TrackEvent__LegacyEvent legacy_flow;
  guint64 thread_time_uuid; /* extra counter of the TrackEvent being built */
  gint64 thread_time_value;

  /* tracks */
  guint64 next_uuid;
  GHashTable *processes;   /* PfKey → PfProcess */
  GHashTable *threads;     /* PfKey → PfThread */
  GHashTable *counters;    /* PfKey → PfTrack */
  GHashTable *named;       /* PfKey → PfTrack */
  GHashTable *async_pools; /* PfKey → PfAsyncPool */
  GHashTable *async_slots; /* PfKey → PfAsyncSlot */
  GHashTable *tid_to_pid;  /* gint64 tid → gint64 pid, as told to readers */
  guint64 global_uuid;
  gboolean ordering_explicit; /* root descriptor written (sort indexes) */
  char *metadata;             /* the stream's, a JSON object's text */
  PfThread *last_thread;
  /* Direct-mapped caches in front of threads and tid_to_pid: most events
   * of a trace come from a few hundred threads (entries are never removed
   * from those tables, so a cached pointer stays valid). */
  PfThread *thread_cache[PF_CACHE_SIZE];
  PfAssocEntry assoc_cache[PF_CACHE_SIZE];

  /* process_tree entries waiting for the end of the batch */
  PfVec tree_processes;     /* ProcessTree.Process */
  PfVec tree_threads;       /* ProcessTree.Thread */
  GPtrArray *tree_cmdlines; /* char* cmdline[0] of the processes above */
  gint64 tree_ts;

  /* kernel events */
  GPtrArray *bundles;           /* PfBundle per cpu + 1 (0: cpu unknown) */
  GArray *cpu_sched;            /* PfCpuSched per cpu */
  GHashTable *ftrace_map_cache; /* name id → PfFtraceEventMap or &no_map */

  /* CPU-profile stacks */
  GHashTable *stack_nodes; /* guint64 id → PfStackNode */
  guint64 next_frame_iid;
  GHashTable *sample_seqs; /* PfKey (pid, tid) → PfSampleSeq */
  guint32 next_sample_seq;
  gboolean sample_clock_tied; /* MONOTONIC tied to the stream's clock */

  /* JSON streams: track events wait here for trace_processor's order */
  GArray *order_heap;
  TraceBatch *order_store; /* copies of the events that wait */
  guint64 order_seq;
  gint64 order_last_ts;
  gboolean order_released;
  /* trace_processor's sorter state, followed (perfetto-writer-order.c) */
  gboolean order_slow;
  gint64 order_max_ts;
  gint64 order_sort_min_ts;

  PerfettoWriterStats stats;
};

/* How many events wait at most for their place in a JSON stream's order. */
#define PF_ORDER_WINDOW 65536

/* perfetto-writer.c */
gboolean pf_intern_enabled (PerfettoWriter *w);
void pf_packet_begin (PerfettoWriter *w);
void pf_packet_emit (PerfettoWriter *w,
                     gint64 ts,
                     gboolean has_ts,
                     gboolean needs_state);
guint64 pf_intern_name (PerfettoWriter *w,
                        guint32 id);
guint64 pf_intern_category (PerfettoWriter *w,
                            guint32 id);
guint64 pf_intern_ann_name (PerfettoWriter *w,
                            guint32 id);
guint64 pf_intern_str_value (PerfettoWriter *w,
                             guint32 id);
guint64 pf_intern_ksym (PerfettoWriter *w,
                        guint32 id);
guint64 pf_intern_function (PerfettoWriter *w,
                            guint32 id);
guint64 pf_intern_map_path (PerfettoWriter *w,
                            guint32 id);
guint64 pf_timestamp (PerfettoWriter *w,
                      gint64 ts);
const char *pf_str (PerfettoWriter *w,
                    guint32 id);

/* perfetto-writer-events.c */
void pf_write_track_event (PerfettoWriter *w,
                           TraceBatch *batch,
                           const TraceEvent *ev);
void pf_close_open_slices (PerfettoWriter *w);

/* perfetto-writer-order.c */
GArray *pf_order_new_heap (void);
void pf_order_write (PerfettoWriter *w,
                     TraceBatch *batch,
                     const TraceEvent *ev);
void pf_order_follow (PerfettoWriter *w,
                      const TraceEvent *ev);
void pf_order_drain (PerfettoWriter *w);
void pf_order_clear (PerfettoWriter *w);

/* perfetto-writer-tracks.c */
void pf_tracks_init (PerfettoWriter *w);
void pf_tracks_free (PerfettoWriter *w);
PfProcess *pf_process_get (PerfettoWriter *w,
                           gint64 pid);
void pf_process_describe (PerfettoWriter *w,
                          PfProcess *p,
                          gint64 ts);
PfThread *pf_thread_get (PerfettoWriter *w,
                         gint64 pid,
                         gint64 tid,
                         gint64 ts);
void pf_thread_describe (PerfettoWriter *w,
                         PfThread *t,
                         gint64 ts);
PfThread *pf_thread_lookup (PerfettoWriter *w,
                            gint64 pid,
                            gint64 tid);
guint64 pf_process_track (PerfettoWriter *w,
                          gint64 pid,
                          gint64 ts);
PfTrack *pf_named_track (PerfettoWriter *w,
                         gint64 pid,
                         guint32 name,
                         gint64 ts);
guint64 pf_global_track (PerfettoWriter *w,
                         gint64 ts);
guint64 pf_lane_track (PerfettoWriter *w,
                       PfThread *t,
                       gint64 ts);
guint64 pf_thread_time_track (PerfettoWriter *w,
                              PfThread *t,
                              gint64 ts);
guint64 pf_counter_track (PerfettoWriter *w,
                          const TraceEvent *ev);
PfAsyncSlot *pf_async_slot_lookup (PerfettoWriter *w,
                                   const TraceEvent *ev);
PfAsyncSlot *pf_async_slot_open (PerfettoWriter *w,
                                 const TraceEvent *ev);
void pf_async_slot_close (PerfettoWriter *w,
                          PfAsyncSlot *slot);
guint64 pf_async_slot_uuid (PfAsyncSlot *slot);
void pf_assoc_thread (PerfettoWriter *w,
                      gint64 tid,
                      gint64 pid,
                      guint32 name,
                      gint64 ts,
                      gboolean force);
void pf_tree_add_process (PerfettoWriter *w,
                          gint64 pid,
                          guint32 name,
                          gint64 ts);
void pf_tree_flush (PerfettoWriter *w);
void pf_write_trace_metadata (PerfettoWriter *w);
void pf_ranks_prescan (PerfettoWriter *w,
                       const TraceBatch *batch);
void pf_write_metadata (PerfettoWriter *w,
                        TraceBatch *batch,
                        const TraceEvent *ev);

/* perfetto-writer-ftrace.c */
void pf_ftrace_init (PerfettoWriter *w);
void pf_ftrace_free (PerfettoWriter *w);
void pf_write_kernel_event (PerfettoWriter *w,
                            TraceBatch *batch,
                            const TraceEvent *ev);
void pf_write_processless_thread_name (PerfettoWriter *w,
                                       const TraceEvent *ev);
char *pf_clock_marker_text (PerfettoWriter *w,
                            const TraceEvent *ev);
void pf_write_clock_pair (PerfettoWriter *w,
                          const TraceEvent *ev);
void pf_write_clock_marker (PerfettoWriter *w,
                            const TraceEvent *ev);
void pf_ftrace_flush (PerfettoWriter *w);

/* perfetto-writer-samples.c */
void pf_samples_init (PerfettoWriter *w);
void pf_samples_free (PerfettoWriter *w);
void pf_samples_flush (PerfettoWriter *w);
void pf_write_stack_node (PerfettoWriter *w,
                          TraceBatch *batch,
                          const TraceEvent *ev);
void pf_write_sample (PerfettoWriter *w,
                      const TraceEvent *ev);

G_END_DECLS
