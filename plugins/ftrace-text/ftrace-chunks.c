/* tracepipe - ftrace reader: preparing lines on worker threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ftrace-text-private.h"

/* Chunks of whole lines go round a ring: the reader's thread fills one
 * with the bytes of a block read from the input, a worker cuts it into
 * lines and runs ftrace_line_prepare() on each (the part of parsing that
 * depends on a line's bytes only), and the reader's thread takes the
 * prepared lines back in ring order, i.e. file order, for the part that
 * depends on the lines before. Workers never touch the parser, the
 * string pool or a batch, so the events and their order are those of a
 * run on one thread by construction. The ring has a fixed number of
 * chunks, each reused: memory does not grow with the input. */

static void
prepare_chunk (FtraceChunk *c)
{
  const char *p = c->data, *end = c->data + c->len;

  c->n_lines = 0;
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);
      FtraceChunkLine *line;

      g_assert (nl != NULL); /* a chunk holds whole lines */
      if (c->n_lines == c->lines_cap)
        {
          c->lines_cap = MAX (c->lines_cap * 2, 1024);
          c->lines = g_renew (FtraceChunkLine, c->lines, c->lines_cap);
        }
      line = &c->lines[c->n_lines++];
      line->raw_len = nl - p;
      line->slice = (guint32) ((nl - c->data - c->block_offset) / FTRACE_SLICE_SIZE);
      if (line->raw_len <= FTRACE_MAX_LINE_LENGTH)
        ftrace_line_prepare (p, nl - p, &line->prep);
      p = nl + 1;
    }
}

/* Prepares the oldest chunk no one has claimed; called and returns with
 * the lock held. */
static void
prepare_next (FtraceChunks *cs)
{
  FtraceChunk *c = &cs->ring[cs->claimed++ % cs->n_ring];

  g_mutex_unlock (&cs->lock);
  if (c->kind == FTRACE_CHUNK_LINES)
    prepare_chunk (c);
  g_mutex_lock (&cs->lock);
  c->prepared = TRUE;
  g_cond_broadcast (&cs->cond);
}

static gpointer
worker_loop (gpointer data)
{
  FtraceChunks *cs = data;

  g_mutex_lock (&cs->lock);
  for (;;)
    {
      while (cs->claimed == cs->submitted && !cs->stop)
        g_cond_wait (&cs->cond, &cs->lock);
      if (cs->stop)
        break;
      prepare_next (cs);
    }
  g_mutex_unlock (&cs->lock);
  return NULL;
}

/* The piece of work offered to threads that lend their spare time
 * (a file sink's writer thread): one submitted chunk prepared. */
static gboolean
prepare_for_lender (gpointer data)
{
  FtraceChunks *cs = data;
  gboolean any;

  g_mutex_lock (&cs->lock);
  any = cs->claimed < cs->submitted && !cs->stop;
  if (any)
    prepare_next (cs);
  g_mutex_unlock (&cs->lock);
  return any;
}

/**
 * ftrace_chunks_new:
 * @n_workers: threads of our own that prepare lines
 * @n_lenders: threads lending their spare time that may prepare them
 *   (at least one of the two)
 *
 * Returns: (nullable): the ring with its workers started, %NULL when the
 *   system gives no thread (the reader then parses on its own thread)
 */
FtraceChunks *
ftrace_chunks_new (guint n_workers,
                   guint n_lenders)
{
  FtraceChunks *cs = g_new0 (FtraceChunks, 1);

  g_mutex_init (&cs->lock);
  g_cond_init (&cs->cond);
  /* one chunk per preparing thread, one being taken back, one being filled */
  cs->n_ring = MAX (n_workers + n_lenders, 1) + 2;
  cs->ring = g_new0 (FtraceChunk, cs->n_ring);
  cs->workers = g_new0 (GThread *, n_workers);
  cs->spare_id = trace_spare_work_add (prepare_for_lender, cs);
  for (guint i = 0; i < n_workers; i++)
    {
      g_autoptr (GError) error = NULL;

      cs->workers[i] = g_thread_try_new ("ftrace-lines", worker_loop, cs, &error);
      if (cs->workers[i] == NULL)
        {
          g_debug ("no worker thread for ftrace lines (%s): parsing on one thread", error->message);
          ftrace_chunks_free (cs);
          return NULL;
        }
      cs->n_workers++;
    }
  return cs;
}

void
ftrace_chunks_free (FtraceChunks *cs)
{
  if (cs == NULL)
    return;
  g_mutex_lock (&cs->lock);
  cs->stop = TRUE;
  g_cond_broadcast (&cs->cond);
  g_mutex_unlock (&cs->lock);
  /* waits for a lender's chunk under way */
  trace_spare_work_remove (cs->spare_id);
  for (guint i = 0; i < cs->n_workers; i++)
    g_thread_join (cs->workers[i]);
  for (guint i = 0; i < cs->n_ring; i++)
    {
      g_free (cs->ring[i].data);
      g_free (cs->ring[i].lines);
      g_clear_error (&cs->ring[i].error);
    }
  g_free (cs->ring);
  g_free (cs->workers);
  g_mutex_clear (&cs->lock);
  g_cond_clear (&cs->cond);
  g_free (cs);
}

/* The chunk to fill next, or NULL when every chunk is in use. */
FtraceChunk *
ftrace_chunks_get_free (FtraceChunks *cs)
{
  FtraceChunk *c;

  if (cs->submitted - cs->taken == cs->n_ring)
    return NULL;
  c = &cs->ring[cs->submitted % cs->n_ring];
  c->len = 0;
  c->n_lines = 0;
  c->prepared = FALSE;
  c->kind = FTRACE_CHUNK_LINES;
  g_clear_error (&c->error);
  return c;
}

/* Hands the chunk ftrace_chunks_get_free() returned on to the workers
 * (one that is no LINES chunk is passed on as it is). */
void
ftrace_chunks_submit (FtraceChunks *cs,
                      FtraceChunk *c)
{
  g_mutex_lock (&cs->lock);
  cs->submitted++;
  g_cond_broadcast (&cs->cond);
  g_mutex_unlock (&cs->lock);
  trace_spare_work_notify ();
}

/* The oldest chunk submitted, once prepared; NULL when none is in use.
 * Without workers of our own, one that no lender has started yet is
 * prepared here rather than waited for (the lender may be busy with its
 * own work for a while); a worker is waited for, as taking its chunks
 * made `threads=2 ! fakesink` a fifth slower. */
FtraceChunk *
ftrace_chunks_peek (FtraceChunks *cs)
{
  FtraceChunk *c;

  if (cs->taken == cs->submitted)
    return NULL;
  c = &cs->ring[cs->taken % cs->n_ring];
  g_mutex_lock (&cs->lock);
  if (cs->n_workers == 0 && cs->claimed == cs->taken)
    prepare_next (cs);
  while (!c->prepared)
    g_cond_wait (&cs->cond, &cs->lock);
  g_mutex_unlock (&cs->lock);
  return c;
}

/* The oldest chunk is used up: it can be filled again. */
void
ftrace_chunks_release (FtraceChunks *cs)
{
  g_assert (cs->taken < cs->submitted);
  cs->taken++;
}

gboolean
ftrace_chunks_is_empty (FtraceChunks *cs)
{
  return cs->taken == cs->submitted;
}
