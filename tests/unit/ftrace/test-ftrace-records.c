/* Unit tests of the ftrace engine's typed kernel events
 * (ftrace-kernel-events.c): a LEARN record gives exactly the events its
 * text line gives, a GIVEN record one event on the caller's pid and
 * nothing learnt. The typed values are written here by hand from the
 * lines, not derived by the code under test.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ftrace-test-util.h"

#define NS(s, us) ((gint64) (s) *1000000000 + (gint64) (us) *1000)

static const char lines[] =
    "  uether-209   (  209) [000] d..4  1212.465395: sched_waking: comm=adbd pid=211 prio=120 success=1 target_cpu=002\n"
    "  uether-209   (  209) [000] ...2  1212.465441: sched_switch: prev_comm=uether prev_pid=209 prev_prio=120 "
    "prev_state=1 ==> next_comm=adbd next_pid=211 next_prio=120\n"
    "  adbd-211   (  211) [000] ...2  1212.465500: task_newtask: pid=300 comm=adbd clone_flags=10000 oom_score_adj=-1\n"
    "  adbd-300   (  211) [001] ...2  1212.465600: task_rename: pid=300 oldcomm=adbd newcomm=worker 1 "
    "oom_score_adj=-1\n"
    "  <idle>-0   (-----) [001] ...2  1212.465700: cpu_frequency: state=1800000 cpu_id=1\n"
    "  adbd-300   (  211) [001] ...2  1212.465800: sched_process_exit: comm=worker 1 pid=300 prio=120\n";

static FtraceRecord
learn (const char *comm,
       gint64 tid,
       gint64 tgid,
       gint32 cpu,
       gint64 ts)
{
  return (FtraceRecord){ .ts = ts,
                         .cpu = cpu,
                         .tid = tid,
                         .tgid = tgid,
                         .comm = comm,
                         .comm_len = strlen (comm),
                         .threads = FTRACE_THREADS_LEARN };
}

static FtraceName
bytes (const char *s)
{
  return (FtraceName){ s, strlen (s), 0 };
}

/* The events of `lines`, as typed records. */
static void
add_records (FtraceParser *p,
             TraceBatch *b)
{
  FtraceRecord rec;
  FtraceKernelEvent e;

  rec = learn ("uether", 209, 209, 0, NS (1212, 465395));
  e = (FtraceKernelEvent){ TRACE_EVENT_SCHED_WAKING,
                           .u.wakeup = { bytes ("adbd"), .tid = 211, .prio = 120, .target_cpu = 2, .success = 1 } };
  ftrace_parser_add_kernel (p, b, &rec, &e);
  rec = learn ("uether", 209, 209, 0, NS (1212, 465441));
  e = (FtraceKernelEvent){ TRACE_EVENT_SCHED_SWITCH,
                           .u.sched_switch = { .prev_comm = bytes ("uether"),
                                               .prev_tid = 209,
                                               .prev_prio = 120,
                                               .prev_state = TRACE_TASK_STATE_INTERRUPTIBLE,
                                               .next_comm = bytes ("adbd"),
                                               .next_tid = 211,
                                               .next_prio = 120 } };
  ftrace_parser_add_kernel (p, b, &rec, &e);
  rec = learn ("adbd", 211, 211, 0, NS (1212, 465500));
  e = (FtraceKernelEvent){ TRACE_EVENT_TASK_NEWTASK,
                           .u.task = { .comm = bytes ("adbd"),
                                       .tid = 300,
                                       .prio = -1,
                                       .clone_flags = 0x10000,
                                       .has_oom_score_adj = TRUE,
                                       .oom_score_adj = -1 } };
  ftrace_parser_add_kernel (p, b, &rec, &e);
  rec = learn ("adbd", 300, 211, 1, NS (1212, 465600));
  e = (FtraceKernelEvent){ TRACE_EVENT_TASK_RENAME,
                           .u.task = { .comm = bytes ("worker 1"),
                                       .old_comm = bytes ("adbd"),
                                       .tid = 300,
                                       .prio = -1,
                                       .has_oom_score_adj = TRUE,
                                       .oom_score_adj = -1 } };
  ftrace_parser_add_kernel (p, b, &rec, &e);
  rec = learn ("<idle>", 0, TRACE_ID_UNKNOWN, 1, NS (1212, 465700));
  e = (FtraceKernelEvent){ TRACE_EVENT_CPU_FREQUENCY, .u.cpu = { 1800000, 1 } };
  ftrace_parser_add_kernel (p, b, &rec, &e);
  rec = learn ("adbd", 300, 211, 1, NS (1212, 465800));
  e = (FtraceKernelEvent){ TRACE_EVENT_SCHED_PROCESS_EXIT,
                           .u.task = { .comm = bytes ("worker 1"), .tid = 300, .prio = 120 } };
  ftrace_parser_add_kernel (p, b, &rec, &e);
}

static void
test_learn_is_text (void)
{
  g_autoptr (FtraceParser) text_parser = NULL;
  g_autoptr (TraceBatch) text = parse_text (lines, &text_parser);
  g_autoptr (FtraceParser) p = ftrace_parser_new (text->pool);
  g_autoptr (TraceBatch) typed = trace_batch_new (text->pool, 64);

  add_records (p, typed);
  g_assert_cmpuint (typed->n_events, ==, text->n_events);
  /* the names and the task column taught the same THREAD_NAMEs */
  g_assert_cmpuint (count_kind (typed, TRACE_EVENT_THREAD_NAME), >, 0);
  for (guint i = 0; i < text->n_events; i++)
    {
      TraceEvent x = text->events[i], y = typed->events[i];

      assert_same_args (text, &x, typed, &y);
      x.first_arg = y.first_arg = 0;
      g_assert_cmpmem (&x, sizeof x, &y, sizeof y);
    }
  g_assert_cmpuint (ftrace_parser_get_stats (p)->lines, ==, 6);
  g_assert_cmpuint (ftrace_parser_get_stats (p)->events, ==, ftrace_parser_get_stats (text_parser)->events);
}

/* A reader that knows its threads: its pid, its names, nothing learnt. */
static void
test_given (void)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 16);
  guint32 name = trace_string_pool_intern (b->pool, "sched_switch");
  guint32 comm = trace_string_pool_intern (b->pool, "adbd");
  FtraceRecord rec = { .ts = 5, .cpu = 3, .tid = 209, .tgid = 77, .name = name, .threads = FTRACE_THREADS_GIVEN };
  FtraceKernelEvent e = { TRACE_EVENT_SCHED_SWITCH,
                          .u.sched_switch = { .prev_tid = 209, .next_comm = { NULL, 0, comm }, .next_tid = 211 } };
  gint64 pid;

  ftrace_parser_add_kernel (p, b, &rec, &e);
  g_assert_cmpuint (b->n_events, ==, 1);
  check_event (b, 0, TRACE_EVENT_SCHED_SWITCH, 5, 77, 209, "sched_switch");
  g_assert_cmpint (b->events[0].cpu, ==, 3);
  g_assert_cmpstr (str (b, b->events[0].u.sched_switch.next_comm), ==, "adbd");
  g_assert_cmpuint (b->events[0].u.sched_switch.prev_comm, ==, 0);
  g_assert_false (ftrace_parser_lookup_thread (p, 211, &pid, NULL));
  g_assert_cmpuint (ftrace_parser_get_stats (p)->lines, ==, 0);
}

/* A print's text is read as tracing_mark_write's; what is no marker is
 * a problem of its record's number. */
static void
test_print (void)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 16);
  FtraceRecord rec = learn ("app", 40, TRACE_ID_UNKNOWN, 2, 1000);

  ftrace_parser_add_print (p, b, &rec, "B|40|load\n", 10);
  ftrace_parser_add_print (p, b, &rec, "no marker", 9);
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_SLICE_BEGIN), ==, 1);
  check_event (b, b->n_events - 1, TRACE_EVENT_SLICE_BEGIN, 1000, 40, 40, "load");
  g_assert_cmpuint (ftrace_parser_get_stats (p)->problems[FTRACE_PROBLEM_UNKNOWN_MARKER], ==, 1);
  g_assert_cmpuint (ftrace_parser_get_stats (p)->first_lines[FTRACE_PROBLEM_UNKNOWN_MARKER][0], ==, 2);
}

/* A reader that keeps its prints: what is no marker is left to it. */
static void
test_print_given (void)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 16);
  FtraceRecord rec = { .ts = 1000, .cpu = 2, .tid = 41, .tgid = TRACE_ID_UNKNOWN, .threads = FTRACE_THREADS_GIVEN };

  g_assert_true (ftrace_parser_add_print (p, b, &rec, "B|40|load", 9));
  g_assert_false (ftrace_parser_add_print (p, b, &rec, "no marker", 9));
  g_assert_false (ftrace_parser_add_print (p, b, &rec, "B|x|bad", 7));
  g_assert_cmpuint (b->n_events, ==, 1);
  /* the marker names the process of a thread the reader did not know */
  check_event (b, 0, TRACE_EVENT_SLICE_BEGIN, 1000, 40, 41, "load");
  g_assert_cmpuint (ftrace_parser_get_stats (p)->problems[FTRACE_PROBLEM_UNKNOWN_MARKER], ==, 0);
  g_assert_cmpuint (ftrace_parser_get_stats (p)->problems[FTRACE_PROBLEM_MALFORMED_MARKER], ==, 0);
  g_assert_cmpuint (ftrace_parser_get_stats (p)->lines, ==, 0);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/records/learn-is-text", test_learn_is_text);
  g_test_add_func ("/ftrace/records/given", test_given);
  g_test_add_func ("/ftrace/records/print", test_print);
  g_test_add_func ("/ftrace/records/print-given", test_print_given);
  return g_test_run ();
}
