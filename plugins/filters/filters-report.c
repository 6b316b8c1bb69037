/* tracepipe - filter: what the engine says about itself: stats, the
 * conditions in words, the warnings at EOS
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "filters-private.h"

static void
append_seconds (GString *s,
                gint64 ns)
{
  guint64 abs_ns = ns < 0 ? -(guint64) ns : (guint64) ns;

  g_string_append_printf (s, "%s%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s", ns < 0 ? "-" : "",
                          abs_ns / 1000000000, abs_ns % 1000000000);
}

/**
 * filter_explain_empty_window:
 *
 * A window that misses the trace (`start=1s` on a trace that begins at
 * 1212 s) keeps only metadata: say so, with where the trace is.
 *
 * Returns: (transfer full) (nullable): the warning, or %NULL when the
 *   window kept a timed event or dropped none
 */
char *
filter_explain_empty_window (Filter *f)
{
  GString *s;

  if (!f->has_window || !f->have_ts || f->stats.dropped[FILTER_DROP_WINDOW] == 0 ||
      f->stats.kept > f->stats.metadata)
    return NULL;
  s = g_string_new ("the time window");
  if (f->has_start)
    g_string_append (s, " from "), append_seconds (s, f->start);
  if (f->has_end)
    g_string_append (s, " until "), append_seconds (s, f->end);
  g_string_append (s, " holds no event of the trace, which runs from ");
  append_seconds (s, f->first_ts);
  g_string_append (s, " to ");
  append_seconds (s, f->last_ts);
  g_string_append (s, " (start=+1.5s counts from the first event; trace-info shows both)");
  return g_string_free (s, FALSE);
}

static const char *const reason_names[FILTER_N_DROP_REASONS] = {
  [FILTER_DROP_KIND] = "kind",
  [FILTER_DROP_CATEGORY] = "category",
  [FILTER_DROP_NAME] = "name",
  [FILTER_DROP_TID] = "tid",
  [FILTER_DROP_PID] = "pid",
  [FILTER_DROP_THREAD_NAME] = "thread-name",
  [FILTER_DROP_PROCESS_NAME] = "process-name",
  [FILTER_DROP_INVERT] = "invert",
  [FILTER_DROP_WINDOW] = "window",
  [FILTER_DROP_UNDECIDABLE] = "undecidable",
};

const char *
filter_drop_reason_to_string (FilterDropReason reason)
{
  if ((guint) reason >= FILTER_N_DROP_REASONS)
    return "unknown";
  return reason_names[reason];
}

/**
 * filter_stats_to_string:
 *
 * Returns: one line for the STATS message and `--stats`, e.g.
 *   `in=10 kept=4 dropped: tid=5 window=1; undecidable=0`
 */
char *
filter_stats_to_string (const FilterStats *stats)
{
  GString *s = g_string_new (NULL);

  g_string_append_printf (s, "in=%" G_GUINT64_FORMAT " kept=%" G_GUINT64_FORMAT " dropped:",
                          stats->events_in, stats->kept);
  for (guint i = 0; i < FILTER_N_DROP_REASONS; i++)
    if (stats->dropped[i] > 0)
      g_string_append_printf (s, " %s=%" G_GUINT64_FORMAT, reason_names[i], stats->dropped[i]);
  g_string_append_printf (s, "; undecidable=%" G_GUINT64_FORMAT " metadata=%" G_GUINT64_FORMAT " synthesized=%" G_GUINT64_FORMAT " clipped=%" G_GUINT64_FORMAT,
                          stats->undecidable, stats->metadata, stats->synthesized, stats->clipped);
  return g_string_free (s, FALSE);
}

static void
describe_glob (GString *s,
               const char *what,
               const FilterGlob *glob)
{
  if (glob->spec != NULL)
    g_string_append_printf (s, " %s=\"%s\"", what, glob->text);
}

static void
describe_edge (GString *s,
               const char *what,
               gboolean relative,
               gint64 ns)
{
  g_string_append_printf (s, " %s=%s", what, relative ? "+" : "");
  append_seconds (s, ns);
}

/**
 * filter_describe:
 *
 * Returns: (transfer full): the conditions as parsed, in words, for the
 *   debug log: `tid=main process-name="com.*" window from +1.5 s`
 */
char *
filter_describe (Filter *f)
{
  GString *s = g_string_new (NULL);

  g_return_val_if_fail (f != NULL, NULL);

  if (f->has_tid && f->tid_main)
    g_string_append (s, " tid=main");
  else if (f->has_tid)
    g_string_append_printf (s, " tid=%" G_GINT64_FORMAT, f->tid);
  if (f->has_pid)
    g_string_append_printf (s, " pid=%" G_GINT64_FORMAT, f->pid);
  describe_glob (s, "process-name", &f->process_name);
  describe_glob (s, "thread-name", &f->thread_name);
  describe_glob (s, "event-name", &f->name);
  describe_glob (s, "category", &f->category);
  if (f->kinds != 0)
    {
      g_autofree char *kinds = g_flags_to_string (TRACE_TYPE_EVENT_GROUP, f->kinds);

      g_string_append_printf (s, " kind=%s", kinds);
    }
  if (f->has_start)
    describe_edge (s, "start", f->start_relative, f->start);
  if (f->has_end)
    describe_edge (s, "end", f->end_relative, f->end);
  if (f->invert)
    g_string_append (s, " invert");
  if (f->keep_unknown)
    g_string_append (s, " keep-unknown");
  if (s->len == 0)
    g_string_append (s, " (no condition: every event passes)");
  g_string_erase (s, 0, 1);
  return g_string_free (s, FALSE);
}

/* At EOS, both elements say what they could not decide and when they
 * kept no slice at all, and a window that missed the trace says where
 * the trace was. */
void
filter_warn_at_eos (TraceElement *element,
                    Filter *filter,
                    gboolean keep_unknown)
{
  FilterStats stats;
  g_autofree char *empty = filter_explain_empty_window (filter);

  if (empty)
    trace_element_post_warning (element, NULL, "%s", empty);
  filter_get_stats (filter, &stats);
  if (filter->has_conditions && stats.slices_in > 0 && stats.slices_kept == 0)
    {
      g_autofree char *conditions = filter_describe (filter);

      /* an empty output that exits 0 is easy to miss in a script */
      trace_element_post_warning (element, NULL, "no slice matched the conditions (%s): the %" G_GUINT64_FORMAT " slices read were all dropped",
                                  conditions, stats.slices_in);
    }
  if (stats.undecidable > 0)
    trace_element_post_warning (element, NULL,
                                "%" G_GUINT64_FORMAT " events of threads whose process could not be "
                                "told were %s (set keep-unknown to change that)",
                                stats.undecidable, keep_unknown ? "kept" : "dropped");
}

void
filter_collect_stats (Filter *filter,
                      GVariantDict *dict)
{
  FilterStats stats;

  /* NULL before start: a STATS asked for in READY */
  if (filter == NULL)
    return;
  filter_get_stats (filter, &stats);
  g_variant_dict_insert (dict, "kept", "t", stats.kept);
  g_variant_dict_insert (dict, "undecidable", "t", stats.undecidable);
  g_variant_dict_insert (dict, "synthesized", "t", stats.synthesized);
  g_variant_dict_insert (dict, "clipped", "t", stats.clipped);
  for (guint i = 0; i < FILTER_N_DROP_REASONS; i++)
    if (stats.dropped[i] > 0)
      {
        g_autofree char *key = g_strdup_printf ("dropped-%s", filter_drop_reason_to_string (i));
        g_variant_dict_insert (dict, key, "t", stats.dropped[i]);
      }
}
