/* tracepipe tests - trace-convert -o: the whole batch checked first, each error once, signals passed on
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

#define KERNEL TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"
#define CHROME TEST_DATA_DIR "/json/catapult_simple_trace.json"

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("ftrace-src") && trace_element_factory_find ("json-src") &&
      trace_element_factory_find ("json-sink"))
    return TRUE;
  g_test_skip ("ftrace-src, json-src or json-sink is not built");
  return FALSE;
}

/* A fresh folder in the scratch folder. */
static char *
make_folder (const char *name)
{
  char *path = g_build_filename (tools_test_scratch_dir (), name, NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0700), ==, 0);
  return path;
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static char *
copy_into (const char *folder,
           const char *from,
           const char *name)
{
  g_autoptr (GBytes) b = read_bytes (from);
  char *to = g_build_filename (folder, name, NULL);

  g_assert_true (g_file_set_contents (to, g_bytes_get_data (b, NULL), g_bytes_get_size (b), NULL));
  return to;
}

static guint
count_files (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  guint n = 0;

  while (dir && g_dir_read_name (dir))
    n++;
  return n;
}

static guint
count_occurrences (const char *text,
                   const char *what)
{
  guint n = 0;

  for (const char *p = text; (p = strstr (p, what)) != NULL; p += strlen (what))
    n++;
  return n;
}

static void
assert_json_trace (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents"));
}

/* Each output of `-o 'in/{name}.json' in/` is its own input: nothing is
 * written, every input keeps its bytes, and each clash is named. */
static void
test_batch_output_is_input (void)
{
  g_autofree char *in = NULL, *x = NULL, *y = NULL, *template = NULL;
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  in = make_folder ("batch-self");
  x = copy_into (in, CHROME, "x.json");
  y = copy_into (in, KERNEL, "y.txt");
  before = read_bytes (x);
  template = g_build_filename (in, "{name}.json", NULL);
  r = RUN ("trace-convert", NULL, "-o", template, in);
  g_assert_cmpint (r->status, ==, 2);
  g_assert_nonnull (strstr (r->err, "x.json would be written over itself"));
  g_assert_nonnull (strstr (r->err, "nothing converted: 1 output would replace another file of the batch"));
  after = read_bytes (x);
  g_assert_true (g_bytes_equal (before, after));
  g_assert_cmpuint (count_files (in), ==, 2); /* no y.json either: the batch is refused whole */
  g_unlink (x), g_unlink (y), g_rmdir (in);
}

/* The output folder is a symlink to the input folder: the strings differ,
 * the files are the same. */
static void
test_batch_output_through_symlink (void)
{
  g_autofree char *in = NULL, *x = NULL, *link = NULL, *template = NULL;
  g_autoptr (GBytes) before = NULL, after = NULL;
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  in = make_folder ("batch-linked");
  x = copy_into (in, CHROME, "x.json");
  before = read_bytes (x);
  link = g_build_filename (tools_test_scratch_dir (), "batch-link", NULL);
  g_unlink (link);
  g_assert_cmpint (symlink (in, link), ==, 0);
  template = g_build_filename (link, "{name}.json", NULL);
  r = RUN ("trace-convert", NULL, "-o", template, x);
  g_assert_cmpint (r->status, ==, 2);
  g_assert_nonnull (strstr (r->err, "x.json would be written over itself"));
  after = read_bytes (x);
  g_assert_true (g_bytes_equal (before, after));
  g_unlink (link), g_unlink (x), g_rmdir (in);
}

/* `out/{name}/../all.json` is one file for every input: refused before
 * any folder is made, naming the inputs. */
static void
test_batch_outputs_meet_through_dotdot (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "batch-dotdot", NULL);
  g_autofree char *template = g_build_filename (out, "{name}", "..", "all.json", NULL);
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  r = RUN ("trace-convert", NULL, "-o", template, KERNEL, CHROME);
  g_assert_cmpint (r->status, ==, 2);
  g_assert_nonnull (strstr (r->err, "catapult_atrace_data.txt and " CHROME " would both be written to"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
}

/* A failed file's error is said once (the FAILED line), and the batch
 * ends with one line for all. */
static void
test_batch_errors_once_and_summary (void)
{
  g_autofree char *in = NULL, *good = NULL, *bad = NULL, *out = NULL, *template = NULL;
  g_autoptr (Run) r = NULL;
  g_auto (GStrv) lines = NULL;
  guint n;

  if (!have_plugins ())
    return;
  in = make_folder ("batch-summary");
  good = copy_into (in, KERNEL, "good.txt");
  bad = g_build_filename (in, "bad.txt", NULL);
  g_assert_true (g_file_set_contents (bad, "\x01\x02 not a trace\n", -1, NULL));
  out = g_build_filename (tools_test_scratch_dir (), "batch-summary-out", NULL);
  template = g_build_filename (out, "{name}.json", NULL);
  r = RUN ("trace-convert", NULL, "-j", "1", "-o", template, in);
  g_assert_cmpint (r->status, ==, 1);
  g_assert_cmpuint (count_occurrences (r->err, "no plugin recognises this format"), ==, 1);
  lines = g_strsplit (r->err, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpstr (lines[n - 1], ==, "");
  g_assert_true (g_str_has_prefix (lines[n - 2], "1 converted, 0 stopped, 1 failed, 0 not started ("));
  g_unlink (good), g_unlink (bad), g_rmdir (in);
}

static void
test_convert_folder_without_template (void)
{
  g_autoptr (Run) r = RUN ("trace-convert", NULL, TEST_DATA_DIR "/ftrace", "out.pftrace");

  g_assert_cmpint (r->status, ==, 2);
  g_assert_nonnull (strstr (r->err, "/ftrace is a folder: to convert each file in it, name the outputs with -o "
                                    "(trace-convert -o '{name}.pftrace' "));
  g_assert_null (strstr (r->err, "Is a directory"));
}

/* One conversion makes the output's folders as -o does, and says why
 * when it cannot (here a file is in the way). */
static void
test_convert_makes_output_folder (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "single-new", "deeper", "k.json", NULL);
  g_autofree char *file = g_build_filename (tools_test_scratch_dir (), "single-file", NULL);
  g_autofree char *blocked = g_build_filename (file, "sub", "k.json", NULL);
  g_autoptr (Run) r = NULL, in_the_way = NULL;

  if (!have_plugins ())
    return;
  r = RUN ("trace-convert", NULL, KERNEL, out);
  g_assert_cmpint (r->status, ==, 0);
  assert_json_trace (out);
  g_assert_true (g_file_set_contents (file, "a file\n", -1, NULL));
  in_the_way = RUN ("trace-convert", NULL, KERNEL, blocked);
  g_assert_cmpint (in_the_way->status, ==, 1);
  g_assert_nonnull (strstr (in_the_way->err, "cannot create the folder "));
  g_assert_nonnull (strstr (in_the_way->err, "single-file/sub: Not a directory"));
  g_unlink (out), g_unlink (file);
}

/* Runs trace-convert with its standard error a pipe nobody reads any
 * more: every status line it writes meets a closed pipe. */
static int
run_with_closed_stderr (const char *const *argv)
{
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  int fds[2];

  g_assert_cmpint (pipe (fds), ==, 0);
  close (fds[0]);
  g_subprocess_launcher_take_stderr_fd (l, fds[1]);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  return g_subprocess_get_if_exited (p) ? g_subprocess_get_exit_status (p) : 128 + g_subprocess_get_term_sig (p);
}

static void
test_batch_closed_stderr (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "closed-stderr", NULL);
  g_autofree char *template = g_build_filename (out, "{name}.json", NULL);
  g_autofree char *a = g_build_filename (out, "catapult_atrace_data.json", NULL);
  g_autofree char *b = g_build_filename (out, "catapult_simple_trace.json", NULL);
  g_autofree char *single = g_build_filename (out, "single.json", NULL);
  const char *batch[] = { g_getenv ("TRACE_CONVERT"), "-j", "1", "-o", template, KERNEL, CHROME, NULL };
  const char *one[] = { g_getenv ("TRACE_CONVERT"), "-v", KERNEL, single, NULL };

  if (!have_plugins ())
    return;
  g_assert_cmpint (run_with_closed_stderr (batch), ==, 0);
  assert_json_trace (a);
  assert_json_trace (b);
  g_assert_cmpint (run_with_closed_stderr (one), ==, 0);
  assert_json_trace (single);
  g_assert_cmpuint (count_files (out), ==, 3); /* no temporary left */
  g_unlink (a), g_unlink (b), g_unlink (single), g_rmdir (out);
}

/* An endless ftrace text through a FIFO, written from a thread: each
 * time a reader opens it (detection, then the source) it gets lines
 * until it closes its end or the test says stop. */
typedef struct
{
  char *path;
  gint stop;
  gint64 written;
} Feeder;

static gboolean
feed_one_reader (Feeder *f,
                 int fd)
{
  static const char header[] = "# tracer: nop\n#\n";
  char line[256];

  if (write (fd, header, sizeof header - 1) < 0)
    return FALSE;
  for (guint64 i = 0; !g_atomic_int_get (&f->stop); i++)
    {
      int n = g_snprintf (line, sizeof line,
                          "     app-100   [000] ...1 %" G_GUINT64_FORMAT ".%06u: tracing_mark_write: %s|100|work\n",
                          1000 + i / 1000000, (guint) (i % 1000000), i % 2 ? "E" : "B");

      if (write (fd, line, n) < 0)
        return errno == EPIPE;
      g_atomic_pointer_add (&f->written, n);
      if (i % 64 == 0)
        g_usleep (1000);
    }
  return FALSE;
}

static gpointer
feed (gpointer data)
{
  Feeder *f = data;

  while (!g_atomic_int_get (&f->stop))
    {
      int fd = open (f->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

      if (fd < 0) /* ENXIO: no reader yet */
        {
          g_usleep (2000);
          continue;
        }
      fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
      if (!feed_one_reader (f, fd) && !g_atomic_int_get (&f->stop))
        g_usleep (1000);
      close (fd);
    }
  return NULL;
}

static char *
read_all (GInputStream *in)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOutputStream) mem = g_memory_output_stream_new_resizable ();

  g_output_stream_splice (mem, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_write (mem, "", 1, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (mem));
}

/* SIGTERM to the batch (a scheduler's stop, a timeout) is passed on to the
 * running conversion as Ctrl-C is: it finishes its output, and the batch
 * reports its end after that, so nothing is written once it has exited. */
static void
test_batch_sigterm_finishes_running (void)
{
  g_autofree char *folder = make_folder ("batch-term");
  g_autofree char *out = g_build_filename (folder, "out", NULL);
  g_autofree char *template = g_build_filename (out, "{name}.json", NULL);
  g_autofree char *output = g_build_filename (out, "live.json", NULL);
  g_autofree char *err = NULL;
  Feeder f = { .path = g_build_filename (folder, "live.txt", NULL) };
  const char *argv[] = { g_getenv ("TRACE_CONVERT"), "-o", template, f.path, NULL };
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  GThread *feeder;
  GStatBuf st, later;

  if (!have_plugins ())
    return;
  signal (SIGPIPE, SIG_IGN); /* the feeder sees EPIPE when a reader closes */
  g_unlink (f.path);
  g_assert_cmpint (mkfifo (f.path, 0600), ==, 0);
  feeder = g_thread_new ("feeder", feed, &f);
  p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  while (g_atomic_pointer_get (&f.written) < 256 * 1024) /* the conversion is under way */
    g_usleep (10 * 1000);
  g_subprocess_send_signal (p, SIGTERM);
  err = read_all (g_subprocess_get_stderr_pipe (p));
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("stderr:\n%s", err);
  g_atomic_int_set (&f.stop, 1);
  g_thread_join (feeder);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 128 + SIGTERM);
  g_assert_nonnull (strstr (err, "Terminated: finishing the running conversions; starting no more"));
  g_assert_nonnull (strstr (err, "live.txt -> "));
  g_assert_nonnull (strstr (err, "\n0 converted, 1 stopped, 0 failed, 0 not started ("));
  g_assert_true (g_str_has_suffix (err, " s)\n")); /* the summary is the last line */
  /* the output was complete when the batch exited, and stays as it was */
  g_assert_cmpint (g_stat (output, &st), ==, 0);
  assert_json_trace (output);
  g_usleep (300 * 1000);
  g_assert_cmpint (g_stat (output, &later), ==, 0);
  g_assert_cmpint (st.st_size, ==, later.st_size);
  g_assert_cmpuint (count_files (out), ==, 1);
  g_unlink (output), g_rmdir (out), g_unlink (f.path), g_rmdir (folder);
  g_free (f.path);
}

void
add_batch_tests (void)
{
  g_test_add_func ("/tools/convert/batch/output-is-input", test_batch_output_is_input);
  g_test_add_func ("/tools/convert/batch/output-through-symlink", test_batch_output_through_symlink);
  g_test_add_func ("/tools/convert/batch/outputs-meet-through-dotdot", test_batch_outputs_meet_through_dotdot);
  g_test_add_func ("/tools/convert/batch/errors-once-and-summary", test_batch_errors_once_and_summary);
  g_test_add_func ("/tools/convert/batch/closed-stderr", test_batch_closed_stderr);
  g_test_add_func ("/tools/convert/batch/sigterm-finishes-running", test_batch_sigterm_finishes_running);
  g_test_add_func ("/tools/convert/folder-without-template", test_convert_folder_without_template);
  g_test_add_func ("/tools/convert/makes-output-folder", test_convert_makes_output_folder);
}
