/* tracepipe - Perfetto reader internals shared by its source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "perfetto-common.h"
#include "perfetto-reader.h"

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* What a track uuid stands for. */
typedef enum
{
  PF_RTRACK_THREAD,
  PF_RTRACK_PROCESS,
  PF_RTRACK_COUNTER,
  PF_RTRACK_NAMED,  /* a child of a process, or a root track */
  PF_RTRACK_GLOBAL, /* tracepipe's track of global instants */
} PfRTrackKind;

typedef struct
{
  guint64 uuid;
  PfRTrackKind kind;
  gint64 pid; /* TRACE_ID_UNKNOWN for root tracks */
  gint64 tid;
  guint32 name;
  guint32 unit;        /* counters */
  guint64 id;          /* counters: the instance id in the name */
  guint32 async_track; /* the async.track of the slice open on it */
  guint async_depth;   /* async slices open on it */
} PfRTrack;

typedef struct
{
  guint32 function;
  guint64 mapping;
  guint64 rel_pc;
  gboolean has_line;
  guint32 line;
} PfRFrame;

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
  GHashTable *frames;     /* iid → PfRFrame */
  GHashTable *callstacks; /* iid → GArray of frame iids */
  /* its ThreadDescriptor: the thread of its StreamingProfilePackets */
  gboolean has_thread;
  gint64 pid;
  gint64 tid;
  gint64 time_us; /* where the next timestamp delta starts */
} PfSeq;

typedef struct
{
  gboolean valid;
  gint64 next_tid;
  gint32 next_prio;
  guint32 next_comm;
} PfRCpu;

typedef struct
{
  guint8 *base;
  gsize size;
  gsize used;
  GSList *extra;
  gboolean overflowed;
} PfArena;

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

  PfArena arena;
  ProtobufCAllocator allocator;

  GHashTable *sequences;    /* guint32 → PfSeq */
  GHashTable *tracks;       /* guint64 uuid → PfRTrack */
  GHashTable *proc_names;   /* gint64 pid → string id */
  GHashTable *proc_sort;    /* PfKey pid → gint64 */
  GHashTable *proc_labels;  /* "pid/label" keys seen: PfKey → TRUE */
  GHashTable *thread_names; /* PfKey (pid, tid) → string id */
  GHashTable *thread_sort;  /* PfKey (pid, tid) → gint64 */
  GHashTable *tid_to_pid;   /* gint64 tid → gint64 pid */
  GHashTable *active_flows; /* guint64 ids */
  GHashTable *stack_nodes;  /* guint64 id → guint64 parent id */
  GArray *cpus;             /* PfRCpu */
  GHashTable *ftrace_names; /* FtraceEvent field number → string id */
  GArray *comm_ids;         /* string ids of a compact intern_table */

  TraceBatch *batch;
  guint32 stream_clock;
  gboolean clock_stated;
  gint64 last_ts;

  /* interned once */
  guint32 k_step;
  guint32 k_url;
  guint32 k_line;
  guint32 k_global_track;

  JsonObject *metadata; /* Chrome bundles' metadata, NULL until some */
  PerfettoReaderStats stats;
};

/* perfetto-reader.c */
TraceEvent *pf_reader_emit (PerfettoReader *r,
                            TraceEventKind kind,
                            gint64 ts);
guint32 pf_reader_lookup_string (PerfettoReader *r,
                                 GHashTable *table,
                                 guint64 iid);
guint32 pf_reader_intern (PerfettoReader *r,
                          const char *str);
void pf_reader_set_assoc (PerfettoReader *r,
                          gint64 tid,
                          gint64 pid);
gint64 pf_reader_pid_of (PerfettoReader *r,
                         gint64 tid);
gint64 *pf_int64_dup (gint64 v);

/* perfetto-reader-events.c */
void pf_reader_track_descriptor (PerfettoReader *r,
                                 PfTrackDescriptor *desc,
                                 gint64 ts);
void pf_reader_track_event (PerfettoReader *r,
                            PfSeq *seq,
                            PfTrackEvent *te,
                            gint64 ts);
void pf_reader_chrome_events (PerfettoReader *r,
                              const Perfetto__Protos__ChromeEventBundle *bundle);
void pf_reader_process_tree (PerfettoReader *r,
                             Perfetto__Protos__ProcessTree *tree,
                             gint64 ts);
void pf_reader_thread_name (PerfettoReader *r,
                            gint64 pid,
                            gint64 tid,
                            guint32 name,
                            gint64 ts);

/* perfetto-reader-samples.c */
void pf_reader_intern_profiling (PerfettoReader *r,
                                 PfSeq *seq,
                                 const PfInternedData *d);
void pf_reader_perf_sample (PerfettoReader *r,
                            PfSeq *seq,
                            const Perfetto__Protos__PerfSample *s,
                            gint64 ts);
void pf_reader_thread_descriptor (PfSeq *seq,
                                  const Perfetto__Protos__ThreadDescriptor *td);
void pf_reader_streaming_profile (PerfettoReader *r,
                                  PfSeq *seq,
                                  const Perfetto__Protos__StreamingProfilePacket *sp);

/* perfetto-reader-ftrace.c */
void pf_reader_ftrace_bundle (PerfettoReader *r,
                              PfSeq *seq,
                              PfFtraceBundle *bundle);

G_END_DECLS
