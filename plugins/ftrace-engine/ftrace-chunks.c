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
 * run on one thread by construction. The ring is the core's
 * #TraceChunkRing, which json-src's events go round too. */

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

/* The ring's work: a LINES chunk cut and prepared (others pass on as
 * they are). */
static void
prepare_any_chunk (gpointer chunk,
                   gpointer user_data)
{
  FtraceChunk *c = chunk;

  if (c->kind == FTRACE_CHUNK_LINES)
    prepare_chunk (c);
}

static void
clear_chunk (gpointer chunk,
             gpointer user_data)
{
  FtraceChunk *c = chunk;

  g_free (c->data);
  g_free (c->lines);
  g_clear_error (&c->error);
}

/**
 * ftrace_chunks_new:
 * @n_workers: threads of our own that prepare lines
 * @n_lenders: threads lending their spare time that may prepare them
 *   (at least one of the two)
 *
 * Returns: (nullable): the ring of #FtraceChunk with its workers started,
 *   %NULL when the system gives no thread (the reader then parses on its
 *   own thread)
 */
TraceChunkRing *
ftrace_chunks_new (guint n_workers,
                   guint n_lenders)
{
  g_autoptr (GError) error = NULL;
  TraceChunkRing *ring = trace_chunk_ring_new ("ftrace-lines", sizeof (FtraceChunk), n_workers, n_lenders,
                                               prepare_any_chunk, clear_chunk, NULL, &error);

  if (ring == NULL)
    g_debug ("no worker thread for ftrace lines (%s): parsing on one thread", error->message);
  return ring;
}
