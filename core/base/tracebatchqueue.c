/* tracepipe - a bounded queue of batches between two threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "tracebatchqueue.h"

/* Events and batches share the list to keep their order; the low bit of
 * the pointer tells them apart (both are malloc-aligned). */
#define EVENT_TAG ((guintptr) 1)
#define IS_EVENT(p) (((guintptr) (p)) & EVENT_TAG)
#define TAG_EVENT(e) ((gpointer) (((guintptr) (e)) | EVENT_TAG))
#define UNTAG_EVENT(p) ((TraceStreamEvent *) (((guintptr) (p)) & ~EVENT_TAG))

static void
free_item (gpointer item)
{
  if (IS_EVENT (item))
    trace_stream_event_unref (UNTAG_EVENT (item));
  else
    trace_batch_unref (item);
}

void
_trace_batch_queue_init (TraceBatchQueue *queue,
                         guint max_batches)
{
  g_mutex_init (&queue->lock);
  g_cond_init (&queue->cond);
  g_queue_init (&queue->items);
  queue->n_batches = 0;
  queue->max_batches = MAX (max_batches, 1);
  queue->refusal = TRACE_FLOW_OK;
  queue->taken = FALSE;
  queue->context = NULL;
}

/* Drops what is held; nobody may use the queue any more. */
void
_trace_batch_queue_clear (TraceBatchQueue *queue)
{
  _trace_batch_queue_flush (queue);
  g_mutex_clear (&queue->lock);
  g_cond_clear (&queue->cond);
}

/* Appends @batch (taken), first waiting for room when @may_wait (a
 * pusher that may be the one who takes must not wait for itself).
 * Returns TRACE_FLOW_OK, or the refusal of a closed queue (the batch is
 * then dropped). */
TraceFlowReturn
_trace_batch_queue_push (TraceBatchQueue *queue,
                         TraceBatch *batch,
                         gboolean may_wait)
{
  TraceFlowReturn ret;

  g_mutex_lock (&queue->lock);
  while (may_wait && queue->n_batches >= queue->max_batches && !_trace_batch_queue_is_closed_locked (queue))
    g_cond_wait (&queue->cond, &queue->lock);
  ret = queue->refusal;
  if (ret == TRACE_FLOW_OK)
    {
      g_queue_push_tail (&queue->items, batch);
      queue->n_batches++;
      g_cond_broadcast (&queue->cond);
    }
  g_mutex_unlock (&queue->lock);
  if (ret != TRACE_FLOW_OK)
    trace_batch_unref (batch);
  return ret;
}

/* Appends @event (taken) after the batches before it, never waiting: an
 * event holds no memory to bound. A closed queue drops it. */
void
_trace_batch_queue_push_event (TraceBatchQueue *queue,
                               TraceStreamEvent *event)
{
  gboolean closed;

  g_mutex_lock (&queue->lock);
  closed = _trace_batch_queue_is_closed_locked (queue);
  if (!closed)
    g_queue_push_tail (&queue->items, TAG_EVENT (event));
  g_cond_broadcast (&queue->cond);
  g_mutex_unlock (&queue->lock);
  if (closed)
    trace_stream_event_unref (event);
}

/* Whether a push would not wait (a source in the main loop is scheduled
 * only then): there is room, or the push is refused at once. */
gboolean
_trace_batch_queue_is_ready (TraceBatchQueue *queue)
{
  gboolean ready;

  g_mutex_lock (&queue->lock);
  ready = queue->n_batches < queue->max_batches || _trace_batch_queue_is_closed_locked (queue);
  g_mutex_unlock (&queue->lock);
  return ready;
}

/* Takes the oldest item into @item (both NULL when there is none); the
 * caller holds the lock. */
void
_trace_batch_queue_pop_locked (TraceBatchQueue *queue,
                               TraceBatchQueueItem *item)
{
  gpointer p = g_queue_pop_head (&queue->items);

  item->batch = NULL;
  item->event = NULL;
  if (p == NULL)
    return;
  if (IS_EVENT (p))
    item->event = UNTAG_EVENT (p);
  else
    {
      item->batch = p;
      queue->n_batches--;
    }
  g_cond_broadcast (&queue->cond);
}

/* The taker's step: says the item it took last is done with, waits for
 * the next (calling @idle, if given, instead of only waiting) and takes
 * it. FALSE once the queue is closed: the taker stops. */
gboolean
_trace_batch_queue_take (TraceBatchQueue *queue,
                         TraceBatchQueueIdleFunc idle,
                         TraceBatchQueueItem *item)
{
  g_mutex_lock (&queue->lock);
  queue->taken = FALSE;
  g_cond_broadcast (&queue->cond);
  while (g_queue_is_empty (&queue->items) && !_trace_batch_queue_is_closed_locked (queue))
    {
      if (idle)
        idle (queue);
      else
        g_cond_wait (&queue->cond, &queue->lock);
    }
  if (_trace_batch_queue_is_closed_locked (queue))
    {
      g_mutex_unlock (&queue->lock);
      return FALSE;
    }
  _trace_batch_queue_pop_locked (queue, item);
  queue->taken = TRUE;
  g_mutex_unlock (&queue->lock);
  /* Room was made: a source in the main loop waiting for it may be
   * scheduled again. */
  g_main_context_wakeup (queue->context);
  return TRUE;
}

/* Waits until every item pushed was taken and done with (the taker came
 * back for the next), or the queue closed. */
void
_trace_batch_queue_drain (TraceBatchQueue *queue)
{
  g_mutex_lock (&queue->lock);
  while ((queue->taken || !g_queue_is_empty (&queue->items)) && !_trace_batch_queue_is_closed_locked (queue))
    g_cond_wait (&queue->cond, &queue->lock);
  g_mutex_unlock (&queue->lock);
}

/* Takes pushes again (a flow starts). */
void
_trace_batch_queue_open (TraceBatchQueue *queue)
{
  g_mutex_lock (&queue->lock);
  queue->refusal = TRACE_FLOW_OK;
  g_cond_broadcast (&queue->cond);
  g_mutex_unlock (&queue->lock);
}

/* As _trace_batch_queue_close(), the caller holding the lock. */
void
_trace_batch_queue_close_locked (TraceBatchQueue *queue)
{
  if (queue->refusal == TRACE_FLOW_OK)
    queue->refusal = TRACE_FLOW_EOS;
  g_cond_broadcast (&queue->cond);
}

/* Stops the flow: pushes return EOS (unless a failure is what upstream
 * hears already), the taker stops, every waiter wakes. */
void
_trace_batch_queue_close (TraceBatchQueue *queue)
{
  g_mutex_lock (&queue->lock);
  _trace_batch_queue_close_locked (queue);
  g_mutex_unlock (&queue->lock);
}

/* The taker could not hand an item on: closes the queue with @ret, what
 * upstream hears at its next push. */
void
_trace_batch_queue_fail (TraceBatchQueue *queue,
                         TraceFlowReturn ret)
{
  g_return_if_fail (ret != TRACE_FLOW_OK);

  g_mutex_lock (&queue->lock);
  queue->refusal = ret;
  g_cond_broadcast (&queue->cond);
  g_mutex_unlock (&queue->lock);
}

/* Drops every item held. They are taken out under the lock and freed
 * after: emptying the list in place while a push appended to it lost
 * batches (found by the launch-graph fuzz target: LeakSanitizer, at the
 * end of a run). */
void
_trace_batch_queue_flush (TraceBatchQueue *queue)
{
  GQueue held;

  g_mutex_lock (&queue->lock);
  held = queue->items;
  g_queue_init (&queue->items);
  queue->n_batches = 0;
  g_cond_broadcast (&queue->cond);
  g_mutex_unlock (&queue->lock);
  g_queue_clear_full (&held, free_item);
}

/* A pusher waiting for room looks again. */
void
_trace_batch_queue_set_max_batches (TraceBatchQueue *queue,
                                    guint max_batches)
{
  g_mutex_lock (&queue->lock);
  queue->max_batches = MAX (max_batches, 1);
  g_cond_broadcast (&queue->cond);
  g_mutex_unlock (&queue->lock);
}

/* How many batches are held now. */
guint
_trace_batch_queue_get_level (TraceBatchQueue *queue)
{
  guint level;

  g_mutex_lock (&queue->lock);
  level = queue->n_batches;
  g_mutex_unlock (&queue->lock);
  return level;
}
