/* examples/plugin: tests of the slicetext plugin, with TraceHarness
 *
 * The harness puts one element in a pipeline of its own, links its own
 * pads to the element's, pushes batches in (or runs a source), collects
 * what comes out and keeps the bus messages. The plugin is found on
 * TRACEPIPE_PLUGIN_PATH, which meson test points at the build folder.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <trace/trace.h>
#include <trace/check/traceharness.h>

/* The slices of sample.slices that are valid, in file order. */
static const struct
{
  gint64 ts, tid;
  const char *name;
  gint64 dur;
} sample_slices[] = {
  { 1000000, 101, "startup", 2500000 },
  { 1100000, 102, "load-config", 300000 },
  { 1500000, 102, "parse", 800 },
  { 2000000, 101, "layout", 1200000 },
  { 2100000, 103, "decode-image", 4000000 },
  { 3300000, 101, "draw", 16000 },
  { 3500000, 101, "frame-end", 0 },
};

/* Runs a source to its end. trace_harness_run_until_eos() does the same
 * with a timeout, but it keeps only ERROR messages on the bus; this
 * keeps them all, for the WARNING checked below. A source that fails
 * would block here: meson test's timeout ends it. */
static void
run_source (TraceHarness *h)
{
  g_assert_true (trace_harness_play (h));
  while (!trace_harness_got_eos (h))
    g_main_context_iteration (NULL, TRUE);
}

static void
test_src_reads_sample (void)
{
  g_autofree char *description = g_strdup_printf ("slicetext-src pid=7 location=\"%s\"", SAMPLE_FILE);
  g_autoptr (TraceHarness) h = trace_harness_new_parse (description);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (TraceMessage) warning = NULL;
  g_autofree char *where = NULL;

  g_assert_nonnull (h);
  run_source (h);
  out = trace_harness_take_all (h);
  g_assert_cmpuint (out->n_events, ==, G_N_ELEMENTS (sample_slices));
  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      g_assert_cmpuint (ev->kind, ==, TRACE_EVENT_SLICE_COMPLETE);
      g_assert_cmpint (ev->ts, ==, sample_slices[i].ts);
      g_assert_cmpint (ev->pid, ==, 7);
      g_assert_cmpint (ev->tid, ==, sample_slices[i].tid);
      g_assert_cmpstr (trace_harness_string (h, ev->name), ==, sample_slices[i].name);
      g_assert_cmpint (ev->u.slice.dur, ==, sample_slices[i].dur);
    }
  g_assert_cmpstr (trace_harness_get_stream_info (h)->format, ==, "slicetext");

  /* Lines 10 (not a slice) and 11 (negative duration) were skipped: the
   * summary TraceLineSrc posts counts them by reason and names the first
   * as file:line. */
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  where = g_strdup_printf ("%s:10: skipped 2 lines (1 not `ts_ns tid name dur_ns`, 1 with a negative duration); "
                           "the first here: not `ts_ns tid name dur_ns`",
                           SAMPLE_FILE);
  g_assert_cmpstr (warning->error->message, ==, where);
}

static void
test_src_missing_file (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("slicetext-src location=/nonexistent/x.slices");
  g_autoptr (TraceMessage) error = NULL;

  g_assert_false (trace_harness_play (h));
  error = trace_harness_pop_message (h, TRACE_MESSAGE_ERROR);
  g_assert_nonnull (error);
  g_assert_true (g_error_matches (error->error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_NOT_FOUND));
  g_assert_true (g_str_has_prefix (error->error->message, "could not open \"/nonexistent/x.slices\" for reading: "));
}

static TraceEvent *
append_slice (TraceHarness *h,
              TraceBatch *batch,
              const char *name,
              gint64 dur)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, 1000);

  ev->name = trace_harness_intern (h, name);
  ev->u.slice.dur = dur;
  return ev;
}

static void
test_min_duration_drops_short_slices (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("min-duration min-dur=1ms");
  TraceBatch *in = trace_harness_new_batch (h);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (TraceMessage) stats = NULL;
  TraceEvent *counter;
  guint64 dropped = 0;

  append_slice (h, in, "short", 999999);
  append_slice (h, in, "exact", 1000000);
  append_slice (h, in, "long", 5000000);
  counter = trace_batch_append (in, TRACE_EVENT_COUNTER, 2000);
  counter->name = trace_harness_intern (h, "a-counter");

  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  out = trace_harness_take_all (h);
  g_assert_cmpuint (out->n_events, ==, 3);
  g_assert_cmpstr (trace_harness_string (h, out->events[0].name), ==, "exact");
  g_assert_cmpstr (trace_harness_string (h, out->events[1].name), ==, "long");
  g_assert_cmpuint (out->events[2].kind, ==, TRACE_EVENT_COUNTER);
  g_assert_true (trace_harness_got_eos (h));

  /* The base class counted what we dropped. */
  stats = trace_harness_pop_message (h, TRACE_MESSAGE_STATS);
  g_assert_nonnull (stats);
  g_assert_true (g_variant_lookup (stats->details, "dropped", "t", &dropped));
  g_assert_cmpuint (dropped, ==, 1);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/slicetext/src/reads-sample", test_src_reads_sample);
  g_test_add_func ("/slicetext/src/missing-file", test_src_missing_file);
  g_test_add_func ("/slicetext/min-duration/drops-short-slices", test_min_duration_drops_short_slices);
  return g_test_run ();
}
