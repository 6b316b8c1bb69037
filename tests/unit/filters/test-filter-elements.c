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
  return g_test_run ();
}
