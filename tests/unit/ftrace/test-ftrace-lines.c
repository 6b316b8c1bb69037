/* Unit tests of ftrace-src's line parser: line layouts (FORMATS.md §1.2,
 * §10 items 1-3), atrace payloads (§1.3, §10 items 4 and 6) and how
 * threads are named. Every expectation is written from the line itself. */
#include <string.h>

#include "ftrace-test-util.h"

#define SEC(s, us) ((gint64) (s) *1000000000 + (gint64) (us) *1000)

/* ------------------------------------------------------------ layouts */

static void
test_layout_tgid_padded (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "   TimerDispatch-704   (  643) [001] .... 1308823.803988: tracing_mark_write: B|643|TimerIteration #9392\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 2);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1308823, 803988), 643, 704, "TimerDispatch");
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (1308823, 803988), 643, 704, "TimerIteration #9392");
  g_assert_cmpint (b->events[1].cpu, ==, 1);
}

static void
test_layout_tgid_unknown (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "           <...>-19161 (-----) [001] ...1 683201.354908: tracing_mark_write: trace_event_clock_sync: parent_ts=683201.375000\n",
      &p);
  const TraceEvent *ev = &b->events[0];

  /* `<...>` names nothing, `(-----)` tells no pid */
  g_assert_cmpuint (b->n_events, ==, 1);
  check_event (b, 0, TRACE_EVENT_CLOCK_MARKER, SEC (683201, 354908), TRACE_ID_UNKNOWN, 19161, NULL);
  g_assert_cmpuint (ev->u.clock.marker, ==, TRACE_CLOCK_MARKER_PARENT_TS);
  g_assert_cmpuint (ev->u.clock.domain, ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpint (ev->u.clock.other_ts, ==, SEC (683201, 375000));
  g_assert_cmpuint (ftrace_parser_get_stats (p)->trace_lines, ==, 1);
}

static void
test_layout_tgid_fixed (void)
{
  /* systrace's "fixed" tgid `( 3)`, no leading padding; 7-wide dashes */
  g_autoptr (TraceBatch) b = parse_text (
      "ksoftirqd/0-3 ( 3) [000] ...2  1212.465092: sched_switch: prev_comm=ksoftirqd/0 prev_pid=3 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n"
      "  binder:643_1-651 (-------) [002] ...1 5.000001: tracing_mark_write: E|643\n",
      NULL);
  const TraceEvent *sw;

  g_assert_cmpuint (b->n_events, ==, 4);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1212, 465092), 3, 3, "ksoftirqd/0");
  check_event (b, 1, TRACE_EVENT_SCHED_SWITCH, SEC (1212, 465092), 3, 3, NULL);
  sw = &b->events[1];
  g_assert_cmpint (sw->u.sched_switch.prev_tid, ==, 3);
  g_assert_cmpint (sw->u.sched_switch.next_tid, ==, 0);
  g_assert_cmpint (sw->u.sched_switch.prev_prio, ==, 120);
  g_assert_cmpint (sw->u.sched_switch.next_prio, ==, 120);
  g_assert_cmpint (sw->u.sched_switch.prev_state, ==, 1);
  g_assert_cmpstr (str (b, sw->u.sched_switch.prev_comm), ==, "ksoftirqd/0");
  g_assert_cmpstr (str (b, sw->u.sched_switch.next_comm), ==, "swapper/0");
  /* the E's pid teaches the thread's pid: named with it */
  check_event (b, 2, TRACE_EVENT_THREAD_NAME, SEC (5, 1), 643, 651, "binder:643_1");
  check_event (b, 3, TRACE_EVENT_SLICE_END, SEC (5, 1), 643, 651, "");
}

static void
test_layout_no_tgid (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "atrace-14446 [000] ...2  1212.465062: tracing_mark_write: C|14446|memory|-12\n", NULL);

  /* counters teach no pid: C may be written for another process */
  g_assert_cmpuint (b->n_events, ==, 2);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1212, 465062), TRACE_ID_UNKNOWN, 14446, "atrace");
  check_event (b, 1, TRACE_EVENT_COUNTER, SEC (1212, 465062), 14446, 14446, "memory");
  g_assert_cmpfloat (b->events[1].u.counter.value, ==, -12.0);
  g_assert_cmpuint (b->events[1].flags, ==, TRACE_EVENT_FLAG_COUNTER_INT);
}

static void
test_layout_no_flags (void)
{
  /* pre-3.2 kernels and trace-cmd report: no irq-flags column */
  g_autoptr (TraceBatch) b = parse_text (
      "     kworker/0:0-13696 [000] 50260.647590: sched_wakeup: comm=mmcqd/0 pid=95 prio=120 success=1 target_cpu=000\n"
      "  SurfaceFlinger-236   [000] 50265.647620: 0: B|124|onMessageReceived\n",
      NULL);
  const TraceEvent *w;

  /* sched_wakeup does not name its wakee (trace_processor does not) */
  g_assert_cmpuint (b->n_events, ==, 4);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (50260, 647590), TRACE_ID_UNKNOWN, 13696, "kworker/0:0");
  check_event (b, 1, TRACE_EVENT_SCHED_WAKEUP, SEC (50260, 647590), TRACE_ID_UNKNOWN, 13696, NULL);
  w = &b->events[1];
  g_assert_cmpint (w->u.wakeup.tid, ==, 95);
  g_assert_cmpint (w->u.wakeup.prio, ==, 120);
  g_assert_cmpint (w->u.wakeup.success, ==, 1);
  g_assert_cmpint (w->u.wakeup.target_cpu, ==, 0);
  g_assert_cmpstr (str (b, w->u.wakeup.comm), ==, "mmcqd/0");
  g_assert_cmpint (w->cpu, ==, 0);
  /* JB-era event name `0` for marker writes */
  check_event (b, 2, TRACE_EVENT_THREAD_NAME, SEC (50265, 647620), 124, 236, "SurfaceFlinger");
  check_event (b, 3, TRACE_EVENT_SLICE_BEGIN, SEC (50265, 647620), 124, 236, "onMessageReceived");
}

static void
test_layout_flags_variants (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "chrome-10830 ( 10830) [000] dNsa. 4213.033572: tracing_mark_write: B|10830|hex_preempt\n"
      "kworker/u16:1-77    (   77) [004] ....316.196720: tracing_mark_write: B|77|no_gap_after_dots\n"
      "test-process-123    (  123) [002] d...316.196740: tracing_mark_write: B|123|no_gap_after_flags\n"
      "  bash-9 [001] d..21  7.000002: tracing_mark_write: I|9|five_flags_digit\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 8);
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (4213, 33572), 10830, 10830, "hex_preempt");
  check_event (b, 2, TRACE_EVENT_THREAD_NAME, SEC (316, 196720), 77, 77, "kworker/u16:1");
  check_event (b, 3, TRACE_EVENT_SLICE_BEGIN, SEC (316, 196720), 77, 77, "no_gap_after_dots");
  check_event (b, 4, TRACE_EVENT_THREAD_NAME, SEC (316, 196740), 123, 123, "test-process");
  check_event (b, 5, TRACE_EVENT_SLICE_BEGIN, SEC (316, 196740), 123, 123, "no_gap_after_flags");
  check_event (b, 7, TRACE_EVENT_INSTANT, SEC (7, 2), 9, 9, "five_flags_digit");
}

static void
test_layout_task_names (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "task-1234-567    ( 567) [000] ....   100.000000: tracing_mark_write: B|567|task_work\n"
      " Jit thread pool-31916 (31900) [002] .... 100.5: tracing_mark_write: B|31900|jit\n"
      "\t   <...>-15430 [006]  7115.449594: cpu_idle:             state=1 cpu_id=6\n"
      "          <idle>-0     [000] d..2  1136.097253: cpu_idle: state=0 cpu_id=0\n"
      "          <7952>-7952  [003] ....  2.000000: tracing_mark_write: E|7952\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 7);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (100, 0), 567, 567, "task-1234");
  check_event (b, 2, TRACE_EVENT_THREAD_NAME, SEC (100, 500000), 31900, 31916, "Jit thread pool");
  check_event (b, 3, TRACE_EVENT_SLICE_BEGIN, SEC (100, 500000), 31900, 31916, "jit");
  /* TAB indent, `<...>` (no name), padded payload */
  check_event (b, 4, TRACE_EVENT_CPU_IDLE, SEC (7115, 449594), TRACE_ID_UNKNOWN, 15430, NULL);
  g_assert_cmpint (b->events[4].u.cpu.cpu_id, ==, 6);
  g_assert_cmpint (b->events[4].u.cpu.state, ==, 1);
  /* `<idle>` is pid 0 and is never named */
  check_event (b, 5, TRACE_EVENT_CPU_IDLE, SEC (1136, 97253), 0, 0, NULL);
  /* LISA's `<7952>` is no name either */
  check_event (b, 6, TRACE_EVENT_SLICE_END, SEC (2, 0), 7952, 7952, NULL);
}

static void
test_layout_timestamps (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-1 [000] .... 12.123456789: tracing_mark_write: I|1|ns\n"
      "<...>-1 [000] .... 12.5: tracing_mark_write: I|1|one_decimal\n",
      &p);

  check_event (b, 0, TRACE_EVENT_INSTANT, 12123456789, 1, 1, "ns");
  check_event (b, 1, TRACE_EVENT_INSTANT, 12500000000, 1, 1, "one_decimal");
  g_assert_cmpint (ftrace_parser_get_clock_domain (p), ==, TRACE_CLOCK_BOOTTIME);
}

static void
test_layout_counter_clock (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text ("<...>-5 [000] .... 123456789: tracing_mark_write: B|5|x\n", &p);

  /* trace_clock=counter: no decimal point, the raw count */
  check_event (b, 0, TRACE_EVENT_SLICE_BEGIN, 123456789, 5, 5, "x");
  g_assert_cmpint (ftrace_parser_get_clock_domain (p), ==, TRACE_CLOCK_COUNTER);
}

static void
test_layout_clock_type_header (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text ("# tracer: nop\n# clock_type=LINUX_CLOCK_MONOTONIC\n", &p);

  g_assert_cmpuint (b->n_events, ==, 0);
  g_assert_cmpint (ftrace_parser_get_clock_domain (p), ==, TRACE_CLOCK_MONOTONIC);
  g_assert_cmpuint (ftrace_parser_get_seen (p), ==, FTRACE_SEEN_HEADER);
}

static void
test_layout_line_endings (void)
{
  g_autoptr (FtraceParser) p = ftrace_parser_new (NULL);
  g_autoptr (TraceBatch) b = trace_batch_new (NULL, 0);
  const char text[] = "a-1 [000] .... 1.000000: tracing_mark_write: B|1|crlf\r\n"
                      "a-1 [000] .... 2.000000: tracing_mark_write: B|1|crcrlf\r\r\n"
                      "a-1 [000] .... 3.000000: tracing_mark_write: B|1|js\\n\\\n"
                      "a-1 [000] .... 4.000000: tracing_mark_write: B|1|nul\0\n";

  ftrace_parser_parse_text (p, text, sizeof text - 1, b);
  g_assert_cmpuint (b->n_events, ==, 5);
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (1, 0), 1, 1, "crlf");
  check_event (b, 2, TRACE_EVENT_SLICE_BEGIN, SEC (2, 0), 1, 1, "crcrlf");
  /* legacy HTML JavaScript line ends */
  check_event (b, 3, TRACE_EVENT_SLICE_BEGIN, SEC (3, 0), 1, 1, "js");
  /* the NUL an atrace writer may include */
  check_event (b, 4, TRACE_EVENT_SLICE_BEGIN, SEC (4, 0), 1, 1, "nul");
}

static void
test_layout_special_lines (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "           <...>-882   (  882) [003] .... 10852.771186: event: event: abc xyz =0x34 clk id = 019\n"
      "some = 000, other = 0x4\n"
      "##### CPU 2 buffer started ####\n"
      "CPU:3 [LOST 1234 EVENTS]\n"
      "CPU:1 [LOST 6 EVENTS]\n"
      "hello\n",
      &p);
  const FtraceStats *st = ftrace_parser_get_stats (p);

  /* the multi-line print: its first line is an event, the rest is counted */
  g_assert_cmpuint (b->n_events, ==, 1);
  check_event (b, 0, TRACE_EVENT_FTRACE, SEC (10852, 771186), 882, 882, "event");
  g_assert_cmpuint (st->lines, ==, 6);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, 2);
  g_assert_cmpuint (st->first_lines[FTRACE_PROBLEM_UNPARSABLE_LINE][0], ==, 2);
  g_assert_cmpuint (st->first_lines[FTRACE_PROBLEM_UNPARSABLE_LINE][1], ==, 6);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_BUFFER_WRAPPED], ==, 1);
  g_assert_cmpuint (st->first_lines[FTRACE_PROBLEM_BUFFER_WRAPPED][0], ==, 3);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_LOST_EVENTS], ==, 2);
  g_assert_cmpuint (st->lost_events, ==, 1240);
  g_assert_cmpstr (ftrace_parser_get_first_unparsable (p), ==, "some = 000, other = 0x4");
}

static void
test_preambles (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "capturing trace... done\nTRACE:\n# TRACE:\n# tracer: nop\nversion = 6\nCPU 3 is empty\ncpus=6\n\n",
      &p);
  const FtraceStats *st = ftrace_parser_get_stats (p);

  g_assert_cmpuint (b->n_events, ==, 0);
  g_assert_cmpuint (st->lines, ==, 8);
  g_assert_cmpuint (st->metadata_lines, ==, 8);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, 0);
}

/* ------------------------------------------------------------ payloads */

static TraceBatch *
parse_payload (const char *payload,
               FtraceParser **p)
{
  g_autofree char *line = g_strdup_printf ("<...>-42 [001] .... 10.000000: tracing_mark_write: %s\n", payload);

  return parse_text (line, p);
}

static void
test_marker_begin_end (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-42 [001] .... 10.000000: tracing_mark_write: B|40|a|b|c\n"
      "<...>-42 [001] .... 10.000001: tracing_mark_write: B|40|\n"
      "<...>-42 [001] .... 10.000002: tracing_mark_write: E|40|named end\n"
      "<...>-42 [001] .... 10.000003: tracing_mark_write: E|40\n"
      "<...>-42 [001] .... 10.000004: tracing_mark_write: E|40|\n"
      "<...>-43 [001] .... 10.000005: tracing_mark_write: E\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 6);
  /* perfetto keeps every `|` after the pid in the name */
  check_event (b, 0, TRACE_EVENT_SLICE_BEGIN, SEC (10, 0), 40, 42, "a|b|c");
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (10, 1), 40, 42, "");
  /* an end closes the innermost slice whatever it names, as
   * trace_processor reads it: the name is not kept */
  check_event (b, 2, TRACE_EVENT_SLICE_END, SEC (10, 2), 40, 42, "");
  check_event (b, 3, TRACE_EVENT_SLICE_END, SEC (10, 3), 40, 42, "");
  check_event (b, 4, TRACE_EVENT_SLICE_END, SEC (10, 4), 40, 42, "");
  /* a bare E of a thread never seen: no pid */
  check_event (b, 5, TRACE_EVENT_SLICE_END, SEC (10, 5), TRACE_ID_UNKNOWN, 43, "");
  g_assert_cmpint (b->events[5].cpu, ==, 1);
}

static void
test_marker_bare_end_learnt_pid (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-18926 (-----) [005] ...1 683202.115809: tracing_mark_write: B|18926|Choreographer#doFrame\n"
      "<...>-18926 (-----) [005] ...1 683202.116883: tracing_mark_write: E\n",
      NULL);

  check_event (b, 1, TRACE_EVENT_SLICE_END, SEC (683202, 116883), 18926, 18926, "");
}

static void
test_marker_counter (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-42 [001] .... 10.000000: tracing_mark_write: C|40|queued|7|gfx\n"
      "<...>-42 [001] .... 10.000001: tracing_mark_write: C|40|oq:Window{42a6b678 com.android.launcher|1\n"
      "<...>-42 [001] .... 10.000002: tracing_mark_write: C|40|load|1.5\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 3);
  check_event (b, 0, TRACE_EVENT_COUNTER, SEC (10, 0), 40, 42, "queued");
  g_assert_cmpfloat (b->events[0].u.counter.value, ==, 7.0);
  g_assert_cmpuint (b->events[0].flags, ==, TRACE_EVENT_FLAG_COUNTER_INT);
  g_assert_cmpstr (str (b, b->events[0].category), ==, "gfx");
  check_event (b, 1, TRACE_EVENT_COUNTER, SEC (10, 1), 40, 42, "oq:Window{42a6b678 com.android.launcher");
  g_assert_cmpfloat (b->events[1].u.counter.value, ==, 1.0);
  g_assert_cmpuint (b->events[1].category, ==, 0);
  /* not an integer: kept as a double, without the integer flag */
  check_event (b, 2, TRACE_EVENT_COUNTER, SEC (10, 2), 40, 42, "load");
  g_assert_cmpfloat (b->events[2].u.counter.value, ==, 1.5);
  g_assert_cmpuint (b->events[2].flags, ==, 0);
}

static void
test_marker_async (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      " ndroid.systemui-13580 (13580) [001] ...1 683202.104223: tracing_mark_write: S|13580|deliverInputEvent|263\n"
      " ndroid.systemui-13580 (13580) [001] ...1 683202.104606: tracing_mark_write: F|13580|deliverInputEvent|263\n"
      " ndroid.systemui-13580 (13580) [001] ...1 683202.104607: tracing_mark_write: S|13580|a|b|-5\n"
      " ndroid.systemui-13580 (13580) [001] ...1 683202.104608: tracing_mark_write: S|13580|ohos|12|%X%TAG|cat\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 5);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (683202, 104223), 13580, 13580, "ndroid.systemui");
  check_event (b, 1, TRACE_EVENT_ASYNC_BEGIN, SEC (683202, 104223), 13580, 13580, "deliverInputEvent");
  g_assert_cmpuint (b->events[1].flags, ==, TRACE_EVENT_FLAG_ASYNC_LEGACY);
  g_assert_cmpuint (b->events[1].u.async.id, ==, 263);
  check_event (b, 2, TRACE_EVENT_ASYNC_END, SEC (683202, 104606), 13580, 13580, "deliverInputEvent");
  g_assert_cmpuint (b->events[2].flags, ==, TRACE_EVENT_FLAG_ASYNC_LEGACY);
  g_assert_cmpuint (b->events[2].u.async.id, ==, 263);
  /* the cookie is the last field (perfetto) */
  check_event (b, 3, TRACE_EVENT_ASYNC_BEGIN, SEC (683202, 104607), 13580, 13580, "a|b");
  g_assert_cmpint ((gint64) b->events[3].u.async.id, ==, -5);
  /* unless it is not a number: then OpenHarmony's `name|cookie|...` */
  check_event (b, 4, TRACE_EVENT_ASYNC_BEGIN, SEC (683202, 104608), 13580, 13580, "ohos");
  g_assert_cmpuint (b->events[4].u.async.id, ==, 12);
}

static void
test_marker_instants_and_tracks (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-42 [001] .... 10.000000: tracing_mark_write: I|40|tap\n"
      "<...>-42 [001] .... 10.000001: tracing_mark_write: N|40|DeviceState|folded\n"
      "<...>-42 [001] .... 10.000002: tracing_mark_write: G|40|Net|request|77\n"
      "<...>-42 [001] .... 10.000003: tracing_mark_write: H|40|Net|77\n"
      "<...>-42 [001] .... 10.000004: tracing_mark_write: H|40|Net|request|78\n",
      NULL);
  const TraceEvent *e = b->events;

  g_assert_cmpuint (b->n_events, ==, 5);
  check_event (b, 0, TRACE_EVENT_INSTANT, SEC (10, 0), 40, 42, "tap");
  g_assert_cmpuint (e[0].flags, ==, 0);
  g_assert_cmpuint (e[0].u.slice.track, ==, 0);
  check_event (b, 1, TRACE_EVENT_INSTANT, SEC (10, 1), 40, 42, "folded");
  g_assert_cmpuint (e[1].flags, ==, TRACE_EVENT_FLAG_SCOPE_PROCESS);
  g_assert_cmpstr (str (b, e[1].u.slice.track), ==, "DeviceState");
  check_event (b, 2, TRACE_EVENT_ASYNC_BEGIN, SEC (10, 2), 40, 42, "request");
  g_assert_cmpstr (str (b, e[2].u.async.track), ==, "Net");
  g_assert_cmpuint (e[2].u.async.id, ==, 77);
  g_assert_cmpuint (e[2].flags, ==, 0);
  check_event (b, 3, TRACE_EVENT_ASYNC_END, SEC (10, 3), 40, 42, "");
  g_assert_cmpstr (str (b, e[3].u.async.track), ==, "Net");
  g_assert_cmpuint (e[3].u.async.id, ==, 77);
  check_event (b, 4, TRACE_EVENT_ASYNC_END, SEC (10, 4), 40, 42, "request");
  g_assert_cmpuint (e[4].u.async.id, ==, 78);
}

static void
test_marker_clock_sync (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "<...>-42 [001] .... 10.000000: tracing_mark_write: trace_event_clock_sync: realtime_ts=3720325137\n"
      "<...>-42 [001] .... 10.000001: tracing_mark_write: trace_event_clock_sync: name=4779a4ee-1\n"
      "dummy-0000  [000] 0.0: 0: trace_event_clock_sync: parent_ts=0.0\n",
      NULL);
  const TraceEvent *e = b->events;

  g_assert_cmpuint (b->n_events, ==, 3);
  check_event (b, 0, TRACE_EVENT_CLOCK_MARKER, SEC (10, 0), TRACE_ID_UNKNOWN, 42, NULL);
  g_assert_cmpuint (e[0].u.clock.marker, ==, TRACE_CLOCK_MARKER_REALTIME_TS);
  g_assert_cmpuint (e[0].u.clock.domain, ==, TRACE_CLOCK_REALTIME);
  g_assert_cmpint (e[0].u.clock.other_ts, ==, G_GINT64_CONSTANT (3720325137000000));
  g_assert_cmpuint (e[1].u.clock.marker, ==, TRACE_CLOCK_MARKER_SYNC_ID);
  g_assert_cmpstr (str (b, e[1].u.clock.sync_id), ==, "4779a4ee-1");
  /* legacy HTML's closing dummy: parent_ts=0 (same clock) */
  check_event (b, 2, TRACE_EVENT_CLOCK_MARKER, 0, 0, 0, NULL);
  g_assert_cmpuint (e[2].u.clock.marker, ==, TRACE_CLOCK_MARKER_PARENT_TS);
  g_assert_cmpint (e[2].u.clock.other_ts, ==, 0);
}

static void
test_marker_unknown_and_malformed (void)
{
  static const struct
  {
    const char *payload;
    FtraceProblem problem;
  } cases[] = {
    { "hello world", FTRACE_PROBLEM_UNKNOWN_MARKER },
    { "X|40|what", FTRACE_PROBLEM_UNKNOWN_MARKER },
    { "Begin|40|x", FTRACE_PROBLEM_UNKNOWN_MARKER },
    { "", FTRACE_PROBLEM_UNKNOWN_MARKER },
    { "B|abc|x", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "B", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "C|40|x", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "C|40|x|lots", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "S|40|x|y", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "H|40|track|notanumber", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "N|40", FTRACE_PROBLEM_MALFORMED_MARKER },
    { "trace_event_clock_sync: nothing=1", FTRACE_PROBLEM_MALFORMED_MARKER },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (FtraceParser) p = NULL;
      g_autoptr (TraceBatch) b = parse_payload (cases[i].payload, &p);
      const FtraceStats *st = ftrace_parser_get_stats (p);

      g_test_message ("payload \"%s\"", cases[i].payload);
      g_assert_cmpuint (b->n_events, ==, 0);
      g_assert_cmpuint (st->problems[cases[i].problem], ==, 1);
      g_assert_cmpuint (st->first_lines[cases[i].problem][0], ==, 1);
    }
}

static void
test_marker_print_and_msm (void)
{
  g_autoptr (TraceBatch) b = parse_text (
      "   kworker/u8:2-77    [000]   316.1: 0: B|77|__scm_call_armv8_64|0\n"
      "        bash-5  [001]   316.2: print:                tracing_mark_write: B|5|from_trace_cmd\n"
      "        bash-5  [001]   316.3: print:                0xffffffff8123abcds: E|5\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 5);
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (316, 100000), 77, 77, "__scm_call_armv8_64|0");
  check_event (b, 3, TRACE_EVENT_SLICE_BEGIN, SEC (316, 200000), 5, 5, "from_trace_cmd");
  check_event (b, 4, TRACE_EVENT_SLICE_END, SEC (316, 300000), 5, 5, "");
}

/* -------------------------------------------------------------- threads */

static void
test_thread_unknown_name_kept (void)
{
  /* perfetto's unknown_thread_name.systrace */
  g_autoptr (TraceBatch) b = parse_text (
      "          <idle>-0     [001] d..2  1234.000001: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=real_name next_pid=19999 next_prio=120\n"
      "           <...>-19999 [001] d..3  1234.000002: sched_wake_idle_without_ipi: cpu=2\n",
      NULL);

  g_assert_cmpuint (b->n_events, ==, 3);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1234, 1), TRACE_ID_UNKNOWN, 19999, "real_name");
  check_event (b, 1, TRACE_EVENT_SCHED_SWITCH, SEC (1234, 1), 0, 0, NULL);
  g_assert_cmpint (b->events[1].u.sched_switch.prev_state, ==, 0);
  check_event (b, 2, TRACE_EVENT_FTRACE, SEC (1234, 2), TRACE_ID_UNKNOWN, 19999, "sched_wake_idle_without_ipi");
  g_assert_cmpint (find_arg (b, &b->events[2], "cpu")->v.i, ==, 2);
}

static void
count_thread (gint64 tid,
              gint64 pid,
              guint32 name,
              gpointer user_data)
{
  guint *n = user_data;

  g_assert_true (tid == 700 || tid == 800);
  g_assert_cmpint (pid, ==, tid == 700 ? 643 : 801);
  (*n)++;
}

static void
test_thread_rename_and_pid_learning (void)
{
  guint n_threads;
  g_autoptr (FtraceParser) p = NULL;
  g_autoptr (TraceBatch) b = parse_text (
      "        worker-700   (  643) [001] .... 1.000000: cpu_idle: state=1 cpu_id=1\n"
      "        worker-700   [001] .... 1.000001: cpu_idle: state=2 cpu_id=1\n"
      "         <...>-700   [001] .... 1.000002: cpu_idle: state=3 cpu_id=1\n"
      "       renamed-700   [001] .... 1.000003: cpu_idle: state=4 cpu_id=1\n"
      "           app-800   [002] .... 1.000004: tracing_mark_write: B|801|x\n"
      "           app-800   [002] .... 1.000005: cpu_idle: state=5 cpu_id=2\n",
      &p);
  gint64 pid;
  guint32 name;

  g_assert_cmpuint (b->n_events, ==, 9);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1, 0), 643, 700, "worker");
  /* the TGID column of line 1 fills the pid of later lines without it */
  check_event (b, 2, TRACE_EVENT_CPU_IDLE, SEC (1, 1), 643, 700, NULL);
  check_event (b, 3, TRACE_EVENT_CPU_IDLE, SEC (1, 2), 643, 700, NULL);
  /* a changed comm is announced again */
  check_event (b, 4, TRACE_EVENT_THREAD_NAME, SEC (1, 3), 643, 700, "renamed");
  check_event (b, 6, TRACE_EVENT_THREAD_NAME, SEC (1, 4), 801, 800, "app");
  /* the pid a marker taught fills later kernel lines */
  check_event (b, 8, TRACE_EVENT_CPU_IDLE, SEC (1, 5), 801, 800, NULL);
  g_assert_true (ftrace_parser_lookup_thread (p, 700, &pid, &name));
  g_assert_cmpint (pid, ==, 643);
  g_assert_cmpstr (str (b, name), ==, "renamed");
  g_assert_false (ftrace_parser_lookup_thread (p, 701, &pid, &name));
  n_threads = 0;
  ftrace_parser_foreach_thread (p, count_thread, &n_threads);
  g_assert_cmpuint (n_threads, ==, 2);
}

static void
test_thread_name_limits (void)
{
  g_autoptr (FtraceParser) p = NULL;
  g_autofree char *long_name = g_strnfill (FTRACE_MAX_NAME_LENGTH + 10, 'n');
  g_autofree char *text = g_strdup_printf (
      "<...>-1 [000] .... 1.0: tracing_mark_write: B|1|%s\n"
      "bad\xff\xfename-2 [000] .... 1.0: tracing_mark_write: B|2|ok\n",
      long_name);
  g_autoptr (TraceBatch) b = parse_text (text, &p);
  const FtraceStats *st = ftrace_parser_get_stats (p);

  g_assert_cmpuint (b->n_events, ==, 3);
  g_assert_cmpuint (strlen (str (b, b->events[0].name)), ==, FTRACE_MAX_NAME_LENGTH);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_NAME_TRUNCATED], ==, 1);
  check_event (b, 1, TRACE_EVENT_THREAD_NAME, SEC (1, 0), 2, 2, "bad\xef\xbf\xbd\xef\xbf\xbdname");
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_INVALID_UTF8], ==, 1);
  g_assert_cmpuint (st->first_lines[FTRACE_PROBLEM_INVALID_UTF8][0], ==, 2);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/layout/tgid-padded", test_layout_tgid_padded);
  g_test_add_func ("/ftrace/layout/tgid-unknown", test_layout_tgid_unknown);
  g_test_add_func ("/ftrace/layout/tgid-fixed", test_layout_tgid_fixed);
  g_test_add_func ("/ftrace/layout/no-tgid", test_layout_no_tgid);
  g_test_add_func ("/ftrace/layout/no-flags", test_layout_no_flags);
  g_test_add_func ("/ftrace/layout/flags-variants", test_layout_flags_variants);
  g_test_add_func ("/ftrace/layout/task-names", test_layout_task_names);
  g_test_add_func ("/ftrace/layout/timestamps", test_layout_timestamps);
  g_test_add_func ("/ftrace/layout/counter-clock", test_layout_counter_clock);
  g_test_add_func ("/ftrace/layout/clock-type-header", test_layout_clock_type_header);
  g_test_add_func ("/ftrace/layout/line-endings", test_layout_line_endings);
  g_test_add_func ("/ftrace/layout/special-lines", test_layout_special_lines);
  g_test_add_func ("/ftrace/layout/preambles", test_preambles);
  g_test_add_func ("/ftrace/marker/begin-end", test_marker_begin_end);
  g_test_add_func ("/ftrace/marker/bare-end-learnt-pid", test_marker_bare_end_learnt_pid);
  g_test_add_func ("/ftrace/marker/counter", test_marker_counter);
  g_test_add_func ("/ftrace/marker/async", test_marker_async);
  g_test_add_func ("/ftrace/marker/instants-and-tracks", test_marker_instants_and_tracks);
  g_test_add_func ("/ftrace/marker/clock-sync", test_marker_clock_sync);
  g_test_add_func ("/ftrace/marker/unknown-and-malformed", test_marker_unknown_and_malformed);
  g_test_add_func ("/ftrace/marker/print-and-msm", test_marker_print_and_msm);
  g_test_add_func ("/ftrace/thread/unknown-name-kept", test_thread_unknown_name_kept);
  g_test_add_func ("/ftrace/thread/rename-and-pid-learning", test_thread_rename_and_pid_learning);
  g_test_add_func ("/ftrace/thread/name-limits", test_thread_name_limits);
  return g_test_run ();
}
