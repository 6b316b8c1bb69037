/* tracepipe - tests of TraceLineSrc, the base of line-based sources
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A subclass of a few lines reads `ts name` lines into instants; the
 * tests check what the base does for it: line ends, the last line
 * without one, lines longer than the maximum, the summary and the stats.
 */
#include <glib/gstdio.h>
#include <string.h>

#include <trace/check/traceharness.h>

#include "../test-util.h"

#define TEST_TYPE_LINES_SRC (test_lines_src_get_type ())
G_DECLARE_FINAL_TYPE (TestLinesSrc, test_lines_src, TEST, LINES_SRC, TraceLineSrc)

struct _TestLinesSrc
{
  TraceLineSrc parent_instance;
};

G_DEFINE_FINAL_TYPE (TestLinesSrc, test_lines_src, TRACE_TYPE_LINE_SRC)

enum
{
  SKIP_NOT_A_NUMBER,
  SKIP_NO_NAME,
};

static const TraceLineSrcSkip skip_reasons[] = {
  [SKIP_NOT_A_NUMBER] = { "not-a-number", "without a number first" },
  [SKIP_NO_NAME] = { "no-name", "without a name" },
};

static gboolean
test_lines_src_parse_line (TraceLineSrc *src,
                           char *line,
                           gsize len,
                           TraceBatch *batch,
                           GError **error)
{
  char *space = strchr (line, ' ');
  guint64 ts;

  g_assert_cmpuint (strlen (line), ==, len); /* no line end, NUL-terminated */
  if (len == 0)
    return TRUE;
  if (space)
    *space = '\0';
  if (!g_ascii_string_to_unsigned (line, 10, 0, G_MAXINT64, &ts, NULL))
    trace_line_src_skip_line (src, SKIP_NOT_A_NUMBER);
  else if (space == NULL || space[1] == '\0')
    trace_line_src_skip_line (src, SKIP_NO_NAME);
  else
    trace_batch_append (batch, TRACE_EVENT_INSTANT, ts)->name = trace_string_pool_intern (batch->pool, space + 1);
  return TRUE;
}

static void
test_lines_src_get_stream_info (TraceFileSrc *src,
                                TraceStreamInfo *info)
{
  info->format = "test-lines";
  info->clock_domain = TRACE_CLOCK_UNKNOWN;
  info->clock_source = "test";
}

static void
test_lines_src_class_init (TestLinesSrcClass *klass)
{
  TRACE_LINE_SRC_CLASS (klass)->parse_line = test_lines_src_parse_line;
  TRACE_FILE_SRC_CLASS (klass)->get_stream_info = test_lines_src_get_stream_info;
  trace_line_src_class_set_skip_reasons (TRACE_LINE_SRC_CLASS (klass), skip_reasons, G_N_ELEMENTS (skip_reasons));
}

static void
test_lines_src_init (TestLinesSrc *self)
{
}

typedef struct
{
  TraceHarness *harness;
  char *path;
  GPtrArray *names; /* of the events read, in order */
  guint64 first_ts;
} Run;

static void
run_free (Run *run)
{
  trace_harness_free (run->harness);
  g_unlink (run->path);
  g_free (run->path);
  g_ptr_array_unref (run->names);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, run_free)

/* Writes @text to a file, reads it through the subclass to EOS. */
static void
run_lines (Run *run,
           const char *text,
           gsize len)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) all = NULL;
  TraceElement *src;
  int fd = g_file_open_tmp ("test-line-src-XXXXXX", &run->path, &error);

  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (run->path, text, len, &error));
  src = g_object_new (TEST_TYPE_LINES_SRC, "location", run->path, NULL);
  run->harness = trace_harness_new_with_element (src, NULL, "src");
  g_assert_true (trace_harness_play (run->harness));
  g_assert_true (trace_harness_run_until_eos (run->harness, 10000));
  all = trace_harness_take_all (run->harness);
  run->names = g_ptr_array_new ();
  for (guint i = 0; all && i < all->n_events; i++)
    g_ptr_array_add (run->names, (char *) trace_harness_string (run->harness, all->events[i].name));
  run->first_ts = all && all->n_events ? all->events[0].ts : 0;
}

static guint64
get_stat (Run *run,
          const char *key)
{
  g_autoptr (GVariant) stats = trace_element_get_stats (trace_harness_get_element (run->harness));
  guint64 value = 0;

  g_variant_lookup (stats, key, "t", &value);
  return value;
}

static void
test_line_ends (void)
{
  g_auto (Run) run = { 0 };
  const char text[] = "1 unix\n2 windows\r\n\n3 last-without-end";

  run_lines (&run, text, sizeof text - 1);
  g_assert_cmpuint (run.names->len, ==, 3);
  g_assert_cmpstr (run.names->pdata[0], ==, "unix");
  g_assert_cmpstr (run.names->pdata[1], ==, "windows");
  g_assert_cmpstr (run.names->pdata[2], ==, "last-without-end");
  g_assert_cmpuint (run.first_ts, ==, 1);
  g_assert_cmpuint (get_stat (&run, "lines"), ==, 4);
  g_assert_null (trace_harness_pop_message (run.harness, TRACE_MESSAGE_WARNING));
  g_assert_cmpstr (trace_harness_get_stream_info (run.harness)->format, ==, "test-lines");
}

static void
test_skipped_lines (void)
{
  g_auto (Run) run = { 0 };
  const char text[] = "1 a\nx b\n2\ny\n3 c\n";
  g_autoptr (TraceMessage) warning = NULL;
  g_autofree char *expected = NULL;

  run_lines (&run, text, sizeof text - 1);
  g_assert_cmpuint (run.names->len, ==, 2);
  g_assert_cmpuint (get_stat (&run, "skipped-not-a-number"), ==, 2);
  g_assert_cmpuint (get_stat (&run, "skipped-no-name"), ==, 1);
  warning = trace_harness_pop_message (run.harness, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  expected = g_strdup_printf ("%s:2: skipped 3 lines (2 without a number first, 1 without a name); "
                              "the first here: without a number first",
                              run.path);
  g_assert_cmpstr (warning->error->message, ==, expected);
}

/* A line over the maximum is skipped whole, in bounded memory, and the
 * next one is read: a file without line ends cannot take all memory. */
static void
test_long_line (void)
{
  g_auto (Run) run = { 0 };
  gsize long_len = TRACE_LINE_SRC_MAX_LINE + 100000;
  g_autoptr (GString) text = g_string_new ("1 before\n");
  g_autoptr (TraceMessage) warning = NULL;
  g_autofree char *expected = NULL;

  g_string_append_len (text, "9", 1);
  for (gsize i = 1; i < long_len; i++)
    g_string_append_c (text, 'x');
  g_string_append (text, "\n2 after\n");
  run_lines (&run, text->str, text->len);
  g_assert_cmpuint (run.names->len, ==, 2);
  g_assert_cmpstr (run.names->pdata[1], ==, "after");
  g_assert_cmpuint (get_stat (&run, "skipped-line-too-long"), ==, 1);
  g_assert_cmpuint (get_stat (&run, "lines"), ==, 3);
  warning = trace_harness_pop_message (run.harness, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  expected = g_strdup_printf ("%s:2: skipped 1 line longer than 1 MiB, the first here", run.path);
  g_assert_cmpstr (warning->error->message, ==, expected);
}

/* Many events: batches stay within their size and none is lost. */
static void
test_many_lines (void)
{
  g_auto (Run) run = { 0 };
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < 3 * TRACE_BATCH_DEFAULT_SIZE + 7; i++)
    g_string_append_printf (text, "%u e%u\n", i, i);
  run_lines (&run, text->str, text->len);
  g_assert_cmpuint (run.names->len, ==, 3 * TRACE_BATCH_DEFAULT_SIZE + 7);
  g_assert_cmpstr (run.names->pdata[run.names->len - 1], ==, "e12294");
  g_assert_cmpuint (trace_harness_get_n_batches_out (run.harness), >=, 4);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/line-src/line-ends", test_line_ends);
  g_test_add_func ("/line-src/skipped-lines", test_skipped_lines);
  g_test_add_func ("/line-src/long-line", test_long_line);
  g_test_add_func ("/line-src/many-lines", test_many_lines);
  return g_test_run ();
}
