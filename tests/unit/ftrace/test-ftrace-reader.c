/* Unit tests of ftrace-src's reader: containers and encodings (gzip
 * undone before the reader, `atrace -z`, UTF-16, systrace HTML blocks,
 * trace2html), batching, and inputs that are no trace, with the exact
 * error texts. */
#include <string.h>
#include <zlib.h>

#include "ftrace-test-util.h"

#define SEC(s, us) ((gint64) (s) *1000000000 + (gint64) (us) *1000)

static const char small_trace[] =
    "# tracer: nop\n"
    "        worker-700   (  643) [001] .... 1.000000: tracing_mark_write: B|643|outer\n"
    "        worker-700   (  643) [001] .... 1.000001: tracing_mark_write: E|643\n";

static GBytes *
gzip_bytes (const void *data,
            gsize len,
            int window_bits)
{
  z_stream z = { 0 };
  gsize cap = compressBound (len) + 64;
  guint8 *out = g_malloc (cap);

  g_assert_cmpint (deflateInit2 (&z, 9, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  z.next_in = (Bytef *) data;
  z.avail_in = len;
  z.next_out = out;
  z.avail_out = cap;
  g_assert_cmpint (deflate (&z, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&z);
  return g_bytes_new_take (out, z.total_out);
}

/* The reader is given decompressed input: TraceFileSrc undoes gzip
 * (every member) before a reader sees the stream, so the tests of gzip
 * input do it here, member by member, as a file source would. */
static GBytes *
gunzip (const void *data,
        gsize len)
{
  g_autoptr (GZlibDecompressor) dec = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  GByteArray *out = g_byte_array_new ();
  const guint8 *in = data;
  guint8 buf[64 * 1024];

  while (len > 0)
    {
      g_autoptr (GError) error = NULL;
      gsize n_read = 0, n_written = 0;
      GConverterResult res = g_converter_convert (G_CONVERTER (dec), in, len, buf, sizeof buf,
                                                  G_CONVERTER_INPUT_AT_END, &n_read, &n_written, &error);

      g_assert_no_error (error);
      g_byte_array_append (out, buf, n_written);
      in += n_read;
      len -= n_read;
      if (res == G_CONVERTER_FINISHED)
        g_converter_reset (G_CONVERTER (dec));
    }
  return g_byte_array_free_to_bytes (out);
}

static TraceBatch *
read_gbytes (GBytes *gz,
             const char *location,
             FtraceReader **r,
             GError **error)
{
  gsize len;
  g_autoptr (GBytes) plain = gunzip (g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));
  const void *data = g_bytes_get_data (plain, &len);

  return read_bytes (data, len, location, NULL, r, error);
}

static void
check_small_trace (TraceBatch *b)
{
  g_assert_nonnull (b);
  g_assert_cmpuint (b->n_events, ==, 3);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1, 0), 643, 700, "worker");
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (1, 0), 643, 700, "outer");
  check_event (b, 2, TRACE_EVENT_SLICE_END, SEC (1, 1), 643, 700, "");
}

/* ---------------------------------------------------------- compressed */

static void
test_gzip (void)
{
  g_autoptr (GBytes) gz = gzip_bytes (small_trace, strlen (small_trace), 15 + 16);
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_gbytes (gz, "t.gz", &r, &error);

  g_assert_no_error (error);
  check_small_trace (b);
  g_assert_cmpstr (ftrace_reader_get_format (r), ==, "ftrace");
}

static void
test_gzip_members (void)
{
  const char *half = strchr (small_trace + 14, '\n') + 1;
  g_autoptr (GBytes) a = gzip_bytes (small_trace, half - small_trace, 15 + 16);
  g_autoptr (GBytes) c = gzip_bytes (half, strlen (half), 15 + 16);
  g_autoptr (GByteArray) both = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) b = NULL;

  /* `cat a.gz b.gz`: both members are read */
  g_byte_array_append (both, g_bytes_get_data (a, NULL), g_bytes_get_size (a));
  g_byte_array_append (both, g_bytes_get_data (c, NULL), g_bytes_get_size (c));
  b = read_gbytes (g_byte_array_free_to_bytes (g_steal_pointer (&both)), "t.gz", NULL, &error);
  g_assert_no_error (error);
  check_small_trace (b);
}

static char *
make_trace (guint n_lines,
            gsize *len)
{
  GString *text = g_string_new ("# tracer: nop\n");

  for (guint i = 0; i < n_lines; i++)
    g_string_append_printf (text, "  w-%u (%u) [000] .... %u.%06u: tracing_mark_write: %s\n",
                            100 + i % 7, 100 + i % 7, 10 + i / 1000000, i % 1000000,
                            i % 2 ? "E|1" : "B|1|s");
  *len = text->len;
  return g_string_free (text, FALSE);
}

static void
test_ctrace_banner_and_truncation (void)
{
  g_autoptr (GBytes) z = gzip_bytes (small_trace, strlen (small_trace), 15);
  g_autoptr (GByteArray) file = g_byte_array_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = NULL;
  const char *banner = "capturing trace... done\nTRACE:\n";
  gsize cut;

  g_byte_array_append (file, (const guint8 *) banner, strlen (banner));
  g_byte_array_append (file, g_bytes_get_data (z, NULL), g_bytes_get_size (z));
  g_byte_array_append (file, (const guint8 *) "trailing garbage", 16);
  b = read_bytes (file->data, file->len, "t.ctrace", NULL, &r, &error);
  g_assert_no_error (error);
  check_small_trace (b);
  g_assert_cmpstr (ftrace_reader_get_format (r), ==, "ctrace");
  g_clear_pointer (&b, trace_batch_unref);

  /* cut inside the zlib stream: what was inflated is read, the summary
   * says where the data ends (the offset is the file's) */
  cut = strlen (banner) + g_bytes_get_size (z) - 6;
  g_clear_pointer (&r, ftrace_reader_free);
  b = read_bytes (file->data, cut, "cut.ctrace", NULL, &r, &error);
  g_assert_no_error (error);
  g_assert_nonnull (b);
  {
    g_autofree char *summary = ftrace_reader_get_summary (r);
    g_autofree char *want = g_strdup_printf (
        "cut.ctrace: the zlib data ends early at byte %" G_GSIZE_FORMAT " (the capture was cut); what came before is read", cut);

    g_assert_nonnull (summary);
    g_assert_true (g_str_has_prefix (summary, want));
  }
}

/* ------------------------------------------------------------ encodings */

static void
test_utf16 (void)
{
  const char *text = "\xef\xbb\xbf# tracer: nop\r\n"
                     "  \xe7\xba\xbf\xe7\xa8\x8b-5 (5) [000] .... 1.000000: tracing_mark_write: B|5|\xf0\x9f\x98\x80 smile\r\n";

  for (guint be = 0; be < 2; be++)
    {
      gsize len;
      g_autofree char *u16 = g_convert (text, -1, be ? "UTF-16BE" : "UTF-16LE", "UTF-8", NULL, &len, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (TraceBatch) b = NULL;

      /* the converted UTF-8 BOM becomes the UTF-16 one */
      g_assert_nonnull (u16);
      b = read_bytes (u16, len, "utf16.txt", NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (b->n_events, ==, 2);
      check_event (b, 0, TRACE_EVENT_THREAD_NAME, SEC (1, 0), 5, 5, "\xe7\xba\xbf\xe7\xa8\x8b");
      check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (1, 0), 5, 5, "\xf0\x9f\x98\x80 smile");
    }
}

static void
test_utf16_odd_bytes (void)
{
  /* a lone surrogate and an odd last byte: replaced, never a crash */
  const guint8 data[] = { 0xff, 0xfe, 'a', 0, '-', 0, '1', 0, ' ', 0, '[', 0, '0', 0, ']', 0, ' ', 0,
                          '1', 0, '.', 0, '0', 0, ':', 0, ' ', 0, 'x', 0, ':', 0, ' ', 0, 0x00, 0xd8, 'y', 0, '\n', 0, 'z' };
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) b = read_bytes (data, sizeof data, "odd.txt", NULL, NULL, &error);
  const TraceEvent *e;

  g_assert_no_error (error);
  e = nth_of_kind (b, TRACE_EVENT_FTRACE, 0);
  g_assert_nonnull (e);
  g_assert_cmpstr (str (b, find_arg (b, e, "name")->v.s), ==, "\xef\xbf\xbdy");
}

/* ---------------------------------------------------------------- HTML */

static void
test_html_blocks (void)
{
  g_autofree char *long_json = g_strnfill (200 * 1024, ' ');
  g_autofree char *html = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = NULL;
  const FtraceStats *st;

  long_json[0] = '{';
  long_json[200 * 1024 - 1] = '}';
  html = g_strconcat (
      "<!DOCTYPE html>\n<html><head>\n"
      "<script>var s = \"# tracer: nop\\n  fake-1 [000] .... 1.0: tracing_mark_write: B|1|viewer\";</script>\n"
      "  <script>\n  x-9 [000] .... 1.0: tracing_mark_write: B|9|viewer_line\n  </script>\n"
      "</head><body>\n<!-- BEGIN TRACE -->\n"
      "  <script class=\"trace-data\" type=\"application/text\">\n"
      "PROCESS DUMP\n"
      "USER           PID   TID CMD\n"
      "u0_a57        2519  2530 Jit thread pool\n"
      "  </script>\n"
      "  <script class=\"trace-data\" type=\"application/text\">\n",
      long_json, "  </script>\n"
                 "  <script class=\"trace-data\" type=\"application/text\">\n"
                 "# tracer: nop\n"
                 "           <...>-2530  (-----) [000] .... 5.000000: tracing_mark_write: B|2519|in_block\n"
                 "  </script>\n"
                 "  <script class=\"trace-data\" type=\"application/text\">\nCGROUP DUMP\n/top-app (root=4) : 466\n</script>\n"
                 "  <script class=\"trace-data\" type=\"application/text\">{\"traceEvents\": []}  </script>\n"
                 "<!-- END TRACE -->\n</body>\n</html>\n",
      NULL);
  b = read_bytes (html, strlen (html), "t.html", NULL, &r, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ftrace_reader_get_format (r), ==, "systrace-html");
  /* the viewer's own script is not read */
  g_assert_cmpuint (b->n_events, ==, 2);
  check_event (b, 0, TRACE_EVENT_THREAD_NAME, 0, 2519, 2530, "Jit thread pool");
  check_event (b, 1, TRACE_EVENT_SLICE_BEGIN, SEC (5, 0), 2519, 2530, "in_block");
  st = ftrace_reader_get_stats (r);
  /* two JSON blocks, one of them one 200 KiB line */
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_SKIPPED_BLOCK], ==, 2);
  g_assert_cmpuint (st->first_lines[FTRACE_PROBLEM_SKIPPED_BLOCK][0], ==, 15);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_LINE_TOO_LONG], ==, 0);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_UNPARSABLE_LINE], ==, 0);
}

static char *
viewer_block (const char *part,
              gboolean wrap,
              gsize cut)
{
  g_autoptr (GBytes) gz = gzip_bytes (part, strlen (part), 15 + 16);
  gsize len = cut ? cut : g_bytes_get_size (gz);
  g_autofree char *b64 = g_base64_encode (g_bytes_get_data (gz, NULL), len);
  GString *out = g_string_new ("<script id=\"viewer-data\" type=\"text/plain\">\n");

  for (gsize i = 0; i < strlen (b64); i += wrap ? 76 : strlen (b64))
    {
      g_string_append_len (out, b64 + i, MIN (wrap ? 76 : strlen (b64), strlen (b64) - i));
      g_string_append_c (out, '\n');
    }
  g_string_append (out, "</script>\n");
  return g_string_free (out, FALSE);
}

static void
test_html_trace2html (void)
{
  g_autofree char *v1 = viewer_block ("{\"traceEvents\": [{\"ph\": \"M\"}]}", FALSE, 0);
  g_autofree char *v2 = viewer_block (small_trace, TRUE, 0);
  g_autofree char *html = g_strconcat ("<!DOCTYPE html>\n<html>\n", v1, v2, "</html>\n", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_bytes (html, strlen (html), "t2h.html", NULL, &r, &error);

  g_assert_no_error (error);
  check_small_trace (b);
  g_assert_cmpuint (ftrace_reader_get_stats (r)->problems[FTRACE_PROBLEM_SKIPPED_BLOCK], ==, 1);
}

/* What a JSON block reader is given: each block's start line and bytes. */
typedef struct
{
  GPtrArray *blocks; /* GString per block */
  GArray *lines;
  guint ended;
} JsonBlocksSeen;

static gboolean
seen_begin (gpointer user_data,
            guint64 line_no)
{
  JsonBlocksSeen *seen = user_data;

  g_ptr_array_add (seen->blocks, g_string_new (NULL));
  g_array_append_val (seen->lines, line_no);
  return TRUE;
}

static gboolean
seen_data (gpointer user_data,
           const char *data,
           gsize len,
           GError **error)
{
  JsonBlocksSeen *seen = user_data;

  g_string_append_len (g_ptr_array_index (seen->blocks, seen->blocks->len - 1), data, len);
  return TRUE;
}

static void
free_gstring (gpointer s)
{
  g_string_free (s, TRUE);
}

static void
seen_end (gpointer user_data)
{
  ((JsonBlocksSeen *) user_data)->ended++;
}

/* With block funcs, every JSON block's bytes reach them whole (a 200 KiB
 * line in pieces, a block on its <script> line, a trace2html part) and
 * none is counted as skipped; the text is read as without them. */
static void
test_html_json_block_funcs (void)
{
  static const FtraceJsonBlockFuncs funcs = { seen_begin, seen_data, seen_end };
  JsonBlocksSeen seen = { g_ptr_array_new_with_free_func (free_gstring),
                          g_array_new (FALSE, FALSE, sizeof (guint64)), 0 };
  g_autofree char *long_json = g_malloc (200 * 1024 + 1);
  g_autofree char *viewer = viewer_block ("{\"traceEvents\": [{\"ph\": \"M\"}]}", FALSE, 0);
  g_autofree char *html = NULL, *expect_long = NULL;
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (GError) error = NULL;
  TraceBatch *b;
  guint n_events = 0;

  memset (long_json, ' ', 200 * 1024);
  long_json[200 * 1024] = '\0';
  long_json[0] = '{';
  long_json[200 * 1024 - 1] = '}';
  html = g_strconcat ("<!DOCTYPE html>\n<html>\n"
                      "  <script class=\"trace-data\" type=\"application/text\">\n",
                      long_json,
                      "\n  </script>\n"
                      "  <script class=\"trace-data\" type=\"application/text\">\n"
                      "# tracer: nop\n"
                      "           <...>-2530  (-----) [000] .... 5.000000: tracing_mark_write: B|2519|in_block\n"
                      "  </script>\n"
                      "  <script class=\"trace-data\" type=\"application/text\">{\"traceEvents\": []}  </script>\n",
                      viewer, "</html>\n", NULL);
  in = g_memory_input_stream_new_from_data (g_strdup (html), strlen (html), g_free);
  r = ftrace_reader_new (in, "t.html", NULL, NULL);
  ftrace_reader_set_json_block_funcs (r, &funcs, &seen);
  while (ftrace_reader_read_batch (r, &b, &error) && b != NULL)
    {
      n_events += b->n_events;
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_events, ==, 1);
  g_assert_cmpuint (seen.blocks->len, ==, 3);
  g_assert_cmpuint (seen.ended, ==, 3);
  g_assert_cmpuint (g_array_index (seen.lines, guint64, 0), ==, 4);
  g_assert_cmpuint (g_array_index (seen.lines, guint64, 1), ==, 10);
  g_assert_cmpuint (g_array_index (seen.lines, guint64, 2), ==, 1);
  expect_long = g_strconcat (long_json, "\n  \n", NULL);
  g_assert_cmpstr (((GString *) g_ptr_array_index (seen.blocks, 0))->str, ==, expect_long);
  g_assert_cmpstr (((GString *) g_ptr_array_index (seen.blocks, 1))->str, ==, "{\"traceEvents\": []}  \n");
  g_assert_cmpstr (((GString *) g_ptr_array_index (seen.blocks, 2))->str, ==, "{\"traceEvents\": [{\"ph\": \"M\"}]}\n");
  g_assert_cmpuint (ftrace_reader_get_stats (r)->problems[FTRACE_PROBLEM_SKIPPED_BLOCK], ==, 0);
  g_ptr_array_unref (seen.blocks);
  g_array_unref (seen.lines);
}

static void
test_html_trace2html_truncated (void)
{
  g_autofree char *v = viewer_block (small_trace, TRUE, 40);
  g_autofree char *html = g_strconcat ("<!DOCTYPE html>\n<html>\n", v, "</html>\n", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) b = read_bytes (html, strlen (html), "cut.html", NULL, NULL, &error);

  g_assert_null (b);
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE);
  g_assert_cmpstr (error->message, ==, "cut.html: truncated gzip data in the viewer-data block of line 3");
}

/* ---------------------------------------------------------- line limits */

static void
test_long_line (void)
{
  g_autofree char *big = g_strnfill (FTRACE_MAX_LINE_LENGTH + 100, 'x');
  g_autofree char *text = g_strconcat (small_trace, big, "\n", small_trace + 14, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_bytes (text, strlen (text), "long.txt", NULL, &r, &error);
  const FtraceStats *st = ftrace_reader_get_stats (r);
  g_autofree char *summary = ftrace_reader_get_summary (r);

  g_assert_no_error (error);
  g_assert_cmpuint (b->n_events, ==, 5);
  g_assert_cmpuint (st->lines, ==, 6);
  g_assert_cmpuint (st->problems[FTRACE_PROBLEM_LINE_TOO_LONG], ==, 1);
  g_assert_cmpuint (st->first_lines[FTRACE_PROBLEM_LINE_TOO_LONG][0], ==, 4);
  g_assert_cmpstr (summary, ==, "long.txt: 1 lines longer than 65536 bytes (line 4)");
}

static void
test_batches_keep_order (void)
{
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (GError) error = NULL;
  TraceBatch *b;
  guint n_batches = 0, n_events = 0;
  gint64 last = -1;
  gsize len;
  char *text = make_trace (20000, &len);

  in = g_memory_input_stream_new_from_data (text, len, g_free);
  r = ftrace_reader_new (in, "big.txt", NULL, NULL);
  while (ftrace_reader_read_batch (r, &b, &error) && b != NULL)
    {
      n_batches++;
      g_assert_cmpuint (b->n_events, <=, TRACE_BATCH_DEFAULT_SIZE + 1000);
      for (guint i = 0; i < b->n_events; i++)
        if (b->events[i].kind != TRACE_EVENT_THREAD_NAME)
          {
            g_assert_cmpint (b->events[i].ts, >, last);
            last = b->events[i].ts;
            n_events++;
          }
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (n_events, ==, 20000);
  g_assert_cmpuint (n_batches, >=, 4);
  g_assert_cmpuint (ftrace_reader_get_bytes_read (r), ==, len);
}

static void
test_forced_format (void)
{
  FtraceReaderOptions opts = { .format = "ctrace" };
  g_autoptr (GError) error = NULL;
  g_autoptr (TraceBatch) b = read_bytes (small_trace, strlen (small_trace), "t.txt", &opts, NULL, &error);

  g_assert_null (b);
  g_assert_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE);
  g_assert_cmpstr (error->message, ==,
                   "t.txt: not an ftrace, atrace, systrace or RheaTrace file: found no `TRACE:` line followed by zlib data (forced format ctrace)");
  g_assert_true (ftrace_reader_is_format ("auto"));
  g_assert_true (ftrace_reader_is_format ("systrace-html"));
  g_assert_false (ftrace_reader_is_format ("json"));
}

static void
test_clock_domain (void)
{
  const char *text = "# tracer: nop\n# clock_type=LINUX_CLOCK_MONOTONIC\n  a-1 [000] .... 1.0: tracing_mark_write: B|1|x\n";
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_bytes (text, strlen (text), "m.txt", NULL, &r, NULL);

  g_assert_cmpint (ftrace_reader_get_clock_domain (r), ==, TRACE_CLOCK_MONOTONIC);
}

/* ------------------------------------------------------------ bad input */

static void
check_bad_input (const void *data,
                 gsize len,
                 const char *location,
                 gint code,
                 const char *message)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  g_autoptr (TraceBatch) b = read_bytes (data, len, location, NULL, &r, &error);

  g_assert_null (b);
  g_assert_error (error, TRACE_STREAM_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

#define check_bad_input_str(text, location, code, message) \
  check_bad_input ((text), strlen (text), (location), (code), (message))

static void
test_bad_inputs (void)
{
  static const guint8 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
  guint8 random_bytes[4096];
  GRand *rand = g_rand_new_with_seed (42);
  g_autoptr (GBytes) gz = gzip_bytes (png, sizeof png, 15 + 16);
  g_autoptr (GBytes) gz_png = gunzip (g_bytes_get_data (gz, NULL), g_bytes_get_size (gz));

  for (guint i = 0; i < sizeof random_bytes; i++)
    random_bytes[i] = g_rand_int_range (rand, 0, 256);
  g_rand_free (rand);

  check_bad_input_str ("", "empty.txt", TRACE_STREAM_ERROR_EMPTY, "empty.txt: empty file");
  check_bad_input_str ("\n  \n\r\n", "blank.txt", TRACE_STREAM_ERROR_EMPTY, "blank.txt: empty file (only blank lines)");
  check_bad_input (png, sizeof png, "img.png", TRACE_STREAM_ERROR_WRONG_TYPE,
                   "img.png: not an ftrace, atrace, systrace or RheaTrace file: found a PNG image");
  check_bad_input (random_bytes, sizeof random_bytes, "rand.bin", TRACE_STREAM_ERROR_WRONG_TYPE,
                   "rand.bin: not an ftrace, atrace, systrace or RheaTrace file: found binary data");
  check_bad_input (g_bytes_get_data (gz_png, NULL), g_bytes_get_size (gz_png), "img.png.gz", TRACE_STREAM_ERROR_WRONG_TYPE,
                   "img.png.gz: not an ftrace, atrace, systrace or RheaTrace file: found a PNG image");
  check_bad_input_str ("{\"nodes\": [], \"samples\": []}", "p.json", TRACE_STREAM_ERROR_WRONG_TYPE,
                       "p.json: not an ftrace, atrace, systrace or RheaTrace file: found JSON that is not a trace");
  check_bad_input_str ("[{\"ph\":\"B\",\"ts\":1}]", "c.json", TRACE_STREAM_ERROR_WRONG_TYPE,
                       "c.json: not an ftrace, atrace, systrace or RheaTrace file: found a Chrome JSON trace (read it with json-src)");
  check_bad_input_str ("hello\nworld\n", "notes.txt", TRACE_STREAM_ERROR_WRONG_TYPE,
                       "notes.txt: not an ftrace, atrace, systrace or RheaTrace file: found text without any trace line (first: \"hello\")");
  check_bad_input_str ("<!DOCTYPE html>\n<p>hi</p>\n", "page.html", TRACE_STREAM_ERROR_WRONG_TYPE,
                       "page.html: not an ftrace, atrace, systrace or RheaTrace file: found HTML without systrace data");
}

/* 20 MiB of NUL bytes before the one line: no call reads them all at
 * once (the caller's main loop, where Ctrl-C is handled, runs between
 * calls); the calls before the line return empty batches. */
static void
test_input_bound (void)
{
  const char *line = "\n  w-1 (1) [000] .... 1.000000: tracing_mark_write: B|1|s\n";
  gsize nuls = 20 * 1024 * 1024;
  g_autofree char *data = g_malloc0 (nuls + strlen (line));
  g_autoptr (GInputStream) in = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (FtraceReader) r = NULL;
  TraceBatch *b;
  guint empty = 0, events = 0;

  memcpy (data + nuls, line, strlen (line));
  in = g_memory_input_stream_new_from_data (data, nuls + strlen (line), NULL);
  r = ftrace_reader_new (in, "nuls.txt", NULL, NULL);
  while (ftrace_reader_read_batch (r, &b, &error) && b != NULL)
    {
      empty += b->n_events == 0;
      events += b->n_events;
      trace_batch_unref (b);
    }
  g_assert_no_error (error);
  g_assert_cmpuint (events, >=, 1);
  g_assert_cmpuint (empty, >=, nuls / TRACE_BATCH_MAX_INPUT_BYTES - 1);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ftrace/reader/gzip", test_gzip);
  g_test_add_func ("/ftrace/reader/input-bound", test_input_bound);
  g_test_add_func ("/ftrace/reader/gzip-members", test_gzip_members);
  g_test_add_func ("/ftrace/reader/ctrace-banner-and-truncation", test_ctrace_banner_and_truncation);
  g_test_add_func ("/ftrace/reader/utf16", test_utf16);
  g_test_add_func ("/ftrace/reader/utf16-odd-bytes", test_utf16_odd_bytes);
  g_test_add_func ("/ftrace/reader/html-blocks", test_html_blocks);
  g_test_add_func ("/ftrace/reader/html-trace2html", test_html_trace2html);
  g_test_add_func ("/ftrace/reader/html-json-block-funcs", test_html_json_block_funcs);
  g_test_add_func ("/ftrace/reader/html-trace2html-truncated", test_html_trace2html_truncated);
  g_test_add_func ("/ftrace/reader/long-line", test_long_line);
  g_test_add_func ("/ftrace/reader/batches-keep-order", test_batches_keep_order);
  g_test_add_func ("/ftrace/reader/forced-format", test_forced_format);
  g_test_add_func ("/ftrace/reader/clock-domain", test_clock_domain);
  g_test_add_func ("/ftrace/reader/bad-inputs", test_bad_inputs);
  return g_test_run ();
}
