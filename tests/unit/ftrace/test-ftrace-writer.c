/* Unit tests of the ftrace text engine's writer: kernel records written
 * as ftrace lines, and read back by the parser to the same record. */
#include <string.h>

#include "ftrace-test-util.h"

static TraceEvent
make_switch (TraceStringPool *pool,
             gint64 prev_state)
{
  TraceEvent ev;

  memset (&ev, 0, sizeof ev);
  ev.kind = TRACE_EVENT_SCHED_SWITCH;
  ev.ts = 10000000000 + 1000;
  ev.pid = 40;
  ev.tid = 42;
  ev.cpu = 3;
  ev.u.sched_switch.prev_tid = 42;
  ev.u.sched_switch.prev_prio = 120;
  ev.u.sched_switch.prev_state = prev_state;
  ev.u.sched_switch.prev_comm = trace_string_pool_intern (pool, "app");
  ev.u.sched_switch.next_tid = 43;
  ev.u.sched_switch.next_prio = 110;
  ev.u.sched_switch.next_comm = trace_string_pool_intern (pool, "worker");
  return ev;
}

static void
test_sched_switch_line (void)
{
  TraceStringPool *pool = trace_string_pool_get_default ();
  g_autoptr (FtraceTextWriter) w = ftrace_text_writer_new (pool);
  g_autoptr (GString) line = g_string_new (NULL);
  TraceEvent ev = make_switch (pool, 0x1 | 0x800);

  ftrace_text_writer_note_thread_name (w, 42, trace_string_pool_intern (pool, "app-main"));
  ftrace_text_write_record (w, line, NULL, &ev);
  g_assert_cmpstr (line->str, ==,
                   "app-main-42 (   40) [003] .... 10.000001: sched_switch: prev_comm=app prev_pid=42 prev_prio=120 "
                   "prev_state=S+ ==> next_comm=worker next_pid=43 next_prio=110\n");
}

/* One task-state table serves both directions: what the writer writes,
 * the parser reads back to the same bits. */
static void
test_task_state_round_trip (void)
{
  static const gint64 states[] = { 0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x200, 0x400,
                                   0x402, 0x403, 0x800, 0x801, 0x82, 0x101, 0xfff, -1 };
  TraceStringPool *pool = trace_string_pool_get_default ();
  g_autoptr (FtraceTextWriter) w = ftrace_text_writer_new (pool);
  g_autoptr (GString) line = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (states); i++)
    {
      TraceEvent ev = make_switch (pool, states[i]);
      g_autoptr (TraceBatch) b = NULL;
      const TraceEvent *back;

      ftrace_text_write_record (w, line, NULL, &ev);
      g_test_message ("%s", line->str);
      b = parse_text (line->str, NULL);
      back = nth_of_kind (b, TRACE_EVENT_SCHED_SWITCH, 0);
      g_assert_nonnull (back);
      g_assert_cmpint (back->u.sched_switch.prev_state, ==, states[i]);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/writer/sched-switch-line", test_sched_switch_line);
  g_test_add_func ("/ftrace/writer/task-state-round-trip", test_task_state_round_trip);
  return g_test_run ();
}
