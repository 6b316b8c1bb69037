/* tracepipe tests - htrace: OpenHarmony captures as a user converts them
 *
 * auto-src knows an htrace file by its magic and a bare zlib stream of
 * hitrace text by what it inflates to; a capture cut in a record reads
 * to the end with a WARNING naming the byte; a damaged record length is
 * an ERROR at its byte, with no output file.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>

#include "robustness.h"

typedef struct
{
  const char *area, *name, *format;
} DetectCase;

static const DetectCase detect_cases[] = {
  { "htrace", "ohos_sysmon_ability.htrace", "htrace" },
  { "htrace", "ohos_ffrt.htrace", "htrace" },
  { "htrace", "ohos_nativehook_mmap.htrace", "htrace" },
  { "ftrace", "ohos_zlib_hitrace.htrace", "ftrace" },
};

/* `auto-src location=X ! perfetto-sink` picks the format's source and
 * writes a trace perfetto-src reads back in full. */
static void
test_detect (gconstpointer data)
{
  const DetectCase *c = data;
  g_autofree char *path = rb_data_path (c->area, c->name);
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autoptr (RbResult) r = RB_RUN ("-q", "--stats", "auto-src", location, "!", "perfetto-sink", out_location);
  g_autofree char *detected = NULL;

  g_assert_cmpint (r->status, ==, 0);
  /* the source reads all (the zlib capture begins inside 3 slices, which
   * perfetto-sink reports: its WARNING, not the source's) */
  g_assert_null (strstr (r->err, "from /pipeline0/auto-src0"));
  detected = g_strdup_printf ("detected-format=%s ", c->format);
  g_assert_nonnull (strstr (r->err, detected));
  g_assert_cmpuint (rb_stat (r->err, "perfetto-sink0", "events-in"), >, 0);
  g_assert_cmpuint (rb_perfetto_trace_events (out), >, 0);
  rb_scratch_cleanup (dir);
}

/* The FFRT capture cut 10 bytes into its last record. */
static void
test_cut_record (void)
{
  g_autofree char *path = rb_data_path ("htrace", "ohos_ffrt.htrace");
  g_autoptr (GBytes) bytes = rb_read_file (path);
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *cut = g_build_filename (dir, "cut.htrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", cut);
  g_autoptr (RbResult) r = NULL;
  gsize len, last = 1024;
  const guint8 *d = g_bytes_get_data (bytes, &len);
  g_autofree char *expected = NULL;

  /* the offset of the last record, walking the lengths */
  for (gsize pos = 1024; pos + 4 <= len; pos += 4 + (d[pos] | d[pos + 1] << 8 | d[pos + 2] << 16 | d[pos + 3] << 24))
    last = pos;
  rb_write_file (cut, d, last + 14);
  r = RB_RUN ("-q", "--stats", "htrace-src", location, "!", "fakesink");
  g_assert_cmpint (r->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/htrace-src0: %s: 14 bytes of a record cut off at the end "
                              "(the first at byte %" G_GSIZE_FORMAT ")\n",
                              cut, last);
  rb_assert_messages (r->err, expected);
  g_assert_cmpuint (rb_stat (r->err, "htrace-src0", "truncated-bytes"), ==, 14);
  rb_scratch_cleanup (dir);
}

/* A record length past the limit: an ERROR at its byte, no output. */
static void
test_damaged_length (void)
{
  g_autofree char *path = rb_data_path ("htrace", "ohos_ffrt.htrace");
  g_autoptr (GBytes) bytes = rb_read_file (path);
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *bad = g_build_filename (dir, "bad.htrace", NULL);
  g_autofree char *out = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", bad);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autoptr (RbResult) r = NULL;
  gsize len = g_bytes_get_size (bytes);
  g_autofree guint8 *d = g_memdup2 (g_bytes_get_data (bytes, NULL), len);
  g_autofree char *expected = NULL;

  memset (d + 1024, 0xff, 4);
  rb_write_file (bad, d, len);
  r = RB_RUN ("-q", "htrace-src", location, "!", "perfetto-sink", out_location);
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/htrace-src0: %s@1024: a record of 4294967295 bytes, more than "
                              "the 64 MiB limit: the file is damaged here\n",
                              bad);
  rb_assert_messages (r->err, expected);
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  rb_scratch_cleanup (dir);
}

static void
append_record (GByteArray *file,
               const char *plugin)
{
  guint8 rec[2 + 64];
  gsize n = strlen (plugin);
  guint32 len = GUINT32_TO_LE (2 + n);

  g_assert_cmpuint (n, <, 64);
  rec[0] = 0x0a; /* ProfilerPluginData.name */
  rec[1] = (guint8) n;
  memcpy (rec + 2, plugin, n);
  g_byte_array_append (file, (const guint8 *) &len, 4);
  g_byte_array_append (file, rec, 2 + n);
}

/* Records of plugins htrace-src does not read: counted by name in
 * --stats and named in the WARNING, with the byte of the first. */
static void
test_skipped_plugins (void)
{
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "plugins.htrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (RbResult) r = NULL;
  g_autofree char *expected = NULL;
  guint8 header[1024] = { 0 };

  memcpy (header, "OHOSPROF", 8);
  g_byte_array_append (file, header, sizeof header);
  append_record (file, "hiperf-plugin");
  append_record (file, "hilog-plugin");
  append_record (file, "hiperf-plugin");
  rb_write_file (path, file->data, file->len);
  r = RB_RUN ("-q", "--stats", "htrace-src", location, "!", "fakesink");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "htrace-src0", "skipped-plugin-hiperf-plugin"), ==, 2);
  g_assert_cmpuint (rb_stat (r->err, "htrace-src0", "skipped-plugin-hilog-plugin"), ==, 1);
  g_assert_cmpuint (rb_stat (r->err, "htrace-src0", "skipped-plugin-records"), ==, 3);
  g_assert_cmpuint (rb_stat (r->err, "htrace-src0", "records"), ==, 3);
  expected = g_strdup_printf ("WARNING: from /pipeline0/htrace-src0: %s: 3 records of plugins htrace-src does not "
                              "read (the first at byte 1024): hilog-plugin 1, hiperf-plugin 2\n",
                              path);
  rb_assert_messages (r->err, expected);
  rb_scratch_cleanup (dir);
}

#ifdef RB_ASAN
#define HTRACE_BASE_RSS_KIB (96 * 1024) /* test-memory.c's RB_BASE_RSS_KIB */
#else
#define HTRACE_BASE_RSS_KIB (32 * 1024)
#endif

static void
put_varint (GByteArray *b,
            guint64 v)
{
  do
    {
      guint8 c = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (b, &c, 1);
      v >>= 7;
    }
  while (v);
}

static void
put_bytes (GByteArray *b,
           guint field,
           const void *data,
           gsize len)
{
  put_varint (b, (guint64) field << 3 | 2);
  put_varint (b, len);
  g_byte_array_append (b, data, len);
}

/* One ffrt-profiler record of @n events: B then E, alternately, on one
 * thread, 1 us apart from @first_us. */
static GByteArray *
ffrt_record (guint n,
             guint64 first_us)
{
  GByteArray *rec = g_byte_array_new ();
  g_autoptr (GByteArray) result = g_byte_array_new ();

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GByteArray) ev = g_byte_array_new ();
      g_autoptr (GByteArray) trace = g_byte_array_new ();
      guint64 us = first_us + i;

      put_bytes (trace, 2, i % 2 ? "E" : "B", 1);
      if (i % 2 == 0)
        put_bytes (trace, 3, "task", 4);
      put_varint (ev, 1 << 3);
      put_varint (ev, us / 1000000);
      put_varint (ev, 2 << 3);
      put_varint (ev, us % 1000000 * 1000);
      put_varint (ev, 4 << 3);
      put_varint (ev, 7);
      put_varint (ev, 5 << 3);
      put_varint (ev, 7);
      put_bytes (ev, 8, trace->data, trace->len);
      put_bytes (result, 1, ev->data, ev->len);
    }
  put_bytes (rec, 1, "ffrt-profiler", 13);
  put_bytes (rec, 3, result->data, result->len);
  return rec;
}

/* A 21 MB capture of a million events is read in the memory of one record: the buffer and
 * the arena are reused, nothing is kept per event. */
static void
test_memory (void)
{
  const guint records = 1000, per_record = 1000;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "big.htrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autoptr (RbResult) r = NULL;
  guint8 header[1024] = { 0 };
  guint64 peak_kib, boottime = GUINT64_TO_LE (1000000000);

  memcpy (header, "OHOSPROF", 8);
  memcpy (header + 60, &boottime, 8);
  g_byte_array_append (file, header, sizeof header);
  for (guint i = 0; i < records; i++)
    {
      g_autoptr (GByteArray) rec = ffrt_record (per_record, 1000000 + (guint64) i * per_record);
      guint32 len = GUINT32_TO_LE (rec->len);

      g_byte_array_append (file, (const guint8 *) &len, 4);
      g_byte_array_append (file, rec->data, rec->len);
    }
  g_assert_cmpuint (file->len, >, 20 * 1024 * 1024);
  rb_write_file (path, file->data, file->len);
  g_byte_array_set_size (file, 0);
  r = rb_run_peak ((const char *const[]){ "-q", "--stats", "htrace-src", location, "!", "fakesink", NULL }, &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  g_assert_cmpuint (rb_stat (r->err, "htrace-src0", "ffrt-events"), ==, (guint64) records * per_record);
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, (guint64) records * per_record);
  g_test_message ("peak %" G_GUINT64_FORMAT " KiB for %u events", peak_kib, records * per_record);
  g_assert_cmpuint (peak_kib, <, HTRACE_BASE_RSS_KIB + 32 * 1024);
  rb_scratch_cleanup (dir);
}

void
rb_add_htrace_tests (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (detect_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/robustness/htrace/detect/%s", detect_cases[i].name);

      g_test_add_data_func (name, &detect_cases[i], test_detect);
    }
  g_test_add_func ("/robustness/htrace/cut-record", test_cut_record);
  g_test_add_func ("/robustness/htrace/damaged-length", test_damaged_length);
  g_test_add_func ("/robustness/htrace/skipped-plugins", test_skipped_plugins);
  g_test_add_func ("/robustness/htrace/memory", test_memory);
}
