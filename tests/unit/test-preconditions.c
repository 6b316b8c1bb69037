/* Unit tests: the public functions check their arguments at entry, as
 * GLib's and GStreamer's do. A NULL or an object of the wrong type gives a
 * CRITICAL naming the function and the documented "nothing" comes back,
 * instead of a crash somewhere inside; the arguments documented
 * (nullable) are taken without a word. */
#include <trace/check/traceharness.h>

#include "../test-util.h"

/* The next call must log "FUNC: assertion '…' failed" in the library's
 * domain: g_test_assert_expected_messages() checks that it did. */
#define EXPECT_CRITICAL(func) \
  g_test_expect_message ("tracepipe", G_LOG_LEVEL_CRITICAL, func ": assertion*failed")

static void
test_element (void)
{
  TraceElement *element = trace_element_factory_make ("identity", NULL);
  g_autoptr (TraceBus) bus = trace_bus_new ();
  g_autoptr (GError) error = NULL;

  g_object_ref_sink (element);

  EXPECT_CRITICAL ("trace_element_get_name");
  g_assert_null (trace_element_get_name (NULL));
  g_test_assert_expected_messages ();

  /* an object, but not an element */
  EXPECT_CRITICAL ("trace_element_get_name");
  g_assert_null (trace_element_get_name ((TraceElement *) bus));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_get_state");
  g_assert_cmpint (trace_element_get_state (NULL), ==, TRACE_STATE_NULL);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_set_state");
  g_assert_cmpint (trace_element_set_state ((TraceElement *) bus, TRACE_STATE_READY), ==,
                   TRACE_STATE_CHANGE_FAILURE);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_get_n_src_pads");
  g_assert_cmpuint (trace_element_get_n_src_pads (NULL), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_add_pad");
  g_assert_false (trace_element_add_pad (element, NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_request_pad");
  g_assert_null (trace_element_request_pad (element, NULL, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  EXPECT_CRITICAL ("trace_element_get_string_pool");
  g_assert_null (trace_element_get_string_pool (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_post_message");
  trace_element_post_message (element, NULL);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_class_get_metadata");
  g_assert_null (trace_element_class_get_metadata (TRACE_ELEMENT_GET_CLASS (element), NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_link");
  g_assert_false (trace_element_link (NULL, element, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  /* the subclasses' own functions check for their type, not just an element */
  EXPECT_CRITICAL ("trace_base_src_get_events_produced");
  g_assert_cmpuint (trace_base_src_get_events_produced ((TraceBaseSrc *) element), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_base_sink_get_stream_info");
  g_assert_null (trace_base_sink_get_stream_info ((TraceBaseSink *) element));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_base_transform_is_passthrough");
  g_assert_false (trace_base_transform_is_passthrough (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_file_src_get_location");
  g_assert_null (trace_file_src_get_location ((TraceFileSrc *) element));
  g_test_assert_expected_messages ();

  {
    gsize size = 1;

    EXPECT_CRITICAL ("trace_file_src_map_input");
    g_assert_null (trace_file_src_map_input ((TraceFileSrc *) element, &size));
    g_test_assert_expected_messages ();
    EXPECT_CRITICAL ("trace_file_src_set_mapped_position");
    trace_file_src_set_mapped_position ((TraceFileSrc *) element, 1);
    g_test_assert_expected_messages ();
  }

  EXPECT_CRITICAL ("trace_aggregator_get_sink_pads");
  g_assert_null (trace_aggregator_get_sink_pads ((TraceAggregator *) element));
  g_test_assert_expected_messages ();

  g_object_unref (element);
}

static void
test_bin_and_pipeline (void)
{
  TraceElement *pipeline = g_object_ref_sink (trace_pipeline_new (NULL));
  TraceElement *bin = g_object_ref_sink (trace_bin_new (NULL));
  TraceElement *child = trace_element_factory_make ("identity", NULL);

  EXPECT_CRITICAL ("trace_bin_add");
  g_assert_false (trace_bin_add ((TraceBin *) child, bin));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_bin_remove");
  g_assert_false (trace_bin_remove (TRACE_BIN (bin), NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_bin_get_children");
  g_assert_null (trace_bin_get_children (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pipeline_get_bus");
  g_assert_null (trace_pipeline_get_bus ((TracePipeline *) bin));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pipeline_run");
  g_assert_false (trace_pipeline_run (NULL, NULL));
  g_test_assert_expected_messages ();

  /* a bin is a pipeline's child: the checks accept subtypes */
  g_assert_true (trace_bin_add (TRACE_BIN (pipeline), bin));
  g_assert_true (trace_bin_add (TRACE_BIN (bin), child));
  g_assert_true (trace_element_get_bus (child) == trace_pipeline_get_bus (TRACE_PIPELINE (pipeline)));

  g_object_unref (bin);
  g_object_unref (pipeline);
}

static void
test_pad (void)
{
  TracePad *src = trace_pad_new ("src", TRACE_PAD_SRC, NULL);
  TraceBatch *batch = trace_batch_new (NULL, 0);
  TracePadStats stats;
  g_autoptr (TraceBus) bus = trace_bus_new ();

  EXPECT_CRITICAL ("trace_pad_get_name");
  g_assert_null (trace_pad_get_name (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pad_get_direction");
  g_assert_cmpint (trace_pad_get_direction ((TracePad *) bus), ==, TRACE_PAD_UNKNOWN);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pad_new");
  g_assert_null (trace_pad_new (NULL, TRACE_PAD_SRC, NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pad_link");
  g_assert_false (trace_pad_link (src, NULL, NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pad_get_stats");
  trace_pad_get_stats (src, NULL);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pad_template_get_pad_type");
  g_assert_true (trace_pad_template_get_pad_type (NULL) == G_TYPE_INVALID);
  g_test_assert_expected_messages ();

  /* trace_pad_push() is on every batch's path: a NULL check only */
  EXPECT_CRITICAL ("trace_pad_push");
  g_assert_cmpint (trace_pad_push (NULL, trace_batch_ref (batch)), ==, TRACE_FLOW_ERROR);
  g_test_assert_expected_messages ();
  trace_batch_unref (batch); /* refused, so not taken */

  EXPECT_CRITICAL ("trace_pad_push");
  g_assert_cmpint (trace_pad_push (src, NULL), ==, TRACE_FLOW_ERROR);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_pad_push_event");
  g_assert_false (trace_pad_push_event (src, NULL));
  g_test_assert_expected_messages ();

  /* and the pad still works */
  g_assert_cmpint (trace_pad_push (src, batch), ==, TRACE_FLOW_NOT_LINKED);
  trace_pad_get_stats (src, &stats);

  g_object_unref (src);
}

static void
test_bus (void)
{
  g_autoptr (TraceBus) bus = trace_bus_new ();

  EXPECT_CRITICAL ("trace_bus_pop");
  g_assert_null (trace_bus_pop (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_bus_post");
  trace_bus_post (bus, NULL);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_bus_add_watch_full");
  g_assert_cmpuint (trace_bus_add_watch_full (bus, NULL, NULL, NULL, NULL), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_bus_have_pending");
  g_assert_false (trace_bus_have_pending (NULL));
  g_test_assert_expected_messages ();
}

static void
test_batch_and_pool (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  TraceBatch *batch = trace_batch_new (pool, 0);
  gint64 lo;

  trace_batch_append (batch, TRACE_EVENT_INSTANT, 5);

  EXPECT_CRITICAL ("trace_batch_ref");
  g_assert_null (trace_batch_ref (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_batch_copy");
  g_assert_null (trace_batch_copy (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_batch_get_time_range");
  g_assert_false (trace_batch_get_time_range (NULL, &lo, NULL));
  g_test_assert_expected_messages ();

  /* a range check, where reading past the end would be the crash */
  EXPECT_CRITICAL ("trace_batch_get_event_ts");
  g_assert_cmpint (trace_batch_get_event_ts (batch, 1), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_batch_add_arg_int");
  trace_batch_add_arg_int (batch, NULL, "k", 1);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_string_pool_intern_len");
  g_assert_cmpuint (trace_string_pool_intern_len (NULL, "x", 1), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_string_pool_lookup");
  g_assert_cmpuint (trace_string_pool_lookup (pool, NULL, 3), ==, G_MAXUINT32);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_string_pool_get_size");
  g_assert_cmpuint (trace_string_pool_get_size (NULL), ==, 0);
  g_test_assert_expected_messages ();

  /* documented (nullable): no message */
  g_assert_cmpuint (trace_string_pool_intern (pool, NULL), ==, 0);
  g_assert_cmpint (trace_clock_domain_from_string (NULL), ==, TRACE_CLOCK_UNKNOWN);

  g_assert_cmpint (trace_batch_get_event_ts (batch, 0), ==, 5);
  trace_batch_unref (batch);
}

static void
test_messages_and_events (void)
{
  TraceStreamEvent *start;

  EXPECT_CRITICAL ("trace_message_new_error");
  g_assert_null (trace_message_new_error (NULL, NULL, NULL, NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_message_to_string");
  g_assert_null (trace_message_to_string (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_message_unref");
  trace_message_unref (NULL);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_stream_event_ref");
  g_assert_null (trace_stream_event_ref (NULL));
  g_test_assert_expected_messages ();

  /* documented (nullable): no message */
  start = trace_stream_event_new_stream_start (NULL, NULL, TRACE_CLOCK_UNKNOWN, NULL);
  g_assert_cmpstr (start->info.format, ==, "unknown");
  trace_stream_event_unref (start);
}

static void
test_registry (void)
{
  g_autoptr (GError) error = NULL;
  gint64 v = 0;
  GParamSpec *pspec = g_param_spec_int64 ("n", NULL, NULL, 0, 10, 0, G_PARAM_READWRITE);

  g_param_spec_ref_sink (pspec);

  EXPECT_CRITICAL ("trace_element_factory_find");
  g_assert_null (trace_element_factory_find (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_element_factory_make_checked");
  g_assert_null (trace_element_factory_make_checked (NULL, NULL, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  EXPECT_CRITICAL ("trace_element_factory_get_rank");
  g_assert_cmpuint (trace_element_factory_get_rank (NULL), ==, 0);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_plugin_get_name");
  g_assert_null (trace_plugin_get_name (NULL));
  g_test_assert_expected_messages ();

  /* NULL would open the program itself as a module */
  EXPECT_CRITICAL ("trace_registry_load_plugin");
  g_assert_false (trace_registry_load_plugin (NULL, &error));
  g_test_assert_expected_messages ();
  g_assert_no_error (error);

  EXPECT_CRITICAL ("trace_registry_suggest_element");
  g_assert_null (trace_registry_suggest_element (NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_param_spec_lookup_keyword");
  g_assert_false (trace_param_spec_lookup_keyword (pspec, "x", NULL));
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_param_spec_add_keyword");
  trace_param_spec_add_keyword (NULL, "x", 1);
  g_test_assert_expected_messages ();
  g_assert_false (trace_param_spec_lookup_keyword (pspec, "x", &v));

  g_param_spec_unref (pspec);
}

static void
test_spare_work (void)
{
  GMutex lock;
  GCond cond;

  EXPECT_CRITICAL ("trace_spare_work_add");
  g_assert_cmpuint (trace_spare_work_add (NULL, NULL), ==, 0);
  g_test_assert_expected_messages ();

  /* an id never given (or removed already) */
  EXPECT_CRITICAL ("trace_spare_work_remove");
  trace_spare_work_remove (12345);
  g_test_assert_expected_messages ();

  EXPECT_CRITICAL ("trace_spare_work_lend");
  trace_spare_work_lend (NULL, &cond);
  g_test_assert_expected_messages ();
  EXPECT_CRITICAL ("trace_spare_work_lend");
  trace_spare_work_lend (&lock, NULL);
  g_test_assert_expected_messages ();
  g_assert_cmpuint (trace_spare_work_get_n_lenders (), ==, 0);
}

static void
test_harness (void)
{
  TraceHarness *h = trace_harness_new ("identity");
  TraceBatch *batch = trace_harness_new_batch (h);

  EXPECT_CRITICAL ("trace_harness_pull");
  g_assert_null (trace_harness_pull (NULL));
  g_test_assert_expected_messages ();

  /* identity has one input: index 1 is out of range */
  EXPECT_CRITICAL ("trace_harness_push_to");
  g_assert_cmpint (trace_harness_push_to (h, 1, trace_batch_ref (batch)), ==, TRACE_FLOW_ERROR);
  g_test_assert_expected_messages ();
  trace_batch_unref (batch);

  EXPECT_CRITICAL ("trace_harness_new_with_element");
  g_assert_null (trace_harness_new_with_element (NULL, "sink", "src"));
  g_test_assert_expected_messages ();

  g_assert_cmpint (trace_harness_push (h, batch), ==, TRACE_FLOW_OK);
  g_assert_cmpuint (trace_harness_get_n_batches_out (h), ==, 1);
  trace_harness_free (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/preconditions/element", test_element);
  g_test_add_func ("/preconditions/bin-and-pipeline", test_bin_and_pipeline);
  g_test_add_func ("/preconditions/pad", test_pad);
  g_test_add_func ("/preconditions/bus", test_bus);
  g_test_add_func ("/preconditions/batch-and-pool", test_batch_and_pool);
  g_test_add_func ("/preconditions/messages-and-events", test_messages_and_events);
  g_test_add_func ("/preconditions/registry", test_registry);
  g_test_add_func ("/preconditions/spare-work", test_spare_work);
  g_test_add_func ("/preconditions/harness", test_harness);
  return g_test_run ();
}
