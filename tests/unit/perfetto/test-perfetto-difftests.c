/* Unit tests: perfetto-src on traces Perfetto's own diff tests hold
 * (tests/data/perfetto/difftest_*.pftrace, encoded from their .textproto
 * beside them): each test's events are read off the .textproto by hand. */
#include "perfetto-test-util.h"

#include <string.h>

#include "trace.pb-c.h"

static TraceBatch *
read_difftest (TraceStringPool *pool,
               const char *name,
               PerfettoReaderStats *rs)
{
  g_autofree char *file = g_strdup_printf ("difftest_%s.pftrace", name);

  return pt_read_data_file (pool, file, rs);
}

static void
assert_events (TraceBatch *out,
               const char *const *want,
               guint n_want)
{
  g_autoptr (GPtrArray) got = pt_event_strings (out, FALSE);

  g_assert_cmpuint (got->len, ==, n_want);
  for (guint i = 0; i < n_want; i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
}

/* Chrome flow v2 in legacy_event: bind_id with a direction, slices with
 * a duration_us (X); one sender (FlowStepSlice both receives and sends). */
static void
test_flow_v2 (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "flow_events_proto_v2", &rs);
  const char *want[] = {
    "thread-name ts=0 pid=1 tid=1 cpu=-1 name='t1' cat='' flags=0x0",
    "thread-name ts=0 pid=2 tid=2 cpu=-1 name='t2' cat='' flags=0x0",
    "slice-complete ts=10000 pid=1 tid=1 cpu=-1 name='FlowBeginSlice' cat='test' flags=0x100 dur=10000 out=1 in=0 track=''",
    "slice-complete ts=30000 pid=2 tid=2 cpu=-1 name='FlowEndSlice_1' cat='test' flags=0x100 dur=10000 out=0 in=1 track=''",
    "slice-complete ts=50000 pid=1 tid=1 cpu=-1 name='FlowStepSlice' cat='test' flags=0x100 dur=10000 out=1 in=1 track=''",
    "slice-complete ts=55000 pid=2 tid=2 cpu=-1 name='FlowEndSlice_2' cat='test' flags=0x100 dur=10000 out=0 in=1 track=''",
  };

  assert_events (out, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
}

/* Legacy S/T/p/F on a global id, from two sequences with no track named:
 * async events of the sequence's thread's process, nested on the id, the
 * step names from the "step" annotation; each keeps the thread that
 * recorded it, and says it was a legacy phase of the S family (0x1800;
 * a `p` also steps into the past, 0x200), which perfetto-sink writes
 * back as it came. */
static void
test_legacy_async (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "legacy_async_event", &rs);
  const char *want[] = {
    "thread-name ts=0 pid=5 tid=1 cpu=-1 name='t1' cat='' flags=0x0",
    "thread-name ts=0 pid=5 tid=5 cpu=-1 name='t1' cat='' flags=0x0",
    "async-begin ts=1000 pid=5 tid=1 cpu=-1 name='name1' cat='cat' flags=0x1820 id=1234 scope='' track='' step='' arg1=s:'value1'",
    "async-begin ts=2000 pid=5 tid=5 cpu=-1 name='name1' cat='cat' flags=0x1820 id=1234 scope='' track='' step=''",
    "async-end ts=3000 pid=5 tid=5 cpu=-1 name='name1' cat='cat' flags=0x1820 id=1234 scope='' track='' step=''",
    "async-end ts=8000 pid=5 tid=1 cpu=-1 name='name1' cat='cat' flags=0x1820 id=1234 scope='' track='' step='' arg2=s:'value2'",
    "async-step ts=3000 pid=5 tid=1 cpu=-1 name='name1' cat='cat' flags=0x1820 id=1234 scope='' track='' step='Step1' arg3=s:'value3' step=s:'Step1'",
    "async-step ts=5000 pid=5 tid=1 cpu=-1 name='name1' cat='cat' flags=0x1a20 id=1234 scope='' track='' step='Step2' arg4=s:'value4' step=s:'Step2'",
  };

  assert_events (out, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
  g_assert_cmpuint (rs.unknown_track, ==, 0);
}

static const TraceEvent *
find_event (TraceBatch *out,
            TraceEventKind kind,
            gint64 ts,
            const char *name)
{
  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (ev->kind == kind && ev->ts == ts && g_strcmp0 (trace_string_pool_get (out->pool, ev->name), name) == 0)
        return ev;
    }
  g_assert_not_reached ();
}

/* Thread time from extra_counter_values on a COUNTER_THREAD_TIME_NS track
 * named by the sequence's defaults (in µs: unit_multiplier 1000, deltas:
 * is_incremental, restarting when the track is declared again), and from
 * thread_time_absolute_us; other extra values become counters. */
static void
test_counters_thread_time (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "track_event_counters", &rs);
  const struct
  {
    TraceEventKind kind;
    gint64 ts;
    const char *name;
    gint64 thread_ts;
  } want[] = {
    { TRACE_EVENT_SLICE_BEGIN, 1000, "event1_on_t1", 1000000 },
    { TRACE_EVENT_SLICE_END, 1100, "", 1010000 },
    { TRACE_EVENT_SLICE_BEGIN, 2000, "event2_on_t1", 2000000 },
    { TRACE_EVENT_SLICE_BEGIN, 2000, "event3_on_t1", 2010000 },
    { TRACE_EVENT_INSTANT, 4000, "event4_on_t1", 2040000 },
    { TRACE_EVENT_SLICE_BEGIN, 4000, "event1_on_t3", 10000 },
  };
  const TraceEvent *ev;

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      ev = find_event (out, want[i].kind, want[i].ts, want[i].name);
      g_assert_true (ev->flags & TRACE_EVENT_FLAG_THREAD_TIME);
      g_assert_cmpint (ev->u.slice.thread_ts, ==, want[i].thread_ts);
    }
  ev = find_event (out, TRACE_EVENT_COUNTER, 4000, "MySizeCounter");
  g_assert_cmpfloat (ev->u.counter.value, ==, 1024);
}

/* process_stats: each memory value a counter of its process named as
 * trace_processor names it, in bytes (the packet says KiB). */
static void
test_process_stats (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "android_auto_multiuser", &rs);
  const TraceEvent *ev;
  guint n = 0;

  ev = find_event (out, TRACE_EVENT_COUNTER, 3000000002, "mem.rss");
  g_assert_cmpint (ev->pid, ==, 10);
  g_assert_cmpfloat (ev->u.counter.value, ==, 2000 * 1024);
  ev = find_event (out, TRACE_EVENT_COUNTER, 5000000002, "mem.rss");
  g_assert_cmpfloat (ev->u.counter.value, ==, 3000 * 1024);
  for (guint i = 0; i < out->n_events; i++)
    n += out->events[i].kind == TRACE_EVENT_COUNTER;
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (rs.unknown_packets, ==, 0);
}

/* process_stats' run times and smaps: counters of the process, named as
 * trace_processor names them, the times in ns as they are. */
static void
test_process_stats_runtime (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "process_stats_process_runtime", &rs);
  g_autoptr (GBytes) written = NULL;
  Perfetto__Protos__Trace *trace;
  const TraceEvent *ev;
  guint n = 0;

  ev = find_event (out, TRACE_EVENT_COUNTER, 1088821520899054, "runtime.user_ns");
  g_assert_cmpint (ev->pid, ==, 9301);
  g_assert_cmpfloat (ev->u.counter.value, ==, 16637390000000.0);
  ev = find_event (out, TRACE_EVENT_COUNTER, 1088821786436938, "runtime.kernel_ns");
  g_assert_cmpfloat (ev->u.counter.value, ==, 1327860000000.0);
  for (guint i = 0; i < out->n_events; i++)
    n += out->events[i].kind == TRACE_EVENT_COUNTER;
  g_assert_cmpuint (n, ==, 22);
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
  /* written back as process_stats packets, one a counter, on the tracks
   * trace_processor made of the original */
  written = pt_write (&out, 1, NULL, NULL);
  trace = pt_unpack (written);
  n = 0;
  for (gsize i = 0; i < trace->n_packet; i++)
    if (trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_PROCESS_STATS)
      {
        const Perfetto__Protos__ProcessStats__Process *p = trace->packet[i]->process_stats->processes[0];

        n++;
        g_assert_cmpint (p->pid, ==, 9301);
        if (p->has_runtime_user_mode)
          g_assert_true (p->runtime_user_mode == 16637390000000 || p->runtime_user_mode == 16638280000000);
      }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpuint (n, ==, 22);
}

/* A kernel thread's process lists its comm as cmdline (cmdline_is_comm):
 * it names the main thread too, a kworker up to its work's name. */
static void
test_cmdline_is_comm (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "cmdline_is_comm_for_kthreads", &rs);
  const char *want[] = {
    "process-name ts=1088821452006028 pid=27 tid=-1 cpu=-1 name='ksoftirqd/1' cat='' flags=0x0",
    "thread-name ts=1088821452006028 pid=27 tid=27 cpu=-1 name='ksoftirqd/1' cat='' flags=0x0",
    "process-name ts=1088821452006028 pid=28 tid=-1 cpu=-1 name='kworker/1:0' cat='' flags=0x0",
    "thread-name ts=1088821452006028 pid=28 tid=28 cpu=-1 name='kworker/1:0' cat='' flags=0x0",
  };

  assert_events (out, want, G_N_ELEMENTS (want));
}

/* A trace of two ftrace events of a kind tracepipe's .proto subset does
 * not declare (FtraceEvent field 999, a message of 4 bytes), on cpus 1
 * and 0, built with protobuf-c's unknown fields. */
static GBytes *
opaque_ftrace_trace (void)
{
  /* protobuf-c keeps a length-delimited field's length in its data */
  static guint8 payload[] = { 0x04, 0x08, 0x2a, 0x10, 0x01 };
  ProtobufCMessageUnknownField unknown = { 999, PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED, sizeof payload, payload };
  Perfetto__Protos__FtraceEvent evs[2];
  Perfetto__Protos__FtraceEvent *ev_ptrs[2][1] = { { &evs[0] }, { &evs[1] } };
  Perfetto__Protos__FtraceEventBundle bundles[2];
  Perfetto__Protos__TracePacket pkts[2];
  Perfetto__Protos__TracePacket *pkt_ptrs[] = { &pkts[0], &pkts[1] };
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  gsize len;
  guint8 *data;

  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__ftrace_event__init (&evs[i]);
      evs[i].has_timestamp = evs[i].has_pid = TRUE;
      evs[i].timestamp = 1000 * (i + 1);
      evs[i].pid = 40 + i;
      evs[i].base.n_unknown_fields = 1;
      evs[i].base.unknown_fields = &unknown;
      perfetto__protos__ftrace_event_bundle__init (&bundles[i]);
      bundles[i].has_cpu = TRUE;
      bundles[i].cpu = 1 - i;
      bundles[i].n_event = 1;
      bundles[i].event = ev_ptrs[i];
      perfetto__protos__trace_packet__init (&pkts[i]);
      pkts[i].has_trusted_packet_sequence_id = TRUE;
      pkts[i].trusted_packet_sequence_id = 1;
      pkts[i].data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS;
      pkts[i].ftrace_events = &bundles[i];
    }
  trace.n_packet = 2;
  trace.packet = pkt_ptrs;
  len = perfetto__protos__trace__get_packed_size (&trace);
  data = g_malloc (len);
  perfetto__protos__trace__pack (&trace, data);
  return g_bytes_new_take (data, len);
}

/* Ftrace events of a kind tracepipe's .proto subset does not declare:
 * carried as opaque bytes, counted, and written back byte for byte. */
static void
test_opaque_ftrace (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs, again_rs;
  g_autoptr (GError) read_error = NULL;
  g_autoptr (GBytes) bytes = opaque_ftrace_trace ();
  g_autoptr (TraceBatch) out = pt_read (bytes, pool, &rs, NULL, &read_error);
  g_autoptr (GPtrArray) first = NULL;
  g_autoptr (GPtrArray) by_time = NULL;
  g_autoptr (GBytes) written = NULL;
  g_autoptr (TraceBatch) again = NULL;
  g_autoptr (GPtrArray) second = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_no_error (read_error);
  first = pt_event_strings (out, FALSE);
  g_assert_cmpuint (rs.opaque_ftrace, ==, 2);
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
  g_assert_cmpstr (first->pdata[0], ==,
                   "ftrace ts=1000 pid=-1 tid=40 cpu=1 name='perfetto_ftrace_999' cat='' flags=0x0 "
                   "perfetto.field=u:999 perfetto.bytes=s:'BAgqEAE='");
  written = pt_write (&out, 1, NULL, NULL);
  again = pt_read (written, pool, &again_rs, NULL, &error);
  g_assert_no_error (error);
  /* in time order: the writer groups the events of the several cpus into
   * bundles of their own */
  by_time = pt_event_strings (out, TRUE);
  second = pt_event_strings (again, TRUE);
  pt_assert_same_events (by_time, second);
  g_assert_cmpuint (again_rs.opaque_ftrace, ==, 2);
}

/* Args that only look like an opaque event (a payload whose length does
 * not match, a field number FtraceEvent declares): written as generic
 * events with their args, never as a malformed record. */
static void
test_opaque_ftrace_bad_args (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GBytes) written = NULL;
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GError) error = NULL;
  PerfettoReaderStats rs;
  const struct
  {
    guint64 field;
    const char *bytes;
  } bad[] = {
    { 404, "AAAA" }, /* length 0, then two more bytes */
    { 1, "AA==" },   /* FtraceEvent.timestamp */
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      TraceEvent *ev = pt_add (in, TRACE_EVENT_FTRACE, 100 + i, 1, 1, "perfetto_ftrace_404");

      ev->cpu = 0;
      trace_batch_add_arg (in, ev, pt_str (in, PERFETTO_OPAQUE_FIELD_ARG), TRACE_ARG_UINT)->v.u = bad[i].field;
      trace_batch_add_arg (in, ev, pt_str (in, PERFETTO_OPAQUE_BYTES_ARG), TRACE_ARG_STRING)->v.s =
          pt_str (in, bad[i].bytes);
    }
  written = pt_write (&in, 1, NULL, NULL);
  out = pt_read (written, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  got = pt_event_strings (out, FALSE);
  g_assert_cmpuint (rs.opaque_ftrace, ==, 0);
  for (guint i = 0; i < got->len; i++)
    g_test_message ("%s", (char *) got->pdata[i]);
  g_assert_cmpuint (got->len, ==, 2);
  g_assert_nonnull (strstr (got->pdata[0], "name='perfetto_ftrace_404'"));
  g_assert_nonnull (strstr (got->pdata[0], "perfetto.bytes=s:'AAAA'"));
  g_assert_nonnull (strstr (got->pdata[1], "perfetto.field=u:1"));
}

/* Returns: the previous_bundle_end_timestamp of @cpu's first bundle in
 * the trace @bytes, 0 if it has none */
static guint64
data_start_of_cpu (GBytes *bytes,
                   guint32 cpu)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, len, data);
  guint64 start = 0;

  g_assert_nonnull (trace);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__FtraceEventBundle *b =
          trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS ? trace->packet[i]->ftrace_events
                                                                                            : NULL;

      if (b != NULL && b->cpu == cpu)
        {
          start = b->has_previous_bundle_end_timestamp ? b->previous_bundle_end_timestamp : 0;
          break;
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  return start;
}

/* ring_buffer_start.textproto (generated): each cpu's first bundle says
 * from when its ring buffer holds all its events; that comes back as a
 * record of the cpu at that time, and perfetto-sink writes it back into
 * the cpu's first bundle (read again: the same records). */
static void
test_cpu_data_start (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "perfetto", "ring_buffer_start.pftrace", NULL);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (TraceBatch) again = NULL;
  g_autoptr (GBytes) written = NULL;
  char *data = NULL;
  gsize len = 0;
  const TraceEvent *ev;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  bytes = g_bytes_new_take (data, len);
  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  ev = find_event (out, TRACE_EVENT_FTRACE, 1000, PERFETTO_CPU_DATA_START);
  g_assert_cmpint (ev->cpu, ==, 0);
  ev = find_event (out, TRACE_EVENT_FTRACE, 2000, PERFETTO_CPU_DATA_START);
  g_assert_cmpint (ev->cpu, ==, 1);
  written = pt_write (&out, 1, NULL, NULL);
  again = pt_read (written, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  find_event (again, TRACE_EVENT_FTRACE, 1000, PERFETTO_CPU_DATA_START);
  find_event (again, TRACE_EVENT_FTRACE, 2000, PERFETTO_CPU_DATA_START);
  g_assert_cmpuint (data_start_of_cpu (written, 0), ==, 1000);
  g_assert_cmpuint (data_start_of_cpu (written, 1), ==, 2000);
}

/* Returns: how many records of cpu data start of @cpu @batch holds, the
 * time of the last in @ts */
static guint
count_data_starts (TraceBatch *batch,
                   gint32 cpu,
                   gint64 *ts)
{
  guint n = 0;

  for (guint i = 0; i < batch->n_events; i++)
    {
      const TraceEvent *ev = &batch->events[i];

      if (ev->kind == TRACE_EVENT_FTRACE && ev->cpu == cpu &&
          g_strcmp0 (trace_string_pool_get (batch->pool, ev->name), PERFETTO_CPU_DATA_START) == 0)
        {
          n++;
          *ts = ev->ts;
        }
    }
  return n;
}

/* tests/fidelity/cases/perfetto-cpu-data-start-once: two bundles of cpu 0
 * with sched_switch events, each with a previous_bundle_end_timestamp.
 * Only the first bundle's is the cpu's data start: a switch read in it
 * must not make the next bundle look like the cpu's first. */
static void
test_cpu_data_start_once (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "..", "fidelity", "cases",
                                            "perfetto-cpu-data-start-once.pftrace", NULL);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (TraceBatch) again = NULL;
  g_autoptr (GBytes) written = NULL;
  g_autoptr (GPtrArray) first = NULL;
  g_autoptr (GPtrArray) second = NULL;
  char *data = NULL;
  gsize len = 0;
  gint64 ts = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  bytes = g_bytes_new_take (data, len);
  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_data_starts (out, 0, &ts), ==, 1);
  g_assert_cmpint (ts, ==, 1000);
  g_assert_cmpuint (count_data_starts (out, 1, &ts), ==, 1);
  g_assert_cmpint (ts, ==, 1200);
  written = pt_write (&out, 1, NULL, NULL);
  g_assert_cmpuint (data_start_of_cpu (written, 0), ==, 1000);
  again = pt_read (written, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_data_starts (again, 0, &ts), ==, 1);
  g_assert_cmpint (ts, ==, 1000);
  first = pt_event_strings (out, TRUE);
  second = pt_event_strings (again, TRUE);
  pt_assert_same_events (first, second);
}

/* Returns: whether @needle's bytes occur in @haystack */
static gboolean
bytes_contain (GBytes *haystack,
               const guint8 *needle,
               gsize len)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (haystack, &size);

  for (gsize i = 0; len > 0 && i + len <= size; i++)
    if (memcmp (data + i, needle, len) == 0)
      return TRUE;
  return FALSE;
}

/* Fields of a packet that is read but that the subset does not declare
 * are counted by kind: field 99 of a track descriptor. The two
 * sibling_merge_behavior of track_event_name_resolution.textproto's
 * descriptors are declared (perfetto-sink writes one) and not counted. */
static void
test_unread_fields (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "track_event_name_resolution", &rs);
  /* Trace.packet { track_descriptor { uuid: 1, 99: 1 } } */
  static const guint8 unknown[] = { 0x0a, 0x08, 0xe2, 0x03, 0x05, 0x08, 0x01, 0x98, 0x06, 0x01 };
  g_autoptr (GBytes) bytes = g_bytes_new_static (unknown, sizeof unknown);
  g_autoptr (TraceBatch) read = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (rs.unread_fields, ==, 0);
  g_assert_cmpuint (rs.opaque_packets + rs.unknown_packets, ==, 0);
  read = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rs.unread_fields, ==, 1);
}

/* A thread Chrome describes only by its kind (thread_type 4, a thread
 * pool's foreground worker) is named as trace_processor names it. */
static void
test_chrome_thread_type (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "range_of_interest", &rs);
  guint named = 0;

  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (ev->kind != TRACE_EVENT_THREAD_NAME)
        continue;
      named++;
      g_assert_cmpint (ev->pid, ==, 123);
      g_assert_cmpint (ev->tid, ==, 345);
      g_assert_cmpstr (trace_string_pool_get (pool, ev->name), ==, "ThreadPoolForegroundWorker&");
    }
  g_assert_cmpuint (named, ==, 1);
}

/* Each cpu's first switch at or after the latest cpu data start (2000 in
 * ring_buffer_start.textproto) is written in full: trace_processor drops
 * the switches before it and skips a compact switch whose previous one it
 * dropped. Later ones may be compact again. */
static void
test_full_switch_after_data_start (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) in = pt_read_data_file (pool, "ring_buffer_start.pftrace", &rs);
  g_autoptr (GBytes) written = pt_write (&in, 1, NULL, NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (written, &len);
  Perfetto__Protos__Trace *trace = perfetto__protos__trace__unpack (NULL, len, data);
  gint64 first_after[2] = { G_MAXINT64, G_MAXINT64 };
  gboolean first_is_full[2] = { FALSE, FALSE };

  g_assert_nonnull (trace);
  for (gsize p = 0; p < trace->n_packet; p++)
    {
      const Perfetto__Protos__TracePacket *pkt = trace->packet[p];
      const Perfetto__Protos__FtraceEventBundle *b;
      gint64 t = 0;

      if (pkt->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS)
        continue;
      b = pkt->ftrace_events;
      g_assert_cmpuint (b->cpu, <, 2);
      for (gsize e = 0; e < b->n_event; e++)
        if (b->event[e]->sched_switch && (gint64) b->event[e]->timestamp >= 2000 &&
            (gint64) b->event[e]->timestamp < first_after[b->cpu])
          {
            first_after[b->cpu] = (gint64) b->event[e]->timestamp;
            first_is_full[b->cpu] = TRUE;
          }
      for (gsize i = 0; b->compact_sched && i < b->compact_sched->n_switch_timestamp; i++)
        {
          t += (gint64) b->compact_sched->switch_timestamp[i];
          if (t >= 2000 && t < first_after[b->cpu])
            {
              first_after[b->cpu] = t;
              first_is_full[b->cpu] = FALSE;
            }
        }
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpint (first_after[0], ==, 2500);
  g_assert_true (first_is_full[0]);
  g_assert_cmpint (first_after[1], ==, 2200);
  g_assert_true (first_is_full[1]);
}

/* Timestamps on other clocks are put on the trace's, as trace_processor
 * puts them (sdk_incremental_clock.textproto): a sequence's incremental
 * clock 64 (µs deltas from the snapshot's 5001000 µs, which is boot time
 * 5001000000 ns) and MONOTONIC (boot time - 5 s); the global snapshot
 * also becomes one clock pair per other builtin domain. */
static void
test_other_clocks (void)
{
  static const struct
  {
    TraceEventKind kind;
    gint64 ts;
  } want[] = {
    { TRACE_EVENT_SLICE_BEGIN, 5001005000 }, /* + 5 µs */
    { TRACE_EVENT_SLICE_BEGIN, 5001008000 }, /* + 3 µs */
    { TRACE_EVENT_SLICE_END, 5001018000 },   /* + 10 µs */
    { TRACE_EVENT_SLICE_END, 5001020000 },   /* + 2 µs */
    { TRACE_EVENT_SLICE_BEGIN, 5002000000 }, /* MONOTONIC 2000000 */
    { TRACE_EVENT_SLICE_END, 5002500000 },
  };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = pt_read_data_file (pool, "sdk_incremental_clock.pftrace", &rs);
  guint n = 0, pairs = 0;

  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (ev->kind == TRACE_EVENT_CLOCK_MARKER)
        {
          g_assert_cmpint (ev->ts, ==, 5000900000);
          pairs |= 1u << ev->u.clock.domain;
        }
      if (ev->kind != TRACE_EVENT_SLICE_BEGIN && ev->kind != TRACE_EVENT_SLICE_END)
        continue;
      g_assert_cmpuint (n, <, G_N_ELEMENTS (want));
      g_assert_cmpint (ev->kind, ==, want[n].kind);
      g_assert_cmpint (ev->ts, ==, want[n].ts);
      n++;
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (want));
  g_assert_cmpuint (pairs, ==, (1u << TRACE_CLOCK_REALTIME) | (1u << TRACE_CLOCK_MONOTONIC) | (1u << TRACE_CLOCK_MONOTONIC_RAW));
  g_assert_cmpuint (rs.other_clock + rs.unsupported_events, ==, 0);
}

/* Keeps the strings of records only (in place). */
static GPtrArray *
only_records (GPtrArray *strings)
{
  for (guint i = strings->len; i-- > 0;)
    if (!g_str_has_prefix (strings->pdata[i], "record "))
      g_ptr_array_remove_index (strings, i);
  return strings;
}

/* power_rails packets, a kind tracepipe's .proto subset does not declare:
 * each goes on as a record at its time (the first has none: the time
 * before it), counted, and perfetto-sink writes its payload back byte
 * for byte under the same TracePacket field. */
static void
test_opaque_packets (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs, again_rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "power_rails", &rs);
  g_autoptr (GPtrArray) first = pt_event_strings (out, FALSE);
  g_autoptr (GBytes) written = NULL;
  g_autoptr (TraceBatch) again = NULL;
  g_autoptr (GPtrArray) second = NULL;
  g_autoptr (GError) error = NULL;
  guint records = 0;

  g_assert_cmpuint (rs.opaque_packets, ==, 3);
  g_assert_cmpuint (rs.unknown_packets, ==, 0);
  g_assert_cmpstr (first->pdata[0], ==,
                   "record ts=0 pid=-1 tid=-1 cpu=-1 name='perfetto_packet_40' cat='' flags=0x0 "
                   "perfetto.field=u:40 perfetto.bytes=s:'HwodCAQSCXRlc3RfcmFpbBoLdGVzdF9zdWJzeXMg/wc='");
  written = pt_write (&out, 1, NULL, NULL);
  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];
      const TraceArg *args = trace_batch_get_args (out, ev);
      g_autofree guchar *payload = NULL;
      gsize len;

      if (ev->kind != TRACE_EVENT_RECORD)
        continue;
      records++;
      g_assert_cmpuint (ev->n_args, ==, 2);
      payload = g_base64_decode (trace_string_pool_get (pool, args[1].v.s), &len);
      g_assert_true (bytes_contain (written, payload, len));
    }
  g_assert_cmpuint (records, ==, 3);
  again = pt_read (written, pool, &again_rs, NULL, &error);
  g_assert_no_error (error);
  second = pt_event_strings (again, FALSE);
  /* the records come back the same (the trace's atrace counter loses its
   * thread, as any counter: docs/perfetto.md) */
  pt_assert_same_events (only_records (first), only_records (second));
  g_assert_cmpuint (again_rs.opaque_packets, ==, 3);
}

/* The members of sys_stats other than the totals (here cpuidle states)
 * go on as a sys_stats record of their own, written back as it was. */
static void
test_sys_stats_unread_members (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs, again_rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "cpuidle_stats", &rs);
  g_autoptr (GPtrArray) first = pt_event_strings (out, FALSE);
  g_autoptr (GBytes) written = NULL;
  g_autoptr (TraceBatch) again = NULL;
  g_autoptr (GPtrArray) second = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (rs.opaque_packets, ==, 2);
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
  g_assert_cmpuint (rs.unread_fields, ==, 0);
  g_assert_cmpuint (first->len, ==, 2);
  g_assert_cmpstr (first->pdata[0], ==,
                   "record ts=71625871363623 pid=-1 tid=-1 cpu=-1 name='perfetto_packet_7' cat='' flags=0x0 "
                   "perfetto.field=u:7 perfetto.bytes=s:'EYIBDggAEgoKAkM4EKSmhegB'");
  written = pt_write (&out, 1, NULL, NULL);
  again = pt_read (written, pool, &again_rs, NULL, &error);
  g_assert_no_error (error);
  second = pt_event_strings (again, FALSE);
  pt_assert_same_events (first, second);
}

/* traced states the trace's clock in every snapshot it writes, with all
 * six builtin clocks: each still ties the exact clocks to the stream's
 * as markers (a coarse clock is not taken for its exact one), which
 * perfetto-sink writes back, so an Android log's REALTIME converts. */
static void
test_traced_clock_snapshots (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = pt_read_data_file (pool, "traced_clocks_android_log.pftrace", &rs);
  guint markers = 0;

  for (guint i = 0; i < out->n_events; i++)
    {
      const TraceEvent *ev = &out->events[i];

      if (ev->kind != TRACE_EVENT_CLOCK_MARKER)
        continue;
      markers++;
      g_assert_cmpint (ev->u.clock.marker, ==, TRACE_CLOCK_MARKER_PAIR);
      g_assert_cmpint (ev->u.clock.domain, !=, TRACE_CLOCK_BOOTTIME);
      if (ev->ts == 3958478998600 && ev->u.clock.domain == TRACE_CLOCK_REALTIME)
        g_assert_cmpint (ev->u.clock.other_ts, ==, 1634072190407884200);
    }
  /* REALTIME, MONOTONIC and MONOTONIC_RAW of each snapshot */
  g_assert_cmpuint (markers, ==, 6);
  g_assert_cmpuint (rs.opaque_packets, ==, 1);
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
  g_assert_cmpuint (rs.other_clock, ==, 0);
}

/* Chrome describes an async track (a uuid, maybe a parent process, no
 * name) in the packet after its first event: the reader declares it
 * ahead, and its slices are async slices of its own id; an end takes the
 * category of the slice it closes. */
static void
test_tracks_described_late (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = pt_read_data_file (pool, "chrome_async_tracks_described_late.pftrace", &rs);
  g_autoptr (GPtrArray) got = pt_event_strings (out, FALSE);
  const char *want[] = {
    "async-begin ts=2000 pid=5 tid=-1 cpu=-1 name='PipelineReporter' cat='cc' flags=0x0 id=11 scope='' track='' step=''",
    "async-end ts=3000 pid=5 tid=-1 cpu=-1 name='' cat='cc' flags=0x0 id=11 scope='' track='' step=''",
    "async-begin ts=6000 pid=-1 tid=-1 cpu=-1 name='InputLatency::MouseMove' cat='input' flags=0x20 id=20 scope='' track='' step=''",
    "async-end ts=7000 pid=-1 tid=-1 cpu=-1 name='' cat='input' flags=0x20 id=20 scope='' track='' step=''",
  };

  g_assert_cmpuint (rs.unknown_track, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_true (g_ptr_array_find_with_equal_func (got, want[i], g_str_equal, NULL));
}

/* atrace markers are read in time order across the cpus' bundles: an end
 * in a bundle before its begin's still closes the begin's slice. */
static void
test_atrace_end_in_earlier_bundle (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = pt_read_data_file (pool, "atrace_end_in_earlier_bundle.pftrace", &rs);
  const char *want[] = {
    "slice-begin ts=1000 pid=9305 tid=9305 cpu=5 name='fire-cls' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "slice-begin ts=1500 pid=9305 tid=9305 cpu=5 name='inner' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "slice-end ts=2000 pid=9305 tid=9305 cpu=5 name='' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "slice-end ts=3000 pid=9305 tid=9305 cpu=0 name='' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
  };

  assert_events (out, want, G_N_ELEMENTS (want));
  g_assert_cmpuint (rs.atrace_markers, ==, 4);
}

/* A cropped compact stream: each cpu's first switch after its data start
 * names no previous task. It is written compact again (trace_processor
 * skips it, as in the original), never as a full switch of task -1. */
static void
test_cropped_compact_sched (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  g_autoptr (TraceBatch) out = pt_read_data_file (pool, "cropped_compact_sched.pftrace", &rs);
  PerfettoWriterStats ws;
  g_autoptr (GBytes) written = NULL;

  Perfetto__Protos__Trace *trace;
  guint full_without_prev = 0;

  written = pt_write (&out, 1, NULL, &ws);
  trace = pt_unpack (written);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__FtraceEventBundle *b =
          trace->packet[i]->data_case == PERFETTO__PROTOS__TRACE_PACKET__DATA_FTRACE_EVENTS ? trace->packet[i]->ftrace_events
                                                                                            : NULL;

      for (gsize e = 0; b != NULL && e < b->n_event; e++)
        full_without_prev += b->event[e]->event_case == PERFETTO__PROTOS__FTRACE_EVENT__EVENT_SCHED_SWITCH &&
                             b->event[e]->sched_switch->prev_pid == -1;
    }
  perfetto__protos__trace__free_unpacked (trace, NULL);
  g_assert_cmpuint (full_without_prev, ==, 0);
  /* the two first switches compact; after them, each cpu's first switch
   * that names its previous task in full (the data-start rule), the
   * rest compact */
  g_assert_cmpuint (ws.compact_sched, ==, 3);
  g_assert_cmpuint (ws.dropped_kernel, ==, 0);
}

/* What is not carried is counted: a packet of an unknown kind that needs
 * its sequence's interned data (which the record would not carry). */
static void
test_opaque_packet_needing_state (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs;
  /* packet { trusted_packet_sequence_id: 1 sequence_flags: 1 }
   * packet { trusted_packet_sequence_id: 1 sequence_flags: 2
   *          battery (38) { charge_counter_uah (1): 5 } }
   * packet { timestamp: 7 battery { charge_counter_uah: 6 } } */
  /* one packet per line */
  /* clang-format off */
  static const guint8 trace[] = {
    0x0a, 0x04, 0x50, 0x01, 0x68, 0x01,
    0x0a, 0x09, 0x50, 0x01, 0x68, 0x02, 0xb2, 0x02, 0x02, 0x08, 0x05,
    0x0a, 0x07, 0x40, 0x07, 0xb2, 0x02, 0x02, 0x08, 0x06,
  };
  /* clang-format on */
  g_autoptr (GBytes) bytes = g_bytes_new_static (trace, sizeof trace);
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = pt_read (bytes, pool, &rs, NULL, &error);
  g_autoptr (GPtrArray) strings = NULL;

  g_assert_no_error (error);
  strings = pt_event_strings (out, FALSE);
  g_assert_cmpuint (strings->len, ==, 1);
  g_assert_cmpstr (strings->pdata[0], ==,
                   "record ts=7 pid=-1 tid=-1 cpu=-1 name='perfetto_packet_38' cat='' flags=0x0 "
                   "perfetto.field=u:38 perfetto.bytes=s:'AggG'");
  g_assert_cmpuint (rs.opaque_packets, ==, 1);
  g_assert_cmpuint (rs.unknown_packets, ==, 1);
}

/* The flows of each slice event, as "name: in/out in/out ..." (an end
 * by its kind: the writer gives a thread slice's end no name). */
static GPtrArray *
slice_flow_strings (TraceBatch *b)
{
  GPtrArray *all = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < b->n_events; i++)
    {
      const TraceEvent *ev = &b->events[i];
      GString *s;
      guint64 in, out;
      guint iter = 0;

      if (!trace_event_is_slice_like (ev->kind) || (ev->u.slice.flow_in == 0 && ev->u.slice.flow_out == 0))
        continue;
      s = g_string_new (ev->kind == TRACE_EVENT_SLICE_END ? "(end)" : trace_batch_get_event_name (b, i));
      g_string_append_printf (s, ": %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, ev->u.slice.flow_in,
                              ev->u.slice.flow_out);
      while (trace_batch_next_slice_flow (b, ev, &iter, &in, &out))
        g_string_append_printf (s, " %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, in, out);
      g_ptr_array_add (all, g_string_free (s, FALSE));
    }
  return all;
}

/* flow_ids and terminating_flow_ids: every id binds to its slice, the
 * first pair in the event, the others as its args; the Perfetto writer
 * writes them all back (read again: the same flows on the same slices). */
static void
test_flow_track_event (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  PerfettoReaderStats rs, again_rs;
  g_autoptr (TraceBatch) out = read_difftest (pool, "flow_events_track_event", &rs);
  g_autoptr (GPtrArray) first = slice_flow_strings (out);
  g_autoptr (GBytes) written = NULL;
  g_autoptr (TraceBatch) again = NULL;
  g_autoptr (GPtrArray) second = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_cmpuint (rs.extra_flows, ==, 0);
  g_assert_cmpuint (first->len, ==, 11);
  g_assert_cmpstr (first->pdata[2], ==, "FlowSlice1Start2Start: 0/1 0/2");
  g_assert_cmpstr (first->pdata[5], ==, "FlowSlice2End: 2/2");
  written = pt_write (&out, 1, NULL, NULL);
  again = pt_read (written, pool, &again_rs, NULL, &error);
  g_assert_no_error (error);
  second = slice_flow_strings (again);
  pt_assert_same_events (first, second);
  g_assert_cmpuint (again_rs.extra_flows, ==, 0);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/difftests/flow-v2", test_flow_v2);
  g_test_add_func ("/perfetto/difftests/flow-track-event", test_flow_track_event);
  g_test_add_func ("/perfetto/difftests/legacy-async", test_legacy_async);
  g_test_add_func ("/perfetto/difftests/counters-thread-time", test_counters_thread_time);
  g_test_add_func ("/perfetto/difftests/opaque-ftrace", test_opaque_ftrace);
  g_test_add_func ("/perfetto/difftests/opaque-ftrace-bad-args", test_opaque_ftrace_bad_args);
  g_test_add_func ("/perfetto/difftests/cpu-data-start", test_cpu_data_start);
  g_test_add_func ("/perfetto/difftests/cpu-data-start-once", test_cpu_data_start_once);
  g_test_add_func ("/perfetto/difftests/process-stats", test_process_stats);
  g_test_add_func ("/perfetto/difftests/process-stats-runtime", test_process_stats_runtime);
  g_test_add_func ("/perfetto/difftests/cmdline-is-comm", test_cmdline_is_comm);
  g_test_add_func ("/perfetto/difftests/opaque-packets", test_opaque_packets);
  g_test_add_func ("/perfetto/difftests/sys-stats-unread-members", test_sys_stats_unread_members);
  g_test_add_func ("/perfetto/difftests/unread-fields", test_unread_fields);
  g_test_add_func ("/perfetto/difftests/chrome-thread-type", test_chrome_thread_type);
  g_test_add_func ("/perfetto/difftests/tracks-described-late", test_tracks_described_late);
  g_test_add_func ("/perfetto/difftests/atrace-end-in-earlier-bundle", test_atrace_end_in_earlier_bundle);
  g_test_add_func ("/perfetto/difftests/cropped-compact-sched", test_cropped_compact_sched);
  g_test_add_func ("/perfetto/difftests/other-clocks", test_other_clocks);
  g_test_add_func ("/perfetto/difftests/traced-clock-snapshots", test_traced_clock_snapshots);
  g_test_add_func ("/perfetto/difftests/full-switch-after-data-start", test_full_switch_after_data_start);
  g_test_add_func ("/perfetto/difftests/opaque-packet-needing-state", test_opaque_packet_needing_state);
  return g_test_run ();
}
