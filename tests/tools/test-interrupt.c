/* tracepipe tests - Ctrl-C in trace-launch: the first finishes the outputs, a second aborts
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace/trace.h>

#include "tools-test.h"

/* Starts trace-launch with @argv and returns once the pipeline plays
 * (so the signal handlers are in place). */
void
tools_test_start_launch (Running *r,
                         const char *const *argv,
                         gboolean no_plugins)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                 G_SUBPROCESS_FLAGS_STDERR_PIPE);
  char *line;

  if (no_plugins)
    {
      g_subprocess_launcher_setenv (l, "TRACEPIPE_PLUGIN_PATH", "", TRUE);
      g_subprocess_launcher_setenv (l, "TRACEPIPE_PLUGIN_SYSTEM_PATH", tools_test_empty_dir (), TRUE);
    }
  r->process = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  r->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (r->process));
  r->err = g_data_input_stream_new (g_subprocess_get_stderr_pipe (r->process));
  while ((line = g_data_input_stream_read_line_utf8 (r->err, NULL, NULL, &error)) != NULL)
    {
      gboolean playing = strcmp (line, "Pipeline is PLAYING ...") == 0;

      g_free (line);
      if (playing)
        break;
    }
  g_assert_no_error (error);
}

#define start_argv(r, argv) tools_test_start_launch ((r), (argv), FALSE)

/* Starts trace-launch on an endless source, lets it convert a while. */
static void
start_endless (Running *r,
               const char *sink,
               const char *sink_property)
{
  const char *argv[] = { g_getenv ("TRACE_LAUNCH"), "--stats", "fakesrc", "num-events=-1", "!",
                         sink, sink_property, NULL };

  /* fakesink needs no plugin: load none, so nothing else can interfere */
  tools_test_start_launch (r, argv, sink_property == NULL);
  g_usleep (200 * 1000);
}

static char *
read_rest (GDataInputStream *in)
{
  g_autoptr (GString) s = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  char *line;

  while ((line = g_data_input_stream_read_line_utf8 (in, NULL, NULL, &error)) != NULL)
    {
      g_string_append_printf (s, "%s\n", line);
      g_free (line);
    }
  g_assert_no_error (error);
  return g_strdup (s->str);
}

/* Reads what trace-launch printed until it ended; its exit status. */
int
tools_test_finish_launch (Running *r,
                          char **out,
                          char **err)
{
  g_autoptr (GError) error = NULL;
  int status;

  *out = read_rest (r->out);
  *err = read_rest (r->err);
  g_subprocess_wait (r->process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (r->process));
  status = g_subprocess_get_exit_status (r->process);
  g_test_message ("exit %d\nstdout:\n%s\nstderr:\n%s", status, *out, *err);
  g_clear_object (&r->out);
  g_clear_object (&r->err);
  g_clear_object (&r->process);
  return status;
}

/* The number after @column's header in the row of @element. */
guint64
tools_test_stats_value (const char *out,
                        const char *element,
                        guint column)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit_set (lines[i], " ", -1);
      guint n = 0;

      if (!g_str_has_prefix (lines[i], element))
        continue;
      for (guint j = 0; words[j] != NULL; j++)
        if (*words[j] && n++ == column)
          return g_ascii_strtoull (words[j], NULL, 10);
    }
  g_assert_not_reached ();
}

static void
test_first_interrupt_finishes (void)
{
  Running r = { 0 };
  g_autofree char *out = NULL, *err = NULL;
  guint64 sent;

  start_endless (&r, "fakesink", NULL);
  g_subprocess_send_signal (r.process, SIGINT);
  g_assert_cmpint (tools_test_finish_launch (&r, &out, &err), ==, 130);
  g_assert_true (g_str_has_prefix (err, "Interrupt: stopping the sources and finishing the outputs "
                                        "(press Ctrl-C again to abort)...\n"));
  g_assert_nonnull (strstr (err, "Got EOS from /pipeline0.\n"));
  g_assert_cmpstr (out, ==, "");
  /* columns: element events-in events-out ... */
  sent = tools_test_stats_value (err, "fakesrc0", 2);
  g_assert_cmpuint (sent, >, 0);
  g_assert_cmpuint (tools_test_stats_value (err, "fakesink0", 1), ==, sent);
}

static void
test_second_interrupt_aborts (void)
{
  Running r = { 0 };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *first = NULL;

  start_endless (&r, "fakesink", NULL);
  g_subprocess_send_signal (r.process, SIGINT);
  first = g_data_input_stream_read_line_utf8 (r.err, NULL, NULL, NULL);
  g_assert_cmpstr (first, ==, "Interrupt: stopping the sources and finishing the outputs "
                              "(press Ctrl-C again to abort)...");
  g_subprocess_send_signal (r.process, SIGINT);
  /* The second Ctrl-C came while finishing (abort), or once the loop had
   * ended (the process ends at once, before or after its last lines):
   * each ends with 130, none hangs, crashes or complains. */
  g_assert_cmpint (tools_test_finish_launch (&r, &out, &err), ==, 130);
  g_assert_null (strstr (err, "CRITICAL"));
  g_assert_null (strstr (err, "ERROR"));
}

static guint
count_events (JsonNode *root)
{
  JsonObject *o;
  guint n = 0;

  if (JSON_NODE_HOLDS_ARRAY (root))
    return json_array_get_length (json_node_get_array (root));
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  o = json_node_get_object (root);
  if (json_object_has_member (o, "traceEvents"))
    n += json_array_get_length (json_object_get_array_member (o, "traceEvents"));
  if (json_object_has_member (o, "systemTraceEvents"))
    n += strlen (json_object_get_string_member (o, "systemTraceEvents")) > 0;
  return n;
}

static void
test_interrupted_output_is_valid (void)
{
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "interrupted.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  Running r = { 0 };

  if (trace_element_factory_find ("json-sink") == NULL)
    {
      g_test_skip ("json-sink is not built");
      return;
    }
  start_endless (&r, "json-sink", location);
  g_subprocess_send_signal (r.process, SIGINT);
  g_assert_cmpint (tools_test_finish_launch (&r, &out, &err), ==, 130);
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_events (json_parser_get_root (parser)), >, 0);
  g_unlink (path);
}

/* The first Ctrl-C finishes a .gz output too: a complete gzip stream
 * (with its trailer) of valid JSON. */
static void
test_interrupted_gzip_is_valid (void)
{
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "interrupted.json.gz", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) json = NULL;
  g_autofree char *out = NULL, *err = NULL;
  Running r = { 0 };

  if (trace_element_factory_find ("json-sink") == NULL)
    {
      g_test_skip ("json-sink is not built");
      return;
    }
  start_endless (&r, "json-sink", location);
  g_subprocess_send_signal (r.process, SIGINT);
  g_assert_cmpint (tools_test_finish_launch (&r, &out, &err), ==, 130);
  json = tools_test_gunzip (path);
  json_parser_load_from_data (parser, g_bytes_get_data (json, NULL), g_bytes_get_size (json), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_events (json_parser_get_root (parser)), >, 0);
  g_unlink (path);
}

typedef struct
{
  const char *fifo;
  gint stop;
} NulFeeder;

/* Writes NUL bytes into the FIFO until told to stop, the reader goes or
 * 20 s passed (so that a reader deaf to Ctrl-C still ends, at EOF). */
static gpointer
feed_nuls (gpointer data)
{
  NulFeeder *f = data;
  static const char zeros[64 * 1024];
  static const char first_line[] = "          app-100   [000] ...1  1000.000000: tracing_mark_write: B|100|work\n";
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  int fd = open (f->fifo, O_WRONLY);

  g_assert_cmpint (fd, >=, 0);
  /* one trace line first: what follows yields nothing, and the input is
   * a trace, not an empty file, whenever the signal comes */
  g_assert_cmpint (write (fd, first_line, strlen (first_line)), ==, (gssize) strlen (first_line));
  while (!g_atomic_int_get (&f->stop) && g_get_monotonic_time () < deadline)
    if (write (fd, zeros, sizeof zeros) < 0 && errno != EINTR)
      break;
  close (fd);
  return NULL;
}

/* A source whose input yields no event (a trace line, then endless NUL
 * bytes on a FIFO) still hears Ctrl-C: it goes back to the main loop every few MiB. */
static void
test_interrupt_input_without_events (void)
{
  g_autofree char *fifo = g_build_filename (tools_test_scratch_dir (), "nuls.fifo", NULL);
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "nuls.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *src_location = g_strdup_printf ("location=%s", fifo);
  const char *argv[] = { g_getenv ("TRACE_LAUNCH"), "ftrace-src", src_location, "!", "json-sink", location, NULL };
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  NulFeeder feeder = { fifo, 0 };
  GThread *thread;
  Running r = { 0 };
  gint64 t0;

  if (trace_element_factory_find ("json-sink") == NULL || trace_element_factory_find ("ftrace-src") == NULL)
    {
      g_test_skip ("json-sink or ftrace-src is not built");
      return;
    }
  signal (SIGPIPE, SIG_IGN);
  g_unlink (fifo);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  thread = g_thread_new ("nuls", feed_nuls, &feeder);
  start_argv (&r, argv);
  g_usleep (300 * 1000);
  t0 = g_get_monotonic_time ();
  g_subprocess_send_signal (r.process, SIGINT);
  g_assert_cmpint (tools_test_finish_launch (&r, &out, &err), ==, 130);
  g_assert_cmpint (g_get_monotonic_time () - t0, <, 3 * G_USEC_PER_SEC);
  g_atomic_int_set (&feeder.stop, 1);
  g_thread_join (thread);
  g_assert_nonnull (strstr (err, "Got EOS from /pipeline0."));
  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_unlink (path);
  g_unlink (fifo);
}

void
add_interrupt_tests (void)
{
  g_test_add_func ("/tools/launch/interrupt/input-without-events", test_interrupt_input_without_events);
  g_test_add_func ("/tools/launch/interrupt/first-finishes", test_first_interrupt_finishes);
  g_test_add_func ("/tools/launch/interrupt/second-aborts", test_second_interrupt_aborts);
  g_test_add_func ("/tools/launch/interrupt/output-is-valid", test_interrupted_output_is_valid);
  g_test_add_func ("/tools/launch/interrupt/gzip-output-is-valid", test_interrupted_gzip_is_valid);
}
