/* tracepipe tests - trace-convert, as a user runs it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/resource.h>

#include <trace/trace.h>

#include "tools-test.h"

#define SLICES TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"
#define KERNEL TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt"

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("ftrace-src") && trace_element_factory_find ("perfetto-sink") &&
      trace_element_factory_find ("json-sink") && trace_element_factory_find ("filter"))
    return TRUE;
  g_test_skip ("ftrace-src, filter, perfetto-sink or json-sink is not built");
  return FALSE;
}

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

static void
copy_file (const char *from,
           const char *to)
{
  g_autoptr (GBytes) b = read_bytes (from);

  g_assert_true (g_file_set_contents (to, g_bytes_get_data (b, NULL), g_bytes_get_size (b), NULL));
}

/* The pipeline -v prints is the one that runs: trace-launch -f on that
 * text writes the same bytes, even for a file name full of quotes. */
static void
test_convert_same_as_launch (void)
{
  g_autofree char *odd = scratch ("my 'odd' \"file\" #1!.txt");
  g_autofree char *out = scratch ("converted.pftrace");
  g_autofree char *again = scratch ("launched.pftrace");
  g_autofree char *desc_path = scratch ("convert.launch");
  g_autoptr (Run) r = NULL, launched = NULL;
  g_autoptr (GBytes) a = NULL, b = NULL;
  g_autofree char *description = NULL;
  g_autoptr (GString) desc2 = NULL;

  if (!have_plugins ())
    return;
  copy_file (SLICES, odd);
  r = RUN ("trace-convert", NULL, "-v", odd, out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->out, ==, "");
  g_assert_true (g_str_has_prefix (r->err, "Pipeline: auto-src location="));
  description = g_strndup (r->err + strlen ("Pipeline: "), strchr (r->err, '\n') - r->err - strlen ("Pipeline: "));
  g_assert_nonnull (strstr (description, " ! perfetto-sink location='"));
  desc2 = g_string_new (description);
  g_string_replace (desc2, "converted.pftrace", "launched.pftrace", 1);
  g_assert_true (g_file_set_contents (desc_path, desc2->str, -1, NULL));
  launched = RUN ("trace-launch", NULL, "-q", "-f", desc_path);
  g_assert_cmpint (launched->status, ==, 0);
  a = read_bytes (out);
  b = read_bytes (again);
  g_assert_cmpuint (g_bytes_get_size (a), >, 100);
  g_assert_true (g_bytes_equal (a, b));
  g_unlink (odd), g_unlink (out), g_unlink (again), g_unlink (desc_path);
}

static JsonArray *
read_json_events (const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_file (parser, path, &error);
  g_assert_no_error (error);
  return json_array_ref (
      json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents"));
}

/* --main-thread, --start/--end and --filter reach the elements: what
 * comes out is on main threads, of the kinds asked, inside the window. */
static void
test_convert_options (void)
{
  g_autofree char *out = scratch ("window.json");
  const gint64 start_us = 683202100000, end_us = 683202300000; /* inside the trace */
  g_autoptr (Run) r = NULL;
  g_autoptr (JsonArray) events = NULL;
  guint n_slices = 0;

  if (!have_plugins ())
    return;
  r = RUN ("trace-convert", NULL, "-v", "--main-thread", "--start", "683202.1s", "--end", "683202.3s", "--filter",
           "kind=slices", SLICES, out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, " ! main-thread-filter ! filter start='683202.1s' end='683202.3s' kind=slices ! "
                                    "json-sink location="));
  events = read_json_events (out);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *e = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (e, "ph");

      if (strcmp (ph, "M") == 0)
        continue;
      g_assert_nonnull (strchr ("BEXi", ph[0]));
      g_assert_cmpint (json_object_get_int_member (e, "tid"), ==, json_object_get_int_member (e, "pid"));
      g_assert_cmpint (json_object_get_int_member (e, "ts"), >=, start_us);
      g_assert_cmpint (json_object_get_int_member (e, "ts"), <=, end_us);
      n_slices++;
    }
  g_assert_cmpuint (n_slices, >, 0);
  g_unlink (out);
}

static void
test_convert_usage (void)
{
  g_autoptr (Run) txt = RUN ("trace-convert", NULL, KERNEL, "out.csv");
  g_autoptr (Run) gz = RUN ("trace-convert", NULL, KERNEL, "out.csv.gz");
  g_autoptr (Run) one = RUN ("trace-convert", NULL, KERNEL);
  g_autoptr (Run) inject = RUN ("trace-convert", NULL, "--filter", "tid=main ! identity", KERNEL, "x.json");

  g_assert_cmpint (txt->status, ==, 2);
  g_assert_cmpstr (txt->err, ==,
                   "trace-convert: out.csv: cannot tell the output format from the extension "
                   "(.pftrace, .perfetto-trace, .pb, .json, .txt or .systrace, each optionally followed by .gz)\n");
  g_assert_cmpint (gz->status, ==, 2);
  g_assert_nonnull (strstr (gz->err, "out.csv.gz: cannot tell the output format"));
  g_assert_false (g_file_test ("out.csv.gz", G_FILE_TEST_EXISTS));
  g_assert_cmpint (one->status, ==, 2);
  g_assert_true (g_str_has_prefix (one->err, "trace-convert: give IN and OUT"));
  g_assert_cmpint (inject->status, ==, 2);
  g_assert_nonnull (strstr (inject->err, "--filter takes properties of the filter element only"));
  g_assert_false (g_file_test ("x.json", G_FILE_TEST_EXISTS));
}

/* -o with a folder holding two traces and a file that is not one: one
 * line per file on stdout, the failure named, exit 1, the folders made. */
static guint
count_prefixed (GStrv lines,
                const char *prefix)
{
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += g_str_has_prefix (lines[i], prefix);
  return n;
}

static void
test_convert_batch (void)
{
  g_autofree char *in = scratch ("batch-in");
  g_autofree char *a = g_build_filename (in, "a.txt", NULL);
  g_autofree char *b = g_build_filename (in, "b.trace.txt", NULL);
  g_autofree char *bad = g_build_filename (in, "c.txt", NULL);
  g_autofree char *template = scratch ("batch-out/deeper/{name}.json");
  g_autofree char *out_a = scratch ("batch-out/deeper/a.json");
  g_autofree char *out_b = scratch ("batch-out/deeper/b.json");
  g_autofree char *ok_a = NULL, *ok_b = NULL;
  g_autoptr (Run) r = NULL;
  g_auto (GStrv) lines = NULL;

  if (!have_plugins ())
    return;
  g_mkdir (in, 0700);
  copy_file (KERNEL, a);
  copy_file (SLICES, b);
  g_assert_true (g_file_set_contents (bad, "\x01\x02 not a trace\n", -1, NULL));
  r = RUN ("trace-convert", NULL, "-j", "2", "-o", template, in);
  g_assert_cmpint (r->status, ==, 1);
  /* the per-file lines are status: standard error, stdout stays clean */
  g_assert_cmpstr (r->out, ==, "");
  lines = g_strsplit (r->err, "\n", -1);
  g_assert_cmpuint (count_prefixed (lines, "ok      "), ==, 2);
  g_assert_cmpuint (count_prefixed (lines, "FAILED  "), ==, 1);
  ok_a = g_strdup_printf ("ok      %s -> %s (", a, out_a);
  ok_b = g_strdup_printf ("ok      %s -> %s (", b, out_b);
  g_assert_nonnull (strstr (r->err, ok_a));
  g_assert_nonnull (strstr (r->err, ok_b));
  g_assert_nonnull (strstr (r->err, "c.txt: no plugin recognises this format"));
  json_array_unref (read_json_events (out_a));
  json_array_unref (read_json_events (out_b));
  g_unlink (a), g_unlink (b), g_unlink (bad), g_rmdir (in);
  g_unlink (out_a), g_unlink (out_b);
}

static void
test_convert_batch_collision (void)
{
  g_autofree char *template = scratch ("collide.pftrace");
  g_autoptr (Run) r = RUN ("trace-convert", NULL, "-o", template, KERNEL, SLICES);
  g_autoptr (Run) same = RUN ("trace-convert", NULL, "-o", "{name}.pftrace", KERNEL, KERNEL);

  g_assert_cmpint (r->status, ==, 2);
  g_assert_nonnull (strstr (r->err, "with several inputs, the -o template needs {name}"));
  g_assert_cmpint (same->status, ==, 2);
  g_assert_nonnull (strstr (same->err, "would both be written to catapult_atrace_data.pftrace"));
}

/* trace-convert detects what a named source reads, and writes what
 * that source would: a systrace export whose first data block is 1.1 MiB
 * in, a legacy V8 CPU profile. */
static void
test_convert_detects_what_sources_read (void)
{
  static const struct
  {
    const char *path, *element;
  } files[] = {
    { TEST_DATA_DIR "/ftrace/gtechoogle_systrace_full_export.html", "ftrace-src" },
    { TEST_DATA_DIR "/arkts/cp2cg_busy_legacy.cpuprofile", "arkts-src" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *converted = scratch ("detected.json");
      g_autofree char *named = scratch ("named.json");
      g_autofree char *in_location = g_strdup_printf ("location=%s", files[i].path);
      g_autofree char *out_location = g_strdup_printf ("location=%s", named);
      g_autoptr (Run) r = NULL, launched = NULL;
      g_autoptr (GBytes) a = NULL, b = NULL;

      if (trace_element_factory_find (files[i].element) == NULL || trace_element_factory_find ("json-sink") == NULL)
        continue;
      r = RUN ("trace-convert", NULL, files[i].path, converted);
      g_assert_cmpstr (r->err, ==, "");
      g_assert_cmpint (r->status, ==, 0);
      launched = RUN ("trace-launch", NULL, "-q", files[i].element, in_location, "!", "json-sink", out_location);
      g_assert_cmpint (launched->status, ==, 0);
      a = read_bytes (converted);
      b = read_bytes (named);
      g_assert_cmpuint (g_bytes_get_size (a), >, 10000);
      g_assert_true (g_bytes_equal (a, b));
      g_unlink (converted), g_unlink (named);
    }
}

/* -j beyond what the open-file limit allows: the jobs are capped and it
 * is said, and every file converts (uncapped, most failed with "Too many
 * open files"). */
static void
test_convert_jobs_within_fd_limit (void)
{
  g_autofree char *in_dir = g_build_filename (tools_test_scratch_dir (), "fd-limit-in", NULL);
  g_autofree char *template = g_build_filename (tools_test_scratch_dir (), "fd-limit-out", "{name}.json", NULL);
  g_autofree char *sample = NULL;
  g_autoptr (Run) r = NULL;
  struct rlimit old, low;
  gsize len = 0;
  guint converted = 0;

  g_assert_true (g_file_get_contents (TEST_DATA_DIR "/json/catapult_simple_trace.json", &sample, &len, NULL));
  g_assert_cmpint (g_mkdir_with_parents (in_dir, 0700), ==, 0);
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s/t%02u.json", in_dir, i);

      g_assert_true (g_file_set_contents (name, sample, len, NULL));
    }
  g_assert_cmpint (getrlimit (RLIMIT_NOFILE, &old), ==, 0);
  low = old;
  low.rlim_cur = MIN (old.rlim_max, 64);
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &low), ==, 0); /* the child inherits it */
  r = RUN ("trace-convert", NULL, "-j", "500", "-o", template, in_dir);
  g_assert_cmpint (setrlimit (RLIMIT_NOFILE, &old), ==, 0);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, "trace-convert: running 8 conversions at once, not 500: the open-file limit (ulimit -n) is 64\n"));
  g_assert_null (strstr (r->err, "Too many open files"));
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *out = g_strdup_printf ("%s/fd-limit-out/t%02u.json", tools_test_scratch_dir (), i);

      converted += g_file_test (out, G_FILE_TEST_IS_REGULAR);
    }
  g_assert_cmpuint (converted, ==, 40);
}

/* A gzip file whose first member is empty (concatenated gzip files):
 * detection reads every member, as the sources do. */
static void
test_convert_gzip_empty_first_member (void)
{
  g_autofree char *path = g_build_filename (tools_test_scratch_dir (), "empty-first.txt.gz", NULL);
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "empty-first.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GByteArray) gz = g_byte_array_new ();
  g_autoptr (Run) r = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (TEST_DATA_DIR "/ftrace/catapult_atrace_data.txt", &text, &len, NULL));
  for (guint member = 0; member < 2; member++)
    {
      g_autoptr (GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
      guint8 buf[65536];
      gsize read = 0, written = 0;
      const char *in = member ? text : "";
      gsize in_len = member ? len : 0;
      GConverterResult res;

      do
        {
          res = g_converter_convert (G_CONVERTER (z), in, in_len, buf, sizeof buf, G_CONVERTER_INPUT_AT_END, &read,
                                     &written, NULL);
          g_assert_cmpint (res, !=, G_CONVERTER_ERROR);
          g_byte_array_append (gz, buf, written);
          in += read, in_len -= read;
        }
      while (res != G_CONVERTER_FINISHED);
    }
  g_assert_true (g_file_set_contents (path, (const char *) gz->data, gz->len, NULL));
  r = RUN ("trace-convert", NULL, path, out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
}

/* A RheaTrace capture (btrace's documented raw lines) converted as it is
 * says how rhea-repair rebuilds its calls; another trace does not. */
static void
test_convert_rhea_hint (void)
{
  static const char capture[] = "24903.044390707 25135: B|25135|B:RheaApplication:onCreate\n"
                                "24903.044400000 25135: B|25135|B:RheaApplication:init\n"
                                "24903.044500000 25135: B|25135|E:RheaApplication:init\n"
                                "24903.044600000 25135: B|25135|E:RheaApplication:onCreate\n";
  g_autofree char *in = scratch ("rhea.txt");
  g_autofree char *out = scratch ("rhea.json");
  g_autofree char *other = scratch ("not-rhea.json");
  g_autoptr (Run) r = NULL, plain = NULL;

  if (!have_plugins ())
    return;
  g_assert_true (g_file_set_contents (in, capture, -1, NULL));
  r = RUN ("trace-convert", NULL, in, out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->err, "rhea.txt is a RheaTrace capture, written with its B:/E:/T: markers as slices"));
  g_assert_nonnull (strstr (r->err, " ! rhea-repair ! json-sink location="));
  plain = RUN ("trace-convert", NULL, SLICES, other);
  g_assert_cmpint (plain->status, ==, 0);
  g_assert_null (strstr (plain->err, "rhea-repair"));
  g_unlink (in), g_unlink (out), g_unlink (other);
}

/* The controller's clock-sync record of a catapult export: a JSON block
 * beside the ftrace text (AOSP's trace2db test holds one). */
#define CONTROLLER_BLOCK                                                                                            \
  "  <script class=\"trace-data\" type=\"application/text\">\n"                                                     \
  "{\"traceEvents\": [{\"category\": \"python\", \"name\": \"clock_sync\", \"args\": {\"issue_ts\": "               \
  "1037307346185.212, \"sync_id\": \"9a7e4fe3-89ad-441f-8226-8fe533fe973e\"}, \"pid\": 160383, \"ts\": "            \
  "1037307351643.906, \"tid\": 139628726089536, \"ph\": \"c\"}], \"metadata\": {\"clock-domain\": \"SYSTRACE\"}}\n" \
  "  </script>\n"

/* A systrace HTML file with a JSON block: both blocks are read, the JSON
 * one placed on the text's clock by the sync id both carry (the
 * controller's marker was written between issue_ts and ts: their
 * midpoint is the ftrace marker's time), with no "not read" warning. */
static void
test_convert_html_json_block (void)
{
  static const char html[] =
      "<!DOCTYPE html>\n<html>\n<head>\n<title>Android System Trace</title>\n"
      "  <script class=\"trace-data\" type=\"application/text\">\n"
      "# tracer: nop\n"
      "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
      "          atrace-19931 (19931) [000] ...1 16140.000000: tracing_mark_write: trace_event_clock_sync: "
      "name=9a7e4fe3-89ad-441f-8226-8fe533fe973e\n"
      "  </script>\n" CONTROLLER_BLOCK "<!-- END TRACE -->\n";
  g_autofree char *in = scratch ("capture.html");
  g_autofree char *out = scratch ("capture.json");
  g_autofree char *json = NULL;
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  g_assert_true (g_file_set_contents (in, html, -1, NULL));
  r = RUN ("trace-convert", NULL, "-v", in, out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_null (strstr (r->err, "not read"));
  g_assert_nonnull (strstr (r->err, "capture.html (JSON block of line 11) (clock SYSTRACE): shifted by -1021167.348914559 s "
                                    "onto the ftrace text's boottime clock (sync-id"));
  g_assert_true (g_file_get_contents (out, &json, NULL, NULL));
  g_assert_nonnull (strstr (json, "\"ts\":16140002729.347,\"pid\":160383"));
  g_assert_nonnull (strstr (json, "\"issue_ts\":16139997270.653"));
  g_unlink (in), g_unlink (out);
}

/* A real export's JSON block that no marker of its text ties: read, its
 * times kept, said; json-src's error on the file points at ftrace-src. */
static void
test_convert_html_json_block_untied (void)
{
  const char *in = TEST_DATA_DIR "/ftrace/aosp_trace2db_systrace_controller_json.html";
  g_autofree char *out = scratch ("untied.pftrace");
  g_autoptr (Run) r = NULL, json_src = NULL;
  g_autofree char *location = g_strdup_printf ("location=%s", in);

  if (!have_plugins ())
    return;
  r = RUN ("trace-convert", NULL, in, out);
  g_assert_cmpint (r->status, ==, 0);
  g_assert_null (strstr (r->err, "not read"));
  g_assert_nonnull (strstr (r->err, "aosp_trace2db_systrace_controller_json.html (JSON block of line 20): no clock "
                                    "marker ties its clock (SYSTRACE) to the ftrace text's: its events keep their times"));
  json_src = RUN ("trace-launch", NULL, "json-src", location, "!", "fakesink");
  g_assert_cmpint (json_src->status, !=, 0);
  g_assert_nonnull (strstr (json_src->err, "not a JSON trace: it starts with '<' (a systrace HTML file? ftrace-src "
                                           "reads those, their JSON blocks included)"));
  g_unlink (out);
}

/* A trace2html page of a Chrome trace (its viewer-data part is the JSON,
 * here not gzipped) holds no ftrace text: ftrace-src gives the events
 * json-src gives of the JSON itself, and says nothing of a text. */
static void
test_convert_html_json_alone (void)
{
  const char *json = TEST_DATA_DIR "/json/catapult_simple_trace.json";
  g_autofree char *in = scratch ("trace2html.html");
  g_autofree char *text = NULL, *b64 = NULL, *html = NULL, *location = NULL, *json_location = NULL;
  g_autoptr (Run) r = NULL, direct = NULL;
  gsize len = 0;

  if (!have_plugins ())
    return;
  g_assert_true (g_file_get_contents (json, &text, &len, NULL));
  b64 = g_base64_encode ((const guchar *) text, len);
  html = g_strdup_printf ("<!DOCTYPE html>\n<html>\n<script id=\"viewer-data\" type=\"text/plain\">\n%s\n</script>\n"
                          "</html>\n",
                          b64);
  g_assert_true (g_file_set_contents (in, html, -1, NULL));
  location = g_strdup_printf ("location=%s", in);
  json_location = g_strdup_printf ("location=%s", json);
  r = RUN ("trace-launch", NULL, "ftrace-src", location, "!", "fakesink", "dump=true");
  direct = RUN ("trace-launch", NULL, "json-src", json_location, "!", "fakesink", "dump=true");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpint (direct->status, ==, 0);
  g_assert_cmpstr (r->out, ==, direct->out);
  g_assert_null (strstr (r->err, "WARNING"));
  g_unlink (in);
}

/* Chrome's block is tied to the text through the controller's record
 * (Chrome's sync id there, the controller's in the text), whatever the
 * order of the blocks: its slice lands 1 us after Chrome's marker, whose
 * controller midpoint is 100 us after the text's marker. */
static void
test_convert_html_json_block_chain (void)
{
  static const char html[] =
      "<!DOCTYPE html>\n<html>\n"
      "  <script class=\"trace-data\" type=\"application/text\">\n"
      "{\"traceEvents\": [{\"name\": \"clock_sync\", \"ph\": \"c\", \"pid\": 7, \"tid\": 7, \"ts\": 500000.0, \"args\": "
      "{\"sync_id\": \"chrome-uuid\"}}, {\"name\": \"Draw\", \"ph\": \"X\", \"pid\": 7, \"tid\": 7, \"ts\": 500001.0, "
      "\"dur\": 50.0}], \"metadata\": {\"clock-domain\": \"LINUX_CLOCK_MONOTONIC\"}}\n"
      "  </script>\n"
      "  <script class=\"trace-data\" type=\"application/text\">\n"
      "# tracer: nop\n"
      "          atrace-19931 (19931) [000] ...1 16140.000000: tracing_mark_write: trace_event_clock_sync: "
      "name=atrace-uuid\n"
      "  </script>\n"
      "  <script class=\"trace-data\" type=\"application/text\">\n"
      "{\"traceEvents\": [{\"name\": \"clock_sync\", \"ph\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": 1000000010.0, "
      "\"args\": {\"sync_id\": \"atrace-uuid\", \"issue_ts\": 1000000000.0}}, {\"name\": \"clock_sync\", \"ph\": "
      "\"c\", \"pid\": 1, \"tid\": 1, \"ts\": 1000000110.0, \"args\": {\"sync_id\": \"chrome-uuid\", \"issue_ts\": "
      "1000000100.0}}], \"metadata\": {\"clock-domain\": \"SYSTRACE\"}}\n"
      "  </script>\n</html>\n";
  g_autofree char *in = scratch ("chain.html");
  g_autofree char *location = g_strdup_printf ("location=%s", in);
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  g_assert_true (g_file_set_contents (in, html, -1, NULL));
  r = RUN ("trace-launch", NULL, "ftrace-src", location, "!", "fakesink", "dump=true");
  g_assert_cmpint (r->status, ==, 0);
  g_assert_nonnull (strstr (r->out, "16140000101000 slice-complete pid=7 tid=7 cpu=-1 name=\"Draw\" dur=50000\n"));
  g_assert_nonnull (strstr (r->err, "(JSON block of line 4) (clock LINUX_CLOCK_MONOTONIC): shifted by +16139.5001 s "
                                    "onto the ftrace text's boottime clock (sync-id"));
  g_unlink (in);
}

void
add_convert_tests (void)
{
  g_test_add_func ("/tools/convert/same-as-launch", test_convert_same_as_launch);
  g_test_add_func ("/tools/convert/options", test_convert_options);
  g_test_add_func ("/tools/convert/usage", test_convert_usage);
  g_test_add_func ("/tools/convert/batch", test_convert_batch);
  g_test_add_func ("/tools/convert/rhea-hint", test_convert_rhea_hint);
  g_test_add_func ("/tools/convert/html-json-block", test_convert_html_json_block);
  g_test_add_func ("/tools/convert/html-json-block-untied", test_convert_html_json_block_untied);
  g_test_add_func ("/tools/convert/html-json-alone", test_convert_html_json_alone);
  g_test_add_func ("/tools/convert/html-json-block-chain", test_convert_html_json_block_chain);
  g_test_add_func ("/tools/convert/batch-collision", test_convert_batch_collision);
  g_test_add_func ("/tools/convert/jobs-within-fd-limit", test_convert_jobs_within_fd_limit);
  g_test_add_func ("/tools/convert/gzip-empty-first-member", test_convert_gzip_empty_first_member);
  g_test_add_func ("/tools/convert/detects-what-sources-read", test_convert_detects_what_sources_read);
}
