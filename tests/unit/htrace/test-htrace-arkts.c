/* ArkTS plugin data inside htrace: no public capture holds any, so these
 * tests write small htrace files here around the project's ArkTS corpus
 * messages (tests/data/arkts/ohos_ts_ut_*.jsonl, one DevTools message a
 * line, each becoming one arkts-plugin record) and check that htrace-src
 * gives exactly the events the ArkTS engine gives for the same messages
 * standing alone, moved from its clock (monotonic) to the stream's
 * (boottime) by the header's readings.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-test-util.h"

#define SEC 1000000000LL
#define BOOTTIME (5000 * SEC)
#define REALTIME (1700000000 * SEC)
#define MONOTONIC (4000 * SEC)
/* the records' realtime: 2 s after the header */
#define FIRST_RECORD (REALTIME + 2 * SEC)

static GByteArray *
capture_of (const char *corpus,
            guint *n_messages)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "arkts", corpus, NULL);
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GByteArray *file = wire_file_new (BOOTTIME, REALTIME, MONOTONIC);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  *n_messages = 0;
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GByteArray) result = g_byte_array_new ();

      if (lines[i][0] == '\0')
        continue;
      wire_put_bytes (result, 1, lines[i], strlen (lines[i]));
      wire_file_add_record (file, "arkts-plugin", (FIRST_RECORD / SEC) + i, FIRST_RECORD % SEC, result);
      (*n_messages)++;
    }
  return file;
}

/* The engine on the file alone, with the start time htrace-src gives it:
 * the first record's time on the engine's clock. */
static GPtrArray *
standalone (const char *corpus,
            TraceStringPool *pool,
            char **summary)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "arkts", corpus, NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GInputStream) in = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr (ArktsReader) r = NULL;
  g_autoptr (GError) error = NULL;
  GPtrArray *batches = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_batch_unref);
  ArktsReaderOptions opts;
  TraceBatch *b;

  arkts_reader_options_init (&opts);
  opts.start_time = FIRST_RECORD - REALTIME + MONOTONIC;
  r = arkts_reader_new (in, corpus, pool, &opts);
  while (arkts_reader_read_batch (r, &b, &error) && b != NULL)
    g_ptr_array_add (batches, b);
  g_assert_no_error (error);
  *summary = arkts_reader_get_warning_summary (r);
  return batches;
}

static void
flatten (GPtrArray *batches,
         GArray *out)
{
  for (guint i = 0; i < batches->len; i++)
    {
      TraceBatch *b = batches->pdata[i];

      for (guint e = 0; e < b->n_events; e++)
        if (b->events[e].kind != TRACE_EVENT_CLOCK_MARKER)
          g_array_append_val (out, b->events[e]);
    }
}

static void
test_corpus (gconstpointer data)
{
  const char *corpus = data;
  guint n_messages;
  g_autoptr (GByteArray) file = capture_of (corpus, &n_messages);
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = htrace_run_bytes (file->data, file->len, &error);
  g_autofree char *alone_summary = NULL;
  g_autoptr (GPtrArray) alone = standalone (corpus, run->pool, &alone_summary);
  g_autoptr (GArray) ours = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  g_autoptr (GArray) theirs = g_array_new (FALSE, FALSE, sizeof (TraceEvent));
  g_autofree char *summary = htrace_reader_get_summary (run->reader);
  HtraceReaderStats st;

  g_assert_no_error (error);
  /* what the engine could not use, as it says it alone, under the
   * capture's name */
  if (alone_summary == NULL)
    g_assert_null (summary);
  else
    {
      g_autoptr (GString) expected = g_string_new (alone_summary);

      g_string_replace (expected, corpus, "test.htrace (arkts-plugin)", 0);
      g_string_prepend (expected, "test.htrace: ArkTS messages: ");
      g_assert_cmpstr (summary, ==, expected->str);
    }
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.arkts_messages, ==, n_messages);
  flatten (run->batches, ours);
  flatten (alone, theirs);
  g_test_message ("%s: %u messages, %u events", corpus, n_messages, ours->len);
  g_assert_cmpuint (ours->len, >, 0);
  g_assert_cmpuint (ours->len, ==, theirs->len);
  for (guint i = 0; i < ours->len; i++)
    {
      const TraceEvent *a = &g_array_index (ours, TraceEvent, i), *b = &g_array_index (theirs, TraceEvent, i);

      g_assert_cmpint (a->kind, ==, b->kind);
      g_assert_cmpuint (a->name, ==, b->name);
      g_assert_cmpint (a->pid, ==, b->pid);
      g_assert_cmpint (a->tid, ==, b->tid);
      g_assert_cmpuint (a->n_args, ==, b->n_args);
      /* monotonic to boottime by the header's two readings */
      g_assert_cmpint (a->ts, ==, b->ts + (BOOTTIME - MONOTONIC));
    }
}

/* Without a monotonic reading in the header the engine's events cannot
 * be placed on the stream's clock: counted, not guessed. */
static void
test_no_monotonic_reading (void)
{
  g_autoptr (GByteArray) file = wire_file_new (BOOTTIME, REALTIME, 0);
  g_autoptr (GByteArray) result = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "arkts", "ohos_ts_ut_js_cpu_profiler_results.jsonl", NULL);
  g_autofree char *text = NULL;
  HtraceReaderStats st;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  wire_put_bytes (result, 1, text, strlen (text));
  wire_file_add_record (file, "arkts-plugin", FIRST_RECORD / SEC, 0, result);
  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_UNKNOWN_CLOCK], >, 0);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_SLICE_BEGIN, NULL) +
                        htrace_run_count (run, TRACE_EVENT_SLICE_COMPLETE, NULL),
                    ==, 0);
}

int
main (int argc,
      char **argv)
{
  static const char *const corpus[] = { "ohos_ts_ut_js_cpu_profiler_results.jsonl",
                                        "ohos_ts_ut_js_memory_snapshot_results.jsonl",
                                        "ohos_ts_ut_js_memory_timeline_results.jsonl" };

  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *path = g_strdup_printf ("/htrace/arkts/%s", corpus[i]);

      g_test_add_data_func (path, corpus[i], test_corpus);
    }
  g_test_add_func ("/htrace/arkts/no-monotonic-reading", test_no_monotonic_reading);
  return g_test_run ();
}
