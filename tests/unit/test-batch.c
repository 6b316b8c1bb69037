/* Unit tests: TraceBatch and the event model */
#include <trace/trace.h>

static void
test_append_defaults (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 2);
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, 42);

  g_assert_cmpint (ev->ts, ==, 42);
  g_assert_cmpint (ev->pid, ==, TRACE_ID_UNKNOWN);
  g_assert_cmpint (ev->tid, ==, TRACE_ID_UNKNOWN);
  g_assert_cmpint (ev->cpu, ==, TRACE_ID_UNKNOWN);
  g_assert_cmpuint (ev->n_args, ==, 0);
  /* Growing past the reservation keeps earlier events. */
  for (int i = 0; i < 100; i++)
    trace_batch_append (batch, TRACE_EVENT_INSTANT, i);
  g_assert_cmpuint (batch->n_events, ==, 101);
  g_assert_cmpint (batch->events[0].ts, ==, 42);
  g_assert_cmpint (batch->events[100].ts, ==, 99);
}

static void
test_args (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 0);
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_FTRACE, 1);
  const TraceArg *args;

  trace_batch_add_arg_int (batch, ev, "pid", -5);
  trace_batch_add_arg_string (batch, ev, "comm", "Jit thread pool");
  trace_batch_add_arg_double (batch, ev, "load", 0.5);
  trace_batch_add_arg_bool (batch, ev, "ok", TRUE);
  ev = trace_batch_append (batch, TRACE_EVENT_FTRACE, 2);
  trace_batch_add_arg_int (batch, ev, "x", 7);

  g_assert_cmpuint (batch->events[0].n_args, ==, 4);
  args = trace_batch_get_args (batch, &batch->events[0]);
  g_assert_cmpstr (trace_batch_get_string (batch, args[0].key), ==, "pid");
  g_assert_cmpint (args[0].v.i, ==, -5);
  g_assert_cmpstr (trace_batch_get_string (batch, args[1].v.s), ==, "Jit thread pool");
  g_assert_cmpfloat (args[2].v.d, ==, 0.5);
  g_assert_true (args[3].v.b);
  args = trace_batch_get_args (batch, &batch->events[1]);
  g_assert_cmpint (args[0].v.i, ==, 7);
}

static void
test_writable_copy (void)
{
  TraceBatch *batch = trace_batch_new (NULL, 0);
  TraceBatch *other;
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_COUNTER, 5);

  trace_batch_add_arg_int (batch, ev, "k", 1);
  g_assert_true (trace_batch_is_writable (batch));
  other = trace_batch_ref (batch);
  g_assert_false (trace_batch_is_writable (batch));
  batch = trace_batch_make_writable (batch);
  g_assert_true (batch != other);
  g_assert_true (trace_batch_is_writable (batch));
  g_assert_true (trace_batch_is_writable (other));
  g_assert_cmpuint (batch->n_args, ==, 1);
  batch->events[0].ts = 6;
  g_assert_cmpint (other->events[0].ts, ==, 5);
  trace_batch_unref (batch);
  trace_batch_unref (other);
}

static void
test_remove_none (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 0);

  for (int i = 0; i < 10; i++)
    trace_batch_append (batch, TRACE_EVENT_INSTANT, i);
  for (int i = 0; i < 10; i += 3)
    batch->events[i].kind = TRACE_EVENT_NONE;
  trace_batch_remove_none (batch);
  g_assert_cmpuint (batch->n_events, ==, 6);
  g_assert_cmpint (batch->events[0].ts, ==, 1);
  g_assert_cmpint (batch->events[5].ts, ==, 8);
}

static void
test_append_event_copies_args (void)
{
  g_autoptr (TraceBatch) a = trace_batch_new (NULL, 0);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 0);
  TraceEvent *ev = trace_batch_append (a, TRACE_EVENT_INSTANT, 3);
  gint64 lo, hi;

  trace_batch_add_arg_int (a, ev, "n", 9);
  trace_batch_append (b, TRACE_EVENT_INSTANT, 1);
  ev = trace_batch_append_event (b, &a->events[0], a);
  g_assert_cmpuint (ev->n_args, ==, 1);
  g_assert_cmpuint (ev->first_arg, ==, 0);
  g_assert_cmpint (trace_batch_get_args (b, ev)[0].v.i, ==, 9);
  g_assert_true (trace_batch_get_time_range (b, &lo, &hi));
  g_assert_cmpint (lo, ==, 1);
  g_assert_cmpint (hi, ==, 3);
}

/* An event of the batch itself, appended when its args fill the
 * batch's array: the copy is read after the array grows. */
static void
test_append_event_from_itself (void)
{
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 0);
  TraceEvent *ev = trace_batch_append (b, TRACE_EVENT_INSTANT, 1);
  const TraceArg *args;

  for (gint64 i = 0; i < 64; i++)
    trace_batch_add_arg_int (b, ev, "n", i);
  g_assert_cmpuint (b->n_args, ==, b->args_capacity);
  ev = trace_batch_append_event (b, &b->events[0], b);
  g_assert_cmpuint (ev->first_arg, ==, 64);
  g_assert_cmpuint (ev->n_args, ==, 64);
  g_assert_cmpuint (b->n_args, ==, 128);
  args = trace_batch_get_args (b, ev);
  for (guint i = 0; i < 64; i++)
    {
      g_assert_cmpstr (trace_string_pool_get (b->pool, args[i].key), ==, "n");
      g_assert_cmpint (args[i].type, ==, TRACE_ARG_INT);
      g_assert_cmpint (args[i].v.i, ==, i);
    }
  /* and args still go to the last event */
  trace_batch_add_arg_int (b, ev, "m", 7);
  g_assert_cmpuint (ev->n_args, ==, 65);
}

/* The by-index accessors bindings use read the same fields as C. */
/* Three events with null, [] and {} args among kept ones. */
static TraceBatch *
batch_with_shape_args (void)
{
  TraceBatch *batch = trace_batch_new (NULL, 0);
  TraceEvent *ev;

  ev = trace_batch_append (batch, TRACE_EVENT_INSTANT, 1);
  trace_batch_add_arg (batch, ev, trace_string_pool_intern (batch->pool, "n"), TRACE_ARG_NULL);
  trace_batch_add_arg_int (batch, ev, "a", 1);
  ev = trace_batch_append (batch, TRACE_EVENT_INSTANT, 2);
  trace_batch_add_arg (batch, ev, trace_string_pool_intern (batch->pool, "e"), TRACE_ARG_EMPTY_ARRAY);
  ev = trace_batch_append (batch, TRACE_EVENT_INSTANT, 3);
  trace_batch_add_arg_int (batch, ev, "b", 2);
  trace_batch_add_arg (batch, ev, trace_string_pool_intern (batch->pool, "o"), TRACE_ARG_EMPTY_OBJECT);
  trace_batch_add_arg_int (batch, ev, "c", 3);
  return batch;
}

/* The kept args of each event, as "key=value" joined by spaces. */
static char *
kept_args (TraceBatch *batch)
{
  GString *s = g_string_new (NULL);

  for (guint e = 0; e < batch->n_events; e++)
    {
      const TraceEvent *ev = &batch->events[e];

      g_string_append_printf (s, "%s%" G_GINT64_FORMAT ":", e ? " | " : "", ev->ts);
      for (guint a = 0; a < ev->n_args; a++)
        {
          const TraceArg *arg = &batch->args[ev->first_arg + a];

          g_string_append_printf (s, " %s=%" G_GINT64_FORMAT, trace_string_pool_get (batch->pool, arg->key),
                                  arg->type == TRACE_ARG_INT ? arg->v.i : -1);
        }
    }
  return g_string_free (s, FALSE);
}

/* A writable batch loses its value-less args in place; a shared one, or
 * one whose args are not in event order, is copied and left as it was. */
static void
test_drop_shape_args (void)
{
  const char *want = "1: a=1 | 2: | 3: b=2 c=3";
  TraceBatch *batch = batch_with_shape_args ();
  TraceBatch *shared, *out;
  g_autofree char *got = NULL, *got_shared = NULL, *got_unordered = NULL, *before = NULL, *after = NULL;

  out = trace_batch_drop_shape_args (batch);
  g_assert_true (out == batch);
  got = kept_args (out);
  g_assert_cmpstr (got, ==, want);
  g_assert_cmpuint (out->n_args, ==, 3);
  trace_batch_unref (out);

  batch = batch_with_shape_args ();
  shared = trace_batch_ref (batch);
  before = kept_args (shared);
  out = trace_batch_drop_shape_args (batch);
  g_assert_true (out != shared);
  got_shared = kept_args (out);
  g_assert_cmpstr (got_shared, ==, want);
  after = kept_args (shared);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpuint (shared->n_args, ==, 6);
  trace_batch_unref (out);
  trace_batch_unref (shared);

  /* events swapped: the third's args now come first, before the first's */
  batch = batch_with_shape_args ();
  {
    TraceEvent tmp = batch->events[0];

    batch->events[0] = batch->events[2];
    batch->events[2] = tmp;
  }
  out = trace_batch_drop_shape_args (batch);
  g_assert_true (out != batch);
  got_unordered = kept_args (out);
  g_assert_cmpstr (got_unordered, ==, "3: b=2 c=3 | 2: | 1: a=1");
  trace_batch_unref (out);
}

/* Room made up front is used: adding that many args or that much text
 * moves neither array. */
static void
test_reserve (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 0);
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_INSTANT, 1);
  guint32 key = trace_string_pool_intern (batch->pool, "k");
  const TraceArg *args;
  const char *text;

  trace_batch_reserve (batch, 1000, 1000 * 4);
  args = batch->args;
  text = batch->text;
  for (guint i = 0; i < 1000; i++)
    trace_batch_add_arg_text (batch, ev, key, "abc", 3);
  g_assert_true (batch->args == args);
  g_assert_true (batch->text == text);
  g_assert_cmpuint (ev->n_args, ==, 1000);
  g_assert_cmpstr (trace_batch_get_arg_string (batch, &batch->args[999]), ==, "abc");
  /* less than it has is no change */
  trace_batch_reserve (batch, 10, 10);
  g_assert_true (batch->args == args);
}

static void
test_accessors (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 2);
  TraceEvent *begin = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, 10);
  TraceEvent *complete;

  begin->pid = 7;
  begin->tid = 8;
  begin->cpu = 2;
  begin->name = trace_string_pool_intern (batch->pool, "draw");
  begin->category = trace_string_pool_intern (batch->pool, "gfx");
  complete = trace_batch_append (batch, TRACE_EVENT_SLICE_COMPLETE, 20);
  complete->u.slice.dur = 5;

  g_assert_cmpuint (trace_batch_get_n_events (batch), ==, 2);
  g_assert_cmpint (trace_batch_get_event_kind (batch, 0), ==, TRACE_EVENT_SLICE_BEGIN);
  g_assert_cmpint (trace_batch_get_event_ts (batch, 0), ==, 10);
  g_assert_cmpint (trace_batch_get_event_pid (batch, 0), ==, 7);
  g_assert_cmpint (trace_batch_get_event_tid (batch, 0), ==, 8);
  g_assert_cmpint (trace_batch_get_event_cpu (batch, 0), ==, 2);
  g_assert_cmpstr (trace_batch_get_event_name (batch, 0), ==, "draw");
  g_assert_cmpstr (trace_batch_get_event_category (batch, 0), ==, "gfx");
  /* dur is the slice's for a complete slice, 0 for any other kind (the
   * union holds something else there). */
  g_assert_cmpint (trace_batch_get_event_dur (batch, 0), ==, 0);
  g_assert_cmpint (trace_batch_get_event_dur (batch, 1), ==, 5);
  g_assert_cmpstr (trace_batch_get_event_name (batch, 1), ==, "");
  g_assert_cmpint (trace_batch_get_event_pid (batch, 1), ==, TRACE_ID_UNKNOWN);

  /* An index past the end is a programming error, not a crash. */
  g_test_expect_message ("tracepipe", G_LOG_LEVEL_CRITICAL, "*(index) < (batch)->n_events*");
  g_assert_cmpint (trace_batch_get_event_kind (batch, 2), ==, TRACE_EVENT_NONE);
  g_test_assert_expected_messages ();
}

static void
test_kind_names (void)
{
  g_assert_cmpstr (trace_event_kind_to_string (TRACE_EVENT_SCHED_SWITCH), ==, "sched-switch");
  g_assert_cmpint (trace_event_kind_get_group (TRACE_EVENT_SCHED_WAKING), ==, TRACE_EVENT_GROUP_SCHED);
  g_assert_cmpint (trace_clock_domain_from_string ("boot"), ==, TRACE_CLOCK_BOOTTIME);
  g_assert_cmpint (trace_clock_domain_from_string ("LINUX_CLOCK_MONOTONIC"), ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpstr (trace_clock_domain_to_string (TRACE_CLOCK_REALTIME), ==, "realtime");
  g_assert_cmpint (trace_clock_domain_from_string ("sundial"), ==, TRACE_CLOCK_UNKNOWN);
}

/* A slice keeps its first pair of flows in the struct and the others as
 * args, in order, a step (the same id in and out) as one flow. */
static void
test_slice_flows (void)
{
  g_autoptr (TraceBatch) batch = trace_batch_new (NULL, 0);
  TraceEvent *ev = trace_batch_append (batch, TRACE_EVENT_SLICE_BEGIN, 1);
  guint64 in = 0, out = 0;
  guint iter = 0, n = 0;

  trace_batch_add_arg_int (batch, ev, "user", 3);
  g_assert_true (trace_batch_add_slice_flow (batch, ev, 0, 11));
  g_assert_true (trace_batch_add_slice_flow (batch, ev, 9, 0));
  g_assert_cmpuint (ev->u.slice.flow_out, ==, 11);
  g_assert_cmpuint (ev->u.slice.flow_in, ==, 9);
  g_assert_false (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS);
  g_assert_false (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));

  g_assert_true (trace_batch_add_slice_flow (batch, ev, 12, 12));
  g_assert_true (trace_batch_add_slice_flow (batch, ev, 0, 13));
  g_assert_true (trace_batch_add_slice_flow (batch, ev, 14, 0));
  g_assert_true (ev->flags & TRACE_EVENT_FLAG_MORE_FLOWS);
  g_assert_cmpuint (ev->n_args, ==, 5);
  g_assert_false (trace_batch_arg_is_slice_flow (batch, ev, &trace_batch_get_args (batch, ev)[0]));
  for (guint i = 1; i < ev->n_args; i++)
    g_assert_true (trace_batch_arg_is_slice_flow (batch, ev, &trace_batch_get_args (batch, ev)[i]));
  g_assert_true (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));
  g_assert_cmpuint (in, ==, 12);
  g_assert_cmpuint (out, ==, 12);
  g_assert_true (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));
  g_assert_cmpuint (in, ==, 0);
  g_assert_cmpuint (out, ==, 13);
  g_assert_true (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));
  g_assert_cmpuint (in, ==, 14);
  g_assert_cmpuint (out, ==, 0);
  g_assert_false (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out));

  /* bounded: the flows past TRACE_SLICE_MAX_FLOWS are refused */
  for (guint64 id = 100; trace_batch_add_slice_flow (batch, ev, 0, id); id++)
    ;
  iter = 0;
  while (trace_batch_next_slice_flow (batch, ev, &iter, &in, &out))
    n++;
  g_assert_cmpuint (n + 2, ==, TRACE_SLICE_MAX_FLOWS);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/batch/append-defaults", test_append_defaults);
  g_test_add_func ("/batch/args", test_args);
  g_test_add_func ("/batch/writable-copy", test_writable_copy);
  g_test_add_func ("/batch/remove-none", test_remove_none);
  g_test_add_func ("/batch/append-event-copies-args", test_append_event_copies_args);
  g_test_add_func ("/batch/append-event-from-itself", test_append_event_from_itself);
  g_test_add_func ("/batch/drop-shape-args", test_drop_shape_args);
  g_test_add_func ("/batch/reserve", test_reserve);
  g_test_add_func ("/batch/accessors", test_accessors);
  g_test_add_func ("/batch/slice-flows", test_slice_flows);
  g_test_add_func ("/event/kind-names", test_kind_names);
  return g_test_run ();
}
