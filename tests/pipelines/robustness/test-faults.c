/* tracepipe tests - faults: Ctrl-C, SIGKILL, unwritable folders, full disks
 *
 * What the user must be able to count on: an interrupted run leaves a
 * complete, valid file; a killed run leaves nothing under the output's
 * name (only the hidden temporary beside it); an output that cannot be
 * written is an ERROR naming the path, never a cut file under that name.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "robustness.h"

static const char interrupt_message[] =
    "Interrupt: stopping the sources and finishing the outputs (press Ctrl-C again to abort)...\n";

typedef struct
{
  const char *sink;
  const char *file;
} SinkCase;

static const SinkCase json_case = { "json-sink", "out.json" };
static const SinkCase perfetto_case = { "perfetto-sink", "out.pftrace" };

/* Everything the source sent reached the sink, and the file holds all
 * of it: the JSON as many events as the sink says it wrote (slices are
 * merged into X events), the Perfetto file, read back, every event the
 * sink received (these inputs have no kind a round trip merges). */
static void
check_finished_output (const SinkCase *c,
                       const char *path,
                       const char *stats,
                       const char *src)
{
  g_autofree char *sink = g_strdup_printf ("%s0", c->sink);

  g_assert_cmpuint (rb_stat (stats, src, "events-out"), >, 0);
  g_assert_cmpuint (rb_stat (stats, sink, "events-in"), ==, rb_stat (stats, src, "events-out"));
  if (c == &json_case)
    g_assert_cmpuint (rb_json_trace_events (path), ==, rb_stat (stats, sink, "json-events"));
  else
    g_assert_cmpuint (rb_perfetto_trace_events (path), ==, rb_stat (stats, sink, "events-in"));
}

/* SIGINT on an endless stream: exit 130, the file complete and valid,
 * no temporary left. */
static void
test_interrupt_endless (gconstpointer data)
{
  const SinkCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, c->file, NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  child = rb_start (100, (const char *const[]){ "--stats", "fakesrc", "num-events=-1", "kinds=slices+counters",
                                                "!", c->sink, location, NULL });
  rb_child_signal (child, SIGINT);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 130);
  g_assert_nonnull (strstr (r->err, interrupt_message));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, c->file);
  check_finished_output (c, path, r->err, "fakesrc0");
  rb_scratch_cleanup (dir);
}

/* A second SIGINT while the outputs are being finished aborts them:
 * then nothing is left, else (it came too late) the file is complete;
 * never a temporary or a cut file under the output's name. */
static void
test_interrupt_twice (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *first = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  child = rb_start (300, (const char *const[]){ "fakesrc", "num-events=-1", "!", "json-sink", location, NULL });
  rb_child_signal (child, SIGINT);
  first = rb_child_read_err_line (child);
  g_assert_cmpstr (first, ==, "Interrupt: stopping the sources and finishing the outputs (press Ctrl-C again to abort)...");
  rb_child_signal (child, SIGINT);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 130);
  listing = rb_list_dir (dir);
  /* (trace-launch says "aborting" even when the sink had finished just
   * before the second signal was handled: the file decides) */
  if (strcmp (listing, "") != 0)
    {
      g_assert_cmpstr (listing, ==, "out.json");
      g_assert_cmpuint (rb_json_trace_events (path), >, 0);
    }
  rb_scratch_cleanup (dir);
}

/* SIGINT in the middle of a real file: the sink gets every event read
 * so far and writes a valid file of them. */
static void
test_interrupt_file (gconstpointer data)
{
  const SinkCase *c = data;
  const char *input = rb_generated_systrace (64);
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, c->file, NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *in_location = g_strdup_printf ("location=%s", input);
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;
  GStatBuf st;

  /* 25 ms after PLAYING: the first batches are through (a few ms), and
   * 64 MiB are far from read (~130 ms into perfetto-sink on this
   * project's machines; at 100 ms a faster writer finished reading 1 run
   * in 4) */
  child = rb_start (25, (const char *const[]){ "--stats", "ftrace-src", in_location, "!", c->sink, location, NULL });
  rb_child_signal (child, SIGINT);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 130);
  g_assert_nonnull (strstr (r->err, interrupt_message));
  /* it stopped in the middle */
  g_assert_cmpint (g_stat (input, &st), ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "bytes-read"), <, (guint64) st.st_size);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, c->file);
  check_finished_output (c, path, r->err, "ftrace-src0");
  rb_scratch_cleanup (dir);
}

/* SIGKILL: nothing under the output's name, only `.NAME.XXXXXX.part`. */
static void
test_kill (gconstpointer data)
{
  const SinkCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, c->file, NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *listing = NULL;
  g_autofree char *pattern = g_strdup_printf ("^\\.%s\\.[A-Za-z0-9]{6}\\.part$", c->file);
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  child = rb_start (300, (const char *const[]){ "fakesrc", "num-events=-1", "!", c->sink, location, NULL });
  rb_child_signal (child, SIGKILL);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 128 + SIGKILL);
  listing = rb_list_dir (dir);
  g_assert_true (g_regex_match_simple (pattern, listing, 0, 0));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  rb_scratch_cleanup (dir);
}

/* A file that was there keeps its content when a run is killed. */
static void
test_kill_keeps_existing (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *kept = NULL;
  g_autoptr (RbResult) r = NULL;
  RbChild *child;

  rb_write_file (path, "previous\n", 9);
  child = rb_start (300, (const char *const[]){ "fakesrc", "num-events=-1", "!", "json-sink", location, NULL });
  rb_child_signal (child, SIGKILL);
  r = rb_child_finish (child);
  g_assert_cmpint (r->status, ==, 128 + SIGKILL);
  g_assert_true (g_file_get_contents (path, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "previous\n");
  rb_scratch_cleanup (dir);
}

static const char *
small_input (void)
{
  static char *path;

  if (path == NULL)
    path = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  return path;
}

/* Converts the small corpus file to @path with @sink. */
static RbResult *
convert (RbSetup setup,
         const char *sink,
         const char *path)
{
  g_autofree char *in = g_strdup_printf ("location=%s", small_input ());
  g_autofree char *out = g_strdup_printf ("location=%s", path);

  return rb_run (setup, NULL, (const char *const[]){ "-q", "ftrace-src", in, "!", sink, out, NULL });
}

/* Can this process be kept from writing into a 0555 folder? (root with
 * CAP_SETPCAP: yes, by dropping CAP_DAC_OVERRIDE; a user: always.) */
static gboolean
can_make_unwritable (const char *dir)
{
  g_autofree char *probe = g_build_filename (dir, "probe", NULL);
  const char *argv[] = { "touch", probe, NULL };
  g_autoptr (RbResult) r = rb_run_program (RB_SETUP_NO_DAC_OVERRIDE, argv);

  return r->status != 0 && !g_file_test (probe, G_FILE_TEST_EXISTS);
}

static void
test_unwritable_dir (gconstpointer data)
{
  const SinkCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *ro = g_build_filename (dir, "read-only", NULL);
  g_autofree char *path = g_build_filename (ro, c->file, NULL);
  g_autofree char *expected = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = NULL;

  g_assert_cmpint (g_mkdir (ro, 0755), ==, 0);
  g_assert_cmpint (g_chmod (ro, 0555), ==, 0);
  if (!can_make_unwritable (ro))
    {
      g_test_skip ("cannot make a folder unwritable for this user");
      rb_scratch_cleanup (dir);
      return;
    }
  r = convert (RB_SETUP_NO_DAC_OVERRIDE, c->sink, path);
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/%s0: could not open \"%s\" for writing: %s\n", c->sink, path,
                              g_strerror (EACCES));
  rb_assert_messages (r->err, expected);
  listing = rb_list_dir (ro);
  g_assert_cmpstr (listing, ==, "");
  rb_scratch_cleanup (dir);
}

static void
test_missing_dir (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "no-such-folder", "out.json", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (RbResult) r = convert (RB_SETUP_NONE, "json-sink", path);

  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/json-sink0: could not open \"%s\" for writing: %s\n", path,
                              g_strerror (ENOENT));
  rb_assert_messages (r->err, expected);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "");
  rb_scratch_cleanup (dir);
}

/* /dev/full: every write fails with ENOSPC. The device is written in
 * place (a temporary renamed over it would replace the device). */
static void
test_dev_full (gconstpointer data)
{
  const SinkCase *c = data;
  g_autofree char *prefix = g_strdup_printf ("ERROR: from /pipeline0/%s0: could not write \"/dev/full\": ", c->sink);
  g_autofree char *suffix = g_strdup_printf ("%s\n", g_strerror (ENOSPC));
  g_autoptr (RbResult) r = NULL;
  GStatBuf st;

  if (g_stat ("/dev/full", &st) != 0 || !S_ISCHR (st.st_mode))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  r = convert (RB_SETUP_NONE, c->sink, "/dev/full");
  g_assert_cmpint (r->status, ==, 1);
  g_assert_true (g_str_has_prefix (r->err, prefix));
  g_assert_true (g_str_has_suffix (r->err, suffix));
  g_assert_cmpint (g_stat ("/dev/full", &st), ==, 0);
  g_assert_true (S_ISCHR (st.st_mode));
}

/* A write error on an ordinary file (RLIMIT_FSIZE: EFBIG after 64 KiB):
 * an ERROR naming the path, the temporary removed, nothing under the
 * final name, and a file that was there is left as it was. */
static void
test_write_error (gconstpointer data)
{
  const SinkCase *c = data;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, c->file, NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *old = g_build_filename (dir, "old", NULL);
  g_autofree char *old_location = g_strdup_printf ("location=%s", old);
  g_autofree char *in = g_strdup_printf ("location=%s", rb_generated_systrace (4));
  g_autofree char *prefix = g_strdup_printf ("ERROR: from /pipeline0/%s0: could not write \"%s\": ", c->sink, path);
  g_autofree char *suffix = g_strdup_printf ("%s\n", g_strerror (EFBIG));
  g_autofree char *listing = NULL;
  g_autofree char *kept = NULL;
  g_autoptr (RbResult) r = NULL;
  g_autoptr (RbResult) r2 = NULL;

  r = rb_run (RB_SETUP_FILE_SIZE_64K, NULL, (const char *const[]){ "-q", "ftrace-src", in, "!", c->sink, location, NULL });
  g_assert_cmpint (r->status, ==, 1);
  g_assert_true (g_str_has_prefix (r->err, prefix));
  g_assert_true (g_str_has_suffix (r->err, suffix));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "");

  rb_write_file (old, "previous\n", 9);
  r2 = rb_run (RB_SETUP_FILE_SIZE_64K, NULL,
               (const char *const[]){ "-q", "ftrace-src", in, "!", c->sink, old_location, NULL });
  g_assert_cmpint (r2->status, ==, 1);
  g_assert_true (g_file_get_contents (old, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "previous\n");
  rb_scratch_cleanup (dir);
}

/* A real full disk: a 64 KiB tmpfs in a private mount namespace
 * (`unshare -m` as root, `unshare -rm` in a user namespace otherwise);
 * skipped where neither is allowed. */
static void
test_full_filesystem (gconstpointer data)
{
  const SinkCase *c = data;
  static const char script[] = "mnt=$1; shift; mount -t tmpfs -o size=64k tmpfs \"$mnt\" 2>/dev/null || exit 77; "
                               "\"$@\"; st=$?; ls -A \"$mnt\"; exit $st";
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *unshare = g_find_program_in_path ("unshare");
  g_autofree char *path = g_build_filename (dir, c->file, NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *in = g_strdup_printf ("location=%s", rb_generated_systrace (4));
  g_autofree char *prefix = g_strdup_printf ("ERROR: from /pipeline0/%s0: could not write \"%s\": ", c->sink, path);
  g_autofree char *suffix = g_strdup_printf ("%s\n", g_strerror (ENOSPC));
  g_autoptr (RbResult) r = NULL;

  if (unshare == NULL)
    {
      g_test_skip ("no unshare");
      rb_scratch_cleanup (dir);
      return;
    }
  {
    const char *argv[] = { unshare, geteuid () == 0 ? "-m" : "-rm", "sh", "-c", script, "sh", dir,
                           g_getenv ("TRACE_LAUNCH"), "-q", "ftrace-src", in, "!", c->sink, location, NULL };

    r = rb_run_program (RB_SETUP_NONE, argv);
  }
  if (r->status == 77 || (r->status == 1 && strstr (r->err, "unshare") != NULL))
    {
      g_test_skip ("cannot mount a tmpfs in a private mount namespace here");
      rb_scratch_cleanup (dir);
      return;
    }
  g_assert_cmpint (r->status, ==, 1);
  g_assert_true (g_str_has_prefix (r->err, prefix));
  g_assert_true (g_str_has_suffix (r->err, suffix));
  /* what `ls -A` saw on the full filesystem: nothing */
  g_assert_cmpstr (r->out, ==, "");
  rb_scratch_cleanup (dir);
}

void
rb_add_fault_tests (void)
{
  g_test_add_data_func ("/robustness/interrupt/endless/json-sink", &json_case, test_interrupt_endless);
  g_test_add_data_func ("/robustness/interrupt/endless/perfetto-sink", &perfetto_case, test_interrupt_endless);
  g_test_add_func ("/robustness/interrupt/twice", test_interrupt_twice);
  g_test_add_data_func ("/robustness/interrupt/file/json-sink", &json_case, test_interrupt_file);
  g_test_add_data_func ("/robustness/interrupt/file/perfetto-sink", &perfetto_case, test_interrupt_file);
  g_test_add_data_func ("/robustness/kill/json-sink", &json_case, test_kill);
  g_test_add_data_func ("/robustness/kill/perfetto-sink", &perfetto_case, test_kill);
  g_test_add_func ("/robustness/kill/keeps-existing-file", test_kill_keeps_existing);
  g_test_add_data_func ("/robustness/output/unwritable-folder/json-sink", &json_case, test_unwritable_dir);
  g_test_add_data_func ("/robustness/output/unwritable-folder/perfetto-sink", &perfetto_case, test_unwritable_dir);
  g_test_add_func ("/robustness/output/missing-folder", test_missing_dir);
  g_test_add_data_func ("/robustness/output/dev-full/json-sink", &json_case, test_dev_full);
  g_test_add_data_func ("/robustness/output/dev-full/perfetto-sink", &perfetto_case, test_dev_full);
  g_test_add_data_func ("/robustness/output/write-error/json-sink", &json_case, test_write_error);
  g_test_add_data_func ("/robustness/output/write-error/perfetto-sink", &perfetto_case, test_write_error);
  g_test_add_data_func ("/robustness/output/full-filesystem/json-sink", &json_case, test_full_filesystem);
  g_test_add_data_func ("/robustness/output/full-filesystem/perfetto-sink", &perfetto_case, test_full_filesystem);
}
