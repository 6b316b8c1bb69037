/* tracepipe - json plugin: the process names a Perfetto trace's kernel gives
 *
 * Of a Perfetto trace, trace_processor names a process after the kernel:
 * a fork (`task_newtask` without CLONE_THREAD) starts a process named
 * after its comm, and a `task_rename` of its main thread renames it.
 * Those names outrank the one the process gives its own track descriptor
 * (TRACE_EVENT_FLAG_APP_NAME). Of a JSON trace it names processes from
 * `M process_name` events only, the last in the file winning: the kernel
 * lines in `systemTraceEvents` name threads, not processes. So, for a
 * stream whose kernel events are a Perfetto trace's, json-sink writes an
 * `M process_name` for each such fork and rename, and leaves out a
 * descriptor's name once the kernel has named its process.
 *
 * The processes known are bounded by max-threads: past it, a kernel name
 * is not written, counted (process_names_past_table).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "json-writer-private.h"

enum
{
  PROCESS_MAIN_THREAD = 1 << 0, /* a fork started it: its pid is this tid */
  PROCESS_NAMED = 1 << 1,       /* the kernel or the system named it */
};

static guint
process_flags (ChromeWriter *w,
               gint64 pid)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (w->processes, GSIZE_TO_POINTER ((gsize) pid)));
}

static gboolean
process_set (ChromeWriter *w,
             gint64 pid,
             guint flags)
{
  gpointer key = GSIZE_TO_POINTER ((gsize) pid);
  guint old = GPOINTER_TO_UINT (g_hash_table_lookup (w->processes, key));

  if (old == 0 && g_hash_table_size (w->processes) >= w->opts.max_threads)
    return FALSE;
  g_hash_table_insert (w->processes, key, GUINT_TO_POINTER (old | flags));
  return TRUE;
}

static void
write_process_name (ChromeWriter *w,
                    gint64 ts,
                    gint64 pid,
                    guint32 name)
{
  TraceEvent ev = { .ts = ts, .pid = pid, .tid = pid, .name = name, .kind = TRACE_EVENT_PROCESS_NAME };

  if (!process_set (w, pid, PROCESS_MAIN_THREAD | PROCESS_NAMED))
    {
      chrome_writer_count_drop (w, &w->stats.process_names_past_table,
                                "process name from the kernel not written: thread table full (max-threads)");
      return;
    }
  chrome_writer_metadata (w, &ev);
  w->stats.process_names_from_kernel++;
}

/**
 * chrome_writer_process_name_from_kernel:
 * @w: a #ChromeWriter
 * @ev: a %TRACE_EVENT_TASK_NEWTASK or %TRACE_EVENT_TASK_RENAME of a
 *   Perfetto trace
 *
 * Writes the process name trace_processor takes from @ev, if any: the
 * comm of a forked process, the new comm of a process's main thread (a
 * task a fork started, or one renamed by itself whose pid is its tid).
 */
void
chrome_writer_process_name_from_kernel (ChromeWriter *w,
                                        const TraceEvent *ev)
{
  gint64 tid = ev->u.task.tid;

  if (tid <= 0 || ev->u.task.comm == 0)
    return;
  if (ev->kind == TRACE_EVENT_TASK_NEWTASK)
    {
      if (!(ev->u.task.clone_flags & TRACE_CLONE_THREAD))
        write_process_name (w, ev->ts, tid, ev->u.task.comm);
      return;
    }
  if ((process_flags (w, tid) & PROCESS_MAIN_THREAD) || (ev->tid == tid && ev->pid == tid))
    write_process_name (w, ev->ts, tid, ev->u.task.comm);
}

/**
 * chrome_writer_process_name_outranked:
 * @w: a #ChromeWriter
 * @ev: a %TRACE_EVENT_PROCESS_NAME
 *
 * Returns: whether @ev is a name the process gave its own descriptor
 *   (%TRACE_EVENT_FLAG_APP_NAME) of a process the kernel or the system
 *   named already, which trace_processor does not show; a system name
 *   is noted as such.
 */
gboolean
chrome_writer_process_name_outranked (ChromeWriter *w,
                                      const TraceEvent *ev)
{
  if (ev->pid == TRACE_ID_UNKNOWN)
    return FALSE;
  if (!(ev->flags & TRACE_EVENT_FLAG_APP_NAME))
    {
      process_set (w, ev->pid, PROCESS_NAMED);
      return FALSE;
    }
  if (!(process_flags (w, ev->pid) & PROCESS_NAMED))
    return FALSE;
  w->stats.app_process_names_outranked++;
  return TRUE;
}
