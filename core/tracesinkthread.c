/* tracepipe - a sink's writer thread: render() off the streaming thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"

/* A bounded hand-off between the thread that pushes batches into a sink
 * (the source's, or a queue's) and one thread of the sink's own that
 * renders them, in the order they came. The sink's other callbacks
 * (stream-start, EOS, stop) run on the pushing thread after
 * _trace_sink_thread_drain(), so a subclass never runs on two threads at
 * once and needs no locks of its own. */
struct _TraceSinkThread
{
  TraceBaseSink *sink; /* not owned: the sink owns us */
  TraceSinkThreadRenderFunc render;
  guint max_batches;
  GMainContext *context;

  GMutex lock;
  GCond cond;
  GQueue batches;
  gboolean busy;       /* a batch is being rendered */
  gboolean flushing;   /* stopped: nothing more is taken */
  TraceFlowReturn ret; /* the first render that was not OK */
  GThread *thread;
};

/* Whether the thread has a batch to render, or is to stop. */
static gboolean
has_own_work (gpointer data)
{
  TraceSinkThread *t = data;

  return !g_queue_is_empty (&t->batches) || t->flushing;
}

static gpointer
sink_thread_loop (gpointer data)
{
  TraceSinkThread *t = data;

  for (;;)
    {
      TraceBatch *batch;
      TraceFlowReturn ret;

      g_mutex_lock (&t->lock);
      t->busy = FALSE;
      g_cond_broadcast (&t->cond);
      /* Between batches the thread does a piece of the work other
       * elements offer (trace_spare_work_add()): on two cores it idled a
       * fifth of a JSON conversion waiting for batches, while json-src's
       * reader and worker took turns on the other core
       * (docs/performance.md). */
      while (!has_own_work (t))
        trace_spare_work_idle (&t->lock, &t->cond, has_own_work, t);
      if (t->flushing)
        {
          g_mutex_unlock (&t->lock);
          trace_spare_work_unlend (&t->cond);
          return NULL;
        }
      batch = g_queue_pop_head (&t->batches);
      t->busy = TRUE;
      g_cond_broadcast (&t->cond);
      g_mutex_unlock (&t->lock);
      /* Room was made: a source in the main loop waiting for it may be
       * scheduled again. */
      g_main_context_wakeup (t->context);
      ret = t->render (t->sink, batch);
      if (ret != TRACE_FLOW_OK)
        {
          g_mutex_lock (&t->lock);
          t->ret = ret;
          t->flushing = TRUE;
          t->busy = FALSE;
          g_queue_clear_full (&t->batches, (GDestroyNotify) trace_batch_unref);
          g_cond_broadcast (&t->cond);
          g_mutex_unlock (&t->lock);
          g_main_context_wakeup (t->context);
          trace_spare_work_unlend (&t->cond);
          return NULL;
        }
    }
}

/**
 * _trace_sink_thread_new:
 * @sink: the sink whose batches are rendered
 * @render: renders one batch (takes it) and posts its own errors
 * @max_batches: how many batches may wait (memory stays bounded)
 *
 * Returns: (nullable): the started thread, %NULL with @error set when the
 *   system gave no thread
 */
TraceSinkThread *
_trace_sink_thread_new (TraceBaseSink *sink,
                        TraceSinkThreadRenderFunc render,
                        guint max_batches,
                        GError **error)
{
  TraceSinkThread *t = g_new0 (TraceSinkThread, 1);
  g_autofree char *name = g_strdup_printf ("%.15s", trace_element_get_name (TRACE_ELEMENT (sink)));

  t->sink = sink;
  t->render = render;
  t->max_batches = MAX (max_batches, 1);
  t->context = trace_element_get_main_context (TRACE_ELEMENT (sink));
  t->ret = TRACE_FLOW_OK;
  g_mutex_init (&t->lock);
  g_cond_init (&t->cond);
  g_queue_init (&t->batches);
  /* Counted before the thread runs: a source that starts right after
   * the sink must see it (the thread's own first step came too late one
   * run in six, and the source then started a worker of its own). */
  trace_spare_work_lend (&t->lock, &t->cond);
  t->thread = g_thread_try_new (name, sink_thread_loop, t, error);
  if (t->thread == NULL)
    {
      trace_spare_work_unlend (&t->cond);
      g_mutex_clear (&t->lock);
      g_cond_clear (&t->cond);
      g_free (t);
      return NULL;
    }
  return t;
}

/* Hands @batch (taken) to the thread, waiting while @max_batches wait
 * already; returns what the thread's last render returned. */
TraceFlowReturn
_trace_sink_thread_push (TraceSinkThread *t,
                         TraceBatch *batch)
{
  TraceFlowReturn ret;

  g_mutex_lock (&t->lock);
  while (g_queue_get_length (&t->batches) >= t->max_batches && !t->flushing)
    g_cond_wait (&t->cond, &t->lock);
  if (t->flushing)
    {
      ret = t->ret != TRACE_FLOW_OK ? t->ret : TRACE_FLOW_EOS;
      trace_batch_unref (batch);
    }
  else
    {
      g_queue_push_tail (&t->batches, batch);
      g_cond_broadcast (&t->cond);
      ret = TRACE_FLOW_OK;
    }
  g_mutex_unlock (&t->lock);
  return ret;
}

/* Whether a push would not wait (a source in the main loop is scheduled
 * only then). */
gboolean
_trace_sink_thread_is_ready (TraceSinkThread *t)
{
  gboolean ready;

  g_mutex_lock (&t->lock);
  ready = t->flushing || g_queue_get_length (&t->batches) < t->max_batches;
  g_mutex_unlock (&t->lock);
  return ready;
}

/* Waits until every batch handed over is rendered (or the thread stopped
 * on an error); returns the thread's flow return. */
TraceFlowReturn
_trace_sink_thread_drain (TraceSinkThread *t)
{
  TraceFlowReturn ret;

  g_mutex_lock (&t->lock);
  while ((t->busy || !g_queue_is_empty (&t->batches)) && !t->flushing)
    g_cond_wait (&t->cond, &t->lock);
  ret = t->ret;
  g_mutex_unlock (&t->lock);
  return ret;
}

/* Stops the thread: the batches not rendered yet are dropped (the sink
 * is stopping before EOS, its output is thrown away). A push after that
 * (from an upstream thread not stopped yet: a bin stops its sinks first)
 * drops its batch and returns EOS. */
void
_trace_sink_thread_stop (TraceSinkThread *t)
{
  g_mutex_lock (&t->lock);
  t->flushing = TRUE;
  g_cond_broadcast (&t->cond);
  g_mutex_unlock (&t->lock);
  if (t->thread)
    g_thread_join (g_steal_pointer (&t->thread));
  g_mutex_lock (&t->lock);
  g_queue_clear_full (&t->batches, (GDestroyNotify) trace_batch_unref);
  g_mutex_unlock (&t->lock);
}

void
_trace_sink_thread_free (TraceSinkThread *t)
{
  if (t == NULL)
    return;
  _trace_sink_thread_stop (t);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->cond);
  g_free (t);
}
