/* Every real file of tests/data/ftrace reads without error, giving the
 * numbers of events counted by reading the file (grep-style, line by
 * line: markers by their tag, kernel events by name, named threads as the
 * tids that have a real task name, a sched comm or a task_* comm). */
#include <string.h>
#include <zlib.h>

#include "ftrace-test-util.h"

typedef struct
{
  const char *file;
  const char *format;
  guint begin, end, counter, async_begin, async_end, clock;
  guint sched_switch, wakeup, waking, wakeup_new, cpu_freq, cpu_idle;
  guint task, raw, process_names, named_tids;
  guint unparsable, incomplete;
  gboolean no_events; /* metadata only: a warning, no error */
} CorpusFile;

static const CorpusFile corpus[] = {
  /* file                                        format       B    E    C  S   F clk  sw  wkup wkng new frq idl tsk raw proc named unp inc */
  { "aosp_trace2db_systrace_controller_json.html", "systrace-html", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 0, 0 },
  { "btrace_documented_line_examples.txt", "ftrace", 18, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 1, 4, 0 },
  { "catapult_android_systrace_jsescaped.txt", "ftrace", 0, 0, 0, 0, 0, 0, 58, 33, 0, 0, 0, 0, 0, 0, 0, 12, 0, 0 },
  { "catapult_atrace_data.txt", "ftrace", 0, 0, 0, 0, 0, 0, 72, 44, 0, 0, 0, 0, 0, 0, 0, 22, 0, 0 },
  { "catapult_atrace_data_raw.txt", "ftrace", 0, 0, 0, 0, 0, 0, 72, 44, 0, 0, 0, 0, 0, 0, 0, 22, 0, 0 },
  { "catapult_atrace_missing_tgids.txt", "ftrace", 0, 0, 0, 0, 0, 0, 72, 44, 0, 0, 0, 0, 0, 0, 0, 22, 0, 0 },
  { "catapult_atrace_procfs_dump.txt", "process-dump", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, TRUE },
  { "catapult_atrace_ps_dump.txt", "process-dump", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, TRUE },
  { "catapult_cgroup_dump.txt", "process-dump", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, TRUE },
  { "catapult_compressed_atrace_data.ctrace", "ctrace", 463, 463, 88, 17, 9, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 },
  { "catapult_counter_tracks.html", "systrace-html", 0, 0, 1611, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0 },
  { "catapult_decompressed_atrace_data.txt", "ftrace", 463, 463, 88, 17, 9, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 },
  { "catapult_trivial_systrace.html", "systrace-html", 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0 },
  /* a full systrace export: the data block after 1.1 MiB of viewer code;
   * 104 tids with a name in the text, less the idle task (tid 0) */
  { "gtechoogle_systrace_full_export.html", "systrace-html", 521, 521, 1, 0, 0, 2, 2623, 1727, 0, 0, 40, 0, 0, 218, 0, 103, 0, 0 },
  /* hitrace text as a bare zlib stream; `S|pid|H:name cookie` async markers */
  { "ohos_zlib_hitrace.htrace", "ftrace", 3052, 3052, 0, 20, 12, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
  { "ohos_ut_bytrace_input_thread.txt", "ftrace", 0, 0, 0, 0, 0, 0, 15, 8, 7, 0, 0, 0, 0, 0, 0, 6, 0, 0 },
  { "perfetto_bad_print.systrace", "ftrace", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 2, 0 },
  { "perfetto_inline_binder_5char_flags.systrace", "ftrace", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 0, 2, 0, 0 },
  { "perfetto_inline_cpus_header.systrace", "ftrace", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 },
  { "perfetto_inline_hex_preempt.systrace", "ftrace", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 },
  { "perfetto_inline_no_gap_after_flags.systrace", "ftrace", 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0 },
  { "perfetto_inline_task_name_hyphen_digits.systrace", "ftrace", 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0 },
  { "perfetto_sched_blocked_systrace.systrace", "ftrace", 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0 },
  { "perfetto_unknown_thread_name.systrace", "ftrace", 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0 },
  { "trappy_raw_trace.txt", "ftrace", 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0 },
  { "trappy_trace_common_clk.txt", "ftrace", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 2, 0, 0 },
  { "trappy_trace_equals.txt", "ftrace", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 1, 0, 0 },
  { "trappy_trace_failed_to_parse.txt", "ftrace", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 0, 1, 0, 0 },
  /* its last sched_switch is cut after prev_pid: kept raw, counted */
  { "trappy_trace_idle_unsorted.txt", "ftrace", 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 8, 0, 1, 0, 4, 0, 1 },
  { "trappy_trace_legacy_systrace.html", "systrace-html", 0, 0, 0, 0, 0, 0, 3, 2, 0, 0, 0, 0, 0, 10, 0, 4, 0, 0 },
  { "trappy_trace_no_trailing_line.txt", "ftrace", 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 9, 0, 0, 0, 1, 0, 0 },
  { "trappy_trace_sched.txt", "ftrace", 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 1, 0, 0, 6, 0, 5, 0, 0 },
  { "trappy_trace_systrace_stripped.html", "systrace-html", 0, 1, 0, 0, 0, 1, 4, 4, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0 },
};

static guint
count_named_tids (TraceBatch *b)
{
  g_autoptr (GHashTable) tids = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < b->n_events; i++)
    if (b->events[i].kind == TRACE_EVENT_THREAD_NAME)
      g_hash_table_add (tids, &b->events[i].tid);
  return g_hash_table_size (tids);
}

static void
test_corpus_file (gconstpointer data)
{
  const CorpusFile *c = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_file (c->file, NULL, &r, &error);
  const FtraceStats *st;
  g_autofree char *summary = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (b);
  st = ftrace_reader_get_stats (r);
  g_assert_cmpstr (ftrace_reader_get_format (r), ==, c->format);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SLICE_BEGIN), ==, c->begin);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SLICE_END), ==, c->end);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_COUNTER), ==, c->counter);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_ASYNC_BEGIN), ==, c->async_begin);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_ASYNC_END), ==, c->async_end);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_CLOCK_MARKER), ==, c->clock);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SCHED_SWITCH), ==, c->sched_switch);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SCHED_WAKEUP), ==, c->wakeup);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SCHED_WAKING), ==, c->waking);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SCHED_WAKEUP_NEW), ==, c->wakeup_new);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_CPU_FREQUENCY), ==, c->cpu_freq);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_CPU_IDLE), ==, c->cpu_idle);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_TASK_NEWTASK) + count_kind (b, TRACE_EVENT_TASK_RENAME), ==, c->task);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_FTRACE), ==, c->raw);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_PROCESS_NAME), ==, c->process_names);
  g_assert_cmpuint (count_named_tids (b), ==, c->named_tids);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, c->unparsable);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_INCOMPLETE_EVENT], ==, c->incomplete);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNKNOWN_MARKER], ==, 0);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_MALFORMED_MARKER], ==, 0);
  summary = ftrace_reader_get_summary (r);
  if (c->no_events)
    g_assert_true (g_str_has_suffix (summary, "the file holds no trace events, only metadata"));
  else if (st->problems[FTRACE_PROBLEM_SKIPPED_BLOCK] > 0) /* the engine alone reads no JSON block */
    g_assert_nonnull (strstr (summary, "1 JSON data blocks not read"));
  else if (c->unparsable == 0 && c->incomplete == 0 && strstr (c->file, "btrace") == NULL)
    g_assert_null (summary);
  g_assert_cmpuint (ftrace_reader_get_bytes_read (r), >, 0);
}

static void
test_corpus_complete (void)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, "ftrace", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  /* a file added to the folder needs its expectations here */
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      gboolean found = FALSE;

      if (g_str_has_prefix (name, "generated_"))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
        found |= strcmp (corpus[i].file, name) == 0;
      g_test_message ("%s", name);
      g_assert_true (found);
    }
}

static void
test_ctrace_equals_text (void)
{
  g_autoptr (TraceBatch) z = read_file ("catapult_compressed_atrace_data.ctrace", NULL, NULL, NULL);
  g_autoptr (TraceBatch) t = read_file ("catapult_decompressed_atrace_data.txt", NULL, NULL, NULL);

  /* the zlib stream ends 17 600 bytes before the file: the rest is ignored */
  g_assert_cmpuint (z->n_events, ==, t->n_events);
  for (guint i = 0; i < z->n_events; i++)
    {
      g_assert_cmpint (z->events[i].kind, ==, t->events[i].kind);
      g_assert_cmpint (z->events[i].ts, ==, t->events[i].ts);
      g_assert_cmpint (z->events[i].tid, ==, t->events[i].tid);
      g_assert_cmpuint (z->events[i].name, ==, t->events[i].name);
    }
}

/* hitrace's bare zlib stream reads as the text it inflates to (inflated
 * here with zlib's own one-call API, not the reader's stages). */
static void
test_bare_zlib_equals_text (void)
{
  g_autofree char *path = data_path ("ohos_zlib_hitrace.htrace");
  g_autofree char *packed = NULL;
  g_autofree char *text = NULL;
  g_autoptr (TraceBatch) z = NULL;
  g_autoptr (TraceBatch) t = NULL;
  g_autoptr (FtraceReader) r = NULL;
  gsize packed_len;
  uLongf text_len = 4 * 1024 * 1024;

  g_assert_true (g_file_get_contents (path, &packed, &packed_len, NULL));
  text = g_malloc (text_len);
  g_assert_cmpint (uncompress ((Bytef *) text, &text_len, (const Bytef *) packed, packed_len), ==, Z_OK);
  z = read_file ("ohos_zlib_hitrace.htrace", NULL, &r, NULL);
  t = read_bytes (text, text_len, "inflated", NULL, NULL, NULL);
  g_assert_cmpstr (ftrace_reader_get_compression (r), ==, "zlib");
  g_assert_cmpuint (z->n_events, ==, t->n_events);
  g_assert_cmpuint (z->n_events, >, 0);
  for (guint i = 0; i < z->n_events; i++)
    {
      g_assert_cmpint (z->events[i].kind, ==, t->events[i].kind);
      g_assert_cmpint (z->events[i].ts, ==, t->events[i].ts);
      g_assert_cmpint (z->events[i].tid, ==, t->events[i].tid);
      g_assert_cmpuint (z->events[i].name, ==, t->events[i].name);
    }
}

static void
test_rhea_file_problems (void)
{
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_file ("btrace_documented_line_examples.txt", NULL, &r, NULL);
  g_autofree char *summary = ftrace_reader_get_summary (r);

  /* binder.txt / methodMapping.txt lines, and TRACE_START without end */
  g_assert_cmpstr (summary, ==,
                   "btrace_documented_line_examples.txt: 4 unparsable lines (lines 50, 51, 52, 55); "
                   "1 RheaTrace captures cut off (no TRACE_END) (line 55)");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *path = g_strdup_printf ("/ftrace/corpus/%s", corpus[i].file);

      g_test_add_data_func (path, &corpus[i], test_corpus_file);
    }
  g_test_add_func ("/ftrace/corpus-complete", test_corpus_complete);
  g_test_add_func ("/ftrace/ctrace-equals-text", test_ctrace_equals_text);
  g_test_add_func ("/ftrace/bare-zlib-equals-text", test_bare_zlib_equals_text);
  g_test_add_func ("/ftrace/rhea-file-problems", test_rhea_file_problems);
  return g_test_run ();
}
