/* tracepipe tests - the trace-launch and trace-inspect binaries, as a user runs them
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

/* --- running a tool --- */

void
run_free (Run *r)
{
  g_free (r->out);
  g_free (r->err);
  g_free (r);
}

static const char *
tool_path (const char *tool)
{
  /* trace-launch -> $TRACE_LAUNCH, set by meson to the built binary */
  g_autofree char *var = g_ascii_strup (tool, -1);
  const char *path;

  g_strdelimit (var, "-", '_');
  path = g_getenv (var);
  g_assert_nonnull (path);
  return path;
}

static GSubprocessLauncher *
launcher_new (const char *const *env)
{
  GSubprocessLauncher *l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);

  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_auto (GStrv) kv = g_strsplit (env[i], "=", 2);

      g_subprocess_launcher_setenv (l, kv[0], kv[1], TRUE);
    }
  return l;
}

static int
exit_status (GSubprocess *p)
{
  if (g_subprocess_get_if_signaled (p))
    return 128 + g_subprocess_get_term_sig (p);
  return g_subprocess_get_exit_status (p);
}

Run *
run_tool (const char *tool,
          const char *const *env,
          const char *const *args)
{
  g_autoptr (GSubprocessLauncher) l = launcher_new (env);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) p = NULL;
  Run *r = g_new0 (Run, 1);

  g_ptr_array_add (argv, (gpointer) tool_path (tool));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  p = g_subprocess_launcher_spawnv (l, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, NULL, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  r->status = exit_status (p);
  g_test_message ("%s exited %d\nstdout:\n%s\nstderr:\n%s", tool, r->status, r->out, r->err);
  return r;
}

/* Only the core elements, no plugin: for exact messages. */
static char *scratch_dir; /* temporary files */
static char *empty_dir;   /* a plugin folder with nothing in it */
static const char *isolated_env[3];

/* --- trace-launch: usage --- */

static void
test_launch_version (void)
{
  g_autoptr (Run) r = RUN ("trace-launch", NULL, "--version");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (g_str_has_prefix (r->out, "trace-launch (tracepipe) "));
}

static void
test_launch_help (void)
{
  g_autoptr (Run) r = RUN ("trace-launch", NULL, "--help");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->out, "PIPELINE-DESCRIPTION"));
  g_assert_nonnull (strstr (r->out, "Examples:"));
  g_assert_nonnull (strstr (r->out, "  130  interrupted by Ctrl-C"));
  g_assert_nonnull (strstr (r->out, "--dot=FILE"));
}

static void
test_launch_usage_errors (void)
{
  g_autoptr (Run) none = RUN ("trace-launch", NULL, "-q");
  g_autoptr (Run) option = RUN ("trace-launch", NULL, "--frobnicate", "fakesrc");
  g_autoptr (Run) both = RUN ("trace-launch", NULL, "-f", "x.launch", "fakesrc");
  g_autoptr (Run) nofile = RUN ("trace-launch", NULL, "-f", "/nonexistent/x.launch");

  g_assert_cmpint (none->status, ==, 2);
  g_assert_cmpstr (none->err, ==, "trace-launch: no pipeline description\nTry \"trace-launch --help\".\n");
  g_assert_cmpint (option->status, ==, 2);
  g_assert_cmpstr (option->err, ==, "trace-launch: Unknown option --frobnicate\nTry \"trace-launch --help\".\n");
  g_assert_cmpint (both->status, ==, 2);
  g_assert_cmpint (nofile->status, ==, 2);
  g_assert_true (g_str_has_prefix (nofile->err, "ERROR: could not read the description: "));
}

static void
test_launch_parse_error (void)
{
  g_autoptr (Run) r = RUN ("trace-launch", isolated_env, "fakesrc", "!", "fakesnk");
  g_autoptr (Run) quoted = RUN ("trace-launch", isolated_env, "fakesrc num-events=x ! fakesink");

  g_assert_cmpint (r->status, ==, 2);
  g_assert_cmpstr (r->out, ==, "");
  g_assert_cmpstr (r->err, ==,
                   "ERROR: invalid pipeline description: 1:11: no element \"fakesnk\" (did you mean \"fakesink\"?)\n"
                   "  fakesrc ! fakesnk\n"
                   "            ^\n");
  g_assert_cmpint (quoted->status, ==, 2);
  g_assert_cmpstr (quoted->err, ==,
                   "ERROR: invalid pipeline description: 1:20: \"x\" is not a valid value for \"num-events\" "
                   "(a 64-bit integer of at least -1)\n"
                   "  fakesrc num-events=x ! fakesink\n"
                   "                     ^\n");
}

static char *
write_temp (const char *name,
            const char *contents)
{
  char *path = g_build_filename (scratch_dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_launch_file (void)
{
  g_autofree char *good = write_temp ("good.launch", "# a comment\nfakesrc num-events=10 # ten\n  ! fakesink\n");
  g_autofree char *bad = write_temp ("bad.launch", "fakesrc\n  ! fakesnk # typo\n");
  g_autoptr (Run) ok = RUN ("trace-launch", isolated_env, "-q", "-f", good);
  g_autoptr (Run) err = RUN ("trace-launch", isolated_env, "-q", "-f", bad);
  g_autofree char *expected = g_strdup_printf ("ERROR: invalid pipeline description: %s:2:5: no element \"fakesnk\" "
                                               "(did you mean \"fakesink\"?)\n"
                                               "    ! fakesnk # typo\n"
                                               "      ^\n",
                                               bad);

  g_assert_cmpint (ok->status, ==, 0);
  g_assert_cmpstr (ok->out, ==, "");
  g_assert_cmpstr (ok->err, ==, "");
  g_assert_cmpint (err->status, ==, 2);
  g_assert_cmpstr (err->err, ==, expected);
  g_unlink (good);
  g_unlink (bad);
}

/* A NUL byte in a description file would end it where C reads it and
 * the rest would be ignored: the file is refused, naming the byte. */
static void
test_launch_file_with_nul (void)
{
  static const char text[] = "fakesrc num-events=3 ! fakesink\0 junk ! fakesnk";
  g_autofree char *path = g_build_filename (scratch_dir, "nul.launch", NULL);
  g_autofree char *expected = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (Run) r = NULL;

  g_file_set_contents (path, text, sizeof text - 1, &error);
  g_assert_no_error (error);
  r = RUN ("trace-launch", isolated_env, "-q", "-f", path);
  expected = g_strdup_printf ("ERROR: could not read the description: %s: a NUL byte at byte offset 31: a description is text\n",
                              path);
  g_assert_cmpint (r->status, ==, 2);
  g_assert_cmpstr (r->out, ==, "");
  g_assert_cmpstr (r->err, ==, expected);
  g_unlink (path);
}

/* --- trace-launch: running --- */

static void
test_launch_run (void)
{
  g_autoptr (Run) quiet = RUN ("trace-launch", isolated_env, "-q", "fakesrc", "num-events=1000", "!", "fakesink");
  g_autoptr (Run) normal = RUN ("trace-launch", isolated_env, "fakesrc", "num-events=1000", "!", "fakesink");

  g_assert_cmpint (quiet->status, ==, 0);
  g_assert_cmpstr (quiet->out, ==, "");
  g_assert_cmpstr (quiet->err, ==, "");
  g_assert_cmpint (normal->status, ==, 0);
  /* status goes to stderr, without a progress line when stderr is not
   * a terminal; stdout is left to the data */
  g_assert_true (g_str_has_prefix (normal->err, "Setting pipeline to PLAYING ...\nPipeline is PLAYING ...\n"
                                                "Got EOS from /pipeline0.\nExecution ended after "));
  g_assert_cmpstr (normal->out, ==, "");
}

/* The number in @column of the --stats row of @element. */
static guint64
stats_cell (const char *out,
            const char *element,
            const char *column)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_auto (GStrv) header = NULL;
  int index = -1;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) cells = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr (GPtrArray) words = g_ptr_array_new ();

      for (guint j = 0; cells[j]; j++)
        if (*cells[j])
          g_ptr_array_add (words, cells[j]);
      if (words->len > 0 && strcmp (g_ptr_array_index (words, 0), "element") == 0)
        for (guint j = 0; j < words->len; j++)
          if (strcmp (g_ptr_array_index (words, j), column) == 0)
            index = j;
      if (index >= 0 && words->len > (guint) index && strcmp (g_ptr_array_index (words, 0), element) == 0)
        return g_ascii_strtoull (g_ptr_array_index (words, index), NULL, 10);
    }
  g_assert_not_reached ();
}

static void
test_launch_stats_and_verbose (void)
{
  g_autoptr (Run) r = RUN ("trace-launch", isolated_env, "--stats", "-v", "fakesrc", "num-events=5000", "batch-size=1000",
                           "!", "identity", "!", "fakesink");
  guint64 produced;

  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->out, ==, "");
  produced = stats_cell (r->err, "fakesrc0", "events-out");
  g_assert_cmpuint (produced, >=, 5000);
  g_assert_cmpuint (stats_cell (r->err, "identity0", "events-in"), ==, produced);
  g_assert_cmpuint (stats_cell (r->err, "identity0", "events-out"), ==, produced);
  g_assert_cmpuint (stats_cell (r->err, "fakesink0", "events-in"), ==, produced);
  g_assert_nonnull (strstr (r->err, "\n  /pipeline0/fakesrc0: num-events=5000 batch-size=1000\n"));
  g_assert_nonnull (strstr (r->err, "\n  /pipeline0/identity0: (all defaults)\n"));
  g_assert_nonnull (strstr (r->err, "\n  fakesrc0:src -> identity0:sink: trace/events, "));
  g_assert_nonnull (strstr (r->err, "    stream-start: format="));
}

static void
test_launch_messages (void)
{
  g_autoptr (Run) r = RUN ("trace-launch", isolated_env, "-m", "fakesrc", "num-events=10", "!", "fakesink");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, "Got message: state-changed from /pipeline0: READY -> PLAYING\n"));
  g_assert_nonnull (strstr (r->err, "Got message: eos from /pipeline0\n"));
}

static void
check_dot_file (const char *path)
{
  g_autofree char *contents = NULL;
  const char *dot = g_getenv ("DOT");

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "digraph pipeline {\n"));
  g_assert_nonnull (strstr (contents, "fakesrc0\\n(fakesrc)\\nnum-events=10"));
  g_assert_nonnull (strstr (contents, "t\\n(tee)"));
  g_assert_nonnull (strstr (contents, "[label=\"trace/events\\n"));
  if (dot == NULL || *dot == '\0')
    {
      g_test_message ("dot is not installed: the graph was not rendered");
      return;
    }
  {
    const char *argv[] = { dot, "-Tsvg", "-o", "/dev/null", path, NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (GSubprocess) p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
    g_autofree char *err = NULL;

    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, &err, &error);
    g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
    g_assert_cmpstr (err, ==, "");
  }
}

static void
test_launch_dot (void)
{
  g_autofree char *path = g_build_filename (scratch_dir, "graph.dot", NULL);
  g_autoptr (Run) r = RUN ("trace-launch", isolated_env, "-q", "--dot", path, "fakesrc", "num-events=10", "!",
                           "tee", "name=t", "t.", "!", "fakesink", "t.", "!", "queue", "!", "fakesink");

  g_assert_cmpint (r->status, ==, 0);
  check_dot_file (path);
  g_unlink (path);
}

static void
test_launch_dump_dot_dir (void)
{
  g_autofree char *dir = g_dir_make_tmp ("dots-XXXXXX", NULL);
  g_autofree char *var = g_strdup_printf ("TRACEPIPE_DEBUG_DUMP_DOT_DIR=%s", dir);
  const char *env[] = { isolated_env[0], isolated_env[1], var, NULL };
  g_autoptr (Run) r = RUN ("trace-launch", env, "-q", "fakesrc", "num-events=10", "!", "tee", "name=t", "!",
                           "fakesink");
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_cmpint (r->status, ==, 0);
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, (GCompareFunc) (void *) g_strcmp0);
  g_assert_cmpuint (names->len, >=, 2);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *contents = NULL;

      g_assert_true (g_file_get_contents (g_ptr_array_index (names, i), &contents, NULL, NULL));
      g_assert_true (g_str_has_prefix (contents, "digraph pipeline {\n"));
      g_unlink (g_ptr_array_index (names, i));
    }
  g_rmdir (dir);
}

static TraceElementFactory *
find_factory (const char *name)
{
  return trace_element_factory_find (name);
}

static void
test_launch_runtime_error (void)
{
  const char *src = NULL;
  g_autofree char *location = NULL;

  /* any file source of a plugin will do */
  if (find_factory ("ftrace-src"))
    src = "ftrace-src";
  else if (find_factory ("json-src"))
    src = "json-src";
  if (src == NULL)
    {
      g_test_skip ("no file source element is built");
      return;
    }
  location = g_strdup ("location=/nonexistent dir/trace.txt");
  {
    g_autoptr (Run) r = RUN ("trace-launch", NULL, src, location, "!", "fakesink");
    g_autofree char *prefix = g_strdup_printf ("ERROR: from /pipeline0/%s0: ", src);

    g_assert_cmpint (r->status, ==, 1);
    g_assert_nonnull (strstr (r->err, prefix));
    g_assert_nonnull (strstr (r->err, "/nonexistent dir/trace.txt"));
  }
}

const char *
tools_test_empty_dir (void)
{
  return empty_dir;
}

const char *
tools_test_scratch_dir (void)
{
  return scratch_dir;
}

const char *const *
tools_test_isolated_env (void)
{
  return isolated_env;
}

int
main (int argc,
      char **argv)
{
  g_autofree char *system_path = NULL;

  g_test_init (&argc, &argv, NULL);
  scratch_dir = g_dir_make_tmp ("tools-test-XXXXXX", NULL);
  empty_dir = g_build_filename (scratch_dir, "empty", NULL);
  g_mkdir (empty_dir, 0700);
  system_path = g_strdup_printf ("TRACEPIPE_PLUGIN_SYSTEM_PATH=%s", empty_dir);
  isolated_env[0] = "TRACEPIPE_PLUGIN_PATH=";
  isolated_env[1] = system_path;
  isolated_env[2] = NULL;
  trace_init (&argc, &argv);

  g_test_add_func ("/tools/launch/version", test_launch_version);
  g_test_add_func ("/tools/launch/help", test_launch_help);
  g_test_add_func ("/tools/launch/usage-errors", test_launch_usage_errors);
  g_test_add_func ("/tools/launch/parse-error", test_launch_parse_error);
  g_test_add_func ("/tools/launch/file", test_launch_file);
  g_test_add_func ("/tools/launch/file-with-nul", test_launch_file_with_nul);
  g_test_add_func ("/tools/launch/run", test_launch_run);
  g_test_add_func ("/tools/launch/stats-and-verbose", test_launch_stats_and_verbose);
  g_test_add_func ("/tools/launch/messages", test_launch_messages);
  g_test_add_func ("/tools/launch/dot", test_launch_dot);
  g_test_add_func ("/tools/launch/dump-dot-dir", test_launch_dump_dot_dir);
  g_test_add_func ("/tools/launch/runtime-error", test_launch_runtime_error);
  add_interrupt_tests ();
  add_inspect_tests ();
  add_pipe_tests ();
  add_readme_tests ();
  add_info_tests ();
  add_convert_tests ();
  add_batch_tests ();
  add_names_tests ();
  add_stdin_tests ();
  add_man_tests ();
  add_output_tests ();
  add_filter_tests ();
  add_stats_tests ();
  add_progress_tests ();
  add_controls_tests ();
  add_tracecmd_tests ();
  add_streaming_tests ();
  add_systrace_tests ();
  add_clocks_tests ();
  {
    int ret = g_test_run ();

    g_rmdir (empty_dir);
    g_rmdir (scratch_dir);
    return ret;
  }
}
