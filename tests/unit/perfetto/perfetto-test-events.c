/* Helpers of the Perfetto unit tests: an event stream with every kind
 * of event, as the sources make them. */
#include "perfetto-test-util.h"

/* ---- building input ---- */

static void
arg_uint (TraceBatch *b,
          TraceEvent *ev,
          const char *key,
          guint64 v)
{
  trace_batch_add_arg (b, ev, pt_str (b, key), TRACE_ARG_UINT)->v.u = v;
}

static void
arg_pointer (TraceBatch *b,
             TraceEvent *ev,
             const char *key,
             guint64 v)
{
  trace_batch_add_arg (b, ev, pt_str (b, key), TRACE_ARG_POINTER)->v.u = v;
}

static void
add_track_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev = pt_add (b, TRACE_EVENT_PROCESS_NAME, 1000, 100, TRACE_ID_UNKNOWN, "com.example.app");
  ev = pt_add (b, TRACE_EVENT_THREAD_NAME, 1000, 100, 101, "worker");
  ev = pt_add (b, TRACE_EVENT_PROCESS_SORT_INDEX, 1010, 100, TRACE_ID_UNKNOWN, NULL);
  ev->u.meta.value = 3;
  ev = pt_add (b, TRACE_EVENT_THREAD_SORT_INDEX, 1020, 100, 101, NULL);
  ev->u.meta.value = -2;
  ev = pt_add (b, TRACE_EVENT_PROCESS_LABEL, 1030, 100, TRACE_ID_UNKNOWN, "label one");

  ev = pt_add (b, TRACE_EVENT_SLICE_BEGIN, 2000, 100, 100, "outer");
  ev->category = pt_str (b, "gfx");
  ev->cpu = 3;
  ev->u.slice.flow_out = 77;
  trace_batch_add_arg_int (b, ev, "k", -1);
  arg_uint (b, ev, "u", G_GUINT64_CONSTANT (9223372036854775813));
  trace_batch_add_arg_double (b, ev, "d", 0.25);
  trace_batch_add_arg_bool (b, ev, "flag", TRUE);
  trace_batch_add_arg_string (b, ev, "s", "x y");
  arg_pointer (b, ev, "ptr", 0xdeadbeef);
  trace_batch_add_arg_int (b, ev, "a.b", 7);
  trace_batch_add_arg_string (b, ev, "arr[0]", "z");
  ev = pt_add (b, TRACE_EVENT_SLICE_COMPLETE, 2100, 100, 100, "child");
  ev->u.slice.dur = 500;
  ev->u.slice.flow_in = 77;
  ev = pt_add (b, TRACE_EVENT_INSTANT, 2200, 100, 100, "tick");
  ev = pt_add (b, TRACE_EVENT_SLICE_END, 3000, 100, 100, "outer");
  trace_batch_add_arg_int (b, ev, "ret", 5);
  ev = pt_add (b, TRACE_EVENT_INSTANT, 3100, 100, 100, "proc-instant");
  ev->flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
  ev = pt_add (b, TRACE_EVENT_INSTANT, 3200, 100, 100, "global-instant");
  ev->flags = TRACE_EVENT_FLAG_SCOPE_GLOBAL;
  ev = pt_add (b, TRACE_EVENT_INSTANT, 3300, 100, 101, "named-instant");
  ev->flags = TRACE_EVENT_FLAG_SCOPE_PROCESS;
  ev->u.slice.track = pt_str (b, "Track A");
}

static void
add_async_flow_counter_events (TraceBatch *b)
{
  TraceEvent *ev;

  /* Two overlapping async slices of one name, a step and an instant. */
  ev = pt_add (b, TRACE_EVENT_ASYNC_BEGIN, 4000, 100, 101, "load");
  ev->category = pt_str (b, "net");
  ev->u.async.id = 5;
  ev = pt_add (b, TRACE_EVENT_ASYNC_BEGIN, 4100, 100, 100, "load");
  ev->category = pt_str (b, "net");
  ev->u.async.id = 6;
  trace_batch_add_arg_string (b, ev, "url", "http://x");
  ev = pt_add (b, TRACE_EVENT_ASYNC_STEP, 4200, 100, 101, "load");
  ev->category = pt_str (b, "net");
  ev->u.async.id = 5;
  ev->u.async.step = pt_str (b, "parsed");
  ev = pt_add (b, TRACE_EVENT_ASYNC_INSTANT, 4300, 100, 100, "mark");
  ev->category = pt_str (b, "net");
  ev->u.async.id = 6;
  ev = pt_add (b, TRACE_EVENT_ASYNC_END, 4500, 100, 101, "load");
  ev->category = pt_str (b, "net");
  ev->u.async.id = 5;
  ev = pt_add (b, TRACE_EVENT_ASYNC_END, 4600, 100, 100, "load");
  ev->category = pt_str (b, "net");
  ev->u.async.id = 6;
  /* atrace S/F and G/H */
  ev = pt_add (b, TRACE_EVENT_ASYNC_BEGIN, 4700, 200, 201, "Wakelock");
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY;
  ev->u.async.id = 9;
  ev = pt_add (b, TRACE_EVENT_ASYNC_END, 4800, 200, 202, "Wakelock");
  ev->flags = TRACE_EVENT_FLAG_ASYNC_LEGACY;
  ev->u.async.id = 9;
  ev = pt_add (b, TRACE_EVENT_ASYNC_BEGIN, 4900, 200, 201, "G-slice");
  ev->u.async.id = 1;
  ev->u.async.track = pt_str (b, "MyTrack");
  ev = pt_add (b, TRACE_EVENT_ASYNC_END, 5000, 200, 201, NULL);
  ev->u.async.id = 1;
  ev->u.async.track = pt_str (b, "MyTrack");

  /* Flows v1 */
  ev = pt_add (b, TRACE_EVENT_FLOW_START, 5100, 100, 100, "flow1");
  ev->category = pt_str (b, "ipc");
  ev->u.async.id = 11;
  ev = pt_add (b, TRACE_EVENT_FLOW_STEP, 5200, 100, 101, "flow1");
  ev->category = pt_str (b, "ipc");
  ev->u.async.id = 11;
  ev = pt_add (b, TRACE_EVENT_FLOW_END, 5300, 100, 101, "flow1");
  ev->category = pt_str (b, "ipc");
  ev->flags = TRACE_EVENT_FLAG_FLOW_NEXT_SLICE;
  ev->u.async.id = 11;

  /* Counters: integer with a unit, global double, an instance id. */
  ev = pt_add (b, TRACE_EVENT_COUNTER, 5400, 100, 101, "heap");
  ev->flags = TRACE_EVENT_FLAG_COUNTER_INT;
  ev->u.counter.value = 1024;
  ev->u.counter.unit = pt_str (b, "bytes");
  ev = pt_add (b, TRACE_EVENT_COUNTER, 5500, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "global_load");
  ev->u.counter.value = 0.75;
  ev = pt_add (b, TRACE_EVENT_COUNTER, 5600, 100, 100, "ctr");
  ev->u.counter.value = 1.5;
  ev->u.counter.id = 3;
}

static TraceEvent *
kernel (TraceBatch *b,
        TraceEventKind kind,
        gint64 ts,
        gint32 cpu,
        gint64 pid,
        gint64 tid)
{
  TraceEvent *ev = pt_add (b, kind, ts, pid, tid, NULL);

  ev->cpu = cpu;
  return ev;
}

static void
add_sched_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev = kernel (b, TRACE_EVENT_SCHED_SWITCH, 6000, 0, 100, 101);
  ev->u.sched_switch.prev_tid = 101;
  ev->u.sched_switch.prev_prio = 120;
  ev->u.sched_switch.prev_state = 1;
  ev->u.sched_switch.prev_comm = pt_str (b, "worker");
  ev->u.sched_switch.next_tid = 0;
  ev->u.sched_switch.next_prio = 120;
  ev->u.sched_switch.next_comm = pt_str (b, "swapper/0");
  /* Continues the previous switch on cpu 0: compact. */
  ev = kernel (b, TRACE_EVENT_SCHED_SWITCH, 6100, 0, 0, 0);
  ev->u.sched_switch.prev_tid = 0;
  ev->u.sched_switch.prev_prio = 120;
  ev->u.sched_switch.prev_state = 0;
  ev->u.sched_switch.prev_comm = pt_str (b, "swapper/0");
  ev->u.sched_switch.next_tid = 100;
  ev->u.sched_switch.next_prio = 110;
  ev->u.sched_switch.next_comm = pt_str (b, "app");
  /* Woken by the running thread: compact. */
  ev = kernel (b, TRACE_EVENT_SCHED_WAKING, 6150, 0, 100, 100);
  ev->u.wakeup.tid = 101;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.target_cpu = 1;
  ev->u.wakeup.comm = pt_str (b, "worker");
  ev = kernel (b, TRACE_EVENT_SCHED_WAKEUP, 6200, 1, 0, 0);
  ev->u.wakeup.tid = 101;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.target_cpu = 1;
  ev->u.wakeup.comm = pt_str (b, "worker");
  ev->u.wakeup.success = 1;
  ev = kernel (b, TRACE_EVENT_SCHED_WAKEUP_NEW, 6250, 1, 100, 100);
  ev->u.wakeup.tid = 105;
  ev->u.wakeup.prio = 120;
  ev->u.wakeup.target_cpu = 2;
  ev->u.wakeup.comm = pt_str (b, "app");
  ev = kernel (b, TRACE_EVENT_SCHED_PROCESS_EXIT, 6300, 1, 200, 201);
  ev->u.task.tid = 201;
  ev->u.task.prio = 120;
  ev->u.task.comm = pt_str (b, "dying");
  ev = kernel (b, TRACE_EVENT_SCHED_PROCESS_FREE, 6350, 1, 0, 0);
  ev->u.task.tid = 201;
  ev->u.task.prio = 120;
  ev->u.task.comm = pt_str (b, "dying");
  ev = kernel (b, TRACE_EVENT_TASK_NEWTASK, 6400, 2, 100, 100);
  ev->u.task.tid = 105;
  ev->u.task.comm = pt_str (b, "app");
  ev->u.task.clone_flags = 0x3d0f00;
  trace_batch_add_arg_int (b, ev, "oom_score_adj", -100);
  ev = kernel (b, TRACE_EVENT_TASK_RENAME, 6450, 2, 100, 105);
  ev->u.task.tid = 105;
  ev->u.task.old_comm = pt_str (b, "app");
  ev->u.task.comm = pt_str (b, "RenderThread");
  trace_batch_add_arg_int (b, ev, "oom_score_adj", 0);
  ev = kernel (b, TRACE_EVENT_CPU_FREQUENCY, 6500, 2, 0, 0);
  ev->u.cpu.cpu_id = 2;
  ev->u.cpu.state = 1800000;
  ev = kernel (b, TRACE_EVENT_CPU_IDLE, 6550, 3, 0, 0);
  ev->u.cpu.cpu_id = 3;
  ev->u.cpu.state = 4294967295;
}

static TraceEvent *
ftrace (TraceBatch *b,
        gint64 ts,
        const char *name)
{
  TraceEvent *ev = kernel (b, TRACE_EVENT_FTRACE, ts, 1, 100, 101);

  ev->name = pt_str (b, name);
  return ev;
}

/* Kernel events with typed messages (args in the order of their fields)
 * and one generic event. */
static void
add_ftrace_events (TraceBatch *b)
{
  TraceEvent *ev;

  ev = ftrace (b, 6600, "binder_transaction");
  trace_batch_add_arg_int (b, ev, "transaction", 42);
  trace_batch_add_arg_int (b, ev, "dest_node", 1);
  trace_batch_add_arg_int (b, ev, "dest_proc", 200);
  trace_batch_add_arg_int (b, ev, "dest_thread", 201);
  trace_batch_add_arg_int (b, ev, "reply", 0);
  trace_batch_add_arg_string (b, ev, "flags", "0x10");
  trace_batch_add_arg_string (b, ev, "code", "0x5f");
  ev = ftrace (b, 6610, "binder_transaction_received");
  trace_batch_add_arg_int (b, ev, "transaction", 42);
  ev = ftrace (b, 6615, "binder_return");
  trace_batch_add_arg_string (b, ev, "cmd", "0x7211 BR_FAILED_REPLY");
  ev = ftrace (b, 6620, "binder_lock");
  trace_batch_add_arg_string (b, ev, "tag", "transaction");
  ev = ftrace (b, 6700, "workqueue_execute_start");
  arg_pointer (b, ev, "work", 0xffff888000001000);
  trace_batch_add_arg_string (b, ev, "function", "do_work");
  ev = ftrace (b, 6710, "workqueue_execute_end");
  arg_pointer (b, ev, "work", 0xffff888000001000);
  ev = ftrace (b, 6720, "sched_blocked_reason");
  trace_batch_add_arg_int (b, ev, "pid", 101);
  trace_batch_add_arg_int (b, ev, "iowait", 1);
  trace_batch_add_arg_string (b, ev, "caller", "io_schedule+0x10/0x30");
  ev = ftrace (b, 6730, "cpu_frequency_limits");
  trace_batch_add_arg_int (b, ev, "min", 300000);
  trace_batch_add_arg_int (b, ev, "max", 2000000);
  trace_batch_add_arg_int (b, ev, "cpu_id", 0);
  ev = ftrace (b, 6740, "clock_set_rate");
  trace_batch_add_arg_string (b, ev, "name", "dsi_clk");
  trace_batch_add_arg_int (b, ev, "state", 100);
  trace_batch_add_arg_int (b, ev, "cpu_id", 0);
  ev = ftrace (b, 6750, "thermal_temperature");
  trace_batch_add_arg_string (b, ev, "thermal_zone", "cpu-0");
  trace_batch_add_arg_int (b, ev, "id", 1);
  trace_batch_add_arg_int (b, ev, "temp_prev", 40000);
  trace_batch_add_arg_int (b, ev, "temp", 41000);
  ev = ftrace (b, 6760, "cdev_update");
  trace_batch_add_arg_string (b, ev, "type", "thermal-cpufreq-0");
  trace_batch_add_arg_int (b, ev, "target", 3);
  ev = ftrace (b, 6770, "rss_stat");
  trace_batch_add_arg_int (b, ev, "member", 1);
  trace_batch_add_arg_int (b, ev, "size", 8437760);
  trace_batch_add_arg_int (b, ev, "curr", 1);
  trace_batch_add_arg_int (b, ev, "mm_id", 2824390453);
  ev = ftrace (b, 6780, "print");
  trace_batch_add_arg_string (b, ev, "buf", "hello");
  ev = ftrace (b, 6790, "irq_handler_entry");
  trace_batch_add_arg_int (b, ev, "irq", 5);
  trace_batch_add_arg_string (b, ev, "name", "timer");
  arg_uint (b, ev, "u", 7);
  trace_batch_add_arg_double (b, ev, "d", 1.5);
  trace_batch_add_arg_bool (b, ev, "b", TRUE);
}

static void
add_clock_and_samples (TraceBatch *b)
{
  TraceEvent *ev;

  ev = kernel (b, TRACE_EVENT_CLOCK_MARKER, 7000, 0, 100, 101);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_PARENT_TS;
  ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
  ev->u.clock.other_ts = G_GINT64_CONSTANT (683201375000000);
  ev = kernel (b, TRACE_EVENT_CLOCK_MARKER, 7010, 0, 100, 101);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_REALTIME_TS;
  ev->u.clock.domain = TRACE_CLOCK_REALTIME;
  ev->u.clock.other_ts = G_GINT64_CONSTANT (1600000000123000000);
  ev = kernel (b, TRACE_EVENT_CLOCK_MARKER, 7020, 0, 100, 101);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_SYNC_ID;
  ev->u.clock.sync_id = pt_str (b, "sync-1");
  ev = kernel (b, TRACE_EVENT_CLOCK_MARKER, 7100, 0, 100, 101);
  ev->u.clock.marker = TRACE_CLOCK_MARKER_PAIR;
  ev->u.clock.domain = TRACE_CLOCK_MONOTONIC;
  ev->u.clock.other_ts = 5000;
  /* a JSON thread state, which has no Perfetto form */
  ev = pt_add (b, TRACE_EVENT_THREAD_STATE, 7150, 100, 101, "S");
  ev->u.thread_state.dur = 10;
  /* a battery packet perfetto-src carried (charge_counter_uah: 5) */
  ev = trace_batch_append (b, TRACE_EVENT_RECORD, 7200);
  ev->name = pt_str (b, "perfetto_packet_38");
  trace_batch_add_arg (b, ev, trace_string_pool_intern (b->pool, "perfetto.field"), TRACE_ARG_UINT)->v.u = 38;
  trace_batch_add_arg_string (b, ev, "perfetto.bytes", "AggF");
  /* a context a Chrome trace entered, with its recorder's thread time */
  ev = pt_add (b, TRACE_EVENT_CHROME_PHASE, 7300, 100, 101, "FrameBlameContext");
  ev->u.chrome_phase.phase = '(';
  ev->u.chrome_phase.id_kind = TRACE_CHROME_ID_LOCAL;
  ev->u.chrome_phase.id = 7;
  ev->u.chrome_phase.scope = pt_str (b, "FrameBlameContext");
  ev->u.chrome_phase.thread_ts = 4000;
  ev->flags |= TRACE_EVENT_FLAG_THREAD_TIME;

  ev = pt_add (b, TRACE_EVENT_STACK_NODE, 7500, 100, 100, "(root)");
  ev->u.stack_node.id = 1;
  ev = pt_add (b, TRACE_EVENT_STACK_NODE, 7500, 100, 100, "main");
  ev->u.stack_node.id = 2;
  ev->u.stack_node.parent_id = 1;
  trace_batch_add_arg_string (b, ev, "url", "app.js");
  trace_batch_add_arg_int (b, ev, "line", 10);
  trace_batch_add_arg_int (b, ev, "column", 4);
  ev = pt_add (b, TRACE_EVENT_STACK_NODE, 7500, 100, 100, "work");
  ev->u.stack_node.id = 3;
  ev->u.stack_node.parent_id = 2;
  trace_batch_add_arg_string (b, ev, "url", "app.js");
  trace_batch_add_arg_int (b, ev, "line", 20);
  ev = pt_add (b, TRACE_EVENT_STACK_NODE, 7500, 100, 100, "idle");
  ev->u.stack_node.id = 4;
  ev->u.stack_node.parent_id = 1;
  ev = pt_add (b, TRACE_EVENT_SAMPLE, 8000, 100, 100, NULL);
  ev->u.sample.node_id = 3;
  ev->u.sample.weight = 100;
  ev = pt_add (b, TRACE_EVENT_SAMPLE, 8100, 100, 100, NULL);
  ev->u.sample.node_id = 2;
  ev->u.sample.weight = 100;
}

/* Events of every kind, as the sources make them. */
TraceBatch *
pt_all_kinds_batch (TraceStringPool *pool)
{
  TraceBatch *b = trace_batch_new (pool, 0);

  add_track_events (b);
  add_async_flow_counter_events (b);
  add_sched_events (b);
  add_ftrace_events (b);
  add_clock_and_samples (b);
  return b;
}
