/* tracepipe - ftrace reader: plain text parsed with worker threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ftrace-text-private.h"

/* The reader's side of ftrace-chunks.c. Blocks are read as on one thread
 * (same sizes, same calls), each block with the unfinished line before it
 * becomes a chunk of whole lines, and the prepared lines are taken back
 * in order; a batch ends where ftrace_reader_fill_batch() would end it
 * (between slices of a block), so the batches are the same too.
 *
 * What the splitter does besides cutting lines is left to it: from a
 * block holding a NUL byte, or a line over FTRACE_MAX_LINE_LENGTH across
 * blocks, on, the rest of the input is read on the reader's thread alone
 * (a SERIAL chunk hands it over with the line numbers so far). HTML is
 * never read with workers: its lines are decoded on the way. */

#define SLICE_KEY_END G_MAXUINT64

void
ftrace_reader_start_chunks (FtraceReader *r)
{
  /* the threads that parse: the reader's, those lending their spare time
   * (a file sink's writer thread), workers of our own for the rest */
  guint n_lenders = MIN (trace_spare_work_get_n_lenders (), r->n_threads - 1);
  guint n_workers = MIN (r->n_threads - 1 - n_lenders, FTRACE_MAX_WORKERS);

  r->chunks = ftrace_chunks_new (n_workers, n_lenders);
  if (r->chunks == NULL)
    return;
  /* Without workers of our own, a chunk no lender has started yet is
   * prepared here rather than waited for (the lender may be busy with
   * its own work for a while); a worker is waited for, as taking its
   * chunks made `threads=2 ! fakesink` a fifth slower. */
  r->unstarted = n_workers == 0 ? TRACE_CHUNK_RING_WORK_HERE : TRACE_CHUNK_RING_WAIT;
  r->carry = g_malloc (FTRACE_MAX_LINE_LENGTH);
  r->parallel = TRUE;
  r->slice_key = SLICE_KEY_END - 1;
  g_debug ("%s: plain text: lines prepared by %u worker thread%s and %u thread%s lending spare time", r->location,
           n_workers, n_workers != 1 ? "s" : "", n_lenders, n_lenders != 1 ? "s" : "");
}

/* The chunk is the whole rest of the input from its start: the splitter
 * takes over. */
static void
mark_serial (FtraceReader *r,
             FtraceChunk *c,
             gsize got)
{
  c->kind = FTRACE_CHUNK_SERIAL;
  c->len = r->carry_len + got;
  c->block_len = got;
  r->read_done = TRUE;
}

/* Cuts the block just read (@got bytes after the unfinished line in
 * @c) after its last newline; the rest is the new unfinished line. */
static void
cut_block (FtraceReader *r,
           FtraceChunk *c,
           gsize got)
{
  const char *block = c->data + c->block_offset;
  const char *last_nl;
  gsize tail;

  if (memchr (block, '\0', got) != NULL)
    {
      mark_serial (r, c, got);
      return;
    }
  last_nl = memrchr (block, '\n', got);
  tail = last_nl ? (gsize) (block + got - (last_nl + 1)) : r->carry_len + got;
  if (tail > FTRACE_MAX_LINE_LENGTH)
    mark_serial (r, c, got);
  else if (last_nl == NULL)
    {
      /* a short read inside a line: no line ends in this block */
      memcpy (r->carry + r->carry_len, block, got);
      r->carry_len += got;
      c->len = 0;
    }
  else
    {
      c->len = last_nl + 1 - c->data;
      memcpy (r->carry, last_nl + 1, tail);
      r->carry_len = tail;
    }
}

/* Reads the next block into a free chunk and submits it; FALSE when no
 * chunk is free. */
static gboolean
read_chunk (FtraceReader *r)
{
  FtraceChunk *c = trace_chunk_ring_get_free (r->chunks);
  gssize got;

  if (c == NULL)
    return FALSE;
  c->len = 0;
  c->n_lines = 0;
  c->kind = FTRACE_CHUNK_LINES;
  g_clear_error (&c->error);
  if (c->cap < FTRACE_MAX_LINE_LENGTH + FTRACE_BLOCK_SIZE)
    {
      c->cap = FTRACE_MAX_LINE_LENGTH + FTRACE_BLOCK_SIZE;
      c->data = g_realloc (c->data, c->cap);
    }
  memcpy (c->data, r->carry, r->carry_len);
  c->block_offset = r->carry_len;
  c->block_seq = r->block_seq++;
  got = ftrace_input_read (r->input, (guint8 *) c->data + r->carry_len, FTRACE_BLOCK_SIZE, &c->error);
  if (got <= 0)
    {
      c->kind = got < 0 ? FTRACE_CHUNK_ERROR : FTRACE_CHUNK_END;
      c->len = r->carry_len;
      r->read_done = TRUE;
    }
  else
    {
      r->read_offset += got;
      cut_block (r, c, got);
    }
  trace_chunk_ring_submit (r->chunks);
  return TRUE;
}

/* Whether the batch must end before lines of slice @key are taken: where
 * ftrace_reader_fill_batch() checks it, before each slice. */
static gboolean
batch_ends_before (FtraceReader *r,
                   guint64 key)
{
  if (key == r->slice_key)
    return FALSE;
  if (r->batch->n_events >= TRACE_BATCH_DEFAULT_SIZE)
    return TRUE;
  r->slice_key = key;
  return FALSE;
}

static void
take_line (FtraceReader *r,
           FtraceChunkLine *line)
{
  ftrace_parser_set_line_number (r->parser, ++r->lines);
  if (line->raw_len > FTRACE_MAX_LINE_LENGTH)
    ftrace_parser_skip_line (r->parser, FTRACE_PROBLEM_LINE_TOO_LONG);
  else
    ftrace_parser_parse_prepared (r->parser, &line->prep, r->batch);
}

/* Takes the prepared lines of @c from where the last batch ended; FALSE
 * when the batch is full first. */
static gboolean
take_lines (FtraceReader *r,
            FtraceChunk *c)
{
  for (; r->next_line < c->n_lines; r->next_line++)
    {
      FtraceChunkLine *line = &c->lines[r->next_line];

      if (batch_ends_before (r, (c->block_seq << 5) | line->slice))
        return FALSE;
      take_line (r, line);
    }
  r->next_line = 0;
  return TRUE;
}

/* The end of the input: its last line if it has no newline, then what
 * the single-threaded reader does at the end. */
static gboolean
take_end (FtraceReader *r,
          FtraceChunk *c,
          GError **error)
{
  const FtraceStats *st = ftrace_parser_get_stats (r->parser);

  if (c->len > 0)
    {
      FtraceChunkLine last = { .raw_len = c->len };

      ftrace_line_prepare (c->data, c->len, &last.prep);
      take_line (r, &last);
    }
  r->finished = TRUE;
  g_debug ("%s: end of input: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " lines, %" G_GUINT64_FORMAT
           " trace lines, %" G_GUINT64_FORMAT " events so far",
           r->location, ftrace_reader_get_bytes_read (r), st->lines, st->trace_lines, st->events);
  return ftrace_reader_finish_input (r, error);
}

/* From @c on the splitter reads the input, as if it had from the start:
 * it gets the unfinished line and the line number, the reader the block. */
static void
hand_over (FtraceReader *r,
           FtraceChunk *c)
{
  r->parallel = FALSE;
  r->fed = r->read_offset - c->len;
  r->splitter.line_no = r->lines;
  g_debug ("%s: byte %" G_GUINT64_FORMAT ": a NUL byte or a line over %d bytes: the rest is read on one thread",
           r->location, r->fed, FTRACE_MAX_LINE_LENGTH);
  if (c->block_offset > 0)
    ftrace_reader_feed_text (r, c->data, c->block_offset);
  memcpy (r->block, c->data + c->block_offset, c->block_len);
  r->block_len = c->block_len;
  r->block_pos = 0;
}

/**
 * ftrace_reader_fill_batch_chunks:
 *
 * ftrace_reader_fill_batch() with the lines prepared by workers.
 *
 * Returns: %FALSE on error
 */
gboolean
ftrace_reader_fill_batch_chunks (FtraceReader *r,
                                 GError **error)
{
  guint64 taken = 0; /* bytes of the chunks done in this call */

  while (!r->finished)
    {
      FtraceChunk *c;

      while (!r->read_done && read_chunk (r))
        ;
      c = trace_chunk_ring_peek (r->chunks, r->unstarted, NULL);
      g_assert (c != NULL);
      switch (c->kind)
        {
        case FTRACE_CHUNK_LINES:
          if (!take_lines (r, c))
            return TRUE;
          taken += c->len;
          trace_chunk_ring_release (r->chunks);
          if (taken >= TRACE_BATCH_MAX_INPUT_BYTES)
            return TRUE; /* lines that yield nothing: back to the main loop */
          break;
        case FTRACE_CHUNK_END:
          if (batch_ends_before (r, SLICE_KEY_END))
            return TRUE;
          trace_chunk_ring_release (r->chunks);
          return take_end (r, c, error);
        case FTRACE_CHUNK_ERROR:
          if (batch_ends_before (r, SLICE_KEY_END))
            return TRUE;
          trace_chunk_ring_release (r->chunks);
          g_propagate_error (error, g_steal_pointer (&c->error));
          return FALSE;
        case FTRACE_CHUNK_SERIAL:
        default:
          hand_over (r, c);
          trace_chunk_ring_release (r->chunks);
          return ftrace_reader_fill_batch (r, error);
        }
    }
  return TRUE;
}
