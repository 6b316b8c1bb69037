/* tracepipe tests - faults of the core: threads, SIGTERM, outputs, long values
 *
 * What the user sees when the system
 * refuses a thread, when `timeout` or systemd sends SIGTERM, when two
 * sinks would write one file or a path is long or a symlink, and when a
 * value in a message is huge.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <signal.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "robustness.h"

/* The system refuses the queues' threads: an ERROR naming the queue
 * (not GLib's "creating thread" abort, SIGTRAP), exit 1, nothing
 * written and no temporary left. */
static void
test_thread_refused (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;

#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer needs more address space than the limit leaves");
  return;
#endif
  r = rb_run (RB_SETUP_FEW_THREADS, NULL,
              (const char *const[]){ "-q", "fakesrc", "num-events=1000", "!", "queue", "!", "queue", "!", "queue", "!",
                                     "queue", "!", "queue", "!", "queue", "!", "queue", "!", "queue", "!", "json-sink",
                                     location, NULL });
  g_assert_cmpint (r->status, ==, 1);
  g_assert_true (g_regex_match_simple ("^ERROR: from /pipeline0/queue[0-7]: could not start the queue's streaming "
                                       "thread: .+\n",
                                       r->err, 0, 0));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "");
  rb_scratch_cleanup (dir);
}

static const char sigterm_message[] = "Terminated: stopping the sources and finishing the outputs "
                                      "(send SIGTERM or press Ctrl-C again to abort)...\n";

/* SIGTERM, what `timeout`, systemd and CI runners send, is the first
 * Ctrl-C: the output is finished and complete, exit 143 (the default
 * action would exit 143 too but leave `.out.json.XXXXXX.part` behind
 * and no out.json). */
static void
test_sigterm (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  child = rb_start (100, (const char *const[]){ "--stats", "fakesrc", "num-events=-1", "kinds=slices+counters", "!",
                                                "json-sink", location, NULL });
  rb_child_signal (child, SIGTERM);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 143);
  g_assert_nonnull (strstr (r->err, sigterm_message));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "out.json");
  g_assert_cmpuint (rb_stat (r->err, "json-sink0", "events-in"), ==, rb_stat (r->err, "fakesrc0", "events-out"));
  g_assert_cmpuint (rb_json_trace_events (path), ==, rb_stat (r->err, "json-sink0", "json-events"));
  rb_scratch_cleanup (dir);
}

/* A second SIGTERM aborts: exit 143, and never a temporary left (either
 * nothing, or the complete file when the sink had just finished). */
static void
test_sigterm_twice (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *first = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  child = rb_start (300, (const char *const[]){ "fakesrc", "num-events=-1", "!", "json-sink", location, NULL });
  rb_child_signal (child, SIGTERM);
  first = rb_child_read_err_line (child);
  g_assert_true (g_str_has_prefix (first, "Terminated: stopping the sources"));
  rb_child_signal (child, SIGTERM);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 143);
  listing = rb_list_dir (dir);
  if (strcmp (listing, "") != 0)
    {
      g_assert_cmpstr (listing, ==, "out.json");
      g_assert_cmpuint (rb_json_trace_events (path), >, 0);
    }
  rb_scratch_cleanup (dir);
}

/* One sink cannot start (its folder is missing) after another one
 * created its temporary: the run stops (exit 1) and the other's
 * temporary is gone too. */
static void
test_start_failure_leaves_nothing (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *good = g_strdup_printf ("location=%s/good.json", dir);
  g_autofree char *bad = g_strdup_printf ("location=%s/missing/bad.pftrace", dir);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;

  r = RB_RUN ("-q", "fakesrc", "num-events=100", "!", "tee", "name=t", "t.", "!", "json-sink", good, "t.", "!",
              "perfetto-sink", bad);
  g_assert_cmpint (r->status, ==, 1);
  g_assert_nonnull (strstr (r->err, "ERROR: from /pipeline0/perfetto-sink0: could not open"));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "");
  rb_scratch_cleanup (dir);
}

/* Two sinks, one file, however the path is written: refused when the
 * pipeline is built (exit 2, naming the file), nothing written (else
 * both would exit 0 and one output be lost). */
static void
test_same_output (void)
{
  static const char *const second_names[] = { "X.json", "./X.json", "link.json", "sub/../X.json" };
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_autofree char *cwd = g_get_current_dir ();

  /* relative locations are relative to the child's folder, ours */
  g_assert_cmpint (symlink ("X.json", link), ==, 0);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_assert_cmpint (chdir (dir), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (second_names); i++)
    {
      g_autofree char *second = g_strdup_printf ("location=%s", second_names[i]);
      g_autofree char *expected = NULL;
      g_autofree char *listing = NULL;
      g_autoptr (RbResult) r = RB_RUN ("fakesrc", "!", "tee", "name=t", "t.", "!", "json-sink", "location=X.json",
                                       "t.", "!", "json-sink", second);

      if (i == 0)
        expected = g_strdup ("json-sink1 and json-sink0 both write \"X.json\": one output would be lost "
                             "(give each sink its own location)\n");
      else
        expected = g_strdup_printf ("json-sink1 and json-sink0 both write the same file, \"%s\" and \"X.json\": "
                                    "one output would be lost (give each sink its own location)\n",
                                    second_names[i]);
      g_assert_cmpint (r->status, ==, 2);
      g_assert_true (g_str_has_prefix (r->err, "ERROR: invalid pipeline description: 1:"));
      g_assert_nonnull (strstr (r->err, expected));
      g_assert_cmpstr (r->out, ==, "");
      listing = rb_list_dir (dir);
      g_assert_cmpstr (listing, ==, "link.json sub");
    }
  g_assert_cmpint (chdir (cwd), ==, 0);
  rb_scratch_cleanup (dir);
}

/* Writing through a symlink writes the file it points to; the link stays
 * a link, not replaced by a regular file. A dangling link creates its
 * target. */
static void
test_output_through_symlink (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *link = g_build_filename (dir, "link.json", NULL);
  g_autofree char *target = g_build_filename (dir, "real.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", link);
  g_autofree char *pointed = NULL;
  g_autofree char *listing = NULL;

  g_assert_cmpint (symlink ("real.json", link), ==, 0);
  for (guint run = 0; run < 2; run++) /* dangling, then to an existing file */
    {
      g_autoptr (RbResult) r = RB_RUN ("-q", "fakesrc", "num-events=100", "!", "json-sink", location);

      g_assert_cmpint (r->status, ==, 0);
      g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
      g_clear_pointer (&pointed, g_free);
      pointed = g_file_read_link (link, NULL);
      g_assert_cmpstr (pointed, ==, "real.json");
      g_assert_cmpuint (rb_json_trace_events (target), >, 0);
      g_clear_pointer (&listing, g_free);
      listing = rb_list_dir (dir);
      g_assert_cmpstr (listing, ==, "link.json real.json");
    }
  rb_scratch_cleanup (dir);
}

/* Output names of 250 and 255 bytes (NAME_MAX) are legal: the
 * temporary's name is cut to fit (uncut: ENAMETOOLONG, exit 1). */
static void
test_long_output_name (void)
{
  g_autofree char *dir = rb_scratch_dir ();

  for (guint len = 250; len <= 255; len += 5)
    {
      g_autofree char *stem = g_strnfill (len - 5, 'n');
      g_autofree char *name = g_strdup_printf ("%s.json", stem);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *location = g_strdup_printf ("location=%s", path);
      g_autofree char *listing = NULL;
      g_autoptr (RbResult) r = RB_RUN ("-q", "fakesrc", "num-events=100", "!", "json-sink", location);

      g_assert_cmpuint (strlen (name), ==, len);
      g_assert_cmpint (r->status, ==, 0);
      g_assert_cmpstr (r->err, ==, "");
      g_assert_cmpuint (rb_json_trace_events (path), >, 0);
      listing = rb_list_dir (dir);
      g_assert_cmpstr (listing, ==, name);
      g_remove (path);
    }
  rb_scratch_cleanup (dir);
}

/* The cut temporary name while the run is killed: `.NNN….XXXXXX.part`,
 * 255 bytes, beside the output. */
static void
test_long_output_name_killed (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *stem = g_strnfill (250, 'n');
  g_autofree char *path = g_strdup_printf ("%s/%s.json", dir, stem);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  child = rb_start (200, (const char *const[]){ "fakesrc", "num-events=-1", "!", "json-sink", location, NULL });
  rb_child_signal (child, SIGKILL);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 128 + SIGKILL);
  listing = rb_list_dir (dir);
  g_assert_cmpuint (strlen (listing), ==, 255);
  g_assert_true (g_str_has_prefix (listing, ".nnnn"));
  g_assert_true (g_str_has_suffix (listing, ".part"));
  rb_scratch_cleanup (dir);
}

#define HUGE_VALUE_SIZE (16 << 20)

typedef struct
{
  const char *before; /* the description around the huge value */
  const char *after;
  int status;
  const char *message; /* what stderr must hold besides the cut value */
} HugeValueCase;

static const HugeValueCase huge_value_cases[] = {
  { "fakesrc num-events=10 ! json-sink location=/nonexistent/", "", 1, "for writing: No such file or directory" },
  { "ftrace-src location=/nonexistent/", " ! fakesink", 1, "for reading: Error opening file /nonexistent/" },
  { "auto-src location=/nonexistent/", " ! fakesink", 1, "for reading: Error opening file /nonexistent/" },
  { "fakesrc num-events=", " ! fakesink", 2, "is not a valid value for \"num-events\"" },
  { "fakesrc ! fakesink name=", "", 2, "an element name is at most 256 bytes" },
  { "fakesrc ! ", ". ", 2, "no element named" },
};

/* A value of 16 MiB in the description: every message that quotes it
 * cuts it after 256 bytes and says how long it was (not the whole
 * value, twice for a file GIO could not open, plus the caret line). */
static void
test_huge_value (gconstpointer data)
{
  const HugeValueCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *file = g_build_filename (dir, "huge.launch", NULL);
  GString *text = g_string_sized_new (HUGE_VALUE_SIZE + 256);
  g_autoptr (RbResult) r = NULL;
  g_autofree char *listing = NULL;

  g_string_append (text, c->before);
  for (gsize i = 0; i < HUGE_VALUE_SIZE; i++)
    g_string_append_c (text, 'v');
  g_string_append (text, c->after);
  rb_write_file (file, text->str, text->len);
  g_string_free (text, TRUE);
  r = RB_RUN ("-q", "-f", file);
  g_assert_cmpint (r->status, ==, c->status);
  g_assert_cmpuint (strlen (r->err), <, 2048);
  g_assert_true (g_str_has_prefix (r->err, "ERROR: "));
  g_assert_nonnull (strstr (r->err, "vvv...\""));
  g_assert_nonnull (strstr (r->err, c->message));
  g_assert_cmpstr (r->out, ==, "");
  g_remove (file);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "");
  rb_scratch_cleanup (dir);
}

/* A source reading an idle pipe (`(head FILE; sleep 100) | trace-launch
 * ftrace-src location=- ! …`): SIGINT or SIGTERM stops it at once, the
 * output holds what was read, while the pipe is still open and idle
 * (a blocking read would block the thread that runs the signal
 * handlers, and no Ctrl-C would do anything). The child runs under `timeout -s KILL`
 * (which forwards the signal), so a hang fails as 137 instead of
 * stalling the suite. */
typedef struct
{
  int signum;
  gsize bytes; /* written before the pipe goes idle; 0: `sleep 100 | …` */
} IdlePipeCase;

static const IdlePipeCase idle_cases[] = { { SIGINT, 4096 }, { SIGTERM, 4096 }, { SIGINT, 0 } };

static void
test_idle_pipe_signal (gconstpointer data)
{
  const IdlePipeCase *c = data;
  int signum = c->signum;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *input = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autoptr (GBytes) text = rb_read_file (input);
  g_autoptr (GSubprocessLauncher) launcher =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                 G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { "timeout", "--foreground", "-s", "KILL", "60", g_getenv ("TRACE_LAUNCH"), "--stats", "ftrace-src",
                         "location=-", "!", "json-sink", location, NULL };
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GDataInputStream) err_in = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) stats = g_string_new (NULL);
  g_autofree char *first = NULL;
  char *line;

  p = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  /* a few KiB of whole lines (or nothing), then nothing, the pipe open */
  g_output_stream_write_all (g_subprocess_get_stdin_pipe (p), g_bytes_get_data (text, NULL), c->bytes, NULL, NULL,
                             &error);
  g_assert_no_error (error);
  g_output_stream_flush (g_subprocess_get_stdin_pipe (p), NULL, &error);
  err_in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  first = g_data_input_stream_read_line_utf8 (err_in, NULL, NULL, &error);
  g_assert_cmpstr (first, ==, "Setting pipeline to PLAYING ...");
  g_usleep (500 * 1000);
  g_subprocess_send_signal (p, signum);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 128 + signum);
  /* status, the signal's line and --stats all come on stderr */
  while ((line = g_data_input_stream_read_line_utf8 (err_in, NULL, NULL, &error)) != NULL)
    {
      g_string_append_printf (stats, "%s\n", line);
      g_free (line);
    }
  g_test_message ("stderr:\n%s", stats->str);
  g_assert_nonnull (strstr (stats->str, signum == SIGTERM ? "Terminated: stopping the sources"
                                                          : "Interrupt: stopping the sources"));
  if (c->bytes > 0)
    g_assert_cmpuint (rb_stat (stats->str, "ftrace-src0", "events-out"), >, 0);
  g_assert_cmpuint (rb_stat (stats->str, "json-sink0", "events-in"), ==, rb_stat (stats->str, "ftrace-src0", "events-out"));
  g_assert_cmpuint (rb_json_trace_events (path), ==, rb_stat (stats->str, "json-sink0", "json-events"));
  g_output_stream_close (g_subprocess_get_stdin_pipe (p), NULL, NULL);
  rb_scratch_cleanup (dir);
}

/* Data that comes after a pause is read as if it had come at once: the
 * wait ends when the pipe is readable again (the path a signal does not
 * take). */
static void
test_pipe_resumes (void)
{
  g_autofree char *input = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autofree char *by_name = g_strdup_printf ("location=%s", input);
  g_autoptr (GBytes) text = rb_read_file (input);
  g_autoptr (RbResult) direct = RB_RUN ("-q", "--stats", "ftrace-src", by_name, "!", "fakesink");
  g_autoptr (GSubprocessLauncher) launcher =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                 G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { "timeout", "--foreground", "-s", "KILL", "60", g_getenv ("TRACE_LAUNCH"), "-q", "--stats", "ftrace-src",
                         "location=-", "!", "fakesink", NULL };
  g_autoptr (GSubprocess) p = g_subprocess_launcher_spawnv (launcher, argv, NULL);
  GOutputStream *in = g_subprocess_get_stdin_pipe (p);
  gsize len;
  const char *data = g_bytes_get_data (text, &len);
  g_autoptr (GDataInputStream) out_in = NULL;
  g_autofree char *stats = NULL;

  g_assert_cmpint (direct->status, ==, 0);
  g_assert_nonnull (p);
  g_assert_true (g_output_stream_write_all (in, data, 4096, NULL, NULL, NULL));
  g_output_stream_flush (in, NULL, NULL);
  g_usleep (300 * 1000); /* the source now waits for more */
  g_assert_true (g_output_stream_write_all (in, data + 4096, len - 4096, NULL, NULL, NULL));
  g_output_stream_close (in, NULL, NULL);
  /* (its output is a few lines: the pipes cannot fill before it ends) */
  g_assert_true (g_subprocess_wait (p, NULL, NULL));
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
  out_in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  stats = g_data_input_stream_read_upto (out_in, "", 1, NULL, NULL, NULL);
  g_assert_cmpuint (rb_stat (stats, "ftrace-src0", "events-out"), ==, rb_stat (direct->err, "ftrace-src0", "events-out"));
  g_assert_cmpuint (rb_stat (stats, "ftrace-src0", "lines"), ==, rb_stat (direct->err, "ftrace-src0", "lines"));
}

/* A FIFO given by path that no writer ever opens: a blocking open(2)
 * would wait for one, out of reach of Ctrl-C. SIGINT ends the wait:
 * exit 130, an empty valid output. */
static void
test_fifo_without_writer (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *fifo = g_build_filename (dir, "fifo", NULL);
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *in = g_strdup_printf ("location=%s", fifo);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GSubprocessLauncher) launcher =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  const char *argv[] = { "timeout", "--foreground", "-s", "KILL", "60", g_getenv ("TRACE_LAUNCH"), "ftrace-src", in,
                         "!", "json-sink", location, NULL };
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GDataInputStream) err_in = NULL;
  g_autofree char *first = NULL;
  g_autofree char *listing = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  p = g_subprocess_launcher_spawnv (launcher, argv, NULL);
  g_assert_nonnull (p);
  /* The line comes once the signal handlers are in place, just before
   * the source opens the FIFO: a signal sent earlier would kill it. */
  err_in = g_data_input_stream_new (g_subprocess_get_stderr_pipe (p));
  first = g_data_input_stream_read_line_utf8 (err_in, NULL, NULL, NULL);
  g_assert_cmpstr (first, ==, "Setting pipeline to PLAYING ...");
  g_usleep (300 * 1000);
  g_subprocess_send_signal (p, SIGINT);
  g_assert_true (g_subprocess_wait (p, NULL, NULL));
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 130);
  g_assert_cmpuint (rb_json_trace_events (path), ==, 0);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "fifo out.json");
  rb_scratch_cleanup (dir);
}

void
rb_add_core_fault_tests (void)
{
  g_test_add_func ("/robustness/threads/refused", test_thread_refused);
  g_test_add_func ("/robustness/sigterm/finishes-outputs", test_sigterm);
  g_test_add_func ("/robustness/sigterm/twice", test_sigterm_twice);
  g_test_add_func ("/robustness/output/start-failure-leaves-nothing", test_start_failure_leaves_nothing);
  g_test_add_func ("/robustness/output/same-file", test_same_output);
  g_test_add_func ("/robustness/output/through-symlink", test_output_through_symlink);
  g_test_add_func ("/robustness/output/long-name", test_long_output_name);
  g_test_add_func ("/robustness/output/long-name-killed", test_long_output_name_killed);
  g_test_add_data_func ("/robustness/pipe/idle/sigint", &idle_cases[0], test_idle_pipe_signal);
  g_test_add_data_func ("/robustness/pipe/idle/sigterm", &idle_cases[1], test_idle_pipe_signal);
  g_test_add_data_func ("/robustness/pipe/idle/sigint-no-data", &idle_cases[2], test_idle_pipe_signal);
  g_test_add_func ("/robustness/pipe/idle/resumes", test_pipe_resumes);
  g_test_add_func ("/robustness/pipe/fifo-without-writer", test_fifo_without_writer);
  for (guint i = 0; i < G_N_ELEMENTS (huge_value_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/robustness/huge-value/%u", i);

      g_test_add_data_func (path, &huge_value_cases[i], test_huge_value);
    }
}
