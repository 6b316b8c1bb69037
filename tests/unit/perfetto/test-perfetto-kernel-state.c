/* Unit tests: a sched_switch's prev_state across kernel versions
 * (perfetto-kernel-state.c): read by the version a trace's system_info
 * names, written back in the layout the output declares. The expected
 * values are the kernel's bits as trace_processor's TaskState decodes them
 * (4.4 layout; 4.8: preemption 0x1000; 4.14: parked 0x40, idle 0x80,
 * preemption 0x100). */
#include "perfetto-test-util.h"

#include <string.h>

#include "trace.pb-c.h"

#define V(major, minor) (((guint32) (major) << 16) | (minor))

static void
test_version (void)
{
  g_assert_cmpuint (perfetto_kernel_version ("Linux", "5.10.43-android12-9-00001"), ==, V (5, 10));
  g_assert_cmpuint (perfetto_kernel_version ("Linux", "4.4.0"), ==, V (4, 4));
  g_assert_cmpuint (perfetto_kernel_version ("Linux", "6.0.1"), ==, V (6, 0));
  g_assert_cmpuint (perfetto_kernel_version ("Linux", "4.14"), ==, V (4, 14));
  /* what trace_processor does not read as a version */
  g_assert_cmpuint (perfetto_kernel_version ("Linux", "5.10-rc1"), ==, 0);
  g_assert_cmpuint (perfetto_kernel_version ("Linux", "5"), ==, 0);
  g_assert_cmpuint (perfetto_kernel_version ("Linux", ""), ==, 0);
  g_assert_cmpuint (perfetto_kernel_version ("Linux", NULL), ==, 0);
  g_assert_cmpuint (perfetto_kernel_version ("Darwin", "20.1.0"), ==, 0);
  g_assert_cmpuint (perfetto_kernel_version (NULL, "5.10"), ==, 0);
}

static void
test_from_raw (void)
{
  /* no version, and before 4.8: the model's own layout */
  g_assert_cmpint (perfetto_task_state_from_raw (0x80, 0), ==, TRACE_TASK_STATE_WAKEKILL);
  g_assert_cmpint (perfetto_task_state_from_raw (0x800, V (4, 4)), ==, TRACE_TASK_STATE_PREEMPTED);
  /* 4.8 to 4.13 */
  g_assert_cmpint (perfetto_task_state_from_raw (0x1000, V (4, 9)), ==, TRACE_TASK_STATE_PREEMPTED);
  g_assert_cmpint (perfetto_task_state_from_raw (0x402, V (4, 9)), ==, TRACE_TASK_STATE_IDLE);
  g_assert_cmpint (perfetto_task_state_from_raw (0x880, V (4, 9)), ==, TRACE_TASK_STATE_WAKEKILL);
  /* 4.14 and later */
  g_assert_cmpint (perfetto_task_state_from_raw (0x40, V (5, 10)), ==, TRACE_TASK_STATE_PARKED);
  g_assert_cmpint (perfetto_task_state_from_raw (0x80, V (5, 10)), ==, TRACE_TASK_STATE_IDLE);
  g_assert_cmpint (perfetto_task_state_from_raw (0x100, V (5, 10)), ==, TRACE_TASK_STATE_PREEMPTED);
  g_assert_cmpint (perfetto_task_state_from_raw (0x1, V (6, 1)), ==, TRACE_TASK_STATE_INTERRUPTIBLE);
  g_assert_cmpint (perfetto_task_state_from_raw (0x22, V (6, 1)), ==, 0x22);
  g_assert_cmpint (perfetto_task_state_from_raw (0x200, V (5, 10)), ==, -1);
  g_assert_cmpint (perfetto_task_state_from_raw (-1, V (5, 10)), ==, -1);
}

/* Every state a trace of each version holds comes back as it was. */
static void
test_round_trip (void)
{
  static const struct
  {
    guint32 version;
    gint64 raws[12];
  } cases[] = {
    { 0, { 0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x402, 0x800 } },
    { V (4, 9), { 0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x402, 0x1000 } },
    { V (5, 10), { 0, 0x1, 0x2, 0x4, 0x8, 0x10, 0x20, 0x40, 0x80, 0x100, 0x41, 0x3 } },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint i = 0; i < G_N_ELEMENTS (cases[c].raws); i++)
      {
        gint64 raw = cases[c].raws[i];
        gint64 state = perfetto_task_state_from_raw (raw, cases[c].version);

        g_assert_cmpint (perfetto_task_state_to_raw (state, cases[c].version), ==, raw);
      }
}

/* The prev_states of the sched switches in @bytes, in file order of
 * their bundles (full switches, then compact ones), decoded with
 * protobuf-c; @release: the utsname release of its system_info, "" for a
 * system_info without utsname, %NULL for none. */
static GArray *
written_states (GBytes *bytes,
                char **release)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, len, data);
  GArray *states = g_array_new (FALSE, FALSE, sizeof (gint64));

  g_assert_nonnull (trace);
  *release = NULL;
  for (gsize p = 0; p < trace->n_packet; p++)
    {
      const Perfetto__Protos__TracePacket *pkt = trace->packet[p];
      const Perfetto__Protos__FtraceEventBundle *b =
          pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS ? pkt->ftrace_events : NULL;

      /* (the payloads are a oneof: a union) */
      if (pkt->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_SYSTEM_INFO)
        {
          g_assert_null (*release);
          *release = g_strdup (pkt->system_info->utsname ? pkt->system_info->utsname->release : "");
        }
      if (b == NULL)
        continue;
      for (gsize e = 0; e < b->n_event; e++)
        if (b->event[e]->sched_switch)
          g_array_append_val (states, b->event[e]->sched_switch->prev_state);
      if (b->compact_sched)
        for (gsize i = 0; i < b->compact_sched->n_switch_prev_state; i++)
          g_array_append_val (states, b->compact_sched->switch_prev_state[i]);
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  return states;
}

/* A 5.10 system trace (kernel_5_10_states.textproto): its idle, preempted
 * and parked states read as such (not as wakekill, waking and dead, the
 * 4.4 meaning of the same bits), in full and compact switches; written
 * back, the same bits under the same system_info. */
static void
test_trace (void)
{
  static const gint64 want_states[] = {
    0,
    TRACE_TASK_STATE_IDLE,
    TRACE_TASK_STATE_PREEMPTED,
    TRACE_TASK_STATE_PARKED,
    TRACE_TASK_STATE_INTERRUPTIBLE,
    TRACE_TASK_STATE_UNINTERRUPTIBLE,
    0,
    TRACE_TASK_STATE_IDLE,
    TRACE_TASK_STATE_PREEMPTED,
  };
  static const gint64 want_raw[] = { 0, 0x80, 0x100, 0x40, 0x1, 0x2, 0, 0x80, 0x100 };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  PerfettoWriterStats ws;
  g_autoptr (TraceBatch) in = pt_read_data_file (pool, "kernel_5_10_states.pftrace", &rs);
  g_autoptr (GBytes) written = NULL;
  g_autoptr (GArray) raw = NULL;
  g_autofree char *release = NULL;
  guint n = 0;

  for (guint i = 0; i < in->n_events; i++)
    if (in->events[i].kind == TRACE_EVENT_SCHED_SWITCH)
      {
        g_assert_cmpuint (n, <, G_N_ELEMENTS (want_states));
        g_assert_cmpint (in->events[i].u.sched_switch.prev_state, ==, want_states[n]);
        n++;
      }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (want_states));
  g_assert_cmpuint (rs.opaque_packets, ==, 1);
  g_assert_cmpuint (rs.late_system_info, ==, 0);

  written = pt_write (&in, 1, NULL, &ws);
  g_assert_cmpuint (ws.records, ==, 1);
  g_assert_cmpuint (ws.dropped_other + ws.dropped_late_utsname, ==, 0);
  raw = written_states (written, &release);
  g_assert_cmpstr (release, ==, "5.10.43-android12-9-00001");
  g_assert_cmpuint (raw->len, ==, G_N_ELEMENTS (want_raw));
  for (guint i = 0; i < raw->len; i++)
    g_assert_cmpint (g_array_index (raw, gint64, i), ==, want_raw[i]);
}

/* A record of a system_info of a SystemInfo naming @release. */
static void
add_system_info (TraceBatch *b,
                 gint64 ts,
                 const char *release)
{
  Perfetto__Protos__Utsname uts = PERFETTO__PROTOS__UTSNAME__INIT;
  Perfetto__Protos__SystemInfo info = PERFETTO__PROTOS__SYSTEM_INFO__INIT;
  gsize len;
  g_autofree guint8 *buf = NULL;
  g_autofree char *text = NULL;
  TraceEvent *ev;

  uts.sysname = (char *) "Linux";
  uts.release = (char *) release;
  info.utsname = &uts;
  len = protobuf_c_message_get_packed_size (&info.base);
  g_assert_cmpuint (len, <, 128);
  buf = g_malloc (len + 1);
  buf[0] = (guint8) len;
  protobuf_c_message_pack (&info.base, buf + 1);
  text = g_base64_encode (buf, len + 1);
  ev = trace_batch_append (b, TRACE_EVENT_RECORD, ts);
  ev->name = pt_str (b, "perfetto_packet_45");
  trace_batch_add_arg (b, ev, pt_str (b, "perfetto.field"), TRACE_ARG_UINT)->v.u = 45;
  trace_batch_add_arg_string (b, ev, "perfetto.bytes", text);
}

static TraceEvent *
add_switch (TraceBatch *b,
            gint64 ts,
            gint64 state)
{
  TraceEvent *ev = pt_add (b, TRACE_EVENT_SCHED_SWITCH, ts, 10, 10, "sched_switch");

  ev->cpu = 0;
  ev->u.sched_switch.prev_tid = 10;
  ev->u.sched_switch.prev_state = state;
  ev->u.sched_switch.next_tid = 0;
  return ev;
}

/* States written before the output names a kernel are in the 4.4 layout:
 * a system_info that comes later and names 5.10 loses its utsname, so
 * trace_processor keeps reading them as 4.4; one before any state
 * decides how the states are written. */
static void
test_late_system_info (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) late = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) early = trace_batch_new (pool, 0);
  g_autoptr (GBytes) late_bytes = NULL;
  g_autoptr (GBytes) early_bytes = NULL;
  g_autoptr (GArray) raw = NULL;
  g_autoptr (GArray) early_raw = NULL;
  g_autofree char *release = NULL;
  g_autofree char *early_release = NULL;
  PerfettoWriterStats ws;

  add_switch (late, 100, TRACE_TASK_STATE_IDLE);
  add_system_info (late, 200, "5.10.43");
  late_bytes = pt_write (&late, 1, NULL, &ws);
  g_assert_cmpuint (ws.dropped_late_utsname, ==, 1);
  raw = written_states (late_bytes, &release);
  g_assert_cmpstr (release, ==, "");
  g_assert_cmpint (g_array_index (raw, gint64, 0), ==, TRACE_TASK_STATE_IDLE);

  add_system_info (early, 50, "5.10.43");
  add_switch (early, 100, TRACE_TASK_STATE_IDLE);
  early_bytes = pt_write (&early, 1, NULL, &ws);
  g_assert_cmpuint (ws.dropped_late_utsname, ==, 0);
  early_raw = written_states (early_bytes, &early_release);
  g_assert_cmpstr (early_release, ==, "5.10.43");
  g_assert_cmpint (g_array_index (early_raw, gint64, 0), ==, 0x80);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/kernel-state/version", test_version);
  g_test_add_func ("/perfetto/kernel-state/from-raw", test_from_raw);
  g_test_add_func ("/perfetto/kernel-state/round-trip", test_round_trip);
  g_test_add_func ("/perfetto/kernel-state/trace", test_trace);
  g_test_add_func ("/perfetto/kernel-state/late-system-info", test_late_system_info);
  return g_test_run ();
}
