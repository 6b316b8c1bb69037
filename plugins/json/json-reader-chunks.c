/* tracepipe - json plugin: the events of traceEvents scanned on worker
 * threads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Once the reader is inside the traceEvents array and the input is more
 * than its first block, it reads the rest of the input into a ring of
 * chunks (the core's #TraceChunkRing, which ftrace-src's lines go round
 * too) and hands each to a worker. A worker cannot know where events
 * start in its chunk (a `}` may be inside a string), so it guesses: from
 * the first `}` `,` `{` of the chunk it scans events with
 * chrome_event_scan_fields() (which depends on an event's bytes alone)
 * until one does not scan whole, into a table of their fields; when they
 * end early (the guess was in an array of objects) it guesses again after
 * them and keeps the run that covers most of the chunk.
 *
 * The reader's thread goes on exactly as with one thread, its buffer
 * filled from the chunks instead of the input. When it stands between two
 * events of traceEvents just after the `}` the worker started behind
 * (the chunk's anchor), the worker's guess was right: what the reader
 * would do next is scan the same bytes the same way, so it takes the
 * worker's fields instead, converts them (interning, ids, order: all
 * that depends on the events before) and jumps to where the worker
 * stopped. If it goes past the anchor without standing on it (the `}`
 * was in a string, or the array had ended), the worker's work is thrown
 * away and the chunk is read as with one thread. Either way the events,
 * the counters and the messages are those of one thread, whatever the
 * input; only the speed depends on the guess.
 */
#include "config.h"

#include <string.h>

#include "json-reader-private.h"

/* What a worker may record per chunk: events of 64 bytes on average
 * (~500 bytes of fields each). A chunk of smaller events is scanned up
 * to there, the rest by the reader's thread. */
static guint
max_events (gsize chunk_size)
{
  return chunk_size / 64 + 16;
}

/* ------------------------------------------------------------------ */
/* The workers                                                         */

/* Just after the '}' of the first `}` `,` `{` at or after @from in the
 * chunk (*brace: the '{'), or G_MAXSIZE. */
static gsize
find_anchor (const char *data,
             gsize len,
             gsize from,
             gsize *brace)
{
  const char *p = data + from, *end = data + len;

  while ((p = memchr (p, '}', end - p)) != NULL)
    {
      const char *q = chrome_skip_ws (p + 1, end);

      if (q < end && *q == ',')
        {
          q = chrome_skip_ws (q + 1, end);
          if (q < end && *q == '{')
            {
              *brace = q - data;
              return p + 1 - data;
            }
        }
      p++;
    }
  return G_MAXSIZE;
}

/* The slot for the next event, NULL when the chunk has its most. */
static ChromeScannedEvent *
next_slot (ChromeChunk *c,
           gsize chunk_size)
{
  if (c->n_events == max_events (chunk_size))
    return NULL;
  if (c->n_events == c->events_cap)
    {
      c->events_cap = MIN (MAX (c->events_cap * 2, 256), max_events (chunk_size));
      c->events = g_renew (ChromeScannedEvent, c->events, c->events_cap);
    }
  return &c->events[c->n_events];
}

/* Scans events from the first anchor at or after @from on, as the reader
 * would scan the elements of traceEvents, until one does not scan whole.
 * Returns TRUE when the events stopped before the chunk's end at
 * something that is not an element of traceEvents: the anchor was inside
 * an array of objects in some event's args, whose ']' ended the run. */
static gboolean
scan_from_anchor (ChromeChunk *c,
                  gsize from,
                  int depth,
                  gsize chunk_size)
{
  const char *end = c->data + c->len;
  const char *p;
  gsize brace = 0;

  c->n_events = 0;
  c->scanned_end = 0;
  c->anchor = find_anchor (c->data, c->len, from, &brace);
  if (c->anchor == G_MAXSIZE)
    return FALSE;
  p = c->data + brace;
  for (;;)
    {
      ChromeScannedEvent *ev = next_slot (c, chunk_size);
      ChromeScanner s;
      ChromeScanResult res;
      const char *q;

      if (ev == NULL)
        return FALSE;
      /* the slot a few events on, last read by the reader's thread on
       * the other core: taken back for writing now, not at its memset */
      if (c->n_events + 4 < c->events_cap)
        for (gsize line = 0; line < sizeof (ChromeScannedEvent); line += 64)
          __builtin_prefetch ((const char *) &c->events[c->n_events + 4] + line, 1);
      chrome_scanner_init (&s, p, end);
      res = chrome_event_scan_fields (&s, depth, &ev->f);
      if (res != CHROME_SCAN_OK)
        return res != CHROME_SCAN_INCOMPLETE;
      ev->start = p - c->data;
      c->n_events++;
      c->scanned_end = s.p - c->data;
      q = chrome_skip_ws (s.p, end);
      if (q == end)
        return FALSE;
      if (*q != ',')
        return TRUE;
      q = chrome_skip_ws (q + 1, end);
      if (q == end)
        return FALSE;
      if (*q != '{')
        return TRUE;
      p = q;
    }
}

/* How many anchors a worker tries in a chunk before it leaves the chunk
 * to the reader's thread. */
#define MAX_GUESSES 8

/* Scans the chunk's events from the anchor that covers most of it: a
 * guess whose events end early (at a ']' or a malformed element) is
 * tried again after them, and the longest run of events is kept. A
 * Chrome stackTrace, an array of objects, made one chunk in twenty of a
 * real trace a wrong guess, read by the reader's thread alone. */
static void
scan_chunk (ChromeChunk *c,
            int depth,
            gsize chunk_size)
{
  gsize from = 0, best_from = 0, best_cover = 0, cover = 0;
  gboolean early = TRUE;

  for (guint i = 0; i < MAX_GUESSES && early; i++)
    {
      early = scan_from_anchor (c, from, depth, chunk_size);
      cover = c->n_events > 0 ? c->scanned_end - c->anchor : 0;
      if (cover > best_cover)
        {
          best_cover = cover;
          best_from = from;
        }
      from = c->n_events > 0 ? c->scanned_end : c->anchor;
    }
  /* a later guess covered less: the best one again */
  if (cover < best_cover)
    scan_from_anchor (c, best_from, depth, chunk_size);
  if (c->n_events == 0)
    c->anchor = G_MAXSIZE; /* nothing to take */
}

/* The ring's work: one chunk scanned. */
static void
scan_any_chunk (gpointer chunk,
                gpointer user_data)
{
  ChromeChunks *cs = user_data;

  scan_chunk (chunk, cs->depth, cs->chunk_size);
}

static void
clear_chunk (gpointer chunk,
             gpointer user_data)
{
  ChromeChunk *c = chunk;

  g_free (c->buffer);
  g_free (c->events);
  g_clear_error (&c->error);
}

static void
chunks_free (ChromeChunks *cs)
{
  trace_chunk_ring_free (cs->ring);
  g_free (cs);
}

/* NULL when the system gives no thread: the reader reads on alone. */
static ChromeChunks *
chunks_new (guint n_workers,
            guint n_lenders,
            gsize chunk_size,
            int depth)
{
  ChromeChunks *cs = g_new0 (ChromeChunks, 1);
  g_autoptr (GError) error = NULL;

  cs->chunk_size = chunk_size;
  cs->depth = depth;
  cs->ring = trace_chunk_ring_new ("json-events", sizeof (ChromeChunk), n_workers, n_lenders, scan_any_chunk,
                                   clear_chunk, cs, &error);
  if (cs->ring == NULL)
    {
      g_debug ("no worker thread for JSON events (%s): reading on one thread", error->message);
      g_free (cs);
      return NULL;
    }
  return cs;
}

/* ------------------------------------------------------------------ */
/* The reader's thread                                                 */

/**
 * chrome_reader_set_threads:
 * @threads: threads that parse (1: the reader's own only)
 *
 * Call before the first batch. The environment variable
 * TRACEPIPE_JSON_CHUNK_SIZE (bytes, for tests only) makes the chunks and
 * the first read that small, so small inputs are split too.
 */
void
chrome_reader_set_threads (ChromeReader *r,
                           guint threads)
{
  const char *env = g_getenv ("TRACEPIPE_JSON_CHUNK_SIZE");

  g_return_if_fail (r != NULL && r->stats.bytes == 0);

  r->n_threads = MAX (threads, 1);
  r->chunk_size = CHROME_CHUNK_SIZE;
  if (env != NULL)
    {
      guint64 size = g_ascii_strtoull (env, NULL, 10);

      if (size >= 16 && size <= 64 * CHROME_CHUNK_SIZE)
        r->chunk_size = size;
    }
  if (r->chunk_size < r->cap)
    {
      r->cap = r->chunk_size;
      r->buf = g_realloc (r->buf, r->cap);
    }
}

/* Reads the next bytes of the input into @c's buffer; returns how many. */
static gsize
read_into_buffer (ChromeReader *r,
                  ChromeChunk *c)
{
  gsize chunk_size = r->chunks->chunk_size;
  GError *io_error = NULL;
  gsize n = 0;

  if (c->buffer == NULL)
    c->buffer = g_malloc (chunk_size);
  c->data = c->buffer;
  if (g_input_stream_read_all (r->in, c->buffer, chunk_size, &n, NULL, &io_error))
    return n;
  /* what one thread does: a cut gzip stream keeps what it gave, any
   * other error drops the read it happened in */
  if (g_error_matches (io_error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT))
    g_error_free (io_error);
  else
    {
      c->error = io_error;
      n = 0;
    }
  c->last = TRUE;
  return n;
}

/* Reads the next chunk of the input and hands it to the workers; FALSE
 * when every chunk is in use. */
static gboolean
read_chunk (ChromeReader *r)
{
  ChromeChunks *cs = r->chunks;
  ChromeChunk *c = trace_chunk_ring_get_free (cs->ring);
  gsize n;

  if (c == NULL)
    return FALSE;
  c->offset = r->chunks_offset;
  g_clear_error (&c->error);
  c->last = FALSE;
  c->n_events = 0;
  c->anchor = G_MAXSIZE;
  if (r->map != NULL)
    {
      /* in place: no copy, and no read to fail (a file cut short reads
       * as zeros, and the source says so) */
      n = MIN (cs->chunk_size, r->map_size - r->chunks_offset);
      c->data = r->map + r->chunks_offset;
    }
  else
    n = read_into_buffer (r, c);
  if (n < cs->chunk_size)
    c->last = TRUE;
  c->len = MIN (n, cs->chunk_size);
  r->chunks_offset += c->len;
  r->stats.bytes += c->len;
  r->chunks_read_done = c->last;
  trace_chunk_ring_submit (cs->ring);
  return TRUE;
}

/* The rest of the input is read in place when the source has it mapped
 * (a regular file read as it is): the copy of every byte into the chunks
 * was a seventh of the reader's thread, where the kernel copies into a
 * buffer another core read last (docs/performance.md). The stream's
 * offsets are the file's then: the chunks go on from where the reader
 * is. */
static void
map_input (ChromeReader *r)
{
  gsize size = 0;
  const char *map;

  if (r->input_map == NULL)
    return;
  map = (const char *) trace_input_map_get_data (r->input_map, &size);
  if (map == NULL || r->chunks_offset > size)
    return;
  r->map = map;
  r->map_size = size;
  g_debug ("%s: byte %" G_GUINT64_FORMAT ": the rest of the input (to byte %" G_GSIZE_FORMAT ") read in place",
           r->location, r->chunks_offset, size);
}

/**
 * chrome_reader_maybe_start_chunks:
 *
 * Starts the workers when the reader is in traceEvents, has read its
 * first block and may use more than one thread (once: whatever comes of
 * it, it is not tried again).
 *
 * Returns: whether the rest of the input is read through chunks
 */
gboolean
chrome_reader_maybe_start_chunks (ChromeReader *r)
{
  guint n_lenders, n_workers;

  if (r->n_threads < 2 || r->state != FRAME_CONTAINER || r->role != ROLE_EVENTS || r->stats.bytes == 0)
    return FALSE;
  /* The threads that parse: the reader's, those lending their spare
   * time (a file sink's writer thread, between its batches), and
   * workers of our own for the rest. A worker more than the cores was
   * worse than none: on two cores, the reader and a worker took turns on
   * one core while the writer's idled (docs/performance.md). */
  n_lenders = MIN (trace_spare_work_get_n_lenders (), r->n_threads - 1);
  n_workers = MIN (r->n_threads - 1 - n_lenders, CHROME_MAX_WORKERS);
  r->n_threads = 1;
  r->chunks = chunks_new (n_workers, n_lenders, r->chunk_size, r->top_is_object ? 3 : 2);
  if (r->chunks == NULL)
    return FALSE;
  r->chunks_offset = r->base + r->len;
  map_input (r);
  r->head_pos = 0;
  r->head_state = CHUNK_PENDING;
  g_debug ("%s: byte %" G_GUINT64_FORMAT ": traceEvents scanned by %u worker thread%s and %u thread%s lending spare "
           "time, in chunks of %" G_GSIZE_FORMAT " bytes",
           r->location, r->chunks_offset, n_workers, n_workers != 1 ? "s" : "", n_lenders, n_lenders != 1 ? "s" : "",
           r->chunk_size);
  return TRUE;
}

/* The oldest chunk in use, once its worker is done; NULL when none is.
 * A chunk no worker has started yet is read by the reader's thread
 * alone rather than waited for: scanning it costs that thread what
 * waiting would, and the wait would leave a core idle (on two cores the
 * reader, a worker and perfetto-sink's writer take turns); a patient
 * reader waits. */
static ChromeChunk *
head (ChromeReader *r)
{
  gboolean stolen;

  r->head = trace_chunk_ring_peek (r->chunks->ring, r->chunks_patient ? TRACE_CHUNK_RING_WAIT : TRACE_CHUNK_RING_SKIP,
                                   &stolen);
  if (stolen)
    r->chunks_stolen++;
  return r->head;
}

/* The reader did not stand on the anchor: the worker's events are not
 * the reader's. */
static void
miss (ChromeReader *r,
      ChromeChunk *c)
{
  if (r->head_state == CHUNK_PENDING && c->n_events > 0)
    {
      r->chunks_missed++;
      g_debug ("%s: byte %" G_GUINT64_FORMAT ": not between two events as guessed: the chunk is read on one thread",
               r->location, c->offset + c->anchor);
    }
  r->head_state = CHUNK_RESOLVED;
}

static void
release_head (ChromeReader *r)
{
  ChromeChunk *c = g_steal_pointer (&r->head);

  /* the bytes before its end are copied or converted: done with */
  if (r->map != NULL)
    trace_input_map_set_position (r->input_map, c->offset + c->len);
  trace_chunk_ring_release (r->chunks->ring);
  r->head_pos = 0;
  r->head_state = CHUNK_PENDING;
}

/**
 * chrome_reader_refill_chunks:
 * @want: room in the buffer
 *
 * The reader's refill once the input is read through chunks: copies the
 * next bytes of the oldest chunk (at most twice what is unread, so an
 * element across chunks is not scanned again more often than with one
 * thread), reading more chunks as chunks are free.
 *
 * Returns: %FALSE with @error set when the input could not be read
 */
gboolean
chrome_reader_refill_chunks (ChromeReader *r,
                             gsize want,
                             GError **error)
{
  for (;;)
    {
      ChromeChunk *c;
      gboolean last;

      while (!r->chunks_read_done && read_chunk (r))
        ;
      c = head (r);
      if (c == NULL)
        {
          r->eof = TRUE;
          return TRUE;
        }
      if (r->head_pos < c->len)
        {
          gsize n = MIN (MIN (want, c->len - r->head_pos), MAX (64 * 1024, r->len - r->pos));

          /* Not past the anchor of a chunk whose events may be taken:
           * the reader jumps from there to the worker's end, and what it
           * copied past the anchor was copied for nothing (a 64 KiB copy
           * a chunk, 7 % of the reader's thread). */
          if (r->head_state == CHUNK_PENDING && c->n_events > 0 && r->head_pos < c->anchor)
            n = MIN (n, c->anchor - r->head_pos);
          memcpy (r->buf + r->len, c->data + r->head_pos, n);
          r->len += n;
          r->head_pos += n;
          r->eof = c->last && c->error == NULL && r->head_pos == c->len;
          return TRUE;
        }
      /* the chunk is copied; more is wanted: no element ends at its anchor */
      miss (r, c);
      last = c->last;
      if (c->error != NULL)
        {
          GError *io_error = g_steal_pointer (&c->error);

          release_head (r);
          return chrome_reader_read_error (r, io_error, error);
        }
      release_head (r);
      if (last)
        {
          r->eof = TRUE;
          return TRUE;
        }
    }
}

/* Whether the reader stands where the worker of @c started: between two
 * elements of traceEvents, just after the anchor's '}'. */
static gboolean
at_anchor (ChromeReader *r,
           ChromeChunk *c)
{
  guint64 at = r->base + r->pos;
  guint64 anchor = c->offset + c->anchor;

  if (at < anchor)
    return FALSE;
  if (at > anchor || r->state != FRAME_CONTAINER || r->role != ROLE_EVENTS || r->first)
    {
      miss (r, c);
      return FALSE;
    }
  return TRUE;
}

/**
 * chrome_reader_take_scanned:
 *
 * Converts the next event a worker scanned, if the reader stands where
 * it would scan it; after a chunk's last one, the reader goes on where
 * the worker stopped. One event per call, as step() reads one element:
 * the batches end where they end with one thread.
 *
 * Returns: whether an event was taken
 */
gboolean
chrome_reader_take_scanned (ChromeReader *r)
{
  ChromeChunk *c = r->head;
  const ChromeScannedEvent *ev;

  /* nothing of the oldest chunk is in the buffer yet: the reader is
   * before it (and its worker may not be done) */
  if (r->head_state == CHUNK_RESOLVED || r->head_pos == 0 || c == NULL)
    return FALSE;
  if (r->head_state == CHUNK_PENDING)
    {
      if (c->n_events == 0)
        {
          r->head_state = CHUNK_RESOLVED;
          return FALSE;
        }
      if (!at_anchor (r, c))
        return FALSE;
      r->head_state = CHUNK_TAKING;
      r->next_event = 0;
      r->chunks_taken++;
    }
  ev = &c->events[r->next_event++];
  r->stats.objects++;
  /* the fields a few events on, written on another core: asked for now,
   * they are here when their turn comes */
  if (r->next_event + 3 < c->n_events)
    for (gsize line = 0; line < sizeof (ChromeScannedEvent); line += 64)
      __builtin_prefetch ((const char *) &c->events[r->next_event + 3] + line);
  chrome_reader_convert_event (r, &ev->f, c->offset + ev->start, r->chunks->depth);
  if (r->next_event == c->n_events)
    {
      /* on from the worker's end, in the chunk */
      r->base = c->offset + c->scanned_end;
      r->pos = r->len = 0;
      r->head_pos = c->scanned_end;
      r->eof = c->last && c->error == NULL && r->head_pos == c->len;
      r->head_state = CHUNK_RESOLVED;
    }
  return TRUE;
}

void
chrome_reader_chunks_free (ChromeReader *r)
{
  if (r->chunks == NULL)
    return;
  g_debug ("%s: traceEvents chunks: %" G_GUINT64_FORMAT " taken from workers, %" G_GUINT64_FORMAT
           " read on one thread after a wrong guess, %" G_GUINT64_FORMAT " before a worker started them",
           r->location, r->chunks_taken, r->chunks_missed, r->chunks_stolen);
  chunks_free (g_steal_pointer (&r->chunks));
  r->head = NULL;
  r->map = NULL;
}

/**
 * chrome_reader_set_patient:
 * @patient: whether the reader's thread waits for every chunk's worker
 *
 * For tests and the differential fuzz target: by default the reader's
 * thread reads a chunk no worker has started yet itself, so how many
 * chunks the workers scan depends on the machine's load; a patient
 * reader always waits, so the workers' events are taken wherever the
 * guess was right. Call before the first batch.
 */
void
chrome_reader_set_patient (ChromeReader *r,
                           gboolean patient)
{
  r->chunks_patient = patient;
}

/**
 * chrome_reader_get_chunk_counts:
 * @taken: (out): chunks whose events were taken from a worker
 * @missed: (out): chunks a worker scanned from a wrong guess
 * @stolen: (out): chunks read by the reader's thread before a worker
 *   started them
 *
 * For tests: that the workers were used, and that a wrong guess was
 * seen as one.
 */
void
chrome_reader_get_chunk_counts (ChromeReader *r,
                                guint64 *taken,
                                guint64 *missed,
                                guint64 *stolen)
{
  *taken = r->chunks_taken;
  *missed = r->chunks_missed;
  *stolen = r->chunks_stolen;
}

/**
 * chrome_reader_set_input_map:
 * @map: (nullable): the input in place, as its source hands it over
 *   (trace_file_src_get_input_map())
 *
 * Lets the reader read the input in place once it reads in chunks. Call
 * before the first batch.
 */
void
chrome_reader_set_input_map (ChromeReader *r,
                             TraceInputMap *map)
{
  r->input_map = map;
}
