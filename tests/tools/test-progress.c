/* tracepipe tests - trace-launch's progress line on a terminal
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/* posix_openpt(), grantpt(), unlockpt(), ptsname() */
#define _XOPEN_SOURCE 600

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace/trace.h>

#include "tools-test.h"

#define SLICES TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"
/* how many times the input repeats SLICES' events: enough that the
 * source is still reading when the stalled output holds it back */
#define REPEAT 100

/* SLICES' header, then its event lines REPEAT times: a real trace, large. */
static void
write_big_input (const char *path)
{
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GString) header = g_string_new (NULL);
  g_autoptr (GString) body = g_string_new (NULL);
  g_autoptr (GString) out = NULL;

  g_assert_true (g_file_get_contents (SLICES, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && *lines[i]; i++)
    g_string_append_printf (lines[i][0] == '#' ? header : body, "%s\n", lines[i]);
  out = g_string_new (header->str);
  for (guint i = 0; i < REPEAT; i++)
    g_string_append_len (out, body->str, body->len);
  g_assert_true (g_file_set_contents (path, out->str, out->len, NULL));
}

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
  /* wide enough for the scratch folder's path and the whole line */
  g_assert_cmpint (ioctl (slave, TIOCSWINSZ, &(struct winsize){ .ws_row = 24, .ws_col = 250 }), ==, 0);
  return slave;
}

/* Reads the terminal until a redraw of the progress line ("\r" LINE
 * "\033[K") shows events, or until MAX_FRAMES redraws did not (the run is
 * stalled, so they keep coming): returns the last line seen. */
#define MAX_FRAMES 20

static char *
read_progress_line (int master,
                    const char *label)
{
  g_autoptr (GString) seen = g_string_new (NULL);
  char *last = NULL;
  guint frames = 0;
  char buf[4096];

  while (frames < MAX_FRAMES)
    {
      ssize_t n = read (master, buf, sizeof buf);
      const char *cr, *end;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) /* EIO: the terminal's last writer has gone */
        break;
      g_string_append_len (seen, buf, n);
      /* complete redraws; a bare "\r\033[K" clears the line before a
       * status line */
      while ((cr = strchr (seen->str, '\r')) && (end = strstr (cr, "\033[K")))
        {
          g_autofree char *line = g_strndup (cr + 1, end - cr - 1);

          g_string_erase (seen, 0, end + 3 - seen->str);
          frames++;
          if (!g_str_has_prefix (line, label))
            continue;
          g_free (last);
          last = g_steal_pointer (&line);
          /* the first draws may come before the first batch */
          if (!strstr (last, "| 0 events"))
            return last;
        }
    }
  return last;
}

static guint64
drain (int fd)
{
  char buf[65536];
  guint64 total = 0;
  ssize_t n;

  while ((n = read (fd, buf, sizeof buf)) != 0)
    {
      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      total += n;
    }
  return total;
}

/* SOURCE ! queue ! json-sink into a FIFO nobody reads yet: the run
 * stalls part way, and the line on the terminal, labelled with the file
 * read (LABEL), shows the events that went through the source (one inside
 * auto-src too), its bytes read of the file's size, and an ETA from them.
 * With @from_stdin, the file is standard input (`< file`). */
static void
check_progress_line (const char *source,
                     gboolean from_stdin)
{
  g_autofree char *input = g_build_filename (tools_test_scratch_dir (), "big.txt", NULL);
  g_autofree char *fifo = g_build_filename (tools_test_scratch_dir (), "progress.fifo", NULL);
  g_autofree char *in_loc = g_strdup_printf ("location=%s", from_stdin ? "-" : input);
  g_autofree char *out_loc = g_strdup_printf ("location=%s", fifo);
  g_autofree char *label = g_strdup_printf ("%s: ", from_stdin ? "<stdin>" : input);
  const char *argv[] = { g_getenv ("TRACE_LAUNCH"), source, in_loc, "!", "queue", "max-batches=1", "!",
                         "json-sink", out_loc, NULL };
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL, *size = NULL;
  GStatBuf st;
  int master, slave, reader;

  if (!trace_element_factory_find ("ftrace-src") || !trace_element_factory_find ("json-sink"))
    {
      g_test_skip ("ftrace-src or json-sink is not built");
      return;
    }
  write_big_input (input);
  g_assert_cmpint (g_stat (input, &st), ==, 0);
  {
    g_autofree char *formatted = g_format_size_full (st.st_size, G_FORMAT_SIZE_IEC_UNITS);

    size = g_strdup_printf (" / %s (", formatted);
  }
  g_unlink (fifo);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  /* opened, not read: the sink can open it, and blocks once it is full */
  reader = open (fifo, O_RDONLY | O_NONBLOCK);
  g_assert_cmpint (reader, >=, 0);
  slave = open_pty (&master);
  g_subprocess_launcher_take_fd (l, dup (slave), STDOUT_FILENO);
  g_subprocess_launcher_take_fd (l, slave, STDERR_FILENO);
  if (from_stdin)
    g_subprocess_launcher_set_stdin_file_path (l, input);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_clear_object (&l); /* its copy of the terminal: the reads end when the child's do */
  line = read_progress_line (master, label);
  g_test_message ("progress line: %s", line);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, label));
  g_assert_nonnull (strstr (line, size)); /* bytes read of the file's size */
  g_assert_nonnull (strstr (line, "%) | "));
  g_assert_nonnull (strstr (line, " events, "));
  g_assert_null (strstr (line, "| 0 events"));
  g_assert_nonnull (strstr (line, " | ETA 0:"));
  /* let it finish: the whole output comes through the FIFO */
  fcntl (reader, F_SETFL, fcntl (reader, F_GETFL) & ~O_NONBLOCK);
  g_assert_cmpuint (drain (reader), >, 1000000);
  close (reader);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (p));
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
  close (master);
  g_unlink (input), g_unlink (fifo);
}

static void
test_progress_auto_src (void)
{
  check_progress_line ("auto-src", FALSE);
}

/* `< file`: standard input is a file, whose size and position tell the
 * progress and the ETA as for a named file. */
static void
test_progress_stdin_file (void)
{
  check_progress_line ("ftrace-src", TRUE);
}

/* trace-convert -o on a terminal: while a file converts, a status line
 * says which, for how long, and how many are done; it is gone before
 * each file's own line. */
static void
test_progress_batch (void)
{
  g_autofree char *input = g_build_filename (tools_test_scratch_dir (), "big.txt", NULL);
  g_autofree char *template = g_build_filename (tools_test_scratch_dir (), "batch-progress", "{name}.json", NULL);
  g_autofree char *output = g_build_filename (tools_test_scratch_dir (), "batch-progress", "big.json", NULL);
  const char *argv[] = { g_getenv ("TRACE_CONVERT"), "-o", template, input, NULL };
  g_autoptr (GSubprocessLauncher) l = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr (GSubprocess) p = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *line = NULL;
  int master, slave;

  if (!trace_element_factory_find ("ftrace-src") || !trace_element_factory_find ("json-sink"))
    {
      g_test_skip ("ftrace-src or json-sink is not built");
      return;
    }
  write_big_input (input);
  slave = open_pty (&master);
  g_subprocess_launcher_take_fd (l, slave, STDERR_FILENO);
  p = g_subprocess_launcher_spawnv (l, argv, &error);
  g_assert_no_error (error);
  g_clear_object (&l); /* its copy of the terminal: the reads end when the child's do */
  line = read_progress_line (master, "0 of 1 done | running: big.txt 0:00:0");
  g_test_message ("status line: %s", line);
  g_assert_nonnull (line);
  g_subprocess_wait (p, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (p), ==, 0);
  close (master);
  g_unlink (output), g_unlink (input);
}

void
add_progress_tests (void)
{
  g_test_add_func ("/tools/launch/progress/auto-src", test_progress_auto_src);
  g_test_add_func ("/tools/launch/progress/stdin-file", test_progress_stdin_file);
  g_test_add_func ("/tools/convert/progress/batch", test_progress_batch);
}
