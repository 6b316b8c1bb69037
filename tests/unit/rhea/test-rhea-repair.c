/* Unit tests: the `rhea-repair` logic (plugins/rhea/)
 *
 * Each test writes a thread's events as RheaTrace records them (every
 * marker a slice begin named `B:`, `E:` or `T:` + method) or as a plain
 * B/E stream, repairs them and compares the events that come out, one
 * line per event: kind, ts, pid/tid, name, args.
 */
#include <trace/trace.h>

#include <string.h>

#include "rhea-private.h"

#define PID 100

typedef struct
{
  TraceStringPool *pool;
  RheaRepair *repair;
  TraceBatch *batch;
} Fixture;

static void
fixture_set_up (Fixture *fx,
                gconstpointer data)
{
  fx->pool = trace_string_pool_new ();
  fx->repair = rhea_repair_new (fx->pool);
  fx->batch = trace_batch_new (fx->pool, 4);
}

static void
fixture_tear_down (Fixture *fx,
                   gconstpointer data)
{
  g_clear_pointer (&fx->batch, trace_batch_unref);
  rhea_repair_free (fx->repair);
  trace_string_pool_unref (fx->pool);
}

/* A slice begin as atrace writes it: markers included. */
static TraceEvent *
begin_on (Fixture *fx,
          gint64 tid,
          gint64 ts,
          const char *name)
{
  TraceEvent *ev = trace_batch_append (fx->batch, TRACE_EVENT_SLICE_BEGIN, ts);

  ev->pid = PID;
  ev->tid = tid;
  ev->name = trace_string_pool_intern (fx->pool, name);
  return ev;
}

static TraceEvent *
end_on (Fixture *fx,
        gint64 tid,
        gint64 ts)
{
  TraceEvent *ev = trace_batch_append (fx->batch, TRACE_EVENT_SLICE_END, ts);

  ev->pid = PID;
  ev->tid = tid;
  return ev;
}

/* On the main thread (tid == pid), as in a main-thread-only capture. */
#define M(ts, name) begin_on (fx, PID, ts, name)
#define END(ts) end_on (fx, PID, ts)

static char *
describe (TraceBatch *batch)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; batch && i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      const TraceArg *args = trace_batch_get_args (batch, ev);
      const char *kind = ev->kind == TRACE_EVENT_SLICE_BEGIN ? "B" : ev->kind == TRACE_EVENT_SLICE_END ? "E"
                                                                                                       : trace_event_kind_to_string (ev->kind);

      g_string_append_printf (s, "%s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT, kind, ev->ts, ev->tid);
      if (ev->name)
        g_string_append_printf (s, " %s", trace_batch_get_string (batch, ev->name));
      for (guint a = 0; a < ev->n_args; a++)
        {
          g_string_append_printf (s, " %s=", trace_batch_get_string (batch, args[a].key));
          if (args[a].type == TRACE_ARG_STRING)
            g_string_append (s, trace_batch_get_string (batch, args[a].v.s));
          else
            g_string_append_printf (s, "%" G_GINT64_FORMAT, args[a].v.i);
        }
      if (ev->flags & TRACE_EVENT_FLAG_REPAIRED)
        g_string_append (s, " [repaired]");
      g_string_append_c (s, '\n');
    }
  return g_string_free (s, FALSE);
}

/* Repairs the fixture's batch in place and compares it. */
static void
check_process (Fixture *fx,
               const char *expected)
{
  g_autofree char *got = NULL;

  rhea_repair_process (fx->repair, fx->batch);
  got = describe (fx->batch);
  g_assert_cmpstr (got, ==, expected);
  trace_batch_unref (fx->batch);
  fx->batch = trace_batch_new (fx->pool, 4);
}

/* Everything rhea_repair_drain() gives, one thread after another. */
static TraceBatch *
drain_all (RheaRepair *repair,
           TraceStringPool *pool)
{
  TraceBatch *all = NULL, *tail;

  while ((tail = rhea_repair_drain (repair)) != NULL)
    {
      g_assert_cmpuint (tail->n_events, >, 0);
      if (all == NULL)
        all = trace_batch_new (pool, tail->n_events);
      for (guint i = 0; i < tail->n_events; i++)
        trace_batch_append_event (all, &tail->events[i], tail);
      trace_batch_unref (tail);
    }
  return all;
}

static void
check_drain (Fixture *fx,
             const char *expected)
{
  g_autoptr (TraceBatch) tail = drain_all (fx->repair, fx->pool);
  g_autofree char *got = describe (tail);

  g_assert_cmpstr (got, ==, expected);
  if (*expected == '\0')
    g_assert_null (tail);
}

static RheaRepairStats
stats (Fixture *fx)
{
  RheaRepairStats st;

  rhea_repair_get_stats (fx->repair, &st);
  return st;
}

/* ---- markers -------------------------------------------------------------- */

static void
test_balanced (Fixture *fx,
               gconstpointer data)
{
  M (1, "B:MainActivity:onCreate");
  M (2, "B:Foo:bar ");
  M (3, "E:Foo:bar");
  M (4, "E:MainActivity:onCreate");
  check_process (fx,
                 "B 1 100 MainActivity:onCreate\n"
                 "B 2 100 Foo:bar\n"
                 "E 3 100 Foo:bar\n"
                 "E 4 100 MainActivity:onCreate\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).methods, ==, 2);
  g_assert_cmpuint (stats (fx).returns, ==, 2);
  g_assert_null (rhea_repair_get_summary (fx->repair));
}

/* b throws, a catches it and goes on calling c: b ends at its T:, before
 * c begins (c is a's child, not b's). */
static void
test_throw_caught_one_level_up (Fixture *fx,
                                gconstpointer data)
{
  M (1, "B:a");
  M (2, "B:b");
  M (3, "T:b");
  M (4, "B:c");
  M (5, "E:c");
  M (6, "E:a");
  check_process (fx,
                 "B 1 100 a\n"
                 "B 2 100 b\n"
                 "E 3 100 b repair=exited-by-throw [repaired]\n"
                 "B 4 100 c\n"
                 "E 5 100 c\n"
                 "E 6 100 a\n");
  g_assert_cmpuint (stats (fx).throws, ==, 1);
  g_assert_cmpuint (stats (fx).unwound, ==, 0);
}

/* d throws through c and b (no marker for them) to a. */
static void
test_unwinding_several_frames (Fixture *fx,
                               gconstpointer data)
{
  M (1, "B:a");
  M (2, "B:b");
  M (3, "B:c");
  M (4, "B:d");
  M (5, "T:d");
  M (6, "B:x");
  M (7, "E:x");
  M (9, "E:a");
  check_process (fx,
                 "B 1 100 a\n"
                 "B 2 100 b\n"
                 "B 3 100 c\n"
                 "B 4 100 d\n"
                 "E 5 100 d repair=exited-by-throw [repaired]\n"
                 "E 5 100 c repair=unwound-by-exception [repaired]\n"
                 "E 5 100 b repair=unwound-by-exception [repaired]\n"
                 "B 6 100 x\n"
                 "E 7 100 x\n"
                 "E 9 100 a\n");
  g_assert_cmpuint (stats (fx).unwound, ==, 2);
  g_assert_cmpuint (stats (fx).throws, ==, 1);
}

/* An uninstrumented callee of b throws: no T: at all.  b ends at the last
 * time known inside it (c's return), not at a's return. */
static void
test_throw_from_uninstrumented_code (Fixture *fx,
                                     gconstpointer data)
{
  M (10, "B:a");
  M (20, "B:b");
  M (30, "B:c");
  M (40, "E:c");
  M (80, "E:a");
  check_process (fx,
                 "B 10 100 a\n"
                 "B 20 100 b\n"
                 "B 30 100 c\n"
                 "E 40 100 c\n"
                 "E 40 100 b repair=unwound-by-exception [repaired]\n"
                 "E 80 100 a\n");
  g_assert_cmpuint (stats (fx).unwound, ==, 1);
}

static void
test_recursion (Fixture *fx,
                gconstpointer data)
{
  M (1, "B:f");
  M (2, "B:f");
  M (3, "B:g");
  M (4, "B:f");
  M (5, "E:f");
  M (6, "E:g");
  M (7, "E:f");
  M (8, "B:f");
  M (9, "E:f");
  M (10, "E:f");
  check_process (fx,
                 "B 1 100 f\nB 2 100 f\nB 3 100 g\nB 4 100 f\nE 5 100 f\nE 6 100 g\n"
                 "E 7 100 f\nB 8 100 f\nE 9 100 f\nE 10 100 f\n");
  g_assert_cmpuint (stats (fx).returns, ==, 5);
}

/* Recursion with throws: the inner f throws and g catches it, so the
 * next E:f belongs to the outer f.  Then f calls f, the inner f throws
 * and returns: as btrace, a T: followed by an E: of the innermost frame of
 * that method is a throw caught inside it. */
static void
test_recursion_with_throw (Fixture *fx,
                           gconstpointer data)
{
  M (1, "B:f");
  M (2, "B:g");
  M (3, "B:f");
  M (4, "T:f");
  M (5, "E:g");
  M (6, "E:f");
  M (7, "B:f");
  M (8, "B:f");
  M (9, "T:f");
  M (10, "E:f");
  M (11, "E:f");
  check_process (fx,
                 "B 1 100 f\nB 2 100 g\nB 3 100 f\n"
                 "E 4 100 f repair=exited-by-throw [repaired]\n"
                 "E 5 100 g\nE 6 100 f\n"
                 "B 7 100 f\nB 8 100 f\nE 10 100 f\nE 11 100 f\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).throws, ==, 1);
  g_assert_cmpuint (stats (fx).throws_caught, ==, 1);
}

/* A throw caught inside the same method: T:b then E:b. */
static void
test_throw_then_return_same_method (Fixture *fx,
                                    gconstpointer data)
{
  M (1, "B:a");
  M (2, "B:b");
  M (3, "T:b");
  M (4, "B:c"); /* b goes on after catching */
  M (5, "E:c");
  M (6, "E:b");
  M (7, "E:a");
  check_process (fx,
                 "B 1 100 a\nB 2 100 b\nB 4 100 c\nE 5 100 c\nE 6 100 b\nE 7 100 a\n");
  g_assert_cmpuint (stats (fx).throws_caught, ==, 1);
  g_assert_cmpuint (stats (fx).throws, ==, 0);
  g_assert_null (rhea_repair_get_summary (fx->repair));
}

static void
test_unmatched_markers (Fixture *fx,
                        gconstpointer data)
{
  M (1, "E:started-before-capture");
  M (2, "T:also-before");
  M (3, "B:a");
  M (4, "E:z");
  M (5, "E:a");
  check_process (fx, "B 3 100 a\nE 5 100 a\n");
  g_assert_cmpuint (stats (fx).unmatched_returns, ==, 2);
  g_assert_cmpuint (stats (fx).unmatched_throws, ==, 1);
}

/* The capture was cut: open frames close at the thread's last time.  A
 * thread's events are held while a method frame is open. */
static void
test_cut_off_capture (Fixture *fx,
                      gconstpointer data)
{
  TraceEvent *ev;

  M (1, "B:a");
  M (2, "B:b");
  ev = trace_batch_append (fx->batch, TRACE_EVENT_SLICE_COMPLETE, 3);
  ev->pid = PID;
  ev->tid = PID;
  ev->name = trace_string_pool_intern (fx->pool, "inflate");
  ev->u.slice.dur = 4;
  check_process (fx, "");
  check_drain (fx,
               "B 1 100 a\nB 2 100 b\nslice-complete 3 100 inflate\n"
               "E 7 100 b repair=closed-at-eos [repaired]\n"
               "E 7 100 a repair=closed-at-eos [repaired]\n");
  g_assert_cmpuint (stats (fx).closed_at_eos, ==, 2);
}

/* A throw still unsettled at EOS: held events come out of the drain. */
static void
test_throw_at_eos (Fixture *fx,
                   gconstpointer data)
{
  M (1, "B:a");
  M (2, "B:b");
  M (3, "T:b");
  M (4, "B:c");
  check_process (fx, "");
  /* c was running when the capture was cut; nothing returned below b's
   * throw, so a was left by it (an uninstrumented catcher, a crash) */
  check_drain (fx,
               "B 1 100 a\nB 2 100 b\n"
               "E 3 100 b repair=exited-by-throw [repaired]\n"
               "E 3 100 a repair=unwound-by-exception [repaired]\n"
               "B 4 100 c\n"
               "E 4 100 c repair=closed-at-eos [repaired]\n");
}

/* ---- plain slice streams ---------------------------------------------------- */

static void
test_plain_unbalanced (Fixture *fx,
                       gconstpointer data)
{
  END (1); /* began before the capture */
  M (2, "draw");
  M (3, "measure");
  END (4);
  END (5);
  END (6);
  M (7, "open-at-eos");
  check_process (fx, "B 2 100 draw\nB 3 100 measure\nE 4 100\nE 5 100\nB 7 100 open-at-eos\n");
  check_drain (fx, "E 7 100 open-at-eos repair=closed-at-eos [repaired]\n");
  g_assert_cmpuint (stats (fx).unmatched_ends, ==, 2);
  {
    g_autofree char *summary = rhea_repair_get_summary (fx->repair);

    g_assert_cmpstr (summary, ==,
                     "rhea-repair: 1 slice still open at the end of the stream closed at "
                     "its thread's last event, 2 unmatched slice ends dropped");
  }
}

/* A native slice left open inside a method is closed with it. */
static void
test_plain_inside_method (Fixture *fx,
                          gconstpointer data)
{
  M (1, "B:a");
  M (2, "native");
  M (3, "E:a");
  check_process (fx,
                 "B 1 100 a\nB 2 100 native\nE 2 100 native repair=missing-end [repaired]\nE 3 100 a\n");
  g_assert_cmpuint (stats (fx).missing_ends, ==, 1);
}

/* A complete slice that lasts past the plain end closing the frames
 * around it (overlapping input): the method frame it is in ends at that
 * plain end, not at the complete slice's end, so the thread's output
 * stays in time order. */
static void
test_complete_past_closing_end (Fixture *fx,
                                gconstpointer data)
{
  TraceEvent *x;

  M (1, "native");
  M (2, "B:a");
  x = trace_batch_append (fx->batch, TRACE_EVENT_SLICE_COMPLETE, 3);
  x->pid = x->tid = PID;
  x->name = trace_string_pool_intern (fx->pool, "work");
  x->u.slice.dur = 20;
  END (5);
  check_process (fx,
                 "B 1 100 native\nB 2 100 a\nslice-complete 3 100 work\n"
                 "E 5 100 a repair=unwound-by-exception [repaired]\nE 5 100\n");
}

/* Captures where each marker has a plain end of its own. */
static void
test_marker_ends_present (Fixture *fx,
                          gconstpointer data)
{
  M (1, "native");
  M (2, "B:a");
  END (2);
  M (3, "B:b");
  END (3);
  M (4, "E:b");
  END (4);
  M (5, "E:a");
  END (5);
  END (6); /* native's own end */
  check_process (fx,
                 "B 1 100 native\nB 2 100 a\nB 3 100 b\nE 4 100 b\nE 5 100 a\nE 6 100\n");
  g_assert_cmpuint (stats (fx).marker_ends, ==, 4);
  g_assert_cmpuint (stats (fx).unmatched_ends, ==, 0);
}

/* Without marker ends, a plain end right after E: closes the native slice. */
static void
test_marker_ends_absent (Fixture *fx,
                         gconstpointer data)
{
  M (1, "native");
  M (2, "B:a");
  M (3, "B:b");
  M (4, "E:b");
  M (5, "E:a");
  END (6);
  check_process (fx,
                 "B 1 100 native\nB 2 100 a\nB 3 100 b\nE 4 100 b\nE 5 100 a\nE 6 100\n");
  g_assert_cmpuint (stats (fx).marker_ends, ==, 0);
}

/* A held thread does not hold the others; held events come out, in
 * order, in the batch where the thread's last method frame ends. */
static void
test_threads_and_batches (Fixture *fx,
                          gconstpointer data)
{
  TraceEvent *counter;

  begin_on (fx, 1, 1, "B:a");
  begin_on (fx, 1, 2, "B:b");
  begin_on (fx, 1, 3, "T:b");
  begin_on (fx, 2, 4, "B:w");
  begin_on (fx, 1, 5, "B:c");
  counter = trace_batch_append (fx->batch, TRACE_EVENT_COUNTER, 6);
  counter->u.counter.value = 1;
  begin_on (fx, 2, 7, "E:w");
  check_process (fx, "counter 6 -1\nB 4 2 w\nE 7 2 w\n");
  begin_on (fx, 1, 8, "E:c");
  begin_on (fx, 2, 9, "B:v");
  begin_on (fx, 1, 10, "E:a");
  begin_on (fx, 2, 11, "E:v");
  check_process (fx,
                 "B 1 1 a\nB 2 1 b\n"
                 "E 3 1 b repair=exited-by-throw [repaired]\n"
                 "B 5 1 c\nE 8 1 c\nE 10 1 a\n"
                 "B 9 2 v\nE 11 2 v\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).max_held, ==, 5);
}

/* At EOS each thread's last events come out alone, one call each, so a
 * thread's hold is freed before the next thread's events are copied. */
static void
test_drain_thread_by_thread (Fixture *fx,
                             gconstpointer data)
{
  g_autoptr (TraceBatch) first = NULL;
  g_autoptr (TraceBatch) second = NULL;
  g_autofree char *got_first = NULL;
  g_autofree char *got_second = NULL;

  begin_on (fx, 1, 1, "B:a");
  begin_on (fx, 2, 2, "B:w");
  begin_on (fx, 1, 3, "B:b");
  begin_on (fx, 3, 4, "B:x");
  begin_on (fx, 3, 5, "E:x");
  check_process (fx, "B 4 3 x\nE 5 3 x\n");
  first = rhea_repair_drain (fx->repair);
  second = rhea_repair_drain (fx->repair);
  got_first = describe (first);
  got_second = describe (second);
  g_assert_cmpstr (got_first, ==,
                   "B 1 1 a\nB 3 1 b\n"
                   "E 3 1 b repair=closed-at-eos [repaired]\n"
                   "E 3 1 a repair=closed-at-eos [repaired]\n");
  g_assert_cmpstr (got_second, ==, "B 2 2 w\nE 2 2 w repair=closed-at-eos [repaired]\n");
  /* thread 3 has nothing left */
  g_assert_null (rhea_repair_drain (fx->repair));
  g_assert_null (rhea_repair_drain (fx->repair));
}

/* Args of held events travel with them. */
static void
test_args_survive_hold (Fixture *fx,
                        gconstpointer data)
{
  TraceEvent *ev;

  M (1, "B:a");
  M (2, "T:a");
  ev = M (3, "B:b");
  trace_batch_add_arg_int (fx->batch, ev, "line", 42);
  M (4, "E:b");
  check_process (fx, "");
  check_drain (fx,
               "B 1 100 a\n"
               "E 2 100 a repair=exited-by-throw [repaired]\n"
               "B 3 100 b line=42\nE 4 100 b\n");
}

static void
test_crash_tag (Fixture *fx,
                gconstpointer data)
{
  rhea_repair_set_crash_tag (fx->repair, TRUE);
  M (1, "B:a");
  M (2, "B:b");
  M (3, "B:c");
  M (4, "E:c");
  M (8, "E:a");
  M (9, "B:d");
  check_process (fx,
                 "B 1 100 a\nB 2 100 b: CrashTag\nB 3 100 c\nE 4 100 c\n"
                 "E 4 100 b: CrashTag repair=unwound-by-exception [repaired]\nE 8 100 a\n");
  check_drain (fx,
               "B 9 100 d: CrashTag\nE 9 100 d: CrashTag repair=closed-at-eos [repaired]\n");
  g_assert_cmpuint (stats (fx).crash_tagged, ==, 2);
}

/* The hold is bounded: past the limit a throw is settled as "left the
 * frame" and events flow again. */
/* Nothing below b returns: a's caller (not instrumented: a message loop)
 * caught the exception and goes on with the next calls.  When the hold is
 * full the throw is taken to have escaped every instrumented frame: b and
 * a end at the T:, d (running then) stays open, and a's late E: (a was a
 * slow catcher after all) is unmatched. */
static void
test_hold_overflow (Fixture *fx,
                    gconstpointer data)
{
  g_autofree char *summary = NULL;

  rhea_repair_set_max_hold (fx->repair, 3);
  M (1, "B:a");
  M (2, "B:b");
  M (3, "T:b");
  M (4, "B:c");
  M (5, "E:c");
  M (6, "B:d"); /* the third held event: decided */
  M (7, "E:a");
  M (8, "E:d");
  check_process (fx,
                 "B 1 100 a\nB 2 100 b\n"
                 "E 3 100 b repair=exited-by-throw [repaired]\n"
                 "E 3 100 a repair=unwound-by-exception [repaired]\n"
                 "B 4 100 c\nE 5 100 c\nB 6 100 d\nE 8 100 d\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).hold_overflows, ==, 1);
  g_assert_cmpuint (stats (fx).unmatched_returns, ==, 1);
  g_assert_cmpuint (stats (fx).max_held, ==, 3);
  summary = rhea_repair_get_summary (fx->repair);
  g_assert_nonnull (strstr (summary, "1 throw taken to escape every instrumented frame at the hold limit"));
}

/* Two throws held: at the limit only the older one (b's, in the older
 * half of the hold) is taken as escaped; d's, recent, is still open and
 * its catcher c returns: d ends at its T:, e is c's child. */
static void
test_hold_overflow_keeps_recent_throw (Fixture *fx,
                                       gconstpointer data)
{
  rhea_repair_set_max_hold (fx->repair, 4);
  M (1, "B:a");
  M (2, "B:b");
  M (3, "T:b");
  M (4, "B:c"); /* the loop's next call */
  M (5, "B:d");
  M (6, "T:d");
  M (7, "B:e");
  M (8, "E:e"); /* the fourth held event */
  M (9, "E:c");
  check_process (fx,
                 "B 1 100 a\nB 2 100 b\n"
                 "E 3 100 b repair=exited-by-throw [repaired]\n"
                 "E 3 100 a repair=unwound-by-exception [repaired]\n"
                 "B 4 100 c\nB 5 100 d\n"
                 "E 6 100 d repair=exited-by-throw [repaired]\n"
                 "B 7 100 e\nE 8 100 e\nE 9 100 c\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).hold_overflows, ==, 1);
  g_assert_cmpuint (stats (fx).throws, ==, 2);
  g_assert_cmpuint (stats (fx).unmatched_returns, ==, 0);
}

/* With crash-tag every begin is held: at the limit (B:e, the sixth held
 * event) b's throw, in the older half, is taken as escaped and a's held
 * begin is renamed; x, c and d, begun before d's throw, go out and can no
 * longer be; e, still held, is renamed when c's return shows that an
 * exception without a T: left it. */
static void
test_hold_overflow_crash_tag (Fixture *fx,
                              gconstpointer data)
{
  rhea_repair_set_crash_tag (fx->repair, TRUE);
  rhea_repair_set_max_hold (fx->repair, 6);
  M (1, "B:a");
  M (2, "B:b");
  M (3, "T:b");
  M (4, "B:x"); /* the loop's next call */
  M (5, "B:c");
  M (6, "B:d");
  M (7, "T:d");
  M (8, "B:e");
  M (9, "E:c");
  M (10, "E:x");
  check_process (fx,
                 "B 1 100 a: CrashTag\nB 2 100 b\n"
                 "E 3 100 b repair=exited-by-throw [repaired]\n"
                 "E 3 100 a: CrashTag repair=unwound-by-exception [repaired]\n"
                 "B 4 100 x\nB 5 100 c\nB 6 100 d\n"
                 "E 7 100 d repair=exited-by-throw [repaired]\n"
                 "B 8 100 e: CrashTag\n"
                 "E 8 100 e: CrashTag repair=unwound-by-exception [repaired]\n"
                 "E 9 100 c\nE 10 100 x\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).hold_overflows, ==, 1);
  g_assert_cmpuint (stats (fx).crash_tagged, ==, 2);
}

/* Many threads, each with a frame open (so each holds everything), and a
 * total limit far below what they would hold together: the thread
 * holding the most is cut again and again, the total held never passes
 * the limit (plus the one event just repaired), and every thread's
 * output is still balanced and in order. */
#define TOTAL_THREADS 40
#define TOTAL_CALLS 30
#define TOTAL_LIMIT 64

static void
check_thread_output (GPtrArray *names,
                     gint64 *last_ts,
                     const TraceBatch *batch)
{
  for (guint i = 0; batch != NULL && i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];
      GPtrArray *stack = names->pdata[ev->tid - 1];
      const char *name = trace_batch_get_string (batch, ev->name);

      g_assert_cmpint (ev->ts, >=, last_ts[ev->tid - 1]);
      last_ts[ev->tid - 1] = ev->ts;
      if (ev->kind == TRACE_EVENT_SLICE_BEGIN)
        {
          g_ptr_array_add (stack, g_strdup (name));
          continue;
        }
      g_assert_cmpint (ev->kind, ==, TRACE_EVENT_SLICE_END);
      g_assert_cmpuint (stack->len, >, 0);
      g_assert_cmpstr (stack->pdata[stack->len - 1], ==, name);
      g_ptr_array_remove_index (stack, stack->len - 1);
    }
}

static void
test_hold_total_limit (Fixture *fx,
                       gconstpointer data)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  gint64 last_ts[TOTAL_THREADS] = { 0 };
  g_autoptr (TraceBatch) tail = NULL;
  g_autofree char *summary = NULL;
  gint64 ts = 1;
  RheaRepairStats st;

  rhea_repair_set_max_hold_total (fx->repair, TOTAL_LIMIT);
  for (guint t = 0; t < TOTAL_THREADS; t++)
    g_ptr_array_add (names, g_ptr_array_new_with_free_func (g_free));
  for (guint t = 1; t <= TOTAL_THREADS; t++)
    begin_on (fx, t, ts++, "B:Loop:run");
  for (guint c = 0; c < TOTAL_CALLS; c++)
    {
      for (guint t = 1; t <= TOTAL_THREADS; t++)
        {
          begin_on (fx, t, ts++, "B:Foo:bar");
          begin_on (fx, t, ts++, "E:Foo:bar");
        }
      rhea_repair_process (fx->repair, fx->batch);
      check_thread_output (names, last_ts, fx->batch);
      trace_batch_clear (fx->batch);
      /* nothing is synthesized before EOS: what did not come out is held */
      st = stats (fx);
      g_assert_cmpuint (st.events_in - st.events_out, <=, TOTAL_LIMIT);
    }
  tail = drain_all (fx->repair, fx->pool);
  check_thread_output (names, last_ts, tail);

  st = stats (fx);
  for (guint t = 0; t < TOTAL_THREADS; t++)
    g_assert_cmpuint (((GPtrArray *) names->pdata[t])->len, ==, 0);
  g_assert_cmpuint (st.events_out, ==, st.events_in + TOTAL_THREADS); /* + the outer ends */
  g_assert_cmpuint (st.closed_at_eos, ==, TOTAL_THREADS);
  g_assert_cmpuint (st.max_held_total, >, TOTAL_LIMIT);
  g_assert_cmpuint (st.max_held_total, <=, TOTAL_LIMIT + 1);
  g_assert_cmpuint (st.max_held, <, TOTAL_LIMIT);
  g_assert_cmpuint (st.hold_total_overflows, >, 0);
  g_assert_cmpuint (st.hold_overflows, ==, 0); /* no throw to decide */
  summary = rhea_repair_get_summary (fx->repair);
  g_assert_nonnull (strstr (summary, " holds cut at the total hold limit"));
}

static void
test_markers_off (Fixture *fx,
                  gconstpointer data)
{
  rhea_repair_set_markers (fx->repair, FALSE);
  M (1, "B:a");
  M (2, "E:a");
  END (3);
  check_process (fx, "B 1 100 B:a\nB 2 100 E:a\nE 3 100\n");
  check_drain (fx, "E 3 100 B:a repair=closed-at-eos [repaired]\n");
}

/* Begins without ends cannot grow a stack without bound. */
static void
test_too_deep (Fixture *fx,
               gconstpointer data)
{
  guint kept_begins = 0, kept_ends = 0;
  TraceBatch *out;

  for (guint i = 0; i < RHEA_REPAIR_MAX_DEPTH + 5; i++)
    M (i, "nested");
  for (guint i = 0; i < RHEA_REPAIR_MAX_DEPTH + 5; i++)
    END (RHEA_REPAIR_MAX_DEPTH + 5 + i);
  rhea_repair_process (fx->repair, fx->batch);
  out = fx->batch;
  for (guint i = 0; i < out->n_events; i++)
    {
      kept_begins += out->events[i].kind == TRACE_EVENT_SLICE_BEGIN;
      kept_ends += out->events[i].kind == TRACE_EVENT_SLICE_END;
    }
  g_assert_cmpuint (kept_begins, ==, RHEA_REPAIR_MAX_DEPTH);
  g_assert_cmpuint (kept_ends, ==, RHEA_REPAIR_MAX_DEPTH);
  /* the first 5 ends belong to the dropped begins */
  g_assert_cmpint (out->events[RHEA_REPAIR_MAX_DEPTH].ts, ==, RHEA_REPAIR_MAX_DEPTH + 5 + 5);
  g_assert_cmpuint (stats (fx).too_deep, ==, 10);
  g_assert_cmpuint (stats (fx).max_depth, ==, RHEA_REPAIR_MAX_DEPTH);
  check_drain (fx, "");
}

/* ---- which frame made a call ------------------------------------------------ */

/* r is a message the thread's loop handles (seen begun with nothing
 * open).  An exception without a marker leaves a; the loop's next call
 * of r shows it: a ends at the last time known inside it, before r, and
 * r is not nested in it. */
static void
test_exception_escaped_to_loop (Fixture *fx,
                                gconstpointer data)
{
  M (1, "B:r");
  M (2, "E:r");
  M (3, "B:a");
  M (4, "B:x");
  M (5, "E:x");
  M (6, "B:r");
  M (7, "E:r");
  check_process (fx,
                 "B 1 100 r\n"
                 "E 2 100 r\n");
  check_drain (fx,
               "B 3 100 a\n"
               "B 4 100 x\n"
               "E 5 100 x\n"
               "E 5 100 a repair=unwound-by-exception [repaired]\n"
               "B 6 100 r\n"
               "E 7 100 r\n");
  g_assert_cmpuint (stats (fx).suspended, ==, 1);
  g_assert_cmpuint (stats (fx).closed_at_eos, ==, 0);
}

/* The same guess, but a calls r too (first time seen): its own E: shows
 * it was running, the guess is undone and every end is the input's. */
static void
test_suspended_frame_returns (Fixture *fx,
                              gconstpointer data)
{
  M (1, "B:r");
  M (2, "E:r");
  M (3, "B:a");
  M (4, "B:r");
  M (5, "E:r");
  M (6, "E:a");
  check_process (fx,
                 "B 1 100 r\n"
                 "E 2 100 r\n"
                 "B 3 100 a\n"
                 "B 4 100 r\n"
                 "E 5 100 r\n"
                 "E 6 100 a\n");
  check_drain (fx, "");
  g_assert_cmpuint (stats (fx).suspended, ==, 1);
  g_assert_cmpuint (stats (fx).resumed, ==, 1);
  g_assert_null (rhea_repair_get_summary (fx->repair));
}

/* c is known to call x (it returned after calling it).  t throws; the
 * next call is x, made by c alone of the open frames: c caught the
 * exception and called x; t ends at its T:.  Then the loop calls c
 * again: an exception without a marker had left c, after x. */
static void
test_catcher_found_by_its_call (Fixture *fx,
                                gconstpointer data)
{
  M (1, "B:c");
  M (2, "B:x");
  M (3, "E:x");
  M (4, "E:c");
  M (5, "B:c");
  M (6, "B:t");
  M (7, "T:t");
  M (8, "B:x");
  M (9, "E:x");
  M (10, "B:c");
  M (11, "E:c");
  check_process (fx,
                 "B 1 100 c\n"
                 "B 2 100 x\n"
                 "E 3 100 x\n"
                 "E 4 100 c\n");
  check_drain (fx,
               "B 5 100 c\n"
               "B 6 100 t\n"
               "E 7 100 t repair=exited-by-throw [repaired]\n"
               "B 8 100 x\n"
               "E 9 100 x\n"
               "E 9 100 c repair=unwound-by-exception [repaired]\n"
               "B 10 100 c\n"
               "E 11 100 c\n");
  g_assert_cmpuint (stats (fx).suspended, ==, 2);
  g_assert_cmpuint (stats (fx).resumed, ==, 0);
}

/* c is known to call x (it returned after calling it); f was only seen
 * "calling" x, when an exception without a marker had left it.  Then a
 * catches its own throw (its T: holds the thread) and calls c, c calls f,
 * and an exception without a marker leaves f. */
static void
c_calls_x_then_f_left (Fixture *fx)
{
  M (1, "B:c");
  M (2, "B:x");
  M (3, "E:x");
  M (4, "E:c");
  M (5, "B:g");
  M (6, "B:f");
  M (7, "B:x");
  M (8, "E:x");
  M (9, "E:g");
  M (10, "B:a");
  M (11, "T:a");
  M (12, "B:c");
  M (13, "B:f");
}

/* The output of c_calls_x_then_f_left(), once c has returned: f ends at
 * its begin, as nothing it is known to make came first. */
#define C_CALLS_X_THEN_F_LEFT                          \
  "B 1 100 c\nB 2 100 x\nE 3 100 x\nE 4 100 c\n"       \
  "B 5 100 g\nB 6 100 f\nB 7 100 x\nE 8 100 x\n"       \
  "E 8 100 f repair=unwound-by-exception [repaired]\n" \
  "E 9 100 g\nB 10 100 a\nB 12 100 c\nB 13 100 f\n"    \
  "E 13 100 f repair=unwound-by-exception [repaired]\n"

/* c catches f's exception and calls x: c's return places f's end before
 * x, the call only c is known to make. */
static void
test_unmarked_end_before_catchers_call (Fixture *fx,
                                        gconstpointer data)
{
  c_calls_x_then_f_left (fx);
  M (14, "B:x");
  M (15, "E:x");
  M (16, "E:c");
  M (17, "E:a");
  check_process (fx,
                 C_CALLS_X_THEN_F_LEFT
                 "B 14 100 x\n"
                 "E 15 100 x\n"
                 "E 16 100 c\n"
                 "E 17 100 a\n");
  g_assert_cmpuint (stats (fx).unwound, ==, 2);
}

/* As above, but c's call x is itself left by an exception without a
 * marker, after its own call y: x ends after y, f before x (x was c's
 * call, not f's), and x comes out as c's call. */
static void
test_unmarked_frames_apart (Fixture *fx,
                            gconstpointer data)
{
  c_calls_x_then_f_left (fx);
  M (14, "B:x");
  M (15, "B:y");
  M (16, "E:y");
  M (17, "E:c");
  M (18, "E:a");
  check_process (fx,
                 C_CALLS_X_THEN_F_LEFT
                 "B 14 100 x\n"
                 "B 15 100 y\n"
                 "E 16 100 y\n"
                 "E 16 100 x repair=unwound-by-exception [repaired]\n"
                 "E 17 100 c\n"
                 "E 18 100 a\n");
  g_assert_cmpuint (stats (fx).unwound, ==, 3);
}

static void
test_stats_and_summary (Fixture *fx,
                        gconstpointer data)
{
  g_autofree char *line = NULL, *summary = NULL;
  RheaRepairStats st;

  M (1, "B:a");
  M (2, "B:b");
  M (3, "B:c");
  M (4, "T:c");
  M (5, "E:a");
  M (6, "E:zz");
  END (7);
  check_process (fx,
                 "B 1 100 a\nB 2 100 b\nB 3 100 c\n"
                 "E 4 100 c repair=exited-by-throw [repaired]\n"
                 "E 4 100 b repair=unwound-by-exception [repaired]\n"
                 "E 5 100 a\n");
  st = stats (fx);
  line = rhea_repair_stats_to_string (&st);
  g_assert_cmpstr (line, ==,
                   "in=7 out=6 methods=3 returns=1 throws=1 throws-caught=0 unwound=1 "
                   "missing-end=0 closed-at-eos=0 unmatched-E=1 unmatched-T=0 unmatched-end=1 "
                   "marker-ends=0 crash-tagged=0 hold-overflows=0 hold-total-overflows=0 too-deep=0 "
                   "suspended=0 resumed=0 max-depth=3 max-held=4 max-held-total=4");
  summary = rhea_repair_get_summary (fx->repair);
  g_assert_cmpstr (summary, ==,
                   "rhea-repair: 1 method unwound by an exception (closed at the last time "
                   "known inside it), 1 method exited by a throw, 1 unmatched E: dropped, "
                   "1 unmatched slice end dropped");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, fn) g_test_add ("/rhea/" path, Fixture, NULL, fixture_set_up, fn, fixture_tear_down)
  ADD ("balanced", test_balanced);
  ADD ("throw-caught-one-level-up", test_throw_caught_one_level_up);
  ADD ("unwinding-several-frames", test_unwinding_several_frames);
  ADD ("throw-from-uninstrumented-code", test_throw_from_uninstrumented_code);
  ADD ("recursion", test_recursion);
  ADD ("calls/escaped-to-loop", test_exception_escaped_to_loop);
  ADD ("calls/suspended-frame-returns", test_suspended_frame_returns);
  ADD ("calls/catcher-found-by-its-call", test_catcher_found_by_its_call);
  ADD ("calls/unmarked-end-before-catchers-call", test_unmarked_end_before_catchers_call);
  ADD ("calls/unmarked-frames-apart", test_unmarked_frames_apart);
  ADD ("recursion-with-throw", test_recursion_with_throw);
  ADD ("throw-then-return-same-method", test_throw_then_return_same_method);
  ADD ("unmatched-markers", test_unmatched_markers);
  ADD ("cut-off-capture", test_cut_off_capture);
  ADD ("throw-at-eos", test_throw_at_eos);
  ADD ("plain/unbalanced", test_plain_unbalanced);
  ADD ("plain/inside-method", test_plain_inside_method);
  ADD ("plain/complete-past-closing-end", test_complete_past_closing_end);
  ADD ("marker-ends/present", test_marker_ends_present);
  ADD ("marker-ends/absent", test_marker_ends_absent);
  ADD ("threads-and-batches", test_threads_and_batches);
  ADD ("drain-thread-by-thread", test_drain_thread_by_thread);
  ADD ("args-survive-hold", test_args_survive_hold);
  ADD ("crash-tag", test_crash_tag);
  ADD ("hold-overflow", test_hold_overflow);
  ADD ("hold-overflow-keeps-recent-throw", test_hold_overflow_keeps_recent_throw);
  ADD ("hold-overflow-crash-tag", test_hold_overflow_crash_tag);
  ADD ("hold-total-limit", test_hold_total_limit);
  ADD ("markers-off", test_markers_off);
  ADD ("too-deep", test_too_deep);
  ADD ("stats-and-summary", test_stats_and_summary);
#undef ADD
  return g_test_run ();
}
