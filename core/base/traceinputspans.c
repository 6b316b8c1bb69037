/* tracepipe - the time each input of a merge covers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two captures merged onto one timeline that never meet in time are
 * almost always a mistake (the wrong file, or clocks nothing tied), and
 * nothing else says so: the output is valid, with one long empty stretch
 * in the middle. Merging elements feed this every batch they pass on
 * (after any shift) and, when every input ended, post what
 * trace_input_spans_describe_gaps() says as a WARNING.
 */
#include "config.h"

#include "trace/trace.h"

typedef struct
{
  TracePad *pad; /* owned */
  gint64 first, last;
  gboolean seen;
} InputSpan;

struct _TraceInputSpans
{
  GArray *inputs;     /* InputSpan, in the order the inputs came */
  GHashTable *by_pad; /* TracePad -> its index in inputs, plus 1 */
  guint64 untimed;    /* bit per kind: metadata, call-tree nodes and
                       * records carry no time of their own */
};

static void
input_span_clear (gpointer data)
{
  g_clear_object (&((InputSpan *) data)->pad);
}

/**
 * trace_input_spans_new: (skip)
 *
 * Returns: (transfer full): spans with no input yet
 */
TraceInputSpans *
trace_input_spans_new (void)
{
  TraceInputSpans *spans = g_new0 (TraceInputSpans, 1);

  G_STATIC_ASSERT (TRACE_EVENT_N_KINDS <= 64);
  spans->inputs = g_array_new (FALSE, TRUE, sizeof (InputSpan));
  g_array_set_clear_func (spans->inputs, input_span_clear);
  spans->by_pad = g_hash_table_new (NULL, NULL);
  for (guint kind = 0; kind < TRACE_EVENT_N_KINDS; kind++)
    if (kind == TRACE_EVENT_NONE || kind == TRACE_EVENT_STACK_NODE || kind == TRACE_EVENT_RECORD ||
        (trace_event_kind_get_group (kind) & TRACE_EVENT_GROUP_METADATA))
      spans->untimed |= G_GUINT64_CONSTANT (1) << kind;
  return spans;
}

/**
 * trace_input_spans_free: (skip)
 * @spans: (nullable): spans
 */
void
trace_input_spans_free (TraceInputSpans *spans)
{
  if (spans == NULL)
    return;
  g_hash_table_unref (spans->by_pad);
  g_array_unref (spans->inputs);
  g_free (spans);
}

/**
 * trace_input_spans_clear: (skip)
 * @spans: spans
 *
 * Forgets every input: for an element that starts again.
 */
void
trace_input_spans_clear (TraceInputSpans *spans)
{
  g_return_if_fail (spans != NULL);

  g_hash_table_remove_all (spans->by_pad);
  g_array_set_size (spans->inputs, 0);
}

static InputSpan *
find_input (TraceInputSpans *spans,
            TracePad *pad)
{
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (spans->by_pad, pad));
  InputSpan fresh = { 0 };

  if (index > 0)
    return &g_array_index (spans->inputs, InputSpan, index - 1);
  fresh.pad = g_object_ref (pad);
  g_array_append_val (spans->inputs, fresh);
  g_hash_table_insert (spans->by_pad, pad, GUINT_TO_POINTER (spans->inputs->len));
  return &g_array_index (spans->inputs, InputSpan, spans->inputs->len - 1);
}

/**
 * trace_input_spans_add_batch: (skip)
 * @spans: spans
 * @pad: the input @batch came through
 * @batch: its events, on the output's timeline
 *
 * Widens @pad's span to @batch's timed events (to the end of a complete
 * slice).
 */
void
trace_input_spans_add_batch (TraceInputSpans *spans,
                             TracePad *pad,
                             const TraceBatch *batch)
{
  InputSpan *in;
  const TraceEvent *ev, *stop;

  g_return_if_fail (spans != NULL && TRACE_IS_PAD (pad) && batch != NULL);

  in = find_input (spans, pad);
  for (ev = batch->events, stop = batch->events + batch->n_events; ev < stop; ev++)
    {
      if (ev->kind >= TRACE_EVENT_N_KINDS || (spans->untimed >> ev->kind) & 1)
        continue;
      gint64 end = ev->kind == TRACE_EVENT_SLICE_COMPLETE && ev->u.slice.dur > 0
                       ? trace_time_add_saturated (ev->ts, ev->u.slice.dur)
                       : ev->ts;

      if (!in->seen || ev->ts < in->first)
        in->first = ev->ts;
      if (!in->seen || end > in->last)
        in->last = end;
      in->seen = TRUE;
    }
}

static void
append_seconds (GString *out,
                gint64 ns)
{
  guint64 mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  g_string_append_printf (out, "%s%" G_GUINT64_FORMAT ".%09u s", ns < 0 ? "-" : "", mag / 1000000000,
                          (guint) (mag % 1000000000));
}

/* "sink_0 (kernel.txt) 1.000000000 s to 2.000000000 s" */
static void
append_input (GString *out,
              const InputSpan *in)
{
  TraceStreamEvent *start = trace_pad_get_sticky_stream_start (in->pad);

  g_string_append (out, trace_pad_get_name (in->pad));
  if (start && start->info.location)
    g_string_append_printf (out, " (%s)", start->info.location);
  g_string_append (out, " ");
  append_seconds (out, in->first);
  g_string_append (out, " to ");
  append_seconds (out, in->last);
}

static gint
compare_first (gconstpointer a,
               gconstpointer b)
{
  const InputSpan *x = a, *y = b;

  return x->first < y->first ? -1 : x->first > y->first;
}

/* The stretches no input covers, in words; empty when there is none. */
static void
append_gaps (GString *out,
             GArray *sorted)
{
  gint64 covered = g_array_index (sorted, InputSpan, 0).last;

  for (guint i = 1; i < sorted->len; i++)
    {
      const InputSpan *in = &g_array_index (sorted, InputSpan, i);

      if (in->first > covered)
        {
          g_string_append (out, out->len ? "; " : "");
          g_string_append (out, "a gap of ");
          append_seconds (out, in->first - covered);
          g_string_append (out, " between ");
          append_seconds (out, covered);
          g_string_append (out, " and ");
          append_seconds (out, in->first);
        }
      covered = MAX (covered, in->last);
    }
}

/**
 * trace_input_spans_describe_gaps: (skip)
 * @spans: spans
 *
 * Returns: (transfer full) (nullable): when the inputs with timed events
 *   (two at least) leave stretches of time that none covers, a sentence
 *   naming every input (pad, location) with its span and each such
 *   stretch; %NULL when their spans overlap or touch
 */
char *
trace_input_spans_describe_gaps (TraceInputSpans *spans)
{
  g_autoptr (GArray) sorted = g_array_new (FALSE, FALSE, sizeof (InputSpan));
  g_autoptr (GString) gaps = g_string_new (NULL);
  GString *out;

  g_return_val_if_fail (spans != NULL, NULL);

  for (guint i = 0; i < spans->inputs->len; i++)
    if (g_array_index (spans->inputs, InputSpan, i).seen)
      g_array_append_val (sorted, g_array_index (spans->inputs, InputSpan, i));
  if (sorted->len < 2)
    return NULL;
  g_array_sort (sorted, compare_first);
  append_gaps (gaps, sorted);
  if (gaps->len == 0)
    return NULL;
  out = g_string_new ("the inputs do not overlap in time: ");
  for (guint i = 0; i < sorted->len; i++)
    {
      g_string_append (out, i ? ", " : "");
      append_input (out, &g_array_index (sorted, InputSpan, i));
    }
  g_string_append_printf (out, "; %s", gaps->str);
  return g_string_free (out, FALSE);
}
