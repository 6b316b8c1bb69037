/* tracepipe tools - trace-launch: what it prints at the end (--stats, -v)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "launch.h"
#include "tool-util.h"

/* The counters every element has, as the first columns; anything else an
 * element reports goes into the last column as key=value. */
static const char *const stat_columns[] = { "events-in", "events-out", "batches-in", "batches-out" };

/**
 * launch_format_duration:
 * @microseconds: a duration
 *
 * Returns: `H:MM:SS.mmm`
 */
char *
launch_format_duration (gint64 microseconds)
{
  gint64 ms = microseconds / 1000;

  return g_strdup_printf ("%" G_GINT64_FORMAT ":%02d:%02d.%03d", ms / 3600000,
                          (int) (ms / 60000 % 60), (int) (ms / 1000 % 60), (int) (ms % 1000));
}

static char *
format_variant (GVariant *v)
{
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_UINT64))
    return g_strdup_printf ("%" G_GUINT64_FORMAT, g_variant_get_uint64 (v));
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_INT64))
    return g_strdup_printf ("%" G_GINT64_FORMAT, g_variant_get_int64 (v));
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_STRING))
    return g_variant_dup_string (v, NULL);
  return g_variant_print (v, FALSE);
}

static gboolean
is_column (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (stat_columns); i++)
    if (strcmp (key, stat_columns[i]) == 0)
      return TRUE;
  return FALSE;
}

/* The child of @bin that holds @pad's element (itself, or a bin around
 * it when the pad is inside one), or NULL. */
static TraceElement *
child_of (TraceBin *bin,
          TracePad *pad)
{
  TraceElement *e = pad ? trace_pad_get_parent_element (pad) : NULL;

  while (e && trace_element_get_parent (e) != TRACE_ELEMENT (bin))
    e = trace_element_get_parent (e);
  return e;
}

/* How many linked sink pads of @element are fed from inside @bin. */
static guint
n_upstream (TraceBin *bin,
            TraceElement *element)
{
  guint n = 0;

  for (const GList *p = trace_element_get_pads (element); p; p = p->next)
    if (trace_pad_get_direction (p->data) == TRACE_PAD_SINK && child_of (bin, trace_pad_get_peer (p->data)))
      n++;
  return n;
}

/**
 * launch_pipeline_order:
 * @bin: the pipeline
 *
 * The pipeline's elements in the order data goes through them: an element
 * after everything upstream of it, sources first in the order they were
 * described, a branch followed to its end (in the order of its element's
 * src pads) before the next one. Elements nothing links come last.
 *
 * Returns: (transfer container) (element-type TraceElement): the elements
 */
GPtrArray *
launch_pipeline_order (TraceBin *bin)
{
  g_autoptr (GHashTable) waiting = g_hash_table_new (NULL, NULL); /* element -> inputs not yet listed + 1 */
  g_autoptr (GQueue) ready = g_queue_new ();
  GPtrArray *order = g_ptr_array_new ();

  for (const GList *l = trace_bin_get_children (bin); l; l = l->next)
    {
      guint n = n_upstream (bin, l->data);

      g_hash_table_insert (waiting, l->data, GUINT_TO_POINTER (n + 1));
      if (n == 0)
        g_queue_push_tail (ready, l->data);
    }
  while (!g_queue_is_empty (ready))
    {
      TraceElement *e = g_queue_pop_head (ready);
      GList *next = NULL;

      g_ptr_array_add (order, e);
      for (const GList *p = trace_element_get_pads (e); p; p = p->next)
        {
          TraceElement *down = trace_pad_get_direction (p->data) == TRACE_PAD_SRC
                                   ? child_of (bin, trace_pad_get_peer (p->data))
                                   : NULL;
          guint left = down ? GPOINTER_TO_UINT (g_hash_table_lookup (waiting, down)) : 0;

          if (left < 2)
            continue;
          g_hash_table_insert (waiting, down, GUINT_TO_POINTER (left - 1));
          if (left == 2)
            next = g_list_prepend (next, down);
        }
      /* depth first: what became ready goes ahead of the other sources */
      for (GList *n = next; n; n = n->next)
        g_queue_push_head (ready, n->data);
      g_list_free (next);
    }
  /* in a cycle, nothing is ever ready: list the rest as described */
  for (const GList *l = trace_bin_get_children (bin); l; l = l->next)
    if (!g_ptr_array_find (order, l->data, NULL))
      g_ptr_array_add (order, l->data);
  return order;
}

static gint
compare_keys (gconstpointer a,
              gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* One row: the element, the fixed columns ("-" when absent), details. */
static GPtrArray *
stats_row (TraceElement *element,
           GVariant *stats)
{
  GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) details = g_string_new (NULL);
  GVariantIter iter;
  const char *key;
  GVariant *value;

  g_ptr_array_add (row, g_strdup (trace_element_get_name (element)));
  for (guint i = 0; i < G_N_ELEMENTS (stat_columns); i++)
    {
      g_autoptr (GVariant) v = g_variant_lookup_value (stats, stat_columns[i], NULL);

      g_ptr_array_add (row, v ? format_variant (v) : g_strdup ("-"));
    }
  /* The dict's order is its hash table's: sort the keys, so a counter is
   * found at the same place every run and dropped-* stay together. */
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();

  g_variant_iter_init (&iter, stats);
  while (g_variant_iter_next (&iter, "{&sv}", &key, &value))
    {
      if (!is_column (key))
        g_ptr_array_add (keys, (gpointer) key);
      g_variant_unref (value);
    }
  g_ptr_array_sort (keys, compare_keys);
  for (guint i = 0; i < keys->len; i++)
    {
      g_autoptr (GVariant) v = g_variant_lookup_value (stats, keys->pdata[i], NULL);
      g_autofree char *text = format_variant (v);

      g_string_append_printf (details, "%s%s=%s", details->len ? " " : "", (char *) keys->pdata[i], text);
    }
  g_ptr_array_add (row, g_strdup (details->str));
  return row;
}

static void
print_table (GPtrArray *rows)
{
  guint n_cols = ((GPtrArray *) g_ptr_array_index (rows, 0))->len;
  g_autofree guint *width = g_new0 (guint, n_cols);

  for (guint r = 0; r < rows->len; r++)
    for (guint c = 0; c < n_cols; c++)
      width[c] = MAX (width[c], g_utf8_strlen (g_ptr_array_index ((GPtrArray *) g_ptr_array_index (rows, r), c), -1));
  for (guint r = 0; r < rows->len; r++)
    {
      GPtrArray *row = g_ptr_array_index (rows, r);

      for (guint c = 0; c < n_cols; c++)
        {
          const char *cell = g_ptr_array_index (row, c);

          /* Names left-aligned, numbers right-aligned, details as they are. */
          if (c == 0)
            g_printerr ("%-*s", (int) width[c], cell);
          else if (c < n_cols - 1)
            g_printerr ("  %*s", (int) width[c], cell);
          else
            g_printerr ("  %s", cell);
        }
      g_printerr ("\n");
    }
}

/**
 * launch_print_stats:
 * @s: the tool's state, after the main loop ended
 *
 * Prints a table of every element's counters, in pipeline order: from
 * its STATS message when it posted one, else asked now.
 */
void
launch_print_stats (LaunchState *s)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *header = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (header, g_strdup ("element"));
  for (guint i = 0; i < G_N_ELEMENTS (stat_columns); i++)
    g_ptr_array_add (header, g_strdup (stat_columns[i]));
  g_ptr_array_add (header, g_strdup ("details"));
  g_ptr_array_add (rows, header);
  g_autoptr (GPtrArray) order = launch_pipeline_order (TRACE_BIN (s->pipeline));

  for (guint i = 0; i < order->len; i++)
    {
      TraceElement *element = order->pdata[i];
      g_autofree char *path = trace_element_get_path_string (element);
      GVariant *posted = g_hash_table_lookup (s->posted_stats, path);
      g_autoptr (GVariant) stats = posted ? g_variant_ref (posted) : trace_element_get_stats (element);

      g_ptr_array_add (rows, stats_row (element, stats));
    }
  g_printerr ("Statistics:\n");
  print_table (rows);
}

static void
print_link (TracePad *pad)
{
  TracePad *peer = trace_pad_get_peer (pad);
  TraceStreamEvent *start = trace_pad_get_sticky_stream_start (pad);
  g_autofree char *from = trace_pad_get_path_string (pad);
  g_autofree char *to = trace_pad_get_path_string (peer);
  TracePadStats stats;

  trace_pad_get_stats (pad, &stats);
  g_printerr ("  %s -> %s: %s, %" G_GUINT64_FORMAT " events in %" G_GUINT64_FORMAT " batches\n",
              from, to, trace_pad_get_media_type (pad), stats.events, stats.batches);
  if (start == NULL)
    {
      g_printerr ("    no stream-start\n");
      return;
    }
  g_printerr ("    stream-start: format=%s location=%s clock=%s (%s)\n",
              start->info.format ? start->info.format : "?",
              start->info.location ? start->info.location : "-",
              trace_clock_domain_to_string (start->info.clock_domain),
              start->info.clock_source ? start->info.clock_source : "unknown source");
}

/**
 * launch_print_verbose:
 * @s: the tool's state, after the main loop ended
 *
 * For -v: each element's properties that differ from their defaults,
 * then each link with its media type, counts and stream-start.
 */
void
launch_print_verbose (LaunchState *s)
{
  const GList *children = trace_bin_get_children (TRACE_BIN (s->pipeline));

  g_printerr ("Properties:\n");
  for (const GList *l = children; l; l = l->next)
    {
      g_autoptr (GPtrArray) props = tool_non_default_properties (l->data);
      g_autofree char *path = trace_element_get_path_string (l->data);
      g_autofree char *joined = NULL;

      /* pad properties as they are written: sink_1::offset=5000000 */
      for (const GList *p = trace_element_get_pads (l->data); p; p = p->next)
        {
          g_autoptr (GPtrArray) pad_props = tool_non_default_properties (p->data);

          for (guint i = 0; i < pad_props->len; i++)
            g_ptr_array_add (props, g_strdup_printf ("%s::%s", trace_pad_get_name (p->data),
                                                     (char *) g_ptr_array_index (pad_props, i)));
        }
      g_ptr_array_add (props, NULL);
      joined = g_strjoinv (" ", (char **) props->pdata);
      g_printerr ("  %s: %s\n", path, *joined ? joined : "(all defaults)");
    }
  g_printerr ("Links:\n");
  for (const GList *l = children; l; l = l->next)
    for (const GList *p = trace_element_get_pads (l->data); p; p = p->next)
      if (trace_pad_get_direction (p->data) == TRACE_PAD_SRC && trace_pad_get_peer (p->data))
        print_link (p->data);
}

/**
 * launch_print_ending:
 * @s: the tool's state
 *
 * The last line, as gst-launch prints it.
 */
void
launch_print_ending (LaunchState *s)
{
  g_autofree char *duration = launch_format_duration (g_get_monotonic_time () - s->start_time);

  g_printerr ("Execution ended after %s\n", duration);
}
