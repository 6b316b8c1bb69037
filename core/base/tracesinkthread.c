/* tracepipe - a sink's writer thread: render() off the streaming thread
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"
#include "trace-private.h"
#include "tracebatchqueue.h"

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
  TraceBatchQueue queue; /* closed: stopped, or a render failed */
  GThread *thread;
};

/* Whether the thread has a batch to render, or is to stop. */
static gboolean
has_own_work (gpointer data)
{
  TraceBatchQueue *queue = data;

  return !g_queue_is_empty (&queue->items) || _trace_batch_queue_is_closed_locked (queue);
}

/* Between batches the thread does a piece of the work other elements
 * offer (trace_spare_work_add()): on two cores it idled a fifth of a
 * JSON conversion waiting for batches, while json-src's reader and
 * worker took turns on the other core (docs/performance.md). */
static void
idle (TraceBatchQueue *queue)
{
  trace_spare_work_idle (&queue->lock, &queue->cond, has_own_work, queue);
}

static gpointer
sink_thread_loop (gpointer data)
{
  TraceSinkThread *t = data;
  TraceBatchQueueItem item;

  while (_trace_batch_queue_take (&t->queue, idle, &item))
    {
      TraceFlowReturn ret = t->render (t->sink, item.batch);

      if (ret != TRACE_FLOW_OK)
        {
          _trace_batch_queue_fail (&t->queue, ret);
          _trace_batch_queue_flush (&t->queue);
          g_main_context_wakeup (t->queue.context);
          break;
        }
    }
  trace_spare_work_unlend (&t->queue.cond);
  return NULL;
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
  _trace_batch_queue_init (&t->queue, max_batches);
  t->queue.context = trace_element_get_main_context (TRACE_ELEMENT (sink));
  /* Counted before the thread runs: a source that starts right after
   * the sink must see it (the thread's own first step came too late one
   * run in six, and the source then started a worker of its own). */
  trace_spare_work_lend (&t->queue.lock, &t->queue.cond);
  t->thread = g_thread_try_new (name, sink_thread_loop, t, error);
  if (t->thread == NULL)
    {
      trace_spare_work_unlend (&t->queue.cond);
      _trace_batch_queue_clear (&t->queue);
      g_free (t);
      return NULL;
    }
  return t;
}

/* Hands @batch (taken) to the thread, waiting while @max_batches wait
 * already; once the thread stopped, drops it and returns why (EOS, or
 * what the failed render returned). */
TraceFlowReturn
_trace_sink_thread_push (TraceSinkThread *t,
                         TraceBatch *batch)
{
  return _trace_batch_queue_push (&t->queue, batch, TRUE);
}

/* Whether a push would not wait (a source in the main loop is scheduled
 * only then). */
gboolean
_trace_sink_thread_is_ready (TraceSinkThread *t)
{
  return _trace_batch_queue_is_ready (&t->queue);
}

/* Waits until every batch handed over is rendered (or the thread stopped
 * on an error). */
void
_trace_sink_thread_drain (TraceSinkThread *t)
{
  _trace_batch_queue_drain (&t->queue);
}

/* Stops the thread: the batches not rendered yet are dropped (the sink
 * is stopping before EOS, its output is thrown away). A push after that
 * (from an upstream thread not stopped yet: a bin stops its sinks first)
 * drops its batch and returns EOS. */
void
_trace_sink_thread_stop (TraceSinkThread *t)
{
  _trace_batch_queue_close (&t->queue);
  if (t->thread)
    g_thread_join (g_steal_pointer (&t->thread));
  _trace_batch_queue_flush (&t->queue);
}

void
_trace_sink_thread_free (TraceSinkThread *t)
{
  if (t == NULL)
    return;
  _trace_sink_thread_stop (t);
  _trace_batch_queue_clear (&t->queue);
  g_free (t);
}
