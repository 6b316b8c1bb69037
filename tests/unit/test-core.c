/* Unit tests: pads, elements, bins, the bus and the registry. */
#include <glib/gstdio.h>
#include <unistd.h>

#include "../test-util.h"

/* An element that records the order of its state changes. */
static GString *state_log;

#define TEST_TYPE_RECORDER (test_recorder_get_type ())
G_DECLARE_FINAL_TYPE (TestRecorder, test_recorder, TEST, RECORDER, TraceElement)
struct _TestRecorder
{
  TraceElement parent_instance;
  gboolean fail_ready;
};
G_DEFINE_FINAL_TYPE (TestRecorder, test_recorder, TRACE_TYPE_ELEMENT)

static TraceStateChangeReturn
test_recorder_change_state (TraceElement *element,
                            TraceStateChange transition)
{
  if (transition == TRACE_STATE_CHANGE_NULL_TO_READY && TEST_RECORDER (element)->fail_ready)
    {
      trace_element_post_error (element, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS, NULL,
                                "refusing on purpose");
      return TRACE_STATE_CHANGE_FAILURE;
    }
  g_string_append_printf (state_log, "%s:%s ", trace_element_get_name (element),
                          trace_state_to_string (TRACE_STATE_TRANSITION_NEXT (transition)));
  return TRACE_ELEMENT_CLASS (test_recorder_parent_class)->change_state (element, transition);
}

static const TraceStaticPadTemplate rec_sink =
    TRACE_STATIC_PAD_TEMPLATE ("sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);
static const TraceStaticPadTemplate rec_src =
    TRACE_STATIC_PAD_TEMPLATE ("src", TRACE_PAD_SRC, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS);

static void
test_recorder_class_init (TestRecorderClass *klass)
{
  TRACE_ELEMENT_CLASS (klass)->change_state = test_recorder_change_state;
  trace_element_class_add_static_pad_template (TRACE_ELEMENT_CLASS (klass), &rec_sink);
  trace_element_class_add_static_pad_template (TRACE_ELEMENT_CLASS (klass), &rec_src);
}

static void
test_recorder_init (TestRecorder *self)
{
  TraceElementClass *klass = TRACE_ELEMENT_GET_CLASS (self);

  trace_element_add_pad (TRACE_ELEMENT (self),
                         trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "sink"), "sink"));
  trace_element_add_pad (TRACE_ELEMENT (self),
                         trace_pad_new_from_template (trace_element_class_get_pad_template (klass, "src"), "src"));
}

static void
test_pad_link_errors (void)
{
  g_autoptr (TracePad) src = trace_pad_new ("src", TRACE_PAD_SRC, "trace/events");
  g_autoptr (TracePad) sink = trace_pad_new ("sink", TRACE_PAD_SINK, "trace/other");
  g_autoptr (TracePad) src2 = trace_pad_new ("src2", TRACE_PAD_SRC, NULL);
  g_autoptr (TracePad) any = trace_pad_new ("any", TRACE_PAD_SINK, TRACE_MEDIA_TYPE_ANY);
  g_autoptr (GError) error = NULL;

  g_assert_false (trace_pad_link (src, sink, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_NEGOTIATION);
  g_assert_cmpstr (error->message, ==,
                   "cannot link src (trace/events) to sink (trace/other): the media types differ");
  g_clear_error (&error);

  g_assert_false (trace_pad_link (sink, src, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD);
  g_assert_nonnull (strstr (error->message, "data flows from a src pad to a sink pad"));
  g_clear_error (&error);

  g_assert_true (trace_pad_link (src, any, &error));
  g_assert_no_error (error);
  g_assert_true (trace_pad_get_peer (any) == src);
  g_assert_false (trace_pad_link (src2, any, &error));
  g_assert_cmpstr (error->message, ==, "cannot link src2 to any: any is already linked");
}

static void
test_push_unlinked (void)
{
  g_autoptr (TracePad) src = trace_pad_new ("src", TRACE_PAD_SRC, NULL);

  g_assert_cmpint (trace_pad_push (src, trace_batch_new (NULL, 1)), ==, TRACE_FLOW_NOT_LINKED);
  g_assert_cmpstr (trace_flow_return_to_string (TRACE_FLOW_NOT_LINKED), ==, "not-linked");
  g_assert_cmpstr (trace_flow_return_to_string (TRACE_FLOW_EOS), ==, "eos");
}

static void
test_request_pads (void)
{
  g_autoptr (TraceElement) funnel = g_object_ref_sink (trace_element_factory_make ("funnel", "f"));
  g_autoptr (GError) error = NULL;
  TracePad *a = trace_element_request_pad (funnel, "sink_%u", &error);
  TracePad *b = trace_element_request_pad (funnel, "sink_%u", &error);
  TracePad *c = trace_element_request_pad (funnel, "sink_7", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (trace_pad_get_name (a), ==, "sink_0");
  g_assert_cmpstr (trace_pad_get_name (b), ==, "sink_1");
  g_assert_cmpstr (trace_pad_get_name (c), ==, "sink_7");
  g_assert_null (trace_element_request_pad (funnel, "sink_7", &error));
  g_assert_cmpstr (error->message, ==, "f already has a pad named sink_7");
  g_clear_error (&error);
  g_assert_null (trace_element_request_pad (funnel, "src_%u", &error));
  g_assert_cmpstr (error->message, ==, "f has no pad template for a pad named src_%u");
  trace_element_release_request_pad (funnel, a);
  g_assert_cmpuint (trace_element_get_n_sink_pads (funnel), ==, 2);
  /* The freed number is used again. */
  a = trace_element_request_pad (funnel, "sink_%u", NULL);
  g_assert_cmpstr (trace_pad_get_name (a), ==, "sink_0");
}

static void
test_link_sink_as_source (void)
{
  g_autoptr (TraceElement) sink = g_object_ref_sink (trace_element_factory_make ("fakesink", "out"));
  g_autoptr (TraceElement) src = g_object_ref_sink (trace_element_factory_make ("fakesrc", "in"));
  g_autoptr (GError) error = NULL;

  g_assert_false (trace_element_link (sink, src, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_PAD);
  g_assert_cmpstr (error->message, ==, "out has no src pad: it is a sink and produces no output");
}

static void
test_states_sinks_first (void)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("p"));
  TraceElement *a = g_object_new (TEST_TYPE_RECORDER, "name", "a", NULL);
  TraceElement *b = g_object_new (TEST_TYPE_RECORDER, "name", "b", NULL);
  TraceElement *c = g_object_new (TEST_TYPE_RECORDER, "name", "c", NULL);
  TraceBus *bus = trace_pipeline_get_bus (TRACE_PIPELINE (pipeline));
  g_autoptr (TraceMessage) msg = NULL;

  state_log = g_string_new (NULL);
  /* Added out of order on purpose: the order must come from the links. */
  trace_bin_add_many (TRACE_BIN (pipeline), b, c, a, NULL);
  g_assert_true (trace_element_link_many (NULL, a, b, c, NULL));
  g_assert_cmpint (trace_element_set_state (pipeline, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_SUCCESS);
  g_assert_cmpstr (state_log->str, ==, "c:READY b:READY a:READY c:PLAYING b:PLAYING a:PLAYING ");
  g_assert_cmpint (trace_element_get_state (b), ==, TRACE_STATE_PLAYING);
  msg = trace_bus_pop_filtered (bus, TRACE_MESSAGE_STATE_CHANGED);
  g_assert_nonnull (msg);
  g_assert_cmpstr (msg->src_path, ==, "/p/c");
  g_assert_cmpint (msg->old_state, ==, TRACE_STATE_NULL);
  g_assert_cmpint (msg->new_state, ==, TRACE_STATE_READY);
  g_string_truncate (state_log, 0);
  trace_element_set_state (pipeline, TRACE_STATE_NULL);
  g_assert_cmpstr (state_log->str, ==, "c:READY b:READY a:READY c:NULL b:NULL a:NULL ");
  g_string_free (state_log, TRUE);
}

static void
test_state_failure_posts_error (void)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("p"));
  TraceElement *a = g_object_new (TEST_TYPE_RECORDER, "name", "good", NULL);
  TraceElement *b = g_object_new (TEST_TYPE_RECORDER, "name", "bad", NULL);
  g_autoptr (TraceMessage) msg = NULL;
  g_autoptr (GError) error = NULL;

  state_log = g_string_new (NULL);
  TEST_RECORDER (b)->fail_ready = TRUE;
  trace_bin_add_many (TRACE_BIN (pipeline), a, b, NULL);
  trace_element_link (a, b, NULL);
  g_assert_cmpint (trace_element_set_state (pipeline, TRACE_STATE_PLAYING), ==, TRACE_STATE_CHANGE_FAILURE);
  msg = trace_bus_pop_filtered (trace_pipeline_get_bus (TRACE_PIPELINE (pipeline)), TRACE_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpstr (msg->src_path, ==, "/p/bad");
  g_assert_error (msg->error, TRACE_RESOURCE_ERROR, TRACE_RESOURCE_ERROR_SETTINGS);
  g_assert_cmpstr (msg->error->message, ==, "refusing on purpose");
  g_assert_cmpint (trace_element_get_state (a), ==, TRACE_STATE_NULL);
  /* trace_pipeline_run reports the same error with the element's path. */
  g_assert_false (trace_pipeline_run (TRACE_PIPELINE (pipeline), &error));
  g_assert_cmpstr (error->message, ==, "/p/bad: refusing on purpose");
  g_string_free (state_log, TRUE);
}

/* trace_pipeline_run() watches the bus itself, where an application
 * cannot: the warnings it carries go to standard error, as trace-launch
 * prints them (a Python script's Pipeline.run() shows them too). */
static void
test_run_prints_warnings (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (TraceElement) pipeline = trace_parse_launch ("fakesrc name=src num-events=3 ! fakesink", &error);

      g_assert_no_error (error);
      trace_element_post_warning (trace_bin_get_by_name (TRACE_BIN (pipeline), "src"), "in.txt", "%d lines skipped",
                                  2);
      g_assert_true (trace_pipeline_run (TRACE_PIPELINE (pipeline), &error));
      g_assert_no_error (error);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("WARNING: from /pipeline*/src: in.txt: 2 lines skipped\n");
}

static gpointer
post_from_thread (gpointer data)
{
  TraceBus *bus = data;

  for (int i = 0; i < 100; i++)
    trace_bus_post (bus, trace_message_new_progress (NULL, i, 100));
  return NULL;
}

static gboolean
count_progress (TraceBus *bus,
                TraceMessage *message,
                gpointer user_data)
{
  guint *count = user_data;

  /* Delivered in order, in the watching thread. */
  g_assert_cmpuint (message->done, ==, *count);
  (*count)++;
  return G_SOURCE_CONTINUE;
}

static void
test_bus_watch_across_threads (void)
{
  g_autoptr (TraceBus) bus = trace_bus_new ();
  GMainContext *ctx = g_main_context_new ();
  guint count = 0;
  GThread *thread;

  g_main_context_push_thread_default (ctx);
  trace_bus_add_watch (bus, count_progress, &count);
  thread = g_thread_new ("poster", post_from_thread, bus);
  while (count < 100)
    g_main_context_iteration (ctx, TRUE);
  g_thread_join (thread);
  g_assert_cmpuint (count, ==, 100);
  g_main_context_pop_thread_default (ctx);
  /* Destroying the watch source drops its reference to the bus. */
  while (g_main_context_pending (ctx))
    g_main_context_iteration (ctx, FALSE);
  {
    GSource *s;
    while ((s = g_main_context_find_source_by_user_data (ctx, &count)) != NULL)
      g_source_destroy (s);
  }
  g_main_context_unref (ctx);
}

static void
test_registry (void)
{
  g_autoptr (GList) factories = trace_registry_get_element_factories ();
  g_autoptr (GError) error = NULL;
  g_autofree char *suggestion = trace_registry_suggest_element ("fakesnk");
  TraceElementFactory *f = trace_element_factory_find ("queue");
  TraceElement *made;

  g_assert_cmpuint (g_list_length (factories), >=, 6);
  g_assert_nonnull (f);
  g_assert_cmpstr (trace_element_factory_get_plugin_name (f), ==, "coreelements");
  g_assert_cmpstr (trace_element_factory_get_metadata (f, TRACE_ELEMENT_METADATA_KLASS), ==, "Generic");
  g_assert_cmpstr (suggestion, ==, "fakesink");
  g_assert_null (trace_element_factory_make_checked ("fakesnk", NULL, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_NO_SUCH_ELEMENT);
  g_assert_cmpstr (error->message, ==, "no element \"fakesnk\" (did you mean \"fakesink\"?)");
  made = g_object_ref_sink (trace_element_factory_make ("queue", NULL));
  g_assert_true (g_str_has_prefix (trace_element_get_name (made), "queue"));
  g_assert_cmpstr (trace_element_get_factory_name (made), ==, "queue");
  g_object_unref (made);
}

static void
test_path_string (void)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("pipeline7"));
  TraceElement *bin = trace_bin_new ("inner");
  TraceElement *e = trace_element_factory_make ("identity", "id");
  g_autofree char *path = NULL;

  trace_bin_add (TRACE_BIN (pipeline), bin);
  trace_bin_add (TRACE_BIN (bin), e);
  path = trace_element_get_path_string (e);
  g_assert_cmpstr (path, ==, "/pipeline7/inner/id");
  g_assert_true (trace_bin_get_by_name (TRACE_BIN (pipeline), "id") == e);
  /* An element in a pipeline interns into the pipeline's pool. */
  g_assert_true (trace_element_get_string_pool (e) ==
                 trace_pipeline_get_string_pool (TRACE_PIPELINE (pipeline)));
}

/* A loop of links is refused where links are made, so no walk
 * of the graph (push, events, the ready question, the state order) can
 * go round for ever. */
static void
test_link_cycle_refused (void)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("p"));
  TraceElement *a = trace_element_factory_make ("identity", "a");
  TraceElement *f = trace_element_factory_make ("funnel", "f");
  TraceElement *q = trace_element_factory_make ("queue", "q");
  TraceElement *t = trace_element_factory_make ("tee", "t");
  g_autoptr (GError) error = NULL;

  trace_bin_add_many (TRACE_BIN (pipeline), a, f, q, t, NULL);
  g_assert_false (trace_pad_link (trace_element_get_static_pad (a, "src"),
                                  trace_element_get_static_pad (a, "sink"), &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_CYCLE);
  g_assert_cmpstr (error->message, ==,
                   "cannot link a:src to a:sink: it would make a cycle (a ! a); "
                   "events must flow one way, from the sources to the sinks");
  g_clear_error (&error);
  g_assert_false (trace_pad_is_linked (trace_element_get_static_pad (a, "src")));

  g_assert_true (trace_element_link_many (&error, f, q, t, NULL));
  g_assert_false (trace_element_link (t, f, &error));
  g_assert_error (error, TRACE_CORE_ERROR, TRACE_CORE_ERROR_CYCLE);
  g_assert_nonnull (strstr (error->message, "(f ! q ! t ! f)"));
  g_clear_error (&error);
  /* The same elements in a line are fine: only the loop is refused. */
  g_assert_true (trace_element_link (t, a, &error));
  g_assert_no_error (error);
  g_assert_cmpint (trace_element_set_state (pipeline, TRACE_STATE_READY), ==, TRACE_STATE_CHANGE_SUCCESS);
  trace_element_set_state (pipeline, TRACE_STATE_NULL);
}

/* trace_bin_add() warns (a programming error, as GStreamer does), and
 * warnings are fatal in tests: the refusals run in a subprocess. */
static void
test_bin_cannot_hold_itself (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (TraceElement) outer = g_object_ref_sink (trace_bin_new ("outer"));
      TraceElement *inner = trace_bin_new ("inner");

      g_log_set_always_fatal (G_LOG_FATAL_MASK);
      g_assert_true (trace_bin_add (TRACE_BIN (outer), inner));
      g_assert_false (trace_bin_add (TRACE_BIN (outer), outer));
      /* outer has no parent, so only the loop check can refuse this */
      g_assert_false (trace_bin_add (TRACE_BIN (inner), outer));
      g_assert_null (trace_element_get_parent (outer));
      g_assert_null (trace_bin_get_by_name (TRACE_BIN (inner), "outer"));
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("*outer cannot be added to outer: a bin cannot hold itself or a bin that holds it*"
                             "outer cannot be added to inner: *");
}

/* Children are found by name through a table: a renamed one must move. */
static void
test_bin_child_renamed (void)
{
  g_autoptr (TraceElement) bin = g_object_ref_sink (trace_bin_new ("b"));
  TraceElement *e = trace_element_factory_make ("identity", "before");

  trace_bin_add (TRACE_BIN (bin), e);
  trace_element_set_name (e, "after");
  g_assert_null (trace_bin_get_by_name (TRACE_BIN (bin), "before"));
  g_assert_true (trace_bin_get_by_name (TRACE_BIN (bin), "after") == e);
  g_assert_true (trace_bin_remove (TRACE_BIN (bin), e));
  g_assert_null (trace_bin_get_by_name (TRACE_BIN (bin), "after"));
}

/* The smallest file sink: the base class writes nothing by itself. */
typedef struct
{
  TraceFileSink parent_instance;
} TestFileSink;
typedef TraceFileSinkClass TestFileSinkClass;
G_DEFINE_TYPE (TestFileSink, test_file_sink, TRACE_TYPE_FILE_SINK)

static void
test_file_sink_class_init (TestFileSinkClass *klass)
{
  trace_element_class_add_static_pad_template (TRACE_ELEMENT_CLASS (klass), &(TraceStaticPadTemplate){
                                                                                "sink", TRACE_PAD_SINK, TRACE_PAD_ALWAYS, TRACE_MEDIA_TYPE_EVENTS });
}

static void
test_file_sink_init (TestFileSink *self)
{
}

/* A program that builds its pipeline in C gets the refusal of two sinks
 * writing one file at NULL->READY, before anything is opened. */
static void
test_same_output_refused (void)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("p"));
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-core-XXXXXX", NULL);
  g_autofree char *a = g_build_filename (dir, "out.json", NULL);
  g_autofree char *b = g_strdup_printf ("%s/./out.json", dir);
  g_autofree char *expected = g_strdup_printf ("second and first both write the same file, \"%s\" and \"%s\": "
                                               "one output would be lost (give each sink its own location)",
                                               b, a);
  TraceElement *first = g_object_new (test_file_sink_get_type (), "name", "first", "location", a, NULL);
  TraceElement *second = g_object_new (test_file_sink_get_type (), "name", "second", "location", b, NULL);
  g_autoptr (TraceMessage) msg = NULL;

  trace_bin_add_many (TRACE_BIN (pipeline), first, second, NULL);
  g_assert_cmpint (trace_element_set_state (pipeline, TRACE_STATE_READY), ==, TRACE_STATE_CHANGE_FAILURE);
  msg = trace_bus_pop_filtered (trace_pipeline_get_bus (TRACE_PIPELINE (pipeline)), TRACE_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpstr (msg->src_path, ==, "/p/second");
  g_assert_cmpstr (msg->error->message, ==, expected);
  g_assert_cmpint (trace_element_get_state (first), ==, TRACE_STATE_NULL);
  g_assert_cmpint (g_rmdir (dir), ==, 0); /* nothing was created in it */
}

/* A sink that would write the file a source reads (here through a
 * symlink) is refused at NULL->READY: the input is not touched. */
static void
test_output_is_input_refused (void)
{
  g_autoptr (TraceElement) pipeline = g_object_ref_sink (trace_pipeline_new ("p"));
  g_autofree char *dir = g_dir_make_tmp ("tracepipe-core-XXXXXX", NULL);
  g_autofree char *in = g_build_filename (dir, "in.json", NULL);
  g_autofree char *sym = g_build_filename (dir, "link.json", NULL);
  g_autofree char *expected = g_strdup_printf ("out would write \"%s\", the file src reads (\"%s\"): the input would be "
                                               "destroyed (write the output elsewhere)",
                                               sym, in);
  TraceElement *src, *out;
  g_autoptr (TraceMessage) msg = NULL;
  g_autofree char *after = NULL;

  g_assert_true (g_file_set_contents (in, "[]", -1, NULL));
  g_assert_cmpint (symlink (in, sym), ==, 0);
  src = trace_element_factory_make ("auto-src", "src");
  g_object_set (src, "location", in, NULL);
  out = g_object_new (test_file_sink_get_type (), "name", "out", "location", sym, NULL);
  trace_bin_add_many (TRACE_BIN (pipeline), src, out, NULL);
  g_assert_cmpint (trace_element_set_state (pipeline, TRACE_STATE_READY), ==, TRACE_STATE_CHANGE_FAILURE);
  msg = trace_bus_pop_filtered (trace_pipeline_get_bus (TRACE_PIPELINE (pipeline)), TRACE_MESSAGE_ERROR);
  g_assert_nonnull (msg);
  g_assert_cmpstr (msg->src_path, ==, "/p/out");
  g_assert_cmpstr (msg->error->message, ==, expected);
  g_assert_true (g_file_get_contents (in, &after, NULL, NULL));
  g_assert_cmpstr (after, ==, "[]");
  g_unlink (sym), g_unlink (in), g_rmdir (dir);
}

/* Generated JSON text with raw control bytes inside strings comes out
 * escaped; the whitespace of pretty output stays; clean text is given
 * back as it is, without a copy. */
static void
test_json_text_escape_controls (void)
{
  char *clean = g_strdup ("{\n  \"a\" : \"b\\u0001\"\r\n\t}");
  char *text = g_strdup ("{\"a\x1f\":[\"x\x01\x1fy\",\"\x7f\"],\n\"b\":1}");
  char *same = trace_json_text_escape_controls (clean);

  g_assert_true (same == clean);
  g_assert_cmpstr (same, ==, "{\n  \"a\" : \"b\\u0001\"\r\n\t}");
  g_free (same);
  text = trace_json_text_escape_controls (text);
  g_assert_cmpstr (text, ==, "{\"a\\u001f\":[\"x\\u0001\\u001fy\",\"\x7f\"],\n\"b\":1}");
  g_free (text);
  g_assert_null (trace_json_text_escape_controls (NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  trace_init (&argc, &argv);
  g_test_add_func ("/pad/link-errors", test_pad_link_errors);
  g_test_add_func ("/pad/push-unlinked", test_push_unlinked);
  g_test_add_func ("/element/request-pads", test_request_pads);
  g_test_add_func ("/element/link-sink-as-source", test_link_sink_as_source);
  g_test_add_func ("/element/path-string", test_path_string);
  g_test_add_func ("/bin/states-sinks-first", test_states_sinks_first);
  g_test_add_func ("/bin/state-failure-posts-error", test_state_failure_posts_error);
  g_test_add_func ("/pipeline/run-prints-warnings", test_run_prints_warnings);
  g_test_add_func ("/bus/watch-across-threads", test_bus_watch_across_threads);
  g_test_add_func ("/registry/factories", test_registry);
  g_test_add_func ("/pad/link-cycle-refused", test_link_cycle_refused);
  g_test_add_func ("/bin/cannot-hold-itself", test_bin_cannot_hold_itself);
  g_test_add_func ("/bin/child-renamed", test_bin_child_renamed);
  g_test_add_func ("/pipeline/same-output-refused", test_same_output_refused);
  g_test_add_func ("/pipeline/output-is-input-refused", test_output_is_input_refused);
  g_test_add_func ("/core/json-text-escape-controls", test_json_text_escape_controls);
  return g_test_run ();
}
