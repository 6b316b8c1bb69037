/* Unit tests of ftrace-src's line parser: kernel events (FORMATS.md §1.2
 * "Special line situations", §1.4) and their typed records. */
#include <string.h>

#include "ftrace-fields-inline.h"
#include "ftrace-test-util.h"

#define SEC(s, us) ((gint64) (s) *1000000000 + (gint64) (us) *1000)

static TraceBatch *
parse_event (const char *event_and_payload,
             FtraceParser **p)
{
  g_autofree char *line = g_strdup_printf ("<...>-42 (40) [003] d..3 10.000000: %s\n", event_and_payload);

  return parse_text (line, p);
}

/* The last event, after any THREAD_NAME the line announced. */
static const TraceEvent *
last (TraceBatch *b)
{
  g_assert_cmpuint (b->n_events, >, 0);
  return &b->events[b->n_events - 1];
}

static void
test_prev_state (void)
{
  static const struct
  {
    const char *text;
    gint64 state;
  } cases[] = {
    { "R", 0 },
    { "S", 0x1 },
    { "D", 0x2 },
    { "T", 0x4 },
    { "t", 0x8 },
    { "X", 0x10 },
    { "Z", 0x20 },
    { "x", 0x40 },
    { "K", 0x80 },
    { "W", 0x100 },
    { "P", 0x200 },
    { "N", 0x400 },
    { "I", 0x402 },
    { "R+", 0x800 },
    { "D|K", 0x82 },
    { "DK", 0x82 },
    { "S|W", 0x101 },
    { "64", 64 },
    { "1024", 1024 },
    { "?", -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (
          "sched_switch: prev_comm=a prev_pid=42 prev_prio=120 prev_state=%s ==> next_comm=b next_pid=43 next_prio=110",
          cases[i].text);
      g_autoptr (TraceBatch) b = parse_event (text, NULL);

      g_test_message ("prev_state=%s", cases[i].text);
      g_assert_cmpint (last (b)->u.sched_switch.prev_state, ==, cases[i].state);
    }
}

static void
test_sched_switch_forms (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "\t   <...>-15430 [006]  7115.449594: sched_switch:          prev_comm=trace-cmd prev_pid=15430 prev_prio=120 prev_state=64 next_comm=swapper/6 next_pid=0 next_prio=120\n"
      "  trace-cmd-1234 [000] 100.000001: sched_switch: trace-cmd:1234 [120] S ==> swapper/0:0 [120]\n"
      "  binder-1700 [001] 100.000002: sched_switch: Binder:1689_5:1700 [110] R+ ==> kworker/u16:1:77 [120]\n",
      NULL);
  const TraceEvent *e;

  /* trace-cmd without `==>`: the prev_comm names the `<...>` thread */
  g_assert_cmpuint (b->n_events, ==, 7);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (7115, 449594), TRACE_ID_UNKNOWN, 15430, "trace-cmd");
  check_event (b, 1, TRACE_EVENT_SCHED_SWITCH, SEC (7115, 449594), TRACE_ID_UNKNOWN, 15430, NULL);
  e = &b->events[1];
  g_assert_cmpint (e->u.sched_switch.prev_state, ==, 64);
  g_assert_cmpint (e->u.sched_switch.next_tid, ==, 0);
  g_assert_cmpint (e->cpu, ==, 6);
  g_assert_cmpuint (e->n_args, ==, 0);
  /* trace-cmd's short form */
  check_event (b, 3, TRACE_EVENT_SCHED_SWITCH, SEC (100, 1), TRACE_ID_UNKNOWN, 1234, NULL);
  e = &b->events[3];
  g_assert_cmpint (e->u.sched_switch.prev_tid, ==, 1234);
  g_assert_cmpint (e->u.sched_switch.prev_prio, ==, 120);
  g_assert_cmpint (e->u.sched_switch.prev_state, ==, 1);
  g_assert_cmpint (e->u.sched_switch.next_tid, ==, 0);
  g_assert_cmpstr (str (b, e->u.sched_switch.prev_comm), ==, "trace-cmd");
  g_assert_cmpstr (str (b, e->u.sched_switch.next_comm), ==, "swapper/0");
  /* comms holding ':' */
  check_event (b, 5, TRACE_EVENT_THREAD_NAME, SEC (100, 2), TRACE_ID_UNKNOWN, 77, "kworker/u16:1");
  e = &b->events[6];
  g_assert_cmpint (e->u.sched_switch.prev_tid, ==, 1700);
  g_assert_cmpint (e->u.sched_switch.prev_state, ==, 0x800);
  g_assert_cmpint (e->u.sched_switch.next_tid, ==, 77);
  g_assert_cmpint (e->u.sched_switch.next_prio, ==, 120);
  g_assert_cmpstr (str (b, e->u.sched_switch.prev_comm), ==, "Binder:1689_5");
}

static void
test_sched_switch_incomplete (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "\t    bash-14840 [005]  7115.450093: sched_switch:          prev_comm=bash prev_pid=14840\n", &p);
  const TraceEvent *e;

  /* kept as a raw record so nothing is lost, and counted */
  g_assert_cmpuint (b->n_events, ==, 2);
  check_event (b, 1, TRACE_EVENT_FTRACE, SEC (7115, 450093), TRACE_ID_UNKNOWN, 14840, "sched_switch");
  e = &b->events[1];
  g_assert_cmpuint (e->n_args, ==, 2);
  g_assert_cmpstr (str (b, find_arg (b, e, "prev_comm")->v.s), ==, "bash");
  g_assert_cmpint (find_arg (b, e, "prev_pid")->v.i, ==, 14840);
  g_assert_cmpuint (ftrace_parser_get_stats (p)->problems[FTRACE_PROBLEM_INCOMPLETE_EVENT], ==, 1);
}

/* Returns: the first THREAD_NAME of @tid in @b, or %NULL */
static const TraceEvent *
nth_thread_name_of (TraceBatch *b,
                    gint64 tid)
{
  for (guint i = 0; i < b->n_events; i++)
    if (b->events[i].kind == TRACE_EVENT_THREAD_NAME && b->events[i].tid == tid)
      return &b->events[i];
  return NULL;
}

static void
test_wakeups (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "  ACCS0-2716  ( 2519) [000] d..5 168758.662877: sched_waking: comm=Binder:924_3 pid=1200 prio=120 target_cpu=001\n"
      "  HeapTaskDaemon-2532  ( 2519) [000] dnh2 168758.663097: sched_wakeup: comm=rcu_preempt pid=7 prio=98 target_cpu=000)\n"
      "  Binder_4-280   (  184) [000] d..5 514769.086330: sched_wakeup: comm=Binder_5 pid=1158 prio=120 success=1 target_cpu=002 state=W\n"
      "  <...>-19427 [000]  6550.018664: sched_wakeup_new:      comm=shutils pid=19428 prio=120 success=1 target_cpu=2\n"
      "  <...>-19427 [000]  6550.018665: sched_wakeup: kworker/0:1:42 [120] success=1 CPU:002\n",
      NULL);
  const TraceEvent *e;

  e = nth_of_kind (b, TRACE_EVENT_SCHED_WAKING, 0);
  g_assert_nonnull (e);
  g_assert_cmpint (e->pid, ==, 2519);
  g_assert_cmpint (e->tid, ==, 2716);
  g_assert_cmpint (e->u.wakeup.tid, ==, 1200);
  g_assert_cmpint (e->u.wakeup.prio, ==, 120);
  g_assert_cmpint (e->u.wakeup.target_cpu, ==, 1);
  g_assert_cmpint (e->u.wakeup.success, ==, -1);
  g_assert_cmpstr (str (b, e->u.wakeup.comm), ==, "Binder:924_3");
  /* OpenHarmony's stray `)` does not lose the record */
  e = nth_of_kind (b, TRACE_EVENT_SCHED_WAKEUP, 0);
  g_assert_cmpint (e->u.wakeup.tid, ==, 7);
  g_assert_cmpint (e->u.wakeup.target_cpu, ==, 0);
  /* a field the record has no member for travels as an arg */
  e = nth_of_kind (b, TRACE_EVENT_SCHED_WAKEUP, 1);
  g_assert_cmpint (e->u.wakeup.success, ==, 1);
  g_assert_cmpint (e->u.wakeup.target_cpu, ==, 2);
  g_assert_cmpuint (e->n_args, ==, 1);
  g_assert_cmpstr (str (b, find_arg (b, e, "state")->v.s), ==, "W");
  e = nth_of_kind (b, TRACE_EVENT_SCHED_WAKEUP_NEW, 0);
  g_assert_cmpint (e->tid, ==, 19427);
  g_assert_cmpint (e->u.wakeup.tid, ==, 19428);
  g_assert_cmpstr (str (b, e->u.wakeup.comm), ==, "shutils");
  /* trace-cmd's short form */
  e = nth_of_kind (b, TRACE_EVENT_SCHED_WAKEUP, 2);
  g_assert_cmpint (e->u.wakeup.tid, ==, 42);
  g_assert_cmpint (e->u.wakeup.prio, ==, 120);
  g_assert_cmpint (e->u.wakeup.target_cpu, ==, 2);
  g_assert_cmpint (e->u.wakeup.success, ==, 1);
  g_assert_cmpstr (str (b, e->u.wakeup.comm), ==, "kworker/0:1");
  /* the three named writers, and the wakee of sched_waking only: as in
   * trace_processor, sched_wakeup and sched_wakeup_new name no one */
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_THREAD_NAME), ==, 4);
  g_assert_null (nth_thread_name_of (b, 7));
  g_assert_nonnull (nth_thread_name_of (b, 1200));
}

/* As trace_processor: the latest of a line's task, sched_switch's prev
 * and next comm and sched_waking's comm is a thread's name. */
static void
test_switch_comms_rename (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "  uether-209   (  209) [000] d..4  1212.465395: sched_waking: comm=adbd pid=211 prio=120 target_cpu=000\n"
      "  uether-209   (  209) [000] ...2  1212.465441: sched_switch: prev_comm=adbd prev_pid=209 prev_prio=120 "
      "prev_state=S ==> next_comm=adbd next_pid=211 next_prio=120\n"
      "  dsx_rebuild_wor-211 (  211) [000] ...2  1212.465500: sched_switch: prev_comm=adbd prev_pid=211 prev_prio=120 "
      "prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n",
      NULL);
  const char *last_209 = NULL, *last_211 = NULL;

  for (guint i = 0; i < b->n_events; i++)
    if (b->events[i].kind == TRACE_EVENT_THREAD_NAME)
      {
        if (b->events[i].tid == 209)
          last_209 = str (b, b->events[i].name);
        else if (b->events[i].tid == 211)
          last_211 = str (b, b->events[i].name);
      }
  /* 209: "uether" from its lines, then "adbd" from the switch away */
  g_assert_cmpstr (last_209, ==, "adbd");
  /* 211: "adbd" (waking, switch to it), "dsx_rebuild_wor" (its line), then
   * "adbd" again from the switch away from it */
  g_assert_cmpstr (last_211, ==, "adbd");
  g_assert_cmpuint (count_kind (b, TRACE_EVENT_THREAD_NAME), ==, 5);
}

static void
test_task_events (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-32347   (  32347) [007] .... 239854.417866: task_newtask: pid=32390 comm=.sample.android clone_flags=3d0f00 oom_score_adj=0\n"
      "<...>-32390   (  32347) [005] ...1 239854.417989: task_rename: pid=32390 oldcomm=.sample.android newcomm=Thread 2 oom_score_adj=0\n"
      "<...>-32347   (  32347) [007] .... 239854.5: task_newtask: pid=32400 comm=sh clone_flags=1200011 oom_score_adj=0\n"
      "<...>-32400   [007] .... 239854.6: sched_process_exit: comm=sh pid=32400 prio=120\n"
      "<...>-32400   [007] .... 239854.7: sched_process_free: comm=sh pid=32400 prio=120\n",
      NULL);
  const TraceEvent *e;

  g_assert_cmpuint (b->n_events, ==, 8);
  /* a thread of the writer's process (CLONE_THREAD) */
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (239854, 417866), 32347, 32390, ".sample.android");
  check_event (b, 1, TRACE_EVENT_TASK_NEWTASK, SEC (239854, 417866), 32347, 32347, NULL);
  e = &b->events[1];
  g_assert_cmpint (e->u.task.tid, ==, 32390);
  g_assert_cmpstr (str (b, e->u.task.comm), ==, ".sample.android");
  g_assert_cmpuint (e->u.task.clone_flags, ==, 0x3d0f00);
  g_assert_cmpint (find_arg (b, e, "oom_score_adj")->v.i, ==, 0);
  /* new names may hold spaces */
  check_event (b, 2, TRACE_EVENT_THREAD_NAME, SEC (239854, 417989), 32347, 32390, "Thread 2");
  e = &b->events[3];
  g_assert_cmpuint (e->kind, ==, TRACE_EVENT_TASK_RENAME);
  g_assert_cmpstr (str (b, e->u.task.comm), ==, "Thread 2");
  g_assert_cmpstr (str (b, e->u.task.old_comm), ==, ".sample.android");
  /* no CLONE_THREAD: a new process, its own pid */
  check_event (b, 4, TRACE_EVENT_THREAD_NAME, SEC (239854, 500000), 32400, 32400, "sh");
  check_event (b, 6, TRACE_EVENT_SCHED_PROCESS_EXIT, SEC (239854, 600000), 32400, 32400, NULL);
  g_assert_cmpint (b->events[6].u.task.tid, ==, 32400);
  g_assert_cmpint (b->events[6].u.task.prio, ==, 120);
  g_assert_cmpstr (str (b, b->events[6].u.task.comm), ==, "sh");
  check_event (b, 7, TRACE_EVENT_SCHED_PROCESS_FREE, SEC (239854, 700000), 32400, 32400, NULL);
}

static void
test_cpu_events (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "     kworker/0:0-3410  [000]  6550.056870: cpu_frequency:        state=600000 cpu_id=0\n"
      "          <idle>-0     [000] d..2  1136.097346: cpu_idle: state=4294967295 cpu_id=0\n"
      "          <idle>-0     [000] d..2  1136.097347: cpu_idle: state=1\n",
      &p);

  g_assert_cmpuint (b->n_events, ==, 4);
  check_event (b, 1, TRACE_EVENT_CPU_FREQUENCY, SEC (6550, 56870), TRACE_ID_UNKNOWN, 3410, NULL);
  g_assert_cmpint (b->events[1].u.cpu.state, ==, 600000);
  g_assert_cmpint (b->events[1].u.cpu.cpu_id, ==, 0);
  check_event (b, 2, TRACE_EVENT_CPU_IDLE, SEC (1136, 97346), 0, 0, NULL);
  g_assert_cmpint (b->events[2].u.cpu.state, ==, G_GINT64_CONSTANT (4294967295));
  check_event (b, 3, TRACE_EVENT_FTRACE, SEC (1136, 97347), 0, 0, "cpu_idle");
  g_assert_cmpuint (ftrace_parser_get_stats (p)->problems[FTRACE_PROBLEM_INCOMPLETE_EVENT], ==, 1);
}

static void
test_raw_args (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "  VideoDecMsgThr-32342 [007] 85636.208531: clock_set_rate:       video_subcore0_clk_src state=200000000 cpu_id=7\n"
      "  x-1 [000] 1.000001: sched_stat_runtime: comm=Jit thread pool pid=1 runtime=7778999 [ns] vruntime=123 [ns]\n"
      "  x-1 [000] 1.000002: binder_transaction: transaction=5150 dest_node=0 reply=1 flags=0x20 code=0x3 err=-4553\n"
      "  x-1 [000] 1.000003: binder_command: cmd=0x40406300 BC_TRANSACTION\n"
      "  x-1 [000] 1.000004: thermal_power_allocator: [FAILED TO PARSE] tz_id=0 req_power=ARRAY[00, 00, 7d] total=125\n"
      "  x-1 [000] 1.000005: bputs:                0xffff0000080feeb8s: equals_event: my_field=foo=bar\n"
      "  x-1 [000] 1.000006: workqueue_execute_start: work struct 00000000e8ba3a1c: function dbs_work_handler\n"
      "  x-1 [000] 1.000007: ipi_entry: (Rescheduling interrupts)\n"
      "  x-1 [000] 1.000008: sched_blocked_reason: pid=269 iowait=0 caller=worker_thread+0x534/0x820\n",
      NULL);
  const TraceEvent *e;

  g_assert_cmpuint (count_kind (b, TRACE_EVENT_FTRACE), ==, 9);
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 0);
  g_assert_cmpstr (str (b, e->name), ==, "clock_set_rate");
  g_assert_cmpuint (e->n_args, ==, 3);
  g_assert_cmpstr (str (b, find_arg (b, e, "name")->v.s), ==, "video_subcore0_clk_src");
  g_assert_cmpuint (find_arg (b, e, "state")->type, ==, TRACE_ARG_INT);
  g_assert_cmpint (find_arg (b, e, "state")->v.i, ==, 200000000);
  g_assert_cmpint (find_arg (b, e, "cpu_id")->v.i, ==, 7);
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 1);
  g_assert_cmpstr (str (b, find_arg (b, e, "comm")->v.s), ==, "Jit thread pool");
  g_assert_cmpint (find_arg (b, e, "runtime")->v.i, ==, 7778999);
  g_assert_cmpint (find_arg (b, e, "vruntime")->v.i, ==, 123);
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 2);
  g_assert_cmpuint (find_arg (b, e, "flags")->type, ==, TRACE_ARG_UINT);
  g_assert_cmpuint (find_arg (b, e, "flags")->v.u, ==, 0x20);
  g_assert_cmpuint (find_arg (b, e, "code")->v.u, ==, 3);
  g_assert_cmpint (find_arg (b, e, "err")->v.i, ==, -4553);
  g_assert_cmpint (find_arg (b, e, "dest_node")->v.i, ==, 0);
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 3);
  g_assert_cmpuint (find_arg (b, e, "cmd")->type, ==, TRACE_ARG_STRING);
  g_assert_cmpstr (str (b, find_arg (b, e, "cmd")->v.s), ==, "0x40406300 BC_TRANSACTION");
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 4);
  g_assert_cmpstr (str (b, find_arg (b, e, "name")->v.s), ==, "[FAILED TO PARSE]");
  g_assert_cmpstr (str (b, find_arg (b, e, "req_power")->v.s), ==, "ARRAY[00, 00, 7d]");
  g_assert_cmpint (find_arg (b, e, "total")->v.i, ==, 125);
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 5);
  g_assert_cmpstr (str (b, e->name), ==, "bputs");
  g_assert_cmpstr (str (b, find_arg (b, e, "name")->v.s), ==, "equals_event:");
  g_assert_cmpstr (str (b, find_arg (b, e, "my_field")->v.s), ==, "foo=bar");
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 6);
  g_assert_cmpuint (find_arg (b, e, "work")->type, ==, TRACE_ARG_POINTER);
  g_assert_cmpuint (find_arg (b, e, "work")->v.u, ==, 0xe8ba3a1c);
  g_assert_cmpstr (str (b, find_arg (b, e, "function")->v.s), ==, "dbs_work_handler");
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 7);
  g_assert_cmpuint (e->n_args, ==, 1);
  g_assert_cmpstr (str (b, find_arg (b, e, "name")->v.s), ==, "(Rescheduling interrupts)");
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 8);
  g_assert_cmpstr (str (b, find_arg (b, e, "caller")->v.s), ==, "worker_thread+0x534/0x820");
}

static void
test_equals_values (void)
{
  /* trappy_trace_equals.txt: values holding `=` stay whole */
  static const char *const values[] = { "foo", "foo=bar", "foo=bar=baz", "1=2", "1=foo", "1foo=2" };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *text = g_strdup_printf ("bputs: 0xffff0000080feeb8s: equals_event: my_field=%s", values[i]);
      g_autoptr (TraceBatch) b = parse_event (text, NULL);
      const TraceArg *a = find_arg (b, last (b), "my_field");

      g_assert_cmpuint (a->type, ==, TRACE_ARG_STRING);
      g_assert_cmpstr (str (b, a->v.s), ==, values[i]);
    }
}

/* Whether ftrace_split_usual() took @payload; when it did, that it gave
 * what ftrace_split_fields() gives, field for field. */
static gboolean
split_usual_as_general (const char *payload)
{
  FtraceField usual[FTRACE_MAX_FIELDS], general[FTRACE_MAX_FIELDS];
  const char *pos;
  gsize pos_len, len = strlen (payload);
  guint n;

  if (!ftrace_split_usual (payload, len, ftrace_sched_switch_keys, G_N_ELEMENTS (ftrace_sched_switch_keys), usual))
    return FALSE;
  n = ftrace_split_fields (payload, len, general, FTRACE_MAX_FIELDS, &pos, &pos_len);
  g_assert_null (pos);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (ftrace_sched_switch_keys));
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (usual[i].key == general[i].key);
      g_assert_cmpuint (usual[i].key_len, ==, general[i].key_len);
      g_assert_true (usual[i].value == general[i].value);
      g_assert_cmpuint (usual[i].value_len, ==, general[i].value_len);
    }
  return TRUE;
}

/* sched_switch in the kernel's order is split in one pass
 * (ftrace-fields-inline.h); anything else goes the general way, and what
 * the pass gives is what the general way gives: on chosen payloads, and
 * on 20 000 made of the pieces that make values end early. */
static void
test_usual_fields (void)
{
  static const struct
  {
    const char *payload;
    gboolean usual;
  } cases[] = {
    { "prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120", TRUE },
    { "prev_comm=Jit thread pool prev_pid=1 prev_prio=120 prev_state=R+ ==> next_comm=Binder 1 next_pid=2 next_prio=9",
      TRUE },
    { "prev_comm=a  prev_pid=1 prev_prio=120 prev_state=S   ==> next_comm=b next_pid=2 next_prio=120  ", TRUE },
    /* a comm holding ` x=`: the general way makes it a field */
    { "prev_comm=a x=y prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120", FALSE },
    { "prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==>  next_comm=b next_pid=2 next_prio=120", FALSE },
    { "prev_comm=a prev_pid=1 prev_prio=120 prev_state=S next_comm=b next_pid=2 next_prio=120", FALSE },
    { "prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120 extra=1", FALSE },
    { "prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2", FALSE },
    { "prev_pid=1 prev_comm=a prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120", FALSE },
    { " prev_comm=a prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=b next_pid=2 next_prio=120", FALSE },
    { "trace-cmd:1234 [120] S ==> swapper/0:0 [120]", FALSE },
    { "prev_comm", FALSE },
    { "", FALSE },
  };
  static const char *const pieces[] = {
    "prev_comm=",
    "prev_pid=",
    "prev_prio=",
    "prev_state=",
    "==>",
    "next_comm=",
    "next_pid=",
    "next_prio=",
    " ",
    "  ",
    "a",
    "1",
    "x=y",
    "=",
    "==> ",
    "R+",
  };
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autoptr (GString) s = g_string_new (NULL);
  guint taken = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s", cases[i].payload);
      g_assert_cmpint (split_usual_as_general (cases[i].payload), ==, cases[i].usual);
    }
  for (guint i = 0; i < 20000; i++)
    {
      /* mostly the usual payload, a piece changed or put in here and there */
      g_string_assign (s, "");
      for (guint k = 0; k < G_N_ELEMENTS (ftrace_sched_switch_keys); k++)
        {
          if (g_rand_int_range (rand, 0, 8) == 0)
            g_string_append (s, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
          if (k > 0)
            g_string_append_c (s, ' ');
          g_string_append_printf (s, "%s=", ftrace_sched_switch_keys[k].text);
          g_string_append (s, g_rand_int_range (rand, 0, 3) ? "v" : pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
        }
      taken += split_usual_as_general (s->str);
    }
  g_test_message ("%u of 20000 taken in one pass", taken);
  g_assert_cmpuint (taken, >, 2000);
  g_assert_cmpuint (taken, <, 19000);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/kernel/prev-state", test_prev_state);
  g_test_add_func ("/ftrace/kernel/sched-switch-forms", test_sched_switch_forms);
  g_test_add_func ("/ftrace/kernel/sched-switch-incomplete", test_sched_switch_incomplete);
  g_test_add_func ("/ftrace/kernel/usual-fields", test_usual_fields);
  g_test_add_func ("/ftrace/kernel/wakeups", test_wakeups);
  g_test_add_func ("/ftrace/kernel/switch-comms-rename", test_switch_comms_rename);
  g_test_add_func ("/ftrace/kernel/task-events", test_task_events);
  g_test_add_func ("/ftrace/kernel/cpu-events", test_cpu_events);
  g_test_add_func ("/ftrace/kernel/raw-args", test_raw_args);
  g_test_add_func ("/ftrace/kernel/equals-values", test_equals_values);
  return g_test_run ();
}
