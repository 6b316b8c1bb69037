/* tracepipe - filter: which thread of a process is its main thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * In the kernel's view (ftrace, atrace, RheaTrace) the main thread is the
 * thread-group leader, whose tid is the pid.  Chrome's tids are not so
 * related to its pids (sandboxed renderers see other pid namespaces, on
 * macOS tids are small counters): its main threads are the ones it names
 * CrBrowserMain, CrRendererMain, CrGpuMain…  A stream that says so
 * (TRACE_STREAM_FLAG_MAIN_THREADS_NAMED) has its main threads told by
 * name; a process none of whose threads is so named keeps the tid == pid
 * rule.  The names may come anywhere in such a stream (Chrome writes its
 * metadata events last as often as first), so the element holds the
 * stream back until it has seen them (filters-element.c).
 */
#include "filters-private.h"

#include <string.h>

/**
 * filter_is_main_thread_name:
 * @name: (nullable): a thread's name
 *
 * Returns: whether @name marks a main thread: `main`, or Chrome's
 *   `Cr…Main` (CrBrowserMain, CrRendererMain, CrGpuMain, CrUtilityMain…)
 */
gboolean
filter_is_main_thread_name (const char *name)
{
  gsize len;

  if (name == NULL)
    return FALSE;
  if (strcmp (name, "main") == 0)
    return TRUE;
  len = strlen (name);
  return len > 6 && g_str_has_prefix (name, "Cr") && g_str_has_suffix (name, "Main");
}

void
filter_set_main_threads_named (Filter *f,
                               gboolean named)
{
  f->main_threads_named = named;
  if (named && f->named_main == NULL)
    f->named_main = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

/**
 * filter_waits_for_main_threads:
 *
 * Returns: whether the conditions ask for main threads in a stream that
 *   tells them by name, so that a batch can be decided only once the
 *   names of its processes' threads are known
 */
gboolean
filter_waits_for_main_threads (Filter *f)
{
  return f->main_threads_named && f->has_conditions && f->has_tid && f->tid_main;
}

/**
 * filter_learn_main_threads:
 * @batch: a batch not filtered yet
 *
 * Learns the main threads @batch names.  The first thread named as a
 * process's main thread stays its main thread.
 */
void
filter_learn_main_threads (Filter *f,
                           const TraceBatch *batch)
{
  if (!f->main_threads_named)
    return;
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      gint64 *pid;

      if (ev->kind != TRACE_EVENT_THREAD_NAME || ev->pid < 0 || ev->tid <= 0)
        continue;
      if (g_hash_table_contains (f->named_main, &ev->pid))
        continue;
      if (!filter_is_main_thread_name (trace_string_pool_get (f->pool, ev->name)))
        continue;
      pid = g_memdup2 (&ev->pid, sizeof ev->pid);
      g_hash_table_insert (f->named_main, pid, g_memdup2 (&ev->tid, sizeof ev->tid));
    }
}

/**
 * filter_lookup_named_main_thread:
 * @tid: (out): the tid of the thread named as @pid's main thread
 *
 * Returns: whether a thread of @pid is named as its main thread
 */
gboolean
filter_lookup_named_main_thread (Filter *f,
                                 gint64 pid,
                                 gint64 *tid)
{
  const gint64 *found;

  if (f->named_main == NULL || pid < 0)
    return FALSE;
  found = g_hash_table_lookup (f->named_main, &pid);
  if (found == NULL)
    return FALSE;
  *tid = *found;
  return TRUE;
}
