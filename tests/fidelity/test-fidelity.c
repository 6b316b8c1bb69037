/* tracepipe fidelity tests - trace_processor reads from our output what it
 * reads from the original
 *
 * trace_processor is the importer behind the Perfetto UI, so it is the
 * judge of a conversion. For every trace in tests/data, and for each small
 * input of tests/fidelity/cases (one behaviour each), the test converts
 * the file with `auto-src ! perfetto-sink` and `auto-src ! json-sink`
 * (and each tests/data file and ftrace text case with `ftrace-sink`),
 * asks trace_processor what it reads from the original and from the
 * output, and asserts that they agree:
 *
 * - tests/data files: the counts tp-compare shows (slices, names, total
 *   duration, unfinished, instants, flows, counters, sched, thread
 *   states, named threads) and no import error the original lacks;
 * - cases: row by row (slices with ts, dur, depth, name, tid and thread
 *   time; flows; counters; threads with their process; thread states and
 *   sched slices; the slices' args by key and value); a case listed
 *   with "tids" (string tids, made up differently by trace_processor and
 *   by us) tells its named threads and processes by name instead.
 *
 * What we knowingly read differently is listed in known-differences.txt
 * and explained in docs/fidelity.md; an entry that no longer differs fails
 * the test, so the list stays true. Without $TRACE_PROCESSOR every test is
 * skipped.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "fidelity-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

static GPtrArray *known;
static GHashTable *case_sink_props;  /* "CASE OUTPUT" -> GStrv */
static GHashTable *original_metrics; /* path -> FidMetrics, or NULL: unreadable */

static const char *const outputs[][2] = {
  { "perfetto", "perfetto-sink" },
  { "json", "json-sink" },
  { "systrace", "ftrace-sink" },
};

/* The file each output is written to ends with this. */
static const char *
output_extension (const char *output)
{
  if (g_str_equal (output, "json"))
    return "json";
  if (g_str_equal (output, "systrace"))
    return "txt";
  return "pftrace";
}

typedef struct
{
  char *path; /* the input */
  char *name; /* as known-differences.txt names it */
  const char *output;
  const char *sink;
} FidTest;

static gboolean
have_trace_processor (void)
{
  const char *tp = g_getenv ("TRACE_PROCESSOR");

  if (tp != NULL && g_file_test (tp, G_FILE_TEST_IS_EXECUTABLE))
    return TRUE;
  g_test_skip ("TRACE_PROCESSOR does not name trace_processor_shell");
  return FALSE;
}

static char *
convert_or_fail (const FidTest *t,
                 const char *tmpdir)
{
  g_autofree char *base = g_path_get_basename (t->path);
  g_autofree char *out =
      g_strdup_printf ("%s/%s.%s", tmpdir, base, output_extension (t->output));
  g_autofree char *why = NULL;
  g_autofree char *key = g_strdup_printf ("%s %s", t->name, t->output);
  const char *const *props = g_hash_table_lookup (case_sink_props, key);

  if (!fid_convert (t->path, t->sink, props, out, &why))
    {
      g_test_fail_printf ("%s", why);
      return NULL;
    }
  return g_steal_pointer (&out);
}

/* Whether the plugin that reads @name is built: trace.dat needs
 * libtracecmd (meson's -Dkernel), the other formats are always built. */
static gboolean
plugin_built_for (const char *name)
{
  g_auto (GStrv) plugins = g_strsplit (FIDELITY_PLUGINS, " ", -1);

  if (g_str_has_suffix (name, ".dat") && !g_strv_contains ((const char *const *) plugins, "tracecmd"))
    {
      g_test_skip ("tracecmd-src is not built (libtracecmd not found)");
      return FALSE;
    }
  return TRUE;
}

/* --- tests/data files: the counts --- */

static const FidMetrics *
measure_original (const char *path,
                  const char *tmpdir,
                  GError **error)
{
  g_autofree char *ref = NULL;
  FidMetrics *m;

  if (g_hash_table_lookup_extended (original_metrics, path, NULL, (gpointer *) &m))
    return m;
  ref = fid_reference_copy (path, tmpdir);
  m = fid_measure (ref, error);
  g_hash_table_insert (original_metrics, g_strdup (path), m);
  return m;
}

/* @dur_slack_us: how far the total slice duration may be off (a text
 * original's microsecond rounding against nanoseconds: pairs) */
static void
compare_counts (const FidTest *t,
                const FidMetrics *orig,
                const FidMetrics *ours,
                const FidKnown *k,
                gint64 dur_slack_us,
                GString *diffs)
{
  for (guint i = 0; i < FID_N_METRICS; i++)
    {
      const char *name = fid_metric_names[i];
      gboolean same = orig->values[i] == ours->values[i];

      if (g_str_equal (name, "slice_dur_us"))
        same = ABS (orig->values[i] - ours->values[i]) <= dur_slack_us;

      if (fid_metric_is_info_only (name))
        continue;
      if (fid_known_has_metric (k, name))
        {
          if (same)
            g_string_append_printf (diffs, "  %s: listed as a known difference but both read %" G_GINT64_FORMAT " (remove it from known-differences.txt and docs/fidelity.md)\n",
                                    name, ours->values[i]);
          continue;
        }
      if (!same)
        g_string_append_printf (diffs, "  %s: original %" G_GINT64_FORMAT ", ours %" G_GINT64_FORMAT "\n",
                                name, orig->values[i], ours->values[i]);
    }
}

/* An import error only our output gives is ours. */
static void
compare_errors (const FidMetrics *orig,
                const FidMetrics *ours,
                const FidKnown *k,
                GString *diffs)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, ours->errors);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      int base = orig != NULL ? GPOINTER_TO_INT (g_hash_table_lookup (orig->errors, key)) : 0;

      if (GPOINTER_TO_INT (value) > base && !fid_known_has_metric (k, key))
        g_string_append_printf (diffs, "  import error %s: original %d, ours %d\n", (char *) key, base,
                                GPOINTER_TO_INT (value));
    }
}

static void
print_counts (const FidMetrics *orig,
              const FidMetrics *ours)
{
  for (guint i = 0; i < FID_N_METRICS; i++)
    g_test_message ("%-18s %14" G_GINT64_FORMAT " %14" G_GINT64_FORMAT, fid_metric_names[i],
                    orig != NULL ? orig->values[i] : -1, ours->values[i]);
}

/* Converts @t's input into @tmpdir (*@out) and measures it; NULL with
 * the reason in @diffs when either fails. */
static FidMetrics *
measure_ours (const FidTest *t,
              const char *tmpdir,
              char **out,
              GString *diffs)
{
  g_autoptr (GError) error = NULL;
  FidMetrics *ours;

  *out = convert_or_fail (t, tmpdir);
  if (*out == NULL)
    return NULL;
  ours = fid_measure (*out, &error);
  if (ours == NULL)
    g_string_append_printf (diffs, "  our output: %s\n", error->message);
  return ours;
}

/* Our Perfetto output converted once more reads exactly as it did: a
 * difference is a place where perfetto-src does not read back what
 * perfetto-sink wrote (a user converting a converted file sees it).
 * Known differences are listed with the output `again`. */
static void
check_second_pass (const FidTest *t,
                   const char *out,
                   const FidMetrics *ours,
                   GString *diffs)
{
  g_autoptr (FidKnown) k = fid_known_collect (known, t->name, "again");
  g_autofree char *again = g_strdup_printf ("%s.again.pftrace", out);
  g_autofree char *why = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (FidMetrics) twice = NULL;

  if (!fid_convert (out, "perfetto-sink", NULL, again, &why))
    {
      g_string_append_printf (diffs, "  our output converted again: %s\n", why);
      return;
    }
  twice = fid_measure (again, &error);
  g_unlink (again);
  if (twice == NULL)
    {
      g_string_append_printf (diffs, "  our output converted again: %s\n", error->message);
      return;
    }
  for (guint i = 0; i < FID_N_METRICS; i++)
    {
      const char *name = fid_metric_names[i];
      gboolean same = ours->values[i] == twice->values[i];

      if (fid_known_has_metric (k, name) && same)
        g_string_append_printf (diffs, "  %s: listed as a known difference of the second conversion but both read %" G_GINT64_FORMAT " (remove it from known-differences.txt and docs/fidelity.md)\n",
                                name, ours->values[i]);
      else if (!fid_known_has_metric (k, name) && !same)
        g_string_append_printf (diffs, "  %s: ours %" G_GINT64_FORMAT ", converted again %" G_GINT64_FORMAT "\n",
                                name, ours->values[i], twice->values[i]);
    }
  compare_errors (ours, twice, k, diffs);
}

static void
test_data_file (gconstpointer data)
{
  const FidTest *t = data;
  g_autoptr (FidKnown) k = fid_known_collect (known, t->name, t->output);
  g_autofree char *tmpdir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (FidMetrics) ours = NULL;
  g_autoptr (GString) diffs = g_string_new (NULL);
  const FidMetrics *orig;

  if (!have_trace_processor () || !plugin_built_for (t->name))
    return;
  tmpdir = g_dir_make_tmp ("fidelity-XXXXXX", NULL);
  orig = measure_original (t->path, tmpdir, &error);
  if (orig == NULL && !fid_known_has_metric (k, "unreadable"))
    g_string_append_printf (diffs, "  %s (if trace_processor truly cannot read it, list it as unreadable)\n",
                            error->message);
  if (orig != NULL && fid_known_has_metric (k, "unreadable"))
    g_string_append (diffs, "  listed as unreadable, but trace_processor reads it\n");
  ours = measure_ours (t, tmpdir, &out, diffs);
  if (ours != NULL)
    {
      print_counts (orig, ours);
      if (orig != NULL)
        compare_counts (t, orig, ours, k, 0, diffs);
      compare_errors (orig, ours, k, diffs);
      if (g_str_equal (t->output, "perfetto"))
        check_second_pass (t, out, ours, diffs);
    }
  if (diffs->len > 0)
    g_test_fail_printf ("%s -> %s differs:\n%s", t->name, t->output, diffs->str);
  if (out != NULL)
    g_unlink (out);
  g_rmdir (tmpdir);
}

/* --- pairs: a binary capture against the kernel's text of it --- */

/* pairs.txt: CONVERTED ORIGINAL: a file trace_processor cannot read (a
 * trace.dat) converted by us, against the text the kernel printed of the
 * same buffer, which trace_processor reads. The text rounds times to the
 * microsecond: the total duration may differ by up to one microsecond per
 * slice. Known differences are listed as `pair:CONVERTED`. */
typedef struct
{
  char *converted;
  char *original;
} FidPair;

static void
test_pair (gconstpointer data)
{
  const FidPair *pair = data;
  g_autofree char *key = g_strconcat ("pair:", pair->converted, NULL);
  g_autoptr (FidKnown) k = fid_known_collect (known, key, "perfetto");
  FidTest t = { g_build_filename (TEST_DATA_DIR, pair->converted, NULL), key, "perfetto", "perfetto-sink" };
  g_autofree char *original = g_build_filename (TEST_DATA_DIR, pair->original, NULL);
  g_autofree char *tmpdir = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (FidMetrics) ours = NULL;
  g_autoptr (GString) diffs = g_string_new (NULL);
  const FidMetrics *orig;

  if (!have_trace_processor () || !plugin_built_for (pair->converted))
    goto done;
  tmpdir = g_dir_make_tmp ("fidelity-XXXXXX", NULL);
  orig = measure_original (original, tmpdir, &error);
  g_assert_no_error (error);
  ours = measure_ours (&t, tmpdir, &out, diffs);
  if (ours != NULL)
    {
      print_counts (orig, ours);
      /* values[0]: slices, each up to a microsecond off */
      compare_counts (&t, orig, ours, k, ours->values[0] + 1, diffs);
      compare_errors (orig, ours, k, diffs);
    }
  if (diffs->len > 0)
    g_test_fail_printf ("%s -> perfetto against %s differs:\n%s", pair->converted, pair->original, diffs->str);
  if (out != NULL)
    g_unlink (out);
  g_rmdir (tmpdir);
done:
  g_free (t.path);
}

static void
add_pair_tests (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;
      FidPair *pair;
      g_autofree char *name = NULL;

      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      f = g_strsplit_set (lines[i], " \t", 3);
      g_assert_cmpuint (g_strv_length (f), >=, 2);
      pair = g_new0 (FidPair, 1);
      pair->converted = g_strdup (f[0]);
      pair->original = g_strdup (f[1]);
      name = g_strdup_printf ("/fidelity/pair/%s/perfetto", pair->converted);
      g_test_add_data_func (name, pair, test_pair);
    }
}

/* --- cases: row by row --- */

/* The third query, where there is one, is the table with each named
 * thread (an unnamed main thread by its process' name) told by its name
 * instead of its tid: how a case listed with the
 * metric "tids" is compared (string tids, which trace_processor turns into
 * made-up tids of its own; docs/fidelity.md). */
#define FID_THREAD_BY_NAME \
  "coalesce(t.name, case when t.tid = p.pid then 'main thread of ' || coalesce(p.name, p.pid) end, t.tid)"

static const char *const row_queries[][3] = {
  { "slices",
    "select s.ts, s.dur, s.depth, s.name, t.tid, s.thread_ts, s.thread_dur from slice s"
    " left join thread_track tt on s.track_id = tt.id left join thread t using (utid)"
    " order by s.ts, t.tid, s.depth, s.name, s.dur",
    "select s.ts, s.dur, s.depth, s.name, " FID_THREAD_BY_NAME " as thread, s.thread_ts, s.thread_dur"
    " from slice s left join thread_track tt on s.track_id = tt.id left join thread t using (utid)"
    " left join process p using (upid) order by s.ts, thread, s.depth, s.name, s.dur" },
  { "flows",
    "select so.ts, so.name, si.ts, si.name from flow f join slice so on so.id = f.slice_out"
    " join slice si on si.id = f.slice_in order by 1, 2, 3, 4",
    NULL },
  { "counters",
    "select ct.name, c.ts, c.value from counter c join counter_track ct on c.track_id = ct.id"
    " order by 1, 2, 3",
    NULL },
  { "threads",
    "select t.tid, t.name, p.pid from thread t left join process p using (upid)"
    " where t.tid != 0 order by 1, 2, 3",
    "select " FID_THREAD_BY_NAME ", t.name, coalesce(p.name, p.pid) from thread t"
    " left join process p using (upid) where t.tid != 0 order by 1, 2, 3" },
  /* Thread states and sched slices (the kernel's, or a JSON `T`'s) of
   * threads other than the idle task (trace_processor's JSON importer
   * does not register tid 0 as idle, docs/fidelity.md). */
  { "thread_states",
    "select ts.ts, ts.dur, ts.state, ts.io_wait, ts.blocked_function, ts.cpu, t.tid from thread_state ts"
    " join thread t using (utid) where t.tid != 0 order by 1, 7, 3",
    NULL },
  { "sched",
    "select s.ts, s.dur, s.cpu, t.tid from sched s join thread t using (utid) where t.tid != 0 order by 1, 3, 4",
    NULL },
  /* The args of the slices, by key without its first component: JSON
   * args read as args.KEY, our TrackEvents' debug annotations as
   * debug.KEY (a TrackEvent has no way to write args.). */
  { "args",
    "select s.ts, s.name, substr(a.key, instr(a.key, '.') + 1) as k, a.display_value from slice s"
    " join args a using (arg_set_id) where a.key glob 'args.*' or a.key glob 'debug.*'"
    " order by 1, 2, 3, 4",
    NULL },
  { "import errors",
    "select name, value from stats where severity in ('error', 'data_loss') and value > 0"
    " order by name",
    NULL },
};

static void
diff_rows (const char *what,
           FidRows *orig,
           FidRows *ours,
           GString *diffs)
{
  g_autoptr (GString) d = g_string_new (NULL);

  for (guint i = 0; i < MAX (orig->lines->len, ours->lines->len); i++)
    {
      const char *a = i < orig->lines->len ? g_ptr_array_index (orig->lines, i) : "(none)";
      const char *b = i < ours->lines->len ? g_ptr_array_index (ours->lines, i) : "(none)";

      if (!g_str_equal (a, b))
        g_string_append_printf (d, "    row %u: original %s\n             ours     %s\n", i, a, b);
    }
  if (d->len > 0)
    g_string_append_printf (diffs, "  %s (header: %s):\n%s", what, (char *) g_ptr_array_index (orig->lines, 0),
                            d->str);
}

/* Import errors: ours may give none the original does not (the rule for
 * tests/data too); one the original gives is the input's, and a
 * conversion that avoids it (a spilled or cut slice written whole and
 * well nested) reads the same slices. */
static void
diff_new_errors (FidRows *orig,
                 FidRows *ours,
                 GString *diffs)
{
  for (guint i = 1; i < ours->lines->len; i++)
    {
      const char *row = g_ptr_array_index (ours->lines, i);
      const char *comma = strrchr (row, ',');
      gsize name_len = comma ? (gsize) (comma - row) : strlen (row);
      gboolean found = FALSE;

      for (guint k = 1; k < orig->lines->len && !found; k++)
        {
          const char *o = g_ptr_array_index (orig->lines, k);
          const char *oc = strrchr (o, ',');

          found = (oc ? (gsize) (oc - o) : strlen (o)) == name_len && strncmp (o, row, name_len) == 0 &&
                  (comma == NULL || oc == NULL || g_ascii_strtoll (comma + 1, NULL, 10) <= g_ascii_strtoll (oc + 1, NULL, 10));
        }
      if (!found)
        g_string_append_printf (diffs, "  import errors: ours gives %s, the original does not\n", row);
    }
}

/* A table a case lists as a known difference must still differ. */
static void
known_rows_differ (const char *what,
                   FidRows *orig,
                   FidRows *ours,
                   GString *diffs)
{
  g_autoptr (GString) d = g_string_new (NULL);

  diff_rows (what, orig, ours, d);
  if (d->len == 0)
    g_string_append_printf (diffs, "  %s: listed as a known difference but both read the same rows"
                                   " (remove it from known-differences.txt and docs/fidelity.md)\n",
                            what);
}

static void
test_case_file (gconstpointer data)
{
  const FidTest *t = data;
  g_autoptr (FidKnown) k = fid_known_collect (known, t->name, t->output);
  g_autofree char *tmpdir = NULL;
  g_autofree char *ref = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GString) diffs = g_string_new (NULL);
  g_autoptr (GString) tids_differ = g_string_new (NULL);
  gboolean by_name;

  if (!have_trace_processor ())
    return;
  tmpdir = g_dir_make_tmp ("fidelity-XXXXXX", NULL);
  ref = fid_reference_copy (t->path, tmpdir);
  out = convert_or_fail (t, tmpdir);
  by_name = fid_known_has_metric (k, "tids");
  for (guint i = 0; out != NULL && i < G_N_ELEMENTS (row_queries); i++)
    {
      g_autoptr (GError) error = NULL;
      const char *sql = by_name && row_queries[i][2] ? row_queries[i][2] : row_queries[i][1];
      g_autoptr (FidRows) a = fid_query (ref, sql, &error);
      g_autoptr (FidRows) b = NULL;

      g_assert_no_error (error);
      b = fid_query (out, sql, &error);
      g_assert_no_error (error);
      if (g_str_equal (row_queries[i][0], "import errors"))
        diff_new_errors (a, b, diffs);
      else if (fid_known_has_metric (k, row_queries[i][0]))
        known_rows_differ (row_queries[i][0], a, b, diffs);
      else
        diff_rows (row_queries[i][0], a, b, diffs);
      if (by_name && row_queries[i][2] != NULL)
        {
          /* by tid they must still differ, or the entry is stale */
          g_autoptr (FidRows) ta = fid_query (ref, row_queries[i][1], &error);
          g_autoptr (FidRows) tb = NULL;

          g_assert_no_error (error);
          tb = fid_query (out, row_queries[i][1], &error);
          g_assert_no_error (error);
          diff_rows (row_queries[i][0], ta, tb, tids_differ);
        }
    }
  if (by_name && out != NULL && tids_differ->len == 0)
    g_string_append (diffs, "  tids: listed as a known difference but both read the same tids"
                            " (remove it from known-differences.txt and docs/fidelity.md)\n");
  if (diffs->len > 0)
    g_test_fail_printf ("%s -> %s reads differently:\n%s", t->name, t->output, diffs->str);
  if (out != NULL)
    g_unlink (out);
  if (!g_str_equal (ref, t->path))
    g_unlink (ref);
  g_rmdir (tmpdir);
}

/* --- the list of known differences is explained in the docs --- */

static void
test_known_documented (void)
{
  g_autofree char *doc = NULL;
  g_autoptr (GError) error = NULL;

  g_file_get_contents (FIDELITY_DOC, &doc, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < known->len; i++)
    {
      const FidKnown *k = g_ptr_array_index (known, i);
      g_autofree char *base = g_path_get_basename (k->file);

      if (strstr (doc, base) == NULL)
        g_test_fail_printf ("%s is in known-differences.txt but not explained in docs/fidelity.md", base);
    }
}

/* --- registering one test per file and output --- */

/* Inputs, not the notes and sources beside them; the fuzz regressions are
 * damaged on purpose and have their own suite. */
static gboolean
is_trace_file (const char *rel)
{
  g_autofree char *base = g_path_get_basename (rel);

  return !g_str_has_prefix (rel, "fuzz-regressions/") && !g_str_has_suffix (rel, ".md") && !g_str_has_suffix (rel, ".sh") &&
         !g_str_has_suffix (rel, ".textproto") && base[0] != '.';
}

static void
collect_files (const char *root,
               const char *rel,
               GPtrArray *found)
{
  g_autofree char *dir_path = g_build_filename (root, rel, NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = rel[0] ? g_build_filename (rel, entry, NULL) : g_strdup (entry);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        collect_files (root, child, found);
      else if (is_trace_file (child))
        g_ptr_array_add (found, g_steal_pointer (&child));
    }
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
add_tests (const char *kind,
           const char *root,
           GTestDataFunc func)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_free);

  collect_files (root, "", files);
  g_ptr_array_sort (files, compare_paths);
  for (guint i = 0; i < files->len; i++)
    for (guint o = 0; o < G_N_ELEMENTS (outputs); o++)
      {
        FidTest *t;
        g_autofree char *path = g_strdup_printf ("/fidelity/%s/%s/%s", kind, (char *) files->pdata[i],
                                                 outputs[o][0]);

        /* ftrace text carries no args, which the cases compare row by
         * row: only the cases that are ftrace text are written as it */
        if (g_str_equal (outputs[o][0], "systrace") && g_str_equal (kind, "case") &&
            !g_str_has_suffix (files->pdata[i], ".systrace"))
          continue;
        t = g_new0 (FidTest, 1);
        t->name = g_strdup (files->pdata[i]);
        t->path = g_build_filename (root, t->name, NULL);
        t->output = outputs[o][0];
        t->sink = outputs[o][1];
        g_test_add_data_func_full (path, t, func, NULL);
      }
}

/* case-sinks.txt: CASE OUTPUT PROP=VALUE...: a case converted with a
 * sink property other than its default. */
static GHashTable *
load_case_sink_props (const char *path)
{
  GHashTable *props = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return props;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;

      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      f = g_strsplit_set (lines[i], " \t", -1);
      g_assert_cmpuint (g_strv_length (f), >=, 3);
      g_hash_table_insert (props, g_strdup_printf ("%s %s", f[0], f[1]), g_strdupv (f + 2));
    }
  return props;
}

static void
metrics_free0 (gpointer m)
{
  if (m != NULL)
    fid_metrics_free (m);
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  known = fid_known_load (FIDELITY_KNOWN, &error);
  g_assert_no_error (error);
  case_sink_props = load_case_sink_props (FIDELITY_CASE_SINKS);
  original_metrics = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, metrics_free0);
  g_test_add_func ("/fidelity/known-differences-documented", test_known_documented);
  add_tests ("data", TEST_DATA_DIR, test_data_file);
  add_tests ("case", FIDELITY_CASES_DIR, test_case_file);
  add_pair_tests (FIDELITY_PAIRS);
  return g_test_run ();
}
