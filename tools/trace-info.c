/* tracepipe tools - trace-info: what a trace holds, without converting it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "info-report.h"
#include "launch.h"
#include "tool-util.h"

#define SUMMARY                                                                            \
  "Reads each trace once, through the same sources as trace-launch (auto-src:\n"           \
  "the format is detected from the content), and prints what it holds: the\n"              \
  "format and clock, the first and last timestamps and the duration, event\n"              \
  "counts by kind, the busiest processes and threads with their names, the\n"              \
  "most frequent slice names, the counters, and what the source skipped and why.\n"        \
  "A folder stands for the files in it; - is standard input (cat trace | trace-info -).\n" \
  "Memory stays bounded whatever the size."

#define DESCRIPTION                                                                 \
  "Timestamps are shown absolute, in the trace's own clock (seconds, and the\n"     \
  "nanoseconds the events carry), and relative to the first event: a relative\n"    \
  "time +T means first event + T.\n"                                                \
  "\n"                                                                              \
  "With --json, each file is one line of JSON (JSON Lines), timestamps in\n"        \
  "integer nanoseconds: file, format (an id), format-description (the same in\n"    \
  "words, null for a plugin's format trace-info does not know), detected-format,\n" \
  "clock, clock-source, events, first-ts, last-ts, duration, kinds, processes,\n"   \
  "threads, slice-names, counters, skipped (the source's non-zero skip\n"           \
  "counters), source (all its counters).\n"                                         \
  "\n"                                                                              \
  "Examples:\n"                                                                     \
  "  trace-info trace.html\n"                                                       \
  "  trace-info --json captures/ | jq '{file, events, duration}'\n"                 \
  "\n"                                                                              \
  "Exit status:\n"                                                                  \
  "  0    every file was read\n"                                                    \
  "  1    a file could not be read (the others are still summarised)\n"             \
  "  2    bad usage\n"                                                              \
  "  130  interrupted by Ctrl-C"

typedef struct
{
  gboolean json;
  gint top;
  gboolean version;
  char **files;
} Options;

static gboolean
parse_options (Options *o,
               int *argc,
               char ***argv,
               GError **error)
{
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &o->json, "Print one line of JSON per file, for scripts", NULL },
    { "top", 'n', 0, G_OPTION_ARG_INT, &o->top, "Show the N busiest processes, threads, names (default 10)", "N" },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o->version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->files, NULL, "FILE|FOLDER..." },
    { NULL }
  };

  return tool_parse_options (entries, SUMMARY, DESCRIPTION, argc, argv, error);
}

static void
report (LaunchState *s,
        const char *path,
        const Options *o)
{
  TraceElement *src = trace_bin_get_by_name (TRACE_BIN (s->pipeline), "src");
  TraceElement *sink = trace_bin_get_by_name (TRACE_BIN (s->pipeline), "info");
  g_autofree char *src_path = trace_element_get_path_string (src);
  g_autofree char *inner_prefix = g_strconcat (src_path, "/", NULL);
  InfoResult r = {
    .path = path,
    .summary = trace_info_sink_get_summary (TRACE_INFO_SINK (sink)),
    .pool = trace_element_get_string_pool (sink),
  };
  g_autofree char *detected = NULL;
  GHashTableIter iter;
  gpointer key, value;

  /* The STATS message comes from the source auto-src made inside itself
   * (/pipeline0/src/ftrace-src0): its counters are the file's. */
  g_hash_table_iter_init (&iter, s->posted_stats);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_has_prefix (key, inner_prefix) || strcmp (key, src_path) == 0)
      r.source_stats = value;
  g_object_get (src, "detected-format", &detected, NULL);
  r.detected = detected;

  if (o->json)
    info_print_json (&r, o->top);
  else
    info_print_text (&r, o->top);
}

/* Runs `auto-src location=PATH ! info-sink` with trace-launch's code:
 * the same errors, progress line and Ctrl-C handling. */
static int
info_one (const char *path,
          const Options *o)
{
  g_autofree char *quoted = tool_quote_value (path);
  g_autofree char *description = g_strdup_printf ("auto-src name=src location=%s ! info-sink name=info", quoted);
  g_autoptr (GError) error = NULL;
  LaunchState s;
  int exit_code;

  launch_state_init (&s);
  s.quiet = TRUE;
  s.progress = s.progress_tty = isatty (STDERR_FILENO);
  s.pipeline = trace_parse_launch (description, &error);
  if (s.pipeline == NULL)
    {
      g_printerr ("ERROR: %s: %s\n", path, error->message);
      launch_state_clear (&s);
      return LAUNCH_EXIT_RUNTIME_ERROR;
    }
  exit_code = launch_run (&s);
  if (exit_code == LAUNCH_EXIT_OK)
    report (&s, path, o);
  launch_state_clear (&s);
  return exit_code;
}

static int
info_all (GPtrArray *paths,
          const Options *o)
{
  int exit_code = LAUNCH_EXIT_OK;

  for (guint i = 0; i < paths->len; i++)
    {
      int rc;

      if (i > 0 && !o->json)
        g_print ("\n");
      rc = info_one (paths->pdata[i], o);
      if (rc == LAUNCH_EXIT_INTERRUPTED)
        return rc;
      if (rc != LAUNCH_EXIT_OK)
        exit_code = LAUNCH_EXIT_RUNTIME_ERROR;
    }
  return exit_code;
}

static int
usage_error (const char *message)
{
  g_printerr ("trace-info: %s\nTry \"trace-info --help\".\n", message);
  return LAUNCH_EXIT_USAGE;
}

int
main (int argc,
      char **argv)
{
  Options o = { .top = 10 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) paths = NULL;
  int exit_code;

  tool_init_process ();
  if (!parse_options (&o, &argc, &argv, &error))
    return usage_error (error->message);
  if (o.version)
    {
      g_print ("trace-info (tracepipe) %s\n", PACKAGE_VERSION);
      return LAUNCH_EXIT_OK;
    }
  if (o.files == NULL || o.files[0] == NULL)
    return usage_error ("no trace file given");
  if (o.top < 0)
    return usage_error ("--top must be 0 or more");
  if ((paths = tool_expand_inputs (o.files, &error)) == NULL)
    {
      g_printerr ("ERROR: %s\n", error->message);
      g_strfreev (o.files);
      return LAUNCH_EXIT_RUNTIME_ERROR;
    }
  if (!trace_init_check (&argc, &argv, &error) || !info_register_elements (&error))
    {
      g_printerr ("ERROR: could not initialise tracepipe: %s\n", error->message);
      g_strfreev (o.files);
      return LAUNCH_EXIT_RUNTIME_ERROR;
    }
  exit_code = info_all (paths, &o);
  g_strfreev (o.files);
  return exit_code;
}
