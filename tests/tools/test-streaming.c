/* tracepipe tests - a capture's temporary file is a readable trace while it runs, and after a kill
 *
 * A slow source (fakesrc through identity sleep-time: 20 events every
 * 100 ms, as a live capture brings them) into perfetto-sink: its
 * buffers fill far slower than a second, so only the sink's flush
 * within a second puts the events in the `.part` file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

/* Long enough for the flush of the first second and the next. */
#define RUN_BEFORE_READING_US (2500 * 1000)

/* A folder of its own, so that the only .part in it is the sink's. */
static char *
make_dir (const char *name)
{
  char *dir = g_build_filename (tools_test_scratch_dir (), name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  return dir;
}

/* The sink's temporary file in @dir (`.NAME.XXXXXX.part`), or NULL. */
static char *
find_part (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".part"))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

static void
start_slow_capture (Running *r,
                    const char *sink,
                    const char *out)
{
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  const char *argv[] = { g_getenv ("TRACE_LAUNCH"), "fakesrc", "num-events=-1", "batch-size=20",
                         "kinds=slices+metadata", "!", "identity", "sleep-time=100000", "!", sink,
                         location, NULL };

  tools_test_start_launch (r, argv, FALSE);
}

/* The events @source reads from @path, a copy of it taken first (the
 * sink may write on while it is read). */
static guint64
count_events_with (const char *source,
                   const char *path)
{
  g_autofree char *copy = g_strconcat (path, ".copy", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", copy);
  g_autofree char *data = NULL;
  g_autoptr (Run) run = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  g_assert_true (g_file_set_contents (copy, data, len, NULL));
  run = RUN ("trace-launch", NULL, "--stats", source, location, "!", "fakesink");
  g_unlink (copy);
  if (run->status != 0)
    {
      g_test_message ("perfetto-src could not read %s (%zu bytes): %s", path, len, run->err);
      return 0;
    }
  return tools_test_stats_value (run->err, "fakesink0", 1);
}

static guint64
count_events (const char *path)
{
  return count_events_with ("perfetto-src", path);
}

/* trace_processor (when $TRACE_PROCESSOR names it) reads slices from
 * @path, with no import error. */
static void
check_trace_processor (const char *path)
{
  const char *tp = g_getenv ("TRACE_PROCESSOR");
  g_autofree char *sql = g_strconcat (path, ".sql", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  int status;
  const char *argv[] = { tp, "-q", sql, path, NULL };

  if (tp == NULL || !g_file_test (tp, G_FILE_TEST_IS_EXECUTABLE))
    return;
  g_assert_true (g_file_set_contents (sql,
                                      "select (select count(*) from slice) as slices, "
                                      "(select count(*) from stats where value > 0 and "
                                      "severity in ('error', 'data_loss')) as errors;",
                                      -1, NULL));
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  g_assert_no_error (error);
  g_unlink (sql);
  g_test_message ("trace_processor on %s:\n%s", path, out);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_null (strstr (err, "error while parsing"));
  g_assert_null (strstr (out, "\n0,"));    /* slices */
  g_assert_nonnull (strstr (out, ",0\n")); /* errors */
}

/* While the capture runs, the .part file holds what came more than a
 * second ago; SIGTERM then finishes the file and renames it into place. */
static void
test_part_is_a_trace_while_running (void)
{
  g_autofree char *dir = make_dir ("streaming-running");
  g_autofree char *out = g_build_filename (dir, "live.pftrace", NULL);
  g_autofree char *part = NULL, *stdout_text = NULL, *err = NULL;
  guint64 in_part;
  Running r = { 0 };

  start_slow_capture (&r, "perfetto-sink", out);
  g_usleep (RUN_BEFORE_READING_US);
  part = find_part (dir);
  g_assert_nonnull (part);
  in_part = count_events (part);
  g_assert_cmpuint (in_part, >, 0);
  check_trace_processor (part);

  g_subprocess_send_signal (r.process, SIGTERM);
  g_assert_cmpint (tools_test_finish_launch (&r, &stdout_text, &err), ==, 128 + SIGTERM);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  g_clear_pointer (&part, g_free);
  part = find_part (dir);
  g_assert_null (part);
  g_assert_cmpuint (count_events (out), >=, in_part);
  check_trace_processor (out);
  g_unlink (out);
  g_rmdir (dir);
}

/* SIGKILL (as a power loss, nothing finishes the file): the .part stays,
 * a trace up to the last flush. */
static void
test_part_survives_sigkill (void)
{
  g_autofree char *dir = make_dir ("streaming-killed");
  g_autofree char *out = g_build_filename (dir, "killed.pftrace", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *part = NULL;
  Running r = { 0 };

  start_slow_capture (&r, "perfetto-sink", out);
  g_usleep (RUN_BEFORE_READING_US);
  g_subprocess_force_exit (r.process);
  g_subprocess_wait (r.process, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (r.process));
  g_clear_object (&r.out);
  g_clear_object (&r.err);
  g_clear_object (&r.process);

  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  part = find_part (dir);
  g_assert_nonnull (part);
  g_assert_cmpuint (count_events (part), >, 0);
  check_trace_processor (part);
  g_unlink (part);
  g_rmdir (dir);
}

/* json-sink gets the same flush: its .part, without the closing `]}`,
 * is read by json-src (with a WARNING that it is cut). */
static void
test_json_part_while_running (void)
{
  g_autofree char *dir = make_dir ("streaming-json");
  g_autofree char *out = g_build_filename (dir, "live.json", NULL);
  g_autofree char *part = NULL, *stdout_text = NULL, *err = NULL;
  guint64 in_part;
  Running r = { 0 };

  if (trace_element_factory_find ("json-sink") == NULL)
    {
      g_test_skip ("json-sink is not built");
      return;
    }
  start_slow_capture (&r, "json-sink", out);
  g_usleep (RUN_BEFORE_READING_US);
  part = find_part (dir);
  g_assert_nonnull (part);
  in_part = count_events_with ("json-src", part);
  g_assert_cmpuint (in_part, >, 0);
  g_subprocess_send_signal (r.process, SIGTERM);
  g_assert_cmpint (tools_test_finish_launch (&r, &stdout_text, &err), ==, 128 + SIGTERM);
  g_assert_cmpuint (count_events_with ("json-src", out), >=, in_part);
  g_unlink (out);
  g_rmdir (dir);
}

void
add_streaming_tests (void)
{
  g_test_add_func ("/tools/launch/streaming/part-is-a-trace-while-running", test_part_is_a_trace_while_running);
  g_test_add_func ("/tools/launch/streaming/part-survives-sigkill", test_part_survives_sigkill);
  g_test_add_func ("/tools/launch/streaming/json-part-while-running", test_json_part_while_running);
}
