/* tracepipe tools - trace-launch: build a pipeline from a description and run it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <glib-unix.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
#include "tool-util.h"

#define SUMMARY                                                                          \
  "Builds a pipeline from a launch description and runs it until every sink\n"           \
  "has finished. The words of the description are joined with spaces, so\n"              \
  "the description may be one quoted argument or many.\n"                                \
  "\n"                                                                                   \
  "Description syntax (see docs/launch-syntax.md):\n"                                    \
  "  ELEMENT [PROPERTY=VALUE ...] ! ELEMENT ...    a chain of linked elements\n"         \
  "  name=NAME                                     names an element\n"                   \
  "  NAME.  NAME.PAD                               refer to a named element (and pad)\n" \
  "  PAD::PROPERTY=VALUE                           a property of a (request) pad\n"      \
  "  \"...\" '...'                                   quote values; # starts a comment\n" \
  "Values: numbers, true/false/yes/no/1/0, enum nicks, flags as a+b, strings;\n"         \
  "times such as 5ms or 1.5s where a property is in nanoseconds."

#define DESCRIPTION                                                                                \
  "Examples:\n"                                                                                    \
  "  trace-launch ftrace-src location=trace.txt ! perfetto-sink location=out.pftrace\n"            \
  "  trace-launch ftrace-src location=app.html ! filter tid=main ! json-sink location=main.json\n" \
  "  trace-launch ftrace-src location=a.txt ! tee name=t \\\n"                                     \
  "      t. ! perfetto-sink location=a.pftrace  t. ! json-sink location=a.json\n"                  \
  "  trace-launch clock-sync name=m ! perfetto-sink location=all.pftrace \\\n"                     \
  "      ftrace-src location=kernel.txt ! m.  arkts-src location=app.cpuprofile ! m.\n"            \
  "  trace-launch -f conversion.launch --stats\n"                                                  \
  "\n"                                                                                             \
  "Interrupting: the first Ctrl-C stops every source and lets the sinks\n"                         \
  "finish valid files; trace-launch then exits with 130. A second Ctrl-C\n"                        \
  "aborts at once, without finishing the files.\n"                                                 \
  "\n"                                                                                             \
  "Exit status:\n"                                                                                 \
  "  0    the pipeline ran to the end\n"                                                           \
  "  1    an error while running (an input that cannot be read, bad data, ...)\n"                  \
  "  2    a bad description or bad usage\n"                                                        \
  "  130  interrupted by Ctrl-C (the outputs were finished on the first one)\n"                    \
  "  143  stopped by SIGTERM, which is handled like Ctrl-C\n"                                      \
  "\n"                                                                                             \
  "Environment:\n"                                                                                 \
  "  TRACEPIPE_PLUGIN_PATH         more folders to load plugins from\n"                            \
  "  TRACEPIPE_DEBUG_DUMP_DOT_DIR  write a Graphviz graph of the pipeline there\n"                 \
  "                                on every state change, warning and error\n"                     \
  "\n"                                                                                             \
  "trace-inspect lists the elements and their properties."

typedef struct
{
  gboolean verbose, quiet, messages, stats, progress, version;
  char *dot_file;
  char *file;
  char **words;
} Options;

static void
options_clear (Options *o)
{
  g_free (o->dot_file);
  g_free (o->file);
  g_strfreev (o->words);
}

static gboolean
parse_options (Options *o,
               int *argc,
               char ***argv,
               GError **error)
{
  const GOptionEntry entries[] = {
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &o->verbose,
      "At the end, print each element's non-default properties and each link's stream", NULL },
    { "quiet", 'q', 0, G_OPTION_ARG_NONE, &o->quiet, "Print nothing but errors and warnings", NULL },
    { "messages", 'm', 0, G_OPTION_ARG_NONE, &o->messages, "Print every bus message", NULL },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &o->stats,
      "At the end, print a table of events and batches per element", NULL },
    { "dot", 0, 0, G_OPTION_ARG_FILENAME, &o->dot_file,
      "At the end, write the pipeline as a Graphviz graph to FILE", "FILE" },
    { "file", 'f', 0, G_OPTION_ARG_FILENAME, &o->file,
      "Read the description from FILE ('-' for standard input)", "FILE" },
    { "progress", 0, 0, G_OPTION_ARG_NONE, &o->progress,
      "Show progress even when standard error is not a terminal", NULL },
    { "version", 0, 0, G_OPTION_ARG_NONE, &o->version, "Print the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->words, NULL, "PIPELINE-DESCRIPTION..." },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new (NULL);

  g_option_context_set_summary (context, SUMMARY);
  g_option_context_set_description (context, DESCRIPTION);
  g_option_context_add_main_entries (context, entries, NULL);
  return g_option_context_parse (context, argc, argv, error);
}

static char *
read_description_file (const char *path,
                       GError **error)
{
  char *contents = NULL;

  if (strcmp (path, "-") == 0)
    {
      g_autoptr (GIOChannel) in = g_io_channel_unix_new (STDIN_FILENO);

      if (g_io_channel_read_to_end (in, &contents, NULL, error) != G_IO_STATUS_NORMAL)
        return NULL;
      return contents;
    }
  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;
  return contents;
}

/* Characters of the line shown on each side of the caret: a 100 MB
 * value must not make a 100 MB line. */
#define CARET_CONTEXT 100

/* The line the error is on and a caret under its column; of a long line,
 * only the part around the column, with "..." where it was cut. */
static void
print_caret (const char *description,
             const char *message)
{
  guint line, column;
  g_auto (GStrv) lines = NULL;
  g_autofree char *shown = NULL;
  const char *from, *to;

  if (sscanf (message, "%u:%u:", &line, &column) != 2 || line == 0 || column == 0)
    return;
  lines = g_strsplit (description, "\n", -1);
  if (line > g_strv_length (lines) || !g_utf8_validate (lines[line - 1], -1, NULL))
    return;
  from = lines[line - 1];
  if (column > CARET_CONTEXT + 1)
    {
      from = g_utf8_offset_to_pointer (from, column - 1 - CARET_CONTEXT);
      column = CARET_CONTEXT + 4; /* after the "..." */
    }
  to = from + strlen (from);
  if (g_utf8_strlen (from, -1) > 2 * CARET_CONTEXT)
    to = g_utf8_offset_to_pointer (from, 2 * CARET_CONTEXT);
  shown = g_strdup_printf ("%s%.*s%s", from != lines[line - 1] ? "..." : "", (int) (to - from), from,
                           *to != '\0' ? "..." : "");
  g_strdelimit (shown, "\t\r", ' ');
  g_printerr ("  %s\n  %*s^\n", shown, (int) column - 1, "");
}

/* trace_parse_launchv() quotes a key=value word whose value has blanks or
 * quotes; then its columns index the quoted text, not the joined words,
 * and a caret under the joined words would point at the wrong place. */
static gboolean
words_get_quoted (char **words)
{
  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *eq = strchr (words[i], '=');
      gboolean is_property = eq != NULL && eq > words[i];

      for (const char *c = words[i]; is_property && c < eq; c++)
        is_property = g_ascii_isalnum (*c) || strchr ("_-%:", *c) != NULL;
      if (is_property && eq[1] != '"' && eq[1] != '\'' && strpbrk (eq + 1, " \t\n!#\"'\\") != NULL)
        return TRUE;
    }
  return FALSE;
}

static TraceElement *
build_pipeline (Options *o,
                int *exit_code)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *description = NULL;
  TraceElement *pipeline;

  if (o->file != NULL)
    description = read_description_file (o->file, &error);
  else
    description = g_strjoinv (" ", o->words);
  if (description == NULL)
    {
      g_printerr ("ERROR: could not read the description: %s\n", error->message);
      *exit_code = LAUNCH_EXIT_USAGE;
      return NULL;
    }
  if (o->file != NULL)
    pipeline = trace_parse_launch (description, &error);
  else
    pipeline = trace_parse_launchv ((const char *const *) o->words, &error);
  if (pipeline == NULL)
    {
      g_printerr ("ERROR: invalid pipeline description: %s%s%s\n",
                  o->file ? o->file : "", o->file ? ":" : "", error->message);
      if (o->file != NULL || !words_get_quoted (o->words))
        print_caret (description, error->message);
      *exit_code = LAUNCH_EXIT_USAGE;
    }
  return pipeline;
}

/* SIGINT (Ctrl-C) and SIGTERM (timeout, systemd, CI runners) both stop
 * gracefully the first time: the outputs are finished, and the exit
 * status is 128 + the first signal's number, as the shell reports a
 * process killed by it. Either one a second time aborts. */
static gboolean
on_stop_signal (LaunchState *s,
                int signum)
{
  const char *what = signum == SIGTERM ? "Terminated" : "Interrupt";

  s->n_interrupts++;
  launch_clear_line (s);
  if (s->n_interrupts == 1)
    {
      s->interrupt_exit_code = 128 + signum;
      g_printerr ("%s: stopping the sources and finishing the outputs (%s again to abort)...\n", what,
                  signum == SIGTERM ? "send SIGTERM or press Ctrl-C" : "press Ctrl-C");
      trace_pipeline_send_eos (TRACE_PIPELINE (s->pipeline));
      return G_SOURCE_CONTINUE;
    }
  g_printerr ("%s: aborting; the outputs are not finished.\n", what);
  s->exit_code = s->interrupt_exit_code;
  g_main_loop_quit (s->loop);
  /* A third signal of either kind, should stopping hang, gets the
   * default action: no source may watch either any more. */
  g_source_remove (signum == SIGTERM ? s->sigint_source : s->sigterm_source);
  s->sigint_source = s->sigterm_source = 0;
  return G_SOURCE_REMOVE;
}

static gboolean
on_sigint (gpointer user_data)
{
  return on_stop_signal (user_data, SIGINT);
}

static gboolean
on_sigterm (gpointer user_data)
{
  return on_stop_signal (user_data, SIGTERM);
}

static gboolean
on_sighup (gpointer user_data)
{
  LaunchState *s = user_data;

  tool_dump_dot_to_env_dir (s->pipeline, "SIGHUP");
  return G_SOURCE_CONTINUE;
}

/* When the start fails, the elements posted why; the loop has not run,
 * so the messages are still queued. */
static void
report_start_failure (LaunchState *s)
{
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (s->pipeline));
  TraceMessage *message;

  while ((message = trace_bus_pop (bus)) != NULL)
    {
      launch_handle_message (s, message);
      trace_message_unref (message);
    }
  if (!s->got_error)
    g_printerr ("ERROR: the pipeline could not be started\n");
  s->exit_code = LAUNCH_EXIT_RUNTIME_ERROR;
}

static void
run (LaunchState *s)
{
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (s->pipeline));
  guint watch, sighup;

  s->loop = g_main_loop_new (NULL, FALSE);
  s->start_time = g_get_monotonic_time ();
  s->sigint_source = g_unix_signal_add (SIGINT, on_sigint, s);
  s->sigterm_source = g_unix_signal_add (SIGTERM, on_sigterm, s);
  sighup = g_unix_signal_add (SIGHUP, on_sighup, s);
  if (!s->quiet)
    g_print ("Setting pipeline to PLAYING ...\n");
  if (trace_element_set_state (s->pipeline, TRACE_STATE_PLAYING) != TRACE_STATE_CHANGE_SUCCESS)
    report_start_failure (s);
  else
    {
      if (!s->quiet)
        g_print ("Pipeline is PLAYING ...\n");
      /* Tests wait for that line before sending SIGINT. */
      fflush (stdout);
      watch = trace_bus_add_watch (bus, launch_on_bus_message, s);
      launch_progress_start (s);
      g_main_loop_run (s->loop);
      launch_progress_stop (s);
      g_source_remove (watch);
    }
  if (s->sigint_source != 0)
    g_source_remove (s->sigint_source);
  if (s->sigterm_source != 0)
    g_source_remove (s->sigterm_source);
  g_source_remove (sighup);
}

static void
finish (LaunchState *s)
{
  g_autoptr (GError) error = NULL;
  gboolean aborted = s->n_interrupts >= 2;

  if (s->stats && !aborted)
    launch_print_stats (s);
  if (s->verbose && !aborted)
    launch_print_verbose (s);
  if (s->dot_file != NULL && !tool_write_dot (s->pipeline, s->dot_file, &error))
    g_printerr ("WARNING: could not write %s: %s\n", s->dot_file, error->message);
  trace_element_set_state (s->pipeline, TRACE_STATE_NULL);
  if (!s->quiet)
    launch_print_ending (s);
}

static gboolean
progress_wanted (Options *o)
{
  if (o->progress)
    return TRUE;
  return !o->quiet && isatty (STDERR_FILENO) && isatty (STDOUT_FILENO);
}

int
main (int argc,
      char **argv)
{
  Options o = { 0 };
  LaunchState s;
  g_autoptr (GError) error = NULL;
  int exit_code = LAUNCH_EXIT_OK;

  setlocale (LC_ALL, "");
  setlocale (LC_NUMERIC, "C"); /* numbers are printed to be read back */
  if (!parse_options (&o, &argc, &argv, &error))
    {
      g_printerr ("trace-launch: %s\nTry \"trace-launch --help\".\n", error->message);
      options_clear (&o);
      return LAUNCH_EXIT_USAGE;
    }
  if (o.version)
    {
      g_print ("trace-launch (tracepipe) %s\n", PACKAGE_VERSION);
      options_clear (&o);
      return LAUNCH_EXIT_OK;
    }
  if ((o.file == NULL) == (o.words == NULL || o.words[0] == NULL))
    {
      g_printerr ("trace-launch: %s\nTry \"trace-launch --help\".\n",
                  o.file ? "give the description either with -f or as words, not both"
                         : "no pipeline description");
      options_clear (&o);
      return LAUNCH_EXIT_USAGE;
    }
  if (!trace_init_check (&argc, &argv, &error))
    {
      g_printerr ("ERROR: could not initialise tracepipe: %s\n", error->message);
      options_clear (&o);
      return LAUNCH_EXIT_RUNTIME_ERROR;
    }
  launch_state_init (&s);
  s.verbose = o.verbose, s.quiet = o.quiet, s.messages = o.messages, s.stats = o.stats;
  s.progress = progress_wanted (&o);
  s.progress_tty = isatty (STDERR_FILENO);
  s.dot_file = g_steal_pointer (&o.dot_file);
  s.pipeline = build_pipeline (&o, &exit_code);
  if (s.pipeline != NULL)
    {
      run (&s);
      finish (&s);
      exit_code = s.exit_code;
    }
  launch_state_clear (&s);
  options_clear (&o);
  return exit_code;
}
