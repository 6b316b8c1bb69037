/* tracepipe fidelity tests - asking trace_processor what a trace holds
 *
 * Every question goes to the real trace_processor_shell (the importer of
 * the Perfetto UI) as a SQL file; its CSV answer is kept as lines, so a
 * difference shows as the rows a user would see in the UI's query page.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "fidelity-util.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

const char *const fid_metric_names[FID_N_METRICS] = {
  "slices",
  "slice_names",
  "slice_dur_us",
  "unfinished_slices",
  "flows",
  "counters",
  "counter_tracks",
  "sched",
  "thread_states",
  "instants",
  "threads_named",
  "processes_named",
  "ftrace_events",
  "first_ts",
  "args_keys",
  "samples",
  "callsites",
};

/* One row with every count, in fid_metric_names' order (the same
 * definitions as tools/tp-compare beside trace_processor_shell, plus the
 * number of distinct arg keys on slices, the CPU profile and perf
 * samples, and the callsites of their stacks). */
static const char metrics_sql[] =
    "select (select count(*) from slice),"
    " (select count(distinct name) from slice),"
    " (select cast(sum(case when dur > 0 then dur else 0 end) / 1000 as int) from slice),"
    " (select count(*) from slice where dur < 0),"
    " (select count(*) from flow),"
    " (select count(*) from counter),"
    " (select count(*) from counter_track),"
    " (select count(*) from sched),"
    " (select count(*) from thread_state),"
    " (select count(*) from slice where dur = 0),"
    " (select count(distinct tid) from thread where tid != 0 and name is not null"
    "    and name not in ('', '<...>', '<unknown>')),"
    " (select count(distinct pid) from process where pid != 0 and name is not null and name != ''),"
    " (select count(*) from ftrace_event),"
    " (select min(ts) from (select ts from slice union all select ts from counter"
    "    union all select ts from sched)),"
    " (select count(distinct a.key) from slice s join args a using (arg_set_id)),"
    " (select (select count(*) from cpu_profile_stack_sample) + (select count(*) from perf_sample)),"
    " (select count(*) from stack_profile_callsite)";

static const char errors_sql[] =
    "select name, value from stats where severity in ('error', 'data_loss') and value > 0 order by name";

gboolean
fid_metric_is_info_only (const char *name)
{
  return g_str_equal (name, "first_ts") || g_str_equal (name, "ftrace_events") ||
         g_str_equal (name, "args_keys");
}

void
fid_rows_free (FidRows *rows)
{
  g_ptr_array_unref (rows->lines);
  g_free (rows);
}

static FidRows *
rows_from_csv (const char *out)
{
  FidRows *rows = g_new0 (FidRows, 1);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  rows->lines = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (rows->lines, g_strdup (lines[i]));
  return rows;
}

FidRows *
fid_query (const char *trace,
           const char *sql,
           GError **error)
{
  const char *tp = g_getenv ("TRACE_PROCESSOR");
  g_autofree char *sql_path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GSubprocess) proc = NULL;
  int fd = g_file_open_tmp ("fidelity-XXXXXX.sql", &sql_path, error);

  if (fd < 0)
    return NULL;
  close (fd);
  if (!g_file_set_contents (sql_path, sql, -1, error))
    return NULL;
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, error, tp,
                           "-q", sql_path, trace, NULL);
  if (proc == NULL || !g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, error))
    {
      g_unlink (sql_path);
      return NULL;
    }
  g_unlink (sql_path);
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    {
      const char *last = g_strrstr (err, "\n[");

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "trace_processor cannot read %s: %s", trace,
                   g_strstrip (last != NULL ? (char *) last + 1 : err));
      return NULL;
    }
  return rows_from_csv (out);
}

static gint64
csv_number (const char *field)
{
  if (g_str_equal (field, "[NULL]") || field[0] == '\0')
    return 0;
  return (gint64) g_ascii_strtod (field, NULL);
}

void
fid_metrics_free (FidMetrics *m)
{
  g_clear_pointer (&m->errors, g_hash_table_unref);
  g_free (m);
}

static gboolean
measure_errors (FidMetrics *m,
                const char *trace,
                GError **error)
{
  g_autoptr (FidRows) rows = fid_query (trace, errors_sql, error);

  if (rows == NULL)
    return FALSE;
  for (guint i = 1; i < rows->lines->len; i++)
    {
      g_auto (GStrv) f = g_strsplit (g_ptr_array_index (rows->lines, i), ",", 2);

      if (f[0] != NULL && f[1] != NULL)
        g_hash_table_insert (m->errors, g_strdup (g_strstrip (g_strdelimit (f[0], "\"", ' '))),
                             GINT_TO_POINTER ((int) csv_number (f[1])));
    }
  return TRUE;
}

FidMetrics *
fid_measure (const char *trace,
             GError **error)
{
  g_autoptr (FidMetrics) m = g_new0 (FidMetrics, 1);
  g_autoptr (FidRows) rows = fid_query (trace, metrics_sql, error);
  g_auto (GStrv) fields = NULL;

  m->errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (rows == NULL)
    return NULL;
  g_assert_cmpuint (rows->lines->len, ==, 2);
  fields = g_strsplit (g_ptr_array_index (rows->lines, 1), ",", -1);
  g_assert_cmpuint (g_strv_length (fields), ==, FID_N_METRICS);
  for (guint i = 0; i < FID_N_METRICS; i++)
    m->values[i] = csv_number (fields[i]);
  if (!measure_errors (m, trace, error))
    return NULL;
  return g_steal_pointer (&m);
}

/* The rule of tp-compare: JSON, gzip and binary files are left alone. */
static gboolean
is_text_without_final_newline (const char *data,
                               gsize len)
{
  if (len == 0 || data[len - 1] == '\n')
    return FALSE;
  if (data[0] == '{' || data[0] == '[' || data[0] == '\x1f' || data[0] == '\n')
    return FALSE;
  return memchr (data, '\0', MIN (len, 4096)) == NULL;
}

char *
fid_reference_copy (const char *trace,
                    const char *tmpdir)
{
  g_autofree char *data = NULL;
  g_autofree char *base = NULL;
  g_autofree char *copy = NULL;
  gsize len;

  if (!g_file_get_contents (trace, &data, &len, NULL) || !is_text_without_final_newline (data, len))
    return g_strdup (trace);
  base = g_path_get_basename (trace);
  copy = g_build_filename (tmpdir, base, NULL);
  data = g_realloc (data, len + 1);
  data[len] = '\n';
  g_assert_true (g_file_set_contents (copy, data, len + 1, NULL));
  return g_steal_pointer (&copy);
}

gboolean
fid_convert (const char *input,
             const char *sink,
             const char *const *sink_props,
             const char *output,
             char **why)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *err = NULL;
  g_autoptr (GSubprocess) proc = NULL;

  g_ptr_array_add (argv, g_strdup (g_getenv ("TRACE_LAUNCH")));
  g_ptr_array_add (argv, g_strdup ("-q"));
  g_ptr_array_add (argv, g_strdup ("auto-src"));
  g_ptr_array_add (argv, g_strdup_printf ("location=%s", input));
  g_ptr_array_add (argv, g_strdup ("!"));
  g_ptr_array_add (argv, g_strdup (sink));
  for (guint i = 0; sink_props != NULL && sink_props[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (sink_props[i]));
  g_ptr_array_add (argv, g_strdup_printf ("location=%s", output));
  g_ptr_array_add (argv, NULL);
  proc = g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  if (proc == NULL || !g_subprocess_communicate_utf8 (proc, NULL, NULL, NULL, &err, &error))
    {
      *why = g_strdup (error->message);
      return FALSE;
    }
  if (!g_subprocess_get_if_exited (proc) || g_subprocess_get_exit_status (proc) != 0)
    {
      *why = g_strdup_printf ("trace-launch failed on %s: %s", input, err);
      return FALSE;
    }
  return TRUE;
}

void
fid_known_free (FidKnown *k)
{
  g_free (k->file);
  g_free (k->output);
  g_strfreev (k->metrics);
  g_free (k->reason);
  g_free (k);
}

GPtrArray *
fid_known_load (const char *path,
                GError **error)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *known = g_ptr_array_new_with_free_func ((GDestroyNotify) fid_known_free);

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = NULL;
      FidKnown *k;

      g_strstrip (lines[i]);
      if (lines[i][0] == '\0' || lines[i][0] == '#')
        continue;
      f = g_strsplit_set (lines[i], " \t", 4);
      if (g_strv_length (f) < 4)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "%s:%u: want FILE OUTPUT METRICS REASON", path, i + 1);
          g_ptr_array_unref (known);
          return NULL;
        }
      k = g_new0 (FidKnown, 1);
      k->file = g_strdup (f[0]);
      k->output = g_strdup (f[1]);
      k->metrics = g_strsplit (f[2], ",", -1);
      k->reason = g_strdup (g_strstrip (f[3]));
      g_ptr_array_add (known, k);
    }
  return known;
}

/* Whether an entry's OUTPUT (`*`, one output, or several with commas:
 * `perfetto,json`) names @output. */
static gboolean
names_output (const char *outputs,
              const char *output)
{
  g_auto (GStrv) each = g_strsplit (outputs, ",", -1);

  /* `again` (our Perfetto output converted once more) is named alone */
  return (g_str_equal (outputs, "*") && !g_str_equal (output, "again")) ||
         g_strv_contains ((const char *const *) each, output);
}

/* Every entry of @file for @output, merged: a file may be listed once
 * for all outputs and again for one of them. */
FidKnown *
fid_known_collect (GPtrArray *known,
                   const char *file,
                   const char *output)
{
  g_autoptr (GStrvBuilder) metrics = g_strv_builder_new ();
  FidKnown *merged = NULL;

  for (guint i = 0; i < known->len; i++)
    {
      const FidKnown *k = g_ptr_array_index (known, i);

      if (!g_str_equal (k->file, file) || !names_output (k->output, output))
        continue;
      if (merged == NULL)
        {
          merged = g_new0 (FidKnown, 1);
          merged->file = g_strdup (file);
          merged->output = g_strdup (output);
          merged->reason = g_strdup (k->reason);
        }
      g_strv_builder_addv (metrics, (const char **) k->metrics);
    }
  if (merged != NULL)
    merged->metrics = g_strv_builder_end (metrics);
  return merged;
}

gboolean
fid_known_has_metric (const FidKnown *k,
                      const char *metric)
{
  return k != NULL && g_strv_contains ((const char *const *) k->metrics, metric);
}
