/* Unit tests of the htrace container and its clocks: files written
 * here, byte by byte, with the tests' own writer (htrace-test-util.c).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-test-util.h"
#include "../../test-util.h"

#define SEC 1000000000LL

static void
assert_error (const void *data,
              gsize len,
              gint code,
              const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = htrace_run_bytes (data, len, &error);

  g_assert_error (error, TRACE_STREAM_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_cmpuint (run->batches->len, ==, 0);
}

static void
test_refused (void)
{
  g_autoptr (GByteArray) file = wire_file_new (0, 0, 0);
  guint32 type = GUINT32_TO_LE (1);

  assert_error ("", 0, TRACE_STREAM_ERROR_EMPTY, "test.htrace: empty file");
  assert_error ("GIF89a and more", 15, TRACE_STREAM_ERROR_WRONG_TYPE,
                "test.htrace: not an OpenHarmony htrace file: it does not start with `OHOSPROF`");
  assert_error (file->data, 108, TRACE_STREAM_ERROR_FORMAT,
                "test.htrace: the htrace header is cut off at byte 108 (it is 1024 bytes)");
  memcpy (file->data + 56, &type, 4);
  assert_error (file->data, file->len, TRACE_STREAM_ERROR_WRONG_TYPE,
                "test.htrace: an htrace file of data type 1 at byte 56: only hiprofiler's protobuf records (type 0) "
                "are read, not hiperf or standalone-plugin data");
}

/* A length past the limit is damage: refused where it is, before any
 * allocation of that size. */
static void
test_record_too_large (void)
{
  g_autoptr (GByteArray) file = wire_file_new (0, 0, 0);
  guint32 len = GUINT32_TO_LE (HTRACE_MAX_RECORD + 1);

  wire_file_add_record (file, "cpu-plugin", 1, 0, NULL);
  g_byte_array_append (file, (const guint8 *) &len, 4);
  assert_error (file->data, file->len, TRACE_STREAM_ERROR_TOO_LARGE,
                "test.htrace@1044: a record of 67108865 bytes, more than the 64 MiB limit: the file is damaged here");
}

/* A record whose length claims the limit (64 MiB) in a file that ends 10
 * bytes into it is read with the memory of those bytes: with 24 MiB of
 * address space to spare, it is counted as cut off, not allocated whole
 * (which aborted). In a subprocess, which the limit is set for. */
static void
test_claimed_length (void)
{
  if (g_test_subprocess ())
    {
      g_autoptr (GByteArray) file = wire_file_new (0, 0, 0);
      g_autoptr (GError) error = NULL;
      g_autoptr (HtraceRun) run = NULL;
      g_autofree char *summary = NULL;
      guint32 len = GUINT32_TO_LE (HTRACE_MAX_RECORD);

      wire_file_add_record (file, "hiperf-plugin", 1, 0, NULL);
      g_byte_array_append (file, (const guint8 *) &len, 4);
      g_byte_array_append (file, (const guint8 *) "0123456789", 10);
      test_limit_address_space (24 * 1024 * 1024);
      run = htrace_run_bytes (file->data, file->len, &error);
      g_assert_no_error (error);
      summary = htrace_reader_get_summary (run->reader);
      g_assert_cmpstr (summary, ==,
                       "test.htrace: 1 records of plugins htrace-src does not read (the first at byte 1024): "
                       "hiperf-plugin 1; 14 bytes of a record cut off at the end (the first at byte 1047)");
      return;
    }
#ifdef TEST_UNDER_ASAN
  g_test_skip ("AddressSanitizer cannot run under an address-space limit");
  return;
#endif
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* Records of plugins not read are counted by name; a record cut off by
 * the end of the file is counted in bytes; neither stops the others. */
static void
test_skipped_and_truncated (void)
{
  g_autoptr (GByteArray) file = wire_file_new (0, 0, 0);
  g_autoptr (GByteArray) net = g_byte_array_new ();
  g_autoptr (GByteArray) sys = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  g_autofree char *summary = NULL;
  guint32 len = GUINT32_TO_LE (100);
  HtraceReaderStats st;

  wire_put_varint (sys, 3, 4096);
  wire_put_bytes (net, 2, sys->data, sys->len);
  wire_file_add_record (file, "hiperf-plugin", 1, 0, NULL);
  wire_file_add_record (file, "network-plugin", 2, 0, net);
  wire_file_add_record (file, "xpower-plugin", 3, 0, NULL);
  g_byte_array_append (file, (const guint8 *) "\0\0\0\0", 4); /* an empty record */
  wire_file_add_record (file, "hiperf-plugin", 4, 0, NULL);
  g_byte_array_append (file, (const guint8 *) &len, 4);
  g_byte_array_append (file, (const guint8 *) "0123456789", 10);
  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  summary = htrace_reader_get_summary (run->reader);
  g_assert_cmpstr (summary, ==,
                   "test.htrace: 4 records of plugins htrace-src does not read (the first at byte 1024): "
                   "(unnamed) 1, hiperf-plugin 2, xpower-plugin 1; 14 bytes of a record cut off at the end (the "
                   "first at byte 1128)");
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.records, ==, 5);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_UNKNOWN_PLUGIN], ==, 4);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_TRUNCATED], ==, 14);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, "net.rx"), ==, 1);
  g_assert_cmpfloat (htrace_run_first (run, TRACE_EVENT_COUNTER, "net.rx")->u.counter.value, ==, 4096);
  g_assert_cmpint (htrace_run_first (run, TRACE_EVENT_COUNTER, "net.rx")->ts, ==, 2 * SEC);
}

/* With a boottime reading in the header, the stream is on boottime:
 * records on realtime move by the header's difference, and the header's
 * pair is the first event. */
static void
test_clocks (void)
{
  g_autoptr (GByteArray) file = wire_file_new (1000 * SEC, 5000 * SEC, 0);
  g_autoptr (GByteArray) net = g_byte_array_new ();
  g_autoptr (GByteArray) sys = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  const TraceEvent *pair;

  wire_put_varint (sys, 5, 1);
  wire_put_bytes (net, 2, sys->data, sys->len);
  wire_file_add_record (file, "network-plugin", 5002, 7, net);
  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (htrace_reader_get_clock_domain (run->reader), ==, TRACE_CLOCK_BOOTTIME);
  pair = htrace_run_first (run, TRACE_EVENT_CLOCK_MARKER, NULL);
  g_assert_nonnull (pair);
  g_assert_cmpint (pair->ts, ==, 1000 * SEC);
  g_assert_cmpint (pair->u.clock.marker, ==, TRACE_CLOCK_MARKER_PAIR);
  g_assert_cmpint (pair->u.clock.domain, ==, TRACE_CLOCK_REALTIME);
  g_assert_cmpint (pair->u.clock.other_ts, ==, 5000 * SEC);
  g_assert_cmpint (htrace_run_first (run, TRACE_EVENT_COUNTER, "net.tx")->ts, ==, 1002 * SEC + 7);
}

/* FFRT events on boottime (its default) in a file whose header has no
 * boottime reading cannot be placed: counted, not guessed. A record
 * whose protobuf does not parse is counted too. */
static void
test_unplaceable_and_bad (void)
{
  g_autoptr (GByteArray) file = wire_file_new (0, 0, 0);
  g_autoptr (GByteArray) result = g_byte_array_new ();
  g_autoptr (GByteArray) event = g_byte_array_new ();
  g_autoptr (GByteArray) trace = g_byte_array_new ();
  g_autoptr (GByteArray) garbage = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  HtraceReaderStats st;

  wire_put_bytes (trace, 2, "B", 1);
  wire_put_bytes (trace, 3, "work", 4);
  wire_put_varint (event, 1, 12);
  wire_put_varint (event, 4, 7);
  wire_put_varint (event, 5, 8);
  wire_put_bytes (event, 8, trace->data, trace->len);
  wire_put_bytes (result, 1, event->data, event->len);
  wire_put_bytes (result, 1, event->data, event->len);
  g_byte_array_append (garbage, (const guint8 *) "\x0a\xff\xff\xff", 4);
  wire_file_add_record (file, "ffrt-profiler", 1, 0, result);
  wire_file_add_record (file, "cpu-plugin", 1, 0, garbage);
  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_UNKNOWN_CLOCK], ==, 2);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_BAD_RESULT], ==, 1);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_SLICE_BEGIN, NULL), ==, 0);
}

/* meminfo keys by their enum names; a key past the limit is skipped. */
static void
test_meminfo_keys (void)
{
  g_autoptr (GByteArray) file = wire_file_new (0, 0, 0);
  g_autoptr (GByteArray) mem = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (HtraceRun) run = NULL;
  HtraceReaderStats st;
  const guint64 entries[][2] = { { 1, 2048 }, { 37, 4 }, { 99, 1 }, { 5000, 7 } };

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    {
      g_autoptr (GByteArray) entry = g_byte_array_new ();

      wire_put_varint (entry, 1, entries[i][0]);
      wire_put_varint (entry, 2, entries[i][1]);
      wire_put_bytes (mem, 2, entry->data, entry->len);
    }
  wire_file_add_record (file, "memory-plugin", 9, 0, mem);
  run = htrace_run_bytes (file->data, file->len, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (htrace_run_first (run, TRACE_EVENT_COUNTER, "mem.mem_total")->u.counter.value, ==, 2048 * 1024);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, "mem.pined_purg"), ==, 1);
  g_assert_cmpuint (htrace_run_count (run, TRACE_EVENT_COUNTER, "mem.key99"), ==, 1);
  htrace_reader_copy_stats (run->reader, &st);
  g_assert_cmpuint (st.skipped[HTRACE_SKIP_BAD_RESULT], ==, 1);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/htrace/container/refused", test_refused);
  g_test_add_func ("/htrace/container/record-too-large", test_record_too_large);
  g_test_add_func ("/htrace/container/claimed-length", test_claimed_length);
  g_test_add_func ("/htrace/container/skipped-and-truncated", test_skipped_and_truncated);
  g_test_add_func ("/htrace/container/clocks", test_clocks);
  g_test_add_func ("/htrace/container/unplaceable-and-bad", test_unplaceable_and_bad);
  g_test_add_func ("/htrace/container/meminfo-keys", test_meminfo_keys);
  return g_test_run ();
}
