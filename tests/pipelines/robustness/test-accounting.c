/* tracepipe tests - accounting: what `trace-launch --stats` tells about every element
 *
 * Each source says how many bytes it read, how many events it made and
 * what it skipped, by reason; no element loses events silently: what
 * one sends, the next receives, and a filter's kept plus dropped is what
 * it received. The expected numbers come from the input files.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "robustness.h"

static guint64
file_size (const char *path)
{
  GStatBuf st;

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  return st.st_size;
}

/* Lines as ftrace-src counts them: a last line without newline counts. */
static guint64
count_lines (GBytes *bytes)
{
  gsize len;
  const char *p = g_bytes_get_data (bytes, &len);
  guint64 n = 0;

  for (gsize i = 0; i < len; i++)
    n += p[i] == '\n';
  return n + (len > 0 && p[len - 1] != '\n');
}

/* A corpus file with one line that is no trace line and one too long,
 * through queue, tee, the two filters and rhea-repair. */
static void
test_ftrace_chain (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *clean = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autofree char *path = g_build_filename (dir, "damaged.txt", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autofree char *huge = g_strnfill (70000, 'x');
  g_autoptr (GBytes) clean_bytes = rb_read_file (clean);
  g_autoptr (GString) text = g_string_new_len (g_bytes_get_data (clean_bytes, NULL), g_bytes_get_size (clean_bytes));
  g_autoptr (GBytes) written = NULL;
  g_autoptr (RbResult) r = NULL;

  g_string_append_printf (text, "no trace line\n%s\n", huge);
  rb_write_file (path, text->str, text->len);
  written = g_bytes_new (text->str, text->len);
  r = RB_RUN ("-q", "--stats", "ftrace-src", location, "!", "queue", "!", "tee", "name=t",
              "t.", "!", "filter", "tid=main", "!", "fakesink",
              "t.", "!", "main-thread-filter", "!", "rhea-repair", "!", "json-sink", out_location);
  g_assert_cmpint (r->status, ==, 0);
  /* the source */
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "bytes-read"), ==, text->len);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "lines"), ==, count_lines (written));
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "skipped-unparsable-lines"), ==, 1);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "skipped-lines-longer-than-65536-bytes"), ==, 1);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "events-out"), >, 0);
  /* every link */
  g_assert_cmpuint (rb_stat (r->err, "queue0", "events-in"), ==, rb_stat (r->err, "ftrace-src0", "events-out"));
  g_assert_cmpuint (rb_stat (r->err, "queue0", "events-out"), ==, rb_stat (r->err, "queue0", "events-in"));
  g_assert_cmpuint (rb_stat (r->err, "t", "events-in"), ==, rb_stat (r->err, "queue0", "events-out"));
  g_assert_cmpuint (rb_stat (r->err, "t", "events-out"), ==, 2 * rb_stat (r->err, "t", "events-in"));
  g_assert_cmpuint (rb_stat (r->err, "filter0", "events-in"), ==, rb_stat (r->err, "t", "events-in"));
  g_assert_cmpuint (rb_stat (r->err, "main-thread-filter0", "events-in"), ==, rb_stat (r->err, "t", "events-in"));
  /* filters: kept + dropped = received, kept = sent */
  for (guint i = 0; i < 2; i++)
    {
      const char *f = i ? "main-thread-filter0" : "filter0";

      g_assert_cmpuint (rb_stat (r->err, f, "kept") + rb_stat (r->err, f, "dropped-tid"), ==,
                        rb_stat (r->err, f, "events-in"));
      g_assert_cmpuint (rb_stat (r->err, f, "events-out"), ==, rb_stat (r->err, f, "kept"));
      g_assert_cmpuint (rb_stat (r->err, f, "dropped-tid"), >, 0);
    }
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, rb_stat (r->err, "filter0", "events-out"));
  g_assert_cmpuint (rb_stat (r->err, "rhea-repair0", "events-in"), ==, rb_stat (r->err, "main-thread-filter0", "events-out"));
  g_assert_cmpuint (rb_stat (r->err, "json-sink0", "events-in"), ==, rb_stat (r->err, "rhea-repair0", "events-out"));
  g_assert_cmpuint (rb_json_trace_events (out), ==, rb_stat (r->err, "json-sink0", "json-events"));
  rb_scratch_cleanup (dir);
}

/* gzip input: bytes-read counts what the reader read, decompressed. */
static void
test_ftrace_gzip_bytes (void)
{
  g_autofree char *dir = rb_scratch_dir ();
  g_autofree char *plain = rb_data_path ("ftrace", "catapult_decompressed_atrace_data.txt");
  g_autofree char *path = g_build_filename (dir, "trace.txt.gz", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GBytes) bytes = rb_read_file (plain);
  g_autoptr (GBytes) gz = rb_gzip (bytes);
  g_autoptr (RbResult) r = NULL;

  rb_write_file (path, g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  r = RB_RUN ("-q", "--stats", "ftrace-src", location, "!", "fakesink");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "bytes-read"), ==, g_bytes_get_size (bytes));
  g_assert_cmpuint (rb_stat (r->err, "ftrace-src0", "lines"), ==, count_lines (bytes));
  rb_scratch_cleanup (dir);
}

/* json.md's example: 1 truncated, 1 bad duration. */
static void
test_json (void)
{
  g_autofree char *path = rb_data_path ("json", "speedscope_simple-partial.json");
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (RbResult) r = RB_RUN ("-q", "--stats", "json-src", location, "!", "fakesink");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "json-src0", "bytes-read"), ==, file_size (path));
  g_assert_cmpuint (rb_stat (r->err, "json-src0", "skipped-truncated"), ==, 1);
  g_assert_cmpuint (rb_stat (r->err, "json-src0", "skipped-bad-duration"), ==, 1);
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, rb_stat (r->err, "json-src0", "events-out"));
}

/* Records of a protobuf file: tag 0x0a, varint length, packet. */
static guint64
count_records (GBytes *bytes)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (bytes, &len);
  gsize pos = 0;
  guint64 n = 0;

  while (pos < len)
    {
      guint64 size = 0;
      guint shift = 0;

      g_assert_cmpuint (p[pos++], ==, 0x0a);
      while (p[pos] & 0x80)
        size |= (guint64) (p[pos++] & 0x7f) << shift, shift += 7;
      size |= (guint64) p[pos++] << shift;
      pos += size;
      n++;
    }
  return n;
}

static void
test_perfetto (void)
{
  g_autofree char *path = rb_data_path ("perfetto", "sdk_style.pftrace");
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (GBytes) bytes = rb_read_file (path);
  g_autoptr (RbResult) r = RB_RUN ("-q", "--stats", "perfetto-src", location, "!", "fakesink");

  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "perfetto-src0", "bytes-read"), ==, g_bytes_get_size (bytes));
  g_assert_cmpuint (rb_stat (r->err, "perfetto-src0", "packets"), ==, count_records (bytes));
  g_assert_cmpuint (rb_stat (r->err, "perfetto-src0", "truncated-bytes"), ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, rb_stat (r->err, "perfetto-src0", "events-out"));
}

static void
test_arkts (void)
{
  g_autofree char *path = rb_data_path ("arkts", "node20_inspector.cpuprofile");
  g_autofree char *location = g_strdup_printf ("location=%s", path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (RbResult) r = RB_RUN ("-q", "--stats", "arkts-src", location, "!", "fakesink");
  guint samples;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  samples = json_array_get_length (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                                 "samples"));
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpuint (rb_stat (r->err, "arkts-src0", "bytes-read"), ==, file_size (path));
  g_assert_cmpuint (rb_stat (r->err, "arkts-src0", "cpu-samples"), ==, samples);
  g_assert_cmpuint (rb_stat (r->err, "fakesink0", "events-in"), ==, rb_stat (r->err, "arkts-src0", "events-out"));
}

void
rb_add_accounting_tests (void)
{
  g_test_add_func ("/robustness/stats/ftrace-chain", test_ftrace_chain);
  g_test_add_func ("/robustness/stats/ftrace-gzip", test_ftrace_gzip_bytes);
  g_test_add_func ("/robustness/stats/json-src", test_json);
  g_test_add_func ("/robustness/stats/perfetto-src", test_perfetto);
  g_test_add_func ("/robustness/stats/arkts-src", test_arkts);
}
