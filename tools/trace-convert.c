/* tracepipe tools - trace-convert: IN OUT, the format of each told by the file
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "convert.h"
#include "launch.h"
#include "tool-util.h"

#define SUMMARY                                                                        \
  "Converts IN to OUT. The input format is detected from the content (auto-src);\n"    \
  "the output format is chosen from OUT's extension:\n"                                \
  "  .pftrace .perfetto-trace .pb   Perfetto (perfetto-sink)\n"                        \
  "  .json                          Chrome JSON (json-sink)\n"                         \
  "  .txt .systrace                 ftrace text with atrace markers (ftrace-sink)\n"   \
  "and any of them followed by .gz (trace.json.gz) is written gzip-compressed.\n"      \
  "It builds the pipeline trace-launch would run (-v prints it) and runs it with\n"    \
  "the same code. IN may be - (standard input, read once: detection's bytes go\n"      \
  "to the source); OUT may be - (standard output) with --to perfetto|json|systrace.\n" \
  "\n"                                                                                 \
  "With -o TEMPLATE it converts every IN (a folder stands for the files in it)\n"      \
  "to TEMPLATE, where {name} is the input's file name without its extensions;\n"       \
  "missing folders are created. -j N conversions run at once, each in its own\n"       \
  "process; each file gets one line on standard error (ok, stopped or FAILED)\n"       \
  "and a last line counts them. No output may be an input or another's output:\n"      \
  "the whole batch is checked before the first file is written."

#define DESCRIPTION                                                                                \
  "Examples:\n"                                                                                    \
  "  trace-convert trace.html trace.pftrace\n"                                                     \
  "  trace-convert --main-thread --start 1212.5s --end 1213s trace.txt main.json\n"                \
  "  trace-convert --filter 'process-name=com.example* kind=slices' trace.txt app.pftrace\n"       \
  "  trace-convert -o out/{name}.pftrace -j 4 captures/\n"                                         \
  "  parallel trace-convert {} out/{/.}.pftrace ::: captures/*   (GNU parallel, one file a job)\n" \
  "\n"                                                                                             \
  "--start and --end are times in the trace's own clock (1212.5s), or after its\n"                 \
  "first event with a + (+1.5s); trace-info shows both. --filter takes properties\n"               \
  "of the filter element in launch syntax (trace-inspect filter lists them).\n"                    \
  "\n"                                                                                             \
  "Exit status:\n"                                                                                 \
  "  0    every conversion finished\n"                                                             \
  "  1    a conversion failed (with -o: any of them; the others still ran)\n"                      \
  "  2    bad usage\n"                                                                             \
  "  130  interrupted by Ctrl-C (the outputs were finished)\n"                                     \
  "  143  stopped by SIGTERM (with -o, SIGHUP gives 129), handled like Ctrl-C"

static void
options_clear (ConvertOptions *o)
{
  g_free (o->start);
  g_free (o->end);
  g_free (o->filter);
  g_free (o->to);
  g_free (o->output_template);
  g_strfreev (o->files);
}

static gboolean
parse_options (ConvertOptions *o,
               int *argc,
               char ***argv,
               GError **error)
{
  const GOptionEntry entries[] = {
    { "main-thread", 0, 0, G_OPTION_ARG_NONE, &o->main_thread, "Keep only the main thread of each process", NULL },
    { "start", 0, 0, G_OPTION_ARG_STRING, &o->start, "Keep what happens from TIME on (1212.5s; +1.5s: after the first event)", "TIME" },
    { "end", 0, 0, G_OPTION_ARG_STRING, &o->end, "Keep what happens until TIME", "TIME" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o->to,
      "Write FORMAT (perfetto, json or systrace) whatever OUT is called; needed for - (standard output)", "FORMAT" },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &o->filter, "Properties of a filter element: 'tid=main kind=slices'",
      "EXPR" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o->output_template,
      "Convert every IN to TEMPLATE ({name}: the input's name without extensions)", "TEMPLATE" },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &o->jobs, "With -o, run N conversions at once (default: the cores)", "N" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose, "Print the pipeline, and at the end its links", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print nothing but errors and warnings", NULL },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &o->stats, "At the end, print trace-launch's table of counters", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o->version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->files, NULL, "IN OUT | -o TEMPLATE IN..." },
    { NULL }
  };

  return tool_parse_options (entries, SUMMARY, DESCRIPTION, argc, argv, error);
}

/* The sink --to names: perfetto, json or systrace. */
static const char *
sink_named (const char *to,
            GError **error)
{
  if (g_str_equal (to, "perfetto"))
    return "perfetto-sink";
  if (g_str_equal (to, "json"))
    return "json-sink";
  if (g_str_equal (to, "systrace"))
    return "ftrace-sink";
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--to %s: unknown format (perfetto, json or systrace)",
               to);
  return NULL;
}

/* The sink for @out: the one --to names, else the one of @out's
 * extension; NULL with why. Standard output (-) has no extension: it
 * needs --to. */
static const char *
sink_for (const ConvertOptions *o,
          const char *out,
          GError **error)
{
  static const struct
  {
    const char *suffix, *sink;
  } table[] = {
    { ".pftrace", "perfetto-sink" },
    { ".perfetto-trace", "perfetto-sink" },
    { ".pb", "perfetto-sink" },
    { ".json", "json-sink" },
    { ".txt", "ftrace-sink" },
    { ".systrace", "ftrace-sink" },
  };
  g_autofree char *lower = NULL;

  if (o->to != NULL)
    return sink_named (o->to, error);
  if (g_str_equal (out, "-"))
    {
      g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                           "-: standard output has no extension to tell the format by: add --to perfetto, --to json or "
                           "--to systrace");
      return NULL;
    }
  lower = g_ascii_strdown (out, -1);
  /* the sinks gzip a location ending in .gz themselves: the format is
   * the extension before it */
  if (g_str_has_suffix (lower, ".gz"))
    lower[strlen (lower) - 3] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_has_suffix (lower, table[i].suffix))
      return table[i].sink;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "%s: cannot tell the output format from the extension (.pftrace, .perfetto-trace, .pb, .json, "
               ".txt or .systrace, each optionally followed by .gz)",
               out);
  return NULL;
}

/**
 * convert_description:
 * @o: the options
 * @in: the input file
 * @out: the output file
 * @n_elements: (out): how many elements the description has
 * @error: where to say why there is none
 *
 * Returns: (transfer full) (nullable): the launch description trace-launch would run
 */
/* `name` is the element's own name (as in GStreamer), not a condition:
 * `--filter name=performTraversals` would keep every event. */
static gboolean
check_filter_expression (const char *expr,
                         GError **error)
{
  g_auto (GStrv) words = NULL;

  if (expr == NULL || !g_shell_parse_argv (expr, NULL, &words, NULL))
    return TRUE; /* the launch parser says what is wrong with it */
  for (guint i = 0; words[i] != NULL; i++)
    if (g_str_has_prefix (words[i], "name="))
      {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     "--filter: \"%s\" names the filter element itself; to keep events by their name, "
                     "use event-name=%s",
                     words[i], words[i] + strlen ("name="));
        return FALSE;
      }
  return TRUE;
}

static char *
convert_description (const ConvertOptions *o,
                     const char *in,
                     const char *out,
                     guint *n_elements,
                     GError **error)
{
  const char *sink = check_filter_expression (o->filter, error) ? sink_for (o, out, error) : NULL;
  g_autofree char *qin = tool_quote_value (in);
  g_autofree char *qout = tool_quote_value (out);
  GString *d;

  if (sink == NULL)
    return NULL;
  d = g_string_new (NULL);
  g_string_append_printf (d, "auto-src location=%s", qin);
  *n_elements = 2;
  if (o->main_thread)
    g_string_append (d, " ! main-thread-filter"), (*n_elements)++;
  if (o->start || o->end || o->filter)
    {
      g_autofree char *qstart = o->start ? tool_quote_value (o->start) : NULL;
      g_autofree char *qend = o->end ? tool_quote_value (o->end) : NULL;

      g_string_append (d, " ! filter");
      if (qstart)
        g_string_append_printf (d, " start=%s", qstart);
      if (qend)
        g_string_append_printf (d, " end=%s", qend);
      if (o->filter)
        g_string_append_printf (d, " %s", o->filter);
      (*n_elements)++;
    }
  g_string_append_printf (d, " ! %s location=%s", sink, qout);
  return g_string_free (d, FALSE);
}

/* --filter is the properties of one element: anything that adds
 * elements (a "!") is refused rather than run. */
static gboolean
check_element_count (TraceElement *pipeline,
                     guint expected,
                     GError **error)
{
  if (g_list_length ((GList *) trace_bin_get_children (TRACE_BIN (pipeline))) == expected)
    return TRUE;
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--filter takes properties of the filter element only (such as 'tid=main kind=slices')");
  return FALSE;
}

/* The format the sink was given (the stream-start's), NULL if none came. */
static const char *
stream_format (TraceElement *pipeline)
{
  for (const GList *l = trace_bin_get_children (TRACE_BIN (pipeline)); l; l = l->next)
    if (TRACE_IS_BASE_SINK (l->data))
      {
        const TraceStreamInfo *info = trace_base_sink_get_stream_info (l->data);

        return info ? info->format : NULL;
      }
  return NULL;
}

/* A RheaTrace capture converted as it is keeps its B:/E:/T: markers as
 * nested slices that never end (a method left by an exception writes
 * nothing): rhea-repair is what turns them into calls, and the user
 * must hear of it. */
static void
hint_rhea_repair (const ConvertOptions *o,
                  TraceElement *pipeline,
                  const char *in,
                  const char *out)
{
  g_autofree char *qin = NULL, *qout = NULL;

  if (g_strcmp0 (stream_format (pipeline), "rhea") != 0)
    return;
  qin = tool_quote_value (in), qout = tool_quote_value (out);
  g_printerr ("WARNING: %s is a RheaTrace capture, written with its B:/E:/T: markers as slices; to rebuild the "
              "calls (methods left by exceptions included), convert it with rhea-repair:\n"
              "  trace-launch auto-src location=%s ! rhea-repair ! %s location=%s\n",
              in, qin, sink_for (o, out, NULL), qout);
}

static int
convert_one (const ConvertOptions *o,
             const char *in,
             const char *out)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *description = NULL;
  guint n_elements = 0;
  LaunchState s;
  int exit_code;

  if ((description = convert_description (o, in, out, &n_elements, &error)) == NULL)
    {
      g_printerr ("trace-convert: %s\n", error->message);
      return LAUNCH_EXIT_USAGE;
    }
  if (o->verbose)
    g_printerr ("Pipeline: %s\n", description);
  launch_state_init (&s);
  /* quiet unless -v: a conversion's news is its output file */
  s.quiet = o->quiet || !o->verbose;
  s.verbose = o->verbose, s.stats = o->stats;
  s.progress = s.progress_tty = !o->quiet && isatty (STDERR_FILENO);
  s.pipeline = trace_parse_launch (description, &error);
  if (g_error_matches (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_SAME_OUTPUT))
    {
      /* the only sink writes a file the source reads: OUT is IN */
      g_autofree char *qin = g_strescape (in, NULL), *qout = g_strescape (out, NULL);

      g_printerr ("trace-convert: \"%s\" is the input \"%s\": writing it would destroy the input "
                  "(write the output elsewhere)\n",
                  qout, qin);
      launch_state_clear (&s);
      return LAUNCH_EXIT_USAGE;
    }
  if (s.pipeline == NULL || !check_element_count (s.pipeline, n_elements, &error))
    {
      g_printerr ("trace-convert: invalid options: %s\n", error->message);
      launch_state_clear (&s);
      return LAUNCH_EXIT_USAGE;
    }
  if (!tool_make_output_folder (out, &error))
    {
      g_printerr ("ERROR: %s\n", error->message);
      launch_state_clear (&s);
      return LAUNCH_EXIT_RUNTIME_ERROR;
    }
  exit_code = launch_run (&s);
  if (exit_code == LAUNCH_EXIT_OK)
    hint_rhea_repair (o, s.pipeline, in, out);
  launch_state_clear (&s);
  return exit_code;
}

static int
usage_error (const char *message)
{
  g_printerr ("trace-convert: %s\nTry \"trace-convert --help\".\n", message);
  return LAUNCH_EXIT_USAGE;
}

static int
run_batch (ConvertOptions *o)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) inputs = tool_expand_inputs (o->files, &error);

  if (inputs == NULL)
    {
      g_printerr ("ERROR: %s\n", error->message);
      return LAUNCH_EXIT_RUNTIME_ERROR;
    }
  if (inputs->len > 1 && strstr (o->output_template, "{name}") == NULL)
    return usage_error ("with several inputs, the -o template needs {name}");
  if (!sink_for (o, o->output_template, &error) || !check_filter_expression (o->filter, &error))
    return usage_error (error->message);
  if (!convert_batch_check_outputs (o->output_template, inputs))
    return LAUNCH_EXIT_USAGE;
  return convert_batch (o, inputs);
}

/* `trace-convert captures/ out.pftrace`: a folder is converted file by
 * file, each to an output of its own, which only -o names. */
static int
usage_error_for_folder (const char *in,
                        const char *out)
{
  g_autofree char *folder = g_path_get_dirname (out);
  g_autofree char *base = g_path_get_basename (out);
  const char *ext = strchr (base + (base[0] == '.'), '.');
  g_autofree char *name = g_strconcat ("{name}", ext ? ext : ".pftrace", NULL);
  g_autofree char *template = g_str_equal (folder, ".") ? g_strdup (name) : g_build_filename (folder, name, NULL);
  g_autofree char *message = g_strdup_printf ("%s is a folder: to convert each file in it, name the outputs "
                                              "with -o (trace-convert -o '%s' %s)",
                                              in, template, in);

  return usage_error (message);
}

int
main (int argc,
      char **argv)
{
  ConvertOptions o = { 0 };
  g_autoptr (GError) error = NULL;
  guint n_files;
  int exit_code;

  tool_init_process ();
  if (!parse_options (&o, &argc, &argv, &error))
    {
      exit_code = usage_error (error->message);
      options_clear (&o);
      return exit_code;
    }
  n_files = o.files ? g_strv_length (o.files) : 0;
  if (o.version)
    exit_code = (g_print ("trace-convert (tracepipe) %s\n", PACKAGE_VERSION), LAUNCH_EXIT_OK);
  else if (o.output_template == NULL && n_files != 2)
    exit_code = usage_error ("give IN and OUT, or -o TEMPLATE and the inputs");
  else if (o.output_template == NULL && g_file_test (o.files[0], G_FILE_TEST_IS_DIR))
    exit_code = usage_error_for_folder (o.files[0], o.files[1]);
  else if (o.output_template != NULL && n_files == 0)
    exit_code = usage_error ("no input given");
  else if (o.jobs < 0)
    exit_code = usage_error ("-j must be 1 or more");
  else if (!trace_init_check (&argc, &argv, &error))
    {
      g_printerr ("ERROR: could not initialise tracepipe: %s\n", error->message);
      exit_code = LAUNCH_EXIT_RUNTIME_ERROR;
    }
  else if (o.output_template != NULL)
    exit_code = run_batch (&o);
  else
    exit_code = convert_one (&o, o.files[0], o.files[1]);
  options_clear (&o);
  return exit_code;
}
