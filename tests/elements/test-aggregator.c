/* Element tests: the aggregator base class, through a merge defined here
 * that forwards the input whose next batch starts earliest. */
#include "../test-util.h"
#include <trace/check/traceharness.h>

#define TEST_TYPE_MERGE (test_merge_get_type ())
G_DECLARE_FINAL_TYPE (TestMerge, test_merge, TEST, MERGE, TraceAggregator)
struct _TestMerge
{
  TraceAggregator parent_instance;
};
G_DEFINE_FINAL_TYPE (TestMerge, test_merge, TRACE_TYPE_AGGREGATOR)

static TraceFlowReturn
test_merge_aggregate (TraceAggregator *agg,
                      gboolean all_at_eos)
{
  TraceAggregatorPad *pad = trace_aggregator_get_oldest_pad (agg);

  return trace_aggregator_finish_batch (agg, trace_aggregator_pad_pop_batch (pad));
}

static void
test_merge_class_init (TestMergeClass *klass)
{
  TRACE_AGGREGATOR_CLASS (klass)->aggregate = test_merge_aggregate;
}

static void
test_merge_init (TestMerge *self)
{
}

static TraceHarness *
new_merge_harness (guint max_queued)
{
  TraceElement *merge = g_object_new (TEST_TYPE_MERGE, "max-queued", max_queued, NULL);
  TraceHarness *h = trace_harness_new_with_element (merge, NULL, "src");

  trace_harness_add_input (h, "sink_%u");
  trace_harness_add_input (h, "sink_%u");
  return h;
}

static void
test_waits_for_every_input (void)
{
  g_autoptr (TraceHarness) h = new_merge_harness (4);
  TraceStringPool *pool = trace_harness_get_string_pool (h);

  trace_harness_push_to (h, 0, test_make_slices (pool, 1, 1, 100, 1));
  /* Input 1 has nothing yet: nothing can be decided. */
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 0);
  trace_harness_push_to (h, 1, test_make_slices (pool, 2, 2, 50, 1));
  /* Now the earliest goes first: input 1's batch at 50. */
  g_autoptr (TraceBatch) first = trace_harness_pull (h);
  g_assert_nonnull (first);
  g_assert_cmpint (first->events[0].ts, ==, 50);
}

static void
test_fast_input_is_held_back (void)
{
  g_autoptr (TraceHarness) h = new_merge_harness (3);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  guint pushed = 0;

  /* A fast input with a slow partner: its source would be asked whether
   * the input is ready before each batch, and stops when it is not. */
  while (trace_harness_input_is_ready (h, 0))
    {
      trace_harness_push_to (h, 0, test_make_slices (pool, 1, 1, pushed * 1000, 10));
      pushed++;
      g_assert_cmpuint (pushed, <=, 3);
    }
  g_assert_cmpuint (pushed, ==, 3);
  g_assert_true (trace_harness_input_is_ready (h, 1));
  /* The slow input catches up; the held batches flow and room returns. */
  trace_harness_push_to (h, 1, test_make_slices (pool, 2, 2, 5000, 1));
  g_assert_true (trace_harness_input_is_ready (h, 0));
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 3);
}

static void
test_eos_after_all_inputs_and_queues (void)
{
  g_autoptr (TraceHarness) h = new_merge_harness (4);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autoptr (TraceBatch) all = NULL;

  trace_harness_push_to (h, 0, test_make_slices (pool, 1, 1, 0, 2));
  trace_harness_push_to (h, 0, test_make_slices (pool, 1, 1, 100, 2));
  trace_harness_push_eos_to (h, 1);
  g_assert_false (trace_harness_got_eos (h));
  trace_harness_push_eos_to (h, 0);
  g_assert_true (trace_harness_got_eos (h));
  all = trace_harness_take_all (h);
  g_assert_cmpuint (all->n_events, ==, 8);
  /* In time order across batches. */
  for (guint i = 1; i < all->n_events; i++)
    g_assert_cmpint (all->events[i - 1].ts, <=, all->events[i].ts);
}

static void
test_merge_in_pipeline_bounded (void)
{
  /* A long and a short source into one merge: the run ends and the merge
   * never held more than its bound per input (checked through its
   * readiness by the sources). */
  g_autoptr (TraceElement) p = g_object_ref_sink (trace_pipeline_new ("p"));
  TraceElement *fast = trace_element_factory_make ("fakesrc", "fast");
  TraceElement *slow = trace_element_factory_make ("fakesrc", "slow");
  TraceElement *merge = g_object_new (TEST_TYPE_MERGE, "name", "merge", "max-queued", 2, NULL);
  TraceElement *sink = trace_element_factory_make ("fakesink", "out");
  g_autoptr (TraceMessage) end = NULL;
  guint64 n = 0;

  g_object_set (fast, "num-events", (gint64) 400000, "batch-size", 1000, NULL);
  g_object_set (slow, "num-events", (gint64) 20000, "batch-size", 100, NULL);
  trace_bin_add_many (TRACE_BIN (p), fast, slow, merge, sink, NULL);
  g_assert_true (trace_element_link (fast, merge, NULL));
  g_assert_true (trace_element_link (slow, merge, NULL));
  g_assert_true (trace_element_link (merge, sink, NULL));
  end = test_run_pipeline (p, 20000);
  g_assert_cmpint (end->type, ==, TRACE_MESSAGE_EOS);
  g_object_get (sink, "events", &n, NULL);
  g_assert_cmpuint (n, >=, 420000);
  trace_element_set_state (p, TRACE_STATE_NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/aggregator/waits-for-every-input", test_waits_for_every_input);
  g_test_add_func ("/aggregator/fast-input-is-held-back", test_fast_input_is_held_back);
  g_test_add_func ("/aggregator/eos-after-all-inputs-and-queues", test_eos_after_all_inputs_and_queues);
  g_test_add_func ("/aggregator/merge-in-pipeline-bounded", test_merge_in_pipeline_bounded);
  return g_test_run ();
}
