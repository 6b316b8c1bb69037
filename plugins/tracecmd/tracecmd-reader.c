/* tracepipe - tracecmd: trace.dat through libtracecmd, records in time order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libtracecmd opens the file (v6, v7 and v7's compression, which it
 * undoes chunk by chunk: memory does not grow with the file) and reads
 * each buffer's records cpu by cpu. The reader keeps the next record of
 * every cpu of every buffer it reads and gives the earliest to the kernel
 * record engine, so the events come in time order across cpus and
 * buffers, a batch of at most TRACECMD_BATCH_EVENTS records at a time.
 *
 * libtracecmd reads by seeking in the file: it needs a path (standard
 * input and pipes are refused at open, by the element).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <trace-cmd.h>
#include <unistd.h>

#include "tracecmd-private.h"

/* Exported by libtracecmd.so but declared in trace-cmd's private header
 * only: the clock the buffer was recorded with (v6: the saved
 * trace_clock file, `[local] global ...`; v7: the buffer's clock name),
 * the saved per-cpu statistics text (`overrun: 3`), the handle's cpus.
 * meson checks each is there. */
#ifdef HAVE_TRACECMD_GET_TRACE_CLOCK
const char *tracecmd_get_trace_clock (struct tracecmd_input *handle);
#endif
#ifdef HAVE_TRACECMD_GET_CPUSTATS
const char *tracecmd_get_cpustats (struct tracecmd_input *handle);
#endif
#ifdef HAVE_TRACECMD_CPUS
int tracecmd_cpus (struct tracecmd_input *handle);
#endif
#ifdef HAVE_TRACECMD_GET_CPU_FILE_SIZE
long long tracecmd_get_cpu_file_size (struct tracecmd_input *handle, /* off64_t */
                                      int cpu);
#endif
#ifdef HAVE_TRACECMD_READ_CPU_LAST
struct tep_record *tracecmd_read_cpu_last (struct tracecmd_input *handle,
                                           int cpu);
#endif

#define TRACECMD_BATCH_EVENTS 8192

/* One buffer (the top-level one or an instance's) being read. */
typedef struct
{
  struct tracecmd_input *handle;
  gboolean owned; /* an instance's handle, closed with the reader */
  char *name;     /* "" for the top-level buffer */
  KernelEngine *engine;
  gint n_cpus;
  struct tep_record **next; /* per cpu: the next record, NULL at its end */
  guint64 *last_offset;     /* per cpu: where its last record is (G_MAXUINT64: not known) */
  guint64 *offset;          /* per cpu: where the record read last was */
} TracecmdBuffer;

struct _TracecmdReader
{
  char *location; /* for messages */
  struct tracecmd_input *top;
  GPtrArray *buffers;
  TraceStringPool *pool;
  FtraceParser *parser;
  char *clock_name;
  TraceClockDomain clock;
  guint64 file_size;
  TracecmdReaderStats stats;
  gboolean done;
};

static void
buffer_free (TracecmdBuffer *b)
{
  for (gint cpu = 0; cpu < b->n_cpus; cpu++)
    if (b->next[cpu])
      tracecmd_free_record (b->next[cpu]);
  g_free (b->next);
  g_free (b->last_offset);
  g_free (b->offset);
  kernel_engine_free (b->engine);
  if (b->owned)
    tracecmd_close (b->handle);
  g_free (b->name);
  g_free (b);
}

static gint
handle_cpus (struct tracecmd_input *handle)
{
#ifdef HAVE_TRACECMD_CPUS
  return tracecmd_cpus (handle);
#else
  return tep_get_cpus (tracecmd_get_tep (handle));
#endif
}

/* The ring buffers' overruns and drops the file saved per cpu. */
static guint64
saved_losses (struct tracecmd_input *handle)
{
  guint64 lost = 0;
#ifdef HAVE_TRACECMD_GET_CPUSTATS
  const char *text = tracecmd_get_cpustats (handle);
  g_auto (GStrv) lines = text ? g_strsplit (text, "\n", -1) : NULL;

  for (guint i = 0; lines && lines[i]; i++)
    if (g_str_has_prefix (lines[i], "overrun: ") || g_str_has_prefix (lines[i], "dropped events: "))
      lost += g_ascii_strtoull (strchr (lines[i], ':') + 1, NULL, 10);
#endif
  return lost;
}

static gboolean
cpu_has_data (struct tracecmd_input *handle,
              gint cpu)
{
#ifdef HAVE_TRACECMD_GET_CPU_FILE_SIZE
  return tracecmd_get_cpu_file_size (handle, cpu) > 0;
#else
  return TRUE;
#endif
}

/* Where a cpu's last record is, to tell its end from a cut: a cpu whose
 * records stop before it is damaged or cut (libtracecmd ends such a cpu
 * as if it had no more records). 0: no records; 1: records whose last
 * page cannot be read; G_MAXUINT64: not known (libtracecmd without
 * tracecmd_read_cpu_last()). */
static guint64
last_offset (struct tracecmd_input *handle,
             gint cpu)
{
#ifdef HAVE_TRACECMD_READ_CPU_LAST
  struct tep_record *last;
  guint64 offset;

  /* libtracecmd reads freed memory for a cpu without data (a v7 file's
   * top-level buffer when only instances were recorded) */
  if (!cpu_has_data (handle, cpu))
    return 0;
  last = tracecmd_read_cpu_last (handle, cpu);
  if (last == NULL)
    return 1;
  offset = last->offset;
  tracecmd_free_record (last);
  return offset;
#else
  return G_MAXUINT64;
#endif
}

static TracecmdBuffer *
buffer_new (TracecmdReader *r,
            struct tracecmd_input *handle,
            gboolean owned,
            const char *name)
{
  TracecmdBuffer *b = g_new0 (TracecmdBuffer, 1);

  b->handle = handle;
  b->owned = owned;
  b->name = g_strdup (name);
  b->engine = kernel_engine_new (tracecmd_get_tep (handle), r->parser);
  b->n_cpus = MAX (handle_cpus (handle), 0);
  b->next = g_new0 (struct tep_record *, MAX (b->n_cpus, 1));
  b->last_offset = g_new0 (guint64, MAX (b->n_cpus, 1));
  b->offset = g_new0 (guint64, MAX (b->n_cpus, 1));
  for (gint cpu = 0; cpu < b->n_cpus; cpu++)
    {
      if (!cpu_has_data (handle, cpu))
        continue;
      b->last_offset[cpu] = last_offset (handle, cpu);
      /* reading the last record moved the cpu's cursor: back to its first */
      b->next[cpu] = tracecmd_read_cpu_first (handle, cpu);
    }
  r->stats.lost_events += saved_losses (handle);
  return b;
}

/* The clock's name in libtracecmd's text: the bracketed one of a saved
 * trace_clock file, else the text itself. */
static char *
clock_name_of (struct tracecmd_input *handle)
{
#ifdef HAVE_TRACECMD_GET_TRACE_CLOCK
  const char *text = tracecmd_get_trace_clock (handle);
  const char *open = text ? strchr (text, '[') : NULL;
  const char *close = open ? strchr (open, ']') : NULL;

  if (open && close)
    return g_strndup (open + 1, close - open - 1);
  if (text && *text)
    return g_strstrip (g_strdup (text));
#endif
  return NULL;
}

static gboolean
buffer_has_data (struct tracecmd_input *handle)
{
  for (gint cpu = 0; cpu < handle_cpus (handle); cpu++)
    if (cpu_has_data (handle, cpu))
      return TRUE;
  return FALSE;
}

/* Whether libtracecmd can open every instance's buffer. Its
 * tracecmd_buffer_instance_handle() crashes when it cannot (libtracecmd
 * 1.3: its error path closes a shallow copy of the file's handle, as
 * with a v6 file cut after its headers), so a child process tries first
 * and the reader opens them only when the child could. */
/* the probe's exit status when libtracecmd refused an instance */
#define PROBE_CANNOT 42

static gboolean
instances_open_safely (struct tracecmd_input *top)
{
  gint n = tracecmd_buffer_instances (top);
  pid_t child;
  int status = 0;

  if (n <= 0)
    return TRUE;
  child = fork ();
  if (child == 0)
    {
      /* each closed again: a memory checker following the child finds
       * nothing lost */
      for (gint i = 0; i < n; i++)
        {
          struct tracecmd_input *handle = tracecmd_buffer_instance_handle (top, i);

          if (handle == NULL)
            _exit (PROBE_CANNOT);
          tracecmd_close (handle);
        }
      _exit (0);
    }
  if (child < 0)
    return TRUE; /* no probe: as if it could */
  while (waitpid (child, &status, 0) < 0 && errno == EINTR)
    ;
  /* a crash, or the library's refusal; another status is the child's
   * own end (a memory checker's error code) */
  return WIFEXITED (status) && WEXITSTATUS (status) != PROBE_CANNOT;
}

/* The buffers @which names: NULL or "all": the top-level buffer (when it
 * holds cpus) and every instance's; "top": the top-level one; else the
 * instance of that name. */
static gboolean
add_buffers (TracecmdReader *r,
             const char *which,
             GError **error)
{
  gboolean all = which == NULL || *which == '\0' || g_strcmp0 (which, "all") == 0;
  gint n = tracecmd_buffer_instances (r->top);
  g_autoptr (GString) names = NULL;

  if (!instances_open_safely (r->top))
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "%s: cut or damaged: libtracecmd cannot read the buffers of its instances", r->location);
      return FALSE;
    }
  names = g_string_new ("top");
  if (all || g_strcmp0 (which, "top") == 0)
    if (!all || buffer_has_data (r->top))
      g_ptr_array_add (r->buffers, buffer_new (r, r->top, FALSE, ""));
  for (gint i = 0; i < n; i++)
    {
      const char *name = tracecmd_buffer_instance_name (r->top, i);
      struct tracecmd_input *handle;

      g_string_append_printf (names, ", %s", name ? name : "?");
      if (!all && g_strcmp0 (name, which) != 0)
        continue;
      handle = tracecmd_buffer_instance_handle (r->top, i);
      if (handle == NULL)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s: the buffer of instance \"%s\" cannot be read",
                       r->location, name ? name : "?");
          return FALSE;
        }
      g_ptr_array_add (r->buffers, buffer_new (r, handle, TRUE, name));
    }
  if (r->buffers->len == 0 && !all)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, "%s: no buffer \"%s\" (the file has: %s)", r->location,
                   which, names->str);
      return FALSE;
    }
  return TRUE;
}

static gboolean check_cpu_end (TracecmdReader *r,
                               TracecmdBuffer *b,
                               gint cpu,
                               GError **error);

/* A cpu whose records cannot be read from the first. */
static gboolean
check_first_records (TracecmdReader *r,
                     GError **error)
{
  for (guint i = 0; i < r->buffers->len; i++)
    {
      TracecmdBuffer *b = r->buffers->pdata[i];

      for (gint cpu = 0; cpu < b->n_cpus; cpu++)
        if (b->next[cpu] == NULL && !check_cpu_end (r, b, cpu, error))
          return FALSE;
    }
  return TRUE;
}

static void
set_clock (TracecmdReader *r)
{
  struct tracecmd_input *first = r->buffers->len ? ((TracecmdBuffer *) r->buffers->pdata[0])->handle : r->top;

  r->clock_name = clock_name_of (first);
  /* ftrace's own default, as the kernel's text of the buffer is read */
  r->clock = r->clock_name ? ftrace_clock_from_name (r->clock_name, strlen (r->clock_name)) : TRACE_CLOCK_UNKNOWN;
  if (r->clock == TRACE_CLOCK_UNKNOWN)
    r->clock = TRACE_CLOCK_BOOTTIME;
}

/**
 * tracecmd_reader_new:
 * @path: a trace.dat file (seekable: libtracecmd reads it by offset)
 * @display_name: the file as the user named it, for messages
 * @buffer: (nullable): which buffers: "all" (%NULL), "top", an instance
 * @pool: the string pool of the batches
 * @error: where a file libtracecmd cannot open is said
 *
 * Returns: (transfer full) (nullable): a reader, %NULL on error
 */
TracecmdReader *
tracecmd_reader_new (const char *path,
                     const char *display_name,
                     const char *buffer,
                     TraceStringPool *pool,
                     GError **error)
{
  g_autoptr (TracecmdReader) r = g_new0 (TracecmdReader, 1);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);

  r->location = g_strdup (display_name);
  r->pool = trace_string_pool_ref (pool);
  r->parser = ftrace_parser_new (pool);
  r->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify) buffer_free);
  r->file_size = info ? g_file_info_get_size (info) : 0;
  /* its own messages would duplicate ours on stderr */
  tracecmd_set_loglevel (TEP_LOG_NONE);
  errno = 0;
  r->top = tracecmd_open (path, TRACECMD_FL_LOAD_NO_PLUGINS);
  if (r->top == NULL)
    {
      int saved = errno;
      g_autofree char *what = tracecmd_describe_header (path);

      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "%s: libtracecmd cannot read this file (%s%s%s): it is cut or damaged, or compressed with an "
                   "algorithm this libtracecmd lacks (`trace-cmd list -c` lists its own)",
                   display_name, what, saved ? ": " : "", saved ? g_strerror (saved) : "");
      return NULL;
    }
  if (!add_buffers (r, buffer, error) || !check_first_records (r, error))
    return NULL;
  set_clock (r);
  return g_steal_pointer (&r);
}

void
tracecmd_reader_free (TracecmdReader *r)
{
  if (r->buffers)
    g_ptr_array_unref (r->buffers);
  if (r->top)
    tracecmd_close (r->top);
  g_clear_pointer (&r->parser, ftrace_parser_free);
  g_clear_pointer (&r->pool, trace_string_pool_unref);
  g_free (r->clock_name);
  g_free (r->location);
  g_free (r);
}

/* The buffer and cpu of the earliest next record; FALSE at the end. */
static gboolean
earliest (TracecmdReader *r,
          TracecmdBuffer **out,
          gint *out_cpu)
{
  unsigned long long best = G_MAXUINT64;
  gboolean found = FALSE;

  for (guint i = 0; i < r->buffers->len; i++)
    {
      TracecmdBuffer *b = r->buffers->pdata[i];

      for (gint cpu = 0; cpu < b->n_cpus; cpu++)
        if (b->next[cpu] && (!found || b->next[cpu]->ts < best))
          {
            best = b->next[cpu]->ts;
            *out = b;
            *out_cpu = cpu;
            found = TRUE;
          }
    }
  return found;
}

/* A cpu whose records ended: at its last record, or else cut. */
static gboolean
check_cpu_end (TracecmdReader *r,
               TracecmdBuffer *b,
               gint cpu,
               GError **error)
{
  if (b->last_offset[cpu] == G_MAXUINT64 || b->offset[cpu] >= b->last_offset[cpu])
    return TRUE;
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
               "%s: cut or damaged: the records of cpu %d%s%s%s end at byte %" G_GUINT64_FORMAT
               ", before its last record (byte %" G_GUINT64_FORMAT ")",
               r->location, cpu, *b->name ? " of buffer \"" : "", b->name, *b->name ? "\"" : "", b->offset[cpu],
               b->last_offset[cpu]);
  return FALSE;
}

/**
 * tracecmd_reader_read_batch:
 * @r: a reader
 * @out: (out) (transfer full) (nullable): the next batch, %NULL at the end
 * @error: where a cpu whose records stop before its last one is said
 *
 * Returns: %FALSE when the file is cut or damaged
 */
gboolean
tracecmd_reader_read_batch (TracecmdReader *r,
                            TraceBatch **out,
                            GError **error)
{
  TraceBatch *batch;

  *out = NULL;
  if (r->done)
    return TRUE;
  batch = trace_batch_new (r->pool, TRACECMD_BATCH_EVENTS);
  for (guint n = 0; n < TRACECMD_BATCH_EVENTS; n++)
    {
      TracecmdBuffer *b;
      gint cpu;
      struct tep_record *rec;

      if (!earliest (r, &b, &cpu))
        {
          ftrace_parser_finish (r->parser, batch);
          r->stats.bytes_read = r->file_size;
          r->done = TRUE;
          break;
        }
      rec = b->next[cpu];
      if (rec->missed_events > 0)
        r->stats.lost_events += rec->missed_events;
      r->stats.records++;
      b->offset[cpu] = rec->offset;
      kernel_engine_add_record (b->engine, rec, cpu, batch);
      tracecmd_free_record (rec);
      b->next[cpu] = tracecmd_read_data (b->handle, cpu);
      if (b->next[cpu] == NULL && !check_cpu_end (r, b, cpu, error))
        {
          trace_batch_unref (batch);
          return FALSE;
        }
    }
  *out = batch;
  return TRUE;
}

TraceClockDomain
tracecmd_reader_get_clock_domain (TracecmdReader *r)
{
  return r->clock;
}

const char *
tracecmd_reader_get_clock_name (TracecmdReader *r)
{
  return r->clock_name;
}

void
tracecmd_reader_copy_stats (TracecmdReader *r,
                            TracecmdReaderStats *out)
{
  *out = r->stats;
  out->skipped_unknown_events = out->incomplete_events = out->skipped_fields = out->cut_strings = 0;
  for (guint i = 0; i < r->buffers->len; i++)
    {
      const KernelEngineStats *s = kernel_engine_get_stats (((TracecmdBuffer *) r->buffers->pdata[i])->engine);

      out->skipped_unknown_events += s->unknown_events;
      out->incomplete_events += s->incomplete_events;
      out->skipped_fields += s->unread_fields;
      out->cut_strings += s->cut_strings;
    }
  out->ftrace = *ftrace_parser_get_stats (r->parser);
}

/**
 * tracecmd_reader_get_summary:
 * @r: a reader
 *
 * Returns: (nullable): what could not be used, naming the file; %NULL
 *   when all was used
 */
char *
tracecmd_reader_get_summary (TracecmdReader *r)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autofree char *ftrace = ftrace_stats_to_summary (ftrace_parser_get_stats (r->parser));
  TracecmdReaderStats st;
  KernelEngineStats ke;
  g_autofree char *kernel = NULL;

  tracecmd_reader_copy_stats (r, &st);
  ke = (KernelEngineStats){ st.records, st.skipped_unknown_events, st.incomplete_events, st.skipped_fields,
                            st.cut_strings };
  kernel = kernel_engine_stats_to_summary (&ke);
  if (st.lost_events)
    g_string_append_printf (s, "the ring buffers lost %" G_GUINT64_FORMAT " events before they were saved",
                            st.lost_events);
  if (kernel)
    g_string_append_printf (s, "%s%s", s->len ? "; " : "", kernel);
  if (ftrace)
    g_string_append_printf (s, "%sthe records (numbered in time order from 1): %s", s->len ? "; " : "", ftrace);
  return s->len ? g_strdup_printf ("%s: %s", r->location, s->str) : NULL;
}
