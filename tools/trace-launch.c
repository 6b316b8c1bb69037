/* tracepipe tools - trace-launch: build a pipeline from a description and run it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

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
  "Standard input and output: a file source without location reads standard\n"                     \
  "input and a file sink without location writes standard output, when they\n"                     \
  "are not a terminal, so  trace-launch ftrace-src ! perfetto-sink < in > out\n"                   \
  "works as a filter. Everything trace-launch itself prints (status, progress,\n"                  \
  "--stats, -v, -m) goes to standard error.\n"                                                     \
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
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o->words, NULL, "PIPELINE-DESCRIPTION..." },
    { NULL }
  };

  return tool_parse_options (entries, SUMMARY, DESCRIPTION, argc, argv, error);
}

/* A description is text: a NUL byte would end it where C reads it, and
 * the rest of the file would be ignored without a word. */
static char *
check_description_text (const char *path,
                        char *contents,
                        gsize len,
                        GError **error)
{
  const char *nul = memchr (contents, '\0', len);

  if (nul == NULL)
    return contents;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: a NUL byte at byte offset %" G_GSIZE_FORMAT ": a description is text",
               strcmp (path, "-") == 0 ? "standard input" : path, (gsize) (nul - contents));
  g_free (contents);
  return NULL;
}

static char *
read_description_file (const char *path,
                       GError **error)
{
  char *contents = NULL;
  gsize len = 0;

  if (strcmp (path, "-") == 0)
    {
      g_autoptr (GIOChannel) in = g_io_channel_unix_new (STDIN_FILENO);

      /* as a file is read: bytes, checked by the parser like a file's */
      g_io_channel_set_encoding (in, NULL, NULL);
      if (g_io_channel_read_to_end (in, &contents, &len, error) != G_IO_STATUS_NORMAL)
        return NULL;
      return check_description_text (path, contents, len, error);
    }
  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  return check_description_text (path, contents, len, error);
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

static gboolean
progress_wanted (Options *o)
{
  if (o->progress)
    return TRUE;
  return !o->quiet && isatty (STDERR_FILENO);
}

int
main (int argc,
      char **argv)
{
  Options o = { 0 };
  LaunchState s;
  g_autoptr (GError) error = NULL;
  int exit_code = LAUNCH_EXIT_OK;

  tool_init_process ();
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
  if (s.pipeline != NULL && !launch_default_locations (s.pipeline, &error))
    {
      g_printerr ("ERROR: %s\n", error->message);
      exit_code = LAUNCH_EXIT_USAGE;
    }
  else if (s.pipeline != NULL)
    exit_code = launch_run (&s);
  launch_state_clear (&s);
  options_clear (&o);
  return exit_code;
}
