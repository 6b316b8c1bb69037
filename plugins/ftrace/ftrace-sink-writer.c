/* tracepipe - ftrace-sink: events written as ftrace/atrace text
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layout of `cat /sys/kernel/tracing/trace` with atrace markers,
 * which trace_processor's systrace importer and ftrace-src read. Kernel
 * records (scheduling, task, cpu, irq and every other kernel event) are
 * written by the ftrace text engine as their lines; the rest become the
 * atrace payloads of `tracing_mark_write` lines:
 *
 *   slice begin / end          B|pid|name  E|pid
 *   complete slice             B|pid|name at ts, E|pid at ts + dur
 *   instant of a thread        I|pid|name
 *   instant on a named track   N|pid|track|name
 *   async begin / end          S|pid|name|cookie  F|pid|name|cookie
 *   async on a named track     G|pid|track|name|cookie  H|pid|track|cookie
 *   counter                    C|pid|name|value[|category]
 *   clock marker               trace_event_clock_sync: parent_ts= / realtime_ts= / name=
 *
 * Thread names become the task column of the thread's lines (the engine
 * remembers them). Args are not written (counted). Everything else is
 * counted by reason (#FtraceSinkDrop) and reported by the element. Lines go out in time
 * order through an FtraceLineSorter.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "ftrace-line-sorter.h"
#include "ftrace-sink-writer.h"
#include "ftrace-text.h"

#define FLUSH_SIZE (64 * 1024)

/* Threads whose last line time is remembered (more than a kernel's
 * pid_max): past it a late thread name only names later lines. */
#define MAX_THREADS (1u << 22)

struct _FtraceSinkWriter
{
  GOutputStream *out;
  FtraceLineSorter *sorter;
  FtraceTextWriter *text; /* made with the first batch's pool */
  TraceStringPool *pool;
  GString *buf;            /* sorted lines waiting for the stream */
  GString *line;           /* the line being made */
  GString *payload;        /* its atrace payload */
  GHashTable *last_line;   /* tid -> time of its last line */
  gint64 first_ts;         /* of the lines, G_MAXINT64 before any */
  GHashTable *fresh_names; /* tid -> its first name noted since its last line */
  gboolean chrome_json;
  GHashTable *tid_pids;   /* Chrome JSON: tid -> the process that used it first */
  GHashTable *moved;      /* Chrome JSON: pid << 32 | tid -> the tid written */
  gint64 next_moved_tid;  /* counts down from G_MAXINT32 */
  GHashTable *open_async; /* "pid/id/track" of an open async slice -> OpenAsync */
  guint64 bytes_written;
  FtraceSinkStats stats;
};

static const char header[] = "# tracer: nop\n"
                             "#\n"
                             "#                                      _-----=> irqs-off\n"
                             "#                                     / _----=> need-resched\n"
                             "#                                    | / _---=> hardirq/softirq\n"
                             "#                                    || / _--=> preempt-depth\n"
                             "#                                    ||| /     delay\n"
                             "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
                             "#              | |        |      |   ||||       |         |\n";

/**
 * ftrace_sink_writer_new:
 * @out: the stream the text goes to (not closed)
 * @sort_memory: how much memory lines waiting for their turn may take
 * @chrome_json: the events are a Chrome JSON trace's, whose threads are
 *   (pid, tid) pairs and whose unnestable async events trace_processor
 *   ignores
 */
FtraceSinkWriter *
ftrace_sink_writer_new (GOutputStream *out,
                        gsize sort_memory,
                        gboolean chrome_json)
{
  FtraceSinkWriter *w = g_new0 (FtraceSinkWriter, 1);

  w->chrome_json = chrome_json;
  w->first_ts = G_MAXINT64;
  w->tid_pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->moved = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->next_moved_tid = G_MAXINT32;
  w->open_async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  w->out = g_object_ref (out);
  w->sorter = ftrace_line_sorter_new (sort_memory);
  w->buf = g_string_sized_new (FLUSH_SIZE * 2);
  w->line = g_string_sized_new (256);
  w->payload = g_string_sized_new (128);
  w->last_line = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  w->fresh_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_string_append_len (w->buf, header, sizeof header - 1);
  return w;
}

void
ftrace_sink_writer_free (FtraceSinkWriter *w)
{
  if (w == NULL)
    return;
  g_object_unref (w->out);
  ftrace_line_sorter_free (w->sorter);
  g_clear_pointer (&w->text, ftrace_text_writer_free);
  g_clear_pointer (&w->pool, trace_string_pool_unref);
  g_string_free (w->buf, TRUE);
  g_string_free (w->line, TRUE);
  g_string_free (w->payload, TRUE);
  g_hash_table_unref (w->last_line);
  g_hash_table_unref (w->fresh_names);
  g_hash_table_unref (w->tid_pids);
  g_hash_table_unref (w->moved);
  g_hash_table_unref (w->open_async);
  g_free (w);
}

static gboolean
flush (FtraceSinkWriter *w,
       GError **error)
{
  g_autoptr (GError) io_error = NULL;
  gsize written = 0;

  if (!g_output_stream_write_all (w->out, w->buf->str, w->buf->len, &written, NULL, &io_error))
    {
      gint code = g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_NO_SPACE)
                      ? TRACE_RESOURCE_ERROR_NO_SPACE_LEFT
                      : TRACE_RESOURCE_ERROR_WRITE;

      g_set_error (error, TRACE_RESOURCE_ERROR, code, "cannot write the ftrace text: %s", io_error->message);
      return FALSE;
    }
  w->bytes_written += written;
  g_string_truncate (w->buf, 0);
  return TRUE;
}

/* The line made in w->line, of thread @tid at @ts, to the sorter;
 * @first: before the other lines of its time (see the sorter). */
static void
emit_line_at (FtraceSinkWriter *w,
              gint64 tid,
              gint64 ts,
              gboolean first)
{
  gint64 *last = g_hash_table_lookup (w->last_line, &tid);

  ftrace_line_sorter_push (w->sorter, ts, first, w->line->str, w->line->len, w->buf);
  w->stats.lines++;
  w->first_ts = MIN (w->first_ts, ts);
  /* this line showed the thread's name */
  if (g_hash_table_size (w->fresh_names) > 0)
    g_hash_table_remove (w->fresh_names, &tid);
  if (last != NULL)
    *last = MAX (*last, ts);
  else if (g_hash_table_size (w->last_line) < MAX_THREADS)
    g_hash_table_insert (w->last_line, g_memdup2 (&tid, sizeof tid), g_memdup2 (&ts, sizeof ts));
}

static void
emit_line (FtraceSinkWriter *w,
           gint64 tid,
           gint64 ts)
{
  emit_line_at (w, tid, ts, FALSE);
}

static const char *
str (FtraceSinkWriter *w,
     guint32 id)
{
  return id ? trace_string_pool_get (w->pool, id) : "";
}

static gboolean
has_bar (FtraceSinkWriter *w,
         guint32 id)
{
  return id != 0 && memchr (str (w, id), '|', trace_string_pool_get_length (w->pool, id)) != NULL;
}

/* ------------------------------------------------------------ threads */

/* ftrace's task column and atrace's pid field are unsigned 32-bit ids. */
static gboolean
is_task_id (gint64 id)
{
  return id >= 0 && id <= G_MAXUINT32;
}

/* The tid a Chrome JSON thread is written with. A Chrome trace's thread
 * is a (pid, tid) pair, and processes reuse tids (macOS and Windows
 * number threads per process): ftrace's tid is the thread, so a tid seen
 * in a second process is written as a tid of its own, counting down from
 * G_MAXINT32, where no Linux tid is (pid_max is at most 2^22). */
static gint64
chrome_thread_tid (FtraceSinkWriter *w,
                   gint64 pid,
                   gint64 tid)
{
  gint64 *first_pid, *moved;
  gint64 key = (gint64) ((guint64) pid << 32 | (guint64) tid);

  if (!w->chrome_json || !is_task_id (pid) || !is_task_id (tid))
    return tid;
  first_pid = g_hash_table_lookup (w->tid_pids, &tid);
  if (first_pid == NULL)
    {
      if (g_hash_table_size (w->tid_pids) < MAX_THREADS)
        g_hash_table_insert (w->tid_pids, g_memdup2 (&tid, sizeof tid), g_memdup2 (&pid, sizeof pid));
      return tid;
    }
  if (*first_pid == pid)
    return tid;
  moved = g_hash_table_lookup (w->moved, &key);
  if (moved != NULL)
    return *moved;
  if (g_hash_table_size (w->moved) >= MAX_THREADS)
    return tid;
  g_hash_table_insert (w->moved, g_memdup2 (&key, sizeof key), g_memdup2 (&w->next_moved_tid, sizeof (gint64)));
  /* the process of the tid written, for its rename line */
  g_hash_table_insert (w->tid_pids, g_memdup2 (&w->next_moved_tid, sizeof (gint64)), g_memdup2 (&pid, sizeof pid));
  w->stats.threads_moved++;
  return w->next_moved_tid--;
}

/* @ev with the thread, process and cpu a line needs: the process is the
 * thread's own when the event has none (a Chrome trace's thread of an
 * unknown process), the cpu 0 when it has none (only kernel records know
 * theirs). FALSE: no thread id ftrace can write. */
static gboolean
marker_event (FtraceSinkWriter *w,
              const TraceEvent *ev,
              TraceEvent *out)
{
  *out = *ev;
  if (!is_task_id (out->tid) && is_task_id (out->pid))
    out->tid = out->pid;
  if (!is_task_id (out->tid))
    return FALSE;
  if (!is_task_id (out->pid))
    out->pid = out->tid;
  if (out->cpu < 0)
    out->cpu = 0;
  out->tid = chrome_thread_tid (w, ev->pid, out->tid);
  return TRUE;
}

/* A thread name names the thread's lines made after it (their task
 * column). When several come before the thread's next line (ftrace-src
 * names a thread by a line's task column, then by the comm fields of its
 * record, which may differ: `/system/bin/foo-927 … prev_comm=foo`), that
 * line's task column shows the first, its fields their own. A name that
 * no later line shows (Chrome JSON's metadata, at time 0 and often at the
 * end of the file; a process dump after the events) is written at the
 * end of the stream as a task_rename line at the thread's last line:
 * trace_processor names a thread by the task column of its lines, and
 * ftrace-src reads the rename. */
static void
write_thread_name (FtraceSinkWriter *w,
                   const TraceEvent *ev)
{
  gint64 tid = chrome_thread_tid (w, ev->pid, ev->tid);
  gboolean fresh = g_hash_table_contains (w->fresh_names, &tid);

  if (ev->name == 0 || (!fresh && ftrace_text_writer_get_thread_name (w->text, tid) == ev->name))
    return;
  ftrace_text_writer_note_thread_name (w->text, tid, ev->name);
  if (!fresh && g_hash_table_size (w->fresh_names) < MAX_THREADS)
    g_hash_table_insert (w->fresh_names, g_memdup2 (&tid, sizeof tid), GUINT_TO_POINTER (ev->name));
}

/* Shows @tid's first fresh name in the task column of the line about to
 * be made. Returns the name to restore after it (0: none). */
static guint32
show_column_name (FtraceSinkWriter *w,
                  gint64 tid)
{
  guint32 column = GPOINTER_TO_UINT (g_hash_table_lookup (w->fresh_names, &tid));
  guint32 current;

  if (column == 0 || (current = ftrace_text_writer_get_thread_name (w->text, tid)) == column)
    return 0;
  ftrace_text_writer_note_thread_name (w->text, tid, column);
  return current;
}

static void
restore_name (FtraceSinkWriter *w,
              gint64 tid,
              guint32 saved)
{
  if (saved != 0)
    ftrace_text_writer_note_thread_name (w->text, tid, saved);
}

/* A task_rename line that names @tid at @ts. */
static void
write_rename (FtraceSinkWriter *w,
              gint64 tid,
              gint64 ts)
{
  gint64 *pid = w->chrome_json ? g_hash_table_lookup (w->tid_pids, &tid) : NULL;
  TraceEvent rename = { 0 };

  rename.kind = TRACE_EVENT_TASK_RENAME;
  rename.ts = ts;
  rename.tid = tid;
  rename.u.task.tid = (gint32) tid;
  rename.pid = pid ? *pid : TRACE_ID_UNKNOWN;
  rename.u.task.comm = rename.u.task.old_comm = ftrace_text_writer_get_thread_name (w->text, tid);
  ftrace_text_write_record (w->text, w->line, NULL, &rename);
  ftrace_line_sorter_push (w->sorter, rename.ts, FALSE, w->line->str, w->line->len, w->buf);
  w->stats.lines++;
}

/* The names no line showed: of threads that have lines, at their last
 * line; of a Chrome JSON trace's threads without any (trace_processor
 * names them from the JSON metadata all the same), at the first line of
 * the file, as a thread name has no time of its own. */
static void
write_late_thread_names (FtraceSinkWriter *w)
{
  g_autoptr (GList) tids = g_hash_table_get_keys (w->fresh_names);

  for (GList *l = tids; l != NULL; l = l->next)
    {
      gint64 tid = *(gint64 *) l->data;
      gint64 *last = g_hash_table_lookup (w->last_line, &tid);

      if (!is_task_id (tid))
        continue;
      if (last != NULL)
        write_rename (w, tid, *last);
      else if (w->chrome_json && w->first_ts != G_MAXINT64)
        write_rename (w, tid, w->first_ts);
    }
  g_hash_table_remove_all (w->fresh_names);
}

/* ------------------------------------------------------------ markers */

static void
write_marker_first (FtraceSinkWriter *w,
                    const TraceEvent *ev,
                    gboolean first)
{
  guint32 saved = show_column_name (w, ev->tid);

  ftrace_text_write_marker (w->text, w->line, ev, w->payload->str, w->payload->len);
  restore_name (w, ev->tid, saved);
  emit_line_at (w, ev->tid, ev->ts, first);
}

static void
write_marker (FtraceSinkWriter *w,
              const TraceEvent *ev)
{
  write_marker_first (w, ev, FALSE);
}

static void
payload_start (FtraceSinkWriter *w,
               char tag,
               const TraceEvent *ev)
{
  g_string_printf (w->payload, "%c|%" G_GINT64_FORMAT, tag, ev->pid);
}

static void
payload_field (FtraceSinkWriter *w,
               const char *field)
{
  g_string_append_c (w->payload, '|');
  g_string_append (w->payload, field);
}

static void
payload_cookie (FtraceSinkWriter *w,
                guint64 id)
{
  g_string_append_printf (w->payload, "|%" G_GINT64_FORMAT, (gint64) id);
}

/* B at the slice's time; a complete slice's E at its end, before what
 * begins then (after its B when it lasts 0). */
static void
write_slice (FtraceSinkWriter *w,
             const TraceEvent *ev)
{
  TraceEvent end = *ev;

  if (ev->kind == TRACE_EVENT_SLICE_END)
    {
      payload_start (w, 'E', ev);
      write_marker (w, ev);
      return;
    }
  payload_start (w, 'B', ev);
  payload_field (w, str (w, ev->name));
  write_marker (w, ev);
  if (ev->kind != TRACE_EVENT_SLICE_COMPLETE)
    return;
  /* a duration past the end of time ends there */
  end.ts = ev->ts + CLAMP (ev->u.slice.dur, 0, G_MAXINT64 - ev->ts);
  payload_start (w, 'E', ev);
  write_marker_first (w, &end, end.ts > ev->ts);
}

/* atrace's instants: I of a thread, N of a process on a named track. */
static void
write_instant (FtraceSinkWriter *w,
               const TraceEvent *ev)
{
  guint32 scope = ev->flags & (TRACE_EVENT_FLAG_SCOPE_PROCESS | TRACE_EVENT_FLAG_SCOPE_GLOBAL);

  if (scope == TRACE_EVENT_FLAG_SCOPE_PROCESS && ev->u.slice.track != 0 && !has_bar (w, ev->u.slice.track) &&
      !has_bar (w, ev->name) && ev->name != 0)
    {
      payload_start (w, 'N', ev);
      payload_field (w, str (w, ev->u.slice.track));
      payload_field (w, str (w, ev->name));
      write_marker (w, ev);
    }
  else if (scope == TRACE_EVENT_FLAG_SCOPE_THREAD && ev->name != 0 && !has_bar (w, ev->name))
    {
      payload_start (w, 'I', ev);
      payload_field (w, str (w, ev->name));
      write_marker (w, ev);
    }
  else
    w->stats.dropped[scope == TRACE_EVENT_FLAG_SCOPE_THREAD ? FTRACE_SINK_DROP_BAR_NAMES
                                                            : FTRACE_SINK_DROP_SCOPED_INSTANTS]++;
}

/* The name and process of an open async slice. */
typedef struct
{
  guint32 name;
  gint64 pid;
} OpenAsync;

/* An async end names no slice in Perfetto (its track does) and may come
 * from another thread (another process for a global id), while atrace's
 * F matches its S by process, name and cookie: the end takes both from
 * its begin. */
static void
match_async_begin (FtraceSinkWriter *w,
                   const TraceEvent *original,
                   TraceEvent *ev)
{
  gint64 scope = (original->flags & TRACE_EVENT_FLAG_ID_GLOBAL) ? TRACE_ID_UNKNOWN : original->pid;
  g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GUINT64_FORMAT "/%u", scope,
                                          original->u.async.id, original->u.async.track);
  OpenAsync *open = g_hash_table_lookup (w->open_async, key);

  if (original->kind == TRACE_EVENT_ASYNC_BEGIN)
    {
      if (open == NULL && g_hash_table_size (w->open_async) < MAX_THREADS)
        {
          open = g_new (OpenAsync, 1);
          open->name = ev->name;
          open->pid = ev->pid;
          g_hash_table_insert (w->open_async, g_steal_pointer (&key), open);
        }
      return;
    }
  if (open == NULL)
    return;
  if (ev->name == 0)
    ev->name = open->name;
  ev->pid = open->pid;
  g_hash_table_remove (w->open_async, key);
}

/* S/F, or G/H on a named track; the name and the cookie match the two. */
static void
write_async (FtraceSinkWriter *w,
             const TraceEvent *ev)
{
  gboolean begin = ev->kind == TRACE_EVENT_ASYNC_BEGIN;
  guint32 track = ev->u.async.track;

  if (ev->name == 0 || has_bar (w, ev->name) || has_bar (w, track))
    {
      w->stats.dropped[FTRACE_SINK_DROP_BAR_NAMES]++;
      return;
    }
  if (track != 0)
    {
      payload_start (w, begin ? 'G' : 'H', ev);
      payload_field (w, str (w, track));
      if (begin)
        payload_field (w, str (w, ev->name));
    }
  else
    {
      payload_start (w, begin ? 'S' : 'F', ev);
      payload_field (w, str (w, ev->name));
    }
  payload_cookie (w, ev->u.async.id);
  write_marker (w, ev);
}

/* atrace counters are integers: trace_processor refuses any other value.
 * One read from ftrace text (it has a cpu) is written as it was read,
 * which trace_processor refused in the original too. */
static void
write_counter (FtraceSinkWriter *w,
               const TraceEvent *original,
               TraceEvent *ev)
{
  double v = ev->u.counter.value;
  guint32 saved;

  if (!(ev->flags & TRACE_EVENT_FLAG_COUNTER_INT) && original->cpu < 0)
    {
      if (!isfinite (v) || v != floor (v) || fabs (v) >= 9.2e18)
        {
          w->stats.dropped[FTRACE_SINK_DROP_FRACTIONS]++;
          return;
        }
      ev->flags |= TRACE_EVENT_FLAG_COUNTER_INT;
    }
  if (!ftrace_text_can_write_counter (w->text, ev) || ev->name == 0)
    {
      w->stats.dropped[FTRACE_SINK_DROP_BAR_NAMES]++;
      return;
    }
  saved = show_column_name (w, ev->tid);
  ftrace_text_write_counter (w->text, w->line, ev);
  restore_name (w, ev->tid, saved);
  emit_line (w, ev->tid, ev->ts);
}

static void
write_clock_marker (FtraceSinkWriter *w,
                    const TraceEvent *ev)
{
  g_string_assign (w->payload, "trace_event_clock_sync: ");
  switch (ev->u.clock.marker)
    {
    case TRACE_CLOCK_MARKER_PARENT_TS:
      g_string_append_printf (w->payload, "parent_ts=%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                              ev->u.clock.other_ts / 1000000000, ABS (ev->u.clock.other_ts % 1000000000));
      break;
    case TRACE_CLOCK_MARKER_REALTIME_TS:
      g_string_append_printf (w->payload, "realtime_ts=%" G_GINT64_FORMAT, ev->u.clock.other_ts / 1000000);
      break;
    case TRACE_CLOCK_MARKER_SYNC_ID:
      g_string_append_printf (w->payload, "name=%s", str (w, ev->u.clock.sync_id));
      break;
    default:
      w->stats.dropped[FTRACE_SINK_DROP_OTHER]++;
      return;
    }
  write_marker (w, ev);
}

/* ------------------------------------------------------------ events */

static void
write_kernel_record (FtraceSinkWriter *w,
                     TraceBatch *batch,
                     const TraceEvent *ev)
{
  guint32 saved;

  if (ev->cpu < 0 || !is_task_id (ev->tid))
    {
      w->stats.dropped[FTRACE_SINK_DROP_NO_THREAD]++;
      return;
    }
  if (ev->kind == TRACE_EVENT_SCHED_SWITCH && ev->u.sched_switch.prev_tid == TRACE_ID_UNKNOWN)
    {
      w->stats.dropped[FTRACE_SINK_DROP_SWITCHES_WITHOUT_PREV]++;
      return;
    }
  ftrace_text_writer_learn_comms (w->text, ev);
  saved = show_column_name (w, ev->tid);
  ftrace_text_write_record (w->text, w->line, batch, ev);
  restore_name (w, ev->tid, saved);
  emit_line (w, ev->tid, ev->ts);
}

/* Events whose args a marker cannot carry are written without them;
 * each counts once. */
static void
write_marker_event (FtraceSinkWriter *w,
                    const TraceEvent *original)
{
  TraceEvent ev;

  if (!marker_event (w, original, &ev))
    {
      w->stats.dropped[FTRACE_SINK_DROP_NO_THREAD]++;
      return;
    }
  if (original->n_args > 0 && original->kind != TRACE_EVENT_COUNTER)
    w->stats.args_not_written++;
  switch (original->kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
    case TRACE_EVENT_SLICE_END:
    case TRACE_EVENT_SLICE_COMPLETE:
      write_slice (w, &ev);
      break;
    case TRACE_EVENT_INSTANT:
      write_instant (w, &ev);
      break;
    case TRACE_EVENT_ASYNC_BEGIN:
    case TRACE_EVENT_ASYNC_END:
      /* trace_processor's JSON importer ignores Chrome's unnestable
       * async events (S T p F); atrace's S and F it would read */
      if (w->chrome_json && (ev.flags & TRACE_EVENT_FLAG_ASYNC_LEGACY))
        w->stats.dropped[FTRACE_SINK_DROP_JSON_LEGACY_ASYNC]++;
      else
        {
          match_async_begin (w, original, &ev);
          write_async (w, &ev);
        }
      break;
    case TRACE_EVENT_COUNTER:
      write_counter (w, original, &ev);
      break;
    default:
      /* a clock marker tells of the clock, not of a process */
      ev.pid = is_task_id (original->pid) ? original->pid : TRACE_ID_UNKNOWN;
      write_clock_marker (w, &ev);
    }
}

/* The reason an event of @kind is never written, or -1. */
static int
kind_drop (TraceEventKind kind)
{
  switch (kind)
    {
    case TRACE_EVENT_FLOW_START:
    case TRACE_EVENT_FLOW_STEP:
    case TRACE_EVENT_FLOW_END:
      return FTRACE_SINK_DROP_FLOWS;
    case TRACE_EVENT_ASYNC_STEP:
    case TRACE_EVENT_ASYNC_INSTANT:
      return FTRACE_SINK_DROP_ASYNC_STEPS;
    case TRACE_EVENT_PROCESS_NAME:
    case TRACE_EVENT_PROCESS_SORT_INDEX:
    case TRACE_EVENT_THREAD_SORT_INDEX:
    case TRACE_EVENT_PROCESS_LABEL:
      return FTRACE_SINK_DROP_PROCESS_METADATA;
    case TRACE_EVENT_STACK_NODE:
    case TRACE_EVENT_SAMPLE:
      return FTRACE_SINK_DROP_SAMPLES;
    case TRACE_EVENT_RECORD:
    case TRACE_EVENT_CHROME_PHASE:
      return FTRACE_SINK_DROP_OTHER;
    default:
      return -1;
    }
}

/* ftrace text has no form for a flow: those a slice or an async event
 * binds are counted, each once, under the shared reason. */
static void
count_bound_flows (FtraceSinkWriter *w,
                   TraceBatch *batch,
                   const TraceEvent *ev)
{
  if (!trace_event_binds_flows (ev->kind))
    return;
  if (!(ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS) &&
      (!trace_event_is_slice_like (ev->kind) || (ev->u.slice.flow_in == 0 && ev->u.slice.flow_out == 0)))
    return;
  w->stats.dropped[FTRACE_SINK_DROP_BOUND_FLOWS] += trace_batch_count_slice_flows (batch, ev);
}

static void
write_event (FtraceSinkWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  int drop;

  if (ev->kind == TRACE_EVENT_NONE)
    return;
  if (ev->kind == TRACE_EVENT_THREAD_NAME)
    {
      write_thread_name (w, ev);
      return;
    }
  if ((drop = kind_drop (ev->kind)) >= 0)
    {
      w->stats.dropped[drop]++;
      return;
    }
  if (ev->ts < 0)
    {
      w->stats.dropped[FTRACE_SINK_DROP_BEFORE_ZERO]++;
      return;
    }
  count_bound_flows (w, batch, ev);
  if (ev->kind >= TRACE_EVENT_SCHED_SWITCH && ev->kind <= TRACE_EVENT_FTRACE)
    write_kernel_record (w, batch, ev);
  else
    write_marker_event (w, ev);
}

/**
 * ftrace_sink_writer_write_batch:
 *
 * Writes the events of @batch (all batches share one string pool).
 */
gboolean
ftrace_sink_writer_write_batch (FtraceSinkWriter *w,
                                TraceBatch *batch,
                                GError **error)
{
  g_return_val_if_fail (w != NULL, FALSE);

  if (w->text == NULL)
    {
      w->pool = trace_string_pool_ref (batch->pool);
      w->text = ftrace_text_writer_new (w->pool);
    }
  for (guint i = 0; i < batch->n_events; i++)
    {
      write_event (w, batch, &batch->events[i]);
      if (w->buf->len >= FLUSH_SIZE && !flush (w, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * ftrace_sink_writer_finish:
 *
 * Writes the lines still held, in time order, and flushes the stream
 * (it is not closed).
 */
gboolean
ftrace_sink_writer_finish (FtraceSinkWriter *w,
                           GError **error)
{
  g_autoptr (GError) io_error = NULL;

  if (w->text != NULL)
    write_late_thread_names (w);
  while (ftrace_line_sorter_write_first (w->sorter, w->buf))
    if (w->buf->len >= FLUSH_SIZE && !flush (w, error))
      return FALSE;
  if (!flush (w, error))
    return FALSE;
  if (!g_output_stream_flush (w->out, NULL, &io_error))
    {
      g_set_error (error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_WRITE, "cannot write the ftrace text: %s",
                   io_error->message);
      return FALSE;
    }
  return TRUE;
}

const FtraceSinkStats *
ftrace_sink_writer_get_stats (FtraceSinkWriter *w)
{
  return &w->stats;
}

guint64
ftrace_sink_writer_get_late_lines (FtraceSinkWriter *w)
{
  return ftrace_line_sorter_get_late_lines (w->sorter);
}

gsize
ftrace_sink_writer_get_peak_sort_bytes (FtraceSinkWriter *w)
{
  return ftrace_line_sorter_get_peak_bytes (w->sorter);
}

guint64
ftrace_sink_writer_get_bytes_written (FtraceSinkWriter *w)
{
  return w->bytes_written + w->buf->len;
}
