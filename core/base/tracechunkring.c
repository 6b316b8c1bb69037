/* tracepipe - chunks of an input worked on by threads, taken back in order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The readers that parse on several threads (ftrace-src's lines,
 * json-src's events) share one shape: the reader's thread fills a chunk
 * with the next bytes of the input, a thread does the part of parsing
 * that depends on those bytes alone, and the reader's thread takes the
 * chunks back in input order for the part that depends on what came
 * before. The events and their order are then those of one thread by
 * construction. It lives in the core, beside tracesparework.c whose
 * lenders it feeds, so that every plugin reaches the same ring.
 *
 * A chunk is handed over with one lock taken to submit it and one to
 * take it back; workers hold the lock only to claim a chunk and to say
 * it is done, never while they work.
 */
#include "config.h"

#include "trace/trace.h"

/* Where a chunk is, between trace_chunk_ring_submit() and its release. */
typedef enum
{
  CHUNK_QUEUED,  /* submitted, no thread has started it */
  CHUNK_WORKING, /* a thread is at it */
  CHUNK_DONE,    /* its work is done */
  CHUNK_SKIPPED, /* the reader took it without its work */
} ChunkState;

struct _TraceChunkRing
{
  GMutex lock;
  GCond cond;
  GThread **workers;
  guint n_workers;
  guint spare_id; /* chunks offered to lenders (trace_spare_work_add()) */
  guint8 *chunks; /* n_ring structures of chunk_struct_size bytes */
  gsize chunk_struct_size;
  ChunkState *states; /* under the lock */
  guint n_ring;
  guint64 submitted; /* written under the lock, by the reader's thread */
  guint64 claimed;   /* under the lock: by the workers, lenders, reader */
  guint64 taken;     /* the reader's thread only */
  gboolean stop;
  TraceChunkRingFunc work, clear;
  gpointer user_data;
};

static gpointer
chunk_at (TraceChunkRing *ring,
          guint64 seq)
{
  return ring->chunks + (seq % ring->n_ring) * ring->chunk_struct_size;
}

/* The oldest chunk no thread has started, passing over those the reader
 * took; -1 when there is none. Called with the lock held. */
static gint
next_queued (TraceChunkRing *ring)
{
  while (ring->claimed < ring->submitted)
    {
      guint i = ring->claimed++ % ring->n_ring;

      if (ring->states[i] == CHUNK_QUEUED)
        return (gint) i;
    }
  return -1;
}

/* Works on chunk @i, which the caller just claimed; called and returns
 * with the lock held. */
static void
work_claimed (TraceChunkRing *ring,
              guint i)
{
  ring->states[i] = CHUNK_WORKING;
  g_mutex_unlock (&ring->lock);
  ring->work (ring->chunks + i * ring->chunk_struct_size, ring->user_data);
  g_mutex_lock (&ring->lock);
  ring->states[i] = CHUNK_DONE;
  g_cond_broadcast (&ring->cond);
}

static gpointer
worker_loop (gpointer data)
{
  TraceChunkRing *ring = data;

  g_mutex_lock (&ring->lock);
  for (;;)
    {
      gint i = -1;

      while (!ring->stop && (i = next_queued (ring)) < 0)
        g_cond_wait (&ring->cond, &ring->lock);
      if (ring->stop)
        break;
      work_claimed (ring, i);
    }
  g_mutex_unlock (&ring->lock);
  return NULL;
}

/* The piece of work offered to threads that lend their spare time (a
 * file sink's writer thread): one queued chunk. */
static gboolean
work_for_lender (gpointer data)
{
  TraceChunkRing *ring = data;
  gint i;

  g_mutex_lock (&ring->lock);
  i = ring->stop ? -1 : next_queued (ring);
  if (i >= 0)
    work_claimed (ring, i);
  g_mutex_unlock (&ring->lock);
  return i >= 0;
}

/**
 * trace_chunk_ring_new: (skip)
 * @thread_name: the name of the worker threads
 * @chunk_struct_size: the size of the reader's chunk structure
 * @n_workers: threads of the ring's own that work on chunks
 * @n_lenders: threads lending their spare time that may work on them
 * @work: (scope forever): the work done on a chunk, on any thread
 * @clear: (scope forever): frees what a chunk holds, at
 *   trace_chunk_ring_free()
 * @user_data: for @work and @clear
 * @error: where a thread that could not be started is said
 *
 * Starts the workers. The ring has one chunk per thread that works, one
 * being taken back and one being filled.
 *
 * Returns: (nullable) (transfer full): the ring, or %NULL with @error set
 *   when the system gives no thread (the reader then reads on its own)
 */
TraceChunkRing *
trace_chunk_ring_new (const char *thread_name,
                      gsize chunk_struct_size,
                      guint n_workers,
                      guint n_lenders,
                      TraceChunkRingFunc work,
                      TraceChunkRingFunc clear,
                      gpointer user_data,
                      GError **error)
{
  TraceChunkRing *ring;

  g_return_val_if_fail (chunk_struct_size > 0 && work != NULL, NULL);

  ring = g_new0 (TraceChunkRing, 1);
  g_mutex_init (&ring->lock);
  g_cond_init (&ring->cond);
  ring->n_ring = MAX (n_workers + n_lenders, 1) + 2;
  ring->chunk_struct_size = chunk_struct_size;
  ring->chunks = g_malloc0_n (ring->n_ring, chunk_struct_size);
  ring->states = g_new0 (ChunkState, ring->n_ring);
  ring->work = work;
  ring->clear = clear;
  ring->user_data = user_data;
  ring->workers = g_new0 (GThread *, n_workers);
  ring->spare_id = trace_spare_work_add (work_for_lender, ring);
  for (guint i = 0; i < n_workers; i++)
    {
      ring->workers[i] = g_thread_try_new (thread_name, worker_loop, ring, error);
      if (ring->workers[i] == NULL)
        {
          trace_chunk_ring_free (ring);
          return NULL;
        }
      ring->n_workers++;
    }
  return ring;
}

/**
 * trace_chunk_ring_free:
 * @ring: (nullable) (transfer full): a #TraceChunkRing
 *
 * Stops the workers (a chunk under way is finished first) and frees the
 * chunks, each through the @clear function given at creation.
 */
void
trace_chunk_ring_free (TraceChunkRing *ring)
{
  if (ring == NULL)
    return;
  g_mutex_lock (&ring->lock);
  ring->stop = TRUE;
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
  /* waits for a lender's chunk under way */
  trace_spare_work_remove (ring->spare_id);
  for (guint i = 0; i < ring->n_workers; i++)
    g_thread_join (ring->workers[i]);
  for (guint i = 0; ring->clear != NULL && i < ring->n_ring; i++)
    ring->clear (ring->chunks + i * ring->chunk_struct_size, ring->user_data);
  g_free (ring->chunks);
  g_free (ring->states);
  g_free (ring->workers);
  g_mutex_clear (&ring->lock);
  g_cond_clear (&ring->cond);
  g_free (ring);
}

/**
 * trace_chunk_ring_get_free:
 * @ring: a #TraceChunkRing
 *
 * The chunk to fill next, as the last reader that used it left it; the
 * reader's thread only.
 *
 * Returns: (nullable) (transfer none): the chunk, %NULL when every chunk
 *   is in use
 */
gpointer
trace_chunk_ring_get_free (TraceChunkRing *ring)
{
  if (ring->submitted - ring->taken == ring->n_ring)
    return NULL;
  return chunk_at (ring, ring->submitted);
}

/**
 * trace_chunk_ring_submit:
 * @ring: a #TraceChunkRing
 *
 * Hands the chunk trace_chunk_ring_get_free() returned on to the threads
 * that work; the reader's thread only.
 */
void
trace_chunk_ring_submit (TraceChunkRing *ring)
{
  g_mutex_lock (&ring->lock);
  ring->states[ring->submitted % ring->n_ring] = CHUNK_QUEUED;
  ring->submitted++;
  g_cond_broadcast (&ring->cond);
  g_mutex_unlock (&ring->lock);
  trace_spare_work_notify ();
}

/**
 * trace_chunk_ring_peek:
 * @ring: a #TraceChunkRing
 * @unstarted: what to do when no thread has started the chunk yet
 * @skipped: (out) (optional): whether the chunk is taken without its work
 *
 * The oldest chunk submitted, once its work is done (or skipped); the
 * reader's thread only. It stays the oldest until
 * trace_chunk_ring_release().
 *
 * Returns: (nullable) (transfer none): the chunk, %NULL when none is in use
 */
gpointer
trace_chunk_ring_peek (TraceChunkRing *ring,
                       TraceChunkRingUnstarted unstarted,
                       gboolean *skipped)
{
  guint i = ring->taken % ring->n_ring;

  if (skipped != NULL)
    *skipped = FALSE;
  if (ring->taken == ring->submitted)
    return NULL;
  g_mutex_lock (&ring->lock);
  if (ring->states[i] == CHUNK_QUEUED && unstarted == TRACE_CHUNK_RING_WORK_HERE)
    work_claimed (ring, i);
  else if (ring->states[i] == CHUNK_QUEUED && unstarted == TRACE_CHUNK_RING_SKIP)
    {
      ring->states[i] = CHUNK_SKIPPED;
      if (skipped != NULL)
        *skipped = TRUE;
    }
  while (ring->states[i] == CHUNK_QUEUED || ring->states[i] == CHUNK_WORKING)
    g_cond_wait (&ring->cond, &ring->lock);
  g_mutex_unlock (&ring->lock);
  return ring->chunks + i * ring->chunk_struct_size;
}

/**
 * trace_chunk_ring_release:
 * @ring: a #TraceChunkRing
 *
 * The oldest chunk is used up: it can be filled again.
 */
void
trace_chunk_ring_release (TraceChunkRing *ring)
{
  g_return_if_fail (ring->taken < ring->submitted);

  ring->taken++;
}
