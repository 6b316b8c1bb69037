/* tracepipe - json plugin: writer internals shared by its source files
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "ftrace-text.h"
#include "jsonfmt.h"
#include "jsonspill.h"
#include "jsonwriter.h"

G_BEGIN_DECLS

/* Output is gathered in memory and written in pieces of about this size. */
#define JSON_WRITER_FLUSH_SIZE (256 * 1024)
#define JSON_WRITER_DEFAULT_MAX_OPEN 65536
#define JSON_WRITER_DEFAULT_KERNEL_MEMORY (8 * 1024 * 1024)
/* Clock markers kept for "metadata" (only sync ids have an event form). */
#define JSON_WRITER_MAX_CLOCK_MARKERS 1024
/* Stack nodes remembered for CPU samples. */
#define JSON_WRITER_MAX_NODES (1u << 22)
/* Samples per ProfileChunk event. */
#define JSON_WRITER_CHUNK_SAMPLES 100

typedef struct
{
  gint64 pid;
  gint64 tid;
} JsonThreadKey;

/* A slice begin waiting for its end, to be written as X. */
typedef struct
{
  TraceEvent ev;
  guint arg_start; /* its args, in the thread's args array */
} HeldSlice;

typedef struct
{
  JsonThreadKey key;
  GArray *stack;         /* HeldSlice: the open slices not written yet */
  GArray *args;          /* TraceArg of the held slices */
  guint64 written_below; /* open slices already written as B, under the stack */
} WriterThread;

struct _JsonTraceWriter
{
  GOutputStream *out;
  JsonTraceWriterOptions opts;
  char *display_time_unit;
  JsonObject *metadata;
  GString *buf;
  guint64 bytes_written;
  gboolean started;
  gboolean suffix_written;
  gboolean failed;
  TraceStringPool *pool;
  guint32 str_flow, str_step, str_name, str_clock_sync; /* interned once */

  GHashTable *threads; /* JsonThreadKey* → WriterThread* */
  WriterThread *last_thread;
  guint64 n_held;
  GArray *merged_args;

  JsonSpill *kernel;
  FtraceTextWriter *text; /* formats the lines, knows the comms */
  GString *line;

  GArray *clock_markers; /* TraceEvent */

  GHashTable *nodes;    /* stack node id → WriterNode */
  GHashTable *sessions; /* JsonThreadKey* → WriterSession */
  guint n_sessions;
  guint32 next_node_id;

  JsonTraceWriterStats stats;
};

/* jsonwriter.c */
const char *json_writer_str (JsonTraceWriter *w, guint32 id, gsize *len);
void json_writer_put_string (JsonTraceWriter *w, guint32 id);
void json_writer_event_open (JsonTraceWriter *w, const char *ph, guint32 name, guint32 category, gint64 ts, gint64 pid, gint64 tid);
void json_writer_event_open_text (JsonTraceWriter *w, const char *ph, const char *name, gsize name_len, guint32 category, gint64 ts, gint64 pid, gint64 tid);
gboolean json_writer_flush (JsonTraceWriter *w, GError **error);

/* jsonwriter-args.c */
void json_writer_put_args (JsonTraceWriter *w, const TraceArg *args, guint n_args);
void json_writer_put_arg_value (JsonTraceWriter *w, const TraceArg *arg);

/* jsonwriter-kernel.c */
gboolean json_writer_kernel_event (JsonTraceWriter *w, TraceBatch *batch, const TraceEvent *ev, GError **error);
gboolean json_writer_kernel_counter (JsonTraceWriter *w, const TraceEvent *ev, gboolean *written, GError **error);
void json_writer_note_thread_name (JsonTraceWriter *w, gint64 tid, guint32 name);
gboolean json_writer_kernel_suffix (JsonTraceWriter *w, GError **error);
void json_writer_kernel_free (JsonTraceWriter *w);

/* jsonwriter-profile.c */
void json_writer_stack_node (JsonTraceWriter *w, TraceBatch *batch, const TraceEvent *ev);
void json_writer_sample (JsonTraceWriter *w, const TraceEvent *ev);
void json_writer_profiles_finish (JsonTraceWriter *w);
void json_writer_profiles_free (JsonTraceWriter *w);

G_END_DECLS
