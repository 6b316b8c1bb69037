/* tracepipe - Perfetto writer: the order of a JSON trace's events
 *
 * trace_processor does not read a Chrome JSON trace in file order. Its
 * sorter keeps events that came in time order as they are; from the
 * first timestamp at which the file goes out of order onwards it sorts
 * by timestamp, and, once the file has a complete (`X`) event, it counts
 * a repeated timestamp as out of order too and sorts events of one
 * timestamp `E` first, then complete slices longest first, then the rest
 * in file order. Nesting follows from that order (two complete slices at
 * one timestamp nest longest outside, whatever the file says), so a
 * converted trace can only read the same if the writer decides nesting
 * in the same order. The writer follows the sorter's state as events
 * come (every event of the stream counts, as every event of the file
 * does for trace_processor); a file whose first complete slice or first
 * disorder comes more than a window after the events it would reorder
 * is the one case where the two can differ.
 *
 * json-src hands events over in file order. When the stream is JSON
 * (`opts.json_order`), TrackEvent-bound events wait here, ordered by
 * (ts, rank, arrival), and are written once more than
 * PERFETTO_ORDER_WINDOW events wait, or at the end. Most events of a
 * real file come in that order already: those wait in a run, a FIFO
 * that stays sorted by taking only an event not before its last one;
 * the others wait in a binary heap, and the next to write is the first
 * of the run or the heap's top (a heap of every event cost 5 % of a
 * conversion's instructions, for events that were mostly in order).
 * An event that waits in the run stays in its batch, which the writer
 * keeps (a reference) until the batch's last such event is written: the
 * run is a FIFO and batches come in order, so the event the run gives is
 * always in the oldest batch kept, and the batches kept are about a
 * window's worth (PERFETTO_ORDER_MAX_BATCHES at most). The other waiting
 * events (those of the heap, of small batches, past that many batches)
 * are copied with their args and texts into a store of the writer,
 * compacted in place when full (written events are marked and squeezed
 * out, the others keep their order), so memory stays bounded by the
 * window whatever the batches: a reference per heap event would keep a
 * whole batch alive for one late event, and compacting into a new store
 * had both stores alive at once, 12 MiB more at the peak. Copying every
 * event into the store and moving it once more when compacting was a
 * fifth of the writer's thread on plain JSON. An event
 * that arrives after later events were already written (disorder deeper
 * than the window) is written at once, where it comes, and counted as
 * `late_events`.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

/* A waiting event: where it is, and its arrival number, which breaks
 * ties. The number is compared modulo 2^32, right while the events
 * waiting at once arrived less than 2^31 events apart (one that waits
 * longer can only be misplaced among events of its own timestamp). */
typedef struct
{
  gint64 ts;
  gint64 rank;
  guint32 seq;
  guint32 index; /* with HELD_STORED: in w->order_store; else in its batch */
} PerfettoHeld;

#define HELD_STORED 0x80000000u

/* A batch kept for its events waiting in the run. */
typedef struct
{
  TraceBatch *batch;
  guint n_run; /* its events in the run */
} PerfettoHeldBatch;

/* trace_processor's order at one timestamp: ends, then complete slices
 * longest first, then the rest (a zero-length complete slice ranks with
 * the rest, in file order). */
static gint64
order_rank (const TraceEvent *ev)
{
  if (ev->kind == TRACE_EVENT_SLICE_END)
    return G_MININT64;
  if (ev->kind == TRACE_EVENT_SLICE_COMPLETE && ev->u.slice.dur > 0)
    return G_MAXINT64 - ev->u.slice.dur;
  return G_MAXINT64;
}

static gboolean
held_before (PerfettoWriter *w,
             const PerfettoHeld *a,
             const PerfettoHeld *b)
{
  if (a->ts != b->ts)
    return a->ts < b->ts;
  if (w->order_slow && a->ts >= w->order_sort_min_ts && a->rank != b->rank)
    return a->rank < b->rank;
  return (gint32) (a->seq - b->seq) < 0;
}

static void
heap_swap (PerfettoHeld *h,
           guint i,
           guint j)
{
  PerfettoHeld tmp = h[i];

  h[i] = h[j];
  h[j] = tmp;
}

static void
heap_sift_down (PerfettoWriter *w,
                guint i)
{
  PerfettoVec *heap = &w->order_heap;
  PerfettoHeld *h = (PerfettoHeld *) heap->data;

  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;

      if (l < heap->len && held_before (w, &h[l], &h[m]))
        m = l;
      if (r < heap->len && held_before (w, &h[r], &h[m]))
        m = r;
      if (m == i)
        break;
      heap_swap (h, i, m);
      i = m;
    }
}

static void
heap_push (PerfettoWriter *w,
           const PerfettoHeld *item)
{
  PerfettoVec *heap = &w->order_heap;
  PerfettoHeld *h;
  guint i;

  *(PerfettoHeld *) perfetto_vec_push_uninit (heap) = *item;
  h = (PerfettoHeld *) heap->data;
  for (i = heap->len - 1; i > 0 && held_before (w, &h[i], &h[(i - 1) / 2]); i = (i - 1) / 2)
    heap_swap (h, i, (i - 1) / 2);
}

static PerfettoHeld
heap_pop (PerfettoWriter *w)
{
  PerfettoVec *heap = &w->order_heap;
  PerfettoHeld *h = (PerfettoHeld *) heap->data;
  PerfettoHeld top = h[0];

  h[0] = h[heap->len - 1];
  heap->len--;
  heap_sift_down (w, 0);
  return top;
}

static guint32 store_event (PerfettoWriter *w, TraceBatch *batch, const TraceEvent *ev);

static PerfettoHeldBatch *
oldest_batch (PerfettoWriter *w)
{
  return perfetto_vec_at (&w->order_batches, PerfettoHeldBatch, w->order_batches_head);
}

/* One of the oldest batch's events left the run. */
static void
batch_event_done (PerfettoWriter *w)
{
  PerfettoHeldBatch *hb = oldest_batch (w);

  if (--hb->n_run > 0)
    return;
  trace_batch_unref (hb->batch);
  if (++w->order_batches_head == w->order_batches.len)
    w->order_batches.len = w->order_batches_head = 0;
  else if (w->order_batches_head >= 64)
    {
      /* a stream never without a batch kept: drop the taken part */
      memmove (w->order_batches.data, oldest_batch (w),
               (w->order_batches.len - w->order_batches_head) * sizeof (PerfettoHeldBatch));
      w->order_batches.len -= w->order_batches_head;
      w->order_batches_head = 0;
    }
}

/* The run's events still in their batches are copied into the store,
 * and the batches let go: the heap only holds stored events. */
static void
store_run (PerfettoWriter *w)
{
  PerfettoVec *run = &w->order_run;

  for (guint i = w->order_run_head; i < run->len; i++)
    {
      PerfettoHeld *h = perfetto_vec_at (run, PerfettoHeld, i);
      TraceBatch *batch;

      if (h->index & HELD_STORED)
        continue;
      batch = oldest_batch (w)->batch;
      h->index = store_event (w, batch, &batch->events[h->index]);
      batch_event_done (w);
    }
}

/* The order of same-timestamp events changed: the run may no longer be
 * sorted, so everything goes to the heap, which is heapified again. */
static void
heap_rebuild (PerfettoWriter *w)
{
  PerfettoVec *run = &w->order_run;

  store_run (w);
  for (guint i = w->order_run_head; i < run->len; i++)
    *(PerfettoHeld *) perfetto_vec_push_uninit (&w->order_heap) = *perfetto_vec_at (run, PerfettoHeld, i);
  run->len = 0;
  w->order_run_head = 0;
  for (guint i = w->order_heap.len / 2; i-- > 0;)
    heap_sift_down (w, i);
}

static guint
held_count (PerfettoWriter *w)
{
  return w->order_heap.len + w->order_run.len - w->order_run_head;
}

/* Whether @held goes to the run: it comes not before the run's last. */
static gboolean
goes_to_run (PerfettoWriter *w,
             const PerfettoHeld *held)
{
  PerfettoVec *run = &w->order_run;

  return run->len == w->order_run_head || !held_before (w, held, perfetto_vec_at (run, PerfettoHeld, run->len - 1));
}

/* Keeps @ev where it is, in @batch, for the run. Returns: its index
 * there, or HELD_STORED when the batch is not kept (too small, or too
 * many batches kept already). */
static guint32
keep_in_batch (PerfettoWriter *w,
               TraceBatch *batch,
               const TraceEvent *ev)
{
  PerfettoVec *batches = &w->order_batches;
  PerfettoHeldBatch *last = batches->len > w->order_batches_head ? perfetto_vec_at (batches, PerfettoHeldBatch, batches->len - 1) : NULL;

  if (last == NULL || last->batch != batch)
    {
      if (batch->n_events < PERFETTO_ORDER_MIN_BATCH ||
          batches->len - w->order_batches_head >= PERFETTO_ORDER_MAX_BATCHES)
        return HELD_STORED;
      last = perfetto_vec_push_uninit (batches);
      last->batch = trace_batch_ref (batch);
      last->n_run = 0;
    }
  last->n_run++;
  return (guint32) (ev - batch->events);
}

/* Takes the first waiting event: the run's first or the heap's top. */
static PerfettoHeld
take_first (PerfettoWriter *w)
{
  PerfettoVec *run = &w->order_run;
  PerfettoHeld first;

  if (run->len == w->order_run_head ||
      (w->order_heap.len > 0 &&
       held_before (w, perfetto_vec_at (&w->order_heap, PerfettoHeld, 0),
                    perfetto_vec_at (run, PerfettoHeld, w->order_run_head))))
    return heap_pop (w);
  first = *perfetto_vec_at (run, PerfettoHeld, w->order_run_head++);
  if (w->order_run_head == run->len)
    {
      run->len = 0;
      w->order_run_head = 0;
    }
  else if (w->order_run_head >= 4096 && w->order_run_head * 2 >= run->len)
    {
      /* what was taken is dropped in one move, not one per event */
      memmove (run->data, perfetto_vec_at (run, PerfettoHeld, w->order_run_head),
               (run->len - w->order_run_head) * sizeof (PerfettoHeld));
      run->len -= w->order_run_head;
      w->order_run_head = 0;
    }
  return first;
}

/* Follows trace_processor's sorter as it appends an event of the file:
 * a complete slice switches to the slow order (the switch comes before
 * the event's own check), an event not after the latest one (or at its
 * time, in the slow order) lowers the time from which it sorts. */
static void
follow_sorter (PerfettoWriter *w,
               const TraceEvent *ev)
{
  gboolean changed = FALSE;

  if (ev->kind == TRACE_EVENT_SLICE_COMPLETE && !w->order_slow)
    changed = w->order_slow = TRUE;
  if (ev->ts > w->order_max_ts || (!w->order_slow && ev->ts == w->order_max_ts))
    w->order_max_ts = ev->ts;
  else if (ev->ts < w->order_sort_min_ts)
    {
      w->order_sort_min_ts = ev->ts;
      changed = TRUE;
    }
  if (changed && held_count (w) > 1)
    heap_rebuild (w);
}

/**
 * perfetto_order_follow:
 * @w: a #PerfettoWriter
 * @ev: any event of the stream, in stream order
 *
 * For a JSON stream, takes @ev into account for the order of what
 * follows (see follow_sorter()).
 */
void
perfetto_order_follow (PerfettoWriter *w,
                       const TraceEvent *ev)
{
  /* V8 samples go to another stream of trace_processor's sorter. */
  if (w->opts.json_order && ev->kind != TRACE_EVENT_SAMPLE && ev->kind != TRACE_EVENT_STACK_NODE)
    follow_sorter (w, ev);
}

static void
remap_held (PerfettoVec *held,
            guint from,
            const guint32 *remap)
{
  for (guint i = from; i < held->len; i++)
    {
      PerfettoHeld *h = perfetto_vec_at (held, PerfettoHeld, i);

      if (h->index & HELD_STORED)
        h->index = remap[h->index & ~HELD_STORED] | HELD_STORED;
    }
}

/* Squeezes the written events (marked TRACE_EVENT_NONE by write_held())
 * with their args and texts out of the store, in place and in order,
 * and points the waiting events at their new places. */
static void
compact_store (PerfettoWriter *w)
{
  guint32 *remap;

  g_array_set_size (w->order_remap, w->order_store->n_events);
  remap = (guint32 *) w->order_remap->data;
  trace_batch_squeeze (w->order_store, remap);
  remap_held (&w->order_heap, 0, remap);
  remap_held (&w->order_run, w->order_run_head, remap);
}

/* Copies @ev (with its args and texts) into the store.
 * Returns: its index there, with HELD_STORED */
static guint32
store_event (PerfettoWriter *w,
             TraceBatch *batch,
             const TraceEvent *ev)
{
  guint32 index;

  if (w->order_store == NULL)
    w->order_store = trace_batch_new (batch->pool, 0);
  else if (w->order_store->n_events >= PERFETTO_ORDER_STORE_SIZE)
    compact_store (w);
  index = w->order_store->n_events;
  trace_batch_append_event (w->order_store, ev, batch);
  return index | HELD_STORED;
}

static void
write_held (PerfettoWriter *w,
            PerfettoHeld *held)
{
  w->order_last_ts = held->ts;
  w->order_released = TRUE;
  if (held->index & HELD_STORED)
    {
      TraceEvent *ev = &w->order_store->events[held->index & ~HELD_STORED];

      perfetto_write_track_event (w, w->order_store, ev);
      ev->kind = TRACE_EVENT_NONE;
      return;
    }
  /* from the run: the oldest batch kept holds it */
  perfetto_write_track_event (w, oldest_batch (w)->batch, &oldest_batch (w)->batch->events[held->index]);
  batch_event_done (w);
}

/**
 * perfetto_order_write:
 * @w: a #PerfettoWriter
 * @batch: the batch of @ev
 * @ev: a slice, instant, async, flow, counter or Chrome phase event
 *
 * Writes @ev now, or, for a JSON stream, once it is due in
 * trace_processor's order.
 */
void
perfetto_order_write (PerfettoWriter *w,
                      TraceBatch *batch,
                      const TraceEvent *ev)
{
  PerfettoHeld held;

  if (!w->opts.json_order)
    {
      perfetto_write_track_event (w, batch, ev);
      return;
    }
  if (ev->kind >= TRACE_EVENT_ASYNC_BEGIN && ev->kind <= TRACE_EVENT_ASYNC_INSTANT &&
      (ev->flags & TRACE_EVENT_FLAG_ASYNC_LEGACY))
    {
      /* trace_processor's JSON importer ignores Chrome's legacy async
       * phases (S T p F): what it reads from the file has none. */
      perfetto_writer_drop (w, &w->stats.ignored_json_legacy_async, 1, ev->ts, "legacy async event of a JSON stream dropped, as trace_processor ignores them");
      return;
    }
  held.ts = ev->ts;
  held.rank = order_rank (ev);
  if (w->order_released && held.ts < w->order_last_ts)
    {
      perfetto_writer_drop (w, &w->stats.late_events, 1, ev->ts, "event later than the JSON ordering window, written where it came");
      perfetto_write_track_event (w, batch, ev);
      return;
    }
  held.seq = w->order_seq++;
  if (goes_to_run (w, &held))
    {
      held.index = keep_in_batch (w, batch, ev);
      if (held.index == HELD_STORED)
        held.index = store_event (w, batch, ev);
      /* per event: an inline push (g_array_append_vals() was 1.5 % of a
       * JSON conversion) */
      *(PerfettoHeld *) perfetto_vec_push_uninit (&w->order_run) = held;
    }
  else
    {
      held.index = store_event (w, batch, ev);
      heap_push (w, &held);
    }
  if (held_count (w) > PERFETTO_ORDER_WINDOW)
    {
      PerfettoHeld first = take_first (w);

      write_held (w, &first);
    }
}

/**
 * perfetto_order_drain:
 * @w: a #PerfettoWriter
 * @error: where a failed write of the output says why
 *
 * Writes every event still waiting, in order (at the end of the stream),
 * handing the output on as it fills.
 *
 * Returns: %FALSE if writing the output failed
 */
gboolean
perfetto_order_drain (PerfettoWriter *w,
                      GError **error)
{
  while (held_count (w) > 0)
    {
      PerfettoHeld first = take_first (w);

      write_held (w, &first);
      /* the window's events would otherwise all be in the output buffer
       * at once (8 MiB for 65 536 events with args) */
      if (G_UNLIKELY (w->obuf.len >= w->flush_at) && !perfetto_writer_flush_output (w, error))
        return FALSE;
    }
  if (w->order_store)
    trace_batch_clear (w->order_store);
  return TRUE;
}

/**
 * perfetto_order_init:
 * @w: a new #PerfettoWriter
 *
 * Sets up the lists of waiting events (the heap and the run).
 */
void
perfetto_order_init (PerfettoWriter *w)
{
  perfetto_vec_init (&w->order_heap, sizeof (PerfettoHeld));
  perfetto_vec_init (&w->order_run, sizeof (PerfettoHeld));
  perfetto_vec_init (&w->order_batches, sizeof (PerfettoHeldBatch));
}

/**
 * perfetto_order_clear:
 * @w: a #PerfettoWriter
 *
 * Drops what still waits (the writer is freed unfinished).
 */
void
perfetto_order_clear (PerfettoWriter *w)
{
  w->order_heap.len = 0;
  w->order_run.len = 0;
  w->order_run_head = 0;
  for (guint i = w->order_batches_head; i < w->order_batches.len; i++)
    trace_batch_unref (perfetto_vec_at (&w->order_batches, PerfettoHeldBatch, i)->batch);
  w->order_batches.len = w->order_batches_head = 0;
  g_clear_pointer (&w->order_store, trace_batch_unref);
}
