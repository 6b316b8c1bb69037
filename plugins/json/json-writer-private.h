/* tracepipe - json plugin: the writer's internals, shared by its source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "ftrace-text.h"
#include "json-writer.h"

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Writer internals shared by its source files                        */

/* Output is gathered in memory and written in pieces of about this size. */
#define CHROME_WRITER_FLUSH_SIZE (256 * 1024)
/* Clock markers kept for "metadata" (only sync ids have an event form). */
#define CHROME_WRITER_MAX_CLOCK_MARKERS 1024
/* Stack nodes remembered for CPU samples. */
#define CHROME_WRITER_MAX_NODES (1u << 22)
/* Samples per ProfileChunk event. */
#define CHROME_WRITER_CHUNK_SAMPLES 100

typedef struct
{
  gint64 pid;
  gint64 tid;
} ChromeThreadKey;

/* A slice begin waiting for its end, to be written as X. */
typedef struct
{
  TraceEvent ev;
  guint arg_start; /* its args, in the thread's args array */
  gboolean ended;  /* written (as X, ev.u.slice.dur set), kept while
                    * slices above it are open, as trace_processor does */
} HeldSlice;

typedef struct
{
  ChromeThreadKey key;
  GArray *stack;         /* HeldSlice: the open slices not written yet */
  GArray *args;          /* TraceArg of the held slices */
  guint64 written_below; /* open slices already written as B, under the stack */
  guint n_ended;         /* slices of the stack ended under open ones */
} WriterThread;

typedef struct _ChromeGraphics ChromeGraphics;

struct _ChromeWriter
{
  GOutputStream *out;
  ChromeWriterOptions opts;
  gboolean flows_auto; /* opts.flows was auto: flow v2 slices stay v2 */
  char *display_time_unit;
  JsonObject *metadata;
  GString *buf;
  guint64 bytes_written;
  gboolean started;
  gboolean suffix_written;
  gboolean failed;
  TraceStringPool *pool;
  guint32 str_flow, str_step, str_name, str_clock_sync; /* interned once */
  struct
  {
    guint32 k_irq_entry, k_irq_exit, k_softirq_entry, k_softirq_exit, k_vec, category;
    guint32 k_atrace[CHROME_KERNEL_ATRACE_FORMS]; /* vendor atrace trace points */
    guint32 k_gpu_frequency, k_wake_activate, k_wake_deactivate, k_wakesource;
    guint32 k_suspend_resume, k_action, k_suspend;
    guint32 k_funcgraph_entry, k_funcgraph_exit, k_func;
    guint suspend_state;   /* 0, in suspend_enter (1), in freeze_processes (2) */
    guint32 suspend_enter; /* the open suspend_enter slice's name */
    TraceEvent pending;    /* a second event to write, or kind NONE */
  } irq;                   /* interned at the first kernel event (of a Perfetto stream) */

  GHashTable *threads; /* ChromeThreadKey* → WriterThread* */
  WriterThread *last_thread;
  guint64 n_held;
  GArray *merged_args;
  /* the text of the batch being written: its text args' bytes (the args
   * a begin keeps until its end are interned, so every arg written
   * reads its text from here) */
  const char *batch_text;

  ChromeSpill *kernel;
  FtraceTextWriter *text; /* formats the lines, knows the comms */
  GString *line;
  GString *payload; /* a vendor trace point's atrace payload */

  GArray *clock_markers;         /* TraceEvent */
  GHashTable *open_legacy_async; /* ChromeLegacyAsyncKey* of atrace S| families open */
  GHashTable *wakelocks;         /* wakeup source name → activations held */
  GHashTable *ended_flows;       /* guint64 v1 flow id → flows of it ended */
  GArray *more_flows;            /* the flows of the slice being written past its first pair
                                  * (json-writer-flows.c), or NULL */
  TraceBatch *flow_scratch;      /* that slice without them in its args, or NULL */
  GHashTable *open_async;        /* ChromeLegacyAsyncKey* (no name) → GArray of the
                                  * (name, category) of its open begins */

  GHashTable *processes; /* pid → what the kernel said of it (json-writer-process-names.c) */

  GHashTable *nodes;    /* stack node id → WriterNode */
  GHashTable *sessions; /* ChromeThreadKey* → WriterSession */
  guint n_sessions;
  guint32 next_node_id;
  ChromeGraphics *graphics; /* GPU counters, frames: json-writer-graphics.c */

  ChromeWriterStats stats;
};

/* json-writer.c */
const char *chrome_writer_str (ChromeWriter *w, guint32 id, gsize *len);
void chrome_writer_metadata (ChromeWriter *w, const TraceEvent *ev);

/* json-writer-process-names.c */
void chrome_writer_process_name_from_kernel (ChromeWriter *w, const TraceEvent *ev);
gboolean chrome_writer_process_name_outranked (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_put_string (ChromeWriter *w, guint32 id);
void chrome_writer_event_open (ChromeWriter *w, const char *ph, guint32 name, guint32 category, gint64 ts, gint64 pid, gint64 tid);
void chrome_writer_event_open_text (ChromeWriter *w, const char *ph, const char *name, gsize name_len, guint32 category, gint64 ts, gint64 pid, gint64 tid);
void chrome_writer_count_drop (ChromeWriter *w, guint64 *counter, const char *what);
void chrome_writer_counter_text (ChromeWriter *w, const char *name, gsize name_len, guint32 category, const char *key, gsize key_len, gint64 ts, gint64 pid, gint64 tid, double v, gboolean as_int);

/* json-writer-flows.c */
gboolean chrome_writer_slice_flows_v2 (const ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_put_id_member (ChromeWriter *w, const char *key, guint64 id);
void chrome_writer_put_slice_flows_v1 (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_put_slice_flows_v2 (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_put_async_flow (ChromeWriter *w, const char *ph);
void chrome_writer_drop_more_flows (ChromeWriter *w);
const TraceEvent *chrome_writer_take_more_flows (ChromeWriter *w, TraceBatch **batch, const TraceEvent *ev);

/* json-writer-metadata.c */
void chrome_writer_clock_marker (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_put_metadata (ChromeWriter *w);

/* json-writer-args.c */
void chrome_writer_put_args (ChromeWriter *w, const TraceArg *args, guint n_args);
void chrome_writer_put_arg_value (ChromeWriter *w, const TraceArg *arg);

/* json-writer-kernel.c */
gboolean chrome_writer_kernel_event (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev, GError **error);
gboolean chrome_writer_kernel_counter (ChromeWriter *w, const TraceEvent *ev, gboolean *written, GError **error);
gboolean chrome_writer_kernel_as_event (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev, TraceEvent *slice);
void chrome_writer_note_thread_name (ChromeWriter *w, gint64 tid, guint32 name);
gboolean chrome_writer_kernel_suffix (ChromeWriter *w, GError **error);
void chrome_writer_kernel_free (ChromeWriter *w);

/* json-writer-frame-class.c: an actual frame's class, Perfetto's enum numbers */
typedef struct
{
  gboolean has_present, on_time, gpu, has_prediction;
  gint32 present, jank, prediction;
} ChromeFrameClass;
void chrome_writer_frame_class_args (GString *out, const ChromeFrameClass *c);
/* json-writer-graphics.c */
gboolean chrome_writer_graphics_record (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev);
void chrome_writer_graphics_finish (ChromeWriter *w);
void chrome_writer_graphics_free (ChromeWriter *w);
/* json-writer-profile.c */
void chrome_writer_stack_node (ChromeWriter *w, TraceBatch *batch, const TraceEvent *ev);
void chrome_writer_sample (ChromeWriter *w, const TraceEvent *ev);
void chrome_writer_profiles_finish (ChromeWriter *w);
void chrome_writer_profiles_free (ChromeWriter *w);

G_END_DECLS
