/* Round trips through ftrace text, element to element:
 * `ftrace-src ! ftrace-sink` then `ftrace-src` gives back what
 * `ftrace-src` gives, for every tests/data/ftrace file; Chrome JSON and
 * Perfetto files written as text read back with their slices, counters
 * and scheduling (docs/ftrace.md, "Writing ftrace text"). */
#include <glib/gstdio.h>
#include <string.h>

#include "rt-util.h"

/* Writes @path's events (read by @source) with ftrace-sink; returns the
 * events read back from the text by ftrace-src. */
static TraceBatch *
through_text (const char *source,
              const char *path,
              const char *dir)
{
  g_autofree char *out = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *write_desc = g_strdup_printf ("%s location=%s ! ftrace-sink location=%s", source, path, out);
  g_autofree char *read_desc = g_strdup_printf ("ftrace-src location=%s ! collectsink name=out", out);

  rt_run (write_desc, FALSE);
  return rt_run (read_desc, TRUE);
}

/* ftrace text names threads only: process names are dropped
 * (docs/ftrace.md, "Writing ftrace text"). */
static void
remove_process_names (GPtrArray *facts)
{
  for (guint i = facts->len; i-- > 0;)
    if (g_str_has_prefix (facts->pdata[i], "N process "))
      g_ptr_array_remove_index (facts, i);
}

/* A sync-id clock marker is written as `trace_event_clock_sync: name=ID`
 * on its thread's line: the sender's name and issue time (a Chrome JSON
 * clock_sync's) have no place in it (docs/ftrace.md, "Writing ftrace
 * text"), so markers are compared up to their sync id. */
static void
cut_marker_senders (GPtrArray *facts)
{
  for (guint i = 0; i < facts->len; i++)
    {
      char *fact = facts->pdata[i];
      char *sync = strstr (fact, " sync=\"");
      char *end = sync ? strchr (sync + 7, '"') : NULL;

      if (g_str_has_prefix (fact, "M ") && end != NULL)
        end[1] = '\0';
    }
}

static void
test_ftrace_file (gconstpointer data)
{
  const char *path = data;
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *direct_desc = g_strdup_printf ("ftrace-src location=%s ! collectsink name=out", path);
  g_autoptr (TraceBatch) direct = rt_run (direct_desc, TRUE);
  g_autoptr (TraceBatch) back = through_text ("ftrace-src", path, dir);
  g_autoptr (GPtrArray) want = rt_view (direct, RT_VIEW_EXACT);
  g_autoptr (GPtrArray) got = rt_view (back, RT_VIEW_EXACT);
  g_autofree char *base = g_path_get_basename (path);

  remove_process_names (want);
  cut_marker_senders (want);
  cut_marker_senders (got);
  g_test_message ("%s: %u events, %u facts; %u events read back", base, direct->n_events, want->len, back->n_events);
  rt_assert_same_view (base, want, got);
  rt_rmtree (dir);
}

/* The time of an ftrace line (`… [000] .... 12.345678: …`), -1 for a
 * header line. */
static double
line_time (const char *line)
{
  const char *p = strstr (line, "] .... ");

  if (line[0] == '#' || line[0] == '\0')
    return -1;
  g_assert_nonnull (p);
  return g_ascii_strtod (p + 7, NULL);
}

/* Chrome JSON and Perfetto traces, whose events are not all in time
 * order (a JSON file interleaves its threads; a complete slice's end is
 * due after lines still to come): the text is in time order, and reads
 * back as ftrace text with every line an event or a header. */
static void
test_sorted_file (gconstpointer data)
{
  const char *path = data;
  g_autofree char *dir = rt_tmpdir ();
  g_autofree char *out = g_build_filename (dir, "out.txt", NULL);
  g_autofree char *desc = g_strdup_printf ("auto-src location=%s ! ftrace-sink location=%s", path, out);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  double last = 0;
  guint n = 0;

  rt_run (desc, FALSE);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# tracer: nop\n"));
  lines = rt_split_lines (text);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      double t = line_time (lines[i]);

      if (t < 0)
        continue;
      g_assert_cmpfloat (t, >=, last);
      last = t;
      n++;
    }
  g_test_message ("%s: %u lines in time order", path, n);
  rt_rmtree (dir);
}

/* RheaTrace's raw layout reads as method markers, which atrace text
 * written back is not (docs/ftrace.md); the Perfetto traces' .textproto
 * sources are no traces. */
static gboolean
no_trace_to_write (const char *base)
{
  return g_str_has_prefix (base, "btrace_") || g_str_has_suffix (base, ".textproto") || g_str_has_suffix (base, ".md");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  test_register_collect_sink ();
  rt_add_corpus ("ftrace", "ftrace", test_ftrace_file, no_trace_to_write);
  rt_add_corpus ("ftrace", "json", test_sorted_file, no_trace_to_write);
  rt_add_corpus ("ftrace", "perfetto", test_sorted_file, no_trace_to_write);
  return g_test_run ();
}
