/* tracepipe tests - trace-cmd's trace.dat through the tools: trace-info
 * and trace-convert detect it by its magic; a damaged file is an error
 * naming it, with no output left behind. Skipped when tracecmd-src is not
 * built (libtracecmd not found).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE /* memmem */
#include <glib/gstdio.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

#define V7 TEST_DATA_DIR "/tracecmd/capture.v7.dat"
#define V6 TEST_DATA_DIR "/tracecmd/capture.v6.dat"

static gboolean
have_tracecmd_src (void)
{
  if (trace_element_factory_find ("tracecmd-src") != NULL)
    return TRUE;
  g_test_skip ("tracecmd-src is not built (libtracecmd not found)");
  return FALSE;
}

static void
test_info_detects (gconstpointer data)
{
  g_autoptr (Run) r = NULL;

  if (!have_tracecmd_src ())
    return;
  r = RUN ("trace-info", NULL, data);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->err, ==, "");
  g_assert_nonnull (strstr (r->out, "\n  format        trace.dat\n"));
  g_assert_nonnull (strstr (r->out, "\n  clock         ftrace-local (trace.dat trace_clock)\n"));
  g_assert_nonnull (strstr (r->out, "\n  events        1294\n"));
  g_assert_nonnull (strstr (r->out, "sched-switch 322"));
}

static void
test_convert_detects (gconstpointer data)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "tracecmd.pftrace", NULL);
  g_autoptr (Run) r = NULL;
  g_autoptr (Run) info = NULL;

  if (!have_tracecmd_src ())
    return;
  r = RUN ("trace-convert", NULL, data, out);
  g_assert_cmpint (r->status, ==, 0);
  info = RUN ("trace-info", NULL, out);
  g_assert_cmpint (info->status, ==, 0);
  g_assert_nonnull (strstr (info->out, "sched-switch 322"));
  g_assert_nonnull (strstr (info->out, "slice-begin 32"));
  g_unlink (out);
}

static char *
write_damaged (const char *name,
               const char *from,
               gsize keep,
               const char *replace,
               const char *with)
{
  g_autofree char *data = NULL;
  gsize len;
  char *path = g_build_filename (tools_test_scratch_dir (), name, NULL);

  g_assert_true (g_file_get_contents (from, &data, &len, NULL));
  if (replace)
    {
      char *at = memmem (data, len, replace, strlen (replace) + 1);

      g_assert_nonnull (at);
      memcpy (at, with, strlen (with));
    }
  g_assert_true (g_file_set_contents (path, data, MIN (keep, len), NULL));
  return path;
}

/* Each damaged file: exit 1, its name and what is wrong on stderr, no
 * output file. */
static void
assert_refused (const char *in,
                const char *what)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "damaged.pftrace", NULL);
  g_autoptr (Run) r = RUN ("trace-convert", NULL, in, out);

  g_assert_cmpint (r->status, ==, 1);
  g_assert_nonnull (strstr (r->err, in));
  if (strstr (r->err, what) == NULL)
    g_error ("%s: expected \"%s\" in: %s", in, what, r->err);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

static void
test_damaged (void)
{
  g_autofree char *cut_v6 = NULL, *cut_v7 = NULL, *garbage = NULL, *zlib = NULL;
  static const char magic_and_garbage[] = "\x17\x08\x44tracing\xff\xfe\x01 not a version";

  if (!have_tracecmd_src ())
    return;
  /* past the headers, into the instance's records */
  cut_v6 = write_damaged ("cut.v6.dat", V6, 60000, NULL, NULL);
  assert_refused (cut_v6, "cut or damaged");
  cut_v7 = write_damaged ("cut.v7.dat", V7, 20000, NULL, NULL);
  assert_refused (cut_v7, "(a trace.dat of version 7, compressed with zstd");
  garbage = g_build_filename (tools_test_scratch_dir (), "garbage.dat", NULL);
  g_assert_true (g_file_set_contents (garbage, magic_and_garbage, sizeof magic_and_garbage - 1, NULL));
  assert_refused (garbage, "cut or damaged within its header (byte 10)");
  /* what a zlib-compressed file says of itself, on a zstd-only library */
  zlib = write_damaged ("zlib.v7.dat", V7, G_MAXSIZE, "zstd", "zlib");
  assert_refused (zlib, "compressed with zlib");
}

/* libtracecmd seeks: standard input is refused, saying so. */
static void
test_stdin_refused (void)
{
  g_autoptr (Run) r = NULL;

  if (!have_tracecmd_src ())
    return;
  r = RUN ("trace-launch", NULL, "tracecmd-src", "location=-", "!", "fakesink");
  g_assert_cmpint (r->status, ==, 1);
  g_assert_nonnull (strstr (r->err, "<stdin>: tracecmd-src reads trace.dat from a file only"));
}

void
add_tracecmd_tests (void)
{
  g_test_add_data_func ("/tools/tracecmd/info-detects-v7", V7, test_info_detects);
  g_test_add_data_func ("/tools/tracecmd/info-detects-v6", V6, test_info_detects);
  g_test_add_data_func ("/tools/tracecmd/convert-detects-v7", V7, test_convert_detects);
  g_test_add_data_func ("/tools/tracecmd/convert-detects-v6", V6, test_convert_detects);
  g_test_add_func ("/tools/tracecmd/damaged", test_damaged);
  g_test_add_func ("/tools/tracecmd/stdin-refused", test_stdin_refused);
}
