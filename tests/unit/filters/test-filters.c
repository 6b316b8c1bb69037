/* Unit tests: the `filter` logic (plugins/filters/filters-event.c)
 *
 * Each test builds a batch by hand, filters it and compares the events
 * that come out, one line per event: kind, ts, pid/tid, name, args.
 */
#include <trace/trace.h>

#include "filters-private.h"

#define CLONE_THREAD 0x00010000

typedef struct
{
  TraceStringPool *pool;
  Filter *filter;
  TraceBatch *batch;
} Fixture;

static void
fixture_set_up (Fixture *fx,
                gconstpointer data)
{
  fx->pool = trace_string_pool_new ();
  fx->filter = filter_new (fx->pool);
  fx->batch = trace_batch_new (fx->pool, 4);
}

static void
fixture_tear_down (Fixture *fx,
                   gconstpointer data)
{
  g_clear_pointer (&fx->batch, trace_batch_unref);
  filter_free (fx->filter);
  trace_string_pool_unref (fx->pool);
}

/* ---- building events ---------------------------------------------------- */

static TraceEvent *
add (Fixture *fx,
     TraceEventKind kind,
     gint64 ts,
     gint64 pid,
     gint64 tid,
     const char *name)
{
  TraceEvent *ev = trace_batch_append (fx->batch, kind, ts);

  ev->pid = pid;
  ev->tid = tid;
  ev->name = name ? trace_string_pool_intern (fx->pool, name) : 0;
  return ev;
}

#define B(ts, pid, tid, name) add (fx, TRACE_EVENT_SLICE_BEGIN, ts, pid, tid, name)
#define E(ts, pid, tid) add (fx, TRACE_EVENT_SLICE_END, ts, pid, tid, NULL)
#define I(ts, pid, tid, name) add (fx, TRACE_EVENT_INSTANT, ts, pid, tid, name)
#define THREAD_NAME(pid, tid, name) add (fx, TRACE_EVENT_THREAD_NAME, 0, pid, tid, name)
#define PROCESS_NAME(pid, name) add (fx, TRACE_EVENT_PROCESS_NAME, 0, pid, TRACE_ID_UNKNOWN, name)

static TraceEvent *
add_complete (Fixture *fx,
              gint64 ts,
              gint64 dur,
              gint64 pid,
              gint64 tid,
              const char *name)
{
  TraceEvent *ev = add (fx, TRACE_EVENT_SLICE_COMPLETE, ts, pid, tid, name);

  ev->u.slice.dur = dur;
  return ev;
}

static TraceEvent *
add_async (Fixture *fx,
           TraceEventKind kind,
           gint64 ts,
           gint64 pid,
           gint64 tid,
           const char *name,
           guint64 id)
{
  TraceEvent *ev = add (fx, kind, ts, pid, tid, name);

  ev->u.async.id = id;
  return ev;
}

static TraceEvent *
add_counter (Fixture *fx,
             gint64 ts,
             gint64 pid,
             gint64 tid,
             const char *name,
             double value)
{
  TraceEvent *ev = add (fx, TRACE_EVENT_COUNTER, ts, pid, tid, name);

  ev->u.counter.value = value;
  return ev;
}

/* ---- describing the output ---------------------------------------------- */

static const char *
kind_code (guint kind)
{
  switch (kind)
    {
    case TRACE_EVENT_SLICE_BEGIN:
      return "B";
    case TRACE_EVENT_SLICE_END:
      return "E";
    case TRACE_EVENT_SLICE_COMPLETE:
      return "X";
    case TRACE_EVENT_INSTANT:
      return "I";
    case TRACE_EVENT_ASYNC_BEGIN:
      return "b";
    case TRACE_EVENT_ASYNC_STEP:
      return "t";
    case TRACE_EVENT_ASYNC_END:
      return "e";
    case TRACE_EVENT_COUNTER:
      return "C";
    case TRACE_EVENT_PROCESS_NAME:
      return "PN";
    case TRACE_EVENT_THREAD_NAME:
      return "TN";
    default:
      return trace_event_kind_to_string (kind);
    }
}

static char *
describe_event (TraceBatch *batch,
                const TraceEvent *ev)
{
  GString *s = g_string_new (NULL);
  const TraceArg *args = trace_batch_get_args (batch, ev);

  g_string_append_printf (s, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                          kind_code (ev->kind), ev->ts, ev->pid, ev->tid);
  if (ev->name)
    g_string_append_printf (s, " %s", trace_batch_get_string (batch, ev->name));
  if (ev->kind == TRACE_EVENT_SLICE_COMPLETE)
    g_string_append_printf (s, " dur=%" G_GINT64_FORMAT, ev->u.slice.dur);
  for (guint i = 0; i < ev->n_args; i++)
    {
      g_string_append_printf (s, " %s=", trace_batch_get_string (batch, args[i].key));
      if (args[i].type == TRACE_ARG_STRING)
        g_string_append (s, trace_batch_get_string (batch, args[i].v.s));
      else
        g_string_append_printf (s, "%" G_GINT64_FORMAT, args[i].v.i);
    }
  return g_string_free (s, FALSE);
}

static char *
describe (TraceBatch *batch)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; batch && i < batch->n_events; i++)
    {
      g_autofree char *line = describe_event (batch, &batch->events[i]);

      g_string_append_printf (s, "%s\n", line);
    }
  return g_string_free (s, FALSE);
}

/* Filters the fixture's batch and compares the result. */
static void
check_process (Fixture *fx,
               const char *expected)
{
  g_autofree char *got = NULL;

  filter_process (fx->filter, fx->batch);
  got = describe (fx->batch);
  g_assert_cmpstr (got, ==, expected);
}

/* Starts a new input batch (the previous one has been checked). */
static void
next_batch (Fixture *fx)
{
  trace_batch_unref (fx->batch);
  fx->batch = trace_batch_new (fx->pool, 4);
}

static FilterStats
stats (Fixture *fx)
{
  FilterStats st;

  filter_get_stats (fx->filter, &st);
  return st;
}

/* ---- conditions ----------------------------------------------------------- */

static void
test_no_condition (Fixture *fx,
                   gconstpointer data)
{
  B (1, 10, 10, "a");
  E (2, 10, 10);
  check_process (fx, "B 1 10/10 a\nE 2 10/10\n");
  g_assert_cmpuint (stats (fx).kept, ==, 2);
  g_assert_null (filter_drain (fx->filter));
}

static void
test_tid_number (Fixture *fx,
                 gconstpointer data)
{
  filter_set_tid (fx->filter, 11);
  THREAD_NAME (10, 10, "main");
  B (1, 10, 10, "a");
  B (2, 10, 11, "b");
  I (3, 10, 11, "i");
  E (4, 10, 11);
  E (5, 10, 10);
  add_counter (fx, 6, 10, TRACE_ID_UNKNOWN, "heap", 1.0);
  check_process (fx,
                 "TN 0 10/10 main\n"
                 "B 2 10/11 b\n"
                 "I 3 10/11 i\n"
                 "E 4 10/11\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_TID], ==, 3);
  g_assert_cmpuint (stats (fx).metadata, ==, 1);
  g_assert_cmpuint (stats (fx).kept, ==, 4);
}

static void
test_tid_main_known_pid (Fixture *fx,
                         gconstpointer data)
{
  filter_set_tid_main (fx->filter);
  B (1, 100, 100, "main-a");
  B (2, 100, 101, "worker");
  E (3, 100, 101);
  E (4, 100, 100);
  B (5, 200, 200, "other-main");
  E (6, 200, 200);
  check_process (fx,
                 "B 1 100/100 main-a\n"
                 "E 4 100/100\n"
                 "B 5 200/200 other-main\n"
                 "E 6 200/200\n");
  g_assert_cmpuint (stats (fx).undecidable, ==, 0);
}

/* ftrace lines with `(-----)`: the pid comes from what the stream taught. */
static void
test_tid_main_learnt_pid (Fixture *fx,
                          gconstpointer data)
{
  filter_set_tid_main (fx->filter);
  /* taught by a thread-name record (ps dump) */
  THREAD_NAME (300, 301, "RenderThread");
  I (1, -1, 301, "render");
  /* taught by an earlier event with both ids */
  I (2, 400, 401, "with-both");
  I (3, -1, 401, "learnt");
  /* tid 500 is a pid (a process name says so): it is a main thread */
  PROCESS_NAME (500, "com.example");
  I (4, -1, 500, "leader");
  /* task_newtask: 601 is a thread of 600 */
  {
    TraceEvent *ev = add (fx, TRACE_EVENT_TASK_NEWTASK, 5, 600, 600, "task_newtask");

    ev->u.task.tid = 601;
    ev->u.task.clone_flags = CLONE_THREAD;
  }
  I (6, -1, 601, "new-thread");
  /* nobody said anything about 700 */
  I (7, -1, 700, "unknown");
  check_process (fx,
                 "TN 0 300/301 RenderThread\n"
                 "PN 0 500/-1 com.example\n"
                 "I 4 -1/500 leader\n"
                 "task-newtask 5 600/600 task_newtask\n");
  /* (task_newtask is a record of the main thread 600, so it stays) */
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_TID], ==, 4);
  g_assert_cmpuint (stats (fx).undecidable, ==, 1);
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_UNDECIDABLE], ==, 1);
}

static void
test_keep_unknown (Fixture *fx,
                   gconstpointer data)
{
  filter_set_tid_main (fx->filter);
  filter_set_keep_unknown (fx->filter, TRUE);
  B (1, -1, 700, "unknown");
  I (2, -1, 700, "unknown-instant");
  E (3, -1, 700);
  /* events of no thread at all are not undecidable: they do not match */
  add_counter (fx, 4, -1, -1, "cpu", 1.0);
  check_process (fx,
                 "B 1 -1/700 unknown\n"
                 "I 2 -1/700 unknown-instant\n"
                 "E 3 -1/700\n");
  /* the slice counts once (its end follows), the instant once */
  g_assert_cmpuint (stats (fx).undecidable, ==, 2);
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_TID], ==, 1);
}

/* A slice is decided at its begin: learning the pid in between must not
 * cut it in half. */
static void
test_slice_never_cut (Fixture *fx,
                      gconstpointer data)
{
  filter_set_tid_main (fx->filter);
  B (1, -1, 800, "undecided");
  THREAD_NAME (800, 800, "main");
  E (2, -1, 800);
  B (3, -1, 800, "decided");
  E (4, -1, 800);
  check_process (fx,
                 "TN 0 800/800 main\n"
                 "B 3 -1/800 decided\n"
                 "E 4 -1/800\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_UNDECIDABLE], ==, 2);
}

static void
test_pid (Fixture *fx,
          gconstpointer data)
{
  filter_set_pid (fx->filter, 42);
  B (1, 42, 43, "in");
  B (2, 7, 7, "out");
  E (3, 7, 7);
  E (4, -1, 43); /* an end without pid follows its begin */
  I (5, -1, 43, "learnt");
  add_counter (fx, 6, 42, -1, "process-counter", 3.0);
  add_counter (fx, 7, -1, -1, "global", 3.0);
  check_process (fx,
                 "B 1 42/43 in\n"
                 "E 4 -1/43\n"
                 "I 5 -1/43 learnt\n"
                 "C 6 42/-1 process-counter\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_PID], ==, 3);
}

static void
test_process_name (Fixture *fx,
                   gconstpointer data)
{
  filter_set_process_name (fx->filter, "com.example.*");
  PROCESS_NAME (1, "com.example.app");
  PROCESS_NAME (2, "system_server");
  I (1, 1, 5, "named-process");
  I (2, 2, 6, "other-process");
  /* no PROCESS_NAME: the main thread's name names the process */
  THREAD_NAME (3, 3, "com.example.svc");
  I (3, 3, 7, "main-thread-name");
  /* a process nobody named */
  I (4, 4, 8, "nameless");
  check_process (fx,
                 "PN 0 1/-1 com.example.app\n"
                 "PN 0 2/-1 system_server\n"
                 "I 1 1/5 named-process\n"
                 "TN 0 3/3 com.example.svc\n"
                 "I 3 3/7 main-thread-name\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_PROCESS_NAME], ==, 1);
  g_assert_cmpuint (stats (fx).undecidable, ==, 1);
}

static void
test_thread_name (Fixture *fx,
                  gconstpointer data)
{
  TraceEvent *ev;

  filter_set_thread_name (fx->filter, "Render*");
  THREAD_NAME (1, 2, "RenderThread");
  I (1, 1, 2, "named");
  I (2, 1, 3, "unnamed");
  /* a sched_switch teaches the comm of both threads */
  ev = add (fx, TRACE_EVENT_SCHED_SWITCH, 3, 1, 4, NULL);
  ev->u.sched_switch.prev_tid = 4;
  ev->u.sched_switch.prev_comm = trace_string_pool_intern (fx->pool, "binder:1_2");
  ev->u.sched_switch.next_tid = 5;
  ev->u.sched_switch.next_comm = trace_string_pool_intern (fx->pool, "RenderEngine");
  I (4, 1, 5, "comm-learnt");
  I (5, 1, 4, "other-comm");
  check_process (fx,
                 "TN 0 1/2 RenderThread\n"
                 "I 1 1/2 named\n"
                 "I 4 1/5 comm-learnt\n");
  g_assert_cmpuint (stats (fx).undecidable, ==, 1);
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_THREAD_NAME], ==, 2);
}

/* A name glob decides each slice; ends (which have no name) follow. */
static void
test_name_glob (Fixture *fx,
                gconstpointer data)
{
  filter_set_name (fx->filter, "draw*");
  B (1, 1, 1, "drawFrame");
  B (2, 1, 1, "measure");
  B (3, 1, 1, "drawText");
  E (4, 1, 1);
  E (5, 1, 1);
  E (6, 1, 1);
  check_process (fx,
                 "B 1 1/1 drawFrame\n"
                 "B 3 1/1 drawText\n"
                 "E 4 1/1\n"
                 "E 6 1/1\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_NAME], ==, 2);
}

static void
test_category (Fixture *fx,
               gconstpointer data)
{
  filter_set_category (fx->filter, "blink");
  I (1, 1, 1, "a")->category = trace_string_pool_intern (fx->pool, "v8,blink");
  I (2, 1, 1, "b")->category = trace_string_pool_intern (fx->pool, "blink.user_timing");
  I (3, 1, 1, "c")->category = trace_string_pool_intern (fx->pool, "blink");
  I (4, 1, 1, "d");
  check_process (fx, "I 1 1/1 a\nI 3 1/1 c\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_CATEGORY], ==, 2);
}

static void
test_kinds (Fixture *fx,
            gconstpointer data)
{
  TraceEventGroup kinds = 0;

  g_assert_true (filter_parse_kinds ("slices+counters", &kinds, NULL));
  filter_set_kinds (fx->filter, kinds);
  B (1, 1, 1, "s");
  add_counter (fx, 2, 1, 1, "c", 1);
  add_async (fx, TRACE_EVENT_ASYNC_BEGIN, 3, 1, 1, "a", 9);
  add (fx, TRACE_EVENT_CPU_FREQUENCY, 4, -1, -1, NULL);
  add_async (fx, TRACE_EVENT_ASYNC_END, 5, 1, 1, "a", 9);
  E (6, 1, 1);
  /* metadata passes even when not asked for, a record does not */
  PROCESS_NAME (1, "p");
  add (fx, TRACE_EVENT_RECORD, 7, -1, -1, "perfetto_packet_38");
  check_process (fx,
                 "B 1 1/1 s\n"
                 "C 2 1/1 c\n"
                 "E 6 1/1\n"
                 "PN 0 1/-1 p\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_KIND], ==, 4);
}

static void
test_invert (Fixture *fx,
             gconstpointer data)
{
  filter_set_tid_main (fx->filter);
  filter_set_invert (fx->filter, TRUE);
  THREAD_NAME (1, 1, "main");
  B (1, 1, 1, "main-slice");
  B (2, 1, 2, "worker-slice");
  E (3, 1, 2);
  E (4, 1, 1);
  I (5, -1, 99, "undecidable"); /* not flipped by invert */
  check_process (fx,
                 "TN 0 1/1 main\n"
                 "B 2 1/2 worker-slice\n"
                 "E 3 1/2\n");
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_INVERT], ==, 2);
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_UNDECIDABLE], ==, 1);
}

/* Async slices: the end follows the begin by id, even on another thread. */
static void
test_async_by_id (Fixture *fx,
                  gconstpointer data)
{
  filter_set_tid (fx->filter, 1);
  add_async (fx, TRACE_EVENT_ASYNC_BEGIN, 1, 5, 1, "load", 7);
  add_async (fx, TRACE_EVENT_ASYNC_BEGIN, 2, 5, 2, "other", 8);
  add_async (fx, TRACE_EVENT_ASYNC_STEP, 3, 5, 3, "load", 7);
  add_async (fx, TRACE_EVENT_ASYNC_END, 4, 5, 3, "load", 7);
  add_async (fx, TRACE_EVENT_ASYNC_END, 5, 5, 1, "other", 8);
  check_process (fx,
                 "b 1 5/1 load\n"
                 "t 3 5/3 load\n"
                 "e 4 5/3 load\n");
}

/* ---- the time window ------------------------------------------------------ */

/* A slice open at the start edge gets a begin there (placed where the
 * stream crossed the edge); one open at the end edge gets an end there. */
static void
test_window_edges (Fixture *fx,
                   gconstpointer data)
{
  filter_set_start (fx->filter, 100);
  filter_set_end (fx->filter, 200);
  THREAD_NAME (1, 1, "main");
  B (50, 1, 1, "outer");
  B (60, 1, 1, "before");
  E (70, 1, 1);
  I (80, 1, 1, "early");
  B (90, 1, 2, "other-thread");
  B (150, 1, 1, "inner");
  I (160, 1, 1, "mid");
  E (170, 1, 1);
  B (180, 1, 1, "crossing-end");
  add_complete (fx, 190, 50, 1, 1, "x-cut");
  E (250, 1, 1);
  E (260, 1, 1);
  I (270, 1, 2, "late");
  E (280, 1, 2);
  check_process (fx,
                 "TN 0 1/1 main\n"
                 "B 100 1/1 outer window-clip=start\n"
                 "B 100 1/2 other-thread window-clip=start\n"
                 "B 150 1/1 inner\n"
                 "I 160 1/1 mid\n"
                 "E 170 1/1\n"
                 "B 180 1/1 crossing-end\n"
                 "X 190 1/1 x-cut dur=10\n"
                 "E 200 1/1 crossing-end window-clip=end\n"
                 "E 200 1/1 outer window-clip=end\n"
                 "E 200 1/2 other-thread window-clip=end\n");
  g_assert_cmpuint (stats (fx).synthesized, ==, 5);
  g_assert_cmpuint (stats (fx).clipped, ==, 1);
  /* before: B outer, B before, E before, I early, B other-thread;
   * after: E, E, I late, E */
  g_assert_cmpuint (stats (fx).dropped[FILTER_DROP_WINDOW], ==, 9);
  g_assert_null (filter_drain (fx->filter));
}

/* Edges crossed in later batches; a slice spanning the whole window. */
static void
test_window_across_batches (Fixture *fx,
                            gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  gint64 start = 0, end = 0;

  g_assert_true (filter_parse_time ("1s", &start, &error));
  g_assert_true (filter_parse_time ("1.5s", &end, &error));
  filter_set_start (fx->filter, start);
  filter_set_end (fx->filter, end);
  B (10, 1, 1, "spans-window");
  B (20, 1, 1, "ends-before");
  check_process (fx, "");
  next_batch (fx);
  E (30, 1, 1);
  I (999999999, 1, 1, "just-before");
  check_process (fx, "");
  next_batch (fx);
  I (2000000000, 1, 1, "after");
  E (2000000001, 1, 1);
  check_process (fx,
                 "B 1000000000 1/1 spans-window window-clip=start\n"
                 "E 1500000000 1/1 spans-window window-clip=end\n");
}

/* Out-of-order input: a slice that begins inside the window after the
 * stream passed its end is closed at the end edge at EOS. */
static void
test_window_drain (Fixture *fx,
                   gconstpointer data)
{
  g_autoptr (TraceBatch) tail = NULL;
  g_autofree char *got = NULL;

  filter_set_end (fx->filter, 100);
  I (50, 1, 1, "in");
  I (150, 1, 2, "past-end");
  B (90, 1, 1, "late-begin");
  check_process (fx, "I 50 1/1 in\nB 90 1/1 late-begin\n");
  tail = filter_drain (fx->filter);
  got = describe (tail);
  g_assert_cmpstr (got, ==, "E 100 1/1 late-begin window-clip=end\n");
}

/* A slice kept whole is not cut by the window when it lies inside. */
static void
test_window_with_condition (Fixture *fx,
                            gconstpointer data)
{
  filter_set_tid_main (fx->filter);
  filter_set_start (fx->filter, 100);
  B (50, 1, 1, "main-open");
  B (60, 1, 2, "worker-open");
  I (120, 1, 1, "in");
  E (130, 1, 2);
  E (140, 1, 1);
  check_process (fx,
                 "B 100 1/1 main-open window-clip=start\n"
                 "I 120 1/1 in\n"
                 "E 140 1/1\n");
}

/* Async slices are clipped like thread slices; a late event from before
 * the start (out-of-order input) is moved to the start edge. */
static void
test_window_async_and_late (Fixture *fx,
                            gconstpointer data)
{
  filter_set_start (fx->filter, 100);
  filter_set_end (fx->filter, 200);
  add_async (fx, TRACE_EVENT_ASYNC_BEGIN, 10, 1, 1, "load", 5);
  add_async (fx, TRACE_EVENT_ASYNC_STEP, 20, 1, 1, "load", 5);
  I (110, 1, 2, "enter");
  B (90, 1, 3, "late-begin");
  add_async (fx, TRACE_EVENT_ASYNC_STEP, 120, 1, 1, "load", 5);
  E (130, 1, 3);
  add_async (fx, TRACE_EVENT_ASYNC_BEGIN, 150, 1, 1, "other", 6);
  add_async (fx, TRACE_EVENT_ASYNC_END, 160, 1, 1, "load", 5);
  I (300, 1, 2, "leave");
  add_async (fx, TRACE_EVENT_ASYNC_END, 310, 1, 1, "other", 6);
  check_process (fx,
                 "b 100 1/1 load window-clip=start\n"
                 "I 110 1/2 enter\n"
                 "B 100 1/3 late-begin\n"
                 "t 120 1/1 load\n"
                 "E 130 1/3\n"
                 "b 150 1/1 other\n"
                 "e 160 1/1 load\n"
                 "e 200 1/1 other window-clip=end\n");
  g_assert_null (filter_drain (fx->filter));
}

/* ---- parsers ---------------------------------------------------------------- */

static void
test_parse_time (void)
{
  static const struct
  {
    const char *text;
    gint64 ns;
  } good[] = {
    { "12345", 12345 },
    { "1.5s", 1500000000 },
    { "200ms", 200000000 },
    { "300us", 300000 },
    { "300\xc2\xb5s", 300000 },
    { "42ns", 42 },
    { "0.000000001s", 1 },
    { " 2s ", 2000000000 },
    { "-1ms", -1000000 },
    { "9223372036854775807", G_MAXINT64 },
  };
  static const char *const bad[] = {
    "",
    "abc",
    "1.5",
    "1.5 s",
    "1h",
    "0.0000000001s",
    "1.5ns",
    "9223372036854775808",
    "10000000000s",
    "-",
    ".s",
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr (GError) error = NULL;
      gint64 ns = -7;

      g_assert_true (filter_parse_time (good[i].text, &ns, &error));
      g_assert_no_error (error);
      g_assert_cmpint (ns, ==, good[i].ns);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      gint64 ns = -7;

      g_assert_false (filter_parse_time (bad[i], &ns, &error));
      g_assert_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE);
      g_assert_cmpint (ns, ==, -7);
    }
  {
    g_autoptr (GError) error = NULL;
    gint64 ns;

    filter_parse_time ("5 min", &ns, &error);
    g_assert_cmpstr (error->message, ==,
                     "invalid time \"5 min\": expected nanoseconds (12345) or a number with "
                     "a unit ns, us, ms or s (1.5s, 200ms, 300us)");
  }
}

static void
test_parse_kinds_and_tid (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (Filter) filter = filter_new (NULL);
  TraceEventGroup kinds = 0;

  g_assert_true (filter_parse_kinds ("sched,cpu|ftrace", &kinds, NULL));
  g_assert_cmpuint (kinds, ==, TRACE_EVENT_GROUP_SCHED | TRACE_EVENT_GROUP_CPU | TRACE_EVENT_GROUP_FTRACE);
  g_assert_true (filter_parse_kinds ("records", &kinds, NULL));
  g_assert_cmpuint (kinds, ==, TRACE_EVENT_GROUP_RECORDS);
  g_assert_false (filter_parse_kinds ("slices+slises", &kinds, &error));
  g_assert_cmpstr (error->message, ==,
                   "invalid kind \"slises\": expected slices, async, flows, counters, "
                   "metadata, sched, cpu, ftrace, samples, clock or records");
  g_clear_error (&error);
  g_assert_true (filter_set_tid_from_string (filter, "main", NULL));
  g_assert_true (filter_set_tid_from_string (filter, "1234", NULL));
  g_assert_false (filter_set_tid_from_string (filter, "mian", &error));
  g_assert_cmpstr (error->message, ==, "invalid tid \"mian\": expected a thread id or \"main\"");
}

static void
test_stats_string (Fixture *fx,
                   gconstpointer data)
{
  g_autofree char *line = NULL;
  FilterStats st;

  filter_set_tid (fx->filter, 1);
  I (1, 1, 1, "a");
  I (2, 1, 2, "b");
  check_process (fx, "I 1 1/1 a\n");
  st = stats (fx);
  line = filter_stats_to_string (&st);
  g_assert_cmpstr (line, ==, "in=2 kept=1 dropped: tid=1; undecidable=0 metadata=0 synthesized=0 clipped=0");
}

/* Many batches of a deep, wide stream: the filter keeps no per-event
 * state beyond open slices, and the output of tid=main is exactly the
 * main thread's events, balanced. */
static void
test_many_batches_balanced (Fixture *fx,
                            gconstpointer data)
{
  gint64 ts = 0;
  guint depth = 0;
  guint64 expected_kept = 0;

  filter_set_tid_main (fx->filter);
  for (guint b = 0; b < 50; b++)
    {
      next_batch (fx);
      for (guint i = 0; i < 200; i++)
        {
          gint64 tid = 1 + (i % 3);
          gboolean open = (i / 3) % 4 < 2;

          if (tid == 1 && !open && depth == 0)
            open = TRUE;
          if (open)
            B (++ts, 1, tid, "s");
          else
            E (++ts, 1, tid);
          if (tid == 1)
            {
              depth += open ? 1 : -1;
              expected_kept++;
            }
        }
      filter_process (fx->filter, fx->batch);
      for (guint i = 0; i < fx->batch->n_events; i++)
        g_assert_cmpint (fx->batch->events[i].tid, ==, 1);
    }
  g_assert_cmpuint (stats (fx).kept, ==, expected_kept);
  g_assert_cmpuint (stats (fx).events_in, ==, 50 * 200);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) g_test_add ("/filters/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("no-condition", test_no_condition);
  ADD ("tid/number", test_tid_number);
  ADD ("tid/main-known-pid", test_tid_main_known_pid);
  ADD ("tid/main-learnt-pid", test_tid_main_learnt_pid);
  ADD ("tid/keep-unknown", test_keep_unknown);
  ADD ("slice-never-cut", test_slice_never_cut);
  ADD ("pid", test_pid);
  ADD ("process-name", test_process_name);
  ADD ("thread-name", test_thread_name);
  ADD ("name-glob", test_name_glob);
  ADD ("category", test_category);
  ADD ("kinds", test_kinds);
  ADD ("invert", test_invert);
  ADD ("async-by-id", test_async_by_id);
  ADD ("window/edges", test_window_edges);
  ADD ("window/across-batches", test_window_across_batches);
  ADD ("window/drain", test_window_drain);
  ADD ("window/with-condition", test_window_with_condition);
  ADD ("window/async-and-late", test_window_async_and_late);
  ADD ("stats-string", test_stats_string);
  ADD ("many-batches-balanced", test_many_batches_balanced);
#undef ADD
  g_test_add_func ("/filters/parse/time", test_parse_time);
  g_test_add_func ("/filters/parse/kinds-and-tid", test_parse_kinds_and_tid);
  return g_test_run ();
}
