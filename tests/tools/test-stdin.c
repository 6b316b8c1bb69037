/* tracepipe tests - standard input and pipes: detection hands its bytes on, a writer may come late
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>

#include <trace/trace.h>

#include "tools-test.h"

/* 98 KiB of text: more than detection's first 64 KiB */
#define TEXT TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"
#define CHROME TEST_DATA_DIR "/json/catapult_simple_trace.json"

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("ftrace-src") && trace_element_factory_find ("json-src") &&
      trace_element_factory_find ("json-sink") && trace_element_factory_find ("perfetto-sink"))
    return TRUE;
  g_test_skip ("ftrace-src, json-src, json-sink or perfetto-sink is not built");
  return FALSE;
}

/* Runs @argv with @input's bytes written into its standard input through
 * a pipe; keeps what it writes. Returns the exit status. */
static int
run_piped (const char *const *argv,
           const char *input,
           GBytes **out,
           char **err)
{
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GBytes) in = NULL, err_bytes = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (input, &contents, &len, NULL));
  in = g_bytes_new_take (contents, len);
  p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                         &error);
  g_assert_no_error (error);
  g_subprocess_communicate (p, in, NULL, out, &err_bytes, &error);
  g_assert_no_error (error);
  *err = g_strndup (g_bytes_get_data (err_bytes, NULL), g_bytes_get_size (err_bytes));
  g_test_message ("%s exited %d: %s", argv[0], g_subprocess_get_exit_status (p), *err);
  return g_subprocess_get_exit_status (p);
}

static guint
count_events (const char *json,
              gsize len)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, json, len, &error);
  g_assert_no_error (error);
  return json_array_get_length (
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents"));
}

static guint
count_file_events (const char *path)
{
  g_autofree char *text = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  return count_events (text, len);
}

/* A pipe read by auto-src gives every event, its first 64 KiB too (they
 * were read for detection and are handed to the source): `-`,
 * `/dev/stdin`, and trace-launch's auto-src without a location. */
static void
test_pipe_keeps_detected_bytes (void)
{
  g_autofree char *from_file = g_build_filename (tools_test_scratch_dir (), "stdin-file.json", NULL);
  g_autofree char *from_dash = g_build_filename (tools_test_scratch_dir (), "stdin-dash.json", NULL);
  g_autofree char *from_dev = g_build_filename (tools_test_scratch_dir (), "stdin-dev.json", NULL);
  const char *dash[] = { g_getenv ("TRACE_CONVERT"), "-", from_dash, NULL };
  const char *dev[] = { g_getenv ("TRACE_CONVERT"), "/dev/stdin", from_dev, NULL };
  const char *launch[] = { g_getenv ("TRACE_LAUNCH"), "-q", "auto-src", "!", "json-sink", NULL };
  g_autoptr (Run) file = NULL;
  g_autoptr (GBytes) out = NULL, launched = NULL;
  g_autofree char *err = NULL, *err2 = NULL, *err3 = NULL;
  guint want;

  if (!have_plugins ())
    return;
  file = RUN ("trace-convert", NULL, TEXT, from_file);
  g_assert_cmpint (file->status, ==, 0);
  want = count_file_events (from_file);
  g_assert_cmpuint (want, >, 100);
  g_assert_cmpint (run_piped (dash, TEXT, &out, &err), ==, 0);
  g_assert_cmpuint (count_file_events (from_dash), ==, want);
  g_assert_cmpint (run_piped (dev, TEXT, &out, &err2), ==, 0);
  g_assert_cmpuint (count_file_events (from_dev), ==, want);
  g_assert_cmpint (run_piped (launch, TEXT, &launched, &err3), ==, 0);
  g_assert_cmpuint (count_events (g_bytes_get_data (launched, NULL), g_bytes_get_size (launched)), ==, want);
  g_unlink (from_file), g_unlink (from_dash), g_unlink (from_dev);
}

/* trace-info - reads standard input; trace-convert IN - writes standard
 * output in the format --to names, and refuses - without it. */
static void
test_stdin_stdout_forms (void)
{
  const char *info[] = { g_getenv ("TRACE_INFO"), "--json", "-", NULL };
  const char *to_json[] = { g_getenv ("TRACE_CONVERT"), "-", "-", "--to", "json", NULL };
  const char *to_perfetto[] = { g_getenv ("TRACE_CONVERT"), CHROME, "-", "--to", "perfetto", NULL };
  g_autoptr (GBytes) info_out = NULL, json_out = NULL, pf_out = NULL;
  g_autofree char *e1 = NULL, *e2 = NULL, *e3 = NULL;
  g_autoptr (Run) no_to = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (!have_plugins ())
    return;
  g_assert_cmpint (run_piped (info, CHROME, &info_out, &e1), ==, 0);
  json_parser_load_from_data (parser, g_bytes_get_data (info_out, NULL), g_bytes_get_size (info_out), &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "format"),
                   ==, "chrome-json");
  g_assert_cmpint (run_piped (to_json, CHROME, &json_out, &e2), ==, 0);
  g_assert_cmpuint (count_events (g_bytes_get_data (json_out, NULL), g_bytes_get_size (json_out)), >, 0);
  g_assert_cmpint (run_piped (to_perfetto, CHROME, &pf_out, &e3), ==, 0);
  g_assert_cmpuint (g_bytes_get_size (pf_out), >, 0);
  g_assert_cmpint (((const guint8 *) g_bytes_get_data (pf_out, NULL))[0], ==, 0x0a); /* a TracePacket */
  no_to = RUN ("trace-convert", NULL, CHROME, "-");
  g_assert_cmpint (no_to->status, ==, 2);
  g_assert_nonnull (strstr (no_to->err, "add --to perfetto, --to json or --to systrace"));
  g_assert_cmpstr (no_to->out, ==, "");
}

/* A FIFO nobody writes to yet: trace-convert and trace-info wait in the
 * main loop, not in open(2), so Ctrl-C ends them at once, with nothing
 * left behind. */
static void
test_fifo_without_writer_hears_ctrl_c (void)
{
  g_autofree char *dir = g_build_filename (tools_test_scratch_dir (), "fifo-wait", NULL);
  g_autofree char *fifo = g_build_filename (dir, "in.fifo", NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  const char *convert[] = { g_getenv ("TRACE_CONVERT"), fifo, out, NULL };
  const char *info[] = { g_getenv ("TRACE_INFO"), fifo, NULL };
  const char *const *commands[] = { convert, info };

  if (!have_plugins ())
    return;
  g_mkdir_with_parents (dir, 0700);
  g_unlink (fifo);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autoptr (GSubprocess) p = NULL;
      g_autoptr (GError) error = NULL;
      g_autofree char *err = NULL;
      gint64 sent;

      p = g_subprocess_newv (commands[i], G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
      g_assert_no_error (error);
      g_usleep (300 * 1000);
      sent = g_get_monotonic_time ();
      g_subprocess_send_signal (p, SIGINT);
      g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, &err, &error);
      g_assert_no_error (error);
      g_test_message ("%s: %s", commands[i][0], err);
      g_assert_cmpint (g_get_monotonic_time () - sent, <, 5 * G_USEC_PER_SEC);
      g_assert_true (g_subprocess_get_if_exited (p));
      g_assert_cmpint (g_subprocess_get_exit_status (p), !=, 0);
      g_assert_nonnull (strstr (err, "in.fifo: stopped before any data came"));
    }
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL) /* the FIFO alone: no output, no temporary */
      g_assert_cmpstr (name, ==, "in.fifo");
  }
  g_unlink (fifo), g_rmdir (dir);
}

void
add_stdin_tests (void)
{
  g_test_add_func ("/tools/stdin/pipe-keeps-detected-bytes", test_pipe_keeps_detected_bytes);
  g_test_add_func ("/tools/stdin/forms", test_stdin_stdout_forms);
  g_test_add_func ("/tools/stdin/fifo-without-writer", test_fifo_without_writer_hears_ctrl_c);
}
