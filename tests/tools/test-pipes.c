/* tracepipe tests - the tools in a pipe: standard output carries data only
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* posix_openpt(), grantpt(), unlockpt(), ptsname() */
#define _GNU_SOURCE

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace/trace.h>

#include "tools-test.h"

#define ATRACE TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"
/* has slices on main threads */
#define ATRACE_SLICES TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"

typedef struct
{
  int status;
  GBytes *out;
  char *err;
} PipeRun;

static void
pipe_run_free (PipeRun *r)
{
  g_clear_pointer (&r->out, g_bytes_unref);
  g_free (r->err);
  g_free (r);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC (PipeRun, pipe_run_free)

/* Runs trace-launch with standard input from @stdin_path (or the
 * descriptor @stdin_fd) and standard output captured as bytes (or sent
 * to @stdout_fd): the shell's `< in > out`. */
static PipeRun *
pipe_run (const char *stdin_path,
          int stdin_fd,
          int stdout_fd,
          const char *const *args)
{
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDERR_PIPE | (stdout_fd < 0 ? G_SUBPROCESS_FLAGS_STDOUT_PIPE : 0);
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (flags);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GBytes) err = NULL;
  g_autoptr (GError) error = NULL;
  PipeRun *r = g_new0 (PipeRun, 1);

  if (stdin_path != NULL)
    g_subprocess_launcher_set_stdin_file_path (l, stdin_path);
  if (stdin_fd >= 0)
    g_subprocess_launcher_take_stdin_fd (l, dup (stdin_fd));
  if (stdout_fd >= 0)
    g_subprocess_launcher_take_stdout_fd (l, dup (stdout_fd));
  g_ptr_array_add (argv, (gpointer) g_getenv ("TRACE_LAUNCH"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (p, NULL, NULL, &r->out, &err, &error);
  g_assert_no_error (error);
  r->err = g_strndup (g_bytes_get_size (err) ? g_bytes_get_data (err, NULL) : "", g_bytes_get_size (err));
  r->status = g_subprocess_get_exit_status (p);
  g_test_message ("exit %d, %zu bytes on stdout\nstderr:\n%s", r->status, r->out ? g_bytes_get_size (r->out) : 0,
                  r->err);
  return r;
}
#define PIPE_RUN(in, in_fd, out_fd, ...) pipe_run (in, in_fd, out_fd, (const char *const[]){ __VA_ARGS__, NULL })

static gboolean
have (const char *factory)
{
  if (trace_element_factory_find (factory) != NULL)
    return TRUE;
  g_test_skip_printf ("%s is not built", factory);
  return FALSE;
}

static char *
save_output (PipeRun *r,
             const char *name)
{
  char *path = g_build_filename (tools_test_scratch_dir (), name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, g_bytes_get_data (r->out, NULL), g_bytes_get_size (r->out), &error);
  g_assert_no_error (error);
  return path;
}

/* Reads @path back with perfetto-src, converted to Chrome JSON on
 * standard output (explicit location=-), and returns the file's object. */
static JsonObject *
read_back_pftrace_json (const char *path)
{
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (PipeRun) r = PIPE_RUN (NULL, -1, -1, "-q", "perfetto-src", location, "!", "json-sink", "location=-");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *root;

  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->err, ==, "");
  json_parser_load_from_data (parser, g_bytes_get_data (r->out, NULL), g_bytes_get_size (r->out), &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  return json_object_ref (root);
}

/* The same, its events */
static JsonArray *
read_back_pftrace (const char *path)
{
  g_autoptr (JsonObject) root = read_back_pftrace_json (path);

  return json_array_ref (json_object_get_array_member (root, "traceEvents"));
}

/* The project's headline command, as a filter: no location anywhere. */
static void
test_headline_filter (void)
{
  g_autoptr (PipeRun) r = NULL;
  g_autofree char *path = NULL;
  g_autoptr (JsonArray) events = NULL;
  guint n_slices = 0;

  if (!have ("ftrace-src") || !have ("filter") || !have ("perfetto-sink"))
    return;
  r = PIPE_RUN (ATRACE_SLICES, -1, -1, "ftrace-src", "!", "filter", "tid=main", "!", "perfetto-sink");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (g_str_has_prefix (r->err, "Setting pipeline to PLAYING ...\n"));
  g_assert_nonnull (strstr (r->err, "Execution ended after "));
  g_assert_cmpuint (g_bytes_get_size (r->out), >, 0);
  path = save_output (r, "headline.pftrace");
  events = read_back_pftrace (path);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");

      /* tid=main: every slice is on a main thread (tid == pid) */
      if (strchr ("BEX", ph[0]) != NULL)
        {
          n_slices++;
          g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, json_object_get_int_member (e, "pid"));
        }
    }
  g_assert_cmpuint (n_slices, >, 0);
  g_unlink (path);
}

/* docs/robustness.md's pipe command, with --stats: the file is still
 * readable and the table went to stderr. */
static void
test_documented_pipe (void)
{
  g_autoptr (PipeRun) r = NULL;
  g_autofree char *path = NULL;
  g_autoptr (JsonObject) root = NULL;

  if (!have ("ftrace-src") || !have ("perfetto-sink"))
    return;
  r = PIPE_RUN (ATRACE, -1, -1, "--stats", "-v", "ftrace-src", "location=-", "!", "perfetto-sink", "location=-");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, "Statistics:\n"));
  g_assert_nonnull (strstr (r->err, "Properties:\n"));
  path = save_output (r, "documented.pftrace");
  /* its threads have no known process: no JSON event names them, the
   * kernel records come back as systemTraceEvents text */
  root = read_back_pftrace_json (path);
  g_assert_nonnull (strstr (json_object_get_string_member_with_default (root, "systemTraceEvents", ""),
                            ": sched_switch: "));
  g_unlink (path);
}

/* A pseudo-terminal's other end, for a child's stdin or stdout. */
static int
open_pty (int *master)
{
  int slave;

  *master = posix_openpt (O_RDWR | O_NOCTTY);
  g_assert_cmpint (*master, >=, 0);
  g_assert_cmpint (grantpt (*master), ==, 0);
  g_assert_cmpint (unlockpt (*master), ==, 0);
  slave = open (ptsname (*master), O_RDWR | O_NOCTTY);
  g_assert_cmpint (slave, >=, 0);
  return slave;
}

static void
test_stdin_terminal (void)
{
  int master, slave;
  g_autoptr (PipeRun) r = NULL;

  if (!have ("ftrace-src"))
    return;
  slave = open_pty (&master);
  r = PIPE_RUN (NULL, slave, -1, "ftrace-src", "!", "fakesink");
  close (slave);
  close (master);
  g_assert_cmpint (r->status, ==, 2);
  g_assert_cmpuint (g_bytes_get_size (r->out), ==, 0);
  g_assert_cmpstr (r->err, ==,
                   "ERROR: ftrace-src0 has no location and standard input is a terminal: set location=FILE, "
                   "or pipe a trace in (< trace.txt)\n");
}

static void
test_stdout_terminal (void)
{
  int master, slave;
  g_autoptr (PipeRun) r = NULL;

  if (!have ("ftrace-src") || !have ("perfetto-sink"))
    return;
  slave = open_pty (&master);
  r = PIPE_RUN (ATRACE, -1, slave, "ftrace-src", "!", "perfetto-sink");
  close (slave);
  close (master);
  g_assert_cmpint (r->status, ==, 2);
  g_assert_cmpstr (r->err, ==,
                   "ERROR: perfetto-sink0 has no location and standard output is a terminal: set location=FILE, "
                   "or redirect the output (> out.pftrace)\n");
}

/* Two sources cannot both read the one standard input. */
static void
test_two_readers (void)
{
  g_autoptr (PipeRun) r = NULL;

  if (!have ("ftrace-src"))
    return;
  r = PIPE_RUN (ATRACE, -1, -1, "ftrace-src", "!", "fakesink", "ftrace-src", "!", "fakesink");
  g_assert_cmpint (r->status, ==, 2);
  g_assert_cmpstr (r->err, ==,
                   "ERROR: ftrace-src1 has no location and another element already uses standard input: "
                   "set location=FILE\n");
}

void
add_pipe_tests (void)
{
  g_test_add_func ("/tools/launch/pipe/headline-filter", test_headline_filter);
  g_test_add_func ("/tools/launch/pipe/documented-command", test_documented_pipe);
  g_test_add_func ("/tools/launch/pipe/stdin-terminal", test_stdin_terminal);
  g_test_add_func ("/tools/launch/pipe/stdout-terminal", test_stdout_terminal);
  g_test_add_func ("/tools/launch/pipe/two-readers", test_two_readers);
}
