/* tracepipe - ftrace-src: the Chrome JSON blocks of a systrace HTML file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A catapult export holds, beside the ftrace text, one
 * `<script class="trace-data">` block per agent that recorded JSON: the
 * controller's clock-sync record (`"clock-domain": "SYSTRACE"`, the
 * host's clock) and Chrome's own trace. The ftrace engine hands each
 * JSON block's bytes here; they are kept in a spill (memory, then a
 * temporary file) while the text is read, and read with the json engine
 * after it, in two passes: the first collects each block's clock, clock
 * markers and earliest time, the clock-sync solver places every block on
 * the text's clock from them (docs/clocks.md), the second shifts and
 * hands on the events.
 */
#include "config.h"

#include "clocksync-private.h"
#include "ftrace-private.h"
#include "json-common.h"
#include "json-reader.h"

/* Kept in memory per block before it moves to a temporary file. */
#define JSON_BLOCK_MEMORY (1024 * 1024)
/* More JSON blocks than this are skipped (counted): catapult writes one
 * per agent, a handful. */
#define JSON_BLOCKS_MAX 64
/* As clock-sync's default: how near an unknown clock's first timestamp
 * must be to a known reading to be guessed onto it. */
#define JSON_BLOCKS_GUESS_WINDOW (600 * G_GINT64_CONSTANT (1000000000))

typedef struct
{
  ChromeSpill *spill;
  char *where; /* "x.html (JSON block of line N)" */
  TraceClockDomain domain;
  char *clock_name; /* as the block names it (metadata["clock-domain"]) */
  GArray *markers;  /* TraceEvent, the block's clock markers (pass 1) */
  gint64 start;     /* its earliest timestamp, G_MAXINT64: none */
  gint64 offset;    /* onto the text's clock (pass 2) */
  char *placement;  /* how it was placed, in words */
  gboolean placed;
  gboolean guessed; /* placed on a guess: a WARNING, as clock-sync says one */
  char *damage;     /* the json engine's summaries, once read */
  char *unsupported;
} JsonBlock;

struct _FtraceJsonBlocks
{
  char *location;
  TraceStringPool *pool;
  GPtrArray *blocks; /* of JsonBlock */
  JsonBlock *open;   /* the block being written */
  GArray *text_markers;
  gint64 text_start;
  gboolean solved;
  gboolean alone;          /* the text had no events: the blocks keep their clock */
  TraceClockDomain target; /* the text's clock, or boot time for an unshared one */
  guint current;           /* the block pass 2 reads */
  ChromeReader *reader;
  guint64 events;
  GPtrArray *conflicts; /* of char *, the solver's */
};

static void
json_block_free (gpointer data)
{
  JsonBlock *b = data;

  chrome_spill_free (b->spill);
  g_free (b->where);
  g_free (b->clock_name);
  g_array_unref (b->markers);
  g_free (b->placement);
  g_free (b->damage);
  g_free (b->unsupported);
  g_free (b);
}

FtraceJsonBlocks *
ftrace_json_blocks_new (const char *location,
                        TraceStringPool *pool)
{
  FtraceJsonBlocks *j = g_new0 (FtraceJsonBlocks, 1);

  j->location = g_strdup (location);
  j->pool = trace_string_pool_ref (pool);
  j->blocks = g_ptr_array_new_with_free_func (json_block_free);
  j->text_markers = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  j->text_start = G_MAXINT64;
  j->conflicts = g_ptr_array_new_with_free_func (g_free);
  return j;
}

void
ftrace_json_blocks_free (FtraceJsonBlocks *j)
{
  if (j == NULL)
    return;
  g_clear_pointer (&j->reader, chrome_reader_free);
  g_ptr_array_unref (j->blocks);
  g_array_unref (j->text_markers);
  g_ptr_array_unref (j->conflicts);
  trace_string_pool_unref (j->pool);
  g_free (j->location);
  g_free (j);
}

/* ------------------------------------------- the engine's block funcs */

static gboolean
block_begin (gpointer user_data,
             guint64 line_no)
{
  FtraceJsonBlocks *j = user_data;
  JsonBlock *b;

  if (j->blocks->len >= JSON_BLOCKS_MAX)
    return FALSE;
  b = g_new0 (JsonBlock, 1);
  b->spill = chrome_spill_new (JSON_BLOCK_MEMORY);
  b->where = g_strdup_printf ("%s (JSON block of line %" G_GUINT64_FORMAT ")", j->location, line_no);
  b->markers = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  b->start = G_MAXINT64;
  g_ptr_array_add (j->blocks, b);
  j->open = b;
  return TRUE;
}

static gboolean
block_data (gpointer user_data,
            const char *data,
            gsize len,
            GError **error)
{
  FtraceJsonBlocks *j = user_data;

  return chrome_spill_write (j->open->spill, data, len, error);
}

static void
block_end (gpointer user_data)
{
  FtraceJsonBlocks *j = user_data;

  j->open = NULL;
}

static const FtraceJsonBlockFuncs block_funcs = { block_begin, block_data, block_end };

const FtraceJsonBlockFuncs *
ftrace_json_blocks_get_funcs (void)
{
  return &block_funcs;
}

/* ------------------------------------------------ pass 1: the clocks */

/* Clock markers of @batch into @markers (as many as the solver takes)
 * and its earliest timestamp into @start. */
static void
collect_markers (GArray *markers,
                 gint64 *start,
                 TraceBatch *batch)
{
  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_CLOCK_MARKER && markers->len < CLOCKSYNC_MAX_MARKERS)
        g_array_append_vals (markers, ev, 1);
    }
  if (batch->n_events > 0)
    *start = MIN (*start, clocksync_batch_start (batch));
}

/**
 * ftrace_json_blocks_note_text:
 * @batch: a batch of the HTML file's ftrace text
 *
 * The text's clock markers and earliest time: what ties the JSON blocks
 * to it.
 */
void
ftrace_json_blocks_note_text (FtraceJsonBlocks *j,
                              TraceBatch *batch)
{
  collect_markers (j->text_markers, &j->text_start, batch);
}

static ChromeReader *
open_block (FtraceJsonBlocks *j,
            JsonBlock *b,
            GError **error)
{
  g_autoptr (GInputStream) in = chrome_spill_read (b->spill, error);

  return in ? chrome_reader_new (in, b->where, j->pool) : NULL;
}

/* Reads @b through for its clock, markers and earliest time. A block the
 * json engine cannot read fails in pass 2, with its events. */
static void
scan_block (FtraceJsonBlocks *j,
            JsonBlock *b)
{
  g_autoptr (ChromeReader) reader = open_block (j, b, NULL);
  TraceBatch *batch;

  if (reader == NULL)
    return;
  while (chrome_reader_read_batch (reader, &batch, NULL) && batch != NULL)
    {
      collect_markers (b->markers, &b->start, batch);
      trace_batch_unref (batch);
    }
  b->domain = chrome_reader_get_clock_domain (reader);
  b->clock_name = g_strdup (chrome_reader_get_clock_domain_name (reader));
  if (b->clock_name == NULL)
    b->clock_name = g_strdup_printf ("%s: the block names none", trace_clock_domain_to_string (b->domain));
}

/* How @d placed block @b, in words, and its offset. */
static void
note_decision (JsonBlock *b,
               const ClocksyncDecision *d,
               TraceClockDomain target)
{
  g_autofree char *offset = clocksync_format_duration (d->offset, TRUE);
  g_autofree char *precision = clocksync_format_duration (d->precision, FALSE);

  b->placed = d->on_target;
  b->guessed = d->guess;
  b->offset = b->placed ? d->offset : 0;
  if (!b->placed)
    b->placement = g_strdup_printf ("%s: no clock marker ties its clock (%s) to the ftrace text's: its events "
                                    "keep their times",
                                    b->where, b->clock_name);
  else
    b->placement = g_strdup_printf ("%s (clock %s): shifted by %s onto the ftrace text's %s clock (%s%s, "
                                    "precision %s): %s",
                                    b->where, b->clock_name, offset,
                                    trace_clock_domain_to_string (target), clocksync_source_to_string (d->source),
                                    d->guess && d->source != CLOCKSYNC_SOURCE_GUESS ? ", a guess" : "", precision, d->via);
}

/* Every block's offset onto the text's clock, from all the evidence at
 * once: a block can be tied to the text through another (Chrome's sync
 * id through the controller's record, the controller's through the
 * text's `trace_event_clock_sync: name=` marker). Without text events
 * (a trace2html file of a JSON trace) there is nothing to place them
 * beside: they keep their times, and the stream takes the first block's
 * clock. */
static void
solve (FtraceJsonBlocks *j,
       TraceClockDomain text_domain)
{
  TraceClockDomain target = clocksync_domain_is_shared (text_domain) ? text_domain : TRACE_CLOCK_BOOTTIME;
  g_autoptr (ClocksyncSolver) s = clocksync_solver_new (j->pool, target, JSON_BLOCKS_GUESS_WINDOW);

  j->target = target;
  GPtrArray *conflicts;

  j->solved = TRUE;
  if (j->alone)
    {
      for (guint i = 0; i < j->blocks->len; i++)
        scan_block (j, g_ptr_array_index (j->blocks, i));
      return;
    }
  clocksync_solver_add_input (s, "the ftrace text", target);
  for (guint m = 0; m < j->text_markers->len; m++)
    clocksync_solver_add_marker (s, 0, &g_array_index (j->text_markers, TraceEvent, m));
  if (j->text_start != G_MAXINT64)
    clocksync_solver_note_ts (s, 0, j->text_start);
  for (guint i = 0; i < j->blocks->len; i++)
    {
      JsonBlock *b = g_ptr_array_index (j->blocks, i);

      scan_block (j, b);
      clocksync_solver_add_input (s, b->where, b->domain);
      for (guint m = 0; m < b->markers->len; m++)
        clocksync_solver_add_marker (s, i + 1, &g_array_index (b->markers, TraceEvent, m));
      if (b->start != G_MAXINT64)
        clocksync_solver_note_ts (s, i + 1, b->start);
    }
  clocksync_solver_solve (s);
  for (guint i = 0; i < j->blocks->len; i++)
    note_decision (g_ptr_array_index (j->blocks, i), clocksync_solver_get_decision (s, i + 1), target);
  conflicts = clocksync_solver_get_conflicts (s);
  for (guint i = 0; i < conflicts->len; i++)
    g_ptr_array_add (j->conflicts, g_strdup (((ClocksyncConflict *) g_ptr_array_index (conflicts, i))->text));
}

/* ------------------------------------------------ pass 2: the events */

/* The block pass 2 has read to its end: what the json engine could not
 * use is kept for the report. */
static void
close_block (FtraceJsonBlocks *j,
             JsonBlock *b)
{
  if (chrome_reader_has_damage (j->reader))
    b->damage = chrome_reader_get_summary (j->reader, FALSE);
  b->unsupported = chrome_reader_get_unsupported_summary (j->reader);
  if (chrome_reader_has_system_trace (j->reader))
    {
      g_autofree char *unsupported = g_steal_pointer (&b->unsupported);

      b->unsupported = g_strdup_printf ("%s%s%s: its systemTraceEvents text is not read", unsupported ? unsupported : "",
                                        unsupported ? "; " : "", b->where);
    }
  g_clear_pointer (&j->reader, chrome_reader_free);
  j->current++;
}

/**
 * ftrace_json_blocks_read_batch:
 * @text_events: how many events the ftrace text gave (0: the blocks keep
 *   their times)
 * @text_domain: the ftrace text's clock: the blocks are placed on it
 * @out: (out): the next batch of the JSON blocks' events, on the text's
 *   clock; %NULL once all are read
 *
 * Called once the ftrace text is read.
 *
 * Returns: %FALSE on an error (a block that is no JSON trace)
 */
gboolean
ftrace_json_blocks_read_batch (FtraceJsonBlocks *j,
                               guint64 text_events,
                               TraceClockDomain text_domain,
                               TraceBatch **out,
                               GError **error)
{
  *out = NULL;
  if (!j->solved && j->blocks->len > 0)
    {
      j->alone = text_events == 0;
      solve (j, text_domain);
    }
  while (j->current < j->blocks->len)
    {
      JsonBlock *b = g_ptr_array_index (j->blocks, j->current);

      if (j->reader == NULL && (j->reader = open_block (j, b, error)) == NULL)
        return FALSE;
      if (!chrome_reader_read_batch (j->reader, out, error))
        return FALSE;
      if (*out != NULL)
        {
          *out = trace_batch_make_writable (*out);
          clocksync_shift_batch (*out, b->offset, b->domain, b->placed ? j->target : b->domain);
          j->events += (*out)->n_events;
          return TRUE;
        }
      close_block (j, b);
    }
  return TRUE;
}

/**
 * ftrace_json_blocks_get_alone_domain:
 * @domain: (out): the first block's clock, the stream's
 *
 * Returns: whether the JSON blocks are all the file's events (the text
 *   had none): the stream is then a Chrome JSON one, on their clock
 */
gboolean
ftrace_json_blocks_get_alone_domain (FtraceJsonBlocks *j,
                                     TraceClockDomain *domain)
{
  if (!j->alone || j->blocks->len == 0)
    return FALSE;
  *domain = ((JsonBlock *) g_ptr_array_index (j->blocks, 0))->domain;
  return TRUE;
}

guint
ftrace_json_blocks_get_count (FtraceJsonBlocks *j)
{
  return j->blocks->len;
}

guint64
ftrace_json_blocks_get_events (FtraceJsonBlocks *j)
{
  return j->events;
}

/**
 * ftrace_json_blocks_report:
 * @element: who posts
 *
 * Says where each block went (an INFO; a WARNING for a block nothing
 * ties to the text), evidence that disagreed, and what the json engine
 * could not use (a WARNING for damage, an INFO for the rest).
 */
void
ftrace_json_blocks_report (FtraceJsonBlocks *j,
                           TraceElement *element)
{
  for (guint i = 0; i < j->blocks->len; i++)
    {
      JsonBlock *b = g_ptr_array_index (j->blocks, i);

      if (b->placement && b->placed && !b->guessed)
        trace_element_post_info (element, "%s", b->placement);
      else if (b->placement)
        trace_element_post_warning (element, NULL, "%s", b->placement);
      if (b->damage)
        trace_element_post_warning (element, NULL, "%s", b->damage);
      if (b->unsupported)
        trace_element_post_info (element, "%s", b->unsupported);
    }
  for (guint i = 0; i < j->conflicts->len; i++)
    trace_element_post_warning (element, NULL, "%s", (const char *) g_ptr_array_index (j->conflicts, i));
}
