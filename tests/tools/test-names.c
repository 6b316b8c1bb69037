/* tracepipe tests - any file name the filesystem takes is a file name
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

#define KERNEL TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("ftrace-src") && trace_element_factory_find ("json-sink"))
    return TRUE;
  g_test_skip ("ftrace-src or json-sink is not built");
  return FALSE;
}

static void
copy_file (const char *from,
           const char *to)
{
  g_autofree char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (from, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (to, contents, len, NULL));
}

/* Runs @argv in @cwd; returns the exit status, keeps standard error. */
static int
run_in (const char *cwd,
        const char *const *argv,
        char **err)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                                                 G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;

  g_subprocess_launcher_set_cwd (l, cwd);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (p, NULL, NULL, NULL, err, &error);
  g_assert_no_error (error);
  g_test_message ("%s exited %d: %s", argv[0], g_subprocess_get_exit_status (p), *err);
  return g_subprocess_get_exit_status (p);
}

/* `host:trace.txt` is a file in the current folder, not a URI of the
 * scheme "host", for the sources and for detection. */
static void
test_name_with_colon (void)
{
  g_autofree char *dir = g_build_filename (tools_test_scratch_dir (), "colon", NULL);
  g_autofree char *in = g_build_filename (dir, "host:trace.txt", NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *err = NULL, *err2 = NULL;
  const char *convert[] = { g_getenv ("TRACE_CONVERT"), "host:trace.txt", "out.json", NULL };
  const char *launch[] = { g_getenv ("TRACE_LAUNCH"), "-q", "ftrace-src", "location=host:trace.txt", "!",
                           "fakesink", NULL };

  if (!have_plugins ())
    return;
  g_mkdir_with_parents (dir, 0700);
  copy_file (KERNEL, in);
  g_assert_cmpint (run_in (dir, convert, &err), ==, 0);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (run_in (dir, launch, &err2), ==, 0);
  g_unlink (in), g_unlink (out), g_rmdir (dir);
}

/* A name that is not UTF-8 (Latin-1 "café"): converted by trace-convert,
 * read by trace-launch, counted by trace-info, whose JSON stays valid. */
static void
test_name_not_utf8 (void)
{
  g_autofree char *in = g_build_filename (tools_test_scratch_dir (), "caf\xe9.txt", NULL);
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "caf\xe9.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", in);
  g_autoptr (Run) convert = NULL, launch = NULL, info = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (!have_plugins ())
    return;
  copy_file (KERNEL, in);
  convert = RUN ("trace-convert", NULL, in, out);
  g_assert_cmpint (convert->status, ==, 0);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  launch = RUN ("trace-launch", NULL, "-q", "ftrace-src", location, "!", "fakesink");
  g_assert_cmpint (launch->status, ==, 0);
  info = RUN ("trace-info", NULL, "--json", in);
  g_assert_cmpint (info->status, ==, 0);
  json_parser_load_from_data (parser, info->out, -1, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_suffix (
      json_object_get_string_member (json_node_get_object (json_parser_get_root (parser)), "file"), "caf\xef\xbf\xbd.txt"));
  g_unlink (in), g_unlink (out);
}

void
add_names_tests (void)
{
  g_test_add_func ("/tools/names/colon-is-not-a-scheme", test_name_with_colon);
  g_test_add_func ("/tools/names/not-utf8", test_name_not_utf8);
}
