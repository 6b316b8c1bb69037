/* tracepipe - Perfetto writer: process and thread names, sort indexes
 * and labels
 *
 * A process's or thread's name, sort index and labels are fields of its
 * track descriptor (perfetto-writer-tracks.c), written again when they
 * change; names are also listed in process_tree for readers of thread
 * names. A thread whose process is not known is named by a kernel
 * task_rename record instead (perfetto-writer-ftrace.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

/* Returns: whether a process of pid @tid was declared: trace_processor
 * then holds thread @tid as its main thread, whatever the input said. */
static gboolean
is_main_thread_of_declared_process (PerfettoWriter *w,
                                    gint64 tid)
{
  PerfettoKey key = { tid, 0, 0, 0 };

  return g_hash_table_contains (w->processes, &key);
}

static void
write_thread_meta (PerfettoWriter *w,
                   const TraceEvent *ev)
{
  gint64 pid = ev->pid;
  PerfettoThread *t = NULL;
  gboolean changed = FALSE;
  /* A thread named without its process takes the one learnt so far. In
   * a Perfetto trace's file order what is learnt so far may be learnt of
   * a later time (the writer puts a process_tree packet before the
   * kernel bundle that holds an earlier rename): there the name keeps
   * no process, as it had when it was written. */
  gboolean processless = pid == TRACE_ID_UNKNOWN && w->opts.perfetto_order && ev->kind == TRACE_EVENT_THREAD_NAME;

  if (pid == TRACE_ID_UNKNOWN && !processless)
    pid = perfetto_assoc_pid (w, ev->tid);
  if (pid != TRACE_ID_UNKNOWN)
    t = perfetto_thread_find (w, pid, ev->tid);
  else
    t = perfetto_thread_lookup (w, TRACE_ID_UNKNOWN, ev->tid);
  if (ev->kind == TRACE_EVENT_THREAD_NAME)
    {
      if (t && t->name != ev->name)
        {
          t->name = ev->name;
          changed = TRUE;
        }
      /* Also listed for readers of thread names (trace_processor names
       * threads of kernel events from it). A thread of no known process
       * must not be put in one (process_tree would say pid 0). */
      if (pid == TRACE_ID_UNKNOWN && !processless && is_main_thread_of_declared_process (w, ev->tid))
        perfetto_assoc_thread (w, ev->tid, ev->tid, ev->name, ev->ts, TRUE);
      else if (pid == TRACE_ID_UNKNOWN)
        perfetto_write_processless_thread_name (w, ev);
      else if (t == NULL || changed)
        perfetto_assoc_thread (w, ev->tid, pid, ev->name, ev->ts, TRUE);
    }
  else if (t && (!t->has_sort_index || t->sort_index != ev->u.meta.value))
    {
      t->has_sort_index = TRUE;
      t->sort_index = ev->u.meta.value;
      changed = TRUE;
    }
  if (t && (changed || !t->described))
    perfetto_thread_describe (w, t, ev->ts);
}

static gboolean
process_add_label (PerfettoProcess *p,
                   guint32 label)
{
  if (p->labels == NULL)
    p->labels = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < p->labels->len; i++)
    if (g_array_index (p->labels, guint32, i) == label)
      return FALSE;
  if (p->labels->len >= PERFETTO_MAX_LABELS)
    return FALSE;
  g_array_append_val (p->labels, label);
  return TRUE;
}

static void
write_process_meta (PerfettoWriter *w,
                    const TraceEvent *ev)
{
  PerfettoProcess *p = perfetto_process_get (w, ev->pid);
  gboolean changed = FALSE;

  switch (ev->kind)
    {
    case TRACE_EVENT_PROCESS_NAME:
      changed = p->name != ev->name;
      p->name = ev->name;
      /* an app's own name goes in its process descriptor only, where a
       * name the system gives (the same one, maybe) overrides it, as in
       * the original */
      if (ev->flags & TRACE_EVENT_FLAG_APP_NAME)
        p->name_in_tree = p->name_in_tree && !changed;
      else if (changed || !p->name_in_tree)
        {
          perfetto_tree_add_process (w, ev->pid, ev->name, ev->ts);
          p->name_in_tree = TRUE;
        }
      break;
    case TRACE_EVENT_PROCESS_SORT_INDEX:
      changed = !p->has_sort_index || p->sort_index != ev->u.meta.value;
      p->has_sort_index = TRUE;
      p->sort_index = ev->u.meta.value;
      break;
    default: /* PROCESS_LABEL */
      changed = process_add_label (p, ev->name);
      break;
    }
  if (changed || !p->described)
    perfetto_process_describe (w, p, ev->ts);
}

/**
 * perfetto_write_names:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a process or thread name, sort index or label
 */
void
perfetto_write_names (PerfettoWriter *w,
                      TraceBatch *batch,
                      const TraceEvent *ev)
{
  switch (ev->kind)
    {
    case TRACE_EVENT_PROCESS_NAME:
    case TRACE_EVENT_PROCESS_SORT_INDEX:
    case TRACE_EVENT_PROCESS_LABEL:
      if (ev->pid == TRACE_ID_UNKNOWN)
        perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "process metadata without a pid dropped");
      else
        write_process_meta (w, ev);
      break;
    default:
      if (ev->tid == TRACE_ID_UNKNOWN)
        perfetto_writer_drop (w, &w->stats.dropped_other, 1, ev->ts, "thread metadata without a tid dropped");
      else
        write_thread_meta (w, ev);
      break;
    }
}
