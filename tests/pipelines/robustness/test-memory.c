/* tracepipe tests - the robustness suite: memory bounded by the limits, not the input
 *
 * Hostile inputs that are small on disk and huge once read (issue 17):
 * each is generated here, run through trace-launch as a child, and the
 * child's peak RSS (wait4's ru_maxrss) is held to a bound.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <zlib.h>

#include "robustness.h"

/* trace-launch with its plugins loaded and a small trace read takes
 * 10-20 MB; with ASan (shadow memory, a quarantine of freed blocks)
 * several times that. The bounds below are the limits' own memory on
 * top of this. */
#if defined(__SANITIZE_ADDRESS__)
#define RB_BASE_RSS_KIB (256 * 1024)
#else
#define RB_BASE_RSS_KIB (32 * 1024)
#endif

#define PF_MAX_COMPRESSED_PACKETS (1u << 20) /* perfetto-reader.c */

static void
append_varint (GByteArray *a,
               guint64 v)
{
  do
    {
      guint8 b = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);

      g_byte_array_append (a, &b, 1);
      v >>= 7;
    }
  while (v);
}

/* A `Trace.packet` record holding a TracePacket whose only field is
 * `compressed_packets` (field 50): zlib of @inner. */
static void
append_compressed_record (GByteArray *file,
                          const guint8 *inner,
                          gsize inner_len)
{
  g_autoptr (GByteArray) packet = g_byte_array_new ();
  uLongf zlen = compressBound (inner_len);
  g_autofree guint8 *zdata = g_malloc (zlen);

  g_assert_cmpint (compress2 (zdata, &zlen, inner, inner_len, 9), ==, Z_OK);
  append_varint (packet, (50 << 3) | 2);
  append_varint (packet, zlen);
  g_byte_array_append (packet, zdata, zlen);
  append_varint (file, 0x0a);
  append_varint (file, packet->len);
  g_byte_array_append (file, packet->data, packet->len);
}

/* @n_packets empty packets (`0a 00` each): the most packets per byte. */
static GByteArray *
empty_packets (guint n_packets)
{
  GByteArray *inner = g_byte_array_sized_new (2 * n_packets);

  for (guint i = 0; i < n_packets; i++)
    g_byte_array_append (inner, (const guint8 *) "\x0a\x00", 2);
  return inner;
}

/* tests/data/perfetto/sdk_style.pftrace followed by @tail: returns the
 * path of the file written in @dir and the offset where @tail starts. */
static char *
write_perfetto (const char *dir,
                GByteArray *tail,
                gsize *tail_offset)
{
  g_autofree char *base_path = rb_data_path ("perfetto", "sdk_style.pftrace");
  g_autoptr (GBytes) base = rb_read_file (base_path);
  g_autoptr (GByteArray) file = g_byte_array_new ();
  char *path = g_build_filename (dir, "hostile.pftrace", NULL);

  g_byte_array_append (file, g_bytes_get_data (base, NULL), g_bytes_get_size (base));
  *tail_offset = file->len;
  g_byte_array_append (file, tail->data, tail->len);
  rb_write_file (path, file->data, file->len);
  return path;
}

static RbResult *
run_to_json (const char *source,
             const char *path,
             const char *out,
             guint64 *peak_kib)
{
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);

  return rb_run_peak ((const char *const[]){ "-q", source, location, "!", "json-sink", out_location, NULL },
                      peak_kib);
}

/* One `compressed_packets` field holding as many empty packets as the
 * limit allows is read in the memory of one packet: the arena is reset
 * after each inner packet. Before, each packet stayed in the arena until
 * the outer one was done: ~180 bytes a packet, 190 MB here, 3.7 GB for
 * the 20 M packets of a 40 KB file. */
static void
test_perfetto_compressed_memory (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *base_out = g_build_filename (dir, "base.json", NULL);
  g_autofree char *base_path = rb_data_path ("perfetto", "sdk_style.pftrace");
  g_autoptr (GByteArray) inner = empty_packets (PF_MAX_COMPRESSED_PACKETS);
  g_autoptr (GByteArray) tail = g_byte_array_new ();
  g_autoptr (RbResult) r = NULL, rbase = NULL;
  g_autofree char *path = NULL, *base_err = NULL;
  g_auto (GStrv) parts = NULL;
  guint64 peak_kib, base_peak_kib;
  gsize tail_offset;

  append_compressed_record (tail, inner->data, inner->len);
  path = write_perfetto (dir, tail, &tail_offset);
  g_test_message ("%u packets in %u bytes of zlib", PF_MAX_COMPRESSED_PACKETS, tail->len);
  r = run_to_json ("perfetto-src", path, out, &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  /* the warning and the events of the trace before it, no more (empty
   * packets have none) */
  rbase = run_to_json ("perfetto-src", base_path, base_out, &base_peak_kib);
  g_assert_cmpint (rbase->status, ==, 0);
  parts = g_strsplit (rbase->err, base_path, -1);
  base_err = g_strjoinv (path, parts);
  g_assert_cmpstr (r->err, ==, base_err);
  g_assert_cmpuint (rb_json_trace_events (out), ==, rb_json_trace_events (base_out));
  g_assert_cmpuint (rb_json_trace_events (out), >, 0);
  /* the 2 MiB inflated buffer and one packet's arena on top of the base */
  g_assert_cmpuint (peak_kib, <, RB_BASE_RSS_KIB + 16 * 1024);
  rb_scratch_cleanup (dir);
}

/* One packet more than the limit is an error naming the outer packet's
 * offset; nothing is written. */
static void
test_perfetto_compressed_count (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GByteArray) inner = empty_packets (PF_MAX_COMPRESSED_PACKETS + 1);
  g_autoptr (GByteArray) tail = g_byte_array_new ();
  g_autoptr (RbResult) r = NULL;
  g_autofree char *path = NULL, *expected = NULL, *listing = NULL;
  guint64 peak_kib;
  gsize tail_offset;

  append_compressed_record (tail, inner->data, inner->len);
  path = write_perfetto (dir, tail, &tail_offset);
  r = run_to_json ("perfetto-src", path, out, &peak_kib);
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/perfetto-src0: %s: byte offset %" G_GSIZE_FORMAT
                              ": compressed packets hold more than %u packets\n",
                              path, tail_offset, PF_MAX_COMPRESSED_PACKETS);
  g_assert_cmpstr (r->err, ==, expected);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "hostile.pftrace");
  rb_scratch_cleanup (dir);
}

/* compressed_packets inside compressed_packets: each level was one more
 * recursion with a 64 KiB buffer on the stack and one more inflated
 * buffer; Perfetto never writes it, so it is an error. */
static void
test_perfetto_compressed_nested (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autoptr (GByteArray) level = empty_packets (1);
  g_autoptr (RbResult) r = NULL;
  g_autofree char *path = NULL, *expected = NULL, *listing = NULL;
  guint64 peak_kib;
  gsize tail_offset;

  for (guint i = 0; i < 200; i++)
    {
      GByteArray *outer = g_byte_array_new ();

      append_compressed_record (outer, level->data, level->len);
      g_byte_array_unref (level);
      level = outer;
    }
  path = write_perfetto (dir, level, &tail_offset);
  r = run_to_json ("perfetto-src", path, out, &peak_kib);
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/perfetto-src0: %s: byte offset %" G_GSIZE_FORMAT
                              ": compressed packets inside compressed packets\n",
                              path, tail_offset);
  g_assert_cmpstr (r->err, ==, expected);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "hostile.pftrace");
  rb_scratch_cleanup (dir);
}

void
rb_add_memory_tests (void)
{
  g_test_add_func ("/robustness/memory/perfetto-compressed-packets", test_perfetto_compressed_memory);
  g_test_add_func ("/robustness/limits/perfetto-compressed-count", test_perfetto_compressed_count);
  g_test_add_func ("/robustness/limits/perfetto-compressed-nested", test_perfetto_compressed_nested);
}
