/* Element tests: queue, tee, funnel, fakesrc, fakesink, in harnesses and
 * in pipelines driven by a main loop. */
#include "../test-util.h"
#include <trace/check/traceharness.h>

static TraceElement *
parse (const char *description)
{
  g_autoptr (GError) error = NULL;
  TraceElement *pipeline = trace_parse_launch (description, &error);

  g_assert_no_error (error);
  return pipeline; /* transfer full: the parser sank the floating ref */
}

static guint64
sink_events (TraceElement *pipeline,
             const char *name)
{
  guint64 n = 0;

  g_object_get (trace_bin_get_by_name (TRACE_BIN (pipeline), name), "events", &n, NULL);
  return n;
}

static void
test_source_queue_sink_on_main_loop (void)
{
  g_autoptr (TraceElement) p = g_object_ref_sink (trace_pipeline_new ("p"));
  TraceElement *src = trace_element_factory_make ("fakesrc", "src");
  TraceElement *queue = trace_element_factory_make ("queue", "q");
  TraceElement *sink = trace_element_factory_make ("fakesink", "sink");
  g_autoptr (TraceMessage) msg = NULL;
  guint64 n = 0;

  g_object_set (src, "num-events", (gint64) 100000, "kinds", TRACE_EVENT_GROUP_SLICES, NULL);
  trace_bin_add_many (TRACE_BIN (p), src, queue, sink, NULL);
  g_assert_true (trace_element_link_many (NULL, src, queue, sink, NULL));
  msg = test_run_pipeline (p, 10000);
  g_assert_nonnull (msg);
  g_assert_cmpint (msg->type, ==, TRACE_MESSAGE_EOS);
  g_object_get (sink, "events", &n, NULL);
  /* 100000 events, plus the ends that close the slices still open. */
  g_assert_cmpuint (n, >=, 100000);
  g_assert_cmpuint (n, <=, 100000 + 8 * 4);
  trace_element_set_state (p, TRACE_STATE_NULL);
}

static void
test_fakesrc_balanced (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("fakesrc num-events=1000 processes=2 threads=3 kinds=slices+metadata");
  g_autoptr (TraceBatch) all = NULL;
  GHashTable *depth = g_hash_table_new (NULL, NULL);
  guint names = 0;

  g_assert_true (trace_harness_run_until_eos (h, 5000));
  all = trace_harness_take_all (h);
  for (guint i = 0; i < all->n_events; i++)
    {
      TraceEvent *ev = &all->events[i];
      gint d = GPOINTER_TO_INT (g_hash_table_lookup (depth, GINT_TO_POINTER (ev->tid)));

      if (ev->kind == TRACE_EVENT_THREAD_NAME)
        names++;
      else if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        d++;
      else if (ev->kind == TRACE_EVENT_SLICE_END)
        {
          g_assert_cmpint (d, >, 0); /* never an end without a begin */
          d--;
        }
      g_hash_table_insert (depth, GINT_TO_POINTER (ev->tid), GINT_TO_POINTER (d));
    }
  g_assert_cmpuint (names, ==, 6);
  /* Every slice closed at the end. */
  GHashTableIter iter;
  gpointer k, v;
  g_hash_table_iter_init (&iter, depth);
  while (g_hash_table_iter_next (&iter, &k, &v))
    g_assert_cmpint (GPOINTER_TO_INT (v), ==, 0);
  g_assert_cmpstr (trace_harness_get_stream_info (h)->format, ==, "fake");
  g_hash_table_unref (depth);
}

static void
test_tee_eos_and_sharing (void)
{
  g_autoptr (TraceElement) p = parse ("fakesrc num-events=5000 ! tee name=t ! fakesink name=a  t. ! fakesink name=b");
  g_autoptr (TraceMessage) msg = test_run_pipeline (p, 10000);

  g_assert_cmpint (msg->type, ==, TRACE_MESSAGE_EOS);
  g_assert_cmpuint (sink_events (p, "a"), ==, sink_events (p, "b"));
  g_assert_cmpuint (sink_events (p, "a"), >=, 5000);
  trace_element_set_state (p, TRACE_STATE_NULL);
}

static void
test_bin_eos_waits_for_every_sink (void)
{
  g_autoptr (TraceElement) p = g_object_ref_sink (trace_pipeline_new ("p"));
  TraceElement *src1 = trace_element_factory_make ("fakesrc", "s1");
  TraceElement *src2 = trace_element_factory_make ("fakesrc", "s2");
  TraceElement *k1 = trace_element_factory_make ("fakesink", "k1");
  TraceElement *k2 = trace_element_factory_make ("fakesink", "k2");
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (p));
  GMainContext *ctx = trace_pipeline_get_context (TRACE_PIPELINE (p));
  guint pipeline_eos = 0;

  /* Two independent branches, one much longer than the other. */
  g_object_set (src1, "num-events", (gint64) 100, NULL);
  g_object_set (src2, "num-events", (gint64) 200000, NULL);
  trace_bin_add_many (TRACE_BIN (p), src1, src2, k1, k2, NULL);
  trace_element_link (src1, k1, NULL);
  trace_element_link (src2, k2, NULL);
  trace_element_set_state (p, TRACE_STATE_PLAYING);
  while (pipeline_eos == 0)
    {
      TraceMessage *msg;

      g_main_context_iteration (ctx, TRUE);
      while ((msg = trace_bus_pop_filtered (bus, TRACE_MESSAGE_EOS | TRACE_MESSAGE_ERROR)))
        {
          g_assert_cmpint (msg->type, ==, TRACE_MESSAGE_EOS);
          g_assert_true (msg->src == G_OBJECT (p));
          pipeline_eos++;
          trace_message_unref (msg);
        }
    }
  /* Only once, and only when the long branch finished too. */
  g_assert_cmpuint (pipeline_eos, ==, 1);
  g_assert_cmpuint (sink_events (p, "k2"), >=, 200000);
  trace_element_set_state (p, TRACE_STATE_NULL);
}

static void
test_funnel_eos_after_all_inputs (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_with_element (trace_element_factory_make ("funnel", NULL), NULL, "src");
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  guint a = trace_harness_add_input (h, "sink_%u");
  guint b = trace_harness_add_input (h, "sink_%u");
  g_autoptr (TraceBatch) out = NULL;

  g_assert_cmpint (trace_harness_push_to (h, a, test_make_slices (pool, 1, 1, 0, 3)), ==, TRACE_FLOW_OK);
  g_assert_cmpint (trace_harness_push_to (h, b, test_make_slices (pool, 2, 2, 0, 2)), ==, TRACE_FLOW_OK);
  trace_harness_push_eos_to (h, a);
  g_assert_false (trace_harness_got_eos (h));
  trace_harness_push_eos_to (h, b);
  g_assert_true (trace_harness_got_eos (h));
  out = trace_harness_take_all (h);
  g_assert_cmpuint (out->n_events, ==, 10);
}

static void
test_queue_back_pressure (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("queue max-batches=2");
  TraceElement *queue = trace_harness_get_element (h);
  TestSinkPad *down = test_sink_pad_new ();
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  TracePad *srcpad = trace_element_get_static_pad (queue, "src");
  guint level = 0;

  /* Replace the harness output with a downstream that is not ready. */
  trace_pad_unlink (srcpad, trace_pad_get_peer (srcpad));
  g_assert_true (trace_pad_link (srcpad, down->pad, NULL));
  g_atomic_int_set (&down->ready, FALSE);
  trace_harness_play (h);
  for (int i = 0; i < 3; i++)
    g_assert_cmpint (trace_harness_push (h, test_make_slices (pool, 1, 1, i * 100, 5)), ==, TRACE_FLOW_OK);
  /* One batch waits in the thread for downstream, two fill the queue. */
  while (level < 2)
    {
      g_object_get (queue, "current-level", &level, NULL);
      g_usleep (1000);
    }
  g_assert_false (trace_harness_input_is_ready (h, 0));
  g_assert_cmpuint (test_sink_pad_count_events (down), ==, 0);
  g_atomic_int_set (&down->ready, TRUE);
  trace_harness_push_eos (h);
  while (!g_atomic_int_get (&down->eos))
    g_usleep (1000);
  g_assert_cmpuint (test_sink_pad_count_events (down), ==, 30);
  g_assert_true (trace_harness_input_is_ready (h, 0));
  trace_element_set_state (queue, TRACE_STATE_NULL);
  test_sink_pad_free (down);
}

/* A queue that has stopped takes nothing more: upstream (another queue's
 * thread, stopped after it) hears EOS and keeps ownership of nothing. A
 * batch accepted into the list it had just emptied (outside its lock)
 * would be lost by a concurrent push. */
static void
test_queue_refuses_batches_once_stopped (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("queue");
  TraceElement *queue = trace_harness_get_element (h);
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  g_autoptr (TraceBatch) batch = test_make_slices (pool, 1, 1, 0, 5);
  guint level = 1;

  trace_harness_play (h);
  g_assert_cmpint (trace_element_set_state (queue, TRACE_STATE_READY), !=, TRACE_STATE_CHANGE_FAILURE);
  g_assert_cmpint (trace_harness_push (h, trace_batch_ref (batch)), ==, TRACE_FLOW_EOS);
  /* ours is the only reference left: the queue did not keep it */
  g_assert_true (trace_batch_is_writable (batch));
  g_object_get (queue, "current-level", &level, NULL);
  g_assert_cmpuint (level, ==, 0);
  trace_element_set_state (queue, TRACE_STATE_NULL);
}

/* max-batches is read at each batch: raising it on a full queue that
 * plays makes room at once. */
static void
test_queue_max_batches_while_playing (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("queue max-batches=2");
  TraceElement *queue = trace_harness_get_element (h);
  TestSinkPad *down = test_sink_pad_new ();
  TraceStringPool *pool = trace_harness_get_string_pool (h);
  TracePad *srcpad = trace_element_get_static_pad (queue, "src");
  g_autoptr (TraceMessage) warning = NULL;
  guint level = 0, max = 0;

  trace_pad_unlink (srcpad, trace_pad_get_peer (srcpad));
  g_assert_true (trace_pad_link (srcpad, down->pad, NULL));
  g_atomic_int_set (&down->ready, FALSE);
  trace_harness_play (h);
  for (int i = 0; i < 3; i++)
    g_assert_cmpint (trace_harness_push (h, test_make_slices (pool, 1, 1, i * 100, 5)), ==, TRACE_FLOW_OK);
  while (level < 2)
    {
      g_object_get (queue, "current-level", &level, NULL);
      g_usleep (1000);
    }
  g_assert_false (trace_harness_input_is_ready (h, 0));
  g_object_set (queue, "max-batches", 4, NULL);
  g_object_get (queue, "max-batches", &max, NULL);
  g_assert_cmpuint (max, ==, 4);
  g_assert_true (trace_harness_input_is_ready (h, 0));
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_null (warning);
  g_atomic_int_set (&down->ready, TRUE);
  trace_harness_push_eos (h);
  while (!g_atomic_int_get (&down->eos))
    g_usleep (1000);
  g_assert_cmpuint (test_sink_pad_count_events (down), ==, 30);
  trace_element_set_state (queue, TRACE_STATE_NULL);
  test_sink_pad_free (down);
}

/* processes sizes fakesrc's state at start: a change while playing is
 * refused with a WARNING and the value stays. */
static void
test_fakesrc_processes_refused_while_playing (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("fakesrc name=src num-events=10");
  TraceElement *src = trace_harness_get_element (h);
  g_autoptr (TraceMessage) warning = NULL;
  guint processes = 0;

  g_assert_true (trace_harness_play (h));
  g_object_set (src, "processes", 7, NULL);
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  g_assert_cmpstr (warning->error->message, ==,
                   "property \"processes\" of src cannot change in state PLAYING: the new value is ignored "
                   "(set it before the pipeline starts)");
  g_object_get (src, "processes", &processes, NULL);
  g_assert_cmpuint (processes, ==, 2);
  trace_element_set_state (src, TRACE_STATE_NULL);
}

static void
test_stats_message (void)
{
  g_autoptr (TraceElement) p = parse ("fakesrc num-events=1000 ! identity passthrough=false ! fakesink name=out");
  g_autoptr (TraceMessage) end = test_run_pipeline (p, 5000);
  TraceElement *sink = trace_bin_get_by_name (TRACE_BIN (p), "out");
  g_autoptr (GVariant) stats = trace_element_get_stats (sink);
  guint64 received = 0;

  g_assert_cmpint (end->type, ==, TRACE_MESSAGE_EOS);
  g_assert_true (g_variant_lookup (stats, "events-in", "t", &received));
  g_assert_cmpuint (received, ==, sink_events (p, "out"));
  trace_element_set_state (p, TRACE_STATE_NULL);
}

static void
test_send_eos_ends_cleanly (void)
{
  g_autoptr (TraceElement) p = parse ("fakesrc num-events=-1 ! queue ! fakesink name=out");
  GMainContext *ctx = trace_pipeline_get_context (TRACE_PIPELINE (p));
  g_autoptr (TraceMessage) end = NULL;

  trace_element_set_state (p, TRACE_STATE_PLAYING);
  for (int i = 0; i < 20; i++)
    g_main_context_iteration (ctx, FALSE);
  /* An endless source stops when asked, and the sinks get EOS. */
  trace_pipeline_send_eos (TRACE_PIPELINE (p));
  end = test_run_pipeline (p, 5000);
  g_assert_nonnull (end);
  g_assert_cmpint (end->type, ==, TRACE_MESSAGE_EOS);
  g_assert_cmpuint (sink_events (p, "out"), >, 0);
  trace_element_set_state (p, TRACE_STATE_NULL);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/pipeline/source-queue-sink-on-main-loop", test_source_queue_sink_on_main_loop);
  g_test_add_func ("/fakesrc/balanced", test_fakesrc_balanced);
  g_test_add_func ("/tee/eos-and-sharing", test_tee_eos_and_sharing);
  g_test_add_func ("/bin/eos-waits-for-every-sink", test_bin_eos_waits_for_every_sink);
  g_test_add_func ("/funnel/eos-after-all-inputs", test_funnel_eos_after_all_inputs);
  g_test_add_func ("/queue/back-pressure", test_queue_back_pressure);
  g_test_add_func ("/queue/max-batches-while-playing", test_queue_max_batches_while_playing);
  g_test_add_func ("/queue/refuses-batches-once-stopped", test_queue_refuses_batches_once_stopped);
  g_test_add_func ("/fakesrc/processes-refused-while-playing", test_fakesrc_processes_refused_while_playing);
  g_test_add_func ("/stats/message", test_stats_message);
  g_test_add_func ("/pipeline/send-eos-ends-cleanly", test_send_eos_ends_cleanly);
  return g_test_run ();
}
