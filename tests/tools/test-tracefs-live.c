/* tracepipe tests - tracefs-src capturing live, as a user runs it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * These record from the kernel: they need root and tracefs at
 * /sys/kernel/tracing, and skip without them. They change the tracing
 * state of the machine while they run, so meson runs them alone.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#define TRACING "/sys/kernel/tracing"
#define TRACEFS_MAGIC_NUMBER 0x74726163

/* the workload: this many slices, at this many marker writes a second */
#define N_SLICES 4000
#define WRITES_PER_SECOND 4000

static gboolean
tracefs_writable (void)
{
  struct statfs fs;

  return statfs (TRACING, &fs) == 0 && fs.f_type == TRACEFS_MAGIC_NUMBER &&
         access (TRACING "/tracing_on", R_OK | W_OK) == 0;
}

static char *
read_text (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return g_strdup ("");
  return text;
}

/* tracefs files are written in place (no temporary renamed over them). */
static gboolean
write_text (const char *path,
            const char *text)
{
  int fd = open (path, O_WRONLY | O_TRUNC);
  gboolean ok = fd >= 0 && write (fd, text, strlen (text)) == (gssize) strlen (text);

  if (fd >= 0)
    close (fd);
  return ok;
}

/* What a capture may change in a buffer, as text, to compare. A buffer
 * the kernel has not allocated yet (`7 (expanded: 1408)`) is allocated by
 * the first capture, whoever makes it: its size is then left out. */
static char *
tracing_state (const char *dir)
{
  g_autofree char *top_size_file = g_build_filename (dir, "buffer_size_kb", NULL);
  g_autofree char *top_size = read_text (top_size_file);
  gboolean sizes = strstr (top_size, "expanded") == NULL;
  const char *files[] = { "tracing_on", "trace_clock", "set_event", "current_tracer", sizes ? "buffer_size_kb" : NULL };
  GString *state = g_string_new (NULL);
  long n_cpus = sysconf (_SC_NPROCESSORS_CONF);

  for (guint i = 0; i < G_N_ELEMENTS (files) && files[i]; i++)
    {
      g_autofree char *path = g_build_filename (dir, files[i], NULL);
      g_autofree char *text = read_text (path);

      g_string_append_printf (state, "%s: %s\n", files[i], text);
    }
  for (long cpu = 0; sizes && cpu < n_cpus; cpu++)
    {
      g_autofree char *path = g_strdup_printf ("%s/per_cpu/cpu%ld/buffer_size_kb", dir, cpu);
      g_autofree char *text = read_text (path);

      g_string_append_printf (state, "cpu%ld buffer_size_kb: %s\n", cpu, text);
    }
  return g_string_free (state, FALSE);
}

/* The state after a capture, with the sizes when @before had them. */
static char *
tracing_state_like (const char *dir,
                    const char *before)
{
  char *after = tracing_state (dir);
  char *sizes;

  if (strstr (before, "buffer_size_kb") == NULL && (sizes = strstr (after, "buffer_size_kb")) != NULL)
    *sizes = '\0'; /* the sizes come last */
  return after;
}

static GSubprocess *
spawn_launch (GError **error,
              const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) g_getenv ("TRACE_LAUNCH"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  return g_subprocess_newv ((const char *const *) argv->pdata,
                            G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, error);
}

static int
finish (GSubprocess *p,
        char **out,
        char **err)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (g_subprocess_communicate_utf8 (p, NULL, NULL, out, err, &error));
  g_assert_no_error (error);
  if (g_subprocess_get_if_signaled (p))
    return 128 + g_subprocess_get_term_sig (p);
  return g_subprocess_get_exit_status (p);
}

/* The capture has set up the buffer and records: its events are enabled
 * and tracing is on. */
static gboolean
wait_until_recording (const char *dir,
                      GSubprocess *p,
                      gboolean with_events)
{
  g_autofree char *on_file = g_build_filename (dir, "tracing_on", NULL);
  g_autofree char *events_file = g_build_filename (dir, "set_event", NULL);

  for (int i = 0; i < 6000; i++)
    {
      g_autofree char *on = read_text (on_file);
      g_autofree char *events = read_text (events_file);

      if (on[0] == '1' && (events[0] != '\0' || !with_events))
        return TRUE;
      if (g_subprocess_get_identifier (p) == NULL)
        return FALSE; /* it ended */
      g_usleep (10000);
    }
  return FALSE;
}

/* Writes N_SLICES atrace slices, `B|pid|tp-live-N` and `E|pid`, at
 * WRITES_PER_SECOND, paced against the clock. */
static void
write_markers (void)
{
  int fd = open (TRACING "/trace_marker", O_WRONLY);
  gint64 start = g_get_monotonic_time ();
  int pid = getpid ();

  g_assert_cmpint (fd, >=, 0);
  for (int i = 0; i < N_SLICES; i++)
    {
      char begin[64];
      char end[32];
      int n_begin = g_snprintf (begin, sizeof begin, "B|%d|tp-live-%d", pid, i);
      int n_end = g_snprintf (end, sizeof end, "E|%d", pid);
      gint64 due = start + (gint64) i * 2 * G_USEC_PER_SEC / WRITES_PER_SECOND;
      gint64 now = g_get_monotonic_time ();

      if (due > now)
        g_usleep (due - now);
      g_assert_cmpint (write (fd, begin, n_begin), ==, n_begin);
      g_assert_cmpint (write (fd, end, n_end), ==, n_end);
    }
  close (fd);
}

/* The slices of @pid named tp-live-N in json-sink's output: each once. */
static void
assert_every_slice (const char *json_path,
                    int pid)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree guint8 *seen = g_new0 (guint8, N_SLICES);
  JsonObject *root;
  JsonArray *events;
  const char *system;
  guint found = 0;

  g_assert_true (json_parser_load_from_file (parser, json_path, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  events = json_object_get_array_member (root, "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *name = json_object_get_string_member_with_default (ev, "name", "");
      guint64 n;

      if (!g_str_has_prefix (name, "tp-live-") || json_object_get_int_member (ev, "pid") != pid)
        continue;
      g_assert_cmpstr (json_object_get_string_member (ev, "ph"), ==, "X");
      n = g_ascii_strtoull (name + strlen ("tp-live-"), NULL, 10);
      g_assert_cmpuint (n, <, N_SLICES);
      g_assert_cmpuint (seen[n], ==, 0);
      seen[n] = 1;
      found++;
    }
  g_assert_cmpuint (found, ==, N_SLICES);
  /* and the scheduler's records are there */
  system = json_object_get_string_member_with_default (root, "systemTraceEvents", "");
  g_assert_nonnull (strstr (system, ": sched_switch: prev_comm="));
}

/* A workload writes known markers to the top-level buffer during a
 * capture: every one is a slice, sched_switch is there, nothing is lost,
 * and the buffer's state afterwards is what it was. */
static void
test_markers_are_slices (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tracefs-live-XXXXXX", NULL);
  g_autofree char *json = g_build_filename (dir, "live.json", NULL);
  g_autofree char *sink = g_strdup_printf ("location=%s", json);
  g_autofree char *before = NULL, *after = NULL, *out = NULL, *err = NULL;
  g_autoptr (GSubprocess) p = NULL;

  if (!tracefs_writable ())
    {
      g_test_skip ("needs root and tracefs at " TRACING);
      return;
    }
  before = tracing_state (TRACING);
  p = spawn_launch (&error, (const char *const[]){ "--stats", "tracefs-src", "events=sched,ftrace/print", "!",
                                                   "json-sink", sink, NULL });
  g_assert_no_error (error);
  if (!wait_until_recording (TRACING, p, TRUE))
    {
      g_assert_cmpint (finish (p, &out, &err), !=, 0);
      if (strstr (err, "is in use"))
        {
          g_test_skip ("the top-level buffer is in use by another capture");
          return;
        }
      g_error ("the capture did not start: %s", err);
    }
  write_markers ();
  g_usleep (300000); /* at least two reader intervals: the last markers are read */
  g_subprocess_send_signal (p, SIGINT);
  g_assert_cmpint (finish (p, &out, &err), ==, 130);
  g_assert_null (strstr (err, "WARNING"));
  g_assert_nonnull (strstr (err, " lost-events=0 "));
  assert_every_slice (json, getpid ());
  after = tracing_state_like (TRACING, before);
  g_assert_cmpstr (after, ==, before);
  g_remove (json);
  g_rmdir (dir);
}

/* A tracing instance of the test's own, made and removed here. */
static char *
make_instance (void)
{
  char *dir = g_strdup_printf (TRACING "/instances/tp-live-test-%d", (int) getpid ());

  g_assert_cmpint (g_mkdir (dir, 0755) == 0 || errno == EEXIST, ==, TRUE);
  return dir;
}

/* Ctrl-C with no event coming: the capture ends within a second, the
 * output is complete, the buffer as it was. */
static void
test_interrupt_without_events (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *instance = NULL, *before = NULL, *after = NULL, *out = NULL, *err = NULL;
  g_autofree char *on_file = NULL;
  g_autoptr (GSubprocess) p = NULL;
  gint64 sent;

  if (!tracefs_writable ())
    {
      g_test_skip ("needs root and tracefs at " TRACING);
      return;
    }
  dir = make_instance ();
  instance = g_strdup_printf ("instance=%s", strrchr (dir, '/') + 1);
  on_file = g_build_filename (dir, "tracing_on", NULL);
  /* off, so that the capture turning it on says it records */
  g_assert_true (write_text (on_file, "0"));
  before = tracing_state (dir);
  /* markers only: nothing writes to this instance's trace_marker */
  p = spawn_launch (&error, (const char *const[]){ "tracefs-src", instance, "events=ftrace/print", "!", "fakesink", NULL });
  g_assert_no_error (error);
  g_assert_true (wait_until_recording (dir, p, FALSE));
  g_usleep (500000);
  sent = g_get_monotonic_time ();
  g_subprocess_send_signal (p, SIGINT);
  g_assert_cmpint (finish (p, &out, &err), ==, 130);
  g_assert_cmpint (g_get_monotonic_time () - sent, <, G_USEC_PER_SEC);
  g_assert_nonnull (strstr (err, "Got EOS from /pipeline0."));
  after = tracing_state_like (dir, before);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static guint64
stat_value (const char *err,
            const char *key)
{
  g_autofree char *needle = g_strdup_printf (" %s=", key);
  const char *at = strstr (err, needle);

  g_assert_nonnull (at);
  return g_ascii_strtoull (at + strlen (needle), NULL, 10);
}

/* Markers written far faster than a tiny ring buffer holds: the kernel
 * overwrites some, and every marker is either read or counted as lost. */
static void
test_overruns_counted (void)
{
  const int n_markers = 300000;
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL, *instance = NULL, *marker = NULL, *on_file = NULL;
  g_autofree char *before = NULL, *after = NULL, *out = NULL, *err = NULL;
  g_autoptr (GSubprocess) p = NULL;
  int fd;

  if (!tracefs_writable ())
    {
      g_test_skip ("needs root and tracefs at " TRACING);
      return;
    }
  dir = make_instance ();
  instance = g_strdup_printf ("instance=%s", strrchr (dir, '/') + 1);
  on_file = g_build_filename (dir, "tracing_on", NULL);
  marker = g_build_filename (dir, "trace_marker", NULL);
  g_assert_true (write_text (on_file, "0"));
  before = tracing_state (dir);
  p = spawn_launch (&error, (const char *const[]){ "--stats", "tracefs-src", instance, "events=ftrace/print",
                                                   "buffer-size=8", "!", "fakesink", NULL });
  g_assert_no_error (error);
  g_assert_true (wait_until_recording (dir, p, FALSE));
  fd = open (marker, O_WRONLY);
  g_assert_cmpint (fd, >=, 0);
  for (int i = 0; i < n_markers; i++)
    g_assert_cmpint (write (fd, "B|1|o", 5), ==, 5);
  close (fd);
  g_usleep (300000);
  g_subprocess_send_signal (p, SIGINT);
  g_assert_cmpint (finish (p, &out, &err), ==, 130);
  g_assert_cmpuint (stat_value (err, "lost-events"), >, 0);
  g_assert_cmpuint (stat_value (err, "records") + stat_value (err, "lost-events"), ==, n_markers);
  g_assert_nonnull (strstr (err, "the ring buffer lost "));
  g_assert_nonnull (strstr (err, "before they were read: raise buffer-size= (8 KiB a cpu)"));
  after = tracing_state_like (dir, before);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

static void
assert_start_error (const char *const *args,
                    const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = spawn_launch (&error, args);
  g_autofree char *out = NULL, *err = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (finish (p, &out, &err), ==, 1);
  if (strstr (err, message) == NULL)
    g_error ("expected `%s` in: %s", message, err);
}

/* A bad event or a missing instance: an error that names it, at start,
 * and nothing changed. */
static void
test_start_errors (void)
{
  g_autofree char *before = NULL, *after = NULL;

  if (!tracefs_writable ())
    {
      g_test_skip ("needs root and tracefs at " TRACING);
      return;
    }
  before = tracing_state (TRACING);
  assert_start_error ((const char *const[]){ "tracefs-src", "events=sched,sched:no_such_event", "!", "fakesink", NULL },
                      "ERROR: from /pipeline0/tracefs-src0: events=: this kernel has no event sched/no_such_event "
                      "(" TRACING "/events)");
  assert_start_error ((const char *const[]){ "tracefs-src", "events=sched switch", "!", "fakesink", NULL },
                      "events=: `sched switch` is not an event");
  assert_start_error ((const char *const[]){ "tracefs-src", "instance=tp-no-such-instance", "!", "fakesink", NULL },
                      "instance=tp-no-such-instance: no such tracing instance (" TRACING
                      "/instances/tp-no-such-instance; make it with mkdir)");
  assert_start_error ((const char *const[]){ "tracefs-src", "clock=sundial", "!", "fakesink", NULL },
                      "clock=sundial: this kernel's trace clocks are: ");
  after = tracing_state_like (TRACING, before);
  g_assert_cmpstr (after, ==, before);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tracefs-live/markers-are-slices", test_markers_are_slices);
  g_test_add_func ("/tracefs-live/interrupt-without-events", test_interrupt_without_events);
  g_test_add_func ("/tracefs-live/start-errors", test_start_errors);
  g_test_add_func ("/tracefs-live/overruns-counted", test_overruns_counted);
  return g_test_run ();
}
