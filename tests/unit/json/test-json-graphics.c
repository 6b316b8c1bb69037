/* tracepipe - json plugin tests: GPU counters, frame timelines and
 * sys_stats tables of a Perfetto stream (records of their packets)
 * written as Chrome events
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "graphics_packets.pb-c.h"
#include "json-test-util.h"
#include "sys_stats_packet.pb-c.h"
#include "../../test-util.h"

/* A record as perfetto-src makes it of a packet of kind @field whose
 * payload is @msg followed by @tail (fields @msg does not declare): the
 * payload with its length prefix, in base64. */
static void
add_record_tail (TestOut *o,
                 gint64 ts,
                 guint field,
                 const ProtobufCMessage *msg,
                 const guint8 *tail,
                 gsize tail_len)
{
  gsize len = protobuf_c_message_get_packed_size (msg) + tail_len;
  g_autofree guint8 *buf = g_malloc (len + 10);
  g_autofree char *name = g_strdup_printf ("perfetto_packet_%u", field);
  g_autofree char *b64 = NULL;
  gsize n = 0;
  TraceEvent *ev = test_add (o->batch, TRACE_EVENT_RECORD, ts, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, name);

  for (gsize v = len; n == 0 || v > 0; v >>= 7)
    buf[n++] = (v & 0x7f) | (v >= 0x80 ? 0x80 : 0);
  protobuf_c_message_pack (msg, buf + n);
  if (tail_len > 0)
    memcpy (buf + n + len - tail_len, tail, tail_len);
  b64 = g_base64_encode (buf, n + len);
  trace_batch_add_arg (o->batch, ev, trace_string_pool_intern (o->pool, "perfetto.field"), TRACE_ARG_UINT)->v.u = field;
  trace_batch_add_arg_string (o->batch, ev, "perfetto.bytes", b64);
}

static void
add_record (TestOut *o,
            gint64 ts,
            guint field,
            const ProtobufCMessage *msg)
{
  add_record_tail (o, ts, field, msg, NULL, 0);
}

static void
add_gpu_values (TestOut *o,
                gint64 ts,
                const guint32 *ids,
                const double *values,
                gsize n,
                Tracepipe__Json__GpuCounterDescriptor *desc)
{
  Tracepipe__Json__GpuCounterEvent e = TRACEPIPE__JSON__GPU_COUNTER_EVENT__INIT;
  Tracepipe__Json__GpuCounterValue v[4], *pv[4];

  for (gsize i = 0; i < n; i++)
    {
      tracepipe__json__gpu_counter_value__init (&v[i]);
      v[i].has_counter_id = TRUE;
      v[i].counter_id = ids[i];
      v[i].value_case = TRACEPIPE__JSON__GPU_COUNTER_VALUE__VALUE_DOUBLE_VALUE;
      v[i].double_value = values[i];
      pv[i] = &v[i];
    }
  e.counter_descriptor = desc;
  e.n_counters = n;
  e.counters = pv;
  add_record (o, ts, 52, &e.base);
}

/* Each GPU counter value is the one of the interval that ends at it:
 * trace_processor shows it at the counter's sample before (0 at the
 * last), unless the spec says forwards looking. */
static void
test_gpu_counters (void)
{
  Tracepipe__Json__GpuCounterDescriptor desc = TRACEPIPE__JSON__GPU_COUNTER_DESCRIPTOR__INIT;
  Tracepipe__Json__GpuCounterSpec s[2], *ps[2] = { &s[0], &s[1] };
  const guint32 ids[] = { 1, 2, 9 };
  const double first[] = { 10, 500, 1 }, second[] = { 20.5, 600 };
  JsonObject *e;
  TestOut o;

  test_out_init (&o);
  for (guint i = 0; i < 2; i++)
    {
      tracepipe__json__gpu_counter_spec__init (&s[i]);
      s[i].has_counter_id = TRUE;
      s[i].counter_id = i + 1;
    }
  s[0].name = (char *) "GPU Utilization";
  s[1].name = (char *) "Frequency";
  s[1].has_value_direction = TRUE;
  s[1].value_direction = 2;
  desc.n_specs = 2;
  desc.specs = ps;
  add_gpu_values (&o, 100, NULL, NULL, 0, &desc);
  add_gpu_values (&o, 1000, ids, first, 3, NULL);
  add_gpu_values (&o, 2000, ids, second, 2, NULL);
  test_out_write (&o, NULL);
  g_assert_cmpuint (test_count_ph (o.events, "M"), ==, 0);
  g_assert_cmpuint (test_count_ph (o.events, "C"), ==, 4);
  e = test_json_event (o.events, "C", "GPU", 0);
  g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, 1.0);
  g_assert_false (json_object_has_member (e, "pid"));
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (e, "args"), "Utilization"), ==,
                     20.5);
  e = test_json_event (o.events, "C", "GPU", 1);
  g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, 2.0);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (e, "args"), "Utilization"), ==, 0);
  e = test_json_event (o.events, "C", "Frequency", 1);
  g_assert_cmpfloat (json_object_get_double_member (e, "ts"), ==, 2.0);
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (e, "args"), "value"), ==, 600);
  g_assert_cmpuint (o.stats.dropped_gpu_counters, ==, 1);
  test_out_clear (&o);
}

static void
add_frame (TestOut *o,
           gint64 ts,
           Tracepipe__Json__FrameTimelineEvent__EventCase kind,
           gint64 cookie,
           gint64 token,
           gint64 display_token,
           gint32 pid)
{
  Tracepipe__Json__FrameTimelineEvent e = TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__INIT;
  Tracepipe__Json__SurfaceFrameStart surface = TRACEPIPE__JSON__SURFACE_FRAME_START__INIT;
  Tracepipe__Json__DisplayFrameStart display = TRACEPIPE__JSON__DISPLAY_FRAME_START__INIT;
  Tracepipe__Json__FrameEnd end = TRACEPIPE__JSON__FRAME_END__INIT;

  e.event_case = kind;
  surface.has_cookie = display.has_cookie = end.has_cookie = TRUE;
  surface.cookie = display.cookie = end.cookie = cookie;
  surface.has_token = display.has_token = TRUE;
  surface.token = display.token = token;
  surface.has_pid = display.has_pid = TRUE;
  surface.pid = display.pid = pid;
  surface.has_display_frame_token = TRUE;
  surface.display_frame_token = display_token;
  surface.layer_name = (char *) "Layer1";
  /* an app's frame late by its own jank (App Deadline Missed, Buffer Stuffing) */
  surface.has_present_type = TRUE;
  surface.present_type = 2;
  surface.has_jank_type = TRUE;
  surface.jank_type = 64 | 128;
  display.has_jank_type = TRUE;
  display.jank_type = 1;
  /* the members of a oneof share one pointer */
  if (kind == TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_SURFACE_FRAME_START)
    e.actual_surface_frame_start = &surface;
  else if (kind == TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_DISPLAY_FRAME_START)
    e.actual_display_frame_start = &display;
  else
    e.frame_end = &end;
  add_record (o, ts, 76, &e.base);
}

/* Frames are async slices of their process named by token, ended by
 * cookie; the actual surface frame is linked to its display frame. */
static void
test_frame_timeline (void)
{
  JsonObject *surface, *display, *end, *args;
  TestOut o;

  test_out_init (&o);
  add_frame (&o, 21, TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_SURFACE_FRAME_START, 6, 1, 4, 1000);
  add_frame (&o, 22, TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_SURFACE_FRAME_START, 7, 2, 4, 1000);
  add_frame (&o, 37, TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_FRAME_END, 6, 0, 0, 0);
  add_frame (&o, 42, TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_ACTUAL_DISPLAY_FRAME_START, 4, 4, 0, 666);
  add_frame (&o, 47, TRACEPIPE__JSON__FRAME_TIMELINE_EVENT__EVENT_FRAME_END, 99, 0, 0, 0);
  test_out_write (&o, NULL);
  g_assert_cmpuint (test_count_ph (o.events, "M"), ==, 0);
  surface = test_json_event (o.events, "b", "1", 0);
  g_assert_cmpint (json_object_get_int_member (surface, "pid"), ==, 1000);
  g_assert_cmpstr (json_object_get_string_member (surface, "cat"), ==, "Actual Timeline");
  g_assert_true (json_object_get_boolean_member (surface, "flow_out"));
  /* the frame's class in trace_processor's words */
  args = json_object_get_object_member (surface, "args");
  g_assert_cmpstr (json_object_get_string_member (args, "Present type"), ==, "Late Present");
  g_assert_cmpstr (json_object_get_string_member (args, "Jank type"), ==, "App Deadline Missed, Buffer Stuffing");
  g_assert_cmpstr (json_object_get_string_member (args, "Prediction type"), ==, "Unspecified Prediction");
  g_assert_cmpint (json_object_get_int_member (args, "Display frame token"), ==, 4);
  display = test_json_event (o.events, "b", "4", 0);
  g_assert_cmpint (json_object_get_int_member (display, "pid"), ==, 666);
  g_assert_true (json_object_get_boolean_member (display, "flow_in"));
  args = json_object_get_object_member (display, "args");
  g_assert_cmpstr (json_object_get_string_member (args, "Jank type"), ==, "None");
  g_assert_cmpstr (json_object_get_string_member (args, "Present type"), ==, "Unspecified Present");
  g_assert_cmpstr (json_object_get_string_member (display, "bind_id"), ==,
                   json_object_get_string_member (surface, "bind_id"));
  /* the second surface frame of display frame 4 is not linked */
  g_assert_false (json_object_has_member (test_json_event (o.events, "b", "2", 0), "bind_id"));
  end = test_json_event (o.events, "e", "1", 0);
  g_assert_cmpstr (json_object_get_string_member (end, "id"), ==, json_object_get_string_member (surface, "id"));
  g_assert_cmpuint (test_count_ph (o.events, "e"), ==, 1);
  g_assert_cmpuint (o.stats.dropped_frame_links, ==, 1);
  g_assert_cmpuint (o.stats.dropped_frames, ==, 1);
  test_out_clear (&o);
}

static double
counter_value (JsonArray *events,
               const char *name,
               const char *key)
{
  JsonObject *e = test_json_event (events, "C", name, 0);

  g_assert_nonnull (e);
  g_assert_false (json_object_has_member (e, "pid"));
  return json_object_get_double_member (json_object_get_object_member (e, "args"), key);
}

/* A sys_stats record's meminfo (bytes), cpu times and cpuidle states are
 * C events of no process, one per value; a meminfo key with no name, cpu
 * times of no cpu and the entries of other tables (here a vmstat entry)
 * are counted. */
static void
test_sys_stats (void)
{
  Tracepipe__Json__SysStatsPacket s = TRACEPIPE__JSON__SYS_STATS_PACKET__INIT;
  Tracepipe__Json__SysStatsPacket__MeminfoValue mem[2], *pmem[] = { &mem[0], &mem[1] };
  Tracepipe__Json__SysStatsPacket__CpuTimes cpu[2], *pcpu[] = { &cpu[0], &cpu[1] };
  Tracepipe__Json__SysStatsPacket__CpuIdleStateEntry c1 = TRACEPIPE__JSON__SYS_STATS_PACKET__CPU_IDLE_STATE_ENTRY__INIT;
  Tracepipe__Json__SysStatsPacket__CpuIdleStateEntry *pc1[] = { &c1 };
  Tracepipe__Json__SysStatsPacket__CpuIdleState idle = TRACEPIPE__JSON__SYS_STATS_PACKET__CPU_IDLE_STATE__INIT;
  Tracepipe__Json__SysStatsPacket__CpuIdleState *pidle[] = { &idle };
  /* vmstat (field 2) entry {key: 3, value: 9} */
  static const guint8 vmstat[] = { 0x12, 0x04, 0x08, 0x03, 0x10, 0x09 };
  TestOut o;

  for (guint i = 0; i < 2; i++)
    {
      tracepipe__json__sys_stats_packet__meminfo_value__init (&mem[i]);
      mem[i].has_key = mem[i].has_value = TRUE;
      tracepipe__json__sys_stats_packet__cpu_times__init (&cpu[i]);
      cpu[i].has_user_ns = cpu[i].has_idle_ns = TRUE;
    }
  mem[0].key = 2; /* MemFree */
  mem[0].value = 100;
  mem[1].key = 1000;
  mem[1].value = 5;
  cpu[0].has_cpu_id = TRUE;
  cpu[0].cpu_id = 1;
  cpu[0].user_ns = 10;
  cpu[0].idle_ns = 20;
  c1.state = "C1";
  c1.has_duration_us = TRUE;
  c1.duration_us = 7;
  idle.has_cpu_id = TRUE;
  idle.cpu_id = 0;
  idle.n_cpuidle_state_entry = 1;
  idle.cpuidle_state_entry = pc1;
  s.n_meminfo = s.n_cpu_stat = 2;
  s.meminfo = pmem;
  s.cpu_stat = pcpu;
  s.n_cpuidle_state = 1;
  s.cpuidle_state = pidle;

  test_out_init (&o);
  add_record_tail (&o, 3000, 7, &s.base, vmstat, sizeof vmstat);
  test_out_write (&o, NULL);
  g_assert_cmpuint (test_count_ph (o.events, "M"), ==, 0);
  g_assert_cmpuint (test_count_ph (o.events, "C"), ==, 1 + 8 + 1);
  g_assert_cmpfloat (counter_value (o.events, "meminfo", "MemFree"), ==, 102400);
  g_assert_cmpfloat (counter_value (o.events, "cpu1.times", "user_ns"), ==, 10);
  g_assert_cmpfloat (json_object_get_double_member (test_json_event (o.events, "C", "cpu1.times", 0), "ts"), ==, 3.0);
  g_assert_cmpfloat (counter_value (o.events, "cpuidle0", "C1"), ==, 7);
  g_assert_cmpuint (o.stats.dropped_sys_stats, ==, 3);
  test_out_clear (&o);
}

/* A record of another kind, or whose payload does not decode, is still
 * written as a metadata event. */
static void
test_other_records_kept (void)
{
  Tracepipe__Json__FrameEnd end = TRACEPIPE__JSON__FRAME_END__INIT;
  TraceEvent *ev;
  TestOut o;

  test_out_init (&o);
  add_record (&o, 5, 40, &end.base);
  ev = test_add (o.batch, TRACE_EVENT_RECORD, 6, TRACE_ID_UNKNOWN, TRACE_ID_UNKNOWN, "perfetto_packet_76");
  trace_batch_add_arg (o.batch, ev, trace_string_pool_intern (o.pool, "perfetto.field"), TRACE_ARG_UINT)->v.u = 76;
  /* a payload of 3 bytes that is no message (a tag of field number 0) */
  trace_batch_add_arg_string (o.batch, ev, "perfetto.bytes", "AwAAAA==");
  test_out_write (&o, NULL);
  g_assert_nonnull (test_json_event (o.events, "M", "perfetto_packet_40", 0));
  g_assert_nonnull (test_json_event (o.events, "M", "perfetto_packet_76", 0));
  g_assert_cmpuint (o.stats.records, ==, 2);
  test_out_clear (&o);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json/graphics/gpu-counters", test_gpu_counters);
  g_test_add_func ("/json/graphics/frame-timeline", test_frame_timeline);
  g_test_add_func ("/json/graphics/sys-stats", test_sys_stats);
  g_test_add_func ("/json/graphics/other-records-kept", test_other_records_kept);
  return g_test_run ();
}
