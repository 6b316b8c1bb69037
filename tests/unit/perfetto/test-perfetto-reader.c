/* Unit tests: the Perfetto reader on files it did not write, files cut
 * short, and input that is not a Perfetto trace. */
#include "perfetto-test-util.h"

#include <string.h>
#include <zlib.h>

#include "../../test-util.h"
#include "trace.pb-c.h"

static GBytes *
load (const char *name)
{
  g_autofree char *path = g_build_filename (TEST_DATA_DIR, "perfetto", name, NULL);
  g_autoptr (GError) error = NULL;
  char *data = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &data, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (data, len);
}

static GBytes *
concat (GBytes *a,
        const guint8 *tail,
        gsize tail_len)
{
  GByteArray *all = g_byte_array_new ();

  g_byte_array_append (all, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (all, tail, tail_len);
  return g_byte_array_free_to_bytes (all);
}

/* The bytes of @trace as a file holds them. */
static GBytes *
pack_trace (const Perfetto__Protos__Trace *trace)
{
  guint8 *data = g_malloc (perfetto__protos__trace__get_packed_size (trace));

  return g_bytes_new_take (data, perfetto__protos__trace__pack (trace, data));
}

/* The events of sdk_style.textproto, read off that file by hand (the
 * process named by its own descriptor: TRACE_EVENT_FLAG_APP_NAME). */
static void
test_sdk_style (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) bytes = load ("sdk_style.pftrace");
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GPtrArray) got = NULL;
  PerfettoReaderStats rs;
  const char *want[] = {
    "process-name ts=0 pid=42 tid=-1 cpu=-1 name='sdk.app' cat='' flags=0x2000",
    "thread-name ts=0 pid=42 tid=43 cpu=-1 name='main' cat='' flags=0x0",
    "slice-begin ts=5000 pid=42 tid=43 cpu=-1 name='Frame' cat='gfx' flags=0x0 dur=0 out=0 in=0 track='' frame_id=u:17",
    "slice-end ts=6000 pid=42 tid=43 cpu=-1 name='' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "instant ts=6500 pid=42 tid=43 cpu=-1 name='inline-name' cat='a,b' flags=0x0 dur=0 out=0 in=0 track='' "
    "obj.x=i:1 obj.y[0]=s:'p' obj.y[1]=s:'q'",
    "counter ts=7000 pid=-1 tid=-1 cpu=-1 name='num_forks' cat='sys_stats' flags=0x4 value=5 id=0 unit=''",
    "counter ts=8000 pid=-1 tid=-1 cpu=-1 name='GPU freq' cat='' flags=0x0 value=300.5 id=0 unit=''",
    /* on a track never declared: no thread, as trace_processor shows it */
    "instant ts=8100 pid=-1 tid=-1 cpu=-1 name='lost' cat='' flags=0x2 dur=0 out=0 in=0 track=''",
    "sched-switch ts=9000 pid=42 tid=43 cpu=2 name='sched_switch' cat='' flags=0x0 prev=43/120/1/'main' "
    "next=0/120/'swapper/2'",
    "ftrace ts=9100 pid=-1 tid=0 cpu=2 name='irq_handler_entry' cat='' flags=0x0 irq=i:3 name=s:'timer'",
  };

  out = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  got = pt_event_strings (out, FALSE);
  g_assert_cmpuint (got->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
  g_assert_cmpuint (rs.packets, ==, 11);
  g_assert_cmpuint (rs.unknown_packets, ==, 0);
  g_assert_cmpuint (rs.no_incremental_state, ==, 1); /* sequence 9 */
  g_assert_cmpuint (rs.unknown_track, ==, 1);        /* uuid 9999 */
  g_assert_cmpuint (rs.unsupported_events, ==, 0);
  g_assert_cmpuint (rs.truncated_bytes, ==, 0);
  g_assert_cmpuint (rs.bytes, ==, g_bytes_get_size (bytes));
}

/* ftrace `print` events of a Perfetto trace (Android's system trace
 * carries the app's atrace markers so) are read as ftrace-src reads the
 * same markers in text: slices, counters and async events on the writing
 * thread; text that is no marker, or a marker whose fields do not parse,
 * stays a print, so that nothing trace_processor would read from it is
 * lost. */
static void
test_print_markers (void)
{
  static const char *const bufs[] = { "B|42|Frame\n", "C|42|queued|5\n", "S|42|load|7\n", "hello",
                                      "E|42\n", "B|x|bad\n", "F|42|load|7\n" };
  /* the counter is the process's (the marker's pid), an integer; S/F
   * are legacy async; the prints that stay have no pid (kernel events
   * get the one of their thread when it is known) */
  const char *want[] = {
    "slice-begin ts=1000 pid=42 tid=43 cpu=1 name='Frame' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "counter ts=1001 pid=42 tid=43 cpu=1 name='queued' cat='' flags=0x4 value=5 id=0 unit=''",
    "async-begin ts=1002 pid=42 tid=43 cpu=1 name='load' cat='' flags=0x8 id=7 scope='' track='' step=''",
    "ftrace ts=1003 pid=-1 tid=43 cpu=1 name='print' cat='' flags=0x0 buf=s:'hello'",
    "slice-end ts=1004 pid=42 tid=43 cpu=1 name='' cat='' flags=0x0 dur=0 out=0 in=0 track=''",
    "ftrace ts=1005 pid=-1 tid=43 cpu=1 name='print' cat='' flags=0x0 buf=s:'B|x|bad\n'",
    "async-end ts=1006 pid=42 tid=43 cpu=1 name='load' cat='' flags=0x8 id=7 scope='' track='' step=''",
  };
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GError) error = NULL;
  PerfettoReaderStats rs;

  for (guint i = 0; i < G_N_ELEMENTS (bufs); i++)
    {
      TraceEvent *ev = pt_add (in, TRACE_EVENT_FTRACE, 1000 + i, TRACE_ID_UNKNOWN, 43, "print");

      ev->cpu = 1;
      trace_batch_add_arg_string (in, ev, "buf", bufs[i]);
    }
  bytes = pt_write (&in, 1, NULL, NULL);
  out = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  got = pt_event_strings (out, FALSE);
  g_assert_cmpuint (got->len, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    g_assert_cmpstr (got->pdata[i], ==, want[i]);
  g_assert_cmpuint (rs.atrace_markers, ==, 5);
}

/* A file cut at any record boundary reads without error or warning and
 * gives the events of the records before the cut (print events, which the
 * reader reads in time order at the end, included); a file cut inside a
 * record gives the same plus a warning naming where the record began. */
static void
test_cut_files (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  g_autoptr (GBytes) bytes = pt_write (&in, 1, NULL, NULL);
  g_autoptr (GArray) offsets = pt_record_offsets (bytes);
  g_autoptr (TraceBatch) all = pt_read (bytes, pool, NULL, NULL, NULL);
  g_autoptr (GPtrArray) full = pt_event_strings (all, FALSE);
  guint previous = 0;

  g_assert_cmpuint (offsets->len, >, 10);
  for (guint k = 1; k < offsets->len; k++)
    {
      gsize at = g_array_index (offsets, gsize, k);
      gsize before = g_array_index (offsets, gsize, k - 1);
      gsize cuts[] = { before + 1, (before + at) / 2, at - 1, at };

      for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
        {
          g_autoptr (GBytes) part = g_bytes_new_from_bytes (bytes, 0, cuts[c]);
          g_autoptr (GError) error = NULL;
          g_autoptr (TraceBatch) out = NULL;
          g_autoptr (GPtrArray) got = NULL;
          PerfettoReaderStats rs;

          if (cuts[c] <= before || (c < 3 && cuts[c] >= at))
            continue;
          out = pt_read (part, pool, &rs, NULL, &error);
          g_assert_no_error (error);
          got = pt_event_strings (out, FALSE);
          g_assert_cmpuint (got->len, <=, full->len);
          for (guint i = 0; i < got->len; i++)
            g_assert_true (g_ptr_array_find_with_equal_func (full, got->pdata[i], g_str_equal, NULL));
          if (cuts[c] == at)
            {
              g_assert_cmpuint (rs.truncated_bytes, ==, 0);
              g_assert_cmpuint (got->len, >=, previous);
              previous = got->len;
            }
          else
            {
              g_assert_cmpuint (rs.truncated_bytes, ==, cuts[c] - before);
              g_assert_cmpuint (rs.truncated_offset, ==, before);
              g_assert_cmpuint (got->len, ==, previous);
            }
        }
    }
  g_assert_cmpuint (previous, ==, full->len);
}

/* A packet whose length claims 200 MiB (under the 256 MiB limit) in a
 * file that ends 1 MiB into it (more than the first read) is read with
 * the memory of that MiB: with 24 MiB of address space to spare it is
 * counted as cut off, not allocated whole (which aborted). In a
 * subprocess, which the limit is set for. */
static void
test_claimed_length (void)
{
  if (g_test_subprocess ())
    {
      static const guint8 head[] = { 0x0a, 0x80, 0x80, 0x80, 0x64 }; /* Trace.packet, 200 MiB */
      g_autoptr (GByteArray) file = g_byte_array_new ();
      g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
      g_autoptr (GBytes) bytes = NULL;
      g_autoptr (GError) error = NULL;
      g_autoptr (TraceBatch) out = NULL;
      PerfettoReaderStats rs;

      g_byte_array_append (file, head, sizeof head);
      g_byte_array_set_size (file, sizeof head + 1024 * 1024);
      memset (file->data + sizeof head, 'x', 1024 * 1024);
      bytes = g_byte_array_free_to_bytes (g_steal_pointer (&file));
      test_limit_address_space (24 * 1024 * 1024);
      out = pt_read (bytes, pool, &rs, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (out->n_events, ==, 0);
      g_assert_cmpuint (rs.truncated_bytes, ==, sizeof head + 1024 * 1024);
      g_assert_cmpuint (rs.truncated_offset, ==, 0);
      return;
    }
#ifdef TEST_UNDER_ASAN
  g_test_skip ("AddressSanitizer cannot run under an address-space limit");
  return;
#endif
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

static void
assert_read_error (GBytes *bytes,
                   GQuark domain,
                   gint code,
                   const char *message)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = pt_read (bytes, pool, NULL, NULL, &error);

  g_assert_null (out);
  g_assert_error (error, domain, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_not_perfetto (void)
{
  const char *inputs[] = { "# tracer: nop\n#\n", "[{\"ph\":\"B\"}]", "\x1f\x8b\x08\x00", "TRACE:\n" };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      g_autoptr (GBytes) bytes = g_bytes_new_static (inputs[i], strlen (inputs[i]));

      assert_read_error (bytes, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
                         "test.pftrace: byte offset 0: not a Perfetto protobuf trace");
    }
}

static void
test_empty (void)
{
  g_autoptr (GBytes) bytes = g_bytes_new_static ("", 0);

  assert_read_error (bytes, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY, "test.pftrace: the file is empty");
}

/* A stream without events is a one-packet file: it reads as no events,
 * not as an empty file. */
static void
test_no_events (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) bytes = pt_write (NULL, 0, NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = NULL;
  PerfettoReaderStats rs;

  g_assert_cmpuint (g_bytes_get_size (bytes), <, 20);
  out = pt_read (bytes, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, 0);
  g_assert_cmpuint (rs.packets, ==, 1);
}

static GBytes *
small_trace (TraceStringPool *pool)
{
  g_autoptr (TraceBatch) in = trace_batch_new (pool, 0);

  pt_add (in, TRACE_EVENT_INSTANT, 10, 1, 1, "x");
  return pt_write (&in, 1, NULL, NULL);
}

static void
test_corrupt_tail (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) good = small_trace (pool);
  gsize n = g_bytes_get_size (good);
  /* field 1 with wire type 3 (a group): not a record of a trace */
  const guint8 group[] = { 0x0b, 0x00 };
  /* a record whose content is no TracePacket */
  const guint8 bad_packet[] = { 0x0a, 0x02, 0xff, 0xff };
  /* a record of 300 MiB */
  const guint8 huge[] = { 0x0a, 0x80, 0x80, 0x80, 0x96, 0x01 };
  g_autoptr (GBytes) a = concat (good, group, sizeof group);
  g_autoptr (GBytes) b = concat (good, bad_packet, sizeof bad_packet);
  g_autoptr (GBytes) c = concat (good, huge, sizeof huge);
  g_autofree char *msg_a = g_strdup_printf ("test.pftrace: byte offset %" G_GSIZE_FORMAT ": no protobuf record starts here", n);
  g_autofree char *msg_b = g_strdup_printf ("test.pftrace: byte offset %" G_GSIZE_FORMAT ": the packet does not decode as a TracePacket", n);
  g_autofree char *msg_c = g_strdup_printf ("test.pftrace: byte offset %" G_GSIZE_FORMAT ": a record of 314572800 bytes is larger than the limit of 256 MiB", n);

  assert_read_error (a, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, msg_a);
  assert_read_error (b, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT, msg_b);
  assert_read_error (c, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE, msg_c);
}

/* Other top-level fields than Trace.packet are skipped and counted. */
static void
test_unknown_top_level_field (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GBytes) good = small_trace (pool);
  const guint8 field2[] = { 0x12, 0x01, 0x00, 0x18, 0x05 };
  g_autoptr (GBytes) bytes = concat (good, field2, sizeof field2);
  g_autoptr (GBytes) twice = concat (bytes, g_bytes_get_data (good, NULL), g_bytes_get_size (good));
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) out = NULL;
  PerfettoReaderStats rs;

  out = pt_read (twice, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rs.unknown_fields, ==, 2);
  /* The second copy's instant is there too. */
  g_assert_cmpuint (out->n_events, ==, 2);
}

/* Packets inside a compressed_packets packet (zlib) read as if they were
 * not compressed. */
static void
test_compressed (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (TraceBatch) in = pt_all_kinds_batch (pool);
  g_autoptr (GBytes) plain = pt_write (&in, 1, NULL, NULL);
  g_autoptr (GArray) offsets = pt_record_offsets (plain);
  gsize first_end = g_array_index (offsets, gsize, 1), len;
  const guint8 *data = g_bytes_get_data (plain, &len);
  uLongf zlen = compressBound (len);
  g_autofree guint8 *z = g_malloc (zlen);
  Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TracePacket *pkts[] = { &pkt };
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  g_autofree guint8 *record = NULL;
  gsize record_len;
  g_autoptr (GBytes) head = g_bytes_new_from_bytes (plain, 0, first_end);
  g_autoptr (GBytes) mixed = NULL;
  g_autoptr (TraceBatch) a = NULL;
  g_autoptr (TraceBatch) b = NULL;
  g_autoptr (GError) error = NULL;
  PerfettoReaderStats rs;

  /* All packets but the first, compressed into one. */
  g_assert_cmpint (compress2 (z, &zlen, data + first_end, len - first_end, 6), ==, Z_OK);
  pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_COMPRESSED_PACKETS;
  pkt.compressed_packets.data = z;
  pkt.compressed_packets.len = zlen;
  trace.n_packet = 1;
  trace.packet = pkts;
  record_len = perfetto__protos__trace__get_packed_size (&trace);
  record = g_malloc (record_len);
  perfetto__protos__trace__pack (&trace, record);
  mixed = concat (head, record, record_len);

  a = pt_read (plain, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  b = pt_read (mixed, pool, &rs, NULL, &error);
  g_assert_no_error (error);
  {
    g_autoptr (GPtrArray) want = pt_event_strings (a, FALSE);
    g_autoptr (GPtrArray) got = pt_event_strings (b, FALSE);

    pt_assert_same_events (want, got);
  }
  /* The wrapper is a packet too. */
  g_assert_cmpuint (rs.packets, ==, offsets->len - 1 + 1);
}

/* @in (test_perf_sample's events) written out: PerfSample packets on
 * one sequence, the callstack interned with the first, which read back
 * as @in. */
static void
assert_perf_samples_written (TraceBatch *in)
{
  TraceBatch *batches[] = { in };
  g_autoptr (GBytes) bytes = pt_write (batches, 1, NULL, NULL);
  g_autoptr (TraceBatch) back = NULL;
  g_autoptr (GError) error = NULL;
  Perfetto__Protos__Trace *trace = pt_unpack (bytes);
  const Perfetto__Protos__PerfSample *got[2];
  guint n = 0;

  g_assert_nonnull (trace);
  for (gsize i = 0; i < trace->n_packet; i++)
    {
      const Perfetto__Protos__TracePacket *p = trace->packet[i];

      g_assert_cmpint (p->data_case, !=, PERFETTO__PROTOS__TRACE_PACKET__DATA_STREAMING_PROFILE_PACKET);
      if (p->data_case != PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE)
        continue;
      g_assert_cmpuint (n, <, 2);
      if (n == 0)
        {
          g_assert_nonnull (p->interned_data);
          g_assert_cmpuint (p->interned_data->n_callstacks, ==, 1);
          g_assert_cmpuint (p->interned_data->callstacks[0]->iid, ==, p->perf_sample->callstack_iid);
        }
      got[n++] = p->perf_sample;
    }
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (got[0]->has_callstack_iid && got[0]->has_cpu_mode && !got[0]->has_sample_skipped_reason);
  g_assert_cmpuint (got[0]->timebase_count, ==, 250000);
  g_assert_false (got[1]->has_callstack_iid);
  g_assert_cmpuint (got[1]->sample_skipped_reason, ==, 2);
  g_assert_cmpuint (got[1]->timebase_count, ==, 251000);
  for (guint i = 0; i < 2; i++)
    g_assert_true (got[i]->has_cpu && got[i]->cpu == 3 && got[i]->pid == 7);
  perfetto__protos__trace__free_unpacked (trace, NULL);

  back = pt_read (bytes, in->pool, NULL, NULL, &error);
  g_assert_no_error (error);
  {
    g_autoptr (GPtrArray) want = pt_event_strings (in, FALSE);
    g_autoptr (GPtrArray) got_events = pt_event_strings (back, FALSE);

    pt_assert_same_events (want, got_events);
  }
}

/* Samples of traced_perf: PerfSample packets (pid, tid, cpu and
 * nanosecond time in the packet), one with a callstack, one whose
 * unwinding was skipped (no callstack). They read back with their stack
 * nodes before them and their timebase counts, and are written back as
 * PerfSample packets with the same fields, which read back the same. */
static void
test_perf_sample (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  Perfetto__Protos__InternedString names[2], *name_ptrs[] = { &names[0], &names[1] };
  Perfetto__Protos__Mapping mapping = PERFETTO__PROTOS__MAPPING__INIT, *mapping_ptrs[] = { &mapping };
  Perfetto__Protos__Frame frames[2], *frame_ptrs[] = { &frames[0], &frames[1] };
  Perfetto__Protos__Callstack cs = PERFETTO__PROTOS__CALLSTACK__INIT, *cs_ptrs[] = { &cs };
  guint64 frame_ids[] = { 1, 2 };
  const char *strs[] = { "main", "work" };
  Perfetto__Protos__InternedData idata = PERFETTO__PROTOS__INTERNED_DATA__INIT;
  Perfetto__Protos__PerfSample sample = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
  Perfetto__Protos__PerfSample skipped = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
  Perfetto__Protos__TracePacket pkt = PERFETTO__PROTOS__TRACE_PACKET__INIT;
  Perfetto__Protos__TracePacket pkt2 = PERFETTO__PROTOS__TRACE_PACKET__INIT, *pkts[] = { &pkt, &pkt2 };
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  const TraceEvent *ev;

  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__interned_string__init (&names[i]);
      names[i].has_iid = names[i].has_str = TRUE;
      names[i].iid = i + 1;
      names[i].str.data = (guint8 *) strs[i];
      names[i].str.len = strlen (strs[i]);
      perfetto__protos__frame__init (&frames[i]);
      frames[i].has_iid = frames[i].has_function_name_id = frames[i].has_mapping_id = frames[i].has_rel_pc = TRUE;
      frames[i].iid = i + 1;
      frames[i].function_name_id = i + 1;
      frames[i].mapping_id = 1;
      frames[i].rel_pc = 10 + i;
    }
  mapping.has_iid = TRUE;
  mapping.iid = 1;
  cs.has_iid = TRUE;
  cs.iid = 5;
  cs.n_frame_ids = 2;
  cs.frame_ids = frame_ids;
  idata.n_function_names = 2;
  idata.function_names = name_ptrs;
  idata.n_mappings = 1;
  idata.mappings = mapping_ptrs;
  idata.n_frames = 2;
  idata.frames = frame_ptrs;
  idata.n_callstacks = 1;
  idata.callstacks = cs_ptrs;
  sample.has_pid = sample.has_tid = sample.has_cpu = sample.has_callstack_iid = TRUE;
  sample.pid = 7;
  sample.tid = 8;
  sample.cpu = 3;
  sample.callstack_iid = 5;
  sample.has_timebase_count = sample.has_cpu_mode = TRUE;
  sample.timebase_count = 250000;
  sample.cpu_mode = 1;
  skipped.has_pid = skipped.has_tid = skipped.has_cpu = TRUE;
  skipped.pid = 7;
  skipped.tid = 9;
  skipped.cpu = 3;
  skipped.has_timebase_count = skipped.has_sample_skipped_reason = TRUE;
  skipped.timebase_count = 251000;
  skipped.sample_skipped_reason = 2;
  pkt.has_trusted_packet_sequence_id = pkt.has_sequence_flags = pkt.has_timestamp = TRUE;
  pkt.trusted_packet_sequence_id = 1;
  pkt.sequence_flags = 1;
  pkt.timestamp = 12345;
  pkt.interned_data = &idata;
  pkt.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
  pkt.perf_sample = &sample;
  pkt2.has_trusted_packet_sequence_id = pkt2.has_timestamp = TRUE;
  pkt2.trusted_packet_sequence_id = 1;
  pkt2.timestamp = 22345;
  pkt2.data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
  pkt2.perf_sample = &skipped;
  trace.n_packet = 2;
  trace.packet = pkts;
  bytes = pack_trace (&trace);

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, 4);
  for (guint i = 0; i < 2; i++)
    {
      ev = &out->events[i];
      g_assert_cmpint (ev->kind, ==, TRACE_EVENT_STACK_NODE);
      g_assert_cmpstr (trace_string_pool_get (pool, ev->name), ==, strs[i]);
      g_assert_cmpuint (ev->u.stack_node.id, ==, 10 + i);
      g_assert_cmpuint (ev->u.stack_node.parent_id, ==, i == 0 ? 0 : 10);
    }
  ev = &out->events[2];
  g_assert_cmpint (ev->kind, ==, TRACE_EVENT_SAMPLE);
  g_assert_cmpint (ev->ts, ==, 12345);
  g_assert_cmpint (ev->pid, ==, 7);
  g_assert_cmpint (ev->tid, ==, 8);
  g_assert_cmpint (ev->cpu, ==, 3);
  g_assert_cmpuint (ev->u.sample.node_id, ==, 11);
  text = pt_event_string (out, ev);
  g_assert_cmpstr (text, ==, "sample ts=12345 pid=7 tid=8 cpu=3 name='' cat='' flags=0x0 node=11 weight=0 timebase_count=i:250000 cpu_mode=i:1");
  g_free (text);
  text = pt_event_string (out, &out->events[3]);
  g_assert_cmpstr (text, ==, "sample ts=22345 pid=7 tid=9 cpu=3 name='' cat='' flags=0x0 node=0 weight=0 timebase_count=i:251000 sample_skipped_reason=i:2");

  assert_perf_samples_written (out);
}

/* The timebase's name as trace_processor gives its counter tracks: its
 * own name first, else its counter, tracepoint or raw event, then its
 * modifiers; and back, a name with the counter or tracepoint it names. */
static void
test_perf_timebase_names (void)
{
  Perfetto__Protos__PerfEvents__Timebase tb = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__INIT;
  Perfetto__Protos__PerfEvents__Tracepoint tp = PERFETTO__PROTOS__PERF_EVENTS__TRACEPOINT__INIT;
  Perfetto__Protos__PerfEvents__RawEvent raw = PERFETTO__PROTOS__PERF_EVENTS__RAW_EVENT__INIT;
  Perfetto__Protos__PerfEvents__EventModifier mods[] = { PERFETTO__PROTOS__PERF_EVENTS__EVENT_MODIFIER__EVENT_MODIFIER_COUNT_USERSPACE,
                                                         PERFETTO__PROTOS__PERF_EVENTS__EVENT_MODIFIER__EVENT_MODIFIER_COUNT_KERNEL };
  g_autoptr (GString) name = g_string_new (NULL);

  perfetto_timebase_name (&tb, name);
  g_assert_cmpstr (name->str, ==, "unknown");
  tb.event_case = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_COUNTER;
  tb.counter = PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_INSTRUCTIONS;
  tb.n_modifiers = G_N_ELEMENTS (mods);
  tb.modifiers = mods;
  perfetto_timebase_name (&tb, name);
  g_assert_cmpstr (name->str, ==, "instructions:uk");
  tb.n_modifiers = 0;
  tp.name = "sched:sched_switch";
  tb.event_case = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_TRACEPOINT;
  tb.tracepoint = &tp;
  perfetto_timebase_name (&tb, name);
  g_assert_cmpstr (name->str, ==, "sched:sched_switch");
  raw.type = 4;
  raw.config = 0x11;
  tb.event_case = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_RAW_EVENT;
  tb.raw_event = &raw;
  perfetto_timebase_name (&tb, name);
  g_assert_cmpstr (name->str, ==, "raw.0x4.0x11.0x0.0x0");
  tb.name = "l3-misses";
  perfetto_timebase_name (&tb, name);
  g_assert_cmpstr (name->str, ==, "l3-misses");

  perfetto_timebase_init_named (&tb, &tp, "cpu-cycles:u");
  g_assert_cmpstr (tb.name, ==, "cpu-cycles:u");
  g_assert_cmpint (tb.event_case, ==, PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_COUNTER);
  g_assert_cmpint (tb.counter, ==, PERFETTO__PROTOS__PERF_EVENTS__COUNTER__HW_CPU_CYCLES);
  perfetto_timebase_init_named (&tb, &tp, "sched:sched_switch");
  g_assert_cmpint (tb.event_case, ==, PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_TRACEPOINT);
  g_assert_cmpstr (tb.tracepoint->name, ==, "sched:sched_switch");
  perfetto_timebase_init_named (&tb, &tp, "raw.0x4.0x11.0x0.0x0");
  g_assert_cmpint (tb.event_case, ==, PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT__NOT_SET);
  g_assert_cmpstr (tb.name, ==, "raw.0x4.0x11.0x0.0x0");
}

/* A sequence whose perf_sample_defaults sample on a tracepoint: its
 * samples carry the timebase's name, and go back on a sequence whose
 * defaults state it (the name and the tracepoint); a sample of another
 * sequence, without defaults, on one that states none (cpu-clock). */
static void
test_perf_timebase_round_trip (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  Perfetto__Protos__PerfEvents__Tracepoint tp = PERFETTO__PROTOS__PERF_EVENTS__TRACEPOINT__INIT;
  Perfetto__Protos__PerfEvents__Timebase tb = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__INIT;
  Perfetto__Protos__PerfSampleDefaults perf = PERFETTO__PROTOS__PERF_SAMPLE_DEFAULTS__INIT;
  Perfetto__Protos__TracePacketDefaults defaults = PERFETTO__PROTOS__TRACE_PACKET_DEFAULTS__INIT;
  Perfetto__Protos__PerfSample sample = PERFETTO__PROTOS__PERF_SAMPLE__INIT;
  Perfetto__Protos__TracePacket pkt[2], *pkts[] = { &pkt[0], &pkt[1] };
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  Perfetto__Protos__Trace *written;
  g_autoptr (GBytes) bytes = NULL, again = NULL;
  g_autoptr (TraceBatch) out = NULL, back = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *first = NULL, *second = NULL, *first_back = NULL;
  guint stated = 0, unstated = 0;

  tp.name = "sched:sched_switch";
  tb.event_case = PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_TRACEPOINT;
  tb.tracepoint = &tp;
  perf.timebase = &tb;
  defaults.perf_sample_defaults = &perf;
  sample.has_pid = sample.has_tid = sample.has_cpu = sample.has_timebase_count = TRUE;
  sample.pid = sample.tid = 7;
  sample.cpu = 1;
  sample.timebase_count = 1;
  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__trace_packet__init (&pkt[i]);
      pkt[i].has_trusted_packet_sequence_id = pkt[i].has_sequence_flags = pkt[i].has_timestamp = TRUE;
      pkt[i].trusted_packet_sequence_id = i + 1;
      pkt[i].sequence_flags = 1;
      pkt[i].timestamp = 1000 * (i + 1);
      pkt[i].data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
      pkt[i].perf_sample = &sample;
    }
  pkt[0].trace_packet_defaults = &defaults;
  trace.n_packet = 2;
  trace.packet = pkts;
  bytes = pack_trace (&trace);

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (out->n_events, ==, 2);
  first = pt_event_string (out, &out->events[0]);
  second = pt_event_string (out, &out->events[1]);
  g_assert_cmpstr (first, ==, "sample ts=1000 pid=7 tid=7 cpu=1 name='' cat='' flags=0x0 node=0 weight=0 timebase_count=i:1 timebase=s:'sched:sched_switch'");
  g_assert_cmpstr (second, ==, "sample ts=2000 pid=7 tid=7 cpu=1 name='' cat='' flags=0x0 node=0 weight=0 timebase_count=i:1");

  again = pt_write (&out, 1, NULL, NULL);
  written = pt_unpack (again);
  for (gsize i = 0; i < written->n_packet; i++)
    {
      Perfetto__Protos__TracePacket *p = written->packet[i];

      if (p->perf_sample == NULL)
        continue;
      if (p->trace_packet_defaults && p->trace_packet_defaults->perf_sample_defaults)
        {
          Perfetto__Protos__PerfEvents__Timebase *t = p->trace_packet_defaults->perf_sample_defaults->timebase;

          g_assert_cmpstr (t->name, ==, "sched:sched_switch");
          g_assert_cmpint (t->event_case, ==, PERFETTO__PROTOS__PERF_EVENTS__TIMEBASE__EVENT_TRACEPOINT);
          g_assert_cmpstr (t->tracepoint->name, ==, "sched:sched_switch");
          g_assert_cmpuint (p->perf_sample->timebase_count, ==, 1);
          stated++;
        }
      else
        unstated++;
    }
  perfetto__protos__trace__free_unpacked (written, NULL);
  g_assert_cmpuint (stated, ==, 1);
  g_assert_cmpuint (unstated, ==, 1);
  back = pt_read (again, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < back->n_events; i++)
    if (back->events[i].ts == 1000)
      first_back = pt_event_string (back, &back->events[i]);
  g_assert_cmpstr (first_back, ==, first);
}

static void
init_interned_string (Perfetto__Protos__InternedString *s,
                      guint64 iid,
                      const char *str)
{
  perfetto__protos__interned_string__init (s);
  s->has_iid = s->has_str = TRUE;
  s->iid = iid;
  s->str.data = (guint8 *) str;
  s->str.len = strlen (str);
}

/* One stack node per (parent, frame) as trace_processor makes one
 * callsite per (parent, frame): a frame at the rel_pc of another (another
 * function) is another node, and a mapping with an address range is a
 * mapping of each process, so the same frame sampled in two processes is
 * two nodes. A path given in components is named as trace_processor
 * names it. */
static void
test_perf_sample_nodes (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  Perfetto__Protos__InternedString strs[4], *name_ptrs[] = { &strs[0], &strs[1] }, *path_ptrs[] = { &strs[2], &strs[3] };
  Perfetto__Protos__Mapping mapping = PERFETTO__PROTOS__MAPPING__INIT, *mapping_ptrs[] = { &mapping };
  Perfetto__Protos__Frame frames[2], *frame_ptrs[] = { &frames[0], &frames[1] };
  Perfetto__Protos__Callstack cs[2], *cs_ptrs[] = { &cs[0], &cs[1] };
  guint64 path_ids[] = { 1, 2 }, frame_ids[] = { 1, 2 };
  Perfetto__Protos__InternedData idata = PERFETTO__PROTOS__INTERNED_DATA__INIT;
  const struct
  {
    gint64 pid;
    guint64 callstack;
  } samples[] = { { 7, 5 }, { 8, 5 }, { 7, 6 }, { 7, 5 } };
  Perfetto__Protos__PerfSample sample[4];
  Perfetto__Protos__TracePacket pkt[4], *pkts[] = { &pkt[0], &pkt[1], &pkt[2], &pkt[3] };
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *node = NULL;
  guint64 node_of[4];

  init_interned_string (&strs[0], 1, "f");
  init_interned_string (&strs[1], 2, "g");
  init_interned_string (&strs[2], 1, "apex");
  init_interned_string (&strs[3], 2, "libc.so");
  mapping.has_iid = mapping.has_start = mapping.has_end = TRUE;
  mapping.iid = 1;
  mapping.start = 0x1000;
  mapping.end = 0x2000;
  mapping.n_path_string_ids = 2;
  mapping.path_string_ids = path_ids;
  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__frame__init (&frames[i]);
      frames[i].has_iid = frames[i].has_function_name_id = frames[i].has_mapping_id = frames[i].has_rel_pc = TRUE;
      frames[i].iid = frames[i].function_name_id = i + 1;
      frames[i].mapping_id = 1;
      frames[i].rel_pc = 0x10;
      perfetto__protos__callstack__init (&cs[i]);
      cs[i].has_iid = TRUE;
      cs[i].iid = 5 + i;
      cs[i].n_frame_ids = 1;
      cs[i].frame_ids = &frame_ids[i];
    }
  idata.n_function_names = idata.n_mapping_paths = idata.n_mappings = 2;
  idata.function_names = name_ptrs;
  idata.mapping_paths = path_ptrs;
  idata.n_mappings = 1;
  idata.mappings = mapping_ptrs;
  idata.n_frames = idata.n_callstacks = 2;
  idata.frames = frame_ptrs;
  idata.callstacks = cs_ptrs;
  for (guint i = 0; i < 4; i++)
    {
      perfetto__protos__perf_sample__init (&sample[i]);
      sample[i].has_pid = sample[i].has_tid = sample[i].has_callstack_iid = TRUE;
      sample[i].pid = sample[i].tid = samples[i].pid;
      sample[i].callstack_iid = samples[i].callstack;
      perfetto__protos__trace_packet__init (&pkt[i]);
      pkt[i].has_trusted_packet_sequence_id = pkt[i].has_timestamp = TRUE;
      pkt[i].trusted_packet_sequence_id = 1;
      pkt[i].timestamp = 1000 + i;
      pkt[i].data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_PERF_SAMPLE;
      pkt[i].perf_sample = &sample[i];
    }
  pkt[0].has_sequence_flags = TRUE;
  pkt[0].sequence_flags = 1;
  pkt[0].interned_data = &idata;
  trace.n_packet = 4;
  trace.packet = pkts;
  bytes = pack_trace (&trace);

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  /* three nodes, each before its first sample, and four samples */
  g_assert_cmpuint (out->n_events, ==, 7);
  for (guint i = 0, s = 0; i < out->n_events; i++)
    if (out->events[i].kind == TRACE_EVENT_SAMPLE)
      node_of[s++] = out->events[i].u.sample.node_id;
  g_assert_cmpuint (node_of[0], ==, 0x10);
  g_assert_cmpuint (node_of[1], !=, node_of[0]);
  g_assert_cmpuint (node_of[2], !=, node_of[0]);
  g_assert_cmpuint (node_of[2], !=, node_of[1]);
  g_assert_cmpuint (node_of[3], ==, node_of[0]);
  g_assert_cmpint (out->events[0].kind, ==, TRACE_EVENT_STACK_NODE);
  node = pt_event_string (out, &out->events[0]);
  g_assert_nonnull (strstr (node, "name='f'"));
  g_assert_nonnull (strstr (node, "url=s:'/apex/libc.so'"));
}

static Perfetto__Protos__DebugAnnotation__NestedValue *
nested_leaf (Perfetto__Protos__DebugAnnotation__NestedValue *v)
{
  perfetto__protos__debug_annotation__nested_value__init (v);
  return v;
}

/* The args of an instant of a thread carrying @ann, as perfetto-src
 * reads them (pt_event_string()). */
static char *
read_annotated_instant (Perfetto__Protos__DebugAnnotation *ann)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  Perfetto__Protos__DebugAnnotation *anns[] = { ann };
  Perfetto__Protos__ThreadDescriptor thread = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
  Perfetto__Protos__TrackDescriptor track = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
  Perfetto__Protos__TrackEvent te = PERFETTO__PROTOS__TRACK_EVENT__INIT;
  Perfetto__Protos__TracePacket pkt[2], *pkts[] = { &pkt[0], &pkt[1] };
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GError) error = NULL;

  thread.has_pid = thread.has_tid = TRUE;
  thread.pid = thread.tid = 4;
  track.has_uuid = TRUE;
  track.uuid = 9;
  track.thread = &thread;
  te.has_type = te.has_track_uuid = TRUE;
  te.type = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT;
  te.track_uuid = 9;
  te.name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
  te.name = "e";
  te.n_debug_annotations = 1;
  te.debug_annotations = anns;
  for (guint i = 0; i < 2; i++)
    {
      perfetto__protos__trace_packet__init (&pkt[i]);
      pkt[i].has_trusted_packet_sequence_id = pkt[i].has_timestamp = TRUE;
      pkt[i].trusted_packet_sequence_id = 1;
      pkt[i].timestamp = 100;
    }
  pkt[0].data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_DESCRIPTOR;
  pkt[0].track_descriptor = &track;
  pkt[1].data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
  pkt[1].track_event = &te;
  trace.n_packet = 2;
  trace.packet = pkts;
  bytes = pack_trace (&trace);

  out = pt_read (bytes, pool, NULL, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < out->n_events; i++)
    if (out->events[i].kind == TRACE_EVENT_INSTANT)
      return pt_event_string (out, &out->events[i]);
  g_assert_not_reached ();
}

/* A debug annotation given as a nested_value tree (Chrome's TracedValue
 * in older writers) reads as the dotted keys trace_processor gives it:
 * `args.a`, `args.arr[i]` numbered among the elements that hold a value,
 * and nothing for an empty dict or an element without a value. */
static void
test_nested_value (void)
{
  Perfetto__Protos__DebugAnnotation__NestedValue root, a, arr, x, none, d, empty;
  Perfetto__Protos__DebugAnnotation__NestedValue *root_values[] = { &a, &arr, &empty }, *arr_values[] = { &x, &none, &d };
  char *keys[] = { "a", "arr", "empty" };
  Perfetto__Protos__DebugAnnotation ann = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  g_autofree char *text = NULL;

  nested_leaf (&a)->has_int_value = TRUE;
  a.int_value = 1;
  nested_leaf (&x)->string_value = "x";
  nested_leaf (&none);
  nested_leaf (&d)->has_double_value = TRUE;
  d.double_value = 2.5;
  nested_leaf (&arr)->has_nested_type = TRUE;
  arr.nested_type = PERFETTO__PROTOS__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__ARRAY;
  arr.n_array_values = 3;
  arr.array_values = arr_values;
  nested_leaf (&empty)->has_nested_type = TRUE;
  empty.nested_type = PERFETTO__PROTOS__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__DICT;
  nested_leaf (&root)->has_nested_type = TRUE;
  root.nested_type = PERFETTO__PROTOS__DEBUG_ANNOTATION__NESTED_VALUE__NESTED_TYPE__DICT;
  root.n_dict_keys = root.n_dict_values = 3;
  root.dict_keys = keys;
  root.dict_values = root_values;
  ann.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
  ann.name = "args";
  ann.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_NESTED_VALUE;
  ann.nested_value = &root;

  text = read_annotated_instant (&ann);
  g_assert_nonnull (g_strrstr (text, " args.a=i:1 args.arr[0]=s:'x' args.arr[1]=d:2.5"));
  g_assert_null (strstr (text, "empty"));
  g_assert_null (strstr (text, "args.arr[2]"));
}

/* A legacy_json_value reads as trace_processor flattens it, as it
 * flattens a JSON event's args: members and elements as dotted keys, the
 * elements numbered among those that are not null (an empty array keeps
 * its index, a value-less arg). Text that is no JSON stays one string. */
static void
test_legacy_json_value (void)
{
  Perfetto__Protos__DebugAnnotation ann = PERFETTO__PROTOS__DEBUG_ANNOTATION__INIT;
  g_autofree char *text = NULL, *not_json = NULL;

  ann.name_field_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__NAME_FIELD_NAME;
  ann.name = "params";
  ann.value_case = PERFETTO__PROTOS__DEBUG_ANNOTATION__VALUE_LEGACY_JSON_VALUE;
  ann.legacy_json_value = "{\"a\":1,\"b\":[null,[],{\"c\":\"x\"},2.5,true],\"e\":{}}";
  text = read_annotated_instant (&ann);
  g_assert_nonnull (g_strrstr (text, " params.a=i:1 params.b[0]=[] params.b[1].c=s:'x' params.b[2]=d:2.5 "
                                     "params.b[3]=b:1 params.e={}"));
  ann.legacy_json_value = "{not json";
  not_json = read_annotated_instant (&ann);
  g_assert_nonnull (g_strrstr (not_json, " params=s:'{not json'"));
}

/* A legacy TrackEvent of phase @phase named @name on sequence 1 (whose
 * thread is 4/4), at @ts. */
static void
legacy_packet (Perfetto__Protos__TracePacket *pkt,
               Perfetto__Protos__TrackEvent *te,
               Perfetto__Protos__TrackEvent__LegacyEvent *legacy,
               char phase,
               const char *name,
               guint64 ts)
{
  perfetto__protos__trace_packet__init (pkt);
  perfetto__protos__track_event__init (te);
  perfetto__protos__track_event__legacy_event__init (legacy);
  pkt->has_trusted_packet_sequence_id = pkt->has_timestamp = TRUE;
  pkt->trusted_packet_sequence_id = 1;
  pkt->timestamp = ts;
  pkt->data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_TRACK_EVENT;
  pkt->track_event = te;
  te->name_field_case = PERFETTO__PROTOS__TRACK_EVENT__NAME_FIELD_NAME;
  te->name = (char *) name;
  te->legacy_event = legacy;
  legacy->has_phase = TRUE;
  legacy->phase = phase;
}

/* Legacy phases no other kind describes come back as Chrome phase
 * events of the thread, with their id, scope and thread time (which
 * trace_processor keeps as a raw row and a thread_time value); an `M`
 * naming a thread, and one of thread 0 (trace_processor refuses the
 * swapper's), are counted; `tid_override` names the thread. */
static void
test_legacy_other_phases (void)
{
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  Perfetto__Protos__ThreadDescriptor thread = PERFETTO__PROTOS__THREAD_DESCRIPTOR__INIT;
  Perfetto__Protos__TracePacket pkt[6], *pkts[6];
  Perfetto__Protos__TrackEvent te[5];
  Perfetto__Protos__TrackEvent__LegacyEvent legacy[5];
  Perfetto__Protos__Trace trace = PERFETTO__PROTOS__TRACE__INIT;
  PerfettoReaderStats stats;
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (TraceBatch) out = NULL;
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GError) error = NULL;

  perfetto__protos__trace_packet__init (&pkt[0]);
  pkt[0].has_trusted_packet_sequence_id = TRUE;
  pkt[0].trusted_packet_sequence_id = 1;
  thread.has_pid = thread.has_tid = TRUE;
  thread.pid = thread.tid = 4;
  pkt[0].data_case = PERFETTO__PROTOS__TRACE_PACKET__DATA_THREAD_DESCRIPTOR;
  pkt[0].thread_descriptor = &thread;
  legacy_packet (&pkt[1], &te[0], &legacy[0], '(', "FrameBlameContext", 1000);
  legacy[0].has_local_id = TRUE;
  legacy[0].local_id = 7;
  legacy[0].id_scope = "FrameBlameContext";
  te[0].thread_time_case = PERFETTO__PROTOS__TRACK_EVENT__THREAD_TIME_THREAD_TIME_ABSOLUTE_US;
  te[0].thread_time_absolute_us = 40;
  legacy_packet (&pkt[2], &te[1], &legacy[1], 'C', "VisibleTiles", 2000);
  legacy_packet (&pkt[3], &te[2], &legacy[2], 'M', "thread_name", 3000);
  legacy_packet (&pkt[4], &te[3], &legacy[3], 'M', "num_cpus", 4000);
  legacy[3].has_tid_override = TRUE;
  legacy_packet (&pkt[5], &te[4], &legacy[4], 'O', "FrameTreeNode", 5000);
  legacy[4].has_tid_override = TRUE;
  legacy[4].tid_override = 5;
  legacy[4].has_unscoped_id = TRUE;
  legacy[4].unscoped_id = 0x2a;
  for (guint i = 0; i < G_N_ELEMENTS (pkt); i++)
    pkts[i] = &pkt[i];
  trace.n_packet = G_N_ELEMENTS (pkt);
  trace.packet = pkts;
  bytes = pack_trace (&trace);

  out = pt_read (bytes, pool, &stats, NULL, &error);
  g_assert_no_error (error);
  got = pt_event_strings (out, FALSE);
  g_assert_cmpuint (got->len, ==, 3);
  g_assert_cmpstr (got->pdata[0], ==, "chrome-phase ts=1000 pid=4 tid=4 cpu=-1 name='FrameBlameContext' cat='' flags=0x80 "
                                      "phase='(' id=3:7 scope='FrameBlameContext' tts=40000");
  g_assert_cmpstr (got->pdata[1], ==, "chrome-phase ts=2000 pid=4 tid=4 cpu=-1 name='VisibleTiles' cat='' flags=0x0 "
                                      "phase='C' id=0:0 scope='' tts=-1");
  g_assert_cmpstr (got->pdata[2], ==, "chrome-phase ts=5000 pid=4 tid=5 cpu=-1 name='FrameTreeNode' cat='' flags=0x0 "
                                      "phase='O' id=1:42 scope='' tts=-1");
  g_assert_cmpuint (stats.unsupported_events, ==, 2);
}

/* 20 MiB of empty packets: no call reads them all at once (the
 * caller's main loop, where Ctrl-C is handled, runs between calls); the
 * calls return empty batches until the end. */
static void
test_input_bound (void)
{
  gsize len = 20 * 1024 * 1024;
  g_autofree guint8 *data = g_malloc0 (len);
  g_autoptr (TraceStringPool) pool = trace_string_pool_new ();
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (PerfettoReader) r = NULL;
  g_autoptr (GError) error = NULL;
  TraceBatch *b;
  guint empty = 0;

  for (gsize i = 0; i < len; i += 2)
    data[i] = 0x0a; /* field 1 (packet), length 0 */
  in = g_memory_input_stream_new_from_data (data, len, NULL);
  r = perfetto_reader_new (in, "empty-packets.pftrace", pool);
  while (perfetto_reader_read_batch (r, &b, &error) && b != NULL)
    {
      empty += b->n_events == 0;
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (empty, >=, len / TRACE_BATCH_MAX_INPUT_BYTES - 1);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perfetto/reader/sdk-style", test_sdk_style);
  g_test_add_func ("/perfetto/reader/print-markers", test_print_markers);
  g_test_add_func ("/perfetto/reader/cut-files", test_cut_files);
  g_test_add_func ("/perfetto/reader/input-bound", test_input_bound);
  g_test_add_func ("/perfetto/reader/claimed-length", test_claimed_length);
  g_test_add_func ("/perfetto/reader/not-perfetto", test_not_perfetto);
  g_test_add_func ("/perfetto/reader/empty", test_empty);
  g_test_add_func ("/perfetto/reader/no-events", test_no_events);
  g_test_add_func ("/perfetto/reader/corrupt-tail", test_corrupt_tail);
  g_test_add_func ("/perfetto/reader/unknown-top-level-field", test_unknown_top_level_field);
  g_test_add_func ("/perfetto/reader/compressed", test_compressed);
  g_test_add_func ("/perfetto/reader/perf-sample", test_perf_sample);
  g_test_add_func ("/perfetto/reader/perf-sample-nodes", test_perf_sample_nodes);
  g_test_add_func ("/perfetto/reader/nested-value", test_nested_value);
  g_test_add_func ("/perfetto/reader/legacy-json-value", test_legacy_json_value);
  g_test_add_func ("/perfetto/reader/legacy-other-phases", test_legacy_other_phases);
  g_test_add_func ("/perfetto/reader/perf-timebase-names", test_perf_timebase_names);
  g_test_add_func ("/perfetto/reader/perf-timebase-round-trip", test_perf_timebase_round_trip);
  return g_test_run ();
}
