/* tracepipe - ftrace-sink: lines held to be written in time order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * ftrace text is in time order, and the events a sink gets are not
 * always: a Chrome JSON trace interleaves its threads' buffers, and a
 * complete slice's end line is due at ts + dur, after lines still to
 * come. The lines wait in a min-heap on (time, arrival) up to a memory
 * bound; past it the earliest are written. A line that comes after a
 * later one was written (its disorder exceeded the bound) is written at
 * once, out of order, and counted: trace_processor sorts what it reads,
 * so it still reads it at its time.
 */
#include "config.h"

#include <string.h>

#include "ftrace-line-sorter.h"

/* What a held line costs besides its bytes: the heap slot and malloc's
 * header, so the bound is on memory, not on text. */
#define LINE_OVERHEAD 48

typedef struct
{
  gint64 ts;
  guint64 seq; /* rank, then arrival: equal times keep their order */
  char *line;
  gsize len;
} HeldLine;

struct _FtraceLineSorter
{
  GArray *heap; /* of HeldLine, a binary min-heap */
  gsize bytes;
  gsize peak_bytes;
  gsize max_bytes;
  guint64 seq;
  gint64 written_ts; /* the time of the last line written */
  gboolean any_written;
  guint64 late_lines;
};

/**
 * ftrace_line_sorter_new:
 * @max_bytes: how much memory the held lines may take
 */
FtraceLineSorter *
ftrace_line_sorter_new (gsize max_bytes)
{
  FtraceLineSorter *s = g_new0 (FtraceLineSorter, 1);

  s->heap = g_array_new (FALSE, FALSE, sizeof (HeldLine));
  s->max_bytes = max_bytes;
  return s;
}

void
ftrace_line_sorter_free (FtraceLineSorter *s)
{
  if (s == NULL)
    return;
  for (guint i = 0; i < s->heap->len; i++)
    g_free (g_array_index (s->heap, HeldLine, i).line);
  g_array_unref (s->heap);
  g_free (s);
}

static gboolean
before (const HeldLine *a,
        const HeldLine *b)
{
  return a->ts < b->ts || (a->ts == b->ts && a->seq < b->seq);
}

static void
sift_up (GArray *heap,
         guint i)
{
  HeldLine *h = (HeldLine *) heap->data;
  HeldLine moving = h[i];

  while (i > 0 && before (&moving, &h[(i - 1) / 2]))
    {
      h[i] = h[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  h[i] = moving;
}

static void
sift_down (GArray *heap,
           guint i)
{
  HeldLine *h = (HeldLine *) heap->data;
  HeldLine moving = h[i];
  guint n = heap->len;

  for (;;)
    {
      guint child = 2 * i + 1;

      if (child >= n)
        break;
      if (child + 1 < n && before (&h[child + 1], &h[child]))
        child++;
      if (!before (&h[child], &moving))
        break;
      h[i] = h[child];
      i = child;
    }
  h[i] = moving;
}

/* Writes the earliest held line to @out. */
static void
write_first (FtraceLineSorter *s,
             GString *out)
{
  HeldLine first = g_array_index (s->heap, HeldLine, 0);

  g_string_append_len (out, first.line, first.len);
  s->bytes -= first.len + LINE_OVERHEAD;
  s->written_ts = first.ts;
  s->any_written = TRUE;
  g_free (first.line);
  g_array_index (s->heap, HeldLine, 0) = g_array_index (s->heap, HeldLine, s->heap->len - 1);
  g_array_set_size (s->heap, s->heap->len - 1);
  if (s->heap->len > 0)
    sift_down (s->heap, 0);
}

/**
 * ftrace_line_sorter_push:
 * @ts: the line's time
 * @first: whether the line goes before the lines of its time that do
 *   not (a complete slice's end: a slice that begins when it ends is
 *   not inside it); else lines of a time keep their order
 * @line: the line, with its '\n'
 * @out: where the lines the bound pushes out (or a late @line) go
 *
 * Holds @line until the memory bound or the drain writes it.
 */
void
ftrace_line_sorter_push (FtraceLineSorter *s,
                         gint64 ts,
                         gboolean first,
                         const char *line,
                         gsize len,
                         GString *out)
{
  HeldLine held = { ts, (first ? 0 : (guint64) 1 << 63) | s->seq++, NULL, len };

  if (s->any_written && ts < s->written_ts)
    {
      /* its place is already written: holding it would change nothing */
      s->late_lines++;
      g_string_append_len (out, line, len);
      return;
    }
  held.line = g_memdup2 (line, len);
  g_array_append_val (s->heap, held);
  sift_up (s->heap, s->heap->len - 1);
  s->bytes += len + LINE_OVERHEAD;
  s->peak_bytes = MAX (s->peak_bytes, s->bytes);
  while (s->bytes > s->max_bytes && s->heap->len > 0)
    write_first (s, out);
}

/**
 * ftrace_line_sorter_write_first:
 *
 * Writes the earliest held line to @out (at the end of the stream, until
 * none is left).
 *
 * Returns: whether a line was held
 */
gboolean
ftrace_line_sorter_write_first (FtraceLineSorter *s,
                                GString *out)
{
  if (s->heap->len == 0)
    return FALSE;
  write_first (s, out);
  return TRUE;
}

/* Lines written out of order: they came after a later line was written. */
guint64
ftrace_line_sorter_get_late_lines (FtraceLineSorter *s)
{
  return s->late_lines;
}

/* The most memory the held lines took. */
gsize
ftrace_line_sorter_get_peak_bytes (FtraceLineSorter *s)
{
  return s->peak_bytes;
}
