/* tracepipe - json plugin tests: every corpus file reads as it should
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The counts in the table were derived from the files with Python's json
 * module (an independent reading applying the mapping of docs/json.md:
 * one event per B/E/X/i/b/e/n/S/T/p/F/s/t/f/M/c, one counter per numeric
 * args key of C, ProfileChunk nodes and samples, top-level samples and
 * stackFrames; one THREAD_NAME/PROCESS_NAME per string tid/pid, whose
 * own metadata name counts as kept or overridden as docs/json.md says),
 * not by recording this reader's output.  Skip reasons are
 * the same names with '-' for ' '.
 */
#include "config.h"

#include <string.h>

#include "json-test-util.h"

typedef struct
{
  const char *file;
  const char *expect;
} CorpusCase;

static const CorpusCase corpus[] = {
  { "catapult_async_begin_end.json",
    "async-begin=12 async-end=10 async-step=7 slice-begin=3 slice-end=3" },
  { "catapult_chromeos_system_trace.json",
    "chrome-phase=12 process-label=4 process-name=6 process-sort-index=6 thread-name=4 thread-sort-index=4" },
  { "catapult_flow_simple.json",
    "flow-end=2 flow-start=2 flow-step=1 slice-complete=5 stack-node=3" },
  { "catapult_instance_counters.json",
    "counter=8 slice-begin=2 slice-end=2" },
  { "catapult_instant_events.json",
    "instant=5" },
  { "catapult_nanoseconds.json",
    "slice-begin=8 slice-end=8" },
  { "catapult_nestable_async.json",
    "async-begin=9 async-end=9 async-instant=2 stack-node=3" },
  { "catapult_profile-chrome_systrace_perf_chrome_data.json",
    "chrome-phase=4 sample=280 slice-complete=6 stack-node=117" },
  { "catapult_simple_trace.json",
    "counter=5 instant=6 sample=3 slice-begin=8 slice-complete=4 slice-end=8 stack-node=3 thread-name=3" },
  { "catapult_tall_trace.json",
    "process-name=1 slice-begin=18 slice-end=18 thread-name=2" },
  { "catapult_trivial_trace.json",
    "slice-begin=2 slice-end=2" },
  { "catapult_x_event_trace.json",
    "async-begin=53 async-end=53 async-step=124 chrome-phase=4 counter=42 instant=59 process-label=1 process-name=1 process-sort-index=1 slice-begin=442 slice-complete=2799 slice-end=442 thread-name=5 thread-sort-index=1" },
  { "lighthouse_bad-nav-start-ts.json",
    "bad-duration=2 async-begin=1 chrome-phase=29 instant=694 process-label=1 process-name=1 process-sort-index=1 slice-begin=152 slice-complete=2298 slice-end=152 thread-name=1 thread-sort-index=1" },
  { "lighthouse_lcp-m78.json",
    "chrome-phase=4 instant=174 slice-begin=64 slice-complete=112 slice-end=64 thread-name=1" },
  { "lighthouse_perflog_trace.json",
    "async-begin=2 async-end=2 instant=8 slice-complete=1 thread-name=1" },
  { "lighthouse_threeframes-blank_content_more.json",
    "chrome-phase=3 instant=1 slice-complete=4 thread-name=1" },
  { "lighthouse_timespan-responsiveness-m103.trace.json",
    "other-metadata=6 async-begin=99 async-end=99 chrome-phase=9 clock-marker=1 instant=50 process-label=1 process-name=3 process-sort-index=3 slice-complete=280 thread-name=30 thread-sort-index=1" },
  { "lighthouse_timespan-trace-m91.json",
    "other-metadata=6 chrome-phase=1 clock-marker=1 instant=1 process-label=1 process-name=3 process-sort-index=3 slice-complete=7 thread-name=20 thread-sort-index=1" },
  { "lighthouse_tracingstarted-after-navstart.json",
    "bad-timestamp=2 other-metadata=8 async-begin=14 async-end=10 chrome-phase=79 instant=1132 process-label=1 process-name=6 process-sort-index=6 slice-begin=570 slice-complete=1619 slice-end=570 thread-name=274 thread-sort-index=4" },
  { "perfetto_invalid_string_ts_and_dur.json",
    "bad-duration=1 bad-timestamp=1" },
  { "perfetto_flow_events_json_v1.json",
    "flow-end=2 flow-start=2 flow-step=1 slice-complete=5 stack-node=3" },
  { "perfetto_json_async.json",
    "async-begin=3 async-end=3" },
  { "perfetto_json_thread_state.json",
    "process-name=1 thread-name=1 thread-state=5" },
  { "perfetto_string_ts_trailing_chars.json",
    "bad-duration=1 bad-timestamp=1" },
  { "speedscope_chrome141_no-arg-data.json",
    "other-metadata=3 process-name=3 sample=421 stack-node=61 thread-name=45" },
  { "speedscope_chrome65_simple-timeline.json",
    "bad-duration=13 other-metadata=12 async-begin=36 async-end=35 async-instant=4 async-step=12 chrome-phase=4 instant=259 process-name=6 process-sort-index=6 slice-begin=437 slice-complete=2240 slice-end=441 thread-name=42 thread-sort-index=4" },
  { "speedscope_chrome69_simple.json",
    "bad-duration=5 other-metadata=4 async-begin=9 async-end=6 async-step=3 chrome-phase=16 instant=63 process-name=2 process-sort-index=2 sample=2051 slice-begin=140 slice-complete=922 slice-end=140 stack-node=14 thread-name=29 thread-sort-index=1" },
  { "speedscope_chrome70_worker.json",
    "bad-duration=5 other-metadata=6 async-begin=8 async-end=7 async-step=3 chrome-phase=12 instant=102 process-name=3 process-sort-index=3 sample=3380 slice-begin=190 slice-complete=1983 slice-end=190 stack-node=131 thread-name=57 thread-sort-index=1" },
  { "speedscope_event-reordering-name-match.json",
    "slice-begin=2 slice-complete=1 slice-end=2" },
  { "speedscope_invalid-x-nesting.json",
    "slice-complete=2" },
  { "speedscope_mismatched-name.json",
    "slice-begin=1 slice-end=1" },
  { "speedscope_multi-thread-with-samples.json",
    "name-overridden=1 process-name=1 sample=8 slice-complete=2 stack-node=6 thread-name=3" },
  { "speedscope_must-retain-original-order.json",
    "slice-begin=7 slice-end=7" },
  { "speedscope_not-enough-end-events.json",
    "slice-begin=2 slice-complete=1" },
  { "speedscope_only-begin-events.json",
    "slice-begin=3" },
  { "speedscope_out-of-order.json",
    "slice-begin=3 slice-end=3" },
  { "speedscope_simple-object.json",
    "bad-duration=1 slice-begin=2 slice-end=2" },
  { "speedscope_simple-partial-trailing-comma.json",
    "bad-duration=1 slice-begin=2 slice-complete=1 slice-end=2 truncated=1" },
  { "speedscope_simple-partial.json",
    "bad-duration=1 slice-begin=2 slice-complete=1 slice-end=2 truncated=1" },
  { "speedscope_x-events-matching-start.json",
    "slice-complete=9" },
  { "speedscope_zero-duration-events.json",
    "slice-begin=3 slice-complete=1 slice-end=3" },
};

/* "bad timestamp" → "bad-timestamp" */
static ChromeSkipReason
reason_from_name (const char *name)
{
  for (guint i = 0; i < CHROME_SKIP_N_REASONS; i++)
    {
      g_autofree char *dashed = g_strdelimit (g_strdup (chrome_skip_reason_to_string (i)), " ", '-');

      if (strcmp (dashed, name) == 0)
        return i;
    }
  return CHROME_SKIP_N_REASONS;
}

static TraceEventKind
kind_from_name (const char *name)
{
  for (guint i = 0; i < TRACE_EVENT_N_KINDS; i++)
    if (strcmp (trace_event_kind_to_string (i), name) == 0)
      return i;
  return TRACE_EVENT_N_KINDS;
}

static void
check_expectations (const CorpusCase *c,
                    TraceBatch *batch,
                    ChromeReader *reader)
{
  const ChromeReaderStats *stats = chrome_reader_get_stats (reader);
  g_auto (GStrv) items = g_strsplit (c->expect, " ", -1);
  guint64 expected_kinds[TRACE_EVENT_N_KINDS] = { 0 };
  guint64 expected_skips[CHROME_SKIP_N_REASONS] = { 0 };
  guint64 expected_empty = 0;

  for (guint i = 0; items[i] != NULL; i++)
    {
      g_auto (GStrv) kv = g_strsplit (items[i], "=", 2);
      guint64 n = g_ascii_strtoull (kv[1], NULL, 10);
      TraceEventKind kind = kind_from_name (kv[0]);
      ChromeSkipReason reason = reason_from_name (kv[0]);

      if (strcmp (kv[0], "empty") == 0)
        expected_empty = n;
      else if (kind < TRACE_EVENT_N_KINDS)
        expected_kinds[kind] = n;
      else
        {
          g_assert_cmpuint (reason, <, CHROME_SKIP_N_REASONS);
          expected_skips[reason] = n;
        }
    }
  for (guint k = 1; k < TRACE_EVENT_N_KINDS; k++)
    {
      if (test_count_kind (batch, k) != expected_kinds[k])
        g_test_message ("%s: %s", c->file, trace_event_kind_to_string (k));
      g_assert_cmpuint (test_count_kind (batch, k), ==, expected_kinds[k]);
    }
  for (guint r = 0; r < CHROME_SKIP_N_REASONS; r++)
    {
      /* dropped args and orphan samples are not in the Python reading */
      if (r == CHROME_SKIP_ARGS_DROPPED || r == CHROME_SKIP_ORPHAN_SAMPLES)
        continue;
      if (stats->skipped[r].count != expected_skips[r])
        g_test_message ("%s: skipped %s", c->file, chrome_skip_reason_to_string (r));
      g_assert_cmpuint (stats->skipped[r].count, ==, expected_skips[r]);
    }
  g_assert_cmpuint (stats->empty_objects, ==, expected_empty);
  g_assert_cmpuint (stats->events, ==, batch->n_events);
}

static void
test_corpus_file (gconstpointer data)
{
  const CorpusCase *c = data;
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (ChromeReader) reader = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) batch = test_read_file (c->file, pool, &reader, &error);

  g_assert_no_error (error);
  check_expectations (c, batch, reader);
}

/* The corpus folder and the table list the same files. */
static void
test_corpus_complete (void)
{
  g_autofree char *dir_path = g_build_filename (TEST_DATA_DIR, "json", NULL);
  g_autoptr (GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      gboolean listed = FALSE;

      if (!g_str_has_prefix (name, "catapult_") && !g_str_has_prefix (name, "lighthouse_") &&
          !g_str_has_prefix (name, "speedscope_") && !g_str_has_prefix (name, "perfetto_"))
        continue;
      for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
        listed |= strcmp (corpus[i].file, name) == 0;
      if (!listed)
        g_test_message ("%s is not in the table", name);
      g_assert_true (listed);
      n++;
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (corpus));
}

/* ------------------------------------------------------------------ */
/* What the fixtures are about, checked event by event                 */

typedef struct
{
  TraceStringPool *pool;
  ChromeReader *reader;
  TraceBatch *batch;
} Fixture;

static void
fixture_read (Fixture *fx,
              const char *file)
{
  g_autoptr (GError) error = NULL;

  fx->pool = trace_string_pool_new ();
  fx->batch = test_read_file (file, fx->pool, &fx->reader, &error);
  g_assert_no_error (error);
}

static void
fixture_clear (Fixture *fx)
{
  trace_batch_unref (fx->batch);
  chrome_reader_free (fx->reader);
  trace_string_pool_unref (fx->pool);
}

static void
assert_event (TraceBatch *batch,
              guint index,
              TraceEventKind kind,
              gint64 ts,
              gint64 pid,
              gint64 tid,
              const char *name)
{
  const TraceEvent *ev = &batch->events[index];

  g_assert_cmpuint (index, <, batch->n_events);
  g_assert_cmpstr (trace_event_kind_to_string (ev->kind), ==, trace_event_kind_to_string (kind));
  g_assert_cmpint (ev->ts, ==, ts);
  g_assert_cmpint (ev->pid, ==, pid);
  g_assert_cmpint (ev->tid, ==, tid);
  g_assert_cmpstr (test_str (batch, ev->name), ==, name);
}

static void
test_trivial (void)
{
  Fixture fx;

  fixture_read (&fx, "catapult_trivial_trace.json");
  g_assert_cmpuint (fx.batch->n_events, ==, 4);
  assert_event (fx.batch, 0, TRACE_EVENT_SLICE_BEGIN, 9524000, 52, 53, "a");
  assert_event (fx.batch, 1, TRACE_EVENT_SLICE_END, 9560000, 52, 53, "a");
  assert_event (fx.batch, 2, TRACE_EVENT_SLICE_BEGIN, 9629000, 52, 53, "b");
  assert_event (fx.batch, 3, TRACE_EVENT_SLICE_END, 9631000, 52, 53, "b");
  g_assert_cmpstr (test_str (fx.batch, fx.batch->events[0].category), ==, "foo");
  fixture_clear (&fx);
}

/* Fractional µs are exact ns; displayTimeUnit does not rescale. */
static void
test_nanoseconds (void)
{
  Fixture fx;

  fixture_read (&fx, "catapult_nanoseconds.json");
  g_assert_cmpstr (chrome_reader_get_display_time_unit (fx.reader), ==, "ns");
  assert_event (fx.batch, 1, TRACE_EVENT_SLICE_END, 1100, 1, 1, "us1");
  assert_event (fx.batch, 3, TRACE_EVENT_SLICE_END, 1300, 1, 1, "us2");
  assert_event (fx.batch, 9, TRACE_EVENT_SLICE_END, 3011, 1, 1, "ns1");
  assert_event (fx.batch, 12, TRACE_EVENT_SLICE_BEGIN, 3013, 1, 1, "ns3");
  assert_event (fx.batch, 15, TRACE_EVENT_SLICE_END, 3021, 1, 1, "ns4");
  fixture_clear (&fx);
}

/* C with an id: perfetto's names "<name> id: <id> <key>". */
static void
test_instance_counters (void)
{
  static const double values_123[] = { 2, 10, 5, 8, 4, 10 };
  Fixture fx;
  const TraceEvent *ev;

  fixture_read (&fx, "catapult_instance_counters.json");
  for (guint i = 0; i < G_N_ELEMENTS (values_123); i++)
    {
      ev = test_find (fx.batch, TRACE_EVENT_COUNTER, "counter id: 123 value", i);
      g_assert_nonnull (ev);
      g_assert_cmpfloat (ev->u.counter.value, ==, values_123[i]);
      g_assert_cmpuint (ev->u.counter.id, ==, 0x123);
      g_assert_true (ev->flags & TRACE_EVENT_FLAG_COUNTER_INT);
      g_assert_cmpint (ev->pid, ==, 52);
    }
  ev = test_find (fx.batch, TRACE_EVENT_COUNTER, "counter id: b value", 1);
  g_assert_nonnull (ev);
  g_assert_cmpint (ev->ts, ==, 9631000);
  g_assert_cmpfloat (ev->u.counter.value, ==, 0);
  fixture_clear (&fx);
}

/* i with s t/p/g; nested args flattened to dotted keys. */
static void
test_instant_events (void)
{
  static const guint16 scopes[] = {
    TRACE_EVENT_FLAG_SCOPE_THREAD,
    TRACE_EVENT_FLAG_SCOPE_PROCESS,
    TRACE_EVENT_FLAG_SCOPE_THREAD,
    TRACE_EVENT_FLAG_SCOPE_THREAD,
    TRACE_EVENT_FLAG_SCOPE_GLOBAL,
  };
  Fixture fx;
  const TraceArg *arg;

  fixture_read (&fx, "catapult_instant_events.json");
  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    g_assert_cmpuint (fx.batch->events[i].flags, ==, scopes[i]);
  assert_event (fx.batch, 1, TRACE_EVENT_INSTANT, 510075907469000, 36092, 28163, "Process size event");
  g_assert_cmpstr (test_arg_str (fx.batch, &fx.batch->events[0], "state.global_state.memory_limit_policy"), ==,
                   "ALLOW_PREPAINT_ONLY");
  arg = test_arg (fx.batch, &fx.batch->events[0], "state.tile_count");
  g_assert_cmpint (arg->type, ==, TRACE_ARG_INT);
  g_assert_cmpint (arg->v.i, ==, 151);
  fixture_clear (&fx);
}

/* S/T/F are legacy async with the catapult meaning of T (a step). */
static void
test_legacy_async (void)
{
  Fixture fx;
  const TraceEvent *ev;

  fixture_read (&fx, "catapult_async_begin_end.json");
  ev = &fx.batch->events[0];
  g_assert_cmpuint (ev->kind, ==, TRACE_EVENT_ASYNC_BEGIN);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_ASYNC_LEGACY | TRACE_EVENT_FLAG_ID_GLOBAL);
  g_assert_cmpuint (fx.batch->events[1].kind, ==, TRACE_EVENT_ASYNC_STEP);
  g_assert_cmpuint (fx.batch->events[1].u.async.id, ==, ev->u.async.id);
  g_assert_cmpstr (test_str (fx.batch, fx.batch->events[1].u.async.step), ==, "T");
  ev = &fx.batch->events[2];
  g_assert_cmpuint (ev->kind, ==, TRACE_EVENT_ASYNC_BEGIN);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_ID_GLOBAL);
  ev = test_find (fx.batch, TRACE_EVENT_ASYNC_BEGIN, "A", 0);
  g_assert_cmpuint (ev->u.async.id, ==, 0x1a);
  ev = test_find (fx.batch, TRACE_EVENT_ASYNC_STEP, "A", 1);
  g_assert_cmpint (ev->ts, ==, 475000);
  g_assert_cmpint (ev->pid, ==, 3);
  g_assert_cmpstr (test_str (fx.batch, ev->u.async.step), ==, "Y");
  ev = test_find (fx.batch, TRACE_EVENT_ASYNC_END, "D", 0);
  g_assert_cmpuint (ev->u.async.id, ==, 0xbf1);
  fixture_clear (&fx);
}

/* s/t/f with hex string ids; f without "bp" binds to the next slice. */
static void
check_flows (const char *file,
             guint64 id_a,
             guint64 id_b)
{
  Fixture fx;
  const TraceEvent *ev;

  fixture_read (&fx, file);
  ev = test_find (fx.batch, TRACE_EVENT_FLOW_START, "IPC", 0);
  g_assert_cmpuint (ev->u.async.id, ==, id_a);
  g_assert_cmpint (ev->ts, ==, 3002000);
  g_assert_cmpstr (test_str (fx.batch, ev->category), ==, "ipc");
  ev = test_find (fx.batch, TRACE_EVENT_FLOW_END, "IPC", 0);
  g_assert_cmpuint (ev->u.async.id, ==, id_b);
  g_assert_cmpint (ev->tid, ==, 15895);
  g_assert_true (ev->flags & TRACE_EVENT_FLAG_FLOW_NEXT_SLICE);
  ev = test_find (fx.batch, TRACE_EVENT_FLOW_STEP, "IPC", 0);
  g_assert_cmpuint (ev->u.async.id, ==, id_a);
  g_assert_cmpint (ev->ts, ==, 3220000);
  fixture_clear (&fx);
}

static void
test_flows (void)
{
  check_flows ("catapult_flow_simple.json", 0x8780d402, 0x8780d403);
  check_flows ("perfetto_flow_events_json_v1.json", 0x402, 0x403);
}

static void
test_simple_trace (void)
{
  Fixture fx;
  const TraceEvent *ev;
  const TraceArg *arg;

  fixture_read (&fx, "catapult_simple_trace.json");
  ev = test_find (fx.batch, TRACE_EVENT_INSTANT, "ProcessWideEvent1", 0);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_SCOPE_PROCESS);
  ev = test_find (fx.batch, TRACE_EVENT_INSTANT, "GlobalEvent1", 0);
  g_assert_cmpuint (ev->flags, ==, TRACE_EVENT_FLAG_SCOPE_GLOBAL);
  g_assert_cmpint (ev->pid, ==, TRACE_ID_UNKNOWN);
  ev = test_find (fx.batch, TRACE_EVENT_SLICE_BEGIN,
                  "A long name that doesnt fit but is exceedingly informative", 0);
  arg = test_arg (fx.batch, ev, "name_false");
  g_assert_cmpint (arg->type, ==, TRACE_ARG_BOOL);
  g_assert_false (arg->v.b);
  g_assert_true (test_arg (fx.batch, ev, "value_true")->v.b);
  ev = test_find (fx.batch, TRACE_EVENT_STACK_NODE, "frame7", 0);
  g_assert_cmpuint (ev->u.stack_node.id, ==, G_GUINT64_CONSTANT (0x8000000000000007));
  g_assert_cmpuint (ev->u.stack_node.parent_id, ==, G_GUINT64_CONSTANT (0x8000000000000001));
  g_assert_cmpstr (test_str (fx.batch, ev->category), ==, "m2");
  ev = test_find (fx.batch, TRACE_EVENT_SAMPLE, "SampleC", 0);
  g_assert_cmpuint (ev->u.sample.node_id, ==, G_GUINT64_CONSTANT (0x8000000000000008));
  g_assert_cmpint (ev->tid, ==, 22631);
  fixture_clear (&fx);
}

static void
test_chromeos_metadata (void)
{
  Fixture fx;
  const TraceEvent *ev;

  fixture_read (&fx, "catapult_chromeos_system_trace.json");
  ev = test_find (fx.batch, TRACE_EVENT_PROCESS_LABEL, "chrome://tracing", 0);
  g_assert_nonnull (ev);
  g_assert_cmpint (ev->pid, ==, 5075);
  ev = test_find (fx.batch, TRACE_EVENT_PROCESS_SORT_INDEX, NULL, 0);
  g_assert_cmpint (ev->pid, ==, 5044);
  g_assert_cmpint (ev->u.meta.value, ==, -1);
  ev = test_find (fx.batch, TRACE_EVENT_PROCESS_NAME, NULL, 0);
  g_assert_cmpstr (test_str (fx.batch, ev->name), ==, "GPU Process");
  fixture_clear (&fx);
}

/* Numeric strings for ts; string tids, which (as trace_processor reads
 * them) name their threads and get made-up tids: "-1", "1" and "2" are
 * 1809317173, 2072980420 and 2072976685 (docs/json.md), and the
 * thread_name of "1" gives way to the string, since an event of "1"
 * follows at its time; top-level samples and stackFrames. */
static void
test_multi_thread_samples (void)
{
  Fixture fx;
  const TraceEvent *ev;

  fixture_read (&fx, "speedscope_multi-thread-with-samples.json");
  assert_event (fx.batch, 0, TRACE_EVENT_THREAD_NAME, 11550183666000, 7512, 1809317173, "-1");
  assert_event (fx.batch, 1, TRACE_EVENT_PROCESS_NAME, 11550183666000, 7512, 1809317173, "hermes");
  assert_event (fx.batch, 2, TRACE_EVENT_THREAD_NAME, 11550183666000, 7512, 2072980420, "1");
  assert_event (fx.batch, 3, TRACE_EVENT_SLICE_COMPLETE, 11550183666000, 7512, 2072980420, "mqt_js");
  assert_event (fx.batch, 4, TRACE_EVENT_THREAD_NAME, 11550183666000, 7512, 2072976685, "2");
  g_assert_cmpuint (test_count_kind (fx.batch, TRACE_EVENT_THREAD_NAME), ==, 3);
  g_assert_null (test_find (fx.batch, TRACE_EVENT_THREAD_NAME, "mqt_js", 0));
  ev = test_find (fx.batch, TRACE_EVENT_SAMPLE, NULL, 0);
  g_assert_cmpint (ev->ts, ==, 11552125241000);
  g_assert_cmpint (ev->tid, ==, 2072980420);
  g_assert_cmpint (ev->cpu, ==, TRACE_ID_UNKNOWN);
  g_assert_cmpint (ev->u.sample.weight, ==, 1);
  g_assert_cmpuint (ev->u.sample.node_id, ==, G_GUINT64_CONSTANT (0x8000000000000001));
  ev = test_find (fx.batch, TRACE_EVENT_SAMPLE, NULL, 7);
  g_assert_cmpint (ev->ts, ==, 11552179337000);
  g_assert_cmpint (ev->tid, ==, 2072976685);
  ev = test_find (fx.batch, TRACE_EVENT_STACK_NODE, "function1", 0);
  g_assert_cmpuint (ev->u.stack_node.id, ==, G_GUINT64_CONSTANT (0x8000000000000002));
  g_assert_cmpuint (ev->u.stack_node.parent_id, ==, G_GUINT64_CONSTANT (0x8000000000000001));
  g_assert_cmpstr (test_str (fx.batch, ev->category), ==, "JavaScript");
  fixture_clear (&fx);
}

/* No ']' (and a trailing comma): the events before are kept, the
 * truncation is counted with its offset. */
static void
check_partial (const char *file,
               guint64 truncated_at)
{
  Fixture fx;
  const ChromeReaderStats *stats;

  fixture_read (&fx, file);
  stats = chrome_reader_get_stats (fx.reader);
  g_assert_cmpuint (fx.batch->n_events, ==, 5);
  assert_event (fx.batch, 2, TRACE_EVENT_SLICE_COMPLETE, 2000, 0, 0, "gamma");
  g_assert_cmpint (fx.batch->events[2].u.slice.dur, ==, 5000);
  g_assert_cmpstr (test_arg_str (fx.batch, &fx.batch->events[2], "detail"), ==, "foobar");
  assert_event (fx.batch, 4, TRACE_EVENT_SLICE_END, 14000, 0, 0, "alpha");
  g_assert_cmpuint (stats->skipped[CHROME_SKIP_TRUNCATED].count, ==, 1);
  g_assert_cmpuint (stats->skipped[CHROME_SKIP_TRUNCATED].offsets[0], ==, truncated_at);
  /* "epsilon" has only tdur */
  g_assert_cmpuint (stats->skipped[CHROME_SKIP_BAD_DURATION].offsets[0], ==, 226);
  g_assert_true (chrome_reader_has_damage (fx.reader));
  fixture_clear (&fx);
}

static void
test_partial (void)
{
  check_partial ("speedscope_simple-partial.json", 419);
  check_partial ("speedscope_simple-partial-trailing-comma.json", 419);
}

/* Events stay in file order, however their timestamps go. */
static void
test_file_order (void)
{
  static const char *const names[] = { "B", "B", "A", "A", "C", "C" };
  static const gint64 ts[] = { 1000, 9000, 0, 10000, 2000, 8000 };
  Fixture fx;

  fixture_read (&fx, "speedscope_out-of-order.json");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    assert_event (fx.batch, i, i % 2 ? TRACE_EVENT_SLICE_END : TRACE_EVENT_SLICE_BEGIN, ts[i], 0, 0,
                  names[i]);
  fixture_clear (&fx);
  fixture_read (&fx, "speedscope_must-retain-original-order.json");
  assert_event (fx.batch, 9, TRACE_EVENT_SLICE_END, 7000, 0, 1, "C");
  assert_event (fx.batch, 11, TRACE_EVENT_SLICE_END, 7000, 0, 1, "A");
  assert_event (fx.batch, 12, TRACE_EVENT_SLICE_BEGIN, 7000, 0, 1, "X");
  fixture_clear (&fx);
}

/* Unbalanced and odd slices are passed on as they are. */
static void
test_unbalanced (void)
{
  Fixture fx;

  fixture_read (&fx, "speedscope_mismatched-name.json");
  assert_event (fx.batch, 1, TRACE_EVENT_SLICE_END, 10000, 0, 0, "beta");
  fixture_clear (&fx);
  fixture_read (&fx, "speedscope_only-begin-events.json");
  g_assert_cmpuint (test_count_kind (fx.batch, TRACE_EVENT_SLICE_BEGIN), ==, 3);
  g_assert_cmpint (test_arg (fx.batch, &fx.batch->events[2], "x")->v.i, ==, 2);
  fixture_clear (&fx);
  fixture_read (&fx, "speedscope_invalid-x-nesting.json");
  assert_event (fx.batch, 1, TRACE_EVENT_SLICE_COMPLETE, 5000, 0, 0, "beta");
  g_assert_cmpint (fx.batch->events[1].u.slice.dur, ==, 10000);
  fixture_clear (&fx);
  fixture_read (&fx, "speedscope_zero-duration-events.json");
  assert_event (fx.batch, 5, TRACE_EVENT_SLICE_COMPLETE, 3000, 0, 0, "D");
  g_assert_cmpint (fx.batch->events[5].u.slice.dur, ==, 0);
  fixture_clear (&fx);
  /* X with only tdur: skipped like perfetto does */
  fixture_read (&fx, "speedscope_simple-object.json");
  g_assert_cmpuint (chrome_reader_get_stats (fx.reader)->skipped[CHROME_SKIP_BAD_DURATION].offsets[0], ==, 150);
  fixture_clear (&fx);
}

/* V8 Profile/ProfileChunk: samples on the Profile's thread, at
 * startTime plus the running sum of timeDeltas. */
static void
test_v8_profile (void)
{
  Fixture fx;
  const TraceEvent *ev;
  guint n = 0;

  fixture_read (&fx, "speedscope_chrome69_simple.json");
  ev = test_find (fx.batch, TRACE_EVENT_SAMPLE, NULL, 0);
  g_assert_cmpint (ev->ts, ==, (52949295179 + 6671) * G_GINT64_CONSTANT (1000));
  g_assert_cmpint (ev->pid, ==, 85129);
  g_assert_cmpint (ev->tid, ==, 775);
  g_assert_cmpuint (ev->u.sample.node_id, ==, (G_GUINT64_CONSTANT (1) << 32) | 2);
  ev = test_find (fx.batch, TRACE_EVENT_SAMPLE, NULL, 1);
  g_assert_cmpint (ev->ts, ==, (52949295179 + 6671 + 178) * G_GINT64_CONSTANT (1000));
  ev = test_find (fx.batch, TRACE_EVENT_STACK_NODE, "(root)", 0);
  g_assert_cmpuint (ev->u.stack_node.id, ==, (G_GUINT64_CONSTANT (1) << 32) | 1);
  g_assert_cmpuint (ev->u.stack_node.parent_id, ==, 0);
  fixture_clear (&fx);

  /* Chrome 70 writes the worker's Profile event after its chunks. */
  fixture_read (&fx, "speedscope_chrome70_worker.json");
  for (guint i = 0; i < fx.batch->n_events; i++)
    n += fx.batch->events[i].kind == TRACE_EVENT_SAMPLE && fx.batch->events[i].tid == 7443;
  g_assert_cmpuint (n, ==, 1400);
  g_assert_cmpuint (chrome_reader_get_stats (fx.reader)->skipped[CHROME_SKIP_ORPHAN_SAMPLES].count, ==, 0);
  fixture_clear (&fx);
}

static void
test_clock_info (void)
{
  Fixture fx;
  const TraceEvent *ev;

  fixture_read (&fx, "lighthouse_timespan-trace-m91.json");
  ev = test_find (fx.batch, TRACE_EVENT_CLOCK_MARKER, NULL, 0);
  g_assert_cmpint (ev->ts, ==, 260759206050000);
  g_assert_cmpint (ev->tid, ==, 775);
  g_assert_cmpuint (ev->u.clock.marker, ==, TRACE_CLOCK_MARKER_SYNC_ID);
  g_assert_cmpstr (test_str (fx.batch, ev->u.clock.sync_id), ==, "__lighthouseTimespanStart__");
  fixture_clear (&fx);

  fixture_read (&fx, "catapult_profile-chrome_systrace_perf_chrome_data.json");
  g_assert_cmpuint (chrome_reader_get_clock_domain (fx.reader), ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpstr (chrome_reader_get_clock_domain_name (fx.reader), ==, "LINUX_CLOCK_MONOTONIC");
  ev = test_find (fx.batch, TRACE_EVENT_SAMPLE, NULL, 0);
  g_assert_cmpint (ev->cpu, ==, 2);
  g_assert_cmpint (ev->u.sample.weight, ==, 297850);
  g_assert_cmpint (ev->ts, ==, 196493621870241);
  fixture_clear (&fx);

  /* leading TAB; a clock the model does not know keeps its name */
  fixture_read (&fx, "lighthouse_threeframes-blank_content_more.json");
  g_assert_cmpuint (chrome_reader_get_clock_domain (fx.reader), ==, TRACE_CLOCK_UNKNOWN);
  g_assert_cmpstr (chrome_reader_get_clock_domain_name (fx.reader), ==, "MAC_MACH_ABSOLUTE_TIME");
  fixture_clear (&fx);

  /* metadata before traceEvents */
  fixture_read (&fx, "speedscope_chrome141_no-arg-data.json");
  g_assert_true (json_object_has_member (chrome_reader_get_metadata (fx.reader), "hostDPR"));
  fixture_clear (&fx);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (corpus); i++)
    {
      g_autofree char *path = g_strdup_printf ("/json/corpus/%s", corpus[i].file);

      g_test_add_data_func (path, &corpus[i], test_corpus_file);
    }
  g_test_add_func ("/json/corpus/complete", test_corpus_complete);
  g_test_add_func ("/json/corpus/trivial", test_trivial);
  g_test_add_func ("/json/corpus/nanoseconds", test_nanoseconds);
  g_test_add_func ("/json/corpus/instance-counters", test_instance_counters);
  g_test_add_func ("/json/corpus/instant-events", test_instant_events);
  g_test_add_func ("/json/corpus/legacy-async", test_legacy_async);
  g_test_add_func ("/json/corpus/flows", test_flows);
  g_test_add_func ("/json/corpus/simple-trace", test_simple_trace);
  g_test_add_func ("/json/corpus/chromeos-metadata", test_chromeos_metadata);
  g_test_add_func ("/json/corpus/multi-thread-samples", test_multi_thread_samples);
  g_test_add_func ("/json/corpus/partial", test_partial);
  g_test_add_func ("/json/corpus/file-order", test_file_order);
  g_test_add_func ("/json/corpus/unbalanced", test_unbalanced);
  g_test_add_func ("/json/corpus/v8-profile", test_v8_profile);
  g_test_add_func ("/json/corpus/clock-info", test_clock_info);
  return g_test_run ();
}
