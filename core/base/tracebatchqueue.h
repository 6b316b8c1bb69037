/* tracepipe - a bounded queue of batches between two threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "trace/trace.h"

G_BEGIN_DECLS

/* The hand-off behind `queue`, `app-sink` and a sink's writer thread: the
 * pushing thread waits while max_batches batches wait (memory stays
 * bounded), the taking thread waits while there is nothing. Stream
 * events may travel in it too, in their place between the batches; they
 * never count toward the bound.
 *
 * Once closed, a push drops what it brings and returns the refusal (EOS
 * for a queue that was stopped, the consumer's failure for one that
 * failed), and a take returns nothing: upstream learns at its next push
 * why the stream stopped.
 *
 * The fields are read and written with @lock held; @cond is broadcast on
 * every change, so a user with a wait of its own (the app-sink's pull, a
 * queue waiting for downstream) waits on it. */
typedef struct
{
  GMutex lock;
  GCond cond;
  GQueue items;            /* TraceBatch* or, tagged, TraceStreamEvent* */
  guint n_batches;         /* the batches among @items */
  guint max_batches;       /* a push waits while @n_batches reaches it */
  TraceFlowReturn refusal; /* TRACE_FLOW_OK while open */
  gboolean taken;          /* the taker holds an item it took */
  GMainContext *context;   /* (nullable): woken when room was made */
} TraceBatchQueue;

/* What one take gives: a batch or a stream event (the other is NULL). */
typedef struct
{
  TraceBatch *batch;
  TraceStreamEvent *event;
} TraceBatchQueueItem;

/* Called with the lock held while the taker has nothing to take; returns
 * with it held (trace_spare_work_idle() fits). */
typedef void (*TraceBatchQueueIdleFunc) (TraceBatchQueue *queue);

void _trace_batch_queue_init (TraceBatchQueue *queue,
                              guint max_batches);
void _trace_batch_queue_clear (TraceBatchQueue *queue);

TraceFlowReturn _trace_batch_queue_push (TraceBatchQueue *queue,
                                         TraceBatch *batch,
                                         gboolean may_wait);
void _trace_batch_queue_push_event (TraceBatchQueue *queue,
                                    TraceStreamEvent *event);
gboolean _trace_batch_queue_is_ready (TraceBatchQueue *queue);

gboolean _trace_batch_queue_take (TraceBatchQueue *queue,
                                  TraceBatchQueueIdleFunc idle,
                                  TraceBatchQueueItem *item);
void _trace_batch_queue_pop_locked (TraceBatchQueue *queue,
                                    TraceBatchQueueItem *item);
void _trace_batch_queue_drain (TraceBatchQueue *queue);

void _trace_batch_queue_open (TraceBatchQueue *queue);
void _trace_batch_queue_close (TraceBatchQueue *queue);
void _trace_batch_queue_close_locked (TraceBatchQueue *queue);
void _trace_batch_queue_fail (TraceBatchQueue *queue,
                              TraceFlowReturn ret);
void _trace_batch_queue_flush (TraceBatchQueue *queue);

void _trace_batch_queue_set_max_batches (TraceBatchQueue *queue,
                                         guint max_batches);
guint _trace_batch_queue_get_level (TraceBatchQueue *queue);

/* With the lock held. */
static inline gboolean
_trace_batch_queue_is_closed_locked (const TraceBatchQueue *queue)
{
  return queue->refusal != TRACE_FLOW_OK;
}

G_END_DECLS
