/* tracepipe tests - compressed output: .gz locations and perfetto-sink compress=true
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

#define SLICES TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"
/* converts to more than 256 KiB of packets: several compressed runs */
#define LIGHTHOUSE TEST_DATA_DIR "/json/lighthouse_tracingstarted-after-navstart.json"

static gboolean
have (const char *const *factories)
{
  for (guint i = 0; factories[i] != NULL; i++)
    if (trace_element_factory_find (factories[i]) == NULL)
      {
        g_test_skip_printf ("%s is not built", factories[i]);
        return FALSE;
      }
  return TRUE;
}
#define HAVE(...) have ((const char *const[]){ __VA_ARGS__, NULL })

static char *
scratch (const char *name)
{
  return g_build_filename (tools_test_scratch_dir (), name, NULL);
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

/* What gunzip makes of @path; fails the test if it is no complete gzip. */
GBytes *
tools_test_gunzip (const char *path)
{
  g_autoptr (GBytes) gz = read_bytes (path);
  g_autoptr (GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) mem = g_memory_input_stream_new_from_bytes (gz);
  g_autoptr (GInputStream) in = g_converter_input_stream_new (mem, G_CONVERTER (z));
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;

  /* a cut gzip stream fails here with "unexpected end of data" */
  g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* trace-convert IN OUT.gz writes exactly the bytes of OUT, gzipped. */
static void
check_gzip_same_as_plain (const char *input,
                          const char *plain_name)
{
  g_autofree char *plain = scratch (plain_name);
  g_autofree char *gz = g_strconcat (plain, ".gz", NULL);
  g_autoptr (Run) a = RUN ("trace-convert", NULL, input, plain);
  g_autoptr (Run) b = RUN ("trace-convert", NULL, input, gz);
  g_autoptr (GBytes) want = NULL, got = NULL, raw = NULL;

  g_assert_cmpint (a->status, ==, 0);
  g_assert_cmpint (b->status, ==, 0);
  g_assert_cmpstr (b->out, ==, "");
  g_assert_cmpstr (b->err, ==, "");
  want = read_bytes (plain);
  got = tools_test_gunzip (gz);
  raw = read_bytes (gz);
  g_assert_cmpuint (g_bytes_get_size (want), >, 1000);
  g_assert_true (g_bytes_equal (want, got));
  g_assert_cmpuint (g_bytes_get_size (raw), <, g_bytes_get_size (want));
  g_unlink (plain), g_unlink (gz);
}

static void
test_gzip_json (void)
{
  if (HAVE ("auto-src", "json-sink"))
    check_gzip_same_as_plain (SLICES, "slices.json");
}

static void
test_gzip_perfetto (void)
{
  if (HAVE ("auto-src", "perfetto-sink"))
    check_gzip_same_as_plain (SLICES, "slices.pftrace");
}

/* Only a name that ends in .gz is compressed, not one that contains it. */
static void
test_gzip_only_for_suffix (void)
{
  g_autofree char *path = scratch ("x.gz.json");
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (Run) r = NULL;
  g_autoptr (GBytes) b = NULL;

  if (!HAVE ("auto-src", "json-sink"))
    return;
  r = RUN ("trace-launch", NULL, "-q", "auto-src", "location=" SLICES, "!", "json-sink", location);
  g_assert_cmpint (r->status, ==, 0);
  b = read_bytes (path);
  g_assert_cmpint (((const char *) g_bytes_get_data (b, NULL))[0], ==, '{');
  g_unlink (path);
}

/* The first record of @path is a TracePacket holding compressed_packets
 * (field 50, length-delimited: tag bytes 0x92 0x03). */
static gboolean
starts_with_compressed_packets (GBytes *file)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (file, &len);
  gsize i = 1;

  if (len < 4 || p[0] != 0x0a) /* Trace.packet */
    return FALSE;
  while (i < len && (p[i] & 0x80)) /* the packet's length */
    i++;
  return i + 2 < len && p[i + 1] == 0x92 && p[i + 2] == 0x03;
}

static void
run_ok (const char *pipeline)
{
  g_autoptr (Run) r = RUN ("trace-launch", NULL, "-q", pipeline);

  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->out, ==, "");
}

/* compress=true: smaller, Perfetto's own compressed_packets, and
 * perfetto-src reads back the very events of the plain file. */
static void
test_perfetto_compress (void)
{
  g_autofree char *plain = scratch ("plain.pftrace"), *packed = scratch ("packed.pftrace");
  g_autofree char *plain_json = scratch ("plain.json"), *packed_json = scratch ("packed.json");
  g_autofree char *p1 = NULL, *p2 = NULL, *p3 = NULL, *p4 = NULL;
  g_autoptr (GBytes) a = NULL, b = NULL, ja = NULL, jb = NULL;

  if (!HAVE ("auto-src", "perfetto-sink", "perfetto-src", "json-sink"))
    return;
  p1 = g_strdup_printf ("auto-src location=%s ! perfetto-sink location=%s", LIGHTHOUSE, plain);
  p2 = g_strdup_printf ("auto-src location=%s ! perfetto-sink compress=true location=%s", LIGHTHOUSE, packed);
  p3 = g_strdup_printf ("perfetto-src location=%s ! json-sink location=%s", plain, plain_json);
  p4 = g_strdup_printf ("perfetto-src location=%s ! json-sink location=%s", packed, packed_json);
  run_ok (p1), run_ok (p2), run_ok (p3), run_ok (p4);
  a = read_bytes (plain), b = read_bytes (packed);
  g_assert_false (starts_with_compressed_packets (a));
  g_assert_true (starts_with_compressed_packets (b));
  g_assert_cmpuint (g_bytes_get_size (b) * 2, <, g_bytes_get_size (a));
  ja = read_bytes (plain_json), jb = read_bytes (packed_json);
  g_assert_cmpuint (g_bytes_get_size (ja), >, 1000);
  g_assert_true (g_bytes_equal (ja, jb));
  g_unlink (plain), g_unlink (packed), g_unlink (plain_json), g_unlink (packed_json);
}

/* An output that is the input, by any path to it (itself, a symlink, a
 * hard link, `sub/../`), is refused with exit 2 before anything is
 * written: the input stays as it was. */
static void
test_output_is_input (void)
{
  g_autofree char *in = scratch ("keep.json");
  g_autofree char *sym = scratch ("keep-link.json");
  g_autofree char *hard = scratch ("keep-hard.json");
  g_autofree char *sub = scratch ("keep-sub");
  g_autofree char *via_sub = g_build_filename (sub, "..", "keep.json", NULL);
  g_autofree char *src = g_strdup_printf ("location=%s", in);
  g_autofree char *dst = g_strdup_printf ("location=%s", via_sub);
  g_autoptr (GBytes) before = NULL;
  const char *outs[] = { in, sym, hard };

  if (!HAVE ("json-src", "json-sink"))
    return;
  {
    g_autoptr (GBytes) sample = read_bytes (TEST_DATA_DIR "/json/catapult_simple_trace.json");

    g_assert_true (g_file_set_contents (in, g_bytes_get_data (sample, NULL), g_bytes_get_size (sample), NULL));
  }
  g_unlink (sym), g_unlink (hard);
  g_assert_cmpint (symlink (in, sym), ==, 0);
  g_assert_cmpint (link (in, hard), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (sub, 0700), ==, 0);
  before = read_bytes (in);
  for (guint i = 0; i < G_N_ELEMENTS (outs); i++)
    {
      g_autoptr (Run) r = RUN ("trace-convert", NULL, in, outs[i]);
      g_autoptr (GBytes) after = read_bytes (in);

      g_assert_cmpint (r->status, ==, 2);
      g_assert_nonnull (strstr (r->err, "writing it would destroy the input"));
      g_assert_true (g_bytes_equal (before, after));
    }
  {
    g_autoptr (Run) r = RUN ("trace-launch", NULL, "json-src", src, "!", "json-sink", dst);
    g_autoptr (GBytes) after = read_bytes (in);

    g_assert_cmpint (r->status, ==, 2);
    g_assert_nonnull (strstr (r->err, "json-sink0 would write"));
    g_assert_nonnull (strstr (r->err, "the input would be destroyed"));
    g_assert_true (g_bytes_equal (before, after));
  }
}

/* An output that replaces a file keeps that file's mode (a private
 * output stays private); a new one gets the umask's mode. */
static void
test_output_keeps_mode (void)
{
  g_autofree char *kept = scratch ("mode-600.json");
  g_autofree char *fresh = scratch ("mode-new.json");
  GStatBuf st;
  mode_t mask;

  if (!HAVE ("json-src", "json-sink"))
    return;
  g_assert_true (g_file_set_contents (kept, "old", -1, NULL));
  g_assert_cmpint (g_chmod (kept, 0600), ==, 0);
  g_unlink (fresh);
  {
    g_autoptr (Run) a = RUN ("trace-convert", NULL, TEST_DATA_DIR "/json/catapult_simple_trace.json", kept);
    g_autoptr (Run) b = RUN ("trace-convert", NULL, TEST_DATA_DIR "/json/catapult_simple_trace.json", fresh);

    g_assert_cmpint (a->status, ==, 0);
    g_assert_cmpint (b->status, ==, 0);
  }
  g_assert_cmpint (g_stat (kept, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  g_assert_cmpint (st.st_size, >, 3); /* replaced */
  mask = umask (0);
  umask (mask);
  g_assert_cmpint (g_stat (fresh, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0666 & ~mask);
}

void
add_output_tests (void)
{
  g_test_add_func ("/tools/output/gzip/json", test_gzip_json);
  g_test_add_func ("/tools/output/gzip/perfetto", test_gzip_perfetto);
  g_test_add_func ("/tools/output/gzip/only-for-suffix", test_gzip_only_for_suffix);
  g_test_add_func ("/tools/output/perfetto-compress", test_perfetto_compress);
  g_test_add_func ("/tools/output/is-input", test_output_is_input);
  g_test_add_func ("/tools/output/keeps-mode", test_output_keeps_mode);
}
