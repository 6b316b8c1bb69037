/* tracepipe tests - filter's time window as a user sets it: relative times, a window that misses
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include <trace/trace.h>

#include "tools-test.h"

#define SLICES TEST_DATA_DIR "/ftrace/catapult_decompressed_atrace_data.txt"
/* starts with process and thread names at ts 0, its events at 260758 s */
#define LIGHTHOUSE TEST_DATA_DIR "/json/lighthouse_timespan-trace-m91.json"

static gboolean
have_plugins (void)
{
  if (trace_element_factory_find ("auto-src") && trace_element_factory_find ("filter") &&
      trace_element_factory_find ("perfetto-sink") && trace_element_factory_find ("perfetto-src"))
    return TRUE;
  g_test_skip ("auto-src, filter or perfetto is not built");
  return FALSE;
}

typedef struct
{
  gint64 first, last, events;
} Info;

/* What trace-info --json says of @path: where a user looks up times. */
static Info
trace_info (const char *path)
{
  g_autoptr (Run) r = RUN ("trace-info", NULL, "--json", path);
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  JsonObject *o;
  Info info;

  g_assert_cmpint (r->status, ==, 0);
  json_parser_load_from_data (parser, r->out, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  info.first = json_object_get_int_member (o, "first-ts");
  info.last = json_object_get_int_member (o, "last-ts");
  info.events = json_object_get_int_member (o, "events");
  return info;
}

static GBytes *
read_file (const char *path)
{
  char *contents = NULL;
  gsize len = 0;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

static GBytes *
run_window (const char *input,
            const char *start,
            const char *end,
            const char *out)
{
  g_autofree char *location = g_strdup_printf ("location=%s", input);
  g_autofree char *out_location = g_strdup_printf ("location=%s", out);
  g_autofree char *s = g_strdup_printf ("start=%s", start);
  g_autofree char *e = g_strdup_printf ("end=%s", end);
  g_autoptr (Run) r = RUN ("trace-launch", NULL, "-q", "auto-src", location, "!", "filter", s, e, "!", "perfetto-sink",
                           out_location);

  g_assert_cmpint (r->status, ==, 0);
  g_assert_cmpstr (r->out, ==, "");
  return read_file (out);
}

/* start=+A end=+B keeps what trace-info's first event + A..B holds, the
 * same as the absolute times a user would compute from trace-info, and
 * trace-convert --start +A does the same. Metadata at ts 0 ahead of the
 * events (the JSON file) does not count as the first event. */
static void
check_relative_window (const char *input,
                       gint64 from_ns,
                       gint64 to_ns)
{
  g_autofree char *rel_path = g_build_filename (tools_test_scratch_dir (), "rel.pftrace", NULL);
  g_autofree char *abs_path = g_build_filename (tools_test_scratch_dir (), "abs.pftrace", NULL);
  g_autofree char *conv_path = g_build_filename (tools_test_scratch_dir (), "conv.pftrace", NULL);
  g_autofree char *rel_start = g_strdup_printf ("+%" G_GINT64_FORMAT "ns", from_ns);
  g_autofree char *rel_end = g_strdup_printf ("+%" G_GINT64_FORMAT "ns", to_ns);
  g_autofree char *abs_start = NULL, *abs_end = NULL;
  g_autoptr (GBytes) rel = NULL, abs = NULL, conv = NULL;
  g_autoptr (Run) c = NULL;
  Info in, out;

  if (!have_plugins ())
    return;
  in = trace_info (input);
  abs_start = g_strdup_printf ("%" G_GINT64_FORMAT, in.first + from_ns);
  abs_end = g_strdup_printf ("%" G_GINT64_FORMAT, in.first + to_ns);
  rel = run_window (input, rel_start, rel_end, rel_path);
  abs = run_window (input, abs_start, abs_end, abs_path);
  g_assert_true (g_bytes_equal (rel, abs));
  out = trace_info (rel_path);
  g_assert_cmpint (out.events, >, 0);
  g_assert_cmpint (out.events, <, in.events);
  g_assert_cmpint (out.first, >=, in.first + from_ns);
  g_assert_cmpint (out.last, <=, in.first + to_ns);
  c = RUN ("trace-convert", NULL, "--start", rel_start, "--end", rel_end, input, conv_path);
  g_assert_cmpint (c->status, ==, 0);
  conv = read_file (conv_path);
  g_assert_true (g_bytes_equal (conv, rel));
  g_unlink (rel_path), g_unlink (abs_path), g_unlink (conv_path);
}

static void
test_relative_ftrace (void)
{
  check_relative_window (SLICES, 50 * G_GINT64_CONSTANT (1000000), 150 * G_GINT64_CONSTANT (1000000));
}

static void
test_relative_after_metadata (void)
{
  check_relative_window (LIGHTHOUSE, G_GINT64_CONSTANT (1000000000), G_GINT64_CONSTANT (2500000000));
}

/* A window that misses the trace (start=1s on one that begins at
 * 683202 s) keeps only metadata, and a WARNING says where the trace is,
 * with the times trace-info shows. */
static void
test_window_misses_trace (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "missed.pftrace", NULL);
  g_autofree char *location = g_strdup_printf ("location=%s", out);
  g_autofree char *expected = NULL;
  g_autoptr (Run) r = NULL;
  Info in;

  if (!have_plugins ())
    return;
  in = trace_info (SLICES);
  r = RUN ("trace-launch", NULL, "-q", "auto-src", "location=" SLICES, "!", "filter", "start=1s", "end=2s", "!",
           "perfetto-sink", location);
  g_assert_cmpint (r->status, ==, 0);
  expected = g_strdup_printf ("WARNING: from /pipeline0/filter0: the time window from 1.000000000 s until "
                              "2.000000000 s holds no event of the trace, which runs from %" G_GINT64_FORMAT
                              ".%09" G_GINT64_FORMAT " s to %" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT " s",
                              in.first / 1000000000, in.first % 1000000000, in.last / 1000000000,
                              in.last % 1000000000);
  g_assert_true (g_str_has_prefix (r->err, expected));
  g_unlink (out);
}

static void
test_bad_relative_time (void)
{
  g_autoptr (Run) r = NULL;

  if (!have_plugins ())
    return;
  r = RUN ("trace-launch", NULL, "-q", "auto-src", "location=" SLICES, "!", "filter", "start=+-1s", "!", "fakesink");
  g_assert_cmpint (r->status, ==, 1);
  g_assert_nonnull (strstr (r->err, "filter0: start: invalid time \"+-1s\""));
}

/* `name=` names the filter element (as in GStreamer), so --filter
 * refuses it, single or batch, pointing at event-name=; nothing written. */
static void
test_filter_name_is_refused (void)
{
  g_autofree char *out = g_build_filename (tools_test_scratch_dir (), "by-name.json", NULL);
  g_autofree char *template = g_build_filename (tools_test_scratch_dir (), "by-name-batch", "{name}.json", NULL);
  g_autoptr (Run) one = NULL, batch = NULL;

  if (!have_plugins ())
    return;
  one = RUN ("trace-convert", NULL, "--filter", "kind=slices name=performTraversals", SLICES, out);
  g_assert_cmpint (one->status, ==, 2);
  g_assert_nonnull (strstr (one->err, "--filter: \"name=performTraversals\" names the filter element itself; to "
                                      "keep events by their name, use event-name=performTraversals"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  batch = RUN ("trace-convert", NULL, "--filter", "name=x", "-o", template, SLICES);
  g_assert_cmpint (batch->status, ==, 2);
  g_assert_nonnull (strstr (batch->err, "use event-name=x"));
}

void
add_filter_tests (void)
{
  g_test_add_func ("/tools/filter/relative/ftrace", test_relative_ftrace);
  g_test_add_func ("/tools/filter/relative/after-metadata", test_relative_after_metadata);
  g_test_add_func ("/tools/filter/window-misses-trace", test_window_misses_trace);
  g_test_add_func ("/tools/filter/bad-relative-time", test_bad_relative_time);
  g_test_add_func ("/tools/filter/name-is-refused", test_filter_name_is_refused);
}
