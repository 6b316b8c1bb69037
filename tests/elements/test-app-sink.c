/* app-sink: pulling batches in the thread that runs the pipeline and in
 * another one, back-pressure, EOS and errors. */
#include <glib/gstdio.h>

#include "../test-util.h"

static TraceElement *
parse (const char *description)
{
  g_autoptr (GError) error = NULL;
  TraceElement *pipeline = trace_parse_launch (description, &error);

  g_assert_no_error (error);
  return pipeline;
}

static TraceAppSink *
get_sink (TraceElement *pipeline)
{
  return TRACE_APP_SINK (trace_bin_get_by_name (TRACE_BIN (pipeline), "sink"));
}

/* What fakesink counts for the same source: the reference. */
static guint64
count_with_fakesink (const char *src)
{
  g_autofree char *description = g_strdup_printf ("%s ! fakesink name=sink", src);
  g_autoptr (TraceElement) p = parse (description);
  g_autoptr (GError) error = NULL;
  guint64 n = 0;

  g_assert_true (trace_pipeline_run (TRACE_PIPELINE (p), &error));
  g_object_get (trace_bin_get_by_name (TRACE_BIN (p), "sink"), "events", &n, NULL);
  return n;
}

static guint64
pull_all (TraceAppSink *sink,
          guint *n_batches)
{
  guint64 n = 0;
  TraceBatch *batch;

  *n_batches = 0;
  while ((batch = trace_app_sink_pull_batch (sink)) != NULL)
    {
      n += trace_batch_get_n_events (batch);
      (*n_batches)++;
      trace_batch_unref (batch);
    }
  return n;
}

/* No main loop: pull_batch runs the pipeline's context itself. */
static void
test_pull_drives_the_pipeline (void)
{
  const char *src = "fakesrc num-events=50000 batch-size=1000";
  g_autofree char *description = g_strdup_printf ("%s ! app-sink name=sink", src);
  g_autoptr (TraceElement) p = parse (description);
  TraceAppSink *sink = get_sink (p);
  g_autoptr (TraceMessage) eos = NULL;
  guint batches = 0;
  guint64 n;

  g_assert_cmpint (trace_element_set_state (p, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_SUCCESS);
  n = pull_all (sink, &batches);
  g_assert_cmpuint (n, ==, count_with_fakesink (src));
  g_assert_cmpuint (batches, >=, 50);
  g_assert_true (trace_app_sink_is_eos (sink));
  /* Every batch was pulled: the pipeline said EOS. */
  eos = trace_bus_pop_filtered (trace_pipeline_get_bus (TRACE_PIPELINE (p)), TRACE_MESSAGE_EOS);
  g_assert_nonnull (eos);
  g_assert_true (eos->src == G_OBJECT (p));
  g_assert_null (trace_app_sink_pull_batch (sink));
  trace_element_set_state (p, TRACE_STATE_NULL);
}

/* Nobody pulls: the source stops being scheduled once max-batches are
 * queued, and the pipeline does not reach EOS. */
static void
test_back_pressure (void)
{
  g_autoptr (TraceElement) p = parse ("fakesrc num-events=100000 batch-size=100 ! app-sink name=sink max-batches=3");
  TraceAppSink *sink = get_sink (p);
  TraceBatch *batch;
  guint level = 0;

  g_assert_cmpint (trace_element_set_state (p, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_SUCCESS);
  for (guint i = 0; i < 200; i++)
    g_main_context_iteration (NULL, FALSE);
  g_object_get (sink, "current-level", &level, NULL);
  g_assert_cmpuint (level, ==, 3);
  g_assert_false (trace_app_sink_is_eos (sink));
  /* One pulled makes room for one more. */
  batch = trace_app_sink_try_pull_batch (sink, 0);
  g_assert_nonnull (batch);
  trace_batch_unref (batch);
  for (guint i = 0; i < 200; i++)
    g_main_context_iteration (NULL, FALSE);
  g_object_get (sink, "current-level", &level, NULL);
  g_assert_cmpuint (level, ==, 3);
  trace_element_set_state (p, TRACE_STATE_NULL);
  /* Stopped: the queue was dropped, a pull returns at once. */
  g_assert_null (trace_app_sink_pull_batch (sink));
  g_assert_false (trace_app_sink_is_eos (sink));
}

static gpointer
run_thread (gpointer data)
{
  TracePipeline *pipeline = data;
  GMainContext *context = trace_pipeline_get_context (pipeline);
  GError *error = NULL;
  gboolean ok;

  g_main_context_push_thread_default (context);
  ok = trace_pipeline_run (pipeline, &error);
  g_main_context_pop_thread_default (context);
  g_assert_no_error (error);
  return GINT_TO_POINTER (ok);
}

/* The pipeline runs in a thread of its own (trace_pipeline_run()); this
 * thread pulls. The pipeline's EOS waits for the last pull, so run()
 * does not drop what the sink holds. A queue in front makes the pushes
 * come from a third thread, which blocks when the sink is full. */
static void
test_pull_from_another_thread (gconstpointer data)
{
  const char *src = "fakesrc num-events=30000 batch-size=500";
  g_autofree char *description = g_strdup_printf ("%s %s ! app-sink name=sink max-batches=2", src, (const char *) data);
  g_autoptr (GMainContext) context = g_main_context_new ();
  g_autoptr (TraceElement) p = parse (description);
  TraceAppSink *sink = get_sink (p);
  GThread *thread;
  guint batches = 0;
  guint64 n;

  trace_pipeline_set_context (TRACE_PIPELINE (p), context);
  thread = g_thread_new ("run", run_thread, p);
  /* A pull before the sink is PLAYING returns NULL at once, as after it
   * stopped: wait until run() started it. */
  while (trace_element_get_state (TRACE_ELEMENT (sink)) != TRACE_STATE_PLAYING)
    g_usleep (1000);
  n = pull_all (sink, &batches);
  g_assert_true (g_thread_join (thread));
  g_assert_cmpuint (n, ==, count_with_fakesink (src));
  g_assert_cmpuint (batches, >=, 60);
  g_assert_true (trace_app_sink_is_eos (sink));
}

/* An ERROR upstream: the pull returns NULL instead of waiting for an EOS
 * that will not come, and is_eos says it was not the end. */
static void
test_error_ends_the_pull (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "app-sink-bad-XXXXXX.json", NULL);
  g_autofree char *description = NULL;
  g_autoptr (TraceElement) p = NULL;
  g_autoptr (TraceMessage) error = NULL;
  TraceAppSink *sink;
  guint batches = 0;
  int fd = g_mkstemp (path);

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (path, "garbage, not a JSON trace", -1, NULL));
  close (fd);
  description = g_strdup_printf ("json-src location=%s ! app-sink name=sink", path);
  p = parse (description);
  sink = get_sink (p);
  g_assert_cmpint (trace_element_set_state (p, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_SUCCESS);
  pull_all (sink, &batches);
  g_assert_false (trace_app_sink_is_eos (sink));
  error = trace_bus_pop_filtered (trace_pipeline_get_bus (TRACE_PIPELINE (p)), TRACE_MESSAGE_ERROR);
  g_assert_nonnull (error);
  trace_element_set_state (p, TRACE_STATE_NULL);
  g_unlink (path);
}

/* try_pull gives up after its timeout when nothing can come: the source
 * feeds a tee whose other branch is full and never pulled, so it is not
 * scheduled. */
static void
test_try_pull_times_out (void)
{
  g_autoptr (TraceElement) p = parse ("fakesrc num-events=-1 batch-size=10 ! tee name=t ! app-sink name=other "
                                      "max-batches=1  t. ! app-sink name=sink max-batches=4");
  TraceAppSink *sink = get_sink (p);
  TraceBatch *batch;
  guint pulled = 0;
  gint64 start;

  g_assert_cmpint (trace_element_set_state (p, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_SUCCESS);
  batch = trace_app_sink_try_pull_batch (sink, 2 * G_TIME_SPAN_SECOND);
  g_assert_nonnull (batch);
  g_assert_cmpuint (trace_batch_get_n_events (batch), ==, 10);
  g_assert_cmpint (trace_batch_get_event_kind (batch, 0), !=, TRACE_EVENT_NONE);
  trace_batch_unref (batch);
  while ((batch = trace_app_sink_try_pull_batch (sink, 0)) != NULL)
    {
      trace_batch_unref (batch);
      pulled++;
    }
  g_assert_cmpuint (pulled, <=, 1);
  start = g_get_monotonic_time ();
  g_assert_null (trace_app_sink_try_pull_batch (sink, 200 * G_TIME_SPAN_MILLISECOND));
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 200 * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_TIME_SPAN_SECOND);
  g_assert_false (trace_app_sink_is_eos (sink));
  trace_element_set_state (p, TRACE_STATE_NULL);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/app-sink/pull-drives-the-pipeline", test_pull_drives_the_pipeline);
  g_test_add_func ("/app-sink/back-pressure", test_back_pressure);
  g_test_add_data_func ("/app-sink/pull-from-another-thread", "", test_pull_from_another_thread);
  g_test_add_data_func ("/app-sink/pull-from-another-thread-after-queue", "! queue", test_pull_from_another_thread);
  g_test_add_func ("/app-sink/error-ends-the-pull", test_error_ends_the_pull);
  g_test_add_func ("/app-sink/try-pull", test_try_pull_times_out);
  return g_test_run ();
}
