/* Element tests of filter and main-thread-filter through the harness:
 * a condition changed while the element plays applies from the next batch
 * on, a slice already begun keeps its begin's decision, and a property
 * that cannot change while playing is refused with a WARNING. */
#include <trace/check/traceharness.h>

#include "../../test-util.h"

static TraceEvent *
add_slice (TraceHarness *h,
           TraceBatch *batch,
           guint kind,
           gint64 ts,
           const char *name,
           gint64 pid,
           gint64 tid)
{
  TraceEvent *ev = trace_batch_append (batch, kind, ts);

  ev->name = trace_harness_intern (h, name);
  ev->pid = pid;
  ev->tid = tid;
  if (kind == TRACE_EVENT_SLICE_COMPLETE)
    ev->u.slice.dur = 10;
  return ev;
}

/* "name@ts" for each event out, in order. */
static char *
describe_out (TraceHarness *h,
              TraceBatch *out)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; out != NULL && i < out->n_events; i++)
    g_string_append_printf (s, "%s%s@%" G_GINT64_FORMAT, i ? " " : "", trace_harness_string (h, out->events[i].name),
                            out->events[i].ts);
  return g_string_free (s, FALSE);
}

static guint64
stat (TraceHarness *h,
      const char *key)
{
  g_autoptr (TraceMessage) stats = trace_harness_pop_message (h, TRACE_MESSAGE_STATS);
  guint64 v = 0;

  g_assert_nonnull (stats);
  g_assert_true (g_variant_lookup (stats->details, key, "t", &v));
  return v;
}

/* event-name=a* then, while playing, event-name=b*: the second batch is
 * filtered by b*, and the slice a-open begun under a* keeps its end. */
static void
test_event_name_while_playing (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("filter name=f event-name=a*");
  TraceElement *f = trace_harness_get_element (h);
  TraceBatch *in;
  g_autoptr (TraceBatch) out1 = NULL, out2 = NULL;
  g_autofree char *text1 = NULL, *text2 = NULL, *now = NULL;
  g_autoptr (TraceMessage) warning = NULL;

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "a1", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "b1", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_BEGIN, 300, "a-open", 1, 2);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  out1 = trace_harness_take_all (h);
  text1 = describe_out (h, out1);
  g_assert_cmpstr (text1, ==, "a1@100 a-open@300");

  g_assert_cmpint (trace_element_get_state (f), ==, TRACE_STATE_PLAYING);
  g_object_set (f, "event-name", "b*", NULL);
  g_object_get (f, "event-name", &now, NULL);
  g_assert_cmpstr (now, ==, "b*");

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 400, "a2", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 500, "b2", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_END, 600, "a-open", 1, 2);
  add_slice (h, in, TRACE_EVENT_SLICE_BEGIN, 700, "a-late", 1, 2);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  out2 = trace_harness_take_all (h);
  text2 = describe_out (h, out2);
  g_assert_cmpstr (text2, ==, "b2@500 a-open@600");
  g_assert_cmpint (out2->events[1].kind, ==, TRACE_EVENT_SLICE_END);

  /* b1 under a*, a2 and a-late under b* */
  g_assert_cmpuint (stat (h, "dropped-name"), ==, 3);
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_null (warning);
}

/* No condition at first, then thread-name=ui while playing: the thread
 * names given before the change are known to the new condition. */
static void
test_thread_name_set_while_playing (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("filter");
  TraceBatch *in;
  g_autoptr (TraceBatch) out1 = NULL, out2 = NULL;
  g_autofree char *text1 = NULL, *text2 = NULL;

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_THREAD_NAME, 0, "worker", 1, 2);
  add_slice (h, in, TRACE_EVENT_THREAD_NAME, 0, "ui", 1, 3);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "w1", 1, 2);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "u1", 1, 3);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  out1 = trace_harness_take_all (h);
  text1 = describe_out (h, out1);
  g_assert_cmpstr (text1, ==, "worker@0 ui@0 w1@100 u1@200");

  g_object_set (trace_harness_get_element (h), "thread-name", "ui", NULL);
  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 300, "w2", 1, 2);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 400, "u2", 1, 3);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  out2 = trace_harness_take_all (h);
  text2 = describe_out (h, out2);
  g_assert_cmpstr (text2, ==, "u2@400");
  g_assert_cmpuint (stat (h, "dropped-thread-name"), ==, 1);
}

/* main-thread-filter pid=1, then pid=2 while playing. */
static void
test_main_thread_pid_while_playing (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("main-thread-filter pid=1");
  TraceBatch *in;
  g_autoptr (TraceBatch) out1 = NULL, out2 = NULL;
  g_autofree char *text1 = NULL, *text2 = NULL;

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "p1", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "p2", 2, 2);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  out1 = trace_harness_take_all (h);
  text1 = describe_out (h, out1);
  g_assert_cmpstr (text1, ==, "p1@100");

  g_object_set (trace_harness_get_element (h), "pid", (gint64) 2, NULL);
  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 300, "p1", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 400, "p2", 2, 2);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 500, "p2-worker", 2, 3);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  out2 = trace_harness_take_all (h);
  text2 = describe_out (h, out2);
  g_assert_cmpstr (text2, ==, "p2@400");
}

static void
add_thread_name (TraceHarness *h,
                 TraceBatch *batch,
                 gint64 pid,
                 gint64 tid,
                 const char *name)
{
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_THREAD_NAME, 0);

  ev->pid = pid;
  ev->tid = tid;
  ev->name = trace_harness_intern (h, name);
}

/* Chrome's main threads are told by name, and the name may come last:
 * the batches before it wait.  A process with no named main thread keeps
 * tid == pid. */
static void
test_main_thread_named_late (gconstpointer data)
{
  const char *element = data;
  g_autoptr (TraceHarness) h = trace_harness_new_parse (element);
  TraceStreamInfo info = { .format = "chrome-json", .flags = TRACE_STREAM_FLAG_MAIN_THREADS_NAMED };
  TraceBatch *in;
  g_autoptr (TraceBatch) early = NULL, out = NULL;
  g_autofree char *text = NULL;

  trace_harness_set_stream_info (h, 0, &info);
  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "renderer-main", 10, 775);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "renderer-io", 10, 10);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 300, "tool-main", 20, 20);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 400, "tool-worker", 20, 21);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  early = trace_harness_take_all (h);
  g_assert_true (early == NULL || early->n_events == 0); /* held back */

  in = trace_harness_new_batch (h);
  add_thread_name (h, in, 10, 10, "Chrome_ChildIOThread");
  add_thread_name (h, in, 10, 775, "CrRendererMain");
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  out = trace_harness_take_all (h);
  text = describe_out (h, out);
  g_assert_cmpstr (text, ==, "renderer-main@100 tool-main@300 Chrome_ChildIOThread@0 CrRendererMain@0");
}

/* Where the stream does not say that names tell the main threads (the
 * kernel's view: ftrace, atrace), tid == pid decides, whatever the names,
 * and nothing is held back. */
static void
test_main_thread_by_tid_without_flag (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("main-thread-filter");
  TraceBatch *in;
  g_autoptr (TraceBatch) out = NULL;
  g_autofree char *text = NULL;

  trace_harness_set_stream_start (h, 0, "ftrace", TRACE_CLOCK_BOOTTIME);
  in = trace_harness_new_batch (h);
  add_thread_name (h, in, 10, 11, "CrRendererMain");
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "leader", 10, 10);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "named", 10, 11);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  out = trace_harness_take_all (h);
  text = describe_out (h, out);
  g_assert_cmpstr (text, ==, "CrRendererMain@0 leader@100");
}

/* A filter that keeps no slice at all says so: an empty output with
 * exit 0 is easy to miss. */
static void
test_no_slice_kept_warns (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("filter tid=99");
  TraceBatch *in;
  g_autoptr (TraceMessage) warning = NULL;

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "a", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "b", 1, 2);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  g_assert_cmpstr (warning->error->message, ==, "no slice matched the conditions (tid=99): the 2 slices read were all dropped");
}

/* The window cannot move while playing: the change is refused, said in a
 * WARNING, and the window stays where it was. */
static void
test_start_refused_while_playing (void)
{
  g_autoptr (TraceHarness) h = trace_harness_new_parse ("filter name=f start=150");
  TraceElement *f = trace_harness_get_element (h);
  TraceBatch *in;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (TraceMessage) warning = NULL;
  g_autofree char *text = NULL, *start = NULL;

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 100, "early", 1, 1);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 200, "inside", 1, 1);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);

  g_object_set (f, "start", "1000", NULL);
  warning = trace_harness_pop_message (h, TRACE_MESSAGE_WARNING);
  g_assert_nonnull (warning);
  g_assert_cmpstr (warning->error->message, ==,
                   "property \"start\" of f cannot change in state PLAYING: the new value is ignored "
                   "(set it before the pipeline starts)");
  g_object_get (f, "start", &start, NULL);
  g_assert_cmpstr (start, ==, "150");

  in = trace_harness_new_batch (h);
  add_slice (h, in, TRACE_EVENT_SLICE_COMPLETE, 300, "later", 1, 1);
  g_assert_cmpint (trace_harness_push (h, in), ==, TRACE_FLOW_OK);
  g_assert_true (trace_harness_push_eos (h));
  out = trace_harness_take_all (h);
  text = describe_out (h, out);
  g_assert_cmpstr (text, ==, "inside@200 later@300");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/filter/event-name-while-playing", test_event_name_while_playing);
  g_test_add_func ("/filter/thread-name-set-while-playing", test_thread_name_set_while_playing);
  g_test_add_func ("/filter/main-thread-pid-while-playing", test_main_thread_pid_while_playing);
  g_test_add_func ("/filter/start-refused-while-playing", test_start_refused_while_playing);
  g_test_add_data_func ("/main-thread-filter/named-late", "main-thread-filter", test_main_thread_named_late);
  g_test_add_data_func ("/filter/tid-main-named-late", "filter tid=main", test_main_thread_named_late);
  g_test_add_func ("/main-thread-filter/by-tid-without-flag", test_main_thread_by_tid_without_flag);
  g_test_add_func ("/filter/no-slice-kept-warns", test_no_slice_kept_warns);
  return g_test_run ();
}
