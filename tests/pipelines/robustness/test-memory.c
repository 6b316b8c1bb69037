/* tracepipe tests - the robustness suite: memory bounded by the limits, not the input
 *
 * Hostile inputs that are small on disk and huge once read:
 * each is generated here, run through trace-launch as a child, and the
 * child's peak RSS (wait4's ru_maxrss) is held to a bound.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <zlib.h>

#include "robustness.h"

/* trace-launch with its plugins loaded and a small trace read takes
 * 10-20 MB; with ASan (shadow memory, redzones, a quarantine of freed
 * blocks made 16 MB by rb_run_peak()) 25-35 MB, and the blocks a reader
 * holds are bigger. The bounds below are the limits' own memory on top
 * of this. */
#ifdef RB_ASAN
#define RB_BASE_RSS_KIB (96 * 1024)
#else
#define RB_BASE_RSS_KIB (32 * 1024)
#endif

#define PERFETTO_MAX_COMPRESSED_PACKETS (1u << 20) /* perfetto-reader.c */

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
  g_autoptr (GByteArray) inner = empty_packets (PERFETTO_MAX_COMPRESSED_PACKETS);
  g_autoptr (GByteArray) tail = g_byte_array_new ();
  g_autoptr (RbResult) r = NULL, rbase = NULL;
  g_autofree char *path = NULL, *base_err = NULL;
  g_auto (GStrv) parts = NULL;
  guint64 peak_kib, base_peak_kib;
  gsize tail_offset;

  append_compressed_record (tail, inner->data, inner->len);
  path = write_perfetto (dir, tail, &tail_offset);
  g_test_message ("%u packets in %u bytes of zlib", PERFETTO_MAX_COMPRESSED_PACKETS, tail->len);
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
  /* the 2 MiB inflated buffer and one packet's arena on top of the base
   * (196 MB before) */
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
  g_autoptr (GByteArray) inner = empty_packets (PERFETTO_MAX_COMPRESSED_PACKETS + 1);
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
                              path, tail_offset, PERFETTO_MAX_COMPRESSED_PACKETS);
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

/* ---- perfetto-src: packet sequences ---- */

#define PERFETTO_MAX_SEQUENCES 65536u /* perfetto-reader-private.h */

/* @n packets, of sequences 1 … @n, each `sequence_flags = 1` (state
 * cleared) and `interned_data { event_names { iid: 1 name: "n" } }`. */
static GByteArray *
interned_sequences (guint n)
{
  static const guint8 tail[] = { 0x68, 0x01, 0x62, 0x07, 0x12, 0x05, 0x08, 0x01, 0x12, 0x01, 'n' };
  GByteArray *file = g_byte_array_new ();

  for (guint i = 1; i <= n; i++)
    {
      g_autoptr (GByteArray) packet = g_byte_array_new ();

      append_varint (packet, 10 << 3);
      append_varint (packet, i);
      g_byte_array_append (packet, tail, sizeof tail);
      append_varint (file, 0x0a);
      append_varint (file, packet->len);
      g_byte_array_append (file, packet->data, packet->len);
    }
  return file;
}

#ifdef RB_ASAN
#define RB_SEQUENCES_KIB (160 * 1024)
#else
#define RB_SEQUENCES_KIB (48 * 1024)
#endif

/* Sequences that each intern a name, past the 65 536 whose state is
 * kept: the state of the least recently used is dropped, counted in
 * skipped-sequence-states and the WARNING; memory is that of the 65 536
 * (each of the 2 M sequences of a 3.8 MB file cost ~2.5 KB before, 4.9 GB
 * in all; 250 MB here). */
static void
test_perfetto_sequences (void)
{
  const guint n = 100000;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "sequences.pftrace.gz", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GByteArray) file = interned_sequences (n);
  g_autoptr (GBytes) plain = g_byte_array_free_to_bytes (g_steal_pointer (&file));
  g_autoptr (GBytes) gz = rb_gzip (plain);
  g_autofree char *expected = NULL;
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib;

  rb_write_file (path, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  r = rb_run_peak ((const char *const[]){ "-q", "--stats", "perfetto-src", location, "!", "fakesink", NULL },
                   &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "perfetto-src0", "skipped-sequence-states"), ==, n - PERFETTO_MAX_SEQUENCES);
  expected = g_strdup_printf ("WARNING: from /pipeline0/perfetto-src0: %s: skipped %u states of packet sequences "
                              "(more than 65536 held state at once)\n",
                              path, n - PERFETTO_MAX_SEQUENCES);
  rb_assert_messages (r->err, expected);
  g_test_message ("peak %" G_GUINT64_FORMAT " KiB", peak_kib);
  g_assert_cmpuint (peak_kib, <, RB_BASE_RSS_KIB + RB_SEQUENCES_KIB);
  rb_scratch_cleanup (dir);
}

/* ---- arkts-src: CPU profiles and DevTools messages ---- */

#define ARKTS_MAX_PROFILE_NUMBERS (32u * 1024 * 1024) /* arkts-engine.h */

static const char profile_nodes[] =
    "\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\","
    "\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0,\"children\":[2]},"
    "{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"scriptId\":\"1\",\"url\":\"a.js\","
    "\"lineNumber\":1,\"columnNumber\":2},\"hitCount\":0}],\"startTime\":0,\"endTime\":1000";

/* Writes @n copies of @value, comma-separated, without holding them. */
static void
gz_repeat (gzFile gz,
           const char *value,
           guint64 n)
{
  g_autoptr (GString) block = g_string_new (NULL);
  guint per_block = 64 * 1024 / (strlen (value) + 1);
  g_autofree char *item = g_strdup_printf ("%s,", value);

  for (guint i = 0; i < per_block; i++)
    g_string_append (block, item);
  for (guint64 left = n; left > 0;)
    {
      guint64 now = MIN (left, per_block);

      left -= now;
      /* the last value of all has no comma */
      g_assert_cmpint (gzwrite (gz, block->str, now * strlen (item) - (left == 0)), >, 0);
    }
}

static void
gz_text (gzFile gz,
         const char *text)
{
  g_assert_cmpint (gzwrite (gz, text, strlen (text)), ==, (int) strlen (text));
}

/* DIR/NAME: {"nodes":[the root and f],"startTime":0,"endTime":1000,
 * "samples":[2 × n_samples],"timeDeltas":[1 × n_deltas],"x":[0 × n_other]}
 * inside @wrap_before … @wrap_after, gzip'd when the name ends in .gz. */
static char *
write_profile (const char *dir,
               const char *name,
               const char *wrap_before,
               guint64 n_samples,
               guint64 n_deltas,
               guint64 n_other,
               const char *wrap_after)
{
  char *path = g_build_filename (dir, name, NULL);
  gzFile gz = gzopen (path, g_str_has_suffix (name, ".gz") ? "wb6" : "wbT");

  g_assert_nonnull (gz);
  gz_text (gz, wrap_before);
  gz_text (gz, "{");
  gz_text (gz, profile_nodes);
  gz_text (gz, ",\"samples\":[");
  gz_repeat (gz, "2", n_samples);
  gz_text (gz, "],\"timeDeltas\":[");
  gz_repeat (gz, "1", n_deltas);
  gz_text (gz, "],\"x\":[");
  gz_repeat (gz, "0", n_other);
  gz_text (gz, "]}");
  gz_text (gz, wrap_after);
  g_assert_cmpint (gzclose (gz), ==, Z_OK);
  return path;
}

static RbResult *
run_arkts_stats (const char *path,
                 guint64 *peak_kib)
{
  g_autofree char *location = g_strdup_printf ("location=%s", path);

  return rb_run_peak ((const char *const[]){ "-q", "--stats", "arkts-src", location, "!", "fakesink", NULL }, peak_kib);
}

/* Every sample of a profile is read, in memory bounded by the samples
 * (their ids and deltas as 4-byte integers, then 12 bytes a sample to
 * place them in time: 20 bytes, 32 allowed), not by the text. json-glib
 * took about 45 bytes per byte of text: 366 MB here. */
static void
test_arkts_profile_memory (void)
{
  const guint64 n = 2 * 1024 * 1024;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = write_profile (dir, "long.cpuprofile.gz", "", n, n, 0, "");
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib;

  r = run_arkts_stats (path, &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  g_assert_cmpuint (rb_stat (r->err, "arkts-src0", "cpu-samples"), ==, n);
  /* 2 stack nodes, the summary, a slice begin and end, the samples */
  g_assert_cmpuint (rb_stat (r->err, "arkts-src0", "events-out"), ==, n + 5);
  g_assert_cmpuint (peak_kib, <, RB_BASE_RSS_KIB + n * 32 / 1024);
  rb_scratch_cleanup (dir);
}

/* A DevTools message of 16 MB holding a profile and an array nobody
 * reads: the message's text is held (it is split out before it is
 * read), its arrays are not held as a json-glib tree (700 MB before),
 * the unread one not at all. */
static void
test_arkts_message_memory (void)
{
  const guint64 n = 1024 * 1024, n_other = 6 * 1024 * 1024;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = write_profile (dir, "profile.jsonl", "{\"id\":3,\"result\":{\"profile\":", n, n, n_other, "}}\n");
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib, text_kib;

  r = run_arkts_stats (path, &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  g_assert_cmpuint (rb_stat (r->err, "arkts-src0", "messages"), ==, 1);
  g_assert_cmpuint (rb_stat (r->err, "arkts-src0", "cpu-samples"), ==, n);
  text_kib = rb_stat (r->err, "arkts-src0", "bytes-read") / 1024;
  g_assert_cmpuint (text_kib, >=, 16 * 1024);
  g_assert_cmpuint (peak_kib, <, RB_BASE_RSS_KIB + text_kib + n * 32 / 1024);
  rb_scratch_cleanup (dir);
}

/* A node table of 1 M identical nodes (113 MB of JSON, 0.5 MB gzip'd):
 * json-glib's tree of it would take 2.1 GB (15 times the text). The
 * scanner counts what the tree would take as the table grows and stops
 * at 1 GiB, before json-glib reads any of it: an error naming the byte,
 * nothing written, the memory of the part of the text scanned. */
static void
test_arkts_node_table (void)
{
  const guint64 n = 1024 * 1024;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "nodes.cpuprofile.gz", NULL);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *prefix = NULL, *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  gzFile gz = gzopen (path, "wb6");
  guint64 peak_kib;

  g_assert_nonnull (gz);
  gz_text (gz, "{\"nodes\":[");
  gz_repeat (gz,
             "{\"id\":2,\"callFrame\":{\"functionName\":\"f\",\"scriptId\":\"1\",\"url\":\"a.js\","
             "\"lineNumber\":1,\"columnNumber\":2},\"hitCount\":0}",
             n);
  gz_text (gz, "],\"startTime\":0,\"endTime\":1000,\"samples\":[2],\"timeDeltas\":[1]}");
  g_assert_cmpint (gzclose (gz), ==, Z_OK);
  r = run_to_json ("arkts-src", path, out, &peak_kib);
  g_assert_cmpint (r->status, ==, 1);
  prefix = g_strdup_printf ("ERROR: from /pipeline0/arkts-src0: %s: byte offset ", path);
  g_assert_true (g_str_has_prefix (r->err, prefix));
  g_assert_true (g_str_has_suffix (r->err, ": the JSON outside the number arrays (a node table and scalars) "
                                           "would take more than 1024 MiB once read\n"));
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "nodes.cpuprofile.gz");
  g_assert_cmpuint (peak_kib, <, RB_BASE_RSS_KIB + 128 * 1024);
  rb_scratch_cleanup (dir);
}

/* One number more than the limit (the root's `children` holds one) is
 * an error naming the byte where it ends; nothing is written. The 64 MB
 * document is 65 KB of gzip. */
static void
test_arkts_profile_numbers (void)
{
  const guint64 n = ARKTS_MAX_PROFILE_NUMBERS;
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *path = write_profile (dir, "huge.cpuprofile.gz", "", n, 0, 0, "");
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *expected = NULL, *listing = NULL;
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib;
  /* the last sample ends at the ']' after it */
  gsize samples_at = strlen ("{") + strlen (profile_nodes) + strlen (",\"samples\":[");

  r = run_to_json ("arkts-src", path, out, &peak_kib);
  g_assert_cmpint (r->status, ==, 1);
  expected = g_strdup_printf ("ERROR: from /pipeline0/arkts-src0: %s: byte offset %" G_GUINT64_FORMAT
                              ": more than %u numbers in the arrays of one document\n",
                              path, (guint64) samples_at + 2 * n - 1, ARKTS_MAX_PROFILE_NUMBERS);
  g_assert_cmpstr (r->err, ==, expected);
  listing = rb_list_dir (dir);
  g_assert_cmpstr (listing, ==, "huge.cpuprofile.gz");
  /* the numbers up to the limit, 4 bytes each */
  g_assert_cmpuint (peak_kib, <, RB_BASE_RSS_KIB + n * 4 / 1024 + 32 * 1024);
  rb_scratch_cleanup (dir);
}

/* fakesrc makes 1000 x 99 distinct threads; a sink told to keep 1000
 * holds no state for the rest. Before the cap each thread cost ~600
 * bytes (a million tids: 627 MB in perfetto-sink). */
#define RB_SINK_THREADS_SRC \
  "fakesrc", "num-events=400000", "processes=1000", "threads=99", "kinds=slices+counters+metadata"

#ifdef RB_ASAN
#define RB_SINK_THREADS_KIB (48 * 1024)
#else
#define RB_SINK_THREADS_KIB (16 * 1024)
#endif

static guint64
sink_threads_base_peak (void)
{
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib;

  r = rb_run_peak ((const char *const[]){ "-q", RB_SINK_THREADS_SRC, "!", "fakesink", NULL }, &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  return peak_kib;
}

/* perfetto-sink: events of threads past max-threads are dropped, counted
 * in the one WARNING and dropped-thread-table-full; the rest is a valid
 * trace. Peak: 90 MB before (37 MB of it fakesrc's), 48 MB now. */
static void
test_perfetto_sink_threads (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.pftrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  g_autofree char *expected = NULL;
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib, base_kib = sink_threads_base_peak (), dropped, in;

  r = rb_run_peak ((const char *const[]){ "-q", "--stats", RB_SINK_THREADS_SRC, "!", "perfetto-sink", location,
                                          "max-threads=1000", NULL },
                   &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  dropped = rb_stat (r->err, "perfetto-sink0", "dropped-thread-table-full");
  in = rb_stat (r->err, "perfetto-sink0", "events-in");
  g_assert_cmpuint (dropped, >, in / 2);
  g_assert_cmpuint (dropped, <, in);
  expected = g_strdup_printf ("WARNING: from /pipeline0/perfetto-sink0: %s: dropped %" G_GUINT64_FORMAT
                              " events: events of threads past the thread table (max-threads): %" G_GUINT64_FORMAT
                              "\n",
                              out, dropped, dropped);
  rb_assert_messages (r->err, expected);
  g_assert_cmpuint (rb_perfetto_trace_events (out), >, 0);
  g_test_message ("peak %" G_GUINT64_FORMAT " KiB, fakesrc alone %" G_GUINT64_FORMAT " KiB", peak_kib, base_kib);
  g_assert_cmpuint (peak_kib, <, base_kib + RB_SINK_THREADS_KIB);
  rb_scratch_cleanup (dir);
}

/* json-sink: slices of threads past max-threads are written as B/E,
 * which needs no state (stats: slices-past-thread-table); nothing is
 * lost. Peak: 102 MB before, 53 MB now. */
static void
test_json_sink_threads (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib, base_kib = sink_threads_base_peak ();

  r = rb_run_peak ((const char *const[]){ "-q", "--stats", RB_SINK_THREADS_SRC, "!", "json-sink", location,
                                          "max-threads=1000", NULL },
                   &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "json-sink0", "slices-past-thread-table"), >, 100000);
  /* nothing lost: no drop, no warning (fakesrc makes no CPU samples) */
  g_assert_false (rb_has_stat (r->err, "json-sink0", "dropped"));
  rb_assert_messages (r->err, "");
  g_assert_cmpuint (rb_json_trace_events (out), ==, rb_stat (r->err, "json-sink0", "json-events"));
  g_test_message ("peak %" G_GUINT64_FORMAT " KiB, fakesrc alone %" G_GUINT64_FORMAT " KiB", peak_kib, base_kib);
  g_assert_cmpuint (peak_kib, <, base_kib + RB_SINK_THREADS_KIB);
  rb_scratch_cleanup (dir);
}

/* Chrome JSON of 300 000 events that each carry a url of 64 bytes: of
 * their own when @unique (as request ids and urls with a query are), else
 * the same one. */
static char *
write_url_trace (const char *dir,
                 gboolean unique)
{
  const guint n = 300000;
  g_autofree char *name = g_strdup_printf ("%s.json", unique ? "unique" : "same");
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GString) s = g_string_new ("{\"traceEvents\":[\n");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s,
                            "%s{\"ph\":\"X\",\"name\":\"request\",\"cat\":\"net\",\"ts\":%u,\"dur\":1,"
                            "\"pid\":1,\"tid\":1,\"args\":{\"url\":\"https://example.com/r?id=%08x%033u\"}}",
                            i ? ",\n" : "", i, unique ? i * 2654435761u : 7, unique ? i : 7);
  g_string_append (s, "]}\n");
  rb_write_file (path, s->str, s->len);
  return path;
}

#ifdef RB_ASAN
#define RB_UNIQUE_VALUES_KIB (24 * 1024)
#else
#define RB_UNIQUE_VALUES_KIB (12 * 1024)
#endif

static guint64
unique_values_peak (const char *input,
                    const char *sink,
                    const char *out)
{
  g_autofree char *in_location = g_strdup_printf ("location=%s", input);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autoptr (RbResult) r = NULL;
  guint64 peak_kib;

  r = rb_run_peak ((const char *const[]){ "-q", "json-src", in_location, "!", sink, out_location, NULL }, &peak_kib);
  g_assert_cmpint (r->status, ==, 0);
  rb_assert_messages (r->err, "");
  return peak_kib;
}

/* Values a trace holds once each are kept in their batch, not interned
 * (docs/event-model.md): the peak is that of the same trace with one
 * value repeated. 300 000 values of their own are 19 MB of text, which
 * the string pool and perfetto-sink's interning would keep to the end. */
static void
test_json_unique_values (void)
{
  static const char *const sinks[] = { "perfetto-sink", "json-sink" };
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *same = write_url_trace (dir, FALSE);
  g_autofree char *unique = write_url_trace (dir, TRUE);
  g_autofree char *out = g_build_filename (dir, "out", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (sinks); i++)
    {
      guint64 same_kib = unique_values_peak (same, sinks[i], out);
      guint64 unique_kib = unique_values_peak (unique, sinks[i], out);

      g_test_message ("%s: peak %" G_GUINT64_FORMAT " KiB, %" G_GUINT64_FORMAT " KiB with one value repeated",
                      sinks[i], unique_kib, same_kib);
      g_assert_cmpuint (unique_kib, <, same_kib + RB_UNIQUE_VALUES_KIB);
    }
  /* json-sink's, the last written */
  g_assert_cmpuint (rb_json_trace_events (out), ==, 300000);
  rb_scratch_cleanup (dir);
}

void
rb_add_memory_tests (void)
{
  g_test_add_func ("/robustness/memory/perfetto-compressed-packets", test_perfetto_compressed_memory);
  g_test_add_func ("/robustness/limits/perfetto-compressed-count", test_perfetto_compressed_count);
  g_test_add_func ("/robustness/limits/perfetto-compressed-nested", test_perfetto_compressed_nested);
  g_test_add_func ("/robustness/memory/perfetto-sequences", test_perfetto_sequences);
  g_test_add_func ("/robustness/memory/arkts-cpu-profile", test_arkts_profile_memory);
  g_test_add_func ("/robustness/memory/arkts-devtools-message", test_arkts_message_memory);
  g_test_add_func ("/robustness/memory/arkts-node-table", test_arkts_node_table);
  g_test_add_func ("/robustness/limits/arkts-profile-numbers", test_arkts_profile_numbers);
  g_test_add_func ("/robustness/memory/perfetto-sink-threads", test_perfetto_sink_threads);
  g_test_add_func ("/robustness/memory/json-sink-threads", test_json_sink_threads);
  g_test_add_func ("/robustness/memory/json-unique-values", test_json_unique_values);
}
